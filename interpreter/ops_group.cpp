// SPIR-V 1.0 §3.32.21 [external] Group Instructions: the asynchronous copies between global and local memory
// (OpenCL C 3.0 §6.15.11 [[async-copies]] async_work_group_copy, async_work_group_strided_copy, wait_group_events)
// and, with the Groups capability, the work-group collective functions (OpenCL C 3.0 §6.15.16
// [[work-group-functions]]: work_group_all, _any, _broadcast, _reduce_<op>, _scan_inclusive_<op>,
// _scan_exclusive_<op> for add, min and max). Each is a Collective: every work-item stops at it like at a barrier,
// and when all have arrived it runs once for the group.
#include <optional>

#include "interpreter/dispatch.hpp"
#include "interpreter/group_arithmetic.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/exact_ops.hpp"
#include "numerics/summation.hpp"

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
    // The shadow mode: the copied values keep their allowed sets (and undetermined marks).
    if (wi.shadow) [[unlikely]]
      wi.shadow->copy(to, from, elem);
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

// ---- Work-group collective functions ----
//
// Ops: r = the result register, a = the value (predicate for all/any), n = the value's bytes, c = the GroupOperation
// (Reduce 0, InclusiveScan 1, ExclusiveScan 2), b = the broadcast's LocalId register, imm = its lanes, align = the
// bytes of one of its lanes.

// OpGroupAll / OpGroupAny: a bool (one byte, 0 or 1) per work-item.
template <bool All> bool groupVote(WorkItem* const* items, uint64_t count, const Op* op) {
  bool result = All;
  for (uint64_t i = 0; i < count; ++i) {
    const bool p = rd<uint8_t>(*items[i], op->a) != 0;
    result = All ? (result && p) : (result || p);
  }
  for (uint64_t i = 0; i < count; ++i) wr<uint8_t>(*items[i], op->r, uint8_t(result));
  return true;
}

// OpGroupBroadcast: the value of the work-item at LocalId (1, 2 or 3 components of size_t), which every work-item
// gives alike (Collective::uniformOperands).
bool groupBroadcast(WorkItem* const* items, uint64_t count, const Op* op) {
  const WorkItem& first = *items[0];
  std::array<uint64_t, 3> id{0, 0, 0};
  for (uint32_t k = 0; k < op->imm && k < 3; ++k)
    id[k] = op->align == 8 ? rd<uint64_t>(first, op->b + 8 * k) : rd<uint32_t>(first, op->b + 4 * k);
  // A sub-group broadcast names the sub-group local id (OpenCL C 3.0 §6.15.20 [[sub-group-functions]]
  // sub_group_broadcast); the sub-group is the items in order.
  const bool subgroup = static_cast<const Collective*>(op->aux)->subgroup;
  const std::array<uint64_t, 3> size = subgroup ? std::array<uint64_t, 3>{count, 1, 1} : first.localSize;
  if (id[0] >= size[0] || id[1] >= size[1] || id[2] >= size[2]) {
    const std::string what = std::string(subgroup ? "sub_group_broadcast" : "work_group_broadcast") +
                             " from local id (" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
                             std::to_string(id[2]) + ") outside the " + (subgroup ? "sub-group" : "work-group") +
                             " of size (" +
                             std::to_string(size[0]) + "," + std::to_string(size[1]) + "," + std::to_string(size[2]) +
                             "): the result is undefined";
    if (choicesOf(first).get<numerics::Choice::WorkGroupBroadcastOutOfRange>() == numerics::WorkGroupBroadcastOption::Fault) {
      fault(*items[0], op, FaultKind::UndefinedBehaviour, what + " (choice work_group_broadcast_out_of_range=fault)");
      return false;
    }
    noteChoice(*items[0], op, numerics::Choice::WorkGroupBroadcastOutOfRange, "broadcast from outside the group");
    warnOnce(*items[0], op, what + ", 0 given (choice work_group_broadcast_out_of_range)");
    for (uint64_t i = 0; i < count; ++i) {
      std::memset(items[i]->regs + op->r, 0, op->n);
      if (items[i]->shadow) [[unlikely]]
        shadowAnyResult(*items[i], op);  // undefined: any value
    }
    return true;
  }
  const uint64_t linear = (id[2] * size[1] + id[1]) * size[0] + id[0];
  const WorkItem& from = *items[linear];  // items are in local linear id order
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(items[i]->regs + op->r, from.regs + op->a, op->n);
    if (items[i]->shadow) [[unlikely]]
      shadowMoveFrom(*items[i], from, op);
  }
  return true;
}

Op& emitEach(Lowerer& L, const Instruction& inst, EachAction action, uint32_t valueId) {
  Collective& c = L.k.collectives.emplace_back();
  c.eachAction = action;
  c.subgroup = subgroupScope(L, inst);
  if (c.subgroup) L.k.usesSubgroupCollectives = true;
  const Type& rt = L.type(inst.resultType);
  c.valueLaneBytes = uint32_t(rt.kind == TypeKind::Vector ? L.type(rt.element).size : rt.size);
  Op& op = emitWaitForGroup(L, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(valueId);
  op.n = uint32_t(rt.size);
  op.aux = &c;
  return op;
}

void lowerGroupVote(Lowerer& L, const Instruction& inst) {
  emitEach(L, inst, inst.opcode == spv::Op::OpGroupAll ? &groupVote<true> : &groupVote<false>, inst.operand(1));
}

void lowerGroupBroadcast(Lowerer& L, const Instruction& inst) {
  // Scalars, and (cl_khr_subgroup_extended_types: sub_group_broadcast of vectors) vectors of them.
  const Type& vt = L.type(inst.resultType);
  const Type& et = vt.kind == TypeKind::Vector ? L.type(vt.element) : vt;
  if (et.kind != TypeKind::Int && et.kind != TypeKind::Float)
    L.reject(inst, "OpGroupBroadcast of a value that is not an integer or floating-point scalar or vector");
  const uint32_t idId = inst.operand(2);
  const Type& it = L.typeOfValue(idId);
  const uint32_t lanes = it.kind == TypeKind::Vector ? it.count : 1;
  const uint32_t laneBytes = uint32_t(it.kind == TypeKind::Vector ? L.type(it.element).size : it.size);
  if (lanes > 3 || (laneBytes != 4 && laneBytes != 8))
    L.reject(inst, "OpGroupBroadcast's LocalId must be a 32- or 64-bit integer scalar or vector of 2 or 3 components");
  Op& op = emitEach(L, inst, &groupBroadcast, inst.operand(1));
  op.b = L.reg(idId);
  op.imm = lanes;
  op.align = laneBytes;
  // OpenCL C 3.0 §6.15.16 [[work-group-functions]]: "Behavior is undefined when the value of local_id is not
  // equivalent for all work-items".
  static_cast<Collective*>(const_cast<void*>(op.aux))->uniformOperands.emplace_back(L.reg(idId), uint32_t(it.size));
}

void lowerGroupArith(Lowerer& L, const Instruction& inst) {
  const uint32_t operation = inst.operand(1);
  if (operation > 2)
    L.reject(inst, "GroupOperation " + std::to_string(operation) +
                       " (work-group collectives take Reduce, InclusiveScan or ExclusiveScan)");
  const Type& vt = L.type(inst.resultType);
  const bool logical = inst.opcode == spv::Op::OpGroupLogicalAndKHR || inst.opcode == spv::Op::OpGroupLogicalOrKHR ||
                       inst.opcode == spv::Op::OpGroupLogicalXorKHR;
  if (logical ? vt.kind != TypeKind::Bool : vt.kind != TypeKind::Int && vt.kind != TypeKind::Float)
    L.reject(inst, logical ? "a logical work-group collective of a value that is not a Boolean"
                           : "a work-group collective of a value that is not a scalar integer or floating-point value");
  EachAction action = nullptr;
  switch (inst.opcode) {
    case spv::Op::OpGroupIAdd: action = intArith<IAddOf>(L, inst); break;
    case spv::Op::OpGroupUMin: action = intArith<UMinOf>(L, inst); break;
    case spv::Op::OpGroupUMax: action = intArith<UMaxOf>(L, inst); break;
    case spv::Op::OpGroupSMin: action = intArith<SMinOf>(L, inst); break;
    case spv::Op::OpGroupSMax: action = intArith<SMaxOf>(L, inst); break;
    case spv::Op::OpGroupIMulKHR: action = intArith<IMulOf>(L, inst); break;
    case spv::Op::OpGroupBitwiseAndKHR: action = intArith<BitAndOf>(L, inst); break;
    case spv::Op::OpGroupBitwiseOrKHR: action = intArith<BitOrOf>(L, inst); break;
    case spv::Op::OpGroupBitwiseXorKHR: action = intArith<BitXorOf>(L, inst); break;
    case spv::Op::OpGroupLogicalAndKHR: action = &groupArith<uint8_t, LogicalAndOf, false>; break;
    case spv::Op::OpGroupLogicalOrKHR: action = &groupArith<uint8_t, LogicalOrOf, false>; break;
    case spv::Op::OpGroupLogicalXorKHR: action = &groupArith<uint8_t, LogicalXorOf, false>; break;
    default: action = floatArith(L, inst); break;
  }
  Op& op = emitEach(L, inst, action, inst.operand(2));
  op.c = operation;
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

}  // namespace

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// The floating-point arithmetic collectives (work-group and sub-group reductions and scans, clustered reductions), from
// their action in group_arithmetic.hpp, which alone sees every work-item's operand. Term k is the operand of items[k]:
//  - add: the order of the additions is open (OpenCL C 3.0 §6.15.16 [[work-group-functions]] NOTE: "The order of
//    floating-point operations is not guaranteed"), so each result is any sum of its terms in any order:
//    numerics::allowedSetOfSum over the reduction's terms, an inclusive scan's (up to its own) or an exclusive scan's
//    (before its own; the first gets the identity 0 exactly);
//  - min and max: one of the terms (fmin/fmax), whatever the order: between the least and greatest minimum (maximum)
//    the terms' sets allow, either zero's sign where zero is allowed (fmin/fmax leave the sign of equal zeros open),
//    zero for a subnormal where flushing is allowed; a term that may be NaN (fmin skips it) makes it any value;
//  - multiplication: any value (the relative bound of a product fails once a partial product underflows).
// An undetermined term makes every result that takes it undetermined. The choice work_group_reduction_order noted by
// the action is consumed here.
void shadowGroupFloat(WorkItem* const* items, uint64_t count, const Op* op, GroupFloat kind) {
  if (count == 0) return;
  ShadowRun& s = *items[0]->shadow;
  if (s.choiceFreedInst == op->inst) s.choiceFreedInst = UINT32_MAX;
  const numerics::Format f = numerics::formatOfBytes(op->n);
  const LaneRef term{op->a, 0, uint8_t(op->n), LaneKind::Float, f};
  std::vector<numerics::ValueSet> terms(count);
  std::optional<uint64_t> firstUndetermined;
  uint32_t decision = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const LaneValue v = shadowLaneOf(*items[i], term, 0);
    if (v.undetermined && !firstUndetermined) {
      firstUndetermined = i;
      decision = shadowDecisionFor(*items[i], op, v, "a group reduction of a value that reinterprets a float's bits");
    }
    terms[i] = v.set;
  }
  const bool flush = s.verdictFor(f).flushToZero.value_or(f != numerics::Format::Double);
  const double tiny = f == numerics::Format::Half ? 0x1p-14 : f == numerics::Format::Float ? 0x1p-126 : 0x1p-1022;
  const uint32_t operation = op->c;  // Reduce 0, InclusiveScan 1, ExclusiveScan 2
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    uint8_t* out = wi.regs + op->r;
    const uint64_t end = operation == 0 ? count : operation == 1 ? i + 1 : i;  // terms [0, end)
    if (firstUndetermined && *firstUndetermined < end) {
      s.markUndetermined(out, op->n, op->n, decision);
      continue;
    }
    const std::span<const numerics::ValueSet> taken(terms.data(), end);
    numerics::ValueSet set = numerics::ValueSet::all();
    if (end == 0) {
      set = numerics::ValueSet::point(shadowReadFloat(out, f));  // the identity
    } else if (kind == GroupFloat::Add) {
      set = numerics::allowedSetOfSum(taken, f, s.profile, s.verdictFor(f));
    } else if (kind == GroupFloat::Min || kind == GroupFloat::Max) {
      bool nan = false;
      // The least and greatest value of the result: folded from its identity over every term's bounds.
      double lo = kind == GroupFloat::Min ? INFINITY : -INFINITY, hi = lo;
      for (const auto& t : taken) {
        nan = nan || t.nan || !t.hasNumbers();
        lo = kind == GroupFloat::Min ? std::min(lo, t.lo) : std::max(lo, t.lo);
        hi = kind == GroupFloat::Min ? std::min(hi, t.hi) : std::max(hi, t.hi);
      }
      if (!nan) {
        set = numerics::ValueSet{lo, hi, false};
        if (flush && lo < tiny && hi > -tiny) set = numerics::hull(set, numerics::ValueSet{-0.0, 0.0, false});
        if (set.lo == 0) set.lo = -0.0;
        if (set.hi == 0) set.hi = 0.0;
      }
    }
    // A reduction gives every work-item the same result: with --perturb, the first work-item's.
    const bool first = operation != 0 || i == 0;
    writeShadowLane(wi, op, out, uint8_t(op->n), f, set, shadowReadFloat(out, f), first);
    if (!first && s.perturbSeed) std::memcpy(out, items[0]->regs + op->r, op->n);
  }
}

// Execution scope Workgroup or Subgroup (a constant, SPIR-V 1.0 §2.2.5 [external] Scope <id>); true for Subgroup.
bool subgroupScope(Lowerer& L, const Instruction& inst) {
  const uint64_t scope = L.isConstant(inst.operand(0)) ? L.constantInt(inst.operand(0)) : ~uint64_t(0);
  if (scope != uint32_t(spv::Scope::Workgroup) && scope != uint32_t(spv::Scope::Subgroup))
    L.reject(inst, opcodeName(inst.opcode) + " with an execution scope other than Workgroup or Subgroup");
  return scope == uint32_t(spv::Scope::Subgroup);
}

void registerGroup(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpGroupAsyncCopy, lowerGroupAsyncCopy);
  t.lower(Op::OpGroupWaitEvents, lowerGroupWaitEvents);
  t.lower({Op::OpGroupAll, Op::OpGroupAny}, lowerGroupVote);
  // The sets of the values the group's work-items give are only all in view of the collective's action: the broadcast
  // and the floating-point arithmetic give their results' sets themselves (shadowMoveFrom, shadowGroupFloat).
  t.lower(Op::OpGroupBroadcast, lowerGroupBroadcast, {shadowNone});
  t.lower({Op::OpGroupIAdd, Op::OpGroupUMin, Op::OpGroupSMin, Op::OpGroupUMax, Op::OpGroupSMax, Op::OpGroupIMulKHR,
           Op::OpGroupBitwiseAndKHR, Op::OpGroupBitwiseOrKHR, Op::OpGroupBitwiseXorKHR, Op::OpGroupLogicalAndKHR,
           Op::OpGroupLogicalOrKHR, Op::OpGroupLogicalXorKHR},
          lowerGroupArith);
  t.lower({Op::OpGroupFAdd, Op::OpGroupFMulKHR, Op::OpGroupFMin, Op::OpGroupFMax}, lowerGroupArith, {shadowNone});
}

}  // namespace clref::interpreter
