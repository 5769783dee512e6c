// The memory flags and host-access rules that buffers and images share (OpenCL 3.0 API §5.2.1
// [[_creating_buffer_objects]] table "Memory Flags", §5.2.4 [[_mapping_buffer_objects]] map flags).
#pragma once
#include "icd/objects.hpp"

namespace clref::cl {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kAllFlags = kAccessFlags | kHostAccessFlags | kHostPtrFlags | CL_MEM_KERNEL_READ_AND_WRITE;

// Which combinations are mutually exclusive (all the table's flags, as clGetSupportedImageFormats takes them): the
// rule `f` breaks, for the channel "api", or nullptr when it breaks none.
inline const char* queryFlagsProblem(cl_mem_flags f) {
  const auto bits = [](cl_mem_flags v) { return __builtin_popcountll(v); };
  if (f & ~kAllFlags) return "it has bits that are no cl_mem_flags";
  if (bits(f & kAccessFlags) > 1)
    return "CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive";
  if (bits(f & kHostAccessFlags) > 1)
    return "CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are mutually exclusive";
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return "CL_MEM_USE_HOST_PTR is mutually exclusive with CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR";
  return nullptr;
}
inline bool validQueryFlags(cl_mem_flags f) { return !queryFlagsProblem(f); }

// Flags for creating a memory object: CL_MEM_KERNEL_READ_AND_WRITE "is only used by clGetSupportedImageFormats", so it
// is not a valid flag for creating one (CL_INVALID_VALUE; clarified by OpenCL-Docs PR #1605).
inline const char* flagsProblem(cl_mem_flags f) {
  if (f & CL_MEM_KERNEL_READ_AND_WRITE) return "CL_MEM_KERNEL_READ_AND_WRITE is only for clGetSupportedImageFormats";
  return queryFlagsProblem(f);
}
inline bool validFlags(cl_mem_flags f) { return !flagsProblem(f); }

inline bool hostCannotRead(cl_mem m) { return m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS); }
inline bool hostCannotWrite(cl_mem m) { return m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS); }
// The host access flag of m, for the channel "api" ("" when it has none).
inline const char* hostAccessName(cl_mem m) {
  if (m->flags & CL_MEM_HOST_WRITE_ONLY) return "CL_MEM_HOST_WRITE_ONLY";
  if (m->flags & CL_MEM_HOST_READ_ONLY) return "CL_MEM_HOST_READ_ONLY";
  if (m->flags & CL_MEM_HOST_NO_ACCESS) return "CL_MEM_HOST_NO_ACCESS";
  return "";
}

// The rule flags breaks for a memory object created from another (a sub-buffer, an image from a buffer or image) whose
// flags are `parent`, or nullptr: it may not widen the parent's device access (CL_MEM_WRITE_ONLY against
// CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, CL_MEM_READ_ONLY against CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY) nor its host
// access (the host access flags the same way). The entry points cite their rules (memory.cpp, image.cpp).
inline const char* inheritedFlagsProblem(cl_mem_flags parent, cl_mem_flags flags) {
  if ((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return "it asks for CL_MEM_READ_WRITE or CL_MEM_READ_ONLY of a CL_MEM_WRITE_ONLY object";
  if ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return "it asks for CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY of a CL_MEM_READ_ONLY object";
  if ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY))
    return "it asks for CL_MEM_HOST_READ_ONLY of a CL_MEM_HOST_WRITE_ONLY object";
  if ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY))
    return "it asks for CL_MEM_HOST_WRITE_ONLY of a CL_MEM_HOST_READ_ONLY object";
  if ((parent & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return "it asks for host access to a CL_MEM_HOST_NO_ACCESS object";
  return nullptr;
}

// map_flags: CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, the last mutually exclusive with the other two.
// The rule `f` breaks, for the channel "api", or nullptr.
inline const char* mapFlagsProblem(cl_map_flags f) {
  if (f & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    return "it has bits that are not CL_MAP_READ, CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION";
  if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)))
    return "CL_MAP_WRITE_INVALIDATE_REGION is mutually exclusive with CL_MAP_READ and CL_MAP_WRITE";
  return nullptr;
}
inline bool validMapFlags(cl_map_flags f) { return !mapFlagsProblem(f); }

// OpenCL 3.0 API §5.5.5 [[_migrating_memory_objects]] the memory migration flags: 0 or a combination of
// CL_MIGRATE_MEM_OBJECT_HOST and CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED (clEnqueueMigrateMemObjects,
// clEnqueueSVMMigrateMem).
inline bool validMigrationFlags(cl_mem_migration_flags f) {
  return !(f & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED));
}

// OpenCL 3.0 API §5.2.3 [[_filling_buffer_objects]] clEnqueueFillBuffer,
// §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMMemFill: pattern_size must be one of
// {1, 2, 4, 8, 16, 32, 64, 128}.
inline bool validPatternSize(size_t pattern_size) {
  return pattern_size != 0 && (pattern_size & (pattern_size - 1)) == 0 && pattern_size <= 128;
}

}  // namespace clref::cl
