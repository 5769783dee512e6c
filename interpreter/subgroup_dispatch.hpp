// The sub-group dispatch answers for a kernel, shared by the host API's clGetKernelSubGroupInfo (icd/kernel.cpp) and
// a kernel's own OpGetKernelMaxNumSubgroups and OpGetKernelLocalSizeForSubgroupCount (ops_enqueue.cpp), so that
// both give the same values for the same kernel. `maxGroup` is the kernel's largest work-group size
// (maxWorkGroupSize), `subgroupSize` clref's sub-group size (at least 1): sub-groups are consecutive local linear ids,
// subgroupSize each, the last one of a work-group possibly smaller.
#pragma once

#include <cstdint>

namespace clref::interpreter {

// OpenCL 3.0 API §5.9.4 [[kernel-sub-group-info-table]] CL_KERNEL_MAX_NUM_SUB_GROUPS: the sub-groups of the largest
// work-group (SPIR-V 1.1 OpGetKernelMaxNumSubgroups answers the same for a block's invoke function).
constexpr uint64_t maxNumSubgroups(uint64_t maxGroup, uint64_t subgroupSize) {
  return maxGroup / subgroupSize + (maxGroup % subgroupSize != 0);
}

// OpenCL 3.0 API §5.9.4 [[kernel-sub-group-info-table]] CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: the 1D local size
// holding exactly `count` whole sub-groups, 0 when no work-group of the kernel can hold them (SPIR-V 1.1
// OpGetKernelLocalSizeForSubgroupCount answers the same for a block's invoke function).
constexpr uint64_t localSizeForSubgroupCount(uint64_t count, uint64_t maxGroup, uint64_t subgroupSize) {
  return count != 0 && count <= maxGroup / subgroupSize ? count * subgroupSize : 0;
}

}  // namespace clref::interpreter
