// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_extended_types cl_khr_fp64
// cl_khr_subgroup_extended_types (OpenCL C 3.0 §6.15.20 [[sub-group-functions]]): the sub-group collectives on char,
// uchar, short and ushort, and sub_group_broadcast on vectors, checked for any division into sub-groups: each
// work-item writes its value, sub-group id and sub-group local id to local memory and after a barrier recomputes from
// there what each built-in must return for its sub-group; it stores 1 where the built-in agrees, 0 where not. The
// char and short sums stay in range for any sub-group of at most 128 work-items (values in -1 .. 1 and -250 .. 250).
#define MAX_WG 128
#define CHECKS 10

kernel void sg_extended_types(global const int* in, global int* ok) {
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

  const char c = (char)(x % 2);  // -1 .. 1
  const uchar uc = (uchar)(x & 0xff);
  const short s = (short)(x / 4);  // -250 .. 250
  const ushort us = (ushort)(x * 61);
  int cSum = 0, cMin = CHAR_MAX, sSum = 0, sMax = SHRT_MIN, ucMax = 0, sIncl = 0, usExclMin = USHRT_MAX, usExclMax = 0;
  int last = 0, first = 0;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    const int v = xs[j];
    const uint k = sgLocalIds[j];
    cSum += v % 2;
    cMin = min(cMin, v % 2);
    ucMax = max(ucMax, v & 0xff);
    sSum += v / 4;
    sMax = max(sMax, v / 4);
    if (k <= lid) sIncl += v / 4;
    if (k < lid) {
      usExclMin = min(usExclMin, (int)(ushort)(v * 61));
      usExclMax = max(usExclMax, (int)(ushort)(v * 61));
    }
    if (k == size - 1) last = v;
    if (k == 0) first = v;
  }
  global int* o = ok + g * CHECKS;
  o[0] = sub_group_reduce_add(c) == cSum && sub_group_reduce_min(c) == cMin;
  o[1] = sub_group_reduce_max(uc) == ucMax && sub_group_broadcast(uc, 0) == (uchar)(first & 0xff);
  o[2] = sub_group_reduce_add(s) == sSum && sub_group_reduce_max(s) == sMax;
  o[3] = sub_group_scan_inclusive_add(s) == sIncl;
  o[4] = sub_group_scan_exclusive_min(us) == usExclMin && sub_group_scan_exclusive_max(us) == usExclMax;
  // Vectors: every component of the named member's vector.
  const int4 v4 = sub_group_broadcast((int4)(x, -x, x * 2, lid), size - 1);
  o[5] = v4.x == last && v4.y == -last && v4.z == last * 2 && v4.w == (int)(size - 1);
  const char8 c8 = sub_group_broadcast((char8)((char)x, 1, 2, 3, 4, 5, 6, (char)lid), 0);
  o[6] = c8.s0 == (char)first && c8.s3 == 3 && c8.s7 == 0;
  const float3 f3 = sub_group_broadcast((float3)((float)x, 0.5f, (float)lid), size / 2);
  int mid = 0;
  for (uint j = 0; j < n; ++j)
    if (sgIds[j] == id && sgLocalIds[j] == size / 2) mid = xs[j];
  o[7] = f3.x == (float)mid && f3.y == 0.5f && f3.z == (float)(size / 2);
  const double2 d2 = sub_group_broadcast((double2)((double)x, (double)x * 0.25), 0);
  o[8] = d2.x == (double)first && d2.y == (double)first * 0.25;
  const ushort16 u16 = sub_group_broadcast((ushort16)((ushort)x), size - 1);
  o[9] = u16.s0 == (ushort)last && u16.sf == (ushort)last;
}
