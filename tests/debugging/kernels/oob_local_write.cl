// Off by one, local write: the loop that clears a local histogram runs one step too far (<= instead of <).
kernel void oob_local_write(global const int* in, global int* out) {
  local int hist[8];
  size_t lid = get_local_id(0);
  if (lid == 0)
    for (int b = 0; b <= 8; ++b) hist[b] = 0;  // BUG: hist[8] is past the end of the array
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&hist[in[get_global_id(0)] & 7]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = hist[lid];
}
