// The shader front end: Vulkan compute shaders to SPIR-V in process — GLSL and HLSL through glslang, SPIR-V assembly
// through SPIRV-Tools' assembler. Like the OpenCL C front end it knows no device and no interpreter: it returns the
// words, which interpreter::Module::load validates in the Vulkan environment.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/opencl_c.hpp"

namespace clref::compiler {

// What a shader source is written in.
enum class ShaderLanguage { Glsl, Hlsl, SpirvAssembly };

// The language a file holds by its extension: .comp and .glsl are GLSL, .hlsl HLSL, .spvasm SPIR-V assembly; none
// for any other file (a .spv binary is read as words, not compiled).
std::optional<ShaderLanguage> shaderLanguageOf(const std::filesystem::path& file);

// The Vulkan version a shader is compiled for; its SPIR-V version is the newest that version accepts (Vulkan §A.1
// [external]: 1.0 → SPIR-V 1.0, 1.1 → 1.3, 1.2 → 1.5, 1.3 → 1.6).
enum class VulkanVersion { V1_0, V1_1, V1_2, V1_3 };

// "1.0" … "1.3" → the version; none for anything else.
std::optional<VulkanVersion> parseVulkanVersion(const std::string& text);

struct ShaderOptions {
  VulkanVersion target = VulkanVersion::V1_3;
  std::string entryPoint = "main";  // HLSL: the function the GLCompute entry point runs (GLSL's is always main)
  // Preprocessor macros, as -D NAME or -D NAME=VALUE (VALUE "" for the first form: defined as 1). GLSL and HLSL only.
  std::vector<std::pair<std::string, std::string>> defines;
  // Folders an #include "…" or <…> searches after the including file's folder. GLSL (with GL_GOOGLE_include_directive)
  // and HLSL only.
  std::vector<std::filesystem::path> includeDirs;
};

// Compiles (or assembles) `source`, written in `language`, to SPIR-V for `options.target`. `name` is what diagnostics
// call the source (a path, or "shader" for text built in a program). Throws Error with one line per message:
// "NAME:LINE: error: MESSAGE" (glslang's and the assembler's own message text).
std::vector<uint32_t> compileShader(ShaderLanguage language, const std::string& source, const std::string& name,
                                    const ShaderOptions& options = {});

// The file's language by its extension (shaderLanguageOf), read and compiled; diagnostics name the file as given.
// Throws Error for a file it cannot read or whose extension names no shader language.
std::vector<uint32_t> compileShaderFile(const std::filesystem::path& file, const ShaderOptions& options = {});

}  // namespace clref::compiler
