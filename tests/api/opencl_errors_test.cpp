// Table-driven error-condition tests of the OpenCL C API (linked directly against clref's
// library): per entry point, each error condition the OpenCL 3.0 API specification lists is
// provoked and the returned code checked. Also a few behaviour checks (reference counts,
// callbacks, user events, sub-buffers, kernel faults).
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

struct Fixture {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context ctx = nullptr, ctx2 = nullptr;
  cl_command_queue q = nullptr, q2 = nullptr;
  cl_mem buf = nullptr, buf2 = nullptr, sub = nullptr, hostWriteOnly = nullptr, ctx2buf = nullptr;
  cl_program il = nullptr, unbuilt = nullptr;
  cl_kernel vadd = nullptr, reduce = nullptr;
  cl_event ev2 = nullptr;  // an event of ctx2
  std::vector<unsigned char> vaddSpv, reduceSpv;

  static std::vector<unsigned char> read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  Fixture() {
    cl_int e;
    clGetPlatformIDs(1, &platform, nullptr);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    ctx2 = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &e);
    q2 = clCreateCommandQueueWithProperties(ctx2, device, nullptr, &e);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, nullptr, &e);
    buf2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, nullptr, &e);
    cl_buffer_region r{128, 256};
    sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    hostWriteOnly = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 64, nullptr, &e);
    ctx2buf = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, 64, nullptr, &e);
    vaddSpv = read(CLREF_GOLDEN_DIR "/spv/vadd.O2.spv");
    reduceSpv = read(CLREF_GOLDEN_DIR "/spv/reduce.O2.spv");
    il = clCreateProgramWithIL(ctx, vaddSpv.data(), vaddSpv.size(), &e);
    clBuildProgram(il, 0, nullptr, "-cl-std=CL1.2 -DX=1 -cl-fast-relaxed-math", nullptr, nullptr);
    unbuilt = clCreateProgramWithIL(ctx, vaddSpv.data(), vaddSpv.size(), &e);
    vadd = clCreateKernel(il, "vadd", &e);
    for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(vadd, i, sizeof buf, &buf);
    cl_program rp = clCreateProgramWithIL(ctx, reduceSpv.data(), reduceSpv.size(), &e);
    clBuildProgram(rp, 0, nullptr, nullptr, nullptr, nullptr);
    reduce = clCreateKernel(rp, "reduce_int_sum", &e);
    clReleaseProgram(rp);  // the kernel keeps it alive
    clEnqueueMarkerWithWaitList(q2, 0, nullptr, &ev2);
  }
};

Fixture& fx() {
  static Fixture f;
  return f;
}

struct Case {
  const char* entry;      // the entry point
  const char* condition;  // the spec's condition, abbreviated
  cl_int expected;
  std::function<cl_int()> provoke;
};

cl_int err(std::function<void(cl_int*)> f) {
  cl_int e = 12345;
  f(&e);
  return e;
}

const cl_context kBadContext = reinterpret_cast<cl_context>(uintptr_t(0x1234));
const cl_command_queue kBadQueue = reinterpret_cast<cl_command_queue>(uintptr_t(0x1234));
const cl_mem kBadMem = reinterpret_cast<cl_mem>(uintptr_t(0x1234));
const cl_program kBadProgram = reinterpret_cast<cl_program>(uintptr_t(0x1234));
const cl_kernel kBadKernel = reinterpret_cast<cl_kernel>(uintptr_t(0x1234));
const cl_event kBadEvent = reinterpret_cast<cl_event>(uintptr_t(0x1234));
const cl_device_id kBadDevice = reinterpret_cast<cl_device_id>(uintptr_t(0x1234));
const cl_platform_id kBadPlatform = reinterpret_cast<cl_platform_id>(uintptr_t(0x1234));

std::vector<Case> cases() {
  auto& f = fx();
  char buf[64];
  static float host[1024];
  static size_t origin[3] = {0, 0, 0}, region[3] = {16, 1, 1}, zeroRegion[3] = {0, 1, 1}, bigRegion[3] = {8192, 1, 1};
  return {
      // §4.1 clGetPlatformIDs
      {"clGetPlatformIDs", "num_entries 0 and platforms not NULL", CL_INVALID_VALUE,
       [&] { cl_platform_id p; return clGetPlatformIDs(0, &p, nullptr); }},
      {"clGetPlatformIDs", "num_platforms and platforms NULL", CL_INVALID_VALUE, [] { return clGetPlatformIDs(1, nullptr, nullptr); }},
      // §4.1 clGetPlatformInfo
      {"clGetPlatformInfo", "invalid platform", CL_INVALID_PLATFORM,
       [] { return clGetPlatformInfo(kBadPlatform, CL_PLATFORM_NAME, 0, nullptr, nullptr); }},
      {"clGetPlatformInfo", "param_name not supported", CL_INVALID_VALUE,
       [&] { return clGetPlatformInfo(f.platform, 0xdead, 0, nullptr, nullptr); }},
      {"clGetPlatformInfo", "param_value_size too small", CL_INVALID_VALUE,
       [&] { return clGetPlatformInfo(f.platform, CL_PLATFORM_NAME, 1, buf, nullptr); }},
      // §4.2 clGetDeviceIDs
      {"clGetDeviceIDs", "invalid platform", CL_INVALID_PLATFORM,
       [] { cl_uint n; return clGetDeviceIDs(kBadPlatform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n); }},
      {"clGetDeviceIDs", "invalid device_type", CL_INVALID_DEVICE_TYPE,
       [&] { cl_uint n; return clGetDeviceIDs(f.platform, cl_device_type(1) << 40, 0, nullptr, &n); }},
      {"clGetDeviceIDs", "num_entries 0 and devices not NULL", CL_INVALID_VALUE,
       [&] { cl_device_id d; return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_ALL, 0, &d, nullptr); }},
      {"clGetDeviceIDs", "num_devices and devices NULL", CL_INVALID_VALUE,
       [&] { return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr); }},
      {"clGetDeviceIDs", "no device of the type", CL_DEVICE_NOT_FOUND,
       [&] { cl_uint n; return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &n); }},
      // §4.2 clGetDeviceInfo
      {"clGetDeviceInfo", "invalid device", CL_INVALID_DEVICE, [] { return clGetDeviceInfo(kBadDevice, CL_DEVICE_NAME, 0, nullptr, nullptr); }},
      {"clGetDeviceInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetDeviceInfo(f.device, 0xdead, 0, nullptr, nullptr); }},
      {"clGetDeviceInfo", "param_value_size too small", CL_INVALID_VALUE,
       [&] { return clGetDeviceInfo(f.device, CL_DEVICE_NAME, 2, buf, nullptr); }},
      // §4.3 clCreateSubDevices
      {"clCreateSubDevices", "invalid in_device", CL_INVALID_DEVICE, [] { return clCreateSubDevices(kBadDevice, nullptr, 0, nullptr, nullptr); }},
      {"clCreateSubDevices", "properties not supported", CL_INVALID_VALUE, [&] {
         cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         return clCreateSubDevices(f.device, p, 0, nullptr, nullptr);
       }},
      // §4.4 clCreateContext
      {"clCreateContext", "invalid platform property", CL_INVALID_PLATFORM, [&] {
         cl_context_properties p[] = {CL_CONTEXT_PLATFORM, cl_context_properties(kBadPlatform), 0};
         return err([&](cl_int* e) { clCreateContext(p, 1, &f.device, nullptr, nullptr, e); });
       }},
      {"clCreateContext", "unsupported property name", CL_INVALID_PROPERTY, [&] {
         cl_context_properties p[] = {0x7777, 0, 0};
         return err([&](cl_int* e) { clCreateContext(p, 1, &f.device, nullptr, nullptr, e); });
       }},
      {"clCreateContext", "property specified twice", CL_INVALID_PROPERTY, [&] {
         cl_context_properties p[] = {CL_CONTEXT_PLATFORM, cl_context_properties(f.platform), CL_CONTEXT_PLATFORM,
                                      cl_context_properties(f.platform), 0};
         return err([&](cl_int* e) { clCreateContext(p, 1, &f.device, nullptr, nullptr, e); });
       }},
      {"clCreateContext", "devices NULL", CL_INVALID_VALUE, [] { return err([](cl_int* e) { clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, e); }); }},
      {"clCreateContext", "num_devices 0", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateContext(nullptr, 0, &f.device, nullptr, nullptr, e); }); }},
      {"clCreateContext", "pfn_notify NULL, user_data not", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateContext(nullptr, 1, &f.device, nullptr, buf, e); }); }},
      {"clCreateContext", "invalid device", CL_INVALID_DEVICE,
       [] { return err([](cl_int* e) { clCreateContext(nullptr, 1, &kBadDevice, nullptr, nullptr, e); }); }},
      // §4.4 clCreateContextFromType
      {"clCreateContextFromType", "invalid device_type", CL_INVALID_DEVICE_TYPE,
       [] { return err([](cl_int* e) { clCreateContextFromType(nullptr, cl_device_type(1) << 40, nullptr, nullptr, e); }); }},
      {"clCreateContextFromType", "no device of the type", CL_DEVICE_NOT_FOUND,
       [] { return err([](cl_int* e) { clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, e); }); }},
      {"clCreateContextFromType", "pfn_notify NULL, user_data not", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateContextFromType(nullptr, CL_DEVICE_TYPE_ALL, nullptr, buf, e); }); }},
      {"clCreateContextFromType", "invalid property", CL_INVALID_PROPERTY, [] {
         cl_context_properties p[] = {0x7777, 0, 0};
         return err([&](cl_int* e) { clCreateContextFromType(p, CL_DEVICE_TYPE_ALL, nullptr, nullptr, e); });
       }},
      {"clRetainContext", "invalid context", CL_INVALID_CONTEXT, [] { return clRetainContext(kBadContext); }},
      {"clReleaseContext", "invalid context", CL_INVALID_CONTEXT, [] { return clReleaseContext(kBadContext); }},
      {"clGetContextInfo", "invalid context", CL_INVALID_CONTEXT,
       [] { return clGetContextInfo(kBadContext, CL_CONTEXT_DEVICES, 0, nullptr, nullptr); }},
      {"clGetContextInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetContextInfo(f.ctx, 0xdead, 0, nullptr, nullptr); }},
      {"clGetContextInfo", "param_value_size too small", CL_INVALID_VALUE,
       [&] { return clGetContextInfo(f.ctx, CL_CONTEXT_REFERENCE_COUNT, 1, buf, nullptr); }},
      {"clSetContextDestructorCallback", "invalid context", CL_INVALID_CONTEXT,
       [] { return clSetContextDestructorCallback(kBadContext, [](cl_context, void*) {}, nullptr); }},
      {"clSetContextDestructorCallback", "pfn_notify NULL", CL_INVALID_VALUE, [&] { return clSetContextDestructorCallback(f.ctx, nullptr, nullptr); }},
      // §5.1 command queues
      {"clCreateCommandQueueWithProperties", "invalid context", CL_INVALID_CONTEXT,
       [&] { return err([&](cl_int* e) { clCreateCommandQueueWithProperties(kBadContext, f.device, nullptr, e); }); }},
      {"clCreateCommandQueueWithProperties", "invalid device", CL_INVALID_DEVICE,
       [&] { return err([&](cl_int* e) { clCreateCommandQueueWithProperties(f.ctx, kBadDevice, nullptr, e); }); }},
      {"clCreateCommandQueueWithProperties", "invalid property values", CL_INVALID_VALUE, [&] {
         cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40, 0};
         return err([&](cl_int* e) { clCreateCommandQueueWithProperties(f.ctx, f.device, p, e); });
       }},
      {"clCreateCommandQueueWithProperties", "valid but unsupported (on-device queue)", CL_INVALID_QUEUE_PROPERTIES, [&] {
         cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
         return err([&](cl_int* e) { clCreateCommandQueueWithProperties(f.ctx, f.device, p, e); });
       }},
      {"clCreateCommandQueue", "invalid context", CL_INVALID_CONTEXT,
       [&] { return err([&](cl_int* e) { clCreateCommandQueue(kBadContext, f.device, 0, e); }); }},
      {"clCreateCommandQueue", "invalid device", CL_INVALID_DEVICE, [&] { return err([&](cl_int* e) { clCreateCommandQueue(f.ctx, kBadDevice, 0, e); }); }},
      {"clCreateCommandQueue", "invalid properties", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateCommandQueue(f.ctx, f.device, cl_command_queue_properties(1) << 40, e); }); }},
      {"clRetainCommandQueue", "invalid queue", CL_INVALID_COMMAND_QUEUE, [] { return clRetainCommandQueue(kBadQueue); }},
      {"clReleaseCommandQueue", "invalid queue", CL_INVALID_COMMAND_QUEUE, [] { return clReleaseCommandQueue(kBadQueue); }},
      {"clGetCommandQueueInfo", "invalid queue", CL_INVALID_COMMAND_QUEUE,
       [] { return clGetCommandQueueInfo(kBadQueue, CL_QUEUE_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetCommandQueueInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetCommandQueueInfo(f.q, 0xdead, 0, nullptr, nullptr); }},
      {"clFlush", "invalid queue", CL_INVALID_COMMAND_QUEUE, [] { return clFlush(kBadQueue); }},
      {"clFinish", "invalid queue", CL_INVALID_COMMAND_QUEUE, [] { return clFinish(kBadQueue); }},
      // §5.2.1 clCreateBuffer
      {"clCreateBuffer", "invalid context", CL_INVALID_CONTEXT, [] { return err([](cl_int* e) { clCreateBuffer(kBadContext, 0, 16, nullptr, e); }); }},
      {"clCreateBuffer", "invalid flags (two access flags)", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, nullptr, e); }); }},
      {"clCreateBuffer", "USE_HOST_PTR with COPY_HOST_PTR", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host, e); }); }},
      {"clCreateBuffer", "size 0", CL_INVALID_BUFFER_SIZE, [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, 0, 0, nullptr, e); }); }},
      {"clCreateBuffer", "size > CL_DEVICE_MAX_MEM_ALLOC_SIZE", CL_INVALID_BUFFER_SIZE,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, 0, size_t(1) << 40, nullptr, e); }); }},
      {"clCreateBuffer", "host_ptr NULL with USE_HOST_PTR", CL_INVALID_HOST_PTR,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR, 16, nullptr, e); }); }},
      {"clCreateBuffer", "host_ptr NULL with COPY_HOST_PTR", CL_INVALID_HOST_PTR,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 16, nullptr, e); }); }},
      {"clCreateBuffer", "host_ptr without USE/COPY", CL_INVALID_HOST_PTR,
       [&] { return err([&](cl_int* e) { clCreateBuffer(f.ctx, 0, 16, host, e); }); }},
      {"clCreateBufferWithProperties", "unsupported property", CL_INVALID_PROPERTY, [&] {
         cl_mem_properties p[] = {0x7777, 0, 0};
         return err([&](cl_int* e) { clCreateBufferWithProperties(f.ctx, p, 0, 16, nullptr, e); });
       }},
      // §5.2.1 clCreateSubBuffer
      {"clCreateSubBuffer", "buffer not valid", CL_INVALID_MEM_OBJECT, [] {
         cl_buffer_region r{0, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(kBadMem, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "buffer is a sub-buffer", CL_INVALID_MEM_OBJECT, [&] {
         cl_buffer_region r{0, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(f.sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "HOST_PTR flags", CL_INVALID_VALUE, [&] {
         cl_buffer_region r{0, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(f.buf, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "parent WRITE_ONLY, flags READ_ONLY", CL_INVALID_VALUE, [&] {
         cl_int e0;
         cl_mem wo = clCreateBuffer(f.ctx, CL_MEM_WRITE_ONLY, 256, nullptr, &e0);
         cl_buffer_region r{0, 16};
         cl_int e = err([&](cl_int* ep) { clCreateSubBuffer(wo, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, ep); });
         clReleaseMemObject(wo);
         return e;
       }},
      {"clCreateSubBuffer", "parent HOST_WRITE_ONLY, flags HOST_READ_ONLY", CL_INVALID_VALUE, [&] {
         cl_buffer_region r{0, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(f.hostWriteOnly, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "invalid buffer_create_type", CL_INVALID_VALUE, [&] {
         cl_buffer_region r{0, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, 0x9999, &r, e); });
       }},
      {"clCreateSubBuffer", "buffer_create_info NULL", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, e); }); }},
      {"clCreateSubBuffer", "region out of bounds", CL_INVALID_VALUE, [&] {
         cl_buffer_region r{4096, 128};
         return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "region size 0", CL_INVALID_BUFFER_SIZE, [&] {
         cl_buffer_region r{0, 0};
         return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      {"clCreateSubBuffer", "origin not aligned to MEM_BASE_ADDR_ALIGN", CL_MISALIGNED_SUB_BUFFER_OFFSET, [&] {
         cl_buffer_region r{4, 16};
         return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
       }},
      // §5.5 memory objects
      {"clRetainMemObject", "invalid mem", CL_INVALID_MEM_OBJECT, [] { return clRetainMemObject(kBadMem); }},
      {"clReleaseMemObject", "invalid mem", CL_INVALID_MEM_OBJECT, [] { return clReleaseMemObject(kBadMem); }},
      {"clSetMemObjectDestructorCallback", "invalid mem", CL_INVALID_MEM_OBJECT,
       [] { return clSetMemObjectDestructorCallback(kBadMem, [](cl_mem, void*) {}, nullptr); }},
      {"clSetMemObjectDestructorCallback", "pfn_notify NULL", CL_INVALID_VALUE, [&] { return clSetMemObjectDestructorCallback(f.buf, nullptr, nullptr); }},
      {"clGetMemObjectInfo", "invalid mem", CL_INVALID_MEM_OBJECT, [] { return clGetMemObjectInfo(kBadMem, CL_MEM_SIZE, 0, nullptr, nullptr); }},
      {"clGetMemObjectInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetMemObjectInfo(f.buf, 0xdead, 0, nullptr, nullptr); }},
      {"clGetMemObjectInfo", "param_value_size too small", CL_INVALID_VALUE, [&] { return clGetMemObjectInfo(f.buf, CL_MEM_SIZE, 1, buf, nullptr); }},
      // §5.2.2 clEnqueueReadBuffer / WriteBuffer
      {"clEnqueueReadBuffer", "invalid queue", CL_INVALID_COMMAND_QUEUE,
       [&] { return clEnqueueReadBuffer(kBadQueue, f.buf, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "contexts of queue and buffer differ", CL_INVALID_CONTEXT,
       [&] { return clEnqueueReadBuffer(f.q, f.ctx2buf, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "contexts of queue and events differ", CL_INVALID_CONTEXT,
       [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, host, 1, &f.ev2, nullptr); }},
      {"clEnqueueReadBuffer", "invalid buffer", CL_INVALID_MEM_OBJECT,
       [&] { return clEnqueueReadBuffer(f.q, kBadMem, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "region out of bounds", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 4090, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "ptr NULL", CL_INVALID_VALUE, [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "wait list NULL, count > 0", CL_INVALID_EVENT_WAIT_LIST,
       [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, host, 1, nullptr, nullptr); }},
      {"clEnqueueReadBuffer", "wait list not NULL, count 0", CL_INVALID_EVENT_WAIT_LIST,
       [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, host, 0, &f.ev2, nullptr); }},
      {"clEnqueueReadBuffer", "invalid event in wait list", CL_INVALID_EVENT_WAIT_LIST,
       [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, host, 1, &kBadEvent, nullptr); }},
      {"clEnqueueReadBuffer", "blocking, failed event in wait list", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, [&] {
         cl_event u = clCreateUserEvent(f.ctx, nullptr);
         clSetUserEventStatus(u, -1);
         cl_int e = clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 16, host, 1, &u, nullptr);
         clReleaseEvent(u);
         return e;
       }},
      {"clEnqueueReadBuffer", "HOST_WRITE_ONLY buffer", CL_INVALID_OPERATION,
       [&] { return clEnqueueReadBuffer(f.q, f.hostWriteOnly, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "invalid queue", CL_INVALID_COMMAND_QUEUE,
       [&] { return clEnqueueWriteBuffer(kBadQueue, f.buf, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "invalid buffer", CL_INVALID_MEM_OBJECT,
       [&] { return clEnqueueWriteBuffer(f.q, kBadMem, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "contexts differ", CL_INVALID_CONTEXT,
       [&] { return clEnqueueWriteBuffer(f.q, f.ctx2buf, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "region out of bounds", CL_INVALID_VALUE,
       [&] { return clEnqueueWriteBuffer(f.q, f.sub, CL_TRUE, 250, 16, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "ptr NULL", CL_INVALID_VALUE, [&] { return clEnqueueWriteBuffer(f.q, f.buf, CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBuffer", "HOST_READ_ONLY buffer", CL_INVALID_OPERATION, [&] {
         cl_int e0;
         cl_mem ro = clCreateBuffer(f.ctx, CL_MEM_HOST_READ_ONLY, 64, nullptr, &e0);
         cl_int e = clEnqueueWriteBuffer(f.q, ro, CL_TRUE, 0, 16, host, 0, nullptr, nullptr);
         clReleaseMemObject(ro);
         return e;
       }},
      // §5.2.2 rect
      {"clEnqueueReadBufferRect", "origin NULL", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, nullptr, origin, region, 0, 0, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "region element 0", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, zeroRegion, 0, 0, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "out of bounds", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, bigRegion, 0, 0, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "buffer_row_pitch < region[0]", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 8, 0, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "buffer_slice_pitch not a multiple of row pitch", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 16, 17, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "host_row_pitch < region[0]", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 0, 0, 4, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "ptr NULL", CL_INVALID_VALUE,
       [&] { return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 0, 0, 0, 0, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueReadBufferRect", "HOST_WRITE_ONLY buffer", CL_INVALID_OPERATION,
       [&] { return clEnqueueReadBufferRect(f.q, f.hostWriteOnly, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr, nullptr); }},
      {"clEnqueueWriteBufferRect", "invalid buffer", CL_INVALID_MEM_OBJECT,
       [&] { return clEnqueueWriteBufferRect(f.q, kBadMem, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr, nullptr); }},
      // §5.2.3 copy
      {"clEnqueueCopyBuffer", "size 0", CL_INVALID_VALUE, [&] { return clEnqueueCopyBuffer(f.q, f.buf, f.buf2, 0, 0, 0, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBuffer", "out of bounds", CL_INVALID_VALUE, [&] { return clEnqueueCopyBuffer(f.q, f.buf, f.buf2, 4000, 0, 200, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBuffer", "same buffer, overlapping", CL_MEM_COPY_OVERLAP,
       [&] { return clEnqueueCopyBuffer(f.q, f.buf, f.buf, 0, 8, 64, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBuffer", "sub-buffer overlapping its parent", CL_MEM_COPY_OVERLAP,
       [&] { return clEnqueueCopyBuffer(f.q, f.buf, f.sub, 100, 0, 64, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBuffer", "invalid src", CL_INVALID_MEM_OBJECT, [&] { return clEnqueueCopyBuffer(f.q, kBadMem, f.buf, 0, 0, 4, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBuffer", "contexts differ", CL_INVALID_CONTEXT, [&] { return clEnqueueCopyBuffer(f.q, f.ctx2buf, f.buf, 0, 0, 4, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBufferRect", "same buffer, different pitches", CL_INVALID_VALUE,
       [&] { return clEnqueueCopyBufferRect(f.q, f.buf, f.buf, origin, origin, region, 16, 0, 32, 0, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBufferRect", "same buffer, overlapping", CL_MEM_COPY_OVERLAP,
       [&] { return clEnqueueCopyBufferRect(f.q, f.buf, f.buf, origin, origin, region, 0, 0, 0, 0, 0, nullptr, nullptr); }},
      {"clEnqueueCopyBufferRect", "region NULL", CL_INVALID_VALUE,
       [&] { return clEnqueueCopyBufferRect(f.q, f.buf, f.buf2, origin, origin, nullptr, 0, 0, 0, 0, 0, nullptr, nullptr); }},
      // §5.2.4 fill
      {"clEnqueueFillBuffer", "pattern NULL", CL_INVALID_VALUE, [&] { return clEnqueueFillBuffer(f.q, f.buf, nullptr, 4, 0, 16, 0, nullptr, nullptr); }},
      {"clEnqueueFillBuffer", "pattern_size 3", CL_INVALID_VALUE, [&] { return clEnqueueFillBuffer(f.q, f.buf, host, 3, 0, 12, 0, nullptr, nullptr); }},
      {"clEnqueueFillBuffer", "pattern_size 256", CL_INVALID_VALUE, [&] { return clEnqueueFillBuffer(f.q, f.buf, host, 256, 0, 256, 0, nullptr, nullptr); }},
      {"clEnqueueFillBuffer", "offset not a multiple of pattern_size", CL_INVALID_VALUE,
       [&] { return clEnqueueFillBuffer(f.q, f.buf, host, 4, 2, 16, 0, nullptr, nullptr); }},
      {"clEnqueueFillBuffer", "size not a multiple of pattern_size", CL_INVALID_VALUE,
       [&] { return clEnqueueFillBuffer(f.q, f.buf, host, 4, 0, 18, 0, nullptr, nullptr); }},
      {"clEnqueueFillBuffer", "out of bounds", CL_INVALID_VALUE, [&] { return clEnqueueFillBuffer(f.q, f.buf, host, 4, 4092, 8, 0, nullptr, nullptr); }},
      // §5.2.5 map, §5.5.3 unmap
      {"clEnqueueMapBuffer", "size 0", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clEnqueueMapBuffer(f.q, f.buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, e); }); }},
      {"clEnqueueMapBuffer", "out of bounds", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clEnqueueMapBuffer(f.q, f.buf, CL_TRUE, CL_MAP_READ, 4000, 200, 0, nullptr, nullptr, e); }); }},
      {"clEnqueueMapBuffer", "invalid map_flags", CL_INVALID_VALUE, [&] {
         return err([&](cl_int* e) { clEnqueueMapBuffer(f.q, f.buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, nullptr, nullptr, e); });
       }},
      {"clEnqueueMapBuffer", "MAP_READ on HOST_WRITE_ONLY", CL_INVALID_OPERATION,
       [&] { return err([&](cl_int* e) { clEnqueueMapBuffer(f.q, f.hostWriteOnly, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, e); }); }},
      {"clEnqueueMapBuffer", "invalid buffer", CL_INVALID_MEM_OBJECT,
       [&] { return err([&](cl_int* e) { clEnqueueMapBuffer(f.q, kBadMem, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, e); }); }},
      {"clEnqueueUnmapMemObject", "pointer not mapped", CL_INVALID_VALUE, [&] { return clEnqueueUnmapMemObject(f.q, f.buf, host, 0, nullptr, nullptr); }},
      {"clEnqueueUnmapMemObject", "invalid mem", CL_INVALID_MEM_OBJECT, [&] { return clEnqueueUnmapMemObject(f.q, kBadMem, host, 0, nullptr, nullptr); }},
      {"clEnqueueUnmapMemObject", "contexts differ", CL_INVALID_CONTEXT, [&] { return clEnqueueUnmapMemObject(f.q, f.ctx2buf, host, 0, nullptr, nullptr); }},
      {"clEnqueueMigrateMemObjects", "num_mem_objects 0", CL_INVALID_VALUE,
       [&] { return clEnqueueMigrateMemObjects(f.q, 0, &f.buf, 0, 0, nullptr, nullptr); }},
      {"clEnqueueMigrateMemObjects", "invalid flags", CL_INVALID_VALUE,
       [&] { return clEnqueueMigrateMemObjects(f.q, 1, &f.buf, 0x100, 0, nullptr, nullptr); }},
      {"clEnqueueMigrateMemObjects", "invalid mem", CL_INVALID_MEM_OBJECT,
       [&] { return clEnqueueMigrateMemObjects(f.q, 1, &kBadMem, 0, 0, nullptr, nullptr); }},
      {"clEnqueueMigrateMemObjects", "contexts differ", CL_INVALID_CONTEXT,
       [&] { return clEnqueueMigrateMemObjects(f.q, 1, &f.ctx2buf, 0, 0, nullptr, nullptr); }},
      // images, samplers, pipes, SVM: not supported by the device
      {"clCreateImage", "no device supports images", CL_INVALID_OPERATION, [&] {
         cl_image_format fmt{CL_RGBA, CL_UNORM_INT8};
         cl_image_desc d{};
         d.image_type = CL_MEM_OBJECT_IMAGE2D;
         d.image_width = d.image_height = 4;
         return err([&](cl_int* e) { clCreateImage(f.ctx, 0, &fmt, &d, nullptr, e); });
       }},
      {"clCreateSamplerWithProperties", "no device supports images", CL_INVALID_OPERATION,
       [&] { return err([&](cl_int* e) { clCreateSamplerWithProperties(f.ctx, nullptr, e); }); }},
      {"clCreatePipe", "no device supports pipes", CL_INVALID_OPERATION,
       [&] { return err([&](cl_int* e) { clCreatePipe(f.ctx, 0, 4, 4, nullptr, e); }); }},
      {"clEnqueueSVMMemcpy", "no device supports SVM", CL_INVALID_OPERATION,
       [&] { return clEnqueueSVMMemcpy(f.q, CL_TRUE, host, host + 8, 4, 0, nullptr, nullptr); }},
      {"clEnqueueNativeKernel", "no native kernels", CL_INVALID_OPERATION,
       [&] { return clEnqueueNativeKernel(f.q, [](void*) {}, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueReadImage", "no device supports images", CL_INVALID_OPERATION,
       [&] { return clEnqueueReadImage(f.q, f.buf, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr); }},
      // §5.8.1 program creation
      {"clCreateProgramWithSource", "invalid context", CL_INVALID_CONTEXT, [] {
         const char* s = "kernel void k() {}";
         return err([&](cl_int* e) { clCreateProgramWithSource(kBadContext, 1, &s, nullptr, e); });
       }},
      {"clCreateProgramWithSource", "count 0", CL_INVALID_VALUE, [&] {
         const char* s = "kernel void k() {}";
         return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 0, &s, nullptr, e); });
       }},
      {"clCreateProgramWithSource", "strings NULL", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 1, nullptr, nullptr, e); }); }},
      {"clCreateProgramWithSource", "an entry of strings NULL", CL_INVALID_VALUE, [&] {
         const char* s[2] = {"kernel void k() {}", nullptr};
         return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 2, s, nullptr, e); });
       }},
      {"clCreateProgramWithIL", "invalid context", CL_INVALID_CONTEXT,
       [&] { return err([&](cl_int* e) { clCreateProgramWithIL(kBadContext, f.vaddSpv.data(), f.vaddSpv.size(), e); }); }},
      {"clCreateProgramWithIL", "il NULL", CL_INVALID_VALUE, [&] { return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, nullptr, 20, e); }); }},
      {"clCreateProgramWithIL", "length 0", CL_INVALID_VALUE, [&] { return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, f.vaddSpv.data(), 0, e); }); }},
      {"clCreateProgramWithIL", "not well-formed IL", CL_INVALID_VALUE, [&] {
         static const char junk[64] = "this is not SPIR-V at all, not at all, really not";
         return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, junk, 64, e); });
       }},
      {"clCreateProgramWithBinary", "device_list NULL", CL_INVALID_VALUE, [&] {
         const unsigned char* b = f.vaddSpv.data();
         size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, nullptr, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary", "device not in context", CL_INVALID_DEVICE, [&] {
         const unsigned char* b = f.vaddSpv.data();
         size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &kBadDevice, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary", "lengths entry 0", CL_INVALID_VALUE, [&] {
         const unsigned char* b = f.vaddSpv.data();
         size_t l = 0;
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary", "invalid binary", CL_INVALID_BINARY, [&] {
         static const unsigned char junk[64] = {1, 2, 3};
         const unsigned char* b = junk;
         size_t l = sizeof junk;
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBuiltInKernels", "no such built-in kernel", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 1, &f.device, "nope", e); }); }},
      {"clRetainProgram", "invalid program", CL_INVALID_PROGRAM, [] { return clRetainProgram(kBadProgram); }},
      {"clReleaseProgram", "invalid program", CL_INVALID_PROGRAM, [] { return clReleaseProgram(kBadProgram); }},
      // §5.8.2 clBuildProgram
      {"clBuildProgram", "invalid program", CL_INVALID_PROGRAM, [] { return clBuildProgram(kBadProgram, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clBuildProgram", "device_list NULL, num_devices > 0", CL_INVALID_VALUE,
       [&] { return clBuildProgram(f.unbuilt, 1, nullptr, nullptr, nullptr, nullptr); }},
      {"clBuildProgram", "device_list not NULL, num_devices 0", CL_INVALID_VALUE,
       [&] { return clBuildProgram(f.unbuilt, 0, &f.device, nullptr, nullptr, nullptr); }},
      {"clBuildProgram", "device not associated with program", CL_INVALID_DEVICE,
       [&] { return clBuildProgram(f.unbuilt, 1, &kBadDevice, nullptr, nullptr, nullptr); }},
      {"clBuildProgram", "pfn_notify NULL, user_data not", CL_INVALID_VALUE, [&] { return clBuildProgram(f.unbuilt, 0, nullptr, nullptr, nullptr, buf); }},
      {"clBuildProgram", "invalid build options", CL_INVALID_BUILD_OPTIONS,
       [&] { return clBuildProgram(f.unbuilt, 0, nullptr, "-no-such-option", nullptr, nullptr); }},
      {"clBuildProgram", "kernels attached", CL_INVALID_OPERATION, [&] { return clBuildProgram(f.il, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clBuildProgram", "build failure (compile error)", CL_BUILD_PROGRAM_FAILURE, [&] {
         const char* s = "kernel void k(global int* p) { p[0] = undeclared; }";
         cl_program p = clCreateProgramWithSource(f.ctx, 1, &s, nullptr, nullptr);
         cl_int e = clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
         clReleaseProgram(p);
         return e;
       }},
      // §5.8.3 clCompileProgram, §5.8.5 clLinkProgram
      {"clCompileProgram", "invalid program", CL_INVALID_PROGRAM,
       [] { return clCompileProgram(kBadProgram, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram", "num_input_headers 0, header names not NULL", CL_INVALID_VALUE, [&] {
         const char* names[1] = {"a.h"};
         return clCompileProgram(f.unbuilt, 0, nullptr, nullptr, 0, nullptr, names, nullptr, nullptr);
       }},
      {"clCompileProgram", "invalid compiler options", CL_INVALID_COMPILER_OPTIONS,
       [&] { return clCompileProgram(f.unbuilt, 0, nullptr, "-bogus", 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram", "kernels attached", CL_INVALID_OPERATION,
       [&] { return clCompileProgram(f.il, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clLinkProgram", "invalid context", CL_INVALID_CONTEXT,
       [&] { return err([&](cl_int* e) { clLinkProgram(kBadContext, 0, nullptr, nullptr, 1, &f.il, nullptr, nullptr, e); }); }},
      {"clLinkProgram", "num_input_programs 0", CL_INVALID_VALUE,
       [&] { return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 0, &f.il, nullptr, nullptr, e); }); }},
      {"clLinkProgram", "invalid input program", CL_INVALID_PROGRAM,
       [&] { return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &kBadProgram, nullptr, nullptr, e); }); }},
      {"clLinkProgram", "input not a compiled object", CL_INVALID_OPERATION,
       [&] { return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &f.unbuilt, nullptr, nullptr, e); }); }},
      {"clLinkProgram", "invalid linker options", CL_INVALID_LINKER_OPTIONS, [&] {
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, "-D X=1", 1, &f.unbuilt, nullptr, nullptr, e); });
       }},
      // §5.8.4 clSetProgramSpecializationConstant
      {"clSetProgramSpecializationConstant", "invalid program", CL_INVALID_PROGRAM,
       [] { int v = 0; return clSetProgramSpecializationConstant(kBadProgram, 0, 4, &v); }},
      {"clSetProgramSpecializationConstant", "no such spec id", CL_INVALID_SPEC_ID,
       [&] { int v = 0; return clSetProgramSpecializationConstant(f.unbuilt, 77, 4, &v); }},
      {"clSetProgramSpecializationConstant", "spec_value NULL", CL_INVALID_VALUE,
       [&] { return clSetProgramSpecializationConstant(f.unbuilt, 0, 4, nullptr); }},
      // §5.8.7 queries
      {"clGetProgramInfo", "invalid program", CL_INVALID_PROGRAM,
       [] { return clGetProgramInfo(kBadProgram, CL_PROGRAM_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetProgramInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetProgramInfo(f.il, 0xdead, 0, nullptr, nullptr); }},
      {"clGetProgramInfo", "kernel names of an unbuilt program", CL_INVALID_PROGRAM_EXECUTABLE,
       [&] { size_t n; return clGetProgramInfo(f.unbuilt, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr); }},
      {"clGetProgramBuildInfo", "invalid program", CL_INVALID_PROGRAM,
       [&] { return clGetProgramBuildInfo(kBadProgram, f.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo", "invalid device", CL_INVALID_DEVICE,
       [&] { return clGetProgramBuildInfo(f.il, kBadDevice, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo", "param_name not supported", CL_INVALID_VALUE,
       [&] { return clGetProgramBuildInfo(f.il, f.device, 0xdead, 0, nullptr, nullptr); }},
      // §5.9.1 kernels
      {"clCreateKernel", "invalid program", CL_INVALID_PROGRAM, [] { return err([](cl_int* e) { clCreateKernel(kBadProgram, "vadd", e); }); }},
      {"clCreateKernel", "no executable", CL_INVALID_PROGRAM_EXECUTABLE, [&] { return err([&](cl_int* e) { clCreateKernel(f.unbuilt, "vadd", e); }); }},
      {"clCreateKernel", "kernel_name not found", CL_INVALID_KERNEL_NAME, [&] { return err([&](cl_int* e) { clCreateKernel(f.il, "nope", e); }); }},
      {"clCreateKernel", "kernel_name NULL", CL_INVALID_VALUE, [&] { return err([&](cl_int* e) { clCreateKernel(f.il, nullptr, e); }); }},
      {"clCreateKernelsInProgram", "invalid program", CL_INVALID_PROGRAM, [] { return clCreateKernelsInProgram(kBadProgram, 0, nullptr, nullptr); }},
      {"clCreateKernelsInProgram", "no executable", CL_INVALID_PROGRAM_EXECUTABLE,
       [&] { cl_uint n; return clCreateKernelsInProgram(f.unbuilt, 0, nullptr, &n); }},
      {"clCreateKernelsInProgram", "num_kernels too small", CL_INVALID_VALUE, [&] {
         cl_kernel k;
         return clCreateKernelsInProgram(f.il, 0, &k, nullptr);
       }},
      {"clCloneKernel", "invalid kernel", CL_INVALID_KERNEL, [] { return err([](cl_int* e) { clCloneKernel(kBadKernel, e); }); }},
      {"clRetainKernel", "invalid kernel", CL_INVALID_KERNEL, [] { return clRetainKernel(kBadKernel); }},
      {"clReleaseKernel", "invalid kernel", CL_INVALID_KERNEL, [] { return clReleaseKernel(kBadKernel); }},
      // §5.9.2 clSetKernelArg
      {"clSetKernelArg", "invalid kernel", CL_INVALID_KERNEL, [&] { return clSetKernelArg(kBadKernel, 0, sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg", "arg_index out of range", CL_INVALID_ARG_INDEX, [&] { return clSetKernelArg(f.vadd, 3, sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg", "invalid memory object", CL_INVALID_MEM_OBJECT, [&] { return clSetKernelArg(f.vadd, 0, sizeof(cl_mem), &kBadMem); }},
      {"clSetKernelArg", "buffer arg, wrong arg_size", CL_INVALID_ARG_SIZE, [&] { return clSetKernelArg(f.vadd, 0, 4, &f.buf); }},
      {"clSetKernelArg", "local arg with a value", CL_INVALID_ARG_VALUE, [&] { int v = 0; return clSetKernelArg(f.reduce, 2, 4, &v); }},
      {"clSetKernelArg", "local arg size 0", CL_INVALID_ARG_SIZE, [&] { return clSetKernelArg(f.reduce, 2, 0, nullptr); }},
      {"clSetKernelArgSVMPointer", "no SVM", CL_INVALID_OPERATION, [&] { return clSetKernelArgSVMPointer(f.vadd, 0, host); }},
      {"clSetKernelExecInfo", "invalid param_name", CL_INVALID_VALUE, [&] { cl_bool b = CL_TRUE; return clSetKernelExecInfo(f.vadd, 0xdead, sizeof b, &b); }},
      // §5.9.3 queries
      {"clGetKernelInfo", "invalid kernel", CL_INVALID_KERNEL, [] { return clGetKernelInfo(kBadKernel, CL_KERNEL_NUM_ARGS, 0, nullptr, nullptr); }},
      {"clGetKernelInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetKernelInfo(f.vadd, 0xdead, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo", "arg_index out of range", CL_INVALID_ARG_INDEX,
       [&] { return clGetKernelArgInfo(f.vadd, 9, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo", "no arg info (IL program)", CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
       [&] { return clGetKernelArgInfo(f.vadd, 0, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo", "invalid kernel", CL_INVALID_KERNEL,
       [&] { return clGetKernelWorkGroupInfo(kBadKernel, f.device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo", "invalid device", CL_INVALID_DEVICE,
       [&] { return clGetKernelWorkGroupInfo(f.vadd, kBadDevice, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo", "GLOBAL_WORK_SIZE on a non-custom device", CL_INVALID_VALUE,
       [&] { size_t s[3]; return clGetKernelWorkGroupInfo(f.vadd, f.device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof s, s, nullptr); }},
      {"clGetKernelSubGroupInfo", "no sub-groups", CL_INVALID_OPERATION,
       [&] { return clGetKernelSubGroupInfo(f.vadd, f.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, 0, nullptr, nullptr); }},
      // §5.10 clEnqueueNDRangeKernel
      {"clEnqueueNDRangeKernel", "invalid queue", CL_INVALID_COMMAND_QUEUE, [&] {
         size_t g = 16;
         return clEnqueueNDRangeKernel(kBadQueue, f.vadd, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "invalid kernel", CL_INVALID_KERNEL, [&] {
         size_t g = 16;
         return clEnqueueNDRangeKernel(f.q, kBadKernel, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "contexts of queue and kernel differ", CL_INVALID_CONTEXT, [&] {
         size_t g = 16;
         return clEnqueueNDRangeKernel(f.q2, f.vadd, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "kernel args not set", CL_INVALID_KERNEL_ARGS, [&] {
         cl_kernel k = clCreateKernel(f.il, "vadd", nullptr);
         size_t g = 16;
         cl_int e = clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
         clReleaseKernel(k);
         return e;
       }},
      {"clEnqueueNDRangeKernel", "work_dim 0", CL_INVALID_WORK_DIMENSION, [&] {
         size_t g = 16;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 0, nullptr, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "work_dim 4", CL_INVALID_WORK_DIMENSION, [&] {
         size_t g[4] = {1, 1, 1, 1};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 4, nullptr, g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "global + offset overflows size_t", CL_INVALID_GLOBAL_OFFSET, [&] {
         size_t g = 16, o = SIZE_MAX - 4;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, &o, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "work-group size 0", CL_INVALID_WORK_GROUP_SIZE, [&] {
         size_t g = 16, l = 0;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "work-group size > CL_KERNEL_WORK_GROUP_SIZE", CL_INVALID_WORK_GROUP_SIZE, [&] {
         size_t g[2] = {1024, 1024}, l[2] = {64, 64};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 2, nullptr, g, l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "local size > MAX_WORK_ITEM_SIZES", CL_INVALID_WORK_ITEM_SIZE, [&] {
         size_t g = 4096, l = 2048;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", "invalid event in wait list", CL_INVALID_EVENT_WAIT_LIST, [&] {
         size_t g = 16;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g, nullptr, 1, &kBadEvent, nullptr);
       }},
      {"clEnqueueTask", "invalid kernel", CL_INVALID_KERNEL, [&] { return clEnqueueTask(f.q, kBadKernel, 0, nullptr, nullptr); }},
      // §5.11 events
      {"clWaitForEvents", "num_events 0", CL_INVALID_VALUE, [&] { return clWaitForEvents(0, &f.ev2); }},
      {"clWaitForEvents", "event_list NULL", CL_INVALID_VALUE, [] { return clWaitForEvents(1, nullptr); }},
      {"clWaitForEvents", "invalid event", CL_INVALID_EVENT, [] { return clWaitForEvents(1, &kBadEvent); }},
      {"clWaitForEvents", "events of different contexts", CL_INVALID_CONTEXT, [&] {
         cl_event u = clCreateUserEvent(f.ctx, nullptr);
         cl_event l[2] = {u, f.ev2};
         cl_int e = clWaitForEvents(2, l);
         clSetUserEventStatus(u, CL_COMPLETE);
         clReleaseEvent(u);
         return e;
       }},
      {"clWaitForEvents", "an event failed", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, [&] {
         cl_event u = clCreateUserEvent(f.ctx, nullptr);
         clSetUserEventStatus(u, -5);
         cl_int e = clWaitForEvents(1, &u);
         clReleaseEvent(u);
         return e;
       }},
      {"clGetEventInfo", "invalid event", CL_INVALID_EVENT, [] { return clGetEventInfo(kBadEvent, CL_EVENT_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetEventInfo", "param_name not supported", CL_INVALID_VALUE, [&] { return clGetEventInfo(f.ev2, 0xdead, 0, nullptr, nullptr); }},
      {"clCreateUserEvent", "invalid context", CL_INVALID_CONTEXT, [] { return err([](cl_int* e) { clCreateUserEvent(kBadContext, e); }); }},
      {"clSetUserEventStatus", "not a user event", CL_INVALID_EVENT, [&] { return clSetUserEventStatus(f.ev2, CL_COMPLETE); }},
      {"clSetUserEventStatus", "status not COMPLETE or negative", CL_INVALID_VALUE, [&] {
         cl_event u = clCreateUserEvent(f.ctx, nullptr);
         cl_int e = clSetUserEventStatus(u, CL_RUNNING);
         clSetUserEventStatus(u, CL_COMPLETE);
         clReleaseEvent(u);
         return e;
       }},
      {"clSetUserEventStatus", "status already set", CL_INVALID_OPERATION, [&] {
         cl_event u = clCreateUserEvent(f.ctx, nullptr);
         clSetUserEventStatus(u, CL_COMPLETE);
         cl_int e = clSetUserEventStatus(u, CL_COMPLETE);
         clReleaseEvent(u);
         return e;
       }},
      {"clRetainEvent", "invalid event", CL_INVALID_EVENT, [] { return clRetainEvent(kBadEvent); }},
      {"clReleaseEvent", "invalid event", CL_INVALID_EVENT, [] { return clReleaseEvent(kBadEvent); }},
      {"clSetEventCallback", "invalid event", CL_INVALID_EVENT,
       [] { return clSetEventCallback(kBadEvent, CL_COMPLETE, [](cl_event, cl_int, void*) {}, nullptr); }},
      {"clSetEventCallback", "pfn_notify NULL", CL_INVALID_VALUE, [&] { return clSetEventCallback(f.ev2, CL_COMPLETE, nullptr, nullptr); }},
      {"clSetEventCallback", "invalid callback type", CL_INVALID_VALUE,
       [&] { return clSetEventCallback(f.ev2, CL_QUEUED, [](cl_event, cl_int, void*) {}, nullptr); }},
      {"clGetEventProfilingInfo", "queue without profiling", CL_PROFILING_INFO_NOT_AVAILABLE, [&] {
         cl_ulong t;
         return clGetEventProfilingInfo(f.ev2, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr);
       }},
      {"clGetEventProfilingInfo", "invalid event", CL_INVALID_EVENT,
       [] { return clGetEventProfilingInfo(kBadEvent, CL_PROFILING_COMMAND_START, 0, nullptr, nullptr); }},
      // §5.12 markers and barriers
      {"clEnqueueMarkerWithWaitList", "invalid queue", CL_INVALID_COMMAND_QUEUE,
       [] { return clEnqueueMarkerWithWaitList(kBadQueue, 0, nullptr, nullptr); }},
      {"clEnqueueMarkerWithWaitList", "wait list context differs", CL_INVALID_CONTEXT,
       [&] { return clEnqueueMarkerWithWaitList(f.q, 1, &f.ev2, nullptr); }},
      {"clEnqueueBarrierWithWaitList", "wait list NULL, count > 0", CL_INVALID_EVENT_WAIT_LIST,
       [&] { return clEnqueueBarrierWithWaitList(f.q, 2, nullptr, nullptr); }},
      {"clEnqueueMarker", "event NULL", CL_INVALID_VALUE, [&] { return clEnqueueMarker(f.q, nullptr); }},
      {"clEnqueueWaitForEvents", "num_events 0", CL_INVALID_VALUE, [&] { return clEnqueueWaitForEvents(f.q, 0, nullptr); }},
      // host timers
      {"clGetDeviceAndHostTimer", "NULL timestamp", CL_INVALID_VALUE, [&] { cl_ulong t; return clGetDeviceAndHostTimer(f.device, &t, nullptr); }},
      {"clGetHostTimer", "invalid device", CL_INVALID_DEVICE, [] { cl_ulong t; return clGetHostTimer(kBadDevice, &t); }},
  };
}

}  // namespace

TEST_CASE("every listed error condition returns the spec's code", "[opencl][errors]") {
  const auto table = cases();
  std::map<std::string, int> perEntry;
  for (const auto& c : table) {
    INFO(c.entry << ": " << c.condition);
    CHECK(c.provoke() == c.expected);
    ++perEntry[c.entry];
  }
  WARN(table.size() << " error conditions over " << perEntry.size() << " entry points");
}

TEST_CASE("reference counts and destructor callbacks", "[opencl]") {
  auto& f = fx();
  cl_int e;
  cl_mem m = clCreateBuffer(f.ctx, 0, 64, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_uint rc = 0;
  clRetainMemObject(m);
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, nullptr);
  CHECK(rc == 2);
  static std::vector<int> order;
  order.clear();
  clSetMemObjectDestructorCallback(m, [](cl_mem, void* d) { order.push_back(int(reinterpret_cast<intptr_t>(d))); }, reinterpret_cast<void*>(1));
  clSetMemObjectDestructorCallback(m, [](cl_mem, void* d) { order.push_back(int(reinterpret_cast<intptr_t>(d))); }, reinterpret_cast<void*>(2));
  clReleaseMemObject(m);
  CHECK(order.empty());
  clReleaseMemObject(m);
  // OpenCL 3.0 API §5.5.1: callbacks in the reverse order of registration
  CHECK(order == std::vector<int>{2, 1});
  CHECK(clRetainMemObject(m) == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("user events hold commands back; callbacks fire", "[opencl]") {
  auto& f = fx();
  cl_int e;
  int value = 7, out = 0;
  cl_mem m = clCreateBuffer(f.ctx, 0, sizeof value, nullptr, &e);
  cl_event u = clCreateUserEvent(f.ctx, &e);
  cl_event w;
  REQUIRE(clEnqueueWriteBuffer(f.q, m, CL_FALSE, 0, sizeof value, &value, 1, &u, &w) == CL_SUCCESS);
  cl_int status;
  clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status == CL_QUEUED);
  static int fired = 0;
  fired = 0;
  clSetEventCallback(w, CL_COMPLETE, [](cl_event, cl_int s, void*) { fired = s == CL_COMPLETE ? 1 : -1; }, nullptr);
  REQUIRE(clSetUserEventStatus(u, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof out, &out, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(out == 7);
  CHECK(fired == 1);
  clReleaseEvent(w);
  clReleaseEvent(u);
  clReleaseMemObject(m);
}

TEST_CASE("sub-buffers view their parent; USE_HOST_PTR is the host memory", "[opencl]") {
  auto& f = fx();
  cl_int e;
  std::vector<int> host(256);
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR, host.size() * sizeof(int), host.data(), &e);
  REQUIRE(e == CL_SUCCESS);
  cl_buffer_region r{128, 64};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  REQUIRE(e == CL_SUCCESS);
  int pattern = 0x55;
  clEnqueueFillBuffer(f.q, s, &pattern, sizeof pattern, 0, 64, 0, nullptr, nullptr);
  clFinish(f.q);
  CHECK(host[31] == 0);
  CHECK(host[32] == 0x55);
  CHECK(host[47] == 0x55);
  CHECK(host[48] == 0);
  void* hp = nullptr;
  clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof hp, &hp, nullptr);
  CHECK(hp == reinterpret_cast<char*>(host.data()) + 128);
  clReleaseMemObject(m);  // the sub-buffer keeps the storage alive
  int x = 0;
  CHECK(clEnqueueReadBuffer(f.q, s, CL_TRUE, 0, 4, &x, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(x == 0x55);
  clReleaseMemObject(s);
}

TEST_CASE("a kernel fault makes the event status negative", "[opencl]") {
  auto& f = fx();
  cl_int e;
  cl_mem small = clCreateBuffer(f.ctx, 0, 16, nullptr, &e);
  cl_kernel k = clCreateKernel(f.il, "vadd", &e);
  for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(k, i, sizeof small, &small);
  size_t g = 64;
  cl_event ev;
  REQUIRE(clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &g, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  cl_int status = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status == CL_OUT_OF_RESOURCES);
  CHECK(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseMemObject(small);
}

TEST_CASE("program binaries round-trip; specialization-free IL accepts build options", "[opencl]") {
  auto& f = fx();
  size_t size = 0;
  REQUIRE(clGetProgramInfo(f.il, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  REQUIRE(clGetProgramInfo(f.il, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) == CL_SUCCESS);
  const unsigned char* cptr = bin.data();
  cl_int e, status;
  cl_program p = clCreateProgramWithBinary(f.ctx, 1, &f.device, &size, &cptr, &status, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "vadd", &e);
  CHECK(e == CL_SUCCESS);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
