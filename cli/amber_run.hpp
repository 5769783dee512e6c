// `clref amber SCRIPT.amber`: runs an AmberScript's compute pipelines on the reference device (host/host.hpp) and
// judges its EXPECTs. Output: one PASS or FAIL line per EXPECT (and a FAIL line for a RUN that faults, with clref's
// diagnostic), then "N passed, M failed".
//
// Values are judged as amber's verifier judges them: the expected value is first converted to the buffer's type; an
// integer compares exactly, as the type's signed or unsigned value; a real's EQ and NE allow 0.000001% of the
// expected value (amber's kEpsilon) unless TOLERANCE gives one per component (absolute, or relative with %); LT … GE
// compare the numbers. Unlike amber, a NaN equals only a NaN. EQ_BUFFER compares every value's bytes, RMSE_BUFFER the
// root mean square of the values' differences; both need buffers of one data type and size.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>

#include "compiler/shader_source.hpp"

namespace clref::cli::amber {

// The exit statuses of `clref amber`.
constexpr int kAllPassed = 0, kExpectFailed = 1, kScriptError = 2, kUnsupported = 3;

struct RunOptions {
  // The Vulkan version of shaders without TARGET_ENV; none: Vulkan 1.0 (SPIR-V 1.0), amber's default spv1.0.
  std::optional<compiler::VulkanVersion> targetEnv;
  unsigned threads = 0;  // worker threads (0: all hardware threads)
  // `--device [NAME]`: run the pipelines on the Vulkan device whose name contains NAME (empty: the first) and judge
  // each RUN's storage buffers against clref's allowed sets (amber_device.hpp); a violation makes the exit status 1.
  std::optional<std::string> device;
  std::string reportPath;  // with `device`: the JSON report of every judged RUN
  std::string htmlPath;    // with `device`: the HTML report of every judged RUN (check/html_report.hpp)
  uint64_t plantErrors = 0;  // with `device`: a wrong device (DeviceJudge's plantEvery)
  bool quiet = false;        // no progress line (cli/progress_line.hpp)
};

// Parses and runs the script `text`. `name` is what every message cites, `directory` where FILE paths are found.
// Results go to `out`; script errors, unsupported features and notes to `err`. Returns the exit status.
int runScript(const std::string& text, const std::string& name, const std::string& directory, std::ostream& out,
              std::ostream& err, const RunOptions& options = {});

// The script in file `path` (kScriptError when it cannot be read).
int runScriptFile(const std::string& path, std::ostream& out, std::ostream& err, const RunOptions& options = {});

}  // namespace clref::cli::amber
