// SPIR-V 1.0 §3.32.11 Conversion Instructions, with the OpenCL default rounding: to integer
// rounds toward zero, to floating point rounds to nearest even (OpenCL SPIR-V Environment
// §7.4 and OpenCL C 3.0 §6.4.3.2 "default rounding mode").
#include <limits>

#include "interpreter/ops_common.hpp"

namespace clref::interpreter {
namespace {

using numerics::Choice;
using numerics::FloatToIntOption;

template <class T> using Lim = std::numeric_limits<T>;

// Float → integer, truncating. NaN or out of range: implementation-defined (OpenCL C 3.0
// §6.4.3.3), the choice float_to_int_out_of_range.
template <class To, bool SignedTo, class From, bool FTZ> struct FToI {
  static To apply(WorkItem& wi, const Op*, From v) {
    using Target = std::conditional_t<SignedTo, Signed<To>, To>;
    const double x = std::trunc(toD(ftz<FTZ>(v)));  // exact: every value in range is an integer in binary64 …
    // … and the range test is exact since the bounds below are powers of two.
    const double lo = SignedTo ? -std::ldexp(1.0, int(sizeof(To) * 8 - 1)) : 0.0;
    const double hiExclusive = std::ldexp(1.0, int(sizeof(To) * 8 - (SignedTo ? 1 : 0)));
    if (!std::isnan(x) && x >= lo && x < hiExclusive) [[likely]] {
      // float/double holding more than 53 bits cannot occur: |x| < 2^64 and x has ≤ 53 bits.
      return To(Target(x));
    }
    switch (choicesOf(wi).as<FloatToIntOption>(Choice::FloatToIntOutOfRange)) {
      case FloatToIntOption::MinValue: return To(Lim<Target>::min());
      case FloatToIntOption::Zero: return To(0);
      default:
        if (std::isnan(x)) return To(0);
        return To(x < lo ? Lim<Target>::min() : Lim<Target>::max());
    }
  }
};

// Integer → float, round to nearest even. binary64 holds every integer of up to 53 bits; wider
// ones go through the host's correctly rounded 64-bit conversion. For binary16 a 64-bit value
// beyond 2^53 is far beyond binary16's range (65504), so rounding it first to binary64 cannot
// change the result (it overflows to infinity either way).
template <class To, class From, bool SignedFrom, bool FTZ> struct IToF {
  static To apply(WorkItem&, const Op*, From v) {
    using Source = std::conditional_t<SignedFrom, Signed<From>, From>;
    const Source s = Source(v);
    if constexpr (std::is_same_v<To, Half>) return ftz<FTZ>(numerics::toHalf(double(s)));
    else return ftz<FTZ>(To(s));  // IEEE conversion, rounds to nearest even
  }
};

// Float → float: widening is exact; narrowing rounds to nearest even once.
template <class To, class From, bool FTZ> struct FToF {
  static To apply(WorkItem&, const Op*, From v) {
    if constexpr (std::is_same_v<To, Half>) return ftz<FTZ>(numerics::toHalf(toD(v)));
    else if constexpr (std::is_same_v<From, Half>) return ftz<FTZ>(To(numerics::toFloat(v)));
    else return ftz<FTZ>(To(v));
  }
};

// Integer width changes: OpUConvert zero-extends, OpSConvert sign-extends; both truncate.
template <class To, class From, bool SignExtend> struct IToI {
  static To apply(WorkItem&, const Op*, From v) {
    if constexpr (SignExtend) return To(Signed<To>(Signed<From>(v)));
    else return To(v);
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
// Pointer ↔ integer: zero-extend or truncate between widths (little-endian byte copy).
const Op* resizeInt(WorkItem& wi, const Op* op) {
  uint64_t v = 0;
  std::memcpy(&v, wi.regs + op->a, op->b);
  std::memcpy(wi.regs + op->r, &v, op->n);
  return op + 1;
}

// OpGenericCastToPtr(Explicit): the result is the pointer when the generic pointer points
// into the target storage class, NULL otherwise (SPIR-V 1.0 §3.32.11, OpenCL C 3.0 §6.15.7
// to_global/to_local/to_private).
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
    if (sc == spv::StorageClass::Workgroup) sem = uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
    else if (sc == spv::StorageClass::CrossWorkgroup) sem = uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory);
  }
  wr<uint32_t>(wi, op->r, sem);
  return op + 1;
}

template <class F> auto withIntTo(Scalar s, F&& f) { return withInt(s, std::forward<F>(f)); }

}  // namespace

bool lowerConversion(Lowerer& L, const Instruction& inst) {

  const uint32_t to = inst.resultType;
  const uint32_t n = inst.resultType && L.m.types.count(to) ? L.lanes(to) : 1;
  auto from = [&] { return L.typeIdOfValue(inst.operand(0)); };
  const auto checkDecorations = [&] {
    // FPRoundingMode and SaturatedConversion change these conversions; they are implemented
    // with the exact numerics (separate work item), and until then a module using them is
    // rejected rather than run with the default behaviour.
    if (L.m.hasDecoration(inst.resultId, spv::Decoration::FPRoundingMode))
      L.reject(inst, "FPRoundingMode decorations on conversions are not supported yet");
    if (L.m.hasDecoration(inst.resultId, spv::Decoration::SaturatedConversion))
      L.reject(inst, "SaturatedConversion decorations are not supported yet");
  };
  switch (inst.opcode) {
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS: {
      checkDecorations();
      const bool sgn = inst.opcode == spv::Op::OpConvertFToS;
      Handler fn = withInt(L.scalarOf(to), [&]<class To>() {
        return withFloatFtz(L, L.scalarOf(from()), [&]<class From, bool Z>() -> Handler {
          return sgn ? lanes<To, From, FToI<To, true, From, Z>>(n) : lanes<To, From, FToI<To, false, From, Z>>(n);
        });
      });
      emitUnary(L, fn, inst);
      return true;
    }
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertUToF: {
      checkDecorations();
      const bool sgn = inst.opcode == spv::Op::OpConvertSToF;
      Handler fn = withFloatFtz(L, L.scalarOf(to), [&]<class To, bool Z>() {
        return withInt(L.scalarOf(from()), [&]<class From>() -> Handler {
          return sgn ? lanes<To, From, IToF<To, From, true, Z>>(n) : lanes<To, From, IToF<To, From, false, Z>>(n);
        });
      });
      emitUnary(L, fn, inst);
      return true;
    }
    case spv::Op::OpFConvert: {
      checkDecorations();
      Handler fn = withFloatFtz(L, L.scalarOf(to), [&]<class To, bool Z>() {
        return withFloat(L.scalarOf(from()), [&]<class From>() -> Handler { return lanes<To, From, FToF<To, From, Z>>(n); });
      });
      emitUnary(L, fn, inst);
      return true;
    }
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert: {
      checkDecorations();
      if (L.isElided(inst.resultId)) return true;  // folded into the access chain that uses it
      const bool sx = inst.opcode == spv::Op::OpSConvert;
      Handler fn = withInt(L.scalarOf(to), [&]<class To>() {
        return withInt(L.scalarOf(from()), [&]<class From>() -> Handler {
          return sx ? lanes<To, From, IToI<To, From, true>>(n) : lanes<To, From, IToI<To, From, false>>(n);
        });
      });
      emitUnary(L, fn, inst);
      return true;
    }
    case spv::Op::OpSatConvertSToU:
    case spv::Op::OpSatConvertUToS: {
      const bool fromSigned = inst.opcode == spv::Op::OpSatConvertSToU;
      Handler fn = withInt(L.scalarOf(to), [&]<class To>() {
        return withInt(L.scalarOf(from()), [&]<class From>() -> Handler {
          return fromSigned ? lanes<To, From, SatIToI<To, From, true>>(n) : lanes<To, From, SatIToI<To, From, false>>(n);
        });
      });
      emitUnary(L, fn, inst);
      return true;
    }
    case spv::Op::OpBitcast:
    case spv::Op::OpPtrCastToGeneric: {
      const Type& rt = L.type(to);
      const Type& ft = L.typeOfValue(inst.operand(0));
      Op& op = L.emit(&copyBytes, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(inst.operand(0));
      // A 3-component vector occupies 4 slots in registers; copy the smaller of the two.
      op.n = uint32_t(std::min(rt.size, ft.size));
      return true;
    }
    case spv::Op::OpConvertPtrToU:
    case spv::Op::OpConvertUToPtr: {
      Op& op = L.emit(&resizeInt, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(inst.operand(0));
      op.b = uint32_t(L.typeOfValue(inst.operand(0)).size);
      op.n = uint32_t(L.type(to).size);
      return true;
    }
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit: {
      Op& op = L.emit(L.ptrBytes() == 8 ? &genericCastToPtr<uint64_t> : &genericCastToPtr<uint32_t>, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(inst.operand(0));
      op.b = uint32_t(L.type(to).storage);
      return true;
    }
    case spv::Op::OpGenericPtrMemSemantics: {
      Op& op = L.emit(L.ptrBytes() == 8 ? &genericPtrMemSemantics<uint64_t> : &genericPtrMemSemantics<uint32_t>, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(inst.operand(0));
      return true;
    }
    default: return false;
  }
}

}  // namespace clref::interpreter
