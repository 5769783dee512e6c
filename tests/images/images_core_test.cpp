// images/: formats, descriptors and layouts, texel decode and encode. Expected values are worked by hand from the
// spec's tables and formulas, or computed here from the formulas with MPFR (c / (2^n − 1) and the sRGB curve at
// 300 bits, then rounded once), never taken from images/ itself.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "images/image.hpp"
#include "images/image_format.hpp"
#include "images/texel.hpp"
#include "images/texel_internal.hpp"
#include "numerics/mpfr_round.hpp"

using namespace clref::images;
using clref::numerics::Denorm;
using clref::numerics::Format;
using clref::numerics::Rounding;

namespace {

using O = ChannelOrder;
using T = ChannelType;

// c / d rounded once to `f`, through MPFR at 300 bits (c / d is no rounding midpoint for the odd d used here).
uint32_t quotientBits(long c, unsigned long d, Format f) {
  clref::numerics::Mpfr x(300);
  mpfr_set_si(x, c, MPFR_RNDN);
  mpfr_div_ui(x, x, d, MPFR_RNDN);
  return uint32_t(clref::numerics::roundToBits(x, f, Rounding::RTE));
}

// The sRGB → linear rule of OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]] at 300 bits.
uint32_t srgbBits(unsigned n, Format f) {
  clref::numerics::Mpfr c(300), t(300);
  mpfr_set_ui(c, n, MPFR_RNDN);
  mpfr_div_ui(c, c, 255, MPFR_RNDN);
  mpfr_set_str(t, "0.04045", 10, MPFR_RNDN);
  if (mpfr_lessequal_p(c, t)) {
    mpfr_set_str(t, "12.92", 10, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN);
  } else {
    mpfr_set_str(t, "0.055", 10, MPFR_RNDN);
    mpfr_add(c, c, t, MPFR_RNDN);
    mpfr_set_str(t, "1.055", 10, MPFR_RNDN);
    mpfr_div(c, c, t, MPFR_RNDN);
    mpfr_set_str(t, "2.4", 10, MPFR_RNDN);
    mpfr_pow(c, c, t, MPFR_RNDN);
  }
  return uint32_t(clref::numerics::roundToBits(c, f, Rounding::RTE));
}

// The linear → sRGB rule of OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]] at 300 bits: floor(255
// · (1.055 c^(1/2.4) − 0.055 or 12.92 c) + 0.5).
unsigned srgbCode(float linear) {
  if (std::isnan(linear) || linear <= 0) return 0;
  if (linear >= 1) return 255;
  clref::numerics::Mpfr c(300), t(300);
  mpfr_set_flt(c, linear, MPFR_RNDN);
  mpfr_set_str(t, "0.0031308", 10, MPFR_RNDN);
  if (mpfr_less_p(c, t)) {
    mpfr_set_str(t, "12.92", 10, MPFR_RNDN);
    mpfr_mul(c, c, t, MPFR_RNDN);
  } else {
    mpfr_set_ui(t, 5, MPFR_RNDN);
    mpfr_div_ui(t, t, 12, MPFR_RNDN);
    mpfr_pow(c, c, t, MPFR_RNDN);
    mpfr_set_str(t, "1.055", 10, MPFR_RNDN);
    mpfr_mul(c, c, t, MPFR_RNDN);
    mpfr_set_str(t, "0.055", 10, MPFR_RNDN);
    mpfr_sub(c, c, t, MPFR_RNDN);
  }
  mpfr_mul_ui(c, c, 255, MPFR_RNDN);
  mpfr_set_str(t, "0.5", 10, MPFR_RNDN);
  mpfr_add(c, c, t, MPFR_RNDN);
  mpfr_floor(c, c);
  return unsigned(mpfr_get_ui(c, MPFR_RNDN));
}

uint32_t fbits(float x) { return std::bit_cast<uint32_t>(x); }

Color decodeBytes(ImageFormat f, std::vector<uint8_t> bytes, ColorKind kind = ColorKind::Float,
                  const ConversionOptions& o = {}) {
  REQUIRE(bytes.size() == elementSize(f));
  return decode(f, bytes.data(), kind, o);
}

std::vector<uint8_t> encodeColor(ImageFormat f, const Color& c, ColorKind kind = ColorKind::Float,
                                 const ConversionOptions& o = {}) {
  std::vector<uint8_t> bytes(elementSize(f), 0xAB);
  encode(f, c, kind, bytes.data(), o);
  return bytes;
}

Color intColor(int32_t x, int32_t y, int32_t z, int32_t w) {
  return Color{{uint32_t(x), uint32_t(y), uint32_t(z), uint32_t(w)}};
}

}  // namespace

TEST_CASE("formats: the pairs OpenCL 3.0 API image-format-descriptor allows", "[images][formats]") {
  CHECK(isValidFormat({O::RGBA, T::UnormInt8}));
  CHECK(isValidFormat({O::RGBA, T::Float}));
  CHECK(isValidFormat({O::RGBA, T::UnormInt101010_2}));
  CHECK_FALSE(isValidFormat({O::RGB, T::UnormInt101010_2}));
  CHECK(isValidFormat({O::RGB, T::UnormShort565}));
  CHECK(isValidFormat({O::RGBx, T::UnormShort555}));
  CHECK(isValidFormat({O::RGB, T::UnormInt101010}));
  CHECK_FALSE(isValidFormat({O::RGBA, T::UnormShort565}));
  CHECK_FALSE(isValidFormat({O::RGB, T::UnormInt8}));  // 24 bits: not a power of two
  CHECK_FALSE(isValidFormat({O::R, T::UnormShort565}));
  CHECK(isValidFormat({O::BGRA, T::UnormInt8}));
  CHECK(isValidFormat({O::ABGR, T::SignedInt8}));
  CHECK(isValidFormat({O::BGRA, T::UnormInt16}));  // the 3.0 table no longer restricts BGRA/ARGB/ABGR to 8 bits
  CHECK(isValidFormat({O::ARGB, T::Float}));
  CHECK(isValidFormat({O::RGBx, T::UnormInt8}));  // four stored channels, 32 bits
  CHECK_FALSE(isValidFormat({O::RGBA, T::UnormInt24}));
  CHECK(isValidFormat({O::Intensity, T::HalfFloat}));
  CHECK_FALSE(isValidFormat({O::Intensity, T::SignedInt8}));
  CHECK_FALSE(isValidFormat({O::Luminance, T::UnsignedInt32}));
  CHECK(isValidFormat({O::Depth, T::UnormInt16}));
  CHECK(isValidFormat({O::Depth, T::Float}));
  CHECK_FALSE(isValidFormat({O::Depth, T::UnormInt8}));
  CHECK(isValidFormat({O::Depth, T::UnormInt24}));
  CHECK(isValidFormat({O::sRGBA, T::UnormInt8}));
  CHECK(isValidFormat({O::sBGRA, T::UnormInt8}));
  CHECK(isValidFormat({O::sRGBx, T::UnormInt8}));
  CHECK_FALSE(isValidFormat({O::sRGB, T::UnormInt8}));  // three 8-bit channels: 24 bits
  CHECK_FALSE(isValidFormat({O::sRGBA, T::UnormInt16}));
  CHECK(isValidFormat({O::Rx, T::Float}));
  for (auto t : {T::UnormInt8, T::UnormInt16, T::Float, T::SignedInt32}) CHECK_FALSE(isValidFormat({O::RGx, t}));
  CHECK_FALSE(isValidFormat({O(0x1234), T::UnormInt8}));
  CHECK_FALSE(isValidFormat({O::R, T(0x1234)}));

  // Counted by hand: R, A, RG, RA, Rx take the 12 unpacked types (60); RGBA 12 + 101010_2; RGB the three packed
  // types, RGBx those and the 12 unpacked (18); BGRA, ARGB, ABGR 12 each (36); INTENSITY, LUMINANCE 6 each (12); DEPTH
  // 3; sRGBA, sBGRA, sRGBx 1 each.
  const auto all = allFormats();
  CHECK(all.size() == 60 + 13 + 18 + 36 + 12 + 3 + 3);
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (auto f : all) {
    CHECK(isValidFormat(f));
    CHECK(seen.insert({uint32_t(f.order), uint32_t(f.type)}).second);
    const unsigned bits = 8 * elementSize(f);
    CHECK((bits != 0 && (bits & (bits - 1)) == 0));
  }
}

TEST_CASE("formats: element sizes, classes, names", "[images][formats]") {
  CHECK(elementSize({O::RGBA, T::Float}) == 16);
  CHECK(elementSize({O::RGBA, T::UnormInt8}) == 4);
  CHECK(elementSize({O::Rx, T::UnormInt16}) == 4);
  CHECK(elementSize({O::RG, T::HalfFloat}) == 4);
  CHECK(elementSize({O::RGB, T::UnormShort565}) == 2);
  CHECK(elementSize({O::RGBx, T::UnormInt101010}) == 4);
  CHECK(elementSize({O::RGBA, T::UnormInt101010_2}) == 4);
  CHECK(elementSize({O::sRGBx, T::UnormInt8}) == 4);
  CHECK(elementSize({O::Depth, T::Float}) == 4);
  CHECK(elementSize({O::RGB, T::UnormInt8}) == 0);
  CHECK(channelClass(T::UnormShort565) == ChannelClass::Normalized);
  CHECK(channelClass(T::HalfFloat) == ChannelClass::Float);
  CHECK(channelClass(T::SignedInt16) == ChannelClass::SignedInt);
  CHECK(channelClass(T::UnsignedInt32) == ChannelClass::UnsignedInt);
  CHECK(isSRGB(O::sBGRA));
  CHECK_FALSE(isSRGB(O::BGRA));
  CHECK(nameOf(O::sRGBA) == "CL_sRGBA");
  CHECK(nameOf(T::UnormInt101010_2) == "CL_UNORM_INT_101010_2");
  CHECK(channelOrderNamed("CL_Rx") == O::Rx);
  CHECK(channelOrderNamed("RGBA") == O::RGBA);
  CHECK_FALSE(channelOrderNamed("rgba").has_value());
  CHECK(channelTypeNamed("UNORM_SHORT_565") == T::UnormShort565);
  CHECK(channelTypeNamed("CL_FLOAT") == T::Float);
  CHECK_FALSE(channelTypeNamed("CL_").has_value());
  for (auto f : allFormats()) {
    CHECK(channelOrderNamed(nameOf(f.order)) == f.order);
    CHECK(channelTypeNamed(nameOf(f.type)) == f.type);
  }
  CHECK(nameOf(ImageType::Image2DArray) == "CL_MEM_OBJECT_IMAGE2D_ARRAY");
  CHECK(coordinateCount(ImageType::Image1DBuffer) == 1);
  CHECK(coordinateCount(ImageType::Image1DArray) == 2);
  CHECK(coordinateCount(ImageType::Image2DArray) == 3);
  CHECK(isArray(ImageType::Image1DArray));
  CHECK_FALSE(isArray(ImageType::Image3D));
}

TEST_CASE("descriptors: pitches, defaults and refusals", "[images][layout]") {
  ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = {O::RGBA, T::UnormInt8};
  d.width = 5;
  d.height = 3;
  d.depth = 7;      // unused by a 2D image
  d.arraySize = 9;  // unused
  auto m = makeDesc(d);
  CHECK(m.rowPitch == 20);
  CHECK(m.slicePitch == 60);
  CHECK(m.depth == 1);
  CHECK(m.arraySize == 1);
  CHECK(m.numMipLevels == 1);
  CHECK(storageBytes(m) == 60);

  d.rowPitch = 24;
  m = makeDesc(d);
  CHECK(m.rowPitch == 24);
  CHECK(m.slicePitch == 72);

  auto refusal = [](ImageDesc x) {
    try {
      makeDesc(x);
    } catch (const std::invalid_argument& e) { return std::string(e.what()); }
    return std::string("accepted");
  };
  d.rowPitch = 16;
  CHECK_THAT(refusal(d), Catch::Contains("image_row_pitch 16 is smaller"));
  d.rowPitch = 22;
  CHECK_THAT(refusal(d), Catch::Contains("not a multiple of the element size"));
  d.rowPitch = 0;
  d.width = 0;
  CHECK_THAT(refusal(d), Catch::Contains("image_width is 0"));
  d.width = 5;
  d.format = {O::RGB, T::UnormInt8};
  CHECK_THAT(refusal(d), Catch::Contains("(CL_RGB, CL_UNORM_INT8) is not a valid format"));
  d.format = {O::RGBA, T::UnormInt8};
  d.numMipLevels = 4;  // 5x3: floor(log2 5) + 1 = 3 levels at most
  CHECK_THAT(refusal(d), Catch::Contains("num_mip_levels 4"));

  ImageDesc a;
  a.type = ImageType::Image2DArray;
  a.format = {O::R, T::Float};
  a.width = 4;
  a.height = 2;
  a.arraySize = 3;
  a.slicePitch = 40;
  CHECK_THAT(refusal(a), Catch::Contains("not a multiple of image_row_pitch"));
  a.slicePitch = 16;
  CHECK_THAT(refusal(a), Catch::Contains("image_slice_pitch 16 is smaller"));
  a.slicePitch = 48;
  m = makeDesc(a);
  CHECK(storageBytes(m) == 144);
  a.arraySize = 0;
  CHECK_THAT(refusal(a), Catch::Contains("image_array_size is 0"));

  ImageDesc b;
  b.type = ImageType::Image1DBuffer;
  b.width = 8;
  b.numMipLevels = 2;
  CHECK_THAT(refusal(b), Catch::Contains("IMAGE1D_BUFFER"));
  b.numMipLevels = 0;
  CHECK(makeDesc(b).numMipLevels == 1);

  ImageDesc huge;
  huge.type = ImageType::Image3D;
  huge.format = {O::RGBA, T::Float};
  huge.width = huge.height = huge.depth = uint64_t(1) << 30;
  CHECK_THAT(refusal(huge), Catch::Contains("overflows 64 bits"));
}

TEST_CASE("layouts: mip levels one after the other, halved and at least 1", "[images][layout]") {
  ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = {O::RGBA, T::UnormInt8};
  d.width = 5;
  d.height = 3;
  d.numMipLevels = 3;
  d = makeDesc(d);
  auto s1 = levelSize(d, 1), s2 = levelSize(d, 2);
  CHECK((s1.width == 2 && s1.height == 1 && s1.depth == 1));
  CHECK((s2.width == 1 && s2.height == 1));
  auto l0 = levelLayout(d, 0), l1 = levelLayout(d, 1), l2 = levelLayout(d, 2);
  CHECK((l0.offset == 0 && l0.bytes == 60 && l0.rowPitch == 20));
  CHECK((l1.offset == 60 && l1.bytes == 8 && l1.rowPitch == 8));
  CHECK((l2.offset == 68 && l2.bytes == 4));
  CHECK(storageBytes(d) == 72);

  std::vector<uint8_t> mem(storageBytes(d));
  ImageView v{d, mem.data(), mem.size()};
  CHECK(v.element(4, 2, 0) - mem.data() == 2 * 20 + 4 * 4);
  CHECK(v.element(1, 0, 0, 1) - mem.data() == 60 + 4);
  CHECK(v.element(0, 0, 0, 2) - mem.data() == 68);

  ImageDesc a;
  a.type = ImageType::Image1DArray;
  a.format = {O::R, T::UnormInt8};
  a.width = 4;
  a.arraySize = 3;
  a.numMipLevels = 2;
  a = makeDesc(a);
  CHECK(a.height == 1);
  CHECK(levelSize(a, 1).width == 2);
  CHECK(levelSize(a, 1).height == 3);  // the layers stay
  CHECK(levelLayout(a, 1).offset == 12);
  CHECK(levelLayout(a, 1).bytes == 6);
  CHECK(storageBytes(a) == 18);
  std::vector<uint8_t> amem(storageBytes(a));
  ImageView av{a, amem.data(), amem.size()};
  CHECK(av.element(3, 2, 0) - amem.data() == 2 * 4 + 3);
  CHECK(av.element(1, 2, 0, 1) - amem.data() == 12 + 2 * 2 + 1);

  ImageDesc c;
  c.type = ImageType::Image3D;
  c.format = {O::RG, T::UnormInt16};
  c.width = 4;
  c.height = 4;
  c.depth = 2;
  c.numMipLevels = 3;
  c = makeDesc(c);
  CHECK(levelSize(c, 2).depth == 1);
  CHECK(levelLayout(c, 1).offset == 4 * 4 * 2 * 4);
  CHECK(levelLayout(c, 1).bytes == 2 * 2 * 1 * 4);
  CHECK(levelLayout(c, 2).offset == 128 + 16);
}

TEST_CASE("decode: normalized channels are c / (2^n - 1) rounded once", "[images][texel]") {
  // Every code of the 8- and 16-bit types, both read functions, against MPFR.
  for (unsigned c = 0; c < 256; ++c) {
    const uint8_t u = uint8_t(c);
    auto f = decodeBytes({O::R, T::UnormInt8}, {u});
    CHECK(f.lanes[0] == quotientBits(c, 255, Format::Float));
    auto h = decodeBytes({O::R, T::UnormInt8}, {u}, ColorKind::Half);
    CHECK(h.lanes[0] == quotientBits(c, 255, Format::Half));
    const int s = int8_t(u);
    auto sf = decodeBytes({O::R, T::SnormInt8}, {u});
    CHECK(sf.lanes[0] == (s == -128 ? fbits(-1.0f) : quotientBits(s, 127, Format::Float)));
  }
  for (unsigned c = 0; c < 65536; c += 7) {
    std::vector<uint8_t> b{uint8_t(c), uint8_t(c >> 8)};
    CHECK(decodeBytes({O::R, T::UnormInt16}, b).lanes[0] == quotientBits(c, 65535, Format::Float));
    CHECK(decodeBytes({O::R, T::UnormInt16}, b, ColorKind::Half).lanes[0] == quotientBits(c, 65535, Format::Half));
    const int s = int16_t(c);
    CHECK(decodeBytes({O::R, T::SnormInt16}, b).lanes[0] ==
          (s == -32768 ? fbits(-1.0f) : quotientBits(s, 32767, Format::Float)));
  }
  // The endpoints of §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]].
  CHECK(decodeBytes({O::R, T::UnormInt8}, {255}).lanes[0] == fbits(1.0f));
  CHECK(decodeBytes({O::R, T::UnormInt16}, {0xff, 0xff}).lanes[0] == fbits(1.0f));
  CHECK(decodeBytes({O::R, T::SnormInt8}, {0x81}).lanes[0] == fbits(-1.0f));
  CHECK(decodeBytes({O::R, T::SnormInt8}, {0x80}).lanes[0] == fbits(-1.0f));
  CHECK(decodeBytes({O::R, T::SnormInt16}, {0x00, 0x80}).lanes[0] == fbits(-1.0f));
  CHECK(decodeBytes({O::R, T::SnormInt8}, {0x7f}).lanes[0] == fbits(1.0f));
  // 1 / 65535 is a binary16 subnormal: rounded once to a multiple of 2^-24 (1 / 65535 = 2^-16 · 1.0000153 → 256 ·
  // 2^-24, bits 0x0100), and flushed when the device flushes half denormals.
  CHECK(decodeBytes({O::R, T::UnormInt16}, {1, 0}, ColorKind::Half).lanes[0] == 0x0100);
  ConversionOptions flush;
  flush.denormHalf = Denorm::Flush;
  CHECK(decodeBytes({O::R, T::UnormInt16}, {1, 0}, ColorKind::Half, flush).lanes[0] == 0);
}

TEST_CASE("decode: channel orders and the missing-channel defaults", "[images][texel]") {
  const uint32_t one = fbits(1.0f), zero = 0;
  auto q = [](unsigned c) { return quotientBits(c, 255, Format::Float); };
  // The mapping table: (r, 0, 0, 1), (0, 0, 0, a), (r, g, 0, 1), (r, 0, 0, a), (I, I, I, I), (L, L, L, 1).
  CHECK(decodeBytes({O::R, T::UnormInt8}, {51}).lanes == std::array<uint32_t, 4>{q(51), zero, zero, one});
  CHECK(decodeBytes({O::A, T::UnormInt8}, {51}).lanes == std::array<uint32_t, 4>{zero, zero, zero, q(51)});
  CHECK(decodeBytes({O::RG, T::UnormInt8}, {1, 2}).lanes == std::array<uint32_t, 4>{q(1), q(2), zero, one});
  CHECK(decodeBytes({O::RA, T::UnormInt8}, {1, 2}).lanes == std::array<uint32_t, 4>{q(1), zero, zero, q(2)});
  CHECK(decodeBytes({O::Rx, T::UnormInt8}, {1, 2}).lanes == std::array<uint32_t, 4>{q(1), zero, zero, one});
  CHECK(decodeBytes({O::Intensity, T::UnormInt8}, {7}).lanes == std::array<uint32_t, 4>{q(7), q(7), q(7), q(7)});
  CHECK(decodeBytes({O::Luminance, T::UnormInt8}, {7}).lanes == std::array<uint32_t, 4>{q(7), q(7), q(7), one});
  // Memory order of the four-channel orders.
  CHECK(decodeBytes({O::RGBA, T::UnormInt8}, {1, 2, 3, 4}).lanes == std::array<uint32_t, 4>{q(1), q(2), q(3), q(4)});
  CHECK(decodeBytes({O::BGRA, T::UnormInt8}, {1, 2, 3, 4}).lanes == std::array<uint32_t, 4>{q(3), q(2), q(1), q(4)});
  CHECK(decodeBytes({O::ARGB, T::UnormInt8}, {1, 2, 3, 4}).lanes == std::array<uint32_t, 4>{q(2), q(3), q(4), q(1)});
  CHECK(decodeBytes({O::ABGR, T::UnormInt8}, {1, 2, 3, 4}).lanes == std::array<uint32_t, 4>{q(4), q(3), q(2), q(1)});
  // Integer reads: the stored integers, alpha 1 when missing.
  CHECK(decodeBytes({O::RG, T::SignedInt8}, {0xff, 0x80}, ColorKind::Int).lanes ==
        std::array<uint32_t, 4>{uint32_t(-1), uint32_t(-128), 0, 1});
  CHECK(decodeBytes({O::R, T::UnsignedInt16}, {0xff, 0xff}, ColorKind::Uint).lanes ==
        std::array<uint32_t, 4>{65535, 0, 0, 1});
  CHECK(decodeBytes({O::R, T::SignedInt32}, {0, 0, 0, 0x80}, ColorKind::Int).lanes[0] == 0x80000000u);
  CHECK(decodeBytes({O::RGBA, T::UnsignedInt32}, std::vector<uint8_t>(16, 0xff), ColorKind::Uint).lanes ==
        std::array<uint32_t, 4>{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu});
  CHECK(decodeBytes({O::Depth, T::UnormInt16}, {0xff, 0xff}).lanes[0] == one);
  // The wrong read function for the type gives (0, 0, 0, 0).
  CHECK(decodeBytes({O::R, T::SignedInt8}, {5}, ColorKind::Float) == Color{});
  CHECK(decodeBytes({O::R, T::UnormInt8}, {5}, ColorKind::Uint) == Color{});
  CHECK(decodeBytes({O::R, T::UnsignedInt8}, {5}, ColorKind::Int) == Color{});
}

TEST_CASE("decode: packed formats", "[images][texel]") {
  auto word16 = [](uint16_t w) { return std::vector<uint8_t>{uint8_t(w), uint8_t(w >> 8)}; };
  auto word32 = [](uint32_t w) {
    return std::vector<uint8_t>{uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
  };
  const uint32_t one = fbits(1.0f);
  // 565: R 15:11, G 10:5, B 4:0.
  auto c = decodeBytes({O::RGB, T::UnormShort565}, word16(uint16_t((31u << 11) | (21u << 5) | 3u)));
  CHECK(c.lanes ==
        std::array<uint32_t, 4>{one, quotientBits(21, 63, Format::Float), quotientBits(3, 31, Format::Float), one});
  // 555: bit 15 ignored, R 14:10.
  c = decodeBytes({O::RGBx, T::UnormShort555}, word16(uint16_t(0x8000u | (1u << 10) | (2u << 5) | 31u)));
  CHECK(c.lanes ==
        std::array<uint32_t, 4>{quotientBits(1, 31, Format::Float), quotientBits(2, 31, Format::Float), one, one});
  // 101010: bits 31:30 ignored, R 29:20, G 19:10, B 9:0.
  c = decodeBytes({O::RGB, T::UnormInt101010}, word32(0xC0000000u | (1023u << 20) | (512u << 10) | 1u));
  CHECK(c.lanes == std::array<uint32_t, 4>{one, quotientBits(512, 1023, Format::Float),
                                           quotientBits(1, 1023, Format::Float), one});
  // 101010_2: R 31:22, G 21:12, B 11:2, A 1:0.
  c = decodeBytes({O::RGBA, T::UnormInt101010_2}, word32((3u << 22) | (1023u << 12) | (0u << 2) | 1u));
  CHECK(c.lanes ==
        std::array<uint32_t, 4>{quotientBits(3, 1023, Format::Float), one, 0, quotientBits(1, 3, Format::Float)});
}

TEST_CASE("decode and encode: CL_UNORM_INT24 depth, 24 bits in a 32-bit element", "[images][texel]") {
  const ImageFormat f{O::Depth, T::UnormInt24};
  CHECK(elementSize(f) == 4);
  CHECK(decodeBytes(f, {0xff, 0xff, 0xff, 0x00}).lanes[0] == fbits(1.0f));
  CHECK(decodeBytes(f, {0xff, 0xff, 0xff, 0xab}).lanes[0] == fbits(1.0f));  // the top byte is ignored
  CHECK(decodeBytes(f, {0x01, 0x00, 0x00, 0x00}).lanes[0] == quotientBits(1, 16777215, Format::Float));
  CHECK(decodeBytes(f, {0x00, 0x00, 0x80, 0x00}).lanes[0] == quotientBits(0x800000, 16777215, Format::Float));
  // 0.5 · 16777215 = 8388607.5, exact in float; rte gives the even 8388608 = 0x800000.
  CHECK(encodeColor(f, floatColor(0.5f, 0, 0, 0)) == std::vector<uint8_t>{0x00, 0x00, 0x80, 0x00});
  CHECK(encodeColor(f, floatColor(2.0f, 0, 0, 0)) == std::vector<uint8_t>{0xff, 0xff, 0xff, 0x00});
}

TEST_CASE("decode: half and float channels, denormals", "[images][texel]") {
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x00, 0x3c}).lanes[0] == fbits(1.0f));
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x01, 0x00}).lanes[0] == fbits(std::ldexp(1.0f, -24)));
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x00, 0xfc}).lanes[0] == fbits(-INFINITY));
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x00, 0x80}).lanes[0] == fbits(-0.0f));
  CHECK(std::isnan(std::bit_cast<float>(decodeBytes({O::R, T::HalfFloat}, {0x01, 0x7e}).lanes[0])));
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x55, 0x35}, ColorKind::Half).lanes[0] == 0x3555);
  ConversionOptions flush;
  flush.denormHalf = Denorm::Flush;
  flush.denormFloat = Denorm::Flush;
  CHECK(decodeBytes({O::R, T::HalfFloat}, {0x01, 0x80}, ColorKind::Float, flush).lanes[0] == fbits(-0.0f));
  const uint32_t sub = 0x00000123;
  std::vector<uint8_t> b(4);
  std::memcpy(b.data(), &sub, 4);
  CHECK(decodeBytes({O::R, T::Float}, b).lanes[0] == sub);
  CHECK(decodeBytes({O::R, T::Float}, b, ColorKind::Float, flush).lanes[0] == 0);
  // read_imageh of a float channel rounds once to nearest even: 1 + 2^-11 is a tie → 1.0; 1 + 3·2^-12 → 1 + 2^-10.
  const float tie = 1.0f + std::ldexp(1.0f, -11), up = 1.0f + 3 * std::ldexp(1.0f, -12);
  std::memcpy(b.data(), &tie, 4);
  CHECK(decodeBytes({O::R, T::Float}, b, ColorKind::Half).lanes[0] == 0x3c00);
  std::memcpy(b.data(), &up, 4);
  CHECK(decodeBytes({O::R, T::Float}, b, ColorKind::Half).lanes[0] == 0x3c01);
  const float big = 70000.0f;
  std::memcpy(b.data(), &big, 4);
  CHECK(decodeBytes({O::R, T::Float}, b, ColorKind::Half).lanes[0] == 0x7c00);
}

TEST_CASE("decode: sRGB channels are the exact sRGB curve rounded once, alpha stays linear", "[images][texel][srgb]") {
  for (unsigned n = 0; n < 256; ++n) {
    const uint8_t u = uint8_t(n);
    auto c = decodeBytes({O::sRGBA, T::UnormInt8}, {u, u, u, u});
    CHECK(c.lanes[0] == srgbBits(n, Format::Float));
    CHECK(c.lanes[3] == quotientBits(n, 255, Format::Float));
    auto h = decodeBytes({O::sRGBA, T::UnormInt8}, {u, 0, 0, 0}, ColorKind::Half);
    CHECK(h.lanes[0] == srgbBits(n, Format::Half));
  }
  CHECK(decodeBytes({O::sRGBA, T::UnormInt8}, {255, 0, 0, 0}).lanes[0] == fbits(1.0f));
  // sBGRA stores B first; sRGBx ignores its fourth byte and reads alpha 1.
  auto c = decodeBytes({O::sBGRA, T::UnormInt8}, {255, 0, 0, 255});
  CHECK(c.lanes == std::array<uint32_t, 4>{0, 0, fbits(1.0f), fbits(1.0f)});
  c = decodeBytes({O::sRGBx, T::UnormInt8}, {0, 0, 0, 0});
  CHECK(c.lanes[3] == fbits(1.0f));
}

TEST_CASE("encode: float to normalized, round to nearest even, saturating", "[images][texel]") {
  const ImageFormat u8{O::R, T::UnormInt8};
  auto code = [&](float x) { return encodeColor(u8, floatColor(x, 0, 0, 0))[0]; };
  CHECK(code(0.5f) == 128);  // 127.5 → even
  CHECK(code(1.0f) == 255);
  CHECK(code(1.5f) == 255);
  CHECK(code(-1.0f) == 0);
  CHECK(code(NAN) == 0);
  CHECK(code(INFINITY) == 255);
  CHECK(code(0.25f) == 64);  // 63.75
  // The formula convert_uchar_sat_rte(f * 255.0f) on the host: the float product, then nearest even.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-0.1f, 1.1f);
  for (int i = 0; i < 20000; ++i) {
    const float x = dist(rng);
    volatile float p = x * 255.0f;
    const float r = std::nearbyint(p);
    const unsigned expect = r <= 0 ? 0 : r >= 255 ? 255 : unsigned(r);
    REQUIRE(code(x) == expect);
    volatile float p16 = x * 65535.0f;
    const float r16 = std::nearbyint(p16);
    const unsigned expect16 = r16 <= 0 ? 0 : r16 >= 65535 ? 65535 : unsigned(r16);
    auto b = encodeColor({O::R, T::UnormInt16}, floatColor(x, 0, 0, 0));
    REQUIRE(unsigned(b[0] | (b[1] << 8)) == expect16);
  }
  const ImageFormat s8{O::R, T::SnormInt8};
  CHECK(encodeColor(s8, floatColor(-1.0f, 0, 0, 0))[0] == 0x81);  // -127
  CHECK(encodeColor(s8, floatColor(-2.0f, 0, 0, 0))[0] == 0x80);  // saturates to -128
  CHECK(encodeColor(s8, floatColor(1.0f, 0, 0, 0))[0] == 0x7f);
  CHECK(encodeColor(s8, floatColor(NAN, 0, 0, 0))[0] == 0);
  auto s16 = encodeColor({O::R, T::SnormInt16}, floatColor(0.5f, 0, 0, 0));  // 16383.5 → 16384
  CHECK((s16[0] | (s16[1] << 8)) == 16384);
  // write_imageh: the half widened, then the same rule.
  CHECK(encodeColor(u8, Color{{0x3800, 0, 0, 0}}, ColorKind::Half)[0] == 128);  // 0.5h
}

TEST_CASE("encode: orders, packed layouts, half, float and integer channels", "[images][texel]") {
  const auto c = floatColor(1.0f, 0.5f, 0.0f, 0.25f);
  CHECK(encodeColor({O::RGBA, T::UnormInt8}, c) == std::vector<uint8_t>{255, 128, 0, 64});
  CHECK(encodeColor({O::BGRA, T::UnormInt8}, c) == std::vector<uint8_t>{0, 128, 255, 64});
  CHECK(encodeColor({O::ARGB, T::UnormInt8}, c) == std::vector<uint8_t>{64, 255, 128, 0});
  CHECK(encodeColor({O::ABGR, T::UnormInt8}, c) == std::vector<uint8_t>{64, 0, 128, 255});
  CHECK(encodeColor({O::A, T::UnormInt8}, c) == std::vector<uint8_t>{64});
  CHECK(encodeColor({O::RA, T::UnormInt8}, c) == std::vector<uint8_t>{255, 64});
  CHECK(encodeColor({O::Rx, T::UnormInt8}, c) == std::vector<uint8_t>{255, 0});
  CHECK(encodeColor({O::Intensity, T::UnormInt8}, c) == std::vector<uint8_t>{255});
  CHECK(encodeColor({O::Luminance, T::UnormInt8}, c) == std::vector<uint8_t>{255});
  // 565: R 31, G rte(31.5) = 32, B 0.
  auto w = encodeColor({O::RGB, T::UnormShort565}, c);
  CHECK((w[0] | (w[1] << 8)) == ((31 << 11) | (32 << 5)));
  // 555: R 31, G rte(15.5) = 16; bit 15 written 0.
  w = encodeColor({O::RGBx, T::UnormShort555}, c);
  CHECK((w[0] | (w[1] << 8)) == ((31 << 10) | (16 << 5)));
  // 101010: G rte(511.5) = 512; 101010_2: A rte(0.75) = 1.
  w = encodeColor({O::RGB, T::UnormInt101010}, c);
  CHECK(uint32_t(w[0] | (w[1] << 8) | (w[2] << 16) | (uint32_t(w[3]) << 24)) == ((1023u << 20) | (512u << 10)));
  w = encodeColor({O::RGBA, T::UnormInt101010_2}, c);
  CHECK(uint32_t(w[0] | (w[1] << 8) | (w[2] << 16) | (uint32_t(w[3]) << 24)) == ((1023u << 22) | (512u << 12) | 1u));
  // Half channels: 1/3 → 0x3555 (nearest even), 65520 → inf, a half lane stored as is.
  w = encodeColor({O::R, T::HalfFloat}, floatColor(1.0f / 3.0f, 0, 0, 0));
  CHECK((w[0] | (w[1] << 8)) == 0x3555);
  w = encodeColor({O::R, T::HalfFloat}, floatColor(65520.0f, 0, 0, 0));
  CHECK((w[0] | (w[1] << 8)) == 0x7c00);
  w = encodeColor({O::R, T::HalfFloat}, Color{{0x0001, 0, 0, 0}}, ColorKind::Half);
  CHECK((w[0] | (w[1] << 8)) == 0x0001);
  ConversionOptions flush;
  flush.denormHalf = Denorm::Flush;
  flush.denormFloat = Denorm::Flush;
  w = encodeColor({O::R, T::HalfFloat}, Color{{0x8001, 0, 0, 0}}, ColorKind::Half, flush);
  CHECK((w[0] | (w[1] << 8)) == 0x8000);
  // Float channels keep the bits (NaN payloads too), flush denormals when asked.
  Color nan{{0x7fa00001u, 0x00000001u, 0, 0}};
  w = encodeColor({O::RG, T::Float}, nan);
  uint32_t got[2];
  std::memcpy(got, w.data(), 8);
  CHECK(got[0] == 0x7fa00001u);
  CHECK(got[1] == 0x00000001u);
  w = encodeColor({O::RG, T::Float}, nan, ColorKind::Float, flush);
  std::memcpy(got, w.data(), 8);
  CHECK(got[1] == 0);
  // Integers saturate: convert_char_sat, convert_uchar_sat, convert_short_sat, convert_ushort_sat.
  CHECK(encodeColor({O::RGBA, T::SignedInt8}, intColor(300, -300, -1, 127), ColorKind::Int) ==
        std::vector<uint8_t>{127, 0x80, 0xff, 127});
  CHECK(encodeColor({O::RG, T::UnsignedInt8}, intColor(300, 7, 0, 0), ColorKind::Uint) == std::vector<uint8_t>{255, 7});
  w = encodeColor({O::R, T::SignedInt16}, intColor(-40000, 0, 0, 0), ColorKind::Int);
  CHECK((w[0] | (w[1] << 8)) == 0x8000);
  w = encodeColor({O::R, T::UnsignedInt16}, intColor(-1, 0, 0, 0), ColorKind::Uint);  // 0xffffffff saturates
  CHECK((w[0] | (w[1] << 8)) == 0xffff);
  w = encodeColor({O::R, T::SignedInt32}, intColor(-5, 0, 0, 0), ColorKind::Int);
  std::memcpy(got, w.data(), 4);
  CHECK(got[0] == uint32_t(-5));
  // The wrong write function stores nothing.
  CHECK(encodeColor({O::R, T::UnsignedInt8}, c) == std::vector<uint8_t>{0xAB});
  CHECK(encodeColor({O::R, T::UnormInt8}, intColor(1, 0, 0, 0), ColorKind::Int) == std::vector<uint8_t>{0xAB});
}

TEST_CASE("encode: linear to sRGB by the spec's formula, decided exactly", "[images][texel][srgb]") {
  const ImageFormat f{O::sRGBA, T::UnormInt8};
  auto code = [&](float x) { return encodeColor(f, floatColor(x, x, x, x)); };
  CHECK(code(0.0f) == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(code(1.0f) == std::vector<uint8_t>{255, 255, 255, 255});
  CHECK(code(NAN)[0] == 0);
  CHECK(code(2.0f)[0] == 255);
  CHECK(code(-1.0f)[0] == 0);
  // 0.5: 255 · (1.055 · 0.5^(1/2.4) − 0.055) = 187.5…, alpha linear 127.5 → 128.
  CHECK(code(0.5f) == std::vector<uint8_t>{188, 188, 188, 128});
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    const float x = i < 1000 ? dist(rng) * 0.004f : dist(rng);  // the linear segment and the curve
    REQUIRE(unsigned(code(x)[0]) == srgbCode(x));
  }
  // Every code survives a read and a write (the spec: the linear value converted back is within 0.5 ulp).
  for (unsigned n = 0; n < 256; ++n) {
    const uint8_t u = uint8_t(n);
    auto lin = decodeBytes(f, {u, u, u, 255});
    CHECK(encodeColor(f, lin)[0] == u);
  }
  // sBGRA writes B first.
  CHECK(encodeColor({O::sBGRA, T::UnormInt8}, floatColor(1.0f, 0.0f, 0.0f, 1.0f)) ==
        std::vector<uint8_t>{0, 0, 255, 255});
}

// decode()'s direct path (texel.cpp decodeDirect) against MPFR: every 8- and 16-bit normalized code divided in MPFR
// at binary32 precision (one rounding, RN), and the missing channels' defaults.
TEST_CASE("decode: the direct path of normalized channels equals the quotient rounded by MPFR", "[images][texel]") {
  const std::pair<T, unsigned> types[] = {{T::UnormInt8, 8}, {T::UnormInt16, 16}, {T::SnormInt8, 8}, {T::SnormInt16, 16}};
  mpfr_t q;
  mpfr_init2(q, 24);
  for (auto [type, bits] : types) {
    const bool snorm = type == T::SnormInt8 || type == T::SnormInt16;
    for (uint32_t code = 0; code < (1u << bits); ++code) {
      uint8_t element[2];
      std::memcpy(element, &code, bits / 8);  // little-endian host, as the image's bytes
      const Color c = decode({O::R, type}, element, ColorKind::Float);
      const int64_t v = snorm ? (bits == 8 ? int64_t(int8_t(code)) : int64_t(int16_t(code))) : int64_t(code);
      const long den = snorm ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
      mpfr_set_si(q, long(v), MPFR_RNDN);
      mpfr_div_si(q, q, den, MPFR_RNDN);
      float want = mpfr_get_flt(q, MPFR_RNDN);
      if (want < -1.0f) want = -1.0f;  // max(-1.0f, c / 127.0f)
      REQUIRE(c.lanes[0] == std::bit_cast<uint32_t>(want));
      REQUIRE(c.lanes[1] == 0);
      REQUIRE(c.lanes[2] == 0);
      REQUIRE(c.lanes[3] == std::bit_cast<uint32_t>(1.0f));
    }
  }
  mpfr_clear(q);
}

// The direct path and the exact one agree bit for bit on random elements of every format and kind the direct path
// takes (and the direct path declines the others).
TEST_CASE("decode: the direct path gives the exact path's bits", "[images][texel]") {
  std::mt19937_64 rng(20261123);
  const ConversionOptions modes[] = {{Denorm::Preserve, Denorm::Preserve}, {Denorm::Flush, Denorm::Flush}};
  const ColorKind kinds[] = {ColorKind::Float, ColorKind::Half, ColorKind::Int, ColorKind::Uint};
  unsigned direct = 0;
  for (const ImageFormat& f : allFormats()) {
    for (ColorKind kind : kinds) {
      if (!kindMatches(f.type, kind)) continue;
      for (const auto& o : modes) {
        for (int i = 0; i < 2000; ++i) {
          uint8_t element[16];
          for (auto& b : element) b = uint8_t(rng());
          if (i < 64 && f.type == T::Float) {  // specials: zeros, subnormals, infinities, NaNs
            const uint32_t specials[] = {0u, 0x80000000u, 1u, 0x807fffffu, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffbfffffu};
            for (unsigned ch = 0; ch < 4; ++ch) std::memcpy(element + 4 * ch, &specials[(i + ch) % 8], 4);
          }
          Color got;
          if (!decodeDirect(f, element, kind, o, got)) break;
          ++direct;
          REQUIRE(got == colorOf(decodeExact(f, element, o), kind, o));
        }
      }
    }
  }
  CHECK(direct > 100000);
  Color unused;
  uint8_t zero[16] = {};
  CHECK_FALSE(decodeDirect({O::RGBA, T::HalfFloat}, zero, ColorKind::Float, {}, unused));
  CHECK_FALSE(decodeDirect({O::sRGBA, T::UnormInt8}, zero, ColorKind::Float, {}, unused));
  CHECK_FALSE(decodeDirect({O::RGB, T::UnormShort565}, zero, ColorKind::Float, {}, unused));
  CHECK_FALSE(decodeDirect({O::RGBA, T::UnormInt8}, zero, ColorKind::Half, {}, unused));
}
