// Reading a kernel's source variables and memory for `clref debug` (debugger.hpp): the OpenCL.DebugInfo.100 tables
// of a module (which DebugDeclare or DebugValue takes effect before which instruction, the variables' names and debug
// types), values formatted by their SPIR-V type with the debug type's signedness and member names, and places in
// memory (an allocation and an offset) named by a kernel argument or a variable.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/module.hpp"
#include "interpreter/observer.hpp"
#include "cli/case_file.hpp"

namespace clref::cli::debug {

// Whether a work-item runs `inst` (interpreter::isObservedInstruction): a work-item never stops at one it does not
// run, and a debug value placed before one takes effect at the next one it runs.
inline bool executes(const interpreter::Module& m, const interpreter::Instruction& inst) {
  return interpreter::isObservedInstruction(m, inst);
}

// OpenCL.DebugInfo.100 DebugLocalVariable: a variable of the source.
struct SourceVariable {
  std::string name;
  uint32_t debugType = 0;  // a DebugType* id
  uint32_t line = 0;
  uint32_t argNumber = 0;  // a parameter's position from 1; 0 for other variables
};

// A DebugDeclare (the variable lives in memory: `id` is the OpVariable pointing at it) or a DebugValue (the variable
// is the value `id`). `unavailable` says why the location cannot be read, "" when it can.
struct Binding {
  uint32_t variable = 0;  // the DebugLocalVariable id
  uint32_t id = 0;
  bool declare = false;
  bool deref = false;  // a DebugValue whose expression is Deref: `id` points at the variable
  std::string unavailable;
};

class DebugInfo {
 public:
  explicit DebugInfo(const interpreter::Module& module);

  const interpreter::Module& module() const { return module_; }
  // The declarations and values that take effect just before instruction `inst` runs: debug-information
  // instructions are not executed (the lowering drops them), so each belongs to the next executed instruction of
  // its block.
  const std::vector<Binding>& bindingsBefore(uint32_t inst) const;
  // Whether `inst` is the first executed instruction of a function (a call enters there; no branch can).
  bool startsFunction(uint32_t inst) const { return inst < functionStart_.size() && functionStart_[inst]; }
  const SourceVariable* variable(uint32_t id) const;
  // Whether the module declares a source variable of this name anywhere.
  bool hasVariable(const std::string& name) const;
  // The function (OpFunction id) instruction `inst` belongs to, 0 outside functions.
  uint32_t functionOf(uint32_t inst) const;

  // A call the optimiser inlined: the source function that makes it, the call's line and the file (as the module's
  // DebugSource names it).
  struct InlinedCall {
    std::string function;
    uint32_t line = 0;
    std::string file;
  };
  // The source function instruction `inst` is in by its DebugScope ("" when the module does not say): another than
  // its SPIR-V function's when the optimiser inlined it.
  std::string functionAt(uint32_t inst) const;
  // The calls `inst` was inlined through, innermost first (DebugScope's Inlined At chain); empty when none.
  std::vector<InlinedCall> inlinedCalls(uint32_t inst) const;
  // inlinedCalls(inst).size(), cheaply: the source-level call depth inside its SPIR-V function.
  uint32_t inlineDepth(uint32_t inst) const { return inst < inlineDepth_.size() ? inlineDepth_[inst] : 0; }

  // The DebugTypeBasic encoding (OpenCLDebugInfo100DebugBaseTypeAttributeEncoding) of a scalar debug type, or of the
  // elements of a vector or array, through typedefs and qualifiers; Unspecified (0) when unknown.
  uint32_t encodingOf(uint32_t debugType) const;
  // The pointee of a DebugTypePointer (through typedefs and qualifiers), 0 when `debugType` is not a pointer.
  uint32_t pointeeOf(uint32_t debugType) const;
  // The element type of a DebugTypeArray or DebugTypeVector, 0 otherwise.
  uint32_t elementOf(uint32_t debugType) const;
  // The members (name, debug type) of a DebugTypeComposite, in order; empty for other types.
  std::vector<std::pair<std::string, uint32_t>> membersOf(uint32_t debugType) const;

 private:
  // The OpenCL.DebugInfo.100 instruction `id` with its instruction number, or nullptr.
  const interpreter::Instruction* debugInst(uint32_t id, uint32_t* number) const;
  // Through DebugTypedef and DebugTypeQualifier.
  uint32_t stripped(uint32_t debugType) const;
  Binding bindingOf(const interpreter::Instruction& inst, uint32_t number) const;
  // The DebugFunction name and the DebugSource file of a lexical scope.
  std::string scopeFunction(uint32_t scope) const;
  std::string scopeFile(uint32_t scope) const;

  const interpreter::Module& module_;
  std::unordered_map<uint32_t, SourceVariable> variables_;
  std::unordered_map<uint32_t, std::vector<Binding>> before_;  // by instruction index
  std::vector<bool> functionStart_;
  std::vector<std::pair<uint32_t, uint32_t>> scopeOf_;  // per instruction: DebugScope's (Scope, Inlined At), or 0s
  std::vector<uint32_t> inlineDepth_;
  std::vector<std::pair<uint32_t, uint32_t>> functionRanges_;  // (OpFunction index, function id), ascending
};

// What a value is, to format it: its SPIR-V type and, when known, its debug type (signedness, member names).
struct TypedBytes {
  uint32_t type = 0;
  uint32_t debugType = 0;
  std::vector<uint8_t> bytes;
};

// A place in memory: an allocation of the launch (its tag) and a byte offset, with the type found there.
struct Place {
  uint32_t tag = 0;
  uint64_t offset = 0;
  uint32_t pointee = 0;             // SPIR-V type at the place, 0 when unknown
  uint32_t debugPointee = 0;        // debug type at the place, 0 when unknown
  std::optional<ScalarType> element;  // a buffer argument's element type as the case declares it
  std::string name;                 // how to call it ("argument 1 (out)", "v")
};

// Reads values and memory of one work-item.
class Reader {
 public:
  Reader(const interpreter::WorkItem& wi, const DebugInfo& info);

  // The register of SPIR-V id `id` with its type; nullopt (and `error`) when the id has no register.
  std::optional<TypedBytes> registerValue(uint32_t id, std::string& error) const;
  // A source variable's value through its binding; nullopt (and `error`) when it cannot be read.
  std::optional<TypedBytes> bindingValue(const Binding& b, std::string& error) const;
  // Where a binding's variable lives (DebugDeclare, or a Deref DebugValue); nullopt when it is a value in a
  // register (`error` says so).
  std::optional<Place> bindingPlace(const Binding& b, std::string& error) const;
  // The memory a pointer value points at (its allocation must exist in this work-item).
  std::optional<Place> pointerPlace(const TypedBytes& pointer, std::string& error) const;
  // Kernel argument `index` as a place (a buffer or local argument).
  std::optional<Place> argumentPlace(size_t index, const Case& c, std::string& error) const;
  // The bytes [offset, offset + size) of allocation `tag`, nullptr when outside it or when the allocation does not
  // exist here.
  const uint8_t* memory(uint32_t tag, uint64_t offset, uint64_t size) const;
  uint64_t allocationSize(uint32_t tag) const;
  const std::string& allocationName(uint32_t tag) const;

  // The text of a value: integers in decimal (signed unless the debug type says unsigned), floating-point numbers as
  // a hexadecimal and a decimal literal, vectors (a, b), arrays [a, b], structs {m = a, n = b}, pointers as their
  // allocation and offset.
  std::string format(const TypedBytes& v) const;

 private:
  std::string formatAt(uint32_t type, uint32_t debugType, const uint8_t* bytes, int depth) const;
  std::string formatPointer(uint64_t ptr) const;

  interpreter::ObservedWorkItem item_;
  const DebugInfo& info_;
  const interpreter::Module& module_;
  interpreter::ObservedKernel kernel_;
};

// The element type of a scalar (or a vector's elements) SPIR-V type with a debug encoding, nullopt for others.
std::optional<ScalarType> elementTypeOf(const interpreter::Module& m, uint32_t type, uint32_t encoding);
// One element of `type` at `bytes`, as `memory` prints it: integers in decimal, floating-point numbers as a
// hexadecimal and a decimal literal.
std::string formatElement(ScalarType type, const uint8_t* bytes);
// Bytes as hexadecimal pairs separated by spaces.
std::string hexBytes(const uint8_t* bytes, size_t size);

}  // namespace clref::cli::debug
