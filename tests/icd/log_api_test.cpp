// CLREF_LOG=api (icd/api_log.hpp): an entry point that returns an error prints one line on stderr naming the
// rule the call broke, and a successful call prints nothing. Run by the ctest opencl_log_api, which sets CLREF_LOG=api
// for the whole process: clref reads the variable once, at its first use.
//
// One representative error per area of the API (platform and device, context, queue, buffer, image, sampler, program
// build, kernel arguments, enqueue, event), each checked against the whole line it must print.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "allocation_failure.hpp"
#include "error_table.hpp"

using namespace clref_test;

namespace {

// What `f` writes on stderr: fd 2 goes to a temporary file for the length of the call.
std::string stderrOf(const std::function<void()>& f) {
  std::fflush(stderr);
  const int saved = dup(2);
  FILE* capture = std::tmpfile();
  REQUIRE(capture);
  dup2(fileno(capture), 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text(1 << 16, '\0');
  std::rewind(capture);
  text.resize(std::fread(text.data(), 1, text.size(), capture));
  std::fclose(capture);
  return text;
}

// The line a failing call prints, checked to be exactly one line; `code` is what the call must return.
std::string lineOf(cl_int code, const std::function<cl_int()>& call) {
  cl_int got = CL_SUCCESS;
  const std::string text = stderrOf([&] { got = call(); });
  CHECK(got == code);
  INFO(text);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  return text;
}

// A built program from OpenCL C, with the parameter names the messages quote.
const char* kSource =
    "kernel void scale(global float* data, global float* out, float factor) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = data[i] * factor;\n"
    "}\n";

struct Built {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  Built() {
    cl_int e;
    program = clCreateProgramWithSource(fx().ctx, 1, &kSource, nullptr, &e);
    REQUIRE(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
    kernel = clCreateKernel(program, "scale", &e);
    REQUIRE(e == CL_SUCCESS);
  }
  ~Built() {
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
};

}  // namespace

TEST_CASE("CLREF_LOG=api: platform and device errors name the parameter and its value", "[.log_api]") {
  REQUIRE(std::getenv("CLREF_LOG"));
  auto& f = fx();
  cl_platform_id p;
  CHECK(lineOf(CL_INVALID_VALUE, [&] { return clGetPlatformIDs(0, &p, nullptr); }) ==
        "clref: clGetPlatformIDs: CL_INVALID_VALUE: num_entries is 0 and platforms is not NULL\n");
  cl_uint n;
  CHECK(lineOf(CL_DEVICE_NOT_FOUND, [&] { return clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &n); }) ==
        "clref: clGetDeviceIDs: CL_DEVICE_NOT_FOUND: device_type 0x4 matches no device (the one device is "
        "CL_DEVICE_TYPE_ACCELERATOR, and the default)\n");
  cl_uint units;
  CHECK(
      lineOf(CL_INVALID_VALUE,
             [&] { return clGetDeviceInfo(f.device, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &units, nullptr); }) ==
      "clref: clGetDeviceInfo: CL_INVALID_VALUE: param_value_size is 2, less than the 4 bytes of param_name 0x1002\n");
  CHECK(lineOf(CL_INVALID_DEVICE, [&] { return clRetainDevice(kBadDevice); }) ==
        "clref: clRetainDevice: CL_INVALID_DEVICE: device 0x1234 is not a valid device\n");
}

TEST_CASE("CLREF_LOG=api: context errors", "[.log_api]") {
  auto& f = fx();
  CHECK(lineOf(CL_INVALID_VALUE, [&] {
          return err([&](cl_int* e) { clCreateContext(nullptr, 0, &f.device, nullptr, nullptr, e); });
        }) == "clref: clCreateContext: CL_INVALID_VALUE: num_devices is 0\n");
  const cl_context_properties props[] = {0x7777, 1, 0};
  CHECK(lineOf(CL_INVALID_PROPERTY,
               [&] { return err([&](cl_int* e) { clCreateContext(props, 1, &f.device, nullptr, nullptr, e); }); }) ==
        "clref: clCreateContext: CL_INVALID_PROPERTY: properties[0] is 0x7777, not a context property "
        "(CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC)\n");
}

TEST_CASE("CLREF_LOG=api: command-queue errors", "[.log_api]") {
  auto& f = fx();
  const cl_queue_properties tooLarge[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_SIZE,
                                          cl_queue_properties(1) << 30, 0};
  CHECK(lineOf(CL_INVALID_VALUE,
               [&] {
                 return err([&](cl_int* e) { clCreateCommandQueueWithProperties(f.ctx, f.device, tooLarge, e); });
               }) ==
        "clref: clCreateCommandQueueWithProperties: CL_INVALID_VALUE: CL_QUEUE_SIZE is 1073741824, more than "
        "CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE (16777216)\n");
  CHECK(lineOf(CL_INVALID_COMMAND_QUEUE, [&] { return clFinish(kBadQueue); }) ==
        "clref: clFinish: CL_INVALID_COMMAND_QUEUE: command_queue 0x1234 is not a valid command-queue\n");
}

TEST_CASE("CLREF_LOG=api: buffer errors", "[.log_api]") {
  auto& f = fx();
  CHECK(lineOf(CL_INVALID_BUFFER_SIZE, [&] {
          return err([&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 0, nullptr, e); });
        }) == "clref: clCreateBuffer: CL_INVALID_BUFFER_SIZE: size is 0\n");
  CHECK(lineOf(CL_INVALID_VALUE,
               [&] {
                 return err(
                     [&](cl_int* e) { clCreateBuffer(f.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, e); });
               }) ==
        "clref: clCreateBuffer: CL_INVALID_VALUE: flags 0x6: CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and "
        "CL_MEM_READ_ONLY are mutually exclusive\n");
  char bytes[64];
  CHECK(lineOf(CL_INVALID_VALUE,
               [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 4000, 100, bytes, 0, nullptr, nullptr); }) ==
        "clref: clEnqueueReadBuffer: CL_INVALID_VALUE: offset 4000 + size 100 is beyond the 4096 bytes of buffer\n");
  CHECK(lineOf(CL_INVALID_OPERATION,
               [&] { return clEnqueueReadBuffer(f.q, f.hostWriteOnly, CL_TRUE, 0, 4, bytes, 0, nullptr, nullptr); }) ==
        "clref: clEnqueueReadBuffer: CL_INVALID_OPERATION: buffer was created with CL_MEM_HOST_WRITE_ONLY: the host "
        "may not read it\n");
  cl_buffer_region r{8, 16};
  CHECK(lineOf(CL_MISALIGNED_SUB_BUFFER_OFFSET,
               [&] {
                 return err([&](cl_int* e) { clCreateSubBuffer(f.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, e); });
               }) ==
        "clref: clCreateSubBuffer: CL_MISALIGNED_SUB_BUFFER_OFFSET: the region's origin 8 is not a multiple of "
        "CL_DEVICE_MEM_BASE_ADDR_ALIGN (1024 bits: 128 bytes)\n");
}

TEST_CASE("CLREF_LOG=api: image errors", "[.log_api]") {
  auto& f = fx();
  const cl_image_format rgba{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 0;
  d.image_height = 4;
  CHECK(
      lineOf(CL_INVALID_IMAGE_SIZE,
             [&] { return err([&](cl_int* e) { clCreateImage(f.ctx, CL_MEM_READ_WRITE, &rgba, &d, nullptr, e); }); }) ==
      "clref: clCreateImage: CL_INVALID_IMAGE_SIZE: image_desc->image_width is 0, not 1 to "
      "CL_DEVICE_IMAGE2D_MAX_WIDTH (16384) for a CL_MEM_OBJECT_IMAGE2D\n");
  // clCreateImage2D reports a descriptor error as CL_INVALID_IMAGE_SIZE, and logs that code.
  CHECK(lineOf(CL_INVALID_IMAGE_SIZE,
               [&] {
                 return err([&](cl_int* e) { clCreateImage2D(f.ctx, CL_MEM_READ_WRITE, &rgba, 4, 4, 64, nullptr, e); });
               }) ==
        "clref: clCreateImage2D: CL_INVALID_IMAGE_SIZE: image_desc->image_row_pitch is 64, and it must be 0 when "
        "host_ptr is NULL (but for an image from a buffer)\n");
  d.image_width = 4;
  cl_int e;
  cl_mem image = clCreateImage(f.ctx, CL_MEM_READ_WRITE, &rgba, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  const size_t origin[3] = {2, 0, 0}, region[3] = {4, 1, 1};
  char pixels[64];
  CHECK(lineOf(CL_INVALID_VALUE,
               [&] {
                 return clEnqueueReadImage(f.q, image, CL_TRUE, origin, region, 0, 0, pixels, 0, nullptr, nullptr);
               }) ==
        "clref: clEnqueueReadImage: CL_INVALID_VALUE: origin[0] + region[0] (2 + 4) is beyond the width of image (4 "
        "at mip level 0)\n");
  clReleaseMemObject(image);
}

TEST_CASE("CLREF_LOG=api: sampler errors", "[.log_api]") {
  auto& f = fx();
  const cl_sampler_properties props[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0};
  CHECK(lineOf(CL_INVALID_VALUE,
               [&] { return err([&](cl_int* e) { clCreateSamplerWithProperties(f.ctx, props, e); }); }) ==
        "clref: clCreateSamplerWithProperties: CL_INVALID_VALUE: CL_SAMPLER_ADDRESSING_MODE is 0x7777, not "
        "CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT or "
        "CL_ADDRESS_MIRRORED_REPEAT\n");
  CHECK(lineOf(CL_INVALID_SAMPLER, [&] { return clRetainSampler(kBadSampler); }) ==
        "clref: clRetainSampler: CL_INVALID_SAMPLER: sampler 0x1234 is not a valid sampler object\n");
}

TEST_CASE("CLREF_LOG=api: program build errors quote the option and the compiler's error", "[.log_api]") {
  auto& f = fx();
  cl_int e;
  const char* broken = "kernel void k(global int* a) { a[0] = undeclared; }\n";
  cl_program p = clCreateProgramWithSource(f.ctx, 1, &broken, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(lineOf(CL_INVALID_BUILD_OPTIONS, [&] { return clBuildProgram(p, 0, nullptr, "-bogus", nullptr, nullptr); }) ==
        "clref: clBuildProgram: CL_INVALID_BUILD_OPTIONS: options: \"-bogus\" is not a build option of "
        "OpenCL 3.0 API §5.8.6 [[compiler-options]]\n");
  const std::string failed =
      lineOf(CL_BUILD_PROGRAM_FAILURE, [&] { return clBuildProgram(p, 0, nullptr, "", nullptr, nullptr); });
  CHECK(failed.rfind("clref: clBuildProgram: CL_BUILD_PROGRAM_FAILURE: the build of program ", 0) == 0);
  CHECK(failed.find("error: use of undeclared identifier 'undeclared'") != std::string::npos);
  CHECK(failed.find("(CL_PROGRAM_BUILD_LOG has the whole log)\n") != std::string::npos);
  clReleaseProgram(p);
  CHECK(lineOf(CL_INVALID_PROGRAM_EXECUTABLE, [&] {
          return err([&](cl_int* e2) { clCreateKernel(f.unbuilt, "vadd", e2); });
        }).find("has no successfully built executable (clBuildProgram or clLinkProgram first)\n") != std::string::npos);
}

TEST_CASE("CLREF_LOG=api: kernel argument errors name the argument, its type and the sizes", "[.log_api]") {
  Built b;
  float one = 1;
  CHECK(lineOf(CL_INVALID_ARG_SIZE, [&] { return clSetKernelArg(b.kernel, 0, 4, &one); }) ==
        "clref: clSetKernelArg: CL_INVALID_ARG_SIZE: arg_size is 4, the argument is 8 bytes, a cl_mem (argument 0 "
        "data: global float*)\n");
  double wide = 1;
  CHECK(lineOf(CL_INVALID_ARG_SIZE, [&] { return clSetKernelArg(b.kernel, 2, sizeof wide, &wide); }) ==
        "clref: clSetKernelArg: CL_INVALID_ARG_SIZE: arg_size is 8, the argument is 4 bytes (argument 2 factor: "
        "float)\n");
  CHECK(lineOf(CL_INVALID_ARG_INDEX, [&] { return clSetKernelArg(b.kernel, 3, 4, &one); }) ==
        "clref: clSetKernelArg: CL_INVALID_ARG_INDEX: arg_index is 3, and kernel scale has 3 arguments\n");
  CHECK(lineOf(CL_INVALID_MEM_OBJECT, [&] { return clSetKernelArg(b.kernel, 1, sizeof kBadMem, &kBadMem); }) ==
        "clref: clSetKernelArg: CL_INVALID_MEM_OBJECT: *arg_value is 0x1234, not a valid memory object (argument 1 "
        "out: global float*)\n");
  CHECK(lineOf(CL_INVALID_KERNEL_NAME, [&] { return err([&](cl_int* e) { clCreateKernel(b.program, "scal", e); }); }) ==
        "clref: clCreateKernel: CL_INVALID_KERNEL_NAME: kernel_name \"scal\" is not a kernel of program (its "
        "kernels: scale)\n");
}

TEST_CASE("CLREF_LOG=api: enqueue errors name what is missing", "[.log_api]") {
  auto& f = fx();
  Built b;
  REQUIRE(clSetKernelArg(b.kernel, 0, sizeof f.buf, &f.buf) == CL_SUCCESS);
  const size_t global = 16, local = 5;
  CHECK(lineOf(
            CL_INVALID_KERNEL_ARGS,
            [&] { return clEnqueueNDRangeKernel(f.q, b.kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr); }) ==
        "clref: clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS: not all kernel arguments are set: 1 (out), 2 "
        "(factor)\n");
  const float two = 2;
  REQUIRE(clSetKernelArg(b.kernel, 1, sizeof f.buf2, &f.buf2) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(b.kernel, 2, sizeof two, &two) == CL_SUCCESS);
  CHECK(lineOf(
            CL_INVALID_WORK_DIMENSION,
            [&] { return clEnqueueNDRangeKernel(f.q, b.kernel, 4, nullptr, &global, nullptr, 0, nullptr, nullptr); }) ==
        "clref: clEnqueueNDRangeKernel: CL_INVALID_WORK_DIMENSION: work_dim is 4, not 1 to "
        "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (3)\n");
  // OpenCL C 1.2 (the default -cl-std) needs uniform work-groups.
  CHECK(
      lineOf(CL_INVALID_WORK_GROUP_SIZE,
             [&] { return clEnqueueNDRangeKernel(f.q, b.kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr); }) ==
      "clref: clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE: global_work_size[0] (16) is not a multiple of "
      "local_work_size[0] (5), and the program needs uniform work-groups (OpenCL C 1.x, or "
      "-cl-uniform-work-group-size)\n");
  const cl_event none = nullptr;
  CHECK(
      lineOf(CL_INVALID_EVENT_WAIT_LIST,
             [&] { return clEnqueueNDRangeKernel(f.q, b.kernel, 1, nullptr, &global, nullptr, 1, &none, nullptr); }) ==
      "clref: clEnqueueNDRangeKernel: CL_INVALID_EVENT_WAIT_LIST: event_wait_list[0] is NULL, not a valid "
      "event\n");
}

TEST_CASE("CLREF_LOG=api: event errors, and a failed wait list names the event and its status", "[.log_api]") {
  auto& f = fx();
  CHECK(lineOf(CL_INVALID_VALUE, [&] { return clWaitForEvents(0, nullptr); }) ==
        "clref: clWaitForEvents: CL_INVALID_VALUE: num_events is 0\n");
  cl_event marker;
  REQUIRE(clEnqueueMarkerWithWaitList(f.q, 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clFinish(f.q) == CL_SUCCESS);
  cl_ulong t;
  CHECK(lineOf(CL_PROFILING_INFO_NOT_AVAILABLE, [&] {
          return clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr);
        }).find(" was not created with CL_QUEUE_PROFILING_ENABLE\n") != std::string::npos);
  CHECK(lineOf(CL_INVALID_EVENT, [&] {
          return clSetUserEventStatus(marker, CL_COMPLETE);
        }).find("is the event of a command, not a user event\n") != std::string::npos);
  clReleaseEvent(marker);
  cl_int e;
  cl_event user = clCreateUserEvent(f.ctx, &e);
  REQUIRE(clSetUserEventStatus(user, -1) == CL_SUCCESS);
  char bytes[4];
  CHECK(lineOf(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               [&] { return clEnqueueReadBuffer(f.q, f.buf, CL_TRUE, 0, 4, bytes, 1, &user, nullptr); }) ==
        "clref: clEnqueueReadBuffer: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: the command is blocking and "
        "event_wait_list[0] ended with status -1 (CL_DEVICE_NOT_FOUND)\n");
  CHECK(lineOf(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, [&] { return clWaitForEvents(1, &user); }) ==
        "clref: clWaitForEvents: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: event_list[0] ended with status -1 "
        "(CL_DEVICE_NOT_FOUND)\n");
  clReleaseEvent(user);
}

TEST_CASE("CLREF_LOG=api: a failed host allocation is logged as the call's error", "[.log_api]") {
  auto& f = fx();
  cl_int e = CL_SUCCESS;
  const std::string text = stderrOf([&] {
    withoutHostMemory([&] {
      clCreateUserEvent(f.ctx, &e);
      return e;
    });
  });
  CHECK(e == CL_OUT_OF_HOST_MEMORY);
  CHECK(text == "clref: clCreateUserEvent: CL_OUT_OF_HOST_MEMORY: a host allocation failed (std::bad_alloc)\n");
}

TEST_CASE("CLREF_LOG=api: successful calls print nothing", "[.log_api]") {
  auto& f = fx();
  const std::string text = stderrOf([&] {
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(0, nullptr, &n) == CL_SUCCESS);
    cl_int e;
    cl_mem a = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 64, nullptr, &e);
    CHECK(e == CL_SUCCESS);
    float data[16] = {};
    CHECK(clEnqueueWriteBuffer(f.q, a, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr) == CL_SUCCESS);
    {
      Built b;
      const float two = 2;
      CHECK(clSetKernelArg(b.kernel, 0, sizeof a, &a) == CL_SUCCESS);
      CHECK(clSetKernelArg(b.kernel, 1, sizeof a, &a) == CL_SUCCESS);
      CHECK(clSetKernelArg(b.kernel, 2, sizeof two, &two) == CL_SUCCESS);
      const size_t global = 16;
      CHECK(clEnqueueNDRangeKernel(f.q, b.kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    CHECK(clEnqueueReadBuffer(f.q, a, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clFinish(f.q) == CL_SUCCESS);
    CHECK(clReleaseMemObject(a) == CL_SUCCESS);
  });
  CHECK(text.empty());
}
