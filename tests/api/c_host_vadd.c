/* A plain C11 OpenCL host program: runs golden kernels (vadd, reduce_int_sum, matmul_naive)
 * from SPIR-V (clCreateProgramWithIL) and from OpenCL C source through whatever platform the
 * ICD loader offers first, and checks the outputs against a host computation. Only standard
 * OpenCL 3.0 API calls: the same program runs against clref and against PoCL.
 *
 * usage: c_host_vadd GOLDEN_DIR
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(call)                                                             \
  do {                                                                          \
    cl_int err_ = (call);                                                       \
    if (err_ != CL_SUCCESS) {                                                   \
      fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, err_);    \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

static unsigned char* readFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* data = malloc((size_t)n + 1);
  if (fread(data, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(data);
    return NULL;
  }
  data[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return data;
}

struct Env {
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q;
  const char* golden;
  int il;     /* the device accepts SPIR-V */
  int source; /* the device has a compiler */
};

/* Builds golden/spv/<stem>.O2.spv (il != 0) or golden/kernels/<stem>.cl. */
static cl_program build(struct Env* e, const char* stem, int il) {
  char path[1024];
  size_t size = 0;
  cl_int err;
  cl_program p;
  snprintf(path, sizeof path, il ? "%s/spv/%s.O2.spv" : "%s/kernels/%s.cl", e->golden, stem);
  unsigned char* data = readFile(path, &size);
  if (!data) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  if (il) {
    p = clCreateProgramWithIL(e->ctx, data, size, &err);
  } else {
    const char* src = (const char*)data;
    p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
  }
  CHECK(err);
  err = clBuildProgram(p, 1, &e->dev, "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = {0};
    clGetProgramBuildInfo(p, e->dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "build of %s failed (%d):\n%s\n", path, err, log);
    exit(1);
  }
  free(data);
  return p;
}

static void report(const char* what, const char* origin, int bad) {
  printf("%-16s %-7s %s\n", what, origin, bad ? "FAIL" : "ok");
  if (bad) ++failures;
}

static void vadd(struct Env* e, int il) {
  enum { N = 1024 };
  static float a[N], b[N], c[N];
  cl_int err;
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i * 0.5f;
    b[i] = (float)((i * 37) % 101) / 8.0f - 6.0f;
  }
  cl_program p = build(e, "vadd", il);
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  CHECK(err);
  cl_mem ba = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  CHECK(err);
  cl_mem bb = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  CHECK(err);
  cl_mem bc = clCreateBuffer(e->ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
  size_t global = N, local = 64;
  cl_event done;
  CHECK(clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, &done));
  CHECK(clEnqueueReadBuffer(e->q, bc, CL_TRUE, 0, sizeof c, c, 1, &done, NULL));
  cl_int status;
  CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  int bad = status != CL_COMPLETE;
  for (int i = 0; i < N; ++i) bad |= c[i] != a[i] + b[i];
  report("vadd", il ? "SPIR-V" : "source", bad);
  clReleaseEvent(done);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void reduce(struct Env* e, int il) {
  enum { N = 4096, WG = 256, G = N / WG };
  static int in[N], partial[G];
  cl_int err;
  for (int i = 0; i < N; ++i) in[i] = (i * 7919) % 2001 - 1000;
  cl_program p = build(e, "reduce", il);
  cl_kernel k = clCreateKernel(p, "reduce_int_sum", &err);
  CHECK(err);
  cl_mem bin = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  CHECK(err);
  cl_mem bout = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, sizeof partial, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof bin, &bin));
  CHECK(clSetKernelArg(k, 1, sizeof bout, &bout));
  CHECK(clSetKernelArg(k, 2, WG * sizeof(int), NULL));
  size_t global = N, local = WG;
  CHECK(clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clFinish(e->q));
  /* read back through a map, to exercise it */
  int* mapped = clEnqueueMapBuffer(e->q, bout, CL_TRUE, CL_MAP_READ, 0, sizeof partial, 0, NULL, NULL, &err);
  CHECK(err);
  int bad = 0;
  for (int g = 0; g < G; ++g) {
    int sum = 0;
    for (int i = 0; i < WG; ++i) sum += in[g * WG + i];
    bad |= mapped[g] != sum;
  }
  CHECK(clEnqueueUnmapMemObject(e->q, bout, mapped, 0, NULL, NULL));
  CHECK(clFinish(e->q));
  report("reduce_int_sum", il ? "SPIR-V" : "source", bad);
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void matmul(struct Env* e, int il) {
  enum { M = 16, N = 24, K = 20 };
  static float A[M * K], B[K * N], C[M * N];
  cl_int err;
  /* small integers: every product and partial sum is exact, so any order gives the same bits */
  for (int i = 0; i < M * K; ++i) A[i] = (float)(i % 7 - 3);
  for (int i = 0; i < K * N; ++i) B[i] = (float)(i % 5 - 2);
  cl_program p = build(e, "matmul", il);
  cl_kernel k = clCreateKernel(p, "matmul_naive", &err);
  CHECK(err);
  cl_mem bA = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof A, A, &err);
  CHECK(err);
  cl_mem bB = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof B, B, &err);
  CHECK(err);
  cl_mem bC = clCreateBuffer(e->ctx, CL_MEM_WRITE_ONLY, sizeof C, NULL, &err);
  CHECK(err);
  cl_uint m = M, n = N, kk = K;
  CHECK(clSetKernelArg(k, 0, sizeof bA, &bA));
  CHECK(clSetKernelArg(k, 1, sizeof bB, &bB));
  CHECK(clSetKernelArg(k, 2, sizeof bC, &bC));
  CHECK(clSetKernelArg(k, 3, sizeof m, &m));
  CHECK(clSetKernelArg(k, 4, sizeof n, &n));
  CHECK(clSetKernelArg(k, 5, sizeof kk, &kk));
  size_t global[2] = {N, M}, local[2] = {8, 8};
  CHECK(clEnqueueNDRangeKernel(e->q, k, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(e->q, bC, CL_TRUE, 0, sizeof C, C, 0, NULL, NULL));
  int bad = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float acc = 0.0f;
      for (int i = 0; i < K; ++i) acc += A[r * K + i] * B[i * N + c];
      bad |= C[r * N + c] != acc;
    }
  report("matmul_naive", il ? "SPIR-V" : "source", bad);
  clReleaseMemObject(bA);
  clReleaseMemObject(bB);
  clReleaseMemObject(bC);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
    return 2;
  }
  struct Env e = {0};
  e.golden = argv[1];
  cl_platform_id platform;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &e.dev, NULL));
  char name[256] = {0}, ils[256] = {0};
  cl_bool compiler = CL_FALSE;
  CHECK(clGetDeviceInfo(e.dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL));
  CHECK(clGetDeviceInfo(e.dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
  /* CL_DEVICE_IL_VERSION is a 2.1+ query; older devices answer CL_INVALID_VALUE */
  if (clGetDeviceInfo(e.dev, CL_DEVICE_IL_VERSION, sizeof ils - 1, ils, NULL) == CL_SUCCESS) e.il = strstr(ils, "SPIR-V") != NULL;
  e.source = compiler == CL_TRUE;
  printf("device: %s (SPIR-V: %s, compiler: %s)\n", name, e.il ? "yes" : "no", e.source ? "yes" : "no");
  e.ctx = clCreateContext(NULL, 1, &e.dev, NULL, NULL, &err);
  CHECK(err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  e.q = clCreateCommandQueueWithProperties(e.ctx, e.dev, props, &err);
  CHECK(err);
  int ran = 0;
  for (int il = 1; il >= 0; --il) {
    if (il ? !e.il : !e.source) continue;
    vadd(&e, il);
    reduce(&e, il);
    matmul(&e, il);
    ran += 3;
  }
  clReleaseCommandQueue(e.q);
  clReleaseContext(e.ctx);
  if (ran == 0) {
    fprintf(stderr, "the device accepts neither SPIR-V nor source\n");
    return 1;
  }
  printf("%d runs, %d failures\n", ran, failures);
  return failures ? 1 : 0;
}
