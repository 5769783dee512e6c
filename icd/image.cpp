// OpenCL 3.0 API §5.3 [[_image_objects]]: creating images (clCreateImage, clCreateImageWithProperties and the
// deprecated clCreateImage2D / clCreateImage3D), images from buffers and from images, the supported formats, and
// clGetImageInfo. The image commands are in image_commands.cpp.
#include <algorithm>
#include <new>
#include <stdexcept>

#include "icd/device_info.hpp"
#include "icd/image_support.hpp"
#include "icd/memory_flags.hpp"

using namespace clref::cl;
namespace images = clref::images;
namespace host = clref::host;

namespace clref::cl {

std::optional<images::ImageType> imageTypeOf(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return images::ImageType::Image1D;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return images::ImageType::Image1DBuffer;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return images::ImageType::Image1DArray;
    case CL_MEM_OBJECT_IMAGE2D: return images::ImageType::Image2D;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return images::ImageType::Image2DArray;
    case CL_MEM_OBJECT_IMAGE3D: return images::ImageType::Image3D;
    default: return std::nullopt;
  }
}

images::PaddedLayout paddedLayout() {
  const auto o = theDevice()->device.config().choices.get<numerics::Choice::ImagePaddedChannelLayout>();
  return o == numerics::ImagePaddedLayoutOption::Api12 ? images::PaddedLayout::Api12 : images::PaddedLayout::Api30;
}

bool formatSupported(const images::ImageFormat& f, cl_mem_object_type type) {
  if (!images::isValidFormat(f)) return false;
  // The padded orders as the choice image_padded_channel_layout says. The specifications disagree on their memory
  // layout: OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]] describes CL_Rx as "A two channel image format, where
  // the first channel represents a RED component and the second channel is ignored" and CL_RGBx with four channels
  // of any type, while OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor" lists CL_Rx with CL_R and CL_A as one
  // channel and allows CL_RGBx only with CL_UNORM_SHORT_565, CL_UNORM_SHORT_555 and CL_UNORM_INT_101010 (one packed
  // element, the same in both versions). An application written for one layout would read or write past its host
  // memory under the other, so by default (withhold) the API reports neither CL_Rx, nor CL_RGx, nor CL_RGBx with an
  // unpacked type: the formats are optional (OpenCL 3.0 API §E.1 [[_summary_of_changes_from_opencl_1_0_to_opencl_1_1]]
  // "Optional image formats: CL_Rx, CL_RGx, and CL_RGBx"). api_3_0 and api_1_2 offer them in the layout they name
  // (formatOf gives a format that layout).
  const auto choice = theDevice()->device.config().choices.get<numerics::Choice::ImagePaddedChannelLayout>();
  if (choice == numerics::ImagePaddedLayoutOption::Withhold && images::isPadded(f.order) &&
      f.type != images::ChannelType::UnormShort565 && f.type != images::ChannelType::UnormShort555 &&
      f.type != images::ChannelType::UnormInt101010)
    return false;
  // CL_UNORM_INT24 belongs to cl_khr_gl_depth_images (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]] lists it
  // only under that extension), which clref does not report: the images module reads and writes it, the API does not
  // offer it.
  if (f.type == images::ChannelType::UnormInt24) return false;
  // OpenCL Extension Specification 3.0.12 §16 "Depth Images": CL_DEPTH images are 2D images and 2D image arrays.
  if (f.order == images::ChannelOrder::Depth)
    return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  return true;
}

bool imageExtension(const char* name) {
  for (const auto& e : theDevice()->extensions)
    if (e == name) return true;
  return false;
}

const char* imageTypeName(images::ImageType t) {
  switch (t) {
    case images::ImageType::Image1D: return "1D image";
    case images::ImageType::Image1DBuffer: return "1D image buffer";
    case images::ImageType::Image1DArray: return "1D image array";
    case images::ImageType::Image2D: return "2D image";
    case images::ImageType::Image2DArray: return "2D image array";
    case images::ImageType::Image3D: return "3D image";
  }
  return "image";
}

}  // namespace clref::cl

namespace {

// The format as the images module names it, when cl.h's values name a pair at all.
std::optional<images::ImageFormat> formatOf(const cl_image_format& f) {
  // The padded orders in the layout the choice image_padded_channel_layout names (formatSupported).
  const images::ImageFormat out = images::withLayout(
      {images::ChannelOrder(f.image_channel_order), images::ChannelType(f.image_channel_data_type)}, paddedLayout());
  if (!images::isValidFormat(out)) return std::nullopt;
  return out;
}

// OpenCL 3.0 API §5.3.1.2 [[image-descriptor]] "Compatible Image Channel Orders": the orders a 2D image created from
// another 2D image may view it in (and its own).
bool compatibleOrders(cl_channel_order view, cl_channel_order base) {
  if (view == base) return true;
  static const std::pair<cl_channel_order, cl_channel_order> pairs[] = {
      {CL_sBGRA, CL_BGRA}, {CL_BGRA, CL_sBGRA}, {CL_sRGBA, CL_RGBA}, {CL_RGBA, CL_sRGBA}, {CL_sRGB, CL_RGB},
      {CL_RGB, CL_sRGB},   {CL_sRGBx, CL_RGBx}, {CL_RGBx, CL_sRGBx}, {CL_DEPTH, CL_R}};
  return std::find(std::begin(pairs), std::end(pairs), std::pair{view, base}) != std::end(pairs);
}

// A size of an image descriptor outside its range: the field, its value, the device's limit and its name.
struct SizeProblem {
  const char* field;
  size_t value;
  size_t max;
  const char* limit;
};

// OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: each size the type uses is at least 1 and at most the device's limit
// (CL_DEVICE_IMAGE2D_MAX_*, IMAGE3D_MAX_*, IMAGE_MAX_BUFFER_SIZE, IMAGE_MAX_ARRAY_SIZE). The first size that is not,
// or none (image_type is an image type).
std::optional<SizeProblem> sizeProblem(const cl_image_desc& d) {
  std::optional<SizeProblem> out;
  const auto check = [&](const char* field, size_t v, size_t max, const char* limit) {
    if (!out && (v < 1 || v > max)) out = SizeProblem{field, v, max, limit};
  };
  switch (d.image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
      check("image_width", d.image_width, kImage2DMaxWidth, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      check("image_width", d.image_width, kImageMaxBufferSize, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE");
      break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      check("image_width", d.image_width, kImage2DMaxWidth, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      check("image_array_size", d.image_array_size, kImageMaxArraySize, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      check("image_width", d.image_width, kImage2DMaxWidth, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      check("image_height", d.image_height, kImage2DMaxHeight, "CL_DEVICE_IMAGE2D_MAX_HEIGHT");
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      check("image_width", d.image_width, kImage2DMaxWidth, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      check("image_height", d.image_height, kImage2DMaxHeight, "CL_DEVICE_IMAGE2D_MAX_HEIGHT");
      check("image_array_size", d.image_array_size, kImageMaxArraySize, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      check("image_width", d.image_width, kImage3DMaxWidth, "CL_DEVICE_IMAGE3D_MAX_WIDTH");
      check("image_height", d.image_height, kImage3DMaxHeight, "CL_DEVICE_IMAGE3D_MAX_HEIGHT");
      check("image_depth", d.image_depth, kImage3DMaxDepth, "CL_DEVICE_IMAGE3D_MAX_DEPTH");
      break;
  }
  return out;
}

// cl_khr_mipmap_image: at most 1 + floor(log2(the largest dimension the type uses)) levels.
cl_uint maxMipLevels(const cl_image_desc& d) {
  size_t largest = d.image_width;
  if (d.image_type == CL_MEM_OBJECT_IMAGE2D || d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      d.image_type == CL_MEM_OBJECT_IMAGE3D)
    largest = std::max(largest, d.image_height);
  if (d.image_type == CL_MEM_OBJECT_IMAGE3D) largest = std::max(largest, d.image_depth);
  cl_uint levels = 1;
  while (largest >>= 1) ++levels;
  return levels;
}

images::ImageDesc hostDesc(const cl_image_desc& d, images::ImageFormat f) {
  images::ImageDesc h;
  h.type = *imageTypeOf(d.image_type);
  h.format = f;
  h.width = d.image_width;
  const bool usesHeight = d.image_type == CL_MEM_OBJECT_IMAGE2D || d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          d.image_type == CL_MEM_OBJECT_IMAGE3D;
  h.height = usesHeight ? d.image_height : 1;
  h.depth = d.image_type == CL_MEM_OBJECT_IMAGE3D ? d.image_depth : 1;
  const bool array = d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  h.arraySize = array ? d.image_array_size : 1;
  h.numMipLevels = d.num_mip_levels ? d.num_mip_levels : 1;
  return h;
}

// The descriptor clGetImageInfo answers: the image's sizes and level-0 pitches (OpenCL 3.0 API §5.3.9
// [[image-object-queries]]: CL_IMAGE_SLICE_PITCH is 0 for 1D, 1D buffer and 2D images).
cl_image_desc answeredDesc(const cl_image_desc& given, const host::Image& image, cl_mem memObject) {
  const images::ImageDesc& h = image.desc();
  cl_image_desc d = given;
  d.image_row_pitch = size_t(h.rowPitch);
  const bool layered = given.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                       given.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY || given.image_type == CL_MEM_OBJECT_IMAGE3D;
  d.image_slice_pitch = layered ? size_t(h.slicePitch) : 0;
  d.num_mip_levels = h.numMipLevels > 1 ? h.numMipLevels : 0;
  d.num_samples = 0;
  d.mem_object = memObject;
  return d;
}

// A memory object type, for the channel "api".
const char* memTypeName(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_BUFFER: return "CL_MEM_OBJECT_BUFFER";
    case CL_MEM_OBJECT_IMAGE1D: return "CL_MEM_OBJECT_IMAGE1D";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "CL_MEM_OBJECT_IMAGE1D_BUFFER";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "CL_MEM_OBJECT_IMAGE1D_ARRAY";
    case CL_MEM_OBJECT_IMAGE2D: return "CL_MEM_OBJECT_IMAGE2D";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "CL_MEM_OBJECT_IMAGE2D_ARRAY";
    case CL_MEM_OBJECT_IMAGE3D: return "CL_MEM_OBJECT_IMAGE3D";
    default: return "no memory object type";
  }
}

cl_mem createImage(const char* fn, cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                   const cl_image_format* image_format, const cl_image_desc* image_desc, void* host_ptr, cl_int badDesc,
                   cl_int* errcode_ret) {
  // badDesc: CL_INVALID_IMAGE_DESCRIPTOR, or CL_INVALID_IMAGE_SIZE for clCreateImage2D / clCreateImage3D, whose
  // descriptor is their size arguments.
  // OpenCL 3.0 API §5.3.1 [[_creating_image_objects]] clCreateImage, clCreateImageWithProperties:
  // CL_INVALID_CONTEXT if context is not a valid context.
  if (!validContext(context))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  std::vector<cl_mem_properties> props;
  if (properties) {
    // CL_INVALID_PROPERTY if a property name is not a supported property name: "OpenCL does not define any optional
    // properties for images" (only extensions clref does not report do).
    if (properties[0] != 0)
      return apiErrorRet(fn, errcode_ret, CL_INVALID_PROPERTY,
                         "properties[0] is {}: the device supports no image property", hex(properties[0]));
    props.push_back(0);
  }
  // CL_INVALID_VALUE if values specified in flags are not valid.
  if (const char* problem = flagsProblem(flags))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "flags {}: {}", hex(flags), problem);
  // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL, or its values are not valid.
  if (!image_format) return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  const auto format = formatOf(*image_format);
  if (!format)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                       "image_format (channel order {}, channel data type {}) is no valid format: an unknown value, "
                       "or an order the type cannot have",
                       hex(image_format->image_channel_order), hex(image_format->image_channel_data_type));
  // OpenCL 3.0 API §F [[error_codes]] CL_INVALID_IMAGE_DESCRIPTOR, "returned when the image descriptor is not valid"
  // (the 3.0 list names it no longer; OpenCL 1.2 lists it for clCreateImage): no desc, an image_type
  // that is no image type, num_samples not 0.
  if (!image_desc) return apiErrorRet(fn, errcode_ret, badDesc, "image_desc is NULL");
  cl_image_desc d = *image_desc;
  if (!imageTypeOf(d.image_type))
    return apiErrorRet(fn, errcode_ret, badDesc, "image_desc->image_type is {}, no image type", hex(d.image_type));
  if (d.num_samples != 0)
    return apiErrorRet(fn, errcode_ret, badDesc, "image_desc->num_samples is {}, not 0", d.num_samples);
  const cl_mem from = d.mem_object;
  const bool fromBuffer = from && validMem(from) && from->type == CL_MEM_OBJECT_BUFFER;
  const bool fromImage = from && validMem(from) && from->image;
  // mem_object: a buffer for a 1D image buffer, or (cl_khr_image2d_from_buffer) for a 2D image; a 2D image for a 2D
  // image; NULL otherwise. A 1D image buffer needs its buffer.
  if (from) {
    if (!fromBuffer && !fromImage)
      return apiErrorRet(fn, errcode_ret, badDesc, "image_desc->mem_object {} is not a valid memory object", from);
    if (fromBuffer && d.image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER && d.image_type != CL_MEM_OBJECT_IMAGE2D)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->mem_object is a buffer and image_type is {}; only a "
                         "CL_MEM_OBJECT_IMAGE1D_BUFFER or a CL_MEM_OBJECT_IMAGE2D is made from a buffer",
                         memTypeName(d.image_type));
    if (fromImage && (d.image_type != CL_MEM_OBJECT_IMAGE2D || from->type != CL_MEM_OBJECT_IMAGE2D))
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->mem_object is a {} and image_type is {}; only a CL_MEM_OBJECT_IMAGE2D is made "
                         "from an image, a CL_MEM_OBJECT_IMAGE2D",
                         memTypeName(from->type), memTypeName(d.image_type));
    if (from->context != context)
      return apiErrorRet(fn, errcode_ret, badDesc, "image_desc->mem_object belongs to context {}, not to context {}",
                         from->context, context);
  } else if (d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    return apiErrorRet(fn, errcode_ret, badDesc,
                       "image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER and image_desc->mem_object is NULL, not a buffer");
  }
  if (from) {
    const cl_mem_flags pf = from->flags;
    // CL_INVALID_VALUE if an image is created from another memory object and mem_object was created with
    // CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, ... with CL_MEM_READ_ONLY and flags
    // specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or flags specifies a host pointer flag.
    // ... CL_MEM_HOST_WRITE_ONLY and flags CL_MEM_HOST_READ_ONLY; CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_WRITE_ONLY;
    // CL_MEM_HOST_NO_ACCESS and CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
    if (const char* problem = inheritedFlagsProblem(pf, flags))
      return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "flags {} against image_desc->mem_object's flags {}: {}",
                         hex(flags), hex(pf), problem);
    if (flags & kHostPtrFlags)
      return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE,
                         "flags {} has CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR, which an "
                         "image from image_desc->mem_object inherits and may not give",
                         hex(flags));
    // Unspecified access and host-access flags, and the host pointer flags, are inherited from mem_object.
    if (!(flags & kAccessFlags)) flags |= pf & kAccessFlags;
    if (!(flags & kHostAccessFlags)) flags |= pf & kHostAccessFlags;
    flags |= pf & kHostPtrFlags;
  }
  // The default access (OpenCL 3.0 API §5.3.1 [[_creating_image_objects]]).
  if (!(flags & kAccessFlags)) flags |= CL_MEM_READ_WRITE;
  // CL_IMAGE_FORMAT_NOT_SUPPORTED if no device in context supports image_format (for this image type).
  if (!formatSupported(*format, d.image_type))
    return apiErrorRet(fn, errcode_ret, CL_IMAGE_FORMAT_NOT_SUPPORTED,
                       "the device does not support image_format (channel order {}, channel data type {}) for a {} "
                       "(clGetSupportedImageFormats lists the formats it does)",
                       hex(image_format->image_channel_order), hex(image_format->image_channel_data_type),
                       memTypeName(d.image_type));
  // CL_INVALID_IMAGE_SIZE if the image dimensions are not valid or exceed the device's maximums.
  if (const auto p = sizeProblem(d))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_SIZE, "image_desc->{} is {}, not 1 to {} ({}) for a {}",
                       p->field, p->value, p->limit, p->max, memTypeName(d.image_type));
  const size_t es = images::elementSize(*format);
  // cl_khr_mipmap_image: num_mip_levels (0 or 1: one level); not for 1D image buffers, depth images, images from
  // other memory objects or with a host_ptr (OpenCL 3.0 API §5.3.1 [[_creating_image_objects]] "Mipmap Images").
  if (d.num_mip_levels > 1) {
    if (!imageExtension("cl_khr_mipmap_image"))
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->num_mip_levels is {}: mipmaps need cl_khr_mipmap_image, which the device does "
                         "not report",
                         d.num_mip_levels);
    if (d.num_mip_levels > maxMipLevels(d))
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->num_mip_levels is {}, more than the {} levels of an image of these sizes",
                         d.num_mip_levels, maxMipLevels(d));
    if (d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || format->order == images::ChannelOrder::Depth || from)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->num_mip_levels is {}, and a 1D image buffer, a CL_DEPTH image or an image from "
                         "another memory object has one level",
                         d.num_mip_levels);
    if (host_ptr || (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
      return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                         "image_desc->num_mip_levels is {}: a mipmapped image takes no host_ptr", d.num_mip_levels);
  }
  // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are set in flags, or
  // host_ptr is not NULL but neither is set (flags inherited from mem_object do not count: host_ptr must be NULL).
  const bool wantsPtr = !from && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  if (wantsPtr && !host_ptr)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                       "host_ptr is NULL and flags {} has CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR", hex(flags));
  if (!wantsPtr && host_ptr && from)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                       "host_ptr is {}, and an image from image_desc->mem_object takes none", host_ptr);
  if (!wantsPtr && host_ptr)
    return apiErrorRet(fn, errcode_ret, CL_INVALID_HOST_PTR,
                       "host_ptr is {} and flags {} has neither CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR", host_ptr,
                       hex(flags));
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]] image_row_pitch / image_slice_pitch: 0 unless host_ptr is given or
  // the image is made from a buffer; otherwise at least the packed pitch and a multiple of the element size (of the
  // row pitch for the slice pitch). The core text names only "a 2D image created from a buffer", but the same
  // paragraph with cl_ext_image_requirements_info says "For an image created from a buffer, the image_row_pitch must
  // also be ..." (a 1D image buffer included), and the conformance suite's test_kernel_image_methods gives a 1D image
  // buffer its row pitch: clref accepts it there, where one row makes any valid pitch lay out the same bytes.
  const bool layered = d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       d.image_type == CL_MEM_OBJECT_IMAGE3D;
  const bool buffer2D = fromBuffer && d.image_type == CL_MEM_OBJECT_IMAGE2D;
  if (!host_ptr && !fromBuffer && d.image_row_pitch != 0)
    return apiErrorRet(fn, errcode_ret, badDesc,
                       "image_desc->image_row_pitch is {}, and it must be 0 when host_ptr is NULL (but for an image "
                       "from a buffer)",
                       d.image_row_pitch);
  if (!host_ptr && d.image_slice_pitch != 0)
    return apiErrorRet(fn, errcode_ret, badDesc,
                       "image_desc->image_slice_pitch is {}, and it must be 0 when host_ptr is NULL",
                       d.image_slice_pitch);
  if (d.image_row_pitch != 0 && d.image_row_pitch < d.image_width * es)
    return apiErrorRet(fn, errcode_ret, badDesc,
                       "image_desc->image_row_pitch is {}, less than image_width * element size ({} * {} bytes)",
                       d.image_row_pitch, d.image_width, es);
  // (For a 2D image from a buffer, a row pitch that is no multiple of the element size breaks the pitch alignment
  // rule, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR below.)
  if (!buffer2D && d.image_row_pitch % es != 0)
    return apiErrorRet(fn, errcode_ret, badDesc,
                       "image_desc->image_row_pitch is {}, not a multiple of the element size ({} bytes)",
                       d.image_row_pitch, es);
  const size_t row = d.image_row_pitch ? d.image_row_pitch : d.image_width * es;
  if (layered && d.image_slice_pitch != 0) {
    const size_t rows = d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : d.image_height;
    if (d.image_slice_pitch < row * rows)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->image_slice_pitch is {}, less than the row pitch * rows ({} * {})",
                         d.image_slice_pitch, row, rows);
    if (d.image_slice_pitch % row != 0)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->image_slice_pitch is {}, not a multiple of the row pitch ({})",
                         d.image_slice_pitch, row);
  }
  if (fromImage) {
    // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: a 2D image from a 2D image has the same descriptor (except
    // mem_object; a row pitch of 0 means the image's), the same channel data type and a compatible channel order.
    const cl_image_desc& b = from->imageDesc;
    if (d.image_width != b.image_width || d.image_height != b.image_height)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc gives width {} and height {}, image_desc->mem_object has {} and {}: an image "
                         "from an image has its sizes",
                         d.image_width, d.image_height, b.image_width, b.image_height);
    if (d.image_row_pitch != 0 && d.image_row_pitch != b.image_row_pitch)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->image_row_pitch is {}, and image_desc->mem_object's is {}: an image from an "
                         "image has its row pitch (or 0)",
                         d.image_row_pitch, b.image_row_pitch);
    if (d.num_mip_levels > 1)
      return apiErrorRet(fn, errcode_ret, badDesc,
                         "image_desc->num_mip_levels is {}: an image from an image has one level", d.num_mip_levels);
    if (image_format->image_channel_data_type != from->imageFormat.image_channel_data_type)
      return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                         "image_format's channel data type {} is not image_desc->mem_object's ({})",
                         hex(image_format->image_channel_data_type), hex(from->imageFormat.image_channel_data_type));
    if (!compatibleOrders(image_format->image_channel_order, from->imageFormat.image_channel_order))
      return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                         "image_format's channel order {} is not compatible with image_desc->mem_object's ({})",
                         hex(image_format->image_channel_order), hex(from->imageFormat.image_channel_order));
  }
  if (fromBuffer) {
    if (d.image_type == CL_MEM_OBJECT_IMAGE2D) {
      // cl_khr_image2d_from_buffer (OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]): the row pitch is a multiple of
      // CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels, and a CL_MEM_USE_HOST_PTR buffer's host_ptr is aligned to
      // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels; otherwise CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
      if (!imageExtension("cl_khr_image2d_from_buffer"))
        return apiErrorRet(fn, errcode_ret, badDesc,
                           "a 2D image from a buffer needs cl_khr_image2d_from_buffer, which the device does not "
                           "report");
      if (row % (kImagePitchAlignment * es) != 0)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                           "the row pitch {} is not a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT ({} pixels of {} "
                           "bytes)",
                           row, kImagePitchAlignment, es);
      if (reinterpret_cast<uintptr_t>(from->buffer->data()) % (kImageBaseAddressAlignment * es) != 0)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                           "the buffer's memory {} is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT ({} "
                           "pixels of {} bytes)",
                           static_cast<const void*>(from->buffer->data()), kImageBaseAddressAlignment, es);
      d.image_row_pitch = row;
      // "the image_row_pitch × image_height must be ≤ size of the buffer object".
      if (row * d.image_height > from->size)
        return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_SIZE,
                           "row pitch * image_height ({} * {}) is more than the buffer's {} bytes", row, d.image_height,
                           from->size);
    } else if (d.image_width * es > from->size) {
      // A 1D image buffer: "image_width × size of element in bytes must be ≤ size of the buffer object".
      return apiErrorRet(fn, errcode_ret, CL_INVALID_IMAGE_SIZE,
                         "image_width * element size ({} * {} bytes) is more than the buffer's {} bytes", d.image_width,
                         es, from->size);
    }
  }
  images::ImageDesc hd = hostDesc(d, *format);
  // The given pitches lay out the application's memory (CL_MEM_USE_HOST_PTR) or the buffer's (a 2D image from a
  // buffer); an image of its own is packed.
  if ((flags & CL_MEM_USE_HOST_PTR) || buffer2D) {
    hd.rowPitch = row;
    hd.slicePitch = d.image_slice_pitch;
  }
  // The image's storage is at most CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes, as a buffer's: beyond it the allocation the
  // image needs fails (CL_MEM_OBJECT_ALLOCATION_FAILURE).
  uint64_t bytes = 0;
  try {
    bytes = images::storageBytes(images::makeDesc(hd));
  } catch (const std::invalid_argument& e) { return apiErrorRet(fn, errcode_ret, badDesc, "{}", e.what()); }
  if (bytes > kMaxMemAlloc && !from)
    return apiErrorRet(fn, errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                       "the image needs {} bytes, more than CL_DEVICE_MAX_MEM_ALLOC_SIZE ({})", bytes, kMaxMemAlloc);

  auto owned = std::make_unique<_cl_mem>();
  cl_mem m = owned.get();
  m->context = context;
  m->type = d.image_type;
  m->flags = flags;
  m->propertyArray = std::move(props);
  m->imageFormat = *image_format;
  try {
    if (fromBuffer) {
      m->image = host::Image::fromBuffer(from->buffer, hd);
      if (from->flags & CL_MEM_USE_HOST_PTR) m->hostPtr = from->hostPtr;
    } else if (fromImage) {
      m->image = host::Image::withFormat(from->image, *format);
      m->hostPtr = from->hostPtr;
    } else if (flags & CL_MEM_USE_HOST_PTR) {
      // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] CL_MEM_USE_HOST_PTR: the image's storage is the
      // application's memory itself, laid out with the given pitches.
      m->hostPtr = host_ptr;
      m->image = host::Image::over(host::Buffer::view(static_cast<std::byte*>(host_ptr), size_t(bytes)), hd);
    } else {
      images::ImageDesc packed = hd;
      packed.rowPitch = packed.slicePitch = 0;
      m->image = std::make_shared<host::Image>(packed);
      // CL_MEM_COPY_HOST_PTR: host_ptr laid out with the given pitches (OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]).
      if (flags & CL_MEM_COPY_HOST_PTR) {
        const auto& e = hd;
        const size_t h = e.type == images::ImageType::Image1DArray ? size_t(e.arraySize) : size_t(e.height);
        const size_t z = e.type == images::ImageType::Image2DArray ? size_t(e.arraySize) : size_t(e.depth);
        m->image->write({0, 0, 0}, {size_t(e.width), h, z}, host_ptr, d.image_row_pitch, d.image_slice_pitch);
      }
    }
  } catch (const std::bad_alloc&) {
    return apiErrorRet(fn, errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                       "the host could not allocate the image's {} bytes", bytes);
  } catch (const host::Error& e) {
    // A layout the checks above let through and the host API refuses.
    return apiErrorRet(fn, errcode_ret, badDesc, "{}", e.what());
  }
  m->size = m->image->size();
  m->imageDesc = answeredDesc(d, *m->image, from);
  m->memObject = from;
  registerObject(m);
  owned.release();
  if (from) retainInternal(from);
  retainInternal(context);
  return withError(errcode_ret, CL_SUCCESS, m);
}

}  // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                              const cl_image_desc* image_desc, void* host_ptr,
                                              cl_int* errcode_ret) try {
  ApiLock lock;
  return createImage(__func__, context, nullptr, flags, image_format, image_desc, host_ptr, CL_INVALID_IMAGE_DESCRIPTOR,
                     errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                                            cl_mem_flags flags, const cl_image_format* image_format,
                                                            const cl_image_desc* image_desc, void* host_ptr,
                                                            cl_int* errcode_ret) try {
  ApiLock lock;
  return createImage(__func__, context, properties, flags, image_format, image_desc, host_ptr,
                     CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

// OpenCL 3.0 API §5.3.1 [[_creating_image_objects]] clCreateImage2D / clCreateImage3D (deprecated by 1.2): the same
// image as clCreateImage with the equivalent descriptor; their size errors are CL_INVALID_IMAGE_SIZE, including row
// and slice pitches that do not follow the rules, and a 3D image's depth must be greater than 1.
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void* host_ptr,
                                                cl_int* errcode_ret) try {
  ApiLock lock;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = image_width;
  d.image_height = image_height;
  d.image_row_pitch = image_row_pitch;
  return createImage(__func__, context, nullptr, flags, image_format, &d, host_ptr, CL_INVALID_IMAGE_SIZE, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) try {
  ApiLock lock;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = image_width;
  d.image_height = image_height;
  d.image_depth = image_depth;
  d.image_row_pitch = image_row_pitch;
  d.image_slice_pitch = image_slice_pitch;
  // CL_INVALID_IMAGE_SIZE if image_depth <= 1 (a 3D image of one slice is a 2D image for this entry point); checked
  // after the context, flags and format, as clCreateImage checks them first.
  if (image_depth <= 1 && validContext(context) && validFlags(flags) && image_format && formatOf(*image_format))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_IMAGE_SIZE,
                       "image_depth is {}: a 3D image has more than one slice", image_depth);
  return createImage(__func__, context, nullptr, flags, image_format, &d, host_ptr, CL_INVALID_IMAGE_SIZE, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_mem>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format* image_formats,
                                                           cl_uint* num_image_formats) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.2 [[_querying_list_of_supported_image_formats]] clGetSupportedImageFormats: CL_INVALID_CONTEXT;
  // CL_INVALID_VALUE if flags or image_type are not valid, or num_entries is 0 and image_formats is not NULL.
  if (!validContext(context))
    return apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  if (const char* problem = queryFlagsProblem(flags ? flags : CL_MEM_READ_WRITE))
    return apiError(__func__, CL_INVALID_VALUE, "flags {}: {}", hex(flags), problem);
  if (!imageTypeOf(image_type))
    return apiError(__func__, CL_INVALID_VALUE, "image_type is {}, no image type", hex(image_type));
  if (num_entries == 0 && image_formats)
    return apiError(__func__, CL_INVALID_VALUE, "num_entries is 0 and image_formats is not NULL");
  // Every format the images module reads, writes and samples, for every access (cl_khr_srgb_image_writes: the sRGB
  // orders are written too), except CL_DEPTH beyond 2D images and 2D image arrays.
  const bool writes = (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) || flags == 0;
  const bool srgbWrites = imageExtension("cl_khr_srgb_image_writes");
  cl_uint n = 0;
  for (const images::ImageFormat& f : images::allFormats(paddedLayout())) {
    if (!formatSupported(f, image_type)) continue;
    if (writes && images::isSRGB(f.order) && !srgbWrites) continue;
    if (image_formats && n < num_entries)
      image_formats[n] = cl_image_format{cl_channel_order(f.order), cl_channel_type(f.type)};
    ++n;
  }
  if (num_image_formats) *num_image_formats = n;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.9 [[image-object-queries]] clGetImageInfo: CL_INVALID_MEM_OBJECT if image is not a valid image
  // object; CL_INVALID_VALUE for another param_name or a too small param_value_size.
  if (!validMem(image))
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "image {} is not a valid memory object", image);
  if (!image->image) return apiError(__func__, CL_INVALID_MEM_OBJECT, "image {} is a buffer, not an image", image);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  const cl_image_desc& d = image->imageDesc;
  const cl_mem_object_type t = d.image_type;
  const bool usesHeight = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  switch (param_name) {
    case CL_IMAGE_FORMAT: return out(image->imageFormat);
    case CL_IMAGE_ELEMENT_SIZE: return out(size_t(images::elementSize(image->image->desc().format)));
    case CL_IMAGE_ROW_PITCH: return out(d.image_row_pitch);
    case CL_IMAGE_SLICE_PITCH: return out(d.image_slice_pitch);
    case CL_IMAGE_WIDTH: return out(d.image_width);
    // 0 for the sizes the type does not use.
    case CL_IMAGE_HEIGHT: return out(usesHeight ? d.image_height : size_t(0));
    case CL_IMAGE_DEPTH: return out(t == CL_MEM_OBJECT_IMAGE3D ? d.image_depth : size_t(0));
    case CL_IMAGE_ARRAY_SIZE:
      return out(t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d.image_array_size : size_t(0));
    case CL_IMAGE_BUFFER: return out(image->memObject && image->memObject->type == CL_MEM_OBJECT_BUFFER
                                         ? image->memObject
                                         : cl_mem(nullptr));
    case CL_IMAGE_NUM_MIP_LEVELS: return out(d.num_mip_levels);
    case CL_IMAGE_NUM_SAMPLES: return out(d.num_samples);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no image query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
