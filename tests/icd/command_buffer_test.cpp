// cl_khr_command_buffer through the OpenCL C API (OpenCL 3.0 API §5.17 [[_command_buffers]]): commands recorded once
// and enqueued twice over different buffer contents, checked against the same computation on the host; the states and
// queries; and each error of misuse the extension lists.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "../../icd/command_buffer_khr.hpp"  // the 0.9.8 entry points' types (Debian's CL/cl_ext.h is older)
#include "error_table.hpp"

using namespace clref_test;
namespace khr = clref::cl::khr;

namespace {

const char* kSource = R"CL(
kernel void axpb(global const int* in, global int* out, int a, int b) {
  size_t i = get_global_id(0);
  out[i] = a * in[i] + b;
}
)CL";

const SourceProgram& program() {
  static const SourceProgram p(kSource, "-cl-std=CL3.0");
  return p;
}

template <class F> F entry(const char* name) {
  void* p = clGetExtensionFunctionAddressForPlatform(fx().platform, name);
  REQUIRE(p != nullptr);
  return reinterpret_cast<F>(p);
}

struct Api {
  khr::CreateCommandBuffer create = entry<khr::CreateCommandBuffer>("clCreateCommandBufferKHR");
  khr::CommandBufferCall finalize = entry<khr::CommandBufferCall>("clFinalizeCommandBufferKHR");
  khr::CommandBufferCall retain = entry<khr::CommandBufferCall>("clRetainCommandBufferKHR");
  khr::CommandBufferCall release = entry<khr::CommandBufferCall>("clReleaseCommandBufferKHR");
  khr::EnqueueCommandBuffer enqueue = entry<khr::EnqueueCommandBuffer>("clEnqueueCommandBufferKHR");
  khr::CommandBarrierWithWaitList barrier = entry<khr::CommandBarrierWithWaitList>("clCommandBarrierWithWaitListKHR");
  khr::CommandCopyBuffer copy = entry<khr::CommandCopyBuffer>("clCommandCopyBufferKHR");
  khr::CommandCopyBufferRect copyRect = entry<khr::CommandCopyBufferRect>("clCommandCopyBufferRectKHR");
  khr::CommandFillBuffer fill = entry<khr::CommandFillBuffer>("clCommandFillBufferKHR");
  khr::CommandFillImage fillImage = entry<khr::CommandFillImage>("clCommandFillImageKHR");
  khr::CommandCopyImageToBuffer copyImageToBuffer =
      entry<khr::CommandCopyImageToBuffer>("clCommandCopyImageToBufferKHR");
  khr::CommandNDRangeKernel ndrange = entry<khr::CommandNDRangeKernel>("clCommandNDRangeKernelKHR");
  khr::CommandSVMMemFill svmFill = entry<khr::CommandSVMMemFill>("clCommandSVMMemFillKHR");
  khr::GetCommandBufferInfo info = entry<khr::GetCommandBufferInfo>("clGetCommandBufferInfoKHR");
};

const Api& api() {
  static const Api a;
  return a;
}

cl_mem newBuffer(size_t bytes) {
  cl_int err = 0;
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return m;
}

cl_command_buffer_khr newCommandBuffer(cl_command_queue q = fx().q) {
  cl_int err = 1;
  cl_command_buffer_khr b = api().create(1, &q, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(b != nullptr);
  return b;
}

cl_command_buffer_state_khr stateOf(cl_command_buffer_khr b) {
  cl_command_buffer_state_khr s = 99;
  REQUIRE(api().info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

}  // namespace

TEST_CASE("command-buffer: the device reports cl_khr_command_buffer 0.9.8 and its queries",
          "[opencl][command_buffer]") {
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &bytes) == CL_SUCCESS);
  std::vector<cl_name_version> v(bytes / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_EXTENSIONS_WITH_VERSION, bytes, v.data(), nullptr) == CL_SUCCESS);
  bool found = false;
  for (const auto& e : v)
    if (std::string(e.name) == "cl_khr_command_buffer") {
      found = true;
      CHECK(e.version == CL_MAKE_VERSION(0, 9, 8));  // cl.xml: revision="0.9.8"
    }
  CHECK(found);
  cl_command_queue_properties required = 99, supported = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR, sizeof required,
                          &required, nullptr) == CL_SUCCESS);
  CHECK(required == 0);
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR, sizeof supported,
                          &supported, nullptr) == CL_SUCCESS);
  CHECK(supported == (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  cl_device_command_buffer_capabilities_khr caps = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps, &caps, nullptr) ==
          CL_SUCCESS);
  CHECK((caps & CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR) != 0);
}

TEST_CASE("command-buffer: kernels, copies, fills and barriers recorded once run on each enqueue",
          "[opencl][command_buffer]") {
  constexpr size_t n = 64, h = n / 2;
  cl_mem in = newBuffer(n * 4), out = newBuffer(n * 4), res = newBuffer(n * 4), rect = newBuffer(n * 4);
  cl_kernel k = program().kernel("axpb");
  const cl_int a = 3, b = -7;
  REQUIRE(clSetKernelArg(k, 0, sizeof in, &in) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof a, &a) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof b, &b) == CL_SUCCESS);

  cl_command_buffer_khr cb = newCommandBuffer();
  CHECK(stateOf(cb) == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
  cl_sync_point_khr kernelDone = 0, copied = 0, barrier = 0, filled = 0;
  REQUIRE(api().ndrange(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr, &kernelDone, nullptr) ==
          CL_SUCCESS);
  // The kernel's arguments are those of record time (clCommandNDRangeKernelKHR): a later clSetKernelArg changes
  // nothing recorded.
  const cl_int other = 1000;
  REQUIRE(clSetKernelArg(k, 2, sizeof other, &other) == CL_SUCCESS);
  REQUIRE(api().barrier(cb, nullptr, nullptr, 1, &kernelDone, &barrier, nullptr) == CL_SUCCESS);
  // res = [42 x h | out[0..h)], then rect = res's rows reversed (two rows of h ints each).
  REQUIRE(api().copy(cb, nullptr, nullptr, out, res, 0, h * 4, h * 4, 1, &barrier, &copied, nullptr) == CL_SUCCESS);
  const cl_int fortyTwo = 42;
  REQUIRE(api().fill(cb, nullptr, nullptr, res, &fortyTwo, sizeof fortyTwo, 0, h * 4, 0, nullptr, &filled, nullptr) ==
          CL_SUCCESS);
  const cl_sync_point_khr both[] = {copied, filled};
  const size_t srcOrigin[3] = {0, 0, 0}, dstOrigin[3] = {0, 1, 0}, region[3] = {h * 4, 1, 1};
  REQUIRE(api().copyRect(cb, nullptr, nullptr, res, rect, srcOrigin, dstOrigin, region, h * 4, 0, h * 4, 0, 2, both,
                         nullptr, nullptr) == CL_SUCCESS);
  const size_t srcOrigin2[3] = {0, 1, 0}, dstOrigin2[3] = {0, 0, 0};
  REQUIRE(api().copyRect(cb, nullptr, nullptr, res, rect, srcOrigin2, dstOrigin2, region, h * 4, 0, h * 4, 0, 0,
                         nullptr, nullptr, nullptr) == CL_SUCCESS);
  // Sync points are distinct, one per command.
  CHECK(kernelDone != barrier);
  CHECK(barrier != copied);
  CHECK(copied != filled);
  REQUIRE(api().finalize(cb) == CL_SUCCESS);
  CHECK(stateOf(cb) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);

  for (int run = 0; run < 2; ++run) {
    std::vector<cl_int> input(n);
    for (size_t i = 0; i < n; ++i) input[i] = run == 0 ? cl_int(i) : cl_int(5 * i) - 100;
    REQUIRE(clEnqueueWriteBuffer(fx().q, in, CL_TRUE, 0, n * 4, input.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_event ev = nullptr;
    REQUIRE(api().enqueue(0, nullptr, cb, 0, nullptr, &ev) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    cl_int status = 1;
    REQUIRE(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(ev);
    std::vector<cl_int> got(n), gotRect(n);
    REQUIRE(clEnqueueReadBuffer(fx().q, res, CL_TRUE, 0, n * 4, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(fx().q, rect, CL_TRUE, 0, n * 4, gotRect.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> want(n), wantRect(n);
    for (size_t i = 0; i < h; ++i) {
      want[i] = 42;
      want[h + i] = a * input[i] + b;
    }
    for (size_t i = 0; i < h; ++i) {
      wantRect[h + i] = want[i];
      wantRect[i] = want[h + i];
    }
    CHECK(got == want);
    CHECK(gotRect == wantRect);
  }
  CHECK(api().release(cb) == CL_SUCCESS);
  // The command-buffer held the kernel; it is still the application's.
  CHECK(clReleaseKernel(k) == CL_SUCCESS);
  for (cl_mem m : {in, out, res, rect}) clReleaseMemObject(m);
}

TEST_CASE("command-buffer: image fill, image-to-buffer copy and SVM fill", "[opencl][command_buffer]") {
  cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 3;
  cl_int err = 0;
  cl_mem image = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem bytes = newBuffer(4 * 3 * 4);
  auto* svm = static_cast<cl_uchar*>(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0));
  REQUIRE(svm != nullptr);
  std::fill(svm, svm + 64, cl_uchar(0));
  cl_command_buffer_khr cb = newCommandBuffer();
  const cl_uint4 color{{1, 2, 250, 7}};
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 3, 1};
  REQUIRE(api().fillImage(cb, nullptr, nullptr, image, &color, origin, region, 0, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(api().copyImageToBuffer(cb, nullptr, nullptr, image, bytes, origin, region, 0, 0, nullptr, nullptr,
                                  nullptr) == CL_SUCCESS);
  const cl_ushort pattern = 0xBEEF;
  REQUIRE(api().svmFill(cb, nullptr, nullptr, svm + 8, &pattern, sizeof pattern, 16, 0, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(api().finalize(cb) == CL_SUCCESS);
  REQUIRE(api().enqueue(0, nullptr, cb, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx().q) == CL_SUCCESS);
  std::vector<cl_uchar> got(4 * 3 * 4);
  REQUIRE(clEnqueueReadBuffer(fx().q, bytes, CL_TRUE, 0, got.size(), got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < got.size(); i += 4) {
    CHECK(got[i] == 1);
    CHECK(got[i + 1] == 2);
    CHECK(got[i + 2] == 250);
    CHECK(got[i + 3] == 7);
  }
  for (size_t i = 0; i < 64; ++i) {
    const bool inside = i >= 8 && i < 24;
    CHECK(svm[i] == (!inside ? 0 : i % 2 == 0 ? 0xEF : 0xBE));  // little-endian 0xBEEF
  }
  api().release(cb);
  clSVMFree(fx().ctx, svm);
  clReleaseMemObject(bytes);
  clReleaseMemObject(image);
}

TEST_CASE("command-buffer: queries", "[opencl][command_buffer]") {
  cl_command_buffer_khr cb = newCommandBuffer();
  cl_uint count = 0;
  REQUIRE(api().info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count, nullptr) == CL_SUCCESS);
  CHECK(count == 1);
  cl_command_queue q = nullptr;
  REQUIRE(api().info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof q, &q, nullptr) == CL_SUCCESS);
  CHECK(q == fx().q);
  cl_context c = nullptr;
  REQUIRE(api().info(cb, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof c, &c, nullptr) == CL_SUCCESS);
  CHECK(c == fx().ctx);
  REQUIRE(api().retain(cb) == CL_SUCCESS);
  REQUIRE(api().info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof count, &count, nullptr) == CL_SUCCESS);
  CHECK(count == 2);
  size_t size = 99;
  REQUIRE(api().info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, nullptr, &size) == CL_SUCCESS);
  CHECK(size == 0);  // created with properties NULL
  CHECK(api().info(cb, 0x1234, sizeof count, &count, nullptr) == CL_INVALID_VALUE);
  CHECK(api().info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &count, nullptr) == CL_INVALID_VALUE);
  api().release(cb);
  api().release(cb);
  CHECK(api().info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count, nullptr) ==
        CL_INVALID_COMMAND_BUFFER_KHR);

  const cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  cl_int err = 1;
  cl_command_queue queue = fx().q;
  cl_command_buffer_khr withProps = api().create(1, &queue, props, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_buffer_properties_khr got[3] = {9, 9, 9};
  REQUIRE(api().info(withProps, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof got, got, &size) == CL_SUCCESS);
  CHECK(size == sizeof got);
  CHECK((got[0] == CL_COMMAND_BUFFER_FLAGS_KHR && got[1] == 0 && got[2] == 0));
  api().release(withProps);
}

TEST_CASE("command-buffer: the errors of misuse", "[opencl][command_buffer]") {
  const Api& x = api();
  cl_command_queue q = fx().q;
  cl_int err = 0;
  // clCreateCommandBufferKHR
  CHECK((x.create(1, nullptr, nullptr, &err) == nullptr && err == CL_INVALID_VALUE));
  CHECK((x.create(0, &q, nullptr, &err) == nullptr && err == CL_INVALID_VALUE));
  cl_command_queue two[2] = {q, q};
  CHECK((x.create(2, two, nullptr, &err) == nullptr && err == CL_INVALID_VALUE));
  cl_command_queue bad = reinterpret_cast<cl_command_queue>(uintptr_t(0x1234));
  CHECK((x.create(1, &bad, nullptr, &err) == nullptr && err == CL_INVALID_COMMAND_QUEUE));
  const cl_command_buffer_properties_khr unknown[] = {0x4242, 0, 0};
  CHECK((x.create(1, &q, unknown, &err) == nullptr && err == CL_INVALID_VALUE));
  const cl_command_buffer_properties_khr twice[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  CHECK((x.create(1, &q, twice, &err) == nullptr && err == CL_INVALID_VALUE));
  const cl_command_buffer_properties_khr flag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1, 0};
  CHECK((x.create(1, &q, flag, &err) == nullptr && err == CL_INVALID_PROPERTY));
  const cl_command_buffer_properties_khr noFlag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, cl_command_buffer_properties_khr(-1),
                                                     0};
  CHECK((x.create(1, &q, noFlag, &err) == nullptr && err == CL_INVALID_VALUE));

  cl_command_buffer_khr cb = newCommandBuffer();
  cl_mem buf = fx().buf, buf2 = fx().buf2;
  auto copy = [&](cl_command_buffer_khr b, cl_command_queue cq, const cl_command_properties_khr* props, size_t size,
                  cl_uint n, const cl_sync_point_khr* list, cl_mutable_command_khr* handle) {
    return x.copy(b, cq, props, buf, buf2, 0, 0, size, n, list, nullptr, handle);
  };
  cl_sync_point_khr first = 0;
  REQUIRE(x.copy(cb, nullptr, nullptr, buf, buf2, 0, 0, 16, 0, nullptr, &first, nullptr) == CL_SUCCESS);
  // The command-buffer's own errors (clCommandCopyBufferKHR "New errors" and replacements).
  CHECK(copy(cb, q, nullptr, 16, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(copy(nullptr, nullptr, nullptr, 16, 0, nullptr, nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  const cl_command_properties_khr props[] = {0x1111, 1, 0};
  CHECK(copy(cb, nullptr, props, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  cl_mutable_command_khr handle = nullptr;
  CHECK(copy(cb, nullptr, nullptr, 16, 0, nullptr, &handle) == CL_INVALID_VALUE);
  const cl_sync_point_khr invalid = first + 100;
  CHECK(copy(cb, nullptr, nullptr, 16, 1, &invalid, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(copy(cb, nullptr, nullptr, 16, 1, nullptr, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(copy(cb, nullptr, nullptr, 16, 0, &first, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(x.barrier(cb, nullptr, nullptr, 1, &invalid, nullptr, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // The command's own errors, as clEnqueueCopyBuffer gives them.
  CHECK(copy(cb, nullptr, nullptr, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(x.copy(cb, nullptr, nullptr, buf, fx().ctx2buf, 0, 0, 16, 0, nullptr, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(x.copy(cb, nullptr, nullptr, buf, buf, 0, 8, 16, 0, nullptr, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  // clCommandNDRangeKernelKHR: unset arguments, and a kernel of another context.
  cl_kernel unset = program().kernel("axpb");
  const size_t global = 4;
  CHECK(x.ndrange(cb, nullptr, nullptr, unset, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  CHECK(x.ndrange(cb, nullptr, nullptr, kBadKernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_KERNEL);
  clReleaseKernel(unset);

  // Enqueue before finalize; finalize twice; record after finalize.
  CHECK(x.enqueue(0, nullptr, cb, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  REQUIRE(x.finalize(cb) == CL_SUCCESS);
  CHECK(x.finalize(cb) == CL_INVALID_OPERATION);
  CHECK(copy(cb, nullptr, nullptr, 16, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(x.barrier(cb, nullptr, nullptr, 0, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);

  // clEnqueueCommandBufferKHR's errors.
  CHECK(x.enqueue(0, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  CHECK(x.enqueue(1, nullptr, cb, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(x.enqueue(0, &q, cb, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(x.enqueue(2, two, cb, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(x.enqueue(1, &bad, cb, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  cl_command_queue other = fx().q2;  // the same device, another context: the wrong queue
  CHECK(x.enqueue(1, &other, cb, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(x.enqueue(0, nullptr, cb, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(x.enqueue(0, nullptr, cb, 1, &fx().ev2, nullptr) == CL_INVALID_CONTEXT);
  // A substitute queue of the same device and context is accepted.
  cl_command_queue same = clCreateCommandQueueWithProperties(fx().ctx, fx().device, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(x.enqueue(1, &same, cb, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clFinish(same) == CL_SUCCESS);
  clReleaseCommandQueue(same);

  // Retain/release of what is not a command-buffer.
  CHECK(x.retain(nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  CHECK(x.release(nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  REQUIRE(x.release(cb) == CL_SUCCESS);
  CHECK(x.release(cb) == CL_INVALID_COMMAND_BUFFER_KHR);
  CHECK(x.finalize(cb) == CL_INVALID_COMMAND_BUFFER_KHR);
}
