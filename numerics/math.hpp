// The OpenCL.std math and common functions, exactly: every result is the mathematically exact
// value rounded once to the format (binary16/32/64) in any rounding mode, with the format's
// exponent range and subnormals, and the special values of OpenCL C 3.0 §7.5 [[edge-case-behavior]] Edge Case
// Behavior (which refers to C99 Annex F.9 and adds its own rules). docs/ARCHITECTURE.md "Numerics": MPFR
// is the ground truth; functions MPFR lacks (fract, remquo's quotient, frexp, ilogb, ...) are
// still exact.
//
// Where the specification leaves the result open, the registry's choices (numerics/choices.hpp)
// decide, passed to evaluate: clamp_inverted_bounds, smoothstep_inverted_edges,
// remquo_quotient_bits, lgamma_sign_undefined, common_minmax_special, and
// reduced_precision_functions (half_* and native_* return the correctly rounded value of the
// underlying function). Fixed readings of the spec's text, repeated at their code:
//  - fmin/fmax and their common-function forms follow the spec's literal description
//    ("y if x < y, otherwise x"), so fmax(-0, +0) is -0 and fmax(+0, -0) is +0.
//  - lgamma_r's sign is 0 for ±0 and negative integers (§7.5.1 [[additional-requirements-beyond-c99-tc2]]).
//  - nan(code) gives a NaN; which bits is the interpreter's (choice nan_payload).
//  - mix and smoothstep are the exact real values of the spec's formulas, rounded once.
//  - rsqrt(±0) = ±inf (IEEE 754-2008 §9.2 [external] rSqrt; MPFR's mpfr_rec_sqrt gives +inf for -0).
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "numerics/choices.hpp"
#include "numerics/format.hpp"
#include "numerics/opencl_std.hpp"

namespace clref::numerics {

// The OpenCL.std math functions (OpenCL C 3.0 §6.15.2 [[math-functions]]) and the floating-point common functions
// (§6.15.4 [[common-functions]]): the opcodes 0 to 103 of the OpenCL.std table generated from
// extinst.opencl.std.100.grammar.json (numerics/gen/gen_opencl_std.cpp), named as there.
using MathFn = OpenClStd;
inline constexpr int kMathFnCount = int(OpenClStd::sign) + 1;
static_assert(int(OpenClStd::fclamp) == 95 && kMathFnCount == 104 && int(OpenClStd::cross) == kMathFnCount);

// The function of that name among the math and common functions.
std::optional<MathFn> mathFnByName(std::string_view name);
std::string_view nameOf(MathFn f);
// The number of value operands, i.e. the length of `args` for evaluate (pointer operands such
// as fract's iptr or remquo's quo are results, not operands).
int arity(MathFn f);

struct MathResult {
  double value = 0;     // the correctly rounded result, a value of the format held exactly
  double second = 0;    // fract: floor(x); modf: the integral part; sincos: the cosine
  int64_t integer = 0;  // frexp: exponent; ilogb: result; remquo: quotient; lgamma_r: sign
  // The named choice that decided this result (Choice::Count: none): the spec leaves the result open for these
  // operands, or the function is a half_/native_ one (reduced_precision_functions).
  Choice decidedBy = Choice::Count;
};

namespace detail {
// evaluate's two parts. fastBinary32 (math_binary32.cpp): the correctly rounded sin, cos, exp, log or pow in binary32
// or binary16 where binary64 polynomials with proven error bounds decide it, else NaN (never one of these results
// there); no choice applies to these functions, whose special values it leaves to the rest. evaluateGeneral
// (math_eval.cpp): everything else.
double fastBinary32(MathFn f, std::span<const double> args, Format format, Rounding r);
MathResult evaluateGeneral(MathFn f, std::span<const double> args, Format format, Rounding r, const Choices& choices);
}  // namespace detail

// The correctly rounded result of f(args) in `format` with rounding `r`, with the format's
// exponent range and subnormals (no double rounding). args are values of `format` held in
// doubles; integer operands (ldexp's k, pown's and rootn's n, nan's code) are exact doubles.
// NaN results are std::nan(""). Thread-safe. Throws std::invalid_argument if args.size() is
// not arity(f). mad is evaluated fused (the default of the named choice `mad`).
// Inline, so that a caller's loop (the interpreter's lanes) keeps the operands in its own registers across the fast
// path's call, which then needs no stack frame.
inline MathResult evaluate(MathFn f, std::span<const double> args, Format format, Rounding r = Rounding::RTE,
                           const Choices& choices = defaultChoices()) {
  if (format != Format::Double) {
    const double v = detail::fastBinary32(f, args, format, r);
    if (!std::isnan(v)) {
      MathResult result;
      result.value = v;
      return result;
    }
  }
  return detail::evaluateGeneral(f, args, format, r, choices);
}

// The same result computed by MPFR alone, without the binary64 fast path (math_fast.cpp);
// tests and benchmarks compare the two.
MathResult evaluateExact(MathFn f, std::span<const double> args, Format format, Rounding r = Rounding::RTE,
                         const Choices& choices = defaultChoices());

// mad(a, b, c) (OpenCL C 3.0 §6.15.2 [[math-functions]]: "a * b + c", the accuracy left to the implementation):
// fused = one rounding of the exact a·b + c; unfused = a·b rounded, then + c rounded.
MathResult evaluateMad(std::span<const double> args, Format format, Rounding r, bool fused);

// The exact mathematical value of f(args) (the first result; for ilogb the integer) to
// `digits` significant decimal digits, as "d.ddd…e±XX"; all digits when the exact value is a
// finite binary value (trailing zeros dropped); "inf", "-inf", "nan", "0", "-0" otherwise.
std::string exactDecimal(MathFn f, std::span<const double> args, Format format, int digits = 40);

// Frees the calling thread's MPFR caches (constants such as π, kept per thread by MPFR). A
// thread that used evaluate() calls it before it ends, so nothing is left behind.
void releaseThreadResources();

}  // namespace clref::numerics
