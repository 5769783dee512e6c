// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: the sRGB → linear rule of read_imagef and the
// linear → sRGB rule of write_imagef, with the spec's decimal constants taken as the exact rationals they denote.
//
// Why the results are exact. For the code n read from an sRGB channel, c = n / 255 (§8.3.1.1
// [[converting-normalized-integer-channel-data-types-to-floating-point-values]] taken exactly). If c <= 0.04045 (n <=
// 10) the linear value is c / 12.92 = 5n / 16473, a rational. Otherwise it is
// ((c + 0.055) / 1.055)^2.4 = r^(12/5) with r = (40n + 561) / 10761 (10761 = 3·17·211). r^(12/5) is rational only
// if r is the fifth power of a rational, which needs the reduced denominator of r to be a fifth power; the prime
// factors 3, 17, 211 of 10761 would have to cancel, and 40n + 561 < 10761 for n < 255, so only n = 255 (r = 1) gives
// a rational. Every other L(n) is irrational, hence never a rounding midpoint (a dyadic rational): enclosing it by
// directed roundings at increasing precision decides its rounding after finitely many steps.
#include "images/srgb.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "images/rational_internal.hpp"
#include "numerics/format.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::images {

using numerics::Format;
using numerics::Rounding;

bool srgbIsRational(uint8_t n) { return n <= 10 || n == 255; }

void srgbRational(uint8_t n, int64_t& num, uint32_t& den) {
  if (n == 255) {
    num = 1;
    den = 1;
  } else {
    // c / 12.92 = (n / 255) · (100 / 1292) = 5n / 16473.
    num = 5 * int64_t(n);
    den = 16473;
  }
}

void srgbEnclose(uint8_t n, mpfr_ptr lo, mpfr_ptr hi) {
  if (srgbIsRational(n)) {
    int64_t num;
    uint32_t den;
    srgbRational(n, num, den);
    const Rational q{Integer(num), Integer(den)};
    mpfr_set_q(lo, q.backend().data(), MPFR_RNDD);
    mpfr_set_q(hi, q.backend().data(), MPFR_RNDU);
    return;
  }
  // r = (40n + 561) / 10761 and L = (r^12)^(1/5); every step is increasing in its argument, so rounding each step down
  // (up) gives a lower (upper) bound.
  const Rational r(40 * unsigned(n) + 561, 10761);
  mpfr_set_q(lo, r.backend().data(), MPFR_RNDD);
  mpfr_pow_ui(lo, lo, 12, MPFR_RNDD);
  mpfr_rootn_ui(lo, lo, 5, MPFR_RNDD);
  mpfr_set_q(hi, r.backend().data(), MPFR_RNDU);
  mpfr_pow_ui(hi, hi, 12, MPFR_RNDU);
  mpfr_rootn_ui(hi, hi, 5, MPFR_RNDU);
}

namespace {

// L(n) rounded to nearest even in `f`, as the encoding's bits.
uint64_t roundedBits(uint8_t n, Format f) {
  for (mpfr_prec_t p = 96;; p *= 2) {
    numerics::Mpfr lo(p), hi(p);
    srgbEnclose(n, lo, hi);
    const uint64_t a = numerics::roundToBits(lo, f, Rounding::RTE);
    const uint64_t b = numerics::roundToBits(hi, f, Rounding::RTE);
    if (a == b) return a;
  }
}

struct Tables {
  std::array<uint32_t, 256> floatBits;
  std::array<uint16_t, 256> halfBits;
  std::array<double, 256> doubles;
  Tables() {
    for (unsigned n = 0; n < 256; ++n) {
      floatBits[n] = uint32_t(roundedBits(uint8_t(n), Format::Float));
      halfBits[n] = uint16_t(roundedBits(uint8_t(n), Format::Half));
      const uint64_t d = roundedBits(uint8_t(n), Format::Double);
      std::memcpy(&doubles[n], &d, sizeof d);
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

uint32_t srgbToLinearFloatBits(uint8_t n) { return tables().floatBits[n]; }
uint16_t srgbToLinearHalfBits(uint8_t n) { return tables().halfBits[n]; }
double srgbToLinearDouble(uint8_t n) { return tables().doubles[n]; }

uint8_t linearToSrgb(float c) {
  // "if (c is NaN) c = 0.0; if (c > 1.0) c = 1.0; else if (c < 0.0) c = 0.0;" — 0 and 1 map to 0 and 255 exactly
  // (1.055 · 1 − 0.055 = 1, floor(255 + 0.5) = 255).
  if (std::isnan(c) || c <= 0.0f) return 0;
  if (c >= 1.0f) return 255;
  // c = M / 2^E exactly, M and E > 0 integers.
  int e2;
  const double m = std::frexp(double(c), &e2);  // c = m · 2^e2, m in [0.5, 1)
  const long mant = long(std::ldexp(m, 24));    // 24 bits hold every float's significand
  const auto E = static_cast<unsigned long>(24 - e2);
  const Integer M(mant), twoE = Integer(1) << E;
  // "else if (c < 0.0031308)": M · 10^7 < 31308 · 2^E.
  if (M * 10000000 < 31308 * twoE) {
    // floor(12.92 c · 255 + 0.5) = floor((32946 M + 5 · 2^E) / (10 · 2^E)) (non-negative, so truncation is floor).
    const Integer k = (32946 * M + 5 * twoE) / (10 * twoE);
    return uint8_t(k.convert_to<unsigned>());
  }
  // The component is the largest k with 255 (1.055 c^(5/12) − 0.055) >= k − 0.5, that is c^(5/12) >= q_k with
  // q_k = (40k + 541) / 10761 > 0, that is c^5 >= q_k^12: M^5 · 10761^12 >= (40k + 541)^12 · 2^(5E). The condition
  // is decreasing in k; start from the double estimate and step to the exact answer.
  const Integer c5 = pow(M, 5) * pow(Integer(10761), 12);
  auto holds = [&](long k) { return c5 >= pow(Integer(40 * k + 541), 12) << (5 * E); };
  long k = long(std::floor(255.0 * (1.055 * std::pow(double(c), 1.0 / 2.4) - 0.055) + 0.5));
  k = std::clamp(k, 0L, 255L);
  while (k > 0 && !holds(k)) --k;
  while (k < 255 && holds(k + 1)) ++k;
  return uint8_t(k);
}

}  // namespace clref::images
