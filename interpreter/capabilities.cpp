// What clref supports of a module's declarations: capabilities, extensions, addressing model
// (checkModuleSupport, program.hpp), checked before a kernel is lowered.
#include "interpreter/program.hpp"

namespace clref::interpreter {

namespace {

// Capabilities whose instructions execute the same way in an OpenCL kernel and in a Vulkan compute shader.
bool executedInBoth(spv::Capability c) {
  using spv::Capability;
  switch (c) {
    case Capability::Int8:
    case Capability::Int16:
    case Capability::Int64:
    case Capability::Float16:
    case Capability::Float64:
    case Capability::Int64Atomics:
    // cl_khr_integer_dot_product: OpenCL Extension Specification 3.0.12 §42 "Integer dot product" (ops_dot_product.cpp
    // executes every input width, so DotProductInputAll too).
    case Capability::DotProduct:
    case Capability::DotProductInput4x8Bit:
    case Capability::DotProductInput4x8BitPacked:
    case Capability::DotProductInputAll:
    // cl_ext_float_atomics (SPV_EXT_shader_atomic_float_add, _float16_add, _float_min_max): add, min and max of half,
    // float and double in global and local memory (ops_atomic.cpp).
    case Capability::AtomicFloat16AddEXT:
    case Capability::AtomicFloat32AddEXT:
    case Capability::AtomicFloat64AddEXT:
    case Capability::AtomicFloat16MinMaxEXT:
    case Capability::AtomicFloat32MinMaxEXT:
    case Capability::AtomicFloat64MinMaxEXT:
    // The sub-group extensions cl_khr_subgroup_ballot, _non_uniform_vote, _non_uniform_arithmetic, _clustered_reduce,
    // _shuffle, _shuffle_relative and _rotate (OpenCL SPIR-V Environment §3.4 [[required-capabilities-1.3]] names the
    // shuffle ones): ops_subgroup.cpp.
    case Capability::GroupNonUniform:
    case Capability::GroupNonUniformVote:
    case Capability::GroupNonUniformArithmetic:
    case Capability::GroupNonUniformBallot:
    case Capability::GroupNonUniformShuffle:
    case Capability::GroupNonUniformShuffleRelative:
    case Capability::GroupNonUniformClustered: return true;
    default: return false;
  }
}

}  // namespace

bool capabilitySupported(spv::Capability c) {
  using spv::Capability;
  switch (c) {
    case Capability::Addresses:
    case Capability::Linkage:
    case Capability::Kernel:
    case Capability::Vector16:
    case Capability::Float16Buffer:
    case Capability::GenericPointer:
    case Capability::BitInstructions:  // SPV_KHR_bit_instructions (cl_khr_extended_bit_ops)
    case Capability::ExpectAssumeKHR:  // SPV_KHR_expect_assume (cl_khr_expect_assume; ops_control.cpp)
    // OpenCL SPIR-V Environment §3 [[required-capabilities]]: Pipes for OpenCL C 2.0's pipes and 3.0's
    // __opencl_c_pipes (ops_pipe.cpp). Not PipeStorage (program-scope pipes, OpenCL C++ only).
    case Capability::Pipes:
    // OpenCL SPIR-V Environment §3 [[required-capabilities]]: DeviceEnqueue for OpenCL C 2.0's and 3.0's
    // __opencl_c_device_enqueue (ops_enqueue.cpp, device_enqueue.hpp).
    case Capability::DeviceEnqueue:
    // OpenCL SPIR-V Environment §3.2 [[required-capabilities-1.1]]: SubgroupDispatch for a device with sub-groups
    // (OpGetKernelMaxNumSubgroups, OpGetKernelLocalSizeForSubgroupCount: ops_enqueue.cpp). Of its execution modes,
    // SubgroupSize is honoured (execute.cpp), SubgroupsPerWorkgroup and SubgroupsPerWorkgroupId refused
    // (checkModuleSupport).
    case Capability::SubgroupDispatch:
    // OpenCL SPIR-V Environment §5 [[opencl_extensions]] cl_khr_subgroup_named_barrier: NamedBarrier
    // (ops_named_barrier.cpp).
    case Capability::NamedBarrier:
    // OpenCL SPIR-V Environment §3 [[required-capabilities]]: Groups for work-group collective functions (OpenCL C
    // 2.0, and 3.0's __opencl_c_work_group_collective_functions); ops_group.cpp executes them.
    case Capability::Groups:
    // cl_khr_work_group_uniform_arithmetic (SPV_KHR_uniform_group_instructions): OpGroupIMulKHR and the rest.
    case Capability::GroupUniformArithmeticKHR:
    // Images: OpenCL SPIR-V Environment §3.1 [[required-capabilities-1.0]] ImageBasic for a device with images,
    // and with it LiteralSampler, Sampled1D, Image1D, SampledBuffer, ImageBuffer and ImageReadWrite (read-write
    // images); ImageMipmap with cl_khr_mipmap_image and cl_khr_mipmap_image_writes (OpenCL SPIR-V Environment
    // §5 [[opencl_extensions]] guarantees it with both).
    case Capability::ImageBasic:
    case Capability::LiteralSampler:
    case Capability::Sampled1D:
    case Capability::Image1D:
    case Capability::SampledBuffer:
    case Capability::ImageBuffer:
    case Capability::ImageReadWrite:
    case Capability::ImageMipmap:
    // cl_khr_subgroup_rotate (SPV_KHR_subgroup_rotate): ops_subgroup.cpp.
    case Capability::GroupNonUniformRotateKHR:
    // SPIR-V 1.6 §3.31 [external] UniformDecoration: the Uniform and UniformId decorations, assertions that a value is
    // the same for every invocation of a scope. A correct kernel computes the same values with or without them, so
    // they are accepted and change nothing.
    case Capability::UniformDecoration: return true;
    default: return executedInBoth(c);
  }
}

// Capabilities of a shader module (Vulkan §A.2 [external] Capabilities) whose instructions the interpreter executes.
bool shaderCapabilitySupported(spv::Capability c) {
  using spv::Capability;
  switch (c) {
    case Capability::Shader:
    case Capability::Matrix:
    // VK_KHR_8bit_storage, VK_KHR_16bit_storage: 8- and 16-bit values in buffer and push-constant memory.
    case Capability::StorageBuffer8BitAccess:
    case Capability::UniformAndStorageBuffer8BitAccess:
    case Capability::StoragePushConstant8:
    case Capability::StorageBuffer16BitAccess:
    case Capability::UniformAndStorageBuffer16BitAccess:
    case Capability::StoragePushConstant16:
    // OpGroupNonUniformQuadBroadcast and OpGroupNonUniformQuadSwap in compute shaders (ops_subgroup_quad.cpp).
    case Capability::GroupNonUniformQuad:
    // Vulkan §A.2 [external] VulkanMemoryModel (the Vulkan memory model, GLSL's #pragma use_vulkan_memory_model, and
    // Device scope in it): clref's memory is sequentially consistent, so the availability and visibility operations
    // and NonPrivate operands hold by themselves; the memory operands' extra scope ids are skipped (ops_memory.cpp
    // reads only Aligned).
    case Capability::VulkanMemoryModel:
    case Capability::VulkanMemoryModelDeviceScope:
    // SPV_KHR_float_controls: the denormal and rounding modes are applied at lowering (lower.cpp
    // applyFloatControls); clref keeps signed zeros, infinities and NaNs, which SignedZeroInfNanPreserve asks for.
    case Capability::DenormPreserve:
    case Capability::DenormFlushToZero:
    case Capability::SignedZeroInfNanPreserve:
    case Capability::RoundingModeRTE:
    case Capability::RoundingModeRTZ:
    // Arrays of buffer blocks indexed by a dynamically uniform or, decorated NonUniform, any index (Vulkan §A.2
    // [external]; SPV_EXT_descriptor_indexing): an access chain's first index selects the descriptor for each
    // invocation (ops_memory.cpp descriptorSelect), so the NonUniform decoration promises nothing clref needs.
    case Capability::UniformBufferArrayDynamicIndexing:
    case Capability::StorageBufferArrayDynamicIndexing:
    case Capability::ShaderNonUniform:
    case Capability::UniformBufferArrayNonUniformIndexing:
    case Capability::StorageBufferArrayNonUniformIndexing:
    // PhysicalStorageBuffer64 (SPV_KHR_physical_storage_buffer, GL_EXT_buffer_reference): a buffer's device address is
    // clref's tagged pointer to it (host::Kernel::deviceAddress), so OpConvertUToPtr, OpConvertPtrToU and pointers
    // stored in memory are the 64-bit pointers OpenCL kernels use, and every access is checked against the buffer its
    // tag names.
    case Capability::PhysicalStorageBufferAddresses: return true;
    default: return executedInBoth(c);
  }
}

bool shaderExtensionSupported(const std::string& name) {
  return name == "SPV_KHR_storage_buffer_storage_class" || name == "SPV_KHR_8bit_storage" ||
         name == "SPV_KHR_16bit_storage" || name == "SPV_KHR_integer_dot_product" ||
         name == "SPV_EXT_shader_atomic_float_add" || name == "SPV_EXT_shader_atomic_float16_add" ||
         name == "SPV_EXT_shader_atomic_float_min_max" || name == "SPV_KHR_non_semantic_info" ||
         name == "SPV_KHR_float_controls" ||
         // SubgroupUniformControlFlowKHR only promises what clref does anyway: invocations of a subgroup that reach a
         // subgroup instruction in uniform control flow execute it together (ops_subgroup.cpp, convergence_order.cpp).
         name == "SPV_KHR_subgroup_uniform_control_flow" || name == "SPV_EXT_descriptor_indexing" ||
         name == "SPV_KHR_physical_storage_buffer" || name == "SPV_EXT_physical_storage_buffer";
}

// Extensions whose instructions and decorations clref executes (or that carry no run-time
// meaning): SPV_KHR_no_integer_wrap_decoration (NoSignedWrap/NoUnsignedWrap: promises only),
// SPV_KHR_expect_assume (OpExpectKHR, OpAssumeTrueKHR), SPV_KHR_linkonce_odr (linkage),
// SPV_KHR_bit_instructions (OpBitFieldInsert/…Extract, OpBitReverse, OpBitCount in kernels),
// SPV_KHR_integer_dot_product (OpSDot and the rest), the float atomics (OpAtomicFAddEXT, OpAtomicFMinEXT,
// OpAtomicFMaxEXT).
bool extensionSupported(const std::string& name) {
  return name == "SPV_KHR_no_integer_wrap_decoration" || name == "SPV_KHR_expect_assume" ||
         name == "SPV_KHR_linkonce_odr" || name == "SPV_KHR_bit_instructions" ||
         name == "SPV_KHR_uniform_group_instructions" || name == "SPV_KHR_integer_dot_product" ||
         name == "SPV_EXT_shader_atomic_float_add" || name == "SPV_EXT_shader_atomic_float16_add" ||
         name == "SPV_EXT_shader_atomic_float_min_max" || name == "SPV_KHR_subgroup_rotate";
}

namespace {

std::string capabilityName(spv::Capability c) {
  switch (c) {
    case spv::Capability::Pipes: return "Pipes";
    case spv::Capability::DeviceEnqueue: return "DeviceEnqueue";
    case spv::Capability::SubgroupDispatch: return "SubgroupDispatch";
    case spv::Capability::RuntimeDescriptorArray:
      return "RuntimeDescriptorArray: arrays of descriptors without a size are not executed by clref";
    default: return "not supported by clref";
  }
}

std::string where(const Module& m, spv::Op opcode, uint32_t firstWord) {
  for (uint32_t i = 0; i < m.instructions.size(); ++i)
    if (m.instructions[i].opcode == opcode && m.instructions[i].words.size() > 1 &&
        m.instructions[i].words[1] == firstWord)
      return "\n  at " + m.describe(i);
  return "";
}

}  // namespace

void checkModuleSupport(const Module& m, const LowerOptions& opt) {
  const bool shader = m.isVulkanShader();
  for (auto c : m.capabilities) {
    if (shader ? !shaderCapabilitySupported(c) : !capabilitySupported(c))
      throw ModuleError("unsupported capability " + std::to_string(uint32_t(c)) + " (" + capabilityName(c) + ")" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
    if (c == spv::Capability::Float16 && !opt.fp16)
      throw ModuleError("the module needs Float16 (cl_khr_fp16) but the device has fp16 disabled" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
    if (c == spv::Capability::Float64 && !opt.fp64)
      throw ModuleError("the module needs Float64 (cl_khr_fp64) but the device has fp64 disabled" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
  }
  for (uint32_t i = 0; i < m.instructions.size(); ++i) {
    const auto& inst = m.instructions[i];
    // SubgroupsPerWorkgroup and SubgroupsPerWorkgroupId (capability SubgroupDispatch) fix how many sub-groups a
    // work-group of the kernel has; clref does not check a launch's work-group size against them or report them
    // (CL_KERNEL_COMPILE_NUM_SUB_GROUPS), so it refuses them rather than run the kernel with other sub-groups.
    // SubgroupSize is checked at the launch (execute.cpp), where the sub-group size is known.
    if ((inst.opcode == spv::Op::OpExecutionMode || inst.opcode == spv::Op::OpExecutionModeId) &&
        inst.words.size() > 2) {
      const auto mode = spv::ExecutionMode(inst.words[2]);
      if (mode == spv::ExecutionMode::SubgroupsPerWorkgroup || mode == spv::ExecutionMode::SubgroupsPerWorkgroupId)
        throw ModuleError(
            std::string("unsupported execution mode ") +
            (mode == spv::ExecutionMode::SubgroupsPerWorkgroup ? "SubgroupsPerWorkgroup" : "SubgroupsPerWorkgroupId") +
            ": clref does not fix the number of sub-groups of a kernel's work-groups\n  at " + m.describe(i));
    }
    if (inst.opcode == spv::Op::OpExtension &&
        !(shader ? shaderExtensionSupported(literalString(inst.words, 1)) : extensionSupported(literalString(inst.words, 1))))
      throw ModuleError("unsupported extension " + literalString(inst.words, 1) + "\n  at " + m.describe(i));
  }
  // Vulkan §A.3 [external] (Validation Rules within a Module): a shader module uses Logical addressing, or
  // PhysicalStorageBuffer64 with the PhysicalStorageBufferAddresses capability; its pointers are the interpreter's
  // tagged 64-bit values, stored in memory only as PhysicalStorageBuffer pointers (device addresses).
  if (shader) {
    if (m.addressing != spv::AddressingModel::Logical && m.addressing != spv::AddressingModel::PhysicalStorageBuffer64)
      throw ModuleError("the shader module uses an addressing model other than Logical and PhysicalStorageBuffer64");
    if (opt.addressBits != 64) throw ModuleError("shader modules run on a device with 64-bit addresses");
    return;
  }
  if (m.addressing != spv::AddressingModel::Physical32 && m.addressing != spv::AddressingModel::Physical64)
    throw ModuleError(
        "addressing model must be Physical32 or Physical64 (OpenCL SPIR-V Environment §4 [[validation-rules]])");
  const unsigned bits = m.addressing == spv::AddressingModel::Physical32 ? 32 : 64;
  if (bits != opt.addressBits)
    throw ModuleError("the module uses " + std::string(bits == 32 ? "Physical32" : "Physical64") +
                      " addressing but the device has " + std::to_string(opt.addressBits) +
                      "-bit addresses (compile for spir" + (opt.addressBits == 32 ? "" : "64") + ")");
}

}  // namespace clref::interpreter
