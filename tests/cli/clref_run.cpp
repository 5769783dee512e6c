// tests/cli/clref_run.hpp.
#include "clref_run.hpp"

#include <sys/wait.h>
#include <cstdlib>
#include <fstream>
#include <iterator>

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

}  // namespace clref::cli::test
