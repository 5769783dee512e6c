// SPIR-V 1.6 §3.52.13 [external] Arithmetic Instructions on matrices: OpTranspose, OpMatrixTimesScalar,
// OpVectorTimesMatrix, OpMatrixTimesVector, OpMatrixTimesMatrix, OpOuterProduct; and the evaluation of GLSL.std.450
// Determinant and MatrixInverse (ops_matrix.hpp). Only Vulkan shader modules have matrices (capability Matrix).
//
// A matrix lives in registers as its columns packed one after the other (type_layout.cpp), so element (column c,
// row r) of a matrix with R rows is component c·R + r, and a column is a vector value at c·R components.
//
// clref's value of a product: Vulkan §A.4.2 [external] Precision of Individual Operations (in Precision and Operation
// of SPIR-V Instructions, spirvenv.adoc) makes OpMatrixTimesScalar and OpOuterProduct correctly rounded and lets
// the other products inherit their precision from the sum of products Σ_k a_k × b_k, a formula that "may be
// transformed using the mathematical associativity, commutativity, and distributivity of the operators": any order
// of the additions is as good as another. clref picks one and documents it: each product correctly rounded, then
// the sum in index order, ((a0·b0 + a1·b1) + a2·b2) + …, each addition correctly rounded in the operands' format,
// never fused (the same order and roundings for binary16, 32 and 64; denormals flushed where the device flushes,
// OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] as for OpFAdd and OpFMul).
#include "interpreter/ops_matrix.hpp"

#include <memory>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"
#include "interpreter/shadow_vulkan.hpp"

namespace clref::interpreter {
namespace {

// ---- Arithmetic with a run-time denormal mode (the determinant and inverse evaluations) ---------------------------

template <class T> T mulF(T a, T b, bool flush) { return flush ? mulFtz<true>(a, b) : mulFtz<false>(a, b); }
template <class T> T addF(T a, T b, bool flush) { return flush ? addFtz<true>(a, b) : addFtz<false>(a, b); }
template <class T> T negF(T a) {
  if constexpr (std::is_same_v<T, Half>)
    return numerics::negHalf(a);
  else
    return -a;
}
// a − b is a + (−b) (IEEE 754-2008 §5.4.1 [external] subtraction): negation is exact, so one rounding.
template <class T> T subF(T a, T b, bool flush) { return addF(a, negF(b), flush); }
template <class T> T divF(T a, T b, bool flush) {
  if (flush) {
    a = ftz<true>(a);
    b = ftz<true>(b);
  }
  T q;
  if constexpr (std::is_same_v<T, Half>)
    q = numerics::divHalf(a, b);
  else
    q = T(a / b);
  return flush ? ftz<true>(q) : q;
}

// The determinant of the k×k sub-matrix of the n×n matrix `m` (column-major) made of the rows and columns listed:
// the cofactor expansion along its first column, det = Σ_i (−1)^i · m[c0][r_i] · det(minor without column c0 and row
// r_i), the rows r_i in increasing order, the terms accumulated left to right: ((t0 − t1) + t2) − t3, where each t_i
// is one rounded product of the element and its minor's determinant (so a 2×2 [[a, b], [c, d]] — columns (a, b) and
// (c, d) — is a·d − b·c). GLSL 4.60 §8.6 [external] defines determinant() and inverse() without a formula; this is
// the Laplace expansion as GLSL compilers' built-in libraries write it for 2×2 and 3×3 (m[0][0]·(m[1][1]·m[2][2] −
// m[1][2]·m[2][1]) − m[0][1]·(…) + m[0][2]·(…), m[column][row]), applied the same way to 4×4.
template <class T>
T subDeterminant(const T* m, uint32_t n, const uint32_t* rows, const uint32_t* cols, uint32_t k, bool flush) {
  if (k == 1) return m[cols[0] * n + rows[0]];
  uint32_t minorRows[4];
  T acc{};
  for (uint32_t i = 0; i < k; ++i) {
    for (uint32_t r = 0, o = 0; r < k; ++r)
      if (r != i) minorRows[o++] = rows[r];
    const T minor = subDeterminant(m, n, minorRows, cols + 1, k - 1, flush);
    const T term = mulF(m[cols[0] * n + rows[i]], minor, flush);
    acc = i == 0 ? term : (i % 2 ? subF(acc, term, flush) : addF(acc, term, flush));
  }
  return acc;
}

}  // namespace

template <class T> T matrixDeterminant(const T* m, uint32_t n, bool flush) {
  const uint32_t all[4] = {0, 1, 2, 3};
  return subDeterminant(m, n, all, all, n, flush);
}

// inverse(m)[column c][row r] = (−1)^(r+c) · det(m without row c and column r) / det(m): the adjugate (the transposed
// cofactor matrix) over the determinant, GLSL 4.60 §8.6 [external] inverse(); the minor's determinant as
// matrixDeterminant computes it, the sign exact, one rounded division per element.
template <class T> void matrixInverse(const T* m, uint32_t n, T* out, bool flush) {
  const T det = matrixDeterminant(m, n, flush);
  for (uint32_t c = 0; c < n; ++c)
    for (uint32_t r = 0; r < n; ++r) {
      uint32_t rows[3], cols[3];
      for (uint32_t i = 0, o = 0; i < n; ++i)
        if (i != c) rows[o++] = i;
      for (uint32_t j = 0, o = 0; j < n; ++j)
        if (j != r) cols[o++] = j;
      T cof = subDeterminant(m, n, rows, cols, n - 1, flush);
      if ((r + c) % 2) cof = negF(cof);
      out[c * n + r] = divF(cof, det, flush);
    }
}

template float matrixDeterminant<float>(const float*, uint32_t, bool);
template double matrixDeterminant<double>(const double*, uint32_t, bool);
template Half matrixDeterminant<Half>(const Half*, uint32_t, bool);
template void matrixInverse<float>(const float*, uint32_t, float*, bool);
template void matrixInverse<double>(const double*, uint32_t, double*, bool);
template void matrixInverse<Half>(const Half*, uint32_t, Half*, bool);

namespace {

// The shape of a matrix or vector value: rows × columns (a vector is one column), and its component kind.
struct Shape {
  uint32_t rows = 1, cols = 1;
  uint32_t componentType = 0;
};
Shape shapeOf(const Lowerer& L, uint32_t typeId) {
  const Type& t = L.type(typeId);
  if (t.kind == TypeKind::Matrix) {
    const Type& column = L.type(t.element);
    return {column.count, t.count, column.element};
  }
  if (t.kind == TypeKind::Vector) return {t.count, 1, t.element};
  return {1, 1, typeId};
}

// A sum-of-products instruction: result element (i, j) (result column j, row i; `rows` rows) is
// Σ_k A(i, k) · B(k, j), with A(i, k) the component i·aRow + k·aK of operand a and B(k, j) the component
// k·bK + j·bCol of operand b.
struct Product {
  uint32_t rows, cols, depth;
  uint32_t aRow, aK, bK, bCol;
};

// With RTZ each product and sum rounds toward zero (Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: the shader's
// RoundingModeRTZ or vulkan_rounding=toward_zero), OpOuterProduct's products included.
template <class T, bool FTZ, bool RTZ> const Op* product(WorkItem& wi, const Op* op) {
  const Product& p = *static_cast<const Product*>(op->aux);
  T out[16];
  for (uint32_t j = 0; j < p.cols; ++j)
    for (uint32_t i = 0; i < p.rows; ++i) {
      auto a = [&](uint32_t k) { return rd<T>(wi, op->a + (i * p.aRow + k * p.aK) * sizeof(T)); };
      auto b = [&](uint32_t k) { return rd<T>(wi, op->b + (k * p.bK + j * p.bCol) * sizeof(T)); };
      T acc = mulRounded<FTZ, RTZ>(a(0), b(0));
      for (uint32_t k = 1; k < p.depth; ++k) acc = addRounded<FTZ, RTZ>(acc, mulRounded<FTZ, RTZ>(a(k), b(k)));
      out[j * p.rows + i] = acc;
    }
  std::memcpy(wi.regs + op->r, out, sizeof(T) * p.rows * p.cols);
  return op + 1;
}

// OpMatrixTimesScalar: each of the n components times the scalar, one rounding each.
template <class T, bool FTZ, bool RTZ> const Op* matrixTimesScalar(WorkItem& wi, const Op* op) {
  const T s = rd<T>(wi, op->b);
  for (uint32_t i = 0; i < op->n; ++i)
    wr<T>(wi, op->r + i * sizeof(T), mulRounded<FTZ, RTZ>(rd<T>(wi, op->a + i * sizeof(T)), s));
  return op + 1;
}

// OpTranspose: the operand has n rows and c columns of imm-byte components; result column i, row j is operand
// column j, row i.
const Op* transpose(WorkItem& wi, const Op* op) {
  const uint32_t rows = op->n, cols = op->c, bytes = uint32_t(op->imm);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t j = 0; j < cols; ++j)
      std::memcpy(wi.regs + op->r + (i * cols + j) * bytes, wi.regs + op->a + (j * rows + i) * bytes, bytes);
  return op + 1;
}

template <class T, bool FTZ> const Op* determinant(WorkItem& wi, const Op* op) {
  T m[16];
  std::memcpy(m, wi.regs + op->a, sizeof(T) * op->n * op->n);
  wr<T>(wi, op->r, matrixDeterminant(m, op->n, FTZ));
  return op + 1;
}
template <class T, bool FTZ> const Op* inverse(WorkItem& wi, const Op* op) {
  T m[16], out[16];
  std::memcpy(m, wi.regs + op->a, sizeof(T) * op->n * op->n);
  matrixInverse(m, op->n, out, FTZ);
  std::memcpy(wi.regs + op->r, out, sizeof(T) * op->n * op->n);
  return op + 1;
}

void lowerProduct(Lowerer& L, const Instruction& inst) {
  const Shape a = shapeOf(L, L.typeIdOfValue(inst.operand(0)));
  const Shape b = shapeOf(L, L.typeIdOfValue(inst.operand(1)));
  auto p = std::make_shared<Product>();
  switch (inst.opcode) {
    case spv::Op::OpMatrixTimesVector:  // result[i] = Σ_k M[column k][row i] · v[k]
      *p = {a.rows, 1, a.cols, 1, a.rows, 1, 0};
      break;
    case spv::Op::OpVectorTimesMatrix:  // result[j] = Σ_k v[k] · M[column j][row k]; the result is one row
      *p = {1, b.cols, b.rows, 0, 1, 1, b.rows};
      break;
    case spv::Op::OpMatrixTimesMatrix:  // result[column j][row i] = Σ_k A[column k][row i] · B[column j][row k]
      *p = {a.rows, b.cols, a.cols, 1, a.rows, 1, b.rows};
      break;
    default:  // OpOuterProduct: result[column j][row i] = a[i] · b[j], one product, no sum
      *p = {a.rows, b.rows, 1, 1, 0, 0, 1};
      break;
  }
  if (uint64_t(p->rows) * p->cols > 16 || p->depth > 4) L.reject(inst, "matrix dimensions beyond 4");
  const Handler fn = withFloatRounding(L, L.scalarOf(a.componentType),
                                       [&]<class T, bool Z, bool R>() -> Handler { return &product<T, Z, R>; });
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.aux = p.get();
  L.k.auxObjects.push_back(std::move(p));
}

void lowerMatrixTimesScalar(Lowerer& L, const Instruction& inst) {
  const Shape s = shapeOf(L, inst.resultType);
  const Handler fn = withFloatRounding(L, L.scalarOf(s.componentType), [&]<class T, bool Z, bool R>() -> Handler {
    return &matrixTimesScalar<T, Z, R>;
  });
  Op& op = emitBinary(L, fn, inst);
  op.n = s.rows * s.cols;
}

void lowerTranspose(Lowerer& L, const Instruction& inst) {
  const Shape s = shapeOf(L, L.typeIdOfValue(inst.operand(0)));
  Op& op = L.emit(&transpose, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = s.rows;
  op.c = s.cols;
  op.imm = L.type(s.componentType).size;
}

// A square matrix operand (inst.operand(2)) of 2 to 4 columns, and the handler for its component kind.
void lowerSquare(Lowerer& L, const Instruction& inst, Handler fn) {
  const Shape s = shapeOf(L, L.typeIdOfValue(inst.operand(2)));
  if (s.rows != s.cols || s.rows < 2 || s.rows > 4)
    L.reject(inst, "the operand is not a square matrix of 2 to 4 columns");
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(2));
  op.n = s.rows;
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp)
// --------------------------------------------------------------

// OpTranspose: the sets move with the components.
void shadowTranspose(ShadowLowering& S) {
  const Shape s = shapeOf(S.L, S.L.typeIdOfValue(S.operand(0)));
  const uint32_t bytes = uint32_t(S.L.type(s.componentType).size), src = S.L.reg(S.operand(0));
  std::vector<uint32_t> triples;
  for (uint32_t i = 0; i < s.rows; ++i)
    for (uint32_t j = 0; j < s.cols; ++j)
      triples.insert(triples.end(), {(i * s.cols + j) * bytes, src + (j * s.rows + i) * bytes, bytes});
  S.copies(std::move(triples));
}
// OpMatrixTimesScalar: correctly rounded per component (the core table), the product's set lane by lane over the
// matrix's components.
void shadowMatrixTimesScalar(ShadowLowering& S) {
  const Shape s = shapeOf(S.L, S.inst.resultType);
  const uint32_t bytes = uint32_t(S.L.type(s.componentType).size);
  FloatRule& rule = S.floatRule(FloatKind::Core, {S.operand(0), S.operand(1)}, numerics::CoreOp::Mul);
  rule.lanes = s.rows * s.cols;
  rule.args[0].stride = bytes;
}
// OpOuterProduct: correctly rounded per component; column j is the vector a times the scalar b[j].
void shadowOuterProduct(ShadowLowering& S) {
  const Shape s = shapeOf(S.L, S.inst.resultType);
  const uint32_t bytes = uint32_t(S.L.type(s.componentType).size);
  for (uint32_t j = 0; j < s.cols; ++j) {
    FloatRule& rule = S.floatRule(FloatKind::Core, {S.operand(0), S.operand(1)}, numerics::CoreOp::Mul);
    rule.lanes = s.rows;
    rule.args[1].reg += j * bytes;
    rule.args[1].stride = 0;
    S.L.k.ops.back().r += j * s.rows * bytes;
  }
}

// OpMatrixTimesVector, OpVectorTimesMatrix, OpMatrixTimesMatrix: "Inherited from" their sums of products (Vulkan
// §A.4.2 [external] [[spirvenv-precision-core-table]]), the shapes lowerProduct computes.
void shadowProduct(ShadowLowering& S) {
  const Shape a = shapeOf(S.L, S.L.typeIdOfValue(S.operand(0)));
  const Shape b = shapeOf(S.L, S.L.typeIdOfValue(S.operand(1)));
  SumOfProductsShape p;
  if (S.inst.opcode == spv::Op::OpMatrixTimesVector)
    p = {a.rows, 1, a.cols, 1, a.rows, 1, 0};
  else if (S.inst.opcode == spv::Op::OpVectorTimesMatrix)
    p = {1, b.cols, b.rows, 0, 1, 1, b.rows};
  else
    p = {a.rows, b.cols, a.cols, 1, a.rows, 1, b.rows};
  vulkanSumOfProducts(S, p);
}

}  // namespace

// Determinant and MatrixInverse: Vulkan §A.4.2 [external] "GLSL.std.450 extended instructions not listed above and not
// defined in terms of the above have implementation-defined precision" (neither is in the table), so each component
// may hold any value.
void shadowImplementationDefinedPrecision(ShadowLowering& S) {
  const Shape s = shapeOf(S.L, S.inst.resultType);
  const uint32_t bytes = uint32_t(S.L.type(s.componentType).size);
  std::vector<uint32_t> offsets;
  for (uint32_t i = 0; i < s.rows * s.cols; ++i) offsets.push_back(i * bytes);
  S.anyValueLanes(std::move(offsets), bytes);
}

void lowerDeterminant(Lowerer& L, const Instruction& inst) {
  const Shape s = shapeOf(L, L.typeIdOfValue(inst.operand(2)));
  lowerSquare(L, inst, withFloatFtz(L, L.scalarOf(s.componentType), [&]<class T, bool Z>() -> Handler {
                return &determinant<T, Z>;
              }));
}

void lowerMatrixInverse(Lowerer& L, const Instruction& inst) {
  const Shape s = shapeOf(L, L.typeIdOfValue(inst.operand(2)));
  lowerSquare(L, inst, withFloatFtz(L, L.scalarOf(s.componentType), [&]<class T, bool Z>() -> Handler {
                return &inverse<T, Z>;
              }));
}

void registerMatrix(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpTranspose, lowerTranspose, {shadowTranspose});
  t.lower(Op::OpMatrixTimesScalar, lowerMatrixTimesScalar, {shadowMatrixTimesScalar});
  t.lower({Op::OpMatrixTimesVector, Op::OpVectorTimesMatrix, Op::OpMatrixTimesMatrix}, lowerProduct,
          {shadowProduct});
  t.lower(Op::OpOuterProduct, lowerProduct, {shadowOuterProduct});
}

}  // namespace clref::interpreter
