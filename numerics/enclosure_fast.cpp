// The allowed set of single float operands without MPFR, where a binary64 approximation decides it
// (numerics/enclosure.hpp; the shadow mode meets these at every instruction). The approximation y of the exact
// value x has a proven error bound e (|y - x| <= e): a correctly rounded binary64 operation (x / y, sqrt) has
// e = ulp/2, the host's functions (glibc) e = 8 ulp of binary64, a float product in binary64 is exact. The allowed
// set under an ulp bound U is the float values within U·ulp(x) of x; it is decided when every x in [y - e, y + e]
// gives the same set, and the range lies inside one binade (one ulp) away from zero, the subnormals and overflow.
// Otherwise the caller takes judge() (MPFR); tests/numerics/enclosure_test.cpp proves the two agree.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

#include "numerics/enclosure.hpp"
#include "numerics/math_internal.hpp"
#include "numerics/row_cache.hpp"

// The batch forms compile twice on x86-64, with and without FMA, and the loader picks the one the processor runs (an
// ifunc, as math_binary32.cpp's kernels do): the brackets' std::fma is then an instruction, not a call into libm. The
// file is compiled without contraction (ISO C++), so every other operation rounds on its own in both.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CLREF_BATCH_CLONES [[gnu::target_clones("fma", "default")]]
#else
#define CLREF_BATCH_CLONES
#endif

namespace clref::numerics::detail {
namespace {

constexpr float kFloatMax = 3.40282347e+38f;

// The rule of a float row, if it is one the fast path takes: a constant ulp bound, correctly rounded, or mad.
struct FastRow {
  bool ok = false;
  BoundKind kind = BoundKind::Ulps;
  double ulps = 0;
};

FastRow fastRow(std::optional<MathFn> fn, CoreOp core, Profile profile, const VerdictOptions& options) {
  struct Tag;
  static RowCache<FastRow, Tag> cache;
  return cache.get(rowKey(fn, core, Format::Float, profile, options.accuracy.fp32CorrectlyRoundedDivideSqrt), [&] {
    FastRow r;
    if (const AccuracyRequirement* row = primaryRow(fn, core, Format::Float, profile, options.accuracy)) {
      const bool plain = !row->domain.any() && !row->plusFloorAbs2x && row->ulpsPerN == 0 && row->ulpsPerAbsX == 0 &&
                         row->document != Document::VulkanEnv;
      if (plain && (row->kind == BoundKind::Ulps || row->kind == BoundKind::CorrectlyRounded ||
                    row->kind == BoundKind::FmaOrMulAdd))
        r = {true, row->kind, row->ulps};
    }
    return r;
  });
}

// Correctly rounded means rounded to nearest: no device rounding mode other than the full profile's default
// (OpenCL SPIR-V Environment §6.1 [[_rounding_modes]]: embedded-profile single precision may default to round toward
// zero; VerdictOptions::rounding names a device's mode).
bool nearestOnly(const VerdictOptions& o) { return !o.rounding || *o.rounding == Rounding::RTE; }

bool normalFloat(double v) { return v != 0 && std::fabs(v) >= 0x1p-126 && std::fabs(v) <= kFloatMax; }

// std::nextafter toward +inf / -inf, from the bits (inline: the fast path takes a few per set). Infinities and NaNs
// stay as they are.
template <class T, class Bits> [[gnu::always_inline]] inline T nextUp(T x) {
  if (!std::isfinite(x)) return x;
  Bits b = std::bit_cast<Bits>(x);
  if (Bits(b << 1) == 0) return std::bit_cast<T>(Bits(1));  // either zero: the smallest subnormal
  return std::bit_cast<T>(x > 0 ? Bits(b + 1) : Bits(b - 1));
}
template <class T, class Bits> [[gnu::always_inline]] inline T nextDown(T x) { return -nextUp<T, Bits>(-x); }
[[gnu::always_inline]] inline double up(double x) { return nextUp<double, uint64_t>(x); }
[[gnu::always_inline]] inline double down(double x) { return nextDown<double, uint64_t>(x); }

// std::frexp and std::ldexp(1, k) from the bits, for the normal doubles the fast paths meet (frexp otherwise).
double fraction(double v, int& e) {
  const uint64_t b = std::bit_cast<uint64_t>(v);
  const int biased = int((b >> 52) & 0x7ff);
  if (biased == 0 || biased == 0x7ff) return std::frexp(v, &e);
  e = biased - 1022;
  return std::bit_cast<double>((b & ~(uint64_t(0x7ff) << 52)) | (uint64_t(1022) << 52));
}
double pow2(int k) { return std::bit_cast<double>(uint64_t(k + 1023) << 52); }  // -1022 <= k <= 1023

// The smallest float >= t, and the largest float <= t (t a double within the float range). Both neighbours computed
// and one selected, without a branch: which way t rounds is the data's, and a branch on it mispredicted about every
// other lane of the shadow mode's loops (measured).
[[gnu::always_inline]] inline double select(bool c, double a, double b) { return c ? a : b; }
[[gnu::always_inline]] inline double roundUpToFloat(double t) {
  const float f = float(t);
  return select(double(f) < t, double(nextUp<float, uint32_t>(f)), double(f));
}
[[gnu::always_inline]] inline double roundDownToFloat(double t) {
  const float f = float(t);
  return select(double(f) > t, double(nextDown<float, uint32_t>(f)), double(f));
}

// Neighbours and roundings of positive finite values (the ulp set's magnitudes, checked normal first): a step of the
// bits, no test for infinities, zeros or sign.
[[gnu::always_inline]] inline double upPositive(double x) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) + 1);
}
[[gnu::always_inline]] inline double downPositive(double x) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) - 1);
}
[[gnu::always_inline]] inline double roundUpPositive(double t) {
  const float f = float(t);
  return double(std::bit_cast<float>(std::bit_cast<uint32_t>(f) + uint32_t(double(f) < t)));
}
[[gnu::always_inline]] inline double roundDownPositive(double t) {
  const float f = float(t);
  return double(std::bit_cast<float>(std::bit_cast<uint32_t>(f) - uint32_t(double(f) > t)));
}

// The float values within U·ulp(x) of x, for every x in [y - e, y + e]; nullopt when they differ. Computed on the
// magnitudes (0 < e < |y|): round to nearest is symmetric, so a negative y's set is the positive one's negated.
std::optional<ValueSet> ulpSet(double y, double e, double U) {
  const double a = std::fabs(y);
  const double xlo = downPositive(a - e), xhi = upPositive(a + e);
  const uint64_t blo = std::bit_cast<uint64_t>(xlo), bhi = std::bit_cast<uint64_t>(xhi);
  const uint64_t biased = blo >> 52;
  // One binade whose float ulp is a normal double: |x| in (2^(biased-1023), 2^(biased-1022)), ulp 2^(biased-1023-23).
  // Every x lies strictly above xlo, so strictly above the binade's power of two (where the spec's ulp is the gap
  // below), and xhi in the same binade is not the next power.
  if (!(e > 0 && e < a) || biased != (bhi >> 52) || biased < 24)
    return std::nullopt;
  const double d = U * std::bit_cast<double>((biased - 23) << 52);  // exact: U is a short binary fraction
  if (!(xhi + d < kFloatMax) || !(xlo - d > 0x1p-125)) return std::nullopt;  // overflow rule or subnormals: MPFR
  const double lo1 = roundUpPositive(downPositive(xlo - d)), lo2 = roundUpPositive(upPositive(xhi - d));
  const double hi1 = roundDownPositive(downPositive(xlo + d)), hi2 = roundDownPositive(upPositive(xhi + d));
  if (lo1 != lo2 || hi1 != hi2) return std::nullopt;
  return y > 0 ? ValueSet{lo1, hi1, false} : ValueSet{-hi1, -lo1, false};
}

// The correctly rounded float of x, for every x in [y - e, y + e]; nullopt when they differ.
std::optional<ValueSet> correctlyRoundedSet(double y, double e) {
  const float a = float(down(y - e)), b = float(up(y + e));
  if (a != b || !normalFloat(a)) return std::nullopt;
  return ValueSet::point(a);
}

// Directed binary64 bounds of an operation on doubles: the exact result lies in [down, up] (one ulp of binary64
// apart when the operation is inexact; TwoSum / fma give the rounding error's sign).
struct Bracket {
  double down, up;
};
[[gnu::always_inline]] inline Bracket bracketSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);  // TwoSum: a + b = s + err exactly
  // Each end chosen by itself (no branch on err's sign, which the data decides: the compiler selects).
  return {err < 0 ? down(s) : s, err > 0 ? up(s) : s};
}
[[gnu::always_inline]] inline Bracket bracketProduct(double a, double b) {
  const double p = a * b;
  const double err = std::fma(a, b, -p);
  return {err < 0 ? down(p) : p, err > 0 ? up(p) : p};
}
[[gnu::always_inline]] inline Bracket bracketQuotient(double a, double b) {
  const double q = a / b;
  const double r = std::fma(-q, b, a);  // a - q·b exactly (for these magnitudes)
  if (r == 0) return {q, q};
  return (r > 0) == (b > 0) ? Bracket{q, up(q)} : Bracket{down(q), q};
}

// [lo, hi] of a·b over boxes, from the four corner products (one where both are single values).
[[gnu::always_inline]] inline Bracket productRange(const ValueSet& x, const ValueSet& y) {
  if (x.lo == x.hi && y.lo == y.hi) return bracketProduct(x.lo, y.lo);
  // One single value (the same bits at both ends): two of the corners are the other two.
  auto single = [](const ValueSet& v) { return std::bit_cast<uint64_t>(v.lo) == std::bit_cast<uint64_t>(v.hi); };
  if (single(x) || single(y)) {
    const double a = single(x) ? x.lo : y.lo;
    const ValueSet& range = single(x) ? y : x;
    const Bracket p = bracketProduct(range.lo, a), q = bracketProduct(range.hi, a);
    return {std::min(p.down, q.down), std::max(p.up, q.up)};
  }
  Bracket r{INFINITY, -INFINITY};
  for (double a : {x.lo, x.hi})
    for (double b : {y.lo, y.hi}) {
      const Bracket p = bracketProduct(a, b);
      r.down = std::min(r.down, p.down);
      r.up = std::max(r.up, p.up);
    }
  return r;
}

// The formats, options and profiles the range path takes: binary32 without a flush (a flush turns subnormal ends into
// zeros), and not Vulkan's rows (its rounding modes, its overflow rule): the general path.
bool rangePathTakes(Format format, Profile profile, const VerdictOptions& options) {
  return format == Format::Float && options.flushToZero != true && profile != Profile::Vulkan;
}

// An operand range the range path takes: finite numbers, and no subnormal at an end (a flush makes them zeros): the
// general path. An exact zero stays (no flush changes it, a product with it is that zero exactly, a sum with it the
// other operand), and so does a range from below zero to above it, whose subnormals a flush turns into zeros it
// already holds; a result near zero leaves below.
[[gnu::always_inline]] inline bool rangeOperand(const ValueSet& a) {
  if (a.nan || !a.hasNumbers() || !std::isfinite(a.lo) || !std::isfinite(a.hi)) return false;
  const bool zero = a.lo == 0 && a.hi == 0, through = a.lo < 0 && a.hi > 0;
  return !(a.lo < 0x1p-126 && a.hi > -0x1p-126 && !zero && !through);
}

// The exact range of a sum or difference of two ranges, in directed binary64 bounds.
[[gnu::always_inline]] inline Bracket sumRange(bool subtract, const ValueSet& x, const ValueSet& y) {
  if (subtract) return {bracketSum(x.lo, -y.hi).down, bracketSum(x.hi, -y.lo).up};
  return {bracketSum(x.lo, y.lo).down, bracketSum(x.hi, y.hi).up};
}

// The exact range r (directed binary64 bounds) rounded by `rule`, or nullopt where the general path decides.
[[gnu::always_inline]] inline std::optional<ValueSet> roundedRange(Bracket r, const AccuracyRule& rule,
                                                                   Profile profile) {
  // The exact range [r.down, r.up] within the float range and away from overflow, and away from the subnormals
  // (flushing) and a zero's sign unless it runs from below zero to above it (a cancelling sum): a correctly rounded
  // result there is a float of the rounded range, or a zero of either sign it holds (flushed), as in the general path.
  const double big = std::max(std::fabs(r.down), std::fabs(r.up));
  const bool through = r.down < 0 && r.up > 0;
  const bool nearZero = r.down <= 0x1p-100 && r.up >= -0x1p-100;
  if (!(big < 0x1p+126) || (nearZero && !through)) return std::nullopt;
  ValueSet s;
  switch (rule.kind) {
    case RuleKind::CorrectlyRounded:
    case RuleKind::MadBoth:
      if (profile != Profile::Full) return std::nullopt;  // other profiles' roundings: the general path
      s = {roundDownToFloat(r.down), roundUpToFloat(r.up), false};
      break;
    case RuleKind::Ulps: {
      if (through) return std::nullopt;  // an ulp that shrinks toward zero: the general path
      int e = 0;
      fraction(big, e);
      const double d = rule.bound * pow2(e - 1 - 23);  // ulp of the largest magnitude's binade
      s = {roundUpToFloat(bracketSum(r.down, -d).down), roundDownToFloat(bracketSum(r.up, d).up), false};
      break;
    }
    default: return std::nullopt;
  }
  if (s.lo <= 0 && s.hi >= 0 && !through) return std::nullopt;  // zeros and their signs: the general path
  return s;
}

// An exact zero (of one sign or both).
[[gnu::always_inline]] inline bool exactZero(const ValueSet& v) { return v.lo == 0 && v.hi == 0; }

// The product of an exact zero z and another operand (finite, rangeOperand's): its zeros exactly, each sign the
// operands' signs give (IEEE 754-2008 §6.3 [external]: the sign of a product is the exclusive or of the operands'
// signs), in every rounding mode and with or without a flush, which keeps zeros.
[[gnu::always_inline]] inline ValueSet productWithZero(const ValueSet& z, const ValueSet& other) {
  const bool zNegative = z.contains(-0.0), zPositive = z.contains(0.0);
  const bool negatives = other.lo < 0 || std::signbit(other.lo), positives = other.hi > 0 || !std::signbit(other.hi);
  const bool negative = (zNegative && positives) || (zPositive && negatives);
  const bool positive = (zPositive && positives) || (zNegative && negatives);
  return ValueSet{negative ? -0.0 : 0.0, positive ? 0.0 : -0.0, false};
}

// The range path's set of operands `args` (arity Op's) under a rule rangeRuleOf made usable with op Op, or nullopt.
// Inline in both callers: the batch form's loop, one per operation, is the shadow mode's hottest.
template <RangeOp Op>
[[gnu::always_inline]] inline std::optional<ValueSet> rangeSetOf(const RangeRule& rule, const ValueSet* args) {
  constexpr uint32_t arity = Op == RangeOp::Fma || Op == RangeOp::Mad ? 3 : 2;
  for (uint32_t i = 0; i < arity; ++i)
    if (!rangeOperand(args[i])) return std::nullopt;
  Bracket r{0, 0};
  if constexpr (Op == RangeOp::Add || Op == RangeOp::Sub) {
    r = sumRange(Op == RangeOp::Sub, args[0], args[1]);
  } else if constexpr (Op == RangeOp::Mul) {
    // A correctly rounded row allows those zeros alone; another row (an ulp around zero reaches the subnormals) is
    // the general path's.
    if (exactZero(args[0]) || exactZero(args[1])) {
      if (rule.rule->kind != RuleKind::CorrectlyRounded || rule.profile != Profile::Full) return std::nullopt;
      return exactZero(args[0]) ? productWithZero(args[0], args[1]) : productWithZero(args[1], args[0]);
    }
    r = productRange(args[0], args[1]);
  } else if constexpr (Op == RangeOp::Div) {
    const ValueSet &x = args[0], &y = args[1];
    if (!(y.lo > 0 || y.hi < 0)) return std::nullopt;
    // The divisor of one sign: x / y is monotone in each operand, its least and greatest values at the corners
    // these pick (a numerator's end of either sign over the divisor's end that makes the quotient least or greatest).
    if (y.lo > 0)
      r = {bracketQuotient(x.lo, x.lo >= 0 ? y.hi : y.lo).down, bracketQuotient(x.hi, x.hi >= 0 ? y.lo : y.hi).up};
    else
      r = {bracketQuotient(x.hi, x.hi >= 0 ? y.hi : y.lo).down, bracketQuotient(x.lo, x.lo >= 0 ? y.lo : y.hi).up};
  } else {
    Bracket p = productRange(args[0], args[1]);
    if constexpr (Op == RangeOp::Mad) {
      // A product a flush may make a zero outside its range (subnormal, not reaching zero): the general path.
      const bool zeroOrThrough = (p.down == 0 && p.up == 0) || (p.down < 0 && p.up > 0);
      if (std::min(std::fabs(p.down), std::fabs(p.up)) < 0x1p-126 && !zeroOrThrough) return std::nullopt;
      // The unfused form's product rounded to float (either way) is within the product's range widened to floats.
      p.down = roundDownToFloat(p.down);
      p.up = roundUpToFloat(p.up);
    }
    r = {bracketSum(p.down, args[2].lo).down, bracketSum(p.up, args[2].hi).up};
  }
  return roundedRange(r, *rule.rule, rule.profile);
}

// rangeSetOf for the rule's operation.
[[gnu::always_inline]] inline std::optional<ValueSet> rangeSetWith(const RangeRule& rule, const ValueSet* args) {
  switch (rule.op) {
    case RangeOp::Add: return rangeSetOf<RangeOp::Add>(rule, args);
    case RangeOp::Sub: return rangeSetOf<RangeOp::Sub>(rule, args);
    case RangeOp::Mul: return rangeSetOf<RangeOp::Mul>(rule, args);
    case RangeOp::Div: return rangeSetOf<RangeOp::Div>(rule, args);
    case RangeOp::Fma: return rangeSetOf<RangeOp::Fma>(rule, args);
    case RangeOp::Mad: return rangeSetOf<RangeOp::Mad>(rule, args);
    default: return std::nullopt;
  }
}

// fastRangeSets' loop for operation Op: its operation and arity known to the compiler in the loop.
template <RangeOp Op>
[[gnu::always_inline]] inline void rangeSetsOf(const RangeRule& rule, size_t n, const double* const* lo,
                                               const double* const* hi, double* setLo, double* setHi,
                                               uint8_t* decided) {
  constexpr uint32_t arity = Op == RangeOp::Fma || Op == RangeOp::Mad ? 3 : 2;
  ValueSet args[arity];
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t k = 0; k < arity; ++k) args[k] = {lo[k][i], hi[k][i], false};
    const std::optional<ValueSet> set = rangeSetOf<Op>(rule, args);
    decided[i] = set.has_value();
    if (set) {
      setLo[i] = set->lo;
      setHi[i] = set->hi;
    }
  }
}

}  // namespace

RangeRule rangeRuleOf(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                      const VerdictOptions& options) {
  RangeRule k;
  if (!rangePathTakes(format, profile, options)) return k;
  const auto& rule = simpleRule(fn, core, format, profile, options);
  if (!rule) return k;
  if (!fn) {
    switch (core) {
      case CoreOp::Add: k.op = RangeOp::Add; break;
      case CoreOp::Sub: k.op = RangeOp::Sub; break;
      case CoreOp::Mul: k.op = RangeOp::Mul; break;
      case CoreOp::Div: k.op = RangeOp::Div; break;
      default: return k;
    }
    k.arity = 2;
  } else {
    const MathFn c = canonical(*fn);
    if (c != MathFn::fma && c != MathFn::mad) return k;
    k.op = c == MathFn::fma ? RangeOp::Fma : RangeOp::Mad;
    k.arity = 3;
  }
  k.rule = &*rule;
  k.profile = profile;
  return k;
}

std::optional<ValueSet> fastRangeSet(std::optional<MathFn> fn, CoreOp core, std::span<const ValueSet> args,
                                     Format format, Profile profile, const VerdictOptions& options) {
  const RangeRule rule = rangeRuleOf(fn, core, format, profile, options);
  if (!rule.usable() || args.size() < rule.arity) return std::nullopt;
  return rangeSetWith(rule, args.data());
}

CLREF_BATCH_CLONES void fastRangeSets(const RangeRule& rule, size_t n, const double* const* lo, const double* const* hi,
                                      double* setLo, double* setHi, uint8_t* decided) {
  switch (rule.op) {
    case RangeOp::Add: return rangeSetsOf<RangeOp::Add>(rule, n, lo, hi, setLo, setHi, decided);
    case RangeOp::Sub: return rangeSetsOf<RangeOp::Sub>(rule, n, lo, hi, setLo, setHi, decided);
    case RangeOp::Mul: return rangeSetsOf<RangeOp::Mul>(rule, n, lo, hi, setLo, setHi, decided);
    case RangeOp::Div: return rangeSetsOf<RangeOp::Div>(rule, n, lo, hi, setLo, setHi, decided);
    case RangeOp::Fma: return rangeSetsOf<RangeOp::Fma>(rule, n, lo, hi, setLo, setHi, decided);
    case RangeOp::Mad: return rangeSetsOf<RangeOp::Mad>(rule, n, lo, hi, setLo, setHi, decided);
    default: std::fill(decided, decided + n, uint8_t(0));
  }
}

ContractedSumRules contractedSumRules(CoreOp core, Format format, Profile profile, const VerdictOptions& options) {
  ContractedSumRules rules;
  if (!rangePathTakes(format, profile, options) || (core != CoreOp::Add && core != CoreOp::Sub)) return rules;
  rules.sum = simpleRule(std::nullopt, core, format, profile, options);
  rules.fma = simpleRule(MathFn::fma, CoreOp::None, format, profile, options);
  rules.usable = rules.sum && rules.fma;
  rules.subtract = core == CoreOp::Sub;
  rules.profile = profile;
  return rules;
}

bool fastContractedSum(const ContractedSumRules& rules, const ValueSet& x, const ValueSet& y, const ValueSet& fa,
                       const ValueSet& fb, const ValueSet& fc, ValueSet& set) {
  if (!rangeOperand(x) || !rangeOperand(y) || !rangeOperand(fa) || !rangeOperand(fb) || !rangeOperand(fc))
    return false;
  const std::optional<ValueSet> sum = roundedRange(sumRange(rules.subtract, x, y), *rules.sum, rules.profile);
  if (!sum) return false;
  const Bracket p = productRange(fa, fb);
  const std::optional<ValueSet> fused =
      roundedRange({bracketSum(p.down, fc.lo).down, bracketSum(p.up, fc.hi).up}, *rules.fma, rules.profile);
  if (!fused) return false;
  set = hull(*sum, *fused);
  return true;
}

const std::optional<AccuracyRule>& simpleRule(std::optional<MathFn> fn, CoreOp core, Format format,
                                              Profile profile, const VerdictOptions& options) {
  struct Tag;
  static RowCache<std::optional<AccuracyRule>, Tag> cache;
  return cache.get(rowKey(fn, core, format, profile, options.accuracy.fp32CorrectlyRoundedDivideSqrt), [&] {
    std::optional<AccuracyRule> r;
    if (const AccuracyRequirement* row = primaryRow(fn, core, format, profile, options.accuracy)) {
      // Vulkan's rows: ruleOver (their rule carries Vulkan's rounding and overflow rules).
      if (!row->domain.any() && !row->plusFloorAbs2x && row->ulpsPerN == 0 && row->document != Document::VulkanEnv) {
        switch (row->kind) {
          case BoundKind::Ulps: r = AccuracyRule{RuleKind::Ulps, row->ulps, {}, {}}; break;
          case BoundKind::CorrectlyRounded: r = AccuracyRule{RuleKind::CorrectlyRounded, 0, {}, {}}; break;
          case BoundKind::FmaOrMulAdd: r = AccuracyRule{RuleKind::MadBoth, 0, {}, {}}; break;
          case BoundKind::Absolute: r = AccuracyRule{RuleKind::Absolute, row->absolute, {}, {}}; break;
          default: break;
        }
      }
    }
    return r;
  });
}

PointRule pointRuleOf(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile,
                      const VerdictOptions& options) {
  PointRule k;
  if (format != Format::Float || (profile != Profile::Full && profile != Profile::Embedded)) return k;
  if (options.flushToZero == true) return k;  // flushing options: judge()'s own handling
  const FastRow row = fastRow(fn, core, profile, options);
  if (!row.ok) return k;
  const MathFn c = fn ? canonical(*fn) : MathFn::sin;
  if (fn && (c == MathFn::mad || c == MathFn::fma)) {
    // The embedded profile's float roundings (round toward zero too, OpenCL SPIR-V Environment §6.1
    // [[_rounding_modes]]), a device's other mode: MPFR's. mad's row is fused or unfused (another row: MPFR's).
    if (profile != Profile::Full || !nearestOnly(options)) return k;
    if (c == MathFn::mad && row.kind != BoundKind::FmaOrMulAdd) return k;
    k.op = c == MathFn::fma ? PointOp::Fma : PointOp::Mad;
    k.arity = 3;
    return k;
  }
  // A correctly rounded row: round to nearest, the full profile's only default rounding for float.
  if (row.kind == BoundKind::CorrectlyRounded && !(profile == Profile::Full && nearestOnly(options))) return k;
  if (row.kind != BoundKind::Ulps && row.kind != BoundKind::CorrectlyRounded) return k;
  if (!fn) {
    switch (core) {
      case CoreOp::Div: k.op = PointOp::Quotient, k.arity = 2; break;
      case CoreOp::Recip: k.op = PointOp::Reciprocal, k.arity = 1; break;
      default: return k;
    }
  } else if (c == MathFn::sqrt) {
    k.op = PointOp::Sqrt, k.arity = 1;
  } else if (const HostFn h = hostFunction(c)) {
    k.op = PointOp::Host, k.arity = 1;
    k.host = h;
  } else {
    return k;
  }
  k.correctlyRounded = row.kind == BoundKind::CorrectlyRounded;
  k.ulps = row.ulps;
  return k;
}

namespace {

// The point path's set of operands `args` (rule.arity of them) under a rule pointRuleOf made usable, or nullopt.
[[gnu::always_inline]] inline std::optional<ValueSet> pointSetWith(const PointRule& rule, const double* args) {
  const bool sum = rule.op == PointOp::Fma || rule.op == PointOp::Mad;
  // Zeros (but a sum's exact ones), subnormals, infinities, NaNs: the edge cases are MPFR's.
  for (uint32_t i = 0; i < rule.arity; ++i)
    if (!normalFloat(args[i]) && !(sum && args[i] == 0)) return std::nullopt;
  if (sum) {
    // mad: fused or unfused, each correctly rounded (host fmaf and float arithmetic are); fma: fused. The product
    // of two floats is exact in binary64; an exact zero operand makes it an exact zero (no flush), and a normal result
    // then has no zero's sign in play.
    const float a = float(args[0]), b = float(args[1]), cc = float(args[2]);
    const double product = double(a) * double(b);
    const float fused = std::fma(a, b, cc);
    const float p = float(product);
    if (!normalFloat(fused) || !(normalFloat(p) || product == 0)) return std::nullopt;
    if (rule.op == PointOp::Fma) return ValueSet::point(fused);
    const float unfused = p + cc;
    if (!normalFloat(unfused)) return std::nullopt;
    return hull(ValueSet::point(fused), ValueSet::point(unfused));
  }
  double y = 0, e = 0;
  switch (rule.op) {
    case PointOp::Quotient:
      y = args[0] / args[1];
      e = std::fabs(y) * 0x1p-53;  // correctly rounded in binary64 (times a power of two: ldexp's value)
      break;
    case PointOp::Reciprocal:
      y = 1.0 / args[0];
      e = std::fabs(y) * 0x1p-53;
      break;
    case PointOp::Sqrt:
      if (args[0] < 0) return std::nullopt;
      y = std::sqrt(args[0]);
      e = std::fabs(y) * 0x1p-53;
      break;
    case PointOp::Host:
      y = rule.host(args[0]);
      e = std::fabs(y) * 0x1p-49;  // 8 ulp of binary64
      break;
    default: return std::nullopt;
  }
  if (!std::isfinite(y) || y == 0) return std::nullopt;
  return rule.correctlyRounded ? correctlyRoundedSet(y, e) : ulpSet(y, e, rule.ulps);
}

}  // namespace

std::optional<ValueSet> fastPointSet(std::optional<MathFn> fn, CoreOp core, std::span<const double> args, Format format,
                                     Profile profile, const VerdictOptions& options) {
  const PointRule rule = pointRuleOf(fn, core, format, profile, options);
  if (!rule.usable() || args.size() != rule.arity) return std::nullopt;
  return pointSetWith(rule, args.data());
}

CLREF_BATCH_CLONES void fastPointSets(const PointRule& rule, size_t n, const double* const* args, double* setLo,
                                      double* setHi, uint8_t* decided) {
  double x[3];
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t k = 0; k < rule.arity; ++k) x[k] = args[k][i];
    const std::optional<ValueSet> set = pointSetWith(rule, x);
    decided[i] = set.has_value();
    if (set) {
      setLo[i] = set->lo;
      setHi[i] = set->hi;
    }
  }
}

}  // namespace clref::numerics::detail
