// golden_make_expected: writes golden/expected/<case>.arg<N>.txt for every output buffer of
// every case in golden/cases/, from the host references only (never from clref's output), and
// removes expected files no case produces any more.
// Usage: golden_make_expected [GOLDEN_DIR]   (default: the source tree's golden/)
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/case_file.hpp"
#include "tests/golden/host_reference.hpp"

namespace fs = std::filesystem;
using namespace clref;

int main(int argc, char** argv) {
  const fs::path golden = argc > 1 ? fs::path(argv[1]) : fs::path(CLREF_GOLDEN_DIR);
  if (argc > 2 || !fs::is_directory(golden / "cases")) {
    std::cerr << "usage: golden_make_expected [GOLDEN_DIR]  (GOLDEN_DIR/cases must exist)\n";
    return 2;
  }
  fs::create_directories(golden / "expected");

  std::set<fs::path> written;
  int failures = 0;
  for (const auto& file : golden::caseFiles(golden)) {
    try {
      const auto c = cli::loadCase(file);
      const auto bytes = golden::expectedArgs(c);
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (!golden::isOutput(c, i)) continue;
        const auto path = golden::expectedFile(golden, golden::caseName(c), i);
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << golden::formatOutput(c, i, bytes[i]);
        if (!out) throw std::runtime_error("cannot write " + path.string());
        written.insert(path);
      }
    } catch (const std::exception& e) {
      std::cerr << file.string() << ": " << e.what() << '\n';
      ++failures;
    }
  }

  // Stale files would make the corpus look larger than it is and confuse reviews.
  for (const auto& entry : fs::directory_iterator(golden / "expected"))
    if (entry.path().extension() == ".txt" && !written.contains(entry.path())) {
      std::cout << "removed stale " << entry.path().filename().string() << '\n';
      fs::remove(entry.path());
    }

  std::cout << written.size() << " expected files written";
  if (failures) std::cout << ", " << failures << " cases failed";
  std::cout << '\n';
  return failures ? 1 : 0;
}
