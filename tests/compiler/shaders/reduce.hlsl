// An HLSL compute shader: a structured buffer in, one out, a constant buffer.
RWStructuredBuffer<float> output : register(u1);
StructuredBuffer<float> input : register(t0);

cbuffer Constants : register(b2) {
  float factor;
  uint length;
};

[numthreads(64, 1, 1)]
void reduce(uint3 id : SV_DispatchThreadID) {
  if (id.x < length) output[id.x] = input[id.x] * factor;
}
