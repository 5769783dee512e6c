// Replacing LLVM's freeze before llvm-spirv-15 (freeze_removal.hpp).
#include "compiler/freeze_removal.hpp"

#include <regex>

namespace clref::compiler {

std::string withoutFreeze(const std::string& llvmText, size_t* rewritten) {
  // "  %5 = freeze i32 %4" or "  %v = freeze <4 x i32> %x, !dbg !12": the type is everything up to the last operand.
  static const std::regex freeze(R"(^(\s*%[-\w.$]+ = )freeze (.+?) ([^ ,]+)((?:, ![-\w.]+ ![0-9]+)*)$)");
  std::string out;
  out.reserve(llvmText.size());
  size_t count = 0, begin = 0;
  while (begin < llvmText.size()) {
    size_t end = llvmText.find('\n', begin);
    if (end == std::string::npos) end = llvmText.size();
    const std::string line = llvmText.substr(begin, end - begin);
    std::smatch m;
    if (line.find("= freeze ") != std::string::npos && std::regex_match(line, m, freeze)) {
      const std::string type = m[2].str(), value = m[3].str();
      out += m[1].str() + "select i1 true, " + type + " " + value + ", " + type + " " + value + m[4].str();
      ++count;
    } else {
      out += line;
    }
    if (end < llvmText.size()) out += '\n';
    begin = end + 1;
  }
  if (rewritten) *rewritten = count;
  return out;
}

}  // namespace clref::compiler
