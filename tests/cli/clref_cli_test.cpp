// The clref executable end to end: exit statuses (0 ok, 1 fault, 2 rejected input), --out and
// --print for a golden case, and the info/dis/choices subcommands.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <spirv-tools/libspirv.hpp>

#include "clref_run.hpp"

using clref::cli::test::runClref;
using clref::cli::test::slurp;
using clref::cli::test::TempDir;

namespace {

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

TEST_CASE("clref run writes output images: one element per line, and the packed elements", "[reference][cli]") {
  TempDir dir;
  const std::string c = kGolden + "/cases/image_tile_repeat_O2.json";
  const auto r = runClref(dir, "run '" + c + "' --out '" + (dir.path() / "out").string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto expected = slurp(kGolden + "/expected/image_tile_repeat_O2.arg1.txt");
  CHECK_FALSE(expected.empty());
  CHECK(slurp(dir.path() / "out" / "image_tile_repeat_O2.arg1.txt") == expected);
  // 24 x 24 CL_RGBA / CL_UNORM_INT8 elements, tightly packed.
  CHECK(std::filesystem::file_size(dir.path() / "out" / "image_tile_repeat_O2.arg1.bin") == 24 * 24 * 4);

  const auto printed = runClref(dir, "run '" + c + "' --print");
  REQUIRE(printed.status == 0);
  CHECK(printed.out == "== arg 1 (image2d CL_RGBA/CL_UNORM_INT8, 576 elements) ==\n" + expected);
}

TEST_CASE("clref run: a bad image or sampler field exits 2 and names it", "[reference][cli]") {
  TempDir dir;
  const auto file = dir.write("bad.json", R"({ "module": ")" + kGolden + R"(/spv/image_tiling.O2.spv",
    "kernel": "tile_repeat", "ndrange": { "global": [4, 4] }, "args": [
      { "image": { "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 4, "height": 4, "row_pitch": 10 } },
      { "image": { "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 4, "height": 4, "output": true } },
      { "scalar": { "type": "float", "value": 0.25 } }, { "scalar": { "type": "float", "value": 0 } } ] })");
  const auto r = runClref(dir, "run '" + file.string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("args[0].image.row_pitch: 10 is less than width x element size, 16 bytes"));
  // The host API's complaint about an argument is also named: a sampler for an image parameter.
  const auto wrong = dir.write("wrong.json", R"({ "module": ")" + kGolden + R"(/spv/image_tiling.O2.spv",
    "kernel": "tile_repeat", "ndrange": { "global": [4, 4] }, "args": [
      { "sampler": { "normalized": true, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_NEAREST" } },
      { "image": { "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 4, "height": 4, "output": true } },
      { "scalar": { "type": "float", "value": 0.25 } }, { "scalar": { "type": "float", "value": 0 } } ] })");
  const auto w = runClref(dir, "run '" + wrong.string() + "'");
  CHECK(w.status == 2);
  CHECK_THAT(w.err, Catch::Matchers::Contains("args[0]: "));
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

// vadd with `ndrange` and `count` (elements of each buffer) replaced, `module` relative to the golden cases.
std::string vaddCase(const std::string& ndrange, const std::string& count = "16", const std::string& module = "") {
  const std::string m = module.empty() ? kGolden + "/spv/vadd.O2.spv" : module;
  return R"({ "module": ")" + m + R"(", "kernel": "vadd", "ndrange": )" + ndrange + R"(, "args": [
      { "buffer": { "type": "float", "count": )" +
         count + R"( } },
      { "buffer": { "type": "float", "count": 16 } },
      { "buffer": { "type": "float", "count": 16, "output": true } } ] })";
}

TEST_CASE("clref run: fuzzed case files are rejected naming the field, never run or crash", "[reference][cli]") {
  TempDir dir;
  struct Bad {
    std::string name, text, expected;
  };
  const std::string subdir = (dir.path() / "sub").string();
  std::filesystem::create_directories(subdir);
  const Bad bad[] = {
      // Global sizes whose product wraps around 2^64 (2^32 · 2^32 == 0) ran nothing with status 0.
      {"global.json", vaddCase(R"({ "global": [4294967296, 4294967296] })"),
       "ndrange.global: the global sizes' product (the number of work-items) exceeds 18446744073709551615"},
      {"global3.json", vaddCase(R"({ "global": [65536, 65536, 4294967296] })"),
       "ndrange.global: the global sizes' product"},
      {"offset.json", vaddCase(R"({ "global": [16], "offset": [18446744073709551615] })"),
       "ndrange.offset: offset 18446744073709551615 plus global size 16 in dimension 0 exceeds"},
      // Local sizes whose product wraps around to 0 passed the work-group size limit.
      {"local.json", vaddCase(R"({ "global": [4294967296, 1], "local": [4294967296, 4294967296] })"),
       "ndrange.local: the local sizes' product (the work-group size) exceeds the device maximum 1024"},
      // 64 GiB of floats ended in bad_alloc.
      {"huge.json", vaddCase(R"({ "global": [16] })", "17179869184"),
       "args[0].buffer.count: 17179869184 elements of float are 68719476736 bytes, more than the device's largest "
       "buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE), 268435456 bytes"},
      // 2^60 bytes of local memory ended in std::bad_alloc in a worker thread: std::terminate.
      {"biglocal.json", R"({ "module": ")" + kGolden + R"(/spv/async_copy.O2.spv", "kernel": "async_copy",
          "ndrange": { "global": [256], "local": [32] }, "args": [
          { "buffer": { "type": "float", "count": 256 } }, { "buffer": { "type": "float", "count": 256 } },
          { "local": 1152921504606846976 } ] })",
       "kernel async_copy needs more local memory than the device's 65536 bytes"},
      // A spec constant of the wrong size was a module error at lowering, naming no field.
      {"specsize.json", R"({ "module": ")" + kGolden + R"(/spv/spec_constants.spv", "kernel": "spec_constants",
          "ndrange": { "global": [64] }, "args": [
          { "buffer": { "type": "uint", "count": 64 } }, { "buffer": { "type": "uint", "count": 64 } } ],
          "spec_constants": { "0": { "type": "ulong", "value": 10 } } })",
       "spec_constants.0: specialization constant 0 is 4 bytes, 8 given"},
      // A directory as the module gave "internal error: basic_filebuf::underflow".
      {"dirmodule.json", vaddCase(R"({ "global": [16] })", "16", subdir), "module: " + subdir + " is a directory"},
      {"dirinit.json", R"({ "module": ")" + kGolden + R"(/spv/vadd.O2.spv", "kernel": "vadd",
          "ndrange": { "global": [16] }, "args": [
          { "buffer": { "type": "float", "count": 16, "init": { "file": "sub" } } },
          { "buffer": { "type": "float", "count": 16, "init": { "text": "sub" } } },
          { "buffer": { "type": "float", "count": 16, "output": true } } ] })",
       "args[0].buffer.init.file: " + subdir + " is a directory, not a file"},
      // A device as the module or an init file was read forever.
      {"devmodule.json", vaddCase(R"({ "global": [16] })", "16", "/dev/zero"), "module: /dev/zero is not a regular file"},
      {"devinit.json", R"({ "module": ")" + kGolden + R"(/spv/vadd.O2.spv", "kernel": "vadd",
          "ndrange": { "global": [16] }, "args": [
          { "buffer": { "type": "float", "count": 16, "init": { "file": "/dev/zero" } } },
          { "buffer": { "type": "float", "count": 16 } },
          { "buffer": { "type": "float", "count": 16, "output": true } } ] })",
       "args[0].buffer.init.file: /dev/zero is not a regular file"},
      // Build options reached clang unfiltered.
      {"options.json", R"({ "module": "k.cl", "build_options": "-Xclang -load -Xclang ./evil.so", "kernel": "k",
          "ndrange": { "global": [1] }, "args": [] })",
       "build_options: '-Xclang' is not an OpenCL build option"},
      // A number beyond double was an internal error (json out_of_range.406).
      {"number.json", vaddCase(R"({ "global": [1e400] })"), "ndrange.global[0]: a number beyond the range of double"},
  };
  for (const auto& b : bad) {
    const auto file = dir.write(b.name, b.text);
    const auto r = runClref(dir, "run '" + file.string() + "'");
    INFO(b.name << ": " << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Matchers::StartsWith(file.string() + ": " + b.expected));
    CHECK(r.err.size() < 500);
  }
  // The case file itself a directory.
  const auto r = runClref(dir, "run '" + subdir + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::StartsWith(subdir + ": a directory, not a case file"));
  // A directory, or a device that never ends, as the module of dis and info.
  for (const char* command : {"dis", "info"}) {
    const auto m = runClref(dir, std::string(command) + " '" + subdir + "'");
    INFO(command);
    CHECK(m.status == 2);
    CHECK(m.err == subdir + ": " + subdir + " is a directory, not a file\n");
    const auto d = runClref(dir, std::string(command) + " /dev/zero");
    CHECK(d.status == 2);
    CHECK(d.err == "/dev/zero: /dev/zero is not a regular file\n");
  }
}

TEST_CASE("clref run and the ICD agree: OpenCL C 1.2 needs uniform work-groups", "[reference][cli]") {
  // OpenCL 3.0 API §5.10 [[_executing_kernels]]: the OpenCL API refuses global 10 with local 4 for a program from
  // OpenCL C 1.2 (CL_INVALID_WORK_GROUP_SIZE); clref run refuses the same case, and runs it for OpenCL C 3.0.
  TempDir dir;
  dir.write("nu.cl", "kernel void w(global int* a) { a[get_global_id(0)] = (int)get_local_size(0); }\n");
  auto caseWith = [&](const std::string& name, const std::string& options) {
    return dir.write(name, R"({ "module": "nu.cl", "build_options": ")" + options +
                               R"(", "kernel": "w", "ndrange": { "global": [10], "local": [4] },
        "args": [ { "buffer": { "type": "int", "count": 10, "output": true } } ] })");
  };
  auto r = runClref(dir, "run '" + caseWith("cl12.json", "-cl-std=CL1.2").string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("ndrange.local") &&
                        Catch::Matchers::Contains("global size 10 is not a multiple of local size 4"));
  r = runClref(dir, "run '" + caseWith("uniform.json", "-cl-std=CL3.0 -cl-uniform-work-group-size").string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("-cl-uniform-work-group-size"));
  r = runClref(dir, "run '" + caseWith("cl30.json", "-cl-std=CL3.0").string() + "' --print");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("\n2\n"));  // the last work-group holds work-items 8 and 9
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
  // Every choice says what kind of freedom the spec leaves (issue 10, part 1): mad is limited to fused or unfused, a
  // division by zero gives an unspecified value.
  const auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = r.out.find(needle); at != std::string::npos; at = r.out.find(needle, at + 1)) ++n;
    return n;
  };
  CHECK(count("\n  kind: ") == count("\n  clause: "));
  CHECK_THAT(r.out, Catch::Matchers::Contains("mad\n") && Catch::Matchers::Contains("kind: set (the spec allows only"));
  CHECK_THAT(r.out.substr(r.out.find("int_div_by_zero\n")), Catch::Matchers::StartsWith("int_div_by_zero\n") &&
                                                                 Catch::Matchers::Contains("kind: free"));
  // Grouped by API (issue 36): OpenCL's, then Vulkan's (with the subgroup size, a device setting), then both's.
  const auto at = [&](const std::string& needle) { return r.out.find(needle); };
  REQUIRE(at("== OpenCL ==\n") == 0);
  REQUIRE(at("== Vulkan ==\n") != std::string::npos);
  REQUIRE(at("== both ==\n") != std::string::npos);
  CHECK(at("== OpenCL ==\n") < at("\nmad\n"));
  CHECK(at("\nmad\n") < at("== Vulkan ==\n"));
  CHECK(at("\nimage_write_out_of_range\n") < at("== Vulkan ==\n"));
  // Device-side enqueue's queue capacity (issue 40): an OpenCL choice, 16 bytes a command by default.
  CHECK(at("\ndevice_queue_command_bytes\n") < at("== Vulkan ==\n"));
  CHECK_THAT(r.out.substr(at("\ndevice_queue_command_bytes\n")),
             Catch::Matchers::Contains("CLK_DEVICE_QUEUE_FULL") && Catch::Matchers::Contains("kind: set"));
  CHECK(at("== Vulkan ==\n") < at("\nglsl_round_half\n"));
  CHECK(at("== Vulkan ==\n") < at("\nshader_out_of_bounds\n"));
  CHECK(at("\nshader_out_of_bounds\n") < at("== both ==\n"));
  CHECK(at("\nsubgroup_size (a device setting") < at("== both ==\n"));
  CHECK(at("== both ==\n") < at("\nint_div_by_zero\n"));
  CHECK(at("== both ==\n") < at("\nundef_value\n"));
  CHECK(count("\n  kind: ") == count("\n  clause: "));
  const auto vulkan = runClref(dir, "choices --api vulkan");
  CHECK(vulkan.status == 0);
  CHECK_THAT(vulkan.out,
             Catch::Matchers::StartsWith("== Vulkan ==\n") && Catch::Matchers::Contains("\nglsl_round_half\n") &&
                 Catch::Matchers::Contains("== both ==\n") && Catch::Matchers::Contains("\nint_div_by_zero\n") &&
                 !Catch::Matchers::Contains("\nmad\n") && !Catch::Matchers::Contains("== OpenCL =="));
  const auto opencl = runClref(dir, "choices --api opencl");
  CHECK(opencl.status == 0);
  CHECK_THAT(opencl.out,
             Catch::Matchers::StartsWith("== OpenCL ==\nmad\n") && Catch::Matchers::Contains("== both ==\n") &&
                 !Catch::Matchers::Contains("glsl_round_half") && !Catch::Matchers::Contains("subgroup_size"));
  CHECK(runClref(dir, "choices --api metal").status != 0);

  r = runClref(dir, "--version");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::StartsWith("clref "));
}

TEST_CASE("clref dis and info take a .cl file and show the word offsets diagnostics cite", "[reference][cli]") {
  // A kernel that writes past its buffer: clref run's fault names the store by word offset; clref dis of the same
  // .cl with the same build options lists that instruction at that offset.
  TempDir dir;
  dir.write("oob.cl", "kernel void oob(global int* a) {\n  a[get_global_id(0) + 4] = 7;\n}\n");
  const auto caseFile = dir.write("oob.json", R"({ "module": "oob.cl", "build_options": "-g", "kernel": "oob",
      "ndrange": { "global": [4], "local": [4] },
      "args": [ { "buffer": { "type": "int", "count": 4, "output": true } } ] })");
  const auto run = runClref(dir, "run '" + caseFile.string() + "'");
  REQUIRE(run.status == 1);
  const auto at = run.err.find("instruction: word ");
  REQUIRE(at != std::string::npos);
  const auto colon = run.err.find(':', at + 18);
  const std::string offset = run.err.substr(at + 18, colon - at - 18);
  const std::string opcode = run.err.substr(run.err.find("Op", colon), 7);  // "OpStore"
  INFO(run.err);
  REQUIRE(!offset.empty());
  const auto dis = runClref(dir, "dis '" + (dir.path() / "oob.cl").string() + "' --build-options -g");
  REQUIRE(dis.status == 0);
  CHECK_THAT(dis.out, Catch::Matchers::Contains(";     word  instruction"));
  // The line of that offset: right-aligned offset, then the instruction.
  bool found = false;
  std::istringstream lines(dis.out);
  for (std::string l; std::getline(lines, l);) {
    const auto first = l.find_first_not_of(' ');
    if (first == std::string::npos || l.compare(first, offset.size() + 1, offset + " ") != 0) continue;
    found = true;
    CHECK_THAT(l, Catch::Matchers::Contains(opcode));
  }
  CHECK(found);
  const auto info = runClref(dir, "info '" + (dir.path() / "oob.cl").string() + "'");
  CHECK(info.status == 0);
  CHECK_THAT(info.out, Catch::Matchers::Contains("oob") && Catch::Matchers::Contains("validation: passes"));
  // Build options are checked as a case's are.
  const auto bad = runClref(dir, "dis '" + (dir.path() / "oob.cl").string() + "' --build-options '-Xclang -load'");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Matchers::Contains("--build-options: '-Xclang' is not an OpenCL build option"));
}

// AddressSanitizer reserves terabytes of address space at start-up, so a process under `ulimit -v` cannot run it: the
// memory-limit test runs in the plain build only.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLREF_TEST_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CLREF_TEST_UNDER_ASAN 1
#endif
#ifndef CLREF_TEST_UNDER_ASAN
TEST_CASE("clref run: buffers the host cannot give are a clear rejection, not a crash", "[cli][resources]") {
  // Under a 600 MiB address-space limit, three 240 MB buffers cannot all be allocated: the case is rejected (exit 2)
  // with the argument that could not be allocated, instead of an internal error.
  TempDir dir;
  const auto casePath = dir.path() / "big.json";
  std::ofstream(casePath) << R"({"module": ")" << CLREF_GOLDEN_DIR << R"(/spv/vadd.O2.spv", "kernel": "vadd",
    "ndrange": {"global": [60000000], "local": [64]},
    "args": [{"buffer": {"type": "float", "count": 60000000}}, {"buffer": {"type": "float", "count": 60000000}},
             {"buffer": {"type": "float", "count": 60000000, "output": true}}]})";
  const auto out = dir.path() / "stdout.txt", err = dir.path() / "stderr.txt";
  const std::string command = "ulimit -v 600000 && '" + std::string(CLREF_EXE) + "' run '" + casePath.string() +
                              "' --out '" + (dir.path() / "out").string() + "' >'" + out.string() + "' 2>'" +
                              err.string() + "'";
  const int raw = std::system(command.c_str());
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 2);
  const std::string message = slurp(err);
  CHECK_THAT(message, Catch::Matchers::Contains("out of host memory"));
  CHECK_THAT(message, Catch::Matchers::Contains("args["));
  CHECK_THAT(message, !Catch::Matchers::Contains("internal error"));
}
#endif
