// Running Vulkan compute shaders through the host API (host.hpp Program::fromGlsl, Kernel::resourceArg, dispatch):
// storage and uniform buffers by descriptor set and binding, push constants, built-in variables, the work-group size
// from LocalSize and specialization constants, shared memory with barrier(); expected values computed on the host.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <numeric>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

std::shared_ptr<host::Buffer> floats(const std::vector<float>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(float));
}

}  // namespace

TEST_CASE("a GLSL shader adds two storage buffers by set and binding", "[shader]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 1, binding = 0) buffer C { float c[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  c[i] = a[i] + b[i];
}
)");
  host::Kernel k(program, "main");
  REQUIRE(k.isShader());
  REQUIRE(k.argCount() == 3);
  const size_t n = 64;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = 1.0f / float(i + 1);
  }
  auto c = std::make_shared<host::Buffer>(n * sizeof(float));
  k.setArg(*k.resourceArg(1, 0), c);
  k.setArg(*k.resourceArg(0, 1), floats(b));
  k.setArg(*k.resourceArg(0, 0), floats(a));
  CHECK(k.argInfo(*k.resourceArg(0, 0)).noWrite);
  CHECK_FALSE(k.argInfo(*k.resourceArg(1, 0)).noWrite);
  CHECK(k.workgroupSize() == std::array<uint32_t, 3>{8, 1, 1});
  const auto result = k.run(k.dispatch({8, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  for (size_t i = 0; i < n; ++i) CHECK(c->as<float>()[i] == a[i] + b[i]);
}

TEST_CASE("a shader reduces in shared memory with barrier(), push constants and a uniform buffer", "[shader]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int bias = 3;
layout(std140, set = 0, binding = 0) uniform Params { float scale; vec3 shift; } params;
layout(std430, set = 0, binding = 1) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 2) buffer Out { float scaled; int sums[]; } out_;
layout(push_constant) uniform Push { uint count; } pc;
shared int partial[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  partial[l] = g < pc.count ? values[g] + bias : 0;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0) out_.sums[gl_WorkGroupID.x] = partial[0];
}
)");
  uint32_t local = 16;
  program->setSpecConstant(0, &local, 4);
  host::Kernel k(program, "main");
  REQUIRE(k.workgroupSize() == std::array<uint32_t, 3>{16, 1, 1});
  REQUIRE(k.pushConstantArg());
  CHECK(*k.pushConstantArg() == 3);
  const uint32_t groups = 5, count = 70;
  std::vector<int> values(groups * local);
  std::iota(values.begin(), values.end(), -20);
  auto in = std::make_shared<host::Buffer>(values.data(), values.size() * 4);
  auto out = std::make_shared<host::Buffer>(64);
  float params[8] = {2.0f, 0, 0, 0, 1, 2, 3, 0};
  k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(params, sizeof params));
  k.setArg(*k.resourceArg(0, 1), in);
  k.setArg(*k.resourceArg(0, 2), out);
  k.setArg(*k.pushConstantArg(), std::make_shared<host::Buffer>(&count, 4));
  const auto result = k.run(k.dispatch({groups, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  for (uint32_t gr = 0; gr < groups; ++gr) {
    int expect = 0;
    for (uint32_t l = 0; l < local; ++l) expect += gr * local + l < count ? values[gr * local + l] + 3 : 0;
    CHECK(out->as<int>()[gr + 1] == expect);
  }
}

namespace {

// out[i] = in[i] · 0.5 for 4 invocations, with the float-controls execution mode `mode` for 32-bit floats.
std::string halvingShader(const std::string& mode) {
  return R"(
               OpCapability Shader
               OpCapability )" + mode + R"(
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %in %out
               OpExecutionMode %main LocalSize 4 1 1
               OpExecutionMode %main )" + mode + R"( 32
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
  %ptr_in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in_v3 Input
        %rta = OpTypeRuntimeArray %float
      %block = OpTypeStruct %rta
  %ptr_block = OpTypePointer StorageBuffer %block
         %in = OpVariable %ptr_block StorageBuffer
        %out = OpVariable %ptr_block StorageBuffer
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
       %half = OpConstant %float 0.5
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %src_p = OpAccessChain %ptr_float %in %uint_0 %i
        %src = OpLoad %float %src_p
        %res = OpFMul %float %src %half
      %dst_p = OpAccessChain %ptr_float %out %uint_0 %i
               OpStore %dst_p %res
               OpReturn
               OpFunctionEnd
)";
}

std::vector<float> halve(const host::Device& device, const std::string& mode, const std::vector<float>& in) {
  auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, halvingShader(mode));
  host::Kernel k(program, "main");
  auto out = std::make_shared<host::Buffer>(in.size() * sizeof(float));
  k.setArg(*k.resourceArg(0, 0), floats(in));
  k.setArg(*k.resourceArg(0, 1), out);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  REQUIRE(result.ok);
  return {out->as<float>().begin(), out->as<float>().end()};
}

}  // namespace

TEST_CASE("a shader's DenormFlushToZero and DenormPreserve modes decide over the device's denormals", "[shader]") {
  // 2^-126 · 0.5 = 2^-127 is subnormal; 2^-125 · 0.5 = 2^-126 is the smallest normal.
  const std::vector<float> in{0x1p-126f, -0x1p-126f, 0x1p-125f, 3.0f};
  host::Device preserving;
  const auto flushed = halve(preserving, "DenormFlushToZero", in);
  CHECK(std::bit_cast<uint32_t>(flushed[0]) == 0x00000000u);
  CHECK(std::bit_cast<uint32_t>(flushed[1]) == 0x80000000u);  // the sign of the flushed result stays
  CHECK(flushed[2] == 0x1p-126f);
  CHECK(flushed[3] == 1.5f);
  host::DeviceConfig flushing;
  flushing.denormFloat = numerics::Denorm::Flush;
  const auto kept = halve(host::Device(flushing), "DenormPreserve", in);
  CHECK(kept[0] == 0x1p-127f);
  CHECK(kept[1] == -0x1p-127f);
}

TEST_CASE("a shader's uaddCarry, usubBorrow, umulExtended and imulExtended give both halves", "[shader]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Io { uvec2 in_[]; };
layout(set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
  for (uint i = 0; i < 6u; ++i) {
    uint a = in_[i].x, b = in_[i].y, carry, borrow, uhi, ulo;
    int shi, slo;
    r[8 * i + 0] = uaddCarry(a, b, carry);
    r[8 * i + 1] = carry;
    r[8 * i + 2] = usubBorrow(a, b, borrow);
    r[8 * i + 3] = borrow;
    umulExtended(a, b, uhi, ulo);
    r[8 * i + 4] = ulo;
    r[8 * i + 5] = uhi;
    imulExtended(int(a), int(b), shi, slo);
    r[8 * i + 6] = uint(slo);
    r[8 * i + 7] = uint(shi);
  }
}
)");
  host::Kernel k(program, "main");
  const std::vector<uint32_t> pairs{0, 0, 1, 2, 0xffffffffu, 1, 0x80000000u, 0x80000000u, 0xfffffffeu, 0xffffffffu,
                                    123456789u, 987654321u};
  auto in = std::make_shared<host::Buffer>(pairs.data(), pairs.size() * 4);
  auto out = std::make_shared<host::Buffer>(6 * 8 * 4);
  k.setArg(*k.resourceArg(0, 0), in);
  k.setArg(*k.resourceArg(0, 1), out);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  REQUIRE(result.ok);
  for (size_t i = 0; i < 6; ++i) {
    const uint32_t a = pairs[2 * i], b = pairs[2 * i + 1];
    const uint64_t sum = uint64_t(a) + b, product = uint64_t(a) * b;
    const int64_t sproduct = int64_t(int32_t(a)) * int32_t(b);
    const auto r = out->as<uint32_t>().subspan(8 * i, 8);
    INFO("a = " << a << ", b = " << b);
    CHECK(r[0] == uint32_t(sum));
    CHECK(r[1] == uint32_t(sum >> 32));
    CHECK(r[2] == uint32_t(a - b));
    CHECK(r[3] == (b > a ? 1u : 0u));
    CHECK(r[4] == uint32_t(product));
    CHECK(r[5] == uint32_t(product >> 32));
    CHECK(r[6] == uint32_t(uint64_t(sproduct)));
    CHECK(r[7] == uint32_t(uint64_t(sproduct) >> 32));
  }
}

TEST_CASE("a shader may branch on OpUndef: the choice undef_value picks the path, with a warning", "[shader]") {
  // out[0] = 1 on the true path, 2 on the false one. The OpUndef bool's register holds the choice's bits: zero
  // (false) by default, the 0xA5 pattern (true) with undef_value=pattern. An OpenCL kernel faults instead.
  const std::string text = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %rta = OpTypeRuntimeArray %uint
      %block = OpTypeStruct %rta
  %ptr_block = OpTypePointer StorageBuffer %block
        %out = OpVariable %ptr_block StorageBuffer
   %ptr_uint = OpTypePointer StorageBuffer %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
      %undef = OpUndef %bool
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %ptr_uint %out %uint_0 %uint_0
               OpSelectionMerge %merge None
               OpBranchConditional %undef %yes %no
        %yes = OpLabel
               OpStore %p %uint_1
               OpBranch %merge
         %no = OpLabel
               OpStore %p %uint_2
               OpBranch %merge
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
)";
  for (const bool pattern : {false, true}) {
    host::DeviceConfig config;
    if (pattern) config.choices.set("undef_value=pattern");
    auto program = host::Program::fromShader(host::Device(config), compiler::ShaderLanguage::SpirvAssembly, text);
    host::Kernel k(program, "main");
    auto out = std::make_shared<host::Buffer>(4);
    k.setArg(*k.resourceArg(0, 0), out);
    const auto result = k.run(k.dispatch({1, 1, 1}));
    REQUIRE(result.ok);
    CHECK(out->as<uint32_t>()[0] == (pattern ? 1u : 2u));
    REQUIRE_FALSE(result.warnings.empty());
    CHECK_THAT(result.warnings[0].message, Contains("branch condition depends on an undefined value (OpUndef"));
    CHECK_THAT(result.warnings[0].message, Contains("choice undef_value"));
  }
}
