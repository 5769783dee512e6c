// Addressing along one sampled axis in binary64 (OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]): the fast path's
// steps, each checked to be exact, or rounded to binary32 for the choice image_coordinate_precision=binary32. Inline,
// because every fast sampled read takes one to three of them (read.cpp explains the exact and fast paths).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "images/sampler.hpp"
#include "numerics/exact_ops.hpp"

namespace clref::images {

// How one sampled axis is addressed: the sampler's mode (REPEAT and MIRRORED_REPEAT only with normalized coordinates;
// read.cpp maps the other case to CLAMP_TO_EDGE), normalization, the filter, and the level's size along the axis.
struct AxisRule {
  AddressingMode mode;
  bool normalized;
  bool linear;
  int64_t size;
  // The choice image_coordinate_precision: false (exact) evaluates the formulas exactly; true (binary32) rounds each
  // step to binary32 as a float pipeline does (axisBinary32).
  bool binary32 = false;
};
// The texel indices along one axis (i0 only for nearest; may lie outside [0, size): border) and, for linear, the
// weight a of i1 (i0 has 1 − a). noneOutside: CLK_ADDRESS_NONE with a coordinate outside [0, size).
struct AxisSample {
  int64_t i0 = 0, i1 = 0;
  double a = 0;
  bool noneOutside = false;
};

namespace axis_detail {

// An exact floor (or other integral double) as a texel index; values beyond ±2^62 are far outside any image and are
// clamped so that index arithmetic cannot overflow.
inline int64_t toIndex(double f) {
  if (f < -0x1p62) return -(int64_t(1) << 62);
  if (f > 0x1p62) return int64_t(1) << 62;
  return int64_t(f);
}

// floor of a finite double without a library call (the build targets baseline x86-64, which has no rounding
// instruction): below 2^52 in magnitude the conversion to int64 truncates exactly, one more than the floor for a
// negative non-integer; from 2^52 on every double is an integer. The sign of a zero is not kept (only integer
// indices and exact differences d − floor(d), unchanged by it, come from it).
inline double floorFinite(double x) {
  if (!(std::fabs(x) < 0x1p52)) return x;
  const double t = double(int64_t(x));
  return t > x ? t - 1 : t;
}

// x - y, and whether it is exact (Knuth's TwoSum: the rounding error is recovered exactly and compared with 0).
inline bool exactSub(double x, double y, double& d) {
  d = x - y;
  const double bp = d - x, ap = d - bp;
  return (x - ap) + (-y - bp) == 0;
}
// x · y, and whether it is exact (the fused residual x·y − p is exact; the products here never underflow: |x| is 0
// or at least 2^-149 and y >= 1). The common case needs no fused multiply-add (a library call without FMA code
// generation): a binary32 value has at most 24 significant bits and an integer y < 2^29 at most 29, so their product
// has at most 53 and is exact in binary64.
inline bool exactMul(double x, double y, double& p) {
  p = x * y;
  if (y < 0x1p29 && double(float(x)) == x) return true;
  return std::fma(x, y, -p) == 0;
}

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] table-address-modes-texel-location: address_mode(coord) for
// CLAMP_TO_EDGE clamp(coord, 0, size - 1), CLAMP clamp(coord, -1, size), NONE coord.
inline int64_t addressClampOrNone(int64_t i, AddressingMode m, int64_t size) {
  if (m == AddressingMode::ClampToEdge) return std::clamp<int64_t>(i, 0, size - 1);
  if (m == AddressingMode::Clamp) return std::clamp<int64_t>(i, -1, size);
  return i;
}

// The steps of the addressing formulas in binary64, each checked to be exact (Knuth's TwoSum, the fused residual): false
// when one is not, and the exact evaluation decides.
struct ExactSteps {
  static bool sub(double x, double y, double& d) { return exactSub(x, y, d); }
  static bool mul(double x, double y, double& p) { return exactMul(x, y, p); }
};
// The choice image_coordinate_precision=binary32: each step formed exactly in binary64 and rounded once to binary32.
// s is a binary32 (or int32) value and the sizes are below 2^29, so the products have at most 53 significant bits;
// differences of binary32 values below 2^52 are exact in binary64 (above it u − 0.5 rounds to u either way, u being
// an even binary64). Beyond the binary32 range (FLT_MAX + half an ulp rounds to infinity) the conversion would be
// undefined in C++. A NaN difference (inf − inf: the fraction of an infinite or NaN u, which addresses the clamped
// ends) gives a = 0, which is then unused.
struct Binary32Steps {
  static double f32(double x) { return std::fabs(x) >= 0x1.ffffffp127 ? std::copysign(INFINITY, x) : double(float(x)); }
  static bool sub(double x, double y, double& d) {
    const double diff = x - y;
    d = std::isnan(diff) ? 0.0 : f32(diff);
    return true;
  }
  static bool mul(double x, double y, double& p) {
    p = f32(x * y);
    return true;
  }
};

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] along one axis, with the arithmetic of Steps; false when a step
// cannot be given (ExactSteps only).
template <class Steps> inline bool axisWith(double s, const AxisRule& r, AxisSample& out) {
  const double w = double(r.size);
  double u, t;
  out.noneOutside = false;
  switch (r.mode) {
    case AddressingMode::Repeat: {
      // u = (s - floor(s)) * w_t; nearest i = (int)floor(u), if (i > w_t - 1) i = i - w_t; linear i0 = (int)floor(u -
      // 0.5), i1 = i0 + 1, if (i0 < 0) i0 = w_t + i0, if (i1 > w_t - 1) i1 = i1 - w_t.
      if (!Steps::sub(s, floorFinite(s), t) || !Steps::mul(t, w, u)) return false;
      if (!r.linear) {
        int64_t i = toIndex(floorFinite(u));
        if (i > r.size - 1) i -= r.size;
        out.i0 = i;
        return true;
      }
      double d;
      if (!Steps::sub(u, 0.5, d)) return false;
      const double f = floorFinite(d);
      if (!Steps::sub(d, f, out.a)) return false;
      out.i0 = toIndex(f);
      out.i1 = out.i0 + 1;
      if (out.i0 < 0) out.i0 += r.size;
      if (out.i1 > r.size - 1) out.i1 -= r.size;
      return true;
    }
    case AddressingMode::MirroredRepeat: {
      // s' = 2.0f * rint(0.5f * s), s' = fabs(s - s'), u = s' * w_t; nearest i = min((int)floor(u), w_t - 1); linear
      // i0 = max((int)floor(u - 0.5f), 0), i1 = min(i0 + 1, w_t - 1) with i1 from the unclamped i0. 0.5 · s is exact
      // in binary64, and rint of it equals rint of the binary32 product (the only inexact binary32 products are below
      // 2^-126, where both rint to ±0).
      const double sp = 2.0 * numerics::rint(0.5 * s);
      if (!Steps::sub(s, sp, t)) return false;
      if (!Steps::mul(std::fabs(t), w, u)) return false;
      if (!r.linear) {
        out.i0 = std::min(toIndex(floorFinite(u)), r.size - 1);
        return true;
      }
      double d;
      if (!Steps::sub(u, 0.5, d)) return false;
      const double f = floorFinite(d);
      if (!Steps::sub(d, f, out.a)) return false;
      const int64_t i0 = toIndex(f);
      out.i0 = std::max<int64_t>(i0, 0);
      out.i1 = std::min<int64_t>(i0 + 1, r.size - 1);
      return true;
    }
    default: {
      // §8.1 [[image-coordinates]]: normalized coordinates are multiplied by the size; then i = address_mode((int)
      // floor(u)) or i0 = address_mode((int)floor(u - 0.5)), i1 = address_mode((int)floor(u - 0.5) + 1), a =
      // frac(u - 0.5).
      if (r.normalized) {
        if (!Steps::mul(s, w, u)) return false;
      } else {
        u = s;
      }
      const int64_t whole = toIndex(floorFinite(u));
      out.noneOutside = r.mode == AddressingMode::None && (whole < 0 || whole >= r.size);
      if (!r.linear) {
        out.i0 = addressClampOrNone(whole, r.mode, r.size);
        return true;
      }
      double d;
      if (!Steps::sub(u, 0.5, d)) return false;
      const double f = floorFinite(d);
      if (!Steps::sub(d, f, out.a)) return false;
      const int64_t i = toIndex(f);
      out.i0 = addressClampOrNone(i, r.mode, r.size);
      out.i1 = addressClampOrNone(i + 1, r.mode, r.size);
      return true;
    }
  }
  return false;
}


}  // namespace axis_detail

// The same with every step of the formulas — u = s · w_t, s − floor(s), 2·rint(0.5·s), |s − s'|, the products by
// w_t, u − 0.5 and the fractional part a — rounded to binary32 (round to nearest even): the option binary32 of the
// choice image_coordinate_precision. out.a is that binary32 a (a binary64 value exactly).
inline void axisBinary32(double s, const AxisRule& r, AxisSample& out) {
  out = AxisSample{};
  (void)axis_detail::axisWith<axis_detail::Binary32Steps>(s, r, out);
}

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] in binary64: false when a step is not exact (then the exact
// evaluation decides).
inline bool axisFast(double s, const AxisRule& r, AxisSample& out) {
  if (r.binary32) {
    axisBinary32(s, r, out);
    return true;
  }
  return axis_detail::axisWith<axis_detail::ExactSteps>(s, r, out);
}

}  // namespace clref::images
