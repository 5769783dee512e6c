// A Hillis-Steele inclusive scan in place, with a barrier after each step but none between a step's reads and its
// writes: work-item lid reads tmp[lid - off] while work-item lid - off overwrites it in the same step.
kernel void race_scan_no_barrier(global const int* in, global int* out, local int* tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    int v = lid >= off ? tmp[lid - off] : 0;  // BUG: this read and the write below share a barrier interval
    tmp[lid] += v;                            // BUG: overwrites what work-item lid + off reads above
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = tmp[lid];
}
