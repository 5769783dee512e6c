// Off by one, global write: a shift to the right by one element makes the last work-item write one element past
// the end of `out`.
kernel void oob_global_write(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i + 1] = in[i];  // BUG: the last work-item writes out[n]
}
