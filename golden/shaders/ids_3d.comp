#version 450
// The compute built-ins of a 3-D dispatch, one record of 13 uints per invocation in global linear order:
// GlobalInvocationID, LocalInvocationID, WorkGroupID, NumWorkGroups (3 each), then LocalInvocationIndex.
layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint records[]; };
void main() {
  uvec3 total = gl_NumWorkGroups * gl_WorkGroupSize;
  uvec3 g = gl_GlobalInvocationID;
  uint linear = (g.z * total.y + g.y) * total.x + g.x;
  uint at = linear * 13u;
  records[at + 0] = g.x;
  records[at + 1] = g.y;
  records[at + 2] = g.z;
  records[at + 3] = gl_LocalInvocationID.x;
  records[at + 4] = gl_LocalInvocationID.y;
  records[at + 5] = gl_LocalInvocationID.z;
  records[at + 6] = gl_WorkGroupID.x;
  records[at + 7] = gl_WorkGroupID.y;
  records[at + 8] = gl_WorkGroupID.z;
  records[at + 9] = gl_NumWorkGroups.x;
  records[at + 10] = gl_NumWorkGroups.y;
  records[at + 11] = gl_NumWorkGroups.z;
  records[at + 12] = gl_LocalInvocationIndex;
}
