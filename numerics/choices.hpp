// The registry of named choices: every place where the OpenCL or SPIR-V specifications leave
// the result implementation-defined, unspecified or undefined and clref still has to produce
// something. Each choice has a name, the clause that grants the freedom, its options and a
// documented default; the host API (DeviceConfig::choices) and the CLI (--choice name=option)
// switch them.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace clref::numerics {

enum class Choice : uint8_t {
  Mad,                        // mad(a,b,c): fused or a*b rounded then +c
  IntDivByZero,               // x / 0 and x % 0 for integers
  IntDivOverflow,             // INT_MIN / -1 and INT_MIN % -1
  FloatToIntOutOfRange,       // OpConvertFToS/U without saturation, value out of range or NaN
  UninitialisedMemory,        // content of private and local memory before the first store
  UndefValue,                 // the bits of OpUndef
  DefaultLocalSize,           // the work-group size when the host passes none
  ReducedPrecisionFunctions,  // half_* and native_*: which value within their looser bounds
  Mul24OutOfRange,            // mul24/mad24 with operands beyond 24 bits
  ClampInvertedBounds,        // clamp(x, minval, maxval) with minval > maxval
  SmoothstepInvertedEdges,    // smoothstep(edge0, edge1, x) with edge0 >= edge1
  NanPayload,                 // where nan(nancode) puts the code
  RemquoQuotientBits,         // how many low bits of the quotient remquo stores
  LgammaSignUndefined,        // lgamma_r's sign for a NaN or -inf argument
  VectorIndexOutOfRange,      // OpVectorExtractDynamic/InsertDynamic with an index beyond the vector
  PtrDiffAcrossAllocations,   // OpPtrDiff of pointers into different objects
  CommonMinMaxSpecial,        // the common functions max/min with an infinite or NaN operand
  DenormsAreZero,             // what the build option -cl-denorms-are-zero flushes
  Count
};

struct ChoiceInfo {
  Choice choice;
  std::string_view name;
  std::string_view clause;  // the spec text that leaves the freedom
  std::string_view description;
  std::array<std::string_view, 4> options;  // empty entries end the list
  uint8_t defaultOption;
};

std::span<const ChoiceInfo> allChoices();
const ChoiceInfo& infoOf(Choice);

// Option indices, one enum per choice, in registry order.
enum class MadOption : uint8_t { Fused, Unfused };
enum class IntDivByZeroOption : uint8_t { Zero, AllOnes, Dividend };
enum class IntDivOverflowOption : uint8_t { Wrap, Zero };
enum class FloatToIntOption : uint8_t { Saturate, MinValue, Zero };
enum class MemoryInitOption : uint8_t { Zero, Pattern };
enum class UndefValueOption : uint8_t { Zero, Pattern };
enum class LocalSizeOption : uint8_t { LargestDivisor, One };
enum class ReducedPrecisionOption : uint8_t { CorrectlyRounded };
enum class Mul24Option : uint8_t { Low24Bits, FullProduct };
enum class ClampOption : uint8_t { MinOfMax, MaxOfMin };
enum class SmoothstepOption : uint8_t { Formula, Nan };
enum class NanPayloadOption : uint8_t { Significand, DefaultNan };
enum class RemquoBitsOption : uint8_t { Seven, ThirtyOne };
enum class LgammaSignOption : uint8_t { Zero, One };
enum class VectorIndexOption : uint8_t { ZeroOrUnchanged, Fault };
enum class PtrDiffOption : uint8_t { TagDistance, Fault };
enum class CommonMinMaxOption : uint8_t { FmaxFminRules, Nan };
enum class DenormsAreZeroOption : uint8_t { FlushFloat, FlushFloatAndDouble, Ignore };

// The option enum of each choice: Choices::get<Choice::X>() returns it, so a caller cannot read
// a choice as another choice's options.
template <Choice C> struct ChoiceOptions;
#define CLREF_CHOICE_OPTIONS(C, E) \
  template <> struct ChoiceOptions<Choice::C> { using type = E; }
CLREF_CHOICE_OPTIONS(Mad, MadOption);
CLREF_CHOICE_OPTIONS(IntDivByZero, IntDivByZeroOption);
CLREF_CHOICE_OPTIONS(IntDivOverflow, IntDivOverflowOption);
CLREF_CHOICE_OPTIONS(FloatToIntOutOfRange, FloatToIntOption);
CLREF_CHOICE_OPTIONS(UninitialisedMemory, MemoryInitOption);
CLREF_CHOICE_OPTIONS(UndefValue, UndefValueOption);
CLREF_CHOICE_OPTIONS(DefaultLocalSize, LocalSizeOption);
CLREF_CHOICE_OPTIONS(ReducedPrecisionFunctions, ReducedPrecisionOption);
CLREF_CHOICE_OPTIONS(Mul24OutOfRange, Mul24Option);
CLREF_CHOICE_OPTIONS(ClampInvertedBounds, ClampOption);
CLREF_CHOICE_OPTIONS(SmoothstepInvertedEdges, SmoothstepOption);
CLREF_CHOICE_OPTIONS(NanPayload, NanPayloadOption);
CLREF_CHOICE_OPTIONS(RemquoQuotientBits, RemquoBitsOption);
CLREF_CHOICE_OPTIONS(LgammaSignUndefined, LgammaSignOption);
CLREF_CHOICE_OPTIONS(VectorIndexOutOfRange, VectorIndexOption);
CLREF_CHOICE_OPTIONS(PtrDiffAcrossAllocations, PtrDiffOption);
CLREF_CHOICE_OPTIONS(CommonMinMaxSpecial, CommonMinMaxOption);
CLREF_CHOICE_OPTIONS(DenormsAreZero, DenormsAreZeroOption);
#undef CLREF_CHOICE_OPTIONS
template <Choice C> using ChoiceOptionsOf = typename ChoiceOptions<C>::type;

class Choices {
 public:
  Choices();
  uint8_t get(Choice c) const { return values_[size_t(c)]; }
  template <Choice C> ChoiceOptionsOf<C> get() const { return ChoiceOptionsOf<C>(values_[size_t(C)]); }
  void set(Choice c, uint8_t option);
  // "name=option"; throws std::invalid_argument naming the known names/options on error.
  void set(std::string_view assignment);
  std::string describe() const;  // one line per choice: name=option (default marked)

 private:
  std::array<uint8_t, size_t(Choice::Count)> values_;
};

// Every choice at its default (a plain object, so that the default argument of the hot
// numerics::evaluate costs nothing).
extern const Choices kDefaultChoices;
inline const Choices& defaultChoices() { return kDefaultChoices; }

}  // namespace clref::numerics
