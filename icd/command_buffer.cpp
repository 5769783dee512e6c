// cl_khr_command_buffer 0.9.8 (OpenCL 3.0 API §5.17 [[_command_buffers]]): command-buffers of one command-queue.
//
// A command is recorded by the clEnqueue* entry point that would enqueue it (with this thread's Recorder set), so the
// spec's rule "returns the errors defined by clEnqueueX except ..." holds by construction and the work it records is
// the work that entry point would queue: kernel arguments are those of record time, as for an enqueue. Enqueuing the
// command-buffer queues that work again, command after command, on the command-buffer's queue (or its substitute),
// each command waiting on the one before, and one last command of type CL_COMMAND_COMMAND_BUFFER_KHR whose event the
// application gets. The queue runs its commands in order, so every sync point is met by the order of recording; the
// sync points are only checked.
#include <cinttypes>

#include "icd/command_buffer_khr.hpp"
#include "icd/objects.hpp"

namespace clref::cl {
// One recorded command: the work the entry point gave the recorder (none for a barrier).
struct RecordedCommand {
  const char* function = nullptr;
  cl_command_type type = 0;
  std::function<cl_int()> work;
  Launch launch;
  std::vector<Object*> perRun;
};
}  // namespace clref::cl

struct _cl_command_buffer_khr : clref::cl::Object {
  _cl_command_buffer_khr() : Object(clref::cl::Kind::CommandBuffer) {}
  cl_context context = nullptr;
  std::vector<cl_command_queue> queues;                      // retained internally
  std::vector<cl_command_buffer_properties_khr> properties;  // as given, with the 0; empty for NULL
  bool finalized = false;
  std::vector<clref::cl::RecordedCommand> commands;  // a command's sync point is its index + 1
};

namespace clref::cl {

Recorder*& recorder() {
  thread_local Recorder* r = nullptr;
  return r;
}

void finalizeCommandBuffer(Object* o) {
  auto* b = static_cast<cl_command_buffer_khr>(o);
  auto queues = std::move(b->queues);
  std::vector<Object*> held;
  for (auto& c : b->commands) held.insert(held.end(), c.perRun.begin(), c.perRun.end());
  entomb(b);
  for (Object* h : held) releaseInternal(h);
  for (cl_command_queue q : queues) releaseInternal(q);
}

namespace {

bool validCommandBuffer(cl_command_buffer_khr b) { return isLive(b, Kind::CommandBuffer); }

cl_int invalidCommandBuffer(const char* fn, cl_command_buffer_khr b) {
  return apiError(fn, CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer {} is not a valid command-buffer",
                  static_cast<const void*>(b));
}

// The queue properties a command-buffer may be enqueued with: those of any host queue (out-of-order queues run in
// order, a valid schedule); none is required.
constexpr cl_command_queue_properties kSupportedQueueProperties =
    CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

// The checks every clCommand*KHR makes before the command's own, without the multi-device extension:
// OpenCL 3.0 API §5.17.5 [[_recording_commands_to_a_command_buffer]] e.g. clCommandCopyBufferKHR "New errors".
cl_int checkRecording(const char* fn, cl_command_buffer_khr b, cl_command_queue q,
                      const cl_command_properties_khr* properties, cl_uint n, const cl_sync_point_khr* list,
                      cl_mutable_command_khr* mutable_handle) {
  // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid command-buffer (checked first, as the CTS expects
  // when command_queue is not NULL either); CL_INVALID_COMMAND_QUEUE if the cl_khr_command_buffer_multi_device
  // extension is not supported and command_queue is not NULL.
  if (!validCommandBuffer(b)) return invalidCommandBuffer(fn, b);
  if (q)
    return apiError(fn, CL_INVALID_COMMAND_QUEUE, "command_queue is {}, not NULL (no multi-device command-buffers)", q);
  // CL_INVALID_OPERATION if command_buffer has been finalized.
  if (b->finalized) return apiError(fn, CL_INVALID_OPERATION, "command_buffer {} has been finalized", b);
  // CL_INVALID_VALUE if values specified in properties are not valid (cl_khr_command_buffer defines none).
  if (properties && properties[0] != 0)
    return apiError(fn, CL_INVALID_VALUE, "properties[0] is {}: no command property is defined", hex(properties[0]));
  // CL_INVALID_VALUE if mutable_handle is not NULL (no cl_khr_command_buffer_mutable_dispatch).
  if (mutable_handle) return apiError(fn, CL_INVALID_VALUE, "mutable_handle is not NULL (no mutable dispatch)");
  // CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and num_sync_points_in_wait_list is > 0, or
  // sync_point_wait_list is not NULL and num_sync_points_in_wait_list is 0, or if synchronization-point objects in
  // sync_point_wait_list are not valid synchronization-points.
  if (!list && n > 0)
    return apiError(fn, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                    "sync_point_wait_list is NULL and num_sync_points_in_wait_list is {}", n);
  if (list && n == 0)
    return apiError(fn, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                    "sync_point_wait_list is not NULL and num_sync_points_in_wait_list is 0");
  for (cl_uint i = 0; i < n; ++i)
    if (list[i] == 0 || list[i] > b->commands.size())
      return apiError(fn, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                      "sync_point_wait_list[{}] is {}, not a sync point of command_buffer {} (1 to {})", i, list[i], b,
                      b->commands.size());
  return CL_SUCCESS;
}

// Records one command into b: the checks above, then `enqueue(queue)` (a clEnqueue* entry point with an empty wait
// list and no event) with this thread's recorder set, which checks the command as that entry point does and hands
// over its work.
template <class Enqueue> cl_int record(const char* fn, cl_command_buffer_khr b, cl_command_queue q,
                                       const cl_command_properties_khr* properties, cl_uint n,
                                       const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                       cl_mutable_command_khr* mutable_handle, const char* entry, Enqueue&& enqueue) {
  cl_command_queue queue;
  {
    ApiLock lock;
    if (cl_int e = checkRecording(fn, b, q, properties, n, list, mutable_handle)) return e;
    queue = b->queues[0];
    retainInternal(b);
  }
  Recorder rec;
  recorder() = &rec;
  cl_int r;
  try {
    r = enqueue(queue);
  } catch (...) {
    recorder() = nullptr;
    ApiLock lock;
    releaseInternal(b);
    throw;
  }
  recorder() = nullptr;
  ApiLock lock;
  if (r == CL_SUCCESS && !b->finalized) {
    RecordedCommand c{entry, rec.type, std::move(rec.work), std::move(rec.launch), rec.perRun};
    b->commands.push_back(std::move(c));
    if (sync_point) *sync_point = cl_sync_point_khr(b->commands.size());
  } else {
    for (Object* o : rec.perRun) releaseInternal(o);
    if (r == CL_SUCCESS)  // finalized by another thread meanwhile
      r = apiError(fn, CL_INVALID_OPERATION, "command_buffer {} has been finalized", b);
  }
  releaseInternal(b);
  return r;
}

// ---- the entry points (reached through clGetExtensionFunctionAddressForPlatform) ------------------------------------

cl_command_buffer_khr CL_API_CALL createCommandBuffer(cl_uint num_queues, const cl_command_queue* queues,
                                                      const cl_command_buffer_properties_khr* properties,
                                                      cl_int* errcode_ret) try {
  static constexpr const char* fn = "clCreateCommandBufferKHR";
  ApiLock lock;
  // OpenCL 3.0 API §5.17.3 [[_creating_command_buffer_objects]] clCreateCommandBufferKHR: CL_INVALID_VALUE if queues
  // is NULL, or (without cl_khr_command_buffer_multi_device) num_queues is not one; CL_INVALID_COMMAND_QUEUE if any
  // command-queue in queues is not a valid command-queue.
  if (!queues) return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "queues is NULL");
  if (num_queues != 1)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "num_queues is {}, not 1 (no multi-device command-buffers)",
                       num_queues);
  if (!validHostQueue(queues[0])) {
    if (errcode_ret) *errcode_ret = invalidHostQueue(fn, queues[0]);
    return nullptr;
  }
  // CL_INVALID_VALUE if values specified in properties are not valid, or if the same property name is specified more
  // than once; CL_INVALID_PROPERTY if they are valid but not supported (CL_COMMAND_BUFFER_FLAGS_KHR: no flag is
  // supported without cl_khr_command_buffer_mutable_dispatch).
  std::vector<cl_command_buffer_properties_khr> props;
  if (properties) {
    bool flagsSeen = false;
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
      if (properties[i] != CL_COMMAND_BUFFER_FLAGS_KHR)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "properties[{}] is {}, not a command-buffer property", i,
                           hex(properties[i]));
      if (flagsSeen)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE,
                           "properties[{}]: CL_COMMAND_BUFFER_FLAGS_KHR is given more than once", i);
      flagsSeen = true;
      // cl.xml's cl_command_buffer_flags_khr: bits 0-2 (simultaneous use, mutable, device-side sync) belong to the
      // layered extensions, which the device does not report; any other bit is no flag at all.
      if (properties[i + 1] & ~cl_command_buffer_properties_khr(0x7))
        return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE,
                           "properties[{}]: CL_COMMAND_BUFFER_FLAGS_KHR {} has bits that are no command-buffer flag",
                           i + 1, hex(properties[i + 1]));
      if (properties[i + 1] != 0)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_PROPERTY,
                           "properties[{}]: CL_COMMAND_BUFFER_FLAGS_KHR {} has flags the device does not support",
                           i + 1, hex(properties[i + 1]));
    }
    props.assign(properties, properties + i + 1);
  }
  auto owned = std::make_unique<_cl_command_buffer_khr>();
  owned->context = queues[0]->context;
  owned->queues.assign(queues, queues + 1);
  owned->properties = std::move(props);
  registerObject(owned.get());
  cl_command_buffer_khr b = owned.release();
  retainInternal(queues[0]);
  return withError(errcode_ret, CL_SUCCESS, b);
} catch (...) { return failedCall<cl_command_buffer_khr>("clCreateCommandBufferKHR", errcode_ret); }

cl_int CL_API_CALL finalizeCommandBuffer(cl_command_buffer_khr command_buffer) try {
  static constexpr const char* fn = "clFinalizeCommandBufferKHR";
  ApiLock lock;
  // OpenCL 3.0 API §5.17.4 [[_enqueuing_a_command_buffer]] clFinalizeCommandBufferKHR: CL_INVALID_COMMAND_BUFFER_KHR,
  // and CL_INVALID_OPERATION if command_buffer is not in the Recording state.
  if (!validCommandBuffer(command_buffer)) return invalidCommandBuffer(fn, command_buffer);
  if (command_buffer->finalized)
    return apiError(fn, CL_INVALID_OPERATION, "command_buffer {} is not in the Recording state (finalized before)",
                    command_buffer);
  command_buffer->finalized = true;
  return CL_SUCCESS;
} catch (...) { return failedCall<cl_int>("clFinalizeCommandBufferKHR", nullptr); }

cl_int CL_API_CALL retainCommandBuffer(cl_command_buffer_khr command_buffer) try {
  ApiLock lock;
  if (!validCommandBuffer(command_buffer)) return invalidCommandBuffer("clRetainCommandBufferKHR", command_buffer);
  retainExternal(command_buffer);
  return CL_SUCCESS;
} catch (...) { return failedCall<cl_int>("clRetainCommandBufferKHR", nullptr); }

cl_int CL_API_CALL releaseCommandBuffer(cl_command_buffer_khr command_buffer) try {
  ApiLock lock;
  if (!validCommandBuffer(command_buffer)) return invalidCommandBuffer("clReleaseCommandBufferKHR", command_buffer);
  releaseExternal(command_buffer);
  return CL_SUCCESS;
} catch (...) { return failedCall<cl_int>("clReleaseCommandBufferKHR", nullptr); }

cl_int CL_API_CALL enqueueCommandBuffer(cl_uint num_queues, cl_command_queue* queues,
                                        cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) try {
  static constexpr const char* fn = "clEnqueueCommandBufferKHR";
  ApiLock lock;
  // OpenCL 3.0 API §5.17.4 [[_enqueuing_a_command_buffer]] clEnqueueCommandBufferKHR: its errors.
  cl_command_buffer_khr b = command_buffer;
  if (!validCommandBuffer(b)) return invalidCommandBuffer(fn, b);
  if (!b->finalized) return apiError(fn, CL_INVALID_OPERATION, "command_buffer {} is not in the Executable state", b);
  if (!queues && num_queues > 0)
    return apiError(fn, CL_INVALID_VALUE, "queues is NULL and num_queues is {}", num_queues);
  if (queues && num_queues == 0) return apiError(fn, CL_INVALID_VALUE, "queues is not NULL and num_queues is 0");
  if (num_queues > 0 && num_queues != b->queues.size())
    return apiError(fn, CL_INVALID_VALUE, "num_queues is {}, command_buffer was created with {}", num_queues,
                    b->queues.size());
  cl_command_queue q = b->queues[0];
  if (num_queues > 0) {
    q = queues[0];
    if (!validHostQueue(q)) return invalidHostQueue(fn, q);
    if (q->device != b->queues[0]->device)
      return apiError(fn, CL_INVALID_DEVICE, "queues[0] has device {}, the command_buffer's queue device {}", q->device,
                      b->queues[0]->device);
    if (q->context != b->context)
      return apiError(fn, CL_INVALID_CONTEXT, "queues[0] has context {}, the command_buffer context {}", q->context,
                      b->context);
  } else if (!validHostQueue(q)) {
    return invalidHostQueue(fn, q);
  }
  if (q->properties & ~kSupportedQueueProperties)
    return apiError(fn, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                    "the queue has properties {}, not all in CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR "
                    "({})",
                    hex(q->properties), hex(kSupportedQueueProperties));
  if (cl_int e = checkWaitList(fn, b->context, num_events_in_wait_list, event_wait_list)) return e;
  // Each command waits on the one before: a command that fails fails the rest, and the last event with them.
  cl_event previous = nullptr;
  for (const RecordedCommand& c : b->commands) {
    if (!c.work && !c.launch) continue;  // a barrier: the queue's order already is one
    const cl_uint n = previous ? 1 : num_events_in_wait_list;
    const cl_event* list = previous ? &previous : event_wait_list;
    cl_event e = nullptr;
    for (Object* o : c.perRun) retainInternal(o);
    try {
      if (c.launch)
        enqueueLaunch(c.function, lock, q, c.type, n, list, &e, c.launch);
      else
        enqueue(c.function, lock, q, c.type, n, list, &e, c.work);
    } catch (...) {
      for (Object* o : c.perRun) releaseInternal(o);
      if (previous) releaseExternal(previous);
      throw;
    }
    if (previous) releaseExternal(previous);
    previous = e;
  }
  const cl_uint n = previous ? 1 : num_events_in_wait_list;
  const cl_event* list = previous ? &previous : event_wait_list;
  cl_event last = nullptr;
  const cl_int r = enqueue(fn, lock, q, CL_COMMAND_COMMAND_BUFFER_KHR, n, list, &last, [] { return CL_SUCCESS; });
  if (previous) releaseExternal(previous);
  if (event)
    *event = last;
  else if (last)
    releaseExternal(last);
  return r;
} catch (...) { return failedCall<cl_int>("clEnqueueCommandBufferKHR", nullptr); }

cl_int CL_API_CALL commandBarrierWithWaitList(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                              const cl_command_properties_khr* properties, cl_uint n,
                                              const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                              cl_mutable_command_khr* mutable_handle) try {
  static constexpr const char* fn = "clCommandBarrierWithWaitListKHR";
  ApiLock lock;
  if (cl_int e = checkRecording(fn, command_buffer, command_queue, properties, n, list, mutable_handle)) return e;
  command_buffer->commands.push_back(RecordedCommand{fn, CL_COMMAND_BARRIER, nullptr, nullptr, {}});
  if (sync_point) *sync_point = cl_sync_point_khr(command_buffer->commands.size());
  return CL_SUCCESS;
} catch (...) { return failedCall<cl_int>("clCommandBarrierWithWaitListKHR", nullptr); }

cl_int CL_API_CALL commandCopyBuffer(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                     const cl_command_properties_khr* properties, cl_mem src_buffer, cl_mem dst_buffer,
                                     size_t src_offset, size_t dst_offset, size_t size, cl_uint n,
                                     const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                     cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandCopyBufferKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueCopyBuffer", [&](cl_command_queue q) {
                  return clEnqueueCopyBuffer(q, src_buffer, dst_buffer, src_offset, dst_offset, size, 0, nullptr,
                                             nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandCopyBufferKHR", nullptr); }

cl_int CL_API_CALL commandCopyBufferRect(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                         const cl_command_properties_khr* properties, cl_mem src_buffer,
                                         cl_mem dst_buffer, const size_t* src_origin, const size_t* dst_origin,
                                         const size_t* region, size_t src_row_pitch, size_t src_slice_pitch,
                                         size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint n,
                                         const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                         cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandCopyBufferRectKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueCopyBufferRect", [&](cl_command_queue q) {
                  return clEnqueueCopyBufferRect(q, src_buffer, dst_buffer, src_origin, dst_origin, region,
                                                 src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, 0,
                                                 nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandCopyBufferRectKHR", nullptr); }

cl_int CL_API_CALL commandCopyBufferToImage(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                            const cl_command_properties_khr* properties, cl_mem src_buffer,
                                            cl_mem dst_image, size_t src_offset, const size_t* dst_origin,
                                            const size_t* region, cl_uint n, const cl_sync_point_khr* list,
                                            cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandCopyBufferToImageKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueCopyBufferToImage", [&](cl_command_queue q) {
                  return clEnqueueCopyBufferToImage(q, src_buffer, dst_image, src_offset, dst_origin, region, 0,
                                                    nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandCopyBufferToImageKHR", nullptr); }

cl_int CL_API_CALL commandCopyImage(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                    const cl_command_properties_khr* properties, cl_mem src_image, cl_mem dst_image,
                                    const size_t* src_origin, const size_t* dst_origin, const size_t* region, cl_uint n,
                                    const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                    cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandCopyImageKHR", command_buffer, command_queue, properties, n, list, sync_point, mutable_handle,
                "clEnqueueCopyImage", [&](cl_command_queue q) {
                  return clEnqueueCopyImage(q, src_image, dst_image, src_origin, dst_origin, region, 0, nullptr,
                                            nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandCopyImageKHR", nullptr); }

cl_int CL_API_CALL commandCopyImageToBuffer(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                            const cl_command_properties_khr* properties, cl_mem src_image,
                                            cl_mem dst_buffer, const size_t* src_origin, const size_t* region,
                                            size_t dst_offset, cl_uint n, const cl_sync_point_khr* list,
                                            cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandCopyImageToBufferKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueCopyImageToBuffer", [&](cl_command_queue q) {
                  return clEnqueueCopyImageToBuffer(q, src_image, dst_buffer, src_origin, region, dst_offset, 0,
                                                    nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandCopyImageToBufferKHR", nullptr); }

cl_int CL_API_CALL commandFillBuffer(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                     const cl_command_properties_khr* properties, cl_mem buffer, const void* pattern,
                                     size_t pattern_size, size_t offset, size_t size, cl_uint n,
                                     const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                     cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandFillBufferKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueFillBuffer", [&](cl_command_queue q) {
                  return clEnqueueFillBuffer(q, buffer, pattern, pattern_size, offset, size, 0, nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandFillBufferKHR", nullptr); }

cl_int CL_API_CALL commandFillImage(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                    const cl_command_properties_khr* properties, cl_mem image, const void* fill_color,
                                    const size_t* origin, const size_t* region, cl_uint n,
                                    const cl_sync_point_khr* list, cl_sync_point_khr* sync_point,
                                    cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandFillImageKHR", command_buffer, command_queue, properties, n, list, sync_point, mutable_handle,
                "clEnqueueFillImage", [&](cl_command_queue q) {
                  return clEnqueueFillImage(q, image, fill_color, origin, region, 0, nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandFillImageKHR", nullptr); }

cl_int CL_API_CALL commandNDRangeKernel(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                        const cl_command_properties_khr* properties, cl_kernel kernel, cl_uint work_dim,
                                        const size_t* global_work_offset, const size_t* global_work_size,
                                        const size_t* local_work_size, cl_uint n, const cl_sync_point_khr* list,
                                        cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) try {
  static constexpr const char* fn = "clCommandNDRangeKernelKHR";
  // clCommandNDRangeKernelKHR: "CL_INVALID_CONTEXT if the context associated with command_buffer and kernel is not
  // the same" (in place of clEnqueueNDRangeKernel's queue/kernel rule, which the recording queue then meets).
  {
    ApiLock lock;
    if (cl_int e = checkRecording(fn, command_buffer, command_queue, properties, n, list, mutable_handle)) return e;
    if (validKernel(kernel) && kernel->program->context != command_buffer->context)
      return apiError(fn, CL_INVALID_CONTEXT, "kernel {} belongs to context {}, command_buffer {} to context {}",
                      kernel, kernel->program->context, command_buffer, command_buffer->context);
  }
  return record(fn, command_buffer, command_queue, properties, n, list, sync_point, mutable_handle,
                "clEnqueueNDRangeKernel", [&](cl_command_queue q) {
                  return clEnqueueNDRangeKernel(q, kernel, work_dim, global_work_offset, global_work_size,
                                                local_work_size, 0, nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandNDRangeKernelKHR", nullptr); }

cl_int CL_API_CALL commandSVMMemcpy(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                    const cl_command_properties_khr* properties, void* dst_ptr, const void* src_ptr,
                                    size_t size, cl_uint n, const cl_sync_point_khr* list,
                                    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandSVMMemcpyKHR", command_buffer, command_queue, properties, n, list, sync_point, mutable_handle,
                "clEnqueueSVMMemcpy", [&](cl_command_queue q) {
                  return clEnqueueSVMMemcpy(q, CL_FALSE, dst_ptr, src_ptr, size, 0, nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandSVMMemcpyKHR", nullptr); }

cl_int CL_API_CALL commandSVMMemFill(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                     const cl_command_properties_khr* properties, void* svm_ptr, const void* pattern,
                                     size_t pattern_size, size_t size, cl_uint n, const cl_sync_point_khr* list,
                                     cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) try {
  return record("clCommandSVMMemFillKHR", command_buffer, command_queue, properties, n, list, sync_point,
                mutable_handle, "clEnqueueSVMMemFill", [&](cl_command_queue q) {
                  return clEnqueueSVMMemFill(q, svm_ptr, pattern, pattern_size, size, 0, nullptr, nullptr);
                });
} catch (...) { return failedCall<cl_int>("clCommandSVMMemFillKHR", nullptr); }

cl_int CL_API_CALL getCommandBufferInfo(cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name,
                                        size_t param_value_size, void* param_value, size_t* param_value_size_ret) try {
  static constexpr const char* fn = "clGetCommandBufferInfoKHR";
  ApiLock lock;
  if (!validCommandBuffer(command_buffer)) return invalidCommandBuffer(fn, command_buffer);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, fn, param_name};
  cl_command_buffer_khr b = command_buffer;
  // OpenCL 3.0 API §5.17.8 [[_command_buffer_queries]] clGetCommandBufferInfoKHR: the command-buffer info table.
  switch (param_name) {
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR: return out(cl_uint(b->queues.size()));
    case CL_COMMAND_BUFFER_QUEUES_KHR: return out(b->queues);
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR: return out(b->refCount);
    case CL_COMMAND_BUFFER_STATE_KHR:
      return out(cl_command_buffer_state_khr(b->finalized ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
                                                          : CL_COMMAND_BUFFER_STATE_RECORDING_KHR));
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR: return out(b->properties);
    case CL_COMMAND_BUFFER_CONTEXT_KHR: return out(b->context);
    default: return apiError(fn, CL_INVALID_VALUE, "param_name {} is not a command-buffer query", hex(param_name));
  }
} catch (...) { return failedCall<cl_int>("clGetCommandBufferInfoKHR", nullptr); }

struct Named {
  const char* name;
  void* fn;
};
template <class F> void* address(F f) { return reinterpret_cast<void*>(f); }
const Named kCommandBufferFunctions[] = {
    {"clCreateCommandBufferKHR", address(&createCommandBuffer)},
    {"clFinalizeCommandBufferKHR", address(&finalizeCommandBuffer)},
    {"clRetainCommandBufferKHR", address(&retainCommandBuffer)},
    {"clReleaseCommandBufferKHR", address(&releaseCommandBuffer)},
    {"clEnqueueCommandBufferKHR", address(&enqueueCommandBuffer)},
    {"clCommandBarrierWithWaitListKHR", address(&commandBarrierWithWaitList)},
    {"clCommandCopyBufferKHR", address(&commandCopyBuffer)},
    {"clCommandCopyBufferRectKHR", address(&commandCopyBufferRect)},
    {"clCommandCopyBufferToImageKHR", address(&commandCopyBufferToImage)},
    {"clCommandCopyImageKHR", address(&commandCopyImage)},
    {"clCommandCopyImageToBufferKHR", address(&commandCopyImageToBuffer)},
    {"clCommandFillBufferKHR", address(&commandFillBuffer)},
    {"clCommandFillImageKHR", address(&commandFillImage)},
    {"clCommandNDRangeKernelKHR", address(&commandNDRangeKernel)},
    {"clCommandSVMMemcpyKHR", address(&commandSVMMemcpy)},
    {"clCommandSVMMemFillKHR", address(&commandSVMMemFill)},
    {"clGetCommandBufferInfoKHR", address(&getCommandBufferInfo)},
};

// Checked at compile time against the entry points' types of cl.xml's revision.
static_assert(std::is_same_v<decltype(&createCommandBuffer), khr::CreateCommandBuffer>);
static_assert(std::is_same_v<decltype(&enqueueCommandBuffer), khr::EnqueueCommandBuffer>);
static_assert(std::is_same_v<decltype(&commandBarrierWithWaitList), khr::CommandBarrierWithWaitList>);
static_assert(std::is_same_v<decltype(&commandCopyBuffer), khr::CommandCopyBuffer>);
static_assert(std::is_same_v<decltype(&commandCopyBufferRect), khr::CommandCopyBufferRect>);
static_assert(std::is_same_v<decltype(&commandCopyBufferToImage), khr::CommandCopyBufferToImage>);
static_assert(std::is_same_v<decltype(&commandCopyImage), khr::CommandCopyImage>);
static_assert(std::is_same_v<decltype(&commandCopyImageToBuffer), khr::CommandCopyImageToBuffer>);
static_assert(std::is_same_v<decltype(&commandFillBuffer), khr::CommandFillBuffer>);
static_assert(std::is_same_v<decltype(&commandFillImage), khr::CommandFillImage>);
static_assert(std::is_same_v<decltype(&commandNDRangeKernel), khr::CommandNDRangeKernel>);
static_assert(std::is_same_v<decltype(&commandSVMMemcpy), khr::CommandSVMMemcpy>);
static_assert(std::is_same_v<decltype(&commandSVMMemFill), khr::CommandSVMMemFill>);
static_assert(std::is_same_v<decltype(&getCommandBufferInfo), khr::GetCommandBufferInfo>);

}  // namespace

void* commandBufferFunction(const char* name) {
  for (const auto& f : kCommandBufferFunctions)
    if (std::strcmp(f.name, name) == 0) return f.fn;
  return nullptr;
}

}  // namespace clref::cl
