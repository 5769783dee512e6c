// The memory flags and host-access rules that buffers and images share (OpenCL 3.0 API §5.2.1
// [[_creating_buffer_objects]] table "Memory Flags", §5.2.4 [[_mapping_buffer_objects]] map flags).
#pragma once
#include "api/opencl/objects.hpp"

namespace clref::cl {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kAllFlags = kAccessFlags | kHostAccessFlags | kHostPtrFlags | CL_MEM_KERNEL_READ_AND_WRITE;

// Which combinations are mutually exclusive (all the table's flags, as clGetSupportedImageFormats takes them).
inline bool validQueryFlags(cl_mem_flags f) {
  const auto bits = [](cl_mem_flags v) { return __builtin_popcountll(v); };
  if (f & ~kAllFlags) return false;
  if (bits(f & kAccessFlags) > 1) return false;
  if (bits(f & kHostAccessFlags) > 1) return false;
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return false;
  return true;
}

// Flags for creating a memory object: CL_MEM_KERNEL_READ_AND_WRITE "is only used by clGetSupportedImageFormats", so it
// is not a valid flag for creating one (CL_INVALID_VALUE; clarified by OpenCL-Docs PR #1605).
inline bool validFlags(cl_mem_flags f) { return !(f & CL_MEM_KERNEL_READ_AND_WRITE) && validQueryFlags(f); }

inline bool hostCannotRead(cl_mem m) { return m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS); }
inline bool hostCannotWrite(cl_mem m) { return m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS); }

// map_flags: CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, the last mutually exclusive with the other two.
inline bool validMapFlags(cl_map_flags f) {
  if (f & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return false;
  return !((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)));
}

}  // namespace clref::cl
