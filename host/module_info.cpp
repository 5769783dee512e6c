// host::ModuleInfo: what the OpenCL API asks of a SPIR-V module without running it (kernel
// names, linkage, specialization constants, variable sizes, kernel launch limits).
#include <set>

#include "host/host.hpp"
#include "interpreter/module.hpp"

namespace clref::host {

ModuleInfo ModuleInfo::parse(std::vector<uint32_t> words) {
  return ModuleInfo(std::make_shared<const interpreter::Module>(interpreter::Module::parse(std::move(words))));
}

std::vector<std::string> ModuleInfo::kernelNames() const {
  std::vector<std::string> names;
  for (const auto& ep : module_->entryPoints) names.push_back(ep.name);
  for (const auto& ep : module_->computeShaders) names.push_back(ep.name);
  return names;
}

bool ModuleInfo::isVulkanShader() const { return module_->isVulkanShader(); }

bool ModuleInfo::importsFunctions() const {
  for (const auto& [id, f] : module_->functions)
    if (f.isImport) return true;
  return false;
}

std::optional<size_t> ModuleInfo::specConstantSize(uint32_t specId) const {
  const auto& m = *module_;
  for (const auto& [target, decs] : m.decorations)
    for (const auto& d : decs)
      if (d.kind == spv::Decoration::SpecId && !d.literals.empty() && d.literals[0] == specId) {
        const auto& type = m.type(m.def(target).words.at(1));
        return type.kind == interpreter::TypeKind::Bool ? 1 : type.width / 8;
      }
  return std::nullopt;
}

namespace {
// Bytes of the module-scope variables `vars` of the module, in this order, each at its alignment.
template <class Ids> uint64_t variableBytes(const interpreter::Module& m, const Ids& vars) {
  uint64_t bytes = 0;
  for (uint32_t v : vars) {
    const auto& t = m.type(m.type(m.def(v).resultType).element);
    const uint64_t al = t.align ? t.align : 1;
    bytes = (bytes + al - 1) / al * al + t.size;
  }
  return bytes;
}

// The module-scope variables in storage class `sc`, in declaration order.
std::vector<uint32_t> variablesIn(const interpreter::Module& m, spv::StorageClass sc) {
  std::vector<uint32_t> vars;
  for (uint32_t v : m.globalVariables) {
    const auto* d = m.findDef(v);
    if (d && d->operandCount() > 0 && spv::StorageClass(d->operand(0)) == sc) vars.push_back(v);
  }
  return vars;
}
}  // namespace

size_t ModuleInfo::globalVariableBytes() const {
  return size_t(variableBytes(*module_, variablesIn(*module_, spv::StorageClass::CrossWorkgroup)));
}

uint64_t ModuleInfo::staticLocalBytes(const std::string& kernel) const {
  const auto& m = *module_;
  const auto* ep = m.entryPoint(kernel);
  if (!ep) return 0;
  const auto workgroup = variablesIn(m, spv::StorageClass::Workgroup);
  const std::set<uint32_t> local(workgroup.begin(), workgroup.end());
  if (local.empty()) return 0;
  std::set<uint32_t> seenFns{ep->function}, used;
  std::vector<uint32_t> todo{ep->function};
  while (!todo.empty()) {
    const auto it = m.functions.find(todo.back());
    todo.pop_back();
    if (it == m.functions.end()) continue;
    for (const auto& b : it->second.blocks)
      for (uint32_t idx : b.instructions) {
        const auto& inst = m.instructions[idx];
        for (size_t i = 0; i < inst.operandCount(); ++i) {
          const uint32_t w = inst.operand(i);
          if (local.count(w)) used.insert(w);
        }
        if (inst.opcode == spv::Op::OpFunctionCall && inst.operandCount() > 0 && seenFns.insert(inst.operand(0)).second)
          todo.push_back(inst.operand(0));
      }
  }
  return variableBytes(m, used);  // in id order
}

std::optional<std::array<uint32_t, 3>> ModuleInfo::requiredLocalSize(const std::string& kernel) const {
  const auto* ep = module_->entryPoint(kernel);
  return ep ? ep->requiredLocalSize : std::nullopt;
}

std::optional<uint64_t> ModuleInfo::maxByteOffset(const std::string& kernel, size_t arg) const {
  const auto& m = *module_;
  const auto* ep = m.entryPoint(kernel);
  const auto fn = ep ? m.functions.find(ep->function) : m.functions.end();
  if (fn == m.functions.end() || arg >= fn->second.parameters.size()) return std::nullopt;
  const auto* d = m.decoration(fn->second.parameters[arg], spv::Decoration::MaxByteOffset);
  if (!d || d->literals.empty()) return std::nullopt;
  return d->literals[0];
}

}  // namespace clref::host
