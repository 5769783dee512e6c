#version 450
// determinant() and inverse() (GLSL.std.450 Determinant and MatrixInverse) of a mat4 with small integer elements and
// of its upper-left mat3 and mat2: every product and sum of a cofactor expansion is an exact integer, so each
// determinant is exact in any order of evaluation, and each element of an inverse is its cofactor over the
// determinant rounded once (the case's matrices have no zero cofactor, whose sign would depend on the order). 32
// results per matrix: the three determinants, then the inverses' columns.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { mat4 matrices[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  mat4 m4 = matrices[i];
  mat3 m3 = mat3(m4);
  mat2 m2 = mat2(m4);
  uint at = i * 32u;
  results[at + 0] = determinant(m2);
  results[at + 1] = determinant(m3);
  results[at + 2] = determinant(m4);
  mat2 i2 = inverse(m2);
  mat3 i3 = inverse(m3);
  mat4 i4 = inverse(m4);
  for (int c = 0; c < 2; ++c)
    for (int r = 0; r < 2; ++r) results[at + 3 + 2 * c + r] = i2[c][r];
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) results[at + 7 + 3 * c + r] = i3[c][r];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) results[at + 16 + 4 * c + r] = i4[c][r];
}
