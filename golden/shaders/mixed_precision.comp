#version 450
// 8-, 16- and 64-bit arithmetic (GL_EXT_shader_explicit_arithmetic_types, 8/16-bit storage): bytes summed in 16
// bits, halves multiplied and converted to double, doubles divided.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer Bytes { uint8_t bytes[]; };
layout(std430, set = 0, binding = 1) readonly buffer Halves { float16_t halves[]; };
layout(std430, set = 0, binding = 2) readonly buffer Doubles { double doubles[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out16 { float16_t products[8]; int16_t sums[]; };
layout(std430, set = 0, binding = 4) writeonly buffer Out64 { double quotients[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  sums[i] = int16_t(bytes[4 * i]) + int16_t(bytes[4 * i + 1]) - int16_t(bytes[4 * i + 2]) * int16_t(bytes[4 * i + 3]);
  products[i] = halves[2 * i] * halves[2 * i + 1];
  quotients[i] = doubles[2 * i] / doubles[2 * i + 1] + double(halves[2 * i]);
}
