// Matrices (SPIR-V 1.6 §3.52.13 [external] the linear-algebra instructions; ops_matrix.cpp): the evaluation of the
// GLSL.std.450 Determinant and MatrixInverse and their lowerings, which the GLSL.std.450 dispatch calls. Internal to
// the interpreter.
//
// A matrix value in registers is its columns packed one after the other (type_layout.cpp says why): an n×n matrix
// of T is n·n components, element (column c, row r) at index c·n + r.
#pragma once
#include <cstdint>

#include "interpreter/lower.hpp"
#include "numerics/half_arith.hpp"

namespace clref::interpreter {

// GLSL.std.450 Determinant (number 33) and MatrixInverse (34): result type operand inst.resultType, the matrix at
// inst.operand(2). The instruction's set and number are the caller's to check.
void lowerDeterminant(Lowerer& L, const Instruction& inst);
void lowerMatrixInverse(Lowerer& L, const Instruction& inst);
// Their allowed-set rule for the shadow mode: each component of the result may hold any value (ops_matrix.cpp says
// why).
class ShadowLowering;
void shadowImplementationDefinedPrecision(ShadowLowering& S);

// clref's value of determinant(m) for an n×n matrix (n = 2, 3 or 4), `m` column-major as above: the cofactor
// expansion along the first column, each operation correctly rounded in T (to nearest even) in the order
// ops_matrix.cpp states; `flush`: subnormal operands and results of each operation become zero (FTZ).
template <class T> T matrixDeterminant(const T* m, uint32_t n, bool flush);
// clref's value of inverse(m): the adjugate divided by matrixDeterminant(m), each element one correctly rounded
// division of its cofactor (a determinant of a minor, as above, with its sign) by the determinant. `out` receives
// n·n components, column-major.
template <class T> void matrixInverse(const T* m, uint32_t n, T* out, bool flush);

extern template float matrixDeterminant<float>(const float*, uint32_t, bool);
extern template double matrixDeterminant<double>(const double*, uint32_t, bool);
extern template numerics::Half matrixDeterminant<numerics::Half>(const numerics::Half*, uint32_t, bool);
extern template void matrixInverse<float>(const float*, uint32_t, float*, bool);
extern template void matrixInverse<double>(const double*, uint32_t, double*, bool);
extern template void matrixInverse<numerics::Half>(const numerics::Half*, uint32_t, numerics::Half*, bool);

}  // namespace clref::interpreter
