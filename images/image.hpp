// Image objects as the images module sees them: the image type, its size, pitches and mip levels, and a view of
// the bytes that hold its elements (OpenCL 3.0 API §5.3 [[_image_objects]], cl_khr_mipmap_image). No OpenCL API
// objects and no SPIR-V here: the host API owns the storage, the interpreter passes views to the read and write
// functions (images/sampler.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "images/image_format.hpp"

namespace clref::images {

// cl_mem_object_type values of the image types.
enum class ImageType : uint32_t {
  Image2D = 0x10F1,
  Image3D = 0x10F2,
  Image2DArray = 0x10F3,
  Image1D = 0x10F4,
  Image1DArray = 0x10F5,
  Image1DBuffer = 0x10F6
};

std::string_view nameOf(ImageType t);  // "CL_MEM_OBJECT_IMAGE2D"
// Coordinates a read or write of this type takes: 1 (1D, 1D buffer), 2 (2D, 1D array), 3 (3D, 2D array); the last
// is the layer for arrays.
unsigned coordinateCount(ImageType t);
bool isArray(ImageType t);

// cl_image_desc, with the defaults filled in: for a 1D image height = depth = arraySize = 1; rowPitch and
// slicePitch are the pitches of level 0 in bytes (never 0 once made by makeDesc).
struct ImageDesc {
  ImageType type = ImageType::Image2D;
  ImageFormat format;
  uint64_t width = 1, height = 1, depth = 1, arraySize = 1;
  uint64_t rowPitch = 0, slicePitch = 0;
  uint32_t numMipLevels = 1;  // cl_khr_mipmap_image: levels 0 .. numMipLevels-1
};

// A desc with the pitches computed for tightly packed storage where rowPitch/slicePitch are 0 (OpenCL 3.0 API
// §5.3.1.2 [[image-descriptor]]: "If image_row_pitch is 0 ... calculated as image_width × size of element"), and the
// unused sizes set to 1. Throws std::invalid_argument naming the field when a size is 0 where the type uses it, a
// pitch is smaller than the packed one or not a multiple of the element size, or the format is invalid.
ImageDesc makeDesc(ImageDesc desc);

// Sizes of mip level `level` (cl_khr_mipmap_image: each level halves width, height and depth, at least 1; the array
// size stays).
struct LevelSize {
  uint64_t width, height, depth;  // depth: the 3D depth, or the array size for arrays (layers)
};
LevelSize levelSize(const ImageDesc& d, uint32_t level);
// Byte offset of level `level` in the image's storage and the level's pitches. Level 0 uses the desc's pitches;
// levels above 0 are tightly packed one after the other (the layout clref chooses for mipmapped images, which the
// spec leaves to the implementation: a mipmapped image has no host_ptr).
struct LevelLayout {
  uint64_t offset, rowPitch, slicePitch, bytes;
};
LevelLayout levelLayout(const ImageDesc& d, uint32_t level);
// Bytes of storage the whole image (every level) needs.
uint64_t storageBytes(const ImageDesc& d);

// The bytes of an image. `data` holds storageBytes(desc) bytes (for a 1D buffer image or a 2D image from a buffer:
// the buffer's memory, shared).
struct ImageView {
  ImageDesc desc;
  uint8_t* data = nullptr;
  uint64_t bytes = 0;
  // The element at (x, y, z) of `level` (z is the layer for arrays, y the layer for 1D arrays); no bounds check.
  uint8_t* element(uint64_t x, uint64_t y, uint64_t z, uint32_t level = 0) const;
};

}  // namespace clref::images
