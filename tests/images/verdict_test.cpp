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

TEST_CASE("judgeRead: linear filtering and undefined reads are allowed without a bound", "[images][verdict]") {
  const Img img = image(ImageType::Image1D, kR8, 4, 1, {10, 50, 90, 130});
  images::Sampler s;
  s.normalizedCoords = true;
  s.addressing = AddressingMode::ClampToEdge;
  s.filter = FilterMode::Linear;
  images::Coord c;
  c.f = {0.3f, 0, 0};
  const auto v = images::judgeRead(img.view, &s, c, ColorKind::Float, {}, rgba(0.9f, 0, 0, 1));
  CHECK(v.allowed);
  CHECK_FALSE(v.bounded);
  CHECK(v.note.find("outside") != std::string::npos);
  const auto inside = images::judgeRead(img.view, &s, c, ColorKind::Float, {}, v.reference);
  CHECK(inside.note.find("within") != std::string::npos);
  // CLK_ADDRESS_NONE outside the image: undefined.
  s.addressing = AddressingMode::None;
  s.filter = FilterMode::Nearest;
  c.f = {1.5f, 0, 0};
  const auto u = images::judgeRead(img.view, &s, c, ColorKind::Float, {}, rgba(7, 7, 7, 7));
  CHECK(u.allowed);
  CHECK_FALSE(u.bounded);
  CHECK_FALSE(u.note.empty());
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
// format's channels from the lanes the host's independent layout puts them in), and its exact read is allowed for every
// sampler, with a bound exactly when the filter is nearest.

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

TEST_CASE("judgeRead allows the host's exact read for every sampler, with a bound for nearest reads",
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
              for (int i = 0; i < 30; ++i) {
                images::Coord c;
                for (unsigned j = 0; j < filtered + (array ? 1 : 0); ++j) c.f[j] = axis[j][rng() % axis[j].size()];
                const auto want = hostimg::readSampled(img.view, s, c, kind);
                if (want.undefined != images::Undefined::None) continue;
                ++checked;
                const auto v = images::judgeRead(img.view, &s, c, kind, {}, want.value);
                if (!v.allowed && first.empty()) first = vs_host::coordText(c) + " " + v.rule;
                refused += !v.allowed;
                unbounded += !v.bounded;
              }
              INFO(vs_host::name(f) << " " << images::nameOf(shape.type) << " " << vs_host::samplerText(s)
                                    << " read_image" << vs_host::kindName(kind) << ": " << refused << " refused, first "
                                    << first);
              CHECK(refused == 0);
              CHECK(unbounded == (fm == FilterMode::Linear ? checked : 0));
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

TEST_CASE("judgeRead: the linear mip filter blends two levels without a bound, an integral lod reads one",
          "[images][verdict][mipmap]") {
  const MipImg m = mipImage();
  const images::Sampler s = mipSampler(FilterMode::Linear);
  // lambda = 1 weighs level 2 with 0: level 1 alone, bounded.
  CHECK(admitted(m, s, lodOf(1)) == Levels{1});
  CHECK(images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1), hostAt(m, s, 1)).bounded);
  // lambda >= levels - 1: the last level alone.
  CHECK(admitted(m, s, lodOf(3.5f)) == Levels{3});
  // lambda = 1.25 blends levels 1 and 2: no bound; the note places the value inside or outside their range.
  const float a = std::bit_cast<float>(hostAt(m, s, 1).lanes[0]), b = std::bit_cast<float>(hostAt(m, s, 2).lanes[0]);
  const float mid = 0.75f * a + 0.25f * b;
  const auto v = images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.25f), rgba(mid, 0, 0, 1));
  CHECK(v.allowed);
  CHECK_FALSE(v.bounded);
  CHECK(v.blended);
  CHECK(v.levels == Levels{1, 2});
  CHECK(v.note.find("within") != std::string::npos);
  const auto far = images::judgeRead(m.view, &s, mipCoord(), ColorKind::Float, lodOf(1.25f), rgba(1, 0, 0, 1));
  CHECK(far.allowed);
  CHECK(far.note.find("outside") != std::string::npos);
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
