// Host references for the golden corpus (golden/README.md): for every case in golden/cases/, a
// plain C++ computation of what the kernel must leave in its output buffers, written from the
// OpenCL C semantics of the kernel source and independent of clref (no SPIR-V, no interpreter,
// no numerics/ code). The expected files in golden/expected/ are produced from these.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/case_file.hpp"

namespace clref::golden {

// One byte vector per kernel argument: the initial contents of every buffer argument (from
// cli::materialize) and of every image argument (cli::materializeImage: its elements packed, level after
// level), empty for the other kinds of argument.
using ArgBytes = std::vector<std::vector<std::byte>>;

// Overwrites the output buffers in `argBytes` with the kernel's expected final contents. Scalar
// arguments are read from `c.args[i].value`. Throws std::runtime_error when the case does not
// have the shape the computation expects (wrong argument kinds, sizes or NDRange).
using HostReference = std::function<void(const cli::Case& c, ArgBytes& argBytes)>;

// The host references of the image kernels (host_reference_images.cpp), by case name.
std::vector<std::pair<std::string, HostReference>> imageHostReferences();

// The host references of the Vulkan compute shaders (host_reference_shaders.cpp, and those it gathers from the two
// files below), by case name.
std::vector<std::pair<std::string, HostReference>> shaderHostReferences();

// The shaders of GLSL.std.450's floating-point functions (host_reference_shader_functions.cpp).
std::vector<std::pair<std::string, HostReference>> shaderFunctionHostReferences();

// The shaders of work-group, subgroup and atomic operations (host_reference_shader_collectives.cpp).
std::vector<std::pair<std::string, HostReference>> shaderCollectiveHostReferences();

// Case name (the case file's stem, e.g. "vadd_O0") → its host reference.
const std::map<std::string, HostReference>& hostReferences();

// The case name of a loaded case: its file's stem.
std::string caseName(const cli::Case& c);

// golden/cases/*.json, sorted by name.
std::vector<std::filesystem::path> caseFiles(const std::filesystem::path& goldenDir);

// golden/expected/<case>.arg<N>.txt: the expected final contents of output buffer or image argument N.
std::filesystem::path expectedFile(const std::filesystem::path& goldenDir, const std::string& caseName,
                                   size_t argIndex);

// The initial bytes of every argument, as the host references take them.
ArgBytes materializeArgs(const cli::Case& c);

// Runs the host reference of `c` (throws std::runtime_error when there is none) and returns
// the final bytes of every argument.
ArgBytes expectedArgs(const cli::Case& c);

// Whether argument i is an output (a buffer or image marked "output"), and its contents as text (the output text
// format, golden/README.md).
bool isOutput(const cli::Case& c, size_t i);
std::string formatOutput(const cli::Case& c, size_t i, const std::vector<std::byte>& bytes);

}  // namespace clref::golden
