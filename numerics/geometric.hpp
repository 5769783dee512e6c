// Geometric functions (OpenCL C 3.0 §6.15.5 [[geometric-functions]]: cross, dot, distance, length, normalize and the
// fast_ variants), each component the correctly rounded value of the exact mathematical result.
// Vectors are components of `format` held exactly in doubles.
#pragma once
#include <span>

#include "numerics/format.hpp"

namespace clref::numerics {

// sqrt(Σ pᵢ²), rounded once.
double lengthExact(std::span<const double> p, Format format, Rounding r = Rounding::RTE);
// length(p0 − p1) with the differences exact, rounded once.
double distanceExact(std::span<const double> p0, std::span<const double> p1, Format format, Rounding r = Rounding::RTE);
// pᵢ / sqrt(Σ pⱼ²), each rounded once; an all-zero p is returned unchanged (the spec's
// reference code for fast_normalize: "if (all(p == 0.0f)) result = p"). Infinite components
// give the limit: ±1/√k for the k infinite ones, ±0 for the rest.
void normalizeExact(std::span<const double> p, std::span<double> out, Format format, Rounding r = Rounding::RTE);
// (a.y·b.z − a.z·b.y, a.z·b.x − a.x·b.z, a.x·b.y − a.y·b.x), each rounded once.
void crossExact(std::span<const double> a, std::span<const double> b, std::span<double> out, Format format,
                Rounding r = Rounding::RTE);

}  // namespace clref::numerics
