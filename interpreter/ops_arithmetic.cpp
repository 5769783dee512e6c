// SPIR-V 1.0 §3.32.13 [external] Arithmetic Instructions: integer and floating-point arithmetic.
#include <limits>
#include <type_traits>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"
#include "interpreter/shadow_vulkan.hpp"
#include "numerics/dot.hpp"

namespace clref::interpreter {
namespace {

using numerics::Choice;
using numerics::IntDivByZeroOption;
using numerics::IntDivOverflowOption;

// Integer arithmetic wraps modulo 2^N (SPIR-V 1.0 §2.2.1 [external]: integers are two's complement
// and signless; the opcode says how to interpret the bits).
struct IAdd {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a + b); }
};
struct ISub {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(a - b); }
};
struct IMul {
  static constexpr bool kLanes = true;
  // 8- and 16-bit operands promote to int, whose product can overflow (undefined in C++): multiply as unsigned.
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    using P = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;
    return T(P(a) * P(b));
  }
};
struct SNegate {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(T(0) - a); }
};

// OpenCL C 3.0 §6.15.3 [[integer-functions]] / §6.5.1 [[operators-arithmetic]]: division by zero gives an unspecified
// value (named choice).
template <class T> T divByZero(WorkItem& wi, const Op* op, T dividend) {
  warnChoice(wi, op, Choice::IntDivByZero, "integer division by zero: the result is unspecified (choice int_div_by_zero)");
  switch (choicesOf(wi).get<Choice::IntDivByZero>()) {
    case IntDivByZeroOption::AllOnes: return T(~T(0));
    case IntDivByZeroOption::Dividend: return dividend;
    default: return T(0);
  }
}
template <class T> bool signedOverflow(T a, T b) {
  using S = Signed<T>;
  return S(a) == std::numeric_limits<S>::min() && S(b) == S(-1);
}
template <class T> T divOverflow(WorkItem& wi, const Op* op, T wrapValue) {
  warnChoice(wi, op, Choice::IntDivOverflow, "signed division overflow (minimum value / -1) is undefined (choice int_div_overflow)");
  return choicesOf(wi).get<Choice::IntDivOverflow>() == IntDivOverflowOption::Zero ? T(0) : wrapValue;
}

struct UDiv {
  template <class T> static bool decides(T, T b) { return b == 0; }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if (b == 0) [[unlikely]]
      return divByZero(wi, op, a);
    return T(a / b);
  }
};
struct UMod {
  template <class T> static bool decides(T, T b) { return b == 0; }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if (b == 0) [[unlikely]]
      return divByZero(wi, op, a);
    return T(a % b);
  }
};
struct SDiv {
  template <class T> static bool decides(T a, T b) { return b == 0 || signedOverflow(a, b); }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if (b == 0) [[unlikely]]
      return divByZero(wi, op, a);
    if (signedOverflow(a, b)) [[unlikely]]
      return divOverflow(wi, op, a);
    return T(Signed<T>(a) / Signed<T>(b));
  }
};
// OpSRem: the sign of a non-0 result comes from Operand 1 (C's %).
struct SRem {
  template <class T> static bool decides(T a, T b) { return b == 0 || signedOverflow(a, b); }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if (b == 0) [[unlikely]]
      return divByZero(wi, op, a);
    if (signedOverflow(a, b)) [[unlikely]]
      return divOverflow(wi, op, T(0));
    return T(Signed<T>(a) % Signed<T>(b));
  }
};
// OpSMod: the sign of a non-0 result comes from Operand 2.
struct SMod {
  template <class T> static bool decides(T a, T b) { return b == 0 || signedOverflow(a, b); }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if (b == 0) [[unlikely]]
      return divByZero(wi, op, a);
    if (signedOverflow(a, b)) [[unlikely]]
      return divOverflow(wi, op, T(0));
    using S = Signed<T>;
    S r = S(a) % S(b);
    if (r != 0 && ((r < 0) != (S(b) < 0))) r = S(r + S(b));
    return T(r);
  }
};

// Vulkan §A [external] Precision of GLSL.std.450 Instructions: without maintenance8, "if either operand to OpSRem and
// OpSMod instructions is negative the result is poison" (OpenCL defines them: its kernels keep SRem and SMod). A
// shader's go through here: the choice vulkan_srem_smod_negative gives SPIR-V's value with a warning, or a fault.
template <class T, class F> const Op* shaderSignedRemainder(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i) {
    const T a = rd<T>(wi, op->a + i * sizeof(T)), b = rd<T>(wi, op->b + i * sizeof(T));
    if ((Signed<T>(a) < 0 || Signed<T>(b) < 0) && b != 0) [[unlikely]] {
      const char* name = std::is_same_v<F, SRem> ? "OpSRem" : "OpSMod";
      const std::string what = std::string(name) + " of " + std::to_string(Signed<T>(a)) + " and " +
                               std::to_string(Signed<T>(b)) + ": a negative operand gives poison in Vulkan";
      noteChoice(wi, op, Choice::VulkanSRemSModNegative, "OpSRem/OpSMod with a negative operand");
      if (choicesOf(wi).get<Choice::VulkanSRemSModNegative>() == numerics::VulkanSRemSModNegativeOption::Fault)
        return fault(wi, op, FaultKind::UndefinedBehaviour, what + " (choice vulkan_srem_smod_negative=fault)");
      warnOnce(wi, op, what + "; clref gives SPIR-V's value (choice vulkan_srem_smod_negative=spirv)");
    }
    wr<T>(wi, op->r + i * sizeof(T), F::apply(wi, op, a, b));
  }
  return op + 1;
}
template <class F> void lowerSignedRemainder(Lowerer& L, const Instruction& inst) {
  if (!L.m.isVulkanShader()) return lowerIntBinaryOp<F>(L, inst);
  emitBinary(L,
             withInt(L.scalarOf(inst.resultType), [&]<class T>() -> Handler { return &shaderSignedRemainder<T, F>; }),
             inst);
}

// Floating-point arithmetic: IEEE 754 operations correctly rounded to nearest even
// (OpenCL SPIR-V Environment §6.1 [[_rounding_modes]]: the default rounding mode is round to nearest even; OpenCL
// C 3.0 §7.4 [[relative-error-as-ulps]]: +, -, *, / are correctly rounded in the full profile). The host's binary32 and
// binary64 SSE arithmetic is IEEE 754 rounding to nearest even; binary16 goes through
// numerics/half_arith.hpp. With RTZ (a shader's RoundingModeRTZ or vulkan_rounding=toward_zero, Vulkan §A.4
// [external] [[spirvenv-correctly-rounded]]) rounded toward zero by numerics/round_toward_zero.hpp.
template <bool FTZ, bool RTZ = false> struct FAdd {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return addRounded<FTZ, RTZ>(a, b); }
};
template <bool FTZ, bool RTZ = false> struct FSub {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    a = ftz<FTZ>(a);
    b = ftz<FTZ>(b);
    if constexpr (RTZ)
      return ftz<FTZ>(numerics::subTowardZero(a, b));
    else if constexpr (std::is_same_v<T, Half>)
      return ftz<FTZ>(numerics::subHalf(a, b));
    else
      return ftz<FTZ>(T(a - b));
  }
};
template <bool FTZ, bool RTZ = false> struct FMul {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return mulRounded<FTZ, RTZ>(a, b); }
};
template <bool FTZ, bool RTZ = false> struct FDiv {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    a = ftz<FTZ>(a);
    b = ftz<FTZ>(b);
    if constexpr (RTZ)
      return ftz<FTZ>(numerics::divTowardZero(a, b));
    else if constexpr (std::is_same_v<T, Half>)
      return ftz<FTZ>(numerics::divHalf(a, b));
    else
      return ftz<FTZ>(T(a / b));
  }
};
// OpFRem: the remainder of truncated division, sign of Operand 1; exact (IEEE fmod is exact), so any rounding
// direction gives it.
template <bool FTZ, bool = false> struct FRem {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    a = ftz<FTZ>(a);
    b = ftz<FTZ>(b);
    if constexpr (std::is_same_v<T, Half>)
      return ftz<FTZ>(numerics::toHalf(std::fmod(numerics::toFloat(a), numerics::toFloat(b))));
    else
      return ftz<FTZ>(T(std::fmod(a, b)));
  }
};
// OpFMod: sign of a non-0 result from Operand 2: fmod, then one correctly rounded b + r when the
// signs differ (for binary16 the sum is formed in binary32: innocuous double rounding); with RTZ that sum rounds
// toward zero.
template <bool FTZ, bool RTZ = false> struct FMod {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    a = ftz<FTZ>(a);
    b = ftz<FTZ>(b);
    if constexpr (RTZ) {
      const T r = fromD<T>(std::fmod(toD(a), toD(b)));  // exact, a value of T
      if (toD(r) != 0 && signBit(r) != signBit(b) && !std::isinf(toD(b)))
        return ftz<FTZ>(numerics::addTowardZero(r, b));
      return ftz<FTZ>(r);
    } else if constexpr (std::is_same_v<T, Half>) {
      const float fb = numerics::toFloat(b);
      float r = std::fmod(numerics::toFloat(a), fb);
      if (r != 0 && std::signbit(r) != std::signbit(fb) && !std::isinf(fb)) r = r + fb;
      return ftz<FTZ>(numerics::toHalf(r));
    } else {
      T r = std::fmod(a, b);
      if (r != 0 && std::signbit(r) != std::signbit(b) && !std::isinf(b)) r = r + b;
      return ftz<FTZ>(r);
    }
  }
};
// Vulkan §A [external] Precision of Individual Operations: OpFRem and OpFMod are "Inherited from x - y × trunc(x/y)"
// and "x - y × floor(x/y)". The choice vulkan_frem_fmod=formula evaluates that formula in a shader with every
// operation rounded to T (binary16 through half_arith.hpp): the quotient, its integer part (exact), the product and
// the difference.
template <bool Floor> struct RemainderFormula {
  template <bool FTZ, bool RTZ = false> struct Op_ {
    template <class T> static T apply(WorkItem&, const Op*, T x, T y) {
      x = ftz<FTZ>(x);
      y = ftz<FTZ>(y);
      T q;
      if constexpr (RTZ)
        q = ftz<FTZ>(numerics::divTowardZero(x, y));
      else if constexpr (std::is_same_v<T, Half>)
        q = ftz<FTZ>(numerics::divHalf(x, y));
      else
        q = ftz<FTZ>(T(x / y));
      T n;
      if constexpr (std::is_same_v<T, Half>) {
        const float qf = numerics::toFloat(q);
        n = numerics::toHalf(Floor ? std::floor(qf) : std::trunc(qf));  // an integer of binary16: exact
      } else {
        n = Floor ? std::floor(q) : std::trunc(q);
      }
      const T p = mulRounded<FTZ, RTZ>(y, n);
      if constexpr (std::is_same_v<T, Half>)
        return addRounded<FTZ, RTZ>(x, numerics::negHalf(p));  // x − p: the negation is exact
      else
        return addRounded<FTZ, RTZ>(x, T(-p));
    }
  };
};
template <bool FTZ, bool RTZ> using FRemFormula = RemainderFormula<false>::Op_<FTZ, RTZ>;
template <bool FTZ, bool RTZ> using FModFormula = RemainderFormula<true>::Op_<FTZ, RTZ>;
struct FNegate {
  static constexpr bool kLanes = true;
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>)
      return numerics::negHalf(a);
    else
      return -a;
  }
};

// OpVectorTimesScalar: each component times the scalar, one rounding each.
template <class T, bool FTZ, bool RTZ> const Op* vectorTimesScalar(WorkItem& wi, const Op* op) {
  const T s = rd<T>(wi, op->b);
  for (uint32_t i = 0; i < op->n; ++i)
    wr<T>(wi, op->r + i * sizeof(T), FMul<FTZ, RTZ>::apply(wi, op, rd<T>(wi, op->a + i * sizeof(T)), s));
  return op + 1;
}

// OpDot: clref returns the correctly rounded exact dot product (the reference value the
// spec's dot() error bound, OpenCL C 3.0 §7.4 [[relative-error-as-ulps]] Table "ULP values", is measured against).
template <class T, bool FTZ> const Op* dot(WorkItem& wi, const Op* op) {
  double a[16], b[16];
  for (uint32_t i = 0; i < op->n; ++i) {
    a[i] = toD(ftz<FTZ>(rd<T>(wi, op->a + i * sizeof(T))));
    b[i] = toD(ftz<FTZ>(rd<T>(wi, op->b + i * sizeof(T))));
  }
  constexpr auto format = std::is_same_v<T, Half>    ? numerics::Format::Half
                          : std::is_same_v<T, float> ? numerics::Format::Float
                                                     : numerics::Format::Double;
  const double d = numerics::dotExact({a, op->n}, {b, op->n}, format);
  wr<T>(wi, op->r, ftz<FTZ>(fromD<T>(d)));  // d is already representable: fromD is exact
  return op + 1;
}

// Float arithmetic lane-wise on the result type, with the device's denormal mode and the shader's rounding.
template <template <bool, bool> class F> void lowerFloatBinaryOp(Lowerer& L, const Instruction& inst) {
  emitBinary(L, floatBinaryRounded<F>(L, inst.resultType), inst);
}

// OpFRem/OpFMod: the exact remainder, or in a shader with vulkan_frem_fmod=formula the inherited formula.
template <template <bool, bool> class Exact, template <bool, bool> class Formula>
void lowerFloatRemainder(Lowerer& L, const Instruction& inst) {
  if (L.m.isVulkanShader() && L.opt.choices.get<Choice::VulkanFRemFMod>() == numerics::VulkanFRemFModOption::Formula)
    return lowerFloatBinaryOp<Formula>(L, inst);
  lowerFloatBinaryOp<Exact>(L, inst);
}

// A shader's OpFAdd/OpFSub fused with the OpFMul it adds (the choice vulkan_contraction=fuse): lane-wise
// (±a)·b + (±c) rounded once. a, b = the product's operands, c = the other operand of the sum.
template <class T, bool FTZ, bool NegA, bool NegC> const Op* fusedSum(WorkItem& wi, const Op* op) {
  noteChoice(wi, op, Choice::VulkanContraction, "an OpFMul fused into the OpFAdd/OpFSub it feeds");
  auto neg = [](T v) {
    if constexpr (std::is_same_v<T, Half>)
      return numerics::negHalf(v);
    else
      return -v;
  };
  for (uint32_t i = 0; i < op->n; ++i) {
    T a = ftz<FTZ>(rd<T>(wi, op->a + i * sizeof(T)));
    const T b = ftz<FTZ>(rd<T>(wi, op->b + i * sizeof(T)));
    T c = ftz<FTZ>(rd<T>(wi, op->c + i * sizeof(T)));
    if constexpr (NegA) a = neg(a);
    if constexpr (NegC) c = neg(c);
    T r;
    if constexpr (std::is_same_v<T, Half>)
      r = numerics::fmaHalf(a, b, c);
    else
      r = std::fma(a, b, c);
    wr<T>(wi, op->r + i * sizeof(T), ftz<FTZ>(r));
  }
  return op + 1;
}

// Vulkan §A [external] Evaluation of Expressions: without NoContraction a shader's operations may be rearranged, with
// "a different number of rounding steps". With vulkan_contraction=fuse, an OpFAdd/OpFSub whose operand (the first
// that qualifies) is an OpFMul of the same type, neither decorated NoContraction, is one fused multiply-add; the
// OpFMul keeps its own value for its other uses. The product's operands dominate the sum (the OpFMul does), so their
// registers still hold the values the OpFMul read.
template <template <bool, bool> class F, bool Sub> void lowerFloatSum(Lowerer& L, const Instruction& inst) {
  using spv::Op;
  if (L.m.isVulkanShader() &&
      L.opt.choices.get<Choice::VulkanContraction>() == numerics::VulkanContractionOption::Fuse &&
      !L.m.decoration(inst.resultId, spv::Decoration::NoContraction)) {
    for (size_t k = 0; k < 2; ++k) {
      const Instruction* mul = L.m.findDef(inst.operand(k));
      if (!mul || mul->opcode != Op::OpFMul || mul->resultType != inst.resultType ||
          L.m.decoration(mul->resultId, spv::Decoration::NoContraction) || !L.hasReg(mul->operand(0)) ||
          !L.hasReg(mul->operand(1)) || !L.hasReg(inst.operand(1 - k)))
        continue;
      // a·b + c; a·b - c = a·b + (-c); c - a·b = (-a)·b + c.
      const bool negA = Sub && k == 1, negC = Sub && k == 0;
      Handler h = withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class T, bool Z>() -> Handler {
        if (negA) return &fusedSum<T, Z, true, false>;
        if (negC) return &fusedSum<T, Z, false, true>;
        return &fusedSum<T, Z, false, false>;
      });
      ::clref::interpreter::Op& op = L.emit(h, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(mul->operand(0));
      op.b = L.reg(mul->operand(1));
      op.c = L.reg(inst.operand(1 - k));
      op.n = L.lanes(inst.resultType);
      return;
    }
  }
  lowerFloatBinaryOp<F>(L, inst);
}

void lowerFNegate(Lowerer& L, const Instruction& inst) {
  emitUnary(L,
            withFloat(L.scalarOf(inst.resultType),
                      [&]<class T>() -> Handler { return unaryHandler<T, T, FNegate>(L.lanes(inst.resultType)); }),
            inst);
}

void lowerVectorTimesScalar(Lowerer& L, const Instruction& inst) {
  emitBinary(L,
             withFloatRounding(L, L.scalarOf(inst.resultType),
                               [&]<class T, bool Z, bool R>() -> Handler { return &vectorTimesScalar<T, Z, R>; }),
             inst);
}

void lowerDot(Lowerer& L, const Instruction& inst) {
  auto& op = emitBinary(
      L, withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class T, bool Z>() -> Handler { return &dot<T, Z>; }), inst);
  op.n = L.lanes(L.typeIdOfValue(inst.operand(0)));
}

// SPIR-V 1.0 §3.32.13 [external] OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of two values
// of the operands' type, component by component: the low bits of the sum and its carry (0 or 1), of the difference
// and its borrow (1 when b > a, unsigned), or the low and high halves of the full product (unsigned or signed).
enum class Extended : uint8_t { AddCarry, SubBorrow, UMul, SMul };
// r = the first member's register, c = the second's; a, b = the operands; n = lanes.
template <class T, Extended E> const Op* extendedLanes(WorkItem& wi, const Op* op) {
  constexpr int kBits = int(8 * sizeof(T));
  for (uint32_t i = 0; i < op->n; ++i) {
    const T a = rd<T>(wi, op->a + i * sizeof(T)), b = rd<T>(wi, op->b + i * sizeof(T));
    T lo, hi;
    if constexpr (E == Extended::AddCarry) {
      lo = T(a + b);
      hi = T(lo < a);
    } else if constexpr (E == Extended::SubBorrow) {
      lo = T(a - b);
      hi = T(b > a);
    } else if constexpr (E == Extended::UMul) {
      const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
      lo = T(p);
      hi = T(p >> kBits);
    } else {
      const __int128 p = static_cast<__int128>(Signed<T>(a)) * Signed<T>(b);
      lo = T(p);
      hi = T(static_cast<unsigned __int128>(p >> kBits));  // arithmetic shift: the product's high half, signed
    }
    wr<T>(wi, op->r + i * sizeof(T), lo);
    wr<T>(wi, op->c + i * sizeof(T), hi);
  }
  return op + 1;
}
template <Extended E> void lowerExtended(Lowerer& L, const Instruction& inst) {
  const Type& st = L.type(inst.resultType);
  if (st.kind != TypeKind::Struct || st.members.size() != 2) L.reject(inst, "the result type is not a two-member struct");
  const uint32_t member = st.members[0];
  Op& op = L.emit(withInt(L.scalarOf(member), [&]<class T>() -> Handler { return &extendedLanes<T, E>; }), inst);
  op.r = L.reg(inst.resultId) + uint32_t(st.memberOffsets[0]);
  op.c = L.reg(inst.resultId) + uint32_t(st.memberOffsets[1]);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.n = L.lanes(member);
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// OpFAdd/OpFSub: the sum's set; and the operands that are products a device may fuse with it (FP_CONTRACT: no
// NoContraction on either instruction).
template <numerics::CoreOp Core> void shadowSum(ShadowLowering& S) {
  using spv::Op;
  const bool sub = Core == numerics::CoreOp::Sub;
  FloatRule& rule = S.floatRule(FloatKind::Core, {S.operand(0), S.operand(1)}, Core);
  if (S.L.m.decoration(S.inst.resultId, spv::Decoration::NoContraction)) return;
  for (size_t k = 0; k < 2; ++k) {
    const Instruction* def = S.L.m.findDef(S.operand(k));
    if (!def || def->opcode != Op::OpFMul || S.L.m.decoration(def->resultId, spv::Decoration::NoContraction) ||
        !S.L.hasReg(def->operand(0)) || !S.L.hasReg(def->operand(1)))
      continue;
    Contraction c;
    c.a = S.laneRef(def->operand(0));
    c.b = S.laneRef(def->operand(1));
    c.addend = 1 - k;
    c.negA = sub && k == 1;
    c.negC = sub && k == 0;
    rule.contractions.push_back(c);
  }
}
// OpFMul, OpVectorTimesScalar, OpFDiv: the correctly rounded operation's set (numerics::allowedSetCore).
template <numerics::CoreOp Core> void shadowCore(ShadowLowering& S) {
  S.floatRule(FloatKind::Core, {S.operand(0), S.operand(1)}, Core);
}
// OpFRem: fmod's rule; in a shader, Vulkan's inherited row (shadow_vulkan.hpp).
void shadowFRem(ShadowLowering& S) {
  if (S.L.m.isVulkanShader()) return vulkanRule(S, VulkanFormula::FRem, {S.operand(0), S.operand(1)}, true);
  S.floatRule(FloatKind::Math, {S.operand(0), S.operand(1)}, numerics::CoreOp::None, numerics::MathFn::fmod);
}
// OpFMod: exact on single values, any value otherwise; in a shader, Vulkan's inherited row.
void shadowFMod(ShadowLowering& S) {
  if (S.L.m.isVulkanShader()) return vulkanRule(S, VulkanFormula::FMod, {S.operand(0), S.operand(1)}, true);
  S.floatRule(FloatKind::FMod, {S.operand(0), S.operand(1)});
}
// OpFNegate: a sign flip, exact; the operand's set negated.
void shadowFNegate(ShadowLowering& S) { S.floatRule(FloatKind::Negate, {S.operand(0)}); }
// OpDot: the geometric rule of dot; in a shader, Vulkan's "Inherited from Σ x_i × y_i" (shadow_vulkan.hpp).
void shadowDot(ShadowLowering& S) {
  if (S.L.m.isVulkanShader()) {
    SumOfProductsShape shape;
    shape.depth = S.L.lanes(S.L.typeIdOfValue(S.operand(0)));
    return vulkanSumOfProducts(S, shape);
  }
  S.geometric(numerics::CoreOp::Dot, S.operand(0), S.operand(1));
}

}  // namespace

void registerArithmetic(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpIAdd, lowerIntBinaryOp<IAdd>);
  t.lower(Op::OpISub, lowerIntBinaryOp<ISub>);
  t.lower(Op::OpIMul, lowerIntBinaryOp<IMul>);
  t.lower(Op::OpUDiv, lowerIntBinaryOp<UDiv>);
  t.lower(Op::OpSDiv, lowerIntBinaryOp<SDiv>);
  t.lower(Op::OpUMod, lowerIntBinaryOp<UMod>);
  t.lower(Op::OpSRem, lowerSignedRemainder<SRem>);
  t.lower(Op::OpSMod, lowerSignedRemainder<SMod>);
  t.lower(Op::OpSNegate, lowerIntUnaryOp<SNegate>);
  t.lower(Op::OpIAddCarry, lowerExtended<Extended::AddCarry>);
  t.lower(Op::OpISubBorrow, lowerExtended<Extended::SubBorrow>);
  t.lower(Op::OpUMulExtended, lowerExtended<Extended::UMul>);
  t.lower(Op::OpSMulExtended, lowerExtended<Extended::SMul>);
  using numerics::CoreOp;
  t.lower(Op::OpFAdd, lowerFloatSum<FAdd, false>, {shadowSum<CoreOp::Add>});
  t.lower(Op::OpFSub, lowerFloatSum<FSub, true>, {shadowSum<CoreOp::Sub>});
  t.lower(Op::OpFMul, lowerFloatBinaryOp<FMul>, {shadowCore<CoreOp::Mul>});
  t.lower(Op::OpFDiv, lowerFloatBinaryOp<FDiv>, {shadowCore<CoreOp::Div>});
  t.lower(Op::OpFRem, lowerFloatRemainder<FRem, FRemFormula>, {shadowFRem});
  t.lower(Op::OpFMod, lowerFloatRemainder<FMod, FModFormula>, {shadowFMod});
  t.lower(Op::OpFNegate, lowerFNegate, {shadowFNegate});
  t.lower(Op::OpVectorTimesScalar, lowerVectorTimesScalar, {shadowCore<CoreOp::Mul>});
  t.lower(Op::OpDot, lowerDot, {shadowDot});
}

}  // namespace clref::interpreter
