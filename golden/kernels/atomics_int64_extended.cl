// requires: cl_khr_int64_base_atomics cl_khr_int64_extended_atomics
// spirv: 1.0
// cl_khr_int64_extended_atomics (OpenCL C 3.0 §6.15.12.9 [[atomic-legacy-int64]]): atom_min, atom_max, atom_and,
// atom_or and atom_xor on long (signed comparison) and ulong (unsigned comparison) in global and local memory. The
// final values do not depend on the order of the atomics; the local results are each work-group's.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics_int64_extended(global const long* in, global long* acc, global ulong* uacc, global long* groups) {
  local long lmin, lmax, lxor;
  local ulong lumax;
  const size_t g = get_global_id(0), l = get_local_id(0);
  if (l == 0) {
    lmin = LONG_MAX;
    lmax = LONG_MIN;
    lxor = 0;
    lumax = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const long v = in[g];
  const ulong u = (ulong)v;
  atom_min(&acc[0], v);
  atom_max(&acc[1], v);
  atom_and(&acc[2], ~(1l << (u % 63)));
  atom_or(&acc[3], 1l << (u % 61));
  atom_xor(&acc[4], v);
  atom_min(&uacc[0], u);
  atom_max(&uacc[1], u);
  atom_or(&uacc[2], u & 0xff00ff00ff00ff00ul);
  atom_and(&uacc[3], u | 0x0f0f0f0f0f0f0f0ful);
  atom_min(&lmin, v);
  atom_max(&lmax, v);
  atom_xor(&lxor, v >> 3);
  atom_max(&lumax, u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    groups[4 * get_group_id(0) + 0] = lmin;
    groups[4 * get_group_id(0) + 1] = lmax;
    groups[4 * get_group_id(0) + 2] = lxor;
    groups[4 * get_group_id(0) + 3] = (long)lumax;
  }
}
