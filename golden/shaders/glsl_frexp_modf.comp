#version 450
// GLSL.std.450 functions with two results or an integer operand, 8 results per input pair (x, y): frexp(x) (the
// significand, and the exponent as a float), modf(x) (the fraction, and the whole number), ldexp(y, e) for the
// exponent e of x, fma(x, y, -x) (one rounding), isnan(y - y) and isinf(y) as 0.0 or 1.0. x is finite (frexp of an
// infinity or NaN is undefined), y may be infinite.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec2 pairs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = pairs[i].x, y = pairs[i].y;
  int e;
  float significand = frexp(x, e);
  float whole;
  float fraction = modf(x, whole);
  uint at = i * 8u;
  results[at + 0] = significand;
  results[at + 1] = float(e);
  results[at + 2] = fraction;
  results[at + 3] = whole;
  results[at + 4] = ldexp(y, e);
  results[at + 5] = fma(x, y, -x);
  results[at + 6] = isnan(y - y) ? 1.0 : 0.0;
  results[at + 7] = isinf(y) ? 1.0 : 0.0;
}
