// Case files: a full case parses into the expected Case, and every kind of mistake gives a
// CaseError naming the file and the JSON path of the bad field.
#include <catch2/catch.hpp>

#include <cstring>

#include "reference/case_file.hpp"
#include "temp_dir.hpp"

using namespace clref::reference;
using clref::reference::test::TempDir;

namespace {

// A valid case to start from; `args` replaces the argument list.
std::string caseText(const std::string& args, const std::string& extra = "") {
  return R"({ "module": "../spv/k.O2.spv", "kernel": "k", "ndrange": { "global": [16] }, "args": )" + args + extra +
         "}";
}

std::string errorOf(const std::string& text) {
  TempDir dir;
  const auto file = dir.write("x.json", text);
  try {
    loadCase(file);
  } catch (const CaseError& e) {
    const std::string message = e.what();
    // Every message starts with the file.
    REQUIRE(message.rfind(file.string() + ": ", 0) == 0);
    return message.substr(file.string().size() + 2);
  }
  FAIL("no CaseError for: " << text);
  return "";
}

}  // namespace

TEST_CASE("a full case file parses, comments included", "[reference][case]") {
  TempDir dir;
  const auto file = dir.write("vadd.json", R"({
    "module": "../spv/vadd.O2.spv",          // relative to the case file
    "build_options": "-cl-std=CL3.0",
    "kernel": "vadd",
    "ndrange": { "global": [1024, 2], "local": [64, 1], "offset": [3, 4] },
    "args": [
      { "buffer": { "type": "float", "count": 1024, "init": { "iota": { "start": 0, "step": 0.5 } } } },
      { "buffer": { "type": "float", "count": 1024, "output": true } },
      { "scalar": { "type": "int", "value": 5 } },
      { "scalar": { "type": "float", "value": [1, 2, 3, 4] } },
      { "scalar": { "type": "short", "value": [1, 2, 3] } },
      { "local": 256 },
      { "null": true },
      { "bytes": "01000000 02000000" }
    ],
    "spec_constants": { "3": { "type": "int", "value": 7 }, "4": { "type": "bool", "value": true } },
    "choices": ["mad=unfused"],
    "instruction_budget": 1000000
  })");
  const Case c = loadCase(file);
  CHECK(c.file == file);
  CHECK(c.module == dir.path() / "../spv/vadd.O2.spv");
  CHECK(c.buildOptions == "-cl-std=CL3.0");
  CHECK(c.kernel == "vadd");
  CHECK(c.range.dims == 2);
  CHECK(c.range.global == std::array<size_t, 3>{1024, 2, 1});
  REQUIRE(c.range.local);
  CHECK(*c.range.local == std::array<size_t, 3>{64, 1, 1});
  CHECK(c.range.offset == std::array<size_t, 3>{3, 4, 0});
  REQUIRE(c.args.size() == 8);

  CHECK(c.args[0].kind == ArgSpec::Kind::Buffer);
  CHECK(c.args[0].buffer.type == ElemType::Float);
  CHECK(c.args[0].buffer.count == 1024);
  CHECK_FALSE(c.args[0].buffer.output);
  CHECK_FALSE(c.args[0].buffer.initJson.empty());
  CHECK(c.args[1].buffer.output);
  CHECK(c.args[1].buffer.initJson.empty());

  CHECK(c.args[2].kind == ArgSpec::Kind::Value);
  CHECK(c.args[2].value == std::vector<uint8_t>{5, 0, 0, 0});
  // float4 by value: 16 bytes, little-endian 1.0f, 2.0f, 3.0f, 4.0f.
  REQUIRE(c.args[3].value.size() == 16);
  float f[4];
  std::memcpy(f, c.args[3].value.data(), 16);
  CHECK((f[0] == 1 && f[1] == 2 && f[2] == 3 && f[3] == 4));
  // short3 by value has the size of short4 (OpenCL C 3.0 §6.3.5 [[alignment-of-types]]).
  CHECK(c.args[4].value == std::vector<uint8_t>{1, 0, 2, 0, 3, 0, 0, 0});

  CHECK(c.args[5].kind == ArgSpec::Kind::Local);
  CHECK(c.args[5].localBytes == 256);
  CHECK(c.args[6].kind == ArgSpec::Kind::Null);
  CHECK(c.args[7].kind == ArgSpec::Kind::Value);
  CHECK(c.args[7].value == std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0});

  REQUIRE(c.specConstants.size() == 2);
  CHECK(c.specConstants[0] == std::pair<uint32_t, std::vector<uint8_t>>{3, {7, 0, 0, 0}});
  CHECK(c.specConstants[1] == std::pair<uint32_t, std::vector<uint8_t>>{4, {1}});
  CHECK(c.choices == std::vector<std::string>{"mad=unfused"});
  CHECK(c.instructionBudget == 1000000u);
}

TEST_CASE("defaults: no local size, no offset, default build options", "[reference][case]") {
  TempDir dir;
  const Case c = loadCase(dir.write("k.json", caseText("[]")));
  CHECK(c.range.dims == 1);
  CHECK_FALSE(c.range.local);
  CHECK(c.range.offset == std::array<size_t, 3>{0, 0, 0});
  CHECK(c.buildOptions == "-cl-std=CL1.2");
  CHECK(c.choices.empty());
  CHECK_FALSE(c.instructionBudget);
}

TEST_CASE("scalar values use the values syntax", "[reference][case]") {
  TempDir dir;
  const Case c = loadCase(dir.write("k.json", caseText(R"([
      { "scalar": { "type": "float", "value": "0x1.8p+1" } },
      { "scalar": { "type": "uint", "value": "0xdeadbeef:bits" } },
      { "scalar": { "type": "half", "value": [1, "-inf"] } },
      { "scalar": { "type": "char", "value": -2 } } ])")));
  CHECK(c.args[0].value == std::vector<uint8_t>{0, 0, 0x40, 0x40});  // 3.0f = 0x40400000
  CHECK(c.args[1].value == std::vector<uint8_t>{0xef, 0xbe, 0xad, 0xde});
  CHECK(c.args[2].value == std::vector<uint8_t>{0x00, 0x3c, 0x00, 0xfc});
  CHECK(c.args[3].value == std::vector<uint8_t>{0xfe});
}

TEST_CASE("case file errors name the file and the field", "[reference][case]") {
  using Catch::Matchers::StartsWith;
  const std::string buf = R"({ "buffer": { "type": "int", "count": 4 } })";
  struct Bad {
    std::string text;
    std::string expected;  // the start of the message after "<file>: "
  };
  const Bad bad[] = {
      {caseText("[" + buf + "," + buf + R"(, { "buffer": { "type": "int", "count": -1 } }])"),
       "args[2].buffer.count: expected a non-negative integer"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 1.5 } }])"),
       "args[0].buffer.count: expected a non-negative integer"},
      {caseText(R"([{ "buffer": { "type": "integer", "count": 4 } }])"), "args[0].buffer.type: unknown type 'integer'"},
      {caseText(R"([{ "buffer": { "type": "int" } }])"), "args[0].buffer.count: missing"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "ouput": true } }])"),
       "args[0].buffer.ouput: unknown key"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "output": 1 } }])"),
       "args[0].buffer.output: expected true or false"},
      {caseText(R"([{ "buffer": { "type": "uchar", "count": 4, "init": { "values": [1, 300] } } }])"),
       "args[0].buffer.init.values[1]: 300 is out of the range of uchar"},
      {caseText(R"([{ "buffer": { "type": "uint", "count": 4, "init": { "values": [-1] } } }])"),
       "args[0].buffer.init.values[0]: -1 is out of the range of uint"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "values": [1.5] } } }])"),
       "args[0].buffer.init.values[0]: expected an integer"},
      {caseText(R"([{ "buffer": { "type": "float", "count": 4, "init": { "values": [1, "one"] } } }])"),
       "args[0].buffer.init.values[1]: not a number: 'one'"},
      {caseText(R"([{ "buffer": { "type": "half", "count": 4, "init": { "values": ["0x10000:bits"] } } }])"),
       "args[0].buffer.init.values[0]: raw bits '0x10000:bits' do not fit in 16 bits"},
      {caseText(R"([{ "buffer": { "type": "float", "count": 4, "init": { "values": [] } } }])"),
       "args[0].buffer.init.values: expected a non-empty array"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "fill": 1, "iota": {} } } }])"),
       "args[0].buffer.init: expected an object with exactly one of"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "zeros": true } } }])"),
       "args[0].buffer.init.zeros: unknown init kind"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "special": { "seed": 1 } } } }])"),
       "args[0].buffer.init.special: special values exist for half, float and double only"},
      {caseText(
           R"([{ "buffer": { "type": "int", "count": 4, "init": { "random": { "seed": 1, "min": 5, "max": 4 } } } }])"),
       "args[0].buffer.init.random: min is above max"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "random": { "min": 0, "max": 4 } } } }])"),
       "args[0].buffer.init.random.seed: missing"},
      {caseText(
           R"([{ "buffer": { "type": "char", "count": 4, "init": { "random": { "seed": 1, "min": -200, "max": 4 } } } }])"),
       "args[0].buffer.init.random.min: out of the range of char"},
      {caseText(
           R"([{ "buffer": { "type": "float", "count": 4, "init": { "random": { "seed": 1, "min": 0, "max": "inf" } } } }])"),
       "args[0].buffer.init.random.max: expected a finite number"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "iota": { "start": 0, "step": 0.5 } } } }])"),
       "args[0].buffer.init.iota.step: expected an integer"},
      {caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "file": 3 } } }])"),
       "args[0].buffer.init.file: expected a file name"},
      {caseText(R"([{ "scalar": { "type": "float", "value": [1, 2, 3, 4, 5] } }])"),
       "args[0].scalar.value: a vector has 2, 3, 4, 8 or 16 components, got 5"},
      {caseText(R"([{ "scalar": { "type": "float" } }])"), "args[0].scalar.value: missing"},
      {caseText(R"([{ "local": 0 }])"), "args[0].local: expected a positive integer"},
      {caseText(R"([{ "null": false }])"), "args[0].null: expected true"},
      {caseText(R"([{ "bytes": "012" }])"), "args[0].bytes: expected an even, non-zero number of hex digits"},
      {caseText(R"([{ "bytes": "01zz" }])"), "args[0].bytes: 'zz' is not a hex byte"},
      {caseText(R"([{ "image": {} }])"), "args[0].image: unknown argument kind"},
      {caseText(R"([{ "local": 4, "null": true }])"), "args[0]: expected an object with exactly one of"},
      {caseText("{}"), "args: expected an array"},
      {caseText("[]", R"(, "choices": ["mad=sometimes"])"), "choices[0]: choice mad has no option 'sometimes'"},
      {caseText("[]", R"(, "choices": ["fast_math=on"])"), "choices[0]: unknown choice 'fast_math'"},
      {caseText("[]", R"(, "spec_constants": { "x": { "type": "int", "value": 1 } })"),
       "spec_constants.x: a SpecId is a non-negative decimal integer"},
      {caseText("[]", R"(, "spec_constants": { "1": { "type": "bool", "value": 1 } })"),
       "spec_constants.1.value: expected true or false"},
      {caseText("[]", R"(, "instruction_budget": 0)"), "instruction_budget: expected a positive integer"},
      {caseText("[]", R"(, "modul": "x")"), "modul: unknown key"},
      {R"({ "module": "k.spv", "ndrange": { "global": [1] }, "args": [] })", "kernel: missing"},
      {R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [1, 2, 3, 4] }, "args": [] })",
       "ndrange.global: expected an array of 1 to 3 integers"},
      {R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [8, 8], "local": [4] }, "args": [] })",
       "ndrange.local: expected 2 sizes, as in global"},
      {R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [8], "local": [0] }, "args": [] })",
       "ndrange.local[0]: expected a positive integer"},
      {"[1, 2]", "(top level): expected an object"},
      // Found by fuzzing: numbers beyond double, options that would reach clang, sizes beyond size_t.
      {caseText(R"([{ "scalar": { "type": "double", "value": 1e400 } }])"),
       "args[0].scalar.value: a number beyond the range of double"},
      {caseText(R"([{ "buffer": { "type": "float", "count": 4, "init": { "values": [0, -1e400] } } }])"),
       "args[0].buffer.init.values[1]: a number beyond the range of double"},
      {"1e400", "(top level): a number beyond the range of double"},
      {caseText("[]", R"(, "build_options": "-cl-std=CL1.2 -Xclang -load -Xclang /tmp/x.so")"),
       "build_options: '-Xclang' is not an OpenCL build option"},
      {caseText("[]", R"(, "build_options": "-cl-std=CL2.0")"), "build_options: '-cl-std=CL2.0' is not an OpenCL"},
      {caseText("[]", R"(, "build_options": "-DX=1 -I")"), "build_options: '-I' is not an OpenCL build option"},
      {caseText(R"([{ "buffer": { "type": "double", "count": 2305843009213693952 } }])"),
       "args[0].buffer.count: 2305843009213693952 elements of double are more bytes than a size_t holds"},
      {R"({ "module": "k.spv", "kernel": "k" )", "parse error at line 1"},
  };
  for (const auto& b : bad) {
    INFO(b.text);
    CHECK_THAT(errorOf(b.text), StartsWith(b.expected));
  }
}

TEST_CASE("an unreadable case file is a CaseError", "[reference][case]") {
  TempDir dir;
  const auto missing = dir.path() / "missing.json";
  CHECK_THROWS_WITH(loadCase(missing), missing.string() + ": cannot read the file");
  // A directory opens as a stream and fails only while reading (basic_filebuf::underflow).
  CHECK_THROWS_WITH(loadCase(dir.path()), dir.path().string() + ": a directory, not a case file");
}

TEST_CASE("messages never serialise a whole value: deep nesting, long strings and keys", "[reference][case]") {
  // 100 000 nested arrays: serialising the value for a message overflowed the stack.
  const size_t deep = 100000;
  const std::string nested = std::string(deep, '[') + "1" + std::string(deep, ']');
  auto message =
      errorOf(caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "values": )" + nested + " } } }]"));
  CHECK_THAT(message, Catch::Matchers::StartsWith("args[0].buffer.init.values[0][0]"));
  CHECK_THAT(message, Catch::Matchers::Contains("nested more than 32 levels deep"));
  CHECK(message.size() < 400);

  // Shallow but not a number: named by its kind, not printed.
  message = errorOf(caseText(R"([{ "buffer": { "type": "int", "count": 4, "init": { "values": [[1, 2, 3]] } } }])"));
  CHECK(message == "args[0].buffer.init.values[0]: expected a number or a string, got an array of 3 elements");

  // A megabyte string value and a megabyte key: a short prefix only.
  const std::string longText(1 << 20, 'x');
  message = errorOf(caseText(R"([{ "scalar": { "type": "float", "value": ")" + longText + R"(" } }])"));
  CHECK_THAT(message, Catch::Matchers::StartsWith("args[0].scalar.value: not a number: 'xxxx"));
  CHECK_THAT(message, Catch::Matchers::Contains("(1048576 characters)"));
  CHECK(message.size() < 200);
  message = errorOf(caseText("[]", ", \"" + longText + "\": 1"));
  CHECK_THAT(message, Catch::Matchers::EndsWith("...: unknown key"));
  CHECK(message.size() < 200);
  // A long invalid token in the JSON text itself.
  message = errorOf(caseText("[" + longText + "]"));
  CHECK_THAT(message, Catch::Matchers::StartsWith("parse error at line 1"));
  CHECK(message.size() < 300);
}

TEST_CASE("element types", "[reference][case]") {
  const std::pair<const char*, size_t> sizes[] = {{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2},
                                                  {"int", 4},  {"uint", 4},  {"long", 8},  {"ulong", 8},
                                                  {"half", 2}, {"float", 4}, {"double", 8}};
  for (const auto& [name, size] : sizes) {
    const auto t = parseElemType(name);
    REQUIRE(t);
    CHECK(sizeOf(*t) == size);
    CHECK(toString(*t) == name);
    CHECK(isFloat(*t) ==
          (std::string(name) == "half" || std::string(name) == "float" || std::string(name) == "double"));
  }
  CHECK_FALSE(parseElemType("bool"));
  CHECK_FALSE(parseElemType("float4"));
}
