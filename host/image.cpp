// host::Image: image memory of every type, owned or over a buffer's bytes, and the region copies between an image
// and host memory that clEnqueueReadImage / clEnqueueWriteImage make (OpenCL 3.0 API §5.3 [[_image_objects]]).
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "host/host.hpp"

namespace clref::host {

namespace {

using images::ImageType;

std::string str(uint64_t v) { return std::to_string(v); }

// makeDesc with its std::invalid_argument as the host API's error (the message names the field).
images::ImageDesc completed(const images::ImageDesc& desc) {
  try {
    return images::makeDesc(desc);
  } catch (const std::invalid_argument& e) { throw Error(std::string("image: ") + e.what()); }
}

// Extent of mip level `level` in elements, as (x, y, z) with the layer in y for a 1D array and in z for a 2D array:
// the coordinates of clEnqueueReadImage's origin and region (OpenCL 3.0 API §5.3.4
// [[_reading_writing_and_copying_image_objects]]: "If image is a 1D image array object, origin[1] describes the image
// index in the 1D image array"; for a 2D image array origin[2]), which is how images::levelSize (the cl_khr_mipmap_image
// halving rule) lays out a level's sizes.
std::array<uint64_t, 3> levelExtent(const images::ImageDesc& d, uint32_t level) {
  const images::LevelSize s = images::levelSize(d, level);
  return {s.width, s.height, s.depth};
}

// Byte offset of element (x, y, z) in a layout with these pitches; for a 1D array y is the layer, which steps by the
// slice pitch (OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: image_slice_pitch is "the size in bytes of each image in a
// 1D or 2D image array").
uint64_t offsetOf(ImageType t, uint64_t es, uint64_t row, uint64_t slice, uint64_t x, uint64_t y, uint64_t z) {
  if (t == ImageType::Image1DArray) return x * es + y * slice;
  return x * es + y * row + z * slice;
}

struct HostLayout {
  uint64_t row, slice;
};

// The host memory's pitches (OpenCL 3.0 API §5.3.4 [[_reading_writing_and_copying_image_objects]] clEnqueueReadImage
// row_pitch / slice_pitch: 0 means region[0] × element size, and region[1] × row pitch for a 3D image or 2D image
// array, the row pitch for a 1D image array; a non-zero pitch must be at least that).
HostLayout hostLayout(ImageType t, uint64_t es, const std::array<size_t, 3>& region, size_t rowPitch,
                      size_t slicePitch) {
  const uint64_t packedRow = region[0] * es;
  if (rowPitch != 0 && rowPitch < packedRow)
    throw Error("image region: host row pitch " + str(rowPitch) + " is smaller than the region's row of " +
                str(packedRow) + " bytes");
  HostLayout h{rowPitch ? rowPitch : packedRow, 0};
  const bool layered = t == ImageType::Image1DArray || t == ImageType::Image2DArray || t == ImageType::Image3D;
  const uint64_t packedSlice = t == ImageType::Image1DArray ? h.row : region[1] * h.row;
  if (slicePitch != 0 && layered && slicePitch < packedSlice)
    throw Error("image region: host slice pitch " + str(slicePitch) + " is smaller than " + str(packedSlice) +
                " bytes");
  h.slice = slicePitch && layered ? slicePitch : packedSlice;
  return h;
}

}  // namespace

Image::Image(const images::ImageDesc& desc) {
  view_.desc = completed(desc);
  const uint64_t bytes = images::storageBytes(view_.desc);
  if (bytes > std::numeric_limits<size_t>::max() / 2 || bytes > storage_.max_size())
    throw Error("image: " + str(bytes) + " bytes are more than the host can allocate");
  storage_.assign(size_t(bytes), 0);
  view_.data = storage_.data();
  view_.bytes = bytes;
}

std::shared_ptr<Image> Image::fromBuffer(std::shared_ptr<Buffer> buffer, const images::ImageDesc& desc) {
  if (!buffer) throw Error("image from a buffer: no buffer given");
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]] mem_object: a buffer for a 1D image buffer, or (cl_khr_image2d_from_buffer)
  // a 2D image.
  if (desc.type != ImageType::Image1DBuffer && desc.type != ImageType::Image2D)
    throw Error("image from a buffer: the type must be CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D, not " +
                std::string(images::nameOf(desc.type)));
  // OpenCL 3.0 API §5.3.1 [[_creating_image_objects]] (cl_khr_mipmap_image): no mipmapped 1D image buffers; a 2D
  // image from a buffer has the buffer's single layout.
  if (desc.numMipLevels > 1) throw Error("image from a buffer: numMipLevels must be 1");
  std::shared_ptr<Image> image(new Image());
  image->view_.desc = completed(desc);
  const images::ImageDesc& d = image->view_.desc;
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: for a 1D image buffer image_width × element size, for a 2D image
  // image_row_pitch × image_height, must be at most the buffer's size.
  const uint64_t needed = d.type == ImageType::Image1DBuffer ? d.width * images::elementSize(d.format)
                                                             : d.rowPitch * d.height;
  if (needed > buffer->size())
    throw Error("image from a buffer: the image needs " + str(needed) + " bytes, the buffer has " +
                str(buffer->size()));
  image->view_.data = reinterpret_cast<uint8_t*>(buffer->data());
  image->view_.bytes = needed;
  image->buffer_ = std::move(buffer);
  return image;
}

std::shared_ptr<Image> Image::over(std::shared_ptr<Buffer> memory, const images::ImageDesc& desc) {
  if (!memory) throw Error("image over host memory: no memory given");
  if (desc.numMipLevels > 1) throw Error("image over host memory: numMipLevels must be 1");
  std::shared_ptr<Image> image(new Image());
  image->view_.desc = completed(desc);
  const uint64_t needed = images::storageBytes(image->view_.desc);
  if (needed > memory->size())
    throw Error("image over host memory: the image needs " + str(needed) + " bytes, the memory has " +
                str(memory->size()));
  image->view_.data = reinterpret_cast<uint8_t*>(memory->data());
  image->view_.bytes = needed;
  image->buffer_ = std::move(memory);
  return image;
}

std::shared_ptr<Image> Image::withFormat(std::shared_ptr<Image> image, images::ImageFormat format) {
  if (!image) throw Error("image from an image: no image given");
  images::ImageDesc d = image->desc();
  if (d.type != ImageType::Image2D) throw Error("image from an image: only a 2D image can be viewed in another format");
  if (images::elementSize(format) != images::elementSize(d.format) || !images::isValidFormat(format))
    throw Error("image from an image: " + std::string(images::nameOf(format.order)) + "/" +
                std::string(images::nameOf(format.type)) + " does not have the element size of the image's format");
  d.format = format;
  std::shared_ptr<Image> view(new Image());
  view->view_ = image->view_;
  view->view_.desc = d;
  view->buffer_ = image->buffer_;
  view->parent_ = std::move(image);
  return view;
}

Image::Region Image::checkedRegion(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region,
                                   uint32_t level) const {
  const images::ImageDesc& d = view_.desc;
  if (level >= d.numMipLevels)
    throw Error("image region: mip level " + str(level) + " does not exist (the image has " + str(d.numMipLevels) +
                ")");
  const auto extent = levelExtent(d, level);
  static const char* axis[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    if (origin[i] > extent[i] || region[i] > extent[i] - origin[i])
      throw Error("image region: origin " + str(origin[i]) + " + region " + str(region[i]) + " in " + axis[i] +
                  " is outside mip level " + str(level) + " (" + str(extent[i]) + " elements)");
  const auto layout = images::levelLayout(d, level);
  return {layout.offset, layout.rowPitch, layout.slicePitch};
}

void Image::write(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region, const void* src,
                  size_t rowPitch, size_t slicePitch, uint32_t level) {
  const Region r = checkedRegion(origin, region, level);
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return;
  if (!src) throw Error("image write: no host memory given");
  const auto t = view_.desc.type;
  const uint64_t es = images::elementSize(view_.desc.format);
  const HostLayout h = hostLayout(t, es, region, rowPitch, slicePitch);
  const auto* in = static_cast<const uint8_t*>(src);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memmove(view_.data + r.offset +
                       offsetOf(t, es, r.rowPitch, r.slicePitch, origin[0], origin[1] + y, origin[2] + z),
                   in + offsetOf(t, es, h.row, h.slice, 0, y, z), region[0] * es);
}

void Image::read(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region, void* dst, size_t rowPitch,
                 size_t slicePitch, uint32_t level) const {
  const Region r = checkedRegion(origin, region, level);
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return;
  if (!dst) throw Error("image read: no host memory given");
  const auto t = view_.desc.type;
  const uint64_t es = images::elementSize(view_.desc.format);
  const HostLayout h = hostLayout(t, es, region, rowPitch, slicePitch);
  auto* out = static_cast<uint8_t*>(dst);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memmove(out + offsetOf(t, es, h.row, h.slice, 0, y, z),
                   view_.data + r.offset +
                       offsetOf(t, es, r.rowPitch, r.slicePitch, origin[0], origin[1] + y, origin[2] + z),
                   region[0] * es);
}

std::array<uint64_t, 3> Image::extent(uint32_t level) const { return levelExtent(view_.desc, level); }

uint64_t Image::packedSize() const {
  uint64_t bytes = 0;
  for (uint32_t level = 0; level < std::max<uint32_t>(1, view_.desc.numMipLevels); ++level) {
    const auto e = extent(level);
    bytes += e[0] * e[1] * e[2] * images::elementSize(view_.desc.format);
  }
  return bytes;
}

void Image::forEachElement(
    const std::function<void(uint64_t, const std::array<uint64_t, 3>&, uint32_t, uint8_t*)>& fn) const {
  uint64_t index = 0;
  for (uint32_t level = 0; level < std::max<uint32_t>(1, view_.desc.numMipLevels); ++level) {
    const auto e = extent(level);
    for (uint64_t z = 0; z < e[2]; ++z)
      for (uint64_t y = 0; y < e[1]; ++y)
        for (uint64_t x = 0; x < e[0]; ++x) fn(index++, {x, y, z}, level, view_.element(x, y, z, level));
  }
}

uint64_t Image::elementOffset(const std::array<size_t, 3>& pos, uint32_t level) const {
  const Region r = checkedRegion(pos, {1, 1, 1}, level);
  return r.offset + offsetOf(view_.desc.type, images::elementSize(view_.desc.format), r.rowPitch, r.slicePitch,
                             pos[0], pos[1], pos[2]);
}

}  // namespace clref::host
