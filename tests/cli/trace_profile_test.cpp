// clref run --trace and --profile end to end, on small kernels whose values, trip counts and memory traffic are
// computed here by hand; and --perturb-profile, the option --profile used to be for --perturb.
#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "clref_run.hpp"
#include "cli/trace.hpp"

using Catch::Matchers::Contains;
using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::slurp;
using clref::cli::test::TempDir;

namespace {

const std::string kGolden = CLREF_GOLDEN_DIR;

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The lines of `text` that contain every one of `parts`.
std::vector<std::string> linesWith(const std::string& text, const std::vector<std::string>& parts) {
  std::vector<std::string> found;
  for (const auto& l : linesOf(text)) {
    bool all = true;
    for (const auto& p : parts) all = all && has(l, p);
    if (all) found.push_back(l);
  }
  return found;
}

// The whitespace-separated words of `line` after its first occurrence of `after`.
std::vector<std::string> wordsAfter(const std::string& line, const std::string& after) {
  std::istringstream in(line.substr(line.find(after) + after.size()));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Work-item i of `show` (8 work-items, a = 0, 1, ..., 7): out[i] = 2 a[i] + 1, f[i] = i / 10, p[i] = (i, i * i),
// flag[i] = a[i] > 2 ? 10 : 20.
const char* kShowSource = R"(kernel void show(global const int* a, global int* out, global float* f, global int2* p,
                   global int* flag) {
  size_t i = get_global_id(0);
  int v = a[i] * 2 + 1;
  out[i] = v;
  f[i] = (float)i / 10.0f;
  p[i] = (int2)((int)i, (int)i * (int)i);
  flag[i] = a[i] > 2 ? 10 : 20;
}
)";

std::filesystem::path showCase(const TempDir& dir) {
  dir.write("show.cl", kShowSource);
  return dir.write("show.json", R"({ "module": "show.cl", "build_options": "-g", "kernel": "show",
      "ndrange": { "global": [8] }, "args": [
        { "buffer": { "type": "int", "count": 8, "init": { "iota": {} } } },
        { "buffer": { "type": "int", "count": 8, "output": true } },
        { "buffer": { "type": "float", "count": 8, "output": true } },
        { "buffer": { "type": "int", "count": 16, "output": true } },
        { "buffer": { "type": "int", "count": 8, "output": true } } ] })");
}

}  // namespace

TEST_CASE("trace work-items: global ids x, x:y, x:y:z separated by commas", "[reference][trace]") {
  using clref::cli::checkWorkItems;
  using clref::cli::GlobalId;
  using clref::cli::parseWorkItems;
  CHECK(parseWorkItems("5") == std::vector<GlobalId>{{5, 0, 0}});
  CHECK(parseWorkItems("5:1,7:0:2,0") == std::vector<GlobalId>{{5, 1, 0}, {7, 0, 2}, {0, 0, 0}});
  for (const char* bad : {"", "5,", ",5", "a", "1:2:3:4", ":1", "1::2", "-1", "1 "}) {
    INFO(bad);
    CHECK_THROWS_AS(parseWorkItems(bad), std::invalid_argument);
  }
  // A 2-D NDRange of 4 x 3 work-items from global offset (10, 20).
  clref::host::NDRange range;
  range.dims = 2;
  range.offset = {10, 20, 0};
  range.global = {4, 3, 1};
  CHECK(checkWorkItems({{10, 20, 0}, {13, 22, 0}}, range).empty());
  CHECK(checkWorkItems({{9, 20, 0}}, range) == "work-item 9:20:0 is outside the NDRange: global id 0 runs from 10 to 13");
  CHECK(checkWorkItems({{10, 23, 0}}, range) ==
        "work-item 10:23:0 is outside the NDRange: global id 1 runs from 20 to 22");
  CHECK(checkWorkItems({{10, 20, 1}}, range) == "work-item 10:20:1 is outside the NDRange: global id 2 runs from 0 to 0");
}

TEST_CASE("clref run --trace: the instructions of one work-item with their values and source lines",
          "[reference][cli][trace]") {
  TempDir dir;
  const auto c = showCase(dir);
  const auto r = runClref(dir, "run '" + c.string() + "' --trace 3");
  INFO(r.err << r.out);
  REQUIRE(r.status == 0);
  const auto lines = linesOf(r.out);
  REQUIRE(!lines.empty());
  // Only work-item 3, and each line has its instruction by word offset.
  for (const auto& l : lines) {
    CHECK(l.rfind("[3] word ", 0) == 0);
    CHECK((has(l, ": Op") || has(l, " = Op")));
  }
  // out[3] = 3 * 2 + 1 = 7: the store with its value, where it goes (int 3 of 'out': byte 12) and its source line.
  const auto store = linesWith(r.out, {"OpStore", "stores 7", "[write 4 bytes at argument 1 (out) + 12]"});
  REQUIRE(store.size() == 1);
  CHECK_THAT(store[0], Contains("; " + (dir.path() / "show.cl").string() + ":5: out[i] = v;"));
  // The load of a[3] (byte 12 of 'a') produced 3.
  CHECK(linesWith(r.out, {"OpLoad", "-> 3 ", "[read 4 bytes at argument 0 (a) + 12]"}).size() >= 1);
  // The address of a[3] is a pointer into 'a'.
  CHECK(!linesWith(r.out, {"-> argument 0 (a) + 12"}).empty());
  // f[3] = 3 / 10 in float: 0x3e99999a, whose shortest decimal is 0.3 and whose exact value is 0x1.333334p-2.
  CHECK(!linesWith(r.out, {"OpStore", "stores 0.3 (0x1.333334p-2)", "argument 2 (f) + 12"}).empty());
  // p[3] = (3, 9): an int2 at byte 24 of 'p'.
  CHECK(!linesWith(r.out, {"OpStore", "stores (3, 9)", "argument 3 (p) + 24"}).empty());
  // a[3] > 2 is true; flag[3] = 10.
  CHECK(!linesWith(r.out, {"-> true"}).empty());
  CHECK(!linesWith(r.out, {"OpStore", "stores 10", "argument 4 (flag) + 12"}).empty());
  // The trace comes before the output buffers, which --print still prints.
  const auto printed = runClref(dir, "run '" + c.string() + "' --trace 3 --print");
  REQUIRE(printed.status == 0);
  CHECK(printed.out.rfind("[3] word ", 0) == 0);
  CHECK_THAT(printed.out, Contains("== arg 1 (int, 8) ==\n1\n3\n5\n7\n"));
}

TEST_CASE("clref run --trace: several work-items, a 2-D global id, --trace-out and --trace-limit",
          "[reference][cli][trace]") {
  TempDir dir;
  const auto c = showCase(dir);
  auto r = runClref(dir, "run '" + c.string() + "' --trace 2,5");
  REQUIRE(r.status == 0);
  CHECK(linesWith(r.out, {"[2] ", "OpStore", "stores 5", "argument 1 (out) + 8"}).size() == 1);
  CHECK(linesWith(r.out, {"[5] ", "OpStore", "stores 11", "argument 1 (out) + 20"}).size() == 1);
  CHECK(linesWith(r.out, {"[3] "}).empty());

  // To a file: stdout keeps only what it had without --trace.
  const auto file = dir.path() / "trace.txt";
  r = runClref(dir, "run '" + c.string() + "' --trace 6:0:0 --trace-out '" + file.string() + "'");
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());
  CHECK(linesWith(slurp(file), {"[6] ", "OpStore", "stores 13"}).size() == 1);

  // Bounded: two lines, then the notice.
  r = runClref(dir, "run '" + c.string() + "' --trace 3 --trace-limit 2");
  REQUIRE(r.status == 0);
  const auto lines = linesOf(r.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("[3] ", 0) == 0);
  CHECK(lines[1].rfind("[3] ", 0) == 0);
  CHECK_THAT(lines[2], Contains("trace truncated at 2 lines (--trace-limit)") && Contains("more lines not shown"));

  // A 2-D NDRange: work-item (1, 2) writes m[2 * 3 + 1] = 10 * 2 + 1.
  dir.write("grid.cl",
            "kernel void grid(global int* m) {\n"
            "  m[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 10 * (int)get_global_id(1) + "
            "(int)get_global_id(0);\n"
            "}\n");
  const auto grid = dir.write("grid.json", R"({ "module": "grid.cl", "build_options": "-g", "kernel": "grid",
      "ndrange": { "global": [3, 4] }, "args": [ { "buffer": { "type": "int", "count": 12, "output": true } } ] })");
  r = runClref(dir, "run '" + grid.string() + "' --trace 1:2");
  INFO(r.err << r.out);
  REQUIRE(r.status == 0);
  CHECK(linesWith(r.out, {"[1:2] ", "OpStore", "stores 21", "argument 0 (m) + 28"}).size() == 1);
}

TEST_CASE("clref run --trace: bad work-items are rejected, and a fault's instruction is traced",
          "[reference][cli][trace]") {
  TempDir dir;
  const auto c = showCase(dir);
  auto r = runClref(dir, "run '" + c.string() + "' --trace 8");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("--trace: work-item 8:0:0 is outside the NDRange: global id 0 runs from 0 to 7"));
  r = runClref(dir, "run '" + c.string() + "' --trace 3:1");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("global id 1 runs from 0 to 0"));
  for (const char* bad : {"x", "3,", "1:2:3:4", "-1"}) {
    r = runClref(dir, "run '" + c.string() + "' --trace '" + bad + "'");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("--trace: "));
  }
  r = runClref(dir, "run '" + c.string() + "' --trace 3 --perturb 1");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("cannot be combined with --perturb"));

  // Work-item 4 of 4 writes a[4 + 4]: the trace ends with that store, then the fault.
  dir.write("oob.cl", "kernel void oob(global int* a) {\n  a[get_global_id(0) + 4] = 7;\n}\n");
  const auto oob = dir.write("oob.json", R"({ "module": "oob.cl", "build_options": "-g", "kernel": "oob",
      "ndrange": { "global": [8] }, "args": [ { "buffer": { "type": "int", "count": 8, "output": true } } ] })");
  r = runClref(dir, "run '" + oob.string() + "' --trace 4");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Contains("out-of-bounds"));
  const auto lines = linesOf(r.out);
  REQUIRE(!lines.empty());
  CHECK_THAT(lines.back(), Contains("[4] ") && Contains("OpStore") && Contains("stores 7") &&
                               Contains("a[get_global_id(0) + 4] = 7;"));
}

TEST_CASE("clref run --profile: a loop body's line is reached trip count times work-items",
          "[reference][cli][profile]") {
  TempDir dir;
  // -O0 keeps each statement's instructions together and every variable in private memory.
  dir.write("loop.cl",
            "kernel void loop(global const int* a, global int* out) {\n"
            "  int s = 0;\n"
            "  for (int k = 0; k < 5; ++k) {\n"
            "    s += a[k] * 3;\n"
            "  }\n"
            "  out[get_global_id(0)] = s;\n"
            "}\n");
  const auto c = dir.write("loop.json", R"({ "module": "loop.cl", "build_options": "-g -cl-opt-disable",
      "kernel": "loop", "ndrange": { "global": [8], "local": [4] }, "args": [
        { "buffer": { "type": "int", "count": 5, "init": { "iota": {} } } },
        { "buffer": { "type": "int", "count": 8, "output": true } } ] })");
  const auto r = runClref(dir, "run '" + c.string() + "' --profile --print");
  INFO(r.err << r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("profile: 8 work-items, "));
  // 5 iterations in each of 8 work-items.
  const auto body = linesWith(r.out, {"loop.cl:4", "s += a[k] * 3;"});
  REQUIRE(body.size() == 1);
  const auto counts = wordsAfter(body[0], "");
  REQUIRE(counts.size() >= 2);
  CHECK(counts[0] == "40");
  CHECK(std::stoull(counts[1]) % 40 == 0);  // every instruction of the line once per iteration
  // The kernel's one multiplication, once per iteration.
  const auto mul = linesWith(r.out, {" OpIMul"});
  REQUIRE(!mul.empty());
  CHECK(wordsAfter(mul[0], "") == std::vector<std::string>{"40", "OpIMul"});
  // The line before the loop is reached once per work-item.
  const auto init = linesWith(r.out, {"loop.cl:2", "int s = 0;"});
  REQUIRE(init.size() == 1);
  CHECK(wordsAfter(init[0], "")[0] == "8");
  // Memory: a[k] is read 40 times (4 bytes each); out is written once per work-item.
  const auto a = linesWith(r.out, {"argument 0 (a)  "});
  REQUIRE(a.size() == 1);
  CHECK(wordsAfter(a[0], "argument 0 (a)") == std::vector<std::string>{"global", "40", "160", "0", "0"});
  const auto out = linesWith(r.out, {"argument 1 (out)  "});
  REQUIRE(out.size() == 1);
  CHECK(wordsAfter(out[0], "argument 1 (out)") == std::vector<std::string>{"global", "0", "0", "8", "32"});
  // Private memory: s and k live there at -O0.
  CHECK(!linesWith(r.out, {"(private variable in ", " private "}).empty());
  // 0 + 3 + 6 + 9 + 12 = 30 in every element.
  CHECK_THAT(r.out, Contains("== arg 1 (int, 8) ==\n30\n30\n30\n30\n30\n30\n30\n30\n"));
}

TEST_CASE("clref run --profile: vadd reads 2 N floats and writes N", "[reference][cli][profile]") {
  // golden/cases/vadd.json: N = 1024 work-items, c[i] = a[i] + b[i].
  constexpr uint64_t n = 1024, bytes = n * sizeof(float);
  const auto r = runClref("run '" + kGolden + "/cases/vadd.json' --profile");
  INFO(r.err << r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("profile: " + std::to_string(n) + " work-items, "));
  auto row = [&](const std::string& name) {
    const auto l = linesWith(r.out, {"  " + name + "  "});
    REQUIRE(l.size() == 1);
    return wordsAfter(l[0], name);
  };
  using Row = std::vector<std::string>;
  const std::string N = std::to_string(n), B = std::to_string(bytes);
  // The golden module has no names: the buffers are named by argument index.
  CHECK(row("argument 0") == Row{"global", N, B, "0", "0"});
  CHECK(row("argument 1") == Row{"global", N, B, "0", "0"});
  CHECK(row("argument 2") == Row{"global", "0", "0", N, B});
  CHECK(row("total") == Row{std::to_string(2 * n), std::to_string(2 * bytes), N, B});
  // Without -g there are no source lines; one OpFAdd per work-item.
  CHECK_THAT(r.out, Contains("(no source line)"));
  const auto fadd = linesWith(r.out, {" OpFAdd"});
  REQUIRE(!fadd.empty());
  CHECK(wordsAfter(fadd[0], "") == Row{N, "OpFAdd"});
}

TEST_CASE("clref run --perturb-profile: the profile a perturbed run draws from", "[reference][cli]") {
  const std::string c = kGolden + "/cases/math_functions.json";
  TempDir dir;
  auto r = runClref(dir, "run '" + c + "' --perturb 7 --perturb-profile embedded");
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Contains("within their allowed sets (seed 7)"));
  r = runClref(dir, "run '" + c + "' --perturb 7 --perturb-profile full");
  CHECK(r.status == 0);
  r = runClref(dir, "run '" + c + "' --perturb 7 --perturb-profile desktop");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("--perturb-profile: expected full or embedded, got 'desktop'"));
  // --profile is the counting profile now, a flag: it takes no value and does not combine with --perturb.
  r = runClref(dir, "run '" + c + "' --perturb 7 --profile");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("cannot be combined with --perturb"));
}
