// mad and fma. fma is always fused (one rounding). mad may be fused or not (OpenCL C 3.0
// §6.15.2 [[math-functions]]); clref's default Mad choice is fused, which the expected outputs assume.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF  // only the explicit mad/fma calls fuse

kernel void mad_fma_float(global const float* a, global const float* b, global const float* c,
                          global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  out[3 * i + 0] = fma(x, y, z);
  out[3 * i + 1] = mad(x, y, z);
  out[3 * i + 2] = fma(x, -x, x * x);  // the rounding error of x*x, negated
}

kernel void fma_double(global const double* a, global const double* b, global double* out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  double p = x * y;
  out[2 * i + 0] = p;
  out[2 * i + 1] = fma(x, y, -p);  // exact error of the product
}
