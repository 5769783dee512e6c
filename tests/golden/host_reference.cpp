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
#include "tests/golden/host_reference.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <mpfr.h>
#include <stdexcept>
#include <utility>

namespace clref::golden {

namespace {

using reference::ArgSpec;
using reference::Case;

[[noreturn]] void shapeError(const Case& c, const std::string& what) {
  throw std::runtime_error(c.file.string() + ": host reference: " + what);
}

// ---------------------------------------------------------------------------------------------
// Typed access to argument bytes. memcpy keeps the accesses well defined for any alignment
// (the packed-struct kernel reads misaligned fields).

template <class T> T loadAt(const std::vector<std::byte>& bytes, size_t byteOffset) {
  if (byteOffset + sizeof(T) > bytes.size()) throw std::out_of_range("host reference: load past the end of a buffer");
  T v;
  std::memcpy(&v, bytes.data() + byteOffset, sizeof(T));
  return v;
}

template <class T> void storeAt(std::vector<std::byte>& bytes, size_t byteOffset, T v) {
  if (byteOffset + sizeof(T) > bytes.size()) throw std::out_of_range("host reference: store past the end of a buffer");
  std::memcpy(bytes.data() + byteOffset, &v, sizeof(T));
}

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

void (*const kMatmulNaive)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) { matmul(c, a, false); };
void (*const kMatmulTiled)(const Case&, ArgBytes&) = [](const Case& c, ArgBytes& a) { matmul(c, a, true); };

// Every case file in golden/cases/, by name. Cases of the same kernel share its function.
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
};

}  // namespace

const std::map<std::string, HostReference>& hostReferences() {
  static const auto table = [] {
    std::map<std::string, HostReference> m;
    for (const auto& [name, fn] : kCases)
      if (!m.emplace(name, fn).second) throw std::logic_error(std::string("duplicate host reference ") + name);
    for (const auto& [name, fn] : imageHostReferences())
      if (!m.emplace(name, fn).second) throw std::logic_error("duplicate host reference " + name);
    return m;
  }();
  return table;
}

std::string caseName(const reference::Case& c) { return c.file.stem().string(); }

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

ArgBytes materializeArgs(const reference::Case& c) {
  ArgBytes bytes(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].kind == ArgSpec::Kind::Buffer)
      bytes[i] = reference::materialize(c, i);
    else if (c.args[i].kind == ArgSpec::Kind::Image)
      bytes[i] = reference::materializeImage(c, i);
  return bytes;
}

bool isOutput(const reference::Case& c, size_t i) {
  const auto& arg = c.args.at(i);
  return (arg.kind == ArgSpec::Kind::Buffer && arg.buffer.output) || (arg.kind == ArgSpec::Kind::Image && arg.image.output);
}

std::string formatOutput(const reference::Case& c, size_t i, const std::vector<std::byte>& bytes) {
  const auto& arg = c.args.at(i);
  if (arg.kind == ArgSpec::Kind::Image) {
    if (bytes.size() != reference::imageContentBytes(arg.image.desc))
      throw std::runtime_error(c.file.string() + ": image argument " + std::to_string(i) + " has the wrong size");
    return reference::formatImage(arg.image.desc, bytes.data());
  }
  if (bytes.size() != arg.buffer.count * reference::sizeOf(arg.buffer.type))
    throw std::runtime_error(c.file.string() + ": buffer argument " + std::to_string(i) + " has the wrong size");
  return reference::formatElements(arg.buffer.type, bytes.data(), arg.buffer.count);
}

ArgBytes expectedArgs(const reference::Case& c) {
  const auto& refs = hostReferences();
  const auto it = refs.find(caseName(c));
  if (it == refs.end())
    throw std::runtime_error(c.file.string() + ": no host reference for case '" + caseName(c) + "'");
  ArgBytes bytes = materializeArgs(c);
  it->second(c, bytes);
  return bytes;
}

}  // namespace clref::golden
