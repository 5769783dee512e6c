// Clean: the NDRange is rounded up past the buffers' n elements, and the work-items beyond n do nothing.
kernel void clean_guarded_bounds(global const int* in, global int* out, int n) {
  size_t i = get_global_id(0);
  if (i < (size_t)n) out[i] = in[i] * 3;
}
