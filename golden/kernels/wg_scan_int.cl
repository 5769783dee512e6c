// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// work_group_scan_inclusive/exclusive_add/min/max on int and uint (OpenCL C 3.0 §6.15.16 [[work-group-functions]]):
// the scan order is the work-items' linear local id; an exclusive scan gives the first work-item the operation's
// identity (0, INT_MAX or UINT_MAX, INT_MIN or 0). The cases' last work-group is smaller.
kernel void wg_scan_int(global const int* in, global int* out, global uint* outu) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  const uint u = (uint)x * 2654435761u;
  out[6 * g + 0] = work_group_scan_inclusive_add(x);
  out[6 * g + 1] = work_group_scan_exclusive_add(x);
  out[6 * g + 2] = work_group_scan_inclusive_min(x);
  out[6 * g + 3] = work_group_scan_exclusive_min(x);
  out[6 * g + 4] = work_group_scan_inclusive_max(x);
  out[6 * g + 5] = work_group_scan_exclusive_max(x);
  outu[4 * g + 0] = work_group_scan_exclusive_add(u);
  outu[4 * g + 1] = work_group_scan_exclusive_min(u);
  outu[4 * g + 2] = work_group_scan_exclusive_max(u);
  outu[4 * g + 3] = work_group_scan_inclusive_max(u);
}
