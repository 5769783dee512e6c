// HLSL byte-address buffers and a constant buffer: ByteAddressBuffer's Load, Load2 and Load4 at byte offsets (a
// record of 7 words every `stride` bytes), asfloat and asuint, RWByteAddressBuffer's Store, Store2 and InterlockedAdd
// (into word 0: every order gives the sum), and a cbuffer laid out alike by HLSL's and std140's rules (a float4 at 0,
// a uint at 16). `precise` keeps a·b + c two operations: without it glslang's HLSL path fuses them into an Fma.
cbuffer Params : register(b0) {
  float4 scaleBias;
  uint stride;
};
ByteAddressBuffer src : register(t1);
RWByteAddressBuffer dst : register(u2);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  const uint base = id.x * stride;
  const uint4 words = src.Load4(base);
  const uint2 pair = src.Load2(base + 16);
  precise float v = asfloat(words.x) * scaleBias.x + scaleBias.y;
  const uint at = 4 + id.x * 12;
  dst.Store(at, asuint(v));
  dst.Store2(at + 4, uint2(words.y ^ words.z, pair.x + pair.y + words.w));
  uint previous;
  dst.InterlockedAdd(0, src.Load(base + 24), previous);
}
