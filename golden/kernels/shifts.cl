// Shifts with counts at or above the bit width. OpenCL C 3.0 §6.5.10 [[operators-shift]]: only the log2(N) low bits
// of the count are used, N being the width of the (promoted, for scalars) left operand; for
// vectors N is the element width. Counts come from the buffer so nothing is folded early.
kernel void shift_uint(global const uint* v, global const uint* n, global uint* out) {
  size_t i = get_global_id(0);
  uint x = v[i], s = n[i];
  out[3 * i + 0] = x << s;
  out[3 * i + 1] = x >> s;
  out[3 * i + 2] = (x << s) | (x >> (32u - s));  // rotate; 32 - 0 = 32 is taken modulo 32
}

kernel void shift_int(global const int* v, global const uint* n, global int* out) {
  size_t i = get_global_id(0);
  int x = v[i];
  uint s = n[i];
  out[i] = x >> s;  // arithmetic shift of negative values keeps the sign
}

kernel void shift_ulong(global const ulong* v, global const uint* n, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = v[i];
  uint s = n[i];
  out[2 * i + 0] = x << s;  // modulo 64
  out[2 * i + 1] = x >> s;
}

// Scalar uchar is promoted to int, so its shift count is taken modulo 32 and the store
// truncates; uchar4 is not promoted, so its counts are taken modulo 8.
kernel void shift_small(global const uchar* v, global const uchar* n, global uchar* sc,
                        global uchar4* vec) {
  size_t i = get_global_id(0);
  uchar x = v[i], s = n[i];
  sc[2 * i + 0] = x << s;
  sc[2 * i + 1] = x >> s;
  uchar4 xv = (uchar4)(x, x + 1, x + 2, x + 3);
  uchar4 sv = (uchar4)(s, s + 1, s + 2, s + 3);
  vec[i] = xv << sv;
}
