// An in-place rotation by one work-group's width: each work-item reads the element that a work-item of the next
// work-group overwrites, and nothing orders work-groups.
kernel void race_global_rw_groups(global int* data) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int v = data[(i + get_local_size(0)) % n];  // BUG: another work-group writes this element below
  data[i] = v;                                 // BUG: unordered with the other work-group's read above
}
