#version 450
// Workgroup arrays sized by specialization constants (gl_WorkGroupSize.x, N * 2): the module loads, and
// `clref info` says their size waits for specialization.
layout(local_size_x_id = 4) in;
layout(constant_id = 5) const int N = 3;
shared float tile[gl_WorkGroupSize.x];
shared vec3 three[N * 2];
layout(set = 0, binding = 0) buffer B { float v[]; } b;
void main() {
  tile[gl_LocalInvocationID.x] = b.v[gl_LocalInvocationID.x];
  float arr[N]; arr[1] = 2.0;
  barrier();
  three[0] = vec3(tile[0] + arr[1]);
  b.v[0] = three[0].x;
}
