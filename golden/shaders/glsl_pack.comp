#version 450
// GLSL.std.450 packing and unpacking, 10 words per input vec4 v (components in [-1.5, 1.5]) and word w:
// packSnorm4x8(v), packUnorm2x16(v.xy), packSnorm2x16(v.zw), packHalf2x16(v.xy), then the bits of
// unpackSnorm4x8(w).x, unpackSnorm2x16(w).y, unpackUnorm2x16(w).x, unpackHalf2x16(w) (x and y) and
// packUnorm4x8(unpackUnorm4x8(w)) (the round trip gives w back).
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 vectors[]; };
layout(std430, set = 0, binding = 1) readonly buffer Words { uint words[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = vectors[i];
  uint w = words[i];
  uint at = i * 10u;
  results[at + 0] = packSnorm4x8(v);
  results[at + 1] = packUnorm2x16(v.xy);
  results[at + 2] = packSnorm2x16(v.zw);
  results[at + 3] = packHalf2x16(v.xy);
  results[at + 4] = floatBitsToUint(unpackSnorm4x8(w).x);
  results[at + 5] = floatBitsToUint(unpackSnorm2x16(w).y);
  results[at + 6] = floatBitsToUint(unpackUnorm2x16(w).x);
  vec2 h = unpackHalf2x16(w);
  results[at + 7] = floatBitsToUint(h.x);
  results[at + 8] = floatBitsToUint(h.y);
  results[at + 9] = packUnorm4x8(unpackUnorm4x8(w));
}
