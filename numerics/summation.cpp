// Allowed sets of sums in any order (summation.hpp).
#include "numerics/summation.hpp"

#include <cmath>
#include <vector>

#include "numerics/mpfr_round.hpp"

namespace clref::numerics {
namespace {

// Every double adds exactly into this many bits (2^1024 down to 2^-1074, with room for 2^64 terms).
constexpr mpfr_prec_t kExactBits = 2200;

double smallestNormal(Format f) { return f == Format::Half ? 0x1p-14 : f == Format::Float ? 0x1p-126 : 0x1p-1022; }

// x rounded to the format downward (down) or upward, as a double; beyond the largest finite value: that infinity.
double outward(mpfr_srcptr x, Format f, bool down) {
  return roundToDouble(x, f, down ? Rounding::RTN : Rounding::RTP);
}

}  // namespace

ValueSet allowedSetOfSum(std::span<const ValueSet> terms, Format format, Profile profile,
                         const VerdictOptions& options) {
  if (terms.empty()) return ValueSet::point(0.0);
  if (terms.size() == 1) return terms[0];
  // Two terms: one addition, whose order does not matter (IEEE 754 addition is commutative): its own rule.
  if (terms.size() == 2) return allowedSetCore(CoreOp::Add, terms, format, profile, options);
  for (const ValueSet& t : terms)
    if (t.nan || !t.hasNumbers() || std::isinf(t.lo) || std::isinf(t.hi)) return ValueSet::all();
  Mpfr lo(kExactBits), hi(kExactBits), magnitude(kExactBits);
  mpfr_set_zero(lo, 1);
  mpfr_set_zero(hi, 1);
  mpfr_set_zero(magnitude, 1);
  for (const ValueSet& t : terms) {
    mpfr_add_d(lo, lo, t.lo, MPFR_RNDN);  // exact at kExactBits
    mpfr_add_d(hi, hi, t.hi, MPFR_RNDN);
    mpfr_add_d(magnitude, magnitude, std::max(std::fabs(t.lo), std::fabs(t.hi)), MPFR_RNDN);
  }
  // γ(n−1)·Σ|x_i|, rounded up.
  // A Vulkan shader's additions round in an implementation-defined direction (either neighbour) unless its entry
  // point declares RoundingModeRTE (Vulkan §A.4.2 [external] [[spirvenv-correctly-rounded-impl-defined]]): the unit
  // roundoff of a directed rounding.
  const bool towardZero =
      ((profile == Profile::Embedded || profile == Profile::RelaxedEmbedded) && format != Format::Double) ||
      (profile == Profile::Vulkan && options.rounding != Rounding::RTE);
  const long k = long(terms.size()) - 1;
  Mpfr u(64), gamma(64), e(kExactBits);
  mpfr_set_ui_2exp(u, 1, -(precisionOf(format) - (towardZero ? 1 : 0)), MPFR_RNDN);
  mpfr_mul_si(gamma, u, k, MPFR_RNDU);  // k·u
  Mpfr denominator(64);
  mpfr_ui_sub(denominator, 1, gamma, MPFR_RNDD);
  mpfr_div(gamma, gamma, denominator, MPFR_RNDU);
  mpfr_mul(e, magnitude, gamma, MPFR_RNDU);
  // Flushing: each of the n operands and n − 1 results may lose up to the smallest normal number.
  if (options.flushToZero.value_or(format != Format::Double)) {
    Mpfr flush(64);
    mpfr_set_d(flush, smallestNormal(format), MPFR_RNDN);
    mpfr_mul_si(flush, flush, 2 * k + 1, MPFR_RNDU);
    mpfr_add(e, e, flush, MPFR_RNDU);
  }
  mpfr_sub(lo, lo, e, MPFR_RNDD);
  mpfr_add(hi, hi, e, MPFR_RNDU);
  ValueSet s{outward(lo, format, true), outward(hi, format, false), false};
  // A zero sum: either sign (x + (−x) is +0 in round to nearest, −0 + −0 is −0; the order decides which terms meet).
  if (s.lo == 0) s.lo = -0.0;
  if (s.hi == 0) s.hi = 0.0;
  return s;
}

}  // namespace clref::numerics
