// The buggy-kernel suite (tests/debugging/suite.json): every entry is two test cases, registered from the manifest
// when the test program starts so that a failure names the kernel (ctest adds the prefix "debugging:"):
//   "host api: NAME"  the entry as a case file through the host API with every checker (what `clref run --check all`
//                     runs): the expected kind of problem at one of the expected lines, or for a clean control no
//                     finding and no fault; and the same reports with every work-item run alone (CLREF_LANES=0);
//   "icd: NAME"       the same through the ICD loader with clref's ICD only: run_suite_host (a plain OpenCL C host
//                     program) under CLREF_CHECKS=all, judged on what clref prints and passes to the context's
//                     callback.
// And one test case checks the manifest itself.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "host/host.hpp"
#include "cli/case_file.hpp"
#include "suite.hpp"

namespace {

using namespace clref;
using namespace clref::debugging;

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The line of a diagnostic's "file:line", when it has one.
void addSourceLine(std::set<int>& lines, const std::string& source) {
  const auto colon = source.rfind(':');
  if (colon == std::string::npos || colon + 1 == source.size()) return;
  try {
    lines.insert(std::stoi(source.substr(colon + 1)));
  } catch (const std::exception&) {
    // No number after the last colon: a source without a line.
  }
}

Kind kindOf(interpreter::FaultKind k) {
  switch (k) {
    case interpreter::FaultKind::DataRace: return Kind::Race;
    // The uninitialised-value checker's findings, and the always-on fault for an OpUndef reaching a branch or an
    // address: both are a use of a value the program never set.
    case interpreter::FaultKind::UninitialisedValue:
    case interpreter::FaultKind::UndefinedValue: return Kind::Uninitialized;
    case interpreter::FaultKind::OutOfBounds: return Kind::OutOfBounds;
    case interpreter::FaultKind::BarrierDivergence: return Kind::BarrierDivergence;
    default: return Kind::Other;
  }
}

// A host API run's findings and fault as the suite's reports.
std::vector<Report> reportsOf(const host::RunResult& r) {
  std::vector<Report> reports;
  for (const interpreter::Finding& f : r.findings) {
    Report rep{kindOf(f.at.kind), {}, f.format(), false};
    addSourceLine(rep.lines, f.at.source);
    if (f.hasOther) addSourceLine(rep.lines, f.other.source);
    reports.push_back(rep);
  }
  if (r.fault) {
    Report rep{kindOf(r.fault->kind), {}, r.fault->format(), r.fault->kind == interpreter::FaultKind::Unsupported};
    addSourceLine(rep.lines, r.fault->source);
    reports.push_back(rep);
  }
  return reports;
}

std::string describe(const std::vector<Report>& reports) {
  std::string s;
  for (const Report& r : reports) s += "\n--- " + r.headline;
  return s.empty() ? "\n(nothing reported)" : s;
}

std::string expectation(const std::optional<Kind>& expect, const std::set<int>& lines) {
  if (!expect) return "clean";
  std::string s = std::string(toString(*expect)) + " at line";
  for (int l : lines) s += " " + std::to_string(l);
  return s;
}

void runThroughHostApi(const Entry& e) {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const auto c = cli::parseCase(caseFileJson(e), e.file.parent_path() / (e.name + ".json"));
  host::Device device;
  device.config().checks = interpreter::parseChecks("all");
  const auto run = cli::runCase(c, device);
  const auto reports = reportsOf(run.result);
  const Verdict v = judge(e.expectCaseFile, e.lines, reports, true);
  INFO("expected: " << expectation(e.expectCaseFile, e.lines) << "\nreported: " << summary(reports)
                    << describe(reports));
  CHECK(v == (e.expectCaseFile ? Verdict::Found : Verdict::Clean));
  // The same reports, word for word, with every work-item run alone (CLREF_LANES=0): the checkers on the lane
  // executor find what they find one by one.
  ::setenv("CLREF_LANES", "0", 1);
  const auto alone = cli::runCase(c, device);
  ::unsetenv("CLREF_LANES");
  CHECK(describe(reportsOf(alone.result)) == describe(reports));
  for (size_t f = 0; f < alone.result.findings.size() && f < run.result.findings.size(); ++f)
    CHECK(alone.result.findings[f].count == run.result.findings[f].count);
}

// A fresh folder for one run's output files, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "clref-debug-suite-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Through the ICD; `fatal` false runs with CLREF_CHECKS_FATAL=0, under which a finding is reported and the command
// still succeeds.
void runThroughIcd(const Entry& e, bool fatal = true) {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  ScratchDir dir;
  const auto out = dir.path() / "stdout.txt", err = dir.path() / "stderr.txt";
  // The loader sees clref's ICD only; the checkers come from the environment, as for any unmodified program.
  const std::string command = "OCL_ICD_VENDORS=" + shellQuote({CLREF_ICD_DIR}) + " CLREF_CHECKS=all " +
                              (fatal ? "" : "CLREF_CHECKS_FATAL=0 ") +
                              shellQuote({RUN_SUITE_HOST}) + " " + shellQuote(hostArguments(e)) + " >" +
                              shellQuote({out.string()}) + " 2>" + shellQuote({err.string()});
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const std::string stdoutText = slurp(out), stderrText = slurp(err);
  INFO("command: " << command << "\nexit status " << status << "\nstdout:\n" << stdoutText << "\nstderr:\n"
                   << stderrText);
  REQUIRE(stdoutText.find("device: clref reference device") != std::string::npos);
  const auto reports = parseClrefOutput(stdoutText + "\n" + stderrText);
  // 0: ran; 1: the command failed, as it does for a fault or a fatal finding; anything else: could not run.
  const Verdict v = judge(e.expect, e.lines, reports, status == 0 || status == 1);
  INFO("expected: " << expectation(e.expect, e.lines) << "\nreported: " << summary(reports));
  CHECK(v == (e.expect ? Verdict::Found : Verdict::Clean));
  // A fault, or a finding of a checker, ends the command with an error status (the host program exits 1), unless
  // CLREF_CHECKS_FATAL=0 says to keep going after findings; faults always fail.
  const bool fails = e.expect && (fatal || *e.expect == Kind::OutOfBounds || *e.expect == Kind::BarrierDivergence);
  CHECK(status == (fails ? 1 : 0));
}

// The manifest: at least 20 buggy kernels and 20 clean controls, each kernel in its file, and each buggy entry's
// expected lines include the line its kernel marks "BUG" (so the lines follow edits of the kernels).
void checkManifest(const std::vector<Entry>& entries) {
  size_t buggy = 0, clean = 0;
  for (const Entry& e : entries) {
    INFO("entry " << e.name);
    const std::string text = slurp(e.file);
    REQUIRE(!text.empty());
    CHECK(text.find("kernel void " + e.kernel + "(") != std::string::npos);
    if (!e.expect) {
      ++clean;
      CHECK(text.find("BUG") == std::string::npos);
      continue;
    }
    ++buggy;
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    bool marked = false;
    for (int l : e.lines) {
      REQUIRE(l >= 1);
      REQUIRE(size_t(l) <= lines.size());
      marked = marked || lines[size_t(l) - 1].find("BUG") != std::string::npos;
    }
    CHECK(marked);
  }
  CHECK(buggy >= 20);
  CHECK(clean >= 20);
}

}  // namespace

// Verdicts by name in failure messages.
template <> struct Catch::StringMaker<clref::debugging::Verdict> {
  static std::string convert(clref::debugging::Verdict v) { return clref::debugging::toString(v); }
};

namespace {

using namespace clref::debugging;

class EntryInvoker : public Catch::ITestInvoker {
 public:
  EntryInvoker(Entry entry, bool icd, bool fatal = true) : entry_(std::move(entry)), icd_(icd), fatal_(fatal) {}
  void invoke() const override {
    if (icd_)
      runThroughIcd(entry_, fatal_);
    else
      runThroughHostApi(entry_);
  }

 private:
  Entry entry_;
  bool icd_, fatal_;
};

class ManifestInvoker : public Catch::ITestInvoker {
 public:
  ManifestInvoker(std::vector<Entry> entries, std::string error) : entries_(std::move(entries)), error_(std::move(error)) {}
  void invoke() const override {
    INFO(error_);
    REQUIRE(error_.empty());
    checkManifest(entries_);
  }

 private:
  std::vector<Entry> entries_;
  std::string error_;
};

// Registers the test cases while the program starts, before Catch lists or runs them.
struct Registrar {
  Registrar() {
    std::vector<Entry> entries;
    std::string error;
    try {
      entries = loadSuite(CLREF_DEBUG_SUITE);
    } catch (const std::exception& e) {
      error = e.what();
    }
    Catch::AutoReg(new ManifestInvoker(entries, error), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags{"the suite's manifest", "[debugging]"});
    for (const Entry& e : entries) {
      const std::string host = "host api: " + e.name, icd = "icd: " + e.name;
      Catch::AutoReg(new EntryInvoker(e, false), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                     Catch::NameAndTags{host, "[debugging][host]"});
#if CLREF_HAVE_ICD_LOADER
      Catch::AutoReg(new EntryInvoker(e, true), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                     Catch::NameAndTags{icd, "[debugging][icd]"});
      // One race and one uninitialised value again with CLREF_CHECKS_FATAL=0: reported, and the command succeeds.
      if (e.name == "race_reduce_no_barrier" || e.name == "uninit_private_cond")
        Catch::AutoReg(new EntryInvoker(e, true, false), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                       Catch::NameAndTags{"icd with CLREF_CHECKS_FATAL=0: " + e.name, "[debugging][icd]"});
#endif
    }
  }
};
const Registrar registrar;

}  // namespace
