// OpenCL 3.0 API §5.3.4 [[_reading_writing_and_copying_image_objects]]–§5.3.7 [[_mapping_image_objects]]: the image
// commands (read, write, copy, fill, copy to and from buffers, map), over host::Image. Mip levels come from the
// origin (§5.3.8 [[image-mipmap-access]], cl_khr_mipmap_image).
#include <algorithm>
#include <cstring>

#include "icd/device_info.hpp"
#include "icd/image_support.hpp"
#include "icd/memory_flags.hpp"

using namespace clref::cl;
namespace images = clref::images;
namespace host = clref::host;

namespace {

// A command's elements of one image: origin and region in the image's coordinates and the mip level.
struct Box {
  std::array<size_t, 3> origin{}, region{};
  uint32_t level = 0;
};

bool isImage(cl_mem m) { return validMem(m) && m->image; }

// The origin and region of an image command checked against the image (OpenCL 3.0 API §5.3.4
// [[_reading_writing_and_copying_image_objects]] origin and region): no region value is 0; the coordinates a type does
// not have are origin 0 and region 1 (a 1D image: y and z; a 1D image array and a 2D image: z), except the one that
// names the mip level of a mipmapped image (§5.3.8 [[image-mipmap-access]]: origin[1] of a 1D image, origin[2] of a 1D
// image array or 2D image, origin[3] of a 2D image array or 3D image); and the box lies inside the level.
// CL_INVALID_VALUE for a broken rule or a box outside the image, CL_INVALID_MIP_LEVEL for a level the image lacks.
// What coordinate i of an image of type t counts.
const char* dimensionName(images::ImageType t, int i) {
  if (i == 0) return "width";
  if (i == 1) return t == images::ImageType::Image1DArray ? "array size" : "height";
  return t == images::ImageType::Image2DArray ? "array size" : "depth";
}

// `fn`, `name` and `originName` (the image's and the origin's parameters) are for the channel "api".
cl_int imageBox(const char* fn, const char* name, const char* originName, cl_mem image, const size_t* origin,
                const size_t* region, Box& b) {
  const host::Image& img = *image->image;
  const images::ImageType t = img.desc().type;
  const bool mip = img.desc().numMipLevels > 1;
  for (int i = 0; i < 3; ++i) {
    if (region[i] == 0) return apiError(fn, CL_INVALID_VALUE, "region[{}] is 0", i);
    b.origin[i] = origin[i];
    b.region[i] = region[i];
  }
  unsigned dims = 3;  // coordinates the type has
  if (t == images::ImageType::Image1D || t == images::ImageType::Image1DBuffer) dims = 1;
  if (t == images::ImageType::Image1DArray || t == images::ImageType::Image2D) dims = 2;
  if (mip) {
    b.level = uint32_t(std::min<size_t>(origin[dims], UINT32_MAX));
    if (dims < 3) b.origin[dims] = 0;
    if (b.level >= img.desc().numMipLevels)
      return apiError(fn, CL_INVALID_MIP_LEVEL, "{}[{}] is mip level {}, and {} has {} levels", originName, dims,
                      origin[dims], name, img.desc().numMipLevels);
  }
  for (unsigned i = dims; i < 3; ++i)
    if (b.origin[i] != 0 || b.region[i] != 1)
      return apiError(fn, CL_INVALID_VALUE, "{} is a {}: {}[{}] must be 0 and region[{}] 1, they are {} and {}", name,
                      imageTypeName(t), originName, i, i, b.origin[i], b.region[i]);
  const auto extent = img.extent(b.level);
  for (int i = 0; i < 3; ++i)
    if (b.origin[i] > extent[i] || b.region[i] > extent[i] - b.origin[i])
      return apiError(fn, CL_INVALID_VALUE, "{}[{}] + region[{}] ({} + {}) is beyond the {} of {} ({} at mip level {})",
                      originName, i, i, b.origin[i], b.region[i], dimensionName(t, i), name, extent[i], b.level);
  return CL_SUCCESS;
}

// Bytes of the box's elements, packed (clEnqueueCopyImageToBuffer's dst_cb, clEnqueueCopyBufferToImage's src_cb).
size_t packedBytes(cl_mem image, const Box& b) {
  return b.region[0] * b.region[1] * b.region[2] * images::elementSize(image->image->desc().format);
}

// An image argument and its parameter's name (for the channel "api").
struct NamedImage {
  const char* name;
  cl_mem mem;
};

// The checks every image command makes first: the queue, each image a valid image of the queue's context.
cl_int checkImages(const char* fn, cl_command_queue q, std::initializer_list<NamedImage> imgs) {
  if (!validHostQueue(q)) return invalidHostQueue(fn, q);
  for (const auto& [name, m] : imgs) {
    // CL_INVALID_MEM_OBJECT if image is not a valid image object
    if (!validMem(m)) return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is not a valid memory object", name, m);
    if (!isImage(m)) return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is a buffer, not an image", name, m);
    // CL_INVALID_CONTEXT if the context associated with command_queue and image are not the same
    if (m->context != q->context)
      return apiError(fn, CL_INVALID_CONTEXT, "{} belongs to context {}, command_queue to context {}", name, m->context,
                      q->context);
  }
  return CL_SUCCESS;
}

cl_int checkBuffer(const char* fn, const char* name, cl_command_queue q, cl_mem buffer) {
  // CL_INVALID_MEM_OBJECT if {src,dst}_buffer is not a valid buffer object
  if (!validMem(buffer)) return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is not a valid memory object", name, buffer);
  if (buffer->type != CL_MEM_OBJECT_BUFFER)
    return apiError(fn, CL_INVALID_MEM_OBJECT, "{} {} is {}, not a buffer", name, buffer, memKindName(buffer));
  // CL_INVALID_CONTEXT if the context associated with command_queue and {src,dst}_buffer are not the same
  if (buffer->context != q->context)
    return apiError(fn, CL_INVALID_CONTEXT, "{} belongs to context {}, command_queue to context {}", name,
                    buffer->context, q->context);
  return CL_SUCCESS;
}

// Whether two boxes of one image share an element (the same level).
bool overlap(const Box& a, const Box& b) {
  if (a.level != b.level) return false;
  for (int i = 0; i < 3; ++i)
    if (a.origin[i] >= b.origin[i] + b.region[i] || b.origin[i] >= a.origin[i] + a.region[i]) return false;
  return true;
}

cl_int readWriteImage(const char* fn, bool read, cl_command_queue q, cl_mem image, cl_bool blocking,
                      const size_t* origin, const size_t* region, size_t row_pitch, size_t slice_pitch, void* ptr,
                      cl_uint n, const cl_event* list, cl_event* event) {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.4 [[_reading_writing_and_copying_image_objects]] clEnqueueReadImage / clEnqueueWriteImage.
  if (cl_int e = checkImages(fn, q, {{"image", image}})) return e;
  if (cl_int e = checkWaitList(fn, q->context, n, list)) return e;
  // CL_INVALID_VALUE if origin or region is NULL, the region is out of bounds or breaks the origin/region rules,
  // ptr is NULL.
  if (!origin) return apiError(fn, CL_INVALID_VALUE, "origin is NULL");
  if (!region) return apiError(fn, CL_INVALID_VALUE, "region is NULL");
  Box b;
  if (cl_int e = imageBox(fn, "image", "origin", image, origin, region, b)) return e;
  // The pitches' parameters: clEnqueueWriteImage's are input_row_pitch and input_slice_pitch.
  const char* rowName = read ? "row_pitch" : "input_row_pitch";
  const char* sliceName = read ? "slice_pitch" : "input_slice_pitch";
  // CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch or input_slice_pitch is not zero.
  const images::ImageType t = image->image->desc().type;
  const bool layered = t == images::ImageType::Image1DArray || t == images::ImageType::Image2DArray ||
                       t == images::ImageType::Image3D;
  if (!layered && slice_pitch != 0)
    return apiError(fn, CL_INVALID_VALUE, "image is a {} and {} is {}, not 0", imageTypeName(t), sliceName,
                    slice_pitch);
  if (!ptr) return apiError(fn, CL_INVALID_VALUE, "ptr is NULL");
  // row_pitch at least region[0] × element size, slice_pitch at least row pitch × height (the argument rules).
  const size_t es = images::elementSize(image->image->desc().format);
  if (row_pitch != 0 && row_pitch < b.region[0] * es)
    return apiError(fn, CL_INVALID_VALUE, "{} is {}, less than region[0] * element size ({} * {} bytes)", rowName,
                    row_pitch, b.region[0], es);
  const size_t row = row_pitch ? row_pitch : b.region[0] * es;
  const size_t rows = t == images::ImageType::Image1DArray ? 1 : b.region[1];
  if (slice_pitch != 0 && slice_pitch < row * rows)
    return apiError(fn, CL_INVALID_VALUE, "{} is {}, less than the row pitch * rows ({} * {})", sliceName, slice_pitch,
                    row, rows);
  // CL_INVALID_OPERATION if clEnqueueReadImage is called on an image created with CL_MEM_HOST_WRITE_ONLY or
  // CL_MEM_HOST_NO_ACCESS, clEnqueueWriteImage on one created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
  if (read ? hostCannotRead(image) : hostCannotWrite(image))
    return apiError(fn, CL_INVALID_OPERATION, "image was created with {}: the host may not {} it",
                    hostAccessName(image), read ? "read" : "write");
  auto img = image->image;
  return enqueue(
      fn, lock, q, read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, n, list, event,
      [=] {
        if (read)
          img->read(b.origin, b.region, ptr, row_pitch, slice_pitch, b.level);
        else
          img->write(b.origin, b.region, ptr, row_pitch, slice_pitch, b.level);
        return CL_SUCCESS;
      },
      blocking);
}

}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                                   const size_t* origin, const size_t* region, size_t row_pitch,
                                                   size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) try {
  return readWriteImage(__func__, true, command_queue, image, blocking_read, origin, region, row_pitch, slice_pitch,
                        ptr, num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                    cl_bool blocking_write, const size_t* origin, const size_t* region,
                                                    size_t input_row_pitch, size_t input_slice_pitch, const void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) try {
  return readWriteImage(__func__, false, command_queue, image, blocking_write, origin, region, input_row_pitch,
                        input_slice_pitch, const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                                   const size_t* src_origin, const size_t* dst_origin,
                                                   const size_t* region, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.4 [[_reading_writing_and_copying_image_objects]] clEnqueueCopyImage.
  if (cl_int e = checkImages(__func__, command_queue, {{"src_image", src_image}, {"dst_image", dst_image}})) return e;
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format.
  if (src_image->imageFormat.image_channel_order != dst_image->imageFormat.image_channel_order ||
      src_image->imageFormat.image_channel_data_type != dst_image->imageFormat.image_channel_data_type)
    return apiError(
        __func__, CL_IMAGE_FORMAT_MISMATCH,
        "src_image's format (channel order {}, data type {}) is not dst_image's (channel order {}, data "
        "type {})",
        hex(src_image->imageFormat.image_channel_order), hex(src_image->imageFormat.image_channel_data_type),
        hex(dst_image->imageFormat.image_channel_order), hex(dst_image->imageFormat.image_channel_data_type));
  // CL_INVALID_VALUE if an origin or the region is NULL, a box is outside its image or breaks the rules.
  if (!src_origin) return apiError(__func__, CL_INVALID_VALUE, "src_origin is NULL");
  if (!dst_origin) return apiError(__func__, CL_INVALID_VALUE, "dst_origin is NULL");
  if (!region) return apiError(__func__, CL_INVALID_VALUE, "region is NULL");
  Box s, d;
  if (cl_int e = imageBox(__func__, "src_image", "src_origin", src_image, src_origin, region, s)) return e;
  if (cl_int e = imageBox(__func__, "dst_image", "dst_origin", dst_image, dst_origin, region, d)) return e;
  // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the regions overlap (images viewing
  // one another's elements are different objects; their overlap is the application's to avoid, as for sub-buffers of
  // different parents).
  if (src_image == dst_image && overlap(s, d))
    return apiError(__func__, CL_MEM_COPY_OVERLAP,
                    "src_image and dst_image are the same image and the boxes at src_origin ({}, {}, {}) and "
                    "dst_origin ({}, {}, {}) overlap",
                    s.origin[0], s.origin[1], s.origin[2], d.origin[0], d.origin[1], d.origin[2]);
  auto si = src_image->image, di = dst_image->image;
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list, event, [=] {
        // Through packed host memory: the two boxes may be of different image types (a 2D image and a slice of a 3D
        // image, ...), each addressed by its own layout.
        std::vector<uint8_t> tmp(s.region[0] * s.region[1] * s.region[2] * images::elementSize(si->desc().format));
        si->read(s.origin, s.region, tmp.data(), 0, 0, s.level);
        di->write(d.origin, d.region, tmp.data(), 0, 0, d.level);
        return CL_SUCCESS;
      });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                                                   const size_t* origin, const size_t* region,
                                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                   cl_event* event) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.5 [[_filling_image_objects]] clEnqueueFillImage.
  if (cl_int e = checkImages(__func__, command_queue, {{"image", image}})) return e;
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // CL_INVALID_VALUE if fill_color, origin or region is NULL, or the region is out of bounds or breaks the rules.
  if (!fill_color) return apiError(__func__, CL_INVALID_VALUE, "fill_color is NULL");
  if (!origin) return apiError(__func__, CL_INVALID_VALUE, "origin is NULL");
  if (!region) return apiError(__func__, CL_INVALID_VALUE, "region is NULL");
  Box b;
  if (cl_int e = imageBox(__func__, "image", "origin", image, origin, region, b)) return e;
  // fill_color: a four-component float (normalized, half and float channel types), int or uint (signed and unsigned
  // integer types) colour, or one float for CL_DEPTH; converted as write_image{f,i,ui} converts (OpenCL C 3.0 §8.3
  // [[conversion-rules]]), sRGB orders included.
  const images::ImageFormat format = image->image->desc().format;
  images::ColorKind kind = images::ColorKind::Float;
  switch (images::channelClass(format.type)) {
    case images::ChannelClass::SignedInt: kind = images::ColorKind::Int; break;
    case images::ChannelClass::UnsignedInt: kind = images::ColorKind::Uint; break;
    default: break;
  }
  images::Color color;
  std::memcpy(color.lanes.data(), fill_color, format.order == images::ChannelOrder::Depth ? 4 : 16);
  std::vector<uint8_t> element(images::elementSize(format));
  images::ConversionOptions conv;
  conv.denormHalf = command_queue->device->device.config().denormHalf;
  conv.denormFloat = command_queue->device->device.config().denormFloat;
  images::encode(format, color, kind, element.data(), conv);
  auto img = image->image;
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list, event, [=] {
        std::vector<uint8_t> row(b.region[0] * element.size());
        for (size_t x = 0; x < b.region[0]; ++x)
          std::memcpy(row.data() + x * element.size(), element.data(), element.size());
        for (size_t z = 0; z < b.region[2]; ++z)
          for (size_t y = 0; y < b.region[1]; ++y)
            img->write({b.origin[0], b.origin[1] + y, b.origin[2] + z}, {b.region[0], 1, 1}, row.data(), 0, 0, b.level);
        return CL_SUCCESS;
      });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_buffer, const size_t* src_origin,
                                                           const size_t* region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.6 [[_copying_between_image_and_buffer_objects]] clEnqueueCopyImageToBuffer.
  if (cl_int e = checkImages(__func__, command_queue, {{"src_image", src_image}})) return e;
  if (cl_int e = checkBuffer(__func__, "dst_buffer", command_queue, dst_buffer)) return e;
  // CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created from dst_buffer.
  if (src_image->memObject == dst_buffer && src_image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "src_image is a 1D image buffer made from dst_buffer {}",
                    dst_buffer);
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // CL_INVALID_VALUE if src_origin or region is NULL, the box is outside src_image or breaks the rules, or
  // dst_offset + dst_cb is outside dst_buffer.
  if (!src_origin) return apiError(__func__, CL_INVALID_VALUE, "src_origin is NULL");
  if (!region) return apiError(__func__, CL_INVALID_VALUE, "region is NULL");
  Box b;
  if (cl_int e = imageBox(__func__, "src_image", "src_origin", src_image, src_origin, region, b)) return e;
  const size_t cb = packedBytes(src_image, b);
  if (dst_offset > dst_buffer->size || cb > dst_buffer->size - dst_offset)
    return apiError(__func__, CL_INVALID_VALUE,
                    "dst_offset {} + the region's {} bytes is beyond the {} bytes of dst_buffer", dst_offset, cb,
                    dst_buffer->size);
  auto img = src_image->image;
  auto buf = dst_buffer->buffer;
  return enqueue(__func__, lock, command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_events_in_wait_list,
                 event_wait_list, event, [=] {
                   img->read(b.origin, b.region, buf->data() + dst_offset, 0, 0, b.level);
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                           cl_mem dst_image, size_t src_offset,
                                                           const size_t* dst_origin, const size_t* region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.3.6 [[_copying_between_image_and_buffer_objects]] clEnqueueCopyBufferToImage.
  if (!validHostQueue(command_queue)) return invalidHostQueue(__func__, command_queue);
  if (cl_int e = checkBuffer(__func__, "src_buffer", command_queue, src_buffer)) return e;
  if (cl_int e = checkImages(__func__, command_queue, {{"dst_image", dst_image}})) return e;
  // CL_INVALID_MEM_OBJECT if dst_image is a 1D image buffer object created from src_buffer.
  if (dst_image->memObject == src_buffer && dst_image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return apiError(__func__, CL_INVALID_MEM_OBJECT, "dst_image is a 1D image buffer made from src_buffer {}",
                    src_buffer);
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  // CL_INVALID_VALUE if dst_origin or region is NULL, src_offset + src_cb is outside src_buffer, or the box is
  // outside dst_image or breaks the rules.
  if (!dst_origin) return apiError(__func__, CL_INVALID_VALUE, "dst_origin is NULL");
  if (!region) return apiError(__func__, CL_INVALID_VALUE, "region is NULL");
  Box b;
  if (cl_int e = imageBox(__func__, "dst_image", "dst_origin", dst_image, dst_origin, region, b)) return e;
  const size_t cb = packedBytes(dst_image, b);
  if (src_offset > src_buffer->size || cb > src_buffer->size - src_offset)
    return apiError(__func__, CL_INVALID_VALUE,
                    "src_offset {} + the region's {} bytes is beyond the {} bytes of src_buffer", src_offset, cb,
                    src_buffer->size);
  auto img = dst_image->image;
  auto buf = src_buffer->buffer;
  return enqueue(__func__, lock, command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_events_in_wait_list,
                 event_wait_list, event, [=] {
                   img->write(b.origin, b.region, buf->data() + src_offset, 0, 0, b.level);
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                                 size_t* image_row_pitch, size_t* image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                 cl_event* event, cl_int* errcode_ret) try {
  ApiLock lock;
  const auto fail = [&](cl_int e) { return withError(errcode_ret, e, static_cast<void*>(nullptr)); };
  // OpenCL 3.0 API §5.3.7 [[_mapping_image_objects]] clEnqueueMapImage.
  if (cl_int e = checkImages(__func__, command_queue, {{"image", image}})) return fail(e);
  if (cl_int e = checkWaitList(__func__, command_queue->context, num_events_in_wait_list, event_wait_list))
    return fail(e);
  // CL_INVALID_VALUE if origin or region is NULL, the region is out of bounds or breaks the rules, map_flags are not
  // valid, image_row_pitch is NULL, or image_slice_pitch is NULL for a 1D or 2D image array or a 3D image.
  if (!origin) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "origin is NULL");
  if (!region) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "region is NULL");
  Box b;
  if (cl_int e = imageBox(__func__, "image", "origin", image, origin, region, b)) return fail(e);
  if (const char* problem = mapFlagsProblem(map_flags))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "map_flags {}: {}", hex(map_flags), problem);
  if (!image_row_pitch) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "image_row_pitch is NULL");
  const images::ImageType t = image->image->desc().type;
  const bool layered = t == images::ImageType::Image1DArray || t == images::ImageType::Image2DArray ||
                       t == images::ImageType::Image3D;
  if (layered && !image_slice_pitch)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "image is a {} and image_slice_pitch is NULL",
                       imageTypeName(t));
  // CL_INVALID_OPERATION for CL_MAP_READ on a CL_MEM_HOST_WRITE_ONLY / CL_MEM_HOST_NO_ACCESS image, for CL_MAP_WRITE
  // (_INVALIDATE_REGION) on a CL_MEM_HOST_READ_ONLY / CL_MEM_HOST_NO_ACCESS image.
  if ((map_flags & CL_MAP_READ) && hostCannotRead(image))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                       "map_flags has CL_MAP_READ and image was created with {}", hostAccessName(image));
  const bool writing = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  if (writing && hostCannotWrite(image))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                       "map_flags has CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION and image was created with {}",
                       hostAccessName(image));
  // CL_INVALID_OPERATION if mapping would lead to overlapping regions being mapped for writing (OpenCL 3.0 API §5.5.4
  // [[accessing-mapped-regions]]).
  for (const Mapping& m : image->mappings)
    if ((writing || m.writing) && overlap(b, Box{m.origin, m.region, m.level}))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                         "the box overlaps the mapped box {} (origin ({}, {}, {}) at mip level {}) and one of the two "
                         "maps is for writing",
                         m.ptr, m.origin[0], m.origin[1], m.origin[2], m.level);
  // The image's storage is host memory (CL_MEM_USE_HOST_PTR: host_ptr itself, as §5.3.7 [[_mapping_image_objects]]
  // requires), so the mapped pointer is the storage at the box's first element, with the level's pitches.
  const auto layout = images::levelLayout(image->image->desc(), b.level);
  void* p = image->image->data() + image->image->elementOffset(b.origin, b.level);
  image->mappings.reserve(image->mappings.size() + 1);  // no failed allocation once the map is enqueued
  cl_int e = enqueue(__func__, lock, command_queue, CL_COMMAND_MAP_IMAGE, num_events_in_wait_list, event_wait_list,
                     event, nullptr, blocking_map);
  if (e != CL_SUCCESS) return fail(e);
  *image_row_pitch = size_t(layout.rowPitch);
  // image_slice_pitch: the size of each 2D slice of a 3D image or image of a 2D image array, of each 1D image of a
  // 1D image array; 0 for 1D and 2D images.
  if (image_slice_pitch) *image_slice_pitch = layered ? size_t(layout.slicePitch) : 0;
  ++image->mapCount;
  image->mappings.push_back({image, p, 0, 0, writing, b.origin, b.region, b.level});
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<void*>(__func__, errcode_ret); }
