#version 450
// Matrices in a std430 storage buffer: a mat2 (columns 8 bytes apart, unlike std140's 16), a mat3 (columns 16
// bytes apart), a row-major mat4 and an array of two mat2x3; out: m4 · v, v · m4 (OpVectorTimesMatrix), m2 · m2,
// outerProduct(v.xy, v.zw), transpose(m3)'s columns times 2, and arr[k] · (1, 2) for each k. Every sum of products
// adds in index order, each operation rounded.
layout(local_size_x = 2) in;
layout(std430, set = 0, binding = 0) readonly buffer Matrices {
  mat2 m2;
  mat3 m3;
  layout(row_major) mat4 m4;
  mat2x3 arr[2];
} mats;
layout(std430, set = 0, binding = 1) readonly buffer In { vec4 vectors[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = vectors[i];
  vec4 mv = mats.m4 * v;
  vec4 vm = v * mats.m4;
  mat2 sq = mats.m2 * mats.m2;
  mat2 op = outerProduct(v.xy, v.zw);
  mat3 t = transpose(mats.m3) * 2.0;
  vec3 a0 = mats.arr[0] * vec2(1.0, 2.0), a1 = mats.arr[1] * vec2(1.0, 2.0);
  uint at = i * 31u;
  for (int k = 0; k < 4; ++k) {
    results[at + k] = mv[k];
    results[at + 4 + k] = vm[k];
    results[at + 8 + k] = sq[k / 2][k % 2];
    results[at + 12 + k] = op[k / 2][k % 2];
  }
  for (int k = 0; k < 9; ++k) results[at + 16 + k] = t[k / 3][k % 3];
  for (int k = 0; k < 3; ++k) {
    results[at + 25 + k] = a0[k];
    results[at + 28 + k] = a1[k];
  }
}
