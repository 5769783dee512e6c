// The optional checkers (interpreter/checks/): data races and uninitialised values, through the host API with
// DeviceConfig::checks. Each buggy kernel has a clean twin that differs only by the fix, and must give no finding;
// expected lines are the kernels' own, counted here.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "compile_cl.hpp"
#include "ndrange.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using interpreter::Check;
using interpreter::CheckSet;
using interpreter::FaultKind;
using Catch::Matchers::Contains;

namespace {

bool compilerAvailable() {
  if (host::Program::openCLCCompilerAvailable()) return true;
  WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
  return false;
}

host::Device checkedDevice(CheckSet checks, bool fatal = true) {
  host::DeviceConfig cfg;
  cfg.checks = checks;
  cfg.checksFatal = fatal;
  return host::Device(cfg);
}

CheckSet all() { return CheckSet{}.add(Check::Races).add(Check::Uninitialized); }

using test::range1;  // tests/interpreter/ndrange.hpp

// A kernel of `source` (named checkers.cl in diagnostics, built with -g) on a device with `checks`.
host::Kernel kernelOf(const host::Device& device, const std::string& source, const std::string& name,
                      const std::string& options = "-cl-std=CL1.2") {
  host::OpenCLCSource s;
  s.text = source;
  s.options = {"-g"};
  for (size_t at = 0; at < options.size();) {
    const size_t space = options.find(' ', at);
    s.options.push_back(options.substr(at, space - at));
    at = space == std::string::npos ? options.size() : space + 1;
  }
  s.name = "checkers.cl";
  return host::Kernel(host::Program::fromOpenCLC(device, s), name);
}

std::shared_ptr<host::Buffer> ints(size_t n, int first = 0) {
  auto b = std::make_shared<host::Buffer>(n * sizeof(int));
  for (size_t i = 0; i < n; ++i) b->as<int>()[i] = first + int(i);
  return b;
}

interpreter::Finding onlyFinding(const host::RunResult& r, FaultKind kind) {
  REQUIRE_FALSE(r.fault.has_value());
  for (const auto& f : r.findings) UNSCOPED_INFO(f.format());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].at.kind == kind);
  return r.findings[0];
}

void noFinding(const host::RunResult& r) {
  REQUIRE_FALSE(r.fault.has_value());
  for (const auto& f : r.findings) UNSCOPED_INFO(f.format());
  CHECK(r.findings.empty());
  CHECK(r.ok);
}

const char* kReduce = R"(__kernel void reduce(__global const int* in, __global int* out, __local int* tmp) {
  int lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    FIX
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
)";

std::string with(const std::string& text, const std::string& fix) {
  std::string s = text;
  s.replace(s.find("FIX"), 3, fix);
  return s;
}

}  // namespace

TEST_CASE("a tree reduction without its barrier races on local memory, with it, none", "[checks][races]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Races));
  for (const bool fixed : {false, true}) {
    auto k = kernelOf(device, with(kReduce, fixed ? "barrier(CLK_LOCAL_MEM_FENCE);" : ""), "reduce");
    auto in = ints(128, 1);
    auto out = ints(2);
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArgLocal(2, 64 * sizeof(int));
    const auto r = k.run(range1(128, 64));
    if (fixed) {
      noFinding(r);
      // Sums of 1..64 and 65..128, computed here.
      CHECK(out->as<int>()[0] == 64 * 65 / 2);
      CHECK(out->as<int>()[1] == 128 * 129 / 2 - 64 * 65 / 2);
      continue;
    }
    CHECK_FALSE(r.ok);  // findings are fatal by default
    const auto f = onlyFinding(r, FaultKind::DataRace);
    CHECK(f.at.source == "checkers.cl:6");
    CHECK(f.other.source == "checkers.cl:6");
    CHECK(f.hasOther);
    CHECK_THAT(f.at.message, Contains("local buffer of local argument 2 (tmp)"));
    CHECK_THAT(f.at.message, Contains("CLK_LOCAL_MEM_FENCE"));
    CHECK(f.count > 1);
    CHECK(f.at.localId != f.other.localId);
  }
}

TEST_CASE("write-write races on global memory within a work-group and across work-groups", "[checks][races]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Races));
  const std::string src = R"(__kernel void within(__global int* out) {
  out[get_group_id(0)] = get_local_id(0);
}
__kernel void across(__global int* out) {
  out[get_local_id(0)] = get_group_id(0);
}
__kernel void own(__global int* out) {
  out[get_global_id(0)] = get_group_id(0);
}
)";
  auto out = ints(64);
  {
    auto k = kernelOf(device, src, "within");
    k.setArg(0, out);
    const auto f = onlyFinding(k.run(range1(64, 16)), FaultKind::DataRace);
    CHECK(f.at.source == "checkers.cl:2");
    CHECK_THAT(f.at.message, Contains("write-write"));
    CHECK_THAT(f.at.message, Contains("another work-item of the work-group"));
    CHECK(f.at.groupId == f.other.groupId);
    // Every work-group: 15 of its 16 work-items overwrite the first one's element.
    CHECK(f.count == 4 * 15);
  }
  {
    auto k = kernelOf(device, src, "across");
    k.setArg(0, out);
    const auto f = onlyFinding(k.run(range1(64, 16)), FaultKind::DataRace);
    CHECK_THAT(f.at.message, Contains("another work-group"));
    CHECK(f.at.groupId[0] == 1);
    CHECK(f.other.groupId[0] == 0);
    CHECK(f.count == 3 * 16);  // groups 1..3 overwrite group 0's 16 elements
  }
  {
    auto k = kernelOf(device, src, "own");
    k.setArg(0, out);
    noFinding(k.run(range1(64, 16)));
  }
}

TEST_CASE("a barrier orders only the address spaces its flags name", "[checks][races]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Races));
  const std::string src = R"(__kernel void neighbour(__global int* a, __global int* out) {
  int i = get_global_id(0);
  a[i] = i * 3;
  barrier(FLAGS);
  out[i] = a[(i + 1) % get_global_size(0)];
}
)";
  for (const std::string flags : {"CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"}) {
    std::string text = src;
    text.replace(text.find("FLAGS"), 5, flags);
    auto k = kernelOf(device, text, "neighbour");
    auto a = ints(16), out = ints(16);
    k.setArg(0, a);
    k.setArg(1, out);
    const auto r = k.run(range1(16, 16));
    if (flags == "CLK_GLOBAL_MEM_FENCE") {
      noFinding(r);
      for (int i = 0; i < 16; ++i) CHECK(out->as<int>()[i] == ((i + 1) % 16) * 3);
    } else {
      const auto f = onlyFinding(r, FaultKind::DataRace);
      CHECK(f.at.source == "checkers.cl:5");
      CHECK(f.other.source == "checkers.cl:3");
      CHECK_THAT(f.at.message, Contains("write-read"));
      CHECK_THAT(f.at.message, Contains("CLK_GLOBAL_MEM_FENCE"));
    }
  }
}

TEST_CASE("atomics do not race with each other, but with plain accesses and across scopes they do", "[checks][races]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Races));
  const std::string v12 = R"(__kernel void counter(__global int* c) {
  atomic_inc(c);
}
__kernel void mixed(__global int* c) {
  atomic_inc(c);
  if (get_global_id(0) == 5) c[0] = 0;
}
)";
  auto c = ints(1);
  {
    auto k = kernelOf(device, v12, "counter");
    c->as<int>()[0] = 0;
    k.setArg(0, c);
    noFinding(k.run(range1(64, 16)));
    CHECK(c->as<int>()[0] == 64);
  }
  {
    auto k = kernelOf(device, v12, "mixed");
    k.setArg(0, c);
    const auto r = k.run(range1(64, 16));
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings[0].at.kind == FaultKind::DataRace);
    bool plainStore = false;
    for (const auto& f : r.findings) plainStore |= f.at.source == "checkers.cl:6" || f.other.source == "checkers.cl:6";
    CHECK(plainStore);
  }
  const std::string v20 = R"(__kernel void scoped(__global atomic_int* c) {
  atomic_fetch_add_explicit(c, 1, memory_order_relaxed, SCOPE);
}
)";
  for (const std::string scope : {"memory_scope_work_group", "memory_scope_device"}) {
    std::string text = v20;
    text.replace(text.find("SCOPE"), 5, scope);
    auto k = kernelOf(device, text, "scoped", "-cl-std=CL2.0");
    k.setArg(0, c);
    const auto r = k.run(range1(64, 16));
    if (scope == "memory_scope_device") {
      noFinding(r);
    } else {
      const auto f = onlyFinding(r, FaultKind::DataRace);
      CHECK_THAT(f.at.message, Contains("memory_scope_work_group"));
      CHECK(f.at.groupId != f.other.groupId);
    }
  }
}

TEST_CASE("a tiled matrix multiply and a local-atomic histogram give no race", "[checks][races]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(all());
  const std::string src = R"(#define T 4
__kernel void matmul(__global const int* a, __global const int* b, __global int* c, int n) {
  __local int ta[T][T], tb[T][T];
  int lr = get_local_id(1), lc = get_local_id(0), r = get_global_id(1), col = get_global_id(0);
  int sum = 0;
  for (int t = 0; t < n / T; ++t) {
    ta[lr][lc] = a[r * n + t * T + lc];
    tb[lr][lc] = b[(t * T + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k) sum += ta[lr][k] * tb[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[r * n + col] = sum;
}
__kernel void histogram(__global const int* in, __global int* bins) {
  __local int local_bins[4];
  if (get_local_id(0) < 4) local_bins[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[in[get_global_id(0)] & 3]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) < 4) atomic_add(&bins[get_local_id(0)], local_bins[get_local_id(0)]);
}
)";
  const int n = 8;
  auto a = ints(n * n, 1), b = ints(n * n, 2), c = ints(n * n);
  auto mm = kernelOf(device, src, "matmul");
  mm.setArg(0, a);
  mm.setArg(1, b);
  mm.setArg(2, c);
  mm.setArgValue(3, &n, sizeof n);
  host::NDRange r2;
  r2.dims = 2;
  r2.global = {size_t(n), size_t(n), 1};
  r2.local = std::array<size_t, 3>{4, 4, 1};
  noFinding(mm.run(r2));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int want = 0;
      for (int k = 0; k < n; ++k) want += (1 + i * n + k) * (2 + k * n + j);
      REQUIRE(c->as<int>()[i * n + j] == want);
    }
  auto in = ints(64), bins = ints(4);
  for (int i = 0; i < 4; ++i) bins->as<int>()[i] = 0;
  auto h = kernelOf(device, src, "histogram");
  h.setArg(0, in);
  h.setArg(1, bins);
  noFinding(h.run(range1(64, 16)));
  for (int i = 0; i < 4; ++i) CHECK(bins->as<int>()[i] == 16);
}

TEST_CASE("uninitialised private variables: a conditional assignment, an accumulator, a flag", "[checks][uninit]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Uninitialized));
  const std::string src = R"(__kernel void cond(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int x;
  if (in[i] > 2) x = in[i] * 2;
  out[i] = x;
}
__kernel void accumulate(__global const int* in, __global int* out) {
  int acc;
  for (int k = 0; k < 4; ++k) acc += in[get_global_id(0)];
  out[get_global_id(0)] = acc;
}
__kernel void flag(__global const int* in, __global int* out) {
  int f;
  if (in[get_global_id(0)] > 5) f = 1;
  if (f) out[get_global_id(0)] = 1;
}
__kernel void dominating(__global const int* in, __global int* out) {
  int v = in[get_global_id(0)];
  int x;
  if (v > 2) x = v;
  out[get_global_id(0)] = x;
}
__kernel void constant_value(__global const int* in, __global int* out) {
  int x;
  if (in[get_global_id(0)] > 2) x = 7;
  out[get_global_id(0)] = x;
}
__kernel void complete(__global const int* in, __global int* out) {
  int x;
  if (in[get_global_id(0)] > 2) x = 1; else x = 2;
  out[get_global_id(0)] = x;
}
)";
  auto in = ints(8), out = ints(8);
  auto run = [&](const char* name) {
    auto k = kernelOf(device, src, name);
    k.setArg(0, in);
    k.setArg(1, out);
    return k.run(range1(8, 8));
  };
  {
    const auto f = onlyFinding(run("cond"), FaultKind::UninitialisedValue);
    CHECK(f.at.source == "checkers.cl:5");
    CHECK_THAT(f.at.message, Contains("stored to global memory"));
    CHECK_THAT(f.at.message, Contains("'x'") || Contains("x (private variable"));
    CHECK(f.at.globalId[0] == 0);  // in[0] = 0 is not > 2: work-items 0, 1, 2 store x unassigned
    CHECK(f.count == 3);
  }
  {
    const auto f = onlyFinding(run("accumulate"), FaultKind::UninitialisedValue);
    CHECK(f.at.source == "checkers.cl:10");
    CHECK_THAT(f.at.message, Contains("acc"));
    CHECK(f.count == 8);
  }
  {
    const auto f = onlyFinding(run("flag"), FaultKind::UninitialisedValue);
    CHECK(f.at.source == "checkers.cl:15");
    CHECK_THAT(f.at.message, Contains("branch condition"));
    CHECK_THAT(f.at.message, Contains("variable 'f'"));
  }
  // A value that dominates the merge, or a constant, assigned on one path: LLVM's promotion would fold the merge
  // with the undefined value into that value, and the bug would vanish; the checker's builds keep it.
  for (const char* name : {"dominating", "constant_value"}) {
    const auto f = onlyFinding(run(name), FaultKind::UninitialisedValue);
    CHECK_THAT(f.at.message, Contains("variable 'x'"));
    CHECK(f.count == 3);
  }
  noFinding(run("complete"));
}

TEST_CASE("uninitialised local memory: a halo never loaded", "[checks][uninit]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Uninitialized));
  const std::string src = R"(__kernel void blur(__global const int* in, __global int* out, __local int* tile) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  tile[l + 1] = in[g];
  FIX
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[l] + tile[l + 1] + tile[l + 2];
}
)";
  const std::string halo =
      "if (l == 0) tile[0] = g > 0 ? in[g - 1] : 0; if (l == n - 1) tile[n + 1] = g + 1 < get_global_size(0) ? in[g + 1] : 0;";
  for (const bool fixed : {false, true}) {
    auto k = kernelOf(device, with(src, fixed ? halo : ""), "blur");
    auto in = ints(32), out = ints(32);
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArgLocal(2, 10 * sizeof(int));
    const auto r = k.run(range1(32, 8));
    if (fixed) {
      noFinding(r);
      for (int g = 0; g < 32; ++g) CHECK(out->as<int>()[g] == (g > 0 ? g - 1 : 0) + g + (g < 31 ? g + 1 : 0));
    } else {
      const auto f = onlyFinding(r, FaultKind::UninitialisedValue);
      CHECK(f.at.source == "checkers.cl:6");
      CHECK_THAT(f.at.message, Contains("local buffer of local argument 2 (tile)"));
      CHECK(f.count == 2 * 4);  // the first and the last work-item of each of the 4 groups
    }
  }
}

TEST_CASE("a buffer without contents is uninitialised until written by the host or a kernel", "[checks][uninit]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Uninitialized));
  const std::string src = R"(__kernel void copy(__global const int* in, __global int* out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
__kernel void fill(__global int* a) {
  if (get_global_id(0) % 2 == 0) a[get_global_id(0)] = 7;
}
)";
  auto copy = kernelOf(device, src, "copy");
  auto fill = kernelOf(device, src, "fill");
  auto in = std::make_shared<host::Buffer>(16 * sizeof(int));
  in->markUninitialised();
  in->markWritten(0, 4 * sizeof(int));  // the host wrote elements 0..3
  auto out = ints(16);
  copy.setArg(0, in);
  copy.setArg(1, out);
  {
    const auto f = onlyFinding(copy.run(range1(16, 16)), FaultKind::UninitialisedValue);
    CHECK(f.at.globalId[0] == 4);
    CHECK(f.count == 12);
    CHECK_THAT(f.at.message, Contains("global buffer of argument 0 (in)"));
  }
  fill.setArg(0, in);
  REQUIRE(fill.run(range1(16, 16)).findings.empty());  // writes the even elements
  const auto r = copy.run(range1(16, 16));
  const auto f = onlyFinding(r, FaultKind::UninitialisedValue);
  CHECK(f.at.globalId[0] == 5);
  CHECK(f.count == 6);  // 5, 7, 9, 11, 13, 15
}

// A buffer the host wrote whole has no undefined byte until a kernel stores one (Allocation::someUndefined): the
// first such store must make its bytes undefined for every work-item that reads them, on lanes or one by one.
TEST_CASE("an undefined value stored into a buffer the host wrote whole is undefined where it is read",
          "[checks][uninit]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(CheckSet{}.add(Check::Uninitialized));
  const std::string src = R"(__kernel void pass(__global int* a, __global int* out, int from) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  int x;
  if (l >= from) a[g] = x;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (a[g - l + (l + 1) % n] > 0) out[g] = 1;
}
)";
  struct Shape {
    size_t global, local;
    int from;
  };
  // One work-group of 8 storing from its last work-item; two of 128 whose lanes store from 70 (inside the second
  // batch) and from 0 (every lane of every batch).
  for (const Shape sh : {Shape{8, 8, 7}, Shape{256, 128, 70}, Shape{256, 128, 0}}) {
    INFO("global " << sh.global << ", local " << sh.local << ", stores from local id " << sh.from);
    auto k = kernelOf(device, src, "pass");
    auto a = ints(sh.global, 1), out = ints(sh.global);
    k.setArg(0, a);
    k.setArg(1, out);
    k.setArg(2, sh.from);
    const auto r = k.run(range1(sh.global, sh.local));
    REQUIRE_FALSE(r.fault.has_value());
    for (const auto& f : r.findings) UNSCOPED_INFO(f.format());
    REQUIRE(r.findings.size() == 2);
    const size_t groups = sh.global / sh.local, storing = groups * (sh.local - size_t(sh.from));
    // The stores, first by the lowest storing work-item; the branches of the work-items that read a stored element:
    // local id from - 1 reads from's (n - 1 reads 0's where from is 0).
    const auto& stored = r.findings[0].at.source == "checkers.cl:4" ? r.findings[0] : r.findings[1];
    const auto& branch = &stored == &r.findings[0] ? r.findings[1] : r.findings[0];
    CHECK(stored.at.source == "checkers.cl:4");
    CHECK_THAT(stored.at.message, Contains("stored to global memory"));
    CHECK(stored.at.globalId[0] == uint64_t(sh.from));
    CHECK(stored.count == storing);
    CHECK(branch.at.source == "checkers.cl:6");
    CHECK_THAT(branch.at.message, Contains("branch condition"));
    CHECK(branch.at.globalId[0] == (sh.from == 0 ? 0 : uint64_t(sh.from - 1)));
    CHECK(branch.count == storing);
  }
}

TEST_CASE("defined values in padding, partial structs, vectors and calls give no finding", "[checks][uninit]") {
  if (!compilerAvailable()) return;
  auto device = checkedDevice(all());
  const std::string src = R"(typedef struct { int a; int b; } pair;
int twice(int v) { return 2 * v; }
__kernel void controls(__global const float* in, __global float* out, __global int* ints) {
  int i = get_global_id(0);
  float3 v = vload3(i, in);
  vstore3(v * 2.0f + 1.0f, i, out);
  pair p;
  p.a = i;
  ints[i] = twice(p.a);
}
__kernel void through_call(__global int* ints) {
  int u;
  ints[get_global_id(0)] = twice(u);
}
)";
  auto in = std::make_shared<host::Buffer>(24 * sizeof(float));
  for (int i = 0; i < 24; ++i) in->as<float>()[i] = float(i);
  auto out = std::make_shared<host::Buffer>(24 * sizeof(float));
  auto ints8 = ints(8);
  auto k = kernelOf(device, src, "controls");
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, ints8);
  noFinding(k.run(range1(8, 8)));
  for (int i = 0; i < 24; ++i) CHECK(out->as<float>()[i] == float(i) * 2.0f + 1.0f);
  for (int i = 0; i < 8; ++i) CHECK(ints8->as<int>()[i] == 2 * i);
  auto c = kernelOf(device, src, "through_call");
  c.setArg(0, ints8);
  const auto f = onlyFinding(c.run(range1(8, 8)), FaultKind::UninitialisedValue);
  CHECK(f.at.source == "checkers.cl:13");
  CHECK_THAT(f.at.message, Contains("variable 'u'"));
}

TEST_CASE("checked runs compute what plain runs compute, CLREF_CHECKS_FATAL=0 keeps the run ok", "[checks]") {
  if (!compilerAvailable()) return;
  auto plainDevice = checkedDevice({});
  auto lenient = checkedDevice(all(), false);
  const std::string racy = with(kReduce, "");
  auto in = ints(128, 1);
  std::vector<int> results[2];
  int i = 0;
  for (auto* device : {&plainDevice, &lenient}) {
    auto k = kernelOf(*device, racy, "reduce");
    auto out = ints(2);
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArgLocal(2, 64 * sizeof(int));
    const auto r = k.run(range1(128, 64));
    CHECK(r.ok);
    CHECK(r.findings.size() == (device == &plainDevice ? 0u : 1u));
    results[i++] = {out->as<int>()[0], out->as<int>()[1]};
  }
  CHECK(results[0] == results[1]);
}

TEST_CASE("the race checker refuses work-groups larger than it tells apart", "[checks][races]") {
  if (!compilerAvailable()) return;
  host::DeviceConfig cfg;
  cfg.checks = CheckSet{}.add(Check::Races);
  cfg.maxWorkGroupSize = 2 * interpreter::kRaceCheckerMaxGroupSize;
  host::Device device(cfg);
  auto k = kernelOf(device, "__kernel void k(__global int* out) { out[get_global_id(0)] = 1; }", "k");
  const size_t n = interpreter::kRaceCheckerMaxGroupSize + 1;
  auto out = ints(2 * n);
  k.setArg(0, out);
  CHECK_THROWS_WITH(k.run(range1(n, n)), Contains("at most 65536 work-items"));
  noFinding(k.run(range1(2 * (n - 1), (n - 1) / 2)));  // groups of 32 768
}
