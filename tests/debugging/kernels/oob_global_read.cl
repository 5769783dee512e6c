// Off by one, global read: each work-item averages its element with the next one, and the NDRange covers exactly
// the buffer, so the last work-item reads one element past the end of `in`.
kernel void oob_global_read(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  out[i] = 0.5f * (in[i] + in[i + 1]);  // BUG: in[i + 1] is past the end for the last work-item
}
