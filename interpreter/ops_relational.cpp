// SPIR-V 1.0 §3.32.15 Relational and Logical Instructions. Booleans are one byte, 0 or 1.
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

struct LogicalAnd {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a && b; }
};
struct LogicalOr {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a || b; }
};
struct LogicalEqual {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return (a != 0) == (b != 0); }
};
struct LogicalNotEqual {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return (a != 0) != (b != 0); }
};
struct LogicalNot {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return !a; }
};

// Float comparisons: "ordered" ones are false when either operand is NaN, "unordered" ones
// true (SPIR-V 1.0 §3.32.15 OpFOrdEqual … OpFUnordGreaterThanEqual). Denormal flushing affects
// comparisons too (a flushed subnormal equals zero), OpenCL C 3.0 §7.5.3.
enum class Cmp { Eq, Ne, Lt, Gt, Le, Ge };
template <Cmp C, bool Ordered, bool FTZ> struct FCompare {
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
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return isNaN(a); }
};
template <bool FTZ> struct IsInfOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return std::isinf(toD(a)); }
};
template <bool FTZ> struct IsFiniteOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return std::isfinite(toD(a)); }
};
// isnormal of a binary16 or binary32 value must use that format's normal range, not double's.
template <bool FTZ> struct IsNormalOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>) {
      const unsigned e = (a.bits >> 10) & 0x1f;
      return e != 0 && e != 0x1f;
    } else {
      return std::isnormal(a);
    }
  }
};
template <bool FTZ> struct SignBitSetOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a) { return signBit(a); }
};
template <bool FTZ> struct OrderedOp {
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return !isNaN(a) && !isNaN(b); }
};
template <bool FTZ> struct UnorderedOp {
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
                      [&]<class T, bool Z>() -> Handler { return &unaryLanes<uint8_t, T, F<Z>>; });
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
const Op* selectLanes(WorkItem& wi, const Op* op) {
  const uint32_t bytes = uint32_t(op->imm);
  for (uint32_t i = 0; i < op->n; ++i) {
    const uint32_t src = rd<uint8_t>(wi, op->a + i) ? op->b : op->c;
    std::memmove(wi.regs + op->r + i * bytes, wi.regs + src + i * bytes, bytes);
  }
  return op + 1;
}

}  // namespace

bool lowerRelational(Lowerer& L, const Instruction& inst) {
  if (inst.resultId && L.isElided(inst.resultId)) {
    switch (inst.opcode) {  // computed inside the branch that consumes it
      case spv::Op::OpIEqual:
      case spv::Op::OpINotEqual:
      case spv::Op::OpUGreaterThan:
      case spv::Op::OpUGreaterThanEqual:
      case spv::Op::OpULessThan:
      case spv::Op::OpULessThanEqual:
      case spv::Op::OpSGreaterThan:
      case spv::Op::OpSGreaterThanEqual:
      case spv::Op::OpSLessThan:
      case spv::Op::OpSLessThanEqual: return true;
      default: break;
    }
  }

  const auto opType = [&] { return L.typeIdOfValue(inst.operand(0)); };
  switch (inst.opcode) {
    case spv::Op::OpIEqual: emitBinary(L, intCmp<IEqual>(L, opType()), inst); return true;
    case spv::Op::OpINotEqual: emitBinary(L, intCmp<INotEqual>(L, opType()), inst); return true;
    case spv::Op::OpUGreaterThan: emitBinary(L, intCmp<UGreater>(L, opType()), inst); return true;
    case spv::Op::OpUGreaterThanEqual: emitBinary(L, intCmp<UGreaterEq>(L, opType()), inst); return true;
    case spv::Op::OpULessThan: emitBinary(L, intCmp<ULess>(L, opType()), inst); return true;
    case spv::Op::OpULessThanEqual: emitBinary(L, intCmp<ULessEq>(L, opType()), inst); return true;
    case spv::Op::OpSGreaterThan: emitBinary(L, intCmp<SGreater>(L, opType()), inst); return true;
    case spv::Op::OpSGreaterThanEqual: emitBinary(L, intCmp<SGreaterEq>(L, opType()), inst); return true;
    case spv::Op::OpSLessThan: emitBinary(L, intCmp<SLess>(L, opType()), inst); return true;
    case spv::Op::OpSLessThanEqual: emitBinary(L, intCmp<SLessEq>(L, opType()), inst); return true;
    case spv::Op::OpLogicalAnd: emitBinary(L, intCmp<LogicalAnd>(L, opType()), inst); return true;
    case spv::Op::OpLogicalOr: emitBinary(L, intCmp<LogicalOr>(L, opType()), inst); return true;
    case spv::Op::OpLogicalEqual: emitBinary(L, intCmp<LogicalEqual>(L, opType()), inst); return true;
    case spv::Op::OpLogicalNotEqual: emitBinary(L, intCmp<LogicalNotEqual>(L, opType()), inst); return true;
    case spv::Op::OpLogicalNot: emitUnary(L, &unaryLanes<uint8_t, uint8_t, LogicalNot>, inst); return true;
    case spv::Op::OpFOrdEqual: emitBinary(L, floatCmp<Cmp::Eq, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordEqual: emitBinary(L, floatCmp<Cmp::Eq, false>(L, opType()), inst); return true;
    case spv::Op::OpFOrdNotEqual:
    case spv::Op::OpLessOrGreater: emitBinary(L, floatCmp<Cmp::Ne, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordNotEqual: emitBinary(L, floatCmp<Cmp::Ne, false>(L, opType()), inst); return true;
    case spv::Op::OpFOrdLessThan: emitBinary(L, floatCmp<Cmp::Lt, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordLessThan: emitBinary(L, floatCmp<Cmp::Lt, false>(L, opType()), inst); return true;
    case spv::Op::OpFOrdGreaterThan: emitBinary(L, floatCmp<Cmp::Gt, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordGreaterThan: emitBinary(L, floatCmp<Cmp::Gt, false>(L, opType()), inst); return true;
    case spv::Op::OpFOrdLessThanEqual: emitBinary(L, floatCmp<Cmp::Le, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordLessThanEqual: emitBinary(L, floatCmp<Cmp::Le, false>(L, opType()), inst); return true;
    case spv::Op::OpFOrdGreaterThanEqual: emitBinary(L, floatCmp<Cmp::Ge, true>(L, opType()), inst); return true;
    case spv::Op::OpFUnordGreaterThanEqual: emitBinary(L, floatCmp<Cmp::Ge, false>(L, opType()), inst); return true;
    case spv::Op::OpIsNan: emitUnary(L, floatTest<IsNanOp>(L, opType()), inst); return true;
    case spv::Op::OpIsInf: emitUnary(L, floatTest<IsInfOp>(L, opType()), inst); return true;
    case spv::Op::OpIsFinite: emitUnary(L, floatTest<IsFiniteOp>(L, opType()), inst); return true;
    case spv::Op::OpIsNormal: emitUnary(L, floatTest<IsNormalOp>(L, opType()), inst); return true;
    case spv::Op::OpSignBitSet: emitUnary(L, floatTest<SignBitSetOp>(L, opType()), inst); return true;
    case spv::Op::OpOrdered: emitBinary(L, floatTest2<OrderedOp>(L, opType()), inst); return true;
    case spv::Op::OpUnordered: emitBinary(L, floatTest2<UnorderedOp>(L, opType()), inst); return true;
    case spv::Op::OpAny:
    case spv::Op::OpAll: {
      auto& op = emitUnary(L, inst.opcode == spv::Op::OpAll ? &anyAll<true> : &anyAll<false>, inst);
      op.n = L.lanes(opType());
      return true;
    }
    case spv::Op::OpSelect: {
      const uint32_t condType = L.typeIdOfValue(inst.operand(0));
      const Type& rt = L.type(inst.resultType);
      Handler fn;
      uint32_t n = uint32_t(rt.size);
      uint64_t imm = 0;
      if (L.type(condType).kind == TypeKind::Vector) {
        fn = &selectLanes;
        n = L.lanes(condType);
        imm = rt.size / (rt.count == 3 ? 4 : rt.count);
      } else if (rt.size == 4) {
        fn = &selectScalarT<uint32_t>;
      } else if (rt.size == 8) {
        fn = &selectScalarT<uint64_t>;
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
      return true;
    }
    default: return false;
  }
}

}  // namespace clref::interpreter
