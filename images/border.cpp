// The border colour of CLK_ADDRESS_CLAMP (OpenCL C 3.0 §6.15.15.1.1 [[determining-the-border-color-or-value]]).
#include "images/sampler.hpp"
#include "images/texel_internal.hpp"

namespace clref::images {

std::array<float, 4> borderColor(ChannelOrder o) {
  switch (o) {
    // "If the image channel order is CL_A, CL_INTENSITY, CL_Rx, CL_RA, CL_RGx, CL_RGBx, CL_sRGBx, CL_ARGB, CL_BGRA,
    // CL_ABGR, CL_RGBA, CL_sRGBA or CL_sBGRA, the border color is (0.0f, 0.0f, 0.0f, 0.0f)."
    case ChannelOrder::A:
    case ChannelOrder::Intensity:
    case ChannelOrder::Rx:
    case ChannelOrder::RA:
    case ChannelOrder::RGx:
    case ChannelOrder::RGBx:
    case ChannelOrder::sRGBx:
    case ChannelOrder::ARGB:
    case ChannelOrder::BGRA:
    case ChannelOrder::ABGR:
    case ChannelOrder::RGBA:
    case ChannelOrder::sRGBA:
    case ChannelOrder::sBGRA: return {0.0f, 0.0f, 0.0f, 0.0f};
    // "If the image channel order is CL_R, CL_RG, CL_RGB, or CL_LUMINANCE, the border color is (0.0f, 0.0f, 0.0f,
    // 1.0f)." CL_sRGB, which the list leaves out, is taken as CL_RGB (it has no valid type, image_format.cpp).
    // "If the image channel order is CL_DEPTH, the border value is 0.0f": the other components as for CL_R.
    case ChannelOrder::R:
    case ChannelOrder::RG:
    case ChannelOrder::RGB:
    case ChannelOrder::Luminance:
    case ChannelOrder::sRGB:
    case ChannelOrder::Depth: return {0.0f, 0.0f, 0.0f, 1.0f};
  }
  return {0.0f, 0.0f, 0.0f, 1.0f};
}

ExactTexel borderExact(ChannelOrder o) {
  const auto b = borderColor(o);
  ExactTexel t;
  for (unsigned i = 0; i < 4; ++i) t.c[i] = ExactChannel::rational(b[i] != 0.0f ? 1 : 0);
  return t;
}

}  // namespace clref::images
