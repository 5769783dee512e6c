// The OpenCL C scalar types a case file names (golden/README.md "Element type names").
#include <array>

#include "cli/case_file.hpp"

namespace clref::cli {

namespace {
struct ElemTypeInfo {
  ElemType type;
  std::string_view name;
  size_t size;  // OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]] Table 1: sizes of the built-in scalar types
  bool isFloat;
};
constexpr std::array<ElemTypeInfo, 11> kElemTypes{{
    {ElemType::Char, "char", 1, false},
    {ElemType::UChar, "uchar", 1, false},
    {ElemType::Short, "short", 2, false},
    {ElemType::UShort, "ushort", 2, false},
    {ElemType::Int, "int", 4, false},
    {ElemType::UInt, "uint", 4, false},
    {ElemType::Long, "long", 8, false},
    {ElemType::ULong, "ulong", 8, false},
    {ElemType::Half, "half", 2, true},
    {ElemType::Float, "float", 4, true},
    {ElemType::Double, "double", 8, true},
}};
const ElemTypeInfo& info(ElemType t) { return kElemTypes[size_t(t)]; }
}  // namespace

size_t sizeOf(ElemType t) { return info(t).size; }
bool isFloat(ElemType t) { return info(t).isFloat; }
std::string_view toString(ElemType t) { return info(t).name; }

std::optional<ElemType> parseElemType(std::string_view name) {
  for (const auto& e : kElemTypes)
    if (e.name == name) return e.type;
  return std::nullopt;
}

}  // namespace clref::cli
