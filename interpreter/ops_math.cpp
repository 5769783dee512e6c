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

double readLane(const WorkItem& wi, const ArgSpec& a, uint32_t lane, ScalarType element, bool flush) {
  const uint8_t* p = wi.regs + a.reg + lane * a.stride;
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

// nan(nancode): a quiet NaN (OpenCL C 3.0 §6.15.2 [[math-functions]] "Returns a quiet NaN. The nancode may be
// placed in the significand of the resulting NaN"): choice nan_payload puts the code's low bits
// in the significand below the quiet bit, or gives the default quiet NaN.
template <class T, class C> const Op* nanLanes(WorkItem& wi, const Op* op) {
  const bool payload = choicesOf(wi).get<numerics::Choice::NanPayload>() == numerics::NanPayloadOption::Significand;
  for (uint32_t i = 0; i < op->n; ++i) {
    if (rd<C>(wi, op->a + i * sizeof(C)) != 0)
      noteChoice(wi, op, numerics::Choice::NanPayload, "nan(nancode) with a nonzero code");
    const uint64_t code = payload ? uint64_t(rd<C>(wi, op->a + i * sizeof(C))) : 0;
    if constexpr (std::is_same_v<T, Half>)
      wr<Half>(wi, op->r + 2 * i, Half{uint16_t(0x7e00 | (code & 0x1ff))});
    else if constexpr (std::is_same_v<T, float>)
      wr<uint32_t>(wi, op->r + 4 * i, uint32_t(0x7fc00000u | (code & 0x3fffff)));
    else
      wr<uint64_t>(wi, op->r + 8 * i, 0x7ff8000000000000ull | (code & 0x7ffffffffffffull));
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
  Op& op = L.emit(&mathLanes, inst);
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

// The math and common functions: numerics::allowedSet, the accuracy tables' rule over the operands' sets.
void shadowMathFn(ShadowLowering& S) {
  const std::vector<uint32_t> operands = stdOperands(S);
  const MathFn f = MathFn(S.operand(1));
  const int arity = numerics::arity(f);
  std::vector<uint32_t> values(operands.begin(), operands.begin() + std::min<size_t>(size_t(arity), operands.size()));
  S.floatRule(FloatKind::Math, values, numerics::CoreOp::None, f);
  if (int(operands.size()) <= arity) return;
  // The second result through the pointer (fract, frexp, modf, remquo, sincos, lgamma_r): another device may
  // store any of the values the rule allows; clref marks it "any value" when the operands have sets, and the
  // cosine of sincos always (its own ulp bound), else exact.
  Lowerer& L = S.L;
  Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
    ShadowRun& s = *wi.shadow;
    uint8_t* p = shadowHostAddress(wi, op->a);
    if (!p) return op + 1;
    const bool any = s.anyIn(wi.regs + op->b, op->c) || op->imm;
    if (!any) {
      s.clear(p, op->n);
      return op + 1;
    }
    for (uint32_t off = 0; off < op->n; off += op->align) {
      ShadowEntry e;
      e.set = numerics::ValueSet::all();
      e.size = uint8_t(op->align);
      e.format = numerics::formatOfBytes(op->align);
      s.set(p + off, e);
    }
    return op + 1;
  }, S.inst);
  const uint32_t ptr = operands.back();
  const Type& pointee = L.type(L.typeOfValue(ptr).element);
  op.a = L.reg(ptr);
  op.b = L.reg(operands[0]);
  op.c = uint32_t(L.typeOfValue(operands[0]).size);
  op.n = uint32_t(pointee.size);
  op.align = pointee.kind == TypeKind::Vector ? uint32_t(L.type(pointee.element).size) : uint32_t(pointee.size);
  op.imm = f == MathFn::sincos ? 1 : 0;
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
