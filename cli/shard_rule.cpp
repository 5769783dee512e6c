// Whether one launch can be split over ranks by work-groups, and each rank's share (cli/shard.hpp).
#include <algorithm>

#include "cli/shard.hpp"
#include "interpreter/module.hpp"

namespace clref::cli {
namespace {

bool isAtomic(spv::Op op) {
  switch (op) {
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor:
    case spv::Op::OpAtomicFlagTestAndSet:
    case spv::Op::OpAtomicFlagClear:
    case spv::Op::OpAtomicFMinEXT:
    case spv::Op::OpAtomicFMaxEXT:
    case spv::Op::OpAtomicFAddEXT: return true;
    default: return false;
  }
}

// The storage class of pointer `id`, or nullopt where the module does not say (then: possibly global).
std::optional<spv::StorageClass> storageOf(const interpreter::Module& m, uint32_t id) {
  const interpreter::Instruction* def = m.findDef(id);
  if (!def || !def->resultType) return std::nullopt;
  const auto t = m.types.find(def->resultType);
  if (t == m.types.end() || t->second.kind != interpreter::TypeKind::Pointer) return std::nullopt;
  return t->second.storage;
}

// The first thing in the module that lets work-groups of one launch see each other's writes (shard.hpp), "" if none.
std::string crossGroupUse(const interpreter::Module& m) {
  for (const auto& [id, t] : m.types)
    if (t.kind == interpreter::TypeKind::Pipe || t.kind == interpreter::TypeKind::ReserveId)
      return "the module uses pipes (their packets pass between work-groups)";
  for (uint32_t v : m.globalVariables)
    if (storageOf(m, v) == spv::StorageClass::CrossWorkgroup)
      return "the module has a program-scope variable in global memory (" + m.nameOf(v) +
             "), which every work-group sees";
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    const interpreter::Instruction& inst = m.instructions[i];
    if (inst.opcode == spv::Op::OpImageTexelPointer)
      return "image atomics (" + m.describe(uint32_t(i)) + ") pass values between work-groups";
    if (isAtomic(inst.opcode)) {
      const auto storage = storageOf(m, inst.operand(0));
      if (storage != spv::StorageClass::Workgroup && storage != spv::StorageClass::Function)
        return "atomics on global memory (" + m.describe(uint32_t(i)) + ") pass values between work-groups";
    }
    if (inst.opcode == spv::Op::OpExtInst) {
      const auto set = m.extInstImports.find(inst.extInstSet);
      if (set == m.extInstImports.end()) continue;
      // OpenCL.std printf is instruction 184 (OpenCL Extended Instruction Set §2.9 [external] printf).
      if ((set->second == "OpenCL.std" && inst.operand(1) == 184) ||
          set->second.rfind("NonSemantic.DebugPrintf", 0) == 0)
        return "the kernel calls printf, whose output is ordered over all work-groups";
    }
  }
  return "";
}

}  // namespace

uint64_t workGroupCount(const host::Kernel& kernel, const host::NDRange& range) {
  const auto local = kernel.localSizeFor(range);
  uint64_t total = 1;
  for (unsigned d = 0; d < range.dims; ++d) total *= (range.global[d] + local[d] - 1) / std::max<size_t>(local[d], 1);
  return total;
}

std::vector<uint64_t> groupShare(uint64_t total, int rank, int ranks) {
  // Computed in 128 bits: total · rank overflows 64 bits for launches of more than 2^64 / ranks groups.
  const auto bound = [&](int r) { return uint64_t((unsigned __int128)total * unsigned(r) / unsigned(ranks)); };
  std::vector<uint64_t> ids;
  for (uint64_t g = bound(rank); g < bound(rank + 1); ++g) ids.push_back(g);
  return ids;
}

std::string splitRefusal(const PreparedCase& p, int ranks) {
  if (p.kernel->enqueuesKernels())
    return "the kernel enqueues kernels on the device (its children's work-groups see the parent's writes)";
  if (auto why = crossGroupUse(p.program->module()); !why.empty()) return why;
  const uint64_t groups = workGroupCount(*p.kernel, p.range);
  if (groups < uint64_t(ranks))
    return "the launch has " + std::to_string(groups) + " work-group" + (groups == 1 ? "" : "s") + ", fewer than the " +
           std::to_string(ranks) + " ranks";
  return "";
}

}  // namespace clref::cli
