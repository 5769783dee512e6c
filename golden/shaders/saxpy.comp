#version 450
// y = a·x + y with `a` a push constant: one FMul and one FAdd per element, each correctly rounded (no contraction in
// clref's reference value).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Push { float a; uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) y[i] = pc.a * x[i] + y[i];
}
