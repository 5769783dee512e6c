#version 450
// Subgroup arithmetic checked for any subgroup size: each invocation writes its value, gl_SubgroupID and
// gl_SubgroupInvocationID to shared memory, then compares subgroupAdd, subgroupMul, subgroupMin, subgroupMax,
// subgroupAnd, subgroupOr, subgroupXor and the inclusive and exclusive add and min scans of its value with its own
// recomputation over the members of its subgroup found there, and writes 1 for each agreement (wrapping integer
// arithmetic: every grouping gives the same sums and products).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 80) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint ok[]; };
shared int value[80];
shared uint subgroup[80];
shared uint member[80];
void main() {
  uint l = gl_LocalInvocationIndex;
  int v = values[gl_GlobalInvocationID.x];
  value[l] = v;
  subgroup[l] = gl_SubgroupID;
  member[l] = gl_SubgroupInvocationID;
  barrier();
  int sum = 0, product = 1, low = 0x7fffffff, high = -0x7fffffff - 1, all = -1, any = 0, parity = 0;
  int before = 0, lowBefore = 0x7fffffff;
  for (uint i = 0u; i < 80u; ++i) {
    if (subgroup[i] != gl_SubgroupID) continue;
    int w = value[i];
    sum += w;
    product *= w;
    low = min(low, w);
    high = max(high, w);
    all &= w;
    any |= w;
    parity ^= w;
    if (member[i] < gl_SubgroupInvocationID) {
      before += w;
      lowBefore = min(lowBefore, w);
    }
  }
  uint at = gl_GlobalInvocationID.x * 11u;
  ok[at + 0u] = subgroupAdd(v) == sum ? 1u : 0u;
  ok[at + 1u] = subgroupMul(v) == product ? 1u : 0u;
  ok[at + 2u] = subgroupMin(v) == low ? 1u : 0u;
  ok[at + 3u] = subgroupMax(v) == high ? 1u : 0u;
  ok[at + 4u] = subgroupAnd(v) == all ? 1u : 0u;
  ok[at + 5u] = subgroupOr(v) == any ? 1u : 0u;
  ok[at + 6u] = subgroupXor(v) == parity ? 1u : 0u;
  ok[at + 7u] = subgroupInclusiveAdd(v) == before + v ? 1u : 0u;
  ok[at + 8u] = subgroupExclusiveAdd(v) == before ? 1u : 0u;
  ok[at + 9u] = subgroupInclusiveMin(v) == min(lowBefore, v) ? 1u : 0u;
  ok[at + 10u] = subgroupExclusiveMin(v) == lowBefore ? 1u : 0u;
}
