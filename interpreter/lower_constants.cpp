// Constants of a kernel's module placed in its register template: OpConstant*, OpUndef, and the
// specialisation constants (OpSpecConstant*, with values from clSetProgramSpecializationConstant;
// OpSpecConstantOp evaluated once through the dispatch table).
#include <cstring>

#include "interpreter/dispatch.hpp"
#include "interpreter/exec.hpp"
#include "interpreter/kernel_lowering.hpp"

namespace clref::interpreter {

namespace {

bool isSpecConstant(spv::Op op) {
  return op == spv::Op::OpSpecConstant || op == spv::Op::OpSpecConstantTrue || op == spv::Op::OpSpecConstantFalse ||
         op == spv::Op::OpSpecConstantComposite || op == spv::Op::OpSpecConstantOp;
}
}  // namespace

bool isConstantOp(spv::Op op) {
  return op == spv::Op::OpConstant || op == spv::Op::OpConstantTrue || op == spv::Op::OpConstantFalse ||
         op == spv::Op::OpConstantNull || op == spv::Op::OpConstantComposite || op == spv::Op::OpConstantSampler ||
         isSpecConstant(op);
}

void KernelLowering::writeConstants() {
  const uint8_t undefByte =
      L_.opt.choices.get<numerics::Choice::UndefValue>() == numerics::UndefValueOption::Pattern ? 0xA5 : 0;
  for (const auto& inst : m_.instructions) {
    if (!inst.resultId || !L_.hasReg(inst.resultId)) continue;
    uint8_t* dst = k_.registerTemplate.data() + L_.reg(inst.resultId);
    const Type& t = m_.type(inst.resultType);
    switch (inst.opcode) {
      case spv::Op::OpConstant:
      case spv::Op::OpSpecConstant: {
        std::memcpy(dst, inst.words.data() + 3, std::min<uint64_t>(t.size, (inst.words.size() - 3) * 4));
        if (inst.opcode == spv::Op::OpSpecConstant) applySpec(inst, dst, t.size);
        break;
      }
      case spv::Op::OpConstantTrue:
      case spv::Op::OpSpecConstantTrue:
        *dst = 1;
        if (inst.opcode == spv::Op::OpSpecConstantTrue) applySpec(inst, dst, 1);
        break;
      case spv::Op::OpConstantFalse:
      case spv::Op::OpSpecConstantFalse:
        *dst = 0;
        if (inst.opcode == spv::Op::OpSpecConstantFalse) applySpec(inst, dst, 1);
        break;
      case spv::Op::OpConstantNull: std::memset(dst, 0, t.size); break;
      case spv::Op::OpUndef: std::memset(dst, undefByte, t.size); break;
      case spv::Op::OpConstantComposite:
      case spv::Op::OpSpecConstantComposite: {
        uint64_t off = 0;
        for (size_t i = 0; i < inst.operandCount(); ++i) {
          const uint32_t c = inst.operand(i);
          const Type& ct = L_.typeOfValue(c);
          uint64_t at = off;
          if (t.kind == TypeKind::Struct)
            at = t.memberOffsets.at(i);
          else if (t.kind == TypeKind::Array)
            at = i * t.stride;
          std::memcpy(dst + at, k_.registerTemplate.data() + L_.reg(c), ct.size);
          off = at + ct.size;
        }
        break;
      }
      case spv::Op::OpSpecConstantOp: evaluateSpecOp(inst); break;
      case spv::Op::OpConstantSampler: {
        // OpConstantSampler (Sampler Addressing Mode, Param: normalized, Sampler Filter Mode): a sampler of the
        // kernel's table, its register the sampler handle (exec.hpp kImageHandleTag).
        images::Sampler sampler;
        if (inst.words.size() < 6 || !images::fromSpirv(inst.words[3], inst.words[4], inst.words[5], sampler))
          L_.reject(inst, "OpConstantSampler with an addressing mode, normalized flag or filter mode SPIR-V does "
                          "not define");
        const uint64_t index = k_.samplerParams.size() + k_.constantSamplers.size();
        if (index >= kMaxImageHandles) L_.reject(inst, "more samplers than clref's handles index");
        k_.constantSamplers.push_back(sampler);
        const uint64_t handle = kSamplerHandleTag | index;
        std::memcpy(dst, &handle, std::min<uint64_t>(t.size, sizeof handle));
        break;
      }
      default: break;
    }
  }
  // Initialisers, now that constants are in place.
  for (auto& d : k_.allocations) {
    if (d.source != AllocationSource::Private || !d.variable) continue;
    const Instruction& inst = m_.def(d.variable);
    if (inst.opcode != spv::Op::OpVariable || inst.operandCount() < 2) continue;
    if (L_.hasReg(inst.operand(1)))
      d.init.assign(k_.registerTemplate.data() + L_.reg(inst.operand(1)),
                    k_.registerTemplate.data() + L_.reg(inst.operand(1)) + d.size);
    else if (m_.def(inst.operand(1)).opcode == spv::Op::OpConstantNull)
      d.init.assign(d.size, 0);  // an initialiser-only null without a register (assignRegisters)
  }
  // Program-scope variables start zeroed (lower_allocations.cpp), which is all an initialiser-only null would write.
  for (uint32_t v : pendingInit_) {
    const Instruction& inst = m_.def(v);
    auto& bytes = L_.opt.globals->bytes[v];
    if (L_.hasReg(inst.operand(1)))
      std::memcpy(bytes.data(), k_.registerTemplate.data() + L_.reg(inst.operand(1)), bytes.size());
  }
}

void KernelLowering::applySpec(const Instruction& inst, uint8_t* dst, uint64_t size) {
  auto* sid = m_.decoration(inst.resultId, spv::Decoration::SpecId);
  if (!sid) return;
  auto it = L_.opt.specConstants.find(sid->literals[0]);
  if (it == L_.opt.specConstants.end()) return;
  if (it->second.size() != size && !(size == 1 && it->second.size() >= 1))
    throw ModuleError("specialization constant " + std::to_string(sid->literals[0]) + " has " + std::to_string(size) +
                      " bytes but the value given has " + std::to_string(it->second.size()));
  if (size == 1 && m_.type(inst.resultType).kind == TypeKind::Bool)
    *dst = it->second[0] != 0;
  else
    std::memcpy(dst, it->second.data(), size);
}

// OpSpecConstantOp: lower the operation as an ordinary instruction and run it once on the
// register template, so constant folding uses the very same semantics as execution.
void KernelLowering::evaluateSpecOp(const Instruction& inst) {
  Instruction synth;
  synth.opcode = spv::Op(inst.words[3]);
  synth.resultType = inst.resultType;
  synth.resultId = inst.resultId;
  synth.words = {0, inst.resultType, inst.resultId};
  synth.words.insert(synth.words.end(), inst.words.begin() + 4, inst.words.end());
  synth.firstOperand = 3;
  // Keep the synthetic instruction alive and addressable for diagnostics.
  specInstructions_.push_back(synth);
  const size_t before = k_.ops.size();
  const Instruction& s = specInstructions_.back();
  // Only the opcodes SPIR-V allows in OpSpecConstantOp; they lower through the same table as
  // instructions in functions (pointer arithmetic for program-scope initialisers such as
  // `global int* p = &a[1]` through the memory family's access chains).
  // Diagnostics name the OpSpecConstantOp itself (the synthetic instruction is not in the module).
  const OpcodeRule* rule = dispatchTable().find(s.opcode);
  if (!allowedInSpecConstantOp(s.opcode))
    L_.reject(inst, "OpSpecConstantOp with " + opcodeName(s.opcode) + ", which SPIR-V does not allow there");
  if (!rule || rule->kind != OpcodeRule::Kind::Lower)
    L_.reject(inst, "OpSpecConstantOp with " + opcodeName(s.opcode) +
                        (rule && rule->why ? ": " + std::string(rule->why) : ""));
  rule->lower(L_, s);
  WorkItem wi;
  wi.regs = k_.registerTemplate.data();
  wi.tagShift = k_.tagShift;  // pointer arithmetic in program-scope initialisers
  wi.offsetMask = (uint64_t(1) << k_.tagShift) - 1;
  std::vector<Diagnostic> warnings;
  uint64_t count = 0;
  wi.warnings = &warnings;
  wi.warningCount = &count;
  Launch launch;
  launch.choices = &L_.opt.choices;
  launch.kernel = &k_;
  launch.module = &m_;
  wi.launch = &launch;
  for (size_t i = before; i < k_.ops.size(); ++i) k_.ops[i].inst = L_.index(inst);
  for (size_t i = before; i < k_.ops.size(); ++i) k_.ops[i].fn(wi, &k_.ops[i]);
  k_.ops.resize(before);
}

}  // namespace clref::interpreter
