// The rules that several callers share, each implemented once in numerics (numerics/exact_ops.hpp,
// numerics/convert.hpp, numerics/choices.hpp, math_exact.cpp's
// fractExact): the rule itself against values worked out from the spec's text, and the callers
// (evaluate, exactDecimal, judge, roundToIntegral) agreeing with each other.
// (The interpreter's fast handlers against evaluate: tests/interpreter/extinst_differential_test.cpp.)
#include <catch2/catch.hpp>

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <random>

#include "numerics/choices.hpp"
#include "numerics/convert.hpp"
#include "numerics/exact_ops.hpp"
#include "numerics/math.hpp"
#include "numerics/verdict.hpp"

using namespace clref::numerics;
namespace nm = clref::numerics;  // nm::fmax, not ::fmax from <cmath>

namespace {

bool sameBits(double a, double b) {
  return std::isnan(a) ? std::isnan(b) : a == b && std::signbit(a) == std::signbit(b);
}

const Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

}  // namespace

TEST_CASE("fmax and fmin follow the spec's text literally", "[numerics][rules]") {
  // OpenCL C 3.0 §6.15.2 [[math-functions]]: fmax returns y if x < y, otherwise x; fmin y if y < x, otherwise x.
  CHECK(sameBits(nm::fmax(-0.0, 0.0), -0.0));
  CHECK(sameBits(nm::fmax(0.0, -0.0), 0.0));
  CHECK(sameBits(nm::fmin(-0.0, 0.0), -0.0));
  CHECK(sameBits(nm::fmin(0.0, -0.0), 0.0));
  CHECK(nm::fmax(1.0, 2.0) == 2.0);
  CHECK(nm::fmin(1.0, 2.0) == 1.0);
  CHECK(nm::fmax(NAN, -3.0) == -3.0);
  CHECK(nm::fmax(-3.0, NAN) == -3.0);
  CHECK(nm::fmin(NAN, INFINITY) == INFINITY);
  CHECK(std::isnan(nm::fmax(NAN, NAN)));
  CHECK(std::isnan(nm::fmin(NAN, -NAN)));
  // evaluate (and the common functions max/min with finite operands) give the same values.
  const double values[] = {0.0, -0.0, 1.0, -1.0, 0x1p-149, INFINITY, -INFINITY, NAN, 3.5};
  for (double x : values) {
    for (double y : values) {
      const double args[] = {x, y};
      CHECK(sameBits(evaluate(MathFn::fmax, args, Format::Float).value, nm::fmax(x, y)));
      CHECK(sameBits(evaluate(MathFn::fmin, args, Format::Float).value, nm::fmin(x, y)));
      if (std::isfinite(x) && std::isfinite(y)) {
        CHECK(sameBits(evaluate(MathFn::fmax_common, args, Format::Float).value, nm::fmax(x, y)));
        CHECK(sameBits(evaluate(MathFn::fmin_common, args, Format::Float).value, nm::fmin(x, y)));
      }
    }
  }
}

TEST_CASE("rint rounds ties to even whatever the host rounding mode", "[numerics][rules]") {
  struct Case {
    double x, r;
  };
  const Case cases[] = {{0.5, 0.0},
                        {1.5, 2.0},
                        {2.5, 2.0},
                        {-2.5, -2.0},
                        {3.5, 4.0},
                        {-0.5, -0.0},
                        {-0.3, -0.0},
                        {0.7, 1.0},
                        {-0.0, -0.0},
                        {1e300, 1e300},
                        {0x1p52 + 1, 0x1p52 + 1},
                        {0x1.8p0, 2},
                        {-1.75, -2.0}};
  const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  const int saved = std::fegetround();
  for (int mode : modes) {
    std::fesetround(mode);
    for (const Case& c : cases) {
      volatile double x = c.x;  // evaluated at run time, under the mode just set
      INFO("mode " << mode << " x " << c.x);
      CHECK(sameBits(nm::rint(x), c.r));
      CHECK(sameBits(roundToIntegral(x, Rounding::RTE), c.r));
      const double args[] = {x};
      CHECK(sameBits(evaluate(MathFn::rint, args, Format::Double).value, c.r));
    }
  }
  std::fesetround(saved);
  CHECK(std::isnan(nm::rint(NAN)));
  CHECK(nm::rint(-INFINITY) == -INFINITY);
}

TEST_CASE("fract's clamp is one rule for evaluate, exactDecimal and judge", "[numerics][rules]") {
  // OpenCL C 3.0 §6.15.2 [[math-functions]] fract: fmin(x - floor(x), C), C the format's largest value below 1.
  struct Case {
    Format f;
    double tiny;  // -tiny - floor(-tiny) = 1 - tiny, which rounds to 1.0 in the format
    double c;
    const char* cDecimal;
  };
  const Case cases[] = {
      {Format::Half, 0x1p-14, 0x1.ffcp-1, "9.9951171875e-01"},
      {Format::Float, 0x1p-30, 0x1.fffffep-1, "9.99999940395355224609375e-01"},
      {Format::Double, 0x1p-60, 0x1.fffffffffffffp-1, "9.9999999999999988897769753748434595763683319091796875e-01"},
  };
  for (const Case& c : cases) {
    const double args[] = {-c.tiny};
    for (Rounding r : kModes) CHECK(evaluate(MathFn::fract, args, c.f, r).value == c.c);
    CHECK(evaluate(MathFn::fract, args, c.f).second == -1.0);
    CHECK(exactDecimal(MathFn::fract, args, c.f, 40) == c.cDecimal);
    const Verdict v = judge(MathFn::fract, args, c.c, c.f, Profile::Full);
    CHECK(v.allowed);
    CHECK(v.errorUlps == 0);
    CHECK_FALSE(judge(MathFn::fract, args, 1.0, c.f, Profile::Full).allowed);
  }
  // Random floats: evaluate's fract is correctly rounded by judge's reference, in [0, 1).
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const double x = std::ldexp(double(int32_t(rng())), int(rng() % 60) - 70);
    const double fx = double(float(x));
    const double args[] = {fx};
    const MathResult m = evaluate(MathFn::fract, args, Format::Float);
    INFO(fx);
    CHECK(m.value >= 0);
    CHECK(m.value < 1);
    CHECK(judge(MathFn::fract, args, m.value, Format::Float, Profile::Full).errorUlps <= 0.5);
  }
}

TEST_CASE("nextafter steps within the format, from infinity to the largest value", "[numerics][rules]") {
  const double a[] = {INFINITY, 0.0};
  CHECK(evaluate(MathFn::nextafter, a, Format::Half).value == 65504.0);
  CHECK(evaluate(MathFn::nextafter, a, Format::Float).value == 0x1.fffffep127);
  CHECK(evaluate(MathFn::nextafter, a, Format::Double).value == 0x1.fffffffffffffp1023);
  const double b[] = {-0.0, 1.0};
  CHECK(evaluate(MathFn::nextafter, b, Format::Half).value == 0x1p-24);
  CHECK(evaluate(MathFn::nextafter, b, Format::Float).value == 0x1p-149);
  const double c[] = {0.0, -1.0};
  CHECK(evaluate(MathFn::nextafter, c, Format::Double).value == -0x1p-1074);
}

TEST_CASE("float to integer: in range, saturated, and the float_to_int_out_of_range choice",
          "[numerics][rules][convert]") {
  Choices saturate, minValue, zero;
  minValue.set("float_to_int_out_of_range=min_value");
  zero.set("float_to_int_out_of_range=zero");
  // In range: the exact value (two's complement in the low bits).
  CHECK(floatToInt(127, 8, true, false, saturate) == 127);
  CHECK(uint8_t(floatToInt(-128, 8, true, false, saturate)) == 0x80);
  CHECK(floatToInt(255, 8, false, false, saturate) == 255);
  CHECK(floatToInt(-0.0, 8, false, false, zero) == 0);
  CHECK(floatToInt(0x1p63, 64, false, false, zero) == uint64_t(1) << 63);
  CHECK(floatToInt(-0x1p63, 64, true, false, zero) == uint64_t(1) << 63);
  CHECK(floatToInt(0x1.fffffffffffffp63, 64, false, false, zero) == 0xfffffffffffff800ull);
  // Out of range, by choice (OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: implementation-defined without _sat).
  struct Case {
    double x;
    int bits;
    bool isSigned;
    uint64_t saturated, minimum;
  };
  const Case cases[] = {
      {128, 8, true, 127, 0x80},
      {-129, 8, true, 0x80, 0x80},
      {256, 8, false, 255, 0},
      {-1, 8, false, 0, 0},
      {INFINITY, 16, true, 0x7fff, 0x8000},
      {-INFINITY, 16, false, 0, 0},
      {0x1p31, 32, true, 0x7fffffff, 0x80000000},
      {0x1p32, 32, false, 0xffffffff, 0},
      {0x1p63, 64, true, 0x7fffffffffffffffull, 0x8000000000000000ull},
      {-0x1p64, 64, true, 0x8000000000000000ull, 0x8000000000000000ull},
      {0x1p64, 64, false, ~uint64_t(0), 0},
      {NAN, 32, true, 0, 0x80000000},
  };
  for (const Case& c : cases) {
    INFO(c.x << " to " << c.bits << (c.isSigned ? " signed" : " unsigned"));
    CHECK(floatToInt(c.x, c.bits, c.isSigned, false, saturate) == c.saturated);
    CHECK(floatToInt(c.x, c.bits, c.isSigned, true, minValue) == c.saturated);  // _sat wins
    CHECK(floatToInt(c.x, c.bits, c.isSigned, true, zero) == c.saturated);
    CHECK(floatToInt(c.x, c.bits, c.isSigned, false, minValue) == c.minimum);
    CHECK(floatToInt(c.x, c.bits, c.isSigned, false, zero) == 0);
  }
}
