// The shadow mode's cost (allowed-set propagation, interpreter/shadow.hpp; what `clref check` runs): clref_bench's
// kernels and a math-heavy kernel, each timed as a plain one-thread run and as a shadow run (one thread by design),
// with the ratio. The shadow runs' sets are checked to hold clref's own results (a check of the plain run's output
// must find every element identical).
//
//   clref_shadow_bench [--runs N] [--only vadd|matmul|math_heavy|reduce] [KERNELS_DIR]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "host/host.hpp"
#include "benchmarks/bench_support.hpp"
#include "interpreter/shadow.hpp"

using namespace clref;
using bench::readFile;
using numerics::ScalarType;

namespace {

struct Case {
  const char* name;
  const char* file;
  const char* kernel;
  size_t global, local;
  std::vector<std::vector<float>> inputs;  // float buffers, then one float output of `outCount` elements
  size_t outCount;
  std::vector<int32_t> scalars;  // int arguments after the buffers
  size_t localBytes = 0;         // a local buffer argument after the output, when not 0
  ScalarType type = ScalarType::Float;  // of the inputs and the output (Int: each input float's value as an int)
};

std::vector<float> ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * float(int(i % 97) - 48);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = CLREF_BENCH_KERNELS;
  int runs = 3;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else
      dir = argv[i];
  }
  host::DeviceConfig cfg;
  cfg.threads = 1;
  host::Device device(cfg);
  const size_t mm = 128;
  std::vector<Case> cases = {
      {"vadd 2^18 float", "vadd.cl", "vadd", size_t(1) << 18, 256,
       {ramp(size_t(1) << 18, 0.25f, 0), ramp(size_t(1) << 18, 0.125f, 1)}, size_t(1) << 18, {int32_t(1) << 18}},
      {"matmul 128x128 float", "matmul.cl", "matmul", mm * mm, 0, {ramp(mm * mm, 0.125f, 0), ramp(mm * mm, 0.25f, 0)},
       mm * mm, {int32_t(mm)}},
      // Products that round: fused and unfused sums differ, and the sums carry sets from the first lane where they do.
      {"matmul rounding 128x128", "matmul.cl", "matmul", mm * mm, 0, {ramp(mm * mm, 0.1f, 0), ramp(mm * mm, 0.3f, 0)},
       mm * mm, {int32_t(mm)}},
      {"math_heavy 2^14 float", "math_heavy.cl", "math_heavy", size_t(1) << 14, 64,
       {ramp(size_t(1) << 14, 0.03125f, 0.5f), ramp(size_t(1) << 14, 0.0625f, 7.25f)}, size_t(1) << 14, {}},
      {"reduce 2^20 int", "reduce.cl", "reduce", size_t(1) << 20, 256, {ramp(size_t(1) << 20, 1.0f, 0)},
       (size_t(1) << 20) / 256, {int32_t(1) << 20}, 256 * 4, ScalarType::Int},
  };
  bool allOk = true;
  std::printf("%-24s %12s %12s %8s\n", "kernel", "plain ms", "shadow ms", "ratio");
  for (auto& c : cases) {
    if (!only.empty() && only != c.kernel) continue;
    auto prog = host::Program::fromOpenCLC(device, readFile(dir + "/" + c.file));
    host::Kernel k(prog, c.kernel);
    std::vector<std::shared_ptr<host::Buffer>> bufs;
    size_t arg = 0;
    for (auto& in : c.inputs) {
      if (c.type == ScalarType::Int) {
        std::vector<int32_t> ints(in.begin(), in.end());
        bufs.push_back(std::make_shared<host::Buffer>(ints.data(), ints.size() * 4));
      } else {
        bufs.push_back(std::make_shared<host::Buffer>(in.data(), in.size() * 4));
      }
      k.setArg(arg++, bufs.back());
    }
    auto out = std::make_shared<host::Buffer>(c.outCount * 4);
    const size_t outArg = arg;
    k.setArg(arg++, out);
    if (c.localBytes) k.setArgLocal(arg++, c.localBytes);
    for (int32_t s : c.scalars)
      if (arg < k.argCount()) k.setArg(arg++, s);
    host::NDRange r;
    if (std::string(c.kernel) == "matmul") {  // both matmul cases
      r.dims = 2;
      r.global = {mm, mm, 1};
      r.local = std::array<size_t, 3>{16, 16, 1};
    } else {
      r.global = {c.global, 1, 1};
      r.local = std::array<size_t, 3>{c.local, 1, 1};
    }
    bool ok = true;
    const auto plain = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, false);
    const auto* b = reinterpret_cast<const uint8_t*>(out->data());
    const std::vector<uint8_t> reference(b, b + out->size());
    host::CheckReport report;
    // The observed output is built once: copying it is the caller's cost, not the check's.
    const std::vector<host::ObservedBuffer> observed = {{outArg, c.type, reference}};
    const auto shadow = bench::timeRuns(runs, [&] { report = host::check(k, r, observed); }, false);
    ok = ok && report.run.ok && report.buffers.size() == 1 && report.buffers[0].identical == c.outCount;
    std::printf("%-24s %12.1f %12.1f %7.1fx  %s\n", c.name, plain.bestMs, shadow.bestMs, shadow.bestMs / plain.bestMs,
                ok ? "verified" : "WRONG");
    allOk = allOk && ok;
  }
  return allOk ? 0 : 1;
}
