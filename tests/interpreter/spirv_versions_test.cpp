// SPIR-V 1.5 and 1.6 kernels (OpenCL SPIR-V Environment §2.1 [[_supported_spir_v_versions]]: an OpenCL 3.0 device may
// accept them): loaded, validated in the environment of their version and executed, with what each version adds that
// an OpenCL kernel can use. The expected values are computed here from the instructions' definitions.
#include <catch2/catch.hpp>

#include <cstring>

#include "interpreter/module.hpp"
#include "spvasm.hpp"

namespace clref {
namespace {

using test::assembleText;
using test::range1;
using test::runToVector;

// SPIR-V 1.5 §3.32.11 [external] OpBitcast: a pointer may be bitcast to an integer vector whose total width is the
// pointer's. The same Function pointer as a ulong and as a uint2 must be the same 64 bits (uint2 component 0 holds the
// low half: OpenCL's vectors are little-endian in memory, like its scalars).
const char* kPointerToVector = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "pointer_bits"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uint2 = OpTypeVector %uint 2
       %void = OpTypeVoid
  %fptr_uint = OpTypePointer Function %uint
 %gptr_ulong = OpTypePointer CrossWorkgroup %ulong
 %gptr_uint2 = OpTypePointer CrossWorkgroup %uint2
         %fn = OpTypeFunction %void %gptr_ulong
      %c_one = OpConstant %ulong 1
      %c_nine = OpConstant %uint 9
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_ulong
      %entry = OpLabel
        %var = OpVariable %fptr_uint Function %c_nine
     %asLong = OpBitcast %ulong %var
               OpStore %out %asLong
     %asVec2 = OpBitcast %uint2 %var
      %slot1 = OpInBoundsPtrAccessChain %gptr_ulong %out %c_one
   %slot1vec = OpBitcast %gptr_uint2 %slot1
               OpStore %slot1vec %asVec2
               OpReturn
               OpFunctionEnd
)";

TEST_CASE("SPIR-V 1.5: a pointer bitcast to ulong and to uint2 gives the same bits", "[spvasm][spirv15]") {
  host::Device device;
  auto program = host::Program::fromSpirv(device, assembleText(kPointerToVector, SPV_ENV_UNIVERSAL_1_5));
  CHECK(program->module().version() == 0x00010500);
  host::Kernel kernel(program, "pointer_bits");
  const auto out = runToVector<uint64_t>(kernel, 2);
  CHECK(out[0] != 0);
  CHECK(out[0] == out[1]);
}

// SPIR-V 1.5 §3.32.24 [external] OpGroupNonUniformBroadcast: before 1.5 Id had to be a constant; from 1.5 it may be
// any dynamically uniform value. Each sub-group reads the value of the invocation its work-group id names.
const char* kDynamicBroadcast = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GroupNonUniformBallot
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "broadcast_group_id" %gid %wgid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %wgid BuiltIn WorkgroupId
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong3 = OpTypeVector %ulong 3
       %void = OpTypeVoid
   %in_ulong3 = OpTypePointer Input %ulong3
  %gptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %gptr_uint
   %subgroup = OpConstant %uint 3
      %c_100 = OpConstant %uint 100
        %gid = OpVariable %in_ulong3 Input
       %wgid = OpVariable %in_ulong3 Input
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_uint
      %entry = OpLabel
       %g3 = OpLoad %ulong3 %gid Aligned 32
       %g0 = OpCompositeExtract %ulong %g3 0
       %w3 = OpLoad %ulong3 %wgid Aligned 32
       %w0 = OpCompositeExtract %ulong %w3 0
    %value64 = OpUConvert %uint %g0
      %value = OpIAdd %uint %value64 %c_100
      %index = OpUConvert %uint %w0
     %result = OpGroupNonUniformBroadcast %uint %subgroup %value %index
        %dst = OpInBoundsPtrAccessChain %gptr_uint %out %g0
               OpStore %dst %result
               OpReturn
               OpFunctionEnd
)";

TEST_CASE("SPIR-V 1.5: OpGroupNonUniformBroadcast with a dynamic invocation id", "[spvasm][spirv15]") {
  host::Device device;
  auto program = host::Program::fromSpirv(device, assembleText(kDynamicBroadcast, SPV_ENV_UNIVERSAL_1_5));
  host::Kernel kernel(program, "broadcast_group_id");
  // Four work-groups of 8 work-items: one sub-group each (the device's sub-groups are wider than 8).
  constexpr size_t groups = 4, local = 8;
  auto out = std::make_shared<host::Buffer>(groups * local * 4);
  kernel.setArg(0, out);
  host::NDRange r;
  r.global = {groups * local, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  const host::RunResult result = kernel.run(r);
  INFO((result.fault ? result.fault->format() : std::string()));
  REQUIRE(result.ok);
  const auto values = out->as<uint32_t>();
  for (size_t g = 0; g < groups; ++g)
    for (size_t l = 0; l < local; ++l) CHECK(values[g * local + l] == 100 + g * local + g);
}

// SPIR-V 1.6 §3.31 [external] UniformDecoration with Uniform and UniformId (scope Workgroup), and the Image Operand
// Nontemporal (SPIR-V 1.6 §3.14 [external]) on OpImageRead/OpImageWrite: assertions and hints that change no value.
const char* kUniformAndNontemporal = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability ImageBasic
               OpCapability UniformDecoration
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "uniform_nontemporal" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %sum Uniform
               OpDecorateId %twice UniformId %workgroup
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong3 = OpTypeVector %ulong 3
      %float = OpTypeFloat 32
     %float4 = OpTypeVector %float 4
      %uint2 = OpTypeVector %uint 2
       %void = OpTypeVoid
  %read_img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
 %write_img = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
   %in_ulong3 = OpTypePointer Input %ulong3
  %gptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %gptr_uint %uint %read_img %write_img
  %workgroup = OpConstant %uint 2
      %c_one = OpConstant %uint 1
     %c_zero = OpConstant %uint 0
      %origin = OpConstantComposite %uint2 %c_zero %c_zero
        %gid = OpVariable %in_ulong3 Input
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_uint
      %value = OpFunctionParameter %uint
        %src = OpFunctionParameter %read_img
        %dst = OpFunctionParameter %write_img
      %entry = OpLabel
       %g3 = OpLoad %ulong3 %gid Aligned 32
       %g0 = OpCompositeExtract %ulong %g3 0
        %sum = OpIAdd %uint %value %c_one
      %twice = OpIAdd %uint %sum %sum
       %slot = OpInBoundsPtrAccessChain %gptr_uint %out %g0
               OpStore %slot %twice
      %texel = OpImageRead %float4 %src %origin Nontemporal
               OpImageWrite %dst %origin %texel Nontemporal
               OpReturn
               OpFunctionEnd
)";

TEST_CASE("SPIR-V 1.6: Uniform/UniformId decorations and the Nontemporal image operand", "[spvasm][spirv16]") {
  host::Device device;
  auto program = host::Program::fromSpirv(device, assembleText(kUniformAndNontemporal, SPV_ENV_UNIVERSAL_1_6));
  CHECK(program->module().version() == 0x00010600);
  host::Kernel kernel(program, "uniform_nontemporal");
  images::ImageDesc desc;
  desc.type = images::ImageType::Image2D;
  desc.format = {images::ChannelOrder::RGBA, images::ChannelType::Float};
  desc.width = 1;
  desc.height = 1;
  auto src = std::make_shared<host::Image>(desc);
  auto dst = std::make_shared<host::Image>(desc);
  const float texel[4] = {1.0f, 2.0f, -1.0f, 128.0f};
  src->write({0, 0, 0}, {1, 1, 1}, texel);
  constexpr size_t items = 16;
  auto out = std::make_shared<host::Buffer>(items * 4);
  kernel.setArg(0, out);
  kernel.setArg(1, uint32_t(42));
  kernel.setArg(2, src);
  kernel.setArg(3, dst);
  const host::RunResult r = kernel.run(range1(items));
  INFO((r.fault ? r.fault->format() : std::string()));
  REQUIRE(r.ok);
  for (uint32_t v : out->as<uint32_t>()) CHECK(v == 2 * (42 + 1));
  float back[4] = {};
  dst->read({0, 0, 0}, {1, 1, 1}, back);
  CHECK(std::memcmp(back, texel, sizeof texel) == 0);
}

TEST_CASE("a SPIR-V version after 1.6 is refused with the version in the message", "[spvasm][spirv16]") {
  host::Device device;
  auto words = assembleText(kPointerToVector, SPV_ENV_UNIVERSAL_1_6);
  words[1] = 0x00010700;
  try {
    host::Program::fromSpirv(device, words);
    FAIL("a SPIR-V 1.7 module was accepted");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("1.7"));
  }
}

}  // namespace
}  // namespace clref
