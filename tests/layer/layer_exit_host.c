/* An OpenCL host program for the check layer's exit (layer_test.cpp): it returns from main while the layer still
 * judges its last kernel, after an earlier check has constructed statics of clref's that the last one uses (the
 * accuracy rules of a float violation, with CLREF_PLANT_ERRORS). The layer must judge and report that kernel before
 * those statics are destroyed (layer/exit_order.hpp).
 *
 * The order: a kernel with an SVM argument (not judged: its check ends at once, before any static of a judgement
 * exists), then a float addition whose check is awaited in the report (CLREF_CHECK_REPORT, one line per check), then
 * the same addition again, clFinish, and the return from main: its judgement is still running then.
 *
 * usage: layer_exit_host     exit status 0 when every call succeeded.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define HOST_NAME "layer_exit_host"
#include "host_check.h"

#define N 4096

static const char* kSource =
    "kernel void svm_touch(global int* p) { p[get_global_id(0)] += 1; }\n"
    "kernel void fadd(global const float* a, global const float* b, global float* c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

/* Waits (at most a minute) until the layer's report holds `lines` lines: the checks before them are judged. */
static int awaitReport(int lines) {
  const char* path = getenv("CLREF_CHECK_REPORT");
  if (!path) {
    fprintf(stderr, "layer_exit_host: CLREF_CHECK_REPORT is not set\n");
    return 0;
  }
  for (int tries = 0; tries < 6000; ++tries) {
    int seen = 0;
    FILE* f = fopen(path, "r");
    if (f) {
      for (int c; (c = fgetc(f)) != EOF;) seen += c == '\n';
      fclose(f);
    }
    if (seen >= lines) return 1;
    const struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  fprintf(stderr, "layer_exit_host: the report did not reach %d lines within a minute\n", lines);
  return 0;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  if (!firstDevice(&platform, &device)) return 1;
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
  check(err, "clCreateCommandQueueWithProperties");
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "-cl-std=CL3.0", NULL, NULL), "clBuildProgram");
  if (failures) return 1;
  const size_t global = N;

  cl_kernel touch = clCreateKernel(program, "svm_touch", &err);
  check(err, "clCreateKernel(svm_touch)");
  void* svm = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(cl_int), 0);
  if (!svm) {
    fprintf(stderr, "layer_exit_host: clSVMAlloc returned NULL\n");
    return 1;
  }
  check(clSetKernelArgSVMPointer(touch, 0, svm), "clSetKernelArgSVMPointer");
  check(clEnqueueNDRangeKernel(queue, touch, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(svm)");
  check(clFinish(queue), "clFinish");
  if (!awaitReport(1)) return 1;

  cl_kernel fadd = clCreateKernel(program, "fadd", &err);
  check(err, "clCreateKernel(fadd)");
  static float a[N], b[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i * 0.75f;
    b[i] = 1.0f / (float)(i + 1);
  }
  cl_mem as = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  check(err, "clCreateBuffer(a)");
  cl_mem bs = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  check(err, "clCreateBuffer(b)");
  cl_mem cs = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof a, NULL, &err);
  check(err, "clCreateBuffer(c)");
  check(clSetKernelArg(fadd, 0, sizeof as, &as), "clSetKernelArg(0)");
  check(clSetKernelArg(fadd, 1, sizeof bs, &bs), "clSetKernelArg(1)");
  check(clSetKernelArg(fadd, 2, sizeof cs, &cs), "clSetKernelArg(2)");
  check(clEnqueueNDRangeKernel(queue, fadd, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(fadd)");
  check(clFinish(queue), "clFinish");
  if (!awaitReport(2)) return 1;

  /* The last check is still being judged when main returns; nothing is released (the process ends). */
  check(clEnqueueNDRangeKernel(queue, fadd, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(fadd)");
  check(clFinish(queue), "clFinish");
  clSVMFree(context, svm);
  return failures ? 1 : 0;
}
