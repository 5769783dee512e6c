// A barrier inside a branch that only half of the work-group takes: barrier divergence.
kernel void barrier_divergent_if(global int* data, local int* tmp) {
  size_t lid = get_local_id(0), mid = get_local_size(0) / 2;
  tmp[lid] = data[get_global_id(0)];
  if (lid < mid) {
    barrier(CLK_LOCAL_MEM_FENCE);  // BUG: only the lower half of the group reaches this barrier
    data[get_global_id(0)] = tmp[lid + mid];
  }
}
