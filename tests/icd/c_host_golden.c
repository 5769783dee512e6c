/* A plain C11 OpenCL host program that runs the golden corpus (golden/README.md) through
 * whatever platform the ICD loader offers first: every case from SPIR-V (clCreateProgramWithIL)
 * and from OpenCL C source (clCreateProgramWithSource), its output buffers compared byte for
 * byte with the expected bytes of the golden host references. Image arguments are created with
 * clCreateImage (from a buffer for 1D image buffers, level by level with clEnqueueWriteImage when
 * mipmapped), sampler arguments with clCreateSamplerWithProperties, and output images are read
 * back with clEnqueueReadImage. Only standard OpenCL 3.0 API calls (and cl_khr_mipmap_image's
 * sampler properties), so the same program runs against clref and against other implementations.
 *
 * The cases come from a bundle written by golden_bundle (tests/icd/golden_bundle.cpp, which
 * describes manifest.txt), so this program needs no JSON parser.
 *
 * usage: c_host_golden BUNDLE_DIR [--smoke] [--out DIR] [--only CASE,CASE...]
 *   exit status 0 when every run matched; 1 on an API error or, without --smoke, a mismatch.
 *   --smoke: mismatches are counted and printed but do not fail (for devices that are not
 *   correctly rounded); API errors still do.
 *   --out DIR: also writes every buffer and output image as DIR/spirv/<case>.arg<N>.bin and
 *   DIR/source/<case>.arg<N>.bin (images packed level by level),
 *   the names `clref run --out` uses, so that `clref check CASE --observed DIR/source` judges the device's outputs.
 *   --only CASE,CASE...: run only the cases with these names (the others are neither run nor counted).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ARGS = 32, MAX_SPECS = 8, MAX_REQUIRES = 16, MAX_PROGRAMS = 256, PATH_LEN = 1024, LINE_LEN = 8192 };

/* ---- the bundle ------------------------------------------------------------------------- */

enum ArgKind { ARG_BUFFER, ARG_LOCAL, ARG_VALUE, ARG_NULL, ARG_IMAGE, ARG_SAMPLER };

struct Arg {
  enum ArgKind kind;
  char type[16];           /* buffer element type, e.g. "float"; "image" for images */
  size_t count;            /* buffer or image elements */
  size_t size;             /* buffer, local or value bytes; image contents bytes */
  size_t elemSize;         /* bytes of one buffer or image element */
  /* image: the descriptor (sizes the type does not use are 1) */
  cl_mem_object_type imageType;
  cl_image_format format;
  size_t width, height, depth, arraySize, rowPitch, slicePitch;
  cl_uint levels;
  /* sampler */
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter, mipFilter;
  cl_uint lodMinBits, lodMaxBits;
  int mipProperties; /* the mip properties are given (not the defaults) */
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
  char requires[2][MAX_REQUIRES][64]; /* per origin (IL, SOURCE): extensions and OpenCL C features it needs */
  int nrequires[2];
  char kernel[256];
  cl_uint dims;
  size_t global[3], local[3], offset[3];
  int hasLocal;
  struct Arg args[MAX_ARGS];
  int nargs;
  struct Spec specs[MAX_SPECS];
  int nspecs;
  cl_uint deviceQueueSize; /* > 0: the kernel runs with a default device queue of this many bytes */
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

static size_t elementSize(const char* type);

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
    a->elemSize = elementSize(type);
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
  if (strcmp(kind, "image") == 0) {
    unsigned long long n[12];
    for (int i = 0; i < 12; ++i) {
      const char* t = strtok(NULL, " ");
      if (!t) return 0;
      n[i] = strtoull(t, NULL, 0);
    }
    const char *init = strtok(NULL, " "), *expected = strtok(NULL, " ");
    if (!init || n[10] == 0 || n[11] == 0) return 0;
    a->kind = ARG_IMAGE;
    a->imageType = (cl_mem_object_type)n[0];
    a->format.image_channel_order = (cl_channel_order)n[1];
    a->format.image_channel_data_type = (cl_channel_type)n[2];
    a->width = n[3], a->height = n[4], a->depth = n[5], a->arraySize = n[6];
    a->rowPitch = n[7], a->slicePitch = n[8];
    a->levels = (cl_uint)n[9];
    a->elemSize = n[10];
    a->size = (size_t)n[11];
    a->count = a->size / a->elemSize;
    return a->levels >= 1 && copyString(a->type, sizeof a->type, "image") && copyString(a->init, sizeof a->init, init) &&
           copyString(a->expected, sizeof a->expected, expected);
  }
  if (strcmp(kind, "sampler") == 0) {
    const char *norm = strtok(NULL, " "), *addr = strtok(NULL, " "), *filter = strtok(NULL, " ");
    const char *mip = strtok(NULL, " "), *lodMin = strtok(NULL, " "), *lodMax = strtok(NULL, " ");
    if (!norm || !addr || !filter || (mip && (!lodMin || !lodMax))) return 0;
    a->kind = ARG_SAMPLER;
    a->normalized = strcmp(norm, "1") == 0 ? CL_TRUE : CL_FALSE;
    a->addressing = (cl_addressing_mode)strtoul(addr, NULL, 0);
    a->filter = (cl_filter_mode)strtoul(filter, NULL, 0);
    a->mipProperties = mip != NULL;
    if (mip) {
      a->mipFilter = (cl_filter_mode)strtoul(mip, NULL, 0);
      a->lodMinBits = (cl_uint)strtoul(lodMin, NULL, 0);
      a->lodMaxBits = (cl_uint)strtoul(lodMax, NULL, 0);
    }
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
  if (strcmp(line, "device_queue") == 0) return (c->deviceQueueSize = (cl_uint)strtoul(rest, NULL, 10)) > 0;
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

enum Origin { IL, SOURCE };
static const char* const originName[] = {"SPIR-V", "source"};

struct Env {
  const char* bundle;
  int smoke;
  const char* outDir; /* --out, or NULL */
  const char* only;   /* --only: comma-separated case names, or NULL for every case */
  enum Origin origin; /* of the run in progress */
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  int il, compiler, nonUniform, images;
  char extensions[8192];
  char features[8192]; /* CL_DEVICE_OPENCL_C_FEATURES, the names separated by spaces */
  struct CachedProgram programs[MAX_PROGRAMS];
  int nprograms;
};


enum Outcome { OUT_OK, OUT_MISMATCH, OUT_ERROR, OUT_SKIPPED };

struct Tally {
  int ran[2], ok[2], mismatched[2], errors[2], skipped[2];
};

/* The names of CL_DEVICE_OPENCL_C_FEATURES (OpenCL 3.0 API §4.2 [[platform-querying-devices]]) into e->features;
 * empty for a device that does not answer the query (before OpenCL 3.0). */
static void readFeatures(struct Env* e) {
  size_t size = 0;
  e->features[0] = 0;
  if (clGetDeviceInfo(e->device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) != CL_SUCCESS || size == 0) return;
  cl_name_version* features = malloc(size);
  if (features && clGetDeviceInfo(e->device, CL_DEVICE_OPENCL_C_FEATURES, size, features, NULL) == CL_SUCCESS)
    for (size_t i = 0; i < size / sizeof *features; ++i) {
      const size_t used = strlen(e->features);
      snprintf(e->features + used, sizeof e->features - used, "%s%.*s", used ? " " : "", CL_NAME_VERSION_MAX_NAME_SIZE,
               features[i].name);
    }
  free(features);
}

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
  readFeatures(e);
  cl_bool nonUniform = CL_FALSE;
  clGetDeviceInfo(e->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform, NULL);
  e->nonUniform = nonUniform == CL_TRUE;
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(e->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  e->images = images == CL_TRUE;
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
  cl_mem backing[MAX_ARGS]; /* the buffer of a 1D image buffer */
  cl_sampler samplers[MAX_ARGS];
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

/* Whether the device lists the image's format for its type with CL_MEM_READ_WRITE (OpenCL 3.0 API
 * §5.3.2 [[_querying_list_of_supported_image_formats]]). */
static int formatSupported(const struct Env* e, const struct Arg* a) {
  cl_uint n = 0;
  if (clGetSupportedImageFormats(e->context, CL_MEM_READ_WRITE, a->imageType, 0, NULL, &n) != CL_SUCCESS || n == 0)
    return 0;
  cl_image_format* formats = malloc(n * sizeof *formats);
  int found = 0;
  if (formats && clGetSupportedImageFormats(e->context, CL_MEM_READ_WRITE, a->imageType, n, formats, NULL) == CL_SUCCESS)
    for (cl_uint i = 0; i < n && !found; ++i)
      found = formats[i].image_channel_order == a->format.image_channel_order &&
              formats[i].image_channel_data_type == a->format.image_channel_data_type;
  free(formats);
  return found;
}

/* 1 when `list`, names separated by spaces, holds `name` as a whole name. */
static int hasName(const char* list, const char* name) {
  const size_t n = strlen(name);
  for (const char* p = strstr(list, name); n && p; p = strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return 1;
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
  /* An OpenCL C feature (__opencl_c_...) must be among the device's features, anything else among its extensions. */
  for (int i = 0; i < c->nrequires[origin]; ++i)
    if (!hasName(strncmp(c->requires[origin][i], "__opencl_c_", 11) == 0 ? e->features : e->extensions,
                 c->requires[origin][i])) {
      snprintf(reason, sizeof reason, "the device lacks %s", c->requires[origin][i]);
      return reason;
    }
  if (isNonUniform(c) && !e->nonUniform) return "the device does not support non-uniform work-groups";
  for (int i = 0; i < c->nargs; ++i) {
    const struct Arg* a = &c->args[i];
    if ((a->kind == ARG_IMAGE || a->kind == ARG_SAMPLER) && !e->images) return "the device has no image support";
    if (a->kind == ARG_IMAGE && !formatSupported(e, a)) {
      snprintf(reason, sizeof reason, "the device does not offer image format (0x%x, 0x%x) for object type 0x%x",
               (unsigned)a->format.image_channel_order, (unsigned)a->format.image_channel_data_type,
               (unsigned)a->imageType);
      return reason;
    }
  }
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

/* The region of mip level `level` in elements (cl_khr_mipmap_image: each level halves the width,
 * height and 3D depth, rounded down, at least 1; layers stay) and the origin element that names
 * the level: origin[1] of a 1D image, origin[2] of a 1D image array or a 2D image, origin[3] of a 2D
 * image array or a 3D image, so origin has four elements (OpenCL Extension Specification 3.0.12 §29.2.1
 * "Additions to section 5.3 — Image Objects"). */
static size_t halved(size_t n, cl_uint level) {
  n = level >= 8 * sizeof n ? 0 : n >> level;
  return n ? n : 1;
}
static void levelRegion(const struct Arg* a, cl_uint level, size_t region[3], size_t origin[4]) {
  region[0] = halved(a->width, level), region[1] = 1, region[2] = 1;
  origin[0] = origin[1] = origin[2] = origin[3] = 0;
  switch (a->imageType) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: region[1] = a->arraySize; break;
    case CL_MEM_OBJECT_IMAGE2D: region[1] = halved(a->height, level); break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      region[1] = halved(a->height, level);
      region[2] = a->arraySize;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      region[1] = halved(a->height, level);
      region[2] = halved(a->depth, level);
      break;
    default: break;
  }
  if (a->levels > 1) {
    const int layered = a->imageType == CL_MEM_OBJECT_IMAGE2D_ARRAY || a->imageType == CL_MEM_OBJECT_IMAGE3D;
    origin[a->imageType == CL_MEM_OBJECT_IMAGE1D ? 1 : layered ? 3 : 2] = level;
  }
}

/* The image of `a` with its initial contents: from a buffer (1D image buffers), written level by
 * level (mipmapped images take no host_ptr), or copied from host memory laid out with the case's
 * pitches. */
static cl_int createImage(struct Env* e, struct Run* r, int index, const struct Arg* a) {
  size_t size = 0;
  cl_int err = CL_SUCCESS;
  unsigned char* init = readFile(e->bundle, a->init, &size);
  if (!init || size != a->size) {
    free(init);
    snprintf(r->message, sizeof r->message, "cannot read %zu bytes from %s", a->size, a->init);
    return CL_INVALID_VALUE;
  }
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = a->imageType;
  d.image_width = a->width;
  d.image_height = a->height;
  d.image_depth = a->depth;
  d.image_array_size = a->arraySize;
  d.num_mip_levels = a->levels > 1 ? a->levels : 0;
  const char* what = "clCreateImage";
  if (a->imageType == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    r->backing[index] = clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->size, init, &err);
    d.buffer = r->backing[index];
    if (err == CL_SUCCESS) r->mems[index] = clCreateImage(e->context, CL_MEM_READ_WRITE, &a->format, &d, NULL, &err);
    else what = "clCreateBuffer";
  } else if (a->levels > 1) {
    r->mems[index] = clCreateImage(e->context, CL_MEM_READ_WRITE, &a->format, &d, NULL, &err);
    size_t offset = 0;
    for (cl_uint l = 0; err == CL_SUCCESS && l < a->levels; ++l) {
      size_t region[3], origin[4];
      levelRegion(a, l, region, origin);
      err = clEnqueueWriteImage(e->queue, r->mems[index], CL_TRUE, origin, region, 0, 0, init + offset, 0, NULL, NULL);
      if (err != CL_SUCCESS) what = "clEnqueueWriteImage";
      offset += region[0] * region[1] * region[2] * a->elemSize;
    }
  } else {
    /* The packed rows spread over the case's pitches (0: tightly packed). */
    size_t region[3], origin[4];
    levelRegion(a, 0, region, origin);
    const size_t packedRow = region[0] * a->elemSize;
    const int layered1D = a->imageType == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const size_t row = a->rowPitch ? a->rowPitch : packedRow;
    const size_t rows = layered1D ? 1 : region[1];
    const size_t slice = a->slicePitch ? a->slicePitch : row * rows;
    const size_t slices = layered1D ? region[1] : region[2];
    unsigned char* host = calloc((slice * slices) > 0 ? slice * slices : 1, 1);
    for (size_t z = 0; host && z < slices; ++z)
      for (size_t y = 0; y < rows; ++y)
        memcpy(host + z * slice + y * row, init + (z * rows + y) * packedRow, packedRow);
    d.image_row_pitch = a->rowPitch;
    d.image_slice_pitch = a->slicePitch;
    r->mems[index] = clCreateImage(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &a->format, &d, host, &err);
    free(host);
  }
  free(init);
  return err == CL_SUCCESS ? err : apiError(r, what, err);
}

static cl_int createSampler(struct Env* e, struct Run* r, int index, const struct Arg* a) {
  cl_sampler_properties p[16];
  int n = 0;
  p[n++] = CL_SAMPLER_NORMALIZED_COORDS, p[n++] = a->normalized;
  p[n++] = CL_SAMPLER_ADDRESSING_MODE, p[n++] = a->addressing;
  p[n++] = CL_SAMPLER_FILTER_MODE, p[n++] = a->filter;
  if (a->mipProperties) {
    /* cl_khr_mipmap_image: the lods are cl_float values, passed as their bits. */
    p[n++] = CL_SAMPLER_MIP_FILTER_MODE, p[n++] = a->mipFilter;
    p[n++] = CL_SAMPLER_LOD_MIN, p[n++] = a->lodMinBits;
    p[n++] = CL_SAMPLER_LOD_MAX, p[n++] = a->lodMaxBits;
  }
  p[n] = 0;
  cl_int err;
  r->samplers[index] = clCreateSamplerWithProperties(e->context, p, &err);
  return err == CL_SUCCESS ? err : apiError(r, "clCreateSamplerWithProperties", err);
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
      case ARG_IMAGE:
        if ((err = createImage(e, r, i, a)) != CL_SUCCESS) return err;
        err = clSetKernelArg(r->kernel, (cl_uint)i, sizeof(cl_mem), &r->mems[i]);
        break;
      case ARG_SAMPLER:
        if ((err = createSampler(e, r, i, a)) != CL_SUCCESS) return err;
        err = clSetKernelArg(r->kernel, (cl_uint)i, sizeof(cl_sampler), &r->samplers[i]);
        break;
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
  cl_command_queue deviceQueue = NULL; /* the default device queue get_default_queue returns */
  cl_int err = CL_SUCCESS;
  if (c->deviceQueueSize) {
    const cl_queue_properties properties[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT,
        CL_QUEUE_SIZE, c->deviceQueueSize, 0};
    deviceQueue = clCreateCommandQueueWithProperties(e->context, e->device, properties, &err);
    if (err != CL_SUCCESS) return apiError(r, "clCreateCommandQueueWithProperties (the default device queue)", err);
  }
  err = clEnqueueNDRangeKernel(e->queue, r->kernel, c->dims, c->offset, c->global, c->hasLocal ? c->local : NULL, 0,
                               NULL, &done);
  if (err != CL_SUCCESS) {
    if (deviceQueue) clReleaseCommandQueue(deviceQueue);
    return apiError(r, "clEnqueueNDRangeKernel", err);
  }
  clWaitForEvents(1, &done);
  if (deviceQueue) clReleaseCommandQueue(deviceQueue);
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
  const size_t elemSize = a->elemSize;
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

/* --out: DIR/spirv|source/<case>.arg<i>.bin. */
static void writeOutput(const struct Env* e, const struct Case* c, int i, const unsigned char* bytes, size_t size) {
  char path[PATH_LEN];
  snprintf(path, sizeof path, "%s/%s/%s.arg%d.bin", e->outDir, e->origin == IL ? "spirv" : "source", c->name, i);
  FILE* f = fopen(path, "wb");
  if (!f || fwrite(bytes, 1, size, f) != size) fprintf(stderr, "cannot write %s\n", path);
  if (f) fclose(f);
}

/* The contents of buffer or image argument i into `out` (a->size bytes): images level by level, tightly packed (the
 * bundle's layout). */
static cl_int readArg(struct Env* e, struct Run* r, const struct Arg* a, int i, unsigned char* out) {
  if (a->kind == ARG_BUFFER) return clEnqueueReadBuffer(e->queue, r->mems[i], CL_TRUE, 0, a->size, out, 0, NULL, NULL);
  cl_int err = CL_SUCCESS;
  size_t offset = 0;
  for (cl_uint l = 0; err == CL_SUCCESS && l < a->levels; ++l) {
    size_t region[3], origin[4];
    levelRegion(a, l, region, origin);
    if (offset + region[0] * region[1] * region[2] * a->elemSize > a->size) break;
    err = clEnqueueReadImage(e->queue, r->mems[i], CL_TRUE, origin, region, 0, 0, out + offset, 0, NULL, NULL);
    offset += region[0] * region[1] * region[2] * a->elemSize;
  }
  return err;
}

/* Reads every output buffer and image and compares it; OUT_OK, OUT_MISMATCH or OUT_ERROR. */
static enum Outcome checkOutputs(struct Env* e, struct Run* r, const struct Case* c) {
  for (int i = 0; e->outDir && i < c->nargs; ++i) {
    /* --out: every buffer and every output image, before the comparison stops at the first mismatch. */
    const struct Arg* a = &c->args[i];
    if (!r->mems[i] || !(a->kind == ARG_BUFFER || (a->kind == ARG_IMAGE && a->expected[0]))) continue;
    unsigned char* bytes = malloc(a->size ? a->size : 1);
    if (readArg(e, r, a, i, bytes) == CL_SUCCESS) writeOutput(e, c, i, bytes, a->size);
    free(bytes);
  }
  for (int i = 0; i < c->nargs; ++i) {
    const struct Arg* a = &c->args[i];
    if ((a->kind != ARG_BUFFER && a->kind != ARG_IMAGE) || !a->expected[0]) continue;
    unsigned char* actual = malloc(a->size ? a->size : 1);
    const cl_int err = readArg(e, r, a, i, actual);
    int same = err == CL_SUCCESS ? matches(e, r, i, a, actual) : -1;
    free(actual);
    if (err != CL_SUCCESS) apiError(r, a->kind == ARG_BUFFER ? "clEnqueueReadBuffer" : "clEnqueueReadImage", err);
    if (same != 1) return same == 0 ? OUT_MISMATCH : OUT_ERROR;
  }
  return OUT_OK;
}

static void releaseRun(struct Run* r) {
  for (int i = 0; i < MAX_ARGS; ++i) {
    if (r->mems[i]) clReleaseMemObject(r->mems[i]);
    if (r->backing[i]) clReleaseMemObject(r->backing[i]);
    if (r->samplers[i]) clReleaseSampler(r->samplers[i]);
  }
  if (r->kernel) clReleaseKernel(r->kernel);
  if (r->ownsProgram) clReleaseProgram(r->program);
}

static enum Outcome runCase(struct Env* e, const struct Case* c, enum Origin origin, char* message,
                            size_t messageSize) {
  struct Run r;
  memset(&r, 0, sizeof r);
  enum Outcome outcome = OUT_ERROR;
  cl_int err;
  e->origin = origin;
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

/* 1 when --only names `name` (or there is no --only). */
static int selected(const struct Env* e, const char* name) {
  if (!e->only) return 1;
  const size_t n = strlen(name);
  for (const char* p = e->only; *p;) {
    const char* end = strchr(p, ',');
    const size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    p += len + (end ? 1 : 0);
  }
  return 0;
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
    if (selected(e, c.name)) {
      runOrigin(e, &c, IL, t);
      runOrigin(e, &c, SOURCE, t);
    }
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
  if (argc < 2) {
    fprintf(stderr, "usage: %s BUNDLE_DIR [--smoke] [--out DIR] [--only CASE,CASE...]\n", argv[0]);
    return 2;
  }
  e.bundle = argv[1];
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--smoke") == 0) {
      e.smoke = 1;
    } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      e.outDir = argv[++i];
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      e.only = argv[++i];
    } else {
      fprintf(stderr, "usage: %s BUNDLE_DIR [--smoke] [--out DIR] [--only CASE,CASE...]\n", argv[0]);
      return 2;
    }
  }
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
