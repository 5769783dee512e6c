// Running a lowered kernel over an NDRange (execute, executor.hpp): the launch's set-up (geometry, arguments, the
// device-side enqueue family, checkers, threads), its work-groups (scheduler.cpp), then its results in schedule order.
#include "interpreter/launch_state.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/svm.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace clref::interpreter {

namespace {

// SPIR-V 1.1 §3.6 [external] SubgroupSize (capability SubgroupDispatch): the kernel's sub-groups have this size. clref
// runs it when that is the launch's sub-group size and refuses the launch otherwise, naming both.
void checkSubgroupSizeMode(const LoweredKernel& kernel, uint32_t subgroupSize) {
  if (!kernel.module) return;
  const EntryPoint* ep = kernel.module->entryPoint(kernel.name);
  if (!ep) return;  // a block's invoke function: no execution modes
  for (const auto& inst : kernel.module->instructions)
    if (inst.opcode == spv::Op::OpExecutionMode && inst.words.size() > 3 && inst.words[1] == ep->function &&
        spv::ExecutionMode(inst.words[2]) == spv::ExecutionMode::SubgroupSize && inst.words[3] != subgroupSize)
      throw std::invalid_argument("kernel " + kernel.name + " declares the execution mode SubgroupSize " +
                                  std::to_string(inst.words[3]) + ", and the device's sub-group size is " +
                                  std::to_string(subgroupSize));
}

}  // namespace

ExecResult execute(const LoweredKernel& kernel, const std::vector<ArgBinding>& args, const NDRangeSpec& range,
                   const ExecConfig& config) {
  if (args.size() != kernel.params.size())
    throw std::invalid_argument("kernel " + kernel.name + " takes " + std::to_string(kernel.params.size()) +
                                " arguments, " + std::to_string(args.size()) + " given");
  LaunchState s(kernel, args, range, config);
  s.launch.kernel = &kernel;
  s.launch.module = kernel.module;
  s.launch.dims = range.dims;
  s.launch.subgroupSize = std::max<uint32_t>(1, config.subgroupSize);
  checkSubgroupSizeMode(kernel, s.launch.subgroupSize);
  if (kernel.shader) {
    // program.hpp kMinShaderSubgroupSize says why these bounds.
    const uint32_t sg = config.subgroupSize;
    if (sg < kMinShaderSubgroupSize || sg > kMaxShaderSubgroupSize || (sg & (sg - 1)))
      throw std::invalid_argument("the subgroup size " + std::to_string(sg) +
                                  " is not one Vulkan allows (a power of two from 4 to 128) for the compute shader " +
                                  kernel.name);
    s.launch.vulkanSubgroups = true;
  }
  s.launch.instructionBudget = config.instructionBudget;
  s.launch.choices = &kernel.choices;
  s.totalGroups = 1;
  for (int d = 0; d < 3; ++d) {
    if (range.local[d] == 0) throw std::invalid_argument("work-group size 0 in dimension " + std::to_string(d));
    s.numGroups[d] = (range.global[d] + range.local[d] - 1) / range.local[d];
    s.totalGroups *= s.numGroups[d];
    s.launch.globalSize[d] = range.global[d];
    s.launch.globalOffset[d] = range.offset[d];
    s.launch.enqueuedLocal[d] = range.local[d];
    s.launch.numGroups[d] = s.numGroups[d];
  }
  s.groupsToRun = s.totalGroups;
  if (!config.onlyGroups.empty()) {
    if (!std::is_sorted(config.onlyGroups.begin(), config.onlyGroups.end()) ||
        config.onlyGroups.back() >= s.totalGroups)
      throw std::invalid_argument("ExecConfig::onlyGroups must be ascending linear work-group ids below " +
                                  std::to_string(s.totalGroups));
    s.groupsToRun = config.onlyGroups.size();
  }
  ExecResult result;
  result.workItems = range.global[0] * range.global[1] * range.global[2];
  if (result.workItems == 0) return result;
  const svm::PagesKept svmPagesKept;  // SVM freed during the launch stays mapped until it ends (svm.hpp)
  bindBuffersAndLocals(s);
  bindImagesAndSamplers(kernel, args, s);
  s.launch.images = s.images.data();
  s.launch.imageCount = uint32_t(s.images.size());
  s.launch.imageExclusive = s.imageExclusive.data();
  s.launch.samplers = s.samplers.data();
  s.launch.samplerCount = uint32_t(s.samplers.size());
  bindPipes(s);
  s.launch.pipes = s.pipes.data();
  s.launch.pipeCount = uint32_t(s.pipes.size());
  if (config.child) {
    // A block kernel has no image, sampler or pipe parameters of its own: the handles its block literal captured are
    // its parent's, so it shares the parent's tables (its own constant samplers, when it has any, keep theirs).
    const ChildLaunch& c = *config.child;
    s.launch.images = c.images;
    s.launch.imageCount = c.imageCount;
    s.launch.imageExclusive = nullptr;
    s.launch.pipes = c.pipes;
    s.launch.pipeCount = c.pipeCount;
    if (kernel.constantSamplers.empty()) {
      s.launch.samplers = c.samplers;
      s.launch.samplerCount = c.samplerCount;
    }
    if (c.inherited) {
      s.launch.inherited = c.inherited->data();
      s.launch.inheritedCount = uint32_t(c.inherited->size());
      s.launch.inheritedBase = inheritedBase(kernel);
    }
  }
  if (kernel.usesDeviceEnqueue || config.child) {
    EnqueueFamily* family = config.child ? config.child->family : nullptr;
    if (!family) {
      s.ownFamily = std::make_unique<EnqueueFamily>();
      family = s.ownFamily.get();
      family->threads = config.threads;
      family->instructionBudget = config.instructionBudget;
      family->subgroupSize = config.subgroupSize;
      family->maxWarnings = config.maxWarnings;
      family->deviceMaxWorkGroupSize = config.deviceMaxWorkGroupSize;
      family->maxPending = config.maxPendingDeviceCommands;
      // Queue 0 is the default device queue (get_default_queue), or a place no handle names.
      family->queues.push_back(config.defaultDeviceQueue.value_or(DeviceQueueBinding{}));
      family->pending.push_back(0);
      family->hasDefaultQueue = config.defaultDeviceQueue.has_value();
    }
    s.enqueue.family = family;
    s.launch.enqueue = &s.enqueue;
  }
  bindQueues(s);
  // The pipes the launch uses: its own, or a child's parent's.
  s.pipeLastGroup.assign(s.launch.pipeCount, UINT64_MAX);
  s.launch.pipeLastGroup = s.pipeLastGroup.data();
  // The work-item slots of a work-group must fit the device's bound, and all threads' slots together theirs.
  uint64_t groupSize = 1;
  for (int d = 0; d < 3; ++d) groupSize *= std::min(range.local[d], range.global[d]);
  const uint64_t groupBytes = slotsPerWorkGroup(kernel, groupSize) * workItemBytes(kernel);
  if (groupBytes > kMaxPrivateBytesPerWorkGroup)
    throw std::invalid_argument(
        "a work-group of " + std::to_string(groupSize) + " work-items holds " + std::to_string(groupBytes) +
        " bytes of registers and private memory (" + std::to_string(workItemBytes(kernel)) +
        " per work-item), above clref's limit of " + std::to_string(kMaxPrivateBytesPerWorkGroup) +
        " bytes per work-group; the kernel's largest work-group size is " +
        std::to_string(maxWorkGroupSize(kernel, groupSize)));
  if (kernel.shadow != (config.shadow != nullptr))
    throw std::invalid_argument(kernel.shadow ? "kernel " + kernel.name + " was lowered for the shadow mode and needs a ShadowRun"
                                              : "a ShadowRun needs a kernel lowered with LowerOptions::shadow");
  unsigned threads = config.threads ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  if (config.shadow) {
    threads = 1;  // one shadow map, the same order as every other run
    config.shadow->module = kernel.module;
    // A Vulkan compute shader is judged by Vulkan's precision rules and its entry point's float controls, whatever
    // profile the caller gave (which is the OpenCL device's).
    if (kernel.shader)
      if (const EntryPoint* ep = kernel.module->entryPoint(kernel.name)) config.shadow->useShaderRules(*ep);
  }
  // Pipes: the order of the packets is the order work-items read and write them, which one thread keeps the same in
  // every run (pipe.hpp); the order of the work-groups is the choice pipe_work_group_order (OpenCL C 3.0 §6.15.18.3
  // [[built-in-work-group-pipe-read-and-write-functions]]: implementation-defined between work-groups).
  if (!kernel.pipeParams.empty()) {
    threads = 1;
    s.descending =
        kernel.choices.get<numerics::Choice::PipeWorkGroupOrder>() == numerics::PipeWorkGroupOrderOption::Descending;
  }
  // Device-side enqueue: the commands are enqueued, and run, in the same order in every run.
  if (kernel.usesDeviceEnqueue) threads = 1;
  if (kernel.checks.has(Check::Uninitialized) && !config.checks.has(Check::Uninitialized))
    throw std::invalid_argument("kernel " + kernel.name +
                                " was lowered for the uninitialised-value checker and needs ExecConfig::checks with it");
  if (kernel.checks.has(Check::Uninitialized)) {
    // Buffer arguments: undefined where never written (ArgBinding::neverWritten), with the argument's origin.
    s.argUndefined.resize(kernel.allocations.size());
    s.argSomeUndefined.assign(kernel.allocations.size(), 0);
    for (size_t t = 1; t < kernel.allocations.size(); ++t) {
      const auto& d = kernel.allocations[t];
      if (d.source != AllocationSource::KernelArg) continue;
      const ArgBinding& a = args[d.argIndex];
      if (a.null) continue;
      auto& u = s.argUndefined[t];
      u = ZeroedArray<uint8_t>(a.size);
      if (a.neverWritten)
        for (uint64_t b = 0; b < a.size; ++b)
          if (a.neverWritten[b]) {
            u[b] = kernel.allocationOrigin[t];
            s.argSomeUndefined[t] |= u[b];
          }
    }
  }
  if (config.checks.any() || config.observer) {
    threads = 1;  // the checkers and observers see the work-groups in order (check_run.hpp)
    s.checks = std::make_unique<CheckRun>(config.checks, kernel, range, config.observer);
  }
  runWorkGroups(s, threads, groupBytes);
  // Deterministic reporting: the fault of the earliest work-group in schedule order (every earlier group ran, since
  // groups are handed out in that order), warnings sorted by it.
  if (!s.faults.empty()) {
    auto it = std::min_element(s.faults.begin(), s.faults.end(), [](auto& a, auto& b) { return a.first < b.first; });
    result.fault = it->second;
  }
  std::stable_sort(s.warnings.begin(), s.warnings.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& w : s.warnings) {
    if (result.warnings.size() >= config.maxWarnings) break;
    result.warnings.push_back(std::move(w.second));
  }
  result.warningCount = s.warningCount;
  for (size_t c = 0; c < s.choices.count.size(); ++c)
    if (s.choices.count[c])
      result.choicesUsed.push_back({numerics::Choice(c), s.choices.count[c], std::move(s.choices.first[c])});
  endReservations(s, result);
  addLaunchChoices(kernel, s.workgroupArenaBytes, result.choicesUsed);
  std::sort(s.printfOutput.begin(), s.printfOutput.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [g, text] : s.printfOutput) result.printfOutput += text;
  if (s.checks) result.findings = s.checks->findings();
  // The commands the launch enqueued run now, after all its work-groups (device_enqueue.hpp).
  if (s.launch.enqueue && !result.fault && !s.enqueue.commands.empty()) runChildren(s.enqueue, s.launch, result);
  // What the launch wrote is no longer never-written; what it stored undefined stays so.
  for (size_t t = 1; t < s.argUndefined.size(); ++t) {
    const auto& u = s.argUndefined[t];
    const auto& d = kernel.allocations[t];
    if (u.empty() || d.source != AllocationSource::KernelArg || !args[d.argIndex].neverWritten) continue;
    if (!s.argSomeUndefined[t])
      std::memset(args[d.argIndex].neverWritten, 0, u.size());  // every byte defined: its shadow never touched
    else
      for (uint64_t b = 0; b < u.size(); ++b) args[d.argIndex].neverWritten[b] = u[b] != 0;
  }
  return result;
}

}  // namespace clref::interpreter
