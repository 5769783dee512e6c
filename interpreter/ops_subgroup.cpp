// SPIR-V 1.3 §3.32.24 [external] Non-Uniform Instructions, in the OpenCL C sub-group extensions (OpenCL C 3.0
// §6.15.20 [[sub-group-functions]]): cl_khr_subgroup_non_uniform_vote, _ballot (§6.15.20.1
// [[sub-group-ballot-functions]]), _non_uniform_arithmetic, _clustered_reduce (§6.15.20.2
// [[sub-group-clustered-reduction-functions]]), _shuffle, _shuffle_relative and _rotate (§6.15.20.5
// [[sub-group-rotate-functions]]; SPV_KHR_subgroup_rotate [external]).
//
// Each is a Collective with Collective::nonUniform: a work-item stops at it, and when no work-item of its sub-group can
// run any further (every one returned or waits somewhere), the ones waiting at this instruction are its active
// work-items and it runs once for them (the scheduler's sub-group pass). Work-items of one sub-group that took
// different branches meet different instructions and so form different active sets; a loop's work-items stay
// together for as long as they iterate together. The action receives the active work-items in sub-group local id
// order; their ids come from their local linear ids.

#include "interpreter/ops_subgroup.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/group_arithmetic.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace nonuniform {

// Op fields: r = result, a = value, b = the index / mask / delta register (its bytes in align), n = the value's bytes
// (the result's for ballot; a vector's whole, its component's in Collective::valueLaneBytes), c = GroupOperation,
// imm = ClusterSize (0: the whole sub-group) or, for AllEqual, 1 when the value is a float, aux → Collective.

uint64_t maxSubgroupSize(const WorkItem& wi) { return wi.launch->subgroupSize; }
uint64_t subgroupLocalId(const WorkItem& wi) { return wi.localLinearId % maxSubgroupSize(wi); }
// get_sub_group_size(): the last sub-group of a work-group may be smaller. A shader's SubgroupSize is the full size in
// every subgroup (builtins.cpp): the last one's missing invocations are inactive, not outside it.
uint64_t subgroupSize(const WorkItem& wi) {
  const uint64_t sg = maxSubgroupSize(wi), wg = wi.localSize[0] * wi.localSize[1] * wi.localSize[2];
  if (wi.launch->vulkanSubgroups) return sg;
  return std::min(sg, wg - wi.localLinearId / sg * sg);
}
uint64_t readIndex(const WorkItem& wi, const Op* op) {
  return op->align == 8 ? rd<uint64_t>(wi, op->b) : op->align == 2 ? rd<uint16_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
}

// The active work-items by sub-group local id (nullptr: inactive).
std::vector<WorkItem*> byLocalId(WorkItem* const* items, uint64_t count) {
  std::vector<WorkItem*> v(maxSubgroupSize(*items[0]), nullptr);
  for (uint64_t i = 0; i < count; ++i) v[subgroupLocalId(*items[i])] = items[i];
  return v;
}

// A result the spec leaves undefined (`message` says why): choice sub_group_inactive_source, a fault (false) or a
// warning and 0 in the result's `bytes` bytes (true).
bool undefinedResult(WorkItem& wi, const Op* op, const std::string& message, const char* what, uint32_t bytes) {
  if (choicesOf(wi).get<numerics::Choice::SubgroupInactiveSource>() == numerics::SubgroupInactiveSourceOption::Fault) {
    fault(wi, op, FaultKind::UndefinedBehaviour, message + " (choice sub_group_inactive_source=fault)");
    return false;
  }
  noteChoice(wi, op, numerics::Choice::SubgroupInactiveSource, what);
  warnOnce(wi, op, message + ", 0 given (choice sub_group_inactive_source)");
  std::memset(wi.regs + op->r, 0, bytes);
  return true;
}

// The value of the work-item with sub-group local id `from` into `to`'s result, or, when that work-item is inactive or
// outside the sub-group, the undefined result (OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]] and the shuffle
// and rotate tables: "The return value is undefined if the work item ... is inactive"): choice
// sub_group_inactive_source. Returns false after a fault.
bool readFrom(WorkItem& to, const std::vector<WorkItem*>& active, uint64_t from, const Op* op, const char* what) {
  if (from < active.size() && from < subgroupSize(to) && active[from]) {
    std::memcpy(to.regs + op->r, active[from]->regs + op->a, op->n);
    if (to.shadow) [[unlikely]]
      shadowMoveFrom(to, *active[from], op);
    return true;
  }
  const std::string message = std::string(what) + " reads sub-group local id " + std::to_string(from) + ", which " +
                              (from < subgroupSize(to) ? "is inactive" : "is outside the sub-group") +
                              ": the result is undefined";
  if (!undefinedResult(to, op, message, "sub-group read from an inactive work-item", op->n)) return false;
  if (to.shadow) [[unlikely]]
    shadowAnyResult(to, op);
  return true;
}
}  // namespace nonuniform

namespace {
using namespace nonuniform;

// OpGroupNonUniformElect: true for the active work-item with the smallest id.
bool elect(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i) wr<uint8_t>(*items[i], op->r, uint8_t(i == 0));
  return true;
}

// OpGroupNonUniformAll / Any over the active work-items' predicates.
template <bool All> bool vote(WorkItem* const* items, uint64_t count, const Op* op) {
  bool result = All;
  for (uint64_t i = 0; i < count; ++i) {
    const bool p = rd<uint8_t>(*items[i], op->a) != 0;
    result = All ? result && p : result || p;
  }
  for (uint64_t i = 0; i < count; ++i) wr<uint8_t>(*items[i], op->r, uint8_t(result));
  return true;
}

// OpGroupNonUniformAllEqual: integers by their bits, floats by value (OpFOrdEqual: -0 equals +0, a NaN equals
// nothing), as sub_group_non_uniform_all_equal compares them; a vector (a shader's) lane by lane.
bool allEqual(WorkItem* const* items, uint64_t count, const Op* op) {
  const uint32_t lane = static_cast<const Collective*>(op->aux)->valueLaneBytes;
  auto floatOf = [lane](const WorkItem& wi, uint32_t at) {
    return lane == 2 ? toD(rd<Half>(wi, at)) : lane == 4 ? double(rd<float>(wi, at)) : rd<double>(wi, at);
  };
  bool result = true;
  if (op->imm) {
    for (uint32_t at = op->a; at < op->a + op->n && result; at += lane) {
      const double first = floatOf(*items[0], at);
      result = first == first;  // a NaN is equal to nothing, itself included
      for (uint64_t i = 1; i < count && result; ++i) result = floatOf(*items[i], at) == first;
    }
  } else {
    for (uint64_t i = 1; i < count && result; ++i)
      result = std::memcmp(items[0]->regs + op->a, items[i]->regs + op->a, op->n) == 0;
  }
  for (uint64_t i = 0; i < count; ++i) wr<uint8_t>(*items[i], op->r, uint8_t(result));
  return true;
}

// OpGroupNonUniformBroadcast (Id: the same for every active work-item, checked as a uniform operand) and
// OpGroupNonUniformBroadcastFirst.
bool broadcast(WorkItem* const* items, uint64_t count, const Op* op) {
  const auto active = byLocalId(items, count);
  const uint64_t from = readIndex(*items[0], op);
  for (uint64_t i = 0; i < count; ++i)
    if (!readFrom(*items[i], active, from, op, "sub_group_non_uniform_broadcast")) return false;
  return true;
}
bool broadcastFirst(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(items[i]->regs + op->r, items[0]->regs + op->a, op->n);
    if (items[i]->shadow) [[unlikely]]
      shadowMoveFrom(*items[i], *items[0], op);
  }
  return true;
}

// Shuffles and rotations: each active work-item reads the value of the one its own operand names.
enum class Shuffle : uint8_t { Index, Xor, Up, Down, Rotate };
template <Shuffle K> bool shuffle(WorkItem* const* items, uint64_t count, const Op* op) {
  const auto active = byLocalId(items, count);
  static constexpr const char* kName[] = {"sub_group_shuffle", "sub_group_shuffle_xor", "sub_group_shuffle_up",
                                          "sub_group_shuffle_down", "sub_group_rotate"};
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    const uint64_t id = subgroupLocalId(wi), x = readIndex(wi, op);
    uint64_t from = 0;
    switch (K) {
      case Shuffle::Index: from = x; break;
      case Shuffle::Xor: from = id ^ x; break;
      case Shuffle::Up: from = x > id ? ~uint64_t(0) : id - x; break;  // "delta is greater than this ... id"
      case Shuffle::Down: from = id + x; break;
      case Shuffle::Rotate: {
        // "the remainder of the division of the sum of this work item's ID (within the cluster) and delta by the
        // maximum sub-group size (the cluster size)", plus the cluster's first id; delta is an int.
        const uint64_t n = op->imm ? op->imm : maxSubgroupSize(wi), base = id / n * n;
        const int64_t delta = op->align == 8 ? int64_t(x) : int64_t(int32_t(uint32_t(x)));
        const int64_t m = int64_t(n);
        from = base + uint64_t((((int64_t(id - base) + delta) % m) + m) % m);
        break;
      }
    }
    if (!readFrom(wi, active, from, op, kName[int(K)])) return false;
  }
  return true;
}

// Ballots: uint4 bit fields, bit k of the 128 for sub-group local id k.
using Ballot = std::array<uint32_t, 4>;
Ballot readBallot(const WorkItem& wi, uint32_t reg) {
  Ballot b;
  std::memcpy(b.data(), wi.regs + reg, sizeof b);
  return b;
}
bool bitOf(const Ballot& b, uint64_t k) { return k < 128 && ((b[k / 32] >> (k % 32)) & 1); }
// The number of bits set among [0, to).
uint32_t countBelow(const Ballot& b, uint64_t to) {
  uint32_t n = 0;
  for (uint64_t k = 0; k < to && k < 128; ++k) n += bitOf(b, k);
  return n;
}

// OpGroupNonUniformBallot: "The representative bit in the bitfield is set if the work item is active and the
// predicate is non-zero".
bool ballot(WorkItem* const* items, uint64_t count, const Op* op) {
  Ballot b{0, 0, 0, 0};
  for (uint64_t i = 0; i < count; ++i)
    if (rd<uint8_t>(*items[i], op->a)) {
      const uint64_t k = subgroupLocalId(*items[i]);
      if (k < 128) b[k / 32] |= uint32_t(1) << (k % 32);
    }
  for (uint64_t i = 0; i < count; ++i) std::memcpy(items[i]->regs + op->r, b.data(), sizeof b);
  return true;
}
// OpGroupNonUniformInverseBallot: this work-item's bit.
bool inverseBallot(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i)
    wr<uint8_t>(*items[i], op->r, uint8_t(bitOf(readBallot(*items[i], op->a), subgroupLocalId(*items[i]))));
  return true;
}
// OpGroupNonUniformBallotBitExtract: bit Index (undefined at or past the sub-group size: the choice).
bool ballotBitExtract(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    const uint64_t k = readIndex(wi, op);
    if (k >= subgroupSize(wi)) {
      if (!undefinedResult(wi, op,
                           "sub_group_ballot_bit_extract of bit " + std::to_string(k) +
                               ", outside the sub-group: the result is undefined",
                           "ballot bit outside the sub-group", 1))
        return false;
      continue;
    }
    wr<uint8_t>(wi, op->r, uint8_t(bitOf(readBallot(wi, op->a), k)));
  }
  return true;
}
// OpGroupNonUniformBallotBitCount: Reduce counts the bits below the maximum sub-group size, the scans the bits up to
// (inclusive) or below (exclusive) this work-item's id.
bool ballotBitCount(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    const Ballot b = readBallot(wi, op->a);
    const uint64_t id = subgroupLocalId(wi);
    const uint64_t to = op->c == 0 ? maxSubgroupSize(wi) : op->c == 1 ? id + 1 : id;
    const uint32_t n = countBelow(b, to);
    std::memset(wi.regs + op->r, 0, op->n);
    std::memcpy(wi.regs + op->r, &n, std::min<uint32_t>(op->n, 4));
  }
  return true;
}
// OpGroupNonUniformBallotFindLSB / FindMSB among the bits below the maximum sub-group size; none set is undefined.
template <bool Msb> bool ballotFind(WorkItem* const* items, uint64_t count, const Op* op) {
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    const Ballot b = readBallot(wi, op->a);
    const uint64_t limit = std::min<uint64_t>(maxSubgroupSize(wi), 128);
    int64_t found = -1;
    for (uint64_t k = 0; k < limit; ++k)
      if (bitOf(b, k) && (Msb || found < 0)) found = int64_t(k);
    if (found < 0) {
      if (!undefinedResult(wi, op,
                           std::string(Msb ? "sub_group_ballot_find_msb" : "sub_group_ballot_find_lsb") +
                               " of a bit field with no bit of the sub-group set: the result is undefined",
                           "ballot find with no bit set", op->n))
        return false;
      continue;
    }
    const auto v = uint32_t(found);
    std::memset(wi.regs + op->r, 0, op->n);
    std::memcpy(wi.regs + op->r, &v, std::min<uint32_t>(op->n, 4));
  }
  return true;
}

// Non-uniform arithmetic: Reduce and the scans over the active work-items in id order (group_arithmetic.hpp's
// groupArith, whose floating-point order is the choice work_group_reduction_order); ClusteredReduce reduces over the
// active work-items of each cluster of ClusterSize consecutive ids.
bool clusteredOrWhole(EachAction arith, WorkItem* const* items, uint64_t count, const Op* op) {
  if (op->c != 3) return arith(items, count, op);
  Op reduce = *op;
  reduce.c = 0;
  uint64_t begin = 0;
  while (begin < count) {
    const uint64_t cluster = subgroupLocalId(*items[begin]) / op->imm;
    uint64_t end = begin + 1;
    while (end < count && subgroupLocalId(*items[end]) / op->imm == cluster) ++end;
    if (!arith(items + begin, end - begin, &reduce)) return false;
    begin = end;
  }
  return true;
}

// The arithmetic chosen at lowering is the Collective's payload. A vector (SPIR-V allows one in a shader: "Result Type
// must be a scalar or vector of ...") is combined component by component, each as a scalar would be.
bool nonUniformArith(WorkItem* const* items, uint64_t count, const Op* op) {
  const auto* c = static_cast<const Collective*>(op->aux);
  const auto arith = reinterpret_cast<EachAction>(const_cast<void*>(c->payload));
  if (c->valueLaneBytes == op->n) return clusteredOrWhole(arith, items, count, op);
  Op component = *op;
  component.n = c->valueLaneBytes;
  for (uint32_t at = 0; at < op->n; at += c->valueLaneBytes) {
    component.a = op->a + at;
    component.r = op->r + at;
    if (!clusteredOrWhole(arith, items, count, &component)) return false;
  }
  return true;
}

}  // namespace

namespace nonuniform {

// Execution scope: the OpenCL C built-ins are sub-group functions, at Subgroup scope; SPIR-V also allows Workgroup for
// these instructions, which no OpenCL C built-in produces and clref does not execute.
void requireSubgroupScope(Lowerer& L, const Instruction& inst) {
  if (!L.isConstant(inst.operand(0)) || L.constantInt(inst.operand(0)) != uint32_t(spv::Scope::Subgroup))
    L.reject(inst, opcodeName(inst.opcode) + " with an execution scope other than Subgroup");
}

Op& emitNonUniform(Lowerer& L, const Instruction& inst, EachAction action, uint32_t valueId) {
  requireSubgroupScope(L, inst);
  Collective& c = L.k.collectives.emplace_back();
  c.eachAction = action;
  c.subgroup = true;
  c.nonUniform = true;
  c.convergenceOrder = uint64_t(L.convergenceRank()) << 32 | L.index(inst);
  L.k.usesSubgroupCollectives = true;
  Op& op = emitWaitForGroup(L, inst);
  op.r = L.reg(inst.resultId);
  if (valueId) {
    op.a = L.reg(valueId);
    op.n = uint32_t(L.typeOfValue(valueId).size);
    const Type& vt = L.typeOfValue(valueId);
    c.valueLaneBytes = uint32_t(vt.kind == TypeKind::Vector ? L.type(vt.element).size : vt.size);
  }
  op.aux = &c;
  return op;
}
void setIndex(Lowerer& L, Op& op, uint32_t id) {
  op.b = L.reg(id);
  op.align = uint32_t(L.typeOfValue(id).size);
}

}  // namespace nonuniform

namespace {

void lowerElect(Lowerer& L, const Instruction& inst) { emitNonUniform(L, inst, &elect, 0); }
void lowerVote(Lowerer& L, const Instruction& inst) {
  EachAction a = inst.opcode == spv::Op::OpGroupNonUniformAll ? &vote<true> : &vote<false>;
  emitNonUniform(L, inst, a, inst.operand(1));
}
void lowerAllEqual(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &allEqual, inst.operand(1));
  const Type& vt = L.typeOfValue(inst.operand(1));
  op.imm = (vt.kind == TypeKind::Vector ? L.type(vt.element) : vt).kind == TypeKind::Float;
}
void lowerBroadcast(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &broadcast, inst.operand(1));
  setIndex(L, op, inst.operand(2));
  // "Behavior is undefined when the value of index is not equivalent for all active work items".
  static_cast<Collective*>(const_cast<void*>(op.aux))->uniformOperands.emplace_back(op.b, op.align);
}
void lowerBroadcastFirst(Lowerer& L, const Instruction& inst) {
  emitNonUniform(L, inst, &broadcastFirst, inst.operand(1));
}
template <Shuffle K> void lowerShuffle(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &shuffle<K>, inst.operand(1));
  setIndex(L, op, inst.operand(2));
  if (K == Shuffle::Rotate) {
    // delta "is required to be dynamically-uniform"; ClusterSize a constant power of two.
    static_cast<Collective*>(const_cast<void*>(op.aux))->uniformOperands.emplace_back(op.b, op.align);
    if (inst.operandCount() > 3) {
      const uint64_t n = L.constantInt(inst.operand(3));
      if (n == 0 || (n & (n - 1))) L.reject(inst, "a ClusterSize that is not a power of two");
      op.imm = n;
    }
  }
}
void lowerBallot(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &ballot, inst.operand(1));
  op.n = uint32_t(L.type(inst.resultType).size);
}
void lowerInverseBallot(Lowerer& L, const Instruction& inst) {
  emitNonUniform(L, inst, &inverseBallot, inst.operand(1));
}
void lowerBallotBitExtract(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &ballotBitExtract, inst.operand(1));
  setIndex(L, op, inst.operand(2));
}
void lowerBallotBitCount(Lowerer& L, const Instruction& inst) {
  const uint32_t operation = inst.operand(1);
  if (operation > 2)
    L.reject(inst, "OpGroupNonUniformBallotBitCount with a GroupOperation other than a reduce or scan");
  Op& op = emitNonUniform(L, inst, &ballotBitCount, inst.operand(2));
  op.c = operation;
  op.n = uint32_t(L.type(inst.resultType).size);
}
template <bool Msb> void lowerBallotFind(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &ballotFind<Msb>, inst.operand(1));
  op.n = uint32_t(L.type(inst.resultType).size);
}

// The order of a floating-point reduction's or scan's roundings is the choice work_group_reduction_order
// (group_arithmetic.hpp), in a shader too: Vulkan's [[shaders-group-operations-arithmetic]] [external] leaves it
// free ("The order in which these operators are applied is implementation-dependent").
EachAction nonUniformFloatArith(Lowerer& L, const Instruction& inst) {
  return withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class T, bool Z>() -> EachAction {
    switch (inst.opcode) {
      case spv::Op::OpGroupNonUniformFAdd: return &groupArith<T, FAddOf<T, Z>, true>;
      case spv::Op::OpGroupNonUniformFMul: return &groupArith<T, FMulOf<T, Z>, true>;
      case spv::Op::OpGroupNonUniformFMin: return &groupArith<T, FMinMaxOf<T, Z, false>, true>;
      default: return &groupArith<T, FMinMaxOf<T, Z, true>, true>;
    }
  });
}

void lowerArith(Lowerer& L, const Instruction& inst) {
  using S = spv::Op;
  const uint32_t operation = inst.operand(1);
  if (operation > 3)
    L.reject(inst, "GroupOperation " + std::to_string(operation) +
                       " (OpenCL's sub-group functions take Reduce, InclusiveScan, ExclusiveScan or ClusteredReduce)");
  const Type& rt = L.type(inst.resultType);
  const Type& vt = rt.kind == TypeKind::Vector ? L.type(rt.element) : rt;
  const bool logical = inst.opcode == S::OpGroupNonUniformLogicalAnd || inst.opcode == S::OpGroupNonUniformLogicalOr ||
                       inst.opcode == S::OpGroupNonUniformLogicalXor;
  if (logical ? vt.kind != TypeKind::Bool : vt.kind != TypeKind::Int && vt.kind != TypeKind::Float)
    L.reject(inst, logical ? "a logical sub-group operation on a value that is not a Boolean"
                           : "a sub-group operation on a value that is not an integer or float scalar or vector");
  EachAction arith = nullptr;
  switch (inst.opcode) {
    case S::OpGroupNonUniformIAdd: arith = intArith<IAddOf>(L, inst); break;
    case S::OpGroupNonUniformIMul: arith = intArith<IMulOf>(L, inst); break;
    case S::OpGroupNonUniformSMin: arith = intArith<SMinOf>(L, inst); break;
    case S::OpGroupNonUniformUMin: arith = intArith<UMinOf>(L, inst); break;
    case S::OpGroupNonUniformSMax: arith = intArith<SMaxOf>(L, inst); break;
    case S::OpGroupNonUniformUMax: arith = intArith<UMaxOf>(L, inst); break;
    case S::OpGroupNonUniformBitwiseAnd: arith = intArith<BitAndOf>(L, inst); break;
    case S::OpGroupNonUniformBitwiseOr: arith = intArith<BitOrOf>(L, inst); break;
    case S::OpGroupNonUniformBitwiseXor: arith = intArith<BitXorOf>(L, inst); break;
    case S::OpGroupNonUniformLogicalAnd: arith = &groupArith<uint8_t, LogicalAndOf, false>; break;
    case S::OpGroupNonUniformLogicalOr: arith = &groupArith<uint8_t, LogicalOrOf, false>; break;
    case S::OpGroupNonUniformLogicalXor: arith = &groupArith<uint8_t, LogicalXorOf, false>; break;
    default: arith = nonUniformFloatArith(L, inst); break;
  }
  Op& op = emitNonUniform(L, inst, &nonUniformArith, inst.operand(2));
  static_cast<Collective*>(const_cast<void*>(op.aux))->payload = reinterpret_cast<const void*>(arith);
  op.c = operation;
  if (operation == 3) {
    // ClusteredReduce: the cluster size is "an integer constant expression" and "a power-of-two":
    // OpenCL C 3.0 §6.15.20.2 [[sub-group-clustered-reduction-functions]].
    if (inst.operandCount() < 4) L.reject(inst, "ClusteredReduce without a ClusterSize");
    const uint64_t n = L.constantInt(inst.operand(3));
    if (n == 0 || (n & (n - 1))) L.reject(inst, "a ClusterSize that is not a power of two");
    op.imm = n;
  }
}

}  // namespace

void registerSubgroup(DispatchTable& t) {
  using S = spv::Op;
  t.lower(S::OpGroupNonUniformElect, lowerElect);
  t.lower({S::OpGroupNonUniformAll, S::OpGroupNonUniformAny}, lowerVote);
  t.lower(S::OpGroupNonUniformAllEqual, lowerAllEqual);
  // Broadcasts and shuffles move values between work-items, and the floating-point arithmetic combines them: only the
  // collective's action sees the work-items they come from, and it gives the results their sets (readFrom,
  // broadcastFirst; shadowGroupFloat in ops_group.cpp).
  t.lower(S::OpGroupNonUniformBroadcast, lowerBroadcast, {shadowNone});
  t.lower(S::OpGroupNonUniformBroadcastFirst, lowerBroadcastFirst, {shadowNone});
  t.lower(S::OpGroupNonUniformBallot, lowerBallot);
  t.lower(S::OpGroupNonUniformInverseBallot, lowerInverseBallot);
  t.lower(S::OpGroupNonUniformBallotBitExtract, lowerBallotBitExtract);
  t.lower(S::OpGroupNonUniformBallotBitCount, lowerBallotBitCount);
  t.lower(S::OpGroupNonUniformBallotFindLSB, lowerBallotFind<false>);
  t.lower(S::OpGroupNonUniformBallotFindMSB, lowerBallotFind<true>);
  t.lower(S::OpGroupNonUniformShuffle, lowerShuffle<Shuffle::Index>, {shadowNone});
  t.lower(S::OpGroupNonUniformShuffleXor, lowerShuffle<Shuffle::Xor>, {shadowNone});
  t.lower(S::OpGroupNonUniformShuffleUp, lowerShuffle<Shuffle::Up>, {shadowNone});
  t.lower(S::OpGroupNonUniformShuffleDown, lowerShuffle<Shuffle::Down>, {shadowNone});
  t.lower(S::OpGroupNonUniformRotateKHR, lowerShuffle<Shuffle::Rotate>, {shadowNone});
  t.lower({S::OpGroupNonUniformIAdd, S::OpGroupNonUniformIMul, S::OpGroupNonUniformSMin, S::OpGroupNonUniformUMin,
           S::OpGroupNonUniformSMax, S::OpGroupNonUniformUMax, S::OpGroupNonUniformBitwiseAnd,
           S::OpGroupNonUniformBitwiseOr, S::OpGroupNonUniformBitwiseXor, S::OpGroupNonUniformLogicalAnd,
           S::OpGroupNonUniformLogicalOr, S::OpGroupNonUniformLogicalXor},
          lowerArith);
  t.lower({S::OpGroupNonUniformFAdd, S::OpGroupNonUniformFMul, S::OpGroupNonUniformFMin, S::OpGroupNonUniformFMax},
          lowerArith, {shadowNone});
  registerSubgroupQuad(t);  // a shader's quad instructions (ops_subgroup_quad.cpp)
}

}  // namespace clref::interpreter
