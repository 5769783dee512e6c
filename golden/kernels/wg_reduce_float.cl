// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions cl_khr_fp64
// Floating-point work-group reductions and scans (OpenCL C 3.0 §6.15.16 [[work-group-functions]]), whose order of
// operations the implementation chooses: the values are multiples of 0.25 (of 0.125 for the doubles) small enough that
// every partial sum is exact, so any order gives the same bits. min and max are exact anyway; the exclusive scans give
// the first work-item +INF (min) and -INF (max).
#pragma OPENCL FP_CONTRACT OFF

kernel void wg_reduce_float(global const int* in, global float* out, global double* outd) {
  const size_t g = get_global_id(0);
  const float x = (float)in[g] * 0.25f;
  out[7 * g + 0] = work_group_reduce_add(x);
  out[7 * g + 1] = work_group_reduce_min(x);
  out[7 * g + 2] = work_group_reduce_max(x);
  out[7 * g + 3] = work_group_scan_inclusive_add(x);
  out[7 * g + 4] = work_group_scan_exclusive_add(x);
  out[7 * g + 5] = work_group_scan_exclusive_min(x);
  out[7 * g + 6] = work_group_scan_exclusive_max(x);
  const double d = (double)in[g] * 0.125;
  outd[2 * g + 0] = work_group_reduce_add(d);
  outd[2 * g + 1] = work_group_scan_inclusive_add(d);
}
