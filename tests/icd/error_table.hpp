// The table-driven error-condition tests of the OpenCL C API. Every error condition the OpenCL
// 3.0 API specification lists for a core entry point (a bullet under "returns one of the
// following errors") has an id "entry:CODE:n": the entry point whose reference page lists it, the
// error code, and n, the bullet's rank among that page's bullets for that code, in spec order.
// (tests/icd/spec_error_conditions.cpp extracts them from the specification folder; the
// accounting test lists them all with `opencl_errors_test "[accounting]" -s`.)
//
// Each area's test file registers one ErrorTable: the cases that provoke conditions (the code
// expected is the one the id names, its value read from cl.xml) and the conditions it does not
// provoke, each with the reason. The accounting test checks that every condition of the spec is
// accounted for exactly once, and that no table names a condition the spec does not list.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clref_test {

// One provocation of a listed condition. Several cases may share an id (a bullet that names
// more than one situation, or an alias entry point such as clEnqueueWriteBuffer, whose
// conditions are listed on clEnqueueReadBuffer's page).
struct ErrorCase {
  std::string id;
  std::function<cl_int()> provoke;  // returns the code the entry point returned
};

// Why a listed condition is not provoked.
enum class Why {
  HostMemory,       // CL_OUT_OF_HOST_MEMORY: a failed host allocation, not provokable from the API
  DeviceResources,  // CL_OUT_OF_RESOURCES / allocation failure on the device, not provokable
  Unsupported,      // needs a feature clref's device does not report; the spec's error for the
                    // unsupported feature is returned first (detail names that tested case)
  Unreachable,      // cannot arise with this platform (one platform, one device); detail says why
};

struct NotTested {
  std::string id;
  Why why;
  std::string detail;
};

struct ErrorTable {
  const char* area;
  std::function<std::vector<ErrorCase>()> cases;  // called once, after the fixture exists
  std::vector<NotTested> notTested;
  // Conditions not provoked for a reason only the device at hand can tell (what it can build), called once after the
  // fixture exists; the cases then provoke the others. May be empty.
  std::function<std::vector<NotTested>()> notTestedHere = nullptr;
};

// Registers an area's table (call from a namespace-scope static initialiser).
bool registerErrorTable(ErrorTable table);
const std::vector<ErrorTable>& errorTables();

// Objects shared by the tables, created once.
struct Fixture {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context ctx = nullptr, ctx2 = nullptr;    // two contexts on the one device
  cl_command_queue q = nullptr, q2 = nullptr;  // q on ctx, q2 on ctx2
  cl_command_queue dq = nullptr;               // a device queue (CL_QUEUE_ON_DEVICE) of ctx, not its default
  cl_mem buf = nullptr, buf2 = nullptr;        // 4096-byte READ_WRITE buffers of ctx
  cl_mem sub = nullptr;                        // sub-buffer of buf: origin 128, size 256
  cl_mem hostWriteOnly = nullptr;              // 64 bytes, CL_MEM_HOST_WRITE_ONLY, ctx
  cl_mem ctx2buf = nullptr;                    // 64 bytes of ctx2
  cl_program il = nullptr;                     // vadd.O2.spv, built
  cl_program unbuilt = nullptr;                // vadd.O2.spv, not built
  cl_kernel vadd = nullptr;                    // vadd(global float* a, b, c): args set to buf
  cl_kernel reduce = nullptr;                  // reduce_int_sum(global int*, global int*, local int*)
  cl_event ev2 = nullptr;                      // a complete event of ctx2 (marker on q2)
  unsigned char* svm = nullptr;                // 4096 bytes of coarse-grained SVM of ctx (clSVMAlloc)
  unsigned char* ctx2svm = nullptr;            // 64 bytes of SVM of ctx2
  // Sub-devices (the tests run with CLREF_THREADS=4: four compute units): subA and subB of one compute unit each
  // (CL_DEVICE_PARTITION_EQUALLY 1), a context subCtx of both, a queue on each, and vadd.O2.spv built for subA only.
  cl_device_id subA = nullptr, subB = nullptr;
  cl_context subCtx = nullptr;
  cl_command_queue subQA = nullptr, subQB = nullptr;
  cl_program subProgramA = nullptr;  // vadd.O2.spv in subCtx, built for subA only
  cl_kernel subVaddA = nullptr;      // vadd of subProgramA, arguments set to a buffer of subCtx
  std::vector<unsigned char> vaddSpv, reduceSpv;

  static std::vector<unsigned char> read(const std::string& path);
  Fixture();
};
Fixture& fx();

// takes_queue(queue_t q, global int* out) { out[0] = 1; } of ctx, built from OpenCL C with -cl-kernel-arg-info on first
// use (arguments not set), or null when the device cannot build it: until the interpreter executes modules that
// declare DeviceEnqueue, the build fails naming that capability (queueKernelLog says why; any other failure is an
// error of the test run, reported on stderr).
cl_kernel queueKernel();
const std::string& queueKernelLog();

// For entry points that return an object and report through errcode_ret.
cl_int err(const std::function<void(cl_int*)>& f);

// A program of fx().ctx built from OpenCL C with `options` (the test fails, showing the build log, when it does not
// build), and its kernels.
struct SourceProgram {
  cl_program program = nullptr;
  SourceProgram(const char* source, const char* options);
  cl_kernel kernel(const char* name) const;  // a new kernel (the test fails when there is none of that name)
};

// Handles that are not objects of clref (clref validates every handle before use).
inline const cl_context kBadContext = reinterpret_cast<cl_context>(uintptr_t(0x1234));
inline const cl_command_queue kBadQueue = reinterpret_cast<cl_command_queue>(uintptr_t(0x1234));
inline const cl_mem kBadMem = reinterpret_cast<cl_mem>(uintptr_t(0x1234));
inline const cl_program kBadProgram = reinterpret_cast<cl_program>(uintptr_t(0x1234));
inline const cl_kernel kBadKernel = reinterpret_cast<cl_kernel>(uintptr_t(0x1234));
inline const cl_event kBadEvent = reinterpret_cast<cl_event>(uintptr_t(0x1234));
inline const cl_device_id kBadDevice = reinterpret_cast<cl_device_id>(uintptr_t(0x1234));
inline const cl_platform_id kBadPlatform = reinterpret_cast<cl_platform_id>(uintptr_t(0x1234));
inline const cl_sampler kBadSampler = reinterpret_cast<cl_sampler>(uintptr_t(0x1234));

}  // namespace clref_test
