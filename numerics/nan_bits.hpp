// The bits of OpenCL.std nan(nancode), for the interpreter's nan (interpreter/ops_math.cpp) and `clref sweep nan --out`
// (cli/sweep_command.cpp): one definition, so that both write the same NaN.
#pragma once
#include <cstdint>

#include "numerics/format.hpp"

namespace clref::numerics {

// OpenCL C 3.0 §6.15.2 [[math-functions]] nan: "Returns a quiet NaN. The nancode may be placed in the significand of
// the resulting NaN": the format's default quiet NaN, with `payload` (choice nan_payload's significand) the code's low
// bits below the quiet bit.
constexpr uint64_t quietNanBits(Format f, uint64_t code, bool payload) {
  if (!payload) code = 0;
  return f == Format::Half    ? 0x7e00u | (code & 0x1ffu)
         : f == Format::Float ? 0x7fc00000u | (code & 0x3fffffu)
                              : 0x7ff8000000000000ull | (code & 0x7ffffffffffffull);
}

}  // namespace clref::numerics
