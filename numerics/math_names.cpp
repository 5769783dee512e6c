// Names and operand counts of the OpenCL.std math functions, from the generated OpenCL.std table.
#include "numerics/math_internal.hpp"

namespace clref::numerics {

namespace {

// The OpenCL.std operands that are pointers to results, not values (fract's iptr, frexp's exp,
// lgamma_r's signp, modf's iptr, remquo's quo, sincos's cosval): evaluate returns them.
bool hasResultPointer(MathFn f) {
  return f == MathFn::fract || f == MathFn::frexp || f == MathFn::lgamma_r || f == MathFn::modf ||
         f == MathFn::remquo || f == MathFn::sincos;
}

}  // namespace

std::optional<MathFn> mathFnByName(std::string_view name) {
  for (int i = 0; i < kMathFnCount; ++i)
    if (kOpenClStdInfo[size_t(i)].name == name) return MathFn(i);
  return std::nullopt;
}

std::string_view nameOf(MathFn f) {
  return size_t(f) < kOpenClStdInfo.size() && !kOpenClStdInfo[size_t(f)].name.empty() ? kOpenClStdInfo[size_t(f)].name
                                                                                      : "?";
}

int arity(MathFn f) {
  if (int(f) >= kMathFnCount) return 0;
  return kOpenClStdInfo[size_t(f)].operands - (hasResultPointer(f) ? 1 : 0);
}

namespace detail {

MathFn canonical(MathFn f) {
  switch (f) {
    case MathFn::half_cos:
    case MathFn::native_cos: return MathFn::cos;
    case MathFn::half_exp:
    case MathFn::native_exp: return MathFn::exp;
    case MathFn::half_exp2:
    case MathFn::native_exp2: return MathFn::exp2;
    case MathFn::half_exp10:
    case MathFn::native_exp10: return MathFn::exp10;
    case MathFn::half_log:
    case MathFn::native_log: return MathFn::log;
    case MathFn::half_log2:
    case MathFn::native_log2: return MathFn::log2;
    case MathFn::half_log10:
    case MathFn::native_log10: return MathFn::log10;
    case MathFn::half_powr:
    case MathFn::native_powr: return MathFn::powr;
    case MathFn::half_rsqrt:
    case MathFn::native_rsqrt: return MathFn::rsqrt;
    case MathFn::half_sin:
    case MathFn::native_sin: return MathFn::sin;
    case MathFn::half_sqrt:
    case MathFn::native_sqrt: return MathFn::sqrt;
    case MathFn::half_tan:
    case MathFn::native_tan: return MathFn::tan;
    case MathFn::native_divide: return MathFn::half_divide;
    case MathFn::native_recip: return MathFn::half_recip;
    default: return f;
  }
}

}  // namespace detail
}  // namespace clref::numerics
