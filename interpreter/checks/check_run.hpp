// The optional checkers of one launch (ExecConfig::checks, interpreter/checks/): observers of a kernel's memory
// accesses, barriers and work-groups that report findings instead of stopping the kernel.
//
// How they observe without costing a plain run anything: a checked launch gives every work-item an allocation
// limit of 0 (WorkItem::allocLimit), so access()'s fast path never succeeds and every memory access takes
// accessSlow (memory_access.cpp), which checks the access as the fast path would, then tells the observers. Without an
// observer, work-items also run on the lane executor (lanes.hpp), whose lanes keep every access in their log and tell
// the race checker through laneAccess* once their span stands (scheduler.cpp feedLaneAccesses); the uninitialised-value
// checker's shadow Ops run there in lane forms of their own (uninitialized.cpp). The scheduler calls
// groupStart, barrier and groupEnd. A checked launch runs on one thread, its work-groups in order,
// so findings and their first occurrences do not depend on the machine. Internal to the interpreter.
#pragma once
#include <array>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "interpreter/executor.hpp"

namespace clref::interpreter {

class RaceChecker;
class ExecutionObserver;

// The work-items of a round on lanes, as the checkers told its accesses see them (scheduler.cpp): their local linear
// ids without more, and a work-item itself (its ids written) only for a finding's diagnostics.
class LaneItems {
 public:
  virtual uint64_t id(uint32_t lane) = 0;
  // The id of lane `first` where lanes [first, first + count) hold consecutive ids; UINT64_MAX where they do not.
  virtual uint64_t consecutiveFrom(uint32_t first, uint32_t count) = 0;
  virtual WorkItem& item(uint32_t lane) = 0;

 protected:
  ~LaneItems() = default;
};

class CheckRun {
 public:
  CheckRun(CheckSet set, const LoweredKernel& kernel, const NDRangeSpec& range, ExecutionObserver* observer);
  ~CheckRun();
  const CheckSet set;
  const LoweredKernel& kernel;
  const NDRangeSpec& range;

  // The group's work-items in local linear id order (those whose slots exist: without barriers, a batch of them).
  void groupStart(uint64_t groupLinear, WorkItem* const* items, uint64_t count);
  // Every work-item of the group passed `at` (a barrier or a work-group collective).
  void barrier(const Op* at);
  // While a collective acts for the whole group (an async copy), its accesses are the group's, not a work-item's.
  bool inCollective = false;
  // A checked access: allocation `tag`, bytes [off, off + bytes), allowed by the bounds check.
  // Inline: in an unoptimised kernel under the uninitialised-value checker, every private variable's load and store
  // comes here.
  void access(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write) {
    if (tracksUndefined_) record(wi, op, tag, off, bytes, write);
    if (races_ || observer_) [[unlikely]]
      observe(wi, op, tag, off, bytes, write);
  }

  // Accesses work-items made on the lane executor (lanes.hpp), told when their span stood (scheduler.cpp runLanes):
  // the race checker's. Each the same as access() in turn (RaceChecker::laneAccess, accessDense, readShared); the
  // uninitialised-value checker's shadow of memory moved on lanes already (uninitialized.cpp).
  void laneAccess(LaneItems& lanes, uint32_t lane, const Op* op, uint32_t tag, uint64_t size, uint64_t off,
                  uint32_t bytes, bool write);
  void laneAccessDense(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag, uint64_t size,
                       uint64_t off, uint32_t bytes, bool write);
  void laneReadShared(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag, uint64_t size,
                      uint64_t off, uint32_t bytes);
  // Whether work-items may run on lanes: laneAccess is all the race checker needs of them, and the uninitialised-value
  // checker's shadow Ops have lane forms of their own (uninitialized.cpp); an observer sees each work-item's steps.
  bool lanesAllowed() const { return !observer_; }
  // Whether laneAccess* tells anyone anything (the race checker runs).
  bool takesLaneAccesses() const { return races_ != nullptr; }

  // Records a finding at instruction `inst` (and `otherInst` + 1 for a race's other access, 0 without): the first
  // occurrence of each (kind, instruction, other instruction) keeps its diagnostics, the others count.
  void report(FaultKind kind, uint32_t inst, Diagnostic at, const Diagnostic* other = nullptr, uint32_t otherInst = 0);
  std::vector<Finding> findings() const;

  // A diagnostic for a work-item that is not running now: the work-item of local linear id `localLinear` in group
  // `groupLinear`, at instruction `inst`.
  Diagnostic diagnosticOf(uint64_t groupLinear, uint64_t localLinear, uint32_t inst, FaultKind kind,
                          const std::string& message) const;
  uint64_t currentGroup() const { return group_; }

  // The uninitialised-value checker's record of the accesses of the instruction running now (uninitialized.cpp):
  // the shadow Op after it moves the shadow of these bytes.
  struct AccessRecord {
    uint32_t tag;
    uint64_t off, bytes;
    bool write;
  };
  static constexpr size_t kMaxRecent = 64;  // more accesses in one instruction: the rest are not followed
  std::array<AccessRecord, kMaxRecent> recent;
  size_t recentCount = 0;
  uint32_t recentInst = UINT32_MAX;

 private:
  std::unique_ptr<RaceChecker> races_;
  ExecutionObserver* observer_ = nullptr;
  const bool tracksUndefined_;
  void observe(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write);
  // The uninitialised-value checker's record of an access (uninitialized.cpp recordWrite for a write no shadow Op
  // follows).
  void record(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write) {
    if (recentInst != op->inst) {
      recentCount = 0;
      recentInst = op->inst;
    }
    if (write && !(op->inst < shadowsMemory_.size() && shadowsMemory_[op->inst])) recordWrite(wi, op, tag, off, bytes);
    if (recentCount < recent.size()) recent[recentCount++] = {tag, off, bytes, write};
  }
  const std::vector<uint8_t>& shadowsMemory_;  // LoweredKernel::shadowsMemory
  static void recordWrite(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes);
  uint64_t group_ = 0;
  std::map<std::tuple<uint8_t, uint32_t, uint32_t>, Finding> findings_;
  std::vector<std::tuple<uint8_t, uint32_t, uint32_t>> order_;  // findings in the order they were first seen
};

// The name of an allocation for findings: "global buffer 'out' (argument 1)", "local variable 'tile'", …
std::string allocationName(const LoweredKernel& kernel, uint32_t tag);

}  // namespace clref::interpreter
