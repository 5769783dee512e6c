// Tracking of undefined values to the uses that make them matter: the lowering side (the Ops that run are in
// uninitialized.cpp).
//
// SPIR-V 1.0 §3.32.1 [external] OpUndef is an arbitrary value, and so is memory read before anything was written
// to it (OpenCL C 3.0 §6.7 [[address-space-qualifiers]]: private and local variables have no initial value; a
// buffer created without host data has no defined contents, OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]).
// A kernel whose control flow, memory addresses or output depend on such a value is broken even if clref's chosen
// bits happen to work.
//
// Every value that may be undefined gets a shadow register with one byte per byte of the value: 0 where this
// execution's value is defined, else a number naming where the undefinedness came from
// (LoweredKernel::undefinedOrigins). The Ops emitted after each instruction compute its result's shadow from its
// operands' (lane by lane, byte moves for composites, memory for loads); the Ops emitted before a use check it.
//
// Two scopes:
//  - always on, for kernels with OpUndef: the values that may derive from an OpUndef (found statically), checked at
//    branches and memory addresses, where an undefined value is a fault. Values that go through memory or function
//    calls are not followed.
//  - the uninitialised-value checker (LowerOptions::checks with Check::Uninitialized): every value, through memory
//    and calls too; the uses are branches, addresses, and values stored to global memory, written to an image or
//    printed; each is a finding (CheckRun::report), and the kernel goes on.
#include <unordered_set>
#include <vector>

#include "interpreter/checks/uninitialized.hpp"
#include "interpreter/ops_common.hpp"
#include "numerics/opencl_std.hpp"

namespace clref::interpreter {
namespace {

bool fullTracking(const Lowerer& L) { return L.opt.checks.has(Check::Uninitialized); }

bool isPointerConsumer(spv::Op op) {
  return op == spv::Op::OpLoad || op == spv::Op::OpStore || op == spv::Op::OpCopyMemory ||
         op == spv::Op::OpCopyMemorySized || isAtomicOpcode(op);
}

// OpenCL.std extended instructions (OpenCL Extended Instruction Set §2.5 [external], the misc vector instructions;
// §2.7 [external], vector data load and store) that matter to the tracking.
using Std = numerics::OpenClStd;  // generated from the SPIR-V grammar
bool isOpenCLStd(const Lowerer& L, const Instruction& inst) {
  return inst.opcode == spv::Op::OpExtInst && !L.m.isDebugInfo(inst);
}
Std extNumber(const Instruction& inst) { return Std(inst.operand(1)); }
bool isExtLoad(Std n) {
  return n == Std::vloadn || n == Std::vload_half || n == Std::vload_halfn || n == Std::vloada_halfn;
}
bool isExtStore(Std n) {
  return n == Std::vstoren || n == Std::vstore_half || n == Std::vstore_half_r || n == Std::vstore_halfn ||
         n == Std::vstore_halfn_r || n == Std::vstorea_halfn || n == Std::vstorea_halfn_r;
}

// The operands of `inst` that are values (not literals, not the extended set, not types).
std::vector<uint32_t> valueOperands(const Lowerer& L, const Instruction& inst) {
  std::vector<uint32_t> ids;
  size_t first = 0;
  switch (inst.opcode) {
    case spv::Op::OpExtInst: first = 2; break;
    case spv::Op::OpCompositeExtract: return {inst.operand(0)};
    case spv::Op::OpCompositeInsert: return {inst.operand(0), inst.operand(1)};
    case spv::Op::OpVectorShuffle: return {inst.operand(0), inst.operand(1)};
    case spv::Op::OpLoad: return {inst.operand(0)};
    case spv::Op::OpStore: return {inst.operand(0), inst.operand(1)};
    default: break;
  }
  for (size_t k = first; k < inst.operandCount(); ++k) {
    const Instruction* d = L.m.findDef(inst.operand(k));
    if (d && d->resultType && L.hasReg(inst.operand(k))) ids.push_back(inst.operand(k));
  }
  return ids;
}

// The ids whose undefinedness the result of `inst` inherits, for the static analysis of the always-on scope: its
// operands, except for a vector built by a chain of single-index OpCompositeInsert instructions that writes every
// component (clang's `(int2)(x, y)` at -O2 starts from an OpUndef vector).
std::vector<uint32_t> staticSources(const Lowerer& L, const Instruction& inst) {
  if (inst.opcode == spv::Op::OpCompositeInsert && inst.operandCount() == 3 &&
      L.type(inst.resultType).kind == TypeKind::Vector) {
    std::vector<uint32_t> ids;
    const uint32_t lanes = L.type(inst.resultType).count;
    std::vector<bool> covered(lanes, false);
    uint32_t left = lanes;
    for (const Instruction* cur = &inst; cur && left;) {
      if (cur->opcode != spv::Op::OpCompositeInsert || cur->operandCount() != 3 || cur->operand(2) >= lanes) break;
      if (!covered[cur->operand(2)]) {
        covered[cur->operand(2)] = true;
        --left;
        ids.push_back(cur->operand(0));
      }
      cur = L.m.findDef(cur->operand(1));
    }
    if (left == 0) return ids;
  }
  return valueOperands(L, inst);
}

// A new origin (LoweredKernel::undefinedOrigins) described by `what`; the last number stands for every origin past
// the 254th.
uint8_t newOrigin(Lowerer& L, const std::string& what) {
  auto& o = L.k.undefinedOrigins;
  if (o.empty()) o.push_back("");  // 0: defined
  if (o.size() < 255) {
    o.push_back(what);
    return uint8_t(o.size() - 1);
  }
  o.back() = "one of several undefined values and uninitialised memory";
  return 254;
}

void presetShadow(Lowerer& L, uint32_t id, uint8_t origin) {
  const uint32_t s = L.shadow_.at(id);
  const uint64_t size = L.typeOfValue(id).size;
  std::memset(L.k.registerTemplate.data() + s, origin, size);
}

std::string undefName(const Lowerer& L, uint32_t id) {
  std::string variable = L.m.debugVariableName(id);
  // An unassigned variable's OpUndef usually reaches the variable through the OpPhi or OpSelect that merges paths.
  for (size_t i = 0; i < L.m.instructions.size() && variable.empty(); ++i) {
    const Instruction& merge = L.m.instructions[i];
    if (merge.opcode != spv::Op::OpPhi && merge.opcode != spv::Op::OpSelect) continue;
    for (size_t k = 0; k < merge.operandCount(); ++k)
      if (merge.operand(k) == id) {
        variable = L.m.debugVariableName(merge.resultId);
        break;
      }
  }
  if (!variable.empty())
    return "variable '" + variable + "', never assigned on this path (OpUndef %" + std::to_string(id) + ")";
  return "an undefined value (OpUndef %" + std::to_string(id) +
         ", e.g. a variable not assigned on every path; build with -g for its name)";
}

// Lane-wise: the result is a vector of `lanes` lanes and lane i depends on lane i of each vector operand (and on
// the scalar operands): the arithmetic, bitwise, conversion and relational instructions and the lane-wise OpenCL.std
// functions, but not those that mix lanes.
bool laneWise(const Lowerer& L, const Instruction& inst, const std::vector<uint32_t>& operands) {
  const Type& rt = L.type(inst.resultType);
  if (rt.kind != TypeKind::Vector) return false;
  switch (inst.opcode) {
    case spv::Op::OpVectorShuffle:
    case spv::Op::OpCompositeConstruct:
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpVectorExtractDynamic:
    case spv::Op::OpVectorInsertDynamic:
    case spv::Op::OpBitcast:
    case spv::Op::OpDot:
    case spv::Op::OpLoad:
    case spv::Op::OpFunctionCall: return false;
    default: break;
  }
  if (isOpenCLStd(L, inst)) {
    const Std n = extNumber(inst);
    if (n == Std::cross || n == Std::normalize || n == Std::fast_normalize || n == Std::shuffle || n == Std::shuffle2 ||
        isExtLoad(n))
      return false;
  }
  if (inst.opcode >= spv::Op::OpGroupAsyncCopy && inst.opcode <= spv::Op::OpGroupSMax) return false;
  for (uint32_t id : operands) {
    const Type& t = L.typeOfValue(id);
    if (t.kind == TypeKind::Vector ? t.count != rt.count
                                   : t.kind != TypeKind::Int && t.kind != TypeKind::Float && t.kind != TypeKind::Bool)
      return false;
  }
  return true;
}

// The result shadow of a byte-moving instruction as (destination offset, source shadow register, bytes) moves, or
// false when the instruction is not one.
bool byteMoves(Lowerer& L, const Instruction& inst, std::vector<uint32_t>& moves) {
  const Type& rt = L.type(inst.resultType);
  auto add = [&](uint64_t dst, uint32_t srcId, uint64_t srcOff, uint64_t bytes) {
    const uint32_t src = L.shadowOrZero(srcId, uint32_t(L.typeOfValue(srcId).size));
    moves.insert(moves.end(), {uint32_t(dst), uint32_t(src + srcOff), uint32_t(bytes)});
  };
  switch (inst.opcode) {
    case spv::Op::OpCopyObject: add(0, inst.operand(0), 0, rt.size); return true;
    case spv::Op::OpCopyLogical: {
      std::vector<uint32_t> leaves;
      logicalCopies(L, inst.resultType, L.typeIdOfValue(inst.operand(0)), 0, 0, leaves);
      for (size_t i = 0; i + 2 < leaves.size(); i += 3) add(leaves[i], inst.operand(0), leaves[i + 1], leaves[i + 2]);
      return true;
    }
    case spv::Op::OpBitcast:
      if (L.typeOfValue(inst.operand(0)).size != rt.size) return false;
      add(0, inst.operand(0), 0, rt.size);
      return true;
    case spv::Op::OpCompositeExtract: {
      uint32_t mt = 0;
      const uint64_t off = memberOffset(L, L.typeIdOfValue(inst.operand(0)), inst, 1, mt);
      add(0, inst.operand(0), off, rt.size);
      return true;
    }
    case spv::Op::OpCompositeInsert: {
      uint32_t mt = 0;
      const uint64_t off = memberOffset(L, inst.resultType, inst, 2, mt);
      add(0, inst.operand(1), 0, rt.size);
      add(off, inst.operand(0), 0, L.type(mt).size);
      return true;
    }
    case spv::Op::OpCompositeConstruct: {
      uint64_t off = 0;
      for (size_t k = 0; k < inst.operandCount(); ++k) {
        const uint32_t id = inst.operand(k);
        const Type& ct = L.typeOfValue(id);
        uint64_t dst = off, bytes = ct.size;
        if (rt.kind == TypeKind::Struct) dst = rt.memberOffsets.at(k);
        if (rt.kind == TypeKind::Array) dst = k * rt.stride;
        if (rt.kind == TypeKind::Vector && ct.kind == TypeKind::Vector)
          bytes = uint64_t(ct.count) * L.type(ct.element).size;
        add(dst, id, 0, bytes);
        off = dst + bytes;
      }
      return true;
    }
    case spv::Op::OpVectorShuffle: {
      const Type& v1 = L.typeOfValue(inst.operand(0));
      const uint32_t elem = uint32_t(L.type(v1.element).size);
      for (size_t k = 2; k < inst.operandCount(); ++k) {
        const uint32_t c = inst.operand(k);
        // An undefined component (0xFFFFFFFF) is how clang widens a 3-component vector to its 4-component storage:
        // padding nobody reads as a value, so it counts as defined.
        if (c == 0xFFFFFFFF) continue;
        if (c < v1.count)
          add((k - 2) * elem, inst.operand(0), uint64_t(c) * elem, elem);
        else
          add((k - 2) * elem, inst.operand(1), uint64_t(c - v1.count) * elem, elem);
      }
      return true;
    }
    default: return false;
  }
}

// A shadow Op of `inst` that moves the shadow of the bytes it wrote: CheckRun need not mark them defined.
void markShadowsMemory(Lowerer& L, const Instruction& inst) {
  if (L.k.shadowsMemory.empty()) L.k.shadowsMemory.assign(L.m.instructions.size(), 0);
  L.k.shadowsMemory[L.index(inst)] = 1;
}

// The shadow Op of an instruction that reads memory into its result, or writes a value to memory (uninitialized.cpp
// moves the bytes' shadows between the memory and the registers). True when `inst` is one. A load whose result is
// always defined (a built-in variable's) needs none; a store of a value that is always defined moves a zero shadow:
// the bytes it writes become defined in the same Op, on lanes (lanes.hpp) as one by one.
bool emitMemoryShadow(Lowerer& L, const Instruction& inst) {
  const bool ext = isOpenCLStd(L, inst);
  const Std n = ext ? extNumber(inst) : Std(0);
  auto size = [&](uint32_t id) { return uint32_t(L.typeOfValue(id).size); };
  if (inst.opcode == spv::Op::OpLoad || (ext && isExtLoad(n))) {
    if (!L.shadow_.count(inst.resultId)) return true;
    Op& op = L.emit(uninitialized::loadShadow(), inst);
    op.r = L.shadow_.at(inst.resultId);
    op.n = size(inst.resultId);
    return true;
  }
  if (inst.opcode == spv::Op::OpStore || (ext && isExtStore(n))) {
    const uint32_t data = inst.opcode == spv::Op::OpStore ? inst.operand(1) : inst.operand(2);
    markShadowsMemory(L, inst);
    Op& op = L.emit(uninitialized::storeShadow(), inst);
    op.b = L.shadowOrZero(data, size(data));
    op.n = size(data);
    return true;
  }
  if (isAtomicOpcode(inst.opcode)) {
    // The value operands: OpAtomicStore's Value (operand 3); an RMW's Value (operand 3); a compare-exchange's Value
    // and Comparator (operands 4, 5); none for load, increment, decrement, flag test-and-set and clear.
    std::vector<uint32_t> values;
    if (inst.opcode == spv::Op::OpAtomicCompareExchange || inst.opcode == spv::Op::OpAtomicCompareExchangeWeak)
      values = {inst.operand(4), inst.operand(5)};
    else if (inst.operandCount() >= 4)
      values = {inst.operand(3)};
    auto& table = L.k.tables.emplace_back();
    for (uint32_t id : values) table.insert(table.end(), {L.shadowOrZero(id, size(id)), size(id)});
    markShadowsMemory(L, inst);
    Op& op = L.emit(uninitialized::atomicShadow(), inst);
    op.r = inst.resultId && L.shadow_.count(inst.resultId) ? L.shadow_.at(inst.resultId) : 0;
    op.n = inst.resultId ? size(inst.resultId) : 0;
    op.a = inst.opcode == spv::Op::OpAtomicStore ? 1 : 0;  // replaces the bytes' shadow instead of joining it
    op.aux = &table;
    return true;
  }
  return false;
}

// A use that must see a defined value: `id`'s shadow checked before `inst` (uninitialized.cpp useHandler).
void emitUse(Lowerer& L, const Instruction& inst, uint32_t id, uninitialized::Use use) {
  auto it = L.shadow_.find(id);
  if (it == L.shadow_.end()) return;
  const bool warnOnly = L.m.isVulkanShader() && use == uninitialized::Use::Branch;
  Op& op = L.emit(uninitialized::useHandler(fullTracking(L), warnOnly), inst);
  op.a = it->second;
  op.b = uint32_t(L.typeOfValue(id).size);
  op.n = uint32_t(use);
}

}  // namespace

// The float atomics (SPV_EXT_shader_atomic_float_add, _float_min_max) are read-modify-writes as OpAtomicIAdd is: their
// Value is operand 3.
bool isAtomicOpcode(spv::Op op) {
  return (op >= spv::Op::OpAtomicLoad && op <= spv::Op::OpAtomicXor) || op == spv::Op::OpAtomicFlagTestAndSet ||
         op == spv::Op::OpAtomicFlagClear || op == spv::Op::OpAtomicFAddEXT || op == spv::Op::OpAtomicFMinEXT ||
         op == spv::Op::OpAtomicFMaxEXT;
}

namespace {

// The values that may be undefined: `seeds`, and every value computed from one (a fixed point over the reachable
// code; OpPhi makes it cyclic). A load, call, variable or atomic is not computed from its operands: it is a seed or
// defined.
std::unordered_set<uint32_t> mayBeUndefined(const Lowerer& L, const std::vector<uint32_t>& functions,
                                            std::unordered_set<uint32_t> seeds) {
  const Module& m = L.m;
  for (bool changed = !seeds.empty(); changed;) {
    changed = false;
    for (uint32_t fid : functions)
      for (const Block& b : m.functions.at(fid).blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m.instructions[idx];
          if (!inst.resultId || seeds.count(inst.resultId) || !L.hasReg(inst.resultId)) continue;
          if (inst.opcode == spv::Op::OpLoad || inst.opcode == spv::Op::OpFunctionCall ||
              inst.opcode == spv::Op::OpVariable || isAtomicOpcode(inst.opcode) ||
              (isOpenCLStd(L, inst) && isExtLoad(extNumber(inst))))
            continue;
          for (uint32_t id : staticSources(L, inst))
            if (seeds.count(id)) {
              seeds.insert(inst.resultId);
              changed = true;
              break;
            }
        }
  }
  return seeds;
}

// The seeds of the uninitialised-value checker: every value read from memory (but the built-in variables, which
// are always defined), returned by a call, or passed to a function other than the kernel's.
std::unordered_set<uint32_t> uninitialisedSeeds(const Lowerer& L, const std::vector<uint32_t>& functions,
                                                uint32_t body) {
  const Module& m = L.m;
  std::unordered_set<uint32_t> seeds;
  for (uint32_t fid : functions) {
    const Function& f = m.functions.at(fid);
    if (fid != functions.front() && fid != body)
      for (uint32_t p : f.parameters)
        if (L.hasReg(p)) seeds.insert(p);
    for (const Block& b : f.blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m.instructions[idx];
        if (!inst.resultId || !L.hasReg(inst.resultId) || L.type(inst.resultType).kind == TypeKind::Void) continue;
        const bool reads = inst.opcode == spv::Op::OpLoad || inst.opcode == spv::Op::OpFunctionCall ||
                           isAtomicOpcode(inst.opcode) || (isOpenCLStd(L, inst) && isExtLoad(extNumber(inst)));
        if (!reads) continue;
        if (inst.opcode == spv::Op::OpLoad) {
          const Type& pt = L.typeOfValue(inst.operand(0));
          if (pt.kind == TypeKind::Pointer && pt.storage == spv::StorageClass::Input) continue;
        }
        seeds.insert(inst.resultId);
      }
  }
  return seeds;
}

}  // namespace

// Drops from `tracked` the OpCompositeInsert results whose shadow nothing reads: the first links of a chain that
// writes every component of a vector built from an OpUndef (`(int2)(x, y)` in OpenCL C), when only the chain's later
// links use them. The chain's last link takes only the inserted values (staticSources), so the earlier links would
// carry a shadow no check ever reads, in every work-item. Only for the always-on OpUndef check: the uninitialised-
// value checker and the debugger keep every value's shadow.
static void pruneUnreadInserts(const Lowerer& L, const std::vector<uint32_t>& functions,
                               std::unordered_set<uint32_t>& tracked) {
  const Module& m = L.m;
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_set<uint32_t> read;  // every id a lowered instruction with a shadow or a check may read
    for (uint32_t fid : functions)
      for (const Block& b : m.functions.at(fid).blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m.instructions[idx];
          if (inst.opcode == spv::Op::OpCompositeInsert && !tracked.count(inst.resultId)) continue;
          for (size_t k = 0; k < inst.operandCount(); ++k) read.insert(inst.operand(k));
        }
    for (auto it = tracked.begin(); it != tracked.end();) {
      if (!read.count(*it) && m.def(*it).opcode == spv::Op::OpCompositeInsert) {
        it = tracked.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
  }
}

void planUndefTracking(Lowerer& L, const std::vector<uint32_t>& functions, uint32_t body) {
  const Module& m = L.m;
  // The values that may derive from an OpUndef, statically. Values that go through memory or calls are not
  // followed.
  std::unordered_set<uint32_t> undefs;
  for (const auto& inst : m.instructions)
    if (inst.opcode == spv::Op::OpUndef && L.hasReg(inst.resultId)) undefs.insert(inst.resultId);
  const std::unordered_set<uint32_t> derived = mayBeUndefined(L, functions, undefs);
  // The instructions other than OpCompositeInsert (a chain that writes every component hides what it started from)
  // that consume a value deriving from an OpUndef, for the run's record of choices.
  for (uint32_t fid : functions)
    for (const Block& b : m.functions.at(fid).blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m.instructions[idx];
        if (inst.opcode == spv::Op::OpCompositeInsert || inst.opcode == spv::Op::OpUndef || m.isDebugInfo(inst))
          continue;
        for (uint32_t id : staticSources(L, inst))
          if (derived.count(id)) {
            L.k.undefConsumers.push_back(idx);
            break;
          }
      }
  std::unordered_set<uint32_t> tracked = derived;
  if (fullTracking(L)) {
    // The values that may be undefined through memory and calls too. The others (the work-item ids and what is
    // computed from them and from the kernel's arguments: most of the index arithmetic) need no shadow and no
    // check, which keeps the checker's cost down.
    std::unordered_set<uint32_t> seeds = uninitialisedSeeds(L, functions, body);
    seeds.insert(undefs.begin(), undefs.end());
    tracked = mayBeUndefined(L, functions, std::move(seeds));
    // The origins of uninitialised memory: per allocation that starts without contents.
    L.k.allocationOrigin.assign(L.k.allocations.size(), 0);
    for (size_t t = 1; t < L.k.allocations.size(); ++t) {
      const AllocationDesc& d = L.k.allocations[t];
      const bool startsUndefined = (d.source == AllocationSource::Private && d.init.empty()) ||
                                   d.source == AllocationSource::Workgroup || d.source == AllocationSource::LocalArg ||
                                   d.source == AllocationSource::KernelArg;
      if (startsUndefined) L.k.allocationOrigin[t] = newOrigin(L, "uninitialised " + allocationName(L.k, uint32_t(t)));
    }
  }
  if (!fullTracking(L) && !L.opt.observeInstructions) pruneUnreadInserts(L, functions, tracked);
  if (tracked.empty()) return;
  for (uint32_t id : tracked) {
    const uint64_t size = std::max<uint64_t>(1, L.typeOfValue(id).size);
    L.shadow_[id] = L.scratch(size);
  }
  for (uint32_t id : tracked)
    if (m.def(id).opcode == spv::Op::OpUndef) presetShadow(L, id, newOrigin(L, undefName(L, id)));
}

void emitUndefCheck(Lowerer& L, const Instruction& inst) {
  if (L.shadow_.empty()) return;
  if (inst.opcode == spv::Op::OpBranchConditional || inst.opcode == spv::Op::OpSwitch) {
    emitUse(L, inst, inst.operand(0), uninitialized::Use::Branch);
  } else if (isPointerConsumer(inst.opcode)) {
    emitUse(L, inst, inst.operand(0), uninitialized::Use::Address);  // the pointer of every one of them
    // The source pointer of a copy matters too.
    if (inst.opcode == spv::Op::OpCopyMemory || inst.opcode == spv::Op::OpCopyMemorySized)
      emitUse(L, inst, inst.operand(1), uninitialized::Use::Address);
  } else if (!fullTracking(L)) {
    return;
  } else if (isOpenCLStd(L, inst)) {
    const Std n = extNumber(inst);
    // vloadn(offset, p), vstoren(data, offset, p) and the half forms: the offset and pointer are addresses.
    if (isExtLoad(n)) {
      emitUse(L, inst, inst.operand(2), uninitialized::Use::Address);
      emitUse(L, inst, inst.operand(3), uninitialized::Use::Address);
    } else if (isExtStore(n)) {
      emitUse(L, inst, inst.operand(3), uninitialized::Use::Address);
      emitUse(L, inst, inst.operand(4), uninitialized::Use::Address);
    } else if (n == Std::printf) {
      for (size_t k = 2; k < inst.operandCount(); ++k) emitUse(L, inst, inst.operand(k), uninitialized::Use::Printed);
    }
  } else if (inst.opcode == spv::Op::OpImageWrite) {
    emitUse(L, inst, inst.operand(1), uninitialized::Use::Address);  // the coordinate
    emitUse(L, inst, inst.operand(2), uninitialized::Use::ImageWrite);
  }
}

void emitShadowUpdate(Lowerer& L, const Instruction& inst) {
  if (L.shadow_.empty()) return;
  const bool full = fullTracking(L);
  if (full && emitMemoryShadow(L, inst)) return;
  if (!inst.resultId || inst.opcode == spv::Op::OpPhi || inst.opcode == spv::Op::OpUndef) return;
  auto self = L.shadow_.find(inst.resultId);
  if (self == L.shadow_.end()) return;
  const uint32_t size = uint32_t(L.type(inst.resultType).size);
  if (inst.opcode == spv::Op::OpFunctionCall) return;  // the callee's OpReturnValue moves the shadow (ops_control.cpp)
  if (inst.opcode == spv::Op::OpSelect) {
    const uint32_t cond = inst.operand(0);
    const Type& ct = L.typeOfValue(cond);
    Op& op = L.emit(uninitialized::selectShadow(), inst);
    op.r = self->second;
    op.imm = L.reg(cond);
    op.a = L.shadowOrZero(cond, uint32_t(ct.size));
    op.b = L.shadowOrZero(inst.operand(1), size);
    op.c = L.shadowOrZero(inst.operand(2), size);
    // A vector condition chooses lane by lane: lanes and the bytes of a condition lane and of a result lane.
    const uint32_t lanes = ct.kind == TypeKind::Vector ? ct.count : 1;
    op.n = size;
    op.align = lanes;
    op.aux = nullptr;
    if (lanes > 1) {
      auto& t = L.k.tables.emplace_back();
      t = {uint32_t(L.type(ct.element).size), uint32_t(L.type(L.type(inst.resultType).element).size)};
      op.aux = &t;
    }
    return;
  }
  std::vector<uint32_t> moves;
  if (byteMoves(L, inst, moves)) {
    auto& t = L.k.tables.emplace_back(std::move(moves));
    Op& op = L.emit(uninitialized::movesShadow(), inst);
    op.r = self->second;
    op.n = size;
    op.aux = &t;
    return;
  }
  const std::vector<uint32_t> operands = full ? valueOperands(L, inst) : staticSources(L, inst);
  auto& t = L.k.tables.emplace_back();
  if (laneWise(L, inst, operands)) {
    // Table: lanes, bytes of a result lane, then per operand (shadow register, bytes of a lane; 0 for a scalar that
    // every lane depends on, its whole size in the third word).
    const Type& rt = L.type(inst.resultType);
    t = {rt.count, uint32_t(L.type(rt.element).size)};
    for (uint32_t id : operands) {
      auto it = L.shadow_.find(id);
      if (it == L.shadow_.end()) continue;
      const Type& ot = L.typeOfValue(id);
      t.insert(t.end(),
               {it->second, ot.kind == TypeKind::Vector ? uint32_t(L.type(ot.element).size) : 0u, uint32_t(ot.size)});
    }
    Op& op = L.emit(uninitialized::lanesShadow(), inst);
    op.r = self->second;
    op.n = size;
    op.aux = &t;
    return;
  }
  for (uint32_t id : operands)
    if (auto it = L.shadow_.find(id); it != L.shadow_.end())
      t.insert(t.end(), {it->second, uint32_t(L.typeOfValue(id).size)});
  if (t.size() <= 4 && size <= 8 && (t.size() < 2 || t[1] <= 8) && (t.size() < 4 || t[3] <= 8)) {
    Op& op = L.emit(uninitialized::joinSmallShadow(), inst);
    op.r = self->second;
    op.n = size;
    op.a = t.size() >= 2 ? t[0] : L.zeroShadow(8);
    op.b = t.size() >= 4 ? t[2] : L.zeroShadow(8);
    op.c = (t.size() >= 2 ? t[1] : 0) | (t.size() >= 4 ? t[3] : 0) << 16;
    return;
  }
  Op& op = L.emit(uninitialized::joinShadow(), inst);
  op.r = self->second;
  op.n = size;
  op.aux = &t;
}

}  // namespace clref::interpreter
