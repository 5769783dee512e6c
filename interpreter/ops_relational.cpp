// SPIR-V 1.0 §3.32.15 [external] Relational and Logical Instructions. Booleans are one byte, 0 or 1.
#include "interpreter/dispatch.hpp"
#include "interpreter/lanes.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

struct LogicalAnd {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a && b; }
};
struct LogicalOr {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a || b; }
};
struct LogicalEqual {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return (a != 0) == (b != 0); }
};
struct LogicalNotEqual {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return (a != 0) != (b != 0); }
};
struct LogicalNot {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return !a; }
};

// Float comparisons: "ordered" ones are false when either operand is NaN, "unordered" ones
// true (SPIR-V 1.0 §3.32.15 [external] OpFOrdEqual … OpFUnordGreaterThanEqual). Denormal flushing affects
// comparisons too (a flushed subnormal equals zero), OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]].
enum class Cmp { Eq, Ne, Lt, Gt, Le, Ge };
template <Cmp C, bool Ordered, bool FTZ> struct FCompare {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) {
    const double x = toD(ftz<FTZ>(a)), y = toD(ftz<FTZ>(b));
    if (std::isnan(x) || std::isnan(y)) return !Ordered;
    switch (C) {
      case Cmp::Eq: return x == y;
      case Cmp::Ne: return x != y;
      case Cmp::Lt: return x < y;
      case Cmp::Gt: return x > y;
      case Cmp::Le: return x <= y;
      case Cmp::Ge: return x >= y;
    }
    return 0;
  }
};
// OpLessOrGreater (deprecated alias of OpFOrdNotEqual).
template <bool FTZ> struct IsNanOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return isNaN(a); }
};
template <bool FTZ> struct IsInfOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return std::isinf(toD(a)); }
};
template <bool FTZ> struct IsFiniteOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return std::isfinite(toD(a)); }
};
// isnormal of a binary16 or binary32 value must use that format's normal range, not double's.
template <bool FTZ> struct IsNormalOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>) {
      const unsigned e = (a.bits >> 10) & 0x1f;
      return e != 0 && e != 0x1f;
    } else {
      return std::isnormal(a);
    }
  }
};
// No lane form: GCC 12 fails (internal compiler error) vectorising the lane loop of std::signbit on floats.
template <bool FTZ> struct SignBitSetOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return signBit(a); }
};
template <bool FTZ> struct OrderedOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return !isNaN(a) && !isNaN(b); }
};
template <bool FTZ> struct UnorderedOp {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return isNaN(a) || isNaN(b); }
};

template <class F> Handler intCmp(const Lowerer& L, uint32_t operandType) {
  return withInt(L.scalarOf(operandType),
                 [&]<class T>() { return binaryHandler<uint8_t, T, F>(L.lanes(operandType)); });
}
template <Cmp C, bool Ordered> Handler floatCmp(const Lowerer& L, uint32_t operandType) {
  return withFloatFtz(L, L.scalarOf(operandType), [&]<class T, bool Z>() {
    return binaryHandler<uint8_t, T, FCompare<C, Ordered, Z>>(L.lanes(operandType));
  });
}
template <template <bool> class F> Handler floatTest(const Lowerer& L, uint32_t operandType) {
  return withFloatFtz(L, L.scalarOf(operandType),
                      [&]<class T, bool Z>() { return unaryHandler<uint8_t, T, F<Z>>(L.lanes(operandType)); });
}
template <template <bool> class F> Handler floatTest2(const Lowerer& L, uint32_t operandType) {
  return withFloatFtz(L, L.scalarOf(operandType),
                      [&]<class T, bool Z>() { return binaryHandler<uint8_t, T, F<Z>>(L.lanes(operandType)); });
}

// OpAny / OpAll over a boolean vector.
template <bool All> const Op* anyAll(WorkItem& wi, const Op* op) {
  bool acc = All;
  for (uint32_t i = 0; i < op->n; ++i) {
    const bool v = rd<uint8_t>(wi, op->a + i);
    acc = All ? (acc && v) : (acc || v);
  }
  wr<uint8_t>(wi, op->r, acc);
  return op + 1;
}

// OpSelect: scalar condition selects whole objects; a vector condition selects per lane
// (SPIR-V 1.4 allows composite objects with a scalar condition).
const Op* selectScalar(WorkItem& wi, const Op* op) {
  const uint32_t src = rd<uint8_t>(wi, op->a) ? op->b : op->c;
  std::memmove(wi.regs + op->r, wi.regs + src, op->n);
  return op + 1;
}
template <class T> const Op* selectScalarT(WorkItem& wi, const Op* op) {
  wr<T>(wi, op->r, rd<T>(wi, rd<uint8_t>(wi, op->a) ? op->b : op->c));
  return op + 1;
}
// Its lane form for a scalar condition and object (lanes.hpp).
template <class T> const Op* selectScalarOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t* __restrict c = b.lane0(op->a);
  const uint8_t* __restrict x = b.lane0(op->b);
  const uint8_t* __restrict y = b.lane0(op->c);
  uint8_t* __restrict r = b.lane0(op->r);
  for (uint32_t l = 0, count = b.count; l < count; ++l)
    wrLane<T>(r, l, c[size_t(l) * 8] ? rdLane<T>(x, l) : rdLane<T>(y, l));
  return op + 1;
}
const Op* selectLanes(WorkItem& wi, const Op* op) {
  const uint32_t bytes = uint32_t(op->imm);
  for (uint32_t i = 0; i < op->n; ++i) {
    const uint32_t src = rd<uint8_t>(wi, op->a + i) ? op->b : op->c;
    std::memmove(wi.regs + op->r + i * bytes, wi.regs + src + i * bytes, bytes);
  }
  return op + 1;
}

uint32_t operandType(const Lowerer& L, const Instruction& inst) { return L.typeIdOfValue(inst.operand(0)); }

// Integer comparisons; one fused into the conditional branch that consumes it emits nothing.
template <class F> void lowerIntCompare(Lowerer& L, const Instruction& inst) {
  if (L.isElided(inst.resultId)) return;  // computed inside the branch that consumes it
  emitBinary(L, intCmp<F>(L, operandType(L, inst)), inst);
}
template <class F> void lowerLogical(Lowerer& L, const Instruction& inst) {
  emitBinary(L, intCmp<F>(L, operandType(L, inst)), inst);
}
void lowerLogicalNot(Lowerer& L, const Instruction& inst) {
  emitUnary(L, unaryHandler<uint8_t, uint8_t, LogicalNot>(L.lanes(operandType(L, inst))), inst);
}
template <Cmp C, bool Ordered> void lowerFloatCompare(Lowerer& L, const Instruction& inst) {
  emitBinary(L, floatCmp<C, Ordered>(L, operandType(L, inst)), inst);
}
template <template <bool> class F> void lowerFloatTest(Lowerer& L, const Instruction& inst) {
  emitUnary(L, floatTest<F>(L, operandType(L, inst)), inst);
}
template <template <bool> class F> void lowerFloatTest2(Lowerer& L, const Instruction& inst) {
  emitBinary(L, floatTest2<F>(L, operandType(L, inst)), inst);
}

// OpAny, OpAll.
void lowerAnyAll(Lowerer& L, const Instruction& inst) {
  auto& op = emitUnary(L, inst.opcode == spv::Op::OpAll ? &anyAll<true> : &anyAll<false>, inst);
  op.n = L.lanes(operandType(L, inst));
}

void lowerSelect(Lowerer& L, const Instruction& inst) {
  const uint32_t condType = L.typeIdOfValue(inst.operand(0));
  const Type& rt = L.type(inst.resultType);
  Handler fn;
  uint32_t n = uint32_t(rt.size);
  uint64_t imm = 0;
  if (L.type(condType).kind == TypeKind::Vector) {
    fn = &selectLanes;
    n = L.lanes(condType);
    imm = rt.size / (rt.count == 3 ? 4 : rt.count);
  } else if (rt.size == 1) {  // a bool
    fn = laneForm<&selectScalarT<uint8_t>, &selectScalarOnLanes<uint8_t>>();
  } else if (rt.size == 2) {
    fn = laneForm<&selectScalarT<uint16_t>, &selectScalarOnLanes<uint16_t>>();
  } else if (rt.size == 4) {
    fn = laneForm<&selectScalarT<uint32_t>, &selectScalarOnLanes<uint32_t>>();
  } else if (rt.size == 8) {
    fn = laneForm<&selectScalarT<uint64_t>, &selectScalarOnLanes<uint64_t>>();
  } else {
    fn = &selectScalar;
  }
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.c = L.reg(inst.operand(2));
  op.n = n;
  op.imm = imm;
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// Float comparisons and OpOrdered/OpUnordered: a decision when the operands' sets do not fix the outcome.
void shadowCompare2(ShadowLowering& S) { S.compare({S.operand(0), S.operand(1)}); }
// The classification instructions: the same for one operand.
void shadowCompare1(ShadowLowering& S) { S.compare({S.operand(0)}); }
// OpSelect: the chosen operand's set, or both operands' when the condition is undetermined.
void shadowSelect(ShadowLowering& S) { S.select(S.operand(0), S.operand(1), S.operand(2), false); }

}  // namespace

void registerRelational(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpIEqual, lowerIntCompare<IEqual>);
  t.lower(Op::OpINotEqual, lowerIntCompare<INotEqual>);
  t.lower(Op::OpUGreaterThan, lowerIntCompare<UGreater>);
  t.lower(Op::OpUGreaterThanEqual, lowerIntCompare<UGreaterEq>);
  t.lower(Op::OpULessThan, lowerIntCompare<ULess>);
  t.lower(Op::OpULessThanEqual, lowerIntCompare<ULessEq>);
  t.lower(Op::OpSGreaterThan, lowerIntCompare<SGreater>);
  t.lower(Op::OpSGreaterThanEqual, lowerIntCompare<SGreaterEq>);
  t.lower(Op::OpSLessThan, lowerIntCompare<SLess>);
  t.lower(Op::OpSLessThanEqual, lowerIntCompare<SLessEq>);
  t.lower(Op::OpLogicalAnd, lowerLogical<LogicalAnd>);
  t.lower(Op::OpLogicalOr, lowerLogical<LogicalOr>);
  t.lower(Op::OpLogicalEqual, lowerLogical<LogicalEqual>);
  t.lower(Op::OpLogicalNotEqual, lowerLogical<LogicalNotEqual>);
  t.lower(Op::OpLogicalNot, lowerLogicalNot);
  t.lower(Op::OpFOrdEqual, lowerFloatCompare<Cmp::Eq, true>, {shadowCompare2});
  t.lower(Op::OpFUnordEqual, lowerFloatCompare<Cmp::Eq, false>, {shadowCompare2});
  t.lower({Op::OpFOrdNotEqual, Op::OpLessOrGreater}, lowerFloatCompare<Cmp::Ne, true>, {shadowCompare2});
  t.lower(Op::OpFUnordNotEqual, lowerFloatCompare<Cmp::Ne, false>, {shadowCompare2});
  t.lower(Op::OpFOrdLessThan, lowerFloatCompare<Cmp::Lt, true>, {shadowCompare2});
  t.lower(Op::OpFUnordLessThan, lowerFloatCompare<Cmp::Lt, false>, {shadowCompare2});
  t.lower(Op::OpFOrdGreaterThan, lowerFloatCompare<Cmp::Gt, true>, {shadowCompare2});
  t.lower(Op::OpFUnordGreaterThan, lowerFloatCompare<Cmp::Gt, false>, {shadowCompare2});
  t.lower(Op::OpFOrdLessThanEqual, lowerFloatCompare<Cmp::Le, true>, {shadowCompare2});
  t.lower(Op::OpFUnordLessThanEqual, lowerFloatCompare<Cmp::Le, false>, {shadowCompare2});
  t.lower(Op::OpFOrdGreaterThanEqual, lowerFloatCompare<Cmp::Ge, true>, {shadowCompare2});
  t.lower(Op::OpFUnordGreaterThanEqual, lowerFloatCompare<Cmp::Ge, false>, {shadowCompare2});
  t.lower(Op::OpIsNan, lowerFloatTest<IsNanOp>, {shadowCompare1});
  t.lower(Op::OpIsInf, lowerFloatTest<IsInfOp>, {shadowCompare1});
  t.lower(Op::OpIsFinite, lowerFloatTest<IsFiniteOp>, {shadowCompare1});
  t.lower(Op::OpIsNormal, lowerFloatTest<IsNormalOp>, {shadowCompare1});
  t.lower(Op::OpSignBitSet, lowerFloatTest<SignBitSetOp>, {shadowCompare1});
  t.lower(Op::OpOrdered, lowerFloatTest2<OrderedOp>, {shadowCompare2});
  t.lower(Op::OpUnordered, lowerFloatTest2<UnorderedOp>, {shadowCompare2});
  t.lower({Op::OpAny, Op::OpAll}, lowerAnyAll);
  t.lower(Op::OpSelect, lowerSelect, {shadowSelect});
}

}  // namespace clref::interpreter
