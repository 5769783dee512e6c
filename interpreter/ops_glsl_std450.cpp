// OpExtInst of the GLSL.std.450 extended instruction set (GLSL.std.450 §2 [external]): the dispatch on the instruction
// number, and the component-wise functions. Each instruction means the GLSL 4.60 built-in of its name (GLSL 4.60 §8
// [external]); clref's value is the exact one:
//  - a function with a correctly rounded meaning (sin, exp, pow, inversesqrt = 1/sqrt(x), fma, ldexp, frexp, modf,
//    floor, …) is evaluated as OpenCL.std's function of the same meaning is: numerics::evaluate, or the exact host
//    operation ops_extinst.cpp uses;
//  - a function GLSL defines by a formula (radians, degrees, fract, mix, step, smoothstep) is evaluated by the formula,
//    each operation rounded in the operands' format (ops_glsl_std450.hpp);
//  - where GLSL.std.450 leaves the result undefined or to the implementation, a named choice decides: glsl_round_half
//    (Round at .5), glsl_min_max_nan (FMin/FMax/FClamp with a NaN), clamp_inverted_bounds (the clamps with
//    minVal > maxVal), smoothstep_inverted_edges (edge0 >= edge1); other undefined cases (pow(x < 0, y), asin(2),
//    atan(0, 0), frexp(inf), …) take the value OpenCL.std's function of the same meaning defines.
// Determinant and MatrixInverse are ops_matrix.cpp's; InterpolateAt* (fragment shaders only) are rejected.
#include "interpreter/ops_glsl_std450.hpp"

#include <bit>
#include <cstring>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_matrix.hpp"
#include "interpreter/shadow_support.hpp"
#include "interpreter/shadow_vulkan.hpp"
#include "numerics/math.hpp"

namespace clref::interpreter {

bool glslMinMaxFormula(WorkItem& wi, const Op* op, bool nanX) {
  if (!nanX) return false;
  noteChoice(wi, op, numerics::Choice::GlslMinMaxNan, "FMin/FMax with a NaN operand");
  return choicesOf(wi).get<numerics::Choice::GlslMinMaxNan>() == numerics::GlslMinMaxNanOption::Formula;
}

// GLSL.std.450 §2 [external] Round: "The fraction 0.5 will round in a direction chosen by the implementation": the
// choice glsl_round_half (away from zero, or to even).
static bool glslRoundHalfToEven(WorkItem& wi, const Op* op, double x) {
  if (std::round(x) == numerics::rint(x)) return false;  // not halfway, or both directions agree
  noteChoice(wi, op, numerics::Choice::GlslRoundHalf, "Round of a value halfway between two integers");
  return choicesOf(wi).get<numerics::Choice::GlslRoundHalf>() == numerics::GlslRoundHalfOption::ToEven;
}
double glslRound(WorkItem& wi, const Op* op, double x) {
  return glslRoundHalfToEven(wi, op, x) ? numerics::rint(x) : std::round(x);
}

namespace {

using numerics::MathFn;

template <bool RTZ> constexpr numerics::Rounding kRoundingOf = RTZ ? numerics::Rounding::RTZ : numerics::Rounding::RTE;

// ---- Correctly rounded functions: numerics::evaluate, lane by lane (imm = the OpenCL.std function) -----------------
// GLSL 4.60 §8.1 [external] (radians … atanh), §8.2 [external] (pow … inversesqrt), §8.3 [external] (sign, modf,
// fma, ldexp, frexp): the same mathematical functions as OpenCL.std's; GLSL's undefined cases (asin(2), log(-1),
// pow(-1, 0.5), atan(0, 0), …) get the value OpenCL.std defines (C99 Annex F).
// With R, the exact value rounded toward zero (Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: clref's value is
// the correctly rounded one in the rounding mode in force).
template <class T, bool Z, bool R, int N> const Op* evaluateLanes(WorkItem& wi, const Op* op) {
  const MathFn fn = MathFn(op->imm);
  const uint32_t regs[3] = {op->a, op->b, op->c};
  for (uint32_t i = 0; i < op->n; ++i) {
    double args[N];
    for (int k = 0; k < N; ++k) args[k] = toD(ftz<Z>(rd<T>(wi, regs[k] + i * sizeof(T))));
    const numerics::MathResult r = numerics::evaluate(fn, {args, size_t(N)}, kFormatOf<T>, kRoundingOf<R>);
    wr<T>(wi, op->r + i * sizeof(T), ftz<Z>(fromD<T>(r.value)));
  }
  return op + 1;
}

// ---- Exact operations (results representable) -------------------------------------------------------------------
// GLSL.std.450 §2 [external] Trunc, Floor, Ceil, RoundEven, FAbs: exact; RoundEven ties to even (numerics::rint).
template <int Kind, bool Z> struct Integral {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    const double x = toD(ftz<Z>(a));
    switch (Kind) {
      case 0: return fromD<T>(std::trunc(x));
      case 1: return fromD<T>(std::floor(x));
      case 2: return fromD<T>(std::ceil(x));
      default: return fromD<T>(numerics::rint(x));
    }
  }
};
struct FAbs {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>)
      return Half{uint16_t(a.bits & 0x7fff)};
    else
      return std::fabs(a);
  }
};
// Exact results: the rounding direction (the second parameter) does not matter.
template <bool Z, bool = false> using Trunc = Integral<0, Z>;
template <bool Z, bool = false> using Floor = Integral<1, Z>;
template <bool Z, bool = false> using Ceil = Integral<2, Z>;
template <bool Z, bool = false> using RoundEven = Integral<3, Z>;
template <bool Z, bool = false> struct Round {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a) {
    const double x = toD(ftz<Z>(a));
    return fromD<T>(glslRound(wi, op, x));
  }
};
// GLSL.std.450 §2 [external] Sqrt; Fma: "computes a * b + c ... a single operation" (GLSL 4.60 §8.3 [external] fma),
// the exact value rounded once.
template <bool Z, bool R = false> struct GlslSqrt {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return fSqrt<Z, R>(a); }
};
template <bool Z, bool R = false> struct GlslFma {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) {
    a = ftz<Z>(a);
    b = ftz<Z>(b);
    c = ftz<Z>(c);
    if constexpr (R)
      return ftz<Z>(numerics::fmaTowardZero(a, b, c));
    else if constexpr (std::is_same_v<T, Half>)
      return ftz<Z>(numerics::fmaHalf(a, b, c));
    else
      return ftz<Z>(T(std::fma(a, b, c)));
  }
};

// ---- Formulas (ops_glsl_std450.hpp: each operation rounded) --------------------------------------------------------
// GLSL 4.60 §8.1 [external] radians: (π / 180) · degrees; degrees: (180 / π) · radians. The constant is π/180 (180/π)
// correctly rounded to the format (imm holds it as a double), then the product is rounded.
template <bool Z, bool R = false> struct ScaleByConstant {
  template <class T> static T apply(WorkItem&, const Op* op, T a) {
    return fMul<Z, R>(fromD<T>(std::bit_cast<double>(op->imm)), a);
  }
};
// GLSL 4.60 §8.3 [external] fract: x − floor(x) (no clamp below 1, unlike OpenCL's fract).
template <bool Z, bool R = false> struct Fract {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    a = ftz<Z>(a);
    return fSub<Z, R>(a, fromD<T>(std::floor(toD(a))));
  }
};
// GLSL 4.60 §8.3 [external] mix: x · (1 − a) + y · a.
template <bool Z, bool R = false> struct Mix {
  template <class T> static T apply(WorkItem&, const Op*, T x, T y, T a) {
    const T oneMinusA = fSub<Z, R>(fConst<T>(1), a);
    return fAdd<Z, R>(fMul<Z, R>(x, oneMinusA), fMul<Z, R>(y, a));
  }
};
// GLSL 4.60 §8.3 [external] step: 0.0 if x < edge, otherwise 1.0.
template <bool Z, bool = false> struct Step {
  template <class T> static T apply(WorkItem&, const Op*, T edge, T x) {
    return fConst<T>(fLess(ftz<Z>(x), ftz<Z>(edge)) ? 0.0 : 1.0);
  }
};

// GLSL 4.60 §8.3 [external] min, max, clamp (GLSL.std.450 FMin, FMax, FClamp, NMin, NMax, NClamp).
template <bool Max, bool Z> struct GlslFMinMax {
  template <class T> static T apply(WorkItem& wi, const Op* op, T x, T y) {
    x = ftz<Z>(x);
    y = ftz<Z>(y);
    return glslMinMax<Max>(x, y, glslMinMaxFormula(wi, op, isNaN(x) && !isNaN(y)));
  }
};
template <bool Max, bool Z> struct NMinMax {
  template <class T> static T apply(WorkItem&, const Op*, T x, T y) {
    return glslMinMax<Max>(ftz<Z>(x), ftz<Z>(y), false);
  }
};
// GLSL.std.450 §2 [external] FClamp: "min(max(x, minVal), maxVal). Result is undefined if minVal > maxVal"; that case
// is the choice clamp_inverted_bounds (the formula, or max(min(x, maxVal), minVal)), as for OpenCL's clamp. NClamp
// has NMin/NMax's NaN rule and the same freedom.
bool clampMaxOfMin(WorkItem& wi, const Op* op, bool inverted) {
  if (!inverted) return false;
  noteChoice(wi, op, numerics::Choice::ClampInvertedBounds, "clamp with minVal > maxVal");
  return choicesOf(wi).get<numerics::Choice::ClampInvertedBounds>() == numerics::ClampOption::MaxOfMin;
}
template <bool N, bool Z> struct FClamp {
  template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) {
    x = ftz<Z>(x);
    lo = ftz<Z>(lo);
    hi = ftz<Z>(hi);
    auto mn = [&](T a, T b) { return glslMinMax<false>(a, b, !N && glslMinMaxFormula(wi, op, isNaN(a) && !isNaN(b))); };
    auto mx = [&](T a, T b) { return glslMinMax<true>(a, b, !N && glslMinMaxFormula(wi, op, isNaN(a) && !isNaN(b))); };
    if (clampMaxOfMin(wi, op, fLess(hi, lo))) return mx(mn(x, hi), lo);
    return mn(mx(x, lo), hi);
  }
};
// GLSL 4.60 §8.3 [external] smoothstep: t = clamp((x − edge0) / (edge1 − edge0), 0, 1); t · t · (3 − 2 · t).
// "Results are undefined if edge0 >= edge1": the choice smoothstep_inverted_edges (the formula, or NaN).
template <bool Z, bool R = false> struct SmoothStep {
  template <class T> static T apply(WorkItem& wi, const Op* op, T e0, T e1, T x) {
    e0 = ftz<Z>(e0);
    e1 = ftz<Z>(e1);
    if (!fLess(e0, e1) && !isNaN(e0) && !isNaN(e1)) {
      noteChoice(wi, op, numerics::Choice::SmoothstepInvertedEdges, "smoothstep with edge0 >= edge1");
      if (choicesOf(wi).get<numerics::Choice::SmoothstepInvertedEdges>() == numerics::SmoothstepOption::Nan)
        return fromD<T>(std::nan(""));
    }
    const T q = fDiv<Z, R>(fSub<Z, R>(x, e0), fSub<Z, R>(e1, e0));
    const T t = FClamp<false, Z>::apply(wi, op, q, fConst<T>(0), fConst<T>(1));
    return fMul<Z, R>(fMul<Z, R>(t, t), fSub<Z, R>(fConst<T>(3), fMul<Z, R>(fConst<T>(2), t)));
  }
};

// ---- Integer functions (GLSL 4.60 §8.3 [external] abs, sign, min, max, clamp; §8.8 [external] findLSB, findMSB) ----
struct GlslSAbs {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return Signed<T>(a) < 0 ? T(T(0) - a) : a; }
};
struct SSign {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    return Signed<T>(a) > 0 ? T(1) : Signed<T>(a) < 0 ? T(Signed<T>(-1)) : T(0);
  }
};
template <bool Max, bool Sgn> struct IMinMax {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    const bool less = Sgn ? Signed<T>(a) < Signed<T>(b) : a < b;  // a < b
    return Max ? (less ? b : a) : (less ? a : b);
  }
};
// GLSL.std.450 §2 [external] UClamp, SClamp: min(max(x, minVal), maxVal), "undefined if minVal > maxVal" (the choice
// clamp_inverted_bounds).
template <bool Sgn> struct IClamp {
  template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) {
    const bool inverted = Sgn ? Signed<T>(lo) > Signed<T>(hi) : lo > hi;
    using Mn = IMinMax<false, Sgn>;
    using Mx = IMinMax<true, Sgn>;
    if (clampMaxOfMin(wi, op, inverted)) return Mx::apply(wi, op, Mn::apply(wi, op, x, hi), lo);
    return Mn::apply(wi, op, Mx::apply(wi, op, x, lo), hi);
  }
};
// GLSL.std.450 §2 [external] FindILsb: the bit number of the least-significant 1-bit, -1 for 0. FindUMsb: of the
// most-significant 1-bit, -1 for 0. FindSMsb: for a negative value the most-significant 0-bit; -1 for 0 and -1.
struct FindILsb {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    return a == 0 ? T(Signed<T>(-1)) : T(std::countr_zero(a));
  }
};
struct FindUMsb {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    return T(Signed<T>(int(sizeof(T) * 8) - 1 - std::countl_zero(a)));  // 0: 8·size − 1 − 8·size = −1
  }
};
struct FindSMsb {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a) {
    return FindUMsb::apply(wi, op, Signed<T>(a) < 0 ? T(~a) : a);
  }
};

// ---- Two results: Modf/ModfStruct (fraction, whole number), Frexp/FrexpStruct (significand, exponent) ------------
// GLSL 4.60 §8.3 [external] modf: "Returns the fractional part of x and sets i to the integer part ... Both ... will
// have the same sign as x"; frexp: x = significand · 2^exponent, significand in [0.5, 1.0), 0 for 0 ("For a
// floating-point value of an infinity or NaN, the results are undefined": OpenCL.std's frexp, the value itself and
// exponent 0). numerics::evaluate's modf and frexp (OpenCL.std's, which agree with these).
// a = x; b = the second result's address: a pointer register (imm = 0) or the struct member's register offset (imm =
// 1); c = the second result's lane bytes (4 or 8 for Frexp's exponent).
template <class T, bool Z, bool Frexp> const Op* twoResults(WorkItem& wi, const Op* op) {
  const uint32_t secondLane = Frexp ? op->c : uint32_t(sizeof(T));
  uint8_t* second = wi.regs + op->b;
  if (op->imm == 0) {
    const uint64_t ptr = readWord(wi, op->b, ptrBytes(wi));
    // A shader's 3-component vector is 3 components in memory (its size is theirs: type_layout.cpp).
    second = access(wi, op, ptr, uint64_t(secondLane) * op->n, secondLane, true);
    if (!second) return nullptr;
  }
  for (uint32_t i = 0; i < op->n; ++i) {
    const double x = toD(ftz<Z>(rd<T>(wi, op->a + i * sizeof(T))));
    const numerics::MathResult r = numerics::evaluate(Frexp ? MathFn::frexp : MathFn::modf, {&x, 1}, kFormatOf<T>);
    wr<T>(wi, op->r + i * sizeof(T), ftz<Z>(fromD<T>(r.value)));
    if constexpr (Frexp) {
      if (secondLane == 8) {
        const int64_t e = r.integer;
        std::memcpy(second + 8 * i, &e, 8);
      } else if (secondLane == 2) {
        const int16_t e = int16_t(r.integer);
        std::memcpy(second + 2 * i, &e, 2);
      } else {
        const int32_t e = int32_t(r.integer);
        std::memcpy(second + 4 * i, &e, 4);
      }
    } else {
      const T whole = ftz<Z>(fromD<T>(r.second));
      std::memcpy(second + i * sizeof(T), &whole, sizeof(T));
    }
  }
  return op + 1;
}

// GLSL 4.60 §8.3 [external] ldexp: significand · 2^exponent (an overflow is "undefined": clref gives the correctly
// rounded value, ±inf, as OpenCL.std's ldexp). b = the exponent register, of the signed integer type I.
template <class T, bool Z, bool R, class I> const Op* ldexpLanes(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i) {
    const double args[2] = {toD(ftz<Z>(rd<T>(wi, op->a + i * sizeof(T)))),
                            double(Signed<I>(rd<I>(wi, op->b + i * sizeof(I))))};
    const numerics::MathResult r = numerics::evaluate(MathFn::ldexp, args, kFormatOf<T>, kRoundingOf<R>);
    wr<T>(wi, op->r + i * sizeof(T), ftz<Z>(fromD<T>(r.value)));
  }
  return op + 1;
}

// ---- Lowering -----------------------------------------------------------------------------------------------------


void requireFloat(Lowerer& L, const Instruction& inst) {
  if (!numerics::isFloat(L.scalarOf(inst.resultType)))
    L.reject(inst,
             "GLSL.std.450 instruction " + std::to_string(inst.operand(1)) + " needs a floating-point result type");
}

template <int Arity, class T, class F> constexpr Handler lanesOf() {
  if constexpr (Arity == 1)
    return &unaryLanes<T, T, F>;
  else if constexpr (Arity == 2)
    return &binaryLanes<T, T, F>;
  else
    return &ternaryLanes<T, T, F>;
}

// glslStd450Kernel for T, the denormal mode Z and the rounding R (RTZ when true).
template <class T, bool Z, bool R> GlslKernel glslKernelOf(GLSLstd450 number, ScalarType exponent) {
  // A correctly rounded function: numerics::evaluate of the OpenCL.std function of the same meaning (imm).
  auto evaluated = [](MathFn fn, int arity) -> GlslKernel {
    const Handler h = arity == 1   ? &evaluateLanes<T, Z, R, 1>
                      : arity == 2 ? &evaluateLanes<T, Z, R, 2>
                                   : &evaluateLanes<T, Z, R, 3>;
    return {h, uint64_t(fn), arity};
  };
  switch (number) {
    // Correctly rounded functions.
    case GLSLstd450Sin: return evaluated(MathFn::sin, 1);
    case GLSLstd450Cos: return evaluated(MathFn::cos, 1);
    case GLSLstd450Tan: return evaluated(MathFn::tan, 1);
    case GLSLstd450Asin: return evaluated(MathFn::asin, 1);
    case GLSLstd450Acos: return evaluated(MathFn::acos, 1);
    case GLSLstd450Atan: return evaluated(MathFn::atan, 1);
    case GLSLstd450Sinh: return evaluated(MathFn::sinh, 1);
    case GLSLstd450Cosh: return evaluated(MathFn::cosh, 1);
    case GLSLstd450Tanh: return evaluated(MathFn::tanh, 1);
    case GLSLstd450Asinh: return evaluated(MathFn::asinh, 1);
    case GLSLstd450Acosh: return evaluated(MathFn::acosh, 1);
    case GLSLstd450Atanh: return evaluated(MathFn::atanh, 1);
    case GLSLstd450Atan2: return evaluated(MathFn::atan2, 2);  // atan(y, x): operands y, x
    case GLSLstd450Pow: return evaluated(MathFn::pow, 2);
    case GLSLstd450Exp: return evaluated(MathFn::exp, 1);
    case GLSLstd450Log: return evaluated(MathFn::log, 1);
    case GLSLstd450Exp2: return evaluated(MathFn::exp2, 1);
    case GLSLstd450Log2: return evaluated(MathFn::log2, 1);
    // GLSL 4.60 §8.2 [external] inversesqrt: 1 / sqrt(x), the exact value rounded once (OpenCL.std's rsqrt).
    case GLSLstd450InverseSqrt: return evaluated(MathFn::rsqrt, 1);
    // GLSL 4.60 §8.3 [external] sign: 1.0, 0.0 or -1.0; OpenCL.std's sign, which keeps the sign of a zero and gives 0
    // for a NaN (a case GLSL's three leave out).
    case GLSLstd450FSign: return evaluated(MathFn::sign, 1);
    case GLSLstd450Sqrt: return {lanesOf<1, T, GlslSqrt<Z, R>>(), 0, 1};
    case GLSLstd450Fma: return {lanesOf<3, T, GlslFma<Z, R>>(), 0, 3};
    // Exact.
    case GLSLstd450Trunc: return {lanesOf<1, T, Trunc<Z, R>>(), 0, 1};
    case GLSLstd450Floor: return {lanesOf<1, T, Floor<Z, R>>(), 0, 1};
    case GLSLstd450Ceil: return {lanesOf<1, T, Ceil<Z, R>>(), 0, 1};
    case GLSLstd450RoundEven: return {lanesOf<1, T, RoundEven<Z, R>>(), 0, 1};
    case GLSLstd450Round: return {lanesOf<1, T, Round<Z, R>>(), 0, 1};
    case GLSLstd450FAbs: return {&unaryLanes<T, T, FAbs>, 0, 1};
    // Formulas.
    case GLSLstd450Radians:
    case GLSLstd450Degrees: {
      const MathFn fn = number == GLSLstd450Radians ? MathFn::radians : MathFn::degrees;
      const double one = 1.0;
      const double k = numerics::evaluate(fn, {&one, 1}, kFormatOf<T>).value;
      return {lanesOf<1, T, ScaleByConstant<Z, R>>(), std::bit_cast<uint64_t>(k), 1};
    }
    case GLSLstd450Fract: return {lanesOf<1, T, Fract<Z, R>>(), 0, 1};
    case GLSLstd450FMix: return {lanesOf<3, T, Mix<Z, R>>(), 0, 3};
    case GLSLstd450Step: return {lanesOf<2, T, Step<Z, R>>(), 0, 2};
    case GLSLstd450SmoothStep: return {lanesOf<3, T, SmoothStep<Z, R>>(), 0, 3};
    // Exact choices of an operand: the rounding does not matter.
    case GLSLstd450FMin: return {lanesOf<2, T, GlslFMinMax<false, Z>>(), 0, 2};
    case GLSLstd450FMax: return {lanesOf<2, T, GlslFMinMax<true, Z>>(), 0, 2};
    case GLSLstd450NMin: return {lanesOf<2, T, NMinMax<false, Z>>(), 0, 2};
    case GLSLstd450NMax: return {lanesOf<2, T, NMinMax<true, Z>>(), 0, 2};
    case GLSLstd450FClamp: return {lanesOf<3, T, FClamp<false, Z>>(), 0, 3};
    case GLSLstd450NClamp: return {lanesOf<3, T, FClamp<true, Z>>(), 0, 3};
    case GLSLstd450Ldexp:
      return {withInt(exponent, [&]<class I>() -> Handler { return &ldexpLanes<T, Z, R, I>; }), 0, 2};
    default: return {};
  }
}

template <class F, int Arity> void lowerInt(Lowerer& L, const Instruction& inst) {
  const uint32_t t = inst.resultType;
  if (numerics::isFloat(L.scalarOf(t))) L.reject(inst, "a GLSL.std.450 integer instruction with a float result type");
  for (int k = 0; k < Arity; ++k)
    if (sizeOf(L.scalarOf(L.typeIdOfValue(inst.operand(2 + k)))) != sizeOf(L.scalarOf(t)))
      L.reject(inst, "a GLSL.std.450 integer instruction whose operand width differs from its result's");
  emitExt(L, withInt(L.scalarOf(t), [&]<class T>() -> Handler { return lanesOf<Arity, T, F>(); }), inst,
            size_t(Arity));
}

// Modf/Frexp (pointer operand) and ModfStruct/FrexpStruct (a struct result: member 0 the first result, member 1 the
// second).
void lowerTwoResults(Lowerer& L, const Instruction& inst, bool frexp, bool structResult) {
  const uint32_t x = inst.operand(2);
  const uint32_t floatType = L.typeIdOfValue(x);
  if (!numerics::isFloat(L.scalarOf(floatType))) L.reject(inst, "GLSL.std.450 Modf/Frexp of an integer operand");
  uint32_t secondType = 0, secondReg = 0;
  Op* op = nullptr;
  if (structResult) {
    const Type& st = L.type(inst.resultType);
    if (st.kind != TypeKind::Struct || st.members.size() != 2)
      L.reject(inst, "a ModfStruct/FrexpStruct result that is not a two-member struct");
    secondType = st.members[1];
    secondReg = L.reg(inst.resultId) + uint32_t(st.memberOffsets.at(1));
  } else {
    secondType = L.type(L.typeIdOfValue(inst.operand(3))).element;
    secondReg = L.reg(inst.operand(3));
  }
  const uint32_t secondLane = sizeOf(L.scalarOf(secondType));
  const ScalarType s = L.scalarOf(floatType);
  op = &L.emit(glslTwoResultsHandler(frexp, s, L.flush(s)), inst);
  op->r = structResult ? L.reg(inst.resultId) + uint32_t(L.type(inst.resultType).memberOffsets.at(0))
                       : L.reg(inst.resultId);
  op->a = L.reg(x);
  op->b = secondReg;
  op->c = secondLane;
  op->n = L.lanes(floatType);
  op->imm = structResult ? 1 : 0;
}

}  // namespace

Handler glslTwoResultsHandler(bool frexp, ScalarType s, bool flush) {
  return withFloatModes(s, flush, false, [&]<class T, bool Z, bool>() -> Handler {
    return frexp ? &twoResults<T, Z, true> : &twoResults<T, Z, false>;
  });
}

GlslKernel glslStd450Kernel(uint32_t number, ScalarType s, ScalarType exponent, bool flush, bool towardZero) {
  return withFloatModes(s, flush, towardZero, [&]<class T, bool Z, bool R>() {
    return glslKernelOf<T, Z, R>(GLSLstd450(number), exponent);
  });
}

void lowerGlslStd450(Lowerer& L, const Instruction& inst) {
  const uint32_t number = inst.operand(1);
  if (lowerGlslGeometric(L, inst) || lowerGlslPack(L, inst)) return;
  // The component-wise functions of floats: one kernel per type and mode (Ldexp's exponent: its operand's type). Asked
  // for float first: another instruction's result may be a struct or a matrix, which has no scalar type.
  if (glslStd450Kernel(number, ScalarType::Float, ScalarType::UInt, false, false).fn) {
    requireFloat(L, inst);
    const ScalarType exponent =
        number == GLSLstd450Ldexp ? L.scalarOf(L.typeIdOfValue(inst.operand(3))) : ScalarType::UInt;
    const ScalarType s = L.scalarOf(inst.resultType);
    const GlslKernel k = glslStd450Kernel(number, s, exponent, L.flush(s), L.towardZero(s));
    emitExt(L, k.fn, inst, size_t(k.arity)).imm = k.imm;
    return;
  }
  switch (GLSLstd450(number)) {
    // Two results.
    case GLSLstd450Modf: lowerTwoResults(L, inst, false, false); return;
    case GLSLstd450ModfStruct: lowerTwoResults(L, inst, false, true); return;
    case GLSLstd450Frexp: lowerTwoResults(L, inst, true, false); return;
    case GLSLstd450FrexpStruct: lowerTwoResults(L, inst, true, true); return;
    // Integers.
    case GLSLstd450SAbs: lowerInt<GlslSAbs, 1>(L, inst); return;
    case GLSLstd450SSign: lowerInt<SSign, 1>(L, inst); return;
    case GLSLstd450UMin: lowerInt<IMinMax<false, false>, 2>(L, inst); return;
    case GLSLstd450SMin: lowerInt<IMinMax<false, true>, 2>(L, inst); return;
    case GLSLstd450UMax: lowerInt<IMinMax<true, false>, 2>(L, inst); return;
    case GLSLstd450SMax: lowerInt<IMinMax<true, true>, 2>(L, inst); return;
    case GLSLstd450UClamp: lowerInt<IClamp<false>, 3>(L, inst); return;
    case GLSLstd450SClamp: lowerInt<IClamp<true>, 3>(L, inst); return;
    case GLSLstd450FindILsb: lowerInt<FindILsb, 1>(L, inst); return;
    case GLSLstd450FindSMsb: lowerInt<FindSMsb, 1>(L, inst); return;
    case GLSLstd450FindUMsb: lowerInt<FindUMsb, 1>(L, inst); return;
    // Not here.
    // Matrices: ops_matrix.cpp.
    case GLSLstd450Determinant: lowerDeterminant(L, inst); return;
    case GLSLstd450MatrixInverse: lowerMatrixInverse(L, inst); return;
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
      L.reject(inst,
               "GLSL.std.450 InterpolateAt* is for fragment shaders only (GLSL.std.450 §2 [external]: \"only "
               "valid in the Fragment execution model\")");
    case GLSLstd450IMix: L.reject(inst, "GLSL.std.450 IMix is reserved (GLSL.std.450 §2 [external])");
    default: break;
  }
  L.reject(inst, "GLSL.std.450 has no instruction " + std::to_string(number));
}

// ---- The rule of each instruction (Vulkan §A.4.2 [external] [[precision-of-glsl-std-450-instructions]]) ------------
std::optional<GlslStd450Rule> glslStd450Rule(uint32_t number) {
  using F = VulkanFormula;
  auto direct = [](MathFn fn, int arity) { return GlslStd450Rule{true, fn, F::Fma, arity, false}; };
  auto formula = [](F f, int arity, bool exactReference) {
    return GlslStd450Rule{false, MathFn::sin, f, arity, exactReference};
  };
  switch (GLSLstd450(number)) {
    // Direct rows.
    case GLSLstd450Exp: return direct(MathFn::exp, 1);
    case GLSLstd450Exp2: return direct(MathFn::exp2, 1);
    case GLSLstd450Log: return direct(MathFn::log, 1);
    case GLSLstd450Log2: return direct(MathFn::log2, 1);
    case GLSLstd450InverseSqrt: return direct(MathFn::rsqrt, 1);
    case GLSLstd450Sin: return direct(MathFn::sin, 1);
    case GLSLstd450Cos: return direct(MathFn::cos, 1);
    case GLSLstd450Atan: return direct(MathFn::atan, 1);
    case GLSLstd450Atan2: return direct(MathFn::atan2, 2);
    // Inherited rows; clref's value is the exact result correctly rounded except for the formulas it evaluates
    // step by step (fmix, smoothstep, the geometric functions).
    case GLSLstd450Fma: return formula(F::Fma, 3, true);
    case GLSLstd450Pow: return formula(F::Pow, 2, true);
    case GLSLstd450Sqrt: return formula(F::Sqrt, 1, true);
    case GLSLstd450Radians: return formula(F::Radians, 1, true);
    case GLSLstd450Degrees: return formula(F::Degrees, 1, true);
    case GLSLstd450Tan: return formula(F::Tan, 1, true);
    case GLSLstd450Asin: return formula(F::Asin, 1, true);
    case GLSLstd450Acos: return formula(F::Acos, 1, true);
    case GLSLstd450Sinh: return formula(F::Sinh, 1, true);
    case GLSLstd450Cosh: return formula(F::Cosh, 1, true);
    case GLSLstd450Tanh: return formula(F::Tanh, 1, true);
    case GLSLstd450Asinh: return formula(F::Asinh, 1, true);
    case GLSLstd450Acosh: return formula(F::Acosh, 1, true);
    case GLSLstd450Atanh: return formula(F::Atanh, 1, true);
    case GLSLstd450FMix: return formula(F::FMix, 3, false);
    case GLSLstd450SmoothStep: return formula(F::SmoothStep, 3, false);
    case GLSLstd450Length: return formula(F::Length, 1, false);
    case GLSLstd450Distance: return formula(F::Distance, 2, false);
    case GLSLstd450Cross: return formula(F::Cross, 2, false);
    case GLSLstd450Normalize: return formula(F::Normalize, 1, false);
    case GLSLstd450FaceForward: return formula(F::FaceForward, 3, false);
    case GLSLstd450Reflect: return formula(F::Reflect, 2, false);
    case GLSLstd450Refract: return formula(F::Refract, 3, false);
    // Correctly rounded, or the correct result.
    case GLSLstd450Round: return formula(F::Round, 1, false);
    case GLSLstd450RoundEven: return formula(F::RoundEven, 1, false);
    case GLSLstd450Trunc: return formula(F::Trunc, 1, false);
    case GLSLstd450Floor: return formula(F::Floor, 1, false);
    case GLSLstd450Ceil: return formula(F::Ceil, 1, false);
    case GLSLstd450Fract: return formula(F::Fract, 1, false);
    case GLSLstd450FAbs: return formula(F::FAbs, 1, false);
    case GLSLstd450FSign: return formula(F::FSign, 1, false);
    case GLSLstd450FMin:
    case GLSLstd450NMin: return formula(F::FMin, 2, false);
    case GLSLstd450FMax:
    case GLSLstd450NMax: return formula(F::FMax, 2, false);
    case GLSLstd450FClamp:
    case GLSLstd450NClamp: return formula(F::FClamp, 3, false);
    case GLSLstd450Step: return formula(F::Step, 2, false);
    case GLSLstd450Ldexp: return formula(F::Ldexp, 2, false);
    default: return std::nullopt;
  }
}

// ---- Allowed sets (the shadow mode) -------------------------------------------------------------------------------
// Each instruction's Vulkan row (Vulkan §A.4.2 [external] [[precision-of-glsl-std-450-instructions]]): a direct row
// through numerics::allowedSet (Profile::Vulkan), an inherited or correctly rounded one through shadow_vulkan.hpp
// (glslStd450Rule, which `clref sweep` evaluates on scalars too). None of them respects SignedZeroInfNanPreserve
// (ShadowRun::assumesFinite): a NaN or an infinity makes any value.
void shadowGlslStd450(ShadowLowering& S) {
  if (const auto rule = glslStd450Rule(S.operand(1))) {
    std::vector<uint32_t> operands;
    for (int k = 0; k < rule->arity; ++k) operands.push_back(S.operand(2 + uint32_t(k)));
    if (rule->direct)
      S.floatRule(FloatKind::Math, std::move(operands), numerics::CoreOp::None, rule->fn).preserving = false;
    else
      vulkanRule(S, rule->formula, std::move(operands), rule->exactReference);
    return;
  }
  switch (GLSLstd450(S.operand(1))) {
    case GLSLstd450SAbs:
    case GLSLstd450SSign:
    case GLSLstd450UMin:
    case GLSLstd450SMin:
    case GLSLstd450UMax:
    case GLSLstd450SMax:
    case GLSLstd450UClamp:
    case GLSLstd450SClamp:
    case GLSLstd450FindILsb:
    case GLSLstd450FindSMsb:
    case GLSLstd450FindUMsb:
    case GLSLstd450PackDouble2x32:  // bits moved whole: the generic rule
    case GLSLstd450UnpackDouble2x32:
    case GLSLstd450UnpackHalf2x16: shadowGeneric(S); return;  // binary16 to binary32 is exact
    // Frexp "Correct result", Modf "Correctly rounded" (exact), with a shader's zero-sign and denormal freedoms.
    case GLSLstd450Modf: twoResultsRule(S, false, false); return;
    case GLSLstd450ModfStruct: twoResultsRule(S, false, true); return;
    case GLSLstd450Frexp: twoResultsRule(S, true, false); return;
    case GLSLstd450FrexpStruct: twoResultsRule(S, true, true); return;
    // Vulkan §A.4.2 [external]: "GLSL.std.450 extended instructions not listed above and not defined in terms of the
    // above have implementation-defined precision": Determinant, MatrixInverse, and the packing of floats into
    // normalised integers (packHalf2x16's row, correctly rounded with an implementation-defined rounding mode, is
    // two roundings apart on single values too): any value.
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse: shadowImplementationDefinedPrecision(S); return;
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackHalf2x16:
    case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm4x8: {
      const uint32_t bytes = S.laneBytes(S.inst.resultType);
      std::vector<uint32_t> offsets;
      for (uint32_t i = 0; i < S.L.lanes(S.inst.resultType); ++i) offsets.push_back(i * bytes);
      S.anyValueLanes(std::move(offsets), bytes);
      return;
    }
    default:
      S.L.reject(S.inst, "GLSL.std.450 instruction " + std::to_string(S.operand(1)) + " has no allowed-set rule");
  }
}

}  // namespace clref::interpreter
