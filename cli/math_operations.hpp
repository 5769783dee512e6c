// `clref math` beyond the OpenCL.std functions: the core arithmetic instructions, conversions and the geometric
// functions, evaluated exactly and judged like the functions (math_command.hpp).
//   clref math add|sub|mul|div|recip|frem|fmod_spirv X [Y] --type T [--rounding R] [--check V]
//       (OpFAdd, OpFSub, OpFMul, OpFDiv, 1.0 / x, OpFRem, OpFMod)
//   clref math convert X --type FROM --to TO [--rounding R] [--sat] [--check V]
//       (FROM, TO: char uchar short ushort int uint long ulong half float double)
//   clref math dot|cross|distance|length|normalize|fast_distance|fast_length|fast_normalize A [B] --type T [--check V]
//       (vectors as comma lists: 1,2,3; cross and normalize give and check vectors)
#pragma once
#include <optional>
#include <span>

#include "numerics/accuracy.hpp"
#include "numerics/verdict.hpp"
#include "cli/math_command.hpp"

namespace clref::cli {

// The profile and verdict options of `--profile`, `--options` (the other device's build options: relaxed math,
// -cl-denorms-are-zero, ...) and `--ftz`/`--no-ftz`.
struct Judging {
  numerics::Profile profile;
  numerics::VerdictOptions verdict;
  bool finiteMathOnly = false;  // -cl-finite-math-only (and -cl-fast-relaxed-math)
  bool noSignedZeros = false;   // -cl-no-signed-zeros (and -cl-fast-relaxed-math)
};
Judging judgingOf(const MathCommandOptions& o);
// The build options' freedoms beyond the tables (OpenCL 3.0 API §5.8.6.3 [[optimization-options]]): with
// -cl-finite-math-only a NaN or infinite operand or result allows any value; with -cl-no-signed-zeros a zero of
// either sign stands for the other. Updates v.allowed (and v.note, v.anyValue).
void applyOptimizationOptions(const Judging& j, std::span<const double> args, double reference, double observed,
                              numerics::Verdict& v);

// The operation's output and verdict, as mathCommand returns them; nullopt when `o.function` is none of these.
// Throws Rejected for bad operands.
std::optional<int> runOperation(const MathCommandOptions& o);
// The integer built-ins and relational functions (math_builtins.cpp), computed by running the built-in on the
// reference device; nullopt when `o.function` is none of them.
std::optional<int> runBuiltin(const MathCommandOptions& o);

}  // namespace clref::cli
