// numerics::evaluate against the special values of OpenCL C 3.0 §7.5 [[edge-case-behavior]] Edge Case Behavior (and
// the C99 Annex F.9 rules it adopts), the common functions' definitions (§6.15.4 [[common-functions]]) and a few
// exact results, written out here by hand. Every case runs in binary16, binary32 and binary64
// and, unless marked RTE-only, in all four rounding modes (the expected values are exact, so
// the mode cannot matter).
#include <catch2/catch.hpp>

#include <bit>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "numerics/math.hpp"
#include "support.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

namespace {

constexpr double inf = INFINITY;
const double qnan = std::nan("");
constexpr Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

struct Case {
  MathFn f;
  std::vector<double> args;
  double value;
  std::optional<double> second = std::nullopt;
  std::optional<int64_t> integer = std::nullopt;
  bool rteOnly = false;
};

// Same value, zeros by sign, any NaN for NaN.
bool same(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want);
}

std::string describe(const Case& c, Format fmt, Rounding r, const MathResult& got) {
  std::string s = std::string(nameOf(c.f)) + "(";
  for (size_t i = 0; i < c.args.size(); ++i) s += (i ? ", " : "") + hexDouble(c.args[i]);
  s += ") " + std::string(toString(fmt)) + " " + std::string(toString(r)) + ": got " + hexDouble(got.value) + " / " +
       hexDouble(got.second) + " / " + std::to_string(got.integer) + ", want " + hexDouble(c.value);
  if (c.second) s += " / " + hexDouble(*c.second);
  if (c.integer) s += " / " + std::to_string(*c.integer);
  return s;
}

void runCases(const std::vector<Case>& cases,
              std::initializer_list<Format> formats = {Format::Half, Format::Float, Format::Double}) {
  Mismatches bad;
  for (const Case& c : cases)
    for (Format fmt : formats)
      for (Rounding r : kModes) {
        if (c.rteOnly && r != Rounding::RTE) continue;
        const MathResult got = evaluate(c.f, c.args, fmt, r);
        const bool ok = same(got.value, c.value) && (!c.second || same(got.second, *c.second)) &&
                        (!c.integer || got.integer == *c.integer);
        if (!ok) bad.add(describe(c, fmt, r, got));
      }
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

using F = MathFn;

}  // namespace

TEST_CASE("math names and arities follow the OpenCL.std grammar", "[numerics][math]") {
  CHECK(nameOf(MathFn::acos) == "acos");
  CHECK(nameOf(MathFn::trunc) == "trunc");
  CHECK(int(MathFn::trunc) == 66);
  CHECK(int(MathFn::half_cos) == 67);
  CHECK(int(MathFn::native_tan) == 94);
  CHECK(int(MathFn::sign) == 103);
  CHECK(mathFnByName("fmax_common") == MathFn::fmax_common);
  CHECK(mathFnByName("smoothstep") == MathFn::smoothstep);
  CHECK(!mathFnByName("printf"));
  for (int i = 0; i < kMathFnCount; ++i) CHECK(mathFnByName(nameOf(MathFn(i))) == MathFn(i));
  CHECK(arity(MathFn::fma) == 3);
  CHECK(arity(MathFn::remquo) == 2);
  CHECK(arity(MathFn::sincos) == 1);
  CHECK(arity(MathFn::ldexp) == 2);
  CHECK_THROWS_AS(evaluate(MathFn::sin, std::vector<double>{1, 2}, Format::Float), std::invalid_argument);
}

TEST_CASE("OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: π-scaled trigonometric edge cases",
          "[numerics][math]") {
  runCases({
      // acospi(1) = +0; acospi(x) is NaN for |x| > 1.
      {F::acospi, {1}, 0.0},
      {F::acospi, {1.5}, qnan},
      {F::acospi, {-2}, qnan},
      {F::acospi, {inf}, qnan},
      {F::acospi, {-1}, 1.0},
      // asinpi(±0) = ±0; NaN for |x| > 1.
      {F::asinpi, {0.0}, 0.0},
      {F::asinpi, {-0.0}, -0.0},
      {F::asinpi, {1.5}, qnan},
      {F::asinpi, {-1.5}, qnan},
      {F::asinpi, {1}, 0.5},
      {F::asinpi, {-1}, -0.5},
      // atanpi(±0) = ±0, atanpi(±inf) = ±0.5.
      {F::atanpi, {0.0}, 0.0},
      {F::atanpi, {-0.0}, -0.0},
      {F::atanpi, {inf}, 0.5},
      {F::atanpi, {-inf}, -0.5},
      {F::atanpi, {1}, 0.25},
      {F::atanpi, {-1}, -0.25},
      // atan2pi: the twelve rules of OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]].
      {F::atan2pi, {0.0, -0.0}, 1.0},
      {F::atan2pi, {-0.0, -0.0}, -1.0},
      {F::atan2pi, {0.0, 0.0}, 0.0},
      {F::atan2pi, {-0.0, 0.0}, -0.0},
      {F::atan2pi, {0.0, -2}, 1.0},
      {F::atan2pi, {-0.0, -2}, -1.0},
      {F::atan2pi, {0.0, 2}, 0.0},
      {F::atan2pi, {-0.0, 2}, -0.0},
      {F::atan2pi, {-3, 0.0}, -0.5},
      {F::atan2pi, {-3, -0.0}, -0.5},
      {F::atan2pi, {3, 0.0}, 0.5},
      {F::atan2pi, {3, -0.0}, 0.5},
      {F::atan2pi, {2, -inf}, 1.0},
      {F::atan2pi, {-2, -inf}, -1.0},
      {F::atan2pi, {2, inf}, 0.0},
      {F::atan2pi, {-2, inf}, -0.0},
      {F::atan2pi, {inf, 3}, 0.5},
      {F::atan2pi, {-inf, 3}, -0.5},
      {F::atan2pi, {inf, -3}, 0.5},
      {F::atan2pi, {inf, -inf}, 0.75},
      {F::atan2pi, {-inf, -inf}, -0.75},
      {F::atan2pi, {inf, inf}, 0.25},
      {F::atan2pi, {-inf, inf}, -0.25},
      {F::atan2pi, {1, 1}, 0.25},
      {F::atan2pi, {-1, -1}, -0.75},
      {F::atan2pi, {qnan, 1}, qnan},
      // cospi(±0) = 1; cospi(n + 0.5) = +0; cospi(±inf) is NaN.
      {F::cospi, {0.0}, 1.0},
      {F::cospi, {-0.0}, 1.0},
      {F::cospi, {0.5}, 0.0},
      {F::cospi, {-0.5}, 0.0},
      {F::cospi, {1.5}, 0.0},
      {F::cospi, {-2.5}, 0.0},
      {F::cospi, {511.5}, 0.0},
      {F::cospi, {inf}, qnan},
      {F::cospi, {-inf}, qnan},
      {F::cospi, {1}, -1.0},
      {F::cospi, {-3}, -1.0},
      {F::cospi, {2048}, 1.0},
      // sinpi(±0) = ±0; sinpi(+n) = +0, sinpi(-n) = -0; sinpi(±inf) is NaN.
      {F::sinpi, {0.0}, 0.0},
      {F::sinpi, {-0.0}, -0.0},
      {F::sinpi, {3}, 0.0},
      {F::sinpi, {-3}, -0.0},
      {F::sinpi, {2}, 0.0},
      {F::sinpi, {-2}, -0.0},
      {F::sinpi, {4096}, 0.0},
      {F::sinpi, {-4096}, -0.0},
      {F::sinpi, {inf}, qnan},
      {F::sinpi, {-inf}, qnan},
      {F::sinpi, {0.5}, 1.0},
      {F::sinpi, {-1.5}, 1.0},
      {F::sinpi, {-0.5}, -1.0},
      // tanpi(±0) = ±0; tanpi(±inf) NaN; tanpi(n) = copysign(0, n) for even n, copysign(0, -n)
      // for odd n; tanpi(n + 0.5) = +inf for even n, -inf for odd n.
      {F::tanpi, {0.0}, 0.0},
      {F::tanpi, {-0.0}, -0.0},
      {F::tanpi, {inf}, qnan},
      {F::tanpi, {-inf}, qnan},
      {F::tanpi, {2}, 0.0},
      {F::tanpi, {-2}, -0.0},
      {F::tanpi, {1}, -0.0},
      {F::tanpi, {-1}, 0.0},
      {F::tanpi, {3}, -0.0},
      {F::tanpi, {-5}, 0.0},
      {F::tanpi, {4096}, 0.0},
      {F::tanpi, {0.5}, inf},
      {F::tanpi, {1.5}, -inf},
      {F::tanpi, {-0.5}, -inf},
      {F::tanpi, {-1.5}, inf},
      {F::tanpi, {2.5}, inf},
      {F::tanpi, {0.25}, 1.0},
      {F::tanpi, {-0.25}, -1.0},
      {F::tanpi, {0.75}, -1.0},
  });
}

TEST_CASE("C99 F.9 special values of the other transcendental functions", "[numerics][math]") {
  runCases(
      {
          {F::sin, {-0.0}, -0.0},
          {F::sin, {inf}, qnan},
          {F::cos, {-0.0}, 1.0},
          {F::cos, {-inf}, qnan},
          {F::tan, {-0.0}, -0.0},
          {F::tan, {inf}, qnan},
          {F::asin, {-0.0}, -0.0},
          {F::asin, {2}, qnan},
          {F::acos, {1}, 0.0},
          {F::acos, {-1.5}, qnan},
          {F::atan, {-0.0}, -0.0},
          {F::atan2, {-0.0, 0.0}, -0.0},
          {F::atan2, {0.0, 1}, 0.0},
          {F::sinh, {-0.0}, -0.0},
          {F::sinh, {-inf}, -inf},
          {F::cosh, {-inf}, inf},
          {F::cosh, {0.0}, 1.0},
          {F::tanh, {-inf}, -1.0},
          {F::tanh, {-0.0}, -0.0},
          {F::asinh, {-0.0}, -0.0},
          {F::asinh, {-inf}, -inf},
          {F::acosh, {1}, 0.0},
          {F::acosh, {0.5}, qnan},
          {F::atanh, {1}, inf},
          {F::atanh, {-1}, -inf},
          {F::atanh, {-0.0}, -0.0},
          {F::atanh, {2}, qnan},
          {F::sincos, {-0.0}, -0.0, 1.0},
          {F::sincos, {0.0}, 0.0, 1.0},
          {F::sincos, {inf}, qnan, qnan},
          {F::exp, {-inf}, 0.0},
          {F::exp, {inf}, inf},
          {F::exp, {-0.0}, 1.0},
          {F::exp2, {-inf}, 0.0},
          {F::exp2, {10}, 1024.0},
          {F::exp2, {-3}, 0.125},
          // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: exp10(-inf) = +0, exp10(+inf) = +inf.
          {F::exp10, {-inf}, 0.0},
          {F::exp10, {inf}, inf},
          {F::exp10, {3}, 1000.0},
          {F::exp10, {0.0}, 1.0},
          {F::expm1, {-inf}, -1.0},
          {F::expm1, {-0.0}, -0.0},
          {F::expm1, {inf}, inf},
          {F::log, {0.0}, -inf},
          {F::log, {-0.0}, -inf},
          {F::log, {1}, 0.0},
          {F::log, {-1}, qnan},
          {F::log, {inf}, inf},
          {F::log2, {8}, 3.0},
          {F::log2, {0.0}, -inf},
          {F::log10, {1000}, 3.0},
          {F::log10, {-0.0}, -inf},
          {F::log1p, {-1}, -inf},
          {F::log1p, {-0.0}, -0.0},
          {F::log1p, {-2}, qnan},
          {F::cbrt, {-8}, -2.0},
          {F::cbrt, {-0.0}, -0.0},
          {F::cbrt, {-inf}, -inf},
          {F::sqrt, {-0.0}, -0.0},
          {F::sqrt, {-1}, qnan},
          {F::sqrt, {inf}, inf},
          {F::sqrt, {16}, 4.0},
          // rsqrt = 1/sqrt: rsqrt(±0) = ±inf (IEEE 754-2008 §9.2 [external] rSqrt).
          {F::rsqrt, {0.0}, inf},
          {F::rsqrt, {-0.0}, -inf},
          {F::rsqrt, {inf}, 0.0},
          {F::rsqrt, {-1}, qnan},
          {F::rsqrt, {4}, 0.5},
          {F::rsqrt, {-inf}, qnan},
          {F::hypot, {inf, qnan}, inf},
          {F::hypot, {qnan, -inf}, inf},
          {F::hypot, {3, 4}, 5.0},
          {F::hypot, {-0.0, -0.0}, 0.0},
          {F::hypot, {-3, 0.0}, 3.0},
          {F::erf, {-0.0}, -0.0},
          {F::erf, {inf}, 1.0},
          {F::erf, {-inf}, -1.0},
          {F::erfc, {inf}, 0.0},
          {F::erfc, {-inf}, 2.0},
          {F::erfc, {0.0}, 1.0},
          {F::tgamma, {0.0}, inf},
          {F::tgamma, {-0.0}, -inf},
          {F::tgamma, {-1}, qnan},
          {F::tgamma, {-inf}, qnan},
          {F::tgamma, {inf}, inf},
          {F::tgamma, {5}, 24.0},
          {F::tgamma, {1}, 1.0},
          {F::lgamma, {1}, 0.0},
          {F::lgamma, {2}, 0.0},
          {F::lgamma, {0.0}, inf},
          {F::lgamma, {-3}, inf},
          {F::lgamma, {-inf}, inf},
          {F::lgamma, {inf}, inf},
          // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: lgamma_r's sign is 0 for zero or a negative
          // integer.
          {F::lgamma_r, {0.0}, inf, {}, 0},
          {F::lgamma_r, {-0.0}, inf, {}, 0},
          {F::lgamma_r, {-1}, inf, {}, 0},
          {F::lgamma_r, {-2}, inf, {}, 0},
          {F::lgamma_r, {1}, 0.0, {}, 1},
          {F::lgamma_r, {inf}, inf, {}, 1},
          {F::lgamma_r, {qnan}, qnan, {}, 0},
      },
      {Format::Float, Format::Double});
}

TEST_CASE("C99 F.9.4.4 pow and OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] pown, powr, rootn",
          "[numerics][math]") {
  runCases({
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: pow(±0, -inf) = +inf; C99 F.9.4.4's other
      // rules.
      {F::pow, {0.0, -inf}, inf},
      {F::pow, {-0.0, -inf}, inf},
      {F::pow, {-1, inf}, 1.0},
      {F::pow, {-1, -inf}, 1.0},
      {F::pow, {1, qnan}, 1.0},
      {F::pow, {qnan, 0.0}, 1.0},
      {F::pow, {qnan, -0.0}, 1.0},
      {F::pow, {-0.0, -3}, -inf},
      {F::pow, {0.0, -3}, inf},
      {F::pow, {-0.0, -2}, inf},
      {F::pow, {-0.0, 3}, -0.0},
      {F::pow, {-0.0, 2}, 0.0},
      {F::pow, {-0.0, 0.5}, 0.0},
      {F::pow, {-2, 0.5}, qnan},
      {F::pow, {-inf, -3}, -0.0},
      {F::pow, {-inf, 3}, -inf},
      {F::pow, {-inf, 2}, inf},
      {F::pow, {0.5, inf}, 0.0},
      {F::pow, {2, -inf}, 0.0},
      {F::pow, {-2, 3}, -8.0},
      {F::pow, {4, 0.5}, 2.0},
      {F::pow, {inf, -0.5}, 0.0},
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: pown(x, 0) = 1 for any x; pown(±0, n): ±inf odd
      // n < 0, +inf even n < 0, +0 even n > 0, ±0 odd n > 0.
      {F::pown, {0.0, 0}, 1.0},
      {F::pown, {qnan, 0}, 1.0},
      {F::pown, {-inf, 0}, 1.0},
      {F::pown, {-0.0, 0}, 1.0},
      {F::pown, {0.0, -3}, inf},
      {F::pown, {-0.0, -3}, -inf},
      {F::pown, {0.0, -2}, inf},
      {F::pown, {-0.0, -2}, inf},
      {F::pown, {0.0, 2}, 0.0},
      {F::pown, {-0.0, 2}, 0.0},
      {F::pown, {0.0, 3}, 0.0},
      {F::pown, {-0.0, 3}, -0.0},
      {F::pown, {-2, 3}, -8.0},
      {F::pown, {-2, -3}, -0.125},
      {F::pown, {-inf, 3}, -inf},
      {F::pown, {-inf, -3}, -0.0},
      {F::pown, {qnan, 2}, qnan},
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] powr.
      {F::powr, {2, 0.0}, 1.0},
      {F::powr, {2, -0.0}, 1.0},
      {F::powr, {0.0, -3}, inf},
      {F::powr, {-0.0, -3}, inf},
      {F::powr, {0.0, -inf}, inf},
      {F::powr, {-0.0, -inf}, inf},
      {F::powr, {0.0, 2}, 0.0},
      {F::powr, {-0.0, 3}, 0.0},
      {F::powr, {-0.0, inf}, 0.0},
      {F::powr, {1, 5}, 1.0},
      {F::powr, {1, -7}, 1.0},
      {F::powr, {1, inf}, qnan},
      {F::powr, {1, -inf}, qnan},
      {F::powr, {-2, 2}, qnan},
      {F::powr, {-inf, 2}, qnan},
      {F::powr, {-1, 0.0}, qnan},
      {F::powr, {0.0, 0.0}, qnan},
      {F::powr, {-0.0, -0.0}, qnan},
      {F::powr, {inf, 0.0}, qnan},
      {F::powr, {inf, -0.0}, qnan},
      {F::powr, {2, qnan}, qnan},
      {F::powr, {0.0, qnan}, qnan},
      {F::powr, {qnan, 2}, qnan},
      {F::powr, {qnan, 0.0}, qnan},
      {F::powr, {inf, 2}, inf},
      {F::powr, {inf, -2}, 0.0},
      {F::powr, {4, 0.5}, 2.0},
      {F::powr, {0.5, inf}, 0.0},
      {F::powr, {0.5, -inf}, inf},
      {F::powr, {2, inf}, inf},
      {F::half_powr, {-2, 2}, qnan},
      {F::native_powr, {0.0, 0.0}, qnan},
      {F::half_powr, {4, 0.5}, 2.0},
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] rootn.
      {F::rootn, {0.0, -3}, inf},
      {F::rootn, {-0.0, -3}, -inf},
      {F::rootn, {0.0, -2}, inf},
      {F::rootn, {-0.0, -2}, inf},
      {F::rootn, {0.0, 2}, 0.0},
      {F::rootn, {-0.0, 2}, 0.0},
      {F::rootn, {0.0, 3}, 0.0},
      {F::rootn, {-0.0, 3}, -0.0},
      {F::rootn, {-8, 2}, qnan},
      {F::rootn, {-8, -2}, qnan},
      {F::rootn, {8, 0}, qnan},
      {F::rootn, {0.0, 0}, qnan},
      {F::rootn, {-8, 3}, -2.0},
      {F::rootn, {16, -4}, 0.5},
      {F::rootn, {-inf, 3}, -inf},
      {F::rootn, {-inf, -3}, -0.0},
      {F::rootn, {inf, 2}, inf},
      {F::rootn, {-inf, 2}, qnan},
  });
}

TEST_CASE(
    "OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]/§7.5.2 [[changes-to-c99-tc2-behavior]]: rounding "
    "to integers, fract, modf, frexp, ilogb, logb",
    "[numerics][math]") {
  runCases({
      // ceil(-1 < x < 0) = -0, trunc(-1 < x < 0) = -0, round(-0.5 < x < 0) = -0,
      // rint(-0.5 <= x < 0) = -0; rint rounds ties to even in every mode (OpenCL C 3.0
      // §7.5.2 [[changes-to-c99-tc2-behavior]]).
      {F::ceil, {-0.5}, -0.0},
      {F::ceil, {-0.0}, -0.0},
      {F::ceil, {0.25}, 1.0},
      {F::ceil, {-1.5}, -1.0},
      {F::ceil, {inf}, inf},
      {F::ceil, {qnan}, qnan},
      {F::floor, {-0.5}, -1.0},
      {F::floor, {0.5}, 0.0},
      {F::floor, {-0.0}, -0.0},
      {F::floor, {-inf}, -inf},
      {F::trunc, {-0.75}, -0.0},
      {F::trunc, {2.75}, 2.0},
      {F::trunc, {-2.75}, -2.0},
      {F::round, {-0.25}, -0.0},
      {F::round, {-0.5}, -1.0},
      {F::round, {2.5}, 3.0},
      {F::round, {-2.5}, -3.0},
      {F::round, {0.5}, 1.0},
      {F::rint, {-0.5}, -0.0},
      {F::rint, {-0.25}, -0.0},
      {F::rint, {2.5}, 2.0},
      {F::rint, {3.5}, 4.0},
      {F::rint, {-2.5}, -2.0},
      {F::rint, {0.75}, 1.0},
      {F::rint, {-inf}, -inf},
      {F::rint, {1023.5}, 1024.0},
      // fract: OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] signed zeros, infinities, NaN; fmin(x -
      // floor(x), C) otherwise.
      {F::fract, {0.0}, 0.0, 0.0},
      {F::fract, {-0.0}, -0.0, -0.0},
      {F::fract, {inf}, 0.0, inf},
      {F::fract, {-inf}, -0.0, -inf},
      {F::fract, {qnan}, qnan, qnan},
      {F::fract, {-2.25}, 0.75, -3.0},
      {F::fract, {3.5}, 0.5, 3.0},
      {F::fract, {-3}, 0.0, -3.0, {}, true},
      {F::fract, {1024}, 0.0, 1024.0, {}, true},
      // modf (OpenCL C 3.0 §7.5.2 [[changes-to-c99-tc2-behavior]]): iptr = trunc(x), result copysign(isinf(x) ? 0 : x -
      // iptr, x).
      {F::modf, {-3.5}, -0.5, -3.0},
      {F::modf, {3.25}, 0.25, 3.0},
      {F::modf, {-3}, -0.0, -3.0},
      {F::modf, {-inf}, -0.0, -inf},
      {F::modf, {inf}, 0.0, inf},
      {F::modf, {-0.0}, -0.0, -0.0},
      {F::modf, {qnan}, qnan, qnan},
      {F::modf, {-0.75}, -0.75, -0.0},
      // frexp: OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] frexp(±inf) = ±inf, exp 0; frexp(NaN) =
      // NaN, exp 0; C99: frexp(±0) = ±0, 0.
      {F::frexp, {inf}, inf, {}, 0},
      {F::frexp, {-inf}, -inf, {}, 0},
      {F::frexp, {qnan}, qnan, {}, 0},
      {F::frexp, {-0.0}, -0.0, {}, 0},
      {F::frexp, {12}, 0.75, {}, 4},
      {F::frexp, {-0.5}, -0.5, {}, 0},
      {F::frexp, {1}, 0.5, {}, 1},
      // ilogb: FP_ILOGB0 = INT_MIN, FP_ILOGBNAN = INT_MAX, ilogb(±inf) = INT_MAX.
      {F::ilogb, {0.0}, 0.0, {}, INT_MIN},
      {F::ilogb, {-0.0}, 0.0, {}, INT_MIN},
      {F::ilogb, {qnan}, 0.0, {}, INT_MAX},
      {F::ilogb, {-inf}, 0.0, {}, INT_MAX},
      {F::ilogb, {1}, 0.0, {}, 0},
      {F::ilogb, {-0.75}, 0.0, {}, -1},
      {F::ilogb, {1024}, 0.0, {}, 10},
      // logb: C99 F.9.3.11 logb(±0) = -inf, logb(±inf) = +inf.
      {F::logb, {0.0}, -inf},
      {F::logb, {-0.0}, -inf},
      {F::logb, {-inf}, inf},
      {F::logb, {0.75}, -1.0},
      {F::logb, {-1000}, 9.0},
      {F::logb, {qnan}, qnan},
  });
}

TEST_CASE(
    "OpenCL C 3.0 §6.15.2 [[math-functions]]/§7.5.1 [[additional-requirements-beyond-c99-tc2]]: fmin, fmax, maxmag, "
    "minmag, fdim, fmod, remainder, remquo, and the rest",
    "[numerics][math]") {
  runCases({
      // fmax/fmin: the other operand if one is NaN; literal "y if x < y, otherwise x".
      {F::fmax, {qnan, 1}, 1.0},
      {F::fmax, {1, qnan}, 1.0},
      {F::fmax, {qnan, qnan}, qnan},
      {F::fmax, {1, 2}, 2.0},
      {F::fmax, {-0.0, 0.0}, -0.0},
      {F::fmax, {0.0, -0.0}, 0.0},
      {F::fmax, {-inf, 3}, 3.0},
      {F::fmin, {qnan, 1}, 1.0},
      {F::fmin, {1, qnan}, 1.0},
      {F::fmin, {qnan, qnan}, qnan},
      {F::fmin, {1, 2}, 1.0},
      {F::fmin, {-0.0, 0.0}, -0.0},
      {F::fmin, {0.0, -0.0}, 0.0},
      {F::fmin, {inf, 3}, 3.0},
      // maxmag/minmag: by magnitude, ties (and NaN) to fmax/fmin.
      {F::maxmag, {-3, 2}, -3.0},
      {F::maxmag, {2, -3}, -3.0},
      {F::maxmag, {2, -2}, 2.0},
      {F::maxmag, {-2, 2}, 2.0},
      {F::maxmag, {qnan, 1}, 1.0},
      {F::maxmag, {1, qnan}, 1.0},
      {F::maxmag, {-inf, 5}, -inf},
      {F::minmag, {-3, 2}, 2.0},
      {F::minmag, {2, -3}, 2.0},
      {F::minmag, {2, -2}, -2.0},
      {F::minmag, {-2, 2}, -2.0},
      {F::minmag, {qnan, 1}, 1.0},
      {F::minmag, {1, qnan}, 1.0},
      // fdim: OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] NaN operands give NaN; +0 when x <= y.
      {F::fdim, {1, qnan}, qnan},
      {F::fdim, {qnan, 1}, qnan},
      {F::fdim, {2, 1}, 1.0},
      {F::fdim, {1, 2}, 0.0},
      {F::fdim, {-0.0, 0.0}, 0.0},
      {F::fdim, {inf, inf}, 0.0},
      {F::fdim, {inf, 1}, inf},
      {F::fdim, {-2, -inf}, inf},
      // fmod: OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] fmod(±0, NaN) is NaN; C99 F.9.7.1.
      {F::fmod, {0.0, qnan}, qnan},
      {F::fmod, {-0.0, qnan}, qnan},
      {F::fmod, {0.0, 3}, 0.0},
      {F::fmod, {-0.0, 3}, -0.0},
      {F::fmod, {inf, 2}, qnan},
      {F::fmod, {3, 0.0}, qnan},
      {F::fmod, {3, inf}, 3.0},
      {F::fmod, {-7, 2}, -1.0},
      {F::fmod, {-8, 2}, -0.0},
      {F::fmod, {7.5, -2}, 1.5},
      // remainder: nearest integer quotient, ties to even; a zero has x's sign.
      {F::remainder, {7, 2}, -1.0},
      {F::remainder, {5, 2}, 1.0},
      {F::remainder, {-8, 2}, -0.0},
      {F::remainder, {3, inf}, 3.0},
      {F::remainder, {inf, 3}, qnan},
      {F::remainder, {3, 0.0}, qnan},
      // remquo: OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] NaN and quo 0 for x = ±inf, y = 0 (other
      // non-NaN) or a NaN operand; otherwise the remainder and the low 7 bits of the quotient with the sign of x/y.
      {F::remquo, {inf, 2}, qnan, {}, 0},
      {F::remquo, {-inf, 2}, qnan, {}, 0},
      {F::remquo, {3, 0.0}, qnan, {}, 0},
      {F::remquo, {qnan, 2}, qnan, {}, 0},
      {F::remquo, {3, qnan}, qnan, {}, 0},
      {F::remquo, {7, 2}, -1.0, {}, 4},
      {F::remquo, {-7, 2}, 1.0, {}, -4},
      {F::remquo, {7, -2}, -1.0, {}, -4},
      {F::remquo, {5, 2}, 1.0, {}, 2},
      {F::remquo, {1000, 1}, 0.0, {}, 1000 % 128},
      {F::remquo, {-1000, 1}, -0.0, {}, -(1000 % 128)},
      {F::remquo, {640, 5}, 0.0, {}, 0},
      {F::remquo, {3, inf}, 3.0, {}, 0},
      // nextafter: C99 F.9.8.3 returns y when x == y.
      {F::nextafter, {0.0, -0.0}, -0.0},
      {F::nextafter, {-0.0, 0.0}, 0.0},
      {F::nextafter, {qnan, 1}, qnan},
      {F::nextafter, {1, qnan}, qnan},
      {F::nextafter, {2, 2}, 2.0},
      // copysign, fabs, nan.
      {F::copysign, {2, -0.0}, -2.0},
      {F::copysign, {-2, 0.0}, 2.0},
      {F::copysign, {inf, -1}, -inf},
      {F::fabs, {-0.0}, 0.0},
      {F::fabs, {-inf}, inf},
      {F::nan, {0}, qnan},
      {F::nan, {5}, qnan},
      // ldexp: exact scaling.
      {F::ldexp, {3, 2}, 12.0},
      {F::ldexp, {-0.0, 5}, -0.0},
      {F::ldexp, {inf, -5}, inf},
      {F::ldexp, {1, -3}, 0.125},
      {F::ldexp, {qnan, 1}, qnan},
      // fma (IEEE 754-2008 edge cases) and mad.
      {F::fma, {inf, 0.0, 1}, qnan},
      {F::fma, {2, 3, 4}, 10.0},
      {F::fma, {inf, 1, -inf}, qnan},
      {F::fma, {0.0, -1, 0.0}, 0.0, {}, {}, true},
      {F::mad, {2, 3, 4}, 10.0},
      // half_/native_ divide and recip: IEEE division.
      {F::half_divide, {1, 4}, 0.25},
      {F::native_divide, {1, 0.0}, inf},
      {F::native_divide, {0.0, 0.0}, qnan},
      {F::half_recip, {-0.0}, -inf},
      {F::native_recip, {4}, 0.25},
      {F::half_rsqrt, {-0.0}, -inf},
      {F::native_sqrt, {4}, 2.0},
      {F::half_exp10, {-inf}, 0.0},
      {F::native_log2, {0.0}, -inf},
      {F::half_cos, {0.0}, 1.0},
      {F::native_sin, {-0.0}, -0.0},
      {F::half_tan, {-0.0}, -0.0},
      {F::native_exp, {-inf}, 0.0},
      {F::half_exp2, {2}, 4.0},
      {F::half_log, {1}, 0.0},
      {F::native_log10, {100}, 2.0},
  });
}

TEST_CASE("OpenCL C 3.0 §6.15.4 [[common-functions]] common functions", "[numerics][math]") {
  runCases({
      // clamp = fmin(fmax(x, minval), maxval).
      {F::fclamp, {5, 1, 3}, 3.0},
      {F::fclamp, {-5, 1, 3}, 1.0},
      {F::fclamp, {2, 1, 3}, 2.0},
      {F::fclamp, {qnan, 1, 3}, 1.0},
      {F::fclamp, {-inf, -1, 1}, -1.0},
      {F::fmax_common, {1, 2}, 2.0},
      {F::fmin_common, {1, 2}, 1.0},
      {F::fmax_common, {-inf, 2}, 2.0},
      // degrees/radians of zeros and infinities; degrees(π/2 rounded) is not exact.
      {F::degrees, {0.0}, 0.0},
      {F::degrees, {-0.0}, -0.0},
      {F::degrees, {inf}, inf},
      {F::degrees, {qnan}, qnan},
      {F::radians, {-0.0}, -0.0},
      {F::radians, {-inf}, -inf},
      // mix = x + (y - x)·a.
      {F::mix, {1, 3, 0.5}, 2.0},
      {F::mix, {1, 3, 0.0}, 1.0},
      {F::mix, {1, 3, 1}, 3.0},
      {F::mix, {-4, 4, 0.25}, -2.0},
      {F::mix, {inf, 1, 0.5}, qnan},
      {F::mix, {qnan, 1, 0.5}, qnan},
      // step(edge, x) = x < edge ? 0 : 1.
      {F::step, {2, 1}, 0.0},
      {F::step, {1, 1}, 1.0},
      {F::step, {1, 2}, 1.0},
      {F::step, {qnan, 1}, 1.0},
      {F::step, {-0.0, 0.0}, 1.0},
      {F::step, {inf, 1e3}, 0.0},
      // smoothstep: t = clamp((x - e0)/(e1 - e0), 0, 1); t·t·(3 - 2t).
      {F::smoothstep, {0.0, 1, 0.5}, 0.5},
      {F::smoothstep, {0.0, 1, -1}, 0.0},
      {F::smoothstep, {0.0, 1, 2}, 1.0},
      {F::smoothstep, {0.0, 2, 0.5}, 0.15625},
      {F::smoothstep, {0.0, 1, 0.0}, 0.0},
      {F::smoothstep, {0.0, 1, 1}, 1.0},
      {F::smoothstep, {0.0, 4, 3}, 0.84375},
      {F::smoothstep, {-inf, inf, 0.0}, 0.0},
      {F::smoothstep, {0.0, 1, inf}, 1.0},
      {F::smoothstep, {0.0, 1, -inf}, 0.0},
      // sign.
      {F::sign, {-0.0}, -0.0},
      {F::sign, {0.0}, 0.0},
      {F::sign, {qnan}, 0.0},
      {F::sign, {-3}, -1.0},
      {F::sign, {0.25}, 1.0},
      {F::sign, {-inf}, -1.0},
  });
}

TEST_CASE("format-specific edge cases: subnormals, the fract clamp, overflow", "[numerics][math]") {
  struct Fmt {
    Format f;
    double minSub, minNormal, max, belowOne, epsilon;
    double minSubExp;
  };
  const Fmt fmts[] = {
      {Format::Half, 0x1p-24, 0x1p-14, 65504.0, 0x1.ffcp-1, 0x1p-10, -24},
      {Format::Float, 0x1p-149, 0x1p-126, 0x1.fffffep127, 0x1.fffffep-1, 0x1p-23, -149},
      {Format::Double, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp1023, 0x1.fffffffffffffp-1, 0x1p-52, -1074},
  };
  for (const Fmt& m : fmts) {
    INFO(toString(m.f));
    runCases(
        {
            // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: nextafter(-0, y > 0) is the smallest
            // positive subnormal, nextafter(+0, y < 0) the smallest negative one.
            {F::nextafter, {-0.0, 1}, m.minSub},
            {F::nextafter, {0.0, -1}, -m.minSub},
            {F::nextafter, {0.0, 1}, m.minSub},
            {F::nextafter, {m.minSub, -1}, 0.0},
            {F::nextafter, {-m.minSub, 1}, -0.0},
            {F::nextafter, {1, 2}, 1 + m.epsilon},
            {F::nextafter, {1, 0.0}, 1 - m.epsilon / 2},
            {F::nextafter, {m.max, inf}, inf},
            {F::nextafter, {inf, 0.0}, m.max},
            {F::nextafter, {-inf, 0.0}, -m.max},
            {F::nextafter, {m.minNormal, 0.0}, m.minNormal - m.minSub},
            // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: fract never returns 1.0; x - floor(x) for
            // a tiny negative x rounds to 1.
            {F::fract, {-m.minSub}, m.belowOne, -1.0},
            {F::fract, {-m.epsilon / 4}, m.belowOne, -1.0},
            {F::fract, {m.minSub}, m.minSub, 0.0},
            // Subnormal operands have their true exponents.
            {F::ilogb, {m.minSub}, 0.0, {}, int64_t(m.minSubExp)},
            {F::frexp, {-m.minSub}, -0.5, {}, int64_t(m.minSubExp) + 1},
            {F::logb, {m.minSub}, double(m.minSubExp)},
            {F::ilogb, {m.max}, 0.0, {}, ilogb(m.max)},
            // ldexp into the subnormal range and beyond: a subnormal is exact, a half-way tie goes to
            // even (0), and overflow is inf.
            {F::ldexp, {1, m.minSubExp}, m.minSub},
            {F::ldexp, {1, m.minSubExp - 1}, 0.0, {}, {}, true},
            {F::ldexp, {3, m.minSubExp - 1}, 2 * m.minSub, {}, {}, true},
            {F::ldexp, {m.max, 1}, inf, {}, {}, true},
            {F::ldexp, {m.minSub, -m.minSubExp}, 1.0},
            {F::ldexp, {1, -100000}, 0.0, {}, {}, true},
            {F::ldexp, {-1, 100000}, -inf, {}, {}, true},
            // exp overflow and underflow, rounded per mode below.
            {F::exp, {m.max}, inf, {}, {}, true},
            {F::exp, {-m.max}, 0.0, {}, {}, true},
        },
        {m.f});
    // Directed modes at overflow and underflow: the largest finite value or the smallest
    // subnormal instead of inf or 0 (IEEE 754-2008 §7.4 [external], §7.5 [external]).
    const double big[] = {m.max};
    CHECK(evaluate(F::exp, big, m.f, Rounding::RTZ).value == m.max);
    CHECK(evaluate(F::exp, big, m.f, Rounding::RTN).value == m.max);
    CHECK(evaluate(F::exp, big, m.f, Rounding::RTP).value == inf);
    const double negBig[] = {-m.max};
    CHECK(evaluate(F::exp, negBig, m.f, Rounding::RTP).value == m.minSub);
    CHECK(std::bit_cast<uint64_t>(evaluate(F::exp, negBig, m.f, Rounding::RTZ).value) == 0);
    const double tiny[] = {m.minSub, 0.5};
    CHECK(evaluate(F::pow, tiny, m.f, Rounding::RTE).value == (m.f == Format::Double  ? 0x1p-537
                                                               : m.f == Format::Float ? 0x1.6a09e6p-75
                                                                                      : 0x1p-12));
  }
}

TEST_CASE("mad: fused and unfused", "[numerics][math]") {
  // 1 + 2^-12 squared is 1 + 2^-11 + 2^-24: in binary16 the product rounds to 1 + 2^-11 (a tie
  // resolved to even gives 1), so fused and unfused differ after subtracting 1.
  const double a = 1 + 0x1p-10;
  const std::vector<double> args = {a, a, -1};
  // Exact a·a - 1 = 2^-9 + 2^-20, rounded to binary16 (p = 11 at exponent -9: ulp 2^-19) is
  // 2^-9 + 2^-20 → tie between 2^-9 and 2^-9 + 2^-19: even → 2^-9.
  CHECK(evaluateMad(args, Format::Half, Rounding::RTE, true).value == 0x1p-9);
  // Unfused: a·a = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9 (ulp 2^-10), minus 1 = 2^-9.
  CHECK(evaluateMad(args, Format::Half, Rounding::RTE, false).value == 0x1p-9);
  CHECK(evaluateMad(args, Format::Half, Rounding::RTP, true).value == 0x1p-9 + 0x1p-19);
  CHECK(evaluateMad(args, Format::Half, Rounding::RTP, false).value == 0x1p-9 + 0x1p-10);
  const std::vector<double> f = {1 + 0x1p-23, 1 - 0x1p-23, -1};
  CHECK(evaluateMad(f, Format::Float, Rounding::RTE, true).value == -0x1p-46);
  CHECK(evaluateMad(f, Format::Float, Rounding::RTE, false).value == 0.0);
  CHECK(evaluate(MathFn::mad, f, Format::Float).value == -0x1p-46);
  // The choice mad selects which of the two evaluate() gives (a·b = 1 - 2^-46 exactly: fused -2^-46, unfused 0).
  Choices unfused;
  unfused.set("mad=unfused");
  CHECK(evaluate(MathFn::mad, f, Format::Float, Rounding::RTE, unfused).value == 0.0);
  CHECK(evaluateExact(MathFn::mad, f, Format::Float, Rounding::RTE, unfused).value == 0.0);
  CHECK(evaluate(MathFn::mad, f, Format::Float, Rounding::RTE, Choices{}).value == -0x1p-46);
}

TEST_CASE("exactDecimal prints the exact value", "[numerics][math]") {
  CHECK(exactDecimal(MathFn::sin, std::vector<double>{1.0}, Format::Double) ==
        "8.414709848078965066525023216302989996226e-01");
  CHECK(exactDecimal(MathFn::exp, std::vector<double>{1.0}, Format::Float, 10) == "2.718281828e+00");
  CHECK(exactDecimal(MathFn::sqrt, std::vector<double>{4.0}, Format::Float) == "2e+00");
  CHECK(exactDecimal(MathFn::fma, std::vector<double>{0.1, 1.0, 0.0}, Format::Double) ==
        "1.000000000000000055511151231257827021181583404541015625e-01");
  CHECK(exactDecimal(MathFn::log, std::vector<double>{0.0}, Format::Float) == "-inf");
  CHECK(exactDecimal(MathFn::sqrt, std::vector<double>{-1.0}, Format::Float) == "nan");
  CHECK(exactDecimal(MathFn::sinpi, std::vector<double>{-2.0}, Format::Float) == "-0");
  CHECK(exactDecimal(MathFn::ilogb, std::vector<double>{0.0}, Format::Float) == std::to_string(INT_MIN));
  CHECK(exactDecimal(MathFn::exp, std::vector<double>{1000.0}, Format::Float, 5) == "1.9701e+434");
  CHECK(exactDecimal(MathFn::fract, std::vector<double>{-0x1p-20}, Format::Float) == "9.9999904632568359375e-01");
  // 1 - 2^-30 is above the clamp C = 1 - 2^-24: the exact value of fmin(x - floor(x), C) is C.
  CHECK(exactDecimal(MathFn::fract, std::vector<double>{-0x1p-30}, Format::Float) == "9.99999940395355224609375e-01");
  CHECK(exactDecimal(MathFn::degrees, std::vector<double>{1.0}, Format::Double, 20) == "5.7295779513082320877e+01");
}

TEST_CASE("evaluate restores MPFR's exponent range and is usable from many threads", "[numerics][math]") {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  evaluate(MathFn::exp, std::vector<double>{1.0}, Format::Half, Rounding::RTN);
  evaluate(MathFn::degrees, std::vector<double>{1.0}, Format::Float);
  evaluate(MathFn::fract, std::vector<double>{-0.5}, Format::Float);
  evaluateMad(std::vector<double>{1, 2, 3}, Format::Double, Rounding::RTE, false);
  exactDecimal(MathFn::sin, std::vector<double>{1.0}, Format::Double);
  CHECK(mpfr_get_emin() == emin);
  CHECK(mpfr_get_emax() == emax);
  Mismatches bad;
  parallelFor(
      40000,
      [&](uint64_t b, uint64_t e) {
        for (uint64_t i = b; i < e; ++i) {
          const double x = double(i) / 64;
          const double want = double(float(std::sin(x)));  // the host's sin is within 1 ulp of double
          const double got = evaluate(MathFn::sin, std::vector<double>{double(float(x))}, Format::Float).value;
          // ilogb(0) is FP_ILOGB0 (INT_MIN): a zero result must be matched exactly.
          const bool off = want == 0 ? got != 0 : std::fabs(got - want) > std::ldexp(1.0, std::ilogb(want) - 22);
          if (off) bad.add(hexDouble(x));
        }
      },
      1000);
  INFO(bad.report());
  CHECK(bad.count() == 0);
}
