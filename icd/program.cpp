// OpenCL 3.0 API §5.8 [[_program_objects]] Program Objects: the entry points (creation from source, IL and binaries,
// build, compile, link, specialization constants, queries).
//
// The "binary" of a program is its SPIR-V module: what CL_PROGRAM_BINARIES returns is accepted
// by clCreateProgramWithBinary. The steps live beside: build options (program_options), OpenCL C
// compilation (program_compile, through the host API's compiler driver), linking
// (program_link), binary types (program_binary).
#include <algorithm>

#include "icd/device_info.hpp"
#include "icd/program_binary.hpp"
#include "icd/program_compile.hpp"

using namespace clref::cl;
namespace host = clref::host;

namespace {

cl_program newProgram(cl_context context, _cl_program::Origin origin) {
  auto* p = new _cl_program();
  p->context = context;
  p->origin = origin;
  p->devices = context->devices;
  retainInternal(context);
  registerObject(p);
  return p;
}

bool isSpirv(const void* data, size_t bytes) {
  if (!data || bytes < 20 || bytes % 4) return false;
  uint32_t magic;
  std::memcpy(&magic, data, 4);
  return magic == 0x07230203;  // SPIR-V 1.0 §3.1 [external] magic number
}

std::vector<uint32_t> words(const void* data, size_t bytes) {
  std::vector<uint32_t> w(bytes / 4);
  std::memcpy(w.data(), data, bytes);
  return w;
}

// Whether a module imports functions (LinkageAttributes Import): a compiled object, not an
// executable. A module that does not parse imports nothing.
bool importsFunctions(const std::vector<uint32_t>& w) {
  try {
    return host::ModuleInfo::parse(w).importsFunctions();
  } catch (const std::exception&) { return false; }
}

// Builds the executable from program->spirv with the spec constants set.
cl_int makeExecutable(cl_program p, const Options& o) {
  try {
    auto prog = host::Program::fromSpirv(deviceFor(o), p->spirv, p->sourceNames);
    for (const auto& [id, v] : p->specConstants) prog->setSpecConstant(id, v.data(), v.size());
    p->executable = prog;
    p->binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
  } catch (const std::exception& e) {
    p->log += e.what();
    p->log += "\n";
    return CL_BUILD_PROGRAM_FAILURE;
  }
}

// OpenCL 3.0 API §5.8.4 [[_building_program_executables]] clBuildProgram,
// §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram,
// §5.8.3 [[_setting_spir_v_specialization_constants]] clSetProgramSpecializationConstant: CL_COMPILER_NOT_AVAILABLE if
// program is created with source or IL and a compiler is not
// available, i.e. CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE — which clref reports when the compiler
// driver finds no clang or llvm-spirv to run (host::Program::openCLCCompilerAvailable). The spec
// ties IL builds to that query too, so they fail alike.
bool compilerMissingFor(cl_program program) {
  if (program->origin != _cl_program::Origin::Source && program->origin != _cl_program::Origin::IL) return false;
  return !host::Program::openCLCCompilerAvailable();
}

// OpenCL 3.0 API §5.8.4 [[_building_program_executables]] clBuildProgram /
// §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram, clLinkProgram: the device list checks
// (CL_INVALID_DEVICE if a device is not one of the program's, or the context's for clLinkProgram).
cl_int checkDevices(const char* fn, const std::vector<cl_device_id>& devices, cl_uint num_devices,
                    const cl_device_id* device_list) {
  if (!device_list && num_devices > 0)
    return apiError(fn, CL_INVALID_VALUE, "device_list is NULL and num_devices is {}", num_devices);
  if (device_list && num_devices == 0)
    return apiError(fn, CL_INVALID_VALUE, "device_list is not NULL and num_devices is 0");
  for (cl_uint i = 0; i < num_devices; ++i)
    if (std::find(devices.begin(), devices.end(), device_list[i]) == devices.end())
      return apiError(fn, CL_INVALID_DEVICE, "device_list[{}] is {}, not a device of the program", i, device_list[i]);
  return CL_SUCCESS;
}

// Whether `device` has a binary of `program`: it was built for the device, or given the program's binary.
bool hasBinary(cl_program program, cl_device_id device) {
  return program->builtForDevice(device) || program->origin == _cl_program::Origin::Binary;
}

// The devices a build, compile or link is for: those listed, or all of `devices` when the list is NULL.
std::vector<cl_device_id> listedOr(cl_uint num_devices, const cl_device_id* device_list,
                                   const std::vector<cl_device_id>& devices) {
  if (!device_list) return devices;
  std::vector<cl_device_id> out;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (std::find(out.begin(), out.end(), device_list[i]) == out.end()) out.push_back(device_list[i]);
  return out;
}

// For the channel "api": the first line of a build log that reports an error (else its first line), which the
// message of a failed build quotes; the whole log is the program's CL_PROGRAM_BUILD_LOG.
struct BuildLog {
  const std::string& text;
};
void put(std::string& out, const BuildLog& log) {
  std::string_view first, error;
  for (size_t at = 0; at < log.text.size();) {
    size_t end = log.text.find('\n', at);
    if (end == std::string::npos) end = log.text.size();
    const std::string_view line(log.text.data() + at, end - at);
    if (first.empty() && !line.empty()) first = line;
    if (error.empty() && line.find("error") != std::string_view::npos) error = line;
    at = end + 1;
  }
  out += !error.empty() ? error : !first.empty() ? first : std::string_view("(the log is empty)");
}

// Why bytes that isSpirv refuses are no SPIR-V module, for the channel "api".
const char* notSpirvReason(const void* data, size_t bytes) {
  if (!data) return "they are NULL";
  if (bytes < 20) return "fewer than the 20 bytes of a SPIR-V header";
  if (bytes % 4) return "not a whole number of 32-bit words";
  return "no SPIR-V magic number (0x07230203) in the first word";
}
// The same for any bytes, the parser's diagnostic included: found again when the message is made.
struct NotSpirv {
  const void* data;
  size_t bytes;
};
void put(std::string& out, const NotSpirv& b) {
  if (!isSpirv(b.data, b.bytes)) {
    out += notSpirvReason(b.data, b.bytes);
    return;
  }
  try {
    (void)host::ModuleInfo::parse(words(b.data, b.bytes));
    out += "a module the device does not accept";
  } catch (const std::exception& e) { out += e.what(); }
}

void notifyLater(void(CL_CALLBACK* fn)(cl_program, void*), cl_program p, void* data) {
  if (!fn) return;
  retainInternal(p);
  deferCallback([fn, p, data] {
    fn(p, data);
    ApiLock lock;
    releaseInternal(p);
  });
}

}  // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* lengths, cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithSource: CL_INVALID_VALUE if count is 0,
  // strings is NULL, or any entry in strings is NULL.
  if (count == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "count is 0");
  if (!strings) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "strings is NULL");
  std::string src;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "strings[{}] is NULL", i);
    // lengths NULL or an entry 0: the string is null-terminated.
    src += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
  }
  cl_program p = newProgram(context, _cl_program::Origin::Source);
  p->source = std::move(src);
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                          cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithIL: CL_INVALID_VALUE if il is NULL or length
  // is 0, or if the memory does not contain well-formed IL or an IL the device supports.
  if (!il) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "il is NULL");
  if (length == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "length is 0");
  if (!isSpirv(il, length))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                       "the {} bytes at il are not SPIR-V, the one IL of the device: {}", length,
                       notSpirvReason(il, length));
  auto w = words(il, length);
  try {
    // A Vulkan shader module is SPIR-V, but not an IL of an OpenCL device (OpenCL SPIR-V Environment §4
    // [[validation-rules]]: the OpenCL memory model, Physical addressing).
    if (host::ModuleInfo::parse(w).isVulkanShader())
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                         "il is a Vulkan shader module (the GLSL450 or Vulkan memory model), not OpenCL SPIR-V");
  } catch (const std::bad_alloc&) {
    throw;  // CL_OUT_OF_HOST_MEMORY, not invalid IL
  } catch (const std::exception& e) {
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "il is not a well-formed SPIR-V module: {}", e.what());
  }
  cl_program p = newProgram(context, _cl_program::Origin::IL);
  p->il = w;
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                             cl_int* errcode_ret) try {
  return clCreateProgramWithIL(context, il, length, errcode_ret);  // cl_khr_il_program
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithBinary: CL_INVALID_VALUE if device_list is
  // NULL or num_devices is 0; CL_INVALID_DEVICE if a device is not in context; CL_INVALID_VALUE if lengths or binaries
  // is NULL or an entry is 0/NULL; CL_INVALID_BINARY if a binary is not valid for its device.
  if (!device_list) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "device_list is NULL");
  if (num_devices == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!context->hasDevice(device_list[i]))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device_list[{}] is {}, not a device of context", i,
                         device_list[i]);
  if (!lengths) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "lengths is NULL");
  if (!binaries) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "binaries is NULL");
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!lengths[i] || !binaries[i]) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      if (!lengths[i]) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "lengths[{}] is 0", i);
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "binaries[{}] is NULL", i);
    }
  cl_uint invalid = num_devices;  // the first invalid binary, for the log; every binary's status is set
  for (cl_uint i = 0; i < num_devices; ++i) {
    bool valid = isSpirv(binaries[i], lengths[i]);
    if (valid) {
      try {
        (void)host::ModuleInfo::parse(words(binaries[i], lengths[i]));
      } catch (const std::bad_alloc&) {
        throw;  // CL_OUT_OF_HOST_MEMORY, not an invalid binary
      } catch (const std::exception&) { valid = false; }
    }
    if (binary_status) binary_status[i] = valid ? CL_SUCCESS : CL_INVALID_BINARY;
    if (!valid && invalid == num_devices) invalid = i;
  }
  if (invalid < num_devices)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_BINARY,
                       "binaries[{}] ({} bytes) is not a program binary of the device (a SPIR-V module): {}", invalid,
                       lengths[invalid], NotSpirv{binaries[invalid], lengths[invalid]});
  // Every device of clref is a partition of one interpreter with one configuration, and a program holds one
  // executable for all of its devices: different binaries for different devices cannot be kept apart.
  for (cl_uint i = 1; i < num_devices; ++i)
    if (lengths[i] != lengths[0] || std::memcmp(binaries[i], binaries[0], lengths[0]) != 0)
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_BINARY,
                         "binaries[{}] differs from binaries[0]: clref keeps one executable for all the devices of a "
                         "program (they are partitions of one interpreter), so it takes one binary for all of them",
                         i);
  cl_program p = newProgram(context, _cl_program::Origin::Binary);
  p->devices.assign(device_list, device_list + num_devices);
  p->spirv = words(binaries[0], lengths[0]);
  // The type clref recorded in its own binaries; a module from elsewhere is a compiled object
  // when it imports functions, else an executable.
  p->binaryType = takeBinaryType(p->spirv);
  if (p->binaryType == CL_PROGRAM_BINARY_TYPE_NONE)
    p->binaryType =
        importsFunctions(p->spirv) ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id* device_list,
                                                                      const char* kernel_names,
                                                                      cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  // OpenCL 3.0 API §5.8.1 [[_creating_program_objects]] clCreateProgramWithBuiltInKernels: CL_INVALID_VALUE if
  // device_list is NULL, num_devices is 0, kernel_names is NULL, or kernel_names names a kernel no device supports
  // (the device has no built-in kernels).
  if (!device_list) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "device_list is NULL");
  if (num_devices == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  if (!kernel_names) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "kernel_names is NULL");
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!context->hasDevice(device_list[i]))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_DEVICE, "device_list[{}] is {}, not a device of context", i,
                         device_list[i]);
  return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE,
                     "kernel_names \"{}\" names built-in kernels, and the device has none "
                     "(CL_DEVICE_BUILT_IN_KERNELS is empty)",
                     kernel_names);
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) try {
  ApiLock lock;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  retainExternal(program);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) try {
  ApiLock lock;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  releaseExternal(program);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                            void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                            void* user_data) try {
  ApiLock lock;
  (void)user_data;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  // OpenCL 3.0 API §5.8.2 [[_retaining_and_releasing_program_objects]] clSetProgramReleaseCallback: CL_INVALID_VALUE if
  // pfn_notify is NULL.
  if (!pfn_notify) return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL");
  // OpenCL 3.0 API §5.8.2 [[_retaining_and_releasing_program_objects]] clSetProgramReleaseCallback:
  // CL_INVALID_OPERATION if no devices in the context support destructors for program scope global variables (clref
  // does not).
  return apiError(__func__, CL_INVALID_OPERATION,
                  "the device does not support destructors of program-scope global variables, so no release "
                  "callback (clSetProgramReleaseCallback is deprecated)");
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void* spec_value) try {
  ApiLock lock;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  // OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]] clSetProgramSpecializationConstant:
  // CL_INVALID_PROGRAM if program is not created by clCreateProgramWithIL.
  if (program->origin != _cl_program::Origin::IL)
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} was not created with clCreateProgramWithIL", program);
  if (compilerMissingFor(program))
    return apiError(__func__, CL_COMPILER_NOT_AVAILABLE,
                    "no OpenCL C compiler (clang and llvm-spirv) was found, so CL_DEVICE_COMPILER_AVAILABLE is "
                    "CL_FALSE");
  // CL_INVALID_VALUE if spec_value is NULL
  if (!spec_value) return apiError(__func__, CL_INVALID_VALUE, "spec_value is NULL");
  const auto size = host::ModuleInfo::parse(program->il).specConstantSize(spec_id);
  if (size) {
    // CL_INVALID_VALUE if spec_size does not match the size of the specialization constant
    if (spec_size != *size)
      return apiError(__func__, CL_INVALID_VALUE, "spec_size is {}, and specialization constant {} is {} bytes",
                      spec_size, spec_id, *size);
    program->specConstants[spec_id].assign(static_cast<const uint8_t*>(spec_value),
                                           static_cast<const uint8_t*>(spec_value) + spec_size);
    return CL_SUCCESS;
  }
  // CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier
  return apiError(__func__, CL_INVALID_SPEC_ID, "spec_id {} is no SpecId of a specialization constant of the module",
                  spec_id);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                               void* user_data) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.8.4 [[_building_program_executables]] clBuildProgram
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  if (cl_int e = checkDevices(__func__, program->devices, num_devices, device_list)) return e;
  if (!pfn_notify && user_data)  // pfn_notify NULL but user_data not NULL
    return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL and user_data is not NULL");
  // CL_INVALID_OPERATION if there are kernel objects attached to program
  if (program->kernelsAttached)
    return apiError(__func__, CL_INVALID_OPERATION, "{} kernel objects are attached to program {}",
                    program->kernelsAttached, program);
  // CL_INVALID_OPERATION if program was not created with source, IL or a binary (clLinkProgram's)
  if (program->origin == _cl_program::Origin::Linked)
    return apiError(__func__, CL_INVALID_OPERATION,
                    "program {} was made by clLinkProgram, not from source, IL or a binary", program);
  Options o;
  // CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid
  if (!parseOptions(options, OptionsFor::Build, o))
    return apiError(__func__, CL_INVALID_BUILD_OPTIONS,
                    "options: \"{}\" is not a build option of OpenCL 3.0 API §5.8.6 [[compiler-options]]", o.rejected);
  // CL_INVALID_OPERATION if the program is a compiled object or library (binary of wrong type)
  if (program->origin == _cl_program::Origin::Binary && program->binaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
      program->binaryType != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
    return apiError(__func__, CL_INVALID_BINARY,
                    "program {} was created from a library's binary, which clBuildProgram cannot build (link it with "
                    "clLinkProgram)",
                    program);
  if (compilerMissingFor(program))
    return apiError(__func__, CL_COMPILER_NOT_AVAILABLE,
                    "no OpenCL C compiler (clang and llvm-spirv) was found, so CL_DEVICE_COMPILER_AVAILABLE is "
                    "CL_FALSE");
  program->options = options ? options : "";
  program->log.clear();
  program->executable.reset();
  program->argInfo = o.argInfo && program->origin == _cl_program::Origin::Source;
  program->uniformWorkGroups = o.uniform || (program->origin == _cl_program::Origin::Source && !o.clStd20);
  program->builtFor = listedOr(num_devices, device_list, program->devices);
  program->status = CL_BUILD_IN_PROGRESS;
  cl_int r = CL_SUCCESS;
  if (program->origin == _cl_program::Origin::Source) {
    r = compileSource(program, o, {});
    if (r != CL_SUCCESS) r = CL_BUILD_PROGRAM_FAILURE;
  } else if (program->origin == _cl_program::Origin::IL) {
    program->spirv = program->il;
  }
  if (r == CL_SUCCESS) r = makeExecutable(program, o);
  program->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (r != CL_SUCCESS) program->binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  notifyLater(pfn_notify, program, user_data);
  // OpenCL 3.0 API §5.8.4 [[_building_program_executables]]: CL_BUILD_PROGRAM_FAILURE if there is a failure to build
  // the program executable.
  if (r != CL_SUCCESS)
    return apiError(__func__, r, "the build of program {} failed: {} (CL_PROGRAM_BUILD_LOG has the whole log)", program,
                    BuildLog{program->log});
  return r;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id* device_list, const char* options,
                                                 cl_uint num_input_headers, const cl_program* input_headers,
                                                 const char** header_include_names,
                                                 void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                 void* user_data) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  if (cl_int e = checkDevices(__func__, program->devices, num_devices, device_list)) return e;
  // CL_INVALID_VALUE if num_input_headers is 0 and header_include_names or input_headers are not
  // NULL, or num_input_headers is not 0 and either is NULL.
  if (num_input_headers == 0 && input_headers)
    return apiError(__func__, CL_INVALID_VALUE, "num_input_headers is 0 and input_headers is not NULL");
  if (num_input_headers == 0 && header_include_names)
    return apiError(__func__, CL_INVALID_VALUE, "num_input_headers is 0 and header_include_names is not NULL");
  if (num_input_headers && !input_headers)
    return apiError(__func__, CL_INVALID_VALUE, "input_headers is NULL and num_input_headers is {}", num_input_headers);
  if (num_input_headers && !header_include_names)
    return apiError(__func__, CL_INVALID_VALUE, "header_include_names is NULL and num_input_headers is {}",
                    num_input_headers);
  // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL
  if (!pfn_notify && user_data)
    return apiError(__func__, CL_INVALID_VALUE, "pfn_notify is NULL and user_data is not NULL");
  // CL_INVALID_OPERATION if there are kernel objects attached to program
  if (program->kernelsAttached)
    return apiError(__func__, CL_INVALID_OPERATION, "{} kernel objects are attached to program {}",
                    program->kernelsAttached, program);
  // CL_INVALID_OPERATION if program has no source or IL (created with a binary)
  if (program->origin != _cl_program::Origin::Source && program->origin != _cl_program::Origin::IL)
    return apiError(__func__, CL_INVALID_OPERATION, "program {} has no source or IL to compile ({})", program,
                    program->origin == _cl_program::Origin::Binary ? "created from a binary" : "made by clLinkProgram");
  std::vector<std::pair<std::string, std::string>> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    if (!validProgram(input_headers[i]))
      return apiError(__func__, CL_INVALID_PROGRAM, "input_headers[{}] is {}, not a valid program", i,
                      input_headers[i]);
    // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clCompileProgram: CL_INVALID_CONTEXT if
    // the context of program and programs in input_headers are not the same.
    if (input_headers[i]->context != program->context)
      return apiError(__func__, CL_INVALID_CONTEXT, "input_headers[{}] belongs to context {}, program to context {}", i,
                      input_headers[i]->context, program->context);
    if (!header_include_names[i]) return apiError(__func__, CL_INVALID_VALUE, "header_include_names[{}] is NULL", i);
    headers.emplace_back(header_include_names[i], input_headers[i]->source);
  }
  Options o;
  // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are invalid
  if (!parseOptions(options, OptionsFor::Compile, o))
    return apiError(__func__, CL_INVALID_COMPILER_OPTIONS,
                    "options: \"{}\" is not a compiler option of OpenCL 3.0 API §5.8.6 [[compiler-options]]", o.rejected);
  if (compilerMissingFor(program))
    return apiError(__func__, CL_COMPILER_NOT_AVAILABLE,
                    "no OpenCL C compiler (clang and llvm-spirv) was found, so CL_DEVICE_COMPILER_AVAILABLE is "
                    "CL_FALSE");
  program->options = options ? options : "";
  program->log.clear();
  program->executable.reset();
  program->argInfo = o.argInfo && program->origin == _cl_program::Origin::Source;
  program->uniformWorkGroups = o.uniform || (program->origin == _cl_program::Origin::Source && !o.clStd20);
  program->builtFor = listedOr(num_devices, device_list, program->devices);
  cl_int r = CL_SUCCESS;
  if (program->origin == _cl_program::Origin::Source)
    r = compileSource(program, o, headers);
  else
    program->spirv = program->il;
  program->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  program->binaryType = r == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  notifyLater(pfn_notify, program, user_data);
  // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]]: CL_COMPILE_PROGRAM_FAILURE if there is a
  // failure to compile the program source.
  if (r != CL_SUCCESS)
    return apiError(__func__, r, "the compilation of program {} failed: {} (CL_PROGRAM_BUILD_LOG has the whole log)",
                    program, BuildLog{program->log});
  return r;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* options,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                                  cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clLinkProgram
  if (!validContext(context))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  if (cl_int e = checkDevices(__func__, context->devices, num_devices, device_list))
    return withError(errcode_ret, e, cl_program(nullptr));
  // CL_INVALID_VALUE if num_input_programs is 0 or input_programs is NULL (or the other way round)
  if (num_input_programs == 0) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "num_input_programs is 0");
  if (!input_programs) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "input_programs is NULL");
  // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL
  if (!pfn_notify && user_data)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "pfn_notify is NULL and user_data is not NULL");
  Options o;
  // CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid
  if (!parseOptions(options, OptionsFor::Link, o))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_LINKER_OPTIONS,
                       "options: \"{}\" is not a linker option of OpenCL 3.0 API §5.8.7 [[linker-options]]", o.rejected);
  bool uniform = false;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    // CL_INVALID_PROGRAM if programs in input_programs are not valid
    if (!validProgram(input_programs[i]))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_PROGRAM, "input_programs[{}] is {}, not a valid program", i,
                         input_programs[i]);
    // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clLinkProgram: CL_INVALID_CONTEXT if the
    // context of programs in input_programs is not the same as context.
    if (input_programs[i]->context != context)
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT,
                         "input_programs[{}] belongs to context {}, not to context {}", i, input_programs[i]->context,
                         context);
    // CL_INVALID_OPERATION if an input program is not a compiled object or library
    const auto t = input_programs[i]->binaryType;
    if (t != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && t != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
        !(t == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && input_programs[i]->origin == _cl_program::Origin::Binary))
      return apiErrorRet(__func__, errcode_ret, CL_INVALID_OPERATION,
                         "input_programs[{}] is not a compiled object or a library (its CL_PROGRAM_BINARY_TYPE is {})",
                         i, hex(t));
    uniform = uniform || input_programs[i]->uniformWorkGroups;
  }
  cl_program p = newProgram(context, _cl_program::Origin::Linked);
  p->options = options ? options : "";
  p->uniformWorkGroups = uniform;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    for (const auto& [name, meta] : input_programs[i]->argMeta) p->argMeta[name] = meta;
    for (const auto& [name, attrs] : input_programs[i]->kernelAttributes) p->kernelAttributes[name] = attrs;
    for (const auto& source : input_programs[i]->attributesUnread) p->attributesUnread.push_back(source);
  }
  p->argInfo = !p->argMeta.empty();
  p->builtFor = listedOr(num_devices, device_list, p->devices);
  p->status = CL_BUILD_IN_PROGRESS;
  std::vector<std::vector<uint32_t>> mods;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    mods.push_back(input_programs[i]->spirv);
    // Each object was compiled from its own temporary file: their names do not collide.
    const auto& names = input_programs[i]->sourceNames;
    p->sourceNames.insert(p->sourceNames.end(), names.begin(), names.end());
  }
  cl_int r = CL_SUCCESS;
  if (auto linked = host::linkModules(std::move(mods), o.createLibrary, p->log); !linked) {
    r = CL_LINK_PROGRAM_FAILURE;
  } else {
    p->spirv = std::move(*linked);
    if (o.createLibrary) {
      p->binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else if (makeExecutable(p, o) != CL_SUCCESS) {
      r = CL_LINK_PROGRAM_FAILURE;
    }
  }
  p->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  notifyLater(pfn_notify, p, user_data);
  // OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]]: on CL_LINK_PROGRAM_FAILURE a valid program
  // object is returned (its log explains).
  if (r != CL_SUCCESS)
    apiError(__func__, r, "the link failed: {} (CL_PROGRAM_BUILD_LOG of the program returned has the whole log)",
             BuildLog{p->log});
  return withError(errcode_ret, r, p);
} catch (...) { return clref::cl::failedCall<cl_program>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  const bool built = program->executable != nullptr;
  // CL_INVALID_PROGRAM_EXECUTABLE for the queries below that need a built executable.
  const auto notBuilt = [&](const char* query) {
    return apiError(out.function, CL_INVALID_PROGRAM_EXECUTABLE,
                    "param_name is {}, and program {} has no successfully built executable", query, program);
  };
  switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: return out(program->refCount);
    case CL_PROGRAM_CONTEXT: return out(program->context);
    case CL_PROGRAM_NUM_DEVICES: return out(cl_uint(program->devices.size()));
    case CL_PROGRAM_DEVICES: return out(program->devices);
    case CL_PROGRAM_SOURCE:
      return out(program->origin == _cl_program::Origin::Source ? program->source : std::string());
    case CL_PROGRAM_IL: return out(program->il);
    // OpenCL 3.0 API §5.8.9 [[_program_object_queries]] CL_PROGRAM_BINARY_SIZES, CL_PROGRAM_BINARIES: one entry per
    // device of CL_PROGRAM_DEVICES; a device without a binary (no build for it) has size 0.
    case CL_PROGRAM_BINARY_SIZES: {
      const size_t bytes = binaryWithType(program->spirv, program->binaryType).size() * 4;
      std::vector<size_t> sizes;
      for (cl_device_id d : program->devices) sizes.push_back(hasBinary(program, d) ? bytes : 0);
      return out(sizes);
    }
    case CL_PROGRAM_BINARIES: {
      // param_value points to an array of n pointers, each to a buffer of the size CL_PROGRAM_BINARY_SIZES gave; a NULL
      // entry skips that device.
      const size_t n = program->devices.size();
      if (param_value && param_value_size < n * sizeof(unsigned char*))
        return apiError(__func__, CL_INVALID_VALUE,
                        "param_value_size is {}, less than the {} bytes of the {} pointers of CL_PROGRAM_BINARIES",
                        param_value_size, n * sizeof(unsigned char*), n);
      if (param_value) {
        const std::vector<uint32_t> binary = binaryWithType(program->spirv, program->binaryType);
        for (size_t i = 0; i < n; ++i) {
          auto* dst = static_cast<unsigned char**>(param_value)[i];
          if (dst && !binary.empty() && hasBinary(program, program->devices[i]))
            std::memcpy(dst, binary.data(), binary.size() * 4);
        }
      }
      if (param_value_size_ret) *param_value_size_ret = n * sizeof(unsigned char*);
      return CL_SUCCESS;
    }
    // CL_INVALID_PROGRAM_EXECUTABLE for the kernel queries when no executable is built.
    case CL_PROGRAM_NUM_KERNELS:
      if (!built) return notBuilt("CL_PROGRAM_NUM_KERNELS");
      return out(size_t(program->executable->kernelNames().size()));
    case CL_PROGRAM_KERNEL_NAMES: {
      if (!built) return notBuilt("CL_PROGRAM_KERNEL_NAMES");
      std::string names;
      for (const auto& n : program->executable->kernelNames()) names += (names.empty() ? "" : ";") + n;
      return out(names);
    }
    // OpenCL 3.0 API §5.8.9 [[_program_object_queries]] clGetProgramInfo: CL_INVALID_PROGRAM_EXECUTABLE also for these
    // two queries when no executable is built.
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      if (!built)
        return notBuilt(param_name == CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ? "CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT"
                                                                            : "CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT");
      return out(cl_bool(CL_FALSE));
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no program query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  if (std::find(program->devices.begin(), program->devices.end(), device) == program->devices.end())
    return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a device of program {}", device, program);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  // A device the last build, compile or link was not for answers as before any build (its binary type: that of the
  // binary it was given, if any).
  const bool built = program->builtForDevice(device);
  switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: return out(built ? program->status : CL_BUILD_NONE);
    case CL_PROGRAM_BUILD_OPTIONS: return out(built ? program->options : std::string());
    case CL_PROGRAM_BUILD_LOG: return out(built ? program->log : std::string());
    case CL_PROGRAM_BINARY_TYPE:
      return out(hasBinary(program, device) ? program->binaryType : cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
    // OpenCL 3.0 API §5.8.9 [[_program_object_queries]]: the storage of the program's variables in the global address
    // space (program-scope and static function-scope variables: CrossWorkgroup OpVariables of the module).
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
      const size_t total = program->executable ? program->executable->info().globalVariableBytes() : 0;
      return out(total);
    }
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no program build query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
