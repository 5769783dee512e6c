// The independent host implementation of the image formulas (host_images.hpp): plain code following the spec text,
// exact rationals throughout, one rounding at the end.
#include "tests/images/host_images.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <mpfr.h>

namespace clref::hostimg {

namespace {

using images::AddressingMode;
using images::FilterMode;
using images::ImageType;

// ---------------------------------------------------------------------------------------------
// Exact rounding of a rational to a binary format.

Rational pow2(long k) {
  const Integer p = Integer(1) << static_cast<unsigned>(k >= 0 ? k : -k);
  return k >= 0 ? Rational(p) : Rational(1 / Rational(p));
}

// floor(q): numerator / denominator truncates toward zero; the denominator is positive.
Integer floorQ(const Rational& q) {
  const Integer n = numerator(q), d = denominator(q);
  Integer r = n / d;
  if (r * d != n && n < 0) r -= 1;
  return r;
}

bool isOdd(const Integer& i) { return bit_test(abs(i), 0); }

// rint: nearest integer, ties to even (OpenCL C rint, the default rounding mode).
Integer rintQ(const Rational& q) {
  Integer f = floorQ(q);
  const Rational rem = q - Rational(f);
  const Rational half(1, 2);
  if (rem > half || (rem == half && isOdd(f))) f += 1;
  return f;
}

// floor(log2(a)) for a > 0.
long ilog2(const Rational& a) {
  const long nb = static_cast<long>(msb(numerator(a))) + 1;  // bits of the numerator
  const long db = static_cast<long>(msb(denominator(a))) + 1;
  const long e = nb - db;
  return a >= pow2(e) ? e : e - 1;
}

// p: precision, emin / emax: the normal exponent range, expBits: width of the exponent field.
uint64_t roundBits(const Exact& v, int p, long emin, long emax, int expBits, bool towardZero) {
  const uint64_t signBit = uint64_t(1) << (expBits + p - 1);
  const uint64_t infBits = ((uint64_t(1) << expBits) - 1) << (p - 1);
  switch (v.kind) {
    case Exact::Kind::NaN: return infBits | (uint64_t(1) << (p - 2));
    case Exact::Kind::PosInf: return infBits;
    case Exact::Kind::NegInf: return signBit | infBits;
    case Exact::Kind::Finite: break;
  }
  const bool neg = v.q < 0 || (v.q == 0 && v.negative);
  const uint64_t sign = neg ? signBit : 0;
  const Rational a = abs(v.q);
  if (a == 0) return sign;
  const long e = ilog2(a);
  long qe = std::max(e, emin) - (p - 1);
  const Rational m = a * pow2(-qe);
  Integer n = floorQ(m);
  if (!towardZero) {
    const Rational rem = m - Rational(n);
    const Rational half(1, 2);
    if (rem > half || (rem == half && isOdd(n))) n += 1;
  }
  if (n == 0) return sign;
  const Integer top = Integer(1) << p;
  if (n == top) {
    n = top >> 1;
    ++qe;
  }
  if (qe + (p - 1) > emax) {
    if (!towardZero) return sign | infBits;
    return sign | (infBits - (uint64_t(1) << (p - 1))) | ((uint64_t(1) << (p - 1)) - 1);  // the largest finite
  }
  const uint64_t mant = n.convert_to<uint64_t>();
  const uint64_t hidden = uint64_t(1) << (p - 1);
  if (mant < hidden) return sign | mant;  // subnormal: qe is at its minimum
  const uint64_t biased = static_cast<uint64_t>(qe + (p - 1) + emax);
  return sign | (biased << (p - 1)) | (mant - hidden);
}

Exact exactOfBits(uint64_t bits, int p, long emax, int expBits) {
  const uint64_t mantMask = (uint64_t(1) << (p - 1)) - 1;
  const uint64_t expMask = (uint64_t(1) << expBits) - 1;
  const bool neg = (bits >> (expBits + p - 1)) & 1;
  const uint64_t be = (bits >> (p - 1)) & expMask;
  const uint64_t mant = bits & mantMask;
  Exact r;
  if (be == expMask) {
    r.kind = mant ? Exact::Kind::NaN : (neg ? Exact::Kind::NegInf : Exact::Kind::PosInf);
    return r;
  }
  // value = m × 2^(e − (p − 1)), e = be − bias (subnormal: e = 1 − bias, no hidden bit)
  const long e = be == 0 ? 1 - emax : static_cast<long>(be) - emax;
  const uint64_t m = be == 0 ? mant : mant | (mantMask + 1);
  r.q = Rational(Integer(static_cast<unsigned long>(m))) * pow2(e - (p - 1));
  if (neg) r.q = -r.q;
  r.negative = neg;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Channel types and orders.

struct TypeInfo {
  TypeClass cls;
  unsigned bytes;  // of one channel (packed types: of the whole element)
  unsigned bits;   // value bits of one channel (0 for the packed types, which list their own)
  bool isSigned;
  bool packed;
};

TypeInfo infoOf(ChannelType t) {
  switch (t) {
    case ChannelType::SnormInt8: return {TypeClass::Normalized, 1, 8, true, false};
    case ChannelType::SnormInt16: return {TypeClass::Normalized, 2, 16, true, false};
    case ChannelType::UnormInt8: return {TypeClass::Normalized, 1, 8, false, false};
    case ChannelType::UnormInt16: return {TypeClass::Normalized, 2, 16, false, false};
    case ChannelType::UnormInt24: return {TypeClass::Normalized, 4, 24, false, false};
    case ChannelType::UnormShort565: return {TypeClass::Normalized, 2, 0, false, true};
    case ChannelType::UnormShort555: return {TypeClass::Normalized, 2, 0, false, true};
    case ChannelType::UnormInt101010: return {TypeClass::Normalized, 4, 0, false, true};
    case ChannelType::UnormInt101010_2: return {TypeClass::Normalized, 4, 0, false, true};
    case ChannelType::SignedInt8: return {TypeClass::Signed, 1, 8, true, false};
    case ChannelType::SignedInt16: return {TypeClass::Signed, 2, 16, true, false};
    case ChannelType::SignedInt32: return {TypeClass::Signed, 4, 32, true, false};
    case ChannelType::UnsignedInt8: return {TypeClass::Unsigned, 1, 8, false, false};
    case ChannelType::UnsignedInt16: return {TypeClass::Unsigned, 2, 16, false, false};
    case ChannelType::UnsignedInt32: return {TypeClass::Unsigned, 4, 32, false, false};
    case ChannelType::HalfFloat: return {TypeClass::Float, 2, 16, true, false};
    case ChannelType::Float: return {TypeClass::Float, 4, 32, true, false};
  }
  throw std::invalid_argument("host images: unknown channel type");
}

// The channels an element stores, in memory order (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]): R G B A,
// I(ntensity), L(uminance), D(epth), x (stored, ignored).
std::string_view storedChannels(ChannelOrder o) {
  switch (o) {
    case ChannelOrder::R: return "R";
    case ChannelOrder::A: return "A";
    case ChannelOrder::RG: return "RG";
    case ChannelOrder::RA: return "RA";
    case ChannelOrder::RGB: return "RGB";
    case ChannelOrder::RGBA: return "RGBA";
    case ChannelOrder::BGRA: return "BGRA";
    case ChannelOrder::ARGB: return "ARGB";
    case ChannelOrder::ABGR: return "ABGR";
    case ChannelOrder::Intensity: return "I";
    case ChannelOrder::Luminance: return "L";
    case ChannelOrder::Rx: return "Rx";
    case ChannelOrder::RGx: return "RGx";
    case ChannelOrder::RGBx: return "RGBx";
    case ChannelOrder::Depth: return "D";
    case ChannelOrder::sRGB: return "RGB";
    case ChannelOrder::sRGBx: return "RGBx";
    case ChannelOrder::sRGBA: return "RGBA";
    case ChannelOrder::sBGRA: return "BGRA";
  }
  throw std::invalid_argument("host images: unknown channel order");
}

bool srgbOrder(ChannelOrder o) {
  return o == ChannelOrder::sRGB || o == ChannelOrder::sRGBx || o == ChannelOrder::sRGBA || o == ChannelOrder::sBGRA;
}

// A packed type's fields: (channel, shift, width), first channel in the most significant bits (OpenCL 3.0 API §5.3.1.1
// [[image-format-descriptor]]).
struct Field {
  char channel;
  unsigned shift, width;
};
std::vector<Field> packedFields(ChannelType t) {
  switch (t) {
    case ChannelType::UnormShort565: return {{'R', 11, 5}, {'G', 5, 6}, {'B', 0, 5}};
    case ChannelType::UnormShort555: return {{'R', 10, 5}, {'G', 5, 5}, {'B', 0, 5}};
    case ChannelType::UnormInt101010: return {{'R', 20, 10}, {'G', 10, 10}, {'B', 0, 10}};
    case ChannelType::UnormInt101010_2: return {{'R', 22, 10}, {'G', 12, 10}, {'B', 2, 10}, {'A', 0, 2}};
    default: return {};
  }
}

uint64_t loadLE(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}
void storeLE(uint8_t* p, unsigned bytes, uint64_t v) {
  for (unsigned i = 0; i < bytes; ++i) p[i] = uint8_t(v >> (8 * i));
}

// A normalized channel's value (OpenCL C 3.0 §8.3.1.1
// [[converting-normalized-integer-channel-data-types-to-floating-point-values]]): c / (2^n − 1), or for signed types
// max(−1, c / (2^(n−1) − 1)).
Rational normalizedValue(int64_t c, unsigned bits, bool isSigned) {
  // Rational(n, d) is canonical (common factors cancelled).
  if (!isSigned) return Rational(Integer(c), Integer((Integer(1) << bits) - 1));
  const Rational v(Integer(c), Integer((Integer(1) << (bits - 1)) - 1));
  return std::max(v, Rational(-1));
}

// One raw channel (sign-extended for signed types) → its exact value.
Exact channelValue(ChannelType t, uint64_t raw, unsigned bits) {
  const TypeInfo ti = infoOf(t);
  if (t == ChannelType::HalfFloat) return exactOfHalfBits(uint16_t(raw));
  if (t == ChannelType::Float) return exactOfFloatBits(uint32_t(raw));
  int64_t c = static_cast<int64_t>(raw);
  if (ti.isSigned && bits < 64 && (raw >> (bits - 1)) & 1) c = static_cast<int64_t>(raw) - (int64_t(1) << bits);
  if (ti.cls == TypeClass::Normalized) {
    return Exact::of(normalizedValue(c, bits, ti.isSigned));
  }
  return Exact::of(Rational(Integer(static_cast<long>(c))));
}

Rational mpfrToQ(mpfr_t x) {
  Rational r;
  mpfr_get_q(r.backend().data(), x);
  return r;
}

// x^(1/k) of a positive rational, at 256 bits.
Rational rootQ(const Rational& x, unsigned long k) {
  mpfr_t t;
  mpfr_init2(t, 256);
  mpfr_set_q(t, x.backend().data(), MPFR_RNDN);
  mpfr_rootn_ui(t, t, k, MPFR_RNDN);
  Rational r = mpfrToQ(t);
  mpfr_clear(t);
  return r;
}

Rational powQ(const Rational& x, unsigned k) {
  Rational r = 1;
  for (unsigned i = 0; i < k; ++i) r *= x;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Image geometry.

struct Geometry {
  unsigned dims;     // filtered dimensions: 1, 2 or 3
  bool array;        // the last coordinate is a layer
  uint64_t size[3];  // w_t, h_t, d_t (layers for arrays)
};

// The sizes of mip level `level` (cl_khr_mipmap_image: "Each successively smaller mipmap level is half the size of the
// previous level ... rounded down"; at least 1; the layers of an array stay).
Geometry geometryOf(const images::ImageDesc& d, uint32_t level = 0) {
  Geometry g;
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer: g = {1, false, {d.width, 1, 1}}; break;
    case ImageType::Image1DArray: g = {1, true, {d.width, d.arraySize, 1}}; break;
    case ImageType::Image2D: g = {2, false, {d.width, d.height, 1}}; break;
    case ImageType::Image2DArray: g = {2, true, {d.width, d.height, d.arraySize}}; break;
    case ImageType::Image3D: g = {3, false, {d.width, d.height, d.depth}}; break;
    default: throw std::invalid_argument("host images: unknown image type");
  }
  for (unsigned k = 0; k < g.dims; ++k) g.size[k] = std::max<uint64_t>(1, g.size[k] >> level);
  return g;
}

// Where a level lies: level 0 at offset 0 with the desc's pitches; every level above it tightly packed right after the
// previous one (clref's layout of mipmapped images, images/image.hpp levelLayout: the spec leaves it to the
// implementation, a mipmapped image has no host_ptr).
struct Place {
  uint64_t offset, rowPitch, slicePitch;
};
Place placeOf(const images::ImageDesc& d, uint32_t level) {
  const uint64_t e = elementBytes(d.format);
  Place p{0, d.rowPitch, d.slicePitch};
  for (uint32_t l = 0; l < level; ++l) {
    const Geometry g = geometryOf(d, l);
    // bytes of level l
    switch (d.type) {
      case ImageType::Image1D:
      case ImageType::Image1DBuffer: p.offset += g.size[0] * e; break;
      case ImageType::Image1DArray: p.offset += p.slicePitch * g.size[1]; break;
      case ImageType::Image2D: p.offset += p.rowPitch * g.size[1]; break;
      default: p.offset += p.slicePitch * g.size[2]; break;
    }
    const Geometry next = geometryOf(d, l + 1);
    p.rowPitch = next.size[0] * e;
    p.slicePitch = d.type == ImageType::Image1DArray ? p.rowPitch : p.rowPitch * next.size[1];
  }
  return p;
}

// The element (x, y, z) of `level`: z × slice pitch + y × row pitch + x × element size; a 1D array's layers are
// slice-pitch apart (OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: image_slice_pitch is "the size in bytes of each
// image in a 1D or 2D image array").
const uint8_t* elementAt(const images::ImageView& v, uint64_t x, uint64_t y, uint64_t z, uint32_t level = 0) {
  const uint64_t e = elementBytes(v.desc.format);
  const Place p = placeOf(v.desc, level);
  if (v.desc.type == ImageType::Image1DArray) return v.data + p.offset + y * p.slicePitch + x * e;
  return v.data + p.offset + z * p.slicePitch + y * p.rowPitch + x * e;
}

// One axis of a sampled read: the texel index or indices (nullopt: outside the image, the border colour) and the
// weight a of the second.
struct AxisSample {
  std::optional<int64_t> i0, i1;
  Rational a;
  bool outside = false;  // CLK_ADDRESS_NONE with a location outside the image
};

std::optional<int64_t> inImage(const Integer& i, uint64_t n) {
  if (i < 0 || i >= Integer(static_cast<unsigned long>(n))) return std::nullopt;
  return static_cast<int64_t>(i.convert_to<long>());
}

// The address_mode function of OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] (table-address-modes-texel-location):
// CLAMP_TO_EDGE clamps to [0, size − 1], CLAMP to [−1, size] (−1 and size are outside: the border colour), NONE
// leaves the coordinate.
std::optional<int64_t> addressMode(AddressingMode m, const Integer& f, uint64_t n) {
  const Integer size(static_cast<unsigned long>(n));
  if (m == AddressingMode::ClampToEdge) {
    if (f < 0) return 0;
    if (f > size - 1) return static_cast<int64_t>(n - 1);
    return static_cast<int64_t>(f.convert_to<long>());
  }
  return inImage(f, n);  // CLAMP: −1 and size are outside; NONE: anything outside is
}

// One step of the addressing formulas: the exact value, or (CoordinatePrecision::Binary32) that value rounded to
// binary32 with round-to-nearest-even, as the formulas' binary32 operands give it in float arithmetic. A product
// beyond the binary32 range stays exact: it lies outside every image and addresses the same clamped texel.
Rational step(const Rational& q, CoordinatePrecision p) {
  if (p == CoordinatePrecision::Exact) return q;
  const Exact rounded = exactOfFloatBits(roundToFloatBits(Exact::of(q)));
  return rounded.kind == Exact::Kind::Finite ? rounded.q : q;
}

AxisSample sampleAxis(const images::Sampler& s, const Rational& coord, uint64_t n, CoordinatePrecision p) {
  AxisSample r;
  const Rational half(1, 2);
  const Rational nq(Integer(static_cast<unsigned long>(n)));
  const bool linear = s.filter == FilterMode::Linear;
  if (s.addressing == AddressingMode::Repeat) {
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: u = (s − floor(s)) × w_t; i = floor(u), wrapped; linear: i0 =
    // floor(u − 0.5), i1 = i0 + 1, wrapped.
    const Rational u = step(step(coord - Rational(floorQ(coord)), p) * nq, p);
    if (!linear) {
      Integer i = floorQ(u);
      if (i > nq - 1) i -= numerator(nq);
      r.i0 = static_cast<int64_t>(i.convert_to<long>());
      return r;
    }
    const Rational d = step(u - half, p);
    Integer i0 = floorQ(d), i1 = i0 + 1;
    r.a = step(d - Rational(i0), p);
    if (i0 < 0) i0 += numerator(nq);
    if (i1 > nq - 1) i1 -= numerator(nq);
    r.i0 = static_cast<int64_t>(i0.convert_to<long>());
    r.i1 = static_cast<int64_t>(i1.convert_to<long>());
    return r;
  }
  if (s.addressing == AddressingMode::MirroredRepeat) {
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: s' = |s − 2 rint(0.5 s)|, u = s' × w_t; i = min(floor(u), w_t
    // − 1); linear: i0 = max(floor(u − 0.5), 0), i1 = min(floor(u − 0.5) + 1, w_t − 1).
    const Rational sp = step(abs(coord - 2 * Rational(rintQ(coord / 2))), p);
    const Rational u = step(sp * nq, p);
    if (!linear) {
      Integer i = floorQ(u);
      if (i > nq - 1) i = numerator(nq) - 1;
      r.i0 = static_cast<int64_t>(i.convert_to<long>());
      return r;
    }
    const Rational d = step(u - half, p);
    Integer i0 = floorQ(d), i1 = i0 + 1;
    r.a = step(d - Rational(i0), p);
    if (i0 < 0) i0 = 0;
    if (i1 > nq - 1) i1 = numerator(nq) - 1;
    r.i0 = static_cast<int64_t>(i0.convert_to<long>());
    r.i1 = static_cast<int64_t>(i1.convert_to<long>());
    return r;
  }
  const Rational u = s.normalizedCoords ? step(coord * nq, p) : coord;
  // CLK_ADDRESS_NONE: "the programmer guarantees that the image coordinates ... refer to a location inside the
  // image" (OpenCL C 3.0 §6.15.15.1 [[table-sampler-descriptor]]): the location u must lie in [0, size).
  if (s.addressing == AddressingMode::None && (u < 0 || u >= nq)) r.outside = true;
  if (!linear) {
    r.i0 = addressMode(s.addressing, floorQ(u), n);
    return r;
  }
  const Rational d = step(u - half, p);
  const Integer f = floorQ(d);
  r.i0 = addressMode(s.addressing, f, n);
  r.i1 = addressMode(s.addressing, f + 1, n);
  r.a = step(d - Rational(f), p);
  return r;
}

bool anyNonFinite(const ExactColor& c) {
  return std::any_of(c.begin(), c.end(), [](const Exact& e) { return e.kind != Exact::Kind::Finite; });
}

Exact exactOfCoord(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return exactOfFloatBits(b);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TypeClass typeClass(ChannelType t) { return infoOf(t).cls; }

unsigned elementBytes(ImageFormat f) {
  const TypeInfo ti = infoOf(f.type);
  if (ti.packed) return ti.bytes;
  return ti.bytes * static_cast<unsigned>(storedChannels(f.order).size());
}

bool validFormat(ImageFormat f) {
  const TypeInfo ti = infoOf(f.type);
  if (f.type == ChannelType::UnormShort565 || f.type == ChannelType::UnormShort555 ||
      f.type == ChannelType::UnormInt101010)
    return f.order == ChannelOrder::RGB || f.order == ChannelOrder::RGBx;
  if (f.type == ChannelType::UnormInt101010_2) return f.order == ChannelOrder::RGBA;
  if (f.order == ChannelOrder::Depth)
    return f.type == ChannelType::UnormInt16 || f.type == ChannelType::Float || f.type == ChannelType::UnormInt24;
  if (f.type == ChannelType::UnormInt24) return false;
  if (srgbOrder(f.order) && f.type != ChannelType::UnormInt8) return false;
  if (f.order == ChannelOrder::Intensity || f.order == ChannelOrder::Luminance)
    if (ti.cls != TypeClass::Normalized && ti.cls != TypeClass::Float) return false;
  const unsigned bits = elementBytes(f) * 8;
  return (bits & (bits - 1)) == 0;
}

uint32_t roundToFloatBits(const Exact& v, bool towardZero) {
  return static_cast<uint32_t>(roundBits(v, 24, -126, 127, 8, towardZero));
}
uint16_t roundToHalfBits(const Exact& v, bool towardZero) {
  return static_cast<uint16_t>(roundBits(v, 11, -14, 15, 5, towardZero));
}
Exact exactOfFloatBits(uint32_t bits) { return exactOfBits(bits, 24, 127, 8); }
Exact exactOfHalfBits(uint16_t bits) { return exactOfBits(bits, 11, 15, 5); }
bool isSubnormalFloatBits(uint32_t b) { return (b & 0x7f800000u) == 0 && (b & 0x7fffffu) != 0; }
bool isSubnormalHalfBits(uint16_t b) { return (b & 0x7c00u) == 0 && (b & 0x3ffu) != 0; }

// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: c <= 0.04045 ? c / 12.92
// : powr((c + 0.055) / 1.055, 2.4); with 2.4 = 12/5 the power is the fifth root of the twelfth power.
Rational srgbToLinear(const Rational& c) {
  if (c <= Rational(4045, 100000)) return c / Rational(1292, 100);
  const Rational y = (c + Rational(55, 1000)) / Rational(1055, 1000);
  return rootQ(powQ(y, 12), 5);
}

// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: c < 0.0031308 ? 12.92 c : 1.055 powr(c, 1/2.4) −
// 0.055, for c in [0, 1]; 1/2.4 = 5/12.
Rational linearToSrgb(const Rational& c) {
  if (c < Rational(31308, 10000000)) return Rational(1292, 100) * c;
  return Rational(1055, 1000) * rootQ(powQ(c, 5), 12) - Rational(55, 1000);
}

std::vector<std::pair<char, uint64_t>> rawChannels(ImageFormat f, const uint8_t* element) {
  const TypeInfo ti = infoOf(f.type);
  std::vector<std::pair<char, uint64_t>> out;
  if (ti.packed) {
    const uint64_t word = loadLE(element, ti.bytes);
    for (const Field& fd : packedFields(f.type))
      out.emplace_back(fd.channel, (word >> fd.shift) & ((uint64_t(1) << fd.width) - 1));
    return out;
  }
  const std::string_view stored = storedChannels(f.order);
  for (size_t k = 0; k < stored.size(); ++k) {
    if (stored[k] == 'x') continue;
    uint64_t raw = loadLE(element + k * ti.bytes, ti.bytes);
    if (f.type == ChannelType::UnormInt24) raw &= 0xffffff;
    out.emplace_back(stored[k], raw);
  }
  return out;
}

ExactColor decodeExact(ImageFormat f, const uint8_t* element) {
  const TypeInfo ti = infoOf(f.type);
  // (channel letter, value) in memory order
  std::vector<std::pair<char, Exact>> channels;
  if (ti.packed) {
    const uint64_t word = loadLE(element, ti.bytes);
    for (const Field& fd : packedFields(f.type))
      channels.emplace_back(fd.channel,
                            channelValue(f.type, (word >> fd.shift) & ((uint64_t(1) << fd.width) - 1), fd.width));
  } else {
    const std::string_view stored = storedChannels(f.order);
    for (size_t k = 0; k < stored.size(); ++k) {
      uint64_t raw = loadLE(element + k * ti.bytes, ti.bytes);
      // CL_UNORM_INT24 in a 32-bit element: the low 24 bits (the host's reading; the spec gives no layout).
      if (f.type == ChannelType::UnormInt24) raw &= 0xffffff;
      channels.emplace_back(stored[k], channelValue(f.type, raw, ti.bits));
    }
  }
  // OpenCL C 3.0 §6.15.15.7
  // [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]]:
  // missing colour channels 0, alpha 1.
  ExactColor c{Exact::of(0), Exact::of(0), Exact::of(0), Exact::of(1)};
  for (auto& [ch, v] : channels) {
    if (srgbOrder(f.order) && (ch == 'R' || ch == 'G' || ch == 'B')) v = Exact::of(srgbToLinear(v.q));
    switch (ch) {
      case 'R':
      case 'D': c[0] = v; break;
      case 'G': c[1] = v; break;
      case 'B': c[2] = v; break;
      case 'A': c[3] = v; break;
      case 'I': c = {v, v, v, v}; break;
      case 'L': c[0] = c[1] = c[2] = v; break;
      default: break;  // 'x': stored, ignored
    }
  }
  return c;
}

Color roundColor(const ExactColor& c, ColorKind kind) {
  Color out;
  for (int k = 0; k < 4; ++k) {
    switch (kind) {
      case ColorKind::Float: out.lanes[k] = roundToFloatBits(c[k]); break;
      case ColorKind::Half: out.lanes[k] = roundToHalfBits(c[k]); break;
      case ColorKind::Int:
      case ColorKind::Uint: {
        if (c[k].kind != Exact::Kind::Finite) throw std::invalid_argument("host images: integer read of a non-finite");
        const Integer i = floorQ(c[k].q);
        out.lanes[k] = i < 0 ? static_cast<uint32_t>(static_cast<int32_t>(i.convert_to<long>()))
                             : static_cast<uint32_t>(i.convert_to<unsigned long>());
        break;
      }
    }
  }
  return out;
}

Color decode(ImageFormat f, const uint8_t* element, ColorKind kind) {
  return roundColor(decodeExact(f, element), kind);
}

namespace {

// convert_<n-bit>_sat_rte(x): NaN → 0 (OpenCL C 3.0 §6.4.3 [[out-of-range-behavior]]), then round to nearest even
// and saturate to [lo, hi].
int64_t convertSatRte(const Exact& x, int64_t lo, int64_t hi) {
  if (x.kind == Exact::Kind::NaN) return 0;
  if (x.kind == Exact::Kind::PosInf) return hi;
  if (x.kind == Exact::Kind::NegInf) return lo;
  const Integer r = rintQ(x.q);
  if (r < lo) return lo;
  if (r > hi) return hi;
  return r.convert_to<long>();
}

// write_imagef / write_imageh of a normalized channel of `bits` bits: convert_<type>_sat_rte(f × M) with the product
// a float multiplication (f × 255.0f in OpenCL C rounds to float), OpenCL C 3.0 §8.3.1.3
// [[converting-floating-point-values-to-normalized-integer-channel-data-types]]; the packed and 24-bit types by the
// CL_UNORM_INT_101010 pattern, min(convert_ushort_sat_rte(f × M), M).
uint64_t toNormalized(const Exact& f, unsigned bits, bool isSigned, unsigned storageBits) {
  const int64_t m = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  Exact product = f;
  if (f.kind == Exact::Kind::Finite) product = exactOfFloatBits(roundToFloatBits(Exact::of(f.q * m)));
  if (isSigned) {
    const int64_t lo = -(int64_t(1) << (storageBits - 1)), hi = (int64_t(1) << (storageBits - 1)) - 1;
    const int64_t c = convertSatRte(product, lo, hi);
    return static_cast<uint64_t>(c) & ((uint64_t(1) << storageBits) - 1);
  }
  const int64_t hi = storageBits >= 32 ? int64_t(0xffffffff) : (int64_t(1) << storageBits) - 1;
  const int64_t c = convertSatRte(product, 0, hi);
  return static_cast<uint64_t>(std::min(c, m));
}

// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: NaN → 0, clamp to [0, 1], linear → sRGB, floor(c
// × 255 + 0.5).
uint64_t toSrgb(const Exact& x) {
  Rational c;
  if (x.kind == Exact::Kind::NaN || x.kind == Exact::Kind::NegInf)
    c = 0;
  else if (x.kind == Exact::Kind::PosInf)
    c = 1;
  else
    c = x.q;
  if (c > 1)
    c = 1;
  else if (c < 0)
    c = 0;
  else
    c = linearToSrgb(c);
  return floorQ(c * 255 + Rational(1, 2)).convert_to<unsigned long>();
}

Exact laneValue(const Color& c, ColorKind kind, int k) {
  switch (kind) {
    case ColorKind::Float: return exactOfFloatBits(c.lanes[k]);
    case ColorKind::Half: return exactOfHalfBits(uint16_t(c.lanes[k]));
    case ColorKind::Int: return Exact::of(Rational(static_cast<long>(static_cast<int32_t>(c.lanes[k]))));
    case ColorKind::Uint: return Exact::of(Rational(static_cast<unsigned long>(c.lanes[k])));
  }
  return {};
}

// One channel of `bits` value bits in storage of `storageBits`.
uint64_t encodeChannel(ImageFormat f, bool srgbChannel, const Exact& v, ColorKind kind, unsigned bits,
                       unsigned storageBits) {
  const TypeInfo ti = infoOf(f.type);
  switch (ti.cls) {
    case TypeClass::Normalized:
      if (kind != ColorKind::Float && kind != ColorKind::Half)
        throw std::invalid_argument("host images: integer write of a normalized image");
      if (srgbChannel) return toSrgb(v);
      return toNormalized(v, bits, ti.isSigned, storageBits);
    case TypeClass::Float:
      if (kind != ColorKind::Float && kind != ColorKind::Half)
        throw std::invalid_argument("host images: integer write of a float image");
      // OpenCL C 3.0 §8.3.2 [[conversion-rules-for-half-precision-floating-point-channel-data-type]]: float → half
      // rounds to nearest even (the host takes rte of the two the spec allows); half → float and float → float preserve
      // the value.
      if (f.type == ChannelType::HalfFloat) return roundToHalfBits(v);
      return roundToFloatBits(v);
    case TypeClass::Signed: {
      if (kind != ColorKind::Int) throw std::invalid_argument("host images: write_imagei needed");
      // OpenCL C 3.0 §8.3.4
      // [[conversion-rules-for-signed-and-unsigned-8-bit-16-bit-and-32-bit-integer-channel-data-types]]:
      // convert_char_sat / convert_short_sat / no conversion.
      const int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
      const int64_t x = std::clamp<int64_t>(numerator(v.q).convert_to<long>(), lo, hi);
      return static_cast<uint64_t>(x) & ((uint64_t(1) << bits) - 1);
    }
    case TypeClass::Unsigned: {
      if (kind != ColorKind::Uint) throw std::invalid_argument("host images: write_imageui needed");
      const uint64_t hi = (uint64_t(1) << bits) - 1;
      return std::min<uint64_t>(numerator(v.q).convert_to<unsigned long>(), hi);
    }
  }
  return 0;
}

}  // namespace

void encode(ImageFormat f, const Color& c, ColorKind kind, uint8_t* element) {
  const TypeInfo ti = infoOf(f.type);
  std::memset(element, 0, elementBytes(f));
  auto componentOf = [&](char ch) -> Exact {
    switch (ch) {
      case 'G': return laneValue(c, kind, 1);
      case 'B': return laneValue(c, kind, 2);
      case 'A': return laneValue(c, kind, 3);
      default: return laneValue(c, kind, 0);  // R, D, and I / L take the red component
    }
  };
  if (ti.packed) {
    uint64_t word = 0;
    for (const Field& fd : packedFields(f.type))
      word |= encodeChannel(f, false, componentOf(fd.channel), kind, fd.width, 16) << fd.shift;
    storeLE(element, ti.bytes, word);
    return;
  }
  const std::string_view stored = storedChannels(f.order);
  for (size_t k = 0; k < stored.size(); ++k) {
    // The ignored fourth channel of CL_RGBx / CL_sRGBx holds the alpha component (clref's choice for bytes the spec
    // leaves unspecified, images/texel.cpp); the other ignored channels stay 0.
    char ch = stored[k];
    if (ch == 'x' && k == 3) ch = 'A';
    if (ch == 'x') continue;
    const bool srgbChannel = srgbOrder(f.order) && ch != 'A';
    const unsigned storageBits = f.type == ChannelType::UnormInt24 ? 24 : ti.bits;
    const uint64_t raw = encodeChannel(f, srgbChannel, componentOf(ch), kind, ti.bits, storageBits);
    storeLE(element + k * ti.bytes, ti.bytes, raw);
  }
}

ExactColor borderColor(ChannelOrder o) {
  // OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]]: (0, 0, 0, 1) for CL_R, CL_RG, CL_RGB,
  // CL_LUMINANCE (and CL_sRGB, not listed, like CL_RGB); 0 for CL_DEPTH; (0, 0, 0, 0) for every other order.
  const bool opaque = o == ChannelOrder::R || o == ChannelOrder::RG || o == ChannelOrder::RGB ||
                      o == ChannelOrder::Luminance || o == ChannelOrder::sRGB;
  return {Exact::of(0), Exact::of(0), Exact::of(0), Exact::of(opaque ? 1 : 0)};
}

HostRead readSampled(const images::ImageView& image, const images::Sampler& s, const images::Coord& coord,
                     ColorKind kind, uint32_t level, CoordinatePrecision precision) {
  HostRead r;
  const Geometry g = geometryOf(image.desc, level);
  const ImageFormat fmt = image.desc.format;
  const TypeClass cls = infoOf(fmt.type).cls;
  const unsigned ncoords = g.dims + (g.array ? 1 : 0);
  std::array<Rational, 3> c;
  for (unsigned k = 0; k < ncoords; ++k) {
    if (coord.isFloat) {
      const Exact e = exactOfCoord(coord.f[k]);
      if (e.kind != Exact::Kind::Finite) {
        r.undefined = images::Undefined::InfNanCoordinate;
        return r;
      }
      c[k] = e.q;
    } else {
      c[k] = Rational(static_cast<long>(coord.i[k]));
    }
  }
  if (!s.normalizedCoords &&
      (s.addressing == AddressingMode::Repeat || s.addressing == AddressingMode::MirroredRepeat)) {
    r.undefined = images::Undefined::UnnormalizedRepeat;
    return r;
  }
  if (s.filter == FilterMode::Linear && (cls == TypeClass::Signed || cls == TypeClass::Unsigned)) {
    r.undefined = images::Undefined::LinearIntegerRead;
    return r;
  }
  // OpenCL C 3.0 §8.4 [[selecting-an-image-from-an-image-array]]: the layer is clamp(rint(layer coordinate), 0, layers
  // − 1), always unnormalized.
  int64_t layer = 0;
  if (g.array) {
    const Integer l = rintQ(c[g.dims]);
    const int64_t layers = static_cast<int64_t>(g.size[g.dims]);
    layer = l < 0 ? 0 : (l > layers - 1 ? layers - 1 : l.convert_to<long>());
  }
  std::array<AxisSample, 3> ax;
  for (unsigned k = 0; k < g.dims; ++k) {
    ax[k] = sampleAxis(s, c[k], g.size[k], precision);
    if (ax[k].outside) { r.undefined = images::Undefined::AddressNoneOutOfRange; }
  }
  const ExactColor border = hostimg::borderColor(fmt.order);
  auto texel = [&](std::array<std::optional<int64_t>, 3> idx) -> ExactColor {
    for (unsigned k = 0; k < g.dims; ++k)
      if (!idx[k]) return border;
    uint64_t x = uint64_t(*idx[0]), y = g.dims > 1 ? uint64_t(*idx[1]) : 0, z = g.dims > 2 ? uint64_t(*idx[2]) : 0;
    if (g.array) (g.dims == 1 ? y : z) = uint64_t(layer);
    return decodeExact(fmt, elementAt(image, x, y, z, level));
  };
  if (s.filter == FilterMode::Nearest) {
    r.exact = texel({ax[0].i0, ax[1].i0, ax[2].i0});
  } else {
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: T = Σ over the 2^dims corners of Π (1 − a) or a times the
    // texel.
    ExactColor sum{Exact::of(0), Exact::of(0), Exact::of(0), Exact::of(0)};
    for (unsigned corner = 0; corner < (1u << g.dims); ++corner) {
      std::array<std::optional<int64_t>, 3> idx;
      Rational weight = 1;
      for (unsigned k = 0; k < g.dims; ++k) {
        const bool second = (corner >> k) & 1;
        idx[k] = second ? ax[k].i1 : ax[k].i0;
        weight *= second ? ax[k].a : 1 - ax[k].a;
      }
      const ExactColor t = texel(idx);
      if (anyNonFinite(t)) {
        r.undefined = images::Undefined::InfNanTexelFiltered;
        return r;
      }
      for (int k = 0; k < 4; ++k) sum[k].q += weight * t[k].q;
    }
    r.exact = sum;
  }
  if ((kind == ColorKind::Int) != (cls == TypeClass::Signed) ||
      (kind == ColorKind::Uint) != (cls == TypeClass::Unsigned)) {
    r.undefined = images::Undefined::WrongReadFunction;
    return r;
  }
  r.value = roundColor(r.exact, kind);
  return r;
}

HostRead readSamplerless(const images::ImageView& image, const std::array<int32_t, 3>& coord, ColorKind kind,
                         uint32_t level) {
  HostRead r;
  const Geometry g = geometryOf(image.desc, level);
  const ImageFormat fmt = image.desc.format;
  const TypeClass cls = infoOf(fmt.type).cls;
  const unsigned ncoords = g.dims + (g.array ? 1 : 0);
  for (unsigned k = 0; k < ncoords; ++k)
    if (coord[k] < 0 || uint64_t(coord[k]) >= g.size[k]) {
      r.undefined = images::Undefined::SamplerlessOutOfRange;
      return r;
    }
  const uint64_t x = uint64_t(coord[0]), y = ncoords > 1 ? uint64_t(coord[1]) : 0,
                 z = ncoords > 2 ? uint64_t(coord[2]) : 0;
  r.exact = decodeExact(fmt, elementAt(image, x, y, z, level));
  if ((kind == ColorKind::Int) != (cls == TypeClass::Signed) ||
      (kind == ColorKind::Uint) != (cls == TypeClass::Unsigned)) {
    r.undefined = images::Undefined::WrongReadFunction;
    return r;
  }
  r.value = roundColor(r.exact, kind);
  return r;
}

size_t elementOffset(const images::ImageView& image, const std::array<int32_t, 3>& coord, uint32_t level) {
  const Geometry g = geometryOf(image.desc, level);
  const unsigned ncoords = g.dims + (g.array ? 1 : 0);
  const uint64_t x = uint64_t(coord[0]), y = ncoords > 1 ? uint64_t(coord[1]) : 0,
                 z = ncoords > 2 ? uint64_t(coord[2]) : 0;
  return size_t(elementAt(image, x, y, z, level) - image.data);
}

bool write(const images::ImageView& image, const std::array<int32_t, 3>& coord, const Color& color, ColorKind kind,
           uint32_t level) {
  const Geometry g = geometryOf(image.desc, level);
  const unsigned ncoords = g.dims + (g.array ? 1 : 0);
  for (unsigned k = 0; k < ncoords; ++k)
    if (coord[k] < 0 || uint64_t(coord[k]) >= g.size[k]) return false;
  const uint64_t x = uint64_t(coord[0]), y = ncoords > 1 ? uint64_t(coord[1]) : 0,
                 z = ncoords > 2 ? uint64_t(coord[2]) : 0;
  hostimg::encode(image.desc.format, color, kind, const_cast<uint8_t*>(elementAt(image, x, y, z, level)));
  return true;
}

}  // namespace clref::hostimg
