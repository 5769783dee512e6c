// The OpenCL C front end: OpenCL C → LLVM bitcode (clang-15) → SPIR-V (llvm-spirv-15), with the repairs that chain
// needs (opencl_c_prelude.hpp, freeze_removal.hpp, debug_expressions.hpp) and the uninitialised-value checker's
// builds (variable_promotion.hpp). It knows no device object: the host API (host/host.hpp) says what to compile for
// (Target) and makes a Program of the words.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace clref::compiler {

// The compiler could not run, or the program does not compile: the message holds the compiler's own messages.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// OpenCL C for the compiler: the source, clang options one argument each (never split or re-quoted: "-DX=a b" stays
// one argument), and headers an #include finds by name (clCompileProgram's input headers).
struct OpenCLCSource {
  std::string text;
  std::vector<std::string> options;
  std::vector<std::pair<std::string, std::string>> headers;  // include name, text
  // What diagnostics call the source: the file it came from, or "" for "program source" (a program from a string).
  std::string name;
};

// A source file a module's OpLine instructions cite by a name diagnostics should not show (the temporary copy the
// compiler read): its name for people ("" for a program built from a string) and its text (interpreter::Module::
// nameSourceFile).
struct SourceName {
  std::string fileInModule, displayName, text;
};

// What the program is compiled for: the device's address width and the OpenCL C extensions and optional features it
// executes (OpenCL C 3.0 §6.2.1 [[features]]: the compiler defines these macros and no others).
struct Target {
  unsigned addressBits = 64;  // 32: spir, 64: spir64
  std::vector<std::string> extensions, features;
  // The uninitialised-value checker's build: unoptimised, the variables moved into SSA values afterwards
  // (variable_promotion.hpp), unless the options ask for the program unoptimised.
  bool forUninitializedChecker = false;
};

// A compiled program: its SPIR-V words and the names of the source files its debug lines cite.
struct Compiled {
  std::vector<uint32_t> words;
  std::vector<SourceName> sourceNames;
};

// Whether the compiler runs, as the environment is now: clang and llvm-spirv are CLREF_CLANG / CLREF_LLVM_SPIRV when
// set, else the ones the build found, else clang-15 and llvm-spirv-15 on PATH.
bool openCLCCompilerAvailable();

// Compiles `source` for `target`; throws Error with the compiler's messages.
Compiled compileOpenCLC(const Target& target, const OpenCLCSource& source);

// OpenCL C to LLVM IR text at -O0 with -cl-kernel-arg-info, compiled as compileOpenCLC compiles it for this target:
// clang's kernel_arg_* and attribute metadata, which SPIR-V does not keep (signedness, typedef names, type
// qualifiers). None when compilation fails.
std::optional<std::string> openCLCToLLVMText(const Target& target, const OpenCLCSource& source);

}  // namespace clref::compiler
