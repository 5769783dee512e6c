// SPIR-V 1.0 §3.32.8 [external] OpArrayLength: "Length of a run-time array", the last member of a storage buffer's
// block in a shader. Its length comes from the buffer bound to the descriptor (Vulkan §15.1 [external] Shader
// Resource Declarations): the array has as many elements as fit whole in the bound range past the member's offset,
// (range − Offset) / ArrayStride, rounded down.
//
// Op fields: r = result (a 32-bit integer), a = the block's pointer, imm = the member's Offset, n = its ArrayStride.
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

const Op* arrayLength(WorkItem& wi, const Op* op) {
  const uint64_t ptr = rd<uint64_t>(wi, op->a);
  const uint64_t tag = ptr >> wi.tagShift, start = (ptr & wi.offsetMask) + op->imm;
  // A shader's pointers are its resources' (Logical addressing): the tag names the bound buffer. allocCount, not the
  // fast path's allocLimit, which is 0 in a checked or observed launch.
  const uint64_t size = tag != 0 && tag < wi.allocCount ? wi.allocs[tag].size : 0;
  wr<uint32_t>(wi, op->r, uint32_t(size > start ? (size - start) / op->n : 0));
  return op + 1;
}

void lowerArrayLength(Lowerer& L, const Instruction& inst) {
  const uint32_t structure = inst.operand(0), member = inst.operand(1);
  const Type& ptrType = L.typeOfValue(structure);
  const Type& block = L.type(ptrType.element);
  if (block.kind != TypeKind::Struct || member >= block.members.size() || member + 1 != block.members.size())
    L.reject(inst, "OpArrayLength of a member that is not the last of a structure");
  const Type& array = L.type(block.members[member]);
  if (array.kind != TypeKind::RuntimeArray || array.stride == 0)
    L.reject(inst, "OpArrayLength of a member that is not a run-time array with an ArrayStride");
  if (L.type(inst.resultType).size != 4) L.reject(inst, "OpArrayLength with a result that is not 32 bits wide");
  if (L.ptrBytes() != 8) L.reject(inst, "OpArrayLength on a device with 32-bit addresses");
  Op& op = L.emit(&arrayLength, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(structure);
  op.imm = block.memberOffsets[member];
  op.n = uint32_t(array.stride);
}

}  // namespace

void registerShaderMemory(DispatchTable& t) { t.lower(spv::Op::OpArrayLength, lowerArrayLength); }

}  // namespace clref::interpreter
