// `clref debug CASE.json`: an interactive debugger over the work-items of one kernel run. It is an
// interpreter::ExecutionObserver of a launch that runs on one thread (host::Kernel::runObserved): the interpreter calls
// it before every instruction, and when it decides to stop (a breakpoint, a step, a watchpoint, a fault) it reads and
// runs commands inside that call, with the stopped work-item's registers, frames and memory live. No threads, no
// copies of the state. The commands are in debug_commands.hpp; reading variables and memory in debug_values.hpp.
#pragma once
#include <iosfwd>

#include "host/host.hpp"
#include "cli/case_file.hpp"

namespace clref::cli {

// Runs case `c` under the debugger: commands are read from `commands` (one per line, `#` starts a comment), every
// answer goes to `out`; `echo` repeats each command after the prompt (for scripted sessions, whose transcript then
// reads like an interactive one). The case's outputs are never written. Returns the exit status: 0 when the kernel
// finished or the session quit, 1 when the kernel faulted. Throws what prepareCase and host::Kernel::runObserved
// throw for a case that cannot run (CaseError, interpreter::ModuleError, host::Error).
int debugCase(const Case& c, const host::Device& device, std::istream& commands, std::ostream& out, bool echo);

}  // namespace clref::cli
