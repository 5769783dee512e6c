// Making optimised builds translatable: clang-15's optimiser emits LLVM's `freeze` instruction (e.g. when it pairs a
// signed division with the remainder of the same operands, `i / 16` and `i % 16`), which llvm-spirv-15 cannot
// translate ("Can't translate llvm instruction: freeze"), so ordinary kernels would not build without this step.
#pragma once
#include <cstddef>
#include <string>

namespace clref::compiler {

// LLVM IR text with every `%r = freeze T v` replaced by `%r = select i1 true, T v, T v`: the value of v, for every
// type T. freeze only differs from v when v is undef or poison, where it picks one arbitrary value; a program whose
// result depends on that has no defined result in OpenCL C, and clref's uninitialised-value checker looks at
// unoptimised builds, which have no freeze. `rewritten`, when given, receives the number of instructions changed.
std::string withoutFreeze(const std::string& llvmText, size_t* rewritten = nullptr);

}  // namespace clref::compiler
