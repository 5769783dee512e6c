// cl_khr_mipmap_image: which mip levels a read with a lod or gradients uses. OpenCL C 3.0 §6.15.15.2
// [[built-in-image-read-functions]] says only that the lod "is clamped to the minimum of (actual number of mip levels -
// 1) in the image or the value specified for CL_SAMPLER_LOD_MAX" and that gradients are used "to compute the lod"; the
// rest is the choice image_lod_selection (numerics/choices.cpp), whose one option follows OpenGL 4.6 §8.14 [external]:
// the lod is log2 of the scale factor ρ (the larger Euclidean length of the gradients in texels of level 0), clamped
// to [max(lodMin, 0), min(lodMax, levels − 1)]; the nearest mip filter takes level ceil(lod + 0.5) − 1, the linear one
// blends floor(lod) and floor(lod) + 1 by frac(lod).
#include <mpfr.h>

#include <algorithm>
#include <cmath>

#include "images/read_internal.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::images {

namespace {

// log2(ρ) for the gradients, ρ² = max(Σ (dx_k · size_k)², Σ (dy_k · size_k)²) evaluated exactly (binary32 gradients
// times integer sizes, squared and summed: at most 2·(24 + 64) significant bits spread over at most 2·(127 + 149 +
// 64) binary places, so 1400 bits hold every intermediate exactly), then log2 rounded once to binary32.
double lodFromGradients(const ImageDesc& d, const LevelOfDetail& lod, unsigned axes) {
  const LevelSize s0 = levelSize(d, 0);
  const std::array<uint64_t, 3> sizes{s0.width, s0.height, s0.depth};
  numerics::Mpfr sumX(1400), sumY(1400), t(1400);
  mpfr_set_zero(sumX, 1);
  mpfr_set_zero(sumY, 1);
  for (unsigned k = 0; k < axes; ++k) {
    if (!std::isfinite(lod.dx[k]) || !std::isfinite(lod.dy[k])) return NAN;
    mpfr_set_flt(t, lod.dx[k], MPFR_RNDN);
    mpfr_mul_ui(t, t, sizes[k], MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN);
    mpfr_add(sumX, sumX, t, MPFR_RNDN);
    mpfr_set_flt(t, lod.dy[k], MPFR_RNDN);
    mpfr_mul_ui(t, t, sizes[k], MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN);
    mpfr_add(sumY, sumY, t, MPFR_RNDN);
  }
  mpfr_max(t, sumX, sumY, MPFR_RNDN);
  if (mpfr_zero_p(t)) return -INFINITY;
  // log2(ρ) = log2(ρ²) / 2: log2(ρ²) correctly rounded to 24 bits, halved exactly (|log2 ρ| < 2^9, a normal float).
  numerics::Mpfr l(24);
  mpfr_log2(l, t, MPFR_RNDN);
  return mpfr_get_d(l, MPFR_RNDN) / 2;
}

}  // namespace

void selectLevels(const ImageDesc& d, const Sampler& s, const LevelOfDetail& lod, ReadRequest& req) {
  req.levels = {0, 0};
  req.levelCount = 1;
  req.mipFrac = 0;
  // §6.15.15.2: reads without a lod or gradients use level 0.
  const uint32_t levels = std::max<uint32_t>(1, d.numMipLevels);
  if (lod.kind == LevelOfDetail::Kind::None || levels == 1) return;
  double lambda = lod.kind == LevelOfDetail::Kind::Lod ? double(lod.lod) : lodFromGradients(d, lod, req.axes);
  const double lo = std::max(double(s.lodMin), 0.0), hi = std::min(double(s.lodMax), double(levels - 1));
  // A NaN lod (or NaN gradients) is taken as the lower bound.
  if (std::isnan(lambda)) lambda = lo;
  lambda = std::min(std::max(lambda, lo), hi);
  if (!(lambda > 0)) return;
  if (s.mipFilter == FilterMode::Nearest) {
    const double level = std::ceil(lambda + 0.5) - 1;  // exact: lambda is a binary32 value below 2^32
    req.levels[0] = uint32_t(std::clamp(level, 0.0, double(levels - 1)));
    return;
  }
  const double base = std::floor(lambda);
  req.levels[0] = uint32_t(base);
  req.mipFrac = lambda - base;  // exact
  if (req.mipFrac > 0 && req.levels[0] + 1 < levels) {
    req.levels[1] = req.levels[0] + 1;
    req.levelCount = 2;
  } else {
    req.mipFrac = 0;
  }
}

}  // namespace clref::images
