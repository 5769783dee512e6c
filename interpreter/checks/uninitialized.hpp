// Undefined values at run time (the lowering side is undefined_values.cpp): the shadow Ops, and the shadow of
// memory for the uninitialised-value checker (Allocation::undefined). Internal to the interpreter.
#pragma once
#include <cstdint>

#include "interpreter/checks/check_run.hpp"
#include "interpreter/lower.hpp"

namespace clref::interpreter {

// OpAtomic* (SPIR-V 1.0 §3.32.18 [external]).
bool isAtomicOpcode(spv::Op op);

namespace uninitialized {

// The uses an undefined value must not reach.
enum class Use : uint32_t { Branch, Address, Stored, ImageWrite, Printed };

// The shadow Ops (Op fields: see undefined_values.cpp, which emits them).
Handler joinShadow();       // every result byte: the largest origin of every operand byte
Handler joinSmallShadow();  // the same for one or two operands of at most 8 bytes and a result of at most 8
Handler lanesShadow();      // lane by lane
Handler movesShadow();      // byte moves (composites, copies, shuffles)
Handler selectShadow();     // OpSelect: the chosen operand's, or the condition's
Handler loadShadow();       // the bytes read from memory
Handler storeShadow();      // the stored value's, into memory; a global store of an undefined value is a finding
Handler atomicShadow();     // an atomic's result from memory, its value operands into memory
// The check before a use: a fault (the always-on scope) or a finding (the checker, `full`).
// `warnOnly`: a shader's branch, which warns instead of faulting (uninitialized.cpp useWarning).
Handler useHandler(bool full, bool warnOnly = false);

// The memory side, for CheckRun::record (which keeps the instruction's accesses for the shadow Op after it): gives
// bytes written by an instruction without such an Op (an async copy, OpCopyMemory, a pointer result of frexp) the
// shadow of what they were copied from (the access just before, a read of as many bytes), or makes them defined.
void recordWrite(WorkItem& wi, const Op* op, const Allocation& a, uint32_t tag, uint64_t off, uint64_t bytes);

}  // namespace uninitialized
}  // namespace clref::interpreter
