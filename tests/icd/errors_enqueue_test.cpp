// Error conditions of the OpenCL 3.0 API: enqueue (see error_table.hpp). The buffer commands
// (OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]]–§5.2.4 [[_mapping_buffer_objects]]), unmap and
// migrate (§5.5.3 [[unmapping-mapped-memory]], §5.5.5 [[_migrating_memory_objects]]), the SVM commands
// (§5.6 [[_shared_virtual_memory]]) and clEnqueueNativeKernel (§5.10 [[_executing_kernels]]). The image commands are in
// errors_image_test.cpp.
//
// clref's device has coarse- and fine-grained buffer SVM (the fixture's fx().svm is an SVM allocation) and no native
// kernels, so every native-kernel command with a valid queue fails: where several listed errors then apply at once
// (the spec allows any), clref reports the argument errors first and otherwise CL_INVALID_OPERATION.
#include <array>

#include "error_table.hpp"

namespace clref_test {
namespace {

// Host memory the commands read, write, fill and copy.
unsigned char* host() {
  alignas(128) static unsigned char h[16384];
  return h;
}

// Objects the cases share beyond the fixture, created on first use and never released.
struct Extra {
  cl_event done = nullptr;  // a complete event of ctx
  Extra() { clEnqueueMarkerWithWaitList(fx().q, 0, nullptr, &done); }
};
Extra& extra() {
  static Extra e;
  return e;
}

// A buffer of ctx created for one case.
struct Buffer {
  cl_mem m;
  explicit Buffer(cl_mem_flags flags, size_t size = 64) : m(clCreateBuffer(fx().ctx, flags, size, nullptr, nullptr)) {}
  ~Buffer() { clReleaseMemObject(m); }
};

// A sub-buffer of fx().buf created for one case (fx().sub is origin 128, size 256).
struct SubBuffer {
  cl_mem m;
  SubBuffer(size_t origin, size_t size) {
    cl_buffer_region r{origin, size};
    m = clCreateSubBuffer(fx().buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, nullptr);
  }
  ~SubBuffer() { clReleaseMemObject(m); }
};

// A user event of ctx whose execution status is an error.
struct FailedEvent {
  cl_event e = clCreateUserEvent(fx().ctx, nullptr);
  FailedEvent() { clSetUserEventStatus(e, -1); }
  ~FailedEvent() { clReleaseEvent(e); }
};

// ---- the conditions every command shares ---------------------------------------------------------

// A command called with the given queue and wait list, its other arguments valid (blocking
// where the command can block).
using Call = std::function<cl_int(cl_command_queue, cl_uint, const cl_event*)>;

// The shared conditions of one reference page.
struct Shared {
  std::string page;
  int eventContext = 0;            // rank of "context of command_queue and events differ" (0: not listed)
  bool oneWaitListBullet = false;  // the three wait-list situations are one bullet
  bool blocking = false;           // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:1 is tested
};

std::string id(const std::string& page, const char* code, int n) { return page + ":" + code + ":" + std::to_string(n); }

// Invalid queue, the wait-list errors, events of another context, a failed event before a
// blocking command.
void addShared(std::vector<ErrorCase>& v, const Shared& s, const Call& call) {
  const int list2 = s.oneWaitListBullet ? 1 : 2, list3 = s.oneWaitListBullet ? 1 : 3;
  v.push_back({id(s.page, "CL_INVALID_COMMAND_QUEUE", 1), [call] { return call(kBadQueue, 0, nullptr); }});
  v.push_back({id(s.page, "CL_INVALID_EVENT_WAIT_LIST", 1), [call] { return call(fx().q, 1, nullptr); }});
  v.push_back({id(s.page, "CL_INVALID_EVENT_WAIT_LIST", list2), [call] { return call(fx().q, 0, &extra().done); }});
  v.push_back({id(s.page, "CL_INVALID_EVENT_WAIT_LIST", list3), [call] { return call(fx().q, 1, &kBadEvent); }});
  if (s.eventContext)
    v.push_back({id(s.page, "CL_INVALID_CONTEXT", s.eventContext), [call] { return call(fx().q, 1, &fx().ev2); }});
  if (s.blocking)
    v.push_back({id(s.page, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", 1), [call] {
                   FailedEvent failed;
                   return call(fx().q, 1, &failed.e);
                 }});
}

// ---- buffer commands ---------------------------------------------------------------------------

cl_int readOrWrite(bool read, cl_command_queue q, cl_mem m, size_t offset, size_t size, void* ptr, cl_uint n = 0,
                   const cl_event* list = nullptr) {
  return read ? clEnqueueReadBuffer(q, m, CL_TRUE, offset, size, ptr, n, list, nullptr)
              : clEnqueueWriteBuffer(q, m, CL_TRUE, offset, size, ptr, n, list, nullptr);
}

// clEnqueueReadBuffer's page lists clEnqueueWriteBuffer's conditions too: each case runs both.
void readWriteBufferCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueReadBuffer";
  for (bool read : {true, false}) {
    addShared(v, {page, 2, false, true}, [read](cl_command_queue q, cl_uint n, const cl_event* l) {
      return readOrWrite(read, q, fx().buf, 0, 16, host(), n, l);
    });
    v.push_back(
        {id(page, "CL_INVALID_CONTEXT", 1), [read] { return readOrWrite(read, fx().q, fx().ctx2buf, 0, 16, host()); }});
    v.push_back(
        {id(page, "CL_INVALID_MEM_OBJECT", 1), [read] { return readOrWrite(read, fx().q, kBadMem, 0, 16, host()); }});
    v.push_back(
        {id(page, "CL_INVALID_MEM_OBJECT", 1), [read] { return readOrWrite(read, fx().q, nullptr, 0, 16, host()); }});
    v.push_back(
        {id(page, "CL_INVALID_VALUE", 1), [read] { return readOrWrite(read, fx().q, fx().buf, 4090, 16, host()); }});
    v.push_back(
        {id(page, "CL_INVALID_VALUE", 1), [read] { return readOrWrite(read, fx().q, fx().sub, 250, 16, host()); }});
    v.push_back(
        {id(page, "CL_INVALID_VALUE", 2), [read] { return readOrWrite(read, fx().q, fx().buf, 0, 16, nullptr); }});
  }
  // CL_INVALID_OPERATION:1 reading a HOST_WRITE_ONLY or HOST_NO_ACCESS buffer, :2 writing a
  // HOST_READ_ONLY or HOST_NO_ACCESS one
  v.push_back({id(page, "CL_INVALID_OPERATION", 1),
               [] { return readOrWrite(true, fx().q, fx().hostWriteOnly, 0, 16, host()); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 1),
               [] { return readOrWrite(true, fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, 0, 16, host()); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 2),
               [] { return readOrWrite(false, fx().q, Buffer(CL_MEM_HOST_READ_ONLY).m, 0, 16, host()); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 2),
               [] { return readOrWrite(false, fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, 0, 16, host()); }});
}

// The arguments of clEnqueue{Read,Write}BufferRect after the buffer; by default a valid
// 16 × 4 × 1 region at the origins, tightly packed.
struct RectArgs {
  std::array<size_t, 3> bufferOrigin{0, 0, 0}, hostOrigin{0, 0, 0}, region{16, 4, 1};
  size_t bufferRow = 0, bufferSlice = 0, hostRow = 0, hostSlice = 0;
  bool nullBufferOrigin = false, nullHostOrigin = false, nullRegion = false, nullPtr = false;
};

cl_int rect(bool read, cl_command_queue q, cl_mem m, const RectArgs& a, cl_uint n = 0, const cl_event* list = nullptr) {
  const size_t* bo = a.nullBufferOrigin ? nullptr : a.bufferOrigin.data();
  const size_t* ho = a.nullHostOrigin ? nullptr : a.hostOrigin.data();
  const size_t* r = a.nullRegion ? nullptr : a.region.data();
  void* p = a.nullPtr ? nullptr : host();
  return read ? clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, r, a.bufferRow, a.bufferSlice, a.hostRow, a.hostSlice, p,
                                        n, list, nullptr)
              : clEnqueueWriteBufferRect(q, m, CL_TRUE, bo, ho, r, a.bufferRow, a.bufferSlice, a.hostRow, a.hostSlice,
                                         p, n, list, nullptr);
}

void readWriteBufferRectCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueReadBufferRect";
  auto add = [&](bool read, int n, cl_mem (*mem)(), RectArgs a, const char* code = "CL_INVALID_VALUE") {
    v.push_back({id(page, code, n), [=] { return rect(read, fx().q, mem(), a); }});
  };
  auto buf = [] { return fx().buf; };
  for (bool read : {true, false}) {
    addShared(v, {page, 2, false, true}, [read](cl_command_queue q, cl_uint n, const cl_event* l) {
      return rect(read, q, fx().buf, RectArgs{}, n, l);
    });
    add(
        read, 1, [] { return fx().ctx2buf; }, {}, "CL_INVALID_CONTEXT");
    add(
        read, 1, [] { return kBadMem; }, {}, "CL_INVALID_MEM_OBJECT");
    RectArgs a;
    a.nullBufferOrigin = true;
    add(read, 1, buf, a);
    a = {};
    a.nullHostOrigin = true;
    add(read, 1, buf, a);
    a = {};
    a.nullRegion = true;
    add(read, 1, buf, a);
    a = {};
    a.region = {16, 16, 17};  // 4352 bytes of a 4096-byte buffer
    add(read, 2, buf, a);
    a = {};
    a.bufferOrigin = {0, 0, 64};  // slice 64 of 64-byte slices: byte 4096
    add(read, 2, buf, a);
    a = {};
    a.region = {16, 0, 1};
    add(read, 3, buf, a);
    a = {};
    a.bufferRow = 8;  // < region[0]
    add(read, 4, buf, a);
    a = {};
    a.bufferRow = 16, a.bufferSlice = 32;  // < region[1] * 16, a multiple of 16
    add(read, 5, buf, a);
    a = {};
    a.bufferRow = 16, a.bufferSlice = 72;  // >= region[1] * 16, not a multiple of 16
    add(read, 6, buf, a);
    a = {};
    a.hostRow = 8;
    add(read, 7, buf, a);
    a = {};
    a.hostRow = 16, a.hostSlice = 32;
    add(read, 8, buf, a);
    a = {};
    a.hostRow = 16, a.hostSlice = 72;
    add(read, 9, buf, a);
    a = {};
    a.nullPtr = true;
    add(read, 10, buf, a);
  }
  add(
      true, 1, [] { return fx().hostWriteOnly; }, {}, "CL_INVALID_OPERATION");
  v.push_back(
      {id(page, "CL_INVALID_OPERATION", 1), [] { return rect(true, fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, {}); }});
  v.push_back(
      {id(page, "CL_INVALID_OPERATION", 2), [] { return rect(false, fx().q, Buffer(CL_MEM_HOST_READ_ONLY).m, {}); }});
  v.push_back(
      {id(page, "CL_INVALID_OPERATION", 2), [] { return rect(false, fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, {}); }});
}

cl_int copy(cl_mem src, cl_mem dst, size_t srcOffset, size_t dstOffset, size_t size) {
  return clEnqueueCopyBuffer(fx().q, src, dst, srcOffset, dstOffset, size, 0, nullptr, nullptr);
}

void copyBufferCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueCopyBuffer";
  addShared(v, {page, 3}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueCopyBuffer(q, fx().buf, fx().buf2, 0, 0, 16, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return copy(fx().ctx2buf, fx().buf, 0, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 2), [] { return copy(fx().buf, fx().ctx2buf, 0, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return copy(kBadMem, fx().buf, 0, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 2), [] { return copy(fx().buf, kBadMem, 0, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return copy(fx().buf, fx().buf2, 4000, 0, 200); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return copy(fx().buf, fx().buf2, 0, 4000, 200); }});
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 1), [] { return copy(fx().buf, fx().buf, 0, 8, 64); }});
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 1), [] { return copy(fx().sub, fx().sub, 64, 0, 128); }});
  // sub covers bytes 128..383 of buf, the sub-buffer bytes 256..511: 256..319 against 288..351
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 2), [] { return copy(fx().sub, SubBuffer(256, 256).m, 128, 32, 64); }});
  // buf's bytes 100..163 against sub's 0..63 (buf's 128..191): a buffer and its sub-buffer
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 3), [] { return copy(fx().buf, fx().sub, 100, 0, 64); }});
}

// The arguments of clEnqueueCopyBufferRect after the buffers; by default a valid 16 × 4 × 1
// region at the origins, tightly packed.
struct CopyRectArgs {
  std::array<size_t, 3> srcOrigin{0, 0, 0}, dstOrigin{0, 0, 0}, region{16, 4, 1};
  size_t srcRow = 0, srcSlice = 0, dstRow = 0, dstSlice = 0;
  bool nullSrcOrigin = false, nullDstOrigin = false, nullRegion = false;
};

cl_int copyRect(cl_command_queue q, cl_mem src, cl_mem dst, const CopyRectArgs& a, cl_uint n = 0,
                const cl_event* list = nullptr) {
  return clEnqueueCopyBufferRect(
      q, src, dst, a.nullSrcOrigin ? nullptr : a.srcOrigin.data(), a.nullDstOrigin ? nullptr : a.dstOrigin.data(),
      a.nullRegion ? nullptr : a.region.data(), a.srcRow, a.srcSlice, a.dstRow, a.dstSlice, n, list, nullptr);
}

void copyBufferRectCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueCopyBufferRect";
  auto add = [&](const char* code, int n, cl_mem (*src)(), cl_mem (*dst)(), CopyRectArgs a) {
    v.push_back({id(page, code, n), [=] { return copyRect(fx().q, src(), dst(), a); }});
  };
  auto buf = [] { return fx().buf; };
  auto buf2 = [] { return fx().buf2; };
  addShared(v, {page, 3}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return copyRect(q, fx().buf, fx().buf2, {}, n, l);
  });
  add("CL_INVALID_CONTEXT", 1, [] { return fx().ctx2buf; }, buf, {});
  add("CL_INVALID_CONTEXT", 2, buf, [] { return fx().ctx2buf; }, {});
  add("CL_INVALID_MEM_OBJECT", 1, [] { return kBadMem; }, buf, {});
  add("CL_INVALID_MEM_OBJECT", 2, buf, [] { return kBadMem; }, {});
  CopyRectArgs a;
  a.nullSrcOrigin = true;
  add("CL_INVALID_VALUE", 1, buf, buf2, a);
  a = {};
  a.nullDstOrigin = true;
  add("CL_INVALID_VALUE", 1, buf, buf2, a);
  a = {};
  a.nullRegion = true;
  add("CL_INVALID_VALUE", 1, buf, buf2, a);
  a = {};
  a.srcOrigin = {0, 0, 64};  // slice 64 of 64-byte slices: byte 4096
  add("CL_INVALID_VALUE", 2, buf, buf2, a);
  a = {};
  a.dstOrigin = {0, 0, 64};
  add("CL_INVALID_VALUE", 3, buf, buf2, a);
  a = {};
  a.region = {0, 4, 1};
  add("CL_INVALID_VALUE", 4, buf, buf2, a);
  a = {};
  a.srcRow = 8;
  add("CL_INVALID_VALUE", 5, buf, buf2, a);
  a = {};
  a.srcRow = 16, a.srcSlice = 32;
  add("CL_INVALID_VALUE", 6, buf, buf2, a);
  a = {};
  a.srcRow = 16, a.srcSlice = 72;
  add("CL_INVALID_VALUE", 7, buf, buf2, a);
  a = {};
  a.dstRow = 8;
  add("CL_INVALID_VALUE", 8, buf, buf2, a);
  a = {};
  a.dstRow = 16, a.dstSlice = 32;
  add("CL_INVALID_VALUE", 9, buf, buf2, a);
  a = {};
  a.dstRow = 16, a.dstSlice = 72;
  add("CL_INVALID_VALUE", 10, buf, buf2, a);
  // Same buffer, disjoint regions (bytes 0..63 and rows at 128, 160, 192, 224), row pitches differ
  a = {};
  a.srcRow = 16, a.dstRow = 32, a.dstOrigin = {0, 0, 1};
  add("CL_INVALID_VALUE", 11, buf, buf, a);
  // Same buffer, disjoint regions (bytes 0..63 and 256..319), slice pitches differ
  a = {};
  a.srcRow = 16, a.srcSlice = 64, a.dstRow = 16, a.dstSlice = 128, a.dstOrigin = {0, 0, 2};
  add("CL_INVALID_VALUE", 12, buf, buf, a);
  add("CL_MEM_COPY_OVERLAP", 1, buf, buf, {});
  add(
      "CL_MEM_COPY_OVERLAP", 1, [] { return fx().sub; }, [] { return fx().sub; }, {});
  // sub's row 8 (buf's byte 256) against the sub-buffer starting at buf's byte 256
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 2), [] {
                 CopyRectArgs a;
                 a.srcOrigin = {0, 8, 0};
                 return copyRect(fx().q, fx().sub, SubBuffer(256, 256).m, a);
               }});
  // Appendix D's check_copy_overlap: rows of 16 bytes at pitch 32, the destination one row and
  // 8 bytes further on — the blocks overlap and neither fits in the other's gaps (bytes 40..47).
  a = {};
  a.region = {16, 2, 1}, a.srcRow = a.dstRow = 32, a.dstOrigin = {8, 1, 0};
  add("CL_MEM_COPY_OVERLAP", 3, buf, buf, a);
}

cl_int fill(cl_mem m, const void* pattern, size_t patternSize, size_t offset, size_t size) {
  return clEnqueueFillBuffer(fx().q, m, pattern, patternSize, offset, size, 0, nullptr, nullptr);
}

void fillBufferCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueFillBuffer";
  addShared(v, {page, 2}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueFillBuffer(q, fx().buf, host(), 4, 0, 16, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return fill(fx().ctx2buf, host(), 4, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return fill(kBadMem, host(), 4, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return fill(fx().buf, host(), 4, 4092, 8); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return fill(fx().buf, nullptr, 4, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return fill(fx().buf, host(), 0, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] { return fill(fx().buf, host(), 3, 0, 12); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 5), [] { return fill(fx().buf, host(), 256, 0, 256); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 6), [] { return fill(fx().buf, host(), 4, 2, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 7), [] { return fill(fx().buf, host(), 4, 0, 18); }});
}

// Maps (blocking) and, should the map succeed, unmaps again; returns errcode_ret.
cl_int map(cl_command_queue q, cl_mem m, cl_map_flags flags, size_t offset, size_t size, cl_uint n = 0,
           const cl_event* list = nullptr) {
  cl_int e = 12345;
  void* p = clEnqueueMapBuffer(q, m, CL_TRUE, flags, offset, size, n, list, nullptr, &e);
  if (p) clEnqueueUnmapMemObject(q, m, p, 0, nullptr, nullptr);
  return e;
}

// Maps `first` and, while it is mapped, `second`; returns the second map's errcode_ret.
struct MapArgs {
  cl_mem mem;
  cl_map_flags flags;
  size_t offset, size;
};
cl_int mapWhileMapped(MapArgs first, MapArgs second) {
  void* p = clEnqueueMapBuffer(fx().q, first.mem, CL_TRUE, first.flags, first.offset, first.size, 0, nullptr, nullptr,
                               nullptr);
  cl_int e = map(fx().q, second.mem, second.flags, second.offset, second.size);
  clEnqueueUnmapMemObject(fx().q, first.mem, p, 0, nullptr, nullptr);
  clFinish(fx().q);
  return e;
}

void mapBufferCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueMapBuffer";
  addShared(v, {page, 2, false, true}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return map(q, fx().buf, CL_MAP_READ, 0, 16, n, l);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return map(fx().q, fx().ctx2buf, CL_MAP_READ, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return map(fx().q, kBadMem, CL_MAP_READ, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return map(fx().q, fx().buf, CL_MAP_READ, 4000, 200); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return map(fx().q, fx().buf, CL_MAP_READ, 0, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3),
               [] { return map(fx().q, fx().buf, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return map(fx().q, fx().buf, cl_map_flags(1) << 10, 0, 16); }});
  v.push_back(
      {id(page, "CL_INVALID_OPERATION", 1), [] { return map(fx().q, fx().hostWriteOnly, CL_MAP_READ, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 1),
               [] { return map(fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, CL_MAP_READ, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 2),
               [] { return map(fx().q, Buffer(CL_MEM_HOST_READ_ONLY).m, CL_MAP_WRITE, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 2),
               [] { return map(fx().q, Buffer(CL_MEM_HOST_NO_ACCESS).m, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16); }});
  // Overlapping maps where one is for writing: the same buffer, a read map over a write map, and
  // a buffer mapped over its sub-buffer's write map (OpenCL 3.0 API §5.5.4 [[accessing-mapped-regions]]).
  v.push_back({id(page, "CL_INVALID_OPERATION", 4), [] {
                 return mapWhileMapped({fx().buf2, CL_MAP_WRITE, 0, 64}, {fx().buf2, CL_MAP_WRITE, 32, 64});
               }});
  v.push_back(
      {id(page, "CL_INVALID_OPERATION", 4), [] {
         return mapWhileMapped({fx().buf2, CL_MAP_READ, 0, 64}, {fx().buf2, CL_MAP_WRITE_INVALIDATE_REGION, 60, 8});
       }});
  v.push_back({id(page, "CL_INVALID_OPERATION", 4), [] {
                 return mapWhileMapped({fx().sub, CL_MAP_WRITE, 0, 64}, {fx().buf, CL_MAP_READ, 100, 64});
               }});
}

cl_int unmap(cl_command_queue q, cl_mem m, void* p, cl_uint n = 0, const cl_event* list = nullptr) {
  return clEnqueueUnmapMemObject(q, m, p, n, list, nullptr);
}

void unmapMemObjectCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueUnmapMemObject";
  addShared(v, {page, 1, true},
            [](cl_command_queue q, cl_uint n, const cl_event* l) { return unmap(q, fx().buf, host(), n, l); });
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return unmap(fx().q, kBadMem, host()); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return unmap(fx().q, fx().ctx2buf, host()); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return unmap(fx().q, fx().buf, host()); }});
  // A pointer mapped from another buffer, and a pointer already unmapped
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] {
                 void* p =
                     clEnqueueMapBuffer(fx().q, fx().buf2, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, nullptr);
                 cl_int e = unmap(fx().q, fx().buf, p);
                 unmap(fx().q, fx().buf2, p);
                 return e;
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] {
                 void* p =
                     clEnqueueMapBuffer(fx().q, fx().buf2, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, nullptr);
                 unmap(fx().q, fx().buf2, p);
                 return unmap(fx().q, fx().buf2, p);
               }});
}

cl_int migrate(cl_uint num, const cl_mem* mems, cl_mem_migration_flags flags) {
  return clEnqueueMigrateMemObjects(fx().q, num, mems, flags, 0, nullptr, nullptr);
}

void migrateMemObjectsCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueMigrateMemObjects";
  addShared(v, {page, 1, true}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueMigrateMemObjects(q, 1, &fx().buf, 0, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return migrate(1, &fx().ctx2buf, 0); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return migrate(1, &kBadMem, 0); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] {
                 const cl_mem mems[] = {fx().buf, kBadMem};
                 return migrate(2, mems, 0);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return migrate(0, &fx().buf, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return migrate(1, nullptr, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return migrate(1, &fx().buf, cl_mem_migration_flags(1) << 8); }});
}

// ---- SVM commands: fx().svm is an SVM allocation of fx().ctx (4096 bytes) ---------------------------

void svmFreeCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueSVMFree";
  // A callback stands in for the free, so the fixture's allocation stays.
  auto svmFree = [](cl_command_queue q, cl_uint num, void** ptrs, cl_uint n = 0, const cl_event* l = nullptr) {
    return clEnqueueSVMFree(
        q, num, ptrs, [](cl_command_queue, cl_uint, void**, void*) {}, nullptr, n, l, nullptr);
  };
  addShared(v, {page, 0, true}, [svmFree](cl_command_queue q, cl_uint n, const cl_event* l) {
    void* ptrs[] = {fx().svm};
    return svmFree(q, 1, ptrs, n, l);
  });
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [svmFree] {
                 void* ptrs[] = {fx().svm};
                 return svmFree(fx().q, 0, ptrs);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [svmFree] { return svmFree(fx().q, 1, nullptr); }});
}

cl_int svmMemcpy(void* dst, const void* src, size_t size) {
  return clEnqueueSVMMemcpy(fx().q, CL_TRUE, dst, src, size, 0, nullptr, nullptr);
}

void svmMemcpyCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueSVMMemcpy";
  addShared(v, {page, 1, false, true}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueSVMMemcpy(q, CL_TRUE, fx().svm + 1024, fx().svm, 16, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return svmMemcpy(nullptr, fx().svm, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return svmMemcpy(fx().svm, nullptr, 16); }});
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 1), [] { return svmMemcpy(fx().svm + 8, fx().svm, 16); }});
}

cl_int svmFill(void* ptr, const void* pattern, size_t patternSize, size_t size) {
  return clEnqueueSVMMemFill(fx().q, ptr, pattern, patternSize, size, 0, nullptr, nullptr);
}

void svmMemFillCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueSVMMemFill";
  unsigned char* pattern = host() + 8192;
  addShared(v, {page, 1}, [pattern](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueSVMMemFill(q, fx().svm, pattern, 4, 16, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [pattern] { return svmFill(nullptr, pattern, 4, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [pattern] { return svmFill(fx().svm + 2, pattern, 4, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return svmFill(fx().svm, nullptr, 4, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [pattern] { return svmFill(fx().svm, pattern, 0, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 5), [pattern] { return svmFill(fx().svm, pattern, 3, 12); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 6), [pattern] { return svmFill(fx().svm, pattern, 256, 256); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 7), [pattern] { return svmFill(fx().svm, pattern, 4, 18); }});
}

cl_int svmMap(cl_map_flags flags, void* ptr, size_t size) {
  return clEnqueueSVMMap(fx().q, CL_TRUE, flags, ptr, size, 0, nullptr, nullptr);
}

void svmMapUnmapCases(std::vector<ErrorCase>& v) {
  std::string page = "clEnqueueSVMMap";
  addShared(v, {page, 1, false, true}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, fx().svm, 16, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return svmMap(CL_MAP_READ, nullptr, 16); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return svmMap(CL_MAP_READ, fx().svm, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3),
               [] { return svmMap(CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, fx().svm, 16); }});
  page = "clEnqueueSVMUnmap";
  addShared(v, {page, 1}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueSVMUnmap(q, fx().svm, n, l, nullptr);
  });
  v.push_back(
      {id(page, "CL_INVALID_VALUE", 1), [] { return clEnqueueSVMUnmap(fx().q, nullptr, 0, nullptr, nullptr); }});
}

cl_int svmMigrate(cl_uint num, const void** ptrs, const size_t* sizes, cl_mem_migration_flags flags) {
  return clEnqueueSVMMigrateMem(fx().q, num, ptrs, sizes, flags, 0, nullptr, nullptr);
}

void svmMigrateMemCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueSVMMigrateMem";
  static const void* ptrs[1];
  static const void* hostPtrs[] = {host()};
  static const size_t sixteen[] = {16}, tooMany[] = {4096 - 8 + 16};
  addShared(v, {page, 1}, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    ptrs[0] = fx().svm;
    return clEnqueueSVMMigrateMem(q, 1, ptrs, nullptr, 0, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] {
                 ptrs[0] = fx().svm;
                 return svmMigrate(0, ptrs, nullptr, 0);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return svmMigrate(1, nullptr, nullptr, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] {
                 ptrs[0] = fx().svm;
                 return svmMigrate(1, ptrs, nullptr, cl_mem_migration_flags(1) << 8);
               }});
  // 16 bytes of host memory, and a range running past the end of the SVM allocation
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] { return svmMigrate(1, hostPtrs, sixteen, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] {
                 ptrs[0] = fx().svm + 8;
                 return svmMigrate(1, ptrs, tooMany, 0);
               }});
}

// ---- clEnqueueNativeKernel ------------------------------------------------------------------------

void CL_CALLBACK nativeFunction(void*) {}

// The arguments of clEnqueueNativeKernel after the queue; by default one buffer handle in args.
struct NativeArgs {
  void(CL_CALLBACK* userFunc)(void*) = nativeFunction;
  bool nullArgs = false;
  size_t cbArgs = sizeof(cl_mem);
  cl_uint numMemObjects = 1;
  bool nullMemList = false, nullArgsMemLoc = false;
  cl_mem mem = nullptr;  // the one entry of mem_list (NULL: fx().buf)
};

cl_int native(cl_command_queue q, const NativeArgs& a, cl_uint n = 0, const cl_event* list = nullptr) {
  cl_mem args[1] = {nullptr};
  const cl_mem memList[1] = {a.mem ? a.mem : fx().buf};
  const void* argsMemLoc[1] = {&args[0]};
  return clEnqueueNativeKernel(q, a.userFunc, a.nullArgs ? nullptr : args, a.cbArgs, a.numMemObjects,
                               a.nullMemList ? nullptr : memList, a.nullArgsMemLoc ? nullptr : argsMemLoc, n, list,
                               nullptr);
}

void nativeKernelCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueNativeKernel";
  auto add = [&](const char* code, int n, NativeArgs a) {
    v.push_back({id(page, code, n), [a] { return native(fx().q, a); }});
  };
  addShared(v, {page, 1, true}, [](cl_command_queue q, cl_uint n, const cl_event* l) { return native(q, {}, n, l); });
  NativeArgs a;
  a.userFunc = nullptr;
  add("CL_INVALID_VALUE", 1, a);
  a = {};
  a.nullArgs = true;  // cb_args > 0 (and num_mem_objects > 0)
  add("CL_INVALID_VALUE", 2, a);
  a = {};
  a.nullArgs = true, a.cbArgs = 0;  // num_mem_objects > 0 only
  add("CL_INVALID_VALUE", 2, a);
  a = {};
  a.cbArgs = 0;
  add("CL_INVALID_VALUE", 3, a);
  a = {};
  a.nullMemList = true;
  add("CL_INVALID_VALUE", 4, a);
  a = {};
  a.nullArgsMemLoc = true;
  add("CL_INVALID_VALUE", 4, a);
  a = {};
  a.numMemObjects = 0;  // mem_list and args_mem_loc not NULL
  add("CL_INVALID_VALUE", 5, a);
  a = {};
  a.numMemObjects = 0, a.nullMemList = true;  // args_mem_loc not NULL
  add("CL_INVALID_VALUE", 5, a);
  a = {};
  a.mem = kBadMem;
  add("CL_INVALID_MEM_OBJECT", 1, a);
  add("CL_INVALID_OPERATION", 1, {});
  a = {};
  a.nullArgs = true, a.cbArgs = 0, a.numMemObjects = 0, a.nullMemList = a.nullArgsMemLoc = true;
  add("CL_INVALID_OPERATION", 1, a);
}

std::vector<ErrorCase> cases() {
  std::vector<ErrorCase> v;
  for (auto add :
       {readWriteBufferCases, readWriteBufferRectCases, copyBufferCases,        copyBufferRectCases, fillBufferCases,
        mapBufferCases,       unmapMemObjectCases,      migrateMemObjectsCases, svmFreeCases,
        svmMemcpyCases,       svmMemFillCases,          svmMapUnmapCases,       svmMigrateMemCases,  nativeKernelCases})
    add(v);
  return v;
}

// ---- conditions not provoked ---------------------------------------------------------------------

// CL_OUT_OF_HOST_MEMORY of the buffer and SVM commands is provoked (errors_host_memory_test.cpp); the native-kernel
// command never reaches an allocation.
const char* const kHostMemory =
    "the command never reaches an allocation: it needs native kernels, which the device does not support, and "
    "with any arguments fails first (CL_INVALID_OPERATION, tested)";
const char* const kDeviceResources =
    "clref's device is the host: a command needs no device resource beyond host allocations, and a failed allocation "
    "cannot be "
    "provoked from the API";
const char* const kAllocation =
    "a memory object's data store is allocated by clCreateBuffer (host memory); enqueueing allocates none, so only a "
    "failed "
    "allocation, which the API cannot provoke, could cause it";
const char* const kMisaligned =
    "clCreateSubBuffer refuses an origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN of the one device "
    "(clCreateSubBuffer:CL_MISALIGNED_SUB_BUFFER_OFFSET), so every sub-buffer is aligned for the device of any "
    "command-queue";

// The SVM commands' CL_INVALID_OPERATION: the device supports SVM.
const char* const kHasSvm =
    "the device supports SVM (CL_DEVICE_SVM_CAPABILITIES: coarse- and fine-grained buffer), so no command-queue's "
    "device lacks it";

// The resource and allocation failures of a page.
void resources(std::vector<NotTested>& v, const std::string& page, int allocationFailures,
               bool hostMemoryProvoked = false) {
  for (int i = 1; i <= allocationFailures; ++i)
    v.push_back({id(page, "CL_MEM_OBJECT_ALLOCATION_FAILURE", i), Why::DeviceResources, kAllocation});
  v.push_back({id(page, "CL_OUT_OF_RESOURCES", 1), Why::DeviceResources, kDeviceResources});
  if (!hostMemoryProvoked) v.push_back({id(page, "CL_OUT_OF_HOST_MEMORY", 1), Why::HostMemory, kHostMemory});
}

std::vector<NotTested> notTested() {
  std::vector<NotTested> v;
  // buffer commands
  for (const char* page :
       {"clEnqueueReadBuffer", "clEnqueueReadBufferRect", "clEnqueueFillBuffer", "clEnqueueMapBuffer"})
    v.push_back({id(page, "CL_MISALIGNED_SUB_BUFFER_OFFSET", 1), Why::Unreachable, kMisaligned});
  for (const char* page : {"clEnqueueCopyBuffer", "clEnqueueCopyBufferRect"}) {
    v.push_back({id(page, "CL_MISALIGNED_SUB_BUFFER_OFFSET", 1), Why::Unreachable, kMisaligned});
    v.push_back({id(page, "CL_MISALIGNED_SUB_BUFFER_OFFSET", 2), Why::Unreachable, kMisaligned});
  }
  for (const char* page :
       {"clEnqueueReadBuffer", "clEnqueueReadBufferRect", "clEnqueueCopyBuffer", "clEnqueueCopyBufferRect",
        "clEnqueueFillBuffer", "clEnqueueMapBuffer", "clEnqueueMigrateMemObjects"})
    resources(v, page, 1, true);
  v.push_back({"clEnqueueMapBuffer:CL_MAP_FAILURE:1", Why::Unreachable,
               "a buffer's data store is host memory and the mapped pointer is the data store itself (no copy, no "
               "address-space "
               "mapping), so mapping cannot fail"});
  resources(v, "clEnqueueUnmapMemObject", 0, true);

  // SVM commands
  for (const char* page : {"clEnqueueSVMFree", "clEnqueueSVMMemcpy", "clEnqueueSVMMemFill", "clEnqueueSVMMap",
                           "clEnqueueSVMUnmap", "clEnqueueSVMMigrateMem"}) {
    v.push_back({id(page, "CL_INVALID_OPERATION", 1), Why::Unreachable, kHasSvm});
    resources(v, page, 0, true);
  }

  // clEnqueueNativeKernel
  v.push_back(
      {"clEnqueueNativeKernel:CL_INVALID_OPERATION:2", Why::Unsupported,
       "needs SVM pointers among a native kernel's arguments, which are opaque bytes; the device cannot execute "
       "native kernels, so the command returns CL_INVALID_OPERATION "
       "(clEnqueueNativeKernel:CL_INVALID_OPERATION:1, tested)"});
  v.push_back({"clEnqueueNativeKernel:CL_OUT_OF_RESOURCES:1", Why::Unsupported,
               "needs a native kernel to be queued; the device cannot execute native kernels (no "
               "CL_EXEC_NATIVE_KERNEL), so the command "
               "returns CL_INVALID_OPERATION (clEnqueueNativeKernel:CL_INVALID_OPERATION:1, tested)"});
  v.push_back({"clEnqueueNativeKernel:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", Why::DeviceResources, kAllocation});
  v.push_back({"clEnqueueNativeKernel:CL_OUT_OF_RESOURCES:2", Why::DeviceResources, kDeviceResources});
  v.push_back({"clEnqueueNativeKernel:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory, kHostMemory});
  return v;
}

const bool registered = registerErrorTable({"enqueue", cases, notTested()});

}  // namespace
}  // namespace clref_test
