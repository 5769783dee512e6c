// Floating-point formats, rounding modes and the binary16 storage type.
#pragma once
#include <bit>
#include <cmath>
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

}  // namespace clref::numerics
