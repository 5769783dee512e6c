// `clref run` and `clref check` of one launch split over MPI ranks (cli/shard.hpp): under mpirun with 2 and 4 ranks,
// every golden case gives the output files one process writes, byte for byte, and `check` against outputs with
// planted differences gives the same summary and the same JSON report. A case the ranks cannot split says why (a
// "run on one rank" / "judged on one rank" note); the test names those cases, and requires the note of every case
// whose OpenCL C source calls printf or an atomic function (independent of clref's rule, which reads the module).
//
// CLREF_SHARD_EVERY=K takes every K-th case only (default 1: every case; tests/cli/CMakeLists.txt says which runs take
// which).
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "clref_run.hpp"

using namespace clref::cli::test;
namespace fs = std::filesystem;

namespace {

struct Mpi {
  int status = -1;
  std::string out, err;
};

Mpi mpirun(const TempDir& dir, int ranks, const std::string& args) {
  const auto out = dir.path() / "mpi.out", err = dir.path() / "mpi.err";
  // Open MPI's own allocations outlive the program: LeakSanitizer (the sanitized build) would fail the ranks for them.
  const std::string command =
      "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "OMPI_MCA_btl=self,vader '" CLREF_MPIEXEC "' --oversubscribe --allow-run-as-root -np " +
      std::to_string(ranks) + " '" CLREF_EXE "' " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

// Every regular file of a folder, by name, with its bytes.
std::map<std::string, std::string> filesOf(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files[e.path().filename().string()] = slurp(e.path());
  return files;
}

// Observed outputs that differ from clref's: the raw files of `from` with one byte in 97 changed (the first of each
// 97), the text files left out so that check reads the raw ones.
void plantDifferences(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& [name, bytes] : filesOf(from)) {
    if (name.size() < 4 || name.substr(name.size() - 4) != ".bin") continue;
    std::string changed = bytes;
    for (size_t i = 0; i < changed.size(); i += 97) changed[i] = char(changed[i] ^ 0x5a);
    std::ofstream(to / name, std::ios::binary) << changed;
  }
}

// The report without the notes (which say why a case ran on one rank) and without the lines it was written after.
std::string withoutNotes(std::string report) {
  return std::regex_replace(report, std::regex(",?\\n  \"notes\": \\[[^\\]]*\\]"), "");
}

// The note's reason, "" when the launch was split.
std::string noteOf(const std::string& err) {
  std::smatch m;
  static const std::regex note("clref: (?:run|judged) on one rank: ([^\\n]*)");
  return std::regex_search(err, m, note) ? m[1].str() : "";
}

// Whether the case's OpenCL C source calls printf or an atomic function on global memory (atomic_*/atom_*): then no
// split is allowed.
bool mustNotSplit(const fs::path& casePath) {
  std::ifstream in(casePath);
  std::string json((std::istreambuf_iterator<char>(in)), {});
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"module\": \"([^\"]+)\""))) return false;
  fs::path module = casePath.parent_path() / m[1].str();
  // A golden .spv is built from golden/kernels/<name>.cl (golden/build.sh): the stem before the first dot.
  if (module.extension() == ".spv")
    module = casePath.parent_path() / ".." / "kernels" / (module.stem().string().substr(0, module.stem().string().find('.')) + ".cl");
  if (module.extension() != ".cl" || !fs::exists(module)) return false;
  const std::string source = slurp(module);
  return std::regex_search(source, std::regex("\\bprintf\\s*\\(|\\batomic_(?:inc|dec|add|sub|xchg|cmpxchg|min|max|and|or|xor|fetch|store|load|exchange|compare)|\\batom_"));
}

void checkCorpus(int ranks) {
  const char* every = std::getenv("CLREF_SHARD_EVERY");
  const size_t step = every ? std::max(1, std::atoi(every)) : 1;
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(fs::path(CLREF_GOLDEN_DIR) / "cases"))
    if (e.path().extension() == ".json") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  size_t split = 0, tried = 0;
  std::string unsplit;
  for (size_t i = 0; i < cases.size(); i += step) {
    const fs::path& c = cases[i];
    const std::string name = c.stem().string();
    TempDir dir;
    const auto one = dir.path() / "one", many = dir.path() / "many", observed = dir.path() / "observed";
    const CliResult base = runClref(dir, "run '" + c.string() + "' --quiet --out '" + one.string() + "'");
    if (base.status != 0) continue;  // a case that faults or is refused writes no output to compare
    ++tried;
    INFO(name << " under " << ranks << " ranks");
    const Mpi run = mpirun(dir, ranks, "run '" + c.string() + "' --quiet --out '" + many.string() + "'");
    INFO("the ranks' stderr of run: " << run.err);  // a failure names its cause
    CHECK(run.status == 0);
    CHECK(filesOf(many) == filesOf(one));
    CHECK(run.out == base.out);
    const std::string runNote = noteOf(run.err);

    plantDifferences(one, observed);
    const auto r1 = dir.path() / "one.json", rn = dir.path() / "many.json";
    const CliResult check1 = runClref(dir, "check '" + c.string() + "' --quiet --observed '" + observed.string() +
                                               "' --report '" + r1.string() + "'");
    const Mpi checkN = mpirun(dir, ranks, "check '" + c.string() + "' --quiet --observed '" + observed.string() +
                                              "' --report '" + rn.string() + "'");
    INFO("the ranks' stderr of check: " << checkN.err);
    CHECK(checkN.status == check1.status);
    CHECK(checkN.out == check1.out);
    const std::string checkNote = noteOf(checkN.err);
    if (checkNote.empty()) {
      CHECK(slurp(rn) == slurp(r1));  // byte for byte
    } else {
      CHECK(withoutNotes(slurp(rn)) == slurp(r1));
      CHECK(has(slurp(rn), "\"notes\""));
    }
    if (mustNotSplit(c)) CHECK(!runNote.empty());
    if (runNote.empty() && checkNote.empty())
      ++split;
    else
      unsplit += "  " + name + ": " + (runNote.empty() ? "run split; " : "run: " + runNote + "; ") +
                 (checkNote.empty() ? "check split" : "check: " + checkNote) + "\n";
  }
  // The cases a split does not cover, named with their reasons (in the test's output).
  WARN(ranks << " ranks: " << split << " of " << tried << " golden cases split in both run and check; the others:\n"
             << unsplit);
  CHECK(tried > 0);
  CHECK(split > 0);
}

}  // namespace

TEST_CASE("shard: run and check of the golden cases under 2 MPI ranks are one process's", "[shard][mpi]") {
  checkCorpus(2);
}

TEST_CASE("shard: run and check of the golden cases under 4 MPI ranks are one process's", "[shard][mpi]") {
  checkCorpus(4);
}

namespace {

// How often `part` stands in `text`.
size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The first line of `text`.
std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

// cli/rank_output.hpp: under mpirun the runs that are not split (--trace, --profile, --perturb) and a rejected case
// print once, what one process prints; the expected output is that of one process, run here.
TEST_CASE("shard: under 2 MPI ranks --trace, --profile, --perturb and a rejection print once", "[shard][mpi]") {
  TempDir dir;
  const std::string vadd = "run '" + std::string(CLREF_GOLDEN_DIR) + "/cases/vadd.json'";
  for (const std::string& args : {vadd + " --profile", vadd + " --trace 1", vadd + " --perturb 7 --print"}) {
    INFO(args);
    const CliResult one = runClref(dir, args);
    REQUIRE(one.status == 0);
    REQUIRE(!one.out.empty());
    const Mpi two = mpirun(dir, 2, args);
    INFO("the ranks' stderr: " << two.err);
    CHECK(two.status == 0);
    CHECK(two.out == one.out);
    CHECK(occurrences(two.out, firstLine(one.out)) == occurrences(one.out, firstLine(one.out)));
    CHECK(two.err.find("rank 1") == std::string::npos);
    // --perturb's note on stderr, once.
    CHECK(occurrences(two.err, "within their allowed sets") == occurrences(one.err, "within their allowed sets"));
  }
  // A case that does not exist: one process's message, once, and its status.
  const std::string missingFile = "'" + (dir.path() / "missing.json").string() + "'";
  const std::string missing = "run " + missingFile;
  const CliResult rejectedOne = runClref(dir, missing);
  REQUIRE(rejectedOne.status != 0);
  REQUIRE(!rejectedOne.err.empty());
  const Mpi rejectedTwo = mpirun(dir, 2, missing);
  CHECK(rejectedTwo.status == rejectedOne.status);
  // (mpirun adds its own lines on a non-zero exit.)
  CHECK(occurrences(rejectedTwo.err, firstLine(rejectedOne.err)) == 1);
  // `clref check` alike.
  const std::string check = "check " + missingFile + " --observed '" + dir.path().string() + "'";
  const CliResult checkOne = runClref(dir, check);
  REQUIRE(checkOne.status != 0);
  const Mpi checkTwo = mpirun(dir, 2, check);
  CHECK(checkTwo.status == checkOne.status);
  CHECK(occurrences(checkTwo.err, firstLine(checkOne.err)) == 1);
}
