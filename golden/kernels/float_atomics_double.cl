// build: -cl-std=CL3.0
// spirv: 1.0 SPV_EXT_shader_atomic_float_add SPV_EXT_shader_atomic_float_min_max
// requires: cl_ext_float_atomics __opencl_c_ext_fp64_global_atomic_add __opencl_c_ext_fp64_local_atomic_add
// requires: __opencl_c_ext_fp64_global_atomic_min_max __opencl_c_ext_fp64_local_atomic_min_max
// requires: __opencl_c_atomic_order_seq_cst __opencl_c_atomic_scope_device cl_khr_fp64 cl_khr_int64_base_atomics
// requires: cl_khr_int64_extended_atomics
// cl_ext_float_atomics [external] on atomic_double: atomic_fetch_add, _sub, _min and _max in global and local memory.
// The values are multiples of 0.125 whose every partial sum is exact, so the sums do not depend on the order of the
// atomics; min and max never meet a zero of the other sign.
#pragma OPENCL FP_CONTRACT OFF

kernel void float_atomics_double(global const int* in, global atomic_double* acc, global double* groups) {
  local atomic_double lsum, lmax;
  const size_t g = get_global_id(0), l = get_local_id(0);
  if (l == 0) {
    atomic_init(&lsum, 0.0);
    atomic_init(&lmax, -INFINITY);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const double x = (double)in[g] * 0.125;
  atomic_fetch_add(&acc[0], x);
  atomic_fetch_sub_explicit(&acc[1], x * 1024.0, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min_explicit(&acc[2], x, memory_order_seq_cst, memory_scope_device);
  atomic_fetch_max(&acc[3], x);
  atomic_fetch_add_explicit(&lsum, x, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_max_explicit(&lmax, x, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    groups[2 * get_group_id(0) + 0] = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
    groups[2 * get_group_id(0) + 1] = atomic_load_explicit(&lmax, memory_order_relaxed, memory_scope_work_group);
  }
}
