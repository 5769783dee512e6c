// int/uint arithmetic. Signed overflow is undefined, so the int kernel uses inputs that keep
// every result in range; the uint kernel wraps modulo 2^32 on purpose.
kernel void arith_int(global const int* a, global const int* b, global int* out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  out[5 * i + 0] = x + y;
  out[5 * i + 1] = x - y;
  out[5 * i + 2] = (x >> 10) * (y >> 12);
  out[5 * i + 3] = -x;
  out[5 * i + 4] = x * 3 - y / 7;
}

kernel void arith_uint(global const uint* a, global const uint* b, global uint* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[5 * i + 0] = x + y;
  out[5 * i + 1] = x - y;
  out[5 * i + 2] = x * y;
  out[5 * i + 3] = -x;
  out[5 * i + 4] = x * 2654435761u + (y ^ (y >> 16));
}
