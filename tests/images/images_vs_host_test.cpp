// images/ against the independent host implementation (host_images.hpp), bit for bit: every order × type pair's
// validity, element size, decode and encode (exhaustive for elements of up to 16 bits, random and special values
// otherwise) and round trips. The sampler tests are in images_vs_host_sampler_test.cpp.
#include <catch2/catch.hpp>

#include "tests/images/vs_host_support.hpp"

using namespace clref;
using namespace clref::vs_host;

TEST_CASE("images: every format images/ supports is valid by the host's reading of the API spec, same element size",
          "[images][vs-host]") {
  Mismatches m;
  for (ChannelOrder o : kOrders)
    for (ChannelType t : kTypes) {
      const ImageFormat f{o, t};
      if (!images::isValidFormat(f)) continue;
      ++m.total;
      if (!hostimg::validFormat(f))
        m.add(name(f) + ": images says valid, the host says invalid");
      else if (images::elementSize(f) != hostimg::elementBytes(f))
        m.add(name(f) + ": element size " + std::to_string(images::elementSize(f)) + ", host " +
              std::to_string(hostimg::elementBytes(f)));
    }
  INFO(m.text());
  CHECK(m.count == 0);
  size_t listed = 0;
  for (const auto& f : images::allFormats()) {
    CHECK(images::isValidFormat(f));
    ++listed;
  }
  CHECK(listed == m.total);
}

// The 3.0 API text dropped OpenCL 1.2's restrictions (CL_ARGB / CL_BGRA / CL_ABGR only with 8-bit types, CL_RGBx only
// with the packed types): every pair the host allows must be supported too.
TEST_CASE("images: every pair the 3.0 API text allows is supported", "[images][vs-host]") {
  Mismatches m;
  for (ChannelOrder o : kOrders)
    for (ChannelType t : kTypes) {
      const ImageFormat f{o, t};
      ++m.total;
      if (hostimg::validFormat(f) && !images::isValidFormat(f)) m.add(name(f) + ": images says invalid");
    }
  INFO(m.text());
  CHECK(m.count == 0);
}

TEST_CASE("images: decode of every valid format matches the host bit for bit", "[images][vs-host]") {
  std::mt19937_64 rng(11);
  for (const ImageFormat f : images::allFormats()) {
    if (!hostimg::validFormat(f)) continue;
    const auto patterns = elementPatterns(f, rng);
    for (ColorKind kind : kindsFor(f.type)) {
      Mismatches m;
      for (size_t p = 0; p < patterns.size(); p += kCaseStride) {
        const auto& e = patterns[p];
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
      const auto patterns = elementPatterns(f, rng);
      for (size_t p = 0; p < patterns.size(); p += kCaseStride) {
        const auto& e = patterns[p];
        ++m.total;
        const Color want = hostimg::decode(f, e.data(), kind);
        const Color got = images::decode(f, e.data(), kind, flush);
        bool ok = true;
        for (int l = 0; l < (f.order == ChannelOrder::Depth ? 1 : 4) && ok; ++l) {
          Color one = want, oneGot = got;
          one.lanes = {want.lanes[l], 0, 0, 0};
          oneGot.lanes = {got.lanes[l], 0, 0, 0};
          if (sameColor(one, oneGot, kind, true, false)) continue;
          // A subnormal result or source may become a zero (OpenCL C 3.0 §8.3.2
          // [[conversion-rules-for-half-precision-floating-point-channel-data-type]], OpenCL C 3.0 §8.3.3
          // [[conversion-rules-for-floating-point-channel-data-type]]: "Denorms can be flushed to zero").
          ok = isZero(got.lanes[l], kind) &&
               (kind == ColorKind::Float
                    ? hostimg::isSubnormalFloatBits(want.lanes[l])
                    : hostimg::isSubnormalHalfBits(uint16_t(want.lanes[l])) || f.type == ChannelType::Float);
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
      // Every third pattern: decode alone is checked exhaustively above.
      const auto patterns = elementPatterns(f, rng);
      for (size_t p = 0; p < patterns.size(); p += 3 * kCaseStride) {
        const auto& e = patterns[p];
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
