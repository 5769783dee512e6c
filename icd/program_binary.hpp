// What CL_PROGRAM_BINARIES returns: the program's SPIR-V module, still a valid module, with its
// binary type recorded so that clCreateProgramWithBinary can give CL_PROGRAM_BINARY_TYPE back
// (OpenCL 3.0 API §5.8.9 [[_program_object_queries]]: a program created from a compiled object's binary is a compiled
// object, from a library's a library). The record is one OpSourceExtension instruction,
// "clref.program_binary_type=compiled_object|library", in the module's debug section; an
// executable carries none.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <vector>

namespace clref::cl {

// The module with the record of `type` (no record for an executable).
std::vector<uint32_t> binaryWithType(const std::vector<uint32_t>& spirv, cl_program_binary_type type);

// Removes the record from `spirv` and returns the type it named; CL_PROGRAM_BINARY_TYPE_NONE if
// there was none (a binary from elsewhere).
cl_program_binary_type takeBinaryType(std::vector<uint32_t>& spirv);

}  // namespace clref::cl
