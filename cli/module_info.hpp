// What a SPIR-V module declares, as text for `clref info`, and reading a .spv file.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "interpreter/module.hpp"

namespace clref::cli {

// The words of a .spv file, byte-swapped when the file was written big-endian (SPIR-V 1.0
// §2.3 [external]: the magic number tells the endianness). Throws std::runtime_error.
std::vector<uint32_t> readSpirvFile(const std::filesystem::path& file);

// An OpenCL C spelling of a type: "global float*", "local int*", "int", "float4",
// "struct S (12 bytes)", "read_only image2d_t".
std::string describeType(const interpreter::Module& module, uint32_t typeId);

// Version, addressing model, capabilities, extensions and every kernel with its arguments and
// required work-group size, or for a Vulkan compute shader module its memory model and interface (shader_interface.hpp).
// `validationFailure` is "" when the module validates.
std::string moduleInfo(const interpreter::Module& module, const std::string& validationFailure);

}  // namespace clref::cli
