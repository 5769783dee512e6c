// Device-side enqueue at run time (OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]]): the kernels of blocks, the commands
// a launch's work-items enqueue (kernels and markers), the device events, and running the enqueued children.
//
// When children run: in the execute() call of the launch that enqueued them, after all its work-groups, in the order
// they were enqueued as far as their wait lists allow. That start satisfies every kernel_enqueue_flags_t (NO_WAIT
// lets a child start earlier, it does not make it), and a parent's launch ends only once its children (and theirs)
// have, as a parent's status is complete only then (OpenCL C 3.0 §6.15.19.5
// [[determining-when-a-parent-kernel-has-finished-execution]]).
//
// A block literal (the block's captured variables) is copied when the block is enqueued. Its pointers name the
// parent's memory by the parent's allocation tags, which mean nothing in the child: the child gets the memory they
// point into as allocations of its own (InheritedAllocation, at tags from inheritedBase() on) and the copied
// pointers are rewritten to them. Pointers into the parent's private or local memory become allocations of size
// zero named after what they pointed to: the child's accesses through them fault. Queue and event values are
// handles valid across the whole family of launches; image and pipe handles stay valid because a child shares its
// parent's image and pipe tables.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "interpreter/executor.hpp"
#include "interpreter/program.hpp"

namespace clref::interpreter {

// queue_t values: kQueueHandleTag | index into EnqueueFamily::queues; clk_event_t values: kDeviceEventHandleTag |
// index into EnqueueFamily::events. CLK_NULL_QUEUE is 0 and CLK_NULL_EVENT all ones (clang-15's opencl-c-base.h);
// neither is a handle.
constexpr uint32_t kQueueHandleTag = 0x51550000u;        // "QU"
constexpr uint32_t kDeviceEventHandleTag = 0x45560000u;  // "EV"

// enqueue_kernel's and enqueue_marker's results (OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]];
// the values are clang-15's opencl-c-base.h).
enum EnqueueResult : int32_t {
  kClkSuccess = 0,
  kClkEnqueueFailure = -101,
  kClkInvalidQueue = -102,
  kClkInvalidNDRange = -160,
  kClkInvalidEventWaitList = -57,
  kClkDeviceQueueFull = -161,
  kClkInvalidArgSize = -51,
  kClkEventAllocationFailure = -100,
  kClkOutOfResources = -5,
};
const char* enqueueResultName(int32_t r);

// The bytes of CL_QUEUE_SIZE one command takes until it starts: the choice device_queue_command_bytes (OpenCL C 3.0
// §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]] CLK_DEVICE_QUEUE_FULL sets no capacity; numerics/choices.cpp
// says why the default is 16).
constexpr uint64_t deviceCommandBytes(numerics::DeviceQueueCommandBytesOption o) {
  return o == numerics::DeviceQueueCommandBytesOption::Bytes128 ? 128 : 16;
}

// The execution status of a device event (OpenCL 3.0 API §5.11 [[event-objects]] values).
constexpr int32_t kStatusComplete = 0, kStatusRunning = 1, kStatusSubmitted = 2, kStatusQueued = 3;
// A command whose wait list holds an event with an error status does not run (OpenCL 3.0 API §5.11 [[event-objects]]
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
constexpr int32_t kStatusErrorForEventsInWaitList = -14;

// The block kernels of a module (OpEnqueueKernel's Invoke functions), lowered on first use with the options of the
// kernel that enqueues them, shared by that kernel and every child it enqueues (a block may enqueue itself).
class BlockKernels {
 public:
  BlockKernels(const Module& module, LowerOptions options);
  // The kernel of `invoke`; throws ModuleError when it cannot be lowered.
  const LoweredKernel& get(uint32_t invoke);

 private:
  std::mutex mutex_;
  const Module& module_;
  LowerOptions options_;
  std::map<uint32_t, std::unique_ptr<LoweredKernel>> kernels_;
};

// Memory of a parent launch a child addresses through pointers its block literal captured.
struct InheritedAllocation {
  Allocation allocation;
  std::string name;  // for fault messages: which allocation of which kernel
};

// The first tag of a kernel's inherited allocations: past its own and past the SVM tag (svm.hpp).
uint32_t inheritedBase(const LoweredKernel& kernel);

struct DeviceEvent {
  int32_t status = kStatusQueued;
  uint32_t references = 1;  // the kernel's references (retain_event, release_event); 0: no longer valid
  bool user = false;        // create_user_event
  std::chrono::steady_clock::time_point start, end, complete;
  // capture_event_profiling_info: where to write (exec time, exec time with children) once complete.
  std::vector<uint8_t*> profilingTargets;
};

// One enqueued command: a block's kernel, or a marker (kernel == nullptr).
struct ChildCommand {
  const LoweredKernel* kernel = nullptr;
  NDRangeSpec range;
  std::vector<uint8_t> literal;      // the block literal, pointers rewritten
  std::vector<uint64_t> localSizes;  // the block's local pointer arguments
  std::vector<InheritedAllocation> inherited;
  std::vector<uint32_t> waitEvents;  // indices into EnqueueFamily::events
  uint32_t event = 0;                // its event's index
  uint32_t queue = 0;                // index into EnqueueFamily::queues
  Diagnostic origin;                 // the enqueue_kernel / enqueue_marker that enqueued it
};

// A launch enqueued by the host and every launch it enqueues, directly or not: the device queues and the events.
struct EnqueueFamily {
  std::mutex mutex;
  std::vector<DeviceQueueBinding> queues;  // [0]: the default device queue, when hasDefaultQueue
  bool hasDefaultQueue = false;
  std::vector<uint64_t> pending;  // per queue: commands enqueued and not started (the queue's fill)
  uint64_t maxPending = kMaxPendingDeviceCommands;  // the bound on their sum (ExecConfig::maxPendingDeviceCommands)
  std::vector<DeviceEvent> events;
  uint32_t liveEvents = 0;  // events with references
  uint64_t deviceMaxWorkGroupSize = 1024;
  unsigned threads = 0;
  uint64_t instructionBudget = 0;
  uint32_t subgroupSize = 32;
  size_t maxWarnings = 20;
  // The index of queue `b`, added when new.
  uint32_t queueIndex(const DeviceQueueBinding& b);
  // A new event with `status`. `referenced`: the kernel holds a reference (a returned or user event); none when
  // kMaxOnDeviceEvents are referenced or, with 4-byte handles (`handleBytes`), the 16-bit indices are used up.
  // Unreferenced: a command's event no kernel can name.
  std::optional<uint32_t> newEvent(int32_t status, bool referenced, uint32_t handleBytes);
  // The event a handle names while it has references; nullptr for other values.
  DeviceEvent* liveEvent(uint64_t handle, uint32_t* index = nullptr);
  void release(uint32_t index);
  // Sets a command's event complete (or to a negative status) and writes the profiling values captured for it.
  void finish(uint32_t index, int32_t status);
};

// What execute() of one launch in a family knows: the family, and the commands the launch's work-items enqueued.
struct EnqueueLaunch {
  EnqueueFamily* family = nullptr;
  std::vector<ChildCommand> commands;
};

// What a child launch takes from the command that enqueued it (ExecConfig::child).
struct ChildLaunch {
  EnqueueFamily* family = nullptr;
  const std::vector<InheritedAllocation>* inherited = nullptr;
  const images::ImageView* const* images = nullptr;  // the parent's tables (exec.hpp handles)
  uint32_t imageCount = 0;
  const images::Sampler* samplers = nullptr;
  uint32_t samplerCount = 0;
  Pipe* const* pipes = nullptr;
  uint32_t pipeCount = 0;
};

// Runs the commands `launch` enqueued (and, inside each, theirs) after its work-groups; the first fault ends them
// and becomes `result.fault`. Printf output, warnings and choices are added to `result`.
void runChildren(EnqueueLaunch& launch, const Launch& parent, ExecResult& result);

// The work-group size a child launch with no local size runs with: the DefaultLocalSize choice (as the host's
// clEnqueueNDRangeKernel without local_work_size, host/kernel_run.cpp).
std::array<uint64_t, 3> defaultChildLocalSize(const NDRangeSpec& range, const numerics::Choices& choices,
                                              uint64_t maxGroup);

}  // namespace clref::interpreter
