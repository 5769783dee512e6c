// Floating-point formats, rounding modes and the binary16 storage type.
#pragma once
#include <bit>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <string_view>

namespace clref::numerics {

// OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]]: half, float, double are IEEE 754 binary16, binary32, binary64.
enum class Format : uint8_t { Half, Float, Double };

// SPIR-V 1.0 §3.16 [external] FPRoundingMode: RTE, RTZ, RTP, RTN.
enum class Rounding : uint8_t { RTE, RTZ, RTP, RTN };

// Denormal handling per format (OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]: denormals may be
// flushed to zero).
enum class Denorm : uint8_t { Preserve, Flush };

std::string_view toString(Format);
std::string_view toString(Rounding);

constexpr int precisionOf(Format f) { return f == Format::Half ? 11 : f == Format::Float ? 24 : 53; }
constexpr int storageBits(Format f) { return f == Format::Half ? 16 : f == Format::Float ? 32 : 64; }

// IEEE 754 binary16 as stored in memory; arithmetic goes through the functions in half.hpp.
struct Half {
  uint16_t bits = 0;
  friend constexpr bool operator==(Half a, Half b) { return a.bits == b.bits; }
};

// binary16 → binary32 is exact (every binary16 value is a binary32 value).
float toFloat(Half h);
inline double toDouble(Half h) { return toFloat(h); }

// Correctly rounded conversion to binary16 from a binary64 value (covers binary32 inputs
// exactly, so no double rounding), in any rounding mode, with subnormals.
Half toHalf(double x, Rounding r = Rounding::RTE);

constexpr bool isSubnormalBits(Half h) { return (h.bits & 0x7c00) == 0 && (h.bits & 0x3ff) != 0; }

// Flush a subnormal to a zero of the same sign (OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] "flush
// to zero").
inline float flushDenorm(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline double flushDenorm(double x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x; }
inline Half flushDenorm(Half h) { return isSubnormalBits(h) ? Half{uint16_t(h.bits & 0x8000)} : h; }

// The format of a value of `bytes` bytes (2, 4 or 8).
constexpr Format formatOfBytes(uint32_t bytes) {
  return bytes == 2 ? Format::Half : bytes == 4 ? Format::Float : Format::Double;
}
// A value of the format stored at p (little-endian, as in registers and buffers) as a double, exactly; and back
// (v must be a value of the format).
inline double loadValue(const void* p, Format f) {
  switch (f) {
    case Format::Half: {
      Half h;
      std::memcpy(&h, p, 2);
      return toDouble(h);
    }
    case Format::Float: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}
inline void storeValue(void* p, Format f, double v) {
  switch (f) {
    case Format::Half: {
      const Half h = toHalf(v);
      std::memcpy(p, &h, 2);
      break;
    }
    case Format::Float: {
      const float x = float(v);
      std::memcpy(p, &x, 4);
      break;
    }
    default: std::memcpy(p, &v, 8); break;
  }
}

}  // namespace clref::numerics
