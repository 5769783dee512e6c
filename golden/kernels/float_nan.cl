// Comparisons involving NaN without isnan(): x != x is the NaN test. Every ordered comparison
// with a NaN is false and != is true (OpenCL C 3.0 §6.5.5 [[operators-equality]]). Results are ints.
kernel void float_nan_compare(global const float* a, global const float* b, global int* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[7 * i + 0] = x != x;
  out[7 * i + 1] = x == y;
  out[7 * i + 2] = x != y;
  out[7 * i + 3] = x < y;
  out[7 * i + 4] = x <= y;
  out[7 * i + 5] = x > y;
  out[7 * i + 6] = !(x >= y);  // true when unordered or less
}

// fmin/fmax return the other argument when one is NaN. NaN payloads and the sign of a zero
// result of fmin(-0, +0) are not specified, so NaNs become NAN (bits 0x7fffffff) and zeros +0.
float canon(float r) { return r != r ? NAN : (r == 0.0f ? 0.0f : r); }

kernel void float_minmax_nan(global const float* a, global const float* b, global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[3 * i + 0] = canon(fmin(x, y));
  out[3 * i + 1] = canon(fmax(x, y));
  out[3 * i + 2] = x != x ? y : (y != y ? x : -1.0f);
}
