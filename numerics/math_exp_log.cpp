// Exponentials, logarithms, powers, roots, error and gamma functions. MPFR's functions are
// correctly rounded and follow C99 Annex F.9.3-F.9.5 (which OpenCL C 3.0 §7.5 [[edge-case-behavior]] Edge Case
// Behavior adopts); powr, rsqrt and lgamma_r's sign, where OpenCL or IEEE 754 prescribe
// something else, are handled here explicitly.
#include <cmath>

#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

namespace {

int setNan(mpfr_ptr out) {
  mpfr_set_nan(out);
  return 0;
}

int setExactValue(mpfr_ptr out, double v) {
  mpfr_set_d(out, v, MPFR_RNDN);  // ±0, ±inf and 1: exact at any precision
  return 0;
}

// powr(x, y) = exp(y·log x) (IEEE 754-2008 §9.2.1 [external] powr), with OpenCL C 3.0
// §7.5.1 [[additional-requirements-beyond-c99-tc2]]'s rules.
int powr(mpfr_ptr out, mpfr_srcptr xm, mpfr_srcptr ym, double x, double y, mpfr_rnd_t rnd) {
  // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: powr(x, NaN) is NaN for x >= 0; powr(NaN, y) is
  // NaN; powr(x, y) is NaN for x < 0.
  if (std::isnan(x) || std::isnan(y) || x < 0) return setNan(out);
  const double inf = INFINITY;
  if (x == 0) {
    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: powr(±0, ±0) is NaN; powr(±0, y) = +inf for
    // finite y < 0 and powr(±0, -inf) = +inf; powr(±0, y) = +0 for y > 0. (The sign of x does not matter: powr is
    // defined for
    // x >= 0 only, unlike pow, whose pow(-0, odd y) keeps the sign.)
    if (y == 0) return setNan(out);
    return setExactValue(out, y < 0 ? inf : 0.0);
  }
  if (std::isinf(x)) {
    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: powr(+inf, ±0) is NaN; otherwise
    // exp(y·log(+inf)): +inf for y > 0, +0 for y < 0.
    if (y == 0) return setNan(out);
    return setExactValue(out, y > 0 ? inf : 0.0);
  }
  if (x == 1) {
    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: powr(+1, y) = 1 for finite y, powr(+1, ±inf) is
    // NaN.
    return std::isinf(y) ? setNan(out) : setExactValue(out, 1.0);
  }
  // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: powr(x, ±0) = 1 for finite x > 0. For finite x > 0,
  // x ≠ 1, mpfr_pow gives exactly exp(y·log x) with C99's limits for y = ±inf (+0 or +inf), which agree with powr's.
  return mpfr_pow(out, xm, ym, rnd);
}

}  // namespace

std::optional<int> expLogCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer) {
  mpfr_srcptr x = a.m[0];
  switch (f) {
    case MathFn::cbrt: return mpfr_cbrt(out, x, rnd);
    case MathFn::erfc: return mpfr_erfc(out, x, rnd);
    case MathFn::erf: return mpfr_erf(out, x, rnd);
    case MathFn::exp: return mpfr_exp(out, x, rnd);
    case MathFn::exp2: return mpfr_exp2(out, x, rnd);
    // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: exp10(-inf) = +0, exp10(+inf) = +inf (mpfr_exp10
    // does both).
    case MathFn::exp10: return mpfr_exp10(out, x, rnd);
    case MathFn::expm1: return mpfr_expm1(out, x, rnd);
    // C99 F.9.4.3: hypot(±inf, y) = +inf even if y is NaN (mpfr_hypot does the same).
    case MathFn::hypot: return mpfr_hypot(out, x, a.m[1], rnd);
    case MathFn::log: return mpfr_log(out, x, rnd);
    case MathFn::log2: return mpfr_log2(out, x, rnd);
    case MathFn::log10: return mpfr_log10(out, x, rnd);
    case MathFn::log1p: return mpfr_log1p(out, x, rnd);
    case MathFn::sqrt: return mpfr_sqrt(out, x, rnd);
    // C99 F.9.5.4: tgamma(±0) = ±inf, tgamma(negative integer) and tgamma(-inf) are NaN.
    case MathFn::tgamma: return mpfr_gamma(out, x, rnd);
    // C99 F.9.4.4 pow: pow(x, ±0) = 1 for any x, pow(±0, -inf) = +inf (also OpenCL C 3.0
    // §7.5.1 [[additional-requirements-beyond-c99-tc2]]), pow(-1, ±inf) = 1, pow(+1, y) = 1 for any y, ... (mpfr_pow
    // follows C99).
    case MathFn::pow: return mpfr_pow(out, x, a.m[1], rnd);
    case MathFn::pown:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: pown(x, 0) = 1 for any x (even NaN, inf);
      // pown(±0, n) = ±inf for odd n < 0, +inf for even n < 0, +0 for even n > 0, ±0 for odd n > 0. mpfr_pow_si has
      // exactly these (IEEE 754-2008 §9.2.1 [external] pown).
      return mpfr_pow_si(out, x, long(a.d[1]), rnd);
    case MathFn::rootn:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: rootn(±0, n) = ±inf for odd n < 0, +inf for
      // even n < 0, +0 for even n > 0, ±0 for odd n > 0; NaN for x < 0 and even n; rootn(x, 0) is NaN.
      // mpfr_rootn_si implements IEEE 754-2008 §9.2.1 [external] rootn, which has the same rules.
      if (long(a.d[1]) == 0) return setNan(out);
      return mpfr_rootn_si(out, x, long(a.d[1]), rnd);
    case MathFn::powr: return powr(out, x, a.m[1], a.d[0], a.d[1], rnd);
    case MathFn::rsqrt:
      // rsqrt = 1/sqrt(x): sqrt(±0) = ±0 (IEEE 754-2008 §5.4.1 [external]), so rsqrt(±0) = ±inf, as
      // IEEE 754-2008 §9.2 [external] rSqrt also says. mpfr_rec_sqrt returns +inf for -0, so zeros are
      // done here.
      if (a.d[0] == 0) {
        mpfr_set_inf(out, std::signbit(a.d[0]) ? -1 : 1);
        return 0;
      }
      return mpfr_rec_sqrt(out, x, rnd);
    case MathFn::lgamma:
    case MathFn::lgamma_r: {
      // C99 F.9.5.3: lgamma(1) = lgamma(2) = +0, lgamma(±0) = lgamma(negative integer) =
      // lgamma(±inf) = +inf (mpfr_lgamma follows these).
      int sign = 0;
      const int t = mpfr_lgamma(out, &sign, x, rnd);
      const double xd = a.d[0];
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: lgamma_r returns 0 in signp if x is zero or a
      // negative integer. Γ has no sign at NaN or -inf either: 0 here, the choice lgamma_sign_undefined
      // (math_eval.cpp) decides; MPFR's sign is undefined there. Elsewhere Γ(x) is nonzero and mpfr_lgamma's sign is
      // its sign.
      if (std::isnan(xd) || xd == -INFINITY || (xd <= 0 && std::trunc(xd) == xd)) sign = 0;
      integer = sign;
      return t;
    }
    default: return std::nullopt;
  }
}

}  // namespace clref::numerics::detail
