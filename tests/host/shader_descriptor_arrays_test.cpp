// Arrays of descriptors (issue 36): a binding whose variable is an array of blocks binds one buffer per element
// (Kernel::resourceArg(set, binding, element)); an access chain's first index selects the buffer, constant or dynamic;
// an index outside the array is a fault naming the binding, or with shader_out_of_bounds=robust a pointer whose
// accesses read zeros and write nothing. Expected values are worked out by hand from the GLSL.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

template <class T> std::shared_ptr<host::Buffer> bufferOf(const std::vector<T>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(T));
}

std::vector<uint32_t> contents(const host::Buffer& b) {
  const auto v = b.as<uint32_t>();
  return {v.begin(), v.end()};
}

// out[k] = bufs[which].d[k] for k < 2, with `which` a push constant (a dynamically uniform index); bufs[2].d[3] =
// bufs[0].d[0] + 1 (constant indices); bufs[which].d[2] = 77.
const std::string kShader = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer B { uint d[]; } bufs[3];
layout(push_constant) uniform P { int which; };
void main() {
  o[0] = bufs[which].d[0];
  o[1] = bufs[which].d[1];
  bufs[2].d[3] = bufs[0].d[0] + 1u;
  bufs[which].d[2] = 77u;
}
)";

struct Run {
  host::RunResult result;
  std::shared_ptr<host::Buffer> out;
  std::vector<std::shared_ptr<host::Buffer>> bufs;
};

Run run(const host::Device& device, int32_t which) {
  auto program = host::Program::fromGlsl(device, kShader);
  host::Kernel k(program, "main");
  Run r;
  r.out = bufferOf(std::vector<uint32_t>{99, 99});
  k.setArg(*k.resourceArg(0, 0), r.out);
  for (uint32_t e = 0; e < 3; ++e) {
    r.bufs.push_back(bufferOf(std::vector<uint32_t>{10 * e + 1, 10 * e + 2, 10 * e + 3, 10 * e + 4}));
    k.setArg(*k.resourceArg(0, 1, e), r.bufs.back());
  }
  k.setArg(*k.pushConstantArg(), bufferOf(std::vector<int32_t>{which}));
  r.result = k.run(k.dispatch({1, 1, 1}));
  return r;
}

}  // namespace

TEST_CASE("descriptor arrays: one argument per element, bound by set, binding and element", "[shader][descriptors]") {
  auto program = host::Program::fromGlsl(host::Device(), kShader);
  host::Kernel k(program, "main");
  REQUIRE(k.argCount() == 5);  // o, bufs[0..2], the push constants
  for (uint32_t e = 0; e < 3; ++e) {
    const auto arg = k.resourceArg(0, 1, e);
    REQUIRE(arg);
    CHECK(*arg == 1 + e);
    const auto& info = k.argInfo(*arg);
    CHECK(info.descriptorCount == 3);
    CHECK(info.arrayElement == e);
    CHECK(info.name == "bufs[" + std::to_string(e) + "]");
    CHECK_THAT(info.typeName, Contains("element " + std::to_string(e) + " of 3"));
  }
  CHECK_FALSE(k.resourceArg(0, 1, 3));
  CHECK(k.argInfo(*k.resourceArg(0, 0)).descriptorCount == 0);  // not an array
}

TEST_CASE("descriptor arrays: constant and dynamic indices select the element's buffer", "[shader][descriptors]") {
  for (int32_t which : {0, 1, 2}) {
    INFO("which = " << which);
    const Run r = run(host::Device(), which);
    INFO((r.result.fault ? r.result.fault->message : ""));
    REQUIRE(r.result.ok);
    const uint32_t w = uint32_t(which);
    CHECK(contents(*r.out) == std::vector<uint32_t>{10 * w + 1, 10 * w + 2});
    for (uint32_t e = 0; e < 3; ++e) {
      std::vector<uint32_t> expected{10 * e + 1, 10 * e + 2, 10 * e + 3, 10 * e + 4};
      if (e == 2) expected[3] = 2;  // bufs[0].d[0] + 1
      if (e == w) expected[2] = 77;
      CHECK(contents(*r.bufs[e]) == expected);
    }
  }
}

TEST_CASE("descriptor arrays: an index outside the array faults naming the binding, or reads zeros when robust",
          "[shader][descriptors][choices]") {
  for (int32_t which : {3, -1}) {
    INFO("which = " << which);
    const Run r = run(host::Device(), which);
    REQUIRE_FALSE(r.result.ok);
    REQUIRE(r.result.fault);
    CHECK(r.result.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(r.result.fault->message, Contains("descriptor index " + std::to_string(which) +
                                                 " outside the array of 3 descriptors at set 0 binding 1 ('bufs')") &&
                                            Contains("choice shader_out_of_bounds=fault"));
    CHECK(contents(*r.out) == std::vector<uint32_t>{99, 99});  // the first access faulted
  }
  host::DeviceConfig config;
  config.choices.set("shader_out_of_bounds=robust");
  const Run r = run(host::Device(config), 5);
  INFO((r.result.fault ? r.result.fault->message : ""));
  REQUIRE(r.result.ok);
  CHECK(contents(*r.out) == std::vector<uint32_t>{0, 0});
  for (uint32_t e = 0; e < 3; ++e) {
    std::vector<uint32_t> expected{10 * e + 1, 10 * e + 2, 10 * e + 3, 10 * e + 4};
    if (e == 2) expected[3] = 2;  // the constant index still writes; the store through index 5 went nowhere
    CHECK(contents(*r.bufs[e]) == expected);
  }
  bool warned = false;
  for (const auto& w : r.result.warnings)
    warned = warned || w.message.find("descriptor index 5 outside the array of 3 descriptors at set 0 binding 1") !=
                           std::string::npos;
  CHECK(warned);
}

TEST_CASE("descriptor arrays: a run-time sized array of blocks is refused with the reason", "[shader][descriptors]") {
  try {
    auto program = host::Program::fromGlsl(host::Device(), R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint d[]; } bufs[];
void main() { bufs[gl_LocalInvocationID.x].d[0] = 1u; }
)");
    host::Kernel k(program, "main");
    FAIL("the shader was accepted");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Contains("RuntimeDescriptorArray: arrays of descriptors without a size"));
  }
}
