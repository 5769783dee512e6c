// No silent choices: every named choice that decides a value is recorded in the run's result (host::RunResult::
// choicesUsed) with how many times and where first. The counts and the first work-item are computed here from the
// inputs and the spec's conditions, independently of the interpreter.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "compile_cl.hpp"
#include "interpreter/diagnostic.hpp"
#include "spvasm.hpp"

using namespace clref;
using clref::test::compileCL;

namespace {

const char* kSource = R"CL(
kernel void decide(global const float* x, global const uint* a, global const int* d, global int* oi,
                   global uint* ou, global float* of, global int* oq, global float* oc) {
  size_t i = get_global_id(0);
  oi[i] = (int)x[i];                 // NaN or beyond int: float_to_int_out_of_range
  ou[i] = mul24(a[i], 3u);           // beyond 24 bits: mul24_out_of_range
  float p = x[i] * x[i];
  of[i] = mad(x[i], x[i], -p);       // fused (the product's rounding error) and unfused (0) differ: mad
  oq[i] = 1000 / d[i];               // d == 0: int_div_by_zero
  oc[i] = clamp(x[i], 1.0f, (float)d[i]);  // 1 > d: clamp_inverted_bounds
}
)CL";

constexpr size_t kN = 96;

struct Inputs {
  std::vector<float> x;
  std::vector<uint32_t> a;
  std::vector<int32_t> d;
};

Inputs makeInputs() {
  Inputs in;
  uint64_t s = 12345;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
  };
  for (size_t i = 0; i < kN; ++i) {
    // Mostly ordinary values; some NaN and out-of-range ones for the conversion, from index 17 on.
    float x = float(next() % 2000) / 7.0f - 100.0f;
    if (i >= 17 && i % 11 == 6) x = std::numeric_limits<float>::quiet_NaN();
    if (i >= 17 && i % 13 == 4) x = 3.0e9f * (i % 2 ? 1.0f : -1.0f);
    in.x.push_back(x);
    in.a.push_back(i % 9 == 5 ? 0x1000000u + uint32_t(i) : uint32_t(i * 1000));
    in.d.push_back(i % 7 == 3 ? 0 : int32_t(i % 5) + 1);
  }
  return in;
}

// The spec's conditions, evaluated on the host.
bool outOfIntRange(float x) { return std::isnan(x) || std::trunc(double(x)) < -2147483648.0 || std::trunc(double(x)) > 2147483647.0; }
bool madDiffers(float x) {
  volatile float p = x * x;  // rounded to float, not contracted
  const float fused = std::fma(x, x, -p);
  volatile float product = x * x;
  const float unfused = product - p;
  return std::isnan(fused) != std::isnan(unfused) || (!std::isnan(fused) && std::memcmp(&fused, &unfused, 4) != 0);
}

struct Expect {
  numerics::Choice choice;
  uint64_t count = 0;
  std::optional<size_t> first = std::nullopt;
};

host::RunResult run(unsigned threads) {
  const Inputs in = makeInputs();
  host::DeviceConfig cfg;
  cfg.threads = threads;
  host::Device device(cfg);
  auto program = host::Program::fromSpirv(device, compileCL(kSource, "-cl-std=CL1.2"));
  host::Kernel k(program, "decide");
  k.setArg(0, std::make_shared<host::Buffer>(in.x.data(), kN * 4));
  k.setArg(1, std::make_shared<host::Buffer>(in.a.data(), kN * 4));
  k.setArg(2, std::make_shared<host::Buffer>(in.d.data(), kN * 4));
  for (size_t i = 3; i < 8; ++i) k.setArg(i, std::make_shared<host::Buffer>(kN * 4));
  host::NDRange r;
  r.global = {kN, 1, 1};
  r.local = std::array<size_t, 3>{8, 1, 1};
  auto result = k.run(r);
  INFO((result.fault ? result.fault->format() : std::string()));
  REQUIRE(result.ok);
  return result;
}

}  // namespace

TEST_CASE("every named choice that decides a value is recorded with its count and first work-item", "[choices]") {
  const Inputs in = makeInputs();
  std::vector<Expect> expected(5);
  expected[0].choice = numerics::Choice::Mad;
  expected[1].choice = numerics::Choice::IntDivByZero;
  expected[2].choice = numerics::Choice::FloatToIntOutOfRange;
  expected[3].choice = numerics::Choice::Mul24OutOfRange;
  expected[4].choice = numerics::Choice::ClampInvertedBounds;
  auto hit = [&](size_t k, size_t i) {
    ++expected[k].count;
    if (!expected[k].first) expected[k].first = i;
  };
  for (size_t i = 0; i < kN; ++i) {
    if (madDiffers(in.x[i])) hit(0, i);
    if (in.d[i] == 0) hit(1, i);
    if (outOfIntRange(in.x[i])) hit(2, i);
    if (in.a[i] > 0xffffff) hit(3, i);
    if (1.0f > float(in.d[i])) hit(4, i);
  }
  for (const auto& e : expected) {
    INFO(numerics::infoOf(e.choice).name);
    REQUIRE(e.count > 0);  // the inputs meet every condition
  }

  for (unsigned threads : {1u, 4u}) {
    const auto result = run(threads);
    INFO("threads " << threads);
    REQUIRE(result.choicesUsed.size() == expected.size());  // in registry order, and nothing else
    for (size_t k = 0; k < expected.size(); ++k) {
      const auto& use = result.choicesUsed[k];
      INFO(numerics::infoOf(expected[k].choice).name);
      CHECK(use.choice == expected[k].choice);
      CHECK(use.count == expected[k].count);
      CHECK(use.first.globalId[0] == *expected[k].first);
      CHECK_FALSE(use.first.instruction.empty());
      CHECK_FALSE(use.first.message.empty());
    }
  }
}

TEST_CASE("the run's record names uninitialised local memory and the default work-group size",
          "[choices]") {
  const char* src = R"CL(
kernel void scratch(global int* out) {
  local int tmp[16];
  tmp[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[15 - get_local_id(0)];
}
)CL";
  host::Device device;
  auto program = host::Program::fromSpirv(device, compileCL(src, "-cl-std=CL1.2"));
  host::Kernel k(program, "scratch");
  k.setArg(0, std::make_shared<host::Buffer>(16 * 4));
  host::NDRange r;
  r.global = {16, 1, 1};
  auto result = k.run(r);  // no local size: the implementation's (choice default_local_size)
  INFO((result.fault ? result.fault->format() : std::string()));
  REQUIRE(result.ok);
  REQUIRE(result.choicesUsed.size() == 2);
  CHECK(result.choicesUsed[0].choice == numerics::Choice::UninitialisedMemory);
  CHECK(result.choicesUsed[0].count == 0);
  CHECK(result.choicesUsed[0].first.message.find("64 bytes of local memory") != std::string::npos);
  CHECK(result.choicesUsed[1].choice == numerics::Choice::DefaultLocalSize);
  CHECK(result.choicesUsed[1].first.message.find("(16,1,1)") != std::string::npos);

  const std::string text = interpreter::formatChoiceUses(result.choicesUsed, device.config().choices);
  CHECK(text.find("choice uninitialised_memory=zero (default) may decide values") != std::string::npos);
  CHECK(text.find("choice default_local_size=largest_divisor (default) decided 1 value") != std::string::npos);

  // With a local size given and no local memory, nothing is recorded.
  const char* plain = "kernel void plain(global int* out) { out[get_global_id(0)] = 7; }";
  auto p2 = host::Program::fromSpirv(device, compileCL(plain, "-cl-std=CL1.2"));
  host::Kernel k2(p2, "plain");
  k2.setArg(0, std::make_shared<host::Buffer>(32 * 4));
  r.local = std::array<size_t, 3>{8, 1, 1};
  const auto quiet = k2.run(r);
  REQUIRE(quiet.ok);
  CHECK(quiet.choicesUsed.empty());
}

TEST_CASE("a kernel that consumes an OpUndef value records undef_value, with the consuming instruction", "[choices]") {
  // out[0] = undef + 1: the value depends on the choice undef_value (zero gives 1, the pattern 0xA5A5A5A5 + 1).
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "undef_plus_one"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_uint
     %uint_1 = OpConstant %uint 1
       %main = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_uint
          %e = OpLabel
          %u = OpUndef %uint
          %v = OpIAdd %uint %u %uint_1
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)";
  for (const char* option : {"zero", "pattern"}) {
    host::DeviceConfig cfg;
    cfg.choices.set(std::string("undef_value=") + option);
    host::Device device(cfg);
    host::Kernel k(host::Program::fromSpirv(device, test::assembleText(text)), "undef_plus_one");
    auto out = std::make_shared<host::Buffer>(4);
    k.setArg(0, out);
    const auto result = k.run(test::range1(1));
    REQUIRE(result.ok);
    CHECK(out->as<uint32_t>()[0] == (std::string(option) == "zero" ? 1u : 0xA5A5A5A6u));
    REQUIRE(result.choicesUsed.size() == 1);
    CHECK(result.choicesUsed[0].choice == numerics::Choice::UndefValue);
    CHECK(result.choicesUsed[0].first.message == "2 instructions consume a value deriving from OpUndef");  // OpIAdd, OpStore
    CHECK(result.choicesUsed[0].first.instruction.find("OpIAdd") != std::string::npos);
  }
}
