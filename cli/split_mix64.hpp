// SplitMix64, the generator behind every random stream of a case file (golden/README.md
// "Random streams"). Written out here so the stream is fixed by the README, not by a library.
#pragma once
#include <cstdint>

namespace clref::cli {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // u = (z >> 11) · 2⁻⁵³: 53 random bits as a double in [0, 1), exactly.
  static double unit(uint64_t z) { return double(z >> 11) * 0x1p-53; }

 private:
  uint64_t state_;
};

}  // namespace clref::cli
