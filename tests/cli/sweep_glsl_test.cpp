// `clref sweep GLSL.std.450:NAME` for the instructions without an accuracy row of their own (cli/sweep_command.hpp):
// the exact ones against the host's own binary32 arithmetic (std::floor, x − floor(x), std::fmin, std::ldexp), the
// inherited ones against MPFR at 256 bits rounded once to float (allowed) and values far from it (violations), and
// the sweep's verdicts against `clref check` on a compute shader that calls the instruction.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "clref_run.hpp"

using namespace clref::cli::test;

namespace {

template <class T> std::filesystem::path glslWrite(const TempDir& dir, const std::string& name, const std::vector<T>& v) {
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
  return path;
}

std::vector<float> glslReadFloats(const std::filesystem::path& file) {
  const std::string bytes = slurp(file);
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// The inputs (bit patterns in hexadecimal, or tuple numbers) of the violations a sweep of `name` lists.
std::set<uint64_t> glslListed(const std::string& out, const std::string& name) {
  return sweepListed(out, "GLSL\\.std\\.450:" + name);
}

bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

// f(x) for one float operand, computed at 256 bits and rounded once to float.
float mpfrFloat(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float x) {
  mpfr_t m;
  mpfr_init2(m, 256);
  mpfr_set_flt(m, x, MPFR_RNDN);
  f(m, m, MPFR_RNDN);
  const float r = mpfr_get_flt(m, MPFR_RNDN);
  mpfr_clear(m);
  return r;
}
float mpfrPow(float x, float y) {
  mpfr_t a, b;
  mpfr_inits2(256, a, b, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(a, x, MPFR_RNDN);
  mpfr_set_flt(b, y, MPFR_RNDN);
  mpfr_pow(a, a, b, MPFR_RNDN);
  const float r = mpfr_get_flt(a, MPFR_RNDN);
  mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
  return r;
}
// smoothstep(e0, e1, x) = t² (3 − 2t), t = clamp((x − e0) / (e1 − e0), 0, 1), exactly at 256 bits, rounded once.
float mpfrSmoothStep(float e0, float e1, float x) {
  mpfr_t t, u;
  mpfr_inits2(256, t, u, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(t, x, MPFR_RNDN);
  mpfr_sub_d(t, t, e0, MPFR_RNDN);
  mpfr_set_flt(u, e1, MPFR_RNDN);
  mpfr_sub_d(u, u, e0, MPFR_RNDN);
  mpfr_div(t, t, u, MPFR_RNDN);
  if (mpfr_cmp_d(t, 0) < 0) mpfr_set_d(t, 0, MPFR_RNDN);
  if (mpfr_cmp_d(t, 1) > 0) mpfr_set_d(t, 1, MPFR_RNDN);
  mpfr_mul_si(u, t, -2, MPFR_RNDN);
  mpfr_add_si(u, u, 3, MPFR_RNDN);
  mpfr_mul(u, u, t, MPFR_RNDN);
  mpfr_mul(u, u, t, MPFR_RNDN);
  const float r = mpfr_get_flt(u, MPFR_RNDN);
  mpfr_clears(t, u, static_cast<mpfr_ptr>(nullptr));
  return r;
}

float ulpsAway(float v, int n) {
  return std::bit_cast<float>(uint32_t(int64_t(std::bit_cast<uint32_t>(v)) + n));
}

// One-operand sweeps over the bit patterns first .. first + count − 1.
std::string glslRange(uint32_t first, uint32_t count) {
  char text[64];
  std::snprintf(text, sizeof text, "--range 0x%08x:0x%08x ", first, first + count);
  return text;
}

// The host's values host(x) of the count floats from the bit pattern first, after checking that
// `clref sweep GLSL.std.450:NAME --out` writes them bit for bit.
template <class Host>
std::vector<float> glslOutIsHost(const TempDir& dir, const std::string& name, uint32_t first, uint32_t count,
                                 Host host) {
  const auto out = dir.path() / (name + ".out");
  const CliResult r = runClref(dir, "sweep GLSL.std.450:" + name + " --type float " + glslRange(first, count) +
                                        "--out '" + out.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  std::vector<float> want(count);
  for (uint32_t i = 0; i < count; ++i) want[i] = host(std::bit_cast<float>(first + i));
  const std::vector<float> got = glslReadFloats(out);
  REQUIRE(got.size() == count);
  size_t differ = 0;
  for (uint32_t i = 0; i < count; ++i) differ += !sameBits(got[i], want[i]);
  CHECK(differ == 0);
  return want;
}

}  // namespace

TEST_CASE("sweep GLSL.std.450:Floor and Fract: --out is the host's binary32 result, planted errors are violations",
          "[sweep][glsl]") {
  TempDir dir;
  // [-3.03, -3] and [3, 3.03): floor(x) is -4 and 3; fract(x) = x − floor(x) exact in binary32 there.
  for (const uint32_t first : {0xc0400000u, 0x40400000u, 0x4afff000u}) {
    constexpr uint32_t kCount = 1 << 13;
    const std::string range = glslRange(first, kCount);
    for (const std::string name : {"Floor", "Fract"}) {
      INFO(name << " from " << first);
      auto host = [&](float x) { return name == "Floor" ? std::floor(x) : x - std::floor(x); };
      std::vector<float> want = glslOutIsHost(dir, name, first, kCount, host);

      const CliResult ok = runClref(dir, "sweep GLSL.std.450:" + name + " --type float " + range + "--observed '" +
                                             glslWrite(dir, "host.bin", want).string() + "'");
      CHECK(ok.status == 0);
      CHECK(has(ok.out, ": 0 violations\n"));
      CHECK(has(ok.out, "  0: " + std::to_string(kCount) + "\n"));
      // Floor one ulp off; Fract 1.0 (its result is below 1 here) at every 97th input.
      std::set<uint64_t> planted;
      for (uint32_t i = 5; i < kCount; i += 97) {
        want[i] = name == "Floor" ? ulpsAway(want[i], 1) : 1.0f;
        planted.insert(first + i);
      }
      const CliResult bad = runClref(dir, "sweep GLSL.std.450:" + name + " --type float " + range +
                                              "--show 1000 --observed '" + glslWrite(dir, "bad.bin", want).string() +
                                              "'");
      INFO(bad.out.substr(0, 2000));
      CHECK(bad.status == 1);
      CHECK(has(bad.out, ": " + std::to_string(planted.size()) + " violations\n"));
      CHECK(glslListed(bad.out, name) == planted);
    }
  }
}

// Modf and Frexp: the first result (std::modf's fraction, std::frexp's significand, exact in binary32); a denormal
// operand a shader may flush gives ±0 as well (Vulkan §A.4 [external]), any other value there is a violation.
TEST_CASE("sweep GLSL.std.450:Modf and Frexp judge the first result: the host's modf and frexp, flushed denormals",
          "[sweep][glsl]") {
  TempDir dir;
  for (const std::string name : {"Modf", "Frexp", "ModfStruct", "FrexpStruct"}) {
    const bool frexp = name.starts_with("Frexp");
    auto host = [&](float x) {
      if (frexp) {
        int e = 0;
        return std::frexp(x, &e);
      }
      float whole = 0;
      return std::modf(x, &whole);
    };
    // Around -2.5 and 1e6 (normal numbers), and the denormals above 0x00000000.
    for (const uint32_t first : {0xc0200000u - 2048u, 0x49742400u, 0x00000001u}) {
      constexpr uint32_t kCount = 1 << 12;
      INFO(name << " from " << first);
      const std::string range = glslRange(first, kCount);
      std::vector<float> want = glslOutIsHost(dir, name, first, kCount, host);
      const bool denormals = first == 0x00000001u;
      // A denormal operand flushed: +0 or -0 allowed; else one ulp off is a violation. Every 61st input planted.
      std::set<uint64_t> planted;
      for (uint32_t i = 3; i < kCount; i += 61) {
        want[i] = denormals && i % 2 ? -0.0f : ulpsAway(want[i], 1);
        if (!(denormals && i % 2)) planted.insert(first + i);
      }
      const CliResult bad = runClref(dir, "sweep GLSL.std.450:" + name + " --type float " + range +
                                              "--show 1000 --observed '" + glslWrite(dir, "first.bin", want).string() +
                                              "'");
      INFO(bad.out.substr(0, 2000));
      CHECK(bad.status == (planted.empty() ? 0 : 1));
      CHECK(glslListed(bad.out, name) == planted);
    }
  }
}

TEST_CASE("sweep GLSL.std.450:FMin and Ldexp over --inputs: the host's fmin and ldexp, NaN operands allow any value",
          "[sweep][glsl]") {
  TempDir dir;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // FMin: numbers of both signs, and a NaN as either operand.
  std::vector<float> tuples;
  const float values[] = {1.5f, -2.25f, 3e38f, -1e-30f, 7.0f, 0x1p-149f, -0.5f, nan};
  for (float x : values)
    for (float y : values) {
      tuples.push_back(x);
      tuples.push_back(y);
    }
  const size_t n = tuples.size() / 2;
  const std::string inputs = "--inputs '" + glslWrite(dir, "fmin.in", tuples).string() + "' ";
  const auto out = dir.path() / "fmin.out";
  REQUIRE(runClref(dir, "sweep GLSL.std.450:FMin --type float " + inputs + "--out '" + out.string() + "'").status == 0);
  const std::vector<float> got = glslReadFloats(out);
  REQUIRE(got.size() == n);
  std::vector<float> host(n);
  for (size_t k = 0; k < n; ++k) {
    host[k] = std::fmin(tuples[2 * k], tuples[2 * k + 1]);  // the number where one operand is a NaN (NMin's rule)
    INFO(k);
    CHECK((sameBits(got[k], host[k]) || (std::isnan(got[k]) && std::isnan(host[k]))));
  }
  CHECK(runClref(dir, "sweep GLSL.std.450:FMin --type float " + inputs + "--observed '" +
                          glslWrite(dir, "fmin.obs", host).string() + "'")
            .status == 0);
  // fmin(x, NaN) or fmin(NaN, y) of a shader without SignedZeroInfNanPreserve (NotNaN assumed): any value; the max
  // instead of the min for numbers: a violation.
  std::set<uint64_t> planted;
  for (size_t k = 0; k < n; ++k) {
    const float x = tuples[2 * k], y = tuples[2 * k + 1];
    if (std::isnan(x) || std::isnan(y)) {
      host[k] = 12345.0f;
    } else if (x != y) {
      host[k] = std::fmax(x, y);
      planted.insert(k);
    }
  }
  const CliResult bad = runClref(dir, "sweep GLSL.std.450:FMin --type float " + inputs + "--show 100 --observed '" +
                                          glslWrite(dir, "fmin.bad", host).string() + "'");
  INFO(bad.out);
  CHECK(bad.status == 1);
  CHECK(glslListed(bad.out, "FMin") == planted);

  // Ldexp: (x, k) with k an int, the host's ldexp in binary32 (exact, or rounded once at an underflow).
  std::vector<uint32_t> pairs;
  std::vector<float> want;
  for (int i = 0; i < 400; ++i) {
    const float x = (i % 2 ? -1.0f : 1.0f) * (1.0f + float(i) / 512.0f) * std::ldexp(1.0f, i % 11 - 5);
    const int k = i % 300 - 150 + (i % 3) * 7;
    pairs.push_back(std::bit_cast<uint32_t>(x));
    pairs.push_back(uint32_t(k));
    want.push_back(std::ldexp(x, k));
  }
  const std::string ldexpInputs = "--inputs '" + glslWrite(dir, "ldexp.in", pairs).string() + "' ";
  const auto lout = dir.path() / "ldexp.out";
  REQUIRE(runClref(dir, "sweep GLSL.std.450:Ldexp --type float " + ldexpInputs + "--out '" + lout.string() + "'")
              .status == 0);
  const std::vector<float> lgot = glslReadFloats(lout);
  REQUIRE(lgot.size() == want.size());
  size_t differ = 0;
  for (size_t k = 0; k < want.size(); ++k) differ += !sameBits(lgot[k], want[k]);
  CHECK(differ == 0);
  CHECK(runClref(dir, "sweep GLSL.std.450:Ldexp --type float " + ldexpInputs + "--observed '" +
                          glslWrite(dir, "ldexp.obs", want).string() + "'")
            .status == 0);
  planted.clear();
  for (size_t k = 3; k < want.size(); k += 37)
    if (std::isnormal(want[k])) {
      want[k] = ulpsAway(want[k], 1);
      planted.insert(k);
    }
  const CliResult lbad = runClref(dir, "sweep GLSL.std.450:Ldexp --type float " + ldexpInputs +
                                           "--show 100 --observed '" + glslWrite(dir, "ldexp.bad", want).string() +
                                           "'");
  INFO(lbad.out);
  CHECK(lbad.status == 1);
  CHECK(!planted.empty());
  CHECK(glslListed(lbad.out, "Ldexp") == planted);
}

TEST_CASE("sweep of inherited GLSL.std.450 precision: MPFR's value is allowed, values far from it are violations",
          "[sweep][glsl]") {
  TempDir dir;
  // One operand: Sqrt on [2, 2.0156), Tan on [0.5, 0.504), Asinh on [1, 1.0078).
  struct One {
    const char* name;
    int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
    uint32_t first;
  };
  for (const One& o : {One{"Sqrt", mpfr_sqrt, 0x40000000u}, One{"Tan", mpfr_tan, 0x3f000000u},
                       One{"Asinh", mpfr_asinh, 0x3f800000u}}) {
    INFO(o.name);
    constexpr uint32_t kCount = 1 << 12;
    const std::string args = std::string("sweep GLSL.std.450:") + o.name + " --type float " + glslRange(o.first, kCount);
    std::vector<float> v(kCount);
    for (uint32_t i = 0; i < kCount; ++i) v[i] = mpfrFloat(o.f, std::bit_cast<float>(o.first + i));
    const CliResult ok = runClref(dir, args + "--observed '" + glslWrite(dir, "ok.bin", v).string() + "'");
    INFO(ok.out << ok.err);
    CHECK(ok.status == 0);
    CHECK(has(ok.out, "vulkan profile: 0 violations\n"));
    // Sqrt 64 ulp above (its inherited bound is a few ulp); every function the wrong sign at other inputs.
    std::set<uint64_t> planted;
    for (uint32_t i = 0; i < kCount; i += 61) {
      v[i] = std::string(o.name) == "Sqrt" && i % 2 ? ulpsAway(v[i], 64) : -v[i];
      planted.insert(o.first + i);
    }
    const CliResult bad = runClref(dir, args + "--show 1000 --observed '" + glslWrite(dir, "bad.bin", v).string() + "'");
    INFO(bad.out.substr(0, 2000));
    CHECK(bad.status == 1);
    CHECK(glslListed(bad.out, o.name) == planted);
  }

  // Pow over (x, y) in [0.5, 4) × [-3, 3); SmoothStep(-1, 3, x) over x in [-1.5, 3.5).
  std::vector<float> powIn, powOut, ssIn, ssOut;
  for (int k = 0; k < 2000; ++k) {
    const float x = 0.5f + 3.5f * float((k * 7919) % 2000) / 2000.0f, y = -3.0f + 6.0f * float(k) / 2000.0f;
    powIn.insert(powIn.end(), {x, y});
    powOut.push_back(mpfrPow(x, y));
    const float s = -1.5f + 5.0f * float(k) / 2000.0f;
    ssIn.insert(ssIn.end(), {-1.0f, 3.0f, s});
    ssOut.push_back(mpfrSmoothStep(-1.0f, 3.0f, s));
  }
  struct Many {
    const char* name;
    std::vector<float>& in;
    std::vector<float>& out;
  };
  for (const Many& m : {Many{"Pow", powIn, powOut}, Many{"SmoothStep", ssIn, ssOut}}) {
    INFO(m.name);
    const std::string args = std::string("sweep GLSL.std.450:") + m.name + " --type float --inputs '" +
                             glslWrite(dir, "in.bin", m.in).string() + "' ";
    const CliResult ok = runClref(dir, args + "--observed '" + glslWrite(dir, "ok.bin", m.out).string() + "'");
    INFO(ok.out << ok.err);
    CHECK(ok.status == 0);
    CHECK(has(ok.out, "(2000), " + dir.path().string() + "/in.bin, vulkan profile: 0 violations\n"));
    // Pow: the wrong sign; SmoothStep (results in [0, 1]): 0.01 off.
    std::set<uint64_t> planted;
    for (size_t k = 1; k < m.out.size(); k += 53) {
      m.out[k] = std::string(m.name) == "Pow" ? -m.out[k] : m.out[k] + (m.out[k] > 0.5f ? -0.01f : 0.01f);
      planted.insert(k);
    }
    const CliResult bad =
        runClref(dir, args + "--show 1000 --observed '" + glslWrite(dir, "bad.bin", m.out).string() + "'");
    INFO(bad.out.substr(0, 2000));
    CHECK(bad.status == 1);
    CHECK(glslListed(bad.out, m.name) == planted);
  }
}

TEST_CASE("sweep GLSL.std.450: refused instructions and roundings say why, and list the ones swept", "[sweep][glsl]") {
  TempDir dir;
  const std::string out = "--out '" + (dir.path() / "x").string() + "'";
  for (const auto& [name, why] : std::vector<std::pair<std::string, std::string>>{
           {"Determinant", "implementation-defined"},
           {"PackHalf2x16", "packs or unpacks"},
           {"SClamp", "integer instruction"},
           {"Cross", "3-component vectors"},
           {"Frobnicate", "has no instruction Frobnicate"}}) {
    const CliResult r = runClref(dir, "sweep GLSL.std.450:" + name + " --type float " + out);
    INFO(name << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(has(r.err, why));
    CHECK(has(r.err, "SmoothStep, Fma, Ldexp, Length"));
  }
  const CliResult rtp = runClref(dir, "sweep GLSL.std.450:Sqrt --type float --rounding rtp " + out);
  CHECK(rtp.status == 2);
  CHECK(has(rtp.err, "to nearest even (rte) or toward zero (rtz"));
}

TEST_CASE("sweep GLSL.std.450:Sqrt and SmoothStep judge as clref check does a shader calling the instruction",
          "[sweep][glsl]") {
  TempDir dir;
  constexpr uint32_t kFirst = 0x40000000, kCount = 256;
  // Results 0 to 15 ulp from sqrt's correctly rounded value (inherited bound: a few ulp) at inputs [2, 2 + 255 ulp].
  std::vector<float> in(kCount), observed(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    in[i] = std::bit_cast<float>(kFirst + i);
    observed[i] = ulpsAway(mpfrFloat(mpfr_sqrt, in[i]), int(i % 16) * (i % 3 ? 1 : -1));
  }
  glslWrite(dir, "in.bin", in);
  dir.write("sq.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  dst[i] = sqrt(src[i]);
}
)");
  const auto c = dir.write("sq.json", R"({ "module": "sq.comp", "dispatch": [4], "args": [
    { "binding": 0, "buffer": { "type": "float", "count": 256, "init": { "file": "in.bin" } } },
    { "binding": 1, "buffer": { "type": "float", "count": 256, "output": true } } ] })");
  std::string text;
  for (float v : observed) {
    char line[32];
    std::snprintf(line, sizeof line, "%a\n", double(v));
    text += line;
  }
  dir.write("sq.arg1.txt", text);
  const CliResult check = runClref(dir, "check '" + c.string() + "' --show 1000 --observed '" + dir.path().string() + "'");
  INFO(check.out << check.err);
  REQUIRE((check.status == 0 || check.status == 1));
  std::set<uint64_t> byCheck;
  static const std::regex line(R"(\[(\d+)\] violation)");
  for (std::sregex_iterator it(check.out.begin(), check.out.end(), line), end; it != end; ++it)
    byCheck.insert(kFirst + std::stoull((*it)[1]));

  const CliResult sweep = runClref(dir, "sweep GLSL.std.450:Sqrt --type float " + glslRange(kFirst, kCount) +
                                            "--show 1000 --observed '" + glslWrite(dir, "obs.bin", observed).string() +
                                            "'");
  INFO(sweep.out);
  const std::set<uint64_t> bySweep = glslListed(sweep.out, "Sqrt");
  // Both sides of the bound occur: some results off by a few ulp are allowed, the farthest are not.
  CHECK(!bySweep.empty());
  CHECK(bySweep.size() < kCount * 3 / 4);
  CHECK(bySweep == byCheck);
  CHECK(has(check.out, std::to_string(bySweep.size()) + " violation"));
}
