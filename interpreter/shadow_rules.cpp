// The shadow mode's rules (interpreter/shadow.hpp): for each instruction, the Op that gives its result the allowed
// set of a conforming implementation, or marks it undetermined, emitted after the instruction's own Ops; and before
// each branch the check that its condition is determined. One rule per kind of instruction:
//  - floating-point arithmetic and OpenCL.std math: the operands' sets through numerics::allowedSet (the rule of the
//    spec's accuracy tables over the operand ranges);
//  - conversions: correctly rounded (a set when the operand is one); float→int is a decision;
//  - comparisons and the classification instructions: a decision when the operand sets do not fix the outcome;
//  - OpSelect and OpenCL.std select: the chosen operand's set, or both operands' when the condition is undetermined;
//  - data movement (loads, stores, composites, shuffles, bitcasts, phi copies, calls): the sets move with the bytes;
//  - everything else: exact when its operands are, undetermined when one is, and a decision of its own when an
//    operand carries a set the instruction has no rule for (an integer reinterpretation of a float, …).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "interpreter/ops_common.hpp"
#include "interpreter/shadow.hpp"
#include "numerics/math.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::interpreter {
namespace {

using numerics::Format;
using numerics::MathFn;
using numerics::ValueSet;
using Std = numerics::OpenClStd;
using Op_ = clref::interpreter::Op;  // inside ShadowLowering::after, Op names spv::Op

// ---- Reading lanes ---------------------------------------------------------------------------------------------

enum class LaneKind : uint8_t { Float, SInt, UInt };

struct LaneRef {
  uint32_t reg = 0;
  uint32_t stride = 0;  // 0: a scalar broadcast over the lanes
  uint8_t bytes = 4;
  LaneKind kind = LaneKind::Float;
  Format format = Format::Float;
};

using numerics::formatOfBytes;
double readFloat(const uint8_t* p, Format f) { return numerics::loadValue(p, f); }

double readInt(const uint8_t* p, uint8_t bytes, bool isSigned) {
  uint64_t u = 0;
  std::memcpy(&u, p, bytes);
  if (isSigned && bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~uint64_t(0) << (8 * bytes);
  return isSigned ? double(int64_t(u)) : double(u);
}

// A lane's shadow: its set (a single value when exact) or undetermined.
struct LaneValue {
  ValueSet set;
  bool undetermined = false;
  uint32_t decision = 0;
};

LaneValue laneOf(const WorkItem& wi, const LaneRef& a, uint32_t lane) {
  const uint8_t* p = wi.regs + a.reg + lane * a.stride;
  ShadowEntry scratch;
  const ShadowEntry* e = wi.shadow->lane(p, a.bytes, scratch);
  if (e && e->undetermined) return {ValueSet::all(), true, e->decision};
  if (a.kind != LaneKind::Float) {
    // An integer holding a value with a set (a float reinterpreted): not one integer.
    if (e) return {ValueSet::all(), true, ~0u};
    return {ValueSet::point(readInt(p, a.bytes, a.kind == LaneKind::SInt)), false, 0};
  }
  if (e) return {e->format == a.format ? e->set : ValueSet::all(), false, 0};
  return {ValueSet::point(readFloat(p, a.format)), false, 0};
}

// ---- Decisions ---------------------------------------------------------------------------------------------------

uint32_t recordDecision(WorkItem& wi, const Op* op, const std::string& what) {
  ShadowRun& s = *wi.shadow;
  ++s.decisionCount;
  auto [it, fresh] = s.decisionOf.try_emplace(op->inst, uint32_t(s.decisions.size()));
  if (fresh) s.decisions.push_back({diagnosticAt(wi, op, what)});
  return it->second;
}

// An operand that is an integer reinterpretation of a float with a set (decision ~0u in laneOf): its own decision.
uint32_t decisionFor(WorkItem& wi, const Op* op, const LaneValue& v, const char* what) {
  return v.decision == ~0u ? recordDecision(wi, op, what) : v.decision;
}

void writeFloat(uint8_t* p, Format f, double v) { numerics::storeValue(p, f, v); }

uint64_t nextRandom(uint64_t& state) {  // SplitMix64
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// --perturb: a member of the set in place of clref's value.
double perturbedValue(ShadowRun& run, const ValueSet& s, Format f, double reference) {
  if (s.nan || !s.hasNumbers() || std::isinf(s.lo) || std::isinf(s.hi)) return reference;
  const uint64_t r = nextRandom(run.perturbState);
  double v = reference;
  switch (r % 4) {
    case 0: v = s.lo; break;
    case 1: v = s.hi; break;
    case 2: v = reference; break;
    default: {
      const double t = double(r >> 11) * 0x1p-53;
      numerics::Mpfr x(64);
      mpfr_set_d(x, s.lo + t * (s.hi - s.lo), MPFR_RNDN);
      v = numerics::roundToDouble(x, f, numerics::Rounding::RTE);
      break;
    }
  }
  if (v == 0) v = s.contains(-0.0) && (r >> 63) ? -0.0 : s.contains(0.0) ? 0.0 : -0.0;
  return s.contains(v) ? v : reference;
}

void writeLaneImpl(WorkItem& wi, const Op* op, uint8_t* p, uint8_t bytes, Format f, const ValueSet& set,
                   double reference, bool perturbable) {
  ValueSet s = set;
  if (!s.contains(reference)) s = hull(s, ValueSet::point(reference));  // clref's own value is always allowed
  if (wi.shadow->perturbSeed && perturbable && !s.isPoint()) {
    const double v = perturbedValue(*wi.shadow, s, f, reference);
    if (std::memcmp(&v, &reference, 8) != 0) {
      writeFloat(p, f, v);
      ++wi.shadow->perturbed;
    }
  }
  if (s.isPoint()) {
    wi.shadow->clear(p, bytes);
    return;
  }
  ShadowEntry e;
  e.set = s;
  e.size = bytes;
  e.format = f;
  e.producer = op->inst;
  wi.shadow->set(p, e);
}

void writeLane(WorkItem& wi, const Op* op, uint8_t* p, uint8_t bytes, Format f, const ValueSet& set, double reference,
               bool perturbable = true) {
  writeLaneImpl(wi, op, p, bytes, f, set, reference, perturbable);
}

void writeUndetermined(WorkItem& wi, uint8_t* p, uint8_t bytes, uint32_t decision) {
  wi.shadow->markUndetermined(p, bytes, bytes, decision);
}

// ---- Floating-point results: arithmetic, math, conversions ------------------------------------------------------

enum class FloatKind : uint8_t { Core, Math, Negate, Convert, FMod };

// An OpFMul operand of an OpFAdd/OpFSub that a device may contract with it: the sum is then fma(±a, b, ±c).
struct Contraction {
  LaneRef a, b;          // the product's operands
  size_t addend = 1;     // the other operand of the sum (index into FloatRule::args)
  bool negA = false;     // c - a·b = fma(-a, b, c)
  bool negC = false;     // a·b - c = fma(a, b, -c)
};

struct FloatRule {
  std::vector<Contraction> contractions;
  FloatKind kind = FloatKind::Core;
  numerics::CoreOp core = numerics::CoreOp::None;
  MathFn fn = MathFn::sin;
  Format format = Format::Float;  // of the result
  uint8_t bytes = 4;
  uint32_t lanes = 1;
  std::vector<LaneRef> args;
};

// Correctly rounded operations on single values whose result no rounding mode or flush can change: no set.
bool exactOnPoints(const FloatRule& r, const ShadowRun& s, std::span<const double> a) {
  if (r.kind != FloatKind::Core || r.format == Format::Half || s.profile != numerics::Profile::Full) return false;
  if (r.core != numerics::CoreOp::Add && r.core != numerics::CoreOp::Sub && r.core != numerics::CoreOp::Mul)
    return false;
  // A subnormal operand may be flushed (float); a result is checked by the caller.
  const double tiny = r.format == Format::Float ? 0x1p-126 : 0x1p-1022;
  for (double x : a)
    if (x != 0 && std::fabs(x) < tiny) return false;
  return true;
}

const Op* shFloat(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const FloatRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  std::vector<ValueSet> sets(r.args.size());
  std::vector<double> points(r.args.size());
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    const double reference = readFloat(out, r.format);
    bool undetermined = false, allPoints = true;
    uint32_t decision = 0;
    for (size_t k = 0; k < r.args.size(); ++k) {
      const LaneValue v = laneOf(wi, r.args[k], i);
      if (v.undetermined) {
        undetermined = true;
        decision = decisionFor(wi, op, v, "an operand reinterprets a floating-point value that has an allowed set");
        break;
      }
      sets[k] = v.set;
      allPoints = allPoints && v.set.isPoint();
      points[k] = v.set.hasNumbers() ? v.set.lo : NAN;
    }
    if (undetermined) {
      writeUndetermined(wi, out, r.bytes, decision);
      continue;
    }
    if (allPoints && r.kind != FloatKind::Math && r.kind != FloatKind::Core) {
      s.clear(out, r.bytes);  // negation, conversion, fmod of single values: exact
      continue;
    }
    if (allPoints && exactOnPoints(r, s, points) && r.contractions.empty() && !s.finiteMathOnly &&
        !(reference != 0 && std::fabs(reference) < (r.format == Format::Float ? 0x1p-126 : 0x1p-1022))) {
      s.clear(out, r.bytes);
      continue;
    }
    ValueSet set;
    switch (r.kind) {
      case FloatKind::Core: set = numerics::allowedSetCore(r.core, sets, r.format, s.profile, s.verdict); break;
      case FloatKind::Math: set = numerics::allowedSet(r.fn, sets, r.format, s.profile, s.verdict); break;
      case FloatKind::Negate: set = ValueSet{-sets[0].hi, -sets[0].lo, sets[0].nan}; break;
      case FloatKind::Convert: {
        // Correctly rounded in the instruction's mode: every mode's result lies between rounding down and up.
        const bool ftz = s.verdict.flushToZero.value_or(r.format != Format::Double);
        set = hull(numerics::roundSet(sets[0], r.format, numerics::Rounding::RTN, ftz),
                   numerics::roundSet(sets[0], r.format, numerics::Rounding::RTP, ftz));
        break;
      }
      case FloatKind::FMod: set = ValueSet::all(); break;
    }
    // FP_CONTRACT: the product and the sum in one rounding (fma), or with -cl-mad-enable a mad of any accuracy.
    for (const Contraction& c : r.contractions) {
      if (!s.contraction && !s.madEnable) break;
      if (s.madEnable) {
        set = ValueSet::all();
        break;
      }
      const LaneValue a = laneOf(wi, c.a, i), b = laneOf(wi, c.b, i);
      if (a.undetermined || b.undetermined) continue;  // the product itself is then undetermined already
      ValueSet fa = a.set, fc = sets[c.addend];
      if (c.negA) fa = ValueSet{-fa.hi, -fa.lo, fa.nan};
      if (c.negC) fc = ValueSet{-fc.hi, -fc.lo, fc.nan};
      const ValueSet fused[] = {fa, b.set, fc};
      set = hull(set, numerics::allowedSet(MathFn::fma, fused, r.format, s.profile, s.verdict));
    }
    // -cl-finite-math-only: with a NaN or an infinity among the operands or the result, any value.
    if (s.finiteMathOnly) {
      auto nonFinite = [](const ValueSet& v) { return v.nan || std::isinf(v.lo) || std::isinf(v.hi); };
      bool any = nonFinite(set);
      for (const auto& a : sets) any = any || nonFinite(a);
      if (any) set = ValueSet::all();
    }
    writeLane(wi, op, out, r.bytes, r.format, set, reference);
  }
  return op + 1;
}

// ---- Geometric functions: whole vectors in, a scalar or a vector out ------------------------------------------------

struct GeometricRule {
  numerics::CoreOp op = numerics::CoreOp::Dot;
  LaneRef p, q;        // the operand vectors (q unused by length and normalize)
  uint32_t n = 1;      // components of the operands
  uint32_t lanes = 1;  // of the result
  uint8_t bytes = 4;
  Format format = Format::Float;
  bool twoOperands = false;
};

const Op* shGeometric(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const GeometricRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  std::vector<ValueSet> p(r.n), q(r.twoOperands ? r.n : 0);
  std::optional<uint32_t> decision;
  for (uint32_t k = 0; k < r.n; ++k) {
    const LaneValue a = laneOf(wi, r.p, k);
    if (a.undetermined && !decision) decision = decisionFor(wi, op, a, "a geometric function of a reinterpreted value");
    p[k] = a.set;
    if (r.twoOperands) {
      const LaneValue b = laneOf(wi, r.q, k);
      if (b.undetermined && !decision)
        decision = decisionFor(wi, op, b, "a geometric function of a reinterpreted value");
      q[k] = b.set;
    }
  }
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    if (decision) {
      writeUndetermined(wi, out, r.bytes, *decision);
      continue;
    }
    const ValueSet set = numerics::allowedSetGeometric(r.op, p, q, i, r.format, s.profile, s.verdict);
    writeLane(wi, op, out, r.bytes, r.format, set, readFloat(out, r.format));
  }
  return op + 1;
}

// ---- Integer results of floating-point operands: conversions and ilogb -------------------------------------------

struct IntOfFloatRule {
  LaneRef arg;
  bool isSigned = true;    // OpConvertFToS
  bool saturated = false;  // SaturatedConversion (convert_<int>_sat)
  uint8_t bytes = 4;  // of a result lane
  uint32_t lanes = 1;
  const char* what = "conversion to an integer";
  bool ilogb = false;
};

// The integer a float converts to under every rounding mode, or nothing when the modes disagree.
bool sameInteger(double lo, double hi) {
  return std::trunc(lo) == std::trunc(hi) && std::floor(lo) == std::floor(hi) && std::ceil(lo) == std::ceil(hi) &&
         std::nearbyint(lo) == std::nearbyint(hi);
}

const Op* shIntOfFloat(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const IntOfFloatRule*>(op->aux);
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    const LaneValue v = laneOf(wi, r.arg, i);
    if (v.undetermined) {
      writeUndetermined(wi, out, r.bytes, decisionFor(wi, op, v, r.what));
      continue;
    }
    ValueSet s = v.set;
    if (!r.ilogb) {
      // OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: without _sat, a NaN or a value outside the integer type's
      // range converts to an implementation-defined value (the choice float_to_int_out_of_range): any integer.
      const double lo = r.isSigned ? -std::ldexp(1.0, 8 * r.bytes - 1) : 0.0;
      const double hi = r.isSigned ? std::ldexp(1.0, 8 * r.bytes - 1) : std::ldexp(1.0, 8 * r.bytes);
      if (r.saturated) {
        if (s.hasNumbers()) s = ValueSet{std::clamp(s.lo, lo, hi - 1), std::clamp(s.hi, lo, hi - 1), false};
        if (s.nan) s = hull(ValueSet{s.lo, s.hi, false}, ValueSet::point(0.0));  // NaN saturates to 0
      } else if (s.nan || (s.hasNumbers() && (std::trunc(s.lo) < lo || std::trunc(s.hi) >= hi))) {
        ShadowEntry any;
        any.set = ValueSet::all();
        any.size = r.bytes;
        wi.shadow->set(out, any);  // an integer lane with "any value" (check/check.cpp: allowed)
        continue;
      }
    }
    bool fixed = s.isPoint();
    if (!fixed && !s.nan && s.hasNumbers())
      fixed = r.ilogb ? std::ilogb(s.lo) == std::ilogb(s.hi) && s.lo != 0 && (s.lo > 0) == (s.hi > 0)
                      : sameInteger(s.lo, s.hi);
    if (fixed) {
      wi.shadow->clear(out, r.bytes);
      continue;
    }
    writeUndetermined(wi, out, r.bytes,
                      recordDecision(wi, op, std::string(r.what) + " of " + numerics::toString(s)));
  }
  return op + 1;
}

// ---- Comparisons and classification --------------------------------------------------------------------------

struct CompareRule {
  spv::Op opcode;
  std::vector<LaneRef> args;  // one or two
  uint32_t lanes = 1;
  uint8_t bytes = 1;  // of a result lane (bool)
};

// Which outcomes some members of the sets can give: bit 0 false, bit 1 true.
unsigned outcomes(spv::Op opc, const ValueSet& a, const ValueSet& b) {
  using spv::Op;
  const bool anyNan = a.nan || b.nan, nums = a.hasNumbers() && b.hasNumbers();
  auto may = [](bool f, bool t) { return unsigned(f) | (unsigned(t) << 1); };
  // Numeric outcomes over the numbers of both sets.
  const bool ltT = nums && a.lo < b.hi, ltF = nums && a.hi >= b.lo;
  const bool gtT = nums && a.hi > b.lo, gtF = nums && a.lo <= b.hi;
  const bool eqT = nums && a.lo <= b.hi && b.lo <= a.hi;
  const bool eqF = nums && !(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
  switch (opc) {
    case Op::OpFOrdLessThan: return may(ltF || anyNan, ltT);
    case Op::OpFUnordLessThan: return may(ltF, ltT || anyNan);
    case Op::OpFOrdGreaterThan: return may(gtF || anyNan, gtT);
    case Op::OpFUnordGreaterThan: return may(gtF, gtT || anyNan);
    case Op::OpFOrdLessThanEqual: return may(gtT || anyNan, gtF);
    case Op::OpFUnordLessThanEqual: return may(gtT, gtF || anyNan);
    case Op::OpFOrdGreaterThanEqual: return may(ltT || anyNan, ltF);
    case Op::OpFUnordGreaterThanEqual: return may(ltT, ltF || anyNan);
    case Op::OpFOrdEqual: return may(eqF || anyNan, eqT);
    case Op::OpFUnordEqual: return may(eqF, eqT || anyNan);
    case Op::OpFOrdNotEqual: return may(eqT || anyNan, eqF);
    case Op::OpFUnordNotEqual: return may(eqT, eqF || anyNan);
    case Op::OpLessOrGreater: return may(eqT || anyNan, eqF);
    case Op::OpOrdered: return may(anyNan, nums);
    case Op::OpUnordered: return may(nums, anyNan);
    case Op::OpIsNan: return may(a.hasNumbers(), a.nan);
    case Op::OpIsInf: {
      const bool inf = a.hasNumbers() && (std::isinf(a.lo) || std::isinf(a.hi));
      const bool fin = a.nan || (a.hasNumbers() && !(a.lo == a.hi && std::isinf(a.lo)));
      return may(fin, inf);
    }
    case Op::OpIsFinite: {
      const bool inf = a.hasNumbers() && (std::isinf(a.lo) || std::isinf(a.hi));
      const bool fin = a.hasNumbers() && !(a.lo == a.hi && std::isinf(a.lo));
      return may(inf || a.nan, fin);
    }
    case Op::OpSignBitSet: {
      const bool neg = a.nan || (a.hasNumbers() && (a.lo < 0 || std::signbit(a.lo)));
      const bool pos = a.nan || (a.hasNumbers() && (a.hi > 0 || !std::signbit(a.hi)));
      return may(pos, neg);
    }
    default: return 3;  // IsNormal and the rest: both, unless the operands are single values (decided before)
  }
}

const Op* shCompare(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const CompareRule*>(op->aux);
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    LaneValue v[2];
    bool undetermined = false, points = true;
    uint32_t decision = 0;
    for (size_t k = 0; k < r.args.size(); ++k) {
      v[k] = laneOf(wi, r.args[k], i);
      if (v[k].undetermined && !undetermined) {
        undetermined = true;
        decision = decisionFor(wi, op, v[k], "a comparison of a reinterpreted floating-point value");
      }
      points = points && v[k].set.isPoint();
    }
    if (undetermined) {
      writeUndetermined(wi, out, r.bytes, decision);
      continue;
    }
    if (points || outcomes(r.opcode, v[0].set, r.args.size() > 1 ? v[1].set : v[0].set) != 3) {
      wi.shadow->clear(out, r.bytes);
      continue;
    }
    std::string what = "comparison of " + numerics::toString(v[0].set);
    if (r.args.size() > 1) what += " and " + numerics::toString(v[1].set);
    writeUndetermined(wi, out, r.bytes, recordDecision(wi, op, what));
  }
  return op + 1;
}

// ---- Selection -------------------------------------------------------------------------------------------------

struct SelectRule {
  LaneRef cond;       // bool lanes (OpSelect) or integer lanes (OpenCL.std select: the MSB of vectors, else != 0)
  bool msb = false;   // OpenCL.std select on vectors
  bool condIsVector = true;
  LaneRef a, b;       // OpSelect: chosen when true / false; OpenCL.std select(a, b, c): b when c, else a
  uint32_t lanes = 1;
};

const Op* shSelect(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const SelectRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.a.bytes;
    const uint32_t ci = r.condIsVector ? i : 0;
    const uint8_t* cp = wi.regs + r.cond.reg + ci * r.cond.stride;
    ShadowEntry scratch;
    const ShadowEntry* ce = s.lane(cp, r.cond.bytes, scratch);
    const uint8_t* pa = wi.regs + r.a.reg + i * r.a.stride;
    const uint8_t* pb = wi.regs + r.b.reg + i * r.b.stride;
    if (!ce) {
      uint64_t c = 0;
      std::memcpy(&c, cp, r.cond.bytes);
      const bool first = r.msb ? (c >> (8 * r.cond.bytes - 1)) & 1 : c != 0;
      s.copy(out, first ? pa : pb, r.a.bytes);
      continue;
    }
    // Either operand may be the result: the union of both, when both are floats with sets or values.
    const uint32_t decision = ce->undetermined ? ce->decision : recordDecision(wi, op, "a select on a reinterpreted value");
    const LaneValue va = laneOf(wi, r.a, i), vb = laneOf(wi, r.b, i);
    if (r.a.kind == LaneKind::Float && !va.undetermined && !vb.undetermined) {
      // (A value between the two is in the hull but no device's: --perturb keeps clref's choice.)
      writeLane(wi, op, out, r.a.bytes, r.a.format, hull(va.set, vb.set), readFloat(out, r.a.format), false);
    } else if (!va.undetermined && !vb.undetermined && va.set.isPoint() && vb.set.isPoint() &&
               std::memcmp(pa, pb, r.a.bytes) == 0) {
      s.clear(out, r.a.bytes);
    } else {
      writeUndetermined(wi, out, r.a.bytes, decision);
    }
  }
  return op + 1;
}

// ---- Branches --------------------------------------------------------------------------------------------------

// Before OpBranchConditional / OpSwitch: a condition or selector that is undetermined decides control flow.
const Op* shBranch(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  if (auto d = s.decisionIn(wi.regs + op->a, op->n)) {
    ++s.decisionCount;
    if (!s.controlDecision) s.controlDecision = *d;
  } else if (s.anyIn(wi.regs + op->a, op->n)) {
    const uint32_t d = recordDecision(wi, op, "a branch on a reinterpreted floating-point value");
    if (!s.controlDecision) s.controlDecision = d;
  }
  return op + 1;
}

// ---- Memory ----------------------------------------------------------------------------------------------------

// The host address of a tagged pointer that the instruction's own Op already accessed successfully.
uint8_t* hostAddress(const WorkItem& wi, uint32_t ptrReg) {
  const uint64_t ptr = wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, ptrReg) : rd<uint32_t>(wi, ptrReg);
  const uint64_t tag = ptr >> wi.tagShift, off = ptr & wi.offsetMask;
  if (tag == 0 || tag >= wi.allocCount) return nullptr;
  return wi.allocs[tag].base + off;
}

// An address that depends on an undetermined value (its decision), or nullopt. `extra` is a further register of
// `extraBytes` bytes the address is computed from (vloadn/vstoren's offset).
std::optional<uint32_t> openAddress(WorkItem& wi, const Op* op, uint32_t ptrReg, uint32_t extra = 0,
                                    uint32_t extraBytes = 0) {
  ShadowRun& s = *wi.shadow;
  const uint32_t pb = wi.launch->kernel->addressBits / 8;
  if (!s.anyIn(wi.regs + ptrReg, pb) && !(extraBytes && s.anyIn(wi.regs + extra, extraBytes))) return std::nullopt;
  auto d = s.decisionIn(wi.regs + ptrReg, pb);
  if (!d && extraBytes) d = s.decisionIn(wi.regs + extra, extraBytes);
  ++s.decisionCount;
  return d ? *d : recordDecision(wi, op, "an address computed from a reinterpreted floating-point value");
}

// The allocation a tagged pointer names (its host base), or nullptr.
const uint8_t* allocationOf(const WorkItem& wi, uint32_t ptrReg) {
  const uint64_t ptr = wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, ptrReg) : rd<uint32_t>(wi, ptrReg);
  const uint64_t tag = ptr >> wi.tagShift;
  return tag == 0 || tag >= wi.allocCount ? nullptr : wi.allocs[tag].base;
}

// A store at an open address: another device may have written any element of the allocation (the tag of a pointer
// is its allocation; only the offset is open). Its elements that differ are then undetermined, and so are loads
// from it.
void openAllocation(WorkItem& wi, uint32_t ptrReg, uint32_t decision) {
  if (const uint8_t* base = allocationOf(wi, ptrReg)) wi.shadow->openAllocations.try_emplace(base, decision);
}
std::optional<uint32_t> openAllocationAt(const WorkItem& wi, uint32_t ptrReg) {
  const auto& open = wi.shadow->openAllocations;
  if (open.empty()) return std::nullopt;
  const auto it = open.find(allocationOf(wi, ptrReg));
  return it == open.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

// OpLoad: r = result, a = pointer, n = bytes.
const Op* shLoad(WorkItem& wi, const Op* op) {
  uint8_t* out = wi.regs + op->r;
  auto d = openAddress(wi, op, op->a);
  if (!d) d = openAllocationAt(wi, op->a);
  if (d) {
    wi.shadow->markUndetermined(out, op->n, std::min<uint32_t>(op->n, 8), *d);
    return op + 1;
  }
  if (uint8_t* p = hostAddress(wi, op->a)) wi.shadow->copy(out, p, op->n);
  return op + 1;
}
// OpStore: a = pointer, b = value, n = bytes.
const Op* shStore(WorkItem& wi, const Op* op) {
  uint8_t* p = hostAddress(wi, op->a);
  if (const auto d = openAddress(wi, op, op->a)) {
    openAllocation(wi, op->a, *d);
    if (p) wi.shadow->markUndetermined(p, op->n, std::min<uint32_t>(op->n, 8), *d);
    return op + 1;
  }
  if (p) {
    wi.shadow->copy(p, wi.regs + op->b, op->n);
    wi.shadow->noteWriter(p, op->n, op->c);
  }
  return op + 1;
}
// OpCopyMemory(Sized): a = target pointer, b = source pointer, n = bytes (or c = the size register when n == 0).
const Op* shCopyMemory(WorkItem& wi, const Op* op) {
  uint64_t n = op->n;
  if (n == 0) n = op->imm == 8 ? rd<uint64_t>(wi, op->c) : rd<uint32_t>(wi, op->c);
  uint8_t* dst = hostAddress(wi, op->a);
  const uint8_t* src = hostAddress(wi, op->b);
  auto d = openAddress(wi, op, op->a);
  if (!d) d = openAddress(wi, op, op->b);
  if (!d) d = openAllocationAt(wi, op->b);
  if (d) {
    openAllocation(wi, op->a, *d);
    if (dst) wi.shadow->markUndetermined(dst, n, 1, *d);
    return op + 1;
  }
  if (dst && src) wi.shadow->copy(dst, src, n);
  return op + 1;
}
// Atomics: a = pointer, n = bytes of the memory operand, r = result (or ~0u); aux = the value operands (reg, bytes);
// imm = 1 when the value left in memory depends on the order of the work-items (exchange, compare-exchange, store),
// 0 for the commutative read-modify-writes (add, min, and, ...).
// The value an atomic returns depends on the order in which the work-items reach it, which the scheduler decides
// (OpenCL C 3.0 §6.15.12 [[atomic-functions]]: atomic operations are indivisible, in no stated order): a decision.
// imm = 2 for the float atomic min and max (b = the operand's register): cl_ext_float_atomics [external] leaves
// min/max of -0 and +0 ("+0 or -0") and of a signalling NaN ("NaN or x") open, so the value left in memory is
// undetermined when the value in memory (the result) and the operand were such a pair.
bool floatMinMaxOpen(const uint8_t* original, const uint8_t* operand, uint32_t bytes) {
  auto read = [&](const uint8_t* p) {
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);
    return v;
  };
  const uint64_t x = read(original), y = read(operand);
  const unsigned bits = 8 * bytes, mantissa = bytes == 2 ? 10 : bytes == 4 ? 23 : 52;
  const uint64_t sign = uint64_t(1) << (bits - 1), quiet = uint64_t(1) << (mantissa - 1);
  const uint64_t expMask = (sign - 1) & ~((uint64_t(1) << mantissa) - 1), fracMask = (uint64_t(1) << mantissa) - 1;
  auto signalling = [&](uint64_t v) { return (v & expMask) == expMask && (v & fracMask) && !(v & quiet); };
  const bool zeros = (x & ~sign) == 0 && (y & ~sign) == 0 && x != y;
  return zeros || signalling(x) || signalling(y);
}

const Op* shAtomicValues(WorkItem& wi, const Op* op) {
  const auto& vals = *static_cast<const std::vector<uint32_t>*>(op->aux);
  ShadowRun& s = *wi.shadow;
  uint8_t* p = hostAddress(wi, op->a);
  std::optional<uint32_t> d = openAddress(wi, op, op->a);
  if (d) openAllocation(wi, op->a, *d);
  if (!d) d = openAllocationAt(wi, op->a);
  bool shadowed = d.has_value() || (p && s.anyIn(p, op->n));
  for (size_t i = 0; i + 1 < vals.size(); i += 2) shadowed = shadowed || s.anyIn(wi.regs + vals[i], vals[i + 1]);
  if (!shadowed) {
    if (op->r != ~0u || op->imm == 1) {
      const uint32_t order = recordDecision(
          wi, op, "the result of an atomic operation depends on the order in which work-items reach it");
      if (op->r != ~0u) s.markUndetermined(wi.regs + op->r, op->n, op->n, order);
      if (op->imm == 1 && p) s.markUndetermined(p, op->n, op->n, order);
    }
    return op + 1;
  }
  if (!d) d = p ? s.decisionIn(p, op->n) : std::nullopt;
  for (size_t i = 0; !d && i + 1 < vals.size(); i += 2) d = s.decisionIn(wi.regs + vals[i], vals[i + 1]);
  const uint32_t decision = d ? *d : recordDecision(wi, op, "an atomic operation on a value with an allowed set");
  if (p) s.markUndetermined(p, op->n, op->n, decision);
  if (op->r != ~0u) s.markUndetermined(wi.regs + op->r, op->n, op->n, decision);
  return op + 1;
}
const Op* shAtomic(WorkItem& wi, const Op* op) {
  // Read before the result's shadow changes: the result register holds the value memory had.
  const bool open = op->imm == 2 && floatMinMaxOpen(wi.regs + op->r, wi.regs + op->b, op->n);
  shAtomicValues(wi, op);
  if (uint8_t* p = hostAddress(wi, op->a); open && p)
    wi.shadow->markUndetermined(p, op->n, op->n,
                                recordDecision(wi, op,
                                               "an atomic min or max of -0 and +0, or of a signalling NaN, "
                                               "may leave either operand (cl_ext_float_atomics)"));
  return op + 1;
}

// ---- Data movement within registers -------------------------------------------------------------------------------

// The lane of `bytes` bytes at `at` holds any value.
void setAnyValue(ShadowRun& s, uint8_t* at, uint32_t bytes) {
  ShadowEntry e;
  e.set = ValueSet::all();
  e.size = uint8_t(bytes);
  e.format = formatOfBytes(bytes);
  s.set(at, e);
}

// The lanes at the byte offsets of the table (c bytes each) of the result r hold any value.
const Op* shAnyValueLanes(WorkItem& wi, const Op* op) {
  for (uint32_t off : *static_cast<const std::vector<uint32_t>*>(op->aux))
    setAnyValue(*wi.shadow, wi.regs + op->r + off, op->c);
  return op + 1;
}

// (destination offset in the result, source register, bytes) triples; r = result, n = result bytes.
const Op* shCopies(WorkItem& wi, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  ShadowRun& s = *wi.shadow;
  // The sources are read before the result is written (an OpCompositeInsert may name its result's register).
  bool any = false;
  for (size_t i = 0; i + 2 < t.size() && !any; i += 3) any = s.anyIn(wi.regs + t[i + 1], t[i + 2]);
  if (!any) {
    s.clear(wi.regs + op->r, op->n);
    return op + 1;
  }
  std::vector<ShadowRun::Snapshot> staged;
  for (size_t i = 0; i + 2 < t.size(); i += 3) staged.push_back(s.take(wi.regs + t[i + 1], t[i + 2]));
  s.clear(wi.regs + op->r, op->n);
  for (size_t i = 0; i + 2 < t.size(); i += 3) s.put(wi.regs + op->r + t[i], t[i + 2], staged[i / 3]);
  return op + 1;
}

// A named choice that leaves the value free decided this instruction's result (ShadowRun::choiceFreedInst): every
// lane of the result is any value (an integer lane "any value" too: check/check.cpp allows it).
// A work-group collective notes its choice once, on behalf of every work-item (Op::align == 2 on its rule): the
// note then stays for the group's other work-items.
bool freedByChoice(WorkItem& wi, const Op* op, uint8_t* out, uint32_t bytes, uint32_t laneBytes) {
  ShadowRun& s = *wi.shadow;
  if (s.choiceFreedInst != op->inst) [[likely]]
    return false;
  if (op->align != 2) s.choiceFreedInst = UINT32_MAX;
  s.clear(out, bytes);
  for (uint32_t off = 0; off < bytes; off += laneBytes) {
    ShadowEntry e;
    e.set = ValueSet::all();
    e.size = uint8_t(std::min(laneBytes, bytes - off));
    e.format = formatOfBytes(e.size);
    s.entries[reinterpret_cast<uintptr_t>(out + off)] = e;
  }
  return true;
}

// OpVectorExtractDynamic: r = result, a = vector, b = index register (c = index bytes), n = lane bytes, imm = lanes.
const Op* shExtractDynamic(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  if (freedByChoice(wi, op, wi.regs + op->r, op->n, op->n)) return op + 1;  // an index out of range
  if (auto d = s.decisionIn(wi.regs + op->b, op->c)) {
    writeUndetermined(wi, wi.regs + op->r, uint8_t(op->n), *d);
    return op + 1;
  }
  const uint64_t i = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
  if (i < op->imm)
    s.copy(wi.regs + op->r, wi.regs + op->a + i * op->n, op->n);
  else
    s.clear(wi.regs + op->r, op->n);
  return op + 1;
}
// OpVectorInsertDynamic: r = result, a = vector, b = component, c = index register, n = lane bytes, imm = lanes;
// align = index bytes.
const Op* shInsertDynamic(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  if (auto d = s.decisionIn(wi.regs + op->c, op->align)) {
    s.markUndetermined(wi.regs + op->r, op->n * op->imm, op->n, *d);
    return op + 1;
  }
  s.copy(wi.regs + op->r, wi.regs + op->a, op->n * op->imm);
  const uint64_t i = op->align == 8 ? rd<uint64_t>(wi, op->c) : rd<uint32_t>(wi, op->c);
  if (i < op->imm) s.copy(wi.regs + op->r + i * op->n, wi.regs + op->b, op->n);
  return op + 1;
}

// ---- Everything else --------------------------------------------------------------------------------------------

// aux: (register, bytes) pairs of the operands; r = result, n = result bytes, c = lane bytes; imm = 1 when the result
// is floating point (a set the instruction has no rule for becomes "any value"), 0 for integers (undetermined); b = 1
// for the integer instructions that are bijections of each operand.
const Op* shGeneric(WorkItem& wi, const Op* op) {
  const auto& vals = *static_cast<const std::vector<uint32_t>*>(op->aux);
  ShadowRun& s = *wi.shadow;
  if (freedByChoice(wi, op, wi.regs + op->r, op->n, op->c)) return op + 1;
  bool any = false;
  for (size_t i = 0; i + 1 < vals.size() && !any; i += 2) any = s.anyIn(wi.regs + vals[i], vals[i + 1]);
  if (!any) {
    s.clear(wi.regs + op->r, op->n);
    return op + 1;
  }
  std::optional<uint32_t> d;
  for (size_t i = 0; i + 1 < vals.size() && !d; i += 2) d = s.decisionIn(wi.regs + vals[i], vals[i + 1]);
  if (!d && op->imm) {
    // A floating-point result of operands with sets, by an instruction without a set rule: any value.
    for (uint32_t off = 0; off < op->n; off += op->c) setAnyValue(s, wi.regs + op->r + off, op->c);
    return op + 1;
  }
  if (!d && op->b) {
    // OpIAdd, OpISub, OpBitwiseXor, OpSNegate, OpNot (b = 1): each result lane is a bijection of each operand's lane
    // with the others fixed, so an operand lane that holds any value (an out-of-range conversion, …) makes the
    // result lane any value; a lane of every exact operand is exact. An operand lane holding a float's bits with a
    // narrower set leaves the generic rule below.
    bool partial = false;
    for (uint32_t off = 0; off < op->n && !partial; off += op->c) {
      bool anyLane = false;
      for (size_t i = 0; i + 1 < vals.size(); i += 2) {
        ShadowEntry scratch;
        const ShadowEntry* e = off + op->c <= vals[i + 1] ? s.lane(wi.regs + vals[i] + off, op->c, scratch) : nullptr;
        if (!e) continue;
        anyLane = anyLane || e->set.isAll();
        partial = partial || !e->set.isAll();
      }
      if (anyLane)
        setAnyValue(s, wi.regs + op->r + off, op->c);
      else
        s.clear(wi.regs + op->r + off, op->c);
    }
    if (!partial) return op + 1;
  }
  const uint32_t decision =
      d ? *d
        : recordDecision(wi, op,
                         "an integer computed from a floating-point value that has an allowed set (its bits, not its "
                         "value)");
  s.markUndetermined(wi.regs + op->r, op->n, op->c, decision);
  return op + 1;
}

// ---- Lowering ------------------------------------------------------------------------------------------------

class ShadowLowering {
 public:
  ShadowLowering(Lowerer& L, const Instruction& inst) : L(L), inst(inst) {}

  void after();
  void before();

 private:
  Lowerer& L;
  const Instruction& inst;

  const Type& resultType() const { return L.type(inst.resultType); }
  uint32_t resultBytes() const { return uint32_t(resultType().size); }
  // Bytes of one lane of a scalar or vector type.
  uint32_t laneBytes(uint32_t typeId) const {
    const Type& t = L.type(typeId);
    return t.kind == TypeKind::Vector ? uint32_t(L.type(t.element).size) : uint32_t(t.size);
  }
  bool isFloat(uint32_t typeId) const {
    const Type& t = L.type(typeId);
    return (t.kind == TypeKind::Vector ? L.type(t.element).kind : t.kind) == TypeKind::Float;
  }
  LaneRef laneRef(uint32_t id, bool isSigned = true) const {
    const uint32_t t = L.typeIdOfValue(id);
    LaneRef a;
    a.reg = L.reg(id);
    a.bytes = uint8_t(laneBytes(t));
    a.stride = L.lanes(t) > 1 ? a.bytes : 0;
    a.kind = isFloat(t) ? LaneKind::Float : isSigned ? LaneKind::SInt : LaneKind::UInt;
    a.format = formatOfBytes(a.bytes);
    return a;
  }
  template <class Rule> Op& emitWith(Handler fn, std::unique_ptr<Rule> rule) {
    Op& op = L.emit(fn, inst);
    op.r = inst.resultId ? L.reg(inst.resultId) : 0;
    op.aux = rule.get();
    L.k.auxObjects.push_back(std::shared_ptr<const void>(std::move(rule)));
    return op;
  }

  void floatRule(FloatKind kind, std::vector<uint32_t> operands, numerics::CoreOp core = numerics::CoreOp::None,
                 MathFn fn = MathFn::sin, std::vector<bool> signedness = {});
  void intOfFloat(uint32_t operand, const char* what, bool ilogb = false);
  void geometric(numerics::CoreOp op, uint32_t p, uint32_t q);
  void compare(std::vector<uint32_t> operands);
  void select(uint32_t cond, uint32_t a, uint32_t b, bool msb);
  void copies(std::vector<uint32_t> triples);
  void generic();
  bool extInst();
  void memoryAccess(Handler fn, uint32_t ptr, uint32_t value, uint32_t bytes);
};

void ShadowLowering::floatRule(FloatKind kind, std::vector<uint32_t> operands, numerics::CoreOp core, MathFn fn,
                               std::vector<bool> signedness) {
  auto rule = std::make_unique<FloatRule>();
  rule->kind = kind;
  rule->core = core;
  rule->fn = fn;
  rule->bytes = uint8_t(laneBytes(inst.resultType));
  rule->format = formatOfBytes(rule->bytes);
  rule->lanes = L.lanes(inst.resultType);
  for (size_t k = 0; k < operands.size(); ++k)
    rule->args.push_back(laneRef(operands[k], k < signedness.size() ? signedness[k] : true));
  emitWith(&shFloat, std::move(rule));
}

void ShadowLowering::geometric(numerics::CoreOp op, uint32_t p, uint32_t q) {
  auto rule = std::make_unique<GeometricRule>();
  rule->op = op;
  rule->p = laneRef(p);
  rule->twoOperands = q != 0;
  if (q) rule->q = laneRef(q);
  rule->n = L.lanes(L.typeIdOfValue(p));
  rule->lanes = L.lanes(inst.resultType);
  rule->bytes = uint8_t(laneBytes(inst.resultType));
  rule->format = formatOfBytes(rule->bytes);
  emitWith(&shGeometric, std::move(rule));
}

void ShadowLowering::intOfFloat(uint32_t operand, const char* what, bool ilogb) {
  auto rule = std::make_unique<IntOfFloatRule>();
  rule->isSigned = inst.opcode != spv::Op::OpConvertFToU;
  rule->saturated = L.m.decoration(inst.resultId, spv::Decoration::SaturatedConversion) != nullptr;
  rule->arg = laneRef(operand);
  rule->bytes = uint8_t(laneBytes(inst.resultType));
  rule->lanes = L.lanes(inst.resultType);
  rule->what = what;
  rule->ilogb = ilogb;
  emitWith(&shIntOfFloat, std::move(rule));
}

void ShadowLowering::compare(std::vector<uint32_t> operands) {
  auto rule = std::make_unique<CompareRule>();
  rule->opcode = inst.opcode;
  for (uint32_t id : operands) rule->args.push_back(laneRef(id));
  rule->lanes = L.lanes(inst.resultType);
  rule->bytes = uint8_t(laneBytes(inst.resultType));
  emitWith(&shCompare, std::move(rule));
}

void ShadowLowering::select(uint32_t cond, uint32_t a, uint32_t b, bool msb) {
  auto rule = std::make_unique<SelectRule>();
  rule->cond = laneRef(cond, false);
  rule->condIsVector = L.lanes(L.typeIdOfValue(cond)) > 1;
  rule->msb = msb && rule->condIsVector;
  rule->a = laneRef(a);
  rule->b = laneRef(b);
  // Lanes of the result; a scalar operand of a vector select (none in valid SPIR-V) would have stride 0.
  rule->lanes = L.lanes(inst.resultType);
  if (rule->a.stride == 0 && rule->lanes == 1) rule->a.stride = rule->b.stride = 0;
  emitWith(&shSelect, std::move(rule));
}

void ShadowLowering::copies(std::vector<uint32_t> triples) {
  auto& t = L.k.tables.emplace_back(std::move(triples));
  Op& op = L.emit(&shCopies, inst);
  op.r = L.reg(inst.resultId);
  op.n = resultBytes();
  op.aux = &t;
}

void ShadowLowering::generic() {
  auto& t = L.k.tables.emplace_back();
  for (size_t w = inst.firstOperand; w < inst.words.size(); ++w) {
    const uint32_t id = inst.words[w];
    if (!L.hasReg(id) || L.isConstant(id)) continue;
    const Type& ty = L.typeOfValue(id);
    if (ty.size == 0) continue;
    t.push_back(L.reg(id));
    t.push_back(uint32_t(ty.size));
  }
  Op& op = L.emit(&shGeneric, inst);
  op.r = L.reg(inst.resultId);
  op.n = resultBytes();
  const Type& ty = resultType();
  const bool scalarish = ty.kind == TypeKind::Vector || ty.kind == TypeKind::Float || ty.kind == TypeKind::Int ||
                         ty.kind == TypeKind::Bool;
  op.c = scalarish ? laneBytes(inst.resultType) : std::min<uint32_t>(8, std::max<uint32_t>(1, op.n));
  if (op.c == 0) op.c = 1;
  op.imm = scalarish && isFloat(inst.resultType) ? 1 : 0;
  // SPIR-V 1.0 §3.32.21 [external] Group Instructions: a collective notes a choice once for the work-group.
  const auto opc = uint32_t(inst.opcode);
  op.align = (opc >= uint32_t(spv::Op::OpGroupAsyncCopy) && opc <= uint32_t(spv::Op::OpGroupSMax)) ? 2 : 1;
  const bool bijective = inst.opcode == spv::Op::OpIAdd || inst.opcode == spv::Op::OpISub ||
                         inst.opcode == spv::Op::OpBitwiseXor || inst.opcode == spv::Op::OpSNegate ||
                         inst.opcode == spv::Op::OpNot;
  op.b = scalarish && !op.imm && bijective ? 1 : 0;
  op.aux = &t;
}

void ShadowLowering::memoryAccess(Handler fn, uint32_t ptr, uint32_t value, uint32_t bytes) {
  Op& op = L.emit(fn, inst);
  op.r = inst.resultId ? L.reg(inst.resultId) : 0;
  op.a = L.reg(ptr);
  op.b = value ? L.reg(value) : 0;
  op.n = bytes;
}

// Byte offset of a composite's element reached by literal indices.
uint64_t offsetOf(const Lowerer& L, uint32_t typeId, const Instruction& inst, size_t firstIndex) {
  uint64_t off = 0;
  for (size_t k = firstIndex; k < inst.operandCount(); ++k) {
    const Type& t = L.type(typeId);
    const uint32_t i = inst.operand(k);
    if (t.kind == TypeKind::Struct) {
      off += t.memberOffsets.at(i);
      typeId = t.members.at(i);
    } else if (t.kind == TypeKind::Vector) {
      off += uint64_t(i) * L.type(t.element).size;
      typeId = t.element;
    } else {
      off += uint64_t(i) * (t.stride ? t.stride : L.type(t.element).size);
      typeId = t.element;
    }
  }
  return off;
}

bool ShadowLowering::extInst() {
  const auto set = L.m.extInstImports.find(inst.extInstSet);
  if (set == L.m.extInstImports.end() || set->second != "OpenCL.std") return false;
  const auto number = inst.operand(1);
  std::vector<uint32_t> operands;
  for (size_t k = 2; k < inst.operandCount(); ++k) operands.push_back(inst.operand(k));
  const Std fn = Std(number);
  switch (fn) {
    case Std::select: select(operands[2], operands[1], operands[0], true); return true;
    case Std::cross: geometric(numerics::CoreOp::Cross, operands[0], operands[1]); return true;
    case Std::distance: geometric(numerics::CoreOp::Distance, operands[0], operands[1]); return true;
    case Std::fast_distance: geometric(numerics::CoreOp::FastDistance, operands[0], operands[1]); return true;
    case Std::length: geometric(numerics::CoreOp::Length, operands[0], 0); return true;
    case Std::fast_length: geometric(numerics::CoreOp::FastLength, operands[0], 0); return true;
    case Std::normalize: geometric(numerics::CoreOp::Normalize, operands[0], 0); return true;
    case Std::fast_normalize: geometric(numerics::CoreOp::FastNormalize, operands[0], 0); return true;
    case Std::vloadn: {  // vloadn(offset, p): the n lanes at p + offset·n
      Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
        ShadowRun& s = *wi.shadow;
        const uint64_t offset = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
        auto d = openAddress(wi, op, op->a, op->b, op->c);
        if (!d) d = openAllocationAt(wi, op->a);
        if (d) {
          s.markUndetermined(wi.regs + op->r, op->n, uint32_t(op->imm), *d);
          return op + 1;
        }
        if (uint8_t* p = hostAddress(wi, op->a)) s.copy(wi.regs + op->r, p + offset * op->n, op->n);
        return op + 1;
      }, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(operands[1]);
      op.b = L.reg(operands[0]);
      op.c = uint32_t(L.typeOfValue(operands[0]).size);
      op.n = L.lanes(inst.resultType) * laneBytes(inst.resultType);
      op.imm = laneBytes(inst.resultType);
      return true;
    }
    case Std::vstoren: {  // vstoren(data, offset, p)
      Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
        ShadowRun& s = *wi.shadow;
        const uint64_t offset = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
        uint8_t* p = hostAddress(wi, op->a);
        if (const auto d = openAddress(wi, op, op->a, op->b, op->c)) {
          openAllocation(wi, op->a, *d);
          if (p) s.markUndetermined(p + offset * op->n, op->n, 1, *d);
          return op + 1;
        }
        if (p) {
          s.copy(p + offset * op->n, wi.regs + op->r, op->n);
          s.noteWriter(p + offset * op->n, op->n, op->inst);
        }
        return op + 1;
      }, inst);
      op.r = L.reg(operands[0]);
      op.a = L.reg(operands[2]);
      op.b = L.reg(operands[1]);
      op.c = uint32_t(L.typeOfValue(operands[1]).size);
      op.n = uint32_t(L.typeOfValue(operands[0]).size);
      return true;
    }
    default: break;
  }
  if (number < uint32_t(numerics::kMathFnCount)) {
    const MathFn f = MathFn(number);
    if (f == MathFn::ilogb) {
      intOfFloat(operands[0], "ilogb", true);
      return true;
    }
    if (f == MathFn::nan) {
      generic();
      return true;
    }
    const int arity = numerics::arity(f);
    std::vector<uint32_t> values(operands.begin(), operands.begin() + std::min<size_t>(size_t(arity), operands.size()));
    floatRule(FloatKind::Math, values, numerics::CoreOp::None, f);
    if (int(operands.size()) > arity) {
      // The second result through the pointer (fract, frexp, modf, remquo, sincos, lgamma_r): another device may
      // store any of the values the rule allows; clref marks it "any value" when the operands have sets, and the
      // cosine of sincos always (its own ulp bound), else exact.
      Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
        ShadowRun& s = *wi.shadow;
        uint8_t* p = hostAddress(wi, op->a);
        if (!p) return op + 1;
        const bool any = s.anyIn(wi.regs + op->b, op->c) || op->imm;
        if (!any) {
          s.clear(p, op->n);
          return op + 1;
        }
        for (uint32_t off = 0; off < op->n; off += op->align) {
          ShadowEntry e;
          e.set = ValueSet::all();
          e.size = uint8_t(op->align);
          e.format = formatOfBytes(op->align);
          s.set(p + off, e);
        }
        return op + 1;
      }, inst);
      const uint32_t ptr = operands.back();
      const Type& pointee = L.type(L.typeOfValue(ptr).element);
      op.a = L.reg(ptr);
      op.b = L.reg(operands[0]);
      op.c = uint32_t(L.typeOfValue(operands[0]).size);
      op.n = uint32_t(pointee.size);
      op.align = pointee.kind == TypeKind::Vector ? uint32_t(L.type(pointee.element).size) : uint32_t(pointee.size);
      op.imm = f == MathFn::sincos ? 1 : 0;
    }
    return true;
  }
  return false;
}

void ShadowLowering::after() {
  using spv::Op;
  const Op o = inst.opcode;
  auto operand = [&](size_t i) { return inst.operand(i); };
  switch (o) {
    case Op::OpFAdd:
    case Op::OpFSub: {
      const bool sub = o == Op::OpFSub;
      floatRule(FloatKind::Core, {operand(0), operand(1)}, sub ? numerics::CoreOp::Sub : numerics::CoreOp::Add);
      // Operands that are products a device may fuse with this sum (no NoContraction on either instruction).
      auto& rule = *static_cast<FloatRule*>(const_cast<void*>(L.k.ops.back().aux));
      if (L.m.decoration(inst.resultId, spv::Decoration::NoContraction)) return;
      for (size_t k = 0; k < 2; ++k) {
        const Instruction* def = L.m.findDef(operand(k));
        if (!def || def->opcode != Op::OpFMul || L.m.decoration(def->resultId, spv::Decoration::NoContraction) ||
            !L.hasReg(def->operand(0)) || !L.hasReg(def->operand(1)))
          continue;
        Contraction c;
        c.a = laneRef(def->operand(0));
        c.b = laneRef(def->operand(1));
        c.addend = 1 - k;
        c.negA = sub && k == 1;
        c.negC = sub && k == 0;
        rule.contractions.push_back(c);
      }
      return;
    }
    case Op::OpFMul: floatRule(FloatKind::Core, {operand(0), operand(1)}, numerics::CoreOp::Mul); return;
    case Op::OpVectorTimesScalar:
      floatRule(FloatKind::Core, {operand(0), operand(1)}, numerics::CoreOp::Mul);
      return;
    case Op::OpFDiv: floatRule(FloatKind::Core, {operand(0), operand(1)}, numerics::CoreOp::Div); return;
    case Op::OpFRem: floatRule(FloatKind::Math, {operand(0), operand(1)}, numerics::CoreOp::None, MathFn::fmod); return;
    case Op::OpFMod: floatRule(FloatKind::FMod, {operand(0), operand(1)}); return;
    case Op::OpFNegate: floatRule(FloatKind::Negate, {operand(0)}); return;
    case Op::OpDot: geometric(numerics::CoreOp::Dot, operand(0), operand(1)); return;
    case Op::OpFConvert: floatRule(FloatKind::Convert, {operand(0)}); return;
    case Op::OpConvertFToS:
    case Op::OpConvertFToU: intOfFloat(operand(0), "conversion to an integer"); return;
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpFOrdLessThan:
    case Op::OpFUnordLessThan:
    case Op::OpFOrdGreaterThan:
    case Op::OpFUnordGreaterThan:
    case Op::OpFOrdLessThanEqual:
    case Op::OpFUnordLessThanEqual:
    case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordGreaterThanEqual:
    case Op::OpLessOrGreater:
    case Op::OpOrdered:
    case Op::OpUnordered: compare({operand(0), operand(1)}); return;
    case Op::OpIsNan:
    case Op::OpIsInf:
    case Op::OpIsFinite:
    case Op::OpIsNormal:
    case Op::OpSignBitSet: compare({operand(0)}); return;
    case Op::OpSelect: select(operand(0), operand(1), operand(2), false); return;
    case Op::OpLoad: memoryAccess(&shLoad, operand(0), 0, resultBytes()); return;
    case Op::OpStore: {
      memoryAccess(&shStore, operand(0), operand(1), uint32_t(L.typeOfValue(operand(1)).size));
      // c: the instruction that computed the stored value (a violation names it), else the store itself.
      const Instruction* def = L.m.findDef(operand(1));
      L.k.ops.back().c = def ? L.index(*def) : L.index(inst);
      return;
    }
    case Op::OpCopyMemory: {
      Op_& op = L.emit(&shCopyMemory, inst);
      op.a = L.reg(operand(0));
      op.b = L.reg(operand(1));
      op.n = uint32_t(L.type(L.typeOfValue(operand(0)).element).size);
      return;
    }
    case Op::OpCopyMemorySized: {
      Op_& op = L.emit(&shCopyMemory, inst);
      op.a = L.reg(operand(0));
      op.b = L.reg(operand(1));
      op.c = L.reg(operand(2));
      op.imm = L.typeOfValue(operand(2)).size;
      op.n = 0;
      return;
    }
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFAddEXT:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT: {
      auto& t = L.k.tables.emplace_back();
      // Value operands: after the pointer, scope and semantics (and the second semantics of compare-exchange).
      const size_t first = o == Op::OpAtomicCompareExchange || o == Op::OpAtomicCompareExchangeWeak ? 4 : 3;
      for (size_t k = first; k < inst.operandCount(); ++k)
        if (L.hasReg(operand(k)) && !L.isConstant(operand(k))) {
          t.push_back(L.reg(operand(k)));
          t.push_back(uint32_t(L.typeOfValue(operand(k)).size));
        }
      Op_& op = L.emit(&shAtomic, inst);
      op.a = L.reg(operand(0));
      op.n = uint32_t(L.type(L.typeOfValue(operand(0)).element).size);
      op.r = inst.resultId ? L.reg(inst.resultId) : ~0u;
      // Float addition is not associative: the sum left in memory depends on the order too.
      op.imm = o == Op::OpAtomicExchange || o == Op::OpAtomicCompareExchange || o == Op::OpAtomicCompareExchangeWeak ||
                       o == Op::OpAtomicStore || o == Op::OpAtomicFAddEXT
                   ? 1
                   : 0;
      if (o == Op::OpAtomicFMinEXT || o == Op::OpAtomicFMaxEXT) {
        op.imm = 2;
        op.b = L.reg(operand(3));
      }
      op.aux = &t;
      return;
    }
    case Op::OpCopyObject:
    case Op::OpBitcast: copies({0, L.reg(operand(0)), resultBytes()}); return;
    case Op::OpConvertPtrToU: {
      // C99 §6.3.2.3 [external], which OpenCL C builds on: a pointer converted to an integer is implementation-defined.
      // Any value on another device (the conformance suite's kernel_memory_alignment reads addresses to test their
      // alignment).
      auto& t = L.k.tables.emplace_back(std::vector<uint32_t>{0});
      Op_& op = L.emit(&shAnyValueLanes, inst);
      op.r = L.reg(inst.resultId);
      op.c = resultBytes();
      op.aux = &t;
      return;
    }
    case Op::OpCompositeExtract: {
      const uint64_t off = offsetOf(L, L.typeIdOfValue(operand(0)), inst, 1);
      copies({0, uint32_t(L.reg(operand(0)) + off), resultBytes()});
      return;
    }
    case Op::OpCompositeInsert: {
      const uint64_t off = offsetOf(L, inst.resultType, inst, 2);
      copies({0, L.reg(operand(1)), resultBytes(), uint32_t(off), L.reg(operand(0)),
              uint32_t(L.typeOfValue(operand(0)).size)});
      return;
    }
    case Op::OpCompositeConstruct: {
      const Type& t = resultType();
      std::vector<uint32_t> triples;
      uint64_t off = 0;
      for (size_t k = 0; k < inst.operandCount(); ++k) {
        const Type& ot = L.typeOfValue(operand(k));
        uint64_t at = off;
        if (t.kind == TypeKind::Struct) at = t.memberOffsets.at(k);
        else if (t.kind == TypeKind::Array) at = k * (t.stride ? t.stride : L.type(t.element).size);
        triples.insert(triples.end(), {uint32_t(at), L.reg(operand(k)), uint32_t(ot.size)});
        // Vector from scalars and vectors: each operand's components in turn (3-component operands take 3 lanes).
        off += t.kind == TypeKind::Vector ? L.lanes(L.typeIdOfValue(operand(k))) * L.type(t.element).size : ot.size;
      }
      copies(std::move(triples));
      return;
    }
    case Op::OpVectorShuffle: {
      const Type& a = L.typeOfValue(operand(0));
      const uint32_t lb = laneBytes(inst.resultType), na = a.count;
      std::vector<uint32_t> triples, undefinedLanes;
      for (size_t k = 2; k < inst.operandCount(); ++k) {
        const uint32_t c = operand(k);
        // SPIR-V 1.0 §3.32.12 [external] OpVectorShuffle: a component literal 0xFFFFFFFF makes the result's
        // component undefined (clref's value is whatever its copy left): any value another device may give, such as
        // the padding lane clang adds to store a 3-component vector, or the fourth lane of as_type4 of one:
        // OpenCL C 3.0 §6.4.4.2 [[reinterpreting-types-using-as_type-and-as_typen]].
        if (c == 0xFFFFFFFFu) {
          undefinedLanes.push_back(uint32_t((k - 2) * lb));
          continue;
        }
        const uint32_t src = c < na ? L.reg(operand(0)) + c * lb : L.reg(operand(1)) + (c - na) * lb;
        triples.insert(triples.end(), {uint32_t((k - 2) * lb), src, lb});
      }
      copies(std::move(triples));
      if (!undefinedLanes.empty()) {
        auto& t = L.k.tables.emplace_back(std::move(undefinedLanes));
        Op_& op = L.emit(&shAnyValueLanes, inst);
        op.r = L.reg(inst.resultId);
        op.c = lb;
        op.aux = &t;
      }
      return;
    }
    case Op::OpVectorExtractDynamic: {
      Op_& op = L.emit(&shExtractDynamic, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(operand(0));
      op.b = L.reg(operand(1));
      op.c = uint32_t(L.typeOfValue(operand(1)).size);
      op.n = resultBytes();
      op.imm = L.typeOfValue(operand(0)).count;
      return;
    }
    case Op::OpVectorInsertDynamic: {
      Op_& op = L.emit(&shInsertDynamic, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(operand(0));
      op.b = L.reg(operand(1));
      op.c = L.reg(operand(2));
      op.align = uint32_t(L.typeOfValue(operand(2)).size);
      op.n = laneBytes(inst.resultType);
      op.imm = resultType().count;
      return;
    }
    case Op::OpExtInst:
      if (extInst()) return;
      break;
    case Op::OpGroupFMin:
    case Op::OpGroupFMax: {
      // The minimum or maximum is one of the values whatever the order, but of equal zeros either may come first
      // (fmin/fmax leave the zero sign open): a zero result is either zero; operands with sets give any value.
      Op_& op = L.emit(+[](WorkItem& wi, const Op_* op) -> const Op_* {
        ShadowRun& s = *wi.shadow;
        if (s.choiceFreedInst == op->inst) s.choiceFreedInst = UINT32_MAX;  // the order choice, noted once per group
        uint8_t* out = wi.regs + op->r;
        const Format f = formatOfBytes(op->n);
        if (s.anyIn(wi.regs + op->a, op->n)) {
          ShadowEntry e;
          e.set = ValueSet::all();
          e.size = uint8_t(op->n);
          e.format = f;
          e.producer = op->inst;
          s.set(out, e);
        } else if (readFloat(out, f) == 0) {
          ShadowEntry e;
          e.set = ValueSet{-0.0, 0.0, false};
          e.size = uint8_t(op->n);
          e.format = f;
          e.producer = op->inst;
          s.set(out, e);
        } else {
          s.clear(out, op->n);
        }
        return op + 1;
      }, inst);
      op.r = L.reg(inst.resultId);
      op.a = L.reg(operand(2));
      op.n = resultBytes();
      return;
    }
    case Op::OpGroupFAdd:
    case Op::OpGroupFMulKHR:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformFMul: {
      // work_group_reduce_add / scans of floats, their products, and the sub-group non-uniform ones: the order of the
      // operations is open (choice work_group_reduction_order), so each work-item's result is any of the orders'
      // results: any value here (the sets do not enumerate the orders).
      Op_& op = L.emit(+[](WorkItem& wi, const Op_* op) -> const Op_* {
        ShadowRun& s = *wi.shadow;
        if (s.choiceFreedInst == op->inst) s.choiceFreedInst = UINT32_MAX;
        s.clear(wi.regs + op->r, op->n);
        ShadowEntry e;
        e.set = ValueSet::all();
        e.size = uint8_t(op->n);
        e.format = formatOfBytes(op->n);
        e.producer = op->inst;
        s.entries[reinterpret_cast<uintptr_t>(wi.regs + op->r)] = e;
        return op + 1;
      }, inst);
      op.r = L.reg(inst.resultId);
      op.n = resultBytes();
      return;
    }
    default: break;
  }
  if (!inst.resultId || !L.hasReg(inst.resultId) || resultBytes() == 0) return;
  switch (o) {
    case Op::OpVariable:
    case Op::OpPhi:
    case Op::OpFunctionCall:  // the callee's OpReturnValue moves the result's set (ops_control.cpp)
    case Op::OpFunctionParameter:
    case Op::OpImageRead:  // the image family applies the image verdict itself (ops_image.cpp shadowRead)
    case Op::OpImageSampleExplicitLod: return;
    default: break;
  }
  generic();
}

void ShadowLowering::before() {
  if (inst.opcode != spv::Op::OpBranchConditional && inst.opcode != spv::Op::OpSwitch) return;
  Op& op = L.emit(&shBranch, inst);
  op.a = L.reg(inst.operand(0));
  op.n = uint32_t(L.typeOfValue(inst.operand(0)).size);
}

}  // namespace

uint32_t recordShadowDecision(WorkItem& wi, const Op* op, const std::string& what) {
  return recordDecision(wi, op, what);
}
void writeShadowLane(WorkItem& wi, const Op* op, uint8_t* p, uint8_t bytes, numerics::Format f,
                     const numerics::ValueSet& set, double reference, bool perturbable) {
  writeLaneImpl(wi, op, p, bytes, f, set, reference, perturbable);
}

void emitShadowRuleBefore(Lowerer& L, const Instruction& inst) {
  if (L.opt.shadow) ShadowLowering(L, inst).before();
}
void emitShadowRuleAfter(Lowerer& L, const Instruction& inst) {
  if (L.opt.shadow) ShadowLowering(L, inst).after();
}

}  // namespace clref::interpreter
