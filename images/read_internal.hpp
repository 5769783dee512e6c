// The pieces of a sampled read (internal to the images module): per-axis addressing, the mip levels a read uses, and
// the filter's two evaluations (read.cpp, lod.cpp, filter.cpp).
#pragma once
#include <array>
#include <cstdint>

#include "images/axis_internal.hpp"
#include "images/image.hpp"
#include "images/rational_internal.hpp"
#include "images/sampler.hpp"
#include "images/texel_internal.hpp"

namespace clref::images {

// axisFast (axis_internal.hpp) exactly; out.a is left 0 and the exact a is written to `a`.
void axisExact(double s, const AxisRule& r, AxisSample& out, Rational& a);

// A mip level as a read sees it.
struct LevelPlan {
  uint32_t level = 0;
  uint64_t offset = 0, rowPitch = 0, slicePitch = 0;
  unsigned elementBytes = 0;
  unsigned axes = 1;  // sampled axes: 1 (1D, 1D buffer, 1D array), 2 (2D, 2D array), 3 (3D)
  std::array<int64_t, 3> sizes{1, 1, 1};
  int64_t layers = 1;  // array size (1 for non-arrays)
};
LevelPlan planLevel(const ImageView& v, uint32_t level);
// The element at (x, y, z) of the level (y the layer of a 1D array, z of a 2D array); throws std::invalid_argument
// when the view's bytes do not reach it.
const uint8_t* elementAt(const ImageView& v, const LevelPlan& l, int64_t x, int64_t y, int64_t z);
// The texel at the axis indices `idx` (the border colour outside the level) of layer `layer`.
// The element at index idx (and layer) of level l, or null when idx is outside the level (the border colour).
const uint8_t* texelElement(const ImageView& v, const LevelPlan& l, const std::array<int64_t, 3>& idx, int64_t layer);
ExactTexel fetch(const ImageView& v, const LevelPlan& l, const std::array<int64_t, 3>& idx, int64_t layer,
                 const ConversionOptions& o);

// A sampled read after the undefined conditions are settled.
struct ReadRequest {
  ColorKind kind = ColorKind::Float;
  ConversionOptions conversion;
  Sampler sampler;  // with the substitutions the undefined conditions' choices make
  unsigned axes = 1;
  std::array<double, 3> coords{};  // exact coordinate values (binary32 or int32)
  double layerCoord = 0;
  // The levels read: one, or two blended with weights 1 − mipFrac and mipFrac (mipFrac a binary32 value in (0, 1)).
  std::array<uint32_t, 2> levels{0, 0};
  unsigned levelCount = 1;
  double mipFrac = 0;
  bool binary32Coordinates = false;  // image_coordinate_precision = binary32 (AxisRule::binary32)
};

// cl_khr_mipmap_image level selection (the choice image_lod_selection, gl_rules): fills levels, levelCount, mipFrac.
void selectLevels(const ImageDesc& d, const Sampler& s, const LevelOfDetail& lod, ReadRequest& req);

// A sampled read of level 0 (no lod or gradients, or an image with one level) with float coordinates, a format with
// a direct decoder (texel_internal.hpp DirectFormat) and none of the undefined conditions but CLK_ADDRESS_NONE
// outside the image, in binary64 as fastTaps and finishRead evaluate it, without building the request: false when
// any of that does not hold or the error bound does not decide (then readSampled's general path, which gives the
// same result, decides). For the common reads, at a fraction of the general path's cost.
bool readLevelZeroFast(const ImageView& image, const Sampler& s, const Coord& coord, ColorKind kind,
                       const ConversionOptions& o, ReadResult& out, bool binary32Coordinates = false);

// The filtered (or nearest) value: the fast path, then the exact one unless o.exactOnly.
ReadResult finishRead(const ImageView& image, const ReadRequest& req, const AccessOptions& o, ReadResult partial);

}  // namespace clref::images
