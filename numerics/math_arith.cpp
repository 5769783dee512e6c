// Arithmetic-like math functions: fma/mad, fdim, fmod, remainder, remquo, ldexp and the
// divide/recip of the half_/native_ families. All are single MPFR operations on exact
// operands, so the result is rounded once.
#include <cmath>
#include <cstdlib>

#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

std::optional<int> arithCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer) {
  mpfr_srcptr x = a.m[0];
  switch (f) {
    // OpenCL C 3.0 §6.15.2 [[math-functions]] fma: the infinitely precise a·b + c rounded once; edge cases per
    // IEEE 754-2008 (mpfr_fma: inf·0 + c is NaN, the sign of an exact zero sum follows IEEE 754-2008 §6.3 [external]).
    // mad is evaluated fused here (the default of the named choice `mad`; evaluateMad has both).
    case MathFn::fma:
    case MathFn::mad: return mpfr_fma(out, x, a.m[1], a.m[2], rnd);
    case MathFn::fdim:
      // OpenCL C 3.0 §6.15.2 [[math-functions]] fdim: x - y if x > y, +0 if x <= y;
      // §7.5.1 [[additional-requirements-beyond-c99-tc2]]: fdim(any, NaN) and fdim(NaN, any) are NaN.
      if (std::isnan(a.d[0]) || std::isnan(a.d[1])) {
        mpfr_set_nan(out);
        return 0;
      }
      if (a.d[0] > a.d[1]) return mpfr_sub(out, x, a.m[1], rnd);
      mpfr_set_zero(out, 1);
      return 0;
    // OpenCL C 3.0 §6.15.2 [[math-functions]] fmod: x - y·trunc(x/y), exact; C99 F.9.7.1: fmod(±0, y) = ±0 for
    // y ≠ 0, fmod(±inf, y) and fmod(x, 0) are NaN, fmod(x, ±inf) = x for finite x;
    // §7.5.1 [[additional-requirements-beyond-c99-tc2]]: fmod(±0, NaN) is NaN. mpfr_fmod follows these.
    case MathFn::fmod: return mpfr_fmod(out, x, a.m[1], rnd);
    // OpenCL C 3.0 §6.15.2 [[math-functions]] remainder: x - n·y, n the integer nearest x/y, ties to even; a zero
    // result has the sign of x. C99 F.9.7.2: remainder(±inf, y) and remainder(x, 0) are NaN.
    case MathFn::remainder: return mpfr_remainder(out, x, a.m[1], rnd);
    case MathFn::remquo: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] remquo: the remainder as above, and "the lower seven bits of the
      // integral quotient x/y" with the sign of x/y in quo. mpfr_remquo gives the low 63 bits
      // with that sign; the core keeps 31 (all an int holds) and the choice
      // remquo_quotient_bits (math_eval.cpp) how many of them reach quo.
      // §7.5.1 [[additional-requirements-beyond-c99-tc2]]: remquo returns NaN and 0 in quo if x is ±inf, or y is 0 and
      // the other operand is not NaN, or either operand is NaN.
      long q = 0;
      const int t = mpfr_remquo(out, &q, x, a.m[1], rnd);
      if (mpfr_nan_p(out)) {
        integer = 0;
      } else {
        const int64_t low = int64_t(std::labs(q) & 0x7fffffff);
        integer = q < 0 ? -low : low;
      }
      return t;
    }
    case MathFn::ldexp:
      // OpenCL C 3.0 §6.15.2 [[math-functions]] ldexp: x·2^k, rounded once (only a subnormal or overflowing
      // result is inexact). C99 F.9.3.6: ldexp(±0, k) = ±0, ldexp(±inf, k) = ±inf.
      return mpfr_mul_2si(out, x, long(a.d[1]), rnd);
    // half_divide/native_divide: x / y; half_recip/native_recip: 1 / x, correctly rounded
    // (the named choice for half_*/native_*), IEEE 754-2008 §6 [external] special values.
    case MathFn::half_divide: return mpfr_div(out, x, a.m[1], rnd);
    case MathFn::half_recip: return mpfr_ui_div(out, 1, x, rnd);
    default: return std::nullopt;
  }
}

}  // namespace clref::numerics::detail
