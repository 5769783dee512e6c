// The compile step of clBuildProgram / clCompileProgram (see program_compile.hpp).
#include "icd/program_compile.hpp"

#include "icd/device_info.hpp"
#include "icd/kernel_arg_metadata.hpp"

namespace clref::cl {
namespace {

bool deviceSupportsImages() {
  cl_bool images = CL_FALSE;
  deviceInfo(theDevice(), CL_DEVICE_IMAGE_SUPPORT,
             InfoOut{sizeof images, &images, nullptr, __func__, CL_DEVICE_IMAGE_SUPPORT});
  return images == CL_TRUE;
}

KernelMetadata metadataOf(const host::OpenCLCSource& source) {
  const auto text = host::openCLCToLLVMText(theDevice()->device.config(), source);
  return kernelMetadata(text ? *text : std::string());
}

}  // namespace

void readKernelAttributes(cl_program p) {
  for (const auto& source : p->attributesUnread)
    for (auto& [name, attrs] : metadataOf(source).attributes) p->kernelAttributes[name] = std::move(attrs);
  p->attributesUnread.clear();
}

cl_int compileSource(cl_program p, const Options& o, const std::vector<std::pair<std::string, std::string>>& headers) {
  // The compiler driver writes the headers where #include finds them and adds the default
  // -cl-std (OpenCL 3.0 API §5.8.6.4 [[_options_to_request_or_suppress_warnings]]: the highest OpenCL C 1.x version,
  // CL1.2) when the options give none.
  host::OpenCLCSource source{p->source, o.compiler, headers, ""};
  // OpenCL C 3.0 §6.12 [[preprocessor-directives-and-macros]] (predefined macros): __IMAGE_SUPPORT__ is defined only
  // when the device supports images; clang's spir targets always define it.
  if (!deviceSupportsImages()) source.options.push_back("-U__IMAGE_SUPPORT__");
  // __OPENCL_VERSION__: the OpenCL version the device supports (the runtime defines it; clang
  // does not).
  source.options.push_back("-D__OPENCL_VERSION__=300");
  try {
    auto prog = host::Program::fromOpenCLC(deviceFor(o), source);
    p->spirv = prog->spirv();
    p->sourceNames = prog->sourceNames();
    p->argMeta.clear();
    p->kernelAttributes.clear();
    p->attributesUnread.clear();
    // The metadata takes a compiler run of its own (kernel_arg_metadata.hpp): made now for the argument information
    // the build asked for, else only when an application asks for CL_KERNEL_ATTRIBUTES (rarely; most builds never).
    if (o.argInfo) {
      auto meta = metadataOf(source);
      p->argMeta = std::move(meta.args);
      p->kernelAttributes = std::move(meta.attributes);
    } else {
      p->attributesUnread.push_back(std::move(source));
    }
    return CL_SUCCESS;
  } catch (const std::exception& e) {
    p->log += e.what();
    p->log += "\n";
    return CL_COMPILE_PROGRAM_FAILURE;
  }
}

}  // namespace clref::cl
