// The shadow map's coverage table (interpreter/shadow_coverage.hpp) and the map queries it answers first
// (interpreter/shadow.hpp), against a plain record of covered bytes kept beside them: every query after random
// placements and clears must be what that record says.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "interpreter/shadow.hpp"
#include "interpreter/shadow_coverage.hpp"
#include "interpreter/shadow_entry_table.hpp"

using clref::interpreter::ShadowCoverage;
using clref::interpreter::ShadowEntry;
using clref::interpreter::ShadowEntryTable;
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
  // Entries within the first kBytes; a query of the whole memory spans more granules than the entry table has slots
  // (answered by the table's own walk, sorted), small ranges go through the coverage table's starts.
  constexpr size_t kBytes = 16384;
  std::vector<uint8_t> memory(size_t(1) << 20);
  ShadowRun run;
  std::vector<int> owner(kBytes, -1);  // the offset of the entry covering each byte, or -1
  std::vector<uint8_t> sizeAt(kBytes);
  std::vector<int64_t> decisionAt(kBytes, -1);  // the decision of an undetermined entry starting there
  // Forgets the entries overlapping [from, to) in the record (an entry is at most 8 bytes: they start after from - 8).
  auto forget = [&](size_t from, size_t to) {
    for (size_t i = from >= 8 ? from - 8 : 0; i < to + 8 && i < kBytes; ++i)
      if (owner[i] >= 0 && size_t(owner[i]) < to && size_t(owner[i]) + sizeAt[owner[i]] > from) owner[i] = -1;
  };
  // The first undetermined entry overlapping [from, to), by address.
  auto firstDecision = [&](size_t from, size_t to) -> std::optional<uint32_t> {
    for (size_t i = from >= 8 ? from - 8 : 0; i < to && i < kBytes; ++i)
      if (owner[i] == int(i) && i + sizeAt[i] > from && decisionAt[i] >= 0) return uint32_t(decisionAt[i]);
    return std::nullopt;
  };
  const size_t window = 2048;  // most steps stay in the first 2 KiB, where entries meet
  for (int step = 0; step < 20000; ++step) {
    const uint32_t size = uint32_t(1) << (rng() % 4);  // 1, 2, 4, 8-byte lanes, aligned
    const size_t span = step % 10 == 0 ? kBytes : window;
    const size_t at = (rng() % (span / size)) * size;
    const int what = int(rng() % 5);
    if (what < 2) {
      ShadowEntry e;
      e.size = uint8_t(size);
      e.set = clref::numerics::ValueSet{1.0, 2.0, false};
      e.decision = uint32_t(at);
      run.set(memory.data() + at, e);
      forget(at, at + size);  // set() clears whatever overlapped the lane
      for (size_t i = at; i < at + size; ++i) owner[i] = int(at);
      sizeAt[at] = uint8_t(size);
      decisionAt[at] = -1;
    } else if (what == 2) {
      const size_t n = 1 + rng() % 24, from = rng() % (window - n);
      run.clear(memory.data() + from, n);
      forget(from, from + n);
    } else if (what == 3) {
      // Undetermined lanes of `size` over a short range (the last lane may be shorter).
      const size_t n = 1 + rng() % 20, from = rng() % (window - n);
      const uint32_t decision = uint32_t(step);
      run.markUndetermined(memory.data() + from, n, size, decision);
      forget(from, from + n);
      for (size_t off = 0; off < n; off += size) {
        const size_t lane = std::min<size_t>(size, n - off);
        for (size_t i = from + off; i < from + off + lane; ++i) owner[i] = int(from + off);
        sizeAt[from + off] = uint8_t(lane);
        decisionAt[from + off] = decision;
      }
    }
    // Queries: anyIn and decisionIn over a range (now and then the whole buffer), lane() of an aligned lane (the entry
    // itself, nothing, or a reinterpretation).
    const bool whole = step % 97 == 0;
    const size_t n = whole ? memory.size() : 1 + rng() % 40, from = whole ? 0 : rng() % (window - n);
    bool any = false;
    for (size_t i = from; i < from + n && i < kBytes; ++i) any = any || owner[i] >= 0;
    REQUIRE(run.anyIn(memory.data() + from, n) == any);
    REQUIRE(run.decisionIn(memory.data() + from, n) == firstDecision(from, from + n));
    ShadowEntry scratch;
    const ShadowEntry* e = run.lane(memory.data() + at, size, scratch);
    bool anyInLane = false;
    for (size_t i = at; i < at + size; ++i) anyInLane = anyInLane || owner[i] >= 0;
    if (!anyInLane) {
      REQUIRE(e == nullptr);
    } else if (owner[at] == int(at) && sizeAt[at] == size) {
      REQUIRE(e != &scratch);
      REQUIRE(e->decision == (decisionAt[at] >= 0 ? uint32_t(decisionAt[at]) : at));
    } else {
      REQUIRE(e == &scratch);
      REQUIRE(e->reinterpreted);
    }
  }
  run.clear(memory.data(), memory.size());
  CHECK(run.exact());
  CHECK_FALSE(run.anyIn(memory.data(), memory.size()));
}

TEST_CASE("the shadow entry table keeps every entry through erasures that shift probe runs", "[shadow]") {
  std::mt19937_64 rng(5);
  ShadowEntryTable<uint64_t> table;
  std::map<uintptr_t, uint64_t> expected;
  for (int step = 0; step < 50000; ++step) {
    // Keys a multiple of 64 apart from few bases: many share a home slot or a probe run.
    const uintptr_t key = 0x1000 + (rng() % 600) * 64;
    if (rng() % 3 == 0) {
      table.erase(key);
      expected.erase(key);
    } else {
      const uint64_t v = rng();
      table.put(key, v);
      expected[key] = v;
    }
    const uintptr_t probe = 0x1000 + (rng() % 600) * 64;
    const uint64_t* found = table.find(probe);
    const auto it = expected.find(probe);
    REQUIRE((found != nullptr) == (it != expected.end()));
    if (found) REQUIRE(*found == it->second);
  }
  size_t visited = 0;
  table.forEach([&](uintptr_t key, uint64_t v) {
    ++visited;
    REQUIRE(expected.at(key) == v);
  });
  CHECK(visited == expected.size());
  CHECK(table.empty() == expected.empty());
}
