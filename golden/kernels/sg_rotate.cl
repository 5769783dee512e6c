// build: -cl-std=CL3.0
// spirv: 1.3 SPV_KHR_subgroup_rotate
// requires: __opencl_c_subgroups cl_khr_subgroup_rotate
// cl_khr_subgroup_rotate (OpenCL C 3.0 §6.15.20 [[sub-group-functions]], sub_group_rotate and
// sub_group_clustered_rotate), checked for any division into sub-groups: each work-item writes its value, sub-group id
// and sub-group local id to local memory and after a barrier looks up the value the rotation must return, the member
// with sub-group local id (lid + delta) mod get_max_sub_group_size() (for the clustered rotation: within the caller's
// cluster, (lid mod size + delta) mod size past the cluster's first member); it stores 1 where the built-in agrees, 0
// where not. A source that is no member of the sub-group (in a sub-group smaller than the maximum) gives an undefined
// value, so such results are not compared (1 stored). delta is dynamically uniform; the cluster sizes are constants and
// used only when get_max_sub_group_size() allows them.
#define MAX_WG 128
#define CHECKS 6

// The value of the member of sub-group `id` with sub-group local id `k`, and whether there is one.
int valueOf(local const int* xs, local const uint* sgIds, local const uint* sgLocalIds, uint n, uint id, uint k,
            int* found) {
  int v = 0;
  *found = 0;
  for (uint j = 0; j < n; ++j)
    if (sgIds[j] == id && sgLocalIds[j] == k) {
      v = xs[j];
      *found = 1;
    }
  return v;
}

kernel void sg_rotate(global const int* in, global int* ok) {
  local int xs[MAX_WG];
  local uint sgIds[MAX_WG], sgLocalIds[MAX_WG];
  const uint l = get_local_id(0), n = get_local_size(0);
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint id = get_sub_group_id(), lid = get_sub_group_local_id(), maxSize = get_max_sub_group_size();
  xs[l] = x;
  sgIds[l] = id;
  sgLocalIds[l] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);

  global int* o = ok + g * CHECKS;
  int found, v;
  v = valueOf(xs, sgIds, sgLocalIds, n, id, (lid + 1) % maxSize, &found);
  const int r0 = sub_group_rotate(x, 1);
  o[0] = !found || r0 == v;
  const int delta = (int)(get_group_id(0) % 5) + 2;  // the same in the whole work-group
  v = valueOf(xs, sgIds, sgLocalIds, n, id, (lid + (uint)delta) % maxSize, &found);
  const long r1 = sub_group_rotate((long)x * 3000000000l, delta);
  o[1] = !found || r1 == (long)v * 3000000000l;
  const float r2 = sub_group_rotate((float)x, delta);
  o[2] = !found || r2 == (float)v;
  v = valueOf(xs, sgIds, sgLocalIds, n, id, lid, &found);
  o[3] = sub_group_rotate(x, 0) == v && sub_group_rotate(x, (int)maxSize) == v;
  o[4] = o[5] = 1;
  if (maxSize >= 4) {
    v = valueOf(xs, sgIds, sgLocalIds, n, id, lid / 4 * 4 + (lid % 4 + 1) % 4, &found);
    const int r4 = sub_group_clustered_rotate(x, 1, 4);
    o[4] = !found || r4 == v;
  }
  if (maxSize >= 8) {
    v = valueOf(xs, sgIds, sgLocalIds, n, id, lid / 8 * 8 + (lid % 8 + (uint)delta) % 8, &found);
    const uint r5 = sub_group_clustered_rotate((uint)x, delta, 8);
    o[5] = !found || r5 == (uint)v;
  }
}
