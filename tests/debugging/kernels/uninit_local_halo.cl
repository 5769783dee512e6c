// A 3-point blur through a local tile with a one-element halo on each side that is never loaded: the work-items at
// the edges of the group read tile[0] and tile[local size + 1], which nothing wrote.
kernel void uninit_local_halo(global const float* in, global float* out, local float* tile) {
  size_t lid = get_local_id(0), i = get_global_id(0);
  tile[lid + 1] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = (tile[lid] + tile[lid + 1] + tile[lid + 2]) / 3.0f;  // BUG: the halo elements were never loaded
}
