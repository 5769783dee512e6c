// The specification's accuracy requirements as data (docs/ARCHITECTURE.md "Numerics": accuracy tables).
//
// Every row of every ULP table of both documents is stored with the clause it comes from:
//  - the OpenCL SPIR-V Environment, opencl-spirv-env-latest/numerical_compliance.asciidoc
//    §"Relative Error as ULPs": full profile, embedded profile and unsafe-math tables, one row
//    per SPIR-V instruction and one column per Float64/Float32/Float16;
//  - OpenCL C 3.0, opencl-c-spec.adoc §"Relative Error as ULPs": single precision (full),
//    embedded profile, single precision with -cl-unsafe-math-optimizations (full and
//    embedded), double precision and half precision (full and embedded) tables;
// plus the special rules stated elsewhere: the half_cos/half_sin/half_tan input range, the
// -cl-fp32-correctly-rounded-divide-sqrt build option, the flush-to-zero and overflow
// allowances, and the image normalised-conversion tolerances.
//
// The two documents disagree in places (see tests/accuracy and the rows' text); both are kept,
// each row names its document, and requirementsFor returns the rows of both. The verdict API
// (later) decides how to combine them. The data is checked against the spec text at test time
// (tests/accuracy re-extracts every table row and compares in both directions).
//
// Vulkan (Profile::Vulkan, Document::VulkanEnv): the two tables of vulkan/spirvenv.adoc § "Precision and Operation
// of SPIR-V Instructions", "Precision of Core SPIR-V Instructions" [[spirvenv-precision-core-table]] and "Precision of
// GLSL.std.450 Instructions" [[precision-of-glsl-std-450-instructions]], one row per instruction and per Float (the
// "Single precision" column) and Half ("Half precision") column, plus Double rows: the spec has no double column and
// says "The precision of double-precision instructions is at least that of single precision", so clref takes the
// single-precision bound measured in double's own ulps (as the Vulkan CTS does); those rows' text says so. Vulkan's
// bound shapes: "Correct result" (BoundKind::CorrectlyRounded: the exact result needs no rounding, so every rounding
// gives it), "Correctly rounded" (rounded in the mode AccuracyOptions::vulkanRounding names), "Correctly rounded with
// implementation defined rounding mode" (CorrectlyRoundedImplDefined), n ULP (exp/exp2: + 2·|x|, not floored:
// ulpsPerAbsX), absolute errors inside a domain (log/log2 with a strict "<": absoluteStrict; sin/cos: nothing is
// stated outside [-pi, pi], so any value there), OpFDiv's 2.5 ULP for |y| = 0 or |y| in [2^-126, 2^126] (any value
// for other y), and "Inherited from <formula>" (BoundKind::Inherited: no bound of its own; `formula` holds the
// formula, which the caller evaluates under these rows).
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "numerics/format.hpp"
#include "numerics/math.hpp"

namespace clref::numerics {

// The accuracy regime. Relaxed = -cl-unsafe-math-optimizations (implied by
// -cl-fast-relaxed-math); the relaxed tables state different bounds for the full and the
// embedded profile, hence RelaxedEmbedded. The relaxed tables cover single precision only; for
// half and double, and for functions a relaxed table does not list, the spec says the full
// (or embedded) profile table applies, and requirementsFor falls back to it. Vulkan: a Vulkan compute shader, whose
// rows are Vulkan's "Precision and Operation of SPIR-V Instructions" (Document::VulkanEnv), never the OpenCL tables.
enum class Profile : uint8_t { Full, Embedded, Relaxed, RelaxedEmbedded, Vulkan };

// Which document a requirement comes from.
enum class Document : uint8_t {
  SpirvEnv,   // opencl-spirv-env-latest/numerical_compliance.asciidoc (+ image_addressing_...)
  OpenCLC,    // opencl-c-spec.adoc
  OpenCLApi,  // opencl-3.0-api-latest/opencl_runtime_layer.asciidoc (build options)
  VulkanEnv,  // Vulkan, appendix "Vulkan Environment for SPIR-V" (vulkan/spirvenv.adoc), Precision and Operation
};

// Operations in the tables that are not OpenCL.std math/common functions.
enum class CoreOp : uint8_t {
  None,           // the row is an OpenCL.std function (AccuracyRequirement::fn)
  Add,            // OpFAdd, "x + y"
  Sub,            // OpFSub, "x - y"
  Mul,            // OpFMul, "x * y"
  Div,            // OpFDiv, "x / y"
  Recip,          // "1.0 / x" (OpFDiv with a constant 1.0 dividend)
  MulAdd,         // "x * y + z" contracted (OpFMul and OpFAdd), relaxed tables
  Dot,            // OpDot, dot
  Cross,          // cross
  Distance,       // distance
  Length,         // length
  Normalize,      // normalize
  FastDistance,   // fast_distance
  FastLength,     // fast_length
  FastNormalize,  // fast_normalize
};

enum class BoundKind : uint8_t {
  CorrectlyRounded,       // the correctly rounded result (Vulkan: also "Correct result", which needs no rounding)
  Ulps,                   // |error| <= ulps + ulpsPerN·n (+ floor(|2x|) if plusFloorAbs2x) (+ ulpsPerAbsX·|x|) ulp
  Absolute,               // |error| <= absolute (< if absoluteStrict) inside `domain`, see `otherwiseUlps`
  AbsoluteMaxSquared,     // |error| <= max·max·absolute (cross, dot: max = largest |operand|)
  FmaOrMulAdd,            // either a correctly rounded fma or a correctly rounded * then +
  Derived,                // relaxed: only "derived implementations may implement as …" is stated
  ImplementationDefined,  // "Implementation-defined"
  Undefined,              // "Undefined" (OpenCL C lgamma, lgamma_r)
  AnyValue,               // "Any value allowed (infinite ulp)"; also: outside a required range
  // Vulkan: "Inherited from <formula>": at least as accurate as the formula evaluated under these rows (`formula`);
  // the row states no bound of its own (judge() refuses it, allowedSet() answers every value).
  Inherited,
  // Vulkan: "Correctly rounded with implementation defined rounding mode": x itself when representable, else either
  // of the two values of the format around x (OpQuantizeToF16, packHalf2x16).
  CorrectlyRoundedImplDefined,
};

// A closed/open interval on an operand. `magnitude` means the bound is on |operand|
// (the relaxed divide rows: "x in the domain of 2^-126 to 2^126").
struct Interval {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool loOpen = false, hiOpen = false;
  bool magnitude = false;
  bool orZero = false;  // 0 belongs too (Vulkan OpFDiv: "|y| = 0 or |y| in the range [2^-126, 2^126]")
  constexpr bool contains(double v) const {
    if (orZero && v == 0) return true;
    double a = magnitude ? (v < 0 ? -v : v) : v;
    return (loOpen ? a > lo : a >= lo) && (hiOpen ? a < hi : a <= hi);
  }
};

// Where a requirement applies. An operand without an interval is unconstrained.
struct Domain {
  std::optional<Interval> x = {};  // first operand
  std::optional<Interval> y = {};  // second operand (divide)
  bool outside = false;            // the requirement applies where the operands are NOT all inside
  constexpr bool any() const { return x.has_value() || y.has_value(); }
};

// A build option that changes the requirement.
enum class Condition : uint8_t {
  None,
  Fp32CorrectlyRoundedDivideSqrt,  // -cl-fp32-correctly-rounded-divide-sqrt is in force
};

struct AccuracyRequirement {
  Document document;
  std::string_view table = {};    // the table's anchor, e.g. "ulp_values_for_math_instructions";
                                  // empty for a rule stated outside the tables
  std::string_view name = {};     // as the table names the row: "OpFDiv", "acos", "1.0 / x", "pow(x, y)"
  std::optional<MathFn> fn = {};  // the OpenCL.std function, or
  CoreOp core = CoreOp::None;     // the core operation
  Format format;
  Profile profile;
  BoundKind kind;
  double ulps = 0;              // Ulps: the constant part; Absolute: the bound outside `domain`
  double ulpsPerN = 0;          // Ulps: + ulpsPerN · n for vector width n (geometric functions)
  bool plusFloorAbs2x = false;  // Ulps: + floor(fabs(2 * x)) (relaxed exp, exp2)
  double absolute = 0;          // Absolute: the bound; AbsoluteMaxSquared: the factor of max·max
  double absolutePerN = 0;      // AbsoluteMaxSquared: + absolutePerN · n (dot: (2n - 1)·eps)
  Domain domain = {};           // where the bound holds (outside it: see otherwiseUlps)
  double otherwiseUlps = -1;    // Absolute with a domain: the ulp bound elsewhere; < 0: none
  // The operand range outside which the function is not defined (relaxed "Defined for x in
  // the domain [-88, 88]", half_sin "must be in the range [-2^16, +2^16]"); any value there.
  std::optional<Interval> definedFor = {};
  std::string_view derived = {};  // relaxed: the permitted derived implementation, verbatim
  Condition condition = Condition::None;
  std::string_view text = {};    // the table cell (or sentence), asciidoc markup removed
  std::string_view source = {};  // file § section (NOCITE), table title [anchor]
  double ulpsPerAbsX = 0;        // Ulps: + ulpsPerAbsX · |x|, not floored (Vulkan exp, exp2: "3 + 2 × |x| ULP")
  bool absoluteStrict = false;   // Absolute: |error| < absolute, not <= (Vulkan log, log2: "Absolute error <")
  std::string_view formula = {};  // Inherited: the formula, as the row states it
};

// Every requirement row of every table of both documents, plus the special-rule rows, in
// document order. Valid for the program's lifetime.
std::span<const AccuracyRequirement> accuracyTable();

// Vulkan: the rounding of "correctly rounded" rows (vulkan/spirvenv.adoc [[spirvenv-correctly-rounded]]): "If the
// entry point is declared with the RoundingModeRTE or the RoundingModeRTZ execution mode then this is done according
// to IEEE 754 roundTiesToEven or roundTowardZero rounding directions, respectively. Otherwise, they are rounded with
// implementation-defined rounding mode" (either value of the format around the exact result).
enum class VulkanRounding : uint8_t { ImplementationDefined, RTE, RTZ };

// Build options that change a requirement.
struct AccuracyOptions {
  bool fp32CorrectlyRoundedDivideSqrt = false;  // -cl-fp32-correctly-rounded-divide-sqrt
  // Vulkan: the entry point's rounding execution mode for the operation's width (the caller picks it per width).
  VulkanRounding vulkanRounding = VulkanRounding::ImplementationDefined;
};

// The requirements that apply to f (or the core operation) in format/profile: per document the
// most specific rows — the relaxed table's row when the profile is relaxed, the format is
// float and the table lists the function, otherwise the full/embedded table's row; the
// correctly-rounded row instead of the divide/sqrt rows when the build option is given;
// "1.0 / x" falls back to the divide row where a table has no reciprocal row. Special-rule
// rows (half_* input ranges) are added. Empty if no table covers it (e.g. half_* in double).
std::vector<const AccuracyRequirement*> requirementsFor(MathFn f, Format format, Profile profile,
                                                        AccuracyOptions options = {});
std::vector<const AccuracyRequirement*> requirementsFor(CoreOp op, Format format, Profile profile,
                                                        AccuracyOptions options = {});

// The Vulkan rows (Profile::Vulkan) of one instruction, by its name: a SPIR-V opcode name as
// /usr/include/spirv/unified1/spirv.core.grammar.json spells it ("OpFDiv", "OpFRem", "OpMatrixTimesVector", "OpDot",
// "OpQuantizeToF16", "OpFConvert" and the other conversions: the row "conversions between types"), or a GLSL.std.450
// instruction name as extinst.glsl.std.450.grammar.json spells it ("Exp2", "InverseSqrt", "FMix", "SmoothStep",
// "FaceForward", "PackHalf2x16", "ModfStruct", "FrexpStruct", ...). Every row of both Vulkan tables is reachable this
// way, also those without a MathFn or CoreOp (OpFNegate, the comparisons, OpFMod, OpQuantizeToF16, NMin, Reflect,
// ...). Format::Double gives the rows derived from the single-precision column. Empty for an unknown name (and for
// GLSL.std.450 instructions the tables do not list: their precision is implementation-defined or follows from the
// instructions they are defined by). Valid for the program's lifetime.
std::vector<const AccuracyRequirement*> requirementsForInstruction(std::string_view name, Format format);

// A rule that is not a per-function bound (flush to zero, overflow, half_* denormals).
struct GeneralRule {
  Document document;
  std::string_view id;     // "ftz", "overflow", "half-fn-denormals", ...
  std::string_view quote;  // a sentence of the spec, markup removed (checked by the tests)
  std::string_view source;
};
std::span<const GeneralRule> generalRules();

// Image conversion tolerances (normalised integer <-> float/half, sRGB).
enum class ImageConversion : uint8_t {
  NormToFloat,   // read_imagef of a *NORM_INT* channel
  NormToHalf,    // read_imageh of a *NORM_INT* channel
  FloatToNorm,   // write_imagef to a *NORM_INT* channel (approximate rounding allowed)
  HalfToNorm,    // write_imageh to a *NORM_INT* channel
  SrgbToLinear,  // read of an sRGB channel
  LinearToSrgb,  // write of an sRGB channel
};
struct ImageTolerance {
  Document document;
  ImageConversion conversion;
  std::string_view channelType;  // "CL_UNORM_INT8", … ("" for the sRGB rules)
  double scale;                  // 255, 1023, 65535, 127, 32767, 4095, 16383 (0 for sRGB)
  double ulps;                   // NormTo*: <= ulps of the result (1.5)
  double absolute;               // *ToNorm, sRGB: |difference| <= absolute, in integer units
  // The values that must convert exactly (NormTo*): pairs (integer, result), up to 4.
  struct Exact {
    double from, to;
  };
  Exact exact[4];
  int exactCount;
  std::string_view reference;  // *ToNorm: what the approximation is compared with
  std::string_view quote;      // a sentence of the spec, markup removed (checked)
  std::string_view source;
};
std::span<const ImageTolerance> imageTolerances();

std::string_view toString(Profile);
std::string_view toString(Document);
std::string_view toString(CoreOp);
std::string_view toString(BoundKind);

}  // namespace clref::numerics
