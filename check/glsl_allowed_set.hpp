// The allowed set `clref check` gives the result of a GLSL.std.450 instruction with an accuracy row of its own in a
// shader without execution modes (interpreter/shader_float_freedoms.hpp, the rule the shadow run applies), for the
// tools above the interpreter that judge one instruction at a time (`clref sweep GLSL.std.450:NAME`, cli/).
#pragma once
#include "interpreter/shader_float_freedoms.hpp"

namespace clref::host {

using interpreter::glslStd450AllowedSet;

}  // namespace clref::host
