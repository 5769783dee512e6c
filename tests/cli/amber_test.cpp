// `clref amber` (cli/amber_script.*, cli/amber_run.*): the scripts in tests/cli/amber/ run in process, their PASS and
// FAIL lines and exit statuses checked; script errors and unsupported commands give their message and status; a few
// runs of the executable check the exit statuses end to end. The expected values live in the scripts' EXPECTs,
// worked out by hand there; the layouts below are amber's rules (docs/amber_script.md, src/format.cc) applied by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "cli/amber_run.hpp"
#include "cli/amber_script.hpp"
#include "clref_run.hpp"

using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::TempDir;
namespace amber = clref::cli::amber;

namespace {

const std::string kScripts = CLREF_AMBER_DIR;

struct Outcome {
  int status = -1;
  std::string out, err;
  size_t lines(const std::string& prefix) const {
    size_t n = 0;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) n += l.rfind(prefix, 0) == 0;
    return n;
  }
};

Outcome runFile(const std::string& file) {
  std::ostringstream out, err;
  Outcome o;
  // Named as given (not by its full path) so that the lines checked below do not depend on the checkout.
  o.status = amber::runScript(clref::cli::test::slurp(kScripts + "/" + file), file, kScripts, out, err, {});
  o.out = out.str();
  o.err = err.str();
  return o;
}

Outcome runText(const std::string& text) {
  std::ostringstream out, err;
  Outcome o;
  o.status = amber::runScript(text, "t.amber", ".", out, err, {});
  o.out = out.str();
  o.err = err.str();
  return o;
}

// A compute shader and buffer most error scripts build on.
const std::string kPrelude = R"(#!amber
SHADER compute s GLSL
#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { int b[]; };
void main() { b[0] = 1; }
END
BUFFER buf DATA_TYPE int32 SIZE 4 FILL 0
)";

// The same with an array of two storage buffers at binding 0 (BIND BUFFER_ARRAY).
const std::string kArrayPrelude = R"(#!amber
SHADER compute s GLSL
#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { int b[]; } bs[2];
void main() { bs[1].b[0] = 1; }
END
BUFFER buf DATA_TYPE int32 SIZE 4 FILL 0
)";

const std::string kPipeline = R"(PIPELINE compute p
  ATTACH s
  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0
END
)";

}  // namespace

TEST_CASE("amber layouts: vec3 and matrix columns padded to 4, std140 arrays and matrices padded", "[cli][amber]") {
  using amber::Layout;
  const auto layout = [](const std::string& type, Layout l) {
    const auto t = amber::parseDataType(type);
    REQUIRE(t);
    return amber::elementLayout(*t, l);
  };
  CHECK(layout("int8", Layout::Std430).size == 1);
  CHECK(layout("float", Layout::Std140).size == 4);  // a scalar that is not an array is not padded
  CHECK(layout("float[]", Layout::Std140).size == 16);
  CHECK(layout("float[]", Layout::Std430).size == 4);
  CHECK(layout("vec2<float>", Layout::Std140).size == 8);
  CHECK(layout("vec2<double>[]", Layout::Std140).size == 32);
  const auto v3 = layout("vec3<float>", Layout::Std430);
  CHECK(v3.size == 16);
  CHECK(v3.offsets == std::vector<uint32_t>{0, 4, 8});
  CHECK(layout("vec3<int16>", Layout::Std140).size == 8);
  const auto m32 = layout("mat3x2<float>", Layout::Std140);  // 3 columns of 2 rows
  CHECK(m32.size == 48);
  CHECK(m32.offsets == std::vector<uint32_t>{0, 4, 16, 20, 32, 36});
  CHECK(layout("mat3x2<float>", Layout::Std430).size == 24);
  CHECK(layout("mat2x3<float>", Layout::Std430).size == 32);
  CHECK(layout("mat4x4<double>", Layout::Std430).size == 128);
  // FORMAT names are vectors of their channels.
  const auto rgba = amber::parseFormat("R32G32B32A32_SFLOAT");
  REQUIRE(rgba);
  CHECK(rgba->rows == 4);
  CHECK(rgba->number.kind == amber::NumberKind::Float);
  CHECK(amber::elementLayout(*amber::parseFormat("R16G16B16_SINT"), Layout::Std430).size == 8);
  CHECK(amber::parseFormat("R8_UINT")->number.bits == 8);
  CHECK_FALSE(amber::parseFormat("R8G8B8A8_UNORM"));
  CHECK_FALSE(amber::parseFormat("R32G16_UINT"));
  CHECK_FALSE(amber::parseDataType("vec5<float>"));
  CHECK_FALSE(amber::parseDataType("vec2<float"));
  CHECK_FALSE(amber::parseDataType("mat2<float>"));
}

TEST_CASE("amber scripts: every data type, layout, initializer, pipeline form and EXPECT form passes", "[cli][amber]") {
  const std::pair<const char*, size_t> scripts[] = {
      {"data_types.amber", 13}, {"layouts.amber", 16},  {"pipelines.amber", 20}, {"expect.amber", 20},
      {"files.amber", 5},       {"vkscript.amber", 12}, {"bindings.amber", 2},  {"subgroups.amber", 6},
      {"buffer_array.amber", 5}};
  for (const auto& [file, passes] : scripts) {
    INFO(file);
    const Outcome o = runFile(file);
    INFO(o.out << o.err);
    CHECK(o.status == amber::kAllPassed);
    CHECK(o.lines("PASS ") == passes);
    CHECK(o.lines("FAIL ") == 0);
    CHECK(has(o.out, std::to_string(passes) + " passed, 0 failed\n"));
  }
}

TEST_CASE("amber pipelines.amber: the SHADER_OPTIMIZATION note, REPEAT's EXPECT each time", "[cli][amber]") {
  const Outcome o = runFile("pipelines.amber");
  INFO(o.out << o.err);
  CHECK(has(o.err, "pipelines.amber:33: SHADER_OPTIMIZATION params ignored"));
  // The EXPECT inside REPEAT 5 reports once per iteration, each after one more increment.
  for (int v = 11; v <= 15; ++v)
    CHECK(has(o.out, "pipelines.amber:70 counter IDX 0 GT: observed " + std::to_string(v)));
  CHECK(has(o.out,
            "PASS pipelines.amber:176 by_asm IDX 0 EQ: observed 0 7 14 21 28 35 42 49, expected 0 7 14 21 28 "
            "35 42 49\n"));
  // Reals as the buffer holds them (the shortest text that reads back), expected values as the script writes them.
  CHECK(has(o.out, "PASS pipelines.amber:183 series IDX 0 EQ: observed 0 0.1 0.2 0.3, expected 0 0.1 0.2 0.3\n"));
}

TEST_CASE("amber expect_fail.amber: every EXPECT form fails with the observed and expected values", "[cli][amber]") {
  const Outcome o = runFile("expect_fail.amber");
  INFO(o.out << o.err);
  CHECK(o.status == amber::kExpectFailed);
  CHECK(o.lines("PASS ") == 0);
  CHECK(o.lines("FAIL ") == 16);
  CHECK(has(o.out, "0 passed, 16 failed\n"));
  const std::string& s = o.out;
  CHECK(has(s,
            "FAIL expect_fail.amber:26 n IDX 0 EQ: 1 of 4 values fail; first at byte 12 (value 3): observed 5, "
            "expected EQ 6\n"));
  CHECK(has(s, "FAIL expect_fail.amber:28 n IDX 4 NE: 1 of 1 values fail; first at byte 4 (value 0): observed -3"));
  CHECK(has(s, "FAIL expect_fail.amber:30 n IDX 8 LT:"));
  CHECK(has(s, "FAIL expect_fail.amber:32 n IDX 12 LE:"));
  CHECK(has(s, "FAIL expect_fail.amber:34 n IDX 0 GT:"));
  CHECK(has(s,
            "FAIL expect_fail.amber:36 n IDX 0 GE: 1 of 1 values fail; first at byte 0 (value 0): observed -4, "
            "expected GE -3\n"));
  CHECK(has(s, "FAIL expect_fail.amber:38 f IDX 4 TOLERANCE 0.1 EQ:"));
  CHECK(has(s, "FAIL expect_fail.amber:40 f IDX 4 TOLERANCE 10% EQ:"));
  CHECK(has(s,
            "FAIL expect_fail.amber:42 f IDX 4 EQ: 1 of 1 values fail; first at byte 4 (value 0): observed 1.5, "
            "expected EQ 1.5000001\n"));
  CHECK(
      has(s, "FAIL expect_fail.amber:43 a EQ_BUFFER b: 1 of 4 values differ; first at byte 12 (element 3): 4 and 6\n"));
  CHECK(has(s, "FAIL expect_fail.amber:44 a EQ_BUFFER short: the buffers have different sizes (16 and 12 bytes)\n"));
  CHECK(has(s, "FAIL expect_fail.amber:45 a RMSE_BUFFER b: RMSE 1 > tolerance 0.99\n"));
  CHECK(has(s, "FAIL expect_fail.amber:47 a IDX 8 EQ: 4 values from byte 8 run past the end of a (16 bytes)\n"));
  CHECK(has(s, "FAIL expect_fail.amber:49 v3 IDX 12 EQ: byte 12 is not the start of a value of v3"));
  // The fault is a failure carrying clref's diagnostic.
  CHECK(has(s, "FAIL expect_fail.amber:51 RUN p faulted:\n"));
  CHECK(has(s, "out-of-bounds write of 4 bytes at offset 16"));
  CHECK(has(s, "work-item: global (2,0,0)"));
  CHECK(has(s,
            "FAIL expect_fail.amber:59 RUN outside: the binding of tiny at line 57 (bytes 16 to 32) lies outside "
            "its 16 bytes\n"));
}

TEST_CASE("amber script errors: file:line and what was expected, exit 2", "[cli][amber]") {
  const std::pair<std::string, std::string> cases[] = {
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n", "t.amber:9: error: missing END of PIPELINE p"},
      {kPrelude + "FROB buf\n", "t.amber:9: error: unknown command 'FROB'"},
      {kPrelude + "BUFFER x DATA_TYPE int32 DATA 1 1.5 END\n",
       "t.amber:9: error: expected an integer for an integer type, found '1.5'"},
      {kPrelude + "BUFFER x DATA_TYPE vec2<floot> SIZE 2 FILL 0\n",
       "t.amber:9: error: unknown data type 'vec2<floot>'"},
      {kPrelude + "BUFFER x DATA_TYPE int32 SIZE 2 SERIES_FROM 1 BY 2\n",
       "t.amber:9: error: expected INC_BY after SERIES_FROM, found 'BY'"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0\nEND\n",
       "t.amber:11: error: expected BINDING after BIND BUFFER buf AS storage"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER nope AS storage BINDING 0\nEND\n",
       "t.amber:11: error: unknown buffer 'nope'"},
      {kPrelude + kPipeline + "RUN p 1 1\n", "t.amber:13: error: expected the work-group count at the end of the line"},
      {kPrelude + kPipeline + "RUN q 1 1 1\n", "t.amber:13: error: unknown pipeline 'q'"},
      {kPrelude + kPipeline + "EXPECT buf IDX 0 ABOUT 1\n",
       "t.amber:13: error: expected a comparator (EQ, NE, LT, LE, GT, GE), found 'ABOUT'"},
      {kPrelude + kPipeline + "EXPECT buf IDX 0 TOLERANCE 1 2 3 4 5 EQ 1\n",
       "t.amber:13: error: TOLERANCE takes 1 to 4 values"},
      {kPrelude + kPipeline + "RUN p 1 1 1 extra\n", "t.amber:13: error: unexpected 'extra' at the end of RUN"},
      {kPrelude + "PIPELINE compute p\n  BIND BUFFER buf AS storage BINDING 0\nEND\n",
       "t.amber:9: error: pipeline p has no ATTACHed shader"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS bool 1\nEND\n",
       "t.amber:10: error: SPECIALIZE type must be uint32, int32 or float, found 'bool'"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  SUBGROUP t\n  END\nEND\n",
       "t.amber:11: error: SUBGROUP names shader 't', which pipeline p does not ATTACH"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  SUBGROUP s\n    REQUIRED_SIZE 12\n  END\nEND\n",
       "t.amber:12: error: REQUIRED_SIZE 12 is not a power of two from 4 to 128"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  SUBGROUP s\n    FULLY_POPULATED yes\n  END\nEND\n",
       "t.amber:12: error: FULLY_POPULATED: expected on or off, got 'yes'"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER buf AS storage BINDING 0\n  SUBGROUP s\n"
                  "    FULLY_POPULATED on\n  END\nEND\n",
       "t.amber:9: error: pipeline p: FULLY_POPULATED needs local_size_x (1) to be a multiple of the subgroup size 32"},
      // Found when the pipelines are built, before anything runs.
      {kPrelude + "PIPELINE compute p\n  ATTACH s\nEND\n",
       "t.amber:9: error: pipeline p: no buffer is bound at descriptor set 0 binding 0, which the shader declares"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER buf AS uniform BINDING 0\nEND\n",
       "t.amber:11: error: buffer buf is bound as uniform but the shader declares a storage buffer"},
      {"#!amber\nSHADER compute bad GLSL\n#version 450\nvoid main() { undeclared = 1; }\nEND\n"
       "PIPELINE compute p\n  ATTACH bad\nEND\n",
       "t.amber:2: error: shader bad does not compile:"},
      {"#!amber\nSHADER compute s GLSL TARGET_ENV vulkan9.9\n#version 450\nvoid main() {}\nEND\n"
       "PIPELINE compute p\n  ATTACH s\nEND\n",
       "t.amber:2: error: unknown TARGET_ENV 'vulkan9.9'"},
      {"#!amber\nSHADER compute s GLSL\n#version 450\nvoid main() {}\n", "t.amber:2: error: missing END of SHADER s"},
      {kPrelude + "BUFFER x DATA_TYPE int32 SIZE 2 FILE TEXT no/such/file.txt\n",
       "t.amber:9: error: cannot read buffer file"},
      {kPrelude + "BUFFER x DATA_TYPE int32 SIZE 2 FILL 0.5\n",
       "t.amber:9: error: expected an integer for an integer type, found '0.5'"},
      // BIND BUFFER_ARRAY: a buffer per element, a value per buffer.
      {kArrayPrelude + kPipeline,
       "t.amber:9: error: pipeline p: no buffer is bound at descriptor set 0 binding 0 array element 1 (BIND "
       "BUFFER_ARRAY binds one buffer per element)"},
      {kArrayPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER_ARRAY buf buf AS storage BINDING 0 "
                       "DESCRIPTOR_OFFSET 0\nEND\n",
       "t.amber:11: error: expected the descriptor offset at the end of the line"},
      {kArrayPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER_ARRAY buf buf AS push_constant\nEND\n",
       "t.amber:11: error: BIND BUFFER_ARRAY of push constants"},
      {kArrayPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER_ARRAY buf nope AS storage BINDING 0\nEND\n",
       "t.amber:11: error: unknown buffer 'nope'"},
  };
  for (const auto& [script, message] : cases) {
    INFO(script);
    const Outcome o = runText(script);
    INFO(o.out << o.err);
    CHECK(o.status == amber::kScriptError);
    CHECK(has(o.err, message));
    CHECK(o.out.empty());  // nothing ran
  }
}

TEST_CASE("amber VkScript errors: file:line and what was expected, exit 2", "[cli][amber]") {
  const std::string shader =
      "[compute shader]\n#version 450\nlayout(local_size_x = 1) in;\n"
      "layout(binding = 0) buffer B { int b[]; };\nvoid main() { b[0] = 1; }\n";
  const std::pair<std::string, std::string> cases[] = {
      {shader + "[test]\nssbo 0 4\nfrobnicate 1\n", "t.amber:8: error: unknown VkScript test command 'frobnicate'"},
      {shader + "[test]\nssbo 0 4\ncompute 1 1 1\nprobe ssbo int 0:1 0 == 1\n",
       "t.amber:9: error: probe of ssbo 0:1, which the test never sets"},
      {shader + "[test]\nssbo 0 4\ncompute 1 1 1\nprobe ssbo int 0 0 =~ 1\n",
       "t.amber:9: error: expected a comparator (== != < <= > >= ~=), found '=~'"},
      {shader + "[test]\nssbo 0 subdata quat 0 1\n", "t.amber:7: error: unknown type 'quat'"},
      {shader + "[test]\nssbo x:0 4\n", "t.amber:7: error: expected a binding (SET:BINDING or BINDING), found 'x:0'"},
      {"[test]\ncompute 1 1 1\n", "t.amber:2: error: compute without a [compute shader] section"},
      {"[comptue shader]\n", "t.amber:1: unsupported: VkScript section [comptue shader]"},
      {shader + "[test]\nssbo 0 4\ncompute 1 1 1\nprobe ssbo int 0 0 == 1.5\n",
       "t.amber:9: error: expected an integer for an integer type, found '1.5'"},
      // The shader's binding has no ssbo.
      {shader + "[test]\nssbo 1 4\ncompute 1 1 1\n",
       "t.amber:8: error: pipeline compute main: no buffer is bound at descriptor set 0 binding 0"},
  };
  for (const auto& [script, message] : cases) {
    INFO(script);
    const Outcome o = runText(script);
    INFO(o.out << o.err);
    CHECK(o.status == (has(message, "unsupported") ? amber::kUnsupported : amber::kScriptError));
    CHECK(has(o.err, message));
    CHECK(o.out.empty());  // nothing ran
  }
}

TEST_CASE("amber unsupported commands and features: exit 3 with what clref does not run", "[cli][amber]") {
  const std::pair<std::string, std::string> cases[] = {
      {"[vertex shader passthrough]\n[test]\ndraw rect -1 -1 2 2\n",
       "t.amber:1: unsupported: VkScript section [vertex shader passthrough] (graphics)"},
      {"[require]\nrobustBufferAccess\n", "t.amber:2: unsupported: feature robustBufferAccess"},
      {"[compute shader]\n#version 450\nvoid main() {}\n[test]\ncompute 1 1 1\nprobe all rgba 0 0 0 0\n",
       "t.amber:6: unsupported: VkScript 'probe all' (graphics)"},
      {"#!amber\nSHADER vertex v PASSTHROUGH\n", "t.amber:2: unsupported: a vertex shader"},
      {"#!amber\nSHADER compute v PASSTHROUGH\n", "t.amber:2: unsupported: PASSTHROUGH shaders (graphics)"},
      {kPrelude + "PIPELINE graphics g\nEND\n", "t.amber:9: unsupported: a graphics pipeline"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  FRAMEBUFFER_SIZE 4 4\nEND\n",
       "t.amber:11: unsupported: FRAMEBUFFER_SIZE (graphics pipeline state)"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND SAMPLER_ARRAY smp smp BINDING 0\nEND\n",
       "t.amber:11: unsupported: BIND SAMPLER_ARRAY (samplers)"},
      {kPrelude + "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER buf AS storage_image BINDING 0\nEND\n",
       "t.amber:11: unsupported: a storage_image (images)"},
      {kPrelude + "IMAGE img FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 4\n",
       "t.amber:9: unsupported: IMAGE (images)"},
      {kPrelude + "SAMPLER smp\n", "t.amber:9: unsupported: SAMPLER (samplers)"},
      {kPrelude + "DEVICE_FEATURE robustBufferAccess\n", "t.amber:9: unsupported: DEVICE_FEATURE robustBufferAccess"},
      {kPrelude + "DEVICE_FEATURE VariablePointerFeatures.variablePointers\n",
       "t.amber:9: unsupported: DEVICE_FEATURE VariablePointerFeatures.variablePointers"},
      {kPrelude + "DEVICE_EXTENSION VK_EXT_frobnicate\n", "t.amber:9: unsupported: DEVICE_EXTENSION VK_EXT_frobnicate"},
      {kPrelude + kPipeline + "EXPECT buf EQ_HISTOGRAM_EMD_BUFFER buf TOLERANCE 0.1\n",
       "t.amber:13: unsupported: EXPECT … EQ_HISTOGRAM_EMD_BUFFER"},
      {kPrelude + kPipeline + "EXPECT buf IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0\n",
       "t.amber:13: unsupported: EXPECT … IDX x y (image probes)"},
      {kPrelude + kPipeline + "CLEAR p\n", "t.amber:13: unsupported: CLEAR (graphics)"},
      {kPrelude + kPipeline + "CLEAR_COLOR p 0 0 0 255\n", "t.amber:13: unsupported: CLEAR_COLOR (graphics)"},
      {kPrelude + "BUFFER img FORMAT B8G8R8A8_UNORM\n", "t.amber:9: unsupported: format B8G8R8A8_UNORM"},
      {"#!amber\nSHADER compute k OPENCL-C\nkernel void f() {}\nEND\n", "t.amber:2: unsupported: OPENCL-C shaders"},
  };
  for (const auto& [script, message] : cases) {
    INFO(script);
    const Outcome o = runText(script);
    INFO(o.out << o.err);
    CHECK(o.status == amber::kUnsupported);
    CHECK(has(o.err, message));
  }
}

TEST_CASE("clref amber: exit statuses of the executable", "[cli][amber]") {
  const auto pass = runClref("amber '" + kScripts + "/expect.amber'");
  INFO(pass.out << pass.err);
  CHECK(pass.status == 0);
  CHECK(has(pass.out, "20 passed, 0 failed\n"));
  const auto fail = runClref("amber '" + kScripts + "/expect_fail.amber'");
  CHECK(fail.status == 1);
  CHECK(has(fail.out, "0 passed, 16 failed\n"));
  TempDir dir;
  const auto bad = dir.write("bad.amber", "#!amber\nBUFFER b DATA_TYPE int32 DATA 1 2\n");
  const auto r2 = runClref("amber '" + bad.string() + "'");
  CHECK(r2.status == 2);
  CHECK(has(r2.err, "bad.amber:2: error: missing END of BUFFER b DATA"));
  const auto graphics = dir.write("g.amber", "#!amber\nPIPELINE graphics g\nEND\n");
  const auto r3 = runClref("amber '" + graphics.string() + "'");
  CHECK(r3.status == 3);
  CHECK(has(r3.err, "g.amber:2: unsupported: a graphics pipeline"));
  const auto missing = runClref("amber '" + (dir.path() / "none.amber").string() + "'");
  CHECK(missing.status == 2);
  CHECK(has(missing.err, "none.amber: error: cannot read the script"));
}

TEST_CASE("amber EXPECT beyond a buffer fails without reading outside it", "[cli][amber]") {
  const Outcome o = runText(
      "#!amber\nBUFFER b DATA_TYPE int32 DATA 1 2 END\nEXPECT b IDX 18446744073709551612 EQ 1\nEXPECT b IDX 8 EQ 1\n"
      "EXPECT b IDX 4 EQ 2 3\nEXPECT b IDX 4 EQ 2\n");
  INFO(o.out << o.err);
  CHECK(o.status == amber::kExpectFailed);
  CHECK(has(o.out,
            "FAIL t.amber:3 b IDX 18446744073709551612 EQ: byte 18446744073709551612 is past the end of b "
            "(8 bytes)\n"));
  CHECK(has(o.out, "FAIL t.amber:4 b IDX 8 EQ: byte 8 is past the end of b (8 bytes)\n"));
  CHECK(has(o.out, "FAIL t.amber:5 b IDX 4 EQ: 2 values from byte 4 run past the end of b (8 bytes)\n"));
  CHECK(has(o.out, "PASS t.amber:6 b IDX 4 EQ: observed 2, expected 2\n"));
  CHECK(has(o.out, "1 passed, 3 failed\n"));
}

TEST_CASE("amber VkScript [compute shader spirv hex]: the module pipelines.amber gives as SPIRV-HEX", "[cli][amber]") {
  // pipelines.amber holds a module (out[i] = i * 7, local size 4, set 0 binding 0) as hex bytes.
  const std::string amber = clref::cli::test::slurp(kScripts + "/pipelines.amber");
  const std::string start = "SHADER compute hex SPIRV-HEX\n";
  const size_t from = amber.find(start);
  REQUIRE(from != std::string::npos);
  const size_t end = amber.find("END\n", from);
  const std::string hex = amber.substr(from + start.size(), end - from - start.size());
  const Outcome o = runText("[compute shader spirv hex]\n" + hex +
                            "[test]\nssbo 0 32\ncompute 2 1 1\nprobe ssbo uint 0 0 == 0 7 14 21 28 35 42 49\n"
                            "probe ssbo uint 0 4 > 6\n");
  INFO(o.out << o.err);
  CHECK(o.status == amber::kAllPassed);
  CHECK(has(o.out, "2 passed, 0 failed\n"));
}
