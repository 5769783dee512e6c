// Private variables into SSA values, for the uninitialised-value checker's builds. The checker needs clang's -O0
// code (its optimiser deletes what reads an uninitialised variable), where every local variable lives in memory and
// every use is a load and a store: about twice the instructions of an optimised build, each of them followed. This
// step keeps the program as written but moves each scalar or vector variable whose address is never taken into
// SSA values (SPIRV-Tools' SSA rewriter), so a read before any write becomes an OpUndef merged by an OpPhi, which
// the checker follows like any other undefined value, and it names the variable through the DebugValue the
// rewriter writes. Nothing is folded: OpPhi(x, undef) stays an OpPhi.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clref::compiler {

// `spirv` with its function-scope variables promoted and the stores to variables nothing reads any more removed,
// or `spirv` unchanged when the rewriter refuses the module. `promoted`, when given, receives the number of
// variables removed.
std::vector<uint32_t> withPromotedVariables(const std::vector<uint32_t>& spirv, size_t* promoted = nullptr);

}  // namespace clref::compiler
