// binary16 arithmetic for the core instructions (OpFAdd, OpFSub, OpFMul, OpFDiv, sqrt).
//
// Each operation is computed in binary32 and rounded once more to binary16. This is exact: for
// +, -, ×, ÷ and √ a format with p' ≥ 2p + 2 bits of precision rounds innocuously (Figueroa,
// "When is double rounding innocuous?", 1995): 24 ≥ 2·11 + 2. The binary32 intermediate never
// overflows or underflows for binary16 operands. fma is not covered by that theorem and is done
// in numerics::fmaHalf.
#pragma once
#include <cmath>

#include "numerics/format.hpp"

namespace clref::numerics {

inline Half addHalf(Half a, Half b) { return toHalf(toFloat(a) + toFloat(b)); }
inline Half subHalf(Half a, Half b) { return toHalf(toFloat(a) - toFloat(b)); }
inline Half mulHalf(Half a, Half b) { return toHalf(toFloat(a) * toFloat(b)); }
inline Half divHalf(Half a, Half b) { return toHalf(toFloat(a) / toFloat(b)); }
inline Half sqrtHalf(Half a) { return toHalf(std::sqrt(toFloat(a))); }
inline Half negHalf(Half a) { return Half{uint16_t(a.bits ^ 0x8000)}; }

// fma(a, b, c) rounded once to binary16. a·b is exact in binary64 but a·b + c can need more
// than 53 bits, so the sum is formed exactly in MPFR and rounded once: see fma.cpp.
Half fmaHalf(Half a, Half b, Half c);

}  // namespace clref::numerics
