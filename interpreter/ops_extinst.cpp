// OpExtInst dispatch (SPIR-V 1.0 §3.32.7 [external]) for the OpenCL.std extended instruction set
// (OpenCL Extended Instruction Set Specification; semantics from OpenCL C 3.0 §6.15 [[built-in-functions]]).
#include <bit>
#include <cmath>
#include <limits>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/ops_glsl_std450.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/exact_ops.hpp"
#include "numerics/opencl_std.hpp"

namespace clref::interpreter {
namespace {

// OpenCL.std opcodes, generated from extinst.opencl.std.100.grammar.json.
using Std = numerics::OpenClStd;

// OpenCL C 3.0 §6.15.2 [[math-functions]] fabs, copysign: sign-bit operations, exact.
struct Fabs {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    if constexpr (std::is_same_v<T, Half>)
      return Half{uint16_t(a.bits & 0x7fff)};
    else
      return std::fabs(a);
  }
};
struct Copysign {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    if constexpr (std::is_same_v<T, Half>)
      return Half{uint16_t((a.bits & 0x7fff) | (b.bits & 0x8000))};
    else
      return std::copysign(a, b);
  }
};
// OpenCL C 3.0 §6.15.2 [[math-functions]] fmax, fmin: numerics::fmax/fmin (numerics/exact_ops.hpp), the rule
// numerics::evaluate uses too; the result is a value of T.
template <bool Max, bool FTZ> struct FMinMax {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    const double x = toD(ftz<FTZ>(a)), y = toD(ftz<FTZ>(b));
    return fromD<T>(Max ? numerics::fmax(x, y) : numerics::fmin(x, y));
  }
};
// OpenCL C 3.0 §6.15.2 [[math-functions]] ceil, floor, trunc, rint, round: exact (results are representable).
template <int Kind, bool FTZ> struct Rounding {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    const double x = toD(ftz<FTZ>(a));
    double r;
    switch (Kind) {
      case 0: r = std::ceil(x); break;
      case 1: r = std::floor(x); break;
      case 2: r = std::trunc(x); break;
      case 3: r = numerics::rint(x); break;  // ties to even, whatever the host FP environment
      default: r = std::round(x); break;     // halfway cases away from zero
    }
    return fromD<T>(r);  // exact: an integral value of the same format
  }
};
// OpenCL C 3.0 §6.15.2 [[math-functions]] sqrt: clref gives the correctly rounded square root (the host's IEEE sqrt;
// binary16 via binary32, innocuous double rounding).
template <bool FTZ> struct Sqrt {
  template <class T> static T apply(WorkItem&, const Op*, T a) {
    a = ftz<FTZ>(a);
    if constexpr (std::is_same_v<T, Half>)
      return ftz<FTZ>(numerics::sqrtHalf(a));
    else
      return ftz<FTZ>(T(std::sqrt(a)));
  }
};
// OpenCL C 3.0 §6.15.2 [[math-functions]] fma: the infinitely precise a·b + c, rounded once (glibc's fma/fmaf are
// exact).
template <class T> T fmaExact(T a, T b, T c) {
  if constexpr (std::is_same_v<T, Half>)
    return numerics::fmaHalf(a, b, c);
  else
    return std::fma(a, b, c);
}
template <bool FTZ> struct Fma {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) {
    return ftz<FTZ>(fmaExact(ftz<FTZ>(a), ftz<FTZ>(b), ftz<FTZ>(c)));
  }
};
// OpenCL C 3.0 §6.15.2 [[math-functions]] mad: fused or product-then-sum, the named choice `mad`.
// Both forms are computed: where they differ the choice decided the value, and the run records it.
template <bool FTZ, bool Fused> struct Mad {
  template <class T> static T unfused(T a, T b, T c) {
    a = ftz<FTZ>(a);
    b = ftz<FTZ>(b);
    c = ftz<FTZ>(c);
    if constexpr (std::is_same_v<T, Half>)
      return ftz<FTZ>(numerics::addHalf(ftz<FTZ>(numerics::mulHalf(a, b)), c));
    else
      return ftz<FTZ>(T(ftz<FTZ>(T(a * b)) + c));
  }
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b, T c) {
    const T f = Fma<FTZ>::apply(wi, op, a, b, c), u = unfused(a, b, c);
    if (std::memcmp(&f, &u, sizeof(T)) != 0 && !(std::isnan(toD(f)) && std::isnan(toD(u)))) [[unlikely]]
      noteChoice(wi, op, numerics::Choice::Mad, "mad: the fused and the unfused result differ");
    return Fused ? f : u;
  }
};

// mad's lane form (lanes.hpp): the lanes whose fused and unfused results agree, or all once the work-group has decided
// mad (one more decision only counts). A lane whose results differ before that stops the lanes before it runs: the
// work-group's first decision must be the one of the work-item that makes it first alone.
#if defined(__x86_64__) && defined(__GNUC__)
// madLanes for float and double on a CPU with FMA3: its vfmadd is the IEEE fused multiply-add, the exact a·b + c rounded
// once in the MXCSR's round-to-nearest, which is what glibc's fmaf/fma compute (on such a CPU, with that same
// instruction): the same bits without a library call per lane. The unfused product passes through an empty asm so that
// the compiler, which may contract a·b + c in a function targeting FMA, cannot fuse it.
template <class T, bool FTZ, bool Fused> [[gnu::target("fma")]] const Op* madLanesFma(LaneBatch& b, const Op* op) {
  uint8_t* __restrict r = b.lane0(op->r);
  const uint8_t *pa = b.lane0(op->a), *pb = b.lane0(op->b), *pc = b.lane0(op->c);
  const uint32_t count = b.count;
  for (uint32_t l = 0; l < count; ++l) {
    const T x = ftz<FTZ>(rdLane<T>(pa, l)), y = ftz<FTZ>(rdLane<T>(pb, l)), z = ftz<FTZ>(rdLane<T>(pc, l));
    T f, product = x * y;
    if constexpr (std::is_same_v<T, float>)
      f = ftz<FTZ>(__builtin_fmaf(x, y, z));
    else
      f = ftz<FTZ>(__builtin_fma(x, y, z));
    asm("" : "+x"(product));
    const T u = ftz<FTZ>(T(ftz<FTZ>(product) + z));
    if (std::memcmp(&f, &u, sizeof(T)) != 0 && !(std::isnan(f) && std::isnan(u))) [[unlikely]]
      if (!decideOnLanes(b, op, l, numerics::Choice::Mad, "mad: the fused and the unfused result differ"))
        return stopBefore(b, op, l);
    wrLane<T>(r, l, Fused ? f : u);
  }
  return op + 1;
}
#endif

template <class T, bool FTZ, bool Fused> const Op* madLanes(LaneBatch& b, const Op* op) {
  using M = Mad<FTZ, Fused>;
  if (op->n != 1) return leaveLanes(b, op);
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    static const bool hardwareFma = __builtin_cpu_supports("fma");
    if (hardwareFma) return madLanesFma<T, FTZ, Fused>(b, op);
  }
#endif
  uint8_t* r = b.lane0(op->r);
  const uint8_t *pa = b.lane0(op->a), *pb = b.lane0(op->b), *pc = b.lane0(op->c);
  for (uint32_t l = 0; l < b.count; ++l) {
    const T x = rdLane<T>(pa, l), y = rdLane<T>(pb, l), z = rdLane<T>(pc, l);
    const T f = Fma<FTZ>::apply(*b.items[l], op, x, y, z), u = M::unfused(x, y, z);
    if (std::memcmp(&f, &u, sizeof(T)) != 0 && !(std::isnan(toD(f)) && std::isnan(toD(u)))) [[unlikely]]
      if (!decideOnLanes(b, op, l, numerics::Choice::Mad, "mad: the fused and the unfused result differ"))
        return stopBefore(b, op, l);
    wrLane<T>(r, l, Fused ? f : u);
  }
  return op + 1;
}

// OpenCL C 3.0 §6.15.3 [[integer-functions]] integer functions.
struct SAbs {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return Signed<T>(a) < 0 ? T(T(0) - a) : a; }
};
struct UAbs {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return a; }
};
struct SMax {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return Signed<T>(a) > Signed<T>(b) ? a : b; }
};
struct UMax {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return a > b ? a : b; }
};
struct SMin {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return Signed<T>(a) < Signed<T>(b) ? a : b; }
};
struct UMin {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return a < b ? a : b; }
};
// OpenCL C 3.0 §6.15.3 [[integer-functions]] clamp: min(max(x, minval), maxval), "undefined if minval > maxval":
// then the choice clamp_inverted_bounds decides between that formula and max(min(x, maxval), minval).
bool maxOfMin(const WorkItem& wi) {
  return choicesOf(wi).get<numerics::Choice::ClampInvertedBounds>() == numerics::ClampOption::MaxOfMin;
}
struct SClamp {
  template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) {
    if (Signed<T>(lo) > Signed<T>(hi)) noteChoice(wi, op, numerics::Choice::ClampInvertedBounds, "clamp with minval > maxval");
    if (Signed<T>(lo) > Signed<T>(hi) && maxOfMin(wi)) return SMax::apply(wi, op, SMin::apply(wi, op, x, hi), lo);
    return SMin::apply(wi, op, SMax::apply(wi, op, x, lo), hi);
  }
};
struct UClamp {
  template <class T> static T apply(WorkItem& wi, const Op* op, T x, T lo, T hi) {
    if (lo > hi) noteChoice(wi, op, numerics::Choice::ClampInvertedBounds, "clamp with minval > maxval");
    if (lo > hi && maxOfMin(wi)) return UMax::apply(wi, op, UMin::apply(wi, op, x, hi), lo);
    return UMin::apply(wi, op, UMax::apply(wi, op, x, lo), hi);
  }
};
// clamp's lane form (lanes.hpp): the lanes before the first whose bounds are inverted (where the choice
// clamp_inverted_bounds decides, which a lane form never does) take min(max(x, minval), maxval); that one stops them.
template <class T, bool IsSigned> const Op* clampOnLanes(LaneBatch& b, const Op* op) {
  using C = std::conditional_t<IsSigned, Signed<T>, T>;
  const uint32_t n = op->n, count = b.count;
  uint32_t good = count;
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t *lo = b.lane0(op->b + i * sizeof(T)), *hi = b.lane0(op->c + i * sizeof(T));
    for (uint32_t l = 0; l < good; ++l)
      if (C(rdLane<T>(lo, l)) > C(rdLane<T>(hi, l))) good = l;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* __restrict r = b.lane0(op->r + i * sizeof(T));
    const uint8_t *x = b.lane0(op->a + i * sizeof(T)), *lo = b.lane0(op->b + i * sizeof(T)),
                  *hi = b.lane0(op->c + i * sizeof(T));
    for (uint32_t l = 0; l < good; ++l)
      wrLane<T>(r, l, T(std::min(std::max(C(rdLane<T>(x, l)), C(rdLane<T>(lo, l))), C(rdLane<T>(hi, l)))));
  }
  return good == count ? op + 1 : stopBefore(b, op, good);
}
template <class F, bool IsSigned> Handler clampHandler(const Lowerer& L, uint32_t type) {
  return withInt(L.scalarOf(type),
                 [&]<class T>() -> Handler { return laneForm<&ternaryLanes<T, T, F>, &clampOnLanes<T, IsSigned>>(); });
}

// The integer functions below work on the exact mathematical value in 128-bit arithmetic and
// then saturate, halve or take the high half as OpenCL C 3.0 §6.15.3 [[integer-functions]] describes; T is the unsigned
// storage.
using I128 = __int128;
using U128 = unsigned __int128;
template <class T> constexpr int kBits = int(sizeof(T) * 8);
template <class T> I128 sval(T x) { return I128(Signed<T>(x)); }
template <class T> T satS(I128 v) {
  const I128 lo = I128(std::numeric_limits<Signed<T>>::min()), hi = I128(std::numeric_limits<Signed<T>>::max());
  return T(Signed<T>(v < lo ? lo : v > hi ? hi : v));
}
template <class T> T satU(I128 v) {
  const I128 hi = I128(std::numeric_limits<T>::max());
  return T(v < 0 ? 0 : v > hi ? hi : v);
}
// abs_diff: |x − y| without modulo overflow, as an unsigned result.
struct SAbsDiff {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    I128 d = sval(a) - sval(b);
    return T(d < 0 ? -d : d);
  }
};
struct UAbsDiff {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return a > b ? T(a - b) : T(b - a); }
};
struct SAddSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return satS<T>(sval(a) + sval(b)); }
};
struct UAddSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return satU<T>(I128(a) + I128(b)); }
};
struct SSubSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return satS<T>(sval(a) - sval(b)); }
};
struct USubSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return satU<T>(I128(a) - I128(b)); }
};
// hadd: (x + y) >> 1 and rhadd: (x + y + 1) >> 1 without overflow (floor division by 2).
struct SHadd {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T(Signed<T>((sval(a) + sval(b)) >> 1)); }
};
struct UHadd {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T((U128(a) + U128(b)) >> 1); }
};
struct SRhadd {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) {
    return T(Signed<T>((sval(a) + sval(b) + 1) >> 1));
  }
};
struct URhadd {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return T((U128(a) + U128(b) + 1) >> 1); }
};
// mul_hi: the high half of the full product.
template <class T> T mulHiS(T a, T b) {
  if constexpr (sizeof(T) == 8)
    return T(uint64_t(U128(sval(a) * sval(b)) >> 64));
  else
    return T(uint64_t((sval(a) * sval(b)) >> kBits<T>));
}
template <class T> T mulHiU(T a, T b) { return T((U128(a) * U128(b)) >> kBits<T>); }
struct SMulHi {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return mulHiS(a, b); }
};
struct UMulHi {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return mulHiU(a, b); }
};
struct SMadHi {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) { return T(mulHiS(a, b) + c); }
};
struct UMadHi {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) { return T(mulHiU(a, b) + c); }
};
// mad_sat: a·b + c saturated; for 64-bit operands the exact value needs more than 128 bits
// only when the product alone is out of range, which saturates anyway.
template <class T> I128 madExactS(T a, T b, T c, bool& overflow) {
  I128 p;
  overflow = __builtin_mul_overflow(sval(a), sval(b), &p);
  I128 r = 0;  // left unset when the product overflows (the caller then saturates, ignoring it)
  overflow = overflow || __builtin_add_overflow(p, sval(c), &r);
  return r;
}
struct SMadSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) {
    bool ovf;
    const I128 r = madExactS(a, b, c, ovf);
    if (ovf)
      return satS<T>((sval(a) < 0) != (sval(b) < 0) ? std::numeric_limits<I128>::min()
                                                    : std::numeric_limits<I128>::max());
    return satS<T>(r);
  }
};
struct UMadSat {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) {
    U128 p, r;
    if (__builtin_mul_overflow(U128(a), U128(b), &p) || __builtin_add_overflow(p, U128(c), &r))
      return std::numeric_limits<T>::max();
    return r > U128(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::max() : T(r);
  }
};
// OpenCL C 3.0 §6.15.3 [[integer-functions]] mul24/mad24: "only the low 24-bits are used to perform the
// multiplication"; beyond the 24-bit ranges the result is implementation-defined, and the
// choice mul24_out_of_range decides: the low 24 bits (sign-extended for the signed form, what a
// 24-bit multiplier produces) or the full 32-bit operands (the product's low 32 bits).
bool fullProduct(WorkItem& wi, const Op* op) {
  noteChoice(wi, op, numerics::Choice::Mul24OutOfRange, "mul24/mad24 operand beyond 24 bits");
  return choicesOf(wi).get<numerics::Choice::Mul24OutOfRange>() == numerics::Mul24Option::FullProduct;
}
struct SMul24 {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    const int32_t sa = int32_t(uint32_t(a) << 8) >> 8, sb = int32_t(uint32_t(b) << 8) >> 8;
    if ((sa != int32_t(a) || sb != int32_t(b)) && fullProduct(wi, op)) return T(uint32_t(a) * uint32_t(b));
    return T(uint64_t(int64_t(sa) * int64_t(sb)));
  }
};
struct UMul24 {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b) {
    if ((a > 0xffffff || b > 0xffffff) && fullProduct(wi, op)) return T(uint32_t(a) * uint32_t(b));
    return T(uint64_t(a & 0xffffff) * uint64_t(b & 0xffffff));
  }
};
struct SMad24 {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b, T c) {
    return T(SMul24::apply(wi, op, a, b) + c);
  }
};
struct UMad24 {
  template <class T> static T apply(WorkItem& wi, const Op* op, T a, T b, T c) {
    return T(UMul24::apply(wi, op, a, b) + c);
  }
};
// clz/ctz of 0 is the bit width (OpenCL C 3.0 §6.15.3 [[integer-functions]]); popcount; rotate left by the count modulo
// width.
struct Clz {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(std::countl_zero(a)); }
};
struct Ctz {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(std::countr_zero(a)); }
};
struct Popcount {
  template <class T> static T apply(WorkItem&, const Op*, T a) { return T(std::popcount(a)); }
};
struct Rotate {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b) { return std::rotl(a, int(b % kBits<T>)); }
};

// upsample(hi, lo): (hi << bits(lo)) | lo into the next wider type (result lanes of R).
template <class R, class T> const Op* upsample(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i) {
    const R hi = R(rd<T>(wi, op->a + i * sizeof(T))), lo = R(rd<T>(wi, op->b + i * sizeof(T)));
    wr<R>(wi, op->r + i * sizeof(R), R((hi << kBits<T>) | lo));
  }
  return op + 1;
}

// OpenCL C 3.0 §6.15.13 [[miscellaneous-vector-functions]] shuffle / shuffle2: result[i] = source[mask[i] mod size],
// taking only the low bits of each mask element that index the source (OpenCL C 3.0
// §6.15.13 [[miscellaneous-vector-functions]]). n = result lanes,
// c = lanes of each source, b = mask, imm = second source register (shuffle2), aux unused.
template <class T, class M, bool Two> const Op* shuffle(WorkItem& wi, const Op* op) {
  const uint32_t srcLanes = op->c, total = Two ? 2 * srcLanes : srcLanes;
  for (uint32_t i = 0; i < op->n; ++i) {
    const uint32_t k = uint32_t(rd<M>(wi, op->b + i * sizeof(M)) % total);
    const uint32_t src = k < srcLanes ? op->a + k * sizeof(T) : uint32_t(op->imm) + (k - srcLanes) * sizeof(T);
    wr<T>(wi, op->r + i * sizeof(T), rd<T>(wi, src));
  }
  return op + 1;
}
// OpenCL C 3.0 §6.15.6 [[relational-functions]] bitselect: each result bit is b's where c's bit is 1, else a's (any
// gentype: bits).
struct Bitselect {
  template <class T> static T apply(WorkItem&, const Op*, T a, T b, T c) { return T((a & ~c) | (b & c)); }
};
// OpenCL C 3.0 §6.15.6 [[relational-functions]] select(a, b, c): scalar: c ? b : a; vector: the most significant bit of
// each c lane.
template <class T, class C, bool Vector> const Op* selectStd(WorkItem& wi, const Op* op) {
  for (uint32_t i = 0; i < op->n; ++i) {
    const C c = rd<C>(wi, uint32_t(op->imm) + i * sizeof(C));
    const bool pick = Vector ? (c >> (sizeof(C) * 8 - 1)) & 1 : c != 0;
    wr<T>(wi, op->r + i * sizeof(T), rd<T>(wi, (pick ? op->b : op->a) + i * sizeof(T)));
  }
  return op + 1;
}

}  // namespace

// Operand layout of OpExtInst: result type, result, set, instruction, operands…
Op& emitExt(Lowerer& L, Handler fn, const Instruction& inst, size_t args) {
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.n = L.lanes(inst.resultType);
  if (args > 0) op.a = L.reg(inst.operand(2));
  if (args > 1) op.b = L.reg(inst.operand(3));
  if (args > 2) op.c = L.reg(inst.operand(4));
  return op;
}

namespace {

template <class F> Handler floatUnary(const Lowerer& L, uint32_t t) {
  return withFloat(L.scalarOf(t), [&]<class T>() -> Handler { return &unaryLanes<T, T, F>; });
}

// OpExtInst of OpenCL.std: a second dispatch on the instruction number (OpenCL.ExtendedInstructionSet.100);
// GLSL.std.450 goes to lowerGlslStd450 (ops_glsl_std450.cpp).
// Debug-information sets never get here: lowering skips them (Module::isDebugInfo).
void lowerExtInst(Lowerer& L, const Instruction& inst) {
  const auto set = L.m.extInstImports.find(inst.extInstSet);
  if (set != L.m.extInstImports.end() && set->second == "GLSL.std.450") return lowerGlslStd450(L, inst);
  if (set == L.m.extInstImports.end() || set->second != "OpenCL.std")
    L.reject(inst, "extended instruction set '" + (set == L.m.extInstImports.end() ? std::string("?") : set->second) +
                       "' is not supported");
  if (lowerVectorData(L, inst) || lowerPrintf(L, inst)) return;
  const uint32_t t = inst.resultType;
  const bool fusedMad = L.opt.choices.get<numerics::Choice::Mad>() == numerics::MadOption::Fused;
  switch (Std(inst.operand(1))) {
    case Std::fabs: emitExt(L, floatUnary<Fabs>(L, t), inst, 1); return;
    case Std::copysign:
      emitExt(L, withFloat(L.scalarOf(t), [&]<class T>() { return binaryHandler<T, T, Copysign>(L.lanes(t)); }), inst,
              2);
      return;
    case Std::fmin:
    case Std::fmax: {
      const bool mx = Std(inst.operand(1)) == Std::fmax;
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() {
                             return mx ? binaryHandler<T, T, FMinMax<true, Z>>(L.lanes(t))
                                       : binaryHandler<T, T, FMinMax<false, Z>>(L.lanes(t));
                           }),
              inst, 2);
      return;
    }
    case Std::ceil:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<0, Z>>; }),
              inst, 1);
      return;
    case Std::floor:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<1, Z>>; }),
              inst, 1);
      return;
    case Std::trunc:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<2, Z>>; }),
              inst, 1);
      return;
    case Std::rint:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<3, Z>>; }),
              inst, 1);
      return;
    case Std::round:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler { return &unaryLanes<T, T, Rounding<4, Z>>; }),
              inst, 1);
      return;
    case Std::sqrt: emitExt(L, floatUnaryFtz<Sqrt>(L, t), inst, 1); return;
    case Std::fma:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t), [&]<class T, bool Z>() -> Handler { return &ternaryLanes<T, T, Fma<Z>>; }),
              inst, 3);
      return;
    case Std::mad:
      emitExt(L,
              withFloatFtz(L, L.scalarOf(t),
                           [&]<class T, bool Z>() -> Handler {
                             // The lane executor (lanes.hpp) runs it on lanes once the work-group decided mad;
                             // also in a shadow run: the choice mad leaves no result free (its options are its set).
                             return fusedMad ? laneForm<&ternaryLanes<T, T, Mad<Z, true>>, &madLanes<T, Z, true>>()
                                             : laneForm<&ternaryLanes<T, T, Mad<Z, false>>, &madLanes<T, Z, false>>();
                           }),
              inst, 3);
      return;
    case Std::s_abs: emitExt(L, intUnary<SAbs>(L, t), inst, 1); return;
    case Std::u_abs: emitExt(L, intUnary<UAbs>(L, t), inst, 1); return;
    case Std::s_max: emitExt(L, intBinary<SMax>(L, t), inst, 2); return;
    case Std::u_max: emitExt(L, intBinary<UMax>(L, t), inst, 2); return;
    case Std::s_min: emitExt(L, intBinary<SMin>(L, t), inst, 2); return;
    case Std::u_min: emitExt(L, intBinary<UMin>(L, t), inst, 2); return;
    case Std::s_clamp: emitExt(L, clampHandler<SClamp, true>(L, t), inst, 3); return;
    case Std::u_clamp: emitExt(L, clampHandler<UClamp, false>(L, t), inst, 3); return;
    case Std::s_abs_diff: emitExt(L, intBinary<SAbsDiff>(L, t), inst, 2); return;
    case Std::u_abs_diff: emitExt(L, intBinary<UAbsDiff>(L, t), inst, 2); return;
    case Std::s_add_sat: emitExt(L, intBinary<SAddSat>(L, t), inst, 2); return;
    case Std::u_add_sat: emitExt(L, intBinary<UAddSat>(L, t), inst, 2); return;
    case Std::s_sub_sat: emitExt(L, intBinary<SSubSat>(L, t), inst, 2); return;
    case Std::u_sub_sat: emitExt(L, intBinary<USubSat>(L, t), inst, 2); return;
    case Std::s_hadd: emitExt(L, intBinary<SHadd>(L, t), inst, 2); return;
    case Std::u_hadd: emitExt(L, intBinary<UHadd>(L, t), inst, 2); return;
    case Std::s_rhadd: emitExt(L, intBinary<SRhadd>(L, t), inst, 2); return;
    case Std::u_rhadd: emitExt(L, intBinary<URhadd>(L, t), inst, 2); return;
    case Std::s_mul_hi: emitExt(L, intBinary<SMulHi>(L, t), inst, 2); return;
    case Std::u_mul_hi: emitExt(L, intBinary<UMulHi>(L, t), inst, 2); return;
    case Std::s_mad_hi: emitExt(L, intTernary<SMadHi>(L, t), inst, 3); return;
    case Std::u_mad_hi: emitExt(L, intTernary<UMadHi>(L, t), inst, 3); return;
    case Std::s_mad_sat: emitExt(L, intTernary<SMadSat>(L, t), inst, 3); return;
    case Std::u_mad_sat: emitExt(L, intTernary<UMadSat>(L, t), inst, 3); return;
    case Std::s_mul24: emitExt(L, intBinary<SMul24>(L, t), inst, 2); return;
    case Std::u_mul24: emitExt(L, intBinary<UMul24>(L, t), inst, 2); return;
    case Std::s_mad24: emitExt(L, intTernary<SMad24>(L, t), inst, 3); return;
    case Std::u_mad24: emitExt(L, intTernary<UMad24>(L, t), inst, 3); return;
    case Std::clz: emitExt(L, intUnary<Clz>(L, t), inst, 1); return;
    case Std::ctz: emitExt(L, intUnary<Ctz>(L, t), inst, 1); return;
    case Std::popcount: emitExt(L, intUnary<Popcount>(L, t), inst, 1); return;
    case Std::rotate: emitExt(L, intBinary<Rotate>(L, t), inst, 2); return;
    case Std::shuffle:
    case Std::shuffle2: {
      const bool two = Std(inst.operand(1)) == Std::shuffle2;
      const uint32_t maskType = L.typeIdOfValue(inst.operand(two ? 4 : 3));
      const uint32_t srcLanes = L.lanes(L.typeIdOfValue(inst.operand(2)));
      // Element bits decide the handler: float and integer elements of one width move alike.
      const ScalarType elemKind = numerics::integerType(sizeOf(L.scalarOf(t)), false);
      Handler fn = withInt(elemKind, [&]<class T>() {
        return withInt(L.scalarOf(maskType),
                       [&]<class M>() -> Handler { return two ? &shuffle<T, M, true> : &shuffle<T, M, false>; });
      });
      Op& op = emitExt(L, fn, inst, 1);
      op.c = srcLanes;
      if (two) {
        op.imm = L.reg(inst.operand(3));
        op.b = L.reg(inst.operand(4));
      } else {
        op.b = L.reg(inst.operand(3));
      }
      return;
    }
    case Std::bitselect: {
      const ScalarType kind = numerics::integerType(sizeOf(L.scalarOf(t)), false);
      emitExt(L, withInt(kind, [&]<class T>() -> Handler { return &ternaryLanes<T, T, Bitselect>; }), inst, 3);
      return;
    }
    case Std::select: {
      const uint32_t condType = L.typeIdOfValue(inst.operand(4));
      const bool vector = L.type(condType).kind == TypeKind::Vector;
      const ScalarType kind = numerics::integerType(sizeOf(L.scalarOf(t)), false);
      Handler fn = withInt(kind, [&]<class T>() {
        return withInt(L.scalarOf(condType),
                       [&]<class C>() -> Handler { return vector ? &selectStd<T, C, true> : &selectStd<T, C, false>; });
      });
      Op& op = emitExt(L, fn, inst, 2);
      op.imm = L.reg(inst.operand(4));
      return;
    }
    case Std::s_upsample:
    case Std::u_upsample: {
      // Same bits for both forms: the high part's sign bit lands in the result's sign bit.
      const uint32_t from = L.typeIdOfValue(inst.operand(2));
      Handler fn = withInt(L.scalarOf(from), [&]<class T>() -> Handler {
        if constexpr (sizeof(T) == 1)
          return &upsample<uint16_t, T>;
        else if constexpr (sizeof(T) == 2)
          return &upsample<uint32_t, T>;
        else if constexpr (sizeof(T) == 4)
          return &upsample<uint64_t, T>;
        else
          return nullptr;
      });
      if (!fn) L.reject(inst, "upsample of 64-bit operands (there is no wider integer type)");
      emitExt(L, fn, inst, 2);
      return;
    }
    default: break;  // the math functions: lowerMath
  }
  if (lowerMath(L, inst)) return;
  L.reject(inst, "OpenCL.std has no instruction " + std::to_string(inst.operand(1)));
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// OpExtInst: the rule the family of the OpenCL.std instruction registered for its number (t.openclStd), else the
// generic rule.
void shadowExtInst(ShadowLowering& S) {
  const auto set = S.L.m.extInstImports.find(S.inst.extInstSet);
  if (set != S.L.m.extInstImports.end() && set->second == "GLSL.std.450") return shadowGlslStd450(S);
  const ShadowRule* rule = set != S.L.m.extInstImports.end() && set->second == "OpenCL.std"
                               ? dispatchTable().findOpenclStd(S.operand(1))
                               : nullptr;
  if (rule && rule->emit)
    rule->emit(S);
  else
    shadowGeneric(S);
}

// select(a, b, c): b's set where c chooses it, a's where not, both where c is undetermined.
void shadowSelectStd(ShadowLowering& S) { S.select(S.operand(4), S.operand(3), S.operand(2), true); }

}  // namespace

void registerExtInst(DispatchTable& t) {
  t.lower(spv::Op::OpExtInst, lowerExtInst, {shadowExtInst});
  t.openclStd({uint32_t(Std::select)}, {shadowSelectStd});
  // Lanes that move whole or bit by bit, of any gentype: the generic rule (any value when a float operand has a set).
  t.openclStd({uint32_t(Std::shuffle), uint32_t(Std::shuffle2), uint32_t(Std::bitselect)}, {shadowGeneric});
}

}  // namespace clref::interpreter
