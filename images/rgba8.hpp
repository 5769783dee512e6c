// The most common image accesses, for callers that make them once per work-item (the interpreter's image
// instructions): read_imagef with or without a sampler and write_imagef at level 0 of a CL_MEM_OBJECT_IMAGE2D
// CL_RGBA / CL_UNORM_INT8 image. Each gives exactly what readSamplerless / readSampled / write (images/sampler.hpp)
// give and returns true; for any other image, format or sampler, a coordinate outside the image (sampler-less reads,
// writes), or a read whose value they cannot prove, it returns false with nothing written, and the general function
// settles the access, undefined conditions included (tests/images/fast_paths_test.cpp compares the two over every
// code, coordinates around the edges and every addressing mode).
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"

namespace clref::images {

namespace rgba8_detail {

// OpenCL C 3.0 §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]]: the exact
// value c / 255, rounded once to binary32 (what decodeExact's rational gives through colorOf). An IEEE division of
// two exactly represented operands is that correctly rounded quotient, and a constant expression evaluates it so
// (C++20 [expr.const] evaluates floating point as the target does; GCC folds through MPFR, correctly rounded).
inline constexpr std::array<float, 256> kUnorm8Float = [] {
  std::array<float, 256> t{};
  for (unsigned c = 0; c < 256; ++c) t[c] = float(c) / 255.0f;
  return t;
}();

// The element at (x, y), or null for another image type or format, a coordinate outside the image, or a view too
// short for it (levelZeroElement's test in read.cpp for this one case).
inline uint8_t* element(const ImageView& image, int32_t x, int32_t y) {
  const ImageDesc& d = image.desc;
  if (d.type != ImageType::Image2D || d.format.order != ChannelOrder::RGBA || d.format.type != ChannelType::UnormInt8)
    return nullptr;
  if (x < 0 || y < 0 || uint64_t(x) >= d.width || uint64_t(y) >= d.height || image.data == nullptr) return nullptr;
  const uint64_t off = uint64_t(y) * d.rowPitch + uint64_t(x) * 4;
  return off + 4 <= image.bytes ? image.data + off : nullptr;
}

// write_imagef / write_imageh into a normalized channel of `bits` bits (OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]], §8.3.1.4
// [[converting-half-precision-floating-point-values-to-normalized-integer-channel-data-types]]): the preferred
// conversion convert_<uchar|ushort>_sat_rte(f * (2^n - 1).0f), the product rounded to float as the formula's float
// multiplication does, then rounded to nearest even and saturated, NaN giving 0 (§6.4.3.3 [[out-of-range-behavior]]).
// "min(convert_ushort_sat_rte(f * 1023.0f), 0x3ff)" for 10 bits is the same saturation to [0, 1023]; the 5-, 6- and
// 2-bit fields follow the same rule with 31, 63 and 3.
[[gnu::always_inline]] inline uint32_t toUnorm(float x, unsigned bits) {
  const uint32_t maxCode = (1u << bits) - 1;
  // NaN, zeros and negative values give a product that rounds to 0 or below (saturated to 0); values of 1 and above
  // one that rounds to maxCode or above (the binary32 product is monotonic in x and 1 · maxCode is exact).
  if (!(x > 0)) return 0;
  if (x >= 1) return maxCode;
  // The binary32 product is the formula's: IEEE 754-2008 §5.4.1 [external] multiplication, correctly rounded (the host
  // rounds to nearest even; clref never changes the mode). It lies in [0, maxCode] with maxCode < 2^24, so its integer
  // part n and fraction are exact in binary32, and rint's ties-to-even is decided on them.
  const float product = x * float(maxCode);
  const uint32_t n = uint32_t(product);
  const float frac = product - float(n);
  return frac > 0.5f || (frac == 0.5f && (n & 1)) ? n + 1 : n;
}
// write_imagef's RGBA8 element from the float4's bit patterns: encodeDirectWith's Unorm8 float case with the mapping
// known (RGBA: lane i in byte i).
inline void encodeFloat(uint8_t* e, const uint32_t lanes[4]) {
  for (unsigned i = 0; i < 4; ++i) e[i] = uint8_t(toUnorm(std::bit_cast<float>(lanes[i]), 8));
}

}  // namespace rgba8_detail

// read_imagef(image, (int2)(x, y)): the float4's four binary32 bit patterns in `lanes`.
inline bool readRgba8Float(const ImageView& image, int32_t x, int32_t y, uint32_t lanes[4]) {
  const uint8_t* e = rgba8_detail::element(image, x, y);
  if (!e) return false;
  for (unsigned i = 0; i < 4; ++i) lanes[i] = std::bit_cast<uint32_t>(rgba8_detail::kUnorm8Float[e[i]]);
  return true;
}

// read_imagef(image, sampler, (float2)(x, y)) without a level of detail (level 0): readLevelZeroFast's evaluation
// (read_internal.hpp) for this format and two axes, in binary64 with the same error bound, so false also where that
// bound does not decide. binary32Coordinates: the choice image_coordinate_precision is binary32. Also false for
// integer coordinates' samplers' undefined cases (unnormalized REPEAT or MIRRORED_REPEAT), INF or NaN coordinates,
// CLK_ADDRESS_NONE outside the image, and a nearest read of the border colour.
bool readRgba8Sampled(const ImageView& image, const Sampler& s, float x, float y, bool binary32Coordinates,
                      const ConversionOptions& o, uint32_t lanes[4]);

// readRgba8Sampled for many reads of one image with one sampler (the lanes of an image instruction): what depends
// only on the image and the sampler is checked and worked out once. read() gives what readRgba8Sampled gives.
class Rgba8SampledReader {
 public:
  Rgba8SampledReader(const ImageView& image, const Sampler& s, bool binary32Coordinates, const ConversionOptions& o);
  // Whether readRgba8Sampled takes this image and sampler at all (else read() must not be called).
  bool valid() const { return valid_; }
  bool read(float x, float y, uint32_t lanes[4]) const;

 private:
  const ImageView& image_;
  bool valid_ = false, linear_ = false;
  ConversionOptions conversion_;
  AddressingMode mode_{};
  bool normalized_ = false, binary32_ = false;
  int64_t w_ = 1, h_ = 1;
  const double* value_ = nullptr;  // c / 255 rounded to binary64, by code
};

// write_imagef(image, (int2)(x, y), color), `lanes` the float4's bit patterns: each channel
// convert_uchar_sat_rte(f * 255.0f) (rgba8_detail::toUnorm).
bool writeRgba8Float(const ImageView& image, int32_t x, int32_t y, const uint32_t lanes[4]);

}  // namespace clref::images
