// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_ballot
// cl_khr_subgroup_non_uniform_arithmetic (OpenCL C 3.0 §6.15.20 [[sub-group-functions]] and its non-uniform scan and
// reduction tables), checked for any division into sub-groups: each work-item writes its value, sub-group id and
// sub-group local id to local memory, and after a barrier recomputes from there each reduction and scan over the
// active work-items of its sub-group (scans in sub-group local id order; the exclusive scans' identities: 0 for add,
// or, xor, 1 for mul, the type's largest value for min, its smallest for max, ~0 for and, true for logical and);
// it stores 1 where the built-in agrees, 0 where not. First with the whole sub-group active, then in a branch only
// some work-items take, where the active ones are those sub_group_ballot(1) names (cl_khr_subgroup_ballot).
// The products multiply values of 1 and -1 only; the float sums add multiples of 0.25, exact in any order.
#pragma OPENCL FP_CONTRACT OFF
#define MAX_WG 128
#define CHECKS 20

uint word(uint4 b, uint w) {
  uint r = b.x;
  if (w >= 1) r = b.y;
  if (w >= 2) r = b.z;
  if (w >= 3) r = b.w;
  return r;
}
int bitOf(uint4 b, uint k) { return k < 128 && ((word(b, k >> 5) >> (k & 31)) & 1u); }

kernel void sg_non_uniform_arith(global const int* in, global int* ok) {
  local int xs[MAX_WG];
  local uint sgIds[MAX_WG], sgLocalIds[MAX_WG];
  const uint l = get_local_id(0), n = get_local_size(0);
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint id = get_sub_group_id(), lid = get_sub_group_local_id();
  xs[l] = x;
  sgIds[l] = id;
  sgLocalIds[l] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);

  const int sign = (x & 1) ? -1 : 1;
  const uint u = (uint)x * 2654435761u;
  const float f = (float)x * 0.25f;
  int sum = 0, prod = 1, mn = INT_MAX, mx = INT_MIN, inclSum = 0, exclProd = 1, inclMin = INT_MAX, exclMax = INT_MIN;
  uint uand = ~0u, uor = 0, uxor = 0, exclAnd = ~0u, inclOr = 0, exclXor = 0;
  int land = 1, lor = 0, lxor = 0, exclLand = 1, inclLor = 0;
  float fsum = 0.0f, exclFmin = INFINITY;
  long lsum = 0;
  ulong exclUmin = ULONG_MAX;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    const int v = xs[j];
    const int s = (v & 1) ? -1 : 1;
    const uint w = (uint)v * 2654435761u;
    const uint k = sgLocalIds[j];
    sum += v;
    prod *= s;
    mn = min(mn, v);
    mx = max(mx, v);
    uand &= w;
    uor |= w;
    uxor ^= w;
    land = land && v > -900;
    lor = lor || v > 900;
    lxor = lxor != (v > 0);
    fsum += (float)v * 0.25f;
    lsum += (long)v << 33;
    if (k <= lid) {
      inclSum += v;
      inclMin = min(inclMin, v);
      inclOr |= w;
      inclLor = inclLor || v > 900;
    }
    if (k < lid) {
      exclProd *= s;
      exclMax = max(exclMax, v);
      exclAnd &= w;
      exclXor ^= w;
      exclLand = exclLand && v > -900;
      exclFmin = fmin(exclFmin, (float)v * 0.25f);
      exclUmin = min(exclUmin, (ulong)w);
    }
  }
  global int* o = ok + g * CHECKS;
  o[0] = sub_group_non_uniform_reduce_add(x) == sum;
  o[1] = sub_group_non_uniform_reduce_mul(sign) == prod;
  o[2] = sub_group_non_uniform_reduce_min(x) == mn && sub_group_non_uniform_reduce_max(x) == mx;
  o[3] = sub_group_non_uniform_reduce_and(u) == uand && sub_group_non_uniform_reduce_or(u) == uor;
  o[4] = sub_group_non_uniform_reduce_xor(u) == uxor;
  o[5] = (sub_group_non_uniform_reduce_logical_and(x > -900) != 0) == land &&
         (sub_group_non_uniform_reduce_logical_or(x > 900) != 0) == lor;
  o[6] = (sub_group_non_uniform_reduce_logical_xor(x > 0) != 0) == lxor;
  o[7] = sub_group_non_uniform_scan_inclusive_add(x) == inclSum;
  o[8] = sub_group_non_uniform_scan_exclusive_mul(sign) == exclProd;
  o[9] =
      sub_group_non_uniform_scan_inclusive_min(x) == inclMin && sub_group_non_uniform_scan_exclusive_max(x) == exclMax;
  o[10] =
      sub_group_non_uniform_scan_exclusive_and(u) == exclAnd && sub_group_non_uniform_scan_inclusive_or(u) == inclOr;
  o[11] = sub_group_non_uniform_scan_exclusive_xor(u) == exclXor;
  o[12] = (sub_group_non_uniform_scan_exclusive_logical_and(x > -900) != 0) == exclLand &&
          (sub_group_non_uniform_scan_inclusive_logical_or(x > 900) != 0) == inclLor;
  o[13] = sub_group_non_uniform_reduce_add(f) == fsum && sub_group_non_uniform_scan_exclusive_min(f) == exclFmin;
  o[14] = sub_group_non_uniform_reduce_add((long)x << 33) == lsum &&
          sub_group_non_uniform_scan_exclusive_min((ulong)u) == exclUmin;
  o[15] = sub_group_non_uniform_reduce_add((short)(x & 7)) == (short)sub_group_non_uniform_reduce_add(x & 7);
  o[16] = o[17] = o[18] = o[19] = 1;
  if (x % 3 != 0) {
    // Only the work-items whose value is not a multiple of 3 come here.
    const uint4 active = sub_group_ballot(1);
    int aSum = 0, aIncl = 0, aExclMax = INT_MIN, aProd = 1;
    for (uint j = 0; j < n; ++j) {
      if (sgIds[j] != id || !bitOf(active, sgLocalIds[j])) continue;
      aSum += xs[j];
      aProd *= (xs[j] & 1) ? -1 : 1;
      if (sgLocalIds[j] <= lid) aIncl += xs[j];
      if (sgLocalIds[j] < lid) aExclMax = max(aExclMax, xs[j]);
    }
    o[16] = bitOf(active, lid);
    o[17] = sub_group_non_uniform_reduce_add(x) == aSum;
    o[18] = sub_group_non_uniform_scan_inclusive_add(x) == aIncl;
    o[19] = sub_group_non_uniform_scan_exclusive_max(x) == aExclMax && sub_group_non_uniform_reduce_mul(sign) == aProd;
  }
}
