// `clref sweep` (cli/sweep_command.hpp) against results computed here with MPFR at 256 bits and rounded once to
// float, independent of clref's numerics/: correct results are no violation, planted wrong ones are violations at
// exactly their inputs, --out writes the same results, and under mpirun 4 ranks report what one process does.
#include <mpfr.h>
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "clref_run.hpp"

using namespace clref::cli::test;

namespace {

// exp(x) for the floats whose bits are first .. first + count - 1, each rounded to nearest float from 256 bits.
std::vector<float> expReference(uint32_t first, uint32_t count) {
  std::vector<float> out(count);
  mpfr_t x;
  mpfr_init2(x, 256);
  for (uint32_t i = 0; i < count; ++i) {
    mpfr_set_flt(x, std::bit_cast<float>(first + i), MPFR_RNDN);
    mpfr_exp(x, x, MPFR_RNDN);
    out[i] = mpfr_get_flt(x, MPFR_RNDN);
  }
  mpfr_clear(x);
  return out;
}

std::filesystem::path writeFloats(const TempDir& dir, const std::string& name, const std::vector<float>& v) {
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
  return path;
}

constexpr uint32_t kFirst = 0x3f800000, kCount = 1 << 16;  // exp on [1, 1.0078125): results near e, normal floats
const std::string kRange = "--range 0x3f800000:0x3f810000";

#ifdef CLREF_MPIEXEC
// `clref <args>` under `mpirun -np 4`: its exit status and standard output.
CliResult onFourRanks(const TempDir& dir, const std::string& args) {
  const auto out = dir.path() / "ranks.txt";
  // Open MPI's own allocations outlive the program: LeakSanitizer (the sanitized build) would fail the ranks for them.
  const std::string command =
      "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "'" CLREF_MPIEXEC "' --oversubscribe --allow-run-as-root -np 4 '" CLREF_EXE "' " +
      args + " > '" + out.string() + "' 2>/dev/null";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), ""};
}
#endif

}  // namespace

TEST_CASE("sweep: correctly rounded results of exp are no violation, planted wrong ones are violations there",
          "[sweep]") {
  TempDir dir;
  std::vector<float> results = expReference(kFirst, kCount);
  const auto good = writeFloats(dir, "good.bin", results);
  const CliResult ok = runClref(dir, "sweep exp --type float " + kRange + " --observed '" + good.string() + "'");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "inputs 0x3f800000..0x3f80ffff (65536), full profile: 0 violations"));
  // Every correctly rounded result is within half an ulp of the exact value.
  CHECK(has(ok.out, "  (0, 0.5]: 65536\n"));

  // 17 ulp above the correctly rounded result at every 997th input: beyond exp's 3 ulp (OpenCL C 3.0 §7.4
  // [[relative-error-as-ulps]]).
  std::set<uint64_t> planted;
  for (uint32_t i = 0; i < kCount; i += 997) {
    results[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(results[i]) + 17);
    planted.insert(kFirst + i);
  }
  const auto bad = writeFloats(dir, "bad.bin", results);
  const CliResult wrong =
      runClref(dir, "sweep exp --type float " + kRange + " --observed '" + bad.string() + "' --show 1000");
  INFO(wrong.out.substr(0, 3000) << wrong.err);
  CHECK(wrong.status == 1);
  CHECK(has(wrong.out, "full profile: " + std::to_string(planted.size()) + " violations"));
  CHECK(sweepListed(wrong.out, "exp") == planted);
  CHECK(has(wrong.out, "(allowed: <= 3 ulp)"));

  // --out: clref's own results are the reference's, bit for bit.
  const auto mine = dir.path() / "clref.bin";
  const CliResult out = runClref(dir, "sweep exp --type float " + kRange + " --out '" + mine.string() + "'");
  CHECK(out.status == 0);
  CHECK(slurp(mine) == slurp(good));

  // A results file of the wrong size is refused.
  const CliResult size = runClref(dir, "sweep exp --range 0:16 --observed '" + good.string() + "'");
  CHECK(size.status == 2);
}

#ifdef CLREF_MPIEXEC
TEST_CASE("sweep: 4 MPI ranks report what one process does", "[sweep][mpi]") {
  TempDir dir;
  std::vector<float> results = expReference(kFirst, 4 * kCount);
  for (uint32_t i = 0; i < results.size(); i += 4099) results[i] = -results[i];
  const auto bad = writeFloats(dir, "bad.bin", results);
  const std::string args =
      "sweep exp --type float --range 0x3f800000:0x3f840000 --observed '" + bad.string() + "' --show 30";
  const CliResult one = runClref(dir, args);
  REQUIRE(one.status == 1);
  const CliResult ranks = onFourRanks(dir, args);
  CHECK(ranks.status == 1);
  CHECK(ranks.out == one.out);
  CHECK(has(one.out, "64 violations"));
}
#endif

#ifdef CLREF_MPIEXEC
// About 8 minutes on 2 cores (judging an observed float costs a few microseconds): the ctest `sweep_2_24_ranks`,
// labelled slow; the default suite has the 2^18-input range above.
TEST_CASE("sweep: a 2^24-input range, 4 MPI ranks report what one process does", "[.sweep_2_24]") {
  // exp2 over [0.5, 2): 2^24 floats in 256 blocks. The observed results are clref's own (--out) with every 65 537th
  // negated: exp2 is positive there, so exactly those 256 are violations, whoever computes the rest.
  TempDir dir;
  const std::string range = "--range 0x3f000000:0x40000000";
  const auto observed = dir.path() / "exp2.bin";
  REQUIRE(runClref(dir, "sweep exp2 --type float " + range + " --out '" + observed.string() + "'").status == 0);
  REQUIRE(std::filesystem::file_size(observed) == (uint64_t(1) << 24) * 4);
  {
    std::fstream f(observed, std::ios::in | std::ios::out | std::ios::binary);
    for (uint64_t i = 0; i < (uint64_t(1) << 24); i += 65537) {
      float v = 0;
      f.seekg(std::streamoff(i * 4));
      f.read(reinterpret_cast<char*>(&v), 4);
      v = -v;
      f.seekp(std::streamoff(i * 4));
      f.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  const std::string args = "sweep exp2 --type float " + range + " --observed '" + observed.string() + "' --show 300";
  const CliResult one = runClref(dir, args);
  REQUIRE(one.status == 1);
  CHECK(has(one.out, "256 violations"));
  const CliResult ranks = onFourRanks(dir, args);
  CHECK(ranks.status == 1);
  CHECK(ranks.out == one.out);
}
#endif
