// The check of a kernel enqueue (layer.hpp): clEnqueueNDRangeKernel and clEnqueueTask go on to the platform
// unchanged; around them the layer reads every buffer and image argument before the kernel runs and after it
// completes, runs the same kernel with the same arguments on clref from the first snapshot, and judges every element
// of every buffer and image the kernel may write (check/check.hpp). The application's results, return codes and
// events are what they would be without the layer.
// Nothing here waits for the application's commands: the reads are non-blocking commands on the application's own
// queue (the snapshot after the kernel's wait list and, on an in-order queue, after its earlier commands; the outputs
// after the kernel, with a barrier that holds the queue's later commands until they are read), and the judging is done
// by one checking thread of the layer's, in enqueue order, once those reads have completed. A kernel may so wait for a
// user event that the enqueuing thread, or another one, completes after the enqueue (the ICD load test does both):
// the enqueue returns at once, as without the layer. At exit the layer waits for the checks of the kernels enqueued.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "check/check.hpp"
#include "host/host.hpp"
#include "layer/command_buffer_check.hpp"
#include "layer/exit_order.hpp"
#include "layer/layer.hpp"
#include "layer/records.hpp"
#include "layer/report.hpp"
#include "layer/settings.hpp"
#include "layer/spool.hpp"
#include "layer/spool_args.hpp"
#include "images/image_format.hpp"

namespace clref::layer {
namespace {

// A reason the enqueue is passed through without a check.
struct NotChecked {
  std::string reason;
};

template <class T> T deviceInfo(cl_device_id d, cl_device_info what, T otherwise) {
  T v{};
  return next().clGetDeviceInfo(d, what, sizeof v, &v, nullptr) == CL_SUCCESS ? v : otherwise;
}
// A text answer of a clGet*Info query (`query` the entry point, `object` and `what` its arguments); "" when the
// platform does not answer.
template <class Query, class Object, class Info> std::string infoText(Query query, Object object, Info what) {
  size_t n = 0;
  if (query(object, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
  std::string s(n, '\0');
  if (query(object, what, n, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}
std::string deviceText(cl_device_id d, cl_device_info what) { return infoText(next().clGetDeviceInfo, d, what); }
std::string kernelName(cl_kernel k) { return infoText(next().clGetKernelInfo, k, CL_KERNEL_FUNCTION_NAME); }
template <class T> T memInfo(cl_mem m, cl_mem_info what) {
  T v{};
  if (next().clGetMemObjectInfo(m, what, sizeof v, &v, nullptr) != CL_SUCCESS)
    throw NotChecked{"the platform does not answer clGetMemObjectInfo for a buffer argument"};
  return v;
}

// What clref needs to know of the device to build and judge as it does: its address width, its optional types
// (a kernel may test cl_khr_fp64), its limits, the profile its accuracy is held to.
struct DeviceFacts {
  host::DeviceConfig config;
  numerics::Profile profile = numerics::Profile::Full;
};
DeviceFacts factsOf(cl_device_id d) {
  DeviceFacts f;
  f.config.addressBits = deviceInfo<cl_uint>(d, CL_DEVICE_ADDRESS_BITS, 64) == 32 ? 32 : 64;
  const std::string ext = " " + deviceText(d, CL_DEVICE_EXTENSIONS) + " ";
  f.config.fp64 = ext.find(" cl_khr_fp64 ") != std::string::npos;
  f.config.fp16 = ext.find(" cl_khr_fp16 ") != std::string::npos;
  f.config.maxWorkGroupSize =
      std::max<size_t>(f.config.maxWorkGroupSize, deviceInfo<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, 0));
  f.config.localMemSize =
      std::max<uint64_t>(f.config.localMemSize, deviceInfo<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE, 0));
  f.config.maxMemAllocSize =
      std::max<uint64_t>(f.config.maxMemAllocSize, deviceInfo<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, 0));
  // The race checker observes clref's run: a racing kernel's outputs may differ on the device where they race
  // (check/check.hpp). Its findings are reported with the enqueue, not faults.
  if (settings().races) f.config.checks.add(interpreter::Check::Races);
  f.config.checksFatal = false;
  f.profile =
      deviceText(d, CL_DEVICE_PROFILE) == "EMBEDDED_PROFILE" ? numerics::Profile::Embedded : numerics::Profile::Full;
  if (settings().profile) f.profile = *settings().profile;
  return f;
}

host::OpenCLCSource sourceOf(const ProgramRecord& r, const std::string& options) {
  host::BuildOptions parsed;
  if (!host::parseBuildOptions(options.c_str(), host::BuildStep::Build, parsed))
    throw NotChecked{"clref does not take the build option " + parsed.rejected};
  return host::OpenCLCSource{r.source, parsed.compiler, r.headers, ""};
}

// The program on clref, built as the application built it.
std::shared_ptr<host::Program> buildOnClref(const ProgramRecord& r, const host::Device& device) {
  using Kind = ProgramRecord::Kind;
  switch (r.kind) {
    case Kind::Source: return host::Program::fromOpenCLC(device, sourceOf(r, r.options));
    case Kind::IL: return host::Program::fromSpirv(device, r.il);
    case Kind::Binary: throw NotChecked{"the program was created from a binary, which clref cannot read"};
    case Kind::BuiltIn: throw NotChecked{"the kernel is a built-in kernel of the device"};
    case Kind::Linked: {
      std::vector<std::vector<uint32_t>> modules;
      for (const ProgramRecord& in : r.linked) {
        if (in.kind == Kind::Linked && in.linked.empty()) throw NotChecked{"a linked input without a record"};
        modules.push_back(buildOnClref(in, device)->spirv());
      }
      std::string log;
      auto linked = host::linkModules(std::move(modules), false, log);
      if (!linked) throw NotChecked{"clref could not link the program's inputs: " + log};
      return host::Program::fromSpirv(device, *linked);
    }
  }
  throw NotChecked{"unknown program kind"};
}

// clref's builds, per program and its build version.
struct Built {
  uint64_t version = 0;
  std::shared_ptr<host::Program> program;
  std::string error;  // the build failed on clref: every enqueue of its kernels reports it
};
// clref's objects (the builds, their kernels and buffers) are used under this lock: by an enqueuing thread while it
// builds and sets up its check, by the checking thread while it judges. It is never held while anything waits for
// the platform's commands, nor while the layer releases the platform's objects (a release may call the application's
// callbacks, which may enqueue).
std::mutex clrefMutex;
std::map<cl_program, Built> builds;

std::shared_ptr<host::Program> programOf(cl_program p, const ProgramRecord& r, const DeviceFacts& facts) {
  Built& b = builds[p];
  if (b.program && b.version == r.version) return b.program;
  if (!b.error.empty() && b.version == r.version) throw NotChecked{b.error};
  b = Built{r.version, nullptr, ""};
  try {
    b.program = buildOnClref(r, host::Device(facts.config));
    for (const auto& [id, value] : r.specConstants) b.program->setSpecConstant(id, value.data(), value.size());
  } catch (const NotChecked& n) { b.error = n.reason; } catch (const std::exception& e) {
    b.error = std::string("the program does not build on clref: ") + e.what();
  }
  if (!b.program) throw NotChecked{b.error};
  return b.program;
}

// The events of the layer's own reads and of the kernel, which a check holds until the barrier after them is
// enqueued (HeldEvents::release). The memory objects need no reference of the layer's: a command keeps those it uses
// until it completes (OpenCL 3.0 API §5.5.1 [[_retaining_and_releasing_memory_objects]] clReleaseMemObject), and the
// application's last release then destroys them (and calls its destructor callbacks) as it would without the layer.
class HeldEvents {
 public:
  HeldEvents() = default;
  HeldEvents(HeldEvents&& o) noexcept : events_(std::move(o.events_)) { o.events_.clear(); }
  HeldEvents& operator=(HeldEvents&&) = delete;
  ~HeldEvents() { release(); }
  void adopt(cl_event e) { events_.push_back(e); }
  const std::vector<cl_event>& events() const { return events_; }
  void release() {
    for (cl_event e : events_) next().clReleaseEvent(e);
    events_.clear();
  }

 private:
  std::vector<cl_event> events_;
};

// A buffer argument: the memory object, clref's copy of its contents, and whether its contents after the kernel are
// judged (a buffer the kernel may write: not const, not constant).
struct BufferArg {
  size_t arg = 0;
  cl_mem mem = nullptr;
  size_t size = 0;
  std::shared_ptr<host::Buffer> buffer;
  bool observed = false;
  numerics::ScalarType type = numerics::ScalarType::UChar;
  std::optional<host::ElementLayout> layout;  // a buffer of structs or arrays: judged field by field
  cl_mem root = nullptr;  // the buffer it is a sub-buffer of, or itself (a handle only: the check holds no reference)
};

// An image argument the kernel may write: the memory object and clref's copy of it.
struct ImageArg {
  size_t arg = 0;
  cl_mem mem = nullptr;
  std::shared_ptr<host::Image> image;
};

// An image argument's contents before the kernel, read into `bytes`; written into clref's image once the read has
// completed (and kept as imageInputs[input] for the spooled case).
struct ImageFill {
  std::shared_ptr<host::Image> image;
  std::vector<uint8_t> bytes;
  size_t input = SIZE_MAX;
};

// A buffer's or an image's contents after the kernel, read into `bytes` (p.buffers[index] or p.images[index]).
struct OutputRead {
  bool image = false;
  size_t index = 0;
  cl_mem mem = nullptr;
  std::vector<uint8_t> bytes;
};

// CLREF_CHECK_SPOOL: an image argument's contents before the kernel, for the spooled case.
struct ImageInput {
  size_t arg = 0;
  images::ImageDesc desc;
  std::vector<uint8_t> bytes;
  bool written = false;  // the kernel may write it: its contents after the kernel are observed
};

struct Pending {
  std::string name;
  std::shared_ptr<host::Program> program;
  std::unique_ptr<host::Kernel> kernel;
  host::NDRange range;
  bool deviceChoseLocal = false;
  std::vector<BufferArg> buffers;
  std::vector<ImageArg> images;
  host::CheckOptions options;
  std::string optionsNote;  // build options clref could not weigh
  // CLREF_CHECK_SPOOL: what the spooled case needs besides: how the program was made, the device's facts, the build
  // options the check weighs, the case file's arguments but buffers and images, the images' contents before the kernel.
  ProgramRecord record;
  DeviceFacts facts;
  std::string checkedOptions;
  std::vector<nlohmann::json> caseArgs;
  std::vector<ImageInput> imageInputs;
  std::string buildOptions;  // the program's, as the application built (or linked) it
  // The layer's reads in flight: the memory they read into lives here until they complete.
  std::vector<ImageFill> imageFills;
  std::vector<OutputRead> outputs;
};

// Enqueues a read of `bytes` bytes of `mem` at `offset` into `out` on `queue` after `waits`, not blocking: its event
// joins `held`, and `out` must live until it completes.
void readBufferInto(HeldEvents& held, void* out, cl_command_queue queue, cl_mem mem, size_t offset, size_t bytes,
                    cl_uint nWaits, const cl_event* waits) {
  if (bytes == 0) return;
  cl_event read = nullptr;
  const cl_int r = next().clEnqueueReadBuffer(queue, mem, CL_FALSE, offset, bytes, out, nWaits, waits, &read);
  if (r != CL_SUCCESS) throw NotChecked{"reading a buffer argument failed with error " + std::to_string(r)};
  held.adopt(read);
}

// A clref buffer holding `bytes` bytes of `mem` at `offset`, read straight into it: with buffers of hundreds of
// megabytes, a temporary copy doubled the layer's cost.
std::shared_ptr<host::Buffer> snapshotOf(HeldEvents& held, cl_command_queue queue, cl_mem mem, size_t offset,
                                         size_t bytes, cl_uint nWaits, const cl_event* waits) {
  auto buffer = std::make_shared<host::Buffer>(bytes);
  readBufferInto(held, buffer->data(), queue, mem, offset, bytes, nWaits, waits);
  return buffer;
}

// clref's buffers for the arguments, from the device's contents before the kernel. Arguments that share memory (the
// same buffer twice, sub-buffers of one buffer and the buffer itself) share it on clref too: their whole parent is
// read once and each is a view of it.
void snapshotBuffers(Pending& p, HeldEvents& held, cl_command_queue queue, cl_uint nWaits, const cl_event* waits) {
  struct Root {
    size_t begin = SIZE_MAX, end = 0;
    std::vector<size_t> members;  // indices into p.buffers
    std::shared_ptr<host::Buffer> memory;
  };
  std::map<cl_mem, Root> roots;
  std::map<cl_mem, size_t> offsets;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const cl_mem m = p.buffers[i].mem;
    const cl_mem parent = memInfo<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT);
    const cl_mem root = parent ? parent : m;
    const size_t off = parent ? memInfo<size_t>(m, CL_MEM_OFFSET) : 0;
    p.buffers[i].root = root;
    offsets[m] = off;
    Root& r = roots[root];
    r.begin = std::min(r.begin, off);
    r.end = std::max(r.end, off + p.buffers[i].size);
    r.members.push_back(i);
  }
  for (auto& [root, r] : roots) {
    std::map<cl_mem, std::shared_ptr<host::Buffer>> own;
    bool shared = false;
    for (size_t i : r.members) shared = shared || p.buffers[i].mem != p.buffers[r.members.front()].mem;
    if (!shared) {
      const BufferArg& b = p.buffers[r.members.front()];
      auto buffer = snapshotOf(held, queue, b.mem, 0, b.size, nWaits, waits);
      for (size_t i : r.members) p.buffers[i].buffer = buffer;
      continue;
    }
    r.memory = snapshotOf(held, queue, root, r.begin, r.end - r.begin, nWaits, waits);
    for (size_t i : r.members)
      p.buffers[i].buffer = host::Buffer::subBuffer(r.memory, offsets[p.buffers[i].mem] - r.begin, p.buffers[i].size);
  }
}

template <class T> T imageInfo(cl_mem m, cl_image_info what) {
  T v{};
  if (next().clGetImageInfo(m, what, sizeof v, &v, nullptr) != CL_SUCCESS)
    throw NotChecked{"the platform does not answer clGetImageInfo for an image argument"};
  return v;
}

// An image argument's type, format and sizes as the platform reports them (the image types and channel orders and
// types are the API's values, images/image.hpp, images/image_format.hpp).
images::ImageDesc imageDescOf(cl_mem m) {
  images::ImageDesc desc;
  desc.type = images::ImageType(memInfo<cl_mem_object_type>(m, CL_MEM_TYPE));
  const auto format = imageInfo<cl_image_format>(m, CL_IMAGE_FORMAT);
  desc.format.order = images::ChannelOrder(format.image_channel_order);
  desc.format.type = images::ChannelType(format.image_channel_data_type);
  desc.width = imageInfo<size_t>(m, CL_IMAGE_WIDTH);
  desc.height = std::max<size_t>(1, imageInfo<size_t>(m, CL_IMAGE_HEIGHT));
  desc.depth = std::max<size_t>(1, imageInfo<size_t>(m, CL_IMAGE_DEPTH));
  desc.arraySize = std::max<size_t>(1, imageInfo<size_t>(m, CL_IMAGE_ARRAY_SIZE));
  desc.numMipLevels = std::max<cl_uint>(1, imageInfo<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS));
  return desc;
}

// Every element of an image on the device, tightly packed level after level (host::ObservedImage's layout), read
// with clEnqueueReadImage on `queue` after `waits`, not blocking (the events join `held`; the bytes are there once
// they complete) into `bytes`, which the caller keeps until then. `image` is clref's image of the same desc (its
// extents).
void readImage(HeldEvents& held, cl_command_queue queue, cl_mem m, const host::Image& image, cl_uint nWaits,
               const cl_event* waits, std::vector<uint8_t>& bytes) {
  const images::ImageDesc& desc = image.desc();
  // In clEnqueueReadImage's coordinates arrays take their layers in the next coordinate, and cl_khr_mipmap_image puts
  // the level after the image's coordinates (origin[1] of a 1D image, origin[2] of a 2D image or 1D array, origin[3]
  // of a 3D image or 2D array).
  const bool layered = desc.type == images::ImageType::Image2DArray || desc.type == images::ImageType::Image3D;
  const size_t levelAt = desc.type == images::ImageType::Image1D ? 1 : layered ? 3 : 2;
  // Every level's size first: the vector is not resized while reads into it are in flight (a move keeps its storage).
  size_t total = 0;
  for (uint32_t level = 0; level < desc.numMipLevels; ++level) {
    const auto extent = image.extent(level);
    total += size_t(extent[0]) * extent[1] * extent[2] * images::elementSize(desc.format);
  }
  bytes.resize(total);
  size_t at = 0;
  for (uint32_t level = 0; level < desc.numMipLevels; ++level) {
    const auto extent = image.extent(level);
    size_t origin[4] = {0, 0, 0, 0};
    if (desc.numMipLevels > 1) origin[levelAt] = level;
    const size_t region[3] = {size_t(extent[0]), size_t(extent[1]), size_t(extent[2])};
    cl_event read = nullptr;
    const cl_int r =
        next().clEnqueueReadImage(queue, m, CL_FALSE, origin, region, 0, 0, bytes.data() + at, nWaits, waits, &read);
    if (r != CL_SUCCESS) throw NotChecked{"reading an image argument failed with error " + std::to_string(r)};
    held.adopt(read);
    at += region[0] * region[1] * region[2] * images::elementSize(desc.format);
  }
}

// clref's copy of an image argument's contents before the kernel: the same type, format and sizes. The contents are
// read into p.imageFills and written into it once the read has completed (fillImages).
std::shared_ptr<host::Image> snapshotImage(Pending& p, HeldEvents& held, cl_mem m, cl_command_queue queue,
                                           cl_uint nWaits, const cl_event* waits) {
  const images::ImageDesc desc = imageDescOf(m);
  std::shared_ptr<host::Image> image;
  try {
    image = std::make_shared<host::Image>(desc);
  } catch (const std::exception& e) {
    throw NotChecked{std::string("an image argument clref cannot hold: ") + e.what()};
  }
  p.imageFills.push_back({image, {}, SIZE_MAX});
  readImage(held, queue, m, *image, nWaits, waits, p.imageFills.back().bytes);
  return image;
}

// Once the snapshot's reads have completed: the images' contents into clref's images (and the spooled case's inputs).
void fillImages(Pending& p) {
  for (ImageFill& f : p.imageFills) {
    const images::ImageDesc& desc = f.image->desc();
    size_t at = 0;
    for (uint32_t level = 0; level < desc.numMipLevels; ++level) {
      const auto extent = f.image->extent(level);
      f.image->write({0, 0, 0}, {size_t(extent[0]), size_t(extent[1]), size_t(extent[2])}, f.bytes.data() + at, 0, 0,
                     level);
      at += extent[0] * extent[1] * extent[2] * images::elementSize(desc.format);
    }
    if (f.input != SIZE_MAX) p.imageInputs[f.input].bytes = std::move(f.bytes);
  }
}

host::Sampler samplerOf(cl_sampler s) {
  auto info = [&](cl_sampler_info what, auto v) {
    if (next().clGetSamplerInfo(s, what, sizeof v, &v, nullptr) != CL_SUCCESS)
      throw NotChecked{"the platform does not answer clGetSamplerInfo for a sampler argument"};
    return v;
  };
  host::Sampler out;
  out.normalizedCoords = info(CL_SAMPLER_NORMALIZED_COORDS, cl_bool{}) != CL_FALSE;
  out.addressing = images::AddressingMode(info(CL_SAMPLER_ADDRESSING_MODE, cl_addressing_mode{}));
  out.filter = images::FilterMode(info(CL_SAMPLER_FILTER_MODE, cl_filter_mode{}));
  // cl_khr_mipmap_image's properties, when the platform knows them (the extension's values, cl_ext.h).
  cl_filter_mode mip = 0;
  if (next().clGetSamplerInfo(s, CL_SAMPLER_MIP_FILTER_MODE_KHR, sizeof mip, &mip, nullptr) == CL_SUCCESS) {
    out.mipFilter = images::FilterMode(mip);
    cl_float lod = 0;
    if (next().clGetSamplerInfo(s, CL_SAMPLER_LOD_MIN_KHR, sizeof lod, &lod, nullptr) == CL_SUCCESS) out.lodMin = lod;
    if (next().clGetSamplerInfo(s, CL_SAMPLER_LOD_MAX_KHR, sizeof lod, &lod, nullptr) == CL_SUCCESS) out.lodMax = lod;
  }
  return out;
}

// CLREF_CHECK_SPOOL: the case file's forms of a value's bytes and of a sampler (golden/README.md).
std::string hexOf(const std::vector<uint8_t>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}
const char* addressingName(images::AddressingMode m) {
  switch (m) {
    case images::AddressingMode::None: return "CLK_ADDRESS_NONE";
    case images::AddressingMode::ClampToEdge: return "CLK_ADDRESS_CLAMP_TO_EDGE";
    case images::AddressingMode::Clamp: return "CLK_ADDRESS_CLAMP";
    case images::AddressingMode::Repeat: return "CLK_ADDRESS_REPEAT";
    case images::AddressingMode::MirroredRepeat: return "CLK_ADDRESS_MIRRORED_REPEAT";
  }
  return "";
}
const char* filterName(images::FilterMode f) {
  return f == images::FilterMode::Linear ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST";
}
nlohmann::json samplerJson(const host::Sampler& s) {
  return {{"normalized", s.normalizedCoords}, {"addressing", addressingName(s.addressing)},
          {"filter", filterName(s.filter)},   {"mip_filter", filterName(s.mipFilter)},
          {"lod_min", s.lodMin},              {"lod_max", s.lodMax}};
}
// An image argument as a case file gives it, its contents from `file`.
nlohmann::json imageJson(const images::ImageDesc& d, const std::string& file, bool output) {
  using images::ImageType;
  const bool depth = d.format.order == images::ChannelOrder::Depth;
  const char* type = "image2d";
  switch (d.type) {
    case ImageType::Image1D: type = "image1d"; break;
    case ImageType::Image1DBuffer: type = "image1d_buffer"; break;
    case ImageType::Image1DArray: type = "image1d_array"; break;
    case ImageType::Image2D: type = depth ? "image2d_depth" : "image2d"; break;
    case ImageType::Image2DArray: type = depth ? "image2d_array_depth" : "image2d_array"; break;
    case ImageType::Image3D: type = "image3d"; break;
    default: break;
  }
  nlohmann::json j = {{"type", type},
                      {"format", std::string(images::nameOf(d.format.order)) + "/" +
                                     std::string(images::nameOf(d.format.type))},
                      {"width", d.width},
                      {"init", {{"file", file}}},
                      {"output", output}};
  if (d.type == ImageType::Image2D || d.type == ImageType::Image2DArray || d.type == ImageType::Image3D)
    j["height"] = d.height;
  if (d.type == ImageType::Image3D) j["depth"] = d.depth;
  if (d.type == ImageType::Image1DArray || d.type == ImageType::Image2DArray) j["array_size"] = d.arraySize;
  if (d.numMipLevels > 1) j["mip_levels"] = d.numMipLevels;
  return j;
}

// CLREF_CHECK_SPOOL: the arguments as the application set them, each one's kind from its bytes and the handles the
// application created (spool_args.hpp) instead of from clref's build of the program, which is check-spool's: every
// buffer is spooled as bytes and read back after the kernel (whether the kernel writes it is the parameter's, which
// check-spool knows), every image as one the kernel may write. False, `p` untouched, where a kind is not certain (an
// argument not set or SVM, a NULL of a pointer's size: a NULL buffer or local memory, a zero handle, a pipe, a queue)
// or the case needs clref's build (a linked program, one compiled with headers): such an enqueue is prepared as when
// judging at once, with the same verdict or reason.
bool spoolArgsWithoutBuild(Pending& p, HeldEvents& held, cl_kernel k, const ProgramRecord& record,
                           const KernelRecord& kernelRecord, cl_command_queue queue, cl_uint nWaits,
                           const cl_event* waits) {
  using Kind = ProgramRecord::Kind;
  if (!(record.kind == Kind::IL || (record.kind == Kind::Source && record.headers.empty()))) return false;
  host::BuildOptions parsed;
  if (record.kind == Kind::Source && !host::parseBuildOptions(record.options.c_str(), host::BuildStep::Build, parsed))
    return false;
  cl_uint count = 0;
  if (next().clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr) != CL_SUCCESS) return false;
  const auto& args = kernelRecord.args;
  if (args.size() < count) return false;
  enum class SpooledKind { Buffer, Image, Sampler, Local, Value };
  std::vector<std::pair<SpooledKind, const void*>> kinds;
  for (cl_uint i = 0; i < count; ++i) {
    const ArgRecord& a = args[i];
    if (!a.set || a.svm) return false;
    if (a.null) {
      if (a.size == sizeof(cl_mem)) return false;
      kinds.emplace_back(SpooledKind::Local, nullptr);
      continue;
    }
    const void* handle = nullptr;
    if (a.bytes.size() == sizeof handle) std::memcpy(&handle, a.bytes.data(), sizeof handle);
    const auto known = a.bytes.size() == sizeof handle ? handleKind(handle) : std::nullopt;
    if (a.bytes.size() == sizeof handle && !handle) return false;
    if (!known) {
      kinds.emplace_back(SpooledKind::Value, nullptr);
    } else if (*known == HandleKind::Sampler) {
      kinds.emplace_back(SpooledKind::Sampler, handle);
    } else if (*known == HandleKind::Memory) {
      cl_mem_object_type type = 0;
      if (next().clGetMemObjectInfo(cl_mem(handle), CL_MEM_TYPE, sizeof type, &type, nullptr) != CL_SUCCESS)
        return false;
      if (type == CL_MEM_OBJECT_BUFFER)
        kinds.emplace_back(SpooledKind::Buffer, handle);
      else if (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
               type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D ||
               type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
        kinds.emplace_back(SpooledKind::Image, handle);
      else
        return false;
    } else {
      return false;
    }
  }
  // What spool() could not write as a case (and would judge in the process, with clref's build): buffers that share
  // memory or are empty, spec constants of other sizes than a case file's integers.
  std::map<cl_mem, int> roots;
  for (const auto& [kind, handle] : kinds) {
    if (kind != SpooledKind::Buffer) continue;
    const cl_mem m = cl_mem(const_cast<void*>(handle));
    const cl_mem parent = memInfo<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT);
    if (memInfo<size_t>(m, CL_MEM_SIZE) == 0 || ++roots[parent ? parent : m] > 1) return false;
  }
  for (const auto& [id, value] : record.specConstants)
    if (value.size() != 1 && value.size() != 2 && value.size() != 4 && value.size() != 8) return false;
  p.caseArgs.resize(count);
  for (cl_uint i = 0; i < count; ++i) {
    const ArgRecord& a = args[i];
    switch (kinds[i].first) {
      case SpooledKind::Local: p.caseArgs[i] = {{"local", a.size}}; break;
      case SpooledKind::Value: p.caseArgs[i] = {{"bytes", hexOf(a.bytes)}}; break;
      case SpooledKind::Sampler:
        p.caseArgs[i] = {{"sampler", samplerJson(samplerOf(cl_sampler(const_cast<void*>(kinds[i].second))))}};
        break;
      case SpooledKind::Buffer: {
        BufferArg b;
        b.arg = i;
        b.mem = cl_mem(const_cast<void*>(kinds[i].second));
        b.size = memInfo<size_t>(b.mem, CL_MEM_SIZE);
        b.observed = true;
        p.buffers.push_back(std::move(b));
        break;
      }
      case SpooledKind::Image: {
        const cl_mem m = cl_mem(const_cast<void*>(kinds[i].second));
        auto image = snapshotImage(p, held, m, queue, nWaits, waits);
        p.imageFills.back().input = p.imageInputs.size();
        p.imageInputs.push_back({i, image->desc(), {}, true});
        p.images.push_back({i, m, image});
        break;
      }
    }
  }
  return true;
}

// Everything before the kernel runs: whether to check, clref's program and kernel with the arguments, the snapshot.
// Throws NotChecked; false when the settings leave this enqueue out. The reads it has enqueued when it throws are in
// `held`, into memory in `p`. `recording`: a kernel command recorded into a command buffer (recordKernelCommand):
// everything but the snapshot, which is taken when the command runs.
bool prepare(Pending& p, HeldEvents& held, cl_command_queue queue, cl_kernel k, cl_uint dims, const size_t* offset,
             const size_t* global, const size_t* local, cl_uint nWaits, const cl_event* waits,
             bool recording = false) {
  p.name = kernelName(k);
  const Settings& s = settings();
  if (!s.kernels.empty() && !s.kernels.count(p.name)) return false;
  cl_program program = nullptr;
  if (next().clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr) != CL_SUCCESS)
    throw NotChecked{"the platform does not answer clGetKernelInfo"};
  ProgramRecord record;
  KernelRecord kernelRecord;
  {
    std::lock_guard lock(records().mutex);
    KernelRecord& kr = records().kernels[k];
    if (kr.enqueues++ % s.every != 0) return false;
    kernelRecord = kr;
    auto it = records().programs.find(program);
    if (it != records().programs.end())
      record = it->second;
    else if (kernelRecord.program)  // the application released the program; its kernel keeps it
      record = *kernelRecord.program;
    else
      throw NotChecked{"the program was created before the layer was loaded"};
  }
  // A wait list with a user event the application has not completed yet: passed over, as when the layer's reads
  // blocked (a read behind it would have waited for the application); the reports keep this rule.
  for (cl_uint i = 0; i < nWaits; ++i) {
    cl_command_type type = 0;
    cl_int status = CL_COMPLETE;
    next().clGetEventInfo(waits[i], CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    next().clGetEventInfo(waits[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (type == CL_COMMAND_USER && status != CL_COMPLETE)
      throw NotChecked{"the kernel waits for a user event that has not completed"};
  }
  cl_device_id device = nullptr;
  if (next().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS)
    throw NotChecked{"the platform does not answer clGetCommandQueueInfo"};
  const DeviceFacts facts = factsOf(device);
  const bool spooling = !s.spoolDir.empty();
  // A recorded command's buffers are copied inside its command buffer (command_buffer_check.cpp): built here.
  const bool withoutBuild =
      spooling && !recording && spoolArgsWithoutBuild(p, held, k, record, kernelRecord, queue, nWaits, waits);
  if (!withoutBuild) {
    p.program = programOf(program, record, facts);
    p.kernel = std::make_unique<host::Kernel>(p.program, p.name);
    // The kernels it enqueues on the device run on the other platform's device queues, which the layer does not
    // mirror (a spooled enqueue prepared without a build: check-spool says so).
    if (p.kernel->enqueuesKernels())
      throw NotChecked{"the kernel enqueues kernels on the device (device-side enqueue)"};
  }
  p.buildOptions = record.kind == ProgramRecord::Kind::Linked ? record.linkOptions : record.options;
  try {
    p.options = host::checkOptionsFor(facts.profile, p.buildOptions);
  } catch (const std::exception& e) {
    p.options = host::checkOptionsFor(facts.profile, "");
    p.optionsNote = e.what();
  }
  if (spooling) {
    p.facts = facts;
    p.checkedOptions = record.kind == ProgramRecord::Kind::Linked ? record.linkOptions : record.options;
    if (!withoutBuild) p.caseArgs.resize(p.kernel->argCount());
  }
  p.options.sampleGroups = s.groups;
  p.options.strict = s.strict;
  p.range.dims = dims;
  for (cl_uint d = 0; d < dims && d < 3; ++d) {
    p.range.global[d] = global ? global[d] : 1;
    p.range.offset[d] = offset ? offset[d] : 0;
  }
  if (local) {
    std::array<size_t, 3> l{1, 1, 1};
    for (cl_uint d = 0; d < dims && d < 3; ++d) l[d] = local[d];
    p.range.local = l;
  } else {
    p.deviceChoseLocal = true;
  }
  // The arguments, as the kernel's parameters on clref say to read what the application set.
  const auto& args = kernelRecord.args;
  for (size_t i = 0; !withoutBuild && i < p.kernel->argCount(); ++i) {
    const host::KernelArgInfo& info = p.kernel->argInfo(i);
    if (i >= args.size() || !args[i].set) throw NotChecked{"argument " + std::to_string(i) + " is not set"};
    const ArgRecord& a = args[i];
    if (a.svm) throw NotChecked{"argument " + std::to_string(i) + " is an SVM pointer"};
    switch (info.kind) {
      case host::ArgKind::Buffer: {
        cl_mem m = nullptr;
        if (!a.null && a.bytes.size() == sizeof m) std::memcpy(&m, a.bytes.data(), sizeof m);
        if (!m) {
          p.kernel->setArgNull(i);
          if (spooling) p.caseArgs[i] = {{"null", true}};
          break;
        }
        if (memInfo<cl_mem_object_type>(m, CL_MEM_TYPE) != CL_MEM_OBJECT_BUFFER)
          throw NotChecked{"argument " + std::to_string(i) + " is a pipe or an image where the kernel takes a buffer"};
        BufferArg b;
        b.arg = i;
        b.mem = m;
        b.size = memInfo<size_t>(m, CL_MEM_SIZE);
        b.observed = host::mayWriteThrough(info);
        if (auto t = host::elementTypeOf(info.typeName)) b.type = *t;
        b.layout = host::layoutOf(info);
        p.buffers.push_back(std::move(b));
        break;
      }
      case host::ArgKind::Local:
        p.kernel->setArgLocal(i, a.size);
        if (spooling) p.caseArgs[i] = {{"local", a.size}};
        break;
      case host::ArgKind::Value:
        if (a.null) throw NotChecked{"argument " + std::to_string(i) + " was set to NULL"};
        p.kernel->setArgValue(i, a.bytes.data(), a.bytes.size());
        if (spooling) p.caseArgs[i] = {{"bytes", hexOf(a.bytes)}};
        break;
      case host::ArgKind::Image: {
        cl_mem m = nullptr;
        if (!a.null && a.bytes.size() == sizeof m) std::memcpy(&m, a.bytes.data(), sizeof m);
        if (!m) throw NotChecked{"argument " + std::to_string(i) + " is a NULL image"};
        if (recording) throw NotChecked{"argument " + std::to_string(i) + " is an image (in a command buffer)"};
        auto image = snapshotImage(p, held, m, queue, nWaits, waits);
        p.kernel->setArg(i, image);
        if (spooling) {
          p.imageFills.back().input = p.imageInputs.size();
          p.imageInputs.push_back({i, image->desc(), {}, info.access != host::KernelArgInfo::Access::ReadOnly});
        }
        // An image the kernel may write (write_only, read_write) is judged element by element after the kernel.
        if (info.access != host::KernelArgInfo::Access::ReadOnly) p.images.push_back({i, m, image});
        break;
      }
      // A pipe's packets are the other device's and out of the host's reach: nothing to snapshot.
      case host::ArgKind::Pipe: throw NotChecked{"argument " + std::to_string(i) + " is a pipe"};
      // The kernels it enqueues go to the other device's queue, whose identity and default clref does not mirror.
      case host::ArgKind::Queue: throw NotChecked{"argument " + std::to_string(i) + " is a device queue"};
      case host::ArgKind::Sampler: {
        cl_sampler sampler = nullptr;
        if (a.bytes.size() == sizeof sampler) std::memcpy(&sampler, a.bytes.data(), sizeof sampler);
        if (!sampler) throw NotChecked{"argument " + std::to_string(i) + " is a NULL sampler"};
        p.kernel->setArgSampler(i, samplerOf(sampler));
        if (spooling) p.caseArgs[i] = {{"sampler", samplerJson(samplerOf(sampler))}};
        break;
      }
    }
  }
  if (!recording) {
    snapshotBuffers(p, held, queue, nWaits, waits);
    if (p.kernel)
      for (const BufferArg& b : p.buffers) p.kernel->setArg(b.arg, b.buffer);
  }
  if (spooling) p.record = std::move(record);
  return true;
}

// Right after the kernel's enqueue: the reads of what it may write, each memory object once, on `queue` after the
// kernel (non-blocking, into p.outputs).
void readOutputs(Pending& p, HeldEvents& held, cl_command_queue queue, cl_event kernelDone) {
  std::vector<cl_mem> seen;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferArg& b = p.buffers[i];
    if (!b.observed || std::find(seen.begin(), seen.end(), b.mem) != seen.end()) continue;
    seen.push_back(b.mem);
    p.outputs.push_back({false, i, b.mem, std::vector<uint8_t>(b.size)});
    readBufferInto(held, p.outputs.back().bytes.data(), queue, b.mem, 0, b.size, 1, &kernelDone);
  }
  for (size_t i = 0; i < p.images.size(); ++i) {
    const ImageArg& a = p.images[i];
    if (std::find(seen.begin(), seen.end(), a.mem) != seen.end()) continue;
    seen.push_back(a.mem);
    p.outputs.push_back({true, i, a.mem, {}});
    readImage(held, queue, a.mem, *a.image, 1, &kernelDone, p.outputs.back().bytes);
  }
}

// The device's contents of `mem` after the kernel (readOutputs).
std::vector<uint8_t>& outputOf(Pending& p, cl_mem mem) {
  for (OutputRead& o : p.outputs)
    if (o.mem == mem) return o.bytes;
  throw NotChecked{"an output the layer did not read"};
}

// After the kernel: the device's contents, clref's run and the verdicts.
void finish(Pending& p) {
  std::vector<host::ObservedBuffer> observed;
  std::vector<host::ObservedImage> observedImages;
  for (OutputRead& o : p.outputs) {
    if (o.image) {
      observedImages.push_back({p.images[o.index].arg, std::move(o.bytes)});
      continue;
    }
    const BufferArg& b = p.buffers[o.index];
    observed.push_back({b.arg, b.type, std::move(o.bytes), b.layout});
  }
  Enqueue e;
  e.kernel = p.name;
  e.range = p.range;
  e.deviceChoseLocal = p.deviceChoseLocal;
  e.optionsNote = p.optionsNote;
  e.strict = settings().strict;
  e.report = host::check(*p.kernel, p.range, observed, observedImages, p.options);
  e.profile = std::string(numerics::toString(p.options.profile));
  e.buildOptions = p.buildOptions;
  e.choices = p.kernel->choices();
  // The pictures of the HTML report (CLREF_CHECK_HTML): clref's images as check() left them.
  if (!settings().htmlPath.empty())
    for (const auto& o : observedImages) e.images.push_back(host::htmlImageOf(*p.kernel, o));
  reportChecked(e);
}

// CLREF_CHECK_SPOOL: after the kernel, the enqueue written as a case folder (spool.hpp) instead of judged. An enqueue a
// case file cannot express (arguments that share memory, where a case gives each buffer its own) is judged here, as
// without the spool, and its report line spooled in its place.
void spool(Pending& p) {
  std::map<cl_mem, int> roots;
  bool expressible = !(p.record.kind == ProgramRecord::Kind::Linked && !p.record.specConstants.empty());
  for (const BufferArg& b : p.buffers) expressible = expressible && b.size > 0 && ++roots[b.root] == 1;
  for (const auto& [id, value] : p.record.specConstants)
    expressible = expressible && (value.size() == 1 || value.size() == 2 || value.size() == 4 || value.size() == 8);
  if (!expressible) return finish(p);

  std::vector<SpoolFile> files;
  nlohmann::json c;
  using Kind = ProgramRecord::Kind;
  if (p.record.kind == Kind::Source && p.record.headers.empty()) {
    c["module"] = "module.cl";
    c["build_options"] = p.record.options;
    files.push_back({"module.cl", p.record.source.data(), p.record.source.size()});
  } else {
    // A program from IL as the application gave it; clref's build of a linked program or one compiled with headers.
    const std::vector<uint32_t>& words = p.record.kind == Kind::IL ? p.record.il : p.program->spirv();
    c["module"] = "module.spv";
    files.push_back({"module.spv", words.data(), words.size() * sizeof(uint32_t)});
  }
  c["kernel"] = p.name;
  auto sizes = [&](const std::array<size_t, 3>& s) {
    auto j = nlohmann::json::array();
    for (unsigned d = 0; d < p.range.dims; ++d) j.push_back(s[d]);
    return j;
  };
  c["ndrange"] = {{"global", sizes(p.range.global)}, {"offset", sizes(p.range.offset)}};
  if (p.range.local) c["ndrange"]["local"] = sizes(*p.range.local);
  for (const BufferArg& b : p.buffers) {
    const std::string n = std::to_string(b.arg);
    const numerics::ScalarType t = b.size % numerics::sizeOf(b.type) == 0 ? b.type : numerics::ScalarType::UChar;
    p.caseArgs[b.arg] = {{"buffer",
                          {{"type", std::string(numerics::toString(t))},
                           {"count", b.size / numerics::sizeOf(t)},
                           {"init", {{"file", "input" + n + ".bin"}}},
                           {"output", b.observed},
                           // clref check of this case alone judges as check-spool does: by the parameter's type.
                           {"judge_as_parameter", true}}}};
    files.push_back({"input" + n + ".bin", b.buffer->data(), b.size});
    if (!b.observed) continue;
    const std::vector<uint8_t>& output = outputOf(p, b.mem);
    files.push_back({"case.arg" + n + ".bin", output.data(), output.size()});
  }
  for (const ImageInput& in : p.imageInputs) {
    const std::string n = std::to_string(in.arg);
    p.caseArgs[in.arg] = {{"image", imageJson(in.desc, "input" + n + ".bin", in.written)}};
    files.push_back({"input" + n + ".bin", in.bytes.data(), in.bytes.size()});
  }
  for (const ImageArg& a : p.images) {
    const std::vector<uint8_t>& output = outputOf(p, a.mem);
    files.push_back({"case.arg" + std::to_string(a.arg) + ".bin", output.data(), output.size()});
  }
  c["args"] = p.caseArgs;
  if (!p.record.specConstants.empty()) {
    static const char* const types[] = {"", "uchar", "ushort", "", "uint", "", "", "", "ulong"};
    for (const auto& [id, value] : p.record.specConstants) {
      uint64_t v = 0;
      std::memcpy(&v, value.data(), value.size());  // little-endian, as the device's
      c["spec_constants"][std::to_string(id)] = {{"type", types[value.size()]}, {"value", v}};
    }
  }
  const Settings& s = settings();
  const host::DeviceConfig& d = p.facts.config;
  const nlohmann::json enqueue = {
      {"kernel", p.name},
      {"device",
       {{"address_bits", d.addressBits},
        {"fp16", d.fp16},
        {"fp64", d.fp64},
        {"max_work_group_size", d.maxWorkGroupSize},
        {"local_mem_size", d.localMemSize},
        {"max_mem_alloc_size", d.maxMemAllocSize},
        {"races", s.races}}},
      {"profile", p.facts.profile == numerics::Profile::Embedded ? "embedded" : "full"},
      {"build_options", p.checkedOptions},
      {"groups", s.groups},
      {"strict", s.strict}};
  spoolCase(c, enqueue, files);
}

// One enqueue's check, from its enqueue to its report: the checking thread takes them in enqueue order.
struct CheckJob {
  std::string kernel;
  std::string skipped;  // not checked, and why
  bool checked = false;  // prepare accepted it, and the kernel and its output reads were enqueued
  bool report = true;    // false: the enqueue failed, or the settings leave it out; nothing to say
  Pending pending;
  HeldEvents held;
  // Set by the callback of a barrier after the layer's reads and the kernel (under the checker's lock); null when
  // nothing is in flight, or when the barrier could not be enqueued (then `held` keeps the events to wait for).
  struct ReadsDone {
    bool done = false;
    cl_int status = CL_COMPLETE;
  }* completed = nullptr;
};

struct Checker {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<CheckJob> jobs;
  std::deque<CheckJob> abandoned;  // their reads may still write into their memory: kept, never freed
  bool started = false;
  bool busy = false;
  bool abandon = false;  // at exit: the commands of the first job have not completed for kExitPatience
  uint64_t finished = 0;
};
// Never destroyed: the checking thread and the platform's callbacks may use it while the process exits.
Checker& checker() {
  static Checker* c = new Checker;
  return *c;
}

// At exit, how long the layer waits for a kernel (and its reads) that does not complete, before it passes over it
// and those behind it: an application that exits without waiting for its commands.
constexpr auto kExitPatience = std::chrono::seconds(10);

void CL_CALLBACK onLayerReadsDone(cl_event, cl_int status, void* completed) {
  Checker& c = checker();
  std::lock_guard lock(c.mutex);
  static_cast<CheckJob::ReadsDone*>(completed)->done = true;
  static_cast<CheckJob::ReadsDone*>(completed)->status = status;
  c.changed.notify_all();
}

// After the layer's reads have completed: the verdicts (or the spooled case).
void judge(CheckJob& job) {
  Pending& p = job.pending;
  // The barrier terminates abnormally when the kernel or one of the layer's reads does.
  if (job.completed && job.completed->status != CL_COMPLETE) throw NotChecked{"the kernel did not complete on the device"};
  for (cl_event e : job.held.events()) {
    cl_int status = CL_COMPLETE;
    next().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (status != CL_COMPLETE) throw NotChecked{"the kernel did not complete on the device"};
  }
  std::lock_guard lock(clrefMutex);
  fillImages(p);
  if (settings().spoolDir.empty())
    finish(p);
  else
    spool(p);
}

void runJob(CheckJob& job) {
  if (!job.completed && !job.held.events().empty())
    next().clWaitForEvents(cl_uint(job.held.events().size()), job.held.events().data());
  if (job.report && job.checked) {
    try {
      judge(job);
    } catch (const NotChecked& n) { job.skipped = n.reason; } catch (const std::exception& e) {
      job.skipped = e.what();
    }
  }
  if (job.report && !job.skipped.empty()) reportNotChecked(job.kernel, job.skipped);
  std::lock_guard lock(clrefMutex);
  job.pending = Pending{};  // clref's objects, under its lock; the platform's (job.held) go with the job, outside it
}

void checkingThread() {
  Checker& c = checker();
  std::unique_lock lock(c.mutex);
  for (;;) {
    c.changed.wait(lock, [&] {
      return !c.jobs.empty() && (!c.jobs.front().completed || c.jobs.front().completed->done || c.abandon);
    });
    CheckJob job = std::move(c.jobs.front());
    c.jobs.pop_front();
    const bool ready = !job.completed || job.completed->done;
    c.busy = true;
    lock.unlock();
    if (ready) {
      runJob(job);
      delete job.completed;
      job.held.release();
    } else if (job.report) {
      reportNotChecked(job.kernel, "the application exited before the kernel completed");
    }
    lock.lock();
    if (!ready) c.abandoned.push_back(std::move(job));
    c.busy = false;
    ++c.finished;
    c.changed.notify_all();
  }
}

// At exit (and when the layer is unloaded): the checks of every kernel enqueued are reported first.
void drainChecks() {
  Checker& c = checker();
  std::unique_lock lock(c.mutex);
  uint64_t seen = c.finished;
  auto since = std::chrono::steady_clock::now();
  while (!c.jobs.empty() || c.busy) {
    c.changed.wait_for(lock, std::chrono::milliseconds(100));
    const auto now = std::chrono::steady_clock::now();
    if (c.finished != seen || c.busy) {
      seen = c.finished;
      since = now;
    } else if (now - since > kExitPatience) {
      if (c.abandon) break;  // no thread takes the jobs (a child process after fork has no checking thread)
      c.abandon = true;
      since = now;
      c.changed.notify_all();
    }
  }
}

void submit(CheckJob&& job) {
  Checker& c = checker();
  std::lock_guard lock(c.mutex);
  if (!c.started) {
    std::thread(checkingThread).detach();
    c.started = true;
    runAtExitBeforeStatics(drainChecks);
  }
  c.jobs.push_back(std::move(job));
  c.changed.notify_all();
}

bool outOfOrder(cl_command_queue queue) {
  cl_command_queue_properties props = 0;
  next().clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr);
  return (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

// The enqueue on the platform, with the check around it. `enqueue` makes the application's call with the wait list
// and event it is given.
using Enqueuer = std::function<cl_int(cl_uint, const cl_event*, cl_event*)>;
cl_int checkedEnqueue(cl_command_queue queue, cl_kernel k, cl_uint dims, const size_t* offset, const size_t* global,
                      const size_t* local, cl_uint nWaits, const cl_event* waits, cl_event* event,
                      const Enqueuer& enqueue) {
  CheckJob job;
  job.kernel = kernelName(k);
  try {
    std::lock_guard lock(clrefMutex);
    job.checked = prepare(job.pending, job.held, queue, k, dims, offset, global, local, nWaits, waits);
    job.report = job.checked;
  } catch (const NotChecked& n) { job.skipped = n.reason; } catch (const std::exception& e) {
    job.skipped = e.what();
  }
  if (!job.skipped.empty()) job.checked = false;
  // An out-of-order queue runs the kernel after the snapshot's reads too: they read its inputs before it may write
  // them. An in-order queue runs them first anyway, and gets the application's wait list unchanged.
  std::vector<cl_event> waitList;
  if (job.checked && !job.held.events().empty() && outOfOrder(queue)) {
    waitList.assign(waits, waits + nWaits);
    waitList.insert(waitList.end(), job.held.events().begin(), job.held.events().end());
  }
  cl_event own = nullptr;
  const cl_int r = waitList.empty() ? enqueue(nWaits, waits, event || job.checked ? &own : nullptr)
                                    : enqueue(cl_uint(waitList.size()), waitList.data(), &own);
  if (event) *event = own;
  if (r != CL_SUCCESS) {
    job.checked = job.report = false;
  } else if (job.checked) {
    next().clRetainEvent(own);
    job.held.adopt(own);
    try {
      readOutputs(job.pending, job.held, queue, own);
    } catch (const NotChecked& n) { job.skipped = n.reason; }
  }
  if (!job.skipped.empty()) job.checked = false;
  if (!job.skipped.empty() && r == CL_SUCCESS) job.report = true;
  if (!event && own) next().clReleaseEvent(own);
  // One event after all of the layer's commands, whose completion wakes the checking thread; as a barrier it holds the
  // queue's later commands until the outputs are read. The layer's events are released here, by the enqueuing thread:
  // once the application has waited for its commands and released its objects, they are gone, with their callbacks
  // called, as without the layer.
  if (!job.held.events().empty()) {
    cl_event done = nullptr;
    if (next().clEnqueueBarrierWithWaitList(queue, cl_uint(job.held.events().size()), job.held.events().data(),
                                            &done) == CL_SUCCESS) {
      job.completed = new CheckJob::ReadsDone;
      if (next().clSetEventCallback(done, CL_COMPLETE, onLayerReadsDone, job.completed) == CL_SUCCESS) {
        job.held.release();
      } else {
        delete job.completed;
        job.completed = nullptr;
      }
      next().clReleaseEvent(done);
    }
  }
  if (!job.report && !job.completed && job.held.events().empty()) {
    std::lock_guard lock(clrefMutex);
    job.pending = Pending{};
    return r;
  }
  submit(std::move(job));
  return r;
}

cl_int CL_API_CALL enqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                        const size_t* global_work_offset, const size_t* global_work_size,
                                        const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
  return checkedEnqueue(queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                        num_events_in_wait_list, event_wait_list, event,
                        [&](cl_uint nWaits, const cl_event* waits, cl_event* e) {
                          return next().clEnqueueNDRangeKernel(queue, kernel, work_dim, global_work_offset,
                                                               global_work_size, local_work_size, nWaits, waits, e);
                        });
}

// OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueTask: work_dim 1, global and local size 1.
cl_int CL_API_CALL enqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event) {
  const size_t one = 1;
  return checkedEnqueue(
      queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list, event_wait_list, event,
      [&](cl_uint nWaits, const cl_event* waits, cl_event* e) {
        return next().clEnqueueTask(queue, kernel, nWaits, waits, e);
      });
}

}  // namespace

void interceptEnqueues(cl_icd_dispatch& t) {
  t.clEnqueueNDRangeKernel = enqueueNDRangeKernel;
  t.clEnqueueTask = enqueueTask;
}

// ---- kernel commands of command buffers (command_buffer_check.hpp) --------------------------------------------------
namespace {
// The kernel commands recorded for a check: the prepared enqueue and its buffer arguments' memory objects as recorded
// (judgeKernelCommand points the arguments at the layer's copies of them for each run). Under clrefMutex.
struct RecordedCommandCheck {
  Pending pending;
  std::vector<cl_mem> recordedMems;  // p.buffers[i]'s memory object at record time
};
std::map<uint64_t, RecordedCommandCheck> recordedCommandChecks;
uint64_t lastRecordedCommandCheck = 0;

// The plain enqueues' checks submitted before a command buffer completed are reported before its kernels, as the
// report is in enqueue order; bounded, since an earlier kernel may wait for what the application does next.
void awaitEarlierChecks() {
  Checker& c = checker();
  std::unique_lock lock(c.mutex);
  c.changed.wait_for(lock, kExitPatience, [&] { return c.jobs.empty() && !c.busy; });
}
}  // namespace

std::optional<RecordedKernel> recordKernelCommand(cl_command_queue queue, cl_kernel k, cl_uint dims,
                                                  const size_t* offset, const size_t* global, const size_t* local) {
  RecordedKernel r;
  std::lock_guard lock(clrefMutex);
  try {
    Pending p;
    HeldEvents held;  // stays empty: nothing is read while recording
    if (!prepare(p, held, queue, k, dims, offset, global, local, 0, nullptr, true)) return std::nullopt;
    r.name = p.name;
    // One copy per memory object: arguments that share memory through sub-buffers would each get their own copy,
    // and clref would not see one argument's writes through the other.
    std::map<cl_mem, std::pair<cl_mem, size_t>> rootOf;  // memory object → its root and its first argument
    std::vector<cl_mem> mems;
    for (const BufferArg& b : p.buffers) {
      mems.push_back(b.mem);
      if (rootOf.count(b.mem)) continue;
      const cl_mem parent = memInfo<cl_mem>(b.mem, CL_MEM_ASSOCIATED_MEMOBJECT);
      const cl_mem root = parent ? parent : b.mem;
      for (const auto& [m, other] : rootOf)
        if (other.first == root)
          throw NotChecked{"arguments " + std::to_string(other.second) + " and " + std::to_string(b.arg) +
                           " share memory (sub-buffers of one buffer) in a command buffer"};
      rootOf[b.mem] = {root, b.arg};
      r.buffers.push_back({b.mem, b.size});
    }
    r.id = ++lastRecordedCommandCheck;
    recordedCommandChecks.emplace(r.id, RecordedCommandCheck{std::move(p), std::move(mems)});
  } catch (const NotChecked& n) {
    r.reason = n.reason;
  } catch (const std::exception& e) { r.reason = e.what(); }
  if (r.id == 0) {
    r.buffers.clear();
    if (r.name.empty()) r.name = kernelName(k);
  }
  return r;
}

void judgeKernelCommand(uint64_t id, cl_command_queue queue, const std::map<cl_mem, BufferCopies>& copies,
                        cl_event done) {
  awaitEarlierChecks();
  std::string skipped, name;
  HeldEvents held;
  Pending* pending = nullptr;
  try {
    {
      // The reads of the layer's copies, enqueued under the lock on clref's objects and waited for outside it.
      std::lock_guard lock(clrefMutex);
      auto it = recordedCommandChecks.find(id);
      if (it == recordedCommandChecks.end()) return;
      pending = &it->second.pending;
      Pending& p = *pending;
      name = p.name;
      p.outputs.clear();  // the previous run's
      auto copiesOf = [&](size_t i) -> const BufferCopies& {
        auto c = copies.find(it->second.recordedMems[i]);
        if (c == copies.end()) throw NotChecked{"the layer has no copy of a buffer argument"};
        return c->second;
      };
      for (size_t i = 0; i < p.buffers.size(); ++i) p.buffers[i].mem = copiesOf(i).before;
      snapshotBuffers(p, held, queue, 1, &done);
      for (size_t i = 0; i < p.buffers.size(); ++i) {
        p.kernel->setArg(p.buffers[i].arg, p.buffers[i].buffer);
        p.buffers[i].mem = copiesOf(i).after;
        p.buffers[i].root = p.buffers[i].mem;  // each copy is a buffer of its own
      }
      readOutputs(p, held, queue, done);
    }
    if (!held.events().empty() &&
        next().clWaitForEvents(cl_uint(held.events().size()), held.events().data()) != CL_SUCCESS)
      throw NotChecked{"the layer's reads of its copies did not complete"};
    std::lock_guard lock(clrefMutex);
    if (settings().spoolDir.empty())
      finish(*pending);
    else
      spool(*pending);
  } catch (const NotChecked& n) { skipped = n.reason; } catch (const std::exception& e) {
    skipped = e.what();
  }
  if (!skipped.empty()) reportNotChecked(name, skipped);
}

void forgetKernelCommand(uint64_t id) {
  std::lock_guard lock(clrefMutex);
  recordedCommandChecks.erase(id);
}

}  // namespace clref::layer
