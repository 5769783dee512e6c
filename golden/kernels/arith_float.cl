// float arithmetic, one correctly rounded operation at a time. FP_CONTRACT OFF keeps clang from
// fusing a*b+c into mad (OpenCL C 3.0 §6.15.2.1 [[floating-point-macros-and-pragmas]]), so the result does not depend
// on the Mad choice.
#pragma OPENCL FP_CONTRACT OFF

kernel void arith_float(global const float* a, global const float* b, global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[8 * i + 0] = x + y;
  out[8 * i + 1] = x - y;
  out[8 * i + 2] = x * y;
  out[8 * i + 3] = x / y;
  out[8 * i + 4] = -x;
  out[8 * i + 5] = fabs(x);
  out[8 * i + 6] = sqrt(fabs(x));
  out[8 * i + 7] = fmax(x, y) - fmin(x, y);
}

// IEEE special values (inf, NaN, subnormals, signed zeros). NaN payloads are not specified by
// OpenCL, so every NaN result is replaced by NAN before the store (clang defines NAN as
// as_float(INT_MAX), bits 0x7fffffff).
float canon(float r) { return r != r ? NAN : r; }

kernel void arith_float_special(global const float* a, global const float* b, global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[5 * i + 0] = canon(x + y);
  out[5 * i + 1] = canon(x - y);
  out[5 * i + 2] = canon(x * y);
  out[5 * i + 3] = canon(x / y);
  out[5 * i + 4] = canon(-x);
}
