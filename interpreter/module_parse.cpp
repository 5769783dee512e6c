// Parsing a SPIR-V binary into a Module (SPIRV-Tools' binary parser) and the tables built from
// it: types, names, decorations, entry points, functions and blocks, OpLine locations, and
// parameter names from OpenCL.DebugInfo.100.
#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/OpenCL.std.h>

#include "interpreter/module.hpp"

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
  std::set<uint32_t> nulls;  // OpConstantNull ids seen so far
  // The <id> operands of OpenCL.std instructions: (instruction index, the id), checked once every id is defined.
  std::vector<std::pair<uint32_t, uint32_t>> extInstIds;
  std::set<uint32_t> openclStd;  // the ids of OpExtInstImport "OpenCL.std"
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
  if (inst.opcode == spv::Op::OpExtInstImport && literalString(inst.words, 2) == "OpenCL.std")
    st->openclStd.insert(inst.resultId);
  if (inst.opcode == spv::Op::OpExtInst) {
    inst.extInstSet = parsed->words[3];
    // Debug information (OpenCL.DebugInfo.100) refers to its own void-typed results; only OpenCL.std is checked.
    for (uint16_t i = 4; i < parsed->num_operands && st->openclStd.count(inst.extInstSet); ++i)
      if (parsed->operands[i].type == SPV_OPERAND_TYPE_ID)
        st->extInstIds.emplace_back(uint32_t(st->module->instructions.size()), parsed->words[parsed->operands[i].offset]);
  }
  // Ids of OpConstantNull used as values (Module::nullsUsedAsValues); definitions of constants precede their uses.
  if (inst.opcode == spv::Op::OpConstantNull) st->nulls.insert(inst.resultId);
  const bool annotation = inst.opcode == spv::Op::OpName || inst.opcode == spv::Op::OpMemberName ||
                          inst.opcode == spv::Op::OpDecorate || inst.opcode == spv::Op::OpMemberDecorate;
  for (uint16_t i = 0; i < parsed->num_operands && !annotation && !st->nulls.empty(); ++i) {
    const spv_parsed_operand_t& o = parsed->operands[i];
    if (o.type != SPV_OPERAND_TYPE_ID && o.type != SPV_OPERAND_TYPE_SCOPE_ID &&
        o.type != SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID)
      continue;
    const uint32_t id = parsed->words[o.offset];
    const bool initialiser = inst.opcode == spv::Op::OpVariable && i == 3;
    if (!initialiser && st->nulls.count(id)) st->module->nullsUsedAsValues.insert(id);
  }
  st->module->instructions.push_back(std::move(inst));
  return SPV_SUCCESS;
}

}  // namespace

Module Module::parse(std::vector<uint32_t> words) {
  Module m = parseInstructions(std::move(words));
  m.completeTables();
  return m;
}

void Module::completeTables() {
  layoutTypes();
  readDebugParamNames();
}

namespace {

// llvm-spirv-15 gives the OpenCL.DebugInfo.100 DebugTypePointer of an image or sampler (in LLVM a pointer to an
// opaque struct without address space) the Storage Class -1, which SPIRV-Tools' parser refuses. Debug information
// has no run-time meaning: the copy that is parsed says Generic there. Found by walking the words (the parser is
// what fails); the copy equals the input when there is nothing to repair.
std::vector<uint32_t> withDebugPointersRepaired(const std::vector<uint32_t>& w) {
  std::vector<uint32_t> out = w;
  std::vector<uint32_t> debugSets;
  constexpr uint32_t kDebugTypePointer = 3;
  for (size_t i = 5; i < w.size();) {
    const uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
    if (count == 0 || i + count > w.size()) break;
    if (op == uint32_t(spv::Op::OpExtInstImport) && count > 2) {
      const std::vector<uint32_t> operands(w.begin() + long(i) + 2, w.begin() + long(i + count));
      if (literalString(operands, 0) == "OpenCL.DebugInfo.100") debugSets.push_back(w[i + 1]);
    }
    if (op == uint32_t(spv::Op::OpExtInst) && count == 8 &&
        std::find(debugSets.begin(), debugSets.end(), w[i + 3]) != debugSets.end() && w[i + 4] == kDebugTypePointer &&
        w[i + 6] == 0xFFFFFFFFu)
      out[i + 6] = uint32_t(spv::StorageClass::Generic);
    i += count;
  }
  return out;
}

}  // namespace

namespace {

// Which <id> operand of an OpenCL.std instruction is its pointer (OpenCL Extended Instruction Set §2 [external]: the
// ptr/p operand of fract, frexp, lgamma_r, modf, remquo, sincos, the vload and vstore families and prefetch), counted
// among the instruction's <id> operands; -1 when every one is a value; INT_MAX for printf, whose operands may be
// anything. `ids` is how many <id> operands the instruction has.
int pointerOperand(uint32_t instruction, int ids) {
  switch (instruction) {
    case OpenCLLIB::Fract:
    case OpenCLLIB::Frexp:
    case OpenCLLIB::Lgamma_r:
    case OpenCLLIB::Modf:
    case OpenCLLIB::Remquo:
    case OpenCLLIB::Sincos: return ids - 1;
    case OpenCLLIB::Vloadn:
    case OpenCLLIB::Vload_half:
    case OpenCLLIB::Vload_halfn:
    case OpenCLLIB::Vloada_halfn: return 1;
    case OpenCLLIB::Vstoren:
    case OpenCLLIB::Vstore_half:
    case OpenCLLIB::Vstore_half_r:
    case OpenCLLIB::Vstore_halfn:
    case OpenCLLIB::Vstore_halfn_r:
    case OpenCLLIB::Vstorea_halfn:
    case OpenCLLIB::Vstorea_halfn_r: return 2;
    case OpenCLLIB::Prefetch: return 0;
    case OpenCLLIB::Printf: return INT_MAX;
    default: return -1;
  }
}

}  // namespace

// An OpenCL.std instruction's <id> operands other than its pointer must be values of a scalar or vector type
// (OpenCL Extended Instruction Set §2 [external]: gentype, intn, floatn operands). Two malformed forms crash
// SPIRV-Tools 2023.1's validator, which reads the bit width of the operand's type (both found by fuzzing): the result
// of an instruction whose type is OpTypeVoid (a vstore, a call of a void function: SPIR-V 1.0 §2.2.1 [external]
// Result <id>, OpTypeVoid declares the absence of a value), as a vstore_halfn's data; and an operand of a pointer,
// struct or array type, as a vstorea_halfn_r's data. Such a module is refused here, before it reaches the validator,
// with the instruction and operand named.
void rejectVoidOperands(const std::vector<Instruction>& instructions,
                        const std::vector<std::pair<uint32_t, uint32_t>>& extInstIds) {
  if (extInstIds.empty()) return;
  std::map<uint32_t, spv::Op> typeOpcode;  // type id → its OpType* opcode
  std::map<uint32_t, uint32_t> typeOf;     // result id → result type
  for (const auto& inst : instructions) {
    if (inst.resultId && !inst.resultType) typeOpcode[inst.resultId] = inst.opcode;
    if (inst.resultId && inst.resultType) typeOf[inst.resultId] = inst.resultType;
  }
  auto wordOf = [&](uint32_t index) {
    uint32_t word = 5;
    for (uint32_t i = 0; i < index; ++i) word += uint32_t(instructions[i].words.size());
    return word;
  };
  for (size_t k = 0; k < extInstIds.size();) {
    const uint32_t index = extInstIds[k].first;
    size_t end = k;
    while (end < extInstIds.size() && extInstIds[end].first == index) ++end;
    const Instruction& inst = instructions[index];
    const int pointer = pointerOperand(inst.words.size() > 4 ? inst.words[4] : 0, int(end - k));
    for (size_t j = k; j < end; ++j) {
      const uint32_t id = extInstIds[j].second;
      const auto t = typeOf.find(id);
      if (t == typeOf.end()) continue;  // not a value at all: the validator names it
      const auto op = typeOpcode.find(t->second);
      if (op == typeOpcode.end()) continue;
      const std::string where = "malformed SPIR-V: word " + std::to_string(wordOf(index)) + ": operand " +
                                std::to_string(j - k + 1) + " of OpExtInst %" + std::to_string(inst.resultId) +
                                " is %" + std::to_string(id);
      if (op->second == spv::Op::OpTypeVoid)
        throw ModuleError(where + ", the result of an instruction of type void, which has no value");
      const bool value = op->second == spv::Op::OpTypeInt || op->second == spv::Op::OpTypeFloat ||
                         op->second == spv::Op::OpTypeBool || op->second == spv::Op::OpTypeVector;
      if (!value && pointer != INT_MAX && int(j - k) != pointer)
        throw ModuleError(where + ", which is not a scalar or vector value (OpenCL.std takes one there)");
    }
    k = end;
  }
}

Module Module::parseInstructions(std::vector<uint32_t> words) {
  Module m;
  m.words_ = std::move(words);
  if (m.words_.size() < 5 || m.words_[0] != spv::MagicNumber)
    throw ModuleError("not a SPIR-V module: " +
                      (m.words_.empty() ? std::string("empty input") : "bad magic number or header"));
  // SPIR-V 1.6 §2.3 [external] Physical Layout: word 1 is the version (0 | major | minor | 0). clref reads SPIR-V 1.0 to
  // 1.6, the versions SPIRV-Tools parses; a later one is named rather than left to the parser's generic failure.
  const uint32_t version = m.words_[1], major = (version >> 16) & 0xff, minor = (version >> 8) & 0xff;
  if (major != 1 || minor > 6 || (version & 0xff0000ffu) != 0)
    throw ModuleError("SPIR-V version " + std::to_string(major) + "." + std::to_string(minor) +
                      " is not supported: clref reads SPIR-V 1.0 to 1.6");
  std::vector<std::pair<uint32_t, uint32_t>> extInstIds;
  auto parseWords = [&m, &extInstIds](const std::vector<uint32_t>& w, std::string& message) {
    m.instructions.clear();
    m.nullsUsedAsValues.clear();
    ParseState st{&m, {}, {}, {}};
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_diagnostic diag = nullptr;
    const spv_result_t r = spvBinaryParse(ctx, &st, w.data(), w.size(), onHeader, onInstruction, &diag);
    if (r != SPV_SUCCESS) {
      message = diag ? diag->error : "unknown parse error";
      if (diag) message = "word " + std::to_string(diag->position.index) + ": " + message;
    }
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    extInstIds = std::move(st.extInstIds);
    return r == SPV_SUCCESS;
  };
  std::string message;
  if (!parseWords(m.words_, message)) {
    const auto repaired = withDebugPointersRepaired(m.words_);
    std::string ignored;
    if (repaired == m.words_ || !parseWords(repaired, ignored)) throw ModuleError("malformed SPIR-V: " + message);
  }
  m.extInstIdOperands_ = std::move(extInstIds);
  m.buildTables();
  return m;
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
      case Op::OpMemoryModel:
        addressing = spv::AddressingModel(w[1]);
        memoryModel = spv::MemoryModel(w[2]);
        break;
      case Op::OpString: strings[w[1]] = literalString(w, 2); break;
      case Op::OpName: names[w[1]] = literalString(w, 2); break;
      case Op::OpEntryPoint: {
        EntryPoint ep;
        ep.function = w[2];
        size_t next = 0;
        ep.name = literalString(w, 3, &next);
        ep.interface.assign(w.begin() + long(next), w.end());
        if (spv::ExecutionModel(w[1]) == spv::ExecutionModel::Kernel) entryPoints.push_back(std::move(ep));
        if (spv::ExecutionModel(w[1]) == spv::ExecutionModel::GLCompute) computeShaders.push_back(std::move(ep));
        break;
      }
      case Op::OpExecutionMode:
      case Op::OpExecutionModeId: {
        // Module::parse reads modules the validator has not seen: a mode's operands are read only when present.
        const bool three = w.size() >= 6;
        for (auto* list : {&entryPoints, &computeShaders})
          for (auto& ep : *list) {
            if (ep.function != w[1]) continue;
            const auto mode = spv::ExecutionMode(w[2]);
            if (mode == spv::ExecutionMode::LocalSize && three)
              ep.requiredLocalSize = std::array<uint32_t, 3>{w[3], w[4], w[5]};
            // SPIR-V 1.2 §3.6 [external] LocalSizeId: like LocalSize, with the sizes given by constant instructions.
            if (mode == spv::ExecutionMode::LocalSizeId && three)
              ep.localSizeIds = std::array<uint32_t, 3>{w[3], w[4], w[5]};
            if (mode == spv::ExecutionMode::ContractionOff) ep.contractionOff = true;
            // SPV_KHR_float_controls (SPIR-V 1.4 §3.6 [external]): the modes' operand is the width they apply to.
            if (w.size() >= 4) {
              const uint32_t width = w[3];
              const uint8_t bit = width == 16 ? 1 : width == 32 ? 2 : width == 64 ? 4 : 0;
              switch (mode) {
                case spv::ExecutionMode::DenormPreserve: ep.denormPreserve |= bit; break;
                case spv::ExecutionMode::DenormFlushToZero: ep.denormFlushToZero |= bit; break;
                case spv::ExecutionMode::SignedZeroInfNanPreserve: ep.signedZeroInfNanPreserve |= bit; break;
                case spv::ExecutionMode::RoundingModeRTE: ep.roundingModeRTE |= bit; break;
                case spv::ExecutionMode::RoundingModeRTZ: ep.roundingModeRTZ |= bit; break;
                default: break;
              }
            }
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
      case Op::OpTypeMatrix: {
        Type t{TypeKind::Matrix};
        t.element = w[2];
        t.count = w[3];
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
      case Op::OpTypeNamedBarrier: types[w[1]] = Type(TypeKind::NamedBarrier); break;
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
    // SPIR-V 1.0 §2.4 [external]: OpLine scope ends at the end of a block.
    if (inst.opcode == spv::Op::OpBranch || inst.opcode == spv::Op::OpBranchConditional ||
        inst.opcode == spv::Op::OpSwitch || inst.opcode == spv::Op::OpReturn || inst.opcode == spv::Op::OpReturnValue ||
        inst.opcode == spv::Op::OpUnreachable || inst.opcode == spv::Op::OpKill)
      haveLine = false;
  }
}

// OpenCL.DebugInfo.100 §4 [external]: DebugFunction (20) names the function it describes in operand
// 'Function'; DebugLocalVariable (26) with an 'Arg Number' is that function's parameter.
void Module::readDebugParamNames() {
  constexpr uint32_t kDebugFunction = 20, kDebugLocalVariable = 26;
  std::unordered_map<uint32_t, uint32_t> functionOfScope;  // DebugFunction id → OpFunction id
  for (const auto& inst : instructions) {
    // The operand layout read here is OpenCL.DebugInfo.100's.
    if (inst.opcode != spv::Op::OpExtInst || debugInfoSet(inst.extInstSet) != DebugInfoSet::OpenCLDebugInfo100)
      continue;
    // operand(0) is the set, operand(1) the instruction, then the instruction's own operands.
    if (inst.operand(1) == kDebugFunction && inst.operandCount() > 11)
      functionOfScope[inst.resultId] = inst.operand(11);
    if (inst.operand(1) == kDebugLocalVariable && inst.operandCount() > 9) {
      auto fn = functionOfScope.find(inst.operand(7));
      auto name = strings.find(inst.operand(2));
      const uint32_t arg = inst.operand(9);
      if (fn == functionOfScope.end() || name == strings.end() || arg == 0) continue;
      // 'Arg Number' names one of the function's parameters; a larger number (the module is not validated
      // before `clref info`/`dis` reads it) names nothing and must not size the table.
      auto function = functions.find(fn->second);
      if (function == functions.end() || arg > function->second.parameters.size()) continue;
      auto& names = debugParamNames[fn->second];
      if (names.size() < arg) names.resize(arg);
      names[arg - 1] = name->second;
    }
  }
}

}  // namespace clref::interpreter
