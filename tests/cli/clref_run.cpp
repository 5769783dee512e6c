// tests/cli/clref_run.hpp.
#include "clref_run.hpp"

#include <sys/wait.h>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

namespace clref::cli::test {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

CliResult runClref(const TempDir& dir, const std::string& args) {
  const auto out = dir.path() / "stdout.txt", err = dir.path() / "stderr.txt";
  const std::string command =
      std::string("'") + CLREF_EXE + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

CliResult runClref(const std::string& args) {
  TempDir dir;
  return runClref(dir, args);
}

std::set<uint64_t> sweepListed(const std::string& out, const std::string& function) {
  std::set<uint64_t> inputs;
  const std::regex line("\n  \\[(0x[0-9a-f]+|[0-9]+)\\] " + function + "\\(");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    inputs.insert(std::stoull((*it)[1], nullptr, 0));
  return inputs;
}

}  // namespace clref::cli::test
