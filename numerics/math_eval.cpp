// evaluate, evaluateMad and exactDecimal: dispatch to the exact functions (math_exact.cpp,
// math_common.cpp) or to an MPFR core, whose correctly rounded result is then brought into
// the format's exponent range and subnormals by finishToFormat (mpfr_round.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "numerics/math_internal.hpp"

namespace clref::numerics {

namespace {

using detail::MathArgs;

// Per-thread MPFR variables, so the common path allocates nothing (the interpreter calls
// evaluate from several threads; MPFR variables are not shared).
struct Workspace {
  Mpfr in[3] = {Mpfr(53), Mpfr(53), Mpfr(53)};
  Mpfr out{53};
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

void checkArity(MathFn f, std::span<const double> args) {
  if (int(args.size()) != arity(f))
    throw std::invalid_argument(std::string(nameOf(f)) + " takes " + std::to_string(arity(f)) + " operands, got " +
                                std::to_string(args.size()));
}

MathArgs loadArgs(Workspace& w, std::span<const double> args, Format format) {
  MathArgs a{args, {w.in[0], w.in[1], w.in[2]}, format};
  for (size_t i = 0; i < args.size() && i < 3; ++i) mpfr_set_d(w.in[i], args[i], MPFR_RNDN);  // exact at 53 bits
  return a;
}

double toResult(mpfr_srcptr v) { return mpfr_nan_p(v) ? std::nan("") : mpfr_get_d(v, MPFR_RNDN); }

// One correctly rounded value of canonical function f in the format.
double roundedValue(MathFn f, const MathArgs& a, Format format, Rounding r, int64_t& integer) {
  Workspace& w = workspace();
  mpfr_set_prec(w.out, rangeOf(format).precision);
  int t;
  {
    ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
    const auto core = detail::runCore(f, w.out, a, toMpfr(r), integer);
    if (!core) throw std::logic_error("numerics::evaluate: no implementation for " + std::string(nameOf(f)));
    t = *core;
    // Overflow, underflow and the subnormal precision of the format, without a second
    // rounding error: the core's result is rounded to the format's precision and `t` says
    // on which side of it the exact value lies.
    finishToFormat(w.out, t, format, r);
  }
  return toResult(w.out);  // exact: a value of the format
}

// Decimal digits of an MPFR value: exact ones when `exact`, else `digits` significant ones.
std::string decimalString(mpfr_srcptr v, int digits, bool exact) {
  if (mpfr_nan_p(v)) return "nan";
  if (mpfr_inf_p(v)) return mpfr_signbit(v) ? "-inf" : "inf";
  if (mpfr_zero_p(v)) return mpfr_signbit(v) ? "-0" : "0";
  size_t n = size_t(std::max(digits, 1));
  if (exact) {
    // v = M·2^k with the lowest set bit at 2^k: if k < 0 the decimal expansion ends at 10^k,
    // so it has at most (decimal exponent of v) - k + 1 significant digits; if k >= 0 it is
    // an integer of at most EXP(v)·log10(2) + 1 digits. Asking for that many digits is exact.
    const long e = long(mpfr_get_exp(v));
    const long k = e - long(mpfr_min_prec(v));
    const long lead = long(std::ceil(double(e) * 0.30103)) + 1;
    n = size_t(std::max(2L, k < 0 ? lead - k + 2 : lead + 2));
  }
  mpfr_exp_t exp10 = 0;
  std::string buf(n + 8, '\0');
  mpfr_get_str(buf.data(), &exp10, 10, n, v, MPFR_RNDN);
  buf.resize(std::char_traits<char>::length(buf.c_str()));
  std::string sign;
  if (buf[0] == '-') {
    sign = "-";
    buf.erase(0, 1);
  }
  if (exact) {
    while (buf.size() > 1 && buf.back() == '0') buf.pop_back();
  }
  // buf = d1 d2 d3 ... with v = 0.d1d2d3... × 10^exp10 = d1.d2d3... × 10^(exp10 - 1).
  std::string out = sign + buf.substr(0, 1);
  if (buf.size() > 1) out += "." + buf.substr(1);
  const long e10 = long(exp10) - 1;
  char tail[32];
  std::snprintf(tail, sizeof tail, "e%c%02ld", e10 < 0 ? '-' : '+', std::labs(e10));
  return out + tail;
}

// The results the specification leaves open, decided by the registry (numerics/choices.hpp);
// the cores compute each function's defined value and these defaults.
MathResult applyChoices(MathFn f, std::span<const double> args, MathResult r, const Choices& choices) {
  switch (f) {
    case MathFn::fclamp:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] clamp: "Results are undefined if minval > maxval".
      if (args[1] > args[2]) {
        r.decidedBy = Choice::ClampInvertedBounds;
        if (choices.get<Choice::ClampInvertedBounds>() == ClampOption::MaxOfMin)
          r.value = numerics::fmax(numerics::fmin(args[0], args[2]), args[1]);
      }
      return r;
    case MathFn::smoothstep:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] smoothstep: "Results are undefined if edge0 >= edge1".
      if (args[0] >= args[1]) {
        r.decidedBy = Choice::SmoothstepInvertedEdges;
        if (choices.get<Choice::SmoothstepInvertedEdges>() == SmoothstepOption::Nan) r.value = std::nan("");
      }
      return r;
    case MathFn::fmax_common:
    case MathFn::fmin_common:
      // OpenCL C 3.0 §6.15.4 [[common-functions]] max/min: undefined if x or y is infinite or NaN.
      if (!std::isfinite(args[0]) || !std::isfinite(args[1])) {
        r.decidedBy = Choice::CommonMinMaxSpecial;
        if (choices.get<Choice::CommonMinMaxSpecial>() == CommonMinMaxOption::Nan) r.value = std::nan("");
      }
      return r;
    case MathFn::remquo:
      // OpenCL C 3.0 §6.15.2 [[math-functions]] remquo: "the lower seven bits of the integral quotient"; the core
      // gives 31 (all an int holds), with the sign of x/y. The choice decides where the two differ.
      if ((r.integer < 0 ? -r.integer : r.integer) > 0x7f) {
        r.decidedBy = Choice::RemquoQuotientBits;
        if (choices.get<Choice::RemquoQuotientBits>() == RemquoBitsOption::Seven)
          r.integer = r.integer < 0 ? -(-r.integer & 0x7f) : (r.integer & 0x7f);
      }
      return r;
    case MathFn::lgamma_r:
      // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] gives lgamma_r's sign for zero and negative
      // integers only; Γ has none at NaN or -inf (the core gives 0).
      if (std::isnan(args[0]) || args[0] == -INFINITY) {
        r.decidedBy = Choice::LgammaSignUndefined;
        if (choices.get<Choice::LgammaSignUndefined>() == LgammaSignOption::One) r.integer = 1;
      }
      return r;
    default:
      // OpenCL C 3.0 §6.15.2 [[math-functions]]: half_ and native_ functions give any value within their looser
      // bounds; clref gives the correctly rounded one (reduced_precision_functions).
      if (detail::canonical(f) != f || f == MathFn::half_divide || f == MathFn::half_recip)
        r.decidedBy = Choice::ReducedPrecisionFunctions;
      return r;
  }
}

}  // namespace

MathResult detail::evaluateGeneral(MathFn f, std::span<const double> args, Format format, Rounding r,
                                   const Choices& choices) {
  checkArity(f, args);
  // OpenCL C 3.0 §6.15.2 [[math-functions]] mad: fused or multiply-then-add, as the choice mad says.
  if (detail::canonical(f) == MathFn::mad)
    return evaluateMad(args, format, r, choices.get<Choice::Mad>() == MadOption::Fused);
  if (auto v = detail::exactEval(f, args, format, r)) return applyChoices(f, args, *v, choices);
  if (auto v = detail::commonExactEval(f, args)) return applyChoices(f, args, *v, choices);
  if (auto v = detail::fastEval(detail::canonical(f), args, format, r)) return applyChoices(f, args, *v, choices);
  return evaluateExact(f, args, format, r, choices);
}

MathResult evaluateExact(MathFn f, std::span<const double> args, Format format, Rounding r, const Choices& choices) {
  checkArity(f, args);
  if (detail::canonical(f) == MathFn::mad)
    return evaluateMad(args, format, r, choices.get<Choice::Mad>() == MadOption::Fused);
  if (auto v = detail::exactEval(f, args, format, r)) return applyChoices(f, args, *v, choices);
  if (auto v = detail::commonExactEval(f, args)) return applyChoices(f, args, *v, choices);
  const MathFn c = detail::canonical(f);
  const MathArgs a = loadArgs(workspace(), args, format);
  MathResult result;
  result.value = roundedValue(c, a, format, r, result.integer);
  if (c == MathFn::sincos) {
    // OpenCL C 3.0 §6.15.2 [[math-functions]] sincos: the sine is returned, the cosine stored in cosval.
    int64_t unused = 0;
    result.second = roundedValue(MathFn::cos, a, format, r, unused);
  }
  return applyChoices(f, args, result, choices);
}

MathResult evaluateMad(std::span<const double> args, Format format, Rounding r, bool fused) {
  checkArity(MathFn::mad, args);
  if (fused) return evaluate(MathFn::fma, args, format, r);
  // Unfused: a·b rounded to the format, then + c rounded (two operations of the format,
  // IEEE 754-2008 §5.4.1 [external] each).
  Workspace& w = workspace();
  const int p = int(rangeOf(format).precision);
  mpfr_set_prec(w.out, p);
  const MathArgs a = loadArgs(w, args, format);
  const mpfr_rnd_t rnd = toMpfr(r);
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  finishToFormat(w.out, mpfr_mul(w.out, a.m[0], a.m[1], rnd), format, r);
  // mpfr_add rounds the exact sum of the rounded product and c once.
  finishToFormat(w.out, mpfr_add(w.out, w.out, a.m[2], rnd), format, r);
  MathResult result;
  result.value = toResult(w.out);
  return result;
}

std::string exactDecimal(MathFn f, std::span<const double> args, Format format, int digits) {
  checkArity(f, args);
  const MathFn c = detail::canonical(f);
  if (c == MathFn::ilogb) return std::to_string(evaluate(f, args, format).integer);
  Mpfr v(mpfr_prec_t(std::max(digits, 1)) * 4 + 64);
  if (c == MathFn::fract && std::isfinite(args[0]) && args[0] != 0) {
    detail::fractExact(v, args[0], format);  // OpenCL C 3.0 §6.15.2 [[math-functions]] fract: fmin(x - floor(x), C)
    return decimalString(v, digits, true);
  }
  if (auto r = detail::exactEval(f, args, format, Rounding::RTE)) {
    mpfr_set_d(v, r->value, MPFR_RNDN);
    return decimalString(v, digits, true);
  }
  if (auto r = detail::commonExactEval(f, args)) {
    mpfr_set_d(v, r->value, MPFR_RNDN);
    return decimalString(v, digits, true);
  }
  Workspace& w = workspace();
  const MathArgs a = loadArgs(w, args, format);
  int64_t integer = 0;
  int t;
  {
    ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
    t = *detail::runCore(c == MathFn::sincos ? MathFn::sin : c, v, a, MPFR_RNDN, integer);
  }
  // t == 0: the core's result is the exact value (e.g. sqrt(4), fma of exact operands).
  return decimalString(v, digits, t == 0);
}

void releaseThreadResources() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

std::optional<int> detail::runCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer) {
  if (auto t = trigCore(f, out, a, rnd)) return t;
  if (auto t = expLogCore(f, out, a, rnd, integer)) return t;
  if (auto t = arithCore(f, out, a, rnd, integer)) return t;
  if (auto t = commonCore(f, out, a, rnd)) return t;
  return std::nullopt;
}

}  // namespace clref::numerics
