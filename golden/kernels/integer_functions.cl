// OpenCL C 1.2 §6.12.3 "Integer Functions" integer functions on int and uint (each lowers to an OpenCL.std
// instruction): abs_diff, add_sat, sub_sat, hadd, rhadd, mul_hi, mad_sat, clz, mad24,
// rotate, popcount, upsample.
kernel void integer_functions(global const int* a, global const int* b, global const uint* ua,
                              global const uint* ub, global int* o, global uint* uo, global long* l) {
  const size_t i = get_global_id(0);
  const int x = a[i], y = b[i];
  const uint u = ua[i], v = ub[i];
  o[i * 8 + 0] = abs_diff(x, y);
  o[i * 8 + 1] = add_sat(x, y);
  o[i * 8 + 2] = sub_sat(x, y);
  o[i * 8 + 3] = hadd(x, y);
  o[i * 8 + 4] = rhadd(x, y);
  o[i * 8 + 5] = mul_hi(x, y);
  o[i * 8 + 6] = mad_sat(x, y, x);
  o[i * 8 + 7] = clz(x);
  uo[i * 8 + 0] = add_sat(u, v);
  uo[i * 8 + 1] = sub_sat(u, v);
  uo[i * 8 + 2] = mul_hi(u, v);
  uo[i * 8 + 3] = rotate(u, v);
  uo[i * 8 + 4] = popcount(u);
  uo[i * 8 + 5] = clz(u);
  uo[i * 8 + 6] = mad24(u & 0xffffffu, v & 0xffffffu, u);
  uo[i * 8 + 7] = mad_sat(u, v, u);
  l[i] = upsample(x, u);
}
