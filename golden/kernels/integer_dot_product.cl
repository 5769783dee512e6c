// build: -cl-std=CL3.0
// spirv: 1.0 SPV_KHR_integer_dot_product
// requires: cl_khr_integer_dot_product __opencl_c_integer_dot_product_input_4x8bit
// requires: __opencl_c_integer_dot_product_input_4x8bit_packed
// cl_khr_integer_dot_product (OpenCL C 3.0 §6.15.3 [[integer-functions]]): dot and dot_acc_sat of char4 and uchar4 in
// every signedness combination, and the packed forms dot_4x8packed_*, dot_acc_sat_4x8packed_* on the same words
// (component 0 in the least significant byte). The cases include the extremes (bytes 0x80, 0x7f, 0xff; accumulators
// at INT_MIN, INT_MAX and UINT_MAX) where dot_acc_sat saturates.
kernel void integer_dot_product(global const uint* a, global const uint* b, global const int* acc, global int* out,
                                global uint* outu) {
  const size_t g = get_global_id(0);
  const uint x = a[g], y = b[g];
  const int c = acc[g];
  const char4 xs = as_char4(x), ys = as_char4(y);
  const uchar4 xu = as_uchar4(x), yu = as_uchar4(y);
  global int* o = out + 12 * g;
  global uint* ou = outu + 4 * g;
  o[0] = dot(xs, ys);
  o[1] = dot(xs, yu);
  o[2] = dot(xu, ys);
  o[3] = dot_acc_sat(xs, ys, c);
  o[4] = dot_acc_sat(xs, yu, c);
  o[5] = dot_acc_sat(xu, ys, c);
  o[6] = dot_4x8packed_ss_int(x, y);
  o[7] = dot_4x8packed_su_int(x, y);
  o[8] = dot_4x8packed_us_int(x, y);
  o[9] = dot_acc_sat_4x8packed_ss_int(x, y, c);
  o[10] = dot_acc_sat_4x8packed_su_int(x, y, c);
  o[11] = dot_acc_sat_4x8packed_us_int(x, y, c);
  ou[0] = dot(xu, yu);
  ou[1] = dot_acc_sat(xu, yu, (uint)c);
  ou[2] = dot_4x8packed_uu_uint(x, y);
  ou[3] = dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
}
