#include "numerics/dot.hpp"

#include <cmath>
#include <vector>

#include <mpfr.h>

#include "numerics/mpfr_round.hpp"

namespace clref::numerics {

namespace {
// MPFR exponent range of a format: value = m·2^e with m in [0.5, 1).
void rangeOf(Format f, long& emin, long& emax) {
  switch (f) {
    case Format::Half:
      emin = -23;
      emax = 16;
      break;
    case Format::Float:
      emin = -148;
      emax = 128;
      break;
    default:
      emin = -1073;
      emax = 1024;
      break;
  }
}
}  // namespace

double dotExact(std::span<const double> a, std::span<const double> b, Format format, Rounding rounding) {
  const size_t n = a.size();
  bool finite = true;
  for (size_t i = 0; i < n; ++i) finite = finite && std::isfinite(a[i]) && std::isfinite(b[i]);
  if (!finite) {
    // Any infinity or NaN decides the result: the IEEE products and sums give it exactly.
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
  }
  // Each product of two binary64 values is exact at 106 bits; mpfr_sum rounds the exact sum once.
  std::vector<mpfr_t> prods(n);
  std::vector<mpfr_ptr> ptrs(n);
  for (size_t i = 0; i < n; ++i) {
    mpfr_init2(prods[i], 2 * precisionOf(Format::Double));
    mpfr_set_d(prods[i], a[i], MPFR_RNDN);
    mpfr_mul_d(prods[i], prods[i], b[i], MPFR_RNDN);
    ptrs[i] = prods[i];
  }
  const auto oldMin = mpfr_get_emin(), oldMax = mpfr_get_emax();
  long emin, emax;
  rangeOf(format, emin, emax);
  mpfr_t r;
  mpfr_init2(r, precisionOf(format));
  int t = mpfr_sum(r, ptrs.data(), n, toMpfr(rounding));
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  t = mpfr_check_range(r, t, toMpfr(rounding));
  mpfr_subnormalize(r, t, toMpfr(rounding));
  const double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_set_emin(oldMin);
  mpfr_set_emax(oldMax);
  mpfr_clear(r);
  for (auto& p : prods) mpfr_clear(p);
  // An exact zero sum takes its sign as IEEE 754 §6.3 [external] gives a sum of those products: −0 when
  // every product is −0, and in round-toward-negative also when the terms cancel.
  if (out == 0) {
    bool allNegZero = n > 0, allPosZero = true;
    for (size_t i = 0; i < n; ++i) {
      const double p = a[i] * b[i];
      allNegZero = allNegZero && p == 0 && std::signbit(p);
      allPosZero = allPosZero && p == 0 && !std::signbit(p);
    }
    const bool negative = allNegZero || (rounding == Rounding::RTN && !allPosZero);
    return negative ? -0.0 : 0.0;
  }
  return out;
}

}  // namespace clref::numerics
