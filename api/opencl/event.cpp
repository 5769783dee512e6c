// OpenCL 3.0 API §5.11 [[event-objects]] Event Objects, §5.12 [[markers-barriers-waiting-for-events]] Markers, Barriers
// and Waiting, §5.15 [[profiling-operations]] Profiling.
#include "api/opencl/device_info.hpp"

using namespace clref::cl;

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clWaitForEvents: CL_INVALID_VALUE if num_events is 0 or event_list is NULL;
  // CL_INVALID_EVENT if event objects in event_list are not valid; CL_INVALID_CONTEXT if they
  // do not belong to the same context.
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; ++i)
    if (!validEvent(event_list[i])) return CL_INVALID_EVENT;
  for (cl_uint i = 1; i < num_events; ++i)
    if (event_list[i]->context != event_list[0]->context) return CL_INVALID_CONTEXT;
  std::vector<cl_event> events(event_list, event_list + num_events);
  for (cl_event e : events) retainInternal(e);
  apiCondition().wait(lock.lock(), [&] {
    for (cl_event e : events)
      if (e->status > CL_COMPLETE) return false;
    return true;
  });
  bool failed = false;
  for (cl_event e : events) {
    failed = failed || e->status < 0;
    releaseInternal(e);
  }
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any event is negative
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validEvent(event)) return CL_INVALID_EVENT;
  const InfoOut out{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: return out(event->queue);
    case CL_EVENT_CONTEXT: return out(event->context);
    case CL_EVENT_COMMAND_TYPE: return out(event->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return out(event->status);
    case CL_EVENT_REFERENCE_COUNT: return out(event->refCount);
    default: return CL_INVALID_VALUE;
  }
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_event(nullptr));
  auto* e = new _cl_event();
  e->context = context;
  e->type = CL_COMMAND_USER;
  // OpenCL 3.0 API §5.11 [[event-objects]] clCreateUserEvent: the initial status is CL_SUBMITTED
  e->status = CL_SUBMITTED;
  retainInternal(context);
  registerObject(e);
  return withError(errcode_ret, CL_SUCCESS, cl_event(e));
} catch (...) { return clref::cl::failedCall<cl_event>(errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clSetUserEventStatus: CL_INVALID_EVENT if event is not a valid user event;
  // CL_INVALID_VALUE if execution_status is not CL_COMPLETE or a negative integer;
  // CL_INVALID_OPERATION if the status has already been changed.
  if (!validEvent(event) || event->queue || event->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0) return CL_INVALID_VALUE;
  if (event->status != CL_SUBMITTED) return CL_INVALID_OPERATION;
  setEventStatus(event, execution_status);
  drainAll();
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) try {
  ApiLock lock;
  if (!validEvent(event)) return CL_INVALID_EVENT;
  retainExternal(event);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) try {
  ApiLock lock;
  if (!validEvent(event)) return CL_INVALID_EVENT;
  releaseExternal(event);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*),
                                                   void* user_data) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clSetEventCallback: CL_INVALID_EVENT; CL_INVALID_VALUE if pfn_event_notify
  // is NULL or command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE.
  if (!validEvent(event)) return CL_INVALID_EVENT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
      command_exec_callback_type != CL_COMPLETE)
    return CL_INVALID_VALUE;
  event->callbacks.push_back({command_exec_callback_type, pfn_notify, user_data, false});
  // Already reached (or failed): call now (after the lock is released).
  if (event->status <= command_exec_callback_type) {
    auto& cb = event->callbacks.back();
    cb.done = true;
    retainInternal(event);
    const cl_int reported = event->status < 0 ? event->status : command_exec_callback_type;
    deferCallback([event, pfn_notify, user_data, reported] {
      pfn_notify(event, reported, user_data);
      ApiLock relock;
      releaseInternal(event);
    });
  }
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                                        size_t param_value_size, void* param_value,
                                                        size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validEvent(event)) return CL_INVALID_EVENT;
  // OpenCL 3.0 API §5.15 [[profiling-operations]] clGetEventProfilingInfo: CL_PROFILING_INFO_NOT_AVAILABLE if the queue
  // does not have CL_QUEUE_PROFILING_ENABLE, if event is a user event, or if the command has not completed.
  if (!event->queue || !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE) || event->status != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  const InfoOut out{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: return out(event->queued);
    case CL_PROFILING_COMMAND_SUBMIT: return out(event->submit);
    case CL_PROFILING_COMMAND_START: return out(event->start);
    case CL_PROFILING_COMMAND_END: return out(event->end);
    case CL_PROFILING_COMMAND_COMPLETE: return out(event->end);  // no child commands
    default: return CL_INVALID_VALUE;
  }
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

// ---- OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] markers, barriers, waits: no work; their wait lists
// order them in the queue --------

namespace {
cl_int markerOrBarrier(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event* list, cl_event* event) {
  ApiLock lock;
  if (!validQueue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (cl_int e = checkWaitList(q->context, n, list)) return e;
  // In an in-order queue a marker/barrier without a wait list waits for every previous command,
  // which the queue order already gives.
  return enqueue(lock, q, type, n, list, event, nullptr);
}
}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) try {
  return markerOrBarrier(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) try {
  return markerOrBarrier(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) try {
  {
    ApiLock lock;
    if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  }
  // OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] (1.1) clEnqueueMarker: CL_INVALID_VALUE if event is
  // NULL
  if (!event) return CL_INVALID_VALUE;
  return markerOrBarrier(command_queue, CL_COMMAND_MARKER, 0, nullptr, event);
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) try {
  return markerOrBarrier(command_queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) try {
  {
    ApiLock lock;
    if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
    // OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] (1.1) clEnqueueWaitForEvents: CL_INVALID_VALUE if
    // num_events is 0 or event_list is NULL; CL_INVALID_EVENT if event objects are not valid; CL_INVALID_CONTEXT on
    // mismatch.
    if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; ++i) {
      if (!validEvent(event_list[i])) return CL_INVALID_EVENT;
      if (event_list[i]->context != command_queue->context) return CL_INVALID_CONTEXT;
    }
  }
  return markerOrBarrier(command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }
