#include "interpreter/module.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>

#include <spirv-tools/libspirv.hpp>

namespace clref::interpreter {

std::string literalString(const std::vector<uint32_t>& words, size_t start, size_t* nextWord) {
  std::string s;
  size_t w = start;
  for (; w < words.size(); ++w) {
    bool end = false;
    for (int b = 0; b < 4; ++b) {
      const char c = char((words[w] >> (8 * b)) & 0xff);
      if (c == 0) {
        end = true;
        break;
      }
      s.push_back(c);
    }
    if (end) {
      ++w;
      break;
    }
  }
  if (nextWord) *nextWord = w;
  return s;
}

namespace {

struct ParseState {
  Module* module;
};

spv_result_t onHeader(void*, spv_endianness_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) { return SPV_SUCCESS; }

spv_result_t onInstruction(void* user, const spv_parsed_instruction_t* parsed) {
  auto* st = static_cast<ParseState*>(user);
  Instruction inst;
  inst.opcode = spv::Op(parsed->opcode);
  inst.resultType = parsed->type_id;
  inst.resultId = parsed->result_id;
  inst.words.assign(parsed->words, parsed->words + parsed->num_words);
  inst.firstOperand = 1 + (parsed->type_id ? 1 : 0) + (parsed->result_id ? 1 : 0);
  if (inst.opcode == spv::Op::OpExtInst) inst.extInstSet = parsed->words[3];
  st->module->instructions.push_back(std::move(inst));
  return SPV_SUCCESS;
}

// Which SPIRV-Tools environment validates a module of this version for an OpenCL 3.0 device.
// SPIRV-Tools 2023.1 has OpenCL environments up to 2.2 (SPIR-V 1.2); for SPIR-V 1.3 and 1.4
// (OpenCL 3.0 devices may accept them, OpenCL SPIR-V Environment §2.1) the universal
// environment of that version is the closest check available.
//
// SPIRV-Tools' OpenCL environments refuse OpCapability Float16 (cl_khr_fp16 allows it in
// kernels: OpenCL SPIR-V Environment §5.2.2), so a module declaring it is validated in the
// universal environment of its version instead.
spv_target_env validationEnv(uint32_t version, bool declaresFloat16) {
  const uint32_t minor = (version >> 8) & 0xff;
  if ((version >> 16) != 1) return SPV_ENV_OPENCL_2_2;
  switch (minor) {
    case 0: return declaresFloat16 ? SPV_ENV_UNIVERSAL_1_0 : SPV_ENV_OPENCL_2_2;
    case 1: return declaresFloat16 ? SPV_ENV_UNIVERSAL_1_1 : SPV_ENV_OPENCL_2_2;
    case 2: return declaresFloat16 ? SPV_ENV_UNIVERSAL_1_2 : SPV_ENV_OPENCL_2_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    default: return SPV_ENV_UNIVERSAL_1_4;
  }
}

}  // namespace

Module Module::parse(std::vector<uint32_t> words) {
  Module m;
  m.words_ = std::move(words);
  if (m.words_.size() < 5 || m.words_[0] != spv::MagicNumber)
    throw ModuleError("not a SPIR-V module: " +
                      (m.words_.empty() ? std::string("empty input") : "bad magic number or header"));
  ParseState st{&m};
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
  spv_diagnostic diag = nullptr;
  const spv_result_t r = spvBinaryParse(ctx, &st, m.words_.data(), m.words_.size(), onHeader, onInstruction, &diag);
  std::string message;
  if (r != SPV_SUCCESS) {
    message = diag ? diag->error : "unknown parse error";
    if (diag) message = "word " + std::to_string(diag->position.index) + ": " + message;
  }
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  if (r != SPV_SUCCESS) throw ModuleError("malformed SPIR-V: " + message);
  m.buildTables();
  m.layoutTypes();
  m.readDebugParamNames();
  return m;
}

Module Module::load(std::vector<uint32_t> words) {
  // Parse first so the validator's message can quote the disassembled instruction.
  Module m = parse(std::move(words));
  spvtools::SpirvTools tools(validationEnv(m.version(), m.hasCapability(spv::Capability::Float16)));
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
    // llvm-spirv-15 output breaks four layout rules that carry no meaning for execution:
    // an -O2 loop's exit block laid out before the loop header (an id used before the block
    // that defines it; SPIR-V 1.0 §2.16.1 wants dominators first), OpVariables outside the
    // first block (§2.16.1), a constant out-of-range component of a work-item BuiltIn vector
    // (get_global_id(4), which OpenCL C 3.0 §6.15.1 defines as 0), and unroll hints as
    // malformed OpLoopMerge instructions (§2.16.2; merges carry no meaning in Kernel modules). The module is
    // accepted when a copy with those fixed validates; clref runs the module as given.
    const std::string firstFailure = failure;
    failure.clear();
    auto reordered = m.normalizedForValidation();
    valid = tools.Validate(reordered.data(), reordered.size(), options);
    if (!valid && m.hasDebugInfoSet()) {
      failure.clear();
      reordered = Module::parse(std::move(reordered)).withoutDebugInfo();
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
        std::string(spvTargetEnvDescription(validationEnv(m.version(), m.hasCapability(spv::Capability::Float16)))) +
        "): " + (failure.empty() ? "unknown reason" : failure) + where);
  }
  return m;
}

bool Module::hasDebugInfoSet() const {
  for (const auto& [id, name] : extInstImports)
    if (name.rfind("OpenCL.DebugInfo", 0) == 0 || name.rfind("NonSemantic.", 0) == 0) return true;
  return false;
}

std::vector<uint32_t> Module::withoutDebugInfo() const {
  std::vector<uint32_t> out(words_.begin(), words_.begin() + 5);
  auto isDebugSet = [&](uint32_t id) {
    auto it = extInstImports.find(id);
    return it != extInstImports.end() &&
           (it->second.rfind("OpenCL.DebugInfo", 0) == 0 || it->second.rfind("NonSemantic.", 0) == 0);
  };
  for (const auto& inst : instructions) {
    if (inst.opcode == spv::Op::OpExtInst && isDebugSet(inst.extInstSet)) continue;
    if (inst.opcode == spv::Op::OpExtInstImport && isDebugSet(inst.words[1])) continue;
    out.insert(out.end(), inst.words.begin(), inst.words.end());
  }
  return out;
}

bool Module::isBuiltinLoad(uint32_t id) const {
  const Instruction* d = findDef(id);
  return d && d->opcode == spv::Op::OpLoad && hasDecoration(d->operand(0), spv::Decoration::BuiltIn);
}

// An instruction as the validator should see it: a constant out-of-range component of a
// BuiltIn vector becomes component 0 (the lowering gives it the OpenCL C value).
void Module::appendFixed(const Instruction& inst, std::vector<uint32_t>& out) const {
  const size_t at = out.size();
  out.insert(out.end(), inst.words.begin(), inst.words.end());
  if (inst.opcode == spv::Op::OpCompositeExtract && inst.words.size() == 5 && isBuiltinLoad(inst.words[3])) {
    const Instruction& load = *findDef(inst.words[3]);
    if (types.count(load.resultType) && inst.words[4] >= types.at(load.resultType).count) out[at + 4] = 0;
  }
}

namespace {
// llvm-spirv-15 turns an unroll hint (opencl_unroll_hint) into OpLoopMerge instructions that
// break SPIR-V 1.0 §2.16.2: in the middle of a latch block, or naming one block as both merge
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

void Module::buildTables() {
  uint32_t offset = 5;
  Function* current = nullptr;
  Block* block = nullptr;
  SourceLocation line;
  bool haveLine = false;
  for (uint32_t i = 0; i < instructions.size(); ++i) {
    auto& inst = instructions[i];
    inst.wordOffset = offset;
    offset += uint32_t(inst.words.size());
    if (inst.resultId) definitionOf[inst.resultId] = i;
    const auto& w = inst.words;
    using spv::Op;
    switch (inst.opcode) {
      case Op::OpCapability: capabilities.push_back(spv::Capability(w[1])); break;
      case Op::OpExtension: extensions.push_back(literalString(w, 1)); break;
      case Op::OpExtInstImport: extInstImports[w[1]] = literalString(w, 2); break;
      case Op::OpMemoryModel: addressing = spv::AddressingModel(w[1]); break;
      case Op::OpString: strings[w[1]] = literalString(w, 2); break;
      case Op::OpName: names[w[1]] = literalString(w, 2); break;
      case Op::OpEntryPoint: {
        EntryPoint ep;
        ep.function = w[2];
        size_t next = 0;
        ep.name = literalString(w, 3, &next);
        ep.interface.assign(w.begin() + long(next), w.end());
        if (spv::ExecutionModel(w[1]) == spv::ExecutionModel::Kernel) entryPoints.push_back(std::move(ep));
        break;
      }
      case Op::OpExecutionMode: {
        for (auto& ep : entryPoints) {
          if (ep.function != w[1]) continue;
          const auto mode = spv::ExecutionMode(w[2]);
          if (mode == spv::ExecutionMode::LocalSize) ep.requiredLocalSize = std::array<uint32_t, 3>{w[3], w[4], w[5]};
          if (mode == spv::ExecutionMode::ContractionOff) ep.contractionOff = true;
        }
        break;
      }
      case Op::OpDecorate: {
        Decoration d{spv::Decoration(w[2]), {w.begin() + 3, w.end()}, -1};
        decorations[w[1]].push_back(std::move(d));
        break;
      }
      case Op::OpMemberDecorate: {
        Decoration d{spv::Decoration(w[3]), {w.begin() + 4, w.end()}, int32_t(w[2])};
        decorations[w[1]].push_back(std::move(d));
        break;
      }
      case Op::OpDecorationGroup: break;
      case Op::OpGroupDecorate: {
        const auto groupIt = decorations.find(w[1]);
        if (groupIt == decorations.end()) break;
        const auto group = groupIt->second;
        for (size_t k = 2; k < w.size(); ++k)
          for (const auto& d : group) decorations[w[k]].push_back(d);
        break;
      }
      case Op::OpGroupMemberDecorate: {
        const auto groupIt = decorations.find(w[1]);
        if (groupIt == decorations.end()) break;
        const auto group = groupIt->second;
        for (size_t k = 2; k + 1 < w.size(); k += 2)
          for (auto d : group) {
            d.member = int32_t(w[k + 1]);
            decorations[w[k]].push_back(d);
          }
        break;
      }
      case Op::OpTypeVoid: types[w[1]] = Type(TypeKind::Void); break;
      case Op::OpTypeBool: types[w[1]] = Type(TypeKind::Bool); break;
      case Op::OpTypeInt: {
        Type t{TypeKind::Int};
        t.width = w[2];
        t.isSigned = w[3];
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeFloat: {
        Type t{TypeKind::Float};
        t.width = w[2];
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeVector: {
        Type t{TypeKind::Vector};
        t.element = w[2];
        t.count = w[3];
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeArray: {
        Type t{TypeKind::Array};
        t.element = w[2];
        t.count = w[3] /* length id */;
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeRuntimeArray: {
        Type t{TypeKind::RuntimeArray};
        t.element = w[2];
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeStruct: {
        Type t{TypeKind::Struct};
        t.members.assign(w.begin() + 2, w.end());
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeOpaque: types[w[1]] = Type(TypeKind::Opaque); break;
      case Op::OpTypePointer: {
        Type t{TypeKind::Pointer};
        t.storage = spv::StorageClass(w[2]);
        t.element = w[3];
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeForwardPointer: break;
      case Op::OpTypeFunction: {
        Type t{TypeKind::Function};
        t.members.assign(w.begin() + 2, w.end());
        types[w[1]] = t;
        break;
      }
      case Op::OpTypeEvent: types[w[1]] = Type(TypeKind::Event); break;
      case Op::OpTypeDeviceEvent: types[w[1]] = Type(TypeKind::DeviceEvent); break;
      case Op::OpTypeReserveId: types[w[1]] = Type(TypeKind::ReserveId); break;
      case Op::OpTypeQueue: types[w[1]] = Type(TypeKind::Queue); break;
      case Op::OpTypePipe: types[w[1]] = Type(TypeKind::Pipe); break;
      case Op::OpTypeImage: types[w[1]] = Type(TypeKind::Image); break;
      case Op::OpTypeSampler: types[w[1]] = Type(TypeKind::Sampler); break;
      case Op::OpTypeSampledImage: types[w[1]] = Type(TypeKind::SampledImage); break;
      case Op::OpVariable:
        if (current) {
          current->variables.push_back(w[2]);
          if (block) block->instructions.push_back(i);
        } else {
          globalVariables.push_back(w[2]);
        }
        break;
      case Op::OpFunction: {
        Function f;
        f.id = w[2];
        f.resultType = w[1];
        f.functionType = w[4];
        f.definition = i;
        current = &functions.emplace(f.id, std::move(f)).first->second;
        block = nullptr;
        break;
      }
      case Op::OpFunctionParameter:
        if (current) current->parameters.push_back(w[2]);
        break;
      case Op::OpFunctionEnd:
        if (current && current->blocks.empty()) current->isImport = true;
        current = nullptr;
        block = nullptr;
        break;
      case Op::OpLabel:
        if (current) {
          current->blocks.push_back(Block{w[1], {}});
          block = &current->blocks.back();
        }
        break;
      case Op::OpLine:
        haveLine = true;
        line = SourceLocation{"", w[2], w[3]};
        if (auto it = strings.find(w[1]); it != strings.end()) line.file = it->second;
        break;
      case Op::OpNoLine: haveLine = false; break;
      default:
        if (block) block->instructions.push_back(i);
        break;
    }
    if (haveLine && block && inst.opcode != spv::Op::OpLine) lineOf[i] = line;
    // SPIR-V 1.0 §2.4: OpLine scope ends at the end of a block.
    if (inst.opcode == spv::Op::OpBranch || inst.opcode == spv::Op::OpBranchConditional ||
        inst.opcode == spv::Op::OpSwitch || inst.opcode == spv::Op::OpReturn || inst.opcode == spv::Op::OpReturnValue ||
        inst.opcode == spv::Op::OpUnreachable || inst.opcode == spv::Op::OpKill)
      haveLine = false;
  }
}

// OpenCL.DebugInfo.100 §4: DebugFunction (20) names the function it describes in operand
// 'Function'; DebugLocalVariable (26) with an 'Arg Number' is that function's parameter.
void Module::readDebugParamNames() {
  constexpr uint32_t kDebugFunction = 20, kDebugLocalVariable = 26;
  std::unordered_map<uint32_t, uint32_t> functionOfScope;  // DebugFunction id → OpFunction id
  auto isDebugSet = [&](uint32_t set) {
    auto it = extInstImports.find(set);
    return it != extInstImports.end() && it->second.rfind("OpenCL.DebugInfo", 0) == 0;
  };
  for (const auto& inst : instructions) {
    if (inst.opcode != spv::Op::OpExtInst || !isDebugSet(inst.extInstSet)) continue;
    // operand(0) is the set, operand(1) the instruction, then the instruction's own operands.
    if (inst.operand(1) == kDebugFunction && inst.operandCount() > 11)
      functionOfScope[inst.resultId] = inst.operand(11);
    if (inst.operand(1) == kDebugLocalVariable && inst.operandCount() > 9) {
      auto fn = functionOfScope.find(inst.operand(7));
      auto name = strings.find(inst.operand(2));
      const uint32_t arg = inst.operand(9);
      if (fn == functionOfScope.end() || name == strings.end() || arg == 0) continue;
      auto& names = debugParamNames[fn->second];
      if (names.size() < arg) names.resize(arg);
      names[arg - 1] = name->second;
    }
  }
}

// OpenCL C 3.0 §6.3.5 (alignment of types): scalars and vectors are aligned to their size, a
// 3-component vector to 4 components; structs to their most aligned member unless CPacked.
void Module::layoutTypes() {
  const uint32_t ptrBytes = addressing == spv::AddressingModel::Physical32 ? 4 : 8;
  // Types are defined before use (SPIR-V 1.0 §2.4), so one pass in instruction order works.
  for (const auto& inst : instructions) {
    if (inst.opcode < spv::Op::OpTypeVoid || inst.opcode > spv::Op::OpTypeForwardPointer) continue;
    if (inst.opcode == spv::Op::OpTypeForwardPointer) continue;
    auto it = types.find(inst.resultId ? inst.resultId : inst.words[1]);
    if (it == types.end()) continue;
    Type& t = it->second;
    switch (t.kind) {
      case TypeKind::Bool:
        t.size = 1;
        t.align = 1;
        break;
      case TypeKind::Int:
      case TypeKind::Float:
        t.size = t.width / 8;
        t.align = uint32_t(t.size);
        break;
      case TypeKind::Vector: {
        const Type& e = types.at(t.element);
        const uint32_t slots = t.count == 3 ? 4 : t.count;
        t.size = e.size * slots;
        t.align = uint32_t(t.size);
        t.stride = e.size;
        break;
      }
      case TypeKind::Array: {
        const Type& e = types.at(t.element);
        // The length is a constant id; read its value directly (OpConstant of an int type).
        const auto& lenDef = def(t.count);
        uint64_t n = lenDef.words.size() > 3 ? lenDef.words[3] : 0;
        if (lenDef.words.size() > 4) n |= uint64_t(lenDef.words[4]) << 32;
        t.count = uint32_t(n);
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
        t.size = t.stride * n;
        t.align = e.align;
        break;
      }
      case TypeKind::RuntimeArray: {
        const Type& e = types.at(t.element);
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
        t.size = 0;
        t.align = e.align;
        break;
      }
      case TypeKind::Struct: {
        const uint32_t id = inst.words[1];
        const bool packed = hasDecoration(id, spv::Decoration::CPacked);
        uint64_t off = 0;
        uint32_t align = 1;
        t.memberOffsets.clear();
        for (size_t k = 0; k < t.members.size(); ++k) {
          const Type& m = types.at(t.members[k]);
          const uint32_t ma = packed ? 1 : m.align;
          off = (off + ma - 1) / ma * ma;
          for (const auto& d : decorations[id])
            if (d.member == int32_t(k) && d.kind == spv::Decoration::Offset) off = d.literals[0];
          t.memberOffsets.push_back(off);
          off += m.size;
          align = std::max(align, ma);
        }
        t.align = align;
        t.size = (off + align - 1) / align * align;
        break;
      }
      case TypeKind::Pointer:
      case TypeKind::Event:
      case TypeKind::DeviceEvent:
      case TypeKind::ReserveId:
      case TypeKind::Queue:
      case TypeKind::Pipe:
      case TypeKind::Image:
      case TypeKind::Sampler:
      case TypeKind::SampledImage:
        t.size = ptrBytes;
        t.align = ptrBytes;
        break;
      default: break;
    }
    if (t.kind == TypeKind::Pointer) {
      // PtrAccessChain steps by the pointee's size rounded to its alignment.
      if (auto pt = types.find(t.element); pt != types.end() && pt->second.kind != TypeKind::Void) {
        const Type& e = pt->second;
        t.stride = e.align ? (e.size + e.align - 1) / e.align * e.align : e.size;
      }
      if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
    }
  }
  // Pointers declared before their pointee's layout (forward pointers) get their stride now.
  for (auto& [id, t] : types) {
    if (t.kind != TypeKind::Pointer || t.stride) continue;
    if (auto pt = types.find(t.element); pt != types.end() && pt->second.align)
      t.stride = (pt->second.size + pt->second.align - 1) / pt->second.align * pt->second.align;
  }
}

const Instruction& Module::def(uint32_t id) const {
  const auto* d = findDef(id);
  if (!d) throw ModuleError("id %" + std::to_string(id) + " is used but never defined");
  return *d;
}

const Instruction* Module::findDef(uint32_t id) const {
  auto it = definitionOf.find(id);
  return it == definitionOf.end() ? nullptr : &instructions[it->second];
}

const Type& Module::type(uint32_t id) const {
  auto it = types.find(id);
  if (it == types.end()) throw ModuleError("id %" + std::to_string(id) + " is not a type");
  return it->second;
}

bool Module::hasDecoration(uint32_t id, spv::Decoration d) const { return decoration(id, d) != nullptr; }

const Decoration* Module::decoration(uint32_t id, spv::Decoration d) const {
  auto it = decorations.find(id);
  if (it == decorations.end()) return nullptr;
  for (const auto& dec : it->second)
    if (dec.kind == d && dec.member < 0) return &dec;
  return nullptr;
}

std::string Module::nameOf(uint32_t id) const {
  auto it = names.find(id);
  return it != names.end() && !it->second.empty() ? it->second : "%" + std::to_string(id);
}

const EntryPoint* Module::entryPoint(std::string_view name) const {
  for (const auto& ep : entryPoints)
    if (ep.name == name) return &ep;
  return nullptr;
}

bool Module::hasCapability(spv::Capability c) const {
  return std::find(capabilities.begin(), capabilities.end(), c) != capabilities.end();
}

namespace {
std::vector<std::string> disassemblyLines(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  std::string text;
  tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
}  // namespace

std::string Module::disassemble() const {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  std::string text;
  tools.Disassemble(
      words_, &text,
      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_COMMENT);
  return text;
}

std::string Module::disassemble(const Instruction& inst) const {
  // The disassembler prints one line per instruction in order; keep the lines once.
  static std::mutex mu;
  std::lock_guard lock(mu);
  if (friendlyNames_.empty()) {
    auto lines = disassemblyLines(words_);
    for (uint32_t i = 0; i < instructions.size() && i < lines.size(); ++i) friendlyNames_[i] = lines[i];
  }
  const auto index = uint32_t(&inst - instructions.data());
  auto it = friendlyNames_.find(index);
  if (it == friendlyNames_.end()) return "Op" + std::to_string(uint32_t(inst.opcode));
  std::string s = it->second;
  s.erase(0, s.find_first_not_of(' '));
  return s;
}

std::string Module::sourceOf(uint32_t index) const {
  auto it = lineOf.find(index);
  if (it == lineOf.end()) return "";
  return (it->second.file.empty() ? "<unknown>" : it->second.file) + ":" + std::to_string(it->second.line);
}

std::string Module::describe(uint32_t index) const {
  const auto& inst = instructions.at(index);
  std::string s = "word " + std::to_string(inst.wordOffset) + ": " + disassemble(inst);
  if (auto src = sourceOf(index); !src.empty()) s += " (" + src + ")";
  return s;
}

}  // namespace clref::interpreter
