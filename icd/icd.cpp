// cl_khr_icd (OpenCL Extension Specification 3.0.12 §2 "Installable Client Drivers"): the dispatch table
// every object points to, clIcdGetPlatformIDsKHR, and clGetExtensionFunctionAddress(ForPlatform).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <tuple>

#include "icd/objects.hpp"

extern "C" CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context, const void*, size_t, cl_int*);
extern "C" CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);

namespace clref::cl {
namespace {

// A slot for an entry point of an extension clref does not report (GL/D3D/EGL sharing, the
// EXT device fission): the loader never routes a reported
// extension here, but a slot must never be NULL. It returns CL_INVALID_OPERATION, or NULL with
// *errcode_ret = CL_INVALID_OPERATION when the function creates an object.
// The slot does not know which entry point it stands for: the log names the class of function instead.
constexpr const char* kUnsupportedFunction = "extension function";
constexpr const char* kUnsupportedReason =
    "the entry point belongs to an extension the device does not report (CL_DEVICE_EXTENSIONS)";
template <class F> struct Unsupported;
template <class R, class... A> struct Unsupported<R(CL_API_CALL*)(A...)> {
  static R CL_API_CALL fn(A... args) {
    apiError(kUnsupportedFunction, CL_INVALID_OPERATION, "{}", kUnsupportedReason);
    if constexpr (sizeof...(A) > 0) {
      using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
      if constexpr (std::is_same_v<Last, cl_int*>) {
        cl_int* err = std::get<sizeof...(A) - 1>(std::tuple<A...>(args...));
        if (err) *err = CL_INVALID_OPERATION;
      }
    }
    if constexpr (std::is_pointer_v<R>)
      return nullptr;
    else
      return CL_INVALID_OPERATION;
  }
};
cl_int CL_API_CALL unsupportedUntyped() {
  return apiError(kUnsupportedFunction, CL_INVALID_OPERATION, "{}", kUnsupportedReason);
}
template <class P> P unsupported() {
  if constexpr (std::is_same_v<P, void*>)
    return reinterpret_cast<void*>(&unsupportedUntyped);  // slots cl_icd.h types as void* on this OS
  else
    return &Unsupported<P>::fn;
}

cl_icd_dispatch makeTable() {
  cl_icd_dispatch d{};
  d.clGetPlatformIDs = &::clGetPlatformIDs;
  d.clGetPlatformInfo = &::clGetPlatformInfo;
  d.clGetDeviceIDs = &::clGetDeviceIDs;
  d.clGetDeviceInfo = &::clGetDeviceInfo;
  d.clCreateContext = &::clCreateContext;
  d.clCreateContextFromType = &::clCreateContextFromType;
  d.clRetainContext = &::clRetainContext;
  d.clReleaseContext = &::clReleaseContext;
  d.clGetContextInfo = &::clGetContextInfo;
  d.clRetainCommandQueue = &::clRetainCommandQueue;
  d.clReleaseCommandQueue = &::clReleaseCommandQueue;
  d.clGetCommandQueueInfo = &::clGetCommandQueueInfo;
  d.clCreateBuffer = &::clCreateBuffer;
  d.clRetainMemObject = &::clRetainMemObject;
  d.clReleaseMemObject = &::clReleaseMemObject;
  d.clGetSupportedImageFormats = &::clGetSupportedImageFormats;
  d.clGetMemObjectInfo = &::clGetMemObjectInfo;
  d.clGetImageInfo = &::clGetImageInfo;
  d.clRetainSampler = &::clRetainSampler;
  d.clReleaseSampler = &::clReleaseSampler;
  d.clGetSamplerInfo = &::clGetSamplerInfo;
  d.clCreateProgramWithSource = &::clCreateProgramWithSource;
  d.clCreateProgramWithBinary = &::clCreateProgramWithBinary;
  d.clRetainProgram = &::clRetainProgram;
  d.clReleaseProgram = &::clReleaseProgram;
  d.clBuildProgram = &::clBuildProgram;
  d.clGetProgramInfo = &::clGetProgramInfo;
  d.clGetProgramBuildInfo = &::clGetProgramBuildInfo;
  d.clCreateKernel = &::clCreateKernel;
  d.clCreateKernelsInProgram = &::clCreateKernelsInProgram;
  d.clRetainKernel = &::clRetainKernel;
  d.clReleaseKernel = &::clReleaseKernel;
  d.clSetKernelArg = &::clSetKernelArg;
  d.clGetKernelInfo = &::clGetKernelInfo;
  d.clGetKernelWorkGroupInfo = &::clGetKernelWorkGroupInfo;
  d.clWaitForEvents = &::clWaitForEvents;
  d.clGetEventInfo = &::clGetEventInfo;
  d.clRetainEvent = &::clRetainEvent;
  d.clReleaseEvent = &::clReleaseEvent;
  d.clGetEventProfilingInfo = &::clGetEventProfilingInfo;
  d.clFlush = &::clFlush;
  d.clFinish = &::clFinish;
  d.clEnqueueReadBuffer = &::clEnqueueReadBuffer;
  d.clEnqueueWriteBuffer = &::clEnqueueWriteBuffer;
  d.clEnqueueCopyBuffer = &::clEnqueueCopyBuffer;
  d.clEnqueueReadImage = &::clEnqueueReadImage;
  d.clEnqueueWriteImage = &::clEnqueueWriteImage;
  d.clEnqueueCopyImage = &::clEnqueueCopyImage;
  d.clEnqueueCopyImageToBuffer = &::clEnqueueCopyImageToBuffer;
  d.clEnqueueCopyBufferToImage = &::clEnqueueCopyBufferToImage;
  d.clEnqueueMapBuffer = &::clEnqueueMapBuffer;
  d.clEnqueueMapImage = &::clEnqueueMapImage;
  d.clEnqueueUnmapMemObject = &::clEnqueueUnmapMemObject;
  d.clEnqueueNDRangeKernel = &::clEnqueueNDRangeKernel;
  d.clEnqueueNativeKernel = &::clEnqueueNativeKernel;
  d.clSetCommandQueueProperty = &::clSetCommandQueueProperty;
  d.clCreateImage2D = &::clCreateImage2D;
  d.clCreateImage3D = &::clCreateImage3D;
  d.clEnqueueMarker = &::clEnqueueMarker;
  d.clEnqueueWaitForEvents = &::clEnqueueWaitForEvents;
  d.clEnqueueBarrier = &::clEnqueueBarrier;
  d.clUnloadCompiler = &::clUnloadCompiler;
  d.clGetExtensionFunctionAddress = &::clGetExtensionFunctionAddress;
  d.clCreateCommandQueue = &::clCreateCommandQueue;
  d.clCreateSampler = &::clCreateSampler;
  d.clEnqueueTask = &::clEnqueueTask;
  d.clCreateSubBuffer = &::clCreateSubBuffer;
  d.clSetMemObjectDestructorCallback = &::clSetMemObjectDestructorCallback;
  d.clCreateUserEvent = &::clCreateUserEvent;
  d.clSetUserEventStatus = &::clSetUserEventStatus;
  d.clSetEventCallback = &::clSetEventCallback;
  d.clEnqueueReadBufferRect = &::clEnqueueReadBufferRect;
  d.clEnqueueWriteBufferRect = &::clEnqueueWriteBufferRect;
  d.clEnqueueCopyBufferRect = &::clEnqueueCopyBufferRect;
  d.clCreateSubDevices = &::clCreateSubDevices;
  d.clRetainDevice = &::clRetainDevice;
  d.clReleaseDevice = &::clReleaseDevice;
  d.clCreateImage = &::clCreateImage;
  d.clCreateProgramWithBuiltInKernels = &::clCreateProgramWithBuiltInKernels;
  d.clCompileProgram = &::clCompileProgram;
  d.clLinkProgram = &::clLinkProgram;
  d.clUnloadPlatformCompiler = &::clUnloadPlatformCompiler;
  d.clGetKernelArgInfo = &::clGetKernelArgInfo;
  d.clEnqueueFillBuffer = &::clEnqueueFillBuffer;
  d.clEnqueueFillImage = &::clEnqueueFillImage;
  d.clEnqueueMigrateMemObjects = &::clEnqueueMigrateMemObjects;
  d.clEnqueueMarkerWithWaitList = &::clEnqueueMarkerWithWaitList;
  d.clEnqueueBarrierWithWaitList = &::clEnqueueBarrierWithWaitList;
  d.clGetExtensionFunctionAddressForPlatform = &::clGetExtensionFunctionAddressForPlatform;
  d.clCreateCommandQueueWithProperties = &::clCreateCommandQueueWithProperties;
  d.clCreatePipe = &::clCreatePipe;
  d.clGetPipeInfo = &::clGetPipeInfo;
  d.clSVMAlloc = &::clSVMAlloc;
  d.clSVMFree = &::clSVMFree;
  d.clCreateSamplerWithProperties = &::clCreateSamplerWithProperties;
  d.clSetKernelArgSVMPointer = &::clSetKernelArgSVMPointer;
  d.clSetKernelExecInfo = &::clSetKernelExecInfo;
  d.clEnqueueSVMFree = &::clEnqueueSVMFree;
  d.clEnqueueSVMMemcpy = &::clEnqueueSVMMemcpy;
  d.clEnqueueSVMMemFill = &::clEnqueueSVMMemFill;
  d.clEnqueueSVMMap = &::clEnqueueSVMMap;
  d.clEnqueueSVMUnmap = &::clEnqueueSVMUnmap;
  d.clSetDefaultDeviceCommandQueue = &::clSetDefaultDeviceCommandQueue;
  d.clGetDeviceAndHostTimer = &::clGetDeviceAndHostTimer;
  d.clGetHostTimer = &::clGetHostTimer;
  d.clCreateProgramWithIL = &::clCreateProgramWithIL;
  d.clCloneKernel = &::clCloneKernel;
  d.clGetKernelSubGroupInfo = &::clGetKernelSubGroupInfo;
  d.clEnqueueSVMMigrateMem = &::clEnqueueSVMMigrateMem;
  d.clSetProgramSpecializationConstant = &::clSetProgramSpecializationConstant;
  d.clSetProgramReleaseCallback = &::clSetProgramReleaseCallback;
  d.clSetContextDestructorCallback = &::clSetContextDestructorCallback;
  d.clCreateBufferWithProperties = &::clCreateBufferWithProperties;
  d.clCreateImageWithProperties = &::clCreateImageWithProperties;
  d.clCreateFromGLBuffer = unsupported<decltype(d.clCreateFromGLBuffer)>();
  d.clCreateFromGLTexture2D = unsupported<decltype(d.clCreateFromGLTexture2D)>();
  d.clCreateFromGLTexture3D = unsupported<decltype(d.clCreateFromGLTexture3D)>();
  d.clCreateFromGLRenderbuffer = unsupported<decltype(d.clCreateFromGLRenderbuffer)>();
  d.clGetGLObjectInfo = unsupported<decltype(d.clGetGLObjectInfo)>();
  d.clGetGLTextureInfo = unsupported<decltype(d.clGetGLTextureInfo)>();
  d.clEnqueueAcquireGLObjects = unsupported<decltype(d.clEnqueueAcquireGLObjects)>();
  d.clEnqueueReleaseGLObjects = unsupported<decltype(d.clEnqueueReleaseGLObjects)>();
  d.clGetGLContextInfoKHR = unsupported<decltype(d.clGetGLContextInfoKHR)>();
  d.clGetDeviceIDsFromD3D10KHR = unsupported<decltype(d.clGetDeviceIDsFromD3D10KHR)>();
  d.clCreateFromD3D10BufferKHR = unsupported<decltype(d.clCreateFromD3D10BufferKHR)>();
  d.clCreateFromD3D10Texture2DKHR = unsupported<decltype(d.clCreateFromD3D10Texture2DKHR)>();
  d.clCreateFromD3D10Texture3DKHR = unsupported<decltype(d.clCreateFromD3D10Texture3DKHR)>();
  d.clEnqueueAcquireD3D10ObjectsKHR = unsupported<decltype(d.clEnqueueAcquireD3D10ObjectsKHR)>();
  d.clEnqueueReleaseD3D10ObjectsKHR = unsupported<decltype(d.clEnqueueReleaseD3D10ObjectsKHR)>();
  d.clCreateSubDevicesEXT = unsupported<decltype(d.clCreateSubDevicesEXT)>();
  d.clRetainDeviceEXT = unsupported<decltype(d.clRetainDeviceEXT)>();
  d.clReleaseDeviceEXT = unsupported<decltype(d.clReleaseDeviceEXT)>();
  d.clCreateEventFromGLsyncKHR = unsupported<decltype(d.clCreateEventFromGLsyncKHR)>();
  d.clCreateFromGLTexture = unsupported<decltype(d.clCreateFromGLTexture)>();
  d.clGetDeviceIDsFromD3D11KHR = unsupported<decltype(d.clGetDeviceIDsFromD3D11KHR)>();
  d.clCreateFromD3D11BufferKHR = unsupported<decltype(d.clCreateFromD3D11BufferKHR)>();
  d.clCreateFromD3D11Texture2DKHR = unsupported<decltype(d.clCreateFromD3D11Texture2DKHR)>();
  d.clCreateFromD3D11Texture3DKHR = unsupported<decltype(d.clCreateFromD3D11Texture3DKHR)>();
  d.clCreateFromDX9MediaSurfaceKHR = unsupported<decltype(d.clCreateFromDX9MediaSurfaceKHR)>();
  d.clEnqueueAcquireD3D11ObjectsKHR = unsupported<decltype(d.clEnqueueAcquireD3D11ObjectsKHR)>();
  d.clEnqueueReleaseD3D11ObjectsKHR = unsupported<decltype(d.clEnqueueReleaseD3D11ObjectsKHR)>();
  d.clCreateFromEGLImageKHR = unsupported<decltype(d.clCreateFromEGLImageKHR)>();
  d.clEnqueueAcquireEGLObjectsKHR = unsupported<decltype(d.clEnqueueAcquireEGLObjectsKHR)>();
  d.clEnqueueReleaseEGLObjectsKHR = unsupported<decltype(d.clEnqueueReleaseEGLObjectsKHR)>();
  d.clCreateEventFromEGLSyncKHR = unsupported<decltype(d.clCreateEventFromEGLSyncKHR)>();
  d.clGetKernelSubGroupInfoKHR = &::clGetKernelSubGroupInfoKHR;
  d.clGetDeviceIDsFromDX9MediaAdapterKHR = unsupported<decltype(d.clGetDeviceIDsFromDX9MediaAdapterKHR)>();
  d.clEnqueueAcquireDX9MediaSurfacesKHR = unsupported<decltype(d.clEnqueueAcquireDX9MediaSurfacesKHR)>();
  d.clEnqueueReleaseDX9MediaSurfacesKHR = unsupported<decltype(d.clEnqueueReleaseDX9MediaSurfacesKHR)>();
  // Never a NULL slot: checked once, loudly, rather than crashing in an application.
  const auto* slots = reinterpret_cast<void* const*>(&d);
  for (size_t i = 0; i < sizeof d / sizeof(void*); ++i)
    if (!slots[i]) {
      std::fprintf(stderr, "clref: ICD dispatch slot %zu is empty\n", i);
      std::abort();
    }
  return d;
}

}  // namespace

cl_icd_dispatch* dispatchTable() {
  static cl_icd_dispatch table = makeTable();
  return &table;
}

}  // namespace clref::cl

using namespace clref::cl;

// cl_khr_icd: the loader's entry to the vendor's platforms.
CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                       cl_uint* num_platforms) try {
  // cl_khr_icd: CL_INVALID_VALUE if num_entries is 0 and platforms is not NULL, or both
  // num_platforms and platforms are NULL.
  if (num_entries == 0 && platforms)
    return apiError(__func__, CL_INVALID_VALUE, "num_entries is 0 and platforms is not NULL");
  if (!num_platforms && !platforms)
    return apiError(__func__, CL_INVALID_VALUE, "num_platforms and platforms are both NULL");
  if (platforms) platforms[0] = thePlatform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

namespace {
struct Named {
  const char* name;
  void* fn;
};
// The extension functions of the extensions the device reports (cl_khr_icd, cl_khr_il_program,
// cl_khr_suggested_local_work_size, cl_khr_subgroups).
const std::array<Named, 4> kExtensionFunctions{{
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR)},
    {"clCreateProgramWithILKHR", reinterpret_cast<void*>(&clCreateProgramWithILKHR)},
    {"clGetKernelSuggestedLocalWorkSizeKHR", reinterpret_cast<void*>(&clGetKernelSuggestedLocalWorkSizeKHR)},
    {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void*>(&clGetKernelSubGroupInfoKHR)},
}};
}  // namespace

// OpenCL 3.0 API §4.5 [[getting-opencl-api-extension-function-pointers]]: the address of an extension function, or NULL
// for an unknown name.
CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) try {
  ApiLock lock;
  if (!func_name || (platform && !validPlatform(platform))) return nullptr;
  for (const auto& f : kExtensionFunctions)
    if (std::strcmp(f.name, func_name) == 0) return f.fn;
  return commandBufferFunction(func_name);  // cl_khr_command_buffer (command_buffer.cpp)
} catch (...) { return clref::cl::failedCall<void*>(__func__, nullptr); }

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) try {
  return clGetExtensionFunctionAddressForPlatform(nullptr, func_name);
} catch (...) { return clref::cl::failedCall<void*>(__func__, nullptr); }
