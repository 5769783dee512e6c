// The optional checkers of one launch (check_run.hpp).
#include "interpreter/checks/check_run.hpp"

#include "interpreter/observer.hpp"
#include "interpreter/checks/races.hpp"
#include "interpreter/checks/uninitialized.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"

namespace clref::interpreter {

CheckRun::CheckRun(CheckSet s, const LoweredKernel& k, const NDRangeSpec& r, ExecutionObserver* observer)
    : set(s),
      kernel(k),
      range(r),
      observer_(observer),
      tracksUndefined_(s.has(Check::Uninitialized)),
      shadowsMemory_(k.shadowsMemory) {
  if (set.has(Check::Races)) races_ = std::make_unique<RaceChecker>(*this);
}
CheckRun::~CheckRun() = default;

void CheckRun::groupStart(uint64_t groupLinear, WorkItem* const* items, uint64_t count) {
  group_ = groupLinear;
  if (races_) races_->groupStart();
  if (observer_) observer_->groupStart(groupLinear, items, count);
}

void CheckRun::barrier(const Op* at) {
  if (races_) races_->barrier(at);
  if (observer_) observer_->barrier(at->inst);
}

void CheckRun::observe(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write) {
  if (races_) races_->access(wi, op, tag, off, bytes, write);
  if (observer_) observer_->access(wi, op->inst, tag, off, bytes, write);
}

void CheckRun::laneAccess(LaneItems& lanes, uint32_t lane, const Op* op, uint32_t tag, uint64_t size, uint64_t off,
                          uint32_t bytes, bool write) {
  if (races_) races_->laneAccess(lanes, lane, op, tag, size, off, bytes, write);
}

void CheckRun::laneAccessDense(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag,
                               uint64_t size, uint64_t off, uint32_t bytes, bool write) {
  if (races_) races_->accessDense(lanes, first, count, op, tag, size, off, bytes, write);
}

void CheckRun::laneReadShared(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag,
                              uint64_t size, uint64_t off, uint32_t bytes) {
  if (races_) races_->readShared(lanes, first, count, op, tag, size, off, bytes);
}

void CheckRun::recordWrite(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes) {
  uninitialized::recordWrite(wi, op, wi.allocs[tag], tag, off, bytes);
}

void CheckRun::report(FaultKind kind, uint32_t inst, Diagnostic at, const Diagnostic* other, uint32_t otherInst) {
  const auto key = std::make_tuple(uint8_t(kind), inst, otherInst);
  auto it = findings_.find(key);
  if (it != findings_.end()) {
    ++it->second.count;
    return;
  }
  Finding f;
  f.at = std::move(at);
  f.at.kind = kind;
  if (other) {
    f.hasOther = true;
    f.other = *other;
  }
  findings_.emplace(key, std::move(f));
  order_.push_back(key);
}

std::vector<Finding> CheckRun::findings() const {
  std::vector<Finding> out;
  out.reserve(order_.size());
  for (const auto& k : order_) out.push_back(findings_.at(k));
  return out;
}

Diagnostic CheckRun::diagnosticOf(uint64_t groupLinear, uint64_t localLinear, uint32_t inst, FaultKind kind,
                                  const std::string& message) const {
  Diagnostic d;
  d.kind = kind;
  d.message = message;
  std::array<uint64_t, 3> numGroups{}, localSize{};
  for (int i = 0; i < 3; ++i) numGroups[i] = (range.global[i] + range.local[i] - 1) / range.local[i];
  d.groupId = {groupLinear % numGroups[0], (groupLinear / numGroups[0]) % numGroups[1],
               groupLinear / (numGroups[0] * numGroups[1])};
  for (int i = 0; i < 3; ++i) localSize[i] = std::min(range.local[i], range.global[i] - d.groupId[i] * range.local[i]);
  d.localId = {localLinear % localSize[0], (localLinear / localSize[0]) % localSize[1],
               localLinear / (localSize[0] * localSize[1])};
  for (int i = 0; i < 3; ++i) d.globalId[i] = range.offset[i] + d.groupId[i] * range.local[i] + d.localId[i];
  if (kernel.module && inst < kernel.module->instructions.size()) {
    d.instruction = kernel.module->describe(inst);
    d.source = kernel.module->sourceOf(inst);
    d.sourceLine = kernel.module->sourceText(inst);
  }
  return d;
}

std::string allocationName(const LoweredKernel& kernel, uint32_t tag) {
  const AllocationDesc& d = kernel.allocations.at(tag);
  switch (d.source) {
    // The names of arguments say which argument they are: "argument 1 (out)", "local argument 2 (tmp)".
    case AllocationSource::KernelArg:
      return std::string(d.storage == spv::StorageClass::UniformConstant ? "constant" : "global") + " buffer of " +
             d.name;
    case AllocationSource::LocalArg: return "local buffer of " + d.name;
    case AllocationSource::ByValArg: return d.name;
    case AllocationSource::Global: return "program-scope variable '" + d.name + "'";
    case AllocationSource::Workgroup: return "local variable '" + d.name + "'";
    case AllocationSource::Private: return d.name;  // "x (private variable in f)"
    case AllocationSource::Builtin: return "built-in variable '" + d.name + "'";
    case AllocationSource::Null: break;
  }
  return d.name;
}

}  // namespace clref::interpreter
