// The registry of error tables and the objects they share (see error_table.hpp).
#include "error_table.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace clref_test {

// The device of these tests has four compute units whatever the host's thread count (the sub-device tables split
// it), unless the test's environment names another count: set before main, before the device is made.
[[maybe_unused]] const bool kFourComputeUnits = setenv("CLREF_THREADS", "4", 0) == 0;

namespace {
std::vector<ErrorTable>& tables() {
  static std::vector<ErrorTable> t;
  return t;
}
}  // namespace

bool registerErrorTable(ErrorTable table) {
  tables().push_back(std::move(table));
  return true;
}

const std::vector<ErrorTable>& errorTables() { return tables(); }

std::vector<unsigned char> Fixture::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Fixture::Fixture() {
  cl_int e;
  clGetPlatformIDs(1, &platform, nullptr);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
  ctx2 = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
  q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &e);
  q2 = clCreateCommandQueueWithProperties(ctx2, device, nullptr, &e);
  const cl_queue_properties onDevice[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  dq = clCreateCommandQueueWithProperties(ctx, device, onDevice, &e);
  buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, nullptr, &e);
  buf2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, nullptr, &e);
  cl_buffer_region r{128, 256};
  sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  hostWriteOnly = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 64, nullptr, &e);
  ctx2buf = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, 64, nullptr, &e);
  svm = static_cast<unsigned char*>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0));
  ctx2svm = static_cast<unsigned char*>(clSVMAlloc(ctx2, CL_MEM_READ_WRITE, 64, 0));
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
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id subs[64];
  cl_uint n = 0;
  if (clCreateSubDevices(device, equally, 64, subs, &n) != CL_SUCCESS || n < 2) {
    // A test run that sets CLREF_THREADS=1 itself (the limits test) has no sub-devices; it uses none.
    std::fprintf(stderr, "error tables: the device has fewer than 2 compute units; no sub-devices\n");
    return;
  }
  subA = subs[0];
  subB = subs[1];
  for (cl_uint i = 2; i < n; ++i) clReleaseDevice(subs[i]);
  subCtx = clCreateContext(nullptr, 2, subs, nullptr, nullptr, &e);
  subQA = clCreateCommandQueueWithProperties(subCtx, subA, nullptr, &e);
  subQB = clCreateCommandQueueWithProperties(subCtx, subB, nullptr, &e);
  subProgramA = clCreateProgramWithIL(subCtx, vaddSpv.data(), vaddSpv.size(), &e);
  clBuildProgram(subProgramA, 1, &subA, nullptr, nullptr, nullptr);
  subVaddA = clCreateKernel(subProgramA, "vadd", &e);
  cl_mem sb = clCreateBuffer(subCtx, CL_MEM_READ_WRITE, 4096, nullptr, &e);
  for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(subVaddA, i, sizeof sb, &sb);
}

Fixture& fx() {
  static Fixture f;
  return f;
}

namespace {
struct QueueKernel {
  cl_kernel kernel = nullptr;
  std::string log;
  QueueKernel() {
    const char* source = "kernel void takes_queue(queue_t q, global int* out) { out[0] = 1; }";
    cl_int e;
    cl_program p = clCreateProgramWithSource(fx().ctx, 1, &source, nullptr, &e);
    if (clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0 -cl-kernel-arg-info", nullptr, nullptr) == CL_SUCCESS) {
      kernel = clCreateKernel(p, "takes_queue", &e);
    } else {
      size_t n = 0;
      clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      log.resize(n);
      clGetProgramBuildInfo(p, fx().device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      if (log.find("DeviceEnqueue") == std::string::npos)
        std::fprintf(stderr, "error tables: a kernel with a queue_t parameter does not build:\n%s\n", log.c_str());
    }
    clReleaseProgram(p);  // the kernel keeps it alive
  }
};
QueueKernel& queueKernelBuild() {
  static QueueKernel k;
  return k;
}
}  // namespace

cl_kernel queueKernel() { return queueKernelBuild().kernel; }
const std::string& queueKernelLog() { return queueKernelBuild().log; }

cl_int err(const std::function<void(cl_int*)>& f) {
  cl_int e = 12345;
  f(&e);
  return e;
}

}  // namespace clref_test

namespace clref_test {

SourceProgram::SourceProgram(const char* source, const char* options) {
  cl_int e;
  program = clCreateProgramWithSource(fx().ctx, 1, &source, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  if (clBuildProgram(program, 0, nullptr, options, nullptr, nullptr) != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, fx().device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, fx().device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    FAIL("the build failed:\n" << log);
  }
}

cl_kernel SourceProgram::kernel(const char* name) const {
  cl_int e;
  cl_kernel k = clCreateKernel(program, name, &e);
  REQUIRE(e == CL_SUCCESS);
  return k;
}

}  // namespace clref_test
