#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of descriptors (one binding, several buffers): three storage buffers at binding 0 and two uniform buffers at
// binding 1, indexed by constants, by the work-group id (dynamically uniform) and by a non-uniform index
// (nonuniformEXT); OpArrayLength through one of them; stores through a dynamic and a constant index.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } data[3];
layout(std140, set = 0, binding = 1) uniform Scale { uint mul; uint add; } scale[2];
layout(std430, set = 0, binding = 2) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
  uint a = data[g].v[l];
  uint b = data[nonuniformEXT(i % 3u)].v[8u + l];
  uint c = data[1].v[39];
  uint n = uint(data[1].v.length());
  o[i] = a * scale[g & 1u].mul + scale[1].add + b + c + n;
  data[g].v[16u + l] = i;
  if (g == 0u) data[2].v[24u + l] = scale[0].mul + l;
}
