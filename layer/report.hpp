// What the check layers say about each enqueue (OpenCL) or dispatch (Vulkan): one line on stderr, and with CLREF_CHECK_REPORT one JSON object per
// enqueue appended to that file as one line (a single write, so that several processes can share the file).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "check/check.hpp"

namespace clref::layer {

struct Enqueue {
  std::string kernel;
  host::NDRange range;
  bool deviceChoseLocal = false;  // the application gave no local size: clref used its own choice
  std::string optionsNote;        // build options clref could not weigh
  host::CheckReport report;
};

// The line and the JSON object of a checked enqueue: the counts per class, the first violation (index, observed
// value, allowed set, clause), clref's own faults and findings.
void reportChecked(const Enqueue& e);
// A dispatch of a Vulkan compute shader (the Vulkan layer, layer/vulkan/check_layer/): its entry point, the command
// that recorded it, its work-group counts, the set and binding of each kernel argument judged.
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
