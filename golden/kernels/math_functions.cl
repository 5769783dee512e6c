// OpenCL C 1.2 §6.12.2 "Math Functions" math functions through the interpreter: clref returns the correctly
// rounded result of each (the spec allows some ulps; the reference is exact).
kernel void math_functions(global const float4* x, global const float4* y, global float4* o,
                           global int4* io) {
  const size_t g = get_global_id(0);
  const float4 a = x[g], b = y[g];
  int4 e, q;
  float4 c, ip;
  o[g * 12 + 0] = sin(a);
  o[g * 12 + 1] = exp(a * 0.1f);
  o[g * 12 + 2] = log(fabs(b) + 1.0f);
  o[g * 12 + 3] = pow(fabs(a) + 0.5f, b * 0.25f);
  o[g * 12 + 4] = atan2(a, b);
  o[g * 12 + 5] = rsqrt(fabs(b) + 1.0f);
  o[g * 12 + 6] = sinpi(a * 0.01f);
  o[g * 12 + 7] = frexp(a, &e);
  o[g * 12 + 8] = ldexp(b, 3);
  o[g * 12 + 9] = sincos(a, &c);
  o[g * 12 + 10] = c;
  o[g * 12 + 11] = remquo(a, b, &q);
  io[g * 2] = e;
  io[g * 2 + 1] = q;
}
