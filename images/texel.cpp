// Image elements ↔ colours: unpacking the channels of every format, the channel-order mapping with its defaults, and
// the conversion rules of OpenCL C 3.0 §8.3 [[conversion-rules]] in both directions.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "images/format_internal.hpp"
#include "images/rgba8.hpp"
#include "images/srgb.hpp"
#include "images/texel_internal.hpp"
#include "numerics/convert.hpp"
#include "numerics/exact_ops.hpp"

namespace clref::images {

using numerics::Denorm;
using numerics::Format;
using numerics::Rounding;

Color floatColor(float x, float y, float z, float w) {
  Color c;
  c.lanes = {std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), std::bit_cast<uint32_t>(z),
             std::bit_cast<uint32_t>(w)};
  return c;
}

std::array<float, 4> asFloats(const Color& c) {
  return {std::bit_cast<float>(c.lanes[0]), std::bit_cast<float>(c.lanes[1]), std::bit_cast<float>(c.lanes[2]),
          std::bit_cast<float>(c.lanes[3])};
}

double laneValue(uint32_t lane, ColorKind k) {
  switch (k) {
    case ColorKind::Float: return double(std::bit_cast<float>(lane));
    case ColorKind::Half: return numerics::toDouble(numerics::Half{uint16_t(lane)});
    case ColorKind::Int: return double(int32_t(lane));
    case ColorKind::Uint: return double(lane);
  }
  return 0;
}

namespace {

// The colour component (0 R, 1 G, 2 B, 3 A) each stored channel of an unpacked order holds, in memory order; -1 for an
// ignored channel (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: "the memory layout in which channels are
// stored"; e.g. CL_BGRA stores B, G, R, A).
struct Layout {
  std::array<int8_t, 4> lane;
  unsigned count;
};
Layout layoutOf(ChannelOrder o) {
  switch (o) {
    case ChannelOrder::R:
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance:
    case ChannelOrder::Depth: return {{0}, 1};
    case ChannelOrder::A: return {{3}, 1};
    case ChannelOrder::RG: return {{0, 1}, 2};
    case ChannelOrder::RA: return {{0, 3}, 2};
    case ChannelOrder::Rx: return {{0, -1}, 2};
    case ChannelOrder::RGx: return {{0, 1, -1}, 3};
    case ChannelOrder::RGB:
    case ChannelOrder::sRGB: return {{0, 1, 2}, 3};
    case ChannelOrder::RGBx:
    case ChannelOrder::sRGBx: return {{0, 1, 2, -1}, 4};
    case ChannelOrder::RGBA:
    case ChannelOrder::sRGBA: return {{0, 1, 2, 3}, 4};
    case ChannelOrder::BGRA:
    case ChannelOrder::sBGRA: return {{2, 1, 0, 3}, 4};
    case ChannelOrder::ARGB: return {{3, 0, 1, 2}, 4};
    case ChannelOrder::ABGR: return {{3, 2, 1, 0}, 4};
  }
  return {{0}, 1};
}
// With the layout of the padded orders: the 1.2 table stores CL_Rx as CL_R and CL_RGx as CL_RG (image_format.hpp).
Layout layoutOf(ImageFormat f) {
  if (f.padded == PaddedLayout::Api12 && f.order == ChannelOrder::Rx) return layoutOf(ChannelOrder::R);
  if (f.padded == PaddedLayout::Api12 && f.order == ChannelOrder::RGx) return layoutOf(ChannelOrder::RG);
  return layoutOf(f.order);
}

// The packed types (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]): "For CL_UNORM_SHORT_565, R is in bits 15:11,
// G is in bits 10:5 and B is in bits 4:0. For CL_UNORM_SHORT_555, bit 15 is undefined, R is in bits 14:10, G in bits
// 9:5 and B in bits 4:0. For CL_UNORM_INT_101010, bits 31:30 are undefined, R is in bits 29:20, G in bits 19:10 and B
// in bits 9:0. For CL_UNORM_INT_101010_2, R is in bits 31:22, G in bits 21:12, B in bits 11:2 and A in bits 1:0." The
// fields hold R, G, B (and A) whatever the order (CL_RGB, CL_RGBx, CL_RGBA); the undefined bits are written as 0.
struct Field {
  unsigned shift, bits;
};
struct Packing {
  std::array<Field, 4> fields;
  unsigned count, bytes;
};
bool packingOf(ChannelType t, Packing& p) {
  switch (t) {
    case ChannelType::UnormShort565: p = {{{{11, 5}, {5, 6}, {0, 5}}}, 3, 2}; return true;
    case ChannelType::UnormShort555: p = {{{{10, 5}, {5, 5}, {0, 5}}}, 3, 2}; return true;
    case ChannelType::UnormInt101010: p = {{{{20, 10}, {10, 10}, {0, 10}}}, 3, 4}; return true;
    case ChannelType::UnormInt101010_2: p = {{{{22, 10}, {12, 10}, {2, 10}, {0, 2}}}, 4, 4}; return true;
    default: return false;
  }
}


// A binary16 or binary32 encoding as an exact channel; subnormals flushed to a zero of their sign when the device
// flushes them (OpenCL C 3.0 §8.3.2 [[conversion-rules-for-half-precision-floating-point-channel-data-type]], §8.3.3
// [[conversion-rules-for-floating-point-channel-data-type]]: "Denorms can be flushed to zero").
ExactChannel fromFloatBits(uint32_t bits, Format f, Denorm denorm) {
  const unsigned mantBits = f == Format::Half ? 10 : 23, expBits = f == Format::Half ? 5 : 8;
  const int bias = f == Format::Half ? 15 : 127;
  const bool neg = (bits >> (mantBits + expBits)) & 1;
  const uint32_t e = (bits >> mantBits) & ((1u << expBits) - 1), m = bits & ((1u << mantBits) - 1);
  ExactChannel c;
  if (e == (1u << expBits) - 1) {
    if (m == 0) {
      c.kind = neg ? ExactChannel::Kind::NegInf : ExactChannel::Kind::PosInf;
    } else {
      c.kind = ExactChannel::Kind::NaN;
      c.nanBits = f == Format::Float ? bits : (neg ? 0x80000000u : 0u) | 0x7f800000u | (m << 13);
    }
    return c;
  }
  int64_t sig;
  int exp;
  if (e == 0) {
    if (m != 0 && denorm == Denorm::Flush) {
      c.negativeZero = neg;
      return c;
    }
    sig = m;
    exp = 1 - bias - int(mantBits);
  } else {
    sig = m | (1u << mantBits);
    exp = int(e) - bias - int(mantBits);
  }
  c.num = neg ? -sig : sig;
  c.exp2 = exp;
  c.negativeZero = neg && sig == 0;
  return c;
}

// The exact value of a code stored in a channel of type t (for a normalized type of `bits` bits).
ExactChannel channelValue(ChannelType t, uint32_t code, unsigned bits, const ConversionOptions& o) {
  switch (t) {
    // OpenCL C 3.0 §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]]: c / 255,
    // c / 1023, c / 65535 — and c / (2^n − 1) for the 5-, 6- and 2-bit fields of the packed types, which the spec
    // describes as normalized n-bit values without writing the formula out.
    case ChannelType::UnormInt8:
    case ChannelType::UnormInt16:
    case ChannelType::UnormShort565:
    case ChannelType::UnormShort555:
    case ChannelType::UnormInt101010:
    case ChannelType::UnormInt101010_2:
    case ChannelType::UnormInt24: return ExactChannel::rational(code, (1u << bits) - 1);
    // "max(-1.0f, (float)c / 127.0f)", "max(-1.0f, (float)c / 32767.0f)": −128 and −32768 give −1.
    case ChannelType::SnormInt8: {
      const int v = int8_t(code);
      return v == -128 ? ExactChannel::rational(-1) : ExactChannel::rational(v, 127);
    }
    case ChannelType::SnormInt16: {
      const int v = int16_t(code);
      return v == -32768 ? ExactChannel::rational(-1) : ExactChannel::rational(v, 32767);
    }
    case ChannelType::HalfFloat: return fromFloatBits(code, Format::Half, o.denormHalf);
    case ChannelType::Float: return fromFloatBits(code, Format::Float, o.denormFloat);
    // §8.3.4 [[conversion-rules-for-signed-and-unsigned-8-bit-16-bit-and-32-bit-integer-channel-data-types]]: "the
    // unmodified integer values stored in the image".
    case ChannelType::SignedInt8: return ExactChannel::rational(int8_t(code));
    case ChannelType::SignedInt16: return ExactChannel::rational(int16_t(code));
    case ChannelType::SignedInt32: return ExactChannel::rational(int32_t(code));
    case ChannelType::UnsignedInt8:
    case ChannelType::UnsignedInt16:
    case ChannelType::UnsignedInt32: return ExactChannel::rational(int64_t(code));
  }
  return {};
}

uint32_t loadCode(const uint8_t* p, unsigned bytes) {
  if (bytes == 1) return p[0];
  if (bytes == 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void storeCode(uint8_t* p, unsigned bytes, uint32_t code) {
  if (bytes == 1) {
    p[0] = uint8_t(code);
  } else if (bytes == 2) {
    const uint16_t v = uint16_t(code);
    std::memcpy(p, &v, 2);
  } else {
    std::memcpy(p, &code, 4);
  }
}

// OpenCL C 3.0 §6.15.15.7
// [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]]:
// "The unmapped components will be set to 0.0 for red, green and blue channels and will be set to 1.0 for the alpha
// channel"; CL_INTENSITY gives (I, I, I, I) and CL_LUMINANCE (L, L, L, 1.0).
void finishMapping(ChannelOrder o, ExactTexel& t) {
  if (o == ChannelOrder::Intensity) t.c[1] = t.c[2] = t.c[3] = t.c[0];
  if (o == ChannelOrder::Luminance) t.c[1] = t.c[2] = t.c[0];
}

}  // namespace

bool kindMatches(ChannelType t, ColorKind kind) {
  switch (channelClass(t)) {
    case ChannelClass::Normalized:
    case ChannelClass::Float: return kind == ColorKind::Float || kind == ColorKind::Half;
    case ChannelClass::SignedInt: return kind == ColorKind::Int;
    case ChannelClass::UnsignedInt: return kind == ColorKind::Uint;
  }
  return false;
}

ExactTexel decodeExact(ImageFormat f, const uint8_t* element, const ConversionOptions& o) {
  ExactTexel t;
  t.c[3] = ExactChannel::rational(1);
  Packing p;
  if (packingOf(f.type, p)) {
    const uint32_t word = loadCode(element, p.bytes);
    for (unsigned i = 0; i < p.count; ++i) {
      const Field fl = p.fields[i];
      t.c[i] = channelValue(f.type, (word >> fl.shift) & ((1u << fl.bits) - 1), fl.bits, o);
    }
    return t;
  }
  const Layout l = layoutOf(f);
  const unsigned bytes = channelBytes(f.type);
  const bool srgb = isSRGB(f.order);
  for (unsigned i = 0; i < l.count; ++i) {
    if (l.lane[i] < 0) continue;
    uint32_t code = loadCode(element + i * bytes, bytes);
    unsigned bits = 8 * bytes;
    // CL_UNORM_INT24: a normalized 24-bit value in the low 24 bits of its 32-bit element; the top byte is ignored.
    if (f.type == ChannelType::UnormInt24) {
      code &= 0xffffffu;
      bits = 24;
    }
    ExactChannel& c = t.c[size_t(l.lane[i])];
    // §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: R, G and B are converted from sRGB; "the alpha data is
    // stored in linear color space".
    if (srgb && l.lane[i] < 3) {
      c.kind = ExactChannel::Kind::Srgb;
      c.srgbCode = uint8_t(code);
    } else {
      c = channelValue(f.type, code, bits, o);
    }
  }
  finishMapping(f.order, t);
  return t;
}

namespace {

// The decoder tables, built once: c / 255 rounded once to binary32 (the division of two binary32 values is correctly
// rounded) and to binary64 (approxOf's num / den), for every 8-bit code.
struct Unorm8Tables {
  std::array<float, 256> f{};
  std::array<double, 256> d{};
};
const Unorm8Tables& unorm8Tables() {
  static const Unorm8Tables tables = [] {
    Unorm8Tables t;
    for (unsigned c = 0; c < 256; ++c) {
      t.f[c] = float(c) / 255.0f;
      t.d[c] = double(c) / 255.0;
    }
    return t;
  }();
  return tables;
}

DirectFormat::Code directCode(ChannelType t) {
  using C = DirectFormat::Code;
  switch (t) {
    case ChannelType::UnormInt8: return C::Unorm8;
    case ChannelType::UnormInt16: return C::Unorm16;
    case ChannelType::SnormInt8: return C::Snorm8;
    case ChannelType::SnormInt16: return C::Snorm16;
    case ChannelType::HalfFloat: return C::Half;
    case ChannelType::Float: return C::Float;
    case ChannelType::SignedInt8: return C::SInt8;
    case ChannelType::SignedInt16: return C::SInt16;
    case ChannelType::SignedInt32: return C::SInt32;
    case ChannelType::UnsignedInt8: return C::UInt8;
    case ChannelType::UnsignedInt16: return C::UInt16;
    case ChannelType::UnsignedInt32: return C::UInt32;
    default: return C::None;  // the packed and 24-bit types
  }
}

DirectFormat makeDirectFormat(ImageFormat f) {
  DirectFormat d;
  if (!isValidFormat(f)) return d;
  // Only the unpacked, non-sRGB orders whose channels map one to one (the others go through decodeExact).
  switch (f.order) {
    case ChannelOrder::R:
    case ChannelOrder::A:
    case ChannelOrder::RG:
    case ChannelOrder::RA:
    case ChannelOrder::RGBA:
    case ChannelOrder::BGRA:
    case ChannelOrder::ARGB:
    case ChannelOrder::ABGR:
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance: break;
    default: return d;
  }
  const Layout l = layoutOf(f);
  d.type = f.type;
  d.cls = channelClass(f.type);
  d.count = uint8_t(l.count);
  d.channelBytes = uint8_t(channelBytes(f.type));
  d.elementBytes = uint8_t(elementSize(f));
  for (unsigned i = 0; i < l.count; ++i) d.lane[i] = uint8_t(l.lane[i]);
  d.intensity = f.order == ChannelOrder::Intensity;
  d.luminance = f.order == ChannelOrder::Luminance;
  d.rgba = f.order == ChannelOrder::RGBA;
  const ExactTexel border = borderExact(f.order);
  for (unsigned ch = 0; ch < 4; ++ch) d.borderApprox[ch] = approxOf(border.c[ch]);
  d.unorm8Float = unorm8Tables().f.data();
  d.unorm8Double = unorm8Tables().d.data();
  d.code = directCode(f.type);
  return d;
}

}  // namespace

DirectTable makeDirectTable() {
  DirectTable t;
  for (uint32_t o = 0; o < DirectTable::kOrderCount; ++o)
    for (uint32_t ty = 0; ty < DirectTable::kTypeCount; ++ty)
      t.formats[o][ty] =
          makeDirectFormat({ChannelOrder(DirectTable::kFirstOrder + o), ChannelType(DirectTable::kFirstType + ty)});
  return t;
}

bool decodeDirect(ImageFormat f, const uint8_t* element, ColorKind kind, const ConversionOptions& o, Color& out) {
  return decodeDirectWith(directFormat(f), element, kind, o, out);
}

double roundQuotient(int64_t num, uint64_t den, Format f) {
  if (num == 0) return 0.0;
  const bool neg = num < 0;
  const unsigned __int128 a = neg ? uint64_t(-num) : uint64_t(num);
  // k with 2^k <= a / den < 2^(k+1), from the bit lengths and then exactly.
  int k = (64 - __builtin_clzll(uint64_t(a))) - (64 - __builtin_clzll(den));
  auto below = [&](int kk) {  // a / den < 2^kk
    return kk >= 0 ? a < (static_cast<unsigned __int128>(den) << kk) : (a << -kk) < den;
  };
  while (below(k)) --k;
  while (!below(k + 1)) ++k;
  const int p = numerics::precisionOf(f);
  const int minQuantum = f == Format::Half ? -24 : f == Format::Float ? -149 : -1074;
  const int q = std::max(k - (p - 1), minQuantum);  // the result is a multiple of 2^q
  // n = floor(a / den / 2^q), and the remainder decides the rounding (ties to even).
  unsigned __int128 scaledA = a, scaledDen = den;
  if (q < 0)
    scaledA <<= -q;
  else
    scaledDen <<= q;
  unsigned __int128 n = scaledA / scaledDen;
  const unsigned __int128 rem2 = 2 * (scaledA - n * scaledDen);
  if (rem2 > scaledDen || (rem2 == scaledDen && (n & 1))) ++n;
  const double r = std::ldexp(double(uint64_t(n)), q);  // n has at most p + 1 bits: exact
  return neg ? -r : r;
}

namespace {
// num · 2^exp2 / den rounded once to binary32. When num and den are binary32 values (|num|, den <= 2^24, as every
// normalized channel's are) and exp2 is 0, the binary32 division is that rounding: IEEE 754-2008 §5.4.1 [external]
// division is correctly rounded (the host rounds to nearest even; clref never changes the mode), and the quotient
// of a normalized channel (at least 1/65535 in magnitude, at most 1) is never subnormal. Otherwise roundQuotient.
double quotientToFloat(const ExactChannel& c) {
  constexpr int64_t kExactInFloat = int64_t(1) << 24;
  if (c.exp2 == 0 && c.num >= -kExactInFloat && c.num <= kExactInFloat && c.den <= uint32_t(kExactInFloat))
    return double(float(c.num) / float(c.den));
  return roundQuotient(c.num, c.den, Format::Float);
}
}  // namespace

double approxOf(const ExactChannel& c) {
  switch (c.kind) {
    case ExactChannel::Kind::Value: {
      if (c.num == 0) return c.negativeZero ? -0.0 : 0.0;
      const double v = c.den == 1 ? double(c.num) : double(c.num) / double(c.den);
      return c.exp2 ? std::ldexp(v, c.exp2) : v;
    }
    case ExactChannel::Kind::Srgb: return srgbToLinearDouble(c.srgbCode);
    case ExactChannel::Kind::PosInf: return INFINITY;
    case ExactChannel::Kind::NegInf: return -INFINITY;
    case ExactChannel::Kind::NaN: return std::bit_cast<float>(c.nanBits);
  }
  return 0;
}

uint32_t laneOf(const ExactChannel& c, ColorKind kind, const ConversionOptions& o) {
  if (kind == ColorKind::Int || kind == ColorKind::Uint) return uint32_t(c.num);
  const Format f = kind == ColorKind::Half ? Format::Half : Format::Float;
  double v = 0;
  switch (c.kind) {
    case ExactChannel::Kind::Srgb:
      return f == Format::Float ? srgbToLinearFloatBits(c.srgbCode) : srgbToLinearHalfBits(c.srgbCode);
    case ExactChannel::Kind::PosInf: v = INFINITY; break;
    case ExactChannel::Kind::NegInf: v = -INFINITY; break;
    case ExactChannel::Kind::NaN:
      // A float channel's NaN is returned as stored by read_imagef; read_imageh gives the half NaN of the same sign
      // and top payload bits (OpenCL C 3.0 §8.3.2
      // [[conversion-rules-for-half-precision-floating-point-channel-data-type]]: "A float NaN must be converted to an
      // appropriate NaN in the half type").
      if (f == Format::Float) return c.nanBits;
      return ((c.nanBits >> 16) & 0x8000u) | 0x7e00u | ((c.nanBits >> 13) & 0x3ffu);
    case ExactChannel::Kind::Value:
      if (c.num == 0) {
        v = c.negativeZero ? -0.0 : 0.0;
      } else if (c.den == 1) {
        // Half, float, integer channels and the defaults: exact in a double; read_imageh of a float channel rounds
        // once (§8.3.2 [[conversion-rules-for-half-precision-floating-point-channel-data-type]]: round to nearest
        // even).
        v = numerics::floatToFloat(std::ldexp(double(c.num), c.exp2), f, Rounding::RTE);
      } else {
        // OpenCL C 3.0 §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]], §8.3.1.2
        // [[converting-normalized-integer-channel-data-types-to-half-precision-floating-point-values]]: the normalized
        // value rounded once (the spec allows 1.5 ulp; the correctly rounded value meets that and the endpoint rules, 0
        // → 0.0 and 2^n − 1 → 1.0, exactly).
        v = f == Format::Float ? quotientToFloat(c) : roundQuotient(c.num, c.den, f);
      }
      break;
  }
  // Results in the subnormal range flushed when the device flushes that format's denormals.
  if (f == Format::Float) {
    float x = float(v);
    if (o.denormFloat == Denorm::Flush) x = numerics::flushDenorm(x);
    return std::bit_cast<uint32_t>(x);
  }
  numerics::Half h = numerics::toHalf(v);
  if (o.denormHalf == Denorm::Flush) h = numerics::flushDenorm(h);
  return h.bits;
}

Color colorOf(const ExactTexel& t, ColorKind kind, const ConversionOptions& o) {
  Color c;
  for (unsigned i = 0; i < 4; ++i) c.lanes[i] = laneOf(t.c[i], kind, o);
  return c;
}

Color decode(ImageFormat f, const uint8_t* element, ColorKind kind, const ConversionOptions& o) {
  // The wrong read function for the type gives (0, 0, 0, 0), the default of the choice image_wrong_read_function
  // (sampler.cpp reports it).
  if (!isValidFormat(f) || !kindMatches(f.type, kind)) return {};
  Color c;
  if (decodeDirect(f, element, kind, o, c)) return c;
  return colorOf(decodeExact(f, element, o), kind, o);
}

namespace {

// write_imagef / write_imageh into a normalized channel: rgba8.hpp toUnorm.
using rgba8_detail::toUnorm;
// convert_char_sat_rte(f * 127.0f), convert_short_sat_rte(f * 32767.0f): saturated to the signed type's range.
uint32_t toSnorm(float x, unsigned bits) {
  if (std::isnan(x)) return 0;
  const double scale = double((1u << (bits - 1)) - 1);
  const double product = double(x * float(scale));  // the formula's binary32 product, as in toUnorm
  const double r = std::clamp(numerics::rint(product), -scale - 1, scale);
  return uint32_t(int32_t(r)) & ((1u << bits) - 1);
}

// The colour component as a float (write_imagef's lane, or write_imageh's half widened exactly).
float componentAsFloat(const Color& c, unsigned lane, ColorKind kind) {
  if (kind == ColorKind::Half) return numerics::toFloat(numerics::Half{uint16_t(c.lanes[lane])});
  return std::bit_cast<float>(c.lanes[lane]);
}

// The code a normalized, half or float channel stores for component `lane` of a write_imagef/h colour.
uint32_t floatCode(ChannelType t, unsigned bits, bool srgb, const Color& c, unsigned lane, ColorKind kind,
                   const ConversionOptions& o) {
  const float x = componentAsFloat(c, lane, kind);
  if (srgb && lane < 3) return linearToSrgb(x);
  switch (t) {
    case ChannelType::SnormInt8:
    case ChannelType::SnormInt16: return toSnorm(x, bits);
    case ChannelType::HalfFloat: {
      // OpenCL C 3.0 §8.3.2 [[conversion-rules-for-half-precision-floating-point-channel-data-type]]: float → half rounds (clref:
      // to nearest even), NaN stays NaN and INF stays INF; half subnormals may be flushed.
      numerics::Half h = kind == ColorKind::Half ? numerics::Half{uint16_t(c.lanes[lane])} : numerics::toHalf(x);
      if (o.denormHalf == Denorm::Flush) h = numerics::flushDenorm(h);
      return h.bits;
    }
    case ChannelType::Float: {
      // OpenCL C 3.0 §8.3.3 [[conversion-rules-for-floating-point-channel-data-type]]: values preserved (a write_imagef lane's bits
      // as given, NaN payloads included; a write_imageh lane widened exactly), denorms may be flushed.
      if (o.denormFloat == Denorm::Flush && std::fpclassify(x) == FP_SUBNORMAL)
        return std::bit_cast<uint32_t>(numerics::flushDenorm(x));
      return kind == ColorKind::Float ? c.lanes[lane] : std::bit_cast<uint32_t>(x);
    }
    default: return toUnorm(x, bits);
  }
}

// OpenCL C 3.0 §8.3.4 [[conversion-rules-for-signed-and-unsigned-8-bit-16-bit-and-32-bit-integer-channel-data-types]]: write_imagei
// converts with convert_char_sat / convert_short_sat, write_imageui with convert_uchar_sat / convert_ushort_sat; 32
// bits unchanged.
uint32_t intCode(ChannelType t, uint32_t lane) {
  switch (t) {
    case ChannelType::SignedInt8: return uint32_t(std::clamp(int32_t(lane), -128, 127)) & 0xffu;
    case ChannelType::SignedInt16: return uint32_t(std::clamp(int32_t(lane), -32768, 32767)) & 0xffffu;
    case ChannelType::UnsignedInt8: return std::min(lane, 255u);
    case ChannelType::UnsignedInt16: return std::min(lane, 65535u);
    default: return lane;
  }
}

}  // namespace

void encode(ImageFormat f, const Color& c, ColorKind kind, uint8_t* element, const ConversionOptions& o) {
  // The wrong write function for the type stores nothing (the default of image_wrong_read_function).
  if (!isValidFormat(f) || !kindMatches(f.type, kind)) return;
  const bool isInt = kind == ColorKind::Int || kind == ColorKind::Uint;
  Packing p;
  if (packingOf(f.type, p)) {
    uint32_t word = 0;
    for (unsigned i = 0; i < p.count; ++i)
      word |= floatCode(f.type, p.fields[i].bits, false, c, i, kind, o) << p.fields[i].shift;
    storeCode(element, p.bytes, word);
    return;
  }
  const Layout l = layoutOf(f);
  const unsigned bytes = channelBytes(f.type);
  const bool srgb = isSRGB(f.order);
  for (unsigned i = 0; i < l.count; ++i) {
    // An ignored channel's content is not specified (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: "the fourth
    // channel is ignored"): the fourth channel of CL_RGBx and CL_sRGBx stores the alpha component as CL_RGBA would
    // (linear, as sRGB alpha is), which is what the conformance suite's fill and write checks expect; the x channels
    // of CL_Rx and CL_RGx are written as 0. CL_INTENSITY and CL_LUMINANCE store the red component, CL_DEPTH the depth
    // (the colour's first component).
    const int lane = l.lane[i] < 0 && i == 3 ? 3 : l.lane[i];
    uint32_t code = 0;
    if (lane >= 0)
      code = isInt ? intCode(f.type, c.lanes[size_t(lane)])
                   : floatCode(f.type, f.type == ChannelType::UnormInt24 ? 24 : 8 * bytes, srgb, c, unsigned(lane),
                               kind, o);
    storeCode(element + i * bytes, bytes, code);
  }
}

bool encodeDirectWith(const DirectFormat& d, const Color& c, ColorKind kind, uint8_t* element,
                      const ConversionOptions& o) {
  // encode's loop for the orders with a direct decoder (every stored channel holds a colour component, none is
  // ignored, none is sRGB), with the same conversions (floatCode, intCode).
  const bool isInt = kind == ColorKind::Int || kind == ColorKind::Uint;
  if (!kindMatchesClass(d.cls, kind) || d.code == DirectFormat::Code::None) return false;
  const unsigned bytes = d.channelBytes;
  if (d.code == DirectFormat::Code::Unorm8 && kind == ColorKind::Float) {
    // The most common image format without floatCode's dispatch: write_imagef's lanes are floats.
    for (unsigned i = 0; i < d.count; ++i) element[i] = uint8_t(toUnorm(std::bit_cast<float>(c.lanes[d.lane[i]]), 8));
    return true;
  }
  for (unsigned i = 0; i < d.count; ++i) {
    const unsigned lane = d.lane[i];
    const uint32_t code = isInt ? intCode(d.type, c.lanes[lane]) : floatCode(d.type, 8 * bytes, false, c, lane, kind, o);
    storeCode(element + i * bytes, bytes, code);
  }
  return true;
}

bool writeRgba8Float(const ImageView& image, int32_t x, int32_t y, const uint32_t lanes[4]) {
  uint8_t* e = rgba8_detail::element(image, x, y);
  if (!e) return false;
  rgba8_detail::encodeFloat(e, lanes);
  return true;
}

}  // namespace clref::images
