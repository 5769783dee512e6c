// PhysicalStorageBuffer64 (issue 36, GL_EXT_buffer_reference): a bound buffer's device address is
// host::Kernel::deviceAddress; a shader stores through an address it reads from its push constants; an address past
// the buffer, one derived from null and one in no buffer each fault with what was wrong.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// *target = value, with target a device address in the push constants {Word target @0; uint value @8}.
const std::string kShader = R"(#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Word { uint w; };
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer Other { uint x[]; };
layout(push_constant) uniform P { Word target; uint value; } pc;
void main() { pc.target.w = pc.value; }
)";

struct Run {
  host::RunResult result;
  std::shared_ptr<host::Buffer> out, other;
};

// Runs kShader storing 42 at `address(outAddress)`.
template <class Address> Run storeAt(const host::Device& device, Address address) {
  auto program = host::Program::fromGlsl(device, kShader);
  host::Kernel k(program, "main");
  Run r;
  const std::vector<uint32_t> zeros(4, 0);
  r.out = std::make_shared<host::Buffer>(zeros.data(), 16);
  r.other = std::make_shared<host::Buffer>(zeros.data(), 16);
  k.setArg(*k.resourceArg(0, 0), r.out);
  k.setArg(*k.resourceArg(0, 1), r.other);
  uint8_t push[16] = {};
  const uint64_t target = address(k.deviceAddress(*k.resourceArg(0, 0)));
  const uint32_t value = 42;
  std::memcpy(push, &target, 8);
  std::memcpy(push + 8, &value, 4);
  k.setArg(*k.pushConstantArg(), std::make_shared<host::Buffer>(push, sizeof push));
  r.result = k.run(k.dispatch({1, 1, 1}));
  return r;
}

std::vector<uint32_t> contents(const host::Buffer& b) {
  const auto v = b.as<uint32_t>();
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("device addresses: one per bound buffer, none for push constants", "[shader][buffer_reference]") {
  auto program = host::Program::fromGlsl(host::Device(), kShader);
  host::Kernel k(program, "main");
  const uint64_t out = k.deviceAddress(*k.resourceArg(0, 0)), other = k.deviceAddress(*k.resourceArg(0, 1));
  CHECK(out != 0);
  CHECK(other != 0);
  CHECK(out != other);
  // Distinct buffers lie at least 2^40 bytes apart: no address past one reaches another.
  CHECK((out > other ? out - other : other - out) >= (uint64_t(1) << 40));
  CHECK_THROWS_AS(k.deviceAddress(*k.pushConstantArg()), host::Error);
  CHECK_THROWS_AS(k.deviceAddress(k.argCount()), host::Error);
}

TEST_CASE("device addresses: a store through an address the shader reads from its push constants",
          "[shader][buffer_reference]") {
  const Run r = storeAt(host::Device(), [](uint64_t a) { return a + 8; });
  INFO((r.result.fault ? r.result.fault->message : ""));
  REQUIRE(r.result.ok);
  CHECK(contents(*r.out) == std::vector<uint32_t>{0, 0, 42, 0});
  CHECK(contents(*r.other) == std::vector<uint32_t>{0, 0, 0, 0});
}

TEST_CASE("device addresses: an address outside every buffer faults", "[shader][buffer_reference]") {
  SECTION("past the end of the buffer: out of bounds of its binding") {
    const Run r = storeAt(host::Device(), [](uint64_t a) { return a + 16; });
    REQUIRE(r.result.fault);
    CHECK(r.result.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(r.result.fault->message, Contains("out-of-bounds write of 4 bytes at offset 16 (16 bytes bound) of "
                                                 "set 0 binding 0") &&
                                            Contains("choice shader_out_of_bounds=fault"));
  }
  SECTION("a small integer: a pointer derived from null") {
    const Run r = storeAt(host::Device(), [](uint64_t) { return uint64_t(0x40); });
    REQUIRE(r.result.fault);
    CHECK(r.result.fault->kind == interpreter::FaultKind::NullPointer);
    CHECK_THAT(r.result.fault->message, Contains("a pointer derived from NULL (offset 64)"));
  }
  SECTION("an address no buffer has") {
    const Run r = storeAt(host::Device(), [](uint64_t) { return uint64_t(0x7ff) << 40; });
    REQUIRE(r.result.fault);
    CHECK(r.result.fault->kind == interpreter::FaultKind::InvalidPointer);
    CHECK_THAT(r.result.fault->message, Contains("which points into no allocation"));
  }
  SECTION("with shader_out_of_bounds=robust the store past the end goes nowhere") {
    host::DeviceConfig config;
    config.choices.set("shader_out_of_bounds=robust");
    const Run r = storeAt(host::Device(config), [](uint64_t a) { return a + 16; });
    REQUIRE(r.result.ok);
    CHECK(contents(*r.out) == std::vector<uint32_t>{0, 0, 0, 0});
    CHECK(contents(*r.other) == std::vector<uint32_t>{0, 0, 0, 0});
  }
}
