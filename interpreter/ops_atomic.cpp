// SPIR-V 1.0 §3.32.18 [external] Atomic Instructions (OpenCL C 3.0 §6.15.12 [[atomic-functions]] atomic functions, and
// the 1.x atomic_* built-ins). Every atomic is a sequentially consistent read-modify-write on the
// allocation's host memory (std::atomic_ref), which satisfies every memory order and scope the
// instruction may ask for; the access is checked like OpLoad/OpStore. Work-groups run on
// several host threads, so atomics on global memory really are atomic between them.
#include <atomic>
#include <bit>
#include <cmath>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

enum class Rmw : uint8_t { Exchange, IAdd, ISub, SMin, UMin, SMax, UMax, And, Or, Xor };
enum class FloatRmw : uint8_t { Add, Min, Max };

// Op fields: r = result, a = pointer, b = value (or comparator for compare-exchange in c),
// n = bytes (2, 4 or 8), imm = Rmw or FloatRmw.
template <class P, class T> T* atomicAddress(WorkItem& wi, const Op* op, bool write) {
  uint8_t* p = access(wi, op, rd<P>(wi, op->a), sizeof(T), sizeof(T), write);
  return reinterpret_cast<T*>(p);
}

template <class T> T applyRmw(Rmw k, std::atomic_ref<T> ref, T v) {
  using S = std::make_signed_t<T>;
  switch (k) {
    case Rmw::Exchange: return ref.exchange(v);
    case Rmw::IAdd: return ref.fetch_add(v);
    case Rmw::ISub: return ref.fetch_sub(v);
    case Rmw::And: return ref.fetch_and(v);
    case Rmw::Or: return ref.fetch_or(v);
    case Rmw::Xor: return ref.fetch_xor(v);
    default: break;
  }
  // Min/max: a compare-exchange loop with the signedness the opcode gives.
  T old = ref.load();
  for (;;) {
    T want = old;
    switch (k) {
      case Rmw::SMin: want = S(v) < S(old) ? v : old; break;
      case Rmw::SMax: want = S(v) > S(old) ? v : old; break;
      case Rmw::UMin: want = v < old ? v : old; break;
      case Rmw::UMax: want = v > old ? v : old; break;
      default: break;
    }
    if (want == old || ref.compare_exchange_weak(old, want)) return old;
  }
}

template <class P, class T> const Op* atomicRmw(WorkItem& wi, const Op* op) {
  T* p = atomicAddress<P, T>(wi, op, true);
  if (!p) return nullptr;
  wr<T>(wi, op->r, applyRmw<T>(Rmw(op->imm), std::atomic_ref<T>(*p), rd<T>(wi, op->b)));
  return op + 1;
}

double asDouble(Half h) { return numerics::toDouble(h); }
double asDouble(double x) { return x; }
bool isZero(double x) { return x == 0; }

// cl_ext_float_atomics [external] "Modifications to the OpenCL C Specification": the atomic min of the value in memory
// x and the operand y is "x if x < y and y otherwise", except min(x, NaN) = min(NaN, x) = x (clref treats a
// signalling NaN as a quiet one, which the extension allows: "NaN or x"), and min(-0, +0) = min(+0, -0) = "+0 or -0"
// (choice atomic_float_min_max_signed_zero); max likewise.
template <class F> F floatMinMax(WorkItem& wi, const Op* op, F x, F y, bool isMin) {
  const double dx = asDouble(x), dy = asDouble(y);
  if (std::isnan(dy)) return x;
  if (std::isnan(dx)) return y;
  if (isZero(dx) && isZero(dy) && std::signbit(dx) != std::signbit(dy)) {
    noteChoice(wi, op, numerics::Choice::AtomicFloatMinMaxSignedZero, "atomic min/max of -0 and +0");
    if (choicesOf(wi).get<numerics::Choice::AtomicFloatMinMaxSignedZero>() ==
        numerics::AtomicFloatSignedZeroOption::Ordered)
      return (std::signbit(dx) == isMin) ? x : y;  // -0 < +0
    return isMin ? y : x;                          // the formulas: min gives y, max gives x when neither is less
  }
  if (isMin) return dx < dy ? x : y;
  return dx < dy ? y : x;
}

// OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT (SPV_EXT_shader_atomic_float_add, _float16_add, _float_min_max
// [external]): a compare-exchange loop on the bit pattern T of the float type F; the addition is OpFAdd's, rounded
// to nearest even with the device's denormal mode (the extension: "may be affected by compiler options affecting
// floating-point behavior, such as -cl-denorms-are-zero").
template <class P, class T, class F, bool FTZ> const Op* atomicFloatRmw(WorkItem& wi, const Op* op) {
  T* p = atomicAddress<P, T>(wi, op, true);
  if (!p) return nullptr;
  const F v = std::bit_cast<F>(rd<T>(wi, op->b));
  const FloatRmw k = FloatRmw(op->imm);
  std::atomic_ref<T> ref(*p);
  T old = ref.load();
  for (;;) {
    const F x = std::bit_cast<F>(old);
    const F want = k == FloatRmw::Add ? addFtz<FTZ, F>(x, v) : floatMinMax(wi, op, x, v, k == FloatRmw::Min);
    if (ref.compare_exchange_weak(old, std::bit_cast<T>(want))) break;
  }
  wr<T>(wi, op->r, old);
  return op + 1;
}
template <class P, class T> const Op* atomicLoad(WorkItem& wi, const Op* op) {
  T* p = atomicAddress<P, T>(wi, op, false);
  if (!p) return nullptr;
  wr<T>(wi, op->r, std::atomic_ref<T>(*p).load());
  return op + 1;
}
template <class P, class T> const Op* atomicStore(WorkItem& wi, const Op* op) {
  T* p = atomicAddress<P, T>(wi, op, true);
  if (!p) return nullptr;
  std::atomic_ref<T>(*p).store(rd<T>(wi, op->b));
  return op + 1;
}
// OpAtomicCompareExchange(Weak): stores b when the value equals the comparator c; returns the
// original value. clref's weak form never fails spuriously (allowed: it may, not must).
template <class P, class T> const Op* atomicCompareExchange(WorkItem& wi, const Op* op) {
  T* p = atomicAddress<P, T>(wi, op, true);
  if (!p) return nullptr;
  T expected = rd<T>(wi, op->c);
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, rd<T>(wi, op->b));
  wr<T>(wi, op->r, expected);  // the original value in both outcomes
  return op + 1;
}
// OpAtomicFlagTestAndSet / OpAtomicFlagClear on a 32-bit flag (OpenCL C 3.0 §6.15.12.8 [[atomic-legacy]]
// atomic_flag): set means non-zero.
template <class P> const Op* atomicFlagTestAndSet(WorkItem& wi, const Op* op) {
  uint32_t* p = atomicAddress<P, uint32_t>(wi, op, true);
  if (!p) return nullptr;
  wr<uint8_t>(wi, op->r, std::atomic_ref<uint32_t>(*p).exchange(1) != 0);
  return op + 1;
}
template <class P> const Op* atomicFlagClear(WorkItem& wi, const Op* op) {
  uint32_t* p = atomicAddress<P, uint32_t>(wi, op, true);
  if (!p) return nullptr;
  std::atomic_ref<uint32_t>(*p).store(0);
  return op + 1;
}

template <template <class, class> class H, class P> Handler pickValue(uint32_t bytes) {
  return bytes == 8 ? &H<P, uint64_t>::fn : bytes == 2 ? &H<P, uint16_t>::fn : &H<P, uint32_t>::fn;
}
template <template <class, class> class H> Handler pick(bool p64, uint32_t bytes) {
  return p64 ? pickValue<H, uint64_t>(bytes) : pickValue<H, uint32_t>(bytes);
}
template <class P, class T> struct RmwH {
  static const Op* fn(WorkItem& wi, const Op* op) { return atomicRmw<P, T>(wi, op); }
};
template <class P, class T> struct LoadH {
  static const Op* fn(WorkItem& wi, const Op* op) { return atomicLoad<P, T>(wi, op); }
};
template <class P, class T> struct StoreH {
  static const Op* fn(WorkItem& wi, const Op* op) { return atomicStore<P, T>(wi, op); }
};
template <class P, class T> struct CasH {
  static const Op* fn(WorkItem& wi, const Op* op) { return atomicCompareExchange<P, T>(wi, op); }
};

// OpenCL atomics are on 32- and 64-bit integers and floats, and (cl_ext_float_atomics) on halves.
uint32_t valueBytes(const Lowerer& L, const Instruction& inst, uint32_t typeId) {
  const Type& t = L.type(typeId);
  const uint32_t b = uint32_t(t.size);
  // 16-bit integers: the compiler's prelude adds atomic_half by a compare-exchange loop on the half's bits.
  if (b != 2 && b != 4 && b != 8)
    L.reject(inst, "atomic on a " + std::to_string(b) +
                       "-byte value (OpenCL atomics are on 32- and 64-bit values, "
                       "and on halves with cl_ext_float_atomics)");
  return b;
}

void lowerAtomicLoad(Lowerer& L, const Instruction& inst) {
  const uint32_t bytes = valueBytes(L, inst, inst.resultType);
  Op& op = L.emit(pick<LoadH>(L.ptrBytes() == 8, bytes), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
}

void lowerAtomicStore(Lowerer& L, const Instruction& inst) {
  const uint32_t bytes = valueBytes(L, inst, L.typeIdOfValue(inst.operand(3)));
  Op& op = L.emit(pick<StoreH>(L.ptrBytes() == 8, bytes), inst);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(3));
}

// Read-modify-write atomics: kind K with the Value operand, or (OpAtomicIIncrement/IDecrement)
// with a constant 1 kept in scratch.
template <Rmw K, bool HasValue> void lowerAtomicRmw(Lowerer& L, const Instruction& inst) {
  const uint32_t bytes = valueBytes(L, inst, inst.resultType);
  Op& op = L.emit(pick<RmwH>(L.ptrBytes() == 8, bytes), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  if constexpr (HasValue) {
    op.b = L.reg(inst.operand(3));
  } else {
    op.b = L.scratch(8);
    const uint64_t one = 1;
    std::memcpy(L.k.registerTemplate.data() + op.b, &one, 8);
  }
  op.n = bytes;
  op.imm = uint64_t(K);
}

// OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT on half, float or double.
template <FloatRmw K> void lowerAtomicFloat(Lowerer& L, const Instruction& inst) {
  valueBytes(L, inst, inst.resultType);
  const ScalarType s = L.scalarOf(inst.resultType);
  if (s != ScalarType::Half && s != ScalarType::Float && s != ScalarType::Double)
    L.reject(inst, opcodeName(inst.opcode) + " on a value that is not a float");
  const bool p64 = L.ptrBytes() == 8;
  const Handler fn = withFloatFtz(L, s, [&]<class F, bool Z>() -> Handler {
    using T = std::conditional_t<sizeof(F) == 2, uint16_t, std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>;
    return p64 ? &atomicFloatRmw<uint64_t, T, F, Z> : &atomicFloatRmw<uint32_t, T, F, Z>;
  });
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(3));
  op.n = uint32_t(L.type(inst.resultType).size);
  op.imm = uint64_t(K);
}

// OpAtomicCompareExchange, OpAtomicCompareExchangeWeak.
void lowerAtomicCompareExchange(Lowerer& L, const Instruction& inst) {
  // Operands: Pointer, Scope, Equal semantics, Unequal semantics, Value, Comparator.
  const uint32_t bytes = valueBytes(L, inst, inst.resultType);
  Op& op = L.emit(pick<CasH>(L.ptrBytes() == 8, bytes), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(4));
  op.c = L.reg(inst.operand(5));
}

void lowerAtomicFlagTestAndSet(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(L.ptrBytes() == 8 ? &atomicFlagTestAndSet<uint64_t> : &atomicFlagTestAndSet<uint32_t>, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
}

void lowerAtomicFlagClear(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(L.ptrBytes() == 8 ? &atomicFlagClear<uint64_t> : &atomicFlagClear<uint32_t>, inst);
  op.a = L.reg(inst.operand(0));
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// Every atomic: the value it returns, and for some the value it leaves, depend on the order in which the work-items
// reach it (shAtomic). Exchange, compare-exchange and store leave an order-dependent value in memory; so does the
// float addition, which is not associative; float min and max may leave either of -0 and +0.
void shadowAtomic(ShadowLowering& S) {
  using spv::Op;
  const Op o = S.inst.opcode;
  Lowerer& L = S.L;
  auto& t = L.k.tables.emplace_back();
  // Value operands: after the pointer, scope and semantics (and the second semantics of compare-exchange).
  const size_t first = o == Op::OpAtomicCompareExchange || o == Op::OpAtomicCompareExchangeWeak ? 4 : 3;
  for (size_t k = first; k < S.inst.operandCount(); ++k)
    if (L.hasReg(S.operand(k)) && !L.isConstant(S.operand(k))) {
      t.push_back(L.reg(S.operand(k)));
      t.push_back(uint32_t(L.typeOfValue(S.operand(k)).size));
    }
  interpreter::Op& op = L.emit(&shAtomic, S.inst);
  op.a = L.reg(S.operand(0));
  op.n = uint32_t(L.type(L.typeOfValue(S.operand(0)).element).size);
  op.r = S.inst.resultId ? L.reg(S.inst.resultId) : ~0u;
  op.imm = o == Op::OpAtomicExchange || o == Op::OpAtomicCompareExchange || o == Op::OpAtomicCompareExchangeWeak ||
                   o == Op::OpAtomicStore || o == Op::OpAtomicFAddEXT
               ? 1
               : 0;
  if (o == Op::OpAtomicFMinEXT || o == Op::OpAtomicFMaxEXT) {
    op.imm = 2;
    op.b = L.reg(S.operand(3));
  }
  op.aux = &t;
}

}  // namespace

// A kernel with atomics may have work-items wait on each other (a spin on a flag another sets): the scheduler then
// keeps all of a work-group's work-items live and time-slices them (LoweredKernel::usesAtomics, scheduler.cpp).
template <LowerFn F> void live(Lowerer& L, const Instruction& inst) {
  L.k.usesAtomics = true;
  F(L, inst);
}

void registerAtomic(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpAtomicLoad, live<lowerAtomicLoad>, {shadowAtomic});
  t.lower(Op::OpAtomicStore, live<lowerAtomicStore>, {shadowAtomic});
  t.lower(Op::OpAtomicExchange, live<lowerAtomicRmw<Rmw::Exchange, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicIAdd, live<lowerAtomicRmw<Rmw::IAdd, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicISub, live<lowerAtomicRmw<Rmw::ISub, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicSMin, live<lowerAtomicRmw<Rmw::SMin, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicUMin, live<lowerAtomicRmw<Rmw::UMin, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicSMax, live<lowerAtomicRmw<Rmw::SMax, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicUMax, live<lowerAtomicRmw<Rmw::UMax, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicAnd, live<lowerAtomicRmw<Rmw::And, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicOr, live<lowerAtomicRmw<Rmw::Or, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicXor, live<lowerAtomicRmw<Rmw::Xor, true>>, {shadowAtomic});
  t.lower(Op::OpAtomicFAddEXT, live<lowerAtomicFloat<FloatRmw::Add>>, {shadowAtomic});
  t.lower(Op::OpAtomicFMinEXT, live<lowerAtomicFloat<FloatRmw::Min>>, {shadowAtomic});
  t.lower(Op::OpAtomicFMaxEXT, live<lowerAtomicFloat<FloatRmw::Max>>, {shadowAtomic});
  t.lower(Op::OpAtomicIIncrement, live<lowerAtomicRmw<Rmw::IAdd, false>>, {shadowAtomic});
  t.lower(Op::OpAtomicIDecrement, live<lowerAtomicRmw<Rmw::ISub, false>>, {shadowAtomic});
  t.lower({Op::OpAtomicCompareExchange, Op::OpAtomicCompareExchangeWeak}, live<lowerAtomicCompareExchange>, {shadowAtomic});
  t.lower(Op::OpAtomicFlagTestAndSet, live<lowerAtomicFlagTestAndSet>);
  t.lower(Op::OpAtomicFlagClear, live<lowerAtomicFlagClear>);
}

}  // namespace clref::interpreter
