// read_image{f,h,i,ui} with a sampler, sampler-less reads and writes: OpenCL C 3.0 §8
// [[image-addressing-and-filtering]] (addressing, filtering, §8.4 [[selecting-an-image-from-an-image-array]]), §6.15.15
// [[image-read-and-write-functions]] and cl_khr_mipmap_image's level selection (the choice image_lod_selection).
//
// Exact first: every quantity of the spec's formulas — u = s · w_t, floor, frac(u − 0.5), the weights (1 − a)(1 − b)…,
// the mip blend and the weighted sum of exact texel values — is a rational (the coordinates are binary32 values, the
// sizes integers, the texels rationals) except the sRGB texels, which are algebraic (srgb.cpp). The exact path
// (filter.cpp) evaluates the sum in GMP rationals and rounds it once; with sRGB texels it encloses the sum by MPFR's
// directed roundings at increasing precision, which terminates because such a sum is never a rounding midpoint
// (srgb.cpp: each irrational L(n) = c_n · 5th-root(N_n) with positive c_n; by Besicovitch's theorem (A. S. Besicovitch,
// "On the linear independence of fractional powers of integers", J. London Math. Soc. 15, 1940 [external]) the real
// fifth roots of integers with distinct fifth-power-free parts are linearly independent over Q together with 1, so a
// sum with positive weights over at least one irrational L(n) is irrational).
//
// Fast second: the same formulas in binary64 (axis_internal.hpp's axisFast, filter.cpp's filteredFast) where each
// coordinate step is checked to be exact and the weighted sum carries a rigorous error bound; the float (or half) result
// is returned only when the bound proves which way the exact sum rounds, otherwise the exact path decides. tests/images/sampler_test.cpp
// compares the two on random reads.
#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "images/image.hpp"
#include "images/read_internal.hpp"
#include "images/sampler.hpp"
#include "images/texel_internal.hpp"
#include "numerics/exact_ops.hpp"

namespace clref::images {

namespace {

using numerics::Denorm;
using numerics::Format;

void note(Undefined& first, Undefined u) {
  if (first == Undefined::None) first = u;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
// The read.

namespace {

// The level of an image a read addresses: its sizes and where its elements are.
struct LevelAccess {
  LevelSize size;
  uint64_t offset, rowPitch, slicePitch;
};

LevelAccess levelAccess(const ImageDesc& d, uint32_t level) {
  if (level == 0) return {levelSize(d, 0), 0, d.rowPitch, d.slicePitch};
  const LevelLayout l = levelLayout(d, level);
  return {levelSize(d, level), l.offset, l.rowPitch, l.slicePitch};
}

}  // namespace

const uint8_t* elementAt(const ImageView& v, const LevelPlan& l, int64_t x, int64_t y, int64_t z) {
  const uint64_t elem = l.elementBytes;
  // A 1D array keeps its layer in y, one slice per layer.
  const uint64_t off = v.desc.type == ImageType::Image1DArray
                           ? l.offset + uint64_t(y) * l.slicePitch + uint64_t(x) * elem
                           : l.offset + uint64_t(z) * l.slicePitch + uint64_t(y) * l.rowPitch + uint64_t(x) * elem;
  if (off + elem > v.bytes || v.data == nullptr)
    throw std::invalid_argument("image view holds " + std::to_string(v.bytes) + " bytes, fewer than its descriptor (" +
                                std::string(nameOf(v.desc.type)) + ") needs");
  return v.data + off;
}

LevelPlan planLevel(const ImageView& v, uint32_t level) {
  const LevelAccess a = levelAccess(v.desc, level);
  LevelPlan p;
  p.level = level;
  p.offset = a.offset;
  p.rowPitch = a.rowPitch;
  p.slicePitch = a.slicePitch;
  p.elementBytes = elementSize(v.desc.format);
  // Sizes of the sampled axes and the number of layers.
  switch (v.desc.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      p.axes = 1;
      p.sizes = {int64_t(a.size.width), 1, 1};
      break;
    case ImageType::Image1DArray:
      p.axes = 1;
      p.sizes = {int64_t(a.size.width), 1, 1};
      p.layers = int64_t(a.size.height);
      break;
    case ImageType::Image2D:
      p.axes = 2;
      p.sizes = {int64_t(a.size.width), int64_t(a.size.height), 1};
      break;
    case ImageType::Image2DArray:
      p.axes = 2;
      p.sizes = {int64_t(a.size.width), int64_t(a.size.height), 1};
      p.layers = int64_t(a.size.depth);
      break;
    case ImageType::Image3D:
      p.axes = 3;
      p.sizes = {int64_t(a.size.width), int64_t(a.size.height), int64_t(a.size.depth)};
      break;
  }
  return p;
}

const uint8_t* texelElement(const ImageView& v, const LevelPlan& l, const std::array<int64_t, 3>& idx, int64_t layer) {
  for (unsigned k = 0; k < l.axes; ++k)
    if (idx[k] < 0 || idx[k] >= l.sizes[k]) return nullptr;
  int64_t x = idx[0], y = l.axes > 1 ? idx[1] : 0, z = l.axes > 2 ? idx[2] : 0;
  if (v.desc.type == ImageType::Image1DArray) y = layer;
  if (v.desc.type == ImageType::Image2DArray) z = layer;
  return elementAt(v, l, x, y, z);
}

ExactTexel fetch(const ImageView& v, const LevelPlan& l, const std::array<int64_t, 3>& idx, int64_t layer,
                 const ConversionOptions& o) {
  const uint8_t* e = texelElement(v, l, idx, layer);
  return e ? decodeExact(v.desc.format, e, o) : borderExact(v.desc.format.order);
}

namespace {

bool isFiniteCoord(double x) { return std::isfinite(x); }

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE: the precision of the addressing calculations is defined
// only for unnormalized nearest reads with NONE, CLAMP or CLAMP_TO_EDGE (the choice image_coordinate_precision).
bool binary32Coordinates(const AccessOptions& o) {
  const numerics::Choices& c = o.choices ? *o.choices : numerics::defaultChoices();
  return c.get<numerics::Choice::ImageCoordinatePrecision>() == numerics::ImageCoordinatePrecisionOption::Binary32;
}

}  // namespace

ReadResult readSampled(const ImageView& image, const Sampler& sampler, const Coord& coord, ColorKind kind,
                       const LevelOfDetail& lod, const AccessOptions& o) {
  ReadResult result;
  const ImageDesc& d = image.desc;
  if (!o.exactOnly && (lod.kind == LevelOfDetail::Kind::None || d.numMipLevels <= 1) &&
      readLevelZeroFast(image, sampler, coord, kind, o.conversion, result, binary32Coordinates(o)))
    return result;
  if (!isValidFormat(d.format)) throw std::invalid_argument("image view has no valid format");
  // §6.15.15.2 [[built-in-image-read-functions]]: read_imagef/h of normalized, half and float types, read_imagei of
  // signed and read_imageui of unsigned integer types; otherwise undefined (image_wrong_read_function: zero).
  if (!kindMatches(d.format.type, kind)) {
    result.undefined = Undefined::WrongReadFunction;
    return result;
  }
  const unsigned nAxes = d.type == ImageType::Image3D                                          ? 3
                         : (d.type == ImageType::Image2D || d.type == ImageType::Image2DArray) ? 2
                                                                                               : 1;
  const int layerIndex = d.type == ImageType::Image1DArray ? 1 : d.type == ImageType::Image2DArray ? 2 : -1;
  ReadRequest req;
  req.kind = kind;
  req.conversion = o.conversion;
  req.binary32Coordinates = binary32Coordinates(o);
  req.axes = nAxes;
  for (unsigned k = 0; k < 3; ++k) req.coords[k] = coord.isFloat ? double(coord.f[k]) : double(coord.i[k]);
  req.layerCoord = layerIndex >= 0 ? req.coords[size_t(layerIndex)] : 0.0;

  Sampler s = sampler;
  // OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]: integer coordinates need CLK_FILTER_NEAREST,
  // unnormalized coordinates and CLAMP_TO_EDGE, CLAMP or NONE; otherwise the values are undefined
  // (image_int_coord_sampler: the integers as exact coordinates).
  if (!coord.isFloat && (s.filter != FilterMode::Nearest || s.normalizedCoords ||
                         s.addressing == AddressingMode::Repeat || s.addressing == AddressingMode::MirroredRepeat))
    note(result.undefined, Undefined::IntCoordSampler);
  // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: INF or NaN coordinates leave the read undefined
  // (image_inf_nan_coordinate: the border colour).
  for (unsigned k = 0; k < nAxes; ++k)
    if (!isFiniteCoord(req.coords[k])) {
      note(result.undefined, Undefined::InfNanCoordinate);
      result.value = colorOf(borderExact(d.format.order), kind, o.conversion);
      return result;
    }
  if (layerIndex >= 0 && !isFiniteCoord(req.layerCoord)) {
    note(result.undefined, Undefined::InfNanCoordinate);
    result.value = colorOf(borderExact(d.format.order), kind, o.conversion);
    return result;
  }
  // §6.15.15.1 [[table-sampler-descriptor]]: REPEAT and MIRRORED_REPEAT need normalized coordinates
  // (image_unnormalized_repeat: CLAMP_TO_EDGE).
  if (!s.normalizedCoords &&
      (s.addressing == AddressingMode::Repeat || s.addressing == AddressingMode::MirroredRepeat)) {
    note(result.undefined, Undefined::UnnormalizedRepeat);
    s.addressing = AddressingMode::ClampToEdge;
  }
  // OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]: read_imagei/ui support the nearest filter only
  // (image_linear_integer_read: nearest, also between mip levels).
  const bool integerRead = kind == ColorKind::Int || kind == ColorKind::Uint;
  if (integerRead && (s.filter == FilterMode::Linear || (lod.kind != LevelOfDetail::Kind::None &&
                                                         s.mipFilter == FilterMode::Linear && d.numMipLevels > 1))) {
    note(result.undefined, Undefined::LinearIntegerRead);
    s.filter = FilterMode::Nearest;
    s.mipFilter = FilterMode::Nearest;
  }
  if (lod.kind != LevelOfDetail::Kind::None && d.numMipLevels > 1 && !s.normalizedCoords)
    note(result.undefined, Undefined::MipUnnormalized);

  selectLevels(d, s, lod, req);
  req.sampler = s;
  return finishRead(image, req, o, result);
}

namespace {

// The element a sampler-less read of level 0 addresses, or null when the coordinate (or layer) is outside the image
// or the view is short: the read then takes the general path below, which reports it. The same sizes and offsets as
// planLevel and texelElement give for level 0, without building the plan.
[[gnu::always_inline]] inline const uint8_t* levelZeroElement(const ImageView& image, const std::array<int32_t, 3>& coord,
                                                                uint64_t elementBytes) {
  const ImageDesc& d = image.desc;
  auto within = [](int32_t i, uint64_t size) { return i >= 0 && uint64_t(i) < size; };
  const uint64_t x = uint64_t(coord[0]) * elementBytes;
  uint64_t off;
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      if (!within(coord[0], d.width)) return nullptr;
      off = x;
      break;
    case ImageType::Image1DArray:
      if (!within(coord[0], d.width) || !within(coord[1], d.arraySize)) return nullptr;
      off = uint64_t(coord[1]) * d.slicePitch + x;
      break;
    case ImageType::Image2D:
      if (!within(coord[0], d.width) || !within(coord[1], d.height)) return nullptr;
      off = uint64_t(coord[1]) * d.rowPitch + x;
      break;
    case ImageType::Image2DArray:
      if (!within(coord[0], d.width) || !within(coord[1], d.height) || !within(coord[2], d.arraySize)) return nullptr;
      off = uint64_t(coord[2]) * d.slicePitch + uint64_t(coord[1]) * d.rowPitch + x;
      break;
    case ImageType::Image3D:
      if (!within(coord[0], d.width) || !within(coord[1], d.height) || !within(coord[2], d.depth)) return nullptr;
      off = uint64_t(coord[2]) * d.slicePitch + uint64_t(coord[1]) * d.rowPitch + x;
      break;
    default: return nullptr;
  }
  if (image.data == nullptr || off + elementBytes > image.bytes) return nullptr;
  return image.data + off;
}

}  // namespace

ReadResult readSamplerless(const ImageView& image, const std::array<int32_t, 3>& coord, ColorKind kind, uint32_t level,
                           const AccessOptions& o) {
  ReadResult result;
  const ImageDesc& d = image.desc;
  // The common case first: level 0 of a format with a direct decoder, inside the image (the general path below
  // settles everything else, undefined conditions included, and gives the same bits: decodeDirect is decodeExact's
  // value rounded as colorOf rounds it).
  if (level == 0 && !o.exactOnly) {
    const DirectFormat& df = directFormat(d.format);
    if (df.code != DirectFormat::Code::None)
      if (const uint8_t* e = levelZeroElement(image, coord, df.elementBytes))
        if (decodeDirectWith(df, e, kind, o.conversion, result.value)) return result;
  }
  if (!isValidFormat(d.format)) throw std::invalid_argument("image view has no valid format");
  if (!kindMatches(d.format.type, kind)) {
    result.undefined = Undefined::WrongReadFunction;
    return result;
  }
  // §6.15.15.3 [[built-in-image-sampler-less-read-functions]]: as a read with CLK_FILTER_NEAREST, unnormalized
  // coordinates and CLK_ADDRESS_NONE; a coordinate (§8.4 [[selecting-an-image-from-an-image-array]]: or a layer)
  // outside the image is undefined (image_samplerless_out_of_range: the border colour), as is a level the image does
  // not have (image_mip_level_out_of_range: the border colour).
  if (level >= std::max<uint32_t>(1, d.numMipLevels)) {
    result.undefined = Undefined::MipLevelOutOfRange;
    result.value = colorOf(borderExact(d.format.order), kind, o.conversion);
    return result;
  }
  const LevelPlan l = planLevel(image, level);
  std::array<int64_t, 3> idx{coord[0], l.axes > 1 ? coord[1] : 0, l.axes > 2 ? coord[2] : 0};
  const int layerIndex = d.type == ImageType::Image1DArray ? 1 : d.type == ImageType::Image2DArray ? 2 : -1;
  const int64_t layer = layerIndex >= 0 ? coord[size_t(layerIndex)] : 0;
  bool inside = layer >= 0 && layer < l.layers;
  for (unsigned k = 0; k < l.axes; ++k) inside = inside && idx[k] >= 0 && idx[k] < l.sizes[k];
  if (!inside) {
    result.undefined = Undefined::SamplerlessOutOfRange;
    result.value = colorOf(borderExact(d.format.order), kind, o.conversion);
    return result;
  }
  const uint8_t* e = texelElement(image, l, idx, layer);
  if (!o.exactOnly && decodeDirect(d.format, e, kind, o.conversion, result.value)) return result;
  result.value = colorOf(decodeExact(d.format, e, o.conversion), kind, o.conversion);
  return result;
}

Undefined write(const ImageView& image, const std::array<int32_t, 3>& coord, const Color& color, ColorKind kind,
                uint32_t level, const AccessOptions& o) {
  const ImageDesc& d = image.desc;
  // The common case first, as in readSamplerless: level 0 of a format with a direct decoder, inside the image.
  if (level == 0) {
    const DirectFormat& df = directFormat(d.format);
    if (df.code != DirectFormat::Code::None)
      if (const uint8_t* e = levelZeroElement(image, coord, df.elementBytes))
        if (encodeDirectWith(df, color, kind, const_cast<uint8_t*>(e), o.conversion)) return Undefined::None;
  }
  if (!isValidFormat(d.format)) throw std::invalid_argument("image view has no valid format");
  // §6.15.15.4 [[built-in-image-write-functions]]: write_imagef/h to normalized, half and float types, write_imagei
  // to signed and write_imageui to unsigned integer types; a coordinate outside the level, a layer beyond the array
  // or a level the image does not have leave the write undefined (the choices: nothing is written).
  if (!kindMatches(d.format.type, kind)) return Undefined::WrongReadFunction;
  if (level >= std::max<uint32_t>(1, d.numMipLevels)) return Undefined::MipLevelOutOfRange;
  const LevelPlan l = planLevel(image, level);
  const int layerIndex = d.type == ImageType::Image1DArray ? 1 : d.type == ImageType::Image2DArray ? 2 : -1;
  const int64_t layer = layerIndex >= 0 ? coord[size_t(layerIndex)] : 0;
  bool inside = layer >= 0 && layer < l.layers;
  for (unsigned k = 0; k < l.axes; ++k) inside = inside && coord[k] >= 0 && coord[k] < l.sizes[k];
  if (!inside) return Undefined::WriteOutOfRange;
  int64_t x = coord[0], y = l.axes > 1 ? coord[1] : 0, z = l.axes > 2 ? coord[2] : 0;
  if (d.type == ImageType::Image1DArray) y = layer;
  if (d.type == ImageType::Image2DArray) z = layer;
  encode(d.format, color, kind, const_cast<uint8_t*>(elementAt(image, l, x, y, z)), o.conversion);
  return Undefined::None;
}

}  // namespace clref::images
