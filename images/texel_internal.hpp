// The exact channel values of an image element, for texel.cpp's conversions and the sampler's filters (internal to
// the images module).
#pragma once
#include <array>
#include <cstdint>

#include "images/image_format.hpp"
#include "images/texel.hpp"
#include "numerics/format.hpp"

namespace clref::images {

// One channel's exact value (OpenCL C 3.0 §8.3 [[conversion-rules]]): a rational num · 2^exp2 / den (normalized
// channels c / (2^n - 1), half and float channels their dyadic value, integer channels the integer, the colour
// defaults 0 and 1), the exact linear value of an 8-bit sRGB code, or a float channel's infinity or NaN.
struct ExactChannel {
  enum class Kind : uint8_t { Value, Srgb, PosInf, NegInf, NaN };
  Kind kind = Kind::Value;
  bool negativeZero = false;  // a half or float channel holding -0
  int64_t num = 0;
  int32_t exp2 = 0;
  uint32_t den = 1;
  uint8_t srgbCode = 0;  // Kind::Srgb: the stored 8-bit value
  uint32_t nanBits = 0;  // Kind::NaN: the channel's bits widened to binary32 (a half NaN keeps its payload's top bits)

  static ExactChannel rational(int64_t n, uint32_t d = 1) {
    ExactChannel c;
    c.num = n;
    c.den = d;
    return c;
  }
  bool isFinite() const { return kind == Kind::Value || kind == Kind::Srgb; }
};

// The four colour components (RGBA) after the channel-order mapping, with the missing-channel defaults.
struct ExactTexel {
  std::array<ExactChannel, 4> c;
};

// The element's channels, exact. `element` holds elementSize(f) bytes of a valid format.
ExactTexel decodeExact(ImageFormat f, const uint8_t* element, const ConversionOptions& o);
// The border colour of the order as exact channels.
ExactTexel borderExact(ChannelOrder o);

// Whether read_image{f,h,i,ui} / write_image{f,h,i,ui} of `kind` is the function for this channel type (OpenCL C 3.0
// §6.15.15.2 [[built-in-image-read-functions]], §6.15.15.4 [[built-in-image-write-functions]]).
bool kindMatches(ChannelType t, ColorKind kind);

// One exact channel rounded once to the colour's lane (float bits, half bits in the low 16, or the integer).
uint32_t laneOf(const ExactChannel& c, ColorKind kind, const ConversionOptions& o);
// The whole texel as a colour of `kind`.
Color colorOf(const ExactTexel& t, ColorKind kind, const ConversionOptions& o);

// decode() without exact channels, for the formats whose conversion is one binary32 division or a plain integer:
// unpacked non-sRGB orders with the 8- and 16-bit normalized types, CL_FLOAT and the integer types, read as float,
// int or uint. Gives the same bits as colorOf(decodeExact(...)) (tests/images: images_core_test proves it for every
// code); false for every other format or kind.
bool decodeDirect(ImageFormat f, const uint8_t* element, ColorKind kind, const ConversionOptions& o, Color& out);

// A channel's value as a double: exact for half, float and integer channels, within 2^-53 relative for
// normalized and sRGB channels (one rounding); ±inf and NaN as such. For the sampler's fast path.
double approxOf(const ExactChannel& c);

// num / den (den > 0, |num| < 2^40, den < 2^40) rounded to nearest even in `f` (Half or Float) with its subnormals,
// returned exactly as a double.
double roundQuotient(int64_t num, uint64_t den, numerics::Format f);

}  // namespace clref::images
