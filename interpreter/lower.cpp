// Lowering a kernel: reachable functions → flat Op arrays with operands resolved to register
// offsets, constants into a register template, variables into tagged allocations. This file
// holds the driver (KernelLowering::run) and the per-block lowering through the dispatch table
// (dispatch.hpp); the other stages are in lower_allocations.cpp, lower_constants.cpp and
// fusion.cpp.
#include <algorithm>
#include <functional>
#include <set>

#include "interpreter/device_enqueue.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/kernel_lowering.hpp"

namespace clref::interpreter {

void KernelLowering::run(const std::string& name) {
  const EntryPoint* ep = m_.entryPoint(name);
  if (!ep) {
    std::string known;
    for (const auto& e : m_.entryPoints) known += (known.empty() ? "" : ", ") + e.name;
    throw ModuleError("no kernel named '" + name + "' (kernels: " + (known.empty() ? "none" : known) + ")");
  }
  if (ep->requiredLocalSize) k_.requiredLocalSize = *ep->requiredLocalSize;
  k_.shader = m_.isVulkanShader();
  runFunction(ep->function, name);
  if (k_.shader) specializeLocalSize(*ep);
}

void KernelLowering::runFunction(uint32_t function, const std::string& name) {
  k_.name = name;
  k_.module = &m_;
  k_.choices = L_.opt.choices;
  k_.globals = L_.opt.globals;
  k_.addressBits = L_.opt.addressBits;
  k_.shadow = L_.opt.shadow;
  k_.observesInstructions = L_.opt.observeInstructions;
  k_.checks = L_.opt.checks;
  k_.uninitialisedByte =
      L_.opt.choices.get<numerics::Choice::UninitialisedMemory>() == numerics::MemoryInitOption::Pattern ? 0xA5 : 0;
  checkModuleSupport(m_, L_.opt);
  collectReachable(function);
  k_.allocations.emplace_back("null", AllocationSource::Null, spv::StorageClass::CrossWorkgroup);
  assignRegisters();
  // Module-scope variables take the first tags, the same in every kernel of the module, so a
  // pointer to one stored in program-scope memory means the same variable in all of them.
  assignModuleVariables();
  if (k_.shader)
    assignShaderResources();
  else
    assignParams(function);
  assignFunctionVariables();
  finishTags();
  writeConstants();
  placeSpecSized();
  countUses();
  planUndefTracking(L_, order_, bodyOf(function));
  if (L_.opt.shadow) planShadowExactValues(L_, order_, bodyOf(function));
  for (uint32_t f : order_) lowerFunction(m_.functions.at(f));
  resolve(function);
  if (k_.usesDeviceEnqueue) {
    // The block kernels: the enqueuing kernel's own set, or the set of the kernel that enqueued this one.
    k_.blockKernels = L_.opt.blockKernels;
    if (!k_.blockKernels) {
      k_.ownedBlockKernels = std::make_shared<BlockKernels>(m_, L_.opt);
      k_.blockKernels = k_.ownedBlockKernels.get();
    }
  }
}

// Reachable functions by OpFunctionCall; recursion is rejected (OpenCL C 3.0 §6.11 [[restrictions]].i:
// "Recursion is not supported").
void KernelLowering::collectReachable(uint32_t entry) {
  std::set<uint32_t> done;
  std::vector<uint32_t> stack;
  // `call` is the OpFunctionCall that reached f (nullptr for the entry point).
  std::function<void(uint32_t, const Instruction*)> visit = [&](uint32_t f, const Instruction* call) {
    if (std::find(stack.begin(), stack.end(), f) != stack.end()) {
      std::string cycle;
      for (auto s : stack) cycle += m_.nameOf(s) + " → ";
      throw ModuleError("recursion is not allowed in OpenCL (OpenCL C 3.0 §6.11 [[restrictions]]): " + cycle +
                        m_.nameOf(f) + (call ? "\n  at " + m_.describe(L_.index(*call)) : ""));
    }
    if (done.count(f)) return;
    auto it = m_.functions.find(f);
    if (it == m_.functions.end()) throw ModuleError("call to undefined function %" + std::to_string(f));
    stack.push_back(f);
    order_.push_back(f);
    for (const Block& b : it->second.blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        if (inst.opcode == spv::Op::OpFunctionCall) {
          const auto callee = m_.functions.find(inst.operand(0));
          if (callee != m_.functions.end() && callee->second.isImport)
            L_.reject(inst,
                      "call to " + m_.nameOf(inst.operand(0)) + ", which is declared but not defined in this module");
          visit(inst.operand(0), &inst);
        }
      }
    stack.pop_back();
    done.insert(f);
  };
  visit(entry, nullptr);
}

void KernelLowering::lowerFunction(const Function& f) {
  L_.functionEntry_[f.id] = uint32_t(k_.ops.size());
  for (const Block& b : f.blocks) {
    // The shadow rules and the observers need every value in its own register (a value the undefined-value
    // tracking follows is never fused).
    if (!L_.opt.shadow && !L_.opt.observeInstructions) planFusion(b);
    L_.currentBlock = b.label;
    L_.labelOp_[b.label] = uint32_t(k_.ops.size());
    L_.labelCost_[b.label] = int64_t(b.instructions.size()) + 1;
    for (uint32_t idx : b.instructions) {
      const Instruction& inst = m_.instructions[idx];
      // OpUndef's register holds the undef value; debug information has no run-time effect.
      // Neither takes part in undefined-value tracking.
      if (inst.opcode == spv::Op::OpUndef || m_.isDebugInfo(inst)) continue;
      if (L_.opt.observeInstructions) emitObserveBefore(L_, inst);
      emitUndefCheck(L_, inst);
      emitShadowRuleBefore(L_, inst);
      lowerInstruction(L_, inst);
      emitShadowUpdate(L_, inst);
      emitShadowRuleAfter(L_, inst);
      if (L_.opt.observeInstructions) emitObserveAfter(L_, inst);
    }
  }
  L_.functionCost_[f.id] = f.blocks.empty() ? 0 : L_.labelCost_[f.blocks.front().label];
}

void KernelLowering::resolve(uint32_t entry) {
  for (const auto& [callee, e] : L_.callEdges_) callEdges_.insert(e);
  for (auto& fix : L_.fixups) fix();
  for (auto& e : k_.edges) {
    if (e.cost == 0 && L_.labelOp_.count(e.targetIndex)) {
      e.cost = L_.labelCost_.at(e.targetIndex);
      e.targetIndex = L_.labelOp_.at(e.targetIndex);
    }
  }
  for (auto& e : k_.edges) {
    e.target = &k_.ops.at(e.targetIndex);
    // Blocks are laid out dominators first (SPIR-V 1.0 §2.16.1 [external]), so an edge to a block at or
    // before its own is a loop's back-edge.
    e.backEdge = e.targetIndex <= e.sourceBlockOp && !isCallEdge(e);
  }
  // Work-items start in the kernel's body; when that is not the entry point itself, the arguments go to the body's
  // parameters.
  const uint32_t body = bodyOf(entry);
  if (body != entry) {
    const auto& params = m_.functions.at(body).parameters;
    for (size_t i = 0; i < k_.params.size(); ++i) k_.params[i].reg = L_.reg(params.at(i));
  }
  k_.entryOp = L_.functionEntry_.at(body);
  k_.entryCost = L_.functionCost_.at(body);
  k_.registerTemplate.resize(L_.regTop_ + 16, 0);
  if (L_.opt.observeInstructions) k_.registerOf.insert(L_.regs_.begin(), L_.regs_.end());
}

// llvm-spirv-15 makes each kernel's entry point a wrapper that only calls the kernel's own function with the entry
// point's parameters, in order, and returns (so that a kernel can call another). Starting work-items in the callee
// saves each one a call and a return; any other entry point is its own body.
uint32_t KernelLowering::bodyOf(uint32_t entry) const {
  if (k_.shader) return entry;  // its parameters are variables, not the entry function's
  const Function& f = m_.functions.at(entry);
  if (f.blocks.size() != 1) return entry;
  const Instruction* call = nullptr;
  bool returned = false;
  for (uint32_t idx : f.blocks.front().instructions) {
    const Instruction& inst = m_.instructions[idx];
    if (inst.opcode == spv::Op::OpLine || inst.opcode == spv::Op::OpNoLine || m_.isDebugInfo(inst)) continue;
    if (!call && inst.opcode == spv::Op::OpFunctionCall)
      call = &inst;
    else if (call && !returned && inst.opcode == spv::Op::OpReturn)
      returned = true;
    else
      return entry;
  }
  if (!call || !returned || L_.type(call->resultType).kind != TypeKind::Void) return entry;
  const auto g = m_.functions.find(call->operand(0));
  if (g == m_.functions.end() || g->second.isImport || g->second.blocks.empty()) return entry;
  const auto& from = f.parameters;
  const auto& to = g->second.parameters;
  if (to.size() != from.size() || call->operandCount() != 1 + from.size()) return entry;
  for (size_t i = 0; i < from.size(); ++i)
    if (call->operand(1 + i) != from[i] || m_.def(to[i]).resultType != m_.def(from[i]).resultType) return entry;
  return g->first;
}

namespace {

// Vulkan §A.4 [external] (Precision and Operation of SPIR-V Instructions): an entry point declared with
// DenormFlushToZero for a width flushes that width's denormals, one declared with DenormPreserve keeps them, whatever
// the device's setting; without either, flushing is the implementation's freedom ("may be flushed to zero"): the choice
// shader_denormals flushes every width, or leaves the device's setting to decide.
// Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: an entry point declared with RoundingModeRTE or
// RoundingModeRTZ for a width rounds that width's correctly rounded operations to nearest even or toward zero;
// without either they are rounded "with implementation-defined rounding mode" (the choice vulkan_rounding). OpenCL
// kernels keep rounding to nearest even.
void applyFloatControls(const Module& m, const std::string& name, LowerOptions& opt) {
  const EntryPoint* ep = m.entryPoint(name);
  if (!ep || !m.isVulkanShader()) return;
  numerics::Denorm* modes[3] = {&opt.denormHalf, &opt.denormFloat, &opt.denormDouble};
  const bool flush = opt.choices.get<numerics::Choice::ShaderDenormals>() == numerics::ShaderDenormalsOption::Flush;
  const bool implementationTowardZero =
      opt.choices.get<numerics::Choice::VulkanRounding>() == numerics::VulkanRoundingOption::TowardZero;
  for (int k = 0; k < 3; ++k) {
    const uint8_t bit = uint8_t(1 << k);
    if (flush) *modes[k] = numerics::Denorm::Flush;
    if (ep->denormFlushToZero & bit) *modes[k] = numerics::Denorm::Flush;
    if (ep->denormPreserve & bit) *modes[k] = numerics::Denorm::Preserve;
    if ((ep->roundingModeRTZ & bit) || (!(ep->roundingModeRTE & bit) && implementationTowardZero))
      opt.roundTowardZero |= bit;
  }
}

}  // namespace

std::unique_ptr<LoweredKernel> lowerKernel(const Module& module, const std::string& name, const LowerOptions& options) {
  auto k = std::make_unique<LoweredKernel>();
  LowerOptions opt = options;
  if (!opt.globals) opt.globals = std::make_shared<GlobalStorage>();
  applyFloatControls(module, name, opt);
  KernelLowering(module, opt, *k).run(name);
  return k;
}

std::unique_ptr<LoweredKernel> lowerKernelFunction(const Module& module, uint32_t function,
                                                   const LowerOptions& options) {
  auto k = std::make_unique<LoweredKernel>();
  LowerOptions opt = options;
  if (!opt.globals) opt.globals = std::make_shared<GlobalStorage>();
  if (!module.functions.count(function)) throw ModuleError("no function %" + std::to_string(function));
  KernelLowering(module, opt, *k).runFunction(function, module.nameOf(function));
  return k;
}

}  // namespace clref::interpreter
