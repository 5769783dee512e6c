// What an observer reads of a launch (observer.hpp): ObservedKernel, ObservedWorkItem, and the stop `clref debug`
// asks for.
#include "interpreter/observer.hpp"

#include <algorithm>

#include "interpreter/program.hpp"

namespace clref::interpreter {

const Module& ObservedKernel::module() const { return *kernel_->module; }

uint32_t ObservedKernel::tagShift() const { return kernel_->tagShift; }

size_t ObservedKernel::allocationCount() const { return kernel_->allocations.size(); }

ObservedKernel::Allocation ObservedKernel::allocation(uint32_t tag) const {
  const AllocationDesc& d = kernel_->allocations.at(tag);
  return {d.name, d.storage, d.variable};
}

size_t ObservedKernel::parameterCount() const { return kernel_->params.size(); }

ObservedKernel::Parameter ObservedKernel::parameter(size_t index) const {
  const KernelParam& p = kernel_->params.at(index);
  return {p.name, p.typeName, p.kind == ParamKind::Buffer || p.kind == ParamKind::Local || p.byVal, p.tag};
}

std::vector<uint32_t> ObservedKernel::valueIds() const {
  std::vector<uint32_t> ids;
  ids.reserve(kernel_->registerOf.size());
  for (const auto& entry : kernel_->registerOf) ids.push_back(entry.first);
  return ids;
}

bool ObservedKernel::isParameterValue(uint32_t id) const {
  const auto reg = kernel_->registerOf.find(id);
  return reg != kernel_->registerOf.end() &&
         std::any_of(kernel_->params.begin(), kernel_->params.end(),
                     [&](const KernelParam& p) { return p.reg == reg->second; });
}

ObservedKernel ObservedWorkItem::kernel() const { return ObservedKernel(*wi_->launch->kernel); }

const std::array<uint64_t, 3>& ObservedWorkItem::globalId() const { return wi_->globalId; }
const std::array<uint64_t, 3>& ObservedWorkItem::localId() const { return wi_->localId; }
const std::array<uint64_t, 3>& ObservedWorkItem::groupId() const { return wi_->groupId; }

uint32_t ObservedWorkItem::dims() const { return wi_->launch->dims; }
const std::array<uint64_t, 3>& ObservedWorkItem::globalOffset() const { return wi_->launch->globalOffset; }
const std::array<uint64_t, 3>& ObservedWorkItem::enqueuedLocalSize() const { return wi_->launch->enqueuedLocal; }
const std::array<uint64_t, 3>& ObservedWorkItem::numGroups() const { return wi_->launch->numGroups; }

bool ObservedWorkItem::returned() const { return wi_->state == WorkItemState::Returned; }

std::optional<uint32_t> ObservedWorkItem::resumesAt() const {
  if (!wi_->pc || wi_->state == WorkItemState::Returned) return std::nullopt;
  return wi_->pc->inst;
}

size_t ObservedWorkItem::callDepth() const { return wi_->frames.size(); }

// A frame returns to the Op after its call (ops_control.cpp functionCall).
uint32_t ObservedWorkItem::callSite(size_t depth) const { return (wi_->frames.at(depth).returnTo - 1)->inst; }

const uint8_t* ObservedWorkItem::value(uint32_t id) const {
  const auto& registers = wi_->launch->kernel->registerOf;
  const auto reg = registers.find(id);
  return reg == registers.end() ? nullptr : wi_->regs + reg->second;
}

std::optional<ObservedWorkItem::Memory> ObservedWorkItem::memory(uint32_t tag) const {
  if (tag == 0 || tag >= wi_->allocCount) return std::nullopt;
  const Allocation& a = wi_->allocs[tag];
  return Memory{a.base, a.size, a.storage};
}

void stopLaunch(WorkItem& wi, uint32_t inst, const std::string& message) {
  const auto& ops = wi.launch->kernel->ops;
  const auto op = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return o.inst == inst; });
  if (op != ops.end()) fault(wi, &*op, FaultKind::ExecutionFailed, message);
}

}  // namespace clref::interpreter
