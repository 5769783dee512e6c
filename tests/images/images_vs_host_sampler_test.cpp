// images/ against the independent host implementation (host_images.hpp): every addressing × filter × normalized
// combination of sampled reads in 1D, 2D, 3D and arrays, with random and adversarial coordinates (on texel boundaries,
// at texel centres, one float step either side, outside the image, negative, huge), sampler-less reads and writes.
#include <catch2/catch.hpp>

#include "numerics/choices.hpp"
#include "tests/images/vs_host_support.hpp"

using namespace clref;
using namespace clref::vs_host;

namespace {

// The host's precision of the addressing steps and the choices that select it in images/ (binary32: the default
// choices, which must agree with the host's binary32 evaluation).
struct Precision {
  hostimg::CoordinatePrecision host;
  const numerics::Choices* choices;
  const char* name;
};
const std::vector<Precision>& precisions() {
  static const numerics::Choices exact = [] {
    numerics::Choices c;
    c.set("image_coordinate_precision=exact");
    return c;
  }();
  static const std::vector<Precision> all = {{hostimg::CoordinatePrecision::Binary32, nullptr, "binary32 (default)"},
                                             {hostimg::CoordinatePrecision::Exact, &exact, "exact"}};
  return all;
}

}  // namespace

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
              // Three coordinates in four with the default (binary32) addressing steps, the fourth exact: both options
              // covered at the cost of one.
              unsigned checks = 0, cases = 0;
              auto check = [&](const images::Coord& c) {
                if (cases++ % kCaseStride != 0) return;
                {
                  const Precision& p = precisions()[checks++ % 4 == 3 ? 1 : 0];
                  ++values.total;
                  const std::string where = coordText(c) + " [" + p.name + "]";
                  const hostimg::HostRead want = hostimg::readSampled(img.view, s, c, kind, 0, p.host);
                  images::AccessOptions options;
                  options.choices = p.choices;
                  const images::ReadResult got = images::readSampled(img.view, s, c, kind, {}, options);
                  if (want.undefined != Undefined::None) {
                    if (got.undefined == Undefined::None)
                      undefinedFlags.add(where + ": host: undefined (" + std::string(images::describe(want.undefined)) +
                                         "), images: defined " + show(got.value, kind));
                    return;
                  }
                  if (got.undefined != Undefined::None)
                    undefinedFlags.add(where + ": host: defined, images: undefined (" +
                                       std::string(images::describe(got.undefined)) + ")");
                  if (!sameColor(want.value, got.value, kind, f.order == ChannelOrder::Depth, fm == FilterMode::Linear))
                    values.add(where + ": host " + show(want.value, kind) + ", images " + show(got.value, kind));
                  if (fm == FilterMode::Linear) {
                    // images/' exact path alone (no binary64 fast path) must give the same bits.
                    options.exactOnly = true;
                    const images::ReadResult slow = images::readSampled(img.view, s, c, kind, {}, options);
                    if (!sameColor(want.value, slow.value, kind, f.order == ChannelOrder::Depth, true))
                      values.add(where + " (exact path): host " + show(want.value, kind) + ", images " +
                                 show(slow.value, kind));
                  }
                }
              };
              // Every axis's adversarial list against random picks of the others, then random combinations.
              for (unsigned k = 0; k < ncoords; ++k)
                for (float x : axis[k]) {
                  images::Coord c;
                  for (unsigned j = 0; j < ncoords; ++j) c.f[j] = axis[j][rng() % axis[j].size()];
                  c.f[k] = x;
                  check(c);
                }
              // Integer coordinates (unnormalized nearest only: OpenCL C 3.0 §6.15.15.2
              // [[built-in-image-read-functions]]).
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
        for (unsigned i = 0; i < 150; i += kCaseStride) {
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
        for (unsigned i = 0; i < 150; i += kCaseStride) {
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

// cl_khr_mipmap_image: reads with an explicit integral lod (every rounding of a lod to a level agrees on integers) read
// that level, clamped to the image's levels ("The value specified in the lod argument is clamped to the minimum of
// (actual number of mip-levels – 1) in the image or value specified for CL_SAMPLER_LOD_MAX"); sampler-less reads and
// writes address a level by its own sizes. The clause:
// OpenCL Extension Specification 3.0.12 §29.3.1 "Additions to section 6.13.14 – Image Read, Write and Query Functions"
TEST_CASE("images: mipmapped reads and writes at integral lods match the host", "[images][vs-host]") {
  std::mt19937_64 rng(17);
  const std::vector<Shape> mipShapes = {{ImageType::Image1D, 9, 1, 1},
                                        {ImageType::Image1DArray, 8, 3, 1},
                                        {ImageType::Image2D, 9, 6, 1},
                                        {ImageType::Image2DArray, 8, 5, 2},
                                        {ImageType::Image3D, 5, 8, 4}};
  const std::vector<ImageFormat> formats = {{ChannelOrder::RGBA, ChannelType::UnormInt8},
                                            {ChannelOrder::R, ChannelType::Float},
                                            {ChannelOrder::RG, ChannelType::SignedInt16}};
  for (const ImageFormat f : formats) {
    for (const Shape& shape : mipShapes) {
      const uint32_t levels = 3;
      const TestImage img = makeImage(shape.type, f, shape.w, shape.h, shape.d, rng, levels);
      const unsigned filtered = shape.type == ImageType::Image3D                                            ? 3
                                : shape.type == ImageType::Image2D || shape.type == ImageType::Image2DArray ? 2
                                                                                                            : 1;
      const bool array = shape.type == ImageType::Image1DArray || shape.type == ImageType::Image2DArray;
      const unsigned ncoords = filtered + (array ? 1 : 0);
      const uint64_t sizes[3] = {shape.w, shape.h, shape.d};
      for (ColorKind kind : kindsFor(f.type)) {
        Mismatches values;
        for (AddressingMode am : {AddressingMode::ClampToEdge, AddressingMode::Clamp, AddressingMode::Repeat,
                                  AddressingMode::MirroredRepeat})
          for (FilterMode fm : {FilterMode::Nearest, FilterMode::Linear}) {
            if (fm == FilterMode::Linear && (kind == ColorKind::Int || kind == ColorKind::Uint)) continue;
            images::Sampler s;
            s.normalizedCoords = true;
            s.addressing = am;
            s.filter = fm;
            for (int lod : {0, 1, 2, 3, 7, -1}) {
              const uint32_t level = uint32_t(std::clamp(lod, 0, int(levels) - 1));
              for (int i = 0; i < 25; ++i) {
                images::Coord c;
                for (unsigned k = 0; k < ncoords; ++k)
                  c.f[k] = array && k == filtered ? float(int(rng() % (sizes[k] + 2)) - 1)
                                                  : float(std::uniform_real_distribution<double>(-0.5, 1.5)(rng));
                images::LevelOfDetail l;
                l.kind = images::LevelOfDetail::Kind::Lod;
                l.lod = float(lod);
                ++values.total;
                const auto want = hostimg::readSampled(img.view, s, c, kind, level);
                const auto got = images::readSampled(img.view, s, c, kind, l);
                if (want.undefined != got.undefined ||
                    (want.undefined == Undefined::None &&
                     !sameColor(want.value, got.value, kind, false, fm == FilterMode::Linear)))
                  values.add(samplerText(s) + " lod " + std::to_string(lod) + " " + coordText(c) + ": host " +
                             show(want.value, kind) + ", images " + show(got.value, kind));
              }
            }
          }
        Mismatches direct;
        const auto colors = colorsFor(f, kind, rng);
        for (uint32_t level = 0; level < levels; ++level)
          for (int i = 0; i < 60; ++i) {
            std::array<int32_t, 3> c{};
            for (unsigned j = 0; j < ncoords; ++j) {
              const uint64_t n = array && j == filtered ? sizes[j] : std::max<uint64_t>(1, sizes[j] >> level);
              c[j] = int32_t(rng() % n);
            }
            ++direct.total;
            const auto want = hostimg::readSamplerless(img.view, c, kind, level);
            const auto got = images::readSamplerless(img.view, c, kind, level);
            if (got.undefined != Undefined::None || !sameColor(want.value, got.value, kind, false, false))
              direct.add("read level " + std::to_string(level) + " (" + std::to_string(c[0]) + ", " +
                         std::to_string(c[1]) + ", " + std::to_string(c[2]) + "): host " + show(want.value, kind) +
                         ", images " + show(got.value, kind));
            TestImage a = img, b = img;
            a.view.data = a.storage.data();
            b.view.data = b.storage.data();
            const Color color = colors[rng() % colors.size()];
            hostimg::write(a.view, c, color, kind, level);
            const Undefined u = images::write(b.view, c, color, kind, level);
            const size_t at = hostimg::elementOffset(a.view, c, level), e = hostimg::elementBytes(f);
            if (u != Undefined::None || !sameRaw(f, &a.storage[at], &b.storage[at]) ||
                !std::equal(a.storage.begin(), a.storage.begin() + long(at), b.storage.begin()) ||
                !std::equal(a.storage.begin() + long(at + e), a.storage.end(), b.storage.begin() + long(at + e)))
              direct.add("write level " + std::to_string(level) + " (" + std::to_string(c[0]) + ", " +
                         std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")");
          }
        INFO(name(f) << " " << images::nameOf(shape.type) << " " << levels << " levels read_image" << kindName(kind)
                     << ": sampled " << values.text() << "; sampler-less and writes " << direct.text());
        CHECK(values.count == 0);
        CHECK(direct.count == 0);
      }
    }
  }
}
