// Shared helpers for the numerics tests: parallel loops that collect mismatches (Catch2
// assertions are not thread-safe), bit-level comparison rules, the edge-case half set, and
// the MPFR references for binary16 arithmetic.
//
// Every reference here is computed by MPFR directly (precision 11, binary16 exponent range,
// mpfr_subnormalize) or by plain host computation; none goes through half.cpp / fma.cpp.
#pragma once
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "numerics/format.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics::test {

inline unsigned threadCount() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 2 : n;
}

// Collects the first few mismatches from many threads, and counts all of them.
class Mismatches {
 public:
  void add(const std::string& what) {
    count_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    if (first_.size() < 10) first_.push_back(what);
  }
  uint64_t count() const { return count_.load(); }
  std::string report() const {
    std::string out = std::to_string(count()) + " mismatches";
    for (const auto& s : first_) out += "\n  " + s;
    return out;
  }

 private:
  std::atomic<uint64_t> count_{0};
  std::mutex mutex_;
  std::vector<std::string> first_;
};

// Runs body(begin, end) over [0, n) split into chunks on all hardware threads. Each worker
// frees MPFR's thread-local caches when it is done.
inline void parallelFor(uint64_t n, const std::function<void(uint64_t, uint64_t)>& body, uint64_t chunk = 1 << 16) {
  std::atomic<uint64_t> next{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < threadCount(); ++t)
    threads.emplace_back([&] {
      for (;;) {
        const uint64_t b = next.fetch_add(chunk);
        if (b >= n) break;
        body(b, std::min(n, b + chunk));
      }
      mpfr_free_cache();
    });
  for (auto& t : threads) t.join();
}

inline bool isNanBits(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

// The comparison rule of these tests: NaN equals NaN if the result is a quiet NaN (IEEE
// 754-2008 §6.2 [external]: operations deliver quiet NaNs; the payload is not checked); everything else,
// signed zeros included, must match bit for bit.
inline bool sameHalf(uint16_t got, uint16_t want) {
  if (isNanBits(want)) return isNanBits(got) && (got & 0x200) != 0;
  return got == want;
}

inline std::string hex16(uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

inline std::string hexDouble(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

// ~520 binary16 values where arithmetic has edge cases: every exponent (subnormal, normal,
// inf/NaN) with the significands 0, 1, 2, half-way and all-ones patterns, both signs; plus
// NaNs with several payloads (quiet and signalling) and a few values with long significands.
inline std::vector<uint16_t> edgeHalves() {
  std::vector<uint16_t> v;
  const uint16_t mantissas[] = {0x000, 0x001, 0x002, 0x0ff, 0x1ff, 0x200, 0x201, 0x2aa, 0x3fe, 0x3ff};
  for (uint16_t sign : {0x0000, 0x8000}) {
    for (uint16_t e = 0; e < 31; ++e)
      for (uint16_t m : mantissas) v.push_back(uint16_t(sign | (e << 10) | m));
    v.push_back(uint16_t(sign | 0x7c00));                                                      // inf
    for (uint16_t m : {0x200, 0x3ff, 0x001, 0x155}) v.push_back(uint16_t(sign | 0x7c00 | m));  // NaNs
    for (uint16_t x : {0x3555, 0x4248, 0x3c01, 0x5bff, 0x6400, 0x7bfe, 0x0400, 0x03ff, 0x1400, 0x1000})
      v.push_back(uint16_t(sign | x));
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Every binary16 value as an MPFR number at precision 11 (exact), decoded by setExact from
// the bits (not through toFloat). Read-only, shared by all threads.
class HalfTable {
 public:
  HalfTable() : v_(65536) {
    for (uint32_t i = 0; i < 65536; ++i) {
      mpfr_init2(v_[i].x, 11);
      setExact(v_[i].x, Half{uint16_t(i)});
    }
  }
  ~HalfTable() {
    for (auto& e : v_) mpfr_clear(e.x);
  }
  HalfTable(const HalfTable&) = delete;
  HalfTable& operator=(const HalfTable&) = delete;
  mpfr_srcptr operator[](uint16_t h) const { return v_[h].x; }

 private:
  struct Entry {
    mpfr_t x;
  };
  std::vector<Entry> v_;
};

inline const HalfTable& halfTable() {
  static const HalfTable table;
  return table;
}

// MPFR reference for one binary16 operation, evaluated in binary16's exponent range: MPFR
// rounds the exact result to 11 bits (overflow and underflow by the current range) and
// mpfr_subnormalize applies the subnormal precision (IEEE 754-2008 §4.3.1 [external] roundTiesToEven,
// §7.4 [external] overflow, §7.5 [external] underflow). The range is narrowed only around the MPFR call, so the
// code under test always runs in MPFR's default range.
class HalfReference {
 public:
  HalfReference() { mpfr_init2(r_, 11); }
  ~HalfReference() { mpfr_clear(r_); }
  HalfReference(const HalfReference&) = delete;
  HalfReference& operator=(const HalfReference&) = delete;

  using Binary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  uint16_t binary(Binary op, uint16_t a, uint16_t b) {
    const auto& t = halfTable();
    ExponentRangeGuard range(Format::Half);
    return finish(op(r_, t[a], t[b], MPFR_RNDN));
  }
  uint16_t sqrt(uint16_t a) {
    ExponentRangeGuard range(Format::Half);
    return finish(mpfr_sqrt(r_, halfTable()[a], MPFR_RNDN));
  }
  uint16_t fma(uint16_t a, uint16_t b, uint16_t c) {
    const auto& t = halfTable();
    ExponentRangeGuard range(Format::Half);
    return finish(mpfr_fma(r_, t[a], t[b], t[c], MPFR_RNDN));
  }

 private:
  uint16_t finish(int ternary) {
    mpfr_subnormalize(r_, ternary, MPFR_RNDN);
    return uint16_t(encode(r_, Format::Half));
  }
  mpfr_t r_;
};

}  // namespace clref::numerics::test
