// Built-ins of newer OpenCL C extensions that clang-15 does not declare, or that llvm-spirv-15 leaves as calls to
// undefined functions, written in terms of the SPIR-V instructions they stand for. golden/build.sh includes this file
// (-include) when it compiles a kernel with a "// spirv:" line; an OpenCL C compiler that supports the extensions
// (clref's, clBuildProgram) has its own definitions, so the kernels never include it themselves.
// Each __spirv_ name below is translated by llvm-spirv-15 into the instruction of that name when its SPIR-V extension
// is allowed (the kernel's "// spirv:" line names it).

#if __OPENCL_C_VERSION__ >= 200 && !defined(cl_khr_work_group_uniform_arithmetic)
// cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 §6.15.17 [[work-group-collective-uniform-arithmetic-functions]]):
// SPV_KHR_uniform_group_instructions' OpGroupIMulKHR, OpGroupBitwise*KHR and OpGroupLogical*KHR at Workgroup scope
// (2), GroupOperation Reduce (0), InclusiveScan (1) and ExclusiveScan (2).
#define GOLDEN_WG(R, T, INSTR, NAME, OP, ARG)                   \
  T __attribute__((overloadable)) __spirv_##INSTR(int, int, T); \
  static inline R __attribute__((overloadable, always_inline)) NAME(R x) { return (R)__spirv_##INSTR(2, OP, ARG); }
#define GOLDEN_WG3(R, T, INSTR, NAME, ARG)                         \
  GOLDEN_WG(R, T, INSTR, work_group_reduce_##NAME, 0, ARG)         \
  GOLDEN_WG(R, T, INSTR, work_group_scan_inclusive_##NAME, 1, ARG) \
  GOLDEN_WG(R, T, INSTR, work_group_scan_exclusive_##NAME, 2, ARG)
#define GOLDEN_WG_INT(T)                       \
  GOLDEN_WG3(T, T, GroupIMulKHR, mul, x)       \
  GOLDEN_WG3(T, T, GroupBitwiseAndKHR, and, x) \
  GOLDEN_WG3(T, T, GroupBitwiseOrKHR, or, x)   \
  GOLDEN_WG3(T, T, GroupBitwiseXorKHR, xor, x)
GOLDEN_WG_INT(int)
GOLDEN_WG_INT(uint)
GOLDEN_WG_INT(long)
GOLDEN_WG_INT(ulong)
// The logical functions take and return int; the instructions take and give a Boolean.
GOLDEN_WG3(int, bool, GroupLogicalAndKHR, logical_and, x != 0)
GOLDEN_WG3(int, bool, GroupLogicalOrKHR, logical_or, x != 0)
GOLDEN_WG3(int, bool, GroupLogicalXorKHR, logical_xor, x != 0)
#undef GOLDEN_WG_INT
#undef GOLDEN_WG3
#undef GOLDEN_WG
#endif

#if defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
// cl_khr_integer_dot_product's packed forms (OpenCL C 3.0 §6.15.3 [[integer-functions]]): SPV_KHR_integer_dot_product's
// OpUDot, OpSDot, OpSUDot and their AccSat forms on 32-bit operands with PackedVectorFormat4x8Bit (0). OpSUDot takes
// the signed operand first, so the us forms swap theirs (a dot product commutes).
uint __attribute__((overloadable)) __spirv_UDotKHR(uint, uint, int);
int __attribute__((overloadable)) __spirv_SDotKHR(uint, uint, int);
int __attribute__((overloadable)) __spirv_SUDotKHR(uint, uint, int);
uint __attribute__((overloadable)) __spirv_UDotAccSatKHR(uint, uint, uint, int);
int __attribute__((overloadable)) __spirv_SDotAccSatKHR(uint, uint, int, int);
int __attribute__((overloadable)) __spirv_SUDotAccSatKHR(uint, uint, int, int);
static inline uint __attribute__((overloadable, always_inline)) dot_4x8packed_uu_uint(uint a, uint b) {
  return __spirv_UDotKHR(a, b, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_4x8packed_ss_int(uint a, uint b) {
  return __spirv_SDotKHR(a, b, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_4x8packed_su_int(uint a, uint b) {
  return __spirv_SUDotKHR(a, b, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_4x8packed_us_int(uint a, uint b) {
  return __spirv_SUDotKHR(b, a, 0);
}
static inline uint __attribute__((overloadable, always_inline))
dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc) {
  return __spirv_UDotAccSatKHR(a, b, acc, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc) {
  return __spirv_SDotAccSatKHR(a, b, acc, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc) {
  return __spirv_SUDotAccSatKHR(a, b, acc, 0);
}
static inline int __attribute__((overloadable, always_inline)) dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc) {
  return __spirv_SUDotAccSatKHR(b, a, acc, 0);
}
#endif

#if !defined(cl_khr_extended_async_copies)
// cl_khr_extended_async_copies (OpenCL C 3.0 §6.15.11.1 [[extended-async-copies]]), which has no SPIR-V instruction of
// its own: one async_work_group_copy of bytes (OpGroupAsyncCopy) per line, all on one event. The first, empty copy
// gives the event to return when the caller passes none and there is no line.
#define GOLDEN_COPY(DAS, SAS)                                                                                         \
  static inline event_t __attribute__((overloadable, always_inline)) async_work_group_copy_3D3D(                      \
      DAS void* dst, size_t dst_offset, const SAS void* src, size_t src_offset, size_t num_bytes_per_element,         \
      size_t num_elements_per_line, size_t num_lines, size_t num_planes, size_t src_total_line_length,                \
      size_t src_total_plane_area, size_t dst_total_line_length, size_t dst_total_plane_area, event_t event) {        \
    DAS uchar* d = (DAS uchar*)dst + dst_offset * num_bytes_per_element;                                              \
    const SAS uchar* s = (const SAS uchar*)src + src_offset * num_bytes_per_element;                                  \
    event = async_work_group_copy(d, s, 0, event);                                                                    \
    for (size_t plane = 0; plane < num_planes; ++plane)                                                               \
      for (size_t line = 0; line < num_lines; ++line)                                                                 \
        event = async_work_group_copy(                                                                                \
            d + (plane * dst_total_plane_area + line * dst_total_line_length) * num_bytes_per_element,                \
            s + (plane * src_total_plane_area + line * src_total_line_length) * num_bytes_per_element,                \
            num_elements_per_line * num_bytes_per_element, event);                                                    \
    return event;                                                                                                     \
  }                                                                                                                   \
  static inline event_t __attribute__((overloadable, always_inline))                                                  \
  async_work_group_copy_2D2D(DAS void* dst, size_t dst_offset, const SAS void* src, size_t src_offset,                \
                             size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,            \
                             size_t src_total_line_length, size_t dst_total_line_length, event_t event) {             \
    return async_work_group_copy_3D3D(dst, dst_offset, src, src_offset, num_bytes_per_element, num_elements_per_line, \
                                      num_lines, 1, src_total_line_length, 0, dst_total_line_length, 0, event);       \
  }
GOLDEN_COPY(__local, __global)
GOLDEN_COPY(__global, __local)
#undef GOLDEN_COPY
#endif
