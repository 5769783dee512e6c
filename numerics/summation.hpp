// Allowed sets of sums whose order of operations is open: the floating-point work-group and sub-group reductions and
// scans (OpenCL C 3.0 §6.15.16 [[work-group-functions]] NOTE: "The order of floating-point operations is not
// guaranteed for the work_group_reduce_<op>, work_group_scan_inclusive_<op> and work_group_scan_exclusive_<op> built-in
// functions that operate on half, float and double data types"; clref's choice work_group_reduction_order).
//
// Whatever the order (any parenthesisation, any permutation) a sum of n terms computed by n − 1 additions, each
// rounded once, differs from the exact sum by at most γ(n−1)·Σ|x_i|, γ(k) = k·u / (1 − k·u), with u the unit roundoff
// (Higham §4.2 [external], eq. (4.4), in N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.).
// u is 2^-p for round to nearest and 2^(1−p) for a device whose default rounding is toward zero (the embedded
// profile, or a Vulkan shader without RoundingModeRTE); a device that flushes subnormal operands and results adds at
// most the smallest normal number per operand and per addition. The allowed set is that interval around the exact
// sums of the terms' sets, rounded outward to the format; any operand set holding an infinity or a NaN gives every
// value (inf − inf is NaN in some orders and not in others).
#pragma once
#include <span>

#include "numerics/enclosure.hpp"
#include "numerics/verdict.hpp"

namespace clref::numerics {

// The values a sum of the terms (term i any member of terms[i]) may have in `format` when the order of the additions
// is open. One term: that term's set (no addition); two: the addition's own set (allowedSetCore). No term: +0 (the
// identity of an exclusive scan's first result).
ValueSet allowedSetOfSum(std::span<const ValueSet> terms, Format format, Profile profile,
                         const VerdictOptions& options = {});

}  // namespace clref::numerics
