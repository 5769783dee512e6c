// build: -cl-std=CL3.0
// spirv: 1.0 SPV_KHR_uniform_group_instructions
// requires: __opencl_c_work_group_collective_functions cl_khr_work_group_uniform_arithmetic
// cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 §6.15.17 [[work-group-collective-uniform-arithmetic-functions]]):
// bitwise and, or, xor on uint and long, logical and, or, xor (non-zero is true, so the kernel stores whether the
// result is non-zero), and mul on uint and ulong (wrapping modulo 2^32 and 2^64, so any order gives the same result),
// as reductions and inclusive and exclusive scans in linear local id order. The exclusive identities: ~0 for and,
// 0 for or and xor, true for logical and, false for logical or and xor, 1 for mul.
kernel void wg_uniform_arith(global const uint* in, global uint* out, global long* outl, global int* outp) {
  const size_t g = get_global_id(0);
  const uint x = in[g];
  out[8 * g + 0] = work_group_reduce_and(x | 0x00ff0000u);
  out[8 * g + 1] = work_group_reduce_or(x & 0xf0f0f0f0u);
  out[8 * g + 2] = work_group_reduce_xor(x);
  out[8 * g + 3] = work_group_scan_inclusive_and(x | 0x0f0f0f0fu);
  out[8 * g + 4] = work_group_scan_exclusive_or(x & 0x11111111u);
  out[8 * g + 5] = work_group_scan_exclusive_xor(x);
  out[8 * g + 6] = work_group_reduce_mul(x | 1u);
  out[8 * g + 7] = work_group_scan_exclusive_mul(x | 1u);
  const long l = (long)((ulong)x << 31 | (ulong)(x & 7));
  outl[4 * g + 0] = work_group_reduce_and(~l);
  outl[4 * g + 1] = work_group_scan_exclusive_and(-l);
  outl[4 * g + 2] = work_group_scan_inclusive_or(l);
  outl[4 * g + 3] = (long)work_group_scan_inclusive_mul((ulong)l * 3ul + 1ul);
  const int p = (int)(x % 5u);  // 0 (false) or 1..4 (true)
  outp[6 * g + 0] = work_group_reduce_logical_and(p) != 0;
  outp[6 * g + 1] = work_group_reduce_logical_or(p == 4) != 0;
  outp[6 * g + 2] = work_group_reduce_logical_xor(p) != 0;
  outp[6 * g + 3] = work_group_scan_inclusive_logical_and(p) != 0;
  outp[6 * g + 4] = work_group_scan_exclusive_logical_or(p == 4) != 0;
  outp[6 * g + 5] = work_group_scan_exclusive_logical_xor(p) != 0;
}
