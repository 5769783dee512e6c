#include "spec_dir.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace clref_test {

const std::filesystem::path& specDir() {
  static const std::filesystem::path dir = [] {
    const char* env = std::getenv("CLREF_SPEC_DIR");
    std::string d = env ? env : CLREF_SPEC_DIR;
    std::string reason;
    if (d.empty())
      reason = "no specification folder (configure with -DCLREF_SPEC_DIR=<folder>, or set CLREF_SPEC_DIR)";
    else if (!std::filesystem::is_directory(d))
      reason = "the specification folder " + d + " does not exist";
    if (!reason.empty()) {
      std::cout << "SKIPPED: this test reads the specification text: " << reason << std::endl;
      std::cerr << std::flush;
      std::fflush(nullptr);
      std::_Exit(kSkipReturnCode);  // no static destructors: the tests' fixtures may hold live objects
    }
    return std::filesystem::path(d);
  }();
  return dir;
}

}  // namespace clref_test
