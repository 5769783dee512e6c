// The executable form and the work-item state that handlers run on. This header is on the hot
// path: every instruction is an Op whose handler reads and writes a work-item's register file.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "interpreter/diagnostic.hpp"
#include "interpreter/handles.hpp"
#include "numerics/choices.hpp"

namespace clref::images {
struct ImageView;
struct Sampler;
}  // namespace clref::images

namespace clref::interpreter {

struct WorkItem;
struct Op;
struct ShadowRun;
class CheckRun;
class ExecutionObserver;
// A handler executes one Op and returns the next one, or nullptr when the work-item stops
// (returned from the kernel, reached a barrier, or faulted; WorkItem::state says which).
using Handler = const Op* (*)(WorkItem&, const Op*);

// One pre-decoded instruction. Operands are byte offsets into the register file, resolved at
// lowering; `aux` points to op-specific data owned by the LoweredKernel.
struct Op {
  Handler fn = nullptr;
  uint32_t r = 0, a = 0, b = 0, c = 0;  // result and operand register offsets (or literals)
  uint32_t n = 0;                       // lanes, byte size, or count, per handler
  uint32_t inst = 0;                    // Module::instructions index, for diagnostics
  uint32_t align = 1;                   // memory access alignment (power of two)
  // An OpLoad/OpStore whose Aligned memory operand claims more than its type needs: the type's alignment, which
  // decides with the choice aligned_operand_overclaim what an address aligned to it but not to `align` gets; else 0.
  uint32_t typeAlign = 0;
  uint64_t imm = 0;                     // an immediate (stride, constant offset, literal)
  const void* aux = nullptr;
};

// A phi copy on a control-flow edge (SPIR-V 1.0 §3.32.17 [external] OpPhi: the value from the parent block).
struct PhiCopy {
  uint32_t dst, src, size;
};

// A work-group collective (OpGroupAsyncCopy, …): every work-item stops at its Op like at a
// barrier; when all have arrived with the same operands, the executor performs the action once
// on behalf of the group (with the first work-item's registers) and resumes them all.
struct Collective {
  // Returns false after raising a fault on `wi`.
  bool (*action)(WorkItem& wi, const Op* op) = nullptr;
  // Instead of `action`, for the collectives that combine every work-item's value and give each its own result
  // (work_group_reduce, scans, broadcast, all, any): the group's work-items in local linear id order. Returns false
  // after raising a fault on one of them.
  bool (*eachAction)(WorkItem* const* items, uint64_t count, const Op* op) = nullptr;
  std::vector<std::pair<uint32_t, uint32_t>> uniformOperands;  // (register, bytes) that must agree
  // Execution scope Subgroup: the work-items of one sub-group wait for each other, not the whole work-group
  // (sub_group_barrier and the sub-group collective functions).
  bool subgroup = false;
  // A sub-group non-uniform instruction (ops_subgroup.cpp): it runs for the work-items of the sub-group that wait at
  // it once none of the sub-group can run further (its active work-items), not only when all have arrived.
  bool nonUniform = false;
  // Non-uniform: the instruction's place in the order in which diverged work-items meet again (its block's rank in
  // convergence_order.hpp << 32 | its instruction index); the scheduler runs the lowest waiting one first.
  uint64_t convergenceOrder = 0;
  const void* payload = nullptr;  // op-specific data of the action (the non-uniform arithmetic's combining action)
  // The bytes of one lane of the value a broadcast or shuffle moves (the shadow mode marks lanes of this size).
  uint32_t valueLaneBytes = 0;
  // OpMemoryNamedBarrier (with `subgroup`): a sub-group that waits at it is released once the named barrier's
  // sub-group count of sub-groups wait at it (scheduler.cpp; ops_named_barrier.cpp).
  bool namedBarrier = false;
};

// One named barrier of a work-group (OpNamedBarrierInitialize): how many sub-groups it waits for, and which wait.
struct NamedBarrierState {
  uint32_t subgroupCount = 0;
  std::vector<uint64_t> waiting;  // first slot of each waiting sub-group
};

// A control-flow edge: the target and the OpPhi copies it performs (parallel-copy semantics:
// when a copy's destination is another copy's source, all go through the scratch area first).
struct Edge {
  const Op* target = nullptr;
  uint32_t targetIndex = 0;    // index of the target's first Op (patched to `target` after lowering)
  int64_t cost = 0;            // instructions in the target block, charged to the budget
  uint32_t sourceBlockOp = 0;  // first Op of the block the edge leaves
  bool backEdge = false;       // the target starts at or before the source block (a loop)
  bool viaScratch = false;
  uint32_t scratch = 0;  // register offset of the scratch area for this edge
  std::vector<PhiCopy> copies;
  // In a kernel lowered for the shadow mode: the copies whose allowed sets move with them (those of values that may
  // carry one, Lowerer::shadowExact).
  std::vector<PhiCopy> shadowCopies;
};

// A memory allocation a tagged pointer can name. Private and Workgroup allocations are per
// work-item / per work-group; the table each work-item sees points at its own.
struct Allocation {
  uint8_t* base = nullptr;
  uint64_t size = 0;
  spv::StorageClass storage = spv::StorageClass::CrossWorkgroup;
  bool readOnly = false;
  // In a launch of the uninitialised-value checker: per byte, 0 where defined, else the origin of its undefinedness
  // (LoweredKernel::undefinedOrigins); nullptr for memory that is always defined (constants, program-scope variables).
  uint8_t* undefined = nullptr;
  // A buffer argument's, in such a launch: a byte every copy of the allocation shares (the slots', a child launch's),
  // 0 while no byte of it can be undefined. Its shadow is then neither read nor written, so that a buffer the host
  // wrote whole costs no shadow pages (the system gives them, zero-filled, on first touch: 0.3 ms a 4 MiB buffer, each
  // launch). nullptr: the shadow is read as it is (local and private memory).
  uint8_t* someUndefined = nullptr;
  // The shadow to read: nullptr where every byte is defined.
  const uint8_t* undefinedToRead() const { return someUndefined && !*someUndefined ? nullptr : undefined; }
  // The shadow to write `undefinedValue` bytes (any nonzero shadow byte) into: nullptr where no byte is undefined and
  // none becomes so (nothing to write).
  uint8_t* undefinedToWrite(bool undefinedValue) const {
    if (someUndefined && !*someUndefined) {
      if (!undefinedValue) return nullptr;
      *someUndefined = 1;
    }
    return undefined;
  }
};

struct LoweredKernel;
class Module;
class Pipe;
struct EnqueueLaunch;
struct InheritedAllocation;

// Everything a launch shares between work-items (set up by the executor).
struct Launch {
  const LoweredKernel* kernel = nullptr;
  const Module* module = nullptr;
  uint32_t dims = 1;
  std::array<uint64_t, 3> globalSize{1, 1, 1}, globalOffset{0, 0, 0}, enqueuedLocal{1, 1, 1}, numGroups{1, 1, 1};
  uint32_t subgroupSize = 32;
  // Vulkan's subgroups (a shader): SubgroupSize is subgroupSize in every subgroup, the last one of a work-group
  // included, whose missing invocations are inactive; OpenCL's last sub-group is smaller instead.
  bool vulkanSubgroups = false;
  uint64_t instructionBudget = 0;
  const numerics::Choices* choices = nullptr;
  // The images and samplers handles index (see kImageHandleTag).
  const images::ImageView* const* images = nullptr;
  uint32_t imageCount = 0;
  // Per image: 1 where no other argument of the launch (image or buffer) shares its memory, so that nothing but the
  // image itself writes it (the lane executor then need not record reads of a read_only one); nullptr: unknown.
  const uint8_t* imageExclusive = nullptr;
  const images::Sampler* samplers = nullptr;
  uint32_t samplerCount = 0;
  Pipe* const* pipes = nullptr;  // the pipe arguments (kPipeHandleTag)
  uint32_t pipeCount = 0;
  // Device-side enqueue (device_enqueue.hpp): the launch's family and its enqueued commands, for a kernel that
  // enqueues or is enqueued (nullptr otherwise); a child's allocations inherited from its parent, at tags from
  // inheritedBase on.
  EnqueueLaunch* enqueue = nullptr;
  const InheritedAllocation* inherited = nullptr;
  uint32_t inheritedBase = 0, inheritedCount = 0;
  // Per pipe, the linear id of the work-group that operated on it last in this launch (UINT64_MAX: none yet); a kernel
  // with pipes runs on one thread. Another group's operation after it is placed by the choice pipe_work_group_order.
  uint64_t* pipeLastGroup = nullptr;
};

// Yielded: stopped at a loop back-edge so the next work-item of its batch can run (see
// scheduler.cpp, interleaved execution); it continues from pc.
enum class WorkItemState : uint8_t { Running, AtBarrier, Returned, Faulted, Yielded };

// The named choices (numerics/choices.hpp) that decided a value while a work-group ran: per choice how many times,
// and the first time (message, instruction, work-item, source line). No choice decides silently: the executor sums
// the work-groups' tallies into ExecResult::choicesUsed.
struct ChoiceTally {
  std::array<uint64_t, size_t(numerics::Choice::Count)> count{};
  std::array<Diagnostic, size_t(numerics::Choice::Count)> first;  // valid where count > 0
};

struct CallFrame {
  const Op* returnTo;
  uint32_t resultReg;
  uint32_t resultSize;
  uint32_t resultShadow = 0;  // the result's undefined-value shadow (checks/undefined_values.cpp), 0: none
};

struct WorkItem {
  uint8_t* regs = nullptr;
  Allocation* allocs = nullptr;  // indexed by pointer tag
  uint32_t allocCount = 0;
  // The tags access()'s fast path takes: allocCount, or 0 in a checked launch, whose accesses all go to accessSlow
  // and its observers (interpreter/checks/check_run.hpp).
  uint32_t allocLimit = 0;
  // The tags the lane forms' fast paths take (lanes.hpp): allocCount, also in a checked launch, whose lanes log every
  // access of global and local memory for the race checker (scheduler.cpp runLanes).
  uint32_t laneAllocLimit = 0;
  uint32_t tagShift = 40;
  uint64_t offsetMask = (uint64_t(1) << 40) - 1;
  const Launch* launch = nullptr;
  // Work-item identity (OpenCL C 3.0 §6.15.1 [[work-item-functions]] work-item functions).
  std::array<uint64_t, 3> globalId{}, localId{}, groupId{}, localSize{};
  uint64_t localLinearId = 0;
  // Execution state.
  const Op* pc = nullptr;
  const Op* barrier = nullptr;  // the barrier Op it waits at
  WorkItemState state = WorkItemState::Running;
  int64_t budget = 0;
  // Time slicing: yield at a loop back-edge once the budget falls below this (scheduler.cpp: work-items that may wait
  // on each other make independent forward progress; the work-items of a batch without barriers take turns).
  int64_t yieldBelow = INT64_MIN;
  std::vector<CallFrame> frames;
  // Faults and warnings reported by handlers.
  std::string* printfOut = nullptr;  // the work-group's printf output
  Diagnostic* fault = nullptr;
  std::vector<Diagnostic>* warnings = nullptr;
  uint64_t* warningCount = nullptr;
  // Ops that already warned in this work-group (warnOnce); owned by the executor, cleared per work-group.
  std::vector<const Op*>* warnedOps = nullptr;
  // Per image handle: 1 when this work-item wrote the image since its last image memory fence (OpenCL C 3.0
  // §6.15.15 [[image-read-and-write-functions]] read_write images); imageCount bytes, owned by the executor.
  uint8_t* imagesWritten = nullptr;
  ChoiceTally* choiceTally = nullptr;  // the work-group's, owned by the executor
  ShadowRun* shadow = nullptr;         // allowed-set propagation (interpreter/shadow.hpp), when the launch has it
  CheckRun* checks = nullptr;          // the launch's optional checkers (interpreter/checks/), when it has them
  ExecutionObserver* observer = nullptr;  // the launch's observer (interpreter/observer.hpp), when it has one
  // Named barriers (ops_named_barrier.cpp): the work-group's, owned by the executor; how many this work-item has
  // initialised (its n-th OpNamedBarrierInitialize names the group's n-th barrier).
  std::vector<NamedBarrierState>* namedBarriers = nullptr;
  uint32_t namedBarrierInits = 0;
};

// Register access. memcpy keeps it free of aliasing and alignment assumptions; compilers turn
// it into a single move.
template <class T> inline T rd(const WorkItem& wi, uint32_t off) {
  T v;
  std::memcpy(&v, wi.regs + off, sizeof(T));
  return v;
}
template <class T> inline void wr(WorkItem& wi, uint32_t off, T v) { std::memcpy(wi.regs + off, &v, sizeof(T)); }

// The launch's named choices (numerics/choices.hpp), for handlers that meet unspecified values.
const numerics::Choices& choicesOf(const WorkItem& wi);

// The value of a work-item BuiltIn (OpenCL SPIR-V Environment §2.9 [[_built_in_variables]], OpenCL C 3.0
// §6.15.1 [[work-item-functions]]), written to `out` with size_t of `sizeBytes` bytes (4 or 8). Returns the bytes
// written.
uint32_t builtinValue(const WorkItem& wi, spv::BuiltIn b, uint8_t* out, uint32_t sizeBytes);

// Stop the work-item with a fault (cold path). Returns nullptr so handlers can `return fault(...)`.
const Op* fault(WorkItem& wi, const Op* op, FaultKind kind, const std::string& message);
// A diagnostic (kind Warning) naming `op`'s instruction, its source line and the work-item.
Diagnostic diagnosticAt(const WorkItem& wi, const Op* op, const std::string& message);
// Record a warning (unspecified value) and continue.
void warn(WorkItem& wi, const Op* op, const std::string& message);
// A warning recorded once per Op and work-group (later occurrences only count): an undefined condition an image
// kernel meets at every work-item would otherwise fill the warning list with one instruction. Work-groups keep
// their own record so that the warnings do not depend on the thread count.
void warnOnce(WorkItem& wi, const Op* op, const std::string& message);

// A named choice decided a value at `op` (`what` says how, e.g. "mul24 operand beyond 24 bits"): counted, and the
// first occurrence of the work-group kept with its instruction and work-item.
void noteChoiceFirst(WorkItem& wi, const Op* op, numerics::Choice c, const std::string& what);
// The shadow mode's side of a decision (shadow.cpp): where the spec leaves the value free, the result is any value.
void shadowNoteChoice(WorkItem& wi, const Op* op, numerics::Choice c);
inline void noteChoice(WorkItem& wi, const Op* op, numerics::Choice c, const char* what) {
  if (wi.shadow) [[unlikely]]
    shadowNoteChoice(wi, op, c);
  if (!wi.choiceTally) return;
  if (wi.choiceTally->count[size_t(c)]++ == 0) noteChoiceFirst(wi, op, c, what);
}
// warn() for a condition a named choice decides: the warning and noteChoice together.
void warnChoice(WorkItem& wi, const Op* op, numerics::Choice c, const std::string& message);

// Decode a tagged pointer and check an access of `bytes` bytes with alignment `align`
// (a power of two). Returns the host address or nullptr after raising the fault. In a checked launch every access
// comes here, and the observers see the ones that succeed (interpreter/checks/memory_access.cpp).
uint8_t* accessSlow(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align, bool write);

inline uint8_t* access(WorkItem& wi, const Op* op, uint64_t ptr, uint64_t bytes, uint32_t align, bool write) {
  const uint64_t tag = ptr >> wi.tagShift;
  const uint64_t off = ptr & wi.offsetMask;
  if (tag != 0 && tag < wi.allocLimit) [[likely]] {
    const Allocation& A = wi.allocs[tag];
    if (off + bytes <= A.size && (off & (align - 1)) == 0 && !(write && A.readOnly)) [[likely]]
      return A.base + off;
  }
  return accessSlow(wi, op, ptr, bytes, align, write);
}

}  // namespace clref::interpreter
