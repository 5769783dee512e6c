// Shader cases (golden/README.md "Shader cases"): `clref run` and `clref check` on a Vulkan compute shader bound by
// descriptor set and binding, with a dispatch in work-groups; the errors a wrong binding gives. Expected values are
// worked out here from the shader's source.
#include <catch2/catch.hpp>

#include "clref_run.hpp"

using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::slurp;
using clref::cli::test::TempDir;

namespace {

// out[i] = in[i] · k + float(i), 4 invocations per work-group.
const char* kShader = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 1, binding = 3) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Push { float k; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  dst[i] = src[i] * pc.k + float(i);
}
)";

std::string caseText(const std::string& args, const std::string& launch = R"("dispatch": [2])") {
  return R"({ "module": "scale.comp", )" + launch + R"(, "args": [)" + args + "] }";
}

const std::string kArgs =
    R"({ "push_constant": true, "buffer": { "type": "float", "count": 1, "init": { "values": [0.5] } } },
       { "set": 1, "binding": 3, "buffer": { "type": "float", "count": 8, "output": true } },
       { "binding": 0, "buffer": { "type": "float", "count": 8, "init": { "iota": { "start": 1, "step": 2 } } } })";

}  // namespace

TEST_CASE("clref run binds a shader's buffers by set and binding and dispatches work-groups", "[cli][shader]") {
  TempDir dir;
  dir.write("scale.comp", kShader);
  const auto c = dir.write("scale.json", caseText(kArgs));
  const auto r = runClref(dir, "run '" + c.string() + "' --print --out '" + dir.path().string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  // The arguments in set and binding order, the push constants last: Out is arg 1.
  CHECK(has(r.out, "== arg 1: set 1 binding 3 (float, 8) ==\n"));
  // src = 1, 3, 5, …; dst[i] = src[i] · 0.5 + i = 0.5 + 2i... (1 + 2i)/2 + i = 0.5 + 2i.
  std::string expected;
  for (int i = 0; i < 8; ++i) {
    char line[64];
    const double v = 0.5 + 2 * i;
    std::snprintf(line, sizeof line, "%a %.9g\n", v, v);
    expected += line;
  }
  CHECK(slurp(dir.path() / "scale.arg1.txt") == expected);
}

TEST_CASE("clref check judges another device's output of a shader", "[cli][shader]") {
  TempDir dir;
  dir.write("scale.comp", kShader);
  const auto c = dir.write("scale.json", caseText(kArgs));
  std::string observed;
  for (int i = 0; i < 8; ++i) observed += std::to_string(0.5 + 2 * i) + "\n";
  dir.write("scale.arg1.txt", observed);
  auto r = runClref(dir, "check '" + c.string() + "' --observed '" + dir.path().string() + "'");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(has(r.out, "arg 1: set 1 binding 3 (Out, 8 elements): 8 identical, 0 allowed, 0 violations"));
  // One element off by one ulp of 4.5 is a violation of the correctly rounded OpFAdd.
  observed = "0.5\n2.5\n4.500000477\n6.5\n8.5\n10.5\n12.5\n14.5\n";
  dir.write("scale.arg1.txt", observed);
  r = runClref(dir, "check '" + c.string() + "' --observed '" + dir.path().string() + "'");
  CHECK(r.status == 1);
  CHECK(has(r.out, "7 identical, 0 allowed, 1 violation"));
  CHECK(has(r.out, "[2] violation"));
}

TEST_CASE("a shader case's bindings are checked against the shader's resources", "[cli][shader]") {
  TempDir dir;
  dir.write("scale.comp", kShader);
  const std::string in = R"({ "binding": 0, "buffer": { "type": "float", "count": 8 } })";
  const std::string out = R"({ "set": 1, "binding": 3, "buffer": { "type": "float", "count": 8, "output": true } })";
  const std::string push = R"({ "push_constant": true, "buffer": { "type": "float", "count": 1 } })";
  struct Bad {
    std::string args, launch, message;
  };
  const Bad cases[] = {
      {in + "," + out, R"("dispatch": [2])", "nothing is bound to the push constants"},
      {in + "," + push + "," + R"({ "set": 1, "binding": 4, "buffer": { "type": "float", "count": 8 } })",
       R"("dispatch": [2])", "the shader declares no set 1 binding 4"},
      {in + "," + out + "," + push + "," + in, R"("dispatch": [2])", "two arguments bind set 0 binding 0"},
      {in + "," + out + "," + R"({ "push_constant": true, "scalar": { "type": "float", "value": 1 } })",
       R"("dispatch": [2])", "a shader's resource is bound to a buffer"},
      {in + "," + out + "," + push, R"("kernel": "main", "ndrange": { "global": [8] })",
       "set, binding and push_constant are for a"},
      {R"({ "buffer": { "type": "float", "count": 8 } })", R"("dispatch": [2])",
       "a compute shader's argument names its \"binding\""},
      {in + "," + out + "," + push, R"("dispatch": [0])", "expected a positive integer"},
      // An array element of a binding that is no array; an element without its binding.
      {in + "," + out + "," + push + "," +
           R"({ "binding": 0, "element": 1, "buffer": { "type": "float", "count": 8 } })",
       R"("dispatch": [2])", "the shader declares no set 0 binding 0 element 1"},
      {in + "," + out + "," + R"({ "element": 1, "buffer": { "type": "float", "count": 8 } })", R"("dispatch": [2])",
       "\"element\" needs a \"binding\""},
      // Device addresses: 64-bit elements, of a buffer the shader declares.
      {in + "," + out + "," +
           R"({ "push_constant": true, "buffer": { "type": "float", "count": 2, "init": { "values": [
                { "address_of": { "binding": 0 } } ] } } })",
       R"("dispatch": [2])", "a device address is 64 bits: the buffer's type must be ulong or long"},
      {in + "," + out + "," +
           R"({ "push_constant": true, "buffer": { "type": "ulong", "count": 1, "init": { "values": [
                { "address_of": { "binding": 7 } } ] } } })",
       R"("dispatch": [2])", "init.values[0].address_of: the shader declares no buffer at set 0 binding 7"},
  };
  for (const auto& bad : cases) {
    INFO(bad.args << " / " << bad.launch);
    const auto c = dir.write("bad.json", R"({ "module": "scale.comp", )" + bad.launch + R"(, "args": [)" + bad.args +
                                             "] }");
    const auto r = runClref(dir, "run '" + c.string() + "'");
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(has(r.err, bad.message));
  }
  // The resources are named when one is missing.
  const auto c = dir.write("bad.json", caseText(in + "," + out));
  const auto r = runClref(dir, "run '" + c.string() + "'");
  CHECK(has(r.err, "set 0 binding 0 (buffer In (set 0, binding 0)); set 1 binding 3 (buffer Out (set 1, binding 3)); "
                   "the push constants (push_constant Push)"));
}
