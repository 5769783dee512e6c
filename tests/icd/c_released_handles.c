/* Released handles through the ICD loader: a plain C11 program linked with the loader (not with
 * clref), run with OCL_ICD_VENDORS pointing at clref only. The loader reads a handle's first word
 * (the ICD dispatch table) before it calls the vendor, so a released object's memory must still
 * start with clref's dispatch table (clref keeps released objects as tombstones, see
 * icd/objects.hpp); clref then answers CL_INVALID_<OBJECT>. Every call below must return
 * that code and the process must survive.
 *
 * Not tested here: a handle that never was an object (a pointer to memory whose first word is
 * not a dispatch table), e.g. clRetainMemObject on garbage. The loader itself dereferences that
 * word as a dispatch table, before clref is reached, so no implementation behind the loader can
 * make it safe; linked directly, clref answers CL_INVALID_MEM_OBJECT (opencl_behaviour_test.cpp).
 *
 * usage: c_released_handles    exit status 0 when every check passed.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(const char* what, cl_int got, cl_int want) {
  if (got != want) {
    fprintf(stderr, "FAIL %s: %d, expected %d\n", what, (int)got, (int)want);
    ++failures;
  } else {
    printf("ok   %s: %d\n", what, (int)got);
  }
}

/* Allocations of the sizes of the released objects, filled with a pattern that is not a
 * pointer: without tombstones they reuse the released objects' memory and the loader crashes. */
enum { CHURN = 2048 };
static void* churn[CHURN];
static void churnHeap(void) {
  for (int i = 0; i < CHURN; ++i) {
    const size_t size = 16 + (size_t)(i % 64) * 8;
    churn[i] = malloc(size);
    if (churn[i]) memset(churn[i], 0xA5, size);
  }
}

static const char* kSource = "kernel void k(global int* p) { p[get_global_id(0)] = 1; }";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int e = clGetPlatformIDs(1, &platform, NULL);
  expect("clGetPlatformIDs", e, CL_SUCCESS);
  if (e != CL_SUCCESS) return 1;
  e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  expect("clGetDeviceIDs", e, CL_SUCCESS);
  if (e != CL_SUCCESS) return 1;

  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  expect("clCreateContext", e, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  expect("clCreateCommandQueueWithProperties", e, CL_SUCCESS);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
  expect("clCreateBuffer", e, CL_SUCCESS);
  cl_mem buf2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
  expect("clCreateBuffer (second)", e, CL_SUCCESS);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &e);
  expect("clCreateProgramWithSource", e, CL_SUCCESS);
  expect("clBuildProgram", clBuildProgram(program, 1, &device, "", NULL, NULL), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "k", &e);
  expect("clCreateKernel", e, CL_SUCCESS);
  cl_event event = clCreateUserEvent(ctx, &e);
  expect("clCreateUserEvent", e, CL_SUCCESS);
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  cl_mem image = clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, NULL, &e);
  expect("clCreateImage", e, CL_SUCCESS);
  const cl_sampler_properties samplerProperties[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0};
  cl_sampler sampler = clCreateSamplerWithProperties(ctx, samplerProperties, &e);
  expect("clCreateSamplerWithProperties", e, CL_SUCCESS);
  expect("clReleaseMemObject (image)", clReleaseMemObject(image), CL_SUCCESS);
  expect("clReleaseSampler", clReleaseSampler(sampler), CL_SUCCESS);
  if (failures) return 1;

  /* Release everything; the kernel, the queue and the event first (they hold the others). */
  expect("clReleaseKernel", clReleaseKernel(kernel), CL_SUCCESS);
  expect("clSetUserEventStatus", clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  expect("clReleaseEvent", clReleaseEvent(event), CL_SUCCESS);
  expect("clReleaseCommandQueue", clReleaseCommandQueue(queue), CL_SUCCESS);
  expect("clReleaseMemObject", clReleaseMemObject(buf), CL_SUCCESS);
  expect("clReleaseMemObject (second buffer)", clReleaseMemObject(buf2), CL_SUCCESS);
  expect("clReleaseProgram", clReleaseProgram(program), CL_SUCCESS);
  expect("clReleaseContext", clReleaseContext(ctx), CL_SUCCESS);
  churnHeap();

  /* The released handles. */
  expect("clReleaseMemObject twice", clReleaseMemObject(buf), CL_INVALID_MEM_OBJECT);
  cl_uint rc = 0;
  expect("clGetMemObjectInfo on a released buffer",
         clGetMemObjectInfo(buf2, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL), CL_INVALID_MEM_OBJECT);
  expect("clRetainMemObject on a released buffer", clRetainMemObject(buf2), CL_INVALID_MEM_OBJECT);
  int zero = 0;
  expect("clSetKernelArg on a released kernel", clSetKernelArg(kernel, 0, sizeof zero, &zero), CL_INVALID_KERNEL);
  expect("clReleaseKernel twice", clReleaseKernel(kernel), CL_INVALID_KERNEL);
  size_t width = 0;
  expect("clGetImageInfo on a released image", clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof width, &width, NULL),
         CL_INVALID_MEM_OBJECT);
  expect("clReleaseSampler twice", clReleaseSampler(sampler), CL_INVALID_SAMPLER);
  cl_uint count = 0;
  expect("clGetSamplerInfo on a released sampler",
         clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof count, &count, NULL), CL_INVALID_SAMPLER);
  expect("clFinish on a released queue", clFinish(queue), CL_INVALID_COMMAND_QUEUE);
  expect("clReleaseCommandQueue twice", clReleaseCommandQueue(queue), CL_INVALID_COMMAND_QUEUE);
  expect("clReleaseContext twice", clReleaseContext(ctx), CL_INVALID_CONTEXT);
  expect("clReleaseProgram twice", clReleaseProgram(program), CL_INVALID_PROGRAM);
  expect("clReleaseEvent twice", clReleaseEvent(event), CL_INVALID_EVENT);
  expect("clWaitForEvents on a released event", clWaitForEvents(1, &event), CL_INVALID_EVENT);

  for (int i = 0; i < CHURN; ++i) free(churn[i]);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
