// Binary64 approximations of sin, cos, exp, log and pow at binary32 operands, each with a rigorous bound on its
// error (math_internal.hpp binary32Kernel), and evaluate's first step, fastBinary32 (math.hpp): it rounds the
// approximation to the format and accepts the result only when the whole interval [value − error, value + error]
// rounds to one value, else evaluate's other paths decide (in the end MPFR). They replace glibc's binary64
// functions (math_fast.cpp) for these five: the same method (an approximation in binary64, a proven bound, a
// rounding check) with short polynomials instead of glibc's 0.5-ulp-of-binary64 ones, which a binary32 result does
// not need. Every constant is computed here by MPFR at 256 bits and rounded once (so within half an ulp of the
// real value, plus 2^-255 relative); the polynomials are Taylor series, whose truncation errors are bounded by their
// next terms, with coefficients 1/n! (n! exact in binary64 up to 18!, so each coefficient is within half an ulp).
//
// Notation: u = 2^-53 (binary64's unit roundoff): one rounding of a real a gives a(1 + d), |d| <= u; an fma rounds
// once. The bounds below add generous margins (a factor of 2 to 8) over the sums they quote, so that no
// second-order term needs tracking. The operands may be any binary64 values, except that log's operand (pow's
// base) must have at most 33 significant bits (binary32 and binary16 values have 24 and 11): its reduction's
// exactness relies on that, and the kernel declines other operands.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <span>

#include "numerics/math_internal.hpp"

// On x86-64 the entry is compiled twice, with and without FMA, and the loader picks the one the processor runs
// (an ifunc): the kernels are inlined into it, so the FMA version fuses a·b + c where the compiler sees it (this
// file is compiled with -ffp-contract=fast, numerics/CMakeLists.txt). The bounds below hold either way: a fused
// operation rounds once where the unfused pair rounds twice, and every exactness claim is about an operation
// whose result is exact with or without the intermediate rounding (the products there are exact).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CLREF_FMA_CLONES __attribute__((target_clones("fma", "default")))
#define CLREF_KERNEL [[gnu::always_inline]] inline
#else
#define CLREF_FMA_CLONES
#define CLREF_KERNEL inline
#endif

namespace clref::numerics::detail {

namespace {

// A real c held at 256 bits (MPFR's correctly rounded result, within 2^-256 relative), and its rounding to `bits`
// significant bits (a binary64 value): within half an ulp of that precision, plus 2^-256 relative.
struct Exact256 {
  Mpfr v{256};
  double rounded(mpfr_prec_t bits = 53) const {
    Mpfr r(bits);
    mpfr_set(r, v, MPFR_RNDN);
    return mpfr_get_d(r, MPFR_RNDN);
  }
};

// The integer nearest v (ties to even), for |v| < 2^51, in the default rounding mode: adding 1.5·2^52 rounds v to
// an integer (the sum's ulp is 1), and subtracting it back is exact. std::nearbyint would be a libm call in a build
// for baseline x86-64 (no SSE4.1 roundsd); so would std::fma without FMA, which is why none is used below.
CLREF_KERNEL double nearestInteger(double v) {
  constexpr double kShift = 0x1.8p52;
  return (v + kShift) - kShift;
}

struct Constants {
  // sin, cos: π/2 = P1 + P2 + P3 + d, P1 and P2 of 30 bits (so k·P1 and k·P2 are exact for |k| < 2^20),
  // |P2| <= 2^-30 (half an ulp of P1 in [1, 2)), |P3| <= 2^-60, |d| <= 2^-113.
  double twoOverPi, P1, P2, P3;
  // exp: ln2/64 = Hi + Lo + d, Hi of 32 bits (|Lo| <= 2^-39, half an ulp of Hi in [2^-7, 2^-6)), |d| <= 2^-92;
  // 64/ln2; and 2^(j/64) for j in [0, 64).
  double ln2Over64Hi, ln2Over64Lo, sixtyFourOverLn2, exp2Table[64];
  // log: ln 2 (|error| <= 2^-54); for each of 128 intervals of significands, inv ≈ 1/(its centre) with 20
  // significant bits (so a significand of up to 33 bits times inv is exact in binary64), and -log(inv) rounded.
  double ln2, logInv[128], negLogInv[128];

  bool ready = false;  // set at the end of the constructor

  Constants() {
    Exact256 c, t;
    mpfr_const_pi(c.v, MPFR_RNDN);
    mpfr_div_2ui(c.v, c.v, 1, MPFR_RNDN);  // π/2
    P1 = c.rounded(30);
    mpfr_sub_d(c.v, c.v, P1, MPFR_RNDN);
    P2 = c.rounded(30);
    mpfr_sub_d(c.v, c.v, P2, MPFR_RNDN);
    P3 = c.rounded();
    mpfr_const_pi(c.v, MPFR_RNDN);
    mpfr_ui_div(c.v, 2, c.v, MPFR_RNDN);
    twoOverPi = c.rounded();

    mpfr_const_log2(c.v, MPFR_RNDN);
    ln2 = c.rounded();
    mpfr_div_ui(t.v, c.v, 64, MPFR_RNDN);
    ln2Over64Hi = t.rounded(32);
    mpfr_sub_d(t.v, t.v, ln2Over64Hi, MPFR_RNDN);
    ln2Over64Lo = t.rounded();
    mpfr_ui_div(t.v, 64, c.v, MPFR_RNDN);
    sixtyFourOverLn2 = t.rounded();
    for (int j = 0; j < 64; ++j) {
      mpfr_set_si(t.v, j, MPFR_RNDN);
      mpfr_div_ui(t.v, t.v, 64, MPFR_RNDN);
      mpfr_exp2(t.v, t.v, MPFR_RNDN);
      exp2Table[j] = t.rounded();
    }

    // Interval i holds the significands m in [1 + i/128, 1 + (i+1)/128); from i = 53 on (m >= 1.4140625, about
    // √2) log works with m/2 and exponent + 1 instead, so that log x near 1 from below has exponent 0.
    // The first and last intervals take inv = 1: there log x = log1p(m − 1) with no table term, which keeps the
    // relative error small where log x is near 0.
    for (int i = 0; i < 128; ++i) {
      double inv = 1;
      if (i != 0 && i != 127) {
        const double centre = (1 + (i + 0.5) / 128) / (i >= kLogHalfFrom ? 2 : 1);
        mpfr_set_d(t.v, centre, MPFR_RNDN);
        mpfr_ui_div(t.v, 1, t.v, MPFR_RNDN);
        inv = t.rounded(20);
      }
      logInv[i] = inv;
      mpfr_set_d(t.v, inv, MPFR_RNDN);
      mpfr_log(t.v, t.v, MPFR_RNDN);
      mpfr_neg(t.v, t.v, MPFR_RNDN);
      negLogInv[i] = t.rounded();
    }
    ready = true;
  }
  static constexpr int kLogHalfFrom = 53;
};

// Computed during static initialisation. Static storage is zero-initialised before that, so a call from another
// file's static initialiser that runs first sees ready == false and takes the exact path. A plain global rather than
// a function's static keeps the hot path free of a guard call.
Constants gConstants;

constexpr double kU = 0x1p-53;

// No approximation: the operands are outside the kernel's proven range (binary32Kernel's nullopt, without
// std::optional's trip through memory).
constexpr Bounded kNone{NAN, NAN};

// sin r and cos r for |r| <= 0.8, relative errors below 2^-50.5 and 2^-49.5 (derivations at the two functions). The
// polynomials are evaluated by Estrin's scheme (z, z², z⁴ and pairs of coefficients), which shortens the chain of
// dependent operations against Horner's rule; every monomial a_n·z^n still passes through at most 18 roundings
// (its coefficient 1, z 1, z² 3 in all, z⁴ 7 in all, the products and sums on its way 6 at most), so the
// computed polynomial is within γ_18·Σ|a_n||z|^n of the exact one, γ_18 = 18u/(1 − 18u) < 18.1u.
//
// sin r = r + r·z·S(z), z = r², S(z) = Σ_{n=1..7} (-1)^n z^(n-1)/(2n+1)! (Taylor to degree 15). Truncation: the
// next term, |r|^17/17! <= 0.8^16/17!·|r| < 2^-53.5·|r| (alternating, decreasing terms). Rounding: S errs by at
// most 18.1u·Σ|a_n|z^n <= 18.1u·0.172 while |S| >= 1/6 − 0.64/120 >= 0.161, i.e. 19.3u relative; the product
// z·S adds u: w = z·S within 20.3u relative, |w| <= 0.107. r + r·w rounds twice: u·0.107|r| and u·|result|.
// |result| >= 0.89|r|, so the error is below (0.107·21.3u + u)/0.89·|r| + u·|result| + 2^-53.5|r| <
// 5.5u·|result| < 2^-50.5·|result|.
CLREF_KERNEL double sinPoly(double r) {
  constexpr double f3 = 6, f5 = f3 * 20, f7 = f5 * 42, f9 = f7 * 72, f11 = f9 * 110, f13 = f11 * 156, f15 = f13 * 210;
  const double z = r * r, z2 = z * z, z4 = z2 * z2;
  const double s =
      ((-1 / f3 + z * (1 / f5)) + z2 * (-1 / f7 + z * (1 / f9))) + z4 * ((-1 / f11 + z * (1 / f13)) + z2 * (-1 / f15));
  return r + r * (z * s);
}

// cos r = 1 + z·C(z), C(z) = Σ_{n=1..8} (-1)^n z^(n-1)/(2n)! (degree 16). Truncation: 0.8^18/18! < 2^-58.
// Rounding: C errs by at most 18.1u·Σ|a_n|z^n <= 18.1u·0.527 while |C| >= 0.5 − 0.64/24 >= 0.473, i.e. 20.2u
// relative; the product z·C adds u: w = z·C within 21.2u relative, |w| <= 0.32; the final 1 + w adds u·|result|,
// and |result| >= cos 0.8 > 0.69: the error is below (0.32·21.2u/0.69 + u)·|result| + 2^-58/0.69·|result| <
// 10.9u·|result| < 2^-49.5·|result|.
CLREF_KERNEL double cosPoly(double r) {
  constexpr double f2 = 2, f4 = f2 * 12, f6 = f4 * 30, f8 = f6 * 56, f10 = f8 * 90, f12 = f10 * 132, f14 = f12 * 182,
                   f16 = f14 * 240;
  const double z = r * r, z2 = z * z, z4 = z2 * z2;
  const double c = ((-1 / f2 + z * (1 / f4)) + z2 * (-1 / f6 + z * (1 / f8))) +
                   z4 * ((-1 / f10 + z * (1 / f12)) + z2 * (-1 / f14 + z * (1 / f16)));
  return 1 + z * c;
}

// Largest |x| the sin/cos reduction takes: |k| < 2^20 keeps k·P1 and k·P2 exact.
constexpr double kTrigLimit = 0x1p20;

// sin x or cos x: x = k·π/2 + r, |r| <= π/4 + 2^-31 < 0.8 (k = nearest integer to x·twoOverPi rounded: the
// product's relative error 2^-52 moves it by at most 2^-32 for |x| < 2^20).
// Reduction (exact real r* = x − kπ/2): x − k·P1 is exact (k·P1 is exact, a multiple of 2^-29, and for k ≠ 0,
// |x| >= 0.78 is a multiple of 2^-53 or coarser, so the difference, below 1 in magnitude, needs at most 53 bits);
// subtracting k·P2 (exact) rounds once: u·|r1|; k·P3 rounds to within u·2^20·2^-60 = 2^-93, and subtracting it
// rounds once, u·|r|; π/2's remainder d gives |k|·2^-113 < 2^-93. With |r1| <= |r| + 2^-40:
// |r − r*| <= 2u·|r| + 2^-90 (k = 0: r = x exactly). sin and cos are 1-Lipschitz, so that is an absolute error
// of the result, added to the polynomial's relative one.
CLREF_KERNEL Bounded sinCos(double x, bool cosine) {
  if (!(std::fabs(x) < kTrigLimit)) return kNone;
  const Constants& c = gConstants;
  const double kd = nearestInteger(x * c.twoOverPi);
  const double r1 = (x - kd * c.P1) - kd * c.P2;
  const double r = r1 - kd * c.P3;
  const double reductionError = kd == 0 ? 0 : 2 * kU * std::fabs(r) + 0x1p-90;
  const unsigned quadrant = (unsigned(int64_t(kd)) + (cosine ? 1 : 0)) & 3;
  // sin(x) = sin r, cos r, −sin r, −cos r for k ≡ 0, 1, 2, 3 (mod 4); cos x = sin(x + π/2). Both polynomials are
  // computed and one is picked with bit masks: the quadrant of random operands is random, and a branch on it would
  // be mispredicted half the time, which costs more than the second polynomial.
  const uint64_t pickCos = uint64_t(0) - (quadrant & 1), negate = uint64_t(quadrant >> 1) << 63;
  const uint64_t bits =
      (std::bit_cast<uint64_t>(sinPoly(r)) & ~pickCos) | (std::bit_cast<uint64_t>(cosPoly(r)) & pickCos);
  const double y = std::bit_cast<double>(bits ^ negate);
  // 2^-48: above both polynomials' bounds, with a margin of 2.8 (fastBinary32 needs some, see there).
  return Bounded{y, std::fabs(y) * 0x1p-48 + reductionError};
}

// Range of t for which expApprox answers: e^t between 2^-159 and 2^130, inside binary64's normal range (so 2^m
// and the products stay normal and exact scaling holds), and beyond binary32's and binary16's both ways.
constexpr double kExpLow = -110, kExpHigh = 90;

// e^t for t in [kExpLow, kExpHigh], any binary64 t, with a relative error below 2^-46.
// t = k·ln2/64 + r, k = nearest integer to t·(64/ln2) (|k| <= 10300 < 2^13.4), ln2/64 = C1 + C2 + d with C1 of
// 32 bits (|d| <= 2^-92). r = (t − k·C1) − k·C2: k·C1 is exact (at most 46 bits, a multiple of 2^-38); t − k·C1
// is exact (k = 0: it is t; else |t| >= ln2/128 > 2^-8, so t is a multiple of 2^-60 or coarser, and the
// difference, at most 0.0055 < 2^-7.5, needs at most 53 bits); k·C2 rounds to within u·2^13.4·2^-38 < 2^-77, the
// subtraction to u·|r|, d costs |k|·2^-92. So |r| <= ln2/128 + 2^-40 < 0.0055 and r − r* (r* = t − k·ln2/64) is
// below 2^-60. e^t = 2^(k>>6)·2^((k&63)/64)·e^r*.
// e^r by Taylor to degree 5: truncation 0.0055^6/720·e^0.0055 < 2^-54.4; evaluated as (1 + r) + r²·((1/2 + r/6)
// + r²·(1/24 + r/120)), where every monomial passes through at most 9 roundings (coefficient, r² twice, products,
// sums) and the sum of the monomials' magnitudes stays below 1.006 against a result >= 0.994: below 9.2u. The
// table entry (u) and the product (u) add 2u; the scaling by 2^m, applied to the table entry first, is exact.
// e^(r − r*) costs 2^-60·(1 + 2^-59). Sum: 2^-60 + 11.2u + 2^-54.4 < 2^-49, well below the 2^-46 returned.
CLREF_KERNEL double expApprox(double t, const Constants& c) {
  const double kd = nearestInteger(t * c.sixtyFourOverLn2);
  const int k = int(kd);
  const double r = (t - kd * c.ln2Over64Hi) - kd * c.ln2Over64Lo;
  const double r2 = r * r;
  const double p = (1 + r) + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
  // 2^(k>>6)·2^((k&63)/64) by adding k>>6 to the table entry's exponent field (exact: the result, between 2^-159
  // and 2^131, stays normal), computed beside the polynomial rather than after it.
  const double scale =
      std::bit_cast<double>(std::bit_cast<uint64_t>(c.exp2Table[k & 63]) + (uint64_t(int64_t(k >> 6)) << 52));
  return scale * p;
}
constexpr double kExpRelative = 0x1p-46;

// log x for a positive normal binary64 x of at most 33 significant bits, with its absolute error.
// x = 2^e·m, m in [1, 2); interval i = the top 7 fraction bits; from i = 53 on m/2 and e + 1. Then
// log x = e·ln2 − log(inv) + log1p(ρ), ρ = m·inv − 1: m·inv is exact (33 + 20 bits) and within 1/128 of 1,
// so the subtraction is exact (Sterbenz); |ρ| <= 2^-8 + 2^-20 inside, and < 2^-7 in the two intervals with
// inv = 1. log1p ρ by Taylor to degree 7: truncation |ρ|^8/8·1.01 < 2^-51.9·|ρ|; evaluated as ρ + ρ·q with
// |q| <= 2^-8, q = ρ·Q(ρ) and Q by Estrin's scheme as for sin (each monomial through at most 12 roundings, the
// sum of their magnitudes within 1.02 of |Q|): q within 20u relative, so p = log1p ρ within
// 21u·2^-8·|ρ| + u·|p| + 2^-51.9|ρ| < 2^-50.5|ρ| (|p| <= 1.01|ρ|).
// Sum: e·ln2 errs by |e|·(2^-54 + u·ln2) (the constant, the product) < 2^-52.4|e|; −log(inv) by u·|−log inv|;
// the two sums by u·(|e|·0.7 + |log inv|) and u·(|e|·0.7 + |log inv| + 1.01|ρ|). Per term: |e|·2^-51.5,
// |log inv|·2^-51.4, |ρ|·2^-50.3; all within the 2^-49·(|e| + |log inv| + |ρ|) returned.
CLREF_KERNEL Bounded logApprox(double x, const Constants& c) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int i = int(bits >> 45) & 127;
  // m/2 and e + 1 from interval kLogHalfFrom on, without a branch (the interval of random operands is random):
  // halving m lowers its exponent field by one.
  const uint64_t half = uint64_t(i >= Constants::kLogHalfFrom);
  const int e = int(bits >> 52) - 1023 + int(half);
  const double m = std::bit_cast<double>(((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull) - (half << 52));
  const double rho = m * c.logInv[i] - 1;
  const double rho2 = rho * rho, rho4 = rho2 * rho2;
  const double q =
      rho * (((-0.5 + rho * (1.0 / 3)) + rho2 * (-0.25 + rho * 0.2)) + rho4 * (-1.0 / 6 + rho * (1.0 / 7)));
  const double p = rho + rho * q;
  const double ed = e;
  const double y = (ed * c.ln2 + c.negLogInv[i]) + p;
  return Bounded{y, 0x1p-49 * (std::fabs(ed) + std::fabs(c.negLogInv[i]) + std::fabs(rho))};
}

// x is an operand logApprox's proof covers: normal, positive, finite, with its low 20 significand bits zero.
CLREF_KERNEL bool logOperand(double x) {
  // One unsigned comparison for DBL_MIN <= x <= DBL_MAX: negative values, infinity and NaN fall outside.
  const uint64_t bits = std::bit_cast<uint64_t>(x), min = 0x0010000000000000ull, inf = 0x7ff0000000000000ull;
  return bits - min < inf - min && (bits & 0xfffff) == 0;
}

// pow(x, y) = e^(y·log x) for x > 0 and finite y (C99 F.9.4.4's special cases are at x <= 0, x = 1, y = 0 or
// infinite operands; at x = 1 and at y = 0 it still agrees: L = 0 exactly, or t = 0, and e^0 = 1 within the bound,
// 1 not a rounding boundary in round to nearest; other modes fall back there).
// t = y·L: |t − y·log x| <= |y|·err(L) + u·|t| (the product's rounding) =: δ. e^t errs relatively by
// e^δ − 1 <= δ·1.01 (δ < 2^-20 here) beyond exp's own 2^-46: the bound is (2^-46 + 1.01δ)(1 + 2^-45) <
// 2^-45 + 1.02δ.
CLREF_KERNEL Bounded powApprox(double x, double y) {
  if (!logOperand(x)) return kNone;  // an infinite or NaN y makes t infinite or NaN, which the range test declines
  const Constants& c = gConstants;
  const Bounded L = logApprox(x, c);
  const double t = y * L.value;
  const double delta = std::fabs(y) * L.error + kU * std::fabs(t);
  if (!(t >= kExpLow && t <= kExpHigh) || !(delta < 0x1p-20)) return kNone;
  const double v = expApprox(t, c);
  return Bounded{v, v * (0x1p-45 + 1.02 * delta)};
}

// f's approximation at args as binary32Kernel describes it, or kNone (also for a wrong number of operands, which
// evaluate's generic part reports).
CLREF_KERNEL Bounded kernelAt(MathFn f, std::span<const double> args) {
  if (!gConstants.ready) [[unlikely]]
    return kNone;
  const size_t n = f == MathFn::pow ? 2 : 1;
  if (args.size() != n) return kNone;
  const double x = args[0];
  switch (f) {
    case MathFn::sin:
      if (x == 0) return kNone;  // ±0: the sign is the exact path's
      return sinCos(x, false);
    case MathFn::cos: return sinCos(x, true);
    case MathFn::exp: {
      if (!(x >= kExpLow && x <= kExpHigh)) return kNone;
      const double v = expApprox(x, gConstants);
      return Bounded{v, v * kExpRelative};
    }
    case MathFn::log:
      // log of 0, negatives, infinity and NaN are special values; binary64 subnormals and longer significands are
      // outside the reduction's proof.
      if (!logOperand(x)) return kNone;
      return logApprox(x, gConstants);
    case MathFn::pow: return powApprox(x, args[1]);
    default: return kNone;
  }
}

// The value of the format that every point of v's interval rounds to in mode r, or NaN where they differ.
// value ± error are rounded to binary64 here, which could move an end inwards by half an ulp of value (2^-53
// relative): every bound above exceeds the proven error by more than 2^-50 relative (sin, cos: 2^-48 against
// 2^-49.5; exp, pow: 2^-46 against 2^-49; log: 2^-49 against 2^-50.3 per term), so the rounded interval still holds
// the exact value.
CLREF_KERNEL double decide(Bounded v, Format format, Rounding r) {
  if (format == Format::Float && r == Rounding::RTE) {
    // The host's conversion rounds to nearest even: both ends in one conversion each, compared bit for bit (so an
    // interval reaching across zero to both signs is not accepted).
    const float lo = float(v.value - v.error), hi = float(v.value + v.error);
    return std::bit_cast<uint32_t>(lo) == std::bit_cast<uint32_t>(hi) ? double(lo) : NAN;
  }
  const double lo = roundToFormat(v.value - v.error, format, r), hi = roundToFormat(v.value + v.error, format, r);
  return std::bit_cast<uint64_t>(lo) == std::bit_cast<uint64_t>(hi) ? lo : NAN;
}

}  // namespace

// Compiled like fastBinary32, so that the tests check the bounds of the variant this processor runs.
CLREF_FMA_CLONES std::optional<Bounded> binary32Kernel(MathFn f, double x, double y) {
  const double args[2] = {x, y};
  const Bounded b = kernelAt(f, {args, f == MathFn::pow ? 2u : 1u});
  if (std::isnan(b.value)) return std::nullopt;
  return b;
}

CLREF_FMA_CLONES double fastBinary32(MathFn f, std::span<const double> args, Format format, Rounding r) {
  if (format == Format::Double) return NAN;
  const Bounded v = kernelAt(f, args);
  return std::isnan(v.value) ? NAN : decide(v, format, r);
}

}  // namespace clref::numerics::detail
