#include "compile_cl.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <unistd.h>

#include "host/host.hpp"

namespace clref::test {

bool openCLCCompilerOrSkip() {
  if (host::Program::openCLCCompilerAvailable()) return true;
  WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
  return false;
}

std::vector<uint32_t> compileCL(const std::string& source, const std::string& options, const std::string& spirvVersion,
                                unsigned addressBits, const std::string& fileName) {
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/clref-test-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  const fs::path dir(tmpl);
  const fs::path cl = dir / fileName, bc = dir / "kernel.bc", spv = dir / "kernel.spv", log = dir / "log.txt";
  { std::ofstream(cl) << source; }
  const std::string target = addressBits == 32 ? "spir" : "spir64";
  const std::string cmd = "clang-15 -x cl -target " + target + " -emit-llvm -c " + options + " '" + cl.string() +
                          "' -o '" + bc.string() + "' > '" + log.string() +
                          "' 2>&1 && llvm-spirv-15 --spirv-max-version=" + spirvVersion + " '" + bc.string() +
                          "' -o '" + spv.string() + "' >> '" + log.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  std::vector<uint32_t> words;
  if (rc == 0) {
    std::ifstream in(spv, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    words.resize(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
  }
  std::ifstream lin(log);
  const std::string logText((std::istreambuf_iterator<char>(lin)), std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  if (rc != 0 || words.empty()) throw std::runtime_error("compiling OpenCL C failed:\n" + logText);
  return words;
}

}  // namespace clref::test
