// Trigonometric and hyperbolic functions and their inverses, including the π-scaled forms
// (sinpi, cospi, tanpi, acospi, asinpi, atanpi, atan2pi). MPFR's functions follow C99 Annex
// F.9.1/F.9.2 (OpenCL C 3.0 §7.5 [[edge-case-behavior]] Edge Case Behavior refers to it) and are correctly rounded;
// the rules the OpenCL spec adds for the π-scaled forms at integers and half-integers are
// applied here explicitly, so they hold whatever MPFR's convention for the sign of zero is.
#include <cmath>

#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

namespace {

bool isInteger(double x) { return std::isfinite(x) && std::trunc(x) == x; }
bool isOddInteger(double x) { return isInteger(x) && std::fmod(x, 2.0) != 0; }
// x = n + 0.5 for an integer n (every such double has |x| < 2^52).
bool isHalfInteger(double x) { return std::isfinite(x) && !isInteger(x) && isInteger(2 * x); }

int setZero(mpfr_ptr out, bool negative) {
  mpfr_set_zero(out, negative ? -1 : 1);
  return 0;
}

int setInf(mpfr_ptr out, bool negative) {
  mpfr_set_inf(out, negative ? -1 : 1);
  return 0;
}

}  // namespace

std::optional<int> trigCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd) {
  mpfr_srcptr x = a.m[0];
  const double xd = a.d[0];
  switch (f) {
    case MathFn::acos: return mpfr_acos(out, x, rnd);
    case MathFn::acosh: return mpfr_acosh(out, x, rnd);
    case MathFn::asin: return mpfr_asin(out, x, rnd);
    case MathFn::asinh: return mpfr_asinh(out, x, rnd);
    case MathFn::atan: return mpfr_atan(out, x, rnd);
    // C99 F.9.1.4 atan2: atan2(±0, -0) = ±π, atan2(±0, +0) = ±0, ... (mpfr_atan2 follows it).
    case MathFn::atan2: return mpfr_atan2(out, x, a.m[1], rnd);
    case MathFn::atanh: return mpfr_atanh(out, x, rnd);
    case MathFn::cos: return mpfr_cos(out, x, rnd);
    case MathFn::cosh: return mpfr_cosh(out, x, rnd);
    case MathFn::sin:
    case MathFn::sincos: return mpfr_sin(out, x, rnd);
    case MathFn::sinh: return mpfr_sinh(out, x, rnd);
    case MathFn::tan: return mpfr_tan(out, x, rnd);
    case MathFn::tanh: return mpfr_tanh(out, x, rnd);

    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: acospi(1) = +0, acospi(|x| > 1) is NaN;
    // asinpi(±0) = ±0, NaN for |x| > 1; atanpi(±0) = ±0, atanpi(±inf) = ±0.5. These are the values of acos/π, asin/π
    // and atan/π, which MPFR computes correctly rounded with these signs.
    case MathFn::acospi: return mpfr_acospi(out, x, rnd);
    case MathFn::asinpi: return mpfr_asinpi(out, x, rnd);
    case MathFn::atanpi: return mpfr_atanpi(out, x, rnd);
    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: atan2pi(±0, -0) = ±1, atan2pi(±0, +0) = ±0,
    // atan2pi(±0, x<0) = ±1, atan2pi(±0, x>0) = ±0, atan2pi(y<0, ±0) = -0.5, atan2pi(y>0, ±0) = 0.5,
    // atan2pi(±y, -inf) = ±1, atan2pi(±y, +inf) = ±0 for finite y > 0,
    // atan2pi(±inf, finite) = ±0.5, atan2pi(±inf, -inf) = ±0.75, atan2pi(±inf, +inf) = ±0.25:
    // C99's atan2 rules divided by π, which mpfr_atan2pi implements.
    case MathFn::atan2pi: return mpfr_atan2pi(out, x, a.m[1], rnd);

    case MathFn::sinpi:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: sinpi(±0) = ±0; sinpi(+n) = +0 for positive
      // integers n, sinpi(-n) = -0 for negative integers n (the zero takes the sign of x);
      // sinpi(±inf) is NaN (mpfr_sinpi).
      if (isInteger(xd)) return setZero(out, std::signbit(xd));
      return mpfr_sinpi(out, x, rnd);
    case MathFn::cospi:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: cospi(±0) = 1; cospi(n + 0.5) = +0 for every
      // integer n; cospi(±inf) is NaN.
      if (isHalfInteger(xd)) return setZero(out, false);
      return mpfr_cospi(out, x, rnd);
    case MathFn::tanpi:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: tanpi(±0) = ±0; tanpi(n) = copysign(0, n) for
      // even n and copysign(0, -n) for odd n; tanpi(n + 0.5) = +inf for even n, -inf for odd n;
      // tanpi(±inf) is NaN.
      if (isInteger(xd)) return setZero(out, isOddInteger(xd) ? !std::signbit(xd) : std::signbit(xd));
      if (isHalfInteger(xd)) return setInf(out, isOddInteger(std::floor(xd)));
      return mpfr_tanpi(out, x, rnd);
    default: return std::nullopt;
  }
}

}  // namespace clref::numerics::detail
