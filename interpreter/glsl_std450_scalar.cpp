// One GLSL.std.450 instruction on scalar operands (shader_float_freedoms.hpp), for `clref sweep GLSL.std.450:NAME`:
// clref's value from the very handlers a shader's lowering emits, and the allowed set from the rule the shadow run
// applies (glslStd450Rule), so that a sweep and `clref check` on a shader cannot disagree.
#include <spirv/unified1/GLSL.std.450.h>

#include <array>
#include <cmath>
#include <cstring>

#include "interpreter/ops_glsl_std450.hpp"
#include "interpreter/shader_float_freedoms.hpp"
#include "interpreter/shadow_vulkan.hpp"

namespace clref::interpreter {
namespace {

// GLSL.std.450 §2 [external]: the instructions of floating-point scalars (component-wise, or geometric of one
// component), and Ldexp.
struct NamedInstruction {
  std::string_view name;
  uint32_t number;
};
constexpr NamedInstruction kScalarInstructions[] = {
    {"Round", GLSLstd450Round},         {"RoundEven", GLSLstd450RoundEven},   {"Trunc", GLSLstd450Trunc},
    {"FAbs", GLSLstd450FAbs},           {"FSign", GLSLstd450FSign},           {"Floor", GLSLstd450Floor},
    {"Ceil", GLSLstd450Ceil},           {"Fract", GLSLstd450Fract},           {"Radians", GLSLstd450Radians},
    {"Degrees", GLSLstd450Degrees},     {"Sin", GLSLstd450Sin},               {"Cos", GLSLstd450Cos},
    {"Tan", GLSLstd450Tan},             {"Asin", GLSLstd450Asin},             {"Acos", GLSLstd450Acos},
    {"Atan", GLSLstd450Atan},           {"Sinh", GLSLstd450Sinh},             {"Cosh", GLSLstd450Cosh},
    {"Tanh", GLSLstd450Tanh},           {"Asinh", GLSLstd450Asinh},           {"Acosh", GLSLstd450Acosh},
    {"Atanh", GLSLstd450Atanh},         {"Atan2", GLSLstd450Atan2},           {"Pow", GLSLstd450Pow},
    {"Exp", GLSLstd450Exp},             {"Log", GLSLstd450Log},               {"Exp2", GLSLstd450Exp2},
    {"Log2", GLSLstd450Log2},           {"Sqrt", GLSLstd450Sqrt},             {"InverseSqrt", GLSLstd450InverseSqrt},
    {"FMin", GLSLstd450FMin},           {"FMax", GLSLstd450FMax},             {"FClamp", GLSLstd450FClamp},
    {"FMix", GLSLstd450FMix},           {"Step", GLSLstd450Step},             {"SmoothStep", GLSLstd450SmoothStep},
    {"Fma", GLSLstd450Fma},             {"Ldexp", GLSLstd450Ldexp},           {"Length", GLSLstd450Length},
    {"Distance", GLSLstd450Distance},   {"Normalize", GLSLstd450Normalize},   {"FaceForward", GLSLstd450FaceForward},
    {"Reflect", GLSLstd450Reflect},     {"Refract", GLSLstd450Refract},       {"NMin", GLSLstd450NMin},
    {"NMax", GLSLstd450NMax},           {"NClamp", GLSLstd450NClamp}};
// Two results, of which a sweep judges the first (GlslStd450Scalar::firstOfTwo).
constexpr NamedInstruction kFirstOfTwoInstructions[] = {{"Modf", GLSLstd450Modf},
                                                        {"ModfStruct", GLSLstd450ModfStruct},
                                                        {"Frexp", GLSLstd450Frexp},
                                                        {"FrexpStruct", GLSLstd450FrexpStruct}};

bool isFrexp(uint32_t number) { return number == GLSLstd450Frexp || number == GLSLstd450FrexpStruct; }

// The others, each with why a sweep of scalars does not take it.
struct Refused {
  std::string_view names, why;
};
constexpr Refused kRefused[] = {
    {" Cross ", "is defined on 3-component vectors only"},
    {" Determinant MatrixInverse ",
     "takes a matrix, and its precision is implementation-defined (Vulkan §A.4.2 [external]: any value is allowed)"},
    {" PackSnorm4x8 PackUnorm4x8 PackSnorm2x16 PackUnorm2x16 PackHalf2x16 PackDouble2x32 UnpackSnorm2x16 "
     "UnpackUnorm2x16 UnpackHalf2x16 UnpackSnorm4x8 UnpackUnorm4x8 UnpackDouble2x32 ",
     "packs or unpacks vectors into integers (its precision, where it has one, is implementation-defined)"},
    {" SAbs SSign UMin SMin UMax SMax UClamp SClamp FindILsb FindSMsb FindUMsb IMix ",
     "is an integer instruction (IMix is reserved)"},
    {" InterpolateAtCentroid InterpolateAtSample InterpolateAtOffset ", "is for fragment shaders only"},
};

std::array<GlslStd450Scalar, std::size(kScalarInstructions) + std::size(kFirstOfTwoInstructions)> scalarTable() {
  std::array<GlslStd450Scalar, std::size(kScalarInstructions) + std::size(kFirstOfTwoInstructions)> out{};
  for (size_t i = 0; i < std::size(kScalarInstructions); ++i) {
    const NamedInstruction& n = kScalarInstructions[i];
    const GlslStd450Rule rule = glslStd450Rule(n.number).value();
    out[i] = {n.name, n.number, rule.arity, n.number == GLSLstd450Ldexp,
              rule.direct ? std::optional(rule.fn) : std::nullopt};
  }
  for (size_t i = 0; i < std::size(kFirstOfTwoInstructions); ++i) {
    const NamedInstruction& n = kFirstOfTwoInstructions[i];
    out[std::size(kScalarInstructions) + i] = {n.name, n.number, 1, false, std::nullopt, true};
  }
  return out;
}

}  // namespace

std::span<const GlslStd450Scalar> glslStd450Scalars() {
  static const auto table = scalarTable();
  return table;
}

std::string glslStd450NotScalar(std::string_view name) {
  for (const Refused& r : kRefused)
    if (r.names.find(" " + std::string(name) + " ") != std::string_view::npos)
      return "GLSL.std.450 " + std::string(name) + " " + std::string(r.why);
  return "GLSL.std.450 has no instruction " + std::string(name);
}

double glslStd450ScalarValue(const GlslStd450Scalar& g, std::span<const double> operands, numerics::Format format,
                             bool towardZero, const numerics::Choices& choices) {
  const numerics::ScalarType s = numerics::scalarTypeOf(format);
  // Ldexp's exponent: an integer of the result's width (half's 16 bits), as `clref sweep` reads it; eta of Refract
  // of I's type.
  const numerics::ScalarType exponent = format == numerics::Format::Half ? numerics::ScalarType::UShort
                                                                         : numerics::ScalarType::UInt;
  Op op;
  if (g.firstOfTwo) {
    // The second result into a register of its own (imm 1, as a struct's member), an exponent of 4 bytes.
    op.fn = glslTwoResultsHandler(isFrexp(g.number), s, false);
    op.imm = 1;
  } else if ((op.fn = glslGeometricHandler(g.number, s, s, false, towardZero))) {
    op.imm = g.number;
  } else {
    const GlslKernel k = glslStd450Kernel(g.number, s, exponent, false, towardZero);
    op.fn = k.fn;
    op.imm = k.imm;
  }
  // One lane: the result at register 0, the operands at 16, 32, 48 (room for a double each).
  op.r = 0;
  op.a = 16;
  op.b = 32;
  op.c = g.firstOfTwo ? 4 : 48;
  op.n = 1;
  alignas(16) std::array<uint8_t, 64> regs{};
  Launch launch;
  launch.choices = &choices;
  WorkItem wi;
  wi.launch = &launch;
  wi.regs = regs.data();
  const uint32_t at[3] = {op.a, op.b, op.c};
  return withFloat(s, [&]<class T>() {
    for (size_t k = 0; k < operands.size() && k < 3; ++k) {
      if (g.integerExponent && k == 1) {
        const int32_t e = int32_t(operands[k]);
        if (format == numerics::Format::Half)
          wr<int16_t>(wi, at[k], int16_t(e));
        else
          wr<int32_t>(wi, at[k], e);
      } else {
        wr<T>(wi, at[k], fromD<T>(operands[k]));
      }
    }
    op.fn(wi, &op);
    return toD(rd<T>(wi, op.r));
  });
}

numerics::ValueSet glslStd450ScalarAllowedSet(const GlslStd450Scalar& g, std::span<const double> operands,
                                              numerics::Format format, double reference) {
  // A shader without execution modes (clref check's default options): ShadowRun::verdictFor.
  const numerics::VerdictOptions options = shaderVerdictOptions({}, false, false, false);
  if (g.firstOfTwo) {
    // twoResultsRule: a NaN or an infinity makes both results any value (GLSL 4.60 §8.3 [external] frexp: "undefined";
    // modf: a shader without SignedZeroInfNanPreserve assumes NotNaN and NotInf, Vulkan §A.4 [external]).
    if (!std::isfinite(operands[0])) return numerics::ValueSet::all();
    return twoResultsFirstSet(operands[0], reference, format, options.flushToZero.value_or(false), true);
  }
  const GlslStd450Rule rule = glslStd450Rule(g.number).value();
  if (rule.direct) {
    // shadow_support.cpp's rule of a math function, as shadowGlslStd450 registers it (preserving false).
    std::vector<numerics::ValueSet> sets;
    for (double v : operands) sets.push_back(numerics::ValueSet::point(v));
    return glslStd450AllowedSet(rule.fn, sets, format, options);
  }
  return vulkanScalarSet(rule.formula, operands, g.integerExponent ? 2u : 0u, format, options, rule.exactReference,
                         reference);
}

}  // namespace clref::interpreter
