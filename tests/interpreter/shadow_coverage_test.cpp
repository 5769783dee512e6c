// The shadow map's coverage table (interpreter/shadow_coverage.hpp) and the map queries it answers first
// (interpreter/shadow.hpp), against a plain record of covered bytes kept beside them: every query after random
// placements and clears must be what that record says.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "interpreter/shadow.hpp"
#include "interpreter/shadow_coverage.hpp"

using clref::interpreter::ShadowCoverage;
using clref::interpreter::ShadowEntry;
using clref::interpreter::ShadowRun;

namespace {
// Whether any byte of [lo, hi) of `covered` is set.
bool anyOf(const std::vector<bool>& covered, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi && i < covered.size(); ++i)
    if (covered[i]) return true;
  return false;
}
}  // namespace

TEST_CASE("the shadow coverage table answers as a byte-by-byte record", "[shadow]") {
  std::mt19937_64 rng(7);
  constexpr size_t kBytes = 4096;
  // Addresses near a granule's edge and far apart (different table slots, collisions after growth).
  const uintptr_t bases[] = {0x10000 - 40, 0x7ff000123400, 0x40};
  for (uintptr_t base : bases) {
    ShadowCoverage table;
    std::vector<bool> covered(kBytes);
    for (int step = 0; step < 20000; ++step) {
      const size_t at = rng() % (kBytes - 16), n = 1 + rng() % 16;
      if (rng() % 3 == 0) {
        table.remove(base + at, n);
        for (size_t i = at; i < at + n; ++i) covered[i] = false;
      } else {
        table.add(base + at, n);
        for (size_t i = at; i < at + n; ++i) covered[i] = true;
      }
      const size_t q = rng() % (kBytes - 600), m = 1 + rng() % 600;
      const bool expected = m > ShadowCoverage::kExactBytes || anyOf(covered, q, q + m);
      REQUIRE(table.any(base + q, m) == expected);
    }
    // Everything cleared: nothing is covered, however far the table grew.
    table.remove(base, kBytes);
    for (size_t q = 0; q + 64 <= kBytes; q += 61) CHECK_FALSE(table.any(base + q, 64));
  }
}

TEST_CASE("shadow map queries after placements and clears match a plain record", "[shadow]") {
  std::mt19937_64 rng(11);
  constexpr size_t kBytes = 2048;
  std::vector<uint8_t> memory(kBytes);
  ShadowRun run;
  std::vector<int> owner(kBytes, -1);  // the offset of the entry covering each byte, or -1
  std::vector<uint8_t> sizeAt(kBytes);
  for (int step = 0; step < 20000; ++step) {
    const uint32_t size = uint32_t(1) << (rng() % 4);  // 1, 2, 4, 8-byte lanes, aligned
    const size_t at = (rng() % (kBytes / size)) * size;
    const int what = int(rng() % 4);
    if (what < 2) {
      ShadowEntry e;
      e.size = uint8_t(size);
      e.set = clref::numerics::ValueSet{1.0, 2.0, false};
      e.decision = uint32_t(at);
      run.set(memory.data() + at, e);
      for (size_t i = 0; i < kBytes; ++i)  // set() clears whatever overlapped the lane
        if (owner[i] >= 0 && size_t(owner[i]) < at + size && size_t(owner[i]) + sizeAt[owner[i]] > at) owner[i] = -1;
      for (size_t i = at; i < at + size; ++i) owner[i] = int(at);
      sizeAt[at] = uint8_t(size);
    } else if (what == 2) {
      const size_t n = 1 + rng() % 24, from = rng() % (kBytes - n);
      run.clear(memory.data() + from, n);
      for (size_t i = 0; i < kBytes; ++i)
        if (owner[i] >= 0 && size_t(owner[i]) < from + n && size_t(owner[i]) + sizeAt[owner[i]] > from) owner[i] = -1;
    }
    // Queries: anyIn over a range, lane() of an aligned lane (the entry itself, nothing, or a reinterpretation).
    const size_t n = 1 + rng() % 40, from = rng() % (kBytes - n);
    bool any = false;
    for (size_t i = from; i < from + n; ++i) any = any || owner[i] >= 0;
    REQUIRE(run.anyIn(memory.data() + from, n) == any);
    ShadowEntry scratch;
    const ShadowEntry* e = run.lane(memory.data() + at, size, scratch);
    bool anyInLane = false;
    for (size_t i = at; i < at + size; ++i) anyInLane = anyInLane || owner[i] >= 0;
    if (!anyInLane) {
      REQUIRE(e == nullptr);
    } else if (owner[at] == int(at) && sizeAt[at] == size) {
      REQUIRE(e != &scratch);
      REQUIRE(e->decision == at);
    } else {
      REQUIRE(e == &scratch);
      REQUIRE(e->reinterpreted);
    }
  }
  run.clear(memory.data(), kBytes);
  CHECK(run.exact());
}
