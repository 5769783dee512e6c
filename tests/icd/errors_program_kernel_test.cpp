// Error conditions of the OpenCL 3.0 API: program_kernel (see error_table.hpp).
//
// Program objects (OpenCL 3.0 API §5.8 [[_program_objects]]: creation, build, compile, link, specialization constants,
// queries), kernel objects (§5.9 [[_kernel_objects]]: creation, arguments, queries) and kernel execution
// (§5.10 [[_executing_kernels]]
// clEnqueueNDRangeKernel, clEnqueueTask).
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS  // clSetProgramReleaseCallback
#include <cstring>
#include <map>
#include <optional>

#include "error_table.hpp"

namespace clref_test {
namespace {

// OpenCL C for the cases that need source-built kernels: built with the default -cl-std (CL1.2,
// so work-groups must be uniform) and -cl-kernel-arg-info (so argument information exists).
const char* kSource = R"CLC(  // not const: clCreateProgramWithSource takes const char**
kernel void args(global int* g, constant int* c, local int* l, int v) {
  l[get_local_id(0)] = v + c[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  g[get_global_id(0)] = l[0];
}
__attribute__((reqd_work_group_size(2, 1, 1))) kernel void req(global int* g) { g[get_global_id(0)] = 1; }
)CLC";

// The module with `OpDecorate %p MaxByteOffset bytes` added for the first parameter %p of its
// (first) entry point's function (SPIR-V §3.20 [external], Decoration 45), as SPIR-V 1.1 (which it needs).
std::vector<unsigned char> withMaxByteOffset(const std::vector<unsigned char>& spv, uint32_t bytes) {
  constexpr uint32_t kOpEntryPoint = 15, kOpFunction = 54, kOpFunctionParameter = 55, kOpDecorate = 71,
                     kMaxByteOffset = 45;
  std::vector<uint32_t> w(spv.size() / 4);
  std::memcpy(w.data(), spv.data(), w.size() * 4);
  uint32_t entry = 0, param = 0;
  size_t firstDecorate = 0;
  for (size_t i = 5; i < w.size() && (w[i] >> 16); i += w[i] >> 16) {
    const uint32_t op = w[i] & 0xffff;
    if (op == kOpEntryPoint && !entry) entry = w[i + 2];
    if (op == kOpDecorate && !firstDecorate) firstDecorate = i;
    if (op == kOpFunction && w[i + 2] == entry && !param) {
      const size_t next = i + (w[i] >> 16);
      if ((w[next] & 0xffff) == kOpFunctionParameter) param = w[next + 2];
    }
  }
  w[1] = 0x00010100;  // version 1.1
  const uint32_t decorate[4] = {(4u << 16) | kOpDecorate, param, kMaxByteOffset, bytes};
  w.insert(w.begin() + std::ptrdiff_t(firstDecorate), decorate, decorate + 4);
  std::vector<unsigned char> out(w.size() * 4);
  std::memcpy(out.data(), w.data(), out.size());
  return out;
}

// Objects only this table uses, created on first use (from inside a case) and kept.
struct Objects {
  cl_program src = nullptr;     // kSource, built
  cl_kernel args = nullptr;     // args(...) of src: every argument set (l: 16 bytes)
  cl_kernel req = nullptr;      // req(global int*) of src, reqd_work_group_size(2, 1, 1): argument set
  cl_program object = nullptr;  // vadd.O2.spv compiled with clCompileProgram: a compiled object
  cl_program binary = nullptr;  // vadd.O2.spv given to clCreateProgramWithBinary, not built
  cl_program spec = nullptr;    // spec_constants.spv (SpecId 0: uint, SpecId 1: bool), not built
  cl_program linked = nullptr;  // `object` given to clLinkProgram (created by neither source nor IL)
  cl_kernel limited = nullptr;  // vadd with MaxByteOffset 64 on its first argument
  size_t wg = 0;                // CL_KERNEL_WORK_GROUP_SIZE of the fixture's vadd
  cl_ulong localMem = 0;        // CL_DEVICE_LOCAL_MEM_SIZE

  Objects() {
    Fixture& f = fx();
    cl_int e;
    src = clCreateProgramWithSource(f.ctx, 1, &kSource, nullptr, &e);
    clBuildProgram(src, 0, nullptr, "-cl-kernel-arg-info", nullptr, nullptr);
    args = clCreateKernel(src, "args", &e);
    const cl_int v = 1;
    clSetKernelArg(args, 0, sizeof(cl_mem), &f.buf);
    clSetKernelArg(args, 1, sizeof(cl_mem), &f.buf2);
    clSetKernelArg(args, 2, 16, nullptr);
    clSetKernelArg(args, 3, sizeof v, &v);
    req = clCreateKernel(src, "req", &e);
    clSetKernelArg(req, 0, sizeof(cl_mem), &f.buf);

    object = clCreateProgramWithIL(f.ctx, f.vaddSpv.data(), f.vaddSpv.size(), &e);
    clCompileProgram(object, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
    const unsigned char* bin = f.vaddSpv.data();
    const size_t len = f.vaddSpv.size();
    binary = clCreateProgramWithBinary(f.ctx, 1, &f.device, &len, &bin, nullptr, &e);
    const auto specSpv = Fixture::read(CLREF_GOLDEN_DIR "/spv/spec_constants.spv");
    spec = clCreateProgramWithIL(f.ctx, specSpv.data(), specSpv.size(), &e);
    linked = clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &object, nullptr, nullptr, &e);

    const auto limitedSpv = withMaxByteOffset(f.vaddSpv, 64);
    cl_program lp = clCreateProgramWithIL(f.ctx, limitedSpv.data(), limitedSpv.size(), &e);
    clBuildProgram(lp, 0, nullptr, nullptr, nullptr, nullptr);
    limited = clCreateKernel(lp, "vadd", &e);
    clReleaseProgram(lp);  // the kernel keeps it alive

    clGetKernelWorkGroupInfo(f.vadd, f.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr);
    clGetDeviceInfo(f.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localMem, &localMem, nullptr);
  }
};

Objects& objs() {
  static Objects o;
  return o;
}

// A program from vadd.O2.spv, not built, for cases that must not touch the fixture's.
cl_program freshIL() { return clCreateProgramWithIL(fx().ctx, fx().vaddSpv.data(), fx().vaddSpv.size(), nullptr); }

// An OpenCL C program that is not built.
cl_program freshSource(cl_context ctx, const char* text) {
  return clCreateProgramWithSource(ctx, 1, &text, nullptr, nullptr);
}

// Runs f with the OpenCL C compiler out of reach: CLREF_CLANG and CLREF_LLVM_SPIRV name files
// that do not exist (they override where the build found the tools) and PATH names an empty
// directory (where clang-15 and llvm-spirv-15 are looked up otherwise) while f runs. clref
// decides at the time of the call, from the environment as it is then (compiler/opencl_c.cpp).
cl_int withoutCompiler(const std::function<cl_int()>& f) {
  std::map<std::string, std::optional<std::string>> saved;
  for (const char* name : {"PATH", "CLREF_CLANG", "CLREF_LLVM_SPIRV"})
    saved[name] = std::getenv(name) ? std::optional<std::string>(std::getenv(name)) : std::nullopt;
  setenv("PATH", "/nonexistent-clref-test-dir", 1);
  setenv("CLREF_CLANG", "/nonexistent-clref-test-dir/clang-15", 1);
  setenv("CLREF_LLVM_SPIRV", "/nonexistent-clref-test-dir/llvm-spirv-15", 1);
  cl_bool available = CL_TRUE;
  clGetDeviceInfo(fx().device, CL_DEVICE_COMPILER_AVAILABLE, sizeof available, &available, nullptr);
  const cl_int e = available == CL_FALSE ? f() : CL_SUCCESS;  // the query must agree first
  for (const auto& [name, value] : saved)
    if (value)
      setenv(name.c_str(), value->c_str(), 1);
    else
      unsetenv(name.c_str());
  return e;
}

// Runs f(p) and releases p.
cl_int withProgram(cl_program p, const std::function<cl_int(cl_program)>& f) {
  const cl_int e = f(p);
  clReleaseProgram(p);
  return e;
}

// Runs use(k) on a new kernel "args" of objs().src with every argument set except that its
// local argument gets `localBytes` bytes, and releases it.
cl_int withArgsKernel(size_t localBytes, const std::function<cl_int(cl_kernel)>& use) {
  Fixture& f = fx();
  cl_kernel k = clCreateKernel(objs().src, "args", nullptr);
  const cl_int v = 1;
  clSetKernelArg(k, 0, sizeof(cl_mem), &f.buf);
  clSetKernelArg(k, 1, sizeof(cl_mem), &f.buf2);
  clSetKernelArg(k, 2, localBytes, nullptr);
  clSetKernelArg(k, 3, sizeof v, &v);
  const cl_int e = use(k);
  clReleaseKernel(k);
  return e;
}

// Runs f(ev) with a complete event of the fixture's context (a marker on q) and releases it.
cl_int withEvent(const std::function<cl_int(cl_event)>& f) {
  cl_event ev = nullptr;
  clEnqueueMarkerWithWaitList(fx().q, 0, nullptr, &ev);
  const cl_int e = f(ev);
  clReleaseEvent(ev);
  return e;
}

void CL_CALLBACK onRelease(cl_program, void*) {}
void CL_CALLBACK onBuild(cl_program, void*) {}

std::vector<ErrorCase> programCases() {
  Fixture& f = fx();
  static int userData;
  return {
      // ---- OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithSource ----
      {"clCreateProgramWithSource:CL_INVALID_CONTEXT:1",
       [] { return err([](cl_int* e) { clCreateProgramWithSource(kBadContext, 1, &kSource, nullptr, e); }); }},
      {"clCreateProgramWithSource:CL_INVALID_VALUE:1",  // count is zero
       [&] { return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 0, &kSource, nullptr, e); }); }},
      {"clCreateProgramWithSource:CL_INVALID_VALUE:1",  // strings is NULL
       [&] { return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 1, nullptr, nullptr, e); }); }},
      {"clCreateProgramWithSource:CL_INVALID_VALUE:1",
       [&] {  // an entry in strings is NULL
         const char* s[2] = {kSource, nullptr};
         return err([&](cl_int* e) { clCreateProgramWithSource(f.ctx, 2, s, nullptr, e); });
       }},

      // ---- OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithIL ----
      {"clCreateProgramWithIL:CL_INVALID_CONTEXT:1",
       [&] {
         return err([&](cl_int* e) { clCreateProgramWithIL(kBadContext, f.vaddSpv.data(), f.vaddSpv.size(), e); });
       }},
      {"clCreateProgramWithIL:CL_INVALID_VALUE:1",  // il is NULL
       [&] { return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, nullptr, f.vaddSpv.size(), e); }); }},
      {"clCreateProgramWithIL:CL_INVALID_VALUE:1",  // length is zero
       [&] { return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, f.vaddSpv.data(), 0, e); }); }},
      {"clCreateProgramWithIL:CL_INVALID_VALUE:2",
       [&] {  // not SPIR-V at all
         static const char junk[64] = "this is not SPIR-V at all, not at all, really not";
         return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, junk, sizeof junk, e); });
       }},
      {"clCreateProgramWithIL:CL_INVALID_VALUE:2",
       [&] {  // a SPIR-V header, then the first instruction cut off
         return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, f.vaddSpv.data(), 24, e); });
       }},
      {"clCreateProgramWithIL:CL_INVALID_VALUE:2",
       [&] {  // a Vulkan compute shader module: Shader, Logical GLSL450, GLCompute "main" with LocalSize 1 1 1
         static const uint32_t shader[] = {0x07230203, 0x00010000, 0, 5, 0,
                                           (2 << 16) | 17, 1,                                  // OpCapability Shader
                                           (3 << 16) | 14, 0, 1,                               // OpMemoryModel
                                           (5 << 16) | 15, 5, 1, 0x6e69616d, 0,                // OpEntryPoint
                                           (6 << 16) | 16, 1, 17, 1, 1, 1,                     // OpExecutionMode
                                           (2 << 16) | 19, 2,                                  // OpTypeVoid
                                           (3 << 16) | 33, 3, 2,                               // OpTypeFunction
                                           (5 << 16) | 54, 2, 1, 0, 3,                         // OpFunction
                                           (2 << 16) | 248, 4,                                 // OpLabel
                                           (1 << 16) | 253,                                    // OpReturn
                                           (1 << 16) | 56};                                    // OpFunctionEnd
         return err([&](cl_int* e) { clCreateProgramWithIL(f.ctx, shader, sizeof shader, e); });
       }},

      // ---- OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithBinary ----
      {"clCreateProgramWithBinary:CL_INVALID_CONTEXT:1",
       [&] {
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(kBadContext, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:1",
       [&] {  // device_list is NULL
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, nullptr, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:1",
       [&] {  // num_devices is zero
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 0, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_DEVICE:1",
       [&] {
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &kBadDevice, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_DEVICE:1",  // the root device is not a device of subCtx
       [&] {
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.subCtx, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:2",
       [&] {  // lengths is NULL
         const unsigned char* b = f.vaddSpv.data();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, nullptr, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:2",
       [&] {  // binaries is NULL
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, nullptr, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:2",
       [&] {  // lengths[0] is zero
         const unsigned char* b = f.vaddSpv.data();
         const size_t l = 0;
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_VALUE:2",
       [&] {  // binaries[0] is NULL
         const unsigned char* b = nullptr;
         const size_t l = f.vaddSpv.size();
         return err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, &b, nullptr, e); });
       }},
      {"clCreateProgramWithBinary:CL_INVALID_BINARY:1",
       [&] {
         static const unsigned char junk[64] = {1, 2, 3};
         const unsigned char* b = junk;
         const size_t l = sizeof junk;
         cl_int status = 12345;
         const cl_int e = err([&](cl_int* e) { clCreateProgramWithBinary(f.ctx, 1, &f.device, &l, &b, &status, e); });
         return status == CL_INVALID_BINARY ? e : status;  // binary_status reports the device's binary too
       }},

      // ---- OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithBuiltInKernels (the device has no
      // built-in kernels) ----
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_CONTEXT:1",
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(kBadContext, 1, &f.device, "", e); }); }},
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_VALUE:1",  // device_list is NULL
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 1, nullptr, "", e); }); }},
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_VALUE:1",  // num_devices is zero
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 0, &f.device, "", e); }); }},
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_VALUE:2",  // kernel_names is NULL
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 1, &f.device, nullptr, e); }); }},
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_VALUE:2",  // a name no device supports
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 1, &f.device, "nope", e); }); }},
      {"clCreateProgramWithBuiltInKernels:CL_INVALID_DEVICE:1",  // "" names no unsupported kernel
       [&] { return err([&](cl_int* e) { clCreateProgramWithBuiltInKernels(f.ctx, 1, &kBadDevice, "", e); }); }},

      // ---- OpenCL 3.0 API §5.8.2 [[_retaining_and_releasing_program_objects]] clRetainProgram, clReleaseProgram ----
      {"clRetainProgram:CL_INVALID_PROGRAM:1", [] { return clRetainProgram(kBadProgram); }},
      {"clRetainProgram:CL_INVALID_PROGRAM:1",
       [&] { return clRetainProgram(reinterpret_cast<cl_program>(f.vadd)); }},  // a kernel
      {"clReleaseProgram:CL_INVALID_PROGRAM:1", [] { return clReleaseProgram(kBadProgram); }},
      {"clReleaseProgram:CL_INVALID_PROGRAM:1",
       [&] { return clReleaseProgram(reinterpret_cast<cl_program>(f.buf)); }},  // a buffer

      // ---- OpenCL 3.0 API §5.8.2 [[_retaining_and_releasing_program_objects]] clSetProgramReleaseCallback (no
      // program-scope destructors on the device) ----
      {"clSetProgramReleaseCallback:CL_INVALID_PROGRAM:1",
       [] { return clSetProgramReleaseCallback(kBadProgram, onRelease, nullptr); }},
      {"clSetProgramReleaseCallback:CL_INVALID_OPERATION:1",
       [&] { return clSetProgramReleaseCallback(f.il, onRelease, nullptr); }},
      // Both CL_INVALID_VALUE and the unconditional CL_INVALID_OPERATION apply; clref reports the
      // invalid argument first.
      {"clSetProgramReleaseCallback:CL_INVALID_VALUE:1",
       [&] { return clSetProgramReleaseCallback(f.il, nullptr, nullptr); }},

      // ---- OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]] clSetProgramSpecializationConstant ----
      {"clSetProgramSpecializationConstant:CL_INVALID_PROGRAM:1",
       [] {
         cl_uint v = 0;
         return clSetProgramSpecializationConstant(kBadProgram, 0, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_PROGRAM:1",
       [] {  // created from source
         cl_uint v = 0;
         return clSetProgramSpecializationConstant(objs().src, 0, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_PROGRAM:1",
       [] {  // created from a binary
         cl_uint v = 0;
         return clSetProgramSpecializationConstant(objs().binary, 0, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_COMPILER_NOT_AVAILABLE:1",
       [] {
         cl_uint v = 0;
         return withoutCompiler([&] { return clSetProgramSpecializationConstant(objs().spec, 0, sizeof v, &v); });
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_SPEC_ID:1",
       [] {
         cl_uint v = 0;
         return clSetProgramSpecializationConstant(objs().spec, 77, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_VALUE:1",
       [] {  // SpecId 0 is a 4-byte uint
         cl_ulong v = 0;
         return clSetProgramSpecializationConstant(objs().spec, 0, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_VALUE:1",
       [] {  // SpecId 1 is a bool (1 byte)
         cl_uint v = 0;
         return clSetProgramSpecializationConstant(objs().spec, 1, sizeof v, &v);
       }},
      {"clSetProgramSpecializationConstant:CL_INVALID_VALUE:1",  // spec_value is NULL
       [] { return clSetProgramSpecializationConstant(objs().spec, 0, sizeof(cl_uint), nullptr); }},

      // ---- OpenCL 3.0 API §5.8.4 [[_building_program_executables]] clBuildProgram ----
      {"clBuildProgram:CL_INVALID_PROGRAM:1",
       [] { return clBuildProgram(kBadProgram, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clBuildProgram:CL_INVALID_VALUE:1",  // device_list NULL, num_devices > 0
       [] {
         return withProgram(freshIL(),
                            [](cl_program p) { return clBuildProgram(p, 1, nullptr, nullptr, nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_INVALID_VALUE:1",  // device_list not NULL, num_devices 0
       [&] {
         return withProgram(freshIL(),
                            [&](cl_program p) { return clBuildProgram(p, 0, &f.device, nullptr, nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_INVALID_VALUE:2",
       [] {
         return withProgram(freshIL(),
                            [](cl_program p) { return clBuildProgram(p, 0, nullptr, nullptr, nullptr, &userData); });
       }},
      {"clBuildProgram:CL_INVALID_DEVICE:1",
       [] {
         return withProgram(freshIL(),
                            [](cl_program p) { return clBuildProgram(p, 1, &kBadDevice, nullptr, nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_INVALID_DEVICE:1",  // the root device, a valid device that is not one of the program's
       [&] {
         cl_program sp = clCreateProgramWithIL(f.subCtx, f.vaddSpv.data(), f.vaddSpv.size(), nullptr);
         return withProgram(sp, [&](cl_program p) { return clBuildProgram(p, 1, &f.device, nullptr, nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_INVALID_BUILD_OPTIONS:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return clBuildProgram(p, 0, nullptr, "-no-such-option", onBuild, nullptr);
         });
       }},
      {"clBuildProgram:CL_INVALID_BUILD_OPTIONS:1",
       [] {  // -D without its macro
         return withProgram(freshIL(),
                            [](cl_program p) { return clBuildProgram(p, 0, nullptr, "-DX=1 -D", nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_COMPILER_NOT_AVAILABLE:1",
       [&] {
         return withProgram(freshSource(f.ctx, kSource), [](cl_program p) {
           return withoutCompiler([&] { return clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr); });
         });
       }},
      {"clBuildProgram:CL_COMPILER_NOT_AVAILABLE:1",  // IL programs too: the spec ties them to the query
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return withoutCompiler([&] { return clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr); });
         });
       }},
      {"clBuildProgram:CL_BUILD_PROGRAM_FAILURE:1",
       [&] {
         return withProgram(freshSource(f.ctx, "kernel void k(global int* p) { p[0] = undeclared; }\n"),
                            [](cl_program p) { return clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr); });
       }},
      {"clBuildProgram:CL_INVALID_OPERATION:2",  // the fixture's built vadd program has the kernel vadd
       [&] { return clBuildProgram(f.il, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clBuildProgram:CL_INVALID_OPERATION:3",  // created by clLinkProgram: neither source, IL nor binary
       [] { return clBuildProgram(objs().linked, 0, nullptr, nullptr, nullptr, nullptr); }},

      // ---- OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram ----
      {"clCompileProgram:CL_INVALID_PROGRAM:1",
       [] { return clCompileProgram(kBadProgram, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram:CL_INVALID_CONTEXT:1",
       [&] {
         cl_program header = freshSource(f.ctx2, "#define H 1\n");
         const char* name = "h.h";
         const cl_int e = withProgram(
             freshSource(f.ctx, "#include \"h.h\"\nkernel void k(global int* p) { p[0] = H; }\n"), [&](cl_program p) {
               return clCompileProgram(p, 0, nullptr, nullptr, 1, &header, &name, nullptr, nullptr);
             });
         clReleaseProgram(header);
         return e;
       }},
      {"clCompileProgram:CL_INVALID_VALUE:1",  // device_list NULL, num_devices > 0
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return clCompileProgram(p, 1, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:1",
       [&] {  // device_list not NULL, num_devices 0
         return withProgram(freshIL(), [&](cl_program p) {
           return clCompileProgram(p, 0, &f.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:2",
       [] {  // num_input_headers 0, header_include_names not NULL
         const char* names[1] = {"h.h"};
         return withProgram(freshIL(), [&](cl_program p) {
           return clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, names, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:2",
       [&] {  // num_input_headers 0, input_headers not NULL
         cl_program headers[1] = {f.unbuilt};
         return withProgram(freshIL(), [&](cl_program p) {
           return clCompileProgram(p, 0, nullptr, nullptr, 0, headers, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:2",
       [&] {  // num_input_headers 1, header_include_names NULL
         cl_program headers[1] = {f.unbuilt};
         return withProgram(freshIL(), [&](cl_program p) {
           return clCompileProgram(p, 0, nullptr, nullptr, 1, headers, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:2",
       [] {  // num_input_headers 1, input_headers NULL
         const char* names[1] = {"h.h"};
         return withProgram(freshIL(), [&](cl_program p) {
           return clCompileProgram(p, 0, nullptr, nullptr, 1, nullptr, names, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_VALUE:3",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, &userData);
         });
       }},
      {"clCompileProgram:CL_INVALID_DEVICE:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return clCompileProgram(p, 1, &kBadDevice, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_COMPILER_OPTIONS:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           return clCompileProgram(p, 0, nullptr, "-bogus", 0, nullptr, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_INVALID_COMPILER_OPTIONS:1",
       [&] {  // -I without its directory
         return withProgram(freshSource(f.ctx, kSource), [](cl_program p) {
           return clCompileProgram(p, 0, nullptr, "-I", 0, nullptr, nullptr, nullptr, nullptr);
         });
       }},
      {"clCompileProgram:CL_COMPILER_NOT_AVAILABLE:1",
       [&] {
         return withProgram(freshSource(f.ctx, kSource), [](cl_program p) {
           return withoutCompiler(
               [&] { return clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); });
         });
       }},
      {"clCompileProgram:CL_COMPILE_PROGRAM_FAILURE:1",
       [&] {
         return withProgram(freshSource(f.ctx, "kernel void k(global int* p) { p[0] = undeclared; }\n"),
                            [](cl_program p) {
                              return clCompileProgram(p, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
                            });
       }},
      {"clCompileProgram:CL_INVALID_OPERATION:2",  // the fixture's built vadd program has the kernel vadd
       [&] { return clCompileProgram(f.il, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram:CL_INVALID_OPERATION:3",  // created with clCreateProgramWithBinary
       [] { return clCompileProgram(objs().binary, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram:CL_INVALID_OPERATION:3",  // created by clLinkProgram: neither IL nor source
       [] { return clCompileProgram(objs().linked, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr); }},

      // ---- OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clLinkProgram ----
      {"clLinkProgram:CL_INVALID_CONTEXT:1",
       [] {
         return err([](cl_int* e) {
           clLinkProgram(kBadContext, 0, nullptr, nullptr, 1, &objs().object, nullptr, nullptr, e);
         });
       }},
      {"clLinkProgram:CL_INVALID_CONTEXT:2",  // a compiled object of ctx linked in ctx2
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx2, 0, nullptr, nullptr, 1, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:1",  // device_list NULL, num_devices > 0
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 1, nullptr, nullptr, 1, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:1",  // device_list not NULL, num_devices 0
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 0, &f.device, nullptr, 1, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:2",  // num_input_programs 0, input_programs NULL
       [&] {
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:2",  // num_input_programs 0, input_programs not NULL
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 0, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:2",  // num_input_programs 1, input_programs NULL
       [&] {
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, nullptr, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_PROGRAM:1",
       [&] {
         const cl_program in[2] = {objs().object, kBadProgram};
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 2, in, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_VALUE:3",
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &objs().object, nullptr, &userData, e); });
       }},
      {"clLinkProgram:CL_INVALID_DEVICE:1",
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 1, &kBadDevice, nullptr, 1, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_LINKER_OPTIONS:1",  // a compiler option
       [&] {
         return err(
             [&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, "-D X=1", 1, &objs().object, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_LINKER_OPTIONS:1",
       [&] {
         return err([&](cl_int* e) {
           clLinkProgram(f.ctx, 0, nullptr, "-no-such-option", 1, &objs().object, nullptr, nullptr, e);
         });
       }},
      {"clLinkProgram:CL_INVALID_OPERATION:2",  // an IL program that was never compiled
       [&] {
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &f.unbuilt, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_INVALID_OPERATION:2",  // an executable built from IL, not a compiled object or library
       [&] {
         return err([&](cl_int* e) { clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &f.il, nullptr, nullptr, e); });
       }},
      {"clLinkProgram:CL_LINK_PROGRAM_FAILURE:1",
       [&] {  // an undefined function
         cl_program obj = freshSource(f.ctx, "int helper(int);\nkernel void k(global int* p) { p[0] = helper(1); }\n");
         clCompileProgram(obj, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
         cl_program linked = nullptr;
         const cl_int e =
             err([&](cl_int* e) { linked = clLinkProgram(f.ctx, 0, nullptr, nullptr, 1, &obj, nullptr, nullptr, e); });
         // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]]: a program object is returned with
         // the failure
         if (linked) clReleaseProgram(linked);
         clReleaseProgram(obj);
         return e;
       }},

      // ---- OpenCL 3.0 API §5.8.9 [[_program_object_queries]] clGetProgramInfo ----
      {"clGetProgramInfo:CL_INVALID_PROGRAM:1",
       [] { return clGetProgramInfo(kBadProgram, CL_PROGRAM_CONTEXT, 0, nullptr, nullptr); }},
      {"clGetProgramInfo:CL_INVALID_VALUE:1", [&] { return clGetProgramInfo(f.il, 0xdead, 0, nullptr, nullptr); }},
      {"clGetProgramInfo:CL_INVALID_VALUE:1",
       [&] {  // a cl_uint into 1 byte
         unsigned char small = 0;
         return clGetProgramInfo(f.il, CL_PROGRAM_REFERENCE_COUNT, sizeof small, &small, nullptr);
       }},
      {"clGetProgramInfo:CL_INVALID_VALUE:1",
       [&] {  // "vadd" into 2 bytes
         char small[2];
         return clGetProgramInfo(f.il, CL_PROGRAM_KERNEL_NAMES, sizeof small, small, nullptr);
       }},
      {"clGetProgramInfo:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           size_t n;
           return clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr);
         });
       }},
      {"clGetProgramInfo:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {
         return withProgram(
             freshIL(), [](cl_program p) { return clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, nullptr); });
       }},
      {"clGetProgramInfo:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           cl_bool b;
           return clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, nullptr);
         });
       }},
      {"clGetProgramInfo:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           cl_bool b;
           return clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b, nullptr);
         });
       }},
      {"clGetProgramInfo:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {  // only compiled: an object, no executable
         size_t n;
         return clGetProgramInfo(objs().object, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr);
       }},

      // ---- OpenCL 3.0 API §5.8.9 [[_program_object_queries]] clGetProgramBuildInfo ----
      {"clGetProgramBuildInfo:CL_INVALID_PROGRAM:1",
       [&] { return clGetProgramBuildInfo(kBadProgram, f.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo:CL_INVALID_DEVICE:1",
       [&] { return clGetProgramBuildInfo(f.il, kBadDevice, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo:CL_INVALID_DEVICE:1",  // the root device is not a device of subVaddA's program
       [&] { return clGetProgramBuildInfo(f.subProgramA, f.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo:CL_INVALID_DEVICE:1",  // NULL is no device of the program
       [&] { return clGetProgramBuildInfo(f.il, nullptr, CL_PROGRAM_BUILD_LOG, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo:CL_INVALID_VALUE:1",
       [&] { return clGetProgramBuildInfo(f.il, f.device, 0xdead, 0, nullptr, nullptr); }},
      {"clGetProgramBuildInfo:CL_INVALID_VALUE:1",
       [&] {  // a cl_build_status into 1 byte
         unsigned char small = 0;
         return clGetProgramBuildInfo(f.il, f.device, CL_PROGRAM_BUILD_STATUS, sizeof small, &small, nullptr);
       }},
      {"clGetProgramBuildInfo:CL_INVALID_VALUE:1",
       [&] {  // the options (not empty) into 1 byte
         char small[1];
         return clGetProgramBuildInfo(f.il, f.device, CL_PROGRAM_BUILD_OPTIONS, sizeof small, small, nullptr);
       }},
  };
}

std::vector<ErrorCase> kernelCases() {
  Fixture& f = fx();
  return {
      // ---- OpenCL 3.0 API §5.9.1 [[_creating_kernel_objects]] clCreateKernel, clCreateKernelsInProgram,
      // clCloneKernel, retain/release ----
      {"clCreateKernel:CL_INVALID_PROGRAM:1",
       [] { return err([](cl_int* e) { clCreateKernel(kBadProgram, "vadd", e); }); }},
      {"clCreateKernel:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {  // never built
         return withProgram(freshIL(),
                            [](cl_program p) { return err([&](cl_int* e) { clCreateKernel(p, "vadd", e); }); });
       }},
      {"clCreateKernel:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [&] {  // the build failed
         return withProgram(freshSource(f.ctx, "kernel void k(global int* p) { p[0] = undeclared; }\n"),
                            [](cl_program p) {
                              clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
                              return err([&](cl_int* e) { clCreateKernel(p, "k", e); });
                            });
       }},
      {"clCreateKernel:CL_INVALID_KERNEL_NAME:1",
       [&] { return err([&](cl_int* e) { clCreateKernel(f.il, "nope", e); }); }},
      {"clCreateKernel:CL_INVALID_KERNEL_NAME:1", [&] { return err([&](cl_int* e) { clCreateKernel(f.il, "", e); }); }},
      {"clCreateKernel:CL_INVALID_VALUE:1", [&] { return err([&](cl_int* e) { clCreateKernel(f.il, nullptr, e); }); }},
      {"clCreateKernelsInProgram:CL_INVALID_PROGRAM:1",
       [] { return clCreateKernelsInProgram(kBadProgram, 0, nullptr, nullptr); }},
      {"clCreateKernelsInProgram:CL_INVALID_PROGRAM_EXECUTABLE:1",
       [] {
         return withProgram(freshIL(), [](cl_program p) {
           cl_uint n;
           return clCreateKernelsInProgram(p, 0, nullptr, &n);
         });
       }},
      {"clCreateKernelsInProgram:CL_INVALID_VALUE:1",
       [&] {  // room for 0 of 1 kernel
         cl_kernel k[1] = {nullptr};
         return clCreateKernelsInProgram(f.il, 0, k, nullptr);
       }},
      {"clCreateKernelsInProgram:CL_INVALID_VALUE:1",
       [] {  // room for 1 of 2 kernels
         cl_kernel k[1] = {nullptr};
         return clCreateKernelsInProgram(objs().src, 1, k, nullptr);
       }},
      {"clRetainKernel:CL_INVALID_KERNEL:1", [] { return clRetainKernel(kBadKernel); }},
      {"clRetainKernel:CL_INVALID_KERNEL:1",
       [&] { return clRetainKernel(reinterpret_cast<cl_kernel>(f.il)); }},  // a program
      {"clReleaseKernel:CL_INVALID_KERNEL:1", [] { return clReleaseKernel(kBadKernel); }},
      {"clReleaseKernel:CL_INVALID_KERNEL:1",
       [&] { return clReleaseKernel(reinterpret_cast<cl_kernel>(f.il)); }},  // a program
      {"clCloneKernel:CL_INVALID_KERNEL:1", [] { return err([](cl_int* e) { clCloneKernel(kBadKernel, e); }); }},
      {"clCloneKernel:CL_INVALID_KERNEL:1",
       [&] { return err([&](cl_int* e) { clCloneKernel(reinterpret_cast<cl_kernel>(f.q), e); }); }},

      // ---- OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg (objs().args: global int*, constant
      // int*, local int*, int) ----
      {"clSetKernelArg:CL_INVALID_KERNEL:1", [&] { return clSetKernelArg(kBadKernel, 0, sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg:CL_INVALID_ARG_INDEX:1", [&] { return clSetKernelArg(objs().args, 4, sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg:CL_INVALID_ARG_INDEX:1", [&] { return clSetKernelArg(f.vadd, 3, sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg:CL_INVALID_CONTEXT:1",  // a buffer of ctx2 for a kernel of ctx
       [&] { return clSetKernelArg(objs().args, 0, sizeof(cl_mem), &f.ctx2buf); }},
      {"clSetKernelArg:CL_INVALID_CONTEXT:1",  // ... for a constant argument
       [&] { return clSetKernelArg(objs().args, 1, sizeof(cl_mem), &f.ctx2buf); }},
      {"clSetKernelArg:CL_INVALID_MEM_OBJECT:3",
       [&] { return clSetKernelArg(objs().args, 0, sizeof(cl_mem), &kBadMem); }},
      {"clSetKernelArg:CL_INVALID_MEM_OBJECT:3",
       [&] {  // a queue handle is no memory object
         const cl_mem notMem = reinterpret_cast<cl_mem>(f.q);
         return clSetKernelArg(objs().args, 1, sizeof notMem, &notMem);
       }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:1", [&] { return clSetKernelArg(objs().args, 0, 4, &f.buf); }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:1",
       [&] { return clSetKernelArg(objs().args, 1, 2 * sizeof(cl_mem), &f.buf); }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:4", [&] { return clSetKernelArg(objs().args, 2, 0, nullptr); }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:5",
       [&] {  // a long for an int
         const cl_long v = 1;
         return clSetKernelArg(objs().args, 3, sizeof v, &v);
       }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:5",
       [&] {  // a short for an int
         const cl_short v = 1;
         return clSetKernelArg(objs().args, 3, sizeof v, &v);
       }},
      {"clSetKernelArg:CL_MAX_SIZE_RESTRICTION_EXCEEDED:1",  // a 4096-byte buffer for MaxByteOffset 64
       [&] { return clSetKernelArg(objs().limited, 0, sizeof(cl_mem), &f.buf); }},

      // ---- OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArgSVMPointer, clSetKernelExecInfo ----
      // (f.svm: an SVM allocation of f.ctx; host memory is not SVM, the device has no fine-grained system SVM)
      {"clSetKernelArgSVMPointer:CL_INVALID_KERNEL:1", [&] { return clSetKernelArgSVMPointer(kBadKernel, 0, f.svm); }},
      {"clSetKernelArgSVMPointer:CL_INVALID_ARG_INDEX:1", [&] { return clSetKernelArgSVMPointer(f.vadd, 3, f.svm); }},
      {"clSetKernelArgSVMPointer:CL_INVALID_ARG_VALUE:1",
       [&] { return clSetKernelArgSVMPointer(f.vadd, 0, f.vaddSpv.data()); }},
      {"clSetKernelArgSVMPointer:CL_INVALID_ARG_VALUE:1",  // another context's SVM
       [&] { return clSetKernelArgSVMPointer(f.vadd, 0, f.ctx2svm); }},
      {"clSetKernelArgSVMPointer:CL_INVALID_ARG_VALUE:1",  // past the end of the allocation
       [&] { return clSetKernelArgSVMPointer(f.vadd, 0, f.svm + 4097); }},
      {"clSetKernelArgSVMPointer:CL_INVALID_ARG_VALUE:1",  // a local pointer argument
       [&] { return clSetKernelArgSVMPointer(f.reduce, 2, f.svm); }},
      {"clSetKernelExecInfo:CL_INVALID_KERNEL:1",
       [] {
         cl_bool b = CL_FALSE;
         return clSetKernelExecInfo(kBadKernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof b, &b);
       }},
      {"clSetKernelExecInfo:CL_INVALID_OPERATION:2",
       [&] {
         cl_bool b = CL_TRUE;
         return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof b, &b);
       }},
      {"clSetKernelExecInfo:CL_INVALID_VALUE:1",
       [&] {
         cl_bool b = CL_TRUE;
         return clSetKernelExecInfo(f.vadd, 0xdead, sizeof b, &b);
       }},
      {"clSetKernelExecInfo:CL_INVALID_VALUE:1",  // NULL with a size
       [&] { return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void*), nullptr); }},
      {"clSetKernelExecInfo:CL_INVALID_VALUE:1",  // not a whole number of pointers
       [&] {
         void* ptrs[1] = {f.svm};
         return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void*) - 1, ptrs);
       }},
      {"clSetKernelExecInfo:CL_INVALID_VALUE:1",  // host memory is not SVM
       [&] {
         void* ptrs[2] = {f.svm, f.vaddSpv.data()};
         return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs);
       }},
      {"clSetKernelExecInfo:CL_INVALID_VALUE:1",  // a cl_bool is not 8 bytes
       [&] {
         cl_ulong b = CL_FALSE;
         return clSetKernelExecInfo(f.vadd, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof b, &b);
       }},

      // ---- OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelInfo ----
      {"clGetKernelInfo:CL_INVALID_KERNEL:1",
       [] { return clGetKernelInfo(kBadKernel, CL_KERNEL_NUM_ARGS, 0, nullptr, nullptr); }},
      {"clGetKernelInfo:CL_INVALID_VALUE:1", [&] { return clGetKernelInfo(f.vadd, 0xdead, 0, nullptr, nullptr); }},
      {"clGetKernelInfo:CL_INVALID_VALUE:1",
       [&] {  // a cl_uint into 1 byte
         unsigned char small = 0;
         return clGetKernelInfo(f.vadd, CL_KERNEL_NUM_ARGS, sizeof small, &small, nullptr);
       }},
      {"clGetKernelInfo:CL_INVALID_VALUE:1",
       [&] {  // "vadd" into 2 bytes
         char small[2];
         return clGetKernelInfo(f.vadd, CL_KERNEL_FUNCTION_NAME, sizeof small, small, nullptr);
       }},

      // ---- OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelWorkGroupInfo ----
      {"clGetKernelWorkGroupInfo:CL_INVALID_KERNEL:1",
       [&] { return clGetKernelWorkGroupInfo(kBadKernel, f.device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_DEVICE:1",
       [&] { return clGetKernelWorkGroupInfo(f.vadd, kBadDevice, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_DEVICE:1",  // the root device, not a device of the kernel's program
       [&] { return clGetKernelWorkGroupInfo(f.subVaddA, f.device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_DEVICE:1",  // NULL, and the program has two devices
       [&] { return clGetKernelWorkGroupInfo(f.subVaddA, nullptr, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_VALUE:1",
       [&] { return clGetKernelWorkGroupInfo(f.vadd, f.device, 0xdead, 0, nullptr, nullptr); }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_VALUE:1",
       [&] {  // a size_t into 1 byte
         unsigned char small = 0;
         return clGetKernelWorkGroupInfo(f.vadd, f.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof small, &small, nullptr);
       }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_VALUE:1",
       [&] {  // size_t[3] into one size_t
         size_t small = 0;
         return clGetKernelWorkGroupInfo(f.vadd, f.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof small, &small,
                                         nullptr);
       }},
      {"clGetKernelWorkGroupInfo:CL_INVALID_VALUE:2",
       [&] {  // vadd is not a built-in kernel
         size_t s[3];
         return clGetKernelWorkGroupInfo(f.vadd, f.device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof s, s, nullptr);
       }},

      // ---- OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelSubGroupInfo ----
      {"clGetKernelSubGroupInfo:CL_INVALID_KERNEL:1",
       [&] {
         return clGetKernelSubGroupInfo(kBadKernel, f.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, 0, nullptr,
                                        nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_DEVICE:1",
       [&] {
         size_t n;
         return clGetKernelSubGroupInfo(f.vadd, kBadDevice, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof n, &n,
                                        nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_DEVICE:1",  // NULL, and the program has two devices
       [&] {
         size_t n;
         return clGetKernelSubGroupInfo(f.subVaddA, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof n, &n,
                                        nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_VALUE:1",
       [&] {  // a size_t answer into one byte
         char small;
         return clGetKernelSubGroupInfo(f.vadd, f.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof small,
                                        &small, nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_VALUE:1",
       [&] {  // not a sub-group query
         size_t n;
         return clGetKernelSubGroupInfo(f.vadd, f.device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, sizeof n, &n,
                                        nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_VALUE:2",
       [&] {  // no local size
         size_t n;
         return clGetKernelSubGroupInfo(f.vadd, f.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, nullptr, sizeof n,
                                        &n, nullptr);
       }},
      {"clGetKernelSubGroupInfo:CL_INVALID_VALUE:2",
       [&] {  // four dimensions
         const size_t local[4] = {8, 1, 1, 1};
         size_t n;
         return clGetKernelSubGroupInfo(f.vadd, f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, local,
                                        sizeof n, &n, nullptr);
       }},

      // ---- OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelArgInfo (objs().args was built with
      // -cl-kernel-arg-info) ----
      {"clGetKernelArgInfo:CL_INVALID_KERNEL:1",
       [] { return clGetKernelArgInfo(kBadKernel, 0, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo:CL_INVALID_ARG_INDEX:1",
       [] { return clGetKernelArgInfo(objs().args, 4, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo:CL_INVALID_VALUE:1",
       [] { return clGetKernelArgInfo(objs().args, 0, 0xdead, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo:CL_INVALID_VALUE:1",
       [] {  // a cl_kernel_arg_address_qualifier into 1 byte
         unsigned char small = 0;
         return clGetKernelArgInfo(objs().args, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof small, &small, nullptr);
       }},
      {"clGetKernelArgInfo:CL_INVALID_VALUE:1",
       [] {  // "int*" into 2 bytes
         char small[2];
         return clGetKernelArgInfo(objs().args, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof small, small, nullptr);
       }},
      {"clGetKernelArgInfo:CL_KERNEL_ARG_INFO_NOT_AVAILABLE:1",  // built from IL
       [&] { return clGetKernelArgInfo(f.vadd, 0, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr); }},
      {"clGetKernelArgInfo:CL_KERNEL_ARG_INFO_NOT_AVAILABLE:1",
       [&] {  // built from source without -cl-kernel-arg-info
         return withProgram(freshSource(f.ctx, kSource), [](cl_program p) {
           clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
           cl_kernel k = clCreateKernel(p, "req", nullptr);
           const cl_int e = clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr);
           clReleaseKernel(k);
           return e;
         });
       }},
  };
}

std::vector<ErrorCase> enqueueCases() {
  Fixture& f = fx();
  static const size_t g16 = 16;
  return {
      // ---- OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel ----
      {"clEnqueueNDRangeKernel:CL_INVALID_COMMAND_QUEUE:1",
       [&] { return clEnqueueNDRangeKernel(kBadQueue, f.vadd, 1, nullptr, &g16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_KERNEL:1",
       [&] { return clEnqueueNDRangeKernel(f.q, kBadKernel, 1, nullptr, &g16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_PROGRAM_EXECUTABLE:1",  // built for subA, queued on subB
       [&] {
         const size_t g = 4;
         return clEnqueueNDRangeKernel(f.subQB, f.subVaddA, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_CONTEXT:1",  // queue of ctx2, kernel of ctx
       [&] { return clEnqueueNDRangeKernel(f.q2, f.vadd, 1, nullptr, &g16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_CONTEXT:2",  // an event of ctx2
       [&] { return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, nullptr, 1, &f.ev2, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_KERNEL_ARGS:1",
       [&] {  // no argument set
         cl_kernel k = clCreateKernel(f.il, "vadd", nullptr);
         const cl_int e = clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &g16, nullptr, 0, nullptr, nullptr);
         clReleaseKernel(k);
         return e;
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_KERNEL_ARGS:1",
       [&] {  // the last argument not set
         cl_kernel k = clCreateKernel(f.il, "vadd", nullptr);
         for (cl_uint i = 0; i < 2; ++i) clSetKernelArg(k, i, sizeof(cl_mem), &f.buf);
         const cl_int e = clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &g16, nullptr, 0, nullptr, nullptr);
         clReleaseKernel(k);
         return e;
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_DIMENSION:1",
       [&] { return clEnqueueNDRangeKernel(f.q, f.vadd, 0, nullptr, &g16, nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_DIMENSION:1",
       [&] {  // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS is 3
         const size_t g[4] = {1, 1, 1, 1};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 4, nullptr, g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_OFFSET:2",
       [&] {
         const size_t o = SIZE_MAX - 4;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, &o, &g16, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_OFFSET:2",
       [&] {  // in the second dimension
         const size_t o[2] = {0, SIZE_MAX}, g[2] = {4, 1};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 2, o, g, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:1",
       [&] {  // OpenCL C 1.2 program: uniform work-groups
         const size_t g = 10, l = 4;
         return clEnqueueNDRangeKernel(f.q, objs().args, 1, nullptr, &g, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:1",
       [&] {  // IL built with -cl-uniform-work-group-size
         return withProgram(freshIL(), [&](cl_program p) {
           clBuildProgram(p, 0, nullptr, "-cl-uniform-work-group-size", nullptr, nullptr);
           cl_kernel k = clCreateKernel(p, "vadd", nullptr);
           for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(k, i, sizeof(cl_mem), &f.buf);
           const size_t g[2] = {8, 6}, l[2] = {4, 4};
           const cl_int e = clEnqueueNDRangeKernel(f.q, k, 2, nullptr, g, l, 0, nullptr, nullptr);
           clReleaseKernel(k);
           return e;
         });
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:2",
       [&] {
         const size_t l = 0;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:2",
       [&] {  // zero in the second dimension
         const size_t g[2] = {4, 4}, l[2] = {2, 0};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 2, nullptr, g, l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:3",
       [&] {  // each dimension fits, the product does not
         const size_t wg = objs().wg;
         const size_t g[2] = {wg, 2}, l[2] = {wg, 2};
         return clEnqueueNDRangeKernel(f.q, f.vadd, 2, nullptr, g, l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:4",
       [&] {  // reqd_work_group_size(2, 1, 1)
         const size_t g = 8, l = 4;
         return clEnqueueNDRangeKernel(f.q, objs().req, 1, nullptr, &g, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:4",
       [&] {  // (2, 1, 1) in two dimensions as (1, 2)
         const size_t g[2] = {4, 4}, l[2] = {1, 2};
         return clEnqueueNDRangeKernel(f.q, objs().req, 2, nullptr, g, l, 0, nullptr, nullptr);
       }},
      // CL_DEVICE_MAX_WORK_ITEM_SIZES are all CL_DEVICE_MAX_WORK_GROUP_SIZE (= CL_KERNEL_WORK_GROUP_SIZE),
      // so a dimension beyond its limit makes the work-group too large as well (either code is allowed).
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_ITEM_SIZE:1",
       [&] {
         const size_t l = objs().wg + 1, g = 2 * l;
         return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g, &l, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_EVENT_WAIT_LIST:1",
       [&] { return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, nullptr, 1, nullptr, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_EVENT_WAIT_LIST:2",
       [&] {
         return withEvent([&](cl_event ev) {
           return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, nullptr, 0, &ev, nullptr);
         });
       }},
      {"clEnqueueNDRangeKernel:CL_INVALID_EVENT_WAIT_LIST:3",
       [&] { return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, nullptr, 1, &kBadEvent, nullptr); }},
      {"clEnqueueNDRangeKernel:CL_INVALID_EVENT_WAIT_LIST:3",
       [&] {  // a valid event, then an invalid one
         return withEvent([&](cl_event ev) {
           const cl_event list[2] = {ev, kBadEvent};
           return clEnqueueNDRangeKernel(f.q, f.vadd, 1, nullptr, &g16, nullptr, 2, list, nullptr);
         });
       }},
      {"clEnqueueNDRangeKernel:CL_OUT_OF_RESOURCES:1",
       [&] {  // local arguments beyond CL_DEVICE_LOCAL_MEM_SIZE
         return withArgsKernel(size_t(objs().localMem) + 4, [&](cl_kernel k) {
           const size_t g = 4, l = 4;
           return clEnqueueNDRangeKernel(f.q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr);
         });
       }},

      // ---- OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueTask ----
      {"clEnqueueTask:CL_INVALID_COMMAND_QUEUE:1",
       [&] { return clEnqueueTask(kBadQueue, f.vadd, 0, nullptr, nullptr); }},
      {"clEnqueueTask:CL_INVALID_KERNEL:1", [&] { return clEnqueueTask(f.q, kBadKernel, 0, nullptr, nullptr); }},
      {"clEnqueueTask:CL_INVALID_PROGRAM_EXECUTABLE:1",  // built for subA, queued on subB
       [&] { return clEnqueueTask(f.subQB, f.subVaddA, 0, nullptr, nullptr); }},
      {"clEnqueueTask:CL_INVALID_CONTEXT:1",
       [&] { return clEnqueueTask(f.q2, f.vadd, 0, nullptr, nullptr); }},  // queue and kernel
      {"clEnqueueTask:CL_INVALID_CONTEXT:1",
       [&] { return clEnqueueTask(f.q, f.vadd, 1, &f.ev2, nullptr); }},  // queue and event
      {"clEnqueueTask:CL_INVALID_KERNEL_ARGS:1",
       [&] {
         cl_kernel k = clCreateKernel(f.il, "vadd", nullptr);
         const cl_int e = clEnqueueTask(f.q, k, 0, nullptr, nullptr);
         clReleaseKernel(k);
         return e;
       }},
      {"clEnqueueTask:CL_INVALID_WORK_GROUP_SIZE:1",
       [] { return clEnqueueTask(fx().q, objs().req, 0, nullptr, nullptr); }},
      {"clEnqueueTask:CL_OUT_OF_RESOURCES:1",
       [&] {  // local arguments beyond CL_DEVICE_LOCAL_MEM_SIZE
         return withArgsKernel(size_t(objs().localMem) + 4,
                               [&](cl_kernel k) { return clEnqueueTask(f.q, k, 0, nullptr, nullptr); });
       }},
      {"clEnqueueTask:CL_INVALID_EVENT_WAIT_LIST:1", [&] { return clEnqueueTask(f.q, f.vadd, 1, nullptr, nullptr); }},
      {"clEnqueueTask:CL_INVALID_EVENT_WAIT_LIST:1",
       [&] { return withEvent([&](cl_event ev) { return clEnqueueTask(f.q, f.vadd, 0, &ev, nullptr); }); }},
      {"clEnqueueTask:CL_INVALID_EVENT_WAIT_LIST:1",
       [&] { return clEnqueueTask(f.q, f.vadd, 1, &kBadEvent, nullptr); }},
  };
}

// clSetKernelArg of a queue_t argument, when the device builds a kernel with one (queueKernel).
std::vector<ErrorCase> queueArgCases() {
  Fixture& f = fx();
  cl_kernel k = queueKernel();
  if (!k) return {};
  return {
      // arg_value does not point to a valid device queue: a host command-queue, no queue, or NULL.
      {"clSetKernelArg:CL_INVALID_DEVICE_QUEUE:1", [&f, k] { return clSetKernelArg(k, 0, sizeof f.q, &f.q); }},
      {"clSetKernelArg:CL_INVALID_DEVICE_QUEUE:1", [k] { return clSetKernelArg(k, 0, sizeof kBadQueue, &kBadQueue); }},
      {"clSetKernelArg:CL_INVALID_DEVICE_QUEUE:1",
       [k] { return clSetKernelArg(k, 0, sizeof(cl_command_queue), nullptr); }},
      {"clSetKernelArg:CL_INVALID_ARG_SIZE:3", [&f, k] { return clSetKernelArg(k, 0, 4, &f.dq); }},
      {"clSetKernelArg:CL_INVALID_CONTEXT:1",  // a device queue of ctx2 for a kernel of ctx
       [&f, k] {
         const cl_queue_properties p[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
         cl_int e;
         cl_command_queue other = clCreateCommandQueueWithProperties(f.ctx2, f.device, p, &e);
         const cl_int code = clSetKernelArg(k, 0, sizeof other, &other);
         clReleaseCommandQueue(other);
         return code;
       }},
  };
}

std::vector<ErrorCase> cases() {
  std::vector<ErrorCase> all = programCases();
  for (auto* part : {&kernelCases, &enqueueCases, &queueArgCases})
    for (ErrorCase& c : (*part)()) all.push_back(std::move(c));
  return all;
}

// ---- conditions not provoked ----------------------------------------------------------------

// CL_OUT_OF_HOST_MEMORY of the entry points that allocate nothing on the host for a valid call
// (checked: no allocation during the call), or that fail for an unsupported feature before any
// allocation; the others are provoked (errors_host_memory_test.cpp).
std::string noAllocation(const std::string& entry, const std::string& what) {
  return entry + " allocates nothing on the host (" + what +
         "), so it cannot run out of host memory; checked: no allocation during a valid call";
}
std::string unsupportedFirst(const std::string& entry, const std::string& feature) {
  return entry + " never reaches an allocation: with any arguments it fails first for " + feature +
         " (its tested error)";
}
const std::map<std::string, std::string> kNoHostAllocation = {
    {"clCreateProgramWithBuiltInKernels",
     unsupportedFirst("clCreateProgramWithBuiltInKernels", "the device's lack of built-in kernels")},
    {"clRetainProgram", noAllocation("clRetainProgram", "a reference count increment")},
    {"clReleaseProgram", noAllocation("clReleaseProgram", "a reference count decrement; a program is deleted at once")},
    {"clSetProgramReleaseCallback",
     unsupportedFirst("clSetProgramReleaseCallback", "the lack of program-scope global destructors")},
    {"clGetProgramBuildInfo", noAllocation("clGetProgramBuildInfo", "every answer is a field or a stored string")},
    {"clRetainKernel", noAllocation("clRetainKernel", "a reference count increment")},
    {"clReleaseKernel", noAllocation("clReleaseKernel", "a reference count decrement; a kernel is deleted at once")},
    {"clSetKernelArgSVMPointer",
     noAllocation("clSetKernelArgSVMPointer", "the argument's record is replaced in place by one without storage")},
    {"clGetKernelInfo", noAllocation("clGetKernelInfo", "every answer is a field or a stored string")},
    {"clGetKernelWorkGroupInfo",
     noAllocation("clGetKernelWorkGroupInfo", "every answer is computed into a fixed-size value")},
    {"clGetKernelSubGroupInfo",
     noAllocation("clGetKernelSubGroupInfo", "every answer is computed into a fixed-size value")},
    {"clGetKernelArgInfo", noAllocation("clGetKernelArgInfo", "every answer is a stored string or a field")},
};
const char* const kDevice = "the device's memory is host memory; only a failed allocation could cause it";
const char* const kSynchronous =
    "clBuildProgram and clCompileProgram complete before returning (under the API lock; pfn_notify runs after the "
    "status "
    "is final), so no build is ever in progress when another call looks at the program";
const char* const kSubBufferAligned =
    "clCreateSubBuffer refuses an origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN "
    "(CL_MISALIGNED_SUB_BUFFER_OFFSET) "
    "since the context's only device requires it, so no misaligned sub-buffer can be a kernel argument";
const char* const kImagesSupported =
    "clCreateImage refuses every image whose dimensions exceed the device's limits or whose format the device does not "
    "support (CL_INVALID_IMAGE_SIZE, CL_IMAGE_FORMAT_NOT_SUPPORTED; errors_image_test.cpp); the context has one "
    "device, so every image argument is supported by the device the kernel runs on";
const char* const kHasSvm = "the device supports SVM (CL_DEVICE_SVM_CAPABILITIES: coarse- and fine-grained buffer)";
const char* const kNoSystemSvm =
    "system pointers cannot become arguments: the device has no fine-grained system SVM, and "
    "clSetKernelArgSVMPointer:CL_INVALID_ARG_VALUE:1 and clSetKernelExecInfo:CL_INVALID_VALUE:1 (tested) refuse "
    "pointers outside the context's SVM allocations";
const char* const kNoSubGroups =
    "a required number of sub-groups: a kernel declares one with the execution mode SubgroupsPerWorkgroup (or "
    "SubgroupsPerWorkgroupId), which clref refuses at build, so CL_KERNEL_COMPILE_NUM_SUB_GROUPS is always 0";

std::vector<NotTested> notTested() {
  std::vector<NotTested> n = {
      {"clCreateProgramWithIL:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the only device supports IL programs (CL_DEVICE_IL_VERSION: SPIR-V 1.0-1.6)"},
      {"clSetProgramSpecializationConstant:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the only device supports IL programs (CL_DEVICE_IL_VERSION: SPIR-V 1.0-1.6)"},
      {"clLinkProgram:CL_LINKER_NOT_AVAILABLE:1", Why::Unreachable,
       "the linker is SPIRV-Tools', part of clref, so CL_DEVICE_LINKER_AVAILABLE is always CL_TRUE"},
      {"clBuildProgram:CL_INVALID_BINARY:1", Why::Unreachable,
       "clCreateProgramWithBinary refuses (CL_INVALID_BINARY) every binary that is not a well-formed SPIR-V module, "
       "and it "
       "loads the binary for the context's only device, so a program created with a binary always has a valid one"},
      {"clCompileProgram:CL_INVALID_OPERATION:1", Why::Unreachable, kSynchronous},
      {"clBuildProgram:CL_INVALID_OPERATION:1", Why::Unreachable, kSynchronous},
      {"clLinkProgram:CL_INVALID_OPERATION:1", Why::Unreachable, kSynchronous},
      {"clCreateKernel:CL_INVALID_KERNEL_DEFINITION:1", Why::Unreachable,
       "a program holds one executable for all its devices (clCreateProgramWithBinary refuses different binaries for "
       "different devices), so a kernel's definition cannot differ between the devices it was built for"},
      {"clSetKernelArgSVMPointer:CL_INVALID_OPERATION:1", Why::Unreachable, kHasSvm},
      {"clSetKernelExecInfo:CL_INVALID_OPERATION:1", Why::Unreachable, kHasSvm},
      {"clGetKernelSubGroupInfo:CL_INVALID_OPERATION:1", Why::Unreachable,
       "the only device supports sub-groups (cl_khr_subgroups, __opencl_c_subgroups; CL_DEVICE_MAX_NUM_SUB_GROUPS is "
       "not 0)"},
      // clEnqueueNDRangeKernel
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_OFFSET:1", Why::Unreachable,
       "applies only to OpenCL 1.0 devices; the device is OpenCL 3.0, where global_work_offset may be non-NULL"},
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_WORK_SIZE:1", Why::Unreachable,
       "applies only to devices before OpenCL 2.1; the device is OpenCL 3.0 (a NULL global_work_size launches "
       "nothing)"},
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_WORK_SIZE:2", Why::Unreachable,
       "applies only to devices before OpenCL 2.1; the device is OpenCL 3.0 (a zero global size launches nothing)"},
      {"clEnqueueNDRangeKernel:CL_INVALID_GLOBAL_WORK_SIZE:3", Why::Unreachable,
       "CL_DEVICE_ADDRESS_BITS is 64: the device's size_t is the host's, so no size_t value exceeds it"},
      {"clEnqueueNDRangeKernel:CL_INVALID_WORK_GROUP_SIZE:5", Why::Unsupported, kNoSubGroups},
      {"clEnqueueNDRangeKernel:CL_MISALIGNED_SUB_BUFFER_OFFSET:1", Why::Unreachable, kSubBufferAligned},
      {"clEnqueueNDRangeKernel:CL_INVALID_IMAGE_SIZE:1", Why::Unreachable, kImagesSupported},
      {"clEnqueueNDRangeKernel:CL_IMAGE_FORMAT_NOT_SUPPORTED:1", Why::Unreachable, kImagesSupported},
      {"clEnqueueNDRangeKernel:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources,
       "buffers are allocated (host memory) when created, not when a kernel is enqueued; only a failed allocation "
       "could cause it"},
      {"clEnqueueNDRangeKernel:CL_INVALID_OPERATION:1", Why::Unreachable, kHasSvm},
      {"clEnqueueNDRangeKernel:CL_INVALID_OPERATION:2", Why::Unreachable, kNoSystemSvm},
      // clEnqueueTask
      {"clEnqueueTask:CL_INVALID_WORK_GROUP_SIZE:2", Why::Unsupported, kNoSubGroups},
      {"clEnqueueTask:CL_MISALIGNED_SUB_BUFFER_OFFSET:1", Why::Unreachable, kSubBufferAligned},
      {"clEnqueueTask:CL_INVALID_IMAGE_SIZE:1", Why::Unreachable, kImagesSupported},
      {"clEnqueueTask:CL_IMAGE_FORMAT_NOT_SUPPORTED:1", Why::Unreachable, kImagesSupported},
      {"clEnqueueTask:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources,
       "buffers are allocated (host memory) when created, not when a kernel is enqueued; only a failed allocation "
       "could cause it"},
      {"clEnqueueTask:CL_INVALID_OPERATION:1", Why::Unreachable, std::string(kHasSvm) + "; " + kNoSystemSvm},
  };
  // CL_OUT_OF_RESOURCES / CL_OUT_OF_HOST_MEMORY that only a failed allocation causes.
  for (const char* entry : {"clCreateProgramWithSource",
                            "clCreateProgramWithIL",
                            "clCreateProgramWithBinary",
                            "clCreateProgramWithBuiltInKernels",
                            "clRetainProgram",
                            "clReleaseProgram",
                            "clSetProgramReleaseCallback",
                            "clSetProgramSpecializationConstant",
                            "clBuildProgram",
                            "clCompileProgram",
                            "clLinkProgram",
                            "clGetProgramInfo",
                            "clGetProgramBuildInfo",
                            "clCreateKernel",
                            "clCreateKernelsInProgram",
                            "clRetainKernel",
                            "clReleaseKernel",
                            "clSetKernelArg",
                            "clSetKernelArgSVMPointer",
                            "clSetKernelExecInfo",
                            "clCloneKernel",
                            "clGetKernelInfo",
                            "clGetKernelWorkGroupInfo",
                            "clGetKernelSubGroupInfo",
                            "clGetKernelArgInfo",
                            "clEnqueueNDRangeKernel",
                            "clEnqueueTask"}) {
    const std::string e = entry;
    if (auto it = kNoHostAllocation.find(e); it != kNoHostAllocation.end())
      n.push_back({e + ":CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory, it->second});
    // clEnqueueNDRangeKernel's and clEnqueueTask's CL_OUT_OF_RESOURCES:1 are provoked (local memory).
    if (e == "clEnqueueTask")
      n.push_back({e + ":CL_OUT_OF_RESOURCES:2", Why::DeviceResources, kDevice});
    else if (e != "clEnqueueNDRangeKernel")
      n.push_back({e + ":CL_OUT_OF_RESOURCES:1", Why::DeviceResources, kDevice});
  }
  return n;
}

// clSetKernelArg's queue_t conditions wait for a kernel with a queue_t parameter, which the device builds once the
// interpreter executes modules that declare DeviceEnqueue (queueKernel); then queueArgCases provokes them.
std::vector<NotTested> notTestedHere() {
  if (queueKernel()) return {};
  const std::string why =
      "a kernel with a queue_t parameter does not build yet: the interpreter does not execute modules that declare "
      "DeviceEnqueue (the device queues themselves are tested: device_queue_behaviour_test.cpp)";
  return {{"clSetKernelArg:CL_INVALID_DEVICE_QUEUE:1", Why::Unsupported, why},
          {"clSetKernelArg:CL_INVALID_ARG_SIZE:3", Why::Unsupported, why}};
}

const bool registered = registerErrorTable({"program_kernel", cases, notTested(), notTestedHere});

}  // namespace
}  // namespace clref_test
