// The values of a kernel that never carry a shadow (shadow_support.hpp Lowerer::shadowExact): a static analysis of the
// shadow lowering, so that the index arithmetic of a kernel (work-item ids, loop counters, addresses) runs without
// rules. A shadow entry lands in a value's register only through the rule of the instruction that produces it, an
// OpPhi's copies, a call's argument and return copies or a collective's move; so a value whose every source is exact,
// computed by an instruction whose rule gives exact operands an exact result and which decides no choice, never has
// one, and its rule, its branch rule and the open-address test of an access through it would do nothing.
#include <unordered_set>

#include "interpreter/lower.hpp"

namespace clref::interpreter {
namespace {

// The instructions whose shadow rule gives an exact result for exact operands and whose handler decides no choice
// (a choice that leaves the result free would give it a set: shadowNoteChoice): integer arithmetic without
// division (OpSDiv/OpUDiv/OpSRem/OpSMod/OpUMod decide int_div_by_zero and friends), shifts (their count is taken
// modulo the width, OpenCL C 3.0 §6.5.10 [[operators-shift]]; ops_bitwise.cpp for shaders too), integer and logical
// comparisons, selections, composites with literal indices, integer width conversions, pointer arithmetic and
// reinterpretations. Conversions to floating point are not among them (rounding may give a single value a set), nor
// OpConvertPtrToU (an OpenCL kernel's address as an integer is any value, shadowConvertPtrToU).
bool keepsExactness(spv::Op op) {
  switch (op) {
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpSNegate:
    case spv::Op::OpNot:
    case spv::Op::OpBitwiseAnd:
    case spv::Op::OpBitwiseOr:
    case spv::Op::OpBitwiseXor:
    case spv::Op::OpShiftLeftLogical:
    case spv::Op::OpShiftRightLogical:
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpIEqual:
    case spv::Op::OpINotEqual:
    case spv::Op::OpUGreaterThan:
    case spv::Op::OpSGreaterThan:
    case spv::Op::OpUGreaterThanEqual:
    case spv::Op::OpSGreaterThanEqual:
    case spv::Op::OpULessThan:
    case spv::Op::OpSLessThan:
    case spv::Op::OpULessThanEqual:
    case spv::Op::OpSLessThanEqual:
    case spv::Op::OpLogicalEqual:
    case spv::Op::OpLogicalNotEqual:
    case spv::Op::OpLogicalOr:
    case spv::Op::OpLogicalAnd:
    case spv::Op::OpLogicalNot:
    case spv::Op::OpSelect:
    case spv::Op::OpPhi:
    case spv::Op::OpCompositeConstruct:
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpVectorShuffle:
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpCopyObject:
    case spv::Op::OpBitcast:
    case spv::Op::OpConvertUToPtr:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain: return true;
    default: return false;
  }
}

// Whether every value `inst` is computed from is exact (a constant or in `exact`); false for an operand without a
// register of its own that is no constant.
bool sourcesExact(const Lowerer& L, const Instruction& inst, const std::unordered_set<uint32_t>& exact) {
  size_t count = inst.operandCount();
  // Literal indices and components follow the composite operands.
  if (inst.opcode == spv::Op::OpCompositeExtract) count = 1;
  if (inst.opcode == spv::Op::OpCompositeInsert || inst.opcode == spv::Op::OpVectorShuffle) count = 2;
  for (size_t k = 0; k < count; ++k) {
    const uint32_t id = inst.operand(k);
    const Instruction* d = L.m.findDef(id);
    if (!d || !d->resultType) continue;  // a label (OpPhi's parents), a type
    if (L.isConstant(id) || exact.count(id)) continue;
    return false;
  }
  return true;
}

// A load of a built-in variable (the work-item's ids and sizes, an Input variable): nothing stores there.
bool loadsInput(const Lowerer& L, const Instruction& inst) {
  if (inst.opcode != spv::Op::OpLoad) return false;
  const Type& pointer = L.typeOfValue(inst.operand(0));
  return pointer.kind == TypeKind::Pointer && pointer.storage == spv::StorageClass::Input;
}

}  // namespace

void planShadowExactValues(Lowerer& L, const std::vector<uint32_t>& functions, uint32_t body) {
  const Module& m = L.m;
  std::unordered_set<uint32_t> exact;
  // The kernel's arguments (the parameters of the entry point and of the function work-items start in): the host's
  // values, which no rule writes. Other functions' parameters take their callers' values with their sets.
  for (uint32_t fid : functions)
    if (fid == functions.front() || fid == body)
      for (uint32_t p : m.functions.at(fid).parameters)
        if (L.hasReg(p)) exact.insert(p);
  // Variables: pointers the launch sets up, which no rule writes (an OpVariable's rule is none).
  for (const Instruction& inst : m.instructions)
    if (inst.opcode == spv::Op::OpVariable && L.hasReg(inst.resultId)) exact.insert(inst.resultId);
  // The largest set that is closed: start from every candidate and drop those with a source outside the set, until
  // none is dropped (an OpPhi's cycle through a loop stays exact when everything entering it is).
  std::vector<const Instruction*> candidates;
  for (uint32_t fid : functions)
    for (const Block& b : m.functions.at(fid).blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m.instructions[idx];
        if (!inst.resultId || !L.hasReg(inst.resultId)) continue;
        if (loadsInput(L, inst)) {
          exact.insert(inst.resultId);
        } else if (keepsExactness(inst.opcode)) {
          exact.insert(inst.resultId);
          candidates.push_back(&inst);
        }
      }
  for (bool changed = true; changed;) {
    changed = false;
    for (const Instruction* inst : candidates)
      if (exact.count(inst->resultId) && !sourcesExact(L, *inst, exact)) {
        exact.erase(inst->resultId);
        changed = true;
      }
  }
  L.shadowExact_ = std::move(exact);
}

}  // namespace clref::interpreter
