// End-to-end tests over the golden corpus (golden/README.md). One Catch2 test per case file,
// registered at start-up from golden/cases/ so ctest (catch_discover_tests) lists each case:
//   - the host reference still produces the stored expected files (the corpus is consistent);
//   - clref runs the case without a fault and reproduces every expected file bit for bit.
// Plus corpus-wide checks: every kernel source has its -O0 and -O2 SPIR-V, every case names a
// module and kernel that exist, and host references and case files match one to one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/shader_source.hpp"
#include "cli/case_file.hpp"
#include "tests/golden/host_reference.hpp"

namespace fs = std::filesystem;
using namespace clref;

namespace {

const fs::path kGolden = CLREF_GOLDEN_DIR;

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), {}};
}

// "" when equal, else where the texts first differ (1-based line numbers).
std::string firstDifference(const std::string& expected, const std::string& actual) {
  std::istringstream e(expected), a(actual);
  std::string le, la;
  for (size_t line = 1;; ++line) {
    const bool he = bool(std::getline(e, le)), ha = bool(std::getline(a, la));
    if (!he && !ha) return expected == actual ? "" : "texts differ in their final newline";
    if (!he) return "line " + std::to_string(line) + ": expected end of file, got '" + la + "'";
    if (!ha) return "line " + std::to_string(line) + ": expected '" + le + "', got end of file";
    if (le != la) return "line " + std::to_string(line) + ": expected '" + le + "', got '" + la + "'";
  }
}

// Compares one formatted output buffer with its expected file.
void checkOutput(const fs::path& expectedPath, const std::string& actual, const std::string& who) {
  INFO(who << " vs " << expectedPath.string());
  REQUIRE(fs::exists(expectedPath));
  const auto diff = firstDifference(readText(expectedPath), actual);
  if (!diff.empty()) FAIL_CHECK(diff);
}

void runGoldenCase(const fs::path& file) {
  const auto c = cli::loadCase(file);
  const auto name = golden::caseName(c);

  SECTION("host reference reproduces the expected files") {
    const auto bytes = golden::expectedArgs(c);
    for (size_t i = 0; i < c.args.size(); ++i)
      if (golden::isOutput(c, i))
        checkOutput(golden::expectedFile(kGolden, name, i), golden::formatOutput(c, i, bytes[i]),
                    "host reference arg" + std::to_string(i));
  }

  SECTION("clref reproduces the expected files") {
    const host::Device device;
    cli::CaseRun run;
    try {
      run = cli::runCase(c, device);
    } catch (const std::exception& e) { FAIL("runCase threw: " << e.what()); }
    if (!run.result.ok) FAIL("kernel fault: " << (run.result.fault ? run.result.fault->format() : "(no diagnostic)"));
    size_t outputs = 0;
    for (size_t i = 0; i < c.args.size(); ++i) outputs += golden::isOutput(c, i);
    REQUIRE(run.outputs.size() + run.imageOutputs.size() == outputs);
    for (const auto& [i, buffer] : run.outputs) {
      const std::vector<std::byte> bytes(buffer->data(), buffer->data() + buffer->size());
      checkOutput(golden::expectedFile(kGolden, name, i), golden::formatOutput(c, i, bytes),
                  "clref arg" + std::to_string(i));
    }
    for (const auto& [i, image] : run.imageOutputs)
      checkOutput(golden::expectedFile(kGolden, name, i), golden::formatOutput(c, i, cli::imageContents(*image)),
                  "clref arg" + std::to_string(i));
  }
}

// One test case per case file, registered before Catch2 runs. Catch copies the name and tags.
class GoldenCaseInvoker : public Catch::ITestInvoker {
 public:
  explicit GoldenCaseInvoker(fs::path file) : file_(std::move(file)) {}
  void invoke() const override { runGoldenCase(file_); }

 private:
  fs::path file_;
};

struct RegisterGoldenCases {
  RegisterGoldenCases() {
    std::error_code ec;
    if (!fs::is_directory(kGolden / "cases", ec)) return;  // the corpus test below reports it
    for (const auto& file : golden::caseFiles(kGolden)) {
      const std::string name = "golden/" + file.stem().string();
      Catch::AutoReg(new GoldenCaseInvoker(file), Catch::SourceLineInfo(__FILE__, __LINE__), Catch::StringRef(),
                     Catch::NameAndTags{name, "[golden]"});
    }
  }
};
const RegisterGoldenCases registerGoldenCases;

// The entry point names of a SPIR-V module (SPIR-V 1.0 §3.32.6 [external] OpEntryPoint: opcode 15,
// execution model, function id, then the name as a nul-terminated literal string).
// A shader source (golden/shaders/) is compiled first, an HLSL one with `entry` as its entry point.
std::set<std::string> entryPointNames(const fs::path& module, const std::string& entry) {
  std::vector<uint32_t> words;
  if (compiler::shaderLanguageOf(module)) {
    compiler::ShaderOptions options;
    options.entryPoint = entry;
    words = compiler::compileShaderFile(module, options);
  } else {
    const std::string bytes = readText(module);
    words.resize(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
  }
  std::set<std::string> names;
  if (words.size() < 5 || words[0] != 0x07230203u) return names;  // little-endian SPIR-V only
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) break;
    if (opcode == 15 && count > 3) {
      const char* text = reinterpret_cast<const char*>(&words[at + 3]);
      names.insert(std::string(text, strnlen(text, (count - 3) * 4)));
    }
    at += count;
  }
  return names;
}

// The shader cases whose outputs every subgroup size gives (golden/README.md: a 1 where a subgroup operation agrees
// with the shader's own recomputation over its subgroup).
const char* const kSubgroupShaderCases[] = {"shader_subgroup_sizes", "shader_subgroup_arithmetic",
                                            "shader_subgroup_shuffle", "shader_subgroup_vote_quad",
                                            "shader_wave_ops_hlsl"};

}  // namespace

TEST_CASE("golden corpus: the subgroup shaders give their expected files with every subgroup size",
          "[golden][corpus][subgroups]") {
  for (const char* name : kSubgroupShaderCases) {
    const auto c = cli::loadCase(kGolden / "cases" / (std::string(name) + ".json"));
    for (uint32_t size = host::kMinShaderSubgroupSize; size <= host::kMaxShaderSubgroupSize; size *= 2) {
      INFO(name << " with subgroup size " << size);
      host::DeviceConfig config;
      config.subgroupSize = size;
      const auto run = cli::runCase(c, host::Device(config));
      REQUIRE(run.result.ok);
      REQUIRE(run.outputs.size() == 1);
      const auto& [i, buffer] = run.outputs.front();
      const std::vector<std::byte> bytes(buffer->data(), buffer->data() + buffer->size());
      checkOutput(golden::expectedFile(kGolden, name, i), golden::formatOutput(c, i, bytes),
                  "clref arg" + std::to_string(i));
    }
  }
}

TEST_CASE("golden corpus: every kernel source has -O0 and -O2 SPIR-V", "[golden][corpus]") {
  REQUIRE(fs::is_directory(kGolden / "kernels"));
  size_t kernels = 0;
  for (const auto& entry : fs::directory_iterator(kGolden / "kernels")) {
    if (entry.path().extension() != ".cl") continue;
    ++kernels;
    const auto stem = entry.path().stem().string();
    for (const char* opt : {"O0", "O2"}) {
      const auto spv = kGolden / "spv" / (stem + "." + opt + ".spv");
      INFO(spv.string());
      CHECK(fs::exists(spv));
      // Every kernel declared in the source is an entry point of the module.
      const auto names = entryPointNames(spv, "");
      const std::string source = readText(entry.path());
      static const std::regex kernelDecl(R"(\bkernel\s+void\s+(\w+)\s*\()");
      for (auto it = std::sregex_iterator(source.begin(), source.end(), kernelDecl); it != std::sregex_iterator();
           ++it) {
        INFO("kernel " << (*it)[1].str());
        CHECK(names.count((*it)[1].str()) == 1);
      }
    }
  }
  CHECK(kernels >= 32);
}

TEST_CASE("golden corpus: every case names an existing module and kernel", "[golden][corpus]") {
  REQUIRE(fs::is_directory(kGolden / "cases"));
  const auto files = golden::caseFiles(kGolden);
  CHECK(files.size() >= 32);
  for (const auto& file : files) {
    INFO(file.string());
    const auto c = cli::loadCase(file);
    REQUIRE(fs::exists(c.module));
    CHECK(entryPointNames(c.module, c.kernel).count(c.kernel) == 1);
    // Every output buffer has its expected file.
    for (size_t i = 0; i < c.args.size(); ++i)
      if (golden::isOutput(c, i)) CHECK(fs::exists(golden::expectedFile(kGolden, golden::caseName(c), i)));
  }
}

TEST_CASE("golden corpus: host references and case files match one to one", "[golden][corpus]") {
  std::set<std::string> caseNames;
  for (const auto& file : golden::caseFiles(kGolden)) caseNames.insert(file.stem().string());
  for (const auto& name : caseNames) {
    INFO("case file without a host reference: " << name);
    CHECK(golden::hostReferences().count(name) == 1);
  }
  for (const auto& [name, fn] : golden::hostReferences()) {
    INFO("host reference without a case file: " << name);
    CHECK(caseNames.count(name) == 1);
  }
}
