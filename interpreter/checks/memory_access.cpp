// The memory access checks: the out-of-bounds checker that is always on (a memory access the fast path refused is
// classified as a null pointer, a pointer into no allocation, out of bounds, misaligned, or a write to read-only
// memory), and in a checked launch the observers of every access (check_run.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "interpreter/checks/check_run.hpp"
#include "interpreter/device_enqueue.hpp"
#include "interpreter/executor.hpp"
#include "interpreter/svm.hpp"

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

std::string hexAddress(uint64_t v) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(v));
  return hex;
}

// A kernel's write into SVM allocated CL_MEM_READ_ONLY, `what` the access and the allocation: undefined
// (OpenCL 3.0 API §5.6.1 [[svm-flags-table]] CL_MEM_READ_ONLY), so the choice svm_read_only_write decides between a
// fault and the write with a warning. Returns false after faulting.
bool readOnlyWrite(WorkItem& wi, const Op* op, const std::string& what) {
  const std::string text = "write to read-only memory: " + what + ", allocated CL_MEM_READ_ONLY): undefined";
  noteChoice(wi, op, numerics::Choice::SvmReadOnlyWrite, "a write to SVM allocated CL_MEM_READ_ONLY");
  if (choicesOf(wi).get<numerics::Choice::SvmReadOnlyWrite>() == numerics::SvmReadOnlyWriteOption::Fault) {
    fault(wi, op, FaultKind::InvalidPointer, text + " (choice svm_read_only_write=fault)");
    return false;
  }
  warnOnce(wi, op, text + ", written (choice svm_read_only_write=write)");
  return true;
}

// The end of a misaligned access's fault message: when only an Aligned memory operand's claim makes `ptr`
// misaligned, it says so and names the choice (aligned_operand_overclaim=fault got here).
std::string misalignedWhy(const Op* op, uint64_t ptr) {
  if (!op->typeAlign || (ptr & (op->typeAlign - 1))) return "";
  return " by its Aligned memory operand, " + std::to_string(op->typeAlign) +
         " without it (choice aligned_operand_overclaim=fault)";
}

// A shader's access outside a buffer bound to a descriptor (or its push constants), `what` the access: undefined
// without robustBufferAccess (Vulkan §9 [external] Shader Out-of-Bounds Memory Access), so the choice
// shader_out_of_bounds decides between a fault naming the binding and Robust Buffer Access's semantics with the zero
// value: the access reads zeros and writes nothing. Returns the memory the access uses, or nullptr after faulting.
uint8_t* shaderOutOfBounds(WorkItem& wi, const Op* op, const KernelParam& p, uint64_t bytes, const std::string& what) {
  static constexpr const char* kKind[] = {"", "buffer", "uniform", "push_constant"};
  const std::string resource = p.resource == ShaderResource::PushConstant
                                   ? std::string("the push constants ('") + p.name + "')"
                                   : "set " + std::to_string(p.descriptorSet) + " binding " +
                                         std::to_string(p.binding) + " (" + kKind[size_t(p.resource)] + " '" + p.name +
                                         "')";
  const std::string text = what + " of " + resource;
  // Recorded before the fault too, so that clref explore offers the other option.
  noteChoice(wi, op, numerics::Choice::ShaderOutOfBounds, "a shader's out-of-bounds buffer access");
  if (choicesOf(wi).get<numerics::Choice::ShaderOutOfBounds>() == numerics::ShaderOutOfBoundsOption::Fault) {
    fault(wi, op, FaultKind::OutOfBounds, text + " (choice shader_out_of_bounds=fault)");
    return nullptr;
  }
  warnOnce(wi, op, text + ": reads zeros, writes nothing (choice shader_out_of_bounds=robust)");
  // Zeros the access reads, and a sink for what it writes; two in turn, so that a copy between two out-of-bounds
  // places gets distinct ones.
  thread_local std::vector<uint8_t> scratch[2];
  thread_local unsigned next = 0;
  std::vector<uint8_t>& s = scratch[next++ & 1];
  s.assign(std::max<uint64_t>(bytes, 16), 0);
  return s.data();
}

// An access through a pointer into the SVM range (svm.hpp): checked against the SVM allocation it points into, with
// the faults a buffer's access has. The checkers do not watch SVM memory (a checked launch's observers see buffers,
// local and private memory).
uint8_t* svmAccess(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align, bool write) {
  // The descriptions are made only for a fault: every SVM access comes here.
  auto access = [&] {
    return std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " bytes at SVM address " +
           hexAddress(ptr);
  };
  const auto r = svm::regionAtOrBelow(ptr);
  if (!r) {
    fault(wi, op, FaultKind::InvalidPointer, access() + ", which is in no SVM allocation");
    return nullptr;
  }
  auto what = [&] {
    return "the SVM allocation at " + hexAddress(r->base) + " (" + std::to_string(r->size) + " bytes)";
  };
  if (r->freed) {
    fault(wi, op, FaultKind::InvalidPointer, access() + ", in " + what() + ", which was freed (clSVMFree)");
    return nullptr;
  }
  const uint64_t off = ptr - r->base;
  if (off > r->size || bytes > r->size - off) {
    fault(wi, op, FaultKind::OutOfBounds,
          "out-of-bounds " + access() + ": offset " + std::to_string(off) + " of " + what());
    return nullptr;
  }
  if (ptr & (align - 1)) {
    fault(wi, op, FaultKind::Misaligned,
          "misaligned " + access() + " (offset " + std::to_string(off) + " of " + what() + "): alignment " +
              std::to_string(align) + " required" + misalignedWhy(op, ptr));
    return nullptr;
  }
  if (write && r->kernelReadOnly &&
      !readOnlyWrite(wi, op, access() + " (offset " + std::to_string(off) + " of " + what()))
    return nullptr;
  return reinterpret_cast<uint8_t*>(ptr);
}

// What accessSlow does for an access other than a checked launch's allowed one: the choice for an Aligned operand's
// overclaim, the SVM range, and the faults. Apart, so that accessSlow's own frame stays small: a checked launch
// calls it for every access.
[[gnu::noinline]] uint8_t* accessOther(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align,
                                       bool write) {
  // An address with its type's alignment but not the larger one an Aligned memory operand claims: SPIR-V says
  // nothing of a false claim (choice aligned_operand_overclaim). The low bits of a tagged pointer are its offset's.
  if (op->typeAlign && (ptr & (align - 1)) && !(ptr & (op->typeAlign - 1))) [[unlikely]] {
    noteChoice(wi, op, numerics::Choice::AlignedOperandOverclaim, "an Aligned memory operand claiming too much");
    if (choicesOf(wi).get<numerics::Choice::AlignedOperandOverclaim>() ==
        numerics::AlignedOperandOverclaimOption::TypeAlignment) {
      warnOnce(wi, op,
               std::string(write ? "store" : "load") + " through an address aligned to " +
                   std::to_string(op->typeAlign) + ", not to the " + std::to_string(align) +
                   " its Aligned memory operand claims: performed (choice aligned_operand_overclaim=type_alignment)");
      return access(wi, op, ptr, bytes, op->typeAlign, write);
    }
  }
  const uint64_t tag = ptr >> wi.tagShift;
  const uint64_t off = ptr & wi.offsetMask;
  if (tag == svm::kTag && tag < wi.allocCount && wi.allocs[tag].base)
    return svmAccess(wi, op, ptr, bytes, align, write);
  const char* verb = write ? "write" : "read";
  const std::string hex = hexAddress(ptr);
  if (tag == 0) {
    fault(wi, op, FaultKind::NullPointer,
          std::string(verb) + " of " + std::to_string(bytes) + " bytes through " +
              (off == 0 ? "a NULL pointer" : "a pointer derived from NULL (offset " + std::to_string(off) + ")"));
    return nullptr;
  }
  const Launch& L = *wi.launch;
  const bool inherited = tag >= L.inheritedBase && tag - L.inheritedBase < L.inheritedCount;
  if (tag >= wi.allocCount || (tag >= L.kernel->allocations.size() && !inherited)) {
    fault(wi, op, FaultKind::InvalidPointer,
          std::string(verb) + " of " + std::to_string(bytes) + " bytes through pointer " + hex +
              ", which points into no allocation (a corrupted pointer or pointer arithmetic far out of range)");
    return nullptr;
  }
  const Allocation& A = wi.allocs[tag];
  // A child kernel's inherited allocation (device_enqueue.hpp) is named after the parent's.
  const std::string name =
      inherited ? L.inherited[tag - L.inheritedBase].name : "'" + L.kernel->allocations[tag].name + "'";
  const std::string what = name + " (" + storageName(A.storage) + ", " + std::to_string(A.size) + " bytes)";
  if (off + bytes > A.size && L.kernel->shader && !inherited &&
      L.kernel->allocations[tag].source == AllocationSource::KernelArg) {
    const KernelParam& p = L.kernel->params.at(L.kernel->allocations[tag].argIndex);
    return shaderOutOfBounds(wi, op, p, bytes,
                             "out-of-bounds " + std::string(verb) + " of " + std::to_string(bytes) +
                                 " bytes at offset " + std::to_string(off) + " (" + std::to_string(A.size) +
                                 " bytes bound)");
  }
  if (off + bytes > A.size) {
    fault(wi, op, FaultKind::OutOfBounds,
          "out-of-bounds " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(off) + " of " + what);
    return nullptr;
  }
  if (off & (align - 1)) {
    fault(wi, op, FaultKind::Misaligned,
          "misaligned " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(off) + " of " + what + ": alignment " + std::to_string(align) + " required" +
              misalignedWhy(op, ptr));
    return nullptr;
  }
  fault(wi, op, FaultKind::InvalidPointer, "write to read-only memory " + what + " at offset " + std::to_string(off));
  return nullptr;
}

}  // namespace

uint8_t* accessSlow(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align, bool write) {
  const uint64_t tag = ptr >> wi.tagShift;
  const uint64_t off = ptr & wi.offsetMask;
  if (wi.checks && tag != 0 && tag != svm::kTag && tag < wi.allocCount) [[likely]] {
    // A checked launch's every access comes here (check_run.hpp): the fast path's test, then the observers. An
    // access that passes it is aligned to `align`, so an Aligned operand's overclaim does not concern it.
    const Allocation& A = wi.allocs[tag];
    if (off + bytes <= A.size && (off & (align - 1)) == 0 && !(write && A.readOnly)) {
      wi.checks->access(wi, op, uint32_t(tag), off, bytes, write);
      return A.base + off;
    }
  }
  return accessOther(wi, op, ptr, bytes, align, write);
}

}  // namespace clref::interpreter
