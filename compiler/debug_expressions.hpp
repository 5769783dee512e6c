// Making -g builds translatable: llvm-spirv-15 writes debug information as OpenCL.DebugInfo.100, whose
// DebugOperation lists ten DWARF operations, and stops ("LLVM ERROR: unsupported opcode found in DIExpression") on a
// location that uses any other. LLVM's optimiser creates such locations when it folds a variable into an
// expression of another value (x / 2 becomes DW_OP_div, a narrowing DW_OP_LLVM_convert), so an optimised -g build
// of ordinary kernels fails without this step.
#pragma once
#include <cstddef>
#include <string>

namespace clref::compiler {

// LLVM IR text with every llvm.dbg.value whose expression uses an operation OpenCL.DebugInfo.100 does not list
// turned into "unavailable here" (an undef value with an empty expression: a debugger shows the variable as
// optimised out at that point rather than a wrong value), and every llvm.dbg.declare / llvm.dbg.addr with such an
// expression removed. Everything else is unchanged. `rewritten`, when given, receives the number of locations
// changed.
std::string withTranslatableDebugLocations(const std::string& llvmText, size_t* rewritten = nullptr);

}  // namespace clref::compiler
