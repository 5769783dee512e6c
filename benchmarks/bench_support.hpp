// What the benchmark programs share: reading a kernel's source and timing repeated runs (wall time; the benchmarks
// are programs that print, never timed tests).
#pragma once
#include <time.h>

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

// The process's CPU time (all its threads) in milliseconds.
inline double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Runs f `runs` times (after one untimed warm-up run when warmUp, e.g. so that the first run's lowering is not
// counted) and returns the best and the median wall time, or with `cpu` the process's CPU time (for a one-thread
// run on a machine others load: time spent waiting for a core is not counted).
template <class F> Timing timeRuns(int runs, F&& f, bool warmUp, bool cpu = false) {
  using Clock = std::chrono::steady_clock;
  if (warmUp) f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    const double cpuStart = cpu ? processCpuMs() : 0;
    f();
    ms.push_back(cpu ? processCpuMs() - cpuStart
                     : std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

}  // namespace clref::bench
