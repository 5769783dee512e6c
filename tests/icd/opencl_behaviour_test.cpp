// Behaviour checks of the OpenCL C API beyond error codes (linked directly against clref's
// library): reference counts and destructor callbacks, user events, sub-buffers, kernel faults,
// program binaries. The error conditions are in the errors_*_test.cpp tables.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "error_table.hpp"

#include <CL/cl_ext.h>

using namespace clref_test;

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
  clSetMemObjectDestructorCallback(
      m, [](cl_mem, void* d) { order.push_back(int(reinterpret_cast<intptr_t>(d))); }, reinterpret_cast<void*>(1));
  clSetMemObjectDestructorCallback(
      m, [](cl_mem, void* d) { order.push_back(int(reinterpret_cast<intptr_t>(d))); }, reinterpret_cast<void*>(2));
  clReleaseMemObject(m);
  CHECK(order.empty());
  clReleaseMemObject(m);
  // OpenCL 3.0 API §5.5.1 [[_retaining_and_releasing_memory_objects]]: callbacks in the reverse order of registration
  CHECK(order == std::vector<int>{2, 1});
  CHECK(clRetainMemObject(m) == CL_INVALID_MEM_OBJECT);
}

// A handle that never was an object: linked directly, clref's registry answers CL_INVALID_*.
// Through the ICD loader this cannot be made safe: the loader itself reads the first word as the
// dispatch table before clref is reached (c_released_handles.c tests released handles there).
TEST_CASE("handles to garbage are invalid (linked directly)", "[opencl]") {
  alignas(void*) unsigned char garbage[64];
  std::memset(garbage, 0xA5, sizeof garbage);
  CHECK(clRetainMemObject(reinterpret_cast<cl_mem>(garbage)) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(reinterpret_cast<cl_mem>(garbage)) == CL_INVALID_MEM_OBJECT);
  CHECK(clRetainKernel(reinterpret_cast<cl_kernel>(garbage)) == CL_INVALID_KERNEL);
  CHECK(clFinish(reinterpret_cast<cl_command_queue>(garbage)) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseContext(reinterpret_cast<cl_context>(garbage)) == CL_INVALID_CONTEXT);
}

// Released objects of every kind stay behind as tombstones (icd/objects.hpp): a released
// handle keeps the dispatch table first and is answered CL_INVALID_<OBJECT>.
TEST_CASE("released handles keep the dispatch table and are invalid", "[opencl]") {
  auto& f = fx();
  cl_int e;
  cl_mem m = clCreateBuffer(f.ctx, 0, 64, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  void* dispatch = *reinterpret_cast<void**>(m);
  REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
  CHECK(*reinterpret_cast<void**>(m) == dispatch);
  CHECK(clReleaseMemObject(m) == CL_INVALID_MEM_OBJECT);
  cl_event ev = clCreateUserEvent(f.ctx, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(ev, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clReleaseEvent(ev) == CL_SUCCESS);
  CHECK(*reinterpret_cast<void**>(ev) == dispatch);
  CHECK(clReleaseEvent(ev) == CL_INVALID_EVENT);
}

TEST_CASE("user events hold commands back, callbacks fire", "[opencl]") {
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
  clSetEventCallback(
      w, CL_COMPLETE, [](cl_event, cl_int s, void*) { fired = s == CL_COMPLETE ? 1 : -1; }, nullptr);
  REQUIRE(clSetUserEventStatus(u, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof out, &out, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(out == 7);
  CHECK(fired == 1);
  clReleaseEvent(w);
  clReleaseEvent(u);
  clReleaseMemObject(m);
}

TEST_CASE("sub-buffers view their parent, USE_HOST_PTR is the host memory", "[opencl]") {
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

TEST_CASE("reading a USE_HOST_PTR buffer into its own host memory keeps the data", "[opencl][fuzz]") {
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]]: a read with ptr = host_ptr + offset of a
  // CL_MEM_USE_HOST_PTR buffer is allowed (the buffer's storage is that memory). Found by fuzz_opencl_api: the copy
  // used memcpy with equal source and destination (AddressSanitizer: memcpy-param-overlap). A read into memory that
  // overlaps the storage at another offset moves the bytes as memmove would.
  auto& f = fx();
  cl_int e;
  std::vector<unsigned char> host(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i);
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR, host.size(), host.data(), &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 8, 16, host.data() + 8, 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < host.size(); ++i) CHECK(host[i] == i);
  CHECK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 16, host.data() + 4, 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < 4; ++i) CHECK(host[i] == i);
  for (size_t i = 4; i < 20; ++i) CHECK(host[i] == i - 4);
  for (size_t i = 20; i < host.size(); ++i) CHECK(host[i] == i);
  clReleaseMemObject(m);
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

TEST_CASE("program binaries round-trip, specialization-free IL accepts build options", "[opencl]") {
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

namespace {

// Builds an OpenCL C program of f.ctx (clang-15 and llvm-spirv-15 are present in the test setup).
cl_program buildSource(const char* src, const char* options) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &src, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 0, nullptr, options, nullptr, nullptr) == CL_SUCCESS);
  return p;
}

std::vector<int> readInts(cl_command_queue q, cl_mem m, size_t n) {
  std::vector<int> v(n);
  REQUIRE(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), v.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("a kernel fault reaches the context's callback with the diagnostic", "[opencl]") {
  // OpenCL 3.0 API §4.4 [[_contexts]] clCreateContext pfn_notify: "report information on errors during
  // context creation as well as errors that occur at runtime in this context".
  static std::vector<std::string> messages;
  messages.clear();
  auto notify = [](const char* errinfo, const void*, size_t, void*) { messages.emplace_back(errinfo); };
  cl_int e;
  cl_context ctx = clCreateContext(nullptr, 1, &fx().device, notify, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, fx().device, nullptr, &e);
  cl_program p = clCreateProgramWithIL(ctx, fx().vaddSpv.data(), fx().vaddSpv.size(), &e);
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "vadd", &e);
  cl_mem small = clCreateBuffer(ctx, 0, 16, nullptr, &e);  // 4 floats for 64 work-items
  for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(k, i, sizeof small, &small);
  size_t g = 64;
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(q);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("out-of-bounds read of 4 bytes at offset 16") != std::string::npos);
  CHECK(messages[0].find("work-item: global (4,0,0)") != std::string::npos);
  CHECK(messages[0].find("vadd") != std::string::npos);
  clReleaseMemObject(small);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST_CASE("profiling timestamps are ordered and measure the command", "[opencl]") {
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(fx().ctx, fx().device, props, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_ulong host0 = 0, host1 = 0;
  REQUIRE(clGetHostTimer(fx().device, &host0) == CL_SUCCESS);
  size_t g = 1024;  // vadd over the fixture's 4096-byte buffers
  cl_event ev;
  REQUIRE(clEnqueueNDRangeKernel(q, fx().vadd, 1, nullptr, &g, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
  REQUIRE(clGetHostTimer(fx().device, &host1) == CL_SUCCESS);
  cl_ulong t[4];
  const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) REQUIRE(clGetEventProfilingInfo(ev, names[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS);
  CHECK(host0 <= t[0]);
  CHECK(t[0] <= t[1]);
  CHECK(t[1] <= t[2]);
  CHECK(t[2] < t[3]);  // running 1024 work-items takes time
  CHECK(t[3] <= host1);
  clReleaseEvent(ev);
  clReleaseCommandQueue(q);
}

TEST_CASE("clCompileProgram with a header and -D, then clLinkProgram, gives a working kernel", "[opencl]") {
  cl_int e;
  const char* header = "#define SCALE 3\n";
  const char* src =
      "#include \"scale.h\"\nkernel void k(global int* p) { size_t i = get_global_id(0); p[i] = (int)i * SCALE + "
      "OFFSET; }\n";
  cl_program h = clCreateProgramWithSource(fx().ctx, 1, &header, nullptr, &e);
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &src, nullptr, &e);
  const char* name = "scale.h";
  REQUIRE(clCompileProgram(p, 0, nullptr, "-DOFFSET=7", 1, &h, &name, nullptr, nullptr) == CL_SUCCESS);
  cl_uint type = 0;
  clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program linked = clLinkProgram(fx().ctx, 0, nullptr, nullptr, 1, &p, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_kernel k = clCreateKernel(linked, "k", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t g = 64;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  const auto v = readInts(fx().q, m, 64);
  for (int i = 0; i < 64; ++i) CHECK(v[i] == i * 3 + 7);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(linked);
  clReleaseProgram(p);
  clReleaseProgram(h);
}

TEST_CASE("clCloneKernel copies the arguments set so far", "[opencl]") {
  cl_program p = buildSource("kernel void k(global int* p, int v) { p[get_global_id(0)] = v; }\n", nullptr);
  cl_int e;
  cl_kernel k = clCreateKernel(p, "k", &e);
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 16 * sizeof(int), nullptr, &e);
  const int v = 42;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof v, &v);
  cl_kernel clone = clCloneKernel(k, &e);
  REQUIRE(e == CL_SUCCESS);
  const int other = 5;
  clSetKernelArg(k, 1, sizeof other, &other);  // the clone keeps 42
  size_t g = 16;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, clone, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  for (int x : readInts(fx().q, m, 16)) CHECK(x == 42);
  clReleaseKernel(clone);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}

TEST_CASE("buffer commands move the bytes the spec says", "[opencl]") {
  cl_int e;
  cl_command_queue q = fx().q;
  constexpr size_t n = 64;  // an 8×8 int matrix
  std::vector<int> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = int(i);
  cl_mem a = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(int), host.data(), &e);
  cl_mem b = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, n * sizeof(int), nullptr, &e);
  REQUIRE(e == CL_SUCCESS);

  SECTION("fill, then a 3×2 rectangle copied from (1,2) to (4,5)") {
    const int pattern = -1;
    REQUIRE(clEnqueueFillBuffer(q, b, &pattern, sizeof pattern, 0, n * sizeof(int), 0, nullptr, nullptr) == CL_SUCCESS);
    const size_t src[3] = {1 * sizeof(int), 2, 0}, dst[3] = {4 * sizeof(int), 5, 0},
                 region[3] = {3 * sizeof(int), 2, 1};
    const size_t pitch = 8 * sizeof(int);
    REQUIRE(clEnqueueCopyBufferRect(q, a, b, src, dst, region, pitch, 0, pitch, 0, 0, nullptr, nullptr) == CL_SUCCESS);
    const auto v = readInts(q, b, n);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) {
        const bool inside = x >= 4 && x < 7 && y >= 5 && y < 7;
        INFO("x " << x << " y " << y);
        CHECK(v[size_t(y * 8 + x)] == (inside ? (y - 3) * 8 + (x - 3) : -1));
      }
  }
  SECTION("a rectangle read with a host pitch") {
    const size_t origin[3] = {2 * sizeof(int), 1, 0}, hostOrigin[3] = {0, 0, 0}, region[3] = {2 * sizeof(int), 3, 1};
    std::vector<int> out(6, 0);
    REQUIRE(clEnqueueReadBufferRect(q, a, CL_TRUE, origin, hostOrigin, region, 8 * sizeof(int), 0, 2 * sizeof(int), 0,
                                    out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(out == std::vector<int>{10, 11, 18, 19, 26, 27});
  }
  SECTION("writes through a map are visible after unmap; reads see the data") {
    int* p = static_cast<int*>(
        clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, n * sizeof(int), 0, nullptr, nullptr, &e));
    REQUIRE(e == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i) p[i] = int(1000 + i);
    REQUIRE(clEnqueueUnmapMemObject(q, b, p, 0, nullptr, nullptr) == CL_SUCCESS);
    const auto v = readInts(q, b, n);
    for (size_t i = 0; i < n; ++i) CHECK(v[i] == int(1000 + i));
  }
  SECTION("CL_MEM_COPY_HOST_PTR copied at creation: later host writes do not reach the buffer") {
    host[0] = 777;
    CHECK(readInts(q, a, 1)[0] == 0);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_CASE("markers and barriers honour their wait lists, out-of-order queues are accepted", "[opencl]") {
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(fx().ctx, fx().device, props, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_event gate = clCreateUserEvent(fx().ctx, &e);
  cl_event marker, barrier;
  REQUIRE(clEnqueueMarkerWithWaitList(q, 1, &gate, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier) == CL_SUCCESS);
  cl_int status = 0;
  clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status > CL_COMPLETE);  // still waiting for the user event
  clGetEventInfo(barrier, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status > CL_COMPLETE);  // a barrier waits for every earlier command
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &barrier) == CL_SUCCESS);
  clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  CHECK(status == CL_COMPLETE);
  clReleaseEvent(marker);
  clReleaseEvent(barrier);
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
}

TEST_CASE("a binary keeps its program's binary type: compiled object, library, executable", "[opencl]") {
  // OpenCL 3.0 API §5.8.9 [[_program_object_queries]] CL_PROGRAM_BINARY_TYPE of a program created from a binary.
  cl_int e;
  const char* src = "kernel void k(global int* p) { p[get_global_id(0)] = 7; }\n";
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &src, nullptr, &e);
  REQUIRE(clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_program lib = clLinkProgram(fx().ctx, 0, nullptr, "-create-library", 1, &p, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_program exe = clLinkProgram(fx().ctx, 0, nullptr, nullptr, 1, &p, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  auto roundTrip = [&](cl_program from) {
    size_t size = 0;
    REQUIRE(clGetProgramInfo(from, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> bin(size);
    unsigned char* ptr = bin.data();
    REQUIRE(clGetProgramInfo(from, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) == CL_SUCCESS);
    const unsigned char* cptr = bin.data();
    cl_int status;
    cl_program q = clCreateProgramWithBinary(fx().ctx, 1, &fx().device, &size, &cptr, &status, &e);
    REQUIRE(e == CL_SUCCESS);
    cl_program_binary_type type = 0;
    clGetProgramBuildInfo(q, fx().device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
    return std::pair{q, type};
  };
  auto [objectBin, objectType] = roundTrip(p);
  CHECK(objectType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  auto [libBin, libType] = roundTrip(lib);
  CHECK(libType == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  auto [exeBin, exeType] = roundTrip(exe);
  CHECK(exeType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  // The compiled object's binary links into a working executable.
  cl_program relinked = clLinkProgram(fx().ctx, 0, nullptr, nullptr, 1, &objectBin, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_kernel k = clCreateKernel(relinked, "k", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), nullptr, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t g = 4;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  for (int x : readInts(fx().q, m, 4)) CHECK(x == 7);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  for (cl_program q : {relinked, objectBin, libBin, exeBin, exe, lib, p}) clReleaseProgram(q);
}

TEST_CASE("a failed OpenCL C build leaves the compiler's messages in the build log", "[opencl]") {
  cl_int e;
  const char* src = "kernel void k(global int* p) { p[0] = undeclared_name; }\n";
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &src, nullptr, &e);
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
  CHECK(status == CL_BUILD_ERROR);
  size_t size = 0;
  clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  CHECK(log.find("undeclared_name") != std::string::npos);
  CHECK(log.find("error") != std::string::npos);
  clReleaseProgram(p);
}

TEST_CASE("the option -I names a directory of headers for clBuildProgram, options reach clang as the arguments they are",
          "[opencl]") {
  // The directory's name has a space, quotes and shell characters, a -D value has spaces (one
  // argument once the quotes go, OpenCL 3.0 API §5.8.6.1 [[preprocessor-options]]): no shell splits or interprets them.
  const auto inc =
      std::filesystem::temp_directory_path() / ("clref include 'test' $(false);" + std::to_string(getpid()));
  std::filesystem::create_directories(inc);
  { std::ofstream(inc / "value.h") << "#define VALUE 1234\n"; }
  const std::string options = "-I \"" + inc.string() + "\" -DOFFSET=\"6 * 7\"";
  cl_program p =
      buildSource("#include \"value.h\"\nkernel void k(global int* p) { p[0] = VALUE + OFFSET; }\n", options.c_str());
  cl_int e;
  cl_kernel k = clCreateKernel(p, "k", &e);
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, sizeof(int), nullptr, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  REQUIRE(clEnqueueTask(fx().q, k, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(readInts(fx().q, m, 1)[0] == 1234 + 42);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  std::filesystem::remove_all(inc);
}

TEST_CASE("CLREF_CLANG and CLREF_LLVM_SPIRV choose the compiler at the time of the call", "[opencl]") {
  const auto available = [] {
    cl_bool a = CL_FALSE;
    clGetDeviceInfo(fx().device, CL_DEVICE_COMPILER_AVAILABLE, sizeof a, &a, nullptr);
    return a == CL_TRUE;
  };
  REQUIRE(available());
  // A name is looked up on PATH; a path is taken as it is, and when it names nothing the device
  // has no compiler (no fallback behind an explicit choice).
  setenv("CLREF_CLANG", "clang-15", 1);
  CHECK(available());
  setenv("CLREF_CLANG", "/nonexistent-clref-test-dir/clang-15", 1);
  CHECK(!available());
  unsetenv("CLREF_CLANG");
  setenv("CLREF_LLVM_SPIRV", "/nonexistent-clref-test-dir/llvm-spirv-15", 1);
  CHECK(!available());
  unsetenv("CLREF_LLVM_SPIRV");
  CHECK(available());
}

namespace {

struct DenormRun {
  float f;
  double d;
  int quotient;
};

// Builds `k` with `options`, runs it once: f[1] = f[0] + f[2], d[1] = d[0] + d[2] with a denormal
// in f[0]/d[0] and zeros in f[2]/d[2], and q[2] = q[0] / q[1] with q[1] = 0.
DenormRun runDenormKernel(const char* options) {
  cl_program p = buildSource(
      "kernel void k(global float* f, global double* d, global int* q) {\n"
      "  f[1] = f[0] + f[2]; d[1] = d[0] + d[2]; q[2] = q[0] / q[1];\n}\n",
      options);
  cl_int e;
  cl_kernel k = clCreateKernel(p, "k", &e);
  float f[3] = {1e-40f, 0, 0};
  double d[3] = {1e-310, 0, 0};
  int q[3] = {41, 0, 0};
  cl_mem F = clCreateBuffer(fx().ctx, CL_MEM_COPY_HOST_PTR, sizeof f, f, &e);
  cl_mem D = clCreateBuffer(fx().ctx, CL_MEM_COPY_HOST_PTR, sizeof d, d, &e);
  cl_mem Q = clCreateBuffer(fx().ctx, CL_MEM_COPY_HOST_PTR, sizeof q, q, &e);
  clSetKernelArg(k, 0, sizeof F, &F);
  clSetKernelArg(k, 1, sizeof D, &D);
  clSetKernelArg(k, 2, sizeof Q, &Q);
  REQUIRE(clEnqueueTask(fx().q, k, 0, nullptr, nullptr) == CL_SUCCESS);
  clEnqueueReadBuffer(fx().q, F, CL_TRUE, 0, sizeof f, f, 0, nullptr, nullptr);
  clEnqueueReadBuffer(fx().q, D, CL_TRUE, 0, sizeof d, d, 0, nullptr, nullptr);
  clEnqueueReadBuffer(fx().q, Q, CL_TRUE, 0, sizeof q, q, 0, nullptr, nullptr);
  for (cl_mem m : {F, D, Q}) clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return {f[1], d[1], q[2]};
}

}  // namespace

TEST_CASE("the option -cl-denorms-are-zero flushes float denormals (choice denorms_are_zero)", "[opencl]") {
  if (std::getenv("CLREF_CHOICES")) return;  // the registry defaults are checked here
  const DenormRun plain = runDenormKernel("-cl-std=CL1.2");
  CHECK(plain.f == 1e-40f);
  CHECK(plain.d == 1e-310);
  const DenormRun daz = runDenormKernel("-cl-std=CL1.2 -cl-denorms-are-zero");
  CHECK(daz.f == 0.0f);
  CHECK(daz.d == 1e-310);    // double denormals stay by default
  CHECK(daz.quotient == 0);  // int_div_by_zero=zero by default
}

// Run by ctest with CLREF_CHOICES="int_div_by_zero=dividend, denorms_are_zero=flush_float_and_double
// no_such_choice=x": choices reach programs that run unmodified through the ICD, and the bad
// assignment is ignored (with a message on stderr).
TEST_CASE("CLREF_CHOICES switches the registry's choices for the ICD", "[.choices_env]") {
  REQUIRE(std::getenv("CLREF_CHOICES"));
  const DenormRun daz = runDenormKernel("-cl-std=CL1.2 -cl-denorms-are-zero");
  CHECK(daz.f == 0.0f);
  CHECK(daz.d == 0.0);
  CHECK(daz.quotient == 41);
}

TEST_CASE("clEnqueueNDRangeKernel: global sizes whose product overflows size_t are refused", "[opencl]") {
  // Found by fuzzing: 2^32 · 2^32 wrapped around to 0 work-items and the command did nothing, successfully. The host
  // API's NDRange check (host::checkNDRange) refuses it; OpenCL 3.0 API §5.10 [[_executing_kernels]]: a global size
  // beyond the device's size_t is CL_INVALID_GLOBAL_WORK_SIZE.
  auto& f = fx();
  const size_t g2[2] = {size_t(1) << 32, size_t(1) << 32};
  CHECK(clEnqueueNDRangeKernel(f.q, f.vadd, 2, nullptr, g2, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t g3[3] = {65536, 65536, size_t(1) << 32};
  CHECK(clEnqueueNDRangeKernel(f.q, f.vadd, 3, nullptr, g3, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t l3[3] = {1, 1, 1};
  CHECK(clEnqueueNDRangeKernel(f.q, f.vadd, 3, nullptr, g3, l3, 0, nullptr, nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  // Local sizes whose product wraps around (2^32 · 2^32 == 0): each dimension is checked first, so the product of
  // sizes up to CL_DEVICE_MAX_WORK_ITEM_SIZES cannot wrap.
  const size_t gl[2] = {size_t(1) << 32, 1}, ll[2] = {size_t(1) << 32, size_t(1) << 32};
  CHECK(clEnqueueNDRangeKernel(f.q, f.vadd, 2, nullptr, gl, ll, 0, nullptr, nullptr) == CL_INVALID_WORK_ITEM_SIZE);
  // A zero global size is still an empty launch (OpenCL 2.1 and newer), whatever the other sizes.
  const size_t g0[3] = {size_t(1) << 32, size_t(1) << 32, 0};
  CHECK(clEnqueueNDRangeKernel(f.q, f.vadd, 3, nullptr, g0, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clFinish(f.q) == CL_SUCCESS);
}

TEST_CASE("CL_KERNEL_PRIVATE_MEM_SIZE counts the kernel's private arrays", "[opencl]") {
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]]: "the minimum amount of private memory, in bytes, used by each
  // work-item in the kernel". A private array indexed at run time must live in memory: 4096 ints are 16384 bytes.
  cl_program p = buildSource(
      "kernel void big(global int* o, int n) { int t[4096]; for (int i = 0; i < 4096; ++i) t[i] = i * n;\n"
      "  o[get_global_id(0)] = t[(get_global_id(0) * 7) & 4095]; }\n"
      "kernel void small(global int* o) { o[get_global_id(0)] = 1; }\n",
      nullptr);
  cl_int e;
  cl_kernel big = clCreateKernel(p, "big", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_kernel small = clCreateKernel(p, "small", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_ulong bigBytes = 0, smallBytes = 0;
  REQUIRE(clGetKernelWorkGroupInfo(big, fx().device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof bigBytes, &bigBytes, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clGetKernelWorkGroupInfo(small, fx().device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof smallBytes, &smallBytes,
                                   nullptr) == CL_SUCCESS);
  CHECK(bigBytes >= 4096 * sizeof(int));
  CHECK(smallBytes < 4096 * sizeof(int));
  clReleaseKernel(big);
  clReleaseKernel(small);
  clReleaseProgram(p);
}

TEST_CASE("CL_KERNEL_WORK_GROUP_SIZE shrinks when a work-group's private memory would exceed clref's bound",
          "[opencl]") {
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_WORK_GROUP_SIZE: "the maximum work-group size that can
  // be used to execute a kernel ... uses the resource requirements of the kernel"; §5.10 [[_executing_kernels]]
  // clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE for a larger local size. With a barrier every work-item of a
  // group is alive at once, each holding a 12 MiB private array; clref bounds a work-group at 1 GiB.
  const char* src =
      "#define N (3 << 20)\n"
      "kernel void withBarrier(global int* o, int n) { int t[N]; for (int i = 0; i < N; ++i) t[i] = i * n;\n"
      "  barrier(CLK_GLOBAL_MEM_FENCE); o[get_global_id(0)] = t[(get_global_id(0) * 7919) % N]; }\n"
      "kernel void noBarrier(global int* o, int n) { int t[N]; for (int i = 0; i < N; ++i) t[i] = i * n;\n"
      "  o[get_global_id(0)] = t[(get_global_id(0) * 7919) % N]; }\n";
  cl_program p = buildSource(src, nullptr);
  cl_int e;
  cl_kernel withBarrier = clCreateKernel(p, "withBarrier", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_kernel noBarrier = clCreateKernel(p, "noBarrier", &e);
  REQUIRE(e == CL_SUCCESS);
  size_t deviceMax = 0, withMax = 0, noMax = 0;
  clGetDeviceInfo(fx().device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof deviceMax, &deviceMax, nullptr);
  clGetKernelWorkGroupInfo(withBarrier, fx().device, CL_KERNEL_WORK_GROUP_SIZE, sizeof withMax, &withMax, nullptr);
  clGetKernelWorkGroupInfo(noBarrier, fx().device, CL_KERNEL_WORK_GROUP_SIZE, sizeof noMax, &noMax, nullptr);
  const size_t arrayBytes = size_t(3) << 22;
  CHECK(withMax >= 1);
  CHECK(withMax * arrayBytes <= (size_t(1) << 30));
  CHECK(withMax < deviceMax);
  CHECK(noMax == deviceMax);  // without a barrier the work-items of a group run a few at a time

  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), nullptr, &e);
  const int n = 3;
  for (cl_kernel k : {withBarrier, noBarrier}) {
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof n, &n);
  }
  const size_t tooMany = withMax + 1;
  CHECK(clEnqueueNDRangeKernel(fx().q, withBarrier, 1, nullptr, &tooMany, &tooMany, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  const size_t two = 2;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, withBarrier, 1, nullptr, &two, &two, 0, nullptr, nullptr) == CL_SUCCESS);
  const auto out = readInts(fx().q, m, 2);
  CHECK(out[0] == 0);
  CHECK(out[1] == 7919 * n);
  clReleaseMemObject(m);
  clReleaseKernel(withBarrier);
  clReleaseKernel(noBarrier);
  clReleaseProgram(p);
}

TEST_CASE("sub-groups through the ICD: the queries and a sub-group reduction", "[opencl][subgroups]") {
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelSubGroupInfo, checked against the device's
  // CL_DEVICE_MAX_NUM_SUB_GROUPS and the sub-group size the kernel itself reports (get_max_sub_group_size).
  cl_program p = buildSource(
      "kernel void sg(global uint* o) { size_t i = get_global_id(0);\n"
      "  o[i * 3] = get_max_sub_group_size(); o[i * 3 + 1] = get_num_sub_groups();\n"
      "  o[i * 3 + 2] = sub_group_reduce_add((uint)i); }\n",
      "-cl-std=CL3.0");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "sg", &e);
  REQUIRE(e == CL_SUCCESS);
  const size_t n = 48, local = 48;
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, n * 3 * sizeof(cl_uint), nullptr, &e);
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_uint> out(n * 3);
  REQUIRE(clEnqueueReadBuffer(fx().q, m, CL_TRUE, 0, out.size() * sizeof(cl_uint), out.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  const size_t sg = out[0];
  REQUIRE(sg >= 1);
  // The kernel's view: sub-groups of sg consecutive work-items, the last one smaller; each sums its own ids.
  CHECK(out[1] == (local + sg - 1) / sg);
  for (size_t i = 0; i < n; ++i) {
    const size_t first = i / sg * sg, last = std::min(n, first + sg);
    cl_uint sum = 0;
    for (size_t j = first; j < last; ++j) sum += cl_uint(j);
    CHECK(out[i * 3 + 2] == sum);
  }
  // The queries agree with it.
  size_t v = 0;
  const size_t local2[2] = {6, 5};
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local2, local2,
                                  sizeof v, &v, nullptr) == CL_SUCCESS);
  CHECK(v == std::min<size_t>(sg, 30));
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local,
                                  sizeof v, &v, nullptr) == CL_SUCCESS);
  CHECK(v == out[1]);
  const size_t two = 2;
  size_t size3[3] = {9, 9, 9};
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof two, &two,
                                  sizeof size3, size3, nullptr) == CL_SUCCESS);
  CHECK(size3[0] == 2 * sg);
  CHECK(size3[1] == 1);
  CHECK(size3[2] == 1);
  size_t kernelMax = 0, maxSg = 0, compileSg = 1;
  cl_uint deviceMaxSg = 0;
  size_t deviceMaxGroup = 0;
  clGetKernelWorkGroupInfo(k, fx().device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelMax, &kernelMax, nullptr);
  clGetDeviceInfo(fx().device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof deviceMaxSg, &deviceMaxSg, nullptr);
  clGetDeviceInfo(fx().device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof deviceMaxGroup, &deviceMaxGroup, nullptr);
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof maxSg, &maxSg,
                                  nullptr) == CL_SUCCESS);
  CHECK(maxSg == (kernelMax + sg - 1) / sg);
  CHECK(deviceMaxSg == (deviceMaxGroup + sg - 1) / sg);
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr, sizeof compileSg,
                                  &compileSg, nullptr) == CL_SUCCESS);
  CHECK(compileSg == 0);
  const size_t tooMany = kernelMax / sg + 1;
  REQUIRE(clGetKernelSubGroupInfo(k, fx().device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof tooMany, &tooMany,
                                  sizeof size3, size3, nullptr) == CL_SUCCESS);
  CHECK(size3[0] == 0);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("CLREF_BUDGET ends a runaway loop through the ICD after that many instructions", "[.limits_env]") {
  // Run by the ctest opencl_limits_from_environment with CLREF_BUDGET=20000 and CLREF_THREADS=1: with the default
  // budget (2^32 instructions per work-item) this loop would run for minutes before the fault.
  REQUIRE(std::getenv("CLREF_BUDGET"));
  static std::vector<std::string> messages;
  messages.clear();
  auto notify = [](const char* errinfo, const void*, size_t, void*) { messages.emplace_back(errinfo); };
  cl_int e;
  cl_context ctx = clCreateContext(nullptr, 1, &fx().device, notify, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, fx().device, nullptr, &e);
  const char* src = "kernel void spin(global volatile int* a) { while (a[0] == 0) a[1] += 1; }\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &e);
  REQUIRE(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "spin", &e);
  const int zeros[2] = {0, 0};
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof zeros, const_cast<int*>(zeros), &e);
  clSetKernelArg(k, 0, sizeof a, &a);
  size_t g = 1;
  cl_event ev;
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("20000") != std::string::npos);
  int counted[2] = {0, 0};
  REQUIRE(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof counted, counted, 0, nullptr, nullptr) == CL_SUCCESS);
  // A few instructions per iteration: thousands of iterations, not the millions of the default budget.
  CHECK(counted[1] > 100);
  CHECK(counted[1] < 20000);
  clReleaseEvent(ev);
  clReleaseMemObject(a);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST_CASE("CLREF_LOG=choices reports on stderr the named choices a kernel's run decided", "[.log_env]") {
  // Run by the ctest opencl_log_choices with CLREF_LOG=choices: a program that runs unmodified through the ICD sees
  // which choices decided its values, as `clref run` prints them.
  REQUIRE(std::getenv("CLREF_LOG"));
  cl_int e;
  cl_context ctx = clCreateContext(nullptr, 1, &fx().device, nullptr, nullptr, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, fx().device, nullptr, &e);
  const char* src = "kernel void m(global uint* a) { size_t i = get_global_id(0); a[i] = mul24(a[i], 2u); }\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &e);
  REQUIRE(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "m", &e);
  const cl_uint values[4] = {1, 0x1000003, 2, 0x2000000};  // two beyond 24 bits
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof values, const_cast<cl_uint*>(values), &e);
  clSetKernelArg(k, 0, sizeof a, &a);
  // stderr into a file for the length of the command.
  std::fflush(stderr);
  const int saved = dup(2);
  FILE* capture = std::tmpfile();
  REQUIRE(capture);
  dup2(fileno(capture), 2);
  size_t g = 4, l = 4;
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(q) == CL_SUCCESS);
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text(4096, '\0');
  std::rewind(capture);
  text.resize(std::fread(text.data(), 1, text.size(), capture));
  std::fclose(capture);
  INFO(text);
  CHECK(text.find("clref: kernel m:\nchoice mul24_out_of_range=low_24_bits (default) decided 2 values; the first: "
                  "mul24/mad24 operand beyond 24 bits\n  work-item: global (1,0,0)") != std::string::npos);
  clReleaseMemObject(a);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST_CASE("cl_khr_suggested_local_work_size: the size a NULL local size launches, with the enqueue's errors",
          "[opencl]") {
  // OpenCL Extension Specification 3.0.12 §41 "Suggested Local Work Size Query": found through the platform, and the
  // size matches what clEnqueueNDRangeKernel chooses (choice default_local_size: the largest divisor of the first
  // global size up to 64, the other dimensions 1).
  auto& f = fx();
  auto fn = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(f.platform, "clGetKernelSuggestedLocalWorkSizeKHR"));
  REQUIRE(fn);
  size_t ext = 0;
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS, 0, nullptr, &ext) == CL_SUCCESS);
  std::string names(ext, '\0');
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS, ext, names.data(), nullptr) == CL_SUCCESS);
  CHECK(names.find("cl_khr_suggested_local_work_size") != std::string::npos);
  struct Case {
    cl_uint dims;
    size_t global[3];
    size_t expected[3];
  };
  for (const Case& c :
       {Case{1, {1024, 1, 1}, {64, 1, 1}}, Case{1, {96, 1, 1}, {48, 1, 1}}, Case{1, {97, 1, 1}, {1, 1, 1}},
        Case{2, {60, 7, 1}, {60, 1, 1}}, Case{3, {128, 2, 3}, {64, 1, 1}}}) {
    size_t local[3] = {0, 0, 0};
    INFO(c.global[0] << " x " << c.global[1] << " x " << c.global[2]);
    REQUIRE(fn(f.q, f.vadd, c.dims, nullptr, c.global, local) == CL_SUCCESS);
    for (cl_uint d = 0; d < c.dims; ++d) CHECK(local[d] == c.expected[d]);
  }
  const size_t g[1] = {64}, zero[1] = {0};
  size_t local[3];
  CHECK(fn(f.q, f.vadd, 1, nullptr, nullptr, local) == CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(fn(f.q, f.vadd, 1, nullptr, zero, local) == CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(fn(f.q, f.vadd, 1, nullptr, g, nullptr) == CL_INVALID_VALUE);
  CHECK(fn(f.q, f.vadd, 0, nullptr, g, local) == CL_INVALID_WORK_DIMENSION);
  CHECK(fn(f.q, kBadKernel, 1, nullptr, g, local) == CL_INVALID_KERNEL);
  CHECK(fn(kBadQueue, f.vadd, 1, nullptr, g, local) == CL_INVALID_COMMAND_QUEUE);
  CHECK(fn(f.q2, f.vadd, 1, nullptr, g, local) == CL_INVALID_CONTEXT);
  const size_t offset[1] = {SIZE_MAX};
  CHECK(fn(f.q, f.vadd, 1, offset, g, local) == CL_INVALID_GLOBAL_OFFSET);
}

TEST_CASE("integer dot product and float atomic capabilities are reported", "[opencl]") {
  auto& f = fx();
  cl_device_integer_dot_product_capabilities_khr dot = 0;
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof dot, &dot, nullptr) ==
          CL_SUCCESS);
  CHECK(dot ==
        (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
  cl_device_integer_dot_product_acceleration_properties_khr acc;
  std::memset(&acc, 0xff, sizeof acc);
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR, sizeof acc, &acc,
                          nullptr) == CL_SUCCESS);
  CHECK(acc.signed_accelerated == CL_FALSE);
  CHECK(acc.accumulating_saturating_mixed_signedness_accelerated == CL_FALSE);
  // cl_ext_float_atomics (cl.xml: CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231, the bits 0-2 and 16-18).
  for (cl_device_info q : {0x4231u, 0x4232u, 0x4233u}) {
    cl_bitfield caps = 0;
    REQUIRE(clGetDeviceInfo(f.device, q, sizeof caps, &caps, nullptr) == CL_SUCCESS);
    CHECK(caps == ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 16) | (1u << 17) | (1u << 18)));
  }
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<cl_name_version> v(size / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, v.data(), nullptr) == CL_SUCCESS);
  bool dotFound = false, atomicsFound = false;
  for (const auto& e : v) {
    if (std::string(e.name) == "cl_khr_integer_dot_product") dotFound = e.version == CL_MAKE_VERSION(2, 0, 0);
    if (std::string(e.name) == "cl_ext_float_atomics") atomicsFound = true;
  }
  CHECK(dotFound);
  CHECK(atomicsFound);
}

TEST_CASE("CL_KERNEL_ATTRIBUTES: the source's attribute qualifiers, with or without argument info, after a link",
          "[opencl][program]") {
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_ATTRIBUTES: the attributes the kernel was declared
  // with in the source, separated by spaces. Without -cl-kernel-arg-info clref reads them only when asked.
  const char* source =
      "kernel __attribute__((vec_type_hint(float4))) __attribute__((reqd_work_group_size(8, 2, 1)))\n"
      "void a(global int* p) { p[0] = 1; }\n"
      "kernel __attribute__((work_group_size_hint(4, 1, 1))) void b(global int* p) { p[0] = 2; }\n"
      "kernel void c(global int* p) { p[0] = 3; }\n";
  auto attributes = [](cl_program program, const char* name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    size_t size = 0;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, nullptr, &size) == CL_SUCCESS);
    std::string text(size, '\0');
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, size, text.data(), nullptr) == CL_SUCCESS);
    clReleaseKernel(k);
    return std::string(text.c_str());
  };
  auto check = [&](cl_program program) {
    CHECK(attributes(program, "a") == "vec_type_hint(float4) reqd_work_group_size(8,2,1)");
    CHECK(attributes(program, "b") == "work_group_size_hint(4,1,1)");
    CHECK(attributes(program, "c").empty());
  };
  for (const char* options : {"", "-cl-kernel-arg-info"}) {
    INFO("build options: " << options);
    const SourceProgram built(source, options);
    check(built.program);
    clReleaseProgram(built.program);
  }
  cl_int err = CL_SUCCESS;
  cl_program object = clCreateProgramWithSource(fx().ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clCompileProgram(object, 1, &fx().device, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_program linked = clLinkProgram(fx().ctx, 1, &fx().device, "", 1, &object, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  check(linked);
  clReleaseProgram(linked);
  clReleaseProgram(object);
}

TEST_CASE("SPIR-V 1.5 and 1.6 are reported and accepted through the ICD", "[opencl][program]") {
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_IL_VERSION and CL_DEVICE_ILS_WITH_VERSION: the
  // versions clCreateProgramWithIL accepts (OpenCL SPIR-V Environment §2.1 [[_supported_spir_v_versions]]).
  auto& f = fx();
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_IL_VERSION, 0, nullptr, &size) == CL_SUCCESS);
  std::string ils(size, '\0');
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_IL_VERSION, size, ils.data(), nullptr) == CL_SUCCESS);
  for (const char* v : {"SPIR-V_1.0", "SPIR-V_1.4", "SPIR-V_1.5", "SPIR-V_1.6"}) CHECK(ils.find(v) != std::string::npos);
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_ILS_WITH_VERSION, size, versions.data(), nullptr) == CL_SUCCESS);
  std::vector<cl_version> spirv;
  for (const auto& v : versions)
    if (std::string(v.name) == "SPIR-V") spirv.push_back(v.version);
  for (cl_uint minor = 0; minor <= 6; ++minor)
    CHECK(std::count(spirv.begin(), spirv.end(), CL_MAKE_VERSION(1, minor, 0)) == 1);

  // A SPIR-V 1.6 kernel (hand-assembled words: out[0] = 7) builds and runs.
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "seven"
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
  %gptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %gptr_uint
    %c_seven = OpConstant %uint 7
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_uint
      %entry = OpLabel
               OpStore %out %c_seven
               OpReturn
               OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::vector<uint32_t> words;
  REQUIRE(tools.Assemble(text, &words));
  REQUIRE(words[1] == 0x00010600);
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(f.ctx, words.data(), words.size() * 4, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 1, &f.device, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "seven", &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem out = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 4, nullptr, &e);
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  uint32_t value = 0;
  REQUIRE(clEnqueueReadBuffer(f.q, out, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(value == 7);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("cl_khr_spirv_queries through clGetDeviceInfo", "[opencl][program]") {
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR (0x12B9) and
  // CL_DEVICE_SPIRV_EXTENSIONS_KHR (0x12BA) are arrays of string pointers, CL_DEVICE_SPIRV_CAPABILITIES_KHR (0x12BB)
  // an array of cl_uint tokens (cl.xml gives the values).
  auto& f = fx();
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) == CL_SUCCESS);
  std::string extensions(size, '\0');
  REQUIRE(clGetDeviceInfo(f.device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr) == CL_SUCCESS);
  CHECK(extensions.find("cl_khr_spirv_queries") != std::string::npos);
  auto strings = [&](cl_device_info q) {
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(f.device, q, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n % sizeof(const char*) == 0);
    std::vector<const char*> v(n / sizeof(const char*));
    REQUIRE(clGetDeviceInfo(f.device, q, n, v.data(), nullptr) == CL_SUCCESS);
    return std::vector<std::string>(v.begin(), v.end());
  };
  const auto sets = strings(0x12B9);
  CHECK(std::count(sets.begin(), sets.end(), "OpenCL.std") == 1);
  const auto spirvExtensions = strings(0x12BA);
  // cl_khr_integer_dot_product and cl_khr_expect_assume are reported, so their SPIR-V extensions are accepted.
  CHECK(std::count(spirvExtensions.begin(), spirvExtensions.end(), "SPV_KHR_integer_dot_product") == 1);
  CHECK(std::count(spirvExtensions.begin(), spirvExtensions.end(), "SPV_KHR_expect_assume") == 1);
  REQUIRE(clGetDeviceInfo(f.device, 0x12BB, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<cl_uint> caps(size / sizeof(cl_uint));
  REQUIRE(clGetDeviceInfo(f.device, 0x12BB, size, caps.data(), nullptr) == CL_SUCCESS);
  // Kernel (6) and Addresses (4) are required of every OpenCL device; Shader (1) is refused in kernels.
  CHECK(std::count(caps.begin(), caps.end(), 6u) == 1);
  CHECK(std::count(caps.begin(), caps.end(), 4u) == 1);
  CHECK(std::count(caps.begin(), caps.end(), 1u) == 0);
  CHECK(caps.size() > 30);
  // Too small a buffer is CL_INVALID_VALUE, as for every query.
  cl_uint one = 0;
  CHECK(clGetDeviceInfo(f.device, 0x12BB, sizeof one, &one, nullptr) == CL_INVALID_VALUE);
}
