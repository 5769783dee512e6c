// Verdicts for image reads and writes (like numerics/verdict.hpp for math): given the image, the sampler, the
// coordinates and a value another device returned (or stored), is it one the specification allows?
//
// The allowed set is the union, over every texel set that coordinate rounding at a texel boundary can select (the
// spec does not define the precision of addressing except for unnormalized nearest reads with NONE, CLAMP and
// CLAMP_TO_EDGE, OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE), of the values the conversion rules allow for
// that set: the 1.5 ulp normalized → float tolerance (OpenCL C 3.0 §8.3.1.1
// [[converting-normalized-integer-channel-data-types-to-floating-point-values]]), half and float channels with the
// device's denormal options, the sRGB tolerance, the 0.6 allowance of writes (OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]]); linear filtering whose error the spec
// does not bound is reported as such (no bound invented). The rules in full are at the top of verdict.cpp.
//
// judgeRead: `sampler` null is a sampler-less read (coord.i, level from lod.lod when lod.kind is Lod). lo / hi hold the
// allowed interval per component of the candidate the value matched (else of the first candidate; NaN: any NaN).
// judgeWrite: `reference` and lo / hi hold the stored codes per colour lane (raw bits for half and float channels).
#pragma once
#include <string>
#include <vector>

#include "images/sampler.hpp"

namespace clref::images {

struct ImageVerdict {
  bool allowed = false;
  bool bounded = true;            // false: the spec gives no bound for this read (the value is judged "allowed")
  Color reference;                // clref's exact result (the defaults of every choice)
  std::vector<Color> candidates;  // the exact results for each texel set coordinate rounding can select
  // Per component: the interval of allowed values (floats as doubles; integers exact), and ±0 allowance.
  std::array<double, 4> lo{}, hi{};
  std::string rule;    // e.g. "<= 1.5 ulp of the exact normalized value; 0, 1 and -1 exact"
  std::string clause;  // the clause applied
  std::string note;    // undefined conditions met, choices involved, unbounded filtering
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

}  // namespace clref::images
