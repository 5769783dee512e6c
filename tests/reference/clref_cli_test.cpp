// The clref executable end to end: exit statuses (0 ok, 1 fault, 2 rejected input), --out and
// --print for a golden case, and the info/dis/choices subcommands.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <spirv-tools/libspirv.hpp>

#include "temp_dir.hpp"

using clref::reference::test::TempDir;

namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `clref <args>` with stdout and stderr captured in `dir`.
Result runClref(const TempDir& dir, const std::string& args) {
  const auto out = dir.path() / "stdout.txt", err = dir.path() / "stderr.txt";
  const std::string command =
      std::string("'") + CLREF_EXE + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(command.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

const std::string kGolden = CLREF_GOLDEN_DIR;

// arith_float's kernel writes 8 results per work-item; 8 floats of output cannot hold them.
std::string faultingCase() {
  return R"({ "module": ")" + kGolden + R"(/spv/arith_float.O2.spv", "kernel": "arith_float",
    "ndrange": { "global": [8] }, "args": [
      { "buffer": { "type": "float", "count": 8, "init": { "iota": {} } } },
      { "buffer": { "type": "float", "count": 8 } },
      { "buffer": { "type": "float", "count": 8, "output": true } } ] })";
}

}  // namespace

TEST_CASE("clref run writes the golden outputs of a case", "[reference][cli]") {
  TempDir dir;
  const auto r = runClref(dir, "run '" + kGolden + "/cases/vadd.json' --out '" + (dir.path() / "out").string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto expected = slurp(kGolden + "/expected/vadd.arg2.txt");
  CHECK_FALSE(expected.empty());
  CHECK(slurp(dir.path() / "out" / "vadd.arg2.txt") == expected);
  CHECK(std::filesystem::file_size(dir.path() / "out" / "vadd.arg2.bin") == 1024 * sizeof(float));

  const auto printed = runClref(dir, "run '" + kGolden + "/cases/vadd.json' --print");
  REQUIRE(printed.status == 0);
  CHECK(printed.out == "== arg 2 (float, 1024) ==\n" + expected);
}

TEST_CASE("clref run: rejected input exits 2 and names the field", "[reference][cli]") {
  TempDir dir;
  const auto file = dir.write("bad.json", R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [1] },
      "args": [ { "buffer": { "type": "float", "count": -1 } } ] })");
  auto r = runClref(dir, "run '" + file.string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("bad.json: args[0].buffer.count: expected a non-negative integer"));

  r = runClref(dir, "run '" + kGolden + "/cases/vadd.json' --choice mad=sometimes");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("--choice mad=sometimes"));

  const auto missing = dir.write("missing.json", R"({ "module": "nowhere.spv", "kernel": "k",
      "ndrange": { "global": [1] }, "args": [] })");
  r = runClref(dir, "run '" + missing.string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("module"));

  CHECK(runClref(dir, "run").status == 2);         // no case file
  CHECK(runClref(dir, "frobnicate").status == 2);  // no such subcommand
}

TEST_CASE("clref run: a kernel fault exits 1 with the diagnostic", "[reference][cli]") {
  TempDir dir;
  const auto file = dir.write("fault.json", faultingCase());
  const auto r = runClref(dir, "run '" + file.string() + "' --out '" + (dir.path() / "out").string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Matchers::Contains("out-of-bounds"));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "out" / "fault.arg2.txt"));
}

TEST_CASE("clref info, dis, choices, --version", "[reference][cli]") {
  TempDir dir;
  auto r = runClref(dir, "info '" + kGolden + "/spv/local_mem.O2.spv'");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("SPIR-V version: 1."));
  CHECK_THAT(r.out, Catch::Matchers::Contains("validation: passes"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("capabilities: Addresses"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("local_arg_rotate"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("arg 2: local float*"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("arg 3: int"));

  r = runClref(dir, "info '" + kGolden + "/spv/struct_arg.O2.spv'");
  CHECK_THAT(r.out, Catch::Matchers::Contains("struct Params (16 bytes)"));

  // A module the validator rejects (OpenCL integers carry no signedness) still gets its info.
  std::vector<uint32_t> words;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  REQUIRE(tools.Assemble(R"(
      OpCapability Addresses
      OpCapability Kernel
      OpMemoryModel Physical64 OpenCL
      OpEntryPoint Kernel %k "k"
      OpName %p "dst"
%void = OpTypeVoid
%int = OpTypeInt 32 1
%ptr = OpTypePointer CrossWorkgroup %int
%fn = OpTypeFunction %void %ptr
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
%l = OpLabel
      OpReturn
      OpFunctionEnd)",
                         &words));
  const auto invalid = dir.path() / "invalid.spv";
  std::ofstream(invalid, std::ios::binary)
      .write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
  r = runClref(dir, "info '" + invalid.string() + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("validation: fails"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("arg 0: global int* dst"));

  r = runClref(dir, "dis '" + kGolden + "/spv/vadd.O2.spv'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("OpEntryPoint Kernel"));
  const auto notSpirv = dir.write("text.spv", "this is no SPIR-V");
  CHECK(runClref(dir, "dis '" + notSpirv.string() + "'").status == 2);

  r = runClref(dir, "choices");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("mad\n"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("(default)"));

  r = runClref(dir, "--version");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::StartsWith("clref "));
}
