// Allowed sets over operand sets (numerics/enclosure.hpp).
#include "numerics/enclosure.hpp"

#include <boost/multiprecision/mpfi.hpp>
#include <mpfi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <vector>

#include "numerics/math_internal.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics {
namespace {

constexpr double kPosInf = std::numeric_limits<double>::infinity();
// The exact ranges' enclosures: Boost.Multiprecision's MPFI interval at 48 decimal digits, 161 bits: far beyond
// binary64's 53 bits, so that the outward rounding of the enclosure costs nothing visible after rounding to the format.
using Enclosure = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<48>>;
using Real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<48>>;  // an interval's ends
constexpr mpfr_prec_t kPrec = 161;  // the interval's bits (Boost's digits10_2_2(48)), so a Range holds its ends exactly

// [lo, hi] of two binary64 values, exactly.
Enclosure between(double lo, double hi) {
  Enclosure x;
  mpfi_interv_d(x.backend().data(), lo, hi);
  return x;
}

// An enclosure of π (Boost has no interval constant).
Enclosure pi() {
  Enclosure p;
  mpfi_const_pi(p.backend().data());
  return p;
}

double minNormalOf(Format f) { return std::ldexp(1.0, 2 - int(rangeOf(f).emax)); }  // 2^(1 - emax_IEEE)

bool flushAllowed(Format f, const VerdictOptions& o) { return o.flushToZero.value_or(f != Format::Double); }

// The options as judge() reads them for the profile: Vulkan lets every width flush subnormals by default (Vulkan §A
// [external] [[spirvenv-precision-operation]] "any denormalized floating-point value ... may be flushed to zero").
VerdictOptions forProfile(const VerdictOptions& o, Profile p) {
  VerdictOptions out = o;
  if (p == Profile::Vulkan && !out.flushToZero) out.flushToZero = true;
  return out;
}

// Both zeros where a set reaches zero: the interval engine does not follow the sign of a zero through a range.
ValueSet withBothZeros(ValueSet s) {
  if (s.hasNumbers() && s.lo <= 0 && s.hi >= 0) {
    if (s.lo == 0) s.lo = -0.0;
    if (s.hi == 0) s.hi = 0.0;
  }
  return s;
}

// A subnormal operand or result may be read or returned as a zero of either sign (OpenCL C 3.0 §7.5.3
// [[edge-case-behavior-in-flush-to-zero-mode]]).
ValueSet flushed(ValueSet s, Format f) {
  if (!s.hasNumbers()) return s;
  const double m = minNormalOf(f);
  if (s.hi > -m && s.lo < m && !(s.lo == 0 && s.hi == 0 && std::signbit(s.lo) != std::signbit(s.hi)))
    s = hull(s, ValueSet{-0.0, 0.0, false});
  return s;
}

ValueSet fromVerdict(const Verdict& v) {
  if (v.anyValue) return ValueSet::all();
  if (std::isnan(v.lo)) return ValueSet::nanOnly();
  ValueSet s{v.lo, v.hi, v.nanAllowed};
  if (v.zeroAllowed) s = hull(s, ValueSet{-0.0, 0.0, false});
  return s;
}

// Points: judge()'s allowed set, joined over every way a flush to zero may read the subnormal operands.
template <class Judge>
ValueSet pointSet(std::span<const ValueSet> args, Format format, const VerdictOptions& options, Judge&& judgeAt) {
  std::vector<double> a;
  for (const auto& s : args) a.push_back(s.hasNumbers() ? s.lo : std::numeric_limits<double>::quiet_NaN());
  ValueSet out = fromVerdict(judgeAt(a));
  if (!flushAllowed(format, options)) return out;
  std::vector<size_t> sub;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0 && std::isfinite(a[i]) && std::fabs(a[i]) < minNormalOf(format)) sub.push_back(i);
  size_t combos = 1;
  for (size_t i = 0; i < sub.size(); ++i) combos *= 3;
  for (size_t k = 1; k < combos; ++k) {
    std::vector<double> t = a;
    size_t code = k;
    for (size_t i : sub) {
      const size_t c = code % 3;
      code /= 3;
      if (c) t[i] = c == 1 ? 0.0 : -0.0;
    }
    // "the sign of the zero is undefined" for a zero result of flushed operands.
    out = hull(out, withBothZeros(fromVerdict(judgeAt(t))));
  }
  return out;
}

// ---- The exact range of the function over the operand ranges -----------------------------------------------

struct Range {
  Mpfr lo{kPrec}, hi{kPrec};
};

// From an MPFI enclosure; false when it holds a NaN (a domain error somewhere in the range).
bool fromInterval(Range& r, const Enclosure& i) {
  mpfi_srcptr x = i.backend().data();
  if (mpfi_nan_p(x)) return false;
  mpfi_get_left(r.lo, x);
  mpfi_get_right(r.hi, x);
  return !mpfr_nan_p(r.lo) && !mpfr_nan_p(r.hi);
}

// Brackets of the exact f(args) at one point: [RD, RU] to binary64 (the format's values need no more).
bool bracket(MathFn f, std::span<const double> args, double& lo, double& hi) {
  lo = evaluate(f, args, Format::Double, Rounding::RTN).value;
  hi = evaluate(f, args, Format::Double, Rounding::RTP).value;
  return !std::isnan(lo) && !std::isnan(hi);
}

bool setRange(Range& r, double lo, double hi) {
  if (std::isnan(lo) || std::isnan(hi)) return false;
  mpfr_set_d(r.lo, lo, MPFR_RNDD);
  mpfr_set_d(r.hi, hi, MPFR_RNDU);
  return true;
}

enum class Shape { None, Increasing, Decreasing, Interval };

Shape shapeOf(MathFn c) {
  switch (c) {
    case MathFn::exp:
    case MathFn::exp2:
    case MathFn::exp10:
    case MathFn::expm1:
    case MathFn::log:
    case MathFn::log2:
    case MathFn::log10:
    case MathFn::log1p:
    case MathFn::sqrt:
    case MathFn::cbrt:
    case MathFn::asin:
    case MathFn::asinpi:
    case MathFn::atan:
    case MathFn::atanpi:
    case MathFn::sinh:
    case MathFn::tanh:
    case MathFn::asinh:
    case MathFn::acosh:
    case MathFn::atanh:
    case MathFn::erf:
    case MathFn::floor:
    case MathFn::ceil:
    case MathFn::trunc:
    case MathFn::round:
    case MathFn::rint:
    case MathFn::logb:
    case MathFn::fmin:
    case MathFn::fmax:
    case MathFn::fmin_common:
    case MathFn::fmax_common:
    case MathFn::fclamp: return Shape::Increasing;
    case MathFn::acos:
    case MathFn::acospi:
    case MathFn::erfc: return Shape::Decreasing;
    case MathFn::sin:
    case MathFn::cos:
    case MathFn::tan:
    case MathFn::cosh:
    case MathFn::sinpi:
    case MathFn::cospi:
    case MathFn::tanpi:
    case MathFn::atan2:
    case MathFn::atan2pi:
    case MathFn::hypot:
    case MathFn::pow:
    case MathFn::powr:
    case MathFn::pown:
    case MathFn::rootn:
    case MathFn::fabs:
    case MathFn::fma:
    case MathFn::mad:
    case MathFn::mix:
    case MathFn::radians:
    case MathFn::degrees:
    case MathFn::fdim:
    case MathFn::copysign:
    case MathFn::rsqrt:
    case MathFn::ldexp: return Shape::Interval;
    default: return Shape::None;
  }
}

// x^y = exp(y · log x) for x > 0; with n an integer, x < 0 too (the sign of (-1)^n).
bool powInterval(Enclosure& out, const ValueSet& x, const Enclosure& y, std::optional<double> integerY) {
  if (x.lo > 0) {
    out = exp(y * log(between(x.lo, x.hi)));
    return true;
  }
  if (integerY && x.hi < 0) {
    out = exp(y * log(between(-x.hi, -x.lo)));
    if (std::fmod(*integerY, 2.0) != 0) out = -out;
    return true;
  }
  return false;
}

// The exact range of canonical f over the boxes (finite, non-empty numeric ranges); false when clref has no
// enclosure for it here.
bool exactRange(MathFn f, std::span<const ValueSet> a, Format format, const VerdictOptions& options, Range& r) {
  const MathFn c = detail::canonical(f);
  const Shape shape = shapeOf(c);
  if (shape == Shape::None) return false;
  const size_t n = a.size();
  if (shape == Shape::Increasing || shape == Shape::Decreasing) {
    std::vector<double> lo(n), hi(n);
    for (size_t i = 0; i < n; ++i) {
      lo[i] = a[i].lo;
      hi[i] = a[i].hi;
    }
    if (c == MathFn::fclamp && a[1].hi > a[2].lo) return false;  // minval > maxval somewhere: undefined
    double l1, h1, l2, h2;
    if (!bracket(c, lo, l1, h1) || !bracket(c, hi, l2, h2)) return false;
    return shape == Shape::Increasing ? setRange(r, l1, h2) : setRange(r, l2, h1);
  }
  const Enclosure x = between(a[0].lo, a[0].hi);
  const Enclosure y = n > 1 ? between(a[1].lo, a[1].hi) : Enclosure();
  Enclosure out;
  switch (c) {
    case MathFn::sin: out = sin(x); break;
    case MathFn::cos: out = cos(x); break;
    case MathFn::tan: out = tan(x); break;
    case MathFn::cosh: out = cosh(x); break;
    case MathFn::sinpi: out = sin(x * pi()); break;
    case MathFn::cospi: out = cos(x * pi()); break;
    case MathFn::tanpi: out = tan(x * pi()); break;
    case MathFn::atan2: out = atan2(x, y); break;
    case MathFn::atan2pi: out = atan2(x, y) / pi(); break;
    case MathFn::hypot:  // Boost has no interval hypot; MPFI's is tight where sqrt(x² + y²) over intervals is not
      mpfi_hypot(out.backend().data(), x.backend().data(), y.backend().data());
      break;
    case MathFn::fabs: out = abs(x); break;
    case MathFn::radians: out = x * pi() / 180; break;
    case MathFn::degrees: out = x / pi() * 180; break;
    case MathFn::rsqrt:
      if (!(a[0].lo > 0)) return false;
      out = 1 / sqrt(x);
      break;
    case MathFn::fdim: {  // max(x - y, 0): the +0 of x <= y is in the range when x - y can be <= 0
      out = x - y;
      if (lower(out) <= 0) {
        const Real hi = upper(out);
        out = Enclosure(Real(0), hi < 0 ? Real(0) : hi);
      }
      break;
    }
    case MathFn::copysign: {
      out = abs(x);
      if (a[1].hi < 0 || (a[1].hi == 0 && std::signbit(a[1].hi))) out = -out;
      else if (a[1].lo < 0 || std::signbit(a[1].lo)) {  // both signs
        const Real m = upper(out);
        out = Enclosure(Real(-m), m);
      }
      break;
    }
    case MathFn::ldexp: {  // x · 2^n for a single n
      if (!a[1].isPoint()) return false;
      out = ldexp(x, long(a[1].lo));
      break;
    }
    case MathFn::pow:
    case MathFn::powr:
      if (!powInterval(out, a[0], y, a[1].isPoint() && std::nearbyint(a[1].lo) == a[1].lo && c == MathFn::pow
                                         ? std::optional<double>(a[1].lo)
                                         : std::nullopt))
        return false;
      break;
    case MathFn::pown:
      if (!a[1].isPoint() || !powInterval(out, a[0], y, a[1].lo)) return false;
      break;
    case MathFn::rootn: {  // x^(1/n)
      if (!a[1].isPoint() || a[1].lo == 0 || !(a[0].lo > 0)) return false;
      if (!powInterval(out, a[0], Enclosure(1 / Enclosure(a[1].lo)), std::nullopt)) return false;
      break;
    }
    case MathFn::fma:
    case MathFn::mad: {
      out = x * y;
      if (c == MathFn::mad) {
        // The unfused form rounds the product to the format first (and may flush it): the product's range widened
        // to the format values around it holds every rounded product.
        Range p;
        if (!fromInterval(p, out)) return false;
        double plo = roundToDouble(p.lo, format, Rounding::RTN), phi = roundToDouble(p.hi, format, Rounding::RTP);
        ValueSet ps{plo, phi, false};
        if (flushAllowed(format, options)) ps = flushed(ps, format);
        out = hull(out, between(ps.lo, ps.hi));
      }
      out += between(a[2].lo, a[2].hi);
      break;
    }
    case MathFn::mix: {  // x + (y - x) · a, for a in [0, 1] ("undefined" otherwise)
      if (!(a[2].lo >= 0 && a[2].hi <= 1)) return false;
      out = x + (y - x) * between(a[2].lo, a[2].hi);
      break;
    }
    default: return false;
  }
  return fromInterval(r, out);
}

bool exactRangeCore(CoreOp op, std::span<const ValueSet> a, Range& r) {
  const Enclosure x = between(a[0].lo, a[0].hi);
  Enclosure out;
  if (op == CoreOp::Recip) {
    if (a[0].lo <= 0 && a[0].hi >= 0) return false;
    out = 1 / x;
    return fromInterval(r, out);
  }
  const Enclosure y = between(a[1].lo, a[1].hi);
  switch (op) {
    case CoreOp::Add: out = x + y; break;
    case CoreOp::Sub: out = x - y; break;
    case CoreOp::Mul: out = x * y; break;
    case CoreOp::Div:
      if (a[1].lo <= 0 && a[1].hi >= 0) return false;
      out = x / y;
      break;
    default: return false;
  }
  return fromInterval(r, out);
}

// The rule over the exact range: the format values every conforming result may take.
ValueSet widen(const Range& r, const AccuracyRule& rule, Format format, const VerdictOptions& options) {
  ValueSet s;
  const int emaxIeee = int(rangeOf(format).emax) - 1;
  Mpfr t(kPrec + 64), top(2);
  mpfr_set_ui_2exp(top, 1, emaxIeee + 1, MPFR_RNDN);
  switch (rule.kind) {
    case RuleKind::CorrectlyRounded:
    case RuleKind::MadBoth:
      // Every rounding mode a device may default to lies between rounding down and rounding up.
      s = {roundToDouble(r.lo, format, Rounding::RTN), roundToDouble(r.hi, format, Rounding::RTP), false};
      break;
    case RuleKind::Ulps:
    case RuleKind::Absolute: {
      double d = rule.bound;
      if (rule.kind == RuleKind::Ulps) {
        // bound + extraUlps rounded up: an enclosure may be wider.
        Mpfr u(64);
        mpfr_set_d(u, rule.bound, MPFR_RNDU);
        mpfr_add_d(u, u, rule.extraUlps, MPFR_RNDU);
        const double bound = mpfr_get_d(u, MPFR_RNDU);
        // ulp grows with the magnitude (the spec's ulp of 2^k is the gap below it): the largest magnitude's bounds
        // every ulp of the range.
        const double m = std::max(std::fabs(mpfr_get_d(r.lo, MPFR_RNDD)), std::fabs(mpfr_get_d(r.hi, MPFR_RNDU)));
        const double big = std::max(std::fabs(mpfr_get_d(r.lo, MPFR_RNDU)), m);
        if (std::isinf(big)) return ValueSet::all();
        d = bound * ulpOf(big, format);
      }
      mpfr_sub_d(t, r.lo, d, MPFR_RNDD);
      s.lo = mpfr_sgn(t.get()) < 0 && mpfr_cmpabs(t, top) >= 0 ? -kPosInf : roundToDouble(t, format, Rounding::RTP);
      mpfr_add_d(t, r.hi, d, MPFR_RNDU);
      s.hi = mpfr_cmp(t, top) >= 0 ? kPosInf : roundToDouble(t, format, Rounding::RTN);
      break;
    }
    case RuleKind::Any: return ValueSet::all();
  }
  // Overflow of the correctly rounded or bounded result: ±inf (the overflow rule of the ulp definition).
  if (mpfr_cmpabs(r.hi, top) >= 0 && mpfr_sgn(r.hi.get()) > 0) s.hi = kPosInf;
  if (mpfr_cmpabs(r.lo, top) >= 0 && mpfr_sgn(r.lo.get()) < 0) s.lo = -kPosInf;
  if (rule.vulkan) {
    // Vulkan §A [external] [[spirvenv-ulp]]: a range reaching past the largest finite value also allows the infinity
    // and the largest finite value of that sign (an end at the largest finite value is taken as reaching past it).
    const double big = std::ldexp(2.0 - std::ldexp(1.0, 1 - precisionOf(format)), emaxIeee);
    if (s.hi >= big) s.hi = kPosInf, s.lo = std::min(s.lo, big);
    if (s.lo <= -big) s.lo = -kPosInf, s.hi = std::max(s.hi, -big);
  }
  s = withBothZeros(s);
  if (flushAllowed(format, options)) s = flushed(s, format);
  return s;
}

// Operands that are ranges: finite and numeric, or else every value.
bool finiteRanges(std::span<const ValueSet> args) {
  for (const auto& a : args)
    if (a.nan || !a.hasNumbers() || std::isinf(a.lo) || std::isinf(a.hi)) return false;
  return true;
}

std::vector<ValueSet> flushedOperands(std::span<const ValueSet> args, Format format, const VerdictOptions& options) {
  std::vector<ValueSet> out(args.begin(), args.end());
  if (flushAllowed(format, options))
    for (auto& a : out) a = flushed(a, format);
  return out;
}

}  // namespace

ValueSet hull(const ValueSet& a, const ValueSet& b) {
  if (!a.hasNumbers()) return {b.lo, b.hi, a.nan || b.nan};
  if (!b.hasNumbers()) return {a.lo, a.hi, a.nan || b.nan};
  ValueSet s;
  s.nan = a.nan || b.nan;
  // -0 orders below +0 here, so that the ends keep saying which zeros are in.
  auto less = [](double x, double y) { return x < y || (x == y && std::signbit(x) && !std::signbit(y)); };
  s.lo = less(a.lo, b.lo) ? a.lo : b.lo;
  s.hi = less(a.hi, b.hi) ? b.hi : a.hi;
  return s;
}

std::string toString(const ValueSet& s) {
  if (s.isAll()) return "any value";
  auto fmt = [](double v) {
    if (std::isinf(v)) return std::string(v < 0 ? "-inf" : "inf");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    return std::string(buf);
  };
  std::string out;
  if (s.hasNumbers()) out = s.isPoint() ? fmt(s.lo) : "[" + fmt(s.lo) + ", " + fmt(s.hi) + "]";
  if (s.nan) out += out.empty() ? "NaN" : " or NaN";
  return out.empty() ? "no value" : out;
}

namespace {

// allowedSetOf past the fast paths: Vulkan's rows, MPFR at single values, the general path over ranges.
ValueSet allowedSetSlow(std::optional<MathFn> f, CoreOp op, std::span<const ValueSet> args, Format format,
                        Profile profile, const VerdictOptions& profileOptions, bool points) {
  const VerdictOptions options = forProfile(profileOptions, profile);
  // Vulkan's "Inherited from <formula>" rows state no bound of their own (numerics/accuracy.hpp): every value.
  if (const AccuracyRequirement* row = primaryRow(f, op, format, profile, options.accuracy);
      row && row->kind == BoundKind::Inherited)
    return ValueSet::all();
  if (points)
    return pointSet(args, format, options,
                    [&](std::span<const double> a) { return allowedAt(f, op, a, format, profile, options); });
  if (!finiteRanges(args)) return ValueSet::all();
  return detail::generalRangeSet(f, op, args, format, profile, options);
}

// fn, or core when fn is empty: points through the fast path or judge(), ranges through the fast path or the
// general one.
ValueSet allowedSetOf(std::optional<MathFn> f, CoreOp op, std::span<const ValueSet> args, Format format,
                      Profile profile, const VerdictOptions& profileOptions) {
  bool points = true;
  for (const ValueSet& a : args) points = points && a.isPoint();
  // The fast paths first (every shadow rule asks): they take no Vulkan profile, whose options forProfile changes and
  // whose rows alone are "Inherited".
  if (profile != Profile::Vulkan) {
    if (!points) {
      if (auto fast = detail::fastRangeSet(f, op, args, format, profile, profileOptions)) return *fast;
    } else if (args.size() <= 4) {
      std::array<double, 4> a;  // the operands' values, on the stack
      for (size_t i = 0; i < args.size(); ++i)
        a[i] = args[i].hasNumbers() ? args[i].lo : std::numeric_limits<double>::quiet_NaN();
      const std::span<const double> values(a.data(), args.size());
      if (auto fast = detail::fastPointSet(f, op, values, format, profile, profileOptions)) return *fast;
    }
  }
  return allowedSetSlow(f, op, args, format, profile, profileOptions, points);
}

}  // namespace

ValueSet detail::generalRangeSet(std::optional<MathFn> f, CoreOp op, std::span<const ValueSet> args, Format format,
                                 Profile profile, const VerdictOptions& profileOptions) {
  const VerdictOptions options = forProfile(profileOptions, profile);
  if (!finiteRanges(args)) return ValueSet::all();
  const auto a = flushedOperands(args, format, options);
  std::vector<double> lo, hi;
  for (const auto& s : a) lo.push_back(s.lo), hi.push_back(s.hi);
  const auto& simple = detail::simpleRule(f, op, format, profile, options);
  const AccuracyRule rule = simple ? *simple : ruleOver(f, op, lo, hi, format, profile, options);
  if (rule.kind == RuleKind::Any) return ValueSet::all();
  Range r;
  if (!(f ? exactRange(*f, a, format, options, r) : exactRangeCore(op, a, r))) return ValueSet::all();
  return widen(r, rule, format, options);
}

ValueSet allowedSet(MathFn f, std::span<const ValueSet> args, Format format, Profile profile,
                    const VerdictOptions& options) {
  if (int(args.size()) != arity(f))
    throw std::invalid_argument(std::string(nameOf(f)) + " takes " + std::to_string(arity(f)) + " operands");
  return allowedSetOf(f, CoreOp::None, args, format, profile, options);
}

ValueSet allowedSetCore(CoreOp op, std::span<const ValueSet> args, Format format, Profile profile,
                        const VerdictOptions& options) {
  return allowedSetOf(std::nullopt, op, args, format, profile, options);
}

ValueSet allowedSetGeometric(CoreOp op, std::span<const ValueSet> p, std::span<const ValueSet> q, size_t component,
                             Format format, Profile profile, const VerdictOptions& profileOptions) {
  const VerdictOptions options = forProfile(profileOptions, profile);
  const AccuracyRequirement* row = primaryRow(std::nullopt, op, format, profile, options.accuracy);
  if (!row || !finiteRanges(p) || !finiteRanges(q)) return ValueSet::all();
  const auto a = flushedOperands(p, format, options), b = flushedOperands(q, format, options);
  const size_t n = a.size();
  Enclosure acc;  // 0
  switch (op) {
    case CoreOp::Dot:
      for (size_t i = 0; i < n; ++i) acc += between(a[i].lo, a[i].hi) * between(b[i].lo, b[i].hi);
      break;
    case CoreOp::Cross: {  // component k: a[k+1]·b[k+2] - a[k+2]·b[k+1]
      // OpenCL C 3.0 §6.15.5 [[geometric-functions]] cross: "The w component of float4 result returned will be 0.0"
      // (either zero's sign: it compares equal).
      if (component == 3) return ValueSet{-0.0, 0.0, false};
      if (n < 3 || component > 3) return ValueSet::all();
      const size_t i = (component + 1) % 3, j = (component + 2) % 3;
      acc = between(a[i].lo, a[i].hi) * between(b[j].lo, b[j].hi) -
            between(a[j].lo, a[j].hi) * between(b[i].lo, b[i].hi);
      break;
    }
    case CoreOp::Length:
    case CoreOp::FastLength:
    case CoreOp::Distance:
    case CoreOp::FastDistance:
    case CoreOp::Normalize:
    case CoreOp::FastNormalize: {
      const bool distance = op == CoreOp::Distance || op == CoreOp::FastDistance;
      Enclosure x, square;
      for (size_t i = 0; i < n; ++i) {
        x = between(a[i].lo, a[i].hi);
        if (distance) x -= between(b[i].lo, b[i].hi);
        // MPFI's square, not x · x: over an interval holding 0 the product's lower end would be negative.
        mpfi_sqr(square.backend().data(), x.backend().data());
        acc += square;
      }
      acc = sqrt(acc);
      if (op == CoreOp::Normalize || op == CoreOp::FastNormalize) {
        // a zero vector is returned as it is: not this rule
        if (mpfi_has_zero(acc.backend().data()) > 0) return ValueSet::all();
        acc = between(a[component].lo, a[component].hi) / acc;
      }
      break;
    }
    default: return ValueSet::all();
  }
  Range r;
  if (!fromInterval(r, acc)) return ValueSet::all();
  AccuracyRule rule;
  if (row->kind == BoundKind::AbsoluteMaxSquared) {
    double max = 0;
    for (const auto& s : a) max = std::max({max, std::fabs(s.lo), std::fabs(s.hi)});
    for (const auto& s : b) max = std::max({max, std::fabs(s.lo), std::fabs(s.hi)});
    rule.kind = RuleKind::Absolute;
    // Rounded up: the bound is not a short fraction.
    Mpfr bound(kPrec);
    mpfr_set_d(bound, max, MPFR_RNDU);
    mpfr_mul_d(bound, bound, max, MPFR_RNDU);
    mpfr_mul_d(bound, bound, row->absolute + row->absolutePerN * double(n), MPFR_RNDU);
    rule.bound = mpfr_get_d(bound, MPFR_RNDU);
  } else if (row->kind == BoundKind::Ulps) {
    rule.kind = RuleKind::Ulps;
    rule.bound = row->ulps + row->ulpsPerN * double(n);
  } else if (row->kind == BoundKind::CorrectlyRounded) {
    rule.kind = RuleKind::CorrectlyRounded;
  } else {
    return ValueSet::all();
  }
  return widen(r, rule, format, options);
}

ValueSet roundSet(const ValueSet& x, Format format, Rounding rounding, bool flushToZero) {
  ValueSet s;
  s.nan = x.nan;
  if (x.hasNumbers()) {
    Mpfr t(64);
    mpfr_set_d(t, x.lo, MPFR_RNDN);
    s.lo = roundToDouble(t, format, rounding);
    mpfr_set_d(t, x.hi, MPFR_RNDN);
    s.hi = roundToDouble(t, format, rounding);
    if (flushToZero) s = flushed(s, format);
  }
  return s;
}

}  // namespace clref::numerics
