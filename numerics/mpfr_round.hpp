// MPFR as the ground truth (docs/ARCHITECTURE.md "Numerics"): round an MPFR value of any precision to
// binary16/32/64 in any rounding mode, with the format's exponent range and subnormals, and
// move exact half/float/double values into MPFR.
//
// MPFR has no exponent range or subnormals per variable; a format is emulated by rounding to
// its precision, then narrowing the global (thread-local) exponent range to the format's and
// applying mpfr_check_range (overflow, underflow) and mpfr_subnormalize (the reduced precision
// of subnormals), as described in the MPFR manual under mpfr_subnormalize. The caller's
// exponent range is restored afterwards.
#pragma once
#include <mpfr.h>

#include <cstdint>

#include "numerics/format.hpp"

namespace clref::numerics {

// A binary interchange format as MPFR sees it. MPFR writes a nonzero x as m·2^e with
// m in [0.5, 1), so MPFR's exponent is one above IEEE's: the largest finite value
// (2 - 2^(1-p))·2^emaxIeee has MPFR exponent emaxIeee + 1, and the smallest subnormal
// 2^(eminIeee - p + 1) has MPFR exponent eminIeee - p + 2.
struct FormatRange {
  mpfr_prec_t precision;  // p, including the leading bit (IEEE 754-2008 §3.6 [external] Table 3.5)
  mpfr_exp_t emin;        // MPFR exponent of the smallest subnormal
  mpfr_exp_t emax;        // MPFR exponent of the largest finite value
  int exponentBits;       // w, width of the biased exponent field
  int bias;               // IEEE 754-2008 §3.4 [external]: biased exponent E = e + bias
};

// IEEE 754-2008 §3.6 [external] Table 3.5: binary16 p=11 emax=15, binary32 p=24 emax=127,
// binary64 p=53 emax=1023; emin = 1 - emax for all.
constexpr FormatRange rangeOf(Format f) {
  switch (f) {
    case Format::Half: return {11, -14 - 11 + 2, 15 + 1, 5, 15};
    case Format::Float: return {24, -126 - 24 + 2, 127 + 1, 8, 127};
    case Format::Double: return {53, -1022 - 53 + 2, 1023 + 1, 11, 1023};
  }
  return {53, -1073, 1024, 11, 1023};
}

// SPIR-V FPRoundingMode → MPFR rounding (IEEE 754-2008 §4.3.1 [external] roundTiesToEven, §4.3.2 [external]
// roundTowardZero, roundTowardPositive, roundTowardNegative).
constexpr mpfr_rnd_t toMpfr(Rounding r) {
  switch (r) {
    case Rounding::RTE: return MPFR_RNDN;
    case Rounding::RTZ: return MPFR_RNDZ;
    case Rounding::RTP: return MPFR_RNDU;
    case Rounding::RTN: return MPFR_RNDD;
  }
  return MPFR_RNDN;
}

// Narrows MPFR's exponent range for a scope and restores the previous one on exit. The range
// is per thread (MPFR built with TLS), so threads do not disturb each other.
class ExponentRangeGuard {
 public:
  ExponentRangeGuard(mpfr_exp_t emin, mpfr_exp_t emax);
  explicit ExponentRangeGuard(Format f) : ExponentRangeGuard(rangeOf(f).emin, rangeOf(f).emax) {}
  ~ExponentRangeGuard();
  ExponentRangeGuard(const ExponentRangeGuard&) = delete;
  ExponentRangeGuard& operator=(const ExponentRangeGuard&) = delete;

 private:
  mpfr_exp_t savedEmin_, savedEmax_;
};

// An owned mpfr_t (RAII), not Boost's mpfr_float: its decimal precision costs each temporary a set_prec (>5 % slower).
class Mpfr {
 public:
  explicit Mpfr(mpfr_prec_t precision) { mpfr_init2(v_, precision); }
  ~Mpfr() { mpfr_clear(v_); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  operator mpfr_ptr() { return v_; }
  operator mpfr_srcptr() const { return v_; }

 private:
  mpfr_t v_;
};

// Finishes a result: `x` holds a value already correctly rounded to the format's precision
// in direction r in an unbounded exponent range, and `ternary` is the sign of (x - exact).
// Applies overflow, underflow and subnormal rounding of the format without double rounding
// (that is what the ternary value is for). Returns the new ternary value.
int finishToFormat(mpfr_ptr x, int ternary, Format f, Rounding r);

// Rounds x (any precision, an exact or correctly rounded value) into `out`, which is set to
// the format's precision. out and x may be the same variable. Returns the ternary value.
int roundToFormat(mpfr_ptr out, mpfr_srcptr x, Format f, Rounding r);

// Rounds x to the format and returns it as a double; exact, since every binary16 and
// binary32 value is a binary64 value (IEEE 754-2008 §3.6 [external]). NaN gives a quiet NaN.
double roundToDouble(mpfr_srcptr x, Format f, Rounding r);

// Rounds x to the format and returns its encoding (IEEE 754-2008 §3.4 [external]) in the low bits.
// MPFR has no NaN payloads: NaN gives the positive quiet NaN with an empty payload.
uint64_t roundToBits(mpfr_srcptr x, Format f, Rounding r);
inline Half roundToHalf(mpfr_srcptr x, Rounding r) { return Half{uint16_t(roundToBits(x, Format::Half, r))}; }

// The encoding of x, which must already be a value of the format (as left by roundToFormat).
uint64_t encode(mpfr_srcptr x, Format f);

// Exact conversions into MPFR: out's precision is raised to the format's if it is lower.
// The Half conversion decodes the bits itself (it does not go through toFloat), so tests can
// use it as an independent decoding. NaN payloads are lost (MPFR has none).
void setExact(mpfr_ptr out, Half h);
void setExact(mpfr_ptr out, float x);
void setExact(mpfr_ptr out, double x);

}  // namespace clref::numerics
