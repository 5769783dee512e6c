// build: -cl-std=CL3.0
// requires: __opencl_c_atomic_order_acq_rel
// Message passing inside a work-group with release and acquire (OpenCL C 3.0 §6.15.12 [[atomic-functions]],
// atomic_store_explicit / atomic_load_explicit with memory_order_release / _acquire at memory_scope_work_group, and
// atomic_work_item_fence around relaxed atomics): work-item 0 of each work-group writes messages with plain stores to
// local and global memory and then publishes a flag; after a barrier every work-item acquires the flag and reads a
// message another work-item wrote. The barrier (which every work-item reaches, so no work-item waits for another's
// progress) already makes the producer's stores visible; the release/acquire pairs are the pattern's own
// synchronisation, which must agree with it.
#define MAX_WG 256

kernel void atomic_message_passing(global const int* in, global int* data, global atomic_int* flags, global int* out) {
  local int messages[MAX_WG], fenced[MAX_WG];
  local atomic_int ready, fencedReady;
  const size_t l = get_local_id(0), n = get_local_size(0), group = get_group_id(0), g = get_global_id(0);
  if (l == 0) {
    atomic_init(&ready, 0);
    atomic_init(&fencedReady, 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    for (size_t k = 0; k < n; ++k) messages[k] = in[group * n + k] * 2;
    atomic_store_explicit(&ready, 1, memory_order_release, memory_scope_work_group);
    for (size_t k = 0; k < n; ++k) data[group * n + k] = in[group * n + k] + 1;
    atomic_store_explicit(&flags[group], 1, memory_order_release, memory_scope_work_group);
    for (size_t k = 0; k < n; ++k) fenced[k] = in[group * n + k] - 3;
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_store_explicit(&fencedReady, 1, memory_order_relaxed, memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const int r = atomic_load_explicit(&ready, memory_order_acquire, memory_scope_work_group);
  out[4 * g + 0] = r ? messages[(l + 1) % n] : -1;
  const int gr = atomic_load_explicit(&flags[group], memory_order_acquire, memory_scope_work_group);
  out[4 * g + 1] = gr ? data[group * n + (n - 1 - l)] : -1;
  const int fr = atomic_load_explicit(&fencedReady, memory_order_relaxed, memory_scope_work_group);
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
  out[4 * g + 2] = fr ? fenced[n / 2] : -1;
  out[4 * g + 3] = r + gr + fr;
}
