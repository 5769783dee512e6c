// A CheckReport (check.hpp) as JSON, for `clref check --report` and the check layer's CLREF_CHECK_REPORT: the counts
// per class, per buffer with every element that is not identical, and the open decisions.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "check/check.hpp"

namespace clref::host {

// {"clref": {"version", "commit"}, "kernel", "identical", "allowed", "violations", "undetermined", "buffers":
// [{"arg", "name", "elements", the counts, "details": [{"arg", "index", "class", "observed", "reference", "allowed",
// "reason", "rule" and "instruction" when known}]}], "decisions": [{"message", "instruction", "source"}],
// "decision_count", "control_decision" (when there is one)}.
nlohmann::json toJson(const CheckReport& report, const std::string& kernel);

}  // namespace clref::host
