// OpTypeImage as OpenCL sees it: which image type (image1d_t … image3d_t, image1d_buffer_t), depth, and the access
// qualifier; used for kernel parameters (lower_allocations.cpp) and the image instructions (ops_image.cpp).
// Internal to the interpreter.
#pragma once
#include <cstdint>
#include <string>

#include "images/image.hpp"
#include "interpreter/program.hpp"

namespace clref::interpreter {

struct ImageTypeInfo {
  bool valid = false;
  std::string why;  // when not valid: what OpenCL does not allow
  images::ImageType type = images::ImageType::Image2D;
  bool depth = false;
  ImageAccess access = ImageAccess::ReadOnly;
};

// The OpTypeImage `typeId` (OpenCL SPIR-V Environment §2.5.2 [[_image_related_data_types]] and §4
// [[validation-rules]]: Dim 1D, 2D, 3D or Buffer; Arrayed only with 1D and 2D; Depth only with 2D; MS 0; the access
// qualifier present).
ImageTypeInfo imageTypeInfo(const Module& m, uint32_t typeId);
// The OpenCL C name of the type: "image2d_array_depth_t".
const char* imageTypeName(const ImageTypeInfo& info);

}  // namespace clref::interpreter
