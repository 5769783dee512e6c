// The elements of buffer arguments as scalars (elements.hpp).
#include "host/elements.hpp"

#include <algorithm>
#include <regex>

namespace clref::host {

size_t sizeOf(ElementType t) {
  switch (t) {
    case ElementType::I8:
    case ElementType::U8: return 1;
    case ElementType::I16:
    case ElementType::U16:
    case ElementType::F16: return 2;
    case ElementType::I32:
    case ElementType::U32:
    case ElementType::F32: return 4;
    default: return 8;
  }
}

std::optional<ElementType> elementTypeOf(const std::string& typeName) {
  static const std::regex re(
      R"((?:^|[\s*])(u?char|u?short|u?int|u?long|unsigned char|unsigned short|unsigned int|unsigned long|half|float|double)(\d*)\s*\*)");
  std::smatch m;
  if (!std::regex_search(typeName, m, re)) return std::nullopt;
  std::string b = m[1].str();
  if (b.rfind("unsigned ", 0) == 0) b = "u" + b.substr(9);
  if (b == "char") return ElementType::I8;
  if (b == "uchar") return ElementType::U8;
  if (b == "short") return ElementType::I16;
  if (b == "ushort") return ElementType::U16;
  if (b == "int") return ElementType::I32;
  if (b == "uint") return ElementType::U32;
  if (b == "long") return ElementType::I64;
  if (b == "ulong") return ElementType::U64;
  if (b == "half") return ElementType::F16;
  if (b == "float") return ElementType::F32;
  return ElementType::F64;
}

std::optional<ElementLayout> layoutOf(const KernelArgInfo& info) {
  if (info.pointeeFields.empty() || info.pointeeSize == 0) return std::nullopt;
  ElementLayout l;
  l.stride = info.pointeeSize;
  for (const auto& f : info.pointeeFields) {
    const ElementType t = f.isFloat      ? (f.bytes == 2   ? ElementType::F16
                                            : f.bytes == 4 ? ElementType::F32
                                                           : ElementType::F64)
                          : f.bytes == 1 ? ElementType::U8
                          : f.bytes == 2 ? ElementType::U16
                          : f.bytes == 4 ? ElementType::U32
                                         : ElementType::U64;
    l.fields.push_back({f.offset, t});
  }
  return l;
}

void forEachScalar(const std::optional<ElementLayout>& layout, ElementType type, uint64_t bytes,
                   const std::function<void(uint64_t, uint64_t, ElementType)>& fn, uint64_t lo, uint64_t hi) {
  hi = std::min(hi, bytes);
  if (layout && layout->stride && !layout->fields.empty()) {
    const uint64_t n = bytes / layout->stride, nf = layout->fields.size();
    for (uint64_t k = lo / layout->stride; k < n && k * layout->stride < hi; ++k)
      for (uint64_t j = 0; j < nf; ++j) {
        const auto& [offset, t] = layout->fields[j];
        const uint64_t at = k * layout->stride + offset;
        if (at < hi && at + sizeOf(t) > lo) fn(k * nf + j, at, t);
      }
    return;
  }
  const size_t eb = sizeOf(type);
  for (uint64_t i = lo / eb; i < bytes / eb && i * eb < hi; ++i) fn(i, i * eb, type);
}

bool mayWriteThrough(const KernelArgInfo& info) {
  return !info.noWrite && info.typeName.find("const") == std::string::npos && info.typeName.rfind("constant", 0) != 0;
}

}  // namespace clref::host
