// The choices explorer (cli/explore.hpp) and the run's record of choices through `clref run` and `clref
// explore`: which elements change under which option is computed here from the inputs and each option's definition
// in the registry (numerics/choices.hpp), not taken from clref's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "clref_run.hpp"
#include "cli/explore.hpp"

using namespace clref;
using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::TempDir;

namespace {

const char* kKernel = R"CL(
kernel void open(global const float* x, global const uint* a, global int* oi, global uint* ou) {
  size_t i = get_global_id(0);
  oi[i] = (int)x[i];
  ou[i] = mul24(a[i], 3u);
}
)CL";

constexpr size_t kN = 16;
const std::vector<std::string> kX = {"1.5", "nan", "3e9", "-3e9", "7", "-2.5", "nan", "4e9",
                                     "0", "1", "2", "3", "-5e9", "5", "6", "2147483520"};
std::vector<uint32_t> aValues() {
  std::vector<uint32_t> a;
  for (size_t i = 0; i < kN; ++i) a.push_back(i % 5 == 2 ? 0x1000000u + uint32_t(i) : uint32_t(i));
  return a;
}

std::string caseText() {
  std::string xs, as;
  for (size_t i = 0; i < kN; ++i) {
    xs += (i ? ", " : "") + std::string("\"") + kX[i] + "\"";
    as += (i ? ", " : "") + std::to_string(aValues()[i]);
  }
  return R"({ "module": "open.cl", "kernel": "open", "ndrange": { "global": [16], "local": [4] }, "args": [
    { "buffer": { "type": "float", "count": 16, "init": { "values": [)" + xs + R"(] } } },
    { "buffer": { "type": "uint", "count": 16, "init": { "values": [)" + as + R"(] } } },
    { "buffer": { "type": "int", "count": 16, "output": true } },
    { "buffer": { "type": "uint", "count": 16, "output": true } } ] })";
}

// OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: a value in range converts by truncation; otherwise the option's result.
int32_t convert(double x, const std::string& option) {
  if (!std::isnan(x) && std::trunc(x) >= -2147483648.0 && std::trunc(x) <= 2147483647.0) return int32_t(std::trunc(x));
  if (option == "saturate") return std::isnan(x) ? 0 : x < 0 ? INT32_MIN : INT32_MAX;
  return option == "min_value" ? INT32_MIN : 0;
}

// The indices whose element differs between two options, per the definitions above.
std::vector<size_t> changedConversions(const std::string& option) {
  std::vector<size_t> out;
  for (size_t i = 0; i < kN; ++i) {
    const double x = double(std::stof(kX[i] == "nan" ? "nan" : kX[i]));
    if (convert(x, "saturate") != convert(x, option)) out.push_back(i);
  }
  return out;
}

}  // namespace

TEST_CASE("clref explore: each other option of each consulted choice, and exactly the elements it changes",
          "[reference][explore]") {
  TempDir dir;
  dir.write("open.cl", kKernel);
  const auto casePath = dir.write("open.json", caseText());
  const auto e = cli::explore(cli::loadCase(casePath), host::Device());
  REQUIRE(e.base.result.ok);
  // float_to_int_out_of_range has two other options, mul24_out_of_range one; no other choice was consulted.
  REQUIRE(e.alternatives.size() == 3);
  CHECK(e.runs == 4);
  std::map<std::string, const cli::Alternative*> byName;
  for (const auto& a : e.alternatives)
    byName[std::string(numerics::infoOf(a.choice).name) + "=" + std::string(numerics::infoOf(a.choice).options[a.option])] = &a;

  for (const std::string option : {"min_value", "zero"}) {
    const auto* a = byName.at("float_to_int_out_of_range=" + option);
    const auto expected = changedConversions(option);
    REQUIRE_FALSE(expected.empty());
    REQUIRE(a->changes.size() == 1);
    CHECK(a->changes[0].arg == 2);
    CHECK(a->changes[0].elements == kN);
    CHECK(a->changes[0].changed == expected.size());
    for (size_t k = 0; k < a->changes[0].first.size(); ++k) {
      const auto& el = a->changes[0].first[k];
      CHECK(el.index == expected[k]);
      const double x = double(std::stof(kX[el.index]));
      CHECK(el.before == std::to_string(convert(x, "saturate")));
      CHECK(el.after == std::to_string(convert(x, option)));
    }
  }
  const auto* mul = byName.at("mul24_out_of_range=full_product");
  REQUIRE(mul->changes.size() == 1);
  CHECK(mul->changes[0].arg == 3);
  std::vector<size_t> beyond;
  for (size_t i = 0; i < kN; ++i)
    if (aValues()[i] > 0xffffff) beyond.push_back(i);
  CHECK(mul->changes[0].changed == beyond.size());
  for (size_t k = 0; k < mul->changes[0].first.size(); ++k) {
    const auto& el = mul->changes[0].first[k];
    const uint32_t a = aValues()[el.index];
    CHECK(el.index == beyond[k]);
    CHECK(el.before == std::to_string((a & 0xffffff) * 3u));  // the low 24 bits multiplied
    CHECK(el.after == std::to_string(a * 3u));                // the full product's low 32 bits
  }
}

TEST_CASE("clref run prints the choices that decided values, clref explore prints what each other option changes",
          "[reference][cli][explore]") {
  TempDir dir;
  dir.write("open.cl", kKernel);
  const auto casePath = dir.write("open.json", caseText());
  const auto run = runClref(dir, "run '" + casePath.string() + "'");
  INFO(run.err);
  REQUIRE(run.status == 0);
  size_t outOfRange = 0;
  for (const auto& x : kX) {
    const double v = double(std::stof(x));
    if (std::isnan(v) || std::trunc(v) < -2147483648.0 || std::trunc(v) > 2147483647.0) ++outOfRange;
  }
  CHECK(has(run.err, "choice float_to_int_out_of_range=saturate (default) decided " + std::to_string(outOfRange) +
                         " values; the first: float to integer conversion of NaN or an out-of-range value"));
  CHECK(has(run.err, "choice mul24_out_of_range=low_24_bits (default) decided 3 values"));
  CHECK(has(run.err, "work-item: global (1,0,0)"));  // x[1] is the first NaN

  // The case's choices are the base the explorer starts from.
  const auto ex = runClref(dir, "explore '" + casePath.string() + "' --choice mul24_out_of_range=full_product");
  INFO(ex.err);
  REQUIRE(ex.status == 0);
  CHECK(has(ex.out, "choice mul24_out_of_range=low_24_bits (instead of full_product): outputs change\n"
                    "  arg 3: 3 of 16 elements change\n"
                    "    [2] " + std::to_string(aValues()[2] * 3u) + " -> " + std::to_string((aValues()[2] & 0xffffff) * 3u)));
  CHECK(has(ex.out, "choice float_to_int_out_of_range=zero (instead of saturate): outputs change"));
  CHECK(has(ex.out, "4 runs"));

  // A bad --choice is rejected.
  CHECK(runClref(dir, "explore '" + casePath.string() + "' --choice mul24_out_of_range=maybe").status == 2);
}
