#include "cli/special_values.hpp"

#include <cfloat>
#include <cmath>
#include <limits>

#include "cli/value_syntax.hpp"

namespace clref::cli::detail {

namespace {

// The limits of one IEEE 754 binary format (OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]]: half, float and double
// are binary16, binary32, binary64), all exactly representable in binary64.
struct FormatLimits {
  double minSubnormal;
  double maxSubnormal;
  double minNormal;
  double maxFinite;
  double firstInexactInteger;  // 2^p: above it not every integer is representable
};

FormatLimits limitsOf(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return {0x1p-24, 0x1p-14 - 0x1p-24, 0x1p-14, 65504.0, 0x1p11};
    case ScalarType::Float: return {0x1p-149, 0x1p-126 - 0x1p-149, 0x1p-126, double(FLT_MAX), 0x1p24};
    default:
      return {std::numeric_limits<double>::denorm_min(), DBL_MIN - std::numeric_limits<double>::denorm_min(), DBL_MIN,
              DBL_MAX, 0x1p53};
  }
}

// The table, index → value (every entry rounded to nearest even into the format; all but
// 1e-3 and pi are exact):
//   0 +0            1 -0             2 +inf            3 -inf
//   4 quiet NaN (default bits: 0x7e00, 0x7fc00000, 0x7ff8000000000000)
//   5 +smallest subnormal            6 +largest subnormal
//   7 -smallest subnormal            8 -largest subnormal
//   9 +smallest normal              10 -smallest normal
//  11 +largest finite               12 -largest finite
//  13 1           14 -1            15 0.5            16 -0.5
//  17 1.5         18 2.5           19 -2.5           20 3
//  21 2^p (half 2048, float 16777216, double 9007199254740992): the first power of two whose
//     successor integer is not representable, the edge of exact integer arithmetic
//  22 1e-3        23 pi
// Ties (2.5, -2.5, 0.5, 1.5) catch rounding-mode mistakes in rint/round/conversions; the
// subnormals catch flushing; the finite extremes catch overflow.
std::array<uint64_t, kSpecialCount> buildTable(ScalarType t) {
  const FormatLimits f = limitsOf(t);
  const double inf = std::numeric_limits<double>::infinity();
  const double values[kSpecialCount] = {
      0.0,
      -0.0,
      inf,
      -inf,
      0.0 /* NaN, set below */,
      f.minSubnormal,
      f.maxSubnormal,
      -f.minSubnormal,
      -f.maxSubnormal,
      f.minNormal,
      -f.minNormal,
      f.maxFinite,
      -f.maxFinite,
      1.0,
      -1.0,
      0.5,
      -0.5,
      1.5,
      2.5,
      -2.5,
      3.0,
      f.firstInexactInteger,
      1e-3,
      3.14159265358979323846,
  };
  std::array<uint64_t, kSpecialCount> table{};
  for (size_t i = 0; i < kSpecialCount; ++i) table[i] = roundToType(t, values[i]);
  table[4] = quietNaNBits(t);
  return table;
}

}  // namespace

const std::array<uint64_t, kSpecialCount>& specialTable(ScalarType t) {
  static const auto half = buildTable(ScalarType::Half);
  static const auto single = buildTable(ScalarType::Float);
  static const auto dbl = buildTable(ScalarType::Double);
  return t == ScalarType::Half ? half : t == ScalarType::Float ? single : dbl;
}

}  // namespace clref::cli::detail
