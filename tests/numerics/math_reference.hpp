// The independent reference for the math tests (math_random_test.cpp, the slow
// math_exhaustive_test.cpp): the same function evaluated by MPFR at 256 bits (or exactly, with
// GMP rationals, for fma, mix, smoothstep and fdim), then rounded to the format by refRound,
// a rounding routine written for these tests (it shares no code with numerics/mpfr_round).
// Special operands whose results the spec prescribes (and where clref applies those rules
// itself) are left to math_special_test.cpp.
#pragma once
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <climits>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "numerics/math.hpp"
#include "support.hpp"

namespace clref::numerics::test {

inline constexpr Rounding kMathModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

inline mpfr_rnd_t rndOf(Rounding r) {
  switch (r) {
    case Rounding::RTE: return MPFR_RNDN;
    case Rounding::RTZ: return MPFR_RNDZ;
    case Rounding::RTP: return MPFR_RNDU;
    case Rounding::RTN: return MPFR_RNDD;
  }
  return MPFR_RNDN;
}

inline int emaxOf(Format f) { return f == Format::Half ? 15 : f == Format::Float ? 127 : 1023; }

// Rounds the exact value z, known through y = z correctly rounded to nearest at >= 256 bits and
// t = sign(y - z), to the format in mode r. y and z lie on the same side of every p-bit
// rounding boundary (those are representable at 256 bits) unless y is on one, and then z is
// on side -t; y nudged toward z by far less than a 256-bit ulp is therefore rounded like z.
// An infinite y with t != 0 is an MPFR overflow (a huge finite z), a zero y with t != 0 an
// underflow.
inline double refRound(mpfr_srcptr y, int t, Format f, Rounding r) {
  if (mpfr_nan_p(y)) return std::nan("");
  const int p = precisionOf(f), emax = emaxOf(f), eminNormal = 1 - emax;
  const double maxFinite = std::ldexp(2 - std::ldexp(1.0, 1 - p), emax);
  const double minSub = std::ldexp(1.0, eminNormal - (p - 1));
  const bool neg = mpfr_signbit(y);
  auto overflow = [&] {
    const bool toInf = r == Rounding::RTE || (r == Rounding::RTP && !neg) || (r == Rounding::RTN && neg);
    return neg ? (toInf ? -INFINITY : -maxFinite) : (toInf ? INFINITY : maxFinite);
  };
  if (mpfr_inf_p(y)) return t == 0 ? (neg ? -INFINITY : INFINITY) : overflow();
  if (mpfr_zero_p(y)) {
    if (t == 0) return neg ? -0.0 : 0.0;
    const bool positive = t < 0;  // y = 0 below the exact value
    if (r == Rounding::RTP && positive) return minSub;
    if (r == Rounding::RTN && !positive) return -minSub;
    return positive ? 0.0 : -0.0;
  }
  Mpfr z(420), m(420);
  mpfr_set(z, y, MPFR_RNDN);
  if (t != 0) {
    Mpfr eps(8);
    mpfr_set_si_2exp(eps, t > 0 ? -1 : 1, mpfr_get_exp(y) - 300, MPFR_RNDN);
    mpfr_add(z, z, eps, MPFR_RNDN);  // exact: the bits span at most 302 positions
  }
  const long e = long(mpfr_get_exp(z)) - 1;                // 2^e <= |z| < 2^(e+1)
  const long q = std::max(e, long(eminNormal)) - (p - 1);  // the quantum: ulp of normals, or of subnormals
  mpfr_mul_2si(m, z, -q, MPFR_RNDN);
  mpfr_rint(m, m, rndOf(r));  // ties to even for RNDN
  mpfr_mul_2si(m, m, q, MPFR_RNDN);
  if (mpfr_zero_p(m)) return neg ? -0.0 : 0.0;
  Mpfr mx(64);
  mpfr_set_d(mx, maxFinite, MPFR_RNDN);
  if (mpfr_cmpabs(m, mx) > 0) return overflow();
  return mpfr_get_d(m, MPFR_RNDN);  // exact
}

// A GMP rational made exact from a double.
struct Q {
  mpq_t v;
  Q() { mpq_init(v); }
  explicit Q(double d) {
    mpq_init(v);
    mpq_set_d(v, d);
  }
  ~Q() { mpq_clear(v); }
  Q(const Q&) = delete;
  Q& operator=(const Q&) = delete;
};

// The reference: y (256 bits) and its ternary for the first result, optionally a second
// result (exact double or another 256-bit value) and an integer.
struct Ref {
  Mpfr y{256}, y2{256};
  int t = 0, t2 = 0;
  bool hasSecond = false;
  bool hasInteger = false;
  bool zeroSignFree = false;  // an exact zero from rational arithmetic has no sign
  int64_t integer = 0;
  double clampBelowOne = 0;  // fract: fmin with this constant after rounding
};

inline bool isInt(double x) { return std::isfinite(x) && std::trunc(x) == x; }

// Returns false for operands the reference does not cover (special cases tested by table).
inline bool reference(MathFn f, const std::vector<double>& a, Format fmt, Ref& ref) {
  Mpfr x(53), y(53), z(53);
  mpfr_set_d(x, a[0], MPFR_RNDN);
  if (a.size() > 1) mpfr_set_d(y, a[1], MPFR_RNDN);
  if (a.size() > 2) mpfr_set_d(z, a[2], MPFR_RNDN);
  mpfr_ptr o = ref.y;
  const mpfr_rnd_t N = MPFR_RNDN;
  const bool allFinite = std::all_of(a.begin(), a.end(), [](double v) { return std::isfinite(v); });
  auto rational = [&](Q& r) {
    ref.t = mpfr_set_q(o, r.v, N);
    ref.zeroSignFree = mpq_sgn(r.v) == 0;
  };
  switch (f) {
    case MathFn::acos: ref.t = mpfr_acos(o, x, N); return true;
    case MathFn::acosh: ref.t = mpfr_acosh(o, x, N); return true;
    case MathFn::acospi: ref.t = mpfr_acospi(o, x, N); return true;
    case MathFn::asin: ref.t = mpfr_asin(o, x, N); return true;
    case MathFn::asinh: ref.t = mpfr_asinh(o, x, N); return true;
    case MathFn::asinpi: ref.t = mpfr_asinpi(o, x, N); return true;
    case MathFn::atan: ref.t = mpfr_atan(o, x, N); return true;
    case MathFn::atan2: ref.t = mpfr_atan2(o, x, y, N); return true;
    case MathFn::atanh: ref.t = mpfr_atanh(o, x, N); return true;
    case MathFn::atanpi: ref.t = mpfr_atanpi(o, x, N); return true;
    case MathFn::atan2pi: ref.t = mpfr_atan2pi(o, x, y, N); return true;
    case MathFn::cbrt: ref.t = mpfr_cbrt(o, x, N); return true;
    case MathFn::cos:
    case MathFn::half_cos:
    case MathFn::native_cos: ref.t = mpfr_cos(o, x, N); return true;
    case MathFn::cosh: ref.t = mpfr_cosh(o, x, N); return true;
    case MathFn::cospi:
      if (isInt(2 * a[0])) return false;
      ref.t = mpfr_cospi(o, x, N);
      return true;
    case MathFn::erfc: ref.t = mpfr_erfc(o, x, N); return true;
    case MathFn::erf: ref.t = mpfr_erf(o, x, N); return true;
    case MathFn::exp:
    case MathFn::half_exp:
    case MathFn::native_exp: ref.t = mpfr_exp(o, x, N); return true;
    case MathFn::exp2:
    case MathFn::half_exp2:
    case MathFn::native_exp2: ref.t = mpfr_exp2(o, x, N); return true;
    case MathFn::exp10:
    case MathFn::half_exp10:
    case MathFn::native_exp10: ref.t = mpfr_exp10(o, x, N); return true;
    case MathFn::expm1: ref.t = mpfr_expm1(o, x, N); return true;
    case MathFn::hypot: ref.t = mpfr_hypot(o, x, y, N); return true;
    case MathFn::log:
    case MathFn::half_log:
    case MathFn::native_log: ref.t = mpfr_log(o, x, N); return true;
    case MathFn::log2:
    case MathFn::half_log2:
    case MathFn::native_log2: ref.t = mpfr_log2(o, x, N); return true;
    case MathFn::log10:
    case MathFn::half_log10:
    case MathFn::native_log10: ref.t = mpfr_log10(o, x, N); return true;
    case MathFn::log1p: ref.t = mpfr_log1p(o, x, N); return true;
    case MathFn::sin:
    case MathFn::half_sin:
    case MathFn::native_sin: ref.t = mpfr_sin(o, x, N); return true;
    case MathFn::sincos:
      ref.t = mpfr_sin(o, x, N);
      ref.t2 = mpfr_cos(ref.y2, x, N);
      ref.hasSecond = true;
      return true;
    case MathFn::sinh: ref.t = mpfr_sinh(o, x, N); return true;
    case MathFn::sinpi:
      if (isInt(a[0])) return false;
      ref.t = mpfr_sinpi(o, x, N);
      return true;
    case MathFn::sqrt:
    case MathFn::half_sqrt:
    case MathFn::native_sqrt: ref.t = mpfr_sqrt(o, x, N); return true;
    case MathFn::tan:
    case MathFn::half_tan:
    case MathFn::native_tan: ref.t = mpfr_tan(o, x, N); return true;
    case MathFn::tanh: ref.t = mpfr_tanh(o, x, N); return true;
    case MathFn::tanpi:
      if (isInt(2 * a[0])) return false;
      ref.t = mpfr_tanpi(o, x, N);
      return true;
    case MathFn::tgamma: ref.t = mpfr_gamma(o, x, N); return true;
    case MathFn::lgamma:
    case MathFn::lgamma_r: {
      int s = 0;
      ref.t = mpfr_lgamma(o, &s, x, N);
      if (f == MathFn::lgamma_r) {
        if (!allFinite || (a[0] <= 0 && isInt(a[0]))) return false;
        ref.hasInteger = true;
        ref.integer = s;
      }
      return true;
    }
    case MathFn::rsqrt:
    case MathFn::half_rsqrt:
    case MathFn::native_rsqrt:
      if (a[0] == 0) return false;
      ref.t = mpfr_rec_sqrt(o, x, N);
      return true;
    case MathFn::pow: ref.t = mpfr_pow(o, x, y, N); return true;
    case MathFn::powr:
    case MathFn::half_powr:
    case MathFn::native_powr:
      if (!(a[0] > 0) || std::isinf(a[0]) || a[0] == 1 || std::isnan(a[1])) return false;
      ref.t = mpfr_pow(o, x, y, N);
      return true;
    case MathFn::pown: ref.t = mpfr_pow_si(o, x, long(a[1]), N); return true;
    case MathFn::rootn:
      if (a[1] == 0) return false;
      ref.t = mpfr_rootn_si(o, x, long(a[1]), N);
      return true;
    case MathFn::half_divide:
    case MathFn::native_divide: ref.t = mpfr_div(o, x, y, N); return true;
    case MathFn::half_recip:
    case MathFn::native_recip: ref.t = mpfr_ui_div(o, 1, x, N); return true;
    case MathFn::fmod: ref.t = mpfr_fmod(o, x, y, N); return true;
    case MathFn::remainder: ref.t = mpfr_remainder(o, x, y, N); return true;
    case MathFn::remquo: {
      long q = 0;
      ref.t = mpfr_remquo(o, &q, x, y, N);
      ref.hasInteger = true;
      ref.integer = mpfr_nan_p(o) ? 0 : (q < 0 ? -(-q % 128) : q % 128);
      return true;
    }
    case MathFn::ldexp: ref.t = mpfr_mul_2si(o, x, long(a[1]), N); return true;
    // Integral values of a 53-bit x are exact at 256 bits (the return values of mpfr_rint and
    // friends say where the integer lies relative to x, not a rounding error).
    case MathFn::ceil: mpfr_ceil(o, x); return true;
    case MathFn::floor: mpfr_floor(o, x); return true;           // exact at 256 bits
    case MathFn::trunc: mpfr_trunc(o, x); return true;           // exact at 256 bits
    case MathFn::round: mpfr_round(o, x); return true;           // exact at 256 bits
    case MathFn::rint: mpfr_rint(o, x, MPFR_RNDN); return true;  // exact at 256 bits
    case MathFn::fract: {
      if (!allFinite || a[0] == 0) return false;
      Mpfr fl(256), d(2200);
      mpfr_floor(fl, x);
      mpfr_sub(d, x, fl, N);  // exact
      ref.t = mpfr_set(o, d, N);
      ref.clampBelowOne = 1 - std::ldexp(1.0, -precisionOf(fmt));
      mpfr_set(ref.y2, fl, N);
      ref.hasSecond = true;
      return true;
    }
    case MathFn::modf:
      if (!allFinite) return false;
      mpfr_modf(ref.y2, o, x, N);  // exact; both parts have x's sign
      ref.hasSecond = true;
      return true;
    case MathFn::frexp: {
      if (!allFinite || a[0] == 0) return false;
      mpfr_exp_t e = 0;
      mpfr_frexp(&e, o, x, N);
      ref.hasInteger = true;
      ref.integer = e;
      return true;
    }
    case MathFn::ilogb:
      if (!allFinite || a[0] == 0) return false;
      mpfr_set_zero(o, 1);
      ref.hasInteger = true;
      ref.integer = mpfr_get_exp(x) - 1;
      return true;
    case MathFn::logb:
      if (!allFinite || a[0] == 0) return false;
      mpfr_set_si(o, mpfr_get_exp(x) - 1, N);
      return true;
    case MathFn::nextafter:
      // The host's nextafter for binary32/64 (binary16 is covered by the table tests).
      if (fmt == Format::Half) return false;
      mpfr_set_d(
          o, fmt == Format::Float ? double(std::nextafter(float(a[0]), float(a[1]))) : std::nextafter(a[0], a[1]), N);
      return true;
    case MathFn::degrees:
    case MathFn::radians: {
      // 512-bit π: the exact value (irrational for x ≠ 0) is within 2^-500 relative of this.
      if (a[0] == 0 || !allFinite) return false;
      Mpfr pi(512), w(512);
      mpfr_const_pi(pi, N);
      if (f == MathFn::degrees) {
        mpfr_mul_ui(w, x, 180, N);
        mpfr_div(w, w, pi, N);
      } else {
        mpfr_mul(w, x, pi, N);
        mpfr_div_ui(w, w, 180, N);
      }
      mpfr_set_prec(o, 512);
      ref.t = mpfr_set(o, w, N);
      return true;
    }
    case MathFn::fma:
    case MathFn::mad: {
      if (!allFinite) return false;
      Q qa(a[0]), qb(a[1]), qc(a[2]), r;
      mpq_mul(r.v, qa.v, qb.v);
      mpq_add(r.v, r.v, qc.v);
      rational(r);
      return true;
    }
    case MathFn::fdim: {
      if (!allFinite) return false;
      Q qx(a[0]), qy(a[1]), r;
      if (a[0] > a[1]) mpq_sub(r.v, qx.v, qy.v);
      rational(r);
      ref.zeroSignFree = false;  // x <= y gives +0
      return true;
    }
    case MathFn::mix: {
      if (!allFinite) return false;
      Q qx(a[0]), qy(a[1]), qa(a[2]), r;
      mpq_sub(r.v, qy.v, qx.v);
      mpq_mul(r.v, r.v, qa.v);
      mpq_add(r.v, r.v, qx.v);
      rational(r);
      return true;
    }
    case MathFn::smoothstep: {
      if (!allFinite || !(a[0] < a[1])) return false;
      Q e0(a[0]), e1(a[1]), xx(a[2]), t, d, r, three;
      mpq_sub(t.v, xx.v, e0.v);
      mpq_sub(d.v, e1.v, e0.v);
      mpq_div(t.v, t.v, d.v);
      if (mpq_sgn(t.v) <= 0) {
        mpq_set_ui(r.v, 0, 1);
      } else if (mpq_cmp_ui(t.v, 1, 1) >= 0) {
        mpq_set_ui(r.v, 1, 1);
      } else {
        mpq_set_ui(three.v, 3, 1);
        mpq_add(d.v, t.v, t.v);      // 2t
        mpq_sub(d.v, three.v, d.v);  // 3 - 2t
        mpq_mul(r.v, t.v, t.v);
        mpq_mul(r.v, r.v, d.v);
      }
      rational(r);
      ref.zeroSignFree = false;  // a clamped 0 is +0
      return true;
    }
    default: return false;
  }
}

inline bool same(double got, double want, bool zeroSignFree) {
  if (std::isnan(want)) return std::isnan(got);
  if (zeroSignFree && want == 0) return got == 0;
  return std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want);
}

// Operand generation: half of the operands are random encodings of the format (every
// exponent, NaN and inf included), half are uniform in a range where the function is
// interesting. Integer operands (ldexp's k, pown's and rootn's n) are small or random int32.
struct Arg {
  double lo, hi;
  bool integer = false;
};

struct FnSpec {
  MathFn f;
  std::vector<Arg> args;
  int count = 2000;
};

inline double toFormat(double v, Format f) {
  switch (f) {
    case Format::Half: return toDouble(toHalf(v));
    case Format::Float: return double(float(v));
    case Format::Double: return v;
  }
  return v;
}

inline double randomEncoding(std::mt19937_64& rng, Format f) {
  switch (f) {
    case Format::Half: return toDouble(Half{uint16_t(rng())});
    case Format::Float: return double(std::bit_cast<float>(uint32_t(rng())));
    case Format::Double: return std::bit_cast<double>(rng());
  }
  return 0;
}

inline std::vector<double> randomArgs(std::mt19937_64& rng, const FnSpec& s, Format f) {
  std::vector<double> v;
  const bool natural = rng() & 1;
  for (const Arg& a : s.args) {
    if (a.integer) {
      const bool wide = rng() % 8 == 0;
      v.push_back(wide ? double(int32_t(rng())) : double(int64_t(rng() % uint64_t(a.hi - a.lo + 1)) + int64_t(a.lo)));
      continue;
    }
    if (!natural) {
      v.push_back(randomEncoding(rng, f));
      continue;
    }
    const double u = double(rng() >> 11) * 0x1p-53;
    v.push_back(toFormat(a.lo + (a.hi - a.lo) * u, f));
  }
  return v;
}

inline const std::vector<FnSpec>& specs() {
  using F = MathFn;
  const Arg unit{-1, 1}, wide{-100, 100}, pos{0, 1000};
  static const std::vector<FnSpec> s = {
      {F::acos, {unit}},
      {F::acosh, {{1, 100}}},
      {F::acospi, {unit}},
      {F::asin, {unit}},
      {F::asinh, {{-20, 20}}},
      {F::asinpi, {unit}},
      {F::atan, {{-20, 20}}},
      {F::atan2, {wide, wide}},
      {F::atanh, {unit}},
      {F::atanpi, {{-20, 20}}},
      {F::atan2pi, {wide, wide}},
      {F::cbrt, {{-1000, 1000}}},
      {F::ceil, {wide}},
      {F::cos, {{-10, 10}}},
      {F::cosh, {{-12, 12}}},
      {F::cospi, {{-4, 4}}},
      {F::erfc, {{-6, 6}}},
      {F::erf, {{-6, 6}}},
      {F::exp, {{-20, 20}}},
      {F::exp2, {{-30, 30}}},
      {F::exp10, {{-8, 8}}},
      {F::expm1, {{-12, 12}}},
      {F::fdim, {wide, wide}},
      {F::floor, {wide}},
      {F::fma, {{-10, 10}, {-10, 10}, {-10, 10}}},
      {F::fmod, {wide, {-10, 10}}},
      {F::fract, {wide}},
      {F::frexp, {wide}},
      {F::hypot, {wide, wide}},
      {F::ilogb, {wide}},
      {F::ldexp, {{-10, 10}, {-40, 40, true}}},
      {F::lgamma, {{-20, 20}}},
      {F::lgamma_r, {{-20, 20}}},
      {F::log, {pos}},
      {F::log2, {pos}},
      {F::log10, {pos}},
      {F::log1p, {{-1, 100}}},
      {F::logb, {wide}},
      {F::mad, {{-10, 10}, {-10, 10}, {-10, 10}}},
      {F::modf, {wide}},
      {F::nextafter, {wide, wide}},
      {F::pow, {{-8, 8}, {-12, 12}}},
      {F::pown, {{-8, 8}, {-20, 20, true}}},
      {F::powr, {{0, 8}, {-12, 12}}},
      {F::remainder, {wide, {-10, 10}}},
      {F::remquo, {{-1000, 1000}, {-3, 3}}},
      {F::rint, {wide}},
      {F::rootn, {{-100, 100}, {-10, 10, true}}},
      {F::round, {wide}},
      {F::rsqrt, {pos}},
      {F::sin, {{-10, 10}}},
      {F::sincos, {{-10, 10}}},
      {F::sinh, {{-12, 12}}},
      {F::sinpi, {{-4, 4}}},
      {F::sqrt, {pos}},
      {F::tan, {{-10, 10}}},
      {F::tanh, {{-12, 12}}},
      {F::tanpi, {{-4, 4}}},
      {F::tgamma, {{-10, 10}}},
      {F::trunc, {wide}},
      {F::degrees, {{-1000, 1000}}},
      {F::radians, {{-1000, 1000}}},
      {F::mix, {{-10, 10}, {-10, 10}, {0, 1}}},
      {F::smoothstep, {{-10, 0}, {0, 10}, {-12, 12}}},
      // The half_ and native_ forms are the same functions: fewer operands.
      {F::half_cos, {{-10, 10}}, 200},
      {F::half_divide, {wide, wide}, 200},
      {F::half_exp, {{-20, 20}}, 200},
      {F::half_exp2, {{-20, 20}}, 200},
      {F::half_exp10, {{-8, 8}}, 200},
      {F::half_log, {pos}, 200},
      {F::half_log2, {pos}, 200},
      {F::half_log10, {pos}, 200},
      {F::half_powr, {{0, 8}, {-12, 12}}, 200},
      {F::half_recip, {wide}, 200},
      {F::half_rsqrt, {pos}, 200},
      {F::half_sin, {{-10, 10}}, 200},
      {F::half_sqrt, {pos}, 200},
      {F::half_tan, {{-10, 10}}, 200},
      {F::native_cos, {{-10, 10}}, 200},
      {F::native_divide, {wide, wide}, 200},
      {F::native_exp, {{-20, 20}}, 200},
      {F::native_exp2, {{-20, 20}}, 200},
      {F::native_exp10, {{-8, 8}}, 200},
      {F::native_log, {pos}, 200},
      {F::native_log2, {pos}, 200},
      {F::native_log10, {pos}, 200},
      {F::native_powr, {{0, 8}, {-12, 12}}, 200},
      {F::native_recip, {wide}, 200},
      {F::native_rsqrt, {pos}, 200},
      {F::native_sin, {{-10, 10}}, 200},
      {F::native_sqrt, {pos}, 200},
      {F::native_tan, {{-10, 10}}, 200},
  };
  return s;
}

inline std::string show(const FnSpec& s, const std::vector<double>& a, Format f, Rounding r, double got, double want,
                        const char* what) {
  std::string out = std::string(nameOf(s.f)) + "(";
  for (size_t i = 0; i < a.size(); ++i) out += (i ? ", " : "") + hexDouble(a[i]);
  return out + ") " + std::string(toString(f)) + " " + std::string(toString(r)) + " " + what + ": got " +
         hexDouble(got) + ", want " + hexDouble(want);
}

// Checks `inputs` (operand tuples of s.f) in all four modes against the reference.
inline void checkInputs(const FnSpec& s, Format fmt, const std::vector<std::vector<double>>& inputs, Mismatches& bad,
                        std::atomic<uint64_t>& checked) {
  parallelFor(
      inputs.size(),
      [&](uint64_t b, uint64_t e) {
        // The reference runs in MPFR's widest exponent range (a fresh thread, so nothing to restore
        // for other tests); evaluate sets up its own.
        mpfr_set_emin(mpfr_get_emin_min());
        mpfr_set_emax(mpfr_get_emax_max());
        for (uint64_t i = b; i < e; ++i) {
          const auto& a = inputs[i];
          Ref ref;
          if (!reference(s.f, a, fmt, ref)) continue;
          checked.fetch_add(1, std::memory_order_relaxed);
          for (Rounding r : kMathModes) {
            const MathResult got = evaluate(s.f, a, fmt, r);
            double want = refRound(ref.y, ref.t, fmt, r);
            if (ref.clampBelowOne != 0 && want >= 1) want = ref.clampBelowOne;
            if (!same(got.value, want, ref.zeroSignFree)) bad.add(show(s, a, fmt, r, got.value, want, "value"));
            if (ref.hasSecond) {
              const double want2 = refRound(ref.y2, ref.t2, fmt, r);
              if (!same(got.second, want2, false)) bad.add(show(s, a, fmt, r, got.second, want2, "second"));
            }
            if (ref.hasInteger && got.integer != ref.integer)
              bad.add(show(s, a, fmt, r, double(got.integer), double(ref.integer), "integer"));
          }
        }
      },
      64);
}

// Checks s.count (times `scale`) random operand tuples.
inline void checkFunction(const FnSpec& s, Format fmt, uint64_t seed, Mismatches& bad, std::atomic<uint64_t>& checked,
                          int scale = 1) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> inputs;
  for (int i = 0; i < s.count * scale; ++i) inputs.push_back(randomArgs(rng, s, fmt));
  checkInputs(s, fmt, inputs, bad, checked);
}

}  // namespace clref::numerics::test
