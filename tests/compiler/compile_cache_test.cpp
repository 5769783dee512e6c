// The OpenCL C compiler's cache (compiler/compile_cache.hpp): a program built again comes from the cache, the same
// words, without running clang; anything that decides the output (source, options, target, headers, the compiler
// itself) is a different entry; failures, damaged entries and options reaching files outside the key are never
// served from it; CLREF_COMPILE_CACHE=0 turns it off. The compiler runs are counted through a clang wrapper
// (CLREF_CLANG) that appends a line to a file each time it runs.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "compiler/compile_cache.hpp"
#include "compiler/opencl_c.hpp"

using namespace clref;
namespace fs = std::filesystem;

namespace {

const char* kSource = "kernel void k(global int* a) { a[get_global_id(0)] += 1; }\n";

// A scratch directory with a cache and a counting clang wrapper; the environment as it was afterwards.
class CacheScratch {
 public:
  CacheScratch() {
    char tmpl[] = "/tmp/clref-cache-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    dir_ = tmpl;
    fs::create_directories(dir_ / "cache");
    const fs::path wrapper = dir_ / "clang";
    {
      std::ofstream w(wrapper);
      w << "#!/bin/sh\necho run >> '" << (dir_ / "runs").string() << "'\nexec clang-15 \"$@\"\n";
    }
    fs::permissions(wrapper, fs::perms::owner_all);
    save("CLREF_CLANG");
    save("CLREF_COMPILE_CACHE");
    setenv("CLREF_CLANG", wrapper.c_str(), 1);
    setenv("CLREF_COMPILE_CACHE", (dir_ / "cache").c_str(), 1);
    compiler::cache::clearMemory();
  }
  ~CacheScratch() {
    for (const auto& [name, value] : saved_)
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
    compiler::cache::clearMemory();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // How many times clang ran so far.
  size_t runs() const {
    std::ifstream in(dir_ / "runs");
    size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  fs::path cacheDir() const { return dir_ / "cache"; }
  size_t entries() const {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(cacheDir())) n += e.is_regular_file();
    return n;
  }

 private:
  fs::path dir_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
  void save(const char* name) {
    const char* v = std::getenv(name);
    saved_.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
  }
};

compiler::Compiled build(const std::string& text, std::vector<std::string> options = {"-cl-std=CL1.2"},
                         unsigned addressBits = 64) {
  compiler::Target target;
  target.addressBits = addressBits;
  compiler::OpenCLCSource source;
  source.text = text;
  source.options = std::move(options);
  return compiler::compileOpenCLC(target, source);
}

}  // namespace

TEST_CASE("compile cache: a program built again comes from the cache, from memory and from disk", "[compiler]") {
  REQUIRE(compiler::openCLCCompilerAvailable());
  CacheScratch scratch;
  const compiler::Compiled first = build(kSource);
  const size_t runs = scratch.runs();
  CHECK(runs >= 1);
  CHECK(scratch.entries() == 1);
  const compiler::Compiled again = build(kSource);  // from memory
  CHECK(scratch.runs() == runs);
  CHECK(again.words == first.words);
  compiler::cache::clearMemory();  // as another process would: from disk
  const compiler::Compiled fromDisk = build(kSource);
  CHECK(scratch.runs() == runs);
  CHECK(fromDisk.words == first.words);
  REQUIRE(fromDisk.sourceNames.size() == first.sourceNames.size());
  CHECK(fromDisk.sourceNames[0].fileInModule == first.sourceNames[0].fileInModule);
  CHECK(fromDisk.sourceNames[0].text == kSource);
}

TEST_CASE("compile cache: whatever decides the output is another entry", "[compiler]") {
  REQUIRE(compiler::openCLCCompilerAvailable());
  CacheScratch scratch;
  const compiler::Compiled base = build(kSource);
  size_t runs = scratch.runs();
  auto rebuilt = [&](const compiler::Compiled& c) {
    const bool ran = scratch.runs() > runs;
    runs = scratch.runs();
    return ran && !c.words.empty();
  };
  CHECK(rebuilt(build(std::string(kSource) + " ")));                       // the source
  CHECK(rebuilt(build(kSource, {"-cl-std=CL1.2", "-DUNUSED=1"})));          // an option
  CHECK(rebuilt(build(kSource, {"-cl-std=CL1.2"}, 32)));                    // the target
  const compiler::Compiled fast = build(kSource, {"-cl-std=CL1.2", "-cl-fast-relaxed-math"});
  CHECK(rebuilt(fast));
  CHECK(!rebuilt(build(kSource)));  // and the first again: a hit
  CHECK(scratch.entries() == 5);
}

TEST_CASE("compile cache: failures, damaged entries and outside files are not served", "[compiler]") {
  REQUIRE(compiler::openCLCCompilerAvailable());
  CacheScratch scratch;
  SECTION("a program that does not compile fails each time, and leaves no entry") {
    CHECK_THROWS_AS(build("kernel void k( {"), compiler::Error);
    const size_t runs = scratch.runs();
    CHECK_THROWS_AS(build("kernel void k( {"), compiler::Error);
    CHECK(scratch.runs() > runs);
    CHECK(scratch.entries() == 0);
  }
  SECTION("a damaged entry reads as a miss, and is written again") {
    const compiler::Compiled first = build(kSource);
    compiler::cache::clearMemory();
    for (const auto& e : fs::directory_iterator(scratch.cacheDir())) {
      std::string bytes;
      {
        std::ifstream in(e.path(), std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
      std::ofstream(e.path(), std::ios::binary) << bytes.substr(0, bytes.size() / 2);  // cut short
    }
    const size_t runs = scratch.runs();
    const compiler::Compiled again = build(kSource);
    CHECK(scratch.runs() > runs);
    CHECK(again.words == first.words);
    compiler::cache::clearMemory();
    const size_t after = scratch.runs();
    CHECK(build(kSource).words == first.words);
    CHECK(scratch.runs() == after);  // the entry written again is whole
  }
  SECTION("an include directory's files are not in the key: never cached") {
    const fs::path inc = scratch.cacheDir().parent_path() / "inc";
    fs::create_directories(inc);
    std::ofstream(inc / "v.h") << "#define V 1\n";
    const std::string source = "#include \"v.h\"\nkernel void k(global int* a) { a[0] = V; }\n";
    build(source, {"-cl-std=CL1.2", "-I" + inc.string()});
    const size_t runs = scratch.runs();
    std::ofstream(inc / "v.h") << "#define V 2\n";
    build(source, {"-cl-std=CL1.2", "-I" + inc.string()});
    CHECK(scratch.runs() > runs);
    CHECK(scratch.entries() == 0);
  }
  SECTION("CLREF_COMPILE_CACHE=0 turns it off") {
    setenv("CLREF_COMPILE_CACHE", "0", 1);
    build(kSource);
    const size_t runs = scratch.runs();
    build(kSource);
    CHECK(scratch.runs() > runs);
    CHECK(scratch.entries() == 0);
  }
}

TEST_CASE("compile cache: another compiler is another entry", "[compiler]") {
  REQUIRE(compiler::openCLCCompilerAvailable());
  CacheScratch scratch;
  build(kSource);
  const size_t runs = scratch.runs();
  // The wrapper rewritten (an upgraded compiler: another size and time): the entry made by the old one is not used.
  const char* clang = std::getenv("CLREF_CLANG");
  REQUIRE(clang);
  {
    std::ifstream in(clang);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(clang) << text << "# upgraded\n";
  }
  compiler::cache::clearMemory();
  build(kSource);
  CHECK(scratch.runs() > runs);
  CHECK(scratch.entries() == 2);
}
