// The value of a sampled read: the taps of OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] (one texel for
// CLK_FILTER_NEAREST; 2, 4 or 8 for CLK_FILTER_LINEAR; twice that when two mip levels are blended) and their weighted
// sum, first in binary64 with an error bound (fast), else exactly (read.cpp explains both).
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <vector>

#include "images/read_internal.hpp"
#include "images/rgba8.hpp"
#include "images/srgb.hpp"
#include "numerics/exact_ops.hpp"
#include "numerics/format.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::images {

using numerics::Denorm;
using numerics::Format;
using numerics::Rounding;

namespace {

int64_t toIndexQ(const Rational& x) {
  // floor(x), clamped to ±2^62 like read.cpp's toIndex.
  constexpr int64_t kLimit = int64_t(1) << 62;
  const Integer f = floorOf(x);
  if (f < -kLimit) return -kLimit;
  if (f > kLimit) return kLimit;
  return f.convert_to<int64_t>();
}

// i0 = floor(u − 0.5) and a = frac(u − 0.5) (OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]).
int64_t floorAndFrac(const Rational& u, Rational& a) {
  static const Rational half(1, 2);
  const Rational d = u - half;
  const int64_t f = toIndexQ(d);
  a = d - f;
  return f;
}

int64_t addressClampOrNoneQ(int64_t i, AddressingMode m, int64_t size) {
  if (m == AddressingMode::ClampToEdge) return std::clamp<int64_t>(i, 0, size - 1);
  if (m == AddressingMode::Clamp) return std::clamp<int64_t>(i, -1, size);
  return i;
}

}  // namespace

void axisExact(double s, const AxisRule& r, AxisSample& out, Rational& a) {
  // image_coordinate_precision = binary32: the rounded steps are the binary32 ones (exactly representable), and the
  // weights formed from that a stay exact.
  if (r.binary32) {
    axisBinary32(s, r, out);
    a = Rational(out.a);  // exact: every finite double is a rational
    out.a = 0;
    return;
  }
  // The formulas of axisFast (axis_internal.hpp) in rationals. floor(s) and 2·rint(s/2) of a binary32 (or int32)
  // value are exact in binary64.
  const Rational w(r.size);
  out = AxisSample{};
  a = 0;
  switch (r.mode) {
    case AddressingMode::Repeat: {
      // u = (s − floor(s)) · w_t
      const Rational u = (Rational(s) - Rational(std::floor(s))) * w;
      if (!r.linear) {
        int64_t i = toIndexQ(u);
        if (i > r.size - 1) i -= r.size;
        out.i0 = i;
        return;
      }
      out.i0 = floorAndFrac(u, a);
      out.i1 = out.i0 + 1;
      if (out.i0 < 0) out.i0 += r.size;
      if (out.i1 > r.size - 1) out.i1 -= r.size;
      return;
    }
    case AddressingMode::MirroredRepeat: {
      // s' = 2 · rint(0.5 · s), u = |s − s'| · w_t
      const Rational u = abs(Rational(s) - Rational(2.0 * numerics::rint(0.5 * s))) * w;
      if (!r.linear) {
        out.i0 = std::min(toIndexQ(u), r.size - 1);
        return;
      }
      const int64_t i0 = floorAndFrac(u, a);
      out.i0 = std::max<int64_t>(i0, 0);
      out.i1 = std::min<int64_t>(i0 + 1, r.size - 1);
      return;
    }
    default: {
      const Rational u = r.normalized ? Rational(Rational(s) * w) : Rational(s);
      const int64_t whole = toIndexQ(u);
      out.noneOutside = r.mode == AddressingMode::None && (whole < 0 || whole >= r.size);
      if (!r.linear) {
        out.i0 = addressClampOrNoneQ(whole, r.mode, r.size);
        return;
      }
      const int64_t i = floorAndFrac(u, a);
      out.i0 = addressClampOrNoneQ(i, r.mode, r.size);
      out.i1 = addressClampOrNoneQ(i + 1, r.mode, r.size);
      return;
    }
  }
}

namespace {

void noteUndefined(Undefined& first, Undefined u) {
  if (first == Undefined::None) first = u;
}

// One tap of the filter: a texel and its weight (per axis a or 1 − a, per level 1 − f or f), in binary64 for the
// fast path (rounded) and as a rational for the exact one.
struct FastTap {
  std::array<double, 4> value;  // approxOf of each channel (−0, ±inf and NaN kept)
  double weight;
};
struct ExactTap {
  ExactTexel texel;
  Rational weight;
};
constexpr unsigned kMaxTaps = 16;  // 2^3 corners x 2 levels

// The layer of an array read (§8.4 [[selecting-an-image-from-an-image-array]]): clamp(rint(w), 0, d_t − 1).
int64_t layerOf(double w, int64_t layers) {
  const double r = numerics::rint(w);
  if (r <= 0) return 0;
  if (r >= double(layers - 1)) return layers - 1;
  return int64_t(r);
}

AxisRule ruleFor(const ReadRequest& req, const LevelPlan& l, unsigned k) {
  return {req.sampler.addressing, req.sampler.normalizedCoords, req.sampler.filter == FilterMode::Linear, l.sizes[k],
          req.binary32Coordinates};
}

// The fast taps of the read (axisFast); false when a coordinate step is inexact.
// For a nearest read from one level only `nearest` is filled.
bool fastTaps(const ImageView& image, const ReadRequest& req, std::array<FastTap, kMaxTaps>& taps, unsigned& count,
              ExactTexel& nearest, Color& nearestDirect, bool& direct, Undefined& undefined) {
  direct = false;
  count = 0;
  const bool linear = req.sampler.filter == FilterMode::Linear;
  // The format's decoders, chosen once for the read (texel_internal.hpp; Code::None: through the exact channels).
  const DirectFormat& df = directFormat(image.desc.format);
  for (unsigned lv = 0; lv < req.levelCount; ++lv) {
    const LevelPlan l = planLevel(image, req.levels[lv]);
    const int64_t layer = isArray(image.desc.type) ? layerOf(req.layerCoord, l.layers) : 0;
    std::array<AxisSample, 3> ax{};
    for (unsigned k = 0; k < l.axes; ++k) {
      if (!axisFast(req.coords[k], ruleFor(req, l, k), ax[k])) return false;
      if (ax[k].noneOutside) noteUndefined(undefined, Undefined::AddressNoneOutOfRange);
    }
    const double levelWeight = req.levelCount == 1 ? 1.0 : lv == 0 ? 1 - req.mipFrac : req.mipFrac;
    const unsigned corners = linear ? 1u << l.axes : 1u;
    for (unsigned c = 0; c < corners; ++c) {
      std::array<int64_t, 3> idx{0, 0, 0};
      FastTap& t = taps[count++];
      t.weight = levelWeight;
      for (unsigned k = 0; k < l.axes; ++k) {
        const bool second = linear && ((c >> k) & 1);
        idx[k] = second ? ax[k].i1 : ax[k].i0;
        // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: the weight of corner (i_b0, j_b1, k_b2) is the product
        // over the axes of a (b = 1) or 1 − a (b = 0).
        if (linear) t.weight *= second ? ax[k].a : 1 - ax[k].a;
      }
      const uint8_t* e = texelElement(image, l, idx, layer);
      if (!linear && req.levelCount == 1) {
        // One texel, no weights: decoded without exact channels where decodeDirect gives the same bits.
        if (e && decodeDirectWith(df, e, req.kind, req.conversion, nearestDirect)) {
          direct = true;
          return true;
        }
        nearest = e ? decodeExact(image.desc.format, e, req.conversion) : borderExact(image.desc.format.order);
        return true;
      }
      // The channels' values in binary64 (approxOf), straight from the element where the format has a decoder.
      if (df.code != DirectFormat::Code::None) {
        if (e)
          decodeApproxWith(df, e, req.conversion, t.value);
        else
          t.value = df.borderApprox;
        continue;
      }
      const ExactTexel texel = e ? decodeExact(image.desc.format, e, req.conversion) : borderExact(image.desc.format.order);
      for (unsigned ch = 0; ch < 4; ++ch) t.value[ch] = approxOf(texel.c[ch]);
    }
  }
  return true;
}

// The exact taps of the read (axisExact), each with its exact weight.
std::vector<ExactTap> exactTaps(const ImageView& image, const ReadRequest& req, Undefined& undefined) {
  std::vector<ExactTap> taps;
  const bool linear = req.sampler.filter == FilterMode::Linear;
  for (unsigned lv = 0; lv < req.levelCount; ++lv) {
    const LevelPlan l = planLevel(image, req.levels[lv]);
    const int64_t layer = isArray(image.desc.type) ? layerOf(req.layerCoord, l.layers) : 0;
    std::array<AxisSample, 3> ax{};
    std::array<Rational, 3> a, oneMinusA;
    for (unsigned k = 0; k < l.axes; ++k) {
      axisExact(req.coords[k], ruleFor(req, l, k), ax[k], a[k]);
      if (ax[k].noneOutside) noteUndefined(undefined, Undefined::AddressNoneOutOfRange);
      if (linear) oneMinusA[k] = 1 - a[k];
    }
    // The level's weight: 1 − f for the first of two levels, f for the second.
    Rational levelWeight = 1;
    if (req.levelCount == 2) {
      const Rational f(req.mipFrac);
      levelWeight = lv == 0 ? Rational(1 - f) : f;
    }
    const unsigned corners = linear ? 1u << l.axes : 1u;
    for (unsigned c = 0; c < corners; ++c) {
      std::array<int64_t, 3> idx{0, 0, 0};
      ExactTap t;
      t.weight = levelWeight;
      for (unsigned k = 0; k < l.axes; ++k) {
        const bool second = linear && ((c >> k) & 1);
        idx[k] = second ? ax[k].i1 : ax[k].i0;
        if (!linear) continue;
        t.weight *= second ? a[k] : oneMinusA[k];
      }
      t.texel = fetch(image, l, idx, layer, req.conversion);
      taps.push_back(std::move(t));
    }
  }
  return taps;
}

// The default NaN and infinities of the colour's format.
uint32_t nanBits(Format f) { return f == Format::Half ? 0x7e00u : 0x7fc00000u; }
uint32_t infBits(Format f, bool negative) {
  return f == Format::Half ? (negative ? 0xfc00u : 0x7c00u) : (negative ? 0xff800000u : 0x7f800000u);
}
uint32_t zeroBits(Format f, bool negative) { return negative ? (f == Format::Half ? 0x8000u : 0x80000000u) : 0; }

// A result in the colour's format with the device's denormal flushing.
uint32_t finish(uint32_t bits, Format f, const ConversionOptions& o) {
  if (f == Format::Float && o.denormFloat == Denorm::Flush)
    return std::bit_cast<uint32_t>(numerics::flushDenorm(std::bit_cast<float>(bits)));
  if (f == Format::Half && o.denormHalf == Denorm::Flush)
    return numerics::flushDenorm(numerics::Half{uint16_t(bits)}).bits;
  return bits;
}

// Whether every tap's channel is exactly zero, and whether all of them are −0: the exact sum is then 0, with the sign
// IEEE 754 evaluation of the formula gives (−0 only when every term is −0, IEEE 754-2008 §6.3 [external]).
bool allZero(const std::array<FastTap, kMaxTaps>& taps, unsigned count, unsigned ch, bool& allNegative) {
  allNegative = true;
  for (unsigned i = 0; i < count; ++i) {
    const double v = taps[i].value[ch];
    if (v != 0) return false;
    allNegative = allNegative && std::signbit(v);
  }
  return true;
}
bool allZero(const std::vector<ExactTap>& taps, unsigned count, unsigned ch, bool& allNegative) {
  allNegative = true;
  for (unsigned i = 0; i < count; ++i) {
    const auto& t = taps[i];
    const ExactChannel& c = t.texel.c[ch];
    if (c.kind != ExactChannel::Kind::Value || c.num != 0) {
      if (!(c.kind == ExactChannel::Kind::Srgb && c.srgbCode == 0)) return false;
      allNegative = false;
      continue;
    }
    allNegative = allNegative && c.negativeZero;
  }
  return true;
}

// Whether every value of the binary64 interval [y − e, y + e], the exact sum among them, rounds to the same value in
// `f`: rounding to nearest even is monotonic, so it suffices that both ends round alike (a tie at an end rounds to
// the even neighbour, as the exact sum would there). Zero results and overflow are left to the exact path (the sign
// of a zero needs the exact value).
bool decide(double y, double e, Format f, uint32_t& bits) {
  const double lo = y - e, hi = y + e;
  if (f == Format::Float) {
    // The host rounds to nearest even (clref never changes the rounding mode).
    const float r = float(lo);
    if (r != float(hi) || !std::isfinite(r) || r == 0) return false;
    bits = std::bit_cast<uint32_t>(r);
    return true;
  }
  const numerics::Half h = numerics::toHalf(lo);
  if (h.bits != numerics::toHalf(hi).bits || (h.bits & 0x7c00) == 0x7c00 || (h.bits & 0x7fff) == 0) return false;
  bits = h.bits;
  return true;
}

// Exact channel value as a rational (not for sRGB codes and non-finite channels).
Rational rationalOf(const ExactChannel& c) {
  if (c.exp2 == 0) return Rational(long(c.num), long(c.den));
  if (c.exp2 > 0) return Rational(Integer(c.num) << unsigned(c.exp2), Integer(c.den));
  return Rational(Integer(c.num), Integer(c.den) << unsigned(-c.exp2));
}

// The exact value of one channel, rounded once to `f`.
uint32_t channelExact(const std::vector<ExactTap>& taps, unsigned ch, Format f, Undefined& undefined) {
  // Linear filtering over INF or NaN (OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: undefined;
  // image_inf_nan_texel_filtered: IEEE 754 arithmetic on the formula, where a NaN texel, 0 · INF and INF − INF give
  // NaN).
  bool anyNonFinite = false, nan = false, pos = false, neg = false;
  for (const auto& t : taps) {
    const auto k = t.texel.c[ch].kind;
    if (k == ExactChannel::Kind::Value || k == ExactChannel::Kind::Srgb) continue;
    anyNonFinite = true;
    if (k == ExactChannel::Kind::NaN || t.weight == 0) {
      nan = true;
    } else {
      (k == ExactChannel::Kind::PosInf ? pos : neg) = true;
    }
  }
  if (anyNonFinite) {
    noteUndefined(undefined, Undefined::InfNanTexelFiltered);
    if (nan || (pos && neg)) return nanBits(f);
    return infBits(f, neg);
  }
  bool negative;
  if (allZero(taps, unsigned(taps.size()), ch, negative)) return zeroBits(f, negative);
  bool rational = true;
  for (const auto& t : taps)
    if (t.texel.c[ch].kind == ExactChannel::Kind::Srgb && !srgbIsRational(t.texel.c[ch].srgbCode)) rational = false;
  if (rational) {
    Rational sum = 0, v;  // sum = Σ w_j · T_j
    for (const auto& t : taps) {
      const ExactChannel& c = t.texel.c[ch];
      if (c.kind == ExactChannel::Kind::Srgb) {
        int64_t num;
        uint32_t den;
        srgbRational(c.srgbCode, num, den);
        v = Rational(long(num), long(den));
      } else {
        v = rationalOf(c);
      }
      v *= t.weight;  // in place: no temporary for the product
      sum += v;
    }
    if (sum == 0) return zeroBits(f, false);  // terms cancelling exactly give +0 under RTE
    numerics::Mpfr x(numerics::rangeOf(f).precision);
    const int ternary = mpfr_set_q(x, sum.backend().data(), MPFR_RNDN);
    numerics::finishToFormat(x, ternary, f, Rounding::RTE);
    return uint32_t(numerics::encode(x, f));
  }
  // sRGB texels with irrational values (all ≥ 0, weights ≥ 0): enclose the sum, refine until both ends round alike.
  for (mpfr_prec_t p = 128;; p *= 2) {
    numerics::Mpfr lo(p), hi(p), tl(p), th(p), wl(p), wh(p);
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (const auto& t : taps) {
      const ExactChannel& c = t.texel.c[ch];
      if (c.kind == ExactChannel::Kind::Srgb) {
        srgbEnclose(c.srgbCode, tl, th);
      } else {
        const Rational v = rationalOf(c);
        mpfr_set_q(tl, v.backend().data(), MPFR_RNDD);
        mpfr_set_q(th, v.backend().data(), MPFR_RNDU);
      }
      mpfr_set_q(wl, t.weight.backend().data(), MPFR_RNDD);
      mpfr_set_q(wh, t.weight.backend().data(), MPFR_RNDU);
      mpfr_mul(tl, tl, wl, MPFR_RNDD);
      mpfr_mul(th, th, wh, MPFR_RNDU);
      mpfr_add(lo, lo, tl, MPFR_RNDD);
      mpfr_add(hi, hi, th, MPFR_RNDU);
    }
    const uint64_t a = numerics::roundToBits(lo, f, Rounding::RTE), b = numerics::roundToBits(hi, f, Rounding::RTE);
    if (a == b) return uint32_t(a);
  }
}

// The filtered colour from the fast taps, when the error bound decides every channel; false otherwise (non-finite
// texels and undecided channels go to the exact path).
//
// The fast value of a channel is Σ w_j · T_j in binary64. Error bound: each weight is a product of at most four
// factors (three axes and the level), each a or 1 − a (a exact, 1 − a one rounding) or 1 − f / f, so at most 7
// roundings; the texel value has at most one (approxOf), the product w · T one more: each term is within γ_9 of its
// exact value relative to it. Summing at most 16 terms adds at most γ_15 · Σ|terms|. So |y − exact| <= γ_24 · S with
// S = Σ|w_j T_j| (as computed, within γ_24 of the exact one too), γ_24 = 24u / (1 − 24u), u = 2^-53; 2^-47 · S covers
// that with a margin (also for the rounding of y ± e, at most u · |y| <= u · S). S below 2^-900 (where products could
// underflow) goes to the exact path. S = 0 means every term is zero: the result is a zero when every texel channel
// is (allZero), else (zero weights on non-zero texels) the exact path decides.
// Count is a template parameter for the common tap counts (2, 4, 8 corners of one level), so that the loops unroll.
// kNonNegative: every weight and texel value is known to be >= 0 and finite (normalized unsigned texels and their
// border colours, whose weights a and 1 − a are never negative), so S is the sum y itself.
template <unsigned kCount, bool kNonNegative = false>
bool filteredFastN(const std::array<FastTap, kMaxTaps>& taps, unsigned count, Format f, const ConversionOptions& o,
                   Color& c) {
  if (kCount) count = kCount;
  // One pass over the taps for the four channels. A texel that is INF or NaN makes S INF or NaN (also with a zero
  // weight: 0 · INF is NaN), and so does an overflowing term: both go to the exact path.
  std::array<double, 4> y{}, s{};
  for (unsigned i = 0; i < count; ++i)
    for (unsigned ch = 0; ch < 4; ++ch) {
      const double term = taps[i].weight * taps[i].value[ch];
      y[ch] += term;
      if constexpr (!kNonNegative) s[ch] += std::fabs(term);
    }
  if constexpr (kNonNegative) s = y;
  for (unsigned ch = 0; ch < 4; ++ch)
    if (!std::isfinite(s[ch])) return false;
  for (unsigned ch = 0; ch < 4; ++ch) {
    uint32_t bits = 0;
    if (s[ch] == 0) {
      bool negative;
      if (!allZero(taps, count, ch, negative)) return false;
      bits = zeroBits(f, negative);
    } else if (!(s[ch] >= 0x1p-900) || !decide(y[ch], s[ch] * 0x1p-47, f, bits)) {
      return false;
    }
    c.lanes[ch] = finish(bits, f, o);
  }
  return true;
}
bool filteredFast(const std::array<FastTap, kMaxTaps>& taps, unsigned count, Format f, const ConversionOptions& o,
                  Color& c) {
  switch (count) {
    case 2: return filteredFastN<2>(taps, count, f, o, c);
    case 4: return filteredFastN<4>(taps, count, f, o, c);
    case 8: return filteredFastN<8>(taps, count, f, o, c);
    default: return filteredFastN<0>(taps, count, f, o, c);
  }
}

}  // namespace

namespace {

// readLevelZeroFast once the image type is known: Axes sampled axes (1, 2 or 3), nearest or linear, so that the loops
// over axes and corners unroll. sizes: level 0's sizes of the sampled axes; base: the byte offset of the layer.
template <unsigned Axes, bool Linear>
bool sampleLevelZero(const ImageView& image, const DirectFormat& df, const Sampler& s, const Coord& coord,
                     ColorKind kind, const ConversionOptions& o, ReadResult& out, bool binary32Coordinates,
                     const std::array<int64_t, 3>& sizes, uint64_t base) {
  const ImageDesc& d = image.desc;
  Undefined undefined = Undefined::None;
  std::array<AxisSample, Axes> ax{};
  for (unsigned k = 0; k < Axes; ++k) {
    if (!axisFast(double(coord.f[k]), AxisRule{s.addressing, s.normalizedCoords, Linear, sizes[k], binary32Coordinates},
                  ax[k]))
      return false;
    if (ax[k].noneOutside) undefined = Undefined::AddressNoneOutOfRange;
  }
  // Where the texels are (elementAt's offsets for level 0): per axis the byte offset of each of the (one or two)
  // indices, or that the index is outside the level (the border colour).
  const uint64_t elem = df.elementBytes;
  const std::array<uint64_t, 3> pitch{elem, d.rowPitch, d.slicePitch};
  constexpr unsigned kIndices = Linear ? 2 : 1;
  std::array<std::array<uint64_t, kIndices>, Axes> offset;
  std::array<std::array<bool, kIndices>, Axes> inside;
  for (unsigned k = 0; k < Axes; ++k)
    for (unsigned j = 0; j < kIndices; ++j) {
      const int64_t i = j ? ax[k].i1 : ax[k].i0;
      inside[k][j] = i >= 0 && i < sizes[k];
      offset[k][j] = inside[k][j] ? uint64_t(i) * pitch[k] : 0;
    }
  // The element of corner c (bit k: the second index along axis k), null outside the level; false when the view is
  // too short (the general path reports it).
  bool shortView = false;
  auto element = [&](unsigned c) -> const uint8_t* {
    bool in = true;
    uint64_t off = base;
    for (unsigned k = 0; k < Axes; ++k) {
      const unsigned b = Linear ? (c >> k) & 1 : 0;
      in = in && inside[k][b];
      off += offset[k][b];
    }
    if (!in) return nullptr;
    if (image.data == nullptr || off + elem > image.bytes) {
      shortView = true;
      return nullptr;
    }
    return image.data + off;
  };
  if constexpr (!Linear) {
    const uint8_t* e = element(0);
    if (shortView) return false;
    if (!e)
      out.value = colorOf(borderExact(d.format.order), kind, o);
    else if (!decodeDirectWith(df, e, kind, o, out.value))
      out.value = colorOf(decodeExact(d.format, e, o), kind, o);
    out.undefined = undefined;
    return true;
  } else {
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: the 2, 4 or 8 corners, each weighted by the product over the
    // axes of a (second index) or 1 − a (first), as fastTaps forms them.
    constexpr unsigned kCorners = 1u << Axes;
    std::array<FastTap, kMaxTaps> taps;
    for (unsigned c = 0; c < kCorners; ++c) {
      FastTap& t = taps[c];
      t.weight = (c & 1) ? ax[0].a : 1 - ax[0].a;
      for (unsigned k = 1; k < Axes; ++k) t.weight *= ((c >> k) & 1) ? ax[k].a : 1 - ax[k].a;
      const uint8_t* e = element(c);
      if (shortView) return false;
      if (e)
        decodeApproxWith(df, e, o, t.value);
      else
        t.value = df.borderApprox;
    }
    Color c;
    const Format f = kind == ColorKind::Half ? Format::Half : Format::Float;
    const bool nonNegative = df.code == DirectFormat::Code::Unorm8 || df.code == DirectFormat::Code::Unorm16;
    if (!(nonNegative ? filteredFastN<kCorners, true>(taps, kCorners, f, o, c)
                      : filteredFastN<kCorners>(taps, kCorners, f, o, c)))
      return false;
    out.value = c;
    out.undefined = undefined;
    return true;
  }
}

template <unsigned Axes>
bool sampleLevelZero(bool linear, const ImageView& image, const DirectFormat& df, const Sampler& s, const Coord& coord,
                     ColorKind kind, const ConversionOptions& o, ReadResult& out, bool binary32Coordinates,
                     const std::array<int64_t, 3>& sizes, uint64_t base) {
  return linear ? sampleLevelZero<Axes, true>(image, df, s, coord, kind, o, out, binary32Coordinates, sizes, base)
                : sampleLevelZero<Axes, false>(image, df, s, coord, kind, o, out, binary32Coordinates, sizes, base);
}

}  // namespace

bool readLevelZeroFast(const ImageView& image, const Sampler& s, const Coord& coord, ColorKind kind,
                       const ConversionOptions& o, ReadResult& out, bool binary32Coordinates) {
  const ImageDesc& d = image.desc;
  const DirectFormat& df = directFormat(d.format);
  if (df.code == DirectFormat::Code::None || !coord.isFloat) return false;
  // The read function matches the channel type (else image_wrong_read_function); read_imagei/ui only nearest (else
  // image_linear_integer_read); REPEAT and MIRRORED_REPEAT only normalized (else image_unnormalized_repeat).
  const bool floatKind = kind == ColorKind::Float || kind == ColorKind::Half;
  const bool linear = s.filter == FilterMode::Linear;
  switch (df.cls) {
    case ChannelClass::Normalized:
    case ChannelClass::Float:
      if (!floatKind) return false;
      break;
    case ChannelClass::SignedInt:
      if (kind != ColorKind::Int || linear) return false;
      break;
    case ChannelClass::UnsignedInt:
      if (kind != ColorKind::Uint || linear) return false;
      break;
  }
  if (!s.normalizedCoords && (s.addressing == AddressingMode::Repeat || s.addressing == AddressingMode::MirroredRepeat))
    return false;
  // Level 0's sizes (levelSize), the sampled axes and the layer (planLevel, selectLevels: level 0 unless a lod or
  // gradients select another level of a mipmapped image, which the caller excludes). INF and NaN coordinates are
  // undefined (image_inf_nan_coordinate): the general path reports them.
  auto atLeast1 = [](uint64_t v) { return int64_t(std::max<uint64_t>(1, v)); };
  auto finite = [&](unsigned n) {
    for (unsigned k = 0; k < n; ++k)
      if (!std::isfinite(coord.f[k])) return false;
    return true;
  };
  // The layer of an array (§8.4 [[selecting-an-image-from-an-image-array]]) and its byte offset.
  auto layerBase = [&](unsigned k, int64_t layers) { return uint64_t(layerOf(double(coord.f[k]), layers)) * d.slicePitch; };
  const int64_t w = atLeast1(d.width);
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return finite(1) && sampleLevelZero<1>(linear, image, df, s, coord, kind, o, out, binary32Coordinates, {w, 1, 1}, 0);
    case ImageType::Image1DArray:
      return finite(2) && sampleLevelZero<1>(linear, image, df, s, coord, kind, o, out, binary32Coordinates, {w, 1, 1},
                                             layerBase(1, int64_t(d.arraySize)));
    case ImageType::Image2D:
      return finite(2) && sampleLevelZero<2>(linear, image, df, s, coord, kind, o, out, binary32Coordinates,
                                             {w, atLeast1(d.height), 1}, 0);
    case ImageType::Image2DArray:
      return finite(3) && sampleLevelZero<2>(linear, image, df, s, coord, kind, o, out, binary32Coordinates,
                                             {w, atLeast1(d.height), 1}, layerBase(2, int64_t(d.arraySize)));
    case ImageType::Image3D:
      return finite(3) && sampleLevelZero<3>(linear, image, df, s, coord, kind, o, out, binary32Coordinates,
                                             {w, atLeast1(d.height), atLeast1(d.depth)}, 0);
    default: return false;
  }
}

bool readRgba8Sampled(const ImageView& image, const Sampler& s, float x, float y, bool binary32Coordinates,
                      const ConversionOptions& o, uint32_t lanes[4]) {
  const Rgba8SampledReader reader(image, s, binary32Coordinates, o);
  return reader.valid() && reader.read(x, y, lanes);
}

Rgba8SampledReader::Rgba8SampledReader(const ImageView& image, const Sampler& s, bool binary32Coordinates,
                                       const ConversionOptions& o)
    : image_(image) {
  const ImageDesc& d = image.desc;
  if (d.type != ImageType::Image2D || d.format.order != ChannelOrder::RGBA || d.format.type != ChannelType::UnormInt8)
    return;
  // readLevelZeroFast's conditions for this format (the undefined cases go to the general path, which reports them).
  if (!s.normalizedCoords && (s.addressing == AddressingMode::Repeat || s.addressing == AddressingMode::MirroredRepeat))
    return;
  valid_ = true;
  linear_ = s.filter == FilterMode::Linear;
  conversion_ = o;
  mode_ = s.addressing;
  normalized_ = s.normalizedCoords;
  binary32_ = binary32Coordinates;
  w_ = int64_t(std::max<uint64_t>(1, d.width));
  h_ = int64_t(std::max<uint64_t>(1, d.height));
  value_ = directFormat(d.format).unorm8Double;
}

[[gnu::flatten]] bool Rgba8SampledReader::read(float x, float y, uint32_t lanes[4]) const {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  const ImageDesc& d = image_.desc;
  const int64_t w = w_, h = h_;
  AxisSample ax, ay;
  if (!axisFast(double(x), AxisRule{mode_, normalized_, linear_, w, binary32_}, ax) ||
      !axisFast(double(y), AxisRule{mode_, normalized_, linear_, h, binary32_}, ay) || ax.noneOutside ||
      ay.noneOutside)
    return false;
  const uint8_t* const data = image_.data;
  const uint64_t rowPitch = d.rowPitch, bytes = image_.bytes;
  // The element at (i, j), null outside the level (the border colour); `shortView` when the view ends before it.
  bool shortView = false;
  auto element = [&](int64_t i, int64_t j) -> const uint8_t* {
    if (i < 0 || j < 0 || i >= w || j >= h) return nullptr;
    const uint64_t off = uint64_t(j) * rowPitch + uint64_t(i) * 4;
    if (data == nullptr || off + 4 > bytes) {
      shortView = true;
      return nullptr;
    }
    return data + off;
  };
  if (!linear_) {
    const uint8_t* e = element(ax.i0, ay.i0);
    if (!e) return false;
    for (unsigned ch = 0; ch < 4; ++ch) lanes[ch] = std::bit_cast<uint32_t>(rgba8_detail::kUnorm8Float[e[ch]]);
    return true;
  }
  // sampleLevelZero<2, true> with this format's decoder: the corners in its order (bit 0 the second x index, bit 1
  // the second y index), the same weights and texel values (approxOf: c / 255 rounded to binary64), summed in the same
  // order, then filteredFastN<4, true>'s decision. A corner outside the level has CL_RGBA's border colour (0, 0, 0, 0)
  // (OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]]), whose approxOf is code 0's +0.
  static constexpr uint8_t kBorder[4] = {0, 0, 0, 0};
  const uint8_t* e[4];
  const int64_t iLo = std::min(ax.i0, ax.i1), iHi = std::max(ax.i0, ax.i1), jLo = std::min(ay.i0, ay.i1),
                jHi = std::max(ay.i0, ay.i1);
  if (iLo >= 0 && jLo >= 0 && iHi < w && jHi < h && data && uint64_t(jHi) * rowPitch + uint64_t(iHi) * 4 + 4 <= bytes) {
    // Every corner inside the level and the view (the farthest one's end is the last): no test each.
    const uint8_t* row0 = data + uint64_t(ay.i0) * rowPitch;
    const uint8_t* row1 = data + uint64_t(ay.i1) * rowPitch;
    e[0] = row0 + uint64_t(ax.i0) * 4, e[1] = row0 + uint64_t(ax.i1) * 4;
    e[2] = row1 + uint64_t(ax.i0) * 4, e[3] = row1 + uint64_t(ax.i1) * 4;
  } else {
    e[0] = element(ax.i0, ay.i0), e[1] = element(ax.i1, ay.i0), e[2] = element(ax.i0, ay.i1);
    e[3] = element(ax.i1, ay.i1);
    if (shortView) return false;
    for (unsigned c = 0; c < 4; ++c)
      if (!e[c]) e[c] = kBorder;
  }
  const double* value = value_;
  double weight[4];
  for (unsigned c = 0; c < 4; ++c) {
    weight[c] = (c & 1) ? ax.a : 1 - ax.a;
    weight[c] *= (c & 2) ? ay.a : 1 - ay.a;
  }
  // Each channel's sum in the corners' order (the corner loop outside: the same additions, in the same order).
  double sum[4] = {0, 0, 0, 0};
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned ch = 0; ch < 4; ++ch) sum[ch] += weight[c] * value[e[c][ch]];
  uint32_t out[4];
  for (unsigned ch = 0; ch < 4; ++ch) {
    uint32_t bits = 0;
    if (sum[ch] == 0) {
      // Every term is +0: the result is +0 when every texel's channel is (allZero), else the exact path decides.
      for (unsigned c = 0; c < 4; ++c)
        if (e[c][ch] != 0) return false;
    } else if (!(sum[ch] >= 0x1p-900) || !decide(sum[ch], sum[ch] * 0x1p-47, Format::Float, bits)) {
      return false;
    }
    out[ch] = finish(bits, Format::Float, conversion_);
  }
  std::copy(out, out + 4, lanes);
  return true;
}

ReadResult finishRead(const ImageView& image, const ReadRequest& req, const AccessOptions& o, ReadResult partial) {
  const bool filtered = req.sampler.filter == FilterMode::Linear || req.levelCount == 2;
  const Format f = req.kind == ColorKind::Half ? Format::Half : Format::Float;
  if (!o.exactOnly) {
    Undefined u = partial.undefined;
    std::array<FastTap, kMaxTaps> taps;  // left uninitialized: fastTaps writes the first `count`
    unsigned count;
    ExactTexel nearest;
    Color nearestDirect;
    bool direct;
    if (fastTaps(image, req, taps, count, nearest, nearestDirect, direct, u)) {
      if (!filtered) {
        partial.undefined = u;
        partial.value = direct ? nearestDirect : colorOf(nearest, req.kind, req.conversion);
        return partial;
      }
      Color c;
      if (filteredFast(taps, count, f, req.conversion, c)) {
        partial.undefined = u;
        partial.value = c;
        return partial;
      }
    }
  }
  Undefined u = partial.undefined;
  const auto taps = exactTaps(image, req, u);
  if (!filtered) {
    partial.undefined = u;
    partial.value = colorOf(taps.front().texel, req.kind, req.conversion);
    return partial;
  }
  Color c;
  for (unsigned ch = 0; ch < 4; ++ch) c.lanes[ch] = finish(channelExact(taps, ch, f, u), f, req.conversion);
  partial.undefined = u;
  partial.value = c;
  return partial;
}

}  // namespace clref::images
