// A global write, then barrier(CLK_LOCAL_MEM_FENCE), then a read of the neighbour's global element: that barrier
// orders local memory only, so the neighbour's write to global memory and this read race.
kernel void race_global_local_fence(global const int* in, global int* buf, global int* out) {
  size_t i = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  buf[i] = in[i] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = buf[i - lid + (lid + 1) % n];  // BUG: the barrier above does not fence buf (needs CLK_GLOBAL_MEM_FENCE)
}
