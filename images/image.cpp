#include "images/image.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace clref::images {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("image descriptor: " + what); }

// a * b, refusing a product beyond 64 bits (no image that large can exist).
uint64_t mul(uint64_t a, uint64_t b, const char* what) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) refuse(std::string(what) + " overflows 64 bits");
  return r;
}
uint64_t add(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) refuse("storage size overflows 64 bits");
  return r;
}

bool usesHeight(ImageType t) {
  return t == ImageType::Image2D || t == ImageType::Image3D || t == ImageType::Image2DArray;
}

// The number of levels a full mip chain of these sizes has: floor(log2(largest size)) + 1.
uint32_t fullChain(uint64_t w, uint64_t h, uint64_t d) {
  uint64_t m = std::max(w, std::max(h, d));
  uint32_t n = 0;
  while (m) {
    ++n;
    m >>= 1;
  }
  return n;
}

}  // namespace

std::string_view nameOf(ImageType t) {
  switch (t) {
    case ImageType::Image2D: return "CL_MEM_OBJECT_IMAGE2D";
    case ImageType::Image3D: return "CL_MEM_OBJECT_IMAGE3D";
    case ImageType::Image2DArray: return "CL_MEM_OBJECT_IMAGE2D_ARRAY";
    case ImageType::Image1D: return "CL_MEM_OBJECT_IMAGE1D";
    case ImageType::Image1DArray: return "CL_MEM_OBJECT_IMAGE1D_ARRAY";
    case ImageType::Image1DBuffer: return "CL_MEM_OBJECT_IMAGE1D_BUFFER";
  }
  return {};
}

unsigned coordinateCount(ImageType t) {
  switch (t) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer: return 1;
    case ImageType::Image2D:
    case ImageType::Image1DArray: return 2;
    case ImageType::Image3D:
    case ImageType::Image2DArray: return 3;
  }
  return 1;
}

bool isArray(ImageType t) { return t == ImageType::Image1DArray || t == ImageType::Image2DArray; }

ImageDesc makeDesc(ImageDesc d) {
  if (nameOf(d.type).empty()) refuse("image_type " + std::to_string(uint32_t(d.type)) + " is no image type");
  if (!isValidFormat(d.format)) {
    const auto o = nameOf(d.format.order), t = nameOf(d.format.type);
    refuse("image format (" + (o.empty() ? std::to_string(uint32_t(d.format.order)) : std::string(o)) + ", " +
           (t.empty() ? std::to_string(uint32_t(d.format.type)) : std::string(t)) + ") is not a valid format");
  }
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: each size the type uses must be at least one; the others are unused
  // (set to 1 here so that level sizes and loops need no special case).
  if (d.width == 0) refuse("image_width is 0");
  if (usesHeight(d.type)) {
    if (d.height == 0) refuse("image_height is 0");
  } else {
    d.height = 1;
  }
  if (d.type == ImageType::Image3D) {
    if (d.depth == 0) refuse("image_depth is 0");
  } else {
    d.depth = 1;
  }
  if (isArray(d.type)) {
    if (d.arraySize == 0) refuse("image_array_size is 0");
  } else {
    d.arraySize = 1;
  }
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: num_mip_levels 0 is a single level; cl_khr_mipmap_image (OpenCL
  // Extension Specification 3.0.12 §29.2.1 "Additions to section 5.3 — Image Objects"): no mipmaps for 1D buffer
  // images or depth images, and each level halves the previous one, so at most floor(log2(largest size)) + 1 levels.
  if (d.numMipLevels == 0) d.numMipLevels = 1;
  if (d.numMipLevels > 1) {
    if (d.type == ImageType::Image1DBuffer) refuse("a CL_MEM_OBJECT_IMAGE1D_BUFFER image has no mip levels");
    if (d.format.order == ChannelOrder::Depth) refuse("a depth image has no mip levels");
    const uint32_t most = fullChain(d.width, d.type == ImageType::Image1DArray ? 1 : d.height, d.depth);
    if (d.numMipLevels > most)
      refuse("num_mip_levels " + std::to_string(d.numMipLevels) + " exceeds the " + std::to_string(most) +
             " levels of a full mip chain for these sizes");
  }

  const uint64_t elem = elementSize(d.format);
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: "If image_row_pitch is non-zero, then it must be greater than or
  // equal to the image_width times the size of an image element in bytes, and must be a multiple of the size of an
  // image element in bytes."
  const uint64_t packedRow = mul(d.width, elem, "image_width x element size");
  if (d.rowPitch == 0) {
    d.rowPitch = packedRow;
  } else {
    if (d.rowPitch < packedRow)
      refuse("image_row_pitch " + std::to_string(d.rowPitch) + " is smaller than image_width x element size (" +
             std::to_string(packedRow) + ")");
    if (d.rowPitch % elem)
      refuse("image_row_pitch " + std::to_string(d.rowPitch) + " is not a multiple of the element size (" +
             std::to_string(elem) + ")");
  }
  // "The image slice pitch must be >= the image row pitch x image_height for a 2D image array or a 3D image, must be
  // >= the image row pitch for a 1D image array, and must be a multiple of the image row pitch." Images without
  // slices get the size of their one slice.
  const uint64_t packedSlice =
      d.type == ImageType::Image1DArray ? d.rowPitch : mul(d.rowPitch, d.height, "image_row_pitch x image_height");
  const bool hasSlices = d.type == ImageType::Image3D || isArray(d.type);
  if (d.slicePitch == 0 || !hasSlices) {
    if (d.slicePitch != 0 && d.slicePitch < packedSlice)
      refuse("image_slice_pitch " + std::to_string(d.slicePitch) + " is smaller than the image's one slice (" +
             std::to_string(packedSlice) + ")");
    d.slicePitch = packedSlice;
  } else {
    if (d.slicePitch < packedSlice)
      refuse("image_slice_pitch " + std::to_string(d.slicePitch) + " is smaller than " + std::to_string(packedSlice) +
             (d.type == ImageType::Image1DArray ? " (the row pitch)" : " (row pitch x image_height)"));
    if (d.slicePitch % d.rowPitch)
      refuse("image_slice_pitch " + std::to_string(d.slicePitch) + " is not a multiple of image_row_pitch (" +
             std::to_string(d.rowPitch) + ")");
  }
  // Every level must be addressable: this throws for a total beyond 64 bits.
  (void)storageBytes(d);
  return d;
}

LevelSize levelSize(const ImageDesc& d, uint32_t level) {
  // OpenCL Extension Specification 3.0.12 §29.2.1 "Additions to section 5.3 — Image Objects": "Each successively
  // smaller mipmap level is half the size of the previous level. If this half value is a fractional value, it is
  // rounded down"; a size never drops below 1 and the array size stays.
  auto half = [level](uint64_t s) { return level >= 64 ? uint64_t(1) : std::max<uint64_t>(1, s >> level); };
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer: return {half(d.width), 1, 1};
    case ImageType::Image1DArray: return {half(d.width), d.arraySize, 1};
    case ImageType::Image2D: return {half(d.width), half(d.height), 1};
    case ImageType::Image2DArray: return {half(d.width), half(d.height), d.arraySize};
    case ImageType::Image3D: return {half(d.width), half(d.height), half(d.depth)};
  }
  return {1, 1, 1};
}

LevelLayout levelLayout(const ImageDesc& d, uint32_t level) {
  const uint64_t elem = elementSize(d.format);
  uint64_t offset = 0;
  for (uint32_t l = 0;; ++l) {
    const LevelSize s = levelSize(d, l);
    uint64_t row, slice, slices;
    if (l == 0) {
      row = d.rowPitch;
      slice = d.slicePitch;
    } else {
      row = mul(s.width, elem, "level row");
      slice = d.type == ImageType::Image1DArray ? row : mul(row, s.height, "level slice");
    }
    // A 1D array's layers are its slices (levelSize puts them in height); other types have depth slices.
    slices = d.type == ImageType::Image1DArray ? s.height : s.depth;
    const uint64_t bytes = mul(slice, slices, "level size");
    if (l == level) return {offset, row, slice, bytes};
    offset = add(offset, bytes);
  }
}

uint64_t storageBytes(const ImageDesc& d) {
  const uint32_t levels = std::max<uint32_t>(1, d.numMipLevels);
  const LevelLayout last = levelLayout(d, levels - 1);
  return add(last.offset, last.bytes);
}

uint8_t* ImageView::element(uint64_t x, uint64_t y, uint64_t z, uint32_t level) const {
  // Level 0, the common case, without walking the levels.
  uint64_t offset = 0, row = desc.rowPitch, slice = desc.slicePitch;
  if (level != 0) {
    const LevelLayout l = levelLayout(desc, level);
    offset = l.offset;
    row = l.rowPitch;
    slice = l.slicePitch;
  }
  const uint64_t elem = elementSize(desc.format);
  // A 1D array keeps its layer in y and has one row per slice.
  if (desc.type == ImageType::Image1DArray) return data + offset + y * slice + x * elem;
  return data + offset + z * slice + y * row + x * elem;
}

}  // namespace clref::images
