// Shared virtual memory through the OpenCL C API (OpenCL 3.0 API §5.6 [[_shared_virtual_memory]]): pointer-containing
// data the host builds in SVM and kernels follow, fine-grained buffers the host uses without mapping, the SVM commands,
// buffers over SVM, and the faults a kernel's bad SVM access gives. Expected values are computed on the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "error_table.hpp"

using namespace clref_test;

namespace {

// A linked list in SVM: each node holds a value and the next node's address (a host pointer).
const char* kSource = R"CL(
typedef struct Node { int value; global struct Node* next; } Node;
kernel void sum_list(global Node* head, global int* out) {
  int s = 0;
  for (global Node* n = head; n; n = n->next) s += n->value;
  out[get_global_id(0)] = s + (int)get_global_id(0);
}
kernel void scale(global int* p, int k) { p[get_global_id(0)] *= k; }
kernel void store_pointers(global int* base, global int* global* slots) {
  size_t i = get_global_id(0);
  slots[i] = base + 3 * i;
}
kernel void write_at(global int* p, int i) { p[i] = 42; }
kernel void read_at(global int* p, int i, global int* out) { out[0] = p[i]; }
)CL";

struct Node {
  cl_int value;
  Node* next;
};

const SourceProgram& svm() {
  static const SourceProgram p(kSource, "-cl-std=CL3.0");
  return p;
}

cl_int eventStatus(cl_event ev) {
  cl_int s = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  return s;
}

// The launch's error, else its event's final status (a kernel fault ends the command with CL_OUT_OF_RESOURCES).
cl_int launch(cl_kernel k, size_t n) {
  cl_event ev = nullptr;
  if (cl_int e = clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &n, nullptr, 0, nullptr, &ev)) return e;
  clWaitForEvents(1, &ev);
  const cl_int status = eventStatus(ev);
  clReleaseEvent(ev);
  return status;
}

}  // namespace

TEST_CASE("SVM: the device reports coarse- and fine-grained buffer SVM and SVM atomics", "[opencl][svm]") {
  cl_device_svm_capabilities caps = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr) == CL_SUCCESS);
  CHECK(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS));
  cl_device_atomic_capabilities atomics = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof atomics, &atomics, nullptr) ==
          CL_SUCCESS);
  CHECK((atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0);
}

TEST_CASE("SVM: a kernel follows a linked list the host built with SVM pointers", "[opencl][svm]") {
  for (cl_svm_mem_flags grain : {cl_svm_mem_flags(0), cl_svm_mem_flags(CL_MEM_SVM_FINE_GRAIN_BUFFER)}) {
    constexpr int n = 50;
    // The nodes in two allocations, linked across them in a scrambled order.
    auto* a = static_cast<Node*>(clSVMAlloc(fx().ctx, CL_MEM_READ_ONLY | grain, n * sizeof(Node), 0));
    auto* b = static_cast<Node*>(clSVMAlloc(fx().ctx, CL_MEM_READ_ONLY | grain, n * sizeof(Node), 0));
    auto* out = static_cast<cl_int*>(clSVMAlloc(fx().ctx, CL_MEM_WRITE_ONLY | grain, 8 * sizeof(cl_int), 0));
    REQUIRE((a && b && out));
    if (!grain) REQUIRE(clEnqueueSVMMap(fx().q, CL_TRUE, CL_MAP_WRITE, a, n * sizeof(Node), 0, nullptr, nullptr) == 0);
    int expected = 0;
    Node* prev = nullptr;
    for (int i = 0; i < 2 * n; ++i) {
      Node* node = (i % 2 ? b : a) + (i / 2 * 7) % n;  // 7 is coprime to 50: each node once per allocation
      node->value = i * i - 40;
      node->next = prev;
      expected += node->value;
      prev = node;
    }
    if (!grain) REQUIRE(clEnqueueSVMUnmap(fx().q, a, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = svm().kernel("sum_list");
    REQUIRE(clSetKernelArgSVMPointer(k, 0, prev) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, out) == CL_SUCCESS);
    void* reachable[] = {a, b};
    REQUIRE(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reachable, reachable) == CL_SUCCESS);
    REQUIRE(launch(k, 8) == CL_SUCCESS);
    for (int i = 0; i < 8; ++i) CHECK(out[i] == expected + i);
    clReleaseKernel(k);
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(out)}) clSVMFree(fx().ctx, p);
  }
}

TEST_CASE("SVM: pointers a kernel stores are host pointers", "[opencl][svm]") {
  auto* base = static_cast<cl_int*>(clSVMAlloc(fx().ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(cl_int), 0));
  auto* slots = static_cast<cl_int**>(clSVMAlloc(fx().ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 16 * sizeof(void*), 0));
  REQUIRE((base && slots));
  cl_kernel k = svm().kernel("store_pointers");
  REQUIRE(clSetKernelArgSVMPointer(k, 0, base) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, slots) == CL_SUCCESS);
  REQUIRE(launch(k, 16) == CL_SUCCESS);
  for (int i = 0; i < 16; ++i) CHECK(slots[i] == base + 3 * i);
  clReleaseKernel(k);
  clSVMFree(fx().ctx, base);
  clSVMFree(fx().ctx, slots);
}

TEST_CASE("SVM: a buffer over SVM gives the kernel SVM pointers", "[opencl][svm]") {
  // clCreateBuffer with CL_MEM_USE_HOST_PTR over an SVM allocation: the kernel's pointers into the buffer are the
  // host's addresses (the CTS's svm_cross_buffer_pointers follows them on the host).
  auto* base = static_cast<cl_int*>(clSVMAlloc(fx().ctx, 0, 64 * sizeof(cl_int), 0));
  auto* slots = static_cast<cl_int**>(clSVMAlloc(fx().ctx, 0, 16 * sizeof(void*), 0));
  REQUIRE((base && slots));
  cl_int e;
  cl_mem baseBuf = clCreateBuffer(fx().ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int), base, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_buffer_region region{32 * sizeof(cl_int), 32 * sizeof(cl_int)};  // 128 bytes in: CL_DEVICE_MEM_BASE_ADDR_ALIGN
  cl_mem sub = clCreateSubBuffer(baseBuf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_kernel k = svm().kernel("store_pointers");
  for (cl_mem m : {baseBuf, sub}) {
    REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, slots) == CL_SUCCESS);
    REQUIRE(launch(k, m == sub ? 11 : 16) == CL_SUCCESS);
    cl_int* start = m == sub ? base + 32 : base;
    for (int i = 0; i < (m == sub ? 11 : 16); ++i) CHECK(slots[i] == start + 3 * i);
  }
  clReleaseKernel(k);
  clReleaseMemObject(sub);
  clReleaseMemObject(baseBuf);
  clSVMFree(fx().ctx, base);
  clSVMFree(fx().ctx, slots);
}

TEST_CASE("SVM: fine-grained memory between kernels, the commands, and buffers over SVM", "[opencl][svm]") {
  constexpr int n = 256;
  auto* p = static_cast<cl_int*>(clSVMAlloc(fx().ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof(cl_int), 0));
  REQUIRE(p);
  const cl_int pattern = 5;
  REQUIRE(clEnqueueSVMMemFill(fx().q, p, &pattern, sizeof pattern, n * sizeof(cl_int), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clFinish(fx().q) == CL_SUCCESS);
  for (int i = 0; i < n; ++i) REQUIRE(p[i] == 5);
  cl_kernel k = svm().kernel("scale");
  const cl_int three = 3;
  // An argument pointing into the middle of the allocation: the kernel scales the second half only.
  REQUIRE(clSetKernelArgSVMPointer(k, 0, p + n / 2) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof three, &three) == CL_SUCCESS);
  REQUIRE(launch(k, n / 2) == CL_SUCCESS);
  for (int i = 0; i < n; ++i) CHECK(p[i] == (i < n / 2 ? 5 : 15));
  // The host writes between commands without mapping (fine grain), then copies with clEnqueueSVMMemcpy.
  for (int i = 0; i < n; ++i) p[i] = i - 100;
  std::vector<cl_int> host(n, 0);
  REQUIRE(clEnqueueSVMMemcpy(fx().q, CL_TRUE, host.data(), p, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
  for (int i = 0; i < n; ++i) CHECK(host[i] == i - 100);
  // A buffer over the SVM allocation shares its storage.
  cl_int e;
  cl_mem m = clCreateBuffer(fx().ctx, CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), p, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_bool uses = CL_FALSE;
  REQUIRE(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  cl_buffer_region region{64 * sizeof(cl_int), 64 * sizeof(cl_int)};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
  REQUIRE(e == CL_SUCCESS);
  uses = CL_FALSE;
  REQUIRE(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  REQUIRE(clGetMemObjectInfo(fx().buf, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_FALSE);
  REQUIRE(clSetKernelArg(k, 0, sizeof sub, &sub) == CL_SUCCESS);
  REQUIRE(launch(k, 64) == CL_SUCCESS);
  for (int i = 0; i < n; ++i) CHECK(p[i] == (i >= 64 && i < 128 ? 3 * (i - 100) : i - 100));
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  // clEnqueueSVMFree without a callback frees it; with one, the callback gets the list.
  void* list[] = {p};
  cl_event ev;
  REQUIRE(clEnqueueSVMFree(fx().q, 1, list, nullptr, nullptr, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_SVM_FREE);
  clReleaseEvent(ev);
  // Freed: no longer a valid argument.
  cl_kernel k2 = svm().kernel("scale");
  CHECK(clSetKernelArgSVMPointer(k2, 0, p) == CL_INVALID_ARG_VALUE);
  clReleaseKernel(k2);
  void* q = clSVMAlloc(fx().ctx, 0, 32, 0);
  struct Seen {
    cl_uint n = 0;
    void* first = nullptr;
  } seen;
  void* list2[] = {q};
  REQUIRE(clEnqueueSVMFree(
              fx().q, 1, list2,
              [](cl_command_queue, cl_uint num, void* ptrs[], void* data) {
                auto* s = static_cast<Seen*>(data);
                s->n = num;
                s->first = ptrs[0];
              },
              &seen, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx().q) == CL_SUCCESS);
  CHECK(seen.n == 1);
  CHECK(seen.first == q);
  clSVMFree(fx().ctx, q);  // the callback did not free it
}

TEST_CASE("SVM: a kernel's bad SVM access is a fault naming the allocation", "[opencl][svm]") {
  auto* p = static_cast<cl_int*>(clSVMAlloc(fx().ctx, CL_MEM_READ_ONLY, 16 * sizeof(cl_int), 0));
  auto* out = static_cast<cl_int*>(clSVMAlloc(fx().ctx, 0, sizeof(cl_int), 0));
  REQUIRE((p && out));
  cl_kernel w = svm().kernel("write_at"), r = svm().kernel("read_at");
  auto readAt = [&](cl_int i) {
    clSetKernelArgSVMPointer(r, 0, p);
    clSetKernelArg(r, 1, sizeof i, &i);
    clSetKernelArgSVMPointer(r, 2, out);
    return launch(r, 1);
  };
  p[15] = 77;
  CHECK(readAt(15) == CL_SUCCESS);
  CHECK(*out == 77);
  CHECK(readAt(16) == CL_OUT_OF_RESOURCES);  // one past the end: the guard page, not another allocation
  CHECK(readAt(-1) == CL_OUT_OF_RESOURCES);  // before the start
  // CL_MEM_READ_ONLY: a kernel's write is undefined, a fault by default (choice svm_read_only_write).
  const cl_int zero = 0;
  clSetKernelArgSVMPointer(w, 0, p);
  clSetKernelArg(w, 1, sizeof zero, &zero);
  CHECK(launch(w, 1) == CL_OUT_OF_RESOURCES);
  CHECK(p[0] == 0);  // fresh SVM is zero-filled, and the refused write did not happen
  // A freed allocation: an argument set before the free faults when the kernel uses it.
  clSetKernelArgSVMPointer(w, 0, out);
  clSVMFree(fx().ctx, out);
  CHECK(launch(w, 1) == CL_OUT_OF_RESOURCES);
  clReleaseKernel(w);
  clReleaseKernel(r);
  clSVMFree(fx().ctx, p);
}
