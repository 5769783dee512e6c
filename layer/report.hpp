// What the check layer says about each enqueue: one line on stderr, and with CLREF_CHECK_REPORT one JSON object per
// enqueue appended to that file as one line (a single write, so that several processes can share the file). The
// object and the line are check/enqueue_report.hpp's, which `clref check-spool` writes too.
#pragma once
#include <string>

#include "check/enqueue_report.hpp"

namespace clref::layer {

using Enqueue = host::EnqueueVerdict;

// The line and the JSON object of a checked enqueue: the counts per class, the first violation (index, observed
// value, allowed set, clause), clref's own faults and findings.
void reportChecked(const Enqueue& e);
// An enqueue passed through without a check, and why.
void reportNotChecked(const std::string& kernel, const std::string& reason);

}  // namespace clref::layer
