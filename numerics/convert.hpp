// Conversions with an explicit rounding mode (OpenCL C 3.0 §6.4.3 explicit conversions
// convert_<type>[_sat][_<rounding>]; SPIR-V FPRoundingMode and SaturatedConversion).
#pragma once
#include <cstdint>

#include "numerics/format.hpp"

namespace clref::numerics {

// An integer converted to `f`, correctly rounded in mode r. The result is a value of `f`
// held exactly in a double (±inf when it overflows in rte/away modes, the largest finite value
// toward zero).
double intToFloat(int64_t v, Format f, Rounding r);
double uintToFloat(uint64_t v, Format f, Rounding r);

// A floating-point value (any binary64 value, in particular any value of a wider format)
// rounded to the narrower format `f` in mode r, with f's subnormals and overflow.
double floatToFloat(double x, Format f, Rounding r);

// x rounded to an integral value in mode r (rte: ties to even). Exact; NaN and ±inf pass
// through.
double roundToIntegral(double x, Rounding r);

}  // namespace clref::numerics
