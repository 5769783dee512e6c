// Clean: async_work_group_copy of the group's slice into local memory, wait_group_events, then each work-item reads
// its neighbour's element.
kernel void clean_async_copy(global const float* in, global float* out, local float* tile) {
  size_t n = get_local_size(0), base = get_group_id(0) * n, lid = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + base, n, 0);
  wait_group_events(1, &e);
  out[base + lid] = tile[(lid + 1) % n] * 2.0f;
}
