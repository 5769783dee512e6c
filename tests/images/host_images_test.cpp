// Checks of the host implementation itself (host_images.hpp) against values worked out by hand from the spec text and
// against the host's hardware conversions, so that the comparison tests stand on a checked oracle.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "numerics/format.hpp"
#include "tests/images/host_images.hpp"

using namespace clref;
using hostimg::Exact;
using hostimg::Rational;

namespace {

uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
float floatOf(uint32_t b) { return std::bit_cast<float>(b); }

Exact exactOfDouble(double d) {
  Exact e = Exact::of(Rational(d));
  e.negative = std::signbit(d);
  return e;
}

}  // namespace

TEST_CASE("roundToFloatBits rounds like the host's double → float conversion", "[images][host]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d)) continue;
    // Spread over float's range, its subnormals and beyond.
    int e = 0;
    d = std::ldexp(std::frexp(d, &e), int(rng() % 320) - 170);
    INFO(d);
    REQUIRE(hostimg::roundToFloatBits(exactOfDouble(d)) == bitsOf(static_cast<float>(d)));
  }
  CHECK(hostimg::roundToFloatBits(exactOfDouble(-0.0)) == 0x80000000u);
  CHECK(hostimg::roundToFloatBits(Exact::of(Rational(1, 3))) == bitsOf(1.0f / 3.0f));
  // Ties go to even: 1 + 2^-24 is halfway between 1 and 1 + 2^-23.
  CHECK(hostimg::roundToFloatBits(Exact::of(1 + Rational(1, 1 << 24))) == 0x3f800000u);
  CHECK(hostimg::roundToFloatBits(Exact::of(1 + Rational(3, 1 << 24))) == 0x3f800002u);
  // Toward zero stops below.
  CHECK(hostimg::roundToFloatBits(Exact::of(Rational(2, 3)), true) == 0x3f2aaaaau);
}

TEST_CASE("roundToHalfBits agrees with numerics::toHalf (MPFR-tested) and the float round trip is exact",
          "[images][host]") {
  std::mt19937_64 rng(8);
  for (int i = 0; i < 100000; ++i) {
    const float f =
        std::ldexp(float(rng() % (1u << 24)) / float(1u << 24), int(rng() % 50) - 30) * ((rng() & 1) ? 1 : -1);
    INFO(f);
    REQUIRE(hostimg::roundToHalfBits(exactOfDouble(f)) == numerics::toHalf(f).bits);
    REQUIRE(hostimg::roundToHalfBits(exactOfDouble(f), true) == numerics::toHalf(f, numerics::Rounding::RTZ).bits);
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const Exact e = hostimg::exactOfHalfBits(uint16_t(h));
    if (e.kind == Exact::Kind::NaN) continue;
    REQUIRE(hostimg::roundToHalfBits(e) == h);
    REQUIRE(hostimg::roundToFloatBits(e) == bitsOf(numerics::toFloat(numerics::Half{uint16_t(h)})));
  }
}

// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]].
TEST_CASE("sRGB conversions follow the formulas of the sRGB conversion rules", "[images][host]") {
  // [[conversion-rules-for-srgba-and-sbgra-images]]: the endpoints and the linear segment exactly, the power segment
  // within double's accuracy of std::pow.
  CHECK(hostimg::srgbToLinear(0) == 0);
  CHECK(hostimg::srgbToLinear(Rational(10, 255)) == Rational(10, 255) / Rational(1292, 100));
  for (int c = 11; c <= 255; ++c) {
    const double x = c / 255.0;
    const double expected = std::pow((x + 0.055) / 1.055, 2.4);
    CHECK(std::abs(hostimg::srgbToLinear(Rational(c, 255)).convert_to<double>() - expected) < 1e-15);
  }
  CHECK(std::abs(hostimg::srgbToLinear(1).convert_to<double>() - 1) < 1e-70);
  CHECK(std::abs(hostimg::linearToSrgb(Rational(1, 2)).convert_to<double>() - (1.055 * std::pow(0.5, 1 / 2.4) - 0.055)) < 1e-15);
}

// OpenCL C 3.0 §8.3 [[conversion-rules]].
TEST_CASE("decode maps channels and converts as the conversion rules say (hand-worked elements)", "[images][host]") {
  using images::ChannelOrder;
  using images::ChannelType;
  using images::ColorKind;
  const uint8_t bgra[4] = {0, 255, 51, 128};  // B G R A
  const auto c = hostimg::decode({ChannelOrder::BGRA, ChannelType::UnormInt8}, bgra, ColorKind::Float);
  CHECK(c.lanes[0] == bitsOf(0.2f));  // 51 / 255 = 0.2
  CHECK(c.lanes[1] == bitsOf(1.0f));
  CHECK(c.lanes[2] == 0);
  CHECK(c.lanes[3] == bitsOf(128.0f / 255.0f));  // float division is correctly rounded, so equal to the exact rounding
  // 565: R = 31, G = 0, B = 1 → (1, 0, 1/31, 1).
  const uint16_t w565 = (31u << 11) | 1u;
  uint8_t e565[2];
  std::memcpy(e565, &w565, 2);
  const auto p = hostimg::decode({ChannelOrder::RGB, ChannelType::UnormShort565}, e565, ColorKind::Float);
  CHECK(p.lanes[0] == bitsOf(1.0f));
  CHECK(p.lanes[2] == bitsOf(1.0f / 31.0f));
  CHECK(p.lanes[3] == bitsOf(1.0f));
  // SNORM: -128 and -127 both give -1; LUMINANCE replicates, alpha 1.
  const uint8_t sn = 0x80;
  const auto s = hostimg::decode({ChannelOrder::Luminance, ChannelType::SnormInt8}, &sn, ColorKind::Float);
  CHECK(s.lanes[0] == bitsOf(-1.0f));
  CHECK(s.lanes[2] == bitsOf(-1.0f));
  CHECK(s.lanes[3] == bitsOf(1.0f));
  // INTENSITY replicates into alpha too.
  const uint8_t in[2] = {0x00, 0x3c};  // half 1.0
  const auto i = hostimg::decode({ChannelOrder::Intensity, ChannelType::HalfFloat}, in, ColorKind::Float);
  CHECK(i.lanes[3] == bitsOf(1.0f));
  // CL_A: (0, 0, 0, a) for integers.
  const uint8_t a = 200;
  const auto u = hostimg::decode({ChannelOrder::A, ChannelType::UnsignedInt8}, &a, ColorKind::Uint);
  CHECK(u.lanes == std::array<uint32_t, 4>{0, 0, 0, 200});
}

// OpenCL C 3.0 §8.3.1.3 [[converting-floating-point-values-to-normalized-integer-channel-data-types]], OpenCL C 3.0
// §8.3.4 [[conversion-rules-for-signed-and-unsigned-8-bit-16-bit-and-32-bit-integer-channel-data-types]].
TEST_CASE("encode rounds to nearest even and saturates (float → normalized, integers, sRGB)", "[images][host]") {
  using images::ChannelOrder;
  using images::ChannelType;
  using images::ColorKind;
  auto unorm8 = [](float f) {
    uint8_t e = 0;
    hostimg::encode({ChannelOrder::R, ChannelType::UnormInt8}, images::Color{{bitsOf(f), 0, 0, 0}}, ColorKind::Float,
                    &e);
    return int(e);
  };
  CHECK(unorm8(0.5f) == 128);         // 127.5 → 128 (even)
  CHECK(unorm8(1.5f / 255.0f) == 2);  // 1.5 (after float rounding of the product) → 2
  CHECK(unorm8(2.5f / 255.0f) == 2);  // 2.5 → 2
  CHECK(unorm8(-1.0f) == 0);
  CHECK(unorm8(7.0f) == 255);
  CHECK(unorm8(floatOf(0x7fc00000u)) == 0);  // NaN → 0
  CHECK(unorm8(INFINITY) == 255);
  auto snorm8 = [](float f) {
    uint8_t e = 0;
    hostimg::encode({ChannelOrder::R, ChannelType::SnormInt8}, images::Color{{bitsOf(f), 0, 0, 0}}, ColorKind::Float,
                    &e);
    return int(int8_t(e));
  };
  CHECK(snorm8(-1.0f) == -127);
  CHECK(snorm8(-2.0f) == -128);  // convert_char_sat saturates at -128
  CHECK(snorm8(0.5f) == 64);     // 63.5 → 64
  uint8_t i8 = 0;
  hostimg::encode({ChannelOrder::R, ChannelType::SignedInt8}, images::Color{{uint32_t(-1000), 0, 0, 0}}, ColorKind::Int,
                  &i8);
  CHECK(int8_t(i8) == -128);
  uint8_t srgb[4] = {};
  hostimg::encode({ChannelOrder::sRGBA, ChannelType::UnormInt8},
                  images::Color{{bitsOf(0.5f), bitsOf(1.0f), bitsOf(0.001f), bitsOf(0.5f)}}, ColorKind::Float, srgb);
  CHECK(int(srgb[0]) == 188);  // 1.055 × 0.5^(1/2.4) − 0.055 = 0.73536 → 187.52 → 188
  CHECK(int(srgb[1]) == 255);
  CHECK(int(srgb[2]) == 3);    // 12.92 × 0.001 × 255 = 3.29 → 3
  CHECK(int(srgb[3]) == 128);  // alpha is linear: 127.5 → 128
}

// The host's CoordinatePrecision on the case test_image_streams reported (issue 40): normalized s = 0x1.b97c2ap-6 on a
// 167-wide image, CLK_FILTER_LINEAR. In binary32 s · 167 rounds to 4.5, u − 0.5 = 4, a = 0: texel 4 alone. Exactly,
// s · 167 = 4.5 − 77 · 2^-29 (24 × 8 significant bits, exact in binary64, and so are u − 0.5 and its fraction): i0 = 3,
// a = 1 − 77 · 2^-29, a blend of texels 3 and 4. OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]].
TEST_CASE("readSampled rounds the addressing steps to binary32 or keeps them exact", "[images][host]") {
  std::vector<float> texels(167);
  for (size_t x = 0; x < texels.size(); ++x) texels[x] = float(x) - 3.0f;  // texel 3 is 0, texel 4 is 1
  images::ImageView v;
  v.desc.type = images::ImageType::Image1D;
  v.desc.format = {images::ChannelOrder::R, images::ChannelType::Float};
  v.desc.width = texels.size();
  v.desc.rowPitch = v.desc.slicePitch = texels.size() * sizeof(float);
  v.data = reinterpret_cast<uint8_t*>(texels.data());
  v.bytes = v.desc.rowPitch;
  images::Sampler smp;
  smp.normalizedCoords = true;
  smp.filter = images::FilterMode::Linear;
  const float s = 0x1.b97c2ap-6f;
  REQUIRE(s * 167.0f == 4.5f);
  const double u = double(s) * 167.0, d = u - 0.5;
  REQUIRE(std::floor(d) == 3.0);
  const float exactValue = float(d - 3.0);  // (1 − a) · 0 + a · 1, rounded once
  REQUIRE(exactValue < 1.0f);
  images::Coord c;
  c.f = {s, 0, 0};
  for (auto am : {images::AddressingMode::ClampToEdge, images::AddressingMode::Clamp, images::AddressingMode::None,
                  images::AddressingMode::Repeat, images::AddressingMode::MirroredRepeat}) {
    smp.addressing = am;
    const auto b32 = hostimg::readSampled(v, smp, c, images::ColorKind::Float);  // the default: binary32
    const auto exact = hostimg::readSampled(v, smp, c, images::ColorKind::Float, 0, hostimg::CoordinatePrecision::Exact);
    REQUIRE(b32.undefined == images::Undefined::None);
    REQUIRE(exact.undefined == images::Undefined::None);
    CHECK(std::bit_cast<float>(b32.value.lanes[0]) == 1.0f);
    CHECK(std::bit_cast<float>(exact.value.lanes[0]) == exactValue);
  }
}
