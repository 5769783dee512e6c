// OpTypeImage → the OpenCL image type, depth and access qualifier (image_types.hpp).
#include "interpreter/image_types.hpp"

namespace clref::interpreter {

ImageTypeInfo imageTypeInfo(const Module& m, uint32_t typeId) {
  ImageTypeInfo info;
  const Instruction* def = m.findDef(typeId);
  if (!def || def->opcode != spv::Op::OpTypeImage || def->words.size() < 9) {
    info.why = "%" + std::to_string(typeId) + " is not an OpTypeImage";
    return info;
  }
  // OpTypeImage: Result, Sampled Type, Dim, Depth, Arrayed, MS, Sampled, Image Format [, Access Qualifier].
  const auto& w = def->words;
  const auto dim = spv::Dim(w[3]);
  const bool depth = w[4] == 1, arrayed = w[5] == 1;
  if (w[6] != 0) {
    info.why = "multi-sampled images (MS 1) need cl_khr_gl_msaa_sharing, which clref does not support";
    return info;
  }
  if (w.size() < 10 || w[9] > 2) {
    info.why = "the access qualifier must be present (OpenCL SPIR-V Environment §4 [[validation-rules]])";
    return info;
  }
  info.access = ImageAccess(w[9]);
  info.depth = depth;
  using images::ImageType;
  if (dim == spv::Dim::Dim1D && !depth) {
    info.type = arrayed ? ImageType::Image1DArray : ImageType::Image1D;
  } else if (dim == spv::Dim::Dim2D) {
    info.type = arrayed ? ImageType::Image2DArray : ImageType::Image2D;
  } else if (dim == spv::Dim::Dim3D && !depth && !arrayed) {
    info.type = ImageType::Image3D;
  } else if (dim == spv::Dim::Buffer && !depth && !arrayed) {
    info.type = ImageType::Image1DBuffer;
  } else {
    info.why = "Dim " + std::to_string(w[3]) + (arrayed ? " arrayed" : "") + (depth ? " depth" : "") +
               " (OpenCL SPIR-V Environment §2.5.2 [[_image_related_data_types]] lists 1D, 2D, 3D and Buffer images)";
    return info;
  }
  info.valid = true;
  return info;
}

const char* imageTypeName(const ImageTypeInfo& info) {
  using images::ImageType;
  switch (info.type) {
    case ImageType::Image1D: return "image1d_t";
    case ImageType::Image1DArray: return "image1d_array_t";
    case ImageType::Image1DBuffer: return "image1d_buffer_t";
    case ImageType::Image2D: return info.depth ? "image2d_depth_t" : "image2d_t";
    case ImageType::Image2DArray: return info.depth ? "image2d_array_depth_t" : "image2d_array_t";
    case ImageType::Image3D: return "image3d_t";
  }
  return "image";
}

}  // namespace clref::interpreter
