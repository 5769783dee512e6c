// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot cl_khr_fp64
// cl_khr_subgroup_non_uniform_vote (OpenCL C 3.0 §6.15.20 [[sub-group-functions]] and its non-uniform vote table),
// checked for any division into sub-groups: each work-item writes its value, sub-group id and sub-group local id to
// local memory, and after a barrier recomputes from there what sub_group_elect, sub_group_non_uniform_all, _any and
// _all_equal must return for the active work-items of its sub-group; it stores 1 where the built-in agrees, 0 where
// not. First with the whole sub-group active, then in a branch only some work-items take, where the active ones are
// those sub_group_ballot(1) names (cl_khr_subgroup_ballot, OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]]).
#define MAX_WG 128
#define CHECKS 12

uint word(uint4 b, uint w) {
  uint r = b.x;
  if (w >= 1) r = b.y;
  if (w >= 2) r = b.z;
  if (w >= 3) r = b.w;
  return r;
}
int bitOf(uint4 b, uint k) { return k < 128 && ((word(b, k >> 5) >> (k & 31)) & 1u); }

kernel void sg_vote(global const int* in, global int* ok) {
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

  // All values are equal when the smallest is the largest.
  int eAll = 1, eAny = 0, eMin = INT_MAX, eMax = INT_MIN;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    eAll = eAll && xs[j] > -900;
    eAny = eAny || xs[j] > 900;
    eMin = min(eMin, xs[j]);
    eMax = max(eMax, xs[j]);
  }
  const int eEqual = eMin == eMax;
  global int* o = ok + g * CHECKS;
  // The whole sub-group is active: the elected work-item is sub-group local id 0.
  o[0] = (sub_group_elect() != 0) == (lid == 0);
  o[1] = (sub_group_non_uniform_all(x > -900) != 0) == eAll;
  o[2] = (sub_group_non_uniform_any(x > 900) != 0) == eAny;
  o[3] = (sub_group_non_uniform_all_equal(x) != 0) == eEqual;
  o[4] = sub_group_non_uniform_all_equal(id * 7u + 1u) != 0 && sub_group_non_uniform_all_equal((long)id << 40) != 0;
  // Floating-point values compare as floating-point numbers: -0.0 equals +0.0.
  o[5] = sub_group_non_uniform_all_equal((lid & 1) ? -0.0f : 0.0f) != 0 &&
         sub_group_non_uniform_all_equal((lid & 1) ? -0.0 : 0.0) != 0;
  o[6] = (sub_group_non_uniform_all_equal((float)x * 0.5f) != 0) == eEqual;
  o[7] = (sub_group_non_uniform_all_equal((char)(lid == 1)) != 0) == (get_sub_group_size() == 1);
  o[8] = o[9] = o[10] = o[11] = 1;
  if (x % 4 != 0) {
    // Only the work-items whose value is not a multiple of 4 come here.
    const uint4 active = sub_group_ballot(1);
    uint lowest = 128;
    int aAll = 1, aAny = 0, aMin = 3, aMax = 0;
    for (uint j = 0; j < n; ++j) {
      if (sgIds[j] != id || !bitOf(active, sgLocalIds[j])) continue;
      lowest = min(lowest, sgLocalIds[j]);
      aAll = aAll && xs[j] > 0;
      aAny = aAny || xs[j] > 800;
      aMin = min(aMin, xs[j] & 3);
      aMax = max(aMax, xs[j] & 3);
    }
    const int aEqual = aMin == aMax;
    o[8] = (sub_group_elect() != 0) == (lid == lowest);
    o[9] = (sub_group_non_uniform_all(x > 0) != 0) == aAll;
    o[10] = (sub_group_non_uniform_any(x > 800) != 0) == aAny;
    o[11] = (sub_group_non_uniform_all_equal(x & 3) != 0) == aEqual;
  }
}
