// One observed launch feeding the trace and the profile (observed_run.hpp).
#include "cli/observed_run.hpp"

#include "cli/profile.hpp"

namespace clref::cli {

namespace {

// The launch has one observer (ExecConfig::observer); this one passes every event on to the trace and the profile.
class Both : public interpreter::ExecutionObserver {
 public:
  Both(TraceObserver* trace, ProfileObserver* profile) : trace_(trace), profile_(profile) {}
  void instruction(interpreter::WorkItem& wi, uint32_t inst) override {
    if (trace_) trace_->instruction(wi, inst);
    if (profile_) profile_->instruction(wi, inst);
  }
  void result(interpreter::WorkItem& wi, uint32_t inst, const uint8_t* bytes, uint32_t size) override {
    if (trace_) trace_->result(wi, inst, bytes, size);
  }
  void access(interpreter::WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes,
              bool write) override {
    if (trace_) trace_->access(wi, inst, tag, off, bytes, write);
    if (profile_) profile_->access(wi, inst, tag, off, bytes, write);
  }

 private:
  TraceObserver* trace_;
  ProfileObserver* profile_;
};

}  // namespace

ObservedRun runObserved(host::Kernel& kernel, const host::NDRange& range, const ObserveOptions& options) {
  std::optional<TraceObserver> trace;
  if (!options.trace.empty()) trace.emplace(options.trace, *options.traceOut, options.traceLimit);
  std::optional<ProfileObserver> profile;
  if (options.profile) profile.emplace();
  Both both(trace ? &*trace : nullptr, profile ? &*profile : nullptr);
  ObservedRun run;
  run.result = kernel.runObserved(range, both);
  if (trace) {
    trace->finish();
    run.traceLines = trace->lines();
  }
  if (profile) run.profile = profile->report();
  return run;
}

}  // namespace clref::cli
