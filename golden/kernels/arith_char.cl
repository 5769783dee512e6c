// char/uchar arithmetic. Operands are promoted to int (OpenCL C 3.0 §6.4 [[conversions-and-type-casting]] usual
// arithmetic conversions), so intermediate results do not wrap; the store truncates to 8 bits.
kernel void arith_char(global const char* a, global const char* b, global char* out) {
  size_t i = get_global_id(0);
  char x = a[i], y = b[i];
  out[6 * i + 0] = x + y;
  out[6 * i + 1] = x - y;
  out[6 * i + 2] = x * y;
  out[6 * i + 3] = -x;
  // (x*y) >> 4 is computed in int: the product does not wrap before the shift.
  out[6 * i + 4] = (x * y) >> 4;
  out[6 * i + 5] = (x + y) / 3;
}

kernel void arith_uchar(global const uchar* a, global const uchar* b, global uchar* out) {
  size_t i = get_global_id(0);
  uchar x = a[i], y = b[i];
  out[5 * i + 0] = x + y;
  out[5 * i + 1] = x - y;
  out[5 * i + 2] = x * y;
  out[5 * i + 3] = (x * y) >> 8;  // high byte of the 16-bit product (int arithmetic)
  out[5 * i + 4] = (uchar)(x + y) < x;  // carry out of the 8-bit add
}
