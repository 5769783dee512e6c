// cl_ext_float_atomics [external]: atomic_fetch_add/sub/min/max on atomic_float, atomic_double and atomic_half in
// global and local memory (OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT; the half add through the compiler's
// prelude), the extension's NaN rules, the choice atomic_float_min_max_signed_zero, and the device's report.
// Expected values are computed here: sums of values whose every partial sum is exact (so any order gives them),
// sequences of one work-item rounded by the host's own IEEE arithmetic, minima and maxima over the non-NaN inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "host/host.hpp"
#include "numerics/format.hpp"
#include "spvasm.hpp"

using namespace clref;

namespace {

bool compilerAvailable() {
  if (host::Program::openCLCCompilerAvailable()) return true;
  WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
  return false;
}

host::NDRange range(size_t n, size_t local) {
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  return r;
}

// 256 work-items in 4 groups: every one adds its value to g[0], subtracts it from g[1], takes the min into g[2] and
// the max into g[3], and does the same in local memory, whose results each group's first work-item adds to
// g[4..7] (sum, difference) and min/maxes into g[8..9]. Float, double and half versions of one text.
const char* kSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define KERNEL(T, AT) \
kernel void atomics_##T(global AT* g, global const T* v, global T* old) { \
  local AT l[4]; \
  size_t i = get_global_id(0), li = get_local_id(0); \
  if (li == 0) { \
    atomic_store(&l[0], (T)0); atomic_store(&l[1], (T)0); \
    atomic_store(&l[2], (T)INFINITY); atomic_store(&l[3], (T)-INFINITY); \
  } \
  work_group_barrier(CLK_LOCAL_MEM_FENCE); \
  T x = v[i]; \
  old[i] = atomic_fetch_add(&g[0], x); \
  atomic_fetch_sub_explicit(&g[1], x, memory_order_relaxed); \
  atomic_fetch_min(&g[2], x); \
  atomic_fetch_max_explicit(&g[3], x, memory_order_relaxed, memory_scope_device); \
  atomic_fetch_add(&l[0], x); \
  atomic_fetch_sub(&l[1], x); \
  atomic_fetch_min(&l[2], x); \
  atomic_fetch_max(&l[3], x); \
  work_group_barrier(CLK_LOCAL_MEM_FENCE); \
  if (li == 0) { \
    atomic_fetch_add(&g[4], atomic_load(&l[0])); \
    atomic_fetch_add(&g[5], atomic_load(&l[1])); \
    atomic_fetch_min(&g[6], atomic_load(&l[2])); \
    atomic_fetch_max(&g[7], atomic_load(&l[3])); \
  } \
}
KERNEL(float, atomic_float)
KERNEL(double, atomic_double)
KERNEL(half, atomic_half)

// One work-item: a sequence whose rounding the host repeats.
kernel void sequence(global atomic_float* f, global atomic_double* d, global atomic_half* h, global const float* v) {
  for (int k = 0; k < 8; ++k) {
    atomic_fetch_add(f, v[k]);
    atomic_fetch_add(d, (double)v[k] * 1e-17);
    atomic_fetch_add(h, (half)v[k]);
  }
}

// -0 and +0, and NaNs, met by min and max: r[k] for the pairs (memory, operand).
kernel void zeros(global atomic_float* m, global const float* operand) {
  size_t i = get_global_id(0);
  if (i % 2 == 0) atomic_fetch_min(&m[i], operand[i]);
  else atomic_fetch_max(&m[i], operand[i]);
}
)CL";

template <class T> T fromDouble(double x) {
  if constexpr (std::is_same_v<T, numerics::Half>)
    return numerics::toHalf(x);
  else
    return T(x);
}
template <class T> double toDouble(T x) {
  if constexpr (std::is_same_v<T, numerics::Half>)
    return numerics::toDouble(x);
  else
    return double(x);
}

// Runs atomics_<name>: the values are multiples of 1/4 in [-8, 8], so every partial sum of 256 of them (at most
// 2048 in magnitude, in steps of 1/4) is exact in half, float and double, and the order cannot matter.
template <class T>
void checkAtomics(const host::Device& device, std::shared_ptr<host::Program> program, const char* name) {
  INFO(name);
  host::Kernel k(program, name);
  const size_t n = 256;
  std::vector<T> v(n);
  double sum = 0, mn = INFINITY, mx = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    const double x = double(int((i * 37 + 5) % 65) - 32) / 4;
    v[i] = fromDouble<T>(x);
    sum += x;
    mn = std::min(mn, x);
    mx = std::max(mx, x);
  }
  std::vector<T> g(10, fromDouble<T>(0));
  g[2] = g[6] = fromDouble<T>(INFINITY);
  g[3] = g[7] = fromDouble<T>(-INFINITY);
  auto gb = std::make_shared<host::Buffer>(g.data(), g.size() * sizeof(T));
  auto old = std::make_shared<host::Buffer>(n * sizeof(T));
  k.setArg(0, gb);
  k.setArg(1, std::make_shared<host::Buffer>(v.data(), n * sizeof(T)));
  k.setArg(2, old);
  const auto res = k.run(range(n, 64));
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto r = gb->template as<T>();
  CHECK(toDouble(r[0]) == sum);
  CHECK(toDouble(r[1]) == -sum);
  CHECK(toDouble(r[2]) == mn);
  CHECK(toDouble(r[3]) == mx);
  CHECK(toDouble(r[4]) == sum);
  CHECK(toDouble(r[5]) == -sum);
  CHECK(toDouble(r[6]) == mn);
  CHECK(toDouble(r[7]) == mx);
  // The values atomic_fetch_add returned are the partial sums before each addition: each one distinct moment of g[0],
  // so together with the final sum they are every partial sum of some order; at least they are all in range.
  for (T o : old->template as<T>()) CHECK(std::abs(toDouble(o)) <= 2048);
  (void)device;
}

}  // namespace

TEST_CASE("float atomics: add, sub, min and max of float, double and half in global and local memory",
          "[execution][atomics][float-atomics]") {
  if (!compilerAvailable()) return;
  const host::Device device;
  auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
  checkAtomics<float>(device, program, "atomics_float");
  checkAtomics<double>(device, program, "atomics_double");
  checkAtomics<numerics::Half>(device, program, "atomics_half");
}

TEST_CASE("float atomic additions round as the host's IEEE additions do", "[execution][atomics][float-atomics]") {
  if (!compilerAvailable()) return;
  const host::Device device;
  auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
  host::Kernel k(program, "sequence");
  const std::vector<float> v = {1.0f, 3e-8f, 0.1f, -1e-3f, 7.25f, 1e-7f, 2049.0f, 0.3f};
  float f = 0.5f;
  double d = 0.25;
  numerics::Half h = numerics::toHalf(0.5);
  auto fb = std::make_shared<host::Buffer>(&f, sizeof f);
  auto db = std::make_shared<host::Buffer>(&d, sizeof d);
  auto hb = std::make_shared<host::Buffer>(&h, sizeof h);
  k.setArg(0, fb);
  k.setArg(1, db);
  k.setArg(2, hb);
  k.setArg(3, std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(float)));
  const auto res = k.run(range(1, 1));
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  // Each addition rounded once to the type (round to nearest even), in the order the work-item made them.
  for (float x : v) {
    f = f + x;
    d = d + double(x) * 1e-17;
    // half: the exact sum of two halves rounded once to half (toHalf rounds a double, which holds the sum exactly).
    h = numerics::toHalf(numerics::toDouble(h) + numerics::toDouble(numerics::toHalf(double(x))));
  }
  CHECK(fb->as<float>()[0] == f);
  CHECK(db->as<double>()[0] == d);
  CHECK(hb->as<numerics::Half>()[0].bits == h.bits);
}

TEST_CASE("float atomic min and max: NaN operands and the choice atomic_float_min_max_signed_zero",
          "[execution][atomics][float-atomics][choices]") {
  if (!compilerAvailable()) return;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // (memory, operand) pairs; even indices take min, odd ones max.
  const std::vector<std::pair<float, float>> pairs = {{0.0f, -0.0f}, {0.0f, -0.0f}, {-0.0f, 0.0f}, {-0.0f, 0.0f},
                                                      {2.0f, nan},   {2.0f, nan},   {nan, 3.0f},   {nan, 3.0f},
                                                      {nan, nan},    {1.0f, 2.0f},  {1.0f, 2.0f},  {-5.0f, -6.0f}};
  for (const char* choice : {"", "atomic_float_min_max_signed_zero=formula"}) {
    INFO((*choice ? choice : "default"));
    host::DeviceConfig cfg;
    if (*choice) cfg.choices.set(choice);
    const host::Device device(cfg);
    auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
    host::Kernel k(program, "zeros");
    std::vector<float> mem, op;
    for (auto [m, o] : pairs) mem.push_back(m), op.push_back(o);
    auto mb = std::make_shared<host::Buffer>(mem.data(), mem.size() * 4);
    k.setArg(0, mb);
    k.setArg(1, std::make_shared<host::Buffer>(op.data(), op.size() * 4));
    const auto res = k.run(range(pairs.size(), 1));
    REQUIRE(res.ok);
    const auto r = mb->as<float>();
    const bool ordered = *choice == 0;
    // min(+0, -0), max(+0, -0), min(-0, +0), max(-0, +0): ordered gives -0 for min and +0 for max; the formulas give
    // the operand for min (x < y is false) and the memory's value for max.
    CHECK(std::signbit(r[0]));   // min(+0, -0): -0 either way
    CHECK(!std::signbit(r[1]));  // max(+0, -0): +0 either way
    CHECK(std::signbit(r[2]) == ordered);
    CHECK(std::signbit(r[3]) == !ordered);
    // min(x, NaN) = max(x, NaN) = x; min(NaN, x) = max(NaN, x) = x; min(NaN, NaN) is NaN.
    CHECK(r[4] == 2.0f);
    CHECK(r[5] == 2.0f);
    CHECK(r[6] == 3.0f);
    CHECK(r[7] == 3.0f);
    CHECK(std::isnan(r[8]));
    CHECK(r[9] == 2.0f);
    CHECK(r[10] == 1.0f);
    CHECK(r[11] == -5.0f);
  }
}

TEST_CASE("the device reports cl_ext_float_atomics with the features of its float types",
          "[execution][atomics][float-atomics]") {
  host::DeviceConfig cfg;
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::count(v.begin(), v.end(), n) == 1; };
  CHECK(has(host::openCLCExtensions(cfg), "cl_ext_float_atomics"));
  auto f = host::openCLCFeatures(cfg);
  for (const char* n : {"__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_min_max",
                        "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_add",
                        "__opencl_c_ext_fp16_global_atomic_load_store"})
    CHECK(has(f, n));
  CHECK_FALSE(has(f, "__opencl_c_ext_fp32_global_atomic_load_store"));  // core for floats: no such feature
  cfg.fp64 = false;
  cfg.fp16 = false;
  f = host::openCLCFeatures(cfg);
  CHECK_FALSE(has(f, "__opencl_c_ext_fp64_global_atomic_add"));
  CHECK_FALSE(has(f, "__opencl_c_ext_fp16_global_atomic_add"));
  CHECK(has(f, "__opencl_c_ext_fp32_global_atomic_add"));
}

TEST_CASE("OpAtomicFAddEXT, OpAtomicFMinEXT and OpAtomicFMaxEXT on halves in SPIR-V", "[spvasm][float-atomics]") {
  const host::Device device;
  auto program = test::loadSpvasm(device, "half_atomics");
  host::Kernel k(program, "half_atomics");
  // out = {sum, min, max} as halves, starting at {1, 1, 1}; 8 work-items each add 0.25 * (i - 3), min and max it.
  std::vector<uint16_t> init = {numerics::toHalf(1.0).bits, numerics::toHalf(1.0).bits, numerics::toHalf(1.0).bits};
  auto out = std::make_shared<host::Buffer>(init.data(), init.size() * 2);
  k.setArg(0, out);
  const auto res = k.run(range(8, 8));
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto r = out->as<numerics::Half>();
  double sum = 1;
  for (int i = 0; i < 8; ++i) sum += 0.25 * (i - 3);
  CHECK(numerics::toDouble(r[0]) == sum);
  CHECK(numerics::toDouble(r[1]) == -0.75);
  CHECK(numerics::toDouble(r[2]) == 1.0);
}
