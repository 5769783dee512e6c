// Peak memory of a large launch (issue 35: a 2^26-element vadd at most its buffers' bytes plus 64 MiB, no state per
// work-item beyond the work-groups in flight): vadd over N floats (2^26 unless given) through the host API, the
// inputs written in place into the device's buffers so that the program holds no copy of its own. Prints the
// process's peak resident set (getrusage ru_maxrss) before and after the launch, the buffers' bytes, and the peak
// beyond the buffers; checks the result.
//
//   clref_peak_memory_bench [--log2 N] [--threads N] [--checks races,uninitialized|all] [KERNELS_DIR]
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "host/host.hpp"
#include "benchmarks/bench_support.hpp"

using namespace clref;

namespace {

double peakMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024;  // kilobytes on Linux
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = CLREF_BENCH_KERNELS;
  host::DeviceConfig cfg;
  unsigned log2 = 26;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--log2") && i + 1 < argc)
      log2 = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      cfg.threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--checks") && i + 1 < argc)
      cfg.checks = interpreter::parseChecks(argv[++i]);
    else
      dir = argv[i];
  }
  const size_t n = size_t(1) << log2;
  host::Device device(cfg);
  auto prog = host::Program::fromOpenCLC(device, bench::readFile(dir + "/vadd.cl"));
  host::Kernel k(prog, "vadd");
  auto A = std::make_shared<host::Buffer>(n * 4), B = std::make_shared<host::Buffer>(n * 4);
  auto C = std::make_shared<host::Buffer>(n * 4);
  // Values whose sums are exact in binary32 and differ from element to element.
  auto a = A->as<float>(), b = B->as<float>();
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i & 0xffff);
    b[i] = float(i >> 16) * 0.5f;
  }
  std::memset(C->data(), 0, n * 4);  // touched, so that the output's pages count before the launch as after it
  k.setArg(0, A);
  k.setArg(1, B);
  k.setArg(2, C);
  if (k.argCount() > 3) k.setArg(3, uint32_t(n));
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{256, 1, 1};
  const double before = peakMiB();
  bool ran = false;
  const auto t = bench::timeRuns(1, [&] { ran = k.run(r).ok; }, false);
  const double after = peakMiB();
  auto c = C->as<float>();
  bool ok = ran;
  for (size_t i = 0; i < n && ok; ++i) ok = c[i] == a[i] + b[i];
  const double buffers = double(3 * n * 4) / (1 << 20);
  std::printf("vadd 2^%u float: %.1f ms; peak RSS %.1f MiB before the launch, %.1f MiB after; buffers %.1f MiB, "
              "peak beyond them %.1f MiB  %s\n",
              log2, t.bestMs, before, after, buffers, after - buffers, ok ? "verified" : "WRONG RESULT");
  return ok ? 0 : 1;
}
