// build: -cl-std=CL3.0
// requires: __opencl_c_subgroups
// Sub-group functions (OpenCL C 3.0 §6.15.20 [[sub-group-functions]], the OpenCL C 3.0 feature __opencl_c_subgroups;
// cl_khr_subgroups names the same built-ins): how a work-group is divided into sub-groups is the implementation's, so
// the kernel checks itself for any division. Each work-item writes its value, sub-group id and sub-group local id to
// local memory; after a barrier it recomputes from there what each built-in must return for its sub-group (the
// work-items with the same sub-group id, in sub-group local id order) and stores 1 where the built-in agrees, 0 where
// not. Work-item 0 of each work-group also stores the group's sum, made of the sub-groups' reductions, which does not
// depend on the division.
#pragma OPENCL FP_CONTRACT OFF
#define MAX_WG 128
#define CHECKS 16

kernel void subgroups(global const int* in, global int* ok, global int* sums) {
  local int xs[MAX_WG], again[MAX_WG], partial[MAX_WG];
  local uint sgIds[MAX_WG], sgLocalIds[MAX_WG];
  const uint l = get_local_id(0), n = get_local_size(0);
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint id = get_sub_group_id(), lid = get_sub_group_local_id(), size = get_sub_group_size();
  xs[l] = x;
  sgIds[l] = id;
  sgLocalIds[l] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);

  const int all = sub_group_all(x > -900) != 0, any = sub_group_any(x > 900) != 0;
  const int last = sub_group_broadcast(x, size - 1);
  const int sum = sub_group_reduce_add(x), mn = sub_group_reduce_min(x), mx = sub_group_reduce_max(x);
  const int incl = sub_group_scan_inclusive_add(x), excl = sub_group_scan_exclusive_add(x);
  const int inclMin = sub_group_scan_inclusive_min(x), exclMax = sub_group_scan_exclusive_max(x);
  const long lsum = sub_group_reduce_add((long)x * 1000000007l);
  const ulong exclMinU = sub_group_scan_exclusive_min((ulong)(long)x);
  // Multiples of 0.5 below 2^12 in magnitude: every partial sum is exact, so any order of the additions agrees.
  const float fsum = sub_group_reduce_add((float)x * 0.5f);

  uint members = 0, sameLocalId = 0, outOfRange = 0;
  int eAll = 1, eAny = 0, eLast = 0, eSum = 0, eMin = INT_MAX, eMax = INT_MIN, eIncl = 0, eExcl = 0;
  int eInclMin = INT_MAX, eExclMax = INT_MIN;
  long eLsum = 0;
  ulong eExclMinU = ULONG_MAX;
  float eFsum = 0.0f;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    const int v = xs[j];
    const uint k = sgLocalIds[j];
    ++members;
    sameLocalId += k == lid;
    outOfRange += k >= size;
    eAll = eAll && v > -900;
    eAny = eAny || v > 900;
    if (k == size - 1) eLast = v;
    eSum += v;
    eMin = min(eMin, v);
    eMax = max(eMax, v);
    eLsum += (long)v * 1000000007l;
    eFsum += (float)v * 0.5f;
    if (k <= lid) {
      eIncl += v;
      eInclMin = min(eInclMin, v);
    }
    if (k < lid) {
      eExcl += v;
      eExclMax = max(eExclMax, v);
      eExclMinU = min(eExclMinU, (ulong)(long)v);
    }
  }
  global int* o = ok + g * CHECKS;
  // The division: ids in range, as many members as get_sub_group_size(), each sub-group local id once.
  o[0] = id < get_num_sub_groups() && lid < size && size <= get_max_sub_group_size() && size >= 1;
  o[1] = members == size && sameLocalId == 1 && outOfRange == 0;
  o[2] = get_num_sub_groups() <= get_enqueued_num_sub_groups();
  o[3] = all == eAll && any == eAny;
  o[4] = last == eLast;
  o[5] = sum == eSum;
  o[6] = mn == eMin && mx == eMax;
  o[7] = incl == eIncl && excl == eExcl;
  o[8] = inclMin == eInclMin && exclMax == eExclMax;
  o[9] = lsum == eLsum;
  o[10] = exclMinU == eExclMinU;
  o[11] = fsum == eFsum;

  // sub_group_barrier orders the sub-group's local memory accesses: each work-item reads what the next one of its
  // sub-group (in sub-group local id order, cyclically) wrote after the barrier.
  again[l] = x * 3 + 1;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  const uint next = (lid + 1) % size;
  int fromNext = 0, found = 0;
  for (uint j = 0; j < n; ++j)
    if (sgIds[j] == id && sgLocalIds[j] == next) {
      fromNext = again[j] == xs[j] * 3 + 1;
      ++found;
    }
  o[12] = fromNext && found == 1;

  // The sub-groups' sums, one per sub-group, make the work-group's sum.
  if (lid == 0) partial[id] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  int groupSum = 0;
  for (uint s = 0; s < get_num_sub_groups(); ++s) groupSum += partial[s];
  int eGroupSum = 0;
  for (uint j = 0; j < n; ++j) eGroupSum += xs[j];
  o[13] = groupSum == eGroupSum;
  o[14] = sub_group_all(1) != 0 && sub_group_any(0) == 0;
  o[15] = sub_group_broadcast((uint)id, 0) == id;
  if (l == 0) sums[get_group_id(0)] = groupSum;
}
