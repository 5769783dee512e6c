// Sub-devices through the OpenCL C API (linked directly against clref's library): OpenCL 3.0 API §4.3
// [[platform-device-partitioning]]. The test binary's device has four compute units (error_table.cpp sets
// CLREF_THREADS=4 before the device is made). Expected values: the partition table of the spec worked out by hand, and
// a kernel's results computed on the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "error_table.hpp"

using namespace clref_test;

namespace {

template <class T> T deviceInfo(cl_device_id d, cl_device_info what) {
  T v{};
  REQUIRE(clGetDeviceInfo(d, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

std::vector<cl_device_partition_property> partitionList(cl_device_id d, cl_device_info what) {
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(d, what, 0, nullptr, &bytes) == CL_SUCCESS);
  std::vector<cl_device_partition_property> v(bytes / sizeof(cl_device_partition_property));
  if (bytes) REQUIRE(clGetDeviceInfo(d, what, bytes, v.data(), nullptr) == CL_SUCCESS);
  return v;
}

std::vector<cl_device_id> partition(cl_device_id d, std::vector<cl_device_partition_property> props) {
  cl_uint n = 0;
  REQUIRE(clCreateSubDevices(d, props.data(), 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_device_id> out(n);
  cl_uint again = 0;
  REQUIRE(clCreateSubDevices(d, props.data(), n, out.data(), &again) == CL_SUCCESS);
  CHECK(again == n);
  return out;
}

void releaseAll(const std::vector<cl_device_id>& devices) {
  for (cl_device_id d : devices) CHECK(clReleaseDevice(d) == CL_SUCCESS);
}

const char* kTriple =
    "kernel void triple(global const int* in, global int* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * 3 + (int)i;\n"
    "}\n";

// Runs triple on `queue` over 256 elements and compares with the host's in[i] * 3 + i.
void runTriple(cl_context ctx, cl_command_queue queue, cl_kernel k) {
  constexpr size_t n = 256;
  std::vector<int32_t> in(n), out(n, -1);
  for (size_t i = 0; i < n; ++i) in[i] = int32_t(i * 7 - 300);
  cl_int e;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, in.data(), &e);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, nullptr, &e);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof b, &b);
  const size_t g = n, l = 32;
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &g, &l, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) CHECK(out[i] == in[i] * 3 + int32_t(i));
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

}  // namespace

TEST_CASE("the root device reports its partitions", "[opencl][sub-devices]") {
  auto& f = fx();
  CHECK(deviceInfo<cl_uint>(f.device, CL_DEVICE_MAX_COMPUTE_UNITS) == 4);
  CHECK(deviceInfo<cl_uint>(f.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 4);
  CHECK(partitionList(f.device, CL_DEVICE_PARTITION_PROPERTIES) ==
        std::vector<cl_device_partition_property>{CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS});
  CHECK(deviceInfo<cl_device_affinity_domain>(f.device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN) == 0);
  CHECK(partitionList(f.device, CL_DEVICE_PARTITION_TYPE).empty());
  CHECK(deviceInfo<cl_device_id>(f.device, CL_DEVICE_PARENT_DEVICE) == nullptr);
  // A root device is not reference counted.
  CHECK(clRetainDevice(f.device) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(f.device, CL_DEVICE_REFERENCE_COUNT) == 1);
  CHECK(clReleaseDevice(f.device) == CL_SUCCESS);
}

TEST_CASE("equal partitions: as many sub-devices of n compute units as fit", "[opencl][sub-devices]") {
  auto& f = fx();
  const std::vector<cl_device_partition_property> props = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
  auto subs = partition(f.device, props);
  REQUIRE(subs.size() == 2);
  CHECK(subs[0] != subs[1]);
  for (cl_device_id d : subs) {
    CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) == 2);
    CHECK(deviceInfo<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == f.device);
    CHECK(partitionList(d, CL_DEVICE_PARTITION_TYPE) == props);
    CHECK(deviceInfo<cl_device_type>(d, CL_DEVICE_TYPE) == deviceInfo<cl_device_type>(f.device, CL_DEVICE_TYPE));
    CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
  }
  CHECK(clRetainDevice(subs[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  CHECK(clReleaseDevice(subs[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT) == 1);
  releaseAll(subs);
  // Released: the handles are no devices any more.
  CHECK(clRetainDevice(subs[0]) == CL_INVALID_DEVICE);

  // 3 compute units each from 4: one sub-device, the fourth unit unused.
  auto three = partition(f.device, {CL_DEVICE_PARTITION_EQUALLY, 3, 0});
  REQUIRE(three.size() == 1);
  CHECK(deviceInfo<cl_uint>(three[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 3);
  releaseAll(three);
}

TEST_CASE("partitions by counts, and a sub-device partitioned again", "[opencl][sub-devices]") {
  auto& f = fx();
  const std::vector<cl_device_partition_property> props = {CL_DEVICE_PARTITION_BY_COUNTS, 3, 1,
                                                           CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  auto subs = partition(f.device, props);
  REQUIRE(subs.size() == 2);
  CHECK(deviceInfo<cl_uint>(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 3);
  CHECK(deviceInfo<cl_uint>(subs[1], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
  CHECK(partitionList(subs[0], CL_DEVICE_PARTITION_TYPE) == props);
  // One compute unit cannot be split into two: no scheme (CL_DEVICE_PARTITION_PROPERTIES {0}).
  CHECK(partitionList(subs[1], CL_DEVICE_PARTITION_PROPERTIES) == std::vector<cl_device_partition_property>{0});
  CHECK(deviceInfo<cl_uint>(subs[1], CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);

  auto inner = partition(subs[0], {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
  REQUIRE(inner.size() == 3);
  for (cl_device_id d : inner) {
    CHECK(deviceInfo<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == subs[0]);
    CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
  }
  // The parent outlives the application's release while its sub-devices live: their CL_DEVICE_PARENT_DEVICE stays
  // that handle, and the parent's memory is not reused.
  releaseAll(subs);
  CHECK(deviceInfo<cl_device_id>(inner[0], CL_DEVICE_PARENT_DEVICE) == subs[0]);
  releaseAll(inner);
}

TEST_CASE("contexts of sub-devices: programs per device, kernels on each device's queue", "[opencl][sub-devices]") {
  auto& f = fx();
  cl_int e;
  auto subs = partition(f.device, {CL_DEVICE_PARTITION_EQUALLY, 2, 0});
  REQUIRE(subs.size() == 2);
  // Duplicates are ignored; the order given is kept.
  const cl_device_id listed[] = {subs[1], f.device, subs[0], subs[1]};
  cl_context ctx = clCreateContext(nullptr, 4, listed, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_uint nd = 0;
  clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, nullptr);
  CHECK(nd == 3);
  std::vector<cl_device_id> ctxDevices(3);
  clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 3 * sizeof(cl_device_id), ctxDevices.data(), nullptr);
  CHECK(ctxDevices == std::vector<cl_device_id>{subs[1], f.device, subs[0]});

  cl_command_queue q0 = clCreateCommandQueueWithProperties(ctx, ctxDevices[2], nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, ctxDevices[0], nullptr, &e);
  cl_command_queue qRoot = clCreateCommandQueueWithProperties(ctx, f.device, nullptr, &e);
  cl_device_id qd = nullptr;
  clGetCommandQueueInfo(q0, CL_QUEUE_DEVICE, sizeof qd, &qd, nullptr);
  CHECK(qd == ctxDevices[2]);

  cl_program p = clCreateProgramWithSource(ctx, 1, &kTriple, nullptr, &e);
  cl_uint pn = 0;
  clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof pn, &pn, nullptr);
  CHECK(pn == 3);
  // Built for one sub-device: the others have no build.
  REQUIRE(clBuildProgram(p, 1, &ctxDevices[2], nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_build_status st[3];
  for (int i = 0; i < 3; ++i)
    clGetProgramBuildInfo(p, ctxDevices[i], CL_PROGRAM_BUILD_STATUS, sizeof st[i], &st[i], nullptr);
  CHECK(st[0] == CL_BUILD_NONE);
  CHECK(st[1] == CL_BUILD_NONE);
  CHECK(st[2] == CL_BUILD_SUCCESS);
  size_t sizes[3] = {1, 1, 1};
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, nullptr);
  CHECK(sizes[0] == 0);
  CHECK(sizes[1] == 0);
  CHECK(sizes[2] > 0);
  cl_kernel k = clCreateKernel(p, "triple", &e);
  REQUIRE(e == CL_SUCCESS);
  runTriple(ctx, q0, k);
  const size_t g = 1;
  CHECK(clEnqueueNDRangeKernel(q1, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) == CL_INVALID_PROGRAM_EXECUTABLE);
  size_t wg = 0;
  CHECK(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetKernelWorkGroupInfo(k, ctxDevices[0], CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) == CL_SUCCESS);
  clReleaseKernel(k);

  // Built for the root device: its sub-devices use the parent's binary (the note to clGetProgramBuildInfo).
  REQUIRE(clBuildProgram(p, 1, &f.device, nullptr, nullptr, nullptr) == CL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    clGetProgramBuildInfo(p, ctxDevices[i], CL_PROGRAM_BUILD_STATUS, sizeof st[i], &st[i], nullptr);
    CHECK(st[i] == CL_BUILD_SUCCESS);
  }
  k = clCreateKernel(p, "triple", &e);
  runTriple(ctx, q1, k);
  clReleaseKernel(k);

  // Built for all: every device's queue runs it.
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    clGetProgramBuildInfo(p, ctxDevices[i], CL_PROGRAM_BUILD_STATUS, sizeof st[i], &st[i], nullptr);
    CHECK(st[i] == CL_BUILD_SUCCESS);
  }
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, nullptr);
  CHECK(sizes[0] == sizes[2]);
  CHECK(sizes[1] == sizes[2]);
  k = clCreateKernel(p, "triple", &e);
  for (cl_command_queue q : {q0, q1, qRoot}) runTriple(ctx, q, k);

  // The binaries: one per device, identical; a program from two of them for two devices builds and runs.
  std::vector<unsigned char> bin(sizes[0]);
  unsigned char* ptrs[3] = {bin.data(), nullptr, nullptr};
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, nullptr) == CL_SUCCESS);
  const unsigned char* bins[2] = {bin.data(), bin.data()};
  const size_t lengths[2] = {bin.size(), bin.size()};
  const cl_device_id two[2] = {ctxDevices[0], ctxDevices[2]};
  cl_int status[2] = {1, 1};
  cl_program fromBinary = clCreateProgramWithBinary(ctx, 2, two, lengths, bins, status, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(status[0] == CL_SUCCESS);
  CHECK(status[1] == CL_SUCCESS);
  cl_uint bn = 0;
  clGetProgramInfo(fromBinary, CL_PROGRAM_NUM_DEVICES, sizeof bn, &bn, nullptr);
  CHECK(bn == 2);
  REQUIRE(clBuildProgram(fromBinary, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel kb = clCreateKernel(fromBinary, "triple", &e);
  runTriple(ctx, q1, kb);
  // A device outside the binary program's list: no executable for the root device's queue.
  CHECK(clEnqueueNDRangeKernel(qRoot, kb, 1, nullptr, &g, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_PROGRAM_EXECUTABLE);
  // Different binaries for different devices: clref keeps one executable per program, so it refuses them.
  std::vector<unsigned char> other = bin;
  other.push_back(0);
  other.push_back(0);
  other.push_back(0);
  other.push_back(0);
  const unsigned char* mixed[2] = {bin.data(), other.data()};
  const size_t mixedLengths[2] = {bin.size(), other.size()};
  CHECK(err([&](cl_int* r) { clCreateProgramWithBinary(ctx, 2, two, mixedLengths, mixed, nullptr, r); }) ==
        CL_INVALID_BINARY);

  clReleaseKernel(kb);
  clReleaseProgram(fromBinary);
  clReleaseKernel(k);
  clReleaseProgram(p);
  for (cl_command_queue q : {q0, q1, qRoot}) clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  releaseAll(subs);
}
