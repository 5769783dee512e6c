// A shader's floating-point freedoms (interpreter/shader_float_freedoms.hpp).
#include "interpreter/shader_float_freedoms.hpp"

#include <algorithm>
#include <cmath>

namespace clref::interpreter {

numerics::ValueSet withShaderFreedoms(numerics::ValueSet set, std::span<const numerics::ValueSet> operands,
                                      bool assumesFinite, bool anyZeroSign) {
  // Vulkan §A.4 [external] [[spirvenv-op-prec]]: without SignedZeroInfNanPreserve a NaN or an infinity among the
  // operands or the permitted results allows any value (and -cl-finite-math-only assumes there is none).
  if (assumesFinite) {
    auto nonFinite = [](const numerics::ValueSet& v) { return v.nan || std::isinf(v.lo) || std::isinf(v.hi); };
    bool any = nonFinite(set);
    for (const auto& a : operands) any = any || nonFinite(a);
    if (any) return numerics::ValueSet::all();
  }
  // NSZ: the sign of a zero result is not significant.
  if (anyZeroSign && set.hasNumbers() && set.lo <= 0 && set.hi >= 0) {
    set.lo = std::min(set.lo, -0.0);
    if (set.lo == 0) set.lo = -0.0;
    if (set.hi == 0) set.hi = 0.0;
  }
  return set;
}

numerics::ValueSet glslStd450AllowedSet(numerics::MathFn fn, std::span<const numerics::ValueSet> operands,
                                        numerics::Format format, const numerics::VerdictOptions& options) {
  // Vulkan §A.4.2 [external] [[precision-of-glsl-std-450-instructions]]: the instruction's row; none of
  // GLSL.std.450's instructions is among those SignedZeroInfNanPreserve applies to, so both freedoms hold.
  return withShaderFreedoms(numerics::allowedSet(fn, operands, format, numerics::Profile::Vulkan, options), operands,
                            true, true);
}

}  // namespace clref::interpreter
