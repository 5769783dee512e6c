// build: -cl-std=CL3.0
// spirv: 1.0 SPV_EXT_shader_atomic_float_add SPV_EXT_shader_atomic_float_min_max
// requires: cl_ext_float_atomics __opencl_c_ext_fp32_global_atomic_add __opencl_c_ext_fp32_local_atomic_add
// requires: __opencl_c_ext_fp32_global_atomic_min_max __opencl_c_ext_fp32_local_atomic_min_max
// requires: __opencl_c_atomic_order_seq_cst __opencl_c_atomic_scope_device
// cl_ext_float_atomics [external]: atomic_fetch_add, _sub, _min and _max on atomic_float in global and local memory.
// The values are multiples of 0.25 whose every partial sum is exact in float, so the sums do not depend on the order of
// the atomics; min and max never meet a zero of the other sign (the values are integers times 0.25, never -0.0).
#pragma OPENCL FP_CONTRACT OFF

kernel void float_atomics(global const int* in, global atomic_float* acc, global float* groups) {
  local atomic_float lsum, lmin, lmax;
  const size_t g = get_global_id(0), l = get_local_id(0);
  if (l == 0) {
    atomic_init(&lsum, 0.0f);
    atomic_init(&lmin, INFINITY);
    atomic_init(&lmax, -INFINITY);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const float x = (float)in[g] * 0.25f;
  atomic_fetch_add(&acc[0], x);
  atomic_fetch_sub_explicit(&acc[1], x, memory_order_relaxed);
  atomic_fetch_min(&acc[2], x);
  atomic_fetch_max_explicit(&acc[3], x, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&acc[4], 1.0f, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&lsum, x, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_min_explicit(&lmin, x, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_max(&lmax, x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    groups[3 * get_group_id(0) + 0] = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
    groups[3 * get_group_id(0) + 1] = atomic_load_explicit(&lmin, memory_order_relaxed, memory_scope_work_group);
    groups[3 * get_group_id(0) + 2] = atomic_load_explicit(&lmax, memory_order_relaxed, memory_scope_work_group);
  }
}
