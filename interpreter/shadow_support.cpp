// The shared machinery of the shadow mode's rules (shadow_support.hpp): reading operand lanes, decisions, writing a
// lane's set (with --perturb), the handlers of each kind of rule and the generic rule; and emitting an instruction's
// rule, which its dispatch entry names (dispatch.hpp), in the shadow lowering. Which rule an opcode has is chosen in
// its family's file (ops_*.cpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <unordered_map>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shader_float_freedoms.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/shadow_lanes.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/math.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::interpreter {
namespace {

using numerics::Format;
using numerics::MathFn;
using numerics::ValueSet;

// ---- Reading lanes ---------------------------------------------------------------------------------------------

using numerics::formatOfBytes;
double readFloat(const uint8_t* p, Format f) { return numerics::loadValue(p, f); }

double readInt(const uint8_t* p, uint8_t bytes, bool isSigned) {
  uint64_t u = 0;
  std::memcpy(&u, p, bytes);
  if (isSigned && bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~uint64_t(0) << (8 * bytes);
  return isSigned ? double(int64_t(u)) : double(u);
}

// A lane the coverage says has an entry (laneOf).
[[gnu::noinline]] LaneValue laneWithEntry(const WorkItem& wi, const LaneRef& a, const uint8_t* p) {
  ShadowEntry scratch;
  const ShadowEntry* e = wi.shadow->coveredLane(p, a.bytes, scratch);
  if (e && e->undetermined) return {ValueSet::all(), true, e->decision};
  if (a.kind != LaneKind::Float) {
    // An integer holding a value with a set (a float reinterpreted): not one integer.
    if (e) return {ValueSet::all(), true, ~0u};
    return {ValueSet::point(readInt(p, a.bytes, a.kind == LaneKind::SInt)), false, 0};
  }
  if (e) return {e->format == a.format ? e->set : ValueSet::all(), false, 0};
  return {ValueSet::point(readFloat(p, a.format)), false, 0};
}

inline LaneValue laneOf(const WorkItem& wi, const LaneRef& a, uint32_t lane) {
  const uint8_t* p = wi.regs + a.reg + lane * a.stride;
  // Most operands hold exactly clref's value: one look at the coverage, no entry.
  if (wi.shadow->anyIn(p, a.bytes)) [[unlikely]]
    return laneWithEntry(wi, a, p);
  if (a.kind != LaneKind::Float) return {ValueSet::point(readInt(p, a.bytes, a.kind == LaneKind::SInt)), false, 0};
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

}  // namespace

// Correctly rounded operations on single values whose result no rounding mode or flush can change: no set.
bool shadowExactOnPoints(const FloatRule& r, const ShadowRun& s, std::span<const double> a) {
  if (r.kind != FloatKind::Core || r.format == Format::Half || s.profile != numerics::Profile::Full) return false;
  if (r.core != numerics::CoreOp::Add && r.core != numerics::CoreOp::Sub && r.core != numerics::CoreOp::Mul)
    return false;
  // A subnormal operand may be flushed (float); a result is checked by the caller.
  const double tiny = r.format == Format::Float ? 0x1p-126 : 0x1p-1022;
  for (double x : a)
    if (x != 0 && std::fabs(x) < tiny) return false;
  return true;
}

namespace {

// A shader's contracted a·b + c (Vulkan §A.4.1 [external] [[spirvenv-evaluation-expressions]]: without NoContraction
// operations may be combined, "with a different number of rounding steps"): the exact a·b + c rounded once, in the
// entry point's rounding mode or either direction (Vulkan's own fma row is inherited from the unfused pair, so the
// fused form is the correctly rounded one of the OpenCL table's fma row, in the shader's modes).
ValueSet shaderFusedSet(std::span<const ValueSet> fused, Format f, const numerics::VerdictOptions& options) {
  if (options.rounding) return numerics::allowedSet(MathFn::fma, fused, f, numerics::Profile::Full, options);
  numerics::VerdictOptions down = options, up = options;
  down.rounding = numerics::Rounding::RTN;
  up.rounding = numerics::Rounding::RTP;
  return hull(numerics::allowedSet(MathFn::fma, fused, f, numerics::Profile::Full, down),
              numerics::allowedSet(MathFn::fma, fused, f, numerics::Profile::Full, up));
}

}  // namespace

bool shadowFloatSet(const FloatRule& r, const ShadowRun& s, const numerics::VerdictOptions& options,
                    std::span<const LaneValue> args, std::span<const LaneValue> products, double reference,
                    ValueSet& set) {
  // At most three operands (fma, mad, the three-operand math functions): no allocation per instruction.
  std::array<ValueSet, 4> setStore;
  std::array<double, 4> pointStore;
  const size_t n = std::min<size_t>(args.size(), setStore.size());
  const std::span<ValueSet> sets(setStore.data(), n);
  const std::span<const double> points(pointStore.data(), n);
  bool allPoints = true;
  for (size_t k = 0; k < n; ++k) {
    sets[k] = args[k].set;
    allPoints = allPoints && args[k].set.isPoint();
    pointStore[k] = args[k].set.hasNumbers() ? args[k].set.lo : NAN;
  }
  const bool finiteOnly = s.assumesFinite(r.format, r.preserving), anyZeroSign = s.anyZeroSign(r.format, r.preserving);
  if (allPoints && r.kind != FloatKind::Math && r.kind != FloatKind::Core)
    return false;  // negation, conversion, fmod of single values: exact
  if (allPoints && shadowExactOnPoints(r, s, points) && r.contractions.empty() && !finiteOnly &&
      !(reference != 0 && std::fabs(reference) < (r.format == Format::Float ? 0x1p-126 : 0x1p-1022)))
    return false;
  switch (r.kind) {
    case FloatKind::Core: set = numerics::allowedSetCore(r.core, sets, r.format, s.profile, options); break;
    case FloatKind::Math: set = numerics::allowedSet(r.fn, sets, r.format, s.profile, options); break;
    case FloatKind::Negate: set = ValueSet{-sets[0].hi, -sets[0].lo, sets[0].nan}; break;
    case FloatKind::Convert: {
      // Correctly rounded in the instruction's mode: every mode's result lies between rounding down and up.
      const bool ftz = options.flushToZero.value_or(r.format != Format::Double);
      set = hull(numerics::roundSet(sets[0], r.format, numerics::Rounding::RTN, ftz),
                 numerics::roundSet(sets[0], r.format, numerics::Rounding::RTP, ftz));
      break;
    }
    case FloatKind::FMod: set = ValueSet::all(); break;
  }
  // FP_CONTRACT: the product and the sum in one rounding (fma), or with -cl-mad-enable a mad of any accuracy.
  if (s.contraction || s.madEnable)
    for (size_t k = 0; k < r.contractions.size(); ++k) {
      const Contraction& c = r.contractions[k];
      if (s.madEnable) {
        set = ValueSet::all();
        break;
      }
      const LaneValue& a = products[2 * k];
      const LaneValue& b = products[2 * k + 1];
      if (a.undetermined || b.undetermined) continue;  // the product itself is then undetermined already
      ValueSet fa = a.set, fc = sets[c.addend];
      if (c.negA) fa = ValueSet{-fa.hi, -fa.lo, fa.nan};
      if (c.negC) fc = ValueSet{-fc.hi, -fc.lo, fc.nan};
      const ValueSet fused[] = {fa, b.set, fc};
      set = hull(set, s.shader ? shaderFusedSet(fused, r.format, options)
                               : numerics::allowedSet(MathFn::fma, fused, r.format, s.profile, options));
    }
  // -cl-finite-math-only, or a shader's NotNaN and NotInf (ShadowRun::assumesFinite): with a NaN or an infinity
  // among the operands or the result, any value; a shader's NSZ: the sign of a zero result is free.
  if (finiteOnly || anyZeroSign) set = withShaderFreedoms(set, sets, finiteOnly, anyZeroSign);
  return true;
}

namespace {

const Op* shFloat(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const FloatRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  std::array<LaneValue, 4> argStore;
  const size_t n = std::min<size_t>(r.args.size(), argStore.size());
  // The contractions' products are read only where the rule applies them.
  // (An OpFAdd or OpFSub has at most two products.)
  const bool contracts = !r.contractions.empty() && (s.contraction || s.madEnable);
  std::array<LaneValue, 4> products;
  numerics::VerdictOptions shaderOptions;
  const numerics::VerdictOptions& options = s.shader ? (shaderOptions = s.verdictFor(r.format)) : s.verdict;
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    const double reference = readFloat(out, r.format);
    bool undetermined = false;
    uint32_t decision = 0;
    for (size_t k = 0; k < n; ++k) {
      argStore[k] = laneOf(wi, r.args[k], i);
      if (argStore[k].undetermined) {
        undetermined = true;
        decision = decisionFor(wi, op, argStore[k],
                               "an operand reinterprets a floating-point value that has an allowed set");
        break;
      }
    }
    if (undetermined) {
      writeUndetermined(wi, out, r.bytes, decision);
      continue;
    }
    size_t read = 0;
    if (contracts)
      for (const Contraction& c : r.contractions) {
        products[read++] = laneOf(wi, c.a, i);
        products[read++] = laneOf(wi, c.b, i);
      }
    ValueSet set;
    if (shadowFloatSet(r, s, options, std::span<const LaneValue>(argStore.data(), n),
                       std::span<const LaneValue>(products.data(), read), reference, set))
      writeLane(wi, op, out, r.bytes, r.format, set, reference);
    else
      s.clear(out, r.bytes);
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
    const ValueSet set = numerics::allowedSetGeometric(r.op, p, q, i, r.format, s.profile, s.verdictFor(r.format));
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
        any.producer = op->inst;
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

}  // namespace

unsigned shadowCompareOutcomes(spv::Op opcode, const ValueSet& a, const ValueSet& b) { return outcomes(opcode, a, b); }

namespace {

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

}  // namespace

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
uint8_t* shadowHostAddress(const WorkItem& wi, uint32_t ptrReg) {
  const uint64_t ptr = wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, ptrReg) : rd<uint32_t>(wi, ptrReg);
  const uint64_t tag = ptr >> wi.tagShift, off = ptr & wi.offsetMask;
  if (tag == 0 || tag >= wi.allocCount) return nullptr;
  return wi.allocs[tag].base + off;
}

// An address that depends on an undetermined value (its decision), or nullopt. `extra` is a further register of
// `extraBytes` bytes the address is computed from (vloadn/vstoren's offset).
std::optional<uint32_t> shadowOpenAddress(WorkItem& wi, const Op* op, uint32_t ptrReg, uint32_t extra,
                                          uint32_t extraBytes) {
  ShadowRun& s = *wi.shadow;
  const uint32_t pb = wi.launch->kernel->addressBits / 8;
  if (!s.anyIn(wi.regs + ptrReg, pb) && !(extraBytes && s.anyIn(wi.regs + extra, extraBytes))) return std::nullopt;
  auto d = s.decisionIn(wi.regs + ptrReg, pb);
  if (!d && extraBytes) d = s.decisionIn(wi.regs + extra, extraBytes);
  ++s.decisionCount;
  return d ? *d : recordDecision(wi, op, "an address computed from a reinterpreted floating-point value");
}

// The allocation a tagged pointer names (its host base), or nullptr.
static const uint8_t* allocationOf(const WorkItem& wi, uint32_t ptrReg) {
  const uint64_t ptr = wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, ptrReg) : rd<uint32_t>(wi, ptrReg);
  const uint64_t tag = ptr >> wi.tagShift;
  return tag == 0 || tag >= wi.allocCount ? nullptr : wi.allocs[tag].base;
}

// A store at an open address: another device may have written any element of the allocation (the tag of a pointer
// is its allocation; only the offset is open). Its elements that differ are then undetermined, and so are loads
// from it.
void shadowOpenAllocation(WorkItem& wi, uint32_t ptrReg, uint32_t decision) {
  if (const uint8_t* base = allocationOf(wi, ptrReg)) wi.shadow->openAllocations.try_emplace(base, decision);
}
std::optional<uint32_t> shadowOpenAllocationAt(const WorkItem& wi, uint32_t ptrReg) {
  const auto& open = wi.shadow->openAllocations;
  if (open.empty()) return std::nullopt;
  const auto it = open.find(allocationOf(wi, ptrReg));
  return it == open.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

namespace {
// The open-address test of an access, from the register its imm names (shadowAddressSource).
std::optional<uint32_t> accessOpenAddress(WorkItem& wi, const Op* op) {
  if (op->imm == kExactAddress) return std::nullopt;
  return shadowOpenAddress(wi, op, uint32_t(op->imm - 1));
}
}  // namespace

uint64_t shadowAddressSource(const Lowerer& L, uint32_t ptrId) {
  return L.shadowExact(ptrId) ? kExactAddress : uint64_t(L.reg(ptrId)) + 1;
}

// OpLoad: r = result, a = pointer, n = bytes.
const Op* shLoad(WorkItem& wi, const Op* op) {
  uint8_t* out = wi.regs + op->r;
  auto d = accessOpenAddress(wi, op);
  if (!d && !wi.shadow->openAllocations.empty()) d = shadowOpenAllocationAt(wi, op->a);
  if (d) {
    wi.shadow->markUndetermined(out, op->n, std::min<uint32_t>(op->n, 8), *d);
    return op + 1;
  }
  if (uint8_t* p = shadowHostAddress(wi, op->a)) wi.shadow->copy(out, p, op->n);
  return op + 1;
}
// OpStore: a = pointer, b = value, n = bytes.
const Op* shStore(WorkItem& wi, const Op* op) {
  uint8_t* p = shadowHostAddress(wi, op->a);
  if (const auto d = accessOpenAddress(wi, op)) {
    shadowOpenAllocation(wi, op->a, *d);
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
  uint8_t* dst = shadowHostAddress(wi, op->a);
  const uint8_t* src = shadowHostAddress(wi, op->b);
  auto d = shadowOpenAddress(wi, op, op->a);
  if (!d) d = shadowOpenAddress(wi, op, op->b);
  if (!d) d = shadowOpenAllocationAt(wi, op->b);
  if (d) {
    shadowOpenAllocation(wi, op->a, *d);
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
static bool floatMinMaxOpen(const uint8_t* original, const uint8_t* operand, uint32_t bytes) {
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

static const Op* shAtomicValues(WorkItem& wi, const Op* op) {
  const auto& vals = *static_cast<const std::vector<uint32_t>*>(op->aux);
  ShadowRun& s = *wi.shadow;
  uint8_t* p = shadowHostAddress(wi, op->a);
  std::optional<uint32_t> d = shadowOpenAddress(wi, op, op->a);
  if (d) shadowOpenAllocation(wi, op->a, *d);
  if (!d) d = shadowOpenAllocationAt(wi, op->a);
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
  if (uint8_t* p = shadowHostAddress(wi, op->a); open && p)
    wi.shadow->markUndetermined(p, op->n, op->n,
                                recordDecision(wi, op,
                                               "an atomic min or max of -0 and +0, or of a signalling NaN, "
                                               "may leave either operand (cl_ext_float_atomics)"));
  return op + 1;
}

// ---- Data movement within registers -------------------------------------------------------------------------------

// The lane of `bytes` bytes at `at` holds any value, by the rule of instruction `producer`.
static void setAnyValue(ShadowRun& s, uint8_t* at, uint32_t bytes, uint32_t producer) {
  ShadowEntry e;
  e.set = ValueSet::all();
  e.producer = producer;
  e.size = uint8_t(bytes);
  e.format = formatOfBytes(bytes);
  s.set(at, e);
}

void shadowSetAnyValue(ShadowRun& s, uint8_t* at, uint32_t bytes, uint32_t producer) {
  setAnyValue(s, at, bytes, producer);
}

// The lanes at the byte offsets of the table (c bytes each) of the result r hold any value.
const Op* shAnyValueLanes(WorkItem& wi, const Op* op) {
  for (uint32_t off : *static_cast<const std::vector<uint32_t>*>(op->aux))
    setAnyValue(*wi.shadow, wi.regs + op->r + off, op->c, op->inst);
  return op + 1;
}

void shadowMoveFrom(WorkItem& to, const WorkItem& from, const Op* op) {
  ShadowRun& s = *to.shadow;
  s.copy(to.regs + op->r, from.regs + op->a, op->n);
}

void shadowAnyResult(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  if (s.choiceFreedInst == op->inst) s.choiceFreedInst = UINT32_MAX;
  const uint32_t lane = std::max<uint32_t>(1, static_cast<const Collective*>(op->aux)->valueLaneBytes);
  s.clear(wi.regs + op->r, op->n);
  for (uint32_t off = 0; off < op->n; off += lane) setAnyValue(s, wi.regs + op->r + off, std::min(lane, op->n - off), op->inst);
}

// (destination offset in the result, source register, bytes) triples; r = result, n = result bytes.
static const Op* shCopies(WorkItem& wi, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  ShadowRun& s = *wi.shadow;
  // The sources are read before the result is written (an OpCompositeInsert may name its result's register).
  bool any = false;
  for (size_t i = 0; i + 2 < t.size() && !any; i += 3) any = s.anyIn(wi.regs + t[i + 1], t[i + 2]);
  if (!any) {
    s.clear(wi.regs + op->r, op->n);
    return op + 1;
  }
  s.beginStaging();
  for (size_t i = 0; i + 2 < t.size(); i += 3) s.stage(wi.regs + t[i + 1], t[i + 2]);
  s.clear(wi.regs + op->r, op->n);
  for (size_t i = 0; i + 2 < t.size(); i += 3) s.putStaged(i / 3, wi.regs + op->r + t[i], t[i + 2]);
  return op + 1;
}

// A named choice that leaves the value free decided this instruction's result (ShadowRun::choiceFreedInst): every
// lane of the result is any value (an integer lane "any value" too: check/check.cpp allows it).
// A work-group collective notes its choice once, on behalf of every work-item (Op::align == 2 on its rule): the
// note then stays for the group's other work-items.
static bool freedByChoice(WorkItem& wi, const Op* op, uint8_t* out, uint32_t bytes, uint32_t laneBytes) {
  ShadowRun& s = *wi.shadow;
  if (s.choiceFreedInst != op->inst) [[likely]]
    return false;
  if (op->align != 2) s.choiceFreedInst = UINT32_MAX;
  s.clear(out, bytes);
  for (uint32_t off = 0; off < bytes; off += laneBytes) {
    ShadowEntry e;
    e.set = ValueSet::all();
    e.producer = op->inst;
    e.size = uint8_t(std::min(laneBytes, bytes - off));
    e.format = formatOfBytes(e.size);
    s.set(out + off, e);
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

namespace {

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
    for (uint32_t off = 0; off < op->n; off += op->c) setAnyValue(s, wi.regs + op->r + off, op->c, op->inst);
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
        setAnyValue(s, wi.regs + op->r + off, op->c, op->inst);
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

}  // namespace

double shadowReadFloat(const uint8_t* p, Format f) { return readFloat(p, f); }

// ---- Lowering ------------------------------------------------------------------------------------------------

uint32_t ShadowLowering::laneBytes(uint32_t typeId) const {
  const Type* t = &L.type(typeId);
  if (t->kind == TypeKind::Matrix) t = &L.type(t->element);  // a matrix's lanes are its columns' components
  return t->kind == TypeKind::Vector ? uint32_t(L.type(t->element).size) : uint32_t(t->size);
}

bool ShadowLowering::isFloat(uint32_t typeId) const {
  const Type* t = &L.type(typeId);
  if (t->kind == TypeKind::Matrix) t = &L.type(t->element);
  return (t->kind == TypeKind::Vector ? L.type(t->element).kind : t->kind) == TypeKind::Float;
}

LaneRef ShadowLowering::laneRef(uint32_t id, bool isSigned) const {
  const uint32_t t = L.typeIdOfValue(id);
  LaneRef a;
  a.reg = L.reg(id);
  a.bytes = uint8_t(laneBytes(t));
  a.stride = L.lanes(t) > 1 ? a.bytes : 0;
  a.kind = isFloat(t) ? LaneKind::Float : isSigned ? LaneKind::SInt : LaneKind::UInt;
  a.format = formatOfBytes(a.bytes);
  return a;
}

template <class Rule> Op& ShadowLowering::emitWith(Handler fn, std::unique_ptr<Rule> rule) {
  Op& op = L.emit(fn, inst);
  op.r = inst.resultId ? L.reg(inst.resultId) : 0;
  op.aux = rule.get();
  L.k.auxObjects.push_back(std::shared_ptr<const void>(std::move(rule)));
  return op;
}

FloatRule& ShadowLowering::floatRule(FloatKind kind, std::vector<uint32_t> operands, numerics::CoreOp core,
                                     MathFn fn, std::vector<bool> signedness) {
  auto rule = std::make_unique<FloatRule>();
  rule->kind = kind;
  rule->core = core;
  rule->fn = fn;
  rule->bytes = uint8_t(laneBytes(inst.resultType));
  rule->format = formatOfBytes(rule->bytes);
  rule->lanes = L.lanes(inst.resultType);
  for (size_t k = 0; k < operands.size(); ++k)
    rule->args.push_back(laneRef(operands[k], k < signedness.size() ? signedness[k] : true));
  FloatRule& r = *rule;
  emitWith(&shFloat, std::move(rule));
  return r;
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

void ShadowLowering::anyValueLanes(std::vector<uint32_t> offsets, uint32_t laneBytes) {
  auto& t = L.k.tables.emplace_back(std::move(offsets));
  Op& op = L.emit(&shAnyValueLanes, inst);
  op.r = L.reg(inst.resultId);
  op.c = laneBytes;
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
  op.imm = shadowAddressSource(L, ptr);
}

uint64_t shadowOffsetOf(const Lowerer& L, uint32_t typeId, const Instruction& inst, size_t firstIndex) {
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

void shadowNone(ShadowLowering&) {}

void shadowGeneric(ShadowLowering& S) {
  if (!S.inst.resultId || !S.L.hasReg(S.inst.resultId) || S.resultBytes() == 0) return;
  S.generic();
}

void shadowCopyOperand0(ShadowLowering& S) { S.copies({0, S.L.reg(S.operand(0)), S.resultBytes()}); }

uint32_t recordShadowDecision(WorkItem& wi, const Op* op, const std::string& what) {
  return recordDecision(wi, op, what);
}
LaneValue shadowLaneOf(const WorkItem& wi, const LaneRef& a, uint32_t lane) { return laneOf(wi, a, lane); }
uint32_t shadowDecisionFor(WorkItem& wi, const Op* op, const LaneValue& v, const char* what) {
  return decisionFor(wi, op, v, what);
}
void writeShadowLane(WorkItem& wi, const Op* op, uint8_t* p, uint8_t bytes, numerics::Format f,
                     const numerics::ValueSet& set, double reference, bool perturbable) {
  writeLaneImpl(wi, op, p, bytes, f, set, reference, perturbable);
}

// The rule the instruction's dispatch entry names (dispatch.hpp), with LowerOptions::shadow only: the plain lowering
// emits no shadow Op. lowerInstruction has already rejected an opcode without a lowering.
static const ShadowRule* shadowRuleOf(const Instruction& inst) {
  const OpcodeRule* rule = dispatchTable().find(inst.opcode);
  return rule && rule->kind == OpcodeRule::Kind::Lower ? &rule->shadow : nullptr;
}

void emitShadowRuleBefore(Lowerer& L, const Instruction& inst) {
  if (!L.opt.shadow) return;
  const ShadowRule* rule = shadowRuleOf(inst);
  if (!rule || rule->when != ShadowRule::When::Before || !rule->emit) return;
  ShadowLowering S(L, inst);
  rule->emit(S);
}

void emitShadowRuleAfter(Lowerer& L, const Instruction& inst) {
  if (!L.opt.shadow) return;
  const ShadowRule* rule = shadowRuleOf(inst);
  if (!rule || rule->when != ShadowRule::When::After) return;
  if (inst.resultId && L.shadowExact(inst.resultId)) return;  // its rule would clear what is never set
  ShadowLowering S(L, inst);
  if (rule->emit)
    rule->emit(S);
  else
    shadowGeneric(S);
}

// ---- On lanes (shadow_lanes.hpp) ----------------------------------------------------------------------------------

void registerShadowLaneForms() {
  static const bool registered = [] {
    registerLaneForm(&shLoad, &shLoadOnLanes);
    registerLaneForm(&shStore, &shStoreOnLanes);
    registerLaneForm(&shBranch, &shBranchOnLanes);
    registerLaneForm(&shCompare, &shCompareOnLanes);
    registerLaneForm(&shSelect, &shSelectOnLanes);
    registerLaneForm(&shCopies, &shCopiesOnLanes);
    registerLaneForm(&shGeneric, &shGenericOnLanes);
    registerLaneForm(&shExtractDynamic, &shExtractDynamicOnLanes);
    registerLaneForm(&shInsertDynamic, &shInsertDynamicOnLanes);
    registerLaneForm(&shFloat, &shFloatOnLanes);
    return true;
  }();
  (void)registered;
}

}  // namespace clref::interpreter
