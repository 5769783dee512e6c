// Error conditions of the OpenCL 3.0 API: images and samplers (see error_table.hpp). Image creation (OpenCL 3.0 API
// §5.3.1 [[_creating_image_objects]], with the deprecated clCreateImage2D/3D), supported formats (§5.3.2
// [[_querying_list_of_supported_image_formats]]), the image commands (§5.3.4
// [[_reading_writing_and_copying_image_objects]]–§5.3.7 [[_mapping_image_objects]]), image queries (§5.3.9
// [[image-object-queries]]) and samplers (§5.7 [[_sampler_objects]]).
//
// clref's device supports images (CL_DEVICE_IMAGE_SUPPORT CL_TRUE) and every valid format for every image type except
// CL_DEPTH beyond 2D images and 2D image arrays; every image it creates has dimensions and a format it supports.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <sstream>

#include "allocation_failure.hpp"
#include "error_table.hpp"

namespace clref_test {
namespace {

unsigned char* host() {
  alignas(128) static unsigned char h[65536];
  return h;
}

const cl_image_format kRGBA8{CL_RGBA, CL_UNORM_INT8};

cl_image_desc desc(cl_mem_object_type type, size_t w, size_t h = 1, size_t d = 1, size_t layers = 1) {
  cl_image_desc out{};
  out.image_type = type;
  out.image_width = w;
  out.image_height = h;
  out.image_depth = d;
  out.image_array_size = layers;
  return out;
}

cl_mem makeImage(cl_context c, cl_mem_flags flags, const cl_image_desc& d, const cl_image_format& f = kRGBA8,
                 void* ptr = nullptr) {
  return clCreateImage(c, flags, &f, &d, ptr, nullptr);
}

cl_mem makeBuffer(cl_mem_flags flags, size_t size = 4096, void* ptr = nullptr) {
  return clCreateBuffer(fx().ctx, flags, size, ptr, nullptr);
}

bool reported(const char* extension) {
  char text[8192] = {};
  clGetDeviceInfo(fx().device, CL_DEVICE_EXTENSIONS, sizeof text, text, nullptr);
  std::istringstream in(text);
  for (std::string e; in >> e;)
    if (e == extension) return true;
  return false;
}

// Images and samplers the cases share, made on first use and never released.
struct Images {
  cl_mem img2d, img2dB, imgR, img3d, img1d, img1dArr, img2dArr, ctx2Img;
  cl_mem hostWriteOnly, hostReadOnly, hostNoAccess;
  cl_mem bufImg1d;       // a 1D image buffer of 16 RGBA8 elements over bufForImg
  cl_mem bufForImg;      // 4096 bytes
  cl_mem mip = nullptr;  // 8×8 with 4 levels (cl_khr_mipmap_image)
  cl_event done = nullptr;
  Images() {
    const cl_context c = fx().ctx;
    img2d = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    img2dB = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    imgR = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4), {CL_R, CL_FLOAT});
    img3d = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
    img1d = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE1D, 4));
    img1dArr = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 1, 1, 3));
    img2dArr = makeImage(c, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 1, 3));
    ctx2Img = makeImage(fx().ctx2, CL_MEM_READ_WRITE, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    hostWriteOnly = makeImage(c, CL_MEM_HOST_WRITE_ONLY, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    hostReadOnly = makeImage(c, CL_MEM_HOST_READ_ONLY, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    hostNoAccess = makeImage(c, CL_MEM_HOST_NO_ACCESS, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    bufForImg = makeBuffer(CL_MEM_READ_WRITE);
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
    d.mem_object = bufForImg;
    bufImg1d = makeImage(c, 0, d);
    if (reported("cl_khr_mipmap_image")) {
      cl_image_desc m = desc(CL_MEM_OBJECT_IMAGE2D, 8, 8);
      m.num_mip_levels = 4;
      mip = makeImage(c, CL_MEM_READ_WRITE, m);
    }
    clEnqueueMarkerWithWaitList(fx().q, 0, nullptr, &done);
  }
};
Images& im() {
  static Images i;
  return i;
}

cl_int released(cl_mem m, cl_int code) {
  if (m) clReleaseMemObject(m);
  return code;
}

// ---- creation ----------------------------------------------------------------------------------------------------

// clCreateImageWithProperties shares clCreateImage's page: each case runs through both (an empty property list).
using Create = std::function<cl_mem(cl_context, cl_mem_flags, const cl_image_format*, const cl_image_desc*, void*,
                                    cl_int*)>;
const Create kViaCreateImage = [](cl_context c, cl_mem_flags f, const cl_image_format* fmt, const cl_image_desc* d,
                                  void* p, cl_int* e) { return clCreateImage(c, f, fmt, d, p, e); };
const Create kViaProperties = [](cl_context c, cl_mem_flags f, const cl_image_format* fmt, const cl_image_desc* d,
                                 void* p, cl_int* e) {
  const cl_mem_properties none[] = {0};
  return clCreateImageWithProperties(c, none, f, fmt, d, p, e);
};

void createCase(std::vector<ErrorCase>& v, const char* code, int n,
                std::function<cl_int(const Create&)> call) {
  for (const Create& create : {kViaCreateImage, kViaProperties})
    v.push_back({std::string("clCreateImage:") + code + ":" + std::to_string(n), [=] { return call(create); }});
}

cl_int create(const Create& c, cl_context ctx, cl_mem_flags flags, const cl_image_format* f, const cl_image_desc& d,
              void* ptr = nullptr) {
  cl_int e = 12345;
  cl_mem m = c(ctx, flags, f, &d, ptr, &e);
  return released(m, e);
}

// An image from a fresh buffer made with `bufferFlags` (and host memory when it needs some).
cl_int fromNewBuffer(const Create& c, cl_mem_flags bufferFlags, cl_mem_flags flags, cl_mem_object_type type) {
  const bool ptr = bufferFlags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  cl_mem b = makeBuffer(bufferFlags, 4096, ptr ? host() : nullptr);
  cl_image_desc d = desc(type, 16, type == CL_MEM_OBJECT_IMAGE2D ? 4 : 1);
  d.mem_object = b;
  const cl_int e = create(c, fx().ctx, flags, &kRGBA8, d);
  clReleaseMemObject(b);
  return e;
}

void createImageCases(std::vector<ErrorCase>& v) {
  const cl_image_desc d2 = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  for (cl_context bad : {kBadContext, cl_context(nullptr)})
    createCase(v, "CL_INVALID_CONTEXT", 1, [=](const Create& c) { return create(c, bad, 0, &kRGBA8, d2); });
  // No image property is defined by the core API: every name is unsupported.
  for (cl_mem_properties name : {cl_mem_properties(0x7777), cl_mem_properties(CL_SAMPLER_NORMALIZED_COORDS)})
    v.push_back({"clCreateImage:CL_INVALID_PROPERTY:1", [=] {
                   const cl_mem_properties props[] = {name, 1, 0};
                   cl_int e = 12345;
                   cl_mem m = clCreateImageWithProperties(fx().ctx, props, 0, &kRGBA8, &d2, nullptr, &e);
                   return released(m, e);
                 }});
  for (cl_mem_flags flags : {cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY),
                             cl_mem_flags(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS),
                             cl_mem_flags(CL_MEM_KERNEL_READ_AND_WRITE), cl_mem_flags(1) << 40})
    createCase(v, "CL_INVALID_VALUE", 1, [=](const Create& c) { return create(c, fx().ctx, flags, &kRGBA8, d2); });
  // From a buffer: access flags widening the buffer's, host pointer flags, host access flags widening the buffer's.
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D}) {
    for (auto [bf, f] : {std::pair{CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE}, std::pair{CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY},
                         std::pair{CL_MEM_READ_ONLY, CL_MEM_READ_WRITE}, std::pair{CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY},
                         std::pair{CL_MEM_READ_WRITE, CL_MEM_USE_HOST_PTR},
                         std::pair{CL_MEM_READ_WRITE, CL_MEM_ALLOC_HOST_PTR},
                         std::pair{CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR}})
      createCase(v, "CL_INVALID_VALUE", 2,
                 [=, bf = bf, f = f](const Create& c) { return fromNewBuffer(c, bf, f, type); });
    createCase(v, "CL_INVALID_VALUE", 3, [=](const Create& c) {
      return fromNewBuffer(c, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, type);
    });
    createCase(v, "CL_INVALID_VALUE", 4, [=](const Create& c) {
      return fromNewBuffer(c, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, type);
    });
    for (cl_mem_flags f : {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY})
      createCase(v, "CL_INVALID_VALUE", 5,
                 [=](const Create& c) { return fromNewBuffer(c, CL_MEM_HOST_NO_ACCESS, f, type); });
  }
  // A 2D image viewing a 2D image: the same rules for the image's flags.
  createCase(v, "CL_INVALID_VALUE", 2, [](const Create& c) {
    cl_mem base = makeImage(fx().ctx, CL_MEM_READ_ONLY, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
    d.mem_object = base;
    const cl_int e = create(c, fx().ctx, CL_MEM_WRITE_ONLY, &kRGBA8, d);
    clReleaseMemObject(base);
    return e;
  });

  createCase(v, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", 1,
             [=](const Create& c) { return create(c, fx().ctx, 0, nullptr, d2); });
  for (cl_image_format f : {cl_image_format{CL_RGBA, 0x9999}, cl_image_format{0x9999, CL_UNORM_INT8},
                            cl_image_format{CL_RGB, CL_UNORM_INT8}, cl_image_format{CL_sRGBA, CL_FLOAT},
                            cl_image_format{CL_DEPTH, CL_UNORM_INT8}, cl_image_format{CL_INTENSITY, CL_SIGNED_INT8}})
    createCase(v, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", 2,
               [=](const Create& c) { return create(c, fx().ctx, 0, &f, d2); });
  // A 2D image from a buffer: a row pitch that is no multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels, and a
  // CL_MEM_USE_HOST_PTR buffer whose host_ptr is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels.
  createCase(v, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", 4, [](const Create& c) {
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
    d.image_row_pitch = 4 * 4 + 2;  // 18 bytes: not a whole number of 4-byte pixels
    d.mem_object = im().bufForImg;
    return create(c, fx().ctx, 0, &kRGBA8, d);
  });
  createCase(v, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", 4, [](const Create& c) {
    cl_mem b = makeBuffer(CL_MEM_USE_HOST_PTR, 1024, host() + 1);
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
    d.mem_object = b;
    const cl_int e = create(c, fx().ctx, 0, &kRGBA8, d);
    clReleaseMemObject(b);
    return e;
  });
  // A view of a 2D image in a format that is not compatible with the image's (another data type, another order).
  for (cl_image_format f : {cl_image_format{CL_RGBA, CL_SIGNED_INT8}, cl_image_format{CL_BGRA, CL_UNORM_INT8}})
    createCase(v, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", 2, [=](const Create& c) {
      cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
      d.mem_object = im().img2d;
      return create(c, fx().ctx, 0, &f, d);
    });

  const auto size = [&](cl_image_desc d) {
    createCase(v, "CL_INVALID_IMAGE_SIZE", 1, [=](const Create& c) { return create(c, fx().ctx, 0, &kRGBA8, d); });
  };
  size(desc(CL_MEM_OBJECT_IMAGE2D, 0, 4));
  size(desc(CL_MEM_OBJECT_IMAGE2D, 4, 0));
  size(desc(CL_MEM_OBJECT_IMAGE2D, 16385, 1));
  size(desc(CL_MEM_OBJECT_IMAGE1D, 16385));
  size(desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0));
  size(desc(CL_MEM_OBJECT_IMAGE3D, 2049, 1, 2));
  size(desc(CL_MEM_OBJECT_IMAGE3D, 1, 1, 2049));
  size(desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 1, 0));
  size(desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 1, 1, 2049));
  // A 1D image buffer wider than its buffer, a 2D image from a buffer taller than it.
  createCase(v, "CL_INVALID_IMAGE_SIZE", 1, [](const Create& c) {
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 1025);
    d.mem_object = im().bufForImg;
    return create(c, fx().ctx, 0, &kRGBA8, d);
  });
  createCase(v, "CL_INVALID_IMAGE_SIZE", 1, [](const Create& c) {
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 16, 65);  // 64 bytes × 65 rows > 4096
    d.mem_object = im().bufForImg;
    return create(c, fx().ctx, 0, &kRGBA8, d);
  });

  for (cl_mem_flags f : {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR})
    createCase(v, "CL_INVALID_HOST_PTR", 1, [=](const Create& c) { return create(c, fx().ctx, f, &kRGBA8, d2); });
  for (cl_mem_flags f : {cl_mem_flags(0), cl_mem_flags(CL_MEM_ALLOC_HOST_PTR)})
    createCase(v, "CL_INVALID_HOST_PTR", 2,
               [=](const Create& c) { return create(c, fx().ctx, f, &kRGBA8, d2, host()); });
  // CL_DEPTH is a 2D and 2D array format only (cl_khr_depth_images).
  for (cl_mem_object_type t : {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE1D_ARRAY})
    createCase(v, "CL_IMAGE_FORMAT_NOT_SUPPORTED", 1, [=](const Create& c) {
      const cl_image_format depth{CL_DEPTH, CL_FLOAT};
      return create(c, fx().ctx, 0, &depth, desc(t, 4, 4, 4, 2));
    });
  // CL_Rx is withheld for every type (the 1.2 and 3.0 API specs give it different layouts; icd/image.cpp).
  createCase(v, "CL_IMAGE_FORMAT_NOT_SUPPORTED", 1, [=](const Create& c) {
    const cl_image_format rx{CL_Rx, CL_UNORM_INT8};
    return create(c, fx().ctx, 0, &rx, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  });
  // 16384 × 16384 CL_RGBA / CL_FLOAT: 4 GiB, more than CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  createCase(v, "CL_MEM_OBJECT_ALLOCATION_FAILURE", 1, [](const Create& c) {
    const cl_image_format f{CL_RGBA, CL_FLOAT};
    return create(c, fx().ctx, 0, &f, desc(CL_MEM_OBJECT_IMAGE2D, 16384, 16384));
  });
  createCase(v, "CL_OUT_OF_HOST_MEMORY", 1, [=](const Create& c) {
    cl_int e = 12345;
    cl_mem m = nullptr;
    withoutHostMemory([&] {
      m = c(fx().ctx, 0, &kRGBA8, &d2, nullptr, &e);
      return e;
    });
    return released(m, e);
  });

  // clCreateImage2D, clCreateImage3D
  const auto image2D = [](cl_context c, cl_mem_flags f, const cl_image_format* fmt, size_t w, size_t h, size_t pitch,
                          void* ptr) {
    cl_int e = 12345;
    cl_mem m = clCreateImage2D(c, f, fmt, w, h, pitch, ptr, &e);
    return released(m, e);
  };
  const auto image3D = [](cl_context c, cl_mem_flags f, const cl_image_format* fmt, size_t w, size_t h, size_t d,
                          size_t row, size_t slice, void* ptr) {
    cl_int e = 12345;
    cl_mem m = clCreateImage3D(c, f, fmt, w, h, d, row, slice, ptr, &e);
    return released(m, e);
  };
  for (cl_context bad : {kBadContext, cl_context(nullptr)}) {
    v.push_back({"clCreateImage2D:CL_INVALID_CONTEXT:1", [=] { return image2D(bad, 0, &kRGBA8, 4, 4, 0, nullptr); }});
    v.push_back(
        {"clCreateImage3D:CL_INVALID_CONTEXT:1", [=] { return image3D(bad, 0, &kRGBA8, 4, 4, 4, 0, 0, nullptr); }});
  }
  v.push_back({"clCreateImage2D:CL_INVALID_VALUE:1",
               [=] { return image2D(fx().ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &kRGBA8, 4, 4, 0, nullptr); }});
  v.push_back({"clCreateImage3D:CL_INVALID_VALUE:1", [=] {
                 return image3D(fx().ctx, CL_MEM_KERNEL_READ_AND_WRITE, &kRGBA8, 4, 4, 4, 0, 0, nullptr);
               }});
  // The cases run after this function returns: each lambda holds its own copy of the format (none: NULL).
  for (const bool null : {true, false}) {
    const cl_image_format badFormat{CL_RGB, CL_FLOAT};
    v.push_back({"clCreateImage2D:CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:1", [=] {
                   return image2D(fx().ctx, 0, null ? nullptr : &badFormat, 4, 4, 0, nullptr);
                 }});
    v.push_back({"clCreateImage3D:CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:1", [=] {
                   return image3D(fx().ctx, 0, null ? nullptr : &badFormat, 4, 4, 4, 0, 0, nullptr);
                 }});
  }
  // (width, height, row pitch); captured whole: clang 15 cannot capture structured bindings.
  for (std::array<size_t, 3> s : {std::array<size_t, 3>{0, 4, 0}, std::array<size_t, 3>{4, 0, 0},
                                  std::array<size_t, 3>{16385, 4, 0}, std::array<size_t, 3>{4, 16385, 0}})
    v.push_back({"clCreateImage2D:CL_INVALID_IMAGE_SIZE:1",
                 [=] { return image2D(fx().ctx, 0, &kRGBA8, s[0], s[1], s[2], nullptr); }});
  // A row pitch below width × element size, or no multiple of the element size.
  for (size_t pitch : {size_t(12), size_t(18)})
    v.push_back({"clCreateImage2D:CL_INVALID_IMAGE_SIZE:1",
                 [=] { return image2D(fx().ctx, CL_MEM_COPY_HOST_PTR, &kRGBA8, 4, 4, pitch, host()); }});
  for (std::array<size_t, 3> s : {std::array<size_t, 3>{0, 4, 4}, std::array<size_t, 3>{4, 0, 4},
                                  std::array<size_t, 3>{4, 4, 1}, std::array<size_t, 3>{4, 4, 0},
                                  std::array<size_t, 3>{2049, 4, 4}, std::array<size_t, 3>{4, 4, 2049}})
    v.push_back({"clCreateImage3D:CL_INVALID_IMAGE_SIZE:1",  // (width, height, depth)
                 [=] { return image3D(fx().ctx, 0, &kRGBA8, s[0], s[1], s[2], 0, 0, nullptr); }});
  v.push_back({"clCreateImage3D:CL_INVALID_IMAGE_SIZE:1",  // a slice pitch below row pitch × height
               [=] { return image3D(fx().ctx, CL_MEM_COPY_HOST_PTR, &kRGBA8, 4, 4, 4, 16, 32, host()); }});
  for (cl_mem_flags f : {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR}) {
    v.push_back({"clCreateImage2D:CL_INVALID_HOST_PTR:1", [=] { return image2D(fx().ctx, f, &kRGBA8, 4, 4, 0, nullptr); }});
    v.push_back(
        {"clCreateImage3D:CL_INVALID_HOST_PTR:1", [=] { return image3D(fx().ctx, f, &kRGBA8, 4, 4, 4, 0, 0, nullptr); }});
  }
  v.push_back({"clCreateImage2D:CL_INVALID_HOST_PTR:1", [=] { return image2D(fx().ctx, 0, &kRGBA8, 4, 4, 0, host()); }});
  v.push_back(
      {"clCreateImage3D:CL_INVALID_HOST_PTR:1", [=] { return image3D(fx().ctx, 0, &kRGBA8, 4, 4, 4, 0, 0, host()); }});
  v.push_back({"clCreateImage3D:CL_IMAGE_FORMAT_NOT_SUPPORTED:1", [=] {
                 const cl_image_format depth{CL_DEPTH, CL_UNORM_INT16};
                 return image3D(fx().ctx, 0, &depth, 4, 4, 4, 0, 0, nullptr);
               }});
  v.push_back({"clCreateImage2D:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", [=] {
                 const cl_image_format f{CL_RGBA, CL_FLOAT};
                 return image2D(fx().ctx, 0, &f, 16384, 16384, 0, nullptr);
               }});
  v.push_back({"clCreateImage3D:CL_MEM_OBJECT_ALLOCATION_FAILURE:1", [=] {
                 const cl_image_format f{CL_RGBA, CL_FLOAT};
                 return image3D(fx().ctx, 0, &f, 2048, 2048, 2048, 0, 0, nullptr);
               }});
  v.push_back({"clCreateImage2D:CL_OUT_OF_HOST_MEMORY:1", [] {
                 cl_int e = 12345;
                 cl_mem m = nullptr;
                 withoutHostMemory([&] {
                   m = clCreateImage2D(fx().ctx, 0, &kRGBA8, 4, 4, 0, nullptr, &e);
                   return e;
                 });
                 return released(m, e);
               }});
  v.push_back({"clCreateImage3D:CL_OUT_OF_HOST_MEMORY:1", [] {
                 cl_int e = 12345;
                 cl_mem m = nullptr;
                 withoutHostMemory([&] {
                   m = clCreateImage3D(fx().ctx, 0, &kRGBA8, 4, 4, 4, 0, 0, nullptr, &e);
                   return e;
                 });
                 return released(m, e);
               }});
}

// ---- formats and queries -----------------------------------------------------------------------------------------

cl_mem queueAsMem() { return reinterpret_cast<cl_mem>(fx().q); }

void formatAndQueryCases(std::vector<ErrorCase>& v) {
  const auto formats = [](cl_context c, cl_mem_flags flags, cl_mem_object_type type, cl_uint n,
                          cl_image_format* out) {
    cl_uint count = 0;
    return clGetSupportedImageFormats(c, flags, type, n, out, &count);
  };
  for (cl_context bad : {kBadContext, cl_context(nullptr)})
    v.push_back({"clGetSupportedImageFormats:CL_INVALID_CONTEXT:1",
                 [=] { return formats(bad, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr); }});
  for (cl_mem_flags flags : {cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY),
                             cl_mem_flags(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS), cl_mem_flags(1) << 40})
    v.push_back({"clGetSupportedImageFormats:CL_INVALID_VALUE:1",
                 [=] { return formats(fx().ctx, flags, CL_MEM_OBJECT_IMAGE2D, 0, nullptr); }});
  for (cl_mem_object_type type :
       {cl_mem_object_type(CL_MEM_OBJECT_BUFFER), cl_mem_object_type(CL_MEM_OBJECT_PIPE), cl_mem_object_type(0x9999)})
    v.push_back({"clGetSupportedImageFormats:CL_INVALID_VALUE:2",
                 [=] { return formats(fx().ctx, CL_MEM_READ_WRITE, type, 0, nullptr); }});
  v.push_back({"clGetSupportedImageFormats:CL_INVALID_VALUE:3", [=] {
                 cl_image_format out[1];
                 return formats(fx().ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, out);
               }});

  for (cl_mem (*notImage)() : {+[] { return fx().buf; }, +[] { return kBadMem; }, +[] { return cl_mem(nullptr); },
                               queueAsMem})
    v.push_back({"clGetImageInfo:CL_INVALID_MEM_OBJECT:1", [=] {
                   cl_image_format f;
                   return clGetImageInfo(notImage(), CL_IMAGE_FORMAT, sizeof f, &f, nullptr);
                 }});
  for (cl_image_info bad : {cl_image_info(0xdead), cl_image_info(CL_MEM_SIZE)})
    v.push_back({"clGetImageInfo:CL_INVALID_VALUE:1", [=] {
                   size_t out;
                   return clGetImageInfo(im().img2d, bad, sizeof out, &out, nullptr);
                 }});
  v.push_back({"clGetImageInfo:CL_INVALID_VALUE:2", [] {
                 cl_uint small;  // a size_t
                 return clGetImageInfo(im().img2d, CL_IMAGE_WIDTH, sizeof small, &small, nullptr);
               }});
  v.push_back({"clGetImageInfo:CL_INVALID_VALUE:2", [] {
                 cl_uint small;  // a cl_image_format
                 return clGetImageInfo(im().img2d, CL_IMAGE_FORMAT, sizeof small, &small, nullptr);
               }});
}

// ---- samplers ----------------------------------------------------------------------------------------------------

cl_int samplerCode(cl_sampler s, cl_int code) {
  if (s) clReleaseSampler(s);
  return code;
}

cl_int withProperties(cl_context c, std::vector<cl_sampler_properties> props) {
  cl_int e = 12345;
  cl_sampler s = clCreateSamplerWithProperties(c, props.empty() ? nullptr : props.data(), &e);
  return samplerCode(s, e);
}

cl_int sampler(cl_context c, cl_bool normalized, cl_addressing_mode a, cl_filter_mode f) {
  cl_int e = 12345;
  cl_sampler s = clCreateSampler(c, normalized, a, f, &e);
  return samplerCode(s, e);
}

cl_sampler liveSampler() {
  static cl_sampler s = clCreateSampler(fx().ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, nullptr);
  return s;
}

void samplerCases(std::vector<ErrorCase>& v) {
  for (cl_context bad : {kBadContext, cl_context(nullptr)}) {
    v.push_back({"clCreateSamplerWithProperties:CL_INVALID_CONTEXT:1", [=] { return withProperties(bad, {}); }});
    v.push_back({"clCreateSampler:CL_INVALID_CONTEXT:1",
                 [=] { return sampler(bad, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST); }});
  }
  using P = std::vector<cl_sampler_properties>;
  for (const P& props :
       {P{0x7777, 1, 0}, P{CL_SAMPLER_NORMALIZED_COORDS, 2, 0}, P{CL_SAMPLER_ADDRESSING_MODE, 0x1139, 0},
        P{CL_SAMPLER_FILTER_MODE, CL_ADDRESS_CLAMP, 0},
        P{CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0},
        P{CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0},
        P{CL_SAMPLER_MIP_FILTER_MODE, 0x1142, 0}})
    v.push_back({"clCreateSamplerWithProperties:CL_INVALID_VALUE:1", [=] { return withProperties(fx().ctx, props); }});
  v.push_back({"clCreateSampler:CL_INVALID_VALUE:1",
               [] { return sampler(fx().ctx, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST); }});
  v.push_back({"clCreateSampler:CL_INVALID_VALUE:1", [] { return sampler(fx().ctx, CL_TRUE, 0x1139, CL_FILTER_NEAREST); }});
  v.push_back({"clCreateSampler:CL_INVALID_VALUE:1", [] { return sampler(fx().ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1142); }});
  v.push_back({"clCreateSamplerWithProperties:CL_OUT_OF_HOST_MEMORY:1", [] {
                 cl_int e = 12345;
                 cl_sampler s = nullptr;
                 withoutHostMemory([&] {
                   s = clCreateSamplerWithProperties(fx().ctx, nullptr, &e);
                   return e;
                 });
                 return samplerCode(s, e);
               }});
  v.push_back({"clCreateSampler:CL_OUT_OF_HOST_MEMORY:1", [] {
                 cl_int e = 12345;
                 cl_sampler s = nullptr;
                 withoutHostMemory([&] {
                   s = clCreateSampler(fx().ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_LINEAR, &e);
                   return e;
                 });
                 return samplerCode(s, e);
               }});
  const auto releasedSampler = [] {
    cl_sampler s = clCreateSampler(fx().ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, nullptr);
    clReleaseSampler(s);
    return s;  // a tombstone: no longer a sampler object
  };
  for (cl_sampler (*bad)() : {+[] { return kBadSampler; }, +[] { return cl_sampler(nullptr); },
                              +[] { return reinterpret_cast<cl_sampler>(fx().buf); }, +releasedSampler}) {
    v.push_back({"clRetainSampler:CL_INVALID_SAMPLER:1", [=] { return clRetainSampler(bad()); }});
    v.push_back({"clReleaseSampler:CL_INVALID_SAMPLER:1", [=] { return clReleaseSampler(bad()); }});
    v.push_back({"clGetSamplerInfo:CL_INVALID_SAMPLER:1", [=] {
                   cl_uint rc;
                   return clGetSamplerInfo(bad(), CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, nullptr);
                 }});
  }
  v.push_back({"clGetSamplerInfo:CL_INVALID_VALUE:1", [] {
                 cl_uint out;
                 return clGetSamplerInfo(liveSampler(), 0xdead, sizeof out, &out, nullptr);
               }});
  v.push_back({"clGetSamplerInfo:CL_INVALID_VALUE:1", [] {
                 char small[2];  // a cl_addressing_mode
                 return clGetSamplerInfo(liveSampler(), CL_SAMPLER_ADDRESSING_MODE, sizeof small, small, nullptr);
               }});
}

// ---- image commands ----------------------------------------------------------------------------------------------

const size_t kOrigin[3] = {0, 0, 0}, kRegion[3] = {4, 4, 1};

std::string id(const std::string& page, const char* code, int n) { return page + ":" + code + ":" + std::to_string(n); }

using Call = std::function<cl_int(cl_command_queue, cl_uint, const cl_event*)>;

struct FailedEvent {
  cl_event e = clCreateUserEvent(fx().ctx, nullptr);
  FailedEvent() { clSetUserEventStatus(e, -1); }
  ~FailedEvent() { clReleaseEvent(e); }
};

// Invalid queue, the wait-list errors, events of another context (rank `eventContext`), a failed event before a
// blocking command, a failed host allocation.
void addShared(std::vector<ErrorCase>& v, const std::string& page, int eventContext, bool blocking, const Call& call) {
  v.push_back({id(page, "CL_INVALID_COMMAND_QUEUE", 1), [call] { return call(kBadQueue, 0, nullptr); }});
  v.push_back({id(page, "CL_INVALID_COMMAND_QUEUE", 1), [call] { return call(nullptr, 0, nullptr); }});
  v.push_back({id(page, "CL_INVALID_EVENT_WAIT_LIST", 1), [call] { return call(fx().q, 1, nullptr); }});
  v.push_back({id(page, "CL_INVALID_EVENT_WAIT_LIST", 2), [call] { return call(fx().q, 0, &im().done); }});
  v.push_back({id(page, "CL_INVALID_EVENT_WAIT_LIST", 3), [call] { return call(fx().q, 1, &kBadEvent); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", eventContext), [call] { return call(fx().q, 1, &fx().ev2); }});
  if (blocking)
    v.push_back({id(page, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", 1), [call] {
                   FailedEvent failed;
                   return call(fx().q, 1, &failed.e);
                 }});
  v.push_back({id(page, "CL_OUT_OF_HOST_MEMORY", 1), [call] {
                 const cl_int e = withoutHostMemory([&] { return call(fx().q, 0, nullptr); });
                 return clFinish(fx().q) == CL_SUCCESS ? e : CL_INVALID_COMMAND_QUEUE;
               }});
}

// cl_khr_mipmap_image: a level the image does not have (the mipmapped image has 4).
void mipLevelCase(std::vector<ErrorCase>& v, const std::string& page,
                  std::function<cl_int(cl_mem, const size_t*)> call) {
  if (!reported("cl_khr_mipmap_image")) return;
  v.push_back({id(page, "CL_INVALID_MIP_LEVEL", 1), [call] {
                 const size_t origin[3] = {0, 0, 4};  // a 2D image's origin[2] is the level
                 return call(im().mip, origin);
               }});
}

cl_int readWrite(bool read, cl_command_queue q, cl_mem image, const size_t* origin, const size_t* region,
                 size_t row = 0, size_t slice = 0, void* ptr = host(), cl_uint n = 0, const cl_event* l = nullptr) {
  return read ? clEnqueueReadImage(q, image, CL_TRUE, origin, region, row, slice, ptr, n, l, nullptr)
              : clEnqueueWriteImage(q, image, CL_TRUE, origin, region, row, slice, ptr, n, l, nullptr);
}

// Origins and regions that break the rules of the argument descriptions, per image (a 2D image's origin[2] and
// region[2], a 1D image's y and z, a zero region value).
struct BadBox {
  cl_mem (*image)();
  std::array<size_t, 3> origin, region;
};
std::vector<BadBox> badBoxes() {
  return {{+[] { return im().img2d; }, {0, 0, 1}, {4, 4, 1}},   {+[] { return im().img2d; }, {0, 0, 0}, {4, 4, 2}},
          {+[] { return im().img2d; }, {0, 0, 0}, {0, 4, 1}},   {+[] { return im().img1d; }, {0, 1, 0}, {4, 1, 1}},
          {+[] { return im().img1d; }, {0, 0, 0}, {4, 2, 1}},   {+[] { return im().img1dArr; }, {0, 0, 1}, {4, 1, 1}},
          {+[] { return im().img3d; }, {0, 0, 0}, {4, 4, 0}}};
}
// Boxes inside the rules but outside the image.
std::vector<BadBox> outsideBoxes() {
  return {{+[] { return im().img2d; }, {1, 0, 0}, {4, 4, 1}},    {+[] { return im().img2d; }, {0, 4, 0}, {1, 1, 1}},
          {+[] { return im().img3d; }, {0, 0, 2}, {4, 4, 3}},    {+[] { return im().img1dArr; }, {0, 3, 0}, {1, 1, 1}},
          {+[] { return im().img2dArr; }, {0, 0, 1}, {4, 4, 3}}, {+[] { return im().img1d; }, {5, 0, 0}, {1, 1, 1}}};
}

void readWriteImageCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueReadImage";  // clEnqueueWriteImage's conditions are on this page
  for (bool read : {true, false}) {
    addShared(v, page, 2, true, [read](cl_command_queue q, cl_uint n, const cl_event* l) {
      return readWrite(read, q, im().img2d, kOrigin, kRegion, 0, 0, host(), n, l);
    });
    v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [read] { return readWrite(read, fx().q, im().ctx2Img, kOrigin, kRegion); }});
    for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf; }})
      v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return readWrite(read, fx().q, bad(), kOrigin, kRegion); }});
    v.push_back({id(page, "CL_INVALID_VALUE", 1), [read] { return readWrite(read, fx().q, im().img2d, nullptr, kRegion); }});
    v.push_back({id(page, "CL_INVALID_VALUE", 2), [read] { return readWrite(read, fx().q, im().img2d, kOrigin, nullptr); }});
    for (const BadBox& b : outsideBoxes())
      v.push_back({id(page, "CL_INVALID_VALUE", 3),
                   [=] { return readWrite(read, fx().q, b.image(), b.origin.data(), b.region.data()); }});
    for (const BadBox& b : badBoxes())
      v.push_back({id(page, "CL_INVALID_VALUE", 4),
                   [=] { return readWrite(read, fx().q, b.image(), b.origin.data(), b.region.data()); }});
    v.push_back({id(page, "CL_INVALID_VALUE", 5),
                 [read] { return readWrite(read, fx().q, im().img2d, kOrigin, kRegion, 0, 64); }});
    v.push_back({id(page, "CL_INVALID_VALUE", 5), [read] {
                   const size_t region[3] = {4, 1, 1};
                   return readWrite(read, fx().q, im().img1d, kOrigin, region, 0, 16);
                 }});
    v.push_back({id(page, "CL_INVALID_VALUE", 6),
                 [read] { return readWrite(read, fx().q, im().img2d, kOrigin, kRegion, 0, 0, nullptr); }});
    mipLevelCase(v, page, [read](cl_mem m, const size_t* origin) {
      const size_t region[3] = {1, 1, 1};
      return readWrite(read, fx().q, m, origin, region);
    });
  }
  for (cl_mem (*img)() : {+[] { return im().hostWriteOnly; }, +[] { return im().hostNoAccess; }})
    v.push_back({id(page, "CL_INVALID_OPERATION", 2), [=] { return readWrite(true, fx().q, img(), kOrigin, kRegion); }});
  for (cl_mem (*img)() : {+[] { return im().hostReadOnly; }, +[] { return im().hostNoAccess; }})
    v.push_back({id(page, "CL_INVALID_OPERATION", 3), [=] { return readWrite(false, fx().q, img(), kOrigin, kRegion); }});
}

cl_int copy(cl_mem src, cl_mem dst, const size_t* so, const size_t* dO, const size_t* region) {
  return clEnqueueCopyImage(fx().q, src, dst, so, dO, region, 0, nullptr, nullptr);
}

void copyImageCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueCopyImage";
  addShared(v, page, 3, false, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return clEnqueueCopyImage(q, im().img2d, im().img2dB, kOrigin, kOrigin, kRegion, n, l, nullptr);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return copy(im().ctx2Img, im().img2d, kOrigin, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 2), [] { return copy(im().img2d, im().ctx2Img, kOrigin, kOrigin, kRegion); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf; }}) {
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return copy(bad(), im().img2d, kOrigin, kOrigin, kRegion); }});
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 2), [=] { return copy(im().img2d, bad(), kOrigin, kOrigin, kRegion); }});
  }
  v.push_back({id(page, "CL_IMAGE_FORMAT_MISMATCH", 1), [] { return copy(im().img2d, im().imgR, kOrigin, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return copy(im().img2d, im().img2dB, nullptr, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return copy(im().img2d, im().img2dB, kOrigin, nullptr, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return copy(im().img2d, im().img2dB, kOrigin, kOrigin, nullptr); }});
  const size_t one[3] = {1, 0, 0};
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [=] { return copy(im().img2d, im().img2dB, one, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] {  // 4 layers of a 2D image array of 3
                 const size_t region[3] = {4, 4, 4};
                 return copy(im().img2dArr, im().img3d, kOrigin, kOrigin, region);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] { return copy(im().img2d, im().img2dB, kOrigin, one, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] {
                 const size_t region[3] = {4, 4, 4};
                 return copy(im().img3d, im().img2dArr, kOrigin, kOrigin, region);
               }});
  for (const BadBox& b : badBoxes())
    if (b.image() == im().img2d)
      v.push_back({id(page, "CL_INVALID_VALUE", 6),
                   [=] { return copy(im().img2d, im().img2dB, b.origin.data(), kOrigin, b.region.data()); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 6), [] {  // a 2D destination given a depth of 2
                 const size_t region[3] = {4, 4, 2};
                 return copy(im().img3d, im().img2d, kOrigin, kOrigin, region);
               }});
  v.push_back({id(page, "CL_MEM_COPY_OVERLAP", 1), [] {
                 const size_t so[3] = {0, 0, 0}, dO[3] = {1, 1, 0}, region[3] = {2, 2, 1};
                 return copy(im().img2d, im().img2d, so, dO, region);
               }});
  mipLevelCase(v, page, [](cl_mem m, const size_t* origin) {
    const size_t region[3] = {1, 1, 1};
    return copy(m, m, origin, kOrigin, region);
  });
  if (reported("cl_khr_mipmap_image"))  // the destination's level
    v.push_back({id(page, "CL_INVALID_MIP_LEVEL", 2), [] {
                   const size_t region[3] = {1, 1, 1}, dst[3] = {0, 0, 4};
                   static cl_mem mip2 = [] {
                     cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 8, 8);
                     d.num_mip_levels = 4;
                     return makeImage(fx().ctx, CL_MEM_READ_WRITE, d);
                   }();
                   return copy(im().mip, mip2, kOrigin, dst, region);
                 }});
}

cl_int fill(cl_mem image, const void* color, const size_t* origin, const size_t* region, cl_command_queue q = fx().q,
            cl_uint n = 0, const cl_event* l = nullptr) {
  return clEnqueueFillImage(q, image, color, origin, region, n, l, nullptr);
}

void fillImageCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueFillImage";
  static const float color[4] = {0.5f, 0.25f, 0, 1};
  addShared(v, page, 2, false, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return fill(im().img2d, color, kOrigin, kRegion, q, n, l);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return fill(im().ctx2Img, color, kOrigin, kRegion); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return fill(bad(), color, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return fill(im().img2d, nullptr, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return fill(im().img2d, color, nullptr, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return fill(im().img2d, color, kOrigin, nullptr); }});
  for (const BadBox& b : outsideBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 4), [=] { return fill(b.image(), color, b.origin.data(), b.region.data()); }});
  for (const BadBox& b : badBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] { return fill(b.image(), color, b.origin.data(), b.region.data()); }});
  mipLevelCase(v, page, [](cl_mem m, const size_t* origin) {
    const size_t region[3] = {1, 1, 1};
    return fill(m, color, origin, region);
  });
}

cl_int toBuffer(cl_mem image, cl_mem buffer, const size_t* origin, const size_t* region, size_t offset,
                cl_command_queue q = fx().q, cl_uint n = 0, const cl_event* l = nullptr) {
  return clEnqueueCopyImageToBuffer(q, image, buffer, origin, region, offset, n, l, nullptr);
}
cl_int fromBuffer(cl_mem buffer, cl_mem image, size_t offset, const size_t* origin, const size_t* region,
                  cl_command_queue q = fx().q, cl_uint n = 0, const cl_event* l = nullptr) {
  return clEnqueueCopyBufferToImage(q, buffer, image, offset, origin, region, n, l, nullptr);
}

void imageBufferCases(std::vector<ErrorCase>& v) {
  std::string page = "clEnqueueCopyImageToBuffer";
  addShared(v, page, 3, false, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return toBuffer(im().img2d, fx().buf, kOrigin, kRegion, 0, q, n, l);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return toBuffer(im().ctx2Img, fx().buf, kOrigin, kRegion, 0); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 2), [] { return toBuffer(im().img2d, fx().ctx2buf, kOrigin, kRegion, 0); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf2; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return toBuffer(bad(), fx().buf, kOrigin, kRegion, 0); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return im().img2dB; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 2), [=] { return toBuffer(im().img2d, bad(), kOrigin, kRegion, 0); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 3), [] {
                 const size_t region[3] = {16, 1, 1};
                 return toBuffer(im().bufImg1d, im().bufForImg, kOrigin, region, 1024);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return toBuffer(im().img2d, fx().buf, nullptr, kRegion, 0); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return toBuffer(im().img2d, fx().buf, kOrigin, nullptr, 0); }});
  for (const BadBox& b : outsideBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 3), [=] { return toBuffer(b.image(), fx().buf, b.origin.data(), b.region.data(), 0); }});
  // 64 bytes from offset 4040 of a 4096-byte buffer; from a sub-buffer of 256 bytes at offset 200.
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] { return toBuffer(im().img2d, fx().buf, kOrigin, kRegion, 4040); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 4), [] { return toBuffer(im().img2d, fx().sub, kOrigin, kRegion, 200); }});
  for (const BadBox& b : badBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] { return toBuffer(b.image(), fx().buf, b.origin.data(), b.region.data(), 0); }});
  mipLevelCase(v, page, [](cl_mem m, const size_t* origin) {
    const size_t region[3] = {1, 1, 1};
    return toBuffer(m, fx().buf, origin, region, 0);
  });

  page = "clEnqueueCopyBufferToImage";
  addShared(v, page, 3, false, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return fromBuffer(fx().buf, im().img2d, 0, kOrigin, kRegion, q, n, l);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return fromBuffer(fx().ctx2buf, im().img2d, 0, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 2), [] { return fromBuffer(fx().buf, im().ctx2Img, 0, kOrigin, kRegion); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return im().img2dB; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return fromBuffer(bad(), im().img2d, 0, kOrigin, kRegion); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf2; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 2), [=] { return fromBuffer(fx().buf, bad(), 0, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 3), [] {
                 const size_t region[3] = {16, 1, 1};
                 return fromBuffer(im().bufForImg, im().bufImg1d, 1024, kOrigin, region);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return fromBuffer(fx().buf, im().img2d, 0, nullptr, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return fromBuffer(fx().buf, im().img2d, 0, kOrigin, nullptr); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return fromBuffer(fx().buf, im().img2d, 4040, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 3), [] { return fromBuffer(fx().sub, im().img2d, 200, kOrigin, kRegion); }});
  for (const BadBox& b : outsideBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 4), [=] { return fromBuffer(fx().buf, b.image(), 0, b.origin.data(), b.region.data()); }});
  for (const BadBox& b : badBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] { return fromBuffer(fx().buf, b.image(), 0, b.origin.data(), b.region.data()); }});
  mipLevelCase(v, page, [](cl_mem m, const size_t* origin) {
    const size_t region[3] = {1, 1, 1};
    return fromBuffer(fx().buf, m, 0, origin, region);
  });
}

// clEnqueueMapImage, unmapping what it mapped.
cl_int map(cl_mem image, cl_map_flags flags, const size_t* origin, const size_t* region, bool rowPitch = true,
           bool slicePitch = true, cl_command_queue q = fx().q, cl_uint n = 0, const cl_event* l = nullptr) {
  size_t row = 0, slice = 0;
  cl_int e = 12345;
  void* p = clEnqueueMapImage(q, image, CL_TRUE, flags, origin, region, rowPitch ? &row : nullptr,
                              slicePitch ? &slice : nullptr, n, l, nullptr, &e);
  if (p) clEnqueueUnmapMemObject(fx().q, image, p, 0, nullptr, nullptr), clFinish(fx().q);
  return e;
}

void mapImageCases(std::vector<ErrorCase>& v) {
  const std::string page = "clEnqueueMapImage";
  addShared(v, page, 2, true, [](cl_command_queue q, cl_uint n, const cl_event* l) {
    return map(im().img2d, CL_MAP_READ, kOrigin, kRegion, true, true, q, n, l);
  });
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] { return map(im().ctx2Img, CL_MAP_READ, kOrigin, kRegion); }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, +[] { return cl_mem(nullptr); }, +[] { return fx().buf; }})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [=] { return map(bad(), CL_MAP_READ, kOrigin, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 1), [] { return map(im().img2d, CL_MAP_READ, nullptr, kRegion); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 2), [] { return map(im().img2d, CL_MAP_READ, kOrigin, nullptr); }});
  for (const BadBox& b : outsideBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 3), [=] { return map(b.image(), CL_MAP_READ, b.origin.data(), b.region.data()); }});
  for (cl_map_flags f : {cl_map_flags(CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION), cl_map_flags(1) << 9})
    v.push_back({id(page, "CL_INVALID_VALUE", 4), [=] { return map(im().img2d, f, kOrigin, kRegion); }});
  for (const BadBox& b : badBoxes())
    v.push_back({id(page, "CL_INVALID_VALUE", 5), [=] { return map(b.image(), CL_MAP_READ, b.origin.data(), b.region.data()); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 6), [] { return map(im().img2d, CL_MAP_READ, kOrigin, kRegion, false); }});
  v.push_back({id(page, "CL_INVALID_VALUE", 7), [] {
                 const size_t region[3] = {4, 2, 1};
                 return map(im().img1dArr, CL_MAP_READ, kOrigin, region, true, false);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 7), [] {
                 const size_t region[3] = {4, 4, 2};
                 return map(im().img2dArr, CL_MAP_READ, kOrigin, region, true, false);
               }});
  v.push_back({id(page, "CL_INVALID_VALUE", 8), [] {
                 const size_t region[3] = {4, 4, 4};
                 return map(im().img3d, CL_MAP_READ, kOrigin, region, true, false);
               }});
  for (cl_mem (*img)() : {+[] { return im().hostWriteOnly; }, +[] { return im().hostNoAccess; }})
    v.push_back({id(page, "CL_INVALID_OPERATION", 2), [=] { return map(img(), CL_MAP_READ, kOrigin, kRegion); }});
  for (cl_map_flags f : {CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION})
    for (cl_mem (*img)() : {+[] { return im().hostReadOnly; }, +[] { return im().hostNoAccess; }})
      v.push_back({id(page, "CL_INVALID_OPERATION", 3), [=] { return map(img(), f, kOrigin, kRegion); }});
  // A region mapped for writing overlapping one already mapped (for reading or writing).
  for (cl_map_flags first : {CL_MAP_READ, CL_MAP_WRITE})
    v.push_back({id(page, "CL_INVALID_OPERATION", 5), [=] {
                   size_t row, slice;
                   const size_t o1[3] = {0, 0, 0}, r1[3] = {2, 2, 1}, o2[3] = {1, 1, 0};
                   void* p = clEnqueueMapImage(fx().q, im().img2dB, CL_TRUE, first, o1, r1, &row, &slice, 0, nullptr,
                                               nullptr, nullptr);
                   const cl_int e = map(im().img2dB, CL_MAP_WRITE, o2, r1);
                   clEnqueueUnmapMemObject(fx().q, im().img2dB, p, 0, nullptr, nullptr);
                   clFinish(fx().q);
                   return e;
                 }});
  mipLevelCase(v, page, [](cl_mem m, const size_t* origin) {
    const size_t region[3] = {1, 1, 1};
    return map(m, CL_MAP_READ, origin, region);
  });
}

// ---- image and sampler kernel arguments --------------------------------------------------------------------------

const char* kImageKernelSource = R"CLC(
kernel void k(read_only image2d_t r, write_only image2d_t w, sampler_t s, read_only image3d_t r3, global int* g,
              read_only image2d_depth_t depth) {
  int2 p = (int2)(get_global_id(0), 0);
  write_imagef(w, p, read_imagef(r, s, p) + read_imagef(r3, s, (int4)(0)) + read_imagef(depth, s, p));
  g[0] = 1;
}
)CLC";

// A kernel with image and sampler parameters: 0 read_only image2d_t, 1 write_only image2d_t, 2 sampler_t, 3 read_only
// image3d_t, 4 global int*, 5 read_only image2d_depth_t.
cl_kernel imageKernel() {
  static cl_kernel k = [] {
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(fx().ctx, 1, &kImageKernelSource, nullptr, &e);
    clBuildProgram(p, 0, nullptr, "-cl-std=CL1.2", nullptr, nullptr);
    cl_kernel made = clCreateKernel(p, "k", &e);
    clReleaseProgram(p);
    return made;
  }();
  return k;
}

cl_int setArg(cl_uint i, size_t size, const void* value) { return clSetKernelArg(imageKernel(), i, size, value); }

void kernelArgCases(std::vector<ErrorCase>& v) {
  const std::string page = "clSetKernelArg";
  // An image parameter takes a memory object: arg_value NULL, pointing to NULL, or pointing to no memory object.
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 1), [] { return setArg(0, sizeof(cl_mem), nullptr); }});
  v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 2), [] {
                 const cl_mem none = nullptr;
                 return setArg(0, sizeof none, &none);
               }});
  for (cl_mem (*bad)() : {+[] { return kBadMem; }, queueAsMem})
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 3), [=] {
                   const cl_mem m = bad();
                   return setArg(1, sizeof m, &m);
                 }});
  // A memory object that is not valid for the parameter: a buffer for an image, an image for a buffer, an image of
  // another type, a CL_DEPTH image for image2d_t and a colour image for image2d_depth_t.
  static cl_mem depthImage = [] {
    cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
    const cl_image_format f{CL_DEPTH, CL_FLOAT};
    return clCreateImage(fx().ctx, CL_MEM_READ_ONLY, &f, &d, nullptr, nullptr);
  }();
  const std::pair<cl_uint, cl_mem (*)()> mismatched[] = {
      {0, +[] { return fx().buf; }}, {4, +[] { return im().img2d; }}, {3, +[] { return im().img2d; }},
      {0, +[] { return im().img3d; }}, {0, +[] { return depthImage; }}, {5, +[] { return im().img2d; }}};
  for (auto [index, mem] : mismatched)
    v.push_back({id(page, "CL_INVALID_MEM_OBJECT", 4), [index = index, mem = mem] {
                   const cl_mem m = mem();
                   return setArg(index, sizeof m, &m);
                 }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] {
                 const cl_mem m = im().ctx2Img;
                 return setArg(0, sizeof m, &m);
               }});
  v.push_back({id(page, "CL_INVALID_CONTEXT", 1), [] {
                 static cl_sampler other = clCreateSampler(fx().ctx2, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, nullptr);
                 return setArg(2, sizeof other, &other);
               }});
  // A sampler parameter takes a sampler object.
  v.push_back({id(page, "CL_INVALID_SAMPLER", 1), [] { return setArg(2, sizeof(cl_sampler), nullptr); }});
  for (cl_sampler (*bad)() : {+[] { return kBadSampler; }, +[] { return cl_sampler(nullptr); },
                              +[] { return reinterpret_cast<cl_sampler>(fx().buf); }})
    v.push_back({id(page, "CL_INVALID_SAMPLER", 1), [=] {
                   const cl_sampler s = bad();
                   return setArg(2, sizeof s, &s);
                 }});
  v.push_back({id(page, "CL_INVALID_ARG_SIZE", 1), [] {
                 const cl_mem m = im().img2d;
                 return setArg(0, sizeof m + 4, &m);
               }});
  v.push_back({id(page, "CL_INVALID_ARG_SIZE", 2), [] {
                 const cl_sampler s = liveSampler();
                 return setArg(2, sizeof s / 2, &s);
               }});
  // Access qualifiers: a read_only image parameter given a CL_MEM_WRITE_ONLY image, a write_only one given a
  // CL_MEM_READ_ONLY image.
  v.push_back({id(page, "CL_INVALID_ARG_VALUE", 1), [] {
                 static cl_mem writeOnly = makeImage(fx().ctx, CL_MEM_WRITE_ONLY, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
                 return setArg(0, sizeof writeOnly, &writeOnly);
               }});
  v.push_back({id(page, "CL_INVALID_ARG_VALUE", 2), [] {
                 static cl_mem readOnly = makeImage(fx().ctx, CL_MEM_READ_ONLY, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
                 return setArg(1, sizeof readOnly, &readOnly);
               }});
}

std::vector<ErrorCase> cases() {
  std::vector<ErrorCase> v;
  kernelArgCases(v);
  createImageCases(v);
  formatAndQueryCases(v);
  samplerCases(v);
  readWriteImageCases(v);
  copyImageCases(v);
  fillImageCases(v);
  imageBufferCases(v);
  mapImageCases(v);
  return v;
}

// ---- conditions not provoked -------------------------------------------------------------------------------------

const char* const kImagesSupported =
    "the context's only device supports images (CL_DEVICE_IMAGE_SUPPORT is CL_TRUE, checked by \"the device reports "
    "images\")";
const char* const kCreatedSupported =
    "clCreateImage refuses every image whose dimensions exceed the device's limits (CL_INVALID_IMAGE_SIZE, tested) or "
    "whose format the device does not support for its type (CL_IMAGE_FORMAT_NOT_SUPPORTED, tested); the context has "
    "one device, the one every command-queue is for, so every image a command meets is supported by it";
const char* const kDeviceResources =
    "clref's device is the host: the call needs no device resource beyond host allocations, and a failed allocation "
    "cannot be provoked from the API";
const char* const kStorageMade =
    "an image's or buffer's data store is allocated when it is created (host memory, or the buffer's it views); "
    "enqueueing allocates none, so only a failed allocation, which the API cannot provoke, could cause it";
const char* const kMisaligned =
    "clCreateSubBuffer refuses an origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN of the one device "
    "(clCreateSubBuffer:CL_MISALIGNED_SUB_BUFFER_OFFSET), so every sub-buffer is aligned for the device of any "
    "command-queue";

std::string allocatesNothing(const std::string& entry, const std::string& what) {
  return entry + " allocates nothing on the host (" + what +
         "), so it cannot run out of host memory; checked by \"image queries and sampler calls allocate nothing\"";
}

std::vector<NotTested> notTested() {
  std::vector<NotTested> v;
  for (const char* entry : {"clCreateImage", "clCreateImage2D", "clCreateImage3D", "clCreateSampler",
                            "clCreateSamplerWithProperties"}) {
    v.push_back({std::string(entry) + ":CL_INVALID_OPERATION:1", Why::Unreachable, kImagesSupported});
    v.push_back({std::string(entry) + ":CL_OUT_OF_RESOURCES:1", Why::DeviceResources, kDeviceResources});
  }
  v.push_back({"clCreateImage:CL_INVALID_PROPERTY:2", Why::Unsupported,
               "no image property is supported: the core API defines none (\"OpenCL does not define any optional "
               "properties for images\"), only extensions clref does not report; every name is unsupported "
               "(clCreateImage:CL_INVALID_PROPERTY:1, tested)"});
  v.push_back({"clCreateImage:CL_INVALID_PROPERTY:3", Why::Unsupported,
               "needs a supported image property to repeat: the core API defines none; a repeated unsupported name is "
               "clCreateImage:CL_INVALID_PROPERTY:1 (tested)"});
  v.push_back({"clCreateImage2D:CL_IMAGE_FORMAT_NOT_SUPPORTED:1", Why::Unreachable,
               "the device supports every valid format for 2D images (clGetSupportedImageFormats lists them all, "
               "checked by \"supported formats\"); an invalid one is CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:1 (tested)"});
  v.push_back({"clGetSupportedImageFormats:CL_OUT_OF_RESOURCES:1", Why::DeviceResources, kDeviceResources});
  v.push_back({"clGetImageInfo:CL_OUT_OF_RESOURCES:1", Why::DeviceResources, kDeviceResources});
  v.push_back({"clGetSupportedImageFormats:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
               allocatesNothing("clGetSupportedImageFormats",
                                "it walks the images module's static format list; the device's extensions are known "
                                "since the device was made")});
  v.push_back({"clGetImageInfo:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
               allocatesNothing("clGetImageInfo", "every answer is a field of the image object")});
  for (const char* entry : {"clRetainSampler", "clReleaseSampler", "clGetSamplerInfo"})
    v.push_back({std::string(entry) + ":CL_OUT_OF_RESOURCES:1", Why::DeviceResources, kDeviceResources});
  v.push_back({"clRetainSampler:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
               allocatesNothing("clRetainSampler", "a reference count increment")});
  v.push_back({"clReleaseSampler:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
               allocatesNothing("clReleaseSampler", "a count decrement; the last one keeps the object as a tombstone")});
  v.push_back({"clGetSamplerInfo:CL_OUT_OF_HOST_MEMORY:1", Why::HostMemory,
               allocatesNothing("clGetSamplerInfo", "every answer is a field or the stored property list")});
  for (const char* page : {"clEnqueueReadImage", "clEnqueueCopyImage", "clEnqueueFillImage",
                           "clEnqueueCopyImageToBuffer", "clEnqueueCopyBufferToImage", "clEnqueueMapImage"}) {
    v.push_back({id(page, "CL_INVALID_IMAGE_SIZE", 1), Why::Unreachable, kCreatedSupported});
    v.push_back({id(page, "CL_IMAGE_FORMAT_NOT_SUPPORTED", 1), Why::Unreachable, kCreatedSupported});
    v.push_back({id(page, "CL_INVALID_OPERATION", 1), Why::Unreachable, kImagesSupported});
    v.push_back({id(page, "CL_OUT_OF_RESOURCES", 1), Why::DeviceResources, kDeviceResources});
    v.push_back({id(page, "CL_MEM_OBJECT_ALLOCATION_FAILURE", 1), Why::DeviceResources, kStorageMade});
  }
  for (const char* page : {"clEnqueueCopyImageToBuffer", "clEnqueueCopyBufferToImage"}) {
    v.push_back({id(page, "CL_MEM_OBJECT_ALLOCATION_FAILURE", 2), Why::DeviceResources, kStorageMade});
    v.push_back({id(page, "CL_MISALIGNED_SUB_BUFFER_OFFSET", 1), Why::Unreachable, kMisaligned});
  }
  v.push_back({"clEnqueueMapImage:CL_MAP_FAILURE:1", Why::Unreachable,
               "an image's data store is host memory and the mapped pointer points into it (no copy, no address-space "
               "mapping), so mapping cannot fail"});
  return v;
}

const bool registered = registerErrorTable({"images", cases, notTested()});

}  // namespace

TEST_CASE("the device reports images", "[opencl][errors][images]") {
  cl_bool images = CL_FALSE;
  REQUIRE(clGetDeviceInfo(fx().device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr) == CL_SUCCESS);
  CHECK(images == CL_TRUE);
}

// The entry points excused above as allocating nothing: a valid call while every allocation fails succeeds.
TEST_CASE("image queries and sampler calls allocate nothing", "[opencl][errors][images]") {
  cl_sampler s = clCreateSampler(fx().ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, nullptr);
  REQUIRE(s);
  REQUIRE(im().img2d);  // the test's objects exist before the allocations fail
  size_t width = 0;
  cl_uint rc = 0;
  CHECK(withoutHostMemory([&] { return clGetImageInfo(im().img2d, CL_IMAGE_WIDTH, sizeof width, &width, nullptr); }) ==
        CL_SUCCESS);
  CHECK(failedAllocations() == 0);
  cl_uint n = 0;
  CHECK(withoutHostMemory([&] {
          return clGetSupportedImageFormats(fx().ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n);
        }) == CL_SUCCESS);
  CHECK(failedAllocations() == 0);
  CHECK(n > 0);
  CHECK(withoutHostMemory([&] { return clRetainSampler(s); }) == CL_SUCCESS);
  CHECK(failedAllocations() == 0);
  CHECK(withoutHostMemory([&] { return clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, nullptr); }) ==
        CL_SUCCESS);
  CHECK(failedAllocations() == 0);
  CHECK(rc == 2);
  CHECK(withoutHostMemory([&] { return clReleaseSampler(s); }) == CL_SUCCESS);
  CHECK(withoutHostMemory([&] { return clReleaseSampler(s); }) == CL_SUCCESS);
  CHECK(failedAllocations() == 0);
}

}  // namespace clref_test
