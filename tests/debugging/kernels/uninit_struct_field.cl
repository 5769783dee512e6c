// A struct copied to global memory with one field never assigned.
typedef struct {
  float x, y, z;
  int flags;
} Particle;

kernel void uninit_struct_field(global const float* in, global Particle* out) {
  size_t i = get_global_id(0);
  Particle p;
  p.x = in[i];
  p.y = in[i] * 2.0f;
  p.z = -in[i];
  out[i] = p;  // BUG: p.flags is never assigned
}
