// Explicit conversions with rounding modes and saturation (OpenCL C 1.2 §6.2.3 "Explicit Conversions"):
// FPRoundingMode and SaturatedConversion decorations in SPIR-V.
kernel void convert_rounding(global const float* f, global const int* i, global const long* l,
                             global int* o, global uchar* u, global float* fo, global char* c) {
  const size_t g = get_global_id(0);
  o[g * 4 + 0] = convert_int_rte(f[g]);
  o[g * 4 + 1] = convert_int_rtp(f[g]);
  o[g * 4 + 2] = convert_int_rtn(f[g]);
  o[g * 4 + 3] = convert_int_sat(f[g]);
  u[g * 2 + 0] = convert_uchar_sat(i[g]);
  u[g * 2 + 1] = convert_uchar_sat_rte(f[g]);
  fo[g * 3 + 0] = convert_float_rtz(l[g]);
  fo[g * 3 + 1] = convert_float_rtp(l[g]);
  fo[g * 3 + 2] = convert_float_rtn(i[g]);
  c[g] = convert_char_sat(l[g]);
}
