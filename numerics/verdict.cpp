// Verdicts: is an observed result one the specification allows? (numerics/verdict.hpp)
#include "numerics/verdict.hpp"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "numerics/math_internal.hpp"
#include "numerics/mpfr_round.hpp"
#include "numerics/row_cache.hpp"

namespace clref::numerics {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- The format's values ---------------------------------------------------------------------

int emaxOf(Format f) { return int(rangeOf(f).emax) - 1; }           // IEEE emax
int eminOf(Format f) { return 1 - emaxOf(f); }                      // IEEE emin
int minSubExp(Format f) { return eminOf(f) - precisionOf(f) + 1; }  // 2^this: smallest subnormal
double minNormal(Format f) { return std::ldexp(1.0, eminOf(f)); }

double largestFinite(Format f) { return std::ldexp(2.0 - std::ldexp(1.0, 1 - precisionOf(f)), emaxOf(f)); }

bool isSubnormalIn(double v, Format f) { return v != 0 && std::isfinite(v) && std::fabs(v) < minNormal(f); }

using detail::stepFormat;

// The exponent k with ulp(x) = 2^k by the spec's definition (OpenCL SPIR-V Environment §6.6 [[relative-error-as-ulps]]
// / OpenCL C 3.0 §7.4 [[relative-error-as-ulps]] "Relative Error as ULPs"): the gap between the two consecutive finite
// values around x; at a value of
// the format, the distance to its nearest other value, which at a power of two 2^e (e > emin)
// is the gap below; 0 and the subnormal range have the smallest subnormal; at and beyond the
// largest finite value, the gap of the top binade. `e` is floor(log2|x|), `pow2` whether
// |x| = 2^e.
int ulpExponent(bool zero, long e, bool pow2, Format f) {
  const int p = precisionOf(f);
  if (zero || e < eminOf(f)) return minSubExp(f);
  if (e > emaxOf(f)) return emaxOf(f) - p + 1;
  if (pow2 && e > eminOf(f)) return int(e) - p;
  return int(e) - p + 1;
}

int ulpExponent(mpfr_srcptr x, Format f) {
  if (mpfr_zero_p(x)) return ulpExponent(true, 0, false, f);
  return ulpExponent(false, long(mpfr_get_exp(x)) - 1, mpfr_min_prec(x) == 1, f);
}

// ---- Exact reference values ------------------------------------------------------------------

struct ExactInfo {
  int ternary = 0;      // sign of (computed - exact); 0: the computed value is exact
  bool beyond = false;  // the exact value is finite but outside MPFR's exponent range (overflow)
};

// Computes the exact result into `out` (at out's precision, round to nearest) in MPFR's widest
// exponent range, which the caller has set.
using ExactFn = std::function<ExactInfo(mpfr_ptr out)>;

ExactInfo mathExact(MathFn f, std::span<const double> args, Format format, mpfr_ptr out) {
  const MathFn c = detail::canonical(f);
  if (c == MathFn::fract && std::isfinite(args[0]) && args[0] != 0) {
    // OpenCL C 3.0 §6.15.2 [[math-functions]] fract: fmin(x - floor(x), 0x1.fffffep-1f), exact.
    Mpfr d(1100);
    detail::fractExact(d, args[0], format);
    return {mpfr_set(out, d, MPFR_RNDN), false};
  }
  // The functions evaluated without an MPFR core are exact operations on the operands: their
  // result is the exact value (a value of the format).
  std::optional<MathResult> r = detail::exactEval(c, args, format, Rounding::RTE);
  if (!r) r = detail::commonExactEval(c, args);
  if (r) {
    const double v = c == MathFn::ilogb ? double(r->integer) : r->value;
    if (std::isnan(v))
      mpfr_set_nan(out);
    else
      mpfr_set_d(out, v, MPFR_RNDN);
    return {};
  }
  Mpfr m0(53), m1(53), m2(53);
  mpfr_ptr m[3] = {m0, m1, m2};
  for (size_t i = 0; i < args.size() && i < 3; ++i) mpfr_set_d(m[i], args[i], MPFR_RNDN);
  const detail::MathArgs a{args, {m0, m1, m2}, format};
  int64_t integer = 0;
  mpfr_clear_overflow();
  const auto t = detail::runCore(c == MathFn::sincos ? MathFn::sin : c, out, a, MPFR_RNDN, integer);
  if (!t) throw std::logic_error("verdict: no exact evaluation for " + std::string(nameOf(f)));
  return {*t, mpfr_overflow_p() != 0};
}

// ---- The rule of a table row -------------------------------------------------------------------

using Rule = AccuracyRule;

// A row of a table, or a build option's row (OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]]), which replaces the
// tables' rows where it applies.
bool isRow(const AccuracyRequirement* r) { return !r->table.empty() || r->condition != Condition::None; }


std::string fmtNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string fmtHex(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// Where an operand range [lo, hi] lies relative to an interval of the tables: all inside, all outside, or both.
enum class Placement { Inside, Outside, Both };
Placement placeOf(const Interval& I, double lo, double hi) {
  if (I.orZero) {  // the interval and the point 0 (Vulkan OpFDiv's divisor)
    if (lo == 0 && hi == 0) return Placement::Inside;
    Interval rest = I;
    rest.orZero = false;
    const Placement p = placeOf(rest, lo, hi);
    return lo <= 0 && hi >= 0 && p != Placement::Both ? Placement::Both : p;
  }
  if (I.magnitude) {  // the magnitudes the operand range covers
    const double mlo = lo <= 0 && hi >= 0 ? 0.0 : std::min(std::fabs(lo), std::fabs(hi));
    const double mhi = std::max(std::fabs(lo), std::fabs(hi));
    Interval plain = I;
    plain.magnitude = false;
    return placeOf(plain, mlo, mhi);
  }
  if (I.contains(lo) && I.contains(hi)) return Placement::Inside;  // intervals are convex
  const bool below = hi < I.lo || (hi == I.lo && I.loOpen);
  const bool above = lo > I.hi || (lo == I.hi && I.hiOpen);
  return below || above ? Placement::Outside : Placement::Both;
}

// The rule of one document's rows for operands anywhere in the ranges [lo[i], hi[i]]: the same rule must hold for
// all of them, or the answer is "any value" (a range that straddles the edge of a row's domain). Without `texts` the
// rule's text and clause of a bound are left empty (allowedAt: formatting them cost more than the bound).
Rule resolveOver(const std::vector<const AccuracyRequirement*>& rows, std::span<const double> lo,
                 std::span<const double> hi, bool texts = true) {
  const AccuracyRequirement* main = nullptr;
  for (const auto* r : rows) {
    // Rules stated outside the tables: an operand range outside which any value is allowed
    // (OpenCL C 3.0 §6.15.2 [[math-functions]]: half_cos, half_sin, half_tan "x must be in the range -2^16 to +2^16").
    if (r->definedFor && !lo.empty() && placeOf(*r->definedFor, lo[0], hi[0]) != Placement::Inside)
      return {RuleKind::Any, 0, "any value: the operand is outside the range where the function is defined",
              std::string(r->source)};
    if (!main && isRow(r)) main = r;
  }
  if (!main) return {RuleKind::Any, 0, "", ""};
  const std::string clause = texts ? std::string(toString(main->document)) + ": " + std::string(main->source) : "";
  const bool vulkan = main->document == Document::VulkanEnv;
  const Domain& d = main->domain;
  if (d.any()) {
    // All operands inside: the row's bound; some operand wholly outside: the other rule; else both may apply.
    const Placement px = d.x && !lo.empty() ? placeOf(*d.x, lo[0], hi[0]) : Placement::Inside;
    const Placement py = d.y && lo.size() > 1 ? placeOf(*d.y, lo[1], hi[1]) : Placement::Inside;
    Placement p = Placement::Inside;
    if (px == Placement::Outside || py == Placement::Outside) p = Placement::Outside;
    else if (px == Placement::Both || py == Placement::Both) p = Placement::Both;
    if (p == Placement::Both)
      return {RuleKind::Any, 0, "any value: the operand range straddles the edge of the row's domain", clause};
    const bool inside = p == Placement::Inside;
    if (d.outside == inside) {
      if (main->otherwiseUlps >= 0)
        return {RuleKind::Ulps,
                main->otherwiseUlps,
                texts ? "<= " + fmtNumber(main->otherwiseUlps) + " ulp (outside the domain of the absolute bound)" : "",
                clause,
                false,
                false,
                vulkan};
      return {RuleKind::Any, 0,
              "any value: no bound is stated outside the row's domain (\"" + std::string(main->text) + "\")", clause};
    }
  }
  switch (main->kind) {
    case BoundKind::CorrectlyRounded:
      return {RuleKind::CorrectlyRounded, 0, "correctly rounded", clause, false, false, vulkan};
    case BoundKind::CorrectlyRoundedImplDefined:
      // Vulkan §A [external] [[spirvenv-correctly-rounded-impl-defined]]: x when representable, else either
      // neighbour.
      return {RuleKind::CorrectlyRounded,
              0,
              "correctly rounded with implementation-defined rounding mode",
              clause,
              false,
              true,
              vulkan};
    case BoundKind::Ulps: {
      double b = main->ulps + main->ulpsPerN;  // scalar: vector width n = 1
      std::string text = texts ? "<= " + fmtNumber(main->ulps) + " ulp" : "";
      if (main->plusFloorAbs2x && !lo.empty()) {
        const double x = std::max(std::fabs(lo[0]), std::fabs(hi[0]));
        b += std::floor(std::fabs(2 * x));
        if (texts) text = "<= " + fmtNumber(main->ulps) + " + floor(fabs(2 * x)) = " + fmtNumber(b) + " ulp";
      }
      if (main->ulpsPerAbsX != 0 && !lo.empty()) {
        // Vulkan §A [external] [[precision-of-glsl-std-450-instructions]] exp, exp2: "3 + 2 × |x| ULP", not floored
        // (2·|x| kept apart from the constant: boundsFor forms the sum exactly).
        const double extra = main->ulpsPerAbsX * std::max(std::fabs(lo[0]), std::fabs(hi[0]));  // exact: 2·|x|
        if (texts)
          text = "<= " + fmtNumber(main->ulps) + " + " + fmtNumber(main->ulpsPerAbsX) +
                 " * |x| = " + fmtNumber(b + extra) + " ulp";
        return {RuleKind::Ulps, b, text, clause, false, false, vulkan, extra};
      }
      if (texts && !main->derived.empty()) text += " (non-derived implementations; " + std::string(main->derived) + ")";
      return {RuleKind::Ulps, b, text, clause, false, false, vulkan};
    }
    case BoundKind::Absolute: {
      char buf[96] = "";
      if (texts)
        std::snprintf(buf, sizeof buf, "|error| %s %a (%g)", main->absoluteStrict ? "<" : "<=", main->absolute,
                      main->absolute);
      return {RuleKind::Absolute, main->absolute, buf, clause, main->absoluteStrict, false, vulkan};
    }
    case BoundKind::Inherited:
      return {RuleKind::Any, 0,
              "any value: inherited from " + std::string(main->formula) +
                  " (no bound of its own; the formula's allowed values are the caller's to compute)",
              clause};
    case BoundKind::FmaOrMulAdd:
      return {RuleKind::MadBoth, 0, "fused (fma) or unfused (multiply then add), each correctly rounded", clause};
    case BoundKind::AbsoluteMaxSquared:
      throw std::invalid_argument("verdict: the max·max absolute-error rule (cross, dot) needs the vector operands");
    case BoundKind::Derived:
    case BoundKind::ImplementationDefined:
    case BoundKind::Undefined:
    case BoundKind::AnyValue:
      return {RuleKind::Any, 0, "any value (" + std::string(toString(main->kind)) + ")", clause};
  }
  return {};
}

// The rule of one document's rows for these operands.
Rule resolve(const std::vector<const AccuracyRequirement*>& rows, std::span<const double> args, bool texts = true) {
  return resolveOver(rows, args, args, texts);
}

// ---- Judging one set of operands under one rule -----------------------------------------------

struct Subject {
  std::optional<MathFn> fn;  // or a core operation
  CoreOp core = CoreOp::None;
  std::vector<double> args;
  Format format;
  Profile profile;
  const VerdictOptions* options;
  bool ftz;                  // flush to zero allowed
  bool anyZeroSign = false;  // an operand was flushed: the sign of a zero result is undefined
  // judgeInstruction: the operand itself or its negation, rounded to the format (neither fn nor core)
  enum class ValueOp : uint8_t { None, Identity, Negate } value = ValueOp::None;
  const AccuracyRequirement* row = nullptr;  // judgeInstruction: the instruction's row, not requirementsFor's
  // allowedAt: only the allowed results are wanted (lo, hi, zeroAllowed, nanAllowed, anyValue), not whether the
  // observed value is among them nor the texts.
  bool setOnly = false;
};

// The exact value of a ValueOp (exact: operands are doubles).
int valueOpExact(const Subject& s, mpfr_ptr out, mpfr_rnd_t rnd) {
  const int t = mpfr_set_d(out, s.args[0], rnd);
  if (s.value == Subject::ValueOp::Negate) mpfr_neg(out, out, rnd);  // exact
  return s.value == Subject::ValueOp::Negate ? -t : t;
}

ExactFn exactOf(const Subject& s);
double correctlyRounded(const Subject& s, Rounding r);

bool isMathFn(const Subject& s, MathFn f) { return s.fn && *s.fn == f; }

// The roundings a correctly rounded row accepts (OpenCL SPIR-V Environment §6.1 [[_rounding_modes]]: embedded-profile
// single precision and half precision may default to round toward zero).
std::vector<Rounding> roundingsOf(const Subject& s, const Rule& rule) {
  if (rule.eitherNeighbour) return {Rounding::RTN, Rounding::RTP};
  if (s.options->rounding) return {*s.options->rounding};
  if (rule.vulkan) {
    // Vulkan §A [external] [[spirvenv-correctly-rounded]]: RoundingModeRTE, RoundingModeRTZ, or else an
    // implementation-defined mode (either neighbour).
    switch (s.options->accuracy.vulkanRounding) {
      case VulkanRounding::RTE: return {Rounding::RTE};
      case VulkanRounding::RTZ: return {Rounding::RTZ};
      case VulkanRounding::ImplementationDefined: return {Rounding::RTN, Rounding::RTP};
    }
  }
  const bool embedded = s.profile == Profile::Embedded || s.profile == Profile::RelaxedEmbedded;
  if (s.format == Format::Half || (s.format == Format::Float && embedded)) return {Rounding::RTE, Rounding::RTZ};
  return {Rounding::RTE};
}

// Functions whose zero sign the spec leaves open for an exactly zero result: fmax/fmin and
// their common forms, clamp, maxmag/minmag on equal zeros (OpenCL C 3.0 §6.15.2 [[math-functions]] describes them
// by comparisons that do not order -0 and +0; clref's choice is in numerics/math.hpp), and the
// formulas mix and smoothstep (§6.15.4 [[common-functions]]).
bool zeroSignOpen(const Subject& s) {
  if (!s.fn) return false;
  switch (*s.fn) {
    case MathFn::fmax:
    case MathFn::fmin:
    case MathFn::fmax_common:
    case MathFn::fmin_common:
    case MathFn::fclamp:
    case MathFn::maxmag:
    case MathFn::minmag:
    case MathFn::mix:
    case MathFn::smoothstep: return true;
    default: return false;
  }
}

// An interval of allowed values for a finite exact value x under an ulp or absolute bound.
struct Bounds {
  double lo, hi;
  bool operator==(const Bounds&) const = default;
};

// [lo, hi]: the values of the format within `dist` of x, where dist = bound·ulp(x) (Ulps) or the
// bound (Absolute); ±inf join through the overflow rule (the value 2^(emax+1) meets the bound).
Bounds boundsFor(mpfr_srcptr x, const Rule& rule, Format f) {
  // bound + extraUlps (two binary64 values) is exact in 2200 bits; without extraUlps 64 bits hold the bound.
  const mpfr_prec_t wide = rule.extraUlps != 0 ? 2200 : 0;
  Mpfr dist(64 + wide), s(mpfr_get_prec(x) + 256 + wide), top(2);
  if (rule.kind == RuleKind::Ulps) {
    mpfr_set_d(dist, rule.bound, MPFR_RNDN);  // exact: bounds are short binary fractions
    mpfr_add_d(dist, dist, rule.extraUlps, MPFR_RNDN);
    mpfr_mul_2si(dist, dist, ulpExponent(x, f), MPFR_RNDN);
  } else {
    mpfr_set_d(dist, rule.bound, MPFR_RNDN);
  }
  mpfr_set_ui_2exp(top, 1, emaxOf(f) + 1, MPFR_RNDN);
  Bounds b;
  // hi: the largest value of the format <= x + dist. The sum is rounded to nearest at a
  // precision that is exact in practice; when it is not and lands on a value of the format
  // from above, the value below is the answer.
  // A strict bound (|error| < bound) also leaves out a value of the format exactly at the bound.
  int t = mpfr_add(s, x, dist, MPFR_RNDN);
  b.hi = roundToDouble(s, f, Rounding::RTN);
  if ((t > 0 || (t == 0 && rule.strict)) && mpfr_cmp_d(s, b.hi) == 0) b.hi = stepFormat(b.hi, false, f);
  const int ct = mpfr_cmp(s, top);
  if (ct > 0 || (ct == 0 && t <= 0)) b.hi = kInfinity;  // overflow rule
  const bool hiBeyond = mpfr_cmp_d(s, largestFinite(f)) > 0 || (t < 0 && mpfr_cmp_d(s, largestFinite(f)) == 0);
  t = mpfr_sub(s, x, dist, MPFR_RNDN);
  b.lo = roundToDouble(s, f, Rounding::RTP);
  if ((t < 0 || (t == 0 && rule.strict)) && mpfr_cmp_d(s, b.lo) == 0) b.lo = stepFormat(b.lo, true, f);
  mpfr_neg(top, top, MPFR_RNDN);
  const int cb = mpfr_cmp(s, top);
  if (cb < 0 || (cb == 0 && t >= 0)) b.lo = -kInfinity;
  const bool loBeyond = mpfr_cmp_d(s, -largestFinite(f)) < 0 || (t > 0 && mpfr_cmp_d(s, -largestFinite(f)) == 0);
  if (rule.vulkan) {
    // Vulkan §A [external] [[spirvenv-ulp]]: "Where the range of allowed return values includes any value of
    // magnitude larger than that of the largest representable finite floating-point number, operations may,
    // additionally, return either an infinity of the appropriate sign or the finite number with the largest magnitude
    // of the appropriate sign." (The range [x - dist, x + dist] is a real interval; a strict bound's open ends do not
    // change whether it reaches past the largest finite value, which is a value of the format.)
    if (hiBeyond) b.hi = kInfinity, b.lo = std::min(b.lo, largestFinite(f));
    if (loBeyond) b.lo = -kInfinity, b.hi = std::max(b.hi, -largestFinite(f));
  }
  return b;
}

// |observed - x| / ulp(x) (see Verdict::errorUlps).
double errorUlps(mpfr_srcptr x, double observed, Format f) {
  const int k = ulpExponent(x, f);
  Mpfr d(mpfr_get_prec(x) + 1200);
  if (std::isinf(observed)) {
    if ((observed > 0) != (mpfr_sgn(x) > 0)) return kInfinity;
    Mpfr top(2);
    mpfr_set_ui_2exp(top, 1, emaxOf(f) + 1, MPFR_RNDN);
    if (observed < 0) mpfr_neg(top, top, MPFR_RNDN);
    if (mpfr_cmpabs(x, top) >= 0) return 0;
    mpfr_sub(d, top, x, MPFR_RNDN);
  } else {
    Mpfr v(53);
    mpfr_set_d(v, observed, MPFR_RNDN);
    mpfr_sub(d, v, x, MPFR_RNDN);
  }
  mpfr_abs(d, d, MPFR_RNDN);
  mpfr_mul_2si(d, d, -k, MPFR_RNDN);
  return mpfr_get_d(d, MPFR_RNDN);
}

bool sameValue(double a, double b, bool anyZeroSign) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a != b) return false;
  return a != 0 || anyZeroSign || std::signbit(a) == std::signbit(b);
}

// A subnormal is allowed to become ±0 (OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] items 2 and 4):
// when the exact result is nonzero below the smallest normal magnitude, or some allowed value is subnormal.
bool flushAllowed(const Subject& s, mpfr_srcptr x, double lo, double hi) {
  if (!s.ftz) return false;
  const double mn = minNormal(s.format);
  if (mpfr_regular_p(x)) {
    Mpfr m(2);
    mpfr_set_d(m, mn, MPFR_RNDN);
    if (mpfr_cmpabs(x, m) < 0) return true;
  }
  if (std::isnan(lo) || std::isnan(hi)) return false;
  return (hi > 0 && lo < mn) || (lo < 0 && hi > -mn);
}

// The exact result printed to 40 significant digits (trailing zeros dropped when exact).
std::string decimal40(mpfr_srcptr x, bool exact) {
  char* buf = nullptr;
  mpfr_asprintf(&buf, "%.39Re", x);
  std::string out(buf);
  mpfr_free_str(buf);
  if (exact) {
    const size_t e = out.find('e');
    if (e != std::string::npos) {
      size_t end = e;
      while (end > 0 && out[end - 1] == '0') --end;
      if (end > 0 && out[end - 1] == '.') --end;
      out = out.substr(0, end) + out.substr(e);
    }
  }
  return out;
}

// Is the exact result one of the edge cases the spec prescribes exactly ("Those values shall
// produce exactly the prescribed answers, and no other", OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]
// and OpenCL SPIR-V Environment §6.7 [[_edge_case_behavior]])? clref takes as such: an exactly zero result, and an
// exact result with
// a ±0 or ±inf operand (exp(±0) = 1, pow(x, ±0) = 1, hypot(x, ±0) = |x|, ...), and
// pow/powr(+1, y) = 1.
bool prescribed(const Subject& s, mpfr_srcptr x, int ternary) {
  if (ternary != 0) return false;
  if (mpfr_zero_p(x)) return true;
  if (s.fn && (*s.fn == MathFn::pow || *s.fn == MathFn::powr) && s.args[0] == 1) return true;
  if (!s.fn) return false;
  return std::any_of(s.args.begin(), s.args.end(), [](double a) { return a == 0 || std::isinf(a); });
}

Verdict judgeIlogb(const Subject& s, const Rule& rule, double observed) {
  // OpenCL C 3.0 "Math Functions": FP_ILOGB0 is INT_MIN or -INT_MAX, FP_ILOGBNAN is INT_MAX or
  // INT_MIN; C99 F.9.3.5: ilogb(±inf) = INT_MAX.
  Verdict v;
  v.rule = rule.text + " (the integer result)";
  v.clause = rule.clause;
  v.anyValue = rule.kind == RuleKind::Any;
  const double x = s.args[0];
  std::vector<double> set;
  if (x == 0)
    set = {double(INT_MIN), double(-INT_MAX)};
  else if (std::isnan(x))
    set = {double(INT_MAX), double(INT_MIN)};
  else
    set = {double(evaluate(MathFn::ilogb, s.args, s.format).integer)};
  v.exact = x == 0 ? "FP_ILOGB0" : std::isnan(x) ? "FP_ILOGBNAN" : std::to_string(int64_t(set[0]));
  v.lo = *std::min_element(set.begin(), set.end());
  v.hi = *std::max_element(set.begin(), set.end());
  v.allowed = rule.kind == RuleKind::Any || std::find(set.begin(), set.end(), observed) != set.end();
  v.errorUlps = std::isnan(observed)                                       ? kNaN
                : std::find(set.begin(), set.end(), observed) != set.end() ? 0
                                                                           : std::fabs(observed - set[0]);
  return v;
}

Verdict judgeWith(const Subject& s, const Rule& rule, double observed) {
  if (isMathFn(s, MathFn::ilogb)) return judgeIlogb(s, rule, observed);
  Verdict v;
  v.rule = rule.text;
  v.clause = rule.clause;
  const Format f = s.format;
  const bool any = rule.kind == RuleKind::Any;
  v.anyValue = any;
  const bool zeroSignFree = s.anyZeroSign || zeroSignOpen(s);
  const ExactFn exact = exactOf(s);
  // Everything below runs in MPFR's widest exponent range (the exact value of exp(1e308) or of
  // exp(-1e308) has an exponent far outside binary64's).
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  mpfr_prec_t prec = std::max<mpfr_prec_t>(precisionOf(f) + 72, 140);  // >= 40 decimal digits
  Mpfr x(prec);
  ExactInfo info = exact(x);

  if (mpfr_nan_p(x)) {
    // Any NaN for a NaN result; ulp(NaN) is NaN.
    v.exact = "nan";
    v.lo = v.hi = kNaN;
    v.errorUlps = std::isnan(observed) ? 0 : kNaN;
    v.allowed = any || std::isnan(observed);
    if (any) v.lo = -kInfinity, v.hi = kInfinity;
    return v;
  }
  std::vector<double> crs;  // the correctly rounded results allowed (CR and mad rows)
  if (rule.kind == RuleKind::CorrectlyRounded || rule.kind == RuleKind::MadBoth) {
    for (Rounding r : roundingsOf(s, rule)) {
      if (rule.kind == RuleKind::CorrectlyRounded) {
        crs.push_back(correctlyRounded(s, r));
      } else {
        // OpenCL C 3.0 §6.15.2 [[math-functions]] mad and the tables: a correctly rounded fma, or a correctly
        // rounded multiply followed by a correctly rounded add.
        crs.push_back(evaluateMad(s.args, f, r, true).value);
        crs.push_back(evaluateMad(s.args, f, r, false).value);
        if (s.ftz) {
          // The multiply's subnormal result may itself be flushed (OpenCL C 3.0
          // §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]): then the add gives c.
          Subject mul = s;
          mul.fn.reset();
          mul.core = CoreOp::Mul;
          mul.args = {s.args[0], s.args[1]};
          if (isSubnormalIn(correctlyRounded(mul, r), f)) crs.push_back(s.args[2]);
        }
      }
    }
  }
  auto inCrs = [&] {
    return std::any_of(crs.begin(), crs.end(), [&](double c) { return sameValue(c, observed, zeroSignFree); });
  };
  if (info.beyond || mpfr_inf_p(x)) {
    // An infinite exact result is a prescribed edge case (1/0, log(0), exp(inf)); an exact value
    // beyond MPFR's exponent range (exp(1e308)) is finite and larger than 2^(emax+1), so ±inf
    // is allowed and, for correctly rounded rows, the directed roundings' largest finite value.
    const double inf = mpfr_sgn(x.get()) < 0 ? -kInfinity : kInfinity;
    v.exact = !info.beyond ? (inf > 0 ? "inf" : "-inf") : (inf > 0 ? "> 2^(2^62) (finite)" : "< -2^(2^62) (finite)");
    v.errorUlps = std::isnan(observed) ? kNaN : observed == inf ? 0 : kInfinity;
    v.lo = v.hi = inf;
    // mad's unfused form may overflow where the fused one does not, or meet inf - inf: its result (the other
    // infinity, or a NaN) is allowed too.
    const bool mad = rule.kind == RuleKind::MadBoth;
    v.allowed = any || observed == inf || ((info.beyond || mad) && inCrs());
    if (info.beyond || mad)
      for (double c : crs) {
        if (std::isnan(c)) {
          v.nanAllowed = true;
          continue;
        }
        v.lo = std::min(v.lo, c), v.hi = std::max(v.hi, c);
      }
    if (any) v.lo = -kInfinity, v.hi = kInfinity;
    return v;
  }

  // A finite exact value. For an ulp or absolute bound, the interval of allowed values is
  // computed from the MPFR approximation and again from its two neighbours, between which the
  // exact value lies; when they differ the precision is raised (Ziv's strategy).
  Bounds b{-kInfinity, kInfinity};
  if (rule.kind == RuleKind::Ulps || rule.kind == RuleKind::Absolute) {
    for (;;) {
      b = boundsFor(x, rule, f);
      if (info.ternary == 0 || prec >= 8192) break;
      Mpfr below(prec), above(prec);
      mpfr_set(below, x, MPFR_RNDN);
      mpfr_nextbelow(below.get());
      mpfr_set(above, x, MPFR_RNDN);
      mpfr_nextabove(above.get());
      if (boundsFor(below, rule, f) == b && boundsFor(above, rule, f) == b) break;
      prec *= 2;
      mpfr_set_prec(x, prec);
      info = exact(x);
    }
  }
  if (!s.setOnly) {
    v.exact = decimal40(x, info.ternary == 0);
    v.errorUlps = std::isnan(observed) ? kNaN : errorUlps(x, observed, f);
  }

  switch (rule.kind) {
    case RuleKind::Any:
      v.allowed = true;
      v.lo = -kInfinity;
      v.hi = kInfinity;
      return v;
    case RuleKind::Ulps:
    case RuleKind::Absolute:
      if (rule.kind == RuleKind::Ulps) v.allowedUlps = rule.bound + rule.extraUlps;
      // Vulkan states no exactly prescribed edge cases: zeros and infinities are "subject to the precisions
      // allowed by each operation" (Vulkan §A [external] [[spirvenv-precision-operation]]).
      if (rule.kind == RuleKind::Ulps && !rule.vulkan && prescribed(s, x, info.ternary)) {
        const double val = correctlyRounded(s, Rounding::RTE);  // exact: the prescribed value
        v.lo = v.hi = val;
        v.rule += "; an edge case: exactly the prescribed value";
        if (val == 0 && zeroSignFree) {
          // Either zero: the set says so as the verdict does (zeroSignOpen, flushed operands).
          v.lo = -0.0;
          v.hi = 0.0;
          v.rule += " (a zero of either sign)";
        }
        v.allowed = sameValue(val, observed, zeroSignFree);
        return v;
      }
      v.lo = b.lo;
      v.hi = b.hi;
      v.allowed = !std::isnan(observed) && observed >= b.lo && observed <= b.hi;
      break;
    case RuleKind::CorrectlyRounded:
    case RuleKind::MadBoth: {
      v.lo = kInfinity;
      v.hi = -kInfinity;
      for (double c : crs) v.lo = std::min(v.lo, c), v.hi = std::max(v.hi, c);
      if (zeroSignFree && v.lo == 0 && v.hi == 0) {
        v.lo = -0.0;  // a zero of either sign
        v.hi = 0.0;
      }
      v.allowed = inCrs();
      if (rule.kind == RuleKind::CorrectlyRounded && !s.setOnly) {
        std::string modes;
        for (Rounding r : roundingsOf(s, rule)) modes += (modes.empty() ? "" : " or ") + std::string(toString(r));
        v.rule += " (" + modes + ")";
      }
      break;
    }
  }
  v.zeroAllowed = flushAllowed(s, x, v.lo, v.hi) ||
                  std::any_of(crs.begin(), crs.end(), [&](double c) { return s.ftz && isSubnormalIn(c, f); });
  if (v.zeroAllowed) {
    v.rule += "; or ±0 (a subnormal result may be flushed to zero)";
    if (observed == 0) v.allowed = true;
  }
  return v;
}

ExactFn exactOf(const Subject& s) {
  if (s.fn) {
    const MathFn f = *s.fn;
    return [f, &s](mpfr_ptr out) { return mathExact(f, s.args, s.format, out); };
  }
  return [&s](mpfr_ptr out) {
    Mpfr a(53), b(53);
    mpfr_set_d(a, s.args[0], MPFR_RNDN);
    if (s.args.size() > 1) mpfr_set_d(b, s.args[1], MPFR_RNDN);
    mpfr_clear_overflow();
    if (s.value != Subject::ValueOp::None) return ExactInfo{valueOpExact(s, out, MPFR_RNDN), false};
    int t = 0;
    switch (s.core) {
      case CoreOp::Add: t = mpfr_add(out, a, b, MPFR_RNDN); break;
      case CoreOp::Sub: t = mpfr_sub(out, a, b, MPFR_RNDN); break;
      case CoreOp::Mul: t = mpfr_mul(out, a, b, MPFR_RNDN); break;
      case CoreOp::Div: t = mpfr_div(out, a, b, MPFR_RNDN); break;
      case CoreOp::Recip: t = mpfr_ui_div(out, 1, a, MPFR_RNDN); break;
      default: throw std::invalid_argument("verdict: unsupported core operation");
    }
    return ExactInfo{t, mpfr_overflow_p() != 0};
  };
}

double correctlyRounded(const Subject& s, Rounding r) {
  if (s.fn) {
    if (*s.fn == MathFn::mad) return evaluateMad(s.args, s.format, r, true).value;
    const MathResult m = evaluate(*s.fn, s.args, s.format, r);
    return *s.fn == MathFn::ilogb ? double(m.integer) : m.value;
  }
  // IEEE 754-2008 §5.4.1 [external] (SPIR-V OpFAdd, OpFSub, OpFMul, OpFDiv): one rounding of the exact
  // result, with the format's range and subnormals.
  Mpfr a(53), b(53), out(precisionOf(s.format));
  mpfr_set_d(a, s.args[0], MPFR_RNDN);
  if (s.args.size() > 1) mpfr_set_d(b, s.args[1], MPFR_RNDN);
  const mpfr_rnd_t rnd = toMpfr(r);
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  int t = 0;
  if (s.value != Subject::ValueOp::None) {
    t = valueOpExact(s, out, rnd);
    finishToFormat(out, t, s.format, r);
    return mpfr_nan_p(out) ? kNaN : mpfr_get_d(out, MPFR_RNDN);
  }
  switch (s.core) {
    case CoreOp::Add: t = mpfr_add(out, a, b, rnd); break;
    case CoreOp::Sub: t = mpfr_sub(out, a, b, rnd); break;
    case CoreOp::Mul: t = mpfr_mul(out, a, b, rnd); break;
    case CoreOp::Div: t = mpfr_div(out, a, b, rnd); break;
    case CoreOp::Recip: t = mpfr_ui_div(out, 1, a, rnd); break;
    default: throw std::invalid_argument("verdict: unsupported core operation");
  }
  finishToFormat(out, t, s.format, r);
  return mpfr_nan_p(out) ? kNaN : mpfr_get_d(out, MPFR_RNDN);
}

std::string describe(const Subject& s) {
  std::string out = s.row && s.row->document == Document::VulkanEnv ? std::string(s.row->name)
                    : s.fn                                          ? std::string(nameOf(*s.fn))
                                                                    : std::string(toString(s.core));
  out = out.substr(0, out.find('('));
  out += "(";
  for (size_t i = 0; i < s.args.size(); ++i) out += (i ? ", " : "") + fmtHex(s.args[i]);
  return out + ")";
}

// The rows of each document. Where both documents have a row, the OpenCL SPIR-V Environment's
// decides (clref consumes SPIR-V); OpenCL C's applies where the environment has none. Rules stated
// outside the tables (the half_ operand range) hold whichever table applies. The build option's
// rows (OpenCL API, e.g. -cl-fast-relaxed-math) are the only rows when they apply, and count
// with the environment's.
struct RowsByDocument {
  std::vector<const AccuracyRequirement*> env, c;
  bool envRows = false, cRows = false;  // whether the document has a table row (not only rules)
  const std::vector<const AccuracyRequirement*>& primary() const { return envRows ? env : c; }
};
RowsByDocument byDocument(const std::vector<const AccuracyRequirement*>& rows) {
  RowsByDocument d;
  for (const auto* r : rows) {
    if (r->condition != Condition::None)
      d.env.push_back(r);
    else if (r->table.empty())
      d.env.push_back(r), d.c.push_back(r);
    else
      (r->document == Document::OpenCLC ? d.c : d.env).push_back(r);
  }
  const auto tableRow = [](const auto* r) { return isRow(r); };
  d.envRows = std::any_of(d.env.begin(), d.env.end(), tableRow);
  d.cRows = std::any_of(d.c.begin(), d.c.end(), tableRow);
  return d;
}

// Operands for which the spec leaves the result undefined: any value of the type is allowed, whatever option of the
// related choice (clamp_inverted_bounds, common_minmax_special, smoothstep_inverted_edges) clref itself takes, and the
// rule names the sentence that frees it.
std::optional<Rule> undefinedFor(const Subject& s) {
  if (!s.fn) return std::nullopt;
  const auto& a = s.args;
  const std::string clause = "OpenCL C 3.0 §6.15.4 [[common-functions]]";
  auto any = [&](const char* function, const char* sentence) {
    return Rule{RuleKind::Any, 0, std::string("any value (undefined): ") + sentence, clause + " " + function};
  };
  switch (*s.fn) {
    case MathFn::fclamp:
      if (a[1] > a[2]) return any("clamp", "\"Results are undefined if minval > maxval\"");
      break;
    case MathFn::fmax_common:
    case MathFn::fmin_common:
      if (!std::isfinite(a[0]) || !std::isfinite(a[1]))
        return any(*s.fn == MathFn::fmax_common ? "max" : "min",
                   "\"If x or y are infinite or NaN, the return values are undefined\"");
      break;
    case MathFn::mix:
      if (!(a[2] >= 0 && a[2] <= 1))
        return any("mix", "\"If a is not in the range [0.0, 1.0], the return values are undefined\"");
      break;
    case MathFn::smoothstep:
      if (!(a[0] < a[1]) || std::isnan(a[2]))
        return any("smoothstep",
                   "\"Results are undefined if edge0 >= edge1 or if x, edge0 or edge1 is a NaN\"");
      break;
    default: break;
  }
  return std::nullopt;
}

// The verdict under the rows of the SPIR-V Environment (or OpenCL C where the environment has
// none), with the other document's verdict noted when it differs.
Verdict judgeRows(const Subject& s, double observed) {
  const auto rows = s.row  ? std::vector<const AccuracyRequirement*>{s.row}
                    : s.fn ? requirementsFor(*s.fn, s.format, s.profile, s.options->accuracy)
                           : requirementsFor(s.core, s.format, s.profile, s.options->accuracy);
  const RowsByDocument d = byDocument(rows);
  // Vulkan's "Inherited from <formula>" rows first: the formula decides, not OpenCL C's conditions of undefinedness
  // (GLSL's FMix is defined for every weight).
  for (const auto* r : d.primary())
    if (isRow(r) && r->kind == BoundKind::Inherited)
      throw std::invalid_argument("no bound of its own for " + describe(s) + " in " + std::string(toString(s.format)) +
                                  ": " + std::string(r->text) + " (" + std::string(r->source) +
                                  "); evaluate the formula under the rows of its operations");
  if (const auto free = undefinedFor(s)) return judgeWith(s, *free, observed);
  if (!d.envRows && !d.cRows)
    throw std::invalid_argument("no accuracy requirement for " + describe(s) + " in " +
                                std::string(toString(s.format)) + " (" + std::string(toString(s.profile)) +
                                " profile)");
  Verdict v = judgeWith(s, resolve(d.primary(), s.args, !s.setOnly), observed);
  // The other document's verdict only adds a note.
  if (d.envRows && d.cRows && !s.setOnly) {
    const Verdict w = judgeWith(s, resolve(d.c, s.args), observed);
    if (w.allowed != v.allowed)
      v.note += std::string(v.note.empty() ? "" : "; ") + "OpenCL C's row (" + w.rule + "; " + w.clause + ") would " +
                (w.allowed ? "allow" : "not allow") + " it";
  }
  return v;
}

// OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] items 3 and 4: a conforming result for the operands
// with some subnormal operands flushed to zero (of either sign: "the sign of the zero is undefined").
Verdict judgeSubject(Subject s, double observed) {
  Verdict v = judgeRows(s, observed);
  // Operands read as flushed only decide whether the observed value is allowed, not the allowed results.
  if (v.allowed || !s.ftz || s.setOnly) return v;
  std::vector<size_t> sub;
  for (size_t i = 0; i < s.args.size(); ++i)
    if (isSubnormalIn(s.args[i], s.format)) sub.push_back(i);
  if (sub.empty()) return v;
  size_t combos = 1;
  for (size_t i = 0; i < sub.size(); ++i) combos *= 3;
  for (size_t k = 1; k < combos; ++k) {
    Subject t = s;
    t.anyZeroSign = true;
    size_t code = k;
    for (size_t i : sub) {
      const size_t choice = code % 3;
      code /= 3;
      if (choice == 1)
        t.args[i] = 0.0;
      else if (choice == 2)
        t.args[i] = -0.0;
    }
    const Verdict w = judgeRows(t, observed);
    if (w.allowed) {
      v.allowed = true;
      v.note +=
          std::string(v.note.empty() ? "" : "; ") + "allowed as " + describe(t) +
          " (subnormal operands flushed to zero, OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]): " +
          w.rule;
      return v;
    }
  }
  return v;
}

Subject makeSubject(std::optional<MathFn> fn, CoreOp core, std::span<const double> args, Format format, Profile profile,
                    const VerdictOptions& options) {
  Subject s;
  s.fn = fn;
  s.core = core;
  s.args.assign(args.begin(), args.end());
  s.format = format;
  s.profile = profile;
  s.options = &options;
  // OpenCL SPIR-V Environment §6.4 [[_inf_nan_and_denormalized_numbers]]: single and half precision subnormals may
  // be flushed; double precision must support them.
  s.ftz = options.flushToZero.value_or(format != Format::Double);
  // Vulkan §A [external] [[spirvenv-precision-operation]]: "By default any denormalized floating-point value input
  // into a shader or potentially generated by any instruction ... may be flushed to zero", in every width.
  if (profile == Profile::Vulkan) s.ftz = options.flushToZero.value_or(true);
  return s;
}

}  // namespace

double ulpOf(double x, Format format) {
  if (x == 0) return std::ldexp(1.0, minSubExp(format));
  int e = 0;
  const double m = std::frexp(std::fabs(x), &e);  // |x| = m·2^e, m in [0.5, 1)
  return std::ldexp(1.0, ulpExponent(false, e - 1, m == 0.5, format));
}

Verdict judge(MathFn f, std::span<const double> args, double observed, Format format, Profile profile,
              const VerdictOptions& options) {
  if (int(args.size()) != arity(f))
    throw std::invalid_argument(std::string(nameOf(f)) + " takes " + std::to_string(arity(f)) + " operands");
  return judgeSubject(makeSubject(f, CoreOp::None, args, format, profile, options), observed);
}

namespace {
const AccuracyRequirement* findPrimaryRow(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                                          const AccuracyOptions& options) {
  const RowsByDocument d =
      byDocument(fn ? requirementsFor(*fn, format, profile, options) : requirementsFor(core, format, profile, options));
  for (const auto* r : d.primary())
    if (r->definedFor) return nullptr;  // a rule outside the tables applies too
  for (const auto* r : d.primary())
    if (isRow(r)) return r;
  return nullptr;
}
}  // namespace

// The shadow mode asks at every floating-point instruction: answers are kept, by the key of the rows they come from
// (requirementsFor's: the table is static).
const AccuracyRequirement* primaryRow(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                                      const AccuracyOptions& options) {
  struct Tag;
  static RowCache<const AccuracyRequirement*, Tag> cache;
  return cache.get(rowKey(fn, core, format, profile, options.fp32CorrectlyRoundedDivideSqrt),
                   [&] { return findPrimaryRow(fn, core, format, profile, options); });
}

AccuracyRule ruleOver(std::optional<MathFn> fn, CoreOp core, std::span<const double> lo, std::span<const double> hi,
                      Format format, Profile profile, const VerdictOptions& options) {
  // The operand conditions that make a result undefined (clamp, mix, smoothstep, ...) are decided at points only.
  if (std::equal(lo.begin(), lo.end(), hi.begin()))
    if (const auto free = undefinedFor(makeSubject(fn, core, lo, format, profile, options))) return *free;
  const auto rows = fn ? requirementsFor(*fn, format, profile, options.accuracy)
                       : requirementsFor(core, format, profile, options.accuracy);
  const RowsByDocument d = byDocument(rows);
  if (!d.envRows && !d.cRows) return {RuleKind::Any, 0, "no accuracy requirement", ""};
  return resolveOver(d.primary(), lo, hi);
}

namespace {

// judgeCore's operations and their operand counts.
void requireCoreOperands(CoreOp op, std::span<const double> args) {
  size_t n = 0;
  switch (op) {
    case CoreOp::Add:
    case CoreOp::Sub:
    case CoreOp::Mul:
    case CoreOp::Div: n = 2; break;
    case CoreOp::Recip: n = 1; break;
    default: throw std::invalid_argument("judgeCore: " + std::string(toString(op)) + " is not supported");
  }
  if (args.size() != n)
    throw std::invalid_argument("judgeCore: " + std::string(toString(op)) + " takes " + std::to_string(n) +
                                " operands");
}

}  // namespace

Verdict judgeCore(CoreOp op, std::span<const double> args, double observed, Format format, Profile profile,
                  const VerdictOptions& options) {
  requireCoreOperands(op, args);
  return judgeSubject(makeSubject(std::nullopt, op, args, format, profile, options), observed);
}

Verdict allowedAt(std::optional<MathFn> fn, CoreOp core, std::span<const double> args, Format format, Profile profile,
                  const VerdictOptions& options) {
  if (fn && int(args.size()) != arity(*fn))
    throw std::invalid_argument(std::string(nameOf(*fn)) + " takes " + std::to_string(arity(*fn)) + " operands");
  if (!fn) requireCoreOperands(core, args);
  Subject s = makeSubject(fn, core, args, format, profile, options);
  s.setOnly = true;
  // No result is judged: a NaN observed value is allowed by nothing but a NaN set, which decides nothing here.
  return judgeSubject(std::move(s), std::numeric_limits<double>::quiet_NaN());
}

namespace {

// The operation judgeInstruction evaluates for a Vulkan row without an OpenCL.std function or core operation of its
// own, by the row's name: the same mathematical operation (OpVectorTimesScalar multiplies each component, NMin is
// fmin on numbers, ...) or the operand itself (conversions: the rounding to the result's format is the operation).
struct InstructionOp {
  std::string_view row;
  std::optional<MathFn> fn;
  CoreOp core;
  Subject::ValueOp value;
};
constexpr InstructionOp kInstructionOps[] = {
    {"OpVectorTimesScalar", std::nullopt, CoreOp::Mul, Subject::ValueOp::None},
    {"OpMatrixTimesScalar", std::nullopt, CoreOp::Mul, Subject::ValueOp::None},
    {"OpOuterProduct", std::nullopt, CoreOp::Mul, Subject::ValueOp::None},
    {"OpFmaKHR", MathFn::fma, CoreOp::None, Subject::ValueOp::None},
    {"nmin", MathFn::fmin, CoreOp::None, Subject::ValueOp::None},
    {"nmax", MathFn::fmax, CoreOp::None, Subject::ValueOp::None},
    {"nclamp", MathFn::fclamp, CoreOp::None, Subject::ValueOp::None},
    {"OpFNegate", std::nullopt, CoreOp::None, Subject::ValueOp::Negate},
    {"OpQuantizeToF16", std::nullopt, CoreOp::None, Subject::ValueOp::Identity},
    {"packHalf2x16", std::nullopt, CoreOp::None, Subject::ValueOp::Identity},
    {"conversions between types", std::nullopt, CoreOp::None, Subject::ValueOp::Identity},
};

}  // namespace

Verdict judgeInstruction(std::string_view instruction, std::span<const double> args, double observed, Format format,
                         const VerdictOptions& options) {
  const auto rows = requirementsForInstruction(instruction, format);
  if (rows.empty())
    throw std::invalid_argument("judgeInstruction: no Vulkan accuracy row for " + std::string(instruction) + " in " +
                                std::string(toString(format)));
  const AccuracyRequirement* row = rows.front();
  Subject s = makeSubject(row->fn, row->core, args, format, Profile::Vulkan, options);
  s.row = row;
  if (!row->fn && row->core == CoreOp::None) {
    const auto* op = std::find_if(std::begin(kInstructionOps), std::end(kInstructionOps),
                                  [&](const InstructionOp& o) { return o.row == row->name; });
    if (op == std::end(kInstructionOps))
      throw std::invalid_argument("judgeInstruction: " + std::string(row->name) +
                                  " has no numeric result to judge here");
    s.fn = op->fn;
    s.core = op->core;
    s.value = op->value;
  }
  size_t n = 0;
  if (s.fn)
    n = size_t(arity(*s.fn));
  else if (s.value != Subject::ValueOp::None)
    n = 1;
  else if (s.core == CoreOp::Add || s.core == CoreOp::Sub || s.core == CoreOp::Mul || s.core == CoreOp::Div)
    n = 2;
  else
    throw std::invalid_argument("judgeInstruction: " + std::string(row->name) + " is judged by its vector rule");
  if (args.size() != n)
    throw std::invalid_argument("judgeInstruction: " + std::string(instruction) + " takes " + std::to_string(n) +
                                " operands");
  return judgeSubject(s, observed);
}

// ---- judgeAllFloat -----------------------------------------------------------------------------

namespace {

using detail::HostFn;
using detail::hostFunction;

}  // namespace

// The host's binary64 functions used as approximations of the exact value (glibc's are within
// 2 ulp of binary64 on x86_64; the fast path allows 8, as numerics/math_fast.cpp does).
detail::HostFn detail::hostFunction(MathFn f) {
  switch (detail::canonical(f)) {
    case MathFn::sin: return [](double x) { return std::sin(x); };
    case MathFn::cos: return [](double x) { return std::cos(x); };
    case MathFn::tan: return [](double x) { return std::tan(x); };
    case MathFn::exp: return [](double x) { return std::exp(x); };
    case MathFn::exp2: return [](double x) { return std::exp2(x); };
    case MathFn::expm1: return [](double x) { return std::expm1(x); };
    case MathFn::log: return [](double x) { return std::log(x); };
    case MathFn::log2: return [](double x) { return std::log2(x); };
    case MathFn::log10: return [](double x) { return std::log10(x); };
    case MathFn::log1p: return [](double x) { return std::log1p(x); };
    case MathFn::asin: return [](double x) { return std::asin(x); };
    case MathFn::acos: return [](double x) { return std::acos(x); };
    case MathFn::atan: return [](double x) { return std::atan(x); };
    case MathFn::sinh: return [](double x) { return std::sinh(x); };
    case MathFn::cosh: return [](double x) { return std::cosh(x); };
    case MathFn::tanh: return [](double x) { return std::tanh(x); };
    case MathFn::cbrt: return [](double x) { return std::cbrt(x); };
    default: return nullptr;
  }
}

namespace {

// The constant ulp rule of f for every float operand, if the rows state one (no domain, no
// operand range, not correctly rounded): the fast path's bound.
struct FastRule {
  bool ok = false;
  double ulps = 0;
  bool plusFloorAbs2x = false;
};

FastRule fastRuleFor(MathFn f, Profile profile, const VerdictOptions& options) {
  const auto rows = requirementsFor(f, Format::Float, profile, options.accuracy);
  const RowsByDocument d = byDocument(rows);
  const auto& primary = d.primary();
  const AccuracyRequirement* main = nullptr;
  for (const auto* r : primary) {
    if (r->definedFor) return {};
    if (!main && !r->table.empty()) main = r;
  }
  // (A Vulkan row with a constant bound is taken too: what the fast path accepts is within the bound, and Vulkan's
  // overflow rule only allows more.)
  if (!main || main->kind != BoundKind::Ulps || main->domain.any() || main->ulpsPerAbsX != 0 ||
      main->ulps + main->ulpsPerN < 1)
    return {};
  return {true, main->ulps + main->ulpsPerN, main->plusFloorAbs2x};
}

// True when observed = f(x) is certainly within `ulps` of the exact value (decided in binary64
// from the host's approximation y, |y - exact| <= e); false when undecided.
inline bool fastAllowed(HostFn h, bool neverZero, float xf, float of, double ulps) {
  const double x = xf, obs = of;
  // these functions give NaN for NaN (OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]])
  if (std::isnan(x)) return std::isnan(obs);
  if (!std::isfinite(x) || x == 0) return false;
  const double y = h(x);
  // A NaN from the host is a domain error (log(-1), asin(2)): the exact result is NaN too.
  if (std::isnan(y)) return std::isnan(obs);
  if (std::isnan(obs)) return false;
  if (std::isinf(y) || std::fabs(y) >= 0x1p129) {
    // The exact value is beyond 2^128: ±inf is allowed (the overflow rule).
    return std::isinf(obs) && (obs > 0) == (y > 0) && std::fabs(y) >= 0x1p129;
  }
  if (std::isinf(obs)) return false;
  if (y == 0) {
    // The host underflowed: for exp/exp2 the exact value is in (0, 2^-1074], ulp 2^-149, so ±0
    // and the smallest subnormals are far within the bound.
    return neverZero && std::fabs(obs) <= 0x1p-149 && ulps >= 2;
  }
  const uint64_t bits = std::bit_cast<uint64_t>(y) & 0x7fffffffffffffffull;
  const uint64_t E = bits >> 52;
  const double e = E >= 50 ? std::bit_cast<double>((E - 49) << 52) : 0x1p-1022;  // 8 ulp of y
  const float c = float(y);
  if (std::isinf(c)) return false;
  const double cd = c;
  const double pred = std::nextafter(c, -INFINITY), succ = std::nextafter(c, INFINITY);
  if (std::isinf(pred) || std::isinf(succ) || !(y - e > pred && y + e < succ)) return false;
  // ulp(exact) as the spec defines it is the gap around the exact value, which lies in
  // (pred, succ): gl, gu, or at c itself the smaller one. The smaller gap is a lower bound.
  const double gl = cd - pred, gu = succ - cd;
  const double u = y - e > cd ? gu : y + e < cd ? gl : std::min(gl, gu);
  const double errHi = (std::fabs(obs - y) + e) / u * (1 + 0x1p-40);
  return errHi <= ulps;
}

}  // namespace

VerdictPass judgeAllFloat(MathFn f, Profile profile, const VerdictOptions& options, const ObservedFloats& observed,
                          unsigned threads, uint64_t begin, uint64_t end) {
  if (arity(f) != 1) throw std::invalid_argument("judgeAllFloat: " + std::string(nameOf(f)) + " is not unary");
  end = std::min<uint64_t>(end, uint64_t(1) << 32);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const FastRule rule = fastRuleFor(f, profile, options);
  const HostFn host = rule.ok ? hostFunction(f) : nullptr;
  const MathFn c = detail::canonical(f);
  const bool neverZero = c == MathFn::exp || c == MathFn::exp2;
  constexpr uint64_t kChunk = uint64_t(1) << 16;
  std::atomic<uint64_t> next{begin};
  std::mutex mutex;
  VerdictPass total;

  auto worker = [&] {
    VerdictPass mine;
    std::vector<float> buffer(kChunk);
    for (;;) {
      const uint64_t start = next.fetch_add(kChunk);
      if (start >= end) break;
      const size_t n = size_t(std::min(kChunk, end - start));
      observed(uint32_t(start), std::span<float>(buffer.data(), n));
      for (size_t i = 0; i < n; ++i) {
        const uint32_t bits = uint32_t(start + i);
        const float x = std::bit_cast<float>(bits);
        const float obs = buffer[i];
        ++mine.inputs;
        if (host) {
          const double bound = rule.ulps + (rule.plusFloorAbs2x ? std::floor(std::fabs(2.0 * double(x))) : 0.0);
          if (fastAllowed(host, neverZero, x, obs, bound)) {
            ++mine.allowed;
            continue;
          }
        }
        ++mine.exactPath;
        const double arg = x;
        const Verdict v = judge(f, std::span<const double>(&arg, 1), double(obs), Format::Float, profile, options);
        if (v.allowed) {
          ++mine.allowed;
          continue;
        }
        ++mine.disallowed;
        if (mine.firstDisallowed.size() < 16) mine.firstDisallowed.push_back(bits);
        if (!std::isnan(v.errorUlps) && (mine.disallowed == 1 || v.errorUlps > mine.worstErrorUlps)) {
          mine.worstErrorUlps = v.errorUlps;
          mine.worstInput = bits;
          mine.worstObserved = obs;
        }
      }
    }
    std::lock_guard lock(mutex);
    if (mine.disallowed && (total.disallowed == 0 || mine.worstErrorUlps > total.worstErrorUlps)) {
      total.worstErrorUlps = mine.worstErrorUlps;
      total.worstInput = mine.worstInput;
      total.worstObserved = mine.worstObserved;
    }
    total.inputs += mine.inputs;
    total.allowed += mine.allowed;
    total.disallowed += mine.disallowed;
    total.exactPath += mine.exactPath;
    total.firstDisallowed.insert(total.firstDisallowed.end(), mine.firstDisallowed.begin(), mine.firstDisallowed.end());
  };
  std::vector<std::thread> pool;
  // Pool threads free their MPFR caches before they end (math.hpp releaseThreadResources).
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([&worker] {
      worker();
      releaseThreadResources();
    });
  worker();
  for (auto& t : pool) t.join();
  std::sort(total.firstDisallowed.begin(), total.firstDisallowed.end());
  if (total.firstDisallowed.size() > 16) total.firstDisallowed.resize(16);
  return total;
}

}  // namespace clref::numerics
