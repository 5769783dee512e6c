// OpExtInst dispatch (SPIR-V 1.0 §3.32.7) for the OpenCL.std extended instruction set
// (OpenCL Extended Instruction Set Specification; semantics from OpenCL C 3.0 §6.15).
#include <cmath>
#include <limits>

#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

// OpenCL.std opcodes (extinst.opencl.std.100.grammar.json).
enum class Std : uint32_t {
  ceil = 12, copysign = 13, fabs = 23, floor = 25, fma = 26, fmax = 27, fmin = 28, mad = 42,
  rint = 53, round = 55, sqrt = 61, trunc = 66,
  s_abs = 141, s_clamp = 149, u_clamp = 150, s_max = 156, u_max = 157, s_min = 158, u_min = 159,
  u_abs = 201,
};

// §6.15.2 fabs, copysign: sign-bit operations, exact.
struct Fabs {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>) return Half{uint16_t(a.bits & 0x7fff)};
    else return std::fabs(a);
  }
};
struct Copysign {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    if constexpr (std::is_same_v<T, Half>) return Half{uint16_t((a.bits & 0x7fff) | (b.bits & 0x8000))};
    else return std::copysign(a, b);
  }
};
// §6.15.2 fmin/fmax: "If one argument is a NaN, fmin() returns the other argument. If both
// arguments are NaNs, fmin() returns a NaN." −0 is treated as less than +0 (IEEE 754-2019
// minimum/maximum ordering; the OpenCL spec does not fix the sign of a zero result).
template <bool Max, bool FTZ> struct FMinMax {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    a = ftz<FTZ>(a); b = ftz<FTZ>(b);
    if (isNaN(a)) return b;
    if (isNaN(b)) return a;
    const double x = toD(a), y = toD(b);
    if (x == y) return (signBit(a) != Max) ? a : b;  // equal: pick by sign (zeros)
    return (x < y) != Max ? a : b;
  }
};
// §6.15.2 ceil, floor, trunc, rint, round: exact (results are representable).
template <int Kind, bool FTZ> struct Rounding {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    const double x = toD(ftz<FTZ>(a));
    double r;
    switch (Kind) {
      case 0: r = std::ceil(x); break;
      case 1: r = std::floor(x); break;
      case 2: r = std::trunc(x); break;
      case 3: r = std::nearbyint(x); break;  // round to nearest even (default FP environment)
      default: r = std::round(x); break;     // halfway cases away from zero
    }
    return fromD<T>(r);  // exact: an integral value of the same format
  }
};
// §6.15.2 sqrt: clref gives the correctly rounded square root (the host's IEEE sqrt; binary16
// via binary32, innocuous double rounding).
template <bool FTZ> struct Sqrt {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    a = ftz<FTZ>(a);
    if constexpr (std::is_same_v<T, Half>) return ftz<FTZ>(numerics::sqrtHalf(a));
    else return ftz<FTZ>(T(std::sqrt(a)));
  }
};
// §6.15.2 fma: the infinitely precise a·b + c, rounded once (glibc's fma/fmaf are exact).
template <class T> T fmaExact(T a, T b, T c) {
  if constexpr (std::is_same_v<T, Half>) return numerics::fmaHalf(a, b, c);
  else return std::fma(a, b, c);
}
template <bool FTZ> struct Fma {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) {
    return ftz<FTZ>(fmaExact(ftz<FTZ>(a), ftz<FTZ>(b), ftz<FTZ>(c)));
  }
};
// §6.15.2 mad: fused or product-then-sum, the named choice `mad`.
template <bool FTZ, bool Fused> struct Mad {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b, T c) {
    if constexpr (Fused) {
      return Fma<FTZ>::apply(wi, op, a, b, c);
    } else {
      a = ftz<FTZ>(a); b = ftz<FTZ>(b); c = ftz<FTZ>(c);
      if constexpr (std::is_same_v<T, Half>) return ftz<FTZ>(numerics::addHalf(ftz<FTZ>(numerics::mulHalf(a, b)), c));
      else return ftz<FTZ>(T(ftz<FTZ>(T(a * b)) + c));
    }
  }
};

// §6.15.3 integer functions.
struct SAbs { template <class T> static T apply(WorkItem&, const Op*, T a) { return Signed<T>(a) < 0 ? T(T(0) - a) : a; } };
struct UAbs { template <class T> static T apply(WorkItem&, const Op*, T a) { return a; } };
struct SMax { template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return Signed<T>(a) > Signed<T>(b) ? a : b; } };
struct UMax { template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return a > b ? a : b; } };
struct SMin { template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return Signed<T>(a) < Signed<T>(b) ? a : b; } };
struct UMin { template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return a < b ? a : b; } };
// clamp(x, lo, hi) = min(max(x, lo), hi); "results are undefined if minval > maxval": this
// formula is clref's answer then.
struct SClamp { template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) { return SMin::apply(wi, op, SMax::apply(wi, op, x, lo), hi); } };
struct UClamp { template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) { return UMin::apply(wi, op, UMax::apply(wi, op, x, lo), hi); } };

// Operand layout of OpExtInst: result type, result, set, instruction, operands…
Op& emitExt(Lowerer& L, Handler fn, const Instruction& inst, size_t args) {
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.n = L.lanes(inst.resultType);
  if (args > 0) op.a = L.reg(inst.operand(2));
  if (args > 1) op.b = L.reg(inst.operand(3));
  if (args > 2) op.c = L.reg(inst.operand(4));
  return op;
}

template <class F> Handler floatUnary(const Lowerer& L, uint32_t t) {
  return withFloat(L.scalarOf(t), [&]<class T>() -> Handler { return &unaryLanes<T, T, F>; });
}
template <template <bool> class F> Handler floatUnaryZ(const Lowerer& L, uint32_t t) {
  return withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, F<Z>>; });
}
template <class F> Handler intUnary(const Lowerer& L, uint32_t t) {
  return withInt(L.scalarOf(t), [&]<class T>() -> Handler { return &unaryLanes<T, T, F>; });
}
template <class F> Handler intBinary(const Lowerer& L, uint32_t t) {
  return withInt(L.scalarOf(t), [&]<class T>() { return binaryHandler<T, T, F>(L.lanes(t)); });
}
template <class F> Handler intTernary(const Lowerer& L, uint32_t t) {
  return withInt(L.scalarOf(t), [&]<class T>() -> Handler { return &ternaryLanes<T, T, F>; });
}

}  // namespace

bool lowerExtInst(Lowerer& L, const Instruction& inst) {
  if (inst.opcode != spv::Op::OpExtInst) return false;
  const auto set = L.m.extInstImports.find(inst.extInstSet);
  if (set == L.m.extInstImports.end() || set->second != "OpenCL.std")
    L.reject(inst, "extended instruction set '" + (set == L.m.extInstImports.end() ? std::string("?") : set->second) +
                       "' is not supported");
  const uint32_t t = inst.resultType;
  const bool fusedMad = L.opt.choices.as<numerics::MadOption>(numerics::Choice::Mad) == numerics::MadOption::Fused;
  switch (Std(inst.operand(1))) {
    case Std::fabs: emitExt(L, floatUnary<Fabs>(L, t), inst, 1); return true;
    case Std::copysign:
      emitExt(L, withFloat(L.scalarOf(t), [&]<class T>() { return binaryHandler<T, T, Copysign>(L.lanes(t)); }), inst, 2);
      return true;
    case Std::fmin:
    case Std::fmax: {
      const bool mx = Std(inst.operand(1)) == Std::fmax;
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() {
                return mx ? binaryHandler<T, T, FMinMax<true, Z>>(L.lanes(t)) : binaryHandler<T, T, FMinMax<false, Z>>(L.lanes(t));
              }), inst, 2);
      return true;
    }
    case Std::ceil:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<0, Z>>; }), inst, 1);
      return true;
    case Std::floor:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<1, Z>>; }), inst, 1);
      return true;
    case Std::trunc:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<2, Z>>; }), inst, 1);
      return true;
    case Std::rint:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<3, Z>>; }), inst, 1);
      return true;
    case Std::round:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<4, Z>>; }), inst, 1);
      return true;
    case Std::sqrt: emitExt(L, floatUnaryZ<Sqrt>(L, t), inst, 1); return true;
    case Std::fma:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &ternaryLanes<T, T, Fma<Z>>; }), inst, 3);
      return true;
    case Std::mad:
      emitExt(L, withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler {
                return fusedMad ? &ternaryLanes<T, T, Mad<Z, true>> : &ternaryLanes<T, T, Mad<Z, false>>;
              }), inst, 3);
      return true;
    case Std::s_abs: emitExt(L, intUnary<SAbs>(L, t), inst, 1); return true;
    case Std::u_abs: emitExt(L, intUnary<UAbs>(L, t), inst, 1); return true;
    case Std::s_max: emitExt(L, intBinary<SMax>(L, t), inst, 2); return true;
    case Std::u_max: emitExt(L, intBinary<UMax>(L, t), inst, 2); return true;
    case Std::s_min: emitExt(L, intBinary<SMin>(L, t), inst, 2); return true;
    case Std::u_min: emitExt(L, intBinary<UMin>(L, t), inst, 2); return true;
    case Std::s_clamp: emitExt(L, intTernary<SClamp>(L, t), inst, 3); return true;
    case Std::u_clamp: emitExt(L, intTernary<UClamp>(L, t), inst, 3); return true;
  }
  L.reject(inst, "OpenCL.std instruction " + std::to_string(inst.operand(1)) +
                     " is not implemented yet (the rest of OpenCL.std comes with the exact numerics)");
}

}  // namespace clref::interpreter
