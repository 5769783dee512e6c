// A shader's floating-point freedoms (interpreter/shader_float_freedoms.hpp).
#include "interpreter/shader_float_freedoms.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

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

numerics::VerdictOptions shaderVerdictOptions(numerics::VerdictOptions o, bool denormPreserve, bool roundingModeRTE,
                                              bool roundingModeRTZ) {
  // Vulkan §A.4 [external] (Precision and Operation of SPIR-V Instructions): "By default any denormalized
  // floating-point value ... may: be flushed to zero"; with DenormFlushToZero "the denormalized result must: be flushed
  // to zero" (the sets keep both, clref's value unflushed among them), with DenormPreserve they "must: be preserved".
  o.flushToZero = !denormPreserve;
  // Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: with RoundingModeRTE or RoundingModeRTZ "this is done
  // according to IEEE 754 roundTiesToEven or roundTowardZero"; "Otherwise, they are rounded with implementation-defined
  // rounding mode" (nullopt: either neighbour).
  o.rounding = roundingModeRTE   ? std::optional(numerics::Rounding::RTE)
               : roundingModeRTZ ? std::optional(numerics::Rounding::RTZ)
                                 : std::nullopt;
  o.accuracy.vulkanRounding = roundingModeRTE   ? numerics::VulkanRounding::RTE
                              : roundingModeRTZ ? numerics::VulkanRounding::RTZ
                                                : numerics::VulkanRounding::ImplementationDefined;
  return o;
}

}  // namespace clref::interpreter
