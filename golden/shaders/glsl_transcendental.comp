#version 450
// GLSL.std.450 exponential, logarithmic, power, trigonometric and hyperbolic functions in float, 16 results per input
// pair (x, y) in [0.0625, 0.9375]: exp, exp2, log, log2, pow(x, y), sqrt, inversesqrt, sin, cos, tan, asin, acos,
// atan, atan(y, x), sinh, tanh. clref gives each the correctly rounded value.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec2 pairs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = pairs[i].x, y = pairs[i].y;
  uint at = i * 16u;
  results[at + 0] = exp(x);
  results[at + 1] = exp2(y);
  results[at + 2] = log(x);
  results[at + 3] = log2(y);
  results[at + 4] = pow(x, y);
  results[at + 5] = sqrt(x);
  results[at + 6] = inversesqrt(y);
  results[at + 7] = sin(x);
  results[at + 8] = cos(y);
  results[at + 9] = tan(x);
  results[at + 10] = asin(y);
  results[at + 11] = acos(x);
  results[at + 12] = atan(y);
  results[at + 13] = atan(y, x);
  results[at + 14] = sinh(x);
  results[at + 15] = tanh(y);
}
