// Pipes through the OpenCL C API (OpenCL 3.0 API §5.4 [[_pipes]]): a pipe object's queries, and a producer kernel
// whose packets a consumer kernel reads in a later command. Expected values are computed on the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "error_table.hpp"

using namespace clref_test;

namespace {

const char* kSource = R"CL(
typedef struct { int id; float value; } Packet;
kernel void produce(global const float* in, write_only pipe Packet p) {
  Packet k = {(int)get_global_id(0), in[get_global_id(0)]};
  write_pipe(p, &k);
}
kernel void consume(read_only pipe Packet p, global float* out) {
  Packet k;
  if (read_pipe(p, &k) == 0) out[k.id] = 2.0f * k.value;
}
)CL";

template <class T> T deviceInfo(cl_device_info what) {
  T v{};
  REQUIRE(clGetDeviceInfo(fx().device, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("pipes: the device reports them and a pipe answers its queries", "[opencl][pipes]") {
  CHECK(deviceInfo<cl_bool>(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
  CHECK(deviceInfo<cl_uint>(CL_DEVICE_MAX_PIPE_ARGS) >= 16);
  CHECK(deviceInfo<cl_uint>(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1);
  CHECK(deviceInfo<cl_uint>(CL_DEVICE_PIPE_MAX_PACKET_SIZE) >= 1024);
  cl_int e;
  cl_mem p = clCreatePipe(fx().ctx, 0, 8, 100, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_uint v = 0;
  REQUIRE(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, nullptr) == CL_SUCCESS);
  CHECK(v == 8);
  REQUIRE(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof v, &v, nullptr) == CL_SUCCESS);
  CHECK(v == 100);
  size_t bytes = 1;
  REQUIRE(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, nullptr, &bytes) == CL_SUCCESS);
  CHECK(bytes == 0);
  cl_mem_object_type type = 0;
  REQUIRE(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_MEM_OBJECT_PIPE);
  cl_mem_flags flags = 0;
  REQUIRE(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, nullptr) == CL_SUCCESS);
  CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));
  // A pipe is no buffer: buffer commands refuse it.
  char host[8];
  CHECK(clEnqueueReadBuffer(fx().q, p, CL_TRUE, 0, 8, host, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(p) == CL_SUCCESS);
}

TEST_CASE("the preferred work-group size multiple is the sub-group size", "[opencl]") {
  CHECK(deviceInfo<size_t>(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) == 32);
  size_t m = 0;
  REQUIRE(clGetKernelWorkGroupInfo(fx().vadd, fx().device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof m, &m,
                                   nullptr) == CL_SUCCESS);
  CHECK(m == 32);
}

TEST_CASE("pipes: a consumer kernel reads what a producer kernel wrote", "[opencl][pipes]") {
  cl_int e;
  cl_program program = clCreateProgramWithSource(fx().ctx, 1, &kSource, nullptr, &e);
  REQUIRE(clBuildProgram(program, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel produce = clCreateKernel(program, "produce", &e), consume = clCreateKernel(program, "consume", &e);
  constexpr size_t n = 200;
  std::vector<float> in(n), out(n, -1.0f);
  for (size_t i = 0; i < n; ++i) in[i] = float(i) * 0.25f - 7.0f;
  cl_mem inBuf = clCreateBuffer(fx().ctx, CL_MEM_COPY_HOST_PTR, n * 4, in.data(), &e);
  cl_mem outBuf = clCreateBuffer(fx().ctx, CL_MEM_COPY_HOST_PTR, n * 4, out.data(), &e);
  cl_mem pipe = clCreatePipe(fx().ctx, 0, 8, n, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  // The argument kinds are checked: a buffer is no pipe, a pipe no buffer, and the packet type's size is the pipe's.
  CHECK(clSetKernelArg(produce, 1, sizeof inBuf, &inBuf) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(produce, 0, sizeof pipe, &pipe) == CL_INVALID_MEM_OBJECT);
  REQUIRE(clSetKernelArg(produce, 0, sizeof inBuf, &inBuf) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(produce, 1, sizeof pipe, &pipe) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(consume, 0, sizeof pipe, &pipe) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(consume, 1, sizeof outBuf, &outBuf) == CL_SUCCESS);
  const size_t global = n, local = 40;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, produce, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx().q, consume, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx().q, outBuf, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) CHECK(out[i] == 2.0f * in[i]);
  for (cl_mem m : {inBuf, outBuf, pipe}) clReleaseMemObject(m);
  clReleaseKernel(produce);
  clReleaseKernel(consume);
  clReleaseProgram(program);
}
