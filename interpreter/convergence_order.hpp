// The order in which the work-items of a sub-group meet again after they diverge: a rank for each block of a
// function, loop-aware, so that the scheduler runs the non-uniform sub-group instruction with the lowest rank first
// among those some work-items wait at (choice sub_group_active_set "converged"). Work-items still inside a loop or one
// branch of an if reach their instruction before those that have left them reach a later one, as on hardware that
// reconverges at the end of a branch or loop. Internal to the interpreter.
#pragma once
#include <cstdint>
#include <unordered_map>

#include "interpreter/module.hpp"

namespace clref::interpreter {

// Block label → rank for the function that contains block `label`: a topological order of the control-flow graph
// without its loops' back edges, in which every loop's blocks come together (the loop's header first) and before the
// blocks its exits lead to. Unreachable blocks have no rank.
std::unordered_map<uint32_t, uint32_t> convergenceOrder(const Module& m, uint32_t label);

}  // namespace clref::interpreter
