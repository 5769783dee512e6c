// short/ushort arithmetic: promoted to int, truncated to 16 bits on store.
kernel void arith_short(global const short* a, global const short* b, global short* out) {
  size_t i = get_global_id(0);
  short x = a[i], y = b[i];
  out[5 * i + 0] = x + y;
  out[5 * i + 1] = x - y;
  out[5 * i + 2] = x * y;
  out[5 * i + 3] = (x * y) >> 16;  // high half of the 32-bit product
  out[5 * i + 4] = ~x;
}

kernel void arith_ushort(global const ushort* a, global const ushort* b, global ushort* out) {
  size_t i = get_global_id(0);
  ushort x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x - y;
  // ushort*ushort promotes to int and may exceed INT_MAX; go through uint to stay defined.
  out[4 * i + 2] = (uint)x * (uint)y;
  out[4 * i + 3] = ((uint)x * (uint)y) >> 16;
}
