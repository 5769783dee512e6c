// long/ulong arithmetic (64-bit): signed results stay in range, unsigned wrap mod 2^64.
kernel void arith_long(global const long* a, global const long* b, global long* out) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x - y;
  out[4 * i + 2] = (x >> 20) * (y >> 20);
  out[4 * i + 3] = x / 1000003 + y % 1000003;
}

kernel void arith_ulong(global const ulong* a, global const ulong* b, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x - y;
  out[4 * i + 2] = x * y;
  out[4 * i + 3] = x * 0x9E3779B97F4A7C15ul + (y >> 7);
}
