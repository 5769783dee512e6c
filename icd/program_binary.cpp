#include "icd/program_binary.hpp"

#include <cstring>
#include <string>

#include <spirv/unified1/spirv.hpp>

namespace clref::cl {
namespace {

constexpr const char* kPrefix = "clref.program_binary_type=";
constexpr size_t kHeaderWords = 5;

// A literal string as SPIR-V words (SPIR-V 1.0 §2.2.1 [external]: nul-terminated, zero-padded).
std::vector<uint32_t> literal(const std::string& s) {
  std::vector<uint32_t> w(s.size() / 4 + 1, 0);
  std::memcpy(w.data(), s.data(), s.size());
  return w;
}

// The instructions before the debug section (SPIR-V 1.0 §2.4 [external] logical layout, sections 1–6).
bool beforeDebugSection(spv::Op op) {
  switch (op) {
    case spv::Op::OpCapability:
    case spv::Op::OpExtension:
    case spv::Op::OpExtInstImport:
    case spv::Op::OpMemoryModel:
    case spv::Op::OpEntryPoint:
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId: return true;
    default: return false;
  }
}

}  // namespace

std::vector<uint32_t> binaryWithType(const std::vector<uint32_t>& spirv, cl_program_binary_type type) {
  const char* name = type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ? "compiled_object"
                     : type == CL_PROGRAM_BINARY_TYPE_LIBRARY       ? "library"
                                                                    : nullptr;
  if (!name || spirv.size() < kHeaderWords) return spirv;
  size_t at = kHeaderWords;
  while (at < spirv.size() && beforeDebugSection(spv::Op(spirv[at] & 0xffff)) && (spirv[at] >> 16) != 0)
    at += spirv[at] >> 16;
  const std::vector<uint32_t> text = literal(std::string(kPrefix) + name);
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + std::ptrdiff_t(at));
  out.push_back(uint32_t(text.size() + 1) << 16 | uint32_t(spv::Op::OpSourceExtension));
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), spirv.begin() + std::ptrdiff_t(at), spirv.end());
  return out;
}

cl_program_binary_type takeBinaryType(std::vector<uint32_t>& spirv) {
  for (size_t at = kHeaderWords; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;  // malformed: the loader reports it
    if (spv::Op(spirv[at] & 0xffff) == spv::Op::OpSourceExtension) {
      const char* s = reinterpret_cast<const char*>(&spirv[at + 1]);
      const std::string text(s, strnlen(s, (count - 1) * 4));
      if (text.rfind(kPrefix, 0) == 0) {
        const std::string name = text.substr(std::strlen(kPrefix));
        spirv.erase(spirv.begin() + std::ptrdiff_t(at), spirv.begin() + std::ptrdiff_t(at + count));
        return name == "compiled_object" ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
               : name == "library"       ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                         : CL_PROGRAM_BINARY_TYPE_NONE;
      }
    }
    at += count;
  }
  return CL_PROGRAM_BINARY_TYPE_NONE;
}

}  // namespace clref::cl
