#include "images/image_format.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "images/format_internal.hpp"

namespace clref::images {

namespace {

constexpr ChannelOrder kOrders[] = {
    ChannelOrder::R,     ChannelOrder::A,     ChannelOrder::RG,    ChannelOrder::RA,        ChannelOrder::RGB,
    ChannelOrder::RGBA,  ChannelOrder::BGRA,  ChannelOrder::ARGB,  ChannelOrder::Intensity, ChannelOrder::Luminance,
    ChannelOrder::Rx,    ChannelOrder::RGx,   ChannelOrder::RGBx,  ChannelOrder::Depth,     ChannelOrder::sRGB,
    ChannelOrder::sRGBx, ChannelOrder::sRGBA, ChannelOrder::sBGRA, ChannelOrder::ABGR};

constexpr ChannelType kTypes[] = {ChannelType::SnormInt8,      ChannelType::SnormInt16,      ChannelType::UnormInt8,
                                  ChannelType::UnormInt16,     ChannelType::UnormShort565,   ChannelType::UnormShort555,
                                  ChannelType::UnormInt101010, ChannelType::SignedInt8,      ChannelType::SignedInt16,
                                  ChannelType::SignedInt32,    ChannelType::UnsignedInt8,    ChannelType::UnsignedInt16,
                                  ChannelType::UnsignedInt32,  ChannelType::HalfFloat,       ChannelType::Float,
                                  ChannelType::UnormInt24,     ChannelType::UnormInt101010_2};


// The pair as the spec lists it, before the power-of-two rule.
bool pairListed(ChannelOrder o, ChannelType t) {
  // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: CL_UNORM_SHORT_565, _555 and CL_UNORM_INT_101010 "The channel
  // order must be CL_RGB or CL_RGBx"; CL_UNORM_INT_101010_2 "The channel order must be CL_RGBA".
  if (t == ChannelType::UnormShort565 || t == ChannelType::UnormShort555 || t == ChannelType::UnormInt101010)
    return o == ChannelOrder::RGB || o == ChannelOrder::RGBx;
  if (t == ChannelType::UnormInt101010_2) return o == ChannelOrder::RGBA;
  switch (o) {
    // OpenCL Extension Specification 3.0.12 §16.2 "Additions to Chapter 5 of the OpenCL 1.2 Specification"
    // (cl_khr_depth_images): CL_DEPTH "can only be used if channel data type = CL_UNORM_INT16 or CL_FLOAT"; OpenCL C
    // 3.0 §6.15.15.2 [[built-in-image-read-functions]] adds depth images "created with image_channel_data_type set to
    // CL_UNORM_INT16 or CL_UNORM_INT24" (CL_UNORM_INT24, OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: "a
    // normalized unsigned 24-bit integer value", held in a 32-bit element).
    case ChannelOrder::Depth:
      return t == ChannelType::UnormInt16 || t == ChannelType::Float || t == ChannelType::UnormInt24;
    // OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor": CL_INTENSITY and CL_LUMINANCE "can only be used if channel
    // data type = CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT or CL_FLOAT" (the 3.0
    // table keeps the orders without restating the list; clref keeps it). The 1.2 restriction of CL_ARGB and CL_BGRA to
    // the 8-bit types is gone from the 3.0 table (which added CL_ABGR beside them), so those orders take every type.
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance:
      return t == ChannelType::UnormInt8 || t == ChannelType::UnormInt16 || t == ChannelType::SnormInt8 ||
             t == ChannelType::SnormInt16 || t == ChannelType::HalfFloat || t == ChannelType::Float;
    // OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: the sRGB conversion is defined for "a
    // normalized 8-bit unsigned integer sRGB color value" only, so the sRGB orders take CL_UNORM_INT8 alone.
    case ChannelOrder::sRGB:
    case ChannelOrder::sRGBx:
    case ChannelOrder::sRGBA:
    case ChannelOrder::sBGRA: return t == ChannelType::UnormInt8;
    // CL_UNORM_INT24 only for depth (above); every other order takes every unpacked type.
    default: return t != ChannelType::UnormInt24;
  }
}

}  // namespace

// Bytes of one channel of an unpacked type.
unsigned channelBytes(ChannelType t) {
  switch (t) {
    case ChannelType::SnormInt8:
    case ChannelType::UnormInt8:
    case ChannelType::SignedInt8:
    case ChannelType::UnsignedInt8: return 1;
    case ChannelType::SnormInt16:
    case ChannelType::UnormInt16:
    case ChannelType::SignedInt16:
    case ChannelType::UnsignedInt16:
    case ChannelType::HalfFloat: return 2;
    case ChannelType::SignedInt32:
    case ChannelType::UnsignedInt32:
    case ChannelType::Float:
    case ChannelType::UnormInt24: return 4;
    default: return 0;
  }
}

unsigned storedChannels(ChannelOrder o) {
  // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: CL_Rx "A two channel image format, where ... the second
  // channel is ignored", CL_RGx three channels, CL_RGBx and CL_sRGBx four; the others store the channels they carry.
  switch (o) {
    case ChannelOrder::Rx: return 2;
    case ChannelOrder::RGx: return 3;
    case ChannelOrder::RGBx:
    case ChannelOrder::sRGBx: return 4;
    default: return channelCount(o);
  }
}

ChannelClass channelClass(ChannelType t) {
  switch (t) {
    case ChannelType::SignedInt8:
    case ChannelType::SignedInt16:
    case ChannelType::SignedInt32: return ChannelClass::SignedInt;
    case ChannelType::UnsignedInt8:
    case ChannelType::UnsignedInt16:
    case ChannelType::UnsignedInt32: return ChannelClass::UnsignedInt;
    case ChannelType::HalfFloat:
    case ChannelType::Float: return ChannelClass::Float;
    default: return ChannelClass::Normalized;
  }
}

namespace {
bool isValidFormatByRules(ImageFormat f) {
  if (nameOf(f.order).empty() || nameOf(f.type).empty()) return false;
  if (!pairListed(f.order, f.type)) return false;
  // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: "The number of bits per element determined by the
  // image_channel_data_type and image_channel_order must be a power of two." This leaves CL_RGx (three stored
  // channels) and CL_sRGB (three 8-bit channels, 24 bits) with no valid type.
  const unsigned bits = 8 * elementBytesUnchecked(f);
  return bits != 0 && (bits & (bits - 1)) == 0;
}

// The rules above evaluated once for every (order, type) pair of cl.h's ranges (orders 0x10B0..0x10C3, types
// 0x10D0..0x10E0): every image access asks.
constexpr uint32_t kFirstOrder = 0x10B0, kOrderCount = 0x14, kFirstType = 0x10D0, kTypeCount = 0x11;
}  // namespace

namespace {
bool isValidLayout30(ImageFormat f);
bool isPackedType(ChannelType t) {
  return t == ChannelType::UnormShort565 || t == ChannelType::UnormShort555 || t == ChannelType::UnormInt101010;
}
}  // namespace

bool isValidFormat(ImageFormat f) {
  if (f.padded == PaddedLayout::Api12 && isPadded(f.order)) {
    // OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor": "CL_R, CL_Rx or CL_A", "CL_RG, CL_RGx or CL_RA" take the
    // same types; "CL_RGB or CL_RGBx. This format can only be used if channel data type = CL_UNORM_SHORT_565,
    // CL_UNORM_SHORT_555, or CL_UNORM_INT_101010."
    if (f.order == ChannelOrder::Rx) return isValidLayout30({ChannelOrder::R, f.type});
    if (f.order == ChannelOrder::RGx) return isValidLayout30({ChannelOrder::RG, f.type});
    return isPackedType(f.type);
  }
  return isValidLayout30(f);
}

namespace {
bool isValidLayout30(ImageFormat f) {
  static const auto table = [] {
    std::array<std::array<bool, kTypeCount>, kOrderCount> t{};
    for (uint32_t o = 0; o < kOrderCount; ++o)
      for (uint32_t ty = 0; ty < kTypeCount; ++ty)
        t[o][ty] = isValidFormatByRules({ChannelOrder(kFirstOrder + o), ChannelType(kFirstType + ty)});
    return t;
  }();
  const uint32_t o = uint32_t(f.order) - kFirstOrder, ty = uint32_t(f.type) - kFirstType;
  return o < kOrderCount && ty < kTypeCount && table[o][ty];
}
}  // namespace

unsigned elementBytesUnchecked(ImageFormat f) {
  switch (f.type) {
    case ChannelType::UnormShort565:
    case ChannelType::UnormShort555: return 2;
    case ChannelType::UnormInt101010:
    case ChannelType::UnormInt101010_2: return 4;
    default: {
      // The 1.2 layout stores CL_Rx as CL_R and CL_RGx as CL_RG.
      unsigned channels = storedChannels(f.order);
      if (f.padded == PaddedLayout::Api12 && f.order == ChannelOrder::Rx) channels = 1;
      if (f.padded == PaddedLayout::Api12 && f.order == ChannelOrder::RGx) channels = 2;
      return channels * channelBytes(f.type);
    }
  }
}

std::span<const ImageFormat> allFormats() {
  static const std::vector<ImageFormat> formats = [] {
    std::vector<ImageFormat> out;
    for (auto o : kOrders)
      for (auto t : kTypes)
        if (isValidFormat({o, t})) out.push_back({o, t});
    return out;
  }();
  return formats;
}

std::span<const ImageFormat> allFormats(PaddedLayout layout) {
  if (layout == PaddedLayout::Api30) return allFormats();
  static const std::vector<ImageFormat> formats = [] {
    std::vector<ImageFormat> out;
    for (auto o : kOrders)
      for (auto t : kTypes) {
        const ImageFormat f = withLayout({o, t}, PaddedLayout::Api12);
        if (isValidFormat(f)) out.push_back(f);
      }
    return out;
  }();
  return formats;
}

unsigned elementSize(ImageFormat f) { return isValidFormat(f) ? elementBytesUnchecked(f) : 0; }

bool isSRGB(ChannelOrder o) {
  return o == ChannelOrder::sRGB || o == ChannelOrder::sRGBx || o == ChannelOrder::sRGBA || o == ChannelOrder::sBGRA;
}

std::string_view nameOf(ChannelOrder o) {
  switch (o) {
    case ChannelOrder::R: return "CL_R";
    case ChannelOrder::A: return "CL_A";
    case ChannelOrder::RG: return "CL_RG";
    case ChannelOrder::RA: return "CL_RA";
    case ChannelOrder::RGB: return "CL_RGB";
    case ChannelOrder::RGBA: return "CL_RGBA";
    case ChannelOrder::BGRA: return "CL_BGRA";
    case ChannelOrder::ARGB: return "CL_ARGB";
    case ChannelOrder::Intensity: return "CL_INTENSITY";
    case ChannelOrder::Luminance: return "CL_LUMINANCE";
    case ChannelOrder::Rx: return "CL_Rx";
    case ChannelOrder::RGx: return "CL_RGx";
    case ChannelOrder::RGBx: return "CL_RGBx";
    case ChannelOrder::Depth: return "CL_DEPTH";
    case ChannelOrder::sRGB: return "CL_sRGB";
    case ChannelOrder::sRGBx: return "CL_sRGBx";
    case ChannelOrder::sRGBA: return "CL_sRGBA";
    case ChannelOrder::sBGRA: return "CL_sBGRA";
    case ChannelOrder::ABGR: return "CL_ABGR";
  }
  return {};
}

std::string_view nameOf(ChannelType t) {
  switch (t) {
    case ChannelType::SnormInt8: return "CL_SNORM_INT8";
    case ChannelType::SnormInt16: return "CL_SNORM_INT16";
    case ChannelType::UnormInt8: return "CL_UNORM_INT8";
    case ChannelType::UnormInt16: return "CL_UNORM_INT16";
    case ChannelType::UnormShort565: return "CL_UNORM_SHORT_565";
    case ChannelType::UnormShort555: return "CL_UNORM_SHORT_555";
    case ChannelType::UnormInt101010: return "CL_UNORM_INT_101010";
    case ChannelType::SignedInt8: return "CL_SIGNED_INT8";
    case ChannelType::SignedInt16: return "CL_SIGNED_INT16";
    case ChannelType::SignedInt32: return "CL_SIGNED_INT32";
    case ChannelType::UnsignedInt8: return "CL_UNSIGNED_INT8";
    case ChannelType::UnsignedInt16: return "CL_UNSIGNED_INT16";
    case ChannelType::UnsignedInt32: return "CL_UNSIGNED_INT32";
    case ChannelType::HalfFloat: return "CL_HALF_FLOAT";
    case ChannelType::Float: return "CL_FLOAT";
    case ChannelType::UnormInt24: return "CL_UNORM_INT24";
    case ChannelType::UnormInt101010_2: return "CL_UNORM_INT_101010_2";
  }
  return {};
}

namespace {
// The spec's names are case-sensitive (CL_Rx, CL_sRGBA); "CL_" may be left off.
bool sameName(std::string_view full, std::string_view asked) {
  if (asked == full) return true;
  return full.substr(0, 3) == "CL_" && asked == full.substr(3);
}
}  // namespace

std::optional<ChannelOrder> channelOrderNamed(std::string_view name) {
  for (auto o : kOrders)
    if (sameName(nameOf(o), name)) return o;
  return std::nullopt;
}

std::optional<ChannelType> channelTypeNamed(std::string_view name) {
  for (auto t : kTypes)
    if (sameName(nameOf(t), name)) return t;
  return std::nullopt;
}

}  // namespace clref::images
