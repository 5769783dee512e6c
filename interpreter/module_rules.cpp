// Rules of the SPIR-V specification that SPIRV-Tools 2023.1 lets through, checked by clref after validation
// (Module::load) so that the lowering and the executor never see a module that breaks them. Each was found by
// fuzzing: the validator accepted the module and the lowering then read past a table or shifted by 64.
#include <string>

#include "interpreter/module.hpp"

namespace clref::interpreter {

namespace {

bool isScalarInt(const Module& m, uint32_t valueId) {
  const Instruction* d = m.findDef(valueId);
  if (!d || !d->resultType) return false;
  auto t = m.types.find(d->resultType);
  return t != m.types.end() && t->second.kind == TypeKind::Int;
}

}  // namespace

void Module::checkRulesBeyondValidator() const {
  auto refuse = [&](uint32_t i, const std::string& rule) {
    throw ModuleError("invalid module: " + rule + "\n  at " + describe(i));
  };
  const Function* current = nullptr;
  size_t parameterCount = 0;
  auto endOfParameters = [&] {
    if (!current) return;
    const auto ft = types.find(current->functionType);
    const size_t declared = ft != types.end() && ft->second.kind == TypeKind::Function ? ft->second.members.size() - 1 : 0;
    // SPIR-V 1.0 §2.4 [external] (logical layout, function definitions): OpFunctionParameter declares each parameter
    // of the function's type, one per parameter, in order.
    if (parameterCount != declared)
      refuse(current->definition, "function " + nameOf(current->id) + " declares " + std::to_string(parameterCount) +
                                      " OpFunctionParameter but its function type has " + std::to_string(declared) +
                                      " parameters");
    current = nullptr;
  };
  for (uint32_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = instructions[i];
    switch (inst.opcode) {
      case spv::Op::OpFunction: {
        endOfParameters();
        auto f = functions.find(inst.resultId);
        current = f != functions.end() ? &f->second : nullptr;
        parameterCount = 0;
        break;
      }
      case spv::Op::OpFunctionParameter: {
        if (!current) break;
        const auto ft = types.find(current->functionType);
        if (ft != types.end() && ft->second.kind == TypeKind::Function && parameterCount + 1 < ft->second.members.size() &&
            ft->second.members[parameterCount + 1] != inst.resultType)
          // SPIR-V 1.0 §3.32.9 [external] OpFunctionParameter: its Result Type is the parameter's type in the
          // function's type.
          refuse(i, "parameter " + std::to_string(parameterCount) + " of " + nameOf(current->id) +
                        " has a type other than its function type's parameter " + std::to_string(parameterCount));
        ++parameterCount;
        break;
      }
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain: {
        endOfParameters();
        // SPIR-V 1.0 §3.32.8 [external] OpAccessChain, OpPtrAccessChain: Element and each of the Indexes must be a
        // scalar integer (SPIRV-Tools 2023.1 accepts a float vector).
        for (size_t k = 1; k < inst.operandCount(); ++k)
          if (!isScalarInt(*this, inst.operand(k)))
            refuse(i, "index operand " + std::to_string(k) + " (%" + std::to_string(inst.operand(k)) +
                          ") is not a scalar integer");
        break;
      }
      case spv::Op::OpConstantComposite:
      case spv::Op::OpSpecConstantComposite:
      case spv::Op::OpCompositeConstruct: {
        endOfParameters();
        // SPIR-V 1.0 §3.32.7 [external] OpConstantComposite, §3.32.12 [external] OpCompositeConstruct: an array is
        // built from exactly as many constituents as its Length (a 64-bit Length included, which SPIRV-Tools 2023.1
        // compares by its low word), a structure from one per member.
        const auto t = types.find(inst.resultType);
        if (t == types.end()) break;
        const size_t given = inst.operandCount();
        // (An array sized by a specialization constant operation, in a shader module, has length 0 until it is
        // specialized: type_layout.cpp.)
        const bool specialized = isVulkanShader() && t->second.count == 0;
        if (t->second.kind == TypeKind::Array && !specialized && given != t->second.count)
          refuse(i, std::to_string(given) + " constituents for an array of length " + std::to_string(t->second.count));
        if (t->second.kind == TypeKind::Struct && given != t->second.members.size())
          refuse(i, std::to_string(given) + " constituents for a structure of " +
                        std::to_string(t->second.members.size()) + " members");
        break;
      }
      default:
        if (inst.opcode != spv::Op::OpLine && inst.opcode != spv::Op::OpNoLine && !isDebugInfo(inst)) endOfParameters();
        break;
    }
  }
  endOfParameters();
}

}  // namespace clref::interpreter
