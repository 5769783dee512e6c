// The lowering dispatch table (dispatch.hpp): built once from the families' registrations.
#include "interpreter/dispatch.hpp"

#include <spirv-tools/libspirv.h>

#include <stdexcept>

namespace clref::interpreter {

void DispatchTable::add(spv::Op op, OpcodeRule rule) {
  // A second registration of an opcode is a programming error: each opcode has one rule.
  if (!rules_.emplace(uint32_t(op), rule).second)
    throw std::logic_error("lowering table: " + opcodeName(op) + " registered twice");
}

void DispatchTable::lower(spv::Op op, LowerFn fn, ShadowRule shadow) {
  add(op, {OpcodeRule::Kind::Lower, fn, nullptr, shadow});
}

void DispatchTable::lower(std::initializer_list<spv::Op> ops, LowerFn fn, ShadowRule shadow) {
  for (spv::Op op : ops) lower(op, fn, shadow);
}

void DispatchTable::openclStd(std::initializer_list<uint32_t> numbers, ShadowRule shadow) {
  for (uint32_t n : numbers)
    if (!openclStd_.emplace(n, shadow).second)
      throw std::logic_error("lowering table: OpenCL.std instruction " + std::to_string(n) + " has two rules");
}

const ShadowRule* DispatchTable::findOpenclStd(uint32_t number) const {
  auto it = openclStd_.find(number);
  return it == openclStd_.end() ? nullptr : &it->second;
}

void DispatchTable::declaration(std::initializer_list<spv::Op> ops, const char* where) {
  for (spv::Op op : ops) add(op, {OpcodeRule::Kind::Declaration, nullptr, where, {}});
}

void DispatchTable::unsupported(std::initializer_list<spv::Op> ops, const char* why) {
  for (spv::Op op : ops) add(op, {OpcodeRule::Kind::Unsupported, nullptr, why, {}});
}

const OpcodeRule* DispatchTable::find(spv::Op op) const {
  auto it = rules_.find(uint32_t(op));
  return it == rules_.end() ? nullptr : &it->second;
}

const DispatchTable& dispatchTable() {
  static const DispatchTable table = [] {
    DispatchTable t;
    registerControl(t);
    registerMemory(t);
    registerArithmetic(t);
    registerBitwise(t);
    registerRelational(t);
    registerConversion(t);
    registerComposite(t);
    registerExtInst(t);
    registerMath(t);
    registerVectorData(t);
    registerGroup(t);
    registerAtomic(t);
    registerDotProduct(t);
    registerMatrix(t);
    registerPipe(t);
    registerEnqueue(t);
    registerNamedBarrier(t);
    registerSubgroup(t);
    registerShaderMemory(t);
    registerImage(t);
    registerDeclarations(t);
    registerUnsupported(t);
    return t;
  }();
  return table;
}

std::string opcodeName(spv::Op op) {
  const std::string name = spvOpcodeString(uint32_t(op));
  if (name.empty() || name == "unknown") return "opcode " + std::to_string(uint32_t(op));
  return "Op" + name;
}

void lowerInstruction(Lowerer& L, const Instruction& inst) {
  const OpcodeRule* rule = dispatchTable().find(inst.opcode);
  if (!rule) L.reject(inst, opcodeName(inst.opcode) + " (clref has no lowering for this instruction)");
  switch (rule->kind) {
    case OpcodeRule::Kind::Lower: rule->lower(L, inst); return;
    case OpcodeRule::Kind::Declaration:
      L.reject(inst, opcodeName(inst.opcode) + " inside a function (" + rule->why + ")");
    case OpcodeRule::Kind::Unsupported: L.reject(inst, opcodeName(inst.opcode) + ": " + rule->why);
  }
}

void lowerNoCode(Lowerer&, const Instruction&) {}

bool allowedInSpecConstantOp(spv::Op op) {
  using spv::Op;
  switch (op) {
    // SPIR-V 1.0 §3.32.7 [external] OpSpecConstantOp: the opcodes allowed with Shader…
    case Op::OpSConvert:
    case Op::OpUConvert:
    case Op::OpFConvert:
    case Op::OpSNegate:
    case Op::OpNot:
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpVectorShuffle:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalNot:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpSelect:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpQuantizeToF16:
    // …and with Kernel.
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertUToF:
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr:
    case Op::OpGenericCastToPtr:
    case Op::OpPtrCastToGeneric:
    case Op::OpBitcast:
    case Op::OpFNegate:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain: return true;
    default: return false;
  }
}

}  // namespace clref::interpreter
