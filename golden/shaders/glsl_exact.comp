#version 450
// GLSL.std.450 functions whose results are exact or fixed by their formula, 12 results per input pair (x, y): floor,
// fract (x − floor x), clamp(x, -1.5, 2.25), min, max, abs, sign, mix(x, y, 0.25) = x·(1 − 0.25) + y·0.25, step(y, x),
// roundEven, trunc, ldexp(x, 3).
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec2 pairs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = pairs[i].x, y = pairs[i].y;
  uint at = i * 12u;
  results[at + 0] = floor(x);
  results[at + 1] = fract(x);
  results[at + 2] = clamp(x, -1.5, 2.25);
  results[at + 3] = min(x, y);
  results[at + 4] = max(x, y);
  results[at + 5] = abs(x);
  results[at + 6] = sign(x);
  results[at + 7] = mix(x, y, 0.25);
  results[at + 8] = step(y, x);
  results[at + 9] = roundEven(x);
  results[at + 10] = trunc(x);
  results[at + 11] = ldexp(x, 3);
}
