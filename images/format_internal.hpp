// What texel.cpp and image.cpp need to know about formats beyond the public image_format.hpp.
#pragma once
#include "images/image_format.hpp"

namespace clref::images {

// Channels an element stores, including the ignored ones of CL_Rx, CL_RGx, CL_RGBx and CL_sRGBx (OpenCL 3.0 API
// §5.3.1.1 [[image-format-descriptor]]); channelCount gives the ones that carry a colour.
unsigned storedChannels(ChannelOrder o);
// Bytes of one channel of an unpacked type (0 for the packed types).
unsigned channelBytes(ChannelType t);
// Bytes of one element of any listed order and type, also of pairs isValidFormat refuses.
unsigned elementBytesUnchecked(ImageFormat f);

}  // namespace clref::images
