// Host references of the image kernels of the golden corpus (golden/kernels/image_*.cl), see host_reference.hpp.
// Each mirrors its kernel statement by statement in plain C++ (float arithmetic in float, one rounding per source
// operation: the kernels set FP_CONTRACT OFF and this target builds with -ffp-contract=off); every image read and write
// goes through the independent host implementation of the spec's image formulas (tests/images/host_images.hpp, exact
// rationals rounded once), never through images/. Image arguments are their packed contents
// (cli::imageContentBytes): the host views them level by level with tight pitches.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "tests/golden/host_bytes.hpp"
#include "tests/golden/host_reference.hpp"
#include "tests/images/host_images.hpp"

namespace clref::golden {

namespace {

using images::AddressingMode;
using images::Color;
using images::ColorKind;
using images::FilterMode;
using images::ImageType;
using cli::ArgSpec;
using cli::Case;
using Float4 = std::array<float, 4>;


Color colorOf(const Float4& f) {
  Color c;
  for (size_t i = 0; i < 4; ++i) c.lanes[i] = std::bit_cast<uint32_t>(f[i]);
  return c;
}
Float4 floatsOf(const Color& c) {
  Float4 f;
  for (size_t i = 0; i < 4; ++i) f[i] = std::bit_cast<float>(c.lanes[i]);
  return f;
}

// The precision of the addressing steps of sampled reads (the choice image_coordinate_precision): binary32 unless the
// case selects exact.
hostimg::CoordinatePrecision coordinatePrecision(const Case& c) {
  const bool exact = std::find(c.choices.begin(), c.choices.end(), "image_coordinate_precision=exact") != c.choices.end();
  return exact ? hostimg::CoordinatePrecision::Exact : hostimg::CoordinatePrecision::Binary32;
}

// An image argument: its desc as the case gives it, and its packed contents.
class HostImage {
 public:
  HostImage(const Case& c, ArgBytes& a, size_t arg) : bytes_(a.at(arg)), precision_(coordinatePrecision(c)) {
    if (c.args.at(arg).kind != ArgSpec::Kind::Image) shapeError(c, "argument " + std::to_string(arg) + " is not an image");
    desc_ = c.args[arg].image.desc;
    if (bytes_.size() != cli::imageContentBytes(desc_))
      shapeError(c, "image " + std::to_string(arg) + " has the wrong number of bytes");
  }
  const images::ImageDesc& desc() const { return desc_; }

  // Mip level `level` as an image of its own, tightly packed: rows width × element size apart, slices (and the layers of
  // a 1D array) one row or one level-plane apart.
  images::ImageView level(uint32_t level) const {
    const uint64_t e = elementBytes();
    uint64_t offset = 0;
    for (uint32_t l = 0; l < level; ++l) {
      const auto r = cli::imageLevelRegion(desc_, l);
      offset += r[0] * r[1] * r[2] * e;
    }
    const auto r = cli::imageLevelRegion(desc_, level);
    images::ImageView v;
    v.desc = desc_;
    v.desc.numMipLevels = 1;
    v.desc.width = r[0];
    switch (desc_.type) {
      case ImageType::Image1DArray: v.desc.arraySize = r[1]; break;
      case ImageType::Image2DArray:
        v.desc.height = r[1];
        v.desc.arraySize = r[2];
        break;
      case ImageType::Image3D:
        v.desc.height = r[1];
        v.desc.depth = r[2];
        break;
      default: v.desc.height = r[1]; break;
    }
    v.desc.rowPitch = r[0] * e;
    v.desc.slicePitch = desc_.type == ImageType::Image1DArray ? v.desc.rowPitch : v.desc.rowPitch * r[1];
    v.data = reinterpret_cast<uint8_t*>(bytes_.data()) + offset;
    v.bytes = r[0] * r[1] * r[2] * e;
    return v;
  }
  uint64_t width() const { return desc_.width; }
  uint64_t height() const { return desc_.height; }

  // Sampler-less read_imagef / read_imageui (OpenCL C 3.0 §6.15.15.3 [[built-in-image-sampler-less-read-functions]]).
  Color read(std::array<int32_t, 3> coord, ColorKind kind) const {
    return checked(hostimg::readSamplerless(level(0), coord, kind));
  }
  Float4 readf(std::array<int32_t, 3> coord) const { return floatsOf(read(coord, ColorKind::Float)); }
  Color sample(const images::Sampler& s, const images::Coord& coord, ColorKind kind, uint32_t lvl = 0) const {
    return checked(hostimg::readSampled(level(lvl), s, coord, kind, 0, precision_));
  }
  Float4 samplef(const images::Sampler& s, std::array<float, 3> coord, uint32_t lvl = 0) const {
    images::Coord p;
    p.f = coord;
    return floatsOf(sample(s, p, ColorKind::Float, lvl));
  }
  void write(std::array<int32_t, 3> coord, const Color& color, ColorKind kind) {
    if (!hostimg::write(level(0), coord, color, kind)) throw std::runtime_error("host reference: a write outside the image");
  }
  void writef(std::array<int32_t, 3> coord, const Float4& f) { write(coord, colorOf(f), ColorKind::Float); }

 private:
  unsigned elementBytes() const { return hostimg::elementBytes(desc_.format); }
  static Color checked(const hostimg::HostRead& r) {
    // The corpus avoids every read the spec leaves undefined: its expected value would be a choice, not the spec's.
    if (r.undefined != images::Undefined::None)
      throw std::runtime_error("host reference: an undefined read (condition " + std::to_string(int(r.undefined)) + ")");
    return r.value;
  }
  std::vector<std::byte>& bytes_;
  hostimg::CoordinatePrecision precision_;
  images::ImageDesc desc_;
};

template <class T> T scalar(const Case& c, size_t arg) {
  const auto& spec = c.args.at(arg);
  if (spec.kind != ArgSpec::Kind::Value || spec.value.size() != sizeof(T))
    shapeError(c, "argument " + std::to_string(arg) + " is not a " + std::to_string(sizeof(T)) + "-byte value");
  T v;
  std::memcpy(&v, spec.value.data(), sizeof(T));
  return v;
}

const images::Sampler& samplerArg(const Case& c, size_t arg) {
  if (c.args.at(arg).kind != ArgSpec::Kind::Sampler) shapeError(c, "argument " + std::to_string(arg) + " is not a sampler");
  return c.args[arg].sampler;
}

template <class T> T loadElem(const std::vector<std::byte>& b, size_t i) {
  if ((i + 1) * sizeof(T) > b.size()) throw std::out_of_range("host reference: load past the end of a buffer");
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}
template <class T> void storeElem(std::vector<std::byte>& b, size_t i, T v) {
  if ((i + 1) * sizeof(T) > b.size()) throw std::out_of_range("host reference: store past the end of a buffer");
  std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
}
void storeFloat4(std::vector<std::byte>& b, size_t i, const Float4& f) {
  for (size_t k = 0; k < 4; ++k) storeElem<float>(b, 4 * i + k, f[k]);
}

// The 2D or 3D global size of a case (the kernels use no offsets).
std::array<size_t, 3> grid(const Case& c) {
  for (unsigned d = 0; d < c.range.dims; ++d)
    if (c.range.offset[d] != 0) shapeError(c, "the image kernels take no global offset");
  std::array<size_t, 3> g{1, 1, 1};
  for (unsigned d = 0; d < c.range.dims; ++d) g[d] = c.range.global[d];
  return g;
}

images::Sampler sampler(bool normalized, AddressingMode a, FilterMode f) {
  images::Sampler s;
  s.normalizedCoords = normalized;
  s.addressing = a;
  s.filter = f;
  return s;
}

Float4 add(Float4 a, const Float4& b) {
  for (size_t k = 0; k < 4; ++k) a[k] = a[k] + b[k];
  return a;
}
Float4 scale(Float4 a, float s) {
  for (size_t k = 0; k < 4; ++k) a[k] = a[k] * s;
  return a;
}

// image_blur.cl box_blur5: the 25 taps in row-major order summed in float, times 0.04f.
void boxBlur5(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  const auto g = grid(c);
  const int w = int(src.width()), h = int(src.height());
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      Float4 sum{};
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
          sum = add(sum, src.readf({std::clamp(x + dx, 0, w - 1), std::clamp(y + dy, 0, h - 1), 0}));
      dst.writef({x, y, 0}, scale(sum, 0.04f));
    }
}

// image_blur.cl gauss3: integer coordinates through an unnormalized CLAMP_TO_EDGE nearest sampler.
void gauss3(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  const auto g = grid(c);
  const auto edge = sampler(false, AddressingMode::ClampToEdge, FilterMode::Nearest);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      Float4 sum{};
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const float weight = float((2 - std::abs(dx)) * (2 - std::abs(dy)));
          images::Coord p;
          p.isFloat = false;
          p.i = {x + dx, y + dy, 0};
          sum = add(sum, scale(floatsOf(src.sample(edge, p, ColorKind::Float)), weight));
        }
      dst.writef({x, y, 0}, scale(sum, 0.0625f));
    }
}

// image_rotate.cl: the source coordinate of output pixel (x, y), as the kernel computes it.
std::array<float, 2> rotated(int x, int y, const HostImage& src, float cs, float sn) {
  const float cx = float(src.width()) * 0.5f, cy = float(src.height()) * 0.5f;
  const float dx = (float(x) + 0.5f) - cx, dy = (float(y) + 0.5f) - cy;
  return {((cs * dx) - (sn * dy)) + cx, ((sn * dx) + (cs * dy)) + cy};
}

void rotateBilinear(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  const auto& smp = samplerArg(c, 2);
  const float cs = scalar<float>(c, 3), sn = scalar<float>(c, 4), invW = scalar<float>(c, 5),
              invH = scalar<float>(c, 6);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const auto [u, v] = rotated(x, y, src, cs, sn);
      dst.writef({x, y, 0}, src.samplef(smp, {u * invW, v * invH, 0}));
    }
}

void rotateUnnormalized(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  auto& out = a.at(1);
  const float cs = scalar<float>(c, 2), sn = scalar<float>(c, 3);
  const auto smp = sampler(false, AddressingMode::Clamp, FilterMode::Linear);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const auto [u, v] = rotated(x, y, src, cs, sn);
      storeFloat4(out, size_t(y) * g[0] + size_t(x), src.samplef(smp, {u, v, 0}));
    }
}

// image_convert.cl: write_imagef(dst, c, read_imagef(src, c)); the formats do the conversion.
void convertCopy(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) dst.writef({x, y, 0}, src.readf({x, y, 0}));
}

// image_mip.cl mip_lod. cl_khr_mipmap_image leaves how a lod selects a level with CL_FILTER_NEAREST mip filtering to
// the implementation; the case's lods are integers, or lie a quarter from one (0.25, 2.25), where every rounding rule
// selects that integer's level, and beyond the last level (clamped to it).
// Output element (x, y) reads coord(x, y) at lod lods[y]; arg 4 receives the image's level count.
template <class Coord> void mipLodRows(const Case& c, ArgBytes& a, Coord coord) {
  const HostImage img(c, a, 0);
  const auto& smp = samplerArg(c, 1);
  const auto& lods = a.at(2);
  auto& out = a.at(3);
  const auto g = grid(c);
  const uint32_t levels = img.desc().numMipLevels;
  for (int y = 0; y < int(g[1]); ++y) {
    const float lod = loadElem<float>(lods, size_t(y));
    const uint32_t level = uint32_t(std::min<double>(std::floor(double(lod) + 0.5), levels - 1));
    for (int x = 0; x < int(g[0]); ++x)
      storeFloat4(out, size_t(y) * g[0] + size_t(x), img.samplef(smp, coord(x, y), level));
  }
  storeElem<int32_t>(a.at(4), 0, int32_t(levels));
}
void mipLod(const Case& c, ArgBytes& a) {
  mipLodRows(c, a, [](int x, int) { return std::array<float, 3>{(float(x) + 0.5f) * 0.0625f, 0.375f, 0}; });
}
// mip_lod_3d and mip_lod_array: the same in a mipmapped 3D image and 2D image array (the lods avoid ties too).
void mipLod3d(const Case& c, ArgBytes& a) {
  mipLodRows(c, a, [](int x, int) { return std::array<float, 3>{(float(x) + 0.5f) * 0.125f, 0.375f, 0.625f}; });
}
void mipLodArray(const Case& c, ArgBytes& a) {
  mipLodRows(c, a, [](int x, int y) { return std::array<float, 3>{(float(x) + 0.5f) * 0.125f, 0.625f, float(y % 3)}; });
}

void imageToBuffer(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  auto& out = a.at(1);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const Color v = src.read({x, y, 0}, ColorKind::Uint);
      for (size_t k = 0; k < 4; ++k) storeElem<uint32_t>(out, (size_t(y) * src.width() + size_t(x)) * 4 + k, v.lanes[k]);
    }
}

void bufferToImage(const Case& c, ArgBytes& a) {
  const auto& in = a.at(0);
  HostImage dst(c, a, 1);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      Float4 v;
      for (size_t k = 0; k < 4; ++k) v[k] = loadElem<float>(in, (size_t(y) * dst.width() + size_t(x)) * 4 + k);
      dst.writef({x, y, 0}, v);
    }
}

// image_3d.cl slice_average: the x channels of every slice summed in float, times inv_depth.
void sliceAverage(const Case& c, ArgBytes& a) {
  const HostImage vol(c, a, 0);
  auto& out = a.at(1);
  const float invDepth = scalar<float>(c, 2);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      float sum = 0.0f;
      for (int z = 0; z < int(vol.desc().depth); ++z) sum = sum + vol.readf({x, y, z})[0];
      storeElem<float>(out, size_t(y) * vol.width() + size_t(x), sum * invDepth);
    }
}

void trilinear(const Case& c, ArgBytes& a) {
  const HostImage vol(c, a, 0);
  auto& out = a.at(1);
  const auto smp = sampler(false, AddressingMode::ClampToEdge, FilterMode::Linear);
  const auto g = grid(c);
  for (int z = 0; z < int(g[2]); ++z)
    for (int y = 0; y < int(g[1]); ++y)
      for (int x = 0; x < int(g[0]); ++x)
        storeFloat4(out, (size_t(z) * g[1] + size_t(y)) * g[0] + size_t(x),
                    vol.samplef(smp, {float(x) + 0.5f, float(y) + 0.5f, (float(z) * 0.75f) + 0.25f}));
}

// image_layer_blend.cl: p * a + q * (1 - a), each product and the sum rounded to float.
void layerBlend(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  const float la = scalar<float>(c, 2), lb = scalar<float>(c, 3), w = scalar<float>(c, 4);
  const auto smp = sampler(false, AddressingMode::ClampToEdge, FilterMode::Nearest);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const Float4 p = src.samplef(smp, {float(x) + 0.5f, float(y) + 0.5f, la});
      const Float4 q = src.samplef(smp, {float(x) + 0.5f, float(y) + 0.5f, lb});
      dst.writef({x, y, 0}, add(scale(p, w), scale(q, 1.0f - w)));
    }
}

void array1dLerp(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  const auto& smp = samplerArg(c, 1);
  auto& out = a.at(2);
  const float invN = scalar<float>(c, 3);
  const auto g = grid(c);
  for (int layer = 0; layer < int(g[1]); ++layer)
    for (int i = 0; i < int(g[0]); ++i)
      storeFloat4(out, size_t(layer) * g[0] + size_t(i), src.samplef(smp, {float(i) * invN, float(layer), 0}));
}

void lut1d(const Case& c, ArgBytes& a) {
  const HostImage lut(c, a, 0);
  const auto& in = a.at(1);
  auto& out = a.at(2);
  for (size_t i = 0; i < grid(c)[0]; ++i) storeFloat4(out, i, lut.readf({int32_t(loadElem<uint8_t>(in, i)), 0, 0}));
}

// image_tiling.cl: ((x + 0.5) * scale) - shift in float.
std::array<float, 3> tiled(int x, int y, float s, float shift) {
  return {((float(x) + 0.5f) * s) - shift, ((float(y) + 0.5f) * s) - shift, 0};
}

void tileRepeat(const Case& c, ArgBytes& a) {
  const HostImage tex(c, a, 0);
  HostImage dst(c, a, 1);
  const float s = scalar<float>(c, 2), shift = scalar<float>(c, 3);
  const auto smp = sampler(true, AddressingMode::Repeat, FilterMode::Nearest);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) dst.writef({x, y, 0}, tex.samplef(smp, tiled(x, y, s, shift)));
}

void tileMirror(const Case& c, ArgBytes& a) {
  const HostImage tex(c, a, 0);
  auto& out = a.at(1);
  const float s = scalar<float>(c, 2), shift = scalar<float>(c, 3);
  const auto smp = sampler(true, AddressingMode::MirroredRepeat, FilterMode::Linear);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x)
      storeFloat4(out, size_t(y) * g[0] + size_t(x), tex.samplef(smp, tiled(x, y, s, shift)));
}

// image_integer.cl posterize: the histogram counts every work-item once (the atomics' order does not matter); the
// second channel is written as an int and saturated by the format.
void posterize(const Case& c, ArgBytes& a) {
  const HostImage src(c, a, 0);
  HostImage dst(c, a, 1);
  auto& hist = a.at(2);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const uint32_t v = src.read({x, y, 0}, ColorKind::Uint).lanes[0];
      storeElem<uint32_t>(hist, v >> 4, loadElem<uint32_t>(hist, v >> 4) + 1);
      const int32_t d = (int32_t(v) - 128) * 300;
      Color out;
      out.lanes = {uint32_t(int32_t(v >> 4) * 17), uint32_t(d), 0, 0};
      dst.write({x, y, 0}, out, ColorKind::Int);
    }
}

void depthRead(const Case& c, ArgBytes& a) {
  const HostImage depth(c, a, 0);
  const auto& smp = samplerArg(c, 1);
  auto& out = a.at(2);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x)
      storeElem<float>(out, size_t(y) * g[0] + size_t(x),
                       depth.samplef(smp, {(float(x) * 0.25f) + 0.125f, (float(y) * 0.25f) + 0.125f, 0})[0]);
}

// image_read_write.cl brighten: each work-item reads its own texel before writing it, so the texels are independent.
void brighten(const Case& c, ArgBytes& a) {
  HostImage img(c, a, 0);
  const float gain = scalar<float>(c, 1);
  const auto g = grid(c);
  for (int y = 0; y < int(g[1]); ++y)
    for (int x = 0; x < int(g[0]); ++x) {
      const Float4 v = img.readf({x, y, 0});
      img.writef({x, y, 0}, {v[0] * gain, v[1] * gain, v[2] * gain, v[3]});
    }
}

// image_queries.cl: OpenCL C 3.0 §6.15.15.5 [[built-in-image-query-functions]]: the sizes, and the CLK_* channel data
// type and order values, which equal the API's CL_* values (cl.h and opencl-c-base.h define the same numbers).
void queries(const Case& c, ArgBytes& a) {
  const HostImage ia(c, a, 0), ib(c, a, 1), ic(c, a, 2), id(c, a, 3), ie(c, a, 4);
  auto& out = a.at(5);
  const auto type = [](const HostImage& i) { return int32_t(i.desc().format.type); };
  const auto order = [](const HostImage& i) { return int32_t(i.desc().format.order); };
  const auto& A = ia.desc();
  const auto& B = ib.desc();
  const auto& C = ic.desc();
  const int32_t values[22] = {int32_t(A.width), int32_t(A.height), type(ia), order(ia),
                              int32_t(A.width * 1000 + A.height), int32_t(B.width), int32_t(B.height),
                              int32_t(B.depth), int32_t((B.width * 1000 + B.height) * 1000 + B.depth), type(ib),
                              order(ib), int32_t(C.width), int32_t(C.height), int32_t(C.arraySize), order(ic),
                              int32_t(id.desc().width), type(id), order(id), int32_t(ie.desc().width),
                              int32_t(ie.desc().arraySize), type(ie), order(ie)};
  for (size_t i = 0; i < 22; ++i) storeElem<int32_t>(out, i, values[i]);
}

}  // namespace

std::vector<std::pair<std::string, HostReference>> imageHostReferences() {
  const std::pair<const char*, HostReference> kernels[] = {
      {"image_box_blur5", boxBlur5},
      {"image_gauss3", gauss3},
      {"image_rotate_bilinear", rotateBilinear},
      {"image_rotate_unnormalized", rotateUnnormalized},
      {"image_rgba8_to_float", convertCopy},
      {"image_float_to_rgba16", convertCopy},
      {"image_srgb_to_linear", convertCopy},
      {"image_mip_lod", mipLod},
      {"image_mip_lod3d", mipLod3d},
      {"image_mip_lod_array", mipLodArray},
      {"image_to_buffer", imageToBuffer},
      {"image_buffer_to_image", bufferToImage},
      {"image3d_slice_average", sliceAverage},
      {"image3d_trilinear", trilinear},
      {"image_layer_blend", layerBlend},
      {"image1d_array_lerp", array1dLerp},
      {"image_lut1d", lut1d},
      {"image_tile_repeat", tileRepeat},
      {"image_tile_mirror", tileMirror},
      {"image_posterize", posterize},
      {"image_depth_read", depthRead},
      {"image_brighten", brighten},
      {"image_queries", queries},
  };
  // Every image kernel has a case at -O0 and one at -O2.
  std::vector<std::pair<std::string, HostReference>> out;
  for (const auto& [name, fn] : kernels) {
    out.emplace_back(std::string(name) + "_O0", fn);
    out.emplace_back(std::string(name) + "_O2", fn);
  }
  // tile_mirror's case with the choice image_coordinate_precision=exact (its reference reads the case's choices).
  out.emplace_back("image_tile_mirror_exact_O0", tileMirror);
  return out;
}

}  // namespace clref::golden
