// OpenCL 3.0 API §5.1 [[_command_queues]] Command-Queues, and the in-order execution of enqueued commands.
//
// Commands run synchronously at enqueue time when everything they wait for is complete; a
// command that waits on an incomplete event (a user event, or a command pending in another
// queue) stays in its queue, and so does everything enqueued after it (in-order). When any event
// completes, every queue is drained again. Out-of-order queues are accepted and run in order,
// which is one of the schedules an out-of-order queue allows.
//
// A kernel launch whose context has SVM allocations with CL_MEM_SVM_ATOMICS is the exception: atomics in those
// allocations let the host and the kernel wait for each other while the kernel runs (OpenCL 3.0 API §5.6.2
// [[_memory_consistency_for_svm_allocations]]), so such a launch starts on a thread of its own and runs without the
// API lock, at the same time as the host; the interpreter's atomics are the host's (interpreter/ops_atomic.cpp).
// While it runs no other command starts, on any queue: the device runs one command at a time, and the launch's
// kernel object is its own until it ends. Its event stays CL_RUNNING until then; clFinish and blocking commands wait
// for it as for any other. Everywhere else commands stay synchronous, so faults and diagnostics come in enqueue order.
// A device queue (CL_QUEUE_ON_DEVICE) takes no host
// command: it is what kernels enqueue kernels to (host::DeviceQueue), and those run inside their parent's launch.
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "icd/device_info.hpp"

using namespace clref::cl;
namespace host = clref::host;

namespace clref::cl {

namespace {
std::unordered_set<cl_command_queue>& queues() {
  static std::unordered_set<cl_command_queue> q;
  return q;
}
bool draining = false;
bool drainAgain = false;
size_t concurrentLaunches = 0;  // launches running on threads of their own: no command starts meanwhile

// The end of a command that ran: its event's status, and the references it held.
void endCommand(Command& c, cl_int r) {
  setEventStatus(c.event, r == CL_SUCCESS ? CL_COMPLETE : r);
  for (cl_event w : c.waits) releaseInternal(w);
  releaseInternal(c.event);
}

// Runs a command's part that needs no API lock; its exception, if any, is kept for the part that does.
std::function<cl_int()> launchUnlocked(const Launch& launch, std::exception_ptr& failure) {
  try {
    return launch();
  } catch (...) {
    failure = std::current_exception();
    return nullptr;
  }
}

// The status of a command whose part under the lock is `finish` (or whose unlocked part threw `failure`). An exception
// (a failed allocation) ends the command with an error status instead of leaving its event running forever; the log
// names the entry point that enqueued it.
cl_int finishCommand(const char* function, const std::function<cl_int()>& finish, std::exception_ptr failure) {
  try {
    if (failure) std::rethrow_exception(failure);
    return finish ? finish() : CL_SUCCESS;
  } catch (...) { return currentExceptionCode(function); }
}

// Starts c, the launch just taken off q's front, on a thread of its own; false (c as it was) when no thread can be
// made.
bool startConcurrently(cl_command_queue q, Command& c) {
  auto owned = std::make_shared<Command>(std::move(c));
  retainInternal(q);
  try {
    std::thread([q, owned] {
      std::exception_ptr failure;
      const std::function<cl_int()> finish = launchUnlocked(owned->launch, failure);
      ApiLock lock;
      endCommand(*owned, finishCommand(owned->function, finish, failure));
      q->running = false;
      --concurrentLaunches;
      releaseInternal(q);
      drainAll();
      apiCondition().notify_all();
    }).detach();
  } catch (const std::system_error&) {
    c = std::move(*owned);
    releaseInternal(q);
    return false;
  }
  q->running = true;
  ++concurrentLaunches;
  return true;
}
// drainAll's copy of queues(), kept with room for every queue (reserved by makeQueue): draining
// must not allocate, or a failed allocation (CL_OUT_OF_HOST_MEMORY) in the middle of an API call
// would leave `draining` set and no queue would ever run a command again.
std::vector<cl_command_queue>& drainList() {
  static std::vector<cl_command_queue> v;
  return v;
}

// Runs the runnable prefix of q's pending commands; true when something ran (or started on its own thread).
bool drainQueue(cl_command_queue q) {
  bool progress = false;
  while (!q->pending.empty() && concurrentLaunches == 0) {
    auto& cmd = q->pending.front();
    bool failedDependency = false;
    for (cl_event w : cmd.waits) {
      if (w->status > CL_COMPLETE) return progress;  // still queued/submitted/running
      if (w->status < 0) failedDependency = true;
    }
    Command c = std::move(cmd);
    q->pending.pop_front();
    setEventStatus(c.event, CL_SUBMITTED);
    if (failedDependency) {
      // OpenCL 3.0 API §5.11 [[event-objects]] event wait lists: a command whose wait list contains a failed event does
      // not run; its status becomes CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (negative).
      endCommand(c, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      progress = true;
      continue;
    }
    setEventStatus(c.event, CL_RUNNING);
    if (c.launch && q->context->svmAtomicAllocations > 0 && startConcurrently(q, c)) return true;
    cl_int r;
    if (c.launch) {
      std::exception_ptr failure;
      const std::function<cl_int()> finish = launchUnlocked(c.launch, failure);
      r = finishCommand(c.function, finish, failure);
    } else {
      r = finishCommand(c.function, c.work, nullptr);
    }
    endCommand(c, r);
    progress = true;
  }
  return progress;
}
}  // namespace

void drainAll() {
  // Re-entrant calls (an event completing inside a drain) only ask the running drain to loop.
  if (draining) {
    drainAgain = true;
    return;
  }
  draining = true;
  do {
    drainAgain = false;
    // Hold every queue while draining: completing a command may drop the last reference to a
    // queue (its events held it).
    std::vector<cl_command_queue>& qs = drainList();  // no allocation: capacity reserved by makeQueue
    qs.assign(queues().begin(), queues().end());
    for (cl_command_queue q : qs) retainInternal(q);
    for (cl_command_queue q : qs) drainAgain = drainQueue(q) || drainAgain;
    for (cl_command_queue q : qs) releaseInternal(q);
  } while (drainAgain);
  draining = false;
}

void setEventStatus(cl_event e, cl_int status) {
  // OpenCL 3.0 API §5.11 [[event-objects]]: a status only moves towards CL_COMPLETE (or to an error), once per state.
  if (e->status <= CL_COMPLETE) return;
  // The calls of the callbacks that become due are made (allocated) before any change: a failed
  // allocation (CL_OUT_OF_HOST_MEMORY) leaves the event as it was.
  std::vector<std::function<void()>> calls;
  for (const auto& cb : e->callbacks) {
    if (cb.done || !(status <= cb.trigger)) continue;
    auto fn = cb.fn;
    void* data = cb.data;
    const cl_int reported = status < 0 ? status : cb.trigger;
    calls.push_back([e, fn, data, reported] {
      fn(e, reported, data);
      ApiLock lock;
      releaseInternal(e);
    });
  }
  reserveDeferred(calls.size());
  e->status = status;
  const cl_ulong t = nowNs();
  if (status == CL_SUBMITTED) e->submit = t;
  if (status == CL_RUNNING) e->start = t;
  if (status <= CL_COMPLETE) {
    e->end = t;
    if (!e->start) e->start = t;
    if (!e->submit) e->submit = t;
  }
  // OpenCL 3.0 API §5.11 [[event-objects]] clSetEventCallback: called when the status reaches the registered state, or
  // the command terminates abnormally (then with the error code).
  for (auto& cb : e->callbacks) {
    if (cb.done || !(status <= cb.trigger)) continue;
    cb.done = true;
    retainInternal(e);  // the callback receives a valid event
  }
  for (auto& call : calls) deferCallback(std::move(call));  // no allocation: room reserved
  apiCondition().notify_all();
}

cl_int checkWaitList(const char* fn, cl_context context, cl_uint n, const cl_event* list) {
  // OpenCL 3.0 API §5.11 [[event-objects]] (every clEnqueue*): CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL
  // and num_events_in_wait_list > 0, or event_wait_list is not NULL and num_events_in_wait_list is
  // 0, or event objects in event_wait_list are not valid events.
  if (!list && n > 0)
    return apiError(fn, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list is NULL and num_events_in_wait_list is {}", n);
  if (list && n == 0)
    return apiError(fn, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list is not NULL and num_events_in_wait_list is 0");
  for (cl_uint i = 0; i < n; ++i) {
    if (!validEvent(list[i]))
      return apiError(fn, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[{}] is {}, not a valid event", i, list[i]);
    // CL_INVALID_CONTEXT if the context associated with command_queue and events in
    // event_wait_list are not the same
    if (context && list[i]->context != context)
      return apiError(fn, CL_INVALID_CONTEXT, "event_wait_list[{}] belongs to context {}, command_queue to context {}",
                      i, list[i]->context, context);
  }
  return CL_SUCCESS;
}

namespace {
cl_int enqueueCommand(const char* fn, ApiLock& lock, cl_command_queue q, cl_command_type type, cl_uint n,
                      const cl_event* list, cl_event* eventOut, std::function<cl_int()> work, Launch launch,
                      bool blocking) {
  // Recording into a command-buffer: the checks are done, the work is kept (command_buffer.cpp).
  if (Recorder* r = recorder()) {
    r->work = std::move(work);
    r->launch = std::move(launch);
    r->type = type;
    r->recorded = true;
    return CL_SUCCESS;
  }
  // Every allocation before any change: if one fails (CL_OUT_OF_HOST_MEMORY) nothing is queued,
  // registered or retained, and `work` is dropped without running.
  auto owned = std::make_unique<_cl_event>();
  cl_event e = owned.get();
  e->context = q->context;
  e->queue = q;
  e->type = type;
  e->status = CL_QUEUED;
  e->queued = nowNs();
  Command c;
  c.function = fn;
  c.event = e;
  c.waits.assign(list, list + n);
  c.work = std::move(work);
  c.launch = std::move(launch);
  q->pending.push_back(std::move(c));
  try {
    registerObject(e);
  } catch (...) {
    q->pending.pop_back();
    throw;
  }
  owned.release();
  retainInternal(q);
  retainInternal(q->context);
  retainInternal(e);
  for (cl_uint i = 0; i < n; ++i) retainInternal(list[i]);
  drainAll();
  cl_int result = CL_SUCCESS;
  if (blocking) {
    apiCondition().wait(lock.lock(), [e] { return e->status <= CL_COMPLETE; });
    // e.g. OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]] clEnqueueReadBuffer:
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the operation is blocking and the execution status of any event
    // in the wait list is negative.
    if (e->status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
      cl_uint failed = 0;
      while (failed + 1 < n && list[failed]->status >= 0) ++failed;
      result = apiError(fn, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                        "the command is blocking and event_wait_list[{}] ended with status {}", failed,
                        Status{list[failed]->status});
    }
  }
  if (eventOut)
    *eventOut = e;
  else
    releaseExternal(e);
  return result;
}
}  // namespace

cl_int enqueue(const char* fn, ApiLock& lock, cl_command_queue q, cl_command_type type, cl_uint n, const cl_event* list,
               cl_event* eventOut, std::function<cl_int()> work, bool blocking) {
  return enqueueCommand(fn, lock, q, type, n, list, eventOut, std::move(work), nullptr, blocking);
}

cl_int enqueueLaunch(const char* fn, ApiLock& lock, cl_command_queue q, cl_command_type type, cl_uint n,
                     const cl_event* list, cl_event* eventOut, Launch launch) {
  return enqueueCommand(fn, lock, q, type, n, list, eventOut, nullptr, std::move(launch), false);
}

void forgetQueue(cl_command_queue q) { queues().erase(q); }

void waitQueueEmpty(ApiLock& lock, cl_command_queue q) {
  retainInternal(q);
  apiCondition().wait(lock.lock(), [q] { return q->pending.empty() && !q->running; });
  releaseInternal(q);
}

}  // namespace clref::cl

namespace {

// `deviceQueue`: the host API's queue of a device queue (CL_QUEUE_ON_DEVICE), null for a host queue.
cl_command_queue makeQueue(cl_context context, cl_device_id device, cl_command_queue_properties props,
                           std::vector<cl_queue_properties> array,
                           std::shared_ptr<host::DeviceQueue> deviceQueue = nullptr) {
  // Every allocation before any change, so that a failed one (CL_OUT_OF_HOST_MEMORY) leaves
  // nothing half-made; drainAll's list gets room for the new queue (drainAll must not allocate).
  auto owned = std::make_unique<_cl_command_queue>();
  cl_command_queue q = owned.get();
  q->context = context;
  q->device = device;
  q->properties = props;
  q->propertyArray = std::move(array);
  q->deviceQueue = std::move(deviceQueue);
  // A device queue never holds a host command: there is nothing to drain.
  if (!q->deviceQueue) {
    drainList().reserve(queues().size() + 1);
    queues().insert(q);
  }
  try {
    registerObject(q);
  } catch (...) {
    queues().erase(q);
    throw;
  }
  retainInternal(context);
  return owned.release();
}

constexpr cl_command_queue_properties kHostQueueProperties =
    CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
constexpr cl_command_queue_properties kKnownQueueProperties =
    kHostQueueProperties | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

// Whether `device` has device queues (DeviceConfig::deviceEnqueue: CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES).
bool deviceQueuesSupported(cl_device_id device) { return device->device.config().deviceEnqueue; }

// OpenCL 3.0 API §5.1 [[_command_queues]] clCreateCommandQueueWithProperties with CL_QUEUE_ON_DEVICE (its properties
// already checked, and supported by the device): a new device queue of `size` bytes (none given:
// CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE), or the default device queue that exists.
cl_int makeDeviceQueue(const char* fn, cl_context context, cl_device_id device, cl_command_queue_properties props,
                       std::optional<cl_queue_properties> size, std::vector<cl_queue_properties> array,
                       cl_command_queue& made) {
  // CL_QUEUE_SIZE "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE": a larger one is not valid
  // (CL_INVALID_VALUE: values specified in properties are not valid).
  if (size && *size > host::kDeviceQueueMaxSize)
    return apiError(fn, CL_INVALID_VALUE, "CL_QUEUE_SIZE is {}, more than CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE ({})",
                    *size, host::kDeviceQueueMaxSize);
  auto& queues = context->deviceQueuesOf(device);
  // CL_QUEUE_ON_DEVICE_DEFAULT's footnote: "There can only be one default device queue for each device within a
  // context. If a default device queue has already been created, calling clCreateCommandQueueWithProperties with
  // CL_QUEUE_PROPERTIES set to CL_QUEUE_ON_DEVICE and CL_QUEUE_ON_DEVICE_DEFAULT will return the default device queue
  // that has already been created and increment its reference count by 1."
  if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && queues.defaultQueue) {
    retainExternal(queues.defaultQueue);
    made = queues.defaultQueue;
    return CL_SUCCESS;
  }
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_MAX_ON_DEVICE_QUEUES: "The maximum number of device
  // queues that can be created for this device in a single context". The error list names no code for one more;
  // the device has no resources for it: CL_OUT_OF_RESOURCES ("a failure to allocate resources required by the OpenCL
  // implementation on the device"). The default device queue is not counted: the conformance suite (device_queue)
  // creates CL_DEVICE_MAX_ON_DEVICE_QUEUES queues while the default one exists, and conformant devices make them.
  const cl_uint others = queues.live - (queues.defaultQueue ? 1 : 0);
  if (others >= host::kMaxOnDeviceQueues)
    return apiError(fn, CL_OUT_OF_RESOURCES,
                    "device {} has the default device queue and {} others in context {}, "
                    "CL_DEVICE_MAX_ON_DEVICE_QUEUES; release one first",
                    device, others, context);
  auto hostQueue = std::make_shared<host::DeviceQueue>(size.value_or(host::kDeviceQueuePreferredSize),
                                                       (props & CL_QUEUE_PROFILING_ENABLE) != 0);
  made = makeQueue(context, device, props, std::move(array), std::move(hostQueue));
  ++queues.live;
  if (props & CL_QUEUE_ON_DEVICE_DEFAULT) queues.defaultQueue = made;
  return CL_SUCCESS;
}

}  // namespace

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                             const cl_queue_properties* properties,
                                                                             cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.1 [[_command_queues]] clCreateCommandQueueWithProperties
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // CL_INVALID_DEVICE if device is not a valid device or is not associated with context
  if (!validDevice(device))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  if (!context->hasDevice(device))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device {} is not a device of context {}", device,
                       context);
  cl_command_queue_properties props = 0;
  std::optional<cl_queue_properties> size;
  std::vector<cl_queue_properties> array;
  if (properties) {
    bool seenProps = false, seenSize = false;
    for (size_t i = 0; properties[i] != 0; i += 2) {
      const cl_queue_properties name = properties[i], value = properties[i + 1];
      if (name == CL_QUEUE_PROPERTIES && !seenProps) {
        seenProps = true;
        props = value;
        // CL_INVALID_VALUE if values specified in properties are not valid
        if (props & ~kKnownQueueProperties)
          return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                             "CL_QUEUE_PROPERTIES is {}: bits {} are no cl_command_queue_properties", hex(props),
                             hex(props & ~kKnownQueueProperties));
        // CL_QUEUE_ON_DEVICE requires CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; _DEFAULT requires _ON_DEVICE
        if ((props & CL_QUEUE_ON_DEVICE) && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
          return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                             "CL_QUEUE_PROPERTIES {} has CL_QUEUE_ON_DEVICE without "
                             "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE",
                             hex(props));
        if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE))
          return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                             "CL_QUEUE_PROPERTIES {} has CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE",
                             hex(props));
      } else if (name == CL_QUEUE_SIZE && !seenSize) {
        seenSize = true;
        size = value;  // only valid with CL_QUEUE_ON_DEVICE: checked once CL_QUEUE_PROPERTIES is known
      } else if (name == CL_QUEUE_PROPERTIES || name == CL_QUEUE_SIZE) {
        return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "properties[{}] gives {} a second time", i,
                           name == CL_QUEUE_SIZE ? "CL_QUEUE_SIZE" : "CL_QUEUE_PROPERTIES");
      } else {
        return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                           "properties[{}] is {}, not a queue property (CL_QUEUE_PROPERTIES, CL_QUEUE_SIZE)", i,
                           hex(name));
      }
      array.push_back(name);
      array.push_back(value);
    }
    array.push_back(0);
    // CL_INVALID_VALUE for CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE (values not valid)
    if (seenSize && !(props & CL_QUEUE_ON_DEVICE))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                         "CL_QUEUE_SIZE is given for a host queue (CL_QUEUE_PROPERTIES {} has no CL_QUEUE_ON_DEVICE)",
                         hex(props));
  }
  // CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not supported
  // by the device (device queues, when the device has device-side enqueue off).
  if ((props & CL_QUEUE_ON_DEVICE) && !deviceQueuesSupported(device))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_QUEUE_PROPERTIES,
                       "CL_QUEUE_PROPERTIES {} asks for an on-device queue, and the device supports none "
                       "(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0)",
                       hex(props));
  if (!(props & CL_QUEUE_ON_DEVICE))
    return withError(errcode_ret, CL_SUCCESS, makeQueue(context, device, props, std::move(array)));
  cl_command_queue made = nullptr;
  const cl_int e = makeDeviceQueue(__func__, context, device, props, size, std::move(array), made);
  return withError(errcode_ret, e, made);
} catch (...) { return clref::cl::failedCall<cl_command_queue>(__func__, errcode_ret); }

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.1 [[_command_queues]] clCreateCommandQueue (deprecated by 2.0)
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  if (!validDevice(device))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  if (!context->hasDevice(device))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device {} is not a device of context {}", device,
                       context);
  // OpenCL 3.0 API §5.1 [[_command_queues]] clCreateCommandQueue: CL_INVALID_VALUE if values specified in properties
  // are not valid; only its table's properties (out-of-order, profiling) are valid here, so
  // CL_QUEUE_ON_DEVICE is not (it makes host command-queues only), and the device supports both valid ones.
  if (properties & ~kHostQueueProperties)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "properties {}: bits {} are not CL_QUEUE_PROFILING_ENABLE or "
                       "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE",
                       hex(properties), hex(properties & ~kHostQueueProperties));
  return withError(errcode_ret, CL_SUCCESS, makeQueue(context, device, properties, {}));
} catch (...) { return clref::cl::failedCall<cl_command_queue>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue command_queue) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.1 [[_command_queues]] clSetDefaultDeviceCommandQueue
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  // CL_INVALID_DEVICE if device is not associated with context
  if (!context->hasDevice(device))
    return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a device of context {}", device, context);
  // CL_INVALID_OPERATION if device does not support a replaceable default on-device queue (the device has
  // device-side enqueue off; with it on, CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT).
  if (!deviceQueuesSupported(device))
    return apiError(__func__, CL_INVALID_OPERATION,
                    "command_queue {}: device {} has no on-device queues (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0)",
                    command_queue, device);
  // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for device: a device queue of device,
  // made in context ("the OpenCL context used to create command_queue").
  if (!validQueue(command_queue)) return invalidQueue(__func__, command_queue);
  if (!command_queue->deviceQueue)
    return apiError(__func__, CL_INVALID_COMMAND_QUEUE,
                    "command_queue {} is a host command-queue, not a device queue (CL_QUEUE_ON_DEVICE)", command_queue);
  if (command_queue->device != device)
    return apiError(__func__, CL_INVALID_COMMAND_QUEUE, "command_queue {} is a device queue of device {}, not of {}",
                    command_queue, command_queue->device, device);
  if (command_queue->context != context)
    return apiError(__func__, CL_INVALID_COMMAND_QUEUE, "command_queue {} belongs to context {}, not {}", command_queue,
                    command_queue->context, context);
  // The default is replaced for the launches enqueued from now on (they take it at enqueue time, as their arguments).
  context->deviceQueuesOf(device).defaultQueue = command_queue;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) try {
  ApiLock lock;
  if (!validQueue(command_queue)) return invalidQueue(__func__, command_queue);
  retainExternal(command_queue);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) try {
  ApiLock lock;
  if (!validQueue(command_queue)) return invalidQueue(__func__, command_queue);
  // OpenCL 3.0 API §5.1 [[_command_queues]] clReleaseCommandQueue: performs an implicit flush; commands still pending
  // (waiting on user events) keep the queue alive through their events.
  releaseExternal(command_queue);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validQueue(command_queue)) return invalidQueue(__func__, command_queue);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_QUEUE_CONTEXT: return out(command_queue->context);
    case CL_QUEUE_DEVICE: return out(command_queue->device);
    case CL_QUEUE_REFERENCE_COUNT: return out(command_queue->refCount);
    case CL_QUEUE_PROPERTIES: return out(command_queue->properties);
    case CL_QUEUE_PROPERTIES_ARRAY: return out(command_queue->propertyArray);
    // OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: "command_queue must be a device command-queue";
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for param_name.
    case CL_QUEUE_SIZE:
      if (!command_queue->deviceQueue)
        return apiError(__func__, CL_INVALID_COMMAND_QUEUE,
                        "param_name is CL_QUEUE_SIZE and command_queue {} is a host queue, not a device queue",
                        command_queue);
      return out(cl_uint(command_queue->deviceQueue->size()));
    // CL_QUEUE_DEVICE_DEFAULT: "the current default command-queue for the underlying device" (of any queue, in its
    // context; NULL when there is none).
    case CL_QUEUE_DEVICE_DEFAULT:
      return out(command_queue->context->deviceQueuesOf(command_queue->device).defaultQueue);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no command-queue query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §5.1 [[_command_queues]] (1.0, deprecated): changing properties after creation; CL_INVALID_OPERATION
// is what a 3.0 implementation returns for it when unsupported.
CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                                          cl_command_queue_properties properties, cl_bool enable,
                                                          cl_command_queue_properties* old_properties) try {
  ApiLock lock;
  (void)enable, (void)old_properties;
  if (!validQueue(command_queue)) return invalidQueue(__func__, command_queue);
  return apiError(__func__, CL_INVALID_OPERATION,
                  "properties {}: a queue's properties cannot change after its creation (clSetCommandQueueProperty "
                  "is deprecated; clref does not support it)",
                  hex(properties));
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) try {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  return CL_SUCCESS;  // commands are submitted as soon as they can run
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) try {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  waitQueueEmpty(lock, command_queue);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
