// Each work-group writes its results to out[0 .. local size) instead of its own slice: the groups overwrite each
// other's elements, a write-write race between work-groups.
kernel void race_global_ww_groups(global const int* in, global int* out) {
  out[get_local_id(0)] = in[get_global_id(0)];  // BUG: should be out[get_global_id(0)]
}
