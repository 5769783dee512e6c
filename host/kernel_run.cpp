// host::Kernel's runs (host.hpp): the NDRange's checks, the arguments bound for the executor, the lowering the run
// needs, and its result.
#include "host/host.hpp"
#include "host/planted_errors.hpp"

#include <algorithm>
#include <limits>

#include "interpreter/executor.hpp"
#include "interpreter/shadow.hpp"

namespace clref::host {

namespace {
interpreter::DeviceQueueBinding bindingOf(const DeviceQueue& q) {
  return interpreter::DeviceQueueBinding{q.id(), q.size(), q.profiling()};
}
}  // namespace

void checkNDRange(const NDRange& r, const DeviceConfig& cfg) {
  using Field = NDRangeError::Field;
  if (r.dims < 1 || r.dims > 3)
    throw NDRangeError(Field::Dims, "work dimension " + std::to_string(r.dims) + " is not 1, 2 or 3");
  // OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel: global sizes, and each offset plus its global
  // size, must not exceed the largest value of the device's size_t (CL_DEVICE_ADDRESS_BITS wide).
  const uint64_t sizeMax = cfg.addressBits == 32 ? UINT32_MAX : std::numeric_limits<size_t>::max();
  const auto dim = [](unsigned d) { return " in dimension " + std::to_string(d); };
  bool empty = false;
  for (unsigned d = 0; d < r.dims; ++d) {
    if (r.global[d] > sizeMax)
      throw NDRangeError(Field::Global, "global size " + std::to_string(r.global[d]) + dim(d) + " exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device");
    if (r.offset[d] > sizeMax - r.global[d])
      throw NDRangeError(Field::Offset, "offset " + std::to_string(r.offset[d]) + " plus global size " +
                                            std::to_string(r.global[d]) + dim(d) + " exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device");
    empty = empty || r.global[d] == 0;
  }
  // The number of work-items (get_global_linear_id's range) must be a size_t too: a product that wraps around would
  // launch a different, smaller NDRange.
  uint64_t items = 1;
  for (unsigned d = 0; d < r.dims && !empty; ++d)
    if (__builtin_mul_overflow(items, uint64_t(r.global[d]), &items) || items > sizeMax)
      throw NDRangeError(Field::Global, "the global sizes' product (the number of work-items) exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device, at " +
                                            "dimension " + std::to_string(d));
  if (!r.local) return;
  uint64_t groupSize = 1;
  for (unsigned d = 0; d < r.dims; ++d)
    if (__builtin_mul_overflow(groupSize, uint64_t((*r.local)[d]), &groupSize) || groupSize > cfg.maxWorkGroupSize)
      throw NDRangeError(Field::Local, "the local sizes' product (the work-group size) exceeds the device maximum " +
                                           std::to_string(cfg.maxWorkGroupSize) + " at dimension " + std::to_string(d));
}

namespace {
// The DefaultLocalSize choice: the work-group size used when the host gives none.
// `maxGroup` is the kernel's largest work-group size (Kernel::maxWorkGroupSize).
std::array<size_t, 3> defaultLocalSize(const NDRange& r, const DeviceConfig& cfg, size_t maxGroup) {
  std::array<size_t, 3> l{1, 1, 1};
  if (cfg.choices.get<numerics::Choice::DefaultLocalSize>() == numerics::LocalSizeOption::One) return l;
  size_t best = 1;
  for (size_t d = 1; d <= std::min<size_t>(64, std::min(maxGroup, r.global[0])); ++d)
    if (r.global[0] % d == 0) best = d;
  l[0] = best;
  return l;
}
}  // namespace

std::array<size_t, 3> Kernel::localSizeFor(const NDRange& range) const {
  return range.local ? *range.local : defaultLocalSize(range, program_->device().config(), maxWorkGroupSize());
}

RunResult Kernel::run(const NDRange& range, unsigned threads) {
  RunResult r = runWith(range, nullptr, nullptr, {}, threads);
  if (const uint64_t every = program_->device().config().plantErrors; every && r.ok) plantErrors(*this, every);
  return r;
}

RunResult Kernel::runGroups(const NDRange& range, const std::vector<uint64_t>& groups, unsigned threads) {
  return runWith(range, nullptr, nullptr, groups, threads);
}

RunResult Kernel::runShadow(const NDRange& range, interpreter::ShadowRun& shadow) {
  return runWith(range, &shadow, nullptr);
}

RunResult Kernel::runShadow(const NDRange& range, interpreter::ShadowRun& shadow,
                            interpreter::ExecutionObserver* observer, const std::vector<uint64_t>& groups) {
  return runWith(range, &shadow, observer, groups);
}

RunResult Kernel::runObserved(const NDRange& range, interpreter::ExecutionObserver& observer) {
  return runWith(range, nullptr, &observer);
}

RunResult Kernel::runWith(const NDRange& range, interpreter::ShadowRun* shadow, interpreter::ExecutionObserver* observer,
                          const std::vector<uint64_t>& groups, unsigned threads) {
  const auto& cfg = program_->device().config();
  checkNDRange(range, cfg);
  // The plain lowering first: the kernel's parameters and attributes are its. The shadow kernel is kept for the
  // device's choices; a run with choices of its own (--perturb) lowers anew.
  const interpreter::LoweredKernel& plainKernel = lowered(Lowering::Plain);
  const interpreter::LoweredKernel& kernel =
      shadow     ? lowered(Lowering::Shadow, shadow->choices ? &*shadow->choices : nullptr)
      : observer ? lowered(Lowering::Observed)
                 : plainKernel;
  std::vector<interpreter::ArgBinding> bindings(args_.size());
  for (size_t i = 0; i < args_.size(); ++i) {
    const auto& a = args_[i];
    if (!a.set) throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ") is not set");
    auto& b = bindings[i];
    switch (a.info.kind) {
      case ArgKind::Buffer:
        if (a.svmPointer) {
          b.svmPointer = a.svmPointer;
        } else if (a.buffer && svm::inRange(a.buffer->data())) {
          // A buffer over SVM memory (clCreateBuffer with CL_MEM_USE_HOST_PTR and an SVM pointer, or a sub-buffer of
          // one): OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] gives it "the shared memory as the underlying
          // storage", so the kernel's pointer is the SVM address, and pointers it stores are the host's. Its accesses
          // are checked against the SVM allocation.
          b.svmPointer = reinterpret_cast<uint64_t>(a.buffer->data());
        } else if (a.buffer) {
          b.base = reinterpret_cast<uint8_t*>(a.buffer->data());
          b.size = a.buffer->size();
          b.neverWritten = a.buffer->neverWritten();
        } else {
          b.null = true;
        }
        break;
      case ArgKind::Local: b.size = a.localBytes; break;
      case ArgKind::Value: b.value = a.value; break;
      case ArgKind::Image: b.image = &a.image->view(); break;
      case ArgKind::Sampler: b.sampler = a.sampler; break;
      case ArgKind::Pipe: b.pipe = &a.pipe->state(); break;
      case ArgKind::Queue: b.queue = bindingOf(*a.queue); break;
    }
  }
  interpreter::NDRangeSpec spec;
  spec.dims = range.dims;
  // OpenCL 3.0 API §5.10 [[_executing_kernels]]: with reqd_work_group_size, no local size given means that size.
  const auto& req = plainKernel.requiredLocalSize;
  const bool chosen = !range.local && !req[0];
  std::array<size_t, 3> local = range.local ? *range.local
                                : req[0]      ? std::array<size_t, 3>{req[0], req[1], req[2]}
                                              : defaultLocalSize(range, cfg, maxWorkGroupSize());
  for (unsigned d = 0; d < 3; ++d) {
    const bool used = d < range.dims;
    spec.global[d] = used ? range.global[d] : 1;
    spec.offset[d] = used ? range.offset[d] : 0;
    spec.local[d] = used ? local[d] : 1;
    if (spec.local[d] == 0) throw Error("local size is 0 in dimension " + std::to_string(d));
    if (used && spec.global[d] == 0) throw Error("global size is 0 in dimension " + std::to_string(d));
  }
  if (req[0] && (spec.local[0] != req[0] || spec.local[1] != req[1] || spec.local[2] != req[2]))
    throw Error("kernel " + name_ + " requires work-group size (" + std::to_string(req[0]) + "," +
                std::to_string(req[1]) + "," + std::to_string(req[2]) + ")");
  uint64_t groupSize = 1;
  for (unsigned d = 0; d < 3; ++d)
    if (__builtin_mul_overflow(groupSize, uint64_t(spec.local[d]), &groupSize) || groupSize > cfg.maxWorkGroupSize)
      throw NDRangeError(NDRangeError::Field::Local,
                         "the work-group size exceeds the device maximum " + std::to_string(cfg.maxWorkGroupSize));
  if (cfg.checks.has(interpreter::Check::Races) && groupSize > interpreter::kRaceCheckerMaxGroupSize)
    throw Error("the race checker tells apart the work-items of work-groups of at most " +
                std::to_string(interpreter::kRaceCheckerMaxGroupSize) + " work-items; this launch's have " +
                std::to_string(groupSize));
  interpreter::ExecConfig ec;
  ec.threads = threads ? threads : cfg.threads;
  ec.instructionBudget = cfg.instructionBudget;
  ec.subgroupSize = cfg.subgroupSize;
  ec.deviceMaxWorkGroupSize = cfg.maxWorkGroupSize;
  ec.shadow = shadow;
  ec.observer = observer;
  ec.onlyGroups = groups;
  ec.localMemSize = cfg.localMemSize;
  ec.progress = cfg.progress;
  // OpenCL C 3.0 §6.15.19.9 [[built-in-functions-helper-functions]] get_default_queue: the kernel's own default, else
  // its device's; none: CLK_NULL_QUEUE.
  if (const auto q = defaultQueue_ ? *defaultQueue_ : program_->device().defaultQueue(); q && cfg.deviceEnqueue)
    ec.defaultDeviceQueue = bindingOf(*q);
  // A shadow run takes the race checker (it only observes accesses); the uninitialised-value checker needs a kernel
  // lowered for it, which the shadow mode's is not.
  ec.checks = cfg.checks;
  if (shadow)
    ec.checks = cfg.checks.has(interpreter::Check::Races) ? interpreter::CheckSet{}.add(interpreter::Check::Races)
                                                          : interpreter::CheckSet{};
  interpreter::ExecResult r;
  try {
    r = interpreter::execute(kernel, bindings, spec, ec);
  } catch (const interpreter::LaunchLimitError& e) {
    // The launch limits on the arguments (a buffer's size, local memory): checked once, by the executor
    // (checkLaunchLimits), and reported as the host API's error with its message.
    throw Error(e.what());
  } catch (const std::invalid_argument& e) {
    // The executor's own argument checks, which the checks above should already have made; the host API's error.
    throw Error(name_ + ": " + e.what());
  }
  RunResult out;
  out.ok = !r.fault.has_value();
  out.fault = std::move(r.fault);
  out.warnings = std::move(r.warnings);
  out.warningCount = r.warningCount;
  out.localSize = {size_t(spec.local[0]), size_t(spec.local[1]), size_t(spec.local[2])};
  out.workItems = r.workItems;
  out.printfOutput = std::move(r.printfOutput);
  out.choicesUsed = std::move(r.choicesUsed);
  out.findings = std::move(r.findings);
  if (cfg.checksFatal && !out.findings.empty()) out.ok = false;
  if (chosen) {
    // OpenCL 3.0 API §5.10 [[_executing_kernels]]: the implementation breaks the NDRange into work-groups.
    interpreter::ChoiceUse u{numerics::Choice::DefaultLocalSize, 1, {}};
    u.first.message = "no work-group size given: (" + std::to_string(spec.local[0]) + "," +
                      std::to_string(spec.local[1]) + "," + std::to_string(spec.local[2]) + ") used";
    out.choicesUsed.push_back(std::move(u));
    std::stable_sort(out.choicesUsed.begin(), out.choicesUsed.end(),
                     [](const auto& a, const auto& b) { return a.choice < b.choice; });
  }
  return out;
}

}  // namespace clref::host
