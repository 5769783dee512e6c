#version 450
// Integer instructions on pairs (a, b) of ints: signed and unsigned division and modulo (glslang makes % OpSMod and
// OpUMod), shifts, bitwise operations, bitfieldExtract/Insert, bitCount, bitfieldReverse; 12 results per pair.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { ivec2 pairs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { int results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int a = pairs[i].x, b = pairs[i].y;
  uint ua = uint(a), ub = uint(b);
  int bb = b == 0 ? 7 : b;  // no division by zero
  uint at = i * 12u;
  results[at + 0] = a / bb;
  results[at + 1] = a % bb;
  results[at + 2] = int(ua / uint(bb));
  results[at + 3] = int(ua % uint(bb));
  results[at + 4] = a << (b & 31);
  results[at + 5] = a >> (b & 31);
  results[at + 6] = int(ua >> (ub & 31u));
  results[at + 7] = (a & b) ^ (a | ~b);
  results[at + 8] = bitfieldExtract(a, 3, 9);
  results[at + 9] = int(bitfieldInsert(ua, ub, 5, 11));
  results[at + 10] = bitCount(a);
  results[at + 11] = bitfieldReverse(a);
}
