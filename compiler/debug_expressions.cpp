// Debug locations llvm-spirv-15 can translate (compiler/debug_expressions.hpp).
#include "compiler/debug_expressions.hpp"

#include <array>
#include <regex>
#include <sstream>
#include <string_view>

namespace clref::compiler {

namespace {

// OpenCL.DebugInfo.100 §3.6 [external] Debug Operations: the operations the instruction set lists, by their LLVM names
// (Deref, Plus, Minus, PlusUconst, BitPiece, Swap, Xderef, StackValue, Constu, Fragment).
constexpr std::array<std::string_view, 10> kListedOperations = {
    "DW_OP_deref", "DW_OP_plus",       "DW_OP_minus",    "DW_OP_plus_uconst", "DW_OP_bit_piece",
    "DW_OP_swap",  "DW_OP_xderef",     "DW_OP_stack_value", "DW_OP_constu",  "DW_OP_LLVM_fragment"};

bool allListed(const std::string& operands) {
  std::istringstream in(operands);
  for (std::string item; std::getline(in, item, ',');) {
    const auto b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    const std::string_view token = std::string_view(item).substr(b);
    if (token.rfind("DW_", 0) != 0) continue;  // a literal operand of the operation before it
    bool listed = false;
    for (auto op : kListedOperations) listed = listed || token == op;
    if (!listed) return false;
  }
  return true;
}

}  // namespace

std::string withTranslatableDebugLocations(const std::string& llvmText, size_t* rewritten) {
  // call void @llvm.dbg.value(metadata <value>, metadata !N, metadata !DIExpression(<ops>)), !dbg !M
  // <value> is "<type> <operand>" or "!DIArgList(<type> <operand>, ...)".
  static const std::regex dbgValue(
      R"(^(\s*call void @llvm\.dbg\.value\(metadata )(!DIArgList\((\S+) [^)]*\)|(\S+) \S+)(, metadata ![0-9]+, metadata )!DIExpression\(([^)]*)\)\)(.*)$)");
  static const std::regex dbgDeclare(R"(^\s*call void @llvm\.dbg\.(declare|addr)\(.*!DIExpression\(([^)]*)\)\).*$)");
  std::istringstream in(llvmText);
  std::string out;
  out.reserve(llvmText.size());
  size_t count = 0;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (line.find("@llvm.dbg.") != std::string::npos && line.find("call void") != std::string::npos) {
      if (std::regex_match(line, m, dbgValue) && !allListed(m[6].str())) {
        // The value's location is unavailable from here on: an undef of the value's type, no expression.
        const std::string type = m[3].matched ? m[3].str() : m[4].str();
        line = m[1].str() + type + " undef" + m[5].str() + "!DIExpression())" + m[7].str();
        ++count;
      } else if (std::regex_match(line, m, dbgDeclare) && !allListed(m[2].str())) {
        // A variable whose address is described by an expression the set cannot carry: no location at all.
        ++count;
        continue;
      }
    }
    out += line;
    out += '\n';
  }
  if (rewritten) *rewritten = count;
  return out;
}

}  // namespace clref::compiler
