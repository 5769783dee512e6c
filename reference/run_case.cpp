// Running a case on the host API: the module, spec constants, choices, arguments, NDRange.
#include <algorithm>
#include <fstream>
#include <iterator>

#include "reference/case_file.hpp"

namespace clref::reference {

namespace {

std::string where(const Case& c, const std::string& field) { return c.file.string() + ": " + field + ": "; }

std::shared_ptr<host::Program> loadProgram(const Case& c, const host::Device& device) {
  if (c.module.extension() == ".cl") {
    std::ifstream in(c.module, std::ios::binary);
    if (!in) throw CaseError(where(c, "module") + "cannot read " + c.module.string());
    const std::string source(std::istreambuf_iterator<char>(in), {});
    return host::Program::fromOpenCLC(device, source, c.buildOptions);
  }
  if (!std::filesystem::exists(c.module)) throw CaseError(where(c, "module") + "no such file " + c.module.string());
  return host::Program::fromSpirvFile(device, c.module.string());
}

}  // namespace

CaseRun runCase(const Case& c, const host::Device& baseDevice) {
  host::Device device = baseDevice;
  for (size_t i = 0; i < c.choices.size(); ++i) {
    try {
      device.config().choices.set(c.choices[i]);
    } catch (const std::invalid_argument& e) {
      throw CaseError(where(c, "choices[" + std::to_string(i) + "]") + e.what());
    }
  }
  if (c.instructionBudget) device.config().instructionBudget = *c.instructionBudget;

  auto program = loadProgram(c, device);
  for (const auto& [id, bytes] : c.specConstants) {
    try {
      program->setSpecConstant(id, bytes.data(), bytes.size());
    } catch (const host::Error& e) { throw CaseError(where(c, "spec_constants." + std::to_string(id)) + e.what()); }
  }

  const auto names = program->kernelNames();
  if (std::find(names.begin(), names.end(), c.kernel) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw CaseError(where(c, "kernel") + "the module has no kernel '" + c.kernel + "' (kernels: " + known + ")");
  }
  host::Kernel kernel(program, c.kernel);
  if (kernel.argCount() != c.args.size())
    throw CaseError(where(c, "args") + "kernel " + c.kernel + " takes " + std::to_string(kernel.argCount()) +
                    " arguments, the case gives " + std::to_string(c.args.size()));

  CaseRun run;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const ArgSpec& arg = c.args[i];
    // The host API knows the kernel's parameter types; its complaint (a buffer for a by-value
    // parameter, a wrong size, naming the parameter) is a fault of this argument of the case.
    try {
      switch (arg.kind) {
        case ArgSpec::Kind::Buffer: {
          const auto bytes = materialize(c, i);
          auto buffer = std::make_shared<host::Buffer>(bytes.data(), bytes.size());
          kernel.setArg(i, buffer);
          if (arg.buffer.output) run.outputs.emplace_back(i, buffer);
          break;
        }
        case ArgSpec::Kind::Local: kernel.setArgLocal(i, arg.localBytes); break;
        case ArgSpec::Kind::Null: kernel.setArgNull(i); break;
        case ArgSpec::Kind::Value: kernel.setArgValue(i, arg.value.data(), arg.value.size()); break;
      }
    } catch (const host::Error& e) { throw CaseError(where(c, "args[" + std::to_string(i) + "]") + e.what()); }
  }
  run.result = kernel.run(c.range);
  return run;
}

}  // namespace clref::reference
