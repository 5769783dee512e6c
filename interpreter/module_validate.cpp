// Validating a module for the OpenCL environment, or a shader module for the Vulkan one, with SPIRV-Tools
// (Module::load), and the validation copy that works around llvm-spirv-15's layout: debug information SPIRV-Tools
// rejects left out, blocks reordered, merge instructions dropped, BuiltIn components clamped, repeated OpPhi pairs
// merged, SPIR-V 1.4 scalar-condition vector selects shown to the validator as copies.
#include <algorithm>

#include <spirv-tools/libspirv.hpp>

#include "interpreter/module.hpp"

namespace clref::interpreter {

// module_parse.cpp: refuses an extended instruction whose <id> operand is the result of a void-typed instruction.
void rejectVoidOperands(const std::vector<Instruction>& instructions,
                        const std::vector<std::pair<uint32_t, uint32_t>>& extInstIds);

namespace {

// Which SPIRV-Tools environment validates a module of this version for an OpenCL 3.0 device.
// SPIRV-Tools 2023.1 has OpenCL environments up to 2.2 (SPIR-V 1.2); for SPIR-V 1.3 to 1.6
// (OpenCL 3.0 devices may accept them, OpenCL SPIR-V Environment §2.1 [[_supported_spir_v_versions]]) the universal
// environment of that version is the closest check available.
//
// SPIRV-Tools' OpenCL environments refuse OpCapability Float16 (cl_khr_fp16 allows it in
// kernels: OpenCL SPIR-V Environment §3.1 [[required-capabilities-1.0]]) and OpCapability Int64Atomics (which a device
// with cl_khr_int64_base_atomics must accept: OpenCL SPIR-V Environment §5 [[opencl_extensions]]), so a module
// declaring either is validated in the universal environment of its version instead; likewise OpCapability
// NamedBarrier, which a device with cl_khr_subgroup_named_barrier must accept (OpenCL SPIR-V Environment §5
// [[opencl_extensions]]).
spv_target_env validationEnv(uint32_t version, bool universal) {
  const uint32_t minor = (version >> 8) & 0xff;
  if ((version >> 16) != 1) return SPV_ENV_OPENCL_2_2;
  switch (minor) {
    case 0: return universal ? SPV_ENV_UNIVERSAL_1_0 : SPV_ENV_OPENCL_2_2;
    case 1: return universal ? SPV_ENV_UNIVERSAL_1_1 : SPV_ENV_OPENCL_2_2;
    case 2: return universal ? SPV_ENV_UNIVERSAL_1_2 : SPV_ENV_OPENCL_2_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    case 4: return SPV_ENV_UNIVERSAL_1_4;
    case 5: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

bool universalCapabilities(const Module& m) {
  return m.hasCapability(spv::Capability::Float16) || m.hasCapability(spv::Capability::Int64Atomics) ||
         m.hasCapability(spv::Capability::NamedBarrier);
}

// Which SPIRV-Tools environment validates a shader module of this version: Vulkan §A.1 [external] (Versions and
// Formats) — Vulkan 1.0 accepts SPIR-V 1.0, Vulkan 1.1 up to 1.3 (1.4 with VK_KHR_spirv_1_4), Vulkan 1.2 up to 1.5,
// Vulkan 1.3 up to 1.6. The module is checked against the first Vulkan version that accepts its SPIR-V version, so
// that it is held to the rules of the environment it was compiled for.
spv_target_env vulkanValidationEnv(uint32_t version) {
  const uint32_t minor = (version >> 8) & 0xff;
  if ((version >> 16) != 1) return SPV_ENV_VULKAN_1_3;
  switch (minor) {
    case 0: return SPV_ENV_VULKAN_1_0;
    case 1:
    case 2:
    case 3: return SPV_ENV_VULKAN_1_1;
    case 4: return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
    case 5: return SPV_ENV_VULKAN_1_2;
    default: return SPV_ENV_VULKAN_1_3;
  }
}

}  // namespace

// A shader module (Module::isVulkanShader) validated in the Vulkan environment of its version, with none of the
// llvm-spirv-15 allowances OpenCL modules get (glslang and spirv-as output is validator-clean), and with at least one
// GLCompute entry point: clref handles compute shaders only.
Module Module::loadVulkanShader(Module m) {
  const spv_target_env env = vulkanValidationEnv(m.version());
  spvtools::SpirvTools tools(env);
  std::string failure;
  size_t failureWord = SIZE_MAX;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level <= SPV_MSG_ERROR && failure.empty()) {
      failure = msg;
      failureWord = pos.index;
    }
  });
  spvtools::ValidatorOptions options;
  // Vulkan §15.6.4 [external] Offset and Stride Assignment: with the feature scalarBlockLayout
  // (VkPhysicalDeviceScalarBlockLayoutFeatures), which clref has, blocks may be laid out with scalar alignment
  // (GLSL's layout(scalar)); the validator checks the stricter layouts' rules unless told.
  options.SetScalarBlockLayout(true);
  if (!tools.Validate(m.words_.data(), m.words_.size(), options)) {
    std::string where;
    if (failureWord != SIZE_MAX && failureWord >= 1 && failureWord <= m.instructions.size())
      where = "\n  at " + m.describe(uint32_t(failureWord - 1));
    throw ModuleError("SPIR-V validation failed (" + std::string(spvTargetEnvDescription(env)) +
                      "): " + (failure.empty() ? "unknown reason" : failure) + where);
  }
  if (m.computeShaders.empty())
    throw ModuleError("the shader module has no GLCompute entry point: clref handles Vulkan compute shaders only");
  m.completeTables();
  m.checkRulesBeyondValidator();
  return m;
}

Module Module::load(std::vector<uint32_t> words) {
  // Parse the instructions first so the validator's message can quote the disassembled
  // instruction; nothing is computed from their values (type layout, debug names) until the
  // module has validated.
  Module m = parseInstructions(std::move(words));
  if (m.isVulkanShader()) return loadVulkanShader(std::move(m));
  rejectVoidOperands(m.instructions, m.extInstIdOperands_);
  spvtools::SpirvTools tools(validationEnv(m.version(), universalCapabilities(m)));
  std::string failure;
  size_t failureWord = SIZE_MAX;  // instruction ordinal from the validator
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level <= SPV_MSG_ERROR && failure.empty()) {
      failure = msg;
      failureWord = pos.index;
    }
  });
  spvtools::ValidatorOptions options;
  bool valid = tools.Validate(m.words_.data(), m.words_.size(), options);
  if (!valid && m.hasDebugInfoSet()) {
    // llvm-spirv-15 emits OpenCL.DebugInfo.100 that SPIRV-Tools rejects (e.g. DebugTypePointer
    // with a composite base type). Debug information has no run-time meaning, so the module is
    // accepted when it validates without it; clref still uses its OpLine source locations.
    const std::string firstFailure = failure;
    failure.clear();
    const auto stripped = m.withoutDebugInfo();
    valid = tools.Validate(stripped.data(), stripped.size(), options);
    if (!valid) failure = firstFailure;
  }
  if (!valid) {
    // llvm-spirv-15 output breaks four layout rules that carry no meaning for execution (and image modules meet
    // two SPIRV-Tools refusals of what cl_khr_mipmap_image allows, see normalizedForValidation and appendFixed):
    // an -O2 loop's exit block laid out before the loop header (an id used before the block
    // that defines it; SPIR-V 1.0 §2.16.1 [external] wants dominators first), OpVariables outside the
    // first block (SPIR-V 1.0 §2.16.1 [external]), a constant out-of-range component of a work-item BuiltIn vector
    // (get_global_id(4), which OpenCL C 3.0 §6.15.1 [[work-item-functions]] defines as 0), and unroll hints as
    // malformed OpLoopMerge instructions (SPIR-V 1.0 §2.16.2 [external]; merges carry no meaning in Kernel modules).
    // The module is accepted when a copy with those fixed validates; clref runs the module as given.
    const std::string firstFailure = failure;
    failure.clear();
    auto reordered = m.normalizedForValidation();
    valid = tools.Validate(reordered.data(), reordered.size(), options);
    if (!valid && m.hasDebugInfoSet()) {
      failure.clear();
      reordered = Module::parseInstructions(std::move(reordered)).withoutDebugInfo();
      valid = tools.Validate(reordered.data(), reordered.size(), options);
    }
    failure = firstFailure;
  }
  if (!valid) {
    // The validator reports the failing instruction's ordinal (1-based) as the position index.
    std::string where;
    if (failureWord != SIZE_MAX && failureWord >= 1 && failureWord <= m.instructions.size())
      where = "\n  at " + m.describe(uint32_t(failureWord - 1));
    throw ModuleError(
        "SPIR-V validation failed (" +
        std::string(spvTargetEnvDescription(validationEnv(m.version(), universalCapabilities(m)))) +
        "): " + (failure.empty() ? "unknown reason" : failure) + where);
  }
  m.completeTables();
  m.checkRulesBeyondValidator();
  return m;
}

bool Module::hasDebugInfoSet() const {
  for (const auto& [id, name] : extInstImports)
    if (debugInfoSetOf(name) != DebugInfoSet::None) return true;
  return false;
}

std::vector<uint32_t> Module::withoutDebugInfo() const {
  std::vector<uint32_t> out(words_.begin(), words_.begin() + 5);
  for (const auto& inst : instructions) {
    if (isDebugInfo(inst)) continue;
    if (inst.opcode == spv::Op::OpExtInstImport && debugInfoSet(inst.words[1]) != DebugInfoSet::None) continue;
    out.insert(out.end(), inst.words.begin(), inst.words.end());
  }
  return out;
}

// An instruction as the validator should see it: a constant out-of-range component of a
// BuiltIn vector becomes component 0 (the lowering gives it the OpenCL C value).
void Module::appendFixed(const Instruction& inst, std::vector<uint32_t>& out) const {
  const size_t at = out.size();
  // SPIR-V 1.4 §3.32.15 [external] OpSelect: a scalar Condition with composite objects selects whole objects; before
  // 1.4 the Condition of a vector select must be a vector of as many components. llvm-spirv-15 emits the 1.4 form at
  // every version (a ?: with a scalar condition and vector operands), which the interpreter executes as 1.4 defines;
  // once its shape is checked here (a Boolean scalar condition, both objects of the result type), the validator sees
  // an OpCopyObject of Object 1 in its place.
  if (inst.opcode == spv::Op::OpSelect && inst.words.size() == 6 && version() < 0x00010400u) {
    const Instruction* cond = findDef(inst.words[3]);
    const Instruction* a = findDef(inst.words[4]);
    const Instruction* b = findDef(inst.words[5]);
    const auto type = [&](uint32_t id) { return types.count(id) ? &types.at(id) : nullptr; };
    const Type* rt = type(inst.words[1]);
    const Type* ct = cond ? type(cond->resultType) : nullptr;
    if (rt && ct && a && b && rt->kind == TypeKind::Vector && ct->kind == TypeKind::Bool &&
        a->resultType == inst.words[1] && b->resultType == inst.words[1]) {
      out.insert(out.end(), {(4u << 16) | uint32_t(spv::Op::OpCopyObject), inst.words[1], inst.words[2], inst.words[4]});
      return;
    }
  }
  // SPIR-V 1.0 §3.32.17 [external] OpPhi: one (value, parent) pair per parent block. llvm-spirv-15 repeats the pair of
  // a switch whose cases branch to one block (LLVM IR lists a phi entry per edge); the pairs are identical, so the
  // copy keeps the first. A parent listed twice with different values is still refused.
  if (inst.opcode == spv::Op::OpPhi && inst.words.size() > 3) {
    out.insert(out.end(), inst.words.begin(), inst.words.begin() + 3);
    for (size_t k = 3; k + 1 < inst.words.size(); k += 2) {
      bool repeated = false;
      for (size_t j = 3; j < k; j += 2)
        repeated = repeated || (inst.words[j] == inst.words[k] && inst.words[j + 1] == inst.words[k + 1]);
      if (!repeated) out.insert(out.end(), {inst.words[k], inst.words[k + 1]});
    }
    out[at] = (uint32_t(out.size() - at) << 16) | (out[at] & 0xffff);
    return;
  }
  out.insert(out.end(), inst.words.begin(), inst.words.end());
  if (inst.opcode == spv::Op::OpCompositeExtract && inst.words.size() == 5 && isBuiltinLoad(inst.words[3])) {
    const Instruction& load = *findDef(inst.words[3]);
    if (types.count(load.resultType) && inst.words[4] >= types.at(load.resultType).count) out[at + 4] = 0;
  }
  // OpenCL SPIR-V Environment §5 [[opencl_extensions]]: cl_khr_mipmap_image and cl_khr_mipmap_image_writes allow a
  // Lod image operand on OpImageRead and OpImageWrite, which SPIRV-Tools 2023.1 refuses in every environment
  // ("Optional Image Operands are not allowed in the OpenCL environment", "Lod can only be used with ExplicitLod
  // opcodes"); the validation copy leaves the Lod out.
  const size_t maskWord = inst.opcode == spv::Op::OpImageRead ? 5 : inst.opcode == spv::Op::OpImageWrite ? 4 : 0;
  constexpr uint32_t kBias = 0x1, kLod = 0x2;
  if (maskWord && inst.words.size() > maskWord + 1 && (inst.words[maskWord] & kLod) &&
      !(inst.words[maskWord] & kBias)) {
    const uint32_t mask = inst.words[maskWord] & ~kLod;
    out.erase(out.begin() + long(at + maskWord + 1));  // the Lod operand follows the mask (no Bias before it)
    if (mask)
      out[at + maskWord] = mask;
    else
      out.erase(out.begin() + long(at + maskWord));
    const uint32_t count = uint32_t(out.size() - at);
    out[at] = (count << 16) | (out[at] & 0xffff);
  }
}

namespace {
// llvm-spirv-15 turns an unroll hint (opencl_unroll_hint) into OpLoopMerge instructions that
// break SPIR-V 1.0 §2.16.2 [external]: in the middle of a latch block, or naming one block as both merge
// block and continue target. Merge instructions only declare structure, which Kernel modules
// need not have (the OpenCL SPIR-V environment requires no structured control flow) and the
// interpreter does not use; the validation copy leaves them all out.
bool isMerge(const Instruction& inst) {
  return inst.opcode == spv::Op::OpLoopMerge || inst.opcode == spv::Op::OpSelectionMerge;
}
}  // namespace

std::vector<uint32_t> Module::normalizedForValidation() const {
  std::vector<uint32_t> out(words_.begin(), words_.begin() + 5);
  auto append = [&](const Instruction& inst) { out.insert(out.end(), inst.words.begin(), inst.words.end()); };
  size_t i = 0;
  while (i < instructions.size()) {
    // OpenCL SPIR-V Environment §5 [[opencl_extensions]]: a device with cl_khr_mipmap_image and
    // cl_khr_mipmap_image_writes supports the ImageMipmap capability, which SPIRV-Tools' OpenCL environments refuse;
    // the validation copy leaves the declaration out.
    if (instructions[i].opcode == spv::Op::OpCapability && instructions[i].words.size() == 2 &&
        instructions[i].words[1] == uint32_t(spv::Capability::ImageMipmap)) {
      ++i;
      continue;
    }
    if (instructions[i].opcode != spv::Op::OpFunction) {
      append(instructions[i++]);
      continue;
    }
    // Function header: OpFunction and its parameters.
    append(instructions[i++]);
    while (i < instructions.size() && instructions[i].opcode == spv::Op::OpFunctionParameter) append(instructions[i++]);
    // Blocks: from an OpLabel (with any debug lines before it) to its terminator.
    struct RawBlock {
      uint32_t label = 0;
      std::vector<size_t> insts;
      std::vector<uint32_t> successors;
    };
    std::vector<RawBlock> blocks;
    std::vector<size_t> pending;  // instructions between a terminator and the next OpLabel
    bool inBlock = false;
    while (i < instructions.size() && instructions[i].opcode != spv::Op::OpFunctionEnd) {
      const Instruction& inst = instructions[i];
      if (inst.opcode == spv::Op::OpLabel) {
        blocks.push_back({inst.words[1], std::move(pending), {}});
        pending.clear();
        inBlock = true;
      }
      (inBlock ? blocks.back().insts : pending).push_back(i);
      // A terminator outside a block (before the first OpLabel or after another terminator)
      // ends nothing: SPIR-V 1.0 §2.16.1 [external] makes the module invalid, and the copy
      // keeps it where it is for the validator to refuse.
      if (!inBlock) {
        ++i;
        continue;
      }
      switch (inst.opcode) {
        case spv::Op::OpBranch:
          blocks.back().successors = {inst.words[1]};
          inBlock = false;
          break;
        case spv::Op::OpBranchConditional:
          blocks.back().successors = {inst.words[2], inst.words[3]};
          inBlock = false;
          break;
        case spv::Op::OpSwitch: {
          // (literal, label) pairs; a literal takes two words for a 64-bit selector.
          const Instruction* sel = findDef(inst.words[1]);
          const size_t litWords = sel && types.count(sel->resultType) && types.at(sel->resultType).width > 32 ? 2 : 1;
          blocks.back().successors = {inst.words[2]};
          for (size_t k = 3 + litWords; k < inst.words.size(); k += litWords + 1)
            blocks.back().successors.push_back(inst.words[k]);
          inBlock = false;
          break;
        }
        case spv::Op::OpReturn:
        case spv::Op::OpReturnValue:
        case spv::Op::OpUnreachable:
        case spv::Op::OpKill: inBlock = false; break;
        default: break;
      }
      ++i;
    }
    // Reverse post-order from the entry block; unreachable blocks keep their place at the end.
    std::unordered_map<uint32_t, size_t> indexOf;
    for (size_t b = 0; b < blocks.size(); ++b) indexOf[blocks[b].label] = b;
    std::vector<char> seen(blocks.size(), 0);
    std::vector<size_t> post;
    std::vector<std::pair<size_t, size_t>> stack;  // (block, next successor)
    if (!blocks.empty()) {
      stack.push_back({0, 0});
      seen[0] = 1;
    }
    while (!stack.empty()) {
      auto& [b, k] = stack.back();
      if (k < blocks[b].successors.size()) {
        auto it = indexOf.find(blocks[b].successors[k++]);
        if (it != indexOf.end() && !seen[it->second]) {
          seen[it->second] = 1;
          stack.push_back({it->second, 0});
        }
      } else {
        post.push_back(b);
        stack.pop_back();
      }
    }
    std::vector<size_t> order(post.rbegin(), post.rend());
    for (size_t b = 0; b < blocks.size(); ++b)
      if (!seen[b]) order.push_back(b);
    // Every function-scope OpVariable goes right after the entry block's OpLabel.
    std::vector<size_t> variables;
    for (const auto& blk : blocks)
      for (size_t k : blk.insts)
        if (instructions[k].opcode == spv::Op::OpVariable) variables.push_back(k);
    bool first = true;
    for (size_t b : order) {
      for (size_t k : blocks[b].insts) {
        const Instruction& inst = instructions[k];
        if (inst.opcode == spv::Op::OpVariable || isMerge(inst)) continue;
        appendFixed(inst, out);
        if (first && inst.opcode == spv::Op::OpLabel) {
          for (size_t v : variables) append(instructions[v]);
          first = false;
        }
      }
    }
    for (size_t k : pending) append(instructions[k]);
  }
  return out;
}

}  // namespace clref::interpreter
