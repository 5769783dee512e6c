// numerics/mpfr_round against the host's IEEE hardware (binary32/binary64 conversions and
// division under fesetround) and hand-worked binary16 cases. The other numerics tests take
// their expected values from this utility, so it is itself checked against a source that
// shares no code with it.
#include <catch2/catch.hpp>

#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <random>

#include "numerics/mpfr_round.hpp"
#include "support.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

namespace {

constexpr Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

int hostMode(Rounding r) {
  switch (r) {
    case Rounding::RTE: return FE_TONEAREST;
    case Rounding::RTZ: return FE_TOWARDZERO;
    case Rounding::RTP: return FE_UPWARD;
    case Rounding::RTN: return FE_DOWNWARD;
  }
  return FE_TONEAREST;
}

// Host conversions in a rounding mode. volatile keeps the compiler from folding or moving
// the operation across fesetround.
float hostToFloat(double d, Rounding r) {
  volatile double in = d;
  std::fesetround(hostMode(r));
  volatile float out = float(in);
  std::fesetround(FE_TONEAREST);
  return out;
}

float hostDivide(float a, float b, Rounding r) {
  volatile float x = a, y = b;
  std::fesetround(hostMode(r));
  volatile float out = x / y;
  std::fesetround(FE_TONEAREST);
  return out;
}

double hostToDouble(long double v, Rounding r) {
  volatile long double in = v;
  std::fesetround(hostMode(r));
  volatile double out = double(in);
  std::fesetround(FE_TONEAREST);
  return out;
}

bool sameBits(uint64_t got, uint64_t want, Format f) {
  const int fracBits = int(rangeOf(f).precision) - 1;
  const int expBits = rangeOf(f).exponentBits;
  const uint64_t expMask = ((uint64_t(1) << expBits) - 1) << fracBits;
  const uint64_t fracMask = (uint64_t(1) << fracBits) - 1;
  const bool wantNan = (want & expMask) == expMask && (want & fracMask) != 0;
  if (wantNan) return (got & expMask) == expMask && (got & (uint64_t(1) << (fracBits - 1))) != 0;
  return got == want;
}

double randomWide(std::mt19937_64& rng, int loExp, int hiExp) {
  const int e = loExp + int(rng() % uint64_t(hiExp - loExp + 1));
  const double m = 1.0 + double(rng() >> 12) * 0x1p-52;
  return (rng() & 1) ? -std::ldexp(m, e) : std::ldexp(m, e);
}

}  // namespace

TEST_CASE("FormatRange matches IEEE 754 binary16/32/64", "[numerics][mpfr]") {
  // MPFR exponents of the largest finite value and of the smallest subnormal, checked by
  // constructing those values on the host.
  Mpfr x(64);
  mpfr_set_d(x, FLT_MAX, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Float).emax);
  mpfr_set_d(x, 0x1p-149, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Float).emin);
  mpfr_set_d(x, DBL_MAX, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Double).emax);
  mpfr_set_d(x, 0x1p-1074, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Double).emin);
  mpfr_set_d(x, 65504.0, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Half).emax);
  mpfr_set_d(x, 0x1p-24, MPFR_RNDN);
  CHECK(mpfr_get_exp(x) == rangeOf(Format::Half).emin);
}

TEST_CASE("roundToBits(Float) matches the host double→float conversion", "[numerics][mpfr]") {
  std::mt19937_64 rng(1);
  Mpfr x(53);
  Mismatches bad;
  for (int i = 0; i < 200'000; ++i) {
    double d;
    switch (i % 3) {
      case 0: d = randomWide(rng, -160, 130); break;  // subnormal floats, overflow
      case 1: d = std::bit_cast<double>(rng()); break;
      default: {  // exact float midpoints, ± a few binary64 ulps
        const float f = std::bit_cast<float>(uint32_t(rng()) & 0x7f7fffffu);
        d = (double(f) + double(std::nextafter(f, INFINITY))) / 2;
        for (int k = int(rng() % 5) - 2; k != 0; k += k > 0 ? -1 : 1)
          d = std::nextafter(d, k > 0 ? INFINITY : -INFINITY);
      }
    }
    setExact(x.get(), d);
    for (Rounding r : kModes) {
      const uint64_t want = std::bit_cast<uint32_t>(hostToFloat(d, r));
      const uint64_t got = roundToBits(x, Format::Float, r);
      if (!sameBits(got, want, Format::Float))
        bad.add(hexDouble(d) + " " + std::string(toString(r)) + ": " + std::to_string(got) + " vs host " +
                std::to_string(want));
      if (!std::isnan(d)) CHECK(roundToDouble(x, Format::Float, r) == double(hostToFloat(d, r)));
    }
  }
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("finishToFormat after an MPFR division matches the host float division", "[numerics][mpfr]") {
  // The utility's main use: an MPFR function computed at the format's precision, then
  // finished with the format's range and subnormals.
  std::mt19937_64 rng(2);
  Mpfr a(24), b(24), q(24);
  Mismatches bad;
  for (int i = 0; i < 200'000; ++i) {
    const float fa = float(randomWide(rng, -140, 127));
    const float fb = (i % 2) ? float(randomWide(rng, -10, 40)) : float(randomWide(rng, -140, 127));
    setExact(a.get(), fa);
    setExact(b.get(), fb);
    for (Rounding r : kModes) {
      mpfr_set_prec(q, 24);
      const int t = mpfr_div(q, a, b, toMpfr(r));
      finishToFormat(q, t, Format::Float, r);
      const uint64_t got = encode(q, Format::Float);
      const uint64_t want = std::bit_cast<uint32_t>(hostDivide(fa, fb, r));
      if (got != want)
        bad.add(hexDouble(fa) + " / " + hexDouble(fb) + " " + std::string(toString(r)) + ": " + std::to_string(got) +
                " vs host " + std::to_string(want));
    }
  }
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("roundToBits(Double) of 64-bit values matches the host long double→double conversion", "[numerics][mpfr]") {
  if (LDBL_MANT_DIG != 64) {
    WARN("skipped: needs the x87 80-bit long double");
    return;
  }
  std::mt19937_64 rng(3);
  Mpfr x(64);
  Mismatches bad;
  for (int i = 0; i < 200'000; ++i) {
    // A 64-bit significand with exponent across the binary64 subnormal range and overflow.
    const int e = (i % 2) ? int(rng() % 120) - 1140 : int(rng() % 2100) - 1070;
    static_assert(sizeof(unsigned long) == 8, "LP64 assumed: mpfr_set_ui takes 64 bits");
    mpfr_set_ui(x, (unsigned long)(rng() | (uint64_t(1) << 63)), MPFR_RNDN);  // exact at 64 bits
    mpfr_mul_2si(x, x, e - 63, MPFR_RNDN);
    if (rng() & 1) mpfr_neg(x, x, MPFR_RNDN);
    const long double ld = mpfr_get_ld(x, MPFR_RNDN);  // exact: 64 bits, in x87 range
    for (Rounding r : kModes) {
      const uint64_t want = std::bit_cast<uint64_t>(hostToDouble(ld, r));
      const uint64_t got = roundToBits(x, Format::Double, r);
      if (got != want)
        bad.add("2^" + std::to_string(e) + " " + std::string(toString(r)) + ": " + std::to_string(got) + " vs host " +
                std::to_string(want));
    }
  }
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("roundToBits(Half) hand-worked cases at high precision", "[numerics][mpfr]") {
  Mpfr x(200);
  auto half = [&](Rounding r) { return roundToHalf(x, r).bits; };
  // 1/3 = 0x1.5555…p-2: rte/rtz/rtn 0x3555, rtp 0x3556 (IEEE 754-2008 §4.3 [external]).
  mpfr_set_ui(x, 1, MPFR_RNDN);
  mpfr_div_ui(x, x, 3, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x3555);
  CHECK(half(Rounding::RTZ) == 0x3555);
  CHECK(half(Rounding::RTN) == 0x3555);
  CHECK(half(Rounding::RTP) == 0x3556);
  // 65520 = the overflow threshold: rte → inf (IEEE 754-2008 §7.4 [external]), rtz → 65504; 65520 - 2^-150: 65504.
  mpfr_set_ui(x, 65520, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x7c00);
  CHECK(half(Rounding::RTZ) == 0x7bff);
  CHECK(half(Rounding::RTN) == 0x7bff);
  CHECK(half(Rounding::RTP) == 0x7c00);
  mpfr_sub_d(x, x, 0x1p-150, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x7bff);
  mpfr_neg(x, x, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0xfbff);
  CHECK(half(Rounding::RTN) == 0xfc00);
  // 2^-25 (half the smallest subnormal) ± 2^-180: just above rounds up in rte, exactly is a
  // tie to even (0), just below goes to 0; rtp of any positive tiny value gives 2^-24.
  mpfr_set_ui_2exp(x, 1, -25, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x0000);
  CHECK(half(Rounding::RTP) == 0x0001);
  mpfr_add_d(x, x, 0x1p-180, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x0001);
  mpfr_set_ui_2exp(x, 1, -25, MPFR_RNDN);
  mpfr_sub_d(x, x, 0x1p-180, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x0000);
  CHECK(half(Rounding::RTZ) == 0x0000);
  mpfr_neg(x, x, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x8000);
  CHECK(half(Rounding::RTN) == 0x8001);
  // (1023.5 + 2^-100)·2^-24: above the tie between the largest subnormal and 2^-14.
  mpfr_set_d(x, 1023.5, MPFR_RNDN);
  mpfr_add_d(x, x, 0x1p-100, MPFR_RNDN);
  mpfr_mul_2si(x, x, -24, MPFR_RNDN);
  CHECK(half(Rounding::RTE) == 0x0400);
  CHECK(half(Rounding::RTZ) == 0x03ff);
  // Specials.
  mpfr_set_nan(x);
  CHECK(half(Rounding::RTE) == 0x7e00);
  mpfr_set_inf(x, -1);
  CHECK(half(Rounding::RTZ) == 0xfc00);
  mpfr_set_zero(x, -1);
  CHECK(half(Rounding::RTP) == 0x8000);
  CHECK(roundToDouble(x, Format::Half, Rounding::RTP) == 0.0);
  CHECK(std::signbit(roundToDouble(x, Format::Half, Rounding::RTP)));
}

TEST_CASE("roundToFormat restores the exponent range and allows out == x", "[numerics][mpfr]") {
  const auto emin = mpfr_get_emin(), emax = mpfr_get_emax();
  Mpfr x(100);
  mpfr_set_d(x, 1e30, MPFR_RNDN);
  roundToBits(x, Format::Half, Rounding::RTE);
  CHECK(mpfr_get_emin() == emin);
  CHECK(mpfr_get_emax() == emax);
  {
    ExponentRangeGuard outer(-100, 100);
    {
      ExponentRangeGuard inner(Format::Half);
      CHECK(mpfr_get_emax() == 16);
    }
    CHECK(mpfr_get_emin() == -100);
    CHECK(mpfr_get_emax() == 100);
  }
  CHECK(mpfr_get_emin() == emin);
  // In place: 1e30 in rtz is the largest finite half; the precision becomes 11.
  roundToFormat(x, x, Format::Half, Rounding::RTZ);
  CHECK(mpfr_get_prec(x) == 11);
  CHECK(mpfr_get_d(x, MPFR_RNDN) == 65504.0);
}

TEST_CASE("setExact and encode round-trip every half and sampled floats/doubles", "[numerics][mpfr]") {
  Mpfr x(11);
  for (uint32_t i = 0; i < 65536; ++i) {
    setExact(x.get(), Half{uint16_t(i)});
    const uint64_t back = encode(x, Format::Half);
    INFO("half " << hex16(uint16_t(i)));
    if (isNanBits(uint16_t(i)))
      CHECK(back == 0x7e00);
    else
      CHECK(back == i);
  }
  std::mt19937_64 rng(4);
  Mpfr y(24), z(53);
  for (int i = 0; i < 100'000; ++i) {
    const uint32_t fb = uint32_t(rng());
    const float f = std::bit_cast<float>(fb);
    if (std::isnan(f)) continue;
    setExact(y.get(), f);
    REQUIRE(encode(y, Format::Float) == fb);
    const uint64_t db = rng();
    const double d = std::bit_cast<double>(db);
    if (std::isnan(d)) continue;
    setExact(z.get(), d);
    REQUIRE(encode(z, Format::Double) == db);
  }
  // Subnormal edges.
  setExact(z.get(), 0x1p-1074);
  CHECK(encode(z, Format::Double) == 1);
  setExact(y.get(), 0x1p-149f);
  CHECK(encode(y, Format::Float) == 1);
  setExact(y.get(), -FLT_MIN);
  CHECK(encode(y, Format::Float) == 0x80800000u);
}
