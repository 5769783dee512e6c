#include "numerics/geometric.hpp"

#include <cmath>
#include <vector>

#include "numerics/mpfr_round.hpp"

namespace clref::numerics {

namespace {

// Precision that holds any sum of squares (or of squared differences) of up to 16 values of
// the format exactly: the squares span from the smallest subnormal's square to the largest
// finite value's square, plus carries. binary64: 2^-2148 … 2^2049, binary32: 2^-298 … 2^257.
mpfr_prec_t exactPrecision(Format f) {
  switch (f) {
    case Format::Half: return 2 * (24 + 16) + 16;
    case Format::Float: return 2 * (149 + 128) + 16;
    default: return 2 * (1074 + 1024) + 16;
  }
}

bool anyNaN(std::span<const double> v) {
  for (double x : v)
    if (std::isnan(x)) return true;
  return false;
}

// Σ vᵢ² exactly (or Σ (vᵢ − wᵢ)² when w is given), into `sum`.
void sumOfSquares(mpfr_ptr sum, std::span<const double> v, std::span<const double> w, Format f) {
  const mpfr_prec_t prec = exactPrecision(f);
  mpfr_set_prec(sum, 2 * prec);
  mpfr_set_zero(sum, 1);
  Mpfr t(2 * prec);
  for (size_t i = 0; i < v.size(); ++i) {
    mpfr_set_d(t, v[i], MPFR_RNDN);
    if (!w.empty()) mpfr_sub_d(t, t, w[i], MPFR_RNDN);  // exact at this precision
    mpfr_sqr(t, t, MPFR_RNDN);                          // exact
    mpfr_add(sum, sum, t, MPFR_RNDN);                   // exact
  }
}

double lengthOf(std::span<const double> v, std::span<const double> w, Format f, Rounding r) {
  bool inf = false;
  for (size_t i = 0; i < v.size(); ++i) inf = inf || std::isinf(w.empty() ? v[i] : v[i] - w[i]);
  if (inf) return INFINITY;  // a length with an infinite component is +inf (even beside a NaN)
  if (anyNaN(v) || anyNaN(w)) return NAN;
  Mpfr sum(2);
  sumOfSquares(sum, v, w, f);
  Mpfr root(rangeOf(f).precision);
  const int t = mpfr_sqrt(root, sum, toMpfr(r));  // one rounding of the exact square root
  finishToFormat(root, t, f, r);
  return mpfr_get_d(root, MPFR_RNDN);
}

}  // namespace

double lengthExact(std::span<const double> p, Format f, Rounding r) { return lengthOf(p, {}, f, r); }

double distanceExact(std::span<const double> p0, std::span<const double> p1, Format f, Rounding r) {
  return lengthOf(p0, p1, f, r);
}

void normalizeExact(std::span<const double> p, std::span<double> out, Format f, Rounding r) {
  if (anyNaN(p)) {
    for (size_t i = 0; i < p.size(); ++i) out[i] = NAN;
    return;
  }
  size_t infinite = 0;
  bool allZero = true;
  for (double x : p) {
    infinite += std::isinf(x);
    allZero = allZero && x == 0;
  }
  if (allZero) {
    for (size_t i = 0; i < p.size(); ++i) out[i] = p[i];
    return;
  }
  if (infinite) {
    // Limit of pᵢ/|p| as the infinite components grow together: ±1/√k, the others ±0.
    Mpfr k(64), v(rangeOf(f).precision);
    mpfr_set_ui(k, infinite, MPFR_RNDN);
    const int t = mpfr_rec_sqrt(v, k, toMpfr(r));
    finishToFormat(v, t, f, r);
    const double mag = mpfr_get_d(v, MPFR_RNDN);
    for (size_t i = 0; i < p.size(); ++i)
      out[i] = std::isinf(p[i]) ? std::copysign(mag, p[i]) : std::copysign(0.0, p[i]);
    return;
  }
  Mpfr sum(2);
  sumOfSquares(sum, p, {}, f);
  const mpfr_prec_t target = rangeOf(f).precision;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) {
      out[i] = p[i];
      continue;
    }
    // Ziv's strategy: pᵢ·(1/√S) at working precision w has an error below 2 ulps of w; when
    // that interval decides the rounding to the target precision, round; else widen w.
    bool done = false;
    for (mpfr_prec_t w = 2 * target + 16; w <= 16384 && !done; w *= 2) {
      Mpfr q(w);
      mpfr_rec_sqrt(q, sum, MPFR_RNDN);
      mpfr_mul_d(q, q, p[i], MPFR_RNDN);
      if (mpfr_can_round(q, w - 2, MPFR_RNDN, MPFR_RNDZ, target + (r == Rounding::RTE))) {
        Mpfr res(target);
        const int t = mpfr_set(res, q, toMpfr(r));
        finishToFormat(res, t, f, r);
        out[i] = mpfr_get_d(res, MPFR_RNDN);
        done = true;
      }
    }
    if (!done) {
      // Still undecided at 16384 bits: then pᵢ/√S is a target-precision number or a midpoint
      // between two (an algebraic quotient cannot otherwise come that close), so its nearest
      // (target+1)-bit value c is exact, and rounding c to the target is the correct rounding.
      Mpfr q(4 * target), c(target + 1), res(target);
      mpfr_rec_sqrt(q, sum, MPFR_RNDN);
      mpfr_mul_d(q, q, p[i], MPFR_RNDN);
      mpfr_set(c, q, MPFR_RNDN);
      const int t = mpfr_set(res, c, toMpfr(r));
      finishToFormat(res, t, f, r);
      out[i] = mpfr_get_d(res, MPFR_RNDN);
    }
  }
}

void crossExact(std::span<const double> a, std::span<const double> b, std::span<double> out, Format f, Rounding r) {
  auto component = [&](double x1, double y1, double x2, double y2) {
    // x1·y1 − x2·y2 with one rounding; non-finite operands follow IEEE arithmetic.
    if (!std::isfinite(x1) || !std::isfinite(y1) || !std::isfinite(x2) || !std::isfinite(y2)) return x1 * y1 - x2 * y2;
    Mpfr p1(2 * 53), p2(2 * 53), res(rangeOf(f).precision);
    mpfr_set_d(p1, x1, MPFR_RNDN);
    mpfr_mul_d(p1, p1, y1, MPFR_RNDN);  // exact at 106 bits
    mpfr_set_d(p2, x2, MPFR_RNDN);
    mpfr_mul_d(p2, p2, y2, MPFR_RNDN);               // exact
    const int t = mpfr_sub(res, p1, p2, toMpfr(r));  // one rounding of the exact difference
    finishToFormat(res, t, f, r);
    const double d = mpfr_get_d(res, MPFR_RNDN);
    // IEEE 754 §6.3 [external]: an exact zero difference is +0 (−0 only in round toward negative).
    if (d == 0) return r == Rounding::RTN ? -0.0 : 0.0;
    return d;
  };
  out[0] = component(a[1], b[2], a[2], b[1]);
  out[1] = component(a[2], b[0], a[0], b[2]);
  out[2] = component(a[0], b[1], a[1], b[0]);
}

}  // namespace clref::numerics
