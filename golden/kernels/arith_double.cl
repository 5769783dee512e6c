// double arithmetic (cl_khr_fp64), one correctly rounded operation at a time.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void arith_double(global const double* a, global const double* b, global double* out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[7 * i + 0] = x + y;
  out[7 * i + 1] = x - y;
  out[7 * i + 2] = x * y;
  out[7 * i + 3] = x / y;
  out[7 * i + 4] = sqrt(fabs(y));
  out[7 * i + 5] = fma(x, y, -1.0);
  out[7 * i + 6] = fmin(x, y) * 0.5;
}

// Horner evaluation of a cubic with coefficients passed by value.
kernel void double_poly(global const double* x, global double* out, double c0, double c1,
                        double c2, double c3) {
  size_t i = get_global_id(0);
  double v = x[i];
  double r = c3;
  r = r * v;
  r = r + c2;
  r = r * v;
  r = r + c1;
  r = r * v;
  r = r + c0;
  out[i] = r;
}
