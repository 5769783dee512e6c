// OpenCL 3.0 API §4.4 [[_contexts]] Contexts.
#include <algorithm>

#include "icd/device_info.hpp"

using namespace clref::cl;

namespace {

// OpenCL 3.0 API §4.4 [[_contexts]] clCreateContext properties: CL_CONTEXT_PLATFORM and CL_CONTEXT_INTEROP_USER_SYNC.
cl_int parseContextProperties(const char* fn, const cl_context_properties* props,
                              std::vector<cl_context_properties>& kept) {
  if (!props) return CL_SUCCESS;
  bool seenPlatform = false, seenSync = false;
  for (size_t i = 0; props[i] != 0; i += 2) {
    const cl_context_properties name = props[i], value = props[i + 1];
    switch (name) {
      case CL_CONTEXT_PLATFORM:
        // CL_INVALID_PROPERTY if the same property name is specified more than once
        if (seenPlatform)
          return apiError(fn, CL_INVALID_PROPERTY, "properties[{}] gives CL_CONTEXT_PLATFORM a second time", i);
        seenPlatform = true;
        // CL_INVALID_PLATFORM if the platform specified in properties is not a valid platform
        if (!validPlatform(reinterpret_cast<cl_platform_id>(value)))
          return apiError(fn, CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM (properties[{}]) is {}, not a valid platform",
                          i + 1, hex(value));
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        if (seenSync)
          return apiError(fn, CL_INVALID_PROPERTY, "properties[{}] gives CL_CONTEXT_INTEROP_USER_SYNC a second time",
                          i);
        seenSync = true;
        // CL_INVALID_PROPERTY if the value specified for a supported property name is not valid
        if (value != CL_TRUE && value != CL_FALSE)
          return apiError(fn, CL_INVALID_PROPERTY,
                          "CL_CONTEXT_INTEROP_USER_SYNC (properties[{}]) is {}, not CL_TRUE or CL_FALSE", i + 1, value);
        break;
      default:  // not a supported property name
        return apiError(fn, CL_INVALID_PROPERTY,
                        "properties[{}] is {}, not a context property (CL_CONTEXT_PLATFORM, "
                        "CL_CONTEXT_INTEROP_USER_SYNC)",
                        i, hex(name));
    }
    kept.push_back(name);
    kept.push_back(value);
  }
  kept.push_back(0);
  return CL_SUCCESS;
}

cl_context makeContext(std::vector<cl_context_properties> props, std::vector<cl_device_id> devices,
                       void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* data) {
  auto* c = new _cl_context();
  c->properties = std::move(props);
  c->devices = std::move(devices);
  c->deviceQueues.resize(c->devices.size());
  for (cl_device_id d : c->devices)
    if (d->isSubDevice()) retainInternal(d);
  c->notify = notify;
  c->notifyData = data;
  registerObject(c);
  return c;
}

}  // namespace

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties* properties, cl_uint num_devices, const cl_device_id* devices,
    void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*), void* user_data, cl_int* errcode_ret) try {
  ApiLock lock;
  std::vector<cl_context_properties> props;
  if (cl_int e = parseContextProperties(__func__, properties, props))
    return withError(errcode_ret, e, cl_context(nullptr));
  // OpenCL 3.0 API §4.4 [[_contexts]] clCreateContext: CL_INVALID_VALUE if devices is NULL, num_devices is 0, or
  // pfn_notify is NULL and user_data is not NULL.
  if (!devices) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "devices is NULL");
  if (num_devices == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  if (!pfn_notify && user_data)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "pfn_notify is NULL and user_data is not NULL");
  // CL_INVALID_DEVICE if any device in devices is not a valid device
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!validDevice(devices[i]))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "devices[{}] is {}, not a valid device", i,
                         devices[i]);
  // OpenCL 3.0 API §4.4 [[_contexts]] clCreateContext: duplicate devices in devices are ignored.
  std::vector<cl_device_id> unique;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (std::find(unique.begin(), unique.end(), devices[i]) == unique.end()) unique.push_back(devices[i]);
  return withError(errcode_ret, CL_SUCCESS, makeContext(std::move(props), std::move(unique), pfn_notify, user_data));
} catch (...) { return clref::cl::failedCall<cl_context>(__func__, errcode_ret); }

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties* properties, cl_device_type device_type,
    void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*), void* user_data, cl_int* errcode_ret) try {
  ApiLock lock;
  std::vector<cl_context_properties> props;
  if (cl_int e = parseContextProperties(__func__, properties, props))
    return withError(errcode_ret, e, cl_context(nullptr));
  // OpenCL 3.0 API §4.4 [[_contexts]] clCreateContextFromType: CL_INVALID_VALUE if pfn_notify is NULL but user_data is
  // not NULL.
  if (!pfn_notify && user_data)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "pfn_notify is NULL and user_data is not NULL");
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  // OpenCL 3.0 API §4.4 [[_contexts]] clCreateContextFromType: CL_INVALID_DEVICE_TYPE if device_type is not a valid
  // value
  if (device_type == 0 || (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known)))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE_TYPE,
                       "device_type {} is no combination of CL_DEVICE_TYPE_DEFAULT, _CPU, _GPU, _ACCELERATOR, "
                       "_CUSTOM and not CL_DEVICE_TYPE_ALL",
                       hex(device_type));
  // CL_DEVICE_NOT_FOUND if no devices match device_type
  if (device_type != CL_DEVICE_TYPE_ALL && !(device_type & (CL_DEVICE_TYPE_DEFAULT | kDeviceType)))
    return apiErrorRet(
        __func__, errcode_ret, CL_DEVICE_NOT_FOUND,
        "device_type {} matches no device (the one device is CL_DEVICE_TYPE_ACCELERATOR, and the default)",
        hex(device_type));
  // The root device: device types select root devices only (as clGetDeviceIDs lists them).
  return withError(errcode_ret, CL_SUCCESS, makeContext(std::move(props), {theDevice()}, pfn_notify, user_data));
} catch (...) { return clref::cl::failedCall<cl_context>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) try {
  ApiLock lock;
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  retainExternal(context);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) try {
  ApiLock lock;
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // Room for the deferred call of the destructor callbacks (and of a sub-buffer's parent's and
  // the context's), before any change: a failed allocation leaves context as it was.
  if (context->refCount == 1 && !context->destructorCallbacks.empty()) reserveDeferred(3);
  releaseExternal(context);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT: return out(context->refCount);
    case CL_CONTEXT_NUM_DEVICES: return out(cl_uint(context->devices.size()));
    case CL_CONTEXT_DEVICES: return out(context->devices);
    // OpenCL 3.0 API §4.4 [[_contexts]]: the properties argument as given, or size 0 when it was NULL.
    case CL_CONTEXT_PROPERTIES: return out(context->properties);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no context query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                               void(CL_CALLBACK* pfn_notify)(cl_context, void*),
                                                               void* user_data) try {
  ApiLock lock;
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // OpenCL 3.0 API §4.4 [[_contexts]]: CL_INVALID_VALUE if pfn_notify is NULL
  if (!pfn_notify) return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL");
  context->destructorCallbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

namespace clref::cl {
void reportFault(cl_context context, const std::string& text) {
  std::fprintf(stderr, "clref: %s\n", text.c_str());
  // OpenCL 3.0 API §4.4 [[_contexts]] pfn_notify: errors during context use are reported through the callback
  // (asynchronously: after the lock is released).
  if (context->notify) {
    auto fn = context->notify;
    void* data = context->notifyData;
    auto msg = std::make_shared<std::string>(text);
    deferCallback([fn, data, msg] { fn(msg->c_str(), nullptr, 0, data); });
  }
}
}  // namespace clref::cl
