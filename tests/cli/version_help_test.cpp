// `clref --version` names the project version and the commit; every command's --help ends with one example, and the
// examples that need no files of their own run as they are written (from the repository's root).
#include <catch2/catch.hpp>

#include <regex>

#include "clref_run.hpp"

using namespace clref::cli::test;

TEST_CASE("clref --version: the project version and the git commit it was built from", "[cli][version]") {
  const auto r = runClref("--version");
  CHECK(r.status == 0);
  std::smatch m;
  // CLREF_PROJECT_VERSION is CMake's PROJECT_VERSION, the top-level project() line.
  REQUIRE(std::regex_match(r.out, m, std::regex("clref ([0-9.]+) \\(commit ([^ ()\n]+)\\)\n")));
  CHECK(m[1].str() == CLREF_PROJECT_VERSION);
  // A build from a git checkout names its commit (`git describe`: a tag or an abbreviated hash).
  if (std::filesystem::exists(std::filesystem::path(CLREF_SOURCE_DIR) / ".git")) {
    CHECK(m[2].str() != "unknown");
    CHECK(std::regex_search(m[2].str(), std::regex("[0-9a-f]{7,}$|^v?[0-9]")));
  }
}

TEST_CASE("clref: every command's --help ends with an example, and the examples run", "[cli][help]") {
  for (const std::string command : {"", "run", "explore", "check", "debug", "dis", "info", "choices", "amber", "math",
                                    "image", "image read", "image write"}) {
    INFO(command);
    const auto r = runClref(command + " --help");
    CHECK(r.status == 0);
    const size_t at = r.out.rfind("\nExample: clref ");
    REQUIRE(at != std::string::npos);
    const std::string example = r.out.substr(at + 10, r.out.find('\n', at + 1) - at - 10);
    // The last thing printed, and an example of this command.
    CHECK(r.out.find_first_not_of('\n', r.out.find('\n', at + 1)) == std::string::npos);
    const std::string head = command.empty() ? "clref " : "clref " + command + " ";
    CHECK(example.rfind(head, 0) == 0);
    // check and debug need the device's output or a commands file; the others run from the repository's root.
    if (command == "check" || command == "debug") continue;
    TempDir dir;
    const auto here = std::filesystem::current_path();
    std::filesystem::current_path(CLREF_SOURCE_DIR);
    const auto ran = runClref(dir, example.substr(6));
    std::filesystem::current_path(here);
    INFO(ran.err);
    CHECK(ran.status == 0);
  }
}
