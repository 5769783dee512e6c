// Correctly rounded float results per second per core for sin, cos, exp, log and pow: the
// evaluate() path (binary64 fast path with MPFR fallback) next to MPFR alone (evaluateExact) and
// to glibc's own binary32 functions (sinf, cosf, expf, logf, powf: not correctly rounded in
// general, the speed to compare with) on the same inputs in the same loop; "vs glibc" is the ratio of the two rates.
//
//   clref_math_bench [--count N]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "numerics/math.hpp"

using namespace clref::numerics;
using Clock = std::chrono::steady_clock;

namespace {

// glibc's binary32 function for f (one of the five benchmarked).
float libmFloat(MathFn f, float x, float y) {
  switch (f) {
    case MathFn::sin: return sinf(x);
    case MathFn::cos: return cosf(x);
    case MathFn::exp: return expf(x);
    case MathFn::log: return logf(x);
    default: return powf(x, y);
  }
}

}  // namespace

int main(int argc, char** argv) {
  size_t count = 2'000'000;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--count")) count = size_t(std::atoll(argv[++i]));
  std::mt19937_64 rng(1);
  // Inputs where the results are ordinary: |x| < 100 for sin/cos, exp's range, log of
  // positive values, pow of a positive base with moderate exponents.
  std::vector<double> x(count), y(count);
  std::uniform_real_distribution<float> trig(-100, 100), ex(-80, 80), pos(1e-30f, 1e30f), base(0.01f, 100), e(-10, 10);
  std::printf("%-6s %14s %14s %14s %9s %9s\n", "func", "evaluate /s", "MPFR only /s", "glibc f32 /s", "vs MPFR",
              "vs glibc");
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
    // Each result is added to a sink that is tested afterwards, so no call can be dropped.
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
    // evaluate and glibc alternate, five rounds each, and the best round of each counts: on a shared machine the
    // two are then measured under the same load.
    auto glibc = [](MathFn g, std::span<const double> a, Format, Rounding) {
      return MathResult{double(libmFloat(g, float(a[0]), a.size() > 1 ? float(a[1]) : 0.0f))};
    };
    double fast = 0, libm = 0;
    for (int round = 0; round < 5; ++round) {
      fast = std::max(fast, rate([](auto... a) { return evaluate(a...); }, count));
      libm = std::max(libm, rate(glibc, count));
    }
    const double slow = rate([](auto... a) { return evaluateExact(a...); }, count / 20);
    std::printf("%-6s %14.3g %14.3g %14.3g %8.1fx %8.2fx\n", std::string(nameOf(f)).c_str(), fast, slow, libm,
                fast / slow, fast / libm);
  }
  return 0;
}
