// Conversions with an explicit rounding mode (numerics/convert.hpp) against MPFR used directly
// in the test: an integer or binary64 value set into an MPFR variable of the target precision
// in the target rounding mode is the correctly rounded conversion (no overflow or subnormal
// range is reachable from the sources used here except where handled below).
// Exhaustive over all 2^16 int16 and uint16 values and all 2^16 halves, sampled beyond.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include <mpfr.h>

#include "numerics/convert.hpp"

using namespace clref::numerics;

namespace {

const Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

mpfr_rnd_t mode(Rounding r) {
  switch (r) {
    case Rounding::RTZ: return MPFR_RNDZ;
    case Rounding::RTP: return MPFR_RNDU;
    case Rounding::RTN: return MPFR_RNDD;
    default: return MPFR_RNDN;
  }
}
int precision(Format f) { return f == Format::Half ? 11 : f == Format::Float ? 24 : 53; }

// The integer v rounded to p bits in mode r (integers never reach the subnormal range; for
// binary16 the values handled here stay below 65504, and uint16 values above are checked by
// the overflow rule separately).
double mpfrRoundInt(long long v, Format f, Rounding r) {
  mpfr_t x;
  mpfr_init2(x, precision(f));
  mpfr_set_sj(x, v, mode(r));
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return d;
}

// IEEE 754 §7.4 [external] overflow for binary16: beyond 65504, rte/away modes give infinity, toward-zero
// modes the largest finite value.
double halfOverflow(double rounded, Rounding r) {
  if (rounded <= 65504) return rounded;
  return (r == Rounding::RTE || r == Rounding::RTP) ? INFINITY : 65504.0;
}

bool same(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) || (std::isnan(a) && std::isnan(b));
}

}  // namespace

TEST_CASE("int16 and uint16 to half, float and double in every rounding mode, exhaustively", "[convert]") {
  size_t bad = 0;
  for (Format f : {Format::Half, Format::Float, Format::Double})
    for (Rounding r : kModes)
      for (long long v = -32768; v <= 65535; ++v) {
        double want = mpfrRoundInt(v, f, r);
        if (f == Format::Half) want = halfOverflow(want, r);
        const double got = v < 0 || v <= 32767 ? intToFloat(int64_t(v), f, r) : uintToFloat(uint64_t(v), f, r);
        if (!same(got, want) && ++bad <= 5)
          UNSCOPED_INFO("v=" << v << " format " << int(f) << " mode " << int(r) << " got " << got << " want " << want);
      }
  CHECK(bad == 0);
}

TEST_CASE("int32, int64 and uint64 to float and half in every rounding mode, sampled", "[convert]") {
  std::mt19937_64 rng(99);
  size_t bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t bits = rng() >> (rng() % 64);
    const int64_t s = (i & 1) ? int64_t(bits) : -int64_t(bits >> 1);
    for (Format f : {Format::Float, Format::Double})
      for (Rounding r : kModes) {
        mpfr_t x;
        mpfr_init2(x, precision(f));
        mpfr_set_sj(x, s, mode(r));
        const double ws = mpfr_get_d(x, MPFR_RNDN);
        mpfr_set_uj(x, bits, mode(r));
        const double wu = mpfr_get_d(x, MPFR_RNDN);
        mpfr_clear(x);
        if (!same(intToFloat(s, f, r), ws) && ++bad <= 5) UNSCOPED_INFO("s=" << s << " mode " << int(r));
        if (!same(uintToFloat(bits, f, r), wu) && ++bad <= 5) UNSCOPED_INFO("u=" << bits << " mode " << int(r));
      }
    for (Rounding r : kModes) {
      // binary16: anything at or beyond 65520 overflows in rte; the rest as above.
      const long long small = (long long)(bits % 200000) - 100000;
      const double want = halfOverflow(std::fabs(mpfrRoundInt(small, Format::Half, r)),
                                       r == Rounding::RTP && small < 0   ? Rounding::RTZ
                                       : r == Rounding::RTN && small < 0 ? Rounding::RTP
                                                                         : r);
      const double signedWant = small < 0 ? -want : want;
      if (!same(intToFloat(small, Format::Half, r), signedWant) && ++bad <= 5)
        UNSCOPED_INFO("half from " << small << " mode " << int(r) << " got " << intToFloat(small, Format::Half, r)
                                   << " want " << signedWant);
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("float and double to half, and double to float, in every rounding mode, sampled against MPFR", "[convert]") {
  std::mt19937_64 rng(7);
  size_t bad = 0;
  for (int i = 0; i < 300000; ++i) {
    // Floats near and inside the binary16 range (incl. subnormals and overflow), any doubles.
    const float fx = std::ldexp(float(int32_t(rng() % (1u << 24)) - (1 << 23)), int(rng() % 60) - 60);
    const double dx = std::bit_cast<double>(rng());
    for (Rounding r : kModes) {
      for (double x : {double(fx), dx}) {
        if (std::isnan(x)) continue;
        for (Format f : {Format::Half, Format::Float}) {
          // MPFR with the format's exponent range and subnormals, done here independently.
          mpfr_t m;
          mpfr_init2(m, precision(f));
          const auto emin = mpfr_get_emin(), emax = mpfr_get_emax();
          mpfr_set_emin(f == Format::Half ? -23 : -148);
          mpfr_set_emax(f == Format::Half ? 16 : 128);
          int t = mpfr_set_d(m, x, mode(r));
          t = mpfr_check_range(m, t, mode(r));
          mpfr_subnormalize(m, t, mode(r));
          const double want = mpfr_get_d(m, MPFR_RNDN);
          mpfr_set_emin(emin);
          mpfr_set_emax(emax);
          mpfr_clear(m);
          const double got = floatToFloat(x, f, r);
          if (!same(got, want) && ++bad <= 5)
            UNSCOPED_INFO("x=" << x << " to " << int(f) << " mode " << int(r) << " got " << got << " want " << want);
        }
      }
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("every half rounded to an integral value in every rounding mode", "[convert]") {
  size_t bad = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const double x = toDouble(Half{uint16_t(b)});
    if (std::isnan(x)) continue;
    for (Rounding r : kModes) {
      mpfr_t m;
      mpfr_init2(m, 64);
      mpfr_set_d(m, x, MPFR_RNDN);
      mpfr_rint(m, m, mode(r));  // rint rounds to an integer in the given direction (ties to even for RNDN)
      const double want = mpfr_get_d(m, MPFR_RNDN);
      mpfr_clear(m);
      if (!same(roundToIntegral(x, r), want) && ++bad <= 5) UNSCOPED_INFO("x=" << x << " mode " << int(r));
    }
  }
  CHECK(bad == 0);
}
