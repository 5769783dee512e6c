// interpreter::LoweredKernel: one kernel of a Module lowered for one device configuration into
// flat Op arrays, a register-file template and the allocation table layout.
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "interpreter/exec.hpp"
#include "interpreter/module.hpp"
#include "numerics/choices.hpp"
#include "numerics/format.hpp"

namespace clref::interpreter {

class BlockKernels;

// Sizes clref bounds when it lowers a kernel; the OpenCL specifications leave them to the
// device (OpenCL 3.0 API §4.2 [[platform-querying-devices]] has no query for private memory per
// work-item). A kernel needing more is refused with a ModuleError naming the quantity, its
// size and the limit, instead of exhausting the host's memory at launch.
// Private memory per work-item: Function and Private variables, by-value arguments, BuiltIn copies.
constexpr uint64_t kMaxPrivateBytesPerWorkItem = uint64_t(16) << 20;
// Static local memory of a work-group: the kernel's module-scope Workgroup variables.
constexpr uint64_t kMaxWorkgroupBytes = uint64_t(256) << 20;
// One program-scope (CrossWorkgroup or UniformConstant) variable (the OpenCL API's CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE),
// and all of a program's together (CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE).
constexpr uint64_t kMaxProgramScopeVariableBytes = uint64_t(256) << 20;
constexpr uint64_t kMaxProgramScopeTotalBytes = uint64_t(1) << 30;
// A work-item's register file: every SSA value and constant of the kernel (constant composites
// and program-scope initialisers included), copied once per work-item.
constexpr uint64_t kMaxRegisterBytes = uint64_t(64) << 20;
// The subgroup sizes a compute shader runs with: Vulkan [[limits-subgroupSize]] [external] "a power-of-two",
// [[limits-minSubgroupSize]] at least 4; the subgroup masks (uvec4, 128 bits) bound it at 128.
constexpr uint32_t kMinShaderSubgroupSize = 4, kMaxShaderSubgroupSize = 128;

// The memory held by the work-items of one work-group that are alive at once (each holds its register file and its
// private memory): a kernel with a barrier keeps every work-item of the group, one without the scheduler's batch.
// Larger work-groups are refused (CL_KERNEL_WORK_GROUP_SIZE reports the largest that fits).
constexpr uint64_t kMaxPrivateBytesPerWorkGroup = uint64_t(1) << 30;
// The same memory for every worker thread together: a launch runs on fewer threads rather than exceed it.
constexpr uint64_t kMaxPrivateBytesInFlight = uint64_t(4) << 30;

// Storage of program-scope variables (CrossWorkgroup and UniformConstant), shared by every
// kernel of a program and kept between launches (OpenCL C 3.0 §6.7.7 [[_initialization]] program scope variables).
struct GlobalStorage {
  std::mutex mutex;
  std::map<uint32_t, std::vector<uint8_t>> bytes;  // variable id → contents
};

struct LowerOptions {
  unsigned addressBits = 64;
  bool fp16 = true;
  bool fp64 = true;
  numerics::Denorm denormHalf = numerics::Denorm::Preserve;
  numerics::Denorm denormFloat = numerics::Denorm::Preserve;
  numerics::Denorm denormDouble = numerics::Denorm::Preserve;
  // The widths whose correctly rounded operations round toward zero rather than to nearest even (bit 0 binary16, 1
  // binary32, 2 binary64): a shader's RoundingModeRTZ or the choice vulkan_rounding (lower.cpp applyFloatControls).
  uint8_t roundTowardZero = 0;
  numerics::Choices choices;
  std::map<uint32_t, std::vector<uint8_t>> specConstants;  // SpecId → value bytes
  std::shared_ptr<GlobalStorage> globals;
  // Allowed-set propagation (interpreter/shadow.hpp): the kernel carries the shadow rules' Ops and no peephole
  // fusion; it must run with a ShadowRun (ExecConfig::shadow).
  bool shadow = false;
  // The optional checkers the kernel runs with (interpreter/checks/); the uninitialised-value checker's shadow Ops
  // are emitted at lowering.
  CheckSet checks;
  // An Op before every instruction and after every value-producing one that tells the launch's ExecutionObserver
  // (interpreter/observer.hpp); no peephole fusion, so that every value has its register.
  bool observeInstructions = false;
  // Device-side enqueue: the block kernels the kernel's enqueues use (device_enqueue.hpp); nullptr: the lowering
  // makes the kernel its own when it enqueues blocks.
  BlockKernels* blockKernels = nullptr;
  // enqueue_kernel and enqueue_marker return the precise CLK_* error rather than CLK_ENQUEUE_FAILURE (the program was
  // built with -g: OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]).
  bool detailedEnqueueErrors = false;
};

// ByValArg: a struct passed by value as a pointer to a per-work-item copy (llvm-spirv's
// FuncParamAttr ByVal parameters).
enum class AllocationSource : uint8_t { Null, KernelArg, LocalArg, Global, Workgroup, Private, Builtin, ByValArg };

struct AllocationDesc {
  AllocationDesc() = default;
  AllocationDesc(std::string n, AllocationSource src, spv::StorageClass sc, uint64_t sz = 0, uint32_t al = 1,
                 uint32_t arg = 0)
      : name(std::move(n)), source(src), storage(sc), size(sz), align(al), argIndex(arg) {}
  std::string name;
  AllocationSource source = AllocationSource::Null;
  spv::StorageClass storage = spv::StorageClass::CrossWorkgroup;
  uint64_t size = 0;
  uint32_t align = 1;
  uint64_t arenaOffset = 0;   // Private/Builtin: offset in the work-item arena; Workgroup: in the group arena
  uint32_t argIndex = 0;      // KernelArg/LocalArg
  uint32_t variable = 0;      // Global/Private/Workgroup/Builtin: the OpVariable id
  std::vector<uint8_t> init;  // Private: initial contents (empty: the uninitialised pattern)
  spv::BuiltIn builtin = spv::BuiltIn::Max;
  uint32_t builtinElementBytes = 0;  // Builtin: bytes of one component (size_t is 4 or 8)
};

// Image: an OpTypeImage parameter (imageType and access say which); Sampler: an OpTypeSampler parameter; Queue: an
// OpTypeQueue parameter (queue_t, a device queue).
enum class ParamKind : uint8_t { Buffer, Local, Value, Image, Sampler, Pipe, Queue };
// OpTypeImage's Access Qualifier (SPIR-V 1.0 §3.38 [external]).
enum class ImageAccess : uint8_t { ReadOnly, WriteOnly, ReadWrite };

// One scalar of a buffer parameter's pointee type: its byte offset in one element, its size and whether it is a
// floating-point number (OpTypeFloat) rather than an integer.
struct ScalarField {
  uint32_t offset = 0;
  uint8_t bytes = 0;
  bool isFloat = false;
};

constexpr size_t kMaxScalarFields = 4096;

// What a parameter of a Vulkan compute shader is (Vulkan §15.1 [external] Shader Resource Declarations, Vulkan §15.9
// [external] Push Constants): a shader has no function parameters, its interface variables are bound by the API
// instead; each storage buffer, uniform buffer and push-constant block becomes a Buffer parameter whose register is
// the variable's.
enum class ShaderResource : uint8_t { None, StorageBuffer, UniformBuffer, PushConstant };

struct KernelParam {
  std::string name;
  std::string typeName;  // "global float*", "int4", "struct (12 bytes)"
  ParamKind kind = ParamKind::Value;
  uint32_t reg = 0;   // register offset of the OpFunctionParameter
  uint32_t size = 0;  // register bytes (pointer width for Buffer/Local)
  uint32_t tag = 0;   // Buffer/Local: allocation tag
  uint32_t pointeeAlign = 1;
  bool byVal = false;  // Value passed through a pointer to a private copy (ByVal)
  bool noWrite = false;  // Buffer: FuncParamAttr NoWrite, the kernel never writes through this pointer
  // Buffer whose pointee is a struct or an array: its scalars in offset order (empty for a scalar or vector pointee,
  // or more than kMaxScalarFields of them), and the pointee's size.
  std::vector<ScalarField> pointeeFields;
  uint64_t pointeeSize = 0;
  spv::StorageClass storage = spv::StorageClass::Function;
  // Image parameters: the image type OpTypeImage declares (Dim, Arrayed; 1D Buffer for Dim Buffer) and its access.
  images::ImageType imageType = images::ImageType::Image2D;
  bool depth = false;  // OpTypeImage Depth 1 (image2d_depth_t, cl_khr_depth_images)
  ImageAccess access = ImageAccess::ReadOnly;
  // Image/Sampler parameters: the index of the argument in the launch's image or sampler table (the handle the
  // parameter's register holds, exec.hpp kImageHandleTag).
  uint32_t handleIndex = 0;
  // Shader resources: which kind, and the DescriptorSet and Binding decorations of its variable.
  ShaderResource resource = ShaderResource::None;
  uint32_t descriptorSet = 0;
  uint32_t binding = 0;
  // An array of buffer blocks (Vulkan §15.1 [external]: one binding, descriptorCount descriptors) is one parameter
  // per element: its element and the array's size (0 for a binding that is not an array).
  uint32_t arrayElement = 0;
  uint32_t descriptorCount = 0;
};

struct LoweredKernel {
  std::string name;
  const Module* module = nullptr;
  std::vector<Op> ops;                                 // all functions, each a contiguous range
  std::deque<Edge> edges;                              // stable addresses for Op::aux
  std::deque<std::vector<uint32_t>> tables;            // other Op::aux payloads (shuffles, chains, …)
  std::deque<std::vector<uint64_t>> tables64;          // OpSwitch: (literal, Edge*) pairs
  std::deque<Collective> collectives;                  // Op::aux of work-group collectives
  std::deque<std::shared_ptr<const void>> auxObjects;  // other family-specific Op::aux payloads
  std::vector<uint8_t> registerTemplate;               // constants, variable pointers, zeros elsewhere
  uint32_t entryOp = 0;
  int64_t entryCost = 0;
  std::vector<KernelParam> params;
  std::vector<AllocationDesc> allocations;  // index = pointer tag; [0] is null
  uint32_t tagShift = 40;
  unsigned addressBits = 64;
  uint64_t privateArenaBytes = 0;
  uint64_t workgroupArenaBytes = 0;  // static Workgroup variables; local args follow
  bool usesBarrier = false;
  bool usesSubgroupCollectives = false;  // some Collective has Collective::subgroup
  bool usesAtomics = false;              // some atomic instruction (ops_atomic.cpp)
  bool fillsBuiltins = false;  // some builtin variable is read through memory
  std::array<uint32_t, 3> requiredLocalSize{0, 0, 0};
  // A Vulkan compute shader (Module::isVulkanShader): its parameters are its resources (ShaderResource), and
  // requiredLocalSize its specialized work-group size.
  bool shader = false;
  numerics::Choices choices;
  uint8_t uninitialisedByte = 0;
  // The instructions that consume an OpUndef result (other than as the vector an OpCompositeInsert chain overwrites):
  // where the choice undef_value may decide a value (undefined_values.cpp).
  std::vector<uint32_t> undefConsumers;
  // Undefined-value tracking (checks/undefined_values.cpp): what each shadow byte's number names ([0] is ""), and
  // with the uninitialised-value checker the origin number of each allocation that starts undefined (0: defined)
  // and per instruction whether a shadow Op after it moves the shadow of the memory it writes.
  std::vector<std::string> undefinedOrigins;
  std::vector<uint8_t> allocationOrigin;
  std::vector<uint8_t> shadowsMemory;
  CheckSet checks;  // LowerOptions::checks
  bool shadow = false;  // lowered with LowerOptions::shadow
  bool observesInstructions = false;  // lowered with LowerOptions::observeInstructions
  // With observeInstructions: the register offset of every value id that has one (for printing values by id).
  std::unordered_map<uint32_t, uint32_t> registerOf;
  std::shared_ptr<GlobalStorage> globals;
  // Images and samplers (exec.hpp kImageHandleTag): image handle i is parameter imageParams[i]; sampler handle i is
  // parameter samplerParams[i] below samplerParams.size(), then constantSamplers[i - samplerParams.size()].
  std::vector<uint32_t> imageParams;
  std::vector<uint32_t> pipeParams;  // pipe handle i is parameter pipeParams[i] (exec.hpp kPipeHandleTag)
  std::vector<uint32_t> samplerParams;
  std::vector<images::Sampler> constantSamplers;
  // Device-side enqueue (device_enqueue.hpp): the kernel enqueues blocks, queries block kernels, or takes a queue_t;
  // the block kernels it uses (shared with the children, owned by the kernel the host lowered).
  bool usesDeviceEnqueue = false;
  BlockKernels* blockKernels = nullptr;
  std::shared_ptr<BlockKernels> ownedBlockKernels;
};

// Bytes one work-item slot holds while it runs: its register file and its private memory.
uint64_t workItemBytes(const LoweredKernel& kernel);
// Work-item slots a work-group of `groupSize` work-items keeps alive at once.
uint64_t slotsPerWorkGroup(const LoweredKernel& kernel, uint64_t groupSize);
// The largest work-group size whose slots fit kMaxPrivateBytesPerWorkGroup (at most `deviceMax`).
uint64_t maxWorkGroupSize(const LoweredKernel& kernel, uint64_t deviceMax);

// Lowers entry point `name`; throws ModuleError for unsupported or invalid input (unknown
// kernel, recursion, unsupported instruction or capability), naming the instruction.
std::unique_ptr<LoweredKernel> lowerKernel(const Module& module, const std::string& name, const LowerOptions& options);
// Lowers function `function` as a kernel: a block's invoke function (OpEnqueueKernel's Invoke), whose first parameter
// is the block literal (a Generic pointer, bound like a global buffer) and the rest local pointers.
std::unique_ptr<LoweredKernel> lowerKernelFunction(const Module& module, uint32_t function,
                                                   const LowerOptions& options);

// Rejects a module clref cannot run on a device with these options: unsupported capability
// or extension, capability the device lacks (fp16, fp64), addressing model of the wrong width.
// Throws ModuleError naming the instruction.
void checkModuleSupport(const Module& module, const LowerOptions& options);

// Capabilities the interpreter executes (OpenCL SPIR-V Environment §3 [[required-capabilities]], full profile).
bool capabilitySupported(spv::Capability c);
// Whether clref accepts a module declaring this OpExtension (capabilities.cpp).
bool extensionSupported(const std::string& name);
// The same for a Vulkan compute shader module (Module::isVulkanShader).
bool shaderCapabilitySupported(spv::Capability c);
bool shaderExtensionSupported(const std::string& name);

}  // namespace clref::interpreter
