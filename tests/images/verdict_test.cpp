// images::judgeRead / judgeWrite against verdicts worked out independently: the exact values come from the host
// implementation (host_images.hpp) or by hand, the allowed sets from the clauses the verdict cites (1.5 ulp of the
// exact normalized value, exact endpoints, the 0.6 write allowance, the sRGB 0.5 and 0.6 bounds, the texel boundary
// rule documented in images/verdict.cpp).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "images/verdict.hpp"
#include "tests/images/host_images.hpp"
#include "tests/images/vs_host_support.hpp"

using namespace clref;
using images::AddressingMode;
using images::ChannelOrder;
using images::ChannelType;
using images::Color;
using images::ColorKind;
using images::FilterMode;
using images::ImageFormat;
using images::ImageType;

namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float up(float f, int steps = 1) {
  for (int i = 0; i < steps; ++i) f = std::nextafter(f, INFINITY);
  return f;
}
float down(float f, int steps = 1) {
  for (int i = 0; i < steps; ++i) f = std::nextafter(f, -INFINITY);
  return f;
}
Color rgba(float r, float g, float b, float a) { return Color{{bits(r), bits(g), bits(b), bits(a)}}; }
// The exact value c / M rounded once to float by the host implementation.
float exactNormalized(long c, long m) {
  return std::bit_cast<float>(hostimg::roundToFloatBits(hostimg::Exact::of(hostimg::Rational(c, m))));
}

struct Img {
  std::vector<uint8_t> bytes;
  images::ImageView view;
};

// A tightly packed image with the given element bytes.
Img image(ImageType type, ImageFormat f, uint64_t w, uint64_t h, std::vector<uint8_t> bytes) {
  Img i;
  images::ImageDesc d;
  d.type = type;
  d.format = f;
  d.width = w;
  if (type == ImageType::Image2D) d.height = h;
  d = images::makeDesc(d);
  i.bytes = std::move(bytes);
  i.bytes.resize(images::storageBytes(d));
  i.view.desc = d;
  i.view.data = i.bytes.data();
  i.view.bytes = i.bytes.size();
  return i;
}

images::ImageVerdict writeVerdict(ImageFormat f, const Color& c, ColorKind k, std::vector<uint8_t> element,
                                  bool flush = true) {
  images::VerdictOptions o;
  o.flushToZeroAllowed = flush;
  return images::judgeWrite(f, c, k, element.data(), o);
}

const ImageFormat kR8{ChannelOrder::R, ChannelType::UnormInt8};
const ImageFormat kRGBA8{ChannelOrder::RGBA, ChannelType::UnormInt8};

}  // namespace

TEST_CASE("judgeWrite: float → UNORM_INT8 allows round to nearest even and other roundings within 0.6",
          "[images][verdict]") {
  // 0.5 × 255 = 127.5: 128 is preferred (even), 127 is 0.5 away.
  CHECK(writeVerdict(kR8, rgba(0.5f, 0, 0, 0), ColorKind::Float, {128}).allowed);
  CHECK(writeVerdict(kR8, rgba(0.5f, 0, 0, 0), ColorKind::Float, {127}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(0.5f, 0, 0, 0), ColorKind::Float, {126}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(0.5f, 0, 0, 0), ColorKind::Float, {129}).allowed);
  // 0.2f × 255 = 51.0000007...: only 51.
  CHECK(writeVerdict(kR8, rgba(0.2f, 0, 0, 0), ColorKind::Float, {51}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(0.2f, 0, 0, 0), ColorKind::Float, {52}).allowed);
  // 100.45 / 255: 100 (0.45 away) and 101 (0.55 away) both within 0.6; 100.3 / 255: 101 is 0.7 away.
  CHECK(writeVerdict(kR8, rgba(float(100.45 / 255), 0, 0, 0), ColorKind::Float, {101}).allowed);
  CHECK(writeVerdict(kR8, rgba(float(100.45 / 255), 0, 0, 0), ColorKind::Float, {100}).allowed);
  CHECK(writeVerdict(kR8, rgba(float(100.3 / 255), 0, 0, 0), ColorKind::Float, {100}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(float(100.3 / 255), 0, 0, 0), ColorKind::Float, {101}).allowed);
  // Out of range saturates: 2.0 → 255 only; NaN → 0.
  CHECK(writeVerdict(kR8, rgba(2.0f, 0, 0, 0), ColorKind::Float, {255}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(2.0f, 0, 0, 0), ColorKind::Float, {254}).allowed);
  CHECK(writeVerdict(kR8, rgba(NAN, 0, 0, 0), ColorKind::Float, {0}).allowed);
  CHECK_FALSE(writeVerdict(kR8, rgba(NAN, 0, 0, 0), ColorKind::Float, {255}).allowed);
  const auto v = writeVerdict(kR8, rgba(0.5f, 0, 0, 0), ColorKind::Float, {127});
  CHECK(v.lo[0] == 127);
  CHECK(v.hi[0] == 128);
  CHECK(v.clause.find("[[converting-floating-point-values-to-normalized-integer-channel-data-types]]") !=
        std::string::npos);
}

TEST_CASE("judgeWrite: SNORM saturates to -128 (convert_char_sat), so -127 is 1 away", "[images][verdict]") {
  const ImageFormat f{ChannelOrder::R, ChannelType::SnormInt8};
  CHECK(writeVerdict(f, rgba(-1.5f, 0, 0, 0), ColorKind::Float, {0x80}).allowed);
  CHECK_FALSE(writeVerdict(f, rgba(-1.5f, 0, 0, 0), ColorKind::Float, {0x81}).allowed);
  CHECK(writeVerdict(f, rgba(-1.0f, 0, 0, 0), ColorKind::Float, {0x81}).allowed);  // -127
}

TEST_CASE("judgeWrite: every channel of RGBA is judged in its lane", "[images][verdict]") {
  CHECK(writeVerdict(kRGBA8, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {0, 255, 128, 51}).allowed);
  CHECK(writeVerdict(kRGBA8, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {0, 255, 127, 51}).allowed);
  CHECK_FALSE(writeVerdict(kRGBA8, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {0, 255, 128, 50}).allowed);
  CHECK_FALSE(writeVerdict(kRGBA8, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {1, 255, 128, 51}).allowed);
  // BGRA stores blue first.
  const ImageFormat bgra{ChannelOrder::BGRA, ChannelType::UnormInt8};
  CHECK(writeVerdict(bgra, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {128, 255, 0, 51}).allowed);
  CHECK_FALSE(writeVerdict(bgra, rgba(0, 1, 0.5f, 0.2f), ColorKind::Float, {0, 255, 128, 51}).allowed);
}

TEST_CASE("judgeWrite: half channels round to nearest even or toward zero, float channels keep the value",
          "[images][verdict]") {
  const ImageFormat h{ChannelOrder::R, ChannelType::HalfFloat};
  // 1 + 0.75 × 2^-10: nearest is 1 + 2^-10 (0x3c01), toward zero 1.0 (0x3c00); 0x3c02 is neither.
  const float x = 1.0f + 0.75f * 0x1p-10f;
  CHECK(writeVerdict(h, rgba(x, 0, 0, 0), ColorKind::Float, {0x01, 0x3c}).allowed);
  CHECK(writeVerdict(h, rgba(x, 0, 0, 0), ColorKind::Float, {0x00, 0x3c}).allowed);
  CHECK_FALSE(writeVerdict(h, rgba(x, 0, 0, 0), ColorKind::Float, {0x02, 0x3c}).allowed);
  // NaN: any NaN.
  CHECK(writeVerdict(h, rgba(NAN, 0, 0, 0), ColorKind::Float, {0x01, 0x7e}).allowed);
  CHECK_FALSE(writeVerdict(h, rgba(NAN, 0, 0, 0), ColorKind::Float, {0x00, 0x7c}).allowed);
  const ImageFormat f{ChannelOrder::R, ChannelType::Float};
  auto le = [](uint32_t v) {
    return std::vector<uint8_t>{uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  };
  CHECK(writeVerdict(f, rgba(0.1f, 0, 0, 0), ColorKind::Float, le(bits(0.1f))).allowed);
  CHECK_FALSE(writeVerdict(f, rgba(0.1f, 0, 0, 0), ColorKind::Float, le(bits(up(0.1f)))).allowed);
  // A subnormal may be flushed when the device may flush.
  CHECK(writeVerdict(f, rgba(1e-40f, 0, 0, 0), ColorKind::Float, le(0)).allowed);
  CHECK_FALSE(writeVerdict(f, rgba(1e-40f, 0, 0, 0), ColorKind::Float, le(0), false).allowed);
  CHECK(writeVerdict(f, rgba(NAN, 0, 0, 0), ColorKind::Float, le(0xffc00001u)).allowed);
}

TEST_CASE("judgeWrite: integers saturate exactly, sRGB allows 0.6 around 255 × linear_to_srgb", "[images][verdict]") {
  const ImageFormat i8{ChannelOrder::R, ChannelType::SignedInt8};
  CHECK(writeVerdict(i8, Color{{1000, 0, 0, 0}}, ColorKind::Int, {127}).allowed);
  CHECK_FALSE(writeVerdict(i8, Color{{1000, 0, 0, 0}}, ColorKind::Int, {126}).allowed);
  CHECK(writeVerdict(i8, Color{{uint32_t(-1000), 0, 0, 0}}, ColorKind::Int, {0x80}).allowed);
  // 255 × (1.055 × 0.5^(1/2.4) − 0.055) = 187.52: 188 and 187 (0.52 away) allowed, 189 not; alpha is linear.
  const ImageFormat s{ChannelOrder::sRGBA, ChannelType::UnormInt8};
  CHECK(writeVerdict(s, rgba(0.5f, 0, 1, 0.5f), ColorKind::Float, {188, 0, 255, 128}).allowed);
  CHECK(writeVerdict(s, rgba(0.5f, 0, 1, 0.5f), ColorKind::Float, {187, 0, 255, 128}).allowed);
  CHECK_FALSE(writeVerdict(s, rgba(0.5f, 0, 1, 0.5f), ColorKind::Float, {189, 0, 255, 128}).allowed);
  CHECK_FALSE(writeVerdict(s, rgba(0.5f, 0, 1, 0.5f), ColorKind::Float, {188, 0, 255, 126}).allowed);
}

TEST_CASE("judgeRead: a normalized texel allows 1.5 ulp around c / M, the endpoints exactly", "[images][verdict]") {
  const Img img = image(ImageType::Image1D, kR8, 4, 1, {100, 255, 0, 1});
  images::Coord c;
  c.isFloat = false;
  auto judge = [&](int x, float value) {
    c.i = {x, 0, 0};
    return images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(value, 0, 0, 1));
  };
  const float r = exactNormalized(100, 255);  // 100 / 255 = 0.392156..., not a midpoint
  CHECK(judge(0, r).allowed);
  CHECK(judge(0, up(r)).allowed);
  CHECK(judge(0, down(r)).allowed);
  CHECK_FALSE(judge(0, up(r, 2)).allowed);
  CHECK_FALSE(judge(0, down(r, 2)).allowed);
  CHECK(judge(0, r).bounded);
  CHECK(judge(0, r).reference == rgba(r, 0, 0, 1));
  CHECK(judge(1, 1.0f).allowed);
  CHECK_FALSE(judge(1, down(1.0f)).allowed);
  CHECK(judge(2, 0.0f).allowed);
  CHECK_FALSE(judge(2, 1e-45f).allowed);
  // The alpha lane of CL_R is the default 1, exactly.
  c.i = {0, 0, 0};
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(r, 0, 0, down(1.0f))).allowed);
  const float one = exactNormalized(1, 255);
  CHECK(judge(3, up(one)).allowed);
  CHECK_FALSE(judge(3, up(one, 2)).allowed);
  const auto v = judge(0, r);
  CHECK(v.lo[0] == double(down(r)));
  CHECK(v.hi[0] == double(up(r)));
}

TEST_CASE("judgeRead: SNORM -128 and -127 read as -1 exactly", "[images][verdict]") {
  const Img img = image(ImageType::Image1D, {ChannelOrder::R, ChannelType::SnormInt8}, 2, 1, {0x80, 0x81});
  images::Coord c;
  c.isFloat = false;
  for (int x : {0, 1}) {
    c.i = {x, 0, 0};
    CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(-1, 0, 0, 1)).allowed);
    CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(up(-1.0f), 0, 0, 1)).allowed);
  }
}

TEST_CASE("judgeRead: at a texel boundary with normalized coordinates the neighbouring texel is allowed",
          "[images][verdict]") {
  // Texels 10, 50, 90, 130 (R8); width 4.
  const Img img = image(ImageType::Image1D, kR8, 4, 1, {10, 50, 90, 130});
  auto value = [](int code) { return rgba(exactNormalized(code, 255), 0, 0, 1); };
  images::Sampler s;
  s.normalizedCoords = true;
  s.addressing = AddressingMode::ClampToEdge;
  s.filter = FilterMode::Nearest;
  images::Coord c;
  c.f = {0.5f, 0, 0};  // u = 2 exactly: texel 2 by the formula, texel 1 one float step below
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(90)).allowed);
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(50)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(130)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(10)).allowed);
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(90)).candidates.size() == 2);
  // Inside a texel (u = 1.5): one candidate.
  c.f = {0.375f, 0, 0};
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(50)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(90)).allowed);
  // Unnormalized nearest with CLAMP is exact (OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE): u = 2 selects
  // texel 2 only.
  s.normalizedCoords = false;
  s.addressing = AddressingMode::Clamp;
  c.f = {2.0f, 0, 0};
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(90)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(50)).allowed);
  // CLAMP at the right edge with normalized 1.0: u = 4 is the border colour (0, 0, 0, 1 for CL_R), one step below
  // is texel 3.
  s.normalizedCoords = true;
  c.f = {1.0f, 0, 0};
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, rgba(0, 0, 0, 1)).allowed);
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(130)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(90)).allowed);
  // REPEAT at s = 1.0: u = 0 (texel 0); one step below wraps to texel 3? No: u = (s - floor(s)) × 4 = 0 exactly and a
  // rounded product keeps its sign, so texel 0 only.
  s.addressing = AddressingMode::Repeat;
  CHECK(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(10)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, c, ColorKind::Float, {}, value(130)).allowed);
}

// ---------------------------------------------------------------------------------------------
// Linear filtering: a weighted average of the footprint texels (the rule at the top of images/verdict.cpp). The
// expected intervals are worked out here from the test's own texels: a normalized texel's allowed floats are found by
// stepping from the nearest float while |f − c / 255| <= 1.5 ulp (exact rationals), then the hull is widened by taps
// ulps at its largest magnitude.

namespace {

// An image of any type from its desc, zero-filled; texels set through hostimg::elementOffset.
Img imageOf(images::ImageDesc d) {
  Img i;
  d = images::makeDesc(d);
  i.bytes.assign(images::storageBytes(d), 0);
  i.view.desc = d;
  i.view.data = i.bytes.data();
  i.view.bytes = i.bytes.size();
  return i;
}

void setFloats(Img& img, std::array<int32_t, 3> at, std::vector<float> channels) {
  std::memcpy(img.bytes.data() + hostimg::elementOffset(img.view, at, 0), channels.data(), channels.size() * 4);
}

// ulp of a float-format (p = 24) or half-format (p = 11) value m: the spacing in m's binade.
double ulpOf(double m, int p = 24) {
  int e = 0;
  std::frexp(std::fabs(m), &e);
  return std::ldexp(1.0, e - p);
}

// The least and greatest float within 1.5 ulp of c / 255 (0 and 255: exactly 0 and 1).
bool withinNormalized(float f, long c) {
  const hostimg::Rational x(c, 255);
  hostimg::Rational d = hostimg::Rational(double(f)) - x;
  if (d < 0) d = -d;
  return d <= hostimg::Rational(3, 2) * hostimg::Rational(ulpOf(double(x.convert_to<double>())));
}
double texelLo(long c) {
  if (c == 0 || c == 255) return c / 255;
  float f = exactNormalized(c, 255);
  while (withinNormalized(down(f), c)) f = down(f);
  return f;
}
double texelHi(long c) {
  if (c == 0 || c == 255) return c / 255;
  float f = exactNormalized(c, 255);
  while (withinNormalized(up(f), c)) f = up(f);
  return f;
}

struct Interval {
  double lo, hi;
};
// [lo, hi] widened by `taps` ulps (p-bit format) at its largest magnitude, not across zero (weights >= 0 keep the
// sign texels share).
Interval widened(double lo, double hi, unsigned taps, int p = 24) {
  const double m = std::max(std::fabs(lo), std::fabs(hi));
  const double d = m == 0 ? 0 : taps * ulpOf(m, p);
  return {lo >= 0 ? std::max(lo - d, 0.0) : lo - d, hi <= 0 ? std::min(hi + d, 0.0) : hi + d};
}

// A 4x4 CL_RGBA / CL_UNORM_INT8 image: texel (x, y) has R = 16 (x + 4 y) + 8, G = 255 − R, B = 0, A = 255.
long codeR(int x, int y) { return 16 * (x + 4 * y) + 8; }
Img rgba8Grid() {
  images::ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = kRGBA8;
  d.width = d.height = 4;
  Img img = imageOf(d);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      uint8_t* e = img.bytes.data() + hostimg::elementOffset(img.view, {x, y, 0}, 0);
      e[0] = uint8_t(codeR(x, y));
      e[1] = uint8_t(255 - codeR(x, y));
      e[2] = 0;
      e[3] = 255;
    }
  return img;
}

images::Sampler linearSampler(bool normalized, AddressingMode am) {
  images::Sampler s;
  s.normalizedCoords = normalized;
  s.addressing = am;
  s.filter = FilterMode::Linear;
  return s;
}

images::Coord at(float x, float y = 0, float z = 0) {
  images::Coord c;
  c.f = {x, y, z};
  return c;
}

// The R interval a footprint of R8 codes allows, widened by taps ulps.
Interval codesInterval(std::vector<long> codes, unsigned taps) {
  double lo = INFINITY, hi = -INFINITY;
  for (long c : codes) {
    lo = std::min(lo, texelLo(c));
    hi = std::max(hi, texelHi(c));
  }
  return widened(lo, hi, taps);
}

}  // namespace

TEST_CASE("judgeRead: linear filtering of UNORM_INT8 allows the footprint texels' hull, widened by 4 ulp",
          "[images][verdict][linear]") {
  const Img img = rgba8Grid();
  const float farR = exactNormalized(codeR(3, 3), 255);  // a texel in no footprint below
  struct Case {
    const char* what;
    images::Sampler s;
    images::Coord c;
    std::vector<long> codes;  // the R codes of the footprint (with 0 for the border colour)
  };
  // (0.3, 0.45) normalized: u = 1.2, v = 1.8, i0 = floor(0.7) = 0, j0 = floor(1.3) = 1: texels x {0, 1}, y {1, 2}.
  // Unnormalized (1.2, 1.8) is the same footprint. REPEAT at s = 0.05: u = 0.2, i0 = floor(-0.3) = -1 wraps to 3,
  // i1 = 0. MIRRORED_REPEAT at s = 1.05: s' = 2 rint(0.525) = 2, u = |1.05 - 2| x 4 = 3.8, i0 = 3, i1 = min(4, 3) = 3.
  // CLAMP at s = 0.05: i0 = -1 is the border colour (0, 0, 0, 0), i1 = 0.
  const std::vector<Case> cases = {
      {"clamp_to_edge normalized", linearSampler(true, AddressingMode::ClampToEdge), at(0.3f, 0.45f),
       {codeR(0, 1), codeR(1, 1), codeR(0, 2), codeR(1, 2)}},
      {"clamp_to_edge unnormalized", linearSampler(false, AddressingMode::ClampToEdge), at(1.2f, 1.8f),
       {codeR(0, 1), codeR(1, 1), codeR(0, 2), codeR(1, 2)}},
      {"repeat", linearSampler(true, AddressingMode::Repeat), at(0.05f, 0.45f),
       {codeR(3, 1), codeR(0, 1), codeR(3, 2), codeR(0, 2)}},
      {"mirrored_repeat", linearSampler(true, AddressingMode::MirroredRepeat), at(1.05f, 0.45f),
       {codeR(3, 1), codeR(3, 2)}},
      {"clamp, border in the footprint", linearSampler(true, AddressingMode::Clamp), at(0.05f, 0.45f),
       {0, codeR(0, 1), codeR(0, 2)}},
  };
  for (const Case& k : cases) {
    INFO(k.what);
    const Interval r = codesInterval(k.codes, 4);
    const auto ref = images::judgeRead(img.view, &k.s, k.c, ColorKind::Float, {}, Color{});
    REQUIRE(ref.bounded);
    const float own = std::bit_cast<float>(ref.reference.lanes[0]);
    auto judge = [&](float red) {
      Color c = ref.reference;
      c.lanes[0] = bits(red);
      return images::judgeRead(img.view, &k.s, k.c, ColorKind::Float, {}, c);
    };
    CHECK(judge(own).allowed);
    const auto v = judge(own);
    CHECK(v.bounded);
    CHECK(v.rule.find("weighted average") != std::string::npos);
    CHECK(v.rule.find("±4 ulp") != std::string::npos);
    CHECK(v.clause.find("[[addressing-and-filter-modes]] NOTE") != std::string::npos);
    CHECK(v.clause.find("[[converting-normalized-integer-channel-data-types-to-floating-point-values]]") !=
          std::string::npos);
    CHECK(v.note.find("over 1 candidate footprint (") != std::string::npos);
    CHECK(v.note.find("image_filter_precision") != std::string::npos);
    if (r.lo > 0) {
      CHECK(v.lo[0] == r.lo);
      CHECK(judge(float(r.lo)).allowed);
      CHECK_FALSE(judge(down(float(r.lo))).allowed);
      CHECK_FALSE(judge(0.0f).allowed);  // the footprint is all positive
    } else {
      // The border's 0 is in the footprint: a zero of either sign, and nothing below.
      CHECK(std::signbit(v.lo[0]));
      CHECK(v.lo[0] == 0);
      CHECK(judge(0.0f).allowed);
      CHECK(judge(-0.0f).allowed);
      CHECK_FALSE(judge(-1e-45f).allowed);
    }
    CHECK(v.hi[0] == r.hi);
    CHECK(judge(float(r.hi)).allowed);
    CHECK_FALSE(judge(up(float(r.hi))).allowed);
    CHECK_FALSE(judge(farR).allowed);
  }
}

TEST_CASE("judgeRead: linear filtering of CL_FLOAT allows the hull of the stored values, widened by 4 ulp",
          "[images][verdict][linear]") {
  // 4x4 CL_RGBA / CL_FLOAT: texel (x, y) = (1 + x + 4 y, -(1 + x + 4 y), 0.5 (1 + x + 4 y), 1).
  images::ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = {ChannelOrder::RGBA, ChannelType::Float};
  d.width = d.height = 4;
  Img img = imageOf(d);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const float t = float(1 + x + 4 * y);
      setFloats(img, {x, y, 0}, {t, -t, 0.5f * t, 1});
    }
  for (bool normalized : {true, false}) {
    INFO("normalized " << normalized);
    // Footprint x {0, 1}, y {1, 2} as above: R values 5, 6, 9, 10.
    const images::Sampler s = linearSampler(normalized, AddressingMode::ClampToEdge);
    const images::Coord c = normalized ? at(0.3f, 0.45f) : at(1.2f, 1.8f);
    const auto v = images::judgeRead(img.view, &s, c, ColorKind::Float, {}, Color{});
    const Interval r = widened(5, 10, 4), g = widened(-10, -5, 4), b = widened(2.5, 5, 4);
    CHECK(r.lo == 5 - 4 * 0x1p-20);
    CHECK(v.lo[0] == r.lo);
    CHECK(v.hi[0] == r.hi);
    CHECK(v.lo[1] == g.lo);
    CHECK(v.hi[1] == g.hi);
    CHECK(v.lo[2] == b.lo);
    CHECK(v.hi[2] == b.hi);
    CHECK(v.lo[3] == widened(1, 1, 4).lo);  // all alphas 1: the weights' sum may still miss 1
    CHECK(v.hi[3] == 1 + 4 * 0x1p-23);
    auto judge = [&](float red, float green) {
      Color o = v.reference;
      o.lanes[0] = bits(red);
      o.lanes[1] = bits(green);
      return images::judgeRead(img.view, &s, c, ColorKind::Float, {}, o).allowed;
    };
    const float own = std::bit_cast<float>(v.reference.lanes[0]);
    CHECK(judge(own, -own));
    CHECK(judge(float(r.lo), -own));
    CHECK(judge(float(r.hi), float(g.lo)));
    CHECK_FALSE(judge(up(float(r.hi)), -own));
    CHECK_FALSE(judge(own, down(float(g.lo))));
    CHECK_FALSE(judge(0.0f, -own));
    CHECK_FALSE(judge(16.0f, -own));  // texel (3, 3)
  }
  // CLAMP with the border (0, 0, 0, 0) in the footprint: 0 of either sign, and the alpha between 0 and 1.
  const images::Sampler clamp = linearSampler(true, AddressingMode::Clamp);
  const auto border = images::judgeRead(img.view, &clamp, at(0.05f, 0.45f), ColorKind::Float, {}, Color{});
  CHECK(std::signbit(border.lo[0]));
  CHECK(border.lo[0] == 0);
  CHECK(border.hi[0] == widened(0, 9, 4).hi);  // texels (0, 1) = 5 and (0, 2) = 9
  CHECK(border.lo[3] == 0);
  CHECK(border.hi[3] == widened(0, 1, 4).hi);
}

TEST_CASE("judgeRead: a coordinate one float step from a footprint boundary allows both footprints' texels",
          "[images][verdict][linear]") {
  // R8 texels 10, 50, 90, 130; s = 0.375: u = 1.5, d = 1 exactly: footprint {1, 2}; one float step below, {0, 1}.
  const Img img = image(ImageType::Image1D, kR8, 4, 1, {10, 50, 90, 130});
  const images::Sampler s = linearSampler(true, AddressingMode::ClampToEdge);
  auto judge = [&](float coord, float red) {
    return images::judgeRead(img.view, &s, at(coord), ColorKind::Float, {}, rgba(red, 0, 0, 1));
  };
  const auto v = judge(0.375f, exactNormalized(10, 255));
  CHECK(v.allowed);
  CHECK(v.note.find("3 texels over 2 candidate footprints") != std::string::npos);
  const Interval both = codesInterval({10, 50, 90}, 2);
  CHECK(v.lo[0] == both.lo);
  CHECK(v.hi[0] == both.hi);
  CHECK(judge(0.375f, exactNormalized(90, 255)).allowed);
  CHECK_FALSE(judge(0.375f, exactNormalized(130, 255)).allowed);
  // Inside (s = 0.3: u = 1.2, d = 0.7): footprint {0, 1} alone; texel 2's value is outside it.
  const auto inside = judge(0.3f, exactNormalized(90, 255));
  CHECK_FALSE(inside.allowed);
  CHECK(inside.note.find("2 texels over 1 candidate footprint (") != std::string::npos);
  CHECK(inside.hi[0] == codesInterval({10, 50}, 2).hi);
  CHECK(judge(0.3f, exactNormalized(50, 255)).allowed);
}

TEST_CASE("judgeRead: linear filtering of a 3D image blends 8 texels, a 1D array keeps its layer",
          "[images][verdict][linear]") {
  // 4x2x2 CL_R / CL_FLOAT, texel (x, y, z) = 1 + 8 x + 2 y + 4 z; s = (0.25, 0.5, 0.5): u = 1, v = 1, w = 1, every
  // d = 0.5: footprint x {0, 1}, y {0, 1}, z {0, 1}, values 1 .. 15 (x = 0: 1, 3, 5, 7; x = 1: 9 .. 15).
  images::ImageDesc d3;
  d3.type = ImageType::Image3D;
  d3.format = {ChannelOrder::R, ChannelType::Float};
  d3.width = 4;
  d3.height = 2;
  d3.depth = 2;
  Img vol = imageOf(d3);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) setFloats(vol, {x, y, z}, {float(1 + 8 * x + 2 * y + 4 * z)});
  const images::Sampler s = linearSampler(true, AddressingMode::ClampToEdge);
  const auto v = images::judgeRead(vol.view, &s, at(0.25f, 0.5f, 0.5f), ColorKind::Float, {}, rgba(8, 0, 0, 1));
  CHECK(v.allowed);
  CHECK(v.rule.find("±8 ulp") != std::string::npos);
  CHECK(v.note.find("8 texels over 1 candidate footprint (") != std::string::npos);
  const Interval r = widened(1, 15, 8);
  CHECK(r.hi == 15 + 0x1p-17);
  CHECK(v.lo[0] == r.lo);
  CHECK(v.hi[0] == r.hi);
  CHECK(images::judgeRead(vol.view, &s, at(0.25f, 0.5f, 0.5f), ColorKind::Float, {}, rgba(float(r.hi), 0, 0, 1))
            .allowed);
  CHECK_FALSE(
      images::judgeRead(vol.view, &s, at(0.25f, 0.5f, 0.5f), ColorKind::Float, {}, rgba(up(float(r.hi)), 0, 0, 1))
          .allowed);
  CHECK_FALSE(images::judgeRead(vol.view, &s, at(0.25f, 0.5f, 0.5f), ColorKind::Float, {}, rgba(25, 0, 0, 1))
                  .allowed);  // texel (3, 0, 0)

  // A 1D array of 4 x 3 layers, CL_R / CL_FLOAT, texel (x, layer) = 10 layer + x + 1; s = 0.3 (footprint {0, 1}),
  // layer 1.0: values 11 and 12.
  images::ImageDesc da;
  da.type = ImageType::Image1DArray;
  da.format = {ChannelOrder::R, ChannelType::Float};
  da.width = 4;
  da.arraySize = 3;
  Img arr = imageOf(da);
  for (int l = 0; l < 3; ++l)
    for (int x = 0; x < 4; ++x) setFloats(arr, {x, l, 0}, {float(10 * l + x + 1)});
  auto judgeArr = [&](float red) {
    return images::judgeRead(arr.view, &s, at(0.3f, 1.0f), ColorKind::Float, {}, rgba(red, 0, 0, 1));
  };
  const Interval a = widened(11, 12, 2);
  CHECK(judgeArr(11.5f).allowed);
  CHECK(judgeArr(float(a.lo)).allowed);
  CHECK(judgeArr(float(a.hi)).allowed);
  CHECK(judgeArr(11.5f).lo[0] == a.lo);
  CHECK_FALSE(judgeArr(1.5f).allowed);   // layer 0's texels
  CHECK_FALSE(judgeArr(21.5f).allowed);  // layer 2's texels
  CHECK_FALSE(judgeArr(21.0f).allowed);
}

TEST_CASE("judgeRead: read_imageh of a linear read widens in half ulps, and read_imagei with linear is undefined",
          "[images][verdict][linear]") {
  // CL_R / CL_FLOAT texels 1, 2, 3, 4; s = 0.3: footprint {0, 1}, values 1 and 2.
  images::ImageDesc d;
  d.type = ImageType::Image1D;
  d.format = {ChannelOrder::R, ChannelType::Float};
  d.width = 4;
  Img img = imageOf(d);
  for (int x = 0; x < 4; ++x) setFloats(img, {x, 0, 0}, {float(x + 1)});
  const images::Sampler s = linearSampler(true, AddressingMode::ClampToEdge);
  // Half: 2 ulp (half) at 2 = 2 x 2^-9: [1 - 2^-8, 2 + 2^-8]; half 2 + 2^-8 is 0x4002, 1 - 2^-8 is 0x3bf8.
  const Interval h = widened(1, 2, 2, 11);
  CHECK(h.hi == 2 + 0x1p-8);
  auto half = [&](uint32_t r) {
    return images::judgeRead(img.view, &s, at(0.3f), ColorKind::Half, {}, Color{{r, 0, 0, 0x3c00}});
  };
  CHECK(half(0x3e00).allowed);  // 1.5
  CHECK(half(0x4002).allowed);
  CHECK_FALSE(half(0x4003).allowed);
  CHECK(half(0x3bf8).allowed);
  CHECK_FALSE(half(0x3bf7).allowed);
  CHECK(half(0x3e00).lo[0] == h.lo);
  CHECK(half(0x3e00).hi[0] == h.hi);
  CHECK(half(0x3e00).rule.find("±2 ulp (half)") != std::string::npos);
  // Float: 2 ulp (float) at 2: 2 + 2^-21 allowed, the next float not.
  CHECK(images::judgeRead(img.view, &s, at(0.3f), ColorKind::Float, {}, rgba(2 + 0x1p-21f, 0, 0, 1)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, &s, at(0.3f), ColorKind::Float, {}, rgba(up(2 + 0x1p-21f), 0, 0, 1)).allowed);

  // read_imagei with CLK_FILTER_LINEAR: undefined (any value), with its clause.
  const Img ints = image(ImageType::Image1D, {ChannelOrder::R, ChannelType::SignedInt8}, 4, 1, {1, 2, 3, 4});
  const auto u = images::judgeRead(ints.view, &s, at(0.3f), ColorKind::Int, {}, Color{{77, 0, 0, 1}});
  CHECK(u.allowed);
  CHECK_FALSE(u.bounded);
  CHECK(u.rule.find("any value") != std::string::npos);
  CHECK(u.clause.find("[[built-in-image-read-functions]]") != std::string::npos);
  CHECK(u.note.find("image_linear_integer_read") != std::string::npos);
  // CLK_ADDRESS_NONE outside the image: undefined too.
  images::Sampler none;
  none.normalizedCoords = true;
  none.addressing = AddressingMode::None;
  const auto outside = images::judgeRead(img.view, &none, at(1.5f), ColorKind::Float, {}, rgba(7, 7, 7, 7));
  CHECK(outside.allowed);
  CHECK_FALSE(outside.bounded);
}

TEST_CASE("judgeRead: an INF texel in a candidate footprint only allows that infinity and NaN",
          "[images][verdict][linear]") {
  // CL_R / CL_FLOAT texels 1, 2, INF, 4; s = 0.375 (u = 1.5, d = 1: footprint {1, 2}, which holds INF) is undefined;
  // s = 0.25 (u = 1, d = 0.5: footprint {0, 1}) is exact and far from the INF texel; s = nextafter(0.375, 0) reads
  // footprint {0, 1} but one float step up reaches {1, 2}.
  images::ImageDesc d;
  d.type = ImageType::Image1D;
  d.format = {ChannelOrder::R, ChannelType::Float};
  d.width = 4;
  Img img = imageOf(d);
  const float texels[] = {1, 2, INFINITY, 4};
  for (int x = 0; x < 4; ++x) setFloats(img, {x, 0, 0}, {texels[x]});
  const images::Sampler s = linearSampler(true, AddressingMode::ClampToEdge);
  const auto exact = images::judgeRead(img.view, &s, at(0.375f), ColorKind::Float, {}, rgba(5, 0, 0, 1));
  CHECK_FALSE(exact.bounded);
  CHECK(exact.note.find("image_inf_nan_texel_filtered") != std::string::npos);
  const float near = down(0.375f);
  auto judge = [&](float coord, float red) {
    return images::judgeRead(img.view, &s, at(coord), ColorKind::Float, {}, rgba(red, 0, 0, 1));
  };
  CHECK(judge(near, INFINITY).allowed);
  CHECK(judge(near, NAN).allowed);
  CHECK_FALSE(judge(near, -INFINITY).allowed);
  CHECK(judge(near, 1.5f).allowed);
  CHECK_FALSE(judge(near, 0.5f).allowed);
  CHECK(judge(near, 1.5f).orNaN[0]);
  CHECK(judge(near, 1.5f).hi[0] == INFINITY);
  CHECK_FALSE(judge(0.25f, INFINITY).allowed);
  CHECK_FALSE(judge(0.25f, NAN).allowed);
  CHECK_FALSE(judge(0.25f, 1.5f).orNaN[0]);
}

TEST_CASE("judgeRead: sRGB reads allow values that convert back within 0.5 of the code", "[images][verdict]") {
  const Img img = image(ImageType::Image1D, {ChannelOrder::sRGBA, ChannelType::UnormInt8}, 2, 1,
                        {128, 0, 255, 128, 200, 10, 20, 30});
  images::Coord c;
  c.isFloat = false;
  c.i = {0, 0, 0};
  // L(x) = ((x / 255 + 0.055) / 1.055)^2.4 from the host (MPFR); 128.4 is inside, 128.6 outside.
  auto lin = [](double code) { return float(hostimg::srgbToLinear(hostimg::Rational(code) / 255).convert_to<double>()); };
  const float a = exactNormalized(128, 255);
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(lin(128), 0, 1, a)).allowed);
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(lin(128.4), 0, 1, a)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(lin(128.6), 0, 1, a)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(lin(128), 1e-30f, 1, a)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(lin(128), 0, down(1.0f), a)).allowed);
}

TEST_CASE("judgeRead: float channels keep their value, subnormals may flush, read_imageh rounds either way",
          "[images][verdict]") {
  const float x = 1.0f + 0.75f * 0x1p-10f;
  const float sub = 1e-40f;
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &x, 4);
  std::memcpy(bytes.data() + 4, &sub, 4);
  const Img img = image(ImageType::Image1D, {ChannelOrder::R, ChannelType::Float}, 2, 1, bytes);
  images::Coord c;
  c.isFloat = false;
  c.i = {0, 0, 0};
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(x, 0, 0, 1)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(up(x), 0, 0, 1)).allowed);
  const Color h3c01{{0x3c01, 0, 0, 0x3c00}}, h3c00{{0x3c00, 0, 0, 0x3c00}}, h3c02{{0x3c02, 0, 0, 0x3c00}};
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Half, {}, h3c01).allowed);
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Half, {}, h3c00).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Half, {}, h3c02).allowed);
  c.i = {1, 0, 0};
  images::VerdictOptions strict;
  strict.flushToZeroAllowed = false;
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(0, 0, 0, 1)).allowed);
  CHECK_FALSE(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(0, 0, 0, 1), strict).allowed);
  CHECK(images::judgeRead(img.view, nullptr, c, ColorKind::Float, {}, rgba(sub, 0, 0, 1), strict).allowed);
}

// Properties against the host implementation: its write of every format is allowed (so the verdict reads every
// format's channels from the lanes the host's independent layout puts them in), and its exact read is allowed, with a
// bound, for every sampler (linear filtering: inside the footprints' widened hull).

TEST_CASE("judgeWrite allows the host's element for every format and colour, and not a changed channel",
          "[images][verdict]") {
  std::mt19937_64 rng(21);
  for (const ImageFormat f : images::allFormats()) {
    if (!hostimg::validFormat(f)) continue;
    const unsigned n = hostimg::elementBytes(f);
    for (ColorKind kind : vs_host::kindsFor(f.type)) {
      size_t refused = 0, accepted = 0;
      std::string first;
      const auto colors = vs_host::colorsFor(f, kind, rng);
      for (size_t i = 0; i < colors.size(); i += 20) {
        std::vector<uint8_t> e(n);
        hostimg::encode(f, colors[i], kind, e.data());
        const auto v = images::judgeWrite(f, colors[i], kind, e.data());
        if (!v.allowed) {
          ++refused;
          if (first.empty()) first = vs_host::show(colors[i], kind) + " → " + vs_host::hex(e.data(), n);
        }
        // Flip the low bit of the first byte (a stored channel's lowest bit for every integer format): never allowed
        // for integer channels, whose rule is exact.
        if (hostimg::typeClass(f.type) == hostimg::TypeClass::Signed ||
            hostimg::typeClass(f.type) == hostimg::TypeClass::Unsigned) {
          std::vector<uint8_t> changed = e;
          changed[0] ^= 0x01;
          if (images::judgeWrite(f, colors[i], kind, changed.data()).allowed) ++accepted;
        }
      }
      INFO(vs_host::name(f) << " write_image" << vs_host::kindName(kind) << ": " << refused << " refused, first "
                            << first);
      CHECK(refused == 0);
      CHECK(accepted == 0);
    }
  }
}

// The host's reads with the addressing steps exact and rounded to binary32 (the two options of the choice
// image_coordinate_precision): judgeRead must allow both.
TEST_CASE("judgeRead allows the host's exact and binary32-addressed reads for every sampler, with a bound",
          "[images][verdict]") {
  std::mt19937_64 rng(22);
  for (const ImageFormat f : vs_host::samplerFormats()) {
    for (const vs_host::Shape& shape : vs_host::shapes()) {
      if (f.order == ChannelOrder::Depth && !vs_host::depthShape(shape.type)) continue;
      const vs_host::TestImage img = vs_host::makeImage(shape.type, f, shape.w, shape.h, shape.d, rng);
      const unsigned filtered = shape.type == ImageType::Image3D                                            ? 3
                                : shape.type == ImageType::Image2D || shape.type == ImageType::Image2DArray ? 2
                                                                                                            : 1;
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
            for (unsigned k = 0; k < filtered; ++k) axis[k] = vs_host::axisCoordinates(sizes[k], normalized, rng);
            if (array) axis[filtered] = vs_host::layerCoordinates(sizes[filtered], rng);
            for (ColorKind kind : vs_host::kindsFor(f.type)) {
              size_t refused = 0, unbounded = 0, checked = 0;
              std::string first;
              for (unsigned i = 0; i < 30; i += vs_host::kCaseStride) {
                images::Coord c;
                for (unsigned j = 0; j < filtered + (array ? 1 : 0); ++j) c.f[j] = axis[j][rng() % axis[j].size()];
                for (auto p : {hostimg::CoordinatePrecision::Binary32, hostimg::CoordinatePrecision::Exact}) {
                  const auto want = hostimg::readSampled(img.view, s, c, kind, 0, p);
                  if (want.undefined != images::Undefined::None) continue;
                  ++checked;
                  const auto v = images::judgeRead(img.view, &s, c, kind, {}, want.value);
                  if (!v.allowed && first.empty())
                    first = vs_host::coordText(c) + (p == hostimg::CoordinatePrecision::Exact ? " exact " : " binary32 ") +
                            v.rule;
                  refused += !v.allowed;
                  unbounded += !v.bounded;
                }
              }
              INFO(vs_host::name(f) << " " << images::nameOf(shape.type) << " " << vs_host::samplerText(s)
                                    << " read_image" << vs_host::kindName(kind) << ": " << refused << " refused of " << checked
                                    << ", first " << first);
              CHECK(refused == 0);
              CHECK(unbounded == 0);
            }
          }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Mipmapped reads and writes. The expected values are the host implementation's reads of each level; which levels a
// lod or gradients admit is worked out here by hand from OpenGL 4.6 §8.14 [external] (the rules images/verdict.cpp
// documents): the nearest mip filter reads level 0 up to lambda = 1/2 and ceil(lambda + 1/2) - 1 above; gradients
// admit every lambda in [log2 max(m_u, m_v), log2 (m_u + m_v)], m_k = max(|dPdx_k|, |dPdy_k|) x size_k of level 0.

namespace {

struct MipImg {
  std::vector<uint8_t> bytes;
  images::ImageView view;
};

// An 8x8 CL_R / CL_UNORM_INT8 image with 4 levels (8x8, 4x4, 2x2, 1x1); element (x, y) of level l holds
// 60 l + 8 y + x + 1, so every level's texels differ from every other level's.
MipImg mipImage() {
  MipImg m;
  images::ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = kR8;
  d.width = d.height = 8;
  d.numMipLevels = 4;
  d = images::makeDesc(d);
  m.bytes.assign(images::storageBytes(d), 0);
  m.view.desc = d;
  m.view.data = m.bytes.data();
  m.view.bytes = m.bytes.size();
  for (uint32_t l = 0; l < 4; ++l)
    for (int32_t y = 0; y < (8 >> l); ++y)
      for (int32_t x = 0; x < (8 >> l); ++x)
        m.bytes[hostimg::elementOffset(m.view, {x, y, 0}, l)] = uint8_t(60 * l + 8 * y + x + 1);
  return m;
}

images::Sampler mipSampler(FilterMode mip = FilterMode::Nearest) {
  images::Sampler s;
  s.normalizedCoords = true;
  s.addressing = AddressingMode::ClampToEdge;
  s.filter = FilterMode::Nearest;
  s.mipFilter = mip;
  return s;
}

images::LevelOfDetail lodOf(float l) { return {images::LevelOfDetail::Kind::Lod, l, {}, {}}; }
images::LevelOfDetail gradientsOf(float dx0, float dx1, float dy0, float dy1) {
  return {images::LevelOfDetail::Kind::Gradients, 0, {dx0, dx1, 0}, {dy0, dy1, 0}};
}

// (0.3, 0.6) lies well inside a texel on every level (u = 2.4, 1.2, 0.6, 0.3; v = 4.8, 2.4, 1.2, 0.6).
images::Coord mipCoord() {
  images::Coord c;
  c.f = {0.3f, 0.6f, 0};
  return c;
}

// The host implementation's read of level l.
Color hostAt(const MipImg& m, const images::Sampler& s, uint32_t l) {
  return hostimg::readSampled(m.view, s, mipCoord(), ColorKind::Float, l).value;
}

// The levels whose exact value judgeRead admits, tried one by one.
std::vector<uint32_t> admitted(const MipImg& m, const images::Sampler& s, const images::LevelOfDetail& lod) {
  std::vector<uint32_t> out;
  for (uint32_t l = 0; l < 4; ++l)
    if (images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lod, hostAt(m, s, l)).allowed) out.push_back(l);
  return out;
}

using Levels = std::vector<uint32_t>;

}  // namespace

TEST_CASE("judgeRead: an explicit lod admits the level the nearest mip filter selects, and no other",
          "[images][verdict][mipmap]") {
  const MipImg m = mipImage();
  const images::Sampler s = mipSampler();
  // The host values of the four levels differ (sanity of the fixture).
  for (uint32_t a = 0; a < 4; ++a)
    for (uint32_t b = a + 1; b < 4; ++b) CHECK(hostAt(m, s, a).lanes[0] != hostAt(m, s, b).lanes[0]);
  CHECK(admitted(m, s, lodOf(0)) == Levels{0});
  CHECK(admitted(m, s, lodOf(-3)) == Levels{0});  // clamped to CL_SAMPLER_LOD_MIN 0
  CHECK(admitted(m, s, lodOf(0.5f)) == Levels{0});
  CHECK(admitted(m, s, lodOf(up(0.5f))) == Levels{1});
  CHECK(admitted(m, s, lodOf(1.2f)) == Levels{1});
  CHECK(admitted(m, s, lodOf(1.5f)) == Levels{1});
  CHECK(admitted(m, s, lodOf(up(1.5f))) == Levels{2});
  CHECK(admitted(m, s, lodOf(3)) == Levels{3});
  CHECK(admitted(m, s, lodOf(100)) == Levels{3});  // clamped to levels - 1
  CHECK(admitted(m, s, lodOf(INFINITY)) == Levels{3});
  // CL_SAMPLER_LOD_MAX and CL_SAMPLER_LOD_MIN clamp lambda.
  images::Sampler capped = s;
  capped.lodMax = 1.0f;
  CHECK(admitted(m, capped, lodOf(3)) == Levels{1});
  images::Sampler floored = s;
  floored.lodMin = 2.0f;
  CHECK(admitted(m, floored, lodOf(0)) == Levels{2});
  // A NaN lod, or LOD_MIN above LOD_MAX, specifies no level: every level is admitted.
  CHECK(admitted(m, s, lodOf(NAN)) == Levels{0, 1, 2, 3});
  images::Sampler inverted = s;
  inverted.lodMin = 2.0f;
  inverted.lodMax = 1.0f;
  CHECK(admitted(m, inverted, lodOf(1)) == Levels{0, 1, 2, 3});
  // The verdict names the level and the clause that defers to OpenGL; the 1.5 ulp rule still applies at the level.
  const auto v = images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.2f), hostAt(m, s, 1));
  CHECK(v.bounded);
  CHECK(v.levels == Levels{1});
  CHECK(v.reference == hostAt(m, s, 1));
  CHECK(v.clause.find("[[_creating_image_objects_from_opengl_textures_and_renderbuffers]]") != std::string::npos);
  const float at1 = std::bit_cast<float>(hostAt(m, s, 1).lanes[0]);
  CHECK(images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.2f), rgba(up(at1), 0, 0, 1)).allowed);
  CHECK_FALSE(
      images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.2f), rgba(up(at1, 3), 0, 0, 1)).allowed);
}

TEST_CASE("judgeRead: gradients admit every level a scale factor OpenGL allows selects", "[images][verdict][mipmap]") {
  const MipImg m = mipImage();
  const images::Sampler s = mipSampler();
  // dPdx = (0.25, 0), dPdy = (0, 0.25): m_u = m_v = 2, rho in [2, 4], lambda in [1, 2]: levels 1 (lambda <= 1.5) and
  // 2.
  CHECK(admitted(m, s, gradientsOf(0.25f, 0, 0, 0.25f)) == Levels{1, 2});
  // Along one axis only rho = m_u exactly: dPdx = (0.25, 0), dPdy = 0 gives lambda = 1, level 1.
  CHECK(admitted(m, s, gradientsOf(0.25f, 0, 0, 0)) == Levels{1});
  // m_u = 1.5 and m_v = 1 (dPdx = (0.1875, 0.125)): rho in [1.5, 2.5], lambda in [0.585, 1.32], all within
  // (1/2, 3/2]: level 1 only.
  CHECK(admitted(m, s, gradientsOf(0.1875f, 0.125f, 0, 0)) == Levels{1});
  // m_u = m_v = 0.75 (dPdx = (0.09375, 0), dPdy = (0, 0.09375)): rho in [0.75, 1.5], lambda in [-0.415, 0.585]:
  // levels 0 and 1.
  CHECK(admitted(m, s, gradientsOf(0.09375f, 0, 0, 0.09375f)) == Levels{0, 1});
  // Zero gradients: lambda = -inf, level 0; huge ones: the last level.
  CHECK(admitted(m, s, gradientsOf(0, 0, 0, 0)) == Levels{0});
  CHECK(admitted(m, s, gradientsOf(1000, 0, 0, 0)) == Levels{3});
  CHECK(admitted(m, s, gradientsOf(NAN, 0, 0, 0)) == Levels{0, 1, 2, 3});
  const auto v = images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, gradientsOf(0.25f, 0, 0, 0.25f),
                                   hostAt(m, s, 2));
  CHECK(v.levels == Levels{1, 2});
  CHECK(v.candidates.size() == 2);
  CHECK(v.note.find("OpenGL 4.6") != std::string::npos);
}

TEST_CASE("judgeRead: the linear mip filter blends two levels within the hull of both, an integral lod reads one",
          "[images][verdict][mipmap]") {
  const MipImg m = mipImage();
  const images::Sampler s = mipSampler(FilterMode::Linear);
  // lambda = 1 weighs level 2 with 0: level 1 alone.
  CHECK(admitted(m, s, lodOf(1)) == Levels{1});
  CHECK(images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1), hostAt(m, s, 1)).bounded);
  // lambda >= levels - 1: the last level alone.
  CHECK(admitted(m, s, lodOf(3.5f)) == Levels{3});
  // lambda = 1.25 blends levels 1 and 2: at (0.3, 0.6) level 1 reads texel (1, 2), code 60 + 16 + 1 + 1 = 78, and
  // level 2 texel (0, 1), code 120 + 8 + 0 + 1 = 129 (nearest inside each level). The hull of both texels' 1.5 ulp
  // intervals, widened by 2 ulps at its largest magnitude.
  const Interval r = codesInterval({78, 129}, 2);
  const float a = std::bit_cast<float>(hostAt(m, s, 1).lanes[0]), b = std::bit_cast<float>(hostAt(m, s, 2).lanes[0]);
  CHECK(a == exactNormalized(78, 255));
  CHECK(b == exactNormalized(129, 255));
  auto judge = [&](float red) {
    return images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.25f), rgba(red, 0, 0, 1));
  };
  const auto v = judge(0.75f * a + 0.25f * b);
  CHECK(v.allowed);
  CHECK(v.bounded);
  CHECK(v.blended);
  CHECK(v.levels == Levels{1, 2});
  CHECK(v.lo[0] == r.lo);
  CHECK(v.hi[0] == r.hi);
  CHECK(v.rule.find("two mip levels") != std::string::npos);
  CHECK(judge(float(r.lo)).allowed);
  CHECK(judge(float(r.hi)).allowed);
  CHECK_FALSE(judge(down(float(r.lo))).allowed);
  CHECK_FALSE(judge(up(float(r.hi))).allowed);
  CHECK_FALSE(judge(1.0f).allowed);
  CHECK_FALSE(judge(0.0f).allowed);
  // Linear filtering inside the levels too: level 1 at (0.3, 0.6) is u = 1.2, v = 2.4, footprint x {0, 1}, y {1, 2}:
  // codes 60 + 8 y + x + 1 = 69, 70, 77, 78; level 2 is u = 0.6, v = 1.2, footprint x {0, 1}, y {0, 1}: 121, 122, 129,
  // 130. Each level's hull widened by 4 ulps, then the two hulls' hull by 2 more.
  images::Sampler both = s;
  both.filter = FilterMode::Linear;
  const Interval l1 = codesInterval({69, 70, 77, 78}, 4), l2 = codesInterval({121, 122, 129, 130}, 4);
  const Interval w = widened(std::min(l1.lo, l2.lo), std::max(l1.hi, l2.hi), 2);
  const auto lin = images::judgeRead(m.view, &both, mipCoord(), ColorKind::Float, lodOf(1.25f), rgba(0.4f, 0, 0, 1));
  CHECK(lin.allowed);
  CHECK(lin.lo[0] == w.lo);
  CHECK(lin.hi[0] == w.hi);
}

TEST_CASE("judgeWrite with a mip level: judged at that level's size, undefined beyond it",
          "[images][verdict][mipmap]") {
  const MipImg m = mipImage();
  // Level 2 is 2x2: (1, 1) is inside and judged as the element (0.5 → 128, or 127 within 0.6); (2, 0) is outside.
  std::vector<uint8_t> want(1);
  hostimg::encode(kR8, rgba(0.5f, 0, 0, 1), ColorKind::Float, want.data());
  const auto ok = images::judgeWrite(m.view.desc, {1, 1, 0}, 2, rgba(0.5f, 0, 0, 1), ColorKind::Float, want.data());
  CHECK(ok.allowed);
  CHECK(ok.bounded);
  CHECK(ok.levels == Levels{2});
  const uint8_t wrong = uint8_t(want[0] + 2);
  CHECK_FALSE(images::judgeWrite(m.view.desc, {1, 1, 0}, 2, rgba(0.5f, 0, 0, 1), ColorKind::Float, &wrong).allowed);
  const auto outside = images::judgeWrite(m.view.desc, {2, 0, 0}, 2, rgba(0.5f, 0, 0, 1), ColorKind::Float, &wrong);
  CHECK(outside.allowed);
  CHECK_FALSE(outside.bounded);
  CHECK(outside.note.find("image_write_out_of_range") != std::string::npos);
  // (2, 0) is inside level 1 (4x4).
  CHECK_FALSE(images::judgeWrite(m.view.desc, {2, 0, 0}, 1, rgba(0.5f, 0, 0, 1), ColorKind::Float, &wrong).allowed);
  const auto noLevel = images::judgeWrite(m.view.desc, {0, 0, 0}, 4, rgba(0.5f, 0, 0, 1), ColorKind::Float, &wrong);
  CHECK_FALSE(noLevel.bounded);
  CHECK(noLevel.note.find("image_mip_level_out_of_range") != std::string::npos);
}

// A colour computed with freedom (the kernel's allowed sets): the codes allowed are those of every value in the set.
// Expected codes worked out by hand from the rules: unorm8 code = x × 255 rounded, within 0.6 of the exact product.
TEST_CASE("judgeWrite with allowed sets: every value of a component's set gives its codes", "[images][verdict]") {
  using Sets = std::array<std::optional<images::ComponentSet>, 4>;
  auto judge = [](ImageFormat f, const Color& c, const Sets& sets, std::vector<uint8_t> element) {
    return images::judgeWrite(f, c, ColorKind::Float, sets, element.data());
  };
  // clref wrote 0.5 (127.5 → 128, 127 allowed); the set [0.49, 0.51] reaches 124.95 .. 130.05: 125 .. 130 (124 is
  // 0.95 away, 131 is 0.95 away).
  const Sets wide{images::ComponentSet{0.49, 0.51, false}, std::nullopt, std::nullopt, std::nullopt};
  for (uint8_t code = 125; code <= 130; ++code) CHECK(judge(kR8, rgba(0.5f, 0, 0, 0), wide, {code}).allowed);
  CHECK_FALSE(judge(kR8, rgba(0.5f, 0, 0, 0), wide, {124}).allowed);
  CHECK_FALSE(judge(kR8, rgba(0.5f, 0, 0, 0), wide, {131}).allowed);
  const auto v = judge(kR8, rgba(0.5f, 0, 0, 0), wide, {127});
  CHECK(v.lo[0] == 125);
  CHECK(v.hi[0] == 130);
  CHECK(images::describeAllowed(kR8, v) == "R=125..130");
  // Without a set the same colour allows 127 and 128 only; a lane without a set stays exact.
  const Sets none{};
  CHECK_FALSE(judge(kR8, rgba(0.5f, 0, 0, 0), none, {126}).allowed);
  CHECK_FALSE(judge(kRGBA8, rgba(0.5f, 0.2f, 0, 0), wide, {126, 52, 0, 0}).allowed);
  CHECK(judge(kRGBA8, rgba(0.5f, 0.2f, 0, 0), wide, {126, 51, 0, 0}).allowed);
  // A set that holds a NaN adds the NaN's code (0, the saturated conversion).
  const Sets withNaN{images::ComponentSet{0.49, 0.51, true}, std::nullopt, std::nullopt, std::nullopt};
  CHECK(judge(kR8, rgba(0.5f, 0, 0, 0), withNaN, {0}).allowed);
  CHECK_FALSE(judge(kR8, rgba(0.5f, 0, 0, 0), wide, {0}).allowed);
  // Any value: any code.
  const Sets any{images::ComponentSet{-INFINITY, INFINITY, true}, std::nullopt, std::nullopt, std::nullopt};
  CHECK(judge(kR8, rgba(0.5f, 0, 0, 0), any, {3}).allowed);
  // Float channels judge in value order, across zero: [-0.25, 0.125] allows -0.1, +0 and -0 but not 0.2.
  const ImageFormat f{ChannelOrder::R, ChannelType::Float};
  auto le = [](float x) {
    const uint32_t v = bits(x);
    return std::vector<uint8_t>{uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  };
  const Sets span{images::ComponentSet{-0.25, 0.125, false}, std::nullopt, std::nullopt, std::nullopt};
  CHECK(judge(f, rgba(0.0f, 0, 0, 0), span, le(-0.1f)).allowed);
  CHECK(judge(f, rgba(0.0f, 0, 0, 0), span, le(0.0f)).allowed);
  CHECK(judge(f, rgba(0.0f, 0, 0, 0), span, le(-0.0f)).allowed);
  CHECK_FALSE(judge(f, rgba(0.0f, 0, 0, 0), span, le(0.2f)).allowed);
  CHECK_FALSE(judge(f, rgba(0.0f, 0, 0, 0), span, le(NAN)).allowed);
  // A positive set never allows -0 (no flushing below 2^-126 here).
  const Sets positive{images::ComponentSet{0.5, 0.75, false}, std::nullopt, std::nullopt, std::nullopt};
  CHECK(judge(f, rgba(0.5f, 0, 0, 0), positive, le(0.625f)).allowed);
  CHECK_FALSE(judge(f, rgba(0.5f, 0, 0, 0), positive, le(-0.0f)).allowed);
  CHECK(images::describeElement(kRGBA8, std::vector<uint8_t>{1, 2, 3, 4}.data()) == "R=1 G=2 B=3 A=4");
}
