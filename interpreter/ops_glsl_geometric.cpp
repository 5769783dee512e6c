// GLSL.std.450 geometric instructions (GLSL.std.450 §2 [external] Length … Refract; GLSL 4.60 §8.5 [external]
// geometric functions): each evaluated by GLSL's formula, every operation rounded in the operands' format, in the
// formula's order, none fused (ops_glsl_std450.hpp). dot(x, y) is x[0]·y[0] + x[1]·y[1] + …, summed from the first
// component; GLSL's formulas are written below each function.
#include "interpreter/ops_glsl_std450.hpp"

namespace clref::interpreter {
namespace {

template <class T> T lane(WorkItem& wi, uint32_t reg, uint32_t i) { return rd<T>(wi, reg + i * uint32_t(sizeof(T))); }

// x[0]·y[0] + x[1]·y[1] + … over n lanes.
template <class T, bool Z, bool R> T dot(WorkItem& wi, uint32_t x, uint32_t y, uint32_t n) {
  T s = fMul<Z, R>(lane<T>(wi, x, 0), lane<T>(wi, y, 0));
  for (uint32_t i = 1; i < n; ++i) s = fAdd<Z, R>(s, fMul<Z, R>(lane<T>(wi, x, i), lane<T>(wi, y, i)));
  return s;
}
template <class T, bool Z, bool R> T sumOfSquares(const T* v, uint32_t n) {
  T s = fMul<Z, R>(v[0], v[0]);
  for (uint32_t i = 1; i < n; ++i) s = fAdd<Z, R>(s, fMul<Z, R>(v[i], v[i]));
  return s;
}

// n = operand lanes, imm = the instruction.
template <class T, bool Z, bool R> const Op* geometric(WorkItem& wi, const Op* op) {
  const uint32_t n = op->n;
  T v[4] = {};
  switch (GLSLstd450(op->imm)) {
    case GLSLstd450Length:  // length(x) = sqrt(x[0]² + x[1]² + …)
      for (uint32_t i = 0; i < n; ++i) v[i] = lane<T>(wi, op->a, i);
      wr<T>(wi, op->r, fSqrt<Z, R>(sumOfSquares<T, Z, R>(v, n)));
      break;
    case GLSLstd450Distance:  // distance(p0, p1) = length(p0 − p1)
      for (uint32_t i = 0; i < n; ++i) v[i] = fSub<Z, R>(lane<T>(wi, op->a, i), lane<T>(wi, op->b, i));
      wr<T>(wi, op->r, fSqrt<Z, R>(sumOfSquares<T, Z, R>(v, n)));
      break;
    case GLSLstd450Normalize: {  // normalize(x) = x / length(x)
      for (uint32_t i = 0; i < n; ++i) v[i] = lane<T>(wi, op->a, i);
      const T len = fSqrt<Z, R>(sumOfSquares<T, Z, R>(v, n));
      for (uint32_t i = 0; i < n; ++i) wr<T>(wi, op->r + i * sizeof(T), fDiv<Z, R>(v[i], len));
      break;
    }
    case GLSLstd450Cross: {  // (x[1]·y[2] − y[1]·x[2], x[2]·y[0] − y[2]·x[0], x[0]·y[1] − y[0]·x[1])
      T x[3], y[3];
      for (uint32_t i = 0; i < 3; ++i) {
        x[i] = lane<T>(wi, op->a, i);
        y[i] = lane<T>(wi, op->b, i);
      }
      for (uint32_t i = 0; i < 3; ++i) {
        const uint32_t j = (i + 1) % 3, k = (i + 2) % 3;
        v[i] = fSub<Z, R>(fMul<Z, R>(x[j], y[k]), fMul<Z, R>(y[j], x[k]));
      }
      for (uint32_t i = 0; i < 3; ++i) wr<T>(wi, op->r + i * sizeof(T), v[i]);
      break;
    }
    case GLSLstd450FaceForward: {  // faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : −N
      const bool keep = fLess(dot<T, Z, R>(wi, op->c, op->b, n), fConst<T>(0));
      for (uint32_t i = 0; i < n; ++i) {
        const T x = lane<T>(wi, op->a, i);
        wr<T>(wi, op->r + i * sizeof(T), keep ? x : fNeg(x));
      }
      break;
    }
    case GLSLstd450Reflect: {  // reflect(I, N) = I − 2.0 · dot(N, I) · N
      const T twoDot = fMul<Z, R>(fConst<T>(2), dot<T, Z, R>(wi, op->b, op->a, n));
      for (uint32_t i = 0; i < n; ++i)
        wr<T>(wi, op->r + i * sizeof(T), fSub<Z, R>(lane<T>(wi, op->a, i), fMul<Z, R>(twoDot, lane<T>(wi, op->b, i))));
      break;
    }
    default: break;  // lowerGlslGeometric emits this handler for the instructions above only
  }
  return op + 1;
}

// refract(I, N, eta): k = 1.0 − eta · eta · (1.0 − dot(N, I) · dot(N, I)); 0 if k < 0.0, else
// eta · I − (eta · dot(N, I) + sqrt(k)) · N. eta is a scalar of type E (its value is exact in T: E is T, or narrower).
template <class T, bool Z, bool R, class E> const Op* refract(WorkItem& wi, const Op* op) {
  const uint32_t n = op->n;
  const T eta = fromD<T>(toD(ftz<Z>(rd<E>(wi, op->c))));
  const T d = dot<T, Z, R>(wi, op->b, op->a, n);
  const T one = fConst<T>(1);
  const T k = fSub<Z, R>(one, fMul<Z, R>(fMul<Z, R>(eta, eta), fSub<Z, R>(one, fMul<Z, R>(d, d))));
  if (fLess(k, fConst<T>(0))) {
    for (uint32_t i = 0; i < n; ++i) wr<T>(wi, op->r + i * sizeof(T), fConst<T>(0));
    return op + 1;
  }
  const T s = fAdd<Z, R>(fMul<Z, R>(eta, d), fSqrt<Z, R>(k));
  for (uint32_t i = 0; i < n; ++i)
    wr<T>(wi, op->r + i * sizeof(T),
          fSub<Z, R>(fMul<Z, R>(eta, lane<T>(wi, op->a, i)), fMul<Z, R>(s, lane<T>(wi, op->b, i))));
  return op + 1;
}

}  // namespace

Handler glslGeometricHandler(uint32_t number, ScalarType s, ScalarType eta, bool flush, bool towardZero) {
  switch (GLSLstd450(number)) {
    case GLSLstd450Length:
    case GLSLstd450Distance:
    case GLSLstd450Cross:
    case GLSLstd450Normalize:
    case GLSLstd450FaceForward:
    case GLSLstd450Reflect: break;
    case GLSLstd450Refract:
      return withFloatModes(s, flush, towardZero, [&]<class T, bool Z, bool R>() {
        return withFloat(eta, [&]<class E>() -> Handler { return &refract<T, Z, R, E>; });
      });
    default: return nullptr;
  }
  return withFloatModes(s, flush, towardZero, [&]<class T, bool Z, bool R>() -> Handler { return &geometric<T, Z, R>; });
}

bool lowerGlslGeometric(Lowerer& L, const Instruction& inst) {
  const uint32_t number = inst.operand(1);
  // Length … Refract: the instructions glslGeometricHandler has a handler for.
  if (!glslGeometricHandler(number, ScalarType::Float, ScalarType::Float, false, false)) return false;
  const uint32_t operandType = L.typeIdOfValue(inst.operand(2));
  const ScalarType s = L.scalarOf(operandType);
  if (!numerics::isFloat(s)) L.reject(inst, "a GLSL.std.450 geometric instruction on integer operands");
  const uint32_t lanes = L.lanes(operandType);
  if (number == GLSLstd450Cross && lanes != 3) L.reject(inst, "GLSL.std.450 Cross of vectors that are not 3-component");
  ScalarType eta = s;
  if (number == GLSLstd450Refract) {
    eta = L.scalarOf(L.typeIdOfValue(inst.operand(4)));
    if (!numerics::isFloat(eta) || sizeOf(eta) > sizeOf(s)) L.reject(inst, "GLSL.std.450 Refract with an eta wider than I");
  }
  const Handler h = glslGeometricHandler(number, s, eta, L.flush(s), L.towardZero(s));
  Op& op = L.emit(h, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(2));
  if (inst.operandCount() > 3) op.b = L.reg(inst.operand(3));
  if (inst.operandCount() > 4) op.c = L.reg(inst.operand(4));
  op.n = lanes;
  op.imm = number;
  return true;
}

}  // namespace clref::interpreter
