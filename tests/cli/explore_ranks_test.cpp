// `clref explore` over MPI ranks (cli/explore.hpp's Spread, cli/cluster.hpp): the alternatives' runs passed through
// their encoding (the message a rank sends rank 0) give the report explore gives in one process, and under mpirun
// 2 and 4 ranks print, byte for byte, what one process prints, on golden cases with several consulted choices.
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/explore.hpp"
#include "clref_run.hpp"

using namespace clref;
using clref::cli::test::CliResult;
using clref::cli::test::runClref;
using clref::cli::test::slurp;
using clref::cli::test::TempDir;

namespace {

// Golden cases whose runs consult several named choices: alternatives that change outputs, that fault, that do not.
const std::vector<std::string> kCases = {"sg_shuffle.json", "convert_rounding_O0.json", "sg_non_uniform_arith.json"};

std::string goldenCase(const std::string& name) { return std::string(CLREF_GOLDEN_DIR) + "/cases/" + name; }

}  // namespace

TEST_CASE("explore: alternatives passed through their encoding report what one process reports", "[explore][ranks]") {
  for (const std::string& name : kCases) {
    INFO(name);
    const cli::Case c = cli::loadCase(goldenCase(name));
    const host::Device device;
    const cli::Exploration direct = cli::explore(c, device);
    REQUIRE(direct.base.result.ok);
    std::vector<numerics::Choice> choices;
    for (const auto& a : direct.alternatives)
      if (choices.empty() || choices.back() != a.choice) choices.push_back(a.choice);
    CHECK(choices.size() >= 2);
    // The work run in reverse order, as ranks finishing out of order would, and returned in item order.
    size_t pieces = 0;
    const cli::Exploration spread =
        cli::explore(c, device, 5, {}, [&](size_t n, const std::function<std::string(size_t)>& work) {
          pieces = n;
          std::vector<std::string> out(n);
          for (size_t i = n; i-- > 0;) out[i] = work(i);
          return out;
        });
    CHECK(pieces == direct.alternatives.size());
    CHECK(cli::formatExploration(spread) == cli::formatExploration(direct));
    // A process that does not report (an MPI rank other than 0) gets the base run only.
    const cli::Exploration silent =
        cli::explore(c, device, 5, {}, [](size_t n, const std::function<std::string(size_t)>& work) {
          for (size_t i = 0; i < n; ++i) work(i);
          return std::vector<std::string>{};
        });
    CHECK(silent.alternatives.empty());
  }
}

#ifdef CLREF_MPIEXEC
TEST_CASE("explore: 2 and 4 MPI ranks print what one process prints", "[explore][ranks][mpi]") {
  TempDir dir;
  for (const std::string& name : kCases) {
    const std::string args = "explore '" + goldenCase(name) + "' --quiet";
    const CliResult one = runClref(dir, args);
    REQUIRE(one.status == 0);
    REQUIRE(one.out.find("outputs change") != std::string::npos);
    for (int ranks : {2, 4}) {
      INFO(name << " on " << ranks << " ranks");
      const auto out = dir.path() / "ranks.txt";
      // Open MPI's own allocations outlive the program: LeakSanitizer (the sanitized build) would fail the ranks.
      const std::string command =
          "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 OMPI_ALLOW_RUN_AS_ROOT=1 "
          "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '" CLREF_MPIEXEC "' --oversubscribe --allow-run-as-root -np " +
          std::to_string(ranks) + " '" CLREF_EXE "' " + args + " > '" + out.string() + "' 2>/dev/null";
      const int raw = std::system(command.c_str());
      CHECK((WIFEXITED(raw) ? WEXITSTATUS(raw) : -1) == 0);
      CHECK(slurp(out) == one.out);
    }
  }
}
#endif
