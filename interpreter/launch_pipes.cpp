// A launch's pipes (launch_state.hpp): the pipe table its handles index, and the reservations a kernel left
// uncommitted, ended with the launch.
#include "interpreter/launch_state.hpp"

#include <stdexcept>

namespace clref::interpreter {

namespace {

// A diagnostic of `kind` at the work-item and instruction that made a pipe reservation.
Diagnostic reservationDiagnostic(const LoweredKernel& k, const Pipe::Origin& o, FaultKind kind, std::string message) {
  Diagnostic d;
  d.kind = kind;
  d.message = std::move(message);
  d.globalId = o.globalId;
  d.localId = o.localId;
  d.groupId = o.groupId;
  if (k.module && o.inst < k.module->instructions.size()) {
    d.instruction = k.module->describe(o.inst);
    d.source = k.module->sourceOf(o.inst);
    d.sourceLine = k.module->sourceText(o.inst);
  }
  return d;
}

}  // namespace

void bindPipes(LaunchState& s) {
  for (uint32_t i : s.kernel.pipeParams) {
    if (!s.args[i].pipe)
      throw std::invalid_argument(argName(s.kernel, i) + " is a pipe parameter (" + s.kernel.params[i].typeName +
                                  ") but no pipe was given");
    s.pipes.push_back(s.args[i].pipe);
  }
}

// OpenCL C 3.0 §6.15.18.5 [[restrictions-4]]: a kernel that fails to commit a reservation is undefined (choice
// pipe_uncommitted_reservation). The reservations end with the launch under either option, so that the pipe stays
// usable: a write reservation's room is given back and its packets never join the pipe, a read reservation's packets
// are gone. The choice decides whether the launch ends with a warning, or with a fault unless it faulted already.
void endReservations(const LaunchState& s, ExecResult& result) {
  size_t count = 0;
  Pipe::Origin first;
  std::string pipe;
  for (size_t i = 0; i < s.pipes.size(); ++i) {
    const Pipe::Dropped d = s.pipes[i]->dropReservations();
    if (d.count && !count) {
      first = d.first;
      pipe = argName(s.kernel, s.kernel.pipeParams[i]);
    }
    count += d.count;
  }
  if (!count) return;
  const bool fault = !result.fault && s.kernel.choices.get<numerics::Choice::PipeUncommittedReservation>() ==
                                          numerics::PipeUncommittedReservationOption::Fault;
  const std::string text = std::to_string(count) + " pipe reservation" + (count == 1 ? " was" : "s were") +
                           " not committed when the kernel ended, which is undefined (the first was made here, on " +
                           pipe + ")";
  if (!result.fault)
    result.choicesUsed.push_back({numerics::Choice::PipeUncommittedReservation, count,
                                  reservationDiagnostic(s.kernel, first, FaultKind::Warning,
                                                        "a pipe reservation not committed when the kernel ended")});
  if (fault) {
    result.fault = reservationDiagnostic(s.kernel, first, FaultKind::UndefinedBehaviour,
                                         text + " (choice pipe_uncommitted_reservation=fault)");
    return;
  }
  ++result.warningCount;
  if (result.warnings.size() < s.config.maxWarnings)
    result.warnings.push_back(reservationDiagnostic(
        s.kernel, first, FaultKind::Warning,
        text + ": dropped, written packets do not join the pipe and reserved room is given back" +
            (result.fault ? " (after the launch's fault)" : " (choice pipe_uncommitted_reservation=drop)")));
}

}  // namespace clref::interpreter
