// Vulkan's formula-defined precision in the shadow mode (shadow_vulkan.hpp): each formula evaluated over allowed sets,
// one step at a time, each step's set from its own Vulkan row (numerics::allowedSet with Profile::Vulkan), and the
// "Inherited From" rule applied to the formula's range.
#include "interpreter/shadow_vulkan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "interpreter/ops_common.hpp"
#include "numerics/mpfr_round.hpp"
#include "numerics/summation.hpp"

namespace clref::interpreter {
namespace {

using numerics::CoreOp;
using numerics::Format;
using numerics::MathFn;
using numerics::ValueSet;
using Sets = std::vector<ValueSet>;

ValueSet negated(const ValueSet& v) { return {-v.hi, -v.lo, v.nan}; }
bool finite(const ValueSet& v) { return !v.nan && (!v.hasNumbers() || (std::isfinite(v.lo) && std::isfinite(v.hi))); }

// A function that is nondecreasing over the numbers (floor, trunc, sign, …): its values at the ends.
template <class F> ValueSet monotone(const ValueSet& v, F f) {
  if (!v.hasNumbers()) return v;
  return {f(v.lo), f(v.hi), v.nan};
}

// Whether a set holds a denormal of format f (a value 0 < |v| < the smallest normal).
bool hasDenormal(const ValueSet& v, Format f) {
  const double minNormal = f == Format::Half ? 0x1p-14 : f == Format::Float ? 0x1p-126 : 0x1p-1022;
  return v.hasNumbers() && v.lo < minNormal && v.hi > -minNormal && !(v.lo == 0 && v.hi == 0);
}

// Both zeros where a set holds a zero (a sign of zero the rules leave free).
ValueSet bothZeros(ValueSet v) {
  if (!v.hasNumbers() || v.lo > 0 || v.hi < 0) return v;
  v.lo = std::min(v.lo, -0.0);
  if (v.lo == 0) v.lo = -0.0;
  if (v.hi == 0) v.hi = 0.0;
  return v;
}

// Vulkan §A.4.2 [external] [[spirvenv-inherited-from]]: "If NaN is one of the permitted values then the operation may
// return any result, otherwise let the largest permitted value in any of the ranges be Fmax and the smallest be Fmin.
// The operation must: return a value in the range [x - E, x + E] where E = max(|x - Fmin|, |x - Fmax|)." x is the
// exact result, known here only to lie in X (an enclosure of the exact results over the operand tuples). Every step's
// permitted set contains its exact result (it holds the correctly rounded neighbours on both sides of it), so by
// induction F = [Fmin, Fmax] contains x, and so does X ⊆ F. Over x in X, x − E = min(Fmin, 2x − Fmax) and
// x + E = max(Fmax, 2x − Fmin), so the union of the ranges is [min(Fmin, 2·X.lo − Fmax), max(Fmax, 2·X.hi − Fmin)];
// with X = F (operand ranges: the exact result is anywhere in F) that is F widened by its width on both sides.
// Computed exactly and rounded outward to the format.
ValueSet inheritedSet(const ValueSet& F, const ValueSet& X, Format f) {
  if (F.nan) return ValueSet::all();
  if (!F.hasNumbers()) return F;
  if (!std::isfinite(F.lo) || !std::isfinite(F.hi)) return ValueSet::all();
  numerics::Mpfr t(2400), u(2400);
  mpfr_set_d(t, X.lo, MPFR_RNDN);
  mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
  mpfr_sub_d(t, t, F.hi, MPFR_RNDN);  // exact at this precision
  const double lo = std::min(F.lo, numerics::roundToDouble(t, f, numerics::Rounding::RTN));
  mpfr_set_d(u, X.hi, MPFR_RNDN);
  mpfr_mul_2ui(u, u, 1, MPFR_RNDN);
  mpfr_sub_d(u, u, F.lo, MPFR_RNDN);
  const double hi = std::max(F.hi, numerics::roundToDouble(u, f, numerics::Rounding::RTP));
  ValueSet r{lo, hi, false};
  // A range around x that holds 0 holds both zeros (the range's numbers; the sign of zero is no number).
  return lo < hi ? bothZeros(r) : F;
}

// The steps of a formula, each with the allowed set of its own Vulkan row over its operands' sets.
struct Steps {
  Format f;
  numerics::VerdictOptions o;

  ValueSet core(CoreOp op, const ValueSet& a, const ValueSet& b) const {
    const ValueSet s[2] = {a, b};
    return numerics::allowedSetCore(op, s, f, numerics::Profile::Vulkan, o);
  }
  ValueSet add(const ValueSet& a, const ValueSet& b) const { return core(CoreOp::Add, a, b); }
  ValueSet sub(const ValueSet& a, const ValueSet& b) const { return core(CoreOp::Sub, a, b); }
  ValueSet mul(const ValueSet& a, const ValueSet& b) const { return core(CoreOp::Mul, a, b); }
  ValueSet div(const ValueSet& a, const ValueSet& b) const { return core(CoreOp::Div, a, b); }
  ValueSet fn(MathFn g, const ValueSet& a) const {
    return numerics::allowedSet(g, {&a, 1}, f, numerics::Profile::Vulkan, o);
  }
  ValueSet fn(MathFn g, const ValueSet& a, const ValueSet& b) const {
    const ValueSet s[2] = {a, b};
    return numerics::allowedSet(g, s, f, numerics::Profile::Vulkan, o);
  }
  static ValueSet c(double v) { return ValueSet::point(v); }
  // Correctly rounded: the declared rounding mode's result, or either neighbour (implementation-defined rounding).
  ValueSet rounded(const ValueSet& exact) const {
    const bool ftz = o.flushToZero.value_or(f != Format::Double);
    if (o.rounding) return numerics::roundSet(exact, f, *o.rounding, ftz);
    return hull(numerics::roundSet(exact, f, numerics::Rounding::RTN, ftz),
                numerics::roundSet(exact, f, numerics::Rounding::RTP, ftz));
  }
  // GLSL.std.450 sqrt "Inherited from 1.0 / inversesqrt()": the formula's range, and as a step of another formula
  // ("GLSL.std.450 extended instructions specifically defined in terms of the above instructions inherit the above
  // errors") its inherited set.
  ValueSet sqrtRange(const ValueSet& x) const { return div(c(1.0), fn(MathFn::rsqrt, x)); }
  ValueSet sqrt(const ValueSet& x) const {
    const ValueSet F = sqrtRange(x);
    return inheritedSet(F, F, f);
  }
  // Σ x_k × y_k, the sum in any order (the formula "may be transformed using the mathematical associativity,
  // commutativity, and distributivity"): the products' sets summed by the any-order enclosure (numerics/summation.hpp).
  ValueSet dot(const Sets& x, const Sets& y) const {
    Sets terms;
    for (size_t k = 0; k < x.size(); ++k) terms.push_back(mul(x[k], y[k]));
    return numerics::allowedSetOfSum(terms, f, numerics::Profile::Vulkan, o);
  }
  ValueSet clamp(const ValueSet& x, double lo, double hi) const {
    return monotone(x, [&](double v) { return std::clamp(v, lo, hi); });
  }
};

ValueSet sinhRange(const Steps& A, const ValueSet& x) {
  return A.mul(A.sub(A.fn(MathFn::exp, x), A.fn(MathFn::exp, negated(x))), Steps::c(0.5));
}
ValueSet coshRange(const Steps& A, const ValueSet& x) {
  return A.mul(A.add(A.fn(MathFn::exp, x), A.fn(MathFn::exp, negated(x))), Steps::c(0.5));
}

double roundHalfEven(double v) { return std::nearbyint(v); }  // the host's mode is round to nearest even
double signOf(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; }

struct RuleData {
  VulkanFormula formula = VulkanFormula::Fma;
  std::vector<LaneRef> args;
  std::vector<uint32_t> components;  // per operand (1 for a scalar)
  uint32_t lanes = 1;
  uint8_t bytes = 4;
  Format format = Format::Float;
  bool exactReference = false, preserving = false;
  SumOfProductsShape shape;
};

bool isInherited(VulkanFormula f) { return f <= VulkanFormula::SumOfProducts; }
bool componentWise(VulkanFormula f) {
  switch (f) {
    case VulkanFormula::Length:
    case VulkanFormula::Distance:
    case VulkanFormula::Cross:
    case VulkanFormula::Normalize:
    case VulkanFormula::FaceForward:
    case VulkanFormula::Reflect:
    case VulkanFormula::Refract:
    case VulkanFormula::SumOfProducts: return false;
    default: return true;
  }
}

// The formula's range F for result lane i (for a correctly rounded or correct-result function: its allowed set).
ValueSet formulaRange(const RuleData& r, const Steps& A, const std::vector<Sets>& in, uint32_t i) {
  auto x = [&](size_t k) -> const ValueSet& { return in[k].size() == 1 ? in[k][0] : in[k][i]; };
  const ValueSet one = Steps::c(1.0);
  switch (r.formula) {
    // GLSL.std.450 table [[precision-of-glsl-std-450-instructions]] (Vulkan §A.4.2 [external]), row by row.
    case VulkanFormula::Fma: return A.add(A.mul(x(0), x(1)), x(2));  // "OpFMul followed by OpFAdd"
    case VulkanFormula::Pow: return A.fn(MathFn::exp2, A.mul(x(1), A.fn(MathFn::log2, x(0))));  // exp2(y × log2(x))
    case VulkanFormula::Sqrt: return A.sqrtRange(x(0));
    case VulkanFormula::Radians:
    case VulkanFormula::Degrees: {
      // x × C, C "a correctly rounded approximation to" π/180 (180/π).
      const double unit = 1.0;
      const MathFn g = r.formula == VulkanFormula::Radians ? MathFn::radians : MathFn::degrees;
      return A.mul(x(0), Steps::c(numerics::evaluate(g, {&unit, 1}, r.format).value));
    }
    case VulkanFormula::Tan: return A.div(A.fn(MathFn::sin, x(0)), A.fn(MathFn::cos, x(0)));  // sin() / cos()
    case VulkanFormula::Asin:  // atan2(x, sqrt(1.0 − x × x))
      return A.fn(MathFn::atan2, x(0), A.sqrt(A.sub(one, A.mul(x(0), x(0)))));
    case VulkanFormula::Acos:  // atan2(sqrt(1.0 − x × x), x)
      return A.fn(MathFn::atan2, A.sqrt(A.sub(one, A.mul(x(0), x(0)))), x(0));
    case VulkanFormula::Sinh: return sinhRange(A, x(0));  // (exp(x) − exp(−x)) × 0.5
    case VulkanFormula::Cosh: return coshRange(A, x(0));  // (exp(x) + exp(−x)) × 0.5
    case VulkanFormula::Tanh: {                           // sinh() / cosh(), each with its inherited set
      const ValueSet s = sinhRange(A, x(0)), c = coshRange(A, x(0));
      return A.div(inheritedSet(s, s, r.format), inheritedSet(c, c, r.format));
    }
    case VulkanFormula::Asinh:  // log(x + sqrt(x × x + 1.0))
      return A.fn(MathFn::log, A.add(x(0), A.sqrt(A.add(A.mul(x(0), x(0)), one))));
    case VulkanFormula::Acosh:  // log(x + sqrt(x × x − 1.0))
      return A.fn(MathFn::log, A.add(x(0), A.sqrt(A.sub(A.mul(x(0), x(0)), one))));
    case VulkanFormula::Atanh:  // log((1.0 + x) / (1.0 − x)) × 0.5
      return A.mul(A.fn(MathFn::log, A.div(A.add(one, x(0)), A.sub(one, x(0)))), Steps::c(0.5));
    case VulkanFormula::FMix:  // x × (1.0 − a) + y × a
      return A.add(A.mul(x(0), A.sub(one, x(2))), A.mul(x(1), x(2)));
    case VulkanFormula::SmoothStep: {  // t × t × (3.0 − 2.0 × t), t = clamp((x − edge0) / (edge1 − edge0), 0.0, 1.0)
      const ValueSet t = A.clamp(A.div(A.sub(x(2), x(0)), A.sub(x(1), x(0))), 0.0, 1.0);
      return A.mul(A.mul(t, t), A.sub(Steps::c(3.0), A.mul(Steps::c(2.0), t)));
    }
    case VulkanFormula::Length: return A.sqrt(A.dot(in[0], in[0]));  // sqrt(dot(x, x))
    case VulkanFormula::Distance: {                                  // length(x − y)
      Sets d;
      for (size_t k = 0; k < in[0].size(); ++k) d.push_back(A.sub(in[0][k], in[1][k]));
      return A.sqrt(A.dot(d, d));
    }
    case VulkanFormula::Cross: {  // OpFSub(OpFMul, OpFMul)
      static constexpr uint32_t a[3] = {1, 2, 0}, b[3] = {2, 0, 1};
      return A.sub(A.mul(in[0][a[i]], in[1][b[i]]), A.mul(in[1][a[i]], in[0][b[i]]));
    }
    case VulkanFormula::Normalize:  // x × inversesqrt(dot(x, x))
      return A.mul(in[0][i], A.fn(MathFn::rsqrt, A.dot(in[0], in[0])));
    case VulkanFormula::FaceForward: {  // dot(NRef, I) < 0.0 ? N : −N: each outcome the dot's set allows
      const ValueSet d = A.dot(in[2], in[1]);
      if (d.nan) return ValueSet::all();
      ValueSet out;
      if (d.hasNumbers() && d.lo < 0) out = hull(out, in[0][i]);
      if (d.hasNumbers() && d.hi >= 0) out = hull(out, negated(in[0][i]));
      return out;
    }
    case VulkanFormula::Reflect: {  // x − 2.0 × dot(y, x) × y
      const ValueSet d = A.mul(Steps::c(2.0), A.dot(in[1], in[0]));
      return A.sub(in[0][i], A.mul(d, in[1][i]));
    }
    case VulkanFormula::Refract: {
      // k < 0.0 ? 0.0 : eta × I − (eta × dot(N, I) + sqrt(k)) × N, k = 1 − eta × eta × (1.0 − dot(N, I) × dot(N, I))
      const ValueSet& eta = in[2][0];
      const ValueSet d = A.dot(in[1], in[0]);
      const ValueSet k = A.sub(one, A.mul(A.mul(eta, eta), A.sub(one, A.mul(d, d))));
      if (k.nan) return ValueSet::all();
      ValueSet out;
      if (k.hasNumbers() && k.lo < 0) out = hull(out, Steps::c(0.0));
      if (k.hasNumbers() && k.hi >= 0) {
        const ValueSet kk{std::max(k.lo, 0.0), k.hi, false};
        out = hull(out, A.sub(A.mul(eta, in[0][i]), A.mul(A.add(A.mul(eta, d), A.sqrt(kk)), in[1][i])));
      }
      return out;
    }
    // The core table [[spirvenv-precision-core-table]]: OpFRem "Inherited from x − y × trunc(x/y)", OpFMod from
    // x − y × floor(x/y) (its NOTE: "FMod(x,x) computing x rather than 0").
    case VulkanFormula::FRem:
    case VulkanFormula::FMod: {
      const ValueSet q = A.div(x(0), x(1));
      const ValueSet w = r.formula == VulkanFormula::FRem ? monotone(q, [](double v) { return std::trunc(v); })
                                                          : monotone(q, [](double v) { return std::floor(v); });
      return A.sub(x(0), A.mul(x(1), w));
    }
    case VulkanFormula::SumOfProducts: {  // OpDot, OpMatrixTimes*: Σ a × b
      const SumOfProductsShape& s = r.shape;
      const uint32_t row = i % s.rows, col = i / s.rows;
      Sets a, b;
      for (uint32_t k = 0; k < s.depth; ++k) {
        a.push_back(in[0][row * s.aRow + k * s.aK]);
        b.push_back(in[1][k * s.bK + col * s.bCol]);
      }
      return A.dot(a, b);
    }
    // Correctly rounded, or the correct result: exact functions of their operands, so their values at the ends of
    // the operand ranges (round, roundEven, trunc, floor, ceil, fsign are nondecreasing).
    case VulkanFormula::Round:  // GLSL.std.450 §2 [external] Round: ".5 will round in a direction chosen by the
                                // implementation"
      return hull(monotone(x(0), [](double v) { return std::round(v); }), monotone(x(0), roundHalfEven));
    case VulkanFormula::RoundEven: return monotone(x(0), roundHalfEven);
    case VulkanFormula::Trunc: return monotone(x(0), [](double v) { return std::trunc(v); });
    case VulkanFormula::Floor: return monotone(x(0), [](double v) { return std::floor(v); });
    case VulkanFormula::Ceil: return monotone(x(0), [](double v) { return std::ceil(v); });
    case VulkanFormula::FSign: return monotone(x(0), signOf);
    case VulkanFormula::FAbs: {
      const ValueSet& v = x(0);
      if (!v.hasNumbers()) return v;
      if (v.lo >= 0 && !std::signbit(v.lo)) return v;
      if (v.hi <= 0 && std::signbit(v.hi)) return negated(v);
      return {0.0, std::max(-v.lo, v.hi), v.nan};
    }
    case VulkanFormula::Fract: {  // x − floor(x), correctly rounded
      const ValueSet fl = monotone(x(0), [](double v) { return std::floor(v); });
      return A.sub(x(0), fl);
    }
    case VulkanFormula::FMin:
    case VulkanFormula::FMax: {
      const ValueSet &a = x(0), &b = x(1);
      if (!a.hasNumbers() || !b.hasNumbers()) return {a.lo, a.hi, true};
      const bool mx = r.formula == VulkanFormula::FMax;
      // Equal zeros of either sign may give either (fmin(−0, +0)): both zeros where the result may be a zero.
      ValueSet out{mx ? std::max(a.lo, b.lo) : std::min(a.lo, b.lo), mx ? std::max(a.hi, b.hi) : std::min(a.hi, b.hi),
                   a.nan || b.nan};
      return bothZeros(out);
    }
    case VulkanFormula::FClamp: {  // min(max(x, minVal), maxVal), nondecreasing in each operand
      const ValueSet &v = x(0), &lo = x(1), &hi = x(2);
      if (!v.hasNumbers() || !lo.hasNumbers() || !hi.hasNumbers()) return ValueSet::all();
      ValueSet out{std::min(std::max(v.lo, lo.lo), hi.lo), std::min(std::max(v.hi, lo.hi), hi.hi),
                   v.nan || lo.nan || hi.nan};
      // Inverted bounds (minVal > maxVal) are undefined in GLSL: the other order of min and max too.
      out = hull(out, ValueSet{std::max(std::min(v.lo, hi.lo), lo.lo), std::max(std::min(v.hi, hi.hi), lo.hi), false});
      return bothZeros(out);
    }
    case VulkanFormula::Step: {  // x < edge ? 0.0 : 1.0 (operands edge, x)
      const ValueSet &edge = x(0), &v = x(1);
      if (!edge.hasNumbers() || !v.hasNumbers()) return ValueSet::all();
      ValueSet out;
      if (v.lo < edge.hi) out = hull(out, Steps::c(0.0));
      if (v.hi >= edge.lo) out = hull(out, Steps::c(1.0));
      out.nan = edge.nan || v.nan;
      return out;
    }
    case VulkanFormula::Ldexp: {  // x × 2^exp, correctly rounded
      const ValueSet& v = x(0);
      const ValueSet& e = x(1);
      if (!v.hasNumbers() || !e.hasNumbers()) return ValueSet::all();
      auto p = [](double m, double n) { return std::ldexp(m, int(std::clamp(n, -4000.0, 4000.0))); };
      const std::array<double, 4> c = {p(v.lo, e.lo), p(v.lo, e.hi), p(v.hi, e.lo), p(v.hi, e.hi)};
      ValueSet exact{*std::min_element(c.begin(), c.end()), *std::max_element(c.begin(), c.end()), v.nan};
      if (exact.lo == 0 && std::signbit(v.lo)) exact.lo = -0.0;
      return A.rounded(exact);
    }
  }
  return ValueSet::all();
}

// x correctly rounded to even is clref's value `ref` of format f: x is within half a gap of it (a gap below or
// above; at a power of two the gap above is twice the one below). A subnormal or zero `ref` may be a flushed result:
// x is then within the smallest normal number of it.
ValueSet bracketOf(double ref, Format f, double minNormal) {
  if (std::fabs(ref) < minNormal) return {ref - minNormal, ref + minNormal, false};
  const double u = numerics::ulpOf(ref, f);
  int e = 0;
  const bool power = std::frexp(std::fabs(ref), &e) == 0.5;
  const double below = power && ref > 0 ? u / 2 : power ? u : u / 2;
  const double above = power && ref < 0 ? u / 2 : power ? u : u / 2;
  return {ref - below, ref + above, false};
}

// The exact Σ a × b of single operand values, between its neighbours in binary64 (the products are exact at 2·53
// bits, the sum of four of them at the precision below, whatever their exponents).
ValueSet exactSumOfProducts(const SumOfProductsShape& s, const std::vector<Sets>& in, uint32_t i) {
  const uint32_t row = i % s.rows, col = i / s.rows;
  numerics::Mpfr sum(4400), product(4400);
  mpfr_set_zero(sum, 1);
  for (uint32_t k = 0; k < s.depth; ++k) {
    mpfr_set_d(product, in[0][row * s.aRow + k * s.aK].lo, MPFR_RNDN);
    mpfr_mul_d(product, product, in[1][k * s.bK + col * s.bCol].lo, MPFR_RNDN);
    mpfr_add(sum, sum, product, MPFR_RNDN);
  }
  return {mpfr_get_d(sum, MPFR_RNDD), mpfr_get_d(sum, MPFR_RNDU), false};
}

// What a lane's allowed set depends on besides its operands: the run's freedoms for the result's format.
struct LaneFreedoms {
  numerics::VerdictOptions options;
  bool assumesFinite = false;  // NotNaN, NotInf (shadow.hpp assumesFinite)
  bool anyZeroSign = false;    // NSZ
};

double minNormalOf(Format f) { return f == Format::Half ? 0x1p-14 : f == Format::Float ? 0x1p-126 : 0x1p-1022; }

// A float operand's set as the rule sees it: Vulkan §A.4 [external]: "any denormalized floating-point value input
// into a shader or potentially generated by any instruction ... may: be flushed to zero" unless DenormPreserve: a
// denormal operand may be a zero.
ValueSet operandSet(ValueSet set, Format f, const numerics::VerdictOptions& o) {
  if (hasDenormal(set, f) && o.flushToZero.value_or(false)) set = hull(set, ValueSet{-0.0, 0.0, false});
  return set;
}

// The allowed set of result lane i of rule r: its operands' sets `in` (`points`: each a single value), clref's value
// `reference`, `nonFinite`: a float operand of the lane is a NaN or an infinity.
ValueSet laneSet(const RuleData& r, const std::vector<Sets>& in, uint32_t i, bool points, double reference,
                 bool nonFinite, const LaneFreedoms& fr) {
  const Steps A{r.format, fr.options};
  const ValueSet F = formulaRange(r, A, in, i);
  ValueSet set = F;
  if (isInherited(r.formula)) {
    ValueSet X = F;
    if (points && r.formula == VulkanFormula::SumOfProducts) {
      X = exactSumOfProducts(r.shape, in, i);
    } else if (r.exactReference && points && std::isfinite(reference)) {
      X = bracketOf(reference, r.format, minNormalOf(r.format));
    }
    const ValueSet both{std::max(X.lo, F.lo), std::min(X.hi, F.hi), false};
    X = both.hasNumbers() ? both : F;
    set = inheritedSet(F, X, r.format);
  }
  // ... and a denormal result may be flushed, for these rules' own results too (the correct-result functions).
  if (hasDenormal(set, r.format) && A.o.flushToZero.value_or(false)) set = hull(set, ValueSet{-0.0, 0.0, false});
  // NotNaN, NotInf (shadow.hpp assumesFinite): a NaN or an infinity among the operands or the permitted results.
  if (fr.assumesFinite && (nonFinite || !finite(F) || !finite(set))) set = ValueSet::all();
  if (fr.anyZeroSign) set = bothZeros(set);
  return set;
}

const Op* shVulkan(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const RuleData*>(op->aux);
  ShadowRun& s = *wi.shadow;
  std::vector<Sets> in(r.args.size());
  std::optional<uint32_t> decision;
  bool points = true;
  for (size_t k = 0; k < r.args.size(); ++k)
    for (uint32_t c = 0; c < r.components[k]; ++c) {
      const LaneValue v = shadowLaneOf(wi, r.args[k], c);
      if (v.undetermined && !decision)
        decision =
            shadowDecisionFor(wi, op, v, "an operand reinterprets a floating-point value that has an allowed set");
      const ValueSet set = r.args[k].kind == LaneKind::Float
                               ? operandSet(v.set, r.args[k].format, s.verdictFor(r.args[k].format))
                               : v.set;
      in[k].push_back(set);
      points = points && set.isPoint();
    }
  // Whether a float operand of result lane i is a NaN or infinite: its own components for a component-wise formula,
  // every component for a formula of whole vectors.
  auto nonFiniteFor = [&](uint32_t i) {
    for (size_t k = 0; k < r.args.size(); ++k) {
      if (r.args[k].kind != LaneKind::Float) continue;
      if (componentWise(r.formula) && in[k].size() > 1) {
        if (!finite(in[k][i])) return true;
      } else {
        for (const ValueSet& v : in[k])
          if (!finite(v)) return true;
      }
    }
    return false;
  };
  const LaneFreedoms fr{s.verdictFor(r.format), s.assumesFinite(r.format, r.preserving),
                        s.anyZeroSign(r.format, r.preserving)};
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* out = wi.regs + op->r + i * r.bytes;
    if (decision) {
      s.markUndetermined(out, r.bytes, r.bytes, *decision);
      continue;
    }
    const double reference = shadowReadFloat(out, r.format);
    const ValueSet set = laneSet(r, in, i, points, reference, fr.assumesFinite && nonFiniteFor(i), fr);
    writeShadowLane(wi, op, out, r.bytes, r.format, set, reference);
  }
  return op + 1;
}

Op& emitRule(ShadowLowering& S, std::unique_ptr<RuleData> rule) {
  Op& op = S.L.emit(&shVulkan, S.inst);
  op.r = S.L.reg(S.inst.resultId);
  op.aux = rule.get();
  S.L.k.auxObjects.push_back(std::shared_ptr<const void>(std::move(rule)));
  return op;
}

}  // namespace

void vulkanRule(ShadowLowering& S, VulkanFormula formula, std::vector<uint32_t> operands, bool exactReference,
                bool preserving) {
  auto rule = std::make_unique<RuleData>();
  rule->formula = formula;
  rule->bytes = uint8_t(S.laneBytes(S.inst.resultType));
  rule->format = numerics::formatOfBytes(rule->bytes);
  rule->lanes = S.L.lanes(S.inst.resultType);
  rule->exactReference = exactReference;
  rule->preserving = preserving;
  for (uint32_t id : operands) {
    rule->args.push_back(S.laneRef(id));
    rule->components.push_back(S.L.lanes(S.L.typeIdOfValue(id)));
  }
  emitRule(S, std::move(rule));
}

numerics::ValueSet vulkanScalarSet(VulkanFormula formula, std::span<const double> operands, uint32_t integer,
                                   numerics::Format format, const numerics::VerdictOptions& options,
                                   bool exactReference, double reference) {
  RuleData r;
  r.formula = formula;
  r.format = format;
  r.exactReference = exactReference;
  std::vector<Sets> in;
  bool points = true, nonFinite = false;
  for (size_t k = 0; k < operands.size(); ++k) {
    const bool isFloat = ((integer >> k) & 1) == 0;
    const ValueSet set = isFloat ? operandSet(ValueSet::point(operands[k]), format, options)
                                 : ValueSet::point(operands[k]);
    nonFinite = nonFinite || (isFloat && !finite(set));
    in.push_back({set});
    points = points && set.isPoint();
  }
  // A shader without SignedZeroInfNanPreserve, and an instruction that would not respect it anyway (vulkanRule's
  // `preserving` false): ShadowRun::assumesFinite and anyZeroSign are both true.
  const LaneFreedoms fr{options, true, true};
  return laneSet(r, in, 0, points, reference, nonFinite, fr);
}

void vulkanSumOfProducts(ShadowLowering& S, const SumOfProductsShape& shape) {
  auto rule = std::make_unique<RuleData>();
  rule->formula = VulkanFormula::SumOfProducts;
  rule->shape = shape;
  // The component type of the result (a scalar, a vector or a matrix of them).
  const Type* t = &S.resultType();
  while (t->kind == TypeKind::Vector || t->kind == TypeKind::Matrix) t = &S.L.type(t->element);
  rule->bytes = uint8_t(t->size);
  rule->format = numerics::formatOfBytes(rule->bytes);
  rule->lanes = shape.rows * shape.cols;
  rule->preserving = true;  // OpDot and the matrix products are in the list of SignedZeroInfNanPreserve's
  for (uint32_t id : {S.operand(0), S.operand(1)}) {
    LaneRef a;
    a.reg = S.L.reg(id);
    a.bytes = rule->bytes;
    a.stride = rule->bytes;
    a.format = rule->format;
    rule->args.push_back(a);
    rule->components.push_back(uint32_t(S.L.typeOfValue(id).size / rule->bytes));
  }
  emitRule(S, std::move(rule));
}

namespace {

struct TwoResultsRule {
  LaneRef x;
  uint32_t lanes = 1;
  uint8_t bytes = 4, secondBytes = 4;
  numerics::Format format = numerics::Format::Float;
  bool frexp = false, structResult = false;
  uint32_t secondOffset = 0;  // structResult: the second member's offset in the result
  uint32_t pointer = 0;       // otherwise: the register of the pointer operand
};

const Op* shTwoResults(WorkItem& wi, const Op* op) {
  const auto& r = *static_cast<const TwoResultsRule*>(op->aux);
  ShadowRun& s = *wi.shadow;
  uint8_t* first = wi.regs + op->r;
  uint8_t* second = r.structResult ? wi.regs + op->r + r.secondOffset : shadowHostAddress(wi, r.pointer);
  // Vulkan §A.4 [external]: without SignedZeroInfNanPreserve the sign of a zero is not significant (NSZ; Modf and Frexp
  // are not among the instructions that respect the mode), and by default a denormal operand "may: be flushed".
  const bool nsz = s.anyZeroSign(r.format, false);
  const bool flush = s.verdictFor(r.format).flushToZero.value_or(false);
  for (uint32_t i = 0; i < r.lanes; ++i) {
    uint8_t* a = first + i * r.bytes;
    uint8_t* b = second ? second + i * r.secondBytes : nullptr;
    const LaneValue v = shadowLaneOf(wi, r.x, i);
    if (v.undetermined || !v.set.isPoint()) {
      const uint32_t d = v.undetermined ? shadowDecisionFor(wi, op, v, "modf or frexp of an undetermined value")
                                        : recordShadowDecision(wi, op, "modf or frexp of a value with an allowed set");
      s.markUndetermined(a, r.bytes, r.bytes, d);
      if (b) s.markUndetermined(b, r.secondBytes, r.secondBytes, d);
      continue;
    }
    const double x = v.set.lo;
    // GLSL 4.60 §8.3 [external] frexp: "If x is a floating-point NaN or infinity, the return value and exponent are
    // undefined"; and a shader without SignedZeroInfNanPreserve assumes NotNaN and NotInf (Vulkan §A.4 [external]).
    if (!std::isfinite(x) && (r.frexp || s.assumesFinite(r.format, false))) {
      shadowSetAnyValue(s, a, r.bytes, op->inst);
      if (b) shadowSetAnyValue(s, b, r.secondBytes, op->inst);
      continue;
    }
    const bool denormal = flush && x != 0 && std::fabs(x) < minNormalOf(r.format);
    const double fa = shadowReadFloat(a, r.format);
    writeShadowLane(wi, op, a, r.bytes, r.format, twoResultsFirstSet(x, fa, r.format, flush, nsz), fa);
    if (!b) continue;
    if (r.frexp) {
      if (denormal)
        s.markUndetermined(b, r.secondBytes, r.secondBytes,
                           recordShadowDecision(wi, op, "the exponent of frexp of a denormal a device may flush"));
      continue;
    }
    const double fb = shadowReadFloat(b, r.format);
    ValueSet sb = ValueSet::point(fb);
    if (denormal || nsz) sb = bothZeros(sb);
    writeShadowLane(wi, op, b, r.bytes, r.format, sb, fb);
  }
  return op + 1;
}

}  // namespace

ValueSet twoResultsFirstSet(double x, double first, Format format, bool flush, bool nsz) {
  ValueSet s = ValueSet::point(first);
  // A flushed operand is a zero: modf gives (±0, ±0), frexp (±0, 0).
  if (flush && x != 0 && std::fabs(x) < minNormalOf(format)) s = hull(s, ValueSet{-0.0, 0.0, false});
  if (nsz) s = bothZeros(s);
  return s;
}

void twoResultsRule(ShadowLowering& S, bool frexp, bool structResult) {
  const Instruction& inst = S.inst;
  auto rule = std::make_unique<TwoResultsRule>();
  const uint32_t x = inst.operand(2);
  rule->x = S.laneRef(x);
  rule->bytes = uint8_t(S.laneBytes(S.L.typeIdOfValue(x)));
  rule->format = numerics::formatOfBytes(rule->bytes);
  rule->lanes = S.L.lanes(S.L.typeIdOfValue(x));
  rule->frexp = frexp;
  rule->structResult = structResult;
  uint32_t firstOffset = 0, secondType = 0;
  if (structResult) {
    const Type& st = S.resultType();
    firstOffset = uint32_t(st.memberOffsets.at(0));
    rule->secondOffset = uint32_t(st.memberOffsets.at(1)) - firstOffset;
    secondType = st.members.at(1);
  } else {
    rule->pointer = S.L.reg(inst.operand(3));
    secondType = S.L.type(S.L.typeIdOfValue(inst.operand(3))).element;
  }
  rule->secondBytes = uint8_t(S.laneBytes(secondType));
  Op& op = S.L.emit(&shTwoResults, inst);
  op.r = S.L.reg(inst.resultId) + firstOffset;
  op.aux = rule.get();
  S.L.k.auxObjects.push_back(std::shared_ptr<const void>(std::move(rule)));
}

}  // namespace clref::interpreter
