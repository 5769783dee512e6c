// Exact OpenCL.std operations shared by every caller: the interpreter's fast handlers,
// numerics::evaluate and the verdicts use these and nothing else, so each rule is written once.
// Operands and results are values of the format held exactly in doubles.
#pragma once
#include <cmath>

namespace clref::numerics {

// OpenCL C 3.0 §6.15.2 [[math-functions]] fmax: "Returns y if x < y, otherwise it returns x. If one argument is a
// NaN, fmax() returns the other argument. If both arguments are NaNs, fmax() returns a NaN."
// Followed literally, so fmax(-0, +0) is -0 and fmax(+0, -0) is +0. Two NaNs give the default
// NaN (clref carries no NaN payloads through these).
inline double fmax(double x, double y) {
  if (std::isnan(x)) return std::isnan(y) ? std::nan("") : y;
  if (std::isnan(y)) return x;
  return x < y ? y : x;
}

// OpenCL C 3.0 §6.15.2 [[math-functions]] fmin: "Returns y if y < x, otherwise it returns x"; NaN rules as fmax.
inline double fmin(double x, double y) {
  if (std::isnan(x)) return std::isnan(y) ? std::nan("") : y;
  if (std::isnan(y)) return x;
  return y < x ? y : x;
}

// OpenCL C 3.0 §6.15.2 [[math-functions]] rint: round to integral value, ties to even, whatever the caller's
// rounding mode (§7.5.2 [[changes-to-c99-tc2-behavior]] "rint always rounds according to round to nearest even"). Done
// by hand so that the host's floating-point environment cannot change it. The sign of x is kept, also
// for a zero result (§7.5.1 [[additional-requirements-beyond-c99-tc2]]: rint(-0.5 <= x < 0) is -0); NaN and ±inf are
// returned as is.
inline double rint(double x) {
  if (!std::isfinite(x)) return x;
  const double f = std::floor(x);
  const double diff = x - f;  // exact: x and floor(x) share their high bits
  double r = f;
  if (diff > 0.5 || (diff == 0.5 && std::fmod(f, 2.0) != 0)) r = f + 1;
  return std::copysign(r, x);
}

}  // namespace clref::numerics
