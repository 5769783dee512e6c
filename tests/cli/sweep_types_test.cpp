// `clref sweep --type half`, `--type double` and GLSL.std.450 instructions (cli/sweep_command.hpp) against results
// computed here with MPFR, independent of clref's numerics/: half exp over all 2^16 inputs rounded once to binary16,
// double cbrt over a seeded sample rounded once to binary64 from 256 bits, GLSL.std.450 Sin at its absolute bound
// (allowed) and one float beyond it (a violation); under mpirun 1, 2 and 4 ranks report the same.
#include <mpfr.h>
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "clref_run.hpp"

using namespace clref::cli::test;

namespace {

// binary16 bits of a value that is exactly a half (or ±inf, NaN).
uint16_t halfBits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return 0x7e00;
  v = std::fabs(v);
  if (std::isinf(v)) return sign | 0x7c00;
  if (v < 0x1p-14) return sign | uint16_t(v * 0x1p24);  // subnormal (and zero): multiples of 2^-24
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m · 2^e, m in [0.5, 1)
  return sign | uint16_t((e - 1 + 15) << 10) | uint16_t((m * 2 - 1) * 1024);
}
double halfValue(uint16_t h) {
  const double sign = h & 0x8000 ? -1 : 1;
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 31) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

// exp(x) rounded to nearest binary16 (subnormals and overflow included) from 256 bits.
uint16_t expHalf(uint16_t x) {
  mpfr_t y, h;
  mpfr_inits2(256, y, nullptr);
  mpfr_init2(h, 11);
  mpfr_set_d(y, halfValue(x), MPFR_RNDN);
  mpfr_exp(y, y, MPFR_RNDN);
  // binary16: 11 bits, the smallest subnormal 2^-24 = 0.5 · 2^-23, the largest finite value below 2^16.
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-23);
  mpfr_set_emax(16);
  int t = mpfr_set(h, y, MPFR_RNDN);
  t = mpfr_check_range(h, t, MPFR_RNDN);
  mpfr_subnormalize(h, t, MPFR_RNDN);
  const double v = mpfr_get_d(h, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_clears(y, h, nullptr);
  return halfBits(v);
}

// The seeded sample's k-th double (clref sweep --help: the first draw of SplitMix64 seeded with seed + k; the
// generator as golden/README.md "Random streams" states it).
uint64_t sampleBits(uint64_t seed, uint64_t k) {
  uint64_t z = seed + k + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double cbrtDouble(double x) {
  mpfr_t y;
  mpfr_init2(y, 256);
  mpfr_set_d(y, x, MPFR_RNDN);
  mpfr_cbrt(y, y, MPFR_RNDN);
  const double r = mpfr_get_d(y, MPFR_RNDN);
  mpfr_clear(y);
  return r;
}

// sin(x) ± 2^-11 rounded toward the exact value: the float farthest from sin(x) within Vulkan's absolute bound.
float sinAtBound(float x, bool above) {
  mpfr_t y;
  mpfr_init2(y, 256);
  mpfr_set_flt(y, x, MPFR_RNDN);
  mpfr_sin(y, y, MPFR_RNDN);
  if (above)
    mpfr_add_d(y, y, 0x1p-11, MPFR_RNDN);
  else
    mpfr_sub_d(y, y, 0x1p-11, MPFR_RNDN);
  const float r = mpfr_get_flt(y, above ? MPFR_RNDD : MPFR_RNDU);
  mpfr_clear(y);
  return r;
}

template <class T>
std::filesystem::path writeValues(const TempDir& dir, const std::string& name, const std::vector<T>& v) {
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
  return path;
}

// `clref ARGS` under mpirun with `ranks` ranks: its stdout and exit status.
#ifdef CLREF_MPIEXEC
CliResult underMpirun(const TempDir& dir, int ranks, const std::string& args) {
  const auto out = dir.path() / ("ranks" + std::to_string(ranks) + ".txt");
  // Open MPI's own allocations outlive the program: LeakSanitizer (the sanitized build) would fail the ranks for them.
  const std::string command =
      "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "'" CLREF_MPIEXEC "' --oversubscribe --allow-run-as-root -np " +
      std::to_string(ranks) + " '" CLREF_EXE "' " + args + " > '" + out.string() + "' 2>/dev/null";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), ""};
}
#endif

}  // namespace

TEST_CASE("sweep --type half: exp over all 2^16 inputs against MPFR", "[sweep]") {
  TempDir dir;
  std::vector<uint16_t> results(1 << 16);
  for (uint32_t x = 0; x < results.size(); ++x) results[x] = expHalf(uint16_t(x));
  const std::vector<uint16_t> reference = results;
  const auto good = writeValues(dir, "good.bin", results);
  const CliResult ok = runClref(dir, "sweep exp --type half --observed '" + good.string() + "'");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "sweep exp half, inputs 0x0000..0xffff (65536), full profile: 0 violations\n"));

  // 40 ulp above the correctly rounded result at every 331st input whose result is a normal half below 1000: beyond
  // half exp's bound (OpenCL C 3.0 §7.4 [[relative-error-as-ulps]], table "ULP Values for Half-Precision").
  std::set<uint64_t> planted;
  for (uint32_t x = 0; x < results.size(); x += 331) {
    const double r = std::fabs(halfValue(results[x]));
    if (!(r >= 0x1p-14 && r < 1000)) continue;
    results[x] = uint16_t(results[x] + 40);
    planted.insert(x);
  }
  REQUIRE(planted.size() > 50);
  const auto bad = writeValues(dir, "bad.bin", results);
  const CliResult wrong = runClref(dir, "sweep exp --type half --observed '" + bad.string() + "' --show 1000");
  INFO(wrong.out.substr(0, 3000) << wrong.err);
  CHECK(wrong.status == 1);
  CHECK(has(wrong.out, "full profile: " + std::to_string(planted.size()) + " violations"));
  CHECK(sweepListed(wrong.out, "exp") == planted);

  // --out: clref's results are the reference's, bit for bit (a NaN for a NaN).
  const auto mine = dir.path() / "clref.bin";
  const CliResult out = runClref(dir, "sweep exp --type half --out '" + mine.string() + "'");
  REQUIRE(out.status == 0);
  const std::string bytes = slurp(mine);
  REQUIRE(bytes.size() == 2 << 16);
  size_t differ = 0;
  for (uint32_t x = 0; x < (1u << 16); ++x) {
    uint16_t h;
    std::memcpy(&h, bytes.data() + 2 * x, 2);
    const uint16_t want = reference[x];
    const bool bothNan = std::isnan(halfValue(h)) && std::isnan(halfValue(want));
    if (h != want && !bothNan) ++differ;
  }
  CHECK(differ == 0);
}

TEST_CASE("sweep --type double: cbrt over a seeded sample against MPFR at 256 bits", "[sweep]") {
  TempDir dir;
  constexpr uint64_t kSeed = 7, kCount = 3000;
  std::vector<double> results(kCount);
  for (uint64_t k = 0; k < kCount; ++k) results[k] = cbrtDouble(std::bit_cast<double>(sampleBits(kSeed, k)));
  const auto good = writeValues(dir, "good.bin", results);
  const std::string sample = "sweep cbrt --type double --samples 3000 --seed 7 ";
  const CliResult ok = runClref(dir, sample + "--observed '" + good.string() + "'");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "sweep cbrt double, inputs 0..2999 (3000), seeded sample 7, full profile: 0 violations\n"));

  // 9 ulp away at every 97th finite nonzero result: beyond double cbrt's 2 ulp (OpenCL C 3.0 table "ULP Values for
  // Double-Precision Built-in Math Functions").
  std::set<uint64_t> planted;
  for (uint64_t k = 0; k < kCount; k += 97) {
    if (!std::isfinite(results[k]) || results[k] == 0) continue;
    results[k] = std::bit_cast<double>(std::bit_cast<uint64_t>(results[k]) + 9);
    planted.insert(k);
  }
  REQUIRE(planted.size() > 20);
  const auto bad = writeValues(dir, "bad.bin", results);
  const CliResult wrong = runClref(dir, sample + "--observed '" + bad.string() + "' --show 100");
  INFO(wrong.out.substr(0, 3000) << wrong.err);
  CHECK(wrong.status == 1);
  CHECK(sweepListed(wrong.out, "cbrt") == planted);
  CHECK(has(wrong.out, "(allowed: <= 2 ulp)"));

  // --out: clref's correctly rounded results are MPFR's (a NaN for a NaN: its payload is open).
  const auto mine = dir.path() / "clref.bin";
  REQUIRE(runClref(dir, sample + "--out '" + mine.string() + "'").status == 0);
  const std::string bytes = slurp(mine);
  REQUIRE(bytes.size() == kCount * 8);
  size_t differ = 0, nans = 0;
  for (uint64_t k = 0; k < kCount; ++k) {
    double r;
    std::memcpy(&r, bytes.data() + 8 * k, 8);
    const double want = cbrtDouble(std::bit_cast<double>(sampleBits(kSeed, k)));
    nans += std::isnan(want);
    if (std::isnan(r) ? !std::isnan(want) : std::bit_cast<uint64_t>(r) != std::bit_cast<uint64_t>(want)) ++differ;
  }
  CHECK(differ == 0);
  CHECK(nans > 0);  // the sample covers NaN operands too
}

// ilogb (an int result, 4 bytes per input whatever the type) and nan (an unsigned code operand): the host's
// std::ilogb with OpenCL C 3.0 §6.15.2 [[math-functions]] FP_ILOGB0 (INT_MIN or -INT_MAX) and FP_ILOGBNAN (INT_MAX or
// INT_MIN); nan's bits with the code in the significand below the quiet bit (the default choice
// nan_payload=significand), any NaN allowed.
TEST_CASE("sweep ilogb and nan: int results, unsigned codes, FP_ILOGB0 either way, any NaN", "[sweep]") {
  TempDir dir;
  // Around zero (±0, subnormals), 1.0, the largest floats, infinity and the NaNs above it.
  for (const uint32_t first : {0x00000000u, 0x3f7ff000u, 0x7f7ff000u, 0x807ff000u}) {
    constexpr uint32_t kCount = 1 << 13;
    char range[64];
    std::snprintf(range, sizeof range, "--range 0x%08x:0x%08x ", first, first + kCount);
    std::vector<int32_t> want(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
      const float x = std::bit_cast<float>(first + i);
      want[i] = x == 0 ? INT_MIN : std::isnan(x) || std::isinf(x) ? INT_MAX : std::ilogb(x);
    }
    const auto out = dir.path() / "ilogb.out";
    const CliResult r = runClref(dir, std::string("sweep ilogb --type float ") + range + "--out '" + out.string() + "'");
    INFO(first << ": " << r.out << r.err);
    REQUIRE(r.status == 0);
    const std::string bytes = slurp(out);
    REQUIRE(bytes.size() == kCount * 4);
    CHECK(std::memcmp(bytes.data(), want.data(), bytes.size()) == 0);
    // The other allowed FP_ILOGB0 and FP_ILOGBNAN, and a wrong exponent at every 101st input.
    std::set<uint64_t> planted;
    for (uint32_t i = 0; i < kCount; ++i) {
      if (want[i] == INT_MIN) {
        want[i] = -INT_MAX;
      } else if (want[i] == INT_MAX && std::isnan(std::bit_cast<float>(first + i))) {
        want[i] = INT_MIN;
      } else if (i % 101 == 7) {
        want[i] += 1;
        planted.insert(first + i);
      }
    }
    const auto bad = writeValues(dir, "ilogb.bad", want);
    const CliResult judged =
        runClref(dir, std::string("sweep ilogb --type float ") + range + "--show 1000 --observed '" + bad.string() + "'");
    INFO(judged.out.substr(0, 2000));
    CHECK(judged.status == (planted.empty() ? 0 : 1));
    CHECK(sweepListed(judged.out, "ilogb") == planted);
  }
  // nan over 2^12 codes: the bits 0x7fc00000 | (code & 0x3fffff).
  const auto nan = dir.path() / "nan.out";
  REQUIRE(runClref(dir, "sweep nan --type float --range 0x7ffff800:0x80000800 --out '" + nan.string() + "'").status == 0);
  const std::string bits = slurp(nan);
  REQUIRE(bits.size() == 4096 * 4);
  std::vector<uint32_t> codes(4096);
  for (uint32_t k = 0; k < 4096; ++k) {
    uint32_t b = 0;
    std::memcpy(&b, bits.data() + 4 * k, 4);
    CHECK(b == (0x7fc00000u | ((0x7ffff800u + k) & 0x3fffffu)));
    codes[k] = k % 3 ? 0x7fc00000u : 0xffffffffu;  // other NaNs
  }
  codes[100] = 0x3f800000u;  // 1.0: not a NaN
  const auto other = writeValues(dir, "nan.obs", codes);
  const CliResult n =
      runClref(dir, "sweep nan --type float --range 0x7ffff800:0x80000800 --observed '" + other.string() + "'");
  INFO(n.out);
  CHECK(n.status == 1);
  CHECK(sweepListed(n.out, "nan") == std::set<uint64_t>{0x7ffff800u + 100});
  CHECK(has(n.out, "nan(2147481700) = 0x1p+0"));
}

TEST_CASE("sweep GLSL.std.450:Sin: a result at Vulkan's absolute bound is allowed, one float beyond is not",
          "[sweep]") {
  TempDir dir;
  // x in [1, 1 + 4095 ulp]: inside [-pi, pi], where Vulkan's row bounds the absolute error by 2^-11 (Vulkan §A.4.2
  // [external]); alternately just below and just above sin(x).
  constexpr uint32_t kFirst = 0x3f800000, kCount = 4096;
  const std::string args = "sweep GLSL.std.450:Sin --type float --range 0x3f800000:0x3f801000 ";
  std::vector<float> results(kCount);
  for (uint32_t i = 0; i < kCount; ++i) results[i] = sinAtBound(std::bit_cast<float>(kFirst + i), i % 2);
  const auto edge = writeValues(dir, "edge.bin", results);
  const CliResult ok = runClref(dir, args + "--observed '" + edge.string() + "'");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out,
            "sweep GLSL.std.450:Sin float, inputs 0x3f800000..0x3f800fff (4096), vulkan profile: 0 "
            "violations\n"));
  // 2^-11 is 2^13 ulp of a result in [0.5, 1): every result is in the histogram's "> 2^10" class.
  CHECK(has(ok.out, "  > 2^10: 4096\n"));

  // One float further from sin(x) at every 13th input.
  std::set<uint64_t> planted;
  for (uint32_t i = 0; i < kCount; i += 13) {
    results[i] = std::nextafter(results[i], i % 2 ? INFINITY : -INFINITY);
    planted.insert(kFirst + i);
  }
  const auto beyond = writeValues(dir, "beyond.bin", results);
  const CliResult wrong = runClref(dir, args + "--observed '" + beyond.string() + "' --show 1000");
  INFO(wrong.out.substr(0, 3000) << wrong.err);
  CHECK(wrong.status == 1);
  CHECK(has(wrong.out, "vulkan profile: " + std::to_string(planted.size()) + " violations"));
  CHECK(sweepListed(wrong.out, "GLSL\\.std\\.450:Sin") == planted);

  // A matrix instruction is refused with the reason (sweep_glsl_test.cpp: the others).
  const CliResult det =
      runClref(dir, "sweep GLSL.std.450:Determinant --type float --out '" + (dir.path() / "p").string() + "'");
  CHECK(det.status == 2);
  CHECK(has(det.err, "implementation-defined"));
}

#ifdef CLREF_MPIEXEC
TEST_CASE("sweep --type half and double: 1, 2 and 4 MPI ranks report the same", "[sweep][mpi]") {
  TempDir dir;
  // Four blocks of each (2^12 inputs a block), so that 4 ranks each get work.
  std::vector<uint16_t> half(1 << 14);
  for (uint32_t i = 0; i < half.size(); ++i) half[i] = expHalf(uint16_t(0x3000 + i));
  for (uint32_t i = 0; i < half.size(); i += 257) half[i] = uint16_t(half[i] + 40);
  const std::string halfArgs = "sweep exp --type half --range 0x3000:0x7000 --show 100 --observed '" +
                               writeValues(dir, "h.bin", half).string() + "'";
  std::vector<double> dbl(1 << 14);
  for (uint64_t k = 0; k < dbl.size(); ++k) {
    dbl[k] = cbrtDouble(std::bit_cast<double>(sampleBits(1, k)));
    if (k % 501 == 0 && std::isfinite(dbl[k]) && dbl[k] != 0) dbl[k] = -dbl[k];
  }
  const std::string doubleArgs = "sweep cbrt --type double --samples 16384 --show 100 --observed '" +
                                 writeValues(dir, "d.bin", dbl).string() + "'";
  for (const std::string& args : {halfArgs, doubleArgs}) {
    const CliResult one = runClref(dir, args);
    REQUIRE(one.status == 1);
    REQUIRE(has(one.out, " violations\n"));
    for (int ranks : {2, 4}) {
      const CliResult many = underMpirun(dir, ranks, args);
      INFO(args << " on " << ranks << " ranks");
      CHECK(many.status == 1);
      CHECK(many.out == one.out);
    }
  }
}
#endif
