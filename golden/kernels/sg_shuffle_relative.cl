// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_shuffle_relative cl_khr_fp64
// cl_khr_subgroup_shuffle_relative (OpenCL C 3.0 §6.15.20 [[sub-group-functions]], sub_group_shuffle_up and
// sub_group_shuffle_down), checked for any division into sub-groups: each work-item writes its value, sub-group id and
// sub-group local id to local memory and after a barrier looks up the value the shuffle must return (the member
// `delta` below or above it); it stores 1 where the built-in agrees, 0 where not. A source outside the sub-group gives
// an undefined value, so such results are not compared (1 stored). The delta need not be the same for the whole
// sub-group.
#define MAX_WG 128
#define CHECKS 6

kernel void sg_shuffle_relative(global const int* in, global int* ok) {
  local int xs[MAX_WG];
  local uint sgIds[MAX_WG], sgLocalIds[MAX_WG];
  const uint l = get_local_id(0), n = get_local_size(0);
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint id = get_sub_group_id(), lid = get_sub_group_local_id(), size = get_sub_group_size();
  xs[l] = x;
  sgIds[l] = id;
  sgLocalIds[l] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);

  const uint d = lid % 3u;  // a different delta per work-item
  int up1 = 0, up3 = 0, upd = 0, down1 = 0, down2 = 0, downd = 0;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    const uint k = sgLocalIds[j];
    if (k + 1 == lid) up1 = xs[j];
    if (k + 3 == lid) up3 = xs[j];
    if (k + d == lid) upd = xs[j];
    if (k == lid + 1) down1 = xs[j];
    if (k == lid + 2) down2 = xs[j];
    if (k == lid + d) downd = xs[j];
  }
  global int* o = ok + g * CHECKS;
  const int r0 = sub_group_shuffle_up(x, 1u);
  o[0] = lid < 1 || r0 == up1;
  const long r1 = sub_group_shuffle_up((long)x << 32, 3u);
  o[1] = lid < 3 || r1 == (long)up3 << 32;
  const float r2 = sub_group_shuffle_up((float)x, d);
  o[2] = lid < d || r2 == (float)upd;
  const int r3 = sub_group_shuffle_down(x, 1u);
  o[3] = lid + 1 >= size || r3 == down1;
  const double r4 = sub_group_shuffle_down((double)x * 0.5, 2u);
  o[4] = lid + 2 >= size || r4 == (double)down2 * 0.5;
  const uint r5 = sub_group_shuffle_down((uint)x, d);
  o[5] = lid + d >= size || r5 == (uint)downd;
}
