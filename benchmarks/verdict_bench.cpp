// A verdict pass over all 2^32 float inputs of a unary function (issue 3, "Performance"): the
// host libm's sinf, expf and logf are the implementations under test, judged against the full
// profile (sin <= 4 ulp, exp <= 3 ulp, log <= 3 ulp). Prints the time, the number of
// disallowed results and the worst error among them.
//   clref_verdict_bench [sin|exp|log ...] [--threads N] [--first BITS] [--count N]   (default: all three, all inputs)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "numerics/verdict.hpp"

using namespace clref::numerics;

int main(int argc, char** argv) {
  std::vector<std::string> names;
  unsigned threads = 2;
  uint64_t count = uint64_t(1) << 32, first = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--count") && i + 1 < argc)
      count = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--first") && i + 1 < argc)
      first = std::strtoull(argv[++i], nullptr, 0);
    else
      names.push_back(argv[i]);
  }
  if (names.empty()) names = {"sin", "exp", "log"};
  for (const auto& name : names) {
    float (*impl)(float) = nullptr;
    MathFn f;
    if (name == "sin")
      impl = sinf, f = MathFn::sin;
    else if (name == "exp")
      impl = expf, f = MathFn::exp;
    else if (name == "log")
      impl = logf, f = MathFn::log;
    else {
      std::fprintf(stderr, "unknown function %s (sin, exp, log)\n", name.c_str());
      return 2;
    }
    const ObservedFloats observed = [impl](uint32_t first, std::span<float> out) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = impl(std::bit_cast<float>(uint32_t(first + i)));
    };
    const auto t0 = std::chrono::steady_clock::now();
    const VerdictPass p = judgeAllFloat(f, Profile::Full, {}, observed, threads, first, first + count);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "%sf vs full profile: %llu inputs in %.1f s (%.1f M/s, %u threads); %llu through MPFR; "
        "%llu disallowed",
        name.c_str(), (unsigned long long)p.inputs, s, double(p.inputs) / s / 1e6, threads,
        (unsigned long long)p.exactPath, (unsigned long long)p.disallowed);
    if (p.disallowed)
      std::printf(", worst %.3f ulp at %a (observed %a)", p.worstErrorUlps, double(std::bit_cast<float>(p.worstInput)),
                  double(p.worstObserved));
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
