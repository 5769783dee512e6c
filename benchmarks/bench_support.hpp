// What the benchmark programs share: reading a kernel's source and timing repeated runs (wall time; the benchmarks
// are programs that print, never timed tests).
#pragma once
#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace clref::bench {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Timing {
  double bestMs = 0, medianMs = 0;  // 0 when nothing ran
};

// Runs f `runs` times (after one untimed warm-up run when warmUp, e.g. so that the first run's lowering is not
// counted) and returns the best and the median wall time.
template <class F> Timing timeRuns(int runs, F&& f, bool warmUp) {
  using Clock = std::chrono::steady_clock;
  if (warmUp) f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

}  // namespace clref::bench
