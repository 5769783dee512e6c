// Host references of the golden corpus's Vulkan compute shaders (golden/shaders/, cases golden/cases/shader_*.json):
// plain C++ computations written from the GLSL, HLSL or SPIR-V assembly source of each shader, with the std430 and
// std140 layouts worked out by hand from GLSL 4.60 §4.4.5 [external], independent of clref. A shader case's
// arguments are its resources in descriptor set and binding order, the push constants last (golden/README.md).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tests/golden/host_bytes.hpp"
#include "tests/golden/host_half.hpp"
#include "tests/golden/host_reference.hpp"

namespace clref::golden {

namespace {

using cli::ArgSpec;
using cli::Case;

template <class T> T load(const std::vector<std::byte>& bytes, size_t i) { return loadAt<T>(bytes, i * sizeof(T)); }
template <class T> void store(std::vector<std::byte>& bytes, size_t i, T v) { storeAt<T>(bytes, i * sizeof(T), v); }

// The work-groups of the case's dispatch.
std::array<uint32_t, 3> groups(const Case& c) {
  if (!c.dispatch) shapeError(c, "expected a dispatch");
  return *c.dispatch;
}

size_t elements(const std::vector<std::byte>& bytes, size_t size) { return bytes.size() / size; }

// saxpy.comp: y[i] = a·x[i] + y[i] for i < n; push constants {float a; uint n}. Invocations: 64 per group.
void saxpy(const Case& c, ArgBytes& a) {
  const float k = load<float>(a[2], 0);
  const uint32_t n = load<uint32_t>(a[2], 1);
  const size_t invocations = size_t(groups(c)[0]) * 64;
  for (size_t i = 0; i < invocations && i < n; ++i) {
    const float product = k * load<float>(a[0], i);
    store(a[1], i, product + load<float>(a[1], i));
  }
}

// reduce_shared.comp: per group of L = spec constant 0 invocations, the sum of values[g] for g < count.
void reduceShared(const Case& c, ArgBytes& a) {
  uint32_t local = 0;
  for (const auto& [id, bytes] : c.specConstants)
    if (id == 0) std::memcpy(&local, bytes.data(), 4);
  if (local == 0) shapeError(c, "spec constant 0 (the work-group size) is not set");
  const uint32_t count = load<uint32_t>(a[2], 0);
  for (uint32_t g = 0; g < groups(c)[0]; ++g) {
    int32_t sum = 0;
    for (uint32_t l = 0; l < local; ++l)
      if (g * local + l < count) sum += load<int32_t>(a[0], g * local + l);
    store(a[1], g, sum);
  }
}

// scan_shared.comp: an inclusive prefix sum, modulo 2^32, within each group of 64.
void scanShared(const Case& c, ArgBytes& a) {
  for (uint32_t g = 0; g < groups(c)[0]; ++g) {
    uint32_t running = 0;
    for (uint32_t l = 0; l < 64; ++l) {
      running += load<uint32_t>(a[0], g * 64 + l);
      store(a[0], g * 64 + l, running);
    }
  }
}

// transpose_tile.comp: src is height × width (row-major), dst width × height: dst[r·height + c] = src[c·width + r].
void transposeTile(const Case& c, ArgBytes& a) {
  const uint32_t width = load<uint32_t>(a[2], 0), height = load<uint32_t>(a[2], 1);
  if (width != groups(c)[0] * 8 || height != groups(c)[1] * 8) shapeError(c, "width and height must fill the dispatch");
  for (uint32_t r = 0; r < width; ++r)
    for (uint32_t col = 0; col < height; ++col) store(a[1], r * height + col, load<uint32_t>(a[0], col * width + r));
}

// histogram_atomic.comp: bins[b] += the number of bytes of the input words whose low nibble is b.
void histogramAtomic(const Case& c, ArgBytes& a) {
  const size_t words = size_t(groups(c)[0]) * 32;
  for (size_t i = 0; i < words; ++i) {
    const uint32_t w = load<uint32_t>(a[0], i);
    for (int b = 0; b < 4; ++b) {
      const uint32_t bin = (w >> (8 * b)) & 15u;
      store(a[1], bin, load<uint32_t>(a[1], bin) + 1u);
    }
  }
}

// ids_3d.comp: local size (2, 3, 2); a record of 13 uints per invocation at its global linear index.
void ids3d(const Case& c, ArgBytes& a) {
  const auto n = groups(c);
  const uint32_t local[3] = {2, 3, 2};
  const uint32_t total[3] = {n[0] * local[0], n[1] * local[1], n[2] * local[2]};
  for (uint32_t z = 0; z < total[2]; ++z)
    for (uint32_t y = 0; y < total[1]; ++y)
      for (uint32_t x = 0; x < total[0]; ++x) {
        const uint32_t g[3] = {x, y, z};
        const size_t at = (size_t(z * total[1] + y) * total[0] + x) * 13;
        for (int d = 0; d < 3; ++d) {
          store(a[0], at + d, g[d]);
          store(a[0], at + 3 + d, g[d] % local[d]);
          store(a[0], at + 6 + d, g[d] / local[d]);
          store(a[0], at + 9 + d, n[d]);
        }
        store(a[0], at + 12, ((g[2] % local[2]) * local[1] + g[1] % local[1]) * local[0] + g[0] % local[0]);
      }
}

// int_ops.comp: 12 results per pair (a, b); SPIR-V's integer instructions (OpSDiv truncates, OpSMod takes the sign
// of the divisor, shifts by b & 31, OpBitFieldSExtract sign-extends the field).
void intOps(const Case& c, ArgBytes& a) {
  const size_t pairs = size_t(groups(c)[0]) * 16;
  for (size_t i = 0; i < pairs; ++i) {
    const int32_t x = load<int32_t>(a[0], 2 * i), y = load<int32_t>(a[0], 2 * i + 1);
    const uint32_t ux = uint32_t(x), uy = uint32_t(y);
    const int32_t d = y == 0 ? 7 : y;
    const uint32_t s = uy & 31u;
    int32_t r[12];
    r[0] = x / d;
    const int32_t rem = x % d;
    r[1] = rem != 0 && (rem < 0) != (d < 0) ? rem + d : rem;  // glslang's % is OpSMod: the sign of the divisor
    r[2] = int32_t(ux / uint32_t(d));
    r[3] = int32_t(ux % uint32_t(d));
    r[4] = int32_t(ux << s);
    r[5] = x >> s;  // arithmetic (C++20)
    r[6] = int32_t(ux >> s);
    r[7] = (x & y) ^ (x | ~y);
    const uint32_t field = (ux >> 3) & 0x1ffu;
    r[8] = int32_t(field & 0x100u ? field | ~0x1ffu : field);
    const uint32_t mask = 0x7ffu << 5;
    r[9] = int32_t((ux & ~mask) | ((uy << 5) & mask));
    r[10] = std::popcount(ux);
    uint32_t rev = 0;
    for (int bit = 0; bit < 32; ++bit) rev |= ((ux >> bit) & 1u) << (31 - bit);
    r[11] = int32_t(rev);
    for (int k = 0; k < 12; ++k) store(a[1], i * 12 + k, r[k]);
  }
}

// struct_std430.comp: Particle {vec3 pos @0; float mass @12; vec3 vel @16; uint id @28}, 32 bytes.
void structStd430(const Case& c, ArgBytes& a) {
  const float dt = load<float>(a[1], 0);
  const size_t particles = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < particles; ++i) {
    const size_t base = i * 32;
    for (int k = 0; k < 3; ++k) {
      const float step = loadAt<float>(a[0], base + 16 + 4 * k) * dt;
      storeAt(a[0], base + 4 * k, loadAt<float>(a[0], base + 4 * k) + step);
    }
    storeAt(a[0], base + 12, loadAt<float>(a[0], base + 12) * 2.0f);
    storeAt(a[0], base + 28, loadAt<uint32_t>(a[0], base + 28) * 3u + uint32_t(i));
  }
}

// uniform_std140.comp: Params {float scale @0; vec3 offset @16; float coeffs[4] @32, stride 16; ivec3 bias @96}.
void uniformStd140(const Case&, ArgBytes& a) {
  const float scale = loadAt<float>(a[0], 0), offsetY = loadAt<float>(a[0], 20);
  for (size_t i = 0; i < 4; ++i) {
    const float product = loadAt<float>(a[0], 32 + 16 * i) * scale;
    store(a[1], i, product + offsetY);
  }
  for (size_t i = 0; i < 3; ++i) storeAt(a[1], 16 + 4 * i, loadAt<int32_t>(a[0], 96 + 4 * i));
}

// spec_constants.comp: v = float(i·step + offset)·scale, negated when `negate`; defaults false, 1, 1.0, 100.
void specConstants(const Case& c, ArgBytes& a) {
  bool negate = false;
  int32_t step = 1;
  float scale = 1.0f;
  uint32_t offset = 100;
  for (const auto& [id, bytes] : c.specConstants) {
    if (id == 1) negate = bytes.at(0) != 0;
    if (id == 2) std::memcpy(&step, bytes.data(), 4);
    if (id == 3) std::memcpy(&scale, bytes.data(), 4);
    if (id == 4) std::memcpy(&offset, bytes.data(), 4);
  }
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const float v = float(int32_t(i) * step + int32_t(offset)) * scale;
    store(a[0], i, negate ? -v : v);
  }
}

// control_flow.comp: (Collatz steps capped at 1000, a class by steps % 5 through the switch), (0, 99) for 0.
void controlFlow(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 32;
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = load<uint32_t>(a[0], i);
    if (v == 0) {
      store(a[1], 2 * i, 0u);
      store(a[1], 2 * i + 1, 99u);
      continue;
    }
    uint32_t steps = 0;
    while (v != 1 && ++steps < 1000) v = v % 2 == 0 ? v / 2 : 3 * v + 1;
    static constexpr uint32_t kClass[5] = {11, 1, 7, 7, 42};
    store(a[1], 2 * i, steps);
    store(a[1], 2 * i + 1, kClass[steps % 5]);
  }
}

// vadd.hlsl: c = a + b, 16 invocations per group.
void vaddHlsl(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 16;
  for (size_t i = 0; i < n; ++i) store(a[2], i, load<float>(a[0], i) + load<float>(a[1], i));
}

// mixed_precision.comp: Out16 {float16_t products[8] @0; int16_t sums[] @16}; 16-bit integer arithmetic wraps; a
// binary16 product of two binary16 values is exact in binary64 before its one rounding.
void mixedPrecision(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const auto byte = [&](size_t k) { return int32_t(load<uint8_t>(a[0], 4 * i + k)); };
    const int16_t sum = int16_t(int16_t(byte(0) + byte(1)) - int16_t(byte(2) * byte(3)));
    store(a[3], 8 + i, sum);
    const uint16_t h0 = load<uint16_t>(a[1], 2 * i), h1 = load<uint16_t>(a[1], 2 * i + 1);
    store(a[3], i, toHalf(halfValue(h0) * halfValue(h1)));
    const double q = load<double>(a[2], 2 * i) / load<double>(a[2], 2 * i + 1);
    store(a[4], i, q + halfValue(h0));
  }
}

// iadd.spvasm: out[i] = in[i] + i, 4 invocations per group.
void iaddSpvasm(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 4;
  for (size_t i = 0; i < n && i < elements(a[0], 4); ++i) store(a[1], i, load<uint32_t>(a[0], i) + uint32_t(i));
}

// glsl_exact.comp: 12 results per pair; GLSL.std.450's formulas (mix: x·(1 − a) + y·a, each operation rounded).
void glslExact(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const float x = load<float>(a[0], 2 * i), y = load<float>(a[0], 2 * i + 1);
    const float fl = std::floor(x);
    const float weighted = x * 0.75f, added = y * 0.25f;
    const float r[12] = {fl,
                         x - fl,
                         std::min(std::max(x, -1.5f), 2.25f),
                         std::min(x, y),
                         std::max(x, y),
                         std::fabs(x),
                         x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f,
                         weighted + added,
                         x < y ? 0.0f : 1.0f,
                         std::nearbyint(x),  // ties to even in the default rounding mode
                         std::trunc(x),
                         std::ldexp(x, 3)};
    for (int k = 0; k < 12; ++k) store(a[1], i * 12 + k, r[k]);
  }
}

// glsl_integer.comp: 10 results per word; packUnorm4x8 rounds c·255 half away from zero (the choice
// glsl_round_half's default), unpackUnorm4x8 is f / 255.
void glslInteger(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const int32_t w = load<int32_t>(a[0], i);
    const uint32_t u = uint32_t(w);
    const auto msbUnsigned = [](uint32_t v) { return v == 0 ? -1 : 31 - std::countl_zero(v); };
    const auto pack = [](float v) { return uint32_t(std::round(std::min(std::max(v, 0.0f), 1.0f) * 255.0f)); };
    const float s = float(w & 255) / 255.0f;
    const int32_t r[10] = {
        u == 0 ? -1 : std::countr_zero(u),
        msbUnsigned(w < 0 ? ~u : u),  // the most significant bit that differs from the sign
        msbUnsigned(u),
        w < 0 ? -w : w,
        w > 0 ? 1 : w < 0 ? -1 : 0,
        std::min(std::max(w, -1000), 1000),
        std::min(w, 7),
        std::max(w, -7),
        int32_t(pack(0.0f) | pack(0.5f) << 8 | pack(1.0f) << 16 | pack(s) << 24),
        std::bit_cast<int32_t>(float(u & 255) / 255.0f)};
    for (int k = 0; k < 10; ++k) store(a[1], i * 10 + k, r[k]);
  }
}

// matrix_std140.comp: m's column c at byte 16·c; r (row-major mat2x3) element (column j, row k) at 48 + 16·k + 4·j.
// Products are summed in index order, each operation rounded.
void matrixStd140(const Case& c, ArgBytes& a) {
  const auto m = [&](int col, int row) { return loadAt<float>(a[0], 16 * col + 4 * row); };
  const auto r = [&](int col, int row) { return loadAt<float>(a[0], 48 + 16 * row + 4 * col); };
  const size_t n = size_t(groups(c)[0]) * 4;
  for (size_t i = 0; i < n; ++i) {
    const float v[3] = {load<float>(a[1], 4 * i), load<float>(a[1], 4 * i + 1), load<float>(a[1], 4 * i + 2)};
    for (int row = 0; row < 3; ++row) {
      float sum = m(0, row) * v[0];
      const float p1 = m(1, row) * v[1];
      sum = sum + p1;
      const float p2 = m(2, row) * v[2];
      store(a[2], 8 * i + row, sum + p2);
    }
    store(a[2], 8 * i + 3, 0.0f);
    const float w[3] = {1.0f, 2.0f, float(i)};
    for (int j = 0; j < 2; ++j) {
      float sum = r(j, 0) * w[0];
      const float p1 = r(j, 1) * w[1];
      sum = sum + p1;
      const float p2 = r(j, 2) * w[2];
      store(a[2], 8 * i + 4 + j, sum + p2);
    }
    store(a[2], 8 * i + 6, 0.0f);
    store(a[2], 8 * i + 7, 0.0f);
  }
}

// subgroup_sizes.comp: every check agrees for any subgroup size.
void subgroupSizes(const Case& c, ArgBytes& a) {
  for (size_t i = 0; i < size_t(groups(c)[0]) * 48; ++i) store(a[0], i, 1u);
}

// atomics_mixed.comp: Acc {lo, hi, bits, parity, sum, groups} after every invocation's atomics.
void atomicsMixed(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 16;
  int32_t lo = load<int32_t>(a[1], 0), hi = load<int32_t>(a[1], 1), sum = load<int32_t>(a[1], 4);
  uint32_t bits = load<uint32_t>(a[1], 2), parity = load<uint32_t>(a[1], 3);
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = load<int32_t>(a[0], i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    bits |= uint32_t(v) & 0xff00u;
    parity ^= uint32_t(v);
    sum += v;
  }
  store(a[1], 0, lo);
  store(a[1], 1, hi);
  store(a[1], 2, bits);
  store(a[1], 3, parity);
  store(a[1], 4, sum);
  store(a[1], 5, load<uint32_t>(a[1], 5) + groups(c)[0]);
}

// structured_buffer.hlsl: Body {float3 velocity @0; float mass @12; int2 cell @16; uint flags @24}, 32 bytes (std430,
// the layout glslang gives HLSL structured buffers); forces are float2s, 8 bytes apart.
void structuredBufferHlsl(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const size_t base = i * 32;
    const float mass = loadAt<float>(a[0], base + 12);
    float v[2];
    for (int k = 0; k < 2; ++k) {
      const float share = load<float>(a[1], 2 * i + k) / mass;
      v[k] = loadAt<float>(a[0], base + 4 * k) + share;
      storeAt(a[0], base + 4 * k, v[k]);
      storeAt(a[0], base + 16 + 4 * k, int32_t(v[k]));  // OpConvertFToS truncates
    }
    storeAt(a[0], base + 8, -loadAt<float>(a[0], base + 8));
    storeAt(a[0], base + 24, loadAt<uint32_t>(a[0], base + 24) << 1 | 1u);
  }
}

// matrix_std430.comp: Matrices {mat2 m2 @0 (columns 8 bytes apart); mat3 m3 @16 (columns 16 apart); row-major mat4
// m4 @64 (rows 16 apart); mat2x3 arr[2] @128, stride 32 (columns 16 apart)}; 31 results per invocation. A matrix
// product's element (column j, row r) is Σ_k left(k, r)·right(j, k) summed from k = 0, each operation rounded.
void matrixStd430(const Case& c, ArgBytes& a) {
  const auto m2 = [&](int col, int row) { return loadAt<float>(a[0], 8 * col + 4 * row); };
  const auto m3 = [&](int col, int row) { return loadAt<float>(a[0], 16 + 16 * col + 4 * row); };
  const auto m4 = [&](int col, int row) { return loadAt<float>(a[0], 64 + 16 * row + 4 * col); };
  const auto arr = [&](int k, int col, int row) { return loadAt<float>(a[0], 128 + 32 * k + 16 * col + 4 * row); };
  const size_t n = size_t(groups(c)[0]) * 2;
  for (size_t i = 0; i < n; ++i) {
    float v[4];
    for (int k = 0; k < 4; ++k) v[k] = load<float>(a[1], 4 * i + k);
    float r[31];
    for (int row = 0; row < 4; ++row) {  // m4 · v
      float sum = m4(0, row) * v[0];
      for (int k = 1; k < 4; ++k) {
        const float p = m4(k, row) * v[k];
        sum = sum + p;
      }
      r[row] = sum;
    }
    for (int col = 0; col < 4; ++col) {  // v · m4: column col dotted with v
      float sum = v[0] * m4(col, 0);
      for (int k = 1; k < 4; ++k) {
        const float p = v[k] * m4(col, k);
        sum = sum + p;
      }
      r[4 + col] = sum;
    }
    for (int e = 0; e < 4; ++e) {  // m2 · m2, element (column e / 2, row e % 2)
      const int col = e / 2, row = e % 2;
      const float p0 = m2(0, row) * m2(col, 0), p1 = m2(1, row) * m2(col, 1);
      r[8 + e] = p0 + p1;
      r[12 + e] = v[row] * v[2 + col];  // outerProduct(v.xy, v.zw): column col is v.xy · v.zw[col]
    }
    for (int e = 0; e < 9; ++e) r[16 + e] = m3(e % 3, e / 3) * 2.0f;  // transpose(m3) · 2
    for (int k = 0; k < 2; ++k)
      for (int row = 0; row < 3; ++row) {
        const float p0 = arr(k, 0, row) * 1.0f, p1 = arr(k, 1, row) * 2.0f;
        r[25 + 3 * k + row] = p0 + p1;
      }
    for (int k = 0; k < 31; ++k) store(a[2], i * 31 + k, r[k]);
  }
}

// spec_push_layout.comp: a work-group of X × Y (spec constants 0 and 1, default 1), bias (2, default 5); Push
// {vec4 scale @0; uint stride @16}. Invocation l of group (gx, gy) writes 3 floats at
// (gx + gy·groups_x)·X·Y·stride + l·stride: (l + 1000 + bias)·scale.x, l·scale.y + scale.z, 2·X·Y·scale.w.
void specPushLayout(const Case& c, ArgBytes& a) {
  uint32_t x = 1, y = 1;
  int32_t bias = 5;
  for (const auto& [id, bytes] : c.specConstants) {
    if (id == 0) std::memcpy(&x, bytes.data(), 4);
    if (id == 1) std::memcpy(&y, bytes.data(), 4);
    if (id == 2) std::memcpy(&bias, bytes.data(), 4);
  }
  float scale[4];
  for (int k = 0; k < 4; ++k) scale[k] = load<float>(a[1], k);
  const uint32_t stride = loadAt<uint32_t>(a[1], 16);
  const auto n = groups(c);
  for (uint32_t gy = 0; gy < n[1]; ++gy)
    for (uint32_t gx = 0; gx < n[0]; ++gx)
      for (uint32_t l = 0; l < x * y; ++l) {
        const size_t at = size_t(gx + gy * n[0]) * x * y * stride + l * stride;
        const float mirror = float(l + 1000u) + float(bias);
        store(a[0], at, mirror * scale[0]);
        const float scaled = float(l) * scale[1];
        store(a[0], at + 1, scaled + scale[2]);
        store(a[0], at + 2, float(2 * x * y) * scale[3]);
      }
}

// float_controls.spvasm: x · 0.5, x + x and binary32(binary64(x) · 2^-20) per input, 8 invocations per group. The
// "flush" entry point (DenormFlushToZero 32) flushes binary32 denormal operands and results to a zero of their sign;
// the "preserve" one (DenormPreserve 32) keeps them. Binary64 values are never flushed (no mode for width 64).
void floatControls(const Case& c, ArgBytes& a) {
  const bool flush = c.kernel == "flush";
  if (!flush && c.kernel != "preserve") shapeError(c, "the entry point is \"preserve\" or \"flush\"");
  const auto f = [&](float v) { return flush && std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v; };
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const float x = f(load<float>(a[0], i));
    store(a[1], 3 * i, f(x * 0.5f));
    store(a[1], 3 * i + 1, f(x + x));
    store(a[1], 3 * i + 2, f(float(double(x) * 0x1p-20)));
  }
}

// explicit_types.comp: 8 int16 results per invocation from bytes a = bytes[2i], b = bytes[2i + 1] and halves h =
// halves[2i..2i+1]; 8- and 16-bit integer operations wrap at their width (OpSDiv truncates, OpSMod takes the sign of
// the divisor), float16 operations round to binary16 each, and float16 → int16 truncates.
void explicitTypes(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 16;
  for (size_t i = 0; i < n; ++i) {
    const int8_t x = load<int8_t>(a[0], 2 * i), y = load<int8_t>(a[0], 2 * i + 1);
    const int8_t d = y == 0 || y == -1 ? 3 : y;
    const auto u = uint16_t(uint16_t(uint8_t(x)) << 8 | uint8_t(y));
    const double h0 = halfValue(load<uint16_t>(a[1], 2 * i)), h1 = halfValue(load<uint16_t>(a[1], 2 * i + 1));
    const int rem = x % d;
    const int16_t r[8] = {int16_t(int8_t(x * y)),
                          int16_t(int8_t(x / d)),
                          int16_t(int8_t(rem != 0 && (rem < 0) != (d < 0) ? rem + d : rem)),
                          int16_t(uint16_t(u >> 3 | u << 13)),
                          int16_t(uint8_t(u + i)),
                          int16_t(std::trunc(halfValue(toHalf(double(x) * h0)))),
                          int16_t(int16_t(x) * int16_t(y) - int16_t(i)),
                          int16_t(int16_t(u) >> 2)};
    for (int k = 0; k < 8; ++k) store(a[2], i * 8 + k, r[k]);
    const uint16_t product = toHalf(h0 * h1);  // h.x · h.y and h.y · h.x are the same binary16 product
    const uint16_t sum = toHalf(halfValue(product) + 0.5);
    store(a[3], 2 * i, sum);
    store(a[3], 2 * i + 1, sum);
  }
}

// integer_dot.spvasm: per pair of words (a, b) and accumulator c, the dot products of their bytes (byte k in bits 8k
// to 8k + 7) read as signed·signed, unsigned·unsigned and signed·unsigned, then each plus c (as int for the signed
// forms) saturated to the 32-bit result type (SPIR-V 1.6 §3.52.13 [external] OpSDotAccSat and the others).
void integerDotSpvasm(const Case& c, ArgBytes& a) {
  const auto sat = [](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = load<uint32_t>(a[0], 2 * i), y = load<uint32_t>(a[0], 2 * i + 1), acc = load<uint32_t>(a[1], i);
    int64_t ss = 0, uu = 0, su = 0;
    for (int k = 0; k < 4; ++k) {
      const uint8_t xb = uint8_t(x >> (8 * k)), yb = uint8_t(y >> (8 * k));
      ss += int64_t(int8_t(xb)) * int8_t(yb);
      uu += int64_t(xb) * yb;
      su += int64_t(int8_t(xb)) * yb;
    }
    const int64_t lo = INT32_MIN, hi = INT32_MAX, signedAcc = int32_t(acc);
    const int64_t r[6] = {
        ss, uu, su, sat(ss + signedAcc, lo, hi), sat(uu + acc, 0, UINT32_MAX), sat(su + signedAcc, lo, hi)};
    for (int k = 0; k < 6; ++k) store(a[2], 6 * i + k, uint32_t(r[k]));
  }
}

// The determinant of the n×n sub-matrix of `m` (element (column, row) = m[column][row]) made of the listed rows and
// columns, exactly: the case's elements are small integers.
int64_t exactDeterminant(const float (&m)[4][4], const int* rows, const int* cols, int n) {
  if (n == 1) return int64_t(m[cols[0]][rows[0]]);
  int64_t sum = 0;
  for (int k = 0; k < n; ++k) {
    int minorRows[3];
    for (int r = 0, o = 0; r < n; ++r)
      if (r != k) minorRows[o++] = rows[r];
    const int64_t term = int64_t(m[cols[0]][rows[k]]) * exactDeterminant(m, minorRows, cols + 1, n - 1);
    sum += k % 2 ? -term : term;
  }
  return sum;
}

// matrix_inverse.comp: per mat4 (std430: column c at 16·c bytes) and its upper-left mat3 and mat2: the three exact
// determinants, then inverse(m)[column c][row r] = (−1)^(r+c)·det(m without row c and column r) / det(m), one
// rounded division (GLSL 4.60 §8.6 [external]: the inverse, here through the adjugate, exact until the division).
void matrixInverse(const Case& c, ArgBytes& a) {
  const int all[4] = {0, 1, 2, 3};
  const size_t n = size_t(groups(c)[0]) * 4;
  for (size_t i = 0; i < n; ++i) {
    float m[4][4];
    for (int col = 0; col < 4; ++col)
      for (int row = 0; row < 4; ++row) {
        m[col][row] = load<float>(a[0], 16 * i + 4 * col + row);
        if (m[col][row] != std::trunc(m[col][row]) || std::fabs(m[col][row]) > 100)
          shapeError(c, "matrix elements must be small integers");
      }
    size_t at = 32 * i + 3;
    for (int size = 2; size <= 4; ++size) {
      const int64_t det = exactDeterminant(m, all, all, size);
      if (det == 0) shapeError(c, "a singular matrix");
      store(a[1], 32 * i + size - 2, float(det));
      for (int col = 0; col < size; ++col)
        for (int row = 0; row < size; ++row) {
          int rows[3], cols[3];
          for (int k = 0, o = 0; k < size; ++k)
            if (k != col) rows[o++] = k;
          for (int k = 0, o = 0; k < size; ++k)
            if (k != row) cols[o++] = k;
          const int64_t minor = exactDeterminant(m, rows, cols, size - 1);
          if (minor == 0) shapeError(c, "a zero cofactor (its sign would be the evaluation order's)");
          const int64_t cofactor = (row + col) % 2 ? -minor : minor;
          store(a[1], at++, float(cofactor) / float(det));  // both exact in binary32: one rounding
        }
    }
  }
}

// byte_address.hlsl: cbuffer Params {float4 scaleBias @0; uint stride @16}; invocation i reads the words of src at
// byte i·stride: w0..w3, then p0, p1 at +16 and +20, and q at +24; it writes at byte 4 + 12·i of dst
// float(w0)·scale + bias (bits), w1 ^ w2, p0 + p1 + w3, and adds q to dst's word 0 (all modulo 2^32).
void byteAddressHlsl(const Case& c, ArgBytes& a) {
  const float scale = load<float>(a[0], 0), bias = load<float>(a[0], 1);
  const uint32_t stride = loadAt<uint32_t>(a[0], 16);
  uint32_t sum = load<uint32_t>(a[2], 0);
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const size_t base = i * stride, at = 4 + 12 * i;
    const auto word = [&](size_t offset) { return loadAt<uint32_t>(a[1], base + offset); };
    const float scaled = std::bit_cast<float>(word(0)) * scale;
    storeAt(a[2], at, std::bit_cast<uint32_t>(scaled + bias));
    storeAt(a[2], at + 4, word(4) ^ word(8));
    storeAt(a[2], at + 8, word(16) + word(20) + word(12));
    sum += word(24);
  }
  store(a[2], 0, sum);
}

// scalar_layout.comp (layout(scalar): each member aligned to its scalar): Sample {float weight @0; vec3 position @4;
// vec2 uv @16}, 24 bytes; offsets are vec3s 12 bytes apart; Result {vec3 moved @0; float area @12}, 16 bytes.
void scalarLayout(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 8;
  for (size_t i = 0; i < n; ++i) {
    const size_t sample = 24 * i, result = 16 * i;
    const float weight = loadAt<float>(a[0], sample);
    for (int k = 0; k < 3; ++k) {
      const float step = loadAt<float>(a[1], 12 * i + 4 * k) * weight;
      storeAt(a[2], result + 4 * k, loadAt<float>(a[0], sample + 4 + 4 * k) + step);
    }
    storeAt(a[2], result + 12, loadAt<float>(a[0], sample + 16) * loadAt<float>(a[0], sample + 20));
  }
}

// matrix_arrays_std140.comp: Matrices (std140) {mat2 rot[2] @0: rot[k] (column c, row r) at 32·k + 16·c + 4·r;
// row-major mat3x2 rm[2] @64: rm[k] (column c, row r) at 64 + 32·k + 16·r + 4·c}; Doubles {dmat2 dm}: (c, r) at
// 16·c + 8·r. Out: rot[0]·v.xy, rot[1]·v.xy, rm[0]·v.xyz, rm[1]·v.xyz per invocation; OutDoubles: dm·dvec2(v.xy).
void matrixArraysStd140(const Case& c, ArgBytes& a) {
  const size_t n = size_t(groups(c)[0]) * 4;
  for (size_t i = 0; i < n; ++i) {
    float v[3];
    for (int k = 0; k < 3; ++k) v[k] = load<float>(a[2], 4 * i + k);
    for (int k = 0; k < 2; ++k)
      for (int row = 0; row < 2; ++row) {
        const auto rot = [&](int col) { return loadAt<float>(a[0], 32 * k + 16 * col + 4 * row); };
        const float p0 = rot(0) * v[0], p1 = rot(1) * v[1];
        store(a[3], 8 * i + 2 * k + row, p0 + p1);
        const auto rm = [&](int col) { return loadAt<float>(a[0], 64 + 32 * k + 16 * row + 4 * col); };
        float sum = rm(0) * v[0];
        for (int col = 1; col < 3; ++col) {
          const float p = rm(col) * v[col];
          sum = sum + p;
        }
        store(a[3], 8 * i + 4 + 2 * k + row, sum);
      }
    for (int row = 0; row < 2; ++row) {
      const double p0 = loadAt<double>(a[1], 8 * row) * double(v[0]), p1 = loadAt<double>(a[1], 16 + 8 * row) * v[1];
      store(a[4], 2 * i + row, p0 + p1);
    }
  }
}

// descriptor_arrays.comp: Data {uint v[]} data[3] at binding 0 (arguments 0–2, one per array element), std140
// Scale {uint mul @0; uint add @4} scale[2] at binding 1 (arguments 3–4), Out {uint o[]} at binding 2 (argument 5);
// 8 invocations per group. Invocation i (local l, group g): o[i] = data[g].v[l]·scale[g & 1].mul + scale[1].add +
// data[i % 3].v[8 + l] + data[1].v[39] + length(data[1].v); then data[g].v[16 + l] = i, and in group 0
// data[2].v[24 + l] = scale[0].mul + l. The reads (v[0..15], data[1].v[39]) never meet the writes (v[16..31]).
void descriptorArrays(const Case& c, ArgBytes& a) {
  const size_t length1 = elements(a[1], 4);
  std::vector<std::pair<size_t, size_t>> writes;  // (argument, element) of each store, after every read
  std::vector<uint32_t> values;
  for (uint32_t g = 0; g < groups(c)[0]; ++g)
    for (uint32_t l = 0; l < 8; ++l) {
      const uint32_t i = g * 8 + l;
      const uint32_t sum = load<uint32_t>(a[g], l) * load<uint32_t>(a[3 + (g & 1)], 0) + load<uint32_t>(a[4], 1) +
                           load<uint32_t>(a[i % 3], 8 + l) + load<uint32_t>(a[1], 39) + uint32_t(length1);
      store(a[5], i, sum);
      writes.push_back({g, 16 + l});
      values.push_back(i);
      if (g == 0) {
        writes.push_back({2, 24 + l});
        values.push_back(load<uint32_t>(a[3], 0) + l);
      }
    }
  for (size_t k = 0; k < writes.size(); ++k) store(a[writes[k].first], writes[k].second, values[k]);
}

// buffer_reference_list.comp: Nodes (argument 0) is a list of 16-byte nodes {Node next @0; uint value @8}, Out
// (argument 1) 8 uints, the push constants {Node head; Word out0}. The list is read from the case file itself, not
// from the materialised bytes (whose addresses are clref's to choose): node k's next is the node its "address_of"
// offset names (offset / 16), or none for 0; the head is the node the first push constant names. Invocation i skips
// i nodes and writes sum · 16 + count of the rest at out0 + 4·i.
void bufferReferenceList(const Case& c, ArgBytes& a) {
  const auto values = nlohmann::json::parse(c.args[0].buffer.initJson)["values"];
  const auto head = nlohmann::json::parse(c.args[2].buffer.initJson)["values"][0];
  constexpr size_t kNone = SIZE_MAX;
  const auto nodeAt = [&](const nlohmann::json& v) {
    return v.is_object() ? size_t(v.value("offset", uint64_t(0)) / 16) : kNone;
  };
  for (uint32_t i = 0; i < 8 * groups(c)[0]; ++i) {
    size_t n = nodeAt(head);
    for (uint32_t k = 0; k < i && n != kNone; ++k) n = nodeAt(values[2 * n]);
    uint32_t sum = 0, count = 0;
    for (; n != kNone; n = nodeAt(values[2 * n])) {
      sum += values[2 * n + 1].get<uint32_t>();
      ++count;
    }
    store(a[1], i, sum * 16 + count);
  }
}

}  // namespace

std::vector<std::pair<std::string, HostReference>> shaderHostReferences() {
  std::vector<std::pair<std::string, HostReference>> list = {
      {"shader_saxpy", saxpy},
      {"shader_reduce_shared", reduceShared},
      {"shader_scan_shared", scanShared},
      {"shader_transpose_tile", transposeTile},
      {"shader_histogram_atomic", histogramAtomic},
      {"shader_ids_3d", ids3d},
      {"shader_int_ops", intOps},
      {"shader_struct_std430", structStd430},
      {"shader_uniform_std140", uniformStd140},
      {"shader_spec_constants", specConstants},
      {"shader_control_flow", controlFlow},
      {"shader_vadd_hlsl", vaddHlsl},
      {"shader_mixed_precision", mixedPrecision},
      {"shader_iadd_spvasm", iaddSpvasm},
      {"shader_glsl_exact", glslExact},
      {"shader_glsl_integer", glslInteger},
      {"shader_matrix_std140", matrixStd140},
      {"shader_subgroup_sizes", subgroupSizes},
      {"shader_atomics_mixed", atomicsMixed},
      {"shader_structured_buffer_hlsl", structuredBufferHlsl},
      {"shader_matrix_std430", matrixStd430},
      {"shader_spec_push_layout", specPushLayout},
      {"shader_float_controls_preserve", floatControls},
      {"shader_float_controls_flush", floatControls},
      {"shader_explicit_types", explicitTypes},
      {"shader_integer_dot_spvasm", integerDotSpvasm},
      {"shader_matrix_inverse", matrixInverse},
      {"shader_byte_address_hlsl", byteAddressHlsl},
      {"shader_scalar_layout", scalarLayout},
      {"shader_matrix_arrays_std140", matrixArraysStd140},
      {"shader_descriptor_arrays", descriptorArrays},
      {"shader_buffer_reference_list", bufferReferenceList},
  };
  for (auto* more : {shaderFunctionHostReferences, shaderCollectiveHostReferences}) {
    auto refs = more();
    list.insert(list.end(), refs.begin(), refs.end());
  }
  return list;
}

}  // namespace clref::golden
