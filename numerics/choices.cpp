#include "choices.hpp"

#include <stdexcept>
#include <utility>

namespace clref::numerics {

namespace {
// Keep in the order of enum class Choice.
constexpr ChoiceInfo kChoices[] = {
    {Choice::Mad,
     "mad",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] mad: \"mad computes a * b + c ... whether or how the product is "
     "rounded ... is implementation-defined\"",
     "mad(a, b, c) evaluated fused (one rounding) or as a rounded product then a rounded sum",
     {"fused", "unfused"},
     0},
    {Choice::IntDivByZero,
     "int_div_by_zero",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]]: integer division by zero \"does not cause an exception but will "
     "result in an unspecified value\"",
     "value of x / 0 and x % 0 (with a warning)",
     {"zero", "all_ones", "dividend"},
     0},
    {Choice::IntDivOverflow,
     "int_div_overflow",
     "SPIR-V 1.0 §3.32.13 [external] OpSDiv/OpSRem: behaviour is undefined for the minimum value / -1",
     "value of INT_MIN / -1 (and the remainder 0 for %)",
     {"wrap", "zero"},
     0},
    {Choice::FloatToIntOutOfRange,
     "float_to_int_out_of_range",
     "OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: out-of-range float to integer conversion without _sat is "
     "implementation-defined",
     "result of OpConvertFToS/FToU for NaN or out-of-range values without saturation",
     {"saturate", "min_value", "zero"},
     0},
    {Choice::UninitialisedMemory,
     "uninitialised_memory",
     "OpenCL C 3.0 §6.7 [[address-space-qualifiers]]: private and local variables have no initial value",
     "bytes of private and local memory before their first store (reset for every work-item "
     "and work-group so results never depend on scheduling)",
     {"zero", "pattern"},
     0},
    {Choice::UndefValue,
     "undef_value",
     "SPIR-V 1.0 §3.32.1 [external] OpUndef: \"each consumption ... may see a different value\"",
     "bits of an OpUndef result",
     {"zero", "pattern"},
     0},
    {Choice::DefaultLocalSize,
     "default_local_size",
     "OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel: with local_work_size NULL \"the OpenCL "
     "implementation will determine how to break the global work-items\"",
     "work-group size when the host gives none: per dimension the largest divisor of the "
     "global size not above 64 (dimension 0) or 1 (others), or 1 everywhere",
     {"largest_divisor", "one"},
     0},
    {Choice::ReducedPrecisionFunctions,
     "reduced_precision_functions",
     "OpenCL C 3.0 §6.15.2 [[math-functions]]: half_ functions have \"a maximum error of 8192 ulp\" and native_ "
     "functions \"implementation-defined\" accuracy",
     "value of half_* and native_* functions: the correctly rounded value of the underlying "
     "function (the verdict still applies the spec's looser bound to other implementations)",
     {"correctly_rounded"},
     0},
    {Choice::Mul24OutOfRange,
     "mul24_out_of_range",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]] mul24: \"If x and y are not in this range, the multiplication result "
     "is implementation-defined\" (signed [-2^23, 2^23-1], unsigned [0, 2^24-1]; also mad24)",
     "mul24/mad24 beyond 24 bits: multiply the low 24 bits (sign-extended for signed), as the "
     "description says, or the full 32-bit operands (the product's low 32 bits)",
     {"low_24_bits", "full_product"},
     0},
    {Choice::ClampInvertedBounds,
     "clamp_inverted_bounds",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]] and §6.15.4 [[common-functions]] clamp: \"Results are undefined if "
     "minval > maxval\"",
     "clamp(x, minval, maxval) with minval > maxval: min(max(x, minval), maxval) (gives maxval, "
     "the spec's formula) or max(min(x, maxval), minval) (gives minval); integer and float",
     {"min_of_max", "max_of_min"},
     0},
    {Choice::SmoothstepInvertedEdges,
     "smoothstep_inverted_edges",
     "OpenCL C 3.0 §6.15.4 [[common-functions]] smoothstep: \"Results are undefined if edge0 >= edge1\"",
     "smoothstep with edge0 >= edge1: the spec's formula t = clamp((x - edge0)/(edge1 - edge0), "
     "0, 1), t·t·(3 - 2t) evaluated exactly (x/0 as ±inf), or NaN",
     {"formula", "nan"},
     0},
    {Choice::NanPayload,
     "nan_payload",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] nan: \"The nancode may be placed in the significand of the resulting "
     "NaN\"",
     "bits of nan(nancode): the quiet NaN with the code's low bits in the rest of the significand, "
     "or the default quiet NaN (0x7e00, 0x7fc00000, 0x7ff8000000000000)",
     {"significand", "default_nan"},
     0},
    {Choice::RemquoQuotientBits,
     "remquo_quotient_bits",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] remquo: \"remquo also calculates the lower seven bits of the integral "
     "quotient x/y\" (C99 §7.12.10.3 [external]: at least three; more are allowed)",
     "how many low bits of |x/y|'s integral quotient remquo stores in quo (with the sign of x/y): "
     "the seven the spec asks for, or 31 (all an int holds)",
     {"7", "31"},
     0},
    {Choice::LgammaSignUndefined,
     "lgamma_sign_undefined",
     "OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] lgamma_r: the sign is given for zero and negative "
     "integers (0); for a "
     "NaN or -inf argument Γ has no sign and the spec gives none",
     "value lgamma_r stores in signp for a NaN or -inf argument",
     {"zero", "one"},
     0},
    {Choice::VectorIndexOutOfRange,
     "vector_index_out_of_range",
     "SPIR-V 1.0 §3.32.12 [external] OpVectorExtractDynamic/OpVectorInsertDynamic: behaviour is undefined "
     "for an Index outside [0, number of components)",
     "a dynamic vector index out of range: warn and read 0 / leave the vector unchanged, or stop "
     "the work-item with a fault",
     {"zero_or_unchanged", "fault"},
     0},
    {Choice::PtrDiffAcrossAllocations,
     "ptrdiff_across_allocations",
     "SPIR-V 1.4 §3.32.8 [external] OpPtrDiff, as C99 §6.5.6 [external] pointer subtraction: defined only for pointers "
     "into the same object",
     "OpPtrDiff across objects: warn and answer as if objects lay 2^20 elements apart in "
     "allocation order (never 0), or stop the work-item with a fault",
     {"tag_distance", "fault"},
     0},
    {Choice::CommonMinMaxSpecial,
     "common_minmax_special",
     "OpenCL C 3.0 §6.15.4 [[common-functions]] max/min: \"If x or y are infinite or NaN, the return values are "
     "undefined\"",
     "the common functions max/min with an infinite or NaN operand: fmax/fmin's rules (the larger "
     "/ smaller value; a NaN operand gives the other), or NaN",
     {"fmax_fmin_rules", "nan"},
     0},
    {Choice::DenormsAreZero,
     "denorms_are_zero",
     "OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]] -cl-denorms-are-zero: single precision denormals \"may be "
     "flushed "
     "to zero; double precision denormalized numbers may also be flushed\"; \"the OpenCL "
     "compiler can choose not to flush\"",
     "what a program built with -cl-denorms-are-zero flushes: float denormals, float and double "
     "denormals, or nothing",
     {"flush_float", "flush_float_and_double", "ignore"},
     0},
};
static_assert(std::size(kChoices) == size_t(Choice::Count));
// Every choice has its option enum, a byte like the stored option index (Choices::get<C>()).
template <size_t... I> constexpr bool everyChoiceHasOptions(std::index_sequence<I...>) {
  return ((sizeof(ChoiceOptionsOf<Choice(I)>) == 1) && ...);
}
static_assert(everyChoiceHasOptions(std::make_index_sequence<size_t(Choice::Count)>{}));
}  // namespace

std::span<const ChoiceInfo> allChoices() { return kChoices; }
const Choices kDefaultChoices;
const ChoiceInfo& infoOf(Choice c) { return kChoices[size_t(c)]; }

Choices::Choices() {
  for (const auto& info : kChoices) values_[size_t(info.choice)] = info.defaultOption;
}

void Choices::set(Choice c, uint8_t option) {
  const auto& info = infoOf(c);
  if (option >= info.options.size() || info.options[option].empty())
    throw std::invalid_argument("choice " + std::string(info.name) + " has no option " + std::to_string(option));
  values_[size_t(c)] = option;
}

void Choices::set(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument("choice must be name=option, got '" + std::string(assignment) + "'");
  const auto name = assignment.substr(0, eq), option = assignment.substr(eq + 1);
  std::string known;
  for (const auto& info : kChoices) {
    known += (known.empty() ? "" : ", ") + std::string(info.name);
    if (info.name != name) continue;
    std::string opts;
    for (uint8_t i = 0; i < info.options.size() && !info.options[i].empty(); ++i) {
      if (info.options[i] == option) return set(info.choice, i);
      opts += (opts.empty() ? "" : ", ") + std::string(info.options[i]);
    }
    throw std::invalid_argument("choice " + std::string(name) + " has no option '" + std::string(option) +
                                "' (options: " + opts + ")");
  }
  throw std::invalid_argument("unknown choice '" + std::string(name) + "' (choices: " + known + ")");
}

std::string Choices::describe() const {
  std::string out;
  for (const auto& info : kChoices) {
    const auto v = get(info.choice);
    out += std::string(info.name) + "=" + std::string(info.options[v]) + (v == info.defaultOption ? " (default)" : "") +
           "\n";
  }
  return out;
}

}  // namespace clref::numerics
