// SPIR-V 1.3 §3.32.24 [external] OpGroupNonUniformQuadBroadcast and OpGroupNonUniformQuadSwap (capability
// GroupNonUniformQuad, GLSL's GL_KHR_shader_subgroup_quad), for compute shaders. Vulkan [[shaders-quad-operations]]
// [external]: "Whilst these instructions do include a Scope parameter, this scope is always overridden; only the quad
// scope instance is included in its execution scope", and the quad index is "as described for a quad scope instance".
// A compute shader without the DerivativeGroup*KHR execution modes (which clref does not accept) has its quads in its
// subgroups: clref forms them of consecutive subgroup invocation ids, 4k to 4k + 3, the quad index being the id mod 4
// (a subgroup holds whole quads: Vulkan's subgroup sizes are powers of two from 4).
//
// Each is a non-uniform sub-group collective (ops_subgroup.cpp): it runs once for the active invocations that reach
// it together, and each reads the value of its quad's invocation with the quad index it names. Reading an inactive
// invocation (the missing ones of a partial subgroup, or those of another branch) is undefined: choice
// sub_group_inactive_source, as for the other shuffles.
//
// Op fields (ops_subgroup.hpp): r = result, a = value (n bytes), b = Index (QuadBroadcast; its bytes in align),
// imm = the quad index's XOR mask (QuadSwap: 1 horizontal, 2 vertical, 3 diagonal).
#include "interpreter/ops_subgroup.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

using namespace nonuniform;

constexpr uint64_t kQuadSize = 4;
constexpr uint64_t kOutsideQuad = ~uint64_t(0);  // a sub-group local id no work-item has

// OpGroupNonUniformQuadBroadcast: "the Value of the invocation within the quad with a quad index equal to Index";
// "If the value of Index is greater than or equal to 4, or refers to an inactive invocation, the resulting value is
// undefined".
bool quadBroadcast(WorkItem* const* items, uint64_t count, const Op* op) {
  const auto active = byLocalId(items, count);
  for (uint64_t i = 0; i < count; ++i) {
    WorkItem& wi = *items[i];
    const uint64_t index = readIndex(wi, op), quad = subgroupLocalId(wi) / kQuadSize * kQuadSize;
    if (!readFrom(wi, active, index < kQuadSize ? quad + index : kOutsideQuad, op, "OpGroupNonUniformQuadBroadcast"))
      return false;
  }
  return true;
}

// OpGroupNonUniformQuadSwap: the Value of the invocation whose quad index differs in the bits of the Direction's mask
// (Direction 0: horizontal, index ^ 1; 1: vertical, index ^ 2; 2: diagonal, index ^ 3).
bool quadSwap(WorkItem* const* items, uint64_t count, const Op* op) {
  const auto active = byLocalId(items, count);
  for (uint64_t i = 0; i < count; ++i)
    if (!readFrom(*items[i], active, subgroupLocalId(*items[i]) ^ op->imm, op, "OpGroupNonUniformQuadSwap"))
      return false;
  return true;
}

void lowerQuadBroadcast(Lowerer& L, const Instruction& inst) {
  Op& op = emitNonUniform(L, inst, &quadBroadcast, inst.operand(1));
  setIndex(L, op, inst.operand(2));
}

void lowerQuadSwap(Lowerer& L, const Instruction& inst) {
  // "Direction must come from a constant instruction", 0 to 2.
  if (!L.isConstant(inst.operand(2)))
    L.reject(inst, "OpGroupNonUniformQuadSwap with a Direction that is not a constant");
  const uint64_t direction = L.constantInt(inst.operand(2));
  if (direction > 2) L.reject(inst, "OpGroupNonUniformQuadSwap with Direction " + std::to_string(direction));
  Op& op = emitNonUniform(L, inst, &quadSwap, inst.operand(1));
  op.imm = direction + 1;
}

}  // namespace

void registerSubgroupQuad(DispatchTable& t) {
  // The collective's action moves the values and gives the results their sets (readFrom), as for the shuffles.
  t.lower(spv::Op::OpGroupNonUniformQuadBroadcast, lowerQuadBroadcast, {shadowNone});
  t.lower(spv::Op::OpGroupNonUniformQuadSwap, lowerQuadSwap, {shadowNone});
}

}  // namespace clref::interpreter
