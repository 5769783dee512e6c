// Values of the BuiltIn variables for one work-item.
#include <cstring>

#include "interpreter/executor.hpp"

namespace clref::interpreter {

// OpenCL SPIR-V Environment §2.9 [[_built_in_variables]] BuiltIn variables; values as OpenCL C 3.0
// §6.15.1 [[work-item-functions]] defines the work-item functions.
namespace {
// A uint4 with bits [from, to) set (bits past 127 dropped): the sub-group masks.
uint32_t putMask(uint8_t* out, uint64_t from, uint64_t to) {
  uint32_t words[4] = {0, 0, 0, 0};
  for (uint64_t k = from; k < to && k < 128; ++k) words[k / 32] |= uint32_t(1) << (k % 32);
  std::memcpy(out, words, sizeof words);
  return sizeof words;
}
}  // namespace

uint32_t builtinValue(const WorkItem& wi, spv::BuiltIn b, uint8_t* out, uint32_t sizeBytes) {
  const Launch& L = *wi.launch;
  auto put3 = [&](const std::array<uint64_t, 3>& v) {
    for (int i = 0; i < 3; ++i) std::memcpy(out + i * sizeBytes, &v[i], sizeBytes);  // little-endian truncation
    return 3 * sizeBytes;
  };
  auto put1 = [&](uint64_t v, uint32_t bytes) {
    std::memcpy(out, &v, bytes);
    return bytes;
  };
  const uint64_t localLinear = wi.localLinearId;
  const uint64_t wgSize = wi.localSize[0] * wi.localSize[1] * wi.localSize[2];
  const uint64_t enqSize = L.enqueuedLocal[0] * L.enqueuedLocal[1] * L.enqueuedLocal[2];
  const uint64_t sg = L.subgroupSize;
  // OpenCL C 3.0 §6.15.1 [[work-item-functions]] get_max_sub_group_size: "the maximum size of a sub-group within the
  // dispatch", invariant for its dimensions: the device's size, or the enqueued work-group size when that is smaller
  // (a remainder group is never larger).
  const uint64_t maxSg = std::min(sg, enqSize);
  // Vulkan §15.8 [external] Built-In Variables, SubgroupSize (a shader): the same in every subgroup, the partial last
  // one included (shaders.adoc [[shaders-varying-subgroup-size]]: "equal to subgroupSize" unless varying sizes are
  // allowed, which clref does not do); the Ge and Gt masks run up to it.
  const bool vulkan = L.vulkanSubgroups;
  const uint64_t maskEnd = vulkan ? sg : maxSg;
  switch (b) {
    case spv::BuiltIn::GlobalInvocationId: return put3(wi.globalId);
    case spv::BuiltIn::LocalInvocationId: return put3(wi.localId);
    case spv::BuiltIn::WorkgroupId: return put3(wi.groupId);
    case spv::BuiltIn::NumWorkgroups: return put3(L.numGroups);
    case spv::BuiltIn::GlobalSize: return put3(L.globalSize);
    case spv::BuiltIn::WorkgroupSize: return put3(wi.localSize);
    case spv::BuiltIn::EnqueuedWorkgroupSize: return put3(L.enqueuedLocal);
    case spv::BuiltIn::GlobalOffset: return put3(L.globalOffset);
    case spv::BuiltIn::GlobalLinearId: {
      // get_global_linear_id: ((gz − oz)·Gy + (gy − oy))·Gx + (gx − ox)
      const auto& g = wi.globalId;
      const auto& o = L.globalOffset;
      const auto& G = L.globalSize;
      return put1(((g[2] - o[2]) * G[1] + (g[1] - o[1])) * G[0] + (g[0] - o[0]), sizeBytes);
    }
    case spv::BuiltIn::LocalInvocationIndex: return put1(localLinear, sizeBytes);
    case spv::BuiltIn::WorkDim: return put1(L.dims, 4);
    // Sub-groups: consecutive local linear ids, subgroupSize each (the last may be smaller).
    case spv::BuiltIn::SubgroupMaxSize: return put1(maxSg, 4);
    case spv::BuiltIn::SubgroupSize: {
      const uint64_t id = localLinear / sg;
      return put1(vulkan ? sg : std::min(sg, wgSize - id * sg), 4);
    }
    case spv::BuiltIn::NumSubgroups: return put1((wgSize + sg - 1) / sg, 4);
    case spv::BuiltIn::NumEnqueuedSubgroups: return put1((enqSize + sg - 1) / sg, 4);
    case spv::BuiltIn::SubgroupId: return put1(localLinear / sg, 4);
    case spv::BuiltIn::SubgroupLocalInvocationId: return put1(localLinear % sg, 4);
    // cl_khr_subgroup_ballot's masks (OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]] get_sub_group_eq_mask and
    // the rest): a uint4, bit k for sub-group local id k; the ge and gt masks stop at the maximum sub-group size.
    case spv::BuiltIn::SubgroupEqMask: return putMask(out, localLinear % sg, localLinear % sg + 1);
    case spv::BuiltIn::SubgroupGeMask: return putMask(out, localLinear % sg, maskEnd);
    case spv::BuiltIn::SubgroupGtMask: return putMask(out, localLinear % sg + 1, maskEnd);
    case spv::BuiltIn::SubgroupLeMask: return putMask(out, 0, localLinear % sg + 1);
    case spv::BuiltIn::SubgroupLtMask: return putMask(out, 0, localLinear % sg);
    default: return put1(0, sizeBytes);
  }
}

}  // namespace clref::interpreter
