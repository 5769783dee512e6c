/* A plain C11 OpenCL host program that runs the golden corpus (golden/README.md) through
 * whatever platform the ICD loader offers first: every case from SPIR-V (clCreateProgramWithIL)
 * and from OpenCL C source (clCreateProgramWithSource), its output buffers compared byte for
 * byte with the expected bytes of the golden host references. Only standard OpenCL 3.0 API
 * calls, so the same program runs against clref and against other implementations.
 *
 * The cases come from a bundle written by golden_bundle (tests/api/golden_bundle.cpp, which
 * describes manifest.txt), so this program needs no JSON parser.
 *
 * usage: c_host_golden BUNDLE_DIR [--smoke]
 *   exit status 0 when every run matched; 1 on an API error or, without --smoke, a mismatch.
 *   --smoke: mismatches are counted and printed but do not fail (for devices that are not
 *   correctly rounded); API errors still do.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ARGS = 32, MAX_SPECS = 8, MAX_REQUIRES = 4, MAX_PROGRAMS = 256, PATH_LEN = 1024, LINE_LEN = 8192 };

/* ---- the bundle ------------------------------------------------------------------------- */

enum ArgKind { ARG_BUFFER, ARG_LOCAL, ARG_VALUE, ARG_NULL };

struct Arg {
  enum ArgKind kind;
  char type[16];           /* buffer element type, e.g. "float" */
  size_t count;            /* buffer elements */
  size_t size;             /* buffer, local or value bytes */
  char init[PATH_LEN];     /* buffer: file of the initial bytes */
  char expected[PATH_LEN]; /* output buffer: file of the expected bytes, else "" */
  unsigned char* value;    /* value bytes */
};

struct Spec {
  cl_uint id;
  size_t size;
  unsigned char* bytes;
};

struct Case {
  char name[256];
  char skip[512]; /* "" unless the bundle skips the case */
  char spirv[PATH_LEN];
  char source[PATH_LEN]; /* "" when there is no OpenCL C source */
  char sourceOptions[1024];
  char requires[2][MAX_REQUIRES][64]; /* per origin (IL, SOURCE): extensions the build needs */
  int nrequires[2];
  char kernel[256];
  cl_uint dims;
  size_t global[3], local[3], offset[3];
  int hasLocal;
  struct Arg args[MAX_ARGS];
  int nargs;
  struct Spec specs[MAX_SPECS];
  int nspecs;
};

static void freeCase(struct Case* c) {
  for (int i = 0; i < c->nargs; ++i) free(c->args[i].value);
  for (int i = 0; i < c->nspecs; ++i) free(c->specs[i].bytes);
  memset(c, 0, sizeof *c);
}

/* Copies `src` (NULL: "") into dst[size]; 0 when it had to be cut short. */
static int copyString(char* dst, size_t size, const char* src) {
  size_t n = src ? strlen(src) : 0;
  const int fits = n < size;
  if (!fits) n = size - 1;
  memcpy(dst, src ? src : "", n);
  dst[n] = 0;
  return fits;
}

/* Decodes `size` bytes of hex; NULL when the text does not hold exactly that. */
static unsigned char* fromHex(const char* text, size_t size) {
  if (!text || strlen(text) != 2 * size) return NULL;
  unsigned char* out = malloc(size ? size : 1);
  for (size_t i = 0; i < size; ++i) {
    unsigned v;
    if (sscanf(text + 2 * i, "%2x", &v) != 1) {
      free(out);
      return NULL;
    }
    out[i] = (unsigned char)v;
  }
  return out;
}

/* "arg ..." after "arg"; 0 on a malformed line. */
static int parseArg(struct Case* c, char* rest) {
  if (c->nargs == MAX_ARGS) return 0;
  struct Arg* a = &c->args[c->nargs++];
  const char* kind = strtok(rest, " ");
  if (!kind) return 0;
  if (strcmp(kind, "buffer") == 0) {
    const char *type = strtok(NULL, " "), *count = strtok(NULL, " "), *size = strtok(NULL, " ");
    const char *init = strtok(NULL, " "), *expected = strtok(NULL, " ");
    if (!type || !count || !size || !init) return 0;
    a->kind = ARG_BUFFER;
    a->count = strtoull(count, NULL, 10);
    a->size = strtoull(size, NULL, 10);
    return copyString(a->type, sizeof a->type, type) && copyString(a->init, sizeof a->init, init) &&
           copyString(a->expected, sizeof a->expected, expected);
  }
  if (strcmp(kind, "local") == 0) {
    const char* size = strtok(NULL, " ");
    a->kind = ARG_LOCAL;
    a->size = size ? strtoull(size, NULL, 10) : 0;
    return size != NULL;
  }
  if (strcmp(kind, "value") == 0) {
    const char* size = strtok(NULL, " ");
    a->kind = ARG_VALUE;
    a->size = size ? strtoull(size, NULL, 10) : 0;
    a->value = fromHex(strtok(NULL, " "), a->size);
    return a->value != NULL;
  }
  if (strcmp(kind, "null") == 0) {
    a->kind = ARG_NULL;
    return 1;
  }
  return 0;
}

/* "ndrange DIMS G0 G1 G2 L0 L1 L2|- O0 O1 O2" after "ndrange". */
static int parseNDRange(struct Case* c, char* rest) {
  const char* dims = strtok(rest, " ");
  if (!dims) return 0;
  c->dims = (cl_uint)strtoul(dims, NULL, 10);
  for (int i = 0; i < 3; ++i) {
    const char* g = strtok(NULL, " ");
    if (!g) return 0;
    c->global[i] = strtoull(g, NULL, 10);
  }
  const char* l = strtok(NULL, " ");
  if (!l) return 0;
  c->hasLocal = strcmp(l, "-") != 0;
  for (int i = 0; i < 3 && c->hasLocal; ++i) {
    if (i > 0 && !(l = strtok(NULL, " "))) return 0;
    c->local[i] = strtoull(l, NULL, 10);
  }
  for (int i = 0; i < 3; ++i) {
    const char* o = strtok(NULL, " ");
    if (!o) return 0;
    c->offset[i] = strtoull(o, NULL, 10);
  }
  return c->dims >= 1 && c->dims <= 3;
}

/* "spec ID BYTES HEX" after "spec". */
static int parseSpec(struct Case* c, char* rest) {
  const char *id = strtok(rest, " "), *size = strtok(NULL, " "), *bytes = strtok(NULL, " ");
  if (!id || !size || c->nspecs == MAX_SPECS) return 0;
  struct Spec* s = &c->specs[c->nspecs++];
  s->id = (cl_uint)strtoul(id, NULL, 10);
  s->size = strtoull(size, NULL, 10);
  s->bytes = fromHex(bytes, s->size);
  return s->bytes != NULL;
}

/* "requires il|source EXTENSION" after "requires". */
static int parseRequires(struct Case* c, char* rest) {
  const char *origin = strtok(rest, " "), *ext = strtok(NULL, " ");
  if (!origin || !ext) return 0;
  const int o = strcmp(origin, "il") == 0 ? 0 : strcmp(origin, "source") == 0 ? 1 : -1;
  if (o < 0 || c->nrequires[o] == MAX_REQUIRES) return 0;
  return copyString(c->requires[o][c->nrequires[o]++], sizeof c->requires[0][0], ext);
}

/* One manifest line into `c`; 0 when it is malformed. */
static int parseLine(struct Case* c, char* line) {
  char* rest = strchr(line, ' ');
  if (rest)
    *rest++ = 0;
  else
    rest = line + strlen(line);
  if (strcmp(line, "skip") == 0) return copyString(c->skip, sizeof c->skip, rest);
  if (strcmp(line, "spirv") == 0) return copyString(c->spirv, sizeof c->spirv, rest);
  if (strcmp(line, "source") == 0) return copyString(c->source, sizeof c->source, strcmp(rest, "-") ? rest : "");
  if (strcmp(line, "source_options") == 0) return copyString(c->sourceOptions, sizeof c->sourceOptions, rest);
  if (strcmp(line, "kernel") == 0) return copyString(c->kernel, sizeof c->kernel, rest);
  if (strcmp(line, "requires") == 0) return parseRequires(c, rest);
  if (strcmp(line, "ndrange") == 0) return parseNDRange(c, rest);
  if (strcmp(line, "arg") == 0) return parseArg(c, rest);
  if (strcmp(line, "spec") == 0) return parseSpec(c, rest);
  return 0;
}

/* Reads the next "case ... end" block: 1 when read, 0 at the end of the file, -1 on an error. */
static int readCase(FILE* manifest, struct Case* c, int* lineNo) {
  char line[LINE_LEN];
  int inCase = 0;
  memset(c, 0, sizeof *c);
  while (fgets(line, sizeof line, manifest)) {
    ++*lineNo;
    line[strcspn(line, "\r\n")] = 0;
    if (line[0] == 0 || line[0] == '#') continue;
    if (!inCase) {
      if (strncmp(line, "case ", 5) != 0) break;
      if (!copyString(c->name, sizeof c->name, line + 5)) break;
      inCase = 1;
    } else if (strcmp(line, "end") == 0) {
      return 1;
    } else if (!parseLine(c, line)) {
      break;
    }
  }
  if (!inCase && feof(manifest)) return 0;
  fprintf(stderr, "manifest.txt:%d: malformed\n", *lineNo);
  return -1;
}

/* The contents of `dir`/`name` (or `name` itself when `dir` is NULL), NUL-terminated. */
static unsigned char* readFile(const char* dir, const char* name, size_t* size) {
  char path[2 * PATH_LEN];
  snprintf(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char* data = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    data = malloc((size_t)n + 1);
    if (fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
    } else {
      data[n] = 0;
      *size = (size_t)n;
    }
  }
  fclose(f);
  return data;
}

/* ---- the device -------------------------------------------------------------------------- */

struct CachedProgram {
  char key[PATH_LEN + 1024];
  cl_program program;
};

struct Env {
  const char* bundle;
  int smoke;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  int il, compiler, nonUniform;
  char extensions[8192];
  struct CachedProgram programs[MAX_PROGRAMS];
  int nprograms;
};

enum Origin { IL, SOURCE };
static const char* const originName[] = {"SPIR-V", "source"};

enum Outcome { OUT_OK, OUT_MISMATCH, OUT_ERROR, OUT_SKIPPED };

struct Tally {
  int ran[2], ok[2], mismatched[2], errors[2], skipped[2];
};

static int setUpDevice(struct Env* e) {
  cl_platform_id platform;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &e->device, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device (%d)\n", err);
    return 0;
  }
  char name[256] = {0}, version[256] = {0}, ils[512] = {0};
  cl_bool compiler = CL_FALSE;
  clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, sizeof e->extensions - 1, e->extensions, NULL);
  /* CL_DEVICE_IL_VERSION is a 2.1+ query; older devices answer CL_INVALID_VALUE */
  if (clGetDeviceInfo(e->device, CL_DEVICE_IL_VERSION, sizeof ils - 1, ils, NULL) == CL_SUCCESS)
    e->il = strstr(ils, "SPIR-V") != NULL;
  e->compiler = compiler == CL_TRUE;
  cl_bool nonUniform = CL_FALSE;
  clGetDeviceInfo(e->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform, NULL);
  e->nonUniform = nonUniform == CL_TRUE;
  printf("device: %s, %s (IL: %s, compiler: %s, non-uniform work-groups: %s)\n", name, version, e->il ? ils : "none",
         e->compiler ? "yes" : "no", e->nonUniform ? "yes" : "no");
  e->context = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
  if (err == CL_SUCCESS) e->queue = clCreateCommandQueueWithProperties(e->context, e->device, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "cannot create a context and queue (%d)\n", err);
    return 0;
  }
  return 1;
}

static void tearDownDevice(struct Env* e) {
  for (int i = 0; i < e->nprograms; ++i) clReleaseProgram(e->programs[i].program);
  if (e->queue) clReleaseCommandQueue(e->queue);
  if (e->context) clReleaseContext(e->context);
}

/* ---- one run ----------------------------------------------------------------------------- */

struct Run {
  cl_program program;
  int ownsProgram; /* not in the cache (it has specialization constants) */
  cl_kernel kernel;
  cl_mem mems[MAX_ARGS];
  char message[2048];
};

static cl_int apiError(struct Run* r, const char* what, cl_int err) {
  snprintf(r->message, sizeof r->message, "%s failed with %d", what, err);
  return err;
}

/* The global size is not a multiple of the local size in some dimension (OpenCL 3.0 API §3.2.1
 * [[_mapping_work_items_onto_an_nd_range]]). */
static int isNonUniform(const struct Case* c) {
  for (cl_uint i = 0; c->hasLocal && i < c->dims; ++i)
    if (c->local[i] == 0 || c->global[i] % c->local[i] != 0) return 1;
  return 0;
}

/* Why `origin` cannot run `c` on this device, or NULL. */
static const char* skipReason(const struct Env* e, const struct Case* c, enum Origin origin) {
  static char reason[640];
  if (c->skip[0]) return c->skip;
  if (origin == IL && !e->il) return "the device does not accept SPIR-V";
  if (origin == SOURCE && !e->compiler) return "the device has no compiler";
  if (origin == SOURCE && !c->source[0]) return "no OpenCL C source (hand-written SPIR-V)";
  if (origin == SOURCE && c->nspecs > 0) return "specialization constants apply to SPIR-V only";
  for (int i = 0; i < c->nrequires[origin]; ++i)
    if (!strstr(e->extensions, c->requires[origin][i])) {
      snprintf(reason, sizeof reason, "the device lacks %s", c->requires[origin][i]);
      return reason;
    }
  if (isNonUniform(c) && !e->nonUniform) return "the device does not support non-uniform work-groups";
  return NULL;
}

static cl_int buildProgram(struct Env* e, struct Run* r, const struct Case* c, enum Origin origin) {
  size_t size = 0;
  cl_int err;
  const char* path = origin == IL ? c->spirv : c->source;
  unsigned char* data = readFile(NULL, path, &size);
  if (!data) {
    snprintf(r->message, sizeof r->message, "cannot read %s", path);
    return CL_INVALID_VALUE;
  }
  if (origin == IL) {
    r->program = clCreateProgramWithIL(e->context, data, size, &err);
  } else {
    const char* text = (const char*)data;
    r->program = clCreateProgramWithSource(e->context, 1, &text, NULL, &err);
  }
  free(data);
  if (err != CL_SUCCESS) return apiError(r, origin == IL ? "clCreateProgramWithIL" : "clCreateProgramWithSource", err);
  for (int i = 0; origin == IL && i < c->nspecs; ++i) {
    const struct Spec* s = &c->specs[i];
    err = clSetProgramSpecializationConstant(r->program, s->id, s->size, s->bytes);
    if (err != CL_SUCCESS) return apiError(r, "clSetProgramSpecializationConstant", err);
  }
  err = clBuildProgram(r->program, 1, &e->device, origin == IL ? "" : c->sourceOptions, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t logSize = 0;
    char* log = NULL;
    if (clGetProgramBuildInfo(r->program, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &logSize) == CL_SUCCESS &&
        (log = calloc(logSize + 1, 1)) != NULL)
      clGetProgramBuildInfo(r->program, e->device, CL_PROGRAM_BUILD_LOG, logSize, log, NULL);
    snprintf(r->message, sizeof r->message, "clBuildProgram of %s failed with %d: %s", path, err, log ? log : "");
    free(log);
    return err;
  }
  return CL_SUCCESS;
}

/* The built program of `c` for `origin`: one per module and options, except with spec constants. */
static cl_int getProgram(struct Env* e, struct Run* r, const struct Case* c, enum Origin origin) {
  char key[sizeof e->programs[0].key];
  snprintf(key, sizeof key, "%s %s", origin == IL ? c->spirv : c->source, origin == IL ? "" : c->sourceOptions);
  const int cacheable = c->nspecs == 0;
  for (int i = 0; cacheable && i < e->nprograms; ++i)
    if (strcmp(e->programs[i].key, key) == 0) {
      r->program = e->programs[i].program;
      return CL_SUCCESS;
    }
  cl_int err = buildProgram(e, r, c, origin);
  if (err == CL_SUCCESS && cacheable && e->nprograms < MAX_PROGRAMS) {
    copyString(e->programs[e->nprograms].key, sizeof key, key);
    e->programs[e->nprograms++].program = r->program;
  } else {
    r->ownsProgram = r->program != NULL;
  }
  return err;
}

static cl_int createBuffer(struct Env* e, struct Run* r, const struct Arg* a, cl_mem* mem) {
  size_t size = 0;
  cl_int err;
  unsigned char* init = readFile(e->bundle, a->init, &size);
  if (!init || size != a->size) {
    free(init);
    snprintf(r->message, sizeof r->message, "cannot read %zu bytes from %s", a->size, a->init);
    return CL_INVALID_VALUE;
  }
  *mem = clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->size, init, &err);
  free(init);
  return err == CL_SUCCESS ? err : apiError(r, "clCreateBuffer", err);
}

static cl_int setArgs(struct Env* e, struct Run* r, const struct Case* c) {
  cl_uint count = 0;
  cl_int err = clGetKernelInfo(r->kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL);
  if (err != CL_SUCCESS) return apiError(r, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", err);
  if (count != (cl_uint)c->nargs) {
    snprintf(r->message, sizeof r->message, "the kernel has %u arguments, the case %d", count, c->nargs);
    return CL_INVALID_KERNEL_ARGS;
  }
  for (int i = 0; i < c->nargs; ++i) {
    const struct Arg* a = &c->args[i];
    switch (a->kind) {
      case ARG_BUFFER:
        if ((err = createBuffer(e, r, a, &r->mems[i])) != CL_SUCCESS) return err;
        err = clSetKernelArg(r->kernel, (cl_uint)i, sizeof(cl_mem), &r->mems[i]);
        break;
      case ARG_LOCAL: err = clSetKernelArg(r->kernel, (cl_uint)i, a->size, NULL); break;
      case ARG_VALUE: err = clSetKernelArg(r->kernel, (cl_uint)i, a->size, a->value); break;
      case ARG_NULL: err = clSetKernelArg(r->kernel, (cl_uint)i, sizeof(cl_mem), NULL); break;
    }
    if (err != CL_SUCCESS) {
      char what[64];
      snprintf(what, sizeof what, "clSetKernelArg(%d)", i);
      return apiError(r, what, err);
    }
  }
  return CL_SUCCESS;
}

static cl_int enqueue(struct Env* e, struct Run* r, const struct Case* c) {
  cl_event done;
  cl_int status = CL_COMPLETE;
  cl_int err = clEnqueueNDRangeKernel(e->queue, r->kernel, c->dims, c->offset, c->global, c->hasLocal ? c->local : NULL,
                                      0, NULL, &done);
  if (err != CL_SUCCESS) return apiError(r, "clEnqueueNDRangeKernel", err);
  clWaitForEvents(1, &done);
  err = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  clReleaseEvent(done);
  if (err != CL_SUCCESS) return apiError(r, "clGetEventInfo", err);
  if (status != CL_COMPLETE) return apiError(r, "the NDRange command", status);
  return CL_SUCCESS;
}

static size_t elementSize(const char* type) {
  if (strstr(type, "char")) return 1;
  if (strstr(type, "short") || strcmp(type, "half") == 0) return 2;
  if (strstr(type, "long") || strcmp(type, "double") == 0) return 8;
  return 4;
}

/* The element at `index` as a hexadecimal number (little-endian bytes). */
static void elementHex(char* out, size_t outSize, const unsigned char* data, size_t index, size_t elemSize) {
  unsigned long long bits = 0;
  for (size_t b = elemSize; b-- > 0;) bits = bits << 8 | data[index * elemSize + b];
  snprintf(out, outSize, "0x%0*llx", (int)(2 * elemSize), bits);
}

/* 1 when `actual` equals the expected bytes of `a`, else 0 with the first difference in r->message. */
static int matches(struct Env* e, struct Run* r, int argIndex, const struct Arg* a, const unsigned char* actual) {
  size_t size = 0;
  unsigned char* expected = readFile(e->bundle, a->expected, &size);
  if (!expected || size != a->size) {
    free(expected);
    snprintf(r->message, sizeof r->message, "cannot read %zu bytes from %s", a->size, a->expected);
    return -1;
  }
  const size_t elemSize = elementSize(a->type);
  size_t first = 0, differing = 0;
  for (size_t i = 0; i < a->count; ++i)
    if (memcmp(expected + i * elemSize, actual + i * elemSize, elemSize) != 0 && differing++ == 0) first = i;
  if (differing > 0) {
    char want[24], got[24];
    elementHex(want, sizeof want, expected, first, elemSize);
    elementHex(got, sizeof got, actual, first, elemSize);
    snprintf(r->message, sizeof r->message,
             "arg%d: %zu of %zu %s elements differ, first [%zu] (byte %zu): expected %s, got %s", argIndex, differing,
             a->count, a->type, first, first * elemSize, want, got);
  }
  free(expected);
  return differing == 0;
}

/* Reads every output buffer and compares it; OUT_OK, OUT_MISMATCH or OUT_ERROR. */
static enum Outcome checkOutputs(struct Env* e, struct Run* r, const struct Case* c) {
  for (int i = 0; i < c->nargs; ++i) {
    const struct Arg* a = &c->args[i];
    if (a->kind != ARG_BUFFER || !a->expected[0]) continue;
    unsigned char* actual = malloc(a->size ? a->size : 1);
    cl_int err = clEnqueueReadBuffer(e->queue, r->mems[i], CL_TRUE, 0, a->size, actual, 0, NULL, NULL);
    int same = err == CL_SUCCESS ? matches(e, r, i, a, actual) : -1;
    free(actual);
    if (err != CL_SUCCESS) apiError(r, "clEnqueueReadBuffer", err);
    if (same != 1) return same == 0 ? OUT_MISMATCH : OUT_ERROR;
  }
  return OUT_OK;
}

static void releaseRun(struct Run* r) {
  for (int i = 0; i < MAX_ARGS; ++i)
    if (r->mems[i]) clReleaseMemObject(r->mems[i]);
  if (r->kernel) clReleaseKernel(r->kernel);
  if (r->ownsProgram) clReleaseProgram(r->program);
}

static enum Outcome runCase(struct Env* e, const struct Case* c, enum Origin origin, char* message,
                            size_t messageSize) {
  struct Run r;
  memset(&r, 0, sizeof r);
  enum Outcome outcome = OUT_ERROR;
  cl_int err;
  if (getProgram(e, &r, c, origin) == CL_SUCCESS) {
    r.kernel = clCreateKernel(r.program, c->kernel, &err);
    if (err != CL_SUCCESS)
      apiError(&r, "clCreateKernel", err);
    else if (setArgs(e, &r, c) == CL_SUCCESS && enqueue(e, &r, c) == CL_SUCCESS)
      outcome = checkOutputs(e, &r, c);
  }
  releaseRun(&r);
  copyString(message, messageSize, r.message);
  return outcome;
}

/* ---- the corpus -------------------------------------------------------------------------- */

static double now(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void runOrigin(struct Env* e, const struct Case* c, enum Origin origin, struct Tally* t) {
  const char* reason = skipReason(e, c, origin);
  if (reason) {
    printf("%-28s %-6s skipped: %s\n", c->name, originName[origin], reason);
    ++t->skipped[origin];
    return;
  }
  char message[2048] = {0};
  const double start = now();
  const enum Outcome outcome = runCase(e, c, origin, message, sizeof message);
  const double ms = (now() - start) * 1e3;
  ++t->ran[origin];
  switch (outcome) {
    case OUT_OK:
      ++t->ok[origin];
      printf("%-28s %-6s ok (%.0f ms)\n", c->name, originName[origin], ms);
      break;
    case OUT_MISMATCH:
      ++t->mismatched[origin];
      printf("%-28s %-6s FAIL: %s\n", c->name, originName[origin], message);
      break;
    default:
      ++t->errors[origin];
      printf("%-28s %-6s ERROR: %s\n", c->name, originName[origin], message);
      break;
  }
  fflush(stdout);
}

static int runBundle(struct Env* e, struct Tally* t) {
  char path[PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/manifest.txt", e->bundle);
  FILE* manifest = fopen(path, "r");
  if (!manifest) {
    fprintf(stderr, "cannot open %s\n", path);
    return 0;
  }
  static struct Case c; /* large: kept off the stack */
  int lineNo = 0, got, cases = 0;
  while ((got = readCase(manifest, &c, &lineNo)) == 1) {
    ++cases;
    runOrigin(e, &c, IL, t);
    runOrigin(e, &c, SOURCE, t);
    freeCase(&c);
  }
  fclose(manifest);
  printf("%d cases in the bundle\n", cases);
  return got == 0 && cases > 0;
}

int main(int argc, char** argv) {
  static struct Env e; /* large: kept off the stack */
  struct Tally t;
  memset(&t, 0, sizeof t);
  if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--smoke") != 0)) {
    fprintf(stderr, "usage: %s BUNDLE_DIR [--smoke]\n", argv[0]);
    return 2;
  }
  e.bundle = argv[1];
  e.smoke = argc == 3;
  const double start = now();
  int ok = setUpDevice(&e) && runBundle(&e, &t);
  tearDownDevice(&e);
  int bad = 0;
  for (int o = IL; o <= SOURCE; ++o) {
    printf("%-6s: %d run, %d ok, %d mismatched, %d API errors, %d skipped\n", originName[o], t.ran[o], t.ok[o],
           t.mismatched[o], t.errors[o], t.skipped[o]);
    bad += t.errors[o] + (e.smoke ? 0 : t.mismatched[o]);
  }
  printf("%.1f s%s\n", now() - start, e.smoke ? " (smoke: mismatches do not fail)" : "");
  return ok && bad == 0 && t.ran[IL] + t.ran[SOURCE] > 0 ? 0 : 1;
}
