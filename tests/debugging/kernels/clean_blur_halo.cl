// Clean: a 3-point blur through a local tile whose halo the edge work-items load (clamped at the ends of the
// buffer) before the barrier.
kernel void clean_blur_halo(global const float* in, global float* out, local float* tile) {
  int lid = get_local_id(0), n = get_local_size(0), i = get_global_id(0), last = get_global_size(0) - 1;
  tile[lid + 1] = in[i];
  if (lid == 0) tile[0] = in[max(i - 1, 0)];
  if (lid == n - 1) tile[n + 1] = in[min(i + 1, last)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = (tile[lid] + tile[lid + 1] + tile[lid + 2]) / 3.0f;
}
