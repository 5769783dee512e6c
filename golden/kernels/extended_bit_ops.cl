// build: -cl-std=CL3.0
// spirv: 1.0 SPV_KHR_bit_instructions
// requires: cl_khr_extended_bit_ops
// cl_khr_extended_bit_ops (OpenCL C 3.0 §6.15.3.1 [[extended-bit-operations]]): bitfield_insert,
// bitfield_extract_signed, bitfield_extract_unsigned and bit_reverse on 8-, 16-, 32- and 64-bit scalars and on
// vectors. Each offset and count is reduced so that offset + count stays within the width (beyond it the result is
// undefined); counts of 0 and the full width occur.
kernel void extended_bit_ops(global const ulong* in, global const uint* params, global ulong* out) {
  const size_t g = get_global_id(0);
  const ulong v = in[g], w = in[g] * 0x9E3779B97F4A7C15ul + 1;
  const uint p = params[g];
  // An offset and a count for a width of `bits`: offset in 0 .. bits, count in 0 .. bits - offset.
#define OFFSET(bits) ((p & 0xff) % ((bits) + 1))
#define COUNT(bits) (((p >> 8) & 0xff) % ((bits)-OFFSET(bits) + 1))
  global ulong* o = out + 16 * g;
  o[0] = bitfield_insert((uchar)v, (uchar)w, OFFSET(8), COUNT(8));
  o[1] = (ulong)(long)bitfield_extract_signed((uchar)v, OFFSET(8), COUNT(8));
  o[2] = bitfield_extract_unsigned((char)v, OFFSET(8), COUNT(8));
  o[3] = (ushort)bitfield_insert((short)v, (short)w, OFFSET(16), COUNT(16));
  o[4] = (ulong)(long)bitfield_extract_signed((short)v, OFFSET(16), COUNT(16));
  o[5] = bitfield_insert((uint)v, (uint)w, OFFSET(32), COUNT(32));
  o[6] = (ulong)(long)bitfield_extract_signed((uint)v, OFFSET(32), COUNT(32));
  o[7] = bitfield_extract_unsigned((int)v, OFFSET(32), COUNT(32));
  o[8] = bitfield_insert(v, w, OFFSET(64), COUNT(64));
  o[9] = (ulong)bitfield_extract_signed(v, OFFSET(64), COUNT(64));
  o[10] = bitfield_extract_unsigned((long)v, OFFSET(64), COUNT(64));
  o[11] = bit_reverse((uchar)v) | (ulong)bit_reverse((ushort)(v >> 8)) << 8 | (ulong)bit_reverse((uint)(v >> 24)) << 24;
  o[12] = bit_reverse(v);
  o[13] = (ulong)bit_reverse((long)w);
  // Vectors: component by component, with one offset and count.
  const uint2 iv = (uint2)((uint)v, (uint)(v >> 32)), ins = (uint2)((uint)w, (uint)(w >> 32));
  const uint2 r = bitfield_insert(iv, ins, OFFSET(16), COUNT(16));
  o[14] = (ulong)r.x | (ulong)r.y << 32;
  const char4 e = bitfield_extract_signed(as_char4((uint)w), OFFSET(8), COUNT(8));
  const uchar4 rv = bit_reverse(as_uchar4((uint)v));
  o[15] = (ulong)as_uint(e) | (ulong)as_uint(rv) << 32;
#undef OFFSET
#undef COUNT
}
