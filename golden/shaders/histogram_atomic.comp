#version 450
// A 16-bin histogram of bytes' low nibbles: atomicAdd into shared bins, then each work-group's bins into the buffer's
// with atomicAdd (every order gives the same counts).
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint words[]; };
layout(std430, set = 0, binding = 1) buffer Bins { uint bins[16]; };
shared uint local_bins[16];
void main() {
  uint l = gl_LocalInvocationID.x;
  if (l < 16) local_bins[l] = 0;
  barrier();
  uint w = words[gl_GlobalInvocationID.x];
  for (int b = 0; b < 4; ++b) atomicAdd(local_bins[(w >> (8 * b)) & 15u], 1u);
  barrier();
  if (l < 16) atomicAdd(bins[l], local_bins[l]);
}
