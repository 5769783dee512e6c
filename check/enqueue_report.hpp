// A judged kernel enqueue as the check layer reports it (CLREF_CHECK_REPORT) and `clref check-spool` writes it: one
// JSON object per enqueue (one line in the report) and one summary line. Both tools build them here, so that a spool
// judged later gives the report the layer would have written at once.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "check/check.hpp"

namespace clref::host {

struct EnqueueVerdict {
  std::string kernel;
  NDRange range;
  bool deviceChoseLocal = false;  // the application gave no local size: clref used its own choice
  std::string optionsNote;        // build options clref could not weigh
  CheckReport report;
  bool strict = false;  // CLREF_CHECK_STRICT: "any value" sets were judged undetermined
};

// The JSON object of a checked enqueue: the counts per class (check_json.hpp toJson without the per-buffer details),
// "checked", the NDRange, the sampled groups, every violating or undetermined element (at most 1000, the rest counted
// in "details_omitted"), clref's fault and findings.
nlohmann::json enqueueJson(const EnqueueVerdict& e);
// "clref check: KERNEL global (..) local (..): N identical, ..." with the first violation, a fault and the findings on
// further lines; `j` is enqueueJson(e).
std::string enqueueLine(const EnqueueVerdict& e, const nlohmann::json& j);
// An enqueue passed through without a check, and why: {"kernel", "checked": false, "reason"}.
nlohmann::json notCheckedJson(const std::string& kernel, const std::string& reason);
// A report line as the layer appends it: the object on one line.
std::string reportLine(const nlohmann::json& j);

}  // namespace clref::host
