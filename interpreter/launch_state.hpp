// The state one launch (execute, executor.hpp) shares between its worker threads, and the steps of a launch that
// work on it: binding the arguments (launch_arguments.cpp, launch_pipes.cpp), running the work-groups
// (scheduler.cpp), and what the launch reports besides its work-groups' results (launch_pipes.cpp,
// launch_choices.cpp).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/checks/check_run.hpp"
#include "interpreter/checks/zeroed_array.hpp"
#include "interpreter/device_enqueue.hpp"
#include "interpreter/executor.hpp"

namespace clref::interpreter {

// Per named choice, the work-group of its first decision (its schedule position, LaunchState::groupAt).
using ChoiceGroups = std::array<uint64_t, size_t(numerics::Choice::Count)>;
inline ChoiceGroups noChoiceGroups() {
  ChoiceGroups a;
  a.fill(std::numeric_limits<uint64_t>::max());
  return a;
}

struct LaunchState {
  LaunchState(const LoweredKernel& k, const std::vector<ArgBinding>& a, const NDRangeSpec& r, const ExecConfig& c)
      : kernel(k), args(a), range(r), config(c) {}
  const LoweredKernel& kernel;
  const std::vector<ArgBinding>& args;
  const NDRangeSpec& range;
  const ExecConfig& config;
  Launch launch;
  std::array<uint64_t, 3> numGroups{};
  uint64_t totalGroups = 0;
  uint64_t groupsToRun = 0;  // totalGroups, or ExecConfig::onlyGroups's count
  bool descending = false;   // a pipe kernel's work-groups under pipe_work_group_order=descending
  uint64_t workgroupArenaBytes = 0;
  std::vector<uint64_t> localArgOffset;  // per param, offset in the work-group arena
  // Per param, the tag its pointer carries: a buffer bound to several parameters is one
  // allocation, so the pointers compare equal (OpPtrEqual) and differ by offsets only.
  std::vector<uint32_t> paramTag;
  // The launch's image and sampler tables (exec.hpp kImageHandleTag).
  std::vector<const images::ImageView*> images;
  std::vector<uint8_t> imageExclusive;  // per image: 1 where no other argument's memory overlaps it (Launch's)
  std::vector<images::Sampler> samplers;
  std::vector<Pipe*> pipes;  // the launch's pipe table (exec.hpp kPipeHandleTag)
  // Device-side enqueue (device_enqueue.hpp): the family a launch the host enqueued owns, the commands this launch
  // enqueues, and per queue_t parameter its handle.
  std::unique_ptr<EnqueueFamily> ownFamily;
  EnqueueLaunch enqueue;
  std::vector<uint64_t> queueHandle;
  std::vector<uint64_t> pipeLastGroup;  // Launch::pipeLastGroup
  // Work-groups are handed out in schedule order (groupAt), `chunk` consecutive ones at a time: neighbouring groups
  // touch neighbouring memory (the same cache lines at the edges of their rows), so one thread taking a run of them
  // keeps threads from writing to the same lines at once.
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> groupsDone{0};  // for ExecConfig::progress
  uint64_t chunk = 1;
  std::atomic<uint64_t> faultGroup{std::numeric_limits<uint64_t>::max()};  // the earliest faulting position
  std::mutex mu;
  std::vector<std::pair<uint64_t, Diagnostic>> faults;  // (schedule position, fault)
  std::vector<std::pair<uint64_t, Diagnostic>> warnings;
  uint64_t warningCount = 0;
  std::vector<std::pair<uint64_t, std::string>> printfOutput;  // (schedule position, text)
  ChoiceTally choices;  // summed over the work-groups; `first` from the earliest group in schedule order
  ChoiceGroups choiceFirstGroup = noChoiceGroups();
  std::unique_ptr<CheckRun> checks;  // a checked launch's checkers
  // The uninitialised-value checker's shadow of the buffer arguments, per allocation tag (Allocation::undefined).
  std::vector<ZeroedArray<uint8_t>> argUndefined;
  std::vector<uint8_t> argSomeUndefined;  // per tag (Allocation::someUndefined)

  // The linear id of the work-group at position `seq` of the schedule: ExecConfig::onlyGroups's or all, ascending, or
  // descending for a pipe kernel under pipe_work_group_order=descending (one thread). Faults, warnings, printf output
  // and choices are kept by position, so that they are reported in the order the groups ran.
  uint64_t groupAt(uint64_t seq) const {
    const uint64_t i = descending ? groupsToRun - 1 - seq : seq;
    return config.onlyGroups.empty() ? i : config.onlyGroups[i];
  }
};

// "argument i (name)", as launch errors name a parameter.
std::string argName(const LoweredKernel& k, size_t i);
// Buffer and local arguments: the launch limits and the work-group arena's layout (checkLaunchLimits, executor.hpp),
// SVM pointers against the module's width, and each buffer parameter's allocation tag.
void bindBuffersAndLocals(LaunchState& s);
void bindImagesAndSamplers(const LoweredKernel& k, const std::vector<ArgBinding>& args, LaunchState& s);
// The launch's pipe table (exec.hpp kPipeHandleTag) from the pipe arguments.
void bindPipes(LaunchState& s);
// Per queue_t parameter, its handle (device_enqueue.hpp kQueueHandleTag) in the launch's enqueue family.
void bindQueues(LaunchState& s);
// Runs the work-groups on at most `threads` worker threads (fewer when their work-item slots, `groupBytes` per
// work-group, would hold more than kMaxPrivateBytesInFlight together).
void runWorkGroups(LaunchState& s, unsigned threads, uint64_t groupBytes);
void endReservations(const LaunchState& s, ExecResult& result);
void addLaunchChoices(const LoweredKernel& kernel, uint64_t workgroupBytes, std::vector<ChoiceUse>& uses);

}  // namespace clref::interpreter
