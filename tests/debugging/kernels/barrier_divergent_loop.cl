// A loop with barriers whose trip count depends on the work-item: the work-items of a group disagree on how many
// barriers they reach.
kernel void barrier_divergent_loop(global const int* counts, global int* out, local int* tmp) {
  size_t lid = get_local_id(0);
  int acc = 0;
  for (int k = 0; k < counts[get_global_id(0)]; ++k) {  // BUG: a trip count that differs between work-items
    tmp[lid] = acc + k;
    barrier(CLK_LOCAL_MEM_FENCE);  // BUG: reached a different number of times by different work-items
    acc += tmp[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
