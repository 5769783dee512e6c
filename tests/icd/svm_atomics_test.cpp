// SVM atomics (CL_DEVICE_SVM_ATOMICS, OpenCL 3.0 API §5.6.2 [[_memory_consistency_for_svm_allocations]]): while a
// context has fine-grained allocations with CL_MEM_SVM_ATOMICS, a kernel launch runs at the same time as the host,
// and atomics in those allocations order the host's and the kernel's accesses both ways. Each test here needs the
// concurrency to pass: a kernel that waits for the host, a host that waits for the kernel, counters both increment.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "error_table.hpp"

using namespace clref_test;

namespace {

const char* kSource = R"CL(
// Tells the host it started, then waits (at most `spins` rounds) for the host's go; out[0] is 1 when it came.
kernel void handshake(global atomic_int* started, global atomic_int* go, global int* out, int spins) {
  atomic_store_explicit(started, 1, memory_order_release, memory_scope_all_svm_devices);
  int seen = 0;
  for (int i = 0; i < spins && !seen; ++i)
    seen = atomic_load_explicit(go, memory_order_acquire, memory_scope_all_svm_devices);
  out[0] = seen;
}
// Each work-item adds 1 to *counter `times` times.
kernel void count(global atomic_int* counter, int times) {
  for (int i = 0; i < times; ++i)
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_svm_devices);
}
// Message passing to the host: data first, then the flag with release.
kernel void publish(global int* data, global atomic_int* flag) {
  data[get_global_id(0)] = 3 * (int)get_global_id(0) + 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_global_id(0) == 0) atomic_store_explicit(flag, 1, memory_order_release, memory_scope_all_svm_devices);
  // Stay running until the host answered (for a while), so that the host reads the data while the kernel runs.
  if (get_global_id(0) == 0)
    for (int i = 0; i < (1 << 26); ++i)
      if (atomic_load_explicit(flag, memory_order_acquire, memory_scope_all_svm_devices) == 2) break;
}
kernel void read_at(global int* p, int i, global int* out) { out[0] = p[i]; }
// Reads *data until the host's go (at most `spins` rounds), then once more.
kernel void read_until_go(global atomic_int* started, global atomic_int* go, volatile global int* data,
                          global int* out, int spins) {
  atomic_store_explicit(started, 1, memory_order_release, memory_scope_all_svm_devices);
  int sum = 0;
  for (int i = 0; i < spins; ++i) {
    sum += *data;
    if (atomic_load_explicit(go, memory_order_acquire, memory_scope_all_svm_devices)) break;
  }
  out[0] = sum + *data;
}
)CL";

const SourceProgram& program() {
  static const SourceProgram p(kSource, "-cl-std=CL3.0");
  return p;
}

constexpr cl_svm_mem_flags kAtomics = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;

cl_int status(cl_event ev) {
  cl_int s = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  return s;
}

// Waits (at most a minute) until `cell`, an int the kernel writes atomically, holds `value`.
bool waitFor(const cl_int* cell, cl_int value) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  std::atomic_ref<const cl_int> ref(*cell);
  while (ref.load() != value)
    if (std::chrono::steady_clock::now() > until) return false;
  return true;
}

// Launches one work-item of `k` and waits until it reports through `started` that it runs; its event.
cl_event startOne(cl_kernel k, const cl_int* started) {
  const size_t one = 1;
  cl_event ev = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &one, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(clFlush(fx().q) == CL_SUCCESS);
  REQUIRE(waitFor(started, 1));
  return ev;
}

}  // namespace

TEST_CASE("SVM atomics: a kernel waits for the host, which sees it running", "[opencl][svm][svm-atomics]") {
  auto* cells = static_cast<cl_int*>(clSVMAlloc(fx().ctx, kAtomics, 3 * sizeof(cl_int), 0));
  REQUIRE(cells);
  cl_int* started = cells;
  cl_int* go = cells + 1;
  cl_int* out = cells + 2;
  cl_kernel k = program().kernel("handshake");
  const cl_int spins = 1 << 26;  // far more than the host needs; a synchronous launch would end without the go
  clSetKernelArgSVMPointer(k, 0, started);
  clSetKernelArgSVMPointer(k, 1, go);
  clSetKernelArgSVMPointer(k, 2, out);
  clSetKernelArg(k, 3, sizeof spins, &spins);
  cl_event ev = startOne(k, started);
  CHECK(status(ev) == CL_RUNNING);  // the kernel is waiting for us
  // A command enqueued behind the running launch waits for it (in order), and so does clFinish.
  cl_int copy = -1;
  cl_event memcpyEvent = nullptr;
  REQUIRE(clEnqueueSVMMemcpy(fx().q, CL_FALSE, &copy, out, sizeof copy, 0, nullptr, &memcpyEvent) == CL_SUCCESS);
  CHECK(status(memcpyEvent) == CL_QUEUED);
  std::atomic_ref<cl_int>(*go).store(1);
  REQUIRE(clFinish(fx().q) == CL_SUCCESS);
  CHECK(status(ev) == CL_COMPLETE);
  CHECK(status(memcpyEvent) == CL_COMPLETE);
  CHECK(*out == 1);
  CHECK(copy == 1);
  clReleaseEvent(ev);
  clReleaseEvent(memcpyEvent);
  clReleaseKernel(k);
  clSVMFree(fx().ctx, cells);
}

TEST_CASE("SVM atomics: host threads and work-items increment one counter", "[opencl][svm][svm-atomics]") {
  auto* counter = static_cast<cl_int*>(clSVMAlloc(fx().ctx, kAtomics, sizeof(cl_int), 0));
  REQUIRE(counter);
  cl_kernel k = program().kernel("count");
  const cl_int times = 2000;
  const size_t items = 64, group = 16;
  clSetKernelArgSVMPointer(k, 0, counter);
  clSetKernelArg(k, 1, sizeof times, &times);
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &items, &group, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFlush(fx().q) == CL_SUCCESS);
  constexpr int kThreads = 3, kHostTimes = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([counter] {
      std::atomic_ref<cl_int> ref(*counter);
      for (int i = 0; i < kHostTimes; ++i) ref.fetch_add(1);
    });
  for (auto& t : threads) t.join();
  REQUIRE(clFinish(fx().q) == CL_SUCCESS);
  CHECK(*counter == cl_int(items) * times + kThreads * kHostTimes);
  clReleaseKernel(k);
  clSVMFree(fx().ctx, counter);
}

TEST_CASE("SVM atomics: the host reads what the kernel published while it still runs", "[opencl][svm][svm-atomics]") {
  constexpr size_t n = 32;
  auto* data = static_cast<cl_int*>(
      clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof(cl_int), 0));
  auto* flag = static_cast<cl_int*>(clSVMAlloc(fx().ctx, kAtomics, sizeof(cl_int), 0));
  REQUIRE((data && flag));
  cl_kernel k = program().kernel("publish");
  clSetKernelArgSVMPointer(k, 0, data);
  clSetKernelArgSVMPointer(k, 1, flag);
  cl_event ev = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &n, &n, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(waitFor(flag, 1));
  std::atomic_thread_fence(std::memory_order_acquire);
  CHECK(status(ev) == CL_RUNNING);
  for (size_t i = 0; i < n; ++i) CHECK(data[i] == cl_int(3 * i + 1));
  std::atomic_ref<cl_int>(*flag).store(2);
  REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
  CHECK(status(ev) == CL_COMPLETE);
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clSVMFree(fx().ctx, data);
  clSVMFree(fx().ctx, flag);
}

TEST_CASE("SVM atomics: a concurrent launch's fault ends its command, and without atomics launches stay synchronous",
          "[opencl][svm][svm-atomics]") {
  auto* flag = static_cast<cl_int*>(clSVMAlloc(fx().ctx, kAtomics, sizeof(cl_int), 0));
  auto* p = static_cast<cl_int*>(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), 0));
  REQUIRE((flag && p));
  cl_kernel r = program().kernel("read_at");
  const cl_int past = 4;
  clSetKernelArgSVMPointer(r, 0, p);
  clSetKernelArg(r, 1, sizeof past, &past);
  clSetKernelArgSVMPointer(r, 2, p);
  const size_t one = 1;
  cl_event ev = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, r, 1, nullptr, &one, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status(ev) == CL_OUT_OF_RESOURCES);  // one past the end of p: a fault
  clReleaseEvent(ev);
  // With the atomics allocation gone the launch completes inside clEnqueueNDRangeKernel, as every command does.
  clSVMFree(fx().ctx, flag);
  const cl_int last = 3;
  p[3] = 12;
  clSetKernelArg(r, 1, sizeof last, &last);
  REQUIRE(clEnqueueNDRangeKernel(fx().q, r, 1, nullptr, &one, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  CHECK(status(ev) == CL_COMPLETE);
  CHECK(p[0] == 12);
  clReleaseEvent(ev);
  clReleaseKernel(r);
  clSVMFree(fx().ctx, p);
}

TEST_CASE("SVM atomics: memory freed under a running kernel is its fault, and the process lives",
          "[opencl][svm][svm-atomics]") {
  // The application's error (OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]]:
  // clSVMFree must wait for the kernels using the memory): the kernel's next access
  // is reported as one into a freed allocation, and the access it was making at the moment of the free still finds
  // the pages (interpreter/svm.hpp PagesKept).
  auto* cells = static_cast<cl_int*>(clSVMAlloc(fx().ctx, kAtomics, 3 * sizeof(cl_int), 0));
  auto* data = static_cast<cl_int*>(
      clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * 1024 * sizeof(cl_int), 0));
  REQUIRE((cells && data));
  data[0] = 1;
  cl_int* started = cells;
  cl_int* go = cells + 1;
  cl_int* out = cells + 2;
  *out = -1;
  cl_kernel k = program().kernel("read_until_go");
  const cl_int spins = 1 << 26;
  clSetKernelArgSVMPointer(k, 0, started);
  clSetKernelArgSVMPointer(k, 1, go);
  clSetKernelArgSVMPointer(k, 2, data);
  clSetKernelArgSVMPointer(k, 3, out);
  clSetKernelArg(k, 4, sizeof spins, &spins);
  cl_event ev = startOne(k, started);
  clSVMFree(fx().ctx, data);  // while the kernel reads it
  std::atomic_ref<cl_int>(*go).store(1);
  REQUIRE(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status(ev) == CL_OUT_OF_RESOURCES);
  CHECK(std::atomic_ref<cl_int>(*out).load() == -1);  // the work-item stopped at the access
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clSVMFree(fx().ctx, cells);
}
