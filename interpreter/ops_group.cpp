// SPIR-V 1.0 §3.32.21 [external] Group Instructions that OpenCL C 1.2 reaches: the asynchronous copies
// between global and local memory (OpenCL C 3.0 §6.15.11 [[async-copies]] async_work_group_copy,
// async_work_group_strided_copy, wait_group_events). Work-group collective reductions, scans
// and broadcasts (OpGroupIAdd, …) come with the Groups capability.
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

// OpGroupAsyncCopy runs once per work-group when all work-items have reached it (Collective).
// clref completes the copy at once, which the spec allows ("the copy may be performed at any
// time before wait_group_events returns"). Operands: a = destination, b = source,
// c = element count, r = result event, imm = stride register, n = element bytes,
// align = stride bytes (4 or 8) | count bytes << 8, aux → Collective.
template <class P> bool asyncCopy(WorkItem& wi, const Op* op) {
  const uint32_t countBytes = op->align >> 8, strideBytes = op->align & 0xff;
  const uint64_t count = countBytes == 8 ? rd<uint64_t>(wi, op->c) : rd<uint32_t>(wi, op->c);
  const uint64_t stride = strideBytes == 8 ? rd<uint64_t>(wi, uint32_t(op->imm)) : rd<uint32_t>(wi, uint32_t(op->imm));
  const uint64_t dst = rd<P>(wi, op->a), src = rd<P>(wi, op->b);
  const uint64_t elem = op->n;
  // The stride applies to the global side: the source when copying into local memory, the
  // destination when copying out of it (SPIR-V 1.0 OpGroupAsyncCopy "Stride").
  const bool intoLocal =
      (dst >> wi.tagShift) < wi.allocCount && wi.allocs[dst >> wi.tagShift].storage == spv::StorageClass::Workgroup;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t s = src + (intoLocal ? i * stride : i) * elem;
    const uint64_t d = dst + (intoLocal ? i : i * stride) * elem;
    const uint8_t* from = access(wi, op, P(s), elem, 1, false);
    if (!from) return false;
    uint8_t* to = access(wi, op, P(d), elem, 1, true);
    if (!to) return false;
    std::memmove(to, from, elem);
  }
  std::memset(wi.regs + op->r, 0, sizeof(P));  // the event: copies are complete, any value will do
  return true;
}

bool noAction(WorkItem&, const Op*) { return true; }

void lowerGroupAsyncCopy(Lowerer& L, const Instruction& inst) {
  // Operands: Execution, Destination, Source, Num Elements, Stride, Event.
  if (L.constantInt(inst.operand(0)) != uint32_t(spv::Scope::Workgroup))
    L.reject(inst, "OpGroupAsyncCopy with an execution scope other than Workgroup");
  Collective& c = L.k.collectives.emplace_back();
  c.action = L.ptrBytes() == 8 ? &asyncCopy<uint64_t> : &asyncCopy<uint32_t>;
  Op& op = emitWaitForGroup(L, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(1));
  op.b = L.reg(inst.operand(2));
  op.c = L.reg(inst.operand(3));
  op.imm = L.reg(inst.operand(4));
  const Type& dt = L.typeOfValue(inst.operand(1));
  op.n = uint32_t(L.type(dt.element).size);
  op.align = uint32_t(L.typeOfValue(inst.operand(4)).size) | uint32_t(L.typeOfValue(inst.operand(3)).size) << 8;
  for (uint32_t id : {inst.operand(1), inst.operand(2), inst.operand(3), inst.operand(4)})
    c.uniformOperands.emplace_back(L.reg(id), uint32_t(L.typeOfValue(id).size));
  op.aux = &c;
}

void lowerGroupWaitEvents(Lowerer& L, const Instruction& inst) {
  // wait_group_events is a work-group function too; the copies are already complete, so it
  // only synchronises (and catches work-items that skip it).
  if (L.constantInt(inst.operand(0)) != uint32_t(spv::Scope::Workgroup))
    L.reject(inst, "OpGroupWaitEvents with an execution scope other than Workgroup");
  Collective& c = L.k.collectives.emplace_back();
  c.action = &noAction;
  c.uniformOperands.emplace_back(L.reg(inst.operand(1)), uint32_t(L.typeOfValue(inst.operand(1)).size));
  Op& op = emitWaitForGroup(L, inst);
  op.aux = &c;
}

}  // namespace

void registerGroup(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpGroupAsyncCopy, lowerGroupAsyncCopy);
  t.lower(Op::OpGroupWaitEvents, lowerGroupWaitEvents);
}

}  // namespace clref::interpreter
