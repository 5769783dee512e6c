// The entry points that tell the check layer how programs were made and kernel arguments set (records.hpp). Each
// goes on to the platform first and records only what the platform accepted.
#include "layer/records.hpp"

#include <cstring>

namespace clref::layer {

Records& records() {
  static Records r;
  return r;
}

namespace {

std::string optionsText(const char* options) { return options ? options : ""; }

cl_uint referenceCount(cl_program p) {
  cl_uint n = 0;
  return next().clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
}
cl_uint referenceCount(cl_kernel k) {
  cl_uint n = 0;
  return next().clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
}

cl_program CL_API_CALL createProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                               const size_t* lengths, cl_int* errcode_ret) {
  cl_program p = next().clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
  if (!p) return p;
  ProgramRecord r;
  for (cl_uint i = 0; i < count; ++i)
    if (strings && strings[i])
      r.source.append(strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i]));
  std::lock_guard lock(records().mutex);
  r.version = records().newVersion();
  records().programs[p] = std::move(r);
  return p;
}

cl_program CL_API_CALL createProgramWithIL(cl_context context, const void* il, size_t length, cl_int* errcode_ret) {
  cl_program p = next().clCreateProgramWithIL(context, il, length, errcode_ret);
  if (!p) return p;
  ProgramRecord r;
  r.kind = ProgramRecord::Kind::IL;
  r.il.resize(length / 4);
  std::memcpy(r.il.data(), il, r.il.size() * 4);
  std::lock_guard lock(records().mutex);
  r.version = records().newVersion();
  records().programs[p] = std::move(r);
  return p;
}

cl_program CL_API_CALL createProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id* devices,
                                               const size_t* lengths, const unsigned char** binaries,
                                               cl_int* binary_status, cl_int* errcode_ret) {
  cl_program p =
      next().clCreateProgramWithBinary(context, num_devices, devices, lengths, binaries, binary_status, errcode_ret);
  if (!p) return p;
  std::lock_guard lock(records().mutex);
  records().programs[p] = ProgramRecord::of(ProgramRecord::Kind::Binary);
  records().programs[p].version = records().newVersion();
  return p;
}

cl_program CL_API_CALL createProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                       const cl_device_id* devices, const char* kernel_names,
                                                       cl_int* errcode_ret) {
  cl_program p = next().clCreateProgramWithBuiltInKernels(context, num_devices, devices, kernel_names, errcode_ret);
  if (!p) return p;
  std::lock_guard lock(records().mutex);
  records().programs[p] = ProgramRecord::of(ProgramRecord::Kind::BuiltIn);
  records().programs[p].version = records().newVersion();
  return p;
}

// The options of a successful build or compile. A build that reports its completion through a callback records the
// options at once: a program whose build failed has no kernels to enqueue.
void recordOptions(cl_program program, const char* options,
                   std::vector<std::pair<std::string, std::string>> headers = {}) {
  std::lock_guard lock(records().mutex);
  auto it = records().programs.find(program);
  if (it == records().programs.end()) return;
  it->second.options = optionsText(options);
  it->second.headers = std::move(headers);
  it->second.version = records().newVersion();
}

cl_int CL_API_CALL buildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                void* user_data) {
  const cl_int r = next().clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
  if (r == CL_SUCCESS) recordOptions(program, options);
  return r;
}

cl_int CL_API_CALL compileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                  const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                  const char** header_include_names, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                  void* user_data) {
  const cl_int r = next().clCompileProgram(program, num_devices, device_list, options, num_input_headers, input_headers,
                                           header_include_names, pfn_notify, user_data);
  if (r != CL_SUCCESS) return r;
  std::vector<std::pair<std::string, std::string>> headers;
  {
    std::lock_guard lock(records().mutex);
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      auto it = records().programs.find(input_headers[i]);
      headers.emplace_back(header_include_names[i], it == records().programs.end() ? "" : it->second.source);
    }
  }
  recordOptions(program, options, std::move(headers));
  return r;
}

cl_program CL_API_CALL linkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                   const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                                   void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                   cl_int* errcode_ret) {
  cl_program p = next().clLinkProgram(context, num_devices, device_list, options, num_input_programs, input_programs,
                                      pfn_notify, user_data, errcode_ret);
  if (!p) return p;
  ProgramRecord r;
  r.kind = ProgramRecord::Kind::Linked;
  r.linkOptions = optionsText(options);
  std::lock_guard lock(records().mutex);
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    auto it = records().programs.find(input_programs[i]);
    r.linked.push_back(it == records().programs.end() ? ProgramRecord::of(ProgramRecord::Kind::Binary) : it->second);
  }
  r.version = records().newVersion();
  records().programs[p] = std::move(r);
  return p;
}

// OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]]: the value holds for the program's next build.
cl_int CL_API_CALL setProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                    const void* spec_value) {
  const cl_int r = next().clSetProgramSpecializationConstant(program, spec_id, spec_size, spec_value);
  if (r != CL_SUCCESS) return r;
  std::lock_guard lock(records().mutex);
  auto it = records().programs.find(program);
  if (it != records().programs.end())
    it->second.specConstants[spec_id].assign(static_cast<const uint8_t*>(spec_value),
                                             static_cast<const uint8_t*>(spec_value) + spec_size);
  return r;
}

// Releases `object` on the platform; its record goes with its last reference (the platform may give the handle out
// again for a new object).
template <class Object, class Map>
cl_int releaseAndForget(Object object, cl_int(CL_API_CALL* release)(Object), Map& recordsOf) {
  const bool last = referenceCount(object) == 1;
  const cl_int r = release(object);
  if (r == CL_SUCCESS && last) {
    std::lock_guard lock(records().mutex);
    recordsOf.erase(object);
  }
  return r;
}

cl_int CL_API_CALL releaseProgram(cl_program program) {
  return releaseAndForget(program, next().clReleaseProgram, records().programs);
}

cl_int CL_API_CALL setKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  const cl_int r = next().clSetKernelArg(kernel, arg_index, arg_size, arg_value);
  if (r != CL_SUCCESS) return r;
  std::lock_guard lock(records().mutex);
  auto& args = records().kernels[kernel].args;
  if (args.size() <= arg_index) args.resize(arg_index + 1);
  ArgRecord& a = args[arg_index];
  a = ArgRecord{};
  a.set = true;
  a.size = arg_size;
  a.null = arg_value == nullptr;
  if (arg_value)
    a.bytes.assign(static_cast<const uint8_t*>(arg_value), static_cast<const uint8_t*>(arg_value) + arg_size);
  return r;
}

cl_int CL_API_CALL setKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  const cl_int r = next().clSetKernelArgSVMPointer(kernel, arg_index, arg_value);
  if (r != CL_SUCCESS) return r;
  std::lock_guard lock(records().mutex);
  auto& args = records().kernels[kernel].args;
  if (args.size() <= arg_index) args.resize(arg_index + 1);
  args[arg_index] = ArgRecord{};
  args[arg_index].set = args[arg_index].svm = true;
  return r;
}

// OpenCL 3.0 API §5.9.1 [[_creating_kernel_objects]] clCloneKernel: the copy has the original's arguments.
cl_kernel CL_API_CALL cloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  cl_kernel k = next().clCloneKernel(source_kernel, errcode_ret);
  if (!k) return k;
  std::lock_guard lock(records().mutex);
  auto it = records().kernels.find(source_kernel);
  KernelRecord copy;
  if (it != records().kernels.end()) {
    copy.args = it->second.args;
    copy.program = it->second.program;
  }
  records().kernels[k] = std::move(copy);
  return k;
}

cl_int CL_API_CALL releaseKernel(cl_kernel kernel) {
  return releaseAndForget(kernel, next().clReleaseKernel, records().kernels);
}

// A copy of `program`'s record for its kernels (none when the layer has none); under the records' lock.
std::shared_ptr<const ProgramRecord> programRecordOf(cl_program program) {
  auto it = records().programs.find(program);
  if (it == records().programs.end()) return nullptr;
  return std::make_shared<const ProgramRecord>(it->second);
}

// A kernel handle the platform gives out again after the last release of another: its record starts empty.
cl_kernel CL_API_CALL createKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  cl_kernel k = next().clCreateKernel(program, kernel_name, errcode_ret);
  if (k) {
    std::lock_guard lock(records().mutex);
    records().kernels[k] = KernelRecord{};
    records().kernels[k].program = programRecordOf(program);
  }
  return k;
}

cl_int CL_API_CALL createKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                          cl_uint* num_kernels_ret) {
  const cl_int r = next().clCreateKernelsInProgram(program, num_kernels, kernels, num_kernels_ret);
  if (r == CL_SUCCESS && kernels) {
    std::lock_guard lock(records().mutex);
    const auto record = programRecordOf(program);
    for (cl_uint i = 0; i < num_kernels; ++i)
      if (kernels[i]) {
        records().kernels[kernels[i]] = KernelRecord{};
        records().kernels[kernels[i]].program = record;
      }
  }
  return r;
}

}  // namespace

void interceptRecords(cl_icd_dispatch& t) {
  t.clCreateProgramWithSource = createProgramWithSource;
  if (t.clCreateProgramWithIL) t.clCreateProgramWithIL = createProgramWithIL;
  t.clCreateProgramWithBinary = createProgramWithBinary;
  if (t.clCreateProgramWithBuiltInKernels) t.clCreateProgramWithBuiltInKernels = createProgramWithBuiltInKernels;
  t.clBuildProgram = buildProgram;
  if (t.clCompileProgram) t.clCompileProgram = compileProgram;
  if (t.clLinkProgram) t.clLinkProgram = linkProgram;
  t.clReleaseProgram = releaseProgram;
  if (t.clSetProgramSpecializationConstant) t.clSetProgramSpecializationConstant = setProgramSpecializationConstant;
  t.clCreateKernel = createKernel;
  t.clCreateKernelsInProgram = createKernelsInProgram;
  t.clSetKernelArg = setKernelArg;
  if (t.clSetKernelArgSVMPointer) t.clSetKernelArgSVMPointer = setKernelArgSVMPointer;
  if (t.clCloneKernel) t.clCloneKernel = cloneKernel;
  t.clReleaseKernel = releaseKernel;
}

}  // namespace clref::layer
