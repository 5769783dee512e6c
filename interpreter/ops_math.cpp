// OpenCL.std math, common and half_/native_ functions (OpenCL C 3.0 §6.15.2 [[math-functions]],
// §6.15.4 [[common-functions]]) that have no exact native host counterpart: every lane is evaluated by
// numerics::evaluate, the
// correctly rounded result of the mathematical function (MPFR). The few functions whose host
// implementation is exact (fabs, fmin, sqrt, fma, …) keep their fast handlers in ops_extinst.cpp.
#include <cmath>

#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/geometric.hpp"
#include "numerics/math.hpp"
#include "numerics/nan_bits.hpp"

namespace clref::interpreter {
namespace {

using numerics::MathFn;

// How one operand lane is read: a float of the result's format, or an integer.
enum class ArgKind : uint8_t { Float, Int32, Int64, UInt32 };
struct ArgSpec {
  uint32_t reg = 0;
  uint32_t stride = 0;  // bytes between lanes; 0 broadcasts a scalar over a vector result
  ArgKind kind = ArgKind::Float;
};

// Functions that also write through a pointer (the last operand): what they store there.
enum class SecondOutput : uint8_t { None, FloatSecond, IntInteger };

struct MathSpec {
  MathFn fn;
  numerics::Format format;
  ScalarType element;        // float kind of the result (or of the float operand for ilogb)
  bool resultIsInt = false;  // ilogb
  bool flush = false;
  uint32_t lanes = 1;
  std::vector<ArgSpec> args;
  SecondOutput second = SecondOutput::None;
  uint32_t pointerReg = 0;
  uint32_t pointerAlign = 1;
  numerics::Choices choices;  // the launch's: results the spec leaves open
};

// The operand at p.
double readArg(const uint8_t* p, const ArgSpec& a, ScalarType element, bool flush) {
  switch (a.kind) {
    case ArgKind::Int32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return double(v);
    }
    case ArgKind::UInt32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return double(v);
    }
    case ArgKind::Int64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return double(v);
    }
    case ArgKind::Float: break;
  }
  switch (element) {
    case ScalarType::Half: {
      Half h;
      std::memcpy(&h, p, 2);
      return numerics::toDouble(flush ? numerics::flushDenorm(h) : h);
    }
    case ScalarType::Float: {
      float f;
      std::memcpy(&f, p, 4);
      return flush ? numerics::flushDenorm(f) : f;
    }
    default: {
      double d;
      std::memcpy(&d, p, 8);
      return flush ? numerics::flushDenorm(d) : d;
    }
  }
}

void writeFloatLane(uint8_t* p, ScalarType element, double v, bool flush) {  // v is a value of the format
  switch (element) {
    case ScalarType::Half: {
      Half h = numerics::toHalf(v);
      if (flush) h = numerics::flushDenorm(h);
      std::memcpy(p, &h, 2);
      break;
    }
    case ScalarType::Float: {
      float f = float(v);
      if (flush) f = numerics::flushDenorm(f);
      std::memcpy(p, &f, 4);
      break;
    }
    default: {
      if (flush) v = numerics::flushDenorm(v);
      std::memcpy(p, &v, 8);
      break;
    }
  }
}

double readLane(const WorkItem& wi, const ArgSpec& a, uint32_t lane, ScalarType element, bool flush) {
  return readArg(wi.regs + a.reg + lane * a.stride, a, element, flush);
}

// What the numerics' choice decided, for the run's record.
const char* decisionText(numerics::Choice c) {
  switch (c) {
    case numerics::Choice::ClampInvertedBounds: return "clamp with minval > maxval";
    case numerics::Choice::SmoothstepInvertedEdges: return "smoothstep with edge0 >= edge1";
    case numerics::Choice::CommonMinMaxSpecial: return "max/min of an infinite or NaN operand";
    case numerics::Choice::RemquoQuotientBits: return "remquo quotient beyond seven bits";
    case numerics::Choice::LgammaSignUndefined: return "lgamma_r sign of NaN or -inf";
    case numerics::Choice::ReducedPrecisionFunctions: return "half_ or native_ function";
    default: return "math function";
  }
}

const Op* mathLanes(WorkItem& wi, const Op* op) {
  const auto& s = *static_cast<const MathSpec*>(op->aux);
  const uint32_t eb = sizeOf(s.element);
  uint8_t* second = nullptr;
  if (s.second != SecondOutput::None) {
    const uint32_t bytes = (s.second == SecondOutput::IntInteger ? 4 : eb) * (s.lanes == 3 ? 4 : s.lanes);
    const uint64_t ptr =
        wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, s.pointerReg) : rd<uint32_t>(wi, s.pointerReg);
    second = access(wi, op, ptr, bytes, s.pointerAlign, true);
    if (!second) return nullptr;
  }
  double args[3];
  for (uint32_t i = 0; i < s.lanes; ++i) {
    for (size_t k = 0; k < s.args.size(); ++k) args[k] = readLane(wi, s.args[k], i, s.element, s.flush);
    const numerics::MathResult r =
        numerics::evaluate(s.fn, {args, s.args.size()}, s.format, numerics::Rounding::RTE, s.choices);
    if (r.decidedBy != numerics::Choice::Count) [[unlikely]]
      noteChoice(wi, op, r.decidedBy, decisionText(r.decidedBy));
    if (s.resultIsInt)
      wr<int32_t>(wi, op->r + 4 * i, int32_t(r.integer));
    else
      writeFloatLane(wi.regs + op->r + i * eb, s.element, r.value, s.flush);
    if (s.second == SecondOutput::FloatSecond) writeFloatLane(second + i * eb, s.element, r.second, s.flush);
    if (s.second == SecondOutput::IntInteger) {
      const int32_t v = int32_t(r.integer);
      std::memcpy(second + 4 * i, &v, 4);
    }
  }
  return op + 1;
}

// mathLanes on the lane executor (lanes.hpp), for the functions without a second output: each work-item's lane in
// turn, its components as mathLanes evaluates them. A lane whose evaluation makes its work-group's first decision of a
// choice stops the lanes before it: it runs alone, where the choice is noted (decideOnLanes).
const Op* mathOnLanes(LaneBatch& b, const Op* op) {
  const auto& s = *static_cast<const MathSpec*>(op->aux);
  if (s.second != SecondOutput::None) return leaveLanes(b, op);
  const uint32_t eb = sizeOf(s.element), count = b.count;
  const size_t arity = s.args.size();
  double args[3];
  for (uint32_t l = 0; l < count; ++l)
    for (uint32_t i = 0; i < s.lanes; ++i) {
      for (size_t k = 0; k < arity; ++k)
        args[k] = readArg(b.lane0(s.args[k].reg + i * s.args[k].stride) + size_t(l) * 8, s.args[k], s.element, s.flush);
      const numerics::MathResult r =
          numerics::evaluate(s.fn, {args, arity}, s.format, numerics::Rounding::RTE, s.choices);
      if (r.decidedBy != numerics::Choice::Count) [[unlikely]]
        if (!decideOnLanes(b, op, l, r.decidedBy, decisionText(r.decidedBy))) return stopBefore(b, op, l);
      if (s.resultIsInt)
        wrLane<int32_t>(b.lane0(op->r + 4 * i), l, int32_t(r.integer));
      else
        writeFloatLane(b.lane0(op->r + i * eb) + size_t(l) * 8, s.element, r.value, s.flush);
    }
  return op + 1;
}

// nan(nancode): a quiet NaN (OpenCL C 3.0 §6.15.2 [[math-functions]] "Returns a quiet NaN. The nancode may be
// placed in the significand of the resulting NaN"): choice nan_payload puts the code's low bits
// in the significand below the quiet bit, or gives the default quiet NaN.
template <class T, class C> const Op* nanLanes(WorkItem& wi, const Op* op) {
  const bool payload = choicesOf(wi).get<numerics::Choice::NanPayload>() == numerics::NanPayloadOption::Significand;
  for (uint32_t i = 0; i < op->n; ++i) {
    if (rd<C>(wi, op->a + i * sizeof(C)) != 0)
      noteChoice(wi, op, numerics::Choice::NanPayload, "nan(nancode) with a nonzero code");
    constexpr auto format = std::is_same_v<T, Half>    ? numerics::Format::Half
                            : std::is_same_v<T, float> ? numerics::Format::Float
                                                       : numerics::Format::Double;
    const uint64_t bits = numerics::quietNanBits(format, uint64_t(rd<C>(wi, op->a + i * sizeof(C))), payload);
    if constexpr (std::is_same_v<T, Half>)
      wr<Half>(wi, op->r + 2 * i, Half{uint16_t(bits)});
    else if constexpr (std::is_same_v<T, float>)
      wr<uint32_t>(wi, op->r + 4 * i, uint32_t(bits));
    else
      wr<uint64_t>(wi, op->r + 8 * i, bits);
  }
  return op + 1;
}

ArgKind intKind(const Lowerer& L, uint32_t typeId, bool isSigned) {
  return sizeOf(L.scalarOf(typeId)) == 8 ? ArgKind::Int64 : isSigned ? ArgKind::Int32 : ArgKind::UInt32;
}

// Geometric functions (OpenCL C 3.0 §6.15.5 [[geometric-functions]]; OpenCL.std 104–110): each component the correctly
// rounded exact value (numerics/geometric.hpp). fast_* are evaluated exactly too — the
// reference value their looser bound is measured against. n = operand lanes, imm = function.
using Geo = numerics::OpenClStd;  // generated from the SPIR-V grammar

template <class T, bool FTZ> const Op* geometric(WorkItem& wi, const Op* op) {
  constexpr auto format = std::is_same_v<T, Half>    ? numerics::Format::Half
                          : std::is_same_v<T, float> ? numerics::Format::Float
                                                     : numerics::Format::Double;
  double a[4] = {}, b[4] = {}, out[4] = {};
  const uint32_t n = op->n;
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = toD(ftz<FTZ>(rd<T>(wi, op->a + i * sizeof(T))));
    if (op->b != op->a) b[i] = toD(ftz<FTZ>(rd<T>(wi, op->b + i * sizeof(T))));
  }
  switch (Geo(op->imm)) {
    case Geo::cross:
      numerics::crossExact({a, 3}, {b, 3}, {out, 3}, format);
      for (uint32_t i = 0; i < n; ++i) wr<T>(wi, op->r + i * sizeof(T), ftz<FTZ>(fromD<T>(i < 3 ? out[i] : 0.0)));
      return op + 1;
    case Geo::distance:
    case Geo::fast_distance:
      wr<T>(wi, op->r, ftz<FTZ>(fromD<T>(numerics::distanceExact({a, n}, {b, n}, format))));
      return op + 1;
    case Geo::length:
    case Geo::fast_length: wr<T>(wi, op->r, ftz<FTZ>(fromD<T>(numerics::lengthExact({a, n}, format)))); return op + 1;
    case Geo::normalize:
    case Geo::fast_normalize:
      numerics::normalizeExact({a, n}, {out, n}, format);
      for (uint32_t i = 0; i < n; ++i) wr<T>(wi, op->r + i * sizeof(T), ftz<FTZ>(fromD<T>(out[i])));
      return op + 1;
    default: break;  // lowerMath emits this handler for the geometric functions only
  }
  return op + 1;
}

}  // namespace

bool lowerMath(Lowerer& L, const Instruction& inst) {
  const uint32_t code = inst.operand(1);
  if (code >= uint32_t(Geo::cross) && code <= uint32_t(Geo::fast_normalize)) {
    const uint32_t operandType = L.typeIdOfValue(inst.operand(2));
    Op& op = L.emit(
        withFloatFtz(L, L.scalarOf(operandType), [&]<class T, bool Z>() -> Handler { return &geometric<T, Z>; }), inst);
    op.r = L.reg(inst.resultId);
    op.a = L.reg(inst.operand(2));
    op.b = inst.operandCount() > 3 ? L.reg(inst.operand(3)) : op.a;
    op.n = L.lanes(operandType);
    op.imm = code;
    return true;
  }
  if (code > 103) return false;
  const auto fn = MathFn(code);
  const uint32_t t = inst.resultType;
  if (fn == MathFn::nan) {
    Handler h = withFloat(L.scalarOf(t), [&]<class T>() {
      return withInt(L.scalarOf(L.typeIdOfValue(inst.operand(2))),
                     [&]<class C>() -> Handler { return &nanLanes<T, C>; });
    });
    Op& op = L.emit(h, inst);
    op.r = L.reg(inst.resultId);
    op.a = L.reg(inst.operand(2));
    op.n = L.lanes(t);
    return true;
  }
  auto spec = std::make_shared<MathSpec>();
  spec->fn = fn;
  spec->lanes = L.lanes(t);
  spec->choices = L.opt.choices;
  spec->resultIsInt = fn == MathFn::ilogb;
  const uint32_t floatType = spec->resultIsInt ? L.typeIdOfValue(inst.operand(2)) : t;
  spec->element = L.scalarOf(floatType);
  spec->format = numerics::floatFormat(spec->element);
  spec->flush = L.flush(spec->element);
  // Operands after (set, instruction); the pointer of a two-result function comes last.
  size_t valueOperands = inst.operandCount() - 2;
  switch (fn) {
    case MathFn::fract:
    case MathFn::modf:
    case MathFn::sincos: spec->second = SecondOutput::FloatSecond; break;
    case MathFn::frexp:
    case MathFn::lgamma_r:
    case MathFn::remquo: spec->second = SecondOutput::IntInteger; break;
    default: break;
  }
  if (spec->second != SecondOutput::None) {
    --valueOperands;
    const uint32_t ptr = inst.operand(2 + valueOperands);
    spec->pointerReg = L.reg(ptr);
    const Type& pointee = L.type(L.typeOfValue(ptr).element);
    spec->pointerAlign = pointee.kind == TypeKind::Vector ? uint32_t(L.type(pointee.element).size) : pointee.align;
  }
  for (size_t k = 0; k < valueOperands; ++k) {
    const uint32_t id = inst.operand(2 + k);
    const uint32_t ty = L.typeIdOfValue(id);
    ArgSpec a;
    a.reg = L.reg(id);
    const bool vector = L.type(ty).kind == TypeKind::Vector;
    const ScalarType s = L.scalarOf(ty);
    // pown/rootn/ldexp take a signed int count (OpenCL C 3.0 §6.15.2 [[math-functions]]).
    a.kind = numerics::isFloat(s) ? ArgKind::Float : intKind(L, ty, true);
    a.stride = vector ? sizeOf(s) : 0;
    spec->args.push_back(a);
  }
  if (spec->args.size() != size_t(numerics::arity(fn)))
    L.reject(inst, std::string(numerics::nameOf(fn)) + " with " + std::to_string(spec->args.size()) + " operands");
  Op& op = L.emit(laneForm<&mathLanes, &mathOnLanes>(), inst);
  op.r = L.reg(inst.resultId);
  op.n = spec->lanes;
  op.aux = spec.get();
  L.k.auxObjects.push_back(std::move(spec));
  return true;
}


// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

namespace {

// The operands after (set, instruction).
std::vector<uint32_t> stdOperands(const ShadowLowering& S) {
  std::vector<uint32_t> operands;
  for (size_t k = 2; k < S.inst.operandCount(); ++k) operands.push_back(S.operand(k));
  return operands;
}

// The geometric functions: numerics::allowedSetGeometric over whole vectors.
template <numerics::CoreOp Core, bool TwoOperands> void shadowGeometric(ShadowLowering& S) {
  S.geometric(Core, S.operand(2), TwoOperands ? S.operand(3) : 0);
}

// ilogb: an integer of a float, a decision when the operand's set spans more than one exponent.
void shadowIlogb(ShadowLowering& S) { S.intOfFloat(S.operand(2), "ilogb", true); }

// ---- The second result, written through the pointer operand -----------------------------------------------------
// fract (floor(x)), modf (the integral part), sincos (the cosine), frexp (the exponent), lgamma_r (the sign of Γ) and
// remquo (the quotient's low bits) store a second result per lane (OpenCL C 3.0 §6.15.2 [[math-functions]]).
struct SecondResultRule {
  MathFn fn = MathFn::sincos;
  std::vector<LaneRef> args;  // the value operands
  uint32_t lanes = 1;
  uint32_t ptr = 0;                                   // the pointer operand's register
  uint32_t bytes = 0;                                 // of the pointee (a 3-vector's holds 4 lanes, see mathLanes)
  uint8_t laneBytes = 4;                              // of one lane of the pointee
  numerics::Format format = numerics::Format::Float;  // of the float operands (and of a float second result)
};

// The operand values a device may compute with: where the format allows it a subnormal may be flushed, "the sign of
// the zero is undefined" (OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]]), as allowedSet assumes
// for the first result.
numerics::ValueSet withFlushed(numerics::ValueSet x, numerics::Format f, const ShadowRun& s) {
  if (!x.hasNumbers() || !s.verdict.flushToZero.value_or(f != numerics::Format::Double)) return x;
  const double tiny = f == numerics::Format::Half ? 0x1p-14 : f == numerics::Format::Float ? 0x1p-126 : 0x1p-1022;
  if (x.lo < tiny && x.hi > -tiny && !(x.lo == 0 && x.hi == 0)) x = hull(x, numerics::ValueSet{-0.0, 0.0, false});
  return x;
}

// frexp's exponent is one integer over the set: one value, or nonzero finite values of one sign in one binade.
bool oneFrexpExponent(const numerics::ValueSet& x) {
  if (x.isPoint()) return true;
  if (x.nan || !x.hasNumbers() || x.lo == 0 || x.hi == 0 || (x.lo > 0) != (x.hi > 0)) return false;
  return std::isfinite(x.lo) && std::isfinite(x.hi) && std::ilogb(x.lo) == std::ilogb(x.hi);
}

// Γ has one sign over the set: one value, all of (0, inf], or all inside one interval (−n−1, −n) (Γ's sign there is
// (−1)^(n+1); at zero and the negative integers lgamma_r's sign is 0, OpenCL C 3.0 §7.5.1
// [[additional-requirements-beyond-c99-tc2]]).
bool oneGammaSign(const numerics::ValueSet& x) {
  if (x.isPoint()) return true;
  if (x.nan || !x.hasNumbers()) return false;
  if (x.lo > 0) return true;
  return x.hi < 0 && std::isfinite(x.lo) && std::floor(x.lo) == std::floor(x.hi) && std::floor(x.lo) != x.lo &&
         std::floor(x.hi) != x.hi;
}

const Op* shSecondResult(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const SecondResultRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  // A choice that leaves the second result free (lgamma_sign_undefined, remquo_quotient_bits) was noted for this
  // instruction by mathLanes: consumed here, so that it reaches no later instruction.
  const bool freed = s.choiceFreedInst == op->inst;
  if (freed) s.choiceFreedInst = UINT32_MAX;
  uint8_t* p = shadowHostAddress(wi, r.ptr);
  if (const auto d = shadowOpenAddress(wi, op, r.ptr)) {
    shadowOpenAllocation(wi, r.ptr, *d);
    if (p) s.markUndetermined(p, r.bytes, r.laneBytes, *d);
    return op + 1;
  }
  if (!p) return op + 1;
  s.clear(p, r.bytes);
  s.noteWriter(p, r.bytes, op->inst);
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = p + i * r.laneBytes;
    if (freed) {
      // lgamma_r of NaN or -inf: Γ has no sign and the spec gives none (choice lgamma_sign_undefined). remquo's
      // quotient beyond seven bits: OpenCL C 3.0 §6.15.2 [[math-functions]] remquo computes "the lower seven bits of
      // the integral quotient", the bits beyond them are the implementation's (choice remquo_quotient_bits), so the
      // stored int is any value here (a superset of the ints with those seven bits). Every lane of the result.
      ShadowEntry e;
      e.set = numerics::ValueSet::all();
      e.size = r.laneBytes;
      e.format = numerics::formatOfBytes(r.laneBytes);
      e.producer = op->inst;
      s.set(out, e);
      continue;
    }
    numerics::ValueSet sets[2];
    bool points = true;
    std::optional<uint32_t> decision;
    for (size_t k = 0; k < r.args.size() && !decision; ++k) {
      const LaneValue v = shadowLaneOf(wi, r.args[k], i);
      if (v.undetermined)
        decision = shadowDecisionFor(wi, op, v, "an operand reinterprets a floating-point value that has an allowed set");
      sets[k] = v.set;
      points = points && v.set.isPoint();
    }
    if (decision) {
      s.markUndetermined(out, r.laneBytes, r.laneBytes, *decision);
      continue;
    }
    switch (r.fn) {
      case MathFn::sincos:
      case MathFn::fract:
      case MathFn::modf: {
        // sincos: OpenCL C 3.0 §7.4 [[table-ulp-float-math]] sincos "<= 4 ulp for sine and cosine values" (the
        // relaxed table: "ulp values as defined for sin(x) and cos(x)"), so the cosine has cos's row. fract stores
        // floor(x), modf the integral part trunc(x): exact values, rounded only by a flush to zero of the operand.
        const MathFn f = r.fn == MathFn::sincos ? MathFn::cos : r.fn == MathFn::fract ? MathFn::floor : MathFn::trunc;
        numerics::ValueSet set = numerics::allowedSet(f, {sets, 1}, r.format, s.profile, s.verdict);
        // -cl-finite-math-only: a NaN or an infinite operand or result makes the result any value (as shFloat).
        auto nonFinite = [](const numerics::ValueSet& v) { return v.nan || std::isinf(v.lo) || std::isinf(v.hi); };
        if (s.finiteMathOnly && (nonFinite(set) || nonFinite(sets[0]))) set = numerics::ValueSet::all();
        writeShadowLane(wi, op, out, r.laneBytes, r.format, set, shadowReadFloat(out, r.format));
        break;
      }
      case MathFn::frexp: {
        const numerics::ValueSet x = withFlushed(sets[0], r.format, s);
        if (!oneFrexpExponent(x))
          s.markUndetermined(out, 4, 4, recordShadowDecision(wi, op, "frexp's exponent of " + numerics::toString(x)));
        break;
      }
      case MathFn::lgamma_r: {
        const numerics::ValueSet x = withFlushed(sets[0], r.format, s);
        if (!oneGammaSign(x))
          s.markUndetermined(out, 4, 4, recordShadowDecision(wi, op, "lgamma_r's sign of " + numerics::toString(x)));
        break;
      }
      case MathFn::remquo: {
        if (!points) {
          s.markUndetermined(out, 4, 4, recordShadowDecision(wi, op, "remquo's quotient of operands with allowed sets"));
          break;
        }
        // Single operands: the quotient is exact, unless a device may flush a subnormal operand.
        if (!withFlushed(sets[0], r.format, s).isPoint() || !withFlushed(sets[1], r.format, s).isPoint())
          s.markUndetermined(out, 4, 4,
                             recordShadowDecision(wi, op, "remquo's quotient of a subnormal operand a device may flush"));
        break;
      }
      default: break;  // shadowMathFn emits this rule for the six functions above only
    }
  }
  return op + 1;
}

// The math and common functions: numerics::allowedSet, the accuracy tables' rule over the operands' sets; the second
// result of the functions that write one through their pointer operand: shSecondResult.
void shadowMathFn(ShadowLowering& S) {
  const std::vector<uint32_t> operands = stdOperands(S);
  const MathFn f = MathFn(S.operand(1));
  const int arity = numerics::arity(f);
  std::vector<uint32_t> values(operands.begin(), operands.begin() + std::min<size_t>(size_t(arity), operands.size()));
  S.floatRule(FloatKind::Math, values, numerics::CoreOp::None, f);
  if (int(operands.size()) <= arity) return;
  Lowerer& L = S.L;
  auto rule = std::make_shared<SecondResultRule>();
  rule->fn = f;
  for (uint32_t id : values) rule->args.push_back(S.laneRef(id));
  rule->lanes = L.lanes(S.inst.resultType);
  const uint32_t ptr = operands.back();
  const Type& pointee = L.type(L.typeOfValue(ptr).element);
  rule->ptr = L.reg(ptr);
  rule->bytes = uint32_t(pointee.size);
  rule->laneBytes = uint8_t(pointee.kind == TypeKind::Vector ? L.type(pointee.element).size : pointee.size);
  rule->format = numerics::formatOfBytes(S.laneBytes(L.typeIdOfValue(values.at(0))));
  Op& op = L.emit(&shSecondResult, S.inst);
  op.aux = rule.get();
  L.k.auxObjects.push_back(std::move(rule));
}

}  // namespace

void registerMath(DispatchTable& t) {
  using numerics::CoreOp;
  for (uint32_t n = 0; n < uint32_t(numerics::kMathFnCount); ++n) {
    if (n == uint32_t(MathFn::ilogb))
      t.openclStd({n}, {shadowIlogb});
    else if (n == uint32_t(MathFn::nan))
      t.openclStd({n}, {shadowGeneric});  // nan(code): a NaN whatever the code; any NaN is judged alike
    else
      t.openclStd({n}, {shadowMathFn});
  }
  t.openclStd({uint32_t(Geo::cross)}, {shadowGeometric<CoreOp::Cross, true>});
  t.openclStd({uint32_t(Geo::distance)}, {shadowGeometric<CoreOp::Distance, true>});
  t.openclStd({uint32_t(Geo::fast_distance)}, {shadowGeometric<CoreOp::FastDistance, true>});
  t.openclStd({uint32_t(Geo::length)}, {shadowGeometric<CoreOp::Length, false>});
  t.openclStd({uint32_t(Geo::fast_length)}, {shadowGeometric<CoreOp::FastLength, false>});
  t.openclStd({uint32_t(Geo::normalize)}, {shadowGeometric<CoreOp::Normalize, false>});
  t.openclStd({uint32_t(Geo::fast_normalize)}, {shadowGeometric<CoreOp::FastNormalize, false>});
}

}  // namespace clref::interpreter
