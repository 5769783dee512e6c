// Error conditions of the OpenCL 3.0 API: memory (see error_table.hpp) — buffers and sub-buffers
// (OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]), pipes (§5.4 [[_pipes]]), memory object
// retain/release/callbacks/queries (§5.5 [[_memory_objects_2]]) and SVM allocation
// (§5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]]). Images and samplers: errors_image_test.cpp.
//
// clref's device supports pipes and SVM (the fixture has an SVM allocation, fx().svm), so the conditions of both are
// provoked; only the errors for a device without them are unreachable.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>

#include "error_table.hpp"

namespace clref_test {
namespace {

// Memory an application owns, for host_ptr arguments (never used as storage after a call
// fails; the cases that succeed by mistake release what they created).
void* hostMemory() {
  static std::array<std::byte, 4096> memory{};
  return memory.data();
}

template <class T> T deviceInfo(cl_device_info name) {
  T value{};
  clGetDeviceInfo(fx().device, name, sizeof value, &value, nullptr);
  return value;
}

// A live object of another kind where a memory object is expected (clref checks the kind).
cl_mem queueAsMem() { return reinterpret_cast<cl_mem>(fx().q); }

// Releases a memory object that a call created although it should have failed.
cl_int released(cl_mem m, cl_int code) {
  if (m) clReleaseMemObject(m);
  return code;
}

using Flags = std::initializer_list<cl_mem_flags>;

// ---- OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] clCreateBuffer, clCreateBufferWithProperties
// --------------------------------------

// One way of creating a buffer: clCreateBufferWithProperties shares clCreateBuffer's page and
// conditions, so each condition is provoked through both (the latter with an empty property list).
using CreateBuffer = cl_int (*)(cl_context, cl_mem_flags, size_t, void*);

cl_int viaCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void* host) {
  cl_int code = 12345;
  cl_mem m = clCreateBuffer(c, flags, size, host, &code);
  return released(m, code);
}

cl_int viaCreateBufferWithProperties(cl_context c, cl_mem_flags flags, size_t size, void* host) {
  const cl_mem_properties none[] = {0};
  cl_int code = 12345;
  cl_mem m = clCreateBufferWithProperties(c, none, flags, size, host, &code);
  return released(m, code);
}

void viaBoth(std::vector<ErrorCase>& out, const std::string& id, std::function<cl_int(CreateBuffer)> call) {
  for (CreateBuffer create : {viaCreateBuffer, viaCreateBufferWithProperties})
    out.push_back({id, [=] { return call(create); }});
}

cl_int withProperties(std::vector<cl_mem_properties> props) {
  cl_int code = 12345;
  cl_mem m = clCreateBufferWithProperties(fx().ctx, props.data(), 0, 16, nullptr, &code);
  return released(m, code);
}

void bufferCases(std::vector<ErrorCase>& out) {
  viaBoth(out, "clCreateBuffer:CL_INVALID_CONTEXT:1",
          [](CreateBuffer create) { return create(kBadContext, 0, 16, nullptr); });
  viaBoth(out, "clCreateBuffer:CL_INVALID_CONTEXT:1",
          [](CreateBuffer create) { return create(nullptr, 0, 16, nullptr); });
  viaBoth(out, "clCreateBuffer:CL_INVALID_CONTEXT:1",
          [](CreateBuffer create) { return create(reinterpret_cast<cl_context>(fx().q), 0, 16, nullptr); });

  // No buffer property is defined by the core API: any name is unsupported.
  out.push_back({"clCreateBuffer:CL_INVALID_PROPERTY:1", [] { return withProperties({0x7777, 0, 0}); }});
  out.push_back({"clCreateBuffer:CL_INVALID_PROPERTY:1", [] {
                   return withProperties({CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0});
                 }});

  // Memory Flags table: mutually exclusive flags, unknown bits, and CL_MEM_KERNEL_READ_AND_WRITE
  // (only for clGetSupportedImageFormats).
  for (cl_mem_flags flags :
       Flags{CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
             CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
             CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
             cl_mem_flags(1) << 40, CL_MEM_KERNEL_READ_AND_WRITE})
    viaBoth(out, "clCreateBuffer:CL_INVALID_VALUE:1",
            [=](CreateBuffer create) { return create(fx().ctx, flags, 16, nullptr); });
  for (cl_mem_flags flags :
       Flags{CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR})
    viaBoth(out, "clCreateBuffer:CL_INVALID_VALUE:1",
            [=](CreateBuffer create) { return create(fx().ctx, flags, 16, hostMemory()); });

  viaBoth(out, "clCreateBuffer:CL_INVALID_BUFFER_SIZE:3",
          [](CreateBuffer create) { return create(fx().ctx, 0, 0, nullptr); });
  viaBoth(out, "clCreateBuffer:CL_INVALID_BUFFER_SIZE:4", [](CreateBuffer create) {
    return create(fx().ctx, 0, size_t(deviceInfo<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE)) + 1, nullptr);
  });
  // a buffer over the fixture's 4096-byte SVM allocation, one byte larger than it
  for (cl_mem_flags flags : Flags{CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR})
    viaBoth(out, "clCreateBuffer:CL_INVALID_BUFFER_SIZE:5",
            [=](CreateBuffer create) { return create(fx().ctx, flags, 4097, fx().svm); });

  for (cl_mem_flags flags :
       Flags{CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR})
    viaBoth(out, "clCreateBuffer:CL_INVALID_HOST_PTR:1",
            [=](CreateBuffer create) { return create(fx().ctx, flags, 16, nullptr); });
  for (cl_mem_flags flags : Flags{cl_mem_flags(0), cl_mem_flags(CL_MEM_ALLOC_HOST_PTR)})
    viaBoth(out, "clCreateBuffer:CL_INVALID_HOST_PTR:2",
            [=](CreateBuffer create) { return create(fx().ctx, flags, 16, hostMemory()); });
}

// ---- OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] clCreateSubBuffer
// --------------------------------------------------------------

cl_int subBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type, const void* info) {
  cl_int code = 12345;
  cl_mem m = clCreateSubBuffer(parent, flags, type, info, &code);
  return released(m, code);
}

cl_int subBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_region region) {
  return subBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
}

// A sub-buffer of {0, 64} with `flags` of a fresh 4096-byte parent created with `parentFlags`.
cl_int subBufferOfNew(cl_mem_flags parentFlags, cl_mem_flags flags) {
  cl_int code = 12345;
  cl_mem parent = clCreateBuffer(fx().ctx, parentFlags, 4096, nullptr, &code);
  if (!parent) return code;
  code = subBuffer(parent, flags, {0, 64});
  clReleaseMemObject(parent);
  return code;
}

void subBufferCase(std::vector<ErrorCase>& out, const std::string& id, cl_mem_flags parentFlags, cl_mem_flags flags) {
  out.push_back({id, [=] { return subBufferOfNew(parentFlags, flags); }});
}

void subBufferCases(std::vector<ErrorCase>& out) {
  out.push_back({"clCreateSubBuffer:CL_INVALID_MEM_OBJECT:1", [] { return subBuffer(kBadMem, 0, {0, 16}); }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_MEM_OBJECT:1", [] { return subBuffer(nullptr, 0, {0, 16}); }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_MEM_OBJECT:1", [] { return subBuffer(queueAsMem(), 0, {0, 16}); }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_MEM_OBJECT:2", [] { return subBuffer(fx().sub, 0, {0, 16}); }});

  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:1", CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE);
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:1", CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY);
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:2", CL_MEM_READ_ONLY, CL_MEM_READ_WRITE);
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:2", CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY);
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:3", [] {
                   return subBuffer(fx().hostWriteOnly, CL_MEM_HOST_READ_ONLY, {0, 16});
                 }});
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:4", CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY);
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:5", CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY);
  subBufferCase(out, "clCreateSubBuffer:CL_INVALID_VALUE:5", CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY);
  for (cl_mem_flags flags : Flags{CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR})
    out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:7", [=] { return subBuffer(fx().buf, flags, {0, 16}); }});

  for (cl_buffer_create_type type : {cl_buffer_create_type(0), cl_buffer_create_type(0x9999)})
    out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:8", [=] {
                     cl_buffer_region r{0, 16};
                     return subBuffer(fx().buf, 0, type, &r);
                   }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:9",
                 [] { return subBuffer(fx().buf, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr); }});
  // A region whose end origin + size is not representable (it wraps to a small offset); origin
  // is a multiple of any base address alignment, so only this bullet (and :11) applies.
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:10", [] {
                   return subBuffer(fx().buf, 0, {~size_t(0) & ~size_t(0xffff), 0x20000});
                 }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:11", [] { return subBuffer(fx().buf, 0, {4096 - 128, 256}); }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:11", [] { return subBuffer(fx().buf, 0, {4096, 128}); }});
  out.push_back({"clCreateSubBuffer:CL_INVALID_VALUE:11", [] { return subBuffer(fx().buf, 0, {0, 4097}); }});

  out.push_back({"clCreateSubBuffer:CL_INVALID_BUFFER_SIZE:1", [] { return subBuffer(fx().buf, 0, {0, 0}); }});
  out.push_back({"clCreateSubBuffer:CL_MISALIGNED_SUB_BUFFER_OFFSET:1", [] {
                   const size_t alignBytes = deviceInfo<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
                   return subBuffer(fx().buf, 0, {alignBytes / 2, 16});
                 }});
}

// ---- OpenCL 3.0 API §5.5 [[_memory_objects_2]] memory objects
// ---------------------------------------------------------------------

void CL_CALLBACK ignoreDestruction(cl_mem, void*) {}

void memObjectCases(std::vector<ErrorCase>& out) {
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, queueAsMem}) {
    out.push_back({"clRetainMemObject:CL_INVALID_MEM_OBJECT:1", [=] { return clRetainMemObject(bad()); }});
    out.push_back({"clReleaseMemObject:CL_INVALID_MEM_OBJECT:1", [=] { return clReleaseMemObject(bad()); }});
    out.push_back({"clSetMemObjectDestructorCallback:CL_INVALID_MEM_OBJECT:1",
                   [=] { return clSetMemObjectDestructorCallback(bad(), ignoreDestruction, nullptr); }});
    out.push_back({"clGetMemObjectInfo:CL_INVALID_MEM_OBJECT:1",
                   [=] { return clGetMemObjectInfo(bad(), CL_MEM_SIZE, 0, nullptr, nullptr); }});
  }
  out.push_back({"clSetMemObjectDestructorCallback:CL_INVALID_VALUE:1",
                 [] { return clSetMemObjectDestructorCallback(fx().buf, nullptr, nullptr); }});
  out.push_back({"clGetMemObjectInfo:CL_INVALID_VALUE:1",
                 [] { return clGetMemObjectInfo(fx().buf, 0xdead, 0, nullptr, nullptr); }});
  out.push_back({"clGetMemObjectInfo:CL_INVALID_VALUE:1", [] {
                   char small[4];
                   return clGetMemObjectInfo(fx().buf, CL_MEM_SIZE, sizeof small, small, nullptr);  // a size_t
                 }});
  out.push_back({"clGetMemObjectInfo:CL_INVALID_VALUE:1", [] {
                   cl_uint small;
                   return clGetMemObjectInfo(fx().sub, CL_MEM_FLAGS, sizeof small, &small, nullptr);  // a cl_mem_flags
                 }});
}

// ---- OpenCL 3.0 API §5.4 [[_pipes]] pipes --------------------------------------------------------------------

cl_int createPipe(cl_context c, cl_mem_flags flags = CL_MEM_READ_WRITE, cl_uint packetSize = 4, cl_uint packets = 4,
                  const cl_pipe_properties* props = nullptr) {
  return err([&](cl_int* r) { released(clCreatePipe(c, flags, packetSize, packets, props, r), 0); });
}

cl_mem aPipe() {
  static cl_mem p = clCreatePipe(fx().ctx, 0, 8, 16, nullptr, nullptr);
  return p;
}

void pipeCases(std::vector<ErrorCase>& out) {
  out.push_back({"clCreatePipe:CL_INVALID_CONTEXT:1", [] { return createPipe(kBadContext); }});
  out.push_back({"clCreatePipe:CL_INVALID_CONTEXT:1", [] { return createPipe(nullptr); }});
  for (cl_mem_flags flags :
       Flags{CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR, CL_MEM_HOST_READ_ONLY, cl_mem_flags(1) << 40})
    out.push_back({"clCreatePipe:CL_INVALID_VALUE:1", [=] { return createPipe(fx().ctx, flags); }});
  out.push_back({"clCreatePipe:CL_INVALID_VALUE:2", [] {
                   const cl_pipe_properties props[] = {0};
                   return createPipe(fx().ctx, CL_MEM_READ_WRITE, 4, 4, props);
                 }});
  out.push_back({"clCreatePipe:CL_INVALID_PIPE_SIZE:1", [] { return createPipe(fx().ctx, 0, 0, 4); }});
  out.push_back({"clCreatePipe:CL_INVALID_PIPE_SIZE:1",
                 [] { return createPipe(fx().ctx, 0, deviceInfo<cl_uint>(CL_DEVICE_PIPE_MAX_PACKET_SIZE) + 1, 4); }});
  out.push_back({"clCreatePipe:CL_INVALID_PIPE_SIZE:1", [] { return createPipe(fx().ctx, 0, 4, 0); }});
  for (cl_mem (*notPipe)() : {+[] { return fx().buf; }, +[] { return kBadMem; }, queueAsMem})
    out.push_back({"clGetPipeInfo:CL_INVALID_MEM_OBJECT:1", [=] {
                     cl_uint size;
                     return clGetPipeInfo(notPipe(), CL_PIPE_PACKET_SIZE, sizeof size, &size, nullptr);
                   }});
  out.push_back({"clGetPipeInfo:CL_INVALID_VALUE:1", [] {
                   cl_uint size;
                   return clGetPipeInfo(aPipe(), CL_MEM_SIZE, sizeof size, &size, nullptr);
                 }});
  out.push_back({"clGetPipeInfo:CL_INVALID_VALUE:1", [] {
                   cl_ushort size;
                   return clGetPipeInfo(aPipe(), CL_PIPE_MAX_PACKETS, sizeof size, &size, nullptr);
                 }});
}

std::vector<ErrorCase> cases() {
  std::vector<ErrorCase> out;
  bufferCases(out);
  subBufferCases(out);
  memObjectCases(out);
  pipeCases(out);
  return out;
}

// ---- conditions not provoked ------------------------------------------------------------------

std::vector<NotTested> notTested() {
  std::vector<NotTested> out{
      // clCreateBuffer, clCreateBufferWithProperties
      {"clCreateBuffer:CL_INVALID_PROPERTY:2", Why::Unsupported,
       "no buffer property is supported: the core API defines none, only extensions clref does not report "
       "(cl_khr_external_memory, cl_ext_buffer_device_address); every name is unsupported "
       "(clCreateBuffer:CL_INVALID_PROPERTY:1, tested)"},
      {"clCreateBuffer:CL_INVALID_PROPERTY:3", Why::Unsupported,
       "needs a supported buffer property to repeat: the core API defines none, only extensions clref does not report; "
       "a repeated "
       "unsupported name is clCreateBuffer:CL_INVALID_PROPERTY:1 (tested)"},
      {"clCreateBuffer:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources,
       "a failed allocation of the buffer's storage (clref's device memory is host memory, at most "
       "CL_DEVICE_MAX_MEM_ALLOC_SIZE = "
       "256 MiB per buffer; bad_alloc is mapped to this code but cannot be provoked deterministically)"},
      {"clCreateBuffer:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation of implementation resources"},
      // clCreateSubBuffer
      {"clCreateSubBuffer:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources,
       "a failed allocation of the sub-buffer's data store; clref's sub-buffers alias their parent's storage and "
       "allocate none"},
      {"clCreateSubBuffer:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation of implementation resources"},
      // memory objects
      {"clRetainMemObject:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation; clref's retain only counts"},
      {"clRetainMemObject:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
       "clRetainMemObject allocates nothing on the host (a reference count increment), so it cannot run out of host "
       "memory; checked: "
       "no allocation during the call"},
      {"clReleaseMemObject:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation; clref's release only counts and frees"},
      {"clSetMemObjectDestructorCallback:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation of implementation resources"},
      {"clGetMemObjectInfo:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
       "a failed device-side allocation; clref's query allocates nothing"},
      {"clGetMemObjectInfo:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
       "clGetMemObjectInfo allocates nothing on the host (every answer is a field or a stored array), so it cannot run "
       "out of host "
       "memory; checked: no allocation during a valid call, for every query"},
  };
  out.push_back({"clCreatePipe:CL_INVALID_OPERATION:1", Why::Unreachable,
                 "the device supports pipes (CL_DEVICE_PIPE_SUPPORT CL_TRUE)"});
  out.push_back({"clCreatePipe:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources,
                 "a failed allocation of the pipe's packets (host memory, allocated as kernels write them)"});
  out.push_back({"clCreatePipe:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
                 "a failed device-side allocation of implementation resources"});
  out.push_back({"clGetPipeInfo:CL_OUT_OF_RESOURCES:1", Why::DeviceResources,
                 "a failed device-side allocation; clref's query allocates nothing"});
  out.push_back({"clGetPipeInfo:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
                 "clGetPipeInfo allocates nothing on the host (every answer is a field or a stored array), so it "
                 "cannot run out of host memory"});
  return out;
}

const bool registered = registerErrorTable({"memory", cases, notTested()});

}  // namespace

// OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clSVMAlloc reports failure only by
// returning NULL (no error code), so its "will fail if" list is checked here rather than in the table.
TEST_CASE("clSVMAlloc fails as its list says", "[opencl][errors]") {
  cl_device_svm_capabilities caps = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr) == CL_SUCCESS);
  REQUIRE(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS));
  CHECK(clSVMAlloc(kBadContext, CL_MEM_READ_WRITE, 64, 0) == nullptr);                    // invalid context
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);  // atomics without fine grain
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == nullptr);    // two access flags
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, 0) == nullptr);
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);  // not an SVM memory flag
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE, 0, 0) == nullptr);  // size 0
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE, size_t(deviceInfo<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE)) + 1, 0) ==
        nullptr);                                                       // above CL_DEVICE_MAX_MEM_ALLOC_SIZE
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE, 64, 3) == nullptr);     // alignment not a power of two
  CHECK(clSVMAlloc(fx().ctx, CL_MEM_READ_WRITE, 64, 8192) == nullptr);  // more than a page: not supported
  // and what succeeds: every flag combination the table allows, aligned as asked
  for (cl_svm_mem_flags flags :
       {cl_svm_mem_flags(0), cl_svm_mem_flags(CL_MEM_READ_WRITE), cl_svm_mem_flags(CL_MEM_WRITE_ONLY),
        cl_svm_mem_flags(CL_MEM_READ_ONLY), cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER),
        cl_svm_mem_flags(CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER)})
    for (cl_uint alignment : {0u, 1u, 64u, 128u, 4096u}) {
      void* p = clSVMAlloc(fx().ctx, flags, 100, alignment);
      REQUIRE(p != nullptr);
      CHECK(reinterpret_cast<uintptr_t>(p) % (alignment ? alignment : 128) == 0);
      static_cast<unsigned char*>(p)[99] = 1;  // host memory the host can use at once
      clSVMFree(fx().ctx, p);
    }
}

}  // namespace clref_test
