// `clref run --trace` and `--profile` together: one observed launch of a prepared case (one thread) that feeds the
// trace and the profile observers.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "cli/trace.hpp"

namespace clref::cli {

struct ObserveOptions {
  std::vector<GlobalId> trace;        // the work-items to trace; none: no trace
  std::ostream* traceOut = nullptr;   // where the trace goes (required with `trace`)
  uint64_t traceLimit = 100000;       // trace lines printed at most
  bool profile = false;
};

struct ObservedRun {
  host::RunResult result;
  std::optional<std::string> profile;  // ProfileObserver::report(), with ObserveOptions::profile
  uint64_t traceLines = 0;
};

// Runs `kernel` over `range` observed (host::Kernel::runObserved): the trace is written while the kernel runs, the
// line of a faulting instruction included; the profile counts the whole run, a faulting one up to its fault.
ObservedRun runObserved(host::Kernel& kernel, const host::NDRange& range, const ObserveOptions& options);

}  // namespace clref::cli
