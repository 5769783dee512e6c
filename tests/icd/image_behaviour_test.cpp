// Images and samplers through the OpenCL C API (OpenCL 3.0 API §5.3 [[_image_objects]], §5.7 [[_sampler_objects]]):
// read, write, copy, fill and map round trips for every image type with pitches and regions, copies between images and
// buffers, images from buffers and from images, queries, supported formats, samplers. Expected contents come from a
// plain model of the image in the test (a packed array of elements) and the conversion rules written out here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>
#include <vector>

#include "error_table.hpp"

namespace clref_test {
namespace {

const cl_image_format kRGBA8{CL_RGBA, CL_UNORM_INT8};

std::set<std::string> words(const char* text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

bool reported(const char* extension) {
  char text[8192] = {};
  clGetDeviceInfo(fx().device, CL_DEVICE_EXTENSIONS, sizeof text, text, nullptr);
  return words(text).count(extension) > 0;
}

template <class T> T imageInfo(cl_mem m, cl_image_info what) {
  T v{};
  REQUIRE(clGetImageInfo(m, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

// One test image: its type, extents in the commands' coordinates (x, y or layers, z or layers), element size.
struct Shape {
  cl_mem_object_type type;
  size_t w, h, d;  // for a 1D array h is the layer count, for a 2D array d
  const char* name;
};
const Shape kShapes[] = {{CL_MEM_OBJECT_IMAGE1D, 7, 1, 1, "1D"},
                         {CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 3, 1, "1D array"},
                         {CL_MEM_OBJECT_IMAGE2D, 7, 5, 1, "2D"},
                         {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 3, "2D array"},
                         {CL_MEM_OBJECT_IMAGE3D, 7, 5, 4, "3D"}};

cl_image_desc descOf(const Shape& s) {
  cl_image_desc d{};
  d.image_type = s.type;
  d.image_width = s.w;
  d.image_height = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : s.h;
  d.image_depth = s.type == CL_MEM_OBJECT_IMAGE3D ? s.d : 1;
  d.image_array_size = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? s.h : s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? s.d : 1;
  return d;
}

// The image's elements as a packed array, es bytes each, x fastest.
struct Model {
  size_t w, h, d, es;
  std::vector<uint8_t> bytes;
  Model(size_t w_, size_t h_, size_t d_, size_t es_) : w(w_), h(h_), d(d_), es(es_), bytes(w * h * d * es) {}
  uint8_t* at(size_t x, size_t y, size_t z) { return &bytes[((z * h + y) * w + x) * es]; }
};

// Host memory holding `region` of elements laid out with row and slice pitches (the region's y steps by the slice
// pitch for a 1D array, whose y is the layer).
struct HostBox {
  std::vector<uint8_t> bytes;
  size_t row, slice;
  bool layerIsY;
  HostBox(const std::array<size_t, 3>& region, size_t rowPitch, size_t slicePitch, bool oneDArray)
      : row(rowPitch), slice(slicePitch), layerIsY(oneDArray) {
    bytes.assign((oneDArray ? region[1] * slice : region[2] * slice) + 64, 0xEE);
  }
  uint8_t* at(size_t x, size_t y, size_t z, size_t es) {
    return &bytes[layerIsY ? y * slice + x * es : z * slice + y * row + x * es];
  }
};

uint8_t pattern(size_t i) { return uint8_t((i * 37 + 11) % 251); }

TEST_CASE("the device reports images with the spec's minimum limits", "[opencl][images]") {
  cl_bool support = CL_FALSE;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, nullptr) == CL_SUCCESS);
  CHECK(support == CL_TRUE);
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: the full profile's minimums when images are supported.
  const std::pair<cl_device_info, size_t> sizes[] = {
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384}, {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384}, {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048},
      {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048}, {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048},   {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536},
      {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048}};
  for (auto [what, min] : sizes) {
    size_t v = 0;
    REQUIRE(clGetDeviceInfo(fx().device, what, sizeof v, &v, nullptr) == CL_SUCCESS);
    CHECK(v >= min);
  }
  const std::pair<cl_device_info, cl_uint> counts[] = {
      {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128}, {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64}, {CL_DEVICE_MAX_SAMPLERS, 16}};
  for (auto [what, min] : counts) {
    cl_uint v = 0;
    REQUIRE(clGetDeviceInfo(fx().device, what, sizeof v, &v, nullptr) == CL_SUCCESS);
    CHECK(v >= min);
  }
  for (cl_device_info what : {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT}) {
    cl_uint v = 0;
    REQUIRE(clGetDeviceInfo(fx().device, what, sizeof v, &v, nullptr) == CL_SUCCESS);
    CHECK(v >= 1);
    CHECK((v & (v - 1)) == 0);  // a power of two
  }
  // Read-write image arguments: at least 64 with __opencl_c_read_write_images, else 0.
  std::vector<cl_name_version> features(64);
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_OPENCL_C_FEATURES, features.size() * sizeof(cl_name_version),
                          features.data(), &bytes) == CL_SUCCESS);
  features.resize(bytes / sizeof(cl_name_version));
  const auto hasFeature = [&](const char* n) {
    return std::any_of(features.begin(), features.end(), [&](const cl_name_version& f) { return !std::strcmp(f.name, n); });
  };
  cl_uint rw = 0;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof rw, &rw, nullptr) == CL_SUCCESS);
  CHECK((hasFeature("__opencl_c_read_write_images") ? rw >= 64 : rw == 0));
  // The image features and extensions come together (one list feeds both).
  CHECK(hasFeature("__opencl_c_images") == reported("cl_khr_3d_image_writes"));
  CHECK(hasFeature("__opencl_c_3d_image_writes") == reported("cl_khr_3d_image_writes"));
  CHECK(reported("cl_khr_depth_images") == reported("cl_khr_3d_image_writes"));
  CHECK(reported("cl_khr_image2d_from_buffer") == reported("cl_khr_3d_image_writes"));
  CHECK(reported("cl_khr_mipmap_image_writes") == reported("cl_khr_mipmap_image"));
}

// ---- supported formats -------------------------------------------------------------------------------------------

// Bits of one channel of a type that stores channels separately; 0 for the packed types.
unsigned channelBits(cl_channel_type t) {
  switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 8;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT: return 16;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 32;
    default: return 0;
  }
}

// OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: the rules a listed format must follow. The packed types name
// their orders; otherwise "the number of bits per element determined by the image_channel_data_type and
// image_channel_order must be a power of two", with the channels of the order as its table describes them (CL_Rx two,
// CL_RGx three, CL_RGBx four), INTENSITY and LUMINANCE normalized, half or float, DEPTH UNORM_INT16 or FLOAT, the sRGB
// orders UNORM_INT8 (the formats the sRGB extensions and the minimum list name).
bool followsTheRules(const cl_image_format& f) {
  const cl_channel_order o = f.image_channel_order;
  const cl_channel_type t = f.image_channel_data_type;
  if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010)
    return o == CL_RGB || o == CL_RGBx;
  if (t == CL_UNORM_INT_101010_2) return o == CL_RGBA;
  const unsigned bits = channelBits(t);
  if (!bits) return t == CL_UNORM_INT24 && o == CL_DEPTH;  // (cl_khr_gl_depth_images only)
  const bool normalized = t == CL_SNORM_INT8 || t == CL_UNORM_INT8 || t == CL_SNORM_INT16 || t == CL_UNORM_INT16;
  unsigned channels = 0;
  switch (o) {
    case CL_INTENSITY:
    case CL_LUMINANCE: return normalized || t == CL_HALF_FLOAT || t == CL_FLOAT;
    case CL_DEPTH: return t == CL_UNORM_INT16 || t == CL_FLOAT;
    case CL_sRGB:
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA: return t == CL_UNORM_INT8;
    case CL_R:
    case CL_A: channels = 1; break;
    case CL_RG:
    case CL_RA:
    case CL_Rx: channels = 2; break;
    case CL_RGB:
    case CL_RGx: channels = 3; break;
    case CL_RGBA:
    case CL_ARGB:
    case CL_BGRA:
    case CL_ABGR:
    case CL_RGBx: channels = 4; break;
    default: return false;
  }
  const unsigned element = channels * bits;
  return (element & (element - 1)) == 0;
}

std::vector<cl_image_format> supported(cl_mem_flags flags, cl_mem_object_type type) {
  cl_uint n = 0;
  REQUIRE(clGetSupportedImageFormats(fx().ctx, flags, type, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_image_format> v(n);
  cl_uint again = 0;
  REQUIRE(clGetSupportedImageFormats(fx().ctx, flags, type, n, v.data(), &again) == CL_SUCCESS);
  CHECK(again == n);
  return v;
}

TEST_CASE("supported formats", "[opencl][images]") {
  // OpenCL 3.0 API §5.3.2.1 [[minimum-list-of-supported-image-formats]] (the 2.0 list, the larger one): R, RG and RGBA
  // with the twelve plain types, BGRA and sRGBA with UNORM_INT8, DEPTH (cl_khr_depth_images) for 2D images.
  const cl_channel_type plain[] = {CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,     CL_SNORM_INT16,
                                   CL_SIGNED_INT8,  CL_SIGNED_INT16,  CL_SIGNED_INT32,   CL_UNSIGNED_INT8,
                                   CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
  std::vector<cl_image_format> minimum;
  for (cl_channel_order o : {CL_R, CL_RG, CL_RGBA})
    for (cl_channel_type t : plain) minimum.push_back({o, t});
  minimum.push_back({CL_BGRA, CL_UNORM_INT8});
  // sRGBA is written only with cl_khr_srgb_image_writes (OpenCL 3.0 API §5.3.2.1
  // [[minimum-list-of-supported-image-formats]], its footnote); it is read in any case.
  const bool srgbWrites = reported("cl_khr_srgb_image_writes");
  const auto same = [](const cl_image_format& a, const cl_image_format& b) {
    return a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type;
  };
  const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                      CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                      CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  const cl_mem_flags flagSets[] = {0, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                   CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS};
  const auto reference = supported(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D);
  for (cl_mem_object_type type : types)
    for (cl_mem_flags flags : flagSets) {
      INFO("type " << std::hex << type << " flags " << flags);
      const auto list = supported(flags, type);
      const bool twoD = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      for (const auto& f : minimum)
        CHECK(std::any_of(list.begin(), list.end(), [&](const cl_image_format& g) { return same(f, g); }));
      const bool writes = flags != CL_MEM_READ_ONLY && flags != (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
      const bool srgb = std::any_of(list.begin(), list.end(),
                                    [&](const cl_image_format& g) { return same({CL_sRGBA, CL_UNORM_INT8}, g); });
      CHECK(srgb == (!writes || srgbWrites));
      for (cl_channel_type t : {CL_UNORM_INT16, CL_FLOAT}) {
        const bool has = std::any_of(list.begin(), list.end(),
                                     [&](const cl_image_format& g) { return same({CL_DEPTH, t}, g); });
        CHECK(has == twoD);  // CL_DEPTH: 2D images and 2D image arrays only
      }
      for (const auto& f : list) {
        INFO("order " << f.image_channel_order << " type " << f.image_channel_data_type);
        CHECK(followsTheRules(f));
        // CL_Rx is withheld: OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor" and OpenCL 3.0 API §5.3.1.1
        // [[image-format-descriptor]] give it different layouts (icd/image.cpp).
        CHECK(f.image_channel_order != CL_Rx);
        if (f.image_channel_order == CL_RGBx)
          CHECK((f.image_channel_data_type == CL_UNORM_SHORT_565 || f.image_channel_data_type == CL_UNORM_SHORT_555 ||
                 f.image_channel_data_type == CL_UNORM_INT_101010));
        CHECK(std::count_if(list.begin(), list.end(), [&](const cl_image_format& g) { return same(f, g); }) == 1);
      }
      // Every access lists the same formats (cl_khr_srgb_image_writes: sRGB is written too); the types differ only in
      // CL_DEPTH.
      const auto isSRGB = [](const cl_image_format& f) {
        const cl_channel_order o = f.image_channel_order;
        return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
      };
      size_t nonDepth = 0;
      for (const auto& f : list) nonDepth += f.image_channel_order != CL_DEPTH && !isSRGB(f);
      size_t referenceNonDepth = 0;
      for (const auto& f : reference) referenceNonDepth += f.image_channel_order != CL_DEPTH && !isSRGB(f);
      CHECK(nonDepth == referenceNonDepth);
    }
  // Fewer entries than formats: the first ones, and the full count.
  cl_image_format two[2];
  cl_uint n = 0;
  REQUIRE(clGetSupportedImageFormats(fx().ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 2, two, &n) == CL_SUCCESS);
  CHECK(n == reference.size());
  CHECK(same(two[0], reference[0]));
  CHECK(same(two[1], reference[1]));
}

TEST_CASE("every supported format makes an image whose bytes round-trip", "[opencl][images]") {
  for (const cl_image_format& f : supported(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D)) {
    INFO("order " << std::hex << f.image_channel_order << " type " << f.image_channel_data_type);
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 3;
    d.image_height = 2;
    cl_int e = 0;
    cl_mem m = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &f, &d, nullptr, &e);
    REQUIRE(e == CL_SUCCESS);
    const size_t es = imageInfo<size_t>(m, CL_IMAGE_ELEMENT_SIZE);
    // The plain types: channels × bytes per channel (the x orders keep their ignored channel's bits, the packed types
    // are one 16- or 32-bit element).
    if (unsigned bits = channelBits(f.image_channel_data_type)) {
      const cl_channel_order o = f.image_channel_order;
      const size_t channels = o == CL_RG || o == CL_RA ? 2 : o == CL_RGBA || o == CL_BGRA || o == CL_ARGB || o == CL_ABGR || o == CL_sRGBA || o == CL_sBGRA ? 4 : o == CL_R || o == CL_A || o == CL_INTENSITY || o == CL_LUMINANCE || o == CL_DEPTH ? 1 : 0;
      if (channels) CHECK(es == channels * bits / 8);
    } else if (f.image_channel_data_type == CL_UNORM_SHORT_565 || f.image_channel_data_type == CL_UNORM_SHORT_555) {
      CHECK(es == 2);
    } else if (f.image_channel_data_type == CL_UNORM_INT_101010 || f.image_channel_data_type == CL_UNORM_INT_101010_2) {
      CHECK(es == 4);
    }
    std::vector<uint8_t> in(6 * es), out(6 * es, 0);
    for (size_t i = 0; i < in.size(); ++i) in[i] = pattern(i);
    const size_t origin[3] = {0, 0, 0}, region[3] = {3, 2, 1};
    CHECK(clEnqueueWriteImage(fx().q, m, CL_TRUE, origin, region, 0, 0, in.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueReadImage(fx().q, m, CL_TRUE, origin, region, 0, 0, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(in == out);
    clReleaseMemObject(m);
  }
}

// ---- read, write, copy, map, fill --------------------------------------------------------------------------------

// Writes the whole image from the model through host memory with padded pitches, then a sub-region with other
// pitches, and reads back both the whole image (packed) and a sub-region (padded): each against the model.
void roundTrip(const Shape& s, const cl_image_format& f, size_t es) {
  INFO(s.name);
  const bool oneDArray = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  const bool layered = oneDArray || s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || s.type == CL_MEM_OBJECT_IMAGE3D;
  Model model(s.w, s.h, s.d, es);
  for (size_t i = 0; i < model.bytes.size(); ++i) model.bytes[i] = pattern(i);
  // Created with CL_MEM_COPY_HOST_PTR from host memory with padded pitches.
  const size_t row = s.w * es + 3 * es;
  const size_t slice = layered ? (oneDArray ? 2 * row : row * s.h + 2 * row) : 0;  // multiples of the row pitch
  HostBox initial({s.w, s.h, s.d}, row, slice ? slice : row * s.h, oneDArray);
  for (size_t z = 0; z < s.d; ++z)
    for (size_t y = 0; y < s.h; ++y)
      for (size_t x = 0; x < s.w; ++x) std::memcpy(initial.at(x, y, z, es), model.at(x, y, z), es);
  cl_image_desc d = descOf(s);
  d.image_row_pitch = row;
  d.image_slice_pitch = slice;
  cl_int e = 0;
  cl_mem m = clCreateImage(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, initial.bytes.data(), &e);
  REQUIRE(e == CL_SUCCESS);
  const size_t origin0[3] = {0, 0, 0}, whole[3] = {s.w, s.h, s.d};
  std::vector<uint8_t> packed(model.bytes.size(), 0);
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, origin0, whole, 0, 0, packed.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(packed == model.bytes);

  // A sub-region written from padded host memory.
  const std::array<size_t, 3> o{2, size_t(s.h > 1), size_t(s.d > 1)};
  const std::array<size_t, 3> r{4, s.h > 1 ? s.h - o[1] - 1 : 1, s.d > 1 ? s.d - o[2] : 1};
  const size_t hostRow = r[0] * es + 5, hostSlice = layered ? (oneDArray ? hostRow + 7 : hostRow * r[1] + 9) : 0;
  HostBox sub(r, hostRow, hostSlice ? hostSlice : hostRow * r[1], oneDArray);
  for (size_t z = 0; z < r[2]; ++z)
    for (size_t y = 0; y < r[1]; ++y)
      for (size_t x = 0; x < r[0]; ++x)
        for (size_t b = 0; b < es; ++b) {
          const uint8_t v = uint8_t(200 + x + 3 * y + 5 * z + b);
          sub.at(x, y, z, es)[b] = v;
          model.at(o[0] + x, o[1] + y, o[2] + z)[b] = v;
        }
  REQUIRE(clEnqueueWriteImage(fx().q, m, CL_TRUE, o.data(), r.data(), hostRow, hostSlice, sub.bytes.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, origin0, whole, 0, 0, packed.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(packed == model.bytes);
  // The same sub-region read into padded host memory: the padding stays as it was.
  HostBox back(r, hostRow, hostSlice ? hostSlice : hostRow * r[1], oneDArray);
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, o.data(), r.data(), hostRow, hostSlice, back.bytes.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  CHECK(back.bytes == sub.bytes);

  // Copied to a buffer (packed, at an offset) and back into a fresh image.
  const size_t offset = 64;
  cl_mem buf = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, model.bytes.size() + offset, nullptr, &e);
  REQUIRE(clEnqueueCopyImageToBuffer(fx().q, m, buf, origin0, whole, offset, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<uint8_t> viaBuffer(model.bytes.size());
  REQUIRE(clEnqueueReadBuffer(fx().q, buf, CL_TRUE, offset, viaBuffer.size(), viaBuffer.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(viaBuffer == model.bytes);
  cl_image_desc plain = descOf(s);
  cl_mem copy = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &f, &plain, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clEnqueueCopyBufferToImage(fx().q, buf, copy, offset, origin0, whole, 0, nullptr, nullptr) == CL_SUCCESS);
  std::fill(packed.begin(), packed.end(), 0);
  REQUIRE(clEnqueueReadImage(fx().q, copy, CL_TRUE, origin0, whole, 0, 0, packed.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(packed == model.bytes);

  // Image to image: a box moved to another place of a zeroed image of the same shape.
  cl_mem zero = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &f, &plain, nullptr, &e);
  Model moved(s.w, s.h, s.d, es);
  const std::array<size_t, 3> from{1, 0, 0}, to{3, size_t(s.h > 1), size_t(s.d > 1)},
      box{3, s.h > 1 ? s.h - 1 : 1, s.d > 1 ? s.d - 1 : 1};
  for (size_t z = 0; z < box[2]; ++z)
    for (size_t y = 0; y < box[1]; ++y)
      for (size_t x = 0; x < box[0]; ++x)
        std::memcpy(moved.at(to[0] + x, to[1] + y, to[2] + z), model.at(from[0] + x, from[1] + y, from[2] + z), es);
  REQUIRE(clEnqueueCopyImage(fx().q, m, zero, from.data(), to.data(), box.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(fx().q, zero, CL_TRUE, origin0, whole, 0, 0, packed.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(packed == moved.bytes);

  // Mapped for writing: the pointer with the returned pitches addresses the box.
  size_t mapRow = 0, mapSlice = 0;
  const std::array<size_t, 3> mo{1, 0, 0}, mr{2, s.h, s.d};
  auto* p = static_cast<uint8_t*>(clEnqueueMapImage(fx().q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, mo.data(),
                                                    mr.data(), &mapRow, &mapSlice, 0, nullptr, nullptr, &e));
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(p);
  CHECK(mapRow >= mr[0] * es);
  if (layered) CHECK(mapSlice >= (oneDArray ? mapRow : mapRow * s.h));
  if (!layered) CHECK(mapSlice == 0);
  for (size_t z = 0; z < mr[2]; ++z)
    for (size_t y = 0; y < mr[1]; ++y)
      for (size_t x = 0; x < mr[0]; ++x) {
        uint8_t* el = oneDArray ? p + y * mapSlice + x * es : p + z * mapSlice + y * mapRow + x * es;
        CHECK(std::memcmp(el, model.at(mo[0] + x, mo[1] + y, mo[2] + z), es) == 0);  // reads what was written
        for (size_t b = 0; b < es; ++b) model.at(mo[0] + x, mo[1] + y, mo[2] + z)[b] = el[b] = uint8_t(~el[b]);
      }
  cl_uint mapCount = 0;
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mapCount, &mapCount, nullptr);
  CHECK(mapCount == 1);
  REQUIRE(clEnqueueUnmapMemObject(fx().q, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, origin0, whole, 0, 0, packed.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(packed == model.bytes);

  // Queries.
  CHECK(imageInfo<size_t>(m, CL_IMAGE_ELEMENT_SIZE) == es);
  CHECK(imageInfo<size_t>(m, CL_IMAGE_WIDTH) == s.w);
  CHECK(imageInfo<size_t>(m, CL_IMAGE_HEIGHT) ==
        (s.type == CL_MEM_OBJECT_IMAGE2D || s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || s.type == CL_MEM_OBJECT_IMAGE3D
             ? s.h
             : 0));
  CHECK(imageInfo<size_t>(m, CL_IMAGE_DEPTH) == (s.type == CL_MEM_OBJECT_IMAGE3D ? s.d : 0));
  CHECK(imageInfo<size_t>(m, CL_IMAGE_ARRAY_SIZE) ==
        (oneDArray ? s.h : s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? s.d : 0));
  CHECK(imageInfo<size_t>(m, CL_IMAGE_ROW_PITCH) >= s.w * es);
  CHECK(imageInfo<size_t>(m, CL_IMAGE_SLICE_PITCH) == (layered ? mapSlice : 0));
  CHECK(imageInfo<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS) == 0);
  CHECK(imageInfo<cl_uint>(m, CL_IMAGE_NUM_SAMPLES) == 0);
  CHECK(imageInfo<cl_mem>(m, CL_IMAGE_BUFFER) == nullptr);
  const cl_image_format got = imageInfo<cl_image_format>(m, CL_IMAGE_FORMAT);
  CHECK(got.image_channel_order == f.image_channel_order);
  CHECK(got.image_channel_data_type == f.image_channel_data_type);
  cl_mem_object_type type = 0;
  clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, nullptr);
  CHECK(type == s.type);
  size_t size = 0;
  clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr);
  CHECK(size >= model.bytes.size());
  for (cl_mem o2 : {m, copy, zero, buf}) clReleaseMemObject(o2);
}

TEST_CASE("read, write, copy and map round trips for every image type", "[opencl][images]") {
  for (const Shape& s : kShapes) {
    roundTrip(s, kRGBA8, 4);
    roundTrip(s, {CL_R, CL_FLOAT}, 4);
    roundTrip(s, {CL_RG, CL_UNSIGNED_INT16}, 4);
    roundTrip(s, {CL_RGBA, CL_FLOAT}, 16);
    roundTrip(s, {CL_R, CL_UNORM_INT8}, 1);
  }
}

TEST_CASE("copies between images of different types", "[opencl][images]") {
  cl_int e = 0;
  const Shape s3{CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, "3D"}, s2{CL_MEM_OBJECT_IMAGE2D, 4, 3, 1, "2D"},
      sa{CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 3, 2, "2D array"};
  cl_image_desc d3 = descOf(s3), d2 = descOf(s2), da = descOf(sa);
  cl_mem m3 = clCreateImage(fx().ctx, 0, &kRGBA8, &d3, nullptr, &e), m2 = clCreateImage(fx().ctx, 0, &kRGBA8, &d2, nullptr, &e),
         ma = clCreateImage(fx().ctx, 0, &kRGBA8, &da, nullptr, &e);
  std::vector<uint8_t> slice(4 * 3 * 4);
  for (size_t i = 0; i < slice.size(); ++i) slice[i] = pattern(i);
  const size_t o0[3] = {0, 0, 0}, r2[3] = {4, 3, 1}, z1[3] = {0, 0, 1};
  REQUIRE(clEnqueueWriteImage(fx().q, m2, CL_TRUE, o0, r2, 0, 0, slice.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  // The 2D image into slice 1 of the 3D image and layer 1 of the 2D array, and layer 1 back into a 2D image.
  REQUIRE(clEnqueueCopyImage(fx().q, m2, m3, o0, z1, r2, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueCopyImage(fx().q, m3, ma, z1, z1, r2, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<uint8_t> all(2 * slice.size(), 0xAA);
  const size_t whole[3] = {4, 3, 2};
  REQUIRE(clEnqueueReadImage(fx().q, ma, CL_TRUE, o0, whole, 0, 0, all.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(std::all_of(all.begin(), all.begin() + std::ptrdiff_t(slice.size()), [](uint8_t b) { return b == 0; }));
  CHECK(std::equal(slice.begin(), slice.end(), all.begin() + std::ptrdiff_t(slice.size())));
  for (cl_mem m : {m3, m2, ma}) clReleaseMemObject(m);
}

// ---- fill: the colour converted as write_image{f,i,ui} converts it ----------------------------------------------

// OpenCL C 3.0 §8.3.1.3 [[converting-floating-point-values-to-normalized-integer-channel-data-types]]: round to nearest
// even of f × 255, saturated; written out with nearbyint (the default rounding mode is to nearest even).
uint8_t unorm8(double f) { return uint8_t(std::nearbyint(std::clamp(f, 0.0, 1.0) * 255.0)); }
// OpenCL C 3.0 §8.3.5 [[conversion-rules-for-srgba-and-sbgra-images]]: linear → sRGB, then as UNORM_INT8.
double toSRGB(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }

template <class Element>
std::vector<Element> filled(const cl_image_format& f, const void* color, const Shape& s, const std::array<size_t, 3>& o,
                            const std::array<size_t, 3>& r) {
  cl_int e = 0;
  cl_image_desc d = descOf(s);
  cl_mem m = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &f, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clEnqueueFillImage(fx().q, m, color, o.data(), r.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<Element> out(s.w * s.h * s.d);
  const size_t o0[3] = {0, 0, 0}, whole[3] = {s.w, s.h, s.d};
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, o0, whole, 0, 0, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  clReleaseMemObject(m);
  return out;
}

TEST_CASE("fill converts the colour as a write does", "[opencl][images]") {
  using U8x4 = std::array<uint8_t, 4>;
  const Shape s3{CL_MEM_OBJECT_IMAGE3D, 4, 3, 3, "3D"};
  const std::array<size_t, 3> o{1, 1, 1}, r{2, 2, 2};
  const auto inBox = [&](size_t i) {
    const size_t x = i % 4, y = i / 4 % 3, z = i / 12;
    return x >= 1 && x < 3 && y >= 1 && y < 3 && z >= 1 && z < 3;
  };
  {
    const float c[4] = {0.5f, 0.25f, 1.0f, -3.0f};  // 127.5 rounds to even 128; -3 saturates to 0
    const U8x4 want{unorm8(0.5), unorm8(0.25), unorm8(1.0), unorm8(-3.0)};
    CHECK(want == U8x4{128, 64, 255, 0});
    const auto got = filled<U8x4>(kRGBA8, c, s3, o, r);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == (inBox(i) ? want : U8x4{0, 0, 0, 0}));
  }
  {
    // CL_BGRA stores blue, green, red, alpha.
    const float c[4] = {1.0f, 0.0f, 0.5f, 0.25f};
    const auto got = filled<U8x4>({CL_BGRA, CL_UNORM_INT8}, c, s3, o, r);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == (inBox(i) ? U8x4{128, 0, 255, 64} : U8x4{0, 0, 0, 0}));
  }
  {
    // sRGBA: the colour channels through linear → sRGB, alpha as it is.
    const float c[4] = {0.5f, 0.0f, 0.2f, 0.5f};
    const U8x4 want{unorm8(toSRGB(0.5)), 0, unorm8(toSRGB(0.2)), unorm8(0.5)};
    CHECK(want[0] == 188);  // 1.055 × 0.5^(1/2.4) − 0.055 = 0.7354, × 255 = 187.5
    const auto got = filled<U8x4>({CL_sRGBA, CL_UNORM_INT8}, c, {CL_MEM_OBJECT_IMAGE2D, 3, 2, 1, "2D"}, {0, 0, 0},
                                  {3, 2, 1});
    for (const auto& g : got) CHECK(g == want);
  }
  {
    // Unsigned integers saturate (convert_ushort_sat).
    const cl_uint c[4] = {70000, 5, 65535, 0};
    using U16x4 = std::array<uint16_t, 4>;
    const auto got = filled<U16x4>({CL_RGBA, CL_UNSIGNED_INT16}, c, {CL_MEM_OBJECT_IMAGE1D, 5, 1, 1, "1D"}, {1, 0, 0},
                                   {3, 1, 1});
    for (size_t i = 0; i < got.size(); ++i)
      CHECK(got[i] == (i >= 1 && i < 4 ? U16x4{65535, 5, 65535, 0} : U16x4{0, 0, 0, 0}));
  }
  {
    // Signed integers saturate (convert_char_sat); CL_R stores only red.
    const cl_int c[4] = {-1000, 7, 7, 7};
    const auto got = filled<int8_t>({CL_R, CL_SIGNED_INT8}, c, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, 2, "2D array"},
                                    {0, 0, 1}, {2, 2, 1});
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == (i >= 4 ? -128 : 0));
  }
  {
    // CL_DEPTH takes one float.
    const float c = 0.75f;
    const auto got = filled<float>({CL_DEPTH, CL_FLOAT}, &c, {CL_MEM_OBJECT_IMAGE2D, 2, 2, 1, "2D"}, {0, 0, 0},
                                   {2, 2, 1});
    for (float g : got) CHECK(g == 0.75f);
  }
  {
    // CL_FLOAT keeps the value; CL_RG stores red and green.
    const float c[4] = {-2.5f, 1e-40f, 9, 9};
    using F2 = std::array<float, 2>;
    const auto got = filled<F2>({CL_RG, CL_FLOAT}, c, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 2, 2, 1, "1D array"}, {0, 1, 0},
                                {2, 1, 1});
    CHECK(got[0] == F2{0, 0});
    CHECK(got[2] == F2{-2.5f, 1e-40f});
    CHECK(got[3] == F2{-2.5f, 1e-40f});
  }
}

// ---- images over other memory ------------------------------------------------------------------------------------

TEST_CASE("a 1D image buffer takes a row pitch, which must still be a whole row of elements", "[opencl][images]") {
  // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]] image_row_pitch, in its cl_ext_image_requirements_info form: "For an
  // image created from a buffer, the image_row_pitch must also be ..."; the conformance suite's
  // test_kernel_image_methods 1Dbuffer gives the row pitch (width × element size, or more). Other images without a
  // host_ptr still take only 0.
  cl_int e = 0;
  cl_mem buf = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, 1024, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  d.image_width = 200;  // 800 bytes of RGBA8
  d.mem_object = buf;
  for (size_t pitch : {size_t(800), size_t(804), size_t(1024)}) {
    d.image_row_pitch = pitch;
    cl_mem img = clCreateImage(fx().ctx, 0, &kRGBA8, &d, nullptr, &e);
    INFO("row pitch " << pitch);
    CHECK(e == CL_SUCCESS);
    if (img) clReleaseMemObject(img);
  }
  for (size_t pitch : {size_t(796), size_t(802)}) {  // less than a row; not a whole number of elements
    d.image_row_pitch = pitch;
    cl_mem img = clCreateImage(fx().ctx, 0, &kRGBA8, &d, nullptr, &e);
    INFO("row pitch " << pitch);
    CHECK(img == nullptr);
    CHECK(e == CL_INVALID_IMAGE_DESCRIPTOR);
  }
  cl_image_desc plain{};
  plain.image_type = CL_MEM_OBJECT_IMAGE1D;
  plain.image_width = 200;
  plain.image_row_pitch = 800;
  CHECK(clCreateImage(fx().ctx, 0, &kRGBA8, &plain, nullptr, &e) == nullptr);
  CHECK(e == CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(buf);
}

TEST_CASE("images from buffers share the buffer's memory", "[opencl][images]") {
  cl_int e = 0;
  std::vector<uint8_t> bytes(1024);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = pattern(i);
  cl_mem buf = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data(), &e);
  REQUIRE(e == CL_SUCCESS);
  SECTION("a 1D image buffer") {
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = 200;  // 800 of the 1024 bytes
    d.mem_object = buf;
    cl_mem img = clCreateImage(fx().ctx, 0, &kRGBA8, &d, nullptr, &e);
    REQUIRE(e == CL_SUCCESS);
    CHECK(imageInfo<cl_mem>(img, CL_IMAGE_BUFFER) == buf);
    cl_mem assoc = nullptr;
    clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr);
    CHECK(assoc == buf);
    cl_mem_flags flags = 0;
    clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof flags, &flags, nullptr);
    CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));  // inherited from the buffer
    std::vector<uint8_t> got(800);
    const size_t o[3] = {0, 0, 0}, r[3] = {200, 1, 1};
    REQUIRE(clEnqueueReadImage(fx().q, img, CL_TRUE, o, r, 0, 0, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::equal(got.begin(), got.end(), bytes.begin()));
    // A write to the image is a write to the buffer.
    const uint8_t px[4] = {1, 2, 3, 4};
    const size_t at[3] = {10, 0, 0}, one[3] = {1, 1, 1};
    REQUIRE(clEnqueueWriteImage(fx().q, img, CL_TRUE, at, one, 0, 0, px, 0, nullptr, nullptr) == CL_SUCCESS);
    uint8_t back[4];
    REQUIRE(clEnqueueReadBuffer(fx().q, buf, CL_TRUE, 40, 4, back, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(back, px, 4) == 0);
    // Releasing the buffer first keeps the image's memory alive.
    clReleaseMemObject(buf);
    REQUIRE(clEnqueueReadImage(fx().q, img, CL_TRUE, at, one, 0, 0, back, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(back, px, 4) == 0);
    clReleaseMemObject(img);
    buf = nullptr;
  }
  SECTION("a 2D image from a buffer with a padded row pitch (cl_khr_image2d_from_buffer)") {
    if (!reported("cl_khr_image2d_from_buffer")) return;
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 5;
    d.image_height = 6;
    d.image_row_pitch = 32;  // 20 bytes of elements, 12 of padding
    d.mem_object = buf;
    cl_mem img = clCreateImage(fx().ctx, CL_MEM_READ_ONLY, &kRGBA8, &d, nullptr, &e);
    REQUIRE(e == CL_SUCCESS);
    CHECK(imageInfo<size_t>(img, CL_IMAGE_ROW_PITCH) == 32);
    std::vector<uint8_t> got(5 * 6 * 4);
    const size_t o[3] = {0, 0, 0}, r[3] = {5, 6, 1};
    REQUIRE(clEnqueueReadImage(fx().q, img, CL_TRUE, o, r, 0, 0, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < 6; ++y)
      CHECK(std::equal(got.begin() + std::ptrdiff_t(y * 20), got.begin() + std::ptrdiff_t(y * 20 + 20),
                       bytes.begin() + std::ptrdiff_t(y * 32)));
    // A mapped pointer points into the buffer's memory, with the image's row pitch.
    size_t row = 0;
    auto* p = static_cast<uint8_t*>(
        clEnqueueMapImage(fx().q, img, CL_TRUE, CL_MAP_READ, o, r, &row, nullptr, 0, nullptr, nullptr, &e));
    REQUIRE(p);
    CHECK(row == 32);
    CHECK(std::memcmp(p + 3 * row + 8, &bytes[3 * 32 + 8], 4) == 0);
    clEnqueueUnmapMemObject(fx().q, img, p, 0, nullptr, nullptr);
    clFinish(fx().q);
    clReleaseMemObject(img);
  }
  if (buf) clReleaseMemObject(buf);
}

TEST_CASE("a CL_MEM_USE_HOST_PTR image is the application's memory", "[opencl][images]") {
  alignas(64) static uint8_t memory[3 * 40];  // 3 rows of 8 RGBA8 elements (32 bytes) padded to 40
  std::memset(memory, 0, sizeof memory);
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 8;
  d.image_height = 3;
  d.image_row_pitch = 40;
  cl_int e = 0;
  cl_mem img = clCreateImage(fx().ctx, CL_MEM_USE_HOST_PTR, &kRGBA8, &d, memory, &e);
  REQUIRE(e == CL_SUCCESS);
  void* hostPtr = nullptr;
  clGetMemObjectInfo(img, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr);
  CHECK(hostPtr == memory);
  const uint8_t px[4] = {9, 8, 7, 6};
  const size_t at[3] = {2, 1, 0}, one[3] = {1, 1, 1};
  REQUIRE(clEnqueueWriteImage(fx().q, img, CL_TRUE, at, one, 0, 0, px, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(memory + 40 + 8, px, 4) == 0);
  size_t row = 0;
  void* p = clEnqueueMapImage(fx().q, img, CL_TRUE, CL_MAP_WRITE, at, one, &row, nullptr, 0, nullptr, nullptr, &e);
  CHECK(p == memory + 40 + 8);  // OpenCL 3.0 API §5.3.7 [[_mapping_image_objects]]: inside host_ptr
  CHECK(row == 40);
  clEnqueueUnmapMemObject(fx().q, img, p, 0, nullptr, nullptr);
  clFinish(fx().q);
  clReleaseMemObject(img);
}

TEST_CASE("a 2D image viewed in a compatible order shares its elements", "[opencl][images]") {
  cl_int e = 0;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 2;
  d.image_height = 2;
  cl_mem base = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &kRGBA8, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  d.mem_object = base;
  const cl_image_format srgb{CL_sRGBA, CL_UNORM_INT8};
  cl_mem view = clCreateImage(fx().ctx, 0, &srgb, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(imageInfo<cl_image_format>(view, CL_IMAGE_FORMAT).image_channel_order == CL_sRGBA);
  const uint8_t px[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const size_t o[3] = {0, 0, 0}, r[3] = {2, 2, 1};
  REQUIRE(clEnqueueWriteImage(fx().q, base, CL_TRUE, o, r, 0, 0, px, 0, nullptr, nullptr) == CL_SUCCESS);
  uint8_t got[16] = {};
  REQUIRE(clEnqueueReadImage(fx().q, view, CL_TRUE, o, r, 0, 0, got, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(got, px, 16) == 0);
  cl_mem assoc = nullptr;
  clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr);
  CHECK(assoc == base);
  clReleaseMemObject(base);
  clReleaseMemObject(view);
}

TEST_CASE("mip levels are addressed by the origin (cl_khr_mipmap_image)", "[opencl][images]") {
  if (!reported("cl_khr_mipmap_image")) return;
  cl_int e = 0;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 8;
  d.image_height = 6;
  d.num_mip_levels = 4;  // 8×6, 4×3, 2×1, 1×1
  cl_mem m = clCreateImage(fx().ctx, CL_MEM_READ_WRITE, &kRGBA8, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(imageInfo<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS) == 4);
  std::vector<uint8_t> level1(4 * 3 * 4);
  for (size_t i = 0; i < level1.size(); ++i) level1[i] = pattern(i);
  const size_t o1[3] = {0, 0, 1}, r1[3] = {4, 3, 1};
  REQUIRE(clEnqueueWriteImage(fx().q, m, CL_TRUE, o1, r1, 0, 0, level1.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  // Level 1 reads back; levels 0 and 2 stay zero.
  std::vector<uint8_t> got(level1.size());
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, o1, r1, 0, 0, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(got == level1);
  std::vector<uint8_t> zero0(8 * 6 * 4, 0xAA), zero2(2 * 4, 0xAA);
  const size_t o0[3] = {0, 0, 0}, r0[3] = {8, 6, 1}, o2[3] = {0, 0, 2}, r2[3] = {2, 1, 1};
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, o0, r0, 0, 0, zero0.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(fx().q, m, CL_TRUE, o2, r2, 0, 0, zero2.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(std::all_of(zero0.begin(), zero0.end(), [](uint8_t b) { return b == 0; }));
  CHECK(std::all_of(zero2.begin(), zero2.end(), [](uint8_t b) { return b == 0; }));
  // Level 2 is 2×1: a region of 2×2 is outside it.
  const size_t tooTall[3] = {2, 2, 1};
  CHECK(clEnqueueReadImage(fx().q, m, CL_TRUE, o2, tooTall, 0, 0, zero2.data(), 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  clReleaseMemObject(m);
}

// ---- samplers ----------------------------------------------------------------------------------------------------

template <class T> T samplerInfo(cl_sampler s, cl_sampler_info what) {
  T v{};
  REQUIRE(clGetSamplerInfo(s, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

TEST_CASE("sampler queries", "[opencl][images]") {
  cl_int e = 0;
  const cl_sampler_properties props[] = {CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_LINEAR, 0};
  cl_sampler s = clCreateSamplerWithProperties(fx().ctx, props, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(samplerInfo<cl_bool>(s, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);  // the default
  CHECK(samplerInfo<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_MIRRORED_REPEAT);
  CHECK(samplerInfo<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  CHECK(samplerInfo<cl_context>(s, CL_SAMPLER_CONTEXT) == fx().ctx);
  CHECK(samplerInfo<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT) == 1);
  size_t bytes = 0;
  cl_sampler_properties back[8] = {};
  REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &bytes) == CL_SUCCESS);
  CHECK(bytes == sizeof props);
  CHECK(std::equal(std::begin(props), std::end(props), back));
  clRetainSampler(s);
  CHECK(samplerInfo<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT) == 2);
  clReleaseSampler(s);
  clReleaseSampler(s);
  cl_uint rc = 0;
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, nullptr) == CL_INVALID_SAMPLER);

  cl_sampler old = clCreateSampler(fx().ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e);
  REQUIRE(e == CL_SUCCESS);
  CHECK(samplerInfo<cl_bool>(old, CL_SAMPLER_NORMALIZED_COORDS) == CL_FALSE);
  CHECK(samplerInfo<cl_addressing_mode>(old, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_NONE);
  REQUIRE(clGetSamplerInfo(old, CL_SAMPLER_PROPERTIES, 0, nullptr, &bytes) == CL_SUCCESS);
  CHECK(bytes == 0);  // clCreateSampler: no property list
  clReleaseSampler(old);

  if (reported("cl_khr_mipmap_image")) {
    cl_sampler_properties lodMin = 0, lodMax = 0;
    const float mn = 0.5f, mx = 2.25f;
    std::memcpy(&lodMin, &mn, sizeof mn);
    std::memcpy(&lodMax, &mx, sizeof mx);
    const cl_sampler_properties mip[] = {CL_SAMPLER_MIP_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_LOD_MIN, lodMin,
                                         CL_SAMPLER_LOD_MAX, lodMax, 0};
    cl_sampler m = clCreateSamplerWithProperties(fx().ctx, mip, &e);
    REQUIRE(e == CL_SUCCESS);
    CHECK(samplerInfo<cl_filter_mode>(m, CL_SAMPLER_MIP_FILTER_MODE) == CL_FILTER_LINEAR);
    CHECK(samplerInfo<cl_float>(m, CL_SAMPLER_LOD_MIN) == 0.5f);
    CHECK(samplerInfo<cl_float>(m, CL_SAMPLER_LOD_MAX) == 2.25f);
    clReleaseSampler(m);
  }
}

TEST_CASE("released images are no longer images", "[opencl][images]") {
  cl_int e = 0;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE1D;
  d.image_width = 4;
  cl_mem m = clCreateImage(fx().ctx, 0, &kRGBA8, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  clReleaseMemObject(m);
  size_t w = 0;
  CHECK(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clRetainMemObject(m) == CL_INVALID_MEM_OBJECT);
}

}  // namespace
}  // namespace clref_test

namespace clref_test {
namespace {

// ---- a kernel reading through a sampler and writing an image, compiled from OpenCL C through the C API -----------

const char* kBilinearSource = R"CLC(
kernel void bilinear(read_only image2d_t src, sampler_t s, write_only image2d_t dst, global float4* out) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 v = read_imagef(src, s, (float2)(x + 0.25f, y + 0.75f));
  write_imagef(dst, (int2)(x, y), v);
  out[y * get_global_size(0) + x] = v;
}
)CLC";

// OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]], CLK_FILTER_LINEAR with unnormalized coordinates and
// CLK_ADDRESS_CLAMP_TO_EDGE: i0 = clamp(floor(u − 0.5)), i1 = clamp(i0 + 1), a = frac(u − 0.5) (likewise j, b), and
// the weighted sum (1−a)(1−b)T(i0,j0) + a(1−b)T(i1,j0) + (1−a)b T(i0,j1) + ab T(i1,j1). The texel values here are
// small integers and the weights quarters, so the sum is exact in double and in float.
std::array<float, 4> bilinear(const std::vector<std::array<float, 4>>& t, int w, int h, double u, double v) {
  const auto clampI = [](int i, int n) { return std::min(std::max(i, 0), n - 1); };
  const int i = int(std::floor(u - 0.5)), j = int(std::floor(v - 0.5));
  const double a = (u - 0.5) - std::floor(u - 0.5), b = (v - 0.5) - std::floor(v - 0.5);
  const auto T = [&](int x, int y) { return t[size_t(clampI(y, h) * w + clampI(x, w))]; };
  std::array<float, 4> out{};
  for (int c = 0; c < 4; ++c)
    out[size_t(c)] = float((1 - a) * (1 - b) * T(i, j)[size_t(c)] + a * (1 - b) * T(i + 1, j)[size_t(c)] +
                           (1 - a) * b * T(i, j + 1)[size_t(c)] + a * b * T(i + 1, j + 1)[size_t(c)]);
  return out;
}

TEST_CASE("a kernel samples an image with bilinear filtering and writes another (through the C API)",
          "[opencl][images][e2e]") {
  cl_bool compiler = CL_FALSE;
  clGetDeviceInfo(fx().device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr);
  if (!compiler) return;  // no clang-15 / llvm-spirv-15
  const int w = 5, h = 4;
  std::vector<std::array<float, 4>> texels(size_t(w * h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) texels[size_t(y * w + x)] = {float(x), float(y * 3), float((x * y) % 7), 16.0f};
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  cl_int e = 0;
  cl_mem src = clCreateImage(fx().ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, texels.data(), &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem dst = clCreateImage(fx().ctx, CL_MEM_WRITE_ONLY, &f, &d, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem out = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, sizeof(float) * 4 * w * h, nullptr, &e);
  cl_sampler s = clCreateSampler(fx().ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &kBilinearSource, nullptr, &e);
  REQUIRE(clBuildProgram(p, 0, nullptr, "-cl-kernel-arg-info", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "bilinear", &e);
  REQUIRE(e == CL_SUCCESS);
  // clGetKernelArgInfo: the images' access qualifiers and address space, none for the others.
  const std::pair<cl_uint, cl_kernel_arg_access_qualifier> access[] = {{0, CL_KERNEL_ARG_ACCESS_READ_ONLY},
                                                                        {1, CL_KERNEL_ARG_ACCESS_NONE},
                                                                        {2, CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
                                                                        {3, CL_KERNEL_ARG_ACCESS_NONE}};
  for (auto [i, want] : access) {
    cl_kernel_arg_access_qualifier q = 0;
    REQUIRE(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof q, &q, nullptr) == CL_SUCCESS);
    CHECK(q == want);
  }
  char type[64] = {};
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr) == CL_SUCCESS);
  CHECK(std::string(type) == "image2d_t");
  cl_kernel_arg_address_qualifier space = 0;
  REQUIRE(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr) == CL_SUCCESS);
  CHECK(space == CL_KERNEL_ARG_ADDRESS_GLOBAL);

  REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof s, &s) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof dst, &dst) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof out, &out) == CL_SUCCESS);
  const size_t global[2] = {size_t(w), size_t(h)};
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<std::array<float, 4>> got(size_t(w * h)), written(size_t(w * h));
  REQUIRE(clEnqueueReadBuffer(fx().q, out, CL_TRUE, 0, sizeof(float) * 4 * w * h, got.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  const size_t origin[3] = {0, 0, 0}, region[3] = {size_t(w), size_t(h), 1};
  REQUIRE(clEnqueueReadImage(fx().q, dst, CL_TRUE, origin, region, 0, 0, written.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      INFO("x " << x << " y " << y);
      const auto want = bilinear(texels, w, h, x + 0.25, y + 0.75);
      CHECK(got[size_t(y * w + x)] == want);
      CHECK(written[size_t(y * w + x)] == want);
    }
  // Values worked out by hand: at (0, 0), u − 0.5 = −0.25 gives i0 = −1 and i1 = 0, both clamped to column 0, whose
  // red is 0; at (2, 1), u − 0.5 = 1.75 gives columns 1 and 2 with weights 0.25 and 0.75 (red 1.75), v − 0.5 = 1.25
  // rows 1 and 2 with weights 0.75 and 0.25 (green 0.75·3 + 0.25·6 = 3.75).
  CHECK(got[0][0] == 0.0f);
  CHECK(got[size_t(1 * w + 2)][0] == 1.75f);
  CHECK(got[size_t(1 * w + 2)][1] == 3.75f);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseSampler(s);
  for (cl_mem m : {src, dst, out}) clReleaseMemObject(m);
}

}  // namespace
}  // namespace clref_test

namespace clref_test {
namespace {

// OpenCL C 3.0 §6.15.15.5 [[built-in-image-query-functions]]: for OpenCL C 3.0 or newer, get_image_channel_data_type
// may return CLK_UNORM_INT_101010_2, which a kernel can name; its value is cl.h's CL_UNORM_INT_101010_2 (cl.xml).
TEST_CASE("an OpenCL C 3.0 kernel names CLK_UNORM_INT_101010_2 and the query returns it", "[opencl][images][e2e]") {
  cl_bool compiler = CL_FALSE;
  clGetDeviceInfo(fx().device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr);
  if (!compiler) return;  // no clang-15 / llvm-spirv-15
  const char* src = R"CLC(
kernel void q(read_only image2d_t a, read_only image1d_t b, global int* o) {
  o[0] = get_image_channel_data_type(a); o[1] = CLK_UNORM_INT_101010_2;
  o[2] = get_image_channel_order(a);     o[3] = CLK_RGBA;
  o[4] = get_image_channel_data_type(b); o[5] = get_image_channel_order(b); o[6] = CLK_sRGBA;
}
)CLC";
  const cl_image_format packed{CL_RGBA, CL_UNORM_INT_101010_2}, srgb{CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc d2{}, d1{};
  d2.image_type = CL_MEM_OBJECT_IMAGE2D;
  d2.image_width = 3;
  d2.image_height = 2;
  d1.image_type = CL_MEM_OBJECT_IMAGE1D;
  d1.image_width = 5;
  cl_int e = 0;
  cl_mem a = clCreateImage(fx().ctx, CL_MEM_READ_ONLY, &packed, &d2, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem b = clCreateImage(fx().ctx, CL_MEM_READ_ONLY, &srgb, &d1, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_mem out = clCreateBuffer(fx().ctx, CL_MEM_READ_WRITE, sizeof(cl_int) * 7, nullptr, &e);
  REQUIRE(e == CL_SUCCESS);
  cl_program p = clCreateProgramWithSource(fx().ctx, 1, &src, nullptr, &e);
  REQUIRE(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "q", &e);
  REQUIRE(e == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof a, &a) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof b, &b) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof out, &out) == CL_SUCCESS);
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(fx().q, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_int got[7] = {};
  REQUIRE(clEnqueueReadBuffer(fx().q, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr) == CL_SUCCESS);
  const cl_int want[7] = {CL_UNORM_INT_101010_2, CL_UNORM_INT_101010_2, CL_RGBA, CL_RGBA,
                          CL_UNORM_INT8,         CL_sRGBA,              CL_sRGBA};
  for (int i = 0; i < 7; ++i) {
    INFO("o[" << i << "]");
    CHECK(got[i] == want[i]);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  for (cl_mem m : {a, b, out}) clReleaseMemObject(m);
}

}  // namespace
}  // namespace clref_test
