// Image formats: channel orders and channel data types (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]], Table
// "List of supported Image Channel Order Values" and "Image Channel Data Types"). Texel
// encoding, sampling and filtering belong here too; they come with the images issue.
#pragma once
#include <cstdint>

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
  UnormInt101010_2 = 0x10E0
};

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

}  // namespace clref::images
