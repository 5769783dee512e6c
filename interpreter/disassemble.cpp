// Disassembly of a module and of one instruction, and the "where" text of diagnostics (word
// offset, disassembly, OpLine source location).
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <sstream>

#include <spirv-tools/libspirv.hpp>

#include "interpreter/module.hpp"

namespace clref::interpreter {

namespace {
std::vector<std::string> disassemblyLines(const std::vector<uint32_t>& words, uint32_t extraOptions = 0) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  tools.Disassemble(words, &text,
                    SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | extraOptions);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
// The words as parsed: the module's, except where parsing needed a repair of debug information
// (module_parse.cpp), which the disassembler would refuse just as the parser did.
std::vector<uint32_t> parsedWords(const std::vector<uint32_t>& header, const std::vector<Instruction>& instructions) {
  std::vector<uint32_t> w(header.begin(), header.begin() + std::min<size_t>(5, header.size()));
  for (const auto& inst : instructions) w.insert(w.end(), inst.words.begin(), inst.words.end());
  return w;
}
}  // namespace

std::string Module::disassemble() const {
  // The header comments, then each instruction after its word offset: the "word N" diagnostics cite.
  const auto words = parsedWords(words_, instructions);
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string full;
  tools.Disassemble(words, &full, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  std::string text;
  std::istringstream in(full);
  for (std::string l; std::getline(in, l) && l.rfind(";", 0) == 0;) text += l + "\n";
  text += ";     word  instruction\n";
  const auto lines = disassemblyLines(words, SPV_BINARY_TO_TEXT_OPTION_INDENT);
  for (size_t i = 0; i < lines.size(); ++i) {
    char offset[16];
    std::snprintf(offset, sizeof offset, "%10u", i < instructions.size() ? instructions[i].wordOffset : 0u);
    text += std::string(offset) + " " + lines[i] + "\n";
  }
  return text;
}

std::string Module::disassemble(const Instruction& inst) const {
  // The disassembler prints one line per instruction in order; keep the lines once.
  static std::mutex mu;
  std::lock_guard lock(mu);
  if (friendlyNames_.empty()) {
    auto lines = disassemblyLines(parsedWords(words_, instructions));
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
  const auto named = namedSources_.find(it->second.file);
  const std::string file = named != namedSources_.end()
                               ? (named->second.name.empty() ? "program source" : named->second.name)
                               : (it->second.file.empty() ? "<unknown>" : it->second.file);
  // Line 0 is the compiler's way of saying that no one line made the instruction (an optimiser merged it from
  // several, or made it); a ":0" would send the reader to a line that does not exist.
  if (it->second.line == 0) return file + " (no single line: the optimiser merged or made this instruction)";
  const std::string line = std::to_string(it->second.line);
  if (named != namedSources_.end() && named->second.name.empty()) return "program source line " + line;
  return file + ":" + line;
}

// OpenCL.DebugInfo.100 §4 [external]: DebugDeclare (28) and DebugValue (29) take (Local Variable, Variable or Value,
// Expression); DebugLocalVariable (26) starts with its Name, an OpString.
std::string Module::debugVariableName(uint32_t id) const {
  for (const auto& inst : instructions) {
    if (inst.opcode != spv::Op::OpExtInst || inst.operandCount() < 4 ||
        debugInfoSet(inst.operand(0)) != DebugInfoSet::OpenCLDebugInfo100 ||
        (inst.operand(1) != 28 && inst.operand(1) != 29) || inst.operand(3) != id)
      continue;
    const Instruction* var = findDef(inst.operand(2));
    if (!var || var->opcode != spv::Op::OpExtInst || var->operandCount() < 3 || var->operand(1) != 26) continue;
    if (auto it = strings.find(var->operand(2)); it != strings.end() && !it->second.empty()) return it->second;
  }
  return "";
}

std::string Module::sourceText(uint32_t index) const {
  auto it = lineOf.find(index);
  if (it == lineOf.end()) return "";
  auto named = namedSources_.find(it->second.file);
  if (named == namedSources_.end() || it->second.line == 0 || it->second.line > named->second.lines.size()) return "";
  return named->second.lines[it->second.line - 1];
}

const std::vector<std::string>* Module::sourceLines(uint32_t index) const {
  auto it = lineOf.find(index);
  if (it == lineOf.end()) return nullptr;
  auto named = namedSources_.find(it->second.file);
  return named == namedSources_.end() ? nullptr : &named->second.lines;
}

void Module::nameSourceFile(const std::string& fileInModule, const std::string& displayName, const std::string& text) {
  NamedSource& s = namedSources_[fileInModule];
  s.name = displayName;
  s.lines.clear();
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    s.lines.push_back(std::move(l));
    start = end + 1;
  }
}

std::string Module::describe(uint32_t index) const {
  const auto& inst = instructions.at(index);
  std::string s = "word " + std::to_string(inst.wordOffset) + ": " + disassemble(inst);
  if (auto src = sourceOf(index); !src.empty()) s += " (" + src + ")";
  return s;
}

}  // namespace clref::interpreter
