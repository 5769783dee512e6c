// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options: which options clBuildProgram, clCompileProgram and
// clLinkProgram accept, what they ask of the compiler, and what they change in the device.
#pragma once
#include <string>
#include <vector>

#include "api/opencl/objects.hpp"

namespace clref::cl {

struct Options {
  std::vector<std::string> compiler;  // passed to clang for OpenCL C
  bool denormsAreZero = false;
  bool uniform = false;
  bool clStd20 = false;  // -cl-std=CL2.0 or newer
  bool argInfo = false;
  bool createLibrary = false;
};

enum class OptionsFor { Build, Compile, Link };

// Parses `text` (may be NULL) for `step`. Returns false for an option the spec does not define for
// this step (CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS).
bool parseOptions(const char* text, OptionsFor step, Options& o);

// The device a program built with these options runs on (OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]]
// -cl-denorms-are-zero).
host::Device deviceFor(const Options& o);

}  // namespace clref::cl
