// OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]]–§5.2.4 [[_mapping_buffer_objects]] buffer
// commands (read, write, copy, rect, fill, map), §5.5.3 [[unmapping-mapped-memory]] unmap,
// §5.5.5 [[_migrating_memory_objects]] migrate (image commands: image_commands.cpp; SVM commands: svm.cpp).
#include <algorithm>

#include "icd/device_info.hpp"
#include "icd/memory_flags.hpp"

using namespace clref::cl;

namespace {

// A memory object argument and its parameter's name (for the channel "api").
struct NamedMem {
  const char* name;
  cl_mem mem;
};

// The checks every buffer command makes first (OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]]
// and the others): queue, memory object, matching contexts, wait list.
cl_int checkCommand(const char* fn, cl_command_queue q, std::initializer_list<NamedMem> mems, cl_uint n,
                    const cl_event* list) {
  if (!validHostQueue(q)) return invalidHostQueue(fn, q);
  for (const auto& [name, m] : mems) {
    // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object
    if (!validMem(m)) return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is not a valid memory object", name, m);
    if (m->type != CL_MEM_OBJECT_BUFFER)
      return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is {}, not a buffer", name, m, memKindName(m));
    // CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same
    if (m->context != q->context)
      return apiError(fn, CL_INVALID_CONTEXT, "{} belongs to context {}, command_queue to context {}", name, m->context,
                      q->context);
  }
  return checkWaitList(fn, q->context, n, list);
}

// OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]]: the region [offset, offset + size) of a
// command lies in the buffer; the error (CL_INVALID_VALUE) names the parameters.
cl_int outOfBounds(const char* fn, const char* buffer, const char* offsetName, size_t offset, size_t size,
                   size_t total) {
  return apiError(fn, CL_INVALID_VALUE, "{} {} + size {} is beyond the {} bytes of {}", offsetName, offset, size, total,
                  buffer);
}

bool inBounds(size_t offset, size_t size, size_t total) { return offset <= total && size <= total - offset; }

// OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueue{Read,Write}BufferRect: byte offset of
// (x, y, z) in a region with pitches.
struct Rect {
  size_t origin[3], region[3], row, slice;
  size_t offset(size_t x, size_t y, size_t z) const {
    return (origin[2] + z) * slice + (origin[1] + y) * row + origin[0] + x;
  }
  size_t last() const { return offset(region[0] - 1, region[1] - 1, region[2] - 1); }
};

// Fills pitches per OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] (0 means tightly packed) and
// checks them; returns CL_INVALID_VALUE on any of the listed pitch conditions. `side` names the pitches' parameters
// ("buffer", "host", "src", "dst": buffer_row_pitch, ...).
cl_int makeRect(const char* fn, const char* side, const size_t* origin, const size_t* region, size_t row, size_t slice,
                Rect& r) {
  for (int i = 0; i < 3; ++i) {
    r.origin[i] = origin[i];
    r.region[i] = region[i];
    if (region[i] == 0) return apiError(fn, CL_INVALID_VALUE, "region[{}] is 0", i);  // if any region element is 0
  }
  // row pitch not 0 and less than region[0]
  if (row != 0 && row < region[0])
    return apiError(fn, CL_INVALID_VALUE, "{}_row_pitch is {}, less than region[0] ({})", side, row, region[0]);
  r.row = row ? row : region[0];
  // slice pitch not 0 and less than region[1] * row pitch, or not a multiple of the row pitch
  if (slice != 0 && slice < region[1] * r.row)
    return apiError(fn, CL_INVALID_VALUE, "{}_slice_pitch is {}, less than region[1] * row pitch ({} * {})", side,
                    slice, region[1], r.row);
  if (slice != 0 && slice % r.row != 0)
    return apiError(fn, CL_INVALID_VALUE, "{}_slice_pitch is {}, not a multiple of the row pitch ({})", side, slice,
                    r.row);
  r.slice = slice ? slice : region[1] * r.row;
  return CL_SUCCESS;
}

// The rows of a rect a command wrote (for the uninitialised-value checker, host::Buffer::markWritten).
void markRectWritten(clref::host::Buffer& buffer, const Rect& r) {
  for (size_t z = 0; z < r.region[2]; ++z)
    for (size_t y = 0; y < r.region[1]; ++y) buffer.markWritten(r.offset(0, y, z), r.region[0]);
}

void copyRect(std::byte* dst, const Rect& d, const std::byte* src, const Rect& s) {
  for (size_t z = 0; z < s.region[2]; ++z)
    for (size_t y = 0; y < s.region[1]; ++y)
      std::memmove(dst + d.offset(0, y, z), src + s.offset(0, y, z), s.region[0]);
}

}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset, size_t size, void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"buffer", buffer}}, num_events_in_wait_list, event_wait_list))
    return e;
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueReadBuffer: CL_INVALID_VALUE if the
  // region is out of bounds or ptr is NULL (clref accepts size 0 as an empty read).
  if (!inBounds(offset, size, buffer->size))
    return outOfBounds(__func__, "buffer", "offset", offset, size, buffer->size);
  if (!ptr) return apiError(__func__, CL_INVALID_VALUE, "ptr is NULL");
  // CL_INVALID_OPERATION if buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS
  if (hostCannotRead(buffer))
    return apiError(__func__, CL_INVALID_OPERATION, "buffer was created with {}: the host may not read it",
                    hostAccessName(buffer));
  auto data = buffer->buffer;
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_READ_BUFFER, num_events_in_wait_list, event_wait_list, event,
      [=] {
        // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueReadBuffer: ptr may be
        // host_ptr + offset of a CL_MEM_USE_HOST_PTR buffer, i.e. the buffer's own storage; memmove is defined when
        // the two regions are the same or overlap.
        if (size) std::memmove(ptr, data->data() + offset, size);
        return CL_SUCCESS;
      },
      blocking_read);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset, size_t size,
                                                     const void* ptr, cl_uint num_events_in_wait_list,
                                                     const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"buffer", buffer}}, num_events_in_wait_list, event_wait_list))
    return e;
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueWriteBuffer: CL_INVALID_VALUE if the
  // region is out of bounds or ptr is NULL.
  if (!inBounds(offset, size, buffer->size))
    return outOfBounds(__func__, "buffer", "offset", offset, size, buffer->size);
  if (!ptr) return apiError(__func__, CL_INVALID_VALUE, "ptr is NULL");
  // CL_INVALID_OPERATION if buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS
  if (hostCannotWrite(buffer))
    return apiError(__func__, CL_INVALID_OPERATION, "buffer was created with {}: the host may not write it",
                    hostAccessName(buffer));
  auto data = buffer->buffer;
  // A non-blocking write may return before the data is copied, but the application may reuse
  // ptr only after the event completes; copying now (or when the command runs) is both correct.
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_WRITE_BUFFER, num_events_in_wait_list, event_wait_list, event,
      [=] {
        if (size) std::memmove(data->data() + offset, ptr, size);
        data->markWritten(offset, size);
        return CL_SUCCESS;
      },
      blocking_write);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

namespace {
cl_int rectCommand(const char* fn, bool read, cl_command_queue q, cl_mem buffer, cl_bool blocking,
                   const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                   size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                   void* ptr, cl_uint n, const cl_event* list, cl_event* event) {
  ApiLock lock;
  if (cl_int e = checkCommand(fn, q, {{"buffer", buffer}}, n, list)) return e;
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueue{Read,Write}BufferRect:
  // CL_INVALID_VALUE if buffer_origin, host_origin or region is NULL, ptr is NULL, pitches are inconsistent, or the
  // region is out of bounds.
  if (!buffer_origin) return apiError(fn, CL_INVALID_VALUE, "buffer_origin is NULL");
  if (!host_origin) return apiError(fn, CL_INVALID_VALUE, "host_origin is NULL");
  if (!region) return apiError(fn, CL_INVALID_VALUE, "region is NULL");
  if (!ptr) return apiError(fn, CL_INVALID_VALUE, "ptr is NULL");
  Rect b, h;
  if (cl_int e = makeRect(fn, "buffer", buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, b)) return e;
  if (cl_int e = makeRect(fn, "host", host_origin, region, host_row_pitch, host_slice_pitch, h)) return e;
  if (b.last() >= buffer->size)
    return apiError(fn, CL_INVALID_VALUE,
                    "the region at buffer_origin ({}, {}, {}) with its pitches ends at byte {}, beyond the {} bytes "
                    "of buffer",
                    buffer_origin[0], buffer_origin[1], buffer_origin[2], b.last(), buffer->size);
  // CL_INVALID_OPERATION if clEnqueueReadBufferRect is called on a buffer created with CL_MEM_HOST_WRITE_ONLY or
  // CL_MEM_HOST_NO_ACCESS, clEnqueueWriteBufferRect on one created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
  if (read ? hostCannotRead(buffer) : hostCannotWrite(buffer))
    return apiError(fn, CL_INVALID_OPERATION, "buffer was created with {}: the host may not {} it",
                    hostAccessName(buffer), read ? "read" : "write");
  auto data = buffer->buffer;
  auto* host = static_cast<std::byte*>(ptr);
  return enqueue(
      fn, lock, q, read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, n, list, event,
      [=] {
        if (read) {
          copyRect(host, h, data->data(), b);
        } else {
          copyRect(data->data(), b, host, h);
          markRectWritten(*data, b);
        }
        return CL_SUCCESS;
      },
      blocking);
}
}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                        cl_bool blocking_read, const size_t* buffer_origin,
                                                        const size_t* host_origin, const size_t* region,
                                                        size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                        size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) try {
  return rectCommand(__func__, true, command_queue, buffer, blocking_read, buffer_origin, host_origin, region,
                     buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                     num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                         cl_bool blocking_write, const size_t* buffer_origin,
                                                         const size_t* host_origin, const size_t* region,
                                                         size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                         size_t host_row_pitch, size_t host_slice_pitch,
                                                         const void* ptr, cl_uint num_events_in_wait_list,
                                                         const cl_event* event_wait_list, cl_event* event) try {
  return rectCommand(__func__, false, command_queue, buffer, blocking_write, buffer_origin, host_origin, region,
                     buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, const_cast<void*>(ptr),
                     num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

namespace {
// Absolute byte range of a (sub-)buffer in its root buffer, for overlap checks.
std::pair<cl_mem, size_t> root(cl_mem m) {
  return m->parent ? std::pair{m->parent, m->offset} : std::pair{m, size_t(0)};
}
}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                                    cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"src_buffer", src_buffer}, {"dst_buffer", dst_buffer}},
                              num_events_in_wait_list, event_wait_list))
    return e;
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueCopyBuffer: CL_INVALID_VALUE if
  // src_offset, dst_offset, size, src_offset + size or dst_offset + size require accessing elements outside the
  // buffers, or size is 0.
  if (size == 0) return apiError(__func__, CL_INVALID_VALUE, "size is 0");
  if (!inBounds(src_offset, size, src_buffer->size))
    return outOfBounds(__func__, "src_buffer", "src_offset", src_offset, size, src_buffer->size);
  if (!inBounds(dst_offset, size, dst_buffer->size))
    return outOfBounds(__func__, "dst_buffer", "dst_offset", dst_offset, size, dst_buffer->size);
  // CL_MEM_COPY_OVERLAP if src and dst are the same buffer or sub-buffers of the same
  // associated buffer object and the source and destination regions overlap.
  const auto [sr, so] = root(src_buffer);
  const auto [dr, dof] = root(dst_buffer);
  if (sr == dr) {
    const size_t a = so + src_offset, b = dof + dst_offset;
    if (a < b + size && b < a + size)
      return apiError(__func__, CL_MEM_COPY_OVERLAP,
                      "the source bytes [{}, {}) and the destination bytes [{}, {}) overlap in buffer {}", a, a + size,
                      b, b + size, sr);
  }
  auto s = src_buffer->buffer, d = dst_buffer->buffer;
  return enqueue(__func__, lock, command_queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list, event,
                 [=] {
                   std::memmove(d->data() + dst_offset, s->data() + src_offset, size);
                   d->markWritten(dst_offset, size);
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, const size_t* src_origin,
    const size_t* dst_origin, const size_t* region, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"src_buffer", src_buffer}, {"dst_buffer", dst_buffer}},
                              num_events_in_wait_list, event_wait_list))
    return e;
  // OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueCopyBufferRect: CL_INVALID_VALUE for
  // NULL origins/region, zero region elements, inconsistent pitches, out-of-bounds regions.
  if (!src_origin) return apiError(__func__, CL_INVALID_VALUE, "src_origin is NULL");
  if (!dst_origin) return apiError(__func__, CL_INVALID_VALUE, "dst_origin is NULL");
  if (!region) return apiError(__func__, CL_INVALID_VALUE, "region is NULL");
  Rect s, d;
  if (cl_int e = makeRect(__func__, "src", src_origin, region, src_row_pitch, src_slice_pitch, s)) return e;
  if (cl_int e = makeRect(__func__, "dst", dst_origin, region, dst_row_pitch, dst_slice_pitch, d)) return e;
  if (s.last() >= src_buffer->size)
    return apiError(__func__, CL_INVALID_VALUE,
                    "the region at src_origin ({}, {}, {}) with its pitches ends at byte {}, beyond the {} bytes of "
                    "src_buffer",
                    src_origin[0], src_origin[1], src_origin[2], s.last(), src_buffer->size);
  if (d.last() >= dst_buffer->size)
    return apiError(__func__, CL_INVALID_VALUE,
                    "the region at dst_origin ({}, {}, {}) with its pitches ends at byte {}, beyond the {} bytes of "
                    "dst_buffer",
                    dst_origin[0], dst_origin[1], dst_origin[2], d.last(), dst_buffer->size);
  // CL_INVALID_VALUE if src_buffer and dst_buffer are the same object and the pitches differ
  if (src_buffer == dst_buffer && (s.row != d.row || s.slice != d.slice))
    return apiError(__func__, CL_INVALID_VALUE,
                    "src_buffer and dst_buffer are the same buffer and the pitches differ (row {} and {}, slice {} "
                    "and {})",
                    s.row, d.row, s.slice, d.slice);
  // CL_MEM_COPY_OVERLAP if src and dst are the same buffer and the regions overlap (checked
  // byte-exactly: the rows of both regions).
  if (root(src_buffer).first == root(dst_buffer).first) {
    const size_t sb = root(src_buffer).second, db = root(dst_buffer).second;
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t z2 = 0; z2 < region[2]; ++z2)
          for (size_t y2 = 0; y2 < region[1]; ++y2) {
            const size_t a = sb + s.offset(0, y, z), b = db + d.offset(0, y2, z2);
            if (a < b + region[0] && b < a + region[0])
              return apiError(__func__, CL_MEM_COPY_OVERLAP,
                              "source row ({}, {}) at byte {} and destination row ({}, {}) at byte {} of buffer {} "
                              "overlap ({} bytes each)",
                              y, z, a, y2, z2, b, root(src_buffer).first, region[0]);
          }
  }
  auto sbuf = src_buffer->buffer, dbuf = dst_buffer->buffer;
  return enqueue(__func__, lock, command_queue, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list, event_wait_list,
                 event, [=] {
                   copyRect(dbuf->data(), d, sbuf->data(), s);
                   markRectWritten(*dbuf, d);
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                                    size_t pattern_size, size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"buffer", buffer}}, num_events_in_wait_list, event_wait_list))
    return e;
  // OpenCL 3.0 API §5.2.3 [[_filling_buffer_objects]] clEnqueueFillBuffer: CL_INVALID_VALUE if offset/size out of
  // bounds, pattern NULL, pattern_size 0 or not one of {1, 2, 4, 8, 16, 32, 64, 128}, offset or size not a multiple
  // of pattern_size.
  if (!inBounds(offset, size, buffer->size))
    return outOfBounds(__func__, "buffer", "offset", offset, size, buffer->size);
  if (!pattern) return apiError(__func__, CL_INVALID_VALUE, "pattern is NULL");
  if (!validPatternSize(pattern_size))
    return apiError(__func__, CL_INVALID_VALUE, "pattern_size is {}, not one of 1, 2, 4, 8, 16, 32, 64, 128",
                    pattern_size);
  if (offset % pattern_size)
    return apiError(__func__, CL_INVALID_VALUE, "offset {} is not a multiple of pattern_size {}", offset, pattern_size);
  if (size % pattern_size)
    return apiError(__func__, CL_INVALID_VALUE, "size {} is not a multiple of pattern_size {}", size, pattern_size);
  std::vector<std::byte> pat(static_cast<const std::byte*>(pattern),
                             static_cast<const std::byte*>(pattern) + pattern_size);
  auto data = buffer->buffer;
  return enqueue(__func__, lock, command_queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list, event,
                 [=] {
                   for (size_t i = 0; i < size; i += pat.size())
                     std::memcpy(data->data() + offset + i, pat.data(), pat.size());
                   data->markWritten(offset, size);
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event, cl_int* errcode_ret) try {
  ApiLock lock;
  if (cl_int e = checkCommand(__func__, command_queue, {{"buffer", buffer}}, num_events_in_wait_list, event_wait_list))
    return withError(errcode_ret, e, static_cast<void*>(nullptr));
  // OpenCL 3.0 API §5.2.4 [[_mapping_buffer_objects]] clEnqueueMapBuffer: CL_INVALID_VALUE if the region is out of
  // bounds, size is 0, or map_flags are not valid (WRITE_INVALIDATE_REGION is exclusive with READ and WRITE).
  if (size == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "size is 0");
  if (!inBounds(offset, size, buffer->size))
    return withError(errcode_ret, outOfBounds(__func__, "buffer", "offset", offset, size, buffer->size),
                     static_cast<void*>(nullptr));
  if (const char* problem = mapFlagsProblem(map_flags))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "map_flags {}: {}", hex(map_flags), problem);
  // CL_INVALID_OPERATION for CL_MAP_READ on a HOST_WRITE_ONLY/HOST_NO_ACCESS buffer, and for
  // CL_MAP_WRITE(_INVALIDATE_REGION) on a HOST_READ_ONLY/HOST_NO_ACCESS buffer.
  if ((map_flags & CL_MAP_READ) && hostCannotRead(buffer))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                       "map_flags has CL_MAP_READ and buffer was created with {}", hostAccessName(buffer));
  if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && hostCannotWrite(buffer))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                       "map_flags has CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION and buffer was created with {}",
                       hostAccessName(buffer));
  // CL_INVALID_OPERATION if mapping would lead to overlapping regions being mapped for writing
  // (OpenCL 3.0 API §5.5.4 [[accessing-mapped-regions]]: regions of a buffer and its sub-buffers mapped for writing may
  // overlap no other map).
  const bool writing = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  const auto [rootBuffer, base] = root(buffer);
  for (const Mapping& m : rootBuffer->mappings)
    if ((writing || m.writing) && m.offset < base + offset + size && base + offset < m.offset + m.size)
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                         "the region overlaps the mapped region {} (bytes [{}, {}) of buffer {}) and one of the two "
                         "maps is for writing",
                         m.ptr, m.offset, m.offset + m.size, rootBuffer);
  // The buffer's storage is host memory (for CL_MEM_USE_HOST_PTR: host_ptr itself, as OpenCL 3.0 API
  // §5.2.4 [[_mapping_buffer_objects]] requires), so the mapped pointer is the storage itself.
  void* p = buffer->buffer->data() + offset;
  rootBuffer->mappings.reserve(rootBuffer->mappings.size() + 1);  // no failed allocation once the map is enqueued
  cl_int e = enqueue(__func__, lock, command_queue, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list,
                     event, nullptr, blocking_map);
  if (e != CL_SUCCESS) return withError(errcode_ret, e, static_cast<void*>(nullptr));
  ++buffer->mapCount;
  rootBuffer->mappings.push_back({buffer, p, base + offset, size, writing});
  // A region mapped for writing is the host's to write: for the uninitialised-value checker, written.
  if (writing) buffer->buffer->markWritten(offset, size);
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<void*>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  if (!validMem(memobj))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "memobj {} is not a valid memory object", memobj);
  if (memobj->context != command_queue->context)
    return apiError(__func__, CL_INVALID_CONTEXT, "memobj belongs to context {}, command_queue to context {}",
                    memobj->context, command_queue->context);
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.5.3 [[unmapping-mapped-memory]] clEnqueueUnmapMemObject: CL_INVALID_VALUE if mapped_ptr is not a
  // valid pointer returned by clEnqueueMap{Buffer,Image} for memobj.
  auto& mappings = root(memobj).first->mappings;
  auto it = std::find_if(mappings.begin(), mappings.end(),
                         [&](const Mapping& m) { return m.mem == memobj && m.ptr == mapped_ptr; });
  if (it == mappings.end())
    return apiError(__func__, CL_INVALID_VALUE, "mapped_ptr {} is not a pointer a map of memobj {} returned",
                    mapped_ptr, memobj);
  const size_t index = size_t(it - mappings.begin());
  // Enqueue first: if it fails (CL_OUT_OF_HOST_MEMORY) the region stays mapped.
  const cl_int e = enqueue(__func__, lock, command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                           event_wait_list, event, nullptr);
  mappings.erase(mappings.begin() + std::ptrdiff_t(index));
  --memobj->mapCount;
  return e;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  // OpenCL 3.0 API §5.5.5 [[_migrating_memory_objects]] clEnqueueMigrateMemObjects: CL_INVALID_VALUE if num_mem_objects
  // is 0, mem_objects is NULL, or flags is not 0 or a combination of the migration flags; CL_INVALID_MEM_OBJECT;
  // CL_INVALID_CONTEXT.
  if (num_mem_objects == 0) return apiError(__func__, CL_INVALID_VALUE, "num_mem_objects is 0");
  if (!mem_objects) return apiError(__func__, CL_INVALID_VALUE, "mem_objects is NULL");
  if (!validMigrationFlags(flags))
    return apiError(__func__, CL_INVALID_VALUE,
                    "flags {} is not 0 or a combination of CL_MIGRATE_MEM_OBJECT_HOST and "
                    "CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED",
                    hex(flags));
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    if (!validMem(mem_objects[i]))
      return apiError(__func__, CL_INVALID_MEM_OBJECT, "mem_objects[{}] is {}, not a valid memory object", i,
                      mem_objects[i]);
    if (mem_objects[i]->context != command_queue->context)
      return apiError(__func__, CL_INVALID_CONTEXT,
                      "mem_objects[{}] belongs to context {}, command_queue to context {}", i, mem_objects[i]->context,
                      command_queue->context);
  }
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // One memory for host and device: migration moves nothing. CONTENT_UNDEFINED allows keeping
  // the contents, which is what happens.
  return enqueue(__func__, lock, command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
                 event_wait_list, event, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNativeKernel: the argument checks, then CL_INVALID_OPERATION
// since the device cannot execute native kernels (CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL).
CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                                      void(CL_CALLBACK* user_func)(void*), void* args, size_t cb_args,
                                                      cl_uint num_mem_objects, const cl_mem* mem_list,
                                                      const void** args_mem_loc, cl_uint num_events_in_wait_list,
                                                      const cl_event* event_wait_list, cl_event*) try {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // CL_INVALID_VALUE if user_func is NULL; if args is NULL and cb_args > 0 or num_mem_objects >
  // 0; if args is not NULL and cb_args is 0; if num_mem_objects > 0 and mem_list or
  // args_mem_loc is NULL; if num_mem_objects = 0 and mem_list or args_mem_loc is not NULL
  if (!user_func) return apiError(__func__, CL_INVALID_VALUE, "user_func is NULL");
  if (!args && cb_args > 0) return apiError(__func__, CL_INVALID_VALUE, "args is NULL and cb_args is {}", cb_args);
  if (!args && num_mem_objects > 0)
    return apiError(__func__, CL_INVALID_VALUE, "args is NULL and num_mem_objects is {}", num_mem_objects);
  if (args && cb_args == 0) return apiError(__func__, CL_INVALID_VALUE, "args is not NULL and cb_args is 0");
  if (num_mem_objects > 0 && !mem_list)
    return apiError(__func__, CL_INVALID_VALUE, "mem_list is NULL and num_mem_objects is {}", num_mem_objects);
  if (num_mem_objects > 0 && !args_mem_loc)
    return apiError(__func__, CL_INVALID_VALUE, "args_mem_loc is NULL and num_mem_objects is {}", num_mem_objects);
  if (num_mem_objects == 0 && mem_list)
    return apiError(__func__, CL_INVALID_VALUE, "num_mem_objects is 0 and mem_list is not NULL");
  if (num_mem_objects == 0 && args_mem_loc)
    return apiError(__func__, CL_INVALID_VALUE, "num_mem_objects is 0 and args_mem_loc is not NULL");
  // CL_INVALID_MEM_OBJECT if one or more memory objects specified in mem_list are not valid or
  // are not buffer objects (NULL entries are allowed)
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    if (mem_list[i] && !validMem(mem_list[i]))
      return apiError(__func__, CL_INVALID_MEM_OBJECT, "mem_list[{}] is {}, not a valid memory object", i, mem_list[i]);
    if (mem_list[i] && mem_list[i]->type != CL_MEM_OBJECT_BUFFER)
      return apiError(__func__, CL_INVALID_MEM_OBJECT, "mem_list[{}] is {}, not a buffer", i, memKindName(mem_list[i]));
  }
  return apiError(__func__, CL_INVALID_OPERATION,
                  "the device cannot execute native kernels (CL_DEVICE_EXECUTION_CAPABILITIES has no "
                  "CL_EXEC_NATIVE_KERNEL)");
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
