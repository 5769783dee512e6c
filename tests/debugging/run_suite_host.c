/* Runs one entry of the buggy-kernel suite (tests/debugging/suite.json) through the standard OpenCL C API, on the
 * first device of the first platform the ICD loader (or a runtime such as Oclgrind's) offers. The program knows
 * nothing of clref: the checkers are the implementation's business (CLREF_CHECKS for clref's ICD, `oclgrind
 * --data-races --uninitialized` for Oclgrind), and whatever the implementation reports through the context's
 * callback is printed on stdout as "callback: <message>".
 *
 * Usage:
 *   run_suite_host KERNEL_FILE KERNEL_NAME OPTIONS GLOBAL LOCAL [ARG ...]
 *     KERNEL_FILE  OpenCL C source file
 *     OPTIONS      build options as one word ("" for none); " -g" is appended for source lines in reports (and
 *                  left out again when the implementation refuses it). -cl-std=CL2.0 becomes -cl-std=CL3.0 on a
 *                  device that offers OpenCL C 3.0 but not 2.0 (see adaptLanguageVersion)
 *     GLOBAL       global sizes, one per dimension: 16, 8x8, 4x4x2
 *     LOCAL        local sizes in the same form, or "-" to let the implementation choose
 *     ARG          one per kernel argument, in order:
 *       buffer:TYPE:COUNT[:INIT]  a buffer of COUNT elements of TYPE (char uchar short ushort int uint long ulong
 *                                 float), INIT one of
 *                                   zero (default)       all bytes 0
 *                                   fill=V               every element V
 *                                   iota=S,D             element i is S + i*D
 *                                   values=V1,V2,...     the values repeated cyclically
 *                                   none                 created without host data and never written
 *       local:BYTES               a local memory argument of BYTES bytes
 *       TYPE=VALUE                a scalar by value (TYPE as for buffers), e.g. int=3, float=0.5
 *
 * Initialised buffers are created with CL_MEM_COPY_HOST_PTR; "none" buffers without a host pointer, so their
 * contents are uninitialised as far as the API is concerned. After the kernel, every buffer is read back and
 * printed (at most 64 elements each, as "arg N: v0 v1 ...").
 *
 * Exit status: 0 when every call succeeded, 1 when the kernel's command or the read-back failed (a kernel fault or
 * a checker's finding the implementation treats as fatal), 2 for bad usage, a missing device or a build failure. */
/* OpenCL 1.2 calls (clCreateCommandQueue), so the same program runs on 1.2 platforms such as Oclgrind's; the one
 * 3.0 query (CL_DEVICE_OPENCL_C_ALL_VERSIONS) is made only when the device is a 3.0 device. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxArgs = 32, kMaxPrinted = 64 };

typedef enum { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_NONE } ElemType;
static const char* const kTypeNames[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float"};
static const size_t kTypeSizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4};

typedef enum { A_BUFFER, A_LOCAL, A_SCALAR } ArgKind;

typedef struct {
  ArgKind kind;
  ElemType type;
  size_t count;        /* buffer: elements */
  size_t localBytes;   /* local */
  int hostData;        /* buffer: created with CL_MEM_COPY_HOST_PTR */
  unsigned char* data; /* buffer: initial contents (count elements); scalar: the value (one element) */
  cl_mem mem;
} Arg;

static void die(int status, const char* what, const char* detail) {
  fprintf(stderr, "run_suite_host: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(status);
}

static ElemType parseType(const char* name, size_t len) {
  for (int t = 0; t < (int)T_NONE; ++t)
    if (strlen(kTypeNames[t]) == len && strncmp(kTypeNames[t], name, len) == 0) return (ElemType)t;
  return T_NONE;
}

/* Stores `v` (a double, exact for every integer this suite uses) as element `i` of type `t` at `base`. */
static void storeElement(unsigned char* base, ElemType t, size_t i, double v) {
  unsigned char* p = base + i * kTypeSizes[t];
  switch (t) {
    case T_CHAR: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case T_UCHAR: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case T_SHORT: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case T_USHORT: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case T_INT: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case T_UINT: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case T_LONG: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case T_ULONG: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
    case T_FLOAT: { float x = (float)v; memcpy(p, &x, 4); break; }
    case T_NONE: break;
  }
}

static void printElement(const unsigned char* base, ElemType t, size_t i) {
  const unsigned char* p = base + i * kTypeSizes[t];
  switch (t) {
    case T_CHAR: { int8_t x; memcpy(&x, p, 1); printf(" %d", x); break; }
    case T_UCHAR: { uint8_t x; memcpy(&x, p, 1); printf(" %u", x); break; }
    case T_SHORT: { int16_t x; memcpy(&x, p, 2); printf(" %d", x); break; }
    case T_USHORT: { uint16_t x; memcpy(&x, p, 2); printf(" %u", x); break; }
    case T_INT: { int32_t x; memcpy(&x, p, 4); printf(" %d", x); break; }
    case T_UINT: { uint32_t x; memcpy(&x, p, 4); printf(" %u", x); break; }
    case T_LONG: { int64_t x; memcpy(&x, p, 8); printf(" %lld", (long long)x); break; }
    case T_ULONG: { uint64_t x; memcpy(&x, p, 8); printf(" %llu", (unsigned long long)x); break; }
    case T_FLOAT: { float x; memcpy(&x, p, 4); printf(" %.9g", x); break; }
    case T_NONE: break;
  }
}

/* A number from the whole of [text, end); dies naming `what` otherwise. */
static double parseNumber(const char* text, const char* end, const char* what) {
  char buf[64];
  const size_t len = (size_t)(end - text);
  if (len == 0 || len >= sizeof buf) die(2, "bad number in", what);
  memcpy(buf, text, len);
  buf[len] = '\0';
  char* stop = NULL;
  errno = 0;
  const double v = strtod(buf, &stop);
  if (errno != 0 || *stop != '\0') die(2, "bad number in", what);
  return v;
}

/* Sizes "A[xB[xC]]" into `sizes`; returns the number of dimensions. */
static cl_uint parseSizes(const char* text, size_t sizes[3]) {
  cl_uint dims = 0;
  const char* p = text;
  while (*p) {
    if (dims == 3) die(2, "more than 3 sizes in", text);
    const char* x = strchr(p, 'x');
    const char* end = x ? x : p + strlen(p);
    const double v = parseNumber(p, end, text);
    if (v < 1) die(2, "sizes must be positive:", text);
    sizes[dims++] = (size_t)v;
    p = x ? x + 1 : end;
  }
  if (dims == 0) die(2, "no sizes in", text);
  return dims;
}

static void parseArg(const char* spec, Arg* a) {
  memset(a, 0, sizeof *a);
  if (strncmp(spec, "local:", 6) == 0) {
    a->kind = A_LOCAL;
    a->localBytes = (size_t)parseNumber(spec + 6, spec + strlen(spec), spec);
    return;
  }
  if (strncmp(spec, "buffer:", 7) == 0) {
    a->kind = A_BUFFER;
    const char* p = spec + 7;
    const char* colon = strchr(p, ':');
    if (!colon) die(2, "buffer needs TYPE:COUNT:", spec);
    a->type = parseType(p, (size_t)(colon - p));
    if (a->type == T_NONE) die(2, "unknown element type in", spec);
    p = colon + 1;
    colon = strchr(p, ':');
    const char* countEnd = colon ? colon : p + strlen(p);
    a->count = (size_t)parseNumber(p, countEnd, spec);
    if (a->count == 0) die(2, "empty buffer:", spec);
    a->data = calloc(a->count, kTypeSizes[a->type]);
    if (!a->data) die(2, "out of host memory for", spec);
    a->hostData = 1;
    const char* init = colon ? colon + 1 : "zero";
    if (strcmp(init, "zero") == 0) return;
    if (strcmp(init, "none") == 0) {
      a->hostData = 0;
      return;
    }
    if (strncmp(init, "fill=", 5) == 0) {
      const double v = parseNumber(init + 5, init + strlen(init), spec);
      for (size_t i = 0; i < a->count; ++i) storeElement(a->data, a->type, i, v);
      return;
    }
    if (strncmp(init, "iota=", 5) == 0) {
      const char* comma = strchr(init + 5, ',');
      if (!comma) die(2, "iota needs S,D:", spec);
      const double s = parseNumber(init + 5, comma, spec), d = parseNumber(comma + 1, comma + strlen(comma), spec);
      for (size_t i = 0; i < a->count; ++i) storeElement(a->data, a->type, i, s + (double)i * d);
      return;
    }
    if (strncmp(init, "values=", 7) == 0) {
      double values[256];
      size_t n = 0;
      for (const char* v = init + 7; *v;) {
        const char* comma = strchr(v, ',');
        const char* end = comma ? comma : v + strlen(v);
        if (n == 256) die(2, "more than 256 values in", spec);
        values[n++] = parseNumber(v, end, spec);
        v = comma ? comma + 1 : end;
      }
      if (n == 0) die(2, "no values in", spec);
      for (size_t i = 0; i < a->count; ++i) storeElement(a->data, a->type, i, values[i % n]);
      return;
    }
    die(2, "unknown buffer init in", spec);
  }
  const char* eq = strchr(spec, '=');
  if (!eq) die(2, "unknown argument", spec);
  a->kind = A_SCALAR;
  a->type = parseType(spec, (size_t)(eq - spec));
  if (a->type == T_NONE) die(2, "unknown scalar type in", spec);
  a->data = calloc(1, kTypeSizes[a->type]);
  if (!a->data) die(2, "out of host memory for", spec);
  storeElement(a->data, a->type, 0, parseNumber(eq + 1, eq + strlen(eq), spec));
}

/* The context's callback: the implementation's own reports (clref: kernel faults and checker findings). */
static void CL_CALLBACK onContextMessage(const char* errinfo, const void* private_info, size_t cb, void* user_data) {
  (void)private_info;
  (void)cb;
  (void)user_data;
  printf("callback: %s\n", errinfo);
  fflush(stdout);
}

static char* readFile(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) die(2, "cannot open", path);
  if (fseek(f, 0, SEEK_END) != 0) die(2, "cannot read", path);
  const long size = ftell(f);
  if (size < 0 || fseek(f, 0, SEEK_SET) != 0) die(2, "cannot read", path);
  char* text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) die(2, "cannot read", path);
  text[size] = '\0';
  fclose(f);
  return text;
}

static void printBuildLog(cl_program program, cl_device_id device) {
  size_t logSize = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &logSize);
  if (logSize <= 1) return;
  char* log = malloc(logSize);
  if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, logSize, log, NULL) == CL_SUCCESS)
    printf("build log:\n%s\n", log);
  free(log);
}

/* OpenCL C 2.0's features the suite uses (the generic address space, atomics with scopes, work-group collectives)
 * are optional features of OpenCL C 3.0, and an OpenCL 3.0 device need not list OpenCL C 2.0 among its versions
 * (OpenCL 3.0 API §5.8.6.5 [[opencl-c-version]] -cl-std: only a version the device reports). On such a device the
 * program asks for OpenCL C 3.0 instead of 2.0; the device's CL_DEVICE_OPENCL_C_FEATURES say whether the features
 * are there. */
static void adaptLanguageVersion(cl_device_id device, char* options) {
  char* std20 = strstr(options, "-cl-std=CL2.0");
  if (!std20) return;
  char version[128] = "";
  if (clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL) != CL_SUCCESS) return;
  if (strncmp(version, "OpenCL 3.", 9) != 0) return;
  size_t bytes = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &bytes) != CL_SUCCESS || bytes == 0) return;
  cl_name_version* versions = malloc(bytes);
  if (!versions) return;
  int has20 = 0, has30 = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes, versions, NULL) == CL_SUCCESS) {
    for (size_t i = 0; i < bytes / sizeof *versions; ++i) {
      has20 = has20 || (CL_VERSION_MAJOR(versions[i].version) == 2 && CL_VERSION_MINOR(versions[i].version) == 0);
      has30 = has30 || CL_VERSION_MAJOR(versions[i].version) == 3;
    }
  }
  free(versions);
  if (has20 || !has30) return;
  memcpy(std20, "-cl-std=CL3.0", 13);
  printf("build: the device offers OpenCL C 3.0, not 2.0: -cl-std=CL3.0\n");
}

static void check(cl_int err, const char* call) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "run_suite_host: %s failed with %d\n", call, err);
    exit(2);
  }
}

int main(int argc, char** argv) {
  if (argc < 6 || argc - 6 > kMaxArgs) {
    fprintf(stderr, "usage: run_suite_host KERNEL_FILE KERNEL_NAME OPTIONS GLOBAL LOCAL [ARG ...]\n"
                    "(see the comment at the top of tests/debugging/run_suite_host.c)\n");
    return 2;
  }
  const char *file = argv[1], *name = argv[2], *options = argv[3];
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  const cl_uint dims = parseSizes(argv[4], global);
  const int haveLocal = strcmp(argv[5], "-") != 0;
  if (haveLocal && parseSizes(argv[5], local) != dims) die(2, "GLOBAL and LOCAL differ in dimensions", NULL);
  const int nargs = argc - 6;
  Arg args[kMaxArgs];
  for (int i = 0; i < nargs; ++i) parseArg(argv[6 + i], &args[i]);

  cl_platform_id platform;
  cl_uint count = 0;
  if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) die(2, "no OpenCL platform", NULL);
  cl_device_id device;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &count) != CL_SUCCESS || count == 0)
    die(2, "no OpenCL device", NULL);
  char deviceName[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof deviceName, deviceName, NULL);
  printf("device: %s\n", deviceName);

  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, onContextMessage, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  check(err, "clCreateCommandQueue");

  char* source = readFile(file);
  cl_program program = clCreateProgramWithSource(context, 1, (const char**)&source, NULL, &err);
  check(err, "clCreateProgramWithSource");
  /* -g asks for source lines in the reports; it is not an OpenCL build option, and an implementation that refuses it
   * (Oclgrind's compiler does, and puts line information in every program anyway) builds without it. */
  const size_t optionsLen = strlen(options) + 4;
  char* fullOptions = malloc(optionsLen);
  if (!fullOptions) die(2, "out of host memory", NULL);
  snprintf(fullOptions, optionsLen, "%s -g", options);
  adaptLanguageVersion(device, fullOptions);
  err = clBuildProgram(program, 1, &device, fullOptions, NULL, NULL);
  if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS) {
    printf("build: failed with -g (%d); building without it\n", err);
    fullOptions[strlen(fullOptions) - 3] = '\0';
    err = clBuildProgram(program, 1, &device, fullOptions, NULL, NULL);
  }
  printBuildLog(program, device);
  if (err != CL_SUCCESS) {
    printf("build: failed (%d)\n", err);
    return 2;
  }
  cl_kernel kernel = clCreateKernel(program, name, &err);
  check(err, "clCreateKernel");

  for (int i = 0; i < nargs; ++i) {
    Arg* a = &args[i];
    switch (a->kind) {
      case A_BUFFER: {
        const size_t bytes = a->count * kTypeSizes[a->type];
        const cl_mem_flags flags = CL_MEM_READ_WRITE | (a->hostData ? CL_MEM_COPY_HOST_PTR : 0);
        a->mem = clCreateBuffer(context, flags, bytes, a->hostData ? a->data : NULL, &err);
        check(err, "clCreateBuffer");
        check(clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &a->mem), "clSetKernelArg (buffer)");
        break;
      }
      case A_LOCAL: check(clSetKernelArg(kernel, (cl_uint)i, a->localBytes, NULL), "clSetKernelArg (local)"); break;
      case A_SCALAR:
        check(clSetKernelArg(kernel, (cl_uint)i, kTypeSizes[a->type], a->data), "clSetKernelArg (scalar)");
        break;
    }
  }

  int status = 0;
  cl_event done = NULL;
  err = clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, haveLocal ? local : NULL, 0, NULL, &done);
  printf("enqueue: %d\n", err);
  if (err != CL_SUCCESS) status = 1;
  err = clFinish(queue);
  printf("finish: %d\n", err);
  if (err != CL_SUCCESS) status = 1;
  if (done) {
    /* A command that failed while running (a kernel fault) says so in its event's status, not in clFinish's. */
    cl_int execution = CL_COMPLETE;
    err = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution, NULL);
    printf("kernel status: %d\n", err == CL_SUCCESS ? execution : err);
    if (err != CL_SUCCESS || execution < 0) status = 1;
    clReleaseEvent(done);
  }
  for (int i = 0; i < nargs; ++i) {
    Arg* a = &args[i];
    if (a->kind != A_BUFFER) continue;
    err = clEnqueueReadBuffer(queue, a->mem, CL_TRUE, 0, a->count * kTypeSizes[a->type], a->data, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      printf("arg %d: read failed (%d)\n", i, err);
      status = 1;
      continue;
    }
    printf("arg %d:", i);
    for (size_t k = 0; k < a->count && k < kMaxPrinted; ++k) printElement(a->data, a->type, k);
    printf("%s\n", a->count > kMaxPrinted ? " ..." : "");
  }
  fflush(stdout);

  for (int i = 0; i < nargs; ++i) {
    if (args[i].mem) clReleaseMemObject(args[i].mem);
    free(args[i].data);
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(fullOptions);
  free(source);
  return status;
}
