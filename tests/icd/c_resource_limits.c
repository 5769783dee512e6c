/* Resource exhaustion through the ICD loader (issue 40): a plain C program linked with the loader, run with
 * OCL_ICD_VENDORS pointing at clref only. After building its kernels it limits its own address space (RLIMIT_AS,
 * what `ulimit -v` sets) to what it uses plus a margin, then asks for more than the margin:
 *   - a buffer and an image larger than the margin: CL_MEM_OBJECT_ALLOCATION_FAILURE (OpenCL 3.0 API §5.2.1
 *     [[_creating_buffer_objects]], §5.3.1 [[_creating_image_objects]]);
 *   - a launch whose local memory exceeds CL_DEVICE_LOCAL_MEM_SIZE, and one whose work-group's private memory the host
 *     cannot hold: CL_OUT_OF_RESOURCES (§5.10 [[_executing_kernels]]: "insufficient resources such as registers or
 *     local memory"), either at the enqueue or as the command's status;
 * each with clref's message on stderr (CLREF_LOG=api; the program reads its own stderr back), and then a launch that fits still runs and computes the right
 * values: the process survives and loses nothing.
 *
 * usage: c_resource_limits    exit status 0 when every check passed. Not run under AddressSanitizer, which reserves
 * terabytes of address space at start-up.
 */
#define _XOPEN_SOURCE 700 /* setrlimit, sysconf */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int failures = 0;

static void expect(const char* what, cl_int got, cl_int want) {
  if (got != want) {
    fprintf(stdout, "FAIL %s: %d, expected %d\n", what, (int)got, (int)want);
    ++failures;
  } else {
    printf("ok   %s: %d\n", what, (int)got);
  }
}

static const char* source =
    "kernel void add(global const int* a, global const int* b, global int* c) {\n"
    "  size_t i = get_global_id(0); c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void grouped(global int* o, local int* l) {\n"
    "  l[get_local_id(0)] = (int)get_global_id(0); barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = l[get_local_size(0) - 1 - get_local_id(0)];\n"
    "}\n"
    /* 1 MiB of private memory per work-item, live across a barrier: the whole work-group's must be held at once. */
    "kernel void heavy(global int* o) {\n"
    "  int p[262144]; size_t g = get_global_id(0);\n"
    "  for (int i = 0; i < 262144; i += 1024) p[(i + o[g]) & 262143] = i + (int)g;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  o[g] = p[(o[g] * 7) & 262143];\n"
    "}\n";

/* Whether the messages clref wrote on stderr (captured in `log`) contain `text`. */
static void expectMessage(FILE* log, const char* text) {
  char line[1024];
  int found = 0;
  rewind(log);
  while (!found && fgets(line, sizeof line, log)) found = strstr(line, text) != NULL;
  if (!found) {
    printf("FAIL no message containing \"%s\"\n", text);
    ++failures;
  } else {
    printf("ok   message: %s", line);
  }
}

/* The process's address space now, in bytes (/proc/self/statm's first field, in pages). */
static size_t addressSpace(void) {
  FILE* f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!f || fscanf(f, "%lu", &pages) != 1) {
    fprintf(stdout, "cannot read /proc/self/statm\n");
    exit(2);
  }
  fclose(f);
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* A launch the host cannot hold fails at the enqueue or, once queued, as the command's status. */
static cl_int launch(cl_command_queue q, cl_kernel k, size_t global, size_t local) {
  cl_event done = NULL;
  cl_int e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &done);
  if (e != CL_SUCCESS) return e;
  clWaitForEvents(1, &done);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  clReleaseEvent(done);
  return status == CL_COMPLETE ? CL_SUCCESS : status;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (!getenv("CLREF_LOG")) setenv("CLREF_LOG", "api", 1);
  /* clref's messages go to stderr; keep them in a file to check them, and fail on stdout. */
  FILE* log = tmpfile();
  if (!log || dup2(fileno(log), 2) < 0) {
    perror("stderr to a temporary file");
    return 2;
  }
  cl_platform_id platform;
  cl_device_id device;
  cl_int e = clGetPlatformIDs(1, &platform, NULL);
  if (e == CL_SUCCESS) e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stdout, "no OpenCL device: %d\n", (int)e);
    return 2;
  }
  cl_ulong maxAlloc = 0, localMem = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxAlloc, &maxAlloc, NULL);
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localMem, &localMem, NULL);
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &e);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &e);
  expect("clBuildProgram", clBuildProgram(program, 1, &device, "", NULL, NULL), CL_SUCCESS);
  cl_kernel add = clCreateKernel(program, "add", &e), grouped = clCreateKernel(program, "grouped", &e),
            heavy = clCreateKernel(program, "heavy", &e);
  enum { n = 4096 };
  static int a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) a[i] = 3 * i, b[i] = 1000 - i;
  cl_mem A = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof a, a, &e);
  cl_mem B = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof b, b, &e);
  cl_mem C = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof c, NULL, &e);
  clSetKernelArg(add, 0, sizeof A, &A);
  clSetKernelArg(add, 1, sizeof B, &B);
  clSetKernelArg(add, 2, sizeof C, &C);
  clSetKernelArg(grouped, 0, sizeof C, &C);
  clSetKernelArg(heavy, 0, sizeof C, &C);
  expect("a launch before the limit", launch(queue, add, n, 64), CL_SUCCESS);
  size_t heavyGroup = 0;
  clGetKernelWorkGroupInfo(heavy, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof heavyGroup, &heavyGroup, NULL);

  /* From here on the host has 48 MiB more than it uses. */
  const size_t margin = (size_t)48 << 20;
  struct rlimit limit = {addressSpace() + margin, RLIM_INFINITY};
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    perror("setrlimit");
    return 2;
  }
  const size_t large = maxAlloc < 4 * margin ? (size_t)maxAlloc : 4 * margin;
  cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, large, NULL, &e);
  expect("clCreateBuffer beyond the host's memory", e, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  if (m) clReleaseMemObject(m);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 8192;
  desc.image_height = large / (4 * 8192);
  m = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &e);
  expect("clCreateImage beyond the host's memory", e, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  if (m) clReleaseMemObject(m);
  expect("clSetKernelArg of 4x CL_DEVICE_LOCAL_MEM_SIZE", clSetKernelArg(grouped, 1, 4 * localMem, NULL), CL_SUCCESS);
  expect("a launch with more local memory than the device has", launch(queue, grouped, 256, 64), CL_OUT_OF_RESOURCES);
  /* 1 MiB per work-item: a work-group of 128 needs 128 MiB at its barrier, more than the host has left. */
  const size_t wide = heavyGroup < 128 ? heavyGroup : 128;
  printf("     heavy: CL_KERNEL_WORK_GROUP_SIZE %zu, launched with %zu\n", heavyGroup, wide);
  if (wide * ((size_t)1 << 20) > margin)
    expect("a launch whose work-group's private memory the host cannot hold", launch(queue, heavy, wide * 2, wide),
           CL_OUT_OF_RESOURCES);
  else
    expect("CL_KERNEL_WORK_GROUP_SIZE keeps a 1 MiB-per-work-item group within 48 MiB", (cl_int)wide, (cl_int)wide);

  /* Nothing was lost: the same queue still runs a launch that fits, and its values are the host's. */
  for (int i = 0; i < n; ++i) b[i] = 7 * i - 5;
  expect("clEnqueueWriteBuffer after the failures",
         clEnqueueWriteBuffer(queue, B, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL), CL_SUCCESS);
  expect("a launch after the failures", launch(queue, add, n, 64), CL_SUCCESS);
  expect("clEnqueueReadBuffer", clEnqueueReadBuffer(queue, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += c[i] != 3 * i + 7 * i - 5;
  expect("elements that differ from the host's a + b", wrong, 0);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseMemObject(C);
  clReleaseKernel(add);
  clReleaseKernel(grouped);
  clReleaseKernel(heavy);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  fflush(stderr);
  expectMessage(log, "clCreateBuffer: CL_MEM_OBJECT_ALLOCATION_FAILURE: the host could not allocate");
  expectMessage(log, "clCreateImage: CL_MEM_OBJECT_ALLOCATION_FAILURE: the host could not allocate");
  expectMessage(log, "CL_OUT_OF_RESOURCES: kernel grouped needs 262144 bytes of local memory");
  if (wide * ((size_t)1 << 20) > margin) expectMessage(log, "work-group 0 of kernel heavy could not be executed");
  printf(failures ? "%d check(s) failed\n" : "all checks passed\n", failures);
  return failures ? 1 : 0;
}
