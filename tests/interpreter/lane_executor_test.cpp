// The lane executor (interpreter/lanes.hpp) against today's path (CLREF_LANES=0): the same kernels give the same bits,
// the same choices and the same fault diagnostic on both, and the values a host computation gives. The kernels are
// built -O2 so that their loads and stores absorb their access chains (the Ops with lane forms), and they mix what
// keeps the lanes together (a uniform loop) with what parts them (per-work-item trip counts, an Op without a lane
// form, an access that faults).
#include <catch2/catch.hpp>

#include "compile_cl.hpp"
#include "ndrange.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/lane_stats.hpp"

using namespace clref;
using interpreter::FaultKind;

namespace {

const std::string kLaneSource = R"CL(
#pragma OPENCL FP_CONTRACT OFF
kernel void dot_rows(global const float* a, global const float* b, global float* c, uint n) {
  size_t r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < n; ++k) s += a[r * n + k] * b[k];
  c[r] = s;
}
kernel void ragged(global const float* a, global const int* trips, global float* c, uint n) {
  size_t i = get_global_id(0);
  float s = (float)i;
  for (int k = 0; k < trips[i]; ++k) s = s * 0.5f + a[i + (size_t)k];
  c[i] = s;
}
kernel void mads(global const float* a, global const float* b, global float* c) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 40; ++k) s = mad(a[i], b[k], s);
  c[i] = s;
}
kernel void ordered_mads(global const float* a, global const float* b, global float* c) {
  size_t i = get_global_id(0);
  float x = mad(a[i], a[i], -1.0f);
  float y = mad(b[i], b[i], -1.0f);  // @later_mad
  c[i] = x + y;
}
kernel void two_stores(global int* a, global int* b, global const int* ia, global const int* ib) {
  size_t i = get_global_id(0);
  a[ia[i]] = 1;
  b[ib[i]] = 2;  // @second
}
)CL";

std::shared_ptr<host::Program> laneProgram(unsigned threads) {
  static const std::vector<uint32_t> words = test::compileCL(kLaneSource, "-O2 -g", "1.1", 64, "lanes.cl");
  host::DeviceConfig cfg;
  cfg.threads = threads;
  return host::Program::fromSpirv(host::Device(cfg), words);
}

// Runs `run` on the lane executor and on today's path (CLREF_LANES=0).
template <class F> auto onBothPaths(F&& run) {
  ::unsetenv("CLREF_LANES");
  auto lanes = run();
  ::setenv("CLREF_LANES", "0", 1);
  auto alone = run();
  ::unsetenv("CLREF_LANES");
  return std::make_pair(std::move(lanes), std::move(alone));
}

std::vector<float> floats(size_t n, float scale, int mod) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i % size_t(mod)) - mod / 2) * scale;
  return v;
}

struct Outcome {
  host::RunResult result;
  std::vector<uint8_t> bytes;
};

// Kernel "mads" of kLaneSource over a and b, in work-groups of `local`: the result and c's bytes.
Outcome runMads(std::shared_ptr<host::Program> program, const std::vector<float>& a, const std::vector<float>& b,
                size_t local) {
  host::Kernel k(program, "mads");
  auto ba = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
  auto bb = std::make_shared<host::Buffer>(b.data(), b.size() * 4);
  auto bc = std::make_shared<host::Buffer>(a.size() * 4);
  k.setArg(0, ba);
  k.setArg(1, bb);
  k.setArg(2, bc);
  Outcome o{k.run(test::range1(a.size(), local)), {}};
  o.bytes.assign(bc->as<uint8_t>().data(), bc->as<uint8_t>().data() + a.size() * 4);
  return o;
}

}  // namespace

TEST_CASE("lane executor: a uniform loop gives the host's values on both paths", "[lanes]") {
  const uint32_t n = 96;
  const auto a = floats(size_t(n) * n, 0.37f, 23), b = floats(n, 1.13f, 11);
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      auto program = laneProgram(threads);
      host::Kernel k(program, "dot_rows");
      auto ba = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
      auto bb = std::make_shared<host::Buffer>(b.data(), b.size() * 4);
      auto bc = std::make_shared<host::Buffer>(size_t(n) * 4);
      k.setArg(0, ba);
      k.setArg(1, bb);
      k.setArg(2, bc);
      k.setArgValue(3, &n, sizeof n);
      Outcome o{k.run(test::range1(n, 32)), {}};
      o.bytes.assign(bc->as<uint8_t>().data(), bc->as<uint8_t>().data() + size_t(n) * 4);
      return o;
    });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.bytes == alone.bytes);
    for (uint32_t r = 0; r < n; ++r) {
      float s = 0.0f;
      for (uint32_t k = 0; k < n; ++k) {
        const float p = a[size_t(r) * n + k] * b[k];
        s = s + p;
      }
      float got;
      std::memcpy(&got, lanes.bytes.data() + size_t(r) * 4, 4);
      INFO("row " << r);
      REQUIRE(std::memcmp(&got, &s, 4) == 0);
    }
  }
}

TEST_CASE("lane executor: work-items that part and meet again give the host's values", "[lanes]") {
  const uint32_t n = 200;
  const auto a = floats(n + 310, 0.75f, 9);
  std::vector<int32_t> trips(n);
  for (uint32_t i = 0; i < n; ++i) trips[i] = i % 7 == 3 ? 300 + int32_t(i % 5) : 20;  // a few run long, alone
  auto [lanes, alone] = onBothPaths([&] {
    auto program = laneProgram(0);
    host::Kernel k(program, "ragged");
    auto ba = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
    auto bt = std::make_shared<host::Buffer>(trips.data(), trips.size() * 4);
    auto bc = std::make_shared<host::Buffer>(size_t(n) * 4);
    k.setArg(0, ba);
    k.setArg(1, bt);
    k.setArg(2, bc);
    k.setArgValue(3, &n, sizeof n);
    Outcome o{k.run(test::range1(n, 40)), {}};
    o.bytes.assign(bc->as<uint8_t>().data(), bc->as<uint8_t>().data() + size_t(n) * 4);
    return o;
  });
  REQUIRE(lanes.result.ok);
  REQUIRE(alone.result.ok);
  CHECK(lanes.bytes == alone.bytes);
  for (uint32_t i = 0; i < n; ++i) {
    float s = float(i);
    for (int k = 0; k < trips[i]; ++k) {
      const float h = s * 0.5f;
      s = h + a[i + uint32_t(k)];
    }
    float got;
    std::memcpy(&got, lanes.bytes.data() + size_t(i) * 4, 4);
    INFO("work-item " << i);
    REQUIRE(std::memcmp(&got, &s, 4) == 0);
  }
}

TEST_CASE("lane executor: the choice mad is first decided by the same work-item on both paths", "[lanes]") {
  // a·b is inexact for most pairs here, so mad's fused and unfused results differ from some work-item on.
  const size_t n = 64;
  std::vector<float> a(n, 1.0f), b(40);
  for (size_t i = 0; i < 40; ++i) b[i] = 1.0f + float(i) / 3.0f;
  for (size_t i = 5; i < n; ++i) a[i] = 1.0f / float(i + 1);  // work-items 0..4: exact products
  auto [lanes, alone] = onBothPaths([&] { return runMads(laneProgram(1), a, b, 16); });
  REQUIRE(lanes.result.ok);
  REQUIRE(alone.result.ok);
  CHECK(lanes.bytes == alone.bytes);
  REQUIRE(lanes.result.choicesUsed.size() == alone.result.choicesUsed.size());
  bool sawMad = false;
  for (size_t c = 0; c < lanes.result.choicesUsed.size(); ++c) {
    const auto &x = lanes.result.choicesUsed[c], &y = alone.result.choicesUsed[c];
    CHECK(x.count == y.count);
    if (!x.count) continue;
    CHECK(x.first.globalId == y.first.globalId);
    CHECK(x.first.instruction == y.first.instruction);
    sawMad = sawMad || x.first.message.find("mad") != std::string::npos;
  }
  CHECK(sawMad);
}

TEST_CASE("lane executor: a lower work-item's later decision of mad is the first, as one by one", "[lanes]") {
  // (1 + 2^-12)² - 1 is 2^-11 + 2^-24 fused and 2^-11 unfused (the product's last bit is a tie to even): work-item 5
  // decides mad at the first mad, work-item 2 only at the second. One by one, work-item 2 runs first and decides
  // first; on lanes, the first mad runs for every lane before the second, and the lowest lane's decision is kept.
  const size_t n = 64;
  const float odd = 1.0f + std::ldexp(1.0f, -12);
  std::vector<float> a(n, 1.0f), b(n, 1.0f);
  a[5] = odd;
  b[2] = odd;
  REQUIRE(std::fma(odd, odd, -1.0f) != odd * odd - 1.0f);
  auto run = [&] {
    host::Kernel k(laneProgram(1), "ordered_mads");
    auto ba = std::make_shared<host::Buffer>(a.data(), n * 4), bb = std::make_shared<host::Buffer>(b.data(), n * 4);
    auto bc = std::make_shared<host::Buffer>(n * 4);
    k.setArg(0, ba);
    k.setArg(1, bb);
    k.setArg(2, bc);
    const interpreter::LaneStats before = interpreter::laneStats();
    Outcome o{k.run(test::range1(n, 64)), {}};
    o.bytes.assign(bc->as<uint8_t>().data(), bc->as<uint8_t>().data() + n * 4);
    return std::make_pair(o, interpreter::laneStats().returned - before.returned);
  };
  auto [lanes, alone] = onBothPaths(run);
  CHECK(lanes.first.bytes == alone.first.bytes);
  CHECK(lanes.second > 0);  // the lanes ran the work-items whole
  unsigned laterMadLine = 0, line = 0;
  std::istringstream in(kLaneSource);
  for (std::string text; std::getline(in, text) && !laterMadLine;)
    if (++line, text.find("@later_mad") != std::string::npos) laterMadLine = line;
  for (const auto* o : {&lanes.first, &alone.first}) {
    const auto& used = o->result.choicesUsed;
    auto mad = std::find_if(used.begin(), used.end(), [](const auto& u) { return u.choice == numerics::Choice::Mad; });
    REQUIRE(mad != used.end());
    CHECK(mad->count == 2);
    CHECK(mad->first.globalId[0] == 2);
    CHECK_THAT(mad->first.source, Catch::Matchers::EndsWith("/lanes.cl:" + std::to_string(laterMadLine)));
  }
}

TEST_CASE("lane executor: mad on lanes gives the host's fused and unfused values", "[lanes]") {
  // On a CPU with FMA3 mad's lane form runs the fma instruction itself (ops_extinst.cpp madLanesFma): both choices
  // against the host's std::fma (glibc's exact fmaf) and its product rounded then added, on inputs where they differ.
  const size_t n = 256;
  std::vector<float> a(n), b(40);
  for (size_t i = 0; i < n; ++i) a[i] = 1.0f / float(i + 3);
  for (size_t i = 0; i < 40; ++i) b[i] = 1.0f + float(i) / 3.0f;
  for (const char* option : {"mad=fused", "mad=unfused"}) {
    INFO(option);
    auto [lanes, alone] = onBothPaths([&] {
      host::DeviceConfig cfg;
      cfg.threads = 2;
      cfg.choices.set(option);
      static const std::vector<uint32_t> words = test::compileCL(kLaneSource, "-O2 -g", "1.1", 64, "lanes.cl");
      return runMads(host::Program::fromSpirv(host::Device(cfg), words), a, b, 64);
    });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.bytes == alone.bytes);
    const bool fused = std::string(option) == "mad=fused";
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) {
      float f = 0.0f, u = 0.0f;
      for (size_t k = 0; k < 40; ++k) {
        const float product = a[i] * b[k];
        differ += std::fma(a[i], b[k], u) != product + u;
        f = std::fma(a[i], b[k], f);
        u = product + u;
      }
      const float expected = fused ? f : u;
      float got;
      std::memcpy(&got, lanes.bytes.data() + i * 4, 4);
      INFO("work-item " << i);
      REQUIRE(std::memcmp(&got, &expected, 4) == 0);
    }
    CHECK(differ > n);  // the choice decides most values here
  }
}

TEST_CASE("lane executor: a fault names the same work-item, instruction and line on both paths", "[lanes]") {
  // Work-item 5 faults at the first store and work-item 2 at the second. Alone, work-item 2 runs (and faults) before
  // work-item 5 starts: the fault reported is work-item 2's, at the second store.
  const size_t n = 16;
  std::vector<int32_t> ia(n), ib(n);
  for (size_t i = 0; i < n; ++i) ia[i] = ib[i] = int32_t(i);
  ia[5] = 1000;
  ib[2] = 1000;
  unsigned secondLine = 0, line = 0;  // the 1-based source line marked @second
  std::istringstream in(kLaneSource);
  for (std::string text; std::getline(in, text) && !secondLine;)
    if (++line, text.find("@second") != std::string::npos) secondLine = line;
  REQUIRE(secondLine > 0);
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      auto program = laneProgram(threads);
      host::Kernel k(program, "two_stores");
      auto a = std::make_shared<host::Buffer>(n * 4);
      auto b = std::make_shared<host::Buffer>(n * 4);
      auto bia = std::make_shared<host::Buffer>(ia.data(), n * 4);
      auto bib = std::make_shared<host::Buffer>(ib.data(), n * 4);
      k.setArg(0, a);
      k.setArg(1, b);
      k.setArg(2, bia);
      k.setArg(3, bib);
      return k.run(test::range1(n, n));
    });
    REQUIRE(lanes.fault.has_value());
    REQUIRE(alone.fault.has_value());
    CHECK(lanes.fault->kind == FaultKind::OutOfBounds);
    CHECK(lanes.fault->globalId == std::array<uint64_t, 3>{2, 0, 0});
    CHECK(lanes.fault->source.find("lanes.cl:" + std::to_string(secondLine)) != std::string::npos);
    CHECK(lanes.fault->kind == alone.fault->kind);
    CHECK(lanes.fault->globalId == alone.fault->globalId);
    CHECK(lanes.fault->instruction == alone.fault->instruction);
    CHECK(lanes.fault->source == alone.fault->source);
    CHECK(lanes.fault->message == alone.fault->message);
  }
}

namespace {

// Kernels whose lanes part at branches: into a first and a second range of lanes (lid < 10), which go on as views of
// the batch and meet again after the branch, or otherwise (the parity), which sends each lane on alone.
const std::string kPartSource = R"CL(
kernel void mixed(global const int* in, global int* out) {
  size_t lid = get_local_id(0);
  int v = in[get_global_id(0)];
  if (lid < 10) v = v * 3 + 1; else v = v - 7;
  for (int k = 0; k < 4; ++k) v = v * 5 + k;
  if (lid & 1) v ^= 0x55;
  for (int k = 0; k < (int)(lid % 5); ++k) v = v * 5 + k;
  out[get_global_id(0)] = v;
}
kernel void fault_parted(global int* a, global int* b, global const int* ia, global const int* ib) {
  size_t lid = get_local_id(0);
  if (lid < 8) a[ia[lid]] = 1;
  b[ib[lid]] = 2;  // @after
}
)CL";

std::shared_ptr<host::Program> partProgram(unsigned threads) {
  static const std::vector<uint32_t> words = test::compileCL(kPartSource, "-O2 -gline-tables-only", "1.2", 64, "part.cl");
  host::DeviceConfig cfg;
  cfg.threads = threads;
  return host::Program::fromSpirv(host::Device(cfg), words);
}

}  // namespace

TEST_CASE("lane executor: lanes that part at branches and meet again give the host's values", "[lanes]") {
  const size_t local = 24, n = local * 5;
  std::vector<int32_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = int32_t(i * 613 % 401) - 200;
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      auto program = partProgram(threads);
      host::Kernel k(program, "mixed");
      auto bin = std::make_shared<host::Buffer>(in.data(), n * 4);
      auto bout = std::make_shared<host::Buffer>(n * 4);
      k.setArg(0, bin);
      k.setArg(1, bout);
      Outcome o{k.run(test::range1(n, local)), {}};
      o.bytes.assign(bout->as<uint8_t>().data(), bout->as<uint8_t>().data() + n * 4);
      return o;
    });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.bytes == alone.bytes);
    for (size_t g = 0; g < n; ++g) {
      const size_t lid = g % local;
      uint32_t v = uint32_t(in[g]);  // the values stay within int: unsigned gives the same bits
      v = lid < 10 ? v * 3u + 1u : v - 7u;
      for (uint32_t k = 0; k < 4; ++k) v = v * 5u + k;
      if (lid & 1) v ^= 0x55u;
      for (uint32_t k = 0; k < lid % 5; ++k) v = v * 5u + k;
      uint32_t got;
      std::memcpy(&got, lanes.bytes.data() + g * 4, 4);
      INFO("work-item " << g);
      CHECK(got == v);
    }
  }
}

TEST_CASE("lane executor: a fault after lanes parted names the same work-item and line on both paths", "[lanes]") {
  // Work-item 5 faults in the branch (lanes 0..7 take it) and work-item 2 after it: alone, work-item 2 runs past the
  // branch (and faults) before work-item 5 runs.
  const size_t n = 16;
  std::vector<int32_t> ia(n), ib(n);
  for (size_t i = 0; i < n; ++i) ia[i] = ib[i] = int32_t(i);
  ia[5] = 1000;
  ib[2] = 1000;
  unsigned afterLine = 0, line = 0;
  std::istringstream in(kPartSource);
  for (std::string text; std::getline(in, text) && !afterLine;)
    if (++line, text.find("@after") != std::string::npos) afterLine = line;
  REQUIRE(afterLine > 0);
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      auto program = partProgram(threads);
      host::Kernel k(program, "fault_parted");
      auto a = std::make_shared<host::Buffer>(n * 4);
      auto b = std::make_shared<host::Buffer>(n * 4);
      auto bia = std::make_shared<host::Buffer>(ia.data(), n * 4);
      auto bib = std::make_shared<host::Buffer>(ib.data(), n * 4);
      k.setArg(0, a);
      k.setArg(1, b);
      k.setArg(2, bia);
      k.setArg(3, bib);
      return k.run(test::range1(n, n));
    });
    REQUIRE(lanes.fault.has_value());
    REQUIRE(alone.fault.has_value());
    CHECK(lanes.fault->kind == FaultKind::OutOfBounds);
    CHECK(lanes.fault->globalId == std::array<uint64_t, 3>{2, 0, 0});
    CHECK(lanes.fault->source.find("part.cl:" + std::to_string(afterLine)) != std::string::npos);
    CHECK(lanes.fault->instruction == alone.fault->instruction);
    CHECK(lanes.fault->globalId == alone.fault->globalId);
    CHECK(lanes.fault->message == alone.fault->message);
  }
}

namespace {

// Barrier kernels on lanes (a whole work-group between barriers) and racy kernels: a tree reduction with its barriers,
// the same reduction without the barrier in its loop (lanes 0..s-1 read what lanes s..2s-1 write in the same interval),
// and a kernel without barriers whose work-items of one batch write and read the same global int.
const std::string kBarrierSource = R"CL(
kernel void tree_sum(global const int* in, global int* out, local int* tmp) {
  int lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
kernel void racy_sum(global const int* in, global int* out, local int* tmp) {
  int lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
kernel void racy_global(global int* cell, global int* out) {
  size_t i = get_global_id(0);
  int seen = cell[0];
  cell[0] = seen * 3 + (int)i;
  out[i] = seen;
}
)CL";

std::shared_ptr<host::Program> barrierProgram(unsigned threads) {
  static const std::vector<uint32_t> words = test::compileCL(kBarrierSource, "-O2", "1.2", 64, "barrier.cl");
  host::DeviceConfig cfg;
  cfg.threads = threads;
  return host::Program::fromSpirv(host::Device(cfg), words);
}

// Runs a reduction kernel over `groups` work-groups of `local` ints on both paths: the group sums of each, and the
// lane executor's counts of the run on lanes.
struct Sums {
  host::RunResult result;
  std::vector<int32_t> sums;
  interpreter::LaneStats stats;
};
Sums runSums(const char* name, const std::vector<int32_t>& in, size_t local, unsigned threads) {
  const interpreter::LaneStats before = interpreter::laneStats();
  auto k = host::Kernel(barrierProgram(threads), name);
  auto bin = std::make_shared<host::Buffer>(in.data(), in.size() * 4);
  auto bout = std::make_shared<host::Buffer>(in.size() / local * 4);
  k.setArg(0, bin);
  k.setArg(1, bout);
  k.setArgLocal(2, local * 4);
  Sums s{k.run(test::range1(in.size(), local)), {}, {}};
  s.sums.assign(bout->as<int32_t>().data(), bout->as<int32_t>().data() + in.size() / local);
  const interpreter::LaneStats after = interpreter::laneStats();
  s.stats.spans = after.spans - before.spans;
  s.stats.barrierIntervals = after.barrierIntervals - before.barrierIntervals;
  s.stats.undone = after.undone - before.undone;
  return s;
}

}  // namespace

TEST_CASE("lane executor: a tree reduction with barriers runs its intervals on lanes", "[lanes][barrier]") {
  const size_t local = 64, groups = 6;
  std::vector<int32_t> in(local * groups);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 7919 % 1009) - 504;
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] { return runSums("tree_sum", in, local, threads); });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.sums == alone.sums);
    for (size_t g = 0; g < groups; ++g) {
      int32_t want = 0;
      for (size_t i = 0; i < local; ++i) want += in[g * local + i];
      CHECK(lanes.sums[g] == want);
    }
    // Each group: the interval before the loop and one per halving (6 for 64 work-items), all on lanes, none undone.
    CHECK(lanes.stats.barrierIntervals == groups * 7);
    CHECK(lanes.stats.undone == 0);
    CHECK(alone.stats.spans == 0);
  }
}

TEST_CASE("lane executor: a racy reduction computes what it computes one by one", "[lanes][barrier]") {
  // Without the loop's barrier, one by one: work-item 0 adds tmp[32], tmp[16], … before the others updated them; in
  // lockstep it would read their sums. The span is undone and runs one by one.
  const size_t local = 64, groups = 3;
  std::vector<int32_t> in(local * groups);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i + 1);
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] { return runSums("racy_sum", in, local, threads); });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.sums == alone.sums);
    CHECK(lanes.stats.undone >= 1);
    // One by one, work-item 0 finishes its loop first: tmp[0] = in[0] + in[32] + in[16] + in[8] + in[4] + in[2] + in[1]
    // of its group, as the work-items after it have not run their loops yet.
    for (size_t g = 0; g < groups; ++g) {
      const int32_t* x = in.data() + g * local;
      CHECK(lanes.sums[g] == x[0] + x[32] + x[16] + x[8] + x[4] + x[2] + x[1]);
    }
  }
}

TEST_CASE("lane executor: work-items of a batch racing on one global int compute what they compute one by one",
          "[lanes]") {
  const size_t n = 48;
  for (unsigned threads : {1u, 2u}) {
    const interpreter::LaneStats before = interpreter::laneStats();
    auto [lanes, alone] = onBothPaths([&] {
      auto k = host::Kernel(barrierProgram(threads), "racy_global");
      const int32_t start = 5;
      auto cell = std::make_shared<host::Buffer>(&start, 4);
      auto out = std::make_shared<host::Buffer>(n * 4);
      k.setArg(0, cell);
      k.setArg(1, out);
      Outcome o{k.run(test::range1(n, n)), {}};
      o.bytes.assign(out->as<uint8_t>().data(), out->as<uint8_t>().data() + n * 4);
      o.bytes.insert(o.bytes.end(), cell->as<uint8_t>().data(), cell->as<uint8_t>().data() + 4);
      return o;
    });
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.bytes == alone.bytes);
    CHECK(interpreter::laneStats().undone > before.undone);
    // One by one, in work-item order: each reads what the one before it wrote.
    uint32_t cellValue = 5;
    for (size_t i = 0; i < n; ++i) {
      int32_t got;
      std::memcpy(&got, lanes.bytes.data() + i * 4, 4);
      INFO("work-item " << i);
      CHECK(uint32_t(got) == cellValue);
      cellValue = cellValue * 3u + uint32_t(i);
    }
  }
}

namespace {

const std::string kImageLaneSource = R"CL(
#pragma OPENCL FP_CONTRACT OFF
constant sampler_t kLinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void halve(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_image_width(src), h = get_image_height(src);
  float4 sum = read_imagef(src, (int2)(clamp(x + 1, 0, w - 1), y)) + read_imagef(src, (int2)(x, clamp(y - 1, 0, h - 1)));
  write_imagef(dst, (int2)(x, y), sum * 0.25f);
}
kernel void shift(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float w = (float)get_image_width(src), h = (float)get_image_height(src);
  write_imagef(dst, (int2)(x, y), read_imagef(src, kLinear, (float2)(((float)x + 0.75f) / w, ((float)y + 0.5f) / h)));
}
kernel void with_scratch(read_only image2d_t src, local float4* scratch, global float4* out) {
  const int x = get_global_id(0);
  scratch[get_local_id(0)] = read_imagef(src, (int2)(x, 0));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[x] = scratch[get_local_id(0)];
}
kernel void chain(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0);
  const float4 c = read_imagef(src, (int2)(clamp(x - 1, 0, 1 << 20), 0));
  write_imagef(dst, (int2)(x, 0), c + (float4)(1.0f / 255.0f));
}
)CL";

std::shared_ptr<host::Image> rgba8(size_t width, size_t height, std::shared_ptr<host::Buffer> over = nullptr) {
  images::ImageDesc d;
  d.type = images::ImageType::Image2D;
  d.format = {images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  d.width = width;
  d.height = height;
  if (over) {
    d.rowPitch = width * 4;
    return host::Image::fromBuffer(over, d);
  }
  return std::make_shared<host::Image>(d);
}

host::NDRange range2(size_t w, size_t h, size_t lw, size_t lh) {
  host::NDRange r;
  r.dims = 2;
  r.global = {w, h, 1};
  r.local = std::array<size_t, 3>{lw, lh, 1};
  return r;
}

// write_imagef's stored byte for CL_UNORM_INT8, convert_uchar_sat_rte(f * 255.0f) in the host's binary32 arithmetic
// (OpenCL C 3.0 §8.3.1.3 [[converting-floating-point-values-to-normalized-integer-channel-data-types]]).
uint8_t toUnorm8(float f) { return uint8_t(std::clamp(std::nearbyint(f * 255.0f), 0.0f, 255.0f)); }

std::shared_ptr<host::Program> imageLaneProgram() {
  static const std::vector<uint32_t> words = test::compileCL(kImageLaneSource, "-O2", "1.2", 64, "image_lanes.cl");
  host::DeviceConfig cfg;
  cfg.threads = 2;
  return host::Program::fromSpirv(host::Device(cfg), words);
}

}  // namespace

TEST_CASE("lane executor: image reads, sampled reads and writes give the host's values on both paths",
          "[lanes][image]") {
  const size_t w = 48, h = 20;
  std::vector<uint8_t> in(w * h * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t((i * 37 + i / 5) % 256);
  for (const char* kernel : {"halve", "shift"}) {
    INFO(kernel);
    const interpreter::LaneStats before = interpreter::laneStats();
    auto [lanes, alone] = onBothPaths([&] {
      host::Kernel k(imageLaneProgram(), kernel);
      auto src = rgba8(w, h), dst = rgba8(w, h);
      src->write({0, 0, 0}, {w, h, 1}, in.data());
      k.setArg(0, src);
      k.setArg(1, dst);
      Outcome o{k.run(range2(w, h, 16, 4)), std::vector<uint8_t>(w * h * 4)};
      dst->read({0, 0, 0}, {w, h, 1}, o.bytes.data());
      return o;
    });
    CHECK(interpreter::laneStats().spans > before.spans);
    REQUIRE(lanes.result.ok);
    REQUIRE(alone.result.ok);
    CHECK(lanes.result.warnings.empty());
    CHECK(lanes.bytes == alone.bytes);
    if (std::string(kernel) != "halve") continue;
    // The sampler-less reads: each byte's correctly rounded c / 255, summed and scaled in binary32, written back.
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x)
        for (size_t c = 0; c < 4; ++c) {
          const size_t right = std::min(x + 1, w - 1), up = y == 0 ? 0 : y - 1;
          const float sum = float(in[(y * w + right) * 4 + c]) / 255.0f + float(in[(up * w + x) * 4 + c]) / 255.0f;
          INFO("x " << x << " y " << y << " channel " << c);
          REQUIRE(int(lanes.bytes[(y * w + x) * 4 + c]) == int(toUnorm8(sum * 0.25f)));
        }
  }
}

TEST_CASE("lane executor: an image that shares a buffer's memory with another races as a buffer does",
          "[lanes][image]") {
  // src and dst view the same bytes: work-item x reads the texel work-item x - 1 wrote. One by one (one work-group, in
  // slot order) each reads its predecessor's new value; lanes that read before any writes would read the old one, so
  // the span must be undone (the texels are in the LaneLog) and run one by one.
  const size_t n = 64;
  const interpreter::LaneStats before = interpreter::laneStats();
  auto [lanes, alone] = onBothPaths([&] {
    host::Kernel k(imageLaneProgram(), "chain");
    auto memory = std::make_shared<host::Buffer>(n * 4);
    std::memset(memory->as<uint8_t>().data(), 10, n * 4);
    k.setArg(0, rgba8(n, 1, memory));
    k.setArg(1, rgba8(n, 1, memory));
    Outcome o{k.run(range2(n, 1, n, 1)), {}};
    o.bytes.assign(memory->as<uint8_t>().data(), memory->as<uint8_t>().data() + n * 4);
    return o;
  });
  CHECK(interpreter::laneStats().undone > before.undone);
  REQUIRE(lanes.result.ok);
  REQUIRE(alone.result.ok);
  CHECK(lanes.bytes == alone.bytes);
  uint8_t previous = 10;  // work-item 0 reads its own texel, then each its predecessor's
  for (size_t x = 0; x < n; ++x) {
    const uint8_t expected = toUnorm8(float(previous) / 255.0f + 1.0f / 255.0f);
    INFO("texel " << x);
    for (size_t c = 0; c < 4; ++c) REQUIRE(int(lanes.bytes[x * 4 + c]) == int(expected));
    previous = expected;
  }
}

namespace {

// Accesses of consecutive work-items to consecutive elements (the log's dense entries, lanes.hpp): in place, shifted by
// one element (a race between neighbours), and against a gather of the same buffer.
const std::string kDenseSource = R"CL(
kernel void in_place(global int* a) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 3 + 1;
}
kernel void shift_up(global int* a) {
  size_t i = get_global_id(0);
  a[i + 1] = a[i] + 1;
}
kernel void guarded(global int* a, uint lo, uint hi) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  if (l >= lo && i < hi) return;  // OpSelect %bool, then an OpSelect %uint
  a[i] = (a[i] & 1) ? a[i] * 2 : -a[i];
}
kernel void far(global int* a, ulong offset) {
  size_t i = get_global_id(0);
  a[i + offset] = 1;
}
kernel void gather_into(global int* c, global const int* from) {
  size_t i = get_global_id(0);
  c[i] = c[from[i]] + 1;
}
)CL";

std::shared_ptr<host::Program> denseProgram() {
  static const std::vector<uint32_t> words = test::compileCL(kDenseSource, "-O2", "1.2", 64, "dense.cl");
  host::DeviceConfig cfg;
  cfg.threads = 2;
  return host::Program::fromSpirv(host::Device(cfg), words);
}

// Kernel `name` over `a` (and `from`, when not empty) with n work-items in groups of `local`: a's bytes after, and the
// spans the lane executor undid.
std::pair<std::vector<int32_t>, uint64_t> runDense(const char* name, std::vector<int32_t> a, size_t n, size_t local,
                                                   const std::vector<int32_t>& from = {}) {
  const uint64_t before = interpreter::laneStats().undone;
  host::Kernel k(denseProgram(), name);
  auto ba = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
  k.setArg(0, ba);
  std::shared_ptr<host::Buffer> bf;
  if (!from.empty()) {
    bf = std::make_shared<host::Buffer>(from.data(), from.size() * 4);
    k.setArg(1, bf);
  }
  REQUIRE(k.run(test::range1(n, local)).ok);
  std::memcpy(a.data(), ba->as<uint8_t>().data(), a.size() * 4);
  return {a, interpreter::laneStats().undone - before};
}

}  // namespace

TEST_CASE("lane executor: consecutive elements in place run on lanes, shifted ones race as one by one", "[lanes]") {
  const size_t n = 256, local = 128;
  std::vector<int32_t> a(n + 1);
  for (size_t i = 0; i < a.size(); ++i) a[i] = int32_t(i * 37 % 101) - 50;
  SECTION("in place: each work-item its own element, nothing undone") {
    auto [lanes, alone] = onBothPaths([&] { return runDense("in_place", a, n, local); });
    CHECK(lanes.first == alone.first);
    CHECK(lanes.second == 0);
    for (size_t i = 0; i < n; ++i) CHECK(lanes.first[i] == a[i] * 3 + 1);
    CHECK(lanes.first[n] == a[n]);
  }
  SECTION("shifted: one by one, each work-item reads what the one before it wrote") {
    // One work-group: work-groups on two threads would race on their border element.
    auto [lanes, alone] = onBothPaths([&] { return runDense("shift_up", a, n, n); });
    CHECK(lanes.first == alone.first);
    CHECK(lanes.second >= 1);
    for (size_t i = 0; i < n; ++i) {
      INFO("element " << i + 1);
      CHECK(lanes.first[i + 1] == a[0] + int32_t(i + 1));
    }
  }
  SECTION("gathered from the buffer being written: one by one") {
    std::vector<int32_t> from(n);
    for (size_t i = 0; i < n; ++i) from[i] = int32_t((i * 7 + 3) % n);
    auto [lanes, alone] = onBothPaths([&] { return runDense("gather_into", a, n, n, from); });
    CHECK(lanes.first == alone.first);
    CHECK(lanes.second >= 1);
    std::vector<int32_t> want = a;
    for (size_t i = 0; i < n; ++i) want[i] = want[size_t(from[i])] + 1;
    CHECK(lanes.first == want);
  }
}

TEST_CASE("lane executor: selects of bools and of ints give the host's values on both paths", "[lanes]") {
  const size_t n = 256;
  const uint32_t lo = 50, hi = 200;  // local ids [0, 50) and global ids from 200 run on
  std::vector<int32_t> a(n);
  for (size_t i = 0; i < n; ++i) a[i] = int32_t(i * 37 % 101) - 50;
  auto run = [&] {
    const uint64_t spans = interpreter::laneStats().spans;
    host::Kernel k(denseProgram(), "guarded");
    auto ba = std::make_shared<host::Buffer>(a.data(), n * 4);
    k.setArg(0, ba);
    k.setArg(1, lo);
    k.setArg(2, hi);
    REQUIRE(k.run(test::range1(n, 64)).ok);
    std::vector<int32_t> out(n);
    std::memcpy(out.data(), ba->as<uint8_t>().data(), n * 4);
    return std::make_pair(out, interpreter::laneStats().spans - spans);
  };
  auto [lanes, alone] = onBothPaths(run);
  CHECK(lanes.first == alone.first);
  CHECK(lanes.second > 0);
  CHECK(alone.second == 0);
  for (size_t i = 0; i < n; ++i) {
    INFO("element " << i);
    CHECK(lanes.first[i] == (i % 64 >= lo && i < hi ? a[i] : (a[i] & 1) ? a[i] * 2 : -a[i]));
  }
}

TEST_CASE("lane executor: a fault in a later batch of a later work-group names its own work-item", "[lanes]") {
  // Batches of 64 slots restart as rows whose work-items' ids are written only when something reads them: the
  // diagnostic must name the work-item that faults, on both paths. in_place over a buffer of 386 ints: work-item 386,
  // in group 1's third batch (work-items 384..447), is the first out of bounds.
  const size_t n = 512, local = 256, size = 386;
  std::vector<int32_t> a(size, 7);
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      host::DeviceConfig cfg;
      cfg.threads = threads;
      host::Kernel k(host::Program::fromSpirv(host::Device(cfg), denseProgram()->spirv()), "in_place");
      auto ba = std::make_shared<host::Buffer>(a.data(), size * 4);
      k.setArg(0, ba);
      return k.run(test::range1(n, local));
    });
    REQUIRE(lanes.fault.has_value());
    REQUIRE(alone.fault.has_value());
    CHECK(lanes.fault->kind == FaultKind::OutOfBounds);
    CHECK(lanes.fault->globalId == std::array<uint64_t, 3>{386, 0, 0});
    CHECK(lanes.fault->localId == std::array<uint64_t, 3>{130, 0, 0});
    CHECK(lanes.fault->groupId == std::array<uint64_t, 3>{1, 0, 0});
    CHECK(lanes.fault->globalId == alone.fault->globalId);
    CHECK(lanes.fault->instruction == alone.fault->instruction);
    CHECK(lanes.fault->message == alone.fault->message);
  }
}

TEST_CASE("lane executor: consecutive indices that pass the largest signed index fault as one by one", "[lanes]") {
  // Lanes 0..63 index a[i + offset] with offset 2^63 - 10: consecutive indices whose signed values wrap inside the
  // batch, each far beyond any allocation (index × 4 overflows). Work-item 0 faults first on both paths.
  host::DeviceConfig cfg;
  cfg.threads = 1;
  auto [lanes, alone] = onBothPaths([&] {
    host::Kernel k(host::Program::fromSpirv(host::Device(cfg), denseProgram()->spirv()), "far");
    auto ba = std::make_shared<host::Buffer>(256 * 4);
    k.setArg(0, ba);
    k.setArg(1, uint64_t(INT64_MAX) - 10);
    return k.run(test::range1(64, 64));
  });
  REQUIRE(lanes.fault.has_value());
  REQUIRE(alone.fault.has_value());
  CHECK(lanes.fault->kind == FaultKind::OutOfBounds);
  CHECK(lanes.fault->globalId == std::array<uint64_t, 3>{0, 0, 0});
  CHECK(lanes.fault->globalId == alone.fault->globalId);
  CHECK(lanes.fault->message == alone.fault->message);
}

TEST_CASE("lane executor: an image beside a local-memory argument reads the host's values", "[lanes][image]") {
  // A local-memory argument has a size and no address of its own at launch: the check of which images share memory
  // with another argument must not take it for memory (UBSan: offset added to a null pointer).
  const size_t w = 64;
  std::vector<uint8_t> in(w * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t((i * 53 + 7) % 256);
  auto [lanes, alone] = onBothPaths([&] {
    host::Kernel k(imageLaneProgram(), "with_scratch");
    auto src = rgba8(w, 1);
    src->write({0, 0, 0}, {w, 1, 1}, in.data());
    auto out = std::make_shared<host::Buffer>(w * 16);
    k.setArg(0, src);
    k.setArgLocal(1, w * 16);
    k.setArg(2, out);
    Outcome o{k.run(test::range1(w, w)), std::vector<uint8_t>(w * 16)};
    std::memcpy(o.bytes.data(), out->as<uint8_t>().data(), w * 16);
    return o;
  });
  REQUIRE(lanes.result.ok);
  REQUIRE(alone.result.ok);
  CHECK(lanes.bytes == alone.bytes);
  for (size_t i = 0; i < w * 4; ++i) {
    float got;
    std::memcpy(&got, lanes.bytes.data() + i * 4, 4);
    INFO("element " << i);
    CHECK(got == float(in[i]) / 255.0f);  // each byte's correctly rounded c / 255
  }
}

namespace {

const std::string kIdsSource = R"CL(
kernel void ids(global uint* out) {
  const size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  const size_t i = ((gz - get_global_offset(2)) * get_global_size(1) + (gy - get_global_offset(1))) *
                       get_global_size(0) + (gx - get_global_offset(0));
  global uint* o = out + i * 9;
  o[0] = gx, o[1] = gy, o[2] = gz;
  o[3] = get_local_id(0), o[4] = get_local_id(1), o[5] = get_local_id(2);
  o[6] = get_group_id(0), o[7] = get_group_id(1), o[8] = get_group_id(2);
}
kernel void in_place2(global int* a, uint w) {
  const size_t i = get_global_id(1) * w + get_global_id(0);
  a[i] = a[i] * 3 + 1;
}
kernel void shift_right2(global int* a, uint w) {
  const size_t i = get_global_id(1) * w + get_global_id(0);
  a[i + 1] = a[i] + 1;
}
kernel void scaled(global int* a, global const int* b) {
  const size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  a[i] = b[i] * 3 + 1;
}
)CL";

}  // namespace

TEST_CASE("lane executor: batches across rows and planes of a work-group take each work-item's ids", "[lanes]") {
  // A batch of consecutive work-items of a 2D or 3D work-group spans rows (and planes) when the rows are shorter than
  // the batch: each lane's ids step along the row and wrap (scheduler.cpp RowIds). Expected ids from the NDRange's
  // definition (OpenCL 3.0 API §3.2.1 [[index-space-image]]), by the element each
  // work-item writes.
  static const std::vector<uint32_t> words = test::compileCL(kIdsSource, "-O2", "1.2", 64, "ids.cl");
  struct Shape {
    std::array<size_t, 3> global, local, offset;
  };
  const Shape shapes[] = {
      {{32, 12, 1}, {16, 4, 1}, {0, 0, 0}},   // rows of 16: a batch of 64 is 4 rows
      {{12, 10, 4}, {6, 5, 2}, {3, 7, 1}},    // rows of 6 and planes of 30: batches wrap in both, offsets
      {{70, 3, 2}, {70, 1, 1}, {0, 0, 0}},    // a row longer than a batch
      {{9, 9, 3}, {3, 3, 3}, {1, 2, 5}},      // 27 work-items a group
  };
  for (const Shape& s : shapes) {
    const size_t n = s.global[0] * s.global[1] * s.global[2];
    INFO("global " << s.global[0] << "x" << s.global[1] << "x" << s.global[2] << ", local " << s.local[0] << "x"
                   << s.local[1] << "x" << s.local[2]);
    auto [lanes, alone] = onBothPaths([&] {
      host::DeviceConfig cfg;
      cfg.threads = 2;
      host::Kernel k(host::Program::fromSpirv(host::Device(cfg), words), "ids");
      std::vector<uint32_t> init(n * 9, 0xdeadbeef);
      auto out = std::make_shared<host::Buffer>(init.data(), init.size() * 4);
      k.setArg(0, out);
      host::NDRange r;
      r.dims = 3;
      r.global = s.global;
      r.local = s.local;
      r.offset = s.offset;
      const interpreter::LaneStats before = interpreter::laneStats();
      Outcome o{k.run(r), std::vector<uint8_t>(n * 36)};
      std::memcpy(o.bytes.data(), out->as<uint8_t>().data(), n * 36);
      const interpreter::LaneStats after = interpreter::laneStats();
      return std::make_pair(o, std::make_pair(after.spans - before.spans, after.undone - before.undone));
    });
    // On lanes, and nothing undone: lanes given the same ids would write the same elements, a race the lanes undo
    // (and the one-by-one run would then hide the wrong ids).
    CHECK(lanes.second.first > 0);
    CHECK(lanes.second.second == 0);
    REQUIRE(lanes.first.result.ok);
    REQUIRE(alone.first.result.ok);
    CHECK(lanes.first.bytes == alone.first.bytes);
    std::vector<uint32_t> got(n * 9);
    std::memcpy(got.data(), lanes.first.bytes.data(), n * 36);
    size_t wrong = 0;
    for (size_t z = 0; z < s.global[2]; ++z)
      for (size_t y = 0; y < s.global[1]; ++y)
        for (size_t x = 0; x < s.global[0]; ++x) {
          const size_t i = (z * s.global[1] + y) * s.global[0] + x;
          const size_t id[3] = {x, y, z};
          for (int d = 0; d < 3; ++d) {
            wrong += got[i * 9 + size_t(d)] != id[d] + s.offset[size_t(d)];
            wrong += got[i * 9 + 3 + size_t(d)] != id[d] % s.local[size_t(d)];
            wrong += got[i * 9 + 6 + size_t(d)] != id[d] / s.local[size_t(d)];
          }
        }
    CHECK(wrong == 0);
  }
}

TEST_CASE("lane executor: a row's work-items learn their group where only id loads read it", "[lanes]") {
  // A batch started as a row has its work-items' ids and group written only when something reads them
  // (scheduler.cpp settleRow); a kernel that loads only the global, local and group ids reads them through the
  // batch. Groups of 70 run a batch of 64 and then 6 work-items that take the first slots one by one; groups of 200
  // three batches and 8; one thread runs every group in the same slots, so a slot that kept an earlier group's id
  // would show it. Expected ids from the NDRange's definition (OpenCL 3.0 API §3.2.1 [[index-space-image]]).
  static const std::vector<uint32_t> words = test::compileCL(R"CL(
kernel void group_ids(global uint* out) {
  const size_t i = get_global_id(0);
  out[i * 2] = get_group_id(0);
  out[i * 2 + 1] = get_local_id(0);
}
)CL", "-O2", "1.2", 64, "group_ids.cl");
  for (const auto& [global, local] : {std::pair<size_t, size_t>{350, 70}, {800, 200}, {384, 128}})
    for (const unsigned threads : {1u, 2u}) {
      INFO("global " << global << ", local " << local << ", threads " << threads);
      host::DeviceConfig cfg;
      cfg.threads = threads;
      host::Kernel k(host::Program::fromSpirv(host::Device(cfg), words), "group_ids");
      std::vector<uint32_t> init(global * 2, 0xdeadbeef);
      auto out = std::make_shared<host::Buffer>(init.data(), init.size() * 4);
      k.setArg(0, out);
      host::NDRange r;
      r.dims = 1;
      r.global = {global, 1, 1};
      r.local = std::array<size_t, 3>{local, 1, 1};
      const interpreter::LaneStats before = interpreter::laneStats();
      REQUIRE(k.run(r).ok);
      CHECK(interpreter::laneStats().spans > before.spans);
      const std::vector<uint32_t> got(out->as<uint32_t>().begin(), out->as<uint32_t>().end());
      size_t wrong = 0;
      for (size_t i = 0; i < global; ++i) wrong += got[i * 2] != i / local || got[i * 2 + 1] != i % local;
      CHECK(wrong == 0);
    }
}

TEST_CASE("lane executor: a fault in a batch across rows names its own work-item", "[lanes]") {
  // Global 32x16 in groups of 16x8: batches of 64 are 4 rows. a has 250 elements: every work-item of group (0, 0)
  // (linear indices up to 7 * 32 + 15) stores inside, and the first outside in group (1, 0), local id (10, 7) of its
  // second batch (global (26, 7), index 250), is the fault. The batches' ids are written into their work-items only
  // when they run alone (scheduler.cpp settleRow): here after the fault, from the span's start.
  static const std::vector<uint32_t> words = test::compileCL(kIdsSource, "-O2", "1.2", 64, "ids.cl");
  const size_t size = 250, n = 32 * 16;
  std::vector<int32_t> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = int32_t(i * 37 % 101) - 50;
  for (unsigned threads : {1u, 2u}) {
    auto [lanes, alone] = onBothPaths([&] {
      host::DeviceConfig cfg;
      cfg.threads = threads;
      host::Kernel k(host::Program::fromSpirv(host::Device(cfg), words), "scaled");
      auto ba = std::make_shared<host::Buffer>(size * 4);
      auto bb = std::make_shared<host::Buffer>(b.data(), n * 4);
      k.setArg(0, ba);
      k.setArg(1, bb);
      host::NDRange r;
      r.dims = 2;
      r.global = {32, 16, 1};
      r.local = std::array<size_t, 3>{16, 8, 1};
      const interpreter::LaneStats before = interpreter::laneStats();
      Outcome o{k.run(r), std::vector<uint8_t>(size * 4)};
      std::memcpy(o.bytes.data(), ba->as<uint8_t>().data(), size * 4);
      return std::make_pair(o, interpreter::laneStats().spans - before.spans);
    });
    CHECK(lanes.second > 0);
    const auto& fault = lanes.first.result.fault;
    REQUIRE(fault.has_value());
    REQUIRE(alone.first.result.fault.has_value());
    CHECK(fault->kind == FaultKind::OutOfBounds);
    CHECK(fault->globalId == std::array<uint64_t, 3>{26, 7, 0});
    CHECK(fault->localId == std::array<uint64_t, 3>{10, 7, 0});
    CHECK(fault->groupId == std::array<uint64_t, 3>{1, 0, 0});
    CHECK(fault->globalId == alone.first.result.fault->globalId);
    CHECK(fault->instruction == alone.first.result.fault->instruction);
    CHECK(fault->message == alone.first.result.fault->message);
    // Group (0, 0)'s elements, each stored by its own work-item before the fault.
    std::vector<int32_t> got(size);
    std::memcpy(got.data(), lanes.first.bytes.data(), size * 4);
    for (size_t y = 0; y < 8; ++y)
      for (size_t x = 0; x < 16; ++x) {
        const size_t i = y * 32 + x;
        INFO("element " << i);
        CHECK(got[i] == b[i] * 3 + 1);
      }
  }
}

TEST_CASE("lane executor: rows of a 2D work-group update their elements in place on lanes", "[lanes]") {
  // Batches of 4 rows of 16 (groups of 16x16) whose rows reach consecutive elements: a dense log entry per row, so a
  // load and a store of the same element by one lane do not race, and nothing is undone. Rows that overlap (w = 8,
  // shorter than the group's rows: two work-items update one element) or reach the next lane's element do race:
  // undone and run one by one, with the one-by-one result. Expected values from host loops in the one-by-one order
  // (work-groups in order, work-items in local linear order).
  static const std::vector<uint32_t> words = test::compileCL(kIdsSource, "-O2", "1.2", 64, "ids.cl");
  const size_t gw = 64, gh = 32;
  auto run = [&](const char* name, uint32_t w, std::vector<int32_t> a) {
    return onBothPaths([&] {
      host::DeviceConfig cfg;
      cfg.threads = 1;
      host::Kernel k(host::Program::fromSpirv(host::Device(cfg), words), name);
      auto ba = std::make_shared<host::Buffer>(a.data(), a.size() * 4);
      k.setArg(0, ba);
      k.setArg(1, w);
      host::NDRange r;
      r.dims = 2;
      r.global = {gw, gh, 1};
      r.local = std::array<size_t, 3>{16, 16, 1};
      const uint64_t undone = interpreter::laneStats().undone;
      REQUIRE(k.run(r).ok);
      std::vector<int32_t> out(a.size());
      std::memcpy(out.data(), ba->as<uint8_t>().data(), a.size() * 4);
      return std::make_pair(out, interpreter::laneStats().undone - undone);
    });
  };
  // The one-by-one order: groups row-major, then local ids row-major.
  auto inOrder = [&](auto&& item) {
    for (size_t gy = 0; gy < gh / 16; ++gy)
      for (size_t gx = 0; gx < gw / 16; ++gx)
        for (size_t ly = 0; ly < 16; ++ly)
          for (size_t lx = 0; lx < 16; ++lx) item(gx * 16 + lx, gy * 16 + ly);
  };
  std::vector<int32_t> a(gw * gh + 1);
  for (size_t i = 0; i < a.size(); ++i) a[i] = int32_t(i * 37 % 101) - 50;
  SECTION("in place, rows apart: nothing undone") {
    auto [lanes, alone] = run("in_place2", uint32_t(gw), a);
    CHECK(lanes.second == 0);
    std::vector<int32_t> want = a;
    inOrder([&](size_t x, size_t y) { want[y * gw + x] = want[y * gw + x] * 3 + 1; });
    CHECK(lanes.first == want);
    CHECK(alone.first == want);
  }
  SECTION("in place, rows overlapping: undone, the one-by-one result") {
    auto [lanes, alone] = run("in_place2", 8, a);
    CHECK(lanes.second >= 1);
    std::vector<int32_t> want = a;
    inOrder([&](size_t x, size_t y) { want[y * 8 + x] = want[y * 8 + x] * 3 + 1; });
    CHECK(lanes.first == want);
    CHECK(alone.first == want);
  }
  SECTION("each element from the one before it: undone, the one-by-one result") {
    auto [lanes, alone] = run("shift_right2", uint32_t(gw), a);
    CHECK(lanes.second >= 1);
    std::vector<int32_t> want = a;
    inOrder([&](size_t x, size_t y) { want[y * gw + x + 1] = want[y * gw + x] + 1; });
    CHECK(lanes.first == want);
    CHECK(alone.first == want);
  }
}

TEST_CASE("lane executor: integer division runs on lanes up to a zero divisor or an overflow, as one by one",
          "[lanes]") {
  // Lanes before a lane whose divisor is 0 (or INT_MIN / -1) divide on lanes; that lane and the rest leave before
  // the instruction, and the choices int_div_by_zero and int_div_overflow are first decided by the same work-item.
  static const std::vector<uint32_t> words = test::compileCL(R"CL(
kernel void divide(global const int* a, global const int* b, global int* q, global int* r, global uint* u) {
  size_t i = get_global_id(0);
  q[i] = a[i] / b[i];
  r[i] = a[i ^ 1] % b[i];
  u[i] = (uint)a[i] / (uint)b[i ^ 2];
}
)CL", "-O2 -g", "1.1", 64, "divide.cl");
  const size_t n = 256;
  std::vector<int32_t> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int32_t(i * 7919 % 1000) - 500;
    b[i] = int32_t(i % 11) - 5;  // 0 at i = 5, 16, 27, …
  }
  a[70] = a[71] = INT32_MIN, b[70] = -1;  // q[70] and r[70] overflow
  auto run = [&] {
    host::Kernel k(host::Program::fromSpirv(host::Device(), words), "divide");
    std::vector<std::shared_ptr<host::Buffer>> out;
    k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * 4));
    k.setArg(1, std::make_shared<host::Buffer>(b.data(), n * 4));
    for (size_t j = 0; j < 3; ++j) {
      out.push_back(std::make_shared<host::Buffer>(n * 4));
      k.setArg(2 + j, out.back());
    }
    const interpreter::LaneStats before = interpreter::laneStats();
    Outcome o{k.run(test::range1(n, 64)), {}};
    for (const auto& buf : out)
      o.bytes.insert(o.bytes.end(), buf->as<uint8_t>().data(), buf->as<uint8_t>().data() + n * 4);
    return std::make_pair(o, interpreter::laneStats().spans - before.spans);
  };
  auto [lanes, alone] = onBothPaths(run);
  REQUIRE(lanes.first.result.ok);
  CHECK(lanes.second > 0);
  CHECK(lanes.first.bytes == alone.first.bytes);
  // Every quiet lane against the host's C division.
  const auto* q = reinterpret_cast<const int32_t*>(lanes.first.bytes.data());
  const auto* u = reinterpret_cast<const uint32_t*>(lanes.first.bytes.data() + 2 * n * 4);
  for (size_t i = 0; i < n; ++i) {
    if (b[i ^ 2] != 0) CHECK(u[i] == uint32_t(a[i]) / uint32_t(b[i ^ 2]));
    if (b[i] == 0 || i == 70) continue;
    CHECK(q[i] == a[i] / b[i]);
    CHECK(q[n + i] == a[i ^ 1] % b[i]);
  }
  const auto& x = lanes.first.result.choicesUsed;
  const auto& y = alone.first.result.choicesUsed;
  REQUIRE(x.size() == y.size());
  int decided = 0;
  for (size_t c = 0; c < x.size(); ++c) {
    CHECK(x[c].count == y[c].count);
    if (!x[c].count) continue;
    ++decided;
    CHECK(x[c].first.globalId == y[c].first.globalId);
    CHECK(x[c].first.instruction == y[c].first.instruction);
  }
  CHECK(decided == 2);
  // The warnings in the one-by-one order: each work-item's own, in turn.
  CHECK(lanes.first.result.warningCount == alone.first.result.warningCount);
  const auto &wx = lanes.first.result.warnings, &wy = alone.first.result.warnings;
  REQUIRE(wx.size() == wy.size());
  REQUIRE(wx.size() > 2);
  for (size_t w = 0; w < wx.size(); ++w) {
    CHECK(wx[w].globalId == wy[w].globalId);
    CHECK(wx[w].instruction == wy[w].instruction);
  }
}

TEST_CASE("lane executor: an undone dense store of a few narrow lanes restores their old bytes", "[lanes]") {
  // Four lanes of one byte make a dense store of 4 bytes: its undo record holds them itself (LaneLog::saveDense). A
  // zero divisor in lane 2 stops the lanes after the store; lanes beyond the first stored, so the span is undone and
  // runs again one by one, which reads x[i] again: a wrong restore would show in x.
  static const std::vector<uint32_t> words = test::compileCL(R"CL(
kernel void bump(global uchar* x, global const int* d, global int* q) {
  size_t i = get_global_id(0);
  x[i] = (uchar)(x[i] + 1);
  q[i] = 100 / d[i];
}
)CL", "-O2 -g", "1.1", 64, "bump.cl");
  const size_t n = 16;
  std::vector<uint8_t> x0(n);
  std::vector<int32_t> d(n, 3);
  for (size_t i = 0; i < n; ++i) x0[i] = uint8_t(200 + i);
  d[2] = 0;
  auto run = [&] {
    host::Kernel k(host::Program::fromSpirv(host::Device(), words), "bump");
    auto x = std::make_shared<host::Buffer>(x0.data(), n);
    auto q = std::make_shared<host::Buffer>(n * 4);
    k.setArg(0, x);
    k.setArg(1, std::make_shared<host::Buffer>(d.data(), n * 4));
    k.setArg(2, q);
    const uint64_t undone = interpreter::laneStats().undone;
    REQUIRE(k.run(test::range1(n, 4)).ok);
    std::vector<uint8_t> out(x->as<uint8_t>().data(), x->as<uint8_t>().data() + n);
    return std::make_pair(out, interpreter::laneStats().undone - undone);
  };
  auto [lanes, alone] = onBothPaths(run);
  CHECK(lanes.second > 0);
  for (size_t i = 0; i < n; ++i) CHECK(lanes.first[i] == uint8_t(x0[i] + 1));
  CHECK(lanes.first == alone.first);
}

namespace {
const char* kRaceSource = R"CL(
kernel void clean(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
kernel void folded(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i % 64] = in[i];
}
kernel void swapped(global const int* in, global int* out, local int* t) {
  size_t l = get_local_id(0), i = get_global_id(0);
  t[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = t[get_local_size(0) - 1 - l];
}
kernel void unbarriered(global const int* in, global int* out, local int* t) {
  size_t l = get_local_id(0), i = get_global_id(0);
  t[l] = in[i];
  out[i] = t[get_local_size(0) - 1 - l];
}
kernel void shifted(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + out[(i + 128) % get_global_size(0)];
}
kernel void wide(global const int2* in, global int2* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
kernel void wide_folded(global const int2* in, global int2* out) {
  size_t i = get_global_id(0);
  out[i % 16 + i / 16] = in[i];
}
kernel void wide_written(global int2* in, global int2* out) {
  size_t i = get_global_id(0), g = get_local_size(0);
  out[i] = in[i] * 2;
  if (i >= g && i < 2 * g) ((global int*)in)[i - g + 2] = 0;
}
kernel void misaligned(global const int2* in, global int2* out) {
  size_t i = get_global_id(0);
  out[i + 1] = in[i + 3];
}
kernel void mixed_widths(global int* in, global int* out) {
  size_t i = get_global_id(0), g = get_local_size(0);
  int2 a = ((global int2*)in)[i];
  int b = in[i];
  out[i] = a.x + a.y + b;
  if (i >= 2 * g) in[i - 2 * g + 3] = 0;
}
kernel void overlapping(global int* in, global int* out) {
  size_t i = get_global_id(0), g = get_local_size(0);
  out[i] = in[i] * 3 + in[i + 16];
  if (i >= 2 * g) in[i - 2 * g + 20] = 0;
}
kernel void broadcast(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + out[get_global_size(0) - 1];
}
kernel void broadcast_written(global const int* in, global int* out) {
  size_t i = get_global_id(0), g = get_local_size(0);
  out[i] = in[i] + out[(i / g + 3) % 4 * g];
}
kernel void broadcast_read_by_all(global int* in, global int* out) {
  size_t i = get_global_id(0), g = get_local_size(0);
  out[i] = in[i] + in[5];
  if (i == 3 * g + 7) in[5] = 0;
}
kernel void local_broadcast(global const int* in, global int* out, local int* t) {
  size_t l = get_local_id(0), i = get_global_id(0);
  t[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = t[0] + t[l] + in[0];
}
kernel void rows(global const int* in, global int* out) {
  size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = in[y * w + x] + in[x];
}
kernel void rows_folded(global const int* in, global int* out) {
  size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[(y % 2) * w + x] = in[x];
}
kernel void rows_written(global int* in, global int* out) {
  size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = in[y * w + x] + in[x];
  if (x == 16 && y == 0) in[3] = 0;
}
)CL";

struct Checked {
  host::RunResult result;
  std::vector<int32_t> out;
  interpreter::LaneStats lanes;
};

// The kernel over `range` (local size `local` along dimension 0) with buffers of `elements` ints.
Checked runChecked(const char* kernel, const host::NDRange& range, size_t elements) {
  static const std::vector<uint32_t> words = test::compileCL(kRaceSource, "-O2 -g", "1.1", 64, "races.cl");
  host::DeviceConfig cfg;
  cfg.checks.add(interpreter::Check::Races);
  cfg.checksFatal = false;
  host::Kernel k(host::Program::fromSpirv(host::Device(cfg), words), kernel);
  std::vector<int32_t> in(elements);
  for (size_t i = 0; i < elements; ++i) in[i] = int32_t(i * 3 + 1);
  auto out = std::make_shared<host::Buffer>(elements * 4);
  k.setArg(0, std::make_shared<host::Buffer>(in.data(), elements * 4));
  k.setArg(1, out);
  if (k.argCount() > 2) k.setArgLocal(2, (*range.local)[0] * 4);
  const interpreter::LaneStats before = interpreter::laneStats();
  Checked c{k.run(range), {}, {}};
  const interpreter::LaneStats after = interpreter::laneStats();
  c.lanes = {after.spans - before.spans, after.barrierIntervals - before.barrierIntervals,
             after.undone - before.undone, after.returned - before.returned};
  c.out.assign(out->as<int32_t>().begin(), out->as<int32_t>().end());
  return c;
}

Checked runChecked(const char* kernel, size_t global, size_t local, size_t elements = 0) {
  return runChecked(kernel, test::range1(global, local), elements ? elements : global);
}

void requireSameFindings(const host::RunResult& x, const host::RunResult& y) {
  REQUIRE(x.findings.size() == y.findings.size());
  for (size_t f = 0; f < x.findings.size(); ++f) {
    CHECK(x.findings[f].at.kind == y.findings[f].at.kind);
    CHECK(x.findings[f].at.instruction == y.findings[f].at.instruction);
    CHECK(x.findings[f].at.globalId == y.findings[f].at.globalId);
    CHECK(x.findings[f].hasOther == y.findings[f].hasOther);
    CHECK(x.findings[f].other.instruction == y.findings[f].other.instruction);
    CHECK(x.findings[f].other.globalId == y.findings[f].other.globalId);
    CHECK(x.findings[f].count == y.findings[f].count);
    CHECK(x.findings[f].at.message == y.findings[f].at.message);
  }
}
}  // namespace

TEST_CASE("lane executor: the race checker on lanes finds what it finds one by one", "[lanes][races]") {
  // A checked launch's lanes tell the race checker their accesses when their span stands (scheduler.cpp
  // feedLaneAccesses); a race between lanes of one span undoes it, and the one-by-one run finds it.
  SECTION("no race: every batch runs whole on lanes, nothing found") {
    auto [lanes, alone] = onBothPaths([] { return runChecked("clean", 512, 128); });
    CHECK(lanes.result.findings.empty());
    CHECK(alone.result.findings.empty());
    CHECK(lanes.lanes.returned > 0);
    CHECK(lanes.lanes.undone == 0);
    for (size_t i = 0; i < 512; ++i) CHECK(lanes.out[i] == int32_t(i * 3 + 2));
  }
  SECTION("work-items 64 apart write one element: batches of one group, and groups, race") {
    auto [lanes, alone] = onBothPaths([] { return runChecked("folded", 512, 128); });
    REQUIRE(!alone.result.findings.empty());
    requireSameFindings(lanes.result, alone.result);
    CHECK(lanes.out == alone.out);
    CHECK(lanes.lanes.returned > 0);
    // The first race: work-item 64 writes what work-item 0 of its group wrote.
    CHECK(lanes.result.findings[0].at.globalId[0] == 64);
    CHECK(lanes.result.findings[0].other.globalId[0] == 0);
  }
  SECTION("a barrier between the writes and the reads of local memory: no race, on lanes across the barrier") {
    auto [lanes, alone] = onBothPaths([] { return runChecked("swapped", 256, 64); });
    CHECK(lanes.result.findings.empty());
    CHECK(alone.result.findings.empty());
    CHECK(lanes.lanes.barrierIntervals > 0);
    for (size_t i = 0; i < 256; ++i) CHECK(lanes.out[i] == int32_t((i / 64 * 64 + 63 - i % 64) * 3 + 1));
  }
  SECTION("without it, the lanes' own race undoes the span and the one-by-one run finds it") {
    auto [lanes, alone] = onBothPaths([] { return runChecked("unbarriered", 256, 64); });
    REQUIRE(!alone.result.findings.empty());
    requireSameFindings(lanes.result, alone.result);
    CHECK(lanes.out == alone.out);
    CHECK(lanes.lanes.undone > 0);
  }
}

TEST_CASE("lane executor: the race checker takes dense lanes a block at a time as it takes them one by one",
          "[lanes][races]") {
  // RaceChecker::accessDense keeps a block of 16 granules that consecutive work-items touched in order as one write
  // and one read; readShared takes the same bytes read by consecutive lanes at once. Every finding (work-items,
  // instructions, byte offset, count, "one of several readers") must be the one-by-one run's.
  struct Case {
    const char* kernel;
    size_t global, local, elements;
    bool races, undone;  // undone: the lanes race among themselves, and their span runs again one by one
  };
  const Case cases[] = {
      {"shifted", 512, 128, 512, true, false},            // a group writes what the one before read, the last reads
      {"wide", 128, 64, 512, false, false},               // 8 bytes a work-item: two granules each
      {"wide_folded", 128, 16, 512, true, false},         // ... each group the 16 × 8 bytes from one further on
      {"wide_written", 64, 16, 512, true, false},         // ... read, then written by ints from another group
      {"misaligned", 128, 64, 520, false, false},         // ... starting two and six granules into a block
      {"mixed_widths", 192, 64, 512, true, false},        // int2 and int reads of one epoch, a later group's writes
      {"overlapping", 192, 64, 512, true, false},         // in[i] and then in[i + 16]: the lower reader named
      {"broadcast", 512, 128, 512, true, true},           // every lane reads the last element, which the last writes
      {"broadcast_written", 512, 128, 512, true, false},  // a group reads the first element the one before wrote
      // Every group reads in[5] (the groups after the first: reads that change nothing), a later group writes it.
      {"broadcast_read_by_all", 512, 128, 512, true, true},
      {"local_broadcast", 256, 64, 256, false, false},    // every lane reads t[0] and in[0] after a barrier
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.kernel) {
      auto [lanes, alone] = onBothPaths([&] { return runChecked(c.kernel, c.global, c.local, c.elements); });
      CHECK(alone.result.findings.empty() == !c.races);
      requireSameFindings(lanes.result, alone.result);
      CHECK(lanes.out == alone.out);
      CHECK(lanes.lanes.spans > 0);
      CHECK((lanes.lanes.undone > 0) == c.undone);
    }
  }
  SECTION("rows of 16 lanes in 16×16 work-groups, rows reading one row of another buffer") {
    host::NDRange r;
    r.dims = 2;
    r.global = {32, 32, 1};
    r.local = std::array<size_t, 3>{16, 16, 1};
    for (const char* kernel : {"rows", "rows_folded", "rows_written"}) {
      auto [lanes, alone] = onBothPaths([&] { return runChecked(kernel, r, 32 * 32); });
      CHECK(alone.result.findings.empty() == (std::string(kernel) == "rows"));
      requireSameFindings(lanes.result, alone.result);
      CHECK(lanes.out == alone.out);
      for (size_t i = 0; kernel == std::string("rows") && i < 32 * 32; ++i)
        CHECK(lanes.out[i] == int32_t(i * 3 + 1 + (i % 32) * 3 + 1));
    }
  }
}

namespace {
// Kernels for the uninitialised-value checker on lanes, built as the checker builds them (its variables kept in
// private memory): clean ones that must stay on lanes, buggy ones whose lanes meet undefined values at uses.
const char* kUninitSource = R"CL(
kernel void clean(global const int* in, global int* out, local int* t) {
  int l = get_local_id(0), g = get_global_id(0), n = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < 4; ++k) acc += in[(g + k) % n];
  t[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v[4];
  for (int k = 0; k < 4; ++k) v[k] = t[(l + k) % get_local_size(0)];
  out[g] = v[0] + v[1] * 2 + v[2] * 3 + v[3] * 4;
}
kernel void cond(global const int* in, global int* out, local int* t) {
  int i = get_global_id(0);
  int x;
  if (in[i] % 5 > 2) x = in[i] * 2;
  out[i] = x;
}
kernel void flag(global const int* in, global int* out, local int* t) {
  int i = get_global_id(0);
  int f;
  if (in[i] % 7 == 3) f = 1;
  out[i] = 5;
  if (f) out[i] = 1;
}
kernel void halo(global const int* in, global int* out, local int* t) {
  int g = get_global_id(0), l = get_local_id(0);
  t[l + 1] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[l] + t[l + 1] + t[l + 2];
}
kernel void partial(global const int* in, global int* out, local int* t) {
  int i = get_global_id(0);
  int v[4];
  v[in[i] % 4] = i;
  out[i] = v[0] == i ? 1 : 0;
}
kernel void copy(global const int* in, global int* out, local int* t) {
  int i = get_global_id(0);
  out[i] = in[i] + 1;
}
)CL";

struct UninitRun {
  host::RunResult result;
  std::vector<int32_t> out;
  interpreter::LaneStats lanes;
};

// `kernel` over `global` work-items in groups of `local`, in[i] = 3i + 1 (only its first `written` elements written
// by the host where written < global), out starting at -1.
UninitRun runUninit(const char* kernel, size_t global, size_t local, size_t written) {
  host::DeviceConfig cfg;
  cfg.checks.add(interpreter::Check::Uninitialized);
  cfg.checksFatal = false;
  host::Device device(cfg);
  host::OpenCLCSource s;
  s.text = kUninitSource;
  s.options = {"-g", "-cl-std=CL1.2"};
  s.name = "uninit.cl";
  host::Kernel k(host::Program::fromOpenCLC(device, s), kernel);
  auto in = std::make_shared<host::Buffer>(global * 4);
  for (size_t i = 0; i < global; ++i) in->as<int32_t>()[i] = int32_t(i * 3 + 1);
  if (written < global) {
    in->markUninitialised();
    in->markWritten(0, written * 4);
  }
  auto out = std::make_shared<host::Buffer>(global * 4);
  for (size_t i = 0; i < global; ++i) out->as<int32_t>()[i] = -1;
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArgLocal(2, (local + 2) * 4);
  const interpreter::LaneStats before = interpreter::laneStats();
  UninitRun r{k.run(test::range1(global, local)), {}, {}};
  const interpreter::LaneStats after = interpreter::laneStats();
  r.lanes = {after.spans - before.spans, after.barrierIntervals - before.barrierIntervals,
             after.undone - before.undone, after.returned - before.returned};
  r.out.assign(out->as<int32_t>().begin(), out->as<int32_t>().end());
  return r;
}
}  // namespace

TEST_CASE("lane executor: the uninitialised-value checker on lanes finds what it finds one by one",
          "[lanes][uninit]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  // Its shadow Ops run on lanes while the values they read are defined; the first lane with an undefined one runs
  // alone from there (uninitialized.cpp), and a lane that stores one to global memory has the span run one by one.
  SECTION("defined values through private, local and global memory: on lanes throughout, nothing found") {
    auto [lanes, alone] = onBothPaths([] { return runUninit("clean", 256, 64, 256); });
    CHECK(lanes.result.findings.empty());
    CHECK(alone.result.findings.empty());
    CHECK(lanes.lanes.spans > 0);
    CHECK(lanes.lanes.barrierIntervals > 0);
    CHECK(lanes.lanes.undone == 0);
    CHECK(alone.lanes.spans == 0);
    for (int g = 0; g < 256; ++g) {
      auto acc = [](int i) {
        int a = 0;
        for (int k = 0; k < 4; ++k) a += ((i + k) % 256) * 3 + 1;
        return a;
      };
      const int base = g / 64 * 64, l = g % 64;
      int expected = 0;
      for (int k = 0; k < 4; ++k) expected += (k + 1) * acc(base + (l + k) % 64);
      CHECK(lanes.out[size_t(g)] == expected);
    }
  }
  SECTION("a buffer the host wrote in full, copied: on lanes, nothing found") {
    auto [lanes, alone] = onBothPaths([] { return runUninit("copy", 256, 64, 256); });
    CHECK(lanes.result.findings.empty());
    CHECK(lanes.lanes.spans > 0);
    CHECK(lanes.lanes.undone == 0);
    for (size_t i = 0; i < 256; ++i) CHECK(lanes.out[i] == int32_t(i * 3 + 2));
  }
  struct Case {
    const char* kernel;
    size_t written;  // elements of `in` the host wrote
    const char* use;  // in the first finding's message
  };
  const Case cases[] = {
      {"cond", 256, "value stored to global memory"},  // some lanes store x unassigned
      {"flag", 256, "branch condition"},                // some lanes branch on f unassigned
      {"halo", 256, "value stored to global memory"},   // the first and last lane of a group read a halo never loaded
      {"partial", 256, "uninitialised"},                // v[0] read where another element was written
      {"copy", 100, "value stored to global memory"},   // elements past the host's 100 copied out
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.kernel) {
      auto [lanes, alone] = onBothPaths([&] { return runUninit(c.kernel, 256, 64, c.written); });
      REQUIRE(!alone.result.findings.empty());
      CHECK_THAT(alone.result.findings[0].at.message, Catch::Matchers::Contains(c.use));
      requireSameFindings(lanes.result, alone.result);
      CHECK(lanes.out == alone.out);
      CHECK(lanes.lanes.spans > 0);
    }
  }
}
