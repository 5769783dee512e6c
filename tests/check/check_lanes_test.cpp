// host::check with the lane executor (interpreter/shadow_lanes.hpp): while no value has a set, a shadow run's rules run
// on lanes. Its reports must be those of the one-by-one path (CLREF_LANES=0), element by element, down to the
// instruction a violation names; and the allowed sets themselves come from independent sources (host float
// arithmetic for the exact values; OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_FP_DENORM, optional for
// single precision, for the flush a subnormal result allows).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "interpreter/lane_stats.hpp"

using namespace clref;
using numerics::ScalarType;

namespace {

constexpr size_t kN = 1024;
constexpr size_t kSubnormal = 500;  // a[i] + b[i] is subnormal here, normal everywhere else

// Every kernel takes (a, b, out, flags): float inputs, a float and an int output.
const char* kSource = R"(
kernel void mixed(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float s = x + y;
  float d = x - y;
  float p = s * d;
  int c = (int)(i % 7u);
  out[i] = c > 3 ? p : s;
  flags[i] = c * 3 + 1;
}
kernel void vectors(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  ((global float4*)out)[i] = ((global const float4*)a)[i] + ((global const float4*)b)[i];
  flags[i] = (int)i;
}
kernel void local_swap(global const float* a, global const float* b, global float* out, global int* flags) {
  local float t[64];
  size_t l = get_local_id(0), i = get_global_id(0);
  t[l] = a[i] + b[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = t[63 - l] - b[i];
  flags[i] = (int)l;
}
kernel void dots(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += a[(i + (size_t)k) % 1024] * b[k];
  out[i] = s;
  flags[i] = 0;
}
kernel void dots_scaled(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += (a[(i + (size_t)k) % 1024] * 0.3f) * b[k];
  out[i] = s;
  flags[i] = 0;
}
kernel void zero_sums(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float s = x * y;
  s = s - x * y;
  out[i] = s;
  flags[i] = 0;
}
kernel void sets(global const float* a, global const float* b, global float* out, global int* flags) {
  local float t[64];
  size_t l = get_local_id(0), i = get_global_id(0);
  float x = sin(a[i]) * b[i];
  float4 v = (float4)(x, x * 0.3f, a[i], b[i]) * 0.7f;
  t[l] = v.x + v.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  float y = t[63 - l] / 3.0f;
  float z = y > 100.0f ? y : -y;
  out[i] = z + v.z * v.w;
  flags[i] = x > 0.25f;
}
__attribute__((noinline)) float halved(float s) { return s * 0.5f; }
kernel void long_sums(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 200; ++k) {
    s += (a[(i + (size_t)k) % 1024] * 0.3f) * b[k % 13];
    if (s > 500.0f) s *= 0.25f;
    if (k == 100) s = halved(s);
  }
  out[i] = s;
  flags[i] = 0;
}
kernel void racy(global const float* a, global const float* b, global float* out, global int* flags) {
  size_t i = get_global_id(0);
  out[i / 2] = a[i] + b[i];
  flags[i] = 1;
}
)";

std::vector<float> inputA() {
  std::vector<float> a(kN);
  for (size_t i = 0; i < kN; ++i) a[i] = 1.0f + 0.25f * float(i);
  a[kSubnormal] = 1.5e-38f;
  return a;
}
std::vector<float> inputB() {
  std::vector<float> b(kN);
  for (size_t i = 0; i < kN; ++i) b[i] = 0.5f + 0.125f * float(i % 13);
  b[kSubnormal] = -1.0e-38f;
  return b;
}

std::vector<uint8_t> bytesOf(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  return {b, b + n};
}

struct Judged {
  std::vector<float> out;  // clref's plain result
  host::CheckReport report;
  interpreter::LaneStats lanes;  // the check's own runs on lanes
};

// Runs `kernel` plainly (its output is clref's result), then checks that output with `plant` applied to it.
template <class Plant> Judged judge(const char* kernel, size_t global, Plant plant) {
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, kSource);
  host::Kernel k(program, kernel);
  const std::vector<float> a = inputA(), b = inputB(), zeros(kN, 0.0f);
  const std::vector<int32_t> noFlags(kN, 0);
  auto bufA = std::make_shared<host::Buffer>(a.data(), kN * 4);
  auto bufB = std::make_shared<host::Buffer>(b.data(), kN * 4);
  auto out = std::make_shared<host::Buffer>(zeros.data(), kN * 4);
  auto flags = std::make_shared<host::Buffer>(noFlags.data(), kN * 4);
  k.setArg(0, bufA);
  k.setArg(1, bufB);
  k.setArg(2, out);
  k.setArg(3, flags);
  host::NDRange r;
  r.global = {global, 1, 1};
  r.local = std::array<size_t, 3>{64, 1, 1};
  REQUIRE(k.run(r).ok);
  Judged j;
  j.out.assign(out->as<float>().begin(), out->as<float>().end());
  std::vector<float> observed = j.out;
  plant(observed);
  const std::vector<int32_t> flagsSeen(flags->as<int32_t>().begin(), flags->as<int32_t>().end());
  // The check starts from the inputs as set: the outputs back to zeros.
  std::memcpy(out->data(), zeros.data(), kN * 4);
  std::memcpy(flags->data(), noFlags.data(), kN * 4);
  const interpreter::LaneStats before = interpreter::laneStats();
  j.report = host::check(k, r,
                         {{2, ScalarType::Float, bytesOf(observed.data(), kN * 4)},
                          {3, ScalarType::Int, bytesOf(flagsSeen.data(), kN * 4)}});
  const interpreter::LaneStats after = interpreter::laneStats();
  j.lanes = {after.spans - before.spans, after.barrierIntervals - before.barrierIntervals,
             after.undone - before.undone, after.returned - before.returned};
  REQUIRE(j.report.run.ok);
  return j;
}

// The same judgement on lanes and one by one (CLREF_LANES=0).
template <class Plant> std::pair<Judged, Judged> judgeBoth(const char* kernel, size_t global, Plant plant) {
  ::unsetenv("CLREF_LANES");
  Judged lanes = judge(kernel, global, plant);
  ::setenv("CLREF_LANES", "0", 1);
  Judged alone = judge(kernel, global, plant);
  ::unsetenv("CLREF_LANES");
  CHECK(alone.lanes.spans == 0);
  return {std::move(lanes), std::move(alone)};
}

void requireSameReports(const host::CheckReport& x, const host::CheckReport& y) {
  REQUIRE(x.buffers.size() == y.buffers.size());
  for (size_t i = 0; i < x.buffers.size(); ++i) {
    const auto &p = x.buffers[i], &q = y.buffers[i];
    CHECK(p.identical == q.identical);
    CHECK(p.allowed == q.allowed);
    CHECK(p.violations == q.violations);
    CHECK(p.undetermined == q.undetermined);
    CHECK(p.anyValue == q.anyValue);
    REQUIRE(p.details.size() == q.details.size());
    for (size_t e = 0; e < p.details.size(); ++e) {
      INFO("buffer " << i << " element " << p.details[e].index);
      CHECK(p.details[e].index == q.details[e].index);
      CHECK(p.details[e].cls == q.details[e].cls);
      CHECK(p.details[e].allowedString() == q.details[e].allowedString());
      CHECK(p.details[e].reason == q.details[e].reason);
      CHECK(p.details[e].rule == q.details[e].rule);
      CHECK(p.details[e].instruction == q.details[e].instruction);
    }
  }
  CHECK(x.decisions.size() == y.decisions.size());
  CHECK(x.decisionCount == y.decisionCount);
}

const host::ElementVerdict* detailAt(const host::BufferVerdict& v, size_t index) {
  for (const auto& d : v.details)
    if (d.index == index) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("check on lanes: an exact kernel is judged on lanes as one by one, a subnormal sum still allows its flush",
          "[check][lanes]") {
  const std::vector<float> a = inputA(), b = inputB();
  auto plant = [](std::vector<float>& o) {
    o[300] = std::nextafter(o[300], INFINITY);  // one ulp off an exact result
    o[kSubnormal] = 0.0f;                       // the subnormal sum flushed
    o[501] = 0.0f;                              // a normal result replaced by zero
  };
  auto [lanes, alone] = judgeBoth("mixed", kN, plant);
  requireSameReports(lanes.report, alone.report);

  // clref's plain results against the host's: x + y, or (x + y)·(x − y) where i mod 7 > 3.
  for (size_t i = 0; i < kN; ++i) {
    const float s = a[i] + b[i], d = a[i] - b[i];
    REQUIRE(lanes.out[i] == (i % 7 > 3 ? s * d : s));
  }
  REQUIRE(std::fpclassify(lanes.out[kSubnormal]) == FP_SUBNORMAL);
  const host::BufferVerdict& out = lanes.report.buffers.at(0);
  CHECK(out.violations == 2);
  CHECK(out.allowed == 1);
  CHECK(out.identical == kN - 3);
  const host::ElementVerdict* off = detailAt(out, 300);
  REQUIRE(off);
  CHECK(off->cls == host::ElementClass::Violation);
  CHECK(!off->instruction.empty());  // the store that wrote it, named on lanes as one by one
  REQUIRE(detailAt(out, kSubnormal));
  CHECK(detailAt(out, kSubnormal)->cls == host::ElementClass::Allowed);
  REQUIRE(detailAt(out, 501));
  CHECK(detailAt(out, 501)->cls == host::ElementClass::Violation);
  CHECK(lanes.report.buffers.at(1).identical == kN);
  // Every batch ran whole on lanes: the subnormal sum's set stays beside the lane registers (shadow_lanes.hpp) and goes
  // into memory with the store.
  CHECK(lanes.lanes.returned == kN / 64);
  CHECK(lanes.lanes.undone == 0);
}

TEST_CASE("check on lanes: vectors, local memory across a barrier and a racy store judge as one by one",
          "[check][lanes]") {
  const std::vector<float> a = inputA(), b = inputB();
  SECTION("float4 sums") {
    auto [lanes, alone] = judgeBoth("vectors", kN / 4, [](std::vector<float>& o) { o[7] = -o[7]; });
    requireSameReports(lanes.report, alone.report);
    for (size_t i = 0; i < kN; ++i) REQUIRE(lanes.out[i] == a[i] + b[i]);
    CHECK(lanes.report.buffers.at(0).violations == 1);
    CHECK(lanes.lanes.returned > 0);
  }
  SECTION("a local array read back reversed after a barrier") {
    auto [lanes, alone] = judgeBoth("local_swap", kN, [](std::vector<float>& o) { o[130] += 1.0f; });
    requireSameReports(lanes.report, alone.report);
    for (size_t i = 0; i < kN; ++i) {
      const size_t j = i / 64 * 64 + 63 - i % 64;
      REQUIRE(lanes.out[i] == (a[j] + b[j]) - b[i]);
    }
    CHECK(lanes.lanes.barrierIntervals > 0);
    CHECK(lanes.report.buffers.at(0).violations == 1);
  }
  SECTION("two work-items store into each element: the span is undone, the later store is the element's writer") {
    auto [lanes, alone] = judgeBoth("racy", kN, [](std::vector<float>& o) { o[33] = 0.0f; });
    requireSameReports(lanes.report, alone.report);
    for (size_t i = 0; i < kN / 2; ++i) REQUIRE(lanes.out[i] == a[2 * i + 1] + b[2 * i + 1]);
    CHECK(lanes.lanes.undone > 0);
    const host::ElementVerdict* v = detailAt(lanes.report.buffers.at(0), 33);
    REQUIRE(v);
    CHECK(v->cls == host::ElementClass::Violation);
  }
}

TEST_CASE("check on lanes: sums a device may contract judge as one by one, exact products on lanes",
          "[check][lanes]") {
  // FP_CONTRACT: each s += x·y may be fma(x, y, s). The products of these inputs are exact, so fused and unfused sums
  // agree and no value has a set (the lanes run on) until the subnormal input's products; scaled by 0.3 first, the
  // products round and some sums differ, giving sets from the first such lane on.
  const std::vector<float> a = inputA(), b = inputB();
  auto plant = [](std::vector<float>& o) {
    for (size_t i : {3u, 130u, 131u, 600u, 1000u}) o[i] = std::nextafter(o[i], INFINITY);
    o[777] = std::nextafter(o[777], -INFINITY);
  };
  SECTION("exact products") {
    auto [lanes, alone] = judgeBoth("dots", kN, plant);
    requireSameReports(lanes.report, alone.report);
    for (size_t i = 0; i < kN; ++i) {
      float s = 0.0f;
      for (size_t k = 0; k < 16; ++k) s += a[(i + k) % kN] * b[k];
      REQUIRE(lanes.out[i] == s);
    }
    CHECK(lanes.lanes.returned >= (kSubnormal - 16) / 64);
    // Away from the subnormal input every sum is exact: a value one ulp off is a violation.
    CHECK(detailAt(lanes.report.buffers.at(0), 130)->cls == host::ElementClass::Violation);
  }
  SECTION("sums that are exactly zero") {
    // x·y − x·y, fused or not, is an exact zero: +0 in round to nearest (IEEE 754 §6.3 [external]), so −0 is a
    // violation.
    auto [lanes, alone] = judgeBoth("zero_sums", kN, [](std::vector<float>& o) { o[10] = -0.0f; });
    requireSameReports(lanes.report, alone.report);
    for (size_t i = 0; i < kN; ++i) REQUIRE(!std::signbit(lanes.out[i]));
    CHECK(lanes.lanes.returned >= kSubnormal / 64);
    const host::ElementVerdict* v = detailAt(lanes.report.buffers.at(0), 10);
    REQUIRE(v);
    CHECK(v->cls == host::ElementClass::Violation);
  }
  SECTION("rounded products") {
    auto [lanes, alone] = judgeBoth("dots_scaled", kN, plant);
    requireSameReports(lanes.report, alone.report);
    CHECK(lanes.report.buffers.at(0).allowed + lanes.report.buffers.at(0).violations == 6);
    // The sums' sets stay beside the lane registers: every batch runs whole on lanes.
    CHECK(lanes.lanes.returned == kN / 64);
  }
}

TEST_CASE("check on lanes: values with sets through math, vectors, local memory and decisions judge as one by one",
          "[check][lanes]") {
  auto plant = [](std::vector<float>& o) {
    for (size_t i : {5u, 64u, 200u, 700u}) o[i] = std::nextafter(o[i], INFINITY);
    for (size_t i : {6u, 300u}) o[i] = std::nextafter(std::nextafter(o[i], -INFINITY), -INFINITY);
    o[900] = -o[900];
  };
  SECTION("sin, a float4 with sets, a set through local memory, comparisons of sets") {
    auto [lanes, alone] = judgeBoth("sets", kN, plant);
    requireSameReports(lanes.report, alone.report);
    CHECK(lanes.report.buffers.at(0).violations > 0);
  }
  // A function call has no lane form: the lanes leave there, and meet again at a later round with the accumulator's
  // set in their registers (LaneSets::gather).
  SECTION("a long loop whose accumulator has a set, left and met again on lanes") {
    auto [lanes, alone] = judgeBoth("long_sums", kN, plant);
    requireSameReports(lanes.report, alone.report);
    CHECK(lanes.lanes.undone > 0);
    CHECK(lanes.lanes.returned > 0);
  }
}
