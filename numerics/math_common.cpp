// The floating-point common functions (OpenCL C 3.0 §6.15.4 [[common-functions]]): fclamp (clamp), degrees,
// fmax_common/fmin_common (max/min), mix, radians, step, smoothstep, sign. The spec gives
// degrees, radians, mix and smoothstep as formulas and leaves their accuracy to the
// implementation (the "Relative Error as ULPs" table); clref returns the exact real value of
// each formula rounded once.
#include <algorithm>
#include <cmath>

#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

namespace {

// Enough bits to hold x - y exactly for any two binary64 values: the bits of both lie between
// 2^1023 and 2^-1074, 2098 positions (plus one for a carry).
constexpr mpfr_prec_t kExactSumBits = 2112;

// Sets `out` to the exact value of a·b: precision prec(a) + prec(b) is always enough.
void mulExact(mpfr_ptr out, mpfr_srcptr a, mpfr_srcptr b) {
  mpfr_set_prec(out, mpfr_get_prec(a) + mpfr_get_prec(b));
  mpfr_mul(out, a, b, MPFR_RNDN);
}

// Trims an exact value to the bits it actually uses, to keep the exact products small.
void trim(mpfr_ptr v) {
  if (mpfr_regular_p(v)) mpfr_prec_round(v, mpfr_min_prec(v), MPFR_RNDN);
}

// smoothstep for finite operands: t = clamp((x - e0)/(e1 - e0), 0, 1), t·t·(3 - 2t). With
// N = x - e0 and D = e1 - e0 (exact), t·t·(3 - 2t) = N²(3D - 2N)/D³, a quotient of exact
// values, so one mpfr_div gives the correctly rounded result.
int smoothstepFinite(mpfr_ptr out, mpfr_srcptr e0, mpfr_srcptr e1, mpfr_srcptr x, mpfr_rnd_t rnd) {
  Mpfr n(kExactSumBits), d(kExactSumBits), t1(2), t2(2), num(2), den(2);
  mpfr_sub(n, x, e0, MPFR_RNDN);   // exact
  mpfr_sub(d, e1, e0, MPFR_RNDN);  // exact
  trim(n);
  trim(d);
  const int sd = mpfr_sgn(d.get());
  // The clamp: t <= 0 gives 0 and t >= 1 gives 1 (t·t·(3-2t) is then exactly 0 or 1). For
  // D > 0 (the defined case) t <= 0 ⇔ N <= 0 and t >= 1 ⇔ N >= D. D <= 0 means edge0 >= edge1,
  // where the result is undefined (OpenCL C 3.0 §6.15.4 [[common-functions]]); t = N/D is still followed, with N/0
  // taken as +inf for N > 0 (clamped to 1) and as -inf or NaN otherwise (clamped to 0, fmax's rule).
  bool zero, one;
  if (sd > 0) {
    zero = mpfr_sgn(n.get()) <= 0;
    one = mpfr_cmp(n, d) >= 0;
  } else if (sd < 0) {
    zero = mpfr_sgn(n.get()) >= 0;
    one = mpfr_cmp(n, d) <= 0;
  } else {
    zero = mpfr_sgn(n.get()) <= 0;
    one = !zero;
  }
  if (zero || one) {
    mpfr_set_ui(out, one ? 1 : 0, MPFR_RNDN);
    return 0;
  }
  mulExact(t1, n, n);  // N²
  {
    // 3D - 2N, exactly: 3D and 2N are exact with 2 and 0 more bits, and their difference has
    // its bits within the span of D's and N's bits plus a few carries.
    Mpfr d3(mpfr_get_prec(d) + 2), n2(mpfr_get_prec(n));
    mpfr_mul_ui(d3, d, 3, MPFR_RNDN);
    mpfr_mul_2ui(n2, n, 1, MPFR_RNDN);
    mpfr_set_prec(t2, kExactSumBits + 8);
    mpfr_sub(t2, d3, n2, MPFR_RNDN);
    trim(t2);
  }
  mulExact(num, t1, t2);  // N²(3D - 2N)
  Mpfr d2(2);
  mulExact(d2, d, d);
  mulExact(den, d2, d);  // D³
  return mpfr_div(out, num, den, rnd);
}

}  // namespace

int mulByAngleConstant(mpfr_ptr out, mpfr_srcptr x, bool toDegrees, mpfr_rnd_t rnd) {
  // ±0, ±inf and NaN times a positive constant are themselves (IEEE 754-2008 §6 [external]).
  if (!mpfr_regular_p(x)) return mpfr_set(out, x, rnd);
  const mpfr_prec_t p = mpfr_get_prec(out);
  // Ziv's strategy: approximate with a working precision wp and an error bound, and accept
  // when mpfr_can_round proves the rounding to p bits is determined. x·180/π and x·π/180 are
  // irrational for x ≠ 0, so the exact value is never representable and the MPFR manual's
  // trick (RNDZ with p + 1 bits for round-to-nearest) also gives the correct ternary value.
  for (mpfr_prec_t wp = p + 40;; wp += wp / 2) {
    Mpfr pi(wp), t(wp + 64), q(wp);
    mpfr_const_pi(pi, MPFR_RNDN);  // |pi - π| <= ½ ulp: relative error <= 2^-wp
    if (toDegrees) {
      mpfr_mul_ui(t, x, 180, MPFR_RNDN);  // exact: x has <= 53 bits, t has >= 64 + 8
      mpfr_div(q, t, pi, MPFR_RNDN);
    } else {
      mpfr_mul(q, x, pi, MPFR_RNDN);
      mpfr_div_ui(q, q, 180, MPFR_RNDN);
    }
    // At most three relative errors of 2^-wp each: |q - exact| < 2^(EXP(q) - wp + 2).
    if (mpfr_can_round(q, wp - 3, MPFR_RNDN, MPFR_RNDZ, p + (rnd == MPFR_RNDN ? 1 : 0))) return mpfr_set(out, q, rnd);
  }
}

std::optional<int> commonCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd) {
  switch (f) {
    // OpenCL C 3.0 §6.15.4 [[common-functions]] degrees: (180/π)·radians; radians: (π/180)·degrees.
    case MathFn::degrees: return mulByAngleConstant(out, a.m[0], true, rnd);
    case MathFn::radians: return mulByAngleConstant(out, a.m[0], false, rnd);
    case MathFn::mix: {
      // OpenCL C 3.0 §6.15.4 [[common-functions]] mix: x + (y - x)·a. y - x is formed exactly, then one fused
      // multiply-add rounds once. Infinities and NaNs propagate as in that expression
      // (inf - inf and inf·0 are NaN). a outside [0, 1] is undefined; the formula is kept.
      Mpfr d(kExactSumBits);
      mpfr_sub(d, a.m[1], a.m[0], MPFR_RNDN);  // exact
      return mpfr_fma(out, d, a.m[2], a.m[0], rnd);
    }
    case MathFn::smoothstep: {
      // OpenCL C 3.0 §6.15.4 [[common-functions]] smoothstep: t = clamp((x - edge0)/(edge1 - edge0), 0, 1);
      // t·t·(3 - 2t). Undefined if edge0 >= edge1 or an operand is NaN: clref returns NaN for
      // a NaN operand and otherwise follows the formula.
      const double e0 = a.d[0], e1 = a.d[1], x = a.d[2];
      if (std::isnan(e0) || std::isnan(e1) || std::isnan(x)) {
        mpfr_set_nan(out);
        return 0;
      }
      if (std::isinf(e0) || std::isinf(e1) || std::isinf(x)) {
        // With an infinite operand t is ±0, ±inf or NaN: evaluate the formula in IEEE
        // arithmetic (exact here), clamp with fmax/fmin's NaN rule, and t·t·(3 - 2t) is 0 or 1.
        const double t = numerics::fmin(numerics::fmax((x - e0) / (e1 - e0), 0.0), 1.0);
        mpfr_set_ui(out, t >= 1 ? 1 : 0, MPFR_RNDN);
        return 0;
      }
      return smoothstepFinite(out, a.m[0], a.m[1], a.m[2], rnd);
    }
    default: return std::nullopt;
  }
}

std::optional<MathResult> commonExactEval(MathFn f, std::span<const double> args) {
  MathResult r;
  switch (f) {
    case MathFn::fclamp:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] clamp: fmin(fmax(x, minval), maxval); undefined if minval > maxval.
      r.value = numerics::fmin(numerics::fmax(args[0], args[1]), args[2]);
      return r;
    case MathFn::fmax_common:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] max: y if x < y, otherwise x; undefined for NaN (clref: fmax's
      // NaN rule, the other operand).
      r.value = numerics::fmax(args[0], args[1]);
      return r;
    case MathFn::fmin_common:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] min: y if y < x, otherwise x; undefined for NaN (as fmin).
      r.value = numerics::fmin(args[0], args[1]);
      return r;
    case MathFn::step:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] step(edge, x): 0.0 if x < edge, otherwise 1.0 (so 1.0 when either
      // is NaN, since the comparison is then false).
      r.value = args[1] < args[0] ? 0.0 : 1.0;
      return r;
    case MathFn::sign: {
      // OpenCL C 3.0 §6.15.4 [[common-functions]] sign: 1.0 if x > 0, -0.0 if x = -0.0, +0.0 if x = +0.0, -1.0 if
      // x < 0, 0.0 if x is NaN.
      const double x = args[0];
      r.value = std::isnan(x) ? 0.0 : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
      return r;
    }
    default: return std::nullopt;
  }
}

}  // namespace clref::numerics::detail
