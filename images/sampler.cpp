// Sampler encodings (OpenCL C's sampler_t bit-field, SPIR-V's OpConstantSampler operands) and the undefined conditions
// of image reads and writes with the choices that decide them.
#include "images/sampler.hpp"

namespace clref::images {

namespace {
// OpenCL C 3.0 §6.15.15.1 [[samplers]] sampler_t literals, with the values clang's opencl-c-base.h gives the
// CLK_* macros [external]: CLK_NORMALIZED_COORDS_TRUE 1, CLK_ADDRESS_NONE 0, _CLAMP_TO_EDGE 2, _CLAMP 4, _REPEAT 6,
// _MIRRORED_REPEAT 8, CLK_FILTER_NEAREST 0x10, CLK_FILTER_LINEAR 0x20.
constexpr uint32_t kNormalizedBit = 0x1, kAddressMask = 0xe, kFilterNearest = 0x10, kFilterLinear = 0x20;
}  // namespace

uint32_t toBits(const Sampler& s) {
  const uint32_t address = (uint32_t(s.addressing) - uint32_t(AddressingMode::None)) << 1;
  return (s.normalizedCoords ? kNormalizedBit : 0) | address |
         (s.filter == FilterMode::Linear ? kFilterLinear : kFilterNearest);
}

bool fromBits(uint32_t bits, Sampler& out) {
  if (bits & ~(kNormalizedBit | kAddressMask | kFilterNearest | kFilterLinear)) return false;
  const uint32_t address = (bits & kAddressMask) >> 1;
  const uint32_t filter = bits & (kFilterNearest | kFilterLinear);
  if (address > 4 || (filter != kFilterNearest && filter != kFilterLinear)) return false;
  Sampler s;
  s.normalizedCoords = bits & kNormalizedBit;
  s.addressing = AddressingMode(uint32_t(AddressingMode::None) + address);
  s.filter = filter == kFilterLinear ? FilterMode::Linear : FilterMode::Nearest;
  out = s;
  return true;
}

bool fromSpirv(uint32_t addressing, uint32_t normalized, uint32_t filter, Sampler& out) {
  // SPIR-V 1.0 §3.9 [external] SamplerAddressingMode: None 0, ClampToEdge 1, Clamp 2, Repeat 3, RepeatMirrored 4 — the
  // order of cl_addressing_mode; §3.10 [external] SamplerFilterMode: Nearest 0, Linear 1. OpConstantSampler's Param
  // is 0 or 1.
  if (addressing > 4 || normalized > 1 || filter > 1) return false;
  Sampler s;
  s.addressing = AddressingMode(uint32_t(AddressingMode::None) + addressing);
  s.normalizedCoords = normalized == 1;
  s.filter = filter == 1 ? FilterMode::Linear : FilterMode::Nearest;
  out = s;
  return true;
}

std::string_view describe(Undefined u) {
  switch (u) {
    case Undefined::None: return "no undefined condition";
    case Undefined::AddressNoneOutOfRange: return "image read with CLK_ADDRESS_NONE at a coordinate outside the image";
    case Undefined::SamplerlessOutOfRange: return "sampler-less image read at a coordinate outside the image";
    case Undefined::LinearIntegerRead: return "read_imagei/read_imageui with a linear filter";
    case Undefined::UnnormalizedRepeat:
      return "CLK_ADDRESS_REPEAT or CLK_ADDRESS_MIRRORED_REPEAT with unnormalized coordinates";
    case Undefined::InfNanCoordinate: return "image read at an INF or NaN coordinate";
    case Undefined::InfNanTexelFiltered: return "linear filtering over an INF or NaN texel";
    case Undefined::WrongReadFunction: return "image read or write function that does not match the channel data type";
    case Undefined::WriteOutOfRange: return "image write at a coordinate outside the image";
    case Undefined::MipLevelOutOfRange: return "image access at a mip level the image does not have";
    case Undefined::IntCoordSampler:
      return "image read with integer coordinates and a sampler other than nearest, unnormalized, without repeat";
    case Undefined::MipUnnormalized: return "mipmapped image read with unnormalized coordinates";
  }
  return "unknown image condition";
}

numerics::Choice choiceOf(Undefined u) {
  using numerics::Choice;
  switch (u) {
    case Undefined::None: return Choice::Count;
    case Undefined::AddressNoneOutOfRange: return Choice::ImageAddressNoneOutOfRange;
    case Undefined::SamplerlessOutOfRange: return Choice::ImageSamplerlessOutOfRange;
    case Undefined::LinearIntegerRead: return Choice::ImageLinearIntegerRead;
    case Undefined::UnnormalizedRepeat: return Choice::ImageUnnormalizedRepeat;
    case Undefined::InfNanCoordinate: return Choice::ImageInfNanCoordinate;
    case Undefined::InfNanTexelFiltered: return Choice::ImageInfNanTexelFiltered;
    case Undefined::WrongReadFunction: return Choice::ImageWrongReadFunction;
    case Undefined::WriteOutOfRange: return Choice::ImageWriteOutOfRange;
    case Undefined::MipLevelOutOfRange: return Choice::ImageMipLevelOutOfRange;
    case Undefined::IntCoordSampler: return Choice::ImageIntCoordSampler;
    case Undefined::MipUnnormalized: return Choice::ImageMipUnnormalized;
  }
  return Choice::Count;
}

std::string_view clauseOf(Undefined u) {
  const auto c = choiceOf(u);
  return c == numerics::Choice::Count ? std::string_view{} : numerics::infoOf(c).clause;
}

}  // namespace clref::images
