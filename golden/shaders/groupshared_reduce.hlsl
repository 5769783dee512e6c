// A work-group sum of ints in HLSL: groupshared memory halved in steps separated by GroupMemoryBarrierWithGroupSync,
// and every value's InterlockedMax into one word (any order gives the maximum). The entry point is `reduce`.
StructuredBuffer<int> values : register(t0);
RWStructuredBuffer<int> sums : register(u1);
RWStructuredBuffer<int> maximum : register(u2);
groupshared int partial[64];
[numthreads(64, 1, 1)]
void reduce(uint3 group : SV_GroupID, uint index : SV_GroupIndex, uint3 id : SV_DispatchThreadID) {
  const int v = values[id.x];
  partial[index] = v;
  GroupMemoryBarrierWithGroupSync();
  for (uint s = 32; s > 0; s >>= 1) {
    if (index < s) partial[index] += partial[index + s];
    GroupMemoryBarrierWithGroupSync();
  }
  if (index == 0) sums[group.x] = partial[0];
  InterlockedMax(maximum[0], v);
}
