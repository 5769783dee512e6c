// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// work_group_scan_inclusive/exclusive_add/min/max on long and ulong (OpenCL C 3.0 §6.15.16 [[work-group-functions]])
// in a 2D NDRange: the scan order is the linear local id (local x fastest); the exclusive identities are 0,
// LONG_MAX or ULONG_MAX, LONG_MIN or 0.
kernel void wg_scan_long(global const long* in, global long* out, global ulong* outu) {
  const size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  const long x = in[g];
  const ulong u = (ulong)x * 0x9E3779B97F4A7C15ul;
  out[6 * g + 0] = work_group_scan_inclusive_add(x);
  out[6 * g + 1] = work_group_scan_exclusive_add(x);
  out[6 * g + 2] = work_group_scan_inclusive_min(x);
  out[6 * g + 3] = work_group_scan_exclusive_min(x);
  out[6 * g + 4] = work_group_scan_inclusive_max(x);
  out[6 * g + 5] = work_group_scan_exclusive_max(x);
  outu[4 * g + 0] = work_group_scan_inclusive_add(u);
  outu[4 * g + 1] = work_group_scan_exclusive_min(u);
  outu[4 * g + 2] = work_group_scan_exclusive_max(u);
  outu[4 * g + 3] = work_group_scan_inclusive_min(u);
}
