// The SubgroupDispatch capability (OpenCL SPIR-V Environment §3.2 [[required-capabilities-1.1]]; ops_enqueue.cpp):
// hand-written SPIR-V 1.1, since no OpenCL C front end emits OpGetKernelMaxNumSubgroups or
// OpGetKernelLocalSizeForSubgroupCount. Their values are the host's CL_KERNEL_MAX_NUM_SUB_GROUPS and
// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT (OpenCL 3.0 API §5.9.4 [[kernel-sub-group-info-table]]), computed here
// from the launch's sub-group size and largest work-group size. The execution mode SubgroupSize runs when it is the
// launch's sub-group size and is refused otherwise; SubgroupsPerWorkgroup is refused at lowering.
#include <catch2/catch.hpp>

#include <cstring>

#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// out[0] = OpGetKernelMaxNumSubgroups of the block %invoke; out[1 + i] = OpGetKernelLocalSizeForSubgroupCount of it
// for the sub-group count counts[i] (the kernel's second argument, a pointer to 4 counts). `modes` is inserted after
// the entry point (execution modes of %k).
std::string text(const std::string& modes) {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GenericPointer
               OpCapability DeviceEnqueue
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "dispatch"
)" + modes +
         R"(
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_8 = OpConstant %uint 8
   %ulong_0 = OpConstant %ulong 0
   %ulong_1 = OpConstant %ulong 1
   %ulong_2 = OpConstant %ulong 2
   %ulong_3 = OpConstant %ulong 3
   %ulong_4 = OpConstant %ulong 4
    %literal = OpTypeStruct %uint %uint
   %fn_lit = OpTypePointer Function %literal
   %gen_lit = OpTypePointer Generic %literal
   %fn_uint = OpTypePointer Function %uint
    %cw_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %cw_uint %cw_uint
   %block_fn = OpTypeFunction %void %gen_lit
     %invoke = OpFunction %void None %block_fn
       %self = OpFunctionParameter %gen_lit
    %b_entry = OpLabel
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %cw_uint
     %counts = OpFunctionParameter %cw_uint
      %entry = OpLabel
        %blk = OpVariable %fn_lit Function
      %size = OpInBoundsAccessChain %fn_uint %blk %uint_0
               OpStore %size %uint_8
     %align = OpInBoundsAccessChain %fn_uint %blk %uint_1
               OpStore %align %uint_8
      %param = OpPtrCastToGeneric %gen_lit %blk
        %max = OpGetKernelMaxNumSubgroups %uint %invoke %param %uint_8 %uint_8
               OpStore %out %max
        %c0p = OpInBoundsPtrAccessChain %cw_uint %counts %ulong_0
         %c0 = OpLoad %uint %c0p
         %l0 = OpGetKernelLocalSizeForSubgroupCount %uint %c0 %invoke %param %uint_8 %uint_8
         %o1 = OpInBoundsPtrAccessChain %cw_uint %out %ulong_1
               OpStore %o1 %l0
        %c1p = OpInBoundsPtrAccessChain %cw_uint %counts %ulong_1
         %c1 = OpLoad %uint %c1p
         %l1 = OpGetKernelLocalSizeForSubgroupCount %uint %c1 %invoke %param %uint_8 %uint_8
         %o2 = OpInBoundsPtrAccessChain %cw_uint %out %ulong_2
               OpStore %o2 %l1
        %c2p = OpInBoundsPtrAccessChain %cw_uint %counts %ulong_2
         %c2 = OpLoad %uint %c2p
         %l2 = OpGetKernelLocalSizeForSubgroupCount %uint %c2 %invoke %param %uint_8 %uint_8
         %o3 = OpInBoundsPtrAccessChain %cw_uint %out %ulong_3
               OpStore %o3 %l2
        %c3p = OpInBoundsPtrAccessChain %cw_uint %counts %ulong_3
         %c3 = OpLoad %uint %c3p
         %l3 = OpGetKernelLocalSizeForSubgroupCount %uint %c3 %invoke %param %uint_8 %uint_8
         %o4 = OpInBoundsPtrAccessChain %cw_uint %out %ulong_4
               OpStore %o4 %l3
               OpReturn
               OpFunctionEnd
)";
}

interpreter::ExecResult run(const std::string& modes, uint32_t subgroupSize, uint64_t maxGroup,
                            std::vector<uint32_t> counts, std::vector<uint32_t>& out) {
  const auto module = interpreter::Module::load(test::assembleText(text(modes), SPV_ENV_UNIVERSAL_1_1));
  const auto k = interpreter::lowerKernel(module, "dispatch", {});
  interpreter::NDRangeSpec range;
  range.global = {1, 1, 1};
  range.local = {1, 1, 1};
  interpreter::ExecConfig config;
  config.subgroupSize = subgroupSize;
  config.deviceMaxWorkGroupSize = maxGroup;
  std::vector<interpreter::ArgBinding> args(2);
  args[0].base = reinterpret_cast<uint8_t*>(out.data());
  args[0].size = out.size() * 4;
  args[1].base = reinterpret_cast<uint8_t*>(counts.data());
  args[1].size = counts.size() * 4;
  return interpreter::execute(*k, args, range, config);
}

}  // namespace

TEST_CASE("SubgroupDispatch: the most sub-groups and the local size for a sub-group count", "[execution][enqueue]") {
  // The block's invoke function is tiny, so its largest work-group is the device's (maxWorkGroupSize).
  for (const auto& [sg, maxGroup] : {std::pair<uint32_t, uint64_t>{32, 1024}, {8, 100}, {16, 16}}) {
    INFO("sub-group size " << sg << ", largest work-group " << maxGroup);
    // CL_KERNEL_MAX_NUM_SUB_GROUPS: the largest work-group's sub-groups, the last one possibly partial.
    const uint32_t maxNum = uint32_t((maxGroup + sg - 1) / sg);
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: count whole sub-groups while they fit a work-group, else 0.
    const uint32_t whole = uint32_t(maxGroup / sg);
    std::vector<uint32_t> out(5, 0xFFFFFFFFu);
    const auto r = run("", sg, maxGroup, {1, 3, whole, whole + 1}, out);
    INFO((r.fault ? r.fault->format() : ""));
    REQUIRE_FALSE(r.fault);
    CHECK(out[0] == maxNum);
    CHECK(out[1] == sg);
    CHECK(out[2] == (3 <= whole ? 3 * sg : 0));
    CHECK(out[3] == whole * sg);
    CHECK(out[4] == 0);
  }
  // 100 work-items in sub-groups of 8: 13 sub-groups, the last of 4; 12 whole ones fit.
  std::vector<uint32_t> out(5, 0);
  REQUIRE_FALSE(run("", 8, 100, {0, 12, 13, 2}, out).fault);
  CHECK(out == std::vector<uint32_t>{13, 0, 96, 0, 16});
}

TEST_CASE("SubgroupDispatch: SubgroupSize runs at the launch's sub-group size only", "[execution][enqueue]") {
  std::vector<uint32_t> out(5, 0);
  const std::string mode = "OpExecutionMode %k SubgroupSize 16\n";
  REQUIRE_FALSE(run(mode, 16, 1024, {1, 1, 1, 1}, out).fault);
  CHECK(out[1] == 16);
  CHECK_THROWS_WITH(run(mode, 32, 1024, {1, 1, 1, 1}, out),
                    Contains("SubgroupSize 16") && Contains("sub-group size is 32"));
}

TEST_CASE("SubgroupDispatch: SubgroupsPerWorkgroup is refused at lowering", "[execution][enqueue]") {
  std::vector<uint32_t> out(5, 0);
  CHECK_THROWS_WITH(run("OpExecutionMode %k SubgroupsPerWorkgroup 2\n", 32, 1024, {1, 1, 1, 1}, out),
                    Contains("unsupported execution mode SubgroupsPerWorkgroup"));
}
