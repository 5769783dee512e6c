// OpenCL 3.0 API §5.11 [[event-objects]] Event Objects, §5.12 [[markers-barriers-waiting-for-events]] Markers, Barriers
// and Waiting, §5.15 [[profiling-operations]] Profiling.
#include "icd/device_info.hpp"

using namespace clref::cl;

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clWaitForEvents: CL_INVALID_VALUE if num_events is 0 or event_list is NULL;
  // CL_INVALID_EVENT if event objects in event_list are not valid; CL_INVALID_CONTEXT if they
  // do not belong to the same context.
  if (num_events == 0) return apiError(__func__, CL_INVALID_VALUE, "num_events is 0");
  if (!event_list) return apiError(__func__, CL_INVALID_VALUE, "event_list is NULL");
  for (cl_uint i = 0; i < num_events; ++i)
    if (!validEvent(event_list[i]))
      return apiError(__func__, CL_INVALID_EVENT, "event_list[{}] is {}, not a valid event", i, event_list[i]);
  for (cl_uint i = 1; i < num_events; ++i)
    if (event_list[i]->context != event_list[0]->context)
      return apiError(__func__, CL_INVALID_CONTEXT, "event_list[{}] belongs to context {}, event_list[0] to context {}",
                      i, event_list[i]->context, event_list[0]->context);
  std::vector<cl_event> events(event_list, event_list + num_events);
  for (cl_event e : events) retainInternal(e);
  apiCondition().wait(lock.lock(), [&] {
    for (cl_event e : events)
      if (e->status > CL_COMPLETE) return false;
    return true;
  });
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any event is negative
  cl_uint failed = num_events;
  for (cl_uint i = num_events; i-- > 0;)
    if (events[i]->status < 0) failed = i;
  const cl_int status = failed < num_events ? events[failed]->status : CL_COMPLETE;
  for (cl_event e : events) releaseInternal(e);
  if (failed < num_events)
    return apiError(__func__, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "event_list[{}] ended with status {}",
                    failed, Status{status});
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: return out(event->queue);
    case CL_EVENT_CONTEXT: return out(event->context);
    case CL_EVENT_COMMAND_TYPE: return out(event->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return out(event->status);
    case CL_EVENT_REFERENCE_COUNT: return out(event->refCount);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no event query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  auto* e = new _cl_event();
  e->context = context;
  e->type = CL_COMMAND_USER;
  // OpenCL 3.0 API §5.11 [[event-objects]] clCreateUserEvent: the initial status is CL_SUBMITTED
  e->status = CL_SUBMITTED;
  retainInternal(context);
  registerObject(e);
  return withError(errcode_ret, CL_SUCCESS, cl_event(e));
} catch (...) { return clref::cl::failedCall<cl_event>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clSetUserEventStatus: CL_INVALID_EVENT if event is not a valid user event;
  // CL_INVALID_VALUE if execution_status is not CL_COMPLETE or a negative integer;
  // CL_INVALID_OPERATION if the status has already been changed.
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  if (event->queue || event->type != CL_COMMAND_USER)
    return apiError(__func__, CL_INVALID_EVENT, "event {} is the event of a command, not a user event", event);
  if (execution_status != CL_COMPLETE && execution_status >= 0)
    return apiError(__func__, CL_INVALID_VALUE, "execution_status is {}, not CL_COMPLETE (0) or a negative error",
                    execution_status);
  if (event->status != CL_SUBMITTED)
    return apiError(__func__, CL_INVALID_OPERATION, "the status of user event {} was already set (to {})", event,
                    Status{event->status});
  setEventStatus(event, execution_status);
  drainAll();
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) try {
  ApiLock lock;
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  retainExternal(event);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) try {
  ApiLock lock;
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  releaseExternal(event);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*),
                                                   void* user_data) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.11 [[event-objects]] clSetEventCallback: CL_INVALID_EVENT; CL_INVALID_VALUE if pfn_event_notify
  // is NULL or command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE.
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  if (!pfn_notify) return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL");
  if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
      command_exec_callback_type != CL_COMPLETE)
    return apiError(__func__, CL_INVALID_VALUE,
                    "command_exec_callback_type is {}, not CL_SUBMITTED (2), CL_RUNNING (1) or CL_COMPLETE (0)",
                    command_exec_callback_type);
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
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                                        size_t param_value_size, void* param_value,
                                                        size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validEvent(event)) return apiError(__func__, CL_INVALID_EVENT, "event {} is not a valid event", event);
  // OpenCL 3.0 API §5.15 [[profiling-operations]] clGetEventProfilingInfo: CL_PROFILING_INFO_NOT_AVAILABLE if the queue
  // does not have CL_QUEUE_PROFILING_ENABLE, if event is a user event, or if the command has not completed.
  if (!event->queue)
    return apiError(__func__, CL_PROFILING_INFO_NOT_AVAILABLE, "event {} is a user event: it has no profiling", event);
  if (!(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
    return apiError(__func__, CL_PROFILING_INFO_NOT_AVAILABLE,
                    "the queue of event {} was not created with CL_QUEUE_PROFILING_ENABLE", event);
  if (event->status != CL_COMPLETE)
    return apiError(__func__, CL_PROFILING_INFO_NOT_AVAILABLE,
                    "the command of event {} has not completed (its status is {})", event, Status{event->status});
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: return out(event->queued);
    case CL_PROFILING_COMMAND_SUBMIT: return out(event->submit);
    case CL_PROFILING_COMMAND_START: return out(event->start);
    case CL_PROFILING_COMMAND_END: return out(event->end);
    // CL_PROFILING_COMMAND_COMPLETE: when the command "and any child commands enqueued by this command on the device"
    // have finished; a kernel's children run inside its own command (device-side enqueue), so that is its end.
    case CL_PROFILING_COMMAND_COMPLETE: return out(event->end);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no profiling query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// ---- OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] markers, barriers, waits: no work; their wait lists
// order them in the queue --------

namespace {
cl_int markerOrBarrier(const char* fn, cl_command_queue q, cl_command_type type, cl_uint n, const cl_event* list,
                       cl_event* event) {
  ApiLock lock;
  if (!validHostQueue(q)) return invalidHostQueue(fn, q);
  if (cl_int e = checkWaitList(fn, q->context, n, list)) return e;
  // In an in-order queue a marker/barrier without a wait list waits for every previous command,
  // which the queue order already gives.
  return enqueue(fn, lock, q, type, n, list, event, nullptr);
}
}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) try {
  return markerOrBarrier(__func__, command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) try {
  return markerOrBarrier(__func__, command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) try {
  {
    ApiLock lock;
    if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  }
  // OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] (1.1) clEnqueueMarker: CL_INVALID_VALUE if event is
  // NULL
  if (!event) return apiError(__func__, CL_INVALID_VALUE, "event is NULL");
  return markerOrBarrier(__func__, command_queue, CL_COMMAND_MARKER, 0, nullptr, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) try {
  return markerOrBarrier(__func__, command_queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) try {
  {
    ApiLock lock;
    if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
    // OpenCL 3.0 API §5.12 [[markers-barriers-waiting-for-events]] (1.1) clEnqueueWaitForEvents: CL_INVALID_VALUE if
    // num_events is 0 or event_list is NULL; CL_INVALID_EVENT if event objects are not valid; CL_INVALID_CONTEXT on
    // mismatch.
    if (num_events == 0) return apiError(__func__, CL_INVALID_VALUE, "num_events is 0");
    if (!event_list) return apiError(__func__, CL_INVALID_VALUE, "event_list is NULL");
    for (cl_uint i = 0; i < num_events; ++i) {
      if (!validEvent(event_list[i]))
        return apiError(__func__, CL_INVALID_EVENT, "event_list[{}] is {}, not a valid event", i, event_list[i]);
      if (event_list[i]->context != command_queue->context)
        return apiError(__func__, CL_INVALID_CONTEXT,
                        "event_list[{}] belongs to context {}, command_queue to context {}", i, event_list[i]->context,
                        command_queue->context);
    }
  }
  return markerOrBarrier(__func__, command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
