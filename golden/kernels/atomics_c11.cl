// build: -cl-std=CL3.0
// spirv: 1.0
// requires: __opencl_c_atomic_order_acq_rel __opencl_c_atomic_order_seq_cst __opencl_c_atomic_scope_device
// requires: cl_khr_int64_base_atomics cl_khr_int64_extended_atomics
// The OpenCL C 2.0 atomics (OpenCL C 3.0 §6.15.12 [[atomic-functions]]): atomic_fetch_<key>_explicit with memory
// orders relaxed, acq_rel and seq_cst and memory scopes work_group and device, the implicit forms (seq_cst, device),
// atomic_exchange, atomic_compare_exchange_strong and _weak, atomic_load, atomic_store and atomic_flag_test_and_set on
// atomic_int, atomic_uint and atomic_long in global memory and on atomic_int, atomic_uint and atomic_flag in local
// memory. Only results that do not depend on the order of the atomics are stored. Every atomic on an object that
// work-items of other work-groups use too has device scope; work-group scope is for local memory and for the
// work-item's own element.
kernel void atomics_c11(global const int* in, global atomic_int* acc, global atomic_uint* uacc,
                        global atomic_long* lacc, global int* slots, global int* groups) {
  local atomic_int lsum, lmin, lwinners;
  local atomic_uint lor;
  local atomic_flag lflag;
  const size_t g = get_global_id(0), l = get_local_id(0);
  if (l == 0) {
    atomic_init(&lsum, 0);
    atomic_init(&lmin, INT_MAX);
    atomic_init(&lwinners, 0);
    atomic_init(&lor, 0u);
    atomic_flag_clear_explicit(&lflag, memory_order_relaxed, memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int v = in[g];
  const uint u = (uint)v;
  atomic_fetch_add_explicit(&acc[0], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&acc[1], v, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_or_explicit(&acc[2], 1 << (u % 31), memory_order_seq_cst, memory_scope_device);
  atomic_fetch_and_explicit(&acc[3], ~(1 << (u % 29)), memory_order_relaxed);
  atomic_fetch_xor(&acc[4], v);
  atomic_fetch_min_explicit(&acc[5], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max(&acc[6], v);
  // Everybody exchanges in the same value: the returns are the initial value once and 11 otherwise.
  atomic_fetch_add_explicit(&acc[7], atomic_exchange(&acc[8], 11), memory_order_relaxed, memory_scope_device);
  // acc[9] += v % 1000 with compare-exchange loops, strong and weak (a weak one may fail spuriously: it is retried).
  int expected = atomic_load_explicit(&acc[9], memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_strong_explicit(&acc[9], &expected, expected + v % 1000, memory_order_acq_rel,
                                                  memory_order_relaxed, memory_scope_device)) {}
  expected = atomic_load(&acc[10]);
  while (!atomic_compare_exchange_weak(&acc[10], &expected, expected + 1)) {}
  atomic_fetch_min_explicit(&uacc[0], u, memory_order_seq_cst, memory_scope_device);
  atomic_fetch_max_explicit(&uacc[1], u, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_add(&uacc[2], u * 2654435761u);
  atomic_fetch_add_explicit(&lacc[0], (long)v << 20, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min(&lacc[1], (long)v * -3000000000l);
  atomic_fetch_xor_explicit(&lacc[2], (long)u << 32 | u, memory_order_seq_cst, memory_scope_device);
  // The work-item's own element: a store, a compare-exchange that fails (and reports the value it found), one that
  // succeeds, and a load.
  global atomic_int* mine = (global atomic_int*)&slots[2 * g];
  atomic_store_explicit(mine, v * 2, memory_order_release, memory_scope_device);
  int wrong = v * 2 + 1, right = v * 2;
  const bool failed = !atomic_compare_exchange_strong(mine, &wrong, 0);
  const bool succeeded = atomic_compare_exchange_strong_explicit(mine, &right, v * 2 + 5, memory_order_seq_cst,
                                                                 memory_order_relaxed, memory_scope_work_group);
  const int now = atomic_load_explicit(mine, memory_order_acquire, memory_scope_device);
  slots[2 * g + 1] = wrong - now + (failed ? 1000 : 0) + (succeeded ? 100 : 0);
  // Local memory, work-group scope.
  atomic_fetch_add_explicit(&lsum, v, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_min_explicit(&lmin, v, memory_order_acq_rel, memory_scope_work_group);
  atomic_fetch_or_explicit(&lor, 1u << (u % 32), memory_order_seq_cst, memory_scope_work_group);
  // Exactly one work-item of the group finds the flag clear.
  if (!atomic_flag_test_and_set_explicit(&lflag, memory_order_acq_rel, memory_scope_work_group))
    atomic_fetch_add_explicit(&lwinners, 1, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    groups[4 * get_group_id(0) + 0] = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
    groups[4 * get_group_id(0) + 1] = atomic_load_explicit(&lmin, memory_order_relaxed, memory_scope_work_group);
    groups[4 * get_group_id(0) + 2] = (int)atomic_load_explicit(&lor, memory_order_relaxed, memory_scope_work_group);
    groups[4 * get_group_id(0) + 3] = atomic_load_explicit(&lwinners, memory_order_relaxed, memory_scope_work_group);
  }
}
