// Clean: odd-even transposition sort of each work-group's slice in local memory: in each phase the first half of
// the work-items each order one disjoint pair, and a barrier separates the phases.
kernel void clean_odd_even_sort(global int* data, local int* v) {
  size_t lid = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  v[lid] = data[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t phase = 0; phase < n; ++phase) {
    size_t j = 2 * lid + (phase & 1);
    if (lid < n / 2 && j + 1 < n) {
      int a = v[j], b = v[j + 1];
      if (a > b) {
        v[j] = b;
        v[j + 1] = a;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[base + lid] = v[lid];
}
