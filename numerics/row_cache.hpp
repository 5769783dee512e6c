// Answers kept by row key: the operation (an OpenCL.std function or a core operation), the format, the profile and the
// accuracy option that together pick the accuracy table's rows. Looking a row up scans the table; the shadow mode asks
// for the same few rows at every floating-point instruction, from every thread that runs one. Each cache is one map
// under a lock, with a small direct-mapped table per thread in front of it, which answers the repeated questions
// without the lock. Internal to numerics.
#pragma once
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "numerics/accuracy.hpp"
#include "numerics/math.hpp"

namespace clref::numerics {

// The key of (fn or core, format, profile, fp32CorrectlyRoundedDivideSqrt), packed into one word.
inline uint64_t rowKey(std::optional<MathFn> fn, CoreOp core, Format format, Profile profile, bool crDivSqrt) {
  return (uint64_t(fn ? uint32_t(*fn) + 1 : 0) << 24) | (uint64_t(core) << 12) | (uint64_t(format) << 8) |
         (uint64_t(profile) << 1) | uint64_t(crDivSqrt);
}

// One cache of Values by rowKey; Tag makes each cache's per-thread table its own. Values stay where they were put (the
// map's nodes do not move), so callers keep a reference.
template <class Value, class Tag> class RowCache {
 public:
  // The value of `key`, computed by compute() the first time any thread asks.
  template <class Compute> const Value& get(uint64_t key, Compute&& compute) {
    Recent& slot = recent()[(key * 0x9E3779B97F4A7C15ull) >> 60];
    if (slot.key == key) return *slot.value;
    std::lock_guard lock(mutex_);
    auto it = values_.find(key);
    if (it == values_.end()) it = values_.emplace(key, compute()).first;
    slot = {key, &it->second};
    return it->second;
  }

 private:
  struct Recent {
    uint64_t key = ~uint64_t(0);
    const Value* value = nullptr;
  };
  static std::array<Recent, 16>& recent() {
    thread_local std::array<Recent, 16> table;
    return table;
  }
  std::mutex mutex_;
  std::unordered_map<uint64_t, Value> values_;
};

}  // namespace clref::numerics
