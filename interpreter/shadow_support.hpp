// The building blocks of the shadow mode's rules (interpreter/shadow.hpp: allowed-set propagation), shared by the
// instruction families. Each family chooses the rule of each of its opcodes in its own file and registers it with
// the opcode's lowering (dispatch.hpp: `t.lower(op, lowerFoo, {shadowFoo})`); the kinds of rule are:
//  - floating-point arithmetic and OpenCL.std math: the operands' sets through numerics::allowedSet (the rule of the
//    spec's accuracy tables over the operand ranges): floatRule, geometric;
//  - conversions: correctly rounded (a set when the operand is one); float→int is a decision: intOfFloat;
//  - comparisons and the classification instructions: a decision when the operand sets do not fix the outcome:
//    compare;
//  - OpSelect and OpenCL.std select: the chosen operand's set, or both operands' when the condition is undetermined:
//    select;
//  - data movement (loads, stores, composites, shuffles, bitcasts, phi copies, calls): the sets move with the bytes:
//    copies, memoryAccess and the sh* handlers below;
//  - everything else (an entry without a rule): generic, exact when its operands are, undetermined when one is, and
//    a decision of its own when an operand carries a set the instruction has no rule for (an integer
//    reinterpretation of a float, …).
// Internal to the interpreter.
#pragma once
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interpreter/exec.hpp"
#include "interpreter/lower.hpp"
#include "interpreter/shadow.hpp"
#include "numerics/accuracy.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/math.hpp"

namespace clref::interpreter {

// ---- Operands of a rule ------------------------------------------------------------------------------------------

enum class LaneKind : uint8_t { Float, SInt, UInt };

struct LaneRef {
  uint32_t reg = 0;
  uint32_t stride = 0;  // 0: a scalar broadcast over the lanes
  uint8_t bytes = 4;
  LaneKind kind = LaneKind::Float;
  numerics::Format format = numerics::Format::Float;
};

double shadowReadFloat(const uint8_t* p, numerics::Format f);

// A lane's shadow: its set (a single value when exact) or undetermined (decision ~0u: an integer lane that holds the
// bits of a float with a set, which has no decision of its own yet: shadowDecisionFor gives it one).
struct LaneValue {
  numerics::ValueSet set;
  bool undetermined = false;
  uint32_t decision = 0;
};
// Lane `lane` of an operand (a register).
LaneValue shadowLaneOf(const WorkItem& wi, const LaneRef& a, uint32_t lane);
// The decision an undetermined operand lane depends on (recorded at `op` for decision ~0u, described by `what`).
uint32_t shadowDecisionFor(WorkItem& wi, const Op* op, const LaneValue& v, const char* what);

// ---- Floating-point results: arithmetic, math, conversions ------------------------------------------------------

enum class FloatKind : uint8_t { Core, Math, Negate, Convert, FMod };

// An OpFMul operand of an OpFAdd/OpFSub that a device may contract with it: the sum is then fma(±a, b, ±c).
struct Contraction {
  LaneRef a, b;       // the product's operands
  size_t addend = 1;  // the other operand of the sum (index into FloatRule::args)
  bool negA = false;  // c - a·b = fma(-a, b, c)
  bool negC = false;  // a·b - c = fma(a, b, -c)
};

struct FloatRule {
  std::vector<Contraction> contractions;
  FloatKind kind = FloatKind::Core;
  numerics::CoreOp core = numerics::CoreOp::None;
  numerics::MathFn fn = numerics::MathFn::sin;
  numerics::Format format = numerics::Format::Float;  // of the result
  uint8_t bytes = 4;
  uint32_t lanes = 1;
  std::vector<LaneRef> args;
  // The instruction respects SignedZeroInfNanPreserve in a Vulkan shader (ShadowRun::assumesFinite): OpFAdd, OpFSub,
  // OpFMul, OpFDiv, OpFNegate, OpFConvert, OpVectorTimesScalar, …; false for the GLSL.std.450 functions.
  bool preserving = true;
};

// Whether a correctly rounded operation of rule r on single values `a` has a result no rounding mode or flush can
// change (no set; a subnormal result, which a flush may change, is the caller's to check).
bool shadowExactOnPoints(const FloatRule& r, const ShadowRun& s, std::span<const double> a);

// The set of one component of rule r's result (clref's value `reference`) whose operands, `args` (r.args' lanes), are
// none of them undetermined; `products`: each contraction's a and b lanes, empty where the run contracts nothing
// (neither ShadowRun::contraction nor madEnable). false: the component holds exactly clref's value; else its set in
// `set`, written as a lane's is (with clref's value in it, no entry for a single value). (A set in place, not a
// returned optional: its flag written narrow and read wide stalled the lanes' loop.)
bool shadowFloatSet(const FloatRule& r, const ShadowRun& s, const numerics::VerdictOptions& options,
                    std::span<const LaneValue> args, std::span<const LaneValue> products, double reference,
                    numerics::ValueSet& set);

// Comparisons (shCompare): a decision where the operands' sets do not fix the outcome.
struct CompareRule {
  spv::Op opcode;
  std::vector<LaneRef> args;  // one or two
  uint32_t lanes = 1;
  uint8_t bytes = 1;  // of a result lane (bool)
};

// Which outcomes some members of the sets can give comparison `opcode` (one operand: a): bit 0 false, bit 1 true.
unsigned shadowCompareOutcomes(spv::Op opcode, const numerics::ValueSet& a, const numerics::ValueSet& b);

// Selections (shSelect): the chosen operand's set, or both operands' when the condition is undetermined.
struct SelectRule {
  LaneRef cond;       // bool lanes (OpSelect) or integer lanes (OpenCL.std select: the MSB of vectors, else != 0)
  bool msb = false;   // OpenCL.std select on vectors
  bool condIsVector = true;
  LaneRef a, b;       // OpSelect: chosen when true / false; OpenCL.std select(a, b, c): b when c, else a
  uint32_t lanes = 1;
};

// ---- Handlers the families' rules emit ------------------------------------------------------------------------------

// Before OpBranchConditional / OpSwitch: a = the condition or selector register, n = its bytes.
const Op* shBranch(WorkItem& wi, const Op* op);
// OpLoad: r = result, a = pointer, n = bytes; imm: where the address comes from (shadowAddressSource).
const Op* shLoad(WorkItem& wi, const Op* op);
// OpStore: a = pointer, b = value, n = bytes, c = the instruction that computed the value; imm as shLoad's.
const Op* shStore(WorkItem& wi, const Op* op);
// An access's imm: the address is computed from the pointer in register imm - 1 (the pointer operand's, also for a
// planned access's piece, whose address a scratch register holds), or never depends on an undetermined value
// (kExactAddress: its pointer is exact, shadow_exact_values.cpp) and takes no open-address test.
inline constexpr uint64_t kExactAddress = UINT64_MAX;
uint64_t shadowAddressSource(const Lowerer& L, uint32_t ptrId);
// OpCopyMemory(Sized): a = target pointer, b = source pointer, n = bytes (or c = the size register when n == 0).
const Op* shCopyMemory(WorkItem& wi, const Op* op);
// Atomics: a = pointer, n = bytes of the memory operand, r = result (or ~0u); aux = the value operands (reg, bytes);
// imm = 1 when the value left in memory depends on the order of the work-items, 2 for float min/max (b = operand).
const Op* shAtomic(WorkItem& wi, const Op* op);
// Data movement between work-items, in the actions of the group and sub-group collectives that move values (broadcasts,
// shuffles): only the action sees the work-item a value comes from. `to`'s result (op->r, op->n bytes) takes the sets
// of `from`'s value (op->a); shadowAnyResult gives it any value (lanes of Collective::valueLaneBytes) where a choice
// that leaves the result undefined decided it, and consumes that choice's note.
void shadowMoveFrom(WorkItem& to, const WorkItem& from, const Op* op);
void shadowAnyResult(WorkItem& wi, const Op* op);
// The lane of `bytes` bytes at `at` (a register or memory) holds any value, by the rule of instruction `producer`.
void shadowSetAnyValue(ShadowRun& s, uint8_t* at, uint32_t bytes, uint32_t producer);
// The lanes at the byte offsets of the table (c bytes each) of the result r hold any value.
const Op* shAnyValueLanes(WorkItem& wi, const Op* op);
// OpVectorExtractDynamic: r = result, a = vector, b = index register (c = index bytes), n = lane bytes, imm = lanes.
const Op* shExtractDynamic(WorkItem& wi, const Op* op);
// OpVectorInsertDynamic: r = result, a = vector, b = component, c = index register, n = lane bytes, imm = lanes;
// align = index bytes.
const Op* shInsertDynamic(WorkItem& wi, const Op* op);

// Memory addressed by a tagged pointer (the instruction's own Op already accessed it successfully).
uint8_t* shadowHostAddress(const WorkItem& wi, uint32_t ptrReg);
// An address that depends on an undetermined value (its decision), or nullopt. `extra` is a further register of
// `extraBytes` bytes the address is computed from (vloadn/vstoren's offset).
std::optional<uint32_t> shadowOpenAddress(WorkItem& wi, const Op* op, uint32_t ptrReg, uint32_t extra = 0,
                                          uint32_t extraBytes = 0);
// A store at an open address: any element of the allocation may differ on another device.
void shadowOpenAllocation(WorkItem& wi, uint32_t ptrReg, uint32_t decision);
// The decision that opened the allocation a pointer names, if any.
std::optional<uint32_t> shadowOpenAllocationAt(const WorkItem& wi, uint32_t ptrReg);

// Byte offset of a composite's element reached by the literal indices of `inst` from operand `firstIndex` on.
uint64_t shadowOffsetOf(const Lowerer& L, uint32_t typeId, const Instruction& inst, size_t firstIndex);

// ---- Emitting a rule ---------------------------------------------------------------------------------------------

// The context of one instruction's rule: the lowerer and the instruction, with the emitters of each kind of rule.
class ShadowLowering {
 public:
  ShadowLowering(Lowerer& L, const Instruction& inst) : L(L), inst(inst) {}

  Lowerer& L;
  const Instruction& inst;

  uint32_t operand(size_t i) const { return inst.operand(i); }
  const Type& resultType() const { return L.type(inst.resultType); }
  uint32_t resultBytes() const { return uint32_t(resultType().size); }
  // Bytes of one lane of a scalar or vector type.
  uint32_t laneBytes(uint32_t typeId) const;
  bool isFloat(uint32_t typeId) const;
  LaneRef laneRef(uint32_t id, bool isSigned = true) const;

  // The rule kinds (see the top of this file). floatRule returns its rule for a family to extend (contractions).
  FloatRule& floatRule(FloatKind kind, std::vector<uint32_t> operands, numerics::CoreOp core = numerics::CoreOp::None,
                       numerics::MathFn fn = numerics::MathFn::sin, std::vector<bool> signedness = {});
  void intOfFloat(uint32_t operand, const char* what, bool ilogb = false);
  void geometric(numerics::CoreOp op, uint32_t p, uint32_t q);
  void compare(std::vector<uint32_t> operands);
  void select(uint32_t cond, uint32_t a, uint32_t b, bool msb);
  // (destination offset in the result, source register, bytes) triples: the sets move with the bytes.
  void copies(std::vector<uint32_t> triples);
  // The result's lanes at these byte offsets (of `laneBytes` each) hold any value.
  void anyValueLanes(std::vector<uint32_t> offsets, uint32_t laneBytes);
  void memoryAccess(Handler fn, uint32_t ptr, uint32_t value, uint32_t bytes);
  // The generic rule (an entry without a rule of its own).
  void generic();

 private:
  template <class Rule> Op& emitWith(Handler fn, std::unique_ptr<Rule> rule);
};

// Rules any family may register.
// The result takes no rule of its own: the registration says why (an OpPhi's copies move the sets at the branch, an
// OpFunctionCall's result gets its set from the callee's OpReturnValue, an image read applies the image verdict in
// its own Op, an OpVariable is a pointer).
void shadowNone(ShadowLowering&);
// The generic rule, chosen explicitly for a float-producing opcode (see ShadowLowering::generic).
void shadowGeneric(ShadowLowering&);
// The result is a copy of operand 0's bytes (OpCopyObject, OpBitcast): the sets move with them.
void shadowCopyOperand0(ShadowLowering&);

}  // namespace clref::interpreter
