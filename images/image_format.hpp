// Image formats: channel orders and channel data types (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]],
// "List of supported Image Channel Order Values" and "Image Channel Data Types"), which pairs the spec allows,
// and the size of one image element.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace clref::images {

// Values are the cl.h enumerants so the OpenCL C API can pass them straight through.
enum class ChannelOrder : uint32_t {
  R = 0x10B0,
  A = 0x10B1,
  RG = 0x10B2,
  RA = 0x10B3,
  RGB = 0x10B4,
  RGBA = 0x10B5,
  BGRA = 0x10B6,
  ARGB = 0x10B7,
  Intensity = 0x10B8,
  Luminance = 0x10B9,
  Rx = 0x10BA,
  RGx = 0x10BB,
  RGBx = 0x10BC,
  Depth = 0x10BD,
  sRGB = 0x10BF,
  sRGBx = 0x10C0,
  sRGBA = 0x10C1,
  sBGRA = 0x10C2,
  ABGR = 0x10C3
};

enum class ChannelType : uint32_t {
  SnormInt8 = 0x10D0,
  SnormInt16 = 0x10D1,
  UnormInt8 = 0x10D2,
  UnormInt16 = 0x10D3,
  UnormShort565 = 0x10D4,
  UnormShort555 = 0x10D5,
  UnormInt101010 = 0x10D6,
  SignedInt8 = 0x10D7,
  SignedInt16 = 0x10D8,
  SignedInt32 = 0x10D9,
  UnsignedInt8 = 0x10DA,
  UnsignedInt16 = 0x10DB,
  UnsignedInt32 = 0x10DC,
  HalfFloat = 0x10DD,
  Float = 0x10DE,
  UnormInt24 = 0x10DF,
  UnormInt101010_2 = 0x10E0
};

// The layout of the padded orders CL_Rx, CL_RGx and CL_RGBx, on which the API specs disagree (the choice
// image_padded_channel_layout, numerics/choices.cpp): Api30 as OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]
// describes them (CL_Rx two stored channels, CL_RGx three, CL_RGBx four of any type, the last ignored); Api12 as
// OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor" lists them (CL_Rx one stored channel as CL_R, CL_RGx two as CL_RG,
// CL_RGBx only with the packed types). Other orders ignore it.
enum class PaddedLayout : uint8_t { Api30, Api12 };

// cl_image_format, and the layout of a padded order.
struct ImageFormat {
  ChannelOrder order = ChannelOrder::RGBA;
  ChannelType type = ChannelType::UnormInt8;
  PaddedLayout padded = PaddedLayout::Api30;
  friend constexpr bool operator==(ImageFormat, ImageFormat) = default;
};
// Whether the order is one of CL_Rx, CL_RGx, CL_RGBx (whose layout `padded` chooses).
constexpr bool isPadded(ChannelOrder o) {
  return o == ChannelOrder::Rx || o == ChannelOrder::RGx || o == ChannelOrder::RGBx;
}
// The format with the layout `l` when its order is padded (unchanged otherwise, so that formats of the other orders
// stay equal whatever layout a caller asks for).
constexpr ImageFormat withLayout(ImageFormat f, PaddedLayout l) {
  if (isPadded(f.order)) f.padded = l;
  return f;
}

// Which read function returns this type's values (OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]):
// read_imagef/read_imageh for normalized, half and float types, read_imagei for signed and read_imageui for
// unsigned integer types.
enum class ChannelClass : uint8_t { Normalized, Float, SignedInt, UnsignedInt };
ChannelClass channelClass(ChannelType t);

// Number of channels a texel of this order carries (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]).
constexpr unsigned channelCount(ChannelOrder o) {
  switch (o) {
    case ChannelOrder::R:
    case ChannelOrder::A:
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance:
    case ChannelOrder::Rx:
    case ChannelOrder::Depth: return 1;
    case ChannelOrder::RG:
    case ChannelOrder::RA:
    case ChannelOrder::RGx: return 2;
    case ChannelOrder::RGB:
    case ChannelOrder::RGBx:
    case ChannelOrder::sRGB:
    case ChannelOrder::sRGBx: return 3;
    default: return 4;
  }
}

// Whether the spec allows this pair (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: e.g. CL_UNORM_SHORT_565 only
// with CL_RGB/CL_RGBx, CL_INTENSITY and CL_LUMINANCE only with the normalized, half and float types, CL_DEPTH only
// with CL_UNORM_INT16, CL_UNORM_INT24 and CL_FLOAT, sRGB orders only with CL_UNORM_INT8, and a power-of-two number of
// bits per element) and clref supports it. clref supports every pair the spec allows (image_format.cpp cites each
// rule).
bool isValidFormat(ImageFormat f);
// Every valid format (for clGetSupportedImageFormats and the tests), in a fixed order; with a layout: the padded
// orders' formats valid in that layout (Api12: CL_RGx with every type CL_RG takes, CL_RGBx packed only).
std::span<const ImageFormat> allFormats();
std::span<const ImageFormat> allFormats(PaddedLayout layout);
// Bytes of one image element (the packed types 565/555/101010 are one 16- or 32-bit element), or 0 when invalid.
unsigned elementSize(ImageFormat f);
// Whether an sRGB order (CL_sRGB, CL_sRGBx, CL_sRGBA, CL_sBGRA).
bool isSRGB(ChannelOrder o);

// The spec's names: "CL_RGBA", "CL_UNORM_INT8"; and back (accepting the name with or without "CL_").
std::string_view nameOf(ChannelOrder o);
std::string_view nameOf(ChannelType t);
std::optional<ChannelOrder> channelOrderNamed(std::string_view name);
std::optional<ChannelType> channelTypeNamed(std::string_view name);

}  // namespace clref::images
