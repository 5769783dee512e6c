// Error conditions of the OpenCL 3.0 API: platform, devices, contexts, command-queues, events,
// markers and barriers, flush/finish, host timers (OpenCL 3.0 API §4.1 [[_querying_platform_info]]–§4.4 [[_contexts]],
// §5.1 [[_command_queues]], §5.11 [[event-objects]], §5.12 [[markers-barriers-waiting-for-events]],
// §5.16 [[_flush_and_finish]], §5.15 [[profiling-operations]]; see error_table.hpp).
#include <map>

#include "error_table.hpp"

namespace clref_test {
namespace {

// ---- helpers: every object a case creates is released inside the case -----------------------

using Notify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

cl_int contextErr(const cl_context_properties* props, cl_uint n, const cl_device_id* devices, Notify notify = nullptr,
                  void* data = nullptr) {
  cl_int e = 12345;
  if (cl_context c = clCreateContext(props, n, devices, notify, data, &e)) clReleaseContext(c);
  return e;
}

cl_int contextFromTypeErr(const cl_context_properties* props, cl_device_type type, Notify notify = nullptr,
                          void* data = nullptr) {
  cl_int e = 12345;
  if (cl_context c = clCreateContextFromType(props, type, notify, data, &e)) clReleaseContext(c);
  return e;
}

cl_int queueWithPropertiesErr(cl_context ctx, cl_device_id device, const cl_queue_properties* props) {
  cl_int e = 12345;
  if (cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &e)) clReleaseCommandQueue(q);
  return e;
}

cl_int queueErr(cl_context ctx, cl_device_id device, cl_command_queue_properties props) {
  cl_int e = 12345;
  if (cl_command_queue q = clCreateCommandQueue(ctx, device, props, &e)) clReleaseCommandQueue(q);
  return e;
}

// Runs f with a fresh user event of ctx, then completes and releases it, so no queue stays
// blocked on it whatever f enqueued.
cl_int withUserEvent(cl_context ctx, const std::function<cl_int(cl_event)>& f) {
  cl_event u = clCreateUserEvent(ctx, nullptr);
  const cl_int e = f(u);
  clSetUserEventStatus(u, CL_COMPLETE);  // CL_INVALID_OPERATION if f already set it: harmless
  clReleaseEvent(u);
  return e;
}

// Runs f with a fresh in-order profiling queue of fx().ctx, released afterwards.
cl_int withProfilingQueue(const std::function<cl_int(cl_command_queue)>& f) {
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int e0;
  cl_command_queue q = clCreateCommandQueueWithProperties(fx().ctx, fx().device, props, &e0);
  const cl_int e = f(q);
  clFinish(q);
  clReleaseCommandQueue(q);
  return e;
}

void CL_CALLBACK contextDestructor(cl_context, void*) {}
void CL_CALLBACK eventNotify(cl_event, cl_int, void*) {}

// A handle of each kind that was valid once: created and released again (clref checks handles
// against its live objects).
cl_context releasedContext() {
  cl_int e;
  cl_context c = clCreateContext(nullptr, 1, &fx().device, nullptr, nullptr, &e);
  clReleaseContext(c);
  return c;
}
cl_command_queue releasedQueue() {
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(fx().ctx, fx().device, nullptr, &e);
  clReleaseCommandQueue(q);
  return q;
}
cl_event releasedEvent() {
  cl_event ev = nullptr;
  clEnqueueMarkerWithWaitList(fx().q2, 0, nullptr, &ev);
  clFinish(fx().q2);
  clReleaseEvent(ev);
  return ev;
}

constexpr cl_uint kBadParam = 0xdead;  // no query of any object has this name

// ---- OpenCL 3.0 API §4.1 [[_querying_platform_info]] platforms, §4.2 [[platform-querying-devices]] devices, host
// timers, §4.3 [[platform-device-partitioning]] sub-devices, §5.8 [[_program_objects]] compiler unloading ------

std::vector<ErrorCase> platformCases() {
  Fixture& f = fx();
  return {
      {"clGetPlatformIDs:CL_INVALID_VALUE:1",
       [] {
         cl_platform_id p;
         return clGetPlatformIDs(0, &p, nullptr);
       }},
      {"clGetPlatformIDs:CL_INVALID_VALUE:2", [] { return clGetPlatformIDs(1, nullptr, nullptr); }},

      {"clGetPlatformInfo:CL_INVALID_PLATFORM:1",
       [] { return clGetPlatformInfo(kBadPlatform, CL_PLATFORM_NAME, 0, nullptr, nullptr); }},
      {"clGetPlatformInfo:CL_INVALID_VALUE:1",
       [&f] { return clGetPlatformInfo(f.platform, kBadParam, 0, nullptr, nullptr); }},
      // A device query is not a platform query.
      {"clGetPlatformInfo:CL_INVALID_VALUE:1",
       [&f] { return clGetPlatformInfo(f.platform, CL_DEVICE_NAME, 0, nullptr, nullptr); }},
      {"clGetPlatformInfo:CL_INVALID_VALUE:2",
       [&f] {
         char s[1];
         return clGetPlatformInfo(f.platform, CL_PLATFORM_NAME, sizeof s, s, nullptr);
       }},
      {"clGetPlatformInfo:CL_INVALID_VALUE:2",
       [&f] {
         cl_uint small;  // the resolution is a cl_ulong
         return clGetPlatformInfo(f.platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof small, &small, nullptr);
       }},

      {"clGetDeviceIDs:CL_INVALID_PLATFORM:1",
       [] {
         cl_uint n;
         return clGetDeviceIDs(kBadPlatform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
       }},
      {"clGetDeviceIDs:CL_INVALID_DEVICE_TYPE:1",
       [&f] {
         cl_uint n;
         return clGetDeviceIDs(f.platform, cl_device_type(1) << 40, 0, nullptr, &n);
       }},
      {"clGetDeviceIDs:CL_INVALID_VALUE:1",
       [&f] {
         cl_device_id d;
         return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_ALL, 0, &d, nullptr);
       }},
      {"clGetDeviceIDs:CL_INVALID_VALUE:2",
       [&f] { return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr); }},
      // clref's one device is an accelerator.
      {"clGetDeviceIDs:CL_DEVICE_NOT_FOUND:1",
       [&f] {
         cl_uint n;
         return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &n);
       }},
      {"clGetDeviceIDs:CL_DEVICE_NOT_FOUND:1",
       [&f] {
         cl_uint n;
         return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_CPU, 0, nullptr, &n);
       }},

      {"clGetDeviceInfo:CL_INVALID_DEVICE:1",
       [] { return clGetDeviceInfo(kBadDevice, CL_DEVICE_NAME, 0, nullptr, nullptr); }},
      {"clGetDeviceInfo:CL_INVALID_VALUE:1",
       [&f] { return clGetDeviceInfo(f.device, kBadParam, 0, nullptr, nullptr); }},
      {"clGetDeviceInfo:CL_INVALID_VALUE:2",
       [&f] {
         char s[2];
         return clGetDeviceInfo(f.device, CL_DEVICE_NAME, sizeof s, s, nullptr);
       }},
      {"clGetDeviceInfo:CL_INVALID_VALUE:2",
       [&f] {
         cl_uint small;  // a cl_ulong query
         return clGetDeviceInfo(f.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof small, &small, nullptr);
       }},

      {"clGetDeviceAndHostTimer:CL_INVALID_DEVICE:1",
       [] {
         cl_ulong d, h;
         return clGetDeviceAndHostTimer(kBadDevice, &d, &h);
       }},
      {"clGetDeviceAndHostTimer:CL_INVALID_VALUE:1",
       [&f] {
         cl_ulong d;
         return clGetDeviceAndHostTimer(f.device, &d, nullptr);
       }},
      {"clGetDeviceAndHostTimer:CL_INVALID_VALUE:2",
       [&f] {
         cl_ulong h;
         return clGetDeviceAndHostTimer(f.device, nullptr, &h);
       }},
      {"clGetHostTimer:CL_INVALID_DEVICE:1",
       [] {
         cl_ulong h;
         return clGetHostTimer(kBadDevice, &h);
       }},
      {"clGetHostTimer:CL_INVALID_VALUE:1", [&f] { return clGetHostTimer(f.device, nullptr); }},

      {"clCreateSubDevices:CL_INVALID_DEVICE:1",
       [] {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         cl_uint n;
         return clCreateSubDevices(kBadDevice, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:1",
       [&f] {
         const cl_device_partition_property p[] = {0x7777, 1, 0};  // not a partition scheme
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:1",
       [&f] {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};  // sub-devices of no unit
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:1",
       [&f] {  // two schemes
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:1",
       [&f] { return clCreateSubDevices(f.device, nullptr, 0, nullptr, nullptr); }},
      // Valid but not supported: the device (4 compute units) splits equally and by counts, never by affinity domain
      // (CL_DEVICE_PARTITION_AFFINITY_DOMAIN is 0); a sub-device of one compute unit cannot be split at all.
      {"clCreateSubDevices:CL_INVALID_VALUE:2",
       [&f] {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         cl_uint n;
         return clCreateSubDevices(f.subA, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:3",
       [&f] {  // four sub-devices into room for three
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         cl_device_id out[3];
         return clCreateSubDevices(f.device, p, 3, out, nullptr);
       }},
      {"clCreateSubDevices:CL_DEVICE_PARTITION_FAILED:1",
       [&f] {  // one sub-device of all 4 compute units: the device again, not a further partition
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 4, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_DEVICE_PARTITION_COUNT:2",
       [&f] {  // sub-devices of 5 compute units from 4
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 5, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_DEVICE_PARTITION_COUNT:1",
       [&f] {  // five sub-devices, more than CL_DEVICE_PARTITION_MAX_SUB_DEVICES (4)
         const cl_device_partition_property p[] = {
             CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 1, 1, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_DEVICE_PARTITION_COUNT:2",
       [&f] {  // 3 + 2 compute units of 4
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_BY_COUNTS, 3, 2,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_DEVICE_PARTITION_COUNT:3",
       [&f] {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, -1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_DEVICE_PARTITION_COUNT:4",
       [&f] {  // one sub-device of 5 compute units
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_BY_COUNTS, 5,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},
      {"clCreateSubDevices:CL_INVALID_VALUE:2",
       [&f] {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                   CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
         cl_uint n;
         return clCreateSubDevices(f.device, p, 0, nullptr, &n);
       }},

      {"clRetainDevice:CL_INVALID_DEVICE:1", [] { return clRetainDevice(kBadDevice); }},
      {"clReleaseDevice:CL_INVALID_DEVICE:1", [] { return clReleaseDevice(kBadDevice); }},
      {"clUnloadPlatformCompiler:CL_INVALID_PLATFORM:1", [] { return clUnloadPlatformCompiler(kBadPlatform); }},
  };
}

// ---- OpenCL 3.0 API §4.4 [[_contexts]] contexts
// -----------------------------------------------------------------------------

std::vector<ErrorCase> contextCases() {
  Fixture& f = fx();
  static char userData;
  const auto platformProp = [&f] { return cl_context_properties(f.platform); };
  return {
      {"clCreateContext:CL_INVALID_PLATFORM:2",
       [&f] {
         const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, cl_context_properties(kBadPlatform), 0};
         return contextErr(p, 1, &f.device);
       }},
      {"clCreateContext:CL_INVALID_PROPERTY:1",
       [&f] {
         const cl_context_properties p[] = {0x7777, 0, 0};
         return contextErr(p, 1, &f.device);
       }},
      {"clCreateContext:CL_INVALID_PROPERTY:2",
       [&f] {
         const cl_context_properties p[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};  // a cl_bool
         return contextErr(p, 1, &f.device);
       }},
      {"clCreateContext:CL_INVALID_PROPERTY:3",
       [&f, platformProp] {
         const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, platformProp(), CL_CONTEXT_PLATFORM, platformProp(),
                                            0};
         return contextErr(p, 1, &f.device);
       }},
      {"clCreateContext:CL_INVALID_PROPERTY:3",
       [&f] {
         const cl_context_properties p[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
                                            CL_FALSE, 0};
         return contextErr(p, 1, &f.device);
       }},
      {"clCreateContext:CL_INVALID_VALUE:1", [] { return contextErr(nullptr, 1, nullptr); }},
      {"clCreateContext:CL_INVALID_VALUE:2", [&f] { return contextErr(nullptr, 0, &f.device); }},
      {"clCreateContext:CL_INVALID_VALUE:3", [&f] { return contextErr(nullptr, 1, &f.device, nullptr, &userData); }},
      {"clCreateContext:CL_INVALID_DEVICE:1", [] { return contextErr(nullptr, 1, &kBadDevice); }},
      {"clCreateContext:CL_INVALID_DEVICE:1",
       [&f] {
         const cl_device_id d[] = {f.device, kBadDevice};  // one valid, one not
         return contextErr(nullptr, 2, d);
       }},

      {"clCreateContextFromType:CL_INVALID_PLATFORM:2",
       [] {
         const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, cl_context_properties(kBadPlatform), 0};
         return contextFromTypeErr(p, CL_DEVICE_TYPE_ALL);
       }},
      {"clCreateContextFromType:CL_INVALID_PROPERTY:1",
       [] {
         const cl_context_properties p[] = {0x7777, 0, 0};
         return contextFromTypeErr(p, CL_DEVICE_TYPE_ALL);
       }},
      {"clCreateContextFromType:CL_INVALID_PROPERTY:2",
       [] {
         const cl_context_properties p[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
         return contextFromTypeErr(p, CL_DEVICE_TYPE_ALL);
       }},
      {"clCreateContextFromType:CL_INVALID_PROPERTY:3",
       [platformProp] {
         const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, platformProp(), CL_CONTEXT_PLATFORM, platformProp(),
                                            0};
         return contextFromTypeErr(p, CL_DEVICE_TYPE_ALL);
       }},
      {"clCreateContextFromType:CL_INVALID_VALUE:1",
       [] { return contextFromTypeErr(nullptr, CL_DEVICE_TYPE_ALL, nullptr, &userData); }},
      {"clCreateContextFromType:CL_INVALID_DEVICE_TYPE:1",
       [] { return contextFromTypeErr(nullptr, cl_device_type(1) << 40); }},
      {"clCreateContextFromType:CL_DEVICE_NOT_FOUND:1", [] { return contextFromTypeErr(nullptr, CL_DEVICE_TYPE_GPU); }},
      {"clCreateContextFromType:CL_DEVICE_NOT_FOUND:1",
       [platformProp] {
         const cl_context_properties p[] = {CL_CONTEXT_PLATFORM, platformProp(), 0};
         return contextFromTypeErr(p, CL_DEVICE_TYPE_CPU);
       }},

      {"clRetainContext:CL_INVALID_CONTEXT:1", [] { return clRetainContext(kBadContext); }},
      {"clRetainContext:CL_INVALID_CONTEXT:1", [] { return clRetainContext(releasedContext()); }},
      {"clReleaseContext:CL_INVALID_CONTEXT:1", [] { return clReleaseContext(kBadContext); }},
      {"clReleaseContext:CL_INVALID_CONTEXT:1", [] { return clReleaseContext(releasedContext()); }},

      {"clGetContextInfo:CL_INVALID_CONTEXT:1",
       [] { return clGetContextInfo(kBadContext, CL_CONTEXT_DEVICES, 0, nullptr, nullptr); }},
      {"clGetContextInfo:CL_INVALID_VALUE:1", [&f] { return clGetContextInfo(f.ctx, kBadParam, 0, nullptr, nullptr); }},
      {"clGetContextInfo:CL_INVALID_VALUE:2",
       [&f] {
         char s[1];
         return clGetContextInfo(f.ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof s, s, nullptr);
       }},
      {"clGetContextInfo:CL_INVALID_VALUE:2",
       [&f] {
         char s[1];
         return clGetContextInfo(f.ctx, CL_CONTEXT_DEVICES, sizeof s, s, nullptr);
       }},

      {"clSetContextDestructorCallback:CL_INVALID_CONTEXT:1",
       [] { return clSetContextDestructorCallback(kBadContext, contextDestructor, nullptr); }},
      {"clSetContextDestructorCallback:CL_INVALID_VALUE:1",
       [&f] { return clSetContextDestructorCallback(f.ctx, nullptr, nullptr); }},
  };
}

// ---- OpenCL 3.0 API §5.1 [[_command_queues]] command-queues, §5.16 [[_flush_and_finish]] flush and finish
// -------------------------------------------------

std::vector<ErrorCase> queueCases() {
  Fixture& f = fx();
  return {
      {"clCreateCommandQueueWithProperties:CL_INVALID_CONTEXT:1",
       [&f] { return queueWithPropertiesErr(kBadContext, f.device, nullptr); }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_DEVICE:1",
       [&f] { return queueWithPropertiesErr(f.ctx, kBadDevice, nullptr); }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_DEVICE:2",  // the root device is not a device of subCtx
       [&f] { return queueWithPropertiesErr(f.subCtx, f.device, nullptr); }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40, 0};  // no such bit
         return queueWithPropertiesErr(f.ctx, f.device, p);
       }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         const cl_queue_properties p[] = {0x7777, 0, 0};  // no such property
         return queueWithPropertiesErr(f.ctx, f.device, p);
       }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         const cl_queue_properties p[] = {CL_QUEUE_SIZE, 1024, 0};  // only with CL_QUEUE_ON_DEVICE
         return queueWithPropertiesErr(f.ctx, f.device, p);
       }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};  // requires out-of-order
         return queueWithPropertiesErr(f.ctx, f.device, p);
       }},
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
         return queueWithPropertiesErr(f.ctx, f.device, p);  // _DEFAULT only with CL_QUEUE_ON_DEVICE
       }},
      // CL_QUEUE_SIZE "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
      {"clCreateCommandQueueWithProperties:CL_INVALID_VALUE:1",
       [&f] {
         cl_uint max = 0;
         clGetDeviceInfo(f.device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max, &max, nullptr);
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_SIZE,
                                          cl_queue_properties(max) + 1, 0};
         return queueWithPropertiesErr(f.ctx, f.device, p);
       }},
      // One device queue more than CL_DEVICE_MAX_ON_DEVICE_QUEUES for the device in one context: the device has no
      // resources for it (the spec names no other code).
      {"clCreateCommandQueueWithProperties:CL_OUT_OF_RESOURCES:1",
       [&f] {
         cl_uint max = 0;
         clGetDeviceInfo(f.device, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof max, &max, nullptr);
         cl_int e;
         cl_context c = clCreateContext(nullptr, 1, &f.device, nullptr, nullptr, &e);
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
         std::vector<cl_command_queue> made;
         for (cl_uint i = 0; i < max; ++i) made.push_back(clCreateCommandQueueWithProperties(c, f.device, p, &e));
         const cl_int code = queueWithPropertiesErr(c, f.device, p);
         for (cl_command_queue q : made) clReleaseCommandQueue(q);
         clReleaseContext(c);
         return code;
       }},

      {"clCreateCommandQueue:CL_INVALID_CONTEXT:1", [&f] { return queueErr(kBadContext, f.device, 0); }},
      {"clCreateCommandQueue:CL_INVALID_DEVICE:1", [&f] { return queueErr(f.ctx, kBadDevice, 0); }},
      {"clCreateCommandQueue:CL_INVALID_DEVICE:2", [&f] { return queueErr(f.subCtx, f.device, 0); }},
      {"clCreateCommandQueue:CL_INVALID_VALUE:1",
       [&f] { return queueErr(f.ctx, f.device, cl_command_queue_properties(1) << 40); }},
      // Only out-of-order and profiling are valid for clCreateCommandQueue.
      {"clCreateCommandQueue:CL_INVALID_VALUE:1",
       [&f] { return queueErr(f.ctx, f.device, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }},

      {"clSetDefaultDeviceCommandQueue:CL_INVALID_CONTEXT:1",
       [&f] { return clSetDefaultDeviceCommandQueue(kBadContext, f.device, f.q); }},
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_DEVICE:1",
       [&f] { return clSetDefaultDeviceCommandQueue(f.ctx, kBadDevice, f.q); }},
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_DEVICE:2",
       [&f] { return clSetDefaultDeviceCommandQueue(f.subCtx, f.device, f.subQA); }},
      // Not a valid command-queue for device: no queue, a host command-queue, a device queue of another context.
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_COMMAND_QUEUE:1",
       [&f] { return clSetDefaultDeviceCommandQueue(f.ctx, f.device, kBadQueue); }},
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_COMMAND_QUEUE:1",
       [&f] { return clSetDefaultDeviceCommandQueue(f.ctx, f.device, f.q); }},
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_COMMAND_QUEUE:1",
       [&f] { return clSetDefaultDeviceCommandQueue(f.ctx2, f.device, f.dq); }},

      {"clRetainCommandQueue:CL_INVALID_COMMAND_QUEUE:1", [] { return clRetainCommandQueue(kBadQueue); }},
      {"clRetainCommandQueue:CL_INVALID_COMMAND_QUEUE:1", [] { return clRetainCommandQueue(releasedQueue()); }},
      {"clReleaseCommandQueue:CL_INVALID_COMMAND_QUEUE:1", [] { return clReleaseCommandQueue(kBadQueue); }},
      {"clReleaseCommandQueue:CL_INVALID_COMMAND_QUEUE:1", [] { return clReleaseCommandQueue(releasedQueue()); }},

      {"clGetCommandQueueInfo:CL_INVALID_COMMAND_QUEUE:1",
       [] { return clGetCommandQueueInfo(kBadQueue, CL_QUEUE_CONTEXT, 0, nullptr, nullptr); }},
      // CL_QUEUE_SIZE is valid only for a device queue.
      {"clGetCommandQueueInfo:CL_INVALID_COMMAND_QUEUE:2",
       [&f] { return clGetCommandQueueInfo(f.q, CL_QUEUE_SIZE, 0, nullptr, nullptr); }},
      {"clGetCommandQueueInfo:CL_INVALID_VALUE:1",
       [&f] { return clGetCommandQueueInfo(f.q, kBadParam, 0, nullptr, nullptr); }},
      {"clGetCommandQueueInfo:CL_INVALID_VALUE:2",
       [&f] {
         char s[1];
         return clGetCommandQueueInfo(f.q, CL_QUEUE_CONTEXT, sizeof s, s, nullptr);
       }},
      {"clGetCommandQueueInfo:CL_INVALID_VALUE:2",
       [&f] {
         cl_uint s;
         return clGetCommandQueueInfo(f.q, CL_QUEUE_PROPERTIES, sizeof s, &s, nullptr);
       }},

      {"clSetCommandQueueProperty:CL_INVALID_COMMAND_QUEUE:1",
       [] { return clSetCommandQueueProperty(kBadQueue, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, nullptr); }},
      // Modifying a queue's properties after creation (an OpenCL 1.0 feature) is not supported.
      {"clSetCommandQueueProperty:CL_INVALID_OPERATION:1",
       [&f] { return clSetCommandQueueProperty(f.q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, nullptr); }},

      {"clFlush:CL_INVALID_COMMAND_QUEUE:1", [] { return clFlush(kBadQueue); }},
      {"clFlush:CL_INVALID_COMMAND_QUEUE:1", [] { return clFlush(releasedQueue()); }},
      {"clFinish:CL_INVALID_COMMAND_QUEUE:1", [] { return clFinish(kBadQueue); }},
      {"clFinish:CL_INVALID_COMMAND_QUEUE:1", [] { return clFinish(releasedQueue()); }},
      // A device queue is no host command-queue.
      {"clFlush:CL_INVALID_COMMAND_QUEUE:1", [&f] { return clFlush(f.dq); }},
      {"clFinish:CL_INVALID_COMMAND_QUEUE:1", [&f] { return clFinish(f.dq); }},
  };
}

// ---- OpenCL 3.0 API §5.11 [[event-objects]] events, §5.15 [[profiling-operations]] profiling
// ----------------------------------------------------------------

std::vector<ErrorCase> eventCases() {
  Fixture& f = fx();
  return {
      {"clCreateUserEvent:CL_INVALID_CONTEXT:1",
       [] { return err([](cl_int* e) { clCreateUserEvent(kBadContext, e); }); }},

      {"clSetUserEventStatus:CL_INVALID_EVENT:1", [] { return clSetUserEventStatus(kBadEvent, CL_COMPLETE); }},
      {"clSetUserEventStatus:CL_INVALID_EVENT:1",
       [&f] { return clSetUserEventStatus(f.ev2, CL_COMPLETE); }},  // a marker's event
      {"clSetUserEventStatus:CL_INVALID_VALUE:1",
       [&f] { return withUserEvent(f.ctx, [](cl_event u) { return clSetUserEventStatus(u, CL_RUNNING); }); }},
      {"clSetUserEventStatus:CL_INVALID_VALUE:1",
       [&f] { return withUserEvent(f.ctx, [](cl_event u) { return clSetUserEventStatus(u, CL_QUEUED); }); }},
      {"clSetUserEventStatus:CL_INVALID_OPERATION:1",
       [&f] {
         return withUserEvent(f.ctx, [](cl_event u) {
           clSetUserEventStatus(u, CL_COMPLETE);
           return clSetUserEventStatus(u, CL_COMPLETE);
         });
       }},
      {"clSetUserEventStatus:CL_INVALID_OPERATION:1",
       [&f] {
         return withUserEvent(f.ctx, [](cl_event u) {
           clSetUserEventStatus(u, -1);
           return clSetUserEventStatus(u, CL_COMPLETE);
         });
       }},

      {"clWaitForEvents:CL_INVALID_VALUE:1", [&f] { return clWaitForEvents(0, &f.ev2); }},
      {"clWaitForEvents:CL_INVALID_VALUE:1", [] { return clWaitForEvents(1, nullptr); }},
      {"clWaitForEvents:CL_INVALID_CONTEXT:1",
       [&f] {
         return withUserEvent(f.ctx, [&f](cl_event u) {
           const cl_event l[] = {u, f.ev2};
           return clWaitForEvents(2, l);
         });
       }},
      {"clWaitForEvents:CL_INVALID_EVENT:1", [] { return clWaitForEvents(1, &kBadEvent); }},
      {"clWaitForEvents:CL_INVALID_EVENT:1",
       [&f] {
         const cl_event l[] = {f.ev2, releasedEvent()};
         return clWaitForEvents(2, l);
       }},
      {"clWaitForEvents:CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:1",
       [&f] {
         return withUserEvent(f.ctx, [](cl_event u) {
           clSetUserEventStatus(u, -5);
           return clWaitForEvents(1, &u);
         });
       }},
      // A marker that waited on a failed event terminates abnormally too (OpenCL 3.0 API §5.11 [[event-objects]]).
      {"clWaitForEvents:CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:1",
       [&f] {
         return withUserEvent(f.ctx, [&f](cl_event u) {
           cl_event m = nullptr;
           clEnqueueMarkerWithWaitList(f.q, 1, &u, &m);
           clSetUserEventStatus(u, -5);
           const cl_int e = clWaitForEvents(1, &m);
           clReleaseEvent(m);
           return e;
         });
       }},

      {"clGetEventInfo:CL_INVALID_EVENT:1",
       [] { return clGetEventInfo(kBadEvent, CL_EVENT_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetEventInfo:CL_INVALID_EVENT:1",
       [] { return clGetEventInfo(releasedEvent(), CL_EVENT_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetEventInfo:CL_INVALID_VALUE:1", [&f] { return clGetEventInfo(f.ev2, kBadParam, 0, nullptr, nullptr); }},
      {"clGetEventInfo:CL_INVALID_VALUE:1",
       [&f] {
         char s[1];
         return clGetEventInfo(f.ev2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, s, nullptr);
       }},

      {"clSetEventCallback:CL_INVALID_EVENT:1",
       [] { return clSetEventCallback(kBadEvent, CL_COMPLETE, eventNotify, nullptr); }},
      {"clSetEventCallback:CL_INVALID_VALUE:1",
       [&f] { return clSetEventCallback(f.ev2, CL_COMPLETE, nullptr, nullptr); }},
      {"clSetEventCallback:CL_INVALID_VALUE:1",
       [&f] { return clSetEventCallback(f.ev2, CL_QUEUED, eventNotify, nullptr); }},
      {"clSetEventCallback:CL_INVALID_VALUE:1", [&f] { return clSetEventCallback(f.ev2, -1, eventNotify, nullptr); }},

      {"clRetainEvent:CL_INVALID_EVENT:1", [] { return clRetainEvent(kBadEvent); }},
      {"clRetainEvent:CL_INVALID_EVENT:1", [] { return clRetainEvent(releasedEvent()); }},
      {"clReleaseEvent:CL_INVALID_EVENT:1", [] { return clReleaseEvent(kBadEvent); }},
      {"clReleaseEvent:CL_INVALID_EVENT:1", [] { return clReleaseEvent(releasedEvent()); }},

      {"clGetEventProfilingInfo:CL_INVALID_EVENT:1",
       [] {
         cl_ulong t;
         return clGetEventProfilingInfo(kBadEvent, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr);
       }},
      // The three situations: a queue without CL_QUEUE_PROFILING_ENABLE, a command not complete,
      // a user event.
      {"clGetEventProfilingInfo:CL_PROFILING_INFO_NOT_AVAILABLE:1",
       [&f] {
         cl_ulong t;
         return clGetEventProfilingInfo(f.ev2, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr);
       }},
      {"clGetEventProfilingInfo:CL_PROFILING_INFO_NOT_AVAILABLE:1",
       [&f] {
         return withProfilingQueue([&f](cl_command_queue pq) {
           return withUserEvent(f.ctx, [pq](cl_event u) {
             cl_event m = nullptr;
             clEnqueueMarkerWithWaitList(pq, 1, &u, &m);  // waits for u: not complete
             cl_ulong t;
             const cl_int e = clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr);
             clReleaseEvent(m);
             return e;
           });
         });
       }},
      {"clGetEventProfilingInfo:CL_PROFILING_INFO_NOT_AVAILABLE:1",
       [&f] {
         return withUserEvent(f.ctx, [](cl_event u) {
           clSetUserEventStatus(u, CL_COMPLETE);
           cl_ulong t;
           return clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr);
         });
       }},
      // On a complete command of a profiling queue: an unknown query, a too small cl_ulong.
      {"clGetEventProfilingInfo:CL_INVALID_VALUE:1",
       [] {
         return withProfilingQueue([](cl_command_queue pq) {
           cl_event m = nullptr;
           clEnqueueMarkerWithWaitList(pq, 0, nullptr, &m);
           clWaitForEvents(1, &m);
           cl_ulong t;
           const cl_int e = clGetEventProfilingInfo(m, kBadParam, sizeof t, &t, nullptr);
           clReleaseEvent(m);
           return e;
         });
       }},
      {"clGetEventProfilingInfo:CL_INVALID_VALUE:1",
       [] {
         return withProfilingQueue([](cl_command_queue pq) {
           cl_event m = nullptr;
           clEnqueueMarkerWithWaitList(pq, 0, nullptr, &m);
           clWaitForEvents(1, &m);
           cl_uint small;
           const cl_int e = clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, sizeof small, &small, nullptr);
           clReleaseEvent(m);
           return e;
         });
       }},
  };
}

// ---- OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] markers, barriers and waits
// -----------------------------------------------------------

// The wait-list conditions shared by clEnqueueMarkerWithWaitList and clEnqueueBarrierWithWaitList.
using WaitListEnqueue = cl_int(CL_API_CALL*)(cl_command_queue, cl_uint, const cl_event*, cl_event*);
std::vector<ErrorCase> waitListCases(const std::string& entry, WaitListEnqueue enqueue) {
  Fixture& f = fx();
  return {
      {entry + ":CL_INVALID_COMMAND_QUEUE:1", [enqueue] { return enqueue(kBadQueue, 0, nullptr, nullptr); }},
      {entry + ":CL_INVALID_COMMAND_QUEUE:1", [enqueue] { return enqueue(releasedQueue(), 0, nullptr, nullptr); }},
      // ev2 belongs to ctx2, q to ctx.
      {entry + ":CL_INVALID_CONTEXT:1", [&f, enqueue] { return enqueue(f.q, 1, &f.ev2, nullptr); }},
      {entry + ":CL_INVALID_EVENT_WAIT_LIST:1", [&f, enqueue] { return enqueue(f.q, 2, nullptr, nullptr); }},
      {entry + ":CL_INVALID_EVENT_WAIT_LIST:1",
       [&f, enqueue] {
         return withUserEvent(f.ctx, [&f, enqueue](cl_event u) { return enqueue(f.q, 0, &u, nullptr); });
       }},
      {entry + ":CL_INVALID_EVENT_WAIT_LIST:1", [&f, enqueue] { return enqueue(f.q, 1, &kBadEvent, nullptr); }},
      {entry + ":CL_INVALID_EVENT_WAIT_LIST:1",
       [&f, enqueue] {
         const cl_event ev = releasedEvent();
         return enqueue(f.q, 1, &ev, nullptr);
       }},
  };
}

std::vector<ErrorCase> markerCases() {
  Fixture& f = fx();
  std::vector<ErrorCase> v = waitListCases("clEnqueueMarkerWithWaitList", clEnqueueMarkerWithWaitList);
  for (ErrorCase& c : waitListCases("clEnqueueBarrierWithWaitList", clEnqueueBarrierWithWaitList))
    v.push_back(std::move(c));
  std::vector<ErrorCase> legacy = {
      {"clEnqueueMarker:CL_INVALID_COMMAND_QUEUE:1",
       [] {
         cl_event e = nullptr;
         return clEnqueueMarker(kBadQueue, &e);
       }},
      {"clEnqueueMarker:CL_INVALID_VALUE:1", [&f] { return clEnqueueMarker(f.q, nullptr); }},
      {"clEnqueueBarrier:CL_INVALID_COMMAND_QUEUE:1", [] { return clEnqueueBarrier(kBadQueue); }},
      {"clEnqueueBarrier:CL_INVALID_COMMAND_QUEUE:1", [] { return clEnqueueBarrier(releasedQueue()); }},
      {"clEnqueueWaitForEvents:CL_INVALID_COMMAND_QUEUE:1",
       [&f] { return withUserEvent(f.ctx, [](cl_event u) { return clEnqueueWaitForEvents(kBadQueue, 1, &u); }); }},
      {"clEnqueueWaitForEvents:CL_INVALID_CONTEXT:1", [&f] { return clEnqueueWaitForEvents(f.q, 1, &f.ev2); }},
      {"clEnqueueWaitForEvents:CL_INVALID_VALUE:1",
       [&f] { return withUserEvent(f.ctx, [&f](cl_event u) { return clEnqueueWaitForEvents(f.q, 0, &u); }); }},
      {"clEnqueueWaitForEvents:CL_INVALID_VALUE:1", [&f] { return clEnqueueWaitForEvents(f.q, 1, nullptr); }},
  };
  for (ErrorCase& c : legacy) v.push_back(std::move(c));
  return v;
}

std::vector<ErrorCase> cases() {
  std::vector<ErrorCase> all;
  for (auto part : {platformCases, contextCases, queueCases, eventCases, markerCases})
    for (ErrorCase& c : part()) all.push_back(std::move(c));
  return all;
}

// ---- conditions not provoked ------------------------------------------------------------------

// Every entry point of this area lists CL_OUT_OF_HOST_MEMORY, and all but the two platform
// queries CL_OUT_OF_RESOURCES, only for a failed allocation.
const char* const kEntries[] = {"clGetPlatformIDs",
                                "clGetPlatformInfo",
                                "clGetDeviceIDs",
                                "clGetDeviceInfo",
                                "clGetDeviceAndHostTimer",
                                "clGetHostTimer",
                                "clCreateSubDevices",
                                "clRetainDevice",
                                "clReleaseDevice",
                                "clCreateContext",
                                "clCreateContextFromType",
                                "clRetainContext",
                                "clReleaseContext",
                                "clGetContextInfo",
                                "clSetContextDestructorCallback",
                                "clCreateCommandQueueWithProperties",
                                "clCreateCommandQueue",
                                "clSetDefaultDeviceCommandQueue",
                                "clRetainCommandQueue",
                                "clReleaseCommandQueue",
                                "clGetCommandQueueInfo",
                                "clSetCommandQueueProperty",
                                "clCreateUserEvent",
                                "clSetUserEventStatus",
                                "clWaitForEvents",
                                "clGetEventInfo",
                                "clSetEventCallback",
                                "clRetainEvent",
                                "clReleaseEvent",
                                "clEnqueueMarkerWithWaitList",
                                "clEnqueueMarker",
                                "clEnqueueWaitForEvents",
                                "clEnqueueBarrierWithWaitList",
                                "clEnqueueBarrier",
                                "clGetEventProfilingInfo",
                                "clFlush",
                                "clFinish"};

// CL_OUT_OF_HOST_MEMORY of the entry points that allocate nothing on the host for a valid call
// (checked: no allocation during the call), or that fail for an unsupported feature first; the
// others are provoked (errors_host_memory_test.cpp).
std::string noHostMemoryFailure(const std::string& entry) {
  const std::map<std::string, std::string> what = {
      {"clGetPlatformIDs", "it returns the one static platform"},
      {"clGetDeviceIDs", "it returns the one static device"},
      {"clGetDeviceAndHostTimer", "it reads the clock"},
      {"clGetHostTimer", "it reads the clock"},
      {"clRetainDevice", "a reference count increment, or nothing for a root device"},
      {"clReleaseDevice", "a reference count decrement; a sub-device is deleted at once"},
      {"clRetainContext", "a reference count increment"},
      {"clGetContextInfo", "every answer is a field or a stored array"},
      {"clRetainCommandQueue", "a reference count increment"},
      {"clReleaseCommandQueue", "a reference count decrement; a queue is deleted at once"},
      {"clGetCommandQueueInfo", "every answer is a field or a stored array"},
      {"clGetEventInfo", "every answer is a field"},
      {"clRetainEvent", "a reference count increment"},
      {"clReleaseEvent", "a reference count decrement; an event is deleted at once"},
      {"clGetEventProfilingInfo", "every answer is a stored timestamp"},
      {"clFlush", "commands are submitted when enqueued; flushing does nothing"},
      {"clFinish", "it waits for the queue to empty"},
  };
  if (entry == "clSetCommandQueueProperty")
    return entry +
           " never reaches an allocation: with any arguments it fails for an unsupported feature first (changing a "
           "queue's properties: see its tested error)";
  if (entry == "clSetDefaultDeviceCommandQueue")
    return entry +
           " allocates nothing on the host (it replaces a pointer the context keeps for each of its devices from its "
           "creation), so it cannot run out of host memory; checked: no allocation during a valid call "
           "(device_queue_behaviour_test.cpp)";
  auto it = what.find(entry);
  if (it == what.end()) return "";
  return entry + " allocates nothing on the host (" + it->second +
         "), so it cannot run out of host memory; checked: no allocation during "
         "a valid call";
}

std::vector<NotTested> allocationFailures() {
  std::vector<NotTested> v;
  for (const std::string entry : kEntries) {
    if (std::string why = noHostMemoryFailure(entry); !why.empty())
      v.push_back({entry + ":CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory, why});
    if (entry == "clGetPlatformIDs" || entry == "clGetPlatformInfo") continue;  // they list no CL_OUT_OF_RESOURCES
    if (entry == "clCreateCommandQueueWithProperties") continue;                // provoked: one device queue too many
    v.push_back({entry + ":CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
                 "the spec gives only a failed device allocation as its cause; " + entry +
                     " allocates no device resources clref could fail to get"});
  }
  return v;
}

std::vector<NotTested> unprovokable() {
  return {
      {"clGetPlatformIDs:CL_PLATFORM_NOT_FOUND_KHR:1", Why::Unreachable,
       "clref's library always has exactly one platform, so zero platforms are never available"},
      {"clGetDeviceAndHostTimer:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the platform supports device and host timer synchronization (CL_PLATFORM_HOST_TIMER_RESOLUTION is 1 ns; "
       "device and host share one clock)"},
      {"clGetHostTimer:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the platform supports device and host timer synchronization (CL_PLATFORM_HOST_TIMER_RESOLUTION is 1 ns)"},
      {"clCreateContext:CL_INVALID_PLATFORM:1", Why::Unreachable,
       "without CL_CONTEXT_PLATFORM the one clref platform (the devices' platform) is always selected"},
      {"clCreateContext:CL_DEVICE_NOT_AVAILABLE:1", Why::Unreachable,
       "clref's devices (the root device and its sub-devices) are always available (CL_DEVICE_AVAILABLE is CL_TRUE)"},
      {"clCreateContextFromType:CL_INVALID_PLATFORM:1", Why::Unreachable,
       "without CL_CONTEXT_PLATFORM the one clref platform is always selected"},
      {"clCreateContextFromType:CL_DEVICE_NOT_AVAILABLE:1", Why::Unreachable,
       "clref's devices (the root device and its sub-devices) are always available (CL_DEVICE_AVAILABLE is CL_TRUE); a "
       "type it does not match gives "
       "CL_DEVICE_NOT_FOUND (tested)"},
      {"clCreateCommandQueue:CL_INVALID_QUEUE_PROPERTIES:1", Why::Unreachable,
       "clCreateCommandQueue's only valid properties are out-of-order execution and profiling, and the device "
       "supports both (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES); any other bit is not valid: CL_INVALID_VALUE:1 (tested)"},
      {"clCreateCommandQueueWithProperties:CL_INVALID_QUEUE_PROPERTIES:1", Why::Unreachable,
       "the device supports every valid queue property: out-of-order and profiling for host queues "
       "(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES), and device queues with both (CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES); a "
       "device without device-side enqueue (CLREF_DEVICE_ENQUEUE=0) refuses a device queue with this code "
       "(device_queue_behaviour_test.cpp, [.device_enqueue_off])"},
      {"clSetDefaultDeviceCommandQueue:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the device supports a replaceable default on-device queue (CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT); a device "
       "without device-side enqueue (CLREF_DEVICE_ENQUEUE=0) returns this code (device_queue_behaviour_test.cpp, "
       "[.device_enqueue_off])"},
      {"clSetCommandQueueProperty:CL_INVALID_VALUE:1", Why::Unsupported,
       "modifying a queue's properties after creation (required only of OpenCL 1.0 devices) is not supported, and the "
       "spec lets the call then fail unconditionally: clSetCommandQueueProperty:CL_INVALID_OPERATION:1 (tested)"},
      {"clSetCommandQueueProperty:CL_INVALID_QUEUE_PROPERTIES:1", Why::Unsupported,
       "modifying a queue's properties after creation is not supported: "
       "clSetCommandQueueProperty:CL_INVALID_OPERATION:1 "
       "(tested); besides, both valid properties are supported by the device"},
      {"clGetEventInfo:CL_INVALID_VALUE:2", Why::Unreachable,
       "every query of the Event Object Queries table applies to every event clref can create (a user event's "
       "CL_EVENT_COMMAND_QUEUE is NULL, not an error); only extension events clref does not report restrict them"},
  };
}

std::vector<NotTested> notTested() {
  std::vector<NotTested> v = allocationFailures();
  for (NotTested& n : unprovokable()) v.push_back(std::move(n));
  return v;
}

const bool registered = registerErrorTable({"platform", cases, notTested()});

}  // namespace
}  // namespace clref_test
