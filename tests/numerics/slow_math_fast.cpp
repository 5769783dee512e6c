// 10^8 random float inputs per function through the fast path, compared with pure MPFR
// (issue #3: "proven equal to pure MPFR on ≥ 10^8 random inputs per function"). Label `slow`.
#include <atomic>
#include <catch2/catch.hpp>
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
