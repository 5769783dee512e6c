#version 450
// Subgroup shuffles, ballots and clustered reductions checked for any subgroup size: each invocation writes its value
// by (gl_SubgroupID, gl_SubgroupInvocationID) to shared memory and compares subgroupShuffle, subgroupShuffleXor,
// subgroupShuffleUp and Down (within the subgroup only), subgroupBroadcast, subgroupBallotInclusiveBitCount,
// subgroupBallotFindMSB, subgroupClusteredAdd over clusters of 4 and subgroupQuadSwapHorizontal with what it reads
// there, writing 1 for each agreement. The work-group (128) is a multiple of every subgroup size from 4 to 128.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint ok[]; };
shared uint table[128];
void main() {
  uint v = values[gl_GlobalInvocationID.x];
  uint me = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint base = gl_SubgroupID * size;
  table[base + me] = v;
  barrier();
  uint at = gl_GlobalInvocationID.x * 9u;
  uint partner = (me * 5u + 3u) % size;
  ok[at + 0u] = subgroupShuffle(v, partner) == table[base + partner] ? 1u : 0u;
  ok[at + 1u] = subgroupShuffleXor(v, 1u) == table[base + (me ^ 1u)] ? 1u : 0u;
  uint up = subgroupShuffleUp(v, 2u), down = subgroupShuffleDown(v, 3u);
  ok[at + 2u] = me < 2u || up == table[base + me - 2u] ? 1u : 0u;
  ok[at + 3u] = me + 3u >= size || down == table[base + me + 3u] ? 1u : 0u;
  ok[at + 4u] = subgroupBroadcast(v, 3u) == table[base + 3u] ? 1u : 0u;
  bool odd = (v & 1u) != 0u;
  uvec4 ballot = subgroupBallot(odd);
  uint oddUpTo = 0u;
  int last = -1;
  for (uint i = 0u; i < size; ++i) {
    bool o = (table[base + i] & 1u) != 0u;
    if (o && i <= me) ++oddUpTo;
    if (o) last = int(i);
  }
  ok[at + 5u] = subgroupBallotInclusiveBitCount(ballot) == oddUpTo ? 1u : 0u;
  ok[at + 6u] = last < 0 || subgroupBallotFindMSB(ballot) == uint(last) ? 1u : 0u;
  uint cluster = base + (me & ~3u);
  uint clusterSum = table[cluster] + table[cluster + 1u] + table[cluster + 2u] + table[cluster + 3u];
  ok[at + 7u] = subgroupClusteredAdd(v, 4u) == clusterSum ? 1u : 0u;
  ok[at + 8u] = subgroupQuadSwapHorizontal(v) == table[base + (me ^ 1u)] ? 1u : 0u;
}
