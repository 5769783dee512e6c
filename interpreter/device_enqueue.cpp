// Device-side enqueue at run time (device_enqueue.hpp): block kernels, the family's queues and events, and running a
// launch's enqueued commands.
#include "interpreter/device_enqueue.hpp"

#include <algorithm>
#include <cstring>

#include "interpreter/svm.hpp"

namespace clref::interpreter {

const char* enqueueResultName(int32_t r) {
  switch (r) {
    case kClkSuccess: return "CLK_SUCCESS";
    case kClkEnqueueFailure: return "CLK_ENQUEUE_FAILURE";
    case kClkInvalidQueue: return "CLK_INVALID_QUEUE";
    case kClkInvalidNDRange: return "CLK_INVALID_NDRANGE";
    case kClkInvalidEventWaitList: return "CLK_INVALID_EVENT_WAIT_LIST";
    case kClkDeviceQueueFull: return "CLK_DEVICE_QUEUE_FULL";
    case kClkInvalidArgSize: return "CLK_INVALID_ARG_SIZE";
    case kClkEventAllocationFailure: return "CLK_EVENT_ALLOCATION_FAILURE";
    case kClkOutOfResources: return "CLK_OUT_OF_RESOURCES";
    default: return "an unknown CLK_* value";
  }
}

BlockKernels::BlockKernels(const Module& module, LowerOptions options) : module_(module), options_(std::move(options)) {
  // Children run unobserved and unchecked (device_enqueue.hpp): the checkers and observers follow one launch.
  options_.shadow = false;
  options_.observeInstructions = false;
  options_.checks = {};
  options_.blockKernels = this;
}

const LoweredKernel& BlockKernels::get(uint32_t invoke) {
  std::lock_guard lock(mutex_);
  auto& k = kernels_[invoke];
  if (!k) {
    try {
      k = lowerKernelFunction(module_, invoke, options_);
    } catch (...) {
      kernels_.erase(invoke);
      throw;
    }
  }
  return *k;
}

uint32_t inheritedBase(const LoweredKernel& kernel) {
  const uint32_t own = uint32_t(kernel.allocations.size());
  return kernel.addressBits == 64 ? std::max(own, svm::kTag + 1) : own;
}

uint32_t EnqueueFamily::queueIndex(const DeviceQueueBinding& b) {
  for (size_t i = 0; i < queues.size(); ++i)
    if (queues[i].id == b.id && (i != 0 || hasDefaultQueue)) return uint32_t(i);
  queues.push_back(b);
  pending.push_back(0);
  return uint32_t(queues.size() - 1);
}

std::optional<uint32_t> EnqueueFamily::newEvent(int32_t status, bool referenced, uint32_t handleBytes) {
  if (referenced && (liveEvents >= kMaxOnDeviceEvents || (handleBytes == 4 && events.size() > kHandleIndexMask)))
    return std::nullopt;
  DeviceEvent& e = events.emplace_back();
  e.status = status;
  e.references = referenced ? 1 : 0;
  liveEvents += referenced;
  return uint32_t(events.size() - 1);
}

DeviceEvent* EnqueueFamily::liveEvent(uint64_t handle, uint32_t* index) {
  uint64_t i = 0;
  if ((handle >> 32) == kDeviceEventHandleTag)
    i = handle & 0xFFFFFFFFu;
  else if ((handle >> 32) == 0 && (handle & ~uint64_t(kHandleIndexMask)) == kDeviceEventHandleTag)
    i = handle & kHandleIndexMask;
  else
    return nullptr;
  if (i >= events.size() || events[i].references == 0) return nullptr;
  if (index) *index = uint32_t(i);
  return &events[i];
}

void EnqueueFamily::release(uint32_t index) {
  DeviceEvent& e = events[index];
  if (e.references && --e.references == 0) --liveEvents;
}

void EnqueueFamily::finish(uint32_t index, int32_t status) {
  DeviceEvent& e = events[index];
  e.status = status;
  if (status != kStatusComplete) return;
  // OpenCL C 3.0 §6.15.19.8 [[built-in-functions-event-functions]] CLK_PROFILING_COMMAND_EXEC_TIME: END − START, then
  // COMPLETE − START (the command with its children), in nanoseconds.
  auto ns = [&](std::chrono::steady_clock::time_point t) {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t - e.start).count());
  };
  const uint64_t values[2] = {ns(e.end), ns(e.complete)};
  for (uint8_t* target : e.profilingTargets) std::memcpy(target, values, sizeof values);
  e.profilingTargets.clear();
}

std::array<uint64_t, 3> defaultChildLocalSize(const NDRangeSpec& range, const numerics::Choices& choices,
                                              uint64_t maxGroup) {
  std::array<uint64_t, 3> l{1, 1, 1};
  if (choices.get<numerics::Choice::DefaultLocalSize>() == numerics::LocalSizeOption::One) return l;
  uint64_t best = 1;
  for (uint64_t d = 1; d <= std::min<uint64_t>(64, std::min(maxGroup, range.global[0])); ++d)
    if (range.global[0] % d == 0) best = d;
  l[0] = best;
  return l;
}

namespace {

// A child's diagnostic, told as the child's: which block kernel, enqueued where.
Diagnostic inChild(Diagnostic d, const ChildCommand& c) {
  d.message = "in child kernel " + c.kernel->name + " (enqueued by " + c.origin.instruction + ", work-item (" +
              std::to_string(c.origin.globalId[0]) + "," + std::to_string(c.origin.globalId[1]) + "," +
              std::to_string(c.origin.globalId[2]) + ")): " + d.message;
  return d;
}

void addWarning(ExecResult& result, Diagnostic d, size_t max) {
  ++result.warningCount;
  if (result.warnings.size() < max) result.warnings.push_back(std::move(d));
}

// Adds what a child launch reported (its printf output, warnings and choices) to its parent's result.
void merge(ExecResult& into, ExecResult& child, const ChildCommand& c, size_t maxWarnings) {
  into.printfOutput += child.printfOutput;
  into.workItems += child.workItems;
  for (auto& w : child.warnings)
    if (into.warnings.size() < maxWarnings) into.warnings.push_back(inChild(std::move(w), c));
  into.warningCount += child.warningCount;
  for (auto& u : child.choicesUsed) {
    auto it = std::find_if(into.choicesUsed.begin(), into.choicesUsed.end(),
                           [&](const ChoiceUse& v) { return v.choice == u.choice; });
    if (it == into.choicesUsed.end())
      into.choicesUsed.push_back(std::move(u));
    else
      it->count += u.count;
  }
  std::stable_sort(into.choicesUsed.begin(), into.choicesUsed.end(),
                   [](const ChoiceUse& a, const ChoiceUse& b) { return a.choice < b.choice; });
}

}  // namespace

void runChildren(EnqueueLaunch& launch, const Launch& parent, ExecResult& result) {
  EnqueueFamily& f = *launch.family;
  auto& commands = launch.commands;
  std::vector<bool> done(commands.size(), false);
  // Every command before `first` has run: the search starts there, so that a launch's commands without wait lists
  // (a queue holds up to a million, device_queue_command_bytes) are picked in linear, not quadratic, time.
  size_t first = 0;
  for (size_t remaining = commands.size(); remaining > 0; --remaining) {
    while (done[first]) ++first;
    // The first command, in the order enqueued, whose wait list has ended (complete, or with an error).
    size_t pick = commands.size();
    bool waitFailed = false;
    {
      std::lock_guard lock(f.mutex);
      for (size_t i = first; i < commands.size() && pick == commands.size(); ++i) {
        if (done[i]) continue;
        bool ended = true;
        for (uint32_t e : commands[i].waitEvents) {
          ended = ended && f.events[e].status <= kStatusComplete;
          waitFailed = waitFailed || f.events[e].status < kStatusComplete;
        }
        if (ended)
          pick = i;
        else
          waitFailed = false;
      }
    }
    if (pick == commands.size()) {
      // Nothing left can start: every remaining command waits for an event that never completes (a user event
      // nobody sets). On a device they would never run and the parent never complete.
      Diagnostic d = commands[first].origin;
      d.kind = FaultKind::UndefinedBehaviour;
      d.message = std::to_string(remaining) + " enqueued command" + (remaining == 1 ? "" : "s") +
                  " can never start: each waits for an event that never completes (a user event whose status is "
                  "never set), so the parent kernel would never complete";
      result.fault = std::move(d);
      return;
    }
    done[pick] = true;
    ChildCommand& c = commands[pick];
    {
      std::lock_guard lock(f.mutex);
      --f.pending[c.queue];
      DeviceEvent& e = f.events[c.event];
      e.start = std::chrono::steady_clock::now();
      e.status = kStatusRunning;
      if (waitFailed || !c.kernel) {
        // A marker completes when its wait list has; a command whose wait list holds an error status does not run.
        e.end = e.complete = e.start;
        f.finish(c.event, waitFailed ? kStatusErrorForEventsInWaitList : kStatusComplete);
        if (waitFailed) {
          Diagnostic d = c.origin;
          d.message = std::string(c.kernel ? "a child kernel" : "a marker") +
                      " did not run: an event in its wait list has an error status";
          addWarning(result, std::move(d), f.maxWarnings);
        }
        continue;
      }
    }
    std::vector<ArgBinding> args(c.kernel->params.size());
    args[0].base = c.literal.data();
    args[0].size = c.literal.size();
    for (size_t i = 0; i < c.localSizes.size() && i + 1 < args.size(); ++i) args[i + 1].size = c.localSizes[i];
    ChildLaunch child;
    child.family = &f;
    child.inherited = &c.inherited;
    child.images = parent.images;
    child.imageCount = parent.imageCount;
    child.samplers = parent.samplers;
    child.samplerCount = parent.samplerCount;
    child.pipes = parent.pipes;
    child.pipeCount = parent.pipeCount;
    ExecConfig config;
    config.threads = f.threads;
    config.instructionBudget = f.instructionBudget;
    config.subgroupSize = f.subgroupSize;
    config.maxWarnings = f.maxWarnings;
    config.deviceMaxWorkGroupSize = f.deviceMaxWorkGroupSize;
    config.child = &child;
    ExecResult r;
    try {
      r = execute(*c.kernel, args, c.range, config);
    } catch (const std::exception& e) {
      r.fault = c.origin;
      r.fault->kind = FaultKind::ExecutionFailed;
      r.fault->message = std::string("the child kernel cannot run: ") + e.what();
    }
    merge(result, r, c, f.maxWarnings);
    std::lock_guard lock(f.mutex);
    DeviceEvent& e = f.events[c.event];
    e.end = e.complete = std::chrono::steady_clock::now();
    if (r.fault) {
      f.finish(c.event, kClkOutOfResources);
      result.fault = inChild(std::move(*r.fault), c);
      return;
    }
    f.finish(c.event, kStatusComplete);
    // Its memory goes now, not with the launch: the commands that have run do not add to the pending ones'.
    c = ChildCommand{};
  }
}

}  // namespace clref::interpreter
