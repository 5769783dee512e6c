// The specification's accuracy requirements as data (see numerics/accuracy.hpp).
//
// Each table below is one of the spec's ULP tables in initialiser form: one line per spec row,
// the columns in the spec's order, a comment naming the source. The rows were extracted from
// the specification sources and are checked against them at test time (tests/accuracy): every
// row of every table, in both directions, with its bound. Cells:
//   CR        "Correctly rounded"
//   U(u)      "<= u ulp" ("0 ulp" for 0)
//   UN(a, b)  "<= a + b·n ulp, for gentype with vector width n"
//   ID        "Implementation-defined"       UNDEF  "Undefined"
//   ANY       "Any value allowed (infinite ulp)"
//   NA        a blank cell: the table states nothing for that format
//   k…, T(…)  a bound with its own wording (the text is kept verbatim)
// The unsafe-math tables have a single column whose text states the full and the embedded
// profile's bound; they are stored as (full, embedded) cells (SAME = as for the full profile)
// with the spec's text on the row.
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <string>

#include "numerics/accuracy.hpp"

namespace clref::numerics {

namespace {

using enum BoundKind;

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Op {
  std::optional<MathFn> fn;
  CoreOp core = CoreOp::None;
};
#define F(name) \
  Op { MathFn::name, CoreOp::None }
#define C(name) \
  Op { std::nullopt, CoreOp::name }

struct Cell {
  BoundKind kind = Ulps;
  double ulps = 0;
  double ulpsPerN = 0;
  bool plusFloorAbs2x = false;
  double absolute = 0;
  double absolutePerN = 0;
  Domain domain = {};
  double otherwiseUlps = -1;
  std::optional<Interval> definedFor = {};
  std::string_view derived = {};
  std::string_view text = {};  // empty: the standard wording of the kind (or the row's text)
  bool blank = false;
  bool same = false;
  double ulpsPerAbsX = 0;
  bool absoluteStrict = false;
};
constexpr Cell T(Cell c) { return c; }
constexpr Cell U(double u) { return Cell{.kind = Ulps, .ulps = u}; }
constexpr Cell UN(double a, double b) { return Cell{.kind = Ulps, .ulps = a, .ulpsPerN = b}; }
constexpr Cell CR{.kind = CorrectlyRounded};
constexpr Cell ID{.kind = ImplementationDefined};
constexpr Cell UNDEF{.kind = Undefined};
constexpr Cell ANY{.kind = AnyValue};
constexpr Cell NA{.blank = true};
constexpr Cell SAME{.same = true};

struct Row {
  std::string_view name;
  Op op;
  Cell cells[3] = {};
  std::string_view text = {};  // single-column tables: the spec's cell
};
struct Column {
  Format format;
  Profile profile;
};
struct Table {
  Document document;
  std::string_view anchor;
  std::string_view source;
  std::string_view title;
  Column columns[3];
  int columnCount;
  std::span<const Row> rows;
  // Vulkan: a Format::Double row is added from each row's first (single precision) column.
  bool doubleFromFirst = false;
};

// Cells that the tables share, named by their text.
constexpr Cell kCrossFltEpsilon = Cell{.kind = AbsoluteMaxSquared,
                                       .absolute = 3 * 0x1p-23,
                                       .text =
                                           "absolute error tolerance of 'max * max * (3 * FLT_EPSILON)' per vector "
                                           "component, where max is the maximum input operand magnitude"};
constexpr Cell kCrossHalfEpsilon = Cell{.kind = AbsoluteMaxSquared,
                                        .absolute = 3 * 0x1p-10,
                                        .text =
                                            "absolute error tolerance of 'max * max * (3 * HALF_EPSILON)' per vector "
                                            "component, where max is the maximum input operand magnitude"};
constexpr Cell kDotFltEpsilon =
    Cell{.kind = AbsoluteMaxSquared,
         .absolute = -0x1p-23,
         .absolutePerN = 2 * 0x1p-23,
         .text =
             "absolute error tolerance of 'max * max * (2n - 1) * FLT_EPSILON', for vector width n and maximum input "
             "operand magnitude max across all vector components"};
constexpr Cell kDotHalfEpsilon =
    Cell{.kind = AbsoluteMaxSquared,
         .absolute = -0x1p-10,
         .absolutePerN = 2 * 0x1p-10,
         .text =
             "absolute error tolerance of 'max * max * (2n - 1) * HALF_EPSILON', for vector width n and maximum input "
             "operand magnitude max across all vector components"};
constexpr Cell kMadSpirvEnv = Cell{.kind = FmaOrMulAdd,
                                   .text =
                                       "Implemented either as a correctly rounded fma, or as a multiply followed by an "
                                       "add, both of which are correctly rounded"};
constexpr Cell kAbsolute1em3 = Cell{.kind = Absolute, .absolute = 1e-3, .text = "absolute error tolerance of 1e-3"};
constexpr Cell kRemquo = Cell{
    .kind = Ulps, .ulps = 0, .text = "0 ulp for the remainder, at least the lower 7 bits of the integral quotient"};
constexpr Cell kSinCos4Ulp = Cell{.kind = Ulps, .ulps = 4, .text = "<= 4 ulp for sine and cosine values"};
constexpr Cell kSinCos2Ulp = Cell{.kind = Ulps, .ulps = 2, .text = "<= 2 ulp for sine and cosine values"};
constexpr Cell kAbsolute1em5 = Cell{.kind = Absolute, .absolute = 1e-5, .text = "absolute error tolerance of 1e-5"};
constexpr Cell kMadOpenCLC = Cell{.kind = FmaOrMulAdd,
                                  .text =
                                      "Implemented either as a correctly rounded fma or as a multiply followed by an "
                                      "add both of which are correctly rounded"};

// opencl-spirv-env-latest/numerical_compliance.asciidoc § "Relative Error as ULPs", table "ULP Values for Math
// Instructions - Full Profile" [[ulp_values_for_math_instructions]]. Columns: Minimum Accuracy - Float64 | Minimum
// Accuracy - Float32 | Minimum Accuracy - Float16.
constexpr Row kUlpValuesForMathInstructions[] = {
    {"OpFAdd", C(Add), {CR, CR, CR}},
    {"OpFSub", C(Sub), {CR, CR, CR}},
    {"OpFMul", C(Mul), {CR, CR, CR}},
    {"OpFDiv", C(Div), {CR, U(2.5), U(1)}},
    {"acos", F(acos), {U(4), U(4), U(2)}},
    {"acosh", F(acosh), {U(4), U(4), U(2)}},
    {"acospi", F(acospi), {U(5), U(5), U(2)}},
    {"asin", F(asin), {U(4), U(4), U(2)}},
    {"asinh", F(asinh), {U(4), U(4), U(2)}},
    {"asinpi", F(asinpi), {U(5), U(5), U(2)}},
    {"atan", F(atan), {U(5), U(5), U(2)}},
    {"atanh", F(atanh), {U(5), U(5), U(2)}},
    {"atanpi", F(atanpi), {U(5), U(5), U(2)}},
    {"atan2", F(atan2), {U(6), U(6), U(2)}},
    {"atan2pi", F(atan2pi), {U(6), U(6), U(2)}},
    {"cbrt", F(cbrt), {U(2), U(2), U(2)}},
    {"ceil", F(ceil), {CR, CR, CR}},
    {"copysign", F(copysign), {U(0), U(0), U(0)}},
    {"cos", F(cos), {U(4), U(4), U(2)}},
    {"cosh", F(cosh), {U(4), U(4), U(2)}},
    {"cospi", F(cospi), {U(4), U(4), U(2)}},
    {"cross", C(Cross), {kCrossFltEpsilon, kCrossFltEpsilon, kCrossHalfEpsilon}},
    {"degrees", F(degrees), {U(2), U(2), U(2)}},
    {"distance", C(Distance), {UN(5.5, 2), UN(2.5, 2), UN(0, 2)}},
    {"OpDot", C(Dot), {kDotFltEpsilon, kDotFltEpsilon, kDotHalfEpsilon}},
    {"erfc", F(erfc), {U(16), U(16), U(4)}},
    {"erf", F(erf), {U(16), U(16), U(4)}},
    {"exp", F(exp), {U(3), U(3), U(2)}},
    {"exp2", F(exp2), {U(3), U(3), U(2)}},
    {"exp10", F(exp10), {U(3), U(3), U(2)}},
    {"expm1", F(expm1), {U(3), U(3), U(2)}},
    {"fabs", F(fabs), {U(0), U(0), U(0)}},
    {"fclamp", F(fclamp), {U(0), U(0), U(0)}},
    {"fdim", F(fdim), {CR, CR, CR}},
    {"floor", F(floor), {CR, CR, CR}},
    {"fma", F(fma), {CR, CR, CR}},
    {"fmax", F(fmax), {U(0), U(0), U(0)}},
    {"fmax_common", F(fmax_common), {U(0), U(0), U(0)}},
    {"fmin", F(fmin), {U(0), U(0), U(0)}},
    {"fmin_common", F(fmin_common), {U(0), U(0), U(0)}},
    {"fmod", F(fmod), {U(0), U(0), U(0)}},
    {"fract", F(fract), {CR, CR, CR}},
    {"frexp", F(frexp), {U(0), U(0), U(0)}},
    {"hypot", F(hypot), {U(4), U(4), U(2)}},
    {"ilogb", F(ilogb), {U(0), U(0), U(0)}},
    {"ldexp", F(ldexp), {CR, CR, CR}},
    {"length", C(Length), {UN(5.5, 1), UN(2.75, 0.5), UN(0.25, 0.5)}},
    {"lgamma", F(lgamma), {ID, ID, ID}},
    {"lgamma_r", F(lgamma_r), {ID, ID, ID}},
    {"log", F(log), {U(3), U(3), U(2)}},
    {"log2", F(log2), {U(3), U(3), U(2)}},
    {"log10", F(log10), {U(3), U(3), U(2)}},
    {"log1p", F(log1p), {U(2), U(2), U(2)}},
    {"logb", F(logb), {U(0), U(0), U(0)}},
    {"mad", F(mad), {kMadSpirvEnv, kMadSpirvEnv, kMadSpirvEnv}},
    {"maxmag", F(maxmag), {U(0), U(0), U(0)}},
    {"minmag", F(minmag), {U(0), U(0), U(0)}},
    {"mix", F(mix), {ID, kAbsolute1em3, ID}},
    {"modf", F(modf), {U(0), U(0), U(0)}},
    {"nan", F(nan), {U(0), U(0), U(0)}},
    {"nextafter", F(nextafter), {U(0), U(0), U(0)}},
    {"normalize", C(Normalize), {UN(4.5, 1), UN(2, 1), UN(1, 1)}},
    {"pow", F(pow), {U(16), U(16), U(4)}},
    {"pown", F(pown), {U(16), U(16), U(4)}},
    {"powr", F(powr), {U(16), U(16), U(4)}},
    {"radians", F(radians), {U(2), U(2), U(2)}},
    {"remainder", F(remainder), {U(0), U(0), U(0)}},
    {"remquo", F(remquo), {kRemquo, kRemquo, kRemquo}},
    {"rint", F(rint), {CR, CR, CR}},
    {"rootn", F(rootn), {U(16), U(16), U(4)}},
    {"round", F(round), {CR, CR, CR}},
    {"rsqrt", F(rsqrt), {U(2), U(2), U(1)}},
    {"sign", F(sign), {U(0), U(0), U(0)}},
    {"sin", F(sin), {U(4), U(4), U(2)}},
    {"sincos", F(sincos), {kSinCos4Ulp, kSinCos4Ulp, kSinCos2Ulp}},
    {"sinh", F(sinh), {U(4), U(4), U(2)}},
    {"sinpi", F(sinpi), {U(4), U(4), U(2)}},
    {"smoothstep", F(smoothstep), {ID, kAbsolute1em5, ID}},
    {"sqrt", F(sqrt), {CR, U(3), U(1.5)}},
    {"step", F(step), {U(0), U(0), U(0)}},
    {"tan", F(tan), {U(5), U(5), U(2.5)}},
    {"tanh", F(tanh), {U(5), U(5), U(2)}},
    {"tanpi", F(tanpi), {U(6), U(6), U(2)}},
    {"tgamma", F(tgamma), {U(16), U(16), U(4)}},
    {"trunc", F(trunc), {CR, CR, CR}},
    {"half_cos", F(half_cos), {NA, U(8192), NA}},
    {"half_divide", F(half_divide), {NA, U(8192), NA}},
    {"half_exp", F(half_exp), {NA, U(8192), NA}},
    {"half_exp2", F(half_exp2), {NA, U(8192), NA}},
    {"half_exp10", F(half_exp10), {NA, U(8192), NA}},
    {"half_log", F(half_log), {NA, U(8192), NA}},
    {"half_log2", F(half_log2), {NA, U(8192), NA}},
    {"half_log10", F(half_log10), {NA, U(8192), NA}},
    {"half_powr", F(half_powr), {NA, U(8192), NA}},
    {"half_recip", F(half_recip), {NA, U(8192), NA}},
    {"half_rsqrt", F(half_rsqrt), {NA, U(8192), NA}},
    {"half_sin", F(half_sin), {NA, U(8192), NA}},
    {"half_sqrt", F(half_sqrt), {NA, U(8192), NA}},
    {"half_tan", F(half_tan), {NA, U(8192), NA}},
    {"fast_distance", C(FastDistance), {NA, UN(8191.5, 2), NA}},
    {"fast_length", C(FastLength), {NA, UN(8191.5, 1), NA}},
    {"fast_normalize", C(FastNormalize), {NA, UN(8192, 1), NA}},
    {"native_cos", F(native_cos), {NA, ID, NA}},
    {"native_divide", F(native_divide), {NA, ID, NA}},
    {"native_exp", F(native_exp), {NA, ID, NA}},
    {"native_exp2", F(native_exp2), {NA, ID, NA}},
    {"native_exp10", F(native_exp10), {NA, ID, NA}},
    {"native_log", F(native_log), {NA, ID, NA}},
    {"native_log2", F(native_log2), {NA, ID, NA}},
    {"native_log10", F(native_log10), {NA, ID, NA}},
    {"native_powr", F(native_powr), {NA, ID, NA}},
    {"native_recip", F(native_recip), {NA, ID, NA}},
    {"native_rsqrt", F(native_rsqrt), {NA, ID, NA}},
    {"native_sin", F(native_sin), {NA, ID, NA}},
    {"native_sqrt", F(native_sqrt), {NA, ID, NA}},
    {"native_tan", F(native_tan), {NA, ID, NA}},
};

// opencl-spirv-env-latest/numerical_compliance.asciidoc § "Relative Error as ULPs", table "ULP Values for Math
// Instructions - Embedded Profile" [[ulp_values_for_math_instructions_for_embedded_profile]]. Columns: Minimum Accuracy
// - Float64 | Minimum Accuracy - Float32 | Minimum Accuracy - Float16.
constexpr Row kUlpValuesForMathInstructionsForEmbeddedProfile[] = {
    {"OpFAdd", C(Add), {CR, CR, CR}},
    {"OpFSub", C(Sub), {CR, CR, CR}},
    {"OpFMul", C(Mul), {CR, CR, CR}},
    {"OpFDiv", C(Div), {U(3), U(3), U(1)}},
    {"acos", F(acos), {U(4), U(4), U(3)}},
    {"acosh", F(acosh), {U(4), U(4), U(3)}},
    {"acospi", F(acospi), {U(5), U(5), U(3)}},
    {"asin", F(asin), {U(4), U(4), U(3)}},
    {"asinh", F(asinh), {U(4), U(4), U(3)}},
    {"asinpi", F(asinpi), {U(5), U(5), U(3)}},
    {"atan", F(atan), {U(5), U(5), U(3)}},
    {"atanh", F(atanh), {U(5), U(5), U(3)}},
    {"atanpi", F(atanpi), {U(5), U(5), U(3)}},
    {"atan2", F(atan2), {U(6), U(6), U(3)}},
    {"atan2pi", F(atan2pi), {U(6), U(6), U(3)}},
    {"cbrt", F(cbrt), {U(4), U(4), U(2)}},
    {"ceil", F(ceil), {CR, CR, CR}},
    {"copysign", F(copysign), {U(0), U(0), U(0)}},
    {"cos", F(cos), {U(4), U(4), U(2)}},
    {"cosh", F(cosh), {U(4), U(4), U(3)}},
    {"cospi", F(cospi), {U(4), U(4), U(2)}},
    {"cross", C(Cross), {ID, ID, ID}},
    {"degrees", F(degrees), {U(2), U(2), U(2)}},
    {"distance", C(Distance), {ID, ID, ID}},
    {"OpDot", C(Dot), {ID, ID, ID}},
    {"erfc", F(erfc), {U(16), U(16), U(4)}},
    {"erf", F(erf), {U(16), U(16), U(4)}},
    {"exp", F(exp), {U(4), U(4), U(3)}},
    {"exp2", F(exp2), {U(4), U(4), U(3)}},
    {"exp10", F(exp10), {U(4), U(4), U(3)}},
    {"expm1", F(expm1), {U(4), U(4), U(3)}},
    {"fabs", F(fabs), {U(0), U(0), U(0)}},
    {"fclamp", F(fclamp), {U(0), U(0), U(0)}},
    {"fdim", F(fdim), {CR, CR, CR}},
    {"floor", F(floor), {CR, CR, CR}},
    {"fma", F(fma), {CR, CR, CR}},
    {"fmax", F(fmax), {U(0), U(0), U(0)}},
    {"fmax_common", F(fmax_common), {U(0), U(0), U(0)}},
    {"fmin", F(fmin), {U(0), U(0), U(0)}},
    {"fmin_common", F(fmin_common), {U(0), U(0), U(0)}},
    {"fmod", F(fmod), {U(0), U(0), U(0)}},
    {"fract", F(fract), {CR, CR, CR}},
    {"frexp", F(frexp), {U(0), U(0), U(0)}},
    {"hypot", F(hypot), {U(4), U(4), U(3)}},
    {"ilogb", F(ilogb), {U(0), U(0), U(0)}},
    {"ldexp", F(ldexp), {CR, CR, CR}},
    {"length", C(Length), {ID, ID, ID}},
    {"lgamma", F(lgamma), {ID, ID, ID}},
    {"lgamma_r", F(lgamma_r), {ID, ID, ID}},
    {"log", F(log), {U(4), U(4), U(3)}},
    {"log2", F(log2), {U(4), U(4), U(3)}},
    {"log10", F(log10), {U(4), U(4), U(3)}},
    {"log1p", F(log1p), {U(4), U(4), U(3)}},
    {"logb", F(logb), {U(0), U(0), U(0)}},
    {"mad", F(mad), {ID, ID, ID}},
    {"maxmag", F(maxmag), {U(0), U(0), U(0)}},
    {"minmag", F(minmag), {U(0), U(0), U(0)}},
    {"mix", F(mix), {ID, ID, ID}},
    {"modf", F(modf), {U(0), U(0), U(0)}},
    {"nan", F(nan), {U(0), U(0), U(0)}},
    {"nextafter", F(nextafter), {U(0), U(0), U(0)}},
    {"normalize", C(Normalize), {ID, ID, ID}},
    {"pow", F(pow), {U(16), U(16), U(5)}},
    {"pown", F(pown), {U(16), U(16), U(5)}},
    {"powr", F(powr), {U(16), U(16), U(5)}},
    {"radians", F(radians), {U(2), U(2), U(2)}},
    {"remainder", F(remainder), {U(0), U(0), U(0)}},
    {"remquo", F(remquo), {kRemquo, kRemquo, kRemquo}},
    {"rint", F(rint), {CR, CR, CR}},
    {"rootn", F(rootn), {U(16), U(16), U(5)}},
    {"round", F(round), {CR, CR, CR}},
    {"rsqrt", F(rsqrt), {U(4), U(4), U(1)}},
    {"sign", F(sign), {U(0), U(0), U(0)}},
    {"sin", F(sin), {U(4), U(4), U(2)}},
    {"sincos", F(sincos), {kSinCos4Ulp, kSinCos4Ulp, kSinCos2Ulp}},
    {"sinh", F(sinh), {U(4), U(4), U(3)}},
    {"sinpi", F(sinpi), {U(4), U(4), U(2)}},
    {"smoothstep", F(smoothstep), {ID, ID, ID}},
    {"sqrt", F(sqrt), {U(4), U(4), U(1.5)}},
    {"step", F(step), {U(0), U(0), U(0)}},
    {"tan", F(tan), {U(5), U(5), U(3)}},
    {"tanh", F(tanh), {U(5), U(5), U(3)}},
    {"tanpi", F(tanpi), {U(6), U(6), U(3)}},
    {"tgamma", F(tgamma), {U(16), U(16), U(4)}},
    {"trunc", F(trunc), {CR, CR, CR}},
    {"half_cos", F(half_cos), {NA, U(8192), NA}},
    {"half_divide", F(half_divide), {NA, U(8192), NA}},
    {"half_exp", F(half_exp), {NA, U(8192), NA}},
    {"half_exp2", F(half_exp2), {NA, U(8192), NA}},
    {"half_exp10", F(half_exp10), {NA, U(8192), NA}},
    {"half_log", F(half_log), {NA, U(8192), NA}},
    {"half_log2", F(half_log2), {NA, U(8192), NA}},
    {"half_log10", F(half_log10), {NA, U(8192), NA}},
    {"half_powr", F(half_powr), {NA, U(8192), NA}},
    {"half_recip", F(half_recip), {NA, U(8192), NA}},
    {"half_rsqrt", F(half_rsqrt), {NA, U(8192), NA}},
    {"half_sin", F(half_sin), {NA, U(8192), NA}},
    {"half_sqrt", F(half_sqrt), {NA, U(8192), NA}},
    {"half_tan", F(half_tan), {NA, U(8192), NA}},
    {"fast_distance", C(FastDistance), {NA, ID, NA}},
    {"fast_length", C(FastLength), {NA, ID, NA}},
    {"fast_normalize", C(FastNormalize), {NA, ID, NA}},
    {"native_cos", F(native_cos), {NA, ID, NA}},
    {"native_divide", F(native_divide), {NA, ID, NA}},
    {"native_exp", F(native_exp), {NA, ID, NA}},
    {"native_exp2", F(native_exp2), {NA, ID, NA}},
    {"native_exp10", F(native_exp10), {NA, ID, NA}},
    {"native_log", F(native_log), {NA, ID, NA}},
    {"native_log2", F(native_log2), {NA, ID, NA}},
    {"native_log10", F(native_log10), {NA, ID, NA}},
    {"native_powr", F(native_powr), {NA, ID, NA}},
    {"native_recip", F(native_recip), {NA, ID, NA}},
    {"native_rsqrt", F(native_rsqrt), {NA, ID, NA}},
    {"native_sin", F(native_sin), {NA, ID, NA}},
    {"native_sqrt", F(native_sqrt), {NA, ID, NA}},
    {"native_tan", F(native_tan), {NA, ID, NA}},
};

// opencl-spirv-env-latest/numerical_compliance.asciidoc § "Relative Error as ULPs", table "ULP Values for Single
// Precision Math Instructions with -cl-unsafe-math-optimizations"
// [[ulp_values_for_math_instructions_with_fast_relaxed_math]]. Columns: Minimum Accuracy. One spec column covers both
// profiles; stored as (full profile, embedded profile) from its text.
constexpr Row kUlpValuesForMathInstructionsWithFastRelaxedMath[] = {
    {"OpFDiv for 1.0 / x",
     C(Recip),
     {T({.kind = Ulps, .ulps = 2.5, .domain = {.x = Interval{0x1p-126, 0x1p126, false, false, true}}}),
      T({.kind = Ulps, .ulps = 3, .domain = {.x = Interval{0x1p-126, 0x1p126, false, false, true}}})},
     "<= 2.5 ulp for x in the domain of 2^-126 to 2^126 for the full profile, and <= 3 ulp for x in the domain of "
     "2^-126 to 2^126 for the embedded profile."},
    {"OpFDiv for x / y",
     C(Div),
     {T({.kind = Ulps,
         .ulps = 2.5,
         .domain = {.x = Interval{0x1p-62, 0x1p62, false, false, true},
                    .y = Interval{0x1p-62, 0x1p62, false, false, true}}}),
      T({.kind = Ulps,
         .ulps = 3,
         .domain = {.x = Interval{0x1p-62, 0x1p62, false, false, true},
                    .y = Interval{0x1p-62, 0x1p62, false, false, true}}})},
     "<= 2.5 ulp for x in the domain of 2^-62 to 2^62 and y in the domain of 2^-62 to 2^62 for the full profile, and "
     "<= 3 ulp for x in the domain of 2^-62 to 2^62 and y in the domain of 2^-62 to 2^62 for the embedded profile."},
    {"acos", F(acos), {U(4096), SAME}, "<= 4096 ulp"},
    {"acosh",
     F(acosh),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + sqrt(x * x - 1))."}),
      SAME},
     "Derived implementations may implement as log(x + sqrt(x * x - 1)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"acospi",
     F(acospi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as acos(x) * M_PI_F."}), SAME},
     "Derived implementations may implement as acos(x) * M_PI_F. For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"asin", F(asin), {U(4096), SAME}, "<= 4096 ulp"},
    {"asinh",
     F(asinh),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + sqrt(x * x + 1))."}),
      SAME},
     "Derived implementations may implement as log(x + sqrt(x * x + 1)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"asinpi",
     F(asinpi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as asin(x) * M_PI_F."}), SAME},
     "Derived implementations may implement as asin(x) * M_PI_F. For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"atan", F(atan), {U(4096), SAME}, "<= 4096 ulp"},
    {"atanh",
     F(atanh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-1, 1, true, true},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as 0.5f * log((1.0f + x) / (1.0f - x))."}),
      SAME},
     "Defined for x in the domain (-1, 1). For x in [-2^-10, 2^-10], derived implementations may implement as x. For x "
     "outside of [-2^-10, 2^-10], derived implementations may implement as 0.5f * log((1.0f + x) / (1.0f - x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"atanpi",
     F(atanpi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as atan(x) * M_1_PI_F."}), SAME},
     "Derived implementations may implement as atan(x) * M_1_PI_F. For non-derived implementations, the error is <= "
     "8192 ulp."},
    {"atan2",
     F(atan2),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived = "Derived implementations may implement as atan(y / x) for x > 0, atan(y / x) + M_PI_F for x < 0 "
                    "and y > 0, and atan(y / x) - M_PI_F for x < 0 and y < 0."}),
      SAME},
     "Derived implementations may implement as atan(y / x) for x > 0, atan(y / x) + M_PI_F for x < 0 and y > 0, and "
     "atan(y / x) - M_PI_F for x < 0 and y < 0. For non-derived implementations, the error is <= 8192 ulp."},
    {"atan2pi",
     F(atan2pi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as atan2(y, x) * M_1_PI_F."}),
      SAME},
     "Derived implementations may implement as atan2(y, x) * M_1_PI_F. For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"cbrt",
     F(cbrt),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as rootn(x, 3)."}), SAME},
     "Derived implementations may implement as rootn(x, 3). For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"cos",
     F(cos),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "For x in the domain [-pi, pi], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"cosh",
     F(cosh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-88, 88},
         .derived = "Derived implementations may implement as 0.5f * (exp(x) + exp(-x))."}),
      SAME},
     "Defined for x in the domain [-88, 88]. Derived implementations may implement as 0.5f * (exp(x) + exp(-x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"cospi",
     F(cospi),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-1, 1}}}), SAME},
     "For x in the domain [-1, 1], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"exp",
     F(exp),
     {T({.kind = Ulps, .ulps = 3, .plusFloorAbs2x = true}), T({.kind = Ulps, .ulps = 4, .plusFloorAbs2x = true})},
     "<= 3 + floor(fabs(2 * x)) ulp for the full profile, and <= 4 + floor(fabs(2 * x)) ulp for the embedded profile."},
    {"exp2",
     F(exp2),
     {T({.kind = Ulps, .ulps = 3, .plusFloorAbs2x = true}), T({.kind = Ulps, .ulps = 4, .plusFloorAbs2x = true})},
     "<= 3 + floor(fabs(2 * x)) ulp for the full profile, and <= 4 + floor(fabs(2 * x)) ulp for the embedded profile."},
    {"exp10",
     F(exp10),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as exp2(x * log2(10))."}), SAME},
     "Derived implementations may implement as exp2(x * log2(10)). For non-derived implementations, the error is <= "
     "8192 ulp."},
    {"expm1",
     F(expm1),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as exp(x) - 1."}), SAME},
     "Derived implementations may implement as exp(x) - 1. For non-derived implementations, the error is <= 8192 ulp."},
    {"log",
     F(log),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log2",
     F(log2),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log10",
     F(log10),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log1p",
     F(log1p),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + 1)."}), SAME},
     "Derived implementations may implement as log(x + 1). For non-derived implementations, the error is <= 8192 ulp."},
    {"pow",
     F(pow),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived =
             "Undefined for x = 0 and y = 0. Undefined for x < 0 and non-integer y. Undefined for x < 0 and y outside "
             "the domain [-2^24, 2^24]. For x > 0 or x < 0 and even y, derived implementations may implement as exp2(y "
             "* log2(fabs(x))). For x < 0 and odd y, derived implementations may implement as -exp2(y * log2(fabs(x)). "
             "For x == 0 and non-zero y, for derived implementations may return zero."}),
      SAME},
     "Undefined for x = 0 and y = 0. Undefined for x < 0 and non-integer y. Undefined for x < 0 and y outside the "
     "domain [-2^24, 2^24]. For x > 0 or x < 0 and even y, derived implementations may implement as exp2(y * "
     "log2(fabs(x))). For x < 0 and odd y, derived implementations may implement as -exp2(y * log2(fabs(x)). For x == "
     "0 and non-zero y, for derived implementations may return zero. For non-derived implementations, the error is <= "
     "8192 ulp. On some implementations, powr() or pown() may perform faster than pow(). If x is known to be >= 0, "
     "consider using powr() in place of pow(), or if y is known to be an integer, consider using pown() in place of "
     "pow()."},
    {"pown",
     F(pown),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived = "Defined only for integer values of y. Undefined for x = 0 and y = 0. For x >= 0 or x < 0 and even "
                    "y, derived implementations may implement as exp2(y * log2(fabs(x))). For x < 0 and odd y, derived "
                    "implementations may implement as -exp2(y * log2(fabs(x)))."}),
      SAME},
     "Defined only for integer values of y. Undefined for x = 0 and y = 0. For x >= 0 or x < 0 and even y, derived "
     "implementations may implement as exp2(y * log2(fabs(x))). For x < 0 and odd y, derived implementations may "
     "implement as -exp2(y * log2(fabs(x))). For non-derived implementations, the error is <= 8192 ulp."},
    {"powr",
     F(powr),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{0, kInf},
         .derived = "Defined only for x >= 0. Undefined for x = 0 and y = 0. Derived implementations may implement as "
                    "exp2(y * log2(x))."}),
      SAME},
     "Defined only for x >= 0. Undefined for x = 0 and y = 0. Derived implementations may implement as exp2(y * "
     "log2(x)). For non-derived implementations, the error is <= 8192 ulp."},
    {"rootn",
     F(rootn),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived =
             "Defined for x > 0 when y is non-zero, derived implementations may implement this case as exp2(log2(x) / "
             "y). Defined for x < 0 when y is odd, derived implementations may implement this case as -exp2(log2(-x) / "
             "y). Defined for x = +/-0 when y > 0, derived implementations may return +0 in this case."}),
      SAME},
     "Defined for x > 0 when y is non-zero, derived implementations may implement this case as exp2(log2(x) / y). "
     "Defined for x < 0 when y is odd, derived implementations may implement this case as -exp2(log2(-x) / y). Defined "
     "for x = +/-0 when y > 0, derived implementations may return +0 in this case. For non-derived implementations, "
     "the error is <= 8192 ulp."},
    {"sin",
     F(sin),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "For x in the domain [-pi, pi], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"sincos",
     F(sincos),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "ulp values as defined for sin(x) and cos(x)."},
    {"sinh",
     F(sinh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-88, 88},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as 0.5f * (exp(x) - exp(-x))."}),
      SAME},
     "Defined for x in the domain [-88, 88]. For x in [-2^-10, 2^-10], derived implementations may implement as x. For "
     "x outside of [-2^-10, 2^-10], derived implementations may implement as 0.5f * (exp(x) - exp(-x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"sinpi",
     F(sinpi),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-1, 1}}}), SAME},
     "For x in the domain [-1, 1], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"tan",
     F(tan),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as sin(x) * (1.0f / cos(x))."}),
      SAME},
     "Derived implementations may implement as sin(x) * (1.0f / cos(x)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"tanh",
     F(tanh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-kInf, kInf},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as (exp(x) - exp(-x)) / (exp(x) + exp(-x))."}),
      SAME},
     "Defined for x in the domain [-inf, inf]. For x in [-2^-10, 2^-10], derived implementations may implement as x. "
     "For x outside of [-2^-10, 2^-10], derived implementations may implement as (exp(x) - exp(-x)) / (exp(x) + "
     "exp(-x)). For non-derived implementations, the error is <= 8192 ULP."},
    {"tanpi",
     F(tanpi),
     {T({.kind = Ulps,
         .ulps = 8192,
         .domain = {.x = Interval{-1, 1}},
         .derived = "Derived implementations may implement as tan(x * M_PI_F)."}),
      SAME},
     "Derived implementations may implement as tan(x * M_PI_F). For non-derived implementations, the error is <= 8192 "
     "ulp for x in the domain [-1, 1]."},
    {"OpFMul and OpFAdd, for x * y + z",
     C(MulAdd),
     {T({.kind = FmaOrMulAdd}), SAME},
     "Implemented either as a correctly rounded fma or as a multiply and an add both of which are correctly rounded."},
};

// opencl-c-spec.adoc § "Relative Error as ULPs", table "ULP Values for Single-Precision Built-in Math Functions"
// [[table-ulp-float-math]]. Columns: Min Accuracy - ULP values.
constexpr Row kTableUlpFloatMath[] = {
    {"x + y", C(Add), {CR}},
    {"x - y", C(Sub), {CR}},
    {"x * y", C(Mul), {CR}},
    {"1.0 / x", C(Recip), {U(2.5)}},
    {"x / y", C(Div), {U(2.5)}},
    {"acos", F(acos), {U(4)}},
    {"acospi", F(acospi), {U(5)}},
    {"asin", F(asin), {U(4)}},
    {"asinpi", F(asinpi), {U(5)}},
    {"atan", F(atan), {U(5)}},
    {"atan2", F(atan2), {U(6)}},
    {"atanpi", F(atanpi), {U(5)}},
    {"atan2pi", F(atan2pi), {U(6)}},
    {"acosh", F(acosh), {U(4)}},
    {"asinh", F(asinh), {U(4)}},
    {"atanh", F(atanh), {U(5)}},
    {"cbrt", F(cbrt), {U(2)}},
    {"ceil", F(ceil), {CR}},
    {"clamp", F(fclamp), {U(0)}},
    {"copysign", F(copysign), {U(0)}},
    {"cos", F(cos), {U(4)}},
    {"cosh", F(cosh), {U(4)}},
    {"cospi", F(cospi), {U(4)}},
    {"cross", C(Cross), {kCrossFltEpsilon}},
    {"degrees", F(degrees), {U(2)}},
    {"distance", C(Distance), {UN(2.5, 2)}},
    {"dot", C(Dot), {kDotFltEpsilon}},
    {"erfc", F(erfc), {U(16)}},
    {"erf", F(erf), {U(16)}},
    {"exp", F(exp), {U(3)}},
    {"exp2", F(exp2), {U(3)}},
    {"exp10", F(exp10), {U(3)}},
    {"expm1", F(expm1), {U(3)}},
    {"fabs", F(fabs), {U(0)}},
    {"fdim", F(fdim), {CR}},
    {"floor", F(floor), {CR}},
    {"fma", F(fma), {CR}},
    {"fmax", F(fmax), {U(0)}},
    {"fmin", F(fmin), {U(0)}},
    {"fmod", F(fmod), {U(0)}},
    {"fract", F(fract), {CR}},
    {"frexp", F(frexp), {U(0)}},
    {"hypot", F(hypot), {U(4)}},
    {"ilogb", F(ilogb), {U(0)}},
    {"length", C(Length), {UN(2.75, 0.5)}},
    {"ldexp", F(ldexp), {CR}},
    {"lgamma", F(lgamma), {UNDEF}},
    {"lgamma_r", F(lgamma_r), {UNDEF}},
    {"log", F(log), {U(3)}},
    {"log2", F(log2), {U(3)}},
    {"log10", F(log10), {U(3)}},
    {"log1p", F(log1p), {U(2)}},
    {"logb", F(logb), {U(0)}},
    {"mad", F(mad), {kMadOpenCLC}},
    {"max", F(fmax_common), {U(0)}},
    {"maxmag", F(maxmag), {U(0)}},
    {"min", F(fmin_common), {U(0)}},
    {"minmag", F(minmag), {U(0)}},
    {"mix", F(mix), {kAbsolute1em3}},
    {"modf", F(modf), {U(0)}},
    {"nan", F(nan), {U(0)}},
    {"nextafter", F(nextafter), {U(0)}},
    {"normalize", C(Normalize), {UN(2, 1)}},
    {"pow(x, y)", F(pow), {U(16)}},
    {"pown(x, y)", F(pown), {U(16)}},
    {"powr(x, y)", F(powr), {U(16)}},
    {"radians", F(radians), {U(2)}},
    {"remainder", F(remainder), {U(0)}},
    {"remquo", F(remquo), {U(0)}},
    {"rint", F(rint), {CR}},
    {"rootn", F(rootn), {U(16)}},
    {"round", F(round), {CR}},
    {"rsqrt", F(rsqrt), {U(2)}},
    {"sign", F(sign), {U(0)}},
    {"sin", F(sin), {U(4)}},
    {"sincos", F(sincos), {kSinCos4Ulp}},
    {"sinh", F(sinh), {U(4)}},
    {"sinpi", F(sinpi), {U(4)}},
    {"smoothstep", F(smoothstep), {kAbsolute1em5}},
    {"sqrt", F(sqrt), {U(3)}},
    {"step", F(step), {U(0)}},
    {"tan", F(tan), {U(5)}},
    {"tanh", F(tanh), {U(5)}},
    {"tanpi", F(tanpi), {U(6)}},
    {"tgamma", F(tgamma), {U(16)}},
    {"trunc", F(trunc), {CR}},
    {"half_cos", F(half_cos), {U(8192)}},
    {"half_divide", F(half_divide), {U(8192)}},
    {"half_exp", F(half_exp), {U(8192)}},
    {"half_exp2", F(half_exp2), {U(8192)}},
    {"half_exp10", F(half_exp10), {U(8192)}},
    {"half_log", F(half_log), {U(8192)}},
    {"half_log2", F(half_log2), {U(8192)}},
    {"half_log10", F(half_log10), {U(8192)}},
    {"half_powr", F(half_powr), {U(8192)}},
    {"half_recip", F(half_recip), {U(8192)}},
    {"half_rsqrt", F(half_rsqrt), {U(8192)}},
    {"half_sin", F(half_sin), {U(8192)}},
    {"half_sqrt", F(half_sqrt), {U(8192)}},
    {"half_tan", F(half_tan), {U(8192)}},
    {"fast_distance", C(FastDistance), {UN(8191.5, 2)}},
    {"fast_length", C(FastLength), {UN(8191.5, 1)}},
    {"fast_normalize", C(FastNormalize), {UN(8192, 1)}},
    {"native_cos", F(native_cos), {ID}},
    {"native_divide", F(native_divide), {ID}},
    {"native_exp", F(native_exp), {ID}},
    {"native_exp2", F(native_exp2), {ID}},
    {"native_exp10", F(native_exp10), {ID}},
    {"native_log", F(native_log), {ID}},
    {"native_log2", F(native_log2), {ID}},
    {"native_log10", F(native_log10), {ID}},
    {"native_powr", F(native_powr), {ID}},
    {"native_recip", F(native_recip), {ID}},
    {"native_rsqrt", F(native_rsqrt), {ID}},
    {"native_sin", F(native_sin), {ID}},
    {"native_sqrt", F(native_sqrt), {ID}},
    {"native_tan", F(native_tan), {ID}},
};

// opencl-c-spec.adoc § "Relative Error as ULPs", table "ULP Values for the Embedded Profile" [[table-ulp-embedded]].
// Columns: Min Accuracy - ULP values.
constexpr Row kTableUlpEmbedded[] = {
    {"x + y", C(Add), {CR}},
    {"x - y", C(Sub), {CR}},
    {"x * y", C(Mul), {CR}},
    {"1.0 / x", C(Recip), {U(3)}},
    {"x / y", C(Div), {U(3)}},
    {"acos", F(acos), {U(4)}},
    {"acospi", F(acospi), {U(5)}},
    {"asin", F(asin), {U(4)}},
    {"asinpi", F(asinpi), {U(5)}},
    {"atan", F(atan), {U(5)}},
    {"atan2", F(atan2), {U(6)}},
    {"atanpi", F(atanpi), {U(5)}},
    {"atan2pi", F(atan2pi), {U(6)}},
    {"acosh", F(acosh), {U(4)}},
    {"asinh", F(asinh), {U(4)}},
    {"atanh", F(atanh), {U(5)}},
    {"cbrt", F(cbrt), {U(4)}},
    {"ceil", F(ceil), {CR}},
    {"clamp", F(fclamp), {U(0)}},
    {"copysign", F(copysign), {U(0)}},
    {"cos", F(cos), {U(4)}},
    {"cosh", F(cosh), {U(4)}},
    {"cospi", F(cospi), {U(4)}},
    {"cross", C(Cross), {ID}},
    {"degrees", F(degrees), {U(2)}},
    {"distance", C(Distance), {ID}},
    {"dot", C(Dot), {ID}},
    {"erfc", F(erfc), {U(16)}},
    {"erf", F(erf), {U(16)}},
    {"exp", F(exp), {U(4)}},
    {"exp2", F(exp2), {U(4)}},
    {"exp10", F(exp10), {U(4)}},
    {"expm1", F(expm1), {U(4)}},
    {"fabs", F(fabs), {U(0)}},
    {"fdim", F(fdim), {CR}},
    {"floor", F(floor), {CR}},
    {"fma", F(fma), {CR}},
    {"fmax", F(fmax), {U(0)}},
    {"fmin", F(fmin), {U(0)}},
    {"fmod", F(fmod), {U(0)}},
    {"fract", F(fract), {CR}},
    {"frexp", F(frexp), {U(0)}},
    {"hypot", F(hypot), {U(4)}},
    {"ilogb", F(ilogb), {U(0)}},
    {"ldexp", F(ldexp), {CR}},
    {"length", C(Length), {ID}},
    {"log", F(log), {U(4)}},
    {"log2", F(log2), {U(4)}},
    {"log10", F(log10), {U(4)}},
    {"log1p", F(log1p), {U(4)}},
    {"logb", F(logb), {U(0)}},
    {"mad", F(mad), {ANY}},
    {"max", F(fmax_common), {U(0)}},
    {"maxmag", F(maxmag), {U(0)}},
    {"min", F(fmin_common), {U(0)}},
    {"minmag", F(minmag), {U(0)}},
    {"mix", F(mix), {ID}},
    {"modf", F(modf), {U(0)}},
    {"nan", F(nan), {U(0)}},
    {"normalize", C(Normalize), {ID}},
    {"nextafter", F(nextafter), {U(0)}},
    {"pow(x, y)", F(pow), {U(16)}},
    {"pown(x, y)", F(pown), {U(16)}},
    {"powr(x, y)", F(powr), {U(16)}},
    {"radians", F(radians), {U(2)}},
    {"remainder", F(remainder), {U(0)}},
    {"remquo", F(remquo), {U(0)}},
    {"rint", F(rint), {CR}},
    {"rootn", F(rootn), {U(16)}},
    {"round", F(round), {CR}},
    {"rsqrt", F(rsqrt), {U(4)}},
    {"sign", F(sign), {U(0)}},
    {"sin", F(sin), {U(4)}},
    {"sincos", F(sincos), {kSinCos4Ulp}},
    {"sinh", F(sinh), {U(4)}},
    {"sinpi", F(sinpi), {U(4)}},
    {"smoothstep", F(smoothstep), {ID}},
    {"sqrt", F(sqrt), {U(4)}},
    {"step", F(step), {U(0)}},
    {"tan", F(tan), {U(5)}},
    {"tanh", F(tanh), {U(5)}},
    {"tanpi", F(tanpi), {U(6)}},
    {"tgamma", F(tgamma), {U(16)}},
    {"trunc", F(trunc), {CR}},
    {"half_cos", F(half_cos), {U(8192)}},
    {"half_divide", F(half_divide), {U(8192)}},
    {"half_exp", F(half_exp), {U(8192)}},
    {"half_exp2", F(half_exp2), {U(8192)}},
    {"half_exp10", F(half_exp10), {U(8192)}},
    {"half_log", F(half_log), {U(8192)}},
    {"half_log2", F(half_log2), {U(8192)}},
    {"half_log10", F(half_log10), {U(8192)}},
    {"half_powr", F(half_powr), {U(8192)}},
    {"half_recip", F(half_recip), {U(8192)}},
    {"half_rsqrt", F(half_rsqrt), {U(8192)}},
    {"half_sin", F(half_sin), {U(8192)}},
    {"half_sqrt", F(half_sqrt), {U(8192)}},
    {"half_tan", F(half_tan), {U(8192)}},
    {"fast_distance", C(FastDistance), {ID}},
    {"fast_length", C(FastLength), {ID}},
    {"fast_normalize", C(FastNormalize), {ID}},
    {"native_cos", F(native_cos), {ID}},
    {"native_divide", F(native_divide), {ID}},
    {"native_exp", F(native_exp), {ID}},
    {"native_exp2", F(native_exp2), {ID}},
    {"native_exp10", F(native_exp10), {ID}},
    {"native_log", F(native_log), {ID}},
    {"native_log2", F(native_log2), {ID}},
    {"native_log10", F(native_log10), {ID}},
    {"native_powr", F(native_powr), {ID}},
    {"native_recip", F(native_recip), {ID}},
    {"native_rsqrt", F(native_rsqrt), {ID}},
    {"native_sin", F(native_sin), {ID}},
    {"native_sqrt", F(native_sqrt), {ID}},
    {"native_tan", F(native_tan), {ID}},
};

// opencl-c-spec.adoc § "Relative Error as ULPs", table "ULP Values for Single-Precision Built-in Math Functions With
// Unsafe Math Optimizations in the Full and Embedded Profiles" [[table-float-ulp-relaxed]]. Columns: Minimum Accuracy.
// One spec column covers both profiles; stored as (full profile, embedded profile) from its text.
constexpr Row kTableFloatUlpRelaxed[] = {
    {"1.0 / x",
     C(Recip),
     {T({.kind = Ulps, .ulps = 2.5, .domain = {.x = Interval{0x1p-126, 0x1p126, false, false, true}}}),
      T({.kind = Ulps, .ulps = 3})},
     "<= 2.5 ulp for x in the domain of 2^-126 to 2^126 for the full profile, and <= 3 ulp for the embedded profile."},
    {"x / y",
     C(Div),
     {T({.kind = Ulps,
         .ulps = 2.5,
         .domain = {.x = Interval{0x1p-62, 0x1p62, false, false, true},
                    .y = Interval{0x1p-62, 0x1p62, false, false, true}}}),
      T({.kind = Ulps, .ulps = 3})},
     "<= 2.5 ulp for x in the domain of 2^-62 to 2^62 and y in the domain of 2^-62 to 2^62 for the full profile, and "
     "<= 3 ulp for the embedded profile."},
    {"acos(x)", F(acos), {U(4096), SAME}, "<= 4096 ulp"},
    {"acosh(x)",
     F(acosh),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + sqrt(x * x - 1))."}),
      SAME},
     "Derived implementations may implement as log(x + sqrt(x * x - 1)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"acospi(x)",
     F(acospi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as acos(x) * M_PI_F."}), SAME},
     "Derived implementations may implement as acos(x) * M_PI_F. For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"asin(x)", F(asin), {U(4096), SAME}, "<= 4096 ulp"},
    {"asinh(x)",
     F(asinh),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + sqrt(x * x + 1))."}),
      SAME},
     "Derived implementations may implement as log(x + sqrt(x * x + 1)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"asinpi(x)",
     F(asinpi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as asin(x) * M_PI_F."}), SAME},
     "Derived implementations may implement as asin(x) * M_PI_F. For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"atan(x)", F(atan), {U(4096), SAME}, "<= 4096 ulp"},
    {"atanh(x)",
     F(atanh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-1, 1, true, true},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as 0.5f * log((1.0f + x) / (1.0f - x))."}),
      SAME},
     "Defined for x in the domain (-1, 1). For x in [-2^-10, 2^-10], derived implementations may implement as x. For x "
     "outside of [-2^-10, 2^-10], derived implementations may implement as 0.5f * log((1.0f + x) / (1.0f - x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"atanpi(x)",
     F(atanpi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as atan(x) * M_1_PI_F."}), SAME},
     "Derived implementations may implement as atan(x) * M_1_PI_F. For non-derived implementations, the error is <= "
     "8192 ulp."},
    {"atan2(y, x)",
     F(atan2),
     {T({.kind = Derived,
         .derived = "Derived implementations may implement as atan(y / x) for x > 0, atan(y / x) + M_PI_F for x < 0 "
                    "and y > 0, and atan(y / x) - M_PI_F for x < 0 and y < 0."}),
      SAME},
     "Derived implementations may implement as atan(y / x) for x > 0, atan(y / x) + M_PI_F for x < 0 and y > 0, and "
     "atan(y / x) - M_PI_F for x < 0 and y < 0."},
    {"atan2pi(y, x)",
     F(atan2pi),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as atan2(y, x) * M_1_PI_F."}),
      SAME},
     "Derived implementations may implement as atan2(y, x) * M_1_PI_F. For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"cbrt(x)",
     F(cbrt),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as rootn(x, 3)."}), SAME},
     "Derived implementations may implement as rootn(x, 3). For non-derived implementations, the error is <= 8192 "
     "ulp."},
    {"cos(x)",
     F(cos),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "For x in the domain [-pi, pi], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"cosh(x)",
     F(cosh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-88, 88},
         .derived = "Derived implementations may implement as 0.5f * (exp(x) + exp(-x))."}),
      SAME},
     "Defined for x in the domain [-88, 88]. Derived implementations may implement as 0.5f * (exp(x) + exp(-x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"cospi(x)",
     F(cospi),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-1, 1}}}), SAME},
     "For x in the domain [-1, 1], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"exp(x)",
     F(exp),
     {T({.kind = Ulps, .ulps = 3, .plusFloorAbs2x = true}), T({.kind = Ulps, .ulps = 4})},
     "<= 3 + floor(fabs(2 * x)) ulp for the full profile, and <= 4 ulp for the embedded profile."},
    {"exp2(x)",
     F(exp2),
     {T({.kind = Ulps, .ulps = 3, .plusFloorAbs2x = true}), T({.kind = Ulps, .ulps = 4})},
     "<= 3 + floor(fabs(2 * x)) ulp for the full profile, and <= 4 ulp for the embedded profile."},
    {"exp10(x)",
     F(exp10),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as exp2(x * log2(10))."}), SAME},
     "Derived implementations may implement as exp2(x * log2(10)). For non-derived implementations, the error is <= "
     "8192 ulp."},
    {"expm1(x)",
     F(expm1),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as exp(x) - 1."}), SAME},
     "Derived implementations may implement as exp(x) - 1. For non-derived implementations, the error is <= 8192 ulp."},
    {"log(x)",
     F(log),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log2(x)",
     F(log2),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log10(x)",
     F(log10),
     {T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 3}),
      T({.kind = Absolute, .absolute = 0x1p-21, .domain = {.x = Interval{0.5, 2}}, .otherwiseUlps = 4})},
     "For x in the domain [0.5, 2] the maximum absolute error is <= 2^-21; otherwise the maximum error is <= 3 ulp for "
     "the full profile and <= 4 ulp for the embedded profile."},
    {"log1p(x)",
     F(log1p),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as log(x + 1)."}), SAME},
     "Derived implementations may implement as log(x + 1). For non-derived implementations, the error is <= 8192 ulp."},
    {"pow(x, y)",
     F(pow),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived =
             "Undefined for x = 0 and y = 0. Undefined for x < 0 and non-integer y. Undefined for x < 0 and y outside "
             "the domain [-2^24, 2^24]. For x > 0 or x < 0 and even y, derived implementations may implement as exp2(y "
             "* log2(fabs(x))). For x < 0 and odd y, derived implementations may implement as -exp2(y * log2(fabs(x)). "
             "For x == 0 and non-zero y, for derived implementations may return zero."}),
      SAME},
     "Undefined for x = 0 and y = 0. Undefined for x < 0 and non-integer y. Undefined for x < 0 and y outside the "
     "domain [-2^24, 2^24]. For x > 0 or x < 0 and even y, derived implementations may implement as exp2(y * "
     "log2(fabs(x))). For x < 0 and odd y, derived implementations may implement as -exp2(y * log2(fabs(x)). For x == "
     "0 and non-zero y, for derived implementations may return zero. For non-derived implementations, the error is <= "
     "8192 ulp."},
    {"pown(x, y)",
     F(pown),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived = "Defined only for integer values of y. Undefined for x = 0 and y = 0. For x >= 0 or x < 0 and even "
                    "y, derived implementations may implement as exp2(y * log2(fabs(x))). For x < 0 and odd y, derived "
                    "implementations may implement as -exp2(y * log2(fabs(x)))."}),
      SAME},
     "Defined only for integer values of y. Undefined for x = 0 and y = 0. For x >= 0 or x < 0 and even y, derived "
     "implementations may implement as exp2(y * log2(fabs(x))). For x < 0 and odd y, derived implementations may "
     "implement as -exp2(y * log2(fabs(x))). For non-derived implementations, the error is <= 8192 ulp."},
    {"powr(x, y)",
     F(powr),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{0, kInf},
         .derived = "Defined only for x >= 0. Undefined for x = 0 and y = 0. Derived implementations may implement as "
                    "exp2(y * log2(x))."}),
      SAME},
     "Defined only for x >= 0. Undefined for x = 0 and y = 0. Derived implementations may implement as exp2(y * "
     "log2(x)). For non-derived implementations, the error is <= 8192 ulp."},
    {"rootn(x, y)",
     F(rootn),
     {T({.kind = Ulps,
         .ulps = 8192,
         .derived =
             "Defined for x > 0 when y is non-zero, derived implementations may implement this case as exp2(log2(x) / "
             "y). Defined for x < 0 when y is odd, derived implementations may implement this case as -exp2(log2(-x) / "
             "y). Defined for x = +/-0 when y > 0, derived implementations may return +0 in this case."}),
      SAME},
     "Defined for x > 0 when y is non-zero, derived implementations may implement this case as exp2(log2(x) / y). "
     "Defined for x < 0 when y is odd, derived implementations may implement this case as -exp2(log2(-x) / y). Defined "
     "for x = +/-0 when y > 0, derived implementations may return +0 in this case. For non-derived implementations, "
     "the error is <= 8192 ulp."},
    {"sin(x)",
     F(sin),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "For x in the domain [-pi, pi], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"sincos(x)",
     F(sincos),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-kPi, kPi}}}), SAME},
     "ulp values as defined for sin(x) and cos(x)."},
    {"sinh(x)",
     F(sinh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-88, 88},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as 0.5f * (exp(x) - exp(-x))."}),
      SAME},
     "Defined for x in the domain [-88,88]. For x in [-2^-10, 2^-10], derived implementations may implement as x. For "
     "x outside of [-2^-10, 2^-10], derived implementations may implement as 0.5f * (exp(x) - exp(-x)). For "
     "non-derived implementations, the error is <= 8192 ulp."},
    {"sinpi(x)",
     F(sinpi),
     {T({.kind = Absolute, .absolute = 0x1p-11, .domain = {.x = Interval{-1, 1}}}), SAME},
     "For x in the domain [-1, 1], the maximum absolute error is <= 2^-11 and larger otherwise."},
    {"tan(x)",
     F(tan),
     {T({.kind = Ulps, .ulps = 8192, .derived = "Derived implementations may implement as sin(x) * (1.0f / cos(x))."}),
      SAME},
     "Derived implementations may implement as sin(x) * (1.0f / cos(x)). For non-derived implementations, the error is "
     "<= 8192 ulp."},
    {"tanh(x)",
     F(tanh),
     {T({.kind = Ulps,
         .ulps = 8192,
         .definedFor = Interval{-kInf, kInf},
         .derived = "For x in [-2^-10, 2^-10], derived implementations may implement as x. For x outside of [-2^-10, "
                    "2^-10], derived implementations may implement as (exp(x) - exp(-x)) / (exp(x) + exp(-x))."}),
      SAME},
     "Defined for x in the domain [-inf, inf]. For x in [-2^-10, 2^-10], derived implementations may implement as x. "
     "For x outside of [-2^-10, 2^-10], derived implementations may implement as (exp(x) - exp(-x)) / (exp(x) + "
     "exp(-x)). For non-derived implementations, the error is <= 8192 ULP."},
    {"tanpi(x)",
     F(tanpi),
     {T({.kind = Ulps,
         .ulps = 8192,
         .domain = {.x = Interval{-1, 1}},
         .derived = "Derived implementations may implement as tan(x * M_PI_F)."}),
      SAME},
     "Derived implementations may implement as tan(x * M_PI_F). For non-derived implementations, the error is <= 8192 "
     "ulp for x in the domain [-1, 1]."},
    {"x * y + z",
     C(MulAdd),
     {T({.kind = FmaOrMulAdd}), SAME},
     "Implemented either as a correctly rounded fma or as a multiply and an add both of which are correctly rounded."},
};

// opencl-c-spec.adoc § "Relative Error as ULPs", table "ULP Values for Double-Precision Built-in Math Functions"
// [[table-ulp-double]]. Columns: Min Accuracy - ULP values.
constexpr Row kTableUlpDouble[] = {
    {"x + y", C(Add), {CR}},
    {"x - y", C(Sub), {CR}},
    {"x * y", C(Mul), {CR}},
    {"1.0 / x", C(Recip), {CR}},
    {"x / y", C(Div), {CR}},
    {"acos", F(acos), {U(4)}},
    {"acospi", F(acospi), {U(5)}},
    {"asin", F(asin), {U(4)}},
    {"asinpi", F(asinpi), {U(5)}},
    {"atan", F(atan), {U(5)}},
    {"atan2", F(atan2), {U(6)}},
    {"atanpi", F(atanpi), {U(5)}},
    {"atan2pi", F(atan2pi), {U(6)}},
    {"acosh", F(acosh), {U(4)}},
    {"asinh", F(asinh), {U(4)}},
    {"atanh", F(atanh), {U(5)}},
    {"cbrt", F(cbrt), {U(2)}},
    {"ceil", F(ceil), {CR}},
    {"clamp", F(fclamp), {U(0)}},
    {"copysign", F(copysign), {U(0)}},
    {"cos", F(cos), {U(4)}},
    {"cosh", F(cosh), {U(4)}},
    {"cospi", F(cospi), {U(4)}},
    {"cross", C(Cross), {kCrossFltEpsilon}},
    {"degrees", F(degrees), {U(2)}},
    {"distance", C(Distance), {UN(5.5, 2)}},
    {"dot", C(Dot), {kDotFltEpsilon}},
    {"erfc", F(erfc), {U(16)}},
    {"erf", F(erf), {U(16)}},
    {"exp", F(exp), {U(3)}},
    {"exp2", F(exp2), {U(3)}},
    {"exp10", F(exp10), {U(3)}},
    {"expm1", F(expm1), {U(3)}},
    {"fabs", F(fabs), {U(0)}},
    {"fdim", F(fdim), {CR}},
    {"floor", F(floor), {CR}},
    {"fma", F(fma), {CR}},
    {"fmax", F(fmax), {U(0)}},
    {"fmin", F(fmin), {U(0)}},
    {"fmod", F(fmod), {U(0)}},
    {"fract", F(fract), {CR}},
    {"frexp", F(frexp), {U(0)}},
    {"hypot", F(hypot), {U(4)}},
    {"ilogb", F(ilogb), {U(0)}},
    {"length", C(Length), {UN(5.5, 1)}},
    {"ldexp", F(ldexp), {CR}},
    {"log", F(log), {U(3)}},
    {"log2", F(log2), {U(3)}},
    {"log10", F(log10), {U(3)}},
    {"log1p", F(log1p), {U(2)}},
    {"logb", F(logb), {U(0)}},
    {"mad", F(mad), {ANY}},
    {"max", F(fmax_common), {U(0)}},
    {"maxmag", F(maxmag), {U(0)}},
    {"min", F(fmin_common), {U(0)}},
    {"minmag", F(minmag), {U(0)}},
    {"mix", F(mix), {ID}},
    {"modf", F(modf), {U(0)}},
    {"nan", F(nan), {U(0)}},
    {"nextafter", F(nextafter), {U(0)}},
    {"normalize", C(Normalize), {UN(4.5, 1)}},
    {"pow(x, y)", F(pow), {U(16)}},
    {"pown(x, y)", F(pown), {U(16)}},
    {"powr(x, y)", F(powr), {U(16)}},
    {"radians", F(radians), {U(2)}},
    {"remainder", F(remainder), {U(0)}},
    {"remquo", F(remquo), {U(0)}},
    {"rint", F(rint), {CR}},
    {"rootn", F(rootn), {U(16)}},
    {"round", F(round), {CR}},
    {"rsqrt", F(rsqrt), {U(2)}},
    {"sign", F(sign), {U(0)}},
    {"sin", F(sin), {U(4)}},
    {"sincos", F(sincos), {kSinCos4Ulp}},
    {"sinh", F(sinh), {U(4)}},
    {"sinpi", F(sinpi), {U(4)}},
    {"smoothstep", F(smoothstep), {ID}},
    {"step", F(step), {U(0)}},
    {"fsqrt", F(sqrt), {CR}},
    {"tan", F(tan), {U(5)}},
    {"tanh", F(tanh), {U(5)}},
    {"tanpi", F(tanpi), {U(6)}},
    {"tgamma", F(tgamma), {U(16)}},
    {"trunc", F(trunc), {CR}},
};

// opencl-c-spec.adoc § "Relative Error as ULPs", table "ULP Values for Half-Precision Floating-Point Arithmetic
// Operations" [[table-ulp-half-math]]. Columns: Min Accuracy - Full Profile | Min Accuracy - Embedded Profile.
constexpr Row kTableUlpHalfMath[] = {
    {"x + y", C(Add), {CR, CR}},
    {"x - y", C(Sub), {CR, CR}},
    {"x * y", C(Mul), {CR, CR}},
    {"1.0 / x", C(Recip), {CR, U(1)}},
    {"x / y", C(Div), {CR, U(1)}},
    {"acos", F(acos), {U(2), U(3)}},
    {"acosh", F(acosh), {U(2), U(3)}},
    {"acospi", F(acospi), {U(2), U(3)}},
    {"asin", F(asin), {U(2), U(3)}},
    {"asinh", F(asinh), {U(2), U(3)}},
    {"asinpi", F(asinpi), {U(2), U(3)}},
    {"atan", F(atan), {U(2), U(3)}},
    {"atanh", F(atanh), {U(2), U(3)}},
    {"atanpi", F(atanpi), {U(2), U(3)}},
    {"atan2", F(atan2), {U(2), U(3)}},
    {"atan2pi", F(atan2pi), {U(2), U(3)}},
    {"cbrt", F(cbrt), {U(2), U(2)}},
    {"ceil", F(ceil), {CR, CR}},
    {"clamp", F(fclamp), {U(0), U(0)}},
    {"copysign", F(copysign), {U(0), U(0)}},
    {"cos", F(cos), {U(2), U(2)}},
    {"cosh", F(cosh), {U(2), U(3)}},
    {"cospi", F(cospi), {U(2), U(2)}},
    {"cross", C(Cross), {kCrossHalfEpsilon, ID}},
    {"degrees", F(degrees), {U(2), U(2)}},
    {"distance", C(Distance), {UN(0, 2), ID}},
    {"dot", C(Dot), {kDotHalfEpsilon, ID}},
    {"erfc", F(erfc), {U(4), U(4)}},
    {"erf", F(erf), {U(4), U(4)}},
    {"exp", F(exp), {U(2), U(3)}},
    {"exp2", F(exp2), {U(2), U(3)}},
    {"exp10", F(exp10), {U(2), U(3)}},
    {"expm1", F(expm1), {U(2), U(3)}},
    {"fabs", F(fabs), {U(0), U(0)}},
    {"fdim", F(fdim), {CR, CR}},
    {"floor", F(floor), {CR, CR}},
    {"fma", F(fma), {CR, CR}},
    {"fmax", F(fmax), {U(0), U(0)}},
    {"fmin", F(fmin), {U(0), U(0)}},
    {"fmod", F(fmod), {U(0), U(0)}},
    {"fract", F(fract), {CR, CR}},
    {"frexp", F(frexp), {U(0), U(0)}},
    {"hypot", F(hypot), {U(2), U(3)}},
    {"ilogb", F(ilogb), {U(0), U(0)}},
    {"ldexp", F(ldexp), {CR, CR}},
    {"length", C(Length), {UN(0.25, 0.5), ID}},
    {"log", F(log), {U(2), U(3)}},
    {"log2", F(log2), {U(2), U(3)}},
    {"log10", F(log10), {U(2), U(3)}},
    {"log1p", F(log1p), {U(2), U(3)}},
    {"logb", F(logb), {U(0), U(0)}},
    {"mad", F(mad), {ID, ID}},
    {"max", F(fmax_common), {U(0), U(0)}},
    {"maxmag", F(maxmag), {U(0), U(0)}},
    {"min", F(fmin_common), {U(0), U(0)}},
    {"minmag", F(minmag), {U(0), U(0)}},
    {"mix", F(mix), {ID, ID}},
    {"modf", F(modf), {U(0), U(0)}},
    {"nan", F(nan), {U(0), U(0)}},
    {"nextafter", F(nextafter), {U(0), U(0)}},
    {"normalize", C(Normalize), {UN(1, 1), ID}},
    {"pow(x, y)", F(pow), {U(4), U(5)}},
    {"pown(x, y)", F(pown), {U(4), U(5)}},
    {"powr(x, y)", F(powr), {U(4), U(5)}},
    {"radians", F(radians), {U(2), U(2)}},
    {"remainder", F(remainder), {U(0), U(0)}},
    {"remquo", F(remquo), {kRemquo, kRemquo}},
    {"rint", F(rint), {CR, CR}},
    {"rootn", F(rootn), {U(4), U(5)}},
    {"round", F(round), {CR, CR}},
    {"rsqrt", F(rsqrt), {U(1), U(1)}},
    {"sign", F(sign), {U(0), U(0)}},
    {"sin", F(sin), {U(2), U(2)}},
    {"sincos", F(sincos), {kSinCos2Ulp, kSinCos2Ulp}},
    {"sinh", F(sinh), {U(2), U(3)}},
    {"sinpi", F(sinpi), {U(2), U(2)}},
    {"smoothstep", F(smoothstep), {ID, ID}},
    {"sqrt", F(sqrt), {CR, U(1)}},
    {"step", F(step), {U(0), U(0)}},
    {"tan", F(tan), {U(2), U(3)}},
    {"tanh", F(tanh), {U(2), U(3)}},
    {"tanpi", F(tanpi), {U(2), U(3)}},
    {"tgamma", F(tgamma), {U(4), U(4)}},
    {"trunc", F(trunc), {CR, CR}},
};

// ---- Vulkan ------------------------------------------------------------------------------------
//
// Vulkan §A [external] "Precision and Operation of SPIR-V Instructions" (vulkan/spirvenv.adoc
// [[spirvenv-op-prec]]): the two tables below. A cell spanning both columns ("2+|") is stored in both (SAME). Rows
// with several instructions ("OpFMul, OpVectorTimesScalar, OpMatrixTimesScalar") are one row per instruction; the
// rows without an OpenCL.std function or CoreOp are found by requirementsForInstruction.

// "Correct result": "the infinitely precise result which, due to the nature of the operation, will not need
// rounding" ([[spirvenv-correct-result]]): stored as CorrectlyRounded, which every rounding mode meets when no
// rounding happens.
constexpr Cell VCORRECT{.kind = CorrectlyRounded, .text = "Correct result."};
constexpr Cell VCR{.kind = CorrectlyRounded, .text = "Correctly rounded."};
constexpr Cell VCRID{.kind = CorrectlyRoundedImplDefined,
                     .text = "Correctly rounded with implementation defined rounding mode."};
constexpr Cell INH(std::string_view text) { return Cell{.kind = Inherited, .text = text}; }
constexpr Cell VU(double u, std::string_view text) { return Cell{.kind = Ulps, .ulps = u, .text = text}; }
// exp, exp2: "3 + 2 × |x| ULP" (half "1 + 2 × |x|"), |x| not floored.
constexpr Cell VEXP(double u, std::string_view text) {
  return Cell{.kind = Ulps, .ulps = u, .text = text, .ulpsPerAbsX = 2};
}
// log, log2: "3 ULP outside the range [0.5, 2.0]. Absolute error < 2^-21 inside the range [0.5, 2.0]."
constexpr Cell VLOG(double absolute, std::string_view text) {
  return Cell{.kind = Absolute,
              .absolute = absolute,
              .domain = Domain{.x = Interval{0.5, 2.0}},
              .otherwiseUlps = 3,
              .text = text,
              .absoluteStrict = true};
}
// sin, cos: "Absolute error <= 2^-11 inside the range [-pi, pi]"; nothing is stated outside it: any value there.
// kPi (binary64) is below pi and the next binary64 above it, so a value of any format is <= pi exactly when <= kPi.
constexpr Cell VTRIG(double absolute, std::string_view text) {
  return Cell{.kind = Absolute, .absolute = absolute, .domain = Domain{.x = Interval{-kPi, kPi}}, .text = text};
}
// OpFDiv: "2.5 ULP for |y| = 0 or |y| in the range [2^-126, 2^126]" (half [2^-14, 2^14]); any value for other y.
constexpr Cell VDIV(double lo, double hi, std::string_view text) {
  return Cell{
      .kind = Ulps, .ulps = 2.5, .domain = Domain{.y = Interval{lo, hi, false, false, true, true}}, .text = text};
}

// Vulkan §A [external] (vulkan/spirvenv.adoc), table "Precision of Core SPIR-V Instructions"
// [[spirvenv-precision-core-table]]. Columns: Single precision, unless decorated with RelaxedPrecision | Half
// precision.
constexpr Row kSpirvenvPrecisionCoreTable[] = {
    {"OpFNegate", {}, {VCORRECT, SAME}},
    {"OpFAdd", C(Add), {VCR, SAME}},
    {"OpFSub", C(Sub), {VCR, SAME}},
    {"OpFMul", C(Mul), {VCR, SAME}},
    {"OpVectorTimesScalar", {}, {VCR, SAME}},
    {"OpMatrixTimesScalar", {}, {VCR, SAME}},
    {"OpMatrixTimesVector", {}, {INH("Inherited from sum_(j = 0)^(n - 1) M_ij * v_j."), SAME}},
    {"OpVectorTimesMatrix", {}, {INH("Inherited from sum_(j = 0)^(n - 1) v_j * M_ji."), SAME}},
    {"OpMatrixTimesMatrix", {}, {INH("Inherited from sum_(k = 0)^(n - 1) M_ik * N_kj."), SAME}},
    {"OpOuterProduct", {}, {VCR, SAME}},
    {"OpFmaKHR", {}, {VCR, SAME}},
    {"OpDot(x, y)", C(Dot), {INH("Inherited from sum_(i = 0)^(n - 1) x_i * y_i."), SAME}},
    {"OpIsNan", {}, {VCORRECT, SAME}},
    {"OpIsInf", {}, {VCORRECT, SAME}},
    {"OpFOrdEqual", {}, {VCORRECT, SAME}},
    {"OpFUnordEqual", {}, {VCORRECT, SAME}},
    {"OpFOrdNotEqual", {}, {VCORRECT, SAME}},
    {"OpFUnordNotEqual", {}, {VCORRECT, SAME}},
    {"OpFOrdLessThan", {}, {VCORRECT, SAME}},
    {"OpFUnordLessThan", {}, {VCORRECT, SAME}},
    {"OpFOrdGreaterThan", {}, {VCORRECT, SAME}},
    {"OpFUnordGreaterThan", {}, {VCORRECT, SAME}},
    {"OpFOrdLessThanEqual", {}, {VCORRECT, SAME}},
    {"OpFUnordLessThanEqual", {}, {VCORRECT, SAME}},
    {"OpFOrdGreaterThanEqual", {}, {VCORRECT, SAME}},
    {"OpFUnordGreaterThanEqual", {}, {VCORRECT, SAME}},
    {"OpSubgroupAllEqualKHR", {}, {VCORRECT, SAME}},
    {"OpGroupNonUniformAllEqual", {}, {VCORRECT, SAME}},
    {"OpGroupNonUniformFMin", {}, {VCORRECT, SAME}},
    {"OpGroupNonUniformFMax", {}, {VCORRECT, SAME}},
    {"OpFDiv(x,y)",
     C(Div),
     {VDIV(0x1p-126, 0x1p126, "2.5 ULP for |y| = 0 or |y| in the range [2^-126, 2^126]."),
      VDIV(0x1p-14, 0x1p14, "2.5 ULP for |y| = 0 or |y| in the range [2^-14, 2^14].")}},
    // OpFRem is fmod's formula (OpenCL.std fmod: x - y * trunc(x / y)); OpFMod (floor) has no OpenCL.std function.
    {"OpFRem(x,y)", F(fmod), {INH("Inherited from x - y * trunc(x/y)."), SAME}},
    {"OpFMod(x,y)", {}, {INH("Inherited from x - y * floor(x/y)."), SAME}},
    {"OpQuantizeToF16", {}, {VCRID, SAME}},
    {"conversions between types", {}, {VCR, SAME}},
    {"OpAtomicCompareExchange", {}, {VCORRECT, SAME}},
    {"OpAtomicCompareExchangeWeak", {}, {VCORRECT, SAME}},
    {"OpAtomicFAddEXT",
     {},
     {Cell{.kind = CorrectlyRounded, .text = "Return value correct result, value in memory correctly rounded."}, SAME}},
    {"OpAtomicFMinEXT", {}, {VCORRECT, SAME}},
    {"OpAtomicFMaxEXT", {}, {VCORRECT, SAME}},
    {"OpDPdx", {}, {VCR, SAME}},
    {"OpDPdy", {}, {VCR, SAME}},
    {"OpFwidth", {}, {VCR, SAME}},
    {"OpDPdxCoarse", {}, {VCR, SAME}},
    {"OpDPdyCoarse", {}, {VCR, SAME}},
    {"OpFwidthCoarse", {}, {VCR, SAME}},
    {"OpDPdxFine", {}, {VCR, SAME}},
    {"OpDPdyFine", {}, {VCR, SAME}},
    {"OpFwidthFine", {}, {VCR, SAME}},
};

// Vulkan §A [external] (vulkan/spirvenv.adoc), table "Precision of GLSL.std.450 Instructions"
// [[precision-of-glsl-std-450-instructions]]. Columns as above. fn: the OpenCL.std function of the same meaning
// (inversesqrt = rsqrt, roundEven = rint, fsign = sign, fmix = mix); nmin/nmax/nclamp, faceforward, reflect, refract
// and packHalf2x16 have none (requirementsForInstruction finds them).
constexpr Row kPrecisionOfGlslStd450Instructions[] = {
    {"fma()", F(fma), {INH("Inherited from OpFMul followed by OpFAdd."), SAME}},
    {"exp(x)", F(exp), {VEXP(3, "3 + 2 * |x| ULP."), VEXP(1, "1 + 2 * |x| ULP.")}},
    {"exp2(x)", F(exp2), {VEXP(3, "3 + 2 * |x| ULP."), VEXP(1, "1 + 2 * |x| ULP.")}},
    {"log()",
     F(log),
     {VLOG(0x1p-21, "3 ULP outside the range [0.5, 2.0]. Absolute error < 2^-21 inside the range [0.5, 2.0]."),
      VLOG(0x1p-7, "3 ULP outside the range [0.5, 2.0]. Absolute error < 2^-7 inside the range [0.5, 2.0].")}},
    {"log2()",
     F(log2),
     {VLOG(0x1p-21, "3 ULP outside the range [0.5, 2.0]. Absolute error < 2^-21 inside the range [0.5, 2.0]."),
      VLOG(0x1p-7, "3 ULP outside the range [0.5, 2.0]. Absolute error < 2^-7 inside the range [0.5, 2.0].")}},
    {"pow(x, y)", F(pow), {INH("Inherited from exp2(y * log2(x))."), SAME}},
    {"sqrt()", F(sqrt), {INH("Inherited from 1.0 / inversesqrt()."), SAME}},
    {"inversesqrt()", F(rsqrt), {VU(2, "2 ULP."), SAME}},
    {"radians(x)",
     F(radians),
     {INH("Inherited from x * C_pi_180, where C_pi_180 is a correctly rounded approximation to pi / 180."), SAME}},
    {"degrees(x)",
     F(degrees),
     {INH("Inherited from x * C_180_pi, where C_180_pi is a correctly rounded approximation to 180 / pi."), SAME}},
    {"sin()",
     F(sin),
     {VTRIG(0x1p-11, "Absolute error <= 2^-11 inside the range [-pi, pi]."),
      VTRIG(0x1p-7, "Absolute error <= 2^-7 inside the range [-pi, pi].")}},
    {"cos()",
     F(cos),
     {VTRIG(0x1p-11, "Absolute error <= 2^-11 inside the range [-pi, pi]."),
      VTRIG(0x1p-7, "Absolute error <= 2^-7 inside the range [-pi, pi].")}},
    {"tan()", F(tan), {INH("Inherited from sin() / cos()."), SAME}},
    {"asin(x)", F(asin), {INH("Inherited from atan2(x, sqrt(1.0 - x * x))."), SAME}},
    {"acos(x)", F(acos), {INH("Inherited from atan2(sqrt(1.0 - x * x), x)."), SAME}},
    {"atan()", F(atan), {VU(4096, "4096 ULP"), VU(5, "5 ULP.")}},
    {"atan2()", F(atan2), {VU(4096, "4096 ULP"), VU(5, "5 ULP.")}},
    {"sinh(x)", F(sinh), {INH("Inherited from (exp(x) - exp(-x)) * 0.5."), SAME}},
    {"cosh(x)", F(cosh), {INH("Inherited from (exp(x) + exp(-x)) * 0.5."), SAME}},
    {"tanh()", F(tanh), {INH("Inherited from sinh() / cosh()."), SAME}},
    {"asinh(x)", F(asinh), {INH("Inherited from log(x + sqrt(x * x + 1.0))."), SAME}},
    {"acosh(x)", F(acosh), {INH("Inherited from log(x + sqrt(x * x - 1.0))."), SAME}},
    {"atanh(x)", F(atanh), {INH("Inherited from log((1.0 + x) / (1.0 - x)) * 0.5."), SAME}},
    {"frexp()", F(frexp), {VCORRECT, SAME}},
    {"ldexp()", F(ldexp), {VCR, SAME}},
    {"length(x)", C(Length), {INH("Inherited from sqrt(dot(x, x))."), SAME}},
    {"distance(x, y)", C(Distance), {INH("Inherited from length(x - y)."), SAME}},
    {"cross()", C(Cross), {INH("Inherited from OpFSub(OpFMul, OpFMul)."), SAME}},
    {"normalize(x)", C(Normalize), {INH("Inherited from x * inversesqrt(dot(x, x))."), SAME}},
    {"faceforward(N, I, NRef)", {}, {INH("Inherited from dot(NRef, I) < 0.0 ? N : -N."), SAME}},
    {"reflect(x, y)", {}, {INH("Inherited from x - 2.0 * dot(y, x) * y."), SAME}},
    {"refract(I, N, eta)",
     {},
     {INH("Inherited from k < 0.0 ? 0.0 : eta * I - (eta * dot(N, I) + sqrt(k)) * N, where k = 1 - eta * eta * (1.0 - "
          "dot(N, I) * dot(N, I))."),
      SAME}},
    {"round", F(round), {VCR, SAME}},
    {"roundEven", F(rint), {VCR, SAME}},
    {"trunc", F(trunc), {VCR, SAME}},
    {"fabs", F(fabs), {VCORRECT, SAME}},
    {"fsign", F(sign), {VCORRECT, SAME}},
    {"floor", F(floor), {VCR, SAME}},
    {"ceil", F(ceil), {VCR, SAME}},
    {"fract", F(fract), {VCR, SAME}},
    {"modf", F(modf), {VCR, SAME}},
    {"fmin", F(fmin), {VCORRECT, SAME}},
    {"fmax", F(fmax), {VCORRECT, SAME}},
    {"fclamp", F(fclamp), {VCORRECT, SAME}},
    {"fmix(x, y, a)", F(mix), {INH("Inherited from x * (1.0 - a) + y * a."), SAME}},
    {"step", F(step), {VCR, SAME}},
    {"smoothStep(edge0, edge1, x)",
     F(smoothstep),
     {INH("Inherited from t * t * (3.0 - 2.0 * t), where t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)."), SAME}},
    {"nmin", {}, {VCORRECT, SAME}},
    {"nmax", {}, {VCORRECT, SAME}},
    {"nclamp", {}, {VCORRECT, SAME}},
    {"packHalf2x16", {}, {VCRID, SAME}},
};

constexpr Table kTables[] = {
    {Document::SpirvEnv,
     "ulp_values_for_math_instructions",
     "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Relative Error as ULPs\", table \"ULP Values for Math "
     "Instructions - Full Profile\" [[ulp_values_for_math_instructions]]",
     "ULP Values for Math Instructions - Full Profile",
     {{Format::Double, Profile::Full}, {Format::Float, Profile::Full}, {Format::Half, Profile::Full}},
     3,
     kUlpValuesForMathInstructions},
    {Document::SpirvEnv,
     "ulp_values_for_math_instructions_for_embedded_profile",
     "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Relative Error as ULPs\", table \"ULP Values for Math "
     "Instructions - Embedded Profile\" [[ulp_values_for_math_instructions_for_embedded_profile]]",
     "ULP Values for Math Instructions - Embedded Profile",
     {{Format::Double, Profile::Embedded}, {Format::Float, Profile::Embedded}, {Format::Half, Profile::Embedded}},
     3,
     kUlpValuesForMathInstructionsForEmbeddedProfile},
    {Document::SpirvEnv,
     "ulp_values_for_math_instructions_with_fast_relaxed_math",
     "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Relative Error as ULPs\", table \"ULP Values for "
     "Single Precision Math Instructions with -cl-unsafe-math-optimizations\" "
     "[[ulp_values_for_math_instructions_with_fast_relaxed_math]]",
     "ULP Values for Single Precision Math Instructions with -cl-unsafe-math-optimizations",
     {{Format::Float, Profile::Relaxed}, {Format::Float, Profile::RelaxedEmbedded}},
     2,
     kUlpValuesForMathInstructionsWithFastRelaxedMath},
    {Document::OpenCLC,
     "table-ulp-float-math",
     "opencl-c-spec.adoc § \"Relative Error as ULPs\", table \"ULP Values for Single-Precision Built-in Math "
     "Functions\" [[table-ulp-float-math]]",
     "ULP Values for Single-Precision Built-in Math Functions",
     {{Format::Float, Profile::Full}},
     1,
     kTableUlpFloatMath},
    {Document::OpenCLC,
     "table-ulp-embedded",
     "opencl-c-spec.adoc § \"Relative Error as ULPs\", table \"ULP Values for the Embedded Profile\" "
     "[[table-ulp-embedded]]",
     "ULP Values for the Embedded Profile",
     {{Format::Float, Profile::Embedded}},
     1,
     kTableUlpEmbedded},
    {Document::OpenCLC,
     "table-float-ulp-relaxed",
     "opencl-c-spec.adoc § \"Relative Error as ULPs\", table \"ULP Values for Single-Precision Built-in Math Functions "
     "With Unsafe Math Optimizations in the Full and Embedded Profiles\" [[table-float-ulp-relaxed]]",
     "ULP Values for Single-Precision Built-in Math Functions With Unsafe Math Optimizations in the Full and Embedded "
     "Profiles",
     {{Format::Float, Profile::Relaxed}, {Format::Float, Profile::RelaxedEmbedded}},
     2,
     kTableFloatUlpRelaxed},
    {Document::OpenCLC,
     "table-ulp-double",
     "opencl-c-spec.adoc § \"Relative Error as ULPs\", table \"ULP Values for Double-Precision Built-in Math "
     "Functions\" [[table-ulp-double]]",
     "ULP Values for Double-Precision Built-in Math Functions",
     {{Format::Double, Profile::Full}},
     1,
     kTableUlpDouble},
    {Document::OpenCLC,
     "table-ulp-half-math",
     "opencl-c-spec.adoc § \"Relative Error as ULPs\", table \"ULP Values for Half-Precision Floating-Point Arithmetic "
     "Operations\" [[table-ulp-half-math]]",
     "ULP Values for Half-Precision Floating-Point Arithmetic Operations",
     {{Format::Half, Profile::Full}, {Format::Half, Profile::Embedded}},
     2,
     kTableUlpHalfMath},
    {Document::VulkanEnv,
     "spirvenv-precision-core-table",
     "vulkan/spirvenv.adoc § \"Precision and Operation of SPIR-V Instructions\", table \"Precision of Core SPIR-V "
     "Instructions\" [[spirvenv-precision-core-table]]",
     "Precision of Core SPIR-V Instructions",
     {{Format::Float, Profile::Vulkan}, {Format::Half, Profile::Vulkan}},
     2,
     kSpirvenvPrecisionCoreTable,
     true},
    {Document::VulkanEnv,
     "precision-of-glsl-std-450-instructions",
     "vulkan/spirvenv.adoc § \"Precision and Operation of SPIR-V Instructions\", table \"Precision of GLSL.std.450 "
     "Instructions\" [[precision-of-glsl-std-450-instructions]]",
     "Precision of GLSL.std.450 Instructions",
     {{Format::Float, Profile::Vulkan}, {Format::Half, Profile::Vulkan}},
     2,
     kPrecisionOfGlslStd450Instructions,
     true},
};

// ---- Rules stated outside the tables -------------------------------------------------------

struct SpecialRow {
  Document document;
  std::string_view name;
  Op op;
  Format format;
  Cell cell;
  Condition condition;
  std::string_view source;
};

constexpr std::string_view kHalfNativeTable =
    "opencl-c-spec.adoc § \"Math Functions\", table \"Built-in Scalar and Vector half and "
    "native Math Functions\" [[table-builtin-half-native-math]]";
constexpr std::string_view kMathIntrinsicsOptions =
    "opencl-3.0-api-latest/opencl_runtime_layer.asciidoc § \"Math Intrinsics Options\" "
    "[[math-intrinsics-options]], -cl-fp32-correctly-rounded-divide-sqrt";
constexpr Cell kHalfTrigRange{.kind = Ulps,
                              .ulps = 8192,
                              .definedFor = Interval{-0x1p16, 0x1p16},
                              .text = "x is an angle in radians, and must be in the range [-2^16, +2^16]."};
constexpr Cell kCorrectlyRoundedDivideSqrt{
    .kind = CorrectlyRounded,
    .text =
        "allows an application to specify that single precision floating-point divide "
        "(x/y and 1/x) and sqrt used in the program source are correctly rounded."};

// Each applies in every profile (the flattening below repeats it per profile).
constexpr SpecialRow kSpecialRows[] = {
    // OpenCL C 3.0 §6.15.2 [[math-functions]]: half_cos, half_sin, half_tan take x in [-2^16, +2^16]; the
    // same clause: "implemented with a minimum of 10-bits of accuracy, i.e. <= 8192 ulp".
    {Document::OpenCLC, "half_cos", F(half_cos), Format::Float, kHalfTrigRange, Condition::None, kHalfNativeTable},
    {Document::OpenCLC, "half_sin", F(half_sin), Format::Float, kHalfTrigRange, Condition::None, kHalfNativeTable},
    {Document::OpenCLC, "half_tan", F(half_tan), Format::Float, kHalfTrigRange, Condition::None, kHalfNativeTable},
    // The build option makes single precision divide (x/y, 1/x) and sqrt correctly rounded.
    {Document::OpenCLApi, "x / y", C(Div), Format::Float, kCorrectlyRoundedDivideSqrt,
     Condition::Fp32CorrectlyRoundedDivideSqrt, kMathIntrinsicsOptions},
    {Document::OpenCLApi, "1/x", C(Recip), Format::Float, kCorrectlyRoundedDivideSqrt,
     Condition::Fp32CorrectlyRoundedDivideSqrt, kMathIntrinsicsOptions},
    {Document::OpenCLApi, "sqrt", F(sqrt), Format::Float, kCorrectlyRoundedDivideSqrt,
     Condition::Fp32CorrectlyRoundedDivideSqrt, kMathIntrinsicsOptions},
};

#undef F
#undef C

std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The standard wording of a cell without its own text.
std::string standardText(const Cell& c) {
  switch (c.kind) {
    case CorrectlyRounded: return "Correctly rounded";
    case ImplementationDefined: return "Implementation-defined";
    case Undefined: return "Undefined";
    case AnyValue: return "Any value allowed (infinite ulp)";
    case Ulps:
      if (c.ulpsPerN != 0) {
        std::string s = "<= ";
        if (c.ulps != 0) s += formatNumber(c.ulps) + " + ";
        if (c.ulpsPerN != 1) s += formatNumber(c.ulpsPerN);
        return s + "n ulp, for gentype with vector width n";
      }
      return c.ulps == 0 ? std::string("0 ulp") : "<= " + formatNumber(c.ulps) + " ulp";
    default: return {};
  }
}

struct Built {
  std::vector<AccuracyRequirement> rows;
  std::deque<std::string> strings;  // rendered texts (stable addresses)
};

// "Inherited from <formula>." → the formula.
std::string_view inheritedFormula(std::string_view text) {
  constexpr std::string_view prefix = "Inherited from ";
  if (text.starts_with(prefix)) text.remove_prefix(prefix.size());
  if (text.ends_with(".")) text.remove_suffix(1);
  return text;
}

// Vulkan §A [external] [[spirvenv-precision-operation]]: "The precision of double-precision instructions is at least
// that of single precision." The tables have no double column: the single-precision bound, in double's ulps.
constexpr std::string_view kVulkanDoubleSentence =
    "The precision of double-precision instructions is at least that of single precision.";
constexpr std::string_view kVulkanDoubleNote =
    " (Double precision: the single-precision bound, measured in double's ulps: \"The precision of "
    "double-precision instructions is at least that of single precision.\")";

AccuracyRequirement fromCell(const Cell& c, Document doc, std::string_view table, std::string_view name, const Op& op,
                             Format format, Profile profile, std::string_view text, std::string_view source) {
  return AccuracyRequirement{.document = doc,
                             .table = table,
                             .name = name,
                             .fn = op.fn,
                             .core = op.core,
                             .format = format,
                             .profile = profile,
                             .kind = c.kind,
                             .ulps = c.ulps,
                             .ulpsPerN = c.ulpsPerN,
                             .plusFloorAbs2x = c.plusFloorAbs2x,
                             .absolute = c.absolute,
                             .absolutePerN = c.absolutePerN,
                             .domain = c.domain,
                             .otherwiseUlps = c.otherwiseUlps,
                             .definedFor = c.definedFor,
                             .derived = c.derived,
                             .condition = Condition::None,
                             .text = text,
                             .source = source,
                             .ulpsPerAbsX = c.ulpsPerAbsX,
                             .absoluteStrict = c.absoluteStrict,
                             .formula = c.kind == Inherited ? inheritedFormula(text) : std::string_view{}};
}

const Built& built() {
  static const Built b = [] {
    Built out;
    for (const Table& t : kTables) {
      for (const Row& r : t.rows) {
        for (int i = 0; i < t.columnCount; ++i) {
          const Cell& c = r.cells[i].same ? r.cells[0] : r.cells[i];
          if (c.blank) continue;
          std::string_view text = !c.text.empty() ? c.text : !r.text.empty() ? r.text : std::string_view{};
          if (text.empty()) text = out.strings.emplace_back(standardText(c));
          out.rows.push_back(fromCell(c, t.document, t.anchor, r.name, r.op, t.columns[i].format, t.columns[i].profile,
                                      text, t.source));
        }
        if (t.doubleFromFirst) {
          const Cell& c = r.cells[0];
          const std::string_view text = out.strings.emplace_back(std::string(c.text) + std::string(kVulkanDoubleNote));
          AccuracyRequirement a =
              fromCell(c, t.document, t.anchor, r.name, r.op, Format::Double, t.columns[0].profile, text, t.source);
          if (c.kind == Inherited) a.formula = inheritedFormula(c.text);
          out.rows.push_back(a);
        }
      }
    }
    for (const SpecialRow& s : kSpecialRows) {
      for (Profile p : {Profile::Full, Profile::Embedded, Profile::Relaxed, Profile::RelaxedEmbedded}) {
        AccuracyRequirement a = fromCell(s.cell, s.document, {}, s.name, s.op, s.format, p, s.cell.text, s.source);
        a.condition = s.condition;
        out.rows.push_back(a);
      }
    }
    return out;
  }();
  return b;
}

// ---- General rules ---------------------------------------------------------------------------

constexpr std::string_view kEnvUlps =
    "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Relative Error as ULPs\"";
constexpr std::string_view kEnvDenorm =
    "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"INF, NaN, and Denormalized Numbers\"";
constexpr std::string_view kEnvEdge =
    "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Additional Requirements Beyond ISO/IEC 9899:TC2\"";
constexpr std::string_view kEnvFtz =
    "opencl-spirv-env-latest/numerical_compliance.asciidoc § \"Edge Case Behavior in Flush To Zero Mode\"";
constexpr std::string_view kCUlps = "opencl-c-spec.adoc § \"Relative Error as ULPs\"";
constexpr std::string_view kCDenorm = "opencl-c-spec.adoc § \"INF, NaN and Denormalized Numbers\"";
constexpr std::string_view kCEdge = "opencl-c-spec.adoc § \"Additional Requirements Beyond C99 TC2\"";
constexpr std::string_view kCFtz = "opencl-c-spec.adoc § \"Edge Case Behavior in Flush to Zero Mode\"";
constexpr std::string_view kCHalfNative = "opencl-c-spec.adoc § \"Math Functions\" (half_ and native_ functions)";
constexpr std::string_view kApiOptions =
    "opencl-3.0-api-latest/opencl_runtime_layer.asciidoc § \"Math Intrinsics Options\"";
constexpr std::string_view kVulkanPrecision =
    "vulkan/spirvenv.adoc § \"Precision and Operation of SPIR-V Instructions\"";
constexpr std::string_view kApiOptim = "opencl-3.0-api-latest/opencl_runtime_layer.asciidoc § \"Optimization Options\"";

constexpr GeneralRule kGeneralRules[] = {
    {Document::SpirvEnv, "correctly-rounded-arithmetic",
     "Addition, subtraction, multiplication, fused multiply-add, and conversion between integer and a single precision "
     "floating-point format are IEEE 754 compliant and are therefore correctly rounded.",
     kEnvUlps},
    {Document::SpirvEnv, "correctly-rounded-conversions",
     "Conversion between floating-point formats and explicit conversions must be correctly rounded.", kEnvUlps},
    {Document::SpirvEnv, "ulp-reference",
     "The reference value used to compute the ULP value is the infinitely precise result.", kEnvUlps},
    {Document::SpirvEnv, "overflow",
     "Result overflow within the specified ULP error is permitted. Math instructions are allowed to return infinity "
     "for a finite reference value when the next floating-point number that would be representable after the finite "
     "maximum, if there was sufficient range, meets ULP error tolerance.",
     kEnvUlps},
    {Document::SpirvEnv, "ftz",
     "Denormalized single precision or half precision floating-point numbers passed as the input or produced as the "
     "output of single precision or half precision floating-point operations may be flushed to zero.",
     kEnvDenorm},
    {Document::SpirvEnv, "double-denormals",
     "Support for denormalized numbers is required for double precision floating-point.", kEnvDenorm},
    {Document::SpirvEnv, "edge-cases-exact", "Those values shall produce exactly the prescribed answers, and no other.",
     kEnvEdge},
    {Document::SpirvEnv, "ftz-results",
     "If denormals are flushed to zero, then a function may return one of four results:", kEnvFtz},
    {Document::SpirvEnv, "ftz-sign",
     "In each of the above cases, if an operand or result is flushed to zero, the sign of the zero is undefined.",
     kEnvFtz},
    {Document::OpenCLC, "correctly-rounded-arithmetic",
     "Addition, subtraction, multiplication, fused multiply-add and conversion between integer and a single precision "
     "floating-point format are IEEE 754 compliant and are therefore correctly rounded.",
     kCUlps},
    {Document::OpenCLC, "correctly-rounded-conversions",
     "Conversion between floating-point formats and explicit conversions must be correctly rounded.", kCUlps},
    {Document::OpenCLC, "half-correctly-rounded-arithmetic",
     "addition, subtraction, multiplication, fused multiply-add operations on half types are required to be correctly "
     "rounded using the default rounding mode for half-precision floating-point operations.",
     kCUlps},
    {Document::OpenCLC, "ulp-reference",
     "The reference value used to compute the ULP value of an arithmetic operation is the infinitely precise result.",
     kCUlps},
    {Document::OpenCLC, "overflow",
     "Result overflow within the specified ULP error is permitted. Math functions are allowed to return infinity for a "
     "finite reference value when the next floating-point number that would be representable after the finite maximum, "
     "if there was sufficient range, meets ULP error tolerance.",
     kCUlps},
    {Document::OpenCLC, "ftz",
     "Denormalized single precision floating-point numbers passed as input or produced as the output of single "
     "precision floating-point operations such as add, sub, mul, divide, and the functions defined in math functions, "
     "common functions, and geometric functions may be flushed to zero.",
     kCDenorm},
    {Document::OpenCLC, "edge-cases-exact", "Those values shall produce exactly the prescribed answers, and no other.",
     kCEdge},
    {Document::OpenCLC, "half-fn-accuracy",
     "For other cases, except where otherwise noted, these single precision functions are permitted to have up to 8192 "
     "ulps of error (as measured in the single precision result), although better accuracy is encouraged.",
     kCEdge},
    {Document::OpenCLC, "half-fn-denormals", "Support for denormal values is optional for half_ functions.",
     kCHalfNative},
    {Document::OpenCLC, "native-fn-denormals",
     "Support for denormal values is implementation-defined for native_ functions.", kCHalfNative},
    {Document::OpenCLC, "ftz-results",
     "If denormals are flushed to zero, then a function may return one of four results:", kCFtz},
    {Document::OpenCLC, "ftz-sign",
     "In each of the above cases, if an operand or result is flushed to zero, the sign of the zero is undefined.",
     kCFtz},
    {Document::OpenCLApi, "denorms-are-zero",
     "If specified as a build option, the single precision denormalized numbers may be flushed to zero; double "
     "precision denormalized numbers may also be flushed to zero if the optional extension for double precision is "
     "supported.",
     kApiOptions},
    {Document::OpenCLApi, "mad-enable",
     "The mad instruction may compute a * b + c with reduced accuracy in the embedded profile.", kApiOptim},
    {Document::OpenCLApi, "unsafe-math",
     "This option includes the -cl-no-signed-zeros, -cl-mad-enable, and -cl-denorms-are-zero options.", kApiOptim},
    {Document::OpenCLApi, "fast-relaxed-math",
     "Sets the optimization options -cl-finite-math-only and -cl-unsafe-math-optimizations.", kApiOptim},
    {Document::VulkanEnv, "vulkan-double-precision", kVulkanDoubleSentence, kVulkanPrecision},
    {Document::VulkanEnv, "vulkan-overflow",
     "Where the range of allowed return values includes any value of magnitude larger than that of the largest "
     "representable finite floating-point number, operations may, additionally, return either an infinity of the "
     "appropriate sign or the finite number with the largest magnitude of the appropriate sign.",
     kVulkanPrecision},
    {Document::VulkanEnv, "vulkan-correctly-rounded-impl-defined",
     "If x is exactly representable then x will be returned. Otherwise, either the floating-point value closest to "
     "and no less than x or the value closest to and no greater than x will be returned.",
     kVulkanPrecision},
};

// ---- Image conversion tolerances --------------------------------------------------------------

constexpr std::string_view kEnvImg =
    "opencl-spirv-env-latest/image_addressing_and_filtering.asciidoc § \"Conversion Rules\"";
constexpr std::string_view kCImg = "opencl-c-spec.adoc § \"Conversion Rules\"";
using IC = ImageConversion;
using X = ImageTolerance::Exact;

#define UNORM(doc, conv, type, scale, one, quote, src) \
  { doc, conv, type, scale, 1.5, 0, {X{0, 0}, X{scale, 1}}, 2, "", quote, src }
#define SNORM(doc, conv, type, scale, quote, src) \
  { doc, conv, type, scale, 1.5, 0, {X{-(scale)-1, -1}, X{-(scale), -1}, X{0, 0}, X{scale, 1}}, 4, "", quote, src }
#define TONORM(doc, conv, type, scale, ref, quote, src) \
  { doc, conv, type, scale, 0, 0.6, {}, 0, ref, quote, src }

constexpr ImageTolerance kImageTolerances[] = {
    // OpenCL C 3.0 §8.3.1.1 [[converting-normalized-integer-channel-data-types-to-floating-point-values]]:
    // <= 1.5 ulp, the end points exact.
    UNORM(Document::OpenCLC, IC::NormToFloat, "CL_UNORM_INT8", 255, 1, "255 must convert to 1.0f", kCImg),
    UNORM(Document::OpenCLC, IC::NormToFloat, "CL_UNORM_INT_101010", 1023, 1, "1023 must convert to 1.0f", kCImg),
    UNORM(Document::OpenCLC, IC::NormToFloat, "CL_UNORM_INT16", 65535, 1, "65535 must convert to 1.0f", kCImg),
    SNORM(Document::OpenCLC, IC::NormToFloat, "CL_SNORM_INT8", 127, "-128 and -127 must convert to -1.0f", kCImg),
    SNORM(Document::OpenCLC, IC::NormToFloat, "CL_SNORM_INT16", 32767, "-32768 and -32767 must convert to -1.0f",
          kCImg),
    UNORM(Document::OpenCLC, IC::NormToHalf, "CL_UNORM_INT8", 255, 1, "255 must convert to 1.0h", kCImg),
    UNORM(Document::OpenCLC, IC::NormToHalf, "CL_UNORM_INT_101010", 1023, 1, "1023 must convert to 1.0h", kCImg),
    UNORM(Document::OpenCLC, IC::NormToHalf, "CL_UNORM_INT16", 65535, 1, "65535 must convert to 1.0h", kCImg),
    SNORM(Document::OpenCLC, IC::NormToHalf, "CL_SNORM_INT8", 127, "-128 and -127 must convert to -1.0h", kCImg),
    SNORM(Document::OpenCLC, IC::NormToHalf, "CL_SNORM_INT16", 32767, "-32768 and -32767 must convert to -1.0h", kCImg),
    // write_imagef: an approximate rounding mode is within 0.6 of the rte result.
    TONORM(Document::OpenCLC, IC::FloatToNorm, "CL_UNORM_INT8", 255, "convert_uchar_sat_rte(f * 255.0f)",
           "Let f_preferred = convert_uchar_sat_rte(f * 255.0f)", kCImg),
    TONORM(Document::OpenCLC, IC::FloatToNorm, "CL_UNORM_INT_101010", 1023, "convert_ushort_sat_rte(f * 1023.0f)",
           "Let f_preferred = convert_ushort_sat_rte(f * 1023.0f)", kCImg),
    TONORM(Document::OpenCLC, IC::FloatToNorm, "CL_UNORM_INT16", 65535, "convert_ushort_sat_rte(f * 65535.0f)",
           "Let f_preferred = convert_ushort_sat_rte(f * 65535.0f)", kCImg),
    TONORM(Document::OpenCLC, IC::FloatToNorm, "CL_SNORM_INT8", 127, "convert_char_sat_rte(f * 127.0f)",
           "Let f_preferred = convert_char_sat_rte(f * 127.0f)", kCImg),
    TONORM(Document::OpenCLC, IC::FloatToNorm, "CL_SNORM_INT16", 32767, "convert_short_sat_rte(f * 32767.0f)",
           "Let f_preferred = convert_short_sat_rte(f * 32767.0f)", kCImg),
    // write_imageh: the approximation is compared with the exact (clamped) value.
    TONORM(Document::OpenCLC, IC::HalfToNorm, "CL_UNORM_INT8", 255, "max(0, min(f * 255, 255))",
           "Let f_exact = max(0, min(f * 255, 255))", kCImg),
    TONORM(Document::OpenCLC, IC::HalfToNorm, "CL_UNORM_INT_101010", 1023, "max(0, min(f * 1023, 1023))",
           "Let f_exact = max(0, min(f * 1023, 1023))", kCImg),
    TONORM(Document::OpenCLC, IC::HalfToNorm, "CL_UNORM_INT16", 65535, "max(0, min(f * 65535, 65535))",
           "Let f_exact = max(0, min(f * 65535, 65535))", kCImg),
    TONORM(Document::OpenCLC, IC::HalfToNorm, "CL_SNORM_INT8", 127, "max(-128, min(f * 127, 127))",
           "Let f_exact = max(-128, min(f * 127, 127))", kCImg),
    TONORM(Document::OpenCLC, IC::HalfToNorm, "CL_SNORM_INT16", 32767, "max(-32768, min(f * 32767, 32767))",
           "Let f_exact = max(-32768, min(f * 32767, 32767))", kCImg),
    {Document::OpenCLC,
     IC::SrgbToLinear,
     "",
     0,
     0.5,
     0,
     {},
     0,
     "",
     "must be within 0.5 ulp of the original sRGB value.",
     kCImg},
    {Document::OpenCLC,
     IC::LinearToSrgb,
     "",
     0,
     0,
     0.6,
     {},
     0,
     "c * 255 (c the sRGB value of the linear input)",
     "|generated_channel_component - scaled_reference_result| <= 0.6",
     kCImg},

    // OpenCL SPIR-V Environment §7.4 [[conversion-rules]] (adds the cl_ext_image_unsigned_10x6_12x4_14x2 types).
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT8", 255, 1, "255 must convert to 1.0h", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT_101010", 1023, 1, "1023 must convert to 1.0h", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT16", 65535, 1, "65535 must convert to 1.0h", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT10X6_EXT", 1023, 1, "1023 must convert to 1.0h", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT12X4_EXT", 4095, 1, "4095 must convert to 1.0h", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToHalf, "CL_UNORM_INT14X2_EXT", 16383, 1, "16383 must convert to 1.0h", kEnvImg),
    SNORM(Document::SpirvEnv, IC::NormToHalf, "CL_SNORM_INT8", 127, "-128 and -127 must convert to -1.0h", kEnvImg),
    SNORM(Document::SpirvEnv, IC::NormToHalf, "CL_SNORM_INT16", 32767, "-32768 and -32767 must convert to -1.0h",
          kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_UNORM_INT8", 255, "max(0,min(255,255 times x))",
           "f(x)=max(0,min(255,255 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_UNORM_INT16", 65535, "max(0,min(65535,65535 times x))",
           "f(x)=max(0,min(65535,65535 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_UNORM_INT10X6_EXT", 1023, "max(0,min(1023,1023 times x))",
           "f(x)=max(0,min(1023,1023 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_UNORM_INT12X4_EXT", 4095, "max(0,min(4095,4095 times x))",
           "f(x)=max(0,min(4095,4095 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_UNORM_INT14X2_EXT", 16383, "max(0,min(16383,16383 times x))",
           "f(x)=max(0,min(16383,16383 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_SNORM_INT8", 127, "max(-128,min(127,127 times x))",
           "f(x)=max(-128,min(127,127 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::HalfToNorm, "CL_SNORM_INT16", 32767, "max(-32768,min(32767,32767 times x))",
           "f(x)=max(-32768,min(32767,32767 times x))", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT8", 255, 1, "255 must convert to 1.0f", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT_101010", 1023, 1, "1023 must convert to 1.0f", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT16", 65535, 1, "65535 must convert to 1.0f", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT10X6_EXT", 1023, 1, "1023 must convert to 1.0f", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT12X4_EXT", 4095, 1, "4095 must convert to 1.0f", kEnvImg),
    UNORM(Document::SpirvEnv, IC::NormToFloat, "CL_UNORM_INT14X2_EXT", 16383, 1, "16383 must convert to 1.0f", kEnvImg),
    SNORM(Document::SpirvEnv, IC::NormToFloat, "CL_SNORM_INT8", 127, "-128 and -127 must convert to -1.0f", kEnvImg),
    SNORM(Document::SpirvEnv, IC::NormToFloat, "CL_SNORM_INT16", 32767, "-32768 and -32767 must convert to -1.0f",
          kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT8", 255, "max(0,min(255,255 times x))",
           "f(x)=max(0,min(255,255 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT_101010", 1023, "max(0,min(1023,1023 times x))",
           "f(x)=max(0,min(1023,1023 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT16", 65535, "max(0,min(65535,65535 times x))",
           "f(x)=max(0,min(65535,65535 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT10X6_EXT", 1023, "max(0,min(1023,1023 times x))",
           "f(x)=max(0,min(1023,1023 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT12X4_EXT", 4095, "max(0,min(4095,4095 times x))",
           "f(x)=max(0,min(4095,4095 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_UNORM_INT14X2_EXT", 16383, "max(0,min(16383,16383 times x))",
           "f(x)=max(0,min(16383,16383 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_SNORM_INT8", 127, "max(-128,min(127,127 times x))",
           "f(x)=max(-128,min(127,127 times x))", kEnvImg),
    TONORM(Document::SpirvEnv, IC::FloatToNorm, "CL_SNORM_INT16", 32767, "max(-32768,min(32767,32767 times x))",
           "f(x)=max(-32768,min(32767,32767 times x))", kEnvImg),
    {Document::SpirvEnv,
     IC::SrgbToLinear,
     "",
     0,
     0,
     0.5,
     {},
     0,
     "255 * c_sRGB(y)",
     "|x-255 times c_{sRGB}(y)|leq 0.5",
     kEnvImg},
    {Document::SpirvEnv,
     IC::LinearToSrgb,
     "",
     0,
     0,
     0.6,
     {},
     0,
     "255 * c_sRGB(y)",
     "|x-255 times c_{sRGB}(y)|leq 0.6",
     kEnvImg},
};

#undef UNORM
#undef SNORM
#undef TONORM

}  // namespace

std::span<const AccuracyRequirement> accuracyTable() { return built().rows; }
std::span<const GeneralRule> generalRules() { return kGeneralRules; }
std::span<const ImageTolerance> imageTolerances() { return kImageTolerances; }

}  // namespace clref::numerics
