// The freedoms a shader's floating-point result has beyond its instruction's row, and with them the allowed set of a
// GLSL.std.450 instruction that has an accuracy row of its own: the one place these rules live, for the shadow run
// (shadow_support.cpp, what `clref check` judges a shader by) and for `clref sweep GLSL.std.450:NAME` (cli/, which
// reaches it through check/glsl_allowed_set.hpp: of the interpreter it may include only the public headers).
#pragma once
#include <span>

#include "numerics/enclosure.hpp"

namespace clref::interpreter {

// `set` (an instruction's allowed results at `operands`) widened by what a shader's execution modes leave free:
// `assumesFinite` (-cl-finite-math-only, a shader's NotNaN and NotInf): with a NaN or an infinity among the operands
// or the results, any value; `anyZeroSign` (a shader's NSZ): the sign of a zero result is free.
numerics::ValueSet withShaderFreedoms(numerics::ValueSet set, std::span<const numerics::ValueSet> operands,
                                      bool assumesFinite, bool anyZeroSign);

// The allowed results of a GLSL.std.450 instruction with a row of its own in Vulkan's table, `fn` being the
// OpenCL.std function of the same mathematics (Exp: exp, InverseSqrt: rsqrt, ...), at `operands`, in a shader
// without execution modes (neither SignedZeroInfNanPreserve nor a denormal mode): the row's set under
// Profile::Vulkan, and any value for non-finite operands or results, a zero result of either sign.
numerics::ValueSet glslStd450AllowedSet(numerics::MathFn fn, std::span<const numerics::ValueSet> operands,
                                        numerics::Format format, const numerics::VerdictOptions& options);

}  // namespace clref::interpreter
