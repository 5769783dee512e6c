// images/ against the independent host implementation (host_images.hpp), bit for bit: every order × type pair's
// decode and encode (exhaustive for elements of up to 16 bits, random and special values otherwise), and every
// addressing × filter × normalized combination of sampled reads in 1D, 2D, 3D and arrays, with random and adversarial
// coordinates (on texel boundaries, at texel centres, one float step either side, outside the image, negative, huge),
// sampler-less reads and writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"
#include "tests/images/host_images.hpp"

using namespace clref;
using images::AddressingMode;
using images::ChannelOrder;
using images::ChannelType;
using images::Color;
using images::ColorKind;
using images::FilterMode;
using images::ImageFormat;
using images::ImageType;
using images::Undefined;

namespace {

constexpr ChannelOrder kOrders[] = {
    ChannelOrder::R,         ChannelOrder::A,         ChannelOrder::RG,    ChannelOrder::RA,    ChannelOrder::RGB,
    ChannelOrder::RGBA,      ChannelOrder::BGRA,      ChannelOrder::ARGB,  ChannelOrder::Intensity,
    ChannelOrder::Luminance, ChannelOrder::Rx,        ChannelOrder::RGx,   ChannelOrder::RGBx,  ChannelOrder::Depth,
    ChannelOrder::sRGB,      ChannelOrder::sRGBx,     ChannelOrder::sRGBA, ChannelOrder::sBGRA, ChannelOrder::ABGR};
constexpr ChannelType kTypes[] = {
    ChannelType::SnormInt8,      ChannelType::SnormInt16,     ChannelType::UnormInt8,       ChannelType::UnormInt16,
    ChannelType::UnormShort565,  ChannelType::UnormShort555,  ChannelType::UnormInt101010,  ChannelType::SignedInt8,
    ChannelType::SignedInt16,    ChannelType::SignedInt32,    ChannelType::UnsignedInt8,    ChannelType::UnsignedInt16,
    ChannelType::UnsignedInt32,  ChannelType::HalfFloat,      ChannelType::Float,           ChannelType::UnormInt24,
    ChannelType::UnormInt101010_2};

std::string name(ImageFormat f) {
  return std::string(images::nameOf(f.order)) + "," + std::string(images::nameOf(f.type));
}

std::vector<ColorKind> kindsFor(ChannelType t) {
  switch (hostimg::typeClass(t)) {
    case hostimg::TypeClass::Signed: return {ColorKind::Int};
    case hostimg::TypeClass::Unsigned: return {ColorKind::Uint};
    default: return {ColorKind::Float, ColorKind::Half};
  }
}

const char* kindName(ColorKind k) {
  switch (k) {
    case ColorKind::Float: return "f";
    case ColorKind::Half: return "h";
    case ColorKind::Int: return "i";
    case ColorKind::Uint: return "ui";
  }
  return "?";
}

bool isNaN(uint32_t lane, ColorKind k) {
  if (k == ColorKind::Float) return (lane & 0x7f800000u) == 0x7f800000u && (lane & 0x7fffffu);
  if (k == ColorKind::Half) return (lane & 0x7c00u) == 0x7c00u && (lane & 0x3ffu);
  return false;
}
bool isZero(uint32_t lane, ColorKind k) {
  if (k == ColorKind::Float) return (lane & 0x7fffffffu) == 0;
  if (k == ColorKind::Half) return (lane & 0x7fffu) == 0;
  return lane == 0;
}

// Same colour: NaN matches any NaN (§8.3.3 [[conversion-rules-for-floating-point-channel-data-type]]: "NaNs may be
// converted to a NaN value(s) supported by the device"); with `anyZeroSign` (filtered results, where the sign of a
// zero sum is the host's arithmetic, not the spec's) ±0 match. CL_DEPTH reads are scalars: lane 0 only.
bool sameColor(const Color& host, const Color& got, ColorKind k, bool depth, bool anyZeroSign) {
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

std::string show(const Color& c, ColorKind k) {
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

std::string hex(const uint8_t* p, unsigned n) {
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
constexpr uint32_t kFloatSpecials[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001,
                                       0xffc00001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
                                       0x3f800000, 0x3f7fffff, 0x3f800001, 0xbf800000, 0x3f000000, 0x33800000};
constexpr uint16_t kHalfSpecials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x0001, 0x83ff,
                                      0x0400, 0x7bff, 0xfbff, 0x3c00, 0x3bff, 0x3c01, 0xbc00, 0x3800};

// Element patterns for decode: every pattern for elements of up to 16 bits, else random ones plus special channels.
std::vector<std::vector<uint8_t>> elementPatterns(ImageFormat f, std::mt19937_64& rng) {
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

// Colours for encode: specials, the rounding boundaries (k + 0.5) / M and one float step either side, random values.
std::vector<Color> colorsFor(ImageFormat f, ColorKind kind, std::mt19937_64& rng) {
  std::vector<Color> out;
  auto lane = [&](ColorKind k) -> uint32_t {
    const int pick = int(rng() % 8);
    if (k == ColorKind::Int) {
      static constexpr int32_t specials[] = {0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769,
                                             2147483647, -2147483647 - 1, 255, 256, 65535, 65536};
      if (pick < 4) return uint32_t(specials[rng() % std::size(specials)]);
      if (pick < 6) return uint32_t(int32_t(rng() % 140000) - 70000);
      return uint32_t(rng());
    }
    if (k == ColorKind::Uint) {
      static constexpr uint32_t specials[] = {0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7fffffff,
                                              0x80000000, 0xffffffff};
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
    if (k == ColorKind::Half) return hostimg::roundToHalfBits([&] {
        hostimg::Exact e = hostimg::exactOfFloatBits(std::bit_cast<uint32_t>(x));
        return e;
      }());
    return std::bit_cast<uint32_t>(x);
  };
  const int count = hostimg::elementBytes(f) <= 2 ? 20000 : 8000;
  for (int i = 0; i < count; ++i) out.push_back(Color{{lane(kind), lane(kind), lane(kind), lane(kind)}});
  return out;
}

bool sameRaw(ImageFormat f, const uint8_t* host, const uint8_t* got) {
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
TestImage makeImage(ImageType type, ImageFormat f, uint64_t w, uint64_t h, uint64_t d, std::mt19937_64& rng) {
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
      desc.slicePitch = desc.rowPitch + e;
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
std::vector<float> axisCoordinates(uint64_t n, bool normalized, std::mt19937_64& rng) {
  std::vector<float> u;
  for (int k = -2; k <= int(n) + 2; ++k) {
    for (float base : {float(k), float(k) + 0.5f}) {
      u.push_back(base);
      u.push_back(std::nextafter(base, INFINITY));
      u.push_back(std::nextafter(base, -INFINITY));
    }
  }
  for (float x : {0.0f, -0.0f, 1e30f, -1e30f, 3e9f, -3e9f, 1e-40f, -1e-40f, 16777216.0f, 8388608.5f})
    u.push_back(x);
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

std::vector<float> layerCoordinates(uint64_t layers, std::mt19937_64& rng) {
  std::vector<float> l = {-1.0f, -0.5f, -0.0f, 0.0f, 0.5f, 1.5f, 2.5f, std::nextafter(0.5f, 1.0f),
                          std::nextafter(0.5f, 0.0f), float(layers) - 0.5f, float(layers) - 0.51f, float(layers) + 3,
                          1e30f, -1e30f};
  for (int i = 0; i < 6; ++i) l.push_back(float(std::uniform_real_distribution<double>(-1.0, layers + 1.0)(rng)));
  return l;
}

struct Shape {
  ImageType type;
  uint64_t w, h, d;
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {
      {ImageType::Image1D, 7, 1, 1},      {ImageType::Image1D, 8, 1, 1},     {ImageType::Image1DArray, 5, 3, 1},
      {ImageType::Image1DArray, 4, 2, 1}, {ImageType::Image2D, 5, 3, 1},     {ImageType::Image2D, 4, 8, 1},
      {ImageType::Image2DArray, 3, 5, 3}, {ImageType::Image2DArray, 4, 2, 2}, {ImageType::Image3D, 3, 5, 4},
      {ImageType::Image3D, 4, 2, 8}};
  return s;
}

// Formats the sampler tests read: every class of channel type, every mapping rule, the border colours of each group.
std::vector<ImageFormat> samplerFormats() {
  const std::vector<ImageFormat> wanted = {
      {ChannelOrder::RGBA, ChannelType::UnormInt8},      {ChannelOrder::BGRA, ChannelType::UnormInt8},
      {ChannelOrder::R, ChannelType::Float},             {ChannelOrder::RG, ChannelType::HalfFloat},
      {ChannelOrder::RGBA, ChannelType::SnormInt16},     {ChannelOrder::sRGBA, ChannelType::UnormInt8},
      {ChannelOrder::Luminance, ChannelType::UnormInt16}, {ChannelOrder::Intensity, ChannelType::Float},
      {ChannelOrder::A, ChannelType::UnormInt8},         {ChannelOrder::RGB, ChannelType::UnormShort565},
      {ChannelOrder::RGBA, ChannelType::UnormInt101010_2}, {ChannelOrder::Depth, ChannelType::Float},
      {ChannelOrder::RGBA, ChannelType::SignedInt16},    {ChannelOrder::R, ChannelType::UnsignedInt32},
      {ChannelOrder::RA, ChannelType::SnormInt8},        {ChannelOrder::Rx, ChannelType::UnormInt8}};
  std::vector<ImageFormat> out;
  for (const auto& f : wanted)
    if (images::isValidFormat(f) && hostimg::validFormat(f)) out.push_back(f);
  return out;
}

bool depthShape(ImageType t) { return t == ImageType::Image2D || t == ImageType::Image2DArray; }

std::string coordText(const images::Coord& c) {
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

std::string samplerText(const images::Sampler& s) {
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

}  // namespace

TEST_CASE("images: the valid order × type pairs and element sizes agree with the host's reading of the API spec",
          "[images][vs-host]") {
  Mismatches m;
  for (ChannelOrder o : kOrders)
    for (ChannelType t : kTypes) {
      const ImageFormat f{o, t};
      ++m.total;
      if (images::isValidFormat(f) != hostimg::validFormat(f))
        m.add(name(f) + ": images says " + (images::isValidFormat(f) ? "valid" : "invalid") + ", host says " +
              (hostimg::validFormat(f) ? "valid" : "invalid"));
      else if (hostimg::validFormat(f) && images::elementSize(f) != hostimg::elementBytes(f))
        m.add(name(f) + ": element size " + std::to_string(images::elementSize(f)) + ", host " +
              std::to_string(hostimg::elementBytes(f)));
    }
  INFO(m.text());
  CHECK(m.count == 0);
  size_t valid = 0;
  for (const auto& f : images::allFormats()) {
    CHECK(images::isValidFormat(f));
    ++valid;
  }
  CHECK(valid > 0);
}

TEST_CASE("images: decode of every valid format matches the host bit for bit", "[images][vs-host]") {
  std::mt19937_64 rng(11);
  for (const ImageFormat f : images::allFormats()) {
    if (!hostimg::validFormat(f)) continue;
    const auto patterns = elementPatterns(f, rng);
    for (ColorKind kind : kindsFor(f.type)) {
      Mismatches m;
      for (const auto& e : patterns) {
        ++m.total;
        const Color want = hostimg::decode(f, e.data(), kind);
        const Color got = images::decode(f, e.data(), kind);
        if (!sameColor(want, got, kind, f.order == ChannelOrder::Depth, false))
          m.add("element " + hex(e.data(), unsigned(e.size())) + ": host " + show(want, kind) + ", images " +
                show(got, kind));
      }
      INFO(name(f) << " read_image" << kindName(kind) << ": " << m.text());
      CHECK(m.count == 0);
    }
  }
}

TEST_CASE("images: decode with denormals flushed gives the host's value or a zero where a subnormal is involved",
          "[images][vs-host]") {
  images::ConversionOptions flush;
  flush.denormHalf = numerics::Denorm::Flush;
  flush.denormFloat = numerics::Denorm::Flush;
  std::mt19937_64 rng(12);
  for (const ImageFormat f : images::allFormats()) {
    if (f.type != ChannelType::Float && f.type != ChannelType::HalfFloat) continue;
    for (ColorKind kind : {ColorKind::Float, ColorKind::Half}) {
      Mismatches m;
      for (const auto& e : elementPatterns(f, rng)) {
        ++m.total;
        const Color want = hostimg::decode(f, e.data(), kind);
        const Color got = images::decode(f, e.data(), kind, flush);
        bool ok = true;
        for (int l = 0; l < (f.order == ChannelOrder::Depth ? 1 : 4) && ok; ++l) {
          Color one = want, oneGot = got;
          one.lanes = {want.lanes[l], 0, 0, 0};
          oneGot.lanes = {got.lanes[l], 0, 0, 0};
          if (sameColor(one, oneGot, kind, true, false)) continue;
          // A subnormal result or source may become a zero (§8.3.2, §8.3.3: "Denorms can be flushed to zero").
          ok = isZero(got.lanes[l], kind) &&
               (kind == ColorKind::Float ? hostimg::isSubnormalFloatBits(want.lanes[l])
                                         : hostimg::isSubnormalHalfBits(uint16_t(want.lanes[l])) ||
                                               f.type == ChannelType::Float);
          if (!ok && f.type == ChannelType::HalfFloat && kind == ColorKind::Float) {
            // A subnormal half channel read as float is a normal float; flushing its source is allowed too.
            const float x = std::bit_cast<float>(want.lanes[l]);
            ok = isZero(got.lanes[l], kind) && std::fabs(x) < 6.103515625e-05f;
          }
        }
        if (!ok)
          m.add("element " + hex(e.data(), unsigned(e.size())) + ": host " + show(want, kind) + ", images " +
                show(got, kind));
      }
      INFO(name(f) << " read_image" << kindName(kind) << " flushing denormals: " << m.text());
      CHECK(m.count == 0);
    }
  }
}

TEST_CASE("images: encode of every valid format matches the host bit for bit", "[images][vs-host]") {
  std::mt19937_64 rng(13);
  for (const ImageFormat f : images::allFormats()) {
    if (!hostimg::validFormat(f)) continue;
    const unsigned n = hostimg::elementBytes(f);
    for (ColorKind kind : kindsFor(f.type)) {
      Mismatches m;
      for (const Color& c : colorsFor(f, kind, rng)) {
        ++m.total;
        std::vector<uint8_t> want(n), got(n);
        hostimg::encode(f, c, kind, want.data());
        images::encode(f, c, kind, got.data());
        if (!sameRaw(f, want.data(), got.data()))
          m.add("write_image" + std::string(kindName(kind)) + show(c, kind) + ": host " + hex(want.data(), n) +
                ", images " + hex(got.data(), n));
      }
      INFO(name(f) << ": " << m.text());
      CHECK(m.count == 0);
    }
  }
}

TEST_CASE("images: decode then encode round trips like the host's", "[images][vs-host]") {
  std::mt19937_64 rng(14);
  for (const ImageFormat f : images::allFormats()) {
    if (!hostimg::validFormat(f)) continue;
    const unsigned n = hostimg::elementBytes(f);
    for (ColorKind kind : kindsFor(f.type)) {
      Mismatches m;
      for (const auto& e : elementPatterns(f, rng)) {
        ++m.total;
        std::vector<uint8_t> want(n), got(n);
        hostimg::encode(f, hostimg::decode(f, e.data(), kind), kind, want.data());
        images::encode(f, images::decode(f, e.data(), kind), kind, got.data());
        if (!sameRaw(f, want.data(), got.data()))
          m.add("element " + hex(e.data(), n) + ": host " + hex(want.data(), n) + ", images " + hex(got.data(), n));
      }
      INFO(name(f) << " via read_image" << kindName(kind) << ": " << m.text());
      CHECK(m.count == 0);
    }
  }
}

TEST_CASE("images: sampled reads match the host for every addressing × filter × normalized combination",
          "[images][vs-host]") {
  std::mt19937_64 rng(15);
  for (const ImageFormat f : samplerFormats()) {
    for (const Shape& shape : shapes()) {
      if (f.order == ChannelOrder::Depth && !depthShape(shape.type)) continue;
      const TestImage img = makeImage(shape.type, f, shape.w, shape.h, shape.d, rng);
      const unsigned dims = shape.type == ImageType::Image3D || shape.type == ImageType::Image2DArray ? 2 : 1;
      const unsigned filteredDims = shape.type == ImageType::Image3D ? 3 : shape.type == ImageType::Image2D ? 2 : dims;
      const bool array = shape.type == ImageType::Image1DArray || shape.type == ImageType::Image2DArray;
      const uint64_t sizes[3] = {shape.w, shape.h, shape.d};
      for (bool normalized : {false, true})
        for (AddressingMode am : {AddressingMode::None, AddressingMode::ClampToEdge, AddressingMode::Clamp,
                                  AddressingMode::Repeat, AddressingMode::MirroredRepeat})
          for (FilterMode fm : {FilterMode::Nearest, FilterMode::Linear}) {
            images::Sampler s;
            s.normalizedCoords = normalized;
            s.addressing = am;
            s.filter = fm;
            std::array<std::vector<float>, 3> axis;
            for (unsigned k = 0; k < filteredDims; ++k) axis[k] = axisCoordinates(sizes[k], normalized, rng);
            if (array) axis[filteredDims] = layerCoordinates(sizes[filteredDims], rng);
            const unsigned ncoords = filteredDims + (array ? 1 : 0);
            for (ColorKind kind : kindsFor(f.type)) {
              Mismatches values, undefinedFlags;
              auto check = [&](const images::Coord& c) {
                ++values.total;
                const hostimg::HostRead want = hostimg::readSampled(img.view, s, c, kind);
                const images::ReadResult got = images::readSampled(img.view, s, c, kind);
                if (want.undefined != Undefined::None) {
                  if (got.undefined == Undefined::None)
                    undefinedFlags.add(coordText(c) + ": host: undefined (" +
                                       std::string(images::describe(want.undefined)) + "), images: defined " +
                                       show(got.value, kind));
                  return;
                }
                if (got.undefined != Undefined::None)
                  undefinedFlags.add(coordText(c) + ": host: defined, images: undefined (" +
                                     std::string(images::describe(got.undefined)) + ")");
                if (!sameColor(want.value, got.value, kind, f.order == ChannelOrder::Depth, fm == FilterMode::Linear))
                  values.add(coordText(c) + ": host " + show(want.value, kind) + ", images " + show(got.value, kind));
              };
              // Every axis's adversarial list against random picks of the others, then random combinations.
              for (unsigned k = 0; k < ncoords; ++k)
                for (float x : axis[k]) {
                  images::Coord c;
                  for (unsigned j = 0; j < ncoords; ++j) c.f[j] = axis[j][rng() % axis[j].size()];
                  c.f[k] = x;
                  check(c);
                }
              // Integer coordinates (unnormalized nearest only: §6.15.15.2 [[built-in-image-read-functions]]).
              if (!normalized && fm == FilterMode::Nearest && am != AddressingMode::Repeat &&
                  am != AddressingMode::MirroredRepeat)
                for (int i = 0; i < 40; ++i) {
                  images::Coord c;
                  c.isFloat = false;
                  for (unsigned j = 0; j < ncoords; ++j) c.i[j] = int32_t(rng() % (sizes[j] + 4)) - 2;
                  if (i == 0) c.i[0] = std::numeric_limits<int32_t>::min();
                  if (i == 1) c.i[0] = std::numeric_limits<int32_t>::max();
                  check(c);
                }
              INFO(name(f) << " " << images::nameOf(shape.type) << " " << shape.w << "x" << shape.h << "x" << shape.d
                           << " sampler " << samplerText(s) << " read_image" << kindName(kind) << ": values "
                           << values.text() << "; undefined conditions " << undefinedFlags.text());
              CHECK(values.count == 0);
              CHECK(undefinedFlags.count == 0);
            }
          }
    }
  }
}

TEST_CASE("images: sampler-less reads and writes match the host", "[images][vs-host]") {
  std::mt19937_64 rng(16);
  for (const ImageFormat f : samplerFormats()) {
    for (const Shape& shape : shapes()) {
      if (f.order == ChannelOrder::Depth && !depthShape(shape.type)) continue;
      const TestImage img = makeImage(shape.type, f, shape.w, shape.h, shape.d, rng);
      const unsigned ncoords = images::coordinateCount(shape.type);
      const uint64_t sizes[3] = {shape.w, shape.h, shape.d};
      for (ColorKind kind : kindsFor(f.type)) {
        Mismatches reads, writes;
        for (int i = 0; i < 150; ++i) {
          std::array<int32_t, 3> c{};
          for (unsigned j = 0; j < ncoords; ++j) c[j] = int32_t(rng() % (sizes[j] + 2)) - 1;
          ++reads.total;
          const auto want = hostimg::readSamplerless(img.view, c, kind);
          const auto got = images::readSamplerless(img.view, c, kind);
          if ((want.undefined == Undefined::None) != (got.undefined == Undefined::None) ||
              (want.undefined == Undefined::None &&
               !sameColor(want.value, got.value, kind, f.order == ChannelOrder::Depth, false)))
            reads.add("(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
                      "): host " + (want.undefined == Undefined::None ? show(want.value, kind) : "undefined") +
                      ", images " + (got.undefined == Undefined::None ? show(got.value, kind) : "undefined"));
        }
        const auto colors = colorsFor(f, kind, rng);
        for (int i = 0; i < 150; ++i) {
          std::array<int32_t, 3> c{};
          for (unsigned j = 0; j < ncoords; ++j) c[j] = int32_t(rng() % (sizes[j] + 2)) - 1;
          const Color color = colors[rng() % colors.size()];
          TestImage a = img, b = img;
          a.view.data = a.storage.data();
          b.view.data = b.storage.data();
          ++writes.total;
          const bool inside = hostimg::write(a.view, c, color, kind);
          const Undefined u = images::write(b.view, c, color, kind);
          bool ok = inside == (u == Undefined::None);
          if (ok && !inside) ok = a.storage == b.storage;  // nothing written
          if (ok && inside) {
            // The written element's channels, and every other byte unchanged.
            const size_t at = hostimg::elementOffset(a.view, c), e = hostimg::elementBytes(f);
            ok = sameRaw(f, &a.storage[at], &b.storage[at]) &&
                 std::equal(a.storage.begin(), a.storage.begin() + long(at), b.storage.begin()) &&
                 std::equal(a.storage.begin() + long(at + e), a.storage.end(), b.storage.begin() + long(at + e));
          }
          if (!ok)
            writes.add("(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
                       ") write_image" + kindName(kind) + show(color, kind));
        }
        INFO(name(f) << " " << images::nameOf(shape.type) << " read_image" << kindName(kind) << ": reads "
                     << reads.text() << "; writes " << writes.text());
        CHECK(reads.count == 0);
        CHECK(writes.count == 0);
      }
    }
  }
}
