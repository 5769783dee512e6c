// What the image entry points share (image.cpp, image_commands.cpp): image types, the formats the device supports,
// and the image extensions it reports.
#pragma once
#include <optional>

#include "icd/objects.hpp"

namespace clref::cl {

// The images module's type of a cl_mem_object_type; none for a type that is no image type.
std::optional<images::ImageType> imageTypeOf(cl_mem_object_type t);
// The layout of the padded orders CL_Rx, CL_RGx, CL_RGBx the device's choice image_padded_channel_layout gives the
// formats applications name (withhold: the 3.0 table's, which no offered format uses).
images::PaddedLayout paddedLayout();
// Whether the device supports `f` for images of `type` (clGetSupportedImageFormats lists exactly these).
bool formatSupported(const images::ImageFormat& f, cl_mem_object_type type);
// Whether the device reports this image extension (host::openCLCExtensions: the whole chain supports it).
bool imageExtension(const char* name);
// An image type as the messages of the channel "api" name it ("2D image array").
const char* imageTypeName(images::ImageType t);

}  // namespace clref::cl
