#include "host/host.hpp"

#include "host/elements.hpp"

#include "interpreter/shadow.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"
#include "interpreter/pipe.hpp"
#include "interpreter/svm.hpp"

namespace clref::host {

using interpreter::ModuleError;

Device::Device(DeviceConfig config) : config_(std::move(config)) {
  if (config_.addressBits != 32 && config_.addressBits != 64) throw Error("addressBits must be 32 or 64");
}

void Device::setDefaultQueue(std::shared_ptr<DeviceQueue> queue) {
  if (queue && !config_.deviceEnqueue) throw Error("the device has device-side enqueue off: it has no device queues");
  *defaultQueue_ = std::move(queue);
}

// ---- DeviceQueue ----------------------------------------------------------------------------

static_assert(kDeviceQueuePreferredSize == interpreter::kDeviceQueuePreferredSize &&
              kDeviceQueueMaxSize == interpreter::kDeviceQueueMaxSize &&
              kMaxOnDeviceQueues == interpreter::kMaxOnDeviceQueues &&
              kMaxNamedBarriers == interpreter::kMaxNamedBarriers &&
              kMaxOnDeviceEvents == interpreter::kMaxOnDeviceEvents);

namespace {
// Ids are never reused, so a kernel's queue_t value names one queue for the life of the process.
std::atomic<uint64_t> nextDeviceQueueId{1};

interpreter::DeviceQueueBinding bindingOf(const DeviceQueue& q) {
  return interpreter::DeviceQueueBinding{q.id(), q.size(), q.profiling()};
}
}  // namespace

DeviceQueue::DeviceQueue(uint64_t size, bool profiling) : id_(nextDeviceQueueId++), size_(size), profiling_(profiling) {
  // OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
  if (size > kDeviceQueueMaxSize)
    throw Error("a device queue of " + std::to_string(size) + " bytes is larger than the device's maximum, " +
                std::to_string(kDeviceQueueMaxSize) + " bytes");
}

Buffer::Buffer(size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {}
Buffer::Buffer(const void* data, size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {
  if (bytes) std::memcpy(data_.data(), data, bytes);
}
std::shared_ptr<Buffer> Buffer::view(std::byte* base, size_t bytes, std::shared_ptr<const void> owner) {
  std::shared_ptr<Buffer> b(new Buffer());
  b->base_ = base;
  b->size_ = bytes;
  b->owner_ = std::move(owner);
  return b;
}
std::shared_ptr<Buffer> Buffer::subBuffer(std::shared_ptr<Buffer> parent, size_t offset, size_t bytes) {
  if (!parent || offset > parent->size() || bytes > parent->size() - offset)
    throw Error("sub-buffer [" + std::to_string(offset) + ", +" + std::to_string(bytes) + ") is outside its parent");
  std::byte* base = parent->data() + offset;
  auto record = parent->neverWritten_;
  const size_t recordOffset = parent->neverWrittenOffset_ + offset;
  auto b = view(base, bytes, std::move(parent));
  b->neverWritten_ = std::move(record);
  b->neverWrittenOffset_ = recordOffset;
  return b;
}

void Buffer::markUninitialised() {
  if (!neverWritten_) neverWritten_ = std::make_shared<std::vector<uint8_t>>(size_, 1);
}

void Buffer::markWritten(size_t offset, size_t bytes) {
  if (!neverWritten_ || offset >= size_) return;
  bytes = std::min(bytes, size_ - offset);
  std::memset(neverWritten_->data() + neverWrittenOffset_ + offset, 0, bytes);
}

// ---- Program ------------------------------------------------------------------------------

Program::Program(const Device& device, std::shared_ptr<const interpreter::Module> module)
    : device_(device), module_(std::move(module)), globals_(std::make_shared<interpreter::GlobalStorage>()) {}
Program::~Program() = default;

namespace {
interpreter::LowerOptions lowerOptions(const DeviceConfig& cfg) {
  interpreter::LowerOptions o;
  o.addressBits = cfg.addressBits;
  o.fp16 = cfg.fp16;
  o.fp64 = cfg.fp64;
  o.denormHalf = cfg.denormHalf;
  o.denormFloat = cfg.denormFloat;
  o.denormDouble = cfg.denormDouble;
  o.choices = cfg.choices;
  o.checks = cfg.checks;
  o.detailedEnqueueErrors = cfg.enqueueErrorCodes;
  return o;
}
}  // namespace

std::shared_ptr<Program> Program::fromSpirv(const Device& device, std::vector<uint32_t> words,
                                            const std::vector<SourceName>& sourceNames) {
  auto module = interpreter::Module::load(std::move(words));
  for (const auto& n : sourceNames) module.nameSourceFile(n.fileInModule, n.displayName, n.text);
  auto p = fromModule(device, std::move(module));
  p->sourceNames_ = sourceNames;
  return p;
}

std::shared_ptr<Program> Program::fromModule(const Device& device, interpreter::Module module) {
  auto m = std::make_shared<const interpreter::Module>(std::move(module));
  // Reject what this device cannot run now, not at the first kernel (capabilities, extensions,
  // address width). OpenCL SPIR-V Environment §3.1 [[required-capabilities-1.0]]: DeviceEnqueue is for devices
  // supporting device-side enqueue; with the feature off, this device is not one.
  if (!device.config().deviceEnqueue)
    for (auto c : m->capabilities)
      if (c == spv::Capability::DeviceEnqueue)
        throw ModuleError("the module needs DeviceEnqueue (device-side enqueue) but the device has it off");
  interpreter::checkModuleSupport(*m, lowerOptions(device.config()));
  return std::shared_ptr<Program>(new Program(device, std::move(m)));
}

std::vector<uint32_t> readSpirvFile(const std::string& path) {
  // A directory opens as a stream on Linux and fails only while reading, with std::ios_base::failure.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path + " is a directory, not a SPIR-V module");
  // A device or a pipe (/dev/zero, a FIFO) may never end: a module is a regular file.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw Error(path + " is not a regular file, not a SPIR-V module");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path);
  std::vector<char> bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) { throw Error("cannot read " + path + ": " + e.code().message()); }
  if (bytes.size() % 4 != 0)
    throw ModuleError(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4 bytes");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::shared_ptr<Program> Program::fromSpirvFile(const Device& device, const std::string& path) {
  return fromSpirv(device, readSpirvFile(path));
}

namespace {
// OpenCL SPIR-V Environment §3 [[required-capabilities]]: a device with images declares ImageBasic, LiteralSampler,
// Sampled1D, Image1D, SampledBuffer and ImageBuffer; the interpreter executes images when it takes them all.
bool imagesSupported() {
  using spv::Capability;
  for (Capability c : {Capability::ImageBasic, Capability::LiteralSampler, Capability::Sampled1D, Capability::Image1D,
                       Capability::SampledBuffer, Capability::ImageBuffer})
    if (!interpreter::capabilitySupported(c)) return false;
  return true;
}
// cl_khr_mipmap_image's SPIR-V: the ImageMipmap capability.
bool mipmapsSupported() { return interpreter::capabilitySupported(spv::Capability::ImageMipmap); }
}  // namespace

std::vector<std::string> openCLCExtensions(const DeviceConfig& config) {
  // 32-bit atomics on global and local memory (the interpreter's OpAtomic*) and byte stores:
  // core in OpenCL C 1.1, still named by 1.1+ devices.
  std::vector<std::string> v{"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
                             "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
                             "cl_khr_byte_addressable_store"};
  // 64-bit atomics on global and local memory (the same OpAtomic* on 8-byte values, Int64Atomics).
  v.push_back("cl_khr_int64_base_atomics");
  v.push_back("cl_khr_int64_extended_atomics");
  if (config.fp64) v.push_back("cl_khr_fp64");
  if (config.fp16) v.push_back("cl_khr_fp16");
  // Work-group collective functions and their uniform arithmetic (interpreter/ops_group.cpp; the compiler's prelude
  // declares the built-ins clang-15 lacks).
  v.push_back("cl_khr_work_group_uniform_arithmetic");
  // Integer dot products of 4x8-bit vectors, unpacked and packed (interpreter/ops_dot_product.cpp; the packed
  // built-ins through the compiler's prelude).
  v.push_back("cl_khr_integer_dot_product");
  // Atomic add, min and max of floats (interpreter/ops_atomic.cpp), of doubles and halves when the device has them
  // (openCLCFeatures names which).
  v.push_back("cl_ext_float_atomics");
  // The sub-group extensions (interpreter/ops_subgroup.cpp; OpenCL C 3.0 §6.15.20 [[sub-group-functions]]), which
  // OpenCL C 3.0's __opencl_c_subgroups is enough for, and cl_khr_subgroup_named_barrier (SPIR-V's named barriers,
  // interpreter/ops_named_barrier.cpp; OpenCL C has no built-ins for them, the compiler's prelude defines the macro).
  for (const char* e :
       {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_khr_subgroup_named_barrier"})
    v.push_back(e);
  // async_work_group_copy_2D2D and _3D3D (the compiler's prelude, over OpGroupAsyncCopy).
  v.push_back("cl_khr_extended_async_copies");
  // bitfield_insert, bitfield_extract_*, bit_reverse (SPV_KHR_bit_instructions: interpreter/ops_bitwise.cpp) and
  // __builtin_expect/__builtin_assume kept as OpExpectKHR/OpAssumeTrueKHR (SPV_KHR_expect_assume; a false assumption
  // is reported as undefined behaviour, interpreter/ops_control.cpp).
  v.push_back("cl_khr_extended_bit_ops");
  v.push_back("cl_khr_expect_assume");
  // Sub-groups, as the extension and as OpenCL C 3.0's __opencl_c_subgroups (below): cl_khr_subgroups also requires
  // that sub-groups make independent forward progress, which the scheduler gives by time-slicing the work-items of a
  // group that may wait on each other (interpreter/scheduler.cpp):
  // OpenCL Extension Specification 3.0.12 §28.3 "Additions to section 3.2 — Execution Model"
  v.push_back("cl_khr_subgroups");
  // The image extensions, when the whole chain runs them: the images module (every format, read, write and sampler
  // rule), the interpreter (the capabilities their SPIR-V declares) and the host API (images from buffers, mip
  // levels). OpenCL Extension Specification 3.0.12 §4.1 "General information" (cl_khr_3d_image_writes),
  // §16 "Depth Images", §21 "Creating a 2D Image From A Buffer", §29 "Mipmaps", §30 "sRGB Image Writes".
  if (imagesSupported()) {
    v.push_back("cl_khr_3d_image_writes");
    v.push_back("cl_khr_depth_images");
    v.push_back("cl_khr_image2d_from_buffer");
    v.push_back("cl_khr_srgb_image_writes");
    if (mipmapsSupported()) {
      v.push_back("cl_khr_mipmap_image");
      v.push_back("cl_khr_mipmap_image_writes");
    }
  }
  return v;
}

std::vector<std::string> openCLCFeatures(const DeviceConfig& config) {
  // 64-bit integers, the generic address space (GenericPointer), program-scope global variables
  // (GlobalStorage), acquire-release and sequentially consistent atomics at device and all-devices scope (every
  // atomic is sequentially consistent on host memory, which all work-groups and all sub-devices share), doubles when
  // enabled.
  std::vector<std::string> v{"__opencl_c_int64",
                             "__opencl_c_generic_address_space",
                             "__opencl_c_program_scope_global_variables",
                             "__opencl_c_atomic_order_acq_rel",
                             "__opencl_c_atomic_order_seq_cst",
                             "__opencl_c_atomic_scope_device",
                             "__opencl_c_atomic_scope_all_devices"};
  if (config.fp64) v.push_back("__opencl_c_fp64");
  // Work-group collective functions (interpreter/ops_group.cpp).
  v.push_back("__opencl_c_work_group_collective_functions");
  // Pipes (interpreter/ops_pipe.cpp, pipe.hpp): OpenCL C 3.0 §6.15.18 [[pipe-functions]].
  v.push_back("__opencl_c_pipes");
  // Sub-groups (OpenCL C 3.0 §6.15.20 [[sub-group-functions]]): sub_group_* collectives and sub_group_barrier
  // (interpreter/ops_group.cpp).
  v.push_back("__opencl_c_subgroups");
  // Device-side enqueue (OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]]; interpreter/executor.hpp): children run
  // inside their parent's launch. §6.2.1 [[features]]: it requires __opencl_c_generic_address_space and
  // __opencl_c_program_scope_global_variables, which every clref device has (above).
  if (config.deviceEnqueue) v.push_back("__opencl_c_device_enqueue");
  // cl_khr_integer_dot_product's features: OpenCL Extension Specification 3.0.12 §42.2 "New API Enums" (the packed
  // input "is always set"; the unpacked input must be in version 2, which clref reports).
  v.push_back("__opencl_c_integer_dot_product_input_4x8bit");
  v.push_back("__opencl_c_integer_dot_product_input_4x8bit_packed");
  // cl_ext_float_atomics [external]: load/store/exchange (halves only: floats and doubles have them in OpenCL C 2.0),
  // add and min/max in global and local memory for every float type the device has (floatAtomicCapabilities).
  for (const auto& [type, on] :
       {std::pair<std::string, bool>{"fp16", config.fp16}, {"fp32", true}, {"fp64", config.fp64}})
    if (on)
      for (const char* op : {"add", "min_max", "load_store"})
        for (const char* space : {"global", "local"})
          if (type == "fp16" || std::string(op) != "load_store")
            v.push_back("__opencl_c_ext_" + type + "_" + space + "_atomic_" + op);
  // OpenCL C 3.0 §6.2.1 [[features]]: images, read_write images and 3D image writes, as the extensions above.
  if (imagesSupported()) {
    v.push_back("__opencl_c_images");
    v.push_back("__opencl_c_3d_image_writes");
    if (interpreter::capabilitySupported(spv::Capability::ImageReadWrite)) v.push_back("__opencl_c_read_write_images");
  }
  return v;
}

const std::vector<uint32_t>& Program::spirv() const { return module_->binary(); }

std::vector<std::string> Program::kernelNames() const { return info().kernelNames(); }

void Program::setSpecConstant(uint32_t id, const void* value, size_t size) {
  bool found = false;
  for (const auto& [target, decs] : module_->decorations)
    for (const auto& d : decs)
      if (d.kind == spv::Decoration::SpecId && d.literals.at(0) == id) found = true;
  if (!found) throw Error("no specialization constant with SpecId " + std::to_string(id));
  // OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]]: the size must match the constant's (checked
  // here, not at the next lowering, where it was an interpreter::ModuleError).
  if (const auto want = info().specConstantSize(id); want && size != *want)
    throw Error("specialization constant " + std::to_string(id) + " is " + std::to_string(*want) + " bytes, " +
                std::to_string(size) + " given");
  if (!value && size) throw Error("specialization constant " + std::to_string(id) + ": no value given");
  std::vector<uint8_t> bytes(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
  for (auto& [k, v] : specConstants_)
    if (k == id) {
      v = std::move(bytes);
      ++specVersion_;
      return;
    }
  specConstants_.emplace_back(id, std::move(bytes));
  ++specVersion_;
}

// ---- Kernel -------------------------------------------------------------------------------

Kernel::Kernel(std::shared_ptr<Program> program, const std::string& name) : program_(std::move(program)), name_(name) {
  if (!program_) throw Error("Kernel needs a program");
  if (!program_->module().entryPoint(name)) {
    std::string known;
    for (const auto& k : program_->kernelNames()) known += (known.empty() ? "" : ", ") + k;
    throw Error("no kernel named '" + name + "' in the program (kernels: " + (known.empty() ? "none" : known) + ")");
  }
  lower();
  for (const auto& p : lowered_->params) {
    Arg a;
    a.info.name = p.name;
    a.info.typeName = p.typeName;
    a.info.noWrite = p.noWrite;
    for (const auto& f : p.pointeeFields) a.info.pointeeFields.push_back({f.offset, f.bytes, f.isFloat});
    a.info.pointeeSize = p.pointeeSize;
    switch (p.kind) {
      case interpreter::ParamKind::Buffer: a.info.kind = ArgKind::Buffer; break;
      case interpreter::ParamKind::Local: a.info.kind = ArgKind::Local; break;
      case interpreter::ParamKind::Value: a.info.kind = ArgKind::Value; break;
      case interpreter::ParamKind::Image: a.info.kind = ArgKind::Image; break;
      case interpreter::ParamKind::Sampler: a.info.kind = ArgKind::Sampler; break;
      case interpreter::ParamKind::Pipe: a.info.kind = ArgKind::Pipe; break;
      case interpreter::ParamKind::Queue: a.info.kind = ArgKind::Queue; break;
    }
    // OpenCL C's name of an OpTypeQueue parameter (OpenCL SPIR-V Environment §2.5.3 [[_other_data_types]]: queue_t).
    if (a.info.kind == ArgKind::Queue) a.info.typeName = "queue_t";
    a.info.size = p.size;
    a.info.imageType = p.imageType;
    a.info.depth = p.depth;
    a.info.access = p.access == interpreter::ImageAccess::WriteOnly   ? KernelArgInfo::Access::WriteOnly
                    : p.access == interpreter::ImageAccess::ReadWrite ? KernelArgInfo::Access::ReadWrite
                                                                      : KernelArgInfo::Access::ReadOnly;
    args_.push_back(std::move(a));
  }
}
Kernel::~Kernel() = default;
Kernel::Kernel(Kernel&&) noexcept = default;

void Kernel::lower() {
  interpreter::LowerOptions o = lowerOptions(program_->device().config());
  for (const auto& [id, v] : program_->specConstants_) o.specConstants[id] = v;
  o.globals = program_->globals_;
  lowered_ = interpreter::lowerKernel(program_->module(), name_, o);
  loweredSpecVersion_ = program_->specVersion_;
}

static_assert(kMaxGlobalVariableSize == interpreter::kMaxProgramScopeVariableBytes &&
              kMaxGlobalVariableTotalSize == interpreter::kMaxProgramScopeTotalBytes);

size_t Kernel::maxWorkGroupSize() const {
  return size_t(interpreter::maxWorkGroupSize(*lowered_, program_->device().config().maxWorkGroupSize));
}

uint64_t Kernel::privateMemBytes() const {
  return lowered_->privateArenaBytes + lowered_->registerTemplate.size();
}

bool Kernel::enqueuesKernels() const { return lowered_->usesDeviceEnqueue; }

const numerics::Choices& Kernel::choices() const { return program_->device().config().choices; }

std::shared_ptr<Buffer> Kernel::bufferArg(size_t i) const {
  if (i >= args_.size() || args_[i].info.kind != ArgKind::Buffer || !args_[i].set) return nullptr;
  return args_[i].buffer;
}

std::shared_ptr<Image> Kernel::imageArg(size_t i) const {
  if (i >= args_.size() || args_[i].info.kind != ArgKind::Image || !args_[i].set) return nullptr;
  return args_[i].image;
}

const KernelArgInfo& Kernel::argInfo(size_t i) const {
  if (i >= args_.size())
    throw Error("kernel " + name_ + " has " + std::to_string(args_.size()) + " arguments; no argument " +
                std::to_string(i));
  return args_[i].info;
}

Kernel::Arg& Kernel::argAt(size_t i, ArgKind want) {
  const auto& info = argInfo(i);
  if (info.kind != want) {
    static const char* kinds[] = {"a buffer (global/constant pointer)",
                                  "a local pointer",
                                  "a value",
                                  "an image",
                                  "a sampler",
                                  "a pipe",
                                  "a device queue"};
    throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + info.typeName + ") takes " +
                kinds[int(info.kind)] + ", not " + kinds[int(want)]);
  }
  return args_[i];
}

void Kernel::setArg(size_t i, std::shared_ptr<Buffer> buffer) {
  if (!buffer) return setArgNull(i);
  auto& a = argAt(i, ArgKind::Buffer);
  a.buffer = std::move(buffer);
  a.svmPointer.reset();
  a.set = true;
}
void Kernel::setArgNull(size_t i) {
  auto& a = argAt(i, ArgKind::Buffer);
  a.buffer.reset();
  a.svmPointer.reset();
  a.set = true;
}
void Kernel::setArgSvm(size_t i, const void* pointer) {
  if (!pointer) return setArgNull(i);
  auto& a = argAt(i, ArgKind::Buffer);
  a.buffer.reset();
  a.svmPointer = reinterpret_cast<uint64_t>(pointer);
  a.set = true;
}

void Kernel::setArg(size_t i, std::shared_ptr<Pipe> pipe) {
  auto& a = argAt(i, ArgKind::Pipe);
  if (!pipe) throw Error("argument " + std::to_string(i) + " of " + name_ + " is a pipe: a pipe must be given");
  a.pipe = std::move(pipe);
  a.set = true;
}

void Kernel::setArg(size_t i, std::shared_ptr<DeviceQueue> queue) {
  auto& a = argAt(i, ArgKind::Queue);
  if (!queue)
    throw Error("argument " + std::to_string(i) + " of " + name_ + " is a queue_t: a device queue must be given");
  a.queue = std::move(queue);
  a.set = true;
}

void Kernel::setDefaultQueue(std::shared_ptr<DeviceQueue> queue) {
  if (queue && !program_->device().config().deviceEnqueue)
    throw Error(name_ + ": the device has device-side enqueue off: it has no device queues");
  defaultQueue_ = std::move(queue);
}

Pipe::Pipe(uint32_t packetSize, uint32_t maxPackets) {
  if (packetSize == 0 || maxPackets == 0) throw Error("a pipe needs a packet size and a number of packets above 0");
  state_ = std::make_unique<interpreter::Pipe>(packetSize, maxPackets);
}
Pipe::~Pipe() = default;
uint32_t Pipe::packetSize() const { return state_->packetSize(); }
uint32_t Pipe::maxPackets() const { return state_->maxPackets(); }
uint32_t Pipe::numPackets() const { return state_->numPackets(); }

void* svm::allocate(size_t bytes, size_t alignment, bool kernelReadOnly) {
  return interpreter::svm::allocate(bytes, alignment, kernelReadOnly);
}
bool svm::free(void* p) { return interpreter::svm::free(p); }
bool svm::inRange(const void* p) { return interpreter::svm::inRange(reinterpret_cast<uint64_t>(p)); }
std::optional<svm::Allocation> svm::allocationHolding(const void* p, size_t bytes) {
  const auto r = interpreter::svm::liveRegionHolding(reinterpret_cast<uint64_t>(p), bytes);
  if (!r) return std::nullopt;
  return Allocation{reinterpret_cast<void*>(r->base), size_t(r->size)};
}
void Kernel::setArgLocal(size_t i, size_t bytes) {
  auto& a = argAt(i, ArgKind::Local);
  if (bytes == 0) throw Error("local argument " + std::to_string(i) + " must have a non-zero size");
  a.localBytes = bytes;
  a.set = true;
}
void Kernel::setArgValue(size_t i, const void* value, size_t size) {
  auto& a = argAt(i, ArgKind::Value);
  if (!value) throw Error("argument " + std::to_string(i) + " of " + name_ + ": no value given");
  if (size != a.info.size)
    throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ") is " +
                std::to_string(a.info.size) + " bytes, " + std::to_string(size) + " given");
  a.value.assign(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
  a.set = true;
}

void Kernel::setArg(size_t i, std::shared_ptr<Image> image) {
  auto& a = argAt(i, ArgKind::Image);
  const auto where = [&] { return "argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ")"; };
  if (!image) throw Error(where() + ": no image given");
  // OpenCL C 3.0 §6.15.15 [[image-read-and-write-functions]]: an image argument is of the image type the kernel
  // declares; cl_khr_depth_images: image2d_depth_t / image2d_array_depth_t take CL_DEPTH images, and only they do.
  const auto& d = image->desc();
  if (d.type != a.info.imageType)
    throw Error(where() + " takes a " + std::string(images::nameOf(a.info.imageType)) + " image, not a " +
                std::string(images::nameOf(d.type)) + " image");
  const bool depth = d.format.order == images::ChannelOrder::Depth;
  if (depth != a.info.depth)
    throw Error(where() + (a.info.depth ? " is a depth image: it takes a CL_DEPTH image, not "
                                        : " is not a depth image: it takes no CL_DEPTH image, given ") +
                std::string(images::nameOf(d.format.order)));
  a.image = std::move(image);
  a.set = true;
}
void Kernel::setArgSampler(size_t i, const Sampler& sampler) {
  auto& a = argAt(i, ArgKind::Sampler);
  a.sampler = sampler;
  a.set = true;
}

void checkNDRange(const NDRange& r, const DeviceConfig& cfg) {
  using Field = NDRangeError::Field;
  if (r.dims < 1 || r.dims > 3)
    throw NDRangeError(Field::Dims, "work dimension " + std::to_string(r.dims) + " is not 1, 2 or 3");
  // OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel: global sizes, and each offset plus its global
  // size, must not exceed the largest value of the device's size_t (CL_DEVICE_ADDRESS_BITS wide).
  const uint64_t sizeMax = cfg.addressBits == 32 ? UINT32_MAX : std::numeric_limits<size_t>::max();
  const auto dim = [](unsigned d) { return " in dimension " + std::to_string(d); };
  bool empty = false;
  for (unsigned d = 0; d < r.dims; ++d) {
    if (r.global[d] > sizeMax)
      throw NDRangeError(Field::Global, "global size " + std::to_string(r.global[d]) + dim(d) + " exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device");
    if (r.offset[d] > sizeMax - r.global[d])
      throw NDRangeError(Field::Offset, "offset " + std::to_string(r.offset[d]) + " plus global size " +
                                            std::to_string(r.global[d]) + dim(d) + " exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device");
    empty = empty || r.global[d] == 0;
  }
  // The number of work-items (get_global_linear_id's range) must be a size_t too: a product that wraps around would
  // launch a different, smaller NDRange.
  uint64_t items = 1;
  for (unsigned d = 0; d < r.dims && !empty; ++d)
    if (__builtin_mul_overflow(items, uint64_t(r.global[d]), &items) || items > sizeMax)
      throw NDRangeError(Field::Global, "the global sizes' product (the number of work-items) exceeds " +
                                            std::to_string(sizeMax) + ", the largest size_t of the device, at " +
                                            "dimension " + std::to_string(d));
  if (!r.local) return;
  uint64_t groupSize = 1;
  for (unsigned d = 0; d < r.dims; ++d)
    if (__builtin_mul_overflow(groupSize, uint64_t((*r.local)[d]), &groupSize) || groupSize > cfg.maxWorkGroupSize)
      throw NDRangeError(Field::Local, "the local sizes' product (the work-group size) exceeds the device maximum " +
                                           std::to_string(cfg.maxWorkGroupSize) + " at dimension " + std::to_string(d));
}

namespace {
// The DefaultLocalSize choice: the work-group size used when the host gives none.
// `maxGroup` is the kernel's largest work-group size (Kernel::maxWorkGroupSize).
std::array<size_t, 3> defaultLocalSize(const NDRange& r, const DeviceConfig& cfg, size_t maxGroup) {
  std::array<size_t, 3> l{1, 1, 1};
  if (cfg.choices.get<numerics::Choice::DefaultLocalSize>() == numerics::LocalSizeOption::One) return l;
  size_t best = 1;
  for (size_t d = 1; d <= std::min<size_t>(64, std::min(maxGroup, r.global[0])); ++d)
    if (r.global[0] % d == 0) best = d;
  l[0] = best;
  return l;
}
}  // namespace

namespace {

// DeviceConfig::plantErrors: element i of every buffer argument the kernel may write (a global pointer to non-const;
// a buffer of structs counts their scalars, host::layoutOf), for i a multiple of `every`, changed so that no allowed
// set of a computed value contains it: a floating-point element has the top bit of its significand flipped (a
// relative change of at least a quarter; a NaN stays a NaN, an infinity becomes one), any other element is
// incremented.
void plantImageErrors(Image& image, uint64_t every);

void plantErrors(Kernel& kernel, uint64_t every) {
  for (size_t i = 0; i < kernel.argCount(); ++i) {
    const KernelArgInfo& info = kernel.argInfo(i);
    auto buffer = kernel.bufferArg(i);
    if (!buffer || !mayWriteThrough(info)) continue;
    auto* bytes = reinterpret_cast<uint8_t*>(buffer->data());
    forEachScalar(layoutOf(info), elementTypeOf(info.typeName).value_or(numerics::ScalarType::UChar), buffer->size(),
                  [&](uint64_t e, uint64_t offset, numerics::ScalarType type) {
                    if (e % every) return;
                    const size_t size = sizeOf(type);
                    uint8_t* at = bytes + offset;
                    uint64_t v = 0;
                    std::memcpy(&v, at, size);
                    switch (type) {
                      case numerics::ScalarType::Half: v ^= uint64_t(1) << 9; break;
                      case numerics::ScalarType::Float: v ^= uint64_t(1) << 22; break;
                      case numerics::ScalarType::Double: v ^= uint64_t(1) << 51; break;
                      default: ++v; break;
                    }
                    std::memcpy(at, &v, size);
                  });
  }
  for (size_t i = 0; i < kernel.argCount(); ++i)
    if (auto image = kernel.imageArg(i); image && kernel.argInfo(i).access != KernelArgInfo::Access::ReadOnly)
      plantImageErrors(*image, every);
}

// The same for an image the kernel may write: element e (in ObservedImage's packed order, level after level), for e a
// multiple of `every`, has every colour component moved far from its value (normalized: by half the range; half and
// float: to -2x - 1; integers: bit 6 flipped) and is stored again, so that every channel the order stores changes.
void plantImageErrors(Image& image, uint64_t every) {
  const images::ImageFormat format = image.desc().format;
  const images::ChannelClass cls = images::channelClass(format.type);
  const images::ColorKind kind = cls == images::ChannelClass::SignedInt     ? images::ColorKind::Int
                                 : cls == images::ChannelClass::UnsignedInt ? images::ColorKind::Uint
                                                                            : images::ColorKind::Float;
  image.forEachElement([&](uint64_t e, const std::array<uint64_t, 3>&, uint32_t, uint8_t* at) {
    if (e % every) return;
    images::Color c = images::decode(format, at, kind);
    for (uint32_t& lane : c.lanes) {
      if (kind != images::ColorKind::Float) {
        lane ^= 0x40;
        continue;
      }
      const float v = std::bit_cast<float>(lane);
      const float moved = cls == images::ChannelClass::Normalized ? (v >= 0.5f ? v - 0.5f : v + 0.5f) : -2 * v - 1;
      lane = std::bit_cast<uint32_t>(moved);
    }
    images::encode(format, c, kind, at);
  });
}

}  // namespace

std::array<size_t, 3> Kernel::localSizeFor(const NDRange& range) const {
  return range.local ? *range.local : defaultLocalSize(range, program_->device().config(), maxWorkGroupSize());
}

RunResult Kernel::run(const NDRange& range, unsigned threads) {
  RunResult r = runWith(range, nullptr, nullptr, {}, threads);
  if (const uint64_t every = program_->device().config().plantErrors; every && r.ok) plantErrors(*this, every);
  return r;
}

RunResult Kernel::runShadow(const NDRange& range, interpreter::ShadowRun& shadow) {
  return runWith(range, &shadow, nullptr);
}

RunResult Kernel::runShadow(const NDRange& range, interpreter::ShadowRun& shadow,
                            interpreter::ExecutionObserver* observer, const std::vector<uint64_t>& groups) {
  return runWith(range, &shadow, observer, groups);
}

RunResult Kernel::runObserved(const NDRange& range, interpreter::ExecutionObserver& observer) {
  return runWith(range, nullptr, &observer);
}

RunResult Kernel::runWith(const NDRange& range, interpreter::ShadowRun* shadow, interpreter::ExecutionObserver* observer,
                          const std::vector<uint64_t>& groups, unsigned threads) {
  const auto& cfg = program_->device().config();
  checkNDRange(range, cfg);
  if (loweredSpecVersion_ != program_->specVersion_) lower();
  // The shadow kernel is kept for the device's choices; a run with choices of its own (--perturb) lowers anew.
  const bool ownChoices = shadow && shadow->choices;
  if (shadow && (ownChoices || shadowOwnChoices_ || !shadowLowered_ || shadowSpecVersion_ != program_->specVersion_)) {
    interpreter::LowerOptions o = lowerOptions(cfg);
    for (const auto& [id, v] : program_->specConstants_) o.specConstants[id] = v;
    o.globals = program_->globals_;
    o.shadow = true;
    o.checks = {};  // a shadow run has no checkers
    if (ownChoices) o.choices = *shadow->choices;
    shadowLowered_ = interpreter::lowerKernel(program_->module(), name_, o);
    shadowSpecVersion_ = program_->specVersion_;
    shadowOwnChoices_ = ownChoices;
  }
  if (observer && (!observedLowered_ || observedSpecVersion_ != program_->specVersion_)) {
    interpreter::LowerOptions o = lowerOptions(cfg);
    for (const auto& [id, v] : program_->specConstants_) o.specConstants[id] = v;
    o.globals = program_->globals_;
    o.observeInstructions = true;
    observedLowered_ = interpreter::lowerKernel(program_->module(), name_, o);
    observedSpecVersion_ = program_->specVersion_;
  }
  std::vector<interpreter::ArgBinding> bindings(args_.size());
  for (size_t i = 0; i < args_.size(); ++i) {
    const auto& a = args_[i];
    if (!a.set) throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ") is not set");
    auto& b = bindings[i];
    switch (a.info.kind) {
      case ArgKind::Buffer:
        if (a.svmPointer) {
          b.svmPointer = a.svmPointer;
        } else if (a.buffer && svm::inRange(a.buffer->data())) {
          // A buffer over SVM memory (clCreateBuffer with CL_MEM_USE_HOST_PTR and an SVM pointer, or a sub-buffer of
          // one): OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] gives it "the shared memory as the underlying
          // storage", so the kernel's pointer is the SVM address, and pointers it stores are the host's. Its accesses
          // are checked against the SVM allocation.
          b.svmPointer = reinterpret_cast<uint64_t>(a.buffer->data());
        } else if (a.buffer) {
          b.base = reinterpret_cast<uint8_t*>(a.buffer->data());
          b.size = a.buffer->size();
          b.neverWritten = a.buffer->neverWritten();
          // A pointer's allocation tag leaves tagShift bits of offset (interpreter/program.hpp).
          if (b.size >= (uint64_t(1) << lowered_->tagShift))
            throw Error("argument " + std::to_string(i) + " of " + name_ + ": a buffer of " + std::to_string(b.size) +
                        " bytes is larger than the device can address (" +
                        std::to_string((uint64_t(1) << lowered_->tagShift) - 1) + " bytes)");
        } else {
          b.null = true;
        }
        break;
      case ArgKind::Local: b.size = a.localBytes; break;
      case ArgKind::Value: b.value = a.value; break;
      case ArgKind::Image: b.image = &a.image->view(); break;
      case ArgKind::Sampler: b.sampler = a.sampler; break;
      case ArgKind::Pipe: b.pipe = &a.pipe->state(); break;
      case ArgKind::Queue: b.queue = bindingOf(*a.queue); break;
    }
  }
  // A work-group's local memory, allocated per work-group by the executor: its static __local variables and its
  // local arguments within localMemSize (the OpenCL API's CL_OUT_OF_RESOURCES for clEnqueueNDRangeKernel).
  uint64_t localBytes = lowered_->workgroupArenaBytes;
  for (const auto& a : args_)
    if (a.info.kind == ArgKind::Local) localBytes += std::min<uint64_t>(a.localBytes, cfg.localMemSize + 1);
  if (localBytes > cfg.localMemSize) {
    std::string sizes = std::to_string(lowered_->workgroupArenaBytes) + " bytes of __local variables";
    for (size_t i = 0; i < args_.size(); ++i)
      if (args_[i].info.kind == ArgKind::Local)
        sizes += ", argument " + std::to_string(i) + " " + std::to_string(args_[i].localBytes) + " bytes";
    throw Error("kernel " + name_ + " needs more local memory than the device's " + std::to_string(cfg.localMemSize) +
                " bytes (" + sizes + ")");
  }
  interpreter::NDRangeSpec spec;
  spec.dims = range.dims;
  std::array<size_t, 3> local = range.local ? *range.local : defaultLocalSize(range, cfg, maxWorkGroupSize());
  for (unsigned d = 0; d < 3; ++d) {
    const bool used = d < range.dims;
    spec.global[d] = used ? range.global[d] : 1;
    spec.offset[d] = used ? range.offset[d] : 0;
    spec.local[d] = used ? local[d] : 1;
    if (spec.local[d] == 0) throw Error("local size is 0 in dimension " + std::to_string(d));
    if (used && spec.global[d] == 0) throw Error("global size is 0 in dimension " + std::to_string(d));
  }
  const auto& req = lowered_->requiredLocalSize;
  if (req[0] && (spec.local[0] != req[0] || spec.local[1] != req[1] || spec.local[2] != req[2]))
    throw Error("kernel " + name_ + " requires work-group size (" + std::to_string(req[0]) + "," +
                std::to_string(req[1]) + "," + std::to_string(req[2]) + ")");
  uint64_t groupSize = 1;
  for (unsigned d = 0; d < 3; ++d)
    if (__builtin_mul_overflow(groupSize, uint64_t(spec.local[d]), &groupSize) || groupSize > cfg.maxWorkGroupSize)
      throw NDRangeError(NDRangeError::Field::Local,
                         "the work-group size exceeds the device maximum " + std::to_string(cfg.maxWorkGroupSize));
  if (cfg.checks.has(interpreter::Check::Races) && groupSize > interpreter::kRaceCheckerMaxGroupSize)
    throw Error("the race checker tells apart the work-items of work-groups of at most " +
                std::to_string(interpreter::kRaceCheckerMaxGroupSize) + " work-items; this launch's have " +
                std::to_string(groupSize));
  interpreter::ExecConfig ec;
  ec.threads = threads ? threads : cfg.threads;
  ec.instructionBudget = cfg.instructionBudget;
  ec.subgroupSize = cfg.subgroupSize;
  ec.deviceMaxWorkGroupSize = cfg.maxWorkGroupSize;
  ec.shadow = shadow;
  ec.observer = observer;
  ec.onlyGroups = groups;
  // OpenCL C 3.0 §6.15.19.9 [[built-in-functions-helper-functions]] get_default_queue: the kernel's own default, else
  // its device's; none: CLK_NULL_QUEUE.
  if (const auto q = defaultQueue_ ? *defaultQueue_ : program_->device().defaultQueue(); q && cfg.deviceEnqueue)
    ec.defaultDeviceQueue = bindingOf(*q);
  // A shadow run takes the race checker (it only observes accesses); the uninitialised-value checker needs a kernel
  // lowered for it, which the shadow mode's is not.
  ec.checks = cfg.checks;
  if (shadow)
    ec.checks = cfg.checks.has(interpreter::Check::Races) ? interpreter::CheckSet{}.add(interpreter::Check::Races)
                                                          : interpreter::CheckSet{};
  interpreter::ExecResult r;
  try {
    r = interpreter::execute(shadow ? *shadowLowered_ : observer ? *observedLowered_ : *lowered_, bindings, spec, ec);
  } catch (const std::invalid_argument& e) {
    // The executor's own argument checks, which the checks above should already have made; the host API's error.
    throw Error(name_ + ": " + e.what());
  }
  RunResult out;
  out.ok = !r.fault.has_value();
  out.fault = std::move(r.fault);
  out.warnings = std::move(r.warnings);
  out.warningCount = r.warningCount;
  out.localSize = {size_t(spec.local[0]), size_t(spec.local[1]), size_t(spec.local[2])};
  out.workItems = r.workItems;
  out.printfOutput = std::move(r.printfOutput);
  out.choicesUsed = std::move(r.choicesUsed);
  out.findings = std::move(r.findings);
  if (cfg.checksFatal && !out.findings.empty()) out.ok = false;
  if (!range.local) {
    // OpenCL 3.0 API §5.10 [[_executing_kernels]]: the implementation breaks the NDRange into work-groups.
    interpreter::ChoiceUse u{numerics::Choice::DefaultLocalSize, 1, {}};
    u.first.message = "no work-group size given: (" + std::to_string(spec.local[0]) + "," +
                      std::to_string(spec.local[1]) + "," + std::to_string(spec.local[2]) + ") used";
    out.choicesUsed.push_back(std::move(u));
    std::stable_sort(out.choicesUsed.begin(), out.choicesUsed.end(),
                     [](const auto& a, const auto& b) { return a.choice < b.choice; });
  }
  return out;
}

}  // namespace clref::host
