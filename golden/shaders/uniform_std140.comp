#version 450
// A std140 uniform block: a float array's elements are 16 bytes apart, a vec3 is 16-byte aligned; each invocation
// writes coeffs[i] · scale + offset.y, and the bias vector's components.
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform Params {
  float scale;
  vec3 offset;
  float coeffs[4];
  ivec3 bias;
} params;
layout(std430, set = 0, binding = 1) writeonly buffer Out { float values[4]; int biases[3]; };
void main() {
  uint i = gl_LocalInvocationID.x;
  values[i] = params.coeffs[i] * params.scale + params.offset.y;
  if (i < 3) biases[i] = params.bias[i];
}
