// The OpenCL C extensions and optional features a device executes (openCLCExtensions, openCLCFeatures: host.hpp).
#include "host/host.hpp"

#include "interpreter/program.hpp"

namespace clref::host {

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

}  // namespace clref::host
