// Errors and diagnostics raised while loading and running SPIR-V.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace clref::interpreter {

// A module that cannot be accepted: fails validation, uses something clref does not
// support, or breaks an OpenCL rule (recursion).
class ModuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FaultKind : uint8_t {
  OutOfBounds,
  NullPointer,
  Misaligned,
  UndefinedValue,
  BarrierDivergence,
  InstructionBudget,
  Unreachable,
  InvalidPointer,
  Unsupported,
  UndefinedBehaviour,
  Warning,
  // The interpreter could not execute a work-group (e.g. host memory for its work-items
  // exhausted); the launch ends with this fault instead of ending the process.
  ExecutionFailed
};
const char* toString(FaultKind);

// One fault or warning met during execution, with everything needed to find it.
struct Diagnostic {
  FaultKind kind = FaultKind::Warning;
  std::string message;      // what went wrong, including allocation and offset when relevant
  std::string instruction;  // disassembled instruction with its word offset
  std::string source;       // file:line when known
  std::string sourceLine;   // that line's text when the program's source is known
  std::array<uint64_t, 3> globalId{};
  std::array<uint64_t, 3> localId{};
  std::array<uint64_t, 3> groupId{};
  bool isWarning() const { return kind == FaultKind::Warning; }
  std::string format() const;
};

}  // namespace clref::interpreter
