// Every work-item of a group stores its local id into the group's result element: a write-write race on global
// memory between the work-items of one work-group.
kernel void race_global_ww_group(global int* out) {
  out[get_group_id(0)] = (int)get_local_id(0);  // BUG: all work-items of the group write the same element
}
