// Peephole fusion, planned per block before it is lowered: values computed into their single
// consumer (an access chain into its load or store, a comparison into its branch, a sign
// extension into an access-chain index) instead of a register of their own.
#include "interpreter/kernel_lowering.hpp"

namespace clref::interpreter {

// Uses of every id in reachable code. Every operand word is counted, literals included, so
// a count can only be too high, which at worst forgoes a fusion.
void KernelLowering::countUses() {
  for (uint32_t fid : order_)
    for (const Block& b : m_.functions.at(fid).blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        for (size_t w = inst.firstOperand; w < inst.words.size(); ++w) ++L_.useCount_[inst.words[w]];
      }
}

// Peephole fusion within one block, for values with a single use that is in the same block
// (so no other definition of their operands can intervene):
//  - an OpSConvert i32→i64 used only as an access-chain index is read as a signed 32-bit index;
//  - an access chain used only by a load or store becomes part of it;
//  - an integer comparison used only by the block's conditional branch becomes part of it.
void KernelLowering::planFusion(const Block& b) {
  std::unordered_map<uint32_t, size_t> position;  // result id → index in the block
  for (size_t i = 0; i < b.instructions.size(); ++i) {
    const Instruction& inst = m_.instructions[b.instructions[i]];
    if (inst.resultId) position[inst.resultId] = i;
  }
  auto singleLocalUse = [&](uint32_t id) {
    return position.count(id) && L_.useCount_[id] == 1 && !L_.shadow_.count(id);
  };
  auto isChain = [](spv::Op op) {
    return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
           op == spv::Op::OpInBoundsPtrAccessChain;
  };
  for (uint32_t idx : b.instructions) {
    const Instruction& inst = m_.instructions[idx];
    if (isChain(inst.opcode)) {
      for (size_t k = 1; k < inst.operandCount(); ++k) {
        const uint32_t id = inst.operand(k);
        if (!singleLocalUse(id)) continue;
        const Instruction& d = m_.def(id);
        if (d.opcode == spv::Op::OpSConvert && m_.type(d.resultType).width == 64 &&
            L_.typeOfValue(d.operand(0)).kind == TypeKind::Int && L_.typeOfValue(d.operand(0)).width == 32 &&
            !m_.hasDecoration(id, spv::Decoration::SaturatedConversion)) {
          L_.sextIndex_[id] = d.operand(0);
          L_.elided_[id] = true;
        }
      }
    }
    if (inst.opcode == spv::Op::OpLoad || inst.opcode == spv::Op::OpStore) {
      const uint32_t ptr = inst.operand(0);
      if (singleLocalUse(ptr) && isChain(m_.def(ptr).opcode) && chainIsFusable(L_, m_.def(ptr))) L_.elided_[ptr] = true;
    }
    if (inst.opcode == spv::Op::OpBranchConditional) {
      const uint32_t c = inst.operand(0);
      if (singleLocalUse(c) && compareIsFusable(L_, m_.def(c))) L_.elided_[c] = true;
    }
  }
}

}  // namespace clref::interpreter
