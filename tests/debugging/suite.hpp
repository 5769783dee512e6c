// The buggy-kernel suite (tests/debugging/suite.json, described in tests/debugging/README.md): its entries, the
// command lines that run one (a case file for `clref run` and the host API, arguments for run_suite_host), and the
// classification of what a tool reported against what the entry expects. Shared by the Catch2 tests and the
// comparison with Oclgrind (debug_suite_compare).
#pragma once
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clref::debugging {

// What a tool reports about a kernel, in the suite's words.
enum class Kind { Race, Uninitialized, OutOfBounds, BarrierDivergence, Other };
const char* toString(Kind);
// "race", "uninitialized", "out-of-bounds", "barrier-divergence"; none for anything else ("clean" included).
std::optional<Kind> parseKind(const std::string& name);

struct Entry {
  std::string name;
  std::filesystem::path file;  // the kernel's OpenCL C source, absolute
  std::string kernel;
  std::string clStd;         // "CL1.2", "CL2.0"
  std::string buildOptions;  // besides -cl-std and -g
  std::vector<size_t> global, local;
  std::string argsJson;                 // the "args" array, as case files write arguments
  std::optional<Kind> expect;           // none: a clean control
  std::optional<Kind> expectCaseFile;   // what a case file (always initialised buffers) gives instead
  std::set<int> lines;                  // a report of the expected kind must name one of these source lines
  // The build options every tool gets: -cl-std and the entry's own (tools add -g themselves).
  std::string options() const;
};

// The manifest's entries, their files resolved against the manifest's folder. Throws std::runtime_error naming the
// entry and the field for a malformed manifest.
std::vector<Entry> loadSuite(const std::filesystem::path& manifest);

// A case file (golden/README.md) for the entry, with -g in its build options; a buffer the entry creates without
// host data is zero-initialised there, as case files always initialise their buffers.
std::string caseFileJson(const Entry& entry);
// The arguments of run_suite_host for the entry (tests/debugging/run_suite_host.c), after the program's name.
std::vector<std::string> hostArguments(const Entry& entry);
// `words` quoted for /bin/sh, separated by spaces.
std::string shellQuote(const std::vector<std::string>& words);

// One problem a tool reported: its kind, every source line it names, and its first line of text. A tool error is the
// tool's own limitation (an unsupported instruction or built-in), not a problem in the kernel.
struct Report {
  Kind kind = Kind::Other;
  std::set<int> lines;
  std::string headline;
  bool toolError = false;
};
// The problems in clref's output (the ICD's stderr and context callback, or `clref run`'s stderr): findings
// ("data race: ...", "use of an uninitialised value: ...") and faults ("fault: out-of-bounds access: ..."), each
// with the lines its instruction and source lines name.
std::vector<Report> parseClrefOutput(const std::string& text);
// The problems in Oclgrind's stderr ("Read-write data race at ...", "Uninitialized value ...", "Invalid read ...",
// "Work-group divergence detected ...", "OCLGRIND FATAL ERROR ..."), each with its "At line N" lines.
std::vector<Report> parseOclgrindOutput(const std::string& text);

// How a tool did on an entry.
enum class Verdict {
  Found,          // the expected kind at an expected line
  WrongLine,      // the expected kind, but at none of the expected lines
  WrongKind,      // only other kinds of problem
  Missed,         // nothing reported on a buggy kernel
  Clean,          // nothing reported on a clean control
  FalsePositive,  // something reported on a clean control
  Error           // the tool could not run the entry (build failure, unsupported feature, crash)
};
const char* toString(Verdict);
// The verdict for `reports` against `expect` (none: clean) and `lines`; `ran` says whether the tool ran the kernel
// to the end or stopped with a report (false: it failed without reporting a problem in the kernel).
Verdict judge(const std::optional<Kind>& expect, const std::set<int>& lines, const std::vector<Report>& reports,
              bool ran);
// A short description of `reports` for tables and failure messages: "race@8,9 uninitialized@6".
std::string summary(const std::vector<Report>& reports);

}  // namespace clref::debugging
