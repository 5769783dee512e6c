// The binary64 fast path of numerics::evaluate (math_fast.cpp) must give exactly what MPFR
// alone gives (evaluateExact): compared bit for bit on random inputs in every rounding mode.
// The default run samples; the `slow` executable checks 10^8 inputs per function.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "numerics/math.hpp"

using namespace clref::numerics;

namespace {

// The same value, or both NaN.
bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// A random value of `format`, from its bit patterns (so every binade and sign is covered).
double randomValue(std::mt19937_64& rng, Format format) {
  if (format == Format::Half) return toDouble(Half{uint16_t(rng())});
  return double(std::bit_cast<float>(uint32_t(rng())));
}

const MathFn kFast[] = {MathFn::sin,      MathFn::cos,        MathFn::tan,      MathFn::exp,      MathFn::exp2,
                        MathFn::exp10,    MathFn::expm1,      MathFn::log,      MathFn::log2,     MathFn::log10,
                        MathFn::log1p,    MathFn::asin,       MathFn::acos,     MathFn::atan,     MathFn::asinh,
                        MathFn::acosh,    MathFn::atanh,      MathFn::sinh,     MathFn::cosh,     MathFn::tanh,
                        MathFn::cbrt,     MathFn::erf,        MathFn::erfc,     MathFn::tgamma,   MathFn::lgamma,
                        MathFn::lgamma_r, MathFn::asinpi,     MathFn::acospi,   MathFn::atanpi,   MathFn::atan2pi,
                        MathFn::pow,      MathFn::pown,       MathFn::powr,     MathFn::rootn,    MathFn::atan2,
                        MathFn::hypot,    MathFn::native_sin, MathFn::half_exp, MathFn::half_powr};

}  // namespace

uint64_t compareFastWithMpfr(MathFn f, Format format, Rounding r, uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  uint64_t mismatches = 0;
  double args[2];
  for (uint64_t i = 0; i < count; ++i) {
    for (int k = 0; k < arity(f); ++k) args[k] = randomValue(rng, format);
    // Half of pow's and powr's operands where results are finite and normal, half anywhere (most overflow or
    // underflow); pown's and rootn's n an int, mostly small.
    if ((f == MathFn::pow || f == MathFn::powr || f == MathFn::half_powr) && (i & 1))
      args[1] = std::ldexp(args[1], -int(rng() % 120));
    if (f == MathFn::pown || f == MathFn::rootn)
      args[1] = (i & 3) ? double(int(rng() % 81) - 40) : double(int32_t(rng()));
    const std::span<const double> a{args, size_t(arity(f))};
    const MathResult fastResult = evaluate(f, a, format, r), exactResult = evaluateExact(f, a, format, r);
    const double fast = fastResult.value, exact = exactResult.value;
    if (!same(fast, exact) || fastResult.integer != exactResult.integer) {
      if (mismatches < 5)
        UNSCOPED_INFO(nameOf(f) << "(" << args[0] << (arity(f) > 1 ? ", " + std::to_string(args[1]) : "") << ") mode "
                                << int(r) << ": fast " << fast << " exact " << exact);
      ++mismatches;
    }
  }
  return mismatches;
}

TEST_CASE("the binary64 fast path equals pure MPFR on random float and half inputs in every mode", "[math][fast]") {
  for (MathFn f : kFast)
    for (Format format : {Format::Float, Format::Half})
      for (Rounding r : {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN}) {
        INFO(nameOf(f) << " format " << int(format) << " mode " << int(r));
        CHECK(compareFastWithMpfr(f, format, r, format == Format::Half ? 1000 : 3000, 17 + uint64_t(f)) == 0);
      }
}
