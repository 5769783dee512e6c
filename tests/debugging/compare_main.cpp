// debug_suite_compare: runs every entry of the buggy-kernel suite with run_suite_host under clref's ICD
// (CLREF_CHECKS=all) and under `oclgrind --data-races --uninitialized`, judges each tool's reports against the
// entry's expectation, and prints a side-by-side table with totals. benchmarks/debug_suite_vs_oclgrind.sh builds
// and runs it.
//
//   debug_suite_compare --manifest suite.json --host run_suite_host --icd-dir DIR [--oclgrind PATH]
//                       [--filter TEXT] [--keep DIR]
//
// --keep DIR writes each run's stdout and stderr to DIR/<entry>.<tool>.{out,err}. The exit status is 0 when every
// entry ran under both tools (whatever the verdicts), 2 for bad usage.
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "suite.hpp"

namespace {

using namespace clref::debugging;

struct ToolRun {
  Verdict verdict = Verdict::Error;
  std::string reported;  // summary() of the reports
  double seconds = 0;
};

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `prefix HOST ARGS` with the output in `dir`/<stem>.{out,err}; judges it with `parse`.
ToolRun runTool(const Entry& e, const std::string& prefix, const std::string& host, const std::filesystem::path& dir,
                const std::string& stem, std::vector<Report> (*parse)(const std::string&)) {
  const auto out = dir / (stem + ".out"), err = dir / (stem + ".err");
  // A kernel that loops forever under one tool must not stop the comparison.
  const std::string command = "timeout 600 " + prefix + " " + shellQuote({host}) + " " + shellQuote(hostArguments(e)) +
                              " >" + shellQuote({out.string()}) + " 2>" + shellQuote({err.string()});
  const auto start = std::chrono::steady_clock::now();
  const int raw = std::system(command.c_str());
  ToolRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const std::string stdoutText = slurp(out), stderrText = slurp(err);
  const auto reports = parse(stdoutText + "\n" + stderrText);
  // run_suite_host: 0 ran, 1 the command failed (a fault or a fatal finding), 2 could not build or set up.
  r.verdict = judge(e.expect, e.lines, reports, status == 0 || status == 1);
  r.reported = summary(reports);
  if (r.verdict == Verdict::Error) {
    // Name the reason: the tool's own error, the first error of the build log, or the exit status.
    std::string why = "exit status " + std::to_string(status);
    const std::string text = stdoutText + "\n" + stderrText;
    for (const char* marker : {"error: ", "clCreateKernel failed"}) {
      const auto at = text.find(marker);
      if (at == std::string::npos) continue;
      why = text.substr(at, text.find('\n', at) - at);
      break;
    }
    for (const Report& rep : reports) {
      if (!rep.toolError) continue;
      // Oclgrind's headline starts with the place in its own sources: "OCLGRIND FATAL ERROR (file:line): reason".
      const auto reason = rep.headline.find("): ");
      why = reason == std::string::npos ? rep.headline : rep.headline.substr(reason + 3);
      break;
    }
    r.reported = why;
  }
  return r;
}

std::string cell(const ToolRun& r) { return std::string(toString(r.verdict)) + " (" + r.reported + ")"; }

std::string expectation(const Entry& e) {
  if (!e.expect) return "clean";
  std::string s = std::string(toString(*e.expect)) + "@";
  bool first = true;
  for (int l : e.lines) {
    s += (first ? "" : ",") + std::to_string(l);
    first = false;
  }
  return s;
}

struct Totals {
  std::map<Verdict, int> buggy, clean;
  double seconds = 0;
  void add(const Entry& e, const ToolRun& r) {
    (e.expect ? buggy : clean)[r.verdict]++;
    seconds += r.seconds;
  }
};

void usage() {
  std::cerr << "usage: debug_suite_compare --manifest suite.json --host run_suite_host --icd-dir DIR "
               "[--oclgrind PATH] [--filter TEXT] [--keep DIR]\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string manifest, host, icdDir, oclgrind = "oclgrind", filter, keep;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage();
    const std::string v = argv[++i];
    if (a == "--manifest") manifest = v;
    else if (a == "--host") host = v;
    else if (a == "--icd-dir") icdDir = v;
    else if (a == "--oclgrind") oclgrind = v;
    else if (a == "--filter") filter = v;
    else if (a == "--keep") keep = v;
    else usage();
  }
  if (manifest.empty() || host.empty() || icdDir.empty()) usage();
  std::vector<Entry> entries;
  try {
    entries = loadSuite(manifest);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  std::filesystem::path dir = keep;
  if (keep.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "clref-debug-compare-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::cerr << "cannot create a temporary folder\n";
      return 2;
    }
    dir = pattern;
  } else {
    std::filesystem::create_directories(dir);
  }
  // The checkers come from the environment, as for any unmodified program; the loader sees clref's ICD only.
  const std::string clrefPrefix = "env OCL_ICD_VENDORS=" + shellQuote({icdDir}) + " CLREF_CHECKS=all";
  const std::string oclgrindPrefix = shellQuote({oclgrind}) + " --data-races --uninitialized";

  std::printf("| entry | expected | clref (CLREF_CHECKS=all) | Oclgrind (--data-races --uninitialized) |\n");
  std::printf("|---|---|---|---|\n");
  Totals clref, ocl;
  int ran = 0;
  for (const Entry& e : entries) {
    if (!filter.empty() && e.name.find(filter) == std::string::npos) continue;
    const ToolRun c = runTool(e, clrefPrefix, host, dir, e.name + ".clref", parseClrefOutput);
    const ToolRun o = runTool(e, oclgrindPrefix, host, dir, e.name + ".oclgrind", parseOclgrindOutput);
    clref.add(e, c);
    ocl.add(e, o);
    ++ran;
    std::printf("| %s | %s | %s | %s |\n", e.name.c_str(), expectation(e).c_str(), cell(c).c_str(), cell(o).c_str());
    std::fflush(stdout);
  }
  if (keep.empty()) std::filesystem::remove_all(dir);

  int buggy = 0, clean = 0;
  for (const Entry& e : entries)
    if (filter.empty() || e.name.find(filter) != std::string::npos) (e.expect ? buggy : clean)++;
  std::printf("\nTotals over %d entries (%d buggy kernels, %d clean controls):\n\n", ran, buggy, clean);
  std::printf("| | clref | Oclgrind |\n|---|---|---|\n");
  auto row = [&](const char* what, const std::map<Verdict, int>& a, const std::map<Verdict, int>& b, Verdict v,
                 int of) {
    auto get = [v](const std::map<Verdict, int>& m) {
      const auto it = m.find(v);
      return it == m.end() ? 0 : it->second;
    };
    std::printf("| %s | %d / %d | %d / %d |\n", what, get(a), of, get(b), of);
  };
  row("buggy: found (right kind, right line)", clref.buggy, ocl.buggy, Verdict::Found, buggy);
  row("buggy: right kind, wrong line", clref.buggy, ocl.buggy, Verdict::WrongLine, buggy);
  row("buggy: only another kind", clref.buggy, ocl.buggy, Verdict::WrongKind, buggy);
  row("buggy: missed", clref.buggy, ocl.buggy, Verdict::Missed, buggy);
  row("buggy: tool error", clref.buggy, ocl.buggy, Verdict::Error, buggy);
  row("clean: no report", clref.clean, ocl.clean, Verdict::Clean, clean);
  row("clean: false positive", clref.clean, ocl.clean, Verdict::FalsePositive, clean);
  row("clean: tool error", clref.clean, ocl.clean, Verdict::Error, clean);
  std::printf("| wall time (s) | %.1f | %.1f |\n", clref.seconds, ocl.seconds);
  return 0;
}
