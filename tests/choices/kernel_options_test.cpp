// The registry's choices where the interpreter decides (numerics/choices.hpp): each option of
// each choice run through a kernel, the expected values from the spec's formula for that option
// (computed here on the host), and the undefined cases faulting when the choice says so.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "compile_cl.hpp"
#include "interpreter/diagnostic.hpp"
#include "spvasm.hpp"

using namespace clref;
using clref::test::compileCL;
using clref::test::loadSpvasm;
using clref::test::range1;

namespace {

const char* kSource = R"CL(
kernel void open_results(global const int* in, global uint* out) {
  int big = in[0], three = in[1], five = in[2], one = in[3];
  out[0] = (uint)mul24(big, three);                   // big beyond 24 bits
  out[1] = mul24((uint)big, (uint)three);
  out[2] = (uint)mad24(big, three, one);
  out[3] = (uint)clamp(five, three, one);             // minval > maxval
  out[4] = clamp((uint)five, (uint)three, (uint)one);
  out[5] = as_uint(clamp((float)five, (float)three, (float)one));
  out[6] = as_uint(nan((uint)in[4]));
  out[7] = (uint)mul24(five, three);                  // within range: defined
}
)CL";

std::vector<uint32_t> run(const std::string& choice) {
  host::DeviceConfig cfg;
  if (!choice.empty()) cfg.choices.set(choice);
  host::Device device(cfg);
  auto program = host::Program::fromSpirv(device, compileCL(kSource, "-cl-std=CL1.2"));
  host::Kernel k(program, "open_results");
  const int32_t in[5] = {0x1000001, 3, 5, 1, 0x2a};
  k.setArg(0, std::make_shared<host::Buffer>(in, sizeof in));
  auto out = std::make_shared<host::Buffer>(8 * sizeof(uint32_t));
  k.setArg(1, out);
  host::NDRange r;
  r.global = {1, 1, 1};
  const auto result = k.run(r);
  INFO((result.fault ? result.fault->format() : std::string()));
  REQUIRE(result.ok);
  auto v = out->as<uint32_t>();
  return {v.begin(), v.end()};
}

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST_CASE("mul24_out_of_range: the low 24 bits, or the full operands", "[choices]") {
  // OpenCL C 3.0 §6.15.3 [[integer-functions]] mul24: "only the low 24-bits are used"; 0x1000001's low 24 bits are 1.
  const auto low = run("");
  CHECK(low[0] == 3u);
  CHECK(low[1] == 3u);
  CHECK(low[2] == 4u);
  CHECK(low[7] == 15u);
  const auto full = run("mul24_out_of_range=full_product");
  CHECK(full[0] == uint32_t(0x1000001u * 3u));
  CHECK(full[1] == uint32_t(0x1000001u * 3u));
  CHECK(full[2] == uint32_t(0x1000001u * 3u + 1u));
  CHECK(full[7] == 15u);  // in range, both options agree
}

TEST_CASE("clamp_inverted_bounds: min(max(x, lo), hi) or max(min(x, hi), lo)", "[choices]") {
  // clamp(5, 3, 1): min(max(5, 3), 1) = 1; max(min(5, 1), 3) = 3.
  const auto a = run("");
  CHECK(a[3] == 1u);
  CHECK(a[4] == 1u);
  CHECK(a[5] == bitsOf(1.0f));
  const auto b = run("clamp_inverted_bounds=max_of_min");
  CHECK(b[3] == 3u);
  CHECK(b[4] == 3u);
  CHECK(b[5] == bitsOf(3.0f));
}

TEST_CASE("nan_payload: the code in the significand, or the default quiet NaN", "[choices]") {
  CHECK(run("")[6] == (0x7fc00000u | 0x2au));
  CHECK(run("nan_payload=default_nan")[6] == 0x7fc00000u);
}

TEST_CASE("vector_index_out_of_range: warn and read 0 / leave the vector, or fault", "[choices]") {
  for (const char* choice : {"", "vector_index_out_of_range=fault"}) {
    INFO(choice);
    host::DeviceConfig cfg;
    if (*choice) cfg.choices.set(choice);
    host::Device device(cfg);
    auto program = loadSpvasm(device, "composites");
    host::Kernel kernel(program, "composites");
    std::vector<uint32_t> in = {101, 102, 103, 104, 205, 206, 207, 208, 4};  // index 4 of a uint4
    kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
    auto out = std::make_shared<host::Buffer>(39 * 4);
    kernel.setArg(0, out);
    const auto r = kernel.run(range1(1));
    if (*choice) {
      REQUIRE(r.fault);
      CHECK(r.fault->kind == interpreter::FaultKind::UndefinedBehaviour);
      CHECK(r.fault->message.find("vector component index 4 out of range") != std::string::npos);
      CHECK(r.fault->instruction.find("OpVectorExtractDynamic") != std::string::npos);
    } else {
      REQUIRE(r.ok);
      REQUIRE(r.warnings.size() == 2);
      CHECK(r.warnings[0].message.find("choice vector_index_out_of_range") != std::string::npos);
      auto v = out->as<uint32_t>();
      CHECK(v[14] == 0u);  // the extract reads 0
      CHECK(std::vector<uint32_t>(v.begin() + 15, v.begin() + 19) ==
            std::vector<uint32_t>{101, 102, 103, 104});  // unchanged
    }
  }
}

TEST_CASE("ptrdiff_across_allocations: a distance that is never 0, or fault", "[choices]") {
  for (const char* choice : {"", "ptrdiff_across_allocations=fault"}) {
    INFO(choice);
    host::DeviceConfig cfg;
    if (*choice) cfg.choices.set(choice);
    host::Device device(cfg);
    auto program = loadSpvasm(device, "ptr_diff", SPV_ENV_UNIVERSAL_1_4);
    host::Kernel kernel(program, "ptr_diff");
    auto out = std::make_shared<host::Buffer>(2 * 8);
    kernel.setArg(0, out);
    kernel.setArg(1, std::make_shared<host::Buffer>(64));
    kernel.setArg(2, std::make_shared<host::Buffer>(64));
    const auto r = kernel.run(range1(1));
    if (*choice) {
      REQUIRE(r.fault);
      CHECK(r.fault->kind == interpreter::FaultKind::UndefinedBehaviour);
      CHECK(r.fault->instruction.find("OpPtrDiff") != std::string::npos);
      CHECK(out->as<uint64_t>()[0] == 3u);  // the defined difference was stored before the fault
    } else {
      REQUIRE(r.ok);
      REQUIRE(r.warnings.size() == 1);
      CHECK(out->as<uint64_t>()[0] == 3u);
      CHECK(out->as<uint64_t>()[1] != 0u);
    }
  }
}
