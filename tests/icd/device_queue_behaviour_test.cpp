// Device queues through the OpenCL C API (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_ON_DEVICE, the host side of
// device-side enqueue): what the device reports, creating device queues with and without a size, the default device
// queue of a device in a context and its replacement, CL_DEVICE_MAX_ON_DEVICE_QUEUES, host commands refused on a device
// queue, and queue_t kernel arguments. Expected values come from the specification's text; kernels that enqueue
// kernels are not run here (the interpreter's side).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "allocation_failure.hpp"
#include "error_table.hpp"

#include <CL/cl_ext.h>

using namespace clref_test;

namespace {

template <class T> T deviceInfo(cl_device_id d, cl_device_info what) {
  T v{};
  REQUIRE(clGetDeviceInfo(d, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

template <class T> T queueInfo(cl_command_queue q, cl_command_queue_info what) {
  T v{};
  REQUIRE(clGetCommandQueueInfo(q, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

// A context of its own on the device: device queues are counted per device and context, and the default device
// queue is one per device in a context, so each test starts from none.
struct OwnContext {
  cl_context ctx = nullptr;
  OwnContext() {
    cl_int e;
    ctx = clCreateContext(nullptr, 1, &fx().device, nullptr, nullptr, &e);
    REQUIRE(e == CL_SUCCESS);
  }
  ~OwnContext() { clReleaseContext(ctx); }
};

constexpr cl_command_queue_properties kOnDevice = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
constexpr cl_command_queue_properties kOnDeviceDefault = kOnDevice | CL_QUEUE_ON_DEVICE_DEFAULT;

// clCreateCommandQueueWithProperties with CL_QUEUE_PROPERTIES `props` and, when not 0, CL_QUEUE_SIZE `size`; `e` gets
// the code.
cl_command_queue deviceQueue(cl_context c, cl_command_queue_properties props, cl_int& e, cl_queue_properties size = 0,
                             cl_device_id device = nullptr) {
  std::vector<cl_queue_properties> p{CL_QUEUE_PROPERTIES, props};
  if (size) p.insert(p.end(), {CL_QUEUE_SIZE, size});
  p.push_back(0);
  return clCreateCommandQueueWithProperties(c, device ? device : fx().device, p.data(), &e);
}

cl_command_queue hostQueue(cl_context c) {
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(c, fx().device, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  return q;
}

std::string openCLCFeatures(cl_device_id d) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, n, v.data(), nullptr) == CL_SUCCESS);
  std::string names;
  for (const auto& f : v) names += std::string(f.name) + " ";
  return names;
}

void CL_CALLBACK nativeFn(void*) {}

}  // namespace

TEST_CASE("device queues: the device reports device-side enqueue", "[opencl][device_queue]") {
  const cl_device_id d = fx().device;
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: the minimums of a device supporting on-device queues.
  CHECK((deviceInfo<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) &
         (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)) ==
        (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  const cl_uint preferred = deviceInfo<cl_uint>(d, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
  const cl_uint max = deviceInfo<cl_uint>(d, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  CHECK(preferred >= 16 * 1024);
  CHECK(max >= 256 * 1024);  // the full profile's minimum
  CHECK(preferred <= max);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_ON_DEVICE_QUEUES) >= 1);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_ON_DEVICE_EVENTS) >= 1024);
  // CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: supported with a replaceable default, which needs the generic address space.
  CHECK(deviceInfo<cl_device_device_enqueue_capabilities>(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) ==
        (CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
  CHECK(deviceInfo<cl_bool>(d, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
  // OpenCL C 3.0 §6.2.1 [[features]]: __opencl_c_device_enqueue, and the two features it requires.
  const std::string features = openCLCFeatures(d);
  for (const char* f : {"__opencl_c_device_enqueue ", "__opencl_c_generic_address_space ",
                        "__opencl_c_program_scope_global_variables "}) {
    INFO(f);
    CHECK(features.find(f) != std::string::npos);
  }
  // A sub-device is the same device: the same answers.
  if (fx().subA)
    CHECK(deviceInfo<cl_device_device_enqueue_capabilities>(fx().subA, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) ==
          (CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
}

TEST_CASE("device queues: a size of their own or the preferred size", "[opencl][device_queue]") {
  OwnContext own;
  const cl_uint preferred = deviceInfo<cl_uint>(fx().device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
  const cl_uint max = deviceInfo<cl_uint>(fx().device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  cl_int e;
  // OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: "If CL_QUEUE_SIZE is not specified, the device queue is
  // created with CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE as the size of the queue."
  cl_command_queue a = deviceQueue(own.ctx, kOnDevice, e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(queueInfo<cl_uint>(a, CL_QUEUE_SIZE) == preferred);
  CHECK(queueInfo<cl_command_queue_properties>(a, CL_QUEUE_PROPERTIES) == kOnDevice);
  CHECK(queueInfo<cl_context>(a, CL_QUEUE_CONTEXT) == own.ctx);
  CHECK(queueInfo<cl_device_id>(a, CL_QUEUE_DEVICE) == fx().device);
  // CL_QUEUE_PROPERTIES_ARRAY: the properties as given.
  cl_queue_properties given[3] = {};
  size_t bytes = 0;
  REQUIRE(clGetCommandQueueInfo(a, CL_QUEUE_PROPERTIES_ARRAY, sizeof given, given, &bytes) == CL_SUCCESS);
  CHECK(bytes == sizeof given);
  CHECK(given[0] == CL_QUEUE_PROPERTIES);
  CHECK(given[1] == kOnDevice);
  CHECK(given[2] == 0);
  // No default device queue was created.
  CHECK(queueInfo<cl_command_queue>(a, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
  // A size of its own, up to CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE; profiling is a device queue property too.
  cl_command_queue b = deviceQueue(own.ctx, kOnDevice | CL_QUEUE_PROFILING_ENABLE, e, 64 * 1024);
  REQUIRE(e == CL_SUCCESS);
  CHECK(queueInfo<cl_uint>(b, CL_QUEUE_SIZE) == 64 * 1024);
  CHECK(queueInfo<cl_command_queue_properties>(b, CL_QUEUE_PROPERTIES) == (kOnDevice | CL_QUEUE_PROFILING_ENABLE));
  cl_command_queue c = deviceQueue(own.ctx, kOnDevice, e, max);
  REQUIRE(e == CL_SUCCESS);
  CHECK(queueInfo<cl_uint>(c, CL_QUEUE_SIZE) == max);
  // "This must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE": one more is not a valid value.
  CHECK(deviceQueue(own.ctx, kOnDevice, e, cl_queue_properties(max) + 1) == nullptr);
  CHECK(e == CL_INVALID_VALUE);
  // CL_QUEUE_ON_DEVICE needs CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; CL_QUEUE_ON_DEVICE_DEFAULT and CL_QUEUE_SIZE need
  // CL_QUEUE_ON_DEVICE.
  CHECK(deviceQueue(own.ctx, CL_QUEUE_ON_DEVICE, e) == nullptr);
  CHECK(e == CL_INVALID_VALUE);
  CHECK(deviceQueue(own.ctx, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, e) == nullptr);
  CHECK(e == CL_INVALID_VALUE);
  CHECK(deviceQueue(own.ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, e, 1024) == nullptr);
  CHECK(e == CL_INVALID_VALUE);
  // clCreateCommandQueue makes host command-queues only: CL_QUEUE_ON_DEVICE is not one of its properties.
  CHECK(clCreateCommandQueue(own.ctx, fx().device, kOnDevice, &e) == nullptr);
  CHECK(e == CL_INVALID_VALUE);
  // A host command-queue has no size.
  cl_command_queue h = hostQueue(own.ctx);
  cl_uint size = 0;
  CHECK(clGetCommandQueueInfo(h, CL_QUEUE_SIZE, sizeof size, &size, nullptr) == CL_INVALID_COMMAND_QUEUE);
  for (cl_command_queue q : {a, b, c, h}) CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
}

TEST_CASE("device queues: one default device queue per device in a context", "[opencl][device_queue]") {
  OwnContext own;
  cl_int e;
  cl_command_queue h = hostQueue(own.ctx);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
  cl_command_queue d = deviceQueue(own.ctx, kOnDeviceDefault, e, 32 * 1024);
  REQUIRE(e == CL_SUCCESS);
  // CL_QUEUE_DEVICE_DEFAULT: "the current default command-queue for the underlying device", asked of any of its queues.
  CHECK(queueInfo<cl_command_queue>(d, CL_QUEUE_DEVICE_DEFAULT) == d);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == d);
  CHECK(queueInfo<cl_command_queue>(fx().q, CL_QUEUE_DEVICE_DEFAULT) == nullptr);  // another context: its own default
  CHECK(queueInfo<cl_uint>(d, CL_QUEUE_REFERENCE_COUNT) == 1);
  // CL_QUEUE_ON_DEVICE_DEFAULT's footnote: asking for a default device queue again "will return the default device
  // queue that has already been created and increment its reference count by 1" (whatever size is asked).
  cl_command_queue again = deviceQueue(own.ctx, kOnDeviceDefault | CL_QUEUE_PROFILING_ENABLE, e, 128 * 1024);
  REQUIRE(e == CL_SUCCESS);
  CHECK(again == d);
  CHECK(queueInfo<cl_uint>(d, CL_QUEUE_REFERENCE_COUNT) == 2);
  CHECK(queueInfo<cl_uint>(d, CL_QUEUE_SIZE) == 32 * 1024);
  CHECK(clReleaseCommandQueue(again) == CL_SUCCESS);
  // A device queue that is not the default leaves the default as it is.
  cl_command_queue other = deviceQueue(own.ctx, kOnDevice, e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue>(other, CL_QUEUE_DEVICE_DEFAULT) == d);
  // Once released, the default is gone; the next request for one makes a new one.
  CHECK(clReleaseCommandQueue(d) == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
  cl_command_queue fresh = deviceQueue(own.ctx, kOnDeviceDefault, e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(fresh != other);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == fresh);
  CHECK(queueInfo<cl_uint>(fresh, CL_QUEUE_REFERENCE_COUNT) == 1);
  for (cl_command_queue q : {fresh, other, h}) CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
}

TEST_CASE("device queues: clSetDefaultDeviceCommandQueue replaces the default", "[opencl][device_queue]") {
  OwnContext own;
  cl_int e;
  cl_command_queue first = deviceQueue(own.ctx, kOnDeviceDefault, e);
  REQUIRE(e == CL_SUCCESS);
  cl_command_queue second = deviceQueue(own.ctx, kOnDevice, e);
  REQUIRE(e == CL_SUCCESS);
  cl_command_queue h = hostQueue(own.ctx);
  // OpenCL 3.0 API §5.1 [[_command_queues]] clSetDefaultDeviceCommandQueue "may be used to replace a default device
  // command-queue created with clCreateCommandQueueWithProperties and the CL_QUEUE_ON_DEVICE_DEFAULT flag".
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, second) == CL_SUCCESS);
  for (cl_command_queue q : {first, second, h})
    CHECK(queueInfo<cl_command_queue>(q, CL_QUEUE_DEVICE_DEFAULT) == second);
  // A request for the default device queue now gets the replacement.
  cl_command_queue asked = deviceQueue(own.ctx, kOnDeviceDefault, e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(asked == second);
  CHECK(queueInfo<cl_uint>(second, CL_QUEUE_REFERENCE_COUNT) == 2);
  CHECK(clReleaseCommandQueue(asked) == CL_SUCCESS);
  // Setting the default it already is changes nothing; the first queue can be the default again.
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, second) == CL_SUCCESS);
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, first) == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == first);
  // CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid command-queue for device": a host command-queue, no
  // queue at all, a device queue of another context.
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, h) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(own.ctx, fx().device, fx().dq) == CL_INVALID_COMMAND_QUEUE);
  CHECK(queueInfo<cl_command_queue>(h, CL_QUEUE_DEVICE_DEFAULT) == first);
  // It allocates nothing, so it cannot fail for lack of host memory (errors_platform_test.cpp).
  CHECK(withoutHostMemory([&] { return clSetDefaultDeviceCommandQueue(own.ctx, fx().device, second); }) == CL_SUCCESS);
  CHECK(failedAllocations() == 0);
  for (cl_command_queue q : {first, second, h}) CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
}

TEST_CASE("device queues: each sub-device has its own default device queue", "[opencl][device_queue]") {
  Fixture& f = fx();
  if (!f.subA) return;  // no sub-devices in this run (CLREF_THREADS=1)
  cl_int e;
  cl_command_queue a = deviceQueue(f.subCtx, kOnDevice, e, 0, f.subA);
  REQUIRE(e == CL_SUCCESS);
  CHECK(queueInfo<cl_device_id>(a, CL_QUEUE_DEVICE) == f.subA);
  // A device queue of subA is not a valid command-queue for subB.
  CHECK(clSetDefaultDeviceCommandQueue(f.subCtx, f.subB, a) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(f.subCtx, f.subA, a) == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue>(f.subQA, CL_QUEUE_DEVICE_DEFAULT) == a);
  CHECK(queueInfo<cl_command_queue>(f.subQB, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
  CHECK(clReleaseCommandQueue(a) == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue>(f.subQA, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
}

TEST_CASE("device queues: at most CL_DEVICE_MAX_ON_DEVICE_QUEUES per device and context", "[opencl][device_queue]") {
  const cl_uint max = deviceInfo<cl_uint>(fx().device, CL_DEVICE_MAX_ON_DEVICE_QUEUES);
  OwnContext own, other;
  cl_int e;
  std::vector<cl_command_queue> made;
  made.push_back(deviceQueue(own.ctx, kOnDeviceDefault, e));
  REQUIRE(e == CL_SUCCESS);
  while (made.size() < max + 1) {
    made.push_back(deviceQueue(own.ctx, kOnDevice, e));
    REQUIRE(e == CL_SUCCESS);
  }
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_MAX_ON_DEVICE_QUEUES: "The maximum number of device
  // queues that can be created for this device in a single context", besides the default one (as the conformance
  // suite's device_queue test reads it). One more fails for want of device resources.
  CHECK(deviceQueue(own.ctx, kOnDevice, e) == nullptr);
  CHECK(e == CL_OUT_OF_RESOURCES);
  // The default device queue that exists is returned: no queue is created.
  cl_command_queue d = deviceQueue(own.ctx, kOnDeviceDefault, e);
  CHECK(e == CL_SUCCESS);
  CHECK(d == made[0]);
  CHECK(clReleaseCommandQueue(d) == CL_SUCCESS);
  // Host command-queues do not count, and another context has its own count.
  cl_command_queue h = hostQueue(own.ctx);
  CHECK(clReleaseCommandQueue(h) == CL_SUCCESS);
  cl_command_queue elsewhere = deviceQueue(other.ctx, kOnDevice, e);
  CHECK(e == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(elsewhere) == CL_SUCCESS);
  // A released device queue leaves room for one more.
  CHECK(clReleaseCommandQueue(made.back()) == CL_SUCCESS);
  made.back() = deviceQueue(own.ctx, kOnDevice, e);
  CHECK(e == CL_SUCCESS);
  for (cl_command_queue q : made) CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
}

TEST_CASE("device queues: host commands refuse a device queue", "[opencl][device_queue]") {
  // Every command's "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue" (OpenCL 3.0 API
  // §5.2.2 [[_reading_writing_and_copying_buffer_objects]] onwards, §5.16 [[_flush_and_finish]]): a device queue takes
  // only what kernels enqueue. The other arguments are valid objects of the queue's context.
  Fixture& f = fx();
  const cl_command_queue dq = f.dq;
  char host[64] = {};
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1}, one = 1;
  cl_int e;
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 1;
  cl_mem image = clCreateImage(f.ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem image2 = clCreateImage(f.ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  const cl_uint pattern = 7;
  void* mapped = nullptr;
  cl_event ev = nullptr;
  CHECK(clEnqueueReadBuffer(dq, f.buf, CL_TRUE, 0, 4, host, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWriteBuffer(dq, f.buf, CL_TRUE, 0, 4, host, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueReadBufferRect(dq, f.buf, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWriteBufferRect(dq, f.buf, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueCopyBuffer(dq, f.buf, f.buf2, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueCopyBufferRect(dq, f.buf, f.buf2, origin, origin, region, 0, 0, 0, 0, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueFillBuffer(dq, f.buf, &pattern, sizeof pattern, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  mapped = clEnqueueMapBuffer(dq, f.buf, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &e);
  CHECK(mapped == nullptr);
  CHECK(e == CL_INVALID_COMMAND_QUEUE);
  mapped = clEnqueueMapBuffer(f.q, f.buf, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(dq, f.buf, mapped, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueUnmapMemObject(f.q, f.buf, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueMigrateMemObjects(dq, 1, &f.buf, 0, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueReadImage(dq, image, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWriteImage(dq, image, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueCopyImage(dq, image, image2, origin, origin, region, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  const cl_uint color[4] = {1, 2, 3, 4};
  CHECK(clEnqueueFillImage(dq, image, color, origin, region, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueCopyImageToBuffer(dq, image, f.buf, origin, region, 0, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueCopyBufferToImage(dq, f.buf, image, 0, origin, region, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  size_t pitch = 0;
  CHECK(clEnqueueMapImage(dq, image, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0, nullptr, nullptr, &e) ==
        nullptr);
  CHECK(e == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueNDRangeKernel(dq, f.vadd, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueTask(dq, f.vadd, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueNativeKernel(dq, nativeFn, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueMarkerWithWaitList(dq, 0, nullptr, &ev) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueBarrierWithWaitList(dq, 0, nullptr, &ev) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueMarker(dq, &ev) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueBarrier(dq) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWaitForEvents(dq, 1, &f.ev2) == CL_INVALID_COMMAND_QUEUE);
  CHECK(ev == nullptr);
  CHECK(clEnqueueSVMMemcpy(dq, CL_TRUE, f.svm, f.svm + 64, 4, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMMemFill(dq, f.svm, &pattern, sizeof pattern, 4, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMMap(dq, CL_TRUE, CL_MAP_READ, f.svm, 4, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMUnmap(dq, f.svm, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  const void* svmPtrs[1] = {f.svm};
  CHECK(clEnqueueSVMMigrateMem(dq, 1, svmPtrs, nullptr, 0, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  void* freed[1] = {f.svm};
  CHECK(clEnqueueSVMFree(dq, 1, freed, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  auto suggest = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(f.platform, "clGetKernelSuggestedLocalWorkSizeKHR"));
  REQUIRE(suggest);
  size_t local = 0;
  CHECK(suggest(dq, f.vadd, 1, nullptr, &one, &local) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFlush(dq) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(dq) == CL_INVALID_COMMAND_QUEUE);
  // The queue's own entry points take any valid command-queue (§5.1 [[_command_queues]]).
  CHECK(clRetainCommandQueue(dq) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(dq) == CL_SUCCESS);
  CHECK(queueInfo<cl_command_queue_properties>(dq, CL_QUEUE_PROPERTIES) == kOnDevice);
  CHECK(clSetCommandQueueProperty(dq, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, nullptr) == CL_INVALID_OPERATION);
  // The SVM allocation and the buffers are untouched, and the host queue still works.
  CHECK(clFinish(f.q) == CL_SUCCESS);
  clReleaseMemObject(image);
  clReleaseMemObject(image2);
}

TEST_CASE("device queues: a queue_t kernel argument takes a device queue", "[opencl][device_queue]") {
  Fixture& f = fx();
  cl_kernel k = queueKernel();
  if (!k) {
    // Until the interpreter executes modules that declare DeviceEnqueue, the build fails naming it (and nothing else).
    CHECK(queueKernelLog().find("DeviceEnqueue") != std::string::npos);
    WARN(
        "a kernel with a queue_t parameter does not build yet (the interpreter's DeviceEnqueue): its argument "
        "binding is not tested");
    return;
  }
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelArgInfo: the type as the kernel declares it.
  char type[32] = {};
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr) == CL_SUCCESS);
  CHECK(std::string(type) == "queue_t");
  cl_kernel_arg_address_qualifier space = 0;
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr) == CL_SUCCESS);
  CHECK(space == CL_KERNEL_ARG_ADDRESS_PRIVATE);
  cl_int e;
  cl_mem out = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &e);
  REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
  // CL_INVALID_KERNEL_ARGS while the queue argument is not set.
  const size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
  // OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg: "If the kernel argument being set is a device
  // queue, then arg_value must point to a device queue object", of sizeof(cl_command_queue) bytes, of the kernel's
  // context.
  CHECK(clSetKernelArg(k, 0, sizeof f.q, &f.q) == CL_INVALID_DEVICE_QUEUE);  // a host command-queue
  CHECK(clSetKernelArg(k, 0, sizeof out, &out) == CL_INVALID_DEVICE_QUEUE);  // a buffer
  const cl_command_queue none = nullptr;
  CHECK(clSetKernelArg(k, 0, sizeof none, &none) == CL_INVALID_DEVICE_QUEUE);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_command_queue), nullptr) == CL_INVALID_DEVICE_QUEUE);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_command_queue) / 2, &f.dq) == CL_INVALID_ARG_SIZE);
  cl_command_queue elsewhere = deviceQueue(f.ctx2, kOnDevice, e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 0, sizeof elsewhere, &elsewhere) == CL_INVALID_CONTEXT);
  clReleaseCommandQueue(elsewhere);
  CHECK(clSetKernelArg(k, 0, sizeof f.dq, &f.dq) == CL_SUCCESS);
  // The bound queue reaches the launch (the kernel does not enqueue anything).
  const cl_int zero = 0;
  REQUIRE(clEnqueueWriteBuffer(f.q, out, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_int result = 0;
  REQUIRE(clEnqueueReadBuffer(f.q, out, CL_TRUE, 0, sizeof result, &result, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(result == 1);
  clReleaseMemObject(out);
}

// CLREF_DEVICE_ENQUEUE=0 (ctest opencl_device_enqueue_off): a device without device-side enqueue answers as OpenCL 3.0
// API §H.3 [[_device_side_enqueue]] says one does.
TEST_CASE("device queues: a device without device-side enqueue", "[.device_enqueue_off]") {
  Fixture& f = fx();
  REQUIRE(std::getenv("CLREF_DEVICE_ENQUEUE") != nullptr);
  CHECK(deviceInfo<cl_command_queue_properties>(f.device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) == 0);
  for (cl_device_info q : {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
                           CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS})
    CHECK(deviceInfo<cl_uint>(f.device, q) == 0);
  CHECK(deviceInfo<cl_device_device_enqueue_capabilities>(f.device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0);
  CHECK(openCLCFeatures(f.device).find("__opencl_c_device_enqueue") == std::string::npos);
  // clCreateCommandQueueWithProperties: a device queue is a valid value the device does not support.
  cl_int e;
  CHECK(deviceQueue(f.ctx, kOnDevice, e) == nullptr);
  CHECK(e == CL_INVALID_QUEUE_PROPERTIES);
  CHECK(deviceQueue(f.ctx, kOnDeviceDefault, e) == nullptr);
  CHECK(e == CL_INVALID_QUEUE_PROPERTIES);
  CHECK(f.dq == nullptr);
  // The same appendix: clGetCommandQueueInfo CL_QUEUE_DEVICE_DEFAULT "Returns NULL"; clSetDefaultDeviceCommandQueue
  // "Returns CL_INVALID_OPERATION".
  CHECK(queueInfo<cl_command_queue>(f.q, CL_QUEUE_DEVICE_DEFAULT) == nullptr);
  CHECK(clSetDefaultDeviceCommandQueue(f.ctx, f.device, f.q) == CL_INVALID_OPERATION);
  // OpenCL C programs see no __opencl_c_device_enqueue: queue_t is no type of theirs.
  const char* source = "kernel void takes_queue(queue_t q, global int* out) { out[0] = 1; }";
  cl_program p = clCreateProgramWithSource(f.ctx, 1, &source, nullptr, &e);
  CHECK(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(p);
}
