// OpenCL C 2.0: an atomic of the wrong scope. The counter is shared by every work-group, but the increments use
// memory_scope_work_group, so increments from different work-groups are not in one scope and race.
kernel void race_atomic_scope(global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_work_group);  // BUG: needs device scope
}
