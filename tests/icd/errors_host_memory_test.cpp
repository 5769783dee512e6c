// CL_OUT_OF_HOST_MEMORY, provoked: each entry point called with valid arguments while the
// calling thread's allocations fail (allocation_failure.hpp). Entry points that allocate
// nothing for the call cannot fail for lack of host memory; their area tables list them as not
// provoked (checked: no allocation during a valid call).
//
// Every object a call needs is made before the allocations fail and released after; the
// fixture's objects are only used, and its queue must still work afterwards (clFinish).
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "allocation_failure.hpp"

namespace clref_test {
namespace {

void release(cl_context o) { clReleaseContext(o); }
void release(cl_command_queue o) { clReleaseCommandQueue(o); }
void release(cl_mem o) { clReleaseMemObject(o); }
void release(cl_program o) { clReleaseProgram(o); }
void release(cl_kernel o) { clReleaseKernel(o); }
void release(cl_event o) { clReleaseEvent(o); }

// A call returning an object (errcode_ret): its code; an object returned after all is released.
template <class Create> cl_int created(Create create) {
  cl_int e = 12345;
  decltype(create(&e)) object = nullptr;
  withoutHostMemory([&] {
    object = create(&e);
    return e;
  });
  if (object) release(object);
  return e;
}

// The fixture's queue still runs commands after the failed call.
cl_int thenFinish(cl_int code) { return clFinish(fx().q) == CL_SUCCESS ? code : CL_INVALID_COMMAND_QUEUE; }

// Objects this table needs beyond the fixture, made on first use.
const char* kSource = "kernel void k(global int* g, int v) { g[get_global_id(0)] = v; }";
struct Objects {
  cl_program src = nullptr;  // kSource, built with -cl-kernel-arg-info
  cl_kernel k = nullptr;     // k(global int*, int) of src: arguments set
  Objects() {
    Fixture& f = fx();
    cl_int e;
    src = clCreateProgramWithSource(f.ctx, 1, &kSource, nullptr, &e);
    clBuildProgram(src, 0, nullptr, "-cl-kernel-arg-info", nullptr, nullptr);
    k = clCreateKernel(src, "k", &e);
    const cl_int v = 1;
    clSetKernelArg(k, 0, sizeof(cl_mem), &f.buf);
    clSetKernelArg(k, 1, sizeof v, &v);
  }
};
Objects& objs() {
  static Objects o;
  return o;
}

cl_mem freshBuffer() {
  cl_int e;
  return clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 64, nullptr, &e);
}
cl_event freshUserEvent() {
  cl_int e;
  return clCreateUserEvent(fx().ctx, &e);
}
cl_program freshProgram() {
  cl_int e;
  return clCreateProgramWithIL(fx().ctx, fx().vaddSpv.data(), fx().vaddSpv.size(), &e);
}

void CL_CALLBACK onContext(cl_context, void*) {}
void CL_CALLBACK onMem(cl_mem, void*) {}
void CL_CALLBACK onEvent(cl_event, cl_int, void*) {}

std::vector<ErrorCase> cases() {
  Fixture& f = fx();
  std::vector<ErrorCase> v;
  auto add = [&](const std::string& entry, std::function<cl_int()> provoke) {
    v.push_back({entry + ":CL_OUT_OF_HOST_MEMORY:1", std::move(provoke)});
  };

  // ---- platform, device, context, queue, event ----
  add("clGetPlatformInfo", [&f] {
    char text[4096];
    return withoutHostMemory(
        [&] { return clGetPlatformInfo(f.platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof text, text, nullptr); });
  });
  add("clGetDeviceInfo", [&f] {
    char text[4096];
    return withoutHostMemory(
        [&] { return clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS, sizeof text, text, nullptr); });
  });
  add("clCreateContext",
      [&f] { return created([&](cl_int* e) { return clCreateContext(nullptr, 1, &f.device, nullptr, nullptr, e); }); });
  add("clCreateSubDevices", [&f] {
    const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    cl_device_id out[2] = {nullptr, nullptr};
    const cl_int code = withoutHostMemory([&] { return clCreateSubDevices(f.device, p, 2, out, nullptr); });
    for (cl_device_id d : out)
      if (d) clReleaseDevice(d);
    return code;
  });
  add("clCreateContextFromType", [] {
    return created(
        [&](cl_int* e) { return clCreateContextFromType(nullptr, CL_DEVICE_TYPE_ALL, nullptr, nullptr, e); });
  });
  add("clReleaseContext", [&f] {
    cl_int e;
    cl_context c = clCreateContext(nullptr, 1, &f.device, nullptr, nullptr, &e);
    clSetContextDestructorCallback(c, onContext,
                                   nullptr);  // its call is deferred: without callbacks nothing is allocated
    const cl_int r = withoutHostMemory([&] { return clReleaseContext(c); });
    if (r != CL_SUCCESS && clReleaseContext(c) != CL_SUCCESS)
      return CL_INVALID_CONTEXT;  // a failed release must leave c valid
    return r;
  });
  add("clSetContextDestructorCallback", [&f] {
    cl_int e;
    cl_context c = clCreateContext(nullptr, 1, &f.device, nullptr, nullptr, &e);
    const cl_int r = withoutHostMemory([&] { return clSetContextDestructorCallback(c, onContext, nullptr); });
    clReleaseContext(c);
    return r;
  });
  add("clCreateCommandQueueWithProperties", [&f] {
    return created([&](cl_int* e) { return clCreateCommandQueueWithProperties(f.ctx, f.device, nullptr, e); });
  });
  add("clCreateCommandQueue",
      [&f] { return created([&](cl_int* e) { return clCreateCommandQueue(f.ctx, f.device, 0, e); }); });
  add("clCreateUserEvent", [&f] { return created([&](cl_int* e) { return clCreateUserEvent(f.ctx, e); }); });
  add("clSetUserEventStatus",
      [] {  // the call of the event's callback is prepared: without callbacks nothing is allocated
        cl_event u = freshUserEvent();
        clSetEventCallback(u, CL_COMPLETE, onEvent, nullptr);
        const cl_int r = withoutHostMemory([&] { return clSetUserEventStatus(u, CL_COMPLETE); });
        if (r != CL_SUCCESS && clSetUserEventStatus(u, CL_COMPLETE) != CL_SUCCESS)
          return CL_INVALID_EVENT;  // unchanged by the failure
        clReleaseEvent(u);
        return r;
      });
  add("clWaitForEvents", [&f] { return withoutHostMemory([&] { return clWaitForEvents(1, &f.ev2); }); });
  add("clSetEventCallback", [] {
    cl_event u = freshUserEvent();
    const cl_int r = withoutHostMemory([&] { return clSetEventCallback(u, CL_COMPLETE, onEvent, nullptr); });
    clSetUserEventStatus(u, CL_COMPLETE);
    clReleaseEvent(u);
    return r;
  });
  add("clEnqueueMarkerWithWaitList", [&f] {
    return thenFinish(withoutHostMemory([&] { return clEnqueueMarkerWithWaitList(f.q, 0, nullptr, nullptr); }));
  });
  add("clEnqueueMarker", [&f] {
    cl_event ev = nullptr;
    const cl_int r = withoutHostMemory([&] { return clEnqueueMarker(f.q, &ev); });
    if (ev) clReleaseEvent(ev);
    return thenFinish(r);
  });
  add("clEnqueueWaitForEvents", [&f] {
    cl_event u = freshUserEvent();
    clSetUserEventStatus(u, CL_COMPLETE);
    const cl_int r = withoutHostMemory([&] { return clEnqueueWaitForEvents(f.q, 1, &u); });
    clReleaseEvent(u);
    return thenFinish(r);
  });
  add("clEnqueueBarrierWithWaitList", [&f] {
    return thenFinish(withoutHostMemory([&] { return clEnqueueBarrierWithWaitList(f.q, 0, nullptr, nullptr); }));
  });
  add("clEnqueueBarrier", [&f] { return thenFinish(withoutHostMemory([&] { return clEnqueueBarrier(f.q); })); });

  // ---- memory objects ----
  add("clCreateBuffer",
      [&f] { return created([&](cl_int* e) { return clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 64, nullptr, e); }); });
  add("clCreateSubBuffer", [&f] {
    const cl_buffer_region r{0, 64};
    return created(
        [&](cl_int* e) { return clCreateSubBuffer(f.buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
  });
  add("clReleaseMemObject", [] {
    cl_mem m = freshBuffer();
    clSetMemObjectDestructorCallback(m, onMem,
                                     nullptr);  // its call is deferred: without callbacks nothing is allocated
    const cl_int r = withoutHostMemory([&] { return clReleaseMemObject(m); });
    if (r != CL_SUCCESS && clReleaseMemObject(m) != CL_SUCCESS) return CL_INVALID_MEM_OBJECT;
    return r;
  });
  add("clSetMemObjectDestructorCallback", [] {
    cl_mem m = freshBuffer();
    const cl_int r = withoutHostMemory([&] { return clSetMemObjectDestructorCallback(m, onMem, nullptr); });
    clReleaseMemObject(m);
    return r;
  });

  // ---- programs and kernels ----
  add("clCreateProgramWithSource",
      [&f] { return created([&](cl_int* e) { return clCreateProgramWithSource(f.ctx, 1, &kSource, nullptr, e); }); });
  add("clCreateProgramWithIL", [&f] {
    return created([&](cl_int* e) { return clCreateProgramWithIL(f.ctx, f.vaddSpv.data(), f.vaddSpv.size(), e); });
  });
  add("clCreateProgramWithBinary", [&f] {
    const unsigned char* bin = f.vaddSpv.data();
    const size_t len = f.vaddSpv.size();
    return created([&](cl_int* e) { return clCreateProgramWithBinary(f.ctx, 1, &f.device, &len, &bin, nullptr, e); });
  });
  add("clSetProgramSpecializationConstant", [&f] {
    const auto spv = Fixture::read(CLREF_GOLDEN_DIR "/spv/spec_constants.spv");
    cl_int e;
    cl_program p = clCreateProgramWithIL(f.ctx, spv.data(), spv.size(), &e);
    const cl_uint value = 7;
    const cl_int r = withoutHostMemory([&] { return clSetProgramSpecializationConstant(p, 0, sizeof value, &value); });
    clReleaseProgram(p);
    return r;
  });
  add("clBuildProgram", [] {
    cl_program p = freshProgram();
    const cl_int r = withoutHostMemory([&] { return clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr); });
    clReleaseProgram(p);
    return r;
  });
  add("clCompileProgram", [] {
    cl_program p = freshProgram();
    const cl_int r = withoutHostMemory(
        [&] { return clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); });
    clReleaseProgram(p);
    return r;
  });
  add("clLinkProgram", [&f] {
    cl_program object = freshProgram();
    clCompileProgram(object, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
    const cl_int r =
        created([&](cl_int* e) { return clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &object, nullptr, nullptr, e); });
    clReleaseProgram(object);
    return r;
  });
  add("clGetProgramInfo", [&f] {
    char text[4096];
    return withoutHostMemory(
        [&] { return clGetProgramInfo(f.il, CL_PROGRAM_KERNEL_NAMES, sizeof text, text, nullptr); });
  });
  add("clCreateKernel", [&f] { return created([&](cl_int* e) { return clCreateKernel(f.il, "vadd", e); }); });
  add("clCreateKernelsInProgram", [&f] {
    cl_kernel k[4] = {};
    const cl_int r = withoutHostMemory([&] { return clCreateKernelsInProgram(f.il, 4, k, nullptr); });
    for (cl_kernel x : k)
      if (r == CL_SUCCESS && x) clReleaseKernel(x);
    return r;
  });
  add("clSetKernelArg", [] {
    const cl_int value = 2;
    cl_kernel k = objs().k;
    return withoutHostMemory([&] { return clSetKernelArg(k, 1, sizeof value, &value); });
  });
  add("clSetKernelExecInfo", [&f] {
    void* ptrs[] = {f.svm, f.svm + 64};
    return withoutHostMemory(
        [&] { return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs); });
  });
  add("clCloneKernel", [&f] { return created([&](cl_int* e) { return clCloneKernel(f.vadd, e); }); });
  add("clEnqueueNDRangeKernel", [&f] {
    const size_t g = 64;
    return thenFinish(withoutHostMemory(
        [&] { return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g, nullptr, 0, nullptr, nullptr); }));
  });
  add("clEnqueueTask",
      [&f] { return thenFinish(withoutHostMemory([&] { return clEnqueueTask(f.q, f.vadd, 0, nullptr, nullptr); })); });

  // ---- buffer commands ----
  add("clEnqueueReadBuffer", [&f] {
    char host[64];
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 64, host, 0, nullptr, nullptr); }));
  });
  add("clEnqueueReadBuffer", [&f] {  // clEnqueueWriteBuffer, listed on the same page
    char host[64] = {};
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueWriteBuffer(f.q, f.buf, CL_TRUE, 0, 64, host, 0, nullptr, nullptr); }));
  });
  add("clEnqueueReadBufferRect", [&f] {
    char host[64];
    const size_t origin[3] = {0, 0, 0}, region[3] = {8, 8, 1};
    return thenFinish(withoutHostMemory([&] {
      return clEnqueueReadBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr,
                                     nullptr);
    }));
  });
  add("clEnqueueReadBufferRect", [&f] {  // clEnqueueWriteBufferRect
    char host[64] = {};
    const size_t origin[3] = {0, 0, 0}, region[3] = {8, 8, 1};
    return thenFinish(withoutHostMemory([&] {
      return clEnqueueWriteBufferRect(f.q, f.buf, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr,
                                      nullptr);
    }));
  });
  add("clEnqueueCopyBuffer", [&f] {
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueCopyBuffer(f.q, f.buf, f.buf2, 0, 0, 64, 0, nullptr, nullptr); }));
  });
  add("clEnqueueCopyBufferRect", [&f] {
    const size_t origin[3] = {0, 0, 0}, region[3] = {8, 8, 1};
    return thenFinish(withoutHostMemory([&] {
      return clEnqueueCopyBufferRect(f.q, f.buf, f.buf2, origin, origin, region, 0, 0, 0, 0, 0, nullptr, nullptr);
    }));
  });
  add("clEnqueueFillBuffer", [&f] {
    const cl_int pattern = 3;
    return thenFinish(withoutHostMemory(
        [&] { return clEnqueueFillBuffer(f.q, f.buf, &pattern, sizeof pattern, 0, 64, 0, nullptr, nullptr); }));
  });
  add("clEnqueueMapBuffer", [&f] {
    cl_int e = 12345;
    void* p = nullptr;
    withoutHostMemory([&] {
      p = clEnqueueMapBuffer(f.q, f.buf2, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &e);
      return e;
    });
    if (p) clEnqueueUnmapMemObject(f.q, f.buf2, p, 0, nullptr, nullptr);
    return thenFinish(e);
  });
  add("clEnqueueUnmapMemObject", [&f] {
    cl_int e;
    void* p = clEnqueueMapBuffer(f.q, f.buf2, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &e);
    const cl_int r = withoutHostMemory([&] { return clEnqueueUnmapMemObject(f.q, f.buf2, p, 0, nullptr, nullptr); });
    // a failed unmap leaves the region mapped: unmapping it again succeeds
    if (r != CL_SUCCESS && clEnqueueUnmapMemObject(f.q, f.buf2, p, 0, nullptr, nullptr) != CL_SUCCESS)
      return CL_INVALID_VALUE;
    return thenFinish(r);
  });
  add("clEnqueueMigrateMemObjects", [&f] {
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueMigrateMemObjects(f.q, 1, &f.buf, 0, 0, nullptr, nullptr); }));
  });
  add("clCreatePipe", [&f] { return created([&](cl_int* e) { return clCreatePipe(f.ctx, 0, 16, 8, nullptr, e); }); });
  // The SVM commands, on the fixture's SVM allocation (a callback stands in for the free).
  add("clEnqueueSVMFree", [&f] {
    void* ptrs[] = {f.svm};
    return thenFinish(withoutHostMemory([&] {
      return clEnqueueSVMFree(
          f.q, 1, ptrs, [](cl_command_queue, cl_uint, void**, void*) {}, nullptr, 0, nullptr, nullptr);
    }));
  });
  add("clEnqueueSVMMemcpy", [&f] {
    return thenFinish(withoutHostMemory(
        [&] { return clEnqueueSVMMemcpy(f.q, CL_TRUE, f.svm + 64, f.svm, 64, 0, nullptr, nullptr); }));
  });
  add("clEnqueueSVMMemFill", [&f] {
    const cl_int pattern = 7;
    return thenFinish(withoutHostMemory(
        [&] { return clEnqueueSVMMemFill(f.q, f.svm, &pattern, sizeof pattern, 64, 0, nullptr, nullptr); }));
  });
  add("clEnqueueSVMMap", [&f] {
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, f.svm, 64, 0, nullptr, nullptr); }));
  });
  add("clEnqueueSVMUnmap", [&f] {
    return thenFinish(withoutHostMemory([&] { return clEnqueueSVMUnmap(f.q, f.svm, 0, nullptr, nullptr); }));
  });
  add("clEnqueueSVMMigrateMem", [&f] {
    const void* ptrs[] = {f.svm};
    return thenFinish(
        withoutHostMemory([&] { return clEnqueueSVMMigrateMem(f.q, 1, ptrs, nullptr, 0, 0, nullptr, nullptr); }));
  });
  return v;
}

const bool registered = registerErrorTable({"host_memory", cases, {}});

}  // namespace
}  // namespace clref_test
