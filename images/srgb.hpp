// The sRGB conversions of OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]], evaluated exactly
// (internal to the images module).
#pragma once
#include <cstdint>

#include <mpfr.h>

namespace clref::images {

// The linear value of the 8-bit sRGB code n, L(n) = c / 12.92 for c = n / 255 <= 0.04045, else
// ((c + 0.055) / 1.055)^2.4, rounded to nearest even once: as float bits, as half bits, and as a double (the last for
// the sampler's fast path, within half an ulp of binary64).
uint32_t srgbToLinearFloatBits(uint8_t n);
uint16_t srgbToLinearHalfBits(uint8_t n);
double srgbToLinearDouble(uint8_t n);
// Whether L(n) is rational: n <= 10 (the linear segment, 5n / 16473) or n = 255 (1); every other L(n) is irrational.
bool srgbIsRational(uint8_t n);
// A rational L(n) as num / den.
void srgbRational(uint8_t n, int64_t& num, uint32_t& den);
// Bounds lo <= L(n) <= hi at the precision of lo and hi (directed roundings).
void srgbEnclose(uint8_t n, mpfr_ptr lo, mpfr_ptr hi);

// write_imagef's linear → sRGB conversion of one colour component c (a binary32 value): NaN → 0, clamp to [0, 1],
// 12.92 c below 0.0031308 else 1.055 c^(1/2.4) − 0.055, then floor(255 x + 0.5), decided exactly.
uint8_t linearToSrgb(float c);

}  // namespace clref::images
