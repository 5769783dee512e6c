#include "numerics/mpfr_round.hpp"

#include <cmath>

namespace clref::numerics {

ExponentRangeGuard::ExponentRangeGuard(mpfr_exp_t emin, mpfr_exp_t emax)
    : savedEmin_(mpfr_get_emin()), savedEmax_(mpfr_get_emax()) {
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
}

ExponentRangeGuard::~ExponentRangeGuard() {
  mpfr_set_emin(savedEmin_);
  mpfr_set_emax(savedEmax_);
}

int finishToFormat(mpfr_ptr x, int ternary, Format f, Rounding r) {
  const mpfr_rnd_t rnd = toMpfr(r);
  ExponentRangeGuard guard(f);
  // IEEE 754-2008 §7.4 [external] overflow: ±inf or ±largest finite depending on the direction; OpenCL C 3.0
  // §7.5 [[edge-case-behavior]] underflow: values below the smallest subnormal go to 0 or the smallest subnormal.
  // mpfr_check_range is the one MPFR function documented to accept x outside the current range.
  ternary = mpfr_check_range(x, ternary, rnd);
  // IEEE 754-2008 §3.3 [external]: subnormals have fewer significand bits; the ternary value lets MPFR
  // round the 11/24/53-bit value again without double-rounding errors.
  return mpfr_subnormalize(x, ternary, rnd);
}

int roundToFormat(mpfr_ptr out, mpfr_srcptr x, Format f, Rounding r) {
  const FormatRange fr = rangeOf(f);
  const mpfr_rnd_t rnd = toMpfr(r);
  // First rounding: to the format's precision in the caller's (wide) exponent range, where x
  // is a valid input; only then is the range narrowed (MPFR manual, mpfr_set_emin: variables
  // outside the current range give undefined behaviour).
  int t;
  if (out == x) {
    t = mpfr_prec_round(out, fr.precision, rnd);
  } else {
    mpfr_set_prec(out, fr.precision);
    t = mpfr_set(out, x, rnd);
  }
  return finishToFormat(out, t, f, r);
}

double roundToDouble(mpfr_srcptr x, Format f, Rounding r) {
  Mpfr y(rangeOf(f).precision);
  roundToFormat(y, x, f, r);
  return mpfr_get_d(y, MPFR_RNDN);  // exact: y is a binary16/32/64 value
}

uint64_t roundToBits(mpfr_srcptr x, Format f, Rounding r) {
  Mpfr y(rangeOf(f).precision);
  roundToFormat(y, x, f, r);
  return encode(y, f);
}

uint64_t encode(mpfr_srcptr x, Format f) {
  const FormatRange fr = rangeOf(f);
  const int p = int(fr.precision);
  const int fracBits = p - 1;  // IEEE 754-2008 §3.4 [external]: trailing significand field t = p - 1
  const uint64_t expMask = ((uint64_t(1) << fr.exponentBits) - 1) << fracBits;
  const uint64_t signBit = uint64_t(1) << (fr.exponentBits + fracBits);
  // IEEE 754-2008 §6.2.1 [external]: a quiet NaN has the first bit of the trailing significand set.
  if (mpfr_nan_p(x)) return expMask | (uint64_t(1) << (fracBits - 1));
  const uint64_t sign = mpfr_signbit(x) ? signBit : 0;
  if (mpfr_inf_p(x)) return sign | expMask;
  if (mpfr_zero_p(x)) return sign;
  const double mag = std::fabs(mpfr_get_d(x, MPFR_RNDN));  // exact by precondition
  const mpfr_exp_t e = mpfr_get_exp(x);                    // |x| in [2^(e-1), 2^e)
  if (e - 1 >= 1 - fr.bias) {
    // Normal (IEEE 754-2008 §3.4 [external] b): biased exponent and the significand without its
    // leading one.
    const uint64_t biased = uint64_t(e - 1 + fr.bias);
    const uint64_t significand = uint64_t(std::ldexp(mag, p - int(e)));  // in [2^(p-1), 2^p)
    return sign | (biased << fracBits) | (significand - (uint64_t(1) << fracBits));
  }
  // Subnormal (IEEE 754-2008 §3.4 [external] c): value = T × 2^(emin - (p - 1)), emin = 1 - bias.
  return sign | uint64_t(std::ldexp(mag, fr.bias - 1 + fracBits));
}

void setExact(mpfr_ptr out, Half h) {
  if (mpfr_get_prec(out) < 11) mpfr_set_prec(out, 11);
  const bool neg = (h.bits & 0x8000) != 0;
  const unsigned exp = (h.bits >> 10) & 0x1f;
  const unsigned man = h.bits & 0x3ff;
  if (exp == 0x1f) {
    // IEEE 754-2008 §3.4 [external] a: all-ones exponent is infinity (zero fraction) or NaN.
    if (man != 0)
      mpfr_set_nan(out);
    else
      mpfr_set_inf(out, neg ? -1 : 1);
    return;
  }
  // IEEE 754-2008 §3.4 [external] b/c: normal (1024 + T)·2^(E - 15 - 10), subnormal T·2^(1 - 15 - 10).
  if (exp == 0)
    mpfr_set_ui_2exp(out, man, -24, MPFR_RNDN);
  else
    mpfr_set_ui_2exp(out, 1024 + man, long(exp) - 25, MPFR_RNDN);
  if (neg) mpfr_neg(out, out, MPFR_RNDN);  // also gives -0 for the bits 0x8000
}

void setExact(mpfr_ptr out, float x) {
  if (mpfr_get_prec(out) < 24) mpfr_set_prec(out, 24);
  mpfr_set_flt(out, x, MPFR_RNDN);  // exact at ≥ 24 bits
}

void setExact(mpfr_ptr out, double x) {
  if (mpfr_get_prec(out) < 53) mpfr_set_prec(out, 53);
  mpfr_set_d(out, x, MPFR_RNDN);  // exact at ≥ 53 bits
}

}  // namespace clref::numerics
