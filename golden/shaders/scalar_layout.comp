#version 450
// The scalar block layout (GL_EXT_scalar_block_layout): every member aligned to its scalar only, so a vec3 array has a
// 12-byte stride, a vec3 may follow a float at offset 4, and a vec2 follows the vec3 at offset 16. Each invocation reads a Sample {float weight @0; vec3 position @4; vec2 uv @16} (24 bytes) and a vec3 of a tightly
// packed array, and writes a scalar-layout Result {vec3 moved @0; float area @12} (16 bytes).
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 8) in;
struct Sample {
  float weight;
  vec3 position;
  vec2 uv;
};
struct Result {
  vec3 moved;
  float area;
};
layout(scalar, set = 0, binding = 0) readonly buffer Samples { Sample samples[]; };
layout(scalar, set = 0, binding = 1) readonly buffer Offsets { vec3 offsets[]; };
layout(scalar, set = 0, binding = 2) writeonly buffer Results { Result results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  Sample s = samples[i];
  results[i].moved = s.position + offsets[i] * s.weight;
  results[i].area = s.uv.x * s.uv.y;
}
