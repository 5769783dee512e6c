// Names and operand counts of the OpenCL.std math functions (extinst.opencl.std.100.grammar.json).
#include <array>

#include "numerics/math_internal.hpp"

namespace clref::numerics {

namespace {

struct Entry {
  std::string_view name;
  int8_t arity;
};

// Indexed by opcode. The arity counts value operands only: fract's iptr, frexp's exp, modf's
// iptr, sincos's cosval, lgamma_r's signp and remquo's quo are results.
constexpr std::array<Entry, kMathFnCount> kTable = {{
    {"acos", 1},         {"acosh", 1},        {"acospi", 1},        {"asin", 1},         {"asinh", 1},
    {"asinpi", 1},       {"atan", 1},         {"atan2", 2},         {"atanh", 1},        {"atanpi", 1},
    {"atan2pi", 2},      {"cbrt", 1},         {"ceil", 1},          {"copysign", 2},     {"cos", 1},
    {"cosh", 1},         {"cospi", 1},        {"erfc", 1},          {"erf", 1},          {"exp", 1},
    {"exp2", 1},         {"exp10", 1},        {"expm1", 1},         {"fabs", 1},         {"fdim", 2},
    {"floor", 1},        {"fma", 3},          {"fmax", 2},          {"fmin", 2},         {"fmod", 2},
    {"fract", 1},        {"frexp", 1},        {"hypot", 2},         {"ilogb", 1},        {"ldexp", 2},
    {"lgamma", 1},       {"lgamma_r", 1},     {"log", 1},           {"log2", 1},         {"log10", 1},
    {"log1p", 1},        {"logb", 1},         {"mad", 3},           {"maxmag", 2},       {"minmag", 2},
    {"modf", 1},         {"nan", 1},          {"nextafter", 2},     {"pow", 2},          {"pown", 2},
    {"powr", 2},         {"remainder", 2},    {"remquo", 2},        {"rint", 1},         {"rootn", 2},
    {"round", 1},        {"rsqrt", 1},        {"sin", 1},           {"sincos", 1},       {"sinh", 1},
    {"sinpi", 1},        {"sqrt", 1},         {"tan", 1},           {"tanh", 1},         {"tanpi", 1},
    {"tgamma", 1},       {"trunc", 1},        {"half_cos", 1},      {"half_divide", 2},  {"half_exp", 1},
    {"half_exp2", 1},    {"half_exp10", 1},   {"half_log", 1},      {"half_log2", 1},    {"half_log10", 1},
    {"half_powr", 2},    {"half_recip", 1},   {"half_rsqrt", 1},    {"half_sin", 1},     {"half_sqrt", 1},
    {"half_tan", 1},     {"native_cos", 1},   {"native_divide", 2}, {"native_exp", 1},   {"native_exp2", 1},
    {"native_exp10", 1}, {"native_log", 1},   {"native_log2", 1},   {"native_log10", 1}, {"native_powr", 2},
    {"native_recip", 1}, {"native_rsqrt", 1}, {"native_sin", 1},    {"native_sqrt", 1},  {"native_tan", 1},
    {"fclamp", 3},       {"degrees", 1},      {"fmax_common", 2},   {"fmin_common", 2},  {"mix", 3},
    {"radians", 1},      {"step", 2},         {"smoothstep", 3},    {"sign", 1},
}};

}  // namespace

std::optional<MathFn> mathFnByName(std::string_view name) {
  for (size_t i = 0; i < kTable.size(); ++i)
    if (kTable[i].name == name) return MathFn(i);
  return std::nullopt;
}

std::string_view nameOf(MathFn f) { return size_t(f) < kTable.size() ? kTable[size_t(f)].name : "?"; }

int arity(MathFn f) { return size_t(f) < kTable.size() ? kTable[size_t(f)].arity : 0; }

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
