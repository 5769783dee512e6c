// DeviceConfig::plantErrors (planted_errors.hpp): a wrong device, for testing the tools that judge devices.
#include "host/planted_errors.hpp"

#include <bit>
#include <cstring>

#include "host/elements.hpp"

namespace clref::host {

namespace {

// The same for an image the kernel may write: element e (in ObservedImage's packed order, level after level), for e a
// multiple of `every`, has every colour component moved far from its value (normalized: by half the range; half and
// float: to -2x - 1; integers: bit 6 flipped) and is stored again, so that every channel the order stores changes.
void plantImageErrors(Image& image, uint64_t every) {
  const images::ImageFormat format = image.desc().format;
  const images::ChannelClass cls = images::channelClass(format.type);
  const images::ColorKind kind = cls == images::ChannelClass::SignedInt     ? images::ColorKind::Int
                                 : cls == images::ChannelClass::UnsignedInt ? images::ColorKind::Uint
                                                                            : images::ColorKind::Float;
  image.forEachElement([&](uint64_t e, const std::array<uint64_t, 3>&, uint32_t, uint8_t* at) {
    if (e % every) return;
    images::Color c = images::decode(format, at, kind);
    for (uint32_t& lane : c.lanes) {
      if (kind != images::ColorKind::Float) {
        lane ^= 0x40;
        continue;
      }
      const float v = std::bit_cast<float>(lane);
      const float moved = cls == images::ChannelClass::Normalized ? (v >= 0.5f ? v - 0.5f : v + 0.5f) : -2 * v - 1;
      lane = std::bit_cast<uint32_t>(moved);
    }
    images::encode(format, c, kind, at);
  });
}

}  // namespace

void plantScalarErrors(uint8_t* bytes, uint64_t size, const std::optional<ElementLayout>& layout,
                       numerics::ScalarType type, uint64_t every) {
  forEachScalar(layout, type, size, [&](uint64_t e, uint64_t offset, numerics::ScalarType t) {
    if (e % every) return;
    const size_t n = sizeOf(t);
    uint8_t* at = bytes + offset;
    uint64_t v = 0;
    std::memcpy(&v, at, n);
    // A zero or a denormal becomes 1: flipping a significand bit would leave it denormal, which a Vulkan device
    // may flush (Vulkan §A.4 [external]), so that a set could hold both.
    auto moved = [&](int significandBits, uint64_t exponentMask, uint64_t one) {
      return (v & exponentMask) == 0 ? one : v ^ (uint64_t(1) << (significandBits - 1));
    };
    switch (t) {
      case numerics::ScalarType::Half: v = moved(10, 0x7c00, 0x3c00); break;
      case numerics::ScalarType::Float: v = moved(23, 0x7f800000, 0x3f800000); break;
      case numerics::ScalarType::Double: v = moved(52, 0x7ff0000000000000, 0x3ff0000000000000); break;
      default: ++v; break;
    }
    std::memcpy(at, &v, n);
  });
}

void plantErrors(Kernel& kernel, uint64_t every) {
  for (size_t i = 0; i < kernel.argCount(); ++i) {
    const KernelArgInfo& info = kernel.argInfo(i);
    auto buffer = kernel.bufferArg(i);
    if (!buffer || !mayWriteThrough(info)) continue;
    plantScalarErrors(reinterpret_cast<uint8_t*>(buffer->data()), buffer->size(), layoutOf(info),
                      elementTypeOf(info.typeName).value_or(numerics::ScalarType::UChar), every);
  }
  for (size_t i = 0; i < kernel.argCount(); ++i)
    if (auto image = kernel.imageArg(i); image && kernel.argInfo(i).access != KernelArgInfo::Access::ReadOnly)
      plantImageErrors(*image, every);
}

}  // namespace clref::host
