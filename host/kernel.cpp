// host::Kernel (host.hpp): a kernel of a program, its lowerings and its arguments. Its runs: kernel_run.cpp.
#include "host/host.hpp"
#include "host/lower_options.hpp"

#include "interpreter/program.hpp"

namespace clref::host {

Kernel::Kernel(std::shared_ptr<Program> program, const std::string& name) : program_(std::move(program)), name_(name) {
  if (!program_) throw Error("Kernel needs a program");
  if (!program_->module().entryPoint(name)) {
    std::string known;
    for (const auto& k : program_->kernelNames()) known += (known.empty() ? "" : ", ") + k;
    throw Error("no kernel named '" + name + "' in the program (kernels: " + (known.empty() ? "none" : known) + ")");
  }
  for (const auto& p : lowered(Lowering::Plain).params) {
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
    a.info.resource = KernelArgInfo::Resource(p.resource);
    a.info.descriptorSet = p.descriptorSet;
    a.info.binding = p.binding;
    a.info.arrayElement = p.arrayElement;
    a.info.descriptorCount = p.descriptorCount;
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

const interpreter::LoweredKernel& Kernel::lowered(Lowering kind, const numerics::Choices* ownChoices) {
  Lowered& l = lowered_[size_t(kind)];
  if (l.kernel && l.specVersion == program_->specVersion_ && !l.ownChoices && !ownChoices) return *l.kernel;
  interpreter::LowerOptions o = lowerOptions(program_->device().config());
  for (const auto& [id, v] : program_->specConstants_) o.specConstants[id] = v;
  o.globals = program_->globals_;
  if (kind == Lowering::Shadow) {
    o.shadow = true;
    o.checks = {};  // a shadow run has no checkers
  }
  o.observeInstructions = kind == Lowering::Observed;
  if (ownChoices) o.choices = *ownChoices;
  l.kernel = interpreter::lowerKernel(program_->module(), name_, o);
  l.specVersion = program_->specVersion_;
  l.ownChoices = ownChoices != nullptr;
  return *l.kernel;
}

static_assert(kMinShaderSubgroupSize == interpreter::kMinShaderSubgroupSize &&
              kMaxShaderSubgroupSize == interpreter::kMaxShaderSubgroupSize);
static_assert(kMaxGlobalVariableSize == interpreter::kMaxProgramScopeVariableBytes &&
              kMaxGlobalVariableTotalSize == interpreter::kMaxProgramScopeTotalBytes);

size_t Kernel::maxWorkGroupSize() const {
  return size_t(interpreter::maxWorkGroupSize(plain(), program_->device().config().maxWorkGroupSize));
}

uint64_t Kernel::privateMemBytes() const {
  return plain().privateArenaBytes + plain().registerTemplate.size();
}

bool Kernel::enqueuesKernels() const { return plain().usesDeviceEnqueue; }

const numerics::Choices& Kernel::choices() const { return program_->device().config().choices; }

static_assert(uint8_t(KernelArgInfo::Resource::PushConstant) == uint8_t(interpreter::ShaderResource::PushConstant));

bool Kernel::isShader() const { return plain().shader; }

std::optional<size_t> Kernel::resourceArg(uint32_t set, uint32_t binding, uint32_t arrayElement) const {
  for (size_t i = 0; i < args_.size(); ++i) {
    const auto& info = args_[i].info;
    if (info.resource != KernelArgInfo::Resource::None && info.resource != KernelArgInfo::Resource::PushConstant &&
        info.descriptorSet == set && info.binding == binding && info.arrayElement == arrayElement)
      return i;
  }
  return std::nullopt;
}

std::optional<size_t> Kernel::pushConstantArg() const {
  for (size_t i = 0; i < args_.size(); ++i)
    if (args_[i].info.resource == KernelArgInfo::Resource::PushConstant) return i;
  return std::nullopt;
}

uint64_t Kernel::deviceAddress(size_t i) const {
  const auto& params = plain().params;
  if (i >= params.size() || (params[i].resource != interpreter::ShaderResource::StorageBuffer &&
                             params[i].resource != interpreter::ShaderResource::UniformBuffer))
    throw Error("deviceAddress: argument " + std::to_string(i) + " of " + name_ +
                " is not a storage or uniform buffer of a compute shader");
  // The plain, shadow and observed lowerings give a parameter the same tag (lower_shader_interface.cpp).
  return uint64_t(params[i].tag) << plain().tagShift;
}

std::array<uint32_t, 3> Kernel::workgroupSize() {
  if (!isShader()) throw Error(name_ + " is an OpenCL kernel, not a compute shader: it has no fixed work-group size");
  return lowered(Lowering::Plain).requiredLocalSize;  // specialized with the program's constants as they are now
}

NDRange Kernel::dispatch(const std::array<uint32_t, 3>& groups) {
  const auto size = workgroupSize();
  NDRange range;
  range.dims = 3;
  for (int d = 0; d < 3; ++d) {
    if (groups[d] == 0) throw Error("dispatch: the work-group count in dimension " + std::to_string(d) + " is 0");
    range.global[d] = size_t(groups[d]) * size[d];
  }
  range.local = std::array<size_t, 3>{size[0], size[1], size[2]};
  return range;
}

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

}  // namespace clref::host
