// The memory access checks: the out-of-bounds checker that is always on (a memory access the fast path refused is
// classified as a null pointer, a pointer into no allocation, out of bounds, misaligned, or a write to read-only
// memory), and in a checked launch the observers of every access (check_run.hpp).
#include <cstdio>
#include <string>

#include "interpreter/checks/check_run.hpp"
#include "interpreter/executor.hpp"

namespace clref::interpreter {

namespace {

std::string storageName(spv::StorageClass sc) {
  switch (sc) {
    case spv::StorageClass::CrossWorkgroup: return "global";
    case spv::StorageClass::UniformConstant: return "constant";
    case spv::StorageClass::Workgroup: return "local";
    case spv::StorageClass::Function:
    case spv::StorageClass::Private: return "private";
    case spv::StorageClass::Input: return "builtin";
    default: return "storage class " + std::to_string(uint32_t(sc));
  }
}

}  // namespace

uint8_t* accessSlow(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align, bool write) {
  const uint64_t tag = ptr >> wi.tagShift;
  const uint64_t off = ptr & wi.offsetMask;
  if (wi.checks && tag != 0 && tag < wi.allocCount) {
    // The fast path's test, then the observers.
    const Allocation& A = wi.allocs[tag];
    if (off + bytes <= A.size && (off & (align - 1)) == 0 && !(write && A.readOnly)) {
      wi.checks->access(wi, op, uint32_t(tag), off, bytes, write);
      return A.base + off;
    }
  }
  const char* verb = write ? "write" : "read";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(ptr));
  if (tag == 0) {
    fault(wi, op, FaultKind::NullPointer,
          std::string(verb) + " of " + std::to_string(bytes) + " bytes through " +
              (off == 0 ? "a NULL pointer" : "a pointer derived from NULL (offset " + std::to_string(off) + ")"));
    return nullptr;
  }
  if (tag >= wi.allocCount) {
    fault(wi, op, FaultKind::InvalidPointer,
          std::string(verb) + " of " + std::to_string(bytes) + " bytes through pointer " + hex +
              ", which points into no allocation (a corrupted pointer or pointer arithmetic far out of range)");
    return nullptr;
  }
  const Allocation& A = wi.allocs[tag];
  const auto& desc = wi.launch->kernel->allocations[tag];
  const std::string what = "'" + desc.name + "' (" + storageName(A.storage) + ", " + std::to_string(A.size) + " bytes)";
  if (off + bytes > A.size) {
    fault(wi, op, FaultKind::OutOfBounds,
          "out-of-bounds " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(off) + " of " + what);
    return nullptr;
  }
  if (off & (align - 1)) {
    fault(wi, op, FaultKind::Misaligned,
          "misaligned " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(off) + " of " + what + ": alignment " + std::to_string(align) + " required");
    return nullptr;
  }
  fault(wi, op, FaultKind::InvalidPointer, "write to read-only memory " + what + " at offset " + std::to_string(off));
  return nullptr;
}

}  // namespace clref::interpreter
