// Queries on a parsed Module: definitions, types, decorations, names, entry points,
// capabilities, debug-information sets.
#include <algorithm>

#include "interpreter/module.hpp"

namespace clref::interpreter {

DebugInfoSet debugInfoSetOf(std::string_view name) {
  if (name.starts_with("OpenCL.DebugInfo")) return DebugInfoSet::OpenCLDebugInfo100;
  if (name.starts_with("NonSemantic.")) return DebugInfoSet::NonSemantic;
  return DebugInfoSet::None;
}

DebugInfoSet Module::debugInfoSet(uint32_t extInstSetId) const {
  auto it = extInstImports.find(extInstSetId);
  return it == extInstImports.end() ? DebugInfoSet::None : debugInfoSetOf(it->second);
}

bool Module::isDebugInfo(const Instruction& inst) const {
  return inst.opcode == spv::Op::OpExtInst && debugInfoSet(inst.extInstSet) != DebugInfoSet::None;
}

bool Module::isBuiltinLoad(uint32_t id) const {
  const Instruction* d = findDef(id);
  return d && d->opcode == spv::Op::OpLoad && hasDecoration(d->operand(0), spv::Decoration::BuiltIn);
}

const Instruction& Module::def(uint32_t id) const {
  const auto* d = findDef(id);
  if (!d) throw ModuleError("id %" + std::to_string(id) + " is used but never defined");
  return *d;
}

const Instruction* Module::findDef(uint32_t id) const {
  auto it = definitionOf.find(id);
  return it == definitionOf.end() ? nullptr : &instructions[it->second];
}

const Type& Module::type(uint32_t id) const {
  auto it = types.find(id);
  if (it == types.end()) throw ModuleError("id %" + std::to_string(id) + " is not a type");
  return it->second;
}

bool Module::hasDecoration(uint32_t id, spv::Decoration d) const { return decoration(id, d) != nullptr; }

const Decoration* Module::decoration(uint32_t id, spv::Decoration d) const {
  auto it = decorations.find(id);
  if (it == decorations.end()) return nullptr;
  for (const auto& dec : it->second)
    if (dec.kind == d && dec.member < 0) return &dec;
  return nullptr;
}

std::string Module::nameOf(uint32_t id) const {
  auto it = names.find(id);
  return it != names.end() && !it->second.empty() ? it->second : "%" + std::to_string(id);
}

const EntryPoint* Module::entryPoint(std::string_view name) const {
  for (const auto& ep : entryPoints)
    if (ep.name == name) return &ep;
  for (const auto& ep : computeShaders)
    if (ep.name == name) return &ep;
  return nullptr;
}

bool Module::hasCapability(spv::Capability c) const {
  return std::find(capabilities.begin(), capabilities.end(), c) != capabilities.end();
}

bool Module::isVulkanShader() const {
  return memoryModel == spv::MemoryModel::GLSL450 || memoryModel == spv::MemoryModel::Vulkan;
}

}  // namespace clref::interpreter
