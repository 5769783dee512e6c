#version 450
// 8- and 16-bit arithmetic (GL_EXT_shader_explicit_arithmetic_types) beyond mixed_precision.comp's: int8_t
// multiplication, division and modulo in 8 bits, a uint16_t rotation built from shifts, an int16_t arithmetic shift,
// f16vec2 arithmetic with each operation rounded in binary16, and conversions between widths (int8 to float16,
// float16 to int16 truncating, uint16 to uint8 keeping the low byte); 8 int16 results per invocation.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer Bytes { int8_t bytes[]; };
layout(std430, set = 0, binding = 1) readonly buffer Halves { f16vec2 halves[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { int16_t ints[]; };
layout(std430, set = 0, binding = 3) writeonly buffer OutHalf { float16_t products[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int8_t a = bytes[2 * i], b = bytes[2 * i + 1];
  int8_t bb = b == int8_t(0) || b == int8_t(-1) ? int8_t(3) : b;  // no division by 0, no -128 / -1
  uint16_t u = uint16_t(uint8_t(a)) << 8 | uint16_t(uint8_t(b));
  f16vec2 h = halves[i];
  uint at = i * 8u;
  ints[at + 0] = int16_t(a * b);
  ints[at + 1] = int16_t(a / bb);
  ints[at + 2] = int16_t(a % bb);
  ints[at + 3] = int16_t(u >> 3 | u << 13);
  ints[at + 4] = int16_t(uint8_t(u + uint16_t(i)));
  ints[at + 5] = int16_t(float16_t(a) * h.x);
  ints[at + 6] = int16_t(a) * int16_t(b) - int16_t(i);
  ints[at + 7] = int16_t(u) >> 2;
  f16vec2 p = h * h.yx + float16_t(0.5);
  products[2 * i] = p.x;
  products[2 * i + 1] = p.y;
}
