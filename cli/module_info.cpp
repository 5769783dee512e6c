#include "cli/module_info.hpp"

#include <sstream>
#include <stdexcept>

#include "cli/shader_interface.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using interpreter::Module;
using interpreter::TypeKind;

uint32_t byteSwap(uint32_t w) { return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24); }

// OpenCL C address-space qualifiers (OpenCL SPIR-V Environment §2.5 [[_supported_types]] storage classes).
std::string addressSpace(spv::StorageClass s) {
  switch (s) {
    case spv::StorageClass::CrossWorkgroup: return "global";
    case spv::StorageClass::Workgroup: return "local";
    case spv::StorageClass::UniformConstant: return "constant";
    case spv::StorageClass::Function: return "private";
    case spv::StorageClass::Generic: return "generic";
    case spv::StorageClass::Input: return "input";
    default: return "storage" + std::to_string(uint32_t(s));
  }
}

std::string intName(uint32_t width) {
  switch (width) {
    case 8: return "char";
    case 16: return "short";
    case 32: return "int";
    case 64: return "long";
    default: return "int" + std::to_string(width);
  }
}

std::string floatName(uint32_t width) {
  switch (width) {
    case 16: return "half";
    case 32: return "float";
    case 64: return "double";
    default: return "float" + std::to_string(width);
  }
}

// OpTypeImage: Dim, Depth, Arrayed and the access qualifier give the OpenCL C image type.
std::string imageName(const Module& m, uint32_t typeId) {
  const auto& w = m.def(typeId).words;
  if (w.size() < 9) return "image";
  static const char* const dims[] = {"1d", "2d", "3d", "cube", "rect", "buffer"};
  std::string name = "image";
  name += w[3] < std::size(dims) ? dims[w[3]] : "?";
  if (w[3] == uint32_t(spv::Dim::Buffer)) name = "image1d_buffer";
  if (w[5] == 1) name += "_array";
  if (w[4] == 1) name += "_depth";
  name += "_t";
  if (w.size() > 9) {
    static const char* const access[] = {"read_only ", "write_only ", "read_write "};
    if (w[9] < 3) name = access[w[9]] + name;
  }
  return name;
}

std::string structName(const Module& m, uint32_t typeId) {
  auto it = m.names.find(typeId);
  if (it == m.names.end() || it->second.empty()) return "struct";
  std::string name = it->second;
  // llvm-spirv names struct types "struct.S".
  if (name.rfind("struct.", 0) == 0) name.erase(0, 7);
  return "struct " + name;
}

std::string versionText(uint32_t v) { return std::to_string((v >> 16) & 0xff) + "." + std::to_string((v >> 8) & 0xff); }

std::string addressingText(spv::AddressingModel a) {
  switch (a) {
    case spv::AddressingModel::Logical: return "Logical";
    case spv::AddressingModel::Physical32: return "Physical32";
    case spv::AddressingModel::Physical64: return "Physical64";
    case spv::AddressingModel::PhysicalStorageBuffer64: return "PhysicalStorageBuffer64";
    default: return "addressing model " + std::to_string(uint32_t(a));
  }
}

// The operand after the opcode in the SPIRV-Tools disassembly of an instruction
// ("OpCapability Kernel" → "Kernel"): the grammar's name, without a second table here.
std::string operandName(const Module& m, const interpreter::Instruction& inst, const std::string& fallback) {
  const std::string text = m.disassemble(inst);
  const auto space = text.find(' ');
  if (text.rfind("OpCapability ", 0) != 0 || space == std::string::npos) return fallback;
  return text.substr(space + 1);
}

// A struct passed by value reaches the kernel as a Function-storage pointer decorated
// FuncParamAttr ByVal (SPIR-V 1.0 §3.19 [external]); OpenCL C wrote the struct itself.
std::string describeParameter(const Module& m, uint32_t param, uint32_t typeId) {
  const auto* attr = m.decoration(param, spv::Decoration::FuncParamAttr);
  const auto t = m.types.find(typeId);
  const bool byValue =
      attr && !attr->literals.empty() && attr->literals[0] == uint32_t(spv::FunctionParameterAttribute::ByVal);
  if (byValue && t != m.types.end() && t->second.kind == TypeKind::Pointer) return describeType(m, t->second.element);
  return describeType(m, typeId);
}

}  // namespace

std::vector<uint32_t> readSpirvFile(const std::filesystem::path& file) {
  std::string bytes;
  try {
    bytes = detail::readFile(file, "module");  // names a directory, a missing or unreadable file
  } catch (const detail::FieldError& e) { throw std::runtime_error(e.message); }
  if (bytes.size() % 4 != 0)
    throw std::runtime_error(file.string() + ": " + std::to_string(bytes.size()) +
                             " bytes is not a whole number of 32-bit words");
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b) words[i] |= uint32_t(uint8_t(bytes[4 * i + b])) << (8 * b);
  if (!words.empty() && words[0] == byteSwap(spv::MagicNumber))
    for (auto& w : words) w = byteSwap(w);
  return words;
}

std::string describeType(const Module& m, uint32_t typeId) {
  auto it = m.types.find(typeId);
  if (it == m.types.end()) return "%" + std::to_string(typeId);
  const auto& t = it->second;
  switch (t.kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return intName(t.width);
    case TypeKind::Float: return floatName(t.width);
    case TypeKind::Vector: return describeType(m, t.element) + std::to_string(t.count);
    case TypeKind::Array: return describeType(m, t.element) + "[" + std::to_string(t.count) + "]";
    case TypeKind::RuntimeArray: return describeType(m, t.element) + "[]";
    case TypeKind::Struct: return structName(m, typeId) + " (" + std::to_string(t.size) + " bytes)";
    case TypeKind::Pointer: return addressSpace(t.storage) + " " + describeType(m, t.element) + "*";
    case TypeKind::Event: return "event_t";
    case TypeKind::DeviceEvent: return "clk_event_t";
    case TypeKind::ReserveId: return "reserve_id_t";
    case TypeKind::Queue: return "queue_t";
    case TypeKind::Pipe: return "pipe";
    case TypeKind::Image: return imageName(m, typeId);
    case TypeKind::Sampler: return "sampler_t";
    case TypeKind::SampledImage: return "sampled image";
    case TypeKind::NamedBarrier: return "named barrier";
    case TypeKind::Function: return "function";
    case TypeKind::Opaque: return "opaque";
    case TypeKind::ForwardPointer: return "forward pointer";
    case TypeKind::Matrix: return describeType(m, t.element) + "x" + std::to_string(t.count);
  }
  return "?";
}

std::string moduleInfo(const Module& m, const std::string& validationFailure) {
  std::ostringstream out;
  out << "SPIR-V version: " << versionText(m.version()) << "\n";
  out << "addressing model: " << addressingText(m.addressing) << "\n";
  if (m.isVulkanShader())
    out << "memory model: " << (m.memoryModel == spv::MemoryModel::Vulkan ? "Vulkan" : "GLSL450")
        << " (a Vulkan compute shader module)\n";
  out << "validation: " << (validationFailure.empty() ? "passes" : "fails: " + validationFailure) << "\n";
  out << "capabilities:";
  for (const auto& inst : m.instructions)
    if (inst.opcode == spv::Op::OpCapability && inst.words.size() > 1)
      out << " " << operandName(m, inst, "Capability" + std::to_string(inst.words[1]));
  out << "\nextensions:";
  for (const auto& e : m.extensions) out << " " << e;
  out << "\nextended instruction sets:";
  for (const auto& [id, name] : m.extInstImports) out << " " << name;
  if (m.isVulkanShader()) return out.str() + "\n" + shaderInterface(m);
  out << "\nkernels: " << m.entryPoints.size() << "\n";
  for (const auto& ep : m.entryPoints) {
    out << "  " << ep.name << "\n";
    auto fn = m.functions.find(ep.function);
    if (fn != m.functions.end()) {
      for (size_t i = 0; i < fn->second.parameters.size(); ++i) {
        const uint32_t param = fn->second.parameters[i];
        const auto* def = m.findDef(param);
        out << "    arg " << i << ": " << (def ? describeParameter(m, param, def->resultType) : "?");
        if (auto name = m.names.find(param); name != m.names.end() && !name->second.empty()) out << " " << name->second;
        out << "\n";
      }
    }
    if (ep.requiredLocalSize) {
      const auto& s = *ep.requiredLocalSize;
      out << "    required work-group size: " << s[0] << " " << s[1] << " " << s[2] << "\n";
    }
    if (ep.contractionOff) out << "    contraction off\n";
  }
  return out.str();
}

}  // namespace clref::cli
