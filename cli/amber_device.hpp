// `clref amber SCRIPT --device [NAME]`: the script's pipelines run on a real Vulkan device (layer/vulkan/
// compute_device.hpp) instead of on clref, and every RUN's storage buffers, as the device left them, are judged against
// clref's allowed sets for the same inputs (check/check.hpp): identical, allowed, violation or undetermined, printed as
// `clref check` prints them. The script's EXPECTs then judge the device's buffers, as amber on that device would.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/html_report.hpp"
#include "cli/amber_script.hpp"
#include "host/host.hpp"

namespace clref::vulkan {
class ComputeDevice;
}

namespace clref::cli::amber {

class DeviceJudge {
 public:
  // Opens the device whose name contains `name` (empty: the first) with the script's device extensions, and prints
  // what it is. Throws Unsupported when the device lacks a feature or extension the script asks for. `plantEvery`
  // nonzero: a wrong device — after each RUN, element i of each storage buffer the shader may write, for i a multiple
  // of it, is changed beyond any allowed set (host/planted_errors.hpp) before it is judged.
  DeviceJudge(const Script& script, const std::string& name, uint64_t plantEvery, std::ostream& out);
  ~DeviceJudge();

  // The subgroup size clref runs the script's shaders with: the device's.
  uint32_t subgroupSize() const;
  uint32_t maxSubgroupSize() const;
  // The subgroup size `p` requires on this device (REQUIRED_SIZE MIN and MAX are the device's bounds); none when it
  // requires none. Throws Unsupported for a size outside the device's range.
  std::optional<uint32_t> requiredSize(const Pipeline& p) const;
  // Throws Unsupported when the device cannot accept pipeline `p`'s shader (a SPIR-V extension it lacks).
  void requireShader(const Pipeline& p, const std::vector<uint32_t>& words) const;

  // One RUN: `kernel`'s arguments hold the inputs (the buffers as the device left them before this RUN); the device
  // runs `words` with them, clref judges the device's storage buffers, and `buffers` then hold the device's results.
  // `args` pairs each kernel argument with its binding. Returns false when the device could not run it (printed).
  bool run(const Command& c, const Pipeline& pipeline, const std::vector<uint32_t>& words, host::Kernel& kernel,
           const std::vector<std::pair<size_t, const Binding*>>& args,
           std::map<std::string, std::shared_ptr<host::Buffer>>& buffers);

  uint64_t violations() const { return violations_; }
  // RUNs nothing was judged of: the device could not run them, or clref's own run faulted.
  uint64_t unjudged() const { return unjudged_; }
  // The JSON report of every judged RUN (`--report FILE`); throws Error when the file cannot be written.
  void writeReport(const std::string& path) const;
  // The HTML report of every judged RUN (`--html FILE`, check/html_report.hpp); throws Error when the file cannot be
  // written.
  void writeHtml(const std::string& path) const;

 private:
  const Script& script_;
  std::ostream& out_;
  std::unique_ptr<vulkan::ComputeDevice> device_;
  uint64_t plantEvery_ = 0;
  uint64_t violations_ = 0, unjudged_ = 0;
  std::vector<nlohmann::json> runs_;  // each judged RUN's report
  std::vector<host::HtmlSection> sections_;  // and its part of the HTML report
};

}  // namespace clref::cli::amber
