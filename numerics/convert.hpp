// Conversions with an explicit rounding mode (OpenCL C 3.0 §6.4.3 [[explicit-conversions]] explicit conversions
// convert_<type>[_sat][_<rounding>]; SPIR-V FPRoundingMode and SaturatedConversion).
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>

#include "numerics/choices.hpp"
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

// Float → integer (floatToInt below) in two parts, for callers that fetch the choice only
// when it matters: the in-range value (nullopt out of range or NaN) and the out-of-range result.
inline std::optional<uint64_t> floatToIntInRange(double x, int bits, bool isSigned) {
  // The range [lo, hiExclusive) as exact doubles (powers of two, so the test is exact).
  const double lo = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hiExclusive = std::ldexp(1.0, isSigned ? bits - 1 : bits);
  if (x >= lo && x < hiExclusive) [[likely]]  // false for NaN
    return isSigned ? uint64_t(int64_t(x)) : uint64_t(x);
  return std::nullopt;
}
uint64_t floatToIntOutOfRange(double x, int bits, bool isSigned, bool saturate, FloatToIntOption option);

// Float → integer of `bits` bits (8, 16, 32, 64), signed or unsigned: x is already rounded to
// an integral value (or NaN, ±inf); the result is the integer's two's-complement bits in the
// low `bits` bits. In range, the exact value. Out of range or NaN, OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]:
// with saturation (convert_<type>_sat, SPIR-V SaturatedConversion) NaN gives 0 and other
// values the nearest representable one; without, the result is implementation-defined and the
// choice float_to_int_out_of_range decides (saturate as above, the minimum value, or 0).
inline uint64_t floatToInt(double x, int bits, bool isSigned, bool saturate, const Choices& choices) {
  if (const auto v = floatToIntInRange(x, bits, isSigned)) [[likely]]
    return *v;
  return floatToIntOutOfRange(x, bits, isSigned, saturate, choices.get<Choice::FloatToIntOutOfRange>());
}

}  // namespace clref::numerics
