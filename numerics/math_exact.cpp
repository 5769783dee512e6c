// Math functions whose result is an exact operation on the operand's representation: rounding
// to an integral value, fract, modf, frexp, ilogb, logb, nextafter, nan, copysign, fabs,
// fmin/fmax/minmag/maxmag. None of them depends on the rounding mode, except the one
// rounding in fract's x - floor(x).
#include <bit>
#include <climits>
#include <cmath>

#include "numerics/exact_ops.hpp"
#include "numerics/math_internal.hpp"

namespace clref::numerics::detail {

// Steps x to the adjacent value of the format toward +inf (up) or -inf, x finite or ±inf
// (±inf steps to the largest finite value). Values of the format are held in doubles, so the
// step is done on the format's own encoding.
double stepFormat(double x, bool up, Format f) {
  switch (f) {
    case Format::Half: {
      uint16_t b = toHalf(x).bits;
      if ((b & 0x7fff) == 0) return up ? toDouble(Half{1}) : toDouble(Half{0x8001});
      const bool neg = (b & 0x8000) != 0;
      b = uint16_t(up != neg ? b + 1 : b - 1);  // the magnitude grows iff moving away from 0
      return toDouble(Half{b});
    }
    case Format::Float: {
      const float v = float(x);
      uint32_t b = std::bit_cast<uint32_t>(v);
      if ((b & 0x7fffffffu) == 0) return up ? std::bit_cast<float>(1u) : std::bit_cast<float>(0x80000001u);
      const bool neg = (b & 0x80000000u) != 0;
      b = up != neg ? b + 1 : b - 1;
      return std::bit_cast<float>(b);
    }
    case Format::Double: {
      uint64_t b = std::bit_cast<uint64_t>(x);
      if ((b << 1) == 0) return up ? std::bit_cast<double>(uint64_t(1)) : std::bit_cast<double>(0x8000000000000001ull);
      const bool neg = (b >> 63) != 0;
      b = up != neg ? b + 1 : b - 1;
      return std::bit_cast<double>(b);
    }
  }
  return x;
}

void fractExact(mpfr_ptr out, double x, Format format) {
  // OpenCL C 3.0 §6.15.2 [[math-functions]] fract: fmin(x - floor(x), 0x1.fffffep-1f), the constant being the
  // format's largest value below 1, 1 - 2^-p (0x1.ffcp-1h, 0x1.fffffep-1f,
  // 0x1.fffffffffffffp-1). x - floor(x) is in [0, 1) but may need more bits than the format
  // (x = -2^-30 gives 1 - 2^-30); it is exact at 1100 bits (binary64 bits lie between 2^1023
  // and 2^-1074). RNDN makes the zero of an integral x +0.
  Mpfr xm(53), fm(53);
  mpfr_set_prec(out, 1100);
  mpfr_set_d(xm, x, MPFR_RNDN);
  mpfr_set_d(fm, std::floor(x), MPFR_RNDN);
  mpfr_sub(out, xm, fm, MPFR_RNDN);
  const double below = 1.0 - std::ldexp(1.0, -precisionOf(format));
  if (mpfr_cmp_d(out, below) > 0) mpfr_set_d(out, below, MPFR_RNDN);
}

namespace {

MathResult one(double v) {
  MathResult r;
  r.value = v;
  return r;
}

MathResult fract(double x, Format format, Rounding rounding) {
  MathResult r;
  // OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: fract(±0) returns ±0 and ±0 in iptr; fract(±inf)
  // returns ±0 and ±inf in iptr; fract(NaN) returns NaN and NaN in iptr.
  if (std::isnan(x)) return {std::nan(""), std::nan(""), 0};
  if (x == 0) return {x, x, 0};
  if (std::isinf(x)) return {std::copysign(0.0, x), x, 0};
  // OpenCL C 3.0 §6.15.2 [[math-functions]] fract: the exact fmin(x - floor(x), C) rounded once, floor(x) in
  // iptr. Rounding is monotonic and C is a value of the format, so a difference that rounds
  // up to 1.0 still gives C (§7.5.1 [[additional-requirements-beyond-c99-tc2]]: "shall not return a value greater than
  // or equal to 1.0"). fract's results lie in [0, 1): clref gives +0 where IEEE's x - floor(x) in RTN gives -0.
  r.second = std::floor(x);
  Mpfr diff(1100);
  fractExact(diff, x, format);
  r.value = roundToDouble(diff, format, rounding);
  return r;
}

}  // namespace

std::optional<MathResult> exactEval(MathFn f, std::span<const double> args, Format format, Rounding rounding) {
  const double x = args[0];
  // Rounding to an integral value keeps the sign of x, also for a zero result (IEEE 754-2008
  // §5.9 [external]; OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: ceil(-1 < x < 0), trunc(-1 < x <
  // 0), round(-0.5 < x < 0) and rint(-0.5 <= x < 0) return -0). The results are exact; NaN and ±inf are returned as is.
  auto integral = [&](double v) { return one(std::isnan(x) ? std::nan("") : std::copysign(v, x)); };
  switch (f) {
    case MathFn::ceil: return integral(std::ceil(x));
    case MathFn::floor: return integral(std::floor(x));
    case MathFn::trunc: return integral(std::trunc(x));
    // OpenCL C 3.0 §6.15.2 [[math-functions]] round: halfway cases away from zero (std::round, exact).
    case MathFn::round: return integral(std::round(x));
    case MathFn::rint: return one(numerics::rint(x));
    // OpenCL C 3.0 §6.15.2 [[math-functions]] copysign: x with the sign of y; fabs: |x|. (A NaN result is the
    // default NaN: clref does not carry NaN signs or payloads through these.)
    case MathFn::copysign: return one(std::isnan(x) ? std::nan("") : std::copysign(x, args[1]));
    case MathFn::fabs: return one(std::isnan(x) ? std::nan("") : std::fabs(x));
    case MathFn::fmax: return one(numerics::fmax(x, args[1]));
    case MathFn::fmin: return one(numerics::fmin(x, args[1]));
    case MathFn::maxmag: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] maxmag: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y)
      // (which also covers NaN operands).
      const double y = args[1];
      if (std::fabs(x) > std::fabs(y)) return one(x);
      if (std::fabs(y) > std::fabs(x)) return one(y);
      return one(numerics::fmax(x, y));
    }
    case MathFn::minmag: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] minmag: x if |x| < |y|, y if |y| < |x|, otherwise fmin(x, y).
      const double y = args[1];
      if (std::fabs(x) < std::fabs(y)) return one(x);
      if (std::fabs(y) < std::fabs(x)) return one(y);
      return one(numerics::fmin(x, y));
    }
    case MathFn::fract: return fract(x, format, rounding);
    case MathFn::modf: {
      // OpenCL C 3.0 §7.5.2 [[changes-to-c99-tc2-behavior]] modf: iptr = trunc(x); returns copysign(isinf(x) ? 0.0 : x
      // - iptr, x). x - trunc(x) is exact (its bits are a subset of x's).
      MathResult r;
      if (std::isnan(x)) return MathResult{std::nan(""), std::nan(""), 0};
      r.second = std::trunc(x);
      r.value = std::copysign(std::isinf(x) ? 0.0 : x - r.second, x);
      return r;
    }
    case MathFn::frexp: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] frexp: x = m·2^exp with |m| in [1/2, 1) or 0;
      // §7.5.1 [[additional-requirements-beyond-c99-tc2]]: frexp(±inf) = ±inf with exp 0, frexp(NaN) = NaN with exp 0;
      // C99 F.9.3.4 frexp(±0) =
      // ±0 with exp 0. std::frexp on the exact double is exact and sees the value only, so
      // binary16/32 subnormals get their true exponents.
      MathResult r;
      if (std::isnan(x)) return MathResult{std::nan(""), 0, 0};
      if (std::isinf(x) || x == 0) return MathResult{x, 0, 0};
      int e = 0;
      r.value = std::frexp(x, &e);
      r.integer = e;
      return r;
    }
    case MathFn::ilogb: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] ilogb: the exponent of x as an integer (C99 7.12.6.5: of a
      // subnormal too). FP_ILOGB0 = INT_MIN and FP_ILOGBNAN = INT_MAX (clang's
      // opencl-c-base.h); C99 F.9.3.5: ilogb(±inf) = INT_MAX.
      MathResult r;
      if (std::isnan(x))
        r.integer = INT_MAX;
      else if (x == 0)
        r.integer = INT_MIN;
      else if (std::isinf(x))
        r.integer = INT_MAX;
      else
        r.integer = std::ilogb(x);  // exact: the double holds the value exactly
      return r;
    }
    case MathFn::logb:
      // OpenCL C 3.0 §6.15.2 [[math-functions]] logb: the integral part of log_r|x|, the exponent; C99 F.9.3.11:
      // logb(±0) = -inf, logb(±inf) = +inf.
      if (std::isnan(x)) return one(std::nan(""));
      if (x == 0) return one(-INFINITY);
      if (std::isinf(x)) return one(INFINITY);
      return one(double(std::ilogb(x)));
    case MathFn::nextafter: {
      // OpenCL C 3.0 §6.15.2 [[math-functions]] nextafter: the next value of the format after x toward y
      // (subnormals included: §7.5.1 [[additional-requirements-beyond-c99-tc2]] nextafter(-0, y > 0) is the smallest
      // positive subnormal, nextafter(+0, y < 0) the smallest negative one). C99 F.9.8.3: y if x == y, NaN if
      // either is NaN; the largest finite value steps to infinity.
      const double y = args[1];
      if (std::isnan(x) || std::isnan(y)) return one(std::nan(""));
      if (x == y) return one(y);
      // From ±inf the step toward y is the largest finite value (the encodings are adjacent).
      return one(stepFormat(x, y > x, format));
    }
    case MathFn::nan:
      // OpenCL C 3.0 §6.15.2 [[math-functions]] nan: a quiet NaN; the code "may be placed in the significand"
      // (the bits are the interpreter's, choice nan_payload; a double carries no format bits).
      return one(std::nan(""));
    default: return std::nullopt;
  }
}

}  // namespace clref::numerics::detail
