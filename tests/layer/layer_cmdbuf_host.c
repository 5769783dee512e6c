/* A small cl_khr_command_buffer host program for the check layer's tests (layer_test.cpp). One command buffer:
 * a copy of the host's values into `in` and a fill of `out`; cmdbuf_produce reading `in` and writing `x`; then
 * cmdbuf_consume reading `x` (what the kernel before it wrote in the same run) and writing `out`; and
 * cmdbuf_shift between two sub-buffers of one buffer (arguments the layer's copies cannot express). cmdbuf_produce's
 * first argument is set to another buffer after it was recorded: the command keeps the argument of record time.
 * The command buffer is enqueued twice, with other values in `src` the second time. Standard OpenCL 3.0 and
 * cl_khr_command_buffer calls only, the extension's through clGetExtensionFunctionAddressForPlatform.
 *
 * usage: layer_cmdbuf_host   prints "run R: out[i] = ..." for a few i per run; exit status 0 when every call
 *                            succeeded and every result is what the host computes.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <string.h>

#define N 256

/* cl_khr_command_buffer 0.9.8's recording calls, as cl.xml declares them (Debian's CL/cl_ext.h has an older revision,
 * without their cl_command_properties_khr parameter). */
typedef cl_properties command_properties;
typedef cl_int(CL_API_CALL* copy_buffer_fn)(cl_command_buffer_khr, cl_command_queue, const command_properties*, cl_mem,
                                            cl_mem, size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                            cl_sync_point_khr*, cl_mutable_command_khr*);
typedef cl_int(CL_API_CALL* fill_buffer_fn)(cl_command_buffer_khr, cl_command_queue, const command_properties*, cl_mem,
                                            const void*, size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                            cl_sync_point_khr*, cl_mutable_command_khr*);
typedef cl_int(CL_API_CALL* nd_range_kernel_fn)(cl_command_buffer_khr, cl_command_queue, const command_properties*,
                                                cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                                                cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                                cl_mutable_command_khr*);

#define HOST_NAME "layer_cmdbuf_host"
#include "host_check.h"

static const char* kSource =
    "kernel void cmdbuf_produce(global const float* in, global float* x) {\n"
    "  size_t i = get_global_id(0);\n"
    "  x[i] = in[i] * 2.0f + 1.0f;\n"
    "}\n"
    "kernel void cmdbuf_consume(global const float* x, global float* out, float k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = x[i] * k + x[(i + 1) % get_global_size(0)];\n"
    "}\n"
    "kernel void cmdbuf_shift(global const float* a, global float* b) { b[get_global_id(0)] = a[get_global_id(0)]; }\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  if (!firstDevice(&platform, &device)) return 1;
#define ENTRY(name) name##_fn name##_ = (name##_fn)clGetExtensionFunctionAddressForPlatform(platform, #name)
  ENTRY(clCreateCommandBufferKHR);
  ENTRY(clFinalizeCommandBufferKHR);
  ENTRY(clReleaseCommandBufferKHR);
  ENTRY(clEnqueueCommandBufferKHR);
#undef ENTRY
  copy_buffer_fn clCommandCopyBufferKHR_ =
      (copy_buffer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCommandCopyBufferKHR");
  fill_buffer_fn clCommandFillBufferKHR_ =
      (fill_buffer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCommandFillBufferKHR");
  nd_range_kernel_fn clCommandNDRangeKernelKHR_ =
      (nd_range_kernel_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCommandNDRangeKernelKHR");
  if (!clCreateCommandBufferKHR_ || !clFinalizeCommandBufferKHR_ || !clReleaseCommandBufferKHR_ ||
      !clEnqueueCommandBufferKHR_ || !clCommandCopyBufferKHR_ || !clCommandFillBufferKHR_ ||
      !clCommandNDRangeKernelKHR_) {
    fprintf(stderr, "layer_cmdbuf_host: the platform has no cl_khr_command_buffer\n");
    return 1;
  }
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
  check(err, "clCreateCommandQueueWithProperties");
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "layer_cmdbuf_host: clBuildProgram failed\n");
    return 1;
  }
  cl_kernel produce = clCreateKernel(program, "cmdbuf_produce", &err);
  check(err, "clCreateKernel(cmdbuf_produce)");
  cl_kernel consume = clCreateKernel(program, "cmdbuf_consume", &err);
  check(err, "clCreateKernel(cmdbuf_consume)");
  cl_kernel shift = clCreateKernel(program, "cmdbuf_shift", &err);
  check(err, "clCreateKernel(cmdbuf_shift)");
  const size_t bytes = N * sizeof(float);
  cl_mem src = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem x = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem decoy = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE, 2 * bytes, NULL, &err);
  check(err, "clCreateBuffer");
  cl_buffer_region first = {0, bytes}, second = {bytes, bytes};
  cl_mem lower = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
  check(err, "clCreateSubBuffer(first)");
  cl_mem upper = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
  check(err, "clCreateSubBuffer(second)");
  static float values[N], garbage[N], whole[2 * N];
  for (int i = 0; i < N; ++i) garbage[i] = -1000.0f - (float)i;
  for (int i = 0; i < 2 * N; ++i) whole[i] = (float)(3 * i);
  check(clEnqueueWriteBuffer(queue, decoy, CL_TRUE, 0, bytes, garbage, 0, NULL, NULL), "clEnqueueWriteBuffer(decoy)");
  check(clEnqueueWriteBuffer(queue, parent, CL_TRUE, 0, 2 * bytes, whole, 0, NULL, NULL), "clEnqueueWriteBuffer");

  cl_command_buffer_khr commands = clCreateCommandBufferKHR_(1, &queue, NULL, &err);
  check(err, "clCreateCommandBufferKHR");
  if (failures) return 1;
  const float minusOne = -1.0f, k = 3.0f;
  const size_t global = N, local = 64;
  cl_sync_point_khr copied, filled, produced, consumed;
  check(clCommandCopyBufferKHR_(commands, NULL, NULL, src, in, 0, 0, bytes, 0, NULL, &copied, NULL), "clCommandCopyBufferKHR");
  check(clCommandFillBufferKHR_(commands, NULL, NULL, out, &minusOne, sizeof minusOne, 0, bytes, 0, NULL, &filled, NULL),
        "clCommandFillBufferKHR");
  check(clSetKernelArg(produce, 0, sizeof in, &in), "clSetKernelArg(produce 0)");
  check(clSetKernelArg(produce, 1, sizeof x, &x), "clSetKernelArg(produce 1)");
  check(clCommandNDRangeKernelKHR_(commands, NULL, NULL, produce, 1, NULL, &global, &local, 1, &copied, &produced,
                                   NULL),
        "clCommandNDRangeKernelKHR(produce)");
  /* Changes after recording have no effect on the recorded command. */
  check(clSetKernelArg(produce, 0, sizeof decoy, &decoy), "clSetKernelArg(produce 0, decoy)");
  check(clSetKernelArg(consume, 0, sizeof x, &x), "clSetKernelArg(consume 0)");
  check(clSetKernelArg(consume, 1, sizeof out, &out), "clSetKernelArg(consume 1)");
  check(clSetKernelArg(consume, 2, sizeof k, &k), "clSetKernelArg(consume 2)");
  const cl_sync_point_khr before[2] = {produced, filled};
  check(clCommandNDRangeKernelKHR_(commands, NULL, NULL, consume, 1, NULL, &global, NULL, 2, before, &consumed, NULL),
        "clCommandNDRangeKernelKHR(consume)");
  check(clSetKernelArg(shift, 0, sizeof lower, &lower), "clSetKernelArg(shift 0)");
  check(clSetKernelArg(shift, 1, sizeof upper, &upper), "clSetKernelArg(shift 1)");
  check(clCommandNDRangeKernelKHR_(commands, NULL, NULL, shift, 1, NULL, &global, NULL, 0, NULL, NULL, NULL),
        "clCommandNDRangeKernelKHR(shift)");
  check(clFinalizeCommandBufferKHR_(commands), "clFinalizeCommandBufferKHR");

  for (int run = 1; run <= 2; ++run) {
    for (int i = 0; i < N; ++i) values[i] = (float)(run * i % 97) * 0.25f;
    check(clEnqueueWriteBuffer(queue, src, CL_TRUE, 0, bytes, values, 0, NULL, NULL), "clEnqueueWriteBuffer(src)");
    cl_event done;
    check(clEnqueueCommandBufferKHR_(0, NULL, commands, 0, NULL, &done), "clEnqueueCommandBufferKHR");
    check(clWaitForEvents(1, &done), "clWaitForEvents");
    clReleaseEvent(done);
    static float results[N];
    check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, results, 0, NULL, NULL), "clEnqueueReadBuffer(out)");
    for (int i = 0; i < N; ++i) {
      const float xi = values[i] * 2.0f + 1.0f, xn = values[(i + 1) % N] * 2.0f + 1.0f;
      if (results[i] != xi * k + xn) {
        fprintf(stderr, "layer_cmdbuf_host: run %d: out[%d] = %g, expected %g\n", run, i, results[i], xi * k + xn);
        ++failures;
        break;
      }
    }
    for (int i = 0; i < N; i += 51) printf("run %d: out[%d] = %a\n", run, i, results[i]);
    check(clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, 2 * bytes, whole, 0, NULL, NULL), "clEnqueueReadBuffer");
    for (int i = 0; i < N; ++i)
      if (whole[N + i] != (float)(3 * i)) {
        fprintf(stderr, "layer_cmdbuf_host: run %d: cmdbuf_shift: [%d] = %g\n", run, N + i, whole[N + i]);
        ++failures;
        break;
      }
  }
  check(clReleaseCommandBufferKHR_(commands), "clReleaseCommandBufferKHR");
  cl_mem mems[] = {src, in, x, out, decoy, lower, upper, parent};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i) clReleaseMemObject(mems[i]);
  clReleaseKernel(produce);
  clReleaseKernel(consume);
  clReleaseKernel(shift);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return failures ? 1 : 0;
}
