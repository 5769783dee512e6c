// Hillis-Steele inclusive prefix sum within each work-group, double-buffered in local memory
// (both halves in one local array argument of 2 * local size uints).
kernel void scan_hillis_steele(global const uint* in, global uint* out, local uint* buf) {
  size_t l = get_local_id(0), n = get_local_size(0);
  uint pin = 1, pout = 0;
  buf[pout * n + l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    uint v = buf[pin * n + l];
    if (l >= off) v += buf[pin * n + l - off];
    buf[pout * n + l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = buf[pout * n + l];
}
