// What a Vulkan compute shader module declares, as text for `clref info` (module_info.hpp prints the header lines
// common to every module before it).
#pragma once
#include <string>

#include "interpreter/module.hpp"

namespace clref::cli {

// A GLSL spelling of a shader type: "float", "uvec3", "mat3", "mat2x3", "float[4]", "vec4[]", "struct Particle",
// "image2D", "sampler2D".
std::string shaderTypeName(const interpreter::Module& module, uint32_t typeId);

// The specialization constants (SpecId, type, default, name), then each GLCompute entry point: its local size (from
// LocalSize, LocalSizeId or a WorkgroupSize constant, naming the SpecIds it takes), its resources (descriptor set and
// binding, storage class, block members with Offset, ArrayStride, MatrixStride, RowMajor/ColMajor and the access
// decorations), its push-constant block and size, and its workgroup variables and their bytes. Reads a module the
// validator may have refused: every id is looked up, none assumed.
std::string shaderInterface(const interpreter::Module& module);

}  // namespace clref::cli
