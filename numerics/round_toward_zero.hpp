// The correctly rounded operations rounded toward zero (IEEE 754-2008 §4.3.2 [external] roundTowardZero): a Vulkan
// shader whose entry point declares RoundingModeRTZ, or the choice vulkan_rounding=toward_zero, rounds its
// correctly rounded arithmetic this way (interpreter/ops_common.hpp picks these at lowering).
//
// The fast path computes the result rounded to nearest and the exact error term of that rounding (TwoSum for a sum,
// fma(a, b, −p) for a product, the residual a − q·b of a quotient, r² − x of a square root); when the rounding went
// away from zero it steps one ulp toward zero, and an overflow to ±inf becomes the largest finite value. binary16
// operations and the binary32 fma are formed in binary64, where the error terms are exact. Where the error term is
// not exact (results near the underflow threshold, an intermediate overflow, the binary64 fma) the fast path says
// so, and the operation goes through MPFR in MPFR_RNDZ with the format's range and subnormals.
#pragma once
#include <cstdint>
#include <optional>

#include "numerics/format.hpp"

namespace clref::numerics {

enum class RoundedOp : uint8_t { Add, Sub, Mul, Div, Sqrt, Fma };

// The fast path alone: nullopt where its error term would not be exact. T is Half, float or double; unused operands
// (b and c of Sqrt, c of the binary ones) are ignored. NaN operands give a quiet NaN, as the host's operation does.
template <RoundedOp Op, class T> std::optional<T> towardZeroFast(T a, T b, T c);
// The operation through MPFR alone (finite operands; the tests' check of the fast path's fallback).
template <RoundedOp Op, class T> T towardZeroMpfr(T a, T b, T c);

template <RoundedOp Op, class T> T towardZero(T a, T b = T{}, T c = T{}) {
  if (const std::optional<T> r = towardZeroFast<Op>(a, b, c)) return *r;
  return towardZeroMpfr<Op>(a, b, c);
}

template <class T> T addTowardZero(T a, T b) { return towardZero<RoundedOp::Add>(a, b); }
template <class T> T subTowardZero(T a, T b) { return towardZero<RoundedOp::Sub>(a, b); }
template <class T> T mulTowardZero(T a, T b) { return towardZero<RoundedOp::Mul>(a, b); }
template <class T> T divTowardZero(T a, T b) { return towardZero<RoundedOp::Div>(a, b); }
template <class T> T sqrtTowardZero(T a) { return towardZero<RoundedOp::Sqrt>(a); }
template <class T> T fmaTowardZero(T a, T b, T c) { return towardZero<RoundedOp::Fma>(a, b, c); }

}  // namespace clref::numerics
