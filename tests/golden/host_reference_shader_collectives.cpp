// Host references of the golden corpus's shaders of work-group, subgroup and atomic operations (golden/shaders/,
// cases golden/cases/shader_*.json): plain C++ computations written from the shader sources, independent of clref.
// The subgroup shaders store 1 where a subgroup operation agrees with the shader's own recomputation over its
// subgroup, so their expected output is all ones for every subgroup size; the atomics store values every order of the
// atomic operations gives (golden/README.md). Arguments: the resources in descriptor set and binding order.
#include <algorithm>
#include <cstdint>

#include "tests/golden/host_bytes.hpp"
#include "tests/golden/host_reference.hpp"

namespace clref::golden {

namespace {

using cli::Case;

template <class T> T load(const std::vector<std::byte>& bytes, size_t i) { return loadAt<T>(bytes, i * sizeof(T)); }
template <class T> void store(std::vector<std::byte>& bytes, size_t i, T v) { storeAt<T>(bytes, i * sizeof(T), v); }

uint32_t groupCount(const Case& c) {
  if (!c.dispatch || (*c.dispatch)[1] != 1 || (*c.dispatch)[2] != 1) shapeError(c, "expected a 1-D dispatch");
  return (*c.dispatch)[0];
}

// A shader whose every result is a 1 (an agreement): `perGroup` words per work-group.
HostReference allAgree(size_t output, size_t perGroup) {
  return [output, perGroup](const Case& c, ArgBytes& a) {
    for (size_t i = 0; i < groupCount(c) * perGroup; ++i) store(a[output], i, 1u);
  };
}

// groupshared_reduce.hlsl: sums[g] = the sum, modulo 2^32, of group g's 64 values; maximum[0] = the largest value
// and its initial one.
void groupsharedReduceHlsl(const Case& c, ArgBytes& a) {
  int32_t high = load<int32_t>(a[2], 0);
  for (uint32_t g = 0; g < groupCount(c); ++g) {
    uint32_t sum = 0;
    for (uint32_t l = 0; l < 64; ++l) {
      const int32_t v = load<int32_t>(a[0], g * 64 + l);
      sum += uint32_t(v);
      high = std::max(high, v);
    }
    store(a[1], g, int32_t(sum));
  }
  store(a[2], 0, high);
}

// atomics_int64.comp: Acc {sum, lo, hi, bits, parity, count} (64-bit each): sum += v (modulo 2^64), lo = min, hi =
// max, bits |= v & 0xf0f0…, parity ^= v · 0x9e3779b97f4a7c15 (modulo 2^64), count += 2^32 per invocation.
void atomicsInt64(const Case& c, ArgBytes& a) {
  uint64_t sum = load<uint64_t>(a[1], 0), bits = load<uint64_t>(a[1], 3), parity = load<uint64_t>(a[1], 4);
  int64_t lo = load<int64_t>(a[1], 1), hi = load<int64_t>(a[1], 2);
  const size_t n = size_t(groupCount(c)) * 32;
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = load<int64_t>(a[0], i);
    const auto u = uint64_t(v);
    sum += u;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    bits |= u & 0xf0f0f0f0f0f0f0f0u;
    parity ^= u * 0x9e3779b97f4a7c15u;
  }
  store(a[1], 0, sum);
  store(a[1], 1, lo);
  store(a[1], 2, hi);
  store(a[1], 3, bits);
  store(a[1], 4, parity);
  store(a[1], 5, load<uint64_t>(a[1], 5) + (uint64_t(n) << 32));
}

// atomics_float.comp: Acc {float total; float groupTotals[]}: total += every value; groupTotals[g] = group g's sum;
// groupTotals[groups + g] = 1.0 (the exchanged value is one of the group's inputs). The case's values make every
// partial sum exact, so summing in index order gives what every order gives.
void atomicsFloat(const Case& c, ArgBytes& a) {
  const uint32_t n = groupCount(c);
  float total = load<float>(a[1], 0);
  for (uint32_t g = 0; g < n; ++g) {
    float group = 0.0f;
    for (uint32_t l = 0; l < 64; ++l) {
      const float v = load<float>(a[0], g * 64 + l);
      total += v;
      group += v;
    }
    store(a[1], 1 + g, group);
    store(a[1], 1 + n + g, 1.0f);
  }
  store(a[1], 0, total);
}

// atomic_compswap.comp: Acc {uint product; uint owners[]}: product ·= (f | 1) for every factor f, modulo 2^32; group
// g's 33 words at 33·g: slot l's owner (the invocation m with 7·m mod 32 = l, stored as m + 1), then the product of
// the group's factors.
void atomicCompSwap(const Case& c, ArgBytes& a) {
  uint32_t product = load<uint32_t>(a[1], 0);
  for (uint32_t g = 0; g < groupCount(c); ++g) {
    uint32_t group = 1;
    for (uint32_t m = 0; m < 32; ++m) {
      const uint32_t f = load<uint32_t>(a[0], g * 32 + m) | 1u;
      product *= f;
      group *= f;
      store(a[1], 1 + g * 33 + (7 * m) % 32, m + 1);
    }
    store(a[1], 1 + g * 33 + 32, group);
  }
  store(a[1], 0, product);
}

}  // namespace

std::vector<std::pair<std::string, HostReference>> shaderCollectiveHostReferences() {
  return {
      {"shader_groupshared_reduce_hlsl", groupsharedReduceHlsl},
      {"shader_wave_ops_hlsl", allAgree(1, 96 * 7)},
      {"shader_subgroup_arithmetic", allAgree(1, 80 * 11)},
      {"shader_subgroup_shuffle", allAgree(1, 128 * 9)},
      {"shader_subgroup_vote_quad", allAgree(1, 128 * 12)},
      {"shader_atomics_int64", atomicsInt64},
      {"shader_atomics_float", atomicsFloat},
      {"shader_atomic_compswap", atomicCompSwap},
  };
}

}  // namespace clref::golden
