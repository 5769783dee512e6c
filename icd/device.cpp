// OpenCL 3.0 API §4.2 [[platform-querying-devices]] clGetDeviceInfo, table "OpenCL Device Queries": every query, with
// what the clref device really does. Optional features the interpreter does not execute are reported absent.
#include <algorithm>
#include <mutex>
#include <set>

#include "icd/command_buffer_khr.hpp"
#include "icd/device_info.hpp"

namespace clref::cl {

// The device queue sizes are cl_uint queries.
static_assert(host::kDeviceQueueMaxSize <= UINT32_MAX && host::kDeviceQueuePreferredSize <= host::kDeviceQueueMaxSize);

namespace {

cl_name_version nv(cl_version v, const char* name) {
  cl_name_version r{};
  r.version = v;
  std::snprintf(r.name, sizeof r.name, "%s", name);
  return r;
}

// Extensions: only what works: the ICD's and cl_khr_il_program, the OpenCL C extensions the
// interpreter executes (host::openCLCExtensions: int32 atomics, byte stores, fp64/fp16 as the
// DeviceConfig says) and the SPIR-V extensions it accepts (interpreter/capabilities.cpp):
// NoSignedWrap/NoUnsignedWrap decorations, LinkOnceODR linkage (SPIRV-Tools' linker merges it).
std::vector<cl_name_version> deviceExtensions(const host::DeviceConfig& cfg) {
  std::vector<cl_name_version> v{nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"),
                                 nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_il_program")};
  for (const auto& e : host::openCLCExtensions(cfg)) {
    // cl_khr_integer_dot_product 2.0.0 (OpenCL Extension Specification 3.0.12 §42 "Integer dot product": 8-bit
    // input mandatory, acceleration properties queried).
    const cl_version version = e == "cl_khr_integer_dot_product" ? CL_MAKE_VERSION(2, 0, 0) : CL_MAKE_VERSION(1, 0, 0);
    v.push_back(nv(version, e.c_str()));
  }
  v.push_back(nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_no_integer_wrap_decoration"));
  // clGetKernelSuggestedLocalWorkSizeKHR (icd/kernel.cpp).
  v.push_back(nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_suggested_local_work_size"));
  v.push_back(nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_linkonce_odr"));
  // The SPIR-V queries below (CL_DEVICE_SPIRV_*_KHR).
  v.push_back(nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_queries"));
  // Command-buffers (icd/command_buffer.cpp), the revision cl.xml has.
  v.push_back(nv(khr::kCommandBufferVersion, "cl_khr_command_buffer"));
  return v;
}

// cl_khr_spirv_queries' enums (cl.xml; newer than Debian's CL/cl_ext.h).
constexpr cl_device_info kDeviceSpirvExtendedInstructionSets = 0x12B9, kDeviceSpirvExtensions = 0x12BA,
                         kDeviceSpirvCapabilities = 0x12BB;

host::SpirvQueries spirvQueriesOf(const host::DeviceConfig& cfg) {
  std::vector<std::string> names;
  for (const auto& e : deviceExtensions(cfg)) names.push_back(e.name);
  return host::spirvQueries(cfg, names);
}

// Pointers to copies of `names` that live as long as the library: a `const char*[]` query's answer must stay readable
// after the call returns.
std::vector<const char*> internedNames(const std::vector<std::string>& names) {
  static std::mutex mutex;
  static std::set<std::string> interned;
  std::lock_guard lock(mutex);
  std::vector<const char*> v;
  for (const auto& n : names) v.push_back(interned.insert(n).first->c_str());
  return v;
}

cl_device_fp_atomic_capabilities_ext floatAtomicCapabilities(bool typeSupported) {
  if (!typeSupported) return 0;
  return CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
         CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
         CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
}

std::string joinNames(const std::vector<cl_name_version>& v) {
  std::string s;
  for (const auto& e : v) s += std::string(s.empty() ? "" : " ") + e.name;
  return s;
}

// OpenCL C features (OpenCL C 3.0 §6.2.1 [[features]] feature macros): host::openCLCFeatures, the same
// names the compiler is given.
std::vector<cl_name_version> openclCFeatures(const host::DeviceConfig& cfg) {
  std::vector<cl_name_version> v;
  for (const auto& f : host::openCLCFeatures(cfg)) v.push_back(nv(CL_MAKE_VERSION(3, 0, 0), f.c_str()));
  return v;
}

}  // namespace

bool hasFeature(const host::DeviceConfig& cfg, const char* name) {
  for (const auto& f : host::openCLCFeatures(cfg))
    if (f == name) return true;
  return false;
}

std::vector<cl_name_version> platformExtensionsWithVersion() {
  return {nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"), nv(CL_MAKE_VERSION(1, 0, 0), "cl_khr_il_program")};
}

size_t maxWorkGroupSize() { return theDevice()->device.config().maxWorkGroupSize; }

cl_int deviceInfo(cl_device_id device, cl_device_info param, const InfoOut& out) {
  const auto& cfg = device->device.config();
  const size_t wg = cfg.maxWorkGroupSize;
  // IEEE 754 behaviour of the interpreter: correctly rounded in every mode, denormals kept unless
  // the config flushes them, fused multiply-add exact (MPFR).
  const auto fpConfig = [](bool denorms, bool single) {
    cl_device_fp_config c =
        CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
    if (denorms) c |= CL_FP_DENORM;
    if (single) c |= CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    return c;
  };
  switch (param) {
    case CL_DEVICE_TYPE: return out(kDeviceType);
    case CL_DEVICE_VENDOR_ID: return out(cl_uint(0));  // no PCI vendor
    case CL_DEVICE_MAX_COMPUTE_UNITS: return out(device->computeUnits);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return out(cl_uint(3));
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: return out(std::vector<size_t>{wg, wg, wg});
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return out(wg);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return out(cl_uint(1));
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: must be 0 when the type is not supported.
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return out(cl_uint(cfg.fp64 ? 1 : 0));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return out(cl_uint(cfg.fp16 ? 1 : 0));
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return out(cl_uint(1));
    case CL_DEVICE_ADDRESS_BITS: return out(cl_uint(cfg.addressBits));
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return out(kMaxMemAlloc);
    // Images (device_info.hpp has the limits and why).
    case CL_DEVICE_IMAGE_SUPPORT: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return out(kMaxReadImageArgs);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return out(kMaxWriteImageArgs);
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: 0 for a device without read-write image arguments.
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
      return out(hasFeature(cfg, "__opencl_c_read_write_images") ? kMaxReadWriteImageArgs : cl_uint(0));
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return out(kImagePitchAlignment);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return out(kImageBaseAddressAlignment);
    case CL_DEVICE_MAX_SAMPLERS: return out(kMaxSamplers);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: return out(kImage2DMaxWidth);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return out(kImage2DMaxHeight);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: return out(kImage3DMaxWidth);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return out(kImage3DMaxHeight);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return out(kImage3DMaxDepth);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return out(kImageMaxBufferSize);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return out(kImageMaxArraySize);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return out(kMaxParameterSize);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return out(kMemBaseAddrAlignBits);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return out(cl_uint(128));  // deprecated in 1.2
    case CL_DEVICE_SINGLE_FP_CONFIG: return out(fpConfig(cfg.denormFloat == numerics::Denorm::Preserve, true));
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      return out(cl_device_fp_config(cfg.fp64 ? fpConfig(cfg.denormDouble == numerics::Denorm::Preserve, false) : 0));
    case CL_DEVICE_HALF_FP_CONFIG:
      return out(cl_device_fp_config(cfg.fp16 ? fpConfig(cfg.denormHalf == numerics::Denorm::Preserve, false) : 0));
    // OpenCL Extension Specification 3.0.12 §42.2 "New API Enums": both inputs; nothing is accelerated on an
    // interpreter (each member CL_FALSE).
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
      return out(cl_device_integer_dot_product_capabilities_khr(CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                                                                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
      return out(cl_device_integer_dot_product_acceleration_properties_khr{});
    // cl_ext_float_atomics [external]: every operation in global and local memory for each float type the device has.
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT: return out(floatAtomicCapabilities(true));
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT: return out(floatAtomicCapabilities(cfg.fp64));
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: return out(floatAtomicCapabilities(cfg.fp16));
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return out(cl_device_mem_cache_type(CL_NONE));
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return out(cl_uint(0));
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return out(cl_ulong(0));
    case CL_DEVICE_GLOBAL_MEM_SIZE: return out(kGlobalMemSize);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return out(kMaxConstantBufferSize);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return out(kMaxConstantArgs);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return out(kMaxGlobalVariableSize);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return out(kGlobalVariablePreferredTotalSize);
    case CL_DEVICE_LOCAL_MEM_TYPE: return out(cl_device_local_mem_type(CL_LOCAL));
    case CL_DEVICE_LOCAL_MEM_SIZE: return out(kLocalMemSize);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return out(cl_bool(CL_FALSE));
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out(cl_bool(CL_TRUE));  // buffers are host memory
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return out(size_t(1));
    case CL_DEVICE_ENDIAN_LITTLE: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_AVAILABLE: return out(cl_bool(CL_TRUE));
    // The OpenCL C compiler is clang-15 + llvm-spirv-15 (compiler/opencl_c.cpp), present or not; the linker is
    // SPIRV-Tools', built in (OpenCL 3.0 API §4.2 [[platform-querying-devices]]: it must be available when the compiler
    // is).
    case CL_DEVICE_COMPILER_AVAILABLE:
      return out(cl_bool(host::Program::openCLCCompilerAvailable() ? CL_TRUE : CL_FALSE));
    case CL_DEVICE_LINKER_AVAILABLE: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_EXECUTION_CAPABILITIES: return out(cl_device_exec_capabilities(CL_EXEC_KERNEL));
    // Out-of-order execution is accepted (OpenCL 3.0 API §5.1 [[_command_queues]]) and executed in order, which is a
    // valid schedule.
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return out(cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    // Device-side enqueue (DeviceConfig::deviceEnqueue; device queues: queue.cpp): the limits the interpreter keeps
    // (host::kDeviceQueue*), each "0 for devices that do not support on-device queues". Out-of-order and profiling are
    // the mandated minimum of CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES; the default queue is replaceable
    // (clSetDefaultDeviceCommandQueue).
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
      return out(cl_command_queue_properties(
          cfg.deviceEnqueue ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE : 0));
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
      return out(cl_uint(cfg.deviceEnqueue ? host::kDeviceQueuePreferredSize : 0));
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: return out(cl_uint(cfg.deviceEnqueue ? host::kDeviceQueueMaxSize : 0));
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES: return out(cl_uint(cfg.deviceEnqueue ? host::kMaxOnDeviceQueues : 0));
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return out(cl_uint(cfg.deviceEnqueue ? host::kMaxOnDeviceEvents : 0));
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      return out(cl_device_device_enqueue_capabilities(
          cfg.deviceEnqueue ? CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT : 0));
    case CL_DEVICE_BUILT_IN_KERNELS: return out("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return out(std::vector<cl_name_version>{});
    case CL_DEVICE_PLATFORM: return out(thePlatform());
    case CL_DEVICE_NAME: return out("clref reference device");
    case CL_DEVICE_VENDOR: return out("clref");
    case CL_DRIVER_VERSION: return out("0.1.0");
    case CL_DEVICE_PROFILE: return out("FULL_PROFILE");
    case CL_DEVICE_VERSION: return out("OpenCL 3.0 clref");
    case CL_DEVICE_NUMERIC_VERSION: return out(cl_version(CL_MAKE_VERSION(3, 0, 0)));
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: the highest 1.x version
    case CL_DEVICE_OPENCL_C_VERSION: return out("OpenCL C 1.2 clref");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
      // OpenCL C 2.0 needs every feature OpenCL C 3.0 makes optional except sub-groups and fp64 (OpenCL C 3.0 §6.2.1
      // [[features]]): the generic address space, pipes, device-side enqueue, work-group functions, program-scope
      // variables, atomics of every order and scope, read-write images; clref has them all while device-side enqueue
      // is on.
      std::vector<cl_name_version> v{nv(CL_MAKE_VERSION(1, 0, 0), "OpenCL C"), nv(CL_MAKE_VERSION(1, 1, 0), "OpenCL C"),
                                     nv(CL_MAKE_VERSION(1, 2, 0), "OpenCL C")};
      if (cfg.deviceEnqueue) v.push_back(nv(CL_MAKE_VERSION(2, 0, 0), "OpenCL C"));
      v.push_back(nv(CL_MAKE_VERSION(3, 0, 0), "OpenCL C"));
      return out(v);
    }
    case CL_DEVICE_OPENCL_C_FEATURES: return out(openclCFeatures(cfg));
    case CL_DEVICE_EXTENSIONS: return out(joinNames(deviceExtensions(cfg)));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out(deviceExtensions(cfg));
    case CL_DEVICE_IL_VERSION: return out("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6");
    case CL_DEVICE_ILS_WITH_VERSION: {
      std::vector<cl_name_version> v;
      for (cl_uint minor = 0; minor <= 6; ++minor) v.push_back(nv(CL_MAKE_VERSION(1, minor, 0), "SPIR-V"));
      return out(v);
    }
    // cl_khr_spirv_queries (host/spirv_queries.cpp): the names are returned as pointers to NUL-terminated strings
    // that stay valid while the library is loaded (interned), the capabilities as their token values.
    case kDeviceSpirvExtendedInstructionSets:
      return out(internedNames(spirvQueriesOf(cfg).extendedInstructionSets));
    case kDeviceSpirvExtensions: return out(internedNames(spirvQueriesOf(cfg).extensions));
    case kDeviceSpirvCapabilities: {
      std::vector<cl_uint> caps;
      for (uint32_t c : spirvQueriesOf(cfg).capabilities) caps.push_back(c);
      return out(caps);
    }
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return out(size_t(1024 * 1024));
    // cl_khr_command_buffer (icd/command_buffer.cpp): a recorded kernel runs as an enqueued one does, printf and
    // device-side enqueue included; a command-buffer may be enqueued to any host queue (out-of-order ones run in order).
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
      return out(cl_device_command_buffer_capabilities_khr(
          CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
          (cfg.deviceEnqueue ? CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR : 0)));
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
      return out(cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR: return out(cl_command_queue_properties(0));
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return out(cl_bool(CL_TRUE));
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]] the partition queries (device_partition.cpp): a root device's
    // CL_DEVICE_PARTITION_TYPE is empty, a sub-device's the properties it was made with; root devices are not reference
    // counted (1).
    case CL_DEVICE_PARENT_DEVICE: return out(device->parent);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return out(maxSubDevices(device));
    case CL_DEVICE_PARTITION_PROPERTIES: return out(partitionProperties(device));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out(cl_device_affinity_domain(0));
    case CL_DEVICE_PARTITION_TYPE: return out(device->partitionType);
    case CL_DEVICE_REFERENCE_COUNT: return out(device->isSubDevice() ? device->refCount : cl_uint(1));
    // Coarse- and fine-grained buffer SVM (svm.cpp: every SVM allocation is host memory kernels address directly) and
    // SVM atomics (a launch runs beside the host while CL_MEM_SVM_ATOMICS allocations exist: queue.cpp; the
    // interpreter's atomics are host atomics on that memory). Not fine-grained system SVM: a kernel pointer is an
    // allocation tag and offset, which malloc's memory has not.
    case CL_DEVICE_SVM_CAPABILITIES:
      return out(cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                            CL_DEVICE_SVM_ATOMICS));
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out(cl_uint(0));
    // Pipes (icd/memory.cpp clCreatePipe; interpreter/ops_pipe.cpp).
    case CL_DEVICE_MAX_PIPE_ARGS: return out(kMaxPipeArgs);
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: return out(kPipeMaxActiveReservations);
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return out(kPipeMaxPacketSize);
    case CL_DEVICE_PIPE_SUPPORT: return out(cl_bool(CL_TRUE));
    // Sub-groups of DeviceConfig::subgroupSize work-items: as many as the largest work-group holds.
    // cl_khr_subgroup_named_barrier (interpreter/ops_named_barrier.cpp).
    case CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR: return out(cl_uint(host::kMaxNamedBarriers));
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
      return out(cl_uint((cfg.maxWorkGroupSize + std::max<uint32_t>(1, cfg.subgroupSize) - 1) /
                         std::max<uint32_t>(1, cfg.subgroupSize)));
    // Work-items that may wait on each other take turns (interpreter/scheduler.cpp, time slices).
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return out(cl_bool(CL_TRUE));
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: the mandated minimum for every OpenCL 3.0 device is relaxed
    // ordering at work-group scope (the interpreter's atomics are sequentially consistent host atomics,
    // which satisfy it).
    // Every atomic is a sequentially consistent operation on host memory shared by all
    // work-groups (interpreter/ops_atomic.cpp), so every order and the device scope hold; the
    // OpenCL C features follow (host::openCLCFeatures). All devices too: the devices of a context (sub-devices of
    // the one interpreter) share that host memory and its atomics, SVM allocations included.
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: {
      cl_device_atomic_capabilities c = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                                        CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
      if (param == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) c |= CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
      return out(c);
    }
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return out(cl_bool(CL_TRUE));
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out(size_t(std::max<uint32_t>(1, cfg.subgroupSize)));
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      return out("v0000-01-01-00");  // not conformance tested
    // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: param_name is not one of the supported values
    default: return apiError(out.function, CL_INVALID_VALUE, "param_name {} is no device query", hex(param));
  }
}

}  // namespace clref::cl
