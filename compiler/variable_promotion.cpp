// Private variables into SSA values (variable_promotion.hpp).
#include "compiler/variable_promotion.hpp"

#include <spirv-tools/libspirv.h>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace clref::compiler {
namespace {

constexpr size_t kHeaderWords = 5;  // SPIR-V 1.0 §2.3 [external]: magic, version, generator, bound, schema

// One instruction of a module, as SPIRV-Tools' parser read it against the grammar.
struct Parsed {
  size_t at = 0;  // first word in the module
  uint32_t count = 0;
  spv::Op op{};
  bool debugInfo = false;            // an OpExtInst of OpenCL.DebugInfo.100 or a non-semantic set
  std::vector<uint16_t> idOperands;  // word offsets of the operands that are ids (not the result id)
};

// The module's instructions, or nothing when the parser refuses it.
std::optional<std::vector<Parsed>> parse(const std::vector<uint32_t>& words) {
  struct State {
    const uint32_t* base;
    std::vector<Parsed> out;
  } state{words.data(), {}};
  auto onInstruction = [](void* user, const spv_parsed_instruction_t* inst) -> spv_result_t {
    auto& st = *static_cast<State*>(user);
    Parsed p;
    p.at = size_t(inst->words - st.base);
    p.count = inst->num_words;
    p.op = spv::Op(inst->opcode);
    p.debugInfo = inst->ext_inst_type == SPV_EXT_INST_TYPE_OPENCL_DEBUGINFO_100 ||
                  inst->ext_inst_type == SPV_EXT_INST_TYPE_NONSEMANTIC_UNKNOWN ||
                  inst->ext_inst_type == SPV_EXT_INST_TYPE_NONSEMANTIC_CLSPVREFLECTION ||
                  inst->ext_inst_type == SPV_EXT_INST_TYPE_NONSEMANTIC_SHADER_DEBUGINFO_100;
    for (uint16_t i = 0; i < inst->num_operands; ++i) {
      const spv_parsed_operand_t& o = inst->operands[i];
      if (o.type == SPV_OPERAND_TYPE_ID || o.type == SPV_OPERAND_TYPE_TYPE_ID ||
          o.type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID || o.type == SPV_OPERAND_TYPE_SCOPE_ID)
        p.idOperands.push_back(o.offset);
    }
    st.out.push_back(std::move(p));
    return SPV_SUCCESS;
  };
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  const spv_result_t r = spvBinaryParse(context, &state, words.data(), words.size(), nullptr, onInstruction, nullptr);
  spvContextDestroy(context);
  if (r != SPV_SUCCESS) return std::nullopt;
  return std::move(state.out);
}

std::vector<uint32_t> copyWithout(const std::vector<uint32_t>& words, const std::vector<Parsed>& insts,
                                  const std::function<bool(const Parsed&)>& drop) {
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size());
  for (const Parsed& p : insts)
    if (!drop(p)) out.insert(out.end(), words.begin() + p.at, words.begin() + p.at + p.count);
  return out;
}

// Removes the function-scope variables whose only uses left are stores to them (and their names, decorations and
// debug declarations), with those stores.
std::vector<uint32_t> withoutWriteOnlyVariables(const std::vector<uint32_t>& words, size_t& removed) {
  const auto insts = parse(words);
  if (!insts) return words;
  std::unordered_set<uint32_t> candidates, used;
  for (const Parsed& p : *insts)
    if (p.op == spv::Op::OpVariable && p.count >= 4 &&
        spv::StorageClass(words[p.at + 3]) == spv::StorageClass::Function)
      candidates.insert(words[p.at + 2]);
  // A use that does not keep a variable alive: a store to it, its name or decoration, a debug instruction.
  auto harmless = [](const Parsed& p, uint16_t offset) {
    if (p.op == spv::Op::OpStore) return offset == 1;
    if (p.op == spv::Op::OpName || p.op == spv::Op::OpDecorate) return offset == 1;
    return p.debugInfo;
  };
  for (const Parsed& p : *insts)
    for (uint16_t offset : p.idOperands)
      if (candidates.count(words[p.at + offset]) && !harmless(p, offset)) used.insert(words[p.at + offset]);
  std::unordered_set<uint32_t> dead;
  for (uint32_t id : candidates)
    if (!used.count(id)) dead.insert(id);
  if (dead.empty()) return words;
  removed = dead.size();
  return copyWithout(words, *insts, [&](const Parsed& p) {
    if (p.op == spv::Op::OpStore || p.op == spv::Op::OpName || p.op == spv::Op::OpDecorate)
      return dead.count(words[p.at + 1]) != 0;
    if (p.op == spv::Op::OpVariable) return dead.count(words[p.at + 2]) != 0;
    if (p.debugInfo)
      for (uint16_t offset : p.idOperands)
        if (dead.count(words[p.at + offset])) return true;
    return false;
  });
}

// Each variable that debug information declares (OpenCL.DebugInfo.100 DebugDeclare) and that the rewriter will
// promote (a scalar, vector or pointer without an initialiser) starts with a store of an OpUndef of its own, right
// after the entry block's variables. The rewriter turns the store into a DebugValue, so a read before any write
// reads an OpUndef that names its variable; without it, the rewriter's one OpUndef per type would stand for every
// such variable of the type.
std::vector<uint32_t> withUndefinedStarts(const std::vector<uint32_t>& words) {
  constexpr uint32_t kDebugDeclare = 28;  // OpenCL.DebugInfo.100 §4 [external]
  const auto insts = parse(words);
  if (!insts) return words;
  std::unordered_map<uint32_t, uint32_t> pointee, typeOfVar;  // pointer type → pointee; variable → pointer type
  std::unordered_set<uint32_t> valueTypes, declared, promotable;
  for (const Parsed& p : *insts) {
    const uint32_t* w = &words[p.at];
    if (p.op == spv::Op::OpTypeInt || p.op == spv::Op::OpTypeFloat || p.op == spv::Op::OpTypeBool ||
        p.op == spv::Op::OpTypeVector)
      valueTypes.insert(w[1]);
    if (p.op == spv::Op::OpTypePointer && p.count >= 4) {
      valueTypes.insert(w[1]);
      pointee[w[1]] = w[3];
    }
    if (p.op == spv::Op::OpVariable && p.count == 4 && spv::StorageClass(w[3]) == spv::StorageClass::Function)
      typeOfVar[w[2]] = w[1];
    if (p.op == spv::Op::OpExtInst && p.debugInfo && p.count >= 7 && w[4] == kDebugDeclare) declared.insert(w[6]);
  }
  for (uint32_t v : declared)
    if (auto t = typeOfVar.find(v); t != typeOfVar.end() && valueTypes.count(pointee[t->second])) promotable.insert(v);
  if (promotable.empty()) return words;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size() + promotable.size() * 6);
  uint32_t bound = words[3];
  bool inEntryBlock = false, seenLabel = false;
  std::vector<uint32_t> vars;  // the entry block's promotable variables so far
  for (const Parsed& p : *insts) {
    if (p.op == spv::Op::OpFunction) seenLabel = false;
    if (p.op == spv::Op::OpLabel && !seenLabel) {
      seenLabel = inEntryBlock = true;
      vars.clear();
    } else if (inEntryBlock && p.op != spv::Op::OpVariable && p.op != spv::Op::OpLine && p.op != spv::Op::OpNoLine) {
      inEntryBlock = false;
      for (uint32_t v : vars) {
        const uint32_t undef = bound++;
        out.insert(out.end(), {(3u << 16) | uint32_t(spv::Op::OpUndef), pointee[typeOfVar[v]], undef});
        out.insert(out.end(), {(3u << 16) | uint32_t(spv::Op::OpStore), v, undef});
      }
    }
    if (inEntryBlock && p.op == spv::Op::OpVariable && promotable.count(words[p.at + 2]))
      vars.push_back(words[p.at + 2]);
    out.insert(out.end(), words.begin() + p.at, words.begin() + p.at + p.count);
  }
  out[3] = bound;
  return out;
}

}  // namespace

std::vector<uint32_t> withPromotedVariables(const std::vector<uint32_t>& spirv, size_t* promoted) {
  if (promoted) *promoted = 0;
  if (spirv.size() <= kHeaderWords) return spirv;
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_1);
  optimizer.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  optimizer.RegisterPass(spvtools::CreateSSARewritePass());
  spvtools::OptimizerOptions options;
  // The validator would refuse what llvm-spirv-15 writes and clref accepts (module_validate.cpp); the module is
  // validated when it is loaded.
  options.set_run_validator(false);
  const std::vector<uint32_t> started = withUndefinedStarts(spirv);
  std::vector<uint32_t> rewritten;
  if (!optimizer.Run(started.data(), started.size(), &rewritten, options)) return spirv;
  size_t removed = 0;
  std::vector<uint32_t> out = withoutWriteOnlyVariables(rewritten, removed);
  if (promoted) *promoted = removed;
  return out;
}

}  // namespace clref::compiler
