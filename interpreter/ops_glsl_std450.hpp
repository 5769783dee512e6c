// The GLSL.std.450 extended instruction set (GLSL.std.450 §2 [external]; each instruction means the GLSL 4.60 built-in
// of its name, GLSL 4.60 §8 [external]): what its three files share. ops_glsl_std450.cpp dispatches on the
// instruction number and holds the component-wise functions, ops_glsl_geometric.cpp the geometric ones,
// ops_glsl_pack.cpp the packing ones. Internal to the interpreter.
#pragma once
#include <spirv/unified1/GLSL.std.450.h>

#include <cmath>

#include "interpreter/ops_common.hpp"
#include "numerics/exact_ops.hpp"

namespace clref::interpreter {

// The instruction numbers are GLSL.std.450.h's (spirv-headers) enum GLSLstd450.

// Lowers an OpExtInst of the set GLSL.std.450 (called by lowerExtInst, ops_extinst.cpp).
void lowerGlslStd450(Lowerer& L, const Instruction& inst);
// The families in their own files: true when the instruction is one of theirs.
bool lowerGlslGeometric(Lowerer& L, const Instruction& inst);  // Length … Refract
bool lowerGlslPack(Lowerer& L, const Instruction& inst);       // Pack*, Unpack*
// An OpExtInst's Op (ops_extinst.cpp, for both sets): r = the result, n = its lanes, a, b, c = the first `args`
// operands' registers.
Op& emitExt(Lowerer& L, Handler fn, const Instruction& inst, size_t args);
// The shadow mode's rule for an OpExtInst of GLSL.std.450 (ops_glsl_std450.cpp).
void shadowGlslStd450(class ShadowLowering& S);

// Float kinds with a denormal mode and a rounding of correctly rounded operations given outright (withFloatRounding
// takes them from the Lowerer): calls f.template operator()<T, Z, R>().
template <class F> auto withFloatModes(ScalarType s, bool flush, bool towardZero, F&& f) {
  auto rounding = [&]<class T, bool Z>() {
    if (towardZero) return f.template operator()<T, Z, true>();
    return f.template operator()<T, Z, false>();
  };
  auto denormals = [&]<class T>() {
    if (flush) return rounding.template operator()<T, true>();
    return rounding.template operator()<T, false>();
  };
  switch (s) {
    case ScalarType::Half: return denormals.template operator()<Half>();
    case ScalarType::Float: return denormals.template operator()<float>();
    default: return denormals.template operator()<double>();
  }
}

// The handler of a component-wise GLSL.std.450 instruction with a floating-point result (Sin … NClamp, Ldexp; not the
// geometric, packing, two-result or integer ones), for the operands' type `s`, `exponent` the integer type of Ldexp's
// second operand: what lowerGlslStd450 emits, and what glslStd450ScalarValue (glsl_std450_scalar.cpp) runs on one lane.
// `fn` is null for another instruction; `imm` is the Op's immediate, `arity` its operands.
struct GlslKernel {
  Handler fn = nullptr;
  uint64_t imm = 0;
  int arity = 0;
};
GlslKernel glslStd450Kernel(uint32_t number, ScalarType s, ScalarType exponent, bool flush, bool towardZero);
// The handler of Modf/ModfStruct (`frexp` false) or Frexp/FrexpStruct on operands of type `s`: what lowerGlslStd450
// emits (r = the first result, a = x, b = the second result's pointer register (imm 0) or register (imm 1), c = the
// second result's lane bytes, n = lanes), and what glslStd450ScalarValue runs on one lane.
Handler glslTwoResultsHandler(bool frexp, ScalarType s, bool flush);
// The handler of a geometric instruction (Length … Refract) on operands of type `s`, Refract's eta of type `eta`: what
// lowerGlslGeometric emits (imm = the instruction, n = the operands' components); null for another instruction.
Handler glslGeometricHandler(uint32_t number, ScalarType s, ScalarType eta, bool flush, bool towardZero);

// ---- The formulas' arithmetic --------------------------------------------------------------------------------------
// The functions GLSL defines by a formula (radians, mix, smoothstep, length, reflect, …) are evaluated by it: each
// operation correctly rounded to nearest even in the operands' format, in the formula's order, none fused (the Vulkan
// environment's "Precision and Operation of SPIR-V Instructions" gives these the precision of their formula); with
// FTZ, subnormal operands and results of each operation flushed (as OpFAdd and OpFMul do, ops_common.hpp); with RTZ,
// each rounded toward zero instead (Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: the shader's
// RoundingModeRTZ, or vulkan_rounding=toward_zero).
template <bool FTZ, bool RTZ = false, class T> inline T fAdd(T a, T b) { return addRounded<FTZ, RTZ>(a, b); }
template <bool FTZ, bool RTZ = false, class T> inline T fMul(T a, T b) { return mulRounded<FTZ, RTZ>(a, b); }
template <class T> inline T fNeg(T a) {
  if constexpr (std::is_same_v<T, Half>)
    return numerics::negHalf(a);
  else
    return -a;
}
// a − b = a + (−b), exact
template <bool FTZ, bool RTZ = false, class T> inline T fSub(T a, T b) { return addRounded<FTZ, RTZ>(a, fNeg(b)); }
template <bool FTZ, bool RTZ = false, class T> inline T fDiv(T a, T b) {
  a = ftz<FTZ>(a);
  b = ftz<FTZ>(b);
  if constexpr (RTZ)
    return ftz<FTZ>(numerics::divTowardZero(a, b));
  else if constexpr (std::is_same_v<T, Half>)
    return ftz<FTZ>(numerics::divHalf(a, b));
  else
    return ftz<FTZ>(T(a / b));
}
template <bool FTZ, bool RTZ = false, class T> inline T fSqrt(T a) {
  a = ftz<FTZ>(a);
  if constexpr (RTZ)
    return ftz<FTZ>(numerics::sqrtTowardZero(a));
  else if constexpr (std::is_same_v<T, Half>)
    return ftz<FTZ>(numerics::sqrtHalf(a));
  else
    return ftz<FTZ>(T(std::sqrt(a)));
}
template <class T> inline T fConst(double v) { return fromD<T>(v); }  // v exact in T (0, 1, 2, 3, ±1)
template <class T> inline bool fLess(T a, T b) { return toD(a) < toD(b); }

template <class T> constexpr numerics::Format kFormatOf = std::is_same_v<T, Half>    ? numerics::Format::Half
                                                          : std::is_same_v<T, float> ? numerics::Format::Float
                                                                                     : numerics::Format::Double;

// GLSL.std.450 §2 [external] FMin/FMax: "Result is y if y < x; otherwise result is x. Which operand is the result is
// undefined if one of the operands is a NaN": the choice glsl_min_max_nan picks the number (as NMin/NMax do) or the
// formula's operand. NMin/NMax (Nan = false here) define that case: the other operand.
template <bool Max, class T> inline T glslMinMax(T x, T y, bool formulaOnNan) {
  if (formulaOnNan) return (Max ? fLess(x, y) : fLess(y, x)) ? y : x;
  return fromD<T>(Max ? numerics::fmax(toD(x), toD(y)) : numerics::fmin(toD(x), toD(y)));
}
// GLSL 4.60 §8.3 [external] round of an integral-or-halfway x: the choice glsl_round_half at .5 (Round and the
// packSnorm/packUnorm functions).
double glslRound(WorkItem& wi, const Op* op, double x);
// Whether glsl_min_max_nan decides FMin/FMax(x, y) and picks the formula. It decides only where the options differ:
// x a NaN and y a number (with y the NaN both give x); `nanX` says so, and the run records the choice then.
bool glslMinMaxFormula(WorkItem& wi, const Op* op, bool nanX);

}  // namespace clref::interpreter
