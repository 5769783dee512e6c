// Correctly rounded float results per second per core for sin, cos, exp, log and pow: the
// evaluate() path (binary64 fast path with MPFR fallback) next to MPFR alone (evaluateExact).
//
//   clref_math_bench [--count N]
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "numerics/math.hpp"

using namespace clref::numerics;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  size_t count = 2'000'000;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--count")) count = size_t(std::atoll(argv[++i]));
  std::mt19937_64 rng(1);
  // Inputs where the results are ordinary: |x| < 100 for sin/cos, exp's range, log of
  // positive values, pow of a positive base with moderate exponents.
  std::vector<double> x(count), y(count);
  std::uniform_real_distribution<float> trig(-100, 100), ex(-80, 80), pos(1e-30f, 1e30f), base(0.01f, 100), e(-10, 10);
  std::printf("%-6s %16s %16s %10s\n", "func", "evaluate /s", "MPFR only /s", "speed-up");
  for (MathFn f : {MathFn::sin, MathFn::cos, MathFn::exp, MathFn::log, MathFn::pow}) {
    for (size_t i = 0; i < count; ++i) {
      switch (f) {
        case MathFn::exp: x[i] = ex(rng); break;
        case MathFn::log: x[i] = pos(rng); break;
        case MathFn::pow:
          x[i] = base(rng);
          y[i] = e(rng);
          break;
        default: x[i] = trig(rng); break;
      }
    }
    auto rate = [&](auto&& eval, size_t n) {
      double sink = 0;
      const auto start = Clock::now();
      for (size_t i = 0; i < n; ++i) {
        double args[2] = {x[i], y[i]};
        sink += eval(f, std::span<const double>(args, size_t(arity(f))), Format::Float, Rounding::RTE).value;
      }
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      if (sink == 12345.678) std::puts("");  // keep the results alive
      return double(n) / s;
    };
    const double fast = rate([](auto... a) { return evaluate(a...); }, count);
    const double slow = rate([](auto... a) { return evaluateExact(a...); }, count / 20);
    std::printf("%-6s %16.3g %16.3g %9.1fx\n", std::string(nameOf(f)).c_str(), fast, slow, fast / slow);
  }
  return 0;
}
