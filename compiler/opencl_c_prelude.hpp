// The OpenCL C built-ins the device supports and clang-15 + llvm-spirv-15 cannot express as they are: definitions the
// compiler includes before every OpenCL C program (compiler/opencl_c.cpp's prelude), each in terms of what the chain does
// translate. Internal to the host API.
#pragma once
#include <set>
#include <string>

namespace clref::compiler {

// The prelude's definitions for a device whose OpenCL C extensions and features are `supported`.
std::string openCLCPrelude(const std::set<std::string>& supported);

}  // namespace clref::compiler
