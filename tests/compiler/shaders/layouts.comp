#version 450
// Two storage buffers (std430), a uniform block (std140), push constants, workgroup memory, specialization constants:
// the layouts tests/compiler/shader_source_test.cpp and tests/cli/shader_info_test.cpp check against the std140 and
// std430 rules.
layout(local_size_x_id = 0, local_size_y = 2, local_size_z = 1) in;

layout(constant_id = 1) const float scale = 2.5;
layout(constant_id = 2) const int count = -7;
layout(constant_id = 3) const bool flag = true;

struct Particle {
  vec3 pos;
  float mass;
  mat3 rot;
  vec2 uv;
};

layout(std430, set = 0, binding = 0) readonly buffer Particles {
  Particle p[];
} particles;

layout(std430, set = 0, binding = 1) writeonly buffer Sums {
  float total;
  vec4 sums[];
} sums;

layout(std140, set = 1, binding = 0) uniform Params {
  float a;
  vec3 b;
  mat2 m;
  float arr[3];
  layout(row_major) mat2x3 r;
} params;

layout(push_constant) uniform Push {
  uint n;
  float k;
  vec2 off;
} pc;

shared float tile[64];
shared uint counter;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0) counter = 0;
  tile[gl_LocalInvocationID.x % 64] = particles.p[i].mass * scale + params.a + params.m[0][0] + params.arr[1] +
                                      params.r[1][2] + pc.k + float(count);
  barrier();
  if (flag && i < pc.n) sums.sums[i] = vec4(particles.p[i].pos + params.b, tile[0]) * particles.p[i].rot[0].x;
  if (i == 0) sums.total = pc.off.x + particles.p[0].uv.y + float(counter);
}
