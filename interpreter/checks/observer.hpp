// An observer of one launch's execution (ExecConfig::observer): what `clref run --trace`, `--profile` and
// `clref debug` are built on. It sees what the checkers see (check_run.hpp: memory accesses, work-group starts,
// barriers) and, in a kernel lowered with LowerOptions::observeInstructions, every instruction before it runs and
// the value it produced; and every fault a work-item raises, before the launch ends. An observed launch runs on one
// thread, its work-groups in order; a plain launch pays nothing.
#pragma once
#include <cstdint>

#include "interpreter/exec.hpp"

namespace clref::interpreter {

class Module;
struct Instruction;

// Whether a work-item executes `inst` and an observer's instruction() hears of it: not what only describes (OpLine,
// debug information, OpUndef) or has its effect elsewhere (OpPhi: the edge's copies; OpLabel, OpVariable,
// OpFunction*: the lowering).
bool isObservedInstruction(const Module& m, const Instruction& inst);

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // A work-group starts: its work-items (local linear id order), set up and about to run.
  virtual void groupStart(uint64_t groupLinear, WorkItem* const* items, uint64_t count) {
    (void)groupLinear, (void)items, (void)count;
  }
  // Every work-item of the group (sub-group) passed `barrierInst` (a barrier or a collective).
  virtual void barrier(uint32_t barrierInst) { (void)barrierInst; }
  // A memory access that passed the bounds check: allocation `tag` (LoweredKernel::allocations), bytes [off, off +
  // bytes), by instruction `inst` (Module::instructions index).
  virtual void access(WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes, bool write) {
    (void)wi, (void)inst, (void)tag, (void)off, (void)bytes, (void)write;
  }
  // Before instruction `inst` of work-item `wi` runs (LowerOptions::observeInstructions). The work-item's state
  // (registers, frames, memory) is live and may be inspected.
  virtual void instruction(WorkItem& wi, uint32_t inst) { (void)wi, (void)inst; }
  // After `inst` produced its result: `size` bytes in the work-item's registers.
  virtual void result(WorkItem& wi, uint32_t inst, const uint8_t* bytes, uint32_t size) {
    (void)wi, (void)inst, (void)bytes, (void)size;
  }
  // Instruction `inst` of `wi` faults with `diagnostic` (FaultKind and message as the run reports it); the
  // work-item's state is still live, as at instruction(). The launch ends after it.
  virtual void fault(WorkItem& wi, uint32_t inst, const Diagnostic& diagnostic) {
    (void)wi, (void)inst, (void)diagnostic;
  }
};

}  // namespace clref::interpreter
