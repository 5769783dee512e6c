#include "numerics/round_toward_zero.hpp"

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "numerics/half_arith.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics {

namespace {

template <class T> constexpr Format kFormat = std::is_same_v<T, Half>    ? Format::Half
                                              : std::is_same_v<T, float> ? Format::Float
                                                                         : Format::Double;

// 2^(emin + p + 1): from here up the error terms below are exact (Boldo and Muller, "Exact and approximated error of
// the FMA", 2011: a product's error fma(a, b, −p) and a quotient's residual a − q·b are representable when no operand
// or result is near the underflow threshold); below it the fast path declines.
template <class T>
constexpr T kSafe = std::numeric_limits<T>::min() * T(uint64_t(1) << (std::numeric_limits<T>::digits + 1));

template <class T> T largestFinite(T sign) { return std::copysign(std::numeric_limits<T>::max(), sign); }

// The exact result is r + e, r being it rounded to nearest: r, or r's neighbour toward zero when e points toward zero
// (r is then the larger in magnitude). r is not zero when e is not: a result rounded to zero here is exact.
template <class T> T toZero(T r, T e) { return e != 0 && (e < 0) != (r < 0) ? std::nextafter(r, T(0)) : r; }

// The value of the format N nearest toward zero to s + e, where s is a binary64 value, s + e the exact result and
// s that result rounded to nearest in binary64 (only e's sign and whether it is zero are read). When s is not an N
// value, no N value lies between s and s + e (it would be nearer to s + e than s), so s's truncation is the answer;
// when it is one, e decides as in toZero. Overflow truncates to the largest finite value.
template <class N> N narrowTowardZero(double s, double e) {
  if constexpr (std::is_same_v<N, Half>) {
    const Half n = toHalf(s);  // to nearest
    if (toDouble(n) == s) {
      if (e != 0 && (e < 0) != (s < 0)) return Half{uint16_t(n.bits - 1)};  // one step toward zero: magnitude − 1
      return n;
    }
    return toHalf(s, Rounding::RTZ);
  } else {
    const float n = float(s);  // to nearest
    if (double(n) == s) return toZero(n, float(e == 0 ? 0.0 : std::copysign(1.0, e)));
    if (std::isinf(n)) return largestFinite(n);
    return std::fabs(double(n)) > std::fabs(s) ? std::nextafter(n, 0.0f) : n;
  }
}

// The sign of the exact quotient's remainder over b, as the error term of q (a − q·b has the sign of (a/b − q)·b).
inline double quotientError(double a, double b, double q) {
  const double r = std::fma(-q, b, a);
  return r == 0 ? 0.0 : ((r > 0) == (b > 0) ? 1.0 : -1.0);
}

// binary16: every operation formed in binary64. Sums and products of binary16 values are exact there (at most 40
// and 22 significant bits in binary64's range); a quotient, a square root and an fma's sum are rounded once, their
// error's sign comes from an fma residual or TwoSum, exact in binary64's range for binary16 operands.
template <RoundedOp Op> Half halfTowardZero(Half ha, Half hb, Half hc) {
  const double a = toDouble(ha), b = toDouble(hb), c = toDouble(hc);
  switch (Op) {
    case RoundedOp::Add: return narrowTowardZero<Half>(a + b, 0);
    case RoundedOp::Sub: return narrowTowardZero<Half>(a - b, 0);
    case RoundedOp::Mul: return narrowTowardZero<Half>(a * b, 0);
    case RoundedOp::Div: {
      if (!std::isfinite(a) || !std::isfinite(b) || b == 0) return divHalf(ha, hb);  // exact: ±inf, ±0 or NaN
      const double q = a / b;
      return narrowTowardZero<Half>(q, quotientError(a, b, q));
    }
    case RoundedOp::Sqrt: {
      if (!(a > 0) || std::isinf(a)) return sqrtHalf(ha);  // ±0, +inf, NaN: exact
      const double r = std::sqrt(a);
      const double e = std::fma(r, r, -a);  // r² − a: r is above the root when positive
      return narrowTowardZero<Half>(r, e == 0 ? 0.0 : -e);
    }
    case RoundedOp::Fma: {
      if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return fmaHalf(ha, hb, hc);
      const double p = a * b, s = p + c, bb = s - p;
      return narrowTowardZero<Half>(s, (p - (s - bb)) + (c - bb));  // TwoSum's error
    }
  }
  return Half{};
}

template <RoundedOp Op, class T> std::optional<T> hostTowardZero(T a, T b, T c) {
  constexpr T safe = kSafe<T>;
  switch (Op) {
    case RoundedOp::Sub:
    case RoundedOp::Add: {
      if (Op == RoundedOp::Sub) b = -b;
      const T s = a + b;
      if (!std::isfinite(s)) return std::isfinite(a) && std::isfinite(b) ? largestFinite(s) : s;
      const T bb = s - a, e = (a - (s - bb)) + (b - bb);  // TwoSum (Knuth): s + e = a + b
      if (!std::isfinite(e)) return std::nullopt;         // an intermediate overflow
      return toZero(s, e);
    }
    case RoundedOp::Mul: {
      const T p = a * b;
      if (!std::isfinite(p)) return std::isfinite(a) && std::isfinite(b) ? largestFinite(p) : p;
      if (a == 0 || b == 0) return p;
      if (std::fabs(p) < safe) return std::nullopt;
      return toZero(p, std::fma(a, b, -p));
    }
    case RoundedOp::Div: {
      const T q = a / b;
      if (!std::isfinite(q)) return std::isfinite(a) && std::isfinite(b) && b != 0 ? largestFinite(q) : q;
      if (a == 0 || std::isinf(b)) return q;
      if (std::fabs(q) < safe || std::fabs(a) < safe) return std::nullopt;
      const T r = std::fma(-q, b, a);  // a − q·b, exact
      return toZero(q, r == 0 ? T(0) : ((r > 0) == (b > 0) ? T(1) : T(-1)));
    }
    case RoundedOp::Sqrt: {
      if (!(a > 0) || std::isinf(a)) return std::sqrt(a);  // ±0, +inf, NaN (also of a negative a): exact
      if (a < safe) return std::nullopt;
      const T r = std::sqrt(a);
      return std::fma(r, r, -a) > 0 ? std::nextafter(r, T(0)) : r;  // r² − a, exact
    }
    case RoundedOp::Fma: {
      if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return std::fma(a, b, c);
      if constexpr (std::is_same_v<T, float>) {
        // a·b is exact in binary64 and TwoSum's error of the binary64 sum is too.
        const double p = double(a) * double(b), s = p + double(c), bb = s - p;
        return narrowTowardZero<float>(s, (p - (s - bb)) + (double(c) - bb));
      } else {
        if (a == 0 || b == 0) return std::fma(a, b, c);  // ±0 + c: exact
        return std::nullopt;                             // binary64 has no wider host format for the sum's error
      }
    }
  }
  return std::nullopt;
}

}  // namespace

template <RoundedOp Op, class T> std::optional<T> towardZeroFast(T a, T b, T c) {
  if constexpr (std::is_same_v<T, Half>)
    return halfTowardZero<Op>(a, b, c);
  else
    return hostTowardZero<Op>(a, b, c);
}

// IEEE 754-2008 §4.3.2 [external] roundTowardZero and §7.4 [external]: an overflow rounded toward zero is the
// largest finite value (finishToFormat's mpfr_check_range in MPFR_RNDZ).
template <RoundedOp Op, class T> T towardZeroMpfr(T a, T b, T c) {
  constexpr Format f = kFormat<T>;
  // The exact steps must not depend on a range a caller may have narrowed (as fma.cpp).
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  const mpfr_prec_t p = rangeOf(f).precision;
  Mpfr x(p), y(p), z(p), r(p);
  setExact(x.get(), a);
  setExact(y.get(), b);
  setExact(z.get(), c);
  int t = 0;
  switch (Op) {
    case RoundedOp::Add: t = mpfr_add(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Sub: t = mpfr_sub(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Mul: t = mpfr_mul(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Div: t = mpfr_div(r, x, y, MPFR_RNDZ); break;
    case RoundedOp::Sqrt: t = mpfr_sqrt(r, x, MPFR_RNDZ); break;
    case RoundedOp::Fma: t = mpfr_fma(r, x, y, z, MPFR_RNDZ); break;
  }
  finishToFormat(r, t, f, Rounding::RTZ);
  const uint64_t bits = encode(r, f);
  if constexpr (std::is_same_v<T, Half>)
    return Half{uint16_t(bits)};
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<float>(uint32_t(bits));
  else
    return std::bit_cast<double>(bits);
}

#define CLREF_TOWARD_ZERO(OP, T)                                       \
  template std::optional<T> towardZeroFast<RoundedOp::OP, T>(T, T, T); \
  template T towardZeroMpfr<RoundedOp::OP, T>(T, T, T);
#define CLREF_TOWARD_ZERO_ALL(OP) \
  CLREF_TOWARD_ZERO(OP, Half)     \
  CLREF_TOWARD_ZERO(OP, float)    \
  CLREF_TOWARD_ZERO(OP, double)
CLREF_TOWARD_ZERO_ALL(Add)
CLREF_TOWARD_ZERO_ALL(Sub)
CLREF_TOWARD_ZERO_ALL(Mul)
CLREF_TOWARD_ZERO_ALL(Div)
CLREF_TOWARD_ZERO_ALL(Sqrt)
CLREF_TOWARD_ZERO_ALL(Fma)
#undef CLREF_TOWARD_ZERO_ALL
#undef CLREF_TOWARD_ZERO

}  // namespace clref::numerics
