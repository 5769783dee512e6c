// host::Program (host.hpp): a validated SPIR-V module as a program of a device, and its specialization constants.
#include "host/host.hpp"
#include "host/lower_options.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "interpreter/module.hpp"
#include "interpreter/program.hpp"

namespace clref::host {

using interpreter::ModuleError;

Program::Program(const Device& device, std::shared_ptr<const interpreter::Module> module)
    : device_(device), module_(std::move(module)), globals_(std::make_shared<interpreter::GlobalStorage>()) {}
Program::~Program() = default;

std::shared_ptr<Program> Program::fromSpirv(const Device& device, std::vector<uint32_t> words,
                                            const std::vector<SourceName>& sourceNames) {
  auto module = interpreter::Module::load(std::move(words));
  for (const auto& n : sourceNames) module.nameSourceFile(n.fileInModule, n.displayName, n.text);
  auto p = fromModule(device, std::move(module));
  p->sourceNames_ = sourceNames;
  return p;
}

std::shared_ptr<Program> Program::fromShader(const Device& device, compiler::ShaderLanguage language,
                                            const std::string& source, const std::string& name,
                                            const compiler::ShaderOptions& options) {
  std::vector<uint32_t> words;
  try {
    words = compiler::compileShader(language, source, name, options);
  } catch (const compiler::Error& e) { throw Error(e.what()); }
  return fromSpirv(device, std::move(words));
}

std::shared_ptr<Program> Program::fromModule(const Device& device, interpreter::Module module) {
  auto m = std::make_shared<const interpreter::Module>(std::move(module));
  // Reject what this device cannot run now, not at the first kernel (capabilities, extensions,
  // address width). OpenCL SPIR-V Environment §3.1 [[required-capabilities-1.0]]: DeviceEnqueue is for devices
  // supporting device-side enqueue; with the feature off, this device is not one.
  if (!device.config().deviceEnqueue)
    for (auto c : m->capabilities)
      if (c == spv::Capability::DeviceEnqueue)
        throw ModuleError("the module needs DeviceEnqueue (device-side enqueue) but the device has it off");
  interpreter::checkModuleSupport(*m, lowerOptions(device.config()));
  return std::shared_ptr<Program>(new Program(device, std::move(m)));
}

std::vector<uint32_t> readSpirvFile(const std::string& path) {
  // A directory opens as a stream on Linux and fails only while reading, with std::ios_base::failure.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path + " is a directory, not a SPIR-V module");
  // A device or a pipe (/dev/zero, a FIFO) may never end: a module is a regular file.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw Error(path + " is not a regular file, not a SPIR-V module");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path);
  std::vector<char> bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) { throw Error("cannot read " + path + ": " + e.code().message()); }
  if (bytes.size() % 4 != 0)
    throw ModuleError(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4 bytes");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::shared_ptr<Program> Program::fromSpirvFile(const Device& device, const std::string& path) {
  return fromSpirv(device, readSpirvFile(path));
}

const std::vector<uint32_t>& Program::spirv() const { return module_->binary(); }

std::vector<std::string> Program::kernelNames() const { return info().kernelNames(); }

void Program::setSpecConstant(uint32_t id, const void* value, size_t size) {
  bool found = false;
  for (const auto& [target, decs] : module_->decorations)
    for (const auto& d : decs)
      if (d.kind == spv::Decoration::SpecId && d.literals.at(0) == id) found = true;
  if (!found) throw Error("no specialization constant with SpecId " + std::to_string(id));
  // OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]]: the size must match the constant's (checked
  // here, not at the next lowering, where it was an interpreter::ModuleError).
  if (const auto want = info().specConstantSize(id); want && size != *want)
    throw Error("specialization constant " + std::to_string(id) + " is " + std::to_string(*want) + " bytes, " +
                std::to_string(size) + " given");
  if (!value && size) throw Error("specialization constant " + std::to_string(id) + ": no value given");
  std::vector<uint8_t> bytes(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
  for (auto& [k, v] : specConstants_)
    if (k == id) {
      v = std::move(bytes);
      ++specVersion_;
      return;
    }
  specConstants_.emplace_back(id, std::move(bytes));
  ++specVersion_;
}

interpreter::LowerOptions lowerOptions(const DeviceConfig& cfg) {
  interpreter::LowerOptions o;
  o.addressBits = cfg.addressBits;
  o.fp16 = cfg.fp16;
  o.fp64 = cfg.fp64;
  o.denormHalf = cfg.denormHalf;
  o.denormFloat = cfg.denormFloat;
  o.denormDouble = cfg.denormDouble;
  o.choices = cfg.choices;
  o.checks = cfg.checks;
  o.detailedEnqueueErrors = cfg.enqueueErrorCodes;
  return o;
}

}  // namespace clref::host
