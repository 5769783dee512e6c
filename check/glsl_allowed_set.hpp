// The allowed set `clref check` gives the result of a GLSL.std.450 instruction on scalar operands in a shader without
// execution modes, and clref's value of it (interpreter/shader_float_freedoms.hpp, the rules the shadow run applies and
// the handlers a shader runs), for the tools above the interpreter that judge one instruction at a time
// (`clref sweep GLSL.std.450:NAME`, cli/).
#pragma once
#include "interpreter/shader_float_freedoms.hpp"

namespace clref::host {

using interpreter::glslStd450AllowedSet;
using interpreter::GlslStd450Scalar;
using interpreter::glslStd450ScalarAllowedSet;
using interpreter::glslStd450Scalars;
using interpreter::glslStd450ScalarValue;
using interpreter::glslStd450NotScalar;

}  // namespace clref::host
