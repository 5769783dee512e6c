// The values of the opaque types a kernel's registers hold as handles (images, samplers, pipes, named barriers): what
// the executor resolves, and what an observer prints (observer.hpp).
#pragma once
#include <cstdint>

namespace clref::interpreter {

// Image and sampler values (OpTypeImage, OpTypeSampler; 4 or 8 bytes like a pointer, so that -O0 code can keep them
// in private variables) are handles, never host addresses: a 32-bit tag in the high half-word and the index into
// the launch's image or sampler table in the low half-word, zero-extended to the pointer width. An image operand
// whose value is not such a handle with an index inside the table (an undefined value, the uninitialised pattern,
// a corrupted register) faults "not an image" and nothing is dereferenced. Image handle i is kernel image argument
// i (LoweredKernel::imageParams); sampler handle i is sampler argument i (LoweredKernel::samplerParams), then the
// kernel's OpConstantSampler values (LoweredKernel::constantSamplers). A sampled image (OpTypeSampledImage) is the
// pair (image handle, sampler handle), two pointer widths.
constexpr uint32_t kImageHandleTag = 0x494D0000u;    // "IM"
constexpr uint32_t kSamplerHandleTag = 0x534D0000u;  // "SM"
// Pipe values (OpTypePipe) are handles too: kPipeHandleTag | index into the launch's pipe table (kernel pipe
// argument i is LoweredKernel::pipeParams[i]; ops_pipe.cpp).
constexpr uint32_t kPipeHandleTag = 0x50490000u;  // "PI"
// Named barrier values (OpTypeNamedBarrier, cl_khr_subgroup_named_barrier) are handles too: kNamedBarrierHandleTag |
// the index into the work-group's named barriers (WorkItem::namedBarriers; ops_named_barrier.cpp).
constexpr uint32_t kNamedBarrierHandleTag = 0x4E420000u;  // "NB"
// CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR: "The minimum value is 8" (OpenCL Extension Specification 3.0.12 §33.2
// "Changes to OpenCL specification").
constexpr uint32_t kMaxNamedBarriers = 8;
constexpr uint32_t kHandleIndexMask = 0xFFFFu;
constexpr uint32_t kMaxImageHandles = kHandleIndexMask + 1;

}  // namespace clref::interpreter
