#version 450
// atomicCompSwap loops: each invocation multiplies a storage buffer word and a shared word by its input made odd,
// modulo 2^32, retrying until its swap succeeds (multiplication commutes, so every order of the swaps gives the same
// product); and it claims slot (7·l) mod 32 of a shared table (a permutation: each slot is asked for once) with
// atomicCompSwap(slot, 0, l + 1). Each group writes its table and its product.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint factors[]; };
layout(std430, set = 0, binding = 1) buffer Acc { uint product; uint owners[]; };
shared uint groupProduct;
shared uint slots[32];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint f = factors[gl_GlobalInvocationID.x] | 1u;
  if (l == 0u) groupProduct = 1u;
  slots[l] = 0u;
  barrier();
  uint seen = 1u;  // a guess: a failed swap returns the current value
  while (true) {
    uint swapped = atomicCompSwap(product, seen, seen * f);
    if (swapped == seen) break;
    seen = swapped;
  }
  uint local = 1u;
  for (uint was; (was = atomicCompSwap(groupProduct, local, local * f)) != local;) local = was;
  atomicCompSwap(slots[(l * 7u) % 32u], 0u, l + 1u);
  barrier();
  uint base = gl_WorkGroupID.x * 33u;
  owners[base + l] = slots[l];
  if (l == 0u) owners[base + 32u] = groupProduct;
}
