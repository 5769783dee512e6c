// Work-group collective functions (OpenCL C 3.0 §6.15.16 [[work-group-functions]]): all, any, broadcast in 1D and 2D,
// reduce and inclusive/exclusive scans of add, min and max for int, uint, long, ulong, float and double, on uniform
// and non-uniform work-groups, at -O0 and -O2, with OpenCL C 2.0 and with OpenCL C 3.0's feature macro; the choice
// work_group_reduction_order (linear and tree) and work_group_broadcast_out_of_range. Expected values are computed
// here on the host from the spec's definitions; the tree order from its own recursive formulation.
#include <catch2/catch.hpp>

#include "compile_cl.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using test::compileCL;

namespace {

// A 1D NDRange of n work-items in work-groups of `local` (the last one smaller when local does not divide n).
host::NDRange range1(size_t n, size_t local) {
  host::NDRange r;
  r.dims = 1;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  return r;
}

const char* kIntSource = R"CL(
kernel void ints(global const int* a, global int* out, global long* lout) {
  size_t i = get_global_id(0);
  int v = a[i];
  out[i * 12 + 0] = work_group_reduce_add(v);
  out[i * 12 + 1] = work_group_reduce_min(v);
  out[i * 12 + 2] = work_group_reduce_max(v);
  out[i * 12 + 3] = work_group_scan_inclusive_add(v);
  out[i * 12 + 4] = work_group_scan_exclusive_add(v);
  out[i * 12 + 5] = work_group_scan_inclusive_min(v);
  out[i * 12 + 6] = work_group_scan_exclusive_max(v);
  out[i * 12 + 7] = (int)work_group_reduce_max((uint)v);
  out[i * 12 + 8] = (int)work_group_scan_exclusive_min((uint)v);
  out[i * 12 + 9] = work_group_all(v > -90);
  out[i * 12 + 10] = work_group_any(v > 95);
  out[i * 12 + 11] = work_group_broadcast(v, get_local_size(0) - 1);
  lout[i * 3 + 0] = work_group_reduce_add((long)v * 100000000L);
  lout[i * 3 + 1] = work_group_scan_inclusive_max((long)v);
  lout[i * 3 + 2] = (long)work_group_scan_exclusive_min((ulong)(v + 200));
}
)CL";

std::vector<int> inputInts(size_t n) {
  std::vector<int> a(n);
  for (size_t i = 0; i < n; ++i) a[i] = int((i * 37 + 11) % 193) - 96;  // [-96, 96]
  return a;
}

// Runs `ints` on n work-items in groups of `local` (the last one smaller when local does not divide n) and checks
// every result against the definitions.
void checkInts(const std::vector<uint32_t>& words, size_t n, size_t local) {
  auto program = host::Program::fromSpirv(host::Device(), words);
  host::Kernel k(program, "ints");
  const auto a = inputInts(n);
  auto out = std::make_shared<host::Buffer>(n * 12 * sizeof(int));
  auto lout = std::make_shared<host::Buffer>(n * 3 * sizeof(int64_t));
  k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * sizeof(int)));
  k.setArg(1, out);
  k.setArg(2, lout);
  const auto res = k.run(range1(n, local));
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto o = out->as<int>();
  const auto lo = lout->as<int64_t>();
  for (size_t g0 = 0; g0 < n; g0 += local) {
    const size_t size = std::min(local, n - g0);
    // The spec's definitions: reductions over the group, scans in local id order, exclusive scans start from the
    // identity (0, INT_MAX / UINT_MAX, INT_MIN / 0).
    int sum = 0, mn = std::numeric_limits<int>::max(), mx = std::numeric_limits<int>::min();
    uint32_t umx = 0;
    int64_t lsum = 0;
    bool all = true, any = false;
    for (size_t j = 0; j < size; ++j) {
      const int v = a[g0 + j];
      sum += v;
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      umx = std::max(umx, uint32_t(v));
      lsum += int64_t(v) * 100000000;
      all = all && v > -90;
      any = any || v > 95;
    }
    int isum = 0, imin = std::numeric_limits<int>::max(), emax = std::numeric_limits<int>::min();
    uint32_t eumin = std::numeric_limits<uint32_t>::max();
    int64_t lmax = std::numeric_limits<int64_t>::min();
    uint64_t elumin = std::numeric_limits<uint64_t>::max();
    for (size_t j = 0; j < size; ++j) {
      const size_t i = g0 + j;
      const int v = a[i];
      INFO("work-item " << i << " of the group at " << g0);
      CHECK(o[i * 12 + 0] == sum);
      CHECK(o[i * 12 + 1] == mn);
      CHECK(o[i * 12 + 2] == mx);
      CHECK(o[i * 12 + 4] == isum);  // exclusive: before this one
      CHECK(o[i * 12 + 6] == emax);
      CHECK(uint32_t(o[i * 12 + 8]) == eumin);
      CHECK(lo[i * 3 + 2] == int64_t(elumin));
      isum += v;
      imin = std::min(imin, v);
      emax = std::max(emax, v);
      eumin = std::min(eumin, uint32_t(v));
      lmax = std::max(lmax, int64_t(v));
      elumin = std::min(elumin, uint64_t(int64_t(v + 200)));
      CHECK(o[i * 12 + 3] == isum);  // inclusive: up to this one
      CHECK(o[i * 12 + 5] == imin);
      CHECK(uint32_t(o[i * 12 + 7]) == umx);
      CHECK(o[i * 12 + 9] == int(all));
      CHECK(o[i * 12 + 10] == int(any));
      CHECK(o[i * 12 + 11] == a[g0 + size - 1]);
      CHECK(lo[i * 3 + 0] == lsum);
      CHECK(lo[i * 3 + 1] == lmax);
    }
  }
}

}  // namespace

TEST_CASE("work-group collectives of integers on uniform and non-uniform 1D work-groups", "[execution][work-group]") {
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    const auto words = compileCL(kIntSource, std::string("-cl-std=CL2.0 ") + opt, "1.0");
    checkInts(words, 64, 16);
    checkInts(words, 40, 16);  // a last group of 8 (OpenCL C 2.0: non-uniform work-groups)
    checkInts(words, 7, 7);
    checkInts(words, 1, 1);
  }
}

TEST_CASE("work-group collectives through OpenCL C 3.0's feature macro", "[execution][work-group]") {
  const std::string src = std::string("#ifndef __opencl_c_work_group_collective_functions\n#error no feature macro\n#endif\n") +
                          kIntSource;
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL3.0");
  REQUIRE(program->kernelNames() == std::vector<std::string>{"ints"});
  checkInts(program->spirv(), 48, 16);
}

namespace {

const char* kBroadcast2D = R"CL(
kernel void bcast(global const float* a, global float* out, global int* iout) {
  size_t gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);
  float v = a[gy * w + gx];
  out[(gy * w + gx) * 2 + 0] = work_group_broadcast(v, 1, 2);
  out[(gy * w + gx) * 2 + 1] = work_group_broadcast(v, get_local_size(0) - 1, 0);
  iout[gy * w + gx] = work_group_broadcast((int)(gx * 1000 + gy), 2, 1);
}
)CL";

}  // namespace

TEST_CASE("work_group_broadcast in 2D work-groups", "[execution][work-group]") {
  const size_t W = 12, H = 8, LX = 4, LY = 4;
  std::vector<float> a(W * H);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i) * 0.5f - 7.0f;
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    auto program = host::Program::fromSpirv(host::Device(), compileCL(kBroadcast2D, std::string("-cl-std=CL2.0 ") + opt, "1.0"));
    host::Kernel k(program, "bcast");
    auto out = std::make_shared<host::Buffer>(W * H * 2 * sizeof(float));
    auto iout = std::make_shared<host::Buffer>(W * H * sizeof(int));
    k.setArg(0, std::make_shared<host::Buffer>(a.data(), a.size() * sizeof(float)));
    k.setArg(1, out);
    k.setArg(2, iout);
    host::NDRange r;
    r.dims = 2;
    r.global = {W, H, 1};
    r.local = std::array<size_t, 3>{LX, LY, 1};
    const auto res = k.run(r);
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    for (size_t y = 0; y < H; ++y)
      for (size_t x = 0; x < W; ++x) {
        const size_t ox = x / LX * LX, oy = y / LY * LY;  // the group's first work-item
        const size_t i = y * W + x;
        CHECK(out->as<float>()[i * 2 + 0] == a[(oy + 2) * W + ox + 1]);
        CHECK(out->as<float>()[i * 2 + 1] == a[oy * W + ox + LX - 1]);
        CHECK(iout->as<int>()[i] == int((ox + 2) * 1000 + oy + 1));
      }
  }
}

namespace {

const char* kFloatSource = R"CL(
kernel void floats(global const float* f, global const double* d, global float* out, global double* dout) {
  size_t i = get_global_id(0);
  out[i * 5 + 0] = work_group_reduce_add(f[i]);
  out[i * 5 + 1] = work_group_scan_inclusive_add(f[i]);
  out[i * 5 + 2] = work_group_scan_exclusive_add(f[i]);
  out[i * 5 + 3] = work_group_reduce_min(f[i]);
  out[i * 5 + 4] = work_group_scan_inclusive_max(f[i]);
  dout[i * 2 + 0] = work_group_reduce_add(d[i]);
  dout[i * 2 + 1] = work_group_scan_exclusive_add(d[i]);
}
)CL";

using Opt = std::optional<double>;

// Floating-point addition rounded to T.
template <class T> Opt addIn(const Opt& a, const Opt& b) {
  if (!a) return b;
  if (!b) return a;
  return double(T(T(*a) + T(*b)));
}

// The tree order, formulated recursively: the sum of an aligned block of `len` (a power of two) leaves is the sum of
// its halves; leaves past the group are absent.
template <class T> Opt blockSum(const std::vector<T>& x, size_t lo, size_t len) {
  if (len == 1) return lo < x.size() ? Opt(double(x[lo])) : Opt();
  return addIn<T>(blockSum(x, lo, len / 2), blockSum(x, lo + len / 2, len / 2));
}
template <class T> size_t leavesOf(const std::vector<T>& x) {
  size_t l = 1;
  while (l < x.size()) l *= 2;
  return l;
}
// The exclusive prefix of position i in the tree order: the blocks the binary digits of i name, largest first.
template <class T> Opt treePrefix(const std::vector<T>& x, size_t i) {
  Opt acc;
  size_t pos = 0;
  for (size_t bit = leavesOf(x) / 2; bit >= 1; bit /= 2)
    if (i & bit) {
      acc = addIn<T>(acc, blockSum(x, pos, bit));
      pos += bit;
    }
  return acc;
}

struct FloatRun {
  std::vector<float> out;
  std::vector<double> dout;
};

FloatRun runFloats(const std::string& choice, const std::vector<float>& f, const std::vector<double>& d, size_t local) {
  host::DeviceConfig cfg;
  if (!choice.empty()) cfg.choices.set(choice);
  host::Device device(cfg);
  auto program = host::Program::fromSpirv(device, compileCL(kFloatSource, "-cl-std=CL2.0 -O2", "1.0"));
  host::Kernel k(program, "floats");
  const size_t n = f.size();
  auto out = std::make_shared<host::Buffer>(n * 5 * sizeof(float));
  auto dout = std::make_shared<host::Buffer>(n * 2 * sizeof(double));
  k.setArg(0, std::make_shared<host::Buffer>(f.data(), n * sizeof(float)));
  k.setArg(1, std::make_shared<host::Buffer>(d.data(), n * sizeof(double)));
  k.setArg(2, out);
  k.setArg(3, dout);
  const auto res = k.run(range1(n, local));
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  return {{out->as<float>().begin(), out->as<float>().end()}, {dout->as<double>().begin(), dout->as<double>().end()}};
}

}  // namespace

TEST_CASE("floating-point work-group reductions and scans in the linear and the tree order", "[execution][work-group]") {
  // Magnitudes far apart, so that the order of the additions shows in the rounded results.
  const size_t n = 26, local = 13;  // groups of 13: the tree has absent leaves
  std::vector<float> f(n);
  std::vector<double> d(n);
  for (size_t i = 0; i < n; ++i) {
    f[i] = (i % 3 == 0 ? 1e8f : 1.0f) * (i % 2 ? -1.0f : 1.0f) + float(i) * 0.375f;
    d[i] = (i % 4 == 1 ? 1e17 : 3.0) * (i % 3 ? 1.0 : -1.0) + double(i) * 0.125;
  }
  const FloatRun linear = runFloats("", f, d, local);
  const FloatRun tree = runFloats("work_group_reduction_order=tree", f, d, local);
  bool ordersDiffer = false;
  for (size_t g0 = 0; g0 < n; g0 += local) {
    const std::vector<float> xf(f.begin() + long(g0), f.begin() + long(g0 + local));
    const std::vector<double> xd(d.begin() + long(g0), d.begin() + long(g0 + local));
    // Linear: left to right.
    float lsum = xf[0];
    for (size_t j = 1; j < local; ++j) lsum = lsum + xf[j];
    double ldsum = xd[0];
    for (size_t j = 1; j < local; ++j) ldsum = ldsum + xd[j];
    const float tsum = float(*blockSum(xf, 0, leavesOf(xf)));
    const double tdsum = *blockSum(xd, 0, leavesOf(xd));
    ordersDiffer = ordersDiffer || lsum != tsum || ldsum != tdsum;
    float prefix = 0, mn = INFINITY, mx = -INFINITY;
    double dprefix = 0;
    for (size_t j = 0; j < local; ++j) mn = std::min(mn, xf[j]);
    for (size_t j = 0; j < local; ++j) {
      const size_t i = g0 + j;
      INFO("work-item " << i);
      CHECK(linear.out[i * 5 + 0] == lsum);
      CHECK(tree.out[i * 5 + 0] == tsum);
      CHECK(linear.dout[i * 2 + 0] == ldsum);
      CHECK(tree.dout[i * 2 + 0] == tdsum);
      // Exclusive scans: the identity 0 first.
      CHECK(linear.out[i * 5 + 2] == (j == 0 ? 0.0f : prefix));
      CHECK(linear.dout[i * 2 + 1] == (j == 0 ? 0.0 : dprefix));
      const Opt tp = treePrefix(xf, j), tdp = treePrefix(xd, j);
      CHECK(tree.out[i * 5 + 2] == (tp ? float(*tp) : 0.0f));
      CHECK(tree.dout[i * 2 + 1] == (tdp ? *tdp : 0.0));
      CHECK(tree.out[i * 5 + 1] == (tp ? float(*tp) + xf[j] : xf[j]));
      prefix = j == 0 ? xf[0] : prefix + xf[j];
      dprefix = j == 0 ? xd[0] : dprefix + xd[j];
      CHECK(linear.out[i * 5 + 1] == prefix);
      mx = std::max(mx, xf[j]);
      CHECK(linear.out[i * 5 + 3] == mn);
      CHECK(tree.out[i * 5 + 3] == mn);
      CHECK(linear.out[i * 5 + 4] == mx);
    }
  }
  CHECK(ordersDiffer);  // the inputs tell the orders apart
}

TEST_CASE("work_group_broadcast from outside the work-group follows work_group_broadcast_out_of_range",
          "[execution][work-group][choices]") {
  const char* src = R"CL(
kernel void outside(global int* out, int from) {
  out[get_global_id(0)] = work_group_broadcast((int)get_global_id(0) + 5, (size_t)from);
}
)CL";
  for (const char* choice : {"", "work_group_broadcast_out_of_range=fault"}) {
    INFO(choice);
    host::DeviceConfig cfg;
    if (*choice) cfg.choices.set(choice);
    auto program = host::Program::fromSpirv(host::Device(cfg), compileCL(src, "-cl-std=CL2.0", "1.0"));
    host::Kernel k(program, "outside");
    auto out = std::make_shared<host::Buffer>(8 * sizeof(int));
    k.setArg(0, out);
    const host::NDRange r = range1(8, 4);
    k.setArg(1, int32_t(2));  // inside: the third work-item of each group
    auto res = k.run(r);
    REQUIRE(res.ok);
    CHECK(out->as<int>()[1] == 7);
    CHECK(out->as<int>()[6] == 11);
    k.setArg(1, int32_t(4));  // one past the group
    res = k.run(r);
    if (*choice) {
      REQUIRE_FALSE(res.ok);
      REQUIRE(res.fault);
      CHECK_THAT(res.fault->format(), Catch::Contains("work_group_broadcast from local id (4,0,0) outside the "
                                                      "work-group of size (4,1,1)"));
    } else {
      REQUIRE(res.ok);
      for (int v : out->as<int>()) CHECK(v == 0);
      REQUIRE_FALSE(res.warnings.empty());
      CHECK_THAT(res.warnings.front().format(), Catch::Contains("work_group_broadcast_out_of_range"));
    }
  }
}

TEST_CASE("a work-group collective that not every work-item reaches is barrier divergence", "[execution][work-group]") {
  const char* src = R"CL(
kernel void half_of_them(global int* out) {
  if (get_local_id(0) < 2) out[get_global_id(0)] = work_group_reduce_add(1);
}
)CL";
  auto program = host::Program::fromSpirv(host::Device(), compileCL(src, "-cl-std=CL2.0", "1.0"));
  host::Kernel k(program, "half_of_them");
  k.setArg(0, std::make_shared<host::Buffer>(8 * sizeof(int)));
  const auto res = k.run(range1(8, 4));
  REQUIRE_FALSE(res.ok);
  REQUIRE(res.fault);
  CHECK(res.fault->kind == interpreter::FaultKind::BarrierDivergence);
}

namespace {

const char* kUniformSource = R"CL(
#ifndef cl_khr_work_group_uniform_arithmetic
#error no cl_khr_work_group_uniform_arithmetic
#endif
kernel void uniform(global const int* a, global const float* f, global int* out, global float* fout,
                    global ulong* lout) {
  size_t i = get_global_id(0);
  int v = a[i];
  out[i * 10 + 0] = work_group_reduce_mul(v);
  out[i * 10 + 1] = work_group_scan_exclusive_mul(v);
  out[i * 10 + 2] = (int)work_group_reduce_and((uint)v);
  out[i * 10 + 3] = work_group_scan_inclusive_or(v);
  out[i * 10 + 4] = work_group_scan_exclusive_xor(v);
  out[i * 10 + 5] = work_group_reduce_logical_and(v);
  out[i * 10 + 6] = work_group_scan_inclusive_logical_or(v > 2);
  out[i * 10 + 7] = work_group_scan_exclusive_logical_xor(v & 1);
  out[i * 10 + 8] = work_group_scan_exclusive_and(v);
  out[i * 10 + 9] = work_group_scan_exclusive_logical_and(v != 3);
  fout[i] = work_group_scan_inclusive_mul(f[i]);
  lout[i] = work_group_reduce_xor((ulong)v << 40);
}
)CL";

}  // namespace

TEST_CASE("cl_khr_work_group_uniform_arithmetic: mul, and, or, xor and the logical functions",
          "[execution][work-group]") {
  const size_t n = 24, local = 8;
  std::vector<int> a(n);
  std::vector<float> f(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int((i * 7 + 3) % 11) - 2;  // includes 0, negatives and 3
    f[i] = 1.0f + float(i % 5) * 0.3f;
  }
  for (const char* std : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    INFO(std);
    auto program = host::Program::fromOpenCLC(host::Device(), kUniformSource, std);
    host::Kernel k(program, "uniform");
    auto out = std::make_shared<host::Buffer>(n * 10 * sizeof(int));
    auto fout = std::make_shared<host::Buffer>(n * sizeof(float));
    auto lout = std::make_shared<host::Buffer>(n * sizeof(uint64_t));
    k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * sizeof(int)));
    k.setArg(1, std::make_shared<host::Buffer>(f.data(), n * sizeof(float)));
    k.setArg(2, out);
    k.setArg(3, fout);
    k.setArg(4, lout);
    const auto res = k.run(range1(n, local));
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    const auto o = out->as<int>();
    for (size_t g0 = 0; g0 < n; g0 += local) {
      // The definitions (OpenCL C 3.0 §6.15.17 [[work-group-collective-uniform-arithmetic-functions]]): products wrap
      // modulo 2^32; identities 1, ~0, 0, true, false.
      uint32_t prod = 1, andAll = ~0u;
      bool logicalAnd = true;
      uint64_t lx = 0;
      for (size_t j = 0; j < local; ++j) {
        prod *= uint32_t(a[g0 + j]);
        andAll &= uint32_t(a[g0 + j]);
        logicalAnd = logicalAnd && a[g0 + j] != 0;
        lx ^= uint64_t(int64_t(a[g0 + j])) << 40;
      }
      uint32_t eprod = 1, ior = 0, exor = 0, eand = ~0u;
      bool lor = false, exlxor = false, exland = true;
      float fprod = 1.0f;
      for (size_t j = 0; j < local; ++j) {
        const size_t i = g0 + j;
        const int v = a[i];
        INFO("work-item " << i);
        CHECK(uint32_t(o[i * 10 + 0]) == prod);
        CHECK(uint32_t(o[i * 10 + 1]) == eprod);
        CHECK(uint32_t(o[i * 10 + 2]) == andAll);
        CHECK(o[i * 10 + 5] == int(logicalAnd));
        CHECK(uint32_t(o[i * 10 + 4]) == exor);
        CHECK(o[i * 10 + 7] == int(exlxor));
        CHECK(uint32_t(o[i * 10 + 8]) == eand);
        CHECK(o[i * 10 + 9] == int(exland));
        CHECK(lout->as<uint64_t>()[i] == lx);
        eprod *= uint32_t(v);
        ior |= uint32_t(v);
        exor ^= uint32_t(v);
        eand &= uint32_t(v);
        lor = lor || v > 2;
        exlxor = exlxor != ((v & 1) != 0);
        exland = exland && v != 3;
        fprod = j == 0 ? f[i] : fprod * f[i];
        CHECK(uint32_t(o[i * 10 + 3]) == ior);
        CHECK(o[i * 10 + 6] == int(lor));
        CHECK(fout->as<float>()[i] == fprod);
      }
    }
  }
}

// ---- Sub-group collectives (cl_khr_subgroups; OpenCL C 3.0 §6.15.20 [[sub-group-functions]]) ----------------------
// Sub-groups are runs of DeviceConfig::subgroupSize consecutive local linear ids; the last one of a work-group may be
// smaller. Checked at two sub-group sizes, one of which leaves a partial sub-group, against the definitions.

namespace {

const char* kSubgroupSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg(global const int* a, global int* out) {
  size_t i = get_global_id(0);
  int v = a[i];
  out[i * 7 + 0] = sub_group_reduce_add(v);
  out[i * 7 + 1] = sub_group_scan_exclusive_max(v);
  out[i * 7 + 2] = sub_group_scan_inclusive_add(v);
  out[i * 7 + 3] = sub_group_broadcast(v, 1);
  out[i * 7 + 4] = sub_group_any(v > 90);
  out[i * 7 + 5] = sub_group_all(v > -90);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  // Only the first sub-group reduces here: the others never reach it (each sub-group waits for itself alone).
  out[i * 7 + 6] = get_sub_group_id() == 0 ? sub_group_reduce_min(v) : -1;
}
)CL";

}  // namespace

TEST_CASE("sub-group collectives at two sub-group sizes, with a partial sub-group", "[execution][work-group][subgroups]") {
  const size_t n = 40, local = 20;
  const auto a = inputInts(n);
  const auto words = compileCL(kSubgroupSource, "-cl-std=CL2.0 -Xclang -cl-ext=+cl_khr_subgroups -O2", "1.0");
  for (uint32_t sgSize : {4u, 8u}) {  // 20 = 5 × 4, or 8 + 8 + 4
    INFO("sub-group size " << sgSize);
    host::DeviceConfig cfg;
    cfg.subgroupSize = sgSize;
    auto program = host::Program::fromSpirv(host::Device(cfg), words);
    host::Kernel k(program, "sg");
    auto out = std::make_shared<host::Buffer>(n * 7 * sizeof(int));
    k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * sizeof(int)));
    k.setArg(1, out);
    const auto res = k.run(range1(n, local));
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    const auto o = out->as<int>();
    for (size_t g0 = 0; g0 < n; g0 += local)
      for (size_t s0 = g0; s0 < g0 + local; s0 += sgSize) {
        const size_t size = std::min<size_t>(sgSize, g0 + local - s0);
        int sum = 0, mn = std::numeric_limits<int>::max();
        bool any = false, all = true;
        for (size_t j = 0; j < size; ++j) {
          sum += a[s0 + j];
          mn = std::min(mn, a[s0 + j]);
          any = any || a[s0 + j] > 90;
          all = all && a[s0 + j] > -90;
        }
        int emax = std::numeric_limits<int>::min(), isum = 0;
        for (size_t j = 0; j < size; ++j) {
          const size_t i = s0 + j;
          INFO("work-item " << i);
          CHECK(o[i * 7 + 0] == sum);
          CHECK(o[i * 7 + 1] == emax);
          isum += a[i];
          emax = std::max(emax, a[i]);
          CHECK(o[i * 7 + 2] == isum);
          CHECK(o[i * 7 + 3] == a[s0 + 1]);
          CHECK(o[i * 7 + 4] == int(any));
          CHECK(o[i * 7 + 5] == int(all));
          CHECK(o[i * 7 + 6] == (s0 == g0 ? mn : -1));
        }
      }
  }
}

TEST_CASE("a sub-group collective that part of its sub-group skips is divergence", "[execution][work-group][subgroups]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void skip(global int* out) {
  if (get_sub_group_local_id() != 2) out[get_global_id(0)] = sub_group_reduce_add(1);
}
)CL";
  host::DeviceConfig cfg;
  cfg.subgroupSize = 4;
  auto program = host::Program::fromSpirv(host::Device(cfg),
                                          compileCL(src, "-cl-std=CL2.0 -Xclang -cl-ext=+cl_khr_subgroups", "1.0"));
  host::Kernel k(program, "skip");
  k.setArg(0, std::make_shared<host::Buffer>(8 * sizeof(int)));
  const auto res = k.run(range1(8, 8));
  REQUIRE_FALSE(res.ok);
  REQUIRE(res.fault);
  CHECK(res.fault->kind == interpreter::FaultKind::BarrierDivergence);
  CHECK_THAT(res.fault->format(), Catch::Contains("not every work-item of the sub-group"));
  CHECK_THAT(res.fault->format(), Catch::Contains("local work-item (2,0,0) returned without reaching it"));
}
