// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_ballot
// cl_khr_subgroup_ballot (OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]]), checked for any division into
// sub-groups: each work-item writes its value, sub-group id and sub-group local id to local memory, and after a
// barrier recomputes from there the ballot of its sub-group (bit k for the member with sub-group local id k) and what
// each built-in must return; it stores 1 where the built-in agrees, 0 where not. The last check runs in a branch only
// some work-items take; the work-items active there are the ones its ballot names.
#define MAX_WG 128
#define CHECKS 16

// Word w of a ballot (comparisons rather than a switch, which clang-15 -O2 narrows to an i27 llvm-spirv-15 rejects).
uint word(uint4 b, uint w) {
  uint r = b.x;
  if (w >= 1) r = b.y;
  if (w >= 2) r = b.z;
  if (w >= 3) r = b.w;
  return r;
}
int bitOf(uint4 b, uint k) { return k < 128 && ((word(b, k >> 5) >> (k & 31)) & 1u); }
// The bits below `hi` of the word whose bit 0 is bit `base`.
uint below(uint hi, uint base) { return hi <= base ? 0u : hi - base >= 32 ? 0xffffffffu : (1u << (hi - base)) - 1u; }
// Bits lo .. hi - 1.
uint4 bits(uint lo, uint hi) {
  const uint4 h = (uint4)(below(hi, 0), below(hi, 32), below(hi, 64), below(hi, 96));
  const uint4 l = (uint4)(below(lo, 0), below(lo, 32), below(lo, 64), below(lo, 96));
  return h & ~l;
}
// any() of the lane comparison (comparing lane by lane with && makes clang-15 -O2 emit a freeze, or-ing the lanes a
// vector reduction, neither of which llvm-spirv-15 translates).
int same(uint4 a, uint4 b) { return !any(a != b); }
// The bits set below bit `hi`.
uint count(uint4 b, uint hi) {
  const uint4 m = b & bits(0, hi);
  return popcount(m.x) + popcount(m.y) + popcount(m.z) + popcount(m.w);
}

kernel void sg_ballot(global const int* in, global int* ok) {
  local int xs[MAX_WG];
  local uint sgIds[MAX_WG], sgLocalIds[MAX_WG];
  const uint l = get_local_id(0), n = get_local_size(0);
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint id = get_sub_group_id(), lid = get_sub_group_local_id(), size = get_sub_group_size();
  const uint maxSize = get_max_sub_group_size();
  xs[l] = x;
  sgIds[l] = id;
  sgLocalIds[l] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Every member's bit where its value is odd; `withLast` has the last member's bit too, so it is never empty.
  uint4 odd = (uint4)(0), withLast;
  int first = 0, lastValue = 0;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    if (xs[j] & 1) odd |= bits(sgLocalIds[j], sgLocalIds[j] + 1);
    if (sgLocalIds[j] == 0) first = xs[j];
    if (sgLocalIds[j] == size - 1) lastValue = xs[j];
  }
  withLast = odd | bits(size - 1, size);
  // The lowest member with an odd value or the last member; the highest is the last.
  uint lsb = size - 1;
  for (uint j = 0; j < n; ++j)
    if (sgIds[j] == id && (xs[j] & 1) && sgLocalIds[j] < lsb) lsb = sgLocalIds[j];
  const uint msb = size - 1;

  global int* o = ok + g * CHECKS;
  const uint4 b = sub_group_ballot(x & 1);
  o[0] = same(b, odd);
  o[1] = (sub_group_inverse_ballot(b) != 0) == (x & 1);
  const uint k = (lid + 1) % size;
  o[2] = (sub_group_ballot_bit_extract(b, k) != 0) == bitOf(odd, k);
  o[3] = sub_group_ballot_bit_count(b) == count(odd, 128);
  o[4] = sub_group_ballot_inclusive_scan(b) == count(odd, lid + 1) &&
         sub_group_ballot_exclusive_scan(b) == count(odd, lid);
  const uint4 b2 = sub_group_ballot((x & 1) || lid == size - 1);
  o[5] = same(b2, withLast) && sub_group_ballot_find_lsb(b2) == lsb;
  o[6] = sub_group_ballot_find_msb(b2) == msb;
  o[7] = same(get_sub_group_eq_mask(), bits(lid, lid + 1));
  // The ge and gt masks stop at the maximum sub-group size, the le and lt masks at the caller's id.
  o[8] = same(get_sub_group_ge_mask(), bits(lid, maxSize));
  o[9] = same(get_sub_group_gt_mask(), bits(lid + 1, maxSize));
  o[10] = same(get_sub_group_le_mask(), bits(0, lid + 1));
  o[11] = same(get_sub_group_lt_mask(), bits(0, lid));
  o[12] = sub_group_non_uniform_broadcast(x, size - 1) == lastValue;
  o[13] = sub_group_broadcast_first(x) == first;
  o[14] = sub_group_non_uniform_broadcast((long)x * 3 - 1, 0) == (long)first * 3 - 1;
  o[15] = 1;
  if (x % 3 != 0) {
    // Only the work-items whose value is not a multiple of 3 come here.
    const uint4 active = sub_group_ballot(1);
    const uint lo = sub_group_ballot_find_lsb(active), hi = sub_group_ballot_find_msb(active);
    int loValue = 0, hiValue = 0, allTook = 1;
    for (uint j = 0; j < n; ++j) {
      if (sgIds[j] != id) continue;
      if (sgLocalIds[j] == lo) loValue = xs[j];
      if (sgLocalIds[j] == hi) hiValue = xs[j];
      if (bitOf(active, sgLocalIds[j])) allTook = allTook && xs[j] % 3 != 0;
    }
    o[15] = bitOf(active, lid) && allTook && sub_group_broadcast_first(x) == loValue &&
            sub_group_non_uniform_broadcast(x, hi) == hiValue;
  }
}
