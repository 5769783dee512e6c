// Image elements ↔ colour values: the conversion rules of OpenCL C 3.0 §8.3 [[conversion-rules]] (normalized integer,
// half, float, signed and unsigned integer channels, sRGB) and the mapping of channels to colour components
// (§6.15.15.7 [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]]
// with its missing-channel defaults).
#pragma once
#include <array>
#include <cstdint>

#include "images/image_format.hpp"
#include "numerics/format.hpp"

namespace clref::images {

// Which built-in reads or writes (and so the colour's component type): read_imagef / write_imagef (float4),
// read_imageh / write_imageh (half4), read_imagei / write_imagei (int4), read_imageui / write_imageui (uint4).
enum class ColorKind : uint8_t { Float, Half, Int, Uint };

// A colour: four 32-bit lanes holding floats (bit patterns), ints or uints; for ColorKind::Half the low 16 bits
// of each lane hold the half's bits.
struct Color {
  std::array<uint32_t, 4> lanes{};
  friend bool operator==(const Color&, const Color&) = default;
};
Color floatColor(float x, float y, float z, float w);
std::array<float, 4> asFloats(const Color& c);
// The value of one lane as a double: floats and halves exactly (every binary16 and binary32 value is a binary64 value),
// ints and uints exactly (32 bits fit binary64's 53).
double laneValue(uint32_t lane, ColorKind k);

// How the device treats subnormal half and float channel values (the device's denormal configuration).
struct ConversionOptions {
  numerics::Denorm denormHalf = numerics::Denorm::Preserve;
  numerics::Denorm denormFloat = numerics::Denorm::Preserve;
};

// The exact value of each channel of one image element, in the order RGBA after the channel-order mapping
// (missing channels already filled with the defaults of that mapping: 0 for colour channels, 1 for alpha; INTENSITY and
// LUMINANCE replicated). For normalized types the value is the rational c / (2^n - 1) (signed: max(-1, c /
// (2^(n-1) - 1))), for sRGB the exact sRGB → linear function of that, held as an exact numerator/denominator pair
// where needed; for half and float the stored value; for integer types the integer.
// The representation is internal to the module (texel.cpp); decodeExact feeds the sampler's exact filter.
struct ExactTexel;

// read_image{f,h,i,ui} of one element without filtering: the element's channels converted by the conversion
// rules and rounded once to the colour's type (for ColorKind::Float: the exact value rounded to nearest float, which
// meets every endpoint requirement of §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]]).
Color decode(ImageFormat f, const uint8_t* element, ColorKind kind, const ConversionOptions& o = {});

// write_image{f,h,i,ui} of one element: the conversion rules for writes (float → normalized: round to nearest even,
// saturating, §8.3.1.3 [[converting-floating-point-values-to-normalized-integer-channel-data-types]]; integers:
// saturating convert_*_sat, OpenCL C 3.0 §8.3.4
// [[conversion-rules-for-signed-and-unsigned-8-bit-16-bit-and-32-bit-integer-channel-data-types]]; linear → sRGB
// for sRGB orders), written into `element` (elementSize(f) bytes). Channels the order does not store are ignored.
void encode(ImageFormat f, const Color& c, ColorKind kind, uint8_t* element, const ConversionOptions& o = {});

}  // namespace clref::images
