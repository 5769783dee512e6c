#version 450
// Float atomics (GL_EXT_shader_atomic_float): atomicAdd of multiples of 1/8 below 2^10 into a storage buffer word and
// into a shared one, whose every partial sum is exact (any order gives the same total), and atomicExchange of a
// float into shared memory read back after a barrier by one invocation that writes whether it is one of the inputs.
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { float values[]; };
layout(std430, set = 0, binding = 1) buffer Acc { float total; float groupTotals[]; };
shared float groupSum;
shared float last;
void main() {
  uint l = gl_LocalInvocationIndex;
  float v = values[gl_GlobalInvocationID.x];
  if (l == 0u) groupSum = 0.0;
  barrier();
  atomicAdd(total, v);
  atomicAdd(groupSum, v);
  atomicExchange(last, v);
  barrier();
  if (l == 0u) {
    groupTotals[gl_WorkGroupID.x] = groupSum;
    bool found = false;
    for (uint k = 0u; k < 64u; ++k) found = found || values[gl_WorkGroupID.x * 64u + k] == last;
    groupTotals[gl_NumWorkGroups.x + gl_WorkGroupID.x] = found ? 1.0 : 0.0;
  }
}
