// cl_khr_spirv_queries (OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR,
// CL_DEVICE_SPIRV_EXTENSIONS_KHR, CL_DEVICE_SPIRV_CAPABILITIES_KHR; OpenCL SPIR-V Environment §5 [[opencl_extensions]]
// cl_khr_spirv_queries: each listed name may be imported, declared or used): what a device's consumer accepts, answered
// from the interpreter's own support tables (interpreter/capabilities.cpp) and narrowed to what this device's
// configuration and extensions enable, so that a module declaring only what is listed builds.
#include <algorithm>

#include "host/host.hpp"
#include "interpreter/program.hpp"

namespace clref::host {

namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The device extension (or OpenCL C feature) that makes a SPIR-V extension available to kernels: OpenCL SPIR-V
// Environment §5 [[opencl_extensions]], one paragraph per extension.
struct ExtensionSource {
  const char* spirv;
  const char* device;
};
constexpr ExtensionSource kExtensionSources[] = {
    {"SPV_KHR_no_integer_wrap_decoration", "cl_khr_spirv_no_integer_wrap_decoration"},
    {"SPV_KHR_linkonce_odr", "cl_khr_spirv_linkonce_odr"},
    {"SPV_KHR_expect_assume", "cl_khr_expect_assume"},
    {"SPV_KHR_bit_instructions", "cl_khr_extended_bit_ops"},
    {"SPV_KHR_uniform_group_instructions", "cl_khr_work_group_uniform_arithmetic"},
    {"SPV_KHR_integer_dot_product", "cl_khr_integer_dot_product"},
    {"SPV_EXT_shader_atomic_float_add", "cl_ext_float_atomics"},
    {"SPV_EXT_shader_atomic_float_min_max", "cl_ext_float_atomics"},
    {"SPV_EXT_shader_atomic_float16_add", "__opencl_c_ext_fp16_global_atomic_add"},
    {"SPV_KHR_subgroup_rotate", "cl_khr_subgroup_rotate"},
};

// The device extension or OpenCL C feature a capability needs on this device (OpenCL SPIR-V Environment §3
// [[required-capabilities]] and §5 [[opencl_extensions]]); nullptr: every clref device accepts it.
const char* capabilitySource(spv::Capability c) {
  using spv::Capability;
  switch (c) {
    case Capability::Float16: return "cl_khr_fp16";
    case Capability::Float64: return "cl_khr_fp64";
    case Capability::Int64Atomics: return "cl_khr_int64_base_atomics";
    case Capability::GenericPointer: return "__opencl_c_generic_address_space";
    case Capability::Pipes: return "__opencl_c_pipes";
    case Capability::DeviceEnqueue: return "__opencl_c_device_enqueue";
    case Capability::Groups: return "__opencl_c_work_group_collective_functions";
    case Capability::ImageBasic:
    case Capability::LiteralSampler:
    case Capability::Sampled1D:
    case Capability::Image1D:
    case Capability::SampledBuffer:
    case Capability::ImageBuffer: return "__opencl_c_images";
    case Capability::ImageReadWrite: return "__opencl_c_read_write_images";
    case Capability::ImageMipmap: return "cl_khr_mipmap_image";
    case Capability::GroupNonUniform: return "__opencl_c_subgroups";
    // OpenCL SPIR-V Environment §3.2 [[required-capabilities-1.1]]: SubgroupDispatch for devices supporting sub-groups.
    case Capability::SubgroupDispatch: return "__opencl_c_subgroups";
    case Capability::GroupNonUniformVote: return "cl_khr_subgroup_non_uniform_vote";
    case Capability::GroupNonUniformArithmetic: return "cl_khr_subgroup_non_uniform_arithmetic";
    case Capability::GroupNonUniformBallot: return "cl_khr_subgroup_ballot";
    case Capability::GroupNonUniformShuffle: return "cl_khr_subgroup_shuffle";
    case Capability::GroupNonUniformShuffleRelative: return "cl_khr_subgroup_shuffle_relative";
    case Capability::GroupNonUniformClustered: return "cl_khr_subgroup_clustered_reduce";
    case Capability::GroupNonUniformRotateKHR: return "cl_khr_subgroup_rotate";
    case Capability::NamedBarrier: return "cl_khr_subgroup_named_barrier";
    case Capability::GroupUniformArithmeticKHR: return "cl_khr_work_group_uniform_arithmetic";
    case Capability::BitInstructions: return "cl_khr_extended_bit_ops";
    case Capability::ExpectAssumeKHR: return "cl_khr_expect_assume";
    case Capability::DotProduct:
    case Capability::DotProductInputAll: return "cl_khr_integer_dot_product";
    case Capability::DotProductInput4x8Bit: return "__opencl_c_integer_dot_product_input_4x8bit";
    case Capability::DotProductInput4x8BitPacked: return "__opencl_c_integer_dot_product_input_4x8bit_packed";
    case Capability::AtomicFloat16AddEXT: return "__opencl_c_ext_fp16_global_atomic_add";
    case Capability::AtomicFloat32AddEXT: return "__opencl_c_ext_fp32_global_atomic_add";
    case Capability::AtomicFloat64AddEXT: return "__opencl_c_ext_fp64_global_atomic_add";
    case Capability::AtomicFloat16MinMaxEXT: return "__opencl_c_ext_fp16_global_atomic_min_max";
    case Capability::AtomicFloat32MinMaxEXT: return "__opencl_c_ext_fp32_global_atomic_min_max";
    case Capability::AtomicFloat64MinMaxEXT: return "__opencl_c_ext_fp64_global_atomic_min_max";
    default: return nullptr;
  }
}

}  // namespace

SpirvQueries spirvQueries(const DeviceConfig& config, const std::vector<std::string>& deviceExtensions) {
  std::vector<std::string> enabled = deviceExtensions;
  for (const auto& f : openCLCFeatures(config)) enabled.push_back(f);
  SpirvQueries q;
  // The extended instruction sets a kernel may import: OpenCL.std (OpenCL SPIR-V Environment §2 [[common-properties]])
  // and the debug information llvm-spirv emits with -g (OpenCL SPIR-V Environment §5 [[opencl_extensions]]
  // cl_khr_spirv_extended_debug_info), read for source lines.
  q.extendedInstructionSets = {"OpenCL.std", "OpenCL.DebugInfo.100"};
  for (const auto& e : kExtensionSources)
    if (interpreter::extensionSupported(e.spirv) && has(enabled, e.device)) q.extensions.push_back(e.spirv);
  // Capability values are 16-bit tokens in every grammar so far; the interpreter's table decides which it executes.
  for (uint32_t token = 0; token < 0x10000; ++token) {
    const auto c = spv::Capability(token);
    if (!interpreter::capabilitySupported(c)) continue;
    const char* source = capabilitySource(c);
    if (!source || has(enabled, source)) q.capabilities.push_back(token);
  }
  return q;
}

}  // namespace clref::host
