// Comparisons and the ternary operator. Scalar comparisons yield int 0/1; vector comparisons
// yield -1/0 per element (OpenCL C 3.0 §6.5.4 [[operators-relational]]).
kernel void compare_int(global const int* a, global const int* b, global int* out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  out[7 * i + 0] = x == y;
  out[7 * i + 1] = x != y;
  out[7 * i + 2] = x < y;
  out[7 * i + 3] = x <= y;
  out[7 * i + 4] = x > y;
  out[7 * i + 5] = x >= y;
  out[7 * i + 6] = x < y ? y : x;
}

// The same bits compared as unsigned: negative ints become large uints.
kernel void compare_uint(global const uint* a, global const uint* b, global int* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[3 * i + 0] = x < y;
  out[3 * i + 1] = x >= y;
  out[3 * i + 2] = (x > y) ? (int)(x - y) : -1;
}

kernel void select_vec(global const int4* a, global const int4* b, global int4* mask,
                       global int4* sel) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  mask[i] = x < y;
  sel[i] = x < y ? x : y;
}
