// The lowering context shared by the instruction-family files (ops_*.cpp): register offsets,
// types, and emission of Ops. Internal to the interpreter.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "interpreter/program.hpp"
#include "numerics/scalar_type.hpp"

namespace clref::interpreter {

// The scalar kinds handlers are specialised for: numerics::ScalarType, with every SPIR-V integer as the unsigned type
// of its width (scalar_type.hpp says why); scalarOf gives no other integer member.
using numerics::ScalarType;

class Lowerer {
 public:
  Lowerer(const Module& m, const LowerOptions& o, LoweredKernel& k) : m(m), opt(o), k(k) {}

  const Module& m;
  const LowerOptions& opt;
  LoweredKernel& k;

  uint32_t reg(uint32_t id) const;  // register offset of a value id
  bool hasReg(uint32_t id) const { return regs_.count(id) != 0; }
  uint32_t allocReg(uint32_t id, uint64_t size);
  uint32_t scratch(uint64_t size);             // anonymous register space
  const Type& typeOfValue(uint32_t id) const;  // the result type of a value id
  uint32_t typeIdOfValue(uint32_t id) const;
  const Type& type(uint32_t typeId) const { return m.type(typeId); }
  ScalarType scalarOf(uint32_t typeId) const;  // scalar or vector element kind
  uint32_t lanes(uint32_t typeId) const;       // 1 for scalars
  uint32_t ptrBytes() const { return opt.addressBits / 8; }
  bool flush(ScalarType s) const;  // denormals flushed for this float kind
  bool towardZero(ScalarType s) const;  // correctly rounded operations of this float kind round toward zero
  uint32_t index(const Instruction& inst) const { return uint32_t(&inst - m.instructions.data()); }

  Op& emit(Handler fn, const Instruction& inst);
  [[noreturn]] void reject(const Instruction& inst, const std::string& why) const;

  // Current function/block being lowered; the edge for a branch to `target` from here.
  uint32_t currentBlock = 0;
  // The rank of the current block in convergence_order.hpp's order (computed once per function).
  uint32_t convergenceRank();
  std::unordered_map<uint32_t, uint32_t> convergenceRank_;
  Edge* edgeTo(uint32_t targetLabel);

  // Constant value bytes of an id (OpConstant*, OpSpecConstant*), when it is one.
  const uint8_t* constantBytes(uint32_t id) const;
  bool isConstant(uint32_t id) const;
  uint64_t constantInt(uint32_t id) const;  // zero-extended

  std::unordered_map<uint32_t, uint32_t> regs_;
  std::unordered_map<uint32_t, uint32_t> labelOp_;        // label → first Op index
  std::unordered_map<uint32_t, int64_t> labelCost_;       // label → instructions in the block
  std::unordered_map<uint32_t, uint32_t> functionEntry_;  // function id → entry Op index
  std::unordered_map<uint32_t, int64_t> functionCost_;
  std::unordered_map<uint32_t, uint32_t> tagOf_;          // variable id → allocation tag
  std::unordered_map<uint32_t, spv::BuiltIn> builtinOf_;  // Input variable → BuiltIn
  std::unordered_map<uint32_t, bool> constantIds_;
  // A shader's array of buffer blocks (one binding, several descriptors): the register table of its descriptors'
  // pointers, one per array element, and the parameter of element 0 (the others follow it).
  struct DescriptorArray {
    uint32_t table = 0;
    uint32_t count = 0;
    uint32_t firstParam = 0;
  };
  std::unordered_map<uint32_t, DescriptorArray> descriptorArrays_;  // variable id → its descriptors
  // Peephole fusion, decided per block before it is lowered (fusion.cpp):
  // values computed into their single consumer instead of a register of their own.
  std::unordered_map<uint32_t, bool> elided_;         // result ids not emitted on their own
  std::unordered_map<uint32_t, uint32_t> sextIndex_;  // 64-bit chain index → its 32-bit OpSConvert source
  bool isElided(uint32_t id) const { return elided_.count(id) != 0; }
  std::unordered_map<uint32_t, int> useCount_;  // uses of each id in reachable code
  // Undefined-value tracking (checks/undefined_values.cpp): a shadow register per value that may be undefined, one
  // byte per byte of the value: 0 where this execution's value is defined, else the origin of its undefinedness
  // (LoweredKernel::undefinedOrigins).
  std::unordered_map<uint32_t, uint32_t> shadow_;
  // `size` bytes of zeros (the shadow of a value that is always defined); never written.
  uint32_t zeroShadow(uint32_t size) {
    if (size > zeroShadowSize_) {
      zeroShadow_ = scratch(size);
      zeroShadowSize_ = size;
    }
    return zeroShadow_;
  }
  uint32_t shadowOrZero(uint32_t id, uint32_t size) {
    auto it = shadow_.find(id);
    return it == shadow_.end() ? zeroShadow(size) : it->second;
  }
  uint32_t zeroShadow_ = 0, zeroShadowSize_ = 0;
  // The shadow lowering's values that never carry an allowed set or a decision (shadow_exact_values.cpp): they take
  // no rule, and a branch on one or an access through one no test.
  std::unordered_set<uint32_t> shadowExact_;
  bool shadowExact(uint32_t id) const { return isConstant(id) || shadowExact_.count(id) != 0; }
  // Functions whose Ops need the edge/call targets patched once all are lowered.
  std::vector<std::function<void()>> fixups;
  std::vector<std::pair<uint32_t, const Edge*>> callEdges_;  // (callee, edge) of OpFunctionCall
  uint32_t regTop_ = 0;
};

// Instruction families register their opcodes in the dispatch table (dispatch.hpp). OpenCL.std
// extended instructions dispatch again on the instruction number; these return false when the
// number is not one of theirs.
bool lowerPrintf(Lowerer&, const Instruction&);      // OpenCL.std printf and prefetch (ops_printf.cpp)
bool lowerVectorData(Lowerer&, const Instruction&);  // OpenCL.std vload/vstore (ops_vector_data.cpp)
bool lowerMath(Lowerer&, const Instruction&);        // OpenCL.std math via numerics::evaluate (ops_math.cpp)
// The handler every barrier-like Op uses (ops_control.cpp): the work-item waits for its group.
const Op* waitForGroup(WorkItem& wi, const Op* op);
// Emits a waitForGroup Op for a barrier or work-group function; the kernel then uses barriers.
Op& emitWaitForGroup(Lowerer& L, const Instruction& inst);
// A group instruction's Execution scope (operand 0, a constant): true for Subgroup, false for Workgroup; any other
// scope is rejected (ops_group.cpp).
bool subgroupScope(Lowerer& L, const Instruction& inst);

// An image memory fence (ops_image.cpp): after OpMemoryBarrier or OpControlBarrier whose Memory Semantics
// `semanticsId` include ImageMemory, the work-item's image writes are visible to its reads.
void emitImageFence(Lowerer& L, const Instruction& inst, uint32_t semanticsId);

// Undefined-value tracking (undefined_values.cpp).
// `functions` the reachable ones, the entry point first; `body` the function work-items start in (its parameters are
// the kernel's arguments, defined).
void planUndefTracking(Lowerer&, const std::vector<uint32_t>& functions, uint32_t body);
void emitUndefCheck(Lowerer&, const Instruction& consumer);    // before a branch/switch/access
void emitShadowUpdate(Lowerer&, const Instruction& producer);  // after a value-producing instruction

// The observer's Ops (checks/observe_instructions.cpp), with LowerOptions::observeInstructions.
void emitObserveBefore(Lowerer&, const Instruction&);
void emitObserveAfter(Lowerer&, const Instruction&);

// Allowed-set propagation (shadow_support.cpp), with LowerOptions::shadow: the rule the instruction's dispatch entry
// names (dispatch.hpp, chosen in the instruction's family file), its Op before a branch and after a value-producing
// instruction.
void emitShadowRuleBefore(Lowerer&, const Instruction&);
void emitShadowRuleAfter(Lowerer&, const Instruction&);
// Lowerer::shadowExact_ of the reachable `functions` (the entry point first; `body` the function work-items start in,
// whose parameters are the kernel's arguments).
void planShadowExactValues(Lowerer&, const std::vector<uint32_t>& functions, uint32_t body);

// Byte offset, and in `memberType` the type, of the member of `typeId` reached by the literal indices of `inst` from
// operand `first` on (OpCompositeExtract/Insert; ops_composite.cpp).
uint64_t memberOffset(const Lowerer& L, uint32_t typeId, const Instruction& inst, size_t first, uint32_t& memberType);

// OpCopyLogical's copies (ops_composite.cpp): the two types match logically but may be laid out differently (a
// Block's struct with its Offset, ArrayStride and MatrixStride decorations, copied to a Function variable's struct of
// the natural layout). Appends to `table` a (destination offset, source offset, bytes) triple per leaf (contiguous
// leaves are one), for a `dstType` value at `dst` and a `srcType` one at `src`.
void logicalCopies(const Lowerer& L, uint32_t dstType, uint32_t srcType, uint64_t dst, uint64_t src,
                   std::vector<uint32_t>& table);

// Access-chain shape (ops_memory.cpp): true when the chain is a base pointer plus a constant
// offset plus at most one dynamic index of 4 or 8 bytes, so a load or store can absorb it.
bool chainIsFusable(const Lowerer&, const Instruction& chain);
// Integer comparisons a conditional branch can absorb (ops_control.cpp).
bool compareIsFusable(const Lowerer&, const Instruction& compare);

}  // namespace clref::interpreter
