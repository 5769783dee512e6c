#include "format.hpp"

#include <cfenv>
#include <cstring>

namespace clref::numerics {

std::string_view toString(Format f) {
  switch (f) {
    case Format::Half: return "half";
    case Format::Float: return "float";
    case Format::Double: return "double";
  }
  return "?";
}

std::string_view toString(Rounding r) {
  switch (r) {
    case Rounding::RTE: return "rte";
    case Rounding::RTZ: return "rtz";
    case Rounding::RTP: return "rtp";
    case Rounding::RTN: return "rtn";
  }
  return "?";
}

float toFloat(Half h) {
  const uint32_t sign = uint32_t(h.bits & 0x8000) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1f;
  const uint32_t man = h.bits & 0x3ff;
  uint32_t out;
  if (exp == 0x1f) {
    out = sign | 0x7f800000u | (man << 13);  // inf, or NaN keeping its payload
  } else if (exp != 0) {
    out = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    out = sign;
  } else {
    // Subnormal binary16: value = man × 2^-24, exactly representable in binary32.
    float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(out);
}

// IEEE 754-2008 §4.3 [external] rounding of x to binary16, done on the exact binary64 bits: the
// significand is cut to 11 bits (fewer for subnormals) and rounded by the mode's rule from the
// cut-off bits, so the result is rounded once.
Half toHalf(double x, Rounding r) {
  const uint64_t b = std::bit_cast<uint64_t>(x);
  const uint16_t sign = uint16_t((b >> 48) & 0x8000);
  const bool neg = sign != 0;
  if (std::isnan(x)) {
    // Keep the top payload bits, force quiet.
    return Half{uint16_t(sign | 0x7e00 | ((b >> 42) & 0x1ff))};
  }
  if (std::isinf(x)) return Half{uint16_t(sign | 0x7c00)};
  if (x == 0) return Half{sign};

  int e;
  double m = std::frexp(std::fabs(x), &e);  // |x| = m × 2^e, m in [0.5, 1)
  // Unbiased exponent of |x| is e-1. binary16 normal range: e-1 in [-14, 15].
  int keepBits = 11;                                 // significand bits kept, including the leading one
  if (e - 1 < -14) keepBits = 11 - (-14 - (e - 1));  // subnormal: fewer bits
  // Scaled significand: integer part = kept bits; fraction = cut-off part (exact in binary64
  // because m has 53 bits and we scale by a power of two).
  double scaled = std::ldexp(m, keepBits);  // in [2^(keepBits-1), 2^keepBits) or < 1 when keepBits <= 0
  double ip = std::floor(scaled);
  double frac = scaled - ip;  // exact
  bool up = false;
  switch (r) {
    case Rounding::RTE: up = frac > 0.5 || (frac == 0.5 && std::fmod(ip, 2.0) != 0); break;
    case Rounding::RTZ: up = false; break;
    case Rounding::RTP: up = !neg && frac > 0; break;
    case Rounding::RTN: up = neg && frac > 0; break;
  }
  double q = ip + (up ? 1 : 0);
  double mag = std::ldexp(q, e - keepBits);  // rounded magnitude, exact in binary64
  // Overflow: beyond the largest finite binary16 (65504).
  if (mag > 65504.0) {
    const bool toInf = r == Rounding::RTE || (r == Rounding::RTP && !neg) || (r == Rounding::RTN && neg);
    return Half{uint16_t(sign | (toInf ? 0x7c00 : 0x7bff))};
  }
  if (mag == 0) return Half{sign};
  // Encode the now-representable magnitude.
  int e2;
  double m2 = std::frexp(mag, &e2);
  uint16_t bits;
  if (e2 - 1 < -14) {
    bits = uint16_t(std::ldexp(mag, 24));  // subnormal: mag / 2^-24
  } else {
    bits = uint16_t(((e2 - 1 + 15) << 10) | (uint16_t(std::ldexp(m2, 11)) & 0x3ff));
  }
  return Half{uint16_t(sign | bits)};
}

}  // namespace clref::numerics
