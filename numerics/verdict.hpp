// Verdicts (docs/ARCHITECTURE.md "Numerics": verdict): given an operation, its operands, the format, the
// profile and a value some implementation produced, is that value one the specification allows?
//
// The rules applied, each at its code in verdict.cpp:
//  - The accuracy requirement is the row of the spec's tables (numerics/accuracy.hpp). Where
//    both documents have a row, the OpenCL SPIR-V Environment's decides (clref consumes SPIR-V;
//    numerical_compliance.asciidoc is that document's accuracy chapter) and a differing verdict
//    under OpenCL C's row is reported in `note`.
//  - Errors are measured from the infinitely precise result (OpenCL SPIR-V Environment §6.6 [[relative-error-as-ulps]]
//    "Relative Error as ULPs": "The reference value used to compute the ULP value is the infinitely precise
//    result"), computed in MPFR, never from a rounded reference.
//  - ulp(x) is the spec's definition (same section, after J.-M. Muller): for x strictly between
//    two consecutive finite values a and b of the format, |b - a|; otherwise the distance between
//    the two non-equal finite values nearest x. So ulp(2^k) is the gap *below* 2^k, ulp(0) is the
//    smallest subnormal, and every x at or beyond the largest finite value has the gap of the
//    top binade.
//  - Overflow (same section): ±inf is allowed for a finite reference value x when the value
//    2^(emax+1) that would follow the largest finite value meets the ulp bound; for
//    |x| >= 2^(emax+1) (the correctly rounded result is then ±inf) ±inf is always allowed.
//  - Flush to zero (OpenCL SPIR-V Environment §6.4 [[_inf_nan_and_denormalized_numbers]], OpenCL C 3.0
//    §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] "Edge Case Behavior in Flush to Zero Mode"): for half and
//    float, a subnormal operand may be read as
//    ±0 and a result that is subnormal before rounding may be returned as ±0, the sign of such a
//    zero being undefined. Double must keep subnormals unless VerdictOptions says otherwise.
//  - NaN: any NaN is allowed for a NaN reference result; a NaN for a number, or a number for a
//    NaN, is never allowed (unless the rule allows any value).
//  - Zero signs: the ulp measure does not see the sign of zero, so for a nonzero reference value
//    either zero is within the bound or neither is. For an exactly zero reference value the sign
//    is the one the edge cases prescribe (the correctly rounded result's), except for the
//    functions whose zero sign the spec does not fix (fmin/fmax/clamp/maxmag/minmag of equal
//    zeros, mix, smoothstep) and where a flush to zero is involved.
//  - Correctly rounded rows: the correctly rounded result in the device's default rounding mode:
//    round to nearest even, or also round toward zero where the spec lets a device choose it
//    (OpenCL SPIR-V Environment §6.1 [[_rounding_modes]]: single precision in the embedded profile, half precision).
//  - mad: the fused and the unfused result (each correctly rounded) are both allowed, as are the
//    unfused result with a subnormal product flushed; the embedded profile's row is
//    implementation-defined (any value).
//  - Rows "Implementation-defined", "Undefined", operands outside the range where a relaxed or
//    half_ function is defined, and absolute-error rules outside their stated domain ("and
//    larger otherwise"): any value.
//  - Vulkan (Profile::Vulkan, the rows of Document::VulkanEnv; Vulkan §A [external] [[spirvenv-op-prec]]):
//    ulp(x) ([[spirvenv-ulp]]: "the minimum possible distance between" non-equal finite a <= x <= b, else the
//    distance between the two finite values nearest x) is the same function as ulpOf: at 2^k the gap below, at 0
//    and in the subnormals the smallest subnormal, beyond the largest finite value the top binade's gap. The
//    overflow rule differs: "Where the range of allowed return values includes any value of magnitude larger than"
//    the largest finite value, the infinity and the largest finite value of that sign are allowed as well (OpenCL:
//    only when 2^(emax+1) is within the bound). The OpenCL edge cases ("exactly the prescribed answers") do not
//    apply: Vulkan's zeros and infinities are "subject to the precisions allowed by each operation". Correctly
//    rounded rows round as AccuracyOptions::vulkanRounding says (implementation-defined: either neighbour of the
//    exact value; RTE; RTZ) unless VerdictOptions::rounding names a mode; "correctly rounded with implementation
//    defined rounding mode" rows allow either neighbour always. Subnormals may be flushed in every format by default
//    ("any denormalized value ... may be flushed to zero"); VerdictOptions::flushToZero = false is DenormPreserve.
//    "Inherited from <formula>" rows have no bound of their own: judge() throws std::invalid_argument for them and
//    ruleOver/allowedSet answer any value (the caller evaluates the formula, numerics/accuracy.hpp).
//  - Multi-output functions (frexp, modf, fract, sincos, remquo, lgamma_r): the main (returned)
//    value is judged: frexp's mantissa, modf's fractional part, fract's fractional part, sincos's
//    sine, remquo's remainder, lgamma_r's lgamma. ilogb's observed value is the integer result
//    held in a double; FP_ILOGB0 may be INT_MIN or -INT_MAX and FP_ILOGBNAN INT_MAX or INT_MIN
//    (OpenCL C 3.0 "Math Functions", the FP_ILOGB0 and FP_ILOGBNAN macros).
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "numerics/accuracy.hpp"
#include "numerics/format.hpp"
#include "numerics/math.hpp"

namespace clref::numerics {

struct VerdictOptions {
  AccuracyOptions accuracy = {};
  // May subnormal operands and results be flushed to zero? nullopt: as the spec allows per
  // format (half and float yes, double no); true/false: a device that does or does not
  // (-cl-denorms-are-zero extends it to double: OpenCL 3.0 API "Math Intrinsics Options").
  std::optional<bool> flushToZero = {};
  // The device's default rounding mode for correctly rounded rows; nullopt: every mode the spec
  // lets a device choose (RTE, plus RTZ for embedded-profile float and for half).
  std::optional<Rounding> rounding = {};
};

struct Verdict {
  bool allowed = false;
  // |observed - exact| / ulp(exact), with exact the infinitely precise result (MPFR) and ulp the
  // spec's definition. Cases: both NaN → 0; exactly one NaN → NaN (ulp(NaN) is NaN); an
  // infinite exact result (a prescribed edge case) → 0 if observed is the same infinity, else
  // +inf; observed ±inf for a finite exact x → the error of ±2^(emax+1) (the overflow rule),
  // 0 when |x| >= 2^(emax+1), +inf for the opposite sign; observed finite for an exact value
  // beyond MPFR's own range → +inf.
  double errorUlps = 0;
  double allowedUlps = std::numeric_limits<double>::quiet_NaN();  // the ulp bound applied, or NaN
  // The allowed results: values of the format in [lo, hi] (±inf included through the overflow
  // rule); for a NaN exact result lo = hi = NaN (any NaN); for "any value" -inf..inf.
  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = std::numeric_limits<double>::quiet_NaN();
  bool zeroAllowed = false;  // ±0 is allowed besides [lo, hi] (flush to zero)
  bool nanAllowed = false;   // a NaN is allowed besides [lo, hi] (mad's unfused form meeting inf - inf)
  bool anyValue = false;     // every value of the format, NaN included (no bound, or an undefined result)
  std::string rule;          // e.g. "<= 4 ulp", "correctly rounded (rte)", "|error| <= 2^-11"
  std::string clause;        // the spec clause of the row applied
  std::string exact;         // the exact value, 40 significant digits
  std::string note;          // other considerations: flushed operands, the other document's row
};

// The verdict for observed = f(args) in `format`. args are values of the format held in
// doubles (integer operands as exact doubles), args.size() == arity(f). Thread-safe.
Verdict judge(MathFn f, std::span<const double> args, double observed, Format format, Profile profile,
              const VerdictOptions& options = {});
inline Verdict judge(MathFn f, std::span<const double> args, double observed, Format format, Profile profile,
                     const AccuracyOptions& accuracy) {
  return judge(f, args, observed, format, profile, VerdictOptions{accuracy, {}, {}});
}

// The same for the core operations with a scalar ulp rule: Add, Sub, Mul (correctly rounded),
// Div (x / y) and Recip (1 / x). Throws std::invalid_argument for the others or a wrong arity.
Verdict judgeCore(CoreOp op, std::span<const double> args, double observed, Format format, Profile profile,
                  const VerdictOptions& options = {});

// The verdict for one Vulkan instruction (Profile::Vulkan), named as requirementsForInstruction takes it ("OpFDiv",
// "Exp2", "OpQuantizeToF16", "PackHalf2x16", "OpFConvert", "NMin", ...), under its row of the Vulkan tables: also
// the rows without an OpenCL.std function or core operation of their own (OpFNegate, OpVectorTimesScalar,
// OpMatrixTimesScalar, OpOuterProduct per component, OpFmaKHR, NMin/NMax/NClamp, and the conversions, whose operand
// args[0], a value of the source format, is rounded to `format`: OpQuantizeToF16 and PackHalf2x16 with Format::Half).
// Throws std::invalid_argument for an unknown name, a row without a numeric result (comparisons, atomics,
// derivatives), an Inherited row, a vector rule, or a wrong arity.
Verdict judgeInstruction(std::string_view instruction, std::span<const double> args, double observed, Format format,
                         const VerdictOptions& options = {});

// ulp(x) of the format by the spec's definition, for a finite value x held in a double (every
// finite double works, also beyond the format's range). Exact (a power of two).
double ulpOf(double x, Format format);

// ---- The rule itself, for the allowed-set engine (numerics/enclosure.hpp) ----------------------

enum class RuleKind : uint8_t { CorrectlyRounded, Ulps, Absolute, MadBoth, Any };
struct AccuracyRule {
  RuleKind kind = RuleKind::Any;
  double bound = 0;  // Ulps: ulps; Absolute: the absolute error
  std::string text;
  std::string clause;
  bool strict = false;  // Absolute: |error| < bound (Vulkan log, log2), not <=
  // CorrectlyRounded: either value of the format around the exact result (Vulkan "correctly rounded with
  // implementation defined rounding mode"), whatever the rounding options say.
  bool eitherNeighbour = false;
  bool vulkan = false;  // a Vulkan row: Vulkan's overflow rule, no exactly prescribed edge cases
  // Ulps: + this many ulps (Vulkan exp, exp2: 2·|x|), kept apart from `bound` so that the sum is formed exactly.
  double extraUlps = 0;
};
// The rule judge() (fn) or judgeCore() (core, with fn empty) applies to every operand tuple with operand i in
// [lo[i], hi[i]]: the primary document's row, or "any value" where the rule differs inside the ranges (a range that
// straddles the edge of a row's domain) or, for point ranges, where the operands make the result undefined. The
// caller decides operand conditions of undefinedness (clamp's bounds, mix's weight, ...) for non-point ranges.
AccuracyRule ruleOver(std::optional<MathFn> fn, CoreOp core, std::span<const double> lo, std::span<const double> hi,
                      Format format, Profile profile, const VerdictOptions& options = {});

// The allowed results alone of judge() (fn) or judgeCore() (core, with fn empty) at one operand tuple: the verdict's
// lo, hi, zeroAllowed, nanAllowed and anyValue, the same as judge()'s for any observed value; no observed value is
// judged (allowed, errorUlps), and the texts (rule, clause, exact, note) are left out with the other document's
// verdict, which only adds a note. What an allowed set at a point needs: the shadow run computes one for every value
// with freedom, where the texts (the exact value printed by MPFR) and the second verdict cost half of judge()'s time.
// Throws as judge() and judgeCore() do.
Verdict allowedAt(std::optional<MathFn> fn, CoreOp core, std::span<const double> args, Format format, Profile profile,
                  const VerdictOptions& options = {});

// The table row of a core operation (the geometric functions' rows depend on the vector width, which the caller
// applies) in the document judge() follows, or nullptr where no table has one.
// (nullptr also where a rule outside the tables, an operand range, applies besides the row.)
const AccuracyRequirement* primaryRow(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                                      const AccuracyOptions& options = {});

// ---- Verdict passes over every float input of a unary function -------------------------------

// Fills out[i] with the implementation's result for the float whose bits are firstBits + i.
// Called concurrently from several threads with disjoint ranges.
using ObservedFloats = std::function<void(uint32_t firstBits, std::span<float> out)>;

struct VerdictPass {
  uint64_t inputs = 0;
  uint64_t allowed = 0;
  uint64_t disallowed = 0;
  uint64_t exactPath = 0;     // inputs decided by judge() (MPFR) instead of the binary64 fast path
  double worstErrorUlps = 0;  // the largest errorUlps of a disallowed result (NaN errors aside)
  uint32_t worstInput = 0;    // its input's bits
  float worstObserved = 0;
  std::vector<uint32_t> firstDisallowed;  // some (up to 16) disallowed inputs' bits, sorted
};

// Judges the implementation's float result for every input bits in [begin, end) (default: all
// 2^32) with `threads` threads (0: the hardware's). For sin, cos, tan, exp, exp2, expm1, log,
// log2, log10, log1p, asin, acos, atan, sinh, cosh, tanh, cbrt under a constant ulp rule a
// binary64 fast path accepts results clearly within the bound without MPFR; every other
// input (near the bound, special values, disallowed results) goes through judge().
VerdictPass judgeAllFloat(MathFn f, Profile profile, const VerdictOptions& options, const ObservedFloats& observed,
                          unsigned threads = 0, uint64_t begin = 0, uint64_t end = uint64_t(1) << 32);

}  // namespace clref::numerics
