// A tree reduction in local memory without the barrier between its steps: a work-item reads tmp[lid + s] while the
// work-item that owns that element may still be adding into it in the previous step.
kernel void race_reduce_no_barrier(global const int* in, global int* out, local int* tmp) {
  size_t lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];  // BUG: no barrier(CLK_LOCAL_MEM_FENCE) after each step
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
