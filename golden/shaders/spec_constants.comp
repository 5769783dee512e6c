#version 450
// Specialization constants of each scalar type steer the computation: the case sets ids 1 to 3 and leaves 4 at its
// default.
layout(local_size_x = 8) in;
layout(constant_id = 1) const bool negate = false;
layout(constant_id = 2) const int step = 1;
layout(constant_id = 3) const float scale = 1.0;
layout(constant_id = 4) const uint offset = 100u;
layout(std430, set = 0, binding = 0) writeonly buffer Out { float values[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = float(int(i) * step + int(offset)) * scale;
  values[i] = negate ? -v : v;
}
