// OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelArgInfo and CL_KERNEL_ATTRIBUTES from clang's metadata.
//
// SPIR-V keeps neither signedness nor typedef names nor const/restrict on pointees, so with
// -cl-kernel-arg-info the source is also compiled to LLVM IR text (host::openCLCToLLVMText) and
// clang's kernel_arg_* metadata (addr_space, access_qual, type, type_qual, name) is read from it,
// with the kernels' vec_type_hint, work_group_size_hint and reqd_work_group_size attributes.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "icd/objects.hpp"

namespace clref::cl {

struct KernelMetadata {
  std::map<std::string, std::vector<KernelArgMeta>> args;  // per kernel name
  std::map<std::string, std::string> attributes;           // CL_KERNEL_ATTRIBUTES per kernel name
};

// The metadata of the kernels (spir_kernel functions) of an LLVM IR module in text form.
KernelMetadata kernelMetadata(const std::string& llvmText);

}  // namespace clref::cl
