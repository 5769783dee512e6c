// The arithmetic of the group collectives (OpGroupIAdd … OpGroupSMax, the uniform arithmetic of
// SPV_KHR_uniform_group_instructions, and the sub-group non-uniform arithmetic of ops_subgroup.cpp): the combining
// operators with their identities and the reduction and scans over a list of work-items. Internal to the interpreter.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "numerics/exact_ops.hpp"

namespace clref::interpreter {

// The combining operators of the arithmetic collectives, with their identities (OpenCL C 3.0 §6.15.16
// [[work-group-functions]]: 0 for add; for min the largest value of the type, +INF for floating point; for max the
// smallest, -INF).
template <class T> struct IAddOf {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a + b); }  // unsigned T: wraps modulo 2^N (SPIR-V OpGroupIAdd)
};
template <class T> struct SMinOf {
  static T identity() { return T(std::numeric_limits<Signed<T>>::max()); }
  static T apply(T a, T b) { return Signed<T>(a) < Signed<T>(b) ? a : b; }
};
template <class T> struct SMaxOf {
  static T identity() { return T(std::numeric_limits<Signed<T>>::min()); }
  static T apply(T a, T b) { return Signed<T>(a) > Signed<T>(b) ? a : b; }
};
template <class T> struct UMinOf {
  static T identity() { return std::numeric_limits<T>::max(); }
  static T apply(T a, T b) { return a < b ? a : b; }
};
template <class T> struct UMaxOf {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return a > b ? a : b; }
};
// The shadow mode (interpreter/shadow.hpp) of the floating-point collectives: only their action sees every work-item's
// operand, so it gives the results their allowed sets (ops_group.cpp).
enum class GroupFloat : uint8_t { Add, Mul, Min, Max };
void shadowGroupFloat(WorkItem* const* items, uint64_t count, const Op* op, GroupFloat kind);

// Floating point: each operation rounded once in the type (round to nearest even), denormals flushed when the
// kernel flushes them (FTZ); min and max are fmin and fmax (a NaN operand gives the other).
template <class T, bool FTZ> struct FAddOf {
  static constexpr GroupFloat kind = GroupFloat::Add;
  static T identity() { return fromD<T>(0.0); }
  static T apply(T a, T b) { return addFtz<FTZ>(a, b); }
};
template <class T, bool FTZ, bool Max> struct FMinMaxOf {
  static constexpr GroupFloat kind = Max ? GroupFloat::Max : GroupFloat::Min;
  static T identity() { return fromD<T>(Max ? -INFINITY : INFINITY); }
  static T apply(T a, T b) {
    const double x = toD(ftz<FTZ>(a)), y = toD(ftz<FTZ>(b));
    return ftz<FTZ>(fromD<T>(Max ? numerics::fmax(x, y) : numerics::fmin(x, y)));
  }
};

// cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 §6.15.17 [[work-group-collective-uniform-arithmetic-functions]];
// SPV_KHR_uniform_group_instructions): multiplication (identity 1), bitwise and (~0), or and xor (0), and the logical
// operations on Booleans (one byte, 0 or 1; identity true for and, false for or and xor).
template <class T> struct IMulOf {
  static T identity() { return T(1); }
  static T apply(T a, T b) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;  // no promotion to signed int
    return T(W(a) * W(b));
  }
};
template <class T> struct BitAndOf {
  static T identity() { return T(~T(0)); }
  static T apply(T a, T b) { return T(a & b); }
};
template <class T> struct BitOrOf {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a | b); }
};
template <class T> struct BitXorOf {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a ^ b); }
};
struct LogicalAndOf {
  static uint8_t identity() { return 1; }
  static uint8_t apply(uint8_t a, uint8_t b) { return uint8_t(a && b); }
};
struct LogicalOrOf {
  static uint8_t identity() { return 0; }
  static uint8_t apply(uint8_t a, uint8_t b) { return uint8_t(a || b); }
};
struct LogicalXorOf {
  static uint8_t identity() { return 0; }
  static uint8_t apply(uint8_t a, uint8_t b) { return uint8_t((a != 0) != (b != 0)); }
};
template <class T, bool FTZ> struct FMulOf {
  static constexpr GroupFloat kind = GroupFloat::Mul;
  static T identity() { return fromD<T>(1.0); }
  static T apply(T a, T b) { return mulFtz<FTZ>(a, b); }
};

// A value combined from some of the inputs, or none (the padding of the tree orders, which takes no part in any
// operation, so that no identity element changes a result: 0 + -0 would be +0).
template <class T> struct Partial { std::optional<T> v; };
template <class F, class T> std::optional<T> combine(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a) return b;
  if (!b) return a;
  return F::apply(*a, *b);
}

// OpGroupIAdd … OpGroupSMax with GroupOperation Reduce, InclusiveScan or ExclusiveScan. The scan order is the local
// linear id (OpenCL C 3.0 §6.15.16 [[work-group-functions]]: "increasing 1D linear global ID within the
// work-group"); an exclusive scan gives the first work-item the identity. Floating-point reductions and scans follow
// the choice work_group_reduction_order: linear (left to right) or tree (pairwise halving for a reduction; for a scan
// the work-efficient up-sweep/down-sweep scan, G. E. Blelloch, "Prefix sums and their applications", CMU-CS-90-190,
// 1990 [external]).
template <class T, class F, bool Ordered> bool groupArith(WorkItem* const* items, uint64_t count, const Op* op) {
  const uint32_t operation = op->c;
  if (count == 0) return true;
  std::vector<T> x(count);
  for (uint64_t i = 0; i < count; ++i) x[i] = rd<T>(*items[i], op->a);
  std::vector<T> out(count);
  const bool tree = Ordered && choicesOf(*items[0]).get<numerics::Choice::WorkGroupReductionOrder>() ==
                                   numerics::WorkGroupReductionOrderOption::Tree;
  // A floating-point reduction or scan over more than two values: the order of its roundings is the choice's.
  if (Ordered && count > 2)
    noteChoice(*items[0], op, numerics::Choice::WorkGroupReductionOrder,
               "floating-point reduction or scan over the group's values");
  if (!tree) {
    if (operation == 0) {
      T acc = x[0];
      for (uint64_t i = 1; i < count; ++i) acc = F::apply(acc, x[i]);
      std::fill(out.begin(), out.end(), acc);
    } else {
      // acc: the combination of x[0 .. i-1] (none before the first).
      T acc = x[0];
      for (uint64_t i = 0; i < count; ++i) {
        if (operation == 2) out[i] = i == 0 ? F::identity() : acc;
        if (i > 0) acc = F::apply(acc, x[i]);
        if (operation == 1) out[i] = acc;
      }
    }
  } else {
    // The tree over a power of two of leaves, the missing ones empty.
    uint64_t leaves = 1;
    while (leaves < count) leaves *= 2;
    std::vector<std::optional<T>> t(leaves);
    for (uint64_t i = 0; i < count; ++i) t[i] = x[i];
    // Up-sweep: t[k + 2d - 1] becomes the combination of the 2d leaves ending there; the last one is the reduction.
    for (uint64_t d = 1; d < leaves; d *= 2)
      for (uint64_t k = 0; k < leaves; k += 2 * d) t[k + 2 * d - 1] = combine<F>(t[k + d - 1], t[k + 2 * d - 1]);
    if (operation == 0) {
      std::fill(out.begin(), out.end(), *t[leaves - 1]);
    } else {
      // Down-sweep: each position receives the combination of every leaf before it (empty for the first).
      t[leaves - 1].reset();
      for (uint64_t d = leaves / 2; d >= 1; d /= 2)
        for (uint64_t k = 0; k < leaves; k += 2 * d) {
          const std::optional<T> left = t[k + d - 1];
          t[k + d - 1] = t[k + 2 * d - 1];
          t[k + 2 * d - 1] = combine<F>(t[k + 2 * d - 1], left);
        }
      for (uint64_t i = 0; i < count; ++i) {
        if (operation == 2)
          out[i] = t[i] ? *t[i] : F::identity();
        else
          out[i] = t[i] ? F::apply(*t[i], x[i]) : x[i];
      }
    }
  }
  for (uint64_t i = 0; i < count; ++i) wr<T>(*items[i], op->r, out[i]);
  if constexpr (Ordered)
    if (items[0]->shadow) [[unlikely]]
      shadowGroupFloat(items, count, op, F::kind);
  return true;
}

// The handler of an arithmetic collective for the instruction's opcode and value type.
using EachAction = bool (*)(WorkItem* const*, uint64_t, const Op*);
// A vector result (a shader's sub-group arithmetic) takes its component's: the collective combines each component.
template <template <class> class F> EachAction intArith(Lowerer& L, const Instruction& inst) {
  const Type& t = L.type(inst.resultType);
  switch (t.kind == TypeKind::Vector ? L.type(t.element).size : t.size) {
    case 1: return &groupArith<uint8_t, F<uint8_t>, false>;
    case 2: return &groupArith<uint16_t, F<uint16_t>, false>;
    case 4: return &groupArith<uint32_t, F<uint32_t>, false>;
    case 8: return &groupArith<uint64_t, F<uint64_t>, false>;
    default: L.reject(inst, "a work-group collective of an integer type other than 8, 16, 32 or 64 bits");
  }
}
inline EachAction floatArith(Lowerer& L, const Instruction& inst) {
  return withFloatFtz(L, L.scalarOf(inst.resultType), [&]<class T, bool Z>() -> EachAction {
    switch (inst.opcode) {
      case spv::Op::OpGroupFAdd: return &groupArith<T, FAddOf<T, Z>, true>;
      case spv::Op::OpGroupFMin: return &groupArith<T, FMinMaxOf<T, Z, false>, true>;
      case spv::Op::OpGroupFMulKHR: return &groupArith<T, FMulOf<T, Z>, true>;
      default: return &groupArith<T, FMinMaxOf<T, Z, true>, true>;
    }
  });
}

}  // namespace clref::interpreter
