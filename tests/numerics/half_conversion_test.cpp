// toFloat (binary16 → binary32) and toHalf (binary64 → binary16, four rounding modes).
// Expected values: an independent decoding by formula (ldexp) for toFloat; MPFR through
// numerics/mpfr_round (setExact + roundToBits) for toHalf, cross-checked with the F16C
// instruction.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>

#include "f16c.hpp"
#include "numerics/format.hpp"
#include "numerics/mpfr_round.hpp"
#include "support.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

namespace {

constexpr Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

// IEEE 754-2008 §3.4 [external] decoding of binary16 by formula: (-1)^s × 2^(E-15) × (1 + T/1024) for
// normals, (-1)^s × 2^-14 × T/1024 for subnormals. Finite values only.
double decodeHalf(uint16_t h) {
  const int e = (h >> 10) & 0x1f;
  const int t = h & 0x3ff;
  const double mag = e == 0 ? std::ldexp(double(t), -24) : std::ldexp(double(1024 + t), e - 25);
  return (h & 0x8000) ? -mag : mag;
}

// Per-thread checker: MPFR's answer for toHalf(x, r), computed from the exact double.
struct HalfRounder {
  Mpfr x{53}, y{11};
  uint16_t operator()(double d, Rounding r) {
    setExact(x.get(), d);
    roundToFormat(y, x, Format::Half, r);
    return uint16_t(encode(y, Format::Half));
  }
};

void checkToHalf(HalfRounder& ref, double d, Mismatches& bad) {
  for (Rounding r : kModes) {
    const uint16_t want = ref(d, r);
    const uint16_t got = toHalf(d, r).bits;
    if (!sameHalf(got, want))
      bad.add("toHalf(" + hexDouble(d) + ", " + std::string(toString(r)) + ") = " + hex16(got) + ", MPFR " +
              hex16(want));
  }
}

}  // namespace

TEST_CASE("toFloat decodes all 65536 halves exactly", "[numerics][half]") {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = uint16_t(i);
    const float f = toFloat(Half{h});
    const uint32_t fb = std::bit_cast<uint32_t>(f);
    INFO("half " << hex16(h));
    REQUIRE(std::signbit(f) == ((h & 0x8000) != 0));
    if ((h & 0x7c00) == 0x7c00) {
      if ((h & 0x3ff) == 0) {
        REQUIRE(std::isinf(f));
      } else {
        // NaN: stays NaN and keeps its payload in the top fraction bits (a storage
        // conversion, as vload_half; quieting is left to the operation that uses it).
        REQUIRE(std::isnan(f));
        REQUIRE((fb & 0x7fffff) == (uint32_t(h & 0x3ff) << 13));
      }
      continue;
    }
    // Finite: the value by formula; == also tells +0 from -0 thanks to the signbit check.
    REQUIRE(double(f) == decodeHalf(h));
  }
}

TEST_CASE("toHalf round-trips every half in every rounding mode", "[numerics][half]") {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = uint16_t(i);
    for (Rounding r : kModes) {
      INFO("half " << hex16(h) << " " << toString(r));
      if (isNanBits(h)) {
        // IEEE 754-2008 §6.2.3 [external]: the NaN stays a NaN, made quiet; sign and top payload kept.
        const uint16_t got = toHalf(std::bit_cast<double>(uint64_t(0x7ff0000000000000) | (uint64_t(h & 0x8000) << 48) |
                                                          (uint64_t(h & 0x3ff) << 42)),
                                    r)
                                 .bits;
        REQUIRE(got == uint16_t(h | 0x200));
      } else if ((h & 0x7fff) == 0x7c00) {
        REQUIRE(toHalf(h & 0x8000 ? -INFINITY : INFINITY, r).bits == h);
      } else {
        REQUIRE(toHalf(decodeHalf(h), r).bits == h);
      }
    }
  }
}

TEST_CASE("toHalf on a dense sample of floats matches MPFR", "[numerics][half]") {
  // (a) every float whose bit pattern is a multiple of 97 with |x| in [2^-27, 2^18) (the
  // binary16 range with a margin on both sides), and every multiple of 9973 elsewhere.
  Mismatches bad;
  std::atomic<uint64_t> checked{0};
  const uint64_t steps = (uint64_t(1) << 32) / 97 + 1;
  parallelFor(steps, [&](uint64_t begin, uint64_t end) {
    HalfRounder ref;
    uint64_t n = 0;
    for (uint64_t k = begin; k < end; ++k) {
      const uint64_t u = k * 97;
      if (u > 0xffffffffu) break;
      const uint32_t bits = uint32_t(u);
      const uint32_t exp = (bits >> 23) & 0xff;
      if (exp < 127 - 27 || exp >= 127 + 18) continue;
      checkToHalf(ref, std::bit_cast<float>(bits), bad);
      ++n;
    }
    checked += n;
  });
  parallelFor((uint64_t(1) << 32) / 9973 + 1, [&](uint64_t begin, uint64_t end) {
    HalfRounder ref;
    for (uint64_t k = begin; k < end; ++k) {
      const uint64_t u = k * 9973;
      if (u > 0xffffffffu) break;
      checkToHalf(ref, std::bit_cast<float>(uint32_t(u)), bad);
    }
    checked += end - begin;
  });
  INFO(bad.report());
  CHECK(bad.count() == 0);
  CHECK(checked.load() > 7'000'000);
}

TEST_CASE("toHalf near every half and every midpoint matches MPFR and F16C", "[numerics][half]") {
  // For each positive finite half h and its successor (65536 = the first value past the
  // largest finite half, for the overflow threshold), the floats at h and at the midpoint,
  // and ±1, ±2 float ulps around both; both signs. IEEE 754-2008 §4.3.1 [external] ties, §4.3.2 [external] directed.
  std::vector<float> samples;
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double lo = decodeHalf(uint16_t(h));
    const double hi = h == 0x7bff ? 65536.0 : decodeHalf(uint16_t(h + 1));
    for (const double centre : {lo, (lo + hi) / 2}) {  // midpoint exact: 12 bits
      float f = float(centre);
      REQUIRE(double(f) == centre);
      float down = f, up = f;
      samples.push_back(f);
      for (int k = 0; k < 2; ++k) {
        down = std::nextafter(down, -INFINITY);
        up = std::nextafter(up, INFINITY);
        samples.push_back(down);
        samples.push_back(up);
      }
    }
  }
  const size_t positive = samples.size();
  for (size_t i = 0; i < positive; ++i) samples.push_back(-samples[i]);

  Mismatches bad, hardware;
  const bool f16c = haveF16C();
  parallelFor(samples.size(), [&](uint64_t begin, uint64_t end) {
    HalfRounder ref;
    for (uint64_t i = begin; i < end; ++i) {
      checkToHalf(ref, samples[i], bad);
      if (!f16c) continue;
      for (Rounding r : kModes) {
        const uint16_t want = ref(samples[i], r), hw = f16cConvert(samples[i], r);
        if (hw != want)
          hardware.add("F16C(" + hexDouble(samples[i]) + ", " + std::string(toString(r)) + ") = " + hex16(hw) +
                       ", MPFR " + hex16(want));
      }
    }
  });
  INFO(bad.report());
  CHECK(bad.count() == 0);
  // The exhaustive slow test trusts F16C; here it is held to MPFR.
  INFO("F16C vs MPFR: " << hardware.report());
  CHECK(hardware.count() == 0);
}

TEST_CASE("toHalf on random doubles matches MPFR", "[numerics][half]") {
  // (b) 10^6 doubles, deterministic seed, in four families: wide-exponent values with full
  // 53-bit significands (subnormal-half range included), exact ties and near-ties of the
  // binary16 grid at binary64 resolution, the overflow region around 65504..65536+, and raw
  // 64-bit patterns (NaNs, infinities, binary64 subnormals, huge values).
  constexpr uint64_t kCount = 1'000'000;
  Mismatches bad;
  parallelFor(
      kCount,
      [&](uint64_t begin, uint64_t end) {
        std::mt19937_64 rng(0x5eed0000 + begin);
        HalfRounder ref;
        for (uint64_t i = begin; i < end; ++i) {
          const uint64_t u = rng();
          double d = 0;
          switch (i % 4) {
            case 0: {  // sign · 1.m · 2^e, e in [-40, 20]
              const int e = int(u % 61) - 40;
              const double m = 1.0 + double(rng() >> 12) * 0x1p-52;
              d = std::ldexp(m, e);
              break;
            }
            case 1: {  // a half or a half midpoint, moved by -3..3 binary64 ulps
              const uint16_t h = uint16_t(u & 0x7bff);
              double v = decodeHalf(h);
              if (u & 0x10000) v = (v + (h == 0x7bff ? 65536.0 : decodeHalf(uint16_t(h + 1)))) / 2;
              for (int k = int((u >> 20) % 7) - 3; k != 0; k += k > 0 ? -1 : 1)
                v = std::nextafter(v, k > 0 ? INFINITY : -INFINITY);
              d = v;
              break;
            }
            case 2:  // around the overflow threshold (65520 rounds to inf in rte)
              d = 65400.0 + double(u >> 11) * 0x1p-53 * 300.0;
              break;
            case 3: d = std::bit_cast<double>(rng()); break;
          }
          if (u >> 63) d = -d;
          checkToHalf(ref, d, bad);
        }
      },
      1 << 14);
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("toHalf hand-checked cases", "[numerics][half]") {
  // Values worked out by hand from IEEE 754-2008 §4.3 [external] and §7.4 [external].
  CHECK(toHalf(65504.0).bits == 0x7bff);
  CHECK(toHalf(65519.99).bits == 0x7bff);
  CHECK(toHalf(65520.0).bits == 0x7c00);                 // tie, rounds to even = overflow
  CHECK(toHalf(65520.0, Rounding::RTZ).bits == 0x7bff);  // directed toward zero never overflows
  CHECK(toHalf(1e10, Rounding::RTN).bits == 0x7bff);
  CHECK(toHalf(-1e10, Rounding::RTN).bits == 0xfc00);
  CHECK(toHalf(-1e10, Rounding::RTP).bits == 0xfbff);
  CHECK(toHalf(0x1p-25).bits == 0x0000);  // tie between 0 and 2^-24: even is 0
  CHECK(toHalf(-0x1p-25).bits == 0x8000);
  CHECK(toHalf(0x1.000001p-25).bits == 0x0001);
  CHECK(toHalf(3 * 0x1p-25).bits == 0x0002);               // tie between 1 and 2 ulps: even is 2
  CHECK(toHalf(0x1p-1074, Rounding::RTP).bits == 0x0001);  // smallest binary64 subnormal
  CHECK(toHalf(0x1p-1074, Rounding::RTZ).bits == 0x0000);
  CHECK(toHalf(-0x1p-1074, Rounding::RTN).bits == 0x8001);
  CHECK(toHalf(-0x1p-1074, Rounding::RTE).bits == 0x8000);
  CHECK(toHalf(0x1.ffcp-15).bits == 0x0400);  // largest subnormal + half ulp → min normal
  CHECK(toHalf(1.0 / 3).bits == 0x3555);
  CHECK(toHalf(1.0 / 3, Rounding::RTP).bits == 0x3556);
  CHECK(toHalf(-0.0).bits == 0x8000);
}

TEST_CASE("flushDenorm flushes exactly the subnormals to a zero of the same sign", "[numerics][half]") {
  // OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]: a flushed denormal becomes a zero of the same
  // sign.
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = uint16_t(i);
    const bool subnormal = (h & 0x7c00) == 0 && (h & 0x3ff) != 0;
    INFO("half " << hex16(h));
    CHECK(isSubnormalBits(Half{h}) == subnormal);
    CHECK(flushDenorm(Half{h}).bits == (subnormal ? uint16_t(h & 0x8000) : h));
  }
  CHECK(std::bit_cast<uint32_t>(flushDenorm(-0x1p-149f)) == 0x80000000u);
  CHECK(flushDenorm(0x1p-126f) == 0x1p-126f);  // smallest normal stays
  CHECK(std::bit_cast<uint64_t>(flushDenorm(0x1p-1074)) == 0);
  CHECK(flushDenorm(-0x1p-1022) == -0x1p-1022);
}
