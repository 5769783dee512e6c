// The progress line of long work (cli/progress_line.hpp): its text, and that `clref run` and `clref check` draw it on
// a terminal (a pseudo terminal from util-linux's `script`), erase it at the end, and print nothing of it to a pipe
// or with --quiet.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <cstdlib>

#include "cli/progress_line.hpp"
#include "clref_run.hpp"

using namespace clref::cli::test;
using namespace std::chrono_literals;

namespace {

// A kernel of 128 work-groups; the tests draw the line at every finished group (CLREF_PROGRESS_INTERVAL_MS=0), so
// that a fast machine draws it as a slow one does.
std::filesystem::path slowCase(const TempDir& dir) {
  dir.write("slow.cl",
            "kernel void slow(global float* out) {\n"
            "  float x = (float)get_global_id(0);\n"
            "  for (int i = 0; i < 20; ++i) x = x * 0.999f + 1.0f;\n"
            "  out[get_global_id(0)] = x;\n"
            "}\n");
  return dir.write("slow.json", R"({"module": "slow.cl", "kernel": "slow", "ndrange": {"global": [8192], "local": [64]},
  "args": [{"buffer": {"type": "float", "count": 8192, "output": true}}]})");
}

// `clref <args>` with stdout and stderr on a pseudo terminal (script -qec): everything it wrote there.
std::string onTerminal(const TempDir& dir, const std::string& args) {
  const auto log = dir.path() / "terminal.txt";
  const std::string command = "CLREF_PROGRESS_INTERVAL_MS=0 script -qec \"'" + std::string(CLREF_EXE) + "' " + args +
                              "\" '" + log.string() + "' >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  CHECK(WIFEXITED(status));
  return slurp(log);
}

}  // namespace

TEST_CASE("progress line: counts, percentage, rate and time left", "[cli][progress]") {
  using clref::cli::ProgressLine;
  // 50 of 200 in 2 s: 25 per second, 150 left take 6 s.
  CHECK(ProgressLine::format("work-groups", 50, 200, 2s) == "50/200 work-groups (25%), 25/s, 6 s left");
  // 3 of 4 runs in 4 s: 0.75 per second, the last takes 1.33 s.
  CHECK(ProgressLine::format("runs", 3, 4, 4s) == "3/4 runs (75%), 0.75/s, 1 s left");
  // 1000 of 1 000 000 in 1 s: 999 000 left at 1000/s are 16 min 39 s.
  CHECK(ProgressLine::format("work-groups", 1000, 1000000, 1s) ==
        "1000/1000000 work-groups (0%), 1000/s, 16 min 39 s left");
  CHECK(ProgressLine::format("runs", 0, 5, 0s) == "0/5 runs (0%)");
}

TEST_CASE("progress line: drawn on a terminal and erased, never on a pipe or with --quiet", "[cli][progress]") {
  TempDir dir;
  const auto caseFile = slowCase(dir);
  const std::string run = "run '" + caseFile.string() + "' --threads 1";
  const std::string terminal = onTerminal(dir, run);
  INFO(terminal);
  // Redrawn in place: a carriage return, the counts of the launch's 128 work-groups, the rest of the line cleared.
  CHECK(terminal.find("\r") != std::string::npos);
  CHECK(terminal.find("/128 work-groups (") != std::string::npos);
  CHECK(terminal.find(" left\x1b[K") != std::string::npos);
  // Erased at the end: the last thing about it is a carriage return and a clear.
  CHECK(terminal.rfind("\r\x1b[K") > terminal.rfind("work-groups ("));
  CHECK(onTerminal(dir, run + " --quiet").find("work-groups") == std::string::npos);
  // stderr a pipe (here a file): nothing.
  setenv("CLREF_PROGRESS_INTERVAL_MS", "0", 1);
  const auto piped = runClref(dir, run + " --out '" + (dir.path() / "out").string() + "'");
  unsetenv("CLREF_PROGRESS_INTERVAL_MS");
  REQUIRE(piped.status == 0);
  CHECK(piped.err.find("work-groups") == std::string::npos);
  CHECK(piped.err.find('\r') == std::string::npos);
  // clref check draws it for its own run too.
  const std::string checked =
      onTerminal(dir, "check '" + caseFile.string() + "' --observed '" + (dir.path() / "out").string() + "'");
  CHECK(checked.find("/128 work-groups (") != std::string::npos);
  CHECK(checked.find("8192 identical") != std::string::npos);
}
