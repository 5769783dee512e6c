#version 450
// Subgroup votes, ballot bit queries and quad operations checked for any subgroup size: each invocation writes its
// value by (gl_SubgroupID, gl_SubgroupInvocationID) to shared memory and compares subgroupAll, subgroupAny and
// subgroupAllEqual of conditions on it, subgroupInverseBallot, subgroupBallotBitExtract,
// subgroupBallotExclusiveBitCount, subgroupBallotFindLSB, the masks gl_SubgroupEqMask and gl_SubgroupLtMask, and
// subgroupQuadBroadcast, subgroupQuadSwapVertical and subgroupQuadSwapDiagonal with what it reads there, writing 1 for
// each agreement. The work-group (128) is a multiple of every subgroup size from 4 to 128.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint ok[]; };
shared uint table[128];
bool bit(uvec4 mask, uint i) { return ((mask[i / 32u] >> (i % 32u)) & 1u) != 0u; }
void main() {
  uint v = values[gl_GlobalInvocationID.x];
  uint me = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint base = gl_SubgroupID * size;
  table[base + me] = v;
  barrier();
  bool allSmall = true, anyZero = false, allSame = true;
  uint below = 0u, first = size;
  for (uint i = 0u; i < size; ++i) {
    uint w = table[base + i];
    allSmall = allSmall && w < 200u;
    anyZero = anyZero || w == 0u;
    allSame = allSame && (w >> 8) == (table[base] >> 8);
    if ((w & 1u) != 0u && i < me) ++below;
    if ((w & 1u) != 0u && first == size) first = i;
  }
  uvec4 odd = subgroupBallot((v & 1u) != 0u);
  uint at = gl_GlobalInvocationID.x * 12u;
  ok[at + 0u] = subgroupAll(v < 200u) == allSmall ? 1u : 0u;
  ok[at + 1u] = subgroupAny(v == 0u) == anyZero ? 1u : 0u;
  ok[at + 2u] = subgroupAllEqual(v >> 8) == allSame ? 1u : 0u;
  ok[at + 3u] = subgroupInverseBallot(odd) == ((v & 1u) != 0u) ? 1u : 0u;
  uint other = (me + 1u) % size;
  ok[at + 4u] = subgroupBallotBitExtract(odd, other) == ((table[base + other] & 1u) != 0u) ? 1u : 0u;
  ok[at + 5u] = subgroupBallotExclusiveBitCount(odd) == below ? 1u : 0u;
  ok[at + 6u] = first == size || subgroupBallotFindLSB(odd) == first ? 1u : 0u;
  ok[at + 7u] = bit(gl_SubgroupEqMask, me) && subgroupBallotBitCount(gl_SubgroupEqMask) == 1u ? 1u : 0u;
  ok[at + 8u] = subgroupBallotBitCount(gl_SubgroupLtMask) == me && !bit(gl_SubgroupLtMask, me) ? 1u : 0u;
  uint quad = base + (me & ~3u);
  ok[at + 9u] = subgroupQuadBroadcast(v, 2u) == table[quad + 2u] ? 1u : 0u;
  ok[at + 10u] = subgroupQuadSwapVertical(v) == table[base + (me ^ 2u)] ? 1u : 0u;
  ok[at + 11u] = subgroupQuadSwapDiagonal(v) == table[base + (me ^ 3u)] ? 1u : 0u;
}
