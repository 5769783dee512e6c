// Fuzz target: sequences of OpenCL API calls with arbitrary arguments, through clref's own cl* entry points (linked
// directly, as tests/api does: the ICD loader itself dereferences handles before clref sees them). Each input is a
// little program: one byte chooses the call, the next bytes its arguments — handles from the objects made so far
// (released ones included: clref keeps a tombstone), sizes and offsets at the edges, flags and enumerants with
// stray bits. Every call must return, with a result or an error code; a crash, a sanitizer report or an uncaught
// exception is a finding. The harness only keeps its own promises to the API: the host memory it passes is as large
// as the call reads or writes.
#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// Host memory for every call that reads or writes it; buffers and images the harness makes are smaller.
constexpr size_t kScratchBytes = size_t(8) << 20;
constexpr size_t kMaxMadeBytes = size_t(1) << 20;
alignas(4096) unsigned char scratch[kScratchBytes];

struct Reader {
  const uint8_t* p;
  size_t n;
  bool done() const { return n == 0; }
  uint8_t u8() {
    if (!n) return 0;
    --n;
    return *p++;
  }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(u8()) << (8 * i);
    return v;
  }
  uint64_t u64() { return uint64_t(u32()) | uint64_t(u32()) << 32; }
  // Sizes and offsets: mostly small, sometimes at the edges of size_t.
  size_t size() {
    static constexpr size_t edges[] = {0, 1, 2, 3, 4, 7, 8, 16, 64, 100, 256, 4096, 65536, kMaxMadeBytes,
                                       size_t(1) << 31, size_t(1) << 40, SIZE_MAX / 2, SIZE_MAX - 1, SIZE_MAX};
    const uint8_t k = u8();
    if (k < 160) return k % 64;
    if (k < 240) return edges[k % std::size(edges)];
    return size_t(u64());
  }
  // An enumerant: one of the valid ones, or any number.
  template <size_t N> uint32_t pick(const std::array<uint32_t, N>& valid) {
    const uint8_t k = u8();
    return k < 224 ? valid[k % N] : u32();
  }
};

constexpr std::array<uint32_t, 8> kMemFlags = {CL_MEM_READ_WRITE,     CL_MEM_READ_ONLY,      CL_MEM_WRITE_ONLY,
                                               CL_MEM_USE_HOST_PTR,   CL_MEM_COPY_HOST_PTR,  CL_MEM_ALLOC_HOST_PTR,
                                               CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
constexpr std::array<uint32_t, 8> kOrders = {CL_R,    CL_RG,        CL_RGBA,  CL_BGRA,
                                             CL_sRGBA, CL_INTENSITY, CL_DEPTH, CL_LUMINANCE};
constexpr std::array<uint32_t, 8> kTypes = {CL_UNORM_INT8,     CL_SNORM_INT16, CL_FLOAT,      CL_HALF_FLOAT,
                                            CL_UNSIGNED_INT32, CL_SIGNED_INT8, CL_UNORM_SHORT_565, CL_UNORM_INT_101010};
constexpr std::array<uint32_t, 6> kImageTypes = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE2D,
                                                 CL_MEM_OBJECT_IMAGE3D,       CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                                 CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER};
constexpr std::array<uint32_t, 12> kMemInfo = {
    CL_MEM_TYPE,     CL_MEM_FLAGS,           CL_MEM_SIZE,         CL_MEM_HOST_PTR,          CL_MEM_MAP_COUNT,
    CL_MEM_CONTEXT,  CL_MEM_OFFSET,          CL_MEM_REFERENCE_COUNT, CL_MEM_ASSOCIATED_MEMOBJECT, CL_IMAGE_FORMAT,
    CL_IMAGE_WIDTH, CL_IMAGE_ELEMENT_SIZE};
constexpr std::array<uint32_t, 8> kKernelInfo = {CL_KERNEL_FUNCTION_NAME,  CL_KERNEL_NUM_ARGS,
                                                 CL_KERNEL_REFERENCE_COUNT, CL_KERNEL_CONTEXT,
                                                 CL_KERNEL_PROGRAM,         CL_KERNEL_ATTRIBUTES,
                                                 CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_PRIVATE_MEM_SIZE};
const char* const kBuildOptions[] = {"", "-cl-std=CL1.2", "-cl-denorms-are-zero", "-cl-fast-relaxed-math",
                                     "-Dx=1", "-cl-std=CL9.9", "-Xclang -load", "-cl-mad-enable -w"};

struct Fixture {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::vector<std::vector<char>> modules;  // golden SPIR-V modules for clCreateProgramWithIL
};

Fixture& fixture() {
  static Fixture f = [] {
    Fixture x;
    clGetPlatformIDs(1, &x.platform, nullptr);
    clGetDeviceIDs(x.platform, CL_DEVICE_TYPE_ALL, 1, &x.device, nullptr);
    x.context = clCreateContext(nullptr, 1, &x.device, nullptr, nullptr, nullptr);
    x.queue = clCreateCommandQueue(x.context, x.device, 0, nullptr);
    for (const char* name : {"vadd.O2", "async_copy.O2", "atomics.O2", "image_blur.O2", "image_buffer_copy.O2",
                             "reduce.O2", "image_rotate.O2", "private_array.O2"}) {
      std::ifstream in(std::string(CLREF_GOLDEN_DIR "/spv/") + name + ".spv", std::ios::binary);
      x.modules.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return x;
  }();
  return f;
}

// The objects one input made; everything is released at the end of the input.
struct Objects {
  std::vector<cl_mem> mems;
  std::vector<cl_program> programs;
  std::vector<cl_kernel> kernels;
  std::vector<cl_sampler> samplers;
  std::vector<cl_event> events;
  template <class T> static T pick(Reader& r, const std::vector<T>& v) {
    const uint8_t k = r.u8();
    if (v.empty() || k == 255) return nullptr;
    return v[k % v.size()];
  }
};

void releaseAll(Objects& o) {
  clFinish(fixture().queue);
  // Release until the object is gone: clref answers CL_INVALID_* once it is (a tombstone).
  for (auto k : o.kernels) while (clReleaseKernel(k) == CL_SUCCESS) {}
  for (auto e : o.events) while (clReleaseEvent(e) == CL_SUCCESS) {}
  for (auto m : o.mems) while (clReleaseMemObject(m) == CL_SUCCESS) {}
  for (auto s : o.samplers) while (clReleaseSampler(s) == CL_SUCCESS) {}
  for (auto p : o.programs) while (clReleaseProgram(p) == CL_SUCCESS) {}
}

// Bytes of host memory a buffer-rect or image transfer touches, or SIZE_MAX when it overflows.
size_t hostExtent(const size_t region[3], size_t elem, size_t rowPitch, size_t slicePitch) {
  size_t row = 0, slice = 0, last = 0, total = 0;
  if (__builtin_mul_overflow(region[0], elem, &row)) return SIZE_MAX;
  if (!rowPitch) rowPitch = row;
  if (!slicePitch && __builtin_mul_overflow(rowPitch, region[1], &slicePitch)) return SIZE_MAX;
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return 0;
  if (__builtin_mul_overflow(region[2] - 1, slicePitch, &slice) ||
      __builtin_mul_overflow(region[1] - 1, rowPitch, &last) || __builtin_add_overflow(slice, last, &total) ||
      __builtin_add_overflow(total, row, &total))
    return SIZE_MAX;
  return total;
}

size_t elementSize(cl_mem m) {
  size_t e = 0;
  if (clGetImageInfo(m, CL_IMAGE_ELEMENT_SIZE, sizeof e, &e, nullptr) != CL_SUCCESS) return 16;
  return e;
}

void step(Reader& r, Objects& o) {
  Fixture& f = fixture();
  cl_int err = CL_SUCCESS;
  switch (r.u8() % 20) {
    case 0: {  // a buffer, maybe over host memory
      const cl_mem_flags flags = r.pick(kMemFlags) | (r.u8() < 64 ? r.pick(kMemFlags) : 0);
      size_t size = r.size();
      if (size > kMaxMadeBytes && size < (size_t(1) << 40)) size = kMaxMadeBytes;
      void* host = r.u8() < 128 ? scratch : nullptr;
      if (cl_mem m = clCreateBuffer(f.context, flags, size, host, &err)) o.mems.push_back(m);
      break;
    }
    case 1: {  // a sub-buffer
      cl_buffer_region region{r.size(), r.size()};
      if (cl_mem m = clCreateSubBuffer(Objects::pick(r, o.mems), r.pick(kMemFlags), CL_BUFFER_CREATE_TYPE_REGION,
                                       &region, &err))
        o.mems.push_back(m);
      break;
    }
    case 2: {  // an image of any type and format, maybe over host memory or a buffer
      cl_image_format format{r.pick(kOrders), r.pick(kTypes)};
      cl_image_desc desc{};
      desc.image_type = r.pick(kImageTypes);
      desc.image_width = std::min<size_t>(r.size(), 64);
      desc.image_height = std::min<size_t>(r.size(), 64);
      desc.image_depth = std::min<size_t>(r.size(), 16);
      desc.image_array_size = std::min<size_t>(r.size(), 8);
      desc.image_row_pitch = r.u8() < 200 ? 0 : r.size();
      desc.image_slice_pitch = r.u8() < 200 ? 0 : r.size();
      desc.num_mip_levels = r.u8() % 4;
      desc.buffer = r.u8() < 32 ? Objects::pick(r, o.mems) : nullptr;
      const cl_mem_flags flags = r.pick(kMemFlags);
      // Host memory: the largest image the harness makes (64 × 64 × 16 × 16 bytes) with pitches it can hold.
      const size_t region[3] = {desc.image_width, std::max<size_t>(desc.image_height, desc.image_array_size),
                                std::max<size_t>(desc.image_depth, desc.image_array_size)};
      const bool fits = hostExtent(region, 16, desc.image_row_pitch, desc.image_slice_pitch) <= kScratchBytes;
      void* host = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) && fits ? scratch : nullptr;
      if (cl_mem m = clCreateImage(f.context, flags, &format, &desc, host, &err)) o.mems.push_back(m);
      break;
    }
    case 3: {  // a sampler
      if (cl_sampler s = clCreateSampler(f.context, r.u8() & 1, r.u8() % 8 + CL_ADDRESS_NONE - 1,
                                         r.u8() % 3 + CL_FILTER_NEAREST - 1, &err))
        o.samplers.push_back(s);
      break;
    }
    case 4: {  // a program from one of the golden modules, built with some options
      const auto& m = f.modules[r.u8() % f.modules.size()];
      if (cl_program p = clCreateProgramWithIL(f.context, m.data(), m.size(), &err)) {
        o.programs.push_back(p);
        clBuildProgram(p, r.u8() & 1, &f.device, kBuildOptions[r.u8() % std::size(kBuildOptions)], nullptr, nullptr);
      }
      break;
    }
    case 5: {  // a kernel by one of the program's names, or another name
      cl_program p = Objects::pick(r, o.programs);
      char names[1024] = {};
      clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names - 1, names, nullptr);
      std::string name(names, strnlen(names, sizeof names));
      if (auto semi = name.find(';'); semi != std::string::npos && r.u8() & 1) name = name.substr(semi + 1);
      if (auto semi = name.find(';'); semi != std::string::npos) name.resize(semi);
      if (r.u8() < 16) name += "x";
      if (cl_kernel k = clCreateKernel(p, name.c_str(), &err)) o.kernels.push_back(k);
      break;
    }
    case 6: {  // an argument: a memory object, a sampler, bytes, or nothing
      cl_kernel k = Objects::pick(r, o.kernels);
      const cl_uint index = r.u8() % 10;
      const uint8_t what = r.u8() % 5;
      if (what == 0) {
        cl_mem m = Objects::pick(r, o.mems);
        clSetKernelArg(k, index, r.u8() < 224 ? sizeof m : r.size() % 64, &m);
      } else if (what == 1) {
        cl_sampler s = Objects::pick(r, o.samplers);
        clSetKernelArg(k, index, sizeof s, &s);
      } else if (what == 2) {
        clSetKernelArg(k, index, std::min(r.size(), kScratchBytes), scratch);
      } else {
        clSetKernelArg(k, index, r.size(), nullptr);  // local memory, or a NULL buffer
      }
      break;
    }
    case 7: {  // an NDRange
      const cl_uint dims = r.u8() % 5;
      size_t offset[3], global[3], local[3];
      for (int d = 0; d < 3; ++d) {
        offset[d] = r.u8() < 200 ? 0 : r.size();
        global[d] = r.u8() < 200 ? r.u8() % 17 : r.size();
        local[d] = r.u8() < 200 ? r.u8() % 5 : r.size();
      }
      cl_event e = nullptr;
      cl_event wait = Objects::pick(r, o.events);
      if (clEnqueueNDRangeKernel(f.queue, Objects::pick(r, o.kernels), dims, r.u8() & 1 ? offset : nullptr, global,
                                 r.u8() & 1 ? local : nullptr, wait ? 1 : 0, wait ? &wait : nullptr,
                                 &e) == CL_SUCCESS)
        o.events.push_back(e);
      break;
    }
    case 8: {  // buffer reads and writes (host memory within the scratch)
      cl_mem m = Objects::pick(r, o.mems);
      const size_t offset = r.size(), size = std::min(r.size(), kScratchBytes);
      if (r.u8() & 1)
        clEnqueueReadBuffer(f.queue, m, CL_TRUE, offset, size, scratch, 0, nullptr, nullptr);
      else
        clEnqueueWriteBuffer(f.queue, m, CL_TRUE, offset, size, scratch, 0, nullptr, nullptr);
      break;
    }
    case 9: {  // copies and fills
      cl_mem a = Objects::pick(r, o.mems), b = Objects::pick(r, o.mems);
      if (r.u8() & 1)
        clEnqueueCopyBuffer(f.queue, a, b, r.size(), r.size(), r.size(), 0, nullptr, nullptr);
      else
        clEnqueueFillBuffer(f.queue, a, scratch, r.size() % 260, r.size(), r.size(), 0, nullptr, nullptr);
      break;
    }
    case 10: {  // rectangular buffer transfers
      cl_mem m = Objects::pick(r, o.mems);
      size_t bo[3], ho[3], region[3];
      for (int d = 0; d < 3; ++d) {
        bo[d] = r.size() % 70;
        ho[d] = 0;
        region[d] = r.size() % 70;
      }
      const size_t brp = r.size() % 300, bsp = r.size() % 5000, hrp = r.size() % 300, hsp = r.size() % 5000;
      if (hostExtent(region, 1, hrp, hsp) > kScratchBytes) break;
      clEnqueueReadBufferRect(f.queue, m, CL_TRUE, bo, ho, region, brp, bsp, hrp, hsp, scratch, 0, nullptr, nullptr);
      break;
    }
    case 11: {  // image reads and writes
      cl_mem m = Objects::pick(r, o.mems);
      // cl_khr_mipmap_image: origin[3] is the mip level of a 2D image array or 3D image, so origins have 4 elements.
      size_t origin[4], region[3];
      for (int d = 0; d < 3; ++d) {
        origin[d] = r.u8() < 200 ? r.u8() % 8 : r.size();
        region[d] = r.u8() < 200 ? r.u8() % 65 : r.size();
      }
      origin[3] = r.u8() % 4;
      const size_t rp = r.u8() < 200 ? 0 : r.size(), sp = r.u8() < 200 ? 0 : r.size();
      if (hostExtent(region, elementSize(m), rp, sp) > kScratchBytes) break;
      if (r.u8() & 1)
        clEnqueueReadImage(f.queue, m, CL_TRUE, origin, region, rp, sp, scratch, 0, nullptr, nullptr);
      else
        clEnqueueWriteImage(f.queue, m, CL_TRUE, origin, region, rp, sp, scratch, 0, nullptr, nullptr);
      break;
    }
    case 12: {  // image copies and fills, image ↔ buffer
      cl_mem a = Objects::pick(r, o.mems), b = Objects::pick(r, o.mems);
      size_t p[4], q[4], region[3];  // origins with the mip level of a 2D image array or 3D image (origin[3])
      for (int d = 0; d < 3; ++d) {
        p[d] = r.u8() % 8;
        q[d] = r.u8() % 8;
        region[d] = r.u8() < 220 ? r.u8() % 33 : r.size();
      }
      p[3] = r.u8() % 4;
      q[3] = r.u8() % 4;
      switch (r.u8() % 4) {
        case 0: clEnqueueCopyImage(f.queue, a, b, p, q, region, 0, nullptr, nullptr); break;
        case 1: clEnqueueFillImage(f.queue, a, scratch, p, region, 0, nullptr, nullptr); break;
        case 2: clEnqueueCopyImageToBuffer(f.queue, a, b, p, region, r.size(), 0, nullptr, nullptr); break;
        default: clEnqueueCopyBufferToImage(f.queue, a, b, r.size(), p, region, 0, nullptr, nullptr); break;
      }
      break;
    }
    case 13: {  // map and unmap
      cl_mem m = Objects::pick(r, o.mems);
      void* p = clEnqueueMapBuffer(f.queue, m, CL_TRUE, r.pick(std::array<uint32_t, 3>{CL_MAP_READ, CL_MAP_WRITE,
                                                                                      CL_MAP_WRITE_INVALIDATE_REGION}),
                                   r.size(), r.size(), 0, nullptr, nullptr, &err);
      if (p && r.u8() < 240) clEnqueueUnmapMemObject(f.queue, m, p, 0, nullptr, nullptr);
      if (r.u8() < 16) clEnqueueUnmapMemObject(f.queue, m, scratch, 0, nullptr, nullptr);  // never mapped
      break;
    }
    case 14: {  // queries with any size (the answer lands in the scratch)
      const size_t size = std::min(r.size(), kScratchBytes);
      size_t ret = 0;
      switch (r.u8() % 4) {
        case 0: clGetMemObjectInfo(Objects::pick(r, o.mems), r.pick(kMemInfo), size, scratch, &ret); break;
        case 1: clGetKernelInfo(Objects::pick(r, o.kernels), r.pick(kKernelInfo), size, scratch, &ret); break;
        case 2: clGetImageInfo(Objects::pick(r, o.mems), CL_IMAGE_FORMAT + r.u8() % 12, size, scratch, &ret); break;
        default:
          clGetKernelArgInfo(Objects::pick(r, o.kernels), r.u8() % 8, CL_KERNEL_ARG_ADDRESS_QUALIFIER + r.u8() % 6,
                             size, scratch, &ret);
          break;
      }
      break;
    }
    case 15: {  // retain and release anything, released objects too
      switch (r.u8() % 8) {
        case 0: clReleaseMemObject(Objects::pick(r, o.mems)); break;
        case 1: clReleaseKernel(Objects::pick(r, o.kernels)); break;
        case 2: clReleaseProgram(Objects::pick(r, o.programs)); break;
        case 3: clReleaseSampler(Objects::pick(r, o.samplers)); break;
        case 4: clReleaseEvent(Objects::pick(r, o.events)); break;
        case 5: clRetainMemObject(Objects::pick(r, o.mems)); break;
        case 6: clRetainKernel(Objects::pick(r, o.kernels)); break;
        default: clRetainEvent(Objects::pick(r, o.events)); break;
      }
      break;
    }
    case 16: {  // waits
      cl_event e = Objects::pick(r, o.events);
      if (r.u8() & 1)
        clWaitForEvents(e ? 1 : r.u8() % 2, e ? &e : nullptr);
      else
        clFinish(f.queue);
      break;
    }
    case 17: {  // a program from broken IL: a golden module with one word changed
      auto m = f.modules[r.u8() % f.modules.size()];
      if (m.size() >= 4) {
        const size_t at = r.u32() % (m.size() / 4);
        const uint32_t w = r.u32();
        std::memcpy(m.data() + 4 * at, &w, 4);
      }
      if (cl_program p = clCreateProgramWithIL(f.context, m.data(), m.size(), &err)) {
        o.programs.push_back(p);
        clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
      }
      break;
    }
    case 18: {  // every kernel of a built program at once
      cl_program p = Objects::pick(r, o.programs);
      cl_kernel ks[8];
      cl_uint n = 0;
      if (clCreateKernelsInProgram(p, 8, ks, &n) == CL_SUCCESS)
        for (cl_uint i = 0; i < n && i < 8; ++i) o.kernels.push_back(ks[i]);
      break;
    }
    default: {  // a task
      cl_event e = nullptr;
      if (clEnqueueTask(f.queue, Objects::pick(r, o.kernels), 0, nullptr, &e) == CL_SUCCESS) o.events.push_back(e);
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  Objects objects;
  for (int steps = 0; !r.done() && steps < 64; ++steps) step(r, objects);
  releaseAll(objects);
  return 0;
}
