// The elements of buffer arguments as scalars (elements.hpp).
#include "host/elements.hpp"

#include <algorithm>
#include <regex>

namespace clref::host {

std::optional<numerics::ScalarType> elementTypeOf(const std::string& typeName) {
  static const std::regex re(
      R"((?:^|[\s*])(u?char|u?short|u?int|u?long|unsigned char|unsigned short|unsigned int|unsigned long|half|float|double)(\d*)\s*\*)");
  std::smatch m;
  if (!std::regex_search(typeName, m, re)) return std::nullopt;
  return numerics::parseScalarType(m[1].str());
}

std::optional<ElementLayout> layoutOf(const KernelArgInfo& info) {
  if (info.pointeeFields.empty() || info.pointeeSize == 0) return std::nullopt;
  ElementLayout l;
  l.stride = info.pointeeSize;
  for (const auto& f : info.pointeeFields) {
    l.fields.push_back({f.offset, f.isFloat ? numerics::scalarTypeOf(numerics::formatOfBytes(f.bytes))
                                            : numerics::integerType(f.bytes, false)});
  }
  return l;
}

void forEachScalar(const std::optional<ElementLayout>& layout, numerics::ScalarType type, uint64_t bytes,
                   const std::function<void(uint64_t, uint64_t, numerics::ScalarType)>& fn, uint64_t lo, uint64_t hi) {
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
