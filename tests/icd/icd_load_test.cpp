// The ICD under load from many host threads at once (issue 40, "Thread safety, proven"): a program linked with the
// ICD loader only (not with clref), run with OCL_ICD_VENDORS pointing at clref. Every thread runs rounds of
//   - a private context or the shared one, a private queue (in-order or out-of-order) or one of the shared queues
//     (one in-order, one out-of-order), both contexts and queues retained and released meanwhile;
//   - a program built from OpenCL C source (its own build options, a build callback) or from SPIR-V (the golden
//     corpus's vadd), or kernels taken from the program the main thread built in the shared context;
//   - kernel launches chained by events (out-of-order queues get explicit wait lists), a command held back by a user
//     event that the thread completes after enqueueing it, non-blocking and blocking reads;
//   - event callbacks (CL_SUBMITTED and CL_COMPLETE), memory-object and context destructor callbacks;
//   - a launch on fine-grained SVM with atomics that runs beside the host (the thread adds to the kernel's counter);
// and checks every byte read back against the host's computation (integer arithmetic and exact float sums), every
// callback's argument, and at the end that every callback registered ran exactly once.
// OpenCL 3.0 API §A.2 [[_multiple_host_threads]] makes every API call thread-safe except clSetKernelArg,
// clSetKernelArgSVMPointer, clSetKernelExecInfo and clCloneKernel on one kernel: each thread has kernels of its own.
//
// usage: icd_load_test <vadd.spv>   exit status 0 when every check passed.
// CLREF_LOAD_THREADS (default 8) and CLREF_LOAD_ROUNDS (default 6) set the load; CLREF_LOAD_SIZE (default 256) the
// work-items of a launch (a multiple of 64); CLREF_LOAD_SHARED_GATES=0 keeps user-event gates off the shared queues;
// CLREF_LOAD_SVM=0 leaves out the SVM launches. The same program runs under the check layer and under ThreadSanitizer.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<int> failures{0};
std::mutex printMutex;

void fail(unsigned thread, const std::string& what) {
  std::lock_guard lock(printMutex);
  std::fprintf(stderr, "FAIL thread %u: %s\n", thread, what.c_str());
  ++failures;
}

bool ok(unsigned thread, cl_int e, const char* what) {
  if (e == CL_SUCCESS) return true;
  fail(thread, std::string(what) + " returned " + std::to_string(e));
  return false;
}

// Each callback counts itself; registered == ran at the end (and no callback sees a wrong argument).
struct Counter {
  std::atomic<long> registered{0}, ran{0};
};
Counter eventComplete, eventSubmitted, memDestructor, contextDestructor, buildDone;
std::atomic<long> launches{0};     // kernel enqueues whose results were checked
std::atomic<long> svmLaunches{0};  // of which on SVM with atomics (runSvm)

void CL_CALLBACK onEvent(cl_event, cl_int status, void* data) {
  auto* expected = static_cast<cl_int*>(data);
  if (status != *expected) fail(~0u, "event callback with status " + std::to_string(status));
  (*expected == CL_COMPLETE ? eventComplete : eventSubmitted).ran++;
}
cl_int kComplete = CL_COMPLETE, kSubmitted = CL_SUBMITTED;

void CL_CALLBACK onMemDestroyed(cl_mem, void* data) {
  if (data != &memDestructor) fail(~0u, "memory destructor callback with wrong user data");
  memDestructor.ran++;
}
void CL_CALLBACK onContextDestroyed(cl_context, void* data) {
  if (data != &contextDestructor) fail(~0u, "context destructor callback with wrong user data");
  contextDestructor.ran++;
}
void CL_CALLBACK onBuilt(cl_program program, void* data) {
  cl_device_id device = *static_cast<cl_device_id*>(data);
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
  if (status != CL_BUILD_SUCCESS) fail(~0u, "build callback with build status " + std::to_string(status));
  buildDone.ran++;
}

const char* kSource =
    "kernel void affine(global const uint* a, global uint* out, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] * k + (uint)i + SALT;\n"
    "}\n"
    "kernel void group_sum(global const uint* a, global uint* sums, local uint* scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = a[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    if (l < s) scratch[l] += scratch[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) sums[get_group_id(0)] = scratch[0];\n"
    "}\n";
constexpr size_t kGroup = 64;

struct Shared {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue inOrder, outOfOrder;
  cl_program program;  // kSource with SALT=0, built by the main thread
  std::vector<unsigned char> spirv;
  size_t size;
  unsigned rounds;
  bool svmAtomics;  // CL_DEVICE_SVM_ATOMICS: the last round of each thread runs runSvm
  bool gateShared;  // user-event gates on the shared queues too (other threads' commands queue up behind them)
};

uint32_t mix(uint32_t x) {  // inputs that differ per thread, round and index
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  return x ^ (x >> 16);
}

cl_mem buffer(unsigned t, cl_context ctx, cl_mem_flags flags, size_t bytes, void* host) {
  cl_int e;
  cl_mem m = clCreateBuffer(ctx, flags, bytes, host, &e);
  if (!ok(t, e, "clCreateBuffer")) return nullptr;
  if (ok(t, clSetMemObjectDestructorCallback(m, onMemDestroyed, &memDestructor), "clSetMemObjectDestructorCallback"))
    memDestructor.registered++;
  return m;
}

void watch(unsigned t, cl_event e) {
  if (ok(t, clSetEventCallback(e, CL_COMPLETE, onEvent, &kComplete), "clSetEventCallback")) eventComplete.registered++;
  if (ok(t, clSetEventCallback(e, CL_SUBMITTED, onEvent, &kSubmitted), "clSetEventCallback")) eventSubmitted.registered++;
}

// affine then group_sum, chained by events; out read without blocking, sums read blocking.
void runSource(const Shared& s, unsigned t, unsigned r, cl_context ctx, cl_command_queue q, cl_program program,
               uint32_t salt) {
  const size_t n = s.size;
  std::vector<uint32_t> a(n), out(n, 0), sums(n / kGroup, 0);
  for (size_t i = 0; i < n; ++i) a[i] = mix(uint32_t(t * 1000003 + r * 7919 + i));
  const uint32_t k = 3 + t + r;
  cl_int e;
  cl_kernel affine = clCreateKernel(program, "affine", &e);
  if (!ok(t, e, "clCreateKernel affine")) return;
  cl_kernel groupSum = clCreateKernel(program, "group_sum", &e);
  if (!ok(t, e, "clCreateKernel group_sum")) return;
  cl_mem bufA = buffer(t, ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data());
  cl_mem bufOut = buffer(t, ctx, CL_MEM_READ_WRITE, n * 4, nullptr);
  cl_mem bufSums = buffer(t, ctx, CL_MEM_WRITE_ONLY, n / kGroup * 4, nullptr);
  if (!bufA || !bufOut || !bufSums) return;
  ok(t, clSetKernelArg(affine, 0, sizeof bufA, &bufA), "clSetKernelArg");
  ok(t, clSetKernelArg(affine, 1, sizeof bufOut, &bufOut), "clSetKernelArg");
  ok(t, clSetKernelArg(affine, 2, sizeof k, &k), "clSetKernelArg");
  ok(t, clSetKernelArg(groupSum, 0, sizeof bufOut, &bufOut), "clSetKernelArg");
  ok(t, clSetKernelArg(groupSum, 1, sizeof bufSums, &bufSums), "clSetKernelArg");
  ok(t, clSetKernelArg(groupSum, 2, kGroup * 4, nullptr), "clSetKernelArg");
  const size_t local = kGroup;
  cl_event ran[2], read[2];
  ok(t, clEnqueueNDRangeKernel(q, affine, 1, nullptr, &n, &local, 0, nullptr, &ran[0]), "clEnqueueNDRangeKernel");
  ok(t, clEnqueueNDRangeKernel(q, groupSum, 1, nullptr, &n, &local, 1, &ran[0], &ran[1]), "clEnqueueNDRangeKernel");
  ok(t, clEnqueueReadBuffer(q, bufOut, CL_FALSE, 0, n * 4, out.data(), 1, &ran[0], &read[0]), "clEnqueueReadBuffer");
  for (cl_event ev : {ran[0], ran[1], read[0]}) watch(t, ev);
  ok(t, clEnqueueReadBuffer(q, bufSums, CL_TRUE, 0, n / kGroup * 4, sums.data(), 1, &ran[1], &read[1]),
     "clEnqueueReadBuffer (blocking)");
  ok(t, clWaitForEvents(1, &read[0]), "clWaitForEvents");
  for (cl_event ev : {ran[0], ran[1], read[0], read[1]}) {
    cl_int status = CL_QUEUED;
    ok(t, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), "clGetEventInfo");
    if (status != CL_COMPLETE) fail(t, "an event waited for is not complete: " + std::to_string(status));
    clReleaseEvent(ev);
  }
  size_t wrong = 0;
  for (size_t g = 0; g < n / kGroup; ++g) {
    uint32_t sum = 0;
    for (size_t i = g * kGroup; i < (g + 1) * kGroup; ++i) {
      const uint32_t expected = a[i] * k + uint32_t(i) + salt;
      wrong += out[i] != expected;
      sum += expected;
    }
    wrong += sums[g] != sum;
  }
  if (wrong) fail(t, "round " + std::to_string(r) + ": " + std::to_string(wrong) + " wrong values (source kernels)");
  launches += 2;
  for (cl_mem m : {bufA, bufOut, bufSums}) clReleaseMemObject(m);
  clReleaseKernel(affine);
  clReleaseKernel(groupSum);
}

// vadd from SPIR-V, its input b written by a command that waits on a user event this thread completes afterwards.
void runIL(const Shared& s, unsigned t, unsigned r, cl_context ctx, cl_command_queue q) {
  const size_t n = s.size;
  cl_int e;
  cl_program program = clCreateProgramWithIL(ctx, s.spirv.data(), s.spirv.size(), &e);
  if (!ok(t, e, "clCreateProgramWithIL")) return;
  if (!ok(t, clBuildProgram(program, 1, &s.device, "", nullptr, nullptr), "clBuildProgram (IL)")) return;
  cl_kernel vadd = clCreateKernel(program, "vadd", &e);
  if (!ok(t, e, "clCreateKernel vadd")) return;
  ok(t, clRetainKernel(vadd), "clRetainKernel");
  ok(t, clReleaseProgram(program), "clReleaseProgram");  // the kernel keeps it alive
  // Small integers: every sum is exact in binary32, so the expected value is independent of rounding.
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(mix(uint32_t(t * 31 + r * 17 + i)) % 65536);
    b[i] = float(int(i % 97) - int(t));
  }
  cl_mem bufA = buffer(t, ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data());
  cl_mem bufB = buffer(t, ctx, CL_MEM_READ_ONLY, n * 4, nullptr);
  cl_mem bufC = buffer(t, ctx, CL_MEM_WRITE_ONLY, n * 4, nullptr);
  if (!bufA || !bufB || !bufC) return;
  ok(t, clSetKernelArg(vadd, 0, sizeof bufA, &bufA), "clSetKernelArg");
  ok(t, clSetKernelArg(vadd, 1, sizeof bufB, &bufB), "clSetKernelArg");
  ok(t, clSetKernelArg(vadd, 2, sizeof bufC, &bufC), "clSetKernelArg");
  // The gate only on a queue of this thread's when s.gateShared is false (CLREF_LOAD_SHARED_GATES=0).
  const bool gated = s.gateShared || (q != s.inOrder && q != s.outOfOrder);
  cl_event gate = clCreateUserEvent(ctx, &e);
  if (!ok(t, e, "clCreateUserEvent")) return;
  if (!gated) ok(t, clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
  cl_event wrote, ran;
  ok(t, clEnqueueWriteBuffer(q, bufB, CL_FALSE, 0, n * 4, b.data(), 1, &gate, &wrote), "clEnqueueWriteBuffer");
  ok(t, clEnqueueNDRangeKernel(q, vadd, 1, nullptr, &n, nullptr, 1, &wrote, &ran), "clEnqueueNDRangeKernel");
  watch(t, wrote);
  watch(t, ran);
  if (gated) ok(t, clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
  ok(t, clEnqueueReadBuffer(q, bufC, CL_TRUE, 0, n * 4, c.data(), 1, &ran, nullptr), "clEnqueueReadBuffer (blocking)");
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  if (wrong) fail(t, "round " + std::to_string(r) + ": " + std::to_string(wrong) + " wrong values (vadd from SPIR-V)");
  ++launches;
  for (cl_event ev : {gate, wrote, ran}) clReleaseEvent(ev);
  for (cl_mem m : {bufA, bufB, bufC}) clReleaseMemObject(m);
  clReleaseKernel(vadd);
  clReleaseKernel(vadd);
}

// Fine-grained SVM with atomics: clref runs such a launch on a thread of its own, without its API lock, beside the host
// (and beside the other threads' calls). The kernel and this thread add to one counter at the same time; every
// fetch_add must see a distinct value.
const char* kSvmSource =
    "kernel void svm_count(global atomic_uint* counter, global uint* seen) {\n"
    "  seen[get_global_id(0)] = atomic_fetch_add(counter, 1u);\n"
    "}\n";

void runSvm(const Shared& s, unsigned t, cl_context ctx, cl_command_queue q) {
  const size_t n = s.size;
  const uint32_t hostAdds = 64;
  cl_int e;
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSvmSource, nullptr, &e);
  if (!ok(t, e, "clCreateProgramWithSource (SVM)")) return;
  if (!ok(t, clBuildProgram(program, 1, &s.device, "-cl-std=CL3.0", nullptr, nullptr), "clBuildProgram (SVM)")) return;
  cl_kernel kernel = clCreateKernel(program, "svm_count", &e);
  if (!ok(t, e, "clCreateKernel svm_count")) return;
  auto* counter = static_cast<uint32_t*>(
      clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(uint32_t), 0));
  auto* seen = static_cast<uint32_t*>(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * 4, 0));
  if (!counter || !seen) {
    fail(t, "clSVMAlloc returned NULL");
    return;
  }
  __atomic_store_n(counter, 0u, __ATOMIC_SEQ_CST);
  ok(t, clSetKernelArgSVMPointer(kernel, 0, counter), "clSetKernelArgSVMPointer");
  ok(t, clSetKernelArgSVMPointer(kernel, 1, seen), "clSetKernelArgSVMPointer");
  cl_event ran;
  ok(t, clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &ran), "clEnqueueNDRangeKernel (SVM)");
  watch(t, ran);
  std::vector<bool> taken(n + hostAdds, false);
  for (uint32_t i = 0; i < hostAdds; ++i) {  // meanwhile the host's own adds
    const uint32_t v = __atomic_fetch_add(counter, 1u, __ATOMIC_SEQ_CST);
    if (v < taken.size()) taken[v] = true;
  }
  ok(t, clWaitForEvents(1, &ran), "clWaitForEvents (SVM)");
  size_t wrong = __atomic_load_n(counter, __ATOMIC_SEQ_CST) != n + hostAdds;
  for (size_t i = 0; i < n; ++i) {
    if (seen[i] >= taken.size() || taken[seen[i]]) ++wrong;
    else taken[seen[i]] = true;
  }
  if (wrong) fail(t, std::to_string(wrong) + " wrong values (SVM atomics: a value taken twice, or a lost add)");
  ++launches;
  ++svmLaunches;
  clReleaseEvent(ran);
  clSVMFree(ctx, counter);
  clSVMFree(ctx, seen);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

void worker(const Shared& s, unsigned t, std::latch& start) {
  start.arrive_and_wait();  // every thread starts at once
  for (unsigned r = 0; r < s.rounds; ++r) {
    const bool privateContext = (t + r) % 2 == 1;
    cl_int e;
    cl_context ctx = s.context;
    if (privateContext) {
      ctx = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &e);
      if (!ok(t, e, "clCreateContext")) continue;
      if (ok(t, clSetContextDestructorCallback(ctx, onContextDestroyed, &contextDestructor),
             "clSetContextDestructorCallback"))
        contextDestructor.registered++;
    } else {
      ok(t, clRetainContext(ctx), "clRetainContext");
    }
    // A shared queue in the shared context every third round; otherwise a queue of this thread's.
    cl_command_queue q;
    if (!privateContext && r % 3 == 0) {
      q = (r / 3 + t) % 2 ? s.outOfOrder : s.inOrder;
      ok(t, clRetainCommandQueue(q), "clRetainCommandQueue");
    } else {
      const cl_queue_properties props[] = {
          CL_QUEUE_PROPERTIES, cl_queue_properties((r % 2) ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0), 0};
      q = clCreateCommandQueueWithProperties(ctx, s.device, props, &e);
      if (!ok(t, e, "clCreateCommandQueueWithProperties")) continue;
    }
    switch ((t + r) % 3) {
      case 0: {  // OpenCL C with options of its own and a build callback
        const uint32_t salt = t * 100 + r;
        cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &e);
        if (!ok(t, e, "clCreateProgramWithSource")) break;
        const std::string options = "-DSALT=" + std::to_string(salt) + "u";
        // The callback's data outlives the call: it may run on another thread after clBuildProgram returns.
        buildDone.registered++;
        if (ok(t, clBuildProgram(program, 1, &s.device, options.c_str(), onBuilt, const_cast<cl_device_id*>(&s.device)),
               "clBuildProgram (source)"))
          runSource(s, t, r, ctx, q, program, salt);
        clReleaseProgram(program);
        break;
      }
      case 1: runIL(s, t, r, ctx, q); break;
      default:  // kernels of the shared program (only in its context)
        if (ctx == s.context) runSource(s, t, r, ctx, q, s.program, 0);
        else runIL(s, t, r, ctx, q);
    }
    if (r + 1 == s.rounds && s.svmAtomics) runSvm(s, t, ctx, q);
    ok(t, clFinish(q), "clFinish");
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
}

unsigned fromEnv(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v && *v ? unsigned(std::strtoul(v, nullptr, 10)) : fallback;
}

// OpenCL 3.0 API §5.11 [[event-objects]] clSetEventCallback: the callback "may be called asynchronously"; a
// command that completes on another thread (clref's SVM launches, a layer's checks) may still be running its callbacks
// (and holding the event, and so its context) when clFinish returns. They are given a few seconds.
void expectAllRan(const char* what, const Counter& c) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (c.ran.load() < c.registered.load() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (c.registered.load() != c.ran.load() || c.registered.load() == 0)
    fail(~0u, std::string(what) + " callbacks: " + std::to_string(c.ran.load()) + " ran of " +
                  std::to_string(c.registered.load()) + " registered");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: icd_load_test <vadd.spv>\n");
    return 2;
  }
  Shared s;
  std::ifstream in(argv[1], std::ios::binary);
  s.spirv.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (s.spirv.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const unsigned threads = fromEnv("CLREF_LOAD_THREADS", 8);
  s.rounds = fromEnv("CLREF_LOAD_ROUNDS", 6);
  s.size = fromEnv("CLREF_LOAD_SIZE", 256);
  s.gateShared = fromEnv("CLREF_LOAD_SHARED_GATES", 1) != 0;
  if (threads == 0 || s.rounds == 0 || s.size == 0 || s.size % kGroup) {
    std::fprintf(stderr, "CLREF_LOAD_THREADS and CLREF_LOAD_ROUNDS must be positive, CLREF_LOAD_SIZE a multiple of 64\n");
    return 2;
  }
  cl_int e;
  if (!ok(0, clGetPlatformIDs(1, &s.platform, nullptr), "clGetPlatformIDs")) return 1;
  if (!ok(0, clGetDeviceIDs(s.platform, CL_DEVICE_TYPE_ALL, 1, &s.device, nullptr), "clGetDeviceIDs")) return 1;
  cl_device_svm_capabilities svm = 0;
  ok(0, clGetDeviceInfo(s.device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr), "clGetDeviceInfo");
  s.svmAtomics = (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) && (svm & CL_DEVICE_SVM_ATOMICS) &&
                 fromEnv("CLREF_LOAD_SVM", 1) != 0;
  s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &e);
  if (!ok(0, e, "clCreateContext")) return 1;
  if (ok(0, clSetContextDestructorCallback(s.context, onContextDestroyed, &contextDestructor),
         "clSetContextDestructorCallback"))
    contextDestructor.registered++;
  s.inOrder = clCreateCommandQueueWithProperties(s.context, s.device, nullptr, &e);
  if (!ok(0, e, "clCreateCommandQueueWithProperties")) return 1;
  const cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  s.outOfOrder = clCreateCommandQueueWithProperties(s.context, s.device, ooo, &e);
  if (!ok(0, e, "clCreateCommandQueueWithProperties (out of order)")) return 1;
  s.program = clCreateProgramWithSource(s.context, 1, &kSource, nullptr, &e);
  if (!ok(0, e, "clCreateProgramWithSource")) return 1;
  if (!ok(0, clBuildProgram(s.program, 1, &s.device, "-DSALT=0u", nullptr, nullptr), "clBuildProgram")) return 1;

  std::latch start(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, std::cref(s), t, std::ref(start));
  for (auto& th : pool) th.join();

  ok(0, clFinish(s.inOrder), "clFinish");
  ok(0, clFinish(s.outOfOrder), "clFinish");
  clReleaseProgram(s.program);
  clReleaseCommandQueue(s.inOrder);
  clReleaseCommandQueue(s.outOfOrder);
  clReleaseContext(s.context);
  expectAllRan("CL_COMPLETE event", eventComplete);
  expectAllRan("CL_SUBMITTED event", eventSubmitted);
  expectAllRan("memory destructor", memDestructor);
  expectAllRan("context destructor", contextDestructor);
  expectAllRan("program build", buildDone);
  std::printf("icd_load_test: %u threads x %u rounds of %zu work-items: %ld launches checked (%ld on SVM with "
              "atomics), %s; callbacks ran: %ld event, %ld memory destructor, %ld context destructor, %ld build\n",
              threads, s.rounds, s.size, launches.load(), svmLaunches.load(),
              failures ? "FAILED" : "every result as computed on the host",
              eventComplete.ran.load() + eventSubmitted.ran.load(), memDestructor.ran.load(),
              contextDestructor.ran.load(), buildDone.ran.load());
  return failures ? 1 : 0;
}
