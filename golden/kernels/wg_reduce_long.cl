// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// work_group_reduce_add/min/max on long and ulong (OpenCL C 3.0 §6.15.16 [[work-group-functions]]), in a 2D NDRange:
// the reduction covers the whole 2D work-group. The long sums stay in range; the ulong sums wrap modulo 2^64.
kernel void wg_reduce_long(global const long* in, global const ulong* inu, global long* out, global ulong* outu) {
  const size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  const long x = in[g];
  const ulong u = inu[g];
  out[3 * g + 0] = work_group_reduce_add(x);
  out[3 * g + 1] = work_group_reduce_min(x);
  out[3 * g + 2] = work_group_reduce_max(x);
  outu[3 * g + 0] = work_group_reduce_add(u);
  outu[3 * g + 1] = work_group_reduce_min(u);
  outu[3 * g + 2] = work_group_reduce_max(u);
}
