// Templates shared by the instruction-family files: scalar type mapping, lane loops and
// denormal flushing. Internal to the interpreter.
#pragma once
#include <cmath>
#include <type_traits>

#include "interpreter/exec.hpp"
#include "interpreter/lanes.hpp"
#include "interpreter/lower.hpp"
#include "numerics/format.hpp"
#include "numerics/half_arith.hpp"
#include "numerics/round_toward_zero.hpp"

namespace clref::interpreter {

using numerics::Half;

template <class T> constexpr bool kIsFloat =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Half>;

// Calls f.template operator()<T>() with T the storage type of an integer kind.
template <class F> auto withInt(ScalarType s, F&& f) {
  switch (s) {
    case ScalarType::Bool:
    case ScalarType::UChar: return f.template operator()<uint8_t>();
    case ScalarType::UShort: return f.template operator()<uint16_t>();
    case ScalarType::UInt: return f.template operator()<uint32_t>();
    default: return f.template operator()<uint64_t>();
  }
}
template <class F> auto withFloat(ScalarType s, F&& f) {
  switch (s) {
    case ScalarType::Half: return f.template operator()<Half>();
    case ScalarType::Float: return f.template operator()<float>();
    default: return f.template operator()<double>();
  }
}
// Float kinds with the device's denormal mode folded into the type parameter pair.
template <class F> auto withFloatFtz(const Lowerer& L, ScalarType s, F&& f) {
  if (L.flush(s)) {
    switch (s) {
      case ScalarType::Half: return f.template operator()<Half, true>();
      case ScalarType::Float: return f.template operator()<float, true>();
      default: return f.template operator()<double, true>();
    }
  }
  switch (s) {
    case ScalarType::Half: return f.template operator()<Half, false>();
    case ScalarType::Float: return f.template operator()<float, false>();
    default: return f.template operator()<double, false>();
  }
}

// Float kinds with the denormal mode and the rounding of correctly rounded operations folded in: calls
// f.template operator()<T, Z, R>() with R true where the shader rounds T's width toward zero (Lowerer::towardZero), so
// that the default (to nearest even) handlers are the same code as before and the toward-zero ones a separate set.
template <class F> auto withFloatRounding(const Lowerer& L, ScalarType s, F&& f) {
  if (L.towardZero(s))
    return withFloatFtz(L, s, [&]<class T, bool Z>() { return f.template operator()<T, Z, true>(); });
  return withFloatFtz(L, s, [&]<class T, bool Z>() { return f.template operator()<T, Z, false>(); });
}

template <class T> using Signed = std::make_signed_t<T>;

// Bytes of a pointer, or of a handle (pipe, queue, event, named barrier), in the launch's kernel: 4 or 8.
inline uint32_t ptrBytes(const WorkItem& wi) { return wi.launch->kernel->addressBits / 8; }
// A pointer or handle of `bytes` bytes from a register, zero-extended.
inline uint64_t readWord(const WorkItem& wi, uint32_t reg, uint32_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, wi.regs + reg, bytes);
  return v;
}

// OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]: with denormals flushed, subnormal inputs and
// results become zero.
template <bool FTZ, class T> inline T ftz(T x) {
  if constexpr (FTZ)
    return numerics::flushDenorm(x);
  else
    return x;
}

// Floating-point addition and multiplication rounded once to T, to nearest even (OpenCL SPIR-V Environment §6.1
// [[_rounding_modes]]), with FTZ's flushing of subnormal operands and results (OpenCL C 3.0 §7.5.3
// [[edge-case-behavior-in-flush-to-zero-mode]]); binary16 through numerics/half_arith.hpp. OpFAdd, OpFMul and the
// work-group reductions share them. With RTZ, rounded toward zero instead (numerics/round_toward_zero.hpp; Vulkan §A.4
// [external] [[spirvenv-correctly-rounded]]: a shader's RoundingModeRTZ).
template <bool FTZ, bool RTZ, class T> inline T addRounded(T a, T b) {
  a = ftz<FTZ>(a);
  b = ftz<FTZ>(b);
  if constexpr (RTZ)
    return ftz<FTZ>(numerics::addTowardZero(a, b));
  else if constexpr (std::is_same_v<T, Half>)
    return ftz<FTZ>(numerics::addHalf(a, b));
  else
    return ftz<FTZ>(T(a + b));
}
template <bool FTZ, bool RTZ, class T> inline T mulRounded(T a, T b) {
  a = ftz<FTZ>(a);
  b = ftz<FTZ>(b);
  if constexpr (RTZ)
    return ftz<FTZ>(numerics::mulTowardZero(a, b));
  else if constexpr (std::is_same_v<T, Half>)
    return ftz<FTZ>(numerics::mulHalf(a, b));
  else
    return ftz<FTZ>(T(a * b));
}
template <bool FTZ, class T> inline T addFtz(T a, T b) { return addRounded<FTZ, false>(a, b); }
template <bool FTZ, class T> inline T mulFtz(T a, T b) { return mulRounded<FTZ, false>(a, b); }

// Lane loops. r, a, b are register offsets; n lanes of T.
template <class R, class T, class F> const Op* unaryLanes(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i)
    wr<R>(wi, op->r + i * sizeof(R), F::apply(wi, op, rd<T>(wi, op->a + i * sizeof(T))));
  return op + 1;
}
template <class R, class T, class F> const Op* binaryLanes(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i)
    wr<R>(wi, op->r + i * sizeof(R),
          F::apply(wi, op, rd<T>(wi, op->a + i * sizeof(T)), rd<T>(wi, op->b + i * sizeof(T))));
  return op + 1;
}
template <class R, class T, class F> const Op* ternaryLanes(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i)
    wr<R>(wi, op->r + i * sizeof(R),
          F::apply(wi, op, rd<T>(wi, op->a + i * sizeof(T)), rd<T>(wi, op->b + i * sizeof(T)),
                   rd<T>(wi, op->c + i * sizeof(T))));
  return op + 1;
}
// Scalar fast paths (n == 1): no loop.
template <class R, class T, class F> const Op* binary1(WorkItem& wi, const Op* op) {
  wr<R>(wi, op->r, F::apply(wi, op, rd<T>(wi, op->a), rd<T>(wi, op->b)));
  return op + 1;
}

// A functor with `static constexpr bool kLanes = true` neither warns nor decides a choice: its handlers get lane forms
// (lanes.hpp).
template <class F> constexpr bool kHasLaneForm = requires { requires F::kLanes; };

// A functor that warns or decides a choice only for some operands (integer division: a zero divisor, a signed
// overflow) says for which with `template <class T> static bool decides(T a, T b)`: its lane form runs the lanes
// before the first lane with such operands, and that lane and those after it leave the lanes there (lanes.hpp).
template <class F> constexpr bool kDecidesSome = requires { F::template decides<uint32_t>(0u, 0u); };
template <class R, class T, class F, bool Scalar> const Op* binaryWhereQuietOnLanes(LaneBatch& b, const Op* op) {
  const uint32_t n = Scalar ? 1 : op->n;
  uint32_t quiet = b.count;
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* x = b.lane0(op->a + i * sizeof(T));
    const uint8_t* y = b.lane0(op->b + i * sizeof(T));
    for (uint32_t l = 0; l < quiet; ++l)
      if (F::decides(rdLane<T>(x, l), rdLane<T>(y, l))) [[unlikely]] {
        quiet = l;
        break;
      }
  }
  LaneBatch part = b;
  part.count = quiet;
  binaryOnLanes<R, T, F, Scalar>(part, op);
  return quiet == b.count ? op + 1 : stopBefore(b, op, quiet);
}

template <class R, class T, class F> Handler binaryHandler(uint32_t lanes) {
  if constexpr (kDecidesSome<F>)
    return lanes == 1 ? laneForm<&binary1<R, T, F>, &binaryWhereQuietOnLanes<R, T, F, true>>()
                      : laneForm<&binaryLanes<R, T, F>, &binaryWhereQuietOnLanes<R, T, F, false>>();
  if constexpr (kHasLaneForm<F>)
    return lanes == 1 ? laneForm<&binary1<R, T, F>, &binaryOnLanes<R, T, F, true>>()
                      : laneForm<&binaryLanes<R, T, F>, &binaryOnLanes<R, T, F, false>>();
  return lanes == 1 ? &binary1<R, T, F> : &binaryLanes<R, T, F>;
}

// Emits a lane-wise binary/unary op on the instruction's result and first two operands.
inline Op& emitBinary(Lowerer& L, Handler fn, const Instruction& inst) {
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.n = L.lanes(inst.resultType);
  return op;
}
inline Op& emitUnary(Lowerer& L, Handler fn, const Instruction& inst) {
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = L.lanes(inst.resultType);
  return op;
}

// Integer comparisons (SPIR-V 1.0 §3.32.15 [external]); booleans are one byte, 0 or 1.
template <class T> using S = Signed<T>;
struct IEqual {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a == b; }
};
struct INotEqual {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a != b; }
};
struct UGreater {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a > b; }
};
struct UGreaterEq {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a >= b; }
};
struct ULess {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a < b; }
};
struct ULessEq {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return a <= b; }
};
struct SGreater {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return S<T>(a) > S<T>(b); }
};
struct SGreaterEq {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return S<T>(a) >= S<T>(b); }
};
struct SLess {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return S<T>(a) < S<T>(b); }
};
struct SLessEq {
  static constexpr bool kLanes = true;
  template <class T> static uint8_t apply(WorkItem&, const Op*, T a, T b) { return S<T>(a) <= S<T>(b); }
};

// Unary lane loop with a scalar fast path.
template <class R, class T, class F> const Op* unary1(WorkItem& wi, const Op* op) {
  wr<R>(wi, op->r, F::apply(wi, op, rd<T>(wi, op->a)));
  return op + 1;
}
template <class R, class T, class F> Handler unaryHandler(uint32_t lanes) {
  if constexpr (kHasLaneForm<F>)
    return lanes == 1 ? laneForm<&unary1<R, T, F>, &unaryOnLanes<R, T, F, true>>()
                      : laneForm<&unaryLanes<R, T, F>, &unaryOnLanes<R, T, F, false>>();
  return lanes == 1 ? &unary1<R, T, F> : &unaryLanes<R, T, F>;
}

// Handler pickers for lane-wise functors on the result type's integer or float kind.
template <class F> Handler intUnary(const Lowerer& L, uint32_t type) {
  return withInt(L.scalarOf(type), [&]<class T>() { return unaryHandler<T, T, F>(L.lanes(type)); });
}
template <class F> Handler intBinary(const Lowerer& L, uint32_t type) {
  return withInt(L.scalarOf(type), [&]<class T>() { return binaryHandler<T, T, F>(L.lanes(type)); });
}
template <class F> Handler intTernary(const Lowerer& L, uint32_t type) {
  return withInt(L.scalarOf(type), [&]<class T>() -> Handler { return &ternaryLanes<T, T, F>; });
}
// F<FTZ> functors on float kinds, with the device's denormal mode.
template <template <bool> class F> Handler floatUnaryFtz(const Lowerer& L, uint32_t type) {
  return withFloatFtz(L, L.scalarOf(type), [&]<class T, bool Z>() { return unaryHandler<T, T, F<Z>>(L.lanes(type)); });
}
template <template <bool> class F> Handler floatBinaryFtz(const Lowerer& L, uint32_t type) {
  return withFloatFtz(L, L.scalarOf(type), [&]<class T, bool Z>() { return binaryHandler<T, T, F<Z>>(L.lanes(type)); });
}
// F<FTZ, RTZ> functors on float kinds, with the denormal mode and the rounding (withFloatRounding).
template <template <bool, bool> class F> Handler floatBinaryRounded(const Lowerer& L, uint32_t type) {
  return withFloatRounding(L, L.scalarOf(type),
                           [&]<class T, bool Z, bool R>() { return binaryHandler<T, T, F<Z, R>>(L.lanes(type)); });
}

// Lowerings of lane-wise integer instructions on the result type (the dispatch table's entries
// for the one-line arithmetic and bitwise opcodes).
template <class F> void lowerIntBinaryOp(Lowerer& L, const Instruction& inst) {
  emitBinary(L, intBinary<F>(L, inst.resultType), inst);
}
template <class F> void lowerIntUnaryOp(Lowerer& L, const Instruction& inst) {
  emitUnary(L, intUnary<F>(L, inst.resultType), inst);
}

// Floating-point helpers that treat Half like the host types.
template <class T> inline bool isNaN(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return (x.bits & 0x7fff) > 0x7c00;
  else
    return std::isnan(x);
}
template <class T> inline double toD(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return numerics::toDouble(x);
  else
    return double(x);
}
template <class T> inline T fromD(double x) {
  if constexpr (std::is_same_v<T, Half>)
    return numerics::toHalf(x);
  else
    return T(x);
}
template <class T> inline bool signBit(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return x.bits & 0x8000;
  else
    return std::signbit(x);
}

}  // namespace clref::interpreter
