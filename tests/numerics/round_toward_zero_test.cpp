// numerics/round_toward_zero.hpp: add, sub, mul, div, sqrt and fma rounded toward zero in binary16, binary32 and
// binary64, against two references that do not go through it:
//  - MPFR: the operation at 2400 bits in MPFR_RNDZ (exact for ±, ×, fma of these formats; for ÷ and √ a truncation,
//    and truncating twice is truncating once), then rounded to the format toward zero by mpfr_round's roundToBits;
//  - for binary32 and binary64, the host's own arithmetic under fesetround(FE_TOWARDZERO).
// And that the fast path declines (the MPFR fallback decides) where its error term is not exact.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "numerics/mpfr_round.hpp"
#include "numerics/round_toward_zero.hpp"

using namespace clref::numerics;

namespace {

constexpr RoundedOp kOps[] = {RoundedOp::Add, RoundedOp::Sub,  RoundedOp::Mul,
                              RoundedOp::Div, RoundedOp::Sqrt, RoundedOp::Fma};
const char* nameOf(RoundedOp op) {
  switch (op) {
    case RoundedOp::Add: return "add";
    case RoundedOp::Sub: return "sub";
    case RoundedOp::Mul: return "mul";
    case RoundedOp::Div: return "div";
    case RoundedOp::Sqrt: return "sqrt";
    case RoundedOp::Fma: return "fma";
  }
  return "?";
}

template <class T> constexpr Format kFormat = std::is_same_v<T, Half>    ? Format::Half
                                              : std::is_same_v<T, float> ? Format::Float
                                                                         : Format::Double;
template <class T> uint64_t bitsOf(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return x.bits;
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<uint32_t>(x);
  else
    return std::bit_cast<uint64_t>(x);
}
template <class T> T fromBits(uint64_t b) {
  if constexpr (std::is_same_v<T, Half>)
    return Half{uint16_t(b)};
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<float>(uint32_t(b));
  else
    return std::bit_cast<double>(b);
}
template <class T> bool isNan(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return (x.bits & 0x7fff) > 0x7c00;
  else
    return std::isnan(x);
}
// Same value and sign, or both NaN.
template <class T> bool same(T a, T b) { return bitsOf(a) == bitsOf(b) || (isNan(a) && isNan(b)); }

template <class T> T mpfrReference(RoundedOp op, T a, T b, T c) {
  Mpfr x(2400), y(2400), z(2400), r(2400);
  setExact(x.get(), a);
  setExact(y.get(), b);
  setExact(z.get(), c);
  switch (op) {
    case RoundedOp::Add: mpfr_add(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Sub: mpfr_sub(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Mul: mpfr_mul(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Div: mpfr_div(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Sqrt: mpfr_sqrt(r, x, MPFR_RNDZ); break;
    case RoundedOp::Fma: mpfr_fma(r, x, y, z, MPFR_RNDZ); break;
  }
  return fromBits<T>(roundToBits(r, kFormat<T>, Rounding::RTZ));
}

// The host's arithmetic in the rounding direction toward zero (volatile: no folding under the default mode).
template <class T> T hostReference(RoundedOp op, T a, T b, T c) {
  volatile T va = a, vb = b, vc = c;
  const int saved = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  T r{};
  switch (op) {
    case RoundedOp::Add: r = va + vb; break;
    case RoundedOp::Sub: r = va - vb; break;
    case RoundedOp::Mul: r = va * vb; break;
    case RoundedOp::Div: r = va / vb; break;
    case RoundedOp::Sqrt: r = std::sqrt(T(va)); break;
    case RoundedOp::Fma: r = std::fma(T(va), T(vb), T(vc)); break;
  }
  volatile T kept = r;
  std::fesetround(saved);
  return kept;
}

template <class T> T run(RoundedOp op, T a, T b, T c) {
  switch (op) {
    case RoundedOp::Add: return addTowardZero(a, b);
    case RoundedOp::Sub: return subTowardZero(a, b);
    case RoundedOp::Mul: return mulTowardZero(a, b);
    case RoundedOp::Div: return divTowardZero(a, b);
    case RoundedOp::Sqrt: return sqrtTowardZero(a);
    case RoundedOp::Fma: return fmaTowardZero(a, b, c);
  }
  return T{};
}

// Checks one operation on (a, b, c); returns false (with a message) on a mismatch.
template <class T> bool check(RoundedOp op, T a, T b, T c, std::string& why) {
  const T got = run(op, a, b, c);
  const T want = mpfrReference(op, a, b, c);
  bool ok = same(got, want);
  if constexpr (!std::is_same_v<T, Half>) {
    const T host = hostReference(op, a, b, c);
    ok = ok && same(got, host);
    if (!ok) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s(%a, %a, %a) = %a, MPFR %a, host %a", nameOf(op), double(a), double(b),
                    double(c), double(got), double(want), double(host));
      why = buf;
    }
  } else if (!ok) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s(0x%04x, 0x%04x, 0x%04x) = 0x%04x, MPFR 0x%04x", nameOf(op), a.bits, b.bits,
                  c.bits, got.bits, want.bits);
    why = buf;
  }
  return ok;
}

// Random operands: raw bit patterns (every exponent: overflow, underflow, NaN, inf) and values of nearby exponents
// (the fast path's ground: cancellation, ties of close operands).
template <class T> T randomValue(std::mt19937_64& rng, bool nearby) {
  if (!nearby) {
    if constexpr (std::is_same_v<T, Half>)
      return Half{uint16_t(rng())};
    else if constexpr (std::is_same_v<T, float>)
      return std::bit_cast<float>(uint32_t(rng()));
    else
      return std::bit_cast<double>(rng());
  }
  std::uniform_real_distribution<double> m(-2.0, 2.0);
  std::uniform_int_distribution<int> e(-6, 6);
  const double v = std::ldexp(m(rng), e(rng));
  if constexpr (std::is_same_v<T, Half>)
    return toHalf(v);
  else
    return T(v);
}

template <class T> void randomSweep(uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  int failures = 0;
  std::string first;
  for (int i = 0; i < count; ++i) {
    const bool nearby = i % 2 == 0;
    const T a = randomValue<T>(rng, nearby), b = randomValue<T>(rng, nearby), c = randomValue<T>(rng, nearby);
    for (RoundedOp op : kOps) {
      std::string why;
      if (!check(op, a, b, c, why)) {
        if (failures++ == 0) first = why;
      }
    }
  }
  INFO(first);
  CHECK(failures == 0);
}

template <class T> void edgeCases() {
  using L = std::numeric_limits<T>;
  const T one = 1, maxv = L::max(), minNormal = L::min(), minSub = L::denorm_min(), eps = L::epsilon();
  const T values[] = {T(0),          -T(0),         one,     -one,        T(3),          T(0.1),         one + eps,
                      one - eps / 2, maxv,          -maxv,   minNormal,   -minNormal,    minSub,         -minSub,
                      minSub * 3,    minNormal * 3, eps / 2, eps * 0.75f, L::infinity(), -L::infinity(), L::quiet_NaN(),
                      maxv / 2,      T(1) / T(3),   T(-7)};
  int failures = 0;
  std::string first;
  for (T a : values)
    for (T b : values)
      for (T c : {T(0), -one, eps / 2, minSub, maxv})
        for (RoundedOp op : kOps) {
          std::string why;
          if (!check(op, a, b, c, why) && failures++ == 0) first = why;
        }
  INFO(first);
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("round toward zero: add, sub, mul, div, sqrt, fma on random operands match MPFR and the host",
          "[numerics][rtz]") {
  randomSweep<float>(1, 20000);
  randomSweep<double>(2, 20000);
  randomSweep<Half>(3, 20000);
}

TEST_CASE("round toward zero: zeros, infinities, NaN, the largest and smallest values", "[numerics][rtz]") {
  edgeCases<float>();
  edgeCases<double>();
  const uint16_t halves[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0001, 0x8001,
                             0x0400, 0x3555, 0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x4200, 0x1400};
  int failures = 0;
  std::string first;
  for (uint16_t a : halves)
    for (uint16_t b : halves)
      for (uint16_t c : {uint16_t(0x0000), uint16_t(0x0001), uint16_t(0xbc00), uint16_t(0x7bff)})
        for (RoundedOp op : kOps) {
          std::string why;
          if (!check(op, Half{a}, Half{b}, Half{c}, why) && failures++ == 0) first = why;
        }
  INFO(first);
  CHECK(failures == 0);
}

TEST_CASE("round toward zero: the cases that tell it from rounding to nearest", "[numerics][rtz]") {
  // 1 + 0.75 ulp: to nearest 1 + ulp, toward zero 1.
  CHECK(addTowardZero(1.0f, 0x1.8p-24f) == 1.0f);
  CHECK(addTowardZero(-1.0f, -0x1.8p-24f) == -1.0f);
  // A tie (1 + ulp/2 rounds to even: 1) and an exact sum stay.
  CHECK(addTowardZero(1.0f, 0x1p-24f) == 1.0f);
  CHECK(addTowardZero(1.0f, 0x1p-23f) == 0x1.000002p0f);
  // 1 + 3·2^-54 in binary64: to nearest 1 + 2^-52, toward zero 1.
  CHECK(subTowardZero(1.0, -0x1.8p-53) == 1.0);
  // 1/3: the truncated significand 0x1.555554p-2 (to nearest is …556).
  CHECK(divTowardZero(1.0f, 3.0f) == 0x1.555554p-2f);
  CHECK(divTowardZero(-1.0f, 3.0f) == -0x1.555554p-2f);
  CHECK(divTowardZero(2.0, 3.0) == 0x1.5555555555555p-1);
  // sqrt(2) = 1.0110101000001001111001100110011111110011101111001100…: to nearest …f3bcd, toward zero …f3bcc.
  CHECK(sqrtTowardZero(2.0) == 0x1.6a09e667f3bccp0);
  CHECK(sqrtTowardZero(2.0f) == 0x1.6a09e6p0f);
  // Overflow: the largest finite value, not inf; inf operands stay exact.
  const float fmax = std::numeric_limits<float>::max();
  CHECK(addTowardZero(fmax, fmax) == fmax);
  CHECK(mulTowardZero(-fmax, 2.0f) == -fmax);
  CHECK(divTowardZero(fmax, 0.5f) == fmax);
  CHECK(std::isinf(addTowardZero(std::numeric_limits<float>::infinity(), 1.0f)));
  CHECK(std::isinf(divTowardZero(1.0f, 0.0f)));
  CHECK(fmaTowardZero(fmax, 2.0f, -1.0f) == fmax);
  CHECK(mulTowardZero(Half{0x7bff}, Half{0x4000}).bits == 0x7bff);  // 65504 · 2 → 65504
  // A subnormal result is truncated: 2^-149 · 1.5 = 1.5 · 2^-149 → 2^-149 (to nearest: 2^-148).
  CHECK(mulTowardZero(0x1p-149f, 1.5f) == 0x1p-149f);
  CHECK(mulTowardZero(0x1p-1074, 1.75) == 0x1p-1074);
  // binary16: 1/3 truncated is 0x3555 (to nearest 0x3555 too), 2/3 truncated 0x3955 (to nearest 0x3955), 1 + 0.75 ulp.
  CHECK(addTowardZero(Half{0x3c00}, Half{0x1200}).bits == 0x3c00);  // 1 + 0.75·2^-10
  CHECK(divTowardZero(Half{0x4000}, Half{0x4200}).bits == 0x3955);
}

TEST_CASE("round toward zero: where the error term is not exact the fast path declines and MPFR decides",
          "[numerics][rtz]") {
  // A product near the underflow threshold: fma(a, b, −p) would itself be rounded.
  const float a = 0x1.000002p-70f, b = 0x1.000002p-70f;
  CHECK_FALSE(towardZeroFast<RoundedOp::Mul>(a, b, 0.0f).has_value());
  CHECK(mulTowardZero(a, b) == mpfrReference(RoundedOp::Mul, a, b, 0.0f));
  CHECK(mulTowardZero(a, b) == hostReference(RoundedOp::Mul, a, b, 0.0f));
  // A quotient with a subnormal result, and the square root of a tiny value.
  CHECK_FALSE(towardZeroFast<RoundedOp::Div>(0x1.8p-140f, 3.0f, 0.0f).has_value());
  CHECK(divTowardZero(0x1.8p-140f, 3.0f) == hostReference(RoundedOp::Div, 0x1.8p-140f, 3.0f, 0.0f));
  CHECK_FALSE(towardZeroFast<RoundedOp::Sqrt>(0x1.8p-1060, 0.0, 0.0).has_value());
  CHECK(sqrtTowardZero(0x1.8p-1060) == hostReference(RoundedOp::Sqrt, 0x1.8p-1060, 0.0, 0.0));
  // binary64 fma: no wider host format for its sum's error.
  CHECK_FALSE(towardZeroFast<RoundedOp::Fma>(0.1, 3.0, 1.0).has_value());
  CHECK(fmaTowardZero(0.1, 3.0, 1.0) == hostReference(RoundedOp::Fma, 0.1, 3.0, 1.0));
  // Where the fast path decides, MPFR agrees with it.
  for (float x : {0.1f, 3.0f, 1e30f, -7.5f}) {
    const auto fast = towardZeroFast<RoundedOp::Div>(1.0f, x, 0.0f);
    REQUIRE(fast.has_value());
    CHECK(*fast == towardZeroMpfr<RoundedOp::Div>(1.0f, x, 0.0f));
  }
}
