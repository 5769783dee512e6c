// `clref check` on the whole golden corpus (issue "clref check", tests and evidence): clref's own output is
// identical everywhere (images too); outputs of "any conforming device" (--perturb) are never a violation; and the command line
// classifies, reports and exits as documented. Seeds: 2 per case by default; CLREF_PERTURB_SEEDS=N (the `slow` test
// sets 20) for more.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "check/check.hpp"
#include "clref_run.hpp"
#include "cli/case_file.hpp"
#include "cli/check_command.hpp"

using namespace clref;
using clref::cli::test::runClref;
using clref::cli::test::TempDir;

namespace {

// Whether the case's kernel enqueues kernels (device-side enqueue), which clref check does not judge (check/check.hpp).
bool enqueuesKernels(const cli::Case& c) {
  return cli::prepareCase(c, host::Device()).kernel->enqueuesKernels();
}

// The golden cases with outputs (buffers or images), except those whose kernels enqueue kernels; the shader cases
// among them are judged by Vulkan's precision rules.
std::vector<std::filesystem::path> outputCases() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(CLREF_GOLDEN_DIR) / "cases")) {
    if (e.path().extension() != ".json") continue;
    const auto c = cli::loadCase(e.path());
    if (enqueuesKernels(c)) continue;
    bool outputs = false;
    for (const auto& a : c.args)
      outputs = outputs || (a.kind == cli::ArgSpec::Kind::Buffer && a.buffer.output) ||
                (a.kind == cli::ArgSpec::Kind::Image && a.image.output);
    if (outputs) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Outputs {
  std::vector<host::ObservedBuffer> buffers;
  std::vector<host::ObservedImage> images;
};

// The contents of every output buffer and image after a run of the freshly prepared case (plain or perturbed).
Outputs outputsOf(const cli::Case& c, std::optional<uint64_t> seed) {
  auto p = cli::prepareCase(c, host::Device());
  const auto r = seed ? host::runPerturbed(*p.kernel, p.range, *seed) : p.kernel->run(p.range);
  REQUIRE(r.ok);
  Outputs out;
  for (const auto& [arg, buffer] : p.outputs) {
    const auto* b = reinterpret_cast<const uint8_t*>(buffer->data());
    out.buffers.push_back({arg, c.args[arg].buffer.type, std::vector<uint8_t>(b, b + buffer->size())});
  }
  for (const auto& [arg, image] : p.imageOutputs) {
    const auto bytes = cli::imageContents(*image);
    const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
    out.images.push_back({arg, std::vector<uint8_t>(b, b + bytes.size())});
  }
  return out;
}

host::CheckReport checkCase(const cli::Case& c, const Outputs& observed) {
  auto p = cli::prepareCase(c, host::Device());
  return host::check(*p.kernel, p.range, observed.buffers, observed.images);
}

}  // namespace

TEST_CASE("check of clref's own output: every element of every golden case is identical", "[check][corpus]") {
  const auto cases = outputCases();
  REQUIRE(cases.size() > 100);
  size_t images = 0;
  for (const auto& path : cases) {
    INFO(path.filename().string());
    const auto c = cli::loadCase(path);
    const auto report = checkCase(c, outputsOf(c, std::nullopt));
    REQUIRE(report.run.ok);
    for (const auto& b : report.buffers) {
      CHECK(b.identical == b.elements);
      CHECK(b.details.empty());
      images += b.image;
    }
  }
  CHECK(images >= 10);  // the corpus's image-writing kernels are judged too
}

TEST_CASE("check refuses the golden cases whose kernels enqueue kernels, saying why", "[check][corpus]") {
  size_t refused = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(CLREF_GOLDEN_DIR) / "cases")) {
    if (e.path().extension() != ".json") continue;
    const auto c = cli::loadCase(e.path());
    if (!enqueuesKernels(c)) continue;
    INFO(e.path().filename().string());
    CHECK_THROWS_WITH(checkCase(c, outputsOf(c, std::nullopt)), Catch::Contains("(device-side enqueue)"));
    ++refused;
  }
  CHECK(refused >= 10);  // device_enqueue*.json
}

TEST_CASE("check of any conforming device's output (--perturb): no golden case has a violation", "[check][corpus]") {
  const char* env = std::getenv("CLREF_PERTURB_SEEDS");
  const uint64_t seeds = env ? std::strtoull(env, nullptr, 10) : 2;
  uint64_t perturbedCases = 0, allowed = 0, imageAllowed = 0;
  for (const auto& path : outputCases()) {
    const auto c = cli::loadCase(path);
    bool changed = false;
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      INFO(path.filename().string() << " seed " << seed);
      const auto observed = outputsOf(c, seed);
      const auto report = checkCase(c, observed);
      REQUIRE(report.run.ok);
      for (const auto& b : report.buffers) {
        CHECK(b.violations == 0);
        if (b.violations)
          for (const auto& d : b.details)
            if (d.cls == host::ElementClass::Violation) FAIL_CHECK("[" << d.index << "] " << d.observed << " " << d.reason);
        allowed += b.allowed;
        if (b.image) imageAllowed += b.allowed;
        changed = changed || b.allowed || b.undetermined;
      }
    }
    perturbedCases += changed;
  }
  // The corpus has math, geometric and relaxed-accuracy kernels: many cases must actually have been perturbed.
  CHECK(perturbedCases >= 10);
  CHECK(allowed > 1000);
  CHECK(imageAllowed > 0);  // image writes of colours with freedom, judged allowed
}

TEST_CASE("clref check: summary, JSON report, exit status and bad input", "[check][cli]") {
  TempDir dir;
  const auto caseFile = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases" / "math_functions.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --perturb 7 --out '" + out.string() + "'").status == 0);
  const auto report = dir.path() / "report.json";
  auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --report '" +
                             report.string() + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains(" allowed, 0 violations"));
  std::ifstream in(report);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["kernel"] == "math_functions");
  CHECK(j["violations"] == 0);
  CHECK(j["allowed"].get<uint64_t>() > 0);
  REQUIRE(j["buffers"].size() == 2);
  const auto& details = j["buffers"][0]["details"];
  REQUIRE_FALSE(details.empty());
  for (const char* field : {"arg", "index", "observed", "reference", "allowed", "reason"})
    CHECK(details[0].contains(field));

  // A planted violation: one element of the .bin far from any allowed value (the sign flipped).
  const auto bin = out / "math_functions.arg2.bin";
  std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
  float v = 0;
  f.seekg(4 * 10);
  f.read(reinterpret_cast<char*>(&v), 4);
  v = -v * 3 - 1;
  f.seekp(4 * 10);
  f.write(reinterpret_cast<const char*>(&v), 4);
  f.close();
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Matchers::Contains("[10] violation"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("1 violation,"));

  // Bad input: a file of the wrong size, a missing folder, an unknown build option.
  std::filesystem::resize_file(bin, 12);
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("12 bytes"));
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + (dir.path() / "nowhere").string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("no observed output"));
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --options -cl-bogus");
  CHECK(r.status == 2);
}

// A module without OpName (llvm-spirv's -O2 output of mad_fma.cl) has unnamed parameters: the summary line says
// "arg 3 (768 elements)", not "arg 3 (, 768 elements)" (a named parameter's "(Out, 8 elements)": shader_case_test.cpp).
TEST_CASE("clref check: the summary line of an unnamed parameter", "[check][cli]") {
  TempDir dir;
  const auto caseFile = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases" / "mad_fma_float.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --out '" + out.string() + "'").status == 0);
  auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::StartsWith("arg 3 (768 elements): 768 identical, 0 allowed"));
}

TEST_CASE("clref check: an output image, observed as text", "[check][cli][images]") {
  TempDir dir;
  const auto caseFile = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases" / "image_brighten_O2.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --out '" + out.string() + "'").status == 0);
  std::filesystem::remove(out / "image_brighten_O2.arg0.bin");  // the text alone
  const auto txt = out / "image_brighten_O2.arg0.txt";
  auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("192 image elements): 192 identical"));
  // Element 5's red channel far from anything the write rules allow (UNORM_INT16: within 0.6 of 65535 × x).
  std::ifstream in(txt);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  size_t at = 0;
  for (int line = 0; line < 5; ++line) at = text.find('\n', at) + 1;
  const size_t comma = text.find(',', at);
  const long red = std::stol(text.substr(at, comma - at));
  text.replace(at, comma - at, std::to_string(red > 30000 ? red - 20000 : red + 20000));
  std::ofstream(txt) << text;
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Matchers::Contains("[5] violation"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("outside the allowed codes"));
  // A line with too few channels is bad input naming the line.
  text.replace(at, comma + 1 - at, "");
  std::ofstream(txt) << text;
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("line 6"));
}

TEST_CASE("clref check: elements judged against any value are counted, listed by source, and --strict", "[check][cli]") {
  // convert_rounding's element 8 of argument 3 converts a float beyond INT_MAX without _sat: implementation-defined
  // (OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]), so any int is allowed there, and the verdict says so.
  TempDir dir;
  const auto caseFile = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases" / "convert_rounding.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --out '" + out.string() + "'").status == 0);
  const auto bin = out / "convert_rounding.arg3.bin";
  REQUIRE(std::filesystem::exists(bin));
  {
    std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
    const int32_t planted = 12345;
    f.seekp(4 * 8);
    f.write(reinterpret_cast<const char*>(&planted), 4);
  }
  const auto report = dir.path() / "report.json";
  auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --report '" +
                             report.string() + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("1 allowed, 0 violations"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("1 of them judged against the set any value"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("OpConvertFToS"));
  std::ifstream in(report);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["any_value"] == 1);
  bool found = false;
  for (const auto& b : j["buffers"]) {
    if (b["any_value"] != 1) continue;
    found = true;
    REQUIRE(b["any_value_by"].size() == 1);
    CHECK(b["any_value_by"][0]["elements"] == 1);
    CHECK(b["any_value_by"][0]["instruction"].get<std::string>().find("OpConvertFToS") != std::string::npos);
    CHECK(b["details"][0]["any_value"] == true);
  }
  CHECK(found);
  r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --strict");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("0 allowed, 0 violations, 1 undetermined"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("[8] undetermined"));
}

TEST_CASE("clref check: planted deviations that only \"any value\" allowed before are violations in golden cases",
          "[check][cli]") {
  // (1) math_functions: o[g * 12 + 10] is sincos's cosine through its pointer (golden/kernels/math_functions.cl), a
  //     float4: element 41 is work-item 0's lane 1. 1000 ulp off is outside cos's 4 ulp bound; 2 ulp off is inside.
  // (2) image_tile_mirror: a linear read (weighted average of its footprint); 0.0 where clref's value is above 0.1,
  //     and 1.5 (above every texel of a UNORM_INT8 image) are violations.
  TempDir dir;
  auto plant = [&](const std::filesystem::path& bin, size_t index, auto&& change) {
    std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
    float v = 0;
    f.seekg(std::streamoff(4 * index));
    f.read(reinterpret_cast<char*>(&v), 4);
    v = change(v);
    f.seekp(std::streamoff(4 * index));
    f.write(reinterpret_cast<const char*>(&v), 4);
  };
  auto stepped = [](float x, int k) {
    for (; k > 0; --k) x = std::nextafter(x, INFINITY);
    return x;
  };
  const auto golden = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases";
  {
    const auto out = dir.path() / "math";
    REQUIRE(runClref(dir, "run '" + (golden / "math_functions.json").string() + "' --out '" + out.string() + "'")
                .status == 0);
    const auto bin = out / "math_functions.arg2.bin";
    plant(bin, 41, [&](float v) { return stepped(v, 1000); });
    plant(bin, 42, [&](float v) { return stepped(v, 2); });
    const auto r = runClref(dir, "check '" + (golden / "math_functions.json").string() + "' --observed '" +
                                     out.string() + "' --show 10");
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Matchers::Contains("1 allowed, 1 violation,"));
    CHECK_THAT(r.out, Catch::Matchers::Contains("[41] violation"));
    CHECK_THAT(r.out, Catch::Matchers::Contains("sincos"));
  }
  {
    const auto out = dir.path() / "tile";
    const auto caseFile = golden / "image_tile_mirror_O2.json";
    REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --out '" + out.string() + "'").status == 0);
    const auto bin = out / "image_tile_mirror_O2.arg1.bin";
    std::ifstream in(bin, std::ios::binary);
    std::vector<float> values(2304);
    in.read(reinterpret_cast<char*>(values.data()), std::streamsize(values.size() * 4));
    size_t bright = 0;
    while (bright < values.size() && !(values[bright] > 0.1f)) ++bright;
    REQUIRE(bright + 1 < values.size());
    plant(bin, bright, [](float) { return 0.0f; });
    plant(bin, bright + 1, [](float) { return 1.5f; });
    const auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "'");
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Matchers::Contains("2 violations"));
    CHECK_THAT(r.out, Catch::Matchers::Contains("[" + std::to_string(bright) + "] violation"));
  }
}

TEST_CASE("clref check: a buffer spooled as bytes is judged as its parameter's type", "[check][cli]") {
  // The check layer's spool writes buffers as "uchar" bytes (docs/SCALE.md). math_functions' outputs are floats with
  // ulp bounds: judged as floats, a conforming device's values (--perturb) are allowed by their functions' sets; judged
  // as bytes, clref cannot follow a float's set into its bytes, and --strict leaves them undetermined.
  TempDir dir;
  const auto golden = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases" / "math_functions.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + golden.string() + "' --perturb 7 --out '" + out.string() + "'").status == 0);
  auto c = nlohmann::json::parse(std::ifstream(golden));
  c["module"] = (golden.parent_path() / c["module"].get<std::string>()).string();
  for (int arg : {2, 3}) {
    auto& b = c["args"][arg]["buffer"];
    b["count"] = b["count"].get<size_t>() * 4;
    b["type"] = "uchar";
  }
  auto write = [&](bool judgeAsParameter) {
    for (int arg : {2, 3}) c["args"][arg]["buffer"]["judge_as_parameter"] = judgeAsParameter;
    std::ofstream(dir.path() / "math_functions.json") << c.dump();
  };
  const std::string caseFile = (dir.path() / "math_functions.json").string();
  write(true);
  auto r = runClref(dir, "check '" + caseFile + "' --observed '" + out.string() + "' --strict");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("1536 elements):"));
  CHECK_THAT(r.out, Catch::Matchers::Contains(" allowed, 0 violations, 0 undetermined"));
  CHECK_FALSE(clref::cli::test::has(r.out, "reinterpreted"));
  write(false);
  r = runClref(dir, "check '" + caseFile + "' --observed '" + out.string() + "' --strict");
  CHECK_THAT(r.out, Catch::Matchers::Contains("6144 elements):"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("undetermined: observed"));
  CHECK_THAT(r.out, Catch::Matchers::Contains("its bytes were reinterpreted"));
}
