// GLSL.std.450 packing instructions (GLSL.std.450 §2 [external] PackSnorm4x8 … UnpackDouble2x32; GLSL 4.60 §8.4
// [external] floating-point pack and unpack functions). The first component goes to the least significant bits. The
// normalized forms are GLSL's formulas, each operation rounded in binary32 (ops_glsl_std450.hpp):
//   packUnorm: round(clamp(c, 0, +1) · 255.0 or 65535.0)    unpackUnorm: f / 255.0 or 65535.0
//   packSnorm: round(clamp(c, −1, +1) · 127.0 or 32767.0)   unpackSnorm: clamp(f / 127.0 or 32767.0, −1, +1)
// with GLSL's round (the choice glsl_round_half at .5) and clamp (FClamp, so a NaN component is the choice
// glsl_min_max_nan: the lower bound by default; when the clamp keeps the NaN, the packed field is 0, a value the
// undefined conversion of a NaN to an integer may give). packHalf2x16 converts each component to binary16 rounding
// to nearest even (the conversion rule of OpFConvert; GLSL does not name one), unpackHalf2x16 converts exactly.
#include "interpreter/ops_glsl_std450.hpp"

namespace clref::interpreter {
namespace {

struct Normalized {
  uint32_t components, bits;
  bool isSigned;
};
Normalized normalizedOf(GLSLstd450 f) {
  switch (f) {
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450UnpackSnorm4x8: return {4, 8, true};
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450UnpackUnorm4x8: return {4, 8, false};
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450UnpackSnorm2x16: return {2, 16, true};
    default: return {2, 16, false};  // PackUnorm2x16, UnpackUnorm2x16
  }
}
// 127, 255, 32767 or 65535: the largest code.
float scaleOf(const Normalized& f) { return float((1u << (f.isSigned ? f.bits - 1 : f.bits)) - 1); }

// a = the vec2/vec4 operand, r = the uint result; imm = the instruction.
template <bool Z> const Op* packNormalized(WorkItem& wi, const Op* op) {
  const Normalized f = normalizedOf(GLSLstd450(op->imm));
  const float lo = f.isSigned ? -1.0f : 0.0f, hi = 1.0f;
  uint32_t word = 0;
  for (uint32_t i = 0; i < f.components; ++i) {
    const float c = ftz<Z>(rd<float>(wi, op->a + 4 * i));
    auto mn = [&](float a, float b) {
      return glslMinMax<false>(a, b, glslMinMaxFormula(wi, op, isNaN(a) && !isNaN(b)));
    };
    auto mx = [&](float a, float b) {
      return glslMinMax<true>(a, b, glslMinMaxFormula(wi, op, isNaN(a) && !isNaN(b)));
    };
    const float scaled = fMul<Z>(mn(mx(c, lo), hi), scaleOf(f));
    const double code = std::isnan(scaled) ? 0.0 : glslRound(wi, op, double(scaled));
    const uint32_t field = uint32_t(int32_t(code)) & ((1u << f.bits) - 1);
    word |= field << (i * f.bits);
  }
  wr<uint32_t>(wi, op->r, word);
  return op + 1;
}

template <bool Z> const Op* unpackNormalized(WorkItem& wi, const Op* op) {
  const Normalized f = normalizedOf(GLSLstd450(op->imm));
  const uint32_t word = rd<uint32_t>(wi, op->a);
  for (uint32_t i = 0; i < f.components; ++i) {
    const uint32_t field = (word >> (i * f.bits)) & ((1u << f.bits) - 1);
    const int32_t v = f.isSigned ? int32_t(field << (32 - f.bits)) >> (32 - f.bits) : int32_t(field);
    float x = fDiv<Z>(float(v), scaleOf(f));                                                // v is exact in binary32
    if (f.isSigned) x = glslMinMax<false>(glslMinMax<true>(x, -1.0f, false), 1.0f, false);  // no NaN here
    wr<float>(wi, op->r + 4 * i, x);
  }
  return op + 1;
}

// packHalf2x16 / unpackHalf2x16.
template <bool Z> const Op* packHalf(WorkItem& wi, const Op* op) {
  uint32_t word = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    const Half h = numerics::toHalf(double(ftz<Z>(rd<float>(wi, op->a + 4 * i))));
    word |= uint32_t(h.bits) << (16 * i);
  }
  wr<uint32_t>(wi, op->r, word);
  return op + 1;
}
template <bool Z> const Op* unpackHalf(WorkItem& wi, const Op* op) {
  const uint32_t word = rd<uint32_t>(wi, op->a);
  for (uint32_t i = 0; i < 2; ++i)
    wr<float>(wi, op->r + 4 * i, ftz<Z>(float(numerics::toDouble(Half{uint16_t(word >> (16 * i))}))));
  return op + 1;
}
// packDouble2x32 / unpackDouble2x32: the 64 bits of the double, the first uint the low half (a bit copy).
const Op* copy8(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a, 8);
  return op + 1;
}

}  // namespace

bool lowerGlslPack(Lowerer& L, const Instruction& inst) {
  const uint32_t number = inst.operand(1);
  const bool flush = L.flush(ScalarType::Float);
  Handler h = nullptr;
  switch (GLSLstd450(number)) {
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16: h = flush ? &packNormalized<true> : &packNormalized<false>; break;
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm2x16: h = flush ? &unpackNormalized<true> : &unpackNormalized<false>; break;
    case GLSLstd450PackHalf2x16: h = flush ? &packHalf<true> : &packHalf<false>; break;
    case GLSLstd450UnpackHalf2x16: h = flush ? &unpackHalf<true> : &unpackHalf<false>; break;
    case GLSLstd450PackDouble2x32:
    case GLSLstd450UnpackDouble2x32: h = &copy8; break;
    default: return false;
  }
  // The float side: the operand of a pack, the result of an unpack; binary64 for the Double2x32 pair.
  const bool packs = number <= GLSLstd450PackDouble2x32;
  const bool isDouble = number == GLSLstd450PackDouble2x32 || number == GLSLstd450UnpackDouble2x32;
  const ScalarType floatSide = L.scalarOf(packs != isDouble ? L.typeIdOfValue(inst.operand(2)) : inst.resultType);
  if (floatSide != (isDouble ? ScalarType::Double : ScalarType::Float))
    L.reject(inst, "a GLSL.std.450 pack/unpack instruction with operand or result of the wrong type");
  Op& op = L.emit(h, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(2));
  op.n = 1;
  op.imm = number;
  return true;
}

}  // namespace clref::interpreter
