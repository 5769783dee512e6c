// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// work_group_reduce_add/min/max on int and uint (OpenCL C 3.0 §6.15.16 [[work-group-functions]]): every work-item
// receives its work-group's result. The int sums stay in range; the uint sums wrap modulo 2^32, which any order of the
// additions gives alike.
kernel void wg_reduce_int(global const int* in, global const uint* inu, global int* out, global uint* outu) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint u = inu[g];
  out[3 * g + 0] = work_group_reduce_add(x);
  out[3 * g + 1] = work_group_reduce_min(x);
  out[3 * g + 2] = work_group_reduce_max(x);
  outu[3 * g + 0] = work_group_reduce_add(u);
  outu[3 * g + 1] = work_group_reduce_min(u);
  outu[3 * g + 2] = work_group_reduce_max(u);
}
