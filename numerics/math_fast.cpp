// The fast path of numerics::evaluate for binary16 and binary32 results (docs/ARCHITECTURE.md "Exact
// first, fast second"): the host's binary64 function gives an approximation y whose error is
// bounded; when every value in [y − e, y + e] rounds to the same value of the target format,
// that value is the correctly rounded result. Otherwise (the exact value may lie near a
// rounding boundary, about 2^-26 of float inputs) the caller falls back to MPFR.
//
// The bound: glibc 2.36's binary64 functions used here have documented maximum errors of at
// most 2 ulp on x86_64 (libm-test-ulps); e is taken as 8 ulp of y, four times that. Only
// finite, nonzero, normal results take the fast path, so ulp(y) is relative and the special
// values and edge cases (OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]) stay with the exact code.
// tests/numerics compares this path with pure MPFR on random inputs (10^8 per function under the `slow` label).
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

// The host binary64 function for f, or nullptr when f has no fast path.
double host1(MathFn f, double x, bool& ok) {
  ok = true;
  switch (f) {
    case MathFn::sin: return std::sin(x);
    case MathFn::cos: return std::cos(x);
    case MathFn::tan: return std::tan(x);
    case MathFn::exp: return std::exp(x);
    case MathFn::exp2: return std::exp2(x);
    case MathFn::expm1: return std::expm1(x);
    case MathFn::log: return std::log(x);
    case MathFn::log2: return std::log2(x);
    case MathFn::log10: return std::log10(x);
    case MathFn::log1p: return std::log1p(x);
    case MathFn::asin: return std::asin(x);
    case MathFn::acos: return std::acos(x);
    case MathFn::atan: return std::atan(x);
    case MathFn::sinh: return std::sinh(x);
    case MathFn::cosh: return std::cosh(x);
    case MathFn::tanh: return std::tanh(x);
    case MathFn::cbrt: return std::cbrt(x);
    default: ok = false; return 0;
  }
}

double host2(MathFn f, double x, double y, bool& ok) {
  ok = true;
  switch (f) {
    case MathFn::pow: return std::pow(x, y);
    case MathFn::atan2: return std::atan2(x, y);
    case MathFn::hypot: return std::hypot(x, y);
    default: ok = false; return 0;
  }
}

}  // namespace

std::optional<MathResult> fastEval(MathFn f, std::span<const double> args, Format format, Rounding r) {
  if (format == Format::Double) return std::nullopt;
  for (double a : args)
    if (!std::isfinite(a)) return std::nullopt;
  bool ok = false;
  double y = 0;
  if (args.size() == 1)
    y = host1(f, args[0], ok);
  else if (args.size() == 2)
    y = host2(f, args[0], args[1], ok);
  if (!ok || !std::isnormal(y)) return std::nullopt;
  // 8 ulp of y in binary64.
  int e;
  std::frexp(y, &e);
  const double err = std::ldexp(8.0, e - 53);
  const double lo = roundIn(y - err, format, r), hi = roundIn(y + err, format, r);
  if (lo != hi) return std::nullopt;  // a rounding boundary may lie inside: ask MPFR
  MathResult out;
  out.value = lo;
  return out;
}

}  // namespace clref::numerics::detail
