// Verdicts for image reads and writes (like numerics/verdict.hpp for math): given the image, the sampler, the
// coordinates and a value another device returned (or stored), is it one the specification allows?
//
// The allowed set is the union, over every texel set that coordinate rounding at a texel boundary can select (the
// spec does not define the precision of addressing except for unnormalized nearest reads with NONE, CLAMP and
// CLAMP_TO_EDGE, OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE), of the values the conversion rules allow for
// that set: the 1.5 ulp normalized → float tolerance (OpenCL C 3.0 §8.3.1.1
// [[converting-normalized-integer-channel-data-types-to-floating-point-values]]), half and float channels with the
// device's denormal options, the sRGB tolerance, the 0.6 allowance of writes (OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]]). Linear filtering (and a blend of two
// mip levels), whose precision the spec leaves undefined but whose form it gives, allows every value between the least
// and greatest value the conversion rules allow the texels of every footprint coordinate rounding can select, widened
// by one ulp per texel blended for the filter's own arithmetic. The rules in full are at the top of verdict.cpp.
//
// judgeRead: `sampler` null is a sampler-less read (coord.i, level from lod.lod when lod.kind is Lod). lo / hi hold the
// allowed interval per component of the candidate the value matched (else of the first candidate; NaN: any NaN); for
// linear filtering the interval of the whole read (lo is -0 when a zero of either sign is allowed, ±inf when an
// infinite texel of a candidate footprint allows that infinity, orNaN when such a texel allows any NaN too).
// A sampled read of a mipmapped image with a lod or gradients is judged at every mip level (or pair of levels, with
// the linear mip filter) the spec's level-of-detail rules allow for that lod or those gradients: explicit lods select
// exactly, gradients through every scale factor OpenGL's approximation rule allows (verdict.cpp, "Mip levels").
// judgeWrite: `reference` and lo / hi hold the stored codes per colour lane (raw bits for half and float channels).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "images/sampler.hpp"

namespace clref::images {

struct ImageVerdict {
  bool allowed = false;
  bool bounded = true;            // false: the spec leaves this access undefined (the value is judged "allowed")
  Color reference;                // clref's exact result (the defaults of every choice)
  std::vector<Color> candidates;  // the exact results for each texel set coordinate rounding can select
  // Per component: the interval of allowed values (floats as doubles; integers exact), and ±0 allowance.
  std::array<double, 4> lo{}, hi{};
  std::array<bool, 4> orNaN{};  // besides [lo, hi], any NaN (linear filtering: an INF or NaN texel in a footprint)
  bool loHiValues = false;  // writes judged with allowed sets: lo / hi of half and float channels are values, not bits
  std::string rule;    // e.g. "<= 1.5 ulp of the exact normalized value; 0, 1 and -1 exact"
  std::string clause;  // the clause applied
  std::string note;    // undefined conditions met, choices involved, the footprints of linear filtering
  // Mipmapped sampled reads: the levels whose values the verdict admits (ascending; {0} for other reads), and
  // whether levels are blended (the linear mip filter with a fractional lod: a weighted average of the levels).
  std::vector<uint32_t> levels{0};
  bool blended = false;
};

struct VerdictOptions {
  AccessOptions access;
  bool flushToZeroAllowed = true;  // half/float channel subnormals may be flushed (the spec's default freedom)
};

ImageVerdict judgeRead(const ImageView& image, const Sampler* sampler, const Coord& coord, ColorKind kind,
                       const LevelOfDetail& lod, const Color& observed, const VerdictOptions& o = {});
// A write: the element `observedElement` (elementSize bytes) another device stored for write_image*(coord, color).
ImageVerdict judgeWrite(ImageFormat format, const Color& color, ColorKind kind, const uint8_t* observedElement,
                        const VerdictOptions& o = {});
// The same write when the kernel computed colour components with freedom: component i may be any member of sets[i]
// (none: exactly color's; clref's own value is color's). Every write conversion is monotone, so the codes allowed for
// a component are those from the lowest allowed for the set's least value to the highest allowed for its greatest
// (in value order for half and float channels), with any NaN's codes when the set holds a NaN; an integer component
// with a set is any value.
// The values a colour component computed with freedom may take: every number in [lo, hi] (none when lo > hi), and
// any NaN when nan.
struct ComponentSet {
  double lo = 0, hi = 0;
  bool nan = false;
};
ImageVerdict judgeWrite(ImageFormat format, const Color& color, ColorKind kind,
                        const std::array<std::optional<ComponentSet>, 4>& sets, const uint8_t* observedElement,
                        const VerdictOptions& o = {});
// An element's channels as stored: "R=255 G=0 B=0 A=255" (codes; values in %a for half and float channels).
std::string describeElement(ImageFormat format, const uint8_t* element);
// A write verdict's allowed codes per channel in the same form: "R=127..128 G=0 B=0 A=255", "any value" when unbounded.
std::string describeAllowed(ImageFormat format, const ImageVerdict& v);
// write_image{f,h,i,ui}(image, int coord, int lod, color) of cl_khr_mipmap_image_writes (lod 0 without it): the
// element another device stored at `coord` of mip level `level`. A level the image does not have or a coordinate
// outside that level's size (or a layer beyond the array) is an undefined write (any result, bounded false, the
// choice named in the note); otherwise the element is judged as by the overload above.
ImageVerdict judgeWrite(const ImageDesc& image, const std::array<int32_t, 3>& coord, uint32_t level,
                        const Color& color, ColorKind kind, const uint8_t* observedElement,
                        const VerdictOptions& o = {});

}  // namespace clref::images
