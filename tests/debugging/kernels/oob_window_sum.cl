// Off by one in a loop bound: a moving sum over a window of `w` elements reads w + 1 of them (<= instead of <), so
// the last work-item reads past the end of `in` (which holds global size + w - 1 elements).
kernel void oob_window_sum(global const float* in, global float* out, int w) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k <= w; ++k) s += in[i + k];  // BUG: k == w is one element too many
  out[i] = s;
}
