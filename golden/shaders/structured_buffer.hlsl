// An HLSL RWStructuredBuffer of structs (std430 layout: float3 then float fill 16 bytes, int2 at 16, uint at 24, the
// struct 32 bytes) read and written in place, and a StructuredBuffer<float2> of forces: each body's velocity gains
// force / mass, its cell is that velocity truncated to integers, its flags gain a bit per update.
struct Body {
  float3 velocity;
  float mass;
  int2 cell;
  uint flags;
};
RWStructuredBuffer<Body> bodies : register(u0);
StructuredBuffer<float2> forces : register(t1);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  Body b = bodies[id.x];
  const float2 f = forces[id.x];
  b.velocity.xy += f / b.mass;
  b.velocity.z = -b.velocity.z;
  b.cell = int2(b.velocity.xy);
  b.flags = (b.flags << 1) | 1u;
  bodies[id.x] = b;
}
