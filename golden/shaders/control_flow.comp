#version 450
// Loops with break and continue, a switch with fall-through, and early return: the Collatz step count of each input
// (capped at 1000), and a classification of it by a switch.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint inputs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec2 outputs[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = inputs[i];
  if (n == 0u) {
    outputs[i] = uvec2(0u, 99u);
    return;
  }
  uint steps = 0u;
  while (true) {
    if (n == 1u) break;
    ++steps;
    if (steps >= 1000u) break;
    if ((n & 1u) == 0u) {
      n /= 2u;
      continue;
    }
    n = 3u * n + 1u;
  }
  uint kind = 0u;
  switch (steps % 5u) {
    case 0u: kind += 10u;
    case 1u: kind += 1u; break;
    case 2u:
    case 3u: kind = 7u; break;
    default: kind = 42u;
  }
  outputs[i] = uvec2(steps, kind);
}
