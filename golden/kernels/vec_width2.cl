// Two-element vectors: short2 and double2.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void vec_short2(global const short2* a, global const short2* b, global short2* out) {
  size_t i = get_global_id(0);
  short2 x = a[i], y = b[i];
  out[3 * i + 0] = x + y;  // wraps in 16 bits (vector ops are done in the element type)
  out[3 * i + 1] = x.yx - y;
  out[3 * i + 2] = (short2)(x.x * y.y, x.y & y.x);  // scalar products promote, then truncate
}

kernel void vec_double2(global const double2* a, global const double2* b, global double2* out) {
  size_t i = get_global_id(0);
  double2 x = a[i], y = b[i];
  out[2 * i + 0] = x * y + (double2)(0.25, -0.25);  // contraction is off: multiply, then add
  out[2 * i + 1] = x.yx / y;
}
