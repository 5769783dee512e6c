#include "numerics/convert.hpp"

#include <cmath>

#include "numerics/exact_ops.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics {

namespace {
// A value of binary64 that is also a value of f: then every rounding mode gives it back.
bool representable(double d, Format f) {
  switch (f) {
    case Format::Double: return true;
    case Format::Float: return double(float(d)) == d;
    case Format::Half: return toDouble(toHalf(d)) == d;
  }
  return false;
}
}  // namespace

double intToFloat(int64_t v, Format f, Rounding r) {
  // |v| < 2^53 is exact in binary64; when that is also a value of f, no rounding happens.
  if (v > -(int64_t(1) << 53) && v < (int64_t(1) << 53) && representable(double(v), f)) return double(v);
  Mpfr x(64);
  mpfr_set_sj(x, v, MPFR_RNDN);  // exact at 64 bits
  return roundToDouble(x, f, r);
}

double uintToFloat(uint64_t v, Format f, Rounding r) {
  if (v < (uint64_t(1) << 53) && representable(double(v), f)) return double(v);
  Mpfr x(64);
  mpfr_set_uj(x, v, MPFR_RNDN);  // exact at 64 bits
  return roundToDouble(x, f, r);
}

double floatToFloat(double x, Format f, Rounding r) {
  if (std::isnan(x) || representable(x, f)) return x;
  if (f == Format::Half) return toDouble(toHalf(x, r));  // toHalf rounds once, in any mode
  Mpfr m(53);
  mpfr_set_d(m, x, MPFR_RNDN);  // exact
  return roundToDouble(m, f, r);
}

double roundToIntegral(double x, Rounding r) {
  switch (r) {
    case Rounding::RTZ: return std::trunc(x);
    case Rounding::RTP: return std::ceil(x);
    case Rounding::RTN: return std::floor(x);
    default: return rint(x);  // ties to even (exact_ops.hpp), whatever the host FP environment
  }
}

uint64_t floatToIntOutOfRange(double x, int bits, bool isSigned, bool saturate, FloatToIntOption option) {
  const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  const uint64_t minValue = isSigned ? (uint64_t(1) << (bits - 1)) : 0;  // two's complement, low bits
  const uint64_t maxValue = isSigned ? (uint64_t(1) << (bits - 1)) - 1 : mask;
  if (saturate || option == FloatToIntOption::Saturate) return std::isnan(x) ? 0 : x < 0 ? minValue : maxValue;
  return option == FloatToIntOption::MinValue ? minValue : 0;
}

}  // namespace clref::numerics
