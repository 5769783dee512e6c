// Clean: a global write, barrier(CLK_GLOBAL_MEM_FENCE), then a read of a neighbour's element within the same
// work-group (the barrier orders global memory between the work-items of a group).
kernel void clean_global_fence(global const int* in, global int* buf, global int* out) {
  size_t i = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  buf[i] = in[i] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = buf[i - lid + (lid + 1) % n];
}
