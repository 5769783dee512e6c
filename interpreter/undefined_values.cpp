// Tracking of undefined values (OpUndef) to the branches and addresses that depend on them.
//
// SPIR-V 1.0 §3.32.1 [external] OpUndef is an arbitrary value; a kernel whose control flow or memory
// address depends on one is broken even if clref's chosen bits happen to work. Values that may
// derive from an OpUndef (statically, through any instruction or OpPhi) get a one-byte shadow
// register saying whether this execution's value is undefined; branches, switches and memory
// accesses that consume such a value check the shadow first. Kernels without OpUndef — nearly
// all — get no shadow code at all. Values that go through memory or function calls are not
// followed (a memory-level uninitialised-read checker is a separate observer).
#include <vector>

#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

// shadow[r] = OR of the operands' shadows (table in aux: register offsets, count in n).
const Op* shadowOr(WorkItem& wi, const Op* op) {
  const auto* regs = static_cast<const uint32_t*>(op->aux);
  uint8_t s = 0;
  for (uint32_t i = 0; i < op->n; ++i) s |= wi.regs[regs[i]];
  wi.regs[op->r] = s;
  return op + 1;
}
// OpSelect: the condition's shadow, or that of the operand actually chosen.
const Op* shadowSelect(WorkItem& wi, const Op* op) {
  const bool cond = rd<uint8_t>(wi, uint32_t(op->imm));
  wi.regs[op->r] = uint8_t(wi.regs[op->a] | (cond ? wi.regs[op->b] : wi.regs[op->c]));
  return op + 1;
}
const Op* checkDefined(WorkItem& wi, const Op* op) {
  if (wi.regs[op->a]) [[unlikely]]
    return fault(wi, op, FaultKind::UndefinedValue,
                 std::string(op->n ? "memory address" : "branch condition") +
                     " depends on an undefined value (OpUndef, e.g. an uninitialised variable)");
  return op + 1;
}

bool isPointerConsumer(spv::Op op) {
  return op == spv::Op::OpLoad || op == spv::Op::OpStore || op == spv::Op::OpCopyMemory ||
         op == spv::Op::OpCopyMemorySized;
}

// The ids whose undefinedness the result of `inst` inherits: its operands, except for a vector built by a chain of
// single-index OpCompositeInsert instructions that writes every component (clang's `(int2)(x, y)` at -O2 starts
// from an OpUndef vector): that vector is as defined as the objects inserted last into each component, whatever
// the chain started from.
std::vector<uint32_t> shadowSources(const Lowerer& L, const Instruction& inst) {
  std::vector<uint32_t> ids;
  if (inst.opcode == spv::Op::OpCompositeInsert && inst.operandCount() == 3 &&
      L.type(inst.resultType).kind == TypeKind::Vector) {
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
    ids.clear();
  }
  for (size_t w = inst.firstOperand; w < inst.words.size(); ++w) ids.push_back(inst.words[w]);
  return ids;
}

}  // namespace

void planUndefTracking(Lowerer& L, const std::vector<uint32_t>& functions) {
  const Module& m = L.m;
  std::unordered_map<uint32_t, bool> tainted;
  for (const auto& inst : m.instructions)
    if (inst.opcode == spv::Op::OpUndef) tainted[inst.resultId] = true;
  if (tainted.empty()) return;

  // Fixed point over the reachable code (OpPhi makes it cyclic).
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t fid : functions)
      for (const Block& b : m.functions.at(fid).blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m.instructions[idx];
          if (!inst.resultId || tainted.count(inst.resultId)) continue;
          if (inst.opcode == spv::Op::OpLoad || inst.opcode == spv::Op::OpFunctionCall ||
              inst.opcode == spv::Op::OpVariable)
            continue;
          for (uint32_t id : shadowSources(L, inst))
            if (tainted.count(id) && L.hasReg(id)) {
              tainted[inst.resultId] = true;
              changed = true;
              break;
            }
        }
  }
  // The instructions other than OpCompositeInsert (a chain that writes every component hides what it started from)
  // that consume a value deriving from an OpUndef, for the run's record of choices.
  for (uint32_t fid : functions)
    for (const Block& b : m.functions.at(fid).blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m.instructions[idx];
        if (inst.opcode == spv::Op::OpCompositeInsert || inst.opcode == spv::Op::OpUndef) continue;
        for (uint32_t id : shadowSources(L, inst))
          if (tainted.count(id) && L.hasReg(id)) {
            L.k.undefConsumers.push_back(idx);
            break;
          }
      }
  for (const auto& [id, t] : tainted) {
    if (!L.hasReg(id)) continue;
    const uint32_t s = L.scratch(1);
    L.shadow_[id] = s;
    L.k.registerTemplate[s] = m.def(id).opcode == spv::Op::OpUndef ? 1 : 0;
  }
}

void emitUndefCheck(Lowerer& L, const Instruction& inst) {
  if (L.shadow_.empty()) return;
  uint32_t operand = 0;
  bool address = false;
  if (inst.opcode == spv::Op::OpBranchConditional || inst.opcode == spv::Op::OpSwitch) {
    operand = inst.operand(0);
  } else if (isPointerConsumer(inst.opcode)) {
    operand = inst.operand(0);
    address = true;
    // The source pointer of a copy matters too.
    if ((inst.opcode == spv::Op::OpCopyMemory || inst.opcode == spv::Op::OpCopyMemorySized) &&
        L.shadow_.count(inst.operand(1))) {
      Op& op = L.emit(&checkDefined, inst);
      op.a = L.shadow_.at(inst.operand(1));
      op.n = 1;
    }
  } else {
    return;
  }
  auto it = L.shadow_.find(operand);
  if (it == L.shadow_.end()) return;
  Op& op = L.emit(&checkDefined, inst);
  op.a = it->second;
  op.n = address ? 1 : 0;
}

void emitShadowUpdate(Lowerer& L, const Instruction& inst) {
  if (L.shadow_.empty() || !inst.resultId || inst.opcode == spv::Op::OpPhi || inst.opcode == spv::Op::OpUndef) return;
  auto self = L.shadow_.find(inst.resultId);
  if (self == L.shadow_.end()) return;
  if (inst.opcode == spv::Op::OpSelect) {
    Op& op = L.emit(&shadowSelect, inst);
    op.r = self->second;
    op.imm = L.reg(inst.operand(0));
    auto shadowOf = [&](uint32_t id) {
      auto it = L.shadow_.find(id);
      return it == L.shadow_.end() ? L.zeroShadow() : it->second;
    };
    op.a = shadowOf(inst.operand(0));
    op.b = shadowOf(inst.operand(1));
    op.c = shadowOf(inst.operand(2));
    return;
  }
  auto& table = L.k.tables.emplace_back();
  for (uint32_t id : shadowSources(L, inst))
    if (auto it = L.shadow_.find(id); it != L.shadow_.end()) table.push_back(it->second);
  Op& op = L.emit(&shadowOr, inst);
  op.r = self->second;
  op.aux = table.data();
  op.n = uint32_t(table.size());
}

}  // namespace clref::interpreter
