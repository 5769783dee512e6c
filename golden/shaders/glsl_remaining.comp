#version 450
// The GLSL.std.450 functions the other glsl_*.comp shaders leave out. Per float x and y in [0.0625, 0.9375): ceil(x),
// round(x) (a half away from zero: the choice glsl_round_half's default), radians(x) and degrees(x) (x times the
// correctly rounded constant π/180 or 180/π), smoothstep(-1, 2, x) (t = clamp((x + 1) / 3, 0, 1), t·t·(3 − 2·t)),
// cosh(y), asinh(y), acosh(y + 1) and atanh(y) (correctly rounded). Per word w: min, max and clamp of uints, and
// packDouble2x32 / unpackDouble2x32 of (w, 0x3ff00000) (a bit copy: the double in [1, 2) whose low word is w).
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer Xs { float xs[]; };
layout(std430, set = 0, binding = 1) readonly buffer Ys { float ys[]; };
layout(std430, set = 0, binding = 2) readonly buffer Words { uint words[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out { float results[]; };
layout(std430, set = 0, binding = 4) writeonly buffer OutWords { uint wordResults[]; };
layout(std430, set = 0, binding = 5) writeonly buffer OutDoubles { double doubles[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = xs[i], y = ys[i];
  uint w = words[i];
  uint at = i * 9u;
  results[at + 0] = ceil(x);
  results[at + 1] = round(x);
  results[at + 2] = radians(x);
  results[at + 3] = degrees(x);
  results[at + 4] = smoothstep(-1.0, 2.0, x);
  results[at + 5] = cosh(y);
  results[at + 6] = asinh(y);
  results[at + 7] = acosh(y + 1.0);
  results[at + 8] = atanh(y);
  double d = packDouble2x32(uvec2(w, 0x3ff00000u));
  uvec2 back = unpackDouble2x32(d * 2.0);
  doubles[i] = d;
  wordResults[5u * i + 0u] = min(w, 1000u);
  wordResults[5u * i + 1u] = max(w, 0x80000000u);
  wordResults[5u * i + 2u] = clamp(w, 100u, 0xfffff000u);
  wordResults[5u * i + 3u] = back.x;
  wordResults[5u * i + 4u] = back.y;
}
