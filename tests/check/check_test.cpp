// host::check (check/check.hpp): another implementation's output judged element by element with allowed-set
// propagation. The expected classes come from independent sources: the single-function verdict judge() (tested
// against MPFR) for one-instruction kernels, and for composed kernels the error bounds of the spec's tables added up
// by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "check/check.hpp"
#include "numerics/verdict.hpp"

using namespace clref;
using numerics::ScalarType;

namespace {

float stepF(float x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, INFINITY);
  for (; k < 0; ++k) x = std::nextafter(x, -INFINITY);
  return x;
}

std::vector<uint8_t> bytesOf(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

struct Setup {
  host::Device device;
  std::shared_ptr<host::Program> program;
  std::unique_ptr<host::Kernel> kernel;
  std::shared_ptr<host::Buffer> in, out;
  std::vector<float> reference;

  Setup(const char* source, const std::vector<float>& x) {
    program = host::Program::fromOpenCLC(device, source);
    kernel = std::make_unique<host::Kernel>(program, "k");
    in = std::make_shared<host::Buffer>(x.data(), x.size() * 4);
    std::vector<float> zeros(x.size(), 0.0f);
    out = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * 4);
    kernel->setArg(0, in);
    kernel->setArg(1, out);
    // clref's own result, from a plain run.
    auto copy = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * 4);
    kernel->setArg(1, copy);
    REQUIRE(kernel->run(range(x.size())).ok);
    reference.assign(copy->as<float>().begin(), copy->as<float>().end());
    kernel->setArg(1, out);
  }
  static host::NDRange range(size_t n) {
    host::NDRange r;
    r.global = {n, 1, 1};
    r.local = std::array<size_t, 3>{1, 1, 1};
    return r;
  }
  host::CheckReport check(const std::vector<float>& observed) {
    std::vector<float> zeros(reference.size(), 0.0f);
    std::memcpy(out->data(), zeros.data(), zeros.size() * 4);  // the run starts from the same inputs
    return host::check(*kernel, range(reference.size()), {{1, ScalarType::Float, bytesOf(observed)}});
  }
};

}  // namespace

TEST_CASE("check: one sin per element is judged exactly as the single-function verdict judges it", "[check]") {
  const std::vector<float> x = {1.0f, 2.0f, 0.5f, 3.0f, -1.25f, 100.0f, 0.0f, 1e-3f};
  Setup s("kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); y[i] = sin(x[i]); }",
          x);
  std::vector<float> observed = s.reference;
  const int offsets[] = {0, 1, -3, 4, 5, -6, 1, 12};
  for (size_t i = 0; i < x.size(); ++i) observed[i] = stepF(observed[i], offsets[i]);
  const auto report = s.check(observed);
  REQUIRE(report.run.ok);
  REQUIRE(report.buffers.size() == 1);
  const auto& b = report.buffers[0];
  CHECK(b.elements == x.size());
  std::vector<host::ElementClass> cls(x.size(), host::ElementClass::Identical);
  for (const auto& d : b.details) cls[d.index] = d.cls;
  for (size_t i = 0; i < x.size(); ++i) {
    const double arg = x[i];
    const bool allowed = numerics::judge(numerics::MathFn::sin, std::span<const double>(&arg, 1), double(observed[i]),
                                         numerics::Format::Float, numerics::Profile::Full)
                             .allowed;
    INFO("x = " << x[i] << " observed " << observed[i] << " reference " << s.reference[i]);
    if (offsets[i] == 0)
      CHECK(cls[i] == host::ElementClass::Identical);
    else
      CHECK(cls[i] == (allowed ? host::ElementClass::Allowed : host::ElementClass::Violation));
  }
  CHECK(b.violations > 0);
  CHECK(b.allowed > 0);
  CHECK(report.anyViolation());
  for (const auto& d : b.details)
    if (d.cls == host::ElementClass::Violation) CHECK_THAT(d.reason, Catch::Matchers::Contains("sin"));
  CHECK(report.decisions.empty());
}

TEST_CASE("check: a composed value keeps the freedom of each step, and no more", "[check]") {
  // y = sin(x) * 2 + 0.25: sin within 4 ulp of sin(x) (ulp 2^-24 for sin(1) ~ 0.84), doubled (exact) to within
  // 8·2^-24 = 2^-21, plus 0.25 correctly rounded (result ~1.93, ulp 2^-23): the set spans about ±(1 + 0.5) ulp of the
  // result around clref's value. 1 ulp is allowed; 40 ulp is far outside.
  const std::vector<float> x = {1.0f, 1.0f, 1.0f};
  Setup s(
      "kernel void k(global const float* x, global float* y) {\n"
      "  size_t i = get_global_id(0);\n  y[i] = sin(x[i]) * 2.0f + 0.25f;\n}\n",
      x);
  std::vector<float> observed = s.reference;
  observed[1] = stepF(observed[1], 1);
  observed[2] = stepF(observed[2], 40);
  const auto report = s.check(observed);
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  CHECK(b.identical == 1);
  CHECK(b.allowed == 1);
  CHECK(b.violations == 1);
  REQUIRE(b.details.size() == 2);
  CHECK(b.details[1].index == 2);
  CHECK(b.details[1].cls == host::ElementClass::Violation);
  CHECK_THAT(b.details[1].reason, Catch::Matchers::Contains("ulp beyond the allowed set"));
  // The instruction whose rule gave the element its set: the final multiply-add (clang contracts `* 2.0f + 0.25f`
  // into OpenCL.std mad).
  CHECK_THAT(b.details[1].reason,
             Catch::Matchers::Contains("its allowed set is the rule of") && Catch::Matchers::Contains(" mad "));
}

TEST_CASE("check: a comparison the allowed sets leave open makes what depends on it undetermined", "[check]") {
  // sin(1) is 0x1.aed548p-1 correctly rounded: a device may return a few ulp below it, so `sin(x) >= t` with t that
  // value is open, and so is the selected result. Far from t (x = 2) the comparison is decided.
  const std::vector<float> x = {1.0f, 2.0f};
  Setup s(
      "kernel void k(global const float* x, global float* y) {\n"
      "  size_t i = get_global_id(0);\n  y[i] = sin(x[i]) >= 0x1.aed548p-1f ? 10.0f : 20.0f;\n}\n",
      x);
  CHECK(s.reference[0] == 10.0f);
  std::vector<float> observed = {20.0f, 20.0f};
  const auto report = s.check(observed);
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  CHECK(b.identical == 0);
  CHECK(b.undetermined + b.allowed == 1);  // element 0: the device may have decided either way
  CHECK(b.violations == 1);                // element 1: sin(2) ~ 0.91 is surely >= t, so 20 is wrong
  REQUIRE_FALSE(report.decisions.empty());
  CHECK_THAT(report.decisions[0].message, Catch::Matchers::Contains("comparison of"));
}

TEST_CASE("check: integer results and bad observed buffers", "[check]") {
  host::Device device;
  auto program = host::Program::fromOpenCLC(
      device, "kernel void k(global const int* a, global int* b) { size_t i = get_global_id(0); b[i] = a[i] * 3; }");
  host::Kernel kernel(program, "k");
  std::vector<int> a = {1, 2, 3, 4};
  auto in = std::make_shared<host::Buffer>(a.data(), 16);
  std::vector<int> zeros(4, 0);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 16);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {4, 1, 1};
  std::vector<int> observed = {3, 6, 10, 12};
  std::vector<uint8_t> bytes(16);
  std::memcpy(bytes.data(), observed.data(), 16);
  const auto report = host::check(kernel, r, {{1, ScalarType::Int, bytes}});
  const auto& b = report.buffers.at(0);
  CHECK(b.identical == 3);
  CHECK(b.violations == 1);
  REQUIRE(b.details.size() == 1);
  CHECK(b.details[0].index == 2);
  CHECK(b.details[0].observed == "10");
  CHECK(b.details[0].reference == "9");
  bytes.resize(12);
  CHECK_THROWS_AS(host::check(kernel, r, {{1, ScalarType::Int, bytes}}), host::Error);
  CHECK(host::elementTypeOf("global float4*") == ScalarType::Float);
  CHECK(host::elementTypeOf("__global const uint *") == ScalarType::UInt);
  CHECK(host::elementTypeOf("global struct S*") == std::nullopt);
}

namespace {

// Runs `source`'s kernel k(global const T* x, global U* y) over x and judges `observed` for y.
template <class T, class U> host::CheckReport checkKernel(const char* source, const std::vector<T>& x,
                                                          const std::vector<U>& observed, ScalarType type,
                                                          const host::CheckOptions& options = {}) {
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, source);
  host::Kernel kernel(program, "k");
  auto in = std::make_shared<host::Buffer>(x.data(), x.size() * sizeof(T));
  std::vector<U> zeros(observed.size(), U{});
  auto out = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * sizeof(U));
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {x.size(), 1, 1};
  std::vector<uint8_t> bytes(observed.size() * sizeof(U));
  std::memcpy(bytes.data(), observed.data(), bytes.size());
  auto report = host::check(kernel, r, {{1, type, bytes}}, options);
  REQUIRE(report.run.ok);
  return report;
}

host::ElementClass classOf(const host::CheckReport& r, size_t index) {
  for (const auto& d : r.buffers.at(0).details)
    if (d.index == index) return d.cls;
  return host::ElementClass::Identical;
}

}  // namespace

TEST_CASE("check: planted violations are classified violation at the right element", "[check]") {
  using C = host::ElementClass;
  SECTION("twice the ulp bound of exp (3 ulp): 7 ulp from the correctly rounded value") {
    const std::vector<float> x = {0.5f, 1.5f, 2.5f};
    // The correctly rounded values (MPFR; the host's expf may differ by an ulp): clref's own output, so identical.
    std::vector<float> obs(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double a = x[i];
      obs[i] = float(
          numerics::evaluate(numerics::MathFn::exp, std::span<const double>(&a, 1), numerics::Format::Float).value);
    }
    obs[1] = stepF(obs[1], 7);
    const auto r = checkKernel<float, float>(
        "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); y[i] = exp(x[i]); }", x,
        obs, ScalarType::Float);
    CHECK(r.buffers[0].violations == 1);
    CHECK(classOf(r, 1) == C::Violation);
    CHECK(r.buffers[0].identical == 2);
  }
  SECTION("a wrong rounding mode in a conversion: round toward zero where the default rounds to nearest") {
    const std::vector<double> x = {1.0 + 0x1p-23 * 0.75, 2.75, -1.0 - 0x1p-23 * 0.75};
    // (float)x rounds to nearest even: 1 + 0.75·2^-23 (0.75 ulp) → 1 + 2^-23; RTZ gives 1. The last: → -1 - 2^-23.
    std::vector<float> obs = {1.0f, 2.75f, -1.0f};
    const auto r = checkKernel<double, float>(
        "kernel void k(global const double* x, global float* y) { size_t i = get_global_id(0); y[i] = (float)x[i]; }",
        x, obs, ScalarType::Float);
    CHECK(classOf(r, 0) == C::Violation);
    CHECK(classOf(r, 1) == C::Identical);
    CHECK(classOf(r, 2) == C::Violation);
    const std::vector<float> f = {2.7f, -2.7f, 2.5f};
    const std::vector<int> rtz = {2, -2, 2};  // convert_int_rte gives 3, -3, 2
    const auto ri = checkKernel<float, int>(
        "kernel void k(global const float* x, global int* y) { size_t i = get_global_id(0); y[i] = "
        "convert_int_rte(x[i]); }",
        f, rtz, ScalarType::Int);
    CHECK(classOf(ri, 0) == C::Violation);
    CHECK(classOf(ri, 1) == C::Violation);
    CHECK(classOf(ri, 2) == C::Identical);
  }
  SECTION("a flipped sign of zero where the spec fixes it, allowed with -cl-no-signed-zeros") {
    const std::vector<float> x = {1.0f, 2.0f};
    const std::vector<float> obs = {-0.0f, 0.0f};  // x - x is +0 in round to nearest
    const char* src =
        "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); "
        "y[i] = x[i] - x[i]; }";
    const auto r = checkKernel<float, float>(src, x, obs, ScalarType::Float);
    CHECK(classOf(r, 0) == C::Violation);
    CHECK(classOf(r, 1) == C::Identical);
    const auto relaxed = checkKernel<float, float>(
        src, x, obs, ScalarType::Float, host::checkOptionsFor(numerics::Profile::Full, "-cl-no-signed-zeros"));
    CHECK(classOf(relaxed, 0) == C::Allowed);
  }
  SECTION("a flush to zero where the profile forbids it (double), allowed with -cl-denorms-are-zero; float may") {
    const std::vector<double> x = {0x1p-30, 1.0};
    const std::vector<double> obs = {0.0, 0x1p-1000};  // x · 2^-1000: 2^-1030 is subnormal in double
    const char* src =
        "kernel void k(global const double* x, global double* y) { size_t i = get_global_id(0); "
        "y[i] = x[i] * 0x1p-1000; }";
    const auto r = checkKernel<double, double>(src, x, obs, ScalarType::Double);
    CHECK(classOf(r, 0) == C::Violation);
    CHECK(classOf(r, 1) == C::Identical);
    const auto daz = checkKernel<double, double>(
        src, x, obs, ScalarType::Double, host::checkOptionsFor(numerics::Profile::Full, "-cl-denorms-are-zero"));
    CHECK(classOf(daz, 0) == C::Allowed);
    const std::vector<float> xf = {0x1p-30f};
    const std::vector<float> of = {0.0f};  // 2^-130 is subnormal in float: a full-profile device may flush it
    const auto rf = checkKernel<float, float>(
        "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); y[i] = x[i] * 0x1p-100f; "
        "}",
        xf, of, ScalarType::Float);
    CHECK(classOf(rf, 0) == C::Allowed);
  }
}

TEST_CASE("check: a * b + c may be contracted unless the module forbids it (SPIR-V NoContraction)", "[check]") {
  // a·a - 1 with a = 1 + 2^-12: unfused (1 + 2^-11 + 2^-24 rounds to 1 + 2^-11) gives 2^-11; fused gives
  // 2^-11 + 2^-24 exactly.
  const std::vector<float> x = {1.0f + 0x1p-12f};
  const std::vector<float> fused = {0x1p-11f + 0x1p-24f}, unfused = {0x1p-11f};
  // Contractable in the source: clang emits OpenCL.std mad, which allows both (clref's default choice is fused).
  const char* madSrc =
      "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); "
      "float a = x[i]; y[i] = a * a - 1.0f; }";
  CHECK(classOf(checkKernel<float, float>(madSrc, x, unfused, ScalarType::Float), 0) == host::ElementClass::Allowed);
  // FP_CONTRACT OFF: a separate OpFMul and OpFSub, which llvm-spirv-15 leaves without NoContraction, so a SPIR-V
  // consumer may still fuse them; CheckOptions::contraction = false judges them as never fused.
  const char* split =
      "#pragma OPENCL FP_CONTRACT OFF\n"
      "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); "
      "float a = x[i]; y[i] = a * a - 1.0f; }";
  CHECK(classOf(checkKernel<float, float>(split, x, fused, ScalarType::Float), 0) == host::ElementClass::Allowed);
  host::CheckOptions strict;
  strict.contraction = false;
  CHECK(classOf(checkKernel<float, float>(split, x, fused, ScalarType::Float, strict), 0) ==
        host::ElementClass::Violation);
}

TEST_CASE("check: what depends on the order of atomics is undetermined, commutative totals are exact", "[check]") {
  // Each work-item takes a slot with atomic_inc and writes its id there: another device may fill the slots in any
  // order. The counter's final value does not depend on the order.
  host::Device device;
  auto program = host::Program::fromOpenCLC(device,
                                            "kernel void k(global uint* counter, global uint* out) {\n"
                                            "  uint slot = atomic_inc(counter);\n"
                                            "  out[slot] = (uint)get_global_id(0);\n}\n");
  host::Kernel kernel(program, "k");
  std::vector<uint32_t> zero(1, 0), zeros(8, 0);
  auto counter = std::make_shared<host::Buffer>(zero.data(), 4);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 32);
  kernel.setArg(0, counter);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {8, 1, 1};
  std::vector<uint32_t> reversed = {7, 6, 5, 4, 3, 2, 1, 0}, total = {9};
  std::vector<uint8_t> outBytes(32), counterBytes(4);
  std::memcpy(outBytes.data(), reversed.data(), 32);
  std::memcpy(counterBytes.data(), total.data(), 4);
  const auto report = host::check(kernel, r, {{0, ScalarType::UInt, counterBytes}, {1, ScalarType::UInt, outBytes}});
  REQUIRE(report.run.ok);
  CHECK(report.buffers[0].violations == 1);  // 9 is not 8: the total has no freedom
  CHECK(report.buffers[1].violations == 0);
  CHECK(report.buffers[1].undetermined > 0);
  REQUIRE_FALSE(report.decisions.empty());
  CHECK_THAT(report.decisions[0].message, Catch::Matchers::Contains("atomic"));
}

TEST_CASE("check: a result another device decides by another option of a free choice is allowed", "[check]") {
  // mul24 beyond 24 bits and a division by zero: implementation-defined and unspecified. A device that computes the
  // full product and gives all ones for x / 0 (clref's other options) conforms.
  const char* src =
      "kernel void k(global const int* a, global int* out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[2 * i] = mul24(a[i], 3);\n"
      "  out[2 * i + 1] = 100 / (a[i] - 5);\n}\n";
  std::vector<int> a = {0x1000000, 5, 7};
  auto observedWith = [&](const std::vector<std::string>& choices) {
    host::Device device;
    for (const auto& c : choices) device.config().choices.set(c);
    auto program = host::Program::fromOpenCLC(device, src);
    host::Kernel k(program, "k");
    std::vector<int> zeros(6, 0);
    auto in = std::make_shared<host::Buffer>(a.data(), 12);
    auto out = std::make_shared<host::Buffer>(zeros.data(), 24);
    k.setArg(0, in);
    k.setArg(1, out);
    host::NDRange r;
    r.global = {3, 1, 1};
    REQUIRE(k.run(r).ok);
    const auto* b = reinterpret_cast<const uint8_t*>(out->data());
    return std::vector<uint8_t>(b, b + 24);
  };
  const auto other = observedWith({"mul24_out_of_range=full_product", "int_div_by_zero=all_ones"});
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, src);
  host::Kernel kernel(program, "k");
  std::vector<int> zeros(6, 0);
  auto in = std::make_shared<host::Buffer>(a.data(), 12);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 24);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {3, 1, 1};
  const auto report = host::check(kernel, r, {{1, ScalarType::Int, other}});
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  CHECK(b.violations == 0);
  CHECK(b.allowed == 2);  // out[0] (mul24 of 2^24) and out[3] (100 / 0)
  CHECK(classOf(report, 0) == host::ElementClass::Allowed);
  CHECK(classOf(report, 3) == host::ElementClass::Allowed);
  // An in-range mul24 has no freedom: 7·3 = 21 exactly.
  auto wrong = other;
  const int bad = 22;
  std::memcpy(wrong.data() + 16, &bad, 4);
  CHECK(classOf(host::check(kernel, r, {{1, ScalarType::Int, wrong}}), 4) == host::ElementClass::Violation);
}

TEST_CASE("check: a float work-group reduction summed in another order is allowed, min is exact", "[check]") {
  // work_group_reduce_add's order is open (OpenCL C 3.0 §6.15.16 [[work-group-functions]]); 1, 2^-24, 2^-24, ...
  // summed left to right stays 1, summed right to left is larger. work_group_reduce_min has one answer.
  host::Device device;
  auto program = host::Program::fromOpenCLC(device,
                                            "kernel void k(global const float* f, global float* out) {\n"
                                            "  size_t i = get_global_id(0);\n"
                                            "  out[2 * i] = work_group_reduce_add(f[i]);\n"
                                            "  out[2 * i + 1] = work_group_reduce_min(f[i]);\n}\n",
                                            "-cl-std=CL3.0");
  host::Kernel kernel(program, "k");
  std::vector<float> f(8, 0x1p-24f);
  f[0] = 1.0f;
  auto in = std::make_shared<host::Buffer>(f.data(), 32);
  std::vector<float> zeros(16, 0);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 64);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {8, 1, 1};
  r.local = std::array<size_t, 3>{8, 1, 1};
  float backwards = 0;
  for (int i = 7; i >= 0; --i) backwards += f[size_t(i)];  // 7·2^-24 first, then 1: 1 + 2^-23·3
  REQUIRE(backwards != 1.0f);
  std::vector<float> observed(16);
  for (size_t i = 0; i < 8; ++i) {
    observed[2 * i] = backwards;
    observed[2 * i + 1] = 0x1p-24f;
  }
  observed[1] = 1.0f;  // a wrong minimum
  std::vector<uint8_t> bytes(64);
  std::memcpy(bytes.data(), observed.data(), 64);
  const auto report = host::check(kernel, r, {{1, ScalarType::Float, bytes}});
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  for (size_t i = 0; i < 8; ++i) CHECK(classOf(report, 2 * i) != host::ElementClass::Violation);
  CHECK(classOf(report, 1) == host::ElementClass::Violation);
  CHECK(b.violations == 1);
}

TEST_CASE("check: a sample of work-groups judges exactly the elements they wrote", "[check]") {
  host::Device device;
  auto program = host::Program::fromOpenCLC(
      device, "kernel void k(global const int* a, global int* b) { size_t i = get_global_id(0); b[i] = a[i] * 3; }");
  host::Kernel kernel(program, "k");
  const size_t n = 64;  // 8 work-groups of 8
  std::vector<int> a(n), zeros(n, 0), observed(n);
  for (size_t i = 0; i < n; ++i) observed[i] = 3 * (a[i] = int(i));
  observed[3] = 1000;   // in group 0, sampled: a violation
  observed[20] = 1000;  // in group 2, not sampled: not judged
  observed[60] = 1000;  // in group 7, the last, sampled
  auto in = std::make_shared<host::Buffer>(a.data(), n * 4);
  auto out = std::make_shared<host::Buffer>(zeros.data(), n * 4);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{8, 1, 1};
  std::vector<uint8_t> bytes(n * 4);
  std::memcpy(bytes.data(), observed.data(), bytes.size());
  host::CheckOptions o;
  o.sampleGroups = 2;
  const auto report = host::check(kernel, r, {{1, ScalarType::Int, bytes}}, o);
  CHECK(report.sampledGroups == std::vector<uint64_t>{0, 7});
  const auto& b = report.buffers.at(0);
  CHECK(b.notJudged == 48);
  CHECK(b.identical == 14);
  CHECK(b.violations == 2);
  REQUIRE(b.details.size() == 2);
  CHECK(b.details[0].index == 3);
  CHECK(b.details[1].index == 60);
  // As many groups as the launch has: every element is judged.
  std::memcpy(out->data(), zeros.data(), n * 4);
  o.sampleGroups = 8;
  const auto all = host::check(kernel, r, {{1, ScalarType::Int, bytes}}, o);
  CHECK(all.sampledGroups.empty());
  CHECK(all.buffers.at(0).violations == 3);
  CHECK(all.buffers.at(0).notJudged == 0);
}

TEST_CASE("check: an undefined shuffle component (as_int4 of an int3) allows any value", "[check]") {
  host::Device device;
  auto program = host::Program::fromOpenCLC(device,
                                            "kernel void k(global const int* a, global int4* b) {\n"
                                            "  size_t i = get_global_id(0);\n"
                                            "  b[i] = as_int4(vload3(i, a));\n"
                                            "}");
  host::Kernel kernel(program, "k");
  std::vector<int> a = {1, 2, 3, 4, 5, 6}, zeros(8, 0);
  auto in = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
  auto out = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * 4);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {2, 1, 1};
  // as_type4 of a 3-component vector leaves the fourth component undefined:
  // OpenCL C 3.0 §6.4.4.2 [[reinterpreting-types-using-as_type-and-as_typen]].
  std::vector<int> observed = {1, 2, 3, 12345, 4, 5, 7, -1};
  std::vector<uint8_t> bytes(32);
  std::memcpy(bytes.data(), observed.data(), 32);
  const auto report = host::check(kernel, r, {{1, ScalarType::Int, bytes}});
  const auto& b = report.buffers.at(0);
  CHECK(b.identical == 5);
  CHECK(b.allowed == 2);  // elements 3 and 7
  CHECK(b.violations == 1);
  for (const auto& d : b.details) {
    if (d.index == 6) CHECK(d.cls == host::ElementClass::Violation);
    if (d.index == 3 || d.index == 7) CHECK(d.cls == host::ElementClass::Allowed);
  }
}

TEST_CASE("check: a pointer converted to an integer allows any value", "[check]") {
  host::Device device;
  auto program = host::Program::fromOpenCLC(
      device, "kernel void k(global ulong* r) { r[get_global_id(0)] = (ulong)&r[get_global_id(0)]; }");
  host::Kernel kernel(program, "k");
  std::vector<uint64_t> zeros(2, 0), observed = {0x7f0000001000, 0x7f0000001008};
  auto out = std::make_shared<host::Buffer>(zeros.data(), 16);
  kernel.setArg(0, out);
  host::NDRange r;
  r.global = {2, 1, 1};
  std::vector<uint8_t> bytes(16);
  std::memcpy(bytes.data(), observed.data(), 16);
  const auto report = host::check(kernel, r, {{0, ScalarType::ULong, bytes}});
  std::string classes;
  for (const auto& d : report.buffers.at(0).details)
    classes += std::string(host::toString(d.cls)) + ": " + d.reason + "\n";
  INFO(classes);
  CHECK(report.buffers.at(0).allowed == 2);
  CHECK(report.buffers.at(0).violations == 0);
}

namespace {

// A kernel that writes an image: (sin(x), x, 0.5, 1) at (i, 0) for every i but 3.
constexpr const char* kImageWriter = R"(
kernel void k(global const float* x, write_only image2d_t out) {
  int i = get_global_id(0);
  if (i == 3) return;
  write_imagef(out, (int2)(i, 0), (float4)(sin(x[i]), x[i], 0.5f, 1.0f));
})";

struct ImageSetup {
  host::Device device;
  std::unique_ptr<host::Kernel> kernel;
  std::shared_ptr<host::Image> image;
  std::vector<uint8_t> reference;  // clref's own contents after a plain run (packed)
  host::NDRange range;

  ImageSetup(images::ChannelType type, const std::vector<float>& x) {
    kernel = std::make_unique<host::Kernel>(host::Program::fromOpenCLC(device, kImageWriter), "k");
    kernel->setArg(0, std::make_shared<host::Buffer>(x.data(), x.size() * 4));
    images::ImageDesc desc;
    desc.type = images::ImageType::Image2D;
    desc.format = {images::ChannelOrder::RGBA, type};
    desc.width = x.size();
    desc.height = 1;
    image = std::make_shared<host::Image>(desc);
    kernel->setArg(1, image);
    range.global = {x.size(), 1, 1};
    range.local = std::array<size_t, 3>{1, 1, 1};
    REQUIRE(kernel->run(range).ok);
    reference.resize(image->size());
    image->read({0, 0, 0}, {x.size(), 1, 1}, reference.data());
    const std::vector<uint8_t> zeros(image->size(), 0);
    image->write({0, 0, 0}, {x.size(), 1, 1}, zeros.data());  // the check starts from the same contents
  }
  host::CheckReport check(const std::vector<uint8_t>& observed, const host::CheckOptions& o = {}) {
    const std::vector<uint8_t> zeros(image->size(), 0);
    image->write({0, 0, 0}, {range.global[0], 1, 1}, zeros.data());
    auto report = host::check(*kernel, range, {}, {{1, observed}}, o);
    REQUIRE(report.run.ok);
    REQUIRE(report.buffers.size() == 1);
    CHECK(report.buffers[0].image);
    return report;
  }
};

}  // namespace

TEST_CASE("check: an image the kernel writes is judged by the write rules with the colour's allowed sets",
          "[check][images]") {
  const std::vector<float> x = {0.5f, 1.0f, 2.0f, 3.0f};
  ImageSetup s(images::ChannelType::Float, x);
  auto floatAt = [&](const std::vector<uint8_t>& b, size_t element, size_t lane) {
    float f;
    std::memcpy(&f, b.data() + element * 16 + lane * 4, 4);
    return f;
  };
  auto withFloat = [&](size_t element, size_t lane, float f) {
    auto b = s.reference;
    std::memcpy(b.data() + element * 16 + lane * 4, &f, 4);
    return b;
  };
  // clref's own contents: every element identical.
  auto same = s.check(s.reference);
  CHECK(same.buffers[0].elements == 4);
  CHECK(same.buffers[0].identical == 4);
  // sin is within 4 ulp (OpenCL SPIR-V Environment §6.6 [[relative-error-as-ulps]]): 2 ulp
  // away is allowed, 50 ulp is not. x itself and 0.5 are exact.
  const float sin1 = floatAt(s.reference, 1, 0);
  CHECK(std::fabs(sin1 - std::sin(1.0)) < 1e-6);
  CHECK(s.check(withFloat(1, 0, stepF(sin1, 2))).buffers[0].allowed == 1);
  auto far = s.check(withFloat(1, 0, stepF(sin1, 50)));
  CHECK(far.buffers[0].violations == 1);
  REQUIRE(far.buffers[0].details.size() == 1);
  CHECK(far.buffers[0].details[0].index == 1);
  CHECK_THAT(far.buffers[0].details[0].reason, Catch::Contains("(1, 0)") || Catch::Contains("(1)"));
  CHECK_THAT(far.buffers[0].details[0].reason, Catch::Contains("written by"));
  CHECK(s.check(withFloat(2, 1, stepF(2.0f, 1))).buffers[0].violations == 1);
  CHECK(s.check(withFloat(0, 2, stepF(0.5f, -1))).buffers[0].violations == 1);
  // Element 3 is never written: a change there is a violation that says so.
  auto unwritten = s.check(withFloat(3, 0, 1.0f));
  REQUIRE(unwritten.buffers[0].violations == 1);
  CHECK_THAT(unwritten.buffers[0].details[0].reason, Catch::Contains("wrote no element there"));
  // A sample of two work-groups (the first and the last) judges elements 0 and 3; 3 is unwritten, so only 0 is
  // judged and the others are left out.
  host::CheckOptions o;
  o.sampleGroups = 2;
  auto sampled = s.check(withFloat(1, 0, stepF(sin1, 50)), o);
  CHECK(sampled.buffers[0].elements == 4);
  CHECK(sampled.buffers[0].notJudged == 3);
  CHECK(sampled.buffers[0].violations == 0);
  // The wrong size is an error.
  auto shortBytes = s.reference;
  shortBytes.pop_back();
  CHECK_THROWS_AS(host::check(*s.kernel, s.range, {}, {{1, shortBytes}}), host::Error);
  CHECK_THROWS_AS(host::check(*s.kernel, s.range, {}, {{0, s.reference}}), host::Error);
}

TEST_CASE("check: a normalized image allows other roundings within 0.6 of the exact scaled value", "[check][images]") {
  // x = 1: sin(1) × 255 = 214.575...: 215 (preferred) and 214 (0.575 away) allowed, 213 not; x × 255 = 255 exactly:
  // only 255; 0.5 × 255 = 127.5: 127 and 128.
  const std::vector<float> x = {0.5f, 1.0f, 0.25f, 0.0f};
  ImageSetup s(images::ChannelType::UnormInt8, x);
  CHECK(s.reference[4] == 215);
  CHECK(s.reference[5] == 255);
  CHECK(s.reference[6] == 128);
  auto with = [&](size_t at, uint8_t code) {
    auto b = s.reference;
    b[at] = code;
    return b;
  };
  CHECK(s.check(with(4, 214)).buffers[0].allowed == 1);
  auto low = s.check(with(4, 213));
  REQUIRE(low.buffers[0].violations == 1);
  CHECK(low.buffers[0].details[0].allowedString() == "R=214..215 G=255 B=127..128 A=255");
  CHECK(low.buffers[0].details[0].observed == "R=213 G=255 B=128 A=255");
  CHECK(s.check(with(5, 254)).buffers[0].violations == 1);
  CHECK(s.check(with(6, 127)).buffers[0].allowed == 1);
}

namespace {

// A 4x4 CL_RGBA / CL_UNORM_INT8 image, texel (x, y) with R = 16 (x + 4 y) + 8 and G = 255 - R, B = 0, A = 255.
std::shared_ptr<host::Image> gradientImage() {
  images::ImageDesc desc;
  desc.type = images::ImageType::Image2D;
  desc.format = {images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  desc.width = desc.height = 4;
  auto image = std::make_shared<host::Image>(desc);
  std::vector<uint8_t> texels(64);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int r = 16 * (x + 4 * y) + 8;
      texels[4 * (x + 4 * y) + 0] = uint8_t(r);
      texels[4 * (x + 4 * y) + 1] = uint8_t(255 - r);
      texels[4 * (x + 4 * y) + 2] = 0;
      texels[4 * (x + 4 * y) + 3] = 255;
    }
  image->write({0, 0, 0}, {4, 4, 1}, texels.data());
  return image;
}

// A kernel k(image, sampler, global float* out) of 4 work-items reading gradientImage() with a normalized,
// CLAMP_TO_EDGE, linear sampler into `out`.
struct LinearReads {
  host::Device device;
  host::Kernel kernel;
  images::Sampler sampler;
  const std::vector<float> zeros = std::vector<float>(4, 0.0f);
  std::shared_ptr<host::Buffer> out = std::make_shared<host::Buffer>(zeros.data(), 16);
  host::NDRange range;
  explicit LinearReads(const char* source) : kernel(host::Program::fromOpenCLC(device, source), "k") {
    kernel.setArg(0, gradientImage());
    sampler.normalizedCoords = true;
    sampler.addressing = images::AddressingMode::ClampToEdge;
    sampler.filter = images::FilterMode::Linear;
    kernel.setArgSampler(1, sampler);
    kernel.setArg(2, out);
    range.global = {4, 1, 1};
    range.local = std::array<size_t, 3>{1, 1, 1};
  }
};

}  // namespace

TEST_CASE("check: a linear read allows a weighted average of its footprint, not 0 or a far texel", "[check][images]") {
  // A 4x4 CL_RGBA / CL_UNORM_INT8 image, texel (x, y) with R = 16 (x + 4 y) + 8; work-item i reads R at
  // ((4 i + 1) / 16, 0.45) normalized (exact products: no freedom in the coordinate), CLAMP_TO_EDGE, linear:
  // u = i + 0.25, v = 1.8, i0 = floor(i - 0.25), j0 = floor(1.3) = 1, so i = 1 blends x {0, 1}, y {1, 2} (R 72, 88,
  // 136, 152) and i = 2 x {1, 2}, y {1, 2} (R 88, 104, 152, 168); texel (3, 3), R = 248, lies in neither footprint.
  const char* source =
      "kernel void k(read_only image2d_t img, sampler_t s, global float* out) {\n"
      "  int i = get_global_id(0);\n"
      "  out[i] = read_imagef(img, s, (float2)((4 * i + 1) * 0.0625f, 0.45f)).x;\n"
      "}\n";
  LinearReads t(source);
  host::Kernel& kernel = t.kernel;
  images::Sampler& sampler = t.sampler;
  const std::vector<float>& zeros = t.zeros;
  const std::shared_ptr<host::Buffer>& out = t.out;
  const host::NDRange& range = t.range;
  REQUIRE(kernel.run(range).ok);
  const std::vector<float> reference(out->as<float>().begin(), out->as<float>().end());
  // clref's values lie strictly between the footprints' least and greatest texels.
  CHECK(reference[1] > 72.0f / 255 + 1e-3f);
  CHECK(reference[1] < 152.0f / 255 - 1e-3f);
  // (a) 0.0 at element 1, (b) texel (3, 3)'s value at element 2, (c) clref's value + 1 ulp at element 3.
  std::vector<float> observed = reference;
  observed[1] = 0.0f;
  observed[2] = 248.0f / 255;
  observed[3] = stepF(reference[3], 1);
  std::memcpy(out->data(), zeros.data(), 16);
  const auto report = host::check(kernel, range, {{2, ScalarType::Float, bytesOf(observed)}});
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  CHECK(b.identical == 1);
  CHECK(b.allowed == 1);
  CHECK(b.violations == 2);
  for (const auto& d : b.details) {
    INFO("element " << d.index << ": " << d.reason << " allowed " << d.allowedString());
    if (d.index == 3) {
      CHECK(d.cls == host::ElementClass::Allowed);
    } else {
      CHECK(d.cls == host::ElementClass::Violation);
      // The allowed set is the footprint's hull: no zero, nothing near 248 / 255.
      CHECK_FALSE(d.allowed.contains(0.0));
      CHECK(d.allowed.hi < 200.0 / 255);
      CHECK(d.allowed.lo > 60.0 / 255);
    }
  }
  // With CLAMP, element 0 (u = 0.25, i0 = -1) blends the border colour (R = 0) with texels (0, 1) and (0, 2): a zero
  // of either sign is allowed there, a negative number is not.
  sampler.addressing = images::AddressingMode::Clamp;
  kernel.setArgSampler(1, sampler);
  std::memcpy(out->data(), zeros.data(), 16);
  REQUIRE(kernel.run(range).ok);
  std::vector<float> withBorder(out->as<float>().begin(), out->as<float>().end());
  auto judgeFirst = [&](float first) {
    withBorder[0] = first;
    std::memcpy(out->data(), zeros.data(), 16);
    return host::check(kernel, range, {{2, ScalarType::Float, bytesOf(withBorder)}}).buffers.at(0);
  };
  CHECK(judgeFirst(-0.0f).allowed == 1);
  CHECK(judgeFirst(0.0f).violations == 0);
  CHECK(judgeFirst(-1e-45f).violations == 1);
}

TEST_CASE("check: with the race checker on, racing writes leave their bytes undetermined, naming the race",
          "[check][races]") {
  // Every work-item writes its input to out[0] (the last writer wins on clref: work-item 3; any of them elsewhere),
  // and twice its input to out[1 + i] (no race).
  const char* source =
      "kernel void k(global const int* a, global int* out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[0] = a[i];\n"
      "  out[1 + i] = 2 * a[i];\n"
      "}\n";
  auto judge = [&](bool races) {
    host::DeviceConfig config;
    if (races) config.checks.add(interpreter::Check::Races);
    config.checksFatal = false;
    host::Device device(config);
    host::Kernel kernel(host::Program::fromOpenCLC(device, source), "k");
    const std::vector<int> a = {10, 20, 30, 40};
    kernel.setArg(0, std::make_shared<host::Buffer>(a.data(), 16));
    const std::vector<int> zeros(5, 0);
    kernel.setArg(1, std::make_shared<host::Buffer>(zeros.data(), 20));
    host::NDRange r;
    r.global = {4, 1, 1};
    r.local = std::array<size_t, 3>{4, 1, 1};
    // out[0] as if work-item 1 had written last; out[2] wrong.
    const std::vector<int> observed = {20, 20, 41, 60, 80};
    std::vector<uint8_t> bytes(20);
    std::memcpy(bytes.data(), observed.data(), 20);
    return host::check(kernel, r, {{1, ScalarType::Int, bytes}});
  };
  const auto plain = judge(false);
  CHECK(plain.buffers.at(0).violations == 2);
  const auto raced = judge(true);
  REQUIRE(raced.run.findings.size() == 1);
  CHECK(raced.run.findings[0].at.kind == interpreter::FaultKind::DataRace);
  const auto& b = raced.buffers.at(0);
  CHECK(b.identical == 3);
  REQUIRE(b.undetermined == 1);
  REQUIRE(b.violations == 1);
  for (const auto& d : b.details) {
    if (d.index == 0) {
      CHECK(d.cls == host::ElementClass::Undetermined);
      CHECK_THAT(d.reason, Catch::Contains("two writes raced"));
    } else {
      CHECK(d.index == 2);
      CHECK(d.cls == host::ElementClass::Violation);
    }
  }
}

TEST_CASE("check: a race that involves a read leaves every differing element undetermined", "[check][races]") {
  // Work-item i reads x[i + 1], which work-item i + 1 writes with nothing ordering them: the value read may be the
  // old or the new one, and everything computed from it may differ.
  const char* source = "kernel void k(global int* x) { size_t i = get_global_id(0); int v = i < 3 ? x[i + 1] : 0; "
                       "x[i] = v + 1; }";
  host::DeviceConfig config;
  config.checks.add(interpreter::Check::Races);
  config.checksFatal = false;
  host::Device device(config);
  host::Kernel kernel(host::Program::fromOpenCLC(device, source), "k");
  const std::vector<int> x = {1, 2, 3, 4};
  kernel.setArg(0, std::make_shared<host::Buffer>(x.data(), 16));
  host::NDRange r;
  r.global = {4, 1, 1};
  r.local = std::array<size_t, 3>{4, 1, 1};
  const std::vector<int> observed = {100, 200, 300, 400};
  std::vector<uint8_t> bytes(16);
  std::memcpy(bytes.data(), observed.data(), 16);
  const auto report = host::check(kernel, r, {{0, ScalarType::Int, bytes}});
  REQUIRE_FALSE(report.run.findings.empty());
  CHECK(report.buffers.at(0).undetermined == 4);
  CHECK_THAT(report.buffers[0].details.at(0).reason, Catch::Contains("involves a read"));
}

TEST_CASE("check: an integer that is any value stays any value through +, -, ^, negation and ~", "[check]") {
  // (int)1e20f is implementation-defined (OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]): any int. v + 7, v ^ 5,
  // -v and ~v - 3 are any int too; v & 1 is 0 or 1, which the verdict cannot say: undetermined.
  const char* source =
      "kernel void k(global const float* x, global int* out) {\n"
      "  int v = (int)x[0];\n"
      "  out[0] = v + 7; out[1] = v ^ 5; out[2] = -v; out[3] = ~v - 3; out[4] = v & 1;\n"
      "}\n";
  const std::vector<float> x = {1e20f};
  const std::vector<int> observed = {123, -4, 99, 1 << 30, 7};
  const auto report = checkKernel<float, int>(source, x, observed, ScalarType::Int);
  const auto& b = report.buffers.at(0);
  REQUIRE(b.details.size() == 5);
  for (const auto& d : b.details) {
    INFO(d.index << ": " << d.reason);
    CHECK(d.cls == (d.index == 4 ? host::ElementClass::Undetermined : host::ElementClass::Allowed));
  }
}

TEST_CASE("check: an address computed in a loop from an open decision stays open", "[check]") {
  // The shadow lowering gives no rule to the values that can never carry a set (shadow_exact_values.cpp: work-item
  // ids, loop counters, their arithmetic). k below is built in a loop (an OpPhi cycle of shifts and additions) from
  // j, which an open comparison decides (sin(1) against its correctly rounded value, as above): k and the address it
  // forms must stay undetermined, so that a device that stored at another element is not called wrong.
  const char* source =
      "kernel void k(global const float* x, global float* y) {\n"
      "  size_t i = get_global_id(0);\n"
      "  uint j = sin(x[i]) >= 0x1.aed548p-1f ? 1u : 0u;\n"
      "  uint k = 0;\n"
      "  for (size_t t = 0; t < get_global_size(0) + 1; ++t) k = (k << 1) + j;\n"
      "  y[i * 8 + (k & 7)] = 5.0f;\n"
      "}\n";
  // clref: sin(1) rounds to the threshold, j = 1, k = 3: y[3] = 5. A device whose sin(1) is an ulp below: y[0] = 5.
  std::vector<float> observed(8, 0.0f);
  observed[0] = 5.0f;
  const auto report = checkKernel<float, float>(source, std::vector<float>{1.0f}, observed, ScalarType::Float);
  const auto& b = report.buffers.at(0);
  CHECK(b.violations == 0);
  CHECK(b.undetermined == 2);  // y[0] and y[3]
  CHECK(b.identical == 6);
}

TEST_CASE("check: a buffer of structs is judged field by field with the fields' types", "[check]") {
  // struct { int a; float b; short c; } (12 bytes, 2 of padding): b = sin(x) within 4 ulp, a and c exact.
  const char* source =
      "typedef struct { int a; float b; short c; } S;\n"
      "kernel void k(global const float* x, global S* out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[i].a = (int)i; out[i].b = sin(x[i]); out[i].c = 3;\n"
      "}\n";
  host::Device device;
  host::Kernel kernel(host::Program::fromOpenCLC(device, source), "k");
  const auto layout = host::layoutOf(kernel.argInfo(1));
  REQUIRE(layout);
  CHECK(layout->stride == 12);
  REQUIRE(layout->fields.size() == 3);
  CHECK(layout->fields[1] == std::pair<uint32_t, ScalarType>{4, ScalarType::Float});
  CHECK(layout->fields[2] == std::pair<uint32_t, ScalarType>{8, ScalarType::UShort});
  const std::vector<float> x = {0.5f, 1.0f};
  kernel.setArg(0, std::make_shared<host::Buffer>(x.data(), 8));
  std::vector<uint8_t> zeros(24, 0);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 24);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {2, 1, 1};
  REQUIRE(kernel.run(r).ok);
  std::vector<uint8_t> observed(reinterpret_cast<const uint8_t*>(out->data()),
                                reinterpret_cast<const uint8_t*>(out->data()) + 24);
  std::memcpy(out->data(), zeros.data(), 24);
  float b1;
  std::memcpy(&b1, observed.data() + 16, 4);
  b1 = stepF(b1, 2);  // element 1's b: 2 ulp away, allowed
  std::memcpy(observed.data() + 16, &b1, 4);
  observed[20] = 4;   // element 1's c: 4, not 3
  observed[22] = 77;  // padding: not judged
  host::ObservedBuffer o{1, ScalarType::UChar, observed, layout};
  const auto report = host::check(kernel, r, {o});
  const auto& v = report.buffers.at(0);
  CHECK(v.elements == 6);
  CHECK(v.identical == 4);
  CHECK(v.allowed == 1);
  CHECK(v.violations == 1);
  for (const auto& d : v.details) {
    CHECK(d.index == (d.cls == host::ElementClass::Allowed ? 4u : 5u));
    CHECK_THAT(d.reason, Catch::StartsWith("element 1 at byte offset"));
  }
  // One work-group of the two (work-item 0, local size 1) judges element 0's three fields only.
  r.local = std::array<size_t, 3>{1, 1, 1};
  host::CheckOptions sample;
  sample.sampleGroups = 1;
  const auto sampled = host::check(kernel, r, {o}, sample);
  CHECK(sampled.buffers.at(0).elements == 6);
  CHECK(sampled.buffers.at(0).notJudged == 3);
  CHECK(sampled.buffers.at(0).identical == 3);
}

namespace {

// k(global const T* in, global T* out, local T* t): every work-item stores `value` (an expression of x, its input)
// into t, and the work-group copies t out with async_work_group_copy; 4 work-items in groups of 2, out zeroed.
struct AsyncCopy {
  host::Device device;
  std::unique_ptr<host::Kernel> kernel;
  host::NDRange range;
  std::shared_ptr<host::Buffer> out;

  AsyncCopy(const std::string& type, const std::string& value, const void* in, size_t bytes) {
    const std::string source =
        "kernel void k(global const " + type + "* in, global " + type + "* out, local " + type + "* t) {\n"
        "  size_t l = get_local_id(0);\n"
        "  " + type + " x = in[get_global_id(0)];\n"
        "  t[l] = " + value + ";\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  event_t e = async_work_group_copy(out + get_group_id(0) * get_local_size(0), t, get_local_size(0), 0);\n"
        "  wait_group_events(1, &e);\n"
        "}\n";
    kernel = std::make_unique<host::Kernel>(host::Program::fromOpenCLC(device, source), "k");
    kernel->setArg(0, std::make_shared<host::Buffer>(in, bytes));
    const std::vector<uint8_t> zeros(bytes, 0);
    out = std::make_shared<host::Buffer>(zeros.data(), bytes);
    kernel->setArg(1, out);
    kernel->setArgLocal(2, bytes / 2);
    range.global = {4, 1, 1};
    range.local = std::array<size_t, 3>{2, 1, 1};
  }
};

}  // namespace

TEST_CASE("check: async_work_group_copy keeps the copied values' allowed sets", "[check]") {
  // sin(x) computed into local memory, copied out with async_work_group_copy: 2 ulp away is allowed (sin: 4 ulp),
  // as for a plain store.
  const std::vector<float> x = {0.5f, 1.0f, 2.0f, 3.0f};
  AsyncCopy a("float", "sin(x)", x.data(), 16);
  REQUIRE(a.kernel->run(a.range).ok);
  std::vector<float> observed(a.out->as<float>().begin(), a.out->as<float>().end());
  CHECK(std::fabs(observed[1] - std::sin(1.0)) < 1e-6);
  std::memset(a.out->data(), 0, 16);
  observed[1] = stepF(observed[1], 2);
  observed[2] = stepF(observed[2], 50);
  const auto report = host::check(*a.kernel, a.range, {{1, ScalarType::Float, bytesOf(observed)}});
  CHECK(report.buffers.at(0).allowed == 1);
  CHECK(report.buffers.at(0).violations == 1);
}

TEST_CASE("check: the padding lane of a 3-component vector copied with async_work_group_copy is any value",
          "[check]") {
  // The conformance suite's async_copy_local_to_global for char3: a char3 store leaves its fourth byte undefined
  // (clang stores 4 lanes, the last undef), and async_work_group_copy of char3 copies 4 bytes per element.
  std::vector<int8_t> src(16);
  for (size_t i = 0; i < 16; ++i) src[i] = int8_t(i + 10);
  AsyncCopy a("char3", "x", src.data(), 16);
  std::vector<uint8_t> observed(src.begin(), src.end());  // a device that copied the source's padding bytes too
  observed[5] = 99;                                        // and one wrong component
  const auto report = host::check(*a.kernel, a.range, {{1, ScalarType::Char, observed}});
  const auto& b = report.buffers.at(0);
  CHECK(b.violations == 1);
  for (const auto& d : b.details)
    CHECK((d.index % 4 == 3 ? d.cls == host::ElementClass::Allowed : d.index == 5));
}

TEST_CASE("check: elements judged against the set any value are counted with their source, and --strict makes them "
          "undetermined",
          "[check][strict]") {
  using C = host::ElementClass;
  SECTION("an out-of-range conversion without _sat (an implementation-defined integer)") {
    // OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: 1e20 does not fit an int; 2.0 converts exactly.
    const std::vector<float> x = {1e20f, 2.0f, 3.0f};
    const std::vector<int> obs = {12345, 2, 4};
    const char* src =
        "kernel void k(global const float* x, global int* y) { size_t i = get_global_id(0); y[i] = convert_int(x[i]); "
        "}";
    const auto r = checkKernel<float, int>(src, x, obs, ScalarType::Int);
    const auto& b = r.buffers.at(0);
    CHECK(classOf(r, 0) == C::Allowed);
    CHECK(classOf(r, 2) == C::Violation);  // 3.0 converts to 3 exactly: 4 is not "any value"
    CHECK(b.anyValue == 1);
    REQUIRE(b.anyValueBy.size() == 1);
    CHECK(b.anyValueBy[0].elements == 1);
    CHECK(b.anyValueBy[0].instruction.find("OpConvertFToS") != std::string::npos);
    host::CheckOptions strict;
    strict.strict = true;
    const auto s = checkKernel<float, int>(src, x, obs, ScalarType::Int, strict);
    CHECK(classOf(s, 0) == C::Undetermined);
    CHECK(s.buffers.at(0).undetermined == 1);
    CHECK(s.buffers.at(0).allowed == 0);
    CHECK(s.buffers.at(0).anyValue == 1);
    CHECK(classOf(s, 2) == C::Violation);  // --strict changes nothing but the any-value elements
  }
  SECTION("a native_ function (implementation-defined accuracy) and an exactly bounded one beside it") {
    // OpenCL C 3.0 §6.15.2 [[math-functions]]: native_sin's accuracy is implementation-defined (any value); sin has
    // its 4 ulp bound, so 1000 ulp off is a violation there.
    const std::vector<float> x = {0.5f, 0.5f};
    std::vector<float> obs = {123.0f, stepF(float(std::sin(0.5)), 1000)};
    const char* src =
        "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); "
        "y[i] = i == 0 ? native_sin(x[i]) : sin(x[i]); }";
    const auto r = checkKernel<float, float>(src, x, obs, ScalarType::Float);
    CHECK(classOf(r, 0) == C::Allowed);
    CHECK(classOf(r, 1) == C::Violation);
    const auto& b = r.buffers.at(0);
    CHECK(b.anyValue == 1);
    REQUIRE(b.anyValueBy.size() == 1);
    CHECK(b.anyValueBy[0].instruction.find("native_sin") != std::string::npos);
    host::CheckOptions strict;
    strict.strict = true;
    const auto s = checkKernel<float, float>(src, x, obs, ScalarType::Float, strict);
    CHECK(classOf(s, 0) == C::Undetermined);
    CHECK(s.buffers.at(0).details.at(0).reason.find("any value") != std::string::npos);
  }
  SECTION("an exact output has no any-value elements") {
    const std::vector<float> x = {1.0f, 2.0f};
    const std::vector<float> obs = {2.0f, 4.0f};
    const auto r = checkKernel<float, float>(
        "kernel void k(global const float* x, global float* y) { size_t i = get_global_id(0); y[i] = x[i] * 2.0f; }",
        x, obs, ScalarType::Float);
    CHECK(r.buffers.at(0).anyValue == 0);
    CHECK(r.buffers.at(0).anyValueBy.empty());
  }
}

namespace {

// Runs a CL 3.0 kernel k(global const float* x, global float* out) over one work-group of x.size() work-items and
// judges `observed` for out.
host::CheckReport checkGroupKernel(const char* source, const std::vector<float>& x, const std::vector<float>& observed) {
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, source, "-cl-std=CL3.0");
  host::Kernel kernel(program, "k");
  auto in = std::make_shared<host::Buffer>(x.data(), x.size() * 4);
  std::vector<float> zeros(observed.size(), 0);
  auto out = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * 4);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {x.size(), 1, 1};
  r.local = std::array<size_t, 3>{x.size(), 1, 1};
  auto report = host::check(kernel, r, {{1, ScalarType::Float, bytesOf(observed)}});
  REQUIRE(report.run.ok);
  return report;
}

}  // namespace

TEST_CASE("check: a work-group sum in any order is bounded by the summation error bound, not any value",
          "[check][group]") {
  using C = host::ElementClass;
  // Terms 1 and seven 2^-24 (exact sum 1 + 7·2^-24). Any order of 7 roundings to nearest: within
  // γ7·Σ|x| = 7·2^-24/(1 − 7·2^-24)·(1 + 7·2^-24) ≈ 7.000002·2^-24 of it (Higham, Accuracy and Stability of Numerical
  // Algorithms, (4.4)), plus 15·2^-126 for flushing: the bound 1 + 7·2^-24 + 7.000002·2^-24 lies just above
  // 1 + 7·2^-23 and rounds outward to 1 + 8·2^-23; 1 + 9·2^-23 and 1 + 20·2^-23 are outside, and so is 1 − 2^-23,
  // below 1 + 7·2^-24 − 7.000002·2^-24 ≈ 1 − 2^-45 rounded down to 1 − 2^-24.
  std::vector<float> x(8, 0x1p-24f);
  x[0] = 1.0f;
  const char* reduce =
      "kernel void k(global const float* x, global float* out) { out[get_global_id(0)] = "
      "work_group_reduce_add(x[get_global_id(0)]); }";
  std::vector<float> obs(8, 1.0f);
  obs[1] = 1.0f + 7 * 0x1p-23f;
  obs[2] = 1.0f + 20 * 0x1p-23f;
  obs[3] = 1.0f - 0x1p-23f;
  obs[4] = 1.0f + 9 * 0x1p-23f;
  obs[5] = 1.0f + 8 * 0x1p-23f;
  const auto r = checkGroupKernel(reduce, x, obs);
  CHECK(classOf(r, 0) != C::Violation);
  CHECK(classOf(r, 1) == C::Allowed);
  CHECK(classOf(r, 2) == C::Violation);
  CHECK(classOf(r, 3) == C::Violation);
  CHECK(classOf(r, 4) == C::Violation);
  CHECK(classOf(r, 5) == C::Allowed);
  CHECK(r.buffers.at(0).anyValue == 0);
  // An inclusive scan: work-item 1 sums 1 and 2^-24 only (one addition: 1 + 2^-24 rounded, 1 to nearest even, 1 + 2^-23
  // upward, as the add rule allows no other); work-item 7 all eight.
  const char* scan =
      "kernel void k(global const float* x, global float* out) { out[get_global_id(0)] = "
      "work_group_scan_inclusive_add(x[get_global_id(0)]); }";
  std::vector<float> sobs(8, 1.0f);
  sobs[1] = 1.0f + 2 * 0x1p-23f;  // two roundings' worth: outside the one-addition set
  sobs[7] = 1.0f + 3 * 0x1p-23f;
  const auto s = checkGroupKernel(scan, x, sobs);
  CHECK(classOf(s, 1) == C::Violation);
  CHECK(classOf(s, 7) == C::Allowed);
  CHECK(classOf(s, 0) == C::Identical);  // x[0] alone: no addition
}

TEST_CASE("check: a broadcast value keeps the set it had in the work-item it comes from", "[check][group]") {
  using C = host::ElementClass;
  // sin(0.5) has a 4 ulp bound in work-item 0; the other work-items' own values are exact. Every result is work-item
  // 0's sine: 2 ulp off is allowed everywhere (it was a violation in the exact work-items, which followed their own
  // operand), 10 ulp off is a violation.
  const std::vector<float> x = {0.5f, 1.0f, 2.0f, 3.0f};
  const char* src =
      "kernel void k(global const float* x, global float* out) { size_t i = get_global_id(0); "
      "float v = i == 0 ? sin(x[i]) : x[i]; out[i] = work_group_broadcast(v, 0); }";
  const float s0 = float(std::sin(0.5));  // the correctly rounded sine or one ulp beside it: within 1 ulp
  const auto r = checkGroupKernel(src, x, {stepF(s0, 2), stepF(s0, 2), stepF(s0, 10), stepF(s0, -10)});
  CHECK(classOf(r, 0) == C::Allowed);
  CHECK(classOf(r, 1) == C::Allowed);
  CHECK(classOf(r, 2) == C::Violation);
  CHECK(classOf(r, 3) == C::Violation);
  CHECK(r.buffers.at(0).anyValue == 0);
}

TEST_CASE("check: sub-group shuffles keep the source work-item's set, and sub-group sums and minima are bounded",
          "[check][group]") {
  using C = host::ElementClass;
  // One work-group of 8 work-items, one sub-group (the device's sub-groups hold 32).
  // (1) sub_group_shuffle_up(v, 1) with v = sin(x) in work-item 0 only: work-item 1 reads work-item 0's sine (4 ulp
  //     bound), so 2 ulp off is allowed and 10 a violation, though its own v is exact; work-item 2 reads work-item 1's
  //     exact x[1], so 1 ulp off is a violation.
  const std::vector<float> x = {0.5f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f};
  const float s0 = float(std::sin(0.5));
  {
    const char* src =
        "kernel void k(global const float* x, global float* out) { size_t i = get_global_id(0); "
        "float v = i == 0 ? sin(x[i]) : x[i]; float r = sub_group_shuffle_up(v, 1u); if (i > 0) out[i] = r; }";
    std::vector<float> obs(8, 0.0f);
    for (size_t i = 1; i < 8; ++i) obs[i] = x[i - 1];
    obs[1] = stepF(s0, 2);
    obs[2] = stepF(x[1], 1);
    const auto r = checkGroupKernel(src, x, obs);
    CHECK(classOf(r, 1) == C::Allowed);
    CHECK(classOf(r, 2) == C::Violation);
    obs[1] = stepF(s0, 10);
    obs[2] = x[1];
    const auto far = checkGroupKernel(src, x, obs);
    CHECK(classOf(far, 1) == C::Violation);
    CHECK(classOf(far, 2) == C::Identical);
  }
  // (2) sub_group_reduce_add over the same terms as the work-group sum test: bounded, not any value.
  {
    std::vector<float> t(8, 0x1p-24f);
    t[0] = 1.0f;
    std::vector<float> obs(8, 1.0f);
    obs[3] = 1.0f + 20 * 0x1p-23f;
    const auto r = checkGroupKernel(
        "kernel void k(global const float* x, global float* out) { out[get_global_id(0)] = "
        "sub_group_reduce_add(x[get_global_id(0)]); }",
        t, obs);
    CHECK(classOf(r, 0) != C::Violation);
    CHECK(classOf(r, 3) == C::Violation);
    CHECK(r.buffers.at(0).anyValue == 0);
  }
  // (3) sub_group_non_uniform_reduce_min of +0 and -0 (and positive values): fmin leaves the zero's sign open; a
  //     non-zero is a violation.
  {
    const std::vector<float> z = {0.0f, -0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    std::vector<float> obs(8, 0.0f);
    for (size_t i = 0; i < 8; i += 2) obs[i] = -0.0f;
    obs[5] = 1.0f;
    const auto r = checkGroupKernel(
        "kernel void k(global const float* x, global float* out) { out[get_global_id(0)] = "
        "sub_group_non_uniform_reduce_min(x[get_global_id(0)]); }",
        z, obs);
    for (size_t i = 0; i < 8; ++i)
      if (i != 5) CHECK(classOf(r, i) != C::Violation);
    CHECK(classOf(r, 5) == C::Violation);
  }
}

namespace {

// k(global const float* x, out_1, ..., out_m) over x, one work-item per element (groups of 1): output k holds x.size()
// elements of elemBytes[k] bytes. reference: clref's outputs from a plain run.
struct Outputs {
  host::Device device;
  std::unique_ptr<host::Kernel> kernel;
  host::NDRange range;
  std::vector<std::shared_ptr<host::Buffer>> outs;
  std::vector<std::vector<uint8_t>> reference;

  Outputs(const char* source, const std::vector<float>& x, const std::vector<size_t>& elemBytes) {
    kernel = std::make_unique<host::Kernel>(host::Program::fromOpenCLC(device, source), "k");
    kernel->setArg(0, std::make_shared<host::Buffer>(x.data(), x.size() * 4));
    for (size_t k = 0; k < elemBytes.size(); ++k) {
      const std::vector<uint8_t> zeros(x.size() * elemBytes[k], 0);
      outs.push_back(std::make_shared<host::Buffer>(zeros.data(), zeros.size()));
      kernel->setArg(uint32_t(k + 1), outs.back());
    }
    range.global = {x.size(), 1, 1};
    range.local = std::array<size_t, 3>{1, 1, 1};
    REQUIRE(kernel->run(range).ok);
    for (const auto& o : outs) {
      const auto* b = reinterpret_cast<const uint8_t*>(o->data());
      reference.emplace_back(b, b + o->size());
    }
  }
  template <class V> V at(size_t out, size_t i) const {
    V v;
    std::memcpy(&v, reference.at(out).data() + i * sizeof(V), sizeof(V));
    return v;
  }
  // Judges observed values for some outputs: (output index, element type, bytes).
  host::CheckReport check(const std::vector<std::tuple<size_t, ScalarType, std::vector<uint8_t>>>& observed) {
    for (const auto& o : outs) std::memset(o->data(), 0, o->size());  // the run starts from the same inputs
    std::vector<host::ObservedBuffer> obs;
    for (const auto& [k, type, bytes] : observed) obs.push_back({uint32_t(k + 1), type, bytes});
    auto report = host::check(*kernel, range, obs);
    REQUIRE(report.run.ok);
    return report;
  }
};

template <class V> std::vector<uint8_t> bytesOfValues(const std::vector<V>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(V));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

host::ElementClass classIn(const host::CheckReport& r, size_t buffer, size_t index) {
  for (const auto& d : r.buffers.at(buffer).details)
    if (d.index == index) return d.cls;
  return host::ElementClass::Identical;
}

bool judgedAllowed(numerics::MathFn f, double x, double observed) {
  return numerics::judge(f, std::span<const double>(&x, 1), observed, numerics::Format::Float, numerics::Profile::Full)
      .allowed;
}

}  // namespace

TEST_CASE("check: sincos's cosine has cos's ulp bound, with exact operands and with operand sets", "[check]") {
  using C = host::ElementClass;
  // OpenCL C 3.0 §7.4 [[table-ulp-float-math]] sincos: "<= 4 ulp for sine and cosine values". clref's cosine is the
  // correctly rounded cos(x) (within half an ulp of the host's double cos); 1 ulp off is inside 4 ulp, 1000 ulp off
  // is far outside.
  for (const bool divided : {false, true}) {
    const char* operand = divided ? "x[i] / 3.0f" : "x[i]";
    // x / 3 is within 2.5 ulp of the quotient (x / y: 2.5 ulp): the cosine's set is cos's rule over that range, a
    // few ulp wide around clref's value, still far narrower than 1000 ulp.
    const std::string source = std::string(
                                   "kernel void k(global const float* x, global float* s, global float* c) {\n"
                                   "  size_t i = get_global_id(0);\n  float cv;\n  s[i] = sincos(") +
                               operand + ", &cv);\n  c[i] = cv;\n}\n";
    INFO(source);
    const std::vector<float> x = {1.0f, 2.0f, 0.5f};
    Outputs o(source.c_str(), x, {4, 4});
    std::vector<float> sines(3), cosines(3);
    for (size_t i = 0; i < 3; ++i) {
      sines[i] = o.at<float>(0, i);
      cosines[i] = o.at<float>(1, i);
      const double a = divided ? double(x[i] / 3.0f) : double(x[i]);
      CHECK(std::fabs(cosines[i] - std::cos(a)) <= 0.5 * numerics::ulpOf(std::cos(a), numerics::Format::Float));
    }
    cosines[1] = stepF(cosines[1], 1);
    cosines[2] = stepF(cosines[2], 1000);
    if (!divided) {
      CHECK(judgedAllowed(numerics::MathFn::cos, x[1], cosines[1]));
      CHECK_FALSE(judgedAllowed(numerics::MathFn::cos, x[2], cosines[2]));
    }
    const auto r = o.check({{0, ScalarType::Float, bytesOf(sines)}, {1, ScalarType::Float, bytesOf(cosines)}});
    CHECK(r.buffers.at(0).identical == 3);
    CHECK(classIn(r, 1, 0) == C::Identical);
    CHECK(classIn(r, 1, 1) == C::Allowed);
    CHECK(classIn(r, 1, 2) == C::Violation);
  }
}

TEST_CASE("check: fract's floor, modf's integral part, frexp's exponent and lgamma_r's sign are judged", "[check]") {
  using C = host::ElementClass;
  SECTION("fract and modf: the second result 1.0 off is a violation") {
    const std::vector<float> x = {2.5f, -1.25f};
    Outputs o(
        "kernel void k(global const float* x, global float* f, global float* fl, global float* ip) {\n"
        "  size_t i = get_global_id(0);\n  float a, b;\n"
        "  f[i] = fract(x[i], &a) + modf(x[i], &b);\n  fl[i] = a;\n  ip[i] = b;\n}\n",
        x, {4, 4, 4});
    for (size_t i = 0; i < 2; ++i) {
      CHECK(o.at<float>(1, i) == std::floor(x[i]));
      CHECK(o.at<float>(2, i) == std::trunc(x[i]));
    }
    const std::vector<float> floors = {std::floor(x[0]) + 1.0f, std::floor(x[1])};
    const std::vector<float> truncs = {std::trunc(x[0]), std::trunc(x[1]) - 1.0f};
    const auto r = o.check({{1, ScalarType::Float, bytesOf(floors)}, {2, ScalarType::Float, bytesOf(truncs)}});
    CHECK(classIn(r, 0, 0) == C::Violation);
    CHECK(classIn(r, 0, 1) == C::Identical);
    CHECK(classIn(r, 1, 0) == C::Identical);
    CHECK(classIn(r, 1, 1) == C::Violation);
  }
  SECTION("fract of a subnormal: floor(-2^-140) is -1, or -0 where the device flushes the operand") {
    // OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]: a float denormal operand may be flushed, and
    // "the sign of the zero is undefined": floor(±0) is ±0.
    const std::vector<float> x = {-0x1p-140f, -0x1p-140f, -0x1p-140f, -0x1p-140f};
    Outputs o(
        "kernel void k(global const float* x, global float* fl) {\n"
        "  size_t i = get_global_id(0);\n  float a;\n  fract(x[i], &a);\n  fl[i] = a;\n}\n",
        x, {4});
    CHECK(o.at<float>(0, 0) == -1.0f);
    const std::vector<float> floors = {-1.0f, -0.0f, 0.0f, -2.0f};
    const auto r = o.check({{0, ScalarType::Float, bytesOf(floors)}});
    CHECK(classIn(r, 0, 0) == C::Identical);
    CHECK(classIn(r, 0, 1) == C::Allowed);
    CHECK(classIn(r, 0, 2) == C::Allowed);
    CHECK(classIn(r, 0, 3) == C::Violation);
  }
  SECTION("frexp: the exponent off by one is a violation; undetermined when the operand's set spans a power of 2") {
    // 3 = 0.75·2^2; 6 / 3 is 2 (= 0.5·2^2) within 2.5 ulp (x / y: 2.5 ulp), so a device may compute a quotient just
    // below 2, whose exponent is 1.
    const std::vector<float> x = {3.0f, 6.0f};
    Outputs o(
        "kernel void k(global const float* x, global int* e) {\n"
        "  size_t i = get_global_id(0);\n  int a;\n"
        "  float v = i == 0 ? x[i] : x[i] / 3.0f;\n  frexp(v, &a);\n  e[i] = a;\n}\n",
        x, {4});
    int e0 = 0;
    std::frexp(3.0, &e0);
    CHECK(o.at<int>(0, 0) == e0);
    CHECK(o.at<int>(0, 1) == 2);
    const std::vector<int> exps = {e0 + 1, 1};
    const auto r = o.check({{0, ScalarType::Int, bytesOfValues(exps)}});
    CHECK(classIn(r, 0, 0) == C::Violation);
    CHECK(classIn(r, 0, 1) == C::Undetermined);
    bool named = false;
    for (const auto& d : r.decisions) named = named || d.message.find("frexp's exponent of") != std::string::npos;
    CHECK(named);
  }
  SECTION("lgamma_r: the sign flipped is a violation at 2.5 and -2.5; any value for NaN, and only there") {
    // Γ(2.5) > 0; Γ(-2.5) < 0 (Γ is negative on (-3, -2)). lgamma_r(NaN)'s sign is open (choice
    // lgamma_sign_undefined): work-item 0's free choice must not reach work-items 1 and 2 at the same instruction.
    const std::vector<float> x = {NAN, 2.5f, -2.5f};
    Outputs o(
        "kernel void k(global const float* x, global int* s) {\n"
        "  size_t i = get_global_id(0);\n  int a;\n  lgamma_r(x[i], &a);\n  s[i] = a;\n}\n",
        x, {4});
    const int s1 = std::tgamma(2.5) > 0 ? 1 : -1, s2 = std::tgamma(-2.5) > 0 ? 1 : -1;
    CHECK(o.at<int>(0, 1) == s1);
    CHECK(o.at<int>(0, 2) == s2);
    const std::vector<int> signs = {o.at<int>(0, 0) + 7, -s1, -s2};
    const auto r = o.check({{0, ScalarType::Int, bytesOfValues(signs)}});
    CHECK(classIn(r, 0, 0) == C::Allowed);
    CHECK(classIn(r, 0, 1) == C::Violation);
    CHECK(classIn(r, 0, 2) == C::Violation);
  }
  SECTION("remquo: the quotient is exact within seven bits; beyond them the implementation's") {
    // 5 / 2 = 2.5 rounds to even: quotient 2. 1000.5 / 1: quotient 1000 (ties to even), beyond 0x7f.
    const std::vector<float> x = {5.0f, 1000.5f};
    Outputs o(
        "kernel void k(global const float* x, global int* q) {\n"
        "  size_t i = get_global_id(0);\n  int a;\n  remquo(x[i], i == 0 ? 2.0f : 1.0f, &a);\n  q[i] = a;\n}\n",
        x, {4});
    CHECK(o.at<int>(0, 0) == 2);
    const std::vector<int> quotients = {3, 5};
    const auto r = o.check({{0, ScalarType::Int, bytesOfValues(quotients)}});
    CHECK(classIn(r, 0, 0) == C::Violation);
    CHECK(classIn(r, 0, 1) == C::Allowed);
  }
}

TEST_CASE("check: a value with a set keeps it through private and local memory", "[check]") {
  using C = host::ElementClass;
  // sin(x) within 4 ulp (sin: 4 ulp), stored into a private array at a runtime index (clang keeps the array in
  // memory) or into local memory, reloaded and written out: 1 ulp off allowed, 100 ulp off a violation.
  const char* sources[] = {
      "kernel void k(global const float* x, global float* y) {\n"
      "  size_t i = get_global_id(0);\n  float a[4];\n  int j = (int)x[i] & 3;\n"
      "  a[j] = sin(x[i]);\n  a[j ^ 1] = 0.0f;\n  y[i] = a[j];\n}\n",
      "kernel void k(global const float* x, global float* y) {\n"
      "  local float t[1];\n  size_t i = get_global_id(0);\n"
      "  t[get_local_id(0)] = sin(x[i]);\n  barrier(CLK_LOCAL_MEM_FENCE);\n  y[i] = t[get_local_id(0)];\n}\n"};
  for (const char* source : sources) {
    INFO(source);
    const std::vector<float> x = {1.0f, 2.0f, 3.0f};
    Outputs o(source, x, {4});
    std::vector<float> y = {o.at<float>(0, 0), stepF(o.at<float>(0, 1), 1), stepF(o.at<float>(0, 2), 100)};
    CHECK(judgedAllowed(numerics::MathFn::sin, x[1], y[1]));
    CHECK_FALSE(judgedAllowed(numerics::MathFn::sin, x[2], y[2]));
    const auto r = o.check({{0, ScalarType::Float, bytesOf(y)}});
    CHECK(classIn(r, 0, 0) == C::Identical);
    CHECK(classIn(r, 0, 1) == C::Allowed);
    CHECK(classIn(r, 0, 2) == C::Violation);
  }
}

TEST_CASE("check: vstore_half stores the source's set rounded to half, vload_half reloads it", "[check]") {
  using C = host::ElementClass;
  // An x in [0.6, 1.5] whose sine lies within 2^-24 of the midpoint m between two halves (half ulp 2^-11 on
  // [0.5, 1)), found with the host's double sin: a device's sin(x) may lie 4 ulp (4·2^-24) either side, so it rounds
  // (to nearest even) to either half; a half 10 half-ulps away is no rounding of any allowed sine.
  float x0 = 0.6f;
  double m = 0;
  for (;; x0 = std::nextafter(x0, 2.0f)) {
    REQUIRE(x0 < 1.5f);
    const double s = std::sin(double(x0));
    m = (std::floor(s * 2048) + 0.5) / 2048;
    if (std::fabs(s - m) < 0x1p-24) break;
  }
  const float below = float(m - 0x1p-12), above = float(m + 0x1p-12);  // the two halves around m
  const std::vector<float> x = {x0, x0, x0, 1.3f};
  Outputs o(
      "kernel void k(global const float* x, global float* y, global half* h) {\n"
      "  size_t i = get_global_id(0);\n  vstore_half(sin(x[i]), i, h);\n"
      "  if (i == 3) vstore_half(x[i], i, h);\n  y[i] = vload_half(i, h);\n}\n",
      x, {4, 2});
  const float clrefs = o.at<float>(0, 0);
  REQUIRE((clrefs == below || clrefs == above));
  // 1.3 as a half: 1.2998046875 (RTE; half ulp on [1, 2) is 2^-10), exactly.
  CHECK(o.at<float>(0, 3) == 1.2998046875f);
  const float other = clrefs == below ? above : below;
  const std::vector<float> y = {clrefs, other, clrefs + 10 * 0x1p-11f, 1.2998046875f + 0x1p-10f};
  const auto r = o.check({{0, ScalarType::Float, bytesOf(y)}});
  CHECK(classIn(r, 0, 0) == C::Identical);
  CHECK(classIn(r, 0, 1) == C::Allowed);
  CHECK(classIn(r, 0, 2) == C::Violation);
  CHECK(classIn(r, 0, 3) == C::Violation);  // the exact half replaced sin's entry: no stale set

  // The same through vstorea_half3 / vloada_half3 (a 3-vector of halves steps and aligns like 4: work-item 1's halves
  // start at h + 4) and vstore3: y[3] is work-item 1's sine, y[4] its exact 1.3.
  Outputs v(
      "kernel void k(global const float* x, global float* y, global half* h) {\n"
      "  size_t i = get_global_id(0);\n  float s = sin(x[i]);\n"
      "  vstorea_half3((float3)(s, 1.3f, s), i, h);\n  vstore3(vloada_half3(i, h), i, y);\n}\n",
      std::vector<float>{x0, x0}, {12, 8});
  std::vector<float> y3(6);
  for (size_t i = 0; i < 6; ++i) y3[i] = v.at<float>(0, i);
  CHECK(y3[3] == clrefs);
  CHECK(y3[4] == 1.2998046875f);
  y3[3] = other;
  y3[4] = 1.2998046875f + 0x1p-10f;
  y3[5] = clrefs + 10 * 0x1p-11f;
  const auto r3 = v.check({{0, ScalarType::Float, bytesOf(y3)}});
  CHECK(classIn(r3, 0, 3) == C::Allowed);
  CHECK(classIn(r3, 0, 4) == C::Violation);
  CHECK(classIn(r3, 0, 5) == C::Violation);
}

TEST_CASE("check: vstore3 moves the sets of three lanes to p + 3·offset", "[check]") {
  using C = host::ElementClass;
  // vstore3 writes 3 floats at y + 3i (OpenCL C 3.0 §6.15.7 [[vector-data-load-and-store-functions]]), not the
  // 16 bytes of a float3 register: work-item 1's first lane is element 3. sin: 4 ulp, so 1 ulp off is allowed.
  const std::vector<float> x = {1.0f, 2.0f};
  Outputs o(
      "kernel void k(global const float* x, global float* y) {\n"
      "  size_t i = get_global_id(0);\n  float s = sin(x[i]);\n  vstore3((float3)(s, 2.0f * s, 0.5f), i, y);\n}\n",
      {x}, {12});
  std::vector<float> y(6);
  for (size_t i = 0; i < 6; ++i) y[i] = o.at<float>(0, i);
  CHECK(y[5] == 0.5f);
  y[3] = stepF(y[3], 1);
  y[4] = stepF(y[4], 1);
  y[5] = stepF(y[5], 1);
  const auto r = o.check({{0, ScalarType::Float, bytesOf(y)}});
  CHECK(classIn(r, 0, 3) == C::Allowed);
  CHECK(classIn(r, 0, 4) == C::Allowed);
  CHECK(classIn(r, 0, 5) == C::Violation);  // 0.5 is exact
}

TEST_CASE("check: a read at coordinates computed with freedom is judged over the coordinates' sets", "[check][images]") {
  // As the weighted-average case, but the coordinate is multiplied by cos(1e-3f), whose 4 ulp bound gives it a set a
  // few ulps wide: the read is judged at the corners of that box (the same footprints here: the coordinate is far
  // from a texel boundary), so 0.0 is still a violation and clref's value + 1 ulp allowed; with the set the read was
  // any value before.
  const char* source =
      "kernel void k(read_only image2d_t img, sampler_t s, global float* out) {\n"
      "  int i = get_global_id(0);\n"
      "  float c = cos(1e-3f);\n"
      "  out[i] = read_imagef(img, s, (float2)((4 * i + 1) * 0.0625f * c, 0.45f * c)).x;\n"
      "}\n";
  LinearReads t(source);
  REQUIRE(t.kernel.run(t.range).ok);
  std::vector<float> observed(t.out->as<float>().begin(), t.out->as<float>().end());
  observed[1] = 0.0f;
  observed[2] = stepF(observed[2], 1);
  std::memcpy(t.out->data(), t.zeros.data(), 16);
  const auto report = host::check(t.kernel, t.range, {{2, ScalarType::Float, bytesOf(observed)}});
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  CHECK(classOf(report, 1) == host::ElementClass::Violation);
  CHECK(classOf(report, 2) == host::ElementClass::Allowed);
  CHECK(b.anyValue == 0);
}

TEST_CASE("check: bytes reinterpreted across lanes with sets are any value, and the report says so", "[check]") {
  // A double made of the bits of two floats that carry sets (sin's 4 ulp; as_double, OpenCL C 3.0 §6.4.4.2
  // [[reinterpreting-types-using-as_type-and-as_typen]]): clref does not follow a set through the reinterpretation,
  // so the element is judged against any value, counted, with the reason named.
  const std::vector<float> x = {0.5f, 0.75f};
  const char* src =
      "kernel void k(global const float* x, global double* y) { size_t i = get_global_id(0);\n"
      "  y[i] = as_double((float2)(sin(x[i]), sin(x[i] + 1.0f))); }";
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, src);
  host::Kernel kernel(program, "k");
  auto in = std::make_shared<host::Buffer>(x.data(), 8);
  std::vector<double> zeros(2, 0.0);
  auto out = std::make_shared<host::Buffer>(zeros.data(), 16);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {2, 1, 1};
  REQUIRE(kernel.run(r).ok);
  std::vector<double> observed(out->as<double>().begin(), out->as<double>().end());
  observed[0] = 12345.0;
  std::vector<uint8_t> bytes(16);
  std::memcpy(bytes.data(), observed.data(), 16);
  std::memcpy(out->data(), zeros.data(), 16);
  const auto report = host::check(kernel, r, {{1, ScalarType::Double, bytes}});
  REQUIRE(report.run.ok);
  const auto& b = report.buffers.at(0);
  INFO((b.details.empty() ? std::string() : b.details[0].reason));
  CHECK(classOf(report, 0) == host::ElementClass::Allowed);
  CHECK(b.anyValue == 1);
  REQUIRE(b.anyValueBy.size() == 1);
  CHECK(b.anyValueBy[0].why.find("reinterpreted") != std::string::npos);
}

TEST_CASE("check: a GroupCheck judges the bytes its work-groups wrote, and another range as given", "[check]") {
  host::Device device;
  // Work-items 40..63 write nothing: their elements keep what they held before the launch.
  auto program = host::Program::fromOpenCLC(
      device, "kernel void k(global const int* a, global int* b) { size_t i = get_global_id(0); if (i < 40) b[i] = a[i] * 3; }");
  host::Kernel kernel(program, "k");
  const size_t n = 64;  // 8 work-groups of 8
  std::vector<int> a(n), zeros(n, 0), observed(n, 0);
  for (size_t i = 0; i < 40; ++i) observed[i] = 3 * (a[i] = int(i));
  observed[3] = 1000;   // group 0
  observed[20] = 1000;  // group 2
  observed[50] = 7;     // written by no group: it must still be 0
  auto in = std::make_shared<host::Buffer>(a.data(), n * 4);
  auto out = std::make_shared<host::Buffer>(zeros.data(), n * 4);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{8, 1, 1};
  std::vector<uint8_t> bytes(n * 4);
  std::memcpy(bytes.data(), observed.data(), bytes.size());
  // Groups 0..1 write elements 0..15, bytes [0, 64).
  host::GroupCheck first(kernel, r, {{1, ScalarType::Int, bytes}}, {}, {0, 1});
  CHECK(first.selfContained());
  CHECK(first.written(0) == std::vector<std::pair<uint64_t, uint64_t>>{{0, 64}});
  // Judged: what they wrote, and the elements no group writes (40..63, bytes [160, 256)).
  const auto report = first.judge({{{0, 64}, {160, 256}}});
  const auto& b = report.buffers.at(0);
  CHECK(b.elements == 64);
  CHECK(b.notJudged == 24);  // 16..39: the other groups'
  CHECK(b.violations == 2);
  CHECK(b.identical == 38);
  REQUIRE(b.details.size() == 2);
  CHECK(b.details[0].index == 3);
  CHECK(b.details[1].index == 50);
}

// GroupCheck refuses what check() refuses, with check()'s messages: the argument's name in a size mismatch, the
// reason in the refusal of device-side enqueue (the expected texts are the messages check/check.hpp documents).
TEST_CASE("check: a GroupCheck's refusal names the argument and gives the reason", "[check]") {
  host::Device device;
  auto program = host::Program::fromOpenCLC(
      device, "kernel void k(global const int* a, global int* squares) { size_t i = get_global_id(0); squares[i] = a[i] * a[i]; }");
  host::Kernel kernel(program, "k");
  std::vector<int> a(8, 2), zeros(8, 0);
  kernel.setArg(0, std::make_shared<host::Buffer>(a.data(), 32));
  kernel.setArg(1, std::make_shared<host::Buffer>(zeros.data(), 32));
  host::NDRange r;
  r.global = {8, 1, 1};
  r.local = std::array<size_t, 3>{4, 1, 1};
  const std::vector<uint8_t> shortBytes(12);  // three ints of the buffer's eight
  const std::string expected =
      "the observed contents of argument 1 (squares) are 12 bytes; the buffer has 32";
  CHECK_THROWS_WITH(host::GroupCheck(kernel, r, {{1, ScalarType::Int, shortBytes}}, {}, {0}), expected);
  CHECK_THROWS_WITH(host::check(kernel, r, {{1, ScalarType::Int, shortBytes}}), expected);

  if (!host::Program::openCLCCompilerAvailable()) return;
  auto parent = host::Program::fromOpenCLC(device, R"CL(
kernel void parent(global int* out) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4), ^{ out[get_global_id(0)] = 1; });
}
)CL", "-cl-std=CL3.0");
  host::Kernel enqueuing(parent, "parent");
  enqueuing.setArg(0, std::make_shared<host::Buffer>(zeros.data(), 32));
  r.global = {1, 1, 1};
  r.local = std::array<size_t, 3>{1, 1, 1};
  const std::vector<uint8_t> bytes(32);
  CHECK_THROWS_WITH(host::GroupCheck(enqueuing, r, {{0, ScalarType::Int, bytes}}, {}, {0}),
                    Catch::Matchers::Contains("since the allowed sets are not propagated through the kernels it enqueues"));
}
