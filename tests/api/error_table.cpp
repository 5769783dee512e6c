// The registry of error tables and the objects they share (see error_table.hpp).
#include "error_table.hpp"

#include <fstream>
#include <iterator>

namespace clref_test {

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

Fixture& fx() {
  static Fixture f;
  return f;
}

cl_int err(const std::function<void(cl_int*)>& f) {
  cl_int e = 12345;
  f(&e);
  return e;
}

}  // namespace clref_test
