// `clref math` for the core instructions, conversions and geometric functions (cli/math_operations.hpp).
#include "cli/math_operations.hpp"

#include <cmath>
#include <iostream>
#include <sstream>

#include "check/check.hpp"
#include "numerics/convert.hpp"
#include "numerics/dot.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/geometric.hpp"
#include "numerics/math.hpp"
#include "numerics/mpfr_round.hpp"
#include "numerics/verdict.hpp"
#include "cli/math_values.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {
namespace {

using namespace clref::numerics;

}  // namespace

Judging judgingOf(const MathCommandOptions& o) {
  Judging j{parseProfile(o.profile), {}};
  if (!o.options.empty()) {
    try {
      const auto c = host::checkOptionsFor(j.profile, o.options);
      j.profile = c.profile;
      j.verdict = c.verdict;
      j.finiteMathOnly = c.finiteMathOnly;
      j.noSignedZeros = c.noSignedZeros;
    } catch (const host::Error& e) { throw Rejected(std::string("--options: ") + e.what()); }
  }
  if (o.ftz) j.verdict.flushToZero = true;
  if (o.noFtz) j.verdict.flushToZero = false;
  return j;
}

void applyOptimizationOptions(const Judging& j, std::span<const double> args, double reference, double observed,
                              Verdict& v) {
  if (v.allowed) return;
  if (j.finiteMathOnly) {
    bool nonFinite = !std::isfinite(reference);
    for (double a : args) nonFinite = nonFinite || !std::isfinite(a);
    if (nonFinite) {
      v.allowed = true;
      v.anyValue = true;
      v.note += std::string(v.note.empty() ? "" : "; ") +
                "any value: a NaN or infinite operand or result under -cl-finite-math-only";
      return;
    }
  }
  if (j.noSignedZeros && observed == 0 && reference == 0) {
    v.allowed = true;
    v.note += std::string(v.note.empty() ? "" : "; ") + "the zero's sign is not significant under -cl-no-signed-zeros";
  }
}

namespace {

int printVerdict(bool allowed, const std::string& set, const std::string& rule, const std::string& clause,
                 Profile profile) {
  std::cout << "verdict:  " << (allowed ? "allowed" : "NOT allowed") << " (" << toString(profile) << " profile)\n";
  std::cout << "allowed:  " << set << "\n";
  if (!rule.empty()) std::cout << "rule:     " << rule << "\n";
  if (!clause.empty()) std::cout << "clause:   " << clause << "\n";
  return allowed ? 0 : kNotAllowed;
}

// ---- Core instructions -----------------------------------------------------------------------------------------

std::optional<CoreOp> coreOpNamed(const std::string& n) {
  if (n == "add" || n == "OpFAdd") return CoreOp::Add;
  if (n == "sub" || n == "OpFSub") return CoreOp::Sub;
  if (n == "mul" || n == "OpFMul") return CoreOp::Mul;
  if (n == "div" || n == "OpFDiv") return CoreOp::Div;
  if (n == "recip") return CoreOp::Recip;
  return std::nullopt;
}

// One rounding of the exact result into the format (IEEE 754-2008 §5.4.1 [external]), with its range and subnormals.
double coreResult(CoreOp op, std::span<const double> a, Format f, Rounding r) {
  Mpfr x(53), y(53), out(precisionOf(f));
  setExact(x, a[0]);
  if (a.size() > 1) setExact(y, a[1]);
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  const mpfr_rnd_t rnd = toMpfr(r);
  int t = 0;
  switch (op) {
    case CoreOp::Add: t = mpfr_add(out, x, y, rnd); break;
    case CoreOp::Sub: t = mpfr_sub(out, x, y, rnd); break;
    case CoreOp::Mul: t = mpfr_mul(out, x, y, rnd); break;
    case CoreOp::Div: t = mpfr_div(out, x, y, rnd); break;
    default: t = mpfr_ui_div(out, 1, x, rnd); break;
  }
  finishToFormat(out, t, f, r);
  return mpfr_nan_p(out) ? NAN : mpfr_get_d(out, MPFR_RNDN);
}

std::string exactCore(CoreOp op, std::span<const double> a) {
  Mpfr x(53), y(53), out(2200);  // wide enough for every exact sum and product of doubles
  setExact(x, a[0]);
  if (a.size() > 1) setExact(y, a[1]);
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  int t = 0;
  switch (op) {
    case CoreOp::Add: t = mpfr_add(out, x, y, MPFR_RNDN); break;
    case CoreOp::Sub: t = mpfr_sub(out, x, y, MPFR_RNDN); break;
    case CoreOp::Mul: t = mpfr_mul(out, x, y, MPFR_RNDN); break;
    case CoreOp::Div: t = mpfr_div(out, x, y, MPFR_RNDN); break;
    default: t = mpfr_ui_div(out, 1, x, MPFR_RNDN); break;
  }
  char buf[128];
  mpfr_snprintf(buf, sizeof buf, "%.40Rg", out.get());
  return std::string(buf) + (t == 0 ? "" : " (rounded)");
}

int runCore(const MathCommandOptions& o, const std::string& name) {
  const Format f = parseFormat(o.type);
  const Rounding r = parseRounding(o.rounding.empty() ? "rte" : o.rounding);
  const auto core = coreOpNamed(name);
  const int arity = core == CoreOp::Recip ? 1 : 2;
  if (int(o.args.size()) != arity)
    throw Rejected("math: " + name + " takes " + std::to_string(arity) + " operand" + (arity == 1 ? "" : "s"));
  std::vector<double> a;
  for (size_t i = 0; i < o.args.size(); ++i)
    a.push_back(parseValue(o.args[i], scalarTypeOf(f), "operand " + std::to_string(i + 1)));
  double result = 0;
  std::string exact;
  if (core) {
    result = coreResult(*core, a, f, r);
    exact = exactCore(*core, a);
  } else {
    // OpFRem: fmod, the sign of x (exact). OpFMod: the sign of y: fmod, then y + r where the signs differ (SPIR-V 1.0
    // §3.32.13 [external] OpFMod "the sign of a non-0 result comes from Operand 2"), one rounding.
    result = evaluate(MathFn::fmod, a, f, r).value;
    if (name == "fmod_spirv" && result != 0 && !std::isnan(result) && std::signbit(result) != std::signbit(a[1]))
      result = coreResult(CoreOp::Add, std::vector<double>{result, a[1]}, f, r);
    exact = name == "fmod_spirv" ? "" : exactDecimal(MathFn::fmod, a, f, 40);
  }
  std::cout << name << "(";
  for (size_t i = 0; i < a.size(); ++i) std::cout << (i ? ", " : "") << show(a[i], f);
  std::cout << ") in " << toString(f) << ", " << toString(r) << "\n";
  std::cout << "result:   " << show(result, f) << "\n";
  if (!exact.empty()) std::cout << "exact:    " << exact << "\n";
  if (o.check.empty()) return 0;
  const Judging j = judgingOf(o);
  const double observed = parseValue(o.check, scalarTypeOf(f), "--check");
  std::cout << "check:    " << show(observed, f) << "\n";
  if (!core) {
    if (name == "frem") {
      const Verdict v = judge(MathFn::fmod, a, observed, f, j.profile, j.verdict);
      return printVerdict(v.allowed, numerics::toString(numerics::ValueSet{v.lo, v.hi, std::isnan(v.lo)}), v.rule,
                          v.clause, j.profile);
    }
    // OpFMod has no row of its own: the exact remainder, rounded once where the sign is adjusted.
    const bool same = (std::isnan(result) && std::isnan(observed)) ||
                      (result == observed && std::signbit(result) == std::signbit(observed));
    return printVerdict(same, show(result, f), "exact (fmod, then one rounding of y + r)", "", j.profile);
  }
  Verdict v;
  try {
    v = judgeCore(*core, a, observed, f, j.profile, j.verdict);
  } catch (const std::invalid_argument& e) { throw Rejected(e.what()); }
  applyOptimizationOptions(j, a, result, observed, v);
  std::string set = v.anyValue ? "any value" : numerics::toString(ValueSet{v.lo, v.hi, v.nanAllowed || std::isnan(v.lo)});
  if (v.zeroAllowed) set += " or ±0";
  char err[64];
  std::snprintf(err, sizeof err, "%.6g", v.errorUlps);
  std::cout << "error:    " << err << " ulp\n";
  if (!v.note.empty()) std::cout << "note:     " << v.note << "\n";
  return printVerdict(v.allowed, set, v.rule, v.clause, j.profile);
}

// ---- Conversions -------------------------------------------------------------------------------------------------

int intBits(ScalarType t) { return int(sizeOf(t)) * 8; }

int runConvert(const MathCommandOptions& o) {
  const auto from = parseElementType(o.type), to = parseElementType(o.to);
  if (!from) throw Rejected("--type: not an OpenCL scalar type: '" + o.type + "'");
  if (!to) throw Rejected("--to: expected a scalar type (char ... ulong, half, float, double), got '" + o.to + "'");
  if (o.args.size() != 1) throw Rejected("math: convert takes one operand");
  const bool fromFloat = isFloat(*from), toFloat = isFloat(*to);
  // OpenCL C 3.0 §6.4.3.2 [[rounding-modes]]: conversions to integers round toward zero by default, to floating
  // point to nearest even.
  const Rounding r = o.rounding.empty() ? (toFloat ? Rounding::RTE : Rounding::RTZ) : parseRounding(o.rounding);
  const uint64_t bits = [&] {
    try {
      return clref::cli::detail::elementBitsFromText(*from, o.args[0], "operand");
    } catch (const clref::cli::detail::FieldError& e) { throw Rejected(e.path + ": " + e.message); }
  }();
  Choices choices;
  for (const auto& c : o.choices) {
    try {
      choices.set(c);
    } catch (const std::invalid_argument& e) { throw Rejected("math: --choice " + c + ": " + e.what()); }
  }
  std::string fromText, resultText;
  uint64_t resultBits = 0;
  double resultValue = 0;
  bool free = false;  // implementation-defined: any value
  if (fromFloat) {
    const double x = bitsToDouble(bits, floatFormat(*from));
    fromText = show(x, floatFormat(*from));
    if (toFloat) {
      resultValue = floatToFloat(x, floatFormat(*to), r);
      resultText = show(resultValue, floatFormat(*to));
    } else {
      const double integral = roundToIntegral(x, r);
      const bool inRange = floatToIntInRange(integral, intBits(*to), isSigned(*to)).has_value();
      resultBits = floatToInt(integral, intBits(*to), isSigned(*to), o.saturate, choices);
      free = !inRange && !o.saturate;
    }
  } else {
    const int fb = intBits(*from);
    const uint64_t mask = fb == 64 ? ~uint64_t(0) : (uint64_t(1) << fb) - 1;
    const uint64_t u = bits & mask;
    const int64_t sv = isSigned(*from) && fb < 64 && (u >> (fb - 1)) ? int64_t(u | ~mask) : int64_t(u);
    fromText = isSigned(*from) ? std::to_string(sv) : std::to_string(u);
    if (toFloat) {
      resultValue = isSigned(*from) ? intToFloat(sv, floatFormat(*to), r) : uintToFloat(u, floatFormat(*to), r);
      resultText = show(resultValue, floatFormat(*to));
    } else {
      // Integer to integer: the value when it fits; else the low bits, or the nearest value with _sat.
      const int tb = intBits(*to);
      const long double v = isSigned(*from) ? (long double)sv : (long double)u;
      const long double lo = isSigned(*to) ? -std::ldexp(1.0L, tb - 1) : 0.0L;
      const long double hi = isSigned(*to) ? std::ldexp(1.0L, tb - 1) - 1 : std::ldexp(1.0L, tb) - 1;
      if (o.saturate && (v < lo || v > hi)) {
        const long double c = v < lo ? lo : hi;
        resultBits = c < 0 ? uint64_t(int64_t(c)) : uint64_t(c);
      } else {
        resultBits = u;
      }
    }
  }
  if (!toFloat) {
    const int tb = intBits(*to);
    const uint64_t mask = tb == 64 ? ~uint64_t(0) : (uint64_t(1) << tb) - 1;
    resultBits &= mask;
    const int64_t sv =
        isSigned(*to) && tb < 64 && (resultBits >> (tb - 1)) ? int64_t(resultBits | ~mask) : int64_t(resultBits);
    resultText = isSigned(*to) ? std::to_string(sv) : std::to_string(resultBits);
  }
  std::cout << "convert_" << toString(*to) << (o.saturate ? "_sat" : "") << "_" << toString(r) << "("
            << toString(*from) << " " << fromText << ")\n";
  std::cout << "result:   " << resultText
            << (free ? " (out of range without _sat: implementation-defined; choice float_to_int_out_of_range)" : "")
            << "\n";
  if (o.check.empty()) return 0;
  const Judging j = judgingOf(o);
  uint64_t observedBits = 0;
  try {
    observedBits = clref::cli::detail::elementBitsFromText(*to, o.check, "--check");
  } catch (const clref::cli::detail::FieldError& e) { throw Rejected(e.path + ": " + e.message); }
  if (free)
    return printVerdict(true, "any value of " + std::string(toString(*to)),
                        "implementation-defined", "OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]", j.profile);
  if (toFloat) {
    const Format tf = floatFormat(*to);
    const double observed = bitsToDouble(observedBits, tf);
    // A conversion is correctly rounded in its mode; a subnormal result may be flushed where the format may flush.
    bool allowed = (std::isnan(observed) && std::isnan(resultValue)) ||
                   (observed == resultValue && std::signbit(observed) == std::signbit(resultValue));
    const bool flush = j.verdict.flushToZero.value_or(tf != Format::Double);
    const bool subnormal = resultValue != 0 && std::isfinite(resultValue) &&
                           std::fabs(resultValue) < std::ldexp(1.0, 2 - int(rangeOf(tf).emax));
    if (flush && subnormal && observed == 0) allowed = true;
    std::cout << "check:    " << show(observed, tf) << "\n";
    return printVerdict(allowed, show(resultValue, tf) + (flush && subnormal ? " or ±0" : ""),
                        "correctly rounded (" + std::string(toString(r)) + ")",
                        "OpenCL C 3.0 §6.4.3.2 [[rounding-modes]]", j.profile);
  }
  const uint64_t mask = intBits(*to) == 64 ? ~uint64_t(0) : (uint64_t(1) << intBits(*to)) - 1;
  std::cout << "check:    " << o.check << "\n";
  return printVerdict((observedBits & mask) == resultBits, resultText, "exact", "", j.profile);
}

// ---- Geometric functions -----------------------------------------------------------------------------------------

std::optional<CoreOp> geometricNamed(const std::string& n) {
  if (n == "dot") return CoreOp::Dot;
  if (n == "cross") return CoreOp::Cross;
  if (n == "length") return CoreOp::Length;
  if (n == "distance") return CoreOp::Distance;
  if (n == "normalize") return CoreOp::Normalize;
  if (n == "fast_length") return CoreOp::FastLength;
  if (n == "fast_distance") return CoreOp::FastDistance;
  if (n == "fast_normalize") return CoreOp::FastNormalize;
  return std::nullopt;
}

std::vector<double> parseVector(const std::string& text, Format f, const std::string& what) {
  std::vector<double> v;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) v.push_back(parseValue(item, scalarTypeOf(f), what));
  if (v.empty() || v.size() > 4) throw Rejected(what + ": expected 1, 2, 3 or 4 components");
  return v;
}

int runGeometric(const MathCommandOptions& o, CoreOp op) {
  const Format f = parseFormat(o.type);
  const bool two = op == CoreOp::Dot || op == CoreOp::Cross || op == CoreOp::Distance || op == CoreOp::FastDistance;
  if (o.args.size() != (two ? 2u : 1u))
    throw Rejected("math: " + o.function + " takes " + (two ? "two vectors" : "one vector") + " (comma lists)");
  const auto p = parseVector(o.args[0], f, "operand 1");
  const auto q = two ? parseVector(o.args[1], f, "operand 2") : std::vector<double>{};
  if (two && q.size() != p.size()) throw Rejected("math: the vectors differ in length");
  if (op == CoreOp::Cross && p.size() < 3) throw Rejected("math: cross takes 3- or 4-component vectors");
  std::vector<double> result;
  switch (op) {
    case CoreOp::Dot: result = {dotExact(p, q, f)}; break;
    case CoreOp::Length:
    case CoreOp::FastLength: result = {lengthExact(p, f)}; break;
    case CoreOp::Distance:
    case CoreOp::FastDistance: result = {distanceExact(p, q, f)}; break;
    case CoreOp::Normalize:
    case CoreOp::FastNormalize:
      result.resize(p.size());
      normalizeExact(p, result, f);
      break;
    default:
      result.resize(p.size());
      crossExact(p, q, result, f);
      break;
  }
  auto list = [&](const std::vector<double>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + show(v[i], f);
    return s;
  };
  std::cout << o.function << " in " << toString(f) << "\nresult:   " << list(result) << " (each correctly rounded)\n";
  if (o.check.empty()) return 0;
  const Judging j = judgingOf(o);
  const auto observed = parseVector(o.check, f, "--check");
  if (observed.size() != result.size())
    throw Rejected("--check: " + std::to_string(result.size()) + " component" + (result.size() == 1 ? "" : "s") +
                   " expected");
  std::vector<ValueSet> ps, qs;
  for (double x : p) ps.push_back(ValueSet::point(x));
  for (double x : q) qs.push_back(ValueSet::point(x));
  bool allowed = true;
  std::string sets;
  for (size_t i = 0; i < result.size(); ++i) {
    const ValueSet s = allowedSetGeometric(op, ps, qs, i, f, j.profile, j.verdict);
    allowed = allowed && s.contains(observed[i]);
    sets += (i ? ", " : "") + numerics::toString(s);
  }
  std::cout << "check:    " << list(observed) << "\n";
  return printVerdict(allowed, sets, "the geometric row for vector width " + std::to_string(p.size()),
                      "OpenCL SPIR-V Environment [[ulp_values_for_math_instructions]]", j.profile);
}

}  // namespace

std::optional<int> runOperation(const MathCommandOptions& o) {
  const std::string& n = o.function;
  if (coreOpNamed(n) || n == "frem" || n == "fmod_spirv") return runCore(o, n);
  if (n == "convert") return runConvert(o);
  if (const auto g = geometricNamed(n)) return runGeometric(o, *g);
  return std::nullopt;
}

}  // namespace clref::cli
