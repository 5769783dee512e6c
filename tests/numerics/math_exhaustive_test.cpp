// Slow math checks (ctest label `slow`, executable numerics_slow_test): every binary16 operand
// of every one-operand math function, and 20× the default random operand tuples of every
// function in every format, in all four rounding modes, against math_reference.hpp.
#include <catch2/catch.hpp>

#include "math_reference.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

TEST_CASE("math: every binary16 operand of the one-operand functions, all rounding modes", "[numerics][math][slow]") {
  std::vector<std::vector<double>> all;
  for (uint32_t h = 0; h < 65536; ++h) all.push_back({toDouble(Half{uint16_t(h)})});
  Mismatches bad;
  std::atomic<uint64_t> checked{0};
  for (const FnSpec& s : specs())
    if (s.args.size() == 1 && !s.args[0].integer) checkInputs(s, Format::Half, all, bad, checked);
  INFO(std::to_string(checked.load()) + " operands checked");
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("math: 20x the random operands of the default test, all formats and modes", "[numerics][math][slow]") {
  for (Format fmt : {Format::Half, Format::Float, Format::Double}) {
    Mismatches bad;
    std::atomic<uint64_t> checked{0};
    uint64_t seed = 77000 + 1000 * uint64_t(fmt);
    for (const FnSpec& s : specs()) checkFunction(s, fmt, ++seed, bad, checked, 20);
    INFO(std::string(toString(fmt)) + ": " + std::to_string(checked.load()) + " operand tuples checked");
    INFO(bad.report());
    CHECK(bad.count() == 0);
  }
}
