// OpenCL C → SPIR-V words with clang-15 + llvm-spirv-15 at a chosen SPIR-V version, for the
// interpreter tests. Kept apart from Program::fromOpenCLC so the tests control the SPIR-V
// version and every option (llvm-spirv-15 cannot emit debug info at SPIR-V 1.0).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace clref::test {

// `fileName` is the source file's name as debug information (OpLine) will report it.
std::vector<uint32_t> compileCL(const std::string& source, const std::string& options,
                                const std::string& spirvVersion = "1.1", unsigned addressBits = 64,
                                const std::string& fileName = "kernel.cl");

// Whether host::Program::fromOpenCLC can compile here; when not, the calling test is skipped with a warning.
bool openCLCCompilerOrSkip();

}  // namespace clref::test
