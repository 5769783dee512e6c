#version 450
// GLSL.std.450 integer functions and packing, 10 results per input word w: findLSB, findMSB (signed and unsigned),
// abs, sign, clamp, min, max of the word's signed value and a bias, packUnorm4x8 of four fixed fractions scaled by the
// word's low byte, unpackUnorm4x8's first component as bits.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { int results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int w = words[i];
  uint at = i * 10u;
  results[at + 0] = findLSB(w);
  results[at + 1] = findMSB(w);
  results[at + 2] = findMSB(uint(w));
  results[at + 3] = abs(w);
  results[at + 4] = sign(w);
  results[at + 5] = clamp(w, -1000, 1000);
  results[at + 6] = min(w, 7);
  results[at + 7] = max(w, -7);
  float s = float(w & 255) / 255.0;
  results[at + 8] = int(packUnorm4x8(vec4(0.0, 0.5, 1.0, s)));
  results[at + 9] = floatBitsToInt(unpackUnorm4x8(uint(w)).x);
}
