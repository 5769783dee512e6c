// Image peer harness: the two workloads of clref_image_kernels_bench (../image_kernels_bench.cpp) through any OpenCL
// ICD, so that clref (its ICD) and PoCL run the same .cl files in the same host program. 1024 x 1024 CL_RGBA /
// CL_UNORM_INT8 (clCreateImage with CL_MEM_COPY_HOST_PTR), local size 16 x 16, one warm-up run, then N timed runs of
// clEnqueueNDRangeKernel + clFinish; prints the best and median wall time, the best processor time of the whole
// process (every thread of the device's; on a shared machine less disturbed by other work than the wall time), and
// checks every channel against a double-precision host computation (within 1 of the 8-bit value, as the clref bench
// does).
//
//   gcc -std=c11 -O2 -o image_peer_bench image_peer_bench.c -lOpenCL -lm
//   OCL_ICD_VENDORS=DIR image_peer_bench [-n RUNS] [KERNELS_DIR]   (DIR: a folder holding one .icd file)
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kSize = 1024 };

static void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "image_peer_bench: %s failed (%d)\n", what, (int)err);
    exit(1);
  }
}

static double clockMs(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static char* readFile(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "image_peer_bench: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = malloc((size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) exit(1);
  s[n] = 0;
  fclose(f);
  return s;
}

static int cmpDouble(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

// The picture of image_kernels_bench.cpp: smooth gradients plus a checkerboard.
static unsigned char* picture(void) {
  unsigned char* p = malloc((size_t)kSize * kSize * 4);
  for (size_t y = 0; y < kSize; ++y)
    for (size_t x = 0; x < kSize; ++x) {
      unsigned char* e = &p[(y * kSize + x) * 4];
      e[0] = (unsigned char)(x * 255 / (kSize - 1));
      e[1] = (unsigned char)(y * 255 / (kSize - 1));
      e[2] = ((x / 32) + (y / 32)) % 2 ? 230 : 20;
      e[3] = (unsigned char)(255 - (x + y) % 256);
    }
  return p;
}

static double toUnorm8(double f) { return nearbyint(fmin(fmax(f, 0.0), 1.0) * 255.0); }

static double texel(const unsigned char* p, long x, long y, int c) {
  if (x < 0 || y < 0 || x >= kSize || y >= kSize) return 0.0;
  return p[((size_t)y * kSize + (size_t)x) * 4 + (size_t)c] / 255.0;
}

static int verifyRotate(const unsigned char* p, const unsigned char* out, float cs, float sn) {
  const double half = kSize / 2.0;
  for (long y = 0; y < kSize; ++y)
    for (long x = 0; x < kSize; ++x) {
      const double dx = (double)x + 0.5 - half, dy = (double)y + 0.5 - half;
      const double u = (double)cs * dx - (double)sn * dy + half - 0.5;
      const double v = (double)sn * dx + (double)cs * dy + half - 0.5;
      const long i0 = (long)floor(u), j0 = (long)floor(v);
      const double a = u - floor(u), b = v - floor(v);
      for (int c = 0; c < 4; ++c) {
        const double s = (1 - a) * (1 - b) * texel(p, i0, j0, c) + a * (1 - b) * texel(p, i0 + 1, j0, c) +
                         (1 - a) * b * texel(p, i0, j0 + 1, c) + a * b * texel(p, i0 + 1, j0 + 1, c);
        if (fabs((double)out[((size_t)y * kSize + (size_t)x) * 4 + (size_t)c] - toUnorm8(s)) > 1) return 0;
      }
    }
  return 1;
}

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

static int verifyBlur(const unsigned char* p, const unsigned char* out) {
  for (long y = 0; y < kSize; ++y)
    for (long x = 0; x < kSize; ++x)
      for (int c = 0; c < 4; ++c) {
        double s = 0;
        for (long dy = -2; dy <= 2; ++dy)
          for (long dx = -2; dx <= 2; ++dx)
            s += texel(p, clampl(x + dx, 0, kSize - 1), clampl(y + dy, 0, kSize - 1), c);
        if (fabs((double)out[((size_t)y * kSize + (size_t)x) * 4 + (size_t)c] - toUnorm8(s / 25)) > 1) return 0;
      }
  return 1;
}

int main(int argc, char** argv) {
  int runs = 5;
  const char* dir = "benchmarks/kernels";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      runs = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
    else
      dir = argv[i];
  }
  cl_platform_id platform;
  cl_device_id device;
  check(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
  char name[256] = {0};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
  printf("platform: %s\n", name);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  check(err, "clCreateCommandQueue");

  unsigned char* pixels = picture();
  unsigned char* out = malloc((size_t)kSize * kSize * 4);
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = kSize;
  int allOk = 1;
  const char* workloads[2] = {"rotate", "blur"};
  for (int w = 0; w < 2; ++w) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, w == 0 ? "image_rotate.cl" : "image_blur.cl");
    const char* src = readFile(path);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(prog, 1, &device, "", NULL, NULL), "clBuildProgram");
    cl_kernel k = clCreateKernel(prog, w == 0 ? "rotate_bilinear" : "box_blur5", &err);
    check(err, "clCreateKernel");
    cl_mem in = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels, &err);
    check(err, "clCreateImage (source)");
    cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
    check(err, "clCreateImage (destination)");
    const float cs = 0.8660254f, sn = 0.5f;
    check(clSetKernelArg(k, 0, sizeof in, &in), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof dst, &dst), "clSetKernelArg");
    if (w == 0) {
      check(clSetKernelArg(k, 2, sizeof cs, &cs), "clSetKernelArg");
      check(clSetKernelArg(k, 3, sizeof sn, &sn), "clSetKernelArg");
    }
    const size_t global[2] = {kSize, kSize}, local[2] = {16, 16};
    double* t = malloc(sizeof(double) * (size_t)runs);
    double* cpu = malloc(sizeof(double) * (size_t)runs);
    for (int r = -1; r < runs; ++r) {
      const double t0 = clockMs(CLOCK_MONOTONIC), c0 = clockMs(CLOCK_PROCESS_CPUTIME_ID);
      check(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
      check(clFinish(q), "clFinish");
      if (r >= 0) {
        t[r] = clockMs(CLOCK_MONOTONIC) - t0;
        cpu[r] = clockMs(CLOCK_PROCESS_CPUTIME_ID) - c0;
      }
    }
    qsort(t, (size_t)runs, sizeof(double), cmpDouble);
    qsort(cpu, (size_t)runs, sizeof(double), cmpDouble);
    const size_t origin[3] = {0, 0, 0}, region[3] = {kSize, kSize, 1};
    check(clEnqueueReadImage(q, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL), "clEnqueueReadImage");
    const int ok = w == 0 ? verifyRotate(pixels, out, cs, sn) : verifyBlur(pixels, out);
    printf("  %s best=%.2f ms median=%.2f ms cpu=%.2f ms %s\n", workloads[w], t[0], t[runs / 2], cpu[0],
           ok ? "verified" : "verify FAIL");
    allOk = allOk && ok;
    free(t);
    free(cpu);
    clReleaseMemObject(in);
    clReleaseMemObject(dst);
    clReleaseKernel(k);
    clReleaseProgram(prog);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return allOk ? 0 : 1;
}
