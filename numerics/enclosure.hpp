// Allowed sets (docs/ARCHITECTURE.md "Numerics": verdict): every value a conforming implementation may return for an
// operation whose operands are themselves any values of given sets. This is what propagates allowed sets through a
// whole kernel (the interpreter's shadow mode): a value computed by an earlier instruction is not one number but the
// set of numbers conforming devices could have produced, and the next instruction's allowed results are the union,
// over those operands, of what its own rule allows.
//
// The sets are enclosures: every allowed value is inside, and a value outside is certainly not allowed; for
// operands that are single values the set is exactly judge()'s (numerics/verdict.hpp). Over operand ranges the
// exact function's range is enclosed with MPFI (interval arithmetic on MPFR) for functions that are not monotone, or
// from the exact values at the ends of the range for functions that are, then widened by the rule of the spec's
// tables that holds over the whole range (an ulp bound measured at the largest magnitude, an absolute bound, the
// correctly rounded result in every rounding mode a device may default to, mad fused or not) and by flushing to
// zero where the format allows it. A function with no enclosure here, or operands whose range makes the rule or
// the result undefined somewhere, gives every value of the format (ValueSet::all), which is never wrong.
#pragma once
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "numerics/accuracy.hpp"
#include "numerics/format.hpp"
#include "numerics/math.hpp"
#include "numerics/verdict.hpp"

namespace clref::numerics {

// A set of values of a format held in doubles: the values v with lo <= v <= hi, and NaN (any NaN) when `nan`. The
// ends say which zeros are in: -0 when lo < 0 or lo is -0, +0 when hi > 0 or hi is +0. lo > hi: no number.
struct ValueSet {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool nan = false;

  static ValueSet point(double v) {
    if (std::isnan(v)) return nanOnly();
    return {v, v, false};
  }
  static ValueSet nanOnly() {
    ValueSet s;
    s.nan = true;
    return s;
  }
  static ValueSet all() {
    return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), true};
  }
  bool hasNumbers() const { return lo <= hi; }
  // One value: a single number (one zero), or NaN alone.
  bool isPoint() const {
    return nan ? !hasNumbers() : (lo == hi && std::signbit(lo) == std::signbit(hi));
  }
  bool isAll() const { return nan && std::isinf(lo) && lo < 0 && std::isinf(hi) && hi > 0; }
  bool contains(double v) const {
    if (std::isnan(v)) return nan;
    if (!(lo <= v && v <= hi)) return false;
    if (v != 0) return true;
    if (std::signbit(v)) return lo < 0 || std::signbit(lo);
    return hi > 0 || !std::signbit(hi);
  }
  bool operator==(const ValueSet&) const = default;
};

ValueSet hull(const ValueSet& a, const ValueSet& b);
// "0x1.921fb6p+0", "[0x1.921fb4p+0, 0x1.921fb8p+0]", "... or NaN", "any value" (values as %a, in the format).
std::string toString(const ValueSet& s);

// The allowed results of f (any OpenCL.std math or common function) in `format` for all operand tuples with
// operand i in args[i] (args.size() == arity(f)), under the profile and options of the verdict engine.
ValueSet allowedSet(MathFn f, std::span<const ValueSet> args, Format format, Profile profile,
                    const VerdictOptions& options = {});
// The same for a core operation: Add, Sub, Mul, Div, Recip.
ValueSet allowedSetCore(CoreOp op, std::span<const ValueSet> args, Format format, Profile profile,
                        const VerdictOptions& options = {});
// The geometric functions (OpenCL C 3.0 §6.15.5 [[geometric-functions]]; op Dot (OpDot and dot), Cross, Length,
// Distance, Normalize and the fast_ forms): the allowed set of component `component` of the result for operand
// vectors whose components are in p[i] (and q[i] for dot, cross, distance), under the table row for vector width
// n = p.size() (an absolute bound max·max·factor, or an ulp bound ulps + ulpsPerN·n).
ValueSet allowedSetGeometric(CoreOp op, std::span<const ValueSet> p, std::span<const ValueSet> q, size_t component,
                             Format format, Profile profile, const VerdictOptions& options = {});

// Every value of `x` converted to `format` with rounding r (a conversion is correctly rounded: its only freedom is
// a flush to zero of a subnormal result where `flushToZero`).
ValueSet roundSet(const ValueSet& x, Format format, Rounding r, bool flushToZero);

namespace detail {
// The allowed set of single float operands decided from a binary64 approximation without MPFR
// (enclosure_fast.cpp), or nullopt where it cannot decide (then judge() decides). fn, or core when fn is empty.
std::optional<ValueSet> fastPointSet(std::optional<MathFn> fn, CoreOp core, std::span<const double> args, Format format,
                                     Profile profile, const VerdictOptions& options);
// The allowed set over float operand ranges from binary64 arithmetic with directed brackets, for the core
// operations, fma and mad under a rule that holds everywhere; an enclosure at most one float value wider than the
// general path's at each end, or nullopt (then the general path decides).
std::optional<ValueSet> fastRangeSet(std::optional<MathFn> fn, CoreOp core, std::span<const ValueSet> args,
                                     Format format, Profile profile, const VerdictOptions& options);
// fastPointSet's rule for one operation, looked up once (pointRuleOf), for callers that ask it of many operand tuples
// (the shadow mode's instructions on lanes). Not usable: fastPointSet would not decide for any operands.
enum class PointOp : uint8_t { None, Quotient, Reciprocal, Sqrt, Host, Fma, Mad };
struct PointRule {
  PointOp op = PointOp::None;
  uint32_t arity = 0;
  bool correctlyRounded = false;  // else an ulp bound of `ulps` (Fma, Mad: their own rules)
  double ulps = 0;
  double (*host)(double) = nullptr;  // Host: the host's function (its error bound: enclosure_fast.cpp)
  bool usable() const { return op != PointOp::None; }
};
PointRule pointRuleOf(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                      const VerdictOptions& options);
// fastPointSet for n operand tuples at once: tuple i's operand k is args[k][i]; where the point path decides,
// decided[i] is 1 and the set (no NaN) is [setLo[i], setHi[i]], bit for bit fastPointSet's.
void fastPointSets(const PointRule& rule, size_t n, const double* const* args, double* setLo, double* setHi,
                   uint8_t* decided);
// fastRangeSet's rule for one operation, looked up once (rangeRuleOf), for callers that ask it of many operand
// tuples: the shadow mode's instructions on lanes. Not usable: fastRangeSet would not decide for any operands.
enum class RangeOp : uint8_t { None, Add, Sub, Mul, Div, Fma, Mad };
struct RangeRule {
  RangeOp op = RangeOp::None;
  uint32_t arity = 0;
  Profile profile = Profile::Full;
  const AccuracyRule* rule = nullptr;  // simpleRule's (its cache keeps it)
  bool usable() const { return op != RangeOp::None; }
};
RangeRule rangeRuleOf(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                      const VerdictOptions& options);
// fastRangeSet for n operand tuples at once: tuple i's operand k is the numbers [lo[k][i], hi[k][i]] (no NaN); where
// the range path decides, decided[i] is 1 and the set (no NaN) is [setLo[i], setHi[i]], bit for bit fastRangeSet's.
void fastRangeSets(const RangeRule& rule, size_t n, const double* const* lo, const double* const* hi, double* setLo,
                   double* setHi, uint8_t* decided);
// A sum a device may contract (SPIR-V 1.0 §3.20 [external] NoContraction: an OpFMul without it may be "combined with
// an addition to yield a fused multiply-add"; x + y or x - y computed as fma(fa, fb, fc)) over float operand ranges:
// the hull of fastRangeSet of the sum and of the fma, where both decide; the rows' rules looked up once
// (contractedSumRules), for the shadow mode's sums on lanes, whose every lane asks this. false: either fastRangeSet
// would not decide (the caller takes the general path).
struct ContractedSumRules {
  bool usable = false;  // the sum's and fma's rows are rules the range path takes, in a format and profile it takes
  bool subtract = false;
  Profile profile = Profile::Full;
  std::optional<AccuracyRule> sum, fma;
};
ContractedSumRules contractedSumRules(CoreOp core, Format format, Profile profile, const VerdictOptions& options);
bool fastContractedSum(const ContractedSumRules& rules, const ValueSet& x, const ValueSet& y, const ValueSet& fa,
                       const ValueSet& fb, const ValueSet& fc, ValueSet& set);
// The general path over ranges (MPFI or monotone ends, widened by the rule), without the fast path.
ValueSet generalRangeSet(std::optional<MathFn> fn, CoreOp core, std::span<const ValueSet> args, Format format,
                         Profile profile, const VerdictOptions& options);
// The rule of a row that holds for every operand (no domain, no operand range, no term in x or the vector width),
// kept per (function, format, profile, options); nullopt for other rows (ruleOver decides them).
const std::optional<AccuracyRule>& simpleRule(std::optional<MathFn> fn, CoreOp core, Format format,
                                              Profile profile, const VerdictOptions& options);
}  // namespace detail

}  // namespace clref::numerics
