// Asynchronous work-group copies (OpenCL C 1.2
// §6.12.10 "Async Copies from Global to Local Memory, Local to Global Memory, and Prefetch"): a tile of `in` is copied
// into local memory, scaled, and written back strided; wait_group_events completes each copy.
#pragma OPENCL FP_CONTRACT OFF
kernel void async_copy(global const float* in, global float* out, local float* tile) {
  const size_t g = get_group_id(0), l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  tile[l] = tile[l] * 2.0f + 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Out of local memory with a stride: out[g*n + 2*i] = tile[i] for the first n/2 elements.
  e = async_work_group_strided_copy(out + g * n, tile, n / 2, 2, 0);
  wait_group_events(1, &e);
}
