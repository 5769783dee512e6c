// Programs from OpenCL C: the host API's device as the compiler's target (compiler/opencl_c.hpp), the compiler's
// words as a Program.
#include <sstream>

#include "host/host.hpp"

namespace clref::host {
namespace {

compiler::Target targetOf(const DeviceConfig& config) {
  compiler::Target t;
  t.addressBits = config.addressBits;
  t.extensions = openCLCExtensions(config);
  t.features = openCLCFeatures(config);
  t.forUninitializedChecker = config.checks.has(interpreter::Check::Uninitialized);
  return t;
}

}  // namespace

bool Program::openCLCCompilerAvailable() { return compiler::openCLCCompilerAvailable(); }

std::shared_ptr<Program> Program::fromOpenCLC(const Device& device, const OpenCLCSource& source) {
  compiler::Compiled compiled;
  try {
    compiled = compiler::compileOpenCLC(targetOf(device.config()), source);
  } catch (const compiler::Error& e) { throw Error(e.what()); }
  return fromSpirv(device, std::move(compiled.words), compiled.sourceNames);
}

std::shared_ptr<Program> Program::fromOpenCLC(const Device& device, const std::string& source,
                                              const std::string& options) {
  OpenCLCSource s{source, {}, {}, ""};
  std::istringstream words(options);
  for (std::string o; words >> o;) s.options.push_back(o);
  return fromOpenCLC(device, s);
}

std::optional<std::string> openCLCToLLVMText(const DeviceConfig& device, const OpenCLCSource& source) {
  return compiler::openCLCToLLVMText(targetOf(device), source);
}

}  // namespace clref::host
