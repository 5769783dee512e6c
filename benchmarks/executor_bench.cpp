// Executor benchmark: vadd over 2^20 floats, naive 256×256 float matmul, a local-memory
// reduction over 2^22 ints and a math-heavy kernel over 2^18 floats, through the host API. Prints wall time and
// work-items/s; checks the results against a host computation so a fast wrong answer cannot pass unnoticed.
//
//   clref_bench [--threads N] [--runs N] [--only vadd|matmul|reduce|math_heavy] [--checks races,uninitialized|all]
//               [--build-checks races,uninitialized|all] [--options "BUILD OPTIONS"] [--cpu] [KERNELS_DIR]
//
// --cpu times the runs by the process's CPU time instead of wall time (with --threads 1 on a shared machine).
//
// --checks runs the optional checkers (issue 11's cost measurement: compare with --threads 1, as a checked run
// uses one thread). The uninitialised-value checker builds its programs unoptimised, with the variables promoted
// afterwards (compiler/opencl_c.cpp), which is slower code than a plain build's: --build-checks all (without
// --checks) compiles the programs as a checked device would and runs them plainly, the plain run of the same code,
// so that the ratio to a --checks all run is the checkers' own cost; a plain run without it is what a user compares.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "benchmarks/bench_support.hpp"

using namespace clref;
using bench::readFile;

namespace {

void report(const char* name, double ms, double items, bool ok) {
  std::printf("%-22s %10.1f ms %14.3g work-items/s  %s\n", name, ms, items / (ms / 1e3),
              ok ? "verified" : "WRONG RESULT");
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = CLREF_BENCH_KERNELS;
  host::DeviceConfig cfg;
  int runs = 3;
  std::string only;     // --only vadd|matmul|reduce
  std::string options = "-cl-std=CL1.2";  // --options: build options for every kernel
  std::optional<interpreter::CheckSet> buildChecks;
  bool cpu = false;  // --cpu  // --build-checks: compile as a device with these checks would
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      cfg.threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--checks") && i + 1 < argc)
      cfg.checks = interpreter::parseChecks(argv[++i]);
    else if (!std::strcmp(argv[i], "--build-checks") && i + 1 < argc)
      buildChecks = interpreter::parseChecks(argv[++i]);
    else if (!std::strcmp(argv[i], "--cpu"))
      cpu = true;
    else if (!std::strcmp(argv[i], "--options") && i + 1 < argc)
      options = argv[++i];
    else
      dir = argv[i];
  }
  host::Device device(cfg);
  // The programs: compiled for `device`, or for a device with the --build-checks checkers and loaded into `device`.
  auto compile = [&](const std::string& file) {
    if (!buildChecks) return host::Program::fromOpenCLC(device, readFile(dir + "/" + file), options);
    host::DeviceConfig builder = cfg;
    builder.checks = *buildChecks;
    const auto built = host::Program::fromOpenCLC(host::Device(builder), readFile(dir + "/" + file), options);
    return host::Program::fromSpirv(device, built->spirv(), built->sourceNames());
  };
  bool allOk = true;

  if (only.empty() || only == "vadd") {  // vadd over 2^20 floats
    const size_t n = size_t(1) << 20;
    auto prog = compile("vadd.cl");
    host::Kernel k(prog, "vadd");
    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i) * 0.25f;
      b[i] = 1.0f / float(i + 1);
    }
    auto A = std::make_shared<host::Buffer>(a.data(), n * 4), B = std::make_shared<host::Buffer>(b.data(), n * 4);
    auto C = std::make_shared<host::Buffer>(n * 4);
    k.setArg(0, A);
    k.setArg(1, B);
    k.setArg(2, C);
    if (k.argCount() > 3) k.setArg(3, uint32_t(n));
    host::NDRange r;
    r.global = {n, 1, 1};
    r.local = std::array<size_t, 3>{256, 1, 1};
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, false, cpu);
    auto c = C->as<float>();
    for (size_t i = 0; i < n; ++i) ok = ok && c[i] == a[i] + b[i];
    report("vadd 2^20 float", t.bestMs, double(n), ok);
    allOk = allOk && ok;
  }
  if (only.empty() || only == "matmul") {  // naive matmul 256×256
    const size_t n = 256;
    auto prog = compile("matmul.cl");
    host::Kernel k(prog, "matmul");
    std::vector<float> a(n * n), b(n * n);
    for (size_t i = 0; i < n * n; ++i) {
      a[i] = float(int(i % 17) - 8) / 8;
      b[i] = float(int(i % 13) - 6) / 4;
    }
    auto A = std::make_shared<host::Buffer>(a.data(), n * n * 4),
         B = std::make_shared<host::Buffer>(b.data(), n * n * 4);
    auto C = std::make_shared<host::Buffer>(n * n * 4);
    k.setArg(0, A);
    k.setArg(1, B);
    k.setArg(2, C);
    k.setArg(3, int32_t(n));
    host::NDRange r;
    r.dims = 2;
    r.global = {n, n, 1};
    r.local = std::array<size_t, 3>{16, 16, 1};
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, false, cpu);
    // The inputs are small multiples of 1/8 and 1/4: every product and partial sum is exact
    // in binary32, so fused or not, the result is the exact sum.
    auto c = C->as<float>();
    for (size_t row = 0; row < n && ok; ++row)
      for (size_t col = 0; col < n; ++col) {
        double s = 0;
        for (size_t kk = 0; kk < n; ++kk) s += double(a[row * n + kk]) * double(b[kk * n + col]);
        ok = ok && c[row * n + col] == float(s);
      }
    report("matmul 256x256 float", t.bestMs, double(n * n), ok);
    allOk = allOk && ok;
  }
  if (only.empty() || only == "reduce") {  // local-memory reduction over 2^22 ints, work-groups of 256
    const size_t n = size_t(1) << 22, wg = 256;
    auto prog = compile("reduce.cl");
    host::Kernel k(prog, "reduce");
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = int32_t(i % 1000) - 500;
    auto In = std::make_shared<host::Buffer>(in.data(), n * 4);
    auto Out = std::make_shared<host::Buffer>(n / wg * 4);
    k.setArg(0, In);
    k.setArg(1, Out);
    k.setArgLocal(2, wg * 4);
    if (k.argCount() > 3) k.setArg(3, uint32_t(n));
    host::NDRange r;
    r.global = {n, 1, 1};
    r.local = std::array<size_t, 3>{wg, 1, 1};
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, false, cpu);
    auto out = Out->as<int32_t>();
    for (size_t g = 0; g < n / wg; ++g) {
      int64_t s = 0;
      for (size_t i = 0; i < wg; ++i) s += in[g * wg + i];
      ok = ok && out[g] == s;
    }
    report("reduce 2^22 int", t.bestMs, double(n), ok);
    allOk = allOk && ok;
  }
  if (only.empty() || only == "math_heavy") {  // sin, exp, cos, divisions and a mad per element over 2^18 floats
    const size_t n = size_t(1) << 18;
    auto prog = compile("math_heavy.cl");
    host::Kernel k(prog, "math_heavy");
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {  // x in [-1, 2], y in [4.25, 10.25]: no division by zero, exp in range
      x[i] = 0.5f + 0.03125f * float(int(i % 97) - 48);
      y[i] = 7.25f + 0.0625f * float(int(i % 89) - 48);
    }
    auto X = std::make_shared<host::Buffer>(x.data(), n * 4), Y = std::make_shared<host::Buffer>(y.data(), n * 4);
    auto Out = std::make_shared<host::Buffer>(n * 4);
    k.setArg(0, X);
    k.setArg(1, Y);
    k.setArg(2, Out);
    host::NDRange r;
    r.global = {n, 1, 1};
    r.local = std::array<size_t, 3>{64, 1, 1};
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, false, cpu);
    // Against binary64 on the host: each term is within a few binary32 roundings of it, so the difference is bounded
    // by a small multiple of the terms' magnitudes (a wrong function or operand is off by far more).
    auto out = Out->as<float>();
    for (size_t i = 0; i < n; ++i) {
      const double a = x[i], b = y[i];
      const double p = std::sin(a) * std::exp(b) * (a / b), q = std::cos(b) / (1 + a * a);
      const double ref = p + a + q, scale = std::fabs(p) + std::fabs(a) + std::fabs(q);
      ok = ok && std::fabs(double(out[i]) - ref) <= 1e-6 * scale;
    }
    report("math_heavy 2^18 float", t.bestMs, double(n), ok);
    allOk = allOk && ok;
  }
  return allOk ? 0 : 1;
}
