// Errors and diagnostics raised while loading and running SPIR-V.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/choices.hpp"

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
  ExecutionFailed,
  // Findings of the optional checkers (interpreter/checks/): not faults, but reported like them.
  DataRace,
  UninitialisedValue
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

// The optional checkers a launch can run (interpreter/checks/) besides the ones always on (out-of-bounds and
// misaligned accesses, barrier divergence, OpUndef reaching a branch or an address).
enum class Check : uint8_t { Races = 1, Uninitialized = 2 };
struct CheckSet {
  uint8_t bits = 0;
  bool has(Check c) const { return bits & uint8_t(c); }
  bool any() const { return bits != 0; }
  CheckSet& add(Check c) {
    bits |= uint8_t(c);
    return *this;
  }
  bool operator==(const CheckSet&) const = default;
};
// "races", "uninitialized" (or "uninitialised"), "all", "none", separated by commas or spaces; throws
// std::invalid_argument naming an unknown name and the known ones.
CheckSet parseChecks(const std::string& text);
std::string toString(CheckSet);
// The largest work-group the race checker tells the work-items of apart (its state keeps 16 bits of the local linear
// id); a launch with larger groups and the race checker on is refused.
constexpr uint64_t kRaceCheckerMaxGroupSize = 65536;

// What a checker found: one finding per distinct kind and instruction (pair), however many times it happened.
struct Finding {
  Diagnostic at;         // kind DataRace or UninitialisedValue: the later access of a race, or the use
  bool hasOther = false;  // a race: the earlier access, by another work-item
  Diagnostic other;
  uint64_t count = 1;  // the occurrences (distinct byte ranges and work-item pairs) of this finding
  std::string format() const;
};

// A named choice (numerics/choices.hpp) that decided values in a launch.
struct ChoiceUse {
  numerics::Choice choice = numerics::Choice::Count;
  uint64_t count = 0;  // the decisions; 0 for a choice that may decide without clref seeing it (see `first.message`)
  Diagnostic first;    // the first decision, in work-group order (no instruction for a launch-wide choice)
};

// The record of a run's choices for people: per choice its name, the option in force (from `inForce`), how many
// values it decided and where first, one paragraph each. Empty when `uses` is.
std::string formatChoiceUses(const std::vector<ChoiceUse>& uses, const numerics::Choices& inForce);

}  // namespace clref::interpreter
