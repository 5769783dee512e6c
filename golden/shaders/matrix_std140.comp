#version 450
// Matrices in a std140 uniform block (a mat3's columns 16 bytes apart, a row-major mat2x3) applied to vectors of a
// std430 storage buffer: out = m · v (each component a sum of products in index order), plus transpose(r) · (1, 2).
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform Transforms {
  mat3 m;
  layout(row_major) mat2x3 r;
} t;
layout(std430, set = 0, binding = 1) readonly buffer In { vec4 vectors[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 v = vectors[i].xyz;
  vec3 mv = t.m * v;
  vec2 rt = transpose(t.r) * vec3(1.0, 2.0, float(i));
  results[2u * i] = vec4(mv, 0.0);
  results[2u * i + 1u] = vec4(rt, 0.0, 0.0);
}
