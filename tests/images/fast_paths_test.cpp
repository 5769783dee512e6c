// The images module's fast paths against its exact ones (ARCHITECTURE.md principle 3: a faster path answers only
// where it gives the exact path's bits, and a test compares the two): the level-0 sampled read (readLevelZeroFast),
// the level-0 sampler-less read and write, and the per-format decoders they use (texel_internal.hpp DirectFormat:
// decodeApproxWith, encodeDirectWith). Expected values come from AccessOptions::exactOnly (GMP rationals), from
// decodeExact / encode (the general conversion code), and for the constructed fallback cases from the formula worked
// by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "images/image.hpp"
#include "images/image_format.hpp"
#include "images/rgba8.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"
#include "images/texel_internal.hpp"

#include "test_image.hpp"

using namespace clref::images;
using clref::numerics::Denorm;

namespace {

using O = ChannelOrder;
using T = ChannelType;
using AM = AddressingMode;
using FM = FilterMode;

using Img = clref_test::TestImage;

// Half and float bit patterns that the fast paths must treat like the exact ones: zeros, subnormals, the largest
// values, infinities and NaNs.
constexpr uint32_t kFloatSpecials[] = {0u,          0x80000000u, 1u,          0x807fffffu, 0x7f7fffffu,
                                       0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffbfffffu};
constexpr uint16_t kHalfSpecials[] = {0, 0x8000, 1, 0x83ff, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e01, 0xfdff};

// Random element bytes, now and then a channel replaced by a special value of a half or float type.
void fillElement(ImageFormat f, uint8_t* e, std::mt19937_64& rng) {
  const unsigned bytes = elementSize(f);
  for (unsigned i = 0; i < bytes; ++i) e[i] = uint8_t(rng());
  if (rng() % 4) return;
  if (f.type == T::Float)
    for (unsigned i = 0; i + 4 <= bytes; i += 4) std::memcpy(e + i, &kFloatSpecials[rng() % 10], 4);
  if (f.type == T::HalfFloat)
    for (unsigned i = 0; i + 2 <= bytes; i += 2) std::memcpy(e + i, &kHalfSpecials[rng() % 10], 2);
}

std::vector<ImageFormat> directFormats() {
  std::vector<ImageFormat> out;
  for (const ImageFormat& f : allFormats())
    if (directFormat(f).code != DirectFormat::Code::None) out.push_back(f);
  return out;
}

std::vector<ColorKind> kindsOf(ImageFormat f) {
  std::vector<ColorKind> out;
  for (ColorKind k : {ColorKind::Float, ColorKind::Half, ColorKind::Int, ColorKind::Uint})
    if (kindMatches(f.type, k)) out.push_back(k);
  return out;
}

bool sameDouble(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// A coordinate along an axis of `size` texels: anywhere near the image, on a texel edge or centre, one ulp beside
// one, far outside, and now and then INF or NaN.
float coordinate(std::mt19937_64& rng, bool normalized, uint64_t size) {
  const double span = normalized ? 1.0 : double(size);
  const double edge = double(rng() % (4 * size + 4)) / 2.0 - 1.0;  // texel units, steps of 1/2
  switch (rng() % 6) {
    case 0: return float((double(rng() % 100000) / 100000.0 * 1.6 - 0.3) * span);
    case 1: return float(normalized ? edge / double(size) : edge);
    case 2: return std::nextafter(float(normalized ? edge / double(size) : edge), rng() % 2 ? 1e9f : -1e9f);
    case 3: return float(int64_t(rng() % 2000) - 1000) * (normalized ? 1.0f / 7.0f : 3.0f);
    case 4: return rng() % 2 ? std::ldexp(1.0f, -int(rng() % 140)) : -std::ldexp(1.0f, -int(rng() % 140));
    default: return rng() % 8 ? 0.25f : (rng() % 2 ? INFINITY : NAN);
  }
}

}  // namespace

TEST_CASE("fast paths: every direct format's sampled reads of level 0 equal the exact path", "[images][fast]") {
  std::mt19937_64 rng(20261123);
  const ImageType types[] = {ImageType::Image1D, ImageType::Image1DArray, ImageType::Image2D, ImageType::Image2DArray,
                             ImageType::Image3D, ImageType::Image1DBuffer};
  const AM modes[] = {AM::None, AM::ClampToEdge, AM::Clamp, AM::Repeat, AM::MirroredRepeat};
  const auto formats = directFormats();
  REQUIRE(formats.size() > 40);
  long compared = 0;
  for (const ImageFormat& f : formats)
    for (ImageType type : types) {
      const uint64_t w = 1 + rng() % 6, h = 1 + rng() % 4, d = 1 + rng() % 3;
      Img img(type, f, w, h, d);
      const unsigned elem = elementSize(f);
      for (size_t i = 0; i + elem <= img.mem.size(); i += elem) fillElement(f, img.mem.data() + i, rng);
      const uint64_t sizes[] = {w, h, d};
      for (int n = 0; n < 60; ++n) {
        const bool normalized = rng() % 2;
        Sampler s;
        s.normalizedCoords = normalized;
        s.addressing = modes[rng() % 5];  // REPEAT and MIRRORED_REPEAT unnormalized: undefined, also compared
        s.filter = rng() % 3 ? FM::Linear : FM::Nearest;
        Coord c;
        for (unsigned k = 0; k < 3; ++k) c.f[k] = coordinate(rng, normalized, sizes[k]);
        LevelOfDetail lod;
        if (rng() % 2) {  // read_imagef(image, sampler, coord) compiles to an explicit lod of 0
          lod.kind = LevelOfDetail::Kind::Lod;
          lod.lod = 0.0f;
        }
        AccessOptions fast, exact;
        exact.exactOnly = true;
        if (rng() % 4 == 0) fast.conversion = exact.conversion = {Denorm::Flush, Denorm::Flush};
        for (ColorKind kind : kindsOf(f)) {
          const ReadResult a = readSampled(img.view, s, c, kind, lod, fast);
          const ReadResult b = readSampled(img.view, s, c, kind, lod, exact);
          INFO(nameOf(f.order) << "/" << nameOf(f.type) << " " << nameOf(type) << " coord " << c.f[0] << " " << c.f[1]
                               << " " << c.f[2] << " mode " << uint32_t(s.addressing) << " normalized " << normalized
                               << " linear " << (s.filter == FM::Linear) << " kind " << int(kind));
          REQUIRE(a.value == b.value);
          REQUIRE(a.undefined == b.undefined);
          ++compared;
        }
      }
    }
  CHECK(compared > 20000);
}

TEST_CASE("fast paths: reads the error bound cannot decide give the exact values", "[images][fast]") {
  AccessOptions exact;
  exact.exactOnly = true;
  const Sampler linear = [] {
    Sampler s;
    s.normalizedCoords = false;
    s.addressing = AM::ClampToEdge;
    s.filter = FM::Linear;
    return s;
  }();
  Coord at;
  auto check = [&](const Img& img, float x, float y, uint32_t want, Undefined undefined = Undefined::None) {
    at.f = {x, y, 0};
    const ReadResult a = readSampled(img.view, linear, at, ColorKind::Float);
    const ReadResult b = readSampled(img.view, linear, at, ColorKind::Float, {}, exact);
    INFO("at " << x << ", " << y);
    CHECK(a.value.lanes[0] == want);
    CHECK(b.value.lanes[0] == want);
    CHECK(a.undefined == undefined);
    CHECK(b.undefined == undefined);
  };
  Img img(ImageType::Image2D, {O::R, T::Float}, 2, 2);
  auto set = [&](unsigned x, unsigned y, float v) { std::memcpy(img.view.element(x, y, 0), &v, 4); };
  // A tie: (1 + (1 + 2^-23)) / 2 = 1 + 2^-24 lies halfway between 1 (even) and 1 + 2^-23; the interval around the
  // binary64 sum straddles the midpoint, so the exact path rounds it: to 1.
  const float one = 1.0f, next = std::nextafter(1.0f, 2.0f);
  set(0, 0, one);
  set(1, 0, next);
  set(0, 1, one);
  set(1, 1, next);
  check(img, 1.0f, 1.0f, std::bit_cast<uint32_t>(1.0f));
  // Exact cancellation: (−3 + 3) / 2 is 0, which rounds to +0; the fast interval [−e, e] holds both signs.
  set(0, 0, -3.0f);
  set(1, 0, 3.0f);
  set(0, 1, -3.0f);
  set(1, 1, 3.0f);
  check(img, 1.0f, 1.0f, 0u);
  // Zero weights on non-zero texels: at the centre of texel (0, 0) only that texel has weight 1; it holds −0, so the
  // binary64 terms are all zero while texel (1, 0) is not, and the exact sum 1 · (−0) + 0 · 5 + … is +0.
  set(0, 0, -0.0f);
  set(1, 0, 5.0f);
  set(0, 1, 7.0f);
  set(1, 1, 9.0f);
  check(img, 0.5f, 0.5f, 0u);
  // All −0 texels: −0 (IEEE 754 sums of −0 terms).
  set(1, 0, -0.0f);
  set(0, 1, -0.0f);
  set(1, 1, -0.0f);
  check(img, 0.75f, 0.5f, 0x80000000u);
  // An INF texel with a non-zero weight: +INF; with a zero weight 0 · INF is NaN (image_inf_nan_texel_filtered's
  // default, IEEE 754 arithmetic on the formula).
  set(0, 0, 1.0f);
  set(1, 0, INFINITY);
  set(0, 1, 1.0f);
  set(1, 1, 1.0f);
  check(img, 0.75f, 0.5f, 0x7f800000u, Undefined::InfNanTexelFiltered);  // weight 1/4 on the INF texel
  check(img, 0.5f, 0.5f, 0x7fc00000u, Undefined::InfNanTexelFiltered);   // weight 0 on it
  // A sum that rounds to a subnormal float is decided fast or exactly, with the same bits; flushed it is a zero.
  Img tiny(ImageType::Image2D, {O::R, T::Float}, 2, 1);
  const float sub = std::ldexp(1.0f, -148);  // 2^-148: half of it is 2^-149, the smallest subnormal
  std::memcpy(tiny.view.element(0, 0, 0), &sub, 4);
  at.f = {1.0f, 0.5f, 0};
  CHECK(readSampled(tiny.view, linear, at, ColorKind::Float).value.lanes[0] == 1u);
  CHECK(readSampled(tiny.view, linear, at, ColorKind::Float, {}, exact).value.lanes[0] == 1u);
}

TEST_CASE("fast paths: decodeApproxWith gives approxOf of the exact channels", "[images][fast][texel]") {
  std::mt19937_64 rng(7);
  long checked = 0;
  for (const ImageFormat& f : directFormats())
    for (const ConversionOptions o : {ConversionOptions{}, ConversionOptions{Denorm::Flush, Denorm::Flush}})
      for (int i = 0; i < 3000; ++i) {
        uint8_t e[16];
        fillElement(f, e, rng);
        std::array<double, 4> got{};
        REQUIRE(decodeApproxWith(directFormat(f), e, o, got));
        const ExactTexel t = decodeExact(f, e, o);
        for (unsigned ch = 0; ch < 4; ++ch) {
          INFO(nameOf(f.order) << "/" << nameOf(f.type) << " channel " << ch);
          REQUIRE(sameDouble(got[ch], approxOf(t.c[ch])));
        }
        ++checked;
      }
  CHECK(checked > 100000);
  // The formats without a direct decoder decline.
  std::array<double, 4> unused{};
  const uint8_t zero[16] = {};
  for (ImageFormat f : {ImageFormat{O::sRGBA, T::UnormInt8}, ImageFormat{O::RGB, T::UnormShort565},
                        ImageFormat{O::RGBx, T::UnormInt8}, ImageFormat{O::R, T::UnormInt24}})
    CHECK_FALSE(decodeApproxWith(directFormat(f), zero, {}, unused));
}

TEST_CASE("fast paths: encodeDirectWith writes the bytes encode writes", "[images][fast][texel]") {
  std::mt19937_64 rng(11);
  // Float lanes around the conversions' decision points: ties of c / 255 and c / 65535 · (2^n − 1), the ends of the
  // saturation, zeros, subnormals, infinities and NaNs.
  auto floatLane = [&]() -> uint32_t {
    switch (rng() % 6) {
      case 0: return kFloatSpecials[rng() % 10];
      case 1: return std::bit_cast<uint32_t>((float(rng() % 65536) + 0.5f) / 65535.0f);
      case 2: return std::bit_cast<uint32_t>((float(rng() % 256) + 0.5f) / 255.0f);
      case 3: return std::bit_cast<uint32_t>(std::nextafter((float(rng() % 256) + 0.5f) / 255.0f, rng() % 2 ? 2.0f : -2.0f));
      case 4: return std::bit_cast<uint32_t>(float(double(rng() % 300000) / 100000.0 - 1.5));
      default: return uint32_t(rng());
    }
  };
  long checked = 0;
  for (const ImageFormat& f : directFormats())
    for (const ConversionOptions o : {ConversionOptions{}, ConversionOptions{Denorm::Flush, Denorm::Flush}})
      for (ColorKind kind : kindsOf(f))
        for (int i = 0; i < 3000; ++i) {
          Color c;
          for (auto& lane : c.lanes) lane = kind == ColorKind::Float ? floatLane() : uint32_t(rng() >> (rng() % 64));
          uint8_t direct[16], general[16];
          std::memset(direct, 0xa5, sizeof direct);
          std::memset(general, 0xa5, sizeof general);
          encode(f, c, kind, general, o);
          if (!encodeDirectWith(directFormat(f), c, kind, direct, o)) {
            REQUIRE(kind == ColorKind::Half);  // write_imageh goes through encode
            continue;
          }
          INFO(nameOf(f.order) << "/" << nameOf(f.type) << " kind " << int(kind) << " lanes " << c.lanes[0] << " "
                               << c.lanes[1] << " " << c.lanes[2] << " " << c.lanes[3]);
          REQUIRE(std::memcmp(direct, general, sizeof direct) == 0);
          ++checked;
        }
  CHECK(checked > 100000);
}

TEST_CASE("fast paths: sampler-less reads and writes of level 0 equal the general path", "[images][fast]") {
  std::mt19937_64 rng(5);
  const ImageType types[] = {ImageType::Image1D, ImageType::Image1DArray, ImageType::Image2D, ImageType::Image2DArray,
                             ImageType::Image3D, ImageType::Image1DBuffer};
  AccessOptions exact;
  exact.exactOnly = true;
  long reads = 0, writes = 0;
  for (const ImageFormat& f : directFormats())
    for (ImageType type : types) {
      const uint64_t w = 2 + rng() % 4, h = 1 + rng() % 4, d = 1 + rng() % 3;  // w >= 2: room for two levels
      const uint32_t levels = type == ImageType::Image1DBuffer ? 1 : 1 + uint32_t(rng() % 2);
      Img img(type, f, w, h, d, levels);
      const unsigned elem = elementSize(f);
      for (size_t i = 0; i + elem <= img.mem.size(); i += elem) fillElement(f, img.mem.data() + i, rng);
      const int64_t sizes[] = {int64_t(w), int64_t(h), int64_t(d)};
      for (int n = 0; n < 40; ++n) {
        std::array<int32_t, 3> c{};
        for (unsigned k = 0; k < 3; ++k) c[k] = int32_t(int64_t(rng() % uint64_t(sizes[k] + 2)) - 1);  // −1 … size
        const uint32_t level = rng() % 4 ? 0 : uint32_t(rng() % 3);
        for (ColorKind kind : kindsOf(f)) {
          const ReadResult a = readSamplerless(img.view, c, kind, level);
          const ReadResult b = readSamplerless(img.view, c, kind, level, exact);
          INFO(nameOf(f.order) << "/" << nameOf(f.type) << " " << nameOf(type) << " at " << c[0] << " " << c[1] << " "
                               << c[2] << " level " << level << " kind " << int(kind));
          REQUIRE(a.value == b.value);
          REQUIRE(a.undefined == b.undefined);
          ++reads;
          // A write through write() against encode() into the element the coordinate names, when inside.
          Color color;
          for (auto& lane : color.lanes) lane = uint32_t(rng());
          Img copy(type, f, w, h, d, levels);
          copy.mem = img.mem;
          copy.view.data = copy.mem.data();
          const Undefined u = write(img.view, c, color, kind, level);
          if (u == Undefined::None) {
            // ImageView::element: y is the row (the layer of a 1D array), z the slice (the layer of a 2D array).
            const bool oneD = type == ImageType::Image1D || type == ImageType::Image1DBuffer;
            const bool threeCoords = type == ImageType::Image3D || type == ImageType::Image2DArray;
            encode(f, color, kind,
                   copy.view.element(uint64_t(c[0]), oneD ? 0 : uint64_t(c[1]), threeCoords ? uint64_t(c[2]) : 0, level));
          }
          REQUIRE(img.mem == copy.mem);
          ++writes;
        }
      }
    }
  CHECK(reads > 5000);
  CHECK(writes > 5000);
}

// images/rgba8.hpp: the interpreter's CL_RGBA / CL_UNORM_INT8 accesses against the general functions. The picture
// holds every code in every channel; the coordinates run past each edge.
namespace {

// A w x h 2D RGBA8 image whose element k holds the codes k, 255 − k, 7k + 3 and 13k + 5 (mod 256): with w · h >= 256
// every channel holds every code.
Img rgba8Picture(uint64_t w, uint64_t h) {
  Img img(ImageType::Image2D, {O::RGBA, T::UnormInt8}, w, h);
  for (uint64_t y = 0; y < h; ++y)
    for (uint64_t x = 0; x < w; ++x) {
      const unsigned k = unsigned(y * w + x);
      uint8_t* e = img.at(x, y);
      e[0] = uint8_t(k);
      e[1] = uint8_t(255 - k);
      e[2] = uint8_t(7 * k + 3);
      e[3] = uint8_t(13 * k + 5);
    }
  return img;
}

// write_imagef's code for one CL_UNORM_INT8 channel worked from the formula (OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]]: convert_uchar_sat_rte(f * 255.0f)):
// the binary32 product, then rint in binary64 (exact for a binary32 value) and saturation; NaN gives 0.
uint8_t unorm8Code(float f) {
  if (std::isnan(f)) return 0;
  const float product = f * 255.0f;
  return uint8_t(std::clamp(std::nearbyint(double(product)), 0.0, 255.0));
}

}  // namespace

TEST_CASE("fast paths: readRgba8Float equals readSamplerless for every code, inside and out", "[images][fast][rgba8]") {
  Img img = rgba8Picture(16, 17);
  AccessOptions exact;
  exact.exactOnly = true;
  long inside = 0;
  for (int32_t y = -3; y <= 19; ++y)
    for (int32_t x = -3; x <= 18; ++x) {
      uint32_t lanes[4] = {1, 2, 3, 4};
      const bool fast = readRgba8Float(img.view, x, y, lanes);
      const ReadResult general = readSamplerless(img.view, {x, y, 0}, ColorKind::Float, 0, exact);
      INFO("at " << x << " " << y);
      REQUIRE(fast == (x >= 0 && y >= 0 && x < 16 && y < 17));
      if (!fast) {
        CHECK(lanes[0] == 1);  // nothing written
        CHECK(general.undefined == Undefined::SamplerlessOutOfRange);
        continue;
      }
      ++inside;
      REQUIRE(general.undefined == Undefined::None);
      for (unsigned ch = 0; ch < 4; ++ch) {
        REQUIRE(lanes[ch] == general.value.lanes[ch]);
        // And against the quotient worked in binary64: c / 255 rounded to binary64 then to binary32 is c / 255
        // rounded once (a binary64 quotient of 8-bit integers is never a binary32 midpoint).
        REQUIRE(std::bit_cast<float>(lanes[ch]) == float(double(img.at(uint64_t(x), uint64_t(y))[ch]) / 255.0));
      }
    }
  CHECK(inside == 16 * 17);
  // Any other type, format or a level other than 0 is not taken.
  Img bgra(ImageType::Image2D, {O::BGRA, T::UnormInt8}, 4, 4);
  Img r8(ImageType::Image2D, {O::R, T::UnormInt8}, 4, 4);
  Img rgba16(ImageType::Image2D, {O::RGBA, T::UnormInt16}, 4, 4);
  Img array(ImageType::Image2DArray, {O::RGBA, T::UnormInt8}, 4, 4, 2);
  Img threeD(ImageType::Image3D, {O::RGBA, T::UnormInt8}, 4, 4, 2);
  uint32_t lanes[4];
  for (Img* other : {&bgra, &r8, &rgba16, &array, &threeD}) {
    CHECK_FALSE(readRgba8Float(other->view, 1, 1, lanes));
    CHECK_FALSE(writeRgba8Float(other->view, 1, 1, lanes));
  }
  // A view shorter than its descriptor: the general path reports it.
  Img shortView = rgba8Picture(4, 4);
  shortView.view.bytes = 4 * 4 * 4 - 1;
  CHECK(readRgba8Float(shortView.view, 2, 3, lanes));
  CHECK_FALSE(readRgba8Float(shortView.view, 3, 3, lanes));
}

TEST_CASE("fast paths: writeRgba8Float writes the codes write and the formula give", "[images][fast][rgba8]") {
  // Every code's value, the midpoints between codes and one ulp either side, the ends, the specials, and random bits.
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f,
                               0x1p-126f, 1e30f, std::nextafter(1.0f, 0.0f), std::nextafter(1.0f, 2.0f)};
  for (unsigned c = 0; c <= 256; ++c)
    for (double v : {double(c) / 255.0, (double(c) - 0.5) / 255.0}) {
      const float f = float(v);
      values.insert(values.end(), {f, std::nextafter(f, -1.0f), std::nextafter(f, 2.0f)});
    }
  std::mt19937_64 rng(35);
  for (int i = 0; i < 20000; ++i) values.push_back(std::bit_cast<float>(uint32_t(rng())));
  for (int i = 0; i < 20000; ++i) values.push_back(float(double(rng() % 1000001) / 1000000.0));
  Img fast(ImageType::Image2D, {O::RGBA, T::UnormInt8}, 3, 2), general(ImageType::Image2D, {O::RGBA, T::UnormInt8}, 3, 2);
  for (size_t i = 0; i + 4 <= values.size(); i += 3) {
    uint32_t lanes[4];
    for (unsigned ch = 0; ch < 4; ++ch) lanes[ch] = std::bit_cast<uint32_t>(values[i + ch % 3 + (ch == 3)]);
    const int32_t x = int32_t(i % 3), y = int32_t(i % 2);
    REQUIRE(writeRgba8Float(fast.view, x, y, lanes));
    Color color;
    for (unsigned ch = 0; ch < 4; ++ch) color.lanes[ch] = lanes[ch];
    REQUIRE(write(general.view, {x, y, 0}, color, ColorKind::Float) == Undefined::None);
    REQUIRE(fast.mem == general.mem);
    for (unsigned ch = 0; ch < 4; ++ch) {
      INFO("value " << std::bit_cast<float>(lanes[ch]) << " bits " << lanes[ch]);
      REQUIRE(fast.at(uint64_t(x), uint64_t(y))[ch] == unorm8Code(std::bit_cast<float>(lanes[ch])));
    }
  }
  // Outside the image: nothing written, and write reports it.
  const auto before = fast.mem;
  uint32_t lanes[4] = {0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};
  for (auto [x, y] : {std::pair{-1, 0}, {0, -1}, {3, 0}, {0, 2}, {INT32_MIN, 0}, {0, INT32_MAX}}) {
    CHECK_FALSE(writeRgba8Float(fast.view, x, y, lanes));
    CHECK(write(fast.view, {x, y, 0}, Color{}, ColorKind::Float) == Undefined::WriteOutOfRange);
  }
  CHECK(fast.mem == before);
}

TEST_CASE("fast paths: readRgba8Sampled equals the exact sampled read in every mode", "[images][fast][rgba8]") {
  std::mt19937_64 rng(20261129);
  const AM modes[] = {AM::None, AM::ClampToEdge, AM::Clamp, AM::Repeat, AM::MirroredRepeat};
  clref::numerics::Choices binary32, exactCoordinates;
  binary32.set(clref::numerics::Choice::ImageCoordinatePrecision,
               uint8_t(clref::numerics::ImageCoordinatePrecisionOption::Binary32));
  exactCoordinates.set(clref::numerics::Choice::ImageCoordinatePrecision,
                       uint8_t(clref::numerics::ImageCoordinatePrecisionOption::Exact));
  long compared = 0, taken = 0, linearInside = 0, linearInsideTaken = 0;
  for (auto [w, h] : {std::pair<uint64_t, uint64_t>{16, 17}, {1, 1}, {5, 3}, {1024, 1024}}) {
    Img img = rgba8Picture(w, h);
    for (int n = 0; n < 30000; ++n) {
      Sampler s;
      s.normalizedCoords = rng() % 4 != 0;
      s.addressing = modes[rng() % 5];
      s.filter = rng() % 4 ? FM::Linear : FM::Nearest;
      const float x = coordinate(rng, s.normalizedCoords, w), y = coordinate(rng, s.normalizedCoords, h);
      AccessOptions exact;
      exact.exactOnly = true;
      const bool b32 = rng() % 4 == 0;
      exact.choices = b32 ? &binary32 : &exactCoordinates;
      if (rng() % 4 == 0) exact.conversion = {Denorm::Flush, Denorm::Flush};
      Coord c;
      c.f = {x, y, 0.0f};
      const ReadResult general = readSampled(img.view, s, c, ColorKind::Float, {}, exact);
      uint32_t lanes[4] = {1, 2, 3, 4};
      const bool fast = readRgba8Sampled(img.view, s, x, y, b32, exact.conversion, lanes);
      INFO(w << "x" << h << " coord " << x << " " << y << " mode " << uint32_t(s.addressing) << " normalized "
             << s.normalizedCoords << " linear " << (s.filter == FM::Linear) << " binary32 " << b32);
      ++compared;
      const bool inside = std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0 &&
                          (s.normalizedCoords ? x < 1 && y < 1 : x < float(w) && y < float(h));
      if (s.filter == FM::Linear && inside && s.normalizedCoords) ++linearInside;
      if (!fast) {
        CHECK(lanes[0] == 1);
        continue;
      }
      ++taken;
      if (s.filter == FM::Linear && inside && s.normalizedCoords) ++linearInsideTaken;
      REQUIRE(general.undefined == Undefined::None);
      for (unsigned ch = 0; ch < 4; ++ch) REQUIRE(lanes[ch] == general.value.lanes[ch]);
    }
  }
  CHECK(compared == 120000);
  // The fast path answers most reads (the rest: undefined cases, the border of nearest reads, undecided sums, and
  // coordinates such as 2^-100 whose u − 0.5 is not exact in binary64).
  CHECK(taken > compared / 2);
  CHECK(linearInsideTaken > linearInside * 3 / 4);
  // Any other type or format is not taken.
  Img bgra(ImageType::Image2D, {O::BGRA, T::UnormInt8}, 4, 4);
  Img array(ImageType::Image2DArray, {O::RGBA, T::UnormInt8}, 4, 4, 2);
  uint32_t lanes[4];
  Sampler s;
  s.filter = FM::Linear;
  CHECK_FALSE(readRgba8Sampled(bgra.view, s, 0.5f, 0.5f, false, {}, lanes));
  CHECK_FALSE(readRgba8Sampled(array.view, s, 0.5f, 0.5f, false, {}, lanes));
  Img ok = rgba8Picture(4, 4);
  CHECK(readRgba8Sampled(ok.view, s, 0.5f, 0.5f, false, {}, lanes));
}
