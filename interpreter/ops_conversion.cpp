// SPIR-V 1.0 §3.32.11 [external] Conversion Instructions, with the OpenCL default rounding: to integer
// rounds toward zero, to floating point rounds to nearest even (OpenCL SPIR-V Environment
// §6.2 [[_rounding_modes_for_conversions]] and OpenCL C 3.0 §6.4.3.2 [[rounding-modes]] "default rounding mode").
#include <limits>

#include "interpreter/dispatch.hpp"
#include "interpreter/fp_rounding_mode.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/convert.hpp"

namespace clref::interpreter {
namespace {

template <class T> using Lim = std::numeric_limits<T>;

// Float → integer, truncating. NaN or out of range: implementation-defined (OpenCL C 3.0
// §6.4.3.3 [[out-of-range-behavior]]), the choice float_to_int_out_of_range.
template <class To, bool SignedTo, class From, bool FTZ> struct FToI {
  static To apply(WorkItem& wi, const Op* op, From v) {
    // exact: every value in range is an integer in binary64 (numerics::floatToInt).
    const double x = std::trunc(toD(ftz<FTZ>(v)));
    constexpr int kBits = int(sizeof(To) * 8);
    if (const auto r = numerics::floatToIntInRange(x, kBits, SignedTo)) [[likely]]
      return To(*r);
    noteChoice(wi, op, numerics::Choice::FloatToIntOutOfRange, "float to integer conversion of NaN or an out-of-range value");
    return To(numerics::floatToIntOutOfRange(x, kBits, SignedTo, false,
                                             choicesOf(wi).get<numerics::Choice::FloatToIntOutOfRange>()));
  }
};

// Integer → float, round to nearest even. binary64 holds every integer of up to 53 bits; wider
// ones go through the host's correctly rounded 64-bit conversion. For binary16 a 64-bit value
// beyond 2^53 is far beyond binary16's range (65504), so rounding it first to binary64 cannot
// change the result (it overflows to infinity either way).
template <class To, class From, bool SignedFrom, bool FTZ> struct IToF {
  static constexpr bool kLanes = true;
  static To apply(WorkItem&, const Op*, From v) {
    using Source = std::conditional_t<SignedFrom, Signed<From>, From>;
    const Source s = Source(v);
    if constexpr (std::is_same_v<To, Half>)
      return ftz<FTZ>(numerics::toHalf(double(s)));
    else
      return ftz<FTZ>(To(s));  // IEEE conversion, rounds to nearest even
  }
};

// Float → float: widening is exact; narrowing rounds to nearest even once.
template <class To, class From, bool FTZ> struct FToF {
  static constexpr bool kLanes = true;
  static To apply(WorkItem&, const Op*, From v) {
    if constexpr (std::is_same_v<To, Half>)
      return ftz<FTZ>(numerics::toHalf(toD(v)));
    else if constexpr (std::is_same_v<From, Half>)
      return ftz<FTZ>(To(numerics::toFloat(v)));
    else
      return ftz<FTZ>(To(v));
  }
};

// Integer width changes: OpUConvert zero-extends, OpSConvert sign-extends; both truncate.
template <class To, class From, bool SignExtend> struct IToI {
  static constexpr bool kLanes = true;
  static To apply(WorkItem&, const Op*, From v) {
    if constexpr (SignExtend)
      return To(Signed<To>(Signed<From>(v)));
    else
      return To(v);
  }
};

// OpSatConvertSToU / OpSatConvertUToS: clamp to the destination's range.
template <class To, class From, bool FromSigned> struct SatIToI {
  static To apply(WorkItem&, const Op*, From v) {
    if constexpr (FromSigned) {
      const auto s = int64_t(Signed<From>(v));
      if (s < 0) return To(0);
      return uint64_t(s) > uint64_t(Lim<To>::max()) ? Lim<To>::max() : To(s);
    } else {
      const auto u = uint64_t(v);
      const auto mx = uint64_t(Lim<Signed<To>>::max());
      return u > mx ? To(mx) : To(u);
    }
  }
};

// Conversions keep the lane count; scalars take the loop-free handler.
template <class To, class From, class F> Handler lanes(uint32_t n) { return unaryHandler<To, From, F>(n); }

// Raw copy of the operand (OpBitcast, pointer casts between storage classes).
const Op* copyBytes(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a, op->n);
  return op + 1;
}
const Op* copyBytesOnLanes(LaneBatch& b, const Op* op) {
  copyLanes(b, op->r, op->a, op->n);
  return op + 1;
}
// Pointer ↔ integer: zero-extend or truncate between widths (little-endian byte copy).
const Op* resizeInt(WorkItem& wi, const Op* op) {
  uint64_t v = 0;
  std::memcpy(&v, wi.regs + op->a, op->b);
  std::memcpy(wi.regs + op->r, &v, op->n);
  return op + 1;
}

// OpGenericCastToPtr(Explicit): the result is the pointer when the generic pointer points
// into the target storage class, NULL otherwise (SPIR-V 1.0 §3.32.11 [external], OpenCL C 3.0
// §6.15.7 [[vector-data-load-and-store-functions]] to_global/to_local/to_private).
template <class P> const Op* genericCastToPtr(WorkItem& wi, const Op* op) {
  const P p = rd<P>(wi, op->a);
  const uint64_t tag = uint64_t(p) >> wi.tagShift;
  P out = 0;
  if (tag != 0 && tag < wi.allocCount) {
    const auto sc = wi.allocs[tag].storage;
    const auto want = spv::StorageClass(op->b);
    const bool globalLike = sc == spv::StorageClass::CrossWorkgroup || sc == spv::StorageClass::UniformConstant;
    if (sc == want || (want == spv::StorageClass::CrossWorkgroup && globalLike)) out = p;
  }
  wr<P>(wi, op->r, out);
  return op + 1;
}
// OpGenericPtrMemSemantics: the memory semantics of the storage the pointer points into.
template <class P> const Op* genericPtrMemSemantics(WorkItem& wi, const Op* op) {
  const uint64_t tag = uint64_t(rd<P>(wi, op->a)) >> wi.tagShift;
  uint32_t sem = 0;
  if (tag != 0 && tag < wi.allocCount) {
    const auto sc = wi.allocs[tag].storage;
    if (sc == spv::StorageClass::Workgroup)
      sem = uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
    else if (sc == spv::StorageClass::CrossWorkgroup)
      sem = uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory);
  }
  wr<uint32_t>(wi, op->r, sem);
  return op + 1;
}

// Conversions carrying FPRoundingMode or SaturatedConversion (OpenCL C 3.0 §6.4.3.1 [[data-types]] and
// §6.4.3.2 [[rounding-modes]]: convert_<type>_sat_<rounding>): one handler driven by a description, since these
// are rarer than the default conversions and the combinations are many.
struct DecoratedConversion {
  ScalarType from, to;
  bool fromSigned, toSigned;
  numerics::Rounding rounding;
  bool saturate;
  bool flushFrom, flushTo;
};

double readFloat(const uint8_t* p, ScalarType s, bool flush) {
  double v;
  if (s == ScalarType::Half) {
    Half h;
    std::memcpy(&h, p, 2);
    v = numerics::toDouble(flush ? numerics::flushDenorm(h) : h);
  } else if (s == ScalarType::Float) {
    float f;
    std::memcpy(&f, p, 4);
    v = flush ? numerics::flushDenorm(f) : f;
  } else {
    std::memcpy(&v, p, 8);
    if (flush) v = numerics::flushDenorm(v);
  }
  return v;
}
void writeFloat(uint8_t* p, ScalarType s, double v, bool flush) {  // v is a value of the format
  if (s == ScalarType::Half) {
    Half h = numerics::toHalf(v);
    if (flush) h = numerics::flushDenorm(h);
    std::memcpy(p, &h, 2);
  } else if (s == ScalarType::Float) {
    float f = float(v);
    if (flush) f = numerics::flushDenorm(f);
    std::memcpy(p, &f, 4);
  } else {
    if (flush) v = numerics::flushDenorm(v);
    std::memcpy(p, &v, 8);
  }
}
// Integer lanes as a sign- or zero-extended 64-bit value (int64 holds either reading when
// paired with its signedness).
uint64_t readInt(const uint8_t* p, uint32_t bytes, bool isSigned) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  if (isSigned && bytes < 8) {
    const int shift = int(64 - 8 * bytes);
    v = uint64_t(int64_t(v << shift) >> shift);
  }
  return v;
}
void writeInt(uint8_t* p, uint32_t bytes, uint64_t v) { std::memcpy(p, &v, bytes); }

// The smallest and largest value of an integer type, as their bit patterns.
uint64_t minBits(uint32_t bytes, bool isSigned) {
  return isSigned ? uint64_t(bytes == 8 ? INT64_MIN : -(int64_t(1) << (8 * bytes - 1))) : 0;
}
uint64_t maxBits(uint32_t bytes, bool isSigned) {
  if (bytes == 8) return isSigned ? uint64_t(INT64_MAX) : UINT64_MAX;
  return (uint64_t(1) << (8 * bytes - (isSigned ? 1 : 0))) - 1;
}

const Op* decoratedConversion(WorkItem& wi, const Op* op) {
  const auto& d = *static_cast<const DecoratedConversion*>(op->aux);
  const uint32_t fb = sizeOf(d.from), tb = sizeOf(d.to);
  for (uint32_t i = 0; i < op->n; ++i) {
    const uint8_t* src = wi.regs + op->a + i * fb;
    uint8_t* dst = wi.regs + op->r + i * tb;
    if (numerics::isFloat(d.from) && numerics::isFloat(d.to)) {
      writeFloat(dst, d.to, numerics::floatToFloat(readFloat(src, d.from, d.flushFrom), numerics::floatFormat(d.to), d.rounding),
                 d.flushTo);
    } else if (numerics::isFloat(d.to)) {
      const uint64_t v = readInt(src, fb, d.fromSigned);
      const double f = d.fromSigned ? numerics::intToFloat(int64_t(v), numerics::floatFormat(d.to), d.rounding)
                                    : numerics::uintToFloat(v, numerics::floatFormat(d.to), d.rounding);
      writeFloat(dst, d.to, f, d.flushTo);
    } else if (numerics::isFloat(d.from)) {
      // OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: NaN converts to 0 under saturation; out-of-range values clamp.
      const double x = numerics::roundToIntegral(readFloat(src, d.from, d.flushFrom), d.rounding);
      if (!d.saturate && !numerics::floatToIntInRange(x, int(8 * tb), d.toSigned))
        noteChoice(wi, op, numerics::Choice::FloatToIntOutOfRange,
                   "float to integer conversion of NaN or an out-of-range value");
      const uint64_t out = numerics::floatToInt(x, int(8 * tb), d.toSigned, d.saturate, choicesOf(wi));
      writeInt(dst, tb, out);
    } else {
      // Integer → integer with saturation (OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]): clamp the exact value to
      // the target range.
      const uint64_t v = readInt(src, fb, d.fromSigned);
      uint64_t out = v;
      if (d.saturate) {
        if (d.fromSigned && int64_t(v) < 0) {
          const uint64_t lo = minBits(tb, d.toSigned);
          out = int64_t(v) < int64_t(lo) || !d.toSigned ? lo : v;
        } else {
          out = std::min(v, maxBits(tb, d.toSigned));
        }
      }
      writeInt(dst, tb, out);
    }
  }
  return op + 1;
}

// The lanes of a conversion's result and the type of its operand.
uint32_t resultLanes(const Lowerer& L, const Instruction& inst) {
  return inst.resultType && L.m.types.count(inst.resultType) ? L.lanes(inst.resultType) : 1;
}
uint32_t conversionOperandType(const Lowerer& L, const Instruction& inst) { return L.typeIdOfValue(inst.operand(0)); }

// FPRoundingMode / SaturatedConversion (SPIR-V 1.0 §3.20 [external]) on a numeric conversion: the decorated
// handler. Returns false when the instruction has neither decoration.
bool lowerDecorated(Lowerer& L, const Instruction& inst) {
  const auto* roundingDec = inst.resultId ? L.m.decoration(inst.resultId, spv::Decoration::FPRoundingMode) : nullptr;
  const bool saturated = inst.resultId && L.m.hasDecoration(inst.resultId, spv::Decoration::SaturatedConversion);
  // Default rounding: toward zero to integers, to nearest even to floating point; Vulkan §A.4 [external]
  // [[spirvenv-correctly-rounded]]: toward zero to a width the shader rounds so (RoundingModeRTZ or vulkan_rounding),
  // where an FPRoundingMode decoration still decides (SPIR-V 1.0 §3.20 [external]).
  const bool toInteger = inst.opcode == spv::Op::OpConvertFToU || inst.opcode == spv::Op::OpConvertFToS;
  const bool towardZero =
      !toInteger && inst.resultType && L.m.types.count(inst.resultType) && L.towardZero(L.scalarOf(inst.resultType));
  if (!roundingDec && !saturated && !towardZero) return false;
  auto d = std::make_shared<DecoratedConversion>();
  d->from = L.scalarOf(conversionOperandType(L, inst));
  d->to = L.scalarOf(inst.resultType);
  // SPIR-V integers are signless; the opcode says how each side is read.
  d->fromSigned = inst.opcode == spv::Op::OpConvertSToF || inst.opcode == spv::Op::OpSConvert;
  d->toSigned = inst.opcode == spv::Op::OpConvertFToS || inst.opcode == spv::Op::OpSConvert;
  d->rounding = roundingDec ? toRounding(spv::FPRoundingMode(roundingDec->literals.at(0)))
                            : (toInteger || towardZero ? numerics::Rounding::RTZ : numerics::Rounding::RTE);
  d->saturate = saturated;
  d->flushFrom = L.flush(d->from);
  d->flushTo = L.flush(d->to);
  L.k.auxObjects.push_back(d);
  Op& op = emitUnary(L, &decoratedConversion, inst);
  op.aux = d.get();
  return true;
}

// OpConvertFToU, OpConvertFToS.
void lowerConvertFToI(Lowerer& L, const Instruction& inst) {
  if (lowerDecorated(L, inst)) return;
  const uint32_t n = resultLanes(L, inst);
  const bool sgn = inst.opcode == spv::Op::OpConvertFToS;
  Handler fn = withInt(L.scalarOf(inst.resultType), [&]<class To>() {
    return withFloatFtz(L, L.scalarOf(conversionOperandType(L, inst)), [&]<class From, bool Z>() -> Handler {
      return sgn ? lanes<To, From, FToI<To, true, From, Z>>(n) : lanes<To, From, FToI<To, false, From, Z>>(n);
    });
  });
  emitUnary(L, fn, inst);
}

// OpConvertSToF, OpConvertUToF.
void lowerConvertIToF(Lowerer& L, const Instruction& inst) {
  if (lowerDecorated(L, inst)) return;
  const uint32_t n = resultLanes(L, inst);
  const bool sgn = inst.opcode == spv::Op::OpConvertSToF;
  Handler fn = withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class To, bool Z>() {
    return withInt(L.scalarOf(conversionOperandType(L, inst)), [&]<class From>() -> Handler {
      return sgn ? lanes<To, From, IToF<To, From, true, Z>>(n) : lanes<To, From, IToF<To, From, false, Z>>(n);
    });
  });
  emitUnary(L, fn, inst);
}

void lowerFConvert(Lowerer& L, const Instruction& inst) {
  if (lowerDecorated(L, inst)) return;
  const uint32_t n = resultLanes(L, inst);
  Handler fn = withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class To, bool Z>() {
    return withFloat(L.scalarOf(conversionOperandType(L, inst)),
                     [&]<class From>() -> Handler { return lanes<To, From, FToF<To, From, Z>>(n); });
  });
  emitUnary(L, fn, inst);
}

// Integer to integer, lane by lane with F = IToI or SatIToI; `sgn` is how the source is read.
template <template <class, class, bool> class F> void emitIntToInt(Lowerer& L, const Instruction& inst, bool sgn) {
  const uint32_t n = resultLanes(L, inst);
  Handler fn = withInt(L.scalarOf(inst.resultType), [&]<class To>() {
    return withInt(L.scalarOf(conversionOperandType(L, inst)), [&]<class From>() -> Handler {
      return sgn ? lanes<To, From, F<To, From, true>>(n) : lanes<To, From, F<To, From, false>>(n);
    });
  });
  emitUnary(L, fn, inst);
}

// OpUConvert, OpSConvert.
void lowerIntConvert(Lowerer& L, const Instruction& inst) {
  if (lowerDecorated(L, inst)) return;
  if (L.isElided(inst.resultId)) return;  // folded into the access chain that uses it
  emitIntToInt<IToI>(L, inst, inst.opcode == spv::Op::OpSConvert);
}

// OpSatConvertSToU, OpSatConvertUToS.
void lowerSatConvert(Lowerer& L, const Instruction& inst) {
  emitIntToInt<SatIToI>(L, inst, inst.opcode == spv::Op::OpSatConvertSToU);
}

// OpBitcast, OpPtrCastToGeneric: the bits unchanged.
void lowerBitcast(Lowerer& L, const Instruction& inst) {
  const Type& rt = L.type(inst.resultType);
  const Type& ft = L.typeOfValue(inst.operand(0));
  Op& op = L.emit(laneForm<&copyBytes, &copyBytesOnLanes>(), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  // A 3-component vector occupies 4 slots in registers; copy the smaller of the two.
  op.n = uint32_t(std::min(rt.size, ft.size));
}

// OpConvertPtrToU, OpConvertUToPtr.
void lowerPtrIntConvert(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&resizeInt, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = uint32_t(L.typeOfValue(inst.operand(0)).size);
  op.n = uint32_t(L.type(inst.resultType).size);
}

// OpGenericCastToPtr, OpGenericCastToPtrExplicit.
void lowerGenericCastToPtr(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(L.ptrBytes() == 8 ? &genericCastToPtr<uint64_t> : &genericCastToPtr<uint32_t>, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = uint32_t(L.type(inst.resultType).storage);
}

void lowerGenericPtrMemSemantics(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(L.ptrBytes() == 8 ? &genericPtrMemSemantics<uint64_t> : &genericPtrMemSemantics<uint32_t>, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// OpConvertFToS/U: a decision when the operand's set spans more than one integer; any value out of range.
void shadowConvertFToI(ShadowLowering& S) { S.intOfFloat(S.operand(0), "conversion to an integer"); }
// OpFConvert: correctly rounded in the instruction's mode, a set when the operand has one.
void shadowFConvert(ShadowLowering& S) { S.floatRule(FloatKind::Convert, {S.operand(0)}); }
// OpConvertPtrToU: C99 §6.3.2.3 [external], which OpenCL C builds on: a pointer converted to an integer is
// implementation-defined. Any value on another device (the conformance suite's kernel_memory_alignment reads addresses
// to test their alignment).
// A shader's pointer is a PhysicalStorageBuffer64 device address that came from its inputs (host::Kernel::
// deviceAddress: the case gives clref's addresses, and a device run is refused, cli/vulkan_case.cpp): the integer is
// that address, exact, so that a list walked to its null pointer is judged as one.
void shadowConvertPtrToU(ShadowLowering& S) {
  if (S.L.m.isVulkanShader()) return S.generic();
  S.anyValueLanes({0}, S.resultBytes());
}

}  // namespace

void registerConversion(DispatchTable& t) {
  using spv::Op;
  t.lower({Op::OpConvertFToU, Op::OpConvertFToS}, lowerConvertFToI, {shadowConvertFToI});
  // An integer converts to one float in the instruction's rounding mode: the generic rule (exact when the integer is).
  t.lower({Op::OpConvertSToF, Op::OpConvertUToF}, lowerConvertIToF, {shadowGeneric});
  t.lower(Op::OpFConvert, lowerFConvert, {shadowFConvert});
  t.lower({Op::OpUConvert, Op::OpSConvert}, lowerIntConvert);
  t.lower({Op::OpSatConvertSToU, Op::OpSatConvertUToS}, lowerSatConvert);
  t.lower(Op::OpBitcast, lowerBitcast, {shadowCopyOperand0});  // the bits move: a float's set with them
  t.lower(Op::OpPtrCastToGeneric, lowerBitcast);
  t.lower(Op::OpConvertPtrToU, lowerPtrIntConvert, {shadowConvertPtrToU});
  t.lower(Op::OpConvertUToPtr, lowerPtrIntConvert);
  t.lower({Op::OpGenericCastToPtr, Op::OpGenericCastToPtrExplicit}, lowerGenericCastToPtr);
  t.lower(Op::OpGenericPtrMemSemantics, lowerGenericPtrMemSemantics);
}

}  // namespace clref::interpreter
