// Diagnostics of a run: fault kinds, the text of a Diagnostic, and how a work-item reports a
// fault or a warning (with the instruction and its source location).
#include <algorithm>
#include <string>

#include "interpreter/observer.hpp"
#include "interpreter/executor.hpp"

namespace clref::interpreter {

const char* toString(FaultKind k) {
  switch (k) {
    case FaultKind::OutOfBounds: return "out-of-bounds access";
    case FaultKind::NullPointer: return "null pointer access";
    case FaultKind::Misaligned: return "misaligned access";
    case FaultKind::UndefinedValue: return "use of an undefined value";
    case FaultKind::BarrierDivergence: return "barrier divergence";
    case FaultKind::InstructionBudget: return "instruction budget exceeded";
    case FaultKind::Unreachable: return "unreachable executed";
    case FaultKind::InvalidPointer: return "invalid pointer";
    case FaultKind::Unsupported: return "unsupported";
    case FaultKind::UndefinedBehaviour: return "undefined behaviour";
    case FaultKind::Warning: return "warning";
    case FaultKind::ExecutionFailed: return "execution failed";
    case FaultKind::DataRace: return "data race";
    case FaultKind::UninitialisedValue: return "use of an uninitialised value";
  }
  return "fault";
}

namespace {
std::string ids(const std::array<uint64_t, 3>& a) {
  return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + ")";
}
// The work-item, instruction and source lines of a diagnostic, each line indented by `indent`.
std::string whereOf(const Diagnostic& d, const std::string& indent) {
  std::string s = "\n" + indent + "work-item: global " + ids(d.globalId) + " local " + ids(d.localId) + " group " +
                  ids(d.groupId);
  if (!d.instruction.empty()) s += "\n" + indent + "instruction: " + d.instruction;
  if (!d.source.empty() && d.instruction.find(d.source) == std::string::npos) s += "\n" + indent + "source: " + d.source;
  if (!d.sourceLine.empty()) s += "\n" + indent + "| " + d.sourceLine;
  // Without line information a developer needs to know how to get it.
  if (d.source.empty() && !d.instruction.empty())
    s += "\n" + indent + "source: no line information (build the program with -g for source lines)";
  return s;
}
}  // namespace

std::string Diagnostic::format() const {
  std::string s = std::string(isWarning() ? "warning: " : "fault: ") +
                  (isWarning() ? "" : std::string(toString(kind)) + ": ") + message;
  return s + whereOf(*this, "  ");
}

std::string Finding::format() const {
  std::string s = std::string(toString(at.kind)) + ": " + at.message;
  if (count > 1) s += " (" + std::to_string(count) + " times" + (hasOther ? " between these instructions" : " here") + ")";
  s += whereOf(at, "  ");
  if (hasOther) s += "\n  the other access:" + whereOf(other, "    ");
  return s;
}

std::string formatChoiceUses(const std::vector<ChoiceUse>& uses, const numerics::Choices& inForce) {
  std::string s;
  for (const ChoiceUse& u : uses) {
    const numerics::ChoiceInfo& info = numerics::infoOf(u.choice);
    const uint8_t option = inForce.get(u.choice);
    s += "choice " + std::string(info.name) + "=" + std::string(info.options[option]) +
         (option == info.defaultOption ? " (default)" : "");
    if (u.count)
      s += " decided " + std::to_string(u.count) + (u.count == 1 ? " value" : " values") + "; the first: ";
    else
      s += " may decide values: ";
    s += u.first.message;
    const Diagnostic& d = u.first;
    if (!d.instruction.empty()) {
      if (u.count) s += "\n  work-item: global " + ids(d.globalId) + " local " + ids(d.localId) + " group " + ids(d.groupId);
      s += "\n  instruction: " + d.instruction;
      if (!d.source.empty() && d.instruction.find(d.source) == std::string::npos) s += "\n  source: " + d.source;
      if (!d.sourceLine.empty()) s += "\n  | " + d.sourceLine;
    }
    s += "\n";
  }
  return s;
}

namespace {
Diagnostic makeDiagnostic(const WorkItem& wi, const Op* op, FaultKind kind, const std::string& message) {
  Diagnostic d;
  d.kind = kind;
  d.message = message;
  d.globalId = wi.globalId;
  d.localId = wi.localId;
  d.groupId = wi.groupId;
  if (op && wi.launch && wi.launch->module) {
    const Module& m = *wi.launch->module;
    if (op->inst < m.instructions.size()) {
      d.instruction = m.describe(op->inst);
      d.source = m.sourceOf(op->inst);
      d.sourceLine = m.sourceText(op->inst);
    }
  }
  return d;
}
}  // namespace

const Op* fault(WorkItem& wi, const Op* op, FaultKind kind, const std::string& message) {
  Diagnostic d = makeDiagnostic(wi, op, kind, message);
  if (wi.observer) [[unlikely]]  // `clref debug` stops at the faulting work-item while its state is live
    wi.observer->fault(wi, op ? op->inst : ~uint32_t(0), d);
  if (wi.fault) *wi.fault = std::move(d);
  wi.state = WorkItemState::Faulted;
  return nullptr;
}

void warn(WorkItem& wi, const Op* op, const std::string& message) {
  if (!wi.warnings) return;
  ++*wi.warningCount;
  if (wi.warnings->size() < 20) wi.warnings->push_back(makeDiagnostic(wi, op, FaultKind::Warning, message));
}

}  // namespace clref::interpreter

namespace clref::interpreter {

Diagnostic diagnosticAt(const WorkItem& wi, const Op* op, const std::string& message) {
  return makeDiagnostic(wi, op, FaultKind::Warning, message);
}

void noteChoiceFirst(WorkItem& wi, const Op* op, numerics::Choice c, const std::string& what) {
  wi.choiceTally->first[size_t(c)] = makeDiagnostic(wi, op, FaultKind::Warning, what);
}

void warnChoice(WorkItem& wi, const Op* op, numerics::Choice c, const std::string& message) {
  noteChoice(wi, op, c, message.c_str());
  warn(wi, op, message);
}

void warnOnce(WorkItem& wi, const Op* op, const std::string& message) {
  if (wi.warnedOps) {
    if (std::find(wi.warnedOps->begin(), wi.warnedOps->end(), op) != wi.warnedOps->end()) {
      if (wi.warningCount) ++*wi.warningCount;
      return;
    }
    wi.warnedOps->push_back(op);
  }
  warn(wi, op, message);
}

}  // namespace clref::interpreter
