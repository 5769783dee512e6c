// The lowering dispatch table: one entry per SPIR-V opcode that can occur in a function body,
// naming the function that lowers it (or why clref does not) and its allowed-set rule for the shadow mode. Each
// instruction-family file (ops_*.cpp, SPIR-V 1.0 §3.32 [external] sections) registers its own opcodes in its
// register*() function; lowering an instruction is one lookup. Internal to the interpreter.
//
// To support a new instruction, everything goes in its family file (ops_<family>.cpp), in one registration:
// write `void lowerFoo(Lowerer&, const Instruction&)` (what it does) and, for an instruction that can produce a
// floating-point value, `void shadowFoo(ShadowLowering&)` (what a conforming device may return for it: the allowed
// set, built from shadow_support.hpp), and add `t.lower(spv::Op::OpFoo, lowerFoo, {shadowFoo});` to that file's
// register function (removing the opcode from an unsupported() list in ops_unsupported.cpp if it was there). An
// instruction whose result is never floating point may leave the rule out: it then takes the generic rule (exact
// when its operands are, undetermined when one is). An OpenCL.std instruction registers its rule by number with
// t.openclStd(…) in the family file that lowers it. The grammar test (tests/interpreter/dispatch_table_test.cpp)
// checks every kernel opcode has an entry and every one that can produce a floating-point value has a rule.
//
// OpExtInst of a debug-information set (Module::isDebugInfo: OpenCL.DebugInfo.100, NonSemantic.*)
// never reaches the table: lower.cpp skips it, as it skips OpUndef, so that neither takes part
// in undefined-value tracking. Other OpExtInst go to lowerExtInst (ops_extinst.cpp), which
// dispatches OpenCL.std on the instruction number, hands GLSL.std.450 to lowerGlslStd450 (ops_glsl_std450.cpp) and
// rejects any other set.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>

#include "interpreter/lower.hpp"

namespace clref::interpreter {

using LowerFn = void (*)(Lowerer&, const Instruction&);

class ShadowLowering;  // shadow_support.hpp
// The shadow mode's rule for one instruction (docs/ARCHITECTURE.md "The shadow mode"): the Ops that give its result
// the set of values a conforming device may return, or mark it undetermined. Emitted only when the kernel is
// lowered for the shadow mode (LowerOptions::shadow): the plain dispatch loop never sees them.
struct ShadowRule {
  enum class When : uint8_t {
    After,   // after the instruction's own Ops: its result's set
    Before,  // before them: a decision the instruction takes (a branch on an undetermined condition)
  };
  void (*emit)(ShadowLowering&) = nullptr;  // nullptr: the generic rule (shadow_support.hpp)
  When when = When::After;
};

// What clref does with one opcode.
struct OpcodeRule {
  enum class Kind : uint8_t {
    Lower,        // `lower` emits its Ops (possibly none: merges, OpLine, …)
    Declaration,  // module-level (types, constants, decorations, …): read by Module, not lowered
    Unsupported,  // rejected with `why`
  };
  Kind kind = Kind::Unsupported;
  LowerFn lower = nullptr;
  const char* why = nullptr;  // Declaration: where it is handled; Unsupported: the diagnostic
  ShadowRule shadow;          // Lower: the allowed-set rule
};

class DispatchTable {
 public:
  void lower(spv::Op op, LowerFn fn, ShadowRule shadow = {});
  void lower(std::initializer_list<spv::Op> ops, LowerFn fn, ShadowRule shadow = {});  // opcodes sharing one lowering
  // The rule of OpenCL.std instruction `number` (OpenCL.ExtendedInstructionSet.100): OpExtInst's own rule
  // (ops_extinst.cpp) dispatches on the number to it.
  void openclStd(std::initializer_list<uint32_t> numbers, ShadowRule shadow);
  void declaration(std::initializer_list<spv::Op> ops, const char* where);
  void unsupported(std::initializer_list<spv::Op> ops, const char* why);
  const OpcodeRule* find(spv::Op op) const;  // nullptr: the opcode has no entry
  const std::unordered_map<uint32_t, OpcodeRule>& rules() const { return rules_; }
  const ShadowRule* findOpenclStd(uint32_t number) const;  // nullptr: no rule registered
  const std::unordered_map<uint32_t, ShadowRule>& openclStdRules() const { return openclStd_; }

 private:
  void add(spv::Op op, OpcodeRule rule);
  std::unordered_map<uint32_t, OpcodeRule> rules_;
  std::unordered_map<uint32_t, ShadowRule> openclStd_;
};

// The table, built once from the family registrations below.
const DispatchTable& dispatchTable();

// Lowers one instruction through the table; rejects an unsupported opcode, or one without an
// entry, with a diagnostic naming it.
void lowerInstruction(Lowerer& L, const Instruction& inst);
std::string opcodeName(spv::Op op);  // "OpFAdd"; "opcode N" when unknown

// Whether SPIR-V allows the opcode as the operation of an OpSpecConstantOp (SPIR-V 1.0 §3.32.7 [external]);
// those lower through the same table and are run once on the register template.
bool allowedInSpecConstantOp(spv::Op op);

// A lowering that emits nothing: the instruction has no run-time effect (see its registration).
void lowerNoCode(Lowerer&, const Instruction&);

// Family registrations (one per ops_*.cpp file).
void registerArithmetic(DispatchTable&);    // ops_arithmetic.cpp
void registerBitwise(DispatchTable&);       // ops_bitwise.cpp
void registerRelational(DispatchTable&);    // ops_relational.cpp
void registerConversion(DispatchTable&);    // ops_conversion.cpp
void registerComposite(DispatchTable&);     // ops_composite.cpp
void registerMemory(DispatchTable&);        // ops_memory.cpp
void registerControl(DispatchTable&);       // ops_control.cpp
void registerExtInst(DispatchTable&);       // ops_extinst.cpp (OpExtInst; OpenCL.std dispatch inside)
void registerMath(DispatchTable&);          // ops_math.cpp: the OpenCL.std math, common and geometric rules
void registerVectorData(DispatchTable&);    // ops_vector_data.cpp: the OpenCL.std vload/vstore rules
void registerGroup(DispatchTable&);         // ops_group.cpp
void registerAtomic(DispatchTable&);        // ops_atomic.cpp
void registerDotProduct(DispatchTable&);    // ops_dot_product.cpp
void registerMatrix(DispatchTable&);        // ops_matrix.cpp
void registerPipe(DispatchTable&);          // ops_pipe.cpp
void registerEnqueue(DispatchTable&);       // ops_enqueue.cpp
void registerNamedBarrier(DispatchTable&);  // ops_named_barrier.cpp
void registerSubgroup(DispatchTable&);      // ops_subgroup.cpp (and ops_subgroup_quad.cpp)
void registerShaderMemory(DispatchTable&);  // ops_shader_memory.cpp: OpArrayLength
void registerImage(DispatchTable&);         // ops_image.cpp
void registerDeclarations(DispatchTable&);  // ops_declarations.cpp: module-level instructions
void registerUnsupported(DispatchTable&);   // ops_unsupported.cpp: opcodes clref rejects, with why

}  // namespace clref::interpreter
