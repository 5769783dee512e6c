// Definitions of OpenCL C built-ins that clang-15 lacks or llvm-spirv-15 cannot translate (opencl_c_prelude.hpp).
#include "compiler/opencl_c_prelude.hpp"

namespace clref::compiler {
namespace {

// cl_khr_work_group_uniform_arithmetic's built-ins (OpenCL C 3.0 §6.15.17
// [[work-group-collective-uniform-arithmetic-functions]]), which clang-15's opencl-c.h does not declare: each calls the
// SPIR-V instruction of SPV_KHR_uniform_group_instructions through llvm-spirv-15's __spirv_ names (execution scope
// Workgroup 2; GroupOperation Reduce 0, InclusiveScan 1, ExclusiveScan 2). OpenCL C 2.0 or newer, like the other
// work-group functions.
std::string uniformArithmeticPrelude(bool fp64, bool fp16) {
  std::string p =
      "#if __OPENCL_C_VERSION__ >= 200\n"
      "#define cl_khr_work_group_uniform_arithmetic 1\n"
      "#define CLREF_WG_OP(R, T, F, NAME, OP, ARG) \\\n"
      "  T __attribute__((overloadable)) __spirv_##F(int, int, T); \\\n"
      "  CLREF_STATIC inline R __attribute__((overloadable, always_inline)) NAME(R x) { return (R)__spirv_##F(2, OP, "
      "ARG); "
      "}\n"
      "#define CLREF_WG_ALL(R, T, F, NAME, ARG) \\\n"
      "  CLREF_WG_OP(R, T, F, work_group_reduce_##NAME, 0, ARG) \\\n"
      "  CLREF_WG_OP(R, T, F, work_group_scan_inclusive_##NAME, 1, ARG) \\\n"
      "  CLREF_WG_OP(R, T, F, work_group_scan_exclusive_##NAME, 2, ARG)\n"
      "#define CLREF_WG_INT(T) CLREF_WG_ALL(T, T, GroupIMulKHR, mul, x) CLREF_WG_ALL(T, T, GroupBitwiseAndKHR, and, x) "
      "\\\n"
      "  CLREF_WG_ALL(T, T, GroupBitwiseOrKHR, or, x) CLREF_WG_ALL(T, T, GroupBitwiseXorKHR, xor, x)\n"
      "CLREF_WG_INT(int) CLREF_WG_INT(uint) CLREF_WG_INT(long) CLREF_WG_INT(ulong)\n"
      "CLREF_WG_ALL(float, float, GroupFMulKHR, mul, x)\n";
  if (fp64) p += "CLREF_WG_ALL(double, double, GroupFMulKHR, mul, x)\n";
  if (fp16)
    p += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
         "CLREF_WG_ALL(half, half, GroupFMulKHR, mul, x)\n"
         "#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n";
  // The logical functions take and return int; the instructions take and give a Boolean.
  p += "CLREF_WG_ALL(int, bool, GroupLogicalAndKHR, logical_and, x != 0)\n"
       "CLREF_WG_ALL(int, bool, GroupLogicalOrKHR, logical_or, x != 0)\n"
       "CLREF_WG_ALL(int, bool, GroupLogicalXorKHR, logical_xor, x != 0)\n"
       "#undef CLREF_WG_INT\n#undef CLREF_WG_ALL\n#undef CLREF_WG_OP\n"
       "#endif\n";
  return p;
}

// cl_khr_integer_dot_product's packed built-ins (OpenCL C 3.0 §6.15.3 [[integer-functions]] dot_4x8packed_*,
// dot_acc_sat_4x8packed_*): llvm-spirv-15 translates dot() and dot_acc_sat() on char4/uchar4 to OpSDot and the rest,
// but leaves the packed forms as calls to undefined functions. "Returns dot for 4x8 bit input vectors packed into a
// 32-bit word": component 0 in the least significant byte, which is what as_uchar4/as_char4 give on a little-endian
// device.
std::string dotProductPrelude() {
  return "#if defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
         "#define CLREF_DOT(R, NAME, A, B) CLREF_STATIC inline R __attribute__((overloadable, always_inline)) "
         "dot_4x8packed_##NAME(uint a, uint b) { return dot(A(a), B(b)); }\n"
         "#define CLREF_DOT_ACC(R, NAME, A, B) CLREF_STATIC inline R __attribute__((overloadable, always_inline)) "
         "dot_acc_sat_4x8packed_##NAME(uint a, uint b, R acc) { return dot_acc_sat(A(a), B(b), acc); }\n"
         "CLREF_DOT(uint, uu_uint, as_uchar4, as_uchar4) CLREF_DOT(int, ss_int, as_char4, as_char4)\n"
         "CLREF_DOT(int, us_int, as_uchar4, as_char4) CLREF_DOT(int, su_int, as_char4, as_uchar4)\n"
         "CLREF_DOT_ACC(uint, uu_uint, as_uchar4, as_uchar4) CLREF_DOT_ACC(int, ss_int, as_char4, as_char4)\n"
         "CLREF_DOT_ACC(int, us_int, as_uchar4, as_char4) CLREF_DOT_ACC(int, su_int, as_char4, as_uchar4)\n"
         "#undef CLREF_DOT\n#undef CLREF_DOT_ACC\n"
         "#endif\n";
}

// cl_ext_float_atomics' atomic_fetch_add/sub on atomic_half: llvm-spirv-15 stops with an assertion on OpAtomicFAddEXT
// of a half ("AtomicFAddEXT can only be generated for f32 or f64 types"). Each is a compare-exchange loop on the
// half's 16 bits (OpAtomicCompareExchange of a ushort) around the kernel's own half addition, which is
// OpAtomicFAddEXT's meaning (the sum rounded to nearest even). Every order and scope is served by the sequentially
// consistent, device-scope one (stronger than any other). The built-in names become macros that pick these for an
// atomic_half pointer (_Generic, on the pointer's type unevaluated) and the built-in for anything else: clang-15
// declares its built-ins only for names the program does not declare itself, so overloading them would hide the others.
std::string halfAtomicAddPrelude() {
  std::string p =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "#define CLREF_HALF_ADD(AS) \\\n"
      "  ushort __attribute__((overloadable)) __spirv_AtomicLoad(volatile AS ushort*, int, int); \\\n"
      "  ushort __attribute__((overloadable)) __spirv_AtomicCompareExchange(volatile AS ushort*, int, int, int, "
      "ushort, "
      "ushort); \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_add(volatile AS atomic_half* object, "
      "half "
      "v) "
      "{ \\\n"
      "    volatile AS ushort* bits = (volatile AS ushort*)object; \\\n"
      "    ushort old = __spirv_AtomicLoad(bits, 1, 0x10); \\\n"
      "    for (;;) { \\\n"
      "      const ushort seen = __spirv_AtomicCompareExchange(bits, 1, 0x10, 0x10, as_ushort((half)(as_half(old) + "
      "v)), "
      "old); \\\n"
      "      if (seen == old) return as_half(old); \\\n"
      "      old = seen; \\\n"
      "    } \\\n"
      "  } \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_sub(volatile AS atomic_half* o, half "
      "v) "
      "{ return clref_atomic_half_add(o, -v); } \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_add_explicit(volatile AS "
      "atomic_half* o, "
      "half v, memory_order m) { return clref_atomic_half_add(o, v); } \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_sub_explicit(volatile AS "
      "atomic_half* o, "
      "half v, memory_order m) { return clref_atomic_half_add(o, -v); } \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_add_explicit(volatile AS "
      "atomic_half* o, "
      "half v, memory_order m, memory_scope s) { return clref_atomic_half_add(o, v); } \\\n"
      "  CLREF_STATIC inline half __attribute__((overloadable)) clref_atomic_half_sub_explicit(volatile AS "
      "atomic_half* o, "
      "half v, memory_order m, memory_scope s) { return clref_atomic_half_add(o, -v); }\n"
      "CLREF_HALF_ADD(__global)\n"
      "CLREF_HALF_ADD(__local)\n"
      "CLREF_HALF_ADD()\n"
      "#undef CLREF_HALF_ADD\n"
      "#define CLREF_HALF_PICK(o, f, builtin) _Generic((o), __global atomic_half*: f, volatile __global atomic_half*: "
      "f, "
      "__local atomic_half*: f, volatile __local atomic_half*: f, atomic_half*: f, volatile atomic_half*: f, "
      "default: builtin)\n"
      "#define atomic_fetch_add(o, v) CLREF_HALF_PICK(o, clref_atomic_half_add, atomic_fetch_add)(o, v)\n"
      "#define atomic_fetch_sub(o, v) CLREF_HALF_PICK(o, clref_atomic_half_sub, atomic_fetch_sub)(o, v)\n"
      "#define atomic_fetch_add_explicit(o, v, ...) "
      "CLREF_HALF_PICK(o, clref_atomic_half_add_explicit, atomic_fetch_add_explicit)(o, v, __VA_ARGS__)\n"
      "#define atomic_fetch_sub_explicit(o, v, ...) "
      "CLREF_HALF_PICK(o, clref_atomic_half_sub_explicit, atomic_fetch_sub_explicit)(o, v, __VA_ARGS__)\n"
      "#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n";
  return p;
}

// cl_khr_extended_async_copies (OpenCL Extension Specification 3.0.12 §34 "Extended Async Copies"):
// async_work_group_copy_2D2D and _3D3D, which clang-15 and llvm-spirv-15 do not know, as one async_work_group_copy of
// bytes per line (OpGroupAsyncCopy, a work-group collective like the built-ins they extend: every work-item meets the
// same copies with the same arguments), chained on one event. A first copy of no bytes gives the event when the caller
// passes none and there is no line to copy.
std::string extendedAsyncCopiesPrelude() {
  return "#define CLREF_COPY(DAS, SAS) \\\n"
         "  CLREF_STATIC inline event_t __attribute__((overloadable, always_inline)) async_work_group_copy_3D3D(DAS "
         "void* "
         "dst, "
         "size_t dst_offset, const SAS void* src, size_t src_offset, size_t num_bytes_per_element, "
         "size_t num_elements_per_line, size_t num_lines, size_t num_planes, size_t src_total_line_length, "
         "size_t src_total_plane_area, size_t dst_total_line_length, size_t dst_total_plane_area, event_t event) { "
         "\\\n"
         "    DAS uchar* d = (DAS uchar*)dst + dst_offset * num_bytes_per_element; \\\n"
         "    const SAS uchar* s = (const SAS uchar*)src + src_offset * num_bytes_per_element; \\\n"
         "    event = async_work_group_copy(d, s, 0, event); \\\n"
         "    for (size_t plane = 0; plane < num_planes; ++plane) \\\n"
         "      for (size_t line = 0; line < num_lines; ++line) \\\n"
         "        event = async_work_group_copy( \\\n"
         "            d + (plane * dst_total_plane_area + line * dst_total_line_length) * num_bytes_per_element, \\\n"
         "            s + (plane * src_total_plane_area + line * src_total_line_length) * num_bytes_per_element, \\\n"
         "            num_elements_per_line * num_bytes_per_element, event); \\\n"
         "    return event; \\\n"
         "  } \\\n"
         "  CLREF_STATIC inline event_t __attribute__((overloadable, always_inline)) async_work_group_copy_2D2D(DAS "
         "void* "
         "dst, "
         "size_t dst_offset, const SAS void* src, size_t src_offset, size_t num_bytes_per_element, "
         "size_t num_elements_per_line, size_t num_lines, size_t src_total_line_length, size_t dst_total_line_length, "
         "event_t event) { \\\n"
         "    return async_work_group_copy_3D3D(dst, dst_offset, src, src_offset, num_bytes_per_element, "
         "num_elements_per_line, num_lines, 1, src_total_line_length, 0, dst_total_line_length, 0, event); \\\n"
         "  }\n"
         "CLREF_COPY(__local, __global)\n"
         "CLREF_COPY(__global, __local)\n"
         "#undef CLREF_COPY\n";
}

}  // namespace

std::string openCLCPrelude(const std::set<std::string>& supported) {
  auto has = [&](const char* n) { return supported.count(n) != 0; };
  // OpenCL C 1.0 and 1.1 have no static functions (OpenCL C 3.0 §6.10 [[storage-class-specifiers]]: the storage class
  // needs OpenCL C 1.2): the definitions are inline there, and always inlined.
  std::string p =
      "#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 120\n"
      "#define CLREF_STATIC\n"
      "#else\n"
      "#define CLREF_STATIC static\n"
      "#endif\n";
  if (has("cl_khr_work_group_uniform_arithmetic"))
    p += uniformArithmeticPrelude(has("cl_khr_fp64"), has("cl_khr_fp16"));
  if (has("cl_khr_integer_dot_product")) p += dotProductPrelude();
  // clang-15 does not know cl_khr_extended_async_copies either: its macro comes with its built-ins.
  if (has("cl_khr_extended_async_copies"))
    p += "#define cl_khr_extended_async_copies 1\n" + extendedAsyncCopiesPrelude();
  // OpenCL C 3.0 §6.2.1 [[features]]: an extension's macro is defined when the device supports it; clang-15 does not
  // know cl_khr_expect_assume (its __builtin_expect and __builtin_assume are always there), so -cl-ext cannot define it.
  if (has("cl_khr_expect_assume")) p += "#define cl_khr_expect_assume 1\n";
  // Nor cl_khr_subgroup_named_barrier, whose built-ins are OpenCL C++'s (SPIR-V OpNamedBarrierInitialize and
  // OpMemoryNamedBarrier, which clref executes).
  if (has("cl_khr_subgroup_named_barrier")) p += "#define cl_khr_subgroup_named_barrier 1\n";
  // The device has the half atomic add in global and local memory together (host/device_features.cpp openCLCFeatures).
  if (has("__opencl_c_ext_fp16_global_atomic_add"))
    p += "#if __OPENCL_C_VERSION__ >= 200\n" + halfAtomicAddPrelude() + "#endif\n";
  return p;
}

}  // namespace clref::compiler
