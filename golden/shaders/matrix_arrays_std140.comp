#version 450
// Arrays of matrices in a std140 uniform block — mat2 rot[2] (columns 16 bytes apart, array stride 32) and
// row-major mat3x2 rm[2] (two rows of 3 floats, 16 bytes apart, array stride 32) — and a dmat2 in a std430 storage
// buffer (dvec2 columns, 16 bytes apart), each applied to the invocation's vector: rot[k] · v.xy, rm[k] · v.xyz and
// dm · dvec2(v.xy), every sum of products added in index order, each operation rounded.
#extension GL_ARB_gpu_shader_fp64 : enable
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform Matrices {
  mat2 rot[2];
  layout(row_major) mat3x2 rm[2];
} u;
layout(std430, set = 0, binding = 1) readonly buffer Doubles { dmat2 dm; };
layout(std430, set = 0, binding = 2) readonly buffer In { vec4 vectors[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out { vec2 results[]; };
layout(std430, set = 0, binding = 4) writeonly buffer OutDoubles { dvec2 doubleResults[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = vectors[i];
  for (int k = 0; k < 2; ++k) {
    results[4u * i + uint(k)] = u.rot[k] * v.xy;
    results[4u * i + 2u + uint(k)] = u.rm[k] * v.xyz;
  }
  doubleResults[i] = dm * dvec2(v.xy);
}
