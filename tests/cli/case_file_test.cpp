// Case files: a full case parses into the expected Case, and every kind of mistake gives a
// CaseError naming the file and the JSON path of the bad field.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "host/host.hpp"
#include "cli/case_file.hpp"
#include "temp_dir.hpp"

using namespace clref::cli;
using clref::cli::test::TempDir;

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
    "instruction_budget": 1000000,
    "device_queue": { "size": 16384 }
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
  CHECK(c.args[0].buffer.type == ScalarType::Float);
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
  CHECK(c.deviceQueueSize == 16384u);
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
  CHECK_FALSE(c.deviceQueueSize);
  // A device queue without a size has CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE (256 KiB).
  CHECK(loadCase(dir.write("q.json", caseText("[]", R"(, "device_queue": {})"))).deviceQueueSize == 262144u);
}

// The queue's upper bound is host::DeviceQueue's (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: at most
// CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 16 MiB); preparing the case turns its refusal into the case's error.
TEST_CASE("a device queue beyond CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE is refused when the case is prepared",
          "[reference][case]") {
  TempDir dir;
  const std::string module = (std::filesystem::path(CLREF_GOLDEN_DIR) / "spv" / "device_enqueue.O2.spv").string();
  auto caseWithQueue = [&](uint64_t size) {
    return loadCase(dir.write(
        "q" + std::to_string(size) + ".json",
        R"({ "module": ")" + module +
            R"(", "kernel": "enqueue_once", "ndrange": { "global": [8] }, "device_queue": { "size": )" +
            std::to_string(size) +
            R"( }, "args": [ { "buffer": { "type": "int", "count": 8 } }, { "scalar": { "type": "int", "value": 0 } } ] })"));
  };
  const Case over = caseWithQueue(16777217);
  CHECK(over.deviceQueueSize == 16777217u);  // parsing leaves the bound to the queue
  CHECK_THROWS_WITH(prepareCase(over, clref::host::Device()), Catch::Contains("device_queue") &&
                                                                  Catch::Contains("16777217 bytes") &&
                                                                  Catch::Contains("16777216 bytes"));
  CHECK_NOTHROW(prepareCase(caseWithQueue(16777216), clref::host::Device()));
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
      {caseText(R"([{ "imag": {} }])"), "args[0].imag: unknown argument kind"},
      {caseText(R"([{ "local": 4, "null": true }])"), "args[0]: expected an object with exactly one of"},
      {caseText("{}"), "args: expected an array"},
      {caseText("[]", R"(, "choices": ["mad=sometimes"])"), "choices[0]: choice mad has no option 'sometimes'"},
      {caseText("[]", R"(, "choices": ["fast_math=on"])"), "choices[0]: unknown choice 'fast_math'"},
      {caseText("[]", R"(, "spec_constants": { "x": { "type": "int", "value": 1 } })"),
       "spec_constants.x: a SpecId is a non-negative decimal integer"},
      {caseText("[]", R"(, "spec_constants": { "1": { "type": "bool", "value": 1 } })"),
       "spec_constants.1.value: expected true or false"},
      {caseText("[]", R"(, "instruction_budget": 0)"), "instruction_budget: expected a positive integer"},
      {caseText("[]", R"(, "device_queue": 4096)"), "device_queue: expected an object"},
      {caseText("[]", R"(, "device_queue": { "size": 0 })"), "device_queue.size: expected a positive integer"},
      {caseText("[]", R"(, "device_queue": { "bytes": 4096 })"), "device_queue.bytes: unknown key"},
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
      {caseText("[]", R"(, "build_options": "-cl-std=CL2.2")"), "build_options: '-cl-std=CL2.2' is not an OpenCL"},
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
  CHECK_THROWS_WITH(loadCase(missing), missing.string() + ": cannot read " + missing.string() + ": no such file");
  // A device never ends: only regular files are read.
  CHECK_THROWS_WITH(loadCase("/dev/zero"), "/dev/zero: /dev/zero is not a regular file");
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
    const auto t = parseElementType(name);
    REQUIRE(t);
    CHECK(sizeOf(*t) == size);
    CHECK(toString(*t) == name);
    CHECK(isFloat(*t) ==
          (std::string(name) == "half" || std::string(name) == "float" || std::string(name) == "double"));
  }
  // The other spellings OpenCL C gives the unsigned types also name them (numerics::parseScalarType); bool is no
  // element type.
  CHECK(parseElementType("unsigned int") == ScalarType::UInt);
  CHECK(parseElementType("unsigned char") == ScalarType::UChar);
  CHECK_FALSE(parseElementType("bool"));
  CHECK_FALSE(parseElementType("float4"));
}

namespace {

std::string imageCase(const std::string& image) { return caseText(R"([{ "image": )" + image + " }]"); }
std::string samplerCase(const std::string& sampler) { return caseText(R"([{ "sampler": )" + sampler + " }]"); }

// The first argument of a case file written from `text`.
Case caseOf(TempDir& dir, const std::string& text) { return loadCase(dir.write("c.json", text)); }

}  // namespace

TEST_CASE("image and sampler arguments parse", "[reference][case][image]") {
  TempDir dir;
  const Case c = caseOf(dir, caseText(R"([
      { "image": { "type": "image2d", "format": "CL_BGRA/CL_UNORM_INT8", "width": 5, "height": 3, "row_pitch": 32,
                   "output": true } },
      { "image": { "type": "image3d", "order": "CL_R", "channel_type": "CL_FLOAT", "width": 4, "height": 3,
                   "depth": 2, "slice_pitch": 64 } },
      { "image": { "type": "image1d_array", "format": "RG/SIGNED_INT16", "width": 7, "array_size": 3 } },
      { "image": { "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 16, "height": 8, "mip_levels": 5 } },
      { "image": { "type": "image2d_depth", "format": "CL_DEPTH/CL_FLOAT", "width": 2, "height": 2 } },
      { "sampler": { "normalized": false, "addressing": "CLK_ADDRESS_MIRRORED_REPEAT", "filter": "CLK_FILTER_LINEAR",
                     "mip_filter": "CLK_FILTER_LINEAR", "lod_min": 0.5, "lod_max": 3 } }
    ])"));
  REQUIRE(c.args.size() == 6);
  using namespace clref::images;
  const auto& a = c.args[0].image.desc;
  CHECK(c.args[0].kind == ArgSpec::Kind::Image);
  CHECK(a.type == ImageType::Image2D);
  CHECK(a.format == ImageFormat{ChannelOrder::BGRA, ChannelType::UnormInt8});
  CHECK((a.width == 5 && a.height == 3 && a.depth == 1 && a.arraySize == 1 && a.numMipLevels == 1));
  CHECK((a.rowPitch == 32 && a.slicePitch == 0));
  CHECK(c.args[0].image.output);
  CHECK(c.args[0].image.initJson.empty());
  const auto& b = c.args[1].image.desc;
  CHECK(b.type == ImageType::Image3D);
  CHECK(b.format == ImageFormat{ChannelOrder::R, ChannelType::Float});
  CHECK((b.width == 4 && b.height == 3 && b.depth == 2 && b.slicePitch == 64));
  CHECK_FALSE(c.args[1].image.output);
  const auto& d = c.args[2].image.desc;
  CHECK(d.type == ImageType::Image1DArray);
  CHECK(d.format == ImageFormat{ChannelOrder::RG, ChannelType::SignedInt16});
  CHECK((d.width == 7 && d.height == 1 && d.arraySize == 3));
  CHECK(c.args[3].image.desc.numMipLevels == 5);
  // Level sizes halve, at least 1: 16x8, 8x4, 4x2, 2x1, 1x1.
  CHECK(imageElementCount(c.args[3].image.desc) == 128 + 32 + 8 + 2 + 1);
  CHECK(imageLevelRegion(c.args[3].image.desc, 4) == std::array<size_t, 3>{1, 1, 1});
  CHECK(imageLevelRegion(c.args[2].image.desc, 0) == std::array<size_t, 3>{7, 3, 1});
  CHECK(c.args[4].image.desc.format.order == ChannelOrder::Depth);
  const auto& s = c.args[5].sampler;
  CHECK(c.args[5].kind == ArgSpec::Kind::Sampler);
  CHECK_FALSE(s.normalizedCoords);
  CHECK(s.addressing == AddressingMode::MirroredRepeat);
  CHECK(s.filter == FilterMode::Linear);
  CHECK(s.mipFilter == FilterMode::Linear);
  CHECK(s.lodMin == 0.5f);
  CHECK(s.lodMax == 3.0f);
}

TEST_CASE("image and sampler errors name the field", "[reference][case][image]") {
  using Catch::Matchers::StartsWith;
  struct Bad {
    std::string text, expected;
  };
  const Bad bad[] = {
      {imageCase("{}"), "args[0].image.type: missing"},
      {imageCase(R"({ "type": "image4d", "format": "CL_R/CL_FLOAT", "width": 1 })"),
       "args[0].image.type: unknown image type 'image4d'"},
      {imageCase(R"({ "type": "image2d", "width": 4, "height": 4 })"), "args[0].image.format: missing"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBA", "width": 4, "height": 4 })"),
       "args[0].image.format: 'CL_RGBA' is not \"ORDER/TYPE\""},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBZ/CL_FLOAT", "width": 4, "height": 4 })"),
       "args[0].image.format: unknown channel order 'CL_RGBZ'"},
      {imageCase(R"({ "type": "image2d", "order": "CL_RGBA", "channel_type": "CL_UNORM_INT7", "width": 4, "height": 4 })"),
       "args[0].image.channel_type: unknown channel data type 'CL_UNORM_INT7'"},
      {imageCase(R"({ "type": "image2d", "order": "CL_RGBA", "width": 4, "height": 4 })"),
       "args[0].image.channel_type: missing"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "order": "CL_R", "width": 4, "height": 4 })"),
       "args[0].image.format: give either format or order and channel_type"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGB/CL_UNORM_INT8", "width": 4, "height": 4 })"),
       "args[0].image.format: CL_RGB with CL_UNORM_INT8 is not an image format the spec allows"},
      {imageCase(R"({ "type": "image2d_depth", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4 })"),
       "args[0].image.format: image2d_depth takes a CL_DEPTH image"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4 })"), "args[0].image.height: missing"},
      {imageCase(R"({ "type": "image1d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 2 })"),
       "args[0].image.height: image1d has no height"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "array_size": 2 })"),
       "args[0].image.array_size: image2d has no array_size"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 0, "height": 4 })"),
       "args[0].image.width: expected a positive integer"},
      {imageCase(R"({ "type": "image3d", "format": "CL_R/CL_FLOAT", "width": 1099511627776, "height": 1099511627776,
                      "depth": 1099511627776 })"),
       "args[0].image: the image's size is beyond 2^40 bytes"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBA/CL_FLOAT", "width": 4, "height": 4, "row_pitch": 32 })"),
       "args[0].image.row_pitch: 32 is less than width x element size, 64 bytes"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBA/CL_FLOAT", "width": 4, "height": 4, "row_pitch": 70 })"),
       "args[0].image.row_pitch: 70 is not a multiple of 16 bytes"},
      {imageCase(R"({ "type": "image3d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "depth": 2,
                      "slice_pitch": 32 })"),
       "args[0].image.slice_pitch: 32 is less than row pitch x height, 64 bytes"},
      {imageCase(R"({ "type": "image3d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "depth": 2,
                      "row_pitch": 32, "slice_pitch": 144 })"),
       "args[0].image.slice_pitch: 144 is not a multiple of 32 bytes"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "mip_levels": 4 })"),
       "args[0].image.mip_levels: 4 levels, but a 4-wide image has at most 3"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "mip_levels": 2,
                      "row_pitch": 16 })"),
       "args[0].image.row_pitch: a mipmapped image takes no pitches"},
      {imageCase(R"({ "type": "image1d_buffer", "format": "CL_R/CL_FLOAT", "width": 4, "mip_levels": 1 })"),
       "args[0].image.mip_levels: image1d_buffer has no mip_levels"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "output": "yes" })"),
       "args[0].image.output: expected true or false"},
      {imageCase(R"({ "type": "image2d", "format": "CL_R/CL_FLOAT", "width": 4, "height": 4, "colour": 1 })"),
       "args[0].image.colour: unknown key"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 4, "height": 4,
                      "init": { "values": [0, 256] } })"),
       "args[0].image.init.values[1]: 256 is out of the range of uchar"},
      {imageCase(R"({ "type": "image2d", "format": "CL_RGBA/CL_UNORM_INT8", "width": 4, "height": 4,
                      "init": { "special": { "seed": 1 } } })"),
       "args[0].image.init.special: special values exist for half, float and double only"},
      {samplerCase("{}"), "args[0].sampler.normalized: missing"},
      {samplerCase(R"({ "normalized": 1, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_LINEAR" })"),
       "args[0].sampler.normalized: expected true or false"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_WRAP", "filter": "CLK_FILTER_LINEAR" })"),
       "args[0].sampler.addressing: unknown value 'CLK_ADDRESS_WRAP'"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_CLAMP" })"), "args[0].sampler.filter: missing"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_CUBIC" })"),
       "args[0].sampler.filter: unknown value 'CLK_FILTER_CUBIC'"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_LINEAR",
                        "lod_min": -1 })"),
       "args[0].sampler.lod_min: expected a non-negative finite float"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_LINEAR",
                        "lod_min": 2, "lod_max": 1 })"),
       "args[0].sampler.lod_min: above lod_max"},
      {samplerCase(R"({ "normalized": true, "addressing": "CLK_ADDRESS_CLAMP", "filter": "CLK_FILTER_LINEAR",
                        "border": 1 })"),
       "args[0].sampler.border: unknown key"},
  };
  for (const auto& b : bad) {
    INFO(b.text);
    CHECK_THAT(errorOf(b.text), StartsWith(b.expected));
  }
}

TEST_CASE("image contents: channel values in memory order, packed formats, files", "[reference][case][image]") {
  TempDir dir;
  const auto materialized = [&dir](const std::string& image) {
    return materializeImage(caseOf(dir, imageCase(image)), 0);
  };
  const auto bytesOf = [](std::initializer_list<unsigned> v) {
    std::vector<std::byte> b;
    for (unsigned x : v) b.push_back(std::byte(x));
    return b;
  };

  // CL_BGRA: the values are B, G, R, A as stored; 2x1 elements, values cycled.
  CHECK(materialized(R"({ "type": "image2d", "format": "CL_BGRA/CL_UNORM_INT8", "width": 2, "height": 1,
                          "init": { "values": [1, 2, 3, 4, 5] } })") == bytesOf({1, 2, 3, 4, 5, 1, 2, 3}));
  // Pitches shape the storage only: the contents stay packed.
  CHECK(materialized(R"({ "type": "image2d", "format": "CL_R/CL_UNSIGNED_INT8", "width": 2, "height": 2,
                          "row_pitch": 8, "init": { "iota": { "start": 7, "step": 1 } } })") == bytesOf({7, 8, 9, 10}));
  // CL_UNORM_SHORT_565: R in bits 15:11, G in 10:5, B in 4:0 (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]): R = 31, G = 1, B = 2 is
  // 0xF800 | 0x0020 | 0x0002 = 0xF822.
  CHECK(materialized(R"({ "type": "image1d", "format": "CL_RGB/CL_UNORM_SHORT_565", "width": 1,
                          "init": { "values": [31, 1, 2] } })") == bytesOf({0x22, 0xF8}));
  // CL_UNORM_INT_101010_2: R 31:22, G 21:12, B 11:2, A 1:0. R = 1, G = 2, B = 3, A = 1: 0x0040200D.
  CHECK(materialized(R"({ "type": "image1d", "format": "CL_RGBA/CL_UNORM_INT_101010_2", "width": 1,
                          "init": { "values": [1, 2, 3, 1] } })") == bytesOf({0x0D, 0x20, 0x40, 0x00}));
  // A field value beyond its width is refused, naming the init.
  try {
    materialized(R"({ "type": "image1d", "format": "CL_RGB/CL_UNORM_SHORT_565", "width": 1,
                      "init": { "values": [32, 0, 0] } })");
    FAIL("no CaseError");
  } catch (const CaseError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("args[0].image.init: channel 0 of element 0 is 32, which does not "
                                                   "fit in 5 bits"));
  }
  // Half and float channels take floating-point values.
  const auto half = materialized(R"({ "type": "image1d", "format": "CL_R/CL_HALF_FLOAT", "width": 2,
                                      "init": { "values": [1.5, "-inf"] } })");
  CHECK(half == bytesOf({0x00, 0x3E, 0x00, 0xFC}));
  // Mip levels follow level 0: a 4x2 image with 3 levels has 8 + 2 + 1 elements.
  CHECK(materialized(R"({ "type": "image2d", "format": "CL_R/CL_UNSIGNED_INT8", "width": 4, "height": 2,
                          "mip_levels": 3, "init": { "fill": 9 } })")
            .size() == 11);
  // A file holds the raw elements, exactly.
  dir.write("img.bin", std::string("\x01\x02\x03\x04", 4));
  CHECK(materialized(R"({ "type": "image1d", "format": "CL_RG/CL_UNSIGNED_INT8", "width": 2, "init": { "file": "img.bin" } })") ==
        bytesOf({1, 2, 3, 4}));
  try {
    materialized(R"({ "type": "image1d", "format": "CL_RG/CL_UNSIGNED_INT8", "width": 3, "init": { "file": "img.bin" } })");
    FAIL("no CaseError");
  } catch (const CaseError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("args[0].image.init.file: "));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("has 4 bytes, the image's elements are 6"));
  }
}

TEST_CASE("image output text: one element per line, channels in memory order", "[reference][case][image]") {
  using namespace clref::images;
  ImageDesc d;
  d.type = ImageType::Image1D;
  d.width = 2;
  d.format = {ChannelOrder::RGBA, ChannelType::SignedInt8};
  const std::byte s8[] = {std::byte(0xFF), std::byte(1), std::byte(0x80), std::byte(0x7F),
                          std::byte(0),    std::byte(2), std::byte(3),    std::byte(4)};
  CHECK(formatImage(d, s8) == "-1, 1, -128, 127\n0, 2, 3, 4\n");
  d.width = 1;
  d.format = {ChannelOrder::RG, ChannelType::Float};
  const float f[] = {0.5f, -2.0f};
  CHECK(formatImage(d, reinterpret_cast<const std::byte*>(f)) == "0x1p-1 0.5, -0x1p+1 -2\n");
  d.format = {ChannelOrder::RGB, ChannelType::UnormShort565};
  const std::byte p[] = {std::byte(0x22), std::byte(0xF8)};
  CHECK(formatImage(d, p) == "31, 1, 2\n");
}
