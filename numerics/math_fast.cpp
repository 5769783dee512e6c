// The fast path of numerics::evaluate for binary16 and binary32 results (docs/ARCHITECTURE.md "Exact
// first, fast second"): the host's binary64 function gives an approximation y whose error is
// bounded; when every value in [y − e, y + e] rounds to the same value of the target format,
// that value is the correctly rounded result. Otherwise (the exact value may lie near a
// rounding boundary, about 2^-26 of float inputs) the caller falls back to MPFR.
//
// The bound: glibc 2.36's binary64 functions have the maximum errors libm-test-ulps documents for x86_64 (1 to 5
// ulp for those used here); e is four times that, and at least 8 ulp of y (hostValue: the functions of π and rootn
// add the errors of their extra operation). Finite normal results take this path, where ulp(y) is relative; results
// the host could not represent (overflow to infinity, underflow below binary64's normal range) take it for the
// functions whose exact value there cannot be 0 or infinite, since every such value rounds in binary32 and binary16 as
// binary64's extreme of its sign does. The special values and edge cases (OpenCL C 3.0 §7.5.1
// [[additional-requirements-beyond-c99-tc2]]) stay with the exact code. tests/numerics compares this path with pure
// MPFR on random inputs of every function here (10^8 per function for some under the `slow` label).
#include <cfloat>
#include <cmath>

#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

namespace {

// x rounded to binary32 in mode r, exactly (x is any binary64 value).
float toFloatIn(double x, Rounding r) {
  float f = float(x);  // the host rounds to nearest even
  const double back = f;
  switch (r) {
    case Rounding::RTE: break;
    case Rounding::RTZ:
      if (std::fabs(back) > std::fabs(x)) f = std::nextafter(f, 0.0f);
      break;
    case Rounding::RTP:
      if (back < x) f = std::nextafter(f, INFINITY);
      break;
    case Rounding::RTN:
      if (back > x) f = std::nextafter(f, -INFINITY);
      break;
  }
  return f;
}

double roundIn(double x, Format f, Rounding r) {
  if (f == Format::Half) return toDouble(toHalf(x, r));
  return double(toFloatIn(x, r));
}

// An approximation of f's exact value from the host's binary64 functions, with a bound on its error in ulps of y.
struct Approximation {
  double y;
  double ulps;
  int64_t integer = 0;  // lgamma_r's sign of Γ
};

// The bound for a glibc function whose largest error libm-test-ulps (glibc 2.36, sysdeps/x86_64/fpu, double, round to
// nearest) lists as `documented` ulps: four times that, and never below 8.
constexpr double bound(double documented) { return documented * 4 < 8 ? 8 : documented * 4; }

bool isOddIntegerFast(double v) { return std::fabs(std::fmod(v, 2.0)) == 1.0; }

// pown's and rootn's n: an int (the built-ins' type; anything else is the exact path's to judge).
bool isIntN(double n) { return n == std::trunc(n) && std::fabs(n) <= 2147483647.0; }

// f's value at finite `args` from the host's binary64 functions, or nullopt when f has no fast path there. The
// functions of π (asinpi, acospi, atanpi, atan2pi) divide by M_PI: the function's error, M_PI's (below half an ulp)
// and the division's rounding (half an ulp), at most 1 ulp more when the quotient crosses a binade, are below
// 2 + documented ulps. rootn(x, n) is |x|^(1/n) with 1/n rounded: x^((1/n)(1 + d)), |d| <= 2^-53, is off by the
// factor exp(d·log|x|/n), at most |log x / n| + 1 ulps more.
std::optional<Approximation> hostValue(MathFn f, std::span<const double> args) {
  const double x = args[0];
  switch (f) {
    case MathFn::sin: return Approximation{std::sin(x), bound(1)};
    case MathFn::cos: return Approximation{std::cos(x), bound(1)};
    case MathFn::tan: return Approximation{std::tan(x), bound(1)};
    case MathFn::exp: return Approximation{std::exp(x), bound(1)};
    case MathFn::exp2: return Approximation{std::exp2(x), bound(1)};
    case MathFn::exp10: return Approximation{::exp10(x), bound(2)};
    case MathFn::expm1: return Approximation{std::expm1(x), bound(1)};
    case MathFn::log: return Approximation{std::log(x), bound(1)};
    case MathFn::log2: return Approximation{std::log2(x), bound(2)};
    case MathFn::log10: return Approximation{std::log10(x), bound(2)};
    case MathFn::log1p: return Approximation{std::log1p(x), bound(1)};
    case MathFn::asin: return Approximation{std::asin(x), bound(1)};
    case MathFn::acos: return Approximation{std::acos(x), bound(1)};
    case MathFn::atan: return Approximation{std::atan(x), bound(1)};
    case MathFn::asinh: return Approximation{std::asinh(x), bound(2)};
    case MathFn::acosh: return Approximation{std::acosh(x), bound(2)};
    case MathFn::atanh: return Approximation{std::atanh(x), bound(2)};
    case MathFn::sinh: return Approximation{std::sinh(x), bound(2)};
    case MathFn::cosh: return Approximation{std::cosh(x), bound(2)};
    case MathFn::tanh: return Approximation{std::tanh(x), bound(2)};
    case MathFn::cbrt: return Approximation{std::cbrt(x), bound(4)};
    case MathFn::erf: return Approximation{std::erf(x), bound(1)};
    case MathFn::erfc: return Approximation{std::erfc(x), bound(5)};
    case MathFn::tgamma: return Approximation{std::tgamma(x), bound(9)};
    case MathFn::lgamma:  // with the sign of Γ, as the exact path gives both
    case MathFn::lgamma_r: {
      int sign = 0;
      const double y = ::lgamma_r(x, &sign);
      return Approximation{y, bound(4), sign};
    }
    case MathFn::asinpi: return Approximation{std::asin(x) / M_PI, bound(2 + 1)};
    case MathFn::acospi: return Approximation{std::acos(x) / M_PI, bound(2 + 1)};
    case MathFn::atanpi: return Approximation{std::atan(x) / M_PI, bound(2 + 1)};
    case MathFn::atan2pi: return Approximation{std::atan2(x, args[1]) / M_PI, bound(2 + 1)};
    case MathFn::pow: return Approximation{std::pow(x, args[1]), bound(1)};
    case MathFn::atan2: return Approximation{std::atan2(x, args[1]), bound(1)};
    case MathFn::hypot: return Approximation{std::hypot(x, args[1]), bound(1)};
    // pown's n is an int, exact in binary64: pow(x, n) is pown(x, n) for finite x.
    case MathFn::pown:
      if (!isIntN(args[1])) return std::nullopt;
      return Approximation{std::pow(x, args[1]), bound(1)};
    // powr(x, y) = exp(y·log x) is pow(x, y) for x > 0; elsewhere it has its own rules (the exact path).
    case MathFn::powr:
      if (!(x > 0)) return std::nullopt;
      return Approximation{std::pow(x, args[1]), bound(1)};
    case MathFn::rootn: {
      const double n = args[1];
      // Zero, and even roots of negative numbers, are special values (the exact path).
      if (!isIntN(n) || n == 0 || x == 0 || (x < 0 && !isOddIntegerFast(n))) return std::nullopt;
      const double root = std::pow(std::fabs(x), 1.0 / n);
      return Approximation{x < 0 ? -root : root, bound(1 + 1 + std::fabs(std::log(std::fabs(x)) / n))};
    }
    default: return std::nullopt;
  }
}

// For the functions whose value cannot be an exact zero or infinity at finite arguments (x != 0 for the powers): the
// sign of that value when the host's result left binary64's normal range (overflowed to infinity, or underflowed to
// a subnormal or zero), or nullopt for the other functions. The exact value then lies beyond binary64's largest
// finite value or below its smallest normal one, far outside binary32's and binary16's ranges.
std::optional<bool> negativeBeyondRange(MathFn f, std::span<const double> args) {
  const double x = args[0];
  switch (f) {
    case MathFn::exp:
    case MathFn::exp2:
    case MathFn::exp10:
    case MathFn::cosh:
    case MathFn::erfc: return false;
    case MathFn::sinh:
      if (x == 0) return std::nullopt;  // sinh(±0) = ±0 exactly
      return x < 0;
    // Γ has poles at 0 and the negative integers (the exact path) and no zeros; below 0 its sign alternates, negative
    // where floor(x) is odd.
    case MathFn::tgamma:
      if (x == std::trunc(x) && x <= 0) return std::nullopt;
      return x < 0 && isOddIntegerFast(std::floor(x));
    case MathFn::pow:
    case MathFn::pown:
      if (x == 0) return std::nullopt;
      return x < 0 && isOddIntegerFast(args[1]);
    case MathFn::powr:
      if (!(x > 0)) return std::nullopt;
      return false;
    case MathFn::rootn:
      if (x == 0) return std::nullopt;
      return x < 0;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<MathResult> fastEval(MathFn f, std::span<const double> args, Format format, Rounding r) {
  if (format == Format::Double) return std::nullopt;
  for (double a : args)
    if (!std::isfinite(a)) return std::nullopt;
  const std::optional<Approximation> approx = hostValue(f, args);
  if (!approx || std::isnan(approx->y)) return std::nullopt;
  const double y = approx->y;
  MathResult out;
  out.integer = approx->integer;
  if (!std::isnormal(y)) {
    // Beyond binary64's normal range: every value there rounds in the format as its extreme of that sign does
    // (DBL_MAX overflows, DBL_MIN is below half the smallest subnormal), as long as the value is not exactly 0 or ∞.
    const std::optional<bool> negative = negativeBeyondRange(f, args);
    if (!negative) return std::nullopt;
    const double extreme = std::isinf(y) ? DBL_MAX : DBL_MIN;
    out.value = roundIn(*negative ? -extreme : extreme, format, r);
    return out;
  }
  // approx->ulps ulps of y in binary64.
  int e;
  std::frexp(y, &e);
  const double err = std::ldexp(approx->ulps, e - 53);
  const double lo = roundIn(y - err, format, r), hi = roundIn(y + err, format, r);
  if (lo != hi) return std::nullopt;  // a rounding boundary may lie inside: ask MPFR
  out.value = lo;
  return out;
}

double roundToFormat(double x, Format f, Rounding r) { return roundIn(x, f, r); }

}  // namespace clref::numerics::detail
