// Internals shared by the numerics/math_*.cpp files (not part of the numerics API).
//
// A "core" computes one function correctly rounded to the precision of `out` in direction
// `rnd`, in MPFR's current exponent range (evaluate widens it to MPFR's maximum, so the core
// never overflows or underflows in practice), and returns the ternary value (the sign of
// out − exact). evaluate then applies the format's exponent range and subnormals with
// finishToFormat (mpfr_round.hpp), which needs exactly that pair and so never rounds twice;
// exactDecimal calls the same core at a high precision.
#pragma once
#include <mpfr.h>

#include <optional>
#include <span>

#include "numerics/exact_ops.hpp"
#include "numerics/math.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics::detail {

struct MathArgs {
  std::span<const double> d;  // the operands as given
  mpfr_srcptr m[3];           // the same operands in MPFR (53 bits, exact)
  Format format;              // the operands' and result's format (for format constants)
};

// Each returns nullopt when f is not one of its family. `integer` receives the integer result
// (remquo's quotient, lgamma_r's sign) where there is one.
std::optional<int> trigCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd);
std::optional<int> expLogCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer);
std::optional<int> arithCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer);
std::optional<int> commonCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd);
// Runs the MPFR core of canonical f into `out` at its current precision in direction rnd (the
// caller sets MPFR's widest exponent range, so intermediate results never overflow). Returns the
// ternary value, or nullopt if f has no core: the one dispatch over the core families.
std::optional<int> runCore(MathFn f, mpfr_ptr out, const MathArgs& a, mpfr_rnd_t rnd, int64_t& integer);

// Functions whose result is computed without an MPFR core (they are exact operations on the
// operands, or need a format-specific step such as fract's clamp). nullopt for the others.
std::optional<MathResult> exactEval(MathFn f, std::span<const double> args, Format format, Rounding r);
std::optional<MathResult> commonExactEval(MathFn f, std::span<const double> args);

// The binary64 fast path for half and float results (math_fast.cpp): a value only when the
// host's approximation provably decides the correctly rounded result.
std::optional<MathResult> fastEval(MathFn f, std::span<const double> args, Format format, Rounding r);

// A binary64 approximation and a bound on its error: the exact value lies in [value − error, value + error].
struct Bounded {
  double value;
  double error;
};

// sin, cos, exp and log of x, or pow(x, y), from binary64 polynomials with proven bounds (math_binary32.cpp), for
// binary64 operands (log's and pow's x of at most 33 significant bits, as binary32 and binary16 values are);
// nullopt for other functions, and outside the operand ranges where those bounds are proven (special values,
// large trigonometric arguments, results beyond binary32's range).
std::optional<Bounded> binary32Kernel(MathFn f, double x, double y);

// fastBinary32 and evaluateGeneral, evaluate's two parts, are declared in math.hpp (evaluate is inline).

// x (any binary64 value) rounded to binary16 or binary32 in mode r, exactly (math_fast.cpp).
double roundToFormat(double x, Format f, Rounding r);

// The adjacent value of the format above (up) or below x, a value of the format or ±inf
// (math_exact.cpp: nextafter; verdict.cpp: the ends of an allowed interval).
double stepFormat(double x, bool up, Format f);

// The exact value of fract(x), x finite and nonzero: fmin(x - floor(x), C) with C the format's
// largest value below 1 (OpenCL C 3.0 §6.15.2 [[math-functions]]), into `out` at 1100 bits (math_exact.cpp;
// evaluate, exactDecimal and the verdicts all use it).
void fractExact(mpfr_ptr out, double x, Format format);

// half_* and native_* → the underlying function (a named choice: the reference returns the
// correctly rounded value); native_divide/native_recip → half_divide/half_recip.
MathFn canonical(MathFn f);

// The host's binary64 function for canonical f, an approximation within 8 ulp of binary64 (glibc on x86_64 is within
// 2), or nullptr; for the verdicts' fast paths, which decide only when the approximation's error cannot matter.
using HostFn = double (*)(double);
HostFn hostFunction(MathFn f);

// A correctly rounded approximation loop (Ziv's strategy) for x·c where c is 180/π or π/180:
// see math_common.cpp.
int mulByAngleConstant(mpfr_ptr out, mpfr_srcptr x, bool toDegrees, mpfr_rnd_t rnd);

}  // namespace clref::numerics::detail
