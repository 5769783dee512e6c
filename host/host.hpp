// clref::host — the small synchronous C++ host API: a Device, Buffers, Programs from SPIR-V
// or OpenCL C, Kernels with arguments, and run(kernel, ndrange). In-order and synchronous: when
// run() returns, every buffer holds the kernel's results.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/opencl_c.hpp"
#include "compiler/shader_source.hpp"
#include "images/image.hpp"
#include "images/sampler.hpp"
#include "interpreter/diagnostic.hpp"
#include "numerics/choices.hpp"
#include "numerics/format.hpp"

namespace clref::interpreter {
class Module;
struct LoweredKernel;
struct GlobalStorage;
struct ShadowRun;
class ExecutionObserver;
class Pipe;
}  // namespace clref::interpreter

namespace clref::host {

// Misuse of the host API (bad argument index, wrong size, unknown kernel, ...).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// CL_DEVICE_MAX_MEM_ALLOC_SIZE of the reference device (OpenCL 3.0 API §4.2 [[platform-querying-devices]]: at least
// max(1/4 of CL_DEVICE_GLOBAL_MEM_SIZE, 128 MiB)); DeviceConfig::maxMemAllocSize's default.
inline constexpr uint64_t kDefaultMaxMemAllocSize = uint64_t(1) << 28;
// CL_DEVICE_LOCAL_MEM_SIZE of the reference device (§4.2 [[platform-querying-devices]]: at least 32 KB);
// DeviceConfig::localMemSize's default.
inline constexpr uint64_t kDefaultLocalMemSize = 64 * 1024;
// The bounds on program-scope variables the interpreter enforces (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE for one variable,
// CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE for all of a program's); kernel.cpp checks they are the interpreter's.
inline constexpr uint64_t kMaxGlobalVariableSize = uint64_t(256) << 20;
inline constexpr uint64_t kMaxGlobalVariableTotalSize = uint64_t(1) << 30;
// The device queue limits (OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
// _MAX_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS); device.cpp checks they are the
// interpreter's.
inline constexpr uint64_t kDeviceQueuePreferredSize = uint64_t(256) << 10;
inline constexpr uint64_t kDeviceQueueMaxSize = uint64_t(16) << 20;
inline constexpr uint32_t kMaxOnDeviceQueues = 4;
// The subgroup sizes a compute shader may run with (DeviceConfig::subgroupSize): the powers of two in this range, as
// Vulkan's minSubgroupSize and maxSubgroupSize (kernel.cpp checks they are the interpreter's).
inline constexpr uint32_t kMinShaderSubgroupSize = 4, kMaxShaderSubgroupSize = 128;
// CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR (cl_khr_subgroup_named_barrier): the interpreter's bound.
inline constexpr uint32_t kMaxNamedBarriers = 8;
inline constexpr uint32_t kMaxOnDeviceEvents = 1024;

struct DeviceConfig {
  unsigned addressBits = 64;  // 32 or 64: must match the module's addressing model
  bool fp16 = true;
  bool fp64 = true;
  numerics::Denorm denormHalf = numerics::Denorm::Preserve;
  numerics::Denorm denormFloat = numerics::Denorm::Preserve;
  numerics::Denorm denormDouble = numerics::Denorm::Preserve;
  uint64_t instructionBudget = uint64_t(1) << 32;  // per work-item; exceeding it is a fault
  unsigned threads = 0;                            // 0: all hardware threads
  size_t maxWorkGroupSize = 1024;
  uint32_t subgroupSize = 32;                          // sub-groups: consecutive local linear ids, this many each
  uint64_t maxMemAllocSize = kDefaultMaxMemAllocSize;  // the largest buffer a client should create
  uint64_t localMemSize = kDefaultLocalMemSize;        // a work-group's __local variables and local arguments together
  numerics::Choices choices;
  // The optional checkers (interpreter/checks/: data races, uninitialised values) every run performs, and whether a
  // finding fails the run as a fault does (RunResult::ok).
  interpreter::CheckSet checks;
  bool checksFatal = true;
  // A wrong device, for testing tools that judge devices (the check layer, `clref check`): when nonzero, after every
  // run() element i of each buffer and image the kernel may write, for i a multiple of this, is changed beyond any
  // allowed bound (planted_errors.hpp). The ICD reads it from CLREF_PLANT_ERRORS.
  uint64_t plantErrors = 0;
  // Device-side enqueue (OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]], the feature __opencl_c_device_enqueue): kernels
  // enqueue kernels to device queues (DeviceQueue). Off: the feature is not reported, modules declaring DeviceEnqueue
  // are refused, and the device has no default queue.
  bool deviceEnqueue = true;
  // enqueue_kernel and enqueue_marker return the precise CLK_* error instead of CLK_ENQUEUE_FAILURE: the program was
  // built with -g (OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]; the OpenCL API sets it per
  // program from its build options).
  bool enqueueErrorCodes = false;
  // Called after each work-group of a run finishes, with the groups finished and the groups the run has: from the
  // worker threads, concurrently, so it must be thread-safe and quick (interpreter ExecConfig::progress). For
  // progress lines; empty: none.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// The OpenCL C extensions and optional features (OpenCL C 3.0 §6.2.1 [[features]] feature macros) a device
// with this configuration executes: the macros the OpenCL C compiler defines (and no others),
// and what the OpenCL API reports.
std::vector<std::string> openCLCExtensions(const DeviceConfig& config);
std::vector<std::string> openCLCFeatures(const DeviceConfig& config);

// cl_khr_spirv_queries: the extended instruction sets, SPIR-V extensions and capabilities (their token values) a
// kernel module may declare on a device of this configuration reporting `deviceExtensions` (host/spirv_queries.cpp).
struct SpirvQueries {
  std::vector<std::string> extendedInstructionSets, extensions;
  std::vector<uint32_t> capabilities;
};
SpirvQueries spirvQueries(const DeviceConfig& config, const std::vector<std::string>& deviceExtensions);

class DeviceQueue;

class Device {
 public:
  explicit Device(DeviceConfig config = {});
  const DeviceConfig& config() const { return config_; }
  DeviceConfig& config() { return config_; }
  // The device's default device queue (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_ON_DEVICE_DEFAULT,
  // clSetDefaultDeviceCommandQueue replaces it): what get_default_queue returns in the kernels of its programs; null:
  // none (CLK_NULL_QUEUE). Copies of a Device (each Program keeps one) share it, so a replacement reaches programs
  // built before it. setDefaultQueue throws Error when the device has deviceEnqueue off.
  std::shared_ptr<DeviceQueue> defaultQueue() const { return *defaultQueue_; }
  void setDefaultQueue(std::shared_ptr<DeviceQueue> queue);

 private:
  DeviceConfig config_;
  std::shared_ptr<std::shared_ptr<DeviceQueue>> defaultQueue_ = std::make_shared<std::shared_ptr<DeviceQueue>>();
};

// A device queue (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_ON_DEVICE): what a kernel's enqueue_kernel enqueues
// to, as a queue_t argument or the device's default queue. The kernels a kernel enqueues run inside the same run(),
// after the parent's work-groups (interpreter/executor.hpp), so the host's queue is an identity, a size and a
// profiling flag; no host command runs on it.
class DeviceQueue {
 public:
  // A queue of `size` bytes (CL_QUEUE_SIZE); throws Error when it is larger than kDeviceQueueMaxSize
  // (CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE). `profiling`: CL_QUEUE_PROFILING_ENABLE (capture_event_profiling_info).
  explicit DeviceQueue(uint64_t size = kDeviceQueuePreferredSize, bool profiling = false);
  uint64_t id() const { return id_; }  // distinct for every DeviceQueue of the process
  uint64_t size() const { return size_; }
  bool profiling() const { return profiling_; }

 private:
  uint64_t id_;
  uint64_t size_;
  bool profiling_;
};

// Device memory: a byte array the kernels address as a CrossWorkgroup allocation.
class Buffer {
 public:
  explicit Buffer(size_t bytes);
  Buffer(const void* data, size_t bytes);
  // A buffer over memory it does not own: `bytes` bytes at `base`, kept valid by `owner` (may be
  // null when the caller guarantees the lifetime). Used by the OpenCL API for CL_MEM_USE_HOST_PTR
  // (OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]) and for sub-buffers (§5.2.1 [[_creating_buffer_objects]]
  // clCreateSubBuffer: a view of the parent).
  static std::shared_ptr<Buffer> view(std::byte* base, size_t bytes, std::shared_ptr<const void> owner = nullptr);
  // A view of bytes [offset, offset + bytes) of `parent`; throws Error when out of range.
  static std::shared_ptr<Buffer> subBuffer(std::shared_ptr<Buffer> parent, size_t offset, size_t bytes);
  // Copies own a copy of the bytes (of a view too); moves keep the storage.
  Buffer(const Buffer& o) : data_(o.base_, o.base_ + o.size_), base_(data_.data()), size_(o.size_) {}
  Buffer& operator=(const Buffer& o) {
    if (this != &o) {
      data_.assign(o.base_, o.base_ + o.size_);
      base_ = data_.data();
      size_ = o.size_;
      owner_.reset();
    }
    return *this;
  }
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(Buffer&&) noexcept = default;
  size_t size() const { return size_; }
  std::byte* data() { return base_; }
  const std::byte* data() const { return base_; }
  template <class T> std::span<T> as() { return {reinterpret_cast<T*>(base_), size_ / sizeof(T)}; }
  template <class T> std::span<const T> as() const { return {reinterpret_cast<const T*>(base_), size_ / sizeof(T)}; }

  // For the uninitialised-value checker (DeviceConfig::checks): a buffer whose contents nothing has written yet (the
  // OpenCL API's clCreateBuffer without host data, OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]]). Kernels
  // that read its bytes before anything wrote them read uninitialised values. markWritten records a write by the
  // host; kernels' writes are recorded by their runs. A sub-buffer shares its parent's record.
  void markUninitialised();
  void markWritten(size_t offset, size_t bytes);
  // Per byte, nonzero where never written; nullptr when the buffer is not tracked (all its bytes count as written).
  uint8_t* neverWritten() { return neverWritten_ ? neverWritten_->data() + neverWrittenOffset_ : nullptr; }

 private:
  Buffer() = default;
  std::vector<std::byte> data_;  // owned storage (empty for views)
  std::byte* base_ = nullptr;    // data_.data() or the viewed memory
  size_t size_ = 0;
  std::shared_ptr<const void> owner_;  // keeps a view's memory alive
  std::shared_ptr<std::vector<uint8_t>> neverWritten_;  // markUninitialised's record (a sub-buffer: its parent's)
  size_t neverWrittenOffset_ = 0;
};

// Image memory (OpenCL 3.0 API §5.3 [[_image_objects]]): every image type, with row and slice pitches and mip levels
// (cl_khr_mipmap_image). The storage is owned (tightly packed unless the desc gives pitches), or, for a 1D buffer
// image and a 2D image from a buffer (cl_khr_image2d_from_buffer), the buffer's memory, shared with it.
class Image {
 public:
  // A zero-filled image; the desc is completed by images::makeDesc. Throws Error (naming the field) for a desc
  // makeDesc rejects, or more bytes than the device's address space can hold.
  explicit Image(const images::ImageDesc& desc);
  // An image over `buffer`'s bytes (desc.type Image1DBuffer, or Image2D from a buffer with desc.rowPitch); throws
  // Error when the buffer is too small for the desc.
  static std::shared_ptr<Image> fromBuffer(std::shared_ptr<Buffer> buffer, const images::ImageDesc& desc);
  // An image of any type whose storage is `memory`'s bytes, laid out with the desc's pitches (one mip level): the
  // OpenCL API's CL_MEM_USE_HOST_PTR images. Throws Error when the memory is too small.
  static std::shared_ptr<Image> over(std::shared_ptr<Buffer> memory, const images::ImageDesc& desc);
  // A 2D image sharing `image`'s elements, read in another format of the same element size (OpenCL 3.0 API §5.3.1.2
  // [[image-descriptor]]: a 2D image created from a 2D image views its pixels with a different channel order, e.g.
  // CL_sRGBA over CL_RGBA). Throws Error for another type or element size.
  static std::shared_ptr<Image> withFormat(std::shared_ptr<Image> image, images::ImageFormat format);
  Image(const Image&) = delete;  // the view points into the storage: copies would share or dangle
  Image& operator=(const Image&) = delete;

  const images::ImageDesc& desc() const { return view_.desc; }
  const images::ImageView& view() const { return view_; }
  std::byte* data() { return reinterpret_cast<std::byte*>(view_.data); }
  const std::byte* data() const { return reinterpret_cast<const std::byte*>(view_.data); }
  size_t size() const { return size_t(view_.bytes); }

  // Copies a region of mip level `level` between the image and host memory laid out with `rowPitch` and
  // `slicePitch` (0: tightly packed), as clEnqueueWriteImage / clEnqueueReadImage do (OpenCL 3.0 API §5.3.4
  // [[_reading_writing_and_copying_image_objects]]). origin and region are in elements (for a 1D array, origin[1] is
  // the layer; for a 2D array, origin[2]). Throws Error when the region is outside the level.
  void write(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region, const void* src,
             size_t rowPitch = 0, size_t slicePitch = 0, uint32_t level = 0);
  void read(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region, void* dst, size_t rowPitch = 0,
            size_t slicePitch = 0, uint32_t level = 0) const;
  // Elements of mip level `level` in the coordinates of write's origin: (width, height or layers, depth or layers).
  std::array<uint64_t, 3> extent(uint32_t level = 0) const;
  // Byte offset in data() of the element at `pos` (in the coordinates of write's origin) of mip level `level`; throws
  // Error when it is outside the level.
  uint64_t elementOffset(const std::array<size_t, 3>& pos, uint32_t level = 0) const;
  // Bytes of every element tightly packed, mip level after level (x fastest, then y, then z): what
  // clEnqueueReadImage gives level by level with zero pitches (host::ObservedImage's layout).
  uint64_t packedSize() const;
  // Every element in that packed order: fn(index, (x, y, z) as write's origin takes them, level, the element's bytes).
  void forEachElement(
      const std::function<void(uint64_t, const std::array<uint64_t, 3>&, uint32_t, uint8_t*)>& fn) const;

 private:
  Image() = default;
  struct Region {
    uint64_t offset, rowPitch, slicePitch;  // the level's layout
  };
  Region checkedRegion(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region,
                       uint32_t level) const;
  std::vector<uint8_t> storage_;       // owned storage (empty for buffer-backed images)
  std::shared_ptr<Buffer> buffer_;     // buffer-backed images: keeps the memory alive
  std::shared_ptr<Image> parent_;      // an image viewed in another format (withFormat): keeps it alive
  images::ImageView view_;
};

// A sampler object is its descriptor (OpenCL 3.0 API §5.7 [[_sampler_objects]]).
using Sampler = images::Sampler;

// Queue: a queue_t argument (a DeviceQueue).
enum class ArgKind : uint8_t { Buffer, Local, Value, Image, Sampler, Pipe, Queue };

// A pipe (OpenCL 3.0 API §5.4 [[_pipes]]): at most maxPackets packets of packetSize bytes in FIFO order, written and
// read by kernels (interpreter/pipe.hpp); the host has no access to its contents. The packets stay from one launch
// to the next.
class Pipe {
 public:
  Pipe(uint32_t packetSize, uint32_t maxPackets);
  ~Pipe();
  uint32_t packetSize() const;
  uint32_t maxPackets() const;
  uint32_t numPackets() const;  // the packets a kernel could read now
  interpreter::Pipe& state() { return *state_; }

 private:
  std::unique_ptr<interpreter::Pipe> state_;
};

struct KernelArgInfo {
  std::string name;      // OpName of the parameter, when present
  std::string typeName;  // e.g. "global float*", "int", "struct", "local int*", "read_only image2d_t"
  ArgKind kind = ArgKind::Value;
  size_t size = 0;  // Value: bytes of the by-value argument
  // Image: the type the kernel declares and its access qualifier (read_only, write_only, read_write).
  images::ImageType imageType = images::ImageType::Image2D;
  bool depth = false;
  enum class Access : uint8_t { ReadOnly, WriteOnly, ReadWrite } access = Access::ReadOnly;
  // Buffer: the module says the kernel never writes through the pointer (FuncParamAttr NoWrite).
  bool noWrite = false;
  // Buffer of structs or arrays: the scalars of one element (byte offset, bytes, floating point or not) and the
  // element's size; empty for a pointer to a scalar or vector type.
  struct Field {
    uint32_t offset = 0;
    uint8_t bytes = 0;
    bool isFloat = false;
  };
  std::vector<Field> pointeeFields;
  uint64_t pointeeSize = 0;
  // A Vulkan compute shader's argument is one of its resources (Vulkan §15.1 [external] Shader Resource Declarations,
  // Vulkan §15.9 [external] Push Constants): a storage or uniform buffer at a descriptor set and binding, or its
  // push-constant block, each set with setArg(i, buffer) (Kernel::resourceArg finds i). None for an OpenCL kernel's
  // argument.
  enum class Resource : uint8_t { None, StorageBuffer, UniformBuffer, PushConstant } resource = Resource::None;
  uint32_t descriptorSet = 0;
  uint32_t binding = 0;
  // A binding whose variable is an array of blocks has descriptorCount descriptors (Vulkan §15.1 [external]), one
  // argument each: this one is element arrayElement. descriptorCount is 0 for a binding that is not an array.
  uint32_t arrayElement = 0;
  uint32_t descriptorCount = 0;
};

// What the OpenCL API asks of a SPIR-V module without running it. Shares the module it describes.
class ModuleInfo {
 public:
  // Parses without validating; throws interpreter::ModuleError (with the parser's diagnostic)
  // when the words are not a SPIR-V module.
  static ModuleInfo parse(std::vector<uint32_t> words);

  std::vector<std::string> kernelNames() const;
  // Whether the module is a Vulkan compute shader module (the GLSL450 or Vulkan memory model), which the OpenCL API
  // does not take.
  bool isVulkanShader() const;
  // Whether a function is imported (LinkageAttributes Import): a compiled object, not an executable.
  bool importsFunctions() const;
  // Bytes of the OpSpecConstant* with SpecId `specId` (a bool is 1 byte); none when there is none.
  std::optional<size_t> specConstantSize(uint32_t specId) const;
  // Bytes of the module-scope CrossWorkgroup variables, each at its alignment.
  size_t globalVariableBytes() const;
  // Bytes of the module-scope Workgroup (__local) variables the kernel's call graph references.
  uint64_t staticLocalBytes(const std::string& kernel) const;
  // The kernel's LocalSize execution mode (reqd_work_group_size), when it has one.
  std::optional<std::array<uint32_t, 3>> requiredLocalSize(const std::string& kernel) const;
  // The MaxByteOffset decoration (SPIR-V 1.1 §3.20 [external]) of the kernel's parameter `arg`, when present.
  std::optional<uint64_t> maxByteOffset(const std::string& kernel, size_t arg) const;

 private:
  explicit ModuleInfo(std::shared_ptr<const interpreter::Module> module) : module_(std::move(module)) {}
  friend class Program;
  std::shared_ptr<const interpreter::Module> module_;
};

// OpenCL C for the compiler (compiler/opencl_c.hpp): the source, its clang options and headers.
using OpenCLCSource = compiler::OpenCLCSource;

// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options, and §5.8.7 [[linker-options]] linker options: the
// options clBuildProgram (Build), clCompileProgram (Compile) and clLinkProgram (Link) accept, parsed once for the
// OpenCL API and the clref tool's case files.
struct BuildOptions {
  std::vector<std::string> compiler;  // for the OpenCL C compiler (OpenCLCSource::options)
  bool denormsAreZero = false;        // -cl-denorms-are-zero
  bool uniform = false;               // -cl-uniform-work-group-size
  bool clStd20 = false;               // -cl-std=CL2.0 or CL3.0 (OpenCL C 2.0 or newer)
  bool argInfo = false;               // -cl-kernel-arg-info
  bool createLibrary = false;         // -create-library
  bool debug = false;                 // -g
  std::string rejected;               // after a failed parse: the option that is not accepted
};
enum class BuildStep : uint8_t { Build, Compile, Link };
// Parses `text` (may be null; words split at white space except inside double quotes, which are removed) for
// `step`, adding to `o`. Returns false at the first option the spec does not define for this step, or that needs an
// argument it lacks (-D, -I), naming it in o.rejected. `alsoAccept` are further single-word options passed to the
// compiler as they are.
bool parseBuildOptions(const char* text, BuildStep step, BuildOptions& o,
                       std::initializer_list<std::string_view> alsoAccept = {});

// The words of a SPIR-V module file (a regular file); throws Error, or interpreter::ModuleError for a size that is
// not whole words.
std::vector<uint32_t> readSpirvFile(const std::string& path);

// OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clLinkProgram: SPIR-V modules linked with
// SPIRV-Tools' linker, which resolves Import/Export LinkageAttributes across them (module_link.cpp). The modules
// linked into an executable, or into a library with `createLibrary`; none when the link fails, with the linker's
// messages in `log`.
std::optional<std::vector<uint32_t>> linkModules(std::vector<std::vector<uint32_t>> modules, bool createLibrary,
                                                 std::string& log);

// A source file a module's OpLine instructions cite under another name (compiler/opencl_c.hpp).
using SourceName = compiler::SourceName;

class Program {
 public:
  // Loads and validates a SPIR-V module; throws interpreter::ModuleError on rejection. `sourceNames`: see SourceName
  // (the OpenCL API keeps those of a program it compiled for the executable it builds from the words).
  static std::shared_ptr<Program> fromSpirv(const Device& device, std::vector<uint32_t> words,
                                            const std::vector<SourceName>& sourceNames = {});
  static std::shared_ptr<Program> fromSpirvFile(const Device& device, const std::string& path);
  // Compiles OpenCL C with clang and llvm-spirv (openCLCCompilerAvailable says which); throws
  // Error with the compiler's messages. `options` are split at white space.
  static std::shared_ptr<Program> fromOpenCLC(const Device& device, const std::string& source,
                                              const std::string& options = "-cl-std=CL1.2");
  static std::shared_ptr<Program> fromOpenCLC(const Device& device, const OpenCLCSource& source);
  // A Vulkan compute shader (compiler/shader_source.hpp): GLSL, HLSL or SPIR-V assembly compiled in process, then
  // loaded as fromSpirv loads a module (validated in the Vulkan environment). `name` is what diagnostics call the
  // source. Throws Error with the compiler's messages; interpreter::ModuleError when the module is refused.
  static std::shared_ptr<Program> fromShader(const Device& device, compiler::ShaderLanguage language,
                                             const std::string& source, const std::string& name = "shader",
                                             const compiler::ShaderOptions& options = {});
  static std::shared_ptr<Program> fromGlsl(const Device& device, const std::string& source,
                                           const compiler::ShaderOptions& options = {}) {
    return fromShader(device, compiler::ShaderLanguage::Glsl, source, "shader", options);
  }
  static std::shared_ptr<Program> fromHlsl(const Device& device, const std::string& source,
                                           const compiler::ShaderOptions& options = {}) {
    return fromShader(device, compiler::ShaderLanguage::Hlsl, source, "shader", options);
  }
  // Whether the OpenCL C compiler runs, as the environment is now: clang and llvm-spirv are
  // CLREF_CLANG / CLREF_LLVM_SPIRV when set, else the ones the build found, else clang-15 and
  // llvm-spirv-15 on PATH (compiler/opencl_c.hpp).
  static bool openCLCCompilerAvailable();

  const interpreter::Module& module() const { return *module_; }
  // The source files of a program compiled from OpenCL C (fromOpenCLC), for fromSpirv of its words.
  const std::vector<SourceName>& sourceNames() const { return sourceNames_; }
  ModuleInfo info() const { return ModuleInfo(module_); }
  const std::vector<uint32_t>& spirv() const;  // the module's words
  std::vector<std::string> kernelNames() const;
  // OpSpecConstant* with SpecId `id` (OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]]
  // clSetProgramSpecializationConstant).
  void setSpecConstant(uint32_t id, const void* value, size_t size);
  const Device& device() const { return device_; }

  ~Program();

 private:
  Program(const Device& device, std::shared_ptr<const interpreter::Module> module);
  // A loaded module as a program of this device, once the device's support is checked.
  static std::shared_ptr<Program> fromModule(const Device& device, interpreter::Module module);
  friend class Kernel;
  std::vector<SourceName> sourceNames_;
  Device device_;
  std::shared_ptr<const interpreter::Module> module_;
  std::shared_ptr<interpreter::GlobalStorage> globals_;  // program-scope variables
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstants_;
  uint64_t specVersion_ = 0;
};

struct NDRange {
  unsigned dims = 1;
  std::array<size_t, 3> offset{0, 0, 0};
  std::array<size_t, 3> global{1, 1, 1};
  std::optional<std::array<size_t, 3>> local;  // none: DefaultLocalSize choice
};

// An NDRange the device cannot launch: a size or offset beyond the device's size_t (CL_DEVICE_ADDRESS_BITS), a
// product of sizes that overflows it, a work-group larger than maxWorkGroupSize. `field` says which of the NDRange's
// fields is wrong, for callers that map it onto their own errors (the OpenCL API onto its error codes, a case file
// onto its field names).
class NDRangeError : public Error {
 public:
  enum class Field : uint8_t { Dims, Global, Offset, Local };
  NDRangeError(Field field, const std::string& message) : Error(message), field(field) {}
  Field field;
};

// Checks what can be checked of `range` without a kernel: dims is 1, 2 or 3; in the dimensions used, each global
// size, each offset + global size and the product of the global sizes (the number of work-items) fit the device's
// size_t; when a local size is given, the product of the local sizes (the work-group size) does not exceed
// maxWorkGroupSize. Zero sizes are not checked here (the OpenCL API launches nothing for a zero global size; run()
// rejects them). Throws NDRangeError.
void checkNDRange(const NDRange& range, const DeviceConfig& config);

struct RunResult {
  bool ok = true;  // false when a fault aborted the NDRange, or a checker found something and findings are fatal
  std::optional<interpreter::Diagnostic> fault;   // the fault (lowest work-group first)
  std::vector<interpreter::Diagnostic> warnings;  // unspecified-value warnings (capped)
  uint64_t warningCount = 0;                      // all warnings, including those not kept
  std::array<size_t, 3> localSize{1, 1, 1};       // the work-group size used
  uint64_t workItems = 0;
  std::string printfOutput;  // everything the kernel printed, in work-group order
  // The named choices that decided values (numerics/choices.hpp), in registry order: how many times, and the first
  // (instruction, work-item, source line). Count 0: a choice that may decide unseen (uninitialised memory, OpUndef).
  std::vector<interpreter::ChoiceUse> choicesUsed;
  std::vector<interpreter::Finding> findings;  // of DeviceConfig::checks, in the order first seen
};

// Shared virtual memory (OpenCL 3.0 API §5.6 [[_shared_virtual_memory]]): memory whose host address is the pointer
// value kernels use, so that data structures holding pointers are shared as they are (interpreter/svm.hpp: one
// reserved address range, a guard page after each allocation, addresses never reused). A kernel's access is checked
// against the allocation it points into, as a buffer's is.
namespace svm {
// Zero-filled memory of `bytes` bytes aligned to `alignment` (a power of two up to 4096); nullptr when bytes is 0,
// the alignment is not supported, or the range is used up or could not be reserved. A kernel's write to memory
// allocated `kernelReadOnly` (CL_MEM_READ_ONLY) is undefined: a fault, or with the choice svm_read_only_write=write the
// write happens with a warning.
void* allocate(size_t bytes, size_t alignment, bool kernelReadOnly = false);
// Frees what allocate returned; false when `p` is not the start of a live SVM allocation (nothing happens).
bool free(void* p);
struct Allocation {
  void* base = nullptr;
  size_t size = 0;
};
// The live SVM allocation that holds [p, p + bytes), or nullopt.
std::optional<Allocation> allocationHolding(const void* p, size_t bytes);
// True when p is in the address range SVM allocations are made in (live, freed, or between them), once an
// allocation has reserved that range.
bool inRange(const void* p);
}  // namespace svm

class Kernel {
 public:
  Kernel(std::shared_ptr<Program> program, const std::string& name);
  ~Kernel();
  Kernel(Kernel&&) noexcept;

  const std::string& name() const { return name_; }
  size_t argCount() const { return args_.size(); }
  const KernelArgInfo& argInfo(size_t i) const;

  void setArg(size_t i, std::shared_ptr<Buffer> buffer);       // global/constant pointer argument
  void setArgNull(size_t i);                                   // a NULL global pointer
  // A global/constant pointer argument that is an SVM pointer (svm::allocate; any address in or past an SVM
  // allocation; nullptr is a NULL pointer). Needs a 64-bit module.
  void setArgSvm(size_t i, const void* pointer);
  void setArgLocal(size_t i, size_t bytes);                    // local pointer argument
  void setArgValue(size_t i, const void* value, size_t size);  // scalar/vector/struct by value
  // Image argument; throws Error when the image's type does not match the parameter's (a 2D image for an
  // image2d_t, …; a 2D image for an image2d_depth_t needs CL_DEPTH order and the reverse).
  void setArg(size_t i, std::shared_ptr<Image> image);
  void setArgSampler(size_t i, const Sampler& sampler);  // sampler_t argument
  void setArg(size_t i, std::shared_ptr<Pipe> pipe);     // pipe argument (read_only or write_only pipe)
  void setArg(size_t i, std::shared_ptr<DeviceQueue> queue);  // queue_t argument (a device queue)
  // get_default_queue's queue in this kernel's runs, instead of its device's (Device::defaultQueue): the OpenCL API
  // keeps a default per context and device, which a host::Device does not know. null: no default queue.
  void setDefaultQueue(std::shared_ptr<DeviceQueue> queue);
  template <class T> void setArg(size_t i, const T& v) { setArgValue(i, &v, sizeof(T)); }
  // The named choices the kernel runs with (its program's device's).
  const numerics::Choices& choices() const;

  // A Vulkan compute shader (a GLCompute entry point): its arguments are its resources (KernelArgInfo::resource).
  bool isShader() const;
  // The argument index of the storage or uniform buffer at (set, binding) and, for an array of blocks, its array
  // element (vkUpdateDescriptorSets' dstArrayElement), or of the push-constant block (pushConstantArg); none when the
  // shader declares none.
  std::optional<size_t> resourceArg(uint32_t set, uint32_t binding, uint32_t arrayElement = 0) const;
  std::optional<size_t> pushConstantArg() const;
  // The device address of the buffer bound to a shader's argument i (PhysicalStorageBuffer64,
  // vkGetBufferDeviceAddress, GL_EXT_buffer_reference): clref's pointer to its first byte, the argument's allocation
  // tag times 2^40 (interpreter/program.hpp tagShift); an address past it by k is byte k of the buffer, and an address
  // in no bound buffer faults. Throws Error when argument i is not a storage or uniform buffer of a shader.
  uint64_t deviceAddress(size_t i) const;
  // A shader's work-group size (its LocalSize, LocalSizeId or WorkgroupSize constant, specialized), and the NDRange
  // of vkCmdDispatch(groups) (Vulkan §30.1 [external] Dispatching Commands): groups × that size work-items, in 3
  // dimensions. Throws Error for an OpenCL kernel, or a zero or too large count.
  std::array<uint32_t, 3> workgroupSize();
  NDRange dispatch(const std::array<uint32_t, 3>& groups);
  // The buffer set for argument i (nullptr when it is not a buffer argument or not set, or NULL).
  std::shared_ptr<Buffer> bufferArg(size_t i) const;
  // The image set for argument i (nullptr when it is not an image argument or not set).
  std::shared_ptr<Image> imageArg(size_t i) const;

  // Bytes of private memory one work-item uses: its Function-storage variables and the register file that holds
  // its SSA values (what CL_KERNEL_PRIVATE_MEM_SIZE reports; the lowering refuses kernels beyond the device limit).
  uint64_t privateMemBytes() const;
  // Whether the kernel enqueues kernels on the device (enqueue_kernel, enqueue_marker, get_default_queue, a queue_t
  // parameter): its children run inside run() (interpreter/device_enqueue.hpp).
  bool enqueuesKernels() const;
  // The largest work-group size this kernel can run with (CL_KERNEL_WORK_GROUP_SIZE): the device's maximum, or fewer
  // when the work-items of a group would hold more registers and private memory than clref allows per work-group.
  size_t maxWorkGroupSize() const;
  // The work-group size run() uses for `range`: its local size, or the DefaultLocalSize choice's when it has none.
  std::array<size_t, 3> localSizeFor(const NDRange& range) const;

  // Runs the NDRange to completion. Throws Error when an argument is not set, a buffer is larger than the device's
  // address space, the local memory exceeds localMemSize, or the NDRange cannot run on the kernel (NDRangeError for
  // what checkNDRange checks); interpreter::ModuleError when the kernel cannot be lowered. A kernel fault is not
  // thrown: RunResult::fault. `threads` (0: the device's DeviceConfig::threads) is how many worker threads run it (the
  // OpenCL API's sub-devices); it changes no result.
  RunResult run(const NDRange& range, unsigned threads = 0);
  // The same run with allowed-set propagation (interpreter/shadow.hpp): besides clref's results, `shadow` holds the
  // allowed set of every value that is not exactly clref's, and the decisions those sets left open. One thread.
  RunResult runShadow(const NDRange& range, interpreter::ShadowRun& shadow);
  // The plain run of only the work-groups `groups` (linear ids, ascending; the others are skipped as if they wrote
  // nothing): one share of a launch split over processes (`clref run` under mpirun, cli/shard.hpp).
  RunResult runGroups(const NDRange& range, const std::vector<uint64_t>& groups, unsigned threads = 0);
  // The same, with only the work-groups `groups` run (linear ids, ascending; the others are skipped as if they wrote
  // nothing) and, when not null, `observer` told of every memory access (what check() uses to judge a sample of the
  // work-groups: the elements they wrote).
  RunResult runShadow(const NDRange& range, interpreter::ShadowRun& shadow, interpreter::ExecutionObserver* observer,
                      const std::vector<uint64_t>& groups);
  // The same run watched by `observer` (interpreter/observer.hpp: every instruction, its result, memory
  // accesses, work-group starts and barriers) in a kernel lowered for it. One thread.
  RunResult runObserved(const NDRange& range, interpreter::ExecutionObserver& observer);

 private:
  struct Arg {
    KernelArgInfo info;
    bool set = false;
    std::shared_ptr<Buffer> buffer;
    std::optional<uint64_t> svmPointer;  // setArgSvm
    size_t localBytes = 0;
    std::vector<uint8_t> value;
    std::shared_ptr<Image> image;
    Sampler sampler;
    std::shared_ptr<Pipe> pipe;
    std::shared_ptr<DeviceQueue> queue;
  };
  // The kinds of run a kernel is lowered for: plain runs, shadow runs (interpreter/shadow.hpp) and observed runs
  // (LowerOptions::observeInstructions).
  enum class Lowering : uint8_t { Plain, Shadow, Observed };
  struct Lowered {
    std::unique_ptr<interpreter::LoweredKernel> kernel;
    uint64_t specVersion = ~uint64_t(0);  // the program's specialization constants it was lowered with
    bool ownChoices = false;              // lowered with a run's own choices (a perturbed shadow run): not reused
  };
  // The kernel lowered for `kind`, from the cache unless the program's specialization constants changed since, or
  // the cached or the wanted lowering has choices of its own (`ownChoices`, instead of the device's).
  const interpreter::LoweredKernel& lowered(Lowering kind, const numerics::Choices* ownChoices = nullptr);
  // The plain lowering, as last lowered (the constructor lowers it): the kernel's parameters and sizes.
  const interpreter::LoweredKernel& plain() const { return *lowered_[size_t(Lowering::Plain)].kernel; }
  RunResult runWith(const NDRange& range, interpreter::ShadowRun* shadow, interpreter::ExecutionObserver* observer,
                    const std::vector<uint64_t>& groups = {}, unsigned threads = 0);
  Arg& argAt(size_t i, ArgKind want);
  std::shared_ptr<Program> program_;
  std::string name_;
  std::vector<Arg> args_;
  std::optional<std::shared_ptr<DeviceQueue>> defaultQueue_;  // setDefaultQueue; none: the device's
  std::array<Lowered, 3> lowered_;  // one cache of lowerings, indexed by Lowering
};

// run(kernel, ndrange) as a free function, as in the design.
inline RunResult run(Kernel& kernel, const NDRange& range) { return kernel.run(range); }

// OpenCL C to LLVM IR text at -O0 with -cl-kernel-arg-info, compiled as fromOpenCLC compiles it
// for this device: clang's kernel_arg_* and attribute metadata, which SPIR-V does not keep
// (signedness, typedef names, type qualifiers). None when compilation fails.
std::optional<std::string> openCLCToLLVMText(const DeviceConfig& device, const OpenCLCSource& source);

}  // namespace clref::host
