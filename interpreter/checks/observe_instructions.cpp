// The Ops that tell a launch's ExecutionObserver (observer.hpp) about every instruction: one before it, one after a
// value-producing one. Emitted only with LowerOptions::observeInstructions.
#include "interpreter/observer.hpp"
#include "interpreter/lower.hpp"

namespace clref::interpreter {
namespace {

const Op* observeInstruction(WorkItem& wi, const Op* op) {
  if (wi.observer) wi.observer->instruction(wi, op->inst);
  return wi.state == WorkItemState::Faulted ? nullptr : op + 1;
}
const Op* observeResult(WorkItem& wi, const Op* op) {
  if (wi.observer) wi.observer->result(wi, op->inst, wi.regs + op->a, op->n);
  return op + 1;
}

}  // namespace

bool isObservedInstruction(const Module& m, const Instruction& inst) {
  switch (inst.opcode) {
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
    case spv::Op::OpLabel:
    case spv::Op::OpVariable:
    case spv::Op::OpPhi:
    case spv::Op::OpUndef:
    case spv::Op::OpFunction:
    case spv::Op::OpFunctionParameter:
    case spv::Op::OpFunctionEnd: return false;
    default: return !m.isDebugInfo(inst);
  }
}

void emitObserveBefore(Lowerer& L, const Instruction& inst) {
  if (isObservedInstruction(L.m, inst)) L.emit(&observeInstruction, inst);
}

void emitObserveAfter(Lowerer& L, const Instruction& inst) {
  if (!inst.resultId || !L.hasReg(inst.resultId) || inst.opcode == spv::Op::OpVariable) return;
  const uint64_t size = L.typeOfValue(inst.resultId).size;
  if (size == 0 || L.type(inst.resultType).kind == TypeKind::Void) return;
  Op& op = L.emit(&observeResult, inst);
  op.a = L.reg(inst.resultId);
  op.n = uint32_t(size);
}

}  // namespace clref::interpreter
