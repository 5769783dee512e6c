// OpenCL 3.0 API §5.2 [[_buffer_objects]] Buffer Objects, §5.5 [[_memory_objects_2]] Memory Object queries and
// callbacks; pipes (§5.4 [[_pipes]]). Images are in image.cpp, samplers in sampler.cpp, SVM in svm.cpp.
#include <new>

#include "icd/device_info.hpp"
#include "icd/memory_flags.hpp"

using namespace clref::cl;

namespace {

cl_mem createBuffer(const char* fn, cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                    size_t size, void* host_ptr, cl_int* errcode_ret) {
  if (!validContext(context))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  std::vector<cl_mem_properties> props;
  if (properties) {
    // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] clCreateBufferWithProperties: no buffer properties are
    // supported by clref (the core API defines none); any name is CL_INVALID_PROPERTY.
    if (properties[0] != 0)
      return apiErrorRet(fn, errcode_ret, CL_INVALID_PROPERTY,
                         "properties[0] is {}: the device supports no buffer property", hex(properties[0]));
    props.push_back(0);
  }
  if (flags == 0) flags = CL_MEM_READ_WRITE;  // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]: the default
  // CL_INVALID_VALUE if values specified in flags are not valid
  if (const char* problem = flagsProblem(flags))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "flags {}: {}", hex(flags), problem);
  // CL_INVALID_BUFFER_SIZE if size is 0 or greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE
  if (size == 0) return apiErrorRet(fn, errcode_ret, CL_INVALID_BUFFER_SIZE, "size is 0");
  if (size > kMaxMemAlloc)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_BUFFER_SIZE,
                       "size is {}, more than CL_DEVICE_MAX_MEM_ALLOC_SIZE ({})", size, kMaxMemAlloc);
  // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are
  // set, or host_ptr is not NULL and neither is set.
  const bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wantsPtr && !host_ptr)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                       "host_ptr is NULL and flags {} has CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR", hex(flags));
  if (!wantsPtr && host_ptr)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                       "host_ptr is {} and flags {} has neither CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR", host_ptr,
                       hex(flags));
  // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set, host_ptr is a pointer clSVMAlloc
  // returned, and size is greater than the size passed to clSVMAlloc.
  if (wantsPtr)
    if (auto it = context->svm.find(host_ptr); it != context->svm.end() && size > it->second.size)
      return apiErrorRet(fn, errcode_ret, CL_INVALID_BUFFER_SIZE,
                         "size is {}, more than the {} bytes of the SVM allocation host_ptr {}", size, it->second.size,
                         host_ptr);
  auto* m = new _cl_mem();
  m->context = context;
  m->flags = flags;
  m->size = size;
  m->propertyArray = std::move(props);
  try {
    if (flags & CL_MEM_USE_HOST_PTR) {
      // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] CL_MEM_USE_HOST_PTR: the buffer's storage is the
      // application's memory itself.
      m->hostPtr = host_ptr;
      m->buffer = clref::host::Buffer::view(static_cast<std::byte*>(host_ptr), size);
    } else if (flags & CL_MEM_COPY_HOST_PTR) {
      m->buffer = std::make_shared<clref::host::Buffer>(host_ptr, size);
    } else {
      m->buffer = std::make_shared<clref::host::Buffer>(size);
      // Without host data the contents are undefined (OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]): the
      // uninitialised-value checker follows which bytes commands and kernels write.
      if (theDevice()->device.config().checks.has(clref::interpreter::Check::Uninitialized))
        m->buffer->markUninitialised();
    }
  } catch (const std::bad_alloc&) {
    delete m;
    return apiErrorRet(fn, errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                       "the host could not allocate the buffer's {} bytes", size);
  }
  retainInternal(context);
  registerObject(m);
  return withError(errcode_ret, CL_SUCCESS, cl_mem(m));
}

}  // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) try {
  ApiLock lock;
  return createBuffer(__func__, context, nullptr, flags, size, host_ptr, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size, void* host_ptr,
                                                             cl_int* errcode_ret) try {
  ApiLock lock;
  return createBuffer(__func__, context, properties, flags, size, host_ptr, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void* buffer_create_info, cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] clCreateSubBuffer: CL_INVALID_MEM_OBJECT if buffer is not a
  // valid buffer object or is a sub-buffer object.
  if (!validMem(buffer))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_MEM_OBJECT, "buffer {} is not a valid memory object", buffer);
  if (buffer->type != CL_MEM_OBJECT_BUFFER)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_MEM_OBJECT, "buffer {} is {}, not a buffer", buffer,
                       memKindName(buffer));
  if (buffer->parent)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_MEM_OBJECT,
                       "buffer {} is a sub-buffer (of buffer {}); sub-buffers of sub-buffers are not allowed", buffer,
                       buffer->parent);
  const cl_mem_flags pf = buffer->flags;
  if (const char* problem = flagsProblem(flags))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "flags {}: {}", hex(flags), problem);
  // CL_INVALID_VALUE if flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR
  if (flags & kHostPtrFlags)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "flags {} has CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR, which a "
                       "sub-buffer inherits and may not give",
                       hex(flags));
  // CL_INVALID_VALUE for access flags that widen the parent's (WRITE_ONLY vs READ_WRITE/READ_ONLY, ...)
  if (const char* problem = inheritedFlagsProblem(pf, flags))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "flags {} against the buffer's flags {}: {}",
                       hex(flags), hex(pf), problem);
  // CL_INVALID_VALUE if buffer_create_type is not valid or buffer_create_info is NULL
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "buffer_create_type is {}, not CL_BUFFER_CREATE_TYPE_REGION", hex(buffer_create_type));
  if (!buffer_create_info) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "buffer_create_info is NULL");
  const auto* region = static_cast<const cl_buffer_region*>(buffer_create_info);
  // CL_INVALID_BUFFER_SIZE if the region's size is zero
  if (region->size == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_BUFFER_SIZE, "the region's size is 0");
  // CL_INVALID_VALUE if the region is out of bounds in buffer
  if (region->origin > buffer->size || region->size > buffer->size - region->origin)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "the region (origin {}, size {}) is out of bounds of the buffer's {} bytes", region->origin,
                       region->size, buffer->size);
  // CL_MISALIGNED_SUB_BUFFER_OFFSET if origin is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN
  if (region->origin % (kMemBaseAddrAlignBits / 8))
    return apiErrorRet(__func__, errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                       "the region's origin {} is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN ({} bits: {} bytes)",
                       region->origin, kMemBaseAddrAlignBits, kMemBaseAddrAlignBits / 8);
  // Unspecified access and host-access flags are inherited from the parent (OpenCL 3.0 API
  // §5.2.1 [[_creating_buffer_objects]]).
  if (!(flags & kAccessFlags)) flags |= pf & kAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= pf & kHostAccessFlags;
  flags |= pf & kHostPtrFlags;
  auto* m = new _cl_mem();
  m->context = buffer->context;
  m->flags = flags;
  m->size = region->size;
  m->offset = region->origin;
  m->parent = buffer;
  if (buffer->hostPtr) m->hostPtr = static_cast<char*>(buffer->hostPtr) + region->origin;
  m->buffer = clref::host::Buffer::subBuffer(buffer->buffer, region->origin, region->size);
  retainInternal(buffer);
  retainInternal(buffer->context);
  registerObject(m);
  return withError(errcode_ret, CL_SUCCESS, cl_mem(m));
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) try {
  ApiLock lock;
  if (!validMem(memobj))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "memobj {} is not a valid memory object", memobj);
  retainExternal(memobj);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) try {
  ApiLock lock;
  if (!validMem(memobj))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "memobj {} is not a valid memory object", memobj);
  // Room for the deferred call of the destructor callbacks (and of a sub-buffer's parent's and
  // the context's), before any change: a failed allocation leaves memobj as it was.
  if (memobj->refCount == 1 && !memobj->destructorCallbacks.empty()) reserveDeferred(3);
  releaseExternal(memobj);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                                 void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                                 void* user_data) try {
  ApiLock lock;
  if (!validMem(memobj))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "memobj {} is not a valid memory object", memobj);
  // OpenCL 3.0 API §5.5.1 [[_retaining_and_releasing_memory_objects]]: CL_INVALID_VALUE if pfn_notify is NULL
  if (!pfn_notify) return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL");
  memobj->destructorCallbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                                   void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validMem(memobj))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "memobj {} is not a valid memory object", memobj);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_MEM_TYPE: return out(memobj->type);
    case CL_MEM_FLAGS: return out(memobj->flags);
    case CL_MEM_SIZE: return out(memobj->size);
    // OpenCL 3.0 API §5.5.6 [[memory-object-queries]] CL_MEM_HOST_PTR: the host_ptr given at creation (USE_HOST_PTR),
    // for sub-buffers host_ptr + origin; NULL otherwise.
    case CL_MEM_HOST_PTR: return out(memobj->flags & CL_MEM_USE_HOST_PTR ? memobj->hostPtr : nullptr);
    case CL_MEM_MAP_COUNT: return out(memobj->mapCount);
    case CL_MEM_REFERENCE_COUNT: return out(memobj->refCount);
    case CL_MEM_CONTEXT: return out(memobj->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return out(memobj->parent ? memobj->parent : memobj->memObject);
    case CL_MEM_OFFSET: return out(memobj->offset);
    // CL_MEM_USES_SVM_POINTER: a buffer made with CL_MEM_USE_HOST_PTR over an SVM allocation, or a sub-buffer of one.
    case CL_MEM_USES_SVM_POINTER: {
      const cl_mem root = memobj->parent ? memobj->parent : memobj;
      return out(cl_bool(memobj->type == CL_MEM_OBJECT_BUFFER && (root->flags & CL_MEM_USE_HOST_PTR) &&
                         memobj->context->svmAllocationHolding(root->hostPtr, root->size)));
    }
    case CL_MEM_PROPERTIES: return out(memobj->propertyArray);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no memory object query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// ---- pipes (OpenCL 3.0 API §5.4 [[_pipes]]) ------------------------------------------------------------------

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                             cl_uint pipe_max_packets, const cl_pipe_properties* properties,
                                             cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.4.1 [[_creating_pipe_objects]] clCreatePipe: CL_INVALID_CONTEXT; CL_INVALID_VALUE if flags are
  // not CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS (0: both) or properties is not NULL; CL_INVALID_PIPE_SIZE if
  // pipe_packet_size is 0 or above CL_DEVICE_PIPE_MAX_PACKET_SIZE, or pipe_max_packets is 0.
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  if (flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "flags {} has bits other than CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS", hex(flags));
  if (properties)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "properties is {}, and must be NULL", properties);
  if (pipe_packet_size == 0 || pipe_packet_size > kPipeMaxPacketSize)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_PIPE_SIZE,
                       "pipe_packet_size is {}, not between 1 and CL_DEVICE_PIPE_MAX_PACKET_SIZE ({})",
                       pipe_packet_size, kPipeMaxPacketSize);
  if (pipe_max_packets == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0");
  auto owned = std::make_unique<_cl_mem>();
  owned->context = context;
  owned->type = CL_MEM_OBJECT_PIPE;
  owned->flags = flags ? flags : cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS);
  owned->size = size_t(pipe_packet_size) * pipe_max_packets;
  owned->pipe = std::make_shared<clref::host::Pipe>(pipe_packet_size, pipe_max_packets);
  cl_mem m = owned.get();
  registerObject(m);
  owned.release();
  retainInternal(context);
  return withError(errcode_ret, CL_SUCCESS, m);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                              void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.4.2 [[_pipe_object_queries]] clGetPipeInfo: CL_INVALID_MEM_OBJECT if pipe is not a valid pipe
  // object; CL_INVALID_VALUE for another param_name or too small a param_value_size.
  if (!validMem(pipe) || pipe->type != CL_MEM_OBJECT_PIPE)
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "pipe {} is not a valid pipe object", pipe);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_PIPE_PACKET_SIZE: return out(cl_uint(pipe->pipe->packetSize()));
    case CL_PIPE_MAX_PACKETS: return out(cl_uint(pipe->pipe->maxPackets()));
    // CL_PIPE_PROPERTIES: clCreatePipe takes no properties (properties must be NULL), so none.
    case CL_PIPE_PROPERTIES: return out(pipe->pipeProperties);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no pipe query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
