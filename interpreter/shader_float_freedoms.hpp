// The freedoms a shader's floating-point result has beyond its instruction's row, and with them the allowed set of a
// GLSL.std.450 instruction on scalar operands: the rules the shadow run applies (shadow_support.cpp, shadow_vulkan.cpp,
// what `clref check` judges a shader by), for `clref sweep GLSL.std.450:NAME` (cli/, which reaches them through
// check/glsl_allowed_set.hpp: of the interpreter it may include only the public headers).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "numerics/choices.hpp"
#include "numerics/enclosure.hpp"

namespace clref::interpreter {

// `set` (an instruction's allowed results at `operands`) widened by what a shader's execution modes leave free:
// `assumesFinite` (-cl-finite-math-only, a shader's NotNaN and NotInf): with a NaN or an infinity among the operands
// or the results, any value; `anyZeroSign` (a shader's NSZ): the sign of a zero result is free.
numerics::ValueSet withShaderFreedoms(numerics::ValueSet set, std::span<const numerics::ValueSet> operands,
                                      bool assumesFinite, bool anyZeroSign);

// The allowed results of a GLSL.std.450 instruction with a row of its own in Vulkan's table, `fn` being the
// OpenCL.std function of the same mathematics (Exp: exp, InverseSqrt: rsqrt, ...), at `operands`, in a shader
// without execution modes (neither SignedZeroInfNanPreserve nor a denormal mode): the row's set under
// Profile::Vulkan, and any value for non-finite operands or results, a zero result of either sign.
numerics::ValueSet glslStd450AllowedSet(numerics::MathFn fn, std::span<const numerics::ValueSet> operands,
                                        numerics::Format format, const numerics::VerdictOptions& options);

// A shader's verdict options for results of one float width (ShadowRun::verdictFor): `base` (clref check's options)
// with its execution modes for that width: denormals may be flushed unless DenormPreserve; correctly rounded
// operations round as RoundingModeRTE or RoundingModeRTZ say, else in an implementation-defined mode.
numerics::VerdictOptions shaderVerdictOptions(numerics::VerdictOptions base, bool denormPreserve, bool roundingModeRTE,
                                              bool roundingModeRTZ);

// ---- One GLSL.std.450 instruction on scalar operands (glsl_std450_scalar.cpp) ---------------------------------------
// Every instruction whose operands and result are floating-point scalars, component-wise or geometric on scalars,
// Ldexp (its exponent an integer), and the first result of Modf and Frexp.
struct GlslStd450Scalar {
  std::string_view name;  // GLSL.std.450's, e.g. "SmoothStep"
  uint32_t number = 0;    // the instruction number (GLSL.std.450.h)
  int arity = 1;
  bool integerExponent = false;  // Ldexp: operand 1 is a signed integer
  // An accuracy row of its own in Vulkan's table (Exp, Sin, Atan2, ...): the OpenCL.std function of the same
  // mathematics, judged by that row under Profile::Vulkan; nullopt for a correctly rounded, correct-result or
  // inherited one.
  std::optional<numerics::MathFn> row;
  // Modf, ModfStruct, Frexp, FrexpStruct: the first result (the fraction, the significand) is the one judged; the
  // second (the whole number, the exponent) follows from it and x exactly.
  bool firstOfTwo = false;
};
std::span<const GlslStd450Scalar> glslStd450Scalars();
// Why the instruction `name` is not among glslStd450Scalars() (two results, vectors or matrices, integers,
// implementation-defined precision, ...), or that GLSL.std.450 has no such instruction.
std::string glslStd450NotScalar(std::string_view name);

// clref's value of instruction g at `operands` (Ldexp's exponent an integer value): the interpreter's own handler for
// it run on one lane (ops_glsl_std450.cpp, ops_glsl_geometric.cpp), in a shader that keeps denormals, its correctly
// rounded operations to nearest even or (`towardZero`, RoundingModeRTZ) toward zero, `choices` deciding what GLSL
// leaves undefined (glsl_round_half, glsl_min_max_nan, clamp_inverted_bounds, smoothstep_inverted_edges).
double glslStd450ScalarValue(const GlslStd450Scalar& g, std::span<const double> operands, numerics::Format format,
                             bool towardZero, const numerics::Choices& choices);
// The allowed results of instruction g at `operands` in a shader without execution modes, as the shadow run of
// `clref check` forms them (glslStd450Rule: the direct row, or vulkanScalarSet), `reference` being clref's value of it
// to nearest even (glslStd450ScalarValue).
numerics::ValueSet glslStd450ScalarAllowedSet(const GlslStd450Scalar& g, std::span<const double> operands,
                                              numerics::Format format, double reference);

}  // namespace clref::interpreter
