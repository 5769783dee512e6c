// float16 vectors: element-wise ops and the s-index swizzles.
#pragma OPENCL FP_CONTRACT OFF

kernel void vec_float16(global const float16* a, global const float16* b, global float16* out) {
  size_t i = get_global_id(0);
  float16 x = a[i], y = b[i];
  float16 p = x * y;
  out[2 * i + 0] = p + x;
  // Reverse x (sF..s0) and subtract y's odd/even interleave.
  float16 r = x.sfedcba9876543210;
  float8 e = y.even, o = y.odd;
  out[2 * i + 1] = r - (float16)(e, o);
}
