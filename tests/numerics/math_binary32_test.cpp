// The binary32 kernels of the fast path (numerics/math_binary32.cpp: sin, cos, exp, log, pow from binary64
// polynomials with proven error bounds): each interval [value − error, value + error] must hold the exact value
// (MPFR at 256 bits) with room to spare, on random operands and on operands chosen where the argument reductions
// and the polynomials are at their worst; and evaluate, which answers from these intervals when they decide the
// rounding, must equal pure MPFR (evaluateExact) bit for bit in every mode, exact results and rounding boundaries
// included.
#include <mpfr.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "numerics/math_internal.hpp"

using namespace clref::numerics;

namespace {

const MathFn kKernels[] = {MathFn::sin, MathFn::cos, MathFn::exp, MathFn::log, MathFn::pow};

struct Operands {
  double x, y;
};

// f(x[, y]) at 256 bits: an independent reference (MPFR's own functions, correctly rounded at that precision).
void exact256(MathFn f, Operands a, mpfr_t out) {
  mpfr_t x, y;
  mpfr_inits2(256, x, y, (mpfr_ptr) nullptr);
  mpfr_set_d(x, a.x, MPFR_RNDN);
  mpfr_set_d(y, a.y, MPFR_RNDN);
  switch (f) {
    case MathFn::sin: mpfr_sin(out, x, MPFR_RNDN); break;
    case MathFn::cos: mpfr_cos(out, x, MPFR_RNDN); break;
    case MathFn::exp: mpfr_exp(out, x, MPFR_RNDN); break;
    case MathFn::log: mpfr_log(out, x, MPFR_RNDN); break;
    default: mpfr_pow(out, x, y, MPFR_RNDN); break;
  }
  mpfr_clears(x, y, (mpfr_ptr) nullptr);
}

float randomFloat(std::mt19937_64& rng) { return std::bit_cast<float>(uint32_t(rng())); }

// The float `steps` floats away from v (towards +inf for steps > 0).
float stepFrom(float v, int steps) {
  for (; steps > 0; --steps) v = std::nextafter(v, INFINITY);
  for (; steps < 0; ++steps) v = std::nextafter(v, -INFINITY);
  return v;
}

// Operands of f where the kernel answers: random ones over its whole domain, and the hard places.
std::vector<Operands> operandsOf(MathFn f, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<Operands> out;
  auto add = [&](double x, double y = 0) { out.push_back({double(float(x)), double(float(y))}); };
  for (int i = 0; i < count; ++i) {
    switch (f) {
      case MathFn::sin:
      case MathFn::cos: {
        float x;
        do x = randomFloat(rng);
        while (!(std::fabs(x) < 0x1p20f) || x == 0);
        add(x);
        // Next to a multiple of π/2, where the reduced argument is smallest and its absolute error matters most.
        const double k = std::floor(unit(rng) * 0x1p20 * 2 / M_PI) * (rng() & 1 ? 1 : -1);
        const float near = stepFrom(float(k * M_PI_2), int(rng() % 7) - 3);
        if (near != 0 && std::fabs(near) < 0x1p20f) add(near);
        break;
      }
      case MathFn::exp: {
        add(-110 + 200 * unit(rng));
        // Next to the reduction's breakpoints k·ln2/64 (|r| largest there), and tiny operands.
        const double k = std::floor(-110 * 64 / M_LN2 + unit(rng) * 200 * 64 / M_LN2);
        add(stepFrom(float((k + 0.5) * M_LN2 / 64), int(rng() % 5) - 2));
        add(std::ldexp(unit(rng) - 0.5, -int(rng() % 140)));
        break;
      }
      case MathFn::log: {
        float x;
        do x = randomFloat(rng);
        while (!(x > 0) || std::isinf(x));
        add(x);
        // Next to 1 (the result near 0) and at the edges of the table's intervals (|ρ| largest).
        add(stepFrom(1.0f, int(rng() % 4001) - 2000));
        const int i = int(rng() % 129);
        add(std::ldexp(stepFrom(float(1 + i / 128.0), int(rng() % 5) - 2), int(rng() % 250) - 125));
        break;
      }
      default: {
        // Bases anywhere, exponents so that y·log x is within the kernel's range; bases next to 1 with large
        // exponents (y·log x then depends on log x's relative error); integer exponents.
        float x;
        do x = randomFloat(rng);
        while (!(x > 0) || std::isinf(x));
        const double range = 100 / std::max(std::fabs(std::log(double(x))), 1e-30);
        add(x, (2 * unit(rng) - 1) * std::min(range, 1e30));
        const float nearOne = stepFrom(1.0f, int(rng() % 2001) - 1000);
        if (nearOne != 1) add(nearOne, (2 * unit(rng) - 1) * 100 / std::fabs(std::log(double(nearOne))));
        add(0.01 + 100 * unit(rng), double(int(rng() % 41) - 20));
        break;
      }
    }
  }
  return out;
}

// The float value of v in the format (random operands are floats; binary16's are their halves).
double inFormat(double v, Format format) { return format == Format::Half ? toDouble(toHalf(v)) : v; }

bool sameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

}  // namespace

TEST_CASE("binary32 kernels: the exact value lies within half the error bound", "[math][fast][binary32]") {
  mpfr_t exact, diff;
  mpfr_inits2(256, exact, diff, (mpfr_ptr) nullptr);
  for (MathFn f : kKernels) {
    uint64_t answered = 0, outside = 0, loose = 0, total = 0;
    for (const Operands& a : operandsOf(f, 20000, 7 + uint64_t(f))) {
      const auto k = detail::binary32Kernel(f, a.x, a.y);
      ++total;
      if (!k) continue;
      ++answered;
      exact256(f, a, exact);
      mpfr_sub_d(diff, exact, k->value, MPFR_RNDN);  // exact at 256 bits for these magnitudes, or nearly
      mpfr_abs(diff, diff, MPFR_RNDU);
      // Half the bound: fastBinary32 rounds value ± error to binary64 (half an ulp of value), which the margin
      // must absorb.
      if (mpfr_cmp_d(diff, k->error / 2) > 0) {
        if (outside < 5)
          UNSCOPED_INFO(nameOf(f) << "(" << a.x << ", " << a.y << "): value " << k->value << " error bound " << k->error
                                  << " actual " << mpfr_get_d(diff, MPFR_RNDU));
        ++outside;
      }
      // The bound is tight enough that the fast path decides nearly always (a float's ulp is 2^-23 relative).
      if (!(k->error <= 0x1p-38 * std::fabs(k->value) + 0x1p-88)) ++loose;
    }
    INFO(nameOf(f) << ": " << answered << " of " << total << " answered");
    CHECK(outside == 0);
    CHECK(loose == 0);
    CHECK(answered >= total * 95 / 100);
  }
  mpfr_clears(exact, diff, (mpfr_ptr) nullptr);
}

TEST_CASE("binary32 kernels decline special operands and arguments beyond their proven ranges",
          "[math][fast][binary32]") {
  for (double x : {0.0, -0.0, 0x1p20, -0x1p20, 1e30, double(INFINITY), double(NAN)})
    CHECK_FALSE(detail::binary32Kernel(MathFn::sin, x, 0).has_value());
  for (double x : {0x1p20, 1e30, double(INFINITY), double(NAN)})
    CHECK_FALSE(detail::binary32Kernel(MathFn::cos, x, 0).has_value());
  for (double x : {-111.0, 91.0, double(-INFINITY), double(NAN)})
    CHECK_FALSE(detail::binary32Kernel(MathFn::exp, x, 0).has_value());
  // log's reduction needs at most 33 significant bits and a normal binary64 operand.
  for (double x : {0.0, -0.0, -1.0, double(INFINITY), double(NAN), 1 + 0x1p-52, 0x1p-1074, 1 + 0x1p-33})
    CHECK_FALSE(detail::binary32Kernel(MathFn::log, x, 0).has_value());
  CHECK(detail::binary32Kernel(MathFn::log, 1 + 0x1p-32, 0).has_value());
  for (auto [x, y] : {std::pair{0.0, 2.0},
                      {-2.0, 2.0},
                      {2.0, 1e6},
                      {2.0, double(INFINITY)},
                      {double(INFINITY), 1.0},
                      {1 + 0x1p-52, 2.0}})
    CHECK_FALSE(detail::binary32Kernel(MathFn::pow, x, y).has_value());
  CHECK_FALSE(detail::binary32Kernel(MathFn::tan, 1.0, 0).has_value());
}

// evaluate against evaluateExact on `count` operands of f from operandsOf (as values of `format`); the number of
// mismatches, and in `decided` how many of the `total` operands the fast path decided. The slow executable runs it
// on 10^7 per function.
uint64_t compareBinary32WithMpfr(MathFn f, Format format, Rounding r, int count, uint64_t seed, uint64_t& decided,
                                 uint64_t& total) {
  uint64_t mismatches = 0;
  decided = 0;
  total = 0;
  for (Operands a : operandsOf(f, count, seed)) {
    ++total;
    a = {inFormat(a.x, format), inFormat(a.y, format)};
    const double args[2] = {a.x, a.y};
    const std::span<const double> span{args, size_t(arity(f))};
    const MathResult fast = evaluate(f, span, format, r), exact = evaluateExact(f, span, format, r);
    if (!std::isnan(detail::fastBinary32(f, span, format, r))) ++decided;
    if (!sameBits(fast.value, exact.value) || fast.integer != exact.integer || fast.decidedBy != exact.decidedBy) {
      if (mismatches < 5)
        UNSCOPED_INFO(nameOf(f) << "(" << a.x << ", " << a.y << "): " << fast.value << " vs " << exact.value);
      ++mismatches;
    }
  }
  return mismatches;
}

TEST_CASE("evaluate through the binary32 kernels equals pure MPFR in every mode", "[math][fast][binary32]") {
  for (MathFn f : kKernels)
    for (Format format : {Format::Float, Format::Half})
      for (Rounding r : {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN}) {
        const int count = format == Format::Half ? 300 : 1000;
        uint64_t decided = 0, total = 0;
        INFO(nameOf(f) << " format " << int(format) << " mode " << int(r));
        CHECK(compareBinary32WithMpfr(f, format, r, count, 99 + uint64_t(f), decided, total) == 0);
        // Random operands almost never lie near a rounding boundary: in round to nearest the fast path decides
        // binary32 ones. (The directed modes leave more to MPFR: sin x and cos x of tiny x are within binary64's
        // precision of a float, which is a rounding boundary there; and most float operands are 0 or infinite
        // as binary16 values, special operands the kernels leave to the exact path.)
        if (r == Rounding::RTE && format == Format::Float) CHECK(decided >= total * 9 / 10);
      }
}

TEST_CASE("exact results and rounding boundaries: the binary32 fast path declines them or gets them right",
          "[math][fast][binary32]") {
  // pow((2^12 + 1)/2^12, 2) = 1 + 2^-11 + 2^-24 is a midpoint between two floats: round to nearest needs the tie
  // rule, which only the exact path knows; the interval around it must not decide.
  const double m = 1 + 0x1p-12;
  const double midpoint[2] = {m, 2};
  CHECK(std::isnan(detail::fastBinary32(MathFn::pow, midpoint, Format::Float, Rounding::RTE)));
  // Exact results: pow(2, 3) = 8, pow(9, 0.5) = 3, pow(x, 1) = x, pow(x, 0) = 1, exp(0) = 1, log(1) = 0,
  // cos(0) = 1, and the midpoint: every mode, both formats, compared with pure MPFR.
  const std::vector<std::pair<MathFn, Operands>> cases = {
      {MathFn::pow, {m, 2}},        {MathFn::pow, {2, 3}},       {MathFn::pow, {9, 0.5}},
      {MathFn::pow, {0.15625, 1}},  {MathFn::pow, {3, 0}},       {MathFn::pow, {1, 12345}},
      {MathFn::pow, {0.5, -126}},   {MathFn::pow, {0.5, 149}},   {MathFn::pow, {0.5, 150}},
      {MathFn::exp, {0, 0}},        {MathFn::log, {1, 0}},       {MathFn::cos, {0, 0}},
      {MathFn::cos, {-0.0, 0}},     {MathFn::exp, {-103.97, 0}}, {MathFn::exp, {88.72283935546875, 0}},
      {MathFn::log, {0x1p-149, 0}}, {MathFn::log, {FLT_MAX, 0}}, {MathFn::sin, {0x1p-149, 0}},
      {MathFn::sin, {-0x1p-126, 0}}};
  for (const auto& [f, a] : cases)
    for (Format format : {Format::Float, Format::Half})
      for (Rounding r : {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN}) {
        const double args[2] = {inFormat(a.x, format), inFormat(a.y, format)};
        const std::span<const double> span{args, size_t(arity(f))};
        INFO(nameOf(f) << "(" << args[0] << ", " << args[1] << ") format " << int(format) << " mode " << int(r));
        CHECK(sameBits(evaluate(f, span, format, r).value, evaluateExact(f, span, format, r).value));
      }
}

// evaluate's contract gives it values of the format, but the kernels' proofs cover any binary64 operand (log's with
// at most 33 significant bits): the result is still f's exact value rounded once.
TEST_CASE("binary32 kernels on binary64 operands that are not floats equal pure MPFR", "[math][fast][binary32]") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> trig(-1e5, 1e5), ex(-110, 90), pos(1e-3, 1e3), e(-10, 10);
  uint64_t mismatches = 0;
  for (int i = 0; i < 2000; ++i) {
    const double log33 = std::bit_cast<double>(std::bit_cast<uint64_t>(pos(rng)) & ~uint64_t(0xfffff));
    const std::pair<MathFn, Operands> cases[] = {{MathFn::sin, {trig(rng), 0}},
                                                 {MathFn::cos, {trig(rng), 0}},
                                                 {MathFn::exp, {ex(rng), 0}},
                                                 {MathFn::log, {log33, 0}},
                                                 {MathFn::pow, {log33, e(rng)}}};
    for (const auto& [f, a] : cases) {
      const double args[2] = {a.x, a.y};
      const std::span<const double> span{args, size_t(arity(f))};
      if (!sameBits(evaluate(f, span, Format::Float).value, evaluateExact(f, span, Format::Float).value)) {
        if (mismatches < 5) UNSCOPED_INFO(nameOf(f) << "(" << a.x << ", " << a.y << ")");
        ++mismatches;
      }
    }
  }
  CHECK(mismatches == 0);
}
