// Host references for golden/cases/*.json (see host_reference.hpp). Each function below mirrors
// one kernel of golden/kernels/ statement by statement, in plain C++ with the OpenCL C rules
// spelled out where C++ differs or could differ:
// - integer promotions: scalar char/short operands are promoted to int (OpenCL C 3.0
//   §6.4 [[conversions-and-type-casting]]), as in C++; vectors are not promoted, so their element arithmetic wraps in
//   the element type;
//   unsigned 16-bit products are formed in uint32_t so the host never overflows an int;
// - narrowing stores truncate modulo 2^N (C++20 defines this for signed types too);
// - shift counts are reduced modulo the width of the (promoted) left operand (§6.5.10 [[operators-shift]]);
// - float and double operations are done in their own type, one correctly rounded operation
//   per source operation (x86-64 SSE; the target is built with -ffp-contract=off), `mad` is
//   fused (clref's default Mad choice), fma is std::fma;
// - half operations are computed exactly or once-rounded in double and rounded to half with
//   round-to-nearest-even by halfFromDouble() below (double rounding through binary64 is
//   innocuous for + - * / since 53 >= 2·11 + 2).
#include "tests/golden/host_bytes.hpp"
#include "tests/golden/host_reference.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <type_traits>
#include <vector>

#include <mpfr.h>
#include <stdexcept>
#include <utility>

namespace clref::golden {

namespace {

using cli::ArgSpec;
using cli::Case;

// A buffer argument seen as an array of T.
template <class T> class Buf {
 public:
  Buf(const Case& c, ArgBytes& a, size_t arg) : bytes_(a.at(arg)) {
    if (c.args.at(arg).kind != ArgSpec::Kind::Buffer)
      shapeError(c, "argument " + std::to_string(arg) + " is not a buffer");
    if (bytes_.size() % sizeof(T) != 0) shapeError(c, "buffer " + std::to_string(arg) + " has a partial element");
  }
  size_t size() const { return bytes_.size() / sizeof(T); }
  T operator[](size_t i) const { return loadAt<T>(bytes_, i * sizeof(T)); }
  void set(size_t i, T v) { storeAt<T>(bytes_, i * sizeof(T), v); }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte>& bytes_;
};

// A by-value argument.
template <class T> T scalar(const Case& c, size_t arg) {
  const auto& spec = c.args.at(arg);
  if (spec.kind != ArgSpec::Kind::Value || spec.value.size() != sizeof(T))
    shapeError(c, "argument " + std::to_string(arg) + " is not a " + std::to_string(sizeof(T)) + "-byte value");
  T v;
  std::memcpy(&v, spec.value.data(), sizeof(T));
  return v;
}

// The number of work-items in a 1D NDRange (kernels indexed by get_global_id(0), no offset).
size_t items1D(const Case& c) {
  if (c.range.dims != 1 || c.range.offset[0] != 0) shapeError(c, "expected a 1D NDRange without offset");
  return c.range.global[0];
}

std::array<size_t, 3> localOf(const Case& c) {
  if (!c.range.local) shapeError(c, "the kernel depends on the work-group size; the case must give ndrange.local");
  return *c.range.local;
}

// ---------------------------------------------------------------------------------------------
// The work-item functions (OpenCL C 3.0 §6.15.1 [[work-item-functions]]) for every work-item of an NDRange, including
// non-uniform work-groups (the last group in a dimension holds the remainder) and offsets.

struct WorkItem {
  unsigned workDim = 1;
  std::array<size_t, 3> globalId{}, localId{}, groupId{};
  std::array<size_t, 3> globalSize{1, 1, 1}, localSize{1, 1, 1}, numGroups{1, 1, 1}, offset{};
};

template <class F> void forEachWorkItem(const Case& c, F&& f) {
  const auto local = localOf(c);
  const auto& r = c.range;
  WorkItem w;
  w.workDim = r.dims;
  for (unsigned d = 0; d < r.dims; ++d) {
    w.globalSize[d] = r.global[d];
    w.offset[d] = r.offset[d];
    w.numGroups[d] = (r.global[d] + local[d] - 1) / local[d];
  }
  // Index (not id) of each work-item: k = global id - offset.
  std::array<size_t, 3> k{};
  for (k[2] = 0; k[2] < w.globalSize[2]; ++k[2])
    for (k[1] = 0; k[1] < w.globalSize[1]; ++k[1])
      for (k[0] = 0; k[0] < w.globalSize[0]; ++k[0]) {
        for (unsigned d = 0; d < 3; ++d) {
          if (d >= r.dims) {  // out-of-range dimensions: ids 0, sizes 1
            w.globalId[d] = w.localId[d] = w.groupId[d] = 0;
            w.localSize[d] = 1;
            continue;
          }
          w.globalId[d] = w.offset[d] + k[d];
          w.groupId[d] = k[d] / local[d];
          w.localId[d] = k[d] % local[d];
          const size_t fullGroups = w.globalSize[d] / local[d];
          w.localSize[d] = w.groupId[d] < fullGroups ? local[d] : w.globalSize[d] % local[d];
        }
        f(std::as_const(w));
      }
}

// ---------------------------------------------------------------------------------------------
// binary16, written for these tests only (independent of numerics/).

float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent == 0x1f)  // inf or NaN: same payload, shifted into the float mantissa
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  const float magnitude = exponent == 0 ? std::ldexp(float(mantissa), -24)  // subnormal
                                        : std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

// Round a binary64 value to binary16, round to nearest, ties to even, with subnormals and
// overflow to infinity. Scaling by powers of two is exact in binary64, and nearbyint rounds in
// the default rounding mode (to nearest even).
uint16_t halfFromDouble(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isnan(x)) throw std::runtime_error("host reference: NaN converted to half (payload unspecified)");
  // 65520 is the midpoint between 65504 (odd mantissa) and 2^16: it and anything above overflow.
  if (a >= 65520.0) return sign | 0x7c00;
  if (a < 0x1p-14) {
    // Subnormal range, quantum 2^-24. A result of 1024 is the smallest normal, whose encoding
    // 0x0400 is exactly 1024.
    return sign | uint16_t(std::nearbyint(a * 0x1p24));
  }
  int e;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  const int exponent = e - 1;
  auto mantissa = uint32_t(std::nearbyint(std::ldexp(a, 10 - exponent)));  // in [1024, 2048]
  int biased = exponent + 15;
  if (mantissa == 2048) {
    mantissa = 1024;
    ++biased;
  }
  if (biased >= 31) return sign | 0x7c00;
  return uint16_t(sign | (biased << 10) | (mantissa - 1024));
}

double h2d(uint16_t h) { return halfToFloat(h); }

// clang's NAN (opencl-c-base.h: as_float(INT_MAX)), which the NaN-tolerant kernels store in
// place of any NaN result.
const float kKernelNaN = std::bit_cast<float>(0x7fffffffu);

// ---------------------------------------------------------------------------------------------
// vadd.cl

void vadd(const Case& c, ArgBytes& a) {
  Buf<float> x(c, a, 0), y(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) out.set(i, x[i] + y[i]);
}

// ---------------------------------------------------------------------------------------------
// async_copy.cl

void asyncCopy(const Case& c, ArgBytes& a) {
  Buf<float> in(c, a, 0), out(c, a, 1);
  const size_t n = c.range.local->at(0);
  for (size_t g = 0; g < items1D(c) / n; ++g)
    for (size_t i = 0; i < n / 2; ++i) out.set(g * n + 2 * i, in[g * n + i] * 2.0f + 1.0f);
}

// ---------------------------------------------------------------------------------------------
// spec_constants.spvasm: out = FLAG ? in·SCALE + (SCALE + 4) : in − (SCALE + 4), uint wrapping;
// SCALE (SpecId 0) defaults to 3 and FLAG (SpecId 1) to true unless the case sets them.

void specConstants(const Case& c, ArgBytes& a) {
  uint32_t scale = 3;
  bool flag = true;
  for (const auto& [id, bytes] : c.specConstants) {
    if (id == 0) std::memcpy(&scale, bytes.data(), 4);
    if (id == 1) flag = bytes.at(0) != 0;
  }
  const uint32_t offset = scale + 4;
  Buf<uint32_t> in(c, a, 0), out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) out.set(i, flag ? in[i] * scale + offset : in[i] - offset);
}

// ---------------------------------------------------------------------------------------------
// integer_functions.cl: each function from its OpenCL C 1.2 §6.12.3 "Integer Functions" definition, in int64_t (or
// long double-free exact unsigned 64-bit) arithmetic, which holds every 32-bit intermediate.

int32_t clampToInt(int64_t v) { return int32_t(std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX)); }
int64_t floorHalf(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

void integerFunctions(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), o(c, a, 4);
  Buf<uint32_t> us(c, a, 2), vs(c, a, 3), uo(c, a, 5);
  Buf<int64_t> l(c, a, 6);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int64_t x = xs[i], y = ys[i];
    const uint64_t u = us[i], v = vs[i];
    o.set(i * 8 + 0, int32_t(uint32_t(x > y ? x - y : y - x)));
    o.set(i * 8 + 1, clampToInt(x + y));
    o.set(i * 8 + 2, clampToInt(x - y));
    o.set(i * 8 + 3, int32_t(floorHalf(x + y)));
    o.set(i * 8 + 4, int32_t(floorHalf(x + y + 1)));
    const int64_t p = x * y;                                                                 // exact: |p| ≤ 2^62
    o.set(i * 8 + 5, int32_t(p >= 0 ? p / 4294967296 : -((-p + 4294967295) / 4294967296)));  // floor(p / 2^32)
    // mad_sat(x, y, x): the exact x·y + x fits in int64 only when it doesn't overflow 2^63.
    const long double m = (long double)p + (long double)x;
    o.set(i * 8 + 6, m > INT32_MAX ? INT32_MAX : m < INT32_MIN ? INT32_MIN : int32_t(p + x));
    int clz = 0;
    for (int bit = 31; bit >= 0 && !((uint32_t(x) >> bit) & 1); --bit) ++clz;
    o.set(i * 8 + 7, clz);
    uo.set(i * 8 + 0, uint32_t(std::min<uint64_t>(u + v, UINT32_MAX)));
    uo.set(i * 8 + 1, u > v ? uint32_t(u - v) : 0u);
    uo.set(i * 8 + 2, uint32_t((u * v) >> 32));
    const unsigned r = unsigned(v % 32);
    uo.set(i * 8 + 3, r == 0 ? uint32_t(u) : uint32_t((u << r) | (u >> (32 - r))));
    uint32_t pop = 0, uclz = 0;
    for (int bit = 0; bit < 32; ++bit) pop += (u >> bit) & 1;
    for (int bit = 31; bit >= 0 && !((u >> bit) & 1); --bit) ++uclz;
    uo.set(i * 8 + 4, pop);
    uo.set(i * 8 + 5, uclz);
    uo.set(i * 8 + 6, uint32_t((u & 0xffffff) * (v & 0xffffff) + u));
    const long double um = (long double)u * (long double)v + (long double)u;
    uo.set(i * 8 + 7, um > UINT32_MAX ? UINT32_MAX : uint32_t(u * v + u));
    l.set(i, int64_t((uint64_t(uint32_t(x)) << 32) | u));
  }
}

// ---------------------------------------------------------------------------------------------
// convert_rounding.cl: rounding to integers with the C library's exact rounding functions;
// integer → float through the host FPU with fesetround (a path independent of clref's MPFR
// one); saturation by clamping in long double.

int32_t satInt(long double x) {
  return std::isnan(x) ? 0 : x < INT32_MIN ? INT32_MIN : x > INT32_MAX ? INT32_MAX : int32_t(x);
}
uint8_t satUchar(long double x) { return std::isnan(x) ? 0 : x < 0 ? 0 : x > 255 ? 255 : uint8_t(x); }
template <class I> float hostConvert(I v, int mode) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  // volatile on both sides keeps the conversion at run time and between the two fesetround
  // calls (without -frounding-math the compiler may otherwise move it across them).
  volatile I in = v;
  volatile float out = float(in);
  std::fesetround(saved);
  return out;
}

void convertRounding(const Case& c, ArgBytes& a) {
  Buf<float> f(c, a, 0), fo(c, a, 5);
  Buf<int32_t> iv(c, a, 1), o(c, a, 3);
  Buf<int64_t> l(c, a, 2);
  Buf<uint8_t> u(c, a, 4);
  Buf<int8_t> ch(c, a, 6);
  for (size_t g = 0; g < items1D(c); ++g) {
    const long double x = f[g];
    // Without _sat an out-of-range result is implementation-defined: clref's default choice
    // float_to_int_out_of_range=saturate clamps (NaN → 0), the same as _sat.
    o.set(g * 4 + 0, satInt(std::nearbyintl(x)));  // default environment: ties to even
    o.set(g * 4 + 1, satInt(std::ceil(x)));
    o.set(g * 4 + 2, satInt(std::floor(x)));
    o.set(g * 4 + 3, satInt(std::trunc(x)));
    const int32_t i = iv[g];
    u.set(g * 2 + 0, uint8_t(i < 0 ? 0 : i > 255 ? 255 : i));
    u.set(g * 2 + 1, satUchar(std::nearbyintl(x)));
    fo.set(g * 3 + 0, hostConvert<int64_t>(l[g], FE_TOWARDZERO));
    fo.set(g * 3 + 1, hostConvert<int64_t>(l[g], FE_UPWARD));
    fo.set(g * 3 + 2, hostConvert<int32_t>(i, FE_DOWNWARD));
    const int64_t lv = l[g];
    ch.set(g, int8_t(lv < -128 ? -128 : lv > 127 ? 127 : lv));
  }
}

// ---------------------------------------------------------------------------------------------
// vector_data.cl. Directed roundings to half from the round-to-nearest one: step the encoding
// one unit toward zero (rtz) or up (rtp) when the nearest value lies on the wrong side.

uint16_t halfTowardZero(double x) {
  uint16_t h = halfFromDouble(x);
  if ((h & 0x7fff) == 0x7c00 && std::isfinite(x)) return uint16_t((h & 0x8000) | 0x7bff);  // largest finite
  if (std::fabs(h2d(h)) > std::fabs(x)) --h;  // the magnitude is in the low 15 bits
  return h;
}
uint16_t halfUpward(double x) {
  uint16_t h = halfFromDouble(x);
  const double v = h2d(h);
  if (v < x) h = x < 0 ? uint16_t(h - 1) : (h == 0x8000 ? 0x0001 : uint16_t(h + 1));
  if (x < 0 && (h & 0x7fff) == 0x7c00) h = 0xfbff;  // −inf is never above a finite x
  return h;
}

void vectorData(const Case& c, ArgBytes& a) {
  Buf<float> f(c, a, 0), fo(c, a, 3), fa(c, a, 8);
  Buf<int32_t> iv(c, a, 1), io(c, a, 4);
  Buf<uint16_t> h(c, a, 2), ho(c, a, 5), hz(c, a, 6), ha(c, a, 7);
  const int32_t add[3] = {1, 2, 3};
  for (size_t g = 0; g < items1D(c); ++g) {
    for (size_t k = 0; k < 4; ++k) {
      const float x = f[4 * g + k];
      fo.set(4 * g + k, x * 2.0f);
      fo.set(256 + 4 * g + k, halfToFloat(h[4 * g + k]));
      ho.set(4 * g + k, halfFromDouble(x));
      hz.set(4 * g + k, halfTowardZero(x));
    }
    for (size_t k = 0; k < 3; ++k) {
      io.set(3 * g + k, int32_t(uint32_t(iv[1 + 3 * g + k]) + uint32_t(add[k])));
      const float d = halfToFloat(h[4 * g + k]);
      ha.set(4 * g + k, halfUpward(double(d * 3.0f)));
      fa.set(3 * g + k, d);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// shuffle_select.cl: element moves and bit selection on the float bit patterns.

void shuffleSelect(const Case& c, ArgBytes& a) {
  Buf<float> x(c, a, 0), y(c, a, 1), o(c, a, 4), o8(c, a, 5);
  Buf<uint32_t> m(c, a, 2), m8(c, a, 3);
  Buf<int32_t> sel(c, a, 6), ia(c, a, 7);
  for (size_t g = 0; g < items1D(c); ++g) {
    for (size_t k = 0; k < 4; ++k) o.set(8 * g + k, x[4 * g + m[4 * g + k] % 4]);  // only the low 2 bits select
    for (size_t k = 0; k < 8; ++k) {
      const uint32_t sIdx = m8[8 * g + k] % 8;
      o8.set(8 * g + k, sIdx < 4 ? x[4 * g + sIdx] : y[4 * g + sIdx - 4]);
    }
    for (size_t k = 0; k < 4; ++k) {
      const uint32_t bits = uint32_t(ia[4 * g + k]);
      const uint32_t r =
          (std::bit_cast<uint32_t>(x[4 * g + k]) & ~bits) | (std::bit_cast<uint32_t>(y[4 * g + k]) & bits);
      o.set(8 * g + 4 + k, std::bit_cast<float>(r));
      sel.set(4 * g + k, ia[4 * g + k] < 0 ? 7 : ia[4 * g + k]);  // vector select: the lane's sign bit
    }
  }
}

// ---------------------------------------------------------------------------------------------
// geometric.cl: exact values from MPFR at 300 bits (products and sums of floats are exact
// there; square roots and quotients carry 300-bit accuracy), then a rounding to float done by
// hand here: round to nearest even at 24 bits from the 300-bit value, which is far enough from
// any float midpoint for these random inputs to decide it.

float roundToFloat(const mpfr_t x) {
  // Every value here is a normal float: scale to a 24-bit integer, round to nearest even.
  mpfr_exp_t e;
  mpfr_t m;
  mpfr_init2(m, 300);
  mpfr_set(m, x, MPFR_RNDN);
  if (mpfr_zero_p(m)) {
    mpfr_clear(m);
    return mpfr_signbit(x) ? -0.0f : 0.0f;
  }
  e = mpfr_get_exp(m);                    // x = f · 2^e, f in [0.5, 1)
  mpfr_mul_2si(m, m, 24 - e, MPFR_RNDN);  // exact scaling: |m| in [2^23, 2^24)
  mpfr_rint(m, m, MPFR_RNDN);             // ties to even at the 24th bit
  const double scaled = mpfr_get_d(m, MPFR_RNDN);
  mpfr_clear(m);
  return float(std::ldexp(scaled, int(e) - 24));
}

void geometric(const Case& c, ArgBytes& a) {
  Buf<float> p(c, a, 0), q(c, a, 1), o(c, a, 2), s(c, a, 3);
  mpfr_t t1, t2, acc;
  mpfr_inits2(300, t1, t2, acc, (mpfr_ptr) nullptr);
  auto product = [&](mpfr_t out, float x, float y) {
    mpfr_set_flt(out, x, MPFR_RNDN);
    mpfr_mul_d(out, out, y, MPFR_RNDN);
  };
  for (size_t g = 0; g < items1D(c); ++g) {
    float x[4], y[4];
    for (int k = 0; k < 4; ++k) {
      x[k] = p[4 * g + k];
      y[k] = q[4 * g + k];
    }
    const int idx[3][2] = {{1, 2}, {2, 0}, {0, 1}};
    for (int k = 0; k < 3; ++k) {
      product(t1, x[idx[k][0]], y[idx[k][1]]);
      product(t2, x[idx[k][1]], y[idx[k][0]]);
      mpfr_sub(acc, t1, t2, MPFR_RNDN);
      o.set(8 * g + k, roundToFloat(acc));
    }
    o.set(8 * g + 3, 0.0f);
    mpfr_set_zero(acc, 1);
    for (int k = 0; k < 4; ++k) {
      product(t1, x[k], x[k]);
      mpfr_add(acc, acc, t1, MPFR_RNDN);
    }
    mpfr_sqrt(t2, acc, MPFR_RNDN);  // length
    s.set(3 * g, roundToFloat(t2));
    for (int k = 0; k < 4; ++k) {
      mpfr_set_flt(t1, x[k], MPFR_RNDN);
      mpfr_div(t1, t1, t2, MPFR_RNDN);
      o.set(8 * g + 4 + k, roundToFloat(t1));
    }
    mpfr_set_zero(acc, 1);
    for (int k = 0; k < 4; ++k) {
      mpfr_set_flt(t1, x[k], MPFR_RNDN);
      mpfr_sub_d(t1, t1, y[k], MPFR_RNDN);
      mpfr_sqr(t1, t1, MPFR_RNDN);
      mpfr_add(acc, acc, t1, MPFR_RNDN);
    }
    mpfr_sqrt(t2, acc, MPFR_RNDN);
    s.set(3 * g + 1, roundToFloat(t2));
    mpfr_set_zero(acc, 1);
    for (int k = 0; k < 4; ++k) {
      product(t1, x[k], y[k]);
      mpfr_add(acc, acc, t1, MPFR_RNDN);
    }
    s.set(3 * g + 2, roundToFloat(acc));
  }
  mpfr_clears(t1, t2, acc, (mpfr_ptr) nullptr);
}

// ---------------------------------------------------------------------------------------------
// atomics.cl: the order-independent outcomes of the atomics, computed sequentially.

void atomics(const Case& c, ArgBytes& a) {
  Buf<uint32_t> in(c, a, 0), hist(c, a, 1);
  Buf<int32_t> stats(c, a, 2);
  const size_t n = items1D(c);
  uint32_t h[32] = {};
  int32_t st[8];
  for (int k = 0; k < 8; ++k) st[k] = stats[k];
  for (size_t g = 0; g < n; ++g) {
    const uint32_t v = in[g];
    ++h[v % 16];
    ++h[16 + (v >> 4) % 16];  // the per-group histograms are summed into hist[16..31]
    st[0] = std::max(st[0], int32_t(v));
    st[1] = std::min(st[1], int32_t(v));
    st[2] = int32_t(uint32_t(st[2]) + (v & 0xff));
    st[3] |= int32_t(1u << (v % 31));
    st[4] &= ~int32_t(1u << (v % 29));
    st[5] ^= int32_t(v);
    st[6] -= 1;
    st[7] -= 1;
  }
  for (int k = 0; k < 32; ++k) hist.set(size_t(k), h[k]);
  for (int k = 0; k < 8; ++k) stats.set(size_t(k), st[k]);
}

// ---------------------------------------------------------------------------------------------
// math_functions.cl: each function evaluated by MPFR at 300 bits on the float operands (the
// kernel's own float operations on the operands — a * 0.1f, fabs(b) + 1.0f, … — are done in
// float here first, as the kernel does), then rounded to float by roundToFloat above; the
// exact operations (frexp, ldexp, remquo) by the C library's float functions.

float mpfr1(int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float x) {
  mpfr_t a, r;
  mpfr_inits2(300, a, r, (mpfr_ptr) nullptr);
  mpfr_set_flt(a, x, MPFR_RNDN);
  fn(r, a, MPFR_RNDN);
  const float out = roundToFloat(r);
  mpfr_clears(a, r, (mpfr_ptr) nullptr);
  return out;
}
float mpfr2(int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), float x, float y) {
  mpfr_t a, b, r;
  mpfr_inits2(300, a, b, r, (mpfr_ptr) nullptr);
  mpfr_set_flt(a, x, MPFR_RNDN);
  mpfr_set_flt(b, y, MPFR_RNDN);
  fn(r, a, b, MPFR_RNDN);
  const float out = roundToFloat(r);
  mpfr_clears(a, b, r, (mpfr_ptr) nullptr);
  return out;
}

void mathFunctions(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), o(c, a, 2);
  Buf<int32_t> io(c, a, 3);
  for (size_t g = 0; g < items1D(c); ++g)
    for (size_t k = 0; k < 4; ++k) {
      const float x = xs[4 * g + k], y = ys[4 * g + k];
      auto put = [&](size_t slot, float v) { o.set((g * 12 + slot) * 4 + k, v); };
      put(0, mpfr1(mpfr_sin, x));
      put(1, mpfr1(mpfr_exp, x * 0.1f));
      put(2, mpfr1(mpfr_log, std::fabs(y) + 1.0f));
      put(3, mpfr2(mpfr_pow, std::fabs(x) + 0.5f, y * 0.25f));
      put(4, mpfr2(mpfr_atan2, x, y));
      put(5, mpfr1(mpfr_rec_sqrt, std::fabs(y) + 1.0f));
      put(6, mpfr1(mpfr_sinpi, x * 0.01f));
      int e = 0;
      put(7, std::frexp(x, &e));
      put(8, std::ldexp(y, 3));
      put(9, mpfr1(mpfr_sin, x));
      put(10, mpfr1(mpfr_cos, x));
      int quo = 0;
      put(11, std::remquo(x, y, &quo));
      // OpenCL C 1.2 §6.12.2 "Math Functions" remquo: the sign of x/y and at least the 7 low bits of |quotient|;
      // clref gives exactly those bits, glibc gives at least 3: recompute them exactly.
      const double qexact = std::nearbyint(double(x) / double(y));  // x/y here is far from a tie
      quo = int(std::fmod(std::fabs(qexact), 128.0)) * (qexact < 0 ? -1 : 1);
      io.set(g * 8 + k, e);
      io.set(g * 8 + 4 + k, quo);
    }
}

// ---------------------------------------------------------------------------------------------
// arith_char.cl, arith_short.cl, arith_int.cl, arith_long.cl

void arithChar(const Case& c, ArgBytes& a) {
  Buf<int8_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int x = xs[i], y = ys[i];  // promoted to int
    out.set(6 * i + 0, int8_t(x + y));
    out.set(6 * i + 1, int8_t(x - y));
    out.set(6 * i + 2, int8_t(x * y));
    out.set(6 * i + 3, int8_t(-x));
    out.set(6 * i + 4, int8_t((x * y) >> 4));
    out.set(6 * i + 5, int8_t((x + y) / 3));
  }
}

void arithUchar(const Case& c, ArgBytes& a) {
  Buf<uint8_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int x = xs[i], y = ys[i];
    out.set(5 * i + 0, uint8_t(x + y));
    out.set(5 * i + 1, uint8_t(x - y));
    out.set(5 * i + 2, uint8_t(x * y));
    out.set(5 * i + 3, uint8_t((x * y) >> 8));
    out.set(5 * i + 4, uint8_t(int(uint8_t(x + y)) < x));
  }
}

void arithShort(const Case& c, ArgBytes& a) {
  Buf<int16_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int x = xs[i], y = ys[i];
    out.set(5 * i + 0, int16_t(x + y));
    out.set(5 * i + 1, int16_t(x - y));
    out.set(5 * i + 2, int16_t(x * y));
    out.set(5 * i + 3, int16_t((x * y) >> 16));
    out.set(5 * i + 4, int16_t(~x));
  }
}

void arithUshort(const Case& c, ArgBytes& a) {
  Buf<uint16_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = xs[i], y = ys[i];
    out.set(4 * i + 0, uint16_t(x + y));
    out.set(4 * i + 1, uint16_t(x - y));
    out.set(4 * i + 2, uint16_t(x * y));
    out.set(4 * i + 3, uint16_t((x * y) >> 16));
  }
}

void arithInt(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = xs[i], y = ys[i];  // inputs keep every result in range
    out.set(5 * i + 0, x + y);
    out.set(5 * i + 1, x - y);
    out.set(5 * i + 2, (x >> 10) * (y >> 12));
    out.set(5 * i + 3, -x);
    out.set(5 * i + 4, x * 3 - y / 7);
  }
}

void arithUint(const Case& c, ArgBytes& a) {
  Buf<uint32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = xs[i], y = ys[i];
    out.set(5 * i + 0, x + y);
    out.set(5 * i + 1, x - y);
    out.set(5 * i + 2, x * y);
    out.set(5 * i + 3, 0u - x);
    out.set(5 * i + 4, x * 2654435761u + (y ^ (y >> 16)));
  }
}

void arithLong(const Case& c, ArgBytes& a) {
  Buf<int64_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int64_t x = xs[i], y = ys[i];
    out.set(4 * i + 0, x + y);
    out.set(4 * i + 1, x - y);
    out.set(4 * i + 2, (x >> 20) * (y >> 20));
    out.set(4 * i + 3, x / 1000003 + y % 1000003);
  }
}

void arithUlong(const Case& c, ArgBytes& a) {
  Buf<uint64_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint64_t x = xs[i], y = ys[i];
    out.set(4 * i + 0, x + y);
    out.set(4 * i + 1, x - y);
    out.set(4 * i + 2, x * y);
    out.set(4 * i + 3, x * 0x9E3779B97F4A7C15ull + (y >> 7));
  }
}

// ---------------------------------------------------------------------------------------------
// arith_float.cl, arith_double.cl, arith_half.cl

void arithFloat(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const float x = xs[i], y = ys[i];
    out.set(8 * i + 0, x + y);
    out.set(8 * i + 1, x - y);
    out.set(8 * i + 2, x * y);
    out.set(8 * i + 3, x / y);
    out.set(8 * i + 4, -x);
    out.set(8 * i + 5, std::fabs(x));
    out.set(8 * i + 6, std::sqrt(std::fabs(x)));            // correctly rounded (sqrtss)
    out.set(8 * i + 7, std::fmax(x, y) - std::fmin(x, y));  // no NaN inputs in these cases
  }
}

float canonNaN(float r) { return r != r ? kKernelNaN : r; }

void arithFloatSpecial(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const float x = xs[i], y = ys[i];
    out.set(5 * i + 0, canonNaN(x + y));
    out.set(5 * i + 1, canonNaN(x - y));
    out.set(5 * i + 2, canonNaN(x * y));
    out.set(5 * i + 3, canonNaN(x / y));
    out.set(5 * i + 4, canonNaN(-x));
  }
}

void arithDouble(const Case& c, ArgBytes& a) {
  Buf<double> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const double x = xs[i], y = ys[i];
    out.set(7 * i + 0, x + y);
    out.set(7 * i + 1, x - y);
    out.set(7 * i + 2, x * y);
    out.set(7 * i + 3, x / y);
    out.set(7 * i + 4, std::sqrt(std::fabs(y)));
    out.set(7 * i + 5, std::fma(x, y, -1.0));
    out.set(7 * i + 6, std::fmin(x, y) * 0.5);
  }
}

void doublePoly(const Case& c, ArgBytes& a) {
  Buf<double> xs(c, a, 0), out(c, a, 1);
  const double c0 = scalar<double>(c, 2), c1 = scalar<double>(c, 3), c2 = scalar<double>(c, 4),
               c3 = scalar<double>(c, 5);
  for (size_t i = 0; i < items1D(c); ++i) {
    const double v = xs[i];
    double r = c3;
    r = r * v;
    r = r + c2;
    r = r * v;
    r = r + c1;
    r = r * v;
    r = r + c0;
    out.set(i, r);
  }
}

void arithHalf(const Case& c, ArgBytes& a) {
  Buf<uint16_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint16_t xh = xs[i], yh = ys[i];
    const double x = h2d(xh), y = h2d(yh);
    out.set(6 * i + 0, halfFromDouble(x + y));  // exact in binary64, rounded once
    out.set(6 * i + 1, halfFromDouble(x - y));
    out.set(6 * i + 2, halfFromDouble(x * y));
    out.set(6 * i + 3, halfFromDouble(x / y));  // binary64 rounding is innocuous (53 >= 24)
    out.set(6 * i + 4, x < y ? xh : yh);
    const uint16_t t = halfFromDouble(x * y);
    out.set(6 * i + 5, halfFromDouble(h2d(t) + x));
  }
}

void halfConvert(const Case& c, ArgBytes& a) {
  Buf<float> f(c, a, 0), back(c, a, 2);
  Buf<uint16_t> h(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint16_t v = halfFromDouble(f[i]);  // float -> double is exact
    h.set(i, v);
    back.set(i, halfToFloat(v) * 2.0f);
  }
}

// ---------------------------------------------------------------------------------------------
// vec_*.cl

void vecFloat4(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), sum(c, a, 2), prod(c, a, 3), swz(c, a, 4);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<float, 4> x, y;
    for (size_t k = 0; k < 4; ++k) x[k] = xs[4 * i + k], y[k] = ys[4 * i + k];
    for (size_t k = 0; k < 4; ++k) {
      sum.set(4 * i + k, x[k] + y[k]);
      prod.set(4 * i + k, x[k] * y[k]);
    }
    const std::array<float, 4> s{x[3], x[2], y[1], y[0]};  // (x.wz, y.yx)
    for (size_t k = 0; k < 4; ++k) swz.set(4 * i + k, s[k] - 1.5f);
  }
}

void vecInt8(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), prod(c, a, 2), mix(c, a, 3);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<int32_t, 8> x, y;
    for (size_t k = 0; k < 8; ++k) x[k] = xs[8 * i + k], y[k] = ys[8 * i + k];
    for (size_t k = 0; k < 8; ++k) prod.set(8 * i + k, x[k] * y[k]);
    for (size_t k = 0; k < 4; ++k) {
      mix.set(8 * i + k, x[k] + y[4 + k]);              // x.lo + y.hi
      mix.set(8 * i + 4 + k, x[2 * k] - y[2 * k + 1]);  // x.even - y.odd
    }
  }
}

void vecUchar16(const Case& c, ArgBytes& a) {
  Buf<uint8_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i)
    for (size_t k = 0; k < 16; ++k) {
      const uint8_t x = xs[16 * i + k], y = ys[16 * i + k];
      out.set(16 * (4 * i + 0) + k, uint8_t(x + y));
      out.set(16 * (4 * i + 1) + k, uint8_t(x * y));
      out.set(16 * (4 * i + 2) + k, uint8_t((x ^ y) | 0x11));
      out.set(16 * (4 * i + 3) + k, x > y ? uint8_t(x - y) : uint8_t(y - x));
    }
}

void vecShort2(const Case& c, ArgBytes& a) {
  Buf<int16_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int16_t x0 = xs[2 * i], x1 = xs[2 * i + 1], y0 = ys[2 * i], y1 = ys[2 * i + 1];
    out.set(6 * i + 0, int16_t(x0 + y0));
    out.set(6 * i + 1, int16_t(x1 + y1));
    out.set(6 * i + 2, int16_t(x1 - y0));  // x.yx - y
    out.set(6 * i + 3, int16_t(x0 - y1));
    out.set(6 * i + 4, int16_t(int(x0) * int(y1)));
    out.set(6 * i + 5, int16_t(x1 & y0));
  }
}

void vecDouble2(const Case& c, ArgBytes& a) {
  Buf<double> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const double x0 = xs[2 * i], x1 = xs[2 * i + 1], y0 = ys[2 * i], y1 = ys[2 * i + 1];
    double p0 = x0 * y0, p1 = x1 * y1;
    out.set(4 * i + 0, p0 + 0.25);
    out.set(4 * i + 1, p1 + -0.25);
    out.set(4 * i + 2, x1 / y0);  // x.yx / y
    out.set(4 * i + 3, x0 / y1);
  }
}

void vecFloat3(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    // float3 elements are 16 bytes apart (OpenCL C 3.0 §6.3.5 [[alignment-of-types]]); the fourth lane is padding.
    std::array<float, 3> x, y;
    for (size_t k = 0; k < 3; ++k) x[k] = xs[4 * i + k], y[k] = ys[4 * i + k];
    const std::array<float, 3> zxy{x[2], x[0], x[1]};
    for (size_t k = 0; k < 3; ++k) {
      const float p = x[k] * y[k];
      out.set(3 * i + k, p - zxy[k]);
    }
  }
}

void vecFloat16(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<float, 16> x, y;
    for (size_t k = 0; k < 16; ++k) x[k] = xs[16 * i + k], y[k] = ys[16 * i + k];
    for (size_t k = 0; k < 16; ++k) {
      const float p = x[k] * y[k];
      out.set(32 * i + k, p + x[k]);
      const float eo = k < 8 ? y[2 * k] : y[2 * (k - 8) + 1];  // (y.even, y.odd)
      out.set(32 * i + 16 + k, x[15 - k] - eo);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// shifts.cl, bitwise.cl

void shiftUint(const Case& c, ArgBytes& a) {
  Buf<uint32_t> v(c, a, 0), n(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = v[i], s = n[i];
    out.set(3 * i + 0, x << (s & 31));
    out.set(3 * i + 1, x >> (s & 31));
    out.set(3 * i + 2, (x << (s & 31)) | (x >> ((32u - s) & 31)));
  }
}

void shiftInt(const Case& c, ArgBytes& a) {
  Buf<int32_t> v(c, a, 0), out(c, a, 2);
  Buf<uint32_t> n(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) out.set(i, v[i] >> (n[i] & 31));  // arithmetic (C++20)
}

void shiftUlong(const Case& c, ArgBytes& a) {
  Buf<uint64_t> v(c, a, 0), out(c, a, 2);
  Buf<uint32_t> n(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    out.set(2 * i + 0, v[i] << (n[i] & 63));
    out.set(2 * i + 1, v[i] >> (n[i] & 63));
  }
}

void shiftSmall(const Case& c, ArgBytes& a) {
  Buf<uint8_t> v(c, a, 0), n(c, a, 1), sc(c, a, 2), vec(c, a, 3);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint8_t x = v[i], s = n[i];
    // Scalar: promoted to int, count modulo 32, truncated on store.
    sc.set(2 * i + 0, uint8_t(uint32_t(x) << (s & 31)));
    sc.set(2 * i + 1, uint8_t(uint32_t(x) >> (s & 31)));
    // uchar4: elements x+k and s+k converted to uchar, count modulo 8.
    for (unsigned k = 0; k < 4; ++k) {
      const auto xe = uint8_t(x + k), se = uint8_t(s + k);
      vec.set(4 * i + k, uint8_t(xe << (se & 7)));
    }
  }
}

void bitwiseUint(const Case& c, ArgBytes& a) {
  Buf<uint32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = xs[i], y = ys[i];
    out.set(5 * i + 0, x & y);
    out.set(5 * i + 1, x | y);
    out.set(5 * i + 2, x ^ y);
    out.set(5 * i + 3, ~x);
    out.set(5 * i + 4, (x & ~y) ^ (x >> 3));
  }
}

void bitwiseUlong(const Case& c, ArgBytes& a) {
  Buf<uint64_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint64_t x = xs[i], y = ys[i];
    out.set(4 * i + 0, x & y);
    out.set(4 * i + 1, x | ~y);
    out.set(4 * i + 2, x ^ (y << 17));
    out.set(4 * i + 3, x & (0 - x));
  }
}

void logicalOps(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = xs[i], y = ys[i];
    out.set(4 * i + 0, int32_t(x && y));
    out.set(4 * i + 1, int32_t(x || y));
    out.set(4 * i + 2, int32_t(!x));
    out.set(4 * i + 3, int32_t((x > 2 && y < 3) || !(x ^ y)));
  }
}

// ---------------------------------------------------------------------------------------------
// compare_select.cl, float_nan.cl

void compareInt(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = xs[i], y = ys[i];
    out.set(7 * i + 0, x == y);
    out.set(7 * i + 1, x != y);
    out.set(7 * i + 2, x < y);
    out.set(7 * i + 3, x <= y);
    out.set(7 * i + 4, x > y);
    out.set(7 * i + 5, x >= y);
    out.set(7 * i + 6, x < y ? y : x);
  }
}

void compareUint(const Case& c, ArgBytes& a) {
  Buf<uint32_t> xs(c, a, 0), ys(c, a, 1);
  Buf<int32_t> out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = xs[i], y = ys[i];
    out.set(3 * i + 0, x < y);
    out.set(3 * i + 1, x >= y);
    out.set(3 * i + 2, x > y ? int32_t(x - y) : -1);
  }
}

void selectVec(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), mask(c, a, 2), sel(c, a, 3);
  for (size_t i = 0; i < 4 * items1D(c); ++i) {
    const bool lt = xs[i] < ys[i];
    mask.set(i, lt ? -1 : 0);  // vector comparisons give -1 for true
    sel.set(i, lt ? xs[i] : ys[i]);
  }
}

void floatNanCompare(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1);
  Buf<int32_t> out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const float x = xs[i], y = ys[i];
    out.set(7 * i + 0, x != x);
    out.set(7 * i + 1, x == y);
    out.set(7 * i + 2, x != y);
    out.set(7 * i + 3, x < y);
    out.set(7 * i + 4, x <= y);
    out.set(7 * i + 5, x > y);
    out.set(7 * i + 6, !(x >= y));
  }
}

// OpenCL C 3.0 §6.15.2 [[math-functions]]: fmin/fmax return the other argument when one is a NaN.
float openclFmin(float x, float y) {
  if (x != x) return y;
  if (y != y) return x;
  return y < x ? y : x;
}
float openclFmax(float x, float y) {
  if (x != x) return y;
  if (y != y) return x;
  return x < y ? y : x;
}
float canonNaNZero(float r) { return r != r ? kKernelNaN : (r == 0.0f ? 0.0f : r); }

void floatMinmaxNan(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const float x = xs[i], y = ys[i];
    out.set(3 * i + 0, canonNaNZero(openclFmin(x, y)));
    out.set(3 * i + 1, canonNaNZero(openclFmax(x, y)));
    // A selected NaN keeps its bits: copy through the byte view, not through a float operation.
    const size_t pick = x != x ? 1 : (y != y ? 0 : 2);
    if (pick == 2)
      out.set(3 * i + 2, -1.0f);
    else
      storeAt<uint32_t>(out.bytes(), 4 * (3 * i + 2), loadAt<uint32_t>(a.at(pick), 4 * i));
  }
}

// ---------------------------------------------------------------------------------------------
// control_branches.cl, control_loops.cl, calls.cl

void controlBranches(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = in[i];
    const int32_t r = x < -50 ? -1 : x < 0 ? x * 2 : x == 0 ? 1000 : x + 7;
    const int32_t m = x % 11;  // truncating, as in OpenCL C
    int32_t s;
    if (m == 0)
      s = 11;  // case 0 falls through into case 1
    else if (m == 1)
      s = 10;
    else if (m == 2 || m == 3)
      s = 200 + m;
    else if (m == -3)
      s = -6;
    else if (m == 9)
      s = x;
    else
      s = m - 100;
    out.set(2 * i + 0, r);
    out.set(2 * i + 1, s);
  }
}

uint32_t triangle(uint32_t x) {
  const uint32_t n = x % 9u;
  uint32_t tri = 0;
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = a; b != 0; --b) tri = tri * 31u + (a ^ (b << 2));
    tri ^= a;
  }
  return tri;
}

uint32_t collatzSteps(uint32_t x) {
  uint32_t v = x | 1u, steps = 0;
  while (v != 1u) {
    ++steps;
    if ((v & 1u) == 0) {
      v >>= 1;
      continue;
    }
    if (steps >= 200u) break;
    v = 3u * v + 1u;
  }
  return steps;
}

uint32_t decimalDigits(uint32_t x) {
  uint32_t n = 0;
  do {
    ++n;
    x /= 10u;
  } while (x != 0);
  return n;
}

void controlLoops(const Case& c, ArgBytes& a) {
  Buf<uint32_t> in(c, a, 0), out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    out.set(3 * i + 0, triangle(in[i]));
    out.set(3 * i + 1, collatzSteps(in[i]));
    out.set(3 * i + 2, decimalDigits(in[i]));
  }
}

uint32_t mix(uint32_t x) {
  x ^= x >> 7;
  x *= 0x85ebca6bu;
  return x ^ (x >> 13);
}

void callsNoinline(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
    const int32_t d = y == 0 ? 7 : y;
    out.set(6 * i + 0, x / d);
    out.set(6 * i + 1, x % d);
    out.set(6 * i + 2, x < y ? x : y);
    out.set(6 * i + 3, x > y ? x : y);
    out.set(6 * i + 4, x + y + z);
    out.set(6 * i + 5, int32_t(mix(mix(uint32_t(x)))));
  }
}

// ---------------------------------------------------------------------------------------------
// struct_arg.cl, struct_mem.cl, struct_packed.cl

void structByValue(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), iout(c, a, 1);
  Buf<float> fout(c, a, 2);
  // Params: int bias @0, float scale @4, short shift @8, uint mask @12 (16 bytes).
  const auto& p = c.args.at(3).value;
  if (c.args.at(3).kind != ArgSpec::Kind::Value || p.size() != 16) shapeError(c, "argument 3 is not a 16-byte struct");
  int32_t bias;
  float scale;
  int16_t shift;
  uint32_t mask;
  std::memcpy(&bias, p.data() + 0, 4);
  std::memcpy(&scale, p.data() + 4, 4);
  std::memcpy(&shift, p.data() + 8, 2);
  std::memcpy(&mask, p.data() + 12, 4);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = in[i];
    // The count is the promoted short, taken modulo 32 (the width of the promoted int).
    iout.set(i, ((x + bias) >> (shift & 31)) & int32_t(mask));
    fout.set(i, float(x) * scale);  // |x| <= 2^24: exact conversion
  }
}

void structPrivateGlobal(const Case& c, ArgBytes& a) {
  // Item: int id @0, float w @4, uint flags @8, short s[2] @12 (16 bytes).
  auto& items = a.at(0);
  Buf<int32_t> out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    const size_t b = 16 * i;
    const auto id = loadAt<int32_t>(items, b);
    const auto w = loadAt<float>(items, b + 4);
    const auto flags = loadAt<uint32_t>(items, b + 8);
    const auto s0 = loadAt<int16_t>(items, b + 12), s1 = loadAt<int16_t>(items, b + 14);
    storeAt<int32_t>(items, b, id + 100);
    storeAt<float>(items, b + 4, w * 2.0f);
    storeAt<uint32_t>(items, b + 8, flags | 0x80000000u);
    storeAt<int16_t>(items, b + 12, s1);
    storeAt<int16_t>(items, b + 14, s0);
    out.set(i, id + s0 - s1);
  }
}

void structPacked(const Case& c, ArgBytes& a) {
  // Packed: char tag @0, int value @1, short delta @5 (7 bytes, no padding).
  auto& recs = a.at(0);
  Buf<int32_t> sums(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    const size_t b = 7 * i;
    const auto tag = loadAt<int8_t>(recs, b);
    const auto value = loadAt<int32_t>(recs, b + 1);
    const auto delta = loadAt<int16_t>(recs, b + 5);
    sums.set(i, int32_t(uint32_t(tag) + uint32_t(value) + uint32_t(delta)));
    storeAt<int8_t>(recs, b, int8_t(tag ^ 0x55));
    storeAt<int32_t>(recs, b + 1, int32_t(uint32_t(value) - uint32_t(delta)));
  }
}

// ---------------------------------------------------------------------------------------------
// private_array.cl, local_mem.cl, constant_mem.cl

void privateSort(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<int32_t, 8> v;
    for (size_t k = 0; k < 8; ++k) v[k] = in[8 * i + k];
    std::sort(v.begin(), v.end());
    for (size_t k = 0; k < 8; ++k) out.set(8 * i + k, v[k]);
  }
}

void privateHistogram(const Case& c, ArgBytes& a) {
  Buf<uint8_t> in(c, a, 0);
  Buf<uint32_t> out(c, a, 1);
  const auto len = scalar<uint32_t>(c, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<uint32_t, 8> h{};
    for (size_t k = 0; k < len; ++k) ++h[in[len * i + k] >> 5];
    for (size_t k = 0; k < 8; ++k) out.set(8 * i + k, h[k]);
  }
}

void localReverse(const Case& c, ArgBytes& a) {
  constexpr size_t kWG = 64;  // WG in the kernel
  if (localOf(c)[0] != kWG) shapeError(c, "local_reverse needs a local size of 64");
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  for (size_t g = 0; g < items1D(c); ++g) {
    const size_t group = g / kWG, l = g % kWG;
    out.set(g, in[group * kWG + (kWG - 1 - l)]);
  }
}

void localArgRotate(const Case& c, ArgBytes& a) {
  const size_t n = localOf(c)[0];
  Buf<float> in(c, a, 0), out(c, a, 1);
  const auto shift = scalar<uint32_t>(c, 3);
  for (size_t g = 0; g < items1D(c); ++g) {
    const size_t group = g / n, l = g % n;
    out.set(g, in[group * n + (l + shift) % n]);
  }
}

constexpr std::array<uint32_t, 16> kCrcNibble = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
constexpr std::array<int16_t, 5> kWeights = {-3, 1, 4, -1, 5};

// CRC-32 (IEEE, reflected), bitwise, as an independent check of the kernel's nibble table.
uint32_t crc32Bitwise(const uint8_t* p, size_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void constantTable(const Case& c, ArgBytes& a) {
  Buf<uint8_t> in(c, a, 0);
  Buf<uint32_t> out(c, a, 1);
  for (size_t i = 0; i < items1D(c); ++i) {
    std::array<uint8_t, 8> bytes;
    for (size_t k = 0; k < 8; ++k) bytes[k] = in[8 * i + k];
    uint32_t crc = 0xFFFFFFFFu;
    for (uint8_t byte : bytes) {
      crc ^= byte;
      crc = (crc >> 4) ^ kCrcNibble[crc & 15u];
      crc = (crc >> 4) ^ kCrcNibble[crc & 15u];
    }
    if (~crc != crc32Bitwise(bytes.data(), bytes.size()))
      throw std::logic_error("host reference: nibble-table CRC disagrees with the bitwise CRC");
    int32_t w = 0;
    for (size_t k = 0; k < 5; ++k) w += kWeights[k] * bytes[k];
    out.set(2 * i + 0, ~crc);
    out.set(2 * i + 1, uint32_t(w));
  }
}

void constantArgPoly(const Case& c, ArgBytes& a) {
  Buf<float> x(c, a, 0), coef(c, a, 1), out(c, a, 3);
  const auto n = scalar<uint32_t>(c, 2);
  if (n == 0 || n > coef.size()) shapeError(c, "ncoef out of range");
  for (size_t i = 0; i < items1D(c); ++i) {
    const float v = x[i];
    float r = coef[n - 1];
    for (uint32_t k = n - 1; k > 0; --k) {
      r = r * v;
      r = r + coef[k - 1];
    }
    out.set(i, r);
  }
}

// ---------------------------------------------------------------------------------------------
// reduce.cl, scan.cl, dot.cl: work-group trees replayed in the same order.

// The kernels' tree: for s = n/2, n/4, ..., 1: v[l] = v[l] + v[l + s] for l < s.
template <class T> T treeSum(std::vector<T> v) {
  for (size_t s = v.size() / 2; s > 0; s >>= 1)
    for (size_t l = 0; l < s; ++l) v[l] = v[l] + v[l + s];
  return v[0];
}

template <class T> void groupTreeSums(const Case& c, Buf<T>& in, Buf<T>& partial, size_t wg) {
  if (wg == 0 || (wg & (wg - 1)) != 0) shapeError(c, "the tree reduction needs a power-of-two local size");
  const size_t n = items1D(c);
  if (n % wg != 0) shapeError(c, "the tree reduction needs whole work-groups");
  for (size_t g = 0; g < n / wg; ++g) {
    std::vector<T> v(wg);
    for (size_t l = 0; l < wg; ++l) v[l] = in[g * wg + l];
    partial.set(g, treeSum(std::move(v)));
  }
}

void reduceIntSum(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), partial(c, a, 1);
  groupTreeSums(c, in, partial, localOf(c)[0]);
}

void reduceFloatTree(const Case& c, ArgBytes& a) {
  constexpr size_t kWG = 128;  // WG in the kernel
  if (localOf(c)[0] != kWG) shapeError(c, "reduce_float_tree needs a local size of 128");
  Buf<float> in(c, a, 0), partial(c, a, 1);
  groupTreeSums(c, in, partial, kWG);
}

void scanHillisSteele(const Case& c, ArgBytes& a) {
  const size_t n = localOf(c)[0];
  Buf<uint32_t> in(c, a, 0), out(c, a, 1);
  // An inclusive prefix sum modulo 2^32 per work-group: any summation order gives these bits.
  for (size_t g = 0; g < items1D(c); g += n) {
    uint32_t sum = 0;
    for (size_t l = 0; l < n && g + l < items1D(c); ++l) {
      sum += in[g + l];
      out.set(g + l, sum);
    }
  }
}

void dotProduct(const Case& c, ArgBytes& a) {
  const size_t wg = localOf(c)[0];
  Buf<float> x(c, a, 0), y(c, a, 1), partial(c, a, 2);
  const size_t n = items1D(c);
  if (wg == 0 || (wg & (wg - 1)) != 0 || n % wg != 0) shapeError(c, "dot_product needs power-of-two, whole groups");
  for (size_t g = 0; g < n / wg; ++g) {
    std::vector<float> v(wg);
    for (size_t l = 0; l < wg; ++l) v[l] = x[g * wg + l] * y[g * wg + l];
    partial.set(g, treeSum(std::move(v)));
  }
}

void dot4Fma(const Case& c, ArgBytes& a) {
  Buf<float> x(c, a, 0), y(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    float r = x[4 * i] * y[4 * i];
    for (size_t k = 1; k < 4; ++k) r = std::fma(x[4 * i + k], y[4 * i + k], r);
    out.set(i, r);
  }
}

// ---------------------------------------------------------------------------------------------
// nonuniform.cl, global_offset.cl, ndrange_2d.cl, ndrange_3d.cl

void nonuniformIds(const Case& c, ArgBytes& a) {
  Buf<uint32_t> out(c, a, 0);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t g = w.globalId[0];
    out.set(4 * g + 0, uint32_t(w.localId[0]));
    out.set(4 * g + 1, uint32_t(w.localSize[0]));
    out.set(4 * g + 2, uint32_t(w.groupId[0]));
    out.set(4 * g + 3, uint32_t(w.numGroups[0]));
  });
}

void nonuniformGroupsum(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), sums(c, a, 1);
  std::vector<int32_t> acc(sums.size(), 0);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t group = w.groupId[1] * w.numGroups[0] + w.groupId[0];
    acc.at(group) += in[w.globalId[1] * w.globalSize[0] + w.globalId[0]];
  });
  for (size_t g = 0; g < acc.size(); ++g) sums.set(g, acc[g]);
}

void globalOffsetIds(const Case& c, ArgBytes& a) {
  Buf<uint32_t> out(c, a, 0);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t k = w.globalId[0] - w.offset[0];
    out.set(4 * k + 0, uint32_t(w.globalId[0]));
    out.set(4 * k + 1, uint32_t(w.offset[0]));
    out.set(4 * k + 2, uint32_t(w.groupId[0]));
    out.set(4 * k + 3, uint32_t(w.localId[0]));
  });
}

void globalOffset2d(const Case& c, ArgBytes& a) {
  Buf<int32_t> img(c, a, 0);
  const auto width = scalar<uint32_t>(c, 1);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t x = w.globalId[0], y = w.globalId[1];
    img.set(y * width + x, int32_t(x * 100 + y) - int32_t(w.offset[0] + w.offset[1]));
  });
}

void ndrange2d(const Case& c, ArgBytes& a) {
  Buf<uint32_t> out(c, a, 0);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t k = (w.globalId[1] - w.offset[1]) * w.globalSize[0] + (w.globalId[0] - w.offset[0]);
    std::array<uint32_t, 10> r{};
    r[0] = w.workDim;
    for (unsigned d = 0; d < 2; ++d) {
      r[1 + d] = uint32_t(w.globalId[d] << 24 | w.localId[d] << 16 | w.groupId[d] << 8 | w.localSize[d]);
      r[3 + d] = uint32_t(w.globalSize[d] << 16 | w.numGroups[d] << 8 | w.offset[d]);
    }
    r[5] = uint32_t(w.globalId[2]);
    r[6] = uint32_t(w.localSize[2]);
    r[7] = uint32_t(w.globalSize[2]);
    r[8] = uint32_t(w.numGroups[2]);
    r[9] = uint32_t(w.localId[1] * w.localSize[0] + w.localId[0]);
    for (size_t j = 0; j < r.size(); ++j) out.set(10 * k + j, r[j]);
  });
}

void ndrange3d(const Case& c, ArgBytes& a) {
  Buf<uint32_t> out(c, a, 0);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t k = (w.globalId[2] * w.globalSize[1] + w.globalId[1]) * w.globalSize[0] + w.globalId[0];
    const size_t linLocal = (w.localId[2] * w.localSize[1] + w.localId[1]) * w.localSize[0] + w.localId[0];
    const size_t linGroup = (w.groupId[2] * w.numGroups[1] + w.groupId[1]) * w.numGroups[0] + w.groupId[0];
    out.set(3 * k + 0, uint32_t(linLocal));
    out.set(3 * k + 1, uint32_t(linGroup));
    out.set(3 * k + 2, uint32_t(w.workDim * 1000 + w.localSize[0] * w.localSize[1] * w.localSize[2]));
  });
}

// ---------------------------------------------------------------------------------------------
// pointer_cast.cl

void ptrByteView(const Case& c, ArgBytes& a) {
  auto& data = a.at(0);
  for (size_t i = 0; i < items1D(c); ++i) std::reverse(data.begin() + 4 * i, data.begin() + 4 * i + 4);
}

void ptrUintptrRoundtrip(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  const auto n = scalar<uint32_t>(c, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const size_t j = n - 1 - i;
    out.set(2 * i + 0, in[j]);
    out.set(2 * i + 1, loadAt<int16_t>(a.at(0), 4 * j) + int32_t(j));  // low half, little-endian
  }
}

// ---------------------------------------------------------------------------------------------
// int_divrem.cl, conversions.cl

void divremInt(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = xs[i], y = ys[i] == 0 ? -3 : ys[i];
    out.set(2 * i + 0, x / y);  // C++ truncates toward zero, as OpenCL C
    out.set(2 * i + 1, x % y);
  }
}

void divremUint(const Case& c, ArgBytes& a) {
  Buf<uint32_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t x = xs[i], y = ys[i] | 1u;
    out.set(2 * i + 0, x / y);
    out.set(2 * i + 1, x % y);
  }
}

void divremLong(const Case& c, ArgBytes& a) {
  Buf<int64_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int64_t x = xs[i], y = ys[i] == 0 ? 5 : ys[i];
    out.set(2 * i + 0, x / y);
    out.set(2 * i + 1, x % y);
  }
}

void divremChar(const Case& c, ArgBytes& a) {
  Buf<int8_t> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int x = xs[i], y = ys[i] == 0 ? 1 : ys[i];  // promoted to int
    out.set(4 * i + 0, int8_t(x / y));
    out.set(4 * i + 1, int8_t(x % y));
    out.set(4 * i + 2, int8_t(x / 3));
    out.set(4 * i + 3, int8_t(x % -5));
  }
}

void convIntFloat(const Case& c, ArgBytes& a) {
  Buf<int32_t> ia(c, a, 0), iout(c, a, 3);
  Buf<float> fa(c, a, 1), fout(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = ia[i];
    const float f = fa[i];
    fout.set(2 * i + 0, float(x));  // round to nearest even (cvtsi2ss in the default mode)
    fout.set(2 * i + 1, float(x));
    iout.set(2 * i + 0, int32_t(f));  // truncation; inputs are in range
    iout.set(2 * i + 1, int32_t(f));
  }
}

void convMisc(const Case& c, ArgBytes& a) {
  Buf<uint32_t> ua(c, a, 0), uout(c, a, 4);
  Buf<float> fa(c, a, 1), fout(c, a, 3);
  Buf<int64_t> la(c, a, 2), lout(c, a, 6);
  Buf<double> dout(c, a, 5);
  for (size_t i = 0; i < items1D(c); ++i) {
    const uint32_t u = ua[i];
    const float f = fa[i];
    const int64_t l = la[i];
    fout.set(2 * i + 0, float(u));  // one rounding: uint32 -> float, nearest even
    fout.set(2 * i + 1, float(int8_t(u)));
    const float m = f < 0.0f ? -f : f;
    uout.set(2 * i + 0, uint32_t(m));  // truncation toward zero
    uout.set(2 * i + 1, uint32_t(uint8_t(m)));
    dout.set(2 * i + 0, double(l));  // one rounding: int64 -> double, nearest even
    dout.set(2 * i + 1, double(f));
    lout.set(i, int64_t(double(l) * 0.5));
  }
}

// ---------------------------------------------------------------------------------------------
// matmul.cl

// Both kernels accumulate acc = acc + A[row][k] * B[k][col] for k = 0..K-1, each operation
// rounded to float; work-items outside M x N (naive kernel only) write nothing.
void matmul(const Case& c, ArgBytes& a, bool tiled) {
  Buf<float> A(c, a, 0), B(c, a, 1), C(c, a, 2);
  const auto M = scalar<uint32_t>(c, 3), N = scalar<uint32_t>(c, 4), K = scalar<uint32_t>(c, 5);
  if (c.range.dims != 2) shapeError(c, "matmul needs a 2D NDRange");
  if (tiled) {
    constexpr uint32_t kTile = 8;
    const auto local = localOf(c);
    if (local[0] != kTile || local[1] != kTile || M % kTile || N % kTile || K % kTile || c.range.global[0] != N ||
        c.range.global[1] != M)
      shapeError(c, "matmul_tiled needs 8x8 groups, an M x N range and multiples of 8");
  }
  for (size_t row = 0; row < std::min<size_t>(M, c.range.global[1]); ++row)
    for (size_t col = 0; col < std::min<size_t>(N, c.range.global[0]); ++col) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k) {
        const float p = A[row * K + k] * B[k * N + col];
        acc = acc + p;
      }
      C.set(row * N + col, acc);
    }
}

// ---------------------------------------------------------------------------------------------
// integer_builtins.cl, promotion.cl, mad_fma.cl

void intMinmaxClamp(const Case& c, ArgBytes& a) {
  Buf<int32_t> xs(c, a, 0), ys(c, a, 1), iout(c, a, 2);
  Buf<uint32_t> uout(c, a, 3);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int32_t x = xs[i], y = ys[i];
    iout.set(3 * i + 0, std::min(x, y));
    iout.set(3 * i + 1, std::max(x, y));
    iout.set(3 * i + 2, std::clamp(x, -1000, 1000));
    uout.set(3 * i + 0, x < 0 ? 0u - uint32_t(x) : uint32_t(x));  // abs returns uint
    uout.set(3 * i + 1, std::min(uint32_t(x), uint32_t(y)));
    uout.set(3 * i + 2, std::clamp(uint32_t(y), 10u, 0x80000000u));
  }
}

void smallMinmax(const Case& c, ArgBytes& a) {
  Buf<int8_t> cs(c, a, 0), charOut(c, a, 2);
  Buf<uint64_t> us(c, a, 1), lout(c, a, 3);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int8_t ch = cs[i];
    const uint64_t u = us[i];
    charOut.set(3 * i + 0, std::max<int8_t>(ch, -7));
    const auto absolute = uint8_t(ch < 0 ? -int(ch) : int(ch));  // abs(char) is uchar
    charOut.set(3 * i + 1, int8_t(absolute));
    charOut.set(3 * i + 2, std::clamp<int8_t>(ch, -20, 20));
    lout.set(2 * i + 0, std::min<uint64_t>(u, 0x8000000000000000ull));
    lout.set(2 * i + 1, std::clamp<uint64_t>(u, 1000ull, 0xFFFFFFFFFFFFull));
  }
}

void promotion(const Case& c, ArgBytes& a) {
  Buf<int8_t> cs(c, a, 0);
  Buf<uint8_t> ucs(c, a, 1);
  Buf<int16_t> ss(c, a, 2);
  Buf<uint16_t> uss(c, a, 3);
  Buf<int32_t> ins(c, a, 4);
  Buf<uint32_t> us(c, a, 5);
  Buf<int64_t> out(c, a, 6);
  for (size_t i = 0; i < items1D(c); ++i) {
    const int ch = cs[i], uc = ucs[i], s = ss[i], usv = uss[i];
    const int32_t in = ins[i];
    const uint32_t u = us[i];
    out.set(6 * i + 0, int64_t(ch * uc));
    out.set(6 * i + 1, int64_t(s + usv));
    out.set(6 * i + 2, int64_t(uint32_t(in) + u));  // uint result, zero-extended to long
    out.set(6 * i + 3, int64_t(uint32_t(in) < u));
    out.set(6 * i + 4, int64_t(in) * int64_t(u));
    out.set(6 * i + 5, int64_t(uint32_t(ch)));  // char -> int -> uint, zero-extended
  }
}

void madFmaFloat(const Case& c, ArgBytes& a) {
  Buf<float> xs(c, a, 0), ys(c, a, 1), zs(c, a, 2), out(c, a, 3);
  for (size_t i = 0; i < items1D(c); ++i) {
    const float x = xs[i], y = ys[i], z = zs[i];
    out.set(3 * i + 0, std::fma(x, y, z));
    out.set(3 * i + 1, std::fma(x, y, z));  // mad: fused under clref's default Mad choice
    const float sq = x * x;
    out.set(3 * i + 2, std::fma(x, -x, sq));
  }
}

void fmaDouble(const Case& c, ArgBytes& a) {
  Buf<double> xs(c, a, 0), ys(c, a, 1), out(c, a, 2);
  for (size_t i = 0; i < items1D(c); ++i) {
    const double x = xs[i], y = ys[i];
    const double p = x * y;
    out.set(2 * i + 0, p);
    out.set(2 * i + 1, std::fma(x, y, -p));
  }
}

// ---------------------------------------------------------------------------------------------
// Work-group collective functions (wg_*.cl): OpenCL C 3.0 §6.15.16 [[work-group-functions]] and
// §6.15.17 [[work-group-collective-uniform-arithmetic-functions]].

// The work-items of every work-group of the case's NDRange (no offset), each group's members in linear local id order
// as (linear local id, global linear id): the global linear id is the element the kernels index, (z · Gy + y) · Gx + x.
// Non-uniform work-groups (the last group in a dimension smaller) included.
struct Member {
  size_t local, index;
};

std::map<size_t, std::vector<Member>> workGroups(const Case& c) {
  std::map<size_t, std::vector<Member>> groups;
  forEachWorkItem(c, [&](const WorkItem& w) {
    if (w.offset != std::array<size_t, 3>{}) shapeError(c, "expected an NDRange without offset");
    const size_t group = (w.groupId[2] * w.numGroups[1] + w.groupId[1]) * w.numGroups[0] + w.groupId[0];
    const size_t local = (w.localId[2] * w.localSize[1] + w.localId[1]) * w.localSize[0] + w.localId[0];
    const size_t index = (w.globalId[2] * w.globalSize[1] + w.globalId[1]) * w.globalSize[0] + w.globalId[0];
    groups[group].push_back({local, index});
  });
  for (auto& [group, members] : groups)
    std::sort(members.begin(), members.end(), [](const Member& x, const Member& y) { return x.local < y.local; });
  return groups;
}

// Inclusive and exclusive scans of `values` (in scan order) with `op` and the exclusive scan's `identity`.
template <class T, class Op> std::vector<T> inclusiveScan(const std::vector<T>& values, Op op) {
  std::vector<T> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = i == 0 ? values[0] : op(out[i - 1], values[i]);
  return out;
}
template <class T, class Op> std::vector<T> exclusiveScan(const std::vector<T>& values, Op op, T identity) {
  std::vector<T> out(values.size());
  T acc = identity;
  for (size_t i = 0; i < values.size(); ++i) {
    out[i] = acc;
    acc = op(acc, values[i]);
  }
  return out;
}
template <class T, class Op> T reduce(const std::vector<T>& values, Op op, T identity) {
  T acc = identity;
  for (const T& v : values) acc = op(acc, v);
  return acc;
}

// Integer operations as the kernels' types have them: unsigned arithmetic wraps (the signed sums of the cases stay in
// range, and are done in the unsigned type too so that the host never overflows).
template <class T> T addWrap(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return T(U(x) + U(y));
}
template <class T> T mulWrap(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) < sizeof(unsigned))
    return T(unsigned(U(x)) * unsigned(U(y)));
  else
    return T(U(x) * U(y));
}
template <class T> T minOf(T x, T y) { return std::min(x, y); }
template <class T> T maxOf(T x, T y) { return std::max(x, y); }

void wgAllAny(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  for (const auto& [group, members] : workGroups(c)) {
    // work_group_all/any: "a non-zero value" when the predicate holds for all / any work-item; the kernel stores != 0.
    bool all10 = true, any990 = false, allBelow = true, anyOwnId = false, allBits = true;
    for (const auto& m : members) {
      const int32_t x = in[m.index];
      all10 = all10 && x >= 10;
      any990 = any990 || x >= 990;
      allBelow = allBelow && x < 1000;
      anyOwnId = anyOwnId || x == 1000 + int32_t(m.local);
      allBits = allBits && (x & ~1) != 0;
    }
    for (const auto& m : members) {
      const bool r[5] = {all10, any990, allBelow, anyOwnId, allBits};
      for (size_t k = 0; k < 5; ++k) out.set(5 * m.index + k, r[k] ? 1 : 0);
    }
  }
}

void wgBroadcast(const Case& c, ArgBytes& a) {
  // The floats and doubles as their bits: a broadcast moves a value, NaN payloads included.
  Buf<int32_t> in(c, a, 0), out(c, a, 4);
  Buf<int64_t> inl(c, a, 1), outl(c, a, 5);
  Buf<uint32_t> inf(c, a, 2), outf(c, a, 6);
  Buf<uint64_t> ind(c, a, 3), outd(c, a, 7);
  for (const auto& [group, members] : workGroups(c)) {
    const size_t n = members.size(), src = (group * 7 + 3) % n;
    const size_t first = members[0].index;  // 1D: the members are first .. first + n - 1
    for (const auto& m : members) {
      out.set(3 * m.index + 0, in[first + src]);
      out.set(3 * m.index + 1, int32_t(uint32_t(n - 1) * 3u + 1u));
      out.set(3 * m.index + 2, in[first] ^ 0);
      outl.set(m.index, inl[first + (src + 1) % n]);
      outf.set(m.index, inf[first + (src + 2) % n]);
      outd.set(m.index, ind[first + n / 2]);
    }
  }
}

void wgBroadcast2d(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  const auto local = localOf(c);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const size_t width = w.globalSize[0], i = w.globalId[1] * width + w.globalId[0];
    const size_t lx = (w.groupId[0] + 2 * w.groupId[1]) % w.localSize[0], ly = (w.groupId[1] + 1) % w.localSize[1];
    // The named work-item of the caller's group: its global id is the group's first plus the local ids.
    const size_t sx = w.groupId[0] * local[0] + lx, sy = w.groupId[1] * local[1] + ly;
    out.set(2 * i + 0, in[sy * width + sx]);
    out.set(2 * i + 1, int32_t((w.localSize[0] - 1) * 100 + 0));
  });
}

void wgBroadcast3d(const Case& c, ArgBytes& a) {
  Buf<uint32_t> in(c, a, 0), out(c, a, 1);  // float bits
  const auto local = localOf(c);
  forEachWorkItem(c, [&](const WorkItem& w) {
    const auto& G = w.globalSize;
    const size_t i = (w.globalId[2] * G[1] + w.globalId[1]) * G[0] + w.globalId[0];
    const size_t l[3] = {w.groupId[2] % w.localSize[0], w.localSize[1] - 1,
                         (w.groupId[0] + w.groupId[1]) % w.localSize[2]};
    size_t s[3];
    for (size_t d = 0; d < 3; ++d) s[d] = w.groupId[d] * local[d] + l[d];
    out.set(i, in[(s[2] * G[1] + s[1]) * G[0] + s[0]]);
  });
}

// The reductions of wg_reduce_int.cl and wg_reduce_long.cl: add, min and max of each group's values, given to every
// member.
template <class S, class U> void wgReduce(const Case& c, ArgBytes& a) {
  Buf<S> in(c, a, 0), out(c, a, 2);
  Buf<U> inu(c, a, 1), outu(c, a, 3);
  for (const auto& [group, members] : workGroups(c)) {
    std::vector<S> xs;
    std::vector<U> us;
    for (const auto& m : members) {
      xs.push_back(in[m.index]);
      us.push_back(inu[m.index]);
    }
    const S r[3] = {reduce(xs, addWrap<S>, S(0)), reduce(xs, minOf<S>, std::numeric_limits<S>::max()),
                    reduce(xs, maxOf<S>, std::numeric_limits<S>::min())};
    const U ru[3] = {reduce(us, addWrap<U>, U(0)), reduce(us, minOf<U>, std::numeric_limits<U>::max()),
                     reduce(us, maxOf<U>, U(0))};
    for (const auto& m : members)
      for (size_t k = 0; k < 3; ++k) {
        out.set(3 * m.index + k, r[k]);
        outu.set(3 * m.index + k, ru[k]);
      }
  }
}
void (*const kWgReduceInt)(const Case&, ArgBytes&) = wgReduce<int32_t, uint32_t>;
void (*const kWgReduceLong)(const Case&, ArgBytes&) = wgReduce<int64_t, uint64_t>;

// The scans of wg_scan_int.cl and wg_scan_long.cl, in linear local id order. OpenCL C 3.0 §6.15.16
// [[work-group-functions]]: an exclusive scan gives the first work-item the identity, 0 for add, the type's largest
// value for min (INT_MAX, UINT_MAX, LONG_MAX, ULONG_MAX) and its smallest for max (INT_MIN, 0, LONG_MIN, 0).
template <class S, class U> void wgScan(const Case& c, ArgBytes& a, U multiplier, bool longKernel) {
  Buf<S> in(c, a, 0), out(c, a, 1);
  Buf<U> outu(c, a, 2);
  for (const auto& [group, members] : workGroups(c)) {
    std::vector<S> xs;
    std::vector<U> us;
    for (const auto& m : members) {
      xs.push_back(in[m.index]);
      us.push_back(U(in[m.index]) * multiplier);
    }
    const std::vector<S> r[6] = {
        inclusiveScan(xs, addWrap<S>), exclusiveScan(xs, addWrap<S>, S(0)),
        inclusiveScan(xs, minOf<S>),   exclusiveScan(xs, minOf<S>, std::numeric_limits<S>::max()),
        inclusiveScan(xs, maxOf<S>),   exclusiveScan(xs, maxOf<S>, std::numeric_limits<S>::min())};
    // wg_scan_int: exclusive add, min, max and inclusive max; wg_scan_long: inclusive add, exclusive min and max,
    // inclusive min.
    const std::vector<U> ru[4] = {longKernel ? inclusiveScan(us, addWrap<U>) : exclusiveScan(us, addWrap<U>, U(0)),
                                  exclusiveScan(us, minOf<U>, std::numeric_limits<U>::max()),
                                  exclusiveScan(us, maxOf<U>, U(0)),
                                  longKernel ? inclusiveScan(us, minOf<U>) : inclusiveScan(us, maxOf<U>)};
    for (size_t i = 0; i < members.size(); ++i) {
      for (size_t k = 0; k < 6; ++k) out.set(6 * members[i].index + k, r[k][i]);
      for (size_t k = 0; k < 4; ++k) outu.set(4 * members[i].index + k, ru[k][i]);
    }
  }
}
void (*const kWgScanInt)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) {
  wgScan<int32_t, uint32_t>(c, a, 2654435761u, false);
};
void (*const kWgScanLong)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) {
  wgScan<int64_t, uint64_t>(c, a, 0x9E3779B97F4A7C15ull, true);
};

// A sum of multiples of 0.25 (0.125) in double, which holds every such sum of the cases exactly, rounded to T once:
// any order of the kernel's additions gives it when the sum and every partial sum are exact in T, which the host
// checks for the partial sums in scan order (the other orders' partial sums are no larger than the sum of the
// magnitudes, checked too).
template <class T> T exactSum(const Case& c, const std::vector<double>& values, size_t count) {
  double sum = 0, magnitude = 0;
  for (size_t i = 0; i < count; ++i) {
    sum += values[i];
    magnitude += std::fabs(values[i]);
  }
  const double quantum = sizeof(T) == 4 ? 0.25 : 0.125;
  if (magnitude / quantum > (sizeof(T) == 4 ? 0x1p24 : 0x1p53)) shapeError(c, "a sum is not exact in every order");
  return T(sum);
}

void wgReduceFloat(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0);
  Buf<float> out(c, a, 1);
  Buf<double> outd(c, a, 2);
  for (const auto& [group, members] : workGroups(c)) {
    std::vector<double> xs, ds;
    for (const auto& m : members) {
      xs.push_back(double(float(in[m.index]) * 0.25f));
      ds.push_back(double(in[m.index]) * 0.125);
    }
    const size_t n = members.size();
    float mn = INFINITY, mx = -INFINITY;
    for (double x : xs) {
      mn = std::min(mn, float(x));
      mx = std::max(mx, float(x));
    }
    for (size_t i = 0; i < n; ++i) {
      const size_t g = members[i].index;
      out.set(7 * g + 0, exactSum<float>(c, xs, n));
      out.set(7 * g + 1, mn);
      out.set(7 * g + 2, mx);
      out.set(7 * g + 3, exactSum<float>(c, xs, i + 1));
      // The exclusive identities: 0 for add, +INF for min, -INF for max.
      out.set(7 * g + 4, exactSum<float>(c, xs, i));
      float below = INFINITY, above = -INFINITY;
      for (size_t j = 0; j < i; ++j) {
        below = std::min(below, float(xs[j]));
        above = std::max(above, float(xs[j]));
      }
      out.set(7 * g + 5, below);
      out.set(7 * g + 6, above);
      outd.set(2 * g + 0, exactSum<double>(c, ds, n));
      outd.set(2 * g + 1, exactSum<double>(c, ds, i + 1));
    }
  }
}

void wgUniformArith(const Case& c, ArgBytes& a) {
  Buf<uint32_t> in(c, a, 0), out(c, a, 1);
  Buf<int64_t> outl(c, a, 2);
  Buf<int32_t> outp(c, a, 3);
  const auto bitAnd = [](auto x, auto y) { return decltype(x)(x & y); };
  const auto bitOr = [](auto x, auto y) { return decltype(x)(x | y); };
  const auto bitXor = [](auto x, auto y) { return decltype(x)(x ^ y); };
  const auto logicalAnd = [](bool x, bool y) { return x && y; };
  const auto logicalOr = [](bool x, bool y) { return x || y; };
  const auto logicalXor = [](bool x, bool y) { return x != y; };
  for (const auto& [group, members] : workGroups(c)) {
    std::vector<uint32_t> x, andIn, orIn, andScanIn, orScanIn, odd;
    std::vector<uint64_t> notL, negL, l, mulL;
    std::vector<bool> p, p4;
    for (const auto& m : members) {
      const uint32_t v = in[m.index];
      x.push_back(v);
      andIn.push_back(v | 0x00ff0000u);
      orIn.push_back(v & 0xf0f0f0f0u);
      andScanIn.push_back(v | 0x0f0f0f0fu);
      orScanIn.push_back(v & 0x11111111u);
      odd.push_back(v | 1u);
      const uint64_t lv = uint64_t(v) << 31 | (v & 7);
      l.push_back(lv);
      notL.push_back(~lv);
      negL.push_back(0 - lv);
      mulL.push_back(lv * 3 + 1);
      p.push_back(v % 5 != 0);
      p4.push_back(v % 5 == 4);
    }
    // OpenCL C 3.0 §6.15.17 [[work-group-collective-uniform-arithmetic-functions]]: the exclusive scans' identities
    // are ~0 for and, 0 for or and xor, true for logical and, false for logical or and xor, and 1 for mul.
    const uint32_t r0 = reduce(andIn, bitAnd, ~0u), r1 = reduce(orIn, bitOr, 0u), r2 = reduce(x, bitXor, 0u);
    const uint32_t r6 = reduce(odd, mulWrap<uint32_t>, 1u);
    const auto s3 = inclusiveScan(andScanIn, bitAnd);
    const auto s4 = exclusiveScan(orScanIn, bitOr, 0u);
    const auto s5 = exclusiveScan(x, bitXor, 0u);
    const auto s7 = exclusiveScan(odd, mulWrap<uint32_t>, 1u);
    const uint64_t l0 = reduce(notL, bitAnd, ~uint64_t(0));
    const auto l1 = exclusiveScan(negL, bitAnd, ~uint64_t(0));
    const auto l2 = inclusiveScan(l, bitOr);
    const auto l3 = inclusiveScan(mulL, mulWrap<uint64_t>);
    const bool p0 = reduce(p, logicalAnd, true), p1 = reduce(p4, logicalOr, false), p2 = reduce(p, logicalXor, false);
    const auto q3 = inclusiveScan(p, logicalAnd);
    const auto q4 = exclusiveScan(p4, logicalOr, false);
    const auto q5 = exclusiveScan(p, logicalXor, false);
    for (size_t i = 0; i < members.size(); ++i) {
      const size_t g = members[i].index;
      const uint32_t r[8] = {r0, r1, r2, s3[i], s4[i], s5[i], r6, s7[i]};
      for (size_t k = 0; k < 8; ++k) out.set(8 * g + k, r[k]);
      const uint64_t rl[4] = {l0, l1[i], l2[i], l3[i]};
      for (size_t k = 0; k < 4; ++k) outl.set(4 * g + k, int64_t(rl[k]));
      // Logical results are non-zero for true; the kernel stores != 0.
      const bool rp[6] = {p0, p1, p2, q3[i], q4[i], q5[i]};
      for (size_t k = 0; k < 6; ++k) outp.set(6 * g + k, rp[k] ? 1 : 0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sub-group kernels (subgroups.cl, sg_*.cl): OpenCL C 3.0 §6.15.20 [[sub-group-functions]]. How a work-group is divided
// into sub-groups is the implementation's (its size "implementation-defined based on a combination of the compiled
// kernel and the dispatch dimensions"), so the kernels check each built-in against its definition recomputed over
// their own sub-group and store 1 for a match: the expected output is all ones, whatever the division. subgroups.cl
// also stores each work-group's sum, which no division changes.

void allOnes(const Case& c, ArgBytes& a, size_t arg) {
  Buf<int32_t> ok(c, a, arg);
  for (size_t i = 0; i < ok.size(); ++i) ok.set(i, 1);
}
void (*const kSubGroupChecks)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) { allOnes(c, a, 1); };

void subgroups(const Case& c, ArgBytes& a) {
  allOnes(c, a, 1);
  Buf<int32_t> in(c, a, 0), sums(c, a, 2);
  for (const auto& [group, members] : workGroups(c)) {
    int32_t sum = 0;
    for (const auto& m : members) sum += in[m.index];
    sums.set(group, sum);
  }
}

// ---------------------------------------------------------------------------------------------
// Atomics (atomics_int64_*.cl, atomics_c11.cl, atomic_message_passing.cl, float_atomics*.cl): every stored result
// is one that any order of the atomics gives, computed here in one order (the work-items' global ids).

// OpenCL C 3.0 §6.15.12.9 [[atomic-legacy-int64]]: atom_add/sub/inc/dec/xchg/cmpxchg of 64-bit values (wrapping),
// each returning the old value.
void atomicsInt64Base(const Case& c, ArgBytes& a) {
  Buf<int64_t> in(c, a, 0), acc(c, a, 1), slots(c, a, 3), returned(c, a, 4), groups(c, a, 5);
  Buf<uint64_t> uacc(c, a, 2);
  uint64_t s[8], u[3];
  for (size_t k = 0; k < 8; ++k) s[k] = uint64_t(acc[k]);
  for (size_t k = 0; k < 3; ++k) u[k] = uacc[k];
  for (const auto& [group, members] : workGroups(c)) {
    uint64_t lsum = 0, lcount = 0, ltickets = 0;
    for (const auto& m : members) {
      const size_t g = m.index;
      const uint64_t v = uint64_t(in[g]);
      s[0] += v;
      s[1] -= v;
      s[3] += s[2]++;  // the ticket is the counter's old value
      s[4] -= 1;
      s[5] += std::exchange(s[6], 7);
      s[7] += v & 0xffff;  // the compare-exchange loop adds exactly once
      u[0] += v * 0x9E3779B97F4A7C15ull;
      u[1] -= 1;
      u[2] -= v;
      // atom_cmpxchg stores val where the old value equals cmp, and returns the old value either way.
      const int64_t old = slots[g];
      returned.set(2 * g + 0, old);
      const int64_t now = old == int64_t(g) * 3 ? int64_t(v) : old;
      returned.set(2 * g + 1, now);
      slots.set(g, now == int64_t(g) * 3 ? -1 : now);
      lsum += v;
      ltickets += lcount++;
    }
    groups.set(3 * group + 0, int64_t(lsum));
    groups.set(3 * group + 1, int64_t(lcount));
    groups.set(3 * group + 2, int64_t(ltickets));
  }
  for (size_t k = 0; k < 8; ++k) acc.set(k, int64_t(s[k]));
  for (size_t k = 0; k < 3; ++k) uacc.set(k, u[k]);
}

// OpenCL C 3.0 §6.15.12.9 [[atomic-legacy-int64]]: atom_min/max compare long values signed and ulong values unsigned.
void atomicsInt64Extended(const Case& c, ArgBytes& a) {
  Buf<int64_t> in(c, a, 0), acc(c, a, 1), groups(c, a, 3);
  Buf<uint64_t> uacc(c, a, 2);
  int64_t s[5];
  uint64_t u[4];
  for (size_t k = 0; k < 5; ++k) s[k] = acc[k];
  for (size_t k = 0; k < 4; ++k) u[k] = uacc[k];
  for (const auto& [group, members] : workGroups(c)) {
    int64_t lmin = INT64_MAX, lmax = INT64_MIN, lxor = 0;
    uint64_t lumax = 0;
    for (const auto& m : members) {
      const int64_t v = in[m.index];
      const uint64_t uv = uint64_t(v);
      s[0] = std::min(s[0], v);
      s[1] = std::max(s[1], v);
      s[2] &= ~int64_t(uint64_t(1) << (uv % 63));
      s[3] |= int64_t(uint64_t(1) << (uv % 61));
      s[4] ^= v;
      u[0] = std::min(u[0], uv);
      u[1] = std::max(u[1], uv);
      u[2] |= uv & 0xff00ff00ff00ff00ull;
      u[3] &= uv | 0x0f0f0f0f0f0f0f0full;
      lmin = std::min(lmin, v);
      lmax = std::max(lmax, v);
      lxor ^= v >> 3;  // an arithmetic shift, as OpenCL C 3.0 §6.5.10 [[operators-shift]] fills with the sign
      lumax = std::max(lumax, uv);
    }
    groups.set(4 * group + 0, lmin);
    groups.set(4 * group + 1, lmax);
    groups.set(4 * group + 2, lxor);
    groups.set(4 * group + 3, int64_t(lumax));
  }
  for (size_t k = 0; k < 5; ++k) acc.set(k, s[k]);
  for (size_t k = 0; k < 4; ++k) uacc.set(k, u[k]);
}

// OpenCL C 3.0 §6.15.12 [[atomic-functions]]: atomic_fetch_<key> replaces the value with value <key> operand (min and
// max comparing in the object's type), atomic_exchange returns the old value, a compare-exchange that finds another
// value stores nothing and writes the value it found to *expected.
void atomicsC11(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), acc(c, a, 1), slots(c, a, 4), groups(c, a, 5);
  Buf<uint32_t> uacc(c, a, 2);
  Buf<int64_t> lacc(c, a, 3);
  uint32_t s[11], u[3];
  uint64_t l[3];
  for (size_t k = 0; k < 11; ++k) s[k] = uint32_t(acc[k]);
  for (size_t k = 0; k < 3; ++k) u[k] = uacc[k];
  for (size_t k = 0; k < 3; ++k) l[k] = uint64_t(lacc[k]);
  for (const auto& [group, members] : workGroups(c)) {
    int32_t lsum = 0, lmin = INT32_MAX, winners = 0;
    uint32_t lor = 0;
    for (const auto& m : members) {
      const size_t g = m.index;
      const int32_t v = in[g];
      const uint32_t uv = uint32_t(v);
      s[0] += uv;
      s[1] -= uv;
      s[2] |= 1u << (uv % 31);
      s[3] &= ~(1u << (uv % 29));
      s[4] ^= uv;
      s[5] = uint32_t(std::min(int32_t(s[5]), v));
      s[6] = uint32_t(std::max(int32_t(s[6]), v));
      s[7] += std::exchange(s[8], 11u);
      s[9] += uint32_t(v % 1000);  // C++ and OpenCL C both truncate the quotient: the remainder has v's sign
      s[10] += 1;
      u[0] = std::min(u[0], uv);
      u[1] = std::max(u[1], uv);
      u[2] += uv * 2654435761u;
      l[0] += uint64_t(int64_t(v)) << 20;
      l[1] = uint64_t(std::min<int64_t>(int64_t(l[1]), int64_t(v) * -3000000000ll));
      l[2] ^= uint64_t(uv) << 32 | uv;
      // The own element: stored v * 2; the failing exchange reports v * 2 in `wrong`; the succeeding one stores
      // v * 2 + 5, which the load returns.
      const int32_t stored = v * 2 + 5;
      slots.set(2 * g + 0, stored);
      slots.set(2 * g + 1, v * 2 - stored + 1000 + 100);
      lsum += v;
      lmin = std::min(lmin, v);
      lor |= 1u << (uv % 32);
      // atomic_flag_test_and_set returns false to exactly one work-item of the group: the flag starts clear.
      winners += m.local == members.front().local ? 1 : 0;
    }
    groups.set(4 * group + 0, lsum);
    groups.set(4 * group + 1, lmin);
    groups.set(4 * group + 2, int32_t(lor));
    groups.set(4 * group + 3, winners);
  }
  for (size_t k = 0; k < 11; ++k) acc.set(k, int32_t(s[k]));
  for (size_t k = 0; k < 3; ++k) uacc.set(k, u[k]);
  for (size_t k = 0; k < 3; ++k) lacc.set(k, int64_t(l[k]));
}

// The producer's messages, read by each work-item after the barrier and the acquire: the flags are set.
void atomicMessagePassing(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), data(c, a, 1), flags(c, a, 2), out(c, a, 3);
  for (const auto& [group, members] : workGroups(c)) {
    const size_t n = members.size(), first = members[0].index;
    for (size_t k = 0; k < n; ++k) data.set(first + k, in[first + k] + 1);
    flags.set(group, 1);
    for (const auto& m : members) {
      const size_t l = m.local, g = m.index;
      out.set(4 * g + 0, in[first + (l + 1) % n] * 2);
      out.set(4 * g + 1, in[first + (n - 1 - l)] + 1);
      out.set(4 * g + 2, in[first + n / 2] - 3);
      out.set(4 * g + 3, 3);
    }
  }
}

// cl_ext_float_atomics [external]: atomic_fetch_add/sub/min/max on floats; the sums are exact (exactSum checks it),
// min and max see no zeros of opposite signs.
template <class T> void floatAtomics(const Case& c, ArgBytes& a, bool single) {
  Buf<int32_t> in(c, a, 0);
  Buf<T> acc(c, a, 1), groups(c, a, 2);
  const double quantum = single ? 0.25 : 0.125;
  std::vector<double> all, allNegated;
  double initial[5];
  for (size_t k = 0; k < acc.size(); ++k) initial[k] = acc[k];
  T mn = acc[2], mx = acc[3];
  all.push_back(initial[0]);
  allNegated.push_back(initial[1]);
  for (const auto& [group, members] : workGroups(c)) {
    std::vector<double> xs;
    T lmin = INFINITY, lmax = -INFINITY;
    for (const auto& m : members) {
      const T x = T(in[m.index]) * T(quantum);
      xs.push_back(double(x));
      all.push_back(double(x));
      allNegated.push_back(-double(x) * (single ? 1 : 1024));
      mn = std::min(mn, x);
      mx = std::max(mx, x);
      lmin = std::min(lmin, x);
      lmax = std::max(lmax, x);
    }
    if (single) {
      groups.set(3 * group + 0, exactSum<T>(c, xs, xs.size()));
      groups.set(3 * group + 1, lmin);
      groups.set(3 * group + 2, lmax);
    } else {
      groups.set(2 * group + 0, exactSum<T>(c, xs, xs.size()));
      groups.set(2 * group + 1, lmax);
    }
  }
  acc.set(0, exactSum<T>(c, all, all.size()));
  acc.set(1, exactSum<T>(c, allNegated, allNegated.size()));
  acc.set(2, mn);
  acc.set(3, mx);
  if (single) acc.set(4, T(initial[4] + double(all.size() - 1)));  // + 1.0 per work-item
}
void (*const kFloatAtomics)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) {
  floatAtomics<float>(c, a, true);
};
void (*const kFloatAtomicsDouble)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) {
  floatAtomics<double>(c, a, false);
};

// ---------------------------------------------------------------------------------------------
// integer_dot_product.cl: OpenCL C 3.0 §6.15.3 [[integer-functions]] dot: the components sign- or zero-extended and
// multiplied, the products added; dot_acc_sat: add_sat(dot(a, b), acc); the packed forms on the bytes of a word,
// component 0 least significant.

template <class A, class B> int64_t dot4(uint32_t x, uint32_t y) {
  int64_t s = 0;
  for (int k = 0; k < 4; ++k) s += int64_t(A(uint8_t(x >> (8 * k)))) * int64_t(B(uint8_t(y >> (8 * k))));
  return s;
}
int32_t addSatInt(int64_t x, int32_t acc) { return clampToInt(x + acc); }
uint32_t addSatUint(int64_t x, uint32_t acc) { return uint32_t(std::min<int64_t>(x + int64_t(acc), UINT32_MAX)); }

void integerDotProduct(const Case& c, ArgBytes& a) {
  Buf<uint32_t> xs(c, a, 0), ys(c, a, 1), outu(c, a, 4);
  Buf<int32_t> accs(c, a, 2), out(c, a, 3);
  for (size_t g = 0; g < items1D(c); ++g) {
    const uint32_t x = xs[g], y = ys[g];
    const int32_t acc = accs[g];
    const int64_t ss = dot4<int8_t, int8_t>(x, y), su = dot4<int8_t, uint8_t>(x, y), us = dot4<uint8_t, int8_t>(x, y);
    const int64_t uu = dot4<uint8_t, uint8_t>(x, y);
    // The packed forms give what their unpacked namesakes give for the same bytes.
    const int32_t r[12] = {int32_t(ss),        int32_t(su),        int32_t(us),        addSatInt(ss, acc),
                           addSatInt(su, acc), addSatInt(us, acc), int32_t(ss),        int32_t(su),
                           int32_t(us),        addSatInt(ss, acc), addSatInt(su, acc), addSatInt(us, acc)};
    for (size_t k = 0; k < 12; ++k) out.set(12 * g + k, r[k]);
    const uint32_t ru[4] = {uint32_t(uu), addSatUint(uu, uint32_t(acc)), uint32_t(uu), addSatUint(uu, uint32_t(acc))};
    for (size_t k = 0; k < 4; ++k) outu.set(4 * g + k, ru[k]);
  }
}

// ---------------------------------------------------------------------------------------------
// extended_bit_ops.cl: OpenCL C 3.0 §6.15.3.1 [[extended-bit-operations]], bit by bit on a `bits`-wide value held in
// the low bits of a uint64_t: bitfield_insert replaces the `count` bits from bit `offset` on with the low `count` bits
// of insert; the extracts return those `count` bits as the low bits of the result, sign- or zero-extended (0 for a
// count of 0); bit_reverse mirrors the bits.

uint64_t lowBits(unsigned count) { return count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1; }
uint64_t bitfieldInsert(uint64_t base, uint64_t insert, unsigned offset, unsigned count, unsigned bits) {
  if (count == 0) return base & lowBits(bits);  // offset may then be the width, too far to shift by
  const uint64_t field = lowBits(count) << offset;
  return ((base & ~field) | ((insert << offset) & field)) & lowBits(bits);
}
uint64_t extractUnsigned(uint64_t base, unsigned offset, unsigned count) {
  return count == 0 ? 0 : (base >> offset) & lowBits(count);
}
// Sign-extended to 64 bits.
int64_t extractSigned(uint64_t base, unsigned offset, unsigned count) {
  if (count == 0) return 0;
  const uint64_t field = extractUnsigned(base, offset, count);
  return (field >> (count - 1)) & 1 ? int64_t(field | ~lowBits(count)) : int64_t(field);
}
uint64_t bitReverse(uint64_t x, unsigned bits) {
  uint64_t r = 0;
  for (unsigned k = 0; k < bits; ++k) r |= ((x >> k) & 1) << (bits - 1 - k);
  return r;
}

void extendedBitOps(const Case& c, ArgBytes& a) {
  Buf<uint64_t> in(c, a, 0), out(c, a, 2);
  Buf<uint32_t> params(c, a, 1);
  for (size_t g = 0; g < items1D(c); ++g) {
    const uint64_t v = in[g], w = in[g] * 0x9E3779B97F4A7C15ull + 1;
    const uint32_t p = params[g];
    const auto offset = [&](unsigned bits) { return (p & 0xff) % (bits + 1); };
    const auto count = [&](unsigned bits) { return ((p >> 8) & 0xff) % (bits - offset(bits) + 1); };
    const auto insert = [&](unsigned bits) { return bitfieldInsert(v, w, offset(bits), count(bits), bits); };
    const auto extractS = [&](uint64_t x, unsigned bits) {
      return uint64_t(extractSigned(x, offset(bits), count(bits)));
    };
    const auto extractU = [&](uint64_t x, unsigned bits) { return extractUnsigned(x, offset(bits), count(bits)); };
    uint64_t r[16];
    r[0] = insert(8);
    r[1] = extractS(v & 0xff, 8);
    r[2] = extractU(v & 0xff, 8);
    r[3] = insert(16);  // stored as a ushort: zero-extended
    r[4] = extractS(v & 0xffff, 16);
    r[5] = insert(32);
    r[6] = extractS(v & 0xffffffff, 32);
    r[7] = extractU(v & 0xffffffff, 32);
    r[8] = insert(64);
    r[9] = extractS(v, 64);
    r[10] = extractU(v, 64);
    r[11] =
        bitReverse(v & 0xff, 8) | bitReverse((v >> 8) & 0xffff, 16) << 8 | bitReverse((v >> 24) & 0xffffffff, 32) << 24;
    r[12] = bitReverse(v, 64);
    r[13] = bitReverse(w, 64);
    // uint2 (32-bit components) with the offset and count of a 16-bit width.
    const unsigned o16 = offset(16), n16 = count(16);
    r[14] = bitfieldInsert(v & 0xffffffff, w & 0xffffffff, o16, n16, 32) |
            bitfieldInsert(v >> 32, w >> 32, o16, n16, 32) << 32;
    // char4 of w's low word, extracted signed with the 8-bit offset and count; uchar4 of v's low word reversed.
    uint64_t e = 0, rv = 0;
    for (unsigned k = 0; k < 4; ++k) {
      e |= (uint64_t(extractSigned((w >> (8 * k)) & 0xff, offset(8), count(8))) & 0xff) << (8 * k);
      rv |= bitReverse((v >> (8 * k)) & 0xff, 8) << (8 * k);
    }
    r[15] = e | rv << 32;
    for (size_t k = 0; k < 16; ++k) out.set(16 * g + k, r[k]);
  }
}

// ---------------------------------------------------------------------------------------------
// expect_assume.cl: __builtin_expect(x, c) is x; __builtin_assume changes nothing.

void expectAssume(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  const size_t n = items1D(c);
  for (size_t g = 0; g < n; ++g) {
    const int32_t x = in[g];
    if (x < 0 || x >= (1 << 20)) shapeError(c, "the kernel assumes 0 <= x < 2^20");
    out.set(g, x > 500000 ? x / 3 : x * 2 + 1);
    out.set(n + g, (x & 7) + int32_t(int64_t(x) % 11));
    int32_t steps = 0;
    for (int32_t v = x; v != 0; v >>= 1) ++steps;
    out.set(2 * n + g, steps);
  }
}

// ---------------------------------------------------------------------------------------------
// extended_async_copies.cl: OpenCL C 3.0 §6.15.11.1 [[extended-async-copies]]: element (p, l, e) of a copy moves from
// src + src_offset + p * src_total_plane_area + l * src_total_line_length + e to the same place of dst with the dst_
// values (in elements); nothing else is written.

template <class T, class Src, class Dst> void copy3D(Dst& dst, size_t dstOffset, const Src& src, size_t srcOffset,
                                                     size_t perLine, size_t lines, size_t planes, size_t srcLine,
                                                     size_t srcArea, size_t dstLine, size_t dstArea) {
  for (size_t p = 0; p < planes; ++p)
    for (size_t l = 0; l < lines; ++l)
      for (size_t e = 0; e < perLine; ++e)
        dst.set(dstOffset + p * dstArea + l * dstLine + e, T(src[srcOffset + p * srcArea + l * srcLine + e]));
}

// A local array as the host sees it.
template <class T> struct LocalArray {
  std::vector<T> v;
  T operator[](size_t i) const { return v.at(i); }
  void set(size_t i, T x) { v.at(i) = x; }
};

void asyncCopy2d2d(const Case& c, ArgBytes& a) {
  constexpr size_t kTW = 6, kTH = 4, kTL = kTW + 2, kTile = kTL * kTH + 1;
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  const size_t width = scalar<uint32_t>(c, 2);
  for (const auto& [group, members] : workGroups(c)) {
    LocalArray<int32_t> tile{std::vector<int32_t>(kTile, -1)};
    copy3D<int32_t>(tile, 1, in, width + group * kTW, kTW, kTH, 1, width, 0, kTL, 0);
    for (size_t i = 0; i < kTW * kTH; ++i) {
      const size_t at = 1 + i / kTW * kTL + i % kTW;
      tile.set(at, tile[at] * 3 + int32_t(group));
    }
    copy3D<int32_t>(out, group * kTW + 1, tile, 1, kTW, kTH, 1, kTL, 0, width, 0);
    copy3D<int32_t>(out, (kTH + 1) * width + group * kTL, tile, 0, kTL, kTH, 1, kTL, 0, width, 0);
  }
}

void asyncCopy3d3d(const Case& c, ArgBytes& a) {
  constexpr size_t kBX = 4, kBY = 3, kBZ = 2, kVW = 9, kVA = 54, kLL = 5, kLA = 16, kBox = kLA * kBZ;
  Buf<uint16_t> in(c, a, 0), out(c, a, 1);
  for (const auto& [group, members] : workGroups(c)) {
    LocalArray<uint16_t> box{std::vector<uint16_t>(kBox, 0xffff)};
    copy3D<uint16_t>(box, 2, in, kVA + 2 * kVW + 1 + group, kBX, kBY, kBZ, kVW, kVA, kLL, kLA);
    for (size_t i = 0; i < kBox; ++i) box.set(i, uint16_t(box[i] ^ uint16_t(0x0101 * (group + 1))));
    copy3D<uint16_t>(out, group * kBX * kBY * kBZ, box, 2, kBX, kBY, kBZ, kLL, kLA, kBX, kBX * kBY);
    copy3D<uint16_t>(out, 200 + group * 48, box, 0, kLL, kBY, kBZ, kLL, kLA, 7, 24);
  }
}

// ---------------------------------------------------------------------------------------------
// generic_address_space.cl: OpenCL C 3.0 §6.15.10 [[address-space-qualifier-functions]]: to_global, to_local and
// to_private return NULL for a pointer into another address space, so a pointer is found in exactly its own.

void genericAddressSpace(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), buf(c, a, 1), out(c, a, 2);
  constexpr int32_t kGlobal = 1, kLocal = 2, kPrivate = 4;
  for (const auto& [group, members] : workGroups(c)) {
    const size_t first = members[0].index;
    for (const auto& m : members) {
      const size_t g = m.index, o = 8 * g;
      const int32_t x = in[g];
      int32_t priv[4] = {0, x, x * 2, x * 3};
      int32_t global4 = 0, local4 = 0;
      for (size_t k = 0; k < 4; ++k) {
        global4 += in[first + k];
        local4 += in[first + k] + 1;
      }
      out.set(o + 0, global4);
      out.set(o + 1, local4);
      out.set(o + 2, priv[0] + priv[1] + priv[2] + priv[3]);
      out.set(o + 3, kGlobal | kLocal << 3 | kPrivate << 6);
      int32_t mine = x, shared = x + 1;
      const int32_t space = x & 3;
      int32_t* p = space == 0 ? &mine : space == 1 ? &shared : &priv[space - 1];
      *p *= 3;
      out.set(o + 4, *p);
      out.set(o + 5, space == 0 ? kGlobal : space == 1 ? kLocal : kPrivate);
      out.set(o + 6, 1);  // get_fence's flags include the pointer's address space's
      out.set(o + 7, mine + shared + priv[1] + priv[2]);
      buf.set(g, mine);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// program_scope_globals.cl: the program-scope variables keep their initial values (the kernel writes only `scratch`,
// each element before the work-item that writes it reads it back).

void programScopeGlobals(const Case& c, ArgBytes& a) {
  Buf<int32_t> in(c, a, 0), out(c, a, 1);
  const int32_t table[8] = {3, 1, 4, 1, 5, 9, 2, 6}, offsets[4] = {0, 10, 20, 30};
  const int32_t pairA[2] = {7, -8}, pairB[2] = {-1, 2};
  for (size_t g = 0; g < items1D(c); ++g) {
    const int32_t x = in[g];
    out.set(4 * g + 0, x * 2 + table[g % 8] + offsets[g % 4]);
    out.set(4 * g + 1, int32_t(float(x) * 1.5f));  // |x| < 2^24: the conversions are exact, the product rounds once
    out.set(4 * g + 2, table[2 + g % 3]);
    out.set(4 * g + 3, pairA[g & 1] * pairB[g & 1] + 100);
  }
}

// ---------------------------------------------------------------------------------------------

void (*const kMatmulNaive)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) { matmul(c, a, false); };
void (*const kMatmulTiled)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) { matmul(c, a, true); };

// Every case file in golden/cases/, by name. Cases of the same kernel share its function.
// ---------------------------------------------------------------------------------------------
// device_enqueue.cl: OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]]; each child's writes as the kernel source states them.
void enqueueOnce(const Case& c, ArgBytes& a) {
  Buf<int32_t> out(c, a, 0);
  const auto base = scalar<int32_t>(c, 1);
  for (size_t i = 0; i < items1D(c); ++i) out.set(i, base + int32_t(i * i));
}
void enqueuePerItem(const Case& c, ArgBytes& a) {
  Buf<int32_t> out(c, a, 0);
  for (size_t g = 0; g < items1D(c); ++g)
    for (size_t j = 0; j < 4; ++j) out.set(4 * g + j, int32_t(100 * g + 10 * (j / 2) + j));  // groups of 2
}
void enqueueWaitKernel(const Case& c, ArgBytes& a) {
  Buf<int32_t> x(c, a, 0), y(c, a, 1);
  const size_t n = items1D(c);
  for (size_t i = 0; i < n; ++i) x.set(i, int32_t(2 * i + 1));
  for (size_t k = 0; k < n; ++k) y.set(k, int32_t(3 * (2 * (n - 1 - k) + 1)));
}
void enqueueEvents(const Case& c, ArgBytes& a) {
  Buf<int32_t> x(c, a, 0), sums(c, a, 1);
  int32_t sum = 0;
  for (size_t i = 0; i < items1D(c); ++i) {
    x.set(i, int32_t(2 * i * i));
    sum += int32_t(2 * i * i);
  }
  sums.set(0, sum);
  sums.set(1, 0);  // CLK_SUCCESS from every enqueue
}
void enqueueNested(const Case& c, ArgBytes& a) {
  Buf<int32_t> out(c, a, 0);
  for (int32_t k = 0; k < 3; ++k) {
    out.set(size_t(k), k * k + 7);
    int32_t sum = 0;
    for (int32_t j = 1; j <= k + 2; ++j) sum += j;
    out.set(size_t(3 + k), sum);
  }
}

const std::pair<const char*, void (*)(const Case&, ArgBytes&)> kCases[] = {
    {"vadd", vadd},
    {"async_copy", asyncCopy},
    {"async_copy_O0", asyncCopy},
    {"math_functions", mathFunctions},
    {"math_functions_O0", mathFunctions},
    {"atomics", atomics},
    {"atomics_O0", atomics},
    {"geometric", geometric},
    {"geometric_O0", geometric},
    {"shuffle_select", shuffleSelect},
    {"shuffle_select_O0", shuffleSelect},
    {"vector_data", vectorData},
    {"vector_data_O0", vectorData},
    {"convert_rounding", convertRounding},
    {"convert_rounding_O0", convertRounding},
    {"integer_functions", integerFunctions},
    {"integer_functions_O0", integerFunctions},
    {"spec_constants_default", specConstants},
    {"spec_constants_set", specConstants},
    {"vadd_O0", vadd},
    {"arith_char", arithChar},
    {"arith_uchar", arithUchar},
    {"arith_short", arithShort},
    {"arith_ushort", arithUshort},
    {"arith_int", arithInt},
    {"arith_uint", arithUint},
    {"arith_long", arithLong},
    {"arith_ulong", arithUlong},
    {"arith_float", arithFloat},
    {"arith_float_O0", arithFloat},
    {"arith_float_special", arithFloatSpecial},
    {"arith_float_special_O2", arithFloatSpecial},
    {"arith_double", arithDouble},
    {"double_poly", doublePoly},
    {"arith_half", arithHalf},
    {"arith_half_O0", arithHalf},
    {"half_convert", halfConvert},
    {"half_convert_ties", halfConvert},
    {"vec_float4", vecFloat4},
    {"vec_int8", vecInt8},
    {"vec_uchar16", vecUchar16},
    {"vec_short2", vecShort2},
    {"vec_double2", vecDouble2},
    {"vec_float3", vecFloat3},
    {"vec_float3_O2", vecFloat3},
    {"vec_float16", vecFloat16},
    {"shift_uint", shiftUint},
    {"shift_int", shiftInt},
    {"shift_ulong", shiftUlong},
    {"shift_small", shiftSmall},
    {"shift_small_O0", shiftSmall},
    {"bitwise_uint", bitwiseUint},
    {"bitwise_ulong", bitwiseUlong},
    {"logical_ops", logicalOps},
    {"compare_int", compareInt},
    {"compare_uint", compareUint},
    {"select_vec", selectVec},
    {"select_vec_O2", selectVec},
    {"float_nan_compare", floatNanCompare},
    {"float_nan_compare_O0", floatNanCompare},
    {"float_minmax_nan", floatMinmaxNan},
    {"control_branches", controlBranches},
    {"control_branches_O2", controlBranches},
    {"control_loops", controlLoops},
    {"control_loops_O0", controlLoops},
    {"calls_noinline", callsNoinline},
    {"calls_noinline_O2", callsNoinline},
    {"struct_by_value", structByValue},
    {"struct_by_value_O0", structByValue},
    {"struct_private_global", structPrivateGlobal},
    {"struct_packed", structPacked},
    {"struct_packed_O0", structPacked},
    {"private_sort", privateSort},
    {"private_sort_O0", privateSort},
    {"private_histogram", privateHistogram},
    {"local_reverse", localReverse},
    {"local_arg_rotate", localArgRotate},
    {"local_arg_rotate_O2", localArgRotate},
    {"constant_table", constantTable},
    {"constant_arg_poly", constantArgPoly},
    {"reduce_int_sum", reduceIntSum},
    {"reduce_int_sum_O0", reduceIntSum},
    {"reduce_float_tree", reduceFloatTree},
    {"reduce_float_tree_O2", reduceFloatTree},
    {"scan_hillis_steele", scanHillisSteele},
    {"scan_hillis_steele_O0", scanHillisSteele},
    {"nonuniform_ids", nonuniformIds},
    {"nonuniform_groupsum", nonuniformGroupsum},
    {"global_offset_ids", globalOffsetIds},
    {"global_offset_2d", globalOffset2d},
    {"ndrange_2d", ndrange2d},
    {"ndrange_2d_O0", ndrange2d},
    {"ndrange_3d", ndrange3d},
    {"ndrange_3d_O2", ndrange3d},
    {"ptr_byte_view", ptrByteView},
    {"ptr_uintptr_roundtrip", ptrUintptrRoundtrip},
    {"divrem_int", divremInt},
    {"divrem_uint", divremUint},
    {"divrem_long", divremLong},
    {"divrem_char", divremChar},
    {"conv_int_float", convIntFloat},
    {"conv_int_float_O2", convIntFloat},
    {"conv_misc", convMisc},
    {"matmul_naive", kMatmulNaive},
    {"matmul_naive_O0", kMatmulNaive},
    {"matmul_tiled", kMatmulTiled},
    {"matmul_tiled_O2", kMatmulTiled},
    {"dot_product", dotProduct},
    {"dot_product_O0", dotProduct},
    {"dot4_fma", dot4Fma},
    {"int_minmax_clamp", intMinmaxClamp},
    {"small_minmax", smallMinmax},
    {"promotion", promotion},
    {"mad_fma_float", madFmaFloat},
    {"fma_double", fmaDouble},
    {"wg_all_any", wgAllAny},
    {"wg_all_any_O0", wgAllAny},
    {"wg_broadcast", wgBroadcast},
    {"wg_broadcast_O0", wgBroadcast},
    {"wg_broadcast_2d", wgBroadcast2d},
    {"wg_broadcast_3d", wgBroadcast3d},
    {"wg_reduce_int", kWgReduceInt},
    {"wg_reduce_int_O0", kWgReduceInt},
    {"wg_reduce_long", kWgReduceLong},
    {"wg_scan_int", kWgScanInt},
    {"wg_scan_int_O0", kWgScanInt},
    {"wg_scan_long", kWgScanLong},
    {"wg_reduce_float", wgReduceFloat},
    {"wg_reduce_float_O0", wgReduceFloat},
    {"wg_uniform_arith", wgUniformArith},
    {"wg_uniform_arith_O0", wgUniformArith},
    {"subgroups", subgroups},
    {"subgroups_O0", subgroups},
    {"sg_ballot", kSubGroupChecks},
    {"sg_ballot_O0", kSubGroupChecks},
    {"sg_vote", kSubGroupChecks},
    {"sg_vote_O0", kSubGroupChecks},
    {"sg_non_uniform_arith", kSubGroupChecks},
    {"sg_non_uniform_arith_O0", kSubGroupChecks},
    {"sg_clustered", kSubGroupChecks},
    {"sg_clustered_O0", kSubGroupChecks},
    {"sg_shuffle", kSubGroupChecks},
    {"sg_shuffle_O0", kSubGroupChecks},
    {"sg_shuffle_relative", kSubGroupChecks},
    {"sg_shuffle_relative_O0", kSubGroupChecks},
    {"sg_rotate", kSubGroupChecks},
    {"sg_rotate_O0", kSubGroupChecks},
    {"sg_extended_types", kSubGroupChecks},
    {"sg_extended_types_O0", kSubGroupChecks},
    {"atomics_int64_base", atomicsInt64Base},
    {"atomics_int64_base_O0", atomicsInt64Base},
    {"atomics_int64_extended", atomicsInt64Extended},
    {"atomics_int64_extended_O0", atomicsInt64Extended},
    {"atomics_c11", atomicsC11},
    {"atomics_c11_O0", atomicsC11},
    {"atomic_message_passing", atomicMessagePassing},
    {"atomic_message_passing_O0", atomicMessagePassing},
    {"float_atomics", kFloatAtomics},
    {"float_atomics_O0", kFloatAtomics},
    {"float_atomics_double", kFloatAtomicsDouble},
    {"integer_dot_product", integerDotProduct},
    {"integer_dot_product_O0", integerDotProduct},
    {"extended_bit_ops", extendedBitOps},
    {"extended_bit_ops_O0", extendedBitOps},
    {"expect_assume", expectAssume},
    {"expect_assume_O0", expectAssume},
    {"async_copy_2d2d", asyncCopy2d2d},
    {"async_copy_2d2d_O0", asyncCopy2d2d},
    {"async_copy_3d3d", asyncCopy3d3d},
    {"async_copy_3d3d_O0", asyncCopy3d3d},
    {"generic_address_space", genericAddressSpace},
    {"generic_address_space_O0", genericAddressSpace},
    {"device_enqueue_once", enqueueOnce},
    {"device_enqueue_once_O0", enqueueOnce},
    {"device_enqueue_per_item", enqueuePerItem},
    {"device_enqueue_per_item_O0", enqueuePerItem},
    {"device_enqueue_wait_kernel", enqueueWaitKernel},
    {"device_enqueue_wait_kernel_O0", enqueueWaitKernel},
    {"device_enqueue_events", enqueueEvents},
    {"device_enqueue_events_O0", enqueueEvents},
    {"device_enqueue_nested", enqueueNested},
    {"device_enqueue_nested_O0", enqueueNested},
    {"program_scope_globals", programScopeGlobals},
    {"program_scope_globals_O0", programScopeGlobals},
};

}  // namespace

const std::map<std::string, HostReference>& hostReferences() {
  static const auto table = [] {
    std::map<std::string, HostReference> m;
    for (const auto& [name, fn] : kCases)
      if (!m.emplace(name, fn).second) throw std::logic_error(std::string("duplicate host reference ") + name);
    for (const auto& [name, fn] : imageHostReferences())
      if (!m.emplace(name, fn).second) throw std::logic_error("duplicate host reference " + name);
    for (const auto& [name, fn] : shaderHostReferences())
      if (!m.emplace(name, fn).second) throw std::logic_error("duplicate host reference " + name);
    return m;
  }();
  return table;
}

std::string caseName(const cli::Case& c) { return c.file.stem().string(); }

std::vector<std::filesystem::path> caseFiles(const std::filesystem::path& goldenDir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(goldenDir / "cases"))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::filesystem::path expectedFile(const std::filesystem::path& goldenDir, const std::string& caseName,
                                   size_t argIndex) {
  return goldenDir / "expected" / (caseName + ".arg" + std::to_string(argIndex) + ".txt");
}

ArgBytes materializeArgs(const cli::Case& c) {
  ArgBytes bytes(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].kind == ArgSpec::Kind::Buffer)
      bytes[i] = cli::materialize(c, i);
    else if (c.args[i].kind == ArgSpec::Kind::Image)
      bytes[i] = cli::materializeImage(c, i);
  return bytes;
}

bool isOutput(const cli::Case& c, size_t i) {
  const auto& arg = c.args.at(i);
  return (arg.kind == ArgSpec::Kind::Buffer && arg.buffer.output) || (arg.kind == ArgSpec::Kind::Image && arg.image.output);
}

std::string formatOutput(const cli::Case& c, size_t i, const std::vector<std::byte>& bytes) {
  const auto& arg = c.args.at(i);
  if (arg.kind == ArgSpec::Kind::Image) {
    if (bytes.size() != cli::imageContentBytes(arg.image.desc))
      throw std::runtime_error(c.file.string() + ": image argument " + std::to_string(i) + " has the wrong size");
    return cli::formatImage(arg.image.desc, bytes.data());
  }
  if (bytes.size() != arg.buffer.count * numerics::sizeOf(arg.buffer.type))
    throw std::runtime_error(c.file.string() + ": buffer argument " + std::to_string(i) + " has the wrong size");
  return cli::formatElements(arg.buffer.type, bytes.data(), arg.buffer.count);
}

ArgBytes expectedArgs(const cli::Case& c) {
  const auto& refs = hostReferences();
  const auto it = refs.find(caseName(c));
  if (it == refs.end())
    throw std::runtime_error(c.file.string() + ": no host reference for case '" + caseName(c) + "'");
  ArgBytes bytes = materializeArgs(c);
  it->second(c, bytes);
  return bytes;
}

}  // namespace clref::golden
