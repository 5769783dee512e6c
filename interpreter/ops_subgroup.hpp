// What the GroupNonUniform instructions share (ops_subgroup.cpp defines them): the sub-group of a work-item, the
// active work-items of a non-uniform collective, reading another work-item's value, and emitting the collective.
// ops_subgroup_quad.cpp builds the quad instructions on them.
#pragma once

#include <string>
#include <vector>

#include "interpreter/group_arithmetic.hpp"

namespace clref::interpreter {

namespace nonuniform {

uint64_t maxSubgroupSize(const WorkItem& wi);
uint64_t subgroupLocalId(const WorkItem& wi);
// The sub-group's size: OpenCL's last sub-group may be smaller; a shader's SubgroupSize is the full size in each.
uint64_t subgroupSize(const WorkItem& wi);
// The value of the op's index register (its bytes in op->align).
uint64_t readIndex(const WorkItem& wi, const Op* op);
// The active work-items by sub-group local id (nullptr: inactive).
std::vector<WorkItem*> byLocalId(WorkItem* const* items, uint64_t count);
// Copies the value of the work-item with sub-group local id `from` into `to`'s result, or gives the undefined result
// (choice sub_group_inactive_source) when it is inactive or outside the sub-group; false after a fault.
bool readFrom(WorkItem& to, const std::vector<WorkItem*>& active, uint64_t from, const Op* op, const char* what);
// A non-uniform collective at Subgroup scope running `action` over the active work-items; `valueId` (0: none) is the
// value operand (op.a, op.n).
Op& emitNonUniform(Lowerer& L, const Instruction& inst, EachAction action, uint32_t valueId);
// The op's index operand: op.b, its bytes in op.align.
void setIndex(Lowerer& L, Op& op, uint32_t id);

}  // namespace nonuniform

void registerSubgroupQuad(DispatchTable& t);  // ops_subgroup_quad.cpp

}  // namespace clref::interpreter
