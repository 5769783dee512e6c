#version 450
// The compute shader of tests/layer/vulkan_app.cpp: dst[i] = sqrt(src[i]) * scale + bias for i < count, in work-groups
// whose width is specialization constant 0.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer Source { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Destination { float dst[]; };
layout(push_constant) uniform Parameters {
  float scale;
  float bias;
  uint count;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < count) dst[i] = sqrt(src[i]) * scale + bias;
}
