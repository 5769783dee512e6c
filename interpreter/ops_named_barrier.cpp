// Named barriers: cl_khr_subgroup_named_barrier, with SPIR-V 1.1 [external] OpNamedBarrierInitialize and
// OpMemoryNamedBarrier (OpenCL Extension Specification 3.0.12 §33 "Named Barriers for Subgroups"). A barrier that
// waits for a given number of a work-group's sub-groups, not the whole work-group. A work-item's n-th
// OpNamedBarrierInitialize names the work-group's n-th named barrier (every work-item initialises the barriers it
// uses, as OpenCL C++'s work-group-scope named_barrier objects are constructed by all of them); the value is a handle,
// kNamedBarrierHandleTag | n. A sub-group waits at OpMemoryNamedBarrier until the barrier's Subgroup Count sub-groups
// wait at it (scheduler.cpp).
//
// Ops: r = result, a = the Subgroup Count (initialise) or the named barrier (wait).
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {

namespace {

const Op* namedBarrierInitialize(WorkItem& wi, const Op* op) {
  const uint32_t count = rd<uint32_t>(wi, op->a);
  auto& table = *wi.namedBarriers;
  const uint32_t n = wi.namedBarrierInits++;
  if (n >= kMaxNamedBarriers)
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "more than " + std::to_string(kMaxNamedBarriers) +
                     " named barriers in one work-group (CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR)");
  const uint64_t items = wi.localSize[0] * wi.localSize[1] * wi.localSize[2];
  const uint64_t sg = wi.launch->subgroupSize;
  const uint64_t subgroups = (items + sg - 1) / sg;
  if (count == 0 || count > subgroups)
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "named barrier " + std::to_string(n) + " initialised with Subgroup Count " + std::to_string(count) +
                     ", but the work-group has " + std::to_string(subgroups) +
                     " sub-groups: a wait at it could never be released");
  if (n == table.size()) {
    table.push_back({count, {}});
  } else if (table[n].subgroupCount != count) {
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "named barrier " + std::to_string(n) + " initialised with Subgroup Count " + std::to_string(count) +
                     " here and " + std::to_string(table[n].subgroupCount) + " by another work-item of the work-group");
  }
  const uint64_t handle = kNamedBarrierHandleTag | n;
  std::memcpy(wi.regs + op->r, &handle, ptrBytes(wi));
  return op + 1;
}

void lowerInitialize(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&namedBarrierInitialize, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
}

// OpMemoryNamedBarrier: a sub-group collective the scheduler releases by the barrier's count
// (Collective::namedBarrier); its Memory and Semantics need nothing more here, since every write is visible to later
// reads.
void lowerWait(Lowerer& L, const Instruction& inst) {
  Collective& c = L.k.collectives.emplace_back();
  c.subgroup = true;
  c.namedBarrier = true;
  L.k.usesSubgroupCollectives = true;
  Op& op = emitWaitForGroup(L, inst);
  op.aux = &c;
  op.a = L.reg(inst.operand(0));
  c.uniformOperands.emplace_back(op.a, L.ptrBytes());
}

}  // namespace

void registerNamedBarrier(DispatchTable& t) {
  t.declaration({spv::Op::OpTypeNamedBarrier}, "types");
  t.lower(spv::Op::OpNamedBarrierInitialize, lowerInitialize);
  t.lower(spv::Op::OpMemoryNamedBarrier, lowerWait);
}

}  // namespace clref::interpreter
