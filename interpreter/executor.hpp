// The NDRange executor: work-groups spread over a thread pool, work-items of a group run as
// explicit states until they return or reach a barrier.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "interpreter/pipe.hpp"
#include "interpreter/program.hpp"

namespace clref::interpreter {

// Device-side enqueue (OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]]; interpreter/device_enqueue.hpp). The limits the
// device reports (OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_QUEUE_ON_DEVICE_*): a device queue of
// CL_QUEUE_SIZE bytes holds CL_QUEUE_SIZE / deviceCommandBytes() commands that are enqueued and have not started
// (the choice device_queue_command_bytes, device_enqueue.hpp); enqueue_kernel beyond that returns
// CLK_DEVICE_QUEUE_FULL.
constexpr uint64_t kDeviceQueuePreferredSize = uint64_t(256) << 10;
constexpr uint64_t kDeviceQueueMaxSize = uint64_t(16) << 20;
// The most commands not yet started a launch and the kernels it enqueues hold over all their device queues: clref's
// host memory, not the queues' bytes, bounds it. A pending command costs about 800 bytes of host memory (measured:
// 1 048 576 children pending in one 16 MiB queue at 16 bytes a command peak at 0.85 GB), and 4 queues
// (kMaxOnDeviceQueues) of 16 MiB would hold 4 M; beyond this bound enqueue_kernel returns CLK_OUT_OF_RESOURCES
// (OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]: "insufficient resources"). One queue of the
// largest size holds no more at the default device_queue_command_bytes, so only several full queues meet it.
constexpr uint64_t kMaxPendingDeviceCommands = uint64_t(1) << 20;
constexpr uint32_t kMaxOnDeviceQueues = 4;
constexpr uint32_t kMaxOnDeviceEvents = 1024;  // live clk_event_t of one launch and its children at once

// An on-device command queue (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_ON_DEVICE) a kernel can enqueue to:
// a queue_t argument, or the device's default queue (get_default_queue).
struct DeviceQueueBinding {
  uint64_t id = 0;         // the host's identity for the queue; distinct queues have distinct ids
  uint64_t size = kDeviceQueuePreferredSize;  // CL_QUEUE_SIZE, bytes
  bool profiling = false;  // CL_QUEUE_PROFILING_ENABLE (capture_event_profiling_info)
};

// What the host binds to one kernel parameter.
struct ArgBinding {
  uint8_t* base = nullptr;     // Buffer: the memory (nullptr with size 0 for a NULL pointer)
  uint64_t size = 0;           // Buffer: bytes; Local: bytes requested by the host
  bool null = false;           // Buffer: a NULL pointer argument
  // Buffer: an SVM pointer (svm.hpp; clSetKernelArgSVMPointer), passed as it is; base and size are unused.
  std::optional<uint64_t> svmPointer;
  std::vector<uint8_t> value;  // Value: the bytes passed by value
  // Image: the image's view (its storage stays valid and unmoved for the launch); a read_only image is
  // never written, a write_only image never read (OpenCL C 3.0 §6.15.15 [[image-read-and-write-functions]]).
  const images::ImageView* image = nullptr;
  // Buffer, for the uninitialised-value checker: per byte, nonzero where nothing has written the byte since the
  // buffer was created without host data (nullptr: all written); the launch updates it.
  uint8_t* neverWritten = nullptr;
  images::Sampler sampler;  // Sampler: the sampler argument
  Pipe* pipe = nullptr;     // Pipe: the pipe (interpreter/pipe.hpp), alive for the launch
  std::optional<DeviceQueueBinding> queue;  // Queue: the device queue (a queue_t argument)
};

struct NDRangeSpec {
  uint32_t dims = 1;
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1};  // enqueued work-group size (already chosen)
};

struct ShadowRun;
struct ChildLaunch;

struct ExecConfig {
  unsigned threads = 0;  // 0: hardware concurrency
  // Allowed-set propagation (interpreter/shadow.hpp): required by, and only for, a kernel lowered with
  // LowerOptions::shadow; such a launch runs on one thread.
  ShadowRun* shadow = nullptr;
  // The optional checkers (interpreter/checks/); a checked launch runs on one thread. The uninitialised-value
  // checker also needs a kernel lowered with LowerOptions::checks including it.
  CheckSet checks;
  // An observer of the launch (interpreter/observer.hpp); an observed launch runs on one thread.
  ExecutionObserver* observer = nullptr;
  uint64_t instructionBudget = uint64_t(1) << 32;
  uint32_t subgroupSize = 32;
  // Only these work-groups (linear ids, ascending) run, the others are skipped as if they wrote nothing; empty: all.
  // For judging a sample of a large launch (the check layer's CLREF_CHECK_GROUPS); a kernel whose groups depend on
  // each other's writes computes something else.
  std::vector<uint64_t> onlyGroups;
  size_t maxWarnings = 20;
  // The device's default device queue (clSetDefaultDeviceCommandQueue, CL_QUEUE_ON_DEVICE_DEFAULT): what
  // get_default_queue returns; none: CLK_NULL_QUEUE.
  std::optional<DeviceQueueBinding> defaultDeviceQueue;
  // CL_DEVICE_MAX_WORK_GROUP_SIZE: the bound on a child launch's work-group size (device-side enqueue).
  uint64_t deviceMaxWorkGroupSize = 1024;
  // The bound on commands not yet started over all device queues (kMaxPendingDeviceCommands; smaller in tests).
  uint64_t maxPendingDeviceCommands = kMaxPendingDeviceCommands;
  // CL_DEVICE_LOCAL_MEM_SIZE: the bound on a work-group's local memory (checkLaunchLimits); the largest value: none
  // but the arena's own.
  uint64_t localMemSize = UINT64_MAX;
  // Set by device_enqueue.cpp for a launch a kernel enqueued (its family, its inherited memory); nullptr for a launch
  // the host enqueues.
  const ChildLaunch* child = nullptr;
  // Called after each work-group finishes (or fails), with the groups finished and the groups the launch runs, from
  // the worker thread that ran it: concurrently, so it must be thread-safe, and quick. For progress lines; empty:
  // none (a launch a kernel enqueued reports none).
  std::function<void(uint64_t done, uint64_t total)> progress;
};

struct ExecResult {
  std::optional<Diagnostic> fault;
  std::vector<Diagnostic> warnings;
  uint64_t warningCount = 0;
  uint64_t workItems = 0;
  std::string printfOutput;  // printf output of every work-group, in work-group order
  std::vector<ChoiceUse> choicesUsed;  // in registry order
  std::vector<Finding> findings;       // the optional checkers', in the order first seen
};

// A launch the device's limits refuse (checkLaunchLimits): the message names the limit and what exceeds it.
class LaunchLimitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The work-group arena (local memory): the kernel's static Workgroup variables, then each local argument.
struct LocalMemoryLayout {
  uint64_t bytes = 0;                // the arena's size
  std::vector<uint64_t> argOffset;   // per parameter: a local argument's offset in the arena, 0 for the others
};

// The launch limits on a kernel's arguments, the one rule for the executor and the host API: a buffer argument must
// be addressable with the kernel's tagShift bits of offset; the static local variables and the local arguments
// together must fit `localMemSize` (CL_DEVICE_LOCAL_MEM_SIZE), and the arena they are laid out in must not wrap.
// Returns that layout; throws LaunchLimitError.
LocalMemoryLayout checkLaunchLimits(const LoweredKernel& kernel, const std::vector<ArgBinding>& args,
                                    uint64_t localMemSize);

// Runs the kernel over the NDRange. Kernel faults are returned, never thrown; host-side errors
// (argument count, sizes) throw std::invalid_argument (LaunchLimitError for checkLaunchLimits's).
ExecResult execute(const LoweredKernel& kernel, const std::vector<ArgBinding>& args, const NDRangeSpec& range,
                   const ExecConfig& config);

}  // namespace clref::interpreter
