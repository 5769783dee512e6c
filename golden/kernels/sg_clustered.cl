// build: -cl-std=CL3.0
// spirv: 1.3
// requires: __opencl_c_subgroups cl_khr_subgroup_clustered_reduce
// cl_khr_subgroup_clustered_reduce (OpenCL C 3.0 §6.15.20.2 [[sub-group-clustered-reduction-functions]]), checked for
// any division into sub-groups: cluster k of a sub-group holds the members with sub-group local ids k * size .. k *
// size + size - 1 (the sub-group's last cluster may have fewer). Each work-item writes its value, sub-group id and
// sub-group local id to local memory and after a barrier recomputes from there each clustered reduction over its
// cluster; it stores 1 where the built-in agrees, 0 where not. The cluster sizes are 1, 2, 4 and 16; one above the
// maximum sub-group size is undefined, so each size is used only when get_max_sub_group_size() allows it (the same
// answer for every work-item, so the calls stay in uniform control flow), 1 stored otherwise.
#define MAX_WG 128
#define CHECKS 12

// What the clustered reductions must return for the cluster of `size` members that holds sub-group local id `lid`.
struct Expected {
  int sum, mn, mx, prod, land;
  uint uand, uor, uxor;
  long lsum;
};

struct Expected expected(local const int* xs, local const uint* sgIds, local const uint* sgLocalIds, uint n, uint id,
                         uint lid, uint size) {
  struct Expected e = {0, INT_MAX, INT_MIN, 1, 1, ~0u, 0, 0, 0};
  for (uint j = 0; j < n; ++j) {
    if (sgIds[j] != id || sgLocalIds[j] / size != lid / size) continue;
    const int v = xs[j];
    const uint w = (uint)v * 2654435761u;
    e.sum += v;
    e.mn = min(e.mn, v);
    e.mx = max(e.mx, v);
    e.prod *= (v & 1) ? -1 : 1;
    e.land = e.land && v > -900;
    e.uand &= w;
    e.uor |= w;
    e.uxor ^= w;
    e.lsum += (long)v << 35;
  }
  return e;
}

// The checks of cluster size S in o[3 * PASS] .. o[3 * PASS + 2].
#define CHECK_CLUSTERS(S, PASS)                                                                                        \
  if (maxSize >= S) {                                                                                                  \
    const struct Expected e = expected(xs, sgIds, sgLocalIds, n, id, lid, S);                                          \
    o[3 * PASS + 0] = sub_group_clustered_reduce_add(x, S) == e.sum && sub_group_clustered_reduce_min(x, S) == e.mn && \
                      sub_group_clustered_reduce_max(x, S) == e.mx &&                                                  \
                      sub_group_clustered_reduce_add((long)x << 35, S) == e.lsum;                                      \
    o[3 * PASS + 1] = sub_group_clustered_reduce_mul(sign, S) == e.prod &&                                             \
                      (sub_group_clustered_reduce_logical_and(x > -900, S) != 0) == e.land;                            \
    o[3 * PASS + 2] = sub_group_clustered_reduce_and(u, S) == e.uand &&                                                \
                      sub_group_clustered_reduce_or(u, S) == e.uor && sub_group_clustered_reduce_xor(u, S) == e.uxor;  \
  } else {                                                                                                             \
    o[3 * PASS + 0] = o[3 * PASS + 1] = o[3 * PASS + 2] = 1;                                                           \
  }

kernel void sg_clustered(global const int* in, global int* ok) {
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
  const uint u = (uint)x * 2654435761u;
  const int sign = (x & 1) ? -1 : 1;
  CHECK_CLUSTERS(1, 0)
  CHECK_CLUSTERS(2, 1)
  CHECK_CLUSTERS(4, 2)
  CHECK_CLUSTERS(16, 3)
}
