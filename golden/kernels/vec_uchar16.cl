// uchar16 operations: vector arithmetic is done in the element type (no integer promotion for
// vectors, OpenCL C 3.0 §6.4 [[conversions-and-type-casting]]), so add/mul wrap modulo 256 per element.
kernel void vec_uchar16(global const uchar16* a, global const uchar16* b, global uchar16* out) {
  size_t i = get_global_id(0);
  uchar16 x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x * y;
  out[4 * i + 2] = (x ^ y) | (uchar16)(0x11);
  // Vector comparison yields -1/0 per element; the ternary picks per element by its MSB.
  out[4 * i + 3] = x > y ? x - y : y - x;
}
