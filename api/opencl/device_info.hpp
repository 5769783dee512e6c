// The device's limits and capabilities, shared by clGetDeviceInfo and the checks that depend on
// them (buffer sizes, work-group sizes, argument sizes).
#pragma once
#include "api/opencl/objects.hpp"

namespace clref::cl {

// A software device that is not the host CPU's instruction set: reported as an accelerator,
// so applications asking for CL_DEVICE_TYPE_CPU/GPU do not pick it by accident.
constexpr cl_device_type kDeviceType = CL_DEVICE_TYPE_ACCELERATOR;
constexpr cl_ulong kGlobalMemSize = cl_ulong(1) << 30;
// OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_MAX_MEM_ALLOC_SIZE: at least max(1/4 of
// CL_DEVICE_GLOBAL_MEM_SIZE, 128 MiB). The host API's default, which the case files of the clref tool obey too.
constexpr cl_ulong kMaxMemAlloc = host::kDefaultMaxMemAllocSize;
constexpr cl_ulong kLocalMemSize = host::kDefaultLocalMemSize;
constexpr cl_ulong kMaxConstantBufferSize = 64 * 1024;
constexpr cl_uint kMaxConstantArgs = 8;
constexpr size_t kMaxParameterSize = 1024;
constexpr cl_uint kMemBaseAddrAlignBits = 1024;  // 128 bytes: the size of long16
constexpr size_t kMaxGlobalVariableSize = 64 * 1024;

std::vector<cl_name_version> platformExtensionsWithVersion();
cl_int deviceInfo(cl_device_id device, cl_device_info param, const InfoOut& out);
size_t maxWorkGroupSize();

}  // namespace clref::cl
