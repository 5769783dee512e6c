// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options: which options clBuildProgram, clCompileProgram and
// clLinkProgram accept, what they ask of the compiler, and what they change in the device.
#pragma once
#include <string>
#include <vector>

#include "icd/objects.hpp"

namespace clref::cl {

// The parser is the host API's (host/build_options.cpp), shared with the clref tool's case files.
using Options = host::BuildOptions;
using OptionsFor = host::BuildStep;

// Parses `text` (may be NULL) for `step`. Returns false for an option the spec does not define for
// this step (CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS).
inline bool parseOptions(const char* text, OptionsFor step, Options& o) {
  return host::parseBuildOptions(text, step, o);
}

// The device a program built with these options runs on (OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]]
// -cl-denorms-are-zero).
host::Device deviceFor(const Options& o);

}  // namespace clref::cl
