// binary16 for the golden corpus's host references (host_reference_shader*.cpp): the value of an encoding, and
// binary64 to binary16 rounded to nearest even (IEEE 754-2008 §4.3.1 [external]), written from the format's
// definition (1 sign bit, 5 exponent bits biased by 15, 10 fraction bits), independent of numerics/half.
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace clref::golden {

// The value of a finite binary16 encoding (the cases' inputs have no infinity or NaN).
inline double halfValue(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent == 0x1f) throw std::runtime_error("host reference: an infinite or NaN binary16 input");
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(mantissa | 0x400, exponent - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

// x (no NaN) rounded to binary16, to nearest even; beyond the largest finite value, an infinity.
inline uint16_t toHalf(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double m = std::fabs(x);
  if (m >= 65520.0) return sign | 0x7c00;
  if (m < 0x1p-14) return sign | uint16_t(std::nearbyint(m * 0x1p24));
  int e;
  std::frexp(m, &e);
  auto mantissa = uint32_t(std::nearbyint(std::ldexp(m, 11 - e)));  // in [1024, 2048]
  int biased = e - 1 + 15;
  if (mantissa == 2048) {
    mantissa = 1024;
    ++biased;
  }
  if (biased >= 31) return sign | 0x7c00;
  return uint16_t(sign | (biased << 10) | (mantissa - 1024));
}

}  // namespace clref::golden
