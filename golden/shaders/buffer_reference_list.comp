#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// PhysicalStorageBuffer64 (GL_EXT_buffer_reference): a linked list whose nodes hold device addresses, walked from
// a head pointer in the push constants; the results are stored through an address computed by pointer arithmetic.
// Invocation i skips i nodes, then sums the values of the rest and counts them: out[i] = sum · 16 + count.
layout(local_size_x = 8) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { Node next; uint value; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Word { uint w; };
// The buffers the addresses point into: bound so that they have addresses (host::Kernel::deviceAddress).
layout(std430, set = 0, binding = 0) readonly buffer Nodes { uint64_t raw[]; } nodes;
layout(std430, set = 0, binding = 1) buffer Out { uint o[]; } results;
layout(push_constant) uniform P { Node head; Word out0; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  Node n = pc.head;
  for (uint k = 0u; k < i && uint64_t(n) != 0ul; ++k) n = n.next;
  uint sum = 0u, count = 0u;
  while (uint64_t(n) != 0ul) {
    sum += n.value;
    ++count;
    n = n.next;
  }
  Word slot = Word(uint64_t(pc.out0) + 4ul * i);
  slot.w = sum * 16u + count;
}
