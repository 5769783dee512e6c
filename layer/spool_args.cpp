// The handles the application created through the layer (spool_args.hpp).
#include "layer/spool_args.hpp"

#include <mutex>
#include <type_traits>
#include <unordered_map>

namespace clref::layer {
namespace {

std::mutex handlesMutex;
std::unordered_map<const void*, HandleKind> liveHandles;

void rememberHandle(const void* h, HandleKind kind) {
  std::lock_guard lock(handlesMutex);
  liveHandles[h] = kind;  // a handle the platform hands out again is the new object's
}

// An entry point that creates a handle of `Kind` (`Member` its place in the dispatch table): the platform's call, and
// the handle remembered.
template <HandleKind Kind, auto Member, class F> struct HandleCreator;
template <HandleKind Kind, auto Member, class R, class... A> struct HandleCreator<Kind, Member, R(CL_API_CALL*)(A...)> {
  static R CL_API_CALL call(A... a) {
    R h = (next().*Member)(a...);
    if (h) rememberHandle(h, Kind);
    return h;
  }
};
// (cl_icd.h declares the entry points of extensions the headers leave out, D3D's on Linux, as void*: left alone.)
template <HandleKind Kind, auto Member> void interceptCreation(cl_icd_dispatch& t) {
  using F = std::remove_reference_t<decltype(t.*Member)>;
  if constexpr (std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>)
    if (t.*Member) t.*Member = &HandleCreator<Kind, Member, F>::call;
}

// A release: the handle is forgotten when this is its last reference (the platform may hand it out again then).
template <class Object, class Info>
cl_int releaseHandle(Object o, cl_int(CL_API_CALL* release)(Object),
                     cl_int(CL_API_CALL* query)(Object, Info, size_t, void*, size_t*), Info referenceCount) {
  cl_uint n = 0;
  const bool last = query(o, referenceCount, sizeof n, &n, nullptr) == CL_SUCCESS && n == 1;
  const cl_int r = release(o);
  if (r == CL_SUCCESS && last) {
    std::lock_guard lock(handlesMutex);
    liveHandles.erase(o);
  }
  return r;
}
cl_int CL_API_CALL releaseMemObjectHandle(cl_mem m) {
  return releaseHandle(m, next().clReleaseMemObject, next().clGetMemObjectInfo, cl_mem_info(CL_MEM_REFERENCE_COUNT));
}
cl_int CL_API_CALL releaseSamplerHandle(cl_sampler s) {
  return releaseHandle(s, next().clReleaseSampler, next().clGetSamplerInfo,
                       cl_sampler_info(CL_SAMPLER_REFERENCE_COUNT));
}
cl_int CL_API_CALL releaseQueueHandle(cl_command_queue q) {
  return releaseHandle(q, next().clReleaseCommandQueue, next().clGetCommandQueueInfo,
                       cl_command_queue_info(CL_QUEUE_REFERENCE_COUNT));
}

}  // namespace

void interceptHandles(cl_icd_dispatch& t) {
  using D = cl_icd_dispatch;
  interceptCreation<HandleKind::Memory, &D::clCreateBuffer>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateBufferWithProperties>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateSubBuffer>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateImage>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateImage2D>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateImage3D>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateImageWithProperties>(t);
  interceptCreation<HandleKind::Memory, &D::clCreatePipe>(t);
  // Memory objects shared with other APIs (cl_khr_gl_sharing, cl_khr_egl_image, cl_khr_d3d10_sharing, ...).
  interceptCreation<HandleKind::Memory, &D::clCreateFromGLBuffer>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromGLTexture>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromGLTexture2D>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromGLTexture3D>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromGLRenderbuffer>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromEGLImageKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D10BufferKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D10Texture2DKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D10Texture3DKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D11BufferKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D11Texture2DKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromD3D11Texture3DKHR>(t);
  interceptCreation<HandleKind::Memory, &D::clCreateFromDX9MediaSurfaceKHR>(t);
  interceptCreation<HandleKind::Sampler, &D::clCreateSampler>(t);
  interceptCreation<HandleKind::Sampler, &D::clCreateSamplerWithProperties>(t);
  interceptCreation<HandleKind::Queue, &D::clCreateCommandQueue>(t);
  interceptCreation<HandleKind::Queue, &D::clCreateCommandQueueWithProperties>(t);
  if (t.clReleaseMemObject) t.clReleaseMemObject = releaseMemObjectHandle;
  if (t.clReleaseSampler) t.clReleaseSampler = releaseSamplerHandle;
  if (t.clReleaseCommandQueue) t.clReleaseCommandQueue = releaseQueueHandle;
}

std::optional<HandleKind> handleKind(const void* handle) {
  std::lock_guard lock(handlesMutex);
  const auto it = liveHandles.find(handle);
  if (it == liveHandles.end()) return std::nullopt;
  return it->second;
}

}  // namespace clref::layer
