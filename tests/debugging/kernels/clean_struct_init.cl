// Clean: a struct with every field assigned, copied to global memory.
typedef struct {
  float x, y, z;
  int flags;
} Particle;

kernel void clean_struct_init(global const float* in, global Particle* out) {
  size_t i = get_global_id(0);
  Particle p;
  p.x = in[i];
  p.y = in[i] * 2.0f;
  p.z = -in[i];
  p.flags = (int)i;
  out[i] = p;
}
