// The exact channel values of an image element, for texel.cpp's conversions and the sampler's filters (internal to
// the images module).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

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

// A format's direct decoders, chosen once per format (directFormat) so that a read pays for no format dispatch:
// the unpacked, non-sRGB orders whose channels map one to one (CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA, CL_ARGB,
// CL_ABGR, CL_INTENSITY, CL_LUMINANCE) with the 8- and 16-bit normalized, half, float and integer types. Every other
// valid format, and every invalid one, has Code::None and goes through decodeExact.
struct DirectFormat {
  enum class Code : uint8_t { None, Unorm8, Unorm16, Snorm8, Snorm16, Half, Float, SInt8, SInt16, SInt32, UInt8, UInt16, UInt32 };
  Code code = Code::None;
  ChannelType type = ChannelType::UnormInt8;
  ChannelClass cls = ChannelClass::Normalized;
  uint8_t count = 0;         // channels stored
  uint8_t channelBytes = 0;  // bytes of one channel
  uint8_t elementBytes = 0;  // bytes of one element
  std::array<uint8_t, 4> lane{};  // the colour component each stored channel holds, in memory order
  bool intensity = false, luminance = false;  // the replication of the channel-order mapping
  bool rgba = false;                          // four channels stored in the order R, G, B, A (no mapping)
  std::array<double, 4> borderApprox{};       // approxOf of the border colour's channels (borderExact)
  const float* unorm8Float = nullptr;         // c / 255 rounded to binary32, for every 8-bit code
  const double* unorm8Double = nullptr;       // c / 255 rounded to binary64 (approxOf's value)
};
// The decoders of every (order, type) pair of cl.h's ranges (orders 0x10B0..0x10C3, types 0x10D0..0x10E0), built
// once (texel.cpp); directFormat looks one up inline, since every fast read asks.
struct DirectTable {
  static constexpr uint32_t kFirstOrder = 0x10B0, kOrderCount = 0x14, kFirstType = 0x10D0, kTypeCount = 0x11;
  std::array<std::array<DirectFormat, kTypeCount>, kOrderCount> formats{};
  DirectFormat none;  // Code::None, for values outside the ranges
};
DirectTable makeDirectTable();
inline const DirectFormat& directFormat(ImageFormat f) {
  static const DirectTable table = makeDirectTable();
  const uint32_t o = uint32_t(f.order) - DirectTable::kFirstOrder, t = uint32_t(f.type) - DirectTable::kFirstType;
  return o < DirectTable::kOrderCount && t < DirectTable::kTypeCount ? table.formats[o][t] : table.none;
}

// decodeDirect with the decoder chosen: the same bits; false (nothing written) for Code::None, half channels and
// kinds other than float, int and uint (defined below).
inline bool decodeDirectWith(const DirectFormat& d, const uint8_t* element, ColorKind kind, const ConversionOptions& o,
                             Color& out);

// encode() with the decoder's format chosen: the same bytes; false (nothing written) for Code::None and for
// write_imageh (kinds other than float, int and uint).
bool encodeDirectWith(const DirectFormat& d, const Color& c, ColorKind kind, uint8_t* element,
                      const ConversionOptions& o);

// approxOf of each channel of decodeExact(f, element, o), without building the exact texel (Code::None: false).
// Bit for bit the values approxOf gives, so that the filter's fast path sees the same numbers either way.
inline bool decodeApproxWith(const DirectFormat& d, const uint8_t* element, const ConversionOptions& o,
                             std::array<double, 4>& out);

// A channel's value as a double: exact for half, float and integer channels, within 2^-53 relative for
// normalized and sRGB channels (one rounding); ±inf and NaN as such. For the sampler's fast path.
double approxOf(const ExactChannel& c);

// num / den (den > 0, |num| < 2^40, den < 2^40) rounded to nearest even in `f` (Half or Float) with its subnormals,
// returned exactly as a double.
double roundQuotient(int64_t num, uint64_t den, numerics::Format f);

// ---- Inline definitions (the filter's hot loop) ----

namespace direct_detail {
template <class T> inline T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// The channels of one element through `value` (code bytes → double), then the mapping's defaults and replication.
template <class F> inline void approxChannels(const DirectFormat& d, const uint8_t* e, std::array<double, 4>& out, F value) {
  if (d.rgba) {
    for (unsigned i = 0; i < 4; ++i) out[i] = value(e + i * d.channelBytes);
    return;
  }
  out = {0.0, 0.0, 0.0, 1.0};
  for (unsigned i = 0; i < d.count; ++i) out[d.lane[i]] = value(e + i * d.channelBytes);
  if (d.intensity) out[1] = out[2] = out[3] = out[0];
  if (d.luminance) out[1] = out[2] = out[0];
}
}  // namespace direct_detail

[[gnu::always_inline]] inline bool decodeApproxWith(const DirectFormat& d, const uint8_t* e, const ConversionOptions& o,
                             std::array<double, 4>& out) {
  using direct_detail::approxChannels;
  using direct_detail::load;
  using C = DirectFormat::Code;
  // approxOf (texel.cpp): a normalized channel's quotient rounded once to binary64 (num / den; ±0 as +0, −1 exact),
  // half and float channels exactly (their subnormals flushed to a zero of their sign when the device flushes),
  // integers exactly.
  switch (d.code) {
    case C::Unorm8: approxChannels(d, e, out, [&](const uint8_t* p) { return d.unorm8Double[*p]; }); return true;
    case C::Unorm16:
      approxChannels(d, e, out, [](const uint8_t* p) { return double(load<uint16_t>(p)) / 65535.0; });
      return true;
    case C::Snorm8:
      approxChannels(d, e, out, [](const uint8_t* p) {
        const int v = int8_t(*p);
        return v == -128 ? -1.0 : double(v) / 127.0;
      });
      return true;
    case C::Snorm16:
      approxChannels(d, e, out, [](const uint8_t* p) {
        const int v = load<int16_t>(p);
        return v == -32768 ? -1.0 : double(v) / 32767.0;
      });
      return true;
    case C::Half:
      approxChannels(d, e, out, [&](const uint8_t* p) {
        numerics::Half h{load<uint16_t>(p)};
        if (o.denormHalf == numerics::Denorm::Flush) h = numerics::flushDenorm(h);
        return numerics::toDouble(h);
      });
      return true;
    case C::Float:
      approxChannels(d, e, out, [&](const uint8_t* p) {
        uint32_t b = load<uint32_t>(p);
        if (o.denormFloat == numerics::Denorm::Flush && (b & 0x7f800000u) == 0) b &= 0x80000000u;
        return double(std::bit_cast<float>(b));
      });
      return true;
    case C::SInt8: approxChannels(d, e, out, [](const uint8_t* p) { return double(int8_t(*p)); }); return true;
    case C::SInt16: approxChannels(d, e, out, [](const uint8_t* p) { return double(load<int16_t>(p)); }); return true;
    case C::SInt32: approxChannels(d, e, out, [](const uint8_t* p) { return double(load<int32_t>(p)); }); return true;
    case C::UInt8: approxChannels(d, e, out, [](const uint8_t* p) { return double(*p); }); return true;
    case C::UInt16: approxChannels(d, e, out, [](const uint8_t* p) { return double(load<uint16_t>(p)); }); return true;
    case C::UInt32: approxChannels(d, e, out, [](const uint8_t* p) { return double(load<uint32_t>(p)); }); return true;
    case C::None: break;
  }
  return false;
}

// Whether a read or write of `kind` is the one the channel class takes (read_imagef/write_imagef for normalized and
// float channels, the i and ui forms for signed and unsigned integer channels); the direct paths take no other.
inline bool kindMatchesClass(ChannelClass cls, ColorKind kind) {
  switch (cls) {
    case ChannelClass::Normalized:
    case ChannelClass::Float: return kind == ColorKind::Float;
    case ChannelClass::SignedInt: return kind == ColorKind::Int;
    case ChannelClass::UnsignedInt: return kind == ColorKind::Uint;
  }
  return false;
}

inline bool decodeDirectWith(const DirectFormat& d, const uint8_t* element, ColorKind kind, const ConversionOptions& o,
                             Color& out) {
  using direct_detail::load;
  using C = DirectFormat::Code;
  const bool floatKind = kind == ColorKind::Float;
  if (!kindMatchesClass(d.cls, kind) || d.code == C::Half) return false;
  // One loop per channel type (the type's switch is taken once per element, not per channel). The values
  // channelValue gives, rounded as laneOf rounds them (quotientToFloat's argument).
  uint32_t lanes[4] = {0, 0, 0, floatKind ? std::bit_cast<uint32_t>(1.0f) : 1u};
  auto each = [&](auto value) {
    if (d.rgba) {
      for (unsigned i = 0; i < 4; ++i) lanes[i] = value(element + i * d.channelBytes);
      return;
    }
    for (unsigned i = 0; i < d.count; ++i) lanes[d.lane[i]] = value(element + i * d.channelBytes);
  };
  switch (d.code) {
    case C::Unorm8: each([&](const uint8_t* p) { return std::bit_cast<uint32_t>(d.unorm8Float[*p]); }); break;
    case C::Unorm16: each([](const uint8_t* p) { return std::bit_cast<uint32_t>(float(load<uint16_t>(p)) / 65535.0f); }); break;
    case C::Snorm8:
      each([](const uint8_t* p) {
        return std::bit_cast<uint32_t>(int8_t(*p) == -128 ? -1.0f : float(int8_t(*p)) / 127.0f);
      });
      break;
    case C::Snorm16:
      each([](const uint8_t* p) {
        const int16_t c = load<int16_t>(p);
        return std::bit_cast<uint32_t>(c == -32768 ? -1.0f : float(c) / 32767.0f);
      });
      break;
    case C::Float:
      each([&](const uint8_t* p) {
        // A subnormal is flushed to a zero of its sign when the device flushes float denormals (fromFloatBits).
        const uint32_t code = load<uint32_t>(p);
        const bool subnormal = (code & 0x7f800000u) == 0 && (code & 0x7fffffu) != 0;
        return subnormal && o.denormFloat == numerics::Denorm::Flush ? code & 0x80000000u : code;
      });
      break;
    case C::SInt8: each([](const uint8_t* p) { return uint32_t(int32_t(int8_t(*p))); }); break;
    case C::SInt16: each([](const uint8_t* p) { return uint32_t(int32_t(load<int16_t>(p))); }); break;
    case C::UInt8: each([](const uint8_t* p) { return uint32_t(*p); }); break;
    case C::UInt16: each([](const uint8_t* p) { return load<uint16_t>(p); }); break;
    case C::SInt32:
    case C::UInt32: each([](const uint8_t* p) { return load<uint32_t>(p); }); break;
    case C::Half:
    case C::None: return false;
  }
  // The replication of finishMapping.
  if (d.intensity) lanes[1] = lanes[2] = lanes[3] = lanes[0];
  if (d.luminance) lanes[1] = lanes[2] = lanes[0];
  for (unsigned i = 0; i < 4; ++i) out.lanes[i] = lanes[i];
  return true;
}

}  // namespace clref::images
