// `clref info`, `clref dis` and `clref run` on Vulkan compute shaders (cli/shader_interface.cpp, cli/main.cpp): the
// layouts `info` prints are the ones the std140 and std430 rules give, computed here by hand.
#include <catch2/catch.hpp>

#include "clref_run.hpp"

using Catch::Matchers::Contains;
using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::slurp;
using clref::cli::test::TempDir;

namespace {

const std::string kShaders = CLREF_SHADER_DIR;

}  // namespace

TEST_CASE("clref info shows a GLSL shader's local size, specialization constants and resource layouts",
          "[cli][shader]") {
  const auto r = runClref("info '" + kShaders + "/layouts.comp'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string& o = r.out;
  CHECK(has(o, "SPIR-V version: 1.6\n"));  // the default target, Vulkan 1.3
  CHECK(has(o, "addressing model: Logical\n"));
  CHECK(has(o, "memory model: GLSL450"));
  CHECK(has(o, "validation: passes\n"));
  CHECK(has(o, "capabilities: Shader\n"));
  CHECK(has(o, "extended instruction sets: GLSL.std.450"));
  // layout(constant_id = N) const …: SpecId, type, default, name.
  CHECK(has(o, "specialization constants: 4\n"));  // local_size_x_id = 0 and the three declared
  CHECK(has(o, "  SpecId 1: float 2.5 scale\n"));
  CHECK(has(o, "  SpecId 2: int -7 count\n"));
  CHECK(has(o, "  SpecId 3: bool true flag\n"));
  CHECK(has(o, "compute shaders: 1\n  main\n"));
  // local_size_x_id = 0 (default 1), local_size_y = 2, local_size_z = 1.
  CHECK(has(o, "    local size: 1 (SpecId 0) 2 1"));

  // std430 (GLSL 4.60 §4.4.5 [external]) storage buffer of struct Particle { vec3 pos; float mass; mat3 rot; vec2 uv;
  // }.
  CHECK(has(o,
            "      set 0 binding 0: StorageBuffer struct Particles particles (0 bytes and a runtime array, 80 bytes "
            "per element)\n"));
  CHECK(has(o, "        p: struct Particle[] offset 0 ArrayStride 80"));    // 72 bytes rounded up to the alignment, 16
  CHECK(has(o, "          pos: vec3 offset 0"));                            // base alignment 16
  CHECK(has(o, "          mass: float offset 12"));                         // right after the 12 bytes of pos
  CHECK(has(o, "          rot: mat3 offset 16 MatrixStride 16 ColMajor"));  // vec3 columns aligned 16
  CHECK(has(o, "          uv: vec2 offset 64"));                            // 16 + 3 columns · 16
  // total ends at 4, the runtime array starts at 16.
  CHECK(has(o,
            "      set 0 binding 1: StorageBuffer struct Sums sums (16 bytes and a runtime array, 16 bytes per "
            "element)\n"));
  CHECK(has(o, "        total: float offset 0"));
  CHECK(has(o, "        sums: vec4[] offset 16 ArrayStride 16"));  // vec4 aligned 16
  // readonly / writeonly: NonWritable / NonReadable on the buffer's members or on the variable.
  CHECK(has(o, "NonWritable"));
  CHECK(has(o, "NonReadable"));

  // std140 (OpenGL 4.6 §7.6.2.2 [external]) uniform block.
  CHECK(has(o, "      set 1 binding 0: Uniform struct Params params (160 bytes)"));  // r ends at 112 + 3·16
  CHECK(has(o, "        a: float offset 0\n"));
  CHECK(has(o, "        b: vec3 offset 16\n"));                              // vec3 aligned 16 (rule 3)
  CHECK(has(o, "        m: mat2 offset 32 MatrixStride 16 ColMajor\n"));     // vec2 columns rounded up to 16 (rule 5)
  CHECK(has(o, "        arr: float[3] offset 64 ArrayStride 16\n"));         // array stride rounded up to 16 (rule 4)
  CHECK(has(o, "        r: mat2x3 offset 112 MatrixStride 16 RowMajor\n"));  // 3 rows of vec2, each 16 (rule 7)

  // Push constants (std430): uint n at 0, float k at 4, vec2 off at 8: 16 bytes.
  CHECK(has(o, "    push constants: struct Push pc (16 bytes)\n"));
  CHECK(has(o, "      n: uint offset 0\n"));
  CHECK(has(o, "      k: float offset 4\n"));
  CHECK(has(o, "      off: vec2 offset 8\n"));
  // shared float tile[64]; shared uint counter;: 256 + 4 bytes.
  CHECK(has(o, "    workgroup: tile float[64] (256 bytes)\n"));
  CHECK(has(o, "    workgroup: counter uint (4 bytes)\n"));
  CHECK(has(o, "    workgroup memory: 260 bytes\n"));
}

TEST_CASE("clref info and dis take HLSL and SPIR-V assembly shaders", "[cli][shader]") {
  const auto hlsl = runClref("info '" + kShaders + "/reduce.hlsl' --entry reduce");
  INFO(hlsl.out << hlsl.err);
  REQUIRE(hlsl.status == 0);
  // [numthreads(64, 1, 1)], which glslang writes as LocalSizeId for SPIR-V 1.6.
  CHECK(has(hlsl.out, "compute shaders: 1\n  reduce\n    local size: 64 1 1 (LocalSizeId)\n"));
  CHECK(has(hlsl.out, "set 0 binding 1: StorageBuffer"));
  CHECK(has(hlsl.out, "set 0 binding 2: Uniform"));

  const auto asmInfo = runClref("info '" + kShaders + "/double.spvasm' --vulkan 1.2");
  INFO(asmInfo.out << asmInfo.err);
  REQUIRE(asmInfo.status == 0);
  CHECK(has(asmInfo.out, "SPIR-V version: 1.5\n"));  // Vulkan 1.2 takes SPIR-V 1.5
  CHECK(has(asmInfo.out, "    local size: 4 1 1 (LocalSize)\n"));
  CHECK(has(asmInfo.out,
            "      set 0 binding 3: StorageBuffer struct Data data (0 bytes and a runtime array, 4 bytes per "
            "element)\n"));
  CHECK(has(asmInfo.out, "        member 0: float[] offset 0 ArrayStride 4\n"));
  CHECK(has(asmInfo.out, "    workgroup memory: 0 bytes\n"));

  const auto dis = runClref("dis '" + kShaders + "/layouts.comp'");
  REQUIRE(dis.status == 0);
  CHECK(has(dis.out, "OpEntryPoint GLCompute"));
  CHECK(has(dis.out, "OpMemberDecorate %Particle 2 MatrixStride 16"));
  CHECK(has(dis.out, "OpDecorate %tile") == false);  // workgroup memory has no layout decorations
}

TEST_CASE("clref info on a shader that does not compile or validate", "[cli][shader]") {
  const auto bad = runClref("info '" + kShaders + "/bad_syntax.comp'");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains(kShaders + "/bad_syntax.comp:6: error:") && Contains("undeclared_name"));
  CHECK(bad.out.empty());

  TempDir dir;
  std::string text = slurp(kShaders + "/double.spvasm");
  const std::string block = "OpDecorate %Data Block";
  text.erase(text.find(block), block.size());
  const auto file = dir.write("noblock.spvasm", text);
  const auto r = runClref(dir, "info '" + file.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);  // what it declares is still shown, with the validator's refusal
  CHECK(has(r.out, "validation: fails: SPIR-V validation failed (SPIR-V 1.6 (under Vulkan 1.3 semantics))"));
  CHECK(has(r.out, "OpVariable"));
  CHECK(has(r.out, "compute shaders: 1\n"));

  const auto version = runClref("info '" + kShaders + "/layouts.comp' --vulkan 1.4");
  CHECK(version.status == 2);
  CHECK(has(version.err, "--vulkan: 1.4 is not 1.0, 1.1, 1.2 or 1.3"));
}

TEST_CASE("clref info passes -D, -I and --vulkan to the shader compiler", "[cli][shader]") {
  TempDir dir;
  const auto file = dir.write("sized.comp", R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include <sizes.h>
layout(local_size_x = SIZE_X, local_size_y = WIDTH) in;
void main() {}
)");
  const auto r = runClref(dir, "info '" + file.string() + "' -D WIDTH=3 -I '" + kShaders + "/include' --vulkan 1.0");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(has(r.out, "SPIR-V version: 1.0\n"));  // Vulkan 1.0 takes SPIR-V 1.0
  // SIZE_X from include/sizes.h, WIDTH from -D; glslang also declares gl_WorkGroupSize for SPIR-V 1.0, a constant
  // decorated BuiltIn WorkgroupSize, which takes the place of the LocalSize execution mode.
  CHECK(has(r.out, "    local size: 32 3 1 (the WorkgroupSize constant %"));
  const auto missing = runClref(dir, "info '" + file.string() + "' -D WIDTH=3");
  CHECK(missing.status == 2);
  CHECK(has(missing.err, file.string() + ":3: error:"));  // the #include line: sizes.h is in no folder searched
}

TEST_CASE("clref info names a shader's images, samplers and descriptor arrays", "[cli][shader]") {
  const auto r = runClref("info '" + kShaders + "/images.comp'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  // The GLSL type, the storage image's format, and readonly / writeonly as NonWritable / NonReadable.
  CHECK(has(r.out, "      set 2 binding 0: UniformConstant image2D (Rgba8) src NonWritable\n"));
  CHECK(has(r.out, "      set 2 binding 1: UniformConstant image2D (R32f) dst NonReadable\n"));
  CHECK(has(r.out, "      set 2 binding 2: UniformConstant sampler2D tex\n"));  // a combined image sampler
  CHECK(has(r.out, "      set 2 binding 3: UniformConstant texture2D plain\n"));
  CHECK(has(r.out, "      set 2 binding 4: UniformConstant sampler nearest\n"));
  // blocks[4]: four descriptors of one binding, each a block of a runtime array of uint.
  CHECK(has(r.out,
            "      set 3 binding 0: StorageBuffer struct Blocks[4] blocks (each 0 bytes and a runtime array, "
            "4 bytes per element)\n        v: uint[] offset 0 ArrayStride 4\n"));
  CHECK(has(r.out, "    resources: 6\n"));
}

TEST_CASE("clref info on workgroup arrays sized by specialization constants", "[cli][shader]") {
  const auto r = runClref("info '" + kShaders + "/spec_sized.comp'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(has(r.out, "validation: passes\n"));
  CHECK(has(r.out, "  SpecId 4: uint 1\n  SpecId 5: int 3 N\n"));
  CHECK(has(r.out, "    local size: 1 (SpecId 4) 1 1 (LocalSizeId)\n"));
  CHECK(has(r.out, "    workgroup: tile float[specialization constant] (size set by a specialization constant)\n"));
  CHECK(has(r.out, "    workgroup: three vec3[specialization constant] (size set by a specialization constant)\n"));
  CHECK(has(r.out, "    workgroup memory: 0 bytes and the arrays sized by specialization constants\n"));
}

TEST_CASE("clref info on a shader with PhysicalStorageBuffer64 device addresses", "[cli][shader]") {
  const auto r = runClref("info '" CLREF_GOLDEN_DIR "/shaders/buffer_reference_list.comp'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(has(r.out, "addressing model: PhysicalStorageBuffer64\n"));
  CHECK(has(r.out, "capabilities: Shader Int64 PhysicalStorageBufferAddresses\n"));
  CHECK(has(r.out, "      head: struct Node pointer (%Node) offset 0\n      out0: struct Word pointer (%Word) offset 8\n"));
}
