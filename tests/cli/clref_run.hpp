// Running the built `clref` executable (CLREF_EXE) from the CLI tests, with its exit status and output captured.
#pragma once
#include <filesystem>
#include <set>
#include <string>

#include "temp_dir.hpp"

namespace clref::cli::test {

struct CliResult {
  int status = -1;  // the exit status, -1 when clref did not exit normally
  std::string out, err;
};

// The whole content of a file ("" when it cannot be read).
std::string slurp(const std::filesystem::path& file);
// Runs `clref <args>` with stdout and stderr captured in files in `dir`; in a fresh temporary folder without one.
CliResult runClref(const TempDir& dir, const std::string& args);
CliResult runClref(const std::string& args);
inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
// The input indices of the violations `clref sweep` lists for `function` (a regex: "exp", "GLSL\\.std\\.450:Sqrt"),
// from its lines "  [0x3c00] exp(...)" and "  [17] cbrt(...)".
std::set<uint64_t> sweepListed(const std::string& out, const std::string& function);

}  // namespace clref::cli::test
