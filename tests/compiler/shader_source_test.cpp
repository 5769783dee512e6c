// The shader front end (compiler/shader_source.hpp) and the Vulkan environment's module loading
// (interpreter/module_validate.cpp): GLSL, HLSL and SPIR-V assembly compile to modules that validate in the Vulkan
// environment, with the layouts the std140 and std430 rules give; bad input comes back as diagnostics naming the file
// and line or the instruction; running a shader is refused with one clear message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "compiler/shader_source.hpp"
#include "host/host.hpp"
#include "interpreter/module.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

const std::string kShaders = CLREF_SHADER_DIR;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The struct type OpName calls `name`.
uint32_t structNamed(const interpreter::Module& m, const std::string& name) {
  for (const auto& [id, n] : m.names)
    if (n == name && m.types.count(id) && m.types.at(id).kind == interpreter::TypeKind::Struct) return id;
  FAIL("no struct named " << name);
  return 0;
}

// A member decoration's first literal, or -1.
int64_t memberDecoration(const interpreter::Module& m, uint32_t structId, int32_t member, spv::Decoration kind) {
  for (const auto& d : m.decorations.at(structId))
    if (d.member == member && d.kind == kind) return d.literals.empty() ? 0 : d.literals[0];
  return -1;
}

// The ArrayStride of struct member `member`'s (array) type.
int64_t memberArrayStride(const interpreter::Module& m, uint32_t structId, size_t member) {
  const auto* d = m.decoration(m.types.at(structId).members.at(member), spv::Decoration::ArrayStride);
  return d ? d->literals.at(0) : -1;
}

// The local size an entry point declares: LocalSize's literals, or the values of LocalSizeId's constants (glslang
// writes LocalSizeId for SPIR-V 1.6).
std::array<uint32_t, 3> localSize(const interpreter::Module& m, const interpreter::EntryPoint& ep) {
  if (ep.requiredLocalSize) return *ep.requiredLocalSize;
  REQUIRE(ep.localSizeIds);
  std::array<uint32_t, 3> size{};
  for (size_t i = 0; i < 3; ++i) size[i] = m.def((*ep.localSizeIds)[i]).words.at(3);
  return size;
}

std::string loadFailure(const std::vector<uint32_t>& words) {
  try {
    (void)interpreter::Module::load(words);
  } catch (const interpreter::ModuleError& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("a GLSL compute shader compiles to a Vulkan module with std430 and std140 layouts", "[shader]") {
  const auto words = compiler::compileShaderFile(kShaders + "/layouts.comp");
  REQUIRE(words.size() > 5);
  CHECK(words[1] == 0x00010600u);  // Vulkan 1.3: SPIR-V 1.6
  const auto m = interpreter::Module::load(words);
  CHECK(m.isVulkanShader());
  CHECK(m.entryPoints.empty());  // no OpenCL kernel
  REQUIRE(m.computeShaders.size() == 1);
  CHECK(m.computeShaders[0].name == "main");
  CHECK(m.hasCapability(spv::Capability::Shader));
  // local_size_x_id = 0 (default 1), local_size_y = 2, local_size_z = 1: x is the specialization constant SpecId 0.
  REQUIRE(m.computeShaders[0].localSizeIds);
  CHECK(localSize(m, m.computeShaders[0]) == std::array<uint32_t, 3>{1, 2, 1});
  const auto& x = m.def((*m.computeShaders[0].localSizeIds)[0]);
  CHECK(x.opcode == spv::Op::OpSpecConstant);
  REQUIRE(m.decoration(x.resultId, spv::Decoration::SpecId));
  CHECK(m.decoration(x.resultId, spv::Decoration::SpecId)->literals.at(0) == 0);

  using D = spv::Decoration;
  // std430 (GLSL 4.60 §4.4.5 [external]): vectors of 3 components align as 4; arrays and structures are not rounded up
  // to a vec4. struct Particle { vec3 pos; float mass; mat3 rot; vec2 uv; }:
  const uint32_t particle = structNamed(m, "Particle");
  CHECK(memberDecoration(m, particle, 0, D::Offset) == 0);         // pos: vec3, base alignment 16, 12 bytes
  CHECK(memberDecoration(m, particle, 1, D::Offset) == 12);        // mass: float right after the 12 bytes of pos
  CHECK(memberDecoration(m, particle, 2, D::Offset) == 16);        // rot: mat3 = 3 vec3 columns aligned 16: at 16
  CHECK(memberDecoration(m, particle, 2, D::MatrixStride) == 16);  // each column a vec3 aligned as a vec4
  CHECK(memberDecoration(m, particle, 2, D::ColMajor) == 0);       // column-major by default (decorated, no literal)
  CHECK(memberDecoration(m, particle, 3, D::Offset) == 64);        // uv: vec2 (align 8) after 16 + 3·16 = 64
  // The struct's alignment is its largest member's, 16: 64 + 8 = 72 rounds up to 80, the runtime array's stride.
  const uint32_t particles = structNamed(m, "Particles");
  CHECK(memberArrayStride(m, particles, 0) == 80);
  // struct Sums { float total; vec4 sums[]; }: the vec4 array aligns to 16.
  const uint32_t sums = structNamed(m, "Sums");
  CHECK(memberDecoration(m, sums, 0, D::Offset) == 0);
  CHECK(memberDecoration(m, sums, 1, D::Offset) == 16);
  CHECK(memberArrayStride(m, sums, 1) == 16);

  // std140 (OpenGL 4.6 §7.6.2.2 [external] rules 1–9): arrays and matrix columns round their alignment up to a vec4's.
  const uint32_t params = structNamed(m, "Params");
  CHECK(memberDecoration(m, params, 0, D::Offset) == 0);         // a: float
  CHECK(memberDecoration(m, params, 1, D::Offset) == 16);        // b: vec3 aligned 16 (rule 3)
  CHECK(memberDecoration(m, params, 2, D::Offset) == 32);        // m: mat2, columns vec2 rounded up to 16 (rule 5)
  CHECK(memberDecoration(m, params, 2, D::MatrixStride) == 16);  // so each column takes 16 bytes: ends at 64
  CHECK(memberDecoration(m, params, 3, D::Offset) == 64);        // arr: float[3], stride rounded to 16 (rule 4)
  CHECK(memberArrayStride(m, params, 3) == 16);                  // ends at 64 + 3·16 = 112
  CHECK(memberDecoration(m, params, 4, D::Offset) == 112);       // r: row-major mat2x3 = 3 rows of vec2 (rule 7)
  CHECK(memberDecoration(m, params, 4, D::MatrixStride) == 16);  // each row rounded up to a vec4
  CHECK(memberDecoration(m, params, 4, D::RowMajor) == 0);

  // Push constants default to std430: uint n at 0, float k at 4, vec2 off aligned 8 at 8.
  const uint32_t push = structNamed(m, "Push");
  CHECK(memberDecoration(m, push, 0, D::Offset) == 0);
  CHECK(memberDecoration(m, push, 1, D::Offset) == 4);
  CHECK(memberDecoration(m, push, 2, D::Offset) == 8);

  // The module's own layout tables agree with the decorations (the struct offsets come from Offset).
  CHECK(m.types.at(particle).memberOffsets == std::vector<uint64_t>{0, 12, 16, 64});
}

TEST_CASE("a shader's macros, include folders and target version", "[shader]") {
  compiler::ShaderOptions options;
  options.defines = {{"WIDTH", "16"}, {"WITH_Y", ""}};
  const std::string source = R"(#version 450
#ifdef WITH_Y
layout(local_size_x = WIDTH, local_size_y = WITH_Y) in;
#endif
void main() {}
)";
  auto m = interpreter::Module::load(
      compiler::compileShader(compiler::ShaderLanguage::Glsl, source, "macros.comp", options));
  REQUIRE(m.computeShaders.size() == 1);
  CHECK(localSize(m, m.computeShaders[0]) == std::array<uint32_t, 3>{16, 1, 1});  // WITH_Y defined as 1

  // Vulkan 1.0: SPIR-V 1.0, where a storage buffer is a Uniform block decorated BufferBlock; validated as Vulkan 1.0.
  options = {};
  options.target = compiler::VulkanVersion::V1_0;
  const auto words = compiler::compileShaderFile(kShaders + "/layouts.comp", options);
  CHECK(words[1] == 0x00010000u);
  const auto old = interpreter::Module::load(words);
  CHECK(old.hasDecoration(structNamed(old, "Particles"), spv::Decoration::BufferBlock));

  CHECK(compiler::parseVulkanVersion("1.2") == compiler::VulkanVersion::V1_2);
  CHECK_FALSE(compiler::parseVulkanVersion("1.4"));
  CHECK(compiler::shaderLanguageOf("a/b.hlsl") == compiler::ShaderLanguage::Hlsl);
  CHECK(compiler::shaderLanguageOf("b.glsl") == compiler::ShaderLanguage::Glsl);
  CHECK_FALSE(compiler::shaderLanguageOf("b.spv"));
}

TEST_CASE("GLSL #include finds files beside the shader and in the include folders", "[shader]") {
  const std::string source = R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "sizes.h"
layout(local_size_x = SIZE_X) in;
void main() {}
)";
  compiler::ShaderOptions options;
  CHECK_THROWS_WITH(compiler::compileShader(compiler::ShaderLanguage::Glsl, source, "inc.comp", options),
                    Contains("inc.comp:3: error:") && Contains("sizes.h"));
  options.includeDirs = {kShaders + "/include"};
  const auto m =
      interpreter::Module::load(compiler::compileShader(compiler::ShaderLanguage::Glsl, source, "inc.comp", options));
  REQUIRE(m.computeShaders.size() == 1);
  CHECK(localSize(m, m.computeShaders[0])[0] == 32);  // include/sizes.h defines SIZE_X as 32
}

TEST_CASE("an HLSL compute shader compiles with its entry point", "[shader]") {
  compiler::ShaderOptions options;
  options.entryPoint = "reduce";
  const auto m = interpreter::Module::load(compiler::compileShaderFile(kShaders + "/reduce.hlsl", options));
  REQUIRE(m.computeShaders.size() == 1);
  CHECK(m.computeShaders[0].name == "reduce");
  CHECK(localSize(m, m.computeShaders[0]) == std::array<uint32_t, 3>{64, 1, 1});  // [numthreads(64, 1, 1)]
  // register(u1), t0 and b2 are bindings 1, 0 and 2 of set 0.
  std::vector<uint32_t> bindings;
  for (uint32_t v : m.globalVariables)
    if (const auto* b = m.decoration(v, spv::Decoration::Binding)) bindings.push_back(b->literals.at(0));
  std::sort(bindings.begin(), bindings.end());
  CHECK(bindings == std::vector<uint32_t>{0, 1, 2});
  // The default entry point, main, is not in the file.
  CHECK_THROWS_WITH(compiler::compileShaderFile(kShaders + "/reduce.hlsl"),
                    Contains("reduce.hlsl") && Contains("main"));
}

TEST_CASE("SPIR-V assembly assembles in the Vulkan environment", "[shader]") {
  const auto m = interpreter::Module::load(compiler::compileShaderFile(kShaders + "/double.spvasm"));
  REQUIRE(m.computeShaders.size() == 1);
  REQUIRE(m.computeShaders[0].requiredLocalSize);  // written as LocalSize
  CHECK(*m.computeShaders[0].requiredLocalSize == std::array<uint32_t, 3>{4, 1, 1});
  // An assembly error names the file, line and column (1-based) and the assembler's message.
  CHECK_THROWS_WITH(compiler::compileShader(compiler::ShaderLanguage::SpirvAssembly,
                                            "OpCapability Shader\n%1 = OpTypeNoSuchThing\n", "bad.spvasm"),
                    Contains("bad.spvasm:2:") && Contains("error:") && Contains("OpTypeNoSuchThing"));
}

TEST_CASE("a GLSL syntax error gives the file, the line and glslang's message", "[shader]") {
  const std::string file = kShaders + "/bad_syntax.comp";
  try {
    (void)compiler::compileShaderFile(file);
    FAIL("bad_syntax.comp compiled");
  } catch (const compiler::Error& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains(file + ":6: error:"));  // the line of `undeclared_name + 1.0`
    CHECK_THAT(what, Contains("undeclared_name"));
    CHECK_THAT(what, Contains("undeclared identifier"));
  }
  // The process survives and compiles the next shader.
  CHECK_NOTHROW(compiler::compileShaderFile(kShaders + "/double.spvasm"));
}

TEST_CASE("an invalid Vulkan module is refused with SPIRV-Tools' message and the instruction", "[shader]") {
  const std::string text = slurp(kShaders + "/double.spvasm");
  const auto without = [&](const std::string& line) {
    std::string t = text;
    const auto at = t.find(line);
    REQUIRE(at != std::string::npos);
    t.erase(at, line.size());
    return compiler::compileShader(compiler::ShaderLanguage::SpirvAssembly, t, "edited.spvasm");
  };
  // Vulkan §A.3.1 [external]: a StorageBuffer variable's type is a structure decorated Block.
  const std::string noBlock = loadFailure(without("OpDecorate %Data Block"));
  CHECK_THAT(noBlock, Contains("SPIR-V validation failed (SPIR-V 1.6 (under Vulkan 1.3 semantics))"));
  CHECK_THAT(noBlock, Contains("Block"));
  CHECK_THAT(noBlock, Contains("at word"));
  CHECK_THAT(noBlock, Contains("OpVariable"));
  // Vulkan §A.3.1 [external]: a StorageBuffer variable is decorated with DescriptorSet and Binding.
  const std::string noSet = loadFailure(without("OpDecorate %buf DescriptorSet 0"));
  CHECK_THAT(noSet, Contains("SPIR-V validation failed"));
  CHECK_THAT(noSet, Contains("DescriptorSet"));
  CHECK_THAT(noSet, Contains("OpVariable"));
}

TEST_CASE("a shader with resources clref does not execute is refused with one clear message", "[shader]") {
  const auto words = compiler::compileShaderFile(kShaders + "/images.comp");
  try {
    auto program = host::Program::fromSpirv(host::Device(), words);
    host::Kernel k(program, "main");
    FAIL("a shader with images became a kernel");
  } catch (const interpreter::ModuleError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains("images, samplers and other UniformConstant resources in shaders"));
    CHECK_THAT(what, Contains("OpVariable"));
  }
}

TEST_CASE("shaders compile on several threads at once", "[shader]") {
  // glslang's process state is set up once, whichever thread comes first (shader_source.cpp ensureGlslangProcess).
  std::vector<std::vector<uint32_t>> results(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] { results[i] = compiler::compileShaderFile(kShaders + "/layouts.comp"); });
  for (auto& t : threads) t.join();
  for (const auto& r : results) CHECK(r == results[0]);
  CHECK_FALSE(results[0].empty());
}

TEST_CASE("a shader's arrays sized by specialization constants load", "[shader]") {
  // shared float tile[gl_WorkGroupSize.x]: OpTypeArray's Length is an OpSpecConstantOp, valid in a shader module.
  const auto m = interpreter::Module::load(compiler::compileShaderFile(kShaders + "/spec_sized.comp"));
  size_t specSized = 0;
  for (uint32_t v : m.globalVariables) {
    const auto& pointer = m.type(m.def(v).resultType);
    if (pointer.storage != spv::StorageClass::Workgroup) continue;
    const auto& array = m.type(pointer.element);
    CHECK(array.kind == interpreter::TypeKind::Array);
    CHECK(array.count == 0);  // known once specialized
    CHECK(array.size == 0);
    ++specSized;
  }
  CHECK(specSized == 2);  // tile and three
}
