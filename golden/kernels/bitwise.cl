// Bitwise and logical operators.
kernel void bitwise_uint(global const uint* a, global const uint* b, global uint* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[5 * i + 0] = x & y;
  out[5 * i + 1] = x | y;
  out[5 * i + 2] = x ^ y;
  out[5 * i + 3] = ~x;
  out[5 * i + 4] = (x & ~y) ^ (x >> 3);
}

kernel void bitwise_ulong(global const ulong* a, global const ulong* b, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = a[i], y = b[i];
  out[4 * i + 0] = x & y;
  out[4 * i + 1] = x | ~y;
  out[4 * i + 2] = x ^ (y << 17);
  out[4 * i + 3] = x & (0 - x);  // lowest set bit
}

// &&, || and ! yield int 0 or 1 for scalars; && and || short-circuit.
kernel void logical_ops(global const int* a, global const int* b, global int* out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  out[4 * i + 0] = x && y;
  out[4 * i + 1] = x || y;
  out[4 * i + 2] = !x;
  out[4 * i + 3] = (x > 2 && y < 3) || !(x ^ y);
}
