// HLSL wave intrinsics checked for any wave size: each lane writes its value and its wave's key (the first lane's
// group index, WaveReadLaneFirst) to groupshared memory, then compares WaveActiveSum, WaveActiveMin,
// WaveActiveMax, WaveActiveCountBits, WaveActiveBitOr and WavePrefixCountBits with its own recomputation over the
// members of its wave found there (lanes ordered by WaveGetLaneIndex), and writes 1 for each agreement. WavePrefixSum
// is left out: glslang 12 compiles it to an inclusive scan, where HLSL's is exclusive.
StructuredBuffer<uint> values : register(t0);
RWStructuredBuffer<uint> ok : register(u1);
groupshared uint value[96];
groupshared uint key[96];
groupshared uint lane[96];
[numthreads(96, 1, 1)]
void main(uint index : SV_GroupIndex, uint3 id : SV_DispatchThreadID) {
  const uint v = values[id.x];
  const uint me = WaveGetLaneIndex();
  value[index] = v;
  key[index] = WaveReadLaneFirst(index);
  lane[index] = me;
  GroupMemoryBarrierWithGroupSync();
  uint sum = 0, low = 0xffffffffu, high = 0, odd = 0, bits = 0, oddBefore = 0, members = 0;
  for (uint i = 0; i < 96; ++i) {
    if (key[i] != key[index]) continue;
    ++members;
    sum += value[i];
    low = min(low, value[i]);
    high = max(high, value[i]);
    odd += value[i] & 1u;
    bits |= value[i];
    if (lane[i] < me) oddBefore += value[i] & 1u;
  }
  const uint at = id.x * 7;
  ok[at + 0] = WaveActiveSum(v) == sum ? 1u : 0u;
  ok[at + 1] = WaveActiveMin(v) == low ? 1u : 0u;
  ok[at + 2] = WaveActiveMax(v) == high ? 1u : 0u;
  ok[at + 3] = WaveActiveCountBits((v & 1u) != 0) == odd ? 1u : 0u;
  ok[at + 4] = WaveActiveBitOr(v) == bits ? 1u : 0u;
  ok[at + 5] = WavePrefixCountBits((v & 1u) != 0) == oddBefore ? 1u : 0u;
  ok[at + 6] = WaveGetLaneCount() >= members && members > 0 ? 1u : 0u;
}
