// Allowed sets of a Vulkan compute shader's instructions whose precision is not one row of the numerics tables
// (interpreter/shadow.hpp; Vulkan §A.4 [external] Precision and Operation of SPIR-V Instructions,
// vulkan/spirvenv.adoc):
//  - "Inherited from" a formula (Vulkan §A.4.2 [external] [[spirvenv-inherited-from]]): the formula evaluated over
//    sets, each step's allowed set from its own Vulkan row, then the rule's range around the exact result (VulkanRule);
//  - the correctly rounded and correct-result GLSL.std.450 functions evaluated over sets (floor, fract, fmin, …).
// Internal to the interpreter; the families register these rules beside their lowerings (ops_glsl_std450.cpp,
// ops_arithmetic.cpp, ops_matrix.cpp, ops_glsl_geometric.cpp).
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {

enum class VulkanFormula : uint8_t {
  // Inherited (GLSL.std.450 table [[precision-of-glsl-std-450-instructions]] and the core table
  // [[spirvenv-precision-core-table]]).
  Fma,
  Pow,
  Sqrt,
  Radians,
  Degrees,
  Tan,
  Asin,
  Acos,
  Sinh,
  Cosh,
  Tanh,
  Asinh,
  Acosh,
  Atanh,
  FMix,
  SmoothStep,
  Length,
  Distance,
  Cross,
  Normalize,
  FaceForward,
  Reflect,
  Refract,
  FRem,
  FMod,
  SumOfProducts,
  // Correctly rounded or correct result, evaluated over the operands' sets.
  Round,
  RoundEven,
  Trunc,
  Floor,
  Ceil,
  Fract,
  FAbs,
  FSign,
  FMin,
  FMax,
  FClamp,
  Step,
  Ldexp,
};

// The rule of `formula` for the instruction: each result lane from the operands (component-wise, or whole vectors for
// the geometric formulas). `exactReference`: clref's value of the instruction is the formula's exact result
// correctly rounded (to even), so that for operands that are single values it brackets the exact result.
// `preserving`: the instruction is one that respects SignedZeroInfNanPreserve (shadow.hpp assumesFinite).
void vulkanRule(ShadowLowering& S, VulkanFormula formula, std::vector<uint32_t> operands, bool exactReference,
                bool preserving = false);

// The rule of a GLSL.std.450 instruction whose result lanes are judged one at a time (ops_glsl_std450.cpp; nullopt for
// the others: integer, two-result, packing and matrix ones): a row of its own in Vulkan's table (`direct`:
// numerics::allowedSet of `fn` under Profile::Vulkan), or `formula` over its first `arity` operands with vulkanRule's
// `exactReference`. shadowGlslStd450 applies it, and `clref sweep` on scalars (glsl_std450_scalar.cpp).
struct GlslStd450Rule {
  bool direct = false;
  numerics::MathFn fn{};
  VulkanFormula formula{};
  int arity = 1;
  bool exactReference = false;
};
std::optional<GlslStd450Rule> glslStd450Rule(uint32_t number);

// vulkanRule's allowed set of one result of `formula` at scalar operands (the `integer` ones a mask: Ldexp's exponent),
// `reference` clref's value of it: the same computation as a shader's lane, for a shader without execution modes
// whose verdict options for `format` are `options` (no instruction of GLSL.std.450 respects SignedZeroInfNanPreserve:
// a NaN or an infinity allows any value, a zero either sign).
numerics::ValueSet vulkanScalarSet(VulkanFormula formula, std::span<const double> operands, uint32_t integer,
                                   numerics::Format format, const numerics::VerdictOptions& options,
                                   bool exactReference, double reference);

// GLSL.std.450 Modf, ModfStruct, Frexp, FrexpStruct: both results ("correctly rounded", "correct result": clref's
// exact ones), with the freedoms a shader has — a zero's sign without SignedZeroInfNanPreserve, a denormal operand
// flushed unless DenormPreserve (then the results are those of a zero, an exponent undetermined) — the second result in
// the struct or through the pointer operand. An operand with a set makes both undetermined.
void twoResultsRule(ShadowLowering& S, bool frexp, bool structResult);
// The allowed set of the first result `first` (clref's: the exact fraction or significand) of Modf or Frexp of a finite
// operand x: with `flush` a denormal x may be a zero, with `nsz` a zero either sign (twoResultsRule's freedoms; a
// non-finite operand, whose results may be any value, is the caller's).
numerics::ValueSet twoResultsFirstSet(double x, double first, numerics::Format format, bool flush, bool nsz);

// OpDot, OpMatrixTimesVector, OpVectorTimesMatrix, OpMatrixTimesMatrix: result (column j, row i) inherits from
// Σ_k a[i·aRow + k·aK] × b[k·bK + j·bCol] (components of the operands' registers), rows × cols results.
struct SumOfProductsShape {
  uint32_t rows = 1, cols = 1, depth = 1;
  uint32_t aRow = 0, aK = 1, bK = 1, bCol = 0;
};
void vulkanSumOfProducts(ShadowLowering& S, const SumOfProductsShape& shape);

}  // namespace clref::interpreter
