#version 450
// An inclusive prefix sum of uints within each work-group (Hillis and Steele: log2(64) steps, each reading the
// previous step's values after a barrier and writing after another).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
shared uint temp[64];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint g = gl_GlobalInvocationID.x;
  temp[l] = data[g];
  barrier();
  for (uint offset = 1; offset < 64; offset *= 2) {
    uint add = l >= offset ? temp[l - offset] : 0u;
    barrier();
    temp[l] += add;
    barrier();
  }
  data[g] = temp[l];
}
