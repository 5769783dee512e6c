// OpenCL 3.0 API §5.8.4 [[_building_program_executables]] clBuildProgram /
// §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram: the compile step, OpenCL C source to a
// SPIR-V compiled object (through the host API's compiler driver, compiler/opencl_c.cpp),
// with the kernel argument metadata clGetKernelArgInfo reports.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "icd/program_options.hpp"

namespace clref::cl {

// Compiles p->source with the options `o` and the input headers (include name, text) into
// p->spirv, and with -cl-kernel-arg-info p->argMeta and p->kernelAttributes (without it the attributes are read when
// asked: p->attributesUnread). On failure the compiler's messages are appended to p->log and
// CL_COMPILE_PROGRAM_FAILURE is returned.
cl_int compileSource(cl_program p, const Options& o, const std::vector<std::pair<std::string, std::string>>& headers);

// Reads the attributes of p->attributesUnread's kernels into p->kernelAttributes.
void readKernelAttributes(cl_program p);

}  // namespace clref::cl
