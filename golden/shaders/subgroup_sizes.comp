#version 450
// Subgroup operations whose results every subgroup size gives: each invocation checks subgroupAdd(1), the number of
// active invocations, against gl_SubgroupSize, subgroupBallot's count, subgroupMax of its invocation id,
// subgroupBroadcastFirst and subgroupElect, and writes 1 for agreement. The work-group (48) is a multiple of every
// size from 4 to 16 but not of 32 or 64.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 48) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint ok[]; };
void main() {
  uint count = subgroupAdd(1u);
  uvec4 ballot = subgroupBallot(true);
  bool good = count == subgroupBallotBitCount(ballot);
  good = good && count <= gl_SubgroupSize;
  good = good && subgroupMax(gl_SubgroupInvocationID) == count - 1u;
  good = good && subgroupBroadcastFirst(gl_SubgroupInvocationID) == 0u;
  good = good && subgroupElect() == (gl_SubgroupInvocationID == 0u);
  ok[gl_GlobalInvocationID.x] = good ? 1u : 0u;
}
