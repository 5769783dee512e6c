// half arithmetic (cl_khr_fp16) on half buffers: every operation is rounded to half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void arith_half(global const half* a, global const half* b, global half* out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[6 * i + 0] = x + y;
  out[6 * i + 1] = x - y;
  out[6 * i + 2] = x * y;
  out[6 * i + 3] = x / y;
  out[6 * i + 4] = x < y ? x : y;
  half t = x * y;
  out[6 * i + 5] = t + x;  // two roundings: (x*y rounded) + x rounded
}

// half <-> float conversions: half -> float is exact, float -> half rounds to nearest even.
kernel void half_convert(global const float* f, global half* h, global float* back) {
  size_t i = get_global_id(0);
  half v = (half)f[i];
  h[i] = v;
  back[i] = (float)v * 2.0f;
}
