// An independent host implementation of the image formulas, written from the specification text alone
// (not from images/*.cpp), for the comparison tests: texel decode/encode by OpenCL C 3.0 §8.3 [[conversion-rules]],
// the channel mapping of OpenCL C 3.0 §6.15.15.7
// [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]],
// the border colours of OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]] and the sampler formulas of
// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] and OpenCL C 3.0 §8.4 [[selecting-an-image-from-an-image-array]].
//
// Everything is evaluated exactly with rationals (Boost.Multiprecision over GMP: coordinates scaled, floors, fractional
// parts, weights, the weighted sum; the addressing steps of a sampled read optionally rounded to binary32) and rounded
// once at the end by roundBinary below; the sRGB → linear function, which is not rational, is computed with MPFR at 256
// bits and then taken as an exact rational. Only the enum and struct types of the images/ headers are used here, never
// their functions.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/multiprecision/gmp.hpp>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"

namespace clref::hostimg {

using images::ChannelOrder;
using images::ChannelType;
using images::Color;
using images::ColorKind;
using images::ImageFormat;

// Exact rationals and integers (Boost.Multiprecision's GMP backends), the host's own.
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational>;
using Integer = boost::multiprecision::number<boost::multiprecision::gmp_int>;

// One colour component's exact value: a rational, or ±inf / NaN (float and half channels), with the sign of a zero.
struct Exact {
  enum class Kind : uint8_t { Finite, PosInf, NegInf, NaN } kind = Kind::Finite;
  Rational q;
  bool negative = false;  // the sign of a zero (−0.0); for finite non-zero values q carries the sign
  static Exact of(const Rational& v) { return Exact{Kind::Finite, v, false}; }
};
using ExactColor = std::array<Exact, 4>;

// Which class of channel type (read_imagef/h for normalized, half, float; read_imagei for signed, read_imageui for
// unsigned integers: OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]).
enum class TypeClass : uint8_t { Normalized, Float, Signed, Unsigned };
TypeClass typeClass(ChannelType t);

// Bytes of one element: stored channels × channel size, or the packed word (OpenCL 3.0 API §5.3.1.1
// [[image-format-descriptor]]: CL_Rx stores two channels, CL_RGx three, CL_RGBx/CL_sRGBx four, the second / third /
// fourth ignored).
unsigned elementBytes(ImageFormat f);
// The host's own reading of which pairs are valid (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: the packed
// types only with the orders their description names, the bits per element a power of two (so CL_sRGB, 24 bits, is
// not), CL_DEPTH with CL_UNORM_INT16 / CL_FLOAT / CL_UNORM_INT24, sRGB orders with CL_UNORM_INT8 only, INTENSITY and
// LUMINANCE with normalized, half and float types). The 1.2 restrictions that 3.0 no longer states (CL_ARGB / CL_BGRA
// only with 8-bit types, CL_RGBx only with the packed types) are not applied.
bool validFormat(ImageFormat f);

// Rounds an exact value to binary32 (p = 24) or binary16 (p = 11) with round-to-nearest-even (or toward zero), with
// subnormals and overflow to ±inf; returned as the format's bits.
uint32_t roundToFloatBits(const Exact& v, bool towardZero = false);
uint16_t roundToHalfBits(const Exact& v, bool towardZero = false);
Exact exactOfFloatBits(uint32_t bits);
Exact exactOfHalfBits(uint16_t bits);
bool isSubnormalFloatBits(uint32_t b);
bool isSubnormalHalfBits(uint16_t b);

// sRGB ↔ linear (OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]) with exact decimal constants,
// evaluated in MPFR at 256 bits.
Rational srgbToLinear(const Rational& c);
Rational linearToSrgb(const Rational& c);

// The element's channels after the order mapping (missing channels 0, alpha 1; INTENSITY, LUMINANCE replicated;
// sRGB colour channels converted to linear), exact.
ExactColor decodeExact(ImageFormat f, const uint8_t* element);
// A colour rounded once to `kind` (Float: binary32; Half: binary16; Int/Uint: the integer).
Color roundColor(const ExactColor& c, ColorKind kind);
// read without filtering: decodeExact + roundColor.
Color decode(ImageFormat f, const uint8_t* element, ColorKind kind);
// write_image{f,h,i,ui} of one element (OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]] with the float product f * 255.0f
// rounded as OpenCL C rounds it; half channels round to nearest even; integers saturate; sRGB by OpenCL C 3.0 §8.3.5
// [[conversion-rules-for-srgba-and-sbgra-images]]'s formula). Channels the order does not store are left 0.
void encode(ImageFormat f, const Color& c, ColorKind kind, uint8_t* element);

// The raw bits of each channel the element stores (packed fields shifted down; CL_UNORM_INT24 its low 24 bits), in
// memory order, with the channel's letter (R G B A I L D); the ignored channels and bits (x, bit 15 of 555, bits 31:30
// of 101010) are left out. For comparing written elements.
std::vector<std::pair<char, uint64_t>> rawChannels(ImageFormat f, const uint8_t* element);

// The border colour of OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]] (CL_sRGB, which the list
// omits, as CL_RGB: (0, 0, 0, 1)).
ExactColor borderColor(ChannelOrder o);

// A read through a sampler or without one. `undefined` names the condition under which the spec leaves the result
// undefined (the value is then not computed).
struct HostRead {
  Color value;
  ExactColor exact;
  images::Undefined undefined = images::Undefined::None;
};
// How the addressing steps of OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] are evaluated (u = s · w_t, the REPEAT
// and MIRRORED_REPEAT steps, u − 0.5 and the fraction a; the spec leaves their precision undefined but for unnormalized
// nearest NONE/CLAMP/CLAMP_TO_EDGE): Binary32 rounds each step to binary32 (round to nearest even) as the formulas'
// binary32 operands do in float arithmetic; Exact evaluates them as real numbers. The weights and the filter's sum
// stay exact either way.
enum class CoordinatePrecision { Binary32, Exact };
// `level`: the mip level read (its sizes are w_t, h_t, d_t), for reads with an explicit integral lod.
HostRead readSampled(const images::ImageView& image, const images::Sampler& s, const images::Coord& coord,
                     ColorKind kind, uint32_t level = 0, CoordinatePrecision precision = CoordinatePrecision::Binary32);
HostRead readSamplerless(const images::ImageView& image, const std::array<int32_t, 3>& coord, ColorKind kind,
                         uint32_t level = 0);
// Byte offset of the element a sampler-less read or a write of `coord` addresses (inside the image).
size_t elementOffset(const images::ImageView& image, const std::array<int32_t, 3>& coord, uint32_t level = 0);
// Returns false (and writes nothing) when the coordinate is outside the image.
bool write(const images::ImageView& image, const std::array<int32_t, 3>& coord, const Color& color, ColorKind kind,
           uint32_t level = 0);

}  // namespace clref::hostimg
