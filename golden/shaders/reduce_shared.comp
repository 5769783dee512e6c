#version 450
// A tree reduction of ints in shared memory: the work-group size is specialization constant 0, the shared array is
// sized by it, and barrier() separates the steps. Out of range elements count as 0.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { int sums[]; };
layout(push_constant) uniform Push { uint count; } pc;
shared int partial[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  partial[l] = g < pc.count ? values[g] : 0;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0) sums[gl_WorkGroupID.x] = partial[0];
}
