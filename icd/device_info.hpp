// The device's limits and capabilities, shared by clGetDeviceInfo and the checks that depend on
// them (buffer sizes, work-group sizes, argument sizes).
#pragma once
#include "icd/objects.hpp"

// cl_ext_float_atomics' query and bits (cl.xml), which the system's CL/cl_ext.h may predate.
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#endif

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
// Program-scope variables: the bounds the interpreter enforces when it lowers a kernel.
constexpr size_t kMaxGlobalVariableSize = host::kMaxGlobalVariableSize;
constexpr size_t kGlobalVariablePreferredTotalSize = host::kMaxGlobalVariableTotalSize;
// Pipes (OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_MAX_PIPE_ARGS at least 16,
// CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS at least 1, CL_DEVICE_PIPE_MAX_PACKET_SIZE at least 1024): a pipe's packets
// are host memory (interpreter/pipe.hpp), so the bounds are generous; reservations have no limit of their own.
constexpr cl_uint kMaxPipeArgs = 64;
constexpr cl_uint kPipeMaxActiveReservations = 1u << 16;
constexpr cl_uint kPipeMaxPacketSize = 1u << 20;

// Image limits (OpenCL 3.0 API §4.2 [[platform-querying-devices]], the full profile's minimums where the interpreter has
// no tighter bound). An image larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE is refused at creation
// (CL_MEM_OBJECT_ALLOCATION_FAILURE), so the widest formats reach these sizes only in some dimensions.
constexpr size_t kImage2DMaxWidth = 16384, kImage2DMaxHeight = 16384;
constexpr size_t kImage3DMaxWidth = 2048, kImage3DMaxHeight = 2048, kImage3DMaxDepth = 2048;
constexpr size_t kImageMaxBufferSize = kMaxMemAlloc / 16;  // pixels: every format's 1D image buffer fits one buffer
constexpr size_t kImageMaxArraySize = 2048;
constexpr cl_uint kMaxReadImageArgs = 128, kMaxWriteImageArgs = 64, kMaxReadWriteImageArgs = 64;
constexpr cl_uint kMaxSamplers = 16;
// In pixels, powers of 2: a 2D image from a buffer may have any row pitch that is a multiple of the element size,
// and a CL_MEM_USE_HOST_PTR buffer under it must be aligned to the element size.
constexpr cl_uint kImagePitchAlignment = 1, kImageBaseAddressAlignment = 1;

// Whether the device's OpenCL C features (host::openCLCFeatures) include `name`.
bool hasFeature(const host::DeviceConfig& cfg, const char* name);

std::vector<cl_name_version> platformExtensionsWithVersion();
cl_int deviceInfo(cl_device_id device, cl_device_info param, const InfoOut& out);
size_t maxWorkGroupSize();
// OpenCL 3.0 API §4.3 [[platform-device-partitioning]] (device_partition.cpp): the schemes clCreateSubDevices takes for
// `device` ({0} when it cannot be split into two or more), and the most sub-devices one call can make.
std::vector<cl_device_partition_property> partitionProperties(cl_device_id device);
cl_uint maxSubDevices(cl_device_id device);

}  // namespace clref::cl
