// `clref check CASE.json --observed DIR`: another implementation's output buffers of a case judged element by element
// (check/check.hpp): identical, allowed, violation or undetermined, a summary per buffer on stdout and the full detail
// as JSON (--report) and as a page to look at (--html). DIR holds the buffers named as `clref run --out` names them:
// <case>.arg<N>.bin (raw little-endian elements) or <case>.arg<N>.txt (one value per line, as clref writes them).
// Exit status: 0 no violation, 1 at least one violation (or clref's own run faulted), 2 bad input.
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "host/host.hpp"
#include "cli/case_file.hpp"

namespace clref::cli {

struct CheckCommandOptions {
  std::string casePath;
  std::string observedDir;
  std::string profile = "full";  // full or embedded
  std::string options;           // build options the other device used: -cl-fast-relaxed-math, -cl-mad-enable, ...
  std::string reportPath;        // JSON report
  std::string htmlPath;          // HTML report (check/html_report.hpp)
  std::vector<std::string> choices;
  uint64_t budget = 0;
  size_t shown = 5;  // details printed per buffer
  bool strict = false;  // --strict: elements whose allowed set is any value are undetermined (CheckOptions::strict)
  // --device [NAME]: a shader case's outputs come from running it on the Vulkan device whose name contains NAME
  // (empty: the first; cli/vulkan_case.hpp) instead of from observedDir; clref runs it with that device's subgroup
  // size. plantErrors: a wrong device (host/planted_errors.hpp).
  std::optional<std::string> device;
  uint64_t plantErrors = 0;
  bool quiet = false;  // --quiet: no progress line (cli/progress_line.hpp)
  // How the report is made from the prepared case and the observed outputs: host::check here when empty; under
  // mpirun, the launch split over the ranks (cli/shard.hpp checkSharded). nullopt: this process reports nothing (a
  // rank other than 0). Its notes (why the launch was judged on one rank) go to stderr and into the JSON report.
  std::function<std::optional<host::CheckReport>(
      const Case&, PreparedCase&, const host::Device&, const std::vector<host::ObservedBuffer>&,
      const std::vector<host::ObservedImage>&, const host::CheckOptions&, std::vector<std::string>& notes)>
      judge;
};

int checkCommand(const CheckCommandOptions& o, const host::Device& device);

// A report as `clref check` prints it: per buffer `label(b)` + "N elements): counts", where the "any value" sets came
// from, the first `shown` violations and undetermined elements, and the first open decision. `label` gives the start of
// the line up to the element count ("arg 2 (out, ", or "arg 2 (" for an unnamed parameter); the printer closes it.
void printCheckReport(std::ostream& out, const host::CheckReport& report,
                      const std::function<std::string(const host::BufferVerdict&)>& label, size_t shown, bool strict);

}  // namespace clref::cli
