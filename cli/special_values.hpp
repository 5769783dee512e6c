// The fixed table of special values behind the "special" init (golden/README.md "Random
// streams"). Internal to cli/; the order is part of the case-file format.
#pragma once
#include <array>
#include <cstdint>

#include "cli/case_file.hpp"

namespace clref::cli::detail {

constexpr size_t kSpecialCount = 24;
// The bits of the 24 special values of a floating-point element type, in table order.
const std::array<uint64_t, kSpecialCount>& specialTable(ScalarType floatType);

}  // namespace clref::cli::detail
