// 10^8 random float inputs per function through the fast path, compared with pure MPFR
// (issue #3: "proven equal to pure MPFR on ≥ 10^8 random inputs per function"). Label `slow`.
#include <atomic>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>
#include <vector>

#include "numerics/math.hpp"

using namespace clref::numerics;

uint64_t compareFastWithMpfr(MathFn f, Format format, Rounding r, uint64_t count, uint64_t seed);

TEST_CASE("fast path equals MPFR on 10^8 random floats: sin, cos, exp, log, pow, pown, rootn, asinh, atan2pi",
          "[slow][math][fast]") {
  const uint64_t total = 100'000'000;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (MathFn f : {MathFn::sin, MathFn::cos, MathFn::exp, MathFn::log, MathFn::pow, MathFn::pown, MathFn::rootn,
                   MathFn::asinh, MathFn::atan2pi}) {
    std::atomic<uint64_t> mismatches{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(
          [&, t] { mismatches += compareFastWithMpfr(f, Format::Float, Rounding::RTE, total / threads, 1000 + t); });
    for (auto& th : pool) th.join();
    INFO(nameOf(f));
    CHECK(mismatches.load() == 0);
  }
}

// lgamma's zeros (1, 2 and one in each interval (-n-1, -n) below -2) and Γ's poles are where a binary64 result's
// relative error could grow: every 64th float of [-6, -2] and [0.5, 3] (a million) through lgamma, lgamma_r and
// tgamma, compared with pure MPFR in every mode.
TEST_CASE("fast path equals MPFR for lgamma, lgamma_r and tgamma on floats near lgamma's zeros", "[slow][math][fast]") {
  const MathFn fns[] = {MathFn::lgamma, MathFn::lgamma_r, MathFn::tgamma};
  const std::pair<float, float> ranges[] = {{-6.0f, -2.0f}, {0.5f, 3.0f}};
  for (MathFn f : fns)
    for (const auto& range : ranges)
      for (Rounding r : {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN}) {
        // Plain variables, not structured bindings: clang 15 cannot capture those in a lambda.
        const float from = range.first, to = range.second;
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        std::atomic<uint64_t> mismatches{0};
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
          pool.emplace_back([&, t] {
            uint64_t n = 0;
            uint64_t i = 0;
            for (float x = from; x <= to; x = std::nextafter(x, to + 1.0f), ++i) {
              if (i % (64 * threads) != 64 * t) continue;
              const double arg = x;
              const std::span<const double> a{&arg, 1};
              const MathResult fast = evaluate(f, a, Format::Float, r), exact = evaluateExact(f, a, Format::Float, r);
              if (std::bit_cast<uint64_t>(fast.value) != std::bit_cast<uint64_t>(exact.value) ||
                  fast.integer != exact.integer)
                ++n;
            }
            mismatches += n;
          });
        for (auto& th : pool) th.join();
        INFO(nameOf(f) << " on [" << from << ", " << to << "] mode " << int(r));
        CHECK(mismatches.load() == 0);
      }
}

uint64_t compareBinary32WithMpfr(MathFn f, Format format, Rounding r, int count, uint64_t seed, uint64_t& decided,
                                 uint64_t& total);

// The binary32 kernels (numerics/math_binary32.cpp) on their own domains, where the random floats of the test above
// rarely fall for sin and cos (|x| < 2^20) or exp: 10^7 operand draws per function (2 to 3 operands each, random
// and chosen next to the reductions' worst places), in round to nearest, against pure MPFR.
TEST_CASE("binary32 kernels equal MPFR on 10^7 operand draws each: sin, cos, exp, log, pow", "[slow][math][fast]") {
  const int total = 10'000'000;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (MathFn f : {MathFn::sin, MathFn::cos, MathFn::exp, MathFn::log, MathFn::pow}) {
    std::atomic<uint64_t> mismatches{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        uint64_t decided = 0, operands = 0;
        mismatches +=
            compareBinary32WithMpfr(f, Format::Float, Rounding::RTE, int(total / threads), 5000 + t, decided, operands);
      });
    for (auto& th : pool) th.join();
    INFO(nameOf(f));
    CHECK(mismatches.load() == 0);
  }
}
