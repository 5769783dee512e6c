// requires: cl_khr_int64_base_atomics
// spirv: 1.0
// cl_khr_int64_base_atomics (OpenCL C 3.0 §6.15.12.9 [[atomic-legacy-int64]]): atom_add, atom_sub, atom_inc,
// atom_dec, atom_xchg and atom_cmpxchg on long and ulong in global and local memory. Only results that do not depend
// on the order of the atomics are stored: sums, counters, the sum of the values a counter handed out (0 + 1 + ... +
// n - 1 whatever the order), the sum of what an exchange of one common value returns (the initial value once, the
// common value otherwise), a compare-exchange loop's sum, and compare-exchanges on each work-item's own element.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

kernel void atomics_int64_base(global const long* in, global long* acc, global ulong* uacc, global long* slots,
                               global long* returned, global long* groups) {
  local long lsum, lcount, ltickets;
  const size_t g = get_global_id(0), l = get_local_id(0);
  if (l == 0) {
    lsum = 0;
    lcount = 0;
    ltickets = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const long v = in[g];
  atom_add(&acc[0], v);
  atom_sub(&acc[1], v);
  const long ticket = atom_inc(&acc[2]);
  atom_add(&acc[3], ticket);
  atom_dec(&acc[4]);
  atom_add(&acc[5], atom_xchg(&acc[6], 7l));
  // acc[7] += v & 0xffff with a compare-exchange loop: retried until no other work-item came in between.
  long seen = atom_add(&acc[7], 0l);
  for (;;) {
    const long before = seen;
    seen = atom_cmpxchg(&acc[7], before, before + (v & 0xffff));
    if (seen == before) break;
  }
  // Unsigned: wrapping sums and a counter that runs down through 0.
  atom_add(&uacc[0], (ulong)v * 0x9E3779B97F4A7C15ul);
  atom_dec(&uacc[1]);
  atom_sub(&uacc[2], (ulong)v);
  // The work-item's own element: a compare that matches (returns the old value, stores v), then one that does not.
  returned[2 * g + 0] = atom_cmpxchg(&slots[g], (long)g * 3, v);
  returned[2 * g + 1] = atom_cmpxchg(&slots[g], (long)g * 3, -1l);
  // Local memory: the group's sum, size and the sum of its tickets.
  atom_add(&lsum, v);
  atom_add(&ltickets, atom_inc(&lcount));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    groups[3 * get_group_id(0) + 0] = lsum;
    groups[3 * get_group_id(0) + 1] = lcount;
    groups[3 * get_group_id(0) + 2] = ltickets;
  }
}
