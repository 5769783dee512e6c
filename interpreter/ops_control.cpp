// SPIR-V 1.0 §3.32.17 [external] Control-Flow, §3.32.9 [external] Function and §3.32.20 [external] Barrier
// Instructions.
#include "interpreter/avx2_clones.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/shadow_lanes.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

// Taking an edge: OpPhi copies for the target block (all read before any is written), then
// the target block's instructions are charged to the work-item's budget.
[[gnu::cold]] const Op* budgetExceeded(WorkItem& wi, const Op* op) {
  return fault(
      wi, op, FaultKind::InstructionBudget,
      "instruction budget of " + std::to_string(wi.launch->instructionBudget) +
          " instructions per work-item exceeded (a runaway loop?); raise DeviceConfig::instructionBudget or --budget");
}

// Register copy with the common sizes as fixed-size moves (no memcpy call).
[[gnu::always_inline]] inline void copyReg(uint8_t* regs, uint32_t dst, uint32_t src, uint32_t size) {
  switch (size) {
    case 4: std::memcpy(regs + dst, regs + src, 4); break;
    case 8: std::memcpy(regs + dst, regs + src, 8); break;
    default: std::memcpy(regs + dst, regs + src, size); break;
  }
}
// The shadow mode's sets move with the phi and argument copies (interpreter/shadow.hpp), staged like the copies.
[[gnu::cold]] void shadowEdge(WorkItem& wi, const Edge* e) {
  ShadowRun& s = *wi.shadow;
  const auto& copies = e->shadowCopies;
  if (s.exact() || copies.empty()) return;
  // One copy (a loop's accumulator) has no other copy to read before it writes.
  if (copies.size() == 1) return s.copy(wi.regs + copies[0].dst, wi.regs + copies[0].src, copies[0].size);
  s.beginStaging();
  for (const auto& c : copies) s.stage(wi.regs + c.src, c.size);
  for (size_t i = 0; i < copies.size(); ++i) s.putStaged(i, wi.regs + copies[i].dst, copies[i].size);
}

[[gnu::always_inline]] inline const Op* takeEdge(WorkItem& wi, const Op* op, const Edge* e) {
  if (wi.shadow) [[unlikely]]
    shadowEdge(wi, e);
  if (!e->copies.empty()) {
    if (e->viaScratch) [[unlikely]] {
      uint32_t at = e->scratch;
      for (const auto& c : e->copies) {
        copyReg(wi.regs, at, c.src, c.size);
        at += c.size;
      }
      at = e->scratch;
      for (const auto& c : e->copies) {
        copyReg(wi.regs, c.dst, at, c.size);
        at += c.size;
      }
    } else {
      for (const auto& c : e->copies) copyReg(wi.regs, c.dst, c.src, c.size);
    }
  }
  wi.budget -= e->cost;
  if (wi.budget < 0) [[unlikely]]
    return budgetExceeded(wi, op);
  if (e->backEdge && wi.budget < wi.yieldBelow) {
    wi.pc = e->target;
    wi.state = WorkItemState::Yielded;
    return nullptr;
  }
  return e->target;
}

const Op* branch(WorkItem& wi, const Op* op) { return takeEdge(wi, op, static_cast<const Edge*>(op->aux)); }

// takeEdge on lanes (lanes.hpp): the phi copies of every lane and the budget. Where every lane would yield at a loop
// back-edge, the next round would start with them together again: it starts at once. The lanes stop before an edge
// that exceeds a lane's budget (the work-item that faults runs it alone), or where some would yield and others not
// (after they parted and met again).
inline bool edgeOnLanesStops(const LaneBatch& b, const Edge* e) {
  const int64_t spent = b.spent + e->cost;
  return b.minBudget - spent < 0 || (e->backEdge && spent > b.minMargin && spent <= b.maxMargin);
}
inline const Op* takeEdgeOnLanes(LaneBatch& b, const Op* op, const Edge* e) {
  if (edgeOnLanesStops(b, e)) [[unlikely]]
    return stopBefore(b, op, 0);
  if (b.sets) [[unlikely]] {
    if (!shadowEdgeFits(b, e)) return stopBefore(b, op, 0);
    shadowEdgeMove(b, e);
  }
  if (!e->copies.empty()) {
    if (e->viaScratch) [[unlikely]] {
      uint32_t at = e->scratch;
      for (const auto& c : e->copies) {
        copyLanes(b, at, c.src, c.size);
        at += c.size;
      }
      at = e->scratch;
      for (const auto& c : e->copies) {
        copyLanes(b, c.dst, at, c.size);
        at += c.size;
      }
    } else {
      for (const auto& c : e->copies) copyLanes(b, c.dst, c.src, c.size);
    }
  }
  b.spent += e->cost;
  // takeEdge's budget < yieldBelow, for every lane: each starts a new time slice here. Where the span's memory record
  // grew large, the whole batch yields instead, as each would alone: the span ends (scheduler.cpp runLanes).
  if (e->backEdge && b.spent > b.minMargin) [[unlikely]] {
    if (b.log && b.count == b.stride && b.log->large()) {
      b.yielded = true;
      b.at = e->target;
      return nullptr;
    }
    if (b.log) {
      b.log->newRound = true;  // the order of decisions by lane holds no more (LaneLog::firstDecisions)
      b.log->budgetsMoved = true;
    }
    const int64_t by = b.spent + b.slice;
    int64_t* const ys = b.yieldBelow;
    const int64_t* const bs = b.base;
    for (uint32_t l = 0; l < b.count; ++l) ys[l] = bs[l] - by;
    b.minMargin = b.maxMargin = b.spent + b.slice;
  }
  return e->target;
}
const Op* branchOnLanes(LaneBatch& b, const Op* op) {
  return takeEdgeOnLanes(b, op, static_cast<const Edge*>(op->aux));
}

// Lanes that part at a branch: [0, k) take edge `lo`, the others `hi`. Each side runs on lanes of its own (a view),
// the one behind (at the lower Op) until it reaches or passes the other's Op, until both stand at the same Op: there
// they go on together (a branch's sides meet at its merge block, which follows them). Lane forms neither fault nor
// warn, and keep first decisions by lane (LaneLog::firstDecisions), so the order in which the sides run changes
// nothing but data races. Where a side stops, or the lanes part other than into a first and a second range, each lane
// is left where it stands (`parted`) and finishes its round alone.
const Op* partLanes(LaneBatch& b, const Op* op, uint32_t k, const Edge* lo, const Edge* hi) {
  LaneBatch x = b.view(0, k), y = b.view(k, b.count);
  if (!b.forms || edgeOnLanesStops(x, lo) || edgeOnLanesStops(y, hi)) return stopBefore(b, op, 0);
  if (b.sets && (!shadowEdgeFits(x, lo) || !shadowEdgeFits(y, hi))) return stopBefore(b, op, 0);
  const Op* px = takeEdgeOnLanes(x, op, lo);
  const Op* py = takeEdgeOnLanes(y, op, hi);
  const LaneHandler* const forms = b.forms;
  const Op* const ops = b.ops;
  // Where a side stands after it stopped: per lane in pcs (the lanes of a parted side are there already).
  auto leave = [](LaneBatch& v) {
    if (!v.parted) {
      const uint32_t stop = v.returned || v.atBarrier ? 0 : v.stop;
      for (uint32_t l = 0; l < v.count; ++l) v.pcs[l] = l < stop ? v.at + 1 : v.at;
    }
    v.rebase();
  };
  while (px != py) {
    LaneBatch& behind = px < py ? x : y;
    const Op*& pc = px < py ? px : py;
    const Op* const ahead = px < py ? py : px;
    while (pc && pc < ahead) {
      behind.log->current = pc;
      pc = forms[pc - ops](behind, pc);
    }
    if (!pc) {
      LaneBatch& other = &behind == &x ? y : x;
      leave(behind);
      for (uint32_t l = 0; l < other.count; ++l) other.pcs[l] = ahead;
      other.rebase();
      b.spent = 0;
      b.parted = true;
      return nullptr;
    }
  }
  x.rebase();
  y.rebase();
  b.spent = 0;
  b.measureParts(x, y);
  return px;
}
// The edges the lanes of a branch take (taken(l): lane l takes `yes`): all together, or parted in two ranges.
template <class Taken>
CLREF_AVX2_TEMPLATE_CLONES const Op* branchOnLanes(LaneBatch& b, const Op* op, const Edge* yes, const Edge* no,
                                                Taken taken) {
  // The lanes taking `yes`, counted without a branch per lane: usually all or none.
  uint32_t yeses = 0;
  for (uint32_t l = 0; l < b.count; ++l) yeses += taken(l) ? 1 : 0;
  if (yeses == b.count || yeses == 0) return takeEdgeOnLanes(b, op, yeses ? yes : no);
  const bool first = taken(0);
  uint32_t k = 1;
  while (k < b.count && taken(k) == first) ++k;
  for (uint32_t l = k + 1; l < b.count; ++l)
    if (taken(l) == first) return stopBefore(b, op, 0);
  return partLanes(b, op, k, first ? yes : no, first ? no : yes);
}
// A branch on lanes: together, or parted.
const Op* branchConditionalOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t* c = b.lane0(op->a);
  return branchOnLanes(b, op, static_cast<const Edge*>(op->aux), reinterpret_cast<const Edge*>(op->imm),
                       [c](uint32_t l) { return c[size_t(l) * 8] != 0; });
}
const Op* branchConditional(WorkItem& wi, const Op* op) {
  const Edge* e = rd<uint8_t>(wi, op->a) ? static_cast<const Edge*>(op->aux) : reinterpret_cast<const Edge*>(op->imm);
  return takeEdge(wi, op, e);
}
template <class T> const Op* switchOp(WorkItem& wi, const Op* op) {
  const auto& cases = *static_cast<const std::vector<uint64_t>*>(op->aux);
  const uint64_t v = rd<T>(wi, op->a);
  for (size_t i = 0; i < cases.size(); i += 2)
    if (cases[i] == v) return takeEdge(wi, op, reinterpret_cast<const Edge*>(cases[i + 1]));
  return takeEdge(wi, op, reinterpret_cast<const Edge*>(op->imm));
}

// OpBranchConditional that absorbed its integer comparison (a single-use OpIEqual … OpSLessThan
// in the same block): compare a and b, then take an edge.
template <class T, class Cmp> const Op* compareBranch(WorkItem& wi, const Op* op) {
  const bool c = Cmp::apply(wi, op, rd<T>(wi, op->a), rd<T>(wi, op->b));
  return takeEdge(wi, op, c ? static_cast<const Edge*>(op->aux) : reinterpret_cast<const Edge*>(op->imm));
}
template <class T, class Cmp> const Op* compareBranchOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t *x = b.lane0(op->a), *y = b.lane0(op->b);
  return branchOnLanes(b, op, static_cast<const Edge*>(op->aux), reinterpret_cast<const Edge*>(op->imm),
                       [&](uint32_t l) { return bool(Cmp::apply(*b.items[l], op, rdLane<T>(x, l), rdLane<T>(y, l))); });
}
template <class Cmp> Handler compareBranchFor(uint32_t bytes) {
  return bytes == 8 ? laneForm<&compareBranch<uint64_t, Cmp>, &compareBranchOnLanes<uint64_t, Cmp>>()
                    : laneForm<&compareBranch<uint32_t, Cmp>, &compareBranchOnLanes<uint32_t, Cmp>>();
}
Handler compareBranchHandler(spv::Op op, uint32_t bytes) {
  switch (op) {
    case spv::Op::OpIEqual: return compareBranchFor<IEqual>(bytes);
    case spv::Op::OpINotEqual: return compareBranchFor<INotEqual>(bytes);
    case spv::Op::OpUGreaterThan: return compareBranchFor<UGreater>(bytes);
    case spv::Op::OpUGreaterThanEqual: return compareBranchFor<UGreaterEq>(bytes);
    case spv::Op::OpULessThan: return compareBranchFor<ULess>(bytes);
    case spv::Op::OpULessThanEqual: return compareBranchFor<ULessEq>(bytes);
    case spv::Op::OpSGreaterThan: return compareBranchFor<SGreater>(bytes);
    case spv::Op::OpSGreaterThanEqual: return compareBranchFor<SGreaterEq>(bytes);
    case spv::Op::OpSLessThan: return compareBranchFor<SLess>(bytes);
    case spv::Op::OpSLessThanEqual: return compareBranchFor<SLessEq>(bytes);
    default: return nullptr;
  }
}

const Op* functionCall(WorkItem& wi, const Op* op) {
  wi.frames.push_back({op + 1, op->r, op->n, op->b});
  return takeEdge(wi, op, static_cast<const Edge*>(op->aux));
}
const Op* returnOp(WorkItem& wi, const Op*) {
  if (wi.frames.empty()) {
    wi.state = WorkItemState::Returned;
    return nullptr;
  }
  const CallFrame f = wi.frames.back();
  wi.frames.pop_back();
  return f.returnTo;
}
// The lanes return from the kernel together (they run outside any call on lanes).
const Op* returnOnLanes(LaneBatch& b, const Op* op) {
  if (!b.items[0]->frames.empty()) return leaveLanes(b, op);
  b.returned = true;
  b.at = op;
  return nullptr;
}
const Op* returnValue(WorkItem& wi, const Op* op) {
  if (wi.frames.empty()) {
    wi.state = WorkItemState::Returned;
    return nullptr;
  }
  const CallFrame f = wi.frames.back();
  wi.frames.pop_back();
  std::memcpy(wi.regs + f.resultReg, wi.regs + op->a, f.resultSize);
  if (wi.shadow) [[unlikely]]
    wi.shadow->copy(wi.regs + f.resultReg, wi.regs + op->a, f.resultSize);
  // The undefined-value shadow of the returned value (b; 0 for a value that is always defined).
  if (f.resultShadow) [[unlikely]] {
    if (op->b)
      std::memcpy(wi.regs + f.resultShadow, wi.regs + op->b, f.resultSize);
    else
      std::memset(wi.regs + f.resultShadow, 0, f.resultSize);
  }
  return f.returnTo;
}
const Op* unreachable(WorkItem& wi, const Op* op) {
  return fault(wi, op, FaultKind::Unreachable,
               "OpUnreachable executed (the kernel reached code its compiler proved unreachable: undefined behaviour)");
}
// SPV_KHR_expect_assume: "the behavior is undefined if Condition is false" [external]; a reference device reports
// the broken promise (as OpUnreachable) instead of relying on it.
const Op* assumeTrue(WorkItem& wi, const Op* op) {
  if (rd<uint8_t>(wi, op->a)) return op + 1;
  return fault(wi, op, FaultKind::UndefinedBehaviour,
               "OpAssumeTrueKHR's condition is false (the kernel's __builtin_assume promise is broken: undefined "
               "behaviour)");
}
const Op* undefinedCondition(WorkItem& wi, const Op* op) {
  return fault(wi, op, FaultKind::UndefinedValue, "branch condition is an undefined value (OpUndef)");
}


// OpControlBarrier with Workgroup execution scope: the work-item waits until every work-item
// of its work-group reaches this same barrier (OpenCL C 3.0 §6.15.8 [[synchronization-functions]] barrier: "all
// work-items in a work-group ... must execute this function"). Memory is sequentially consistent inside a
// work-group in clref, so the memory semantics need no extra action.
}  // namespace

const Op* waitForGroup(WorkItem& wi, const Op* op) {
  wi.barrier = op;
  wi.pc = op + 1;
  wi.state = WorkItemState::AtBarrier;
  return nullptr;
}

// waitForGroup on lanes (lanes.hpp): the lanes reach a work-group barrier together and wait there as a batch. A
// collective or sub-group barrier (an Op with a Collective) is left to each work-item alone.
namespace {
const Op* waitForGroupOnLanes(LaneBatch& b, const Op* op) {
  if (op->aux) return leaveLanes(b, op);
  b.atBarrier = true;
  b.at = op;
  return nullptr;
}
}  // namespace

Op& emitWaitForGroup(Lowerer& L, const Instruction& inst) {
  L.k.usesBarrier = true;
  return L.emit(laneForm<&waitForGroup, &waitForGroupOnLanes>(), inst);
}

namespace {
const Op* copyValue(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a, op->n);
  return op + 1;
}

}  // namespace

bool compareIsFusable(const Lowerer& L, const Instruction& cmp) {
  if (!compareBranchHandler(cmp.opcode, 4)) return false;
  const Type& t = L.typeOfValue(cmp.operand(0));
  return t.kind == TypeKind::Int && (t.width == 32 || t.width == 64);
}

namespace {

void lowerBranch(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(laneForm<&branch, &branchOnLanes>(), inst);
  op.aux = L.edgeTo(inst.operand(0));
}

void lowerBranchConditional(Lowerer& L, const Instruction& inst) {
  const Instruction* cond = L.m.findDef(inst.operand(0));
  // A shader's branch on OpUndef is no fault (uninitialized.cpp useWarning): the undefined-value tracking warns before
  // it, and the OpUndef register's bits (choice undef_value) select the path.
  if (cond && cond->opcode == spv::Op::OpUndef && !L.m.isVulkanShader()) {
    L.emit(&undefinedCondition, inst);
    return;
  }
  Op* fused = nullptr;
  if (L.isElided(inst.operand(0))) {
    const Instruction& cmp = L.m.def(inst.operand(0));
    fused = &L.emit(compareBranchHandler(cmp.opcode, uint32_t(L.typeOfValue(cmp.operand(0)).size)), inst);
    fused->a = L.reg(cmp.operand(0));
    fused->b = L.reg(cmp.operand(1));
  }
  Op& op = fused ? *fused : L.emit(laneForm<&branchConditional, &branchConditionalOnLanes>(), inst);
  if (!fused) op.a = L.reg(inst.operand(0));
  op.aux = L.edgeTo(inst.operand(1));
  op.imm = reinterpret_cast<uint64_t>(L.edgeTo(inst.operand(2)));
}

void lowerSwitch(Lowerer& L, const Instruction& inst) {
  const Instruction* sel = L.m.findDef(inst.operand(0));
  if (sel && sel->opcode == spv::Op::OpUndef && !L.m.isVulkanShader()) {  // as OpBranchConditional
    L.emit(&undefinedCondition, inst);
    return;
  }
  const Type& st = L.typeOfValue(inst.operand(0));
  auto& cases = L.k.tables64.emplace_back();
  const size_t litWords = st.width > 32 ? 2 : 1;
  for (size_t k = 2; k + litWords < inst.operandCount() + 1; k += litWords + 1) {
    uint64_t v = inst.operand(k);
    if (litWords == 2) v |= uint64_t(inst.operand(k + 1)) << 32;
    cases.push_back(v);
    cases.push_back(reinterpret_cast<uint64_t>(L.edgeTo(inst.operand(k + litWords))));
  }
  Handler fn =
      withInt(L.scalarOf(L.typeIdOfValue(inst.operand(0))), [&]<class T>() -> Handler { return &switchOp<T>; });
  Op& op = L.emit(fn, inst);
  op.a = L.reg(inst.operand(0));
  op.aux = &cases;
  op.imm = reinterpret_cast<uint64_t>(L.edgeTo(inst.operand(1)));
}

void lowerReturn(Lowerer& L, const Instruction& inst) { L.emit(laneForm<&returnOp, &returnOnLanes>(), inst); }

void lowerReturnValue(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&returnValue, inst);
  op.a = L.reg(inst.operand(0));
  if (auto sh = L.shadow_.find(inst.operand(0)); sh != L.shadow_.end()) op.b = sh->second;
}

void lowerUnreachable(Lowerer& L, const Instruction& inst) { L.emit(&unreachable, inst); }

void lowerAssumeTrueKHR(Lowerer& L, const Instruction& inst) {
  const Instruction* cond = L.m.findDef(inst.operand(0));
  if (cond && cond->opcode == spv::Op::OpUndef) {
    L.emit(&undefinedCondition, inst);
    return;
  }
  L.emit(&assumeTrue, inst).a = L.reg(inst.operand(0));
}

// SPV_KHR_expect_assume: OpExpectKHR is its value.
void lowerExpectKHR(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&copyValue, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = uint32_t(L.type(inst.resultType).size);
}

void lowerFunctionCall(Lowerer& L, const Instruction& inst) {
  const uint32_t callee = inst.operand(0);
  const auto fit = L.m.functions.find(callee);
  if (fit == L.m.functions.end()) L.reject(inst, "call to an unknown function");
  const Function& f = fit->second;
  if (f.isImport)
    L.reject(inst,
             "call to " + L.m.nameOf(callee) + ", which is declared but not defined in this module (link it first)");
  Op& op = L.emit(&functionCall, inst);
  const Type& rt = L.type(inst.resultType);
  if (rt.kind != TypeKind::Void) {
    op.r = L.reg(inst.resultId);
    op.n = uint32_t(rt.size);
    if (auto sh = L.shadow_.find(inst.resultId); sh != L.shadow_.end()) op.b = sh->second;
  }
  Edge& e = L.k.edges.emplace_back();
  for (size_t k = 1; k < inst.operandCount(); ++k) {
    const uint32_t param = f.parameters.at(k - 1);
    const uint32_t size = uint32_t(L.typeOfValue(param).size);
    e.copies.push_back({L.reg(param), L.reg(inst.operand(k)), size});
    if (L.opt.shadow) e.shadowCopies.push_back(e.copies.back());
    // The undefined-value shadows of the arguments (checks/undefined_values.cpp) go with them.
    if (auto sh = L.shadow_.find(param); sh != L.shadow_.end())
      e.copies.push_back({sh->second, L.shadowOrZero(inst.operand(k), size), size});
  }
  L.callEdges_.emplace_back(callee, &e);
  L.fixups.push_back([&L, &e, callee] {
    e.targetIndex = L.functionEntry_.at(callee);
    e.cost = L.functionCost_.at(callee);
  });
  op.aux = &e;
}

void lowerControlBarrier(Lowerer& L, const Instruction& inst) {
  const uint32_t scope = uint32_t(L.constantInt(inst.operand(0)));
  if (scope != uint32_t(spv::Scope::Workgroup) && scope != uint32_t(spv::Scope::Subgroup))
    L.reject(inst, "control barrier with execution scope " + std::to_string(scope) +
                       " (OpenCL kernels synchronise work-groups and sub-groups)");
  emitImageFence(L, inst, inst.operand(2));
  Op& op = emitWaitForGroup(L, inst);
  if (scope == uint32_t(spv::Scope::Subgroup)) {
    // sub_group_barrier (OpenCL C 3.0 §6.15.20 [[sub-group-functions]]): the work-items of one sub-group wait for each
    // other.
    Collective& c = L.k.collectives.emplace_back();
    c.subgroup = true;
    L.k.usesSubgroupCollectives = true;
    op.aux = &c;
  }
}

// OpMemoryBarrier: memory is sequentially consistent inside clref, so it orders nothing further, except that an
// image memory fence makes a read_write image's writes visible to the work-item's reads (ops_image.cpp).
void lowerMemoryBarrier(Lowerer& L, const Instruction& inst) { emitImageFence(L, inst, inst.operand(1)); }

// The shadow mode (shadow_support.hpp), before a branch or switch: a condition or selector that is undetermined
// decides control flow.
void shadowBranch(ShadowLowering& S) {
  if (S.L.shadowExact(S.operand(0))) return;
  Op& op = S.L.emit(&shBranch, S.inst);
  op.a = S.L.reg(S.operand(0));
  op.n = uint32_t(S.L.typeOfValue(S.operand(0)).size);
}

}  // namespace

void registerControl(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpBranch, lowerBranch);
  t.lower(Op::OpBranchConditional, lowerBranchConditional, {shadowBranch, ShadowRule::When::Before});
  t.lower(Op::OpSwitch, lowerSwitch, {shadowBranch, ShadowRule::When::Before});
  t.lower(Op::OpReturn, lowerReturn);
  t.lower(Op::OpReturnValue, lowerReturnValue);
  t.lower(Op::OpUnreachable, lowerUnreachable);
  t.lower(Op::OpExpectKHR, lowerExpectKHR);
  t.lower(Op::OpAssumeTrueKHR, lowerAssumeTrueKHR);
  // The callee's OpReturnValue moves the result's set (the return copies it with the bytes).
  t.lower(Op::OpFunctionCall, lowerFunctionCall, {shadowNone});
  t.lower(Op::OpControlBarrier, lowerControlBarrier);
  t.lower(Op::OpMemoryBarrier, lowerMemoryBarrier);
  // Instructions without run-time effect. Memory is sequentially
  // consistent inside clref (one work-item runs at a time per work-group and stores are
  // immediately visible), so fences order nothing further (OpMemoryBarrier above: image fences).
  // OpPhi is executed on the incoming edges (Lowerer::edgeTo); merges, lifetimes and line
  // information only describe the code.
  // OpUndef's register already holds the undefined value (lower_constants.cpp writes it).
  t.lower({Op::OpUndef, Op::OpSelectionMerge, Op::OpLoopMerge, Op::OpLifetimeStart, Op::OpLifetimeStop, Op::OpNop,
           Op::OpLine, Op::OpNoLine},
          lowerNoCode);
  // The phi copies on the incoming edge move the sets with the bytes.
  t.lower(Op::OpPhi, lowerNoCode, {shadowNone});
}

}  // namespace clref::interpreter
