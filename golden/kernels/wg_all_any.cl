// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// Work-group votes (OpenCL C 3.0 §6.15.16 [[work-group-functions]]): work_group_all and work_group_any return "a
// non-zero value" when the predicate holds for all (any) work-items of the work-group; which non-zero value is the
// implementation's, so the kernel stores whether the result is non-zero. Every work-item stores its group's results;
// the cases have a smaller last work-group (non-uniform work-groups, OpenCL C 2.0 and later).
kernel void wg_all_any(global const int* in, global int* out) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  out[5 * g + 0] = work_group_all(x >= 10) != 0;
  out[5 * g + 1] = work_group_any(x >= 990) != 0;
  out[5 * g + 2] = work_group_all(x < 1000) != 0;                          // true in every group
  out[5 * g + 3] = work_group_any(x == 1000 + (int)get_local_id(0)) != 0;  // false in every group
  // A predicate that is not 0 or 1: any non-zero value is true.
  out[5 * g + 4] = work_group_all(x & ~1) != 0;
}
