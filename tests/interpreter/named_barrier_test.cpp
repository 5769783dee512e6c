// Named barriers (cl_khr_subgroup_named_barrier; interpreter/ops_named_barrier.cpp): hand-written SPIR-V 1.1, since
// no OpenCL C front end emits OpNamedBarrierInitialize or OpMemoryNamedBarrier. Each half of a work-group's sub-groups
// waits at its own named barrier, then reads what another sub-group of its half wrote; expected values are the
// host's. A Subgroup Count the work-group cannot reach, and too few sub-groups arriving, are faults.
#include <catch2/catch.hpp>

#include <cstring>

#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// out[lid] = local[partner] * 1 after the barrier of the work-item's half, partner = (lid + 8) % 16 + half * 16;
// local[lid] = lid * 3 before it. Sub-groups 0 and 1 (lid < 16) use barrier 0, sub-groups 2 and 3 barrier 1; each
// barrier's Subgroup Count is the kernel's `count` argument. With `skip` nonzero, sub-group 3 returns early.
const char* kText = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability NamedBarrier
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "halves" %lidvar
               OpDecorate %lidvar BuiltIn LocalInvocationId
               OpDecorate %lidvar Constant
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
       %void = OpTypeVoid
    %v3ulong = OpTypeVector %ulong 3
     %in_v3 = OpTypePointer Input %v3ulong
    %ulong_8 = OpConstant %ulong 8
   %ulong_16 = OpConstant %ulong 16
   %ulong_24 = OpConstant %ulong 24
   %ulong_32 = OpConstant %ulong 32
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
        %sem = OpConstant %uint 264
  %ulong_0 = OpConstant %ulong 0
        %arr = OpTypeArray %uint %ulong_32
     %wg_arr = OpTypePointer Workgroup %arr
    %wg_uint = OpTypePointer Workgroup %uint
    %cw_uint = OpTypePointer CrossWorkgroup %uint
         %nb = OpTypeNamedBarrier
         %fn = OpTypeFunction %void %cw_uint %uint %uint
     %lidvar = OpVariable %in_v3 Input
      %local = OpVariable %wg_arr Workgroup
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %cw_uint
      %count = OpFunctionParameter %uint
       %skip = OpFunctionParameter %uint
      %entry = OpLabel
        %lv3 = OpLoad %v3ulong %lidvar
        %lid = OpCompositeExtract %ulong %lv3 0
         %b0 = OpNamedBarrierInitialize %nb %count
         %b1 = OpNamedBarrierInitialize %nb %count
        %lid32 = OpUConvert %uint %lid
        %v = OpIMul %uint %lid32 %uint_3
        %slot = OpInBoundsAccessChain %wg_uint %local %lid
               OpStore %slot %v
       %last = OpUGreaterThanEqual %bool %lid %ulong_24
      %doskip = OpINotEqual %bool %skip %uint_0
       %gone = OpLogicalAnd %bool %last %doskip
               OpSelectionMerge %stay None
               OpBranchConditional %gone %ret %stay
        %ret = OpLabel
               OpReturn
       %stay = OpLabel
      %upper = OpUGreaterThanEqual %bool %lid %ulong_16
               OpSelectionMerge %join None
               OpBranchConditional %upper %hi %lo
         %lo = OpLabel
               OpMemoryNamedBarrier %b0 %uint_2 %sem
               OpBranch %join
         %hi = OpLabel
               OpMemoryNamedBarrier %b1 %uint_2 %sem
               OpBranch %join
       %join = OpLabel
       %half = OpSelect %ulong %upper %ulong_16 %ulong_0
         %p1 = OpIAdd %ulong %lid %ulong_8
         %p2 = OpUMod %ulong %p1 %ulong_16
    %partner = OpIAdd %ulong %p2 %half
      %pslot = OpInBoundsAccessChain %wg_uint %local %partner
         %pv = OpLoad %uint %pslot
       %oslot = OpInBoundsPtrAccessChain %cw_uint %out %lid
               OpStore %oslot %pv
               OpReturn
               OpFunctionEnd
)";

interpreter::ExecResult run(uint32_t count, uint32_t skip, std::vector<uint32_t>& out) {
  const auto module = interpreter::Module::load(test::assembleText(kText, SPV_ENV_UNIVERSAL_1_1));
  const auto k = interpreter::lowerKernel(module, "halves", {});
  interpreter::NDRangeSpec range;
  range.global = {32, 1, 1};
  range.local = {32, 1, 1};
  interpreter::ExecConfig config;
  config.subgroupSize = 8;
  std::vector<interpreter::ArgBinding> args(3);
  args[0].base = reinterpret_cast<uint8_t*>(out.data());
  args[0].size = out.size() * 4;
  for (int i = 1; i < 3; ++i) {
    const uint32_t v = i == 1 ? count : skip;
    args[i].value.resize(4);
    std::memcpy(args[i].value.data(), &v, 4);
  }
  return interpreter::execute(*k, args, range, config);
}

}  // namespace

TEST_CASE("named barriers: each half of the work-group's sub-groups waits for its own", "[execution][named-barrier]") {
  std::vector<uint32_t> out(32, 0xFFFFFFFFu);
  const auto r = run(2, 0, out);
  INFO((r.fault ? r.fault->format() : ""));
  REQUIRE_FALSE(r.fault);
  for (uint32_t lid = 0; lid < 32; ++lid) {
    const uint32_t partner = (lid + 8) % 16 + (lid >= 16 ? 16 : 0);
    CHECK(out[lid] == partner * 3);
  }
}

TEST_CASE("named barriers: a count the work-group cannot reach, and too few sub-groups, are faults",
          "[execution][named-barrier]") {
  std::vector<uint32_t> out(32, 0);
  auto r = run(5, 0, out);  // 4 sub-groups of 8
  REQUIRE(r.fault);
  CHECK_THAT(r.fault->message, Contains("Subgroup Count 5") && Contains("4 sub-groups"));
  r = run(0, 0, out);
  REQUIRE(r.fault);
  CHECK_THAT(r.fault->message, Contains("Subgroup Count 0"));
  // Sub-group 3 returns early: barrier 1 waits for 2 sub-groups and only sub-group 2 can come.
  r = run(2, 1, out);
  REQUIRE(r.fault);
  CHECK(r.fault->kind == interpreter::FaultKind::BarrierDivergence);
  CHECK_THAT(r.fault->message, Contains("named barrier 1 waits for 2 sub-groups, 1 wait at it"));
}
