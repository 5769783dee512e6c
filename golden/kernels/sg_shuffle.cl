// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_shuffle cl_khr_fp64
// cl_khr_subgroup_shuffle (OpenCL C 3.0 §6.15.20 [[sub-group-functions]], sub_group_shuffle and sub_group_shuffle_xor),
// checked for any division into sub-groups: each work-item writes its value, sub-group id and sub-group local id to
// local memory and after a barrier looks up the value the shuffle must return (the member of its sub-group with the
// named sub-group local id); it stores 1 where the built-in agrees, 0 where not. An index at or above the sub-group's
// size gives an undefined value, so such results are not compared (1 stored). The index need not be the same for the
// whole sub-group. int, ulong, float and double values.
#define MAX_WG 128
#define CHECKS 8

kernel void sg_shuffle(global const int* in, global int* ok) {
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

  // The sources: a permutation-like index, a fixed member, and three xor masks.
  const uint a = (lid * 5u + 3u) % size, b = size / 2, c = lid ^ 1u, d = lid ^ 5u, e = lid ^ (size - 1);
  int va = 0, vb = 0, vc = 0, vd = 0, ve = 0;
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id) continue;
    const uint k = sgLocalIds[j];
    if (k == a) va = xs[j];
    if (k == b) vb = xs[j];
    if (k == c) vc = xs[j];
    if (k == d) vd = xs[j];
    if (k == e) ve = xs[j];
  }
  const ulong wide = (ulong)(long)x * 0x9E3779B97F4A7C15ul;
  global int* o = ok + g * CHECKS;
  o[0] = sub_group_shuffle(x, a) == va;
  o[1] = sub_group_shuffle(wide, b) == (ulong)(long)vb * 0x9E3779B97F4A7C15ul;
  o[2] = sub_group_shuffle((float)x * 0.5f, a) == (float)va * 0.5f;
  o[3] = sub_group_shuffle((double)x * 1e10, b) == (double)vb * 1e10;
  const int rc = sub_group_shuffle_xor(x, 1u);
  o[4] = c >= size || rc == vc;
  const int rd = sub_group_shuffle_xor(x, 5u);
  o[5] = d >= size || rd == vd;
  const float re = sub_group_shuffle_xor((float)x, size - 1);
  o[6] = e >= size || re == (float)ve;
  // A lane's own index returns its own value.
  o[7] = sub_group_shuffle(x, lid) == x && sub_group_shuffle_xor(x, 0u) == x;
}
