// binary16 add/sub/mul/div/sqrt (half_arith.hpp) and fmaHalf (fma.cpp) against MPFR.
//
// Two MPFR routes are used, both independent of the code under test:
//  - HalfReference (support.hpp): the operation itself at precision 11 inside binary16's
//    exponent range, then mpfr_subnormalize — the MPFR manual's recipe for IEEE formats;
//  - for add/sub/mul, also the exact result (a ± b and a·b are exact in binary64: at most 40
//    and 22 significant bits) rounded by numerics/mpfr_round, so that utility is covered too.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>

#include "numerics/half_arith.hpp"
#include "numerics/mpfr_round.hpp"
#include "support.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

namespace {

struct BinaryOp {
  const char* name;
  Half (*impl)(Half, Half);
  HalfReference::Binary mpfr;
  double (*exact)(double, double);  // exact in binary64 for binary16 inputs, or nullptr
};

const BinaryOp kOps[] = {
    {"add", addHalf, mpfr_add, [](double a, double b) { return a + b; }},
    {"sub", subHalf, mpfr_sub, [](double a, double b) { return a - b; }},
    {"mul", mulHalf, mpfr_mul, [](double a, double b) { return a * b; }},
    {"div", divHalf, mpfr_div, nullptr},
};

// The binary64 value of a half by formula (independent of toFloat); finite or inf; NaN for NaN.
double halfValue(uint16_t h) {
  const int e = (h >> 10) & 0x1f, t = h & 0x3ff;
  double mag;
  if (e == 31)
    mag = t ? NAN : INFINITY;
  else
    mag = e == 0 ? std::ldexp(double(t), -24) : std::ldexp(double(1024 + t), e - 25);
  return (h & 0x8000) ? -mag : mag;
}

// Checks one pair against the direct MPFR operation.
void checkPair(const BinaryOp& op, HalfReference& ref, uint16_t a, uint16_t b, Mismatches& bad) {
  const uint16_t want = ref.binary(op.mpfr, a, b);
  const uint16_t got = op.impl(Half{a}, Half{b}).bits;
  if (!sameHalf(got, want))
    bad.add(std::string(op.name) + "(" + hex16(a) + ", " + hex16(b) + ") = " + hex16(got) + ", MPFR " + hex16(want));
}

// Same pair through the exact binary64 result and roundToBits.
void checkPairExact(const BinaryOp& op, uint16_t a, uint16_t b, Mismatches& bad) {
  if (!op.exact) return;
  Mpfr x(53);
  setExact(x.get(), op.exact(halfValue(a), halfValue(b)));
  const uint16_t want = uint16_t(roundToBits(x, Format::Half, Rounding::RTE));
  const uint16_t got = op.impl(Half{a}, Half{b}).bits;
  if (!sameHalf(got, want))
    bad.add(std::string(op.name) + "(" + hex16(a) + ", " + hex16(b) + ") = " + hex16(got) + ", exact+roundToBits " +
            hex16(want));
}

}  // namespace

TEST_CASE("half add/sub/mul/div on all pairs of edge values match MPFR", "[numerics][half]") {
  const auto edges = edgeHalves();
  REQUIRE(edges.size() > 500);
  halfTable();  // build before the workers start
  for (const auto& op : kOps) {
    Mismatches bad;
    parallelFor(
        edges.size(),
        [&](uint64_t begin, uint64_t end) {
          HalfReference ref;
          for (uint64_t i = begin; i < end; ++i)
            for (uint16_t b : edges) checkPair(op, ref, edges[i], b, bad);
          for (uint64_t i = begin; i < end; ++i)
            for (uint16_t b : edges) checkPairExact(op, edges[i], b, bad);
        },
        8);
    INFO(op.name << ": " << bad.report());
    CHECK(bad.count() == 0);
  }
}

TEST_CASE("half add/sub/mul/div on 10^6 random pairs match MPFR", "[numerics][half]") {
  // Uniform bit patterns (all exponents, NaNs and infinities included), and for add/sub one
  // pair in four with b close to ±a so that cancellation is exercised.
  constexpr uint64_t kCount = 1'000'000;
  halfTable();
  for (const auto& op : kOps) {
    Mismatches bad;
    parallelFor(
        kCount,
        [&](uint64_t begin, uint64_t end) {
          std::mt19937_64 rng(0xa417 + begin);
          HalfReference ref;
          for (uint64_t i = begin; i < end; ++i) {
            const uint64_t u = rng();
            const uint16_t a = uint16_t(u);
            uint16_t b = uint16_t(u >> 16);
            if (i % 4 == 0) b = uint16_t((a ^ (u >> 63 << 15)) + int((u >> 32) % 64) - 32);
            checkPair(op, ref, a, b, bad);
          }
        },
        1 << 14);
    INFO(op.name << ": " << bad.report());
    CHECK(bad.count() == 0);
  }
}

TEST_CASE("half sqrt on all halves matches MPFR", "[numerics][half]") {
  // 65536 inputs: exhaustive. IEEE 754-2008 §5.4.1 [external] squareRoot: sqrt(-0) = -0, sqrt(x<0) = NaN.
  Mismatches bad;
  HalfReference ref;
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t a = uint16_t(i);
    const uint16_t want = ref.sqrt(a), got = sqrtHalf(Half{a}).bits;
    if (!sameHalf(got, want)) bad.add("sqrt(" + hex16(a) + ") = " + hex16(got) + ", MPFR " + hex16(want));
  }
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("half arithmetic hand-checked cases", "[numerics][half]") {
  // IEEE 754-2008 §6.3 [external]: exact zero sums are +0 in round-to-nearest, x + x keeps the sign of x.
  CHECK(addHalf(Half{0x3c00}, Half{0xbc00}).bits == 0x0000);
  CHECK(addHalf(Half{0x8000}, Half{0x8000}).bits == 0x8000);
  CHECK(subHalf(Half{0x8000}, Half{0x0000}).bits == 0x8000);
  CHECK(mulHalf(Half{0x8000}, Half{0x3c00}).bits == 0x8000);
  CHECK(isNanBits(mulHalf(Half{0x0000}, Half{0x7c00}).bits));  // IEEE 754-2008 §7.2 [external] 0 × inf invalid
  CHECK(isNanBits(addHalf(Half{0x7c00}, Half{0xfc00}).bits));  // IEEE 754-2008 §7.2 [external] inf - inf invalid
  CHECK(divHalf(Half{0x3c00}, Half{0x0000}).bits == 0x7c00);   // IEEE 754-2008 §7.3 [external] division by zero
  CHECK(divHalf(Half{0x3c00}, Half{0x8000}).bits == 0xfc00);
  CHECK(sqrtHalf(Half{0x8000}).bits == 0x8000);
  CHECK(addHalf(Half{0x7bff}, Half{0x5000}).bits == 0x7c00);  // 65504 + 32 = 65536 → overflow
  CHECK(addHalf(Half{0x7bff}, Half{0x4c00}).bits == 0x7c00);  // 65504 + 16 = 65520: tie, even is 2^16
  CHECK(addHalf(Half{0x7bff}, Half{0x4b80}).bits == 0x7bff);  // 65504 + 15 < 65520
  CHECK(mulHalf(Half{0x0001}, Half{0x3800}).bits == 0x0000);  // 2^-25: tie to even (0)
  CHECK(mulHalf(Half{0x0003}, Half{0x3800}).bits == 0x0002);  // 1.5·2^-24: tie to even (2)
  CHECK(negHalf(Half{0x0000}).bits == 0x8000);
  // sNaN operands give quiet NaNs (IEEE 754-2008 §6.2 [external]).
  const uint16_t q = addHalf(Half{0x7c01}, Half{0x3c00}).bits;
  CHECK((isNanBits(q) && (q & 0x200) != 0));
}

TEST_CASE("fmaHalf on edge triples matches MPFR", "[numerics][half][fma]") {
  // A smaller edge set (every fifth edge value, plus specials) cubed: ~100^3 triples.
  const auto all = edgeHalves();
  std::vector<uint16_t> edges;
  for (size_t i = 0; i < all.size(); i += 5) edges.push_back(all[i]);
  for (uint16_t s : {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x7bff, 0xfbff, 0x0400, 0x3c00, 0xbc00})
    edges.push_back(s);
  halfTable();
  Mismatches bad;
  parallelFor(
      edges.size(),
      [&](uint64_t begin, uint64_t end) {
        HalfReference ref;
        for (uint64_t i = begin; i < end; ++i)
          for (uint16_t b : edges)
            for (uint16_t c : edges) {
              const uint16_t a = edges[i];
              const uint16_t want = ref.fma(a, b, c), got = fmaHalf(Half{a}, Half{b}, Half{c}).bits;
              if (!sameHalf(got, want))
                bad.add("fma(" + hex16(a) + ", " + hex16(b) + ", " + hex16(c) + ") = " + hex16(got) + ", MPFR " +
                        hex16(want));
            }
      },
      1);
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("fmaHalf on 10^6 random triples matches MPFR", "[numerics][half][fma]") {
  // Uniform bit patterns, and one triple in two with c ≈ -(a·b) (rounded to half and moved a
  // few ulps) so the exact sum cancels and the low bits of the product decide the result.
  constexpr uint64_t kCount = 1'000'000;
  halfTable();
  Mismatches bad;
  parallelFor(
      kCount,
      [&](uint64_t begin, uint64_t end) {
        std::mt19937_64 rng(0xf3a + begin);
        HalfReference ref;
        Mpfr p(53);
        for (uint64_t i = begin; i < end; ++i) {
          const uint64_t u = rng();
          const uint16_t a = uint16_t(u), b = uint16_t(u >> 16);
          uint16_t c = uint16_t(u >> 32);
          if (i % 2 == 0) {
            // -(a·b) rounded to half by MPFR (the product is exact in binary64).
            setExact(p.get(), -(halfValue(a) * halfValue(b)));
            c = uint16_t(roundToBits(p, Format::Half, Rounding::RTE) + int((u >> 48) % 9) - 4);
          }
          const uint16_t want = ref.fma(a, b, c), got = fmaHalf(Half{a}, Half{b}, Half{c}).bits;
          if (!sameHalf(got, want))
            bad.add("fma(" + hex16(a) + ", " + hex16(b) + ", " + hex16(c) + ") = " + hex16(got) + ", MPFR " +
                    hex16(want));
        }
      },
      1 << 13);
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("fmaHalf hand-checked cases", "[numerics][half][fma]") {
  // (1 + 2^-10)(1 - 2^-10) - 1 = -2^-20: needs the unrounded product (a rounded product gives 0).
  CHECK(fmaHalf(Half{0x3c01}, Half{0x3bfe}, Half{0xbc00}).bits == 0x8010);  // -2^-20 = -16·2^-24
  // Exact zero: (+0) + (-0) is +0 in rte; (-0)·1 + (-0) is -0 (IEEE 754-2008 §6.3 [external]).
  CHECK(fmaHalf(Half{0x0000}, Half{0x3c00}, Half{0x8000}).bits == 0x0000);
  CHECK(fmaHalf(Half{0x8000}, Half{0x3c00}, Half{0x8000}).bits == 0x8000);
  CHECK(isNanBits(fmaHalf(Half{0x7c00}, Half{0x0000}, Half{0x3c00}).bits));  // IEEE 754-2008 §7.2 [external] inf·0
  // Overflow of the product alone does not matter when c brings the sum back: 256·256 - 65504.
  CHECK(fmaHalf(Half{0x5c00}, Half{0x5c00}, Half{0xfbff}).bits == 0x5000);  // 65536 - 65504 = 32
}

TEST_CASE("fmaHalf does not depend on the caller's MPFR exponent range", "[numerics][half][fma]") {
  // 2^-15 · 2^-10 + 2^-24: the product 2^-25 is below binary16's range on its own.
  const uint16_t expect = fmaHalf(Half{0x0200}, Half{0x1400}, Half{0x0001}).bits;
  CHECK(expect == 0x0002);  // 1.5·2^-24: tie, even is 2·2^-24
  ExponentRangeGuard narrow(Format::Half);
  CHECK(fmaHalf(Half{0x0200}, Half{0x1400}, Half{0x0001}).bits == 0x0002);
  CHECK(fmaHalf(Half{0x5c00}, Half{0x5c00}, Half{0xfbff}).bits == 0x5000);  // product 2^16 > range
}
