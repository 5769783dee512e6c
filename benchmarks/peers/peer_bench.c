/*
 * peer_bench: time clref's three benchmark workloads on another OpenCL
 * implementation (PoCL, Oclgrind, ...) so clref's numbers can be reported
 * side by side with its peers.
 *
 *   vadd    c[i] = a[i] + b[i] over 2^20 floats, local size 256
 *   matmul  naive 256x256 float matmul, one work-item per output, local 16x16
 *   reduce  local-memory tree reduction over 2^22 ints, local size 256,
 *           one partial sum per work-group
 *
 * Each kernel is built from source (<kernels-dir>/<name>.cl) on the first
 * device of the first platform the ICD loader reports (choose the peer with
 * OCL_ICD_VENDORS). Inputs are deterministic. Each NDRange is run once as a
 * warm-up, then timed N times as clEnqueueNDRangeKernel + clFinish wall time
 * (CLOCK_MONOTONIC); the output of the last run is verified against a host
 * computation.
 *
 * Build:  gcc -std=c11 -O2 -Wall -Wextra -o peer_bench peer_bench.c -lOpenCL
 * Usage:  peer_bench [-n RUNS] [-w WARMUPS] KERNELS_DIR [FILTER]
 *         FILTER selects the workloads whose name contains it.
 * Exit status: 0 if every selected workload built, ran and verified.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VADD_N (1u << 20)
#define MATMUL_N 256u
#define REDUCE_N (1u << 22)
#define REDUCE_LOCAL 256u

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id device;
static const char* kernels_dir;
static char device_name[256];
static char platform_name[256];
static int runs = 3;
static int warmups = 1;

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cl_int err_ = (call);                                                              \
    if (err_ != CL_SUCCESS) {                                                          \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)err_); \
      return -1;                                                                       \
    }                                                                                  \
  } while (0)

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Deterministic pseudo-random stream (32-bit LCG, Numerical Recipes). */
static uint32_t lcg_state;
static uint32_t lcg_next(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}
/* Uniform float in [-1, 1) with 24 significant bits. */
static float lcg_float(void) { return (float)((int32_t)(lcg_next() >> 8) - (1 << 23)) / (float)(1 << 23); }

static char* read_source(const char* name, size_t* len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.cl", kernels_dir, name);
  FILE* f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = malloc((size_t)size + 1);
  if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "%s: read failed\n", path);
    free(buf);
    fclose(f);
    return NULL;
  }
  buf[size] = '\0';
  fclose(f);
  *len = (size_t)size;
  return buf;
}

/* Builds <name>.cl and returns kernel <name>; prints the build log on failure. */
static cl_kernel build_kernel(const char* name, cl_program* prog_out) {
  size_t len;
  char* src = read_source(name, &len);
  if (!src) return NULL;
  cl_int err;
  const char* srcs[] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
  free(src);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "%s: clCreateProgramWithSource failed: %d\n", name, (int)err);
    return NULL;
  }
  double t0 = now_ms();
  err = clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", NULL, NULL);
  double t1 = now_ms();
  if (err != CL_SUCCESS) {
    size_t log_len = 0;
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
    char* log = malloc(log_len + 1);
    if (log) {
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
      log[log_len] = '\0';
      fprintf(stderr, "%s: clBuildProgram failed: %d\n%s\n", name, (int)err, log);
      free(log);
    }
    clReleaseProgram(prog);
    return NULL;
  }
  printf("  %-7s build OK (%.1f ms)\n", name, t1 - t0);
  cl_kernel k = clCreateKernel(prog, name, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "%s: clCreateKernel failed: %d\n", name, (int)err);
    clReleaseProgram(prog);
    return NULL;
  }
  *prog_out = prog;
  return k;
}

/* Warm-up, then `runs` timed enqueue+finish; prints the summary line.
 * Returns 0 on success. */
static int time_ndrange(const char* name, cl_kernel k, cl_uint dims, const size_t* global, const size_t* local) {
  for (int i = 0; i < warmups; ++i) {
    CHECK(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL));
    CHECK(clFinish(queue));
  }
  double* t = calloc((size_t)runs, sizeof *t);
  if (!t) return -1;
  for (int i = 0; i < runs; ++i) {
    double t0 = now_ms();
    cl_int err = clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(queue);
    double t1 = now_ms();
    if (err != CL_SUCCESS) {
      fprintf(stderr, "%s: run %d failed: %d\n", name, i, (int)err);
      free(t);
      return -1;
    }
    t[i] = t1 - t0;
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_double);
  double best = t[0];
  double median = (runs % 2) ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
  free(t);
  size_t items = 1;
  for (cl_uint d = 0; d < dims; ++d) items *= global[d];
  printf(
      "  %-7s items=%zu runs=%d best=%.3f ms median=%.3f ms "
      "work-items/s(best)=%.4g work-items/s(median)=%.4g\n",
      name, items, runs, best, median, (double)items / (best * 1e-3), (double)items / (median * 1e-3));
  return 0;
}

static int bench_vadd(void) {
  const cl_uint n = VADD_N;
  cl_program prog = NULL;
  cl_kernel k = build_kernel("vadd", &prog);
  if (!k) return -1;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  if (!a || !b || !c) return -1;
  lcg_state = 1;
  for (cl_uint i = 0; i < n; ++i) {
    a[i] = lcg_float();
    b[i] = lcg_float();
    c[i] = NAN;
  }
  cl_int err;
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *a, a, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *b, b, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *c, c, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = n, local = 256;
  int rc = time_ndrange("vadd", k, 1, &global, &local);
  if (rc == 0) {
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, n * sizeof *c, c, 0, NULL, NULL));
    size_t bad = 0;
    for (cl_uint i = 0; i < n; ++i) {
      float want = a[i] + b[i]; /* a single correctly rounded add: exact match */
      if (memcmp(&want, &c[i], sizeof want) != 0 && bad++ < 5)
        fprintf(stderr, "vadd: c[%u] = %a, want %a\n", i, c[i], want);
    }
    printf("  %-7s verify %s (%zu/%u mismatches, bit-exact)\n", "vadd", bad ? "FAIL" : "PASS", bad, n);
    rc = bad ? -1 : 0;
  }
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  free(a);
  free(b);
  free(c);
  return rc;
}

static int bench_matmul(void) {
  const cl_uint n = MATMUL_N;
  const size_t nn = (size_t)n * n;
  cl_program prog = NULL;
  cl_kernel k = build_kernel("matmul", &prog);
  if (!k) return -1;
  float *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
  if (!A || !B || !C) return -1;
  lcg_state = 2;
  for (size_t i = 0; i < nn; ++i) {
    A[i] = lcg_float();
    B[i] = lcg_float();
    C[i] = NAN;
  }
  cl_int err;
  cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * sizeof *A, A, &err);
  CHECK(err);
  cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * sizeof *B, B, &err);
  CHECK(err);
  cl_mem dC = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, nn * sizeof *C, C, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof dA, &dA));
  CHECK(clSetKernelArg(k, 1, sizeof dB, &dB));
  CHECK(clSetKernelArg(k, 2, sizeof dC, &dC));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global[2] = {n, n}, local[2] = {16, 16};
  int rc = time_ndrange("matmul", k, 2, global, local);
  if (rc == 0) {
    CHECK(clEnqueueReadBuffer(queue, dC, CL_TRUE, 0, nn * sizeof *C, C, 0, NULL, NULL));
    /* Host reference in double; devices may contract to fma or reorder
     * rounding, so accept 1e-3 relative error (absolute below |ref| < 1). */
    size_t bad = 0;
    double max_rel = 0.0;
    for (cl_uint r = 0; r < n; ++r)
      for (cl_uint c = 0; c < n; ++c) {
        double s = 0.0;
        for (cl_uint kk = 0; kk < n; ++kk) s += (double)A[r * n + kk] * (double)B[kk * n + c];
        double got = C[r * n + c];
        double scale = fabs(s) > 1.0 ? fabs(s) : 1.0;
        double rel = fabs(got - s) / scale;
        if (!(rel <= 1e-3)) {
          if (bad++ < 5) fprintf(stderr, "matmul: C[%u][%u] = %.9g, want %.9g\n", r, c, got, s);
        } else if (rel > max_rel) {
          max_rel = rel;
        }
      }
    printf("  %-7s verify %s (%zu/%zu outside 1e-3 rel, max rel err %.3g)\n", "matmul", bad ? "FAIL" : "PASS", bad, nn,
           max_rel);
    rc = bad ? -1 : 0;
  }
  clReleaseMemObject(dA);
  clReleaseMemObject(dB);
  clReleaseMemObject(dC);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  free(A);
  free(B);
  free(C);
  return rc;
}

static int bench_reduce(void) {
  const cl_uint n = REDUCE_N;
  const cl_uint groups = n / REDUCE_LOCAL;
  cl_program prog = NULL;
  cl_kernel k = build_kernel("reduce", &prog);
  if (!k) return -1;
  cl_int *in = malloc(n * sizeof *in), *out = malloc(groups * sizeof *out);
  if (!in || !out) return -1;
  lcg_state = 3;
  for (cl_uint i = 0; i < n; ++i) in[i] = (cl_int)(lcg_next() >> 16) - 32768; /* [-32768, 32767]: no overflow */
  for (cl_uint g = 0; g < groups; ++g) out[g] = (cl_int)0x7eadbeef;
  cl_int err;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *in, in, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, groups * sizeof *out, out, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 2, REDUCE_LOCAL * sizeof(cl_int), NULL));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = n, local = REDUCE_LOCAL;
  int rc = time_ndrange("reduce", k, 1, &global, &local);
  if (rc == 0) {
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, groups * sizeof *out, out, 0, NULL, NULL));
    size_t bad = 0;
    int64_t total = 0;
    for (cl_uint g = 0; g < groups; ++g) {
      int64_t s = 0;
      for (cl_uint i = 0; i < REDUCE_LOCAL; ++i) s += in[(size_t)g * REDUCE_LOCAL + i];
      total += s;
      if (out[g] != (cl_int)s && bad++ < 5)
        fprintf(stderr, "reduce: out[%u] = %d, want %lld\n", g, out[g], (long long)s);
    }
    printf("  %-7s verify %s (%zu/%u group sums wrong, exact; total %lld)\n", "reduce", bad ? "FAIL" : "PASS", bad,
           groups, (long long)total);
    rc = bad ? -1 : 0;
  }
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  free(in);
  free(out);
  return rc;
}

static void usage(const char* argv0) {
  fprintf(stderr,
          "usage: %s [-n RUNS] [-w WARMUPS] KERNELS_DIR [FILTER]\n"
          "  runs the vadd, matmul and reduce workloads whose name contains FILTER\n"
          "  on the first device of the first OpenCL platform (use -n 1 for Oclgrind)\n",
          argv0);
}

int main(int argc, char** argv) {
  const char* filter = NULL;
  int argi = 1;
  for (; argi < argc && argv[argi][0] == '-'; ++argi) {
    if (!strcmp(argv[argi], "-n") && argi + 1 < argc) {
      runs = atoi(argv[++argi]);
    } else if (!strcmp(argv[argi], "-w") && argi + 1 < argc) {
      warmups = atoi(argv[++argi]);
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (argi >= argc || runs < 1 || warmups < 0) {
    usage(argv[0]);
    return 2;
  }
  kernels_dir = argv[argi++];
  if (argi < argc) filter = argv[argi++];

  cl_platform_id platform;
  cl_uint nplat = 0;
  if (clGetPlatformIDs(1, &platform, &nplat) != CL_SUCCESS || nplat == 0) {
    fprintf(stderr, "no OpenCL platform found (check OCL_ICD_VENDORS)\n");
    return 1;
  }
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device on the first platform\n");
    return 1;
  }
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL);
  char version[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
  cl_uint cus = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  printf("platform: %s\ndevice:   %s (%s, %u compute units)\n", platform_name, device_name, version, cus);
  printf("timing:   %d warm-up + %d timed run(s), enqueue+clFinish wall time\n", warmups, runs);

  cl_int err;
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateContext failed: %d\n", (int)err);
    return 1;
  }
  queue = clCreateCommandQueue(ctx, device, 0, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateCommandQueue failed: %d\n", (int)err);
    return 1;
  }

  static const struct {
    const char* name;
    int (*fn)(void);
  } workloads[] = {{"vadd", bench_vadd}, {"matmul", bench_matmul}, {"reduce", bench_reduce}};
  int failures = 0, selected = 0;
  for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; ++i) {
    if (filter && !strstr(workloads[i].name, filter)) continue;
    ++selected;
    fflush(stdout);
    if (workloads[i].fn() != 0) {
      printf("  %-7s FAILED\n", workloads[i].name);
      ++failures;
    }
    fflush(stdout);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  if (!selected) {
    fprintf(stderr, "no workload matches '%s'\n", filter);
    return 2;
  }
  return failures ? 1 : 0;
}
