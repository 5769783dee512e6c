// images/ samplers and reads: the sampler encodings, border colours, the undefined conditions and their choices, reads
// worked by hand from OpenCL C 3.0 §8 [[image-addressing-and-filtering]], mip level selection, writes, and the binary64
// fast path against the exact evaluation on random reads.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"
#include "images/verdict.hpp"
#include "numerics/choices.hpp"
#include "numerics/mpfr_round.hpp"

#include "test_image.hpp"

using namespace clref::images;
using clref::numerics::Format;
using clref::numerics::Rounding;

namespace {

using O = ChannelOrder;
using T = ChannelType;

using clref_test::TestImage;

Sampler sampler(bool normalized, AddressingMode a, FilterMode f) {
  Sampler s;
  s.normalizedCoords = normalized;
  s.addressing = a;
  s.filter = f;
  return s;
}

Coord fc(float x, float y = 0, float z = 0) {
  Coord c;
  c.f = {x, y, z};
  return c;
}

float lane0(const ReadResult& r) { return std::bit_cast<float>(r.value.lanes[0]); }
uint32_t fbits(float x) { return std::bit_cast<uint32_t>(x); }

// (Σ w_i c_i) / 255 rounded once to binary32 through MPFR (for the hand-worked filters).
float unorm8Weighted(std::initializer_list<std::pair<double, int>> terms) {
  clref::numerics::Mpfr sum(400), t(400);
  mpfr_set_zero(sum, 1);
  for (auto [w, c] : terms) {
    mpfr_set_d(t, w, MPFR_RNDN);  // the weights here are dyadic: exact
    mpfr_mul_si(t, t, c, MPFR_RNDN);
    mpfr_add(sum, sum, t, MPFR_RNDN);
  }
  mpfr_div_ui(sum, sum, 255, MPFR_RNDN);
  return std::bit_cast<float>(uint32_t(clref::numerics::roundToBits(sum, Format::Float, Rounding::RTE)));
}

using AM = AddressingMode;
using FM = FilterMode;

}  // namespace

TEST_CASE("samplers: the sampler_t bit-field and OpConstantSampler's operands", "[images][sampler]") {
  // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST = 1 | 6 | 0x10.
  CHECK(toBits(sampler(true, AM::Repeat, FM::Nearest)) == 0x17);
  CHECK(toBits(sampler(false, AM::None, FM::Linear)) == 0x20);
  CHECK(toBits(sampler(false, AM::MirroredRepeat, FM::Nearest)) == 0x18);
  CHECK(toBits(sampler(true, AM::Clamp, FM::Linear)) == 0x25);
  for (bool n : {false, true})
    for (auto a : {AM::None, AM::ClampToEdge, AM::Clamp, AM::Repeat, AM::MirroredRepeat})
      for (auto f : {FM::Nearest, FM::Linear}) {
        const Sampler s = sampler(n, a, f);
        Sampler back;
        REQUIRE(fromBits(toBits(s), back));
        CHECK(back == s);
        Sampler sp;
        REQUIRE(fromSpirv(uint32_t(a) - 0x1130, n, f == FM::Linear, sp));
        CHECK(sp == s);
      }
  Sampler out;
  CHECK_FALSE(fromBits(0x40, out));         // an unknown bit
  CHECK_FALSE(fromBits(0x0a | 0x10, out));  // addressing 5
  CHECK_FALSE(fromBits(0x30, out));         // both filters
  CHECK_FALSE(fromBits(0x01, out));         // no filter
  CHECK_FALSE(fromSpirv(5, 0, 0, out));
  CHECK_FALSE(fromSpirv(0, 2, 0, out));
  CHECK_FALSE(fromSpirv(0, 0, 2, out));
}

TEST_CASE("samplers: border colours per order", "[images][sampler]") {
  using A = std::array<float, 4>;
  for (auto o : {O::A, O::Intensity, O::Rx, O::RA, O::RGx, O::RGBx, O::sRGBx, O::ARGB, O::BGRA, O::ABGR, O::RGBA,
                 O::sRGBA, O::sBGRA})
    CHECK(borderColor(o) == A{0, 0, 0, 0});
  for (auto o : {O::R, O::RG, O::RGB, O::Luminance}) CHECK(borderColor(o) == A{0, 0, 0, 1});
  CHECK(borderColor(O::Depth)[0] == 0.0f);
}

TEST_CASE("samplers: every undefined condition names an image choice and its clause", "[images][sampler]") {
  CHECK(choiceOf(Undefined::None) == clref::numerics::Choice::Count);
  CHECK(clauseOf(Undefined::None).empty());
  for (auto u : {Undefined::AddressNoneOutOfRange, Undefined::SamplerlessOutOfRange, Undefined::LinearIntegerRead,
                 Undefined::UnnormalizedRepeat, Undefined::InfNanCoordinate, Undefined::InfNanTexelFiltered,
                 Undefined::WrongReadFunction, Undefined::WriteOutOfRange, Undefined::MipLevelOutOfRange,
                 Undefined::IntCoordSampler, Undefined::MipUnnormalized}) {
    const auto& info = clref::numerics::infoOf(choiceOf(u));
    CHECK(info.name.substr(0, 6) == "image_");
    CHECK(clauseOf(u) == info.clause);
    CHECK(!describe(u).empty());
    CHECK(info.options[1] == "fault");
  }
  const clref::numerics::Choices c;
  CHECK(c.get<clref::numerics::Choice::ImageWriteOutOfRange>() == clref::numerics::ImageWriteOutOfRangeOption::Ignore);
}

TEST_CASE("reads: bilinear at the centre of a 2x2 image", "[images][read]") {
  TestImage img(ImageType::Image2D, {O::RGBA, T::UnormInt8}, 2, 2);
  const uint8_t r[2][2] = {{0, 255}, {51, 102}};  // [y][x]
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) {
      uint8_t* e = img.at(x, y);
      e[0] = r[y][x];
      e[1] = uint8_t(3 * x + y);
      e[3] = 255;
    }
  // (s, t) = (0.5, 0.5): u = v = 1, u - 0.5 = 0.5, i0 = j0 = 0, a = b = 0.5: each texel weighs 1/4;
  // (0 + 255 + 51 + 102) / 4 / 255 = 0.4.
  for (auto mode : {AM::Clamp, AM::ClampToEdge, AM::None, AM::Repeat, AM::MirroredRepeat}) {
    auto res = readSampled(img.view, sampler(true, mode, FM::Linear), fc(0.5f, 0.5f), ColorKind::Float);
    CHECK(res.undefined == Undefined::None);
    CHECK(lane0(res) == 0.4f);
    CHECK(res.value.lanes[1] == fbits(unorm8Weighted({{0.25, 0}, {0.25, 3}, {0.25, 1}, {0.25, 4}})));
    CHECK(res.value.lanes[2] == 0);
    CHECK(res.value.lanes[3] == fbits(1.0f));
  }
  // read_imageh rounds the same exact value once to half: 0.4 → 0x3666.
  auto h = readSampled(img.view, sampler(true, AM::Clamp, FM::Linear), fc(0.5f, 0.5f), ColorKind::Half);
  CHECK(h.value.lanes[0] == 0x3666);
  // Unnormalized (1.25, 0.75): a = 0.75, b = 0.25.
  auto res = readSampled(img.view, sampler(false, AM::ClampToEdge, FM::Linear), fc(1.25f, 0.75f), ColorKind::Float);
  CHECK(lane0(res) == unorm8Weighted({{0.25 * 0.75, 0}, {0.75 * 0.75, 255}, {0.25 * 0.25, 51}, {0.75 * 0.25, 102}}));
}

TEST_CASE("reads: addressing modes on a 1D image, worked from the formulas", "[images][read]") {
  TestImage img(ImageType::Image1D, {O::R, T::UnormInt8}, 4);
  const uint8_t texels[4] = {255, 0, 0, 51};
  for (int x = 0; x < 4; ++x) img.setR8(x, 0, 0, texels[x]);
  auto read = [&](bool normalized, AM a, FM f, float s) {
    return readSampled(img.view, sampler(normalized, a, f), fc(s), ColorKind::Float);
  };
  // Unnormalized u = 0.25, linear: i0 = floor(-0.25) = -1, i1 = 0, a = 0.75.
  auto r = read(false, AM::Clamp, FM::Linear, 0.25f);  // i0 = -1 → border R = 0 (CL_R border (0, 0, 0, 1))
  CHECK(lane0(r) == 0.75f);
  CHECK(r.value.lanes[3] == fbits(1.0f));
  CHECK(lane0(read(false, AM::ClampToEdge, FM::Linear, 0.25f)) == 1.0f);  // i0 clamped to 0
  r = read(false, AM::None, FM::Linear, 0.25f);  // a coordinate inside the image: the outside texel is the border
  CHECK(lane0(r) == 0.75f);
  CHECK(r.undefined == Undefined::None);
  r = read(false, AM::None, FM::Linear, -0.25f);
  CHECK(r.undefined == Undefined::AddressNoneOutOfRange);
  CHECK(lane0(r) == 0.25f);  // i0 = -2, i1 = -1: both border... a = 0.25: 0.75 · 0 + 0.25 · 0
  // On a texel edge: u = 1.5 → a = 0 and T = texel 1 exactly; u = 1.0 nearest → texel 1; just below → texel 0.
  CHECK(lane0(read(false, AM::ClampToEdge, FM::Linear, 3.5f)) == unorm8Weighted({{1, 51}}));
  CHECK(lane0(read(false, AM::Clamp, FM::Nearest, 1.0f)) == 0.0f);
  CHECK(lane0(read(false, AM::Clamp, FM::Nearest, std::nextafter(1.0f, 0.0f))) == 1.0f);
  CHECK(lane0(read(false, AM::Clamp, FM::Nearest, 4.0f)) == 0.0f);  // i = 4: border
  CHECK(lane0(read(false, AM::Clamp, FM::Nearest, -0.0f)) == 1.0f);
  // REPEAT, linear, s = 0.0625: u = 0.25, i0 = -1 → 3, i1 = 0, a = 0.75: 0.25 · 51/255 + 0.75 = 204/255 = 0.8.
  CHECK(lane0(read(true, AM::Repeat, FM::Linear, 0.0625f)) == 0.8f);
  CHECK(lane0(read(true, AM::Repeat, FM::Linear, 1.0625f)) == 0.8f);
  CHECK(lane0(read(true, AM::Repeat, FM::Linear, -2.9375f)) == 0.8f);
  // REPEAT, nearest: s = -0.1f: s - floor(s) = 0.9 (about), u = 3.6 → 3; s = 1.0: u = 0 → 0.
  CHECK(lane0(read(true, AM::Repeat, FM::Nearest, -0.1f)) == 0.2f);
  CHECK(lane0(read(true, AM::Repeat, FM::Nearest, 1.0f)) == 1.0f);
  // MIRRORED_REPEAT, nearest: s = 1.25: s' = 2 rint(0.625) = 2, |1.25 - 2| = 0.75, u = 3 → texel 3;
  // s = 2.25: s' = 2 rint(1.125) = 2, u = 1 → texel 1; s = 1.0: s' = 2 rint(0.5) = 0 (ties to even), u = 4 → 3;
  // s = 3.0: s' = 2 rint(1.5) = 4, |3 - 4| = 1, u = 4 → 3.
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Nearest, 1.25f)) == 0.2f);
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Nearest, 2.25f)) == 0.0f);
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Nearest, 1.0f)) == 0.2f);
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Nearest, 3.0f)) == 0.2f);
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Nearest, -0.125f)) == 1.0f);  // |−0.125| · 4 = 0.5 → 0
  // MIRRORED_REPEAT, linear: s = 0.0625: u = 0.25, i0 = max(-1, 0) = 0, i1 = 0 → texel 0;
  // s = 0.9375: u = 3.75, i0 = 3, i1 = min(4, 3) = 3 → texel 3.
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Linear, 0.0625f)) == 1.0f);
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Linear, 0.9375f)) == 0.2f);
  // s = 0.3125: u = 1.25, i0 = 0, i1 = 1, a = 0.75: 0.25 · 1 + 0.75 · 0.
  CHECK(lane0(read(true, AM::MirroredRepeat, FM::Linear, 0.3125f)) == 0.25f);
  // REPEAT with unnormalized coordinates is undefined: read as CLAMP_TO_EDGE.
  r = read(false, AM::Repeat, FM::Nearest, 5.0f);
  CHECK(r.undefined == Undefined::UnnormalizedRepeat);
  CHECK(lane0(r) == 0.2f);
}

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: u = s · w_t (REPEAT: (s − floor(s)) · w_t), i = floor(u). The
// option exact of image_coordinate_precision evaluates these exactly; a binary32 evaluation (the default) rounds 6 ·
// 0x1.aaaaaap-1 up to 5.0 and 1 − 2^-25 up to 1.0, which is what the conformance suite's test_image_streams expects.
// The expected indices come from integer arithmetic on the coordinate's significand: 0x1.aaaaaap-1 = 0xD55555 / 2^24.
TEST_CASE("reads: image_coordinate_precision=exact unnormalizes coordinates exactly, not in binary32",
          "[images][read]") {
  clref::numerics::Choices exact;
  exact.set("image_coordinate_precision=exact");
  AccessOptions o;
  o.choices = &exact;
  TestImage img(ImageType::Image1D, {O::R, T::UnsignedInt8}, 6);
  for (int x = 0; x < 6; ++x) img.setR8(x, 0, 0, uint8_t(10 + x));
  const float s = 0x1.aaaaaap-1f;
  const int64_t exactIndex = (int64_t(0xD55555) * 6) >> 24;  // floor(6 · 0xD55555 / 2^24)
  REQUIRE(exactIndex == 4);
  REQUIRE(std::floor(s * 6.0f) == 5.0f);  // the binary32 product rounds up to 5
  for (AM a : {AM::ClampToEdge, AM::Clamp, AM::None}) {
    const auto r = readSampled(img.view, sampler(true, a, FM::Nearest), fc(s), ColorKind::Uint, {}, o);
    CHECK(r.value.lanes[0] == uint32_t(10 + exactIndex));
    // The default choices: the binary32 index.
    CHECK(readSampled(img.view, sampler(true, a, FM::Nearest), fc(s), ColorKind::Uint).value.lanes[0] == 15u);
  }
  // REPEAT on a 2-texel image, s = −2^-25: s − floor(s) = 1 − 2^-25 exactly, u = 2 − 2^-24, i = 1 (binary32: 1 − 2^-25
  // rounds to 1.0, u = 2, i = 2 − 2 = 0).
  TestImage two(ImageType::Image1D, {O::R, T::UnsignedInt8}, 2);
  two.setR8(0, 0, 0, 7);
  two.setR8(1, 0, 0, 9);
  REQUIRE(1.0f - 0x1p-25f == 1.0f);
  const auto r = readSampled(two.view, sampler(true, AM::Repeat, FM::Nearest), fc(-0x1p-25f), ColorKind::Uint, {}, o);
  CHECK(r.value.lanes[0] == 9u);
  CHECK(readSampled(two.view, sampler(true, AM::Repeat, FM::Nearest), fc(-0x1p-25f), ColorKind::Uint).value.lanes[0] ==
        7u);
}

TEST_CASE("reads: image arrays select the layer by rint, clamped", "[images][read]") {
  TestImage img(ImageType::Image2DArray, {O::R, T::UnormInt8}, 1, 1, 3);
  for (int l = 0; l < 3; ++l) img.setR8(0, 0, l, uint8_t(l));
  auto layerRead = [&](float w) {
    auto r = readSampled(img.view, sampler(true, AM::Clamp, FM::Linear), fc(0.5f, 0.5f, w), ColorKind::Float);
    return lane0(r) * 255.0f;
  };
  CHECK(layerRead(0.49f) == 0.0f);
  CHECK(layerRead(0.5f) == 0.0f);  // rint: ties to even
  CHECK(layerRead(1.5f) == 2.0f);
  CHECK(layerRead(2.5f) == 2.0f);
  CHECK(layerRead(-7.0f) == 0.0f);
  CHECK(layerRead(70.0f) == 2.0f);
  TestImage a1(ImageType::Image1DArray, {O::R, T::UnormInt8}, 2, 3);
  for (int l = 0; l < 3; ++l) {
    a1.at(0, l)[0] = uint8_t(10 * l);
    a1.at(1, l)[0] = uint8_t(10 * l + 5);
  }
  auto r = readSampled(a1.view, sampler(false, AM::Clamp, FM::Nearest), fc(1.2f, 1.6f), ColorKind::Float);
  CHECK(r.value.lanes[0] == fbits(unorm8Weighted({{1, 25}})));
  // Integer coordinates with a proper sampler.
  Coord ic;
  ic.isFloat = false;
  ic.i = {1, 2, 0};
  r = readSampled(a1.view, sampler(false, AM::ClampToEdge, FM::Nearest), ic, ColorKind::Float);
  CHECK(r.undefined == Undefined::None);
  CHECK(r.value.lanes[0] == fbits(unorm8Weighted({{1, 25}})));
  r = readSampled(a1.view, sampler(true, AM::ClampToEdge, FM::Nearest), ic, ColorKind::Float);
  CHECK(r.undefined == Undefined::IntCoordSampler);
}

TEST_CASE("reads: trilinear at the centre of a 2x2x2 image", "[images][read]") {
  TestImage img(ImageType::Image3D, {O::R, T::UnormInt16}, 2, 2, 2);
  int c = 1000;
  std::vector<std::pair<double, int>> terms;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) {
        const uint16_t v = uint16_t(c);
        std::memcpy(img.at(x, y, z), &v, 2);
        terms.push_back({0.125, c});
        c = (c * 7 + 13) % 65536;
      }
  auto r = readSampled(img.view, sampler(true, AM::Clamp, FM::Linear), fc(0.5f, 0.5f, 0.5f), ColorKind::Float);
  clref::numerics::Mpfr sum(300);
  mpfr_set_zero(sum, 1);
  for (auto [w, v] : terms) mpfr_add_d(sum, sum, w * v, MPFR_RNDN);
  mpfr_div_ui(sum, sum, 65535, MPFR_RNDN);
  CHECK(r.value.lanes[0] == uint32_t(clref::numerics::roundToBits(sum, Format::Float, Rounding::RTE)));
}

TEST_CASE("reads: sRGB texels are converted before filtering and the sum rounded once", "[images][read][srgb]") {
  TestImage img(ImageType::Image1D, {O::sRGBA, T::UnormInt8}, 2);
  const uint8_t n0 = 77, n1 = 200;
  img.at(0)[0] = n0;
  img.at(1)[0] = n1;
  img.at(0)[3] = 10;
  img.at(1)[3] = 20;
  auto r = readSampled(img.view, sampler(false, AM::Clamp, FM::Linear), fc(1.0f), ColorKind::Float);
  // 0.5 · L(77) + 0.5 · L(200), L(n) = ((n/255 + 0.055)/1.055)^2.4, at 300 bits.
  clref::numerics::Mpfr a(300), b(300), t(300);
  auto L = [&](clref::numerics::Mpfr& out, unsigned n) {
    mpfr_set_ui(out, n, MPFR_RNDN);
    mpfr_div_ui(out, out, 255, MPFR_RNDN);
    mpfr_set_str(t, "0.055", 10, MPFR_RNDN);
    mpfr_add(out, out, t, MPFR_RNDN);
    mpfr_set_str(t, "1.055", 10, MPFR_RNDN);
    mpfr_div(out, out, t, MPFR_RNDN);
    mpfr_set_str(t, "2.4", 10, MPFR_RNDN);
    mpfr_pow(out, out, t, MPFR_RNDN);
  };
  L(a, n0);
  L(b, n1);
  mpfr_add(a, a, b, MPFR_RNDN);
  mpfr_div_ui(a, a, 2, MPFR_RNDN);
  CHECK(r.value.lanes[0] == uint32_t(clref::numerics::roundToBits(a, Format::Float, Rounding::RTE)));
  CHECK(r.value.lanes[3] == fbits(unorm8Weighted({{0.5, 10}, {0.5, 20}})));  // alpha linear
  AccessOptions exact;
  exact.exactOnly = true;
  auto e = readSampled(img.view, sampler(false, AM::Clamp, FM::Linear), fc(1.0f), ColorKind::Float, {}, exact);
  CHECK(e.value == r.value);
}

TEST_CASE("reads: exact ties go to the exact path and round to even", "[images][read]") {
  TestImage img(ImageType::Image1D, {O::R, T::Float}, 2);
  const float one = 1.0f, next = std::nextafter(1.0f, 2.0f), next2 = std::nextafter(next, 2.0f);
  img.setFloat(0, 0, 0, one);
  img.setFloat(1, 0, 0, next);
  // (1 + (1 + 2^-23)) / 2 = 1 + 2^-24: a tie between 1 (even) and 1 + 2^-23.
  auto r = readSampled(img.view, sampler(false, AM::Clamp, FM::Linear), fc(1.0f), ColorKind::Float);
  CHECK(lane0(r) == 1.0f);
  img.setFloat(0, 0, 0, next);
  img.setFloat(1, 0, 0, next2);
  r = readSampled(img.view, sampler(false, AM::Clamp, FM::Linear), fc(1.0f), ColorKind::Float);
  CHECK(lane0(r) == next2);  // 1 + 1.5 · 2^-23: the even neighbour is 1 + 2^-22
  // Negative zeros: the formula over −0 texels gives −0; mixed signs +0.
  img.setFloat(0, 0, 0, -0.0f);
  img.setFloat(1, 0, 0, -0.0f);
  r = readSampled(img.view, sampler(false, AM::ClampToEdge, FM::Linear), fc(1.0f), ColorKind::Float);
  CHECK(r.value.lanes[0] == 0x80000000u);
  img.setFloat(1, 0, 0, 0.0f);
  r = readSampled(img.view, sampler(false, AM::ClampToEdge, FM::Linear), fc(1.0f), ColorKind::Float);
  CHECK(r.value.lanes[0] == 0);
  // Cancellation to an exact 0 is +0.
  img.setFloat(0, 0, 0, -3.0f);
  img.setFloat(1, 0, 0, 3.0f);
  r = readSampled(img.view, sampler(false, AM::ClampToEdge, FM::Linear), fc(1.0f), ColorKind::Float);
  CHECK(r.value.lanes[0] == 0);
}

TEST_CASE("reads: undefined conditions give their choice's default value", "[images][read]") {
  TestImage f(ImageType::Image1D, {O::R, T::Float}, 2);
  f.setFloat(0, 0, 0, INFINITY);
  f.setFloat(1, 0, 0, 2.0f);
  auto lin = sampler(false, AM::ClampToEdge, FM::Linear);
  auto r = readSampled(f.view, lin, fc(1.25f), ColorKind::Float);  // a = 0.75: both weights positive
  CHECK(r.undefined == Undefined::InfNanTexelFiltered);
  CHECK(lane0(r) == INFINITY);
  f.setFloat(0, 0, 0, 2.0f);
  f.setFloat(1, 0, 0, INFINITY);
  r = readSampled(f.view, lin, fc(0.5f), ColorKind::Float);  // a = 0: 1 · T0 + 0 · INF = NaN under IEEE 754
  CHECK(r.undefined == Undefined::InfNanTexelFiltered);
  CHECK(r.value.lanes[0] == 0x7fc00000u);
  f.setFloat(0, 0, 0, INFINITY);
  f.setFloat(1, 0, 0, -INFINITY);
  r = readSampled(f.view, lin, fc(1.25f), ColorKind::Float);
  CHECK(r.value.lanes[0] == 0x7fc00000u);
  // Nearest reads of INF are defined: the texel.
  r = readSampled(f.view, sampler(false, AM::ClampToEdge, FM::Nearest), fc(0.5f), ColorKind::Float);
  CHECK(r.undefined == Undefined::None);
  CHECK(lane0(r) == INFINITY);
  // INF / NaN coordinates: the border colour.
  r = readSampled(f.view, lin, fc(NAN), ColorKind::Float);
  CHECK(r.undefined == Undefined::InfNanCoordinate);
  CHECK(r.value == floatColor(0, 0, 0, 1));
  // The wrong read function: zero.
  r = readSampled(f.view, lin, fc(0.5f), ColorKind::Int);
  CHECK(r.undefined == Undefined::WrongReadFunction);
  CHECK(r.value == Color{});
  // read_imageui with a linear filter: nearest.
  TestImage u(ImageType::Image1D, {O::R, T::UnsignedInt16}, 2);
  const uint16_t v0 = 7, v1 = 9;
  std::memcpy(u.at(0), &v0, 2);
  std::memcpy(u.at(1), &v1, 2);
  r = readSampled(u.view, lin, fc(1.9f), ColorKind::Uint);
  CHECK(r.undefined == Undefined::LinearIntegerRead);
  CHECK(r.value.lanes == std::array<uint32_t, 4>{9, 0, 0, 1});
}

TEST_CASE("reads: sampler-less reads and writes", "[images][read][write]") {
  TestImage img(ImageType::Image2D, {O::RGBA, T::SignedInt16}, 3, 2, 1, 2);
  auto c = Color{{uint32_t(-5), 40000, 7, uint32_t(-40000)}};
  CHECK(write(img.view, {2, 1, 0}, c, ColorKind::Int) == Undefined::None);
  auto r = readSamplerless(img.view, {2, 1, 0}, ColorKind::Int);
  CHECK(r.undefined == Undefined::None);
  CHECK(r.value.lanes == std::array<uint32_t, 4>{uint32_t(-5), 32767, 7, uint32_t(-32768)});
  CHECK(readSamplerless(img.view, {3, 0, 0}, ColorKind::Int).undefined == Undefined::SamplerlessOutOfRange);
  r = readSamplerless(img.view, {0, -1, 0}, ColorKind::Int);
  CHECK(r.undefined == Undefined::SamplerlessOutOfRange);
  CHECK(r.value.lanes == std::array<uint32_t, 4>{0, 0, 0, 0});  // CL_RGBA's border
  CHECK(readSamplerless(img.view, {0, 0, 0}, ColorKind::Int, 2).undefined == Undefined::MipLevelOutOfRange);
  CHECK(readSamplerless(img.view, {0, 0, 0}, ColorKind::Float).undefined == Undefined::WrongReadFunction);
  // Writes outside the image, to a level it lacks, with the wrong function: nothing is written.
  const auto before = img.mem;
  CHECK(write(img.view, {3, 0, 0}, c, ColorKind::Int) == Undefined::WriteOutOfRange);
  CHECK(write(img.view, {-1, 0, 0}, c, ColorKind::Int) == Undefined::WriteOutOfRange);
  CHECK(write(img.view, {0, 0, 0}, c, ColorKind::Int, 2) == Undefined::MipLevelOutOfRange);
  CHECK(write(img.view, {0, 0, 0}, c, ColorKind::Uint) == Undefined::WrongReadFunction);
  CHECK(img.mem == before);
  // Level 1 is 1x1.
  CHECK(write(img.view, {0, 0, 0}, c, ColorKind::Int, 1) == Undefined::None);
  CHECK(write(img.view, {1, 0, 0}, c, ColorKind::Int, 1) == Undefined::WriteOutOfRange);
  CHECK(readSamplerless(img.view, {0, 0, 0}, ColorKind::Int, 1).value.lanes[1] == 32767);
  // Arrays: the layer coordinate must name a layer.
  TestImage arr(ImageType::Image2DArray, {O::R, T::Float}, 2, 2, 2);
  CHECK(write(arr.view, {1, 1, 1}, floatColor(3, 0, 0, 0), ColorKind::Float) == Undefined::None);
  CHECK(write(arr.view, {1, 1, 2}, floatColor(3, 0, 0, 0), ColorKind::Float) == Undefined::WriteOutOfRange);
  CHECK(lane0(readSamplerless(arr.view, {1, 1, 1}, ColorKind::Float)) == 3.0f);
  CHECK(readSamplerless(arr.view, {1, 1, 2}, ColorKind::Float).undefined == Undefined::SamplerlessOutOfRange);
}

TEST_CASE("reads: mip level selection from a lod and from gradients", "[images][read][mipmap]") {
  TestImage img(ImageType::Image2D, {O::R, T::Float}, 4, 4, 1, 3);
  for (uint32_t l = 0; l < 3; ++l) {
    const uint64_t n = 4u >> l;
    for (uint64_t y = 0; y < n; ++y)
      for (uint64_t x = 0; x < n; ++x) img.setFloat(x, y, 0, float(l + 1), l);
  }
  Sampler s = sampler(true, AM::ClampToEdge, FM::Nearest);
  auto at = [&](const Sampler& smp, float lodValue, ColorKind kind = ColorKind::Float) {
    LevelOfDetail lod;
    lod.kind = LevelOfDetail::Kind::Lod;
    lod.lod = lodValue;
    return readSampled(img.view, smp, fc(0.3f, 0.6f), kind, lod);
  };
  // Nearest mip filter: level ceil(lod + 0.5) − 1.
  CHECK(lane0(at(s, 0.4f)) == 1.0f);
  CHECK(lane0(at(s, 0.5f)) == 1.0f);
  CHECK(lane0(at(s, 0.6f)) == 2.0f);
  CHECK(lane0(at(s, 1.5f)) == 2.0f);
  CHECK(lane0(at(s, 1.75f)) == 3.0f);
  CHECK(lane0(at(s, 9.0f)) == 3.0f);   // clamped to levels − 1
  CHECK(lane0(at(s, -3.0f)) == 1.0f);  // clamped to 0
  Sampler capped = s;
  capped.lodMax = 1.0f;
  CHECK(lane0(at(capped, 9.0f)) == 2.0f);
  Sampler floor = s;
  floor.lodMin = 2.0f;
  CHECK(lane0(at(floor, 0.0f)) == 3.0f);
  // Linear mip filter: (1 − frac) · level floor + frac · the next.
  Sampler lin = s;
  lin.mipFilter = FM::Linear;
  CHECK(lane0(at(lin, 1.25f)) == 2.25f);
  CHECK(lane0(at(lin, 0.5f)) == 1.5f);
  CHECK(lane0(at(lin, 2.0f)) == 3.0f);
  // Reads without a lod use level 0.
  CHECK(lane0(readSampled(img.view, lin, fc(0.3f, 0.6f), ColorKind::Float)) == 1.0f);
  // Gradients: ρ = max(|dPdx · size|, |dPdy · size|) with level-0 sizes 4: dPdx = (0.25, 0) → ρ = 1, lod 0;
  // dPdx = (1, 0) → ρ = 4, lod 2; dPdy = (0.3, 0.4) → ρ = 2, lod 1.
  auto grad = [&](std::array<float, 3> dx, std::array<float, 3> dy) {
    LevelOfDetail lod;
    lod.kind = LevelOfDetail::Kind::Gradients;
    lod.dx = dx;
    lod.dy = dy;
    return lane0(readSampled(img.view, s, fc(0.3f, 0.6f), ColorKind::Float, lod));
  };
  CHECK(grad({0.25f, 0, 0}, {0, 0, 0}) == 1.0f);
  CHECK(grad({1.0f, 0, 0}, {0, 0, 0}) == 3.0f);
  CHECK(grad({0, 0, 0}, {0.3f, 0.4f, 0}) == 2.0f);
  // Unnormalized coordinates with a mipmapped read are undefined.
  CHECK(at(sampler(false, AM::ClampToEdge, FM::Nearest), 1.0f).undefined == Undefined::MipUnnormalized);
}

TEST_CASE("reads: the binary64 fast path equals the exact evaluation", "[images][read][fast]") {
  std::mt19937_64 rng(2024);
  const std::vector<ImageFormat> formats = {
      {O::RGBA, T::UnormInt8},      {O::R, T::UnormInt16},      {O::RG, T::SnormInt8},
      {O::RGBA, T::SnormInt16},     {O::RGBA, T::HalfFloat},    {O::R, T::Float},
      {O::sRGBA, T::UnormInt8},     {O::RGB, T::UnormShort565}, {O::RGBA, T::UnormInt101010_2},
      {O::Luminance, T::UnormInt8}, {O::BGRA, T::UnormInt8}};
  const ImageType types[] = {ImageType::Image1D, ImageType::Image1DArray, ImageType::Image2D, ImageType::Image2DArray,
                             ImageType::Image3D};
  const AM modes[] = {AM::None, AM::ClampToEdge, AM::Clamp, AM::Repeat, AM::MirroredRepeat};
  std::uniform_int_distribution<int> byte(0, 255);
  int compared = 0;
  for (const auto& f : formats)
    for (auto type : types) {
      const uint64_t w = 1 + rng() % 7, h = 1 + rng() % 5, d = 1 + rng() % 4;
      TestImage img(type, f, w, h, d, 1);
      for (auto& b : img.mem) b = uint8_t(byte(rng));
      if (f.type == T::Float)  // keep the floats finite: random exponents below the maximum
        for (size_t i = 0; i + 4 <= img.mem.size(); i += 4) img.mem[i + 3] &= 0x7e;
      if (f.type == T::HalfFloat)
        for (size_t i = 0; i + 2 <= img.mem.size(); i += 2) img.mem[i + 1] &= 0x7b;
      for (int n = 0; n < 300; ++n) {
        const bool normalized = rng() % 2;
        const AM mode = normalized ? modes[rng() % 5] : modes[rng() % 3];
        const Sampler smp = sampler(normalized, mode, rng() % 4 ? FM::Linear : FM::Nearest);
        Coord c;
        for (int k = 0; k < 3; ++k) {
          const double span = normalized ? 1.0 : double(k == 0 ? w : k == 1 ? h : d);
          switch (rng() % 4) {
            case 0:  // anywhere near the image
              c.f[k] = float((double(rng() % 100000) / 100000.0 * 1.6 - 0.3) * span);
              break;
            case 1:  // on a texel edge or centre
              c.f[k] = float(double(rng() % 40) / (normalized ? 2.0 * span : 2.0));
              break;
            case 2:  // one ulp next to one
              c.f[k] = std::nextafter(float(double(rng() % 40) / (normalized ? 2.0 * span : 2.0)),
                                      rng() % 2 ? 10.0f : -10.0f);
              break;
            default:  // tiny or far
              c.f[k] = rng() % 2 ? std::ldexp(1.0f, -int(rng() % 140)) : float(int64_t(rng() % 2000000) - 1000000);
          }
        }
        AccessOptions exact;
        exact.exactOnly = true;
        for (auto kind : {ColorKind::Float, ColorKind::Half}) {
          const auto fast = readSampled(img.view, smp, c, kind);
          const auto slow = readSampled(img.view, smp, c, kind, {}, exact);
          INFO(nameOf(f.order) << " " << nameOf(f.type) << " " << nameOf(type) << " coord " << c.f[0] << " " << c.f[1]
                               << " " << c.f[2] << " mode " << uint32_t(mode) << " n " << normalized);
          REQUIRE(fast.value == slow.value);
          REQUIRE(fast.undefined == slow.undefined);
          ++compared;
        }
      }
    }
  CHECK(compared == int(11 * 5 * 300 * 2));
}

TEST_CASE("reads: fast and exact paths agree when two mip levels are blended", "[images][read][fast][mipmap]") {
  std::mt19937_64 rng(77);
  for (const ImageFormat f : {ImageFormat{O::RGBA, T::UnormInt8}, ImageFormat{O::sBGRA, T::UnormInt8},
                              ImageFormat{O::RG, T::HalfFloat}}) {
    TestImage img(ImageType::Image2D, f, 8, 4, 1, 4);
    for (auto& b : img.mem) b = uint8_t(rng());
    if (f.type == T::HalfFloat)
      for (size_t i = 0; i + 2 <= img.mem.size(); i += 2) img.mem[i + 1] &= 0x7b;
    for (int n = 0; n < 2000; ++n) {
      Sampler smp = sampler(true, rng() % 2 ? AM::Repeat : AM::Clamp, rng() % 2 ? FM::Linear : FM::Nearest);
      smp.mipFilter = FM::Linear;
      LevelOfDetail lod;
      lod.kind = LevelOfDetail::Kind::Lod;
      lod.lod = float(double(rng() % 4000) / 1000.0 - 0.5);
      const Coord c = fc(float(double(rng() % 10000) / 7000.0 - 0.2), float(double(rng() % 10000) / 7000.0 - 0.2));
      AccessOptions exact;
      exact.exactOnly = true;
      for (auto kind : {ColorKind::Float, ColorKind::Half}) {
        const auto fast = readSampled(img.view, smp, c, kind, lod);
        const auto slow = readSampled(img.view, smp, c, kind, lod, exact);
        INFO(nameOf(f.order) << " lod " << lod.lod << " coord " << c.f[0] << " " << c.f[1]);
        REQUIRE(fast.value == slow.value);
        REQUIRE(fast.undefined == slow.undefined);
      }
    }
  }
}

// The choice image_coordinate_precision = binary32: each step of the OpenCL C 3.0 §8.2
// [[addressing-and-filter-modes]] formulas rounded to binary32 (the expected
// texels from plain float arithmetic on the host, as a float pipeline computes them).
TEST_CASE("reads: image_coordinate_precision=binary32 rounds each addressing step to binary32", "[images][read]") {
  clref::numerics::Choices choices;
  choices.set("image_coordinate_precision=binary32");
  for (bool exactOnly : {false, true}) {
    AccessOptions o;
    o.choices = &choices;
    o.exactOnly = exactOnly;
    TestImage img(ImageType::Image1D, {O::R, T::UnsignedInt8}, 6);
    for (int x = 0; x < 6; ++x) img.setR8(x, 0, 0, uint8_t(10 + x));
    const float s = 0x1.aaaaaap-1f;
    const float u = s * 6.0f;
    REQUIRE(std::floor(u) == 5.0f);
    for (AM a : {AM::ClampToEdge, AM::Clamp, AM::None}) {
      const auto r = readSampled(img.view, sampler(true, a, FM::Nearest), fc(s), ColorKind::Uint, {}, o);
      CHECK(r.value.lanes[0] == uint32_t(10 + int(std::floor(u))));
    }
    // Unnormalized nearest with CLAMP_TO_EDGE: no product, the same texel either way.
    CHECK(readSampled(img.view, sampler(false, AM::ClampToEdge, FM::Nearest), fc(4.99f), ColorKind::Uint, {}, o)
              .value.lanes[0] == 14u);
    // REPEAT, s = −2^-25: binary32 s − floor(s) = 1.0f, u = 2, i = 2 − 2 = 0.
    TestImage two(ImageType::Image1D, {O::R, T::UnsignedInt8}, 2);
    two.setR8(0, 0, 0, 7);
    two.setR8(1, 0, 0, 9);
    const float t = -0x1p-25f - std::floor(-0x1p-25f);
    REQUIRE(t * 2.0f == 2.0f);
    auto r = readSampled(two.view, sampler(true, AM::Repeat, FM::Nearest), fc(-0x1p-25f), ColorKind::Uint, {}, o);
    CHECK(r.value.lanes[0] == 7u);
    // MIRRORED_REPEAT, s = 1 + 2^-23: the binary32 steps s' = 2 rint(0.5 s), |s − s'|, times 6, as floats compute them.
    const float m = 1.0f + 0x1p-23f;
    const float mu = std::fabs(m - 2.0f * std::rint(0.5f * m)) * 6.0f;
    r = readSampled(img.view, sampler(true, AM::MirroredRepeat, FM::Nearest), fc(m), ColorKind::Uint, {}, o);
    CHECK(r.value.lanes[0] == uint32_t(10 + std::min(int(std::floor(mu)), 5)));
  }
}

TEST_CASE("reads: image_coordinate_precision=binary32 takes linear weights from the binary32 fraction",
          "[images][read]") {
  TestImage img(ImageType::Image1D, {O::R, T::UnormInt8}, 1000);
  for (int x = 0; x < 1000; ++x) img.setR8(x, 0, 0, x % 2 ? 255 : 0);
  const float s = 0.7f;
  // binary32: u = s · 1000, u − 0.5 and its fraction rounded to binary32.
  const float u32 = s * 1000.0f, d32 = u32 - 0.5f, a32 = d32 - std::floor(d32);
  // Exactly: s · 1000 has at most 34 significant bits, exact in binary64, and so are u − 0.5 and its fraction.
  const double u = double(s) * 1000.0, d = u - 0.5, a = d - std::floor(d);
  REQUIRE(std::floor(d) == 699.0);
  REQUIRE(std::floor(d32) == 699.0f);
  REQUIRE(double(a32) != a);
  const float expected32 = unorm8Weighted({{1 - double(a32), 255}, {double(a32), 0}});
  const float expectedExact = unorm8Weighted({{1 - a, 255}, {a, 0}});
  REQUIRE(expected32 != expectedExact);
  clref::numerics::Choices binary32, exact;
  binary32.set("image_coordinate_precision=binary32");
  exact.set("image_coordinate_precision=exact");
  for (bool exactOnly : {false, true}) {
    AccessOptions o;
    o.exactOnly = exactOnly;
    for (AM am : {AM::ClampToEdge, AM::Repeat, AM::MirroredRepeat}) {
      o.choices = &exact;
      auto r = readSampled(img.view, sampler(true, am, FM::Linear), fc(s), ColorKind::Float, {}, o);
      CHECK(r.value.lanes[0] == fbits(expectedExact));
      o.choices = &binary32;
      r = readSampled(img.view, sampler(true, am, FM::Linear), fc(s), ColorKind::Float, {}, o);
      CHECK(r.value.lanes[0] == fbits(expected32));
      o.choices = nullptr;  // the default is binary32
      r = readSampled(img.view, sampler(true, am, FM::Linear), fc(s), ColorKind::Float, {}, o);
      CHECK(r.value.lanes[0] == fbits(expected32));
    }
  }
}

TEST_CASE("verdict: values from either image_coordinate_precision option are allowed", "[images][read]") {
  TestImage img(ImageType::Image1D, {O::R, T::UnsignedInt8}, 6);
  for (int x = 0; x < 6; ++x) img.setR8(x, 0, 0, uint8_t(10 + x));
  const float s = 0x1.aaaaaap-1f;
  for (uint32_t texel : {14u, 15u}) {  // exact floor(6 s) = 4, binary32 floor(6 s) = 5
    Color observed;
    observed.lanes = {texel, 0, 0, 1};
    for (AM am : {AM::ClampToEdge, AM::Clamp, AM::None}) {
      const Sampler smp = sampler(true, am, FM::Nearest);
      const auto v = judgeRead(img.view, &smp, fc(s), ColorKind::Uint, {}, observed);
      CHECK(v.allowed);
    }
  }
  // A texel neither option gives is not.
  Color far;
  far.lanes = {12u, 0, 0, 1};
  const Sampler smp = sampler(true, AM::ClampToEdge, FM::Nearest);
  CHECK_FALSE(judgeRead(img.view, &smp, fc(s), ColorKind::Uint, {}, far).allowed);
  // Linear: the binary32 and the exact filtered values of the case above are both allowed.
  TestImage wide(ImageType::Image1D, {O::R, T::UnormInt8}, 1000);
  for (int x = 0; x < 1000; ++x) wide.setR8(x, 0, 0, x % 2 ? 255 : 0);
  clref::numerics::Choices binary32, exact;
  binary32.set("image_coordinate_precision=binary32");
  exact.set("image_coordinate_precision=exact");
  AccessOptions o, oExact;
  o.choices = &binary32;
  oExact.choices = &exact;
  const Sampler lin = sampler(true, AM::ClampToEdge, FM::Linear);
  const Color v32 = readSampled(wide.view, lin, fc(0.7f), ColorKind::Float, {}, o).value;
  const Color vExact = readSampled(wide.view, lin, fc(0.7f), ColorKind::Float, {}, oExact).value;
  REQUIRE(v32 != vExact);
  CHECK(judgeRead(wide.view, &lin, fc(0.7f), ColorKind::Float, {}, v32).allowed);
  CHECK(judgeRead(wide.view, &lin, fc(0.7f), ColorKind::Float, {}, vExact).allowed);
}
