#version 450
// An array of structs in std430 layout (a vec3 followed by a float fills 16 bytes; the struct is 32 bytes): each
// particle moves by its velocity times dt, and its mass is doubled.
layout(local_size_x = 8) in;
struct Particle {
  vec3 pos;
  float mass;
  vec3 vel;
  uint id;
};
layout(std430, set = 0, binding = 0) buffer Particles { Particle p[]; };
layout(push_constant) uniform Push { float dt; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  p[i].pos += p[i].vel * pc.dt;
  p[i].mass *= 2.0;
  p[i].id = p[i].id * 3u + i;
}
