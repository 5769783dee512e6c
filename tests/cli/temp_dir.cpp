#include "temp_dir.hpp"

#include <unistd.h>
#include <atomic>
#include <fstream>

namespace clref::cli::test {

TempDir::TempDir() {
  // The process id keeps parallel ctest runs apart; the counter keeps tests apart.
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("clref_reference_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& text) const {
  const auto file = path_ / name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

}  // namespace clref::cli::test
