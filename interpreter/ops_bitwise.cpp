// SPIR-V 1.0 §3.32.14 [external] Bit Instructions.
#include <bit>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

// OpenCL C 3.0 §6.5.10 [[operators-shift]]: the shift count is taken modulo the number of bits of the shifted
// type ("the value of the right operand is ... masked with (bits - 1)"), so SPIR-V's undefined
// over-wide shift never arises from OpenCL C.
template <class T> constexpr T countMask = T(sizeof(T) * 8 - 1);

struct Shl {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a << (b & countMask<T>)); }
};
struct ShrL {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a >> (b & countMask<T>)); }
};
struct ShrA {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    return T(Signed<T>(a) >> (b & countMask<T>));  // C++20: >> of a negative value is arithmetic
  }
};
struct Or {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a | b); }
};
struct Xor {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a ^ b); }
};
struct And {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a & b); }
};
struct Not {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(~a); }
};
struct BitCount {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(std::popcount(a)); }
};
struct BitReverse {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    T r = 0;
    for (unsigned i = 0; i < sizeof(T) * 8; ++i) r = T(r | (((a >> i) & 1) << (sizeof(T) * 8 - 1 - i)));
    return r;
  }
};

// Bit-field instructions: Offset and Count are scalars shared by all lanes (SPIR-V 1.0
// §3.32.14 [external]); counts beyond the width are undefined in SPIR-V and clamped here (not reachable
// from OpenCL C, which has no bit-field builtins before cl_khr_extended_bit_ops).
template <class T> T fieldMask(uint64_t count) { return count >= sizeof(T) * 8 ? T(~T(0)) : T((T(1) << count) - 1); }
// Offset and Count may be of any integer width (SPIR-V 1.0 §3.32.14 [external]: "treated as unsigned");
// their widths are kept in Op::align (offset bytes | count bytes << 8).
inline uint64_t readUnsigned(const WorkItem& wi, uint32_t reg, uint32_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, wi.regs + reg, bytes);
  return v;
}

template <class T> const Op* bitFieldInsert(WorkItem& wi, const Op* op) {
  const uint64_t offset = readUnsigned(wi, uint32_t(op->imm), op->align & 0xff) % (sizeof(T) * 8);
  const uint64_t count = readUnsigned(wi, uint32_t(op->imm >> 32), op->align >> 8);
  const T mask = T(fieldMask<T>(count) << offset);
  for (uint32_t i = 0; i < op->n; ++i) {
    const T base = rd<T>(wi, op->a + i * sizeof(T)), ins = rd<T>(wi, op->b + i * sizeof(T));
    wr<T>(wi, op->r + i * sizeof(T), T((base & ~mask) | ((ins << offset) & mask)));
  }
  return op + 1;
}
template <class T, bool Signed> const Op* bitFieldExtract(WorkItem& wi, const Op* op) {
  const uint64_t offset = readUnsigned(wi, op->b, op->align & 0xff) % (sizeof(T) * 8);
  const uint64_t count = readUnsigned(wi, op->c, op->align >> 8);
  for (uint32_t i = 0; i < op->n; ++i) {
    const T base = rd<T>(wi, op->a + i * sizeof(T));
    T v = T((base >> offset) & fieldMask<T>(count));
    if (Signed && count > 0 && count < sizeof(T) * 8 && ((v >> (count - 1)) & 1)) v = T(v | ~fieldMask<T>(count));
    wr<T>(wi, op->r + i * sizeof(T), v);
  }
  return op + 1;
}

uint32_t widthsOf(const Lowerer& L, uint32_t offsetId, uint32_t countId) {
  return uint32_t(L.typeOfValue(offsetId).size) | uint32_t(L.typeOfValue(countId).size) << 8;
}

void lowerBitFieldInsert(Lowerer& L, const Instruction& inst) {
  auto& op = emitBinary(
      L, withInt(L.scalarOf(inst.resultType), [&]<class T>() -> Handler { return &bitFieldInsert<T>; }), inst);
  op.imm = uint64_t(L.reg(inst.operand(2))) | (uint64_t(L.reg(inst.operand(3))) << 32);
  op.align = widthsOf(L, inst.operand(2), inst.operand(3));
}

// OpBitFieldSExtract, OpBitFieldUExtract.
void lowerBitFieldExtract(Lowerer& L, const Instruction& inst) {
  const bool sgn = inst.opcode == spv::Op::OpBitFieldSExtract;
  auto& op = emitUnary(
      L,
      withInt(L.scalarOf(inst.resultType),
              [&]<class T>() -> Handler { return sgn ? &bitFieldExtract<T, true> : &bitFieldExtract<T, false>; }),
      inst);
  op.b = L.reg(inst.operand(1));
  op.c = L.reg(inst.operand(2));
  op.align = widthsOf(L, inst.operand(1), inst.operand(2));
}

}  // namespace

void registerBitwise(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpShiftLeftLogical, lowerIntBinaryOp<Shl>);
  t.lower(Op::OpShiftRightLogical, lowerIntBinaryOp<ShrL>);
  t.lower(Op::OpShiftRightArithmetic, lowerIntBinaryOp<ShrA>);
  t.lower(Op::OpBitwiseOr, lowerIntBinaryOp<Or>);
  t.lower(Op::OpBitwiseXor, lowerIntBinaryOp<Xor>);
  t.lower(Op::OpBitwiseAnd, lowerIntBinaryOp<And>);
  t.lower(Op::OpNot, lowerIntUnaryOp<Not>);
  t.lower(Op::OpBitCount, lowerIntUnaryOp<BitCount>);
  t.lower(Op::OpBitReverse, lowerIntUnaryOp<BitReverse>);
  t.lower(Op::OpBitFieldInsert, lowerBitFieldInsert);
  t.lower({Op::OpBitFieldSExtract, Op::OpBitFieldUExtract}, lowerBitFieldExtract);
}

}  // namespace clref::interpreter
