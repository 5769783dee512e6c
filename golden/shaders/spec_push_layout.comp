#version 450
// Specialization constants with push constants: the work-group is local_size_x_id 0 by local_size_y_id 1, an
// OpSpecConstantOp (the array length 2·X·Y) sizes a shared array, and a push-constant block holds a vec4 and a uint
// (std430: offsets 0 and 16). Invocation l stores l in slot l and l + 1000 in slot 2·X·Y − 1 − l, and after a barrier
// writes those slots, and the array's length, scaled by the push constants.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint X = 1u;
layout(constant_id = 1) const uint Y = 1u;
layout(constant_id = 2) const int bias = 5;
const uint kCount = 2u * X * Y;
layout(std430, set = 0, binding = 0) writeonly buffer Out { float results[]; };
layout(push_constant) uniform Push { vec4 scale; uint stride; } pc;
shared uint slots[kCount];
void main() {
  uint l = gl_LocalInvocationIndex;
  slots[l] = l;
  slots[kCount - 1u - l] = l + 1000u;
  barrier();
  uint groupBase = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * X * Y * pc.stride;
  uint at = groupBase + l * pc.stride;
  float mirror = float(slots[kCount - 1u - l]) + float(bias);
  results[at + 0u] = mirror * pc.scale.x;
  results[at + 1u] = float(slots[l]) * pc.scale.y + pc.scale.z;
  results[at + 2u] = float(kCount) * pc.scale.w;
}
