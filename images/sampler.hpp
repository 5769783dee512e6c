// Samplers and the image read and write built-ins: addressing, filtering and mip-level selection (OpenCL C 3.0 §8
// [[image-addressing-and-filtering]], §6.15.15 [[image-read-and-write-functions]], cl_khr_mipmap_image), evaluated
// exactly: floor, fractional parts, weights and the weighted sum are exact (the texel values are exact rationals), and
// the result is rounded once to the colour's type. A fast path in binary64 is used only where it provably gives the
// same bits; it falls back to the exact evaluation when it cannot decide.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

#include "images/image.hpp"
#include "images/texel.hpp"
#include "numerics/choices.hpp"

namespace clref::images {

// cl_addressing_mode and cl_filter_mode values.
enum class AddressingMode : uint32_t { None = 0x1130, ClampToEdge = 0x1131, Clamp = 0x1132, Repeat = 0x1133, MirroredRepeat = 0x1134 };
enum class FilterMode : uint32_t { Nearest = 0x1140, Linear = 0x1141 };

// A sampler: the §6.15.15.1 [[samplers]] descriptor plus the cl_khr_mipmap_image properties of
// clCreateSamplerWithProperties (CL_SAMPLER_MIP_FILTER_MODE, CL_SAMPLER_LOD_MIN, CL_SAMPLER_LOD_MAX).
struct Sampler {
  bool normalizedCoords = true;
  AddressingMode addressing = AddressingMode::Clamp;
  FilterMode filter = FilterMode::Nearest;
  FilterMode mipFilter = FilterMode::Nearest;
  float lodMin = 0.0f;
  float lodMax = std::numeric_limits<float>::max();
  friend bool operator==(const Sampler&, const Sampler&) = default;
};

// OpenCL C's sampler_t literal bit-field (CLK_NORMALIZED_COORDS_TRUE 1, CLK_ADDRESS_* 0..4 << 1,
// CLK_FILTER_NEAREST 0x10 / LINEAR 0x20) ↔ Sampler. fromBits returns false for a value that is no sampler.
uint32_t toBits(const Sampler& s);
bool fromBits(uint32_t bits, Sampler& out);
// SPIR-V 1.0 §3.9 [external], §3.10 [external] SamplerAddressingMode (None 0 … RepeatMirrored 4) and SamplerFilterMode (Nearest 0,
// Linear 1), as OpConstantSampler gives them.
bool fromSpirv(uint32_t addressing, uint32_t normalized, uint32_t filter, Sampler& out);

// A condition under which the spec leaves the result of a read or write undefined. Each maps to a named choice
// (numerics::Choice::Image*): the read or write still produces the value the choice's default describes, and the
// caller warns, or faults when the choice says so.
enum class Undefined : uint8_t {
  None,
  AddressNoneOutOfRange,   // OpenCL C 3.0 §6.15.15.1 [[table-sampler-descriptor]] CLK_ADDRESS_NONE with a location outside the image
  SamplerlessOutOfRange,   // OpenCL C 3.0 §6.15.15.3 [[built-in-image-sampler-less-read-functions]] a coordinate outside the image
  LinearIntegerRead,       // OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]] read_imagei/ui with CLK_FILTER_LINEAR
  UnnormalizedRepeat,      // OpenCL C 3.0 §6.15.15.1 [[table-sampler-descriptor]] REPEAT / MIRRORED_REPEAT with unnormalized coordinates
  InfNanCoordinate,        // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] a coordinate that is INF or NaN
  InfNanTexelFiltered,     // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] linear filtering over an INF or NaN texel
  WrongReadFunction,       // OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]] e.g. read_imagef of a CL_SIGNED_INT8 image
  WriteOutOfRange,         // OpenCL C 3.0 §6.15.15.4 [[built-in-image-write-functions]] a write outside the image
  MipLevelOutOfRange,      // cl_khr_mipmap_image: a lod beyond the image's levels in a sampler-less read or write
  IntCoordSampler,         // OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]] integer coordinates with a sampler
                           // other than CLK_FILTER_NEAREST, unnormalized, CLAMP_TO_EDGE / CLAMP / NONE
  MipUnnormalized,         // cl_khr_mipmap_image: a mipmapped read (lod or gradients) with unnormalized coordinates
};
std::string_view describe(Undefined u);     // one line for a warning or fault
std::string_view clauseOf(Undefined u);     // the clause that leaves it undefined (the choice's clause; empty for None)
numerics::Choice choiceOf(Undefined u);     // the registry entry that decides what clref does (Count for None)

// The coordinate operand of a read or write: float or int, up to 3 components (x, y, z/layer); the rest ignored.
struct Coord {
  bool isFloat = true;
  std::array<float, 3> f{};
  std::array<int32_t, 3> i{};
};

// Mip-level selection of a sampled read (cl_khr_mipmap_image): an explicit lod, or gradients (dPdx, dPdy, in the
// coordinate space the sampler uses) from which the lod is computed; none: level 0.
struct LevelOfDetail {
  enum class Kind : uint8_t { None, Lod, Gradients } kind = Kind::None;
  float lod = 0;
  std::array<float, 3> dx{}, dy{};
};

struct AccessOptions {
  ConversionOptions conversion;
  const numerics::Choices* choices = nullptr;  // null: every choice at its default
  // Evaluate every filtered read on the exact path (GMP rationals / MPFR enclosures) without trying the binary64
  // fast path first; for the tests that compare the two and for measuring.
  bool exactOnly = false;
};

struct ReadResult {
  Color value;
  Undefined undefined = Undefined::None;
};

// read_image{f,h,i,ui}(image, sampler, coord [, lod | gradients]).
ReadResult readSampled(const ImageView& image, const Sampler& sampler, const Coord& coord, ColorKind kind,
                       const LevelOfDetail& lod = {}, const AccessOptions& o = {});
// Sampler-less read_image{f,h,i,ui}(image, int coord [, int lod]) (OpenCL C 3.0 §6.15.15.3 [[built-in-image-sampler-less-read-functions]]:
// as a sampler with unnormalized coordinates, CLK_ADDRESS_NONE and CLK_FILTER_NEAREST).
ReadResult readSamplerless(const ImageView& image, const std::array<int32_t, 3>& coord, ColorKind kind,
                           uint32_t level = 0, const AccessOptions& o = {});
// write_image{f,h,i,ui}(image, int coord [, int lod], color). Returns the undefined condition met, if any (an
// out-of-range write writes nothing).
Undefined write(const ImageView& image, const std::array<int32_t, 3>& coord, const Color& color, ColorKind kind,
                uint32_t level = 0, const AccessOptions& o = {});

// The border colour of an order (OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]]).
std::array<float, 4> borderColor(ChannelOrder o);

}  // namespace clref::images
