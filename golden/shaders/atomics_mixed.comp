#version 450
// Atomics whose final values every order of them gives: min, max, or, xor, add of each input, into a storage buffer,
// and an exchange counter through shared memory.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) buffer Acc { int lo; int hi; uint bits; uint parity; int sum; uint groups; };
shared uint arrivals;
void main() {
  int v = values[gl_GlobalInvocationID.x];
  if (gl_LocalInvocationIndex == 0u) arrivals = 0u;
  barrier();
  atomicMin(lo, v);
  atomicMax(hi, v);
  atomicOr(bits, uint(v) & 0xff00u);
  atomicXor(parity, uint(v));
  atomicAdd(sum, v);
  uint mine = atomicAdd(arrivals, 1u);
  barrier();
  if (gl_LocalInvocationIndex == 0u && arrivals == 16u) atomicAdd(groups, 1u);
  if (mine == 100u) atomicAdd(groups, 1000u);  // never: 16 arrivals per group
}
