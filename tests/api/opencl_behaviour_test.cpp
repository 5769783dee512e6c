// Behaviour checks of the OpenCL C API beyond error codes (linked directly against clref's
// library): reference counts and destructor callbacks, user events, sub-buffers, kernel faults,
// program binaries. The error conditions are in the errors_*_test.cpp tables.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "error_table.hpp"

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
