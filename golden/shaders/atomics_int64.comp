#version 450
// 64-bit integer atomics (GL_EXT_shader_atomic_int64) whose final values every order gives: atomicAdd, atomicMin and
// atomicMax of signed values, atomicOr and atomicXor of unsigned ones spread over all 64 bits, and a counter gaining
// 2^32 per invocation (a carry out of the low word) whose returned value stays below 4096·2^32.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int64_t values[]; };
layout(std430, set = 0, binding = 1) buffer Acc {
  int64_t sum;
  int64_t lo;
  int64_t hi;
  uint64_t bits;
  uint64_t parity;
  uint64_t count;
};
void main() {
  int64_t v = values[gl_GlobalInvocationID.x];
  uint64_t u = uint64_t(v);
  atomicAdd(sum, v);
  atomicMin(lo, v);
  atomicMax(hi, v);
  atomicOr(bits, u & 0xf0f0f0f0f0f0f0f0ul);
  atomicXor(parity, u * 0x9e3779b97f4a7c15ul);
  uint64_t before = atomicAdd(count, 0x100000000ul);
  if (before >= 0x100000000ul * 4096ul) atomicAdd(count, 1ul);  // never: fewer than 4096 invocations
}
