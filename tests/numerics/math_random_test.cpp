// numerics::evaluate on random operands against the independent reference of
// math_reference.hpp (MPFR at 256 bits or exact rationals, rounded by the test's own
// routine), every operand in all four rounding modes.
#include <catch2/catch.hpp>

#include "math_reference.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

TEST_CASE("math functions on random operands match MPFR at 256 bits, all rounding modes", "[numerics][math]") {
  for (Format fmt : {Format::Half, Format::Float, Format::Double}) {
    Mismatches bad;
    std::atomic<uint64_t> checked{0};
    uint64_t seed = 1000 * uint64_t(fmt);
    for (const FnSpec& s : specs()) checkFunction(s, fmt, ++seed, bad, checked);
    INFO(std::string(toString(fmt)) + ": " + std::to_string(checked.load()) + " operand tuples checked");
    INFO(bad.report());
    CHECK(bad.count() == 0);
    CHECK(checked.load() > 100000);
  }
}

TEST_CASE("refRound, the test's own rounding, against the host", "[numerics][math]") {
  // The reference rounding is itself checked against binary32 conversions by the host FPU.
  std::mt19937_64 rng(7);
  Mpfr y(256);
  for (int i = 0; i < 20000; ++i) {
    const double d = std::ldexp(1.0 + double(rng() >> 12) * 0x1p-52, int(rng() % 300) - 160) * ((rng() & 1) ? -1 : 1);
    mpfr_set_d(y, d, MPFR_RNDN);
    CHECK(refRound(y, 0, Format::Float, Rounding::RTE) == double(float(d)));
    CHECK(refRound(y, 0, Format::Double, Rounding::RTE) == d);
    CHECK(refRound(y, 0, Format::Half, Rounding::RTE) == toDouble(toHalf(d)));
    CHECK(refRound(y, 0, Format::Half, Rounding::RTZ) == toDouble(toHalf(d, Rounding::RTZ)));
  }
}
