// SPV_KHR_integer_dot_product [external] (cl_khr_integer_dot_product: OpenCL Extension Specification 3.0.12 §42
// "Integer dot product"): OpSDot, OpUDot, OpSUDot and their accumulating, saturating forms. OpenCL C's dot()
// and dot_acc_sat() on char4/uchar4 (OpenCL C 3.0 §6.15.3 [[integer-functions]]) arrive here; the packed built-ins
// (dot_4x8packed_*) arrive as the same instructions on the unpacked vectors (the compiler's prelude), or, from other
// producers, on 32-bit scalars with PackedVectorFormat4x8Bit.
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

using I128 = __int128;

// Op fields: r = result, a = Vector 1, b = Vector 2, c = Accumulator (the AccSat forms), n = components,
// imm = component bytes | result bytes << 8 | kind << 16, where kind is the DotKind below.
enum DotKind : uint32_t {
  kSigned1 = 1,    // Vector 1's components are signed (OpSDot*, OpSUDot*)
  kSigned2 = 2,    // Vector 2's components are signed (OpSDot*)
  kSaturate = 4,   // the AccSat forms: add the accumulator, saturating
  kSignedSat = 8,  // saturate to the signed range of the result (OpSDotAccSat, OpSUDotAccSat)
};

// Component i of a vector of `bytes`-byte integers at `p` (PackedVectorFormat4x8Bit: component 0 is the least
// significant byte of the 32-bit word, which on this little-endian host is the same layout as a uchar4).
I128 component(const uint8_t* p, uint32_t i, uint32_t bytes, bool isSigned) {
  uint64_t u = 0;
  std::memcpy(&u, p + i * bytes, bytes);
  if (isSigned && bytes < 8) {
    const unsigned shift = 64 - 8 * bytes;
    return I128(int64_t(u << shift) >> shift);
  }
  return isSigned ? I128(int64_t(u)) : I128(u);
}

// SPV_KHR_integer_dot_product: the plain forms give "the low-order N bits of the correct result R, where N is the
// result width and R is computed with enough precision to avoid overflow and underflow"; the AccSat forms add the
// accumulator with saturation to the result type (signed for OpSDotAccSat and OpSUDotAccSat). Products and sums of the
// components cannot overflow 128 bits for components up to 32 bits; wider ones are undefined there when they overflow
// the result ("If any of the multiplications or additions, with the exception of the final accumulation, overflow or
// underflow, the result of the instruction is undefined").
const Op* dotProduct(WorkItem& wi, const Op* op) {
  const uint32_t bytes = uint32_t(op->imm & 0xff), resultBytes = uint32_t((op->imm >> 8) & 0xff);
  const uint32_t kind = uint32_t(op->imm >> 16);
  I128 sum = 0;
  for (uint32_t i = 0; i < op->n; ++i)
    sum +=
        component(wi.regs + op->a, i, bytes, kind & kSigned1) * component(wi.regs + op->b, i, bytes, kind & kSigned2);
  if (kind & kSaturate) {
    const bool sat = kind & kSignedSat;
    sum += component(wi.regs + op->c, 0, resultBytes, sat);
    const unsigned bits = 8 * resultBytes;
    const I128 hi = sat ? (I128(1) << (bits - 1)) - 1 : (I128(1) << bits) - 1;
    const I128 lo = sat ? -(I128(1) << (bits - 1)) : I128(0);
    sum = sum > hi ? hi : sum < lo ? lo : sum;
  }
  const auto low = uint64_t(sum);  // the low-order bits, two's complement
  std::memcpy(wi.regs + op->r, &low, resultBytes);
  return op + 1;
}

void lowerIntegerDot(Lowerer& L, const Instruction& inst) {
  using S = spv::Op;
  const S o = inst.opcode;
  const bool acc = o == S::OpSDotAccSat || o == S::OpUDotAccSat || o == S::OpSUDotAccSat;
  const Type& vec = L.typeOfValue(inst.operand(0));
  const size_t formatOperand = acc ? 3 : 2;
  uint32_t kind = 0;
  if (o == S::OpSDot || o == S::OpSDotAccSat) kind = kSigned1 | kSigned2;
  if (o == S::OpSUDot || o == S::OpSUDotAccSat) kind = kSigned1;
  if (acc) kind |= kSaturate | (o == S::OpUDotAccSat ? 0u : uint32_t(kSignedSat));
  uint32_t bytes = 0, components = 0;
  if (inst.operandCount() > formatOperand) {
    // PackedVectorFormat (SPV_KHR_integer_dot_product): 0 is PackedVectorFormat4x8Bit, four 8-bit components in a
    // 32-bit scalar; there is no other.
    if (inst.operand(formatOperand) != 0 || vec.kind != TypeKind::Int || vec.width != 32)
      L.reject(inst, "a packed dot product other than PackedVectorFormat4x8Bit on 32-bit scalars");
    bytes = 1;
    components = 4;
  } else {
    if (vec.kind != TypeKind::Vector) L.reject(inst, "a dot product of scalars without a packed vector format");
    bytes = uint32_t(sizeOf(L.scalarOf(L.typeIdOfValue(inst.operand(0)))));
    components = vec.count;
  }
  const uint32_t resultBytes = uint32_t(L.type(inst.resultType).size);
  if (resultBytes < bytes) L.reject(inst, "a dot product whose result is narrower than its components");
  Op& op = L.emit(&dotProduct, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  if (acc) op.c = L.reg(inst.operand(2));
  op.n = components;
  op.imm = uint64_t(bytes) | uint64_t(resultBytes) << 8 | uint64_t(kind) << 16;
}

}  // namespace

void registerDotProduct(DispatchTable& t) {
  using S = spv::Op;
  t.lower({S::OpSDot, S::OpUDot, S::OpSUDot, S::OpSDotAccSat, S::OpUDotAccSat, S::OpSUDotAccSat}, lowerIntegerDot);
}

}  // namespace clref::interpreter
