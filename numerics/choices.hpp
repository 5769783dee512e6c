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
  Mad,                           // mad(a,b,c): fused or a*b rounded then +c
  IntDivByZero,                  // x / 0 and x % 0 for integers
  IntDivOverflow,                // INT_MIN / -1 and INT_MIN % -1
  FloatToIntOutOfRange,          // OpConvertFToS/U without saturation, value out of range or NaN
  UninitialisedMemory,           // content of private and local memory before the first store
  UndefValue,                    // the bits of OpUndef
  DefaultLocalSize,              // the work-group size when the host passes none
  ReducedPrecisionFunctions,     // half_* and native_*: which value within their looser bounds
  Mul24OutOfRange,               // mul24/mad24 with operands beyond 24 bits
  ClampInvertedBounds,           // clamp(x, minval, maxval) with minval > maxval
  SmoothstepInvertedEdges,       // smoothstep(edge0, edge1, x) with edge0 >= edge1
  NanPayload,                    // where nan(nancode) puts the code
  RemquoQuotientBits,            // how many low bits of the quotient remquo stores
  LgammaSignUndefined,           // lgamma_r's sign for a NaN or -inf argument
  VectorIndexOutOfRange,         // OpVectorExtractDynamic/InsertDynamic with an index beyond the vector
  PtrDiffAcrossAllocations,      // OpPtrDiff of pointers into different objects
  CommonMinMaxSpecial,           // the common functions max/min with an infinite or NaN operand
  DenormsAreZero,                // what the build option -cl-denorms-are-zero flushes
  WorkGroupReductionOrder,       // the order of floating-point work-group reductions and scans
  WorkGroupBroadcastOutOfRange,  // work_group_broadcast with a local id outside the work-group
  AtomicFloatMinMaxSignedZero,   // atomic_fetch_min/max of a float with -0 and +0
  SubgroupInactiveSource,        // a sub-group shuffle/broadcast/ballot read of an inactive or absent work-item
  SubgroupActiveSet,             // which work-items of a sub-group run a non-uniform sub-group function together
  // Images (images::Undefined names the conditions; images::choiceOf maps them here).
  ImageAddressNoneOutOfRange,       // CLK_ADDRESS_NONE with a coordinate outside the image
  ImageSamplerlessOutOfRange,       // a sampler-less read outside the image
  ImageLinearIntegerRead,           // read_imagei/ui with CLK_FILTER_LINEAR
  ImageUnnormalizedRepeat,          // REPEAT / MIRRORED_REPEAT with unnormalized coordinates
  ImageInfNanCoordinate,            // a read coordinate that is INF or NaN
  ImageInfNanTexelFiltered,         // linear filtering over an INF or NaN texel
  ImageWrongReadFunction,           // read_imagef of an integer image, write_imagei of a float image, ...
  ImageWriteOutOfRange,             // a write outside the image
  ImageMipLevelOutOfRange,          // a lod beyond the image's levels in a sampler-less read or a write
  ImageIntCoordSampler,             // integer coordinates with a sampler other than nearest/unnormalized/no repeat
  ImageMipUnnormalized,             // a mipmapped read with unnormalized coordinates
  ImageReadAfterWriteWithoutFence,  // reading an image element written without the image fence in between
  ImageLodSelection,                // how a lod (given or from gradients) selects and blends mip levels
  ImagePaddedChannelLayout,         // CL_Rx, CL_RGx, CL_RGBx: the 1.2 or the 3.0 table's layout, or not offered
  ImageCoordinatePrecision,         // the addressing steps outside unnormalized nearest clamp/none: exact or binary32
  ImageFilterPrecision,             // the precision of linear filtering: what a verdict allows around the exact value
  // Pipes and shared virtual memory.
  PipeWorkGroupOrder,          // the order in which different work-groups' pipe operations reach a pipe
  PipeUncommittedReservation,  // a pipe reservation not committed when the kernel ends
  SvmReadOnlyWrite,            // a kernel's write to SVM allocated CL_MEM_READ_ONLY
  // Memory access.
  AlignedOperandOverclaim,  // a load/store whose Aligned memory operand claims more alignment than its address has
  // GLSL.std.450 (Vulkan compute shaders).
  GlslRoundHalf,   // GLSL.std.450 Round of a value halfway between two integers
  GlslMinMaxNan,   // GLSL.std.450 FMin/FMax/FClamp with a NaN operand
  // Vulkan compute shaders: the environment's freedoms (Vulkan §A [external] spirvenv).
  ShaderDenormals,         // denormals in a shader without DenormPreserve/DenormFlushToZero
  VulkanContraction,       // a multiply feeding an add without NoContraction: fused or not
  VulkanNanInfSignedZero,  // NaNs, infinities and the sign of zero without SignedZeroInfNanPreserve
  ShaderOutOfBounds,       // a buffer access outside the bound range without robustBufferAccess
  VulkanSRemSModNegative,  // OpSRem/OpSMod with a negative operand (poison without maintenance8)
  VulkanFRemFMod,          // OpFRem/OpFMod: inherited from x - y·trunc(x/y) / x - y·floor(x/y)
  // Vulkan shaders' rounding.
  VulkanRounding,  // correctly rounded operations in a shader that declares no rounding mode for their width
  // Device-side enqueue.
  DeviceQueueCommandBytes,  // how many bytes of a device queue's CL_QUEUE_SIZE one pending command takes
  Count
};

// The API whose programs a choice concerns: OpenCL kernels, Vulkan compute shaders, or both (a SPIR-V freedom both
// environments leave, or one clref decides alike for both).
enum class ChoiceApi : uint8_t { OpenCL, Vulkan, Both };
std::string_view toString(ChoiceApi);  // "OpenCL", "Vulkan", "both"
// Whether a choice of `api` concerns programs of `program` (OpenCL or Vulkan): its own API's, and both's.
constexpr bool appliesTo(ChoiceApi api, ChoiceApi program) { return api == ChoiceApi::Both || api == program; }

struct ChoiceInfo {
  Choice choice;
  std::string_view name;
  std::string_view clause;  // the spec text that leaves the freedom
  std::string_view description;
  std::array<std::string_view, 4> options;  // empty entries end the list
  uint8_t defaultOption;
  ChoiceApi api;
};

std::span<const ChoiceInfo> allChoices();
const ChoiceInfo& infoOf(Choice);
inline ChoiceApi apiOf(Choice c) { return infoOf(c).api; }

// What the specification allows where a choice decides, which is what a verdict on another device's result applies:
//  - Bound: a value within an error bound of the exact one (the bound is the accuracy table's row); the options are
//    values inside it.
//  - Set: implementation-defined. When `limitedToOptions`, the spec limits the answer to what the options produce
//    (mad: fused or unfused); otherwise a device may give any value (or behaviour) it documents, and the options are
//    examples of it.
//  - Free: undefined or unspecified: any value of the type, or any behaviour; the choice's clause says which text
//    frees it.
enum class ChoiceKind : uint8_t { Bound, Set, Free };
struct ChoiceFreedom {
  ChoiceKind kind;
  bool limitedToOptions = false;  // Set only
};
ChoiceFreedom freedomOf(Choice);
std::string_view toString(ChoiceKind);

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
enum class WorkGroupReductionOrderOption : uint8_t { Linear, Tree };
enum class WorkGroupBroadcastOption : uint8_t { Zero, Fault };
enum class AtomicFloatSignedZeroOption : uint8_t { Ordered, Formula };
enum class SubgroupInactiveSourceOption : uint8_t { Zero, Fault };
enum class SubgroupActiveSetOption : uint8_t { Converged, Alone };
// The image conditions: the first option is the value clref produces (and warns), Fault stops the work-item.
enum class ImageBorderOption : uint8_t { BorderColor, Fault };
enum class ImageLinearIntegerOption : uint8_t { Nearest, Fault };
enum class ImageUnnormalizedRepeatOption : uint8_t { ClampToEdge, Fault };
enum class ImageInfNanTexelOption : uint8_t { IeeeArithmetic, Fault };
enum class ImageWrongFunctionOption : uint8_t { Zero, Fault };
enum class ImageWriteOutOfRangeOption : uint8_t { Ignore, Fault };
enum class ImageIntCoordOption : uint8_t { ExactCoordinates, Fault };
enum class ImageMipUnnormalizedOption : uint8_t { AsGiven, Fault };
enum class ImageFenceOption : uint8_t { LatestValue, Fault };
enum class ImageLodOption : uint8_t { GlRules };
enum class ImagePaddedLayoutOption : uint8_t { Withhold, Api30, Api12 };
enum class ImageCoordinatePrecisionOption : uint8_t { Exact, Binary32 };
enum class ImageFilterPrecisionOption : uint8_t { Exact };
enum class PipeWorkGroupOrderOption : uint8_t { Ascending, Descending };
enum class PipeUncommittedReservationOption : uint8_t { Drop, Fault };
enum class SvmReadOnlyWriteOption : uint8_t { Fault, Write };
enum class AlignedOperandOverclaimOption : uint8_t { Fault, TypeAlignment };
enum class GlslRoundHalfOption : uint8_t { AwayFromZero, ToEven };
enum class GlslMinMaxNanOption : uint8_t { Number, Formula };
enum class ShaderDenormalsOption : uint8_t { Preserve, Flush };
enum class VulkanContractionOption : uint8_t { Separate, Fuse };
enum class VulkanNanInfSignedZeroOption : uint8_t { Ieee };
enum class ShaderOutOfBoundsOption : uint8_t { Fault, Robust };
enum class VulkanSRemSModNegativeOption : uint8_t { Spirv, Fault };
enum class VulkanFRemFModOption : uint8_t { Exact, Formula };
enum class VulkanRoundingOption : uint8_t { NearestEven, TowardZero };
enum class DeviceQueueCommandBytesOption : uint8_t { Bytes16, Bytes128 };

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
CLREF_CHOICE_OPTIONS(WorkGroupReductionOrder, WorkGroupReductionOrderOption);
CLREF_CHOICE_OPTIONS(WorkGroupBroadcastOutOfRange, WorkGroupBroadcastOption);
CLREF_CHOICE_OPTIONS(AtomicFloatMinMaxSignedZero, AtomicFloatSignedZeroOption);
CLREF_CHOICE_OPTIONS(SubgroupInactiveSource, SubgroupInactiveSourceOption);
CLREF_CHOICE_OPTIONS(SubgroupActiveSet, SubgroupActiveSetOption);
CLREF_CHOICE_OPTIONS(ImageAddressNoneOutOfRange, ImageBorderOption);
CLREF_CHOICE_OPTIONS(ImageSamplerlessOutOfRange, ImageBorderOption);
CLREF_CHOICE_OPTIONS(ImageLinearIntegerRead, ImageLinearIntegerOption);
CLREF_CHOICE_OPTIONS(ImageUnnormalizedRepeat, ImageUnnormalizedRepeatOption);
CLREF_CHOICE_OPTIONS(ImageInfNanCoordinate, ImageBorderOption);
CLREF_CHOICE_OPTIONS(ImageInfNanTexelFiltered, ImageInfNanTexelOption);
CLREF_CHOICE_OPTIONS(ImageWrongReadFunction, ImageWrongFunctionOption);
CLREF_CHOICE_OPTIONS(ImageWriteOutOfRange, ImageWriteOutOfRangeOption);
CLREF_CHOICE_OPTIONS(ImageMipLevelOutOfRange, ImageBorderOption);
CLREF_CHOICE_OPTIONS(ImageIntCoordSampler, ImageIntCoordOption);
CLREF_CHOICE_OPTIONS(ImageMipUnnormalized, ImageMipUnnormalizedOption);
CLREF_CHOICE_OPTIONS(ImageReadAfterWriteWithoutFence, ImageFenceOption);
CLREF_CHOICE_OPTIONS(ImageLodSelection, ImageLodOption);
CLREF_CHOICE_OPTIONS(ImagePaddedChannelLayout, ImagePaddedLayoutOption);
CLREF_CHOICE_OPTIONS(ImageCoordinatePrecision, ImageCoordinatePrecisionOption);
CLREF_CHOICE_OPTIONS(ImageFilterPrecision, ImageFilterPrecisionOption);
CLREF_CHOICE_OPTIONS(PipeWorkGroupOrder, PipeWorkGroupOrderOption);
CLREF_CHOICE_OPTIONS(PipeUncommittedReservation, PipeUncommittedReservationOption);
CLREF_CHOICE_OPTIONS(SvmReadOnlyWrite, SvmReadOnlyWriteOption);
CLREF_CHOICE_OPTIONS(AlignedOperandOverclaim, AlignedOperandOverclaimOption);
CLREF_CHOICE_OPTIONS(GlslRoundHalf, GlslRoundHalfOption);
CLREF_CHOICE_OPTIONS(GlslMinMaxNan, GlslMinMaxNanOption);
CLREF_CHOICE_OPTIONS(ShaderDenormals, ShaderDenormalsOption);
CLREF_CHOICE_OPTIONS(VulkanContraction, VulkanContractionOption);
CLREF_CHOICE_OPTIONS(VulkanNanInfSignedZero, VulkanNanInfSignedZeroOption);
CLREF_CHOICE_OPTIONS(ShaderOutOfBounds, ShaderOutOfBoundsOption);
CLREF_CHOICE_OPTIONS(VulkanSRemSModNegative, VulkanSRemSModNegativeOption);
CLREF_CHOICE_OPTIONS(VulkanFRemFMod, VulkanFRemFModOption);
CLREF_CHOICE_OPTIONS(VulkanRounding, VulkanRoundingOption);
CLREF_CHOICE_OPTIONS(DeviceQueueCommandBytes, DeviceQueueCommandBytesOption);
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
