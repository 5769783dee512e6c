// The correctly rounded exact dot product of up to 16 pairs.
#pragma once
#include <span>

#include "numerics/format.hpp"

namespace clref::numerics {

// Σ a[i]·b[i] computed exactly and rounded once to `format` (round to nearest even, with the
// format's subnormals and overflow). Inputs are values of `format` held in doubles; the result
// is a value of `format`. Non-finite inputs follow IEEE 754 (inf − inf and 0·inf give NaN).
double dotExact(std::span<const double> a, std::span<const double> b, Format format, Rounding rounding = Rounding::RTE);

}  // namespace clref::numerics
