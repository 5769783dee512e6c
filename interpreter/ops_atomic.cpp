// SPIR-V 1.0 §3.32.18 [external] Atomic Instructions (OpenCL C 3.0 §6.15.12 [[atomic-functions]] atomic functions, and
// the 1.x atomic_* built-ins). Every atomic is a sequentially consistent read-modify-write on the
// allocation's host memory (std::atomic_ref), which satisfies every memory order and scope the
// instruction may ask for; the access is checked like OpLoad/OpStore. Work-groups run on
// several host threads, so atomics on global memory really are atomic between them.
#include <atomic>
#include <bit>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

enum class Rmw : uint8_t { Exchange, IAdd, ISub, SMin, UMin, SMax, UMax, And, Or, Xor, FAdd };

// Op fields: r = result, a = pointer, b = value (or comparator for compare-exchange in c),
// n = bytes (4 or 8), imm = Rmw.
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
  const Rmw k = Rmw(op->imm);
  T old;
  if (k == Rmw::FAdd) {
    // OpAtomicFAddEXT on float/double bits: a compare-exchange loop on the bit pattern, the
    // addition rounded to nearest even as OpFAdd.
    using F = std::conditional_t<sizeof(T) == 4, float, double>;
    std::atomic_ref<T> ref(*p);
    old = ref.load();
    for (;;) {
      const F sum = std::bit_cast<F>(old) + std::bit_cast<F>(rd<T>(wi, op->b));
      if (ref.compare_exchange_weak(old, std::bit_cast<T>(sum))) break;
    }
  } else {
    old = applyRmw<T>(k, std::atomic_ref<T>(*p), rd<T>(wi, op->b));
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

template <template <class, class> class H> Handler pick(bool p64, uint32_t bytes) {
  if (p64) return bytes == 8 ? &H<uint64_t, uint64_t>::fn : &H<uint64_t, uint32_t>::fn;
  return bytes == 8 ? &H<uint32_t, uint64_t>::fn : &H<uint32_t, uint32_t>::fn;
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

uint32_t valueBytes(const Lowerer& L, const Instruction& inst, uint32_t typeId) {
  const uint32_t b = uint32_t(L.type(typeId).size);
  if (b != 4 && b != 8)
    L.reject(inst, "atomic on a " + std::to_string(b) + "-byte value (OpenCL atomics are 32 or 64 bits)");
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

}  // namespace

void registerAtomic(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpAtomicLoad, lowerAtomicLoad);
  t.lower(Op::OpAtomicStore, lowerAtomicStore);
  t.lower(Op::OpAtomicExchange, lowerAtomicRmw<Rmw::Exchange, true>);
  t.lower(Op::OpAtomicIAdd, lowerAtomicRmw<Rmw::IAdd, true>);
  t.lower(Op::OpAtomicISub, lowerAtomicRmw<Rmw::ISub, true>);
  t.lower(Op::OpAtomicSMin, lowerAtomicRmw<Rmw::SMin, true>);
  t.lower(Op::OpAtomicUMin, lowerAtomicRmw<Rmw::UMin, true>);
  t.lower(Op::OpAtomicSMax, lowerAtomicRmw<Rmw::SMax, true>);
  t.lower(Op::OpAtomicUMax, lowerAtomicRmw<Rmw::UMax, true>);
  t.lower(Op::OpAtomicAnd, lowerAtomicRmw<Rmw::And, true>);
  t.lower(Op::OpAtomicOr, lowerAtomicRmw<Rmw::Or, true>);
  t.lower(Op::OpAtomicXor, lowerAtomicRmw<Rmw::Xor, true>);
  t.lower(Op::OpAtomicFAddEXT, lowerAtomicRmw<Rmw::FAdd, true>);
  t.lower(Op::OpAtomicIIncrement, lowerAtomicRmw<Rmw::IAdd, false>);
  t.lower(Op::OpAtomicIDecrement, lowerAtomicRmw<Rmw::ISub, false>);
  t.lower({Op::OpAtomicCompareExchange, Op::OpAtomicCompareExchangeWeak}, lowerAtomicCompareExchange);
  t.lower(Op::OpAtomicFlagTestAndSet, lowerAtomicFlagTestAndSet);
  t.lower(Op::OpAtomicFlagClear, lowerAtomicFlagClear);
}

}  // namespace clref::interpreter
