/* A small OpenCL host program for the check layer's tests (layer_test.cpp): the argument kinds and program paths
 * the golden corpus does not exercise. One kernel enqueued three times (CLREF_CHECK_EVERY) with a USE_HOST_PTR
 * buffer, a float, a struct by value, a NULL buffer and local memory; two sub-buffers of one buffer, one read and
 * one written; a kernel with a data race; work-item functions beyond the launch's dimensions (not checked here: the
 * layer judges them); a kernel that writes an image; a program compiled with an input header and
 * linked; a kernel behind a user event the program has not completed when it enqueues. Standard OpenCL 3.0 calls
 * only.
 *
 * usage: layer_host     exit status 0 when every call succeeded and every result is what the host computes.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define HOST_NAME "layer_host"
#include "host_check.h"

#define N 256

typedef struct {
  cl_int a;
  cl_float b;
} pair_t;

static const char* kSource =
    "typedef struct { int a; float b; } pair_t;\n"
    "kernel void scale(global float* x, float f, pair_t p, global const int* maybe, local float* tmp) {\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  tmp[l] = x[i] * f + p.b;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  x[i] = tmp[(l + 1) % get_local_size(0)] + (maybe ? (float)maybe[i] : (float)p.a);\n"
    "}\n"
    "kernel void copy_shift(global const float* in, global float* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] + 1.0f;\n"
    "}\n"
    "kernel void last_writer(global const int* in, global int* out) { out[0] = in[get_global_id(0)]; }\n"
    "kernel void dims_beyond(global uint* out, int d) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[4 * i] = get_global_size(d); out[4 * i + 1] = get_local_size(d);\n"
    "  out[4 * i + 2] = get_num_groups(d); out[4 * i + 3] = get_global_id(d);\n"
    "}\n"
    "kernel void to_image(global const float* x, write_only image2d_t img) {\n"
    "  int i = get_global_id(0);\n"
    "  write_imagef(img, (int2)(i % 16, i / 16), (float4)(sin(x[i]), x[i] / 64.0f, 0.5f, 1.0f));\n"
    "}\n";

static const char* kHeader = "#define OFFSET 3\n";
static const char* kLinked =
    "#include \"defs.h\"\n"
    "kernel void add_offset(global int* v) { v[get_global_id(0)] += OFFSET; }\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  if (!firstDevice(&platform, &device)) return 1;
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
  check(err, "clCreateCommandQueueWithProperties");

  /* scale, three times, on a USE_HOST_PTR buffer. */
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "layer_host: clBuildProgram failed:\n%s\n", log);
    return 1;
  }
  cl_kernel scale = clCreateKernel(program, "scale", &err);
  check(err, "clCreateKernel(scale)");
  static float x[N], expect[N];
  for (int i = 0; i < N; ++i) x[i] = expect[i] = (float)i * 0.5f;
  cl_mem xs = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof x, x, &err);
  check(err, "clCreateBuffer(USE_HOST_PTR)");
  const float f = 2.0f;
  const pair_t p = {7, 0.25f};
  check(clSetKernelArg(scale, 0, sizeof xs, &xs), "clSetKernelArg(0)");
  check(clSetKernelArg(scale, 1, sizeof f, &f), "clSetKernelArg(1)");
  check(clSetKernelArg(scale, 2, sizeof p, &p), "clSetKernelArg(2)");
  check(clSetKernelArg(scale, 3, sizeof(cl_mem), NULL), "clSetKernelArg(3)");
  check(clSetKernelArg(scale, 4, 64 * sizeof(float), NULL), "clSetKernelArg(4)");
  const size_t global = N, local = 64;
  for (int run = 0; run < 3; ++run) {
    check(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    float next[N];
    for (int i = 0; i < N; ++i) {
      const int g = i / 64 * 64, l = i % 64;
      next[i] = (expect[g + (l + 1) % 64] * f + p.b) + (float)p.a;
    }
    memcpy(expect, next, sizeof next);
  }
  check(clEnqueueReadBuffer(queue, xs, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL), "clEnqueueReadBuffer(x)");
  for (int i = 0; i < N; ++i)
    if (fabsf(x[i] - expect[i]) > 1e-3f * fabsf(expect[i])) {
      fprintf(stderr, "layer_host: scale: x[%d] = %g, expected %g\n", i, x[i], expect[i]);
      ++failures;
      break;
    }

  /* copy_shift between two sub-buffers of one buffer. */
  static float whole[2 * N];
  for (int i = 0; i < 2 * N; ++i) whole[i] = (float)i;
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof whole, whole, &err);
  check(err, "clCreateBuffer(parent)");
  cl_buffer_region first = {0, N * sizeof(float)}, second = {N * sizeof(float), N * sizeof(float)};
  cl_mem a = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
  check(err, "clCreateSubBuffer(first)");
  cl_mem b = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
  check(err, "clCreateSubBuffer(second)");
  cl_kernel copy = clCreateKernel(program, "copy_shift", &err);
  check(err, "clCreateKernel(copy_shift)");
  check(clSetKernelArg(copy, 0, sizeof a, &a), "clSetKernelArg(copy 0)");
  check(clSetKernelArg(copy, 1, sizeof b, &b), "clSetKernelArg(copy 1)");
  check(clEnqueueNDRangeKernel(queue, copy, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(copy)");
  check(clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, sizeof whole, whole, 0, NULL, NULL), "clEnqueueReadBuffer");
  for (int i = 0; i < N; ++i)
    if (whole[N + i] != (float)i + 1.0f) {
      fprintf(stderr, "layer_host: copy_shift: [%d] = %g\n", N + i, whole[N + i]);
      ++failures;
      break;
    }

  /* A kernel with a data race: every work-item writes out[0]. */
  cl_kernel race = clCreateKernel(program, "last_writer", &err);
  check(err, "clCreateKernel(last_writer)");
  cl_int ins[N], last = -1;
  for (int i = 0; i < N; ++i) ins[i] = 100 + i;
  cl_mem inBuf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof ins, ins, &err);
  check(err, "clCreateBuffer(in)");
  cl_mem lastBuf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof last, &last, &err);
  check(err, "clCreateBuffer(last)");
  check(clSetKernelArg(race, 0, sizeof inBuf, &inBuf), "clSetKernelArg(race 0)");
  check(clSetKernelArg(race, 1, sizeof lastBuf, &lastBuf), "clSetKernelArg(race 1)");
  check(clEnqueueNDRangeKernel(queue, race, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(race)");
  check(clEnqueueReadBuffer(queue, lastBuf, CL_TRUE, 0, sizeof last, &last, 0, NULL, NULL), "clEnqueueReadBuffer");
  if (last < 100 || last >= 100 + N) {
    fprintf(stderr, "layer_host: last_writer: %d is no work-item's value\n", last);
    ++failures;
  }

  /* Work-item functions of dimension 3, beyond every launch's (OpenCL C 3.0 §6.15.1 [[work-item-functions]]: sizes 1,
   * ids 0). Not checked here: the layer judges the device's values. */
  cl_kernel dims = clCreateKernel(program, "dims_beyond", &err);
  check(err, "clCreateKernel(dims_beyond)");
  cl_mem dimsBuf = clCreateBuffer(context, CL_MEM_READ_WRITE, 4 * N * sizeof(cl_uint), NULL, &err);
  check(err, "clCreateBuffer(dims)");
  const cl_int beyond = 3;
  check(clSetKernelArg(dims, 0, sizeof dimsBuf, &dimsBuf), "clSetKernelArg(dims 0)");
  check(clSetKernelArg(dims, 1, sizeof beyond, &beyond), "clSetKernelArg(dims 1)");
  check(clEnqueueNDRangeKernel(queue, dims, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel(dims)");
  check(clFinish(queue), "clFinish");

  /* An image the kernel writes: N elements of RGBA / UNORM_INT8, 16 per row. */
  cl_kernel toImage = clCreateKernel(program, "to_image", &err);
  check(err, "clCreateKernel(to_image)");
  const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc imageDesc;
  memset(&imageDesc, 0, sizeof imageDesc);
  imageDesc.image_type = CL_MEM_OBJECT_IMAGE2D;
  imageDesc.image_width = 16;
  imageDesc.image_height = N / 16;
  cl_mem image = clCreateImage(context, CL_MEM_WRITE_ONLY, &rgba8, &imageDesc, NULL, &err);
  check(err, "clCreateImage");
  static float angles[N];
  for (int i = 0; i < N; ++i) angles[i] = (float)i * 0.05f;
  cl_mem angleBuf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof angles, angles, &err);
  check(err, "clCreateBuffer(angles)");
  check(clSetKernelArg(toImage, 0, sizeof angleBuf, &angleBuf), "clSetKernelArg(to_image 0)");
  check(clSetKernelArg(toImage, 1, sizeof image, &image), "clSetKernelArg(to_image 1)");
  check(clEnqueueNDRangeKernel(queue, toImage, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(image)");
  static unsigned char texels[N * 4];
  const size_t origin[3] = {0, 0, 0}, region[3] = {16, N / 16, 1};
  check(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0, texels, 0, NULL, NULL), "clEnqueueReadImage");
  for (int i = 0; i < N; ++i) {
    const float red = sinf(angles[i]) * 255.0f;
    if (fabsf((float)texels[4 * i] - (red < 0 ? 0 : red)) > 1.0f || texels[4 * i + 3] != 255) {
      fprintf(stderr, "layer_host: to_image: element %d is (%d, %d, %d, %d)\n", i, texels[4 * i], texels[4 * i + 1],
              texels[4 * i + 2], texels[4 * i + 3]);
      ++failures;
      break;
    }
  }

  /* A program compiled with an input header, then linked. */
  cl_program header = clCreateProgramWithSource(context, 1, &kHeader, NULL, &err);
  check(err, "clCreateProgramWithSource(header)");
  cl_program object = clCreateProgramWithSource(context, 1, &kLinked, NULL, &err);
  check(err, "clCreateProgramWithSource(linked)");
  const char* headerName = "defs.h";
  check(clCompileProgram(object, 1, &device, "", 1, &header, &headerName, NULL, NULL), "clCompileProgram");
  cl_program linked = clLinkProgram(context, 1, &device, "", 1, &object, NULL, NULL, &err);
  check(err, "clLinkProgram");
  cl_kernel add = clCreateKernel(linked, "add_offset", &err);
  check(err, "clCreateKernel(add_offset)");
  cl_int v[N];
  for (int i = 0; i < N; ++i) v[i] = i;
  cl_mem vs = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
  check(err, "clCreateBuffer(v)");
  check(clSetKernelArg(add, 0, sizeof vs, &vs), "clSetKernelArg(add)");
  check(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(add)");

  /* The same kernel (a kernel object of its own, enqueued once) behind a user event completed only after the
   * enqueue. */
  cl_kernel add2 = clCreateKernel(linked, "add_offset", &err);
  check(err, "clCreateKernel(add_offset again)");
  check(clSetKernelArg(add2, 0, sizeof vs, &vs), "clSetKernelArg(add2)");
  cl_event user = clCreateUserEvent(context, &err);
  check(err, "clCreateUserEvent");
  cl_event done;
  check(clEnqueueNDRangeKernel(queue, add2, 1, NULL, &global, NULL, 1, &user, &done), "clEnqueueNDRangeKernel(user)");
  check(clSetUserEventStatus(user, CL_COMPLETE), "clSetUserEventStatus");
  check(clWaitForEvents(1, &done), "clWaitForEvents");
  cl_int status = 0;
  check(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), "clGetEventInfo");
  if (status != CL_COMPLETE) {
    fprintf(stderr, "layer_host: the kernel behind the user event ended with %d\n", status);
    ++failures;
  }
  check(clEnqueueReadBuffer(queue, vs, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL), "clEnqueueReadBuffer(v)");
  for (int i = 0; i < N; ++i)
    if (v[i] != i + 6) {
      fprintf(stderr, "layer_host: add_offset: v[%d] = %d\n", i, v[i]);
      ++failures;
      break;
    }

  clReleaseEvent(done);
  clReleaseEvent(user);
  clReleaseMemObject(vs);
  clReleaseKernel(add2);
  clReleaseKernel(add);
  clReleaseProgram(linked);
  clReleaseProgram(object);
  clReleaseProgram(header);
  clReleaseMemObject(dimsBuf);
  clReleaseKernel(dims);
  clReleaseMemObject(angleBuf);
  clReleaseMemObject(image);
  clReleaseKernel(toImage);
  clReleaseMemObject(lastBuf);
  clReleaseMemObject(inBuf);
  clReleaseKernel(race);
  clReleaseKernel(copy);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  clReleaseMemObject(parent);
  clReleaseMemObject(xs);
  clReleaseKernel(scale);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("layer_host: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
