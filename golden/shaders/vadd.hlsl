// Vector addition in HLSL: two structured buffers in, one out, by register (DXC/glslang map register tN/uN to
// bindings in set 0: t0 → binding 0, t1 → binding 1, u2 → binding 2 with glslang's default shifts of 0).
StructuredBuffer<float> a : register(t0);
StructuredBuffer<float> b : register(t1);
RWStructuredBuffer<float> c : register(u2);
[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  c[id.x] = a[id.x] + b[id.x];
}
