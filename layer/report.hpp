// What the check layers say about each enqueue (OpenCL) or dispatch (Vulkan): one line on stderr, and with
// CLREF_CHECK_REPORT one JSON object per enqueue appended to that file as one line (a single write, so that several
// processes can share the file). The object and the line are check/enqueue_report.hpp's, which `clref check-spool`
// writes too.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "check/enqueue_report.hpp"

namespace clref::layer {

using Enqueue = host::EnqueueVerdict;

// The line and the JSON object of a checked enqueue: the counts per class, the first violation (index, observed
// value, allowed set, clause), clref's own faults and findings. With CLREF_CHECK_HTML, the enqueue joins the HTML
// report of the whole application, which is written anew after each checked enqueue (html_report.hpp).
void reportChecked(const Enqueue& e);
// A dispatch of a Vulkan compute shader (the Vulkan layer, layer/vulkan/check_layer/): its entry point, the command
// that recorded it, its work-group counts, the set and binding of each kernel argument judged. It is reported at
// once even under CLREF_CHECK_SPOOL, whose cases are OpenCL enqueues.
struct ShaderDispatch {
  std::string entryPoint;
  std::string command;  // "vkCmdDispatch", "vkCmdDispatchBase", "vkCmdDispatchIndirect"
  std::array<uint32_t, 3> groups{1, 1, 1};
  std::map<size_t, std::pair<uint32_t, uint32_t>> bindingOf;  // kernel argument → (set, binding)
  std::string note;  // what the check left out (a binding it could not read)
  host::CheckReport report;
};
void reportChecked(const ShaderDispatch& d);
// An enqueue passed through without a check, and why.
void reportNotChecked(const std::string& kernel, const std::string& reason);

}  // namespace clref::layer
