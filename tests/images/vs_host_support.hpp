// Shared pieces of the comparison tests of images/ against the host implementation (images_vs_host_test.cpp,
// images_vs_host_sampler_test.cpp): the order × type lists, colour comparison with NaN and zero-sign rules, element
// patterns, colours, test images and adversarial coordinates.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"
#include "tests/images/host_images.hpp"

namespace clref::vs_host {

// CI runs every test twice: built by GCC, and by clang under AddressSanitizer + UBSan, where these comparisons over
// every format, shape, sampler and element pattern take 10 to 15 times as long (a quarter of CI's hour). The sanitized
// build (CLREF_SANITIZED) takes one case in kCaseStride of each combination, so that every path still runs under the
// sanitizers; the GCC build takes every case.
#if CLREF_SANITIZED
inline constexpr unsigned kCaseStride = 5;
#else
inline constexpr unsigned kCaseStride = 1;
#endif

using images::AddressingMode;
using images::ChannelOrder;
using images::ChannelType;
using images::Color;
using images::ColorKind;
using images::FilterMode;
using images::ImageFormat;
using images::ImageType;
using images::Undefined;

inline constexpr ChannelOrder kOrders[] = {
    ChannelOrder::R,     ChannelOrder::A,     ChannelOrder::RG,    ChannelOrder::RA,        ChannelOrder::RGB,
    ChannelOrder::RGBA,  ChannelOrder::BGRA,  ChannelOrder::ARGB,  ChannelOrder::Intensity, ChannelOrder::Luminance,
    ChannelOrder::Rx,    ChannelOrder::RGx,   ChannelOrder::RGBx,  ChannelOrder::Depth,     ChannelOrder::sRGB,
    ChannelOrder::sRGBx, ChannelOrder::sRGBA, ChannelOrder::sBGRA, ChannelOrder::ABGR};
inline constexpr ChannelType kTypes[] = {
    ChannelType::SnormInt8,       ChannelType::SnormInt16,    ChannelType::UnormInt8,      ChannelType::UnormInt16,
    ChannelType::UnormShort565,   ChannelType::UnormShort555, ChannelType::UnormInt101010, ChannelType::SignedInt8,
    ChannelType::SignedInt16,     ChannelType::SignedInt32,   ChannelType::UnsignedInt8,   ChannelType::UnsignedInt16,
    ChannelType::UnsignedInt32,   ChannelType::HalfFloat,     ChannelType::Float,          ChannelType::UnormInt24,
    ChannelType::UnormInt101010_2};

inline std::string name(ImageFormat f) {
  return std::string(images::nameOf(f.order)) + "," + std::string(images::nameOf(f.type));
}

inline std::vector<ColorKind> kindsFor(ChannelType t) {
  switch (hostimg::typeClass(t)) {
    case hostimg::TypeClass::Signed: return {ColorKind::Int};
    case hostimg::TypeClass::Unsigned: return {ColorKind::Uint};
    default: return {ColorKind::Float, ColorKind::Half};
  }
}

inline const char* kindName(ColorKind k) {
  switch (k) {
    case ColorKind::Float: return "f";
    case ColorKind::Half: return "h";
    case ColorKind::Int: return "i";
    case ColorKind::Uint: return "ui";
  }
  return "?";
}

inline bool isNaN(uint32_t lane, ColorKind k) {
  if (k == ColorKind::Float) return (lane & 0x7f800000u) == 0x7f800000u && (lane & 0x7fffffu);
  if (k == ColorKind::Half) return (lane & 0x7c00u) == 0x7c00u && (lane & 0x3ffu);
  return false;
}
inline bool isZero(uint32_t lane, ColorKind k) {
  if (k == ColorKind::Float) return (lane & 0x7fffffffu) == 0;
  if (k == ColorKind::Half) return (lane & 0x7fffu) == 0;
  return lane == 0;
}

// Same colour: NaN matches any NaN (OpenCL C 3.0 §8.3.3 [[conversion-rules-for-floating-point-channel-data-type]]:
// "NaNs may be converted to a NaN value(s) supported by the device"); with `anyZeroSign` (filtered results, where the
// sign of a zero sum is the host's arithmetic, not the spec's) ±0 match. CL_DEPTH reads are scalars: lane 0 only.
inline bool sameColor(const Color& host, const Color& got, ColorKind k, bool depth, bool anyZeroSign) {
  for (int l = 0; l < (depth ? 1 : 4); ++l) {
    const uint32_t h = k == ColorKind::Half ? host.lanes[l] & 0xffff : host.lanes[l];
    const uint32_t g = k == ColorKind::Half ? got.lanes[l] & 0xffff : got.lanes[l];
    if (isNaN(h, k)) {
      if (!isNaN(g, k)) return false;
    } else if (anyZeroSign && isZero(h, k)) {
      if (!isZero(g, k)) return false;
    } else if (h != g) {
      return false;
    }
  }
  return true;
}

inline std::string show(const Color& c, ColorKind k) {
  std::ostringstream o;
  o << "(";
  for (int l = 0; l < 4; ++l) {
    if (l) o << ", ";
    if (k == ColorKind::Float)
      o << std::hexfloat << std::bit_cast<float>(c.lanes[l]) << std::defaultfloat;
    else if (k == ColorKind::Half)
      o << "0x" << std::hex << (c.lanes[l] & 0xffff) << std::dec;
    else if (k == ColorKind::Int)
      o << int32_t(c.lanes[l]);
    else
      o << c.lanes[l];
  }
  o << ")";
  return o.str();
}

inline std::string hex(const uint8_t* p, unsigned n) {
  std::ostringstream o;
  for (unsigned i = 0; i < n; ++i) o << std::hex << (p[i] < 16 ? "0" : "") << int(p[i]);
  return o.str();
}

// Collects mismatches of one group, keeps the first few for the message.
struct Mismatches {
  size_t count = 0, total = 0;
  std::vector<std::string> first;
  void add(const std::string& what) {
    ++count;
    if (first.size() < 6) first.push_back(what);
  }
  std::string text() const {
    std::string s = std::to_string(count) + " of " + std::to_string(total) + " differ";
    for (const auto& f : first) s += "\n  " + f;
    return s;
  }
};

// Special channel values of the float and half types: ±0, ±inf, NaNs, subnormals, the extremes, values near 1.
inline constexpr uint32_t kFloatSpecials[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001,
                                              0xffc00001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
                                              0x3f800000, 0x3f7fffff, 0x3f800001, 0xbf800000, 0x3f000000, 0x33800000};
inline constexpr uint16_t kHalfSpecials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x0001, 0x83ff,
                                             0x0400, 0x7bff, 0xfbff, 0x3c00, 0x3bff, 0x3c01, 0xbc00, 0x3800};

// Element patterns for decode: every pattern for elements of up to 16 bits, else random ones plus special channels.
inline std::vector<std::vector<uint8_t>> elementPatterns(ImageFormat f, std::mt19937_64& rng) {
  const unsigned n = hostimg::elementBytes(f);
  std::vector<std::vector<uint8_t>> out;
  if (n <= 2) {
    for (uint32_t v = 0; v < (1u << (8 * n)); ++v) {
      std::vector<uint8_t> e(n);
      for (unsigned b = 0; b < n; ++b) e[b] = uint8_t(v >> (8 * b));
      out.push_back(e);
    }
    return out;
  }
  for (int i = 0; i < 6000; ++i) {
    std::vector<uint8_t> e(n);
    for (auto& b : e) b = uint8_t(rng());
    out.push_back(e);
  }
  const unsigned chan = f.type == ChannelType::Float ? 4 : f.type == ChannelType::HalfFloat ? 2 : 0;
  if (chan) {
    const unsigned count = n / chan;
    for (int i = 0; i < 600; ++i) {
      std::vector<uint8_t> e(n);
      for (unsigned c = 0; c < count; ++c) {
        if (chan == 4) {
          const uint32_t v = kFloatSpecials[rng() % std::size(kFloatSpecials)];
          std::memcpy(e.data() + 4 * c, &v, 4);
        } else {
          const uint16_t v = kHalfSpecials[rng() % std::size(kHalfSpecials)];
          std::memcpy(e.data() + 2 * c, &v, 2);
        }
      }
      out.push_back(e);
    }
  } else if (n == 4 || n == 8 || n == 16) {
    // Integer and packed types: every channel at 0, all ones, the sign boundary.
    for (int i = 0; i < 400; ++i) {
      std::vector<uint8_t> e(n);
      for (auto& b : e) {
        const int pick = int(rng() % 4);
        b = pick == 0 ? 0 : pick == 1 ? 0xff : pick == 2 ? 0x80 : 0x7f;
      }
      out.push_back(e);
    }
  }
  return out;
}

// Colours for encode: specials, the rounding boundaries (k + 0.5) / M and one float step either side, random values
// (one in kCaseStride of them under the sanitizers).
inline std::vector<Color> colorsFor(ImageFormat f, ColorKind kind, std::mt19937_64& rng) {
  std::vector<Color> out;
  auto lane = [&](ColorKind k) -> uint32_t {
    const int pick = int(rng() % 8);
    if (k == ColorKind::Int) {
      static constexpr int32_t specials[] = {
          0,   1,   -1,    127,  128, -128, -129, 32767, 32768, -32768, -32769, 2147483647, -2147483647 - 1,
          255, 256, 65535, 65536};
      if (pick < 4) return uint32_t(specials[rng() % std::size(specials)]);
      if (pick < 6) return uint32_t(int32_t(rng() % 140000) - 70000);
      return uint32_t(rng());
    }
    if (k == ColorKind::Uint) {
      static constexpr uint32_t specials[] = {0,     1,     127,   128,        255,        256,       32767,
                                              32768, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff};
      if (pick < 4) return specials[rng() % std::size(specials)];
      if (pick < 6) return uint32_t(rng() % 140000);
      return uint32_t(rng());
    }
    float x;
    if (pick == 0) {
      x = std::bit_cast<float>(kFloatSpecials[rng() % std::size(kFloatSpecials)]);
    } else if (pick <= 3) {
      // A rounding boundary of the channel's scale: (k + 0.5) / M, and its float neighbours.
      static constexpr double scales[] = {255, 127, 65535, 32767, 1023, 31, 63, 3, 16777215};
      const double m = scales[rng() % std::size(scales)];
      const double k = double(rng() % uint64_t(m + 2)) - (rng() % 4 == 0 ? m : 0);
      x = float((k + 0.5) / m);
      const int step = int(rng() % 3) - 1;
      if (step) x = std::nextafter(x, step > 0 ? INFINITY : -INFINITY);
    } else if (pick <= 6) {
      x = float(std::uniform_real_distribution<double>(-1.25, 1.25)(rng));
    } else {
      x = std::bit_cast<float>(uint32_t(rng()));
    }
    if (k == ColorKind::Half)
      return hostimg::roundToHalfBits([&] {
        hostimg::Exact e = hostimg::exactOfFloatBits(std::bit_cast<uint32_t>(x));
        return e;
      }());
    return std::bit_cast<uint32_t>(x);
  };
  const unsigned count = (hostimg::elementBytes(f) <= 2 ? 20000 : 8000) / kCaseStride;
  for (unsigned i = 0; i < count; ++i) out.push_back(Color{{lane(kind), lane(kind), lane(kind), lane(kind)}});
  return out;
}

inline bool sameRaw(ImageFormat f, const uint8_t* host, const uint8_t* got) {
  const auto h = hostimg::rawChannels(f, host), g = hostimg::rawChannels(f, got);
  for (size_t k = 0; k < h.size(); ++k) {
    if (f.type == ChannelType::Float && isNaN(uint32_t(h[k].second), ColorKind::Float)) {
      if (!isNaN(uint32_t(g[k].second), ColorKind::Float)) return false;
    } else if (f.type == ChannelType::HalfFloat && isNaN(uint32_t(h[k].second), ColorKind::Half)) {
      if (!isNaN(uint32_t(g[k].second), ColorKind::Half)) return false;
    } else if (h[k].second != g[k].second) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Images for the sampler tests.

struct TestImage {
  std::vector<uint8_t> storage;
  images::ImageView view;
};

// An image of `type` with padded pitches (so a pitch mix-up shows) and random contents: random bytes for integer and
// normalized types, random finite values (with ±0 and subnormals) for half and float.
// With `levels` > 1 a mipmapped image, tightly packed (a mipmapped image has no host_ptr, so no pitches).
inline TestImage makeImage(ImageType type, ImageFormat f, uint64_t w, uint64_t h, uint64_t d, std::mt19937_64& rng,
                           uint32_t levels = 1) {
  images::ImageDesc desc;
  desc.type = type;
  desc.format = f;
  desc.width = w;
  const uint64_t e = hostimg::elementBytes(f);
  desc.rowPitch = (w + 1) * e;
  switch (type) {
    case ImageType::Image1D: break;
    case ImageType::Image1DArray:
      desc.arraySize = h;
      desc.slicePitch = desc.rowPitch * 2;
      break;
    case ImageType::Image2D: desc.height = h; break;
    case ImageType::Image2DArray:
      desc.height = h;
      desc.arraySize = d;
      desc.slicePitch = desc.rowPitch * (h + 1);
      break;
    case ImageType::Image3D:
      desc.height = h;
      desc.depth = d;
      desc.slicePitch = desc.rowPitch * (h + 1);
      break;
    default: break;
  }
  if (levels > 1) {
    desc.numMipLevels = levels;
    desc.rowPitch = desc.slicePitch = 0;
  }
  TestImage img;
  img.view.desc = images::makeDesc(desc);
  img.storage.resize(images::storageBytes(img.view.desc));
  for (auto& b : img.storage) b = uint8_t(rng());
  if (f.type == ChannelType::Float || f.type == ChannelType::HalfFloat) {
    const unsigned chan = f.type == ChannelType::Float ? 4 : 2;
    for (size_t o = 0; o + chan <= img.storage.size(); o += chan) {
      const float x = rng() % 16 == 0 ? std::bit_cast<float>(uint32_t(rng() % 0x1000) | (rng() % 2 ? 0x80000000u : 0))
                                      : float(std::uniform_real_distribution<double>(-3, 3)(rng));
      if (chan == 4) {
        std::memcpy(&img.storage[o], &x, 4);
      } else {
        const uint16_t hb = hostimg::roundToHalfBits(hostimg::exactOfFloatBits(std::bit_cast<uint32_t>(x)));
        std::memcpy(&img.storage[o], &hb, 2);
      }
    }
  }
  img.view.data = img.storage.data();
  img.view.bytes = img.storage.size();
  return img;
}

// Adversarial coordinates for one axis of size n: texel boundaries, texel centres, one float step either side of
// both, outside the image, negative, huge, tiny, and random values; normalized ones are the unnormalized ones divided
// by n in float (exact boundaries when n is a power of two) plus the normalized specials.
inline std::vector<float> axisCoordinates(uint64_t n, bool normalized, std::mt19937_64& rng) {
  std::vector<float> u;
  for (int k = -2; k <= int(n) + 2; ++k) {
    for (float base : {float(k), float(k) + 0.5f}) {
      u.push_back(base);
      u.push_back(std::nextafter(base, INFINITY));
      u.push_back(std::nextafter(base, -INFINITY));
    }
  }
  for (float x : {0.0f, -0.0f, 1e30f, -1e30f, 3e9f, -3e9f, 1e-40f, -1e-40f, 16777216.0f, 8388608.5f}) u.push_back(x);
  for (int i = 0; i < 40; ++i) u.push_back(float(std::uniform_real_distribution<double>(-2.0 * n, 3.0 * n)(rng)));
  if (!normalized) return u;
  std::vector<float> s;
  for (float x : u) s.push_back(x / float(n));
  for (float x : {0.0f, 1.0f, -1.0f, 0.5f, 2.5f, -2.5f, 1.5f, std::nextafter(1.0f, 0.0f), std::nextafter(1.0f, 2.0f),
                  std::nextafter(0.0f, 1.0f), 1e30f, -1e30f, 1e-40f, 0.999999f, 7.25f})
    s.push_back(x);
  for (int i = 0; i < 20; ++i) s.push_back(float(std::uniform_real_distribution<double>(-3, 3)(rng)));
  return s;
}

inline std::vector<float> layerCoordinates(uint64_t layers, std::mt19937_64& rng) {
  std::vector<float> l = {-1.0f,
                          -0.5f,
                          -0.0f,
                          0.0f,
                          0.5f,
                          1.5f,
                          2.5f,
                          std::nextafter(0.5f, 1.0f),
                          std::nextafter(0.5f, 0.0f),
                          float(layers) - 0.5f,
                          float(layers) - 0.51f,
                          float(layers) + 3,
                          1e30f,
                          -1e30f};
  for (int i = 0; i < 6; ++i) l.push_back(float(std::uniform_real_distribution<double>(-1.0, layers + 1.0)(rng)));
  return l;
}

struct Shape {
  ImageType type;
  uint64_t w, h, d;
};

inline const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {{ImageType::Image1D, 7, 1, 1},      {ImageType::Image1D, 8, 1, 1},
                                       {ImageType::Image1DArray, 5, 3, 1}, {ImageType::Image1DArray, 4, 2, 1},
                                       {ImageType::Image2D, 5, 3, 1},      {ImageType::Image2D, 4, 8, 1},
                                       {ImageType::Image2DArray, 3, 5, 3}, {ImageType::Image2DArray, 4, 2, 2},
                                       {ImageType::Image3D, 3, 5, 4},      {ImageType::Image3D, 4, 2, 8}};
  return s;
}

// Formats the sampler tests read: every class of channel type, every mapping rule, the border colours of each group.
inline std::vector<ImageFormat> samplerFormats() {
  const std::vector<ImageFormat> wanted = {{ChannelOrder::RGBA, ChannelType::UnormInt8},
                                           {ChannelOrder::BGRA, ChannelType::UnormInt8},
                                           {ChannelOrder::R, ChannelType::Float},
                                           {ChannelOrder::RG, ChannelType::HalfFloat},
                                           {ChannelOrder::RGBA, ChannelType::SnormInt16},
                                           {ChannelOrder::sRGBA, ChannelType::UnormInt8},
                                           {ChannelOrder::Luminance, ChannelType::UnormInt16},
                                           {ChannelOrder::Intensity, ChannelType::Float},
                                           {ChannelOrder::A, ChannelType::UnormInt8},
                                           {ChannelOrder::RGB, ChannelType::UnormShort565},
                                           {ChannelOrder::RGBA, ChannelType::UnormInt101010_2},
                                           {ChannelOrder::Depth, ChannelType::Float},
                                           {ChannelOrder::RGBA, ChannelType::SignedInt16},
                                           {ChannelOrder::R, ChannelType::UnsignedInt32},
                                           {ChannelOrder::RA, ChannelType::SnormInt8},
                                           {ChannelOrder::Rx, ChannelType::UnormInt8}};
  std::vector<ImageFormat> out;
  for (const auto& f : wanted)
    if (images::isValidFormat(f) && hostimg::validFormat(f)) out.push_back(f);
  return out;
}

inline bool depthShape(ImageType t) { return t == ImageType::Image2D || t == ImageType::Image2DArray; }

inline std::string coordText(const images::Coord& c) {
  std::ostringstream o;
  o << "(";
  for (int k = 0; k < 3; ++k) {
    if (k) o << ", ";
    if (c.isFloat)
      o << std::hexfloat << c.f[k] << std::defaultfloat;
    else
      o << c.i[k];
  }
  return o.str() + ")";
}

inline std::string samplerText(const images::Sampler& s) {
  std::ostringstream o;
  o << (s.normalizedCoords ? "normalized" : "unnormalized") << ",";
  switch (s.addressing) {
    case AddressingMode::None: o << "none"; break;
    case AddressingMode::ClampToEdge: o << "clamp_to_edge"; break;
    case AddressingMode::Clamp: o << "clamp"; break;
    case AddressingMode::Repeat: o << "repeat"; break;
    case AddressingMode::MirroredRepeat: o << "mirrored_repeat"; break;
  }
  o << (s.filter == FilterMode::Linear ? ",linear" : ",nearest");
  return o.str();
}

}  // namespace clref::vs_host
