// An observer of one launch's execution (ExecConfig::observer): what `clref run --trace`, `--profile` and
// `clref debug` are built on. It sees what the checkers see (checks/check_run.hpp: memory accesses, work-group starts,
// barriers) and, in a kernel lowered with LowerOptions::observeInstructions, every instruction before it runs and
// the value it produced; and every fault a work-item raises, before the launch ends. An observed launch runs on one
// thread, its work-groups in order; a plain launch pays nothing.
//
// The interface a tool outside the interpreter observes a launch through (cli/: trace, profile, the debugger): the
// callbacks name the work-item, whose state is the interpreter's own (exec.hpp); ObservedWorkItem and ObservedKernel
// read it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"

namespace clref::interpreter {

struct WorkItem;
struct LoweredKernel;

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

// A kernel as its launch was lowered: its module, its parameters, its allocations (the tags pointers carry) and the
// values it keeps in registers. Valid while the lowered kernel is (a host::Kernel keeps it between runs).
class ObservedKernel {
 public:
  explicit ObservedKernel(const LoweredKernel& kernel) : kernel_(&kernel) {}
  const Module& module() const;
  // A pointer is its allocation's tag above this many bits of offset.
  uint32_t tagShift() const;
  // The allocations pointers name, by tag (0 is the null pointer's).
  struct Allocation {
    const std::string& name;  // "argument 1 (out)", "v (private variable in k)"
    spv::StorageClass storage;
    uint32_t variable;  // the OpVariable of a variable's allocation, else 0
  };
  size_t allocationCount() const;
  Allocation allocation(uint32_t tag) const;
  struct Parameter {
    const std::string& name;
    const std::string& typeName;  // "global float*", "int4", "struct (12 bytes)"
    bool inMemory;                // a buffer, a local pointer, or a value passed through a private copy
    uint32_t tag;                 // inMemory: its allocation
  };
  size_t parameterCount() const;
  Parameter parameter(size_t index) const;
  // The value ids the kernel keeps a register for (every value of a kernel lowered for observation), and whether an
  // id's register is a parameter's.
  std::vector<uint32_t> valueIds() const;
  bool isParameterValue(uint32_t id) const;

 private:
  const LoweredKernel* kernel_;
};

// A work-item during a callback, when its state is live: who it is, where it is, its values and its memory.
class ObservedWorkItem {
 public:
  explicit ObservedWorkItem(const WorkItem& wi) : wi_(&wi) {}
  ObservedKernel kernel() const;
  const Module& module() const { return kernel().module(); }
  // Its ids (OpenCL C 3.0 §6.15.1 [[work-item-functions]]); the dimensions past the NDRange's are 0 (local 0, group 0).
  const std::array<uint64_t, 3>& globalId() const;
  const std::array<uint64_t, 3>& localId() const;
  const std::array<uint64_t, 3>& groupId() const;
  // The launch's NDRange: its dimensions, global offset, enqueued work-group size and work-groups per dimension.
  uint32_t dims() const;
  const std::array<uint64_t, 3>& globalOffset() const;
  const std::array<uint64_t, 3>& enqueuedLocalSize() const;
  const std::array<uint64_t, 3>& numGroups() const;
  // Whether it returned from the kernel.
  bool returned() const;
  // Where it continues when it runs again (Module::instructions index): the barrier or collective it waits at, or
  // the loop it yielded in; none when it has not started or returned.
  std::optional<uint32_t> resumesAt() const;
  // Function calls it is inside of (0 in the kernel itself), and the OpFunctionCall (Module::instructions index) that
  // made call `depth` (0: the outermost).
  size_t callDepth() const;
  uint32_t callSite(size_t depth) const;
  // The bytes of value `id` in its registers (its type's size), nullptr when the kernel keeps no register for it.
  const uint8_t* value(uint32_t id) const;
  // Allocation `tag` as this work-item sees it: its bytes (its own private memory, its group's local memory, a
  // buffer), none when the tag names no allocation of the launch. An SVM pointer's tag has size 0.
  struct Memory {
    const uint8_t* base = nullptr;
    uint64_t size = 0;
    spv::StorageClass storage = spv::StorageClass::CrossWorkgroup;
  };
  std::optional<Memory> memory(uint32_t tag) const;

 private:
  const WorkItem* wi_;
};

// Ends the launch from instruction(wi, inst): the work-item faults there (FaultKind::ExecutionFailed, `message`), as
// a faulting instruction would. What `clref debug` does on quit.
void stopLaunch(WorkItem& wi, uint32_t inst, const std::string& message);

}  // namespace clref::interpreter
