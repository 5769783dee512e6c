// The OpenCL C names of the scalar types (scalar_type.hpp).
#include "numerics/scalar_type.hpp"

#include <array>
#include <utility>

namespace clref::numerics {

namespace {
// OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]] Table 1: each type's names, in the enum's order; the first is
// the one toString gives.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kNames{{
    {"bool", ""},
    {"char", ""},
    {"uchar", "unsigned char"},
    {"short", ""},
    {"ushort", "unsigned short"},
    {"int", ""},
    {"uint", "unsigned int"},
    {"long", ""},
    {"ulong", "unsigned long"},
    {"half", ""},
    {"float", ""},
    {"double", ""},
}};
}  // namespace

std::string_view toString(ScalarType t) { return kNames[size_t(t)].first; }

std::optional<ScalarType> parseScalarType(std::string_view name) {
  if (name.empty()) return std::nullopt;
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i].first == name || kNames[i].second == name) return ScalarType(i);
  return std::nullopt;
}

}  // namespace clref::numerics
