// OpenCL 3.0 API §5.9 [[_kernel_objects]] Kernel Objects (creation, arguments, queries) and
// §5.10 [[_executing_kernels]] Executing Kernels.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "icd/device_info.hpp"
#include "icd/image_support.hpp"
#include "icd/program_compile.hpp"
#include "interpreter/subgroup_dispatch.hpp"

using namespace clref::cl;
namespace host = clref::host;

namespace {

// OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelWorkGroupInfo, clGetKernelSubGroupInfo: CL_INVALID_DEVICE
// if device is not in the list of devices associated with kernel, or is NULL and there is more than one.
cl_int checkKernelDevice(const char* fn, cl_kernel kernel, cl_device_id device) {
  const auto& devices = kernel->program->devices;
  if (!device && devices.size() > 1)
    return apiError(fn, CL_INVALID_DEVICE, "device is NULL, and kernel {} has {} devices", kernel->name,
                    devices.size());
  if (device && std::find(devices.begin(), devices.end(), device) == devices.end())
    return apiError(fn, CL_INVALID_DEVICE, "device {} is not a device of kernel {}", device, kernel->name);
  return CL_SUCCESS;
}

cl_kernel newKernel(cl_program program, const std::string& name) {
  auto hk = std::make_unique<host::Kernel>(program->executable, name);
  auto owned = std::make_unique<_cl_kernel>();  // freed if an allocation below fails
  cl_kernel k = owned.get();
  k->program = program;
  k->name = name;
  k->args.resize(hk->argCount());
  for (size_t i = 0; i < hk->argCount(); ++i) k->args[i].kind = hk->argInfo(i).kind;
  k->kernel = std::move(hk);
  // Part of CL_KERNEL_LOCAL_MEM_SIZE (OpenCL 3.0 API §5.9.3 [[_copying_kernel_objects]]) and of the local memory a
  // launch needs.
  k->staticLocalBytes = program->executable->info().staticLocalBytes(name);
  registerObject(k);  // may fail (CL_OUT_OF_HOST_MEMORY): before the program counts the kernel
  retainInternal(program);
  ++program->kernelsAttached;
  return owned.release();
}

std::array<size_t, 3> requiredSize(cl_kernel k) {
  if (const auto r = k->program->executable->info().requiredLocalSize(k->name)) return {(*r)[0], (*r)[1], (*r)[2]};
  return {0, 0, 0};
}

// For the channel "api": a kernel argument as a message names it, "argument 0 a: global float*" (the name when the
// module has one, the type as the kernel declares it), and the arguments of a kernel not set yet, "2 (b), 3 (c)".
// Rendered only when the message is made (api_log.hpp).
struct Arg {
  cl_uint index;
  const host::KernelArgInfo& info;
};
void put(std::string& out, const Arg& a) {
  out += "argument " + std::to_string(a.index);
  if (!a.info.name.empty()) out += " " + a.info.name;
  out += ": " + a.info.typeName;
}
struct UnsetArgs {
  cl_kernel kernel;
};
void put(std::string& out, const UnsetArgs& u) {
  bool first = true;
  for (size_t i = 0; i < u.kernel->args.size(); ++i) {
    if (u.kernel->args[i].set) continue;
    out += (first ? "" : ", ") + std::to_string(i);
    const std::string& name = u.kernel->kernel->argInfo(i).name;
    if (!name.empty()) out += " (" + name + ")";
    first = false;
  }
}

// OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg, CL_MAX_SIZE_RESTRICTION_EXCEEDED: whether `bytes`
// exceeds the MaxByteOffset decoration (SPIR-V 1.1 §3.20 [external]) of the kernel's parameter arg_index.
bool exceedsMaxByteOffset(cl_kernel k, cl_uint arg_index, size_t bytes) {
  const auto max = k->program->executable->info().maxByteOffset(k->name, arg_index);
  return max && bytes > *max;
}

}  // namespace

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name,
                                                  cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.1 [[_creating_kernel_objects]] clCreateKernel
  if (!validProgram(program))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program
  if (!program->executable)
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE,
                       "program {} has no successfully built executable (clBuildProgram or clLinkProgram first)",
                       program);
  // CL_INVALID_VALUE if kernel_name is NULL
  if (!kernel_name) return apiErrorRet(__func__, errcode_ret, CL_INVALID_VALUE, "kernel_name is NULL");
  const auto names = program->executable->kernelNames();
  // CL_INVALID_KERNEL_NAME if kernel_name is not found in program
  if (std::find(names.begin(), names.end(), kernel_name) == names.end())
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_KERNEL_NAME,
                       "kernel_name \"{}\" is not a kernel of program (its kernels: {})", kernel_name, names);
  try {
    return withError(errcode_ret, CL_SUCCESS, newKernel(program, kernel_name));
  } catch (const std::bad_alloc&) {
    throw;  // CL_OUT_OF_HOST_MEMORY, not an invalid kernel definition
  } catch (const std::exception& e) {
    // CL_INVALID_KERNEL_DEFINITION: the function definition cannot be used as a kernel (lowering
    // rejected it).
    std::fprintf(stderr, "clref: kernel %s: %s\n", kernel_name, e.what());
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_KERNEL_DEFINITION, "kernel {} cannot run as a kernel: {}",
                       kernel_name, e.what());
  }
} catch (...) { return clref::cl::failedCall<cl_kernel>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                                         cl_uint* num_kernels_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.1 [[_creating_kernel_objects]] clCreateKernelsInProgram
  if (!validProgram(program))
    return apiError(__func__, CL_INVALID_PROGRAM, "program {} is not a valid program", program);
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for any device in program
  if (!program->executable)
    return apiError(__func__, CL_INVALID_PROGRAM_EXECUTABLE,
                    "program {} has no successfully built executable (clBuildProgram or clLinkProgram first)", program);
  const auto names = program->executable->kernelNames();
  // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of kernels
  if (kernels && num_kernels < names.size())
    return apiError(__func__, CL_INVALID_VALUE, "num_kernels is {}, and program has {} kernels ({})", num_kernels,
                    names.size(), names);
  if (kernels) {
    std::vector<cl_kernel> made;
    try {
      made.reserve(names.size());
      for (const auto& n : names) made.push_back(newKernel(program, n));
    } catch (const std::exception& e) {
      for (cl_kernel k : made) releaseExternal(k);
      if (dynamic_cast<const std::bad_alloc*>(&e)) throw;  // CL_OUT_OF_HOST_MEMORY
      // CL_INVALID_KERNEL_DEFINITION: a function definition cannot be used as a kernel (lowering rejected it).
      return apiError(__func__, CL_INVALID_KERNEL_DEFINITION, "kernel {} cannot run as a kernel: {}",
                      names[made.size()], e.what());
    }
    std::copy(made.begin(), made.end(), kernels);
  }
  if (num_kernels_ret) *num_kernels_ret = cl_uint(names.size());
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.3 [[_copying_kernel_objects]] clCloneKernel: a copy with the same arguments.
  if (!validKernel(source_kernel))
    return apiErrorRet(__func__, errcode_ret, CL_INVALID_KERNEL, "source_kernel {} is not a valid kernel",
                       source_kernel);
  cl_kernel k = newKernel(source_kernel->program, source_kernel->name);
  k->args = source_kernel->args;
  k->svmPointers = source_kernel->svmPointers;  // and the information clSetKernelExecInfo gave
  return withError(errcode_ret, CL_SUCCESS, k);
} catch (...) { return clref::cl::failedCall<cl_kernel>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) try {
  ApiLock lock;
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  retainExternal(kernel);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) try {
  ApiLock lock;
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  releaseExternal(kernel);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void* arg_value) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index
  if (arg_index >= kernel->args.size())
    return apiError(__func__, CL_INVALID_ARG_INDEX, "arg_index is {}, and kernel {} has {} arguments", arg_index,
                    kernel->name, kernel->args.size());
  auto& a = kernel->args[arg_index];
  const auto& info = kernel->kernel->argInfo(arg_index);
  const Arg arg{arg_index, info};
  ArgRecord r;
  r.kind = info.kind;
  switch (info.kind) {
    case host::ArgKind::Buffer: {
      // CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type (a cl_mem for
      // memory objects)
      if (arg_size != sizeof(cl_mem))
        return apiError(__func__, CL_INVALID_ARG_SIZE, "arg_size is {}, the argument is {} bytes, a cl_mem ({})",
                        arg_size, sizeof(cl_mem), arg);
      // arg_value NULL, or pointing to a NULL cl_mem: the argument is a NULL pointer.
      const cl_mem m = arg_value ? *static_cast<const cl_mem*>(arg_value) : nullptr;
      if (m) {
        // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when arg_value is
        // not a valid memory object
        if (!validMem(m))
          return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value is {}, not a valid memory object ({})", m, arg);
        if (m->type != CL_MEM_OBJECT_BUFFER)
          return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value {} is {}, and {} takes a buffer", m,
                          memKindName(m), arg);
        // OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg: CL_INVALID_CONTEXT if the context of
        // kernel and of the object arg_value points to are not the same.
        if (m->context != kernel->program->context)
          return apiError(__func__, CL_INVALID_CONTEXT, "buffer {} belongs to context {}, kernel to context {} ({})", m,
                          m->context, kernel->program->context, arg);
        // CL_MAX_SIZE_RESTRICTION_EXCEEDED if the memory object is larger than the argument's
        // MaxByteOffset decoration allows.
        if (exceedsMaxByteOffset(kernel, arg_index, m->size))
          return apiError(__func__, CL_MAX_SIZE_RESTRICTION_EXCEEDED,
                          "buffer {} is {} bytes, more than the MaxByteOffset decoration of {} allows ({})", m, m->size,
                          arg, *kernel->program->executable->info().maxByteOffset(kernel->name, arg_index));
        r.buffer = m->buffer;
        r.mem = m;
      }
      break;
    }
    case host::ArgKind::Local:
      // CL_INVALID_ARG_VALUE if the argument is declared with the local qualifier and arg_value
      // is not NULL; CL_INVALID_ARG_SIZE if arg_size is 0 for a local argument.
      if (arg_value)
        return apiError(__func__, CL_INVALID_ARG_VALUE,
                        "arg_value is {}, and a local argument takes NULL (arg_size is the bytes to allocate) ({})",
                        arg_value, arg);
      if (arg_size == 0)
        return apiError(__func__, CL_INVALID_ARG_SIZE,
                        "arg_size is 0, and a local argument takes the bytes to allocate, at least 1 ({})", arg);
      // CL_MAX_SIZE_RESTRICTION_EXCEEDED if arg_size exceeds the argument's MaxByteOffset.
      if (exceedsMaxByteOffset(kernel, arg_index, arg_size))
        return apiError(__func__, CL_MAX_SIZE_RESTRICTION_EXCEEDED,
                        "arg_size is {}, more than the MaxByteOffset decoration of {} allows ({})", arg_size, arg,
                        *kernel->program->executable->info().maxByteOffset(kernel->name, arg_index));
      r.localBytes = arg_size;
      break;
    case host::ArgKind::Value:
      // CL_INVALID_ARG_VALUE if arg_value is NULL for an argument not declared with the local
      // qualifier (and not a memory object); CL_INVALID_ARG_SIZE on a size mismatch.
      if (!arg_value)
        return apiError(__func__, CL_INVALID_ARG_VALUE,
                        "arg_value is NULL, and a by-value argument needs its value ({})", arg);
      if (arg_size != info.size)
        return apiError(__func__, CL_INVALID_ARG_SIZE, "arg_size is {}, the argument is {} bytes ({})", arg_size,
                        info.size, arg);
      r.value.assign(static_cast<const uint8_t*>(arg_value), static_cast<const uint8_t*>(arg_value) + arg_size);
      break;
    case host::ArgKind::Image: {
      // CL_INVALID_ARG_SIZE: a memory object argument takes a cl_mem.
      if (arg_size != sizeof(cl_mem))
        return apiError(__func__, CL_INVALID_ARG_SIZE, "arg_size is {}, the argument is {} bytes, a cl_mem ({})",
                        arg_size, sizeof(cl_mem), arg);
      // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object (an image) when arg_value is NULL, points
      // to NULL, or does not point to a valid memory object.
      if (!arg_value)
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "arg_value is NULL, and an image argument takes an image ({})",
                        arg);
      const cl_mem m = *static_cast<const cl_mem*>(arg_value);
      if (!m || !validMem(m))
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value is {}, not a valid memory object ({})", m, arg);
      if (m->context != kernel->program->context)
        return apiError(__func__, CL_INVALID_CONTEXT, "image {} belongs to context {}, kernel to context {} ({})", m,
                        m->context, kernel->program->context, arg);
      // CL_INVALID_MEM_OBJECT if the memory object is not valid for the argument: a buffer, or an image of another
      // type than the parameter declares (a CL_DEPTH image only for a depth image type, cl_khr_depth_images).
      if (!m->image)
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value {} is a buffer, and {} takes an image", m, arg);
      if (m->image->desc().type != info.imageType)
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "image {} is a {}, and {} takes a {}", m,
                        imageTypeName(m->image->desc().type), arg, imageTypeName(info.imageType));
      if ((m->image->desc().format.order == clref::images::ChannelOrder::Depth) != info.depth)
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "image {} {} a CL_DEPTH image, and {} {}", m,
                        info.depth ? "is not" : "is", arg, info.depth ? "takes one" : "takes none");
      // CL_INVALID_ARG_VALUE for a write_only image parameter given an image created with CL_MEM_READ_ONLY, or a
      // read_only one given an image created with CL_MEM_WRITE_ONLY.
      if (info.access == host::KernelArgInfo::Access::ReadOnly && (m->flags & CL_MEM_WRITE_ONLY))
        return apiError(__func__, CL_INVALID_ARG_VALUE, "image {} was created CL_MEM_WRITE_ONLY, and {} is read_only",
                        m, arg);
      if (info.access == host::KernelArgInfo::Access::WriteOnly && (m->flags & CL_MEM_READ_ONLY))
        return apiError(__func__, CL_INVALID_ARG_VALUE, "image {} was created CL_MEM_READ_ONLY, and {} is write_only",
                        m, arg);
      r.image = m->image;
      r.mem = m;
      break;
    }
    case host::ArgKind::Pipe: {
      // CL_INVALID_ARG_SIZE: a memory object argument takes a cl_mem; CL_INVALID_MEM_OBJECT if arg_value is NULL,
      // points to NULL, or does not point to a valid pipe object (a pipe parameter takes a pipe).
      if (arg_size != sizeof(cl_mem))
        return apiError(__func__, CL_INVALID_ARG_SIZE, "arg_size is {}, the argument is {} bytes, a cl_mem ({})",
                        arg_size, sizeof(cl_mem), arg);
      const cl_mem m = arg_value ? *static_cast<const cl_mem*>(arg_value) : nullptr;
      if (!m || !validMem(m))
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value is {}, not a valid memory object ({})", m, arg);
      if (m->type != CL_MEM_OBJECT_PIPE)
        return apiError(__func__, CL_INVALID_MEM_OBJECT, "*arg_value {} is not a pipe, and {} takes a pipe", m, arg);
      if (m->context != kernel->program->context)
        return apiError(__func__, CL_INVALID_CONTEXT, "pipe {} belongs to context {}, kernel to context {} ({})", m,
                        m->context, kernel->program->context, arg);
      r.pipe = m->pipe;
      r.mem = m;
      break;
    }
    case host::ArgKind::Sampler: {
      // CL_INVALID_ARG_SIZE if the argument is a sampler and arg_size != sizeof(cl_sampler).
      if (arg_size != sizeof(cl_sampler))
        return apiError(__func__, CL_INVALID_ARG_SIZE, "arg_size is {}, the argument is {} bytes, a cl_sampler ({})",
                        arg_size, sizeof(cl_sampler), arg);
      // CL_INVALID_SAMPLER if the argument is a sampler and arg_value does not point to a valid sampler object.
      if (!arg_value)
        return apiError(__func__, CL_INVALID_SAMPLER, "arg_value is NULL, and a sampler argument takes a sampler ({})",
                        arg);
      const cl_sampler smp = *static_cast<const cl_sampler*>(arg_value);
      if (!validSampler(smp))
        return apiError(__func__, CL_INVALID_SAMPLER, "*arg_value is {}, not a valid sampler object ({})", smp, arg);
      if (smp->context != kernel->program->context)
        return apiError(__func__, CL_INVALID_CONTEXT, "sampler {} belongs to context {}, kernel to context {} ({})",
                        smp, smp->context, kernel->program->context, arg);
      r.sampler = smp->sampler;
      break;
    }
    case host::ArgKind::Queue: {
      // CL_INVALID_ARG_SIZE if arg_value points to a device queue object and arg_size is not
      // sizeof(cl_command_queue).
      if (arg_size != sizeof(cl_command_queue))
        return apiError(__func__, CL_INVALID_ARG_SIZE,
                        "arg_size is {}, the argument is {} bytes, a cl_command_queue ({})", arg_size,
                        sizeof(cl_command_queue), arg);
      // CL_INVALID_DEVICE_QUEUE if the kernel argument is a device queue, but arg_value does not point to a valid
      // device queue object (NULL, an invalid handle, or a host command-queue).
      if (!arg_value)
        return apiError(__func__, CL_INVALID_DEVICE_QUEUE,
                        "arg_value is NULL, and a queue_t argument takes a device queue ({})", arg);
      const cl_command_queue q = *static_cast<const cl_command_queue*>(arg_value);
      if (!validQueue(q))
        return apiError(__func__, CL_INVALID_DEVICE_QUEUE, "*arg_value is {}, not a valid command-queue ({})", q, arg);
      if (!q->deviceQueue)
        return apiError(__func__, CL_INVALID_DEVICE_QUEUE,
                        "*arg_value {} is a host command-queue, and {} takes a device queue (CL_QUEUE_ON_DEVICE)", q,
                        arg);
      if (q->context != kernel->program->context)
        return apiError(__func__, CL_INVALID_CONTEXT,
                        "device queue {} belongs to context {}, kernel to context {} ({})", q, q->context,
                        kernel->program->context, arg);
      r.deviceQueue = q->deviceQueue;
      break;
    }
  }
  r.set = true;
  a = std::move(r);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                                         const void* arg_value) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArgSVMPointer: CL_INVALID_KERNEL,
  // CL_INVALID_ARG_INDEX, CL_INVALID_ARG_VALUE if arg_value is not a valid value.
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (arg_index >= kernel->args.size())
    return apiError(__func__, CL_INVALID_ARG_INDEX, "arg_index is {}, and kernel {} has {} arguments", arg_index,
                    kernel->name, kernel->args.size());
  const auto& info = kernel->kernel->argInfo(arg_index);
  const Arg arg{arg_index, info};
  // An SVM pointer is a global or constant pointer argument's value.
  if (info.kind != host::ArgKind::Buffer)
    return apiError(__func__, CL_INVALID_ARG_VALUE, "{} is not a global or constant pointer, and an SVM pointer is one",
                    arg);
  // The value: NULL, or an address inside (or one past the end of) an SVM allocation of the kernel's context; the
  // device has no fine-grained system SVM, so other host memory is not a valid value.
  if (arg_value && !kernel->program->context->svmAllocationHolding(arg_value, 0))
    return apiError(__func__, CL_INVALID_ARG_VALUE,
                    "arg_value {} is not in an SVM allocation of context {} (the device has no fine-grained system "
                    "SVM) ({})",
                    arg_value, kernel->program->context, arg);
  ArgRecord r;
  r.kind = info.kind;
  r.set = true;
  r.svm = true;
  r.svmPointer = arg_value;
  kernel->args[arg_index] = std::move(r);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                                    size_t param_value_size, const void* param_value) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelExecInfo: CL_INVALID_KERNEL; CL_INVALID_VALUE if
  // param_name is not valid, param_value is NULL or the size is wrong; CL_INVALID_OPERATION for
  // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM CL_TRUE when no device supports fine-grained system SVM.
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (!param_value && param_value_size > 0)
    return apiError(__func__, CL_INVALID_VALUE, "param_value is NULL and param_value_size is {}", param_value_size);
  switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
      // A list of pointers; an empty one (size 0) clears it.
      if (param_value_size % sizeof(void*))
        return apiError(__func__, CL_INVALID_VALUE,
                        "param_value_size is {}, not a multiple of the size of a pointer ({})", param_value_size,
                        sizeof(void*));
      const auto* ptrs = static_cast<void* const*>(param_value);
      std::vector<const void*> list;
      if (param_value_size) list.assign(ptrs, ptrs + param_value_size / sizeof(void*));
      for (size_t i = 0; i < list.size(); ++i)
        if (!kernel->program->context->svmAllocationHolding(list[i], 0))
          return apiError(__func__, CL_INVALID_VALUE,
                          "param_value[{}] {} is not in an SVM allocation of context {} (the device has no "
                          "fine-grained system SVM)",
                          i, list[i], kernel->program->context);
      // Every SVM allocation is reachable from every kernel (interpreter/svm.hpp): the list is kept, not needed.
      kernel->svmPointers = std::move(list);
      return CL_SUCCESS;
    }
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
      if (param_value_size != sizeof(cl_bool))
        return apiError(__func__, CL_INVALID_VALUE, "param_value_size is {}, and the value is a cl_bool ({} bytes)",
                        param_value_size, sizeof(cl_bool));
      if (*static_cast<const cl_bool*>(param_value))
        return apiError(__func__, CL_INVALID_OPERATION,
                        "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM is CL_TRUE, and the device has no fine-grained "
                        "system SVM");
      return CL_SUCCESS;
    }
    default:
      return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel execution parameter", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME: return out(kernel->name);
    case CL_KERNEL_NUM_ARGS: return out(cl_uint(kernel->args.size()));
    case CL_KERNEL_REFERENCE_COUNT: return out(kernel->refCount);
    case CL_KERNEL_CONTEXT: return out(kernel->program->context);
    case CL_KERNEL_PROGRAM: return out(kernel->program);
    // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_ATTRIBUTES: the source attributes (read from clang's
    // metadata when the program was built from OpenCL C); programs from IL or binaries have none to report.
    case CL_KERNEL_ATTRIBUTES: {
      readKernelAttributes(kernel->program);
      const auto it = kernel->program->kernelAttributes.find(kernel->name);
      return out(it == kernel->program->kernelAttributes.end() ? std::string() : it->second);
    }
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void* param_value,
                                                   size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelArgInfo
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (arg_index >= kernel->args.size())
    return apiError(__func__, CL_INVALID_ARG_INDEX, "arg_index is {}, and kernel {} has {} arguments", arg_index,
                    kernel->name, kernel->args.size());
  // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available: it is kept
  // only for programs built from source with -cl-kernel-arg-info.
  if (!kernel->program->argInfo)
    return apiError(__func__, CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                    "the program of kernel {} was not built from source with -cl-kernel-arg-info", kernel->name);
  const auto& info = kernel->kernel->argInfo(arg_index);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  // The OpenCL C declaration, from clang's kernel argument metadata (see program.cpp).
  const auto meta = kernel->program->argMeta.find(kernel->name);
  if (meta != kernel->program->argMeta.end() && arg_index < meta->second.size()) {
    const KernelArgMeta& m = meta->second[arg_index];
    switch (param_name) {
      case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
        // SPIR address spaces: 1 global, 2 constant, 3 local; everything else is private.
        cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        if (m.addressSpace == 1)
          q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
        else if (m.addressSpace == 2)
          q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
        else if (m.addressSpace == 3)
          q = CL_KERNEL_ARG_ADDRESS_LOCAL;
        return out(q);
      }
      case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
        cl_kernel_arg_access_qualifier q = CL_KERNEL_ARG_ACCESS_NONE;
        if (m.access == "read_only")
          q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
        else if (m.access == "write_only")
          q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
        else if (m.access == "read_write")
          q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
        return out(q);
      }
      case CL_KERNEL_ARG_TYPE_NAME: return out(m.type);
      case CL_KERNEL_ARG_TYPE_QUALIFIER: {
        cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
        std::istringstream words(m.qualifiers);
        for (std::string w; words >> w;) {
          if (w == "const")
            q |= CL_KERNEL_ARG_TYPE_CONST;
          else if (w == "restrict")
            q |= CL_KERNEL_ARG_TYPE_RESTRICT;
          else if (w == "volatile")
            q |= CL_KERNEL_ARG_TYPE_VOLATILE;
          else if (w == "pipe")
            q |= CL_KERNEL_ARG_TYPE_PIPE;
        }
        return out(q);
      }
      case CL_KERNEL_ARG_NAME: return out(m.name.empty() ? info.name : m.name);
      default:
        return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel argument query", hex(param_name));
    }
  }
  std::string type = info.typeName;
  cl_kernel_arg_address_qualifier aq = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  for (auto [prefix, q] :
       {std::pair{"global ", CL_KERNEL_ARG_ADDRESS_GLOBAL}, std::pair{"constant ", CL_KERNEL_ARG_ADDRESS_CONSTANT},
        std::pair{"local ", CL_KERNEL_ARG_ADDRESS_LOCAL}}) {
    if (type.rfind(prefix, 0) == 0) {
      aq = q;
      type = type.substr(std::strlen(prefix));
    }
  }
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelArgInfo: an image argument is in the global address
  // space and has its access qualifier; every other argument's access qualifier is CL_KERNEL_ARG_ACCESS_NONE.
  cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
  if (info.kind == host::ArgKind::Image) {
    aq = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    access = info.access == host::KernelArgInfo::Access::WriteOnly   ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
             : info.access == host::KernelArgInfo::Access::ReadWrite ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                                     : CL_KERNEL_ARG_ACCESS_READ_ONLY;
  }
  switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return out(aq);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: return out(access);
    case CL_KERNEL_ARG_TYPE_NAME: return out(type);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: return out(cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_NONE));
    case CL_KERNEL_ARG_NAME: return out(info.name);
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel argument query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelWorkGroupInfo: device may be NULL when the kernel has
  // one device.
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (cl_int e = checkKernelDevice(__func__, kernel, device)) return e;
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    // CL_KERNEL_GLOBAL_WORK_SIZE: CL_INVALID_VALUE unless the device is custom or the kernel built-in
    case CL_KERNEL_GLOBAL_WORK_SIZE:
      return apiError(__func__, CL_INVALID_VALUE,
                      "param_name is CL_KERNEL_GLOBAL_WORK_SIZE, only for a custom device or a built-in kernel");
    // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_WORK_GROUP_SIZE: the largest work-group size the
    // kernel's resource requirements allow on the device.
    case CL_KERNEL_WORK_GROUP_SIZE: return out(kernel->kernel->maxWorkGroupSize());
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: return out(requiredSize(kernel));
    case CL_KERNEL_LOCAL_MEM_SIZE: {
      cl_ulong bytes = kernel->staticLocalBytes;
      for (const auto& a : kernel->args)
        if (a.kind == host::ArgKind::Local) bytes += a.localBytes;
      return out(bytes);
    }
    // A performance hint: the sub-group size (work-groups of whole sub-groups), at most the kernel's largest
    // work-group. The conformance suite's generic_atomics_variant uses it as a work-group size and needs it even.
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return out(std::min<size_t>(std::max<uint32_t>(1, theDevice()->device.config().subgroupSize),
                                  kernel->kernel->maxWorkGroupSize()));
    // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_PRIVATE_MEM_SIZE: "the minimum amount of private
    // memory, in bytes, used by each work-item in the kernel", including what the implementation needs to run it.
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out(cl_ulong(kernel->kernel->privateMemBytes()));
    default:
      return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel work-group query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] clGetKernelSubGroupInfo: sub-groups are runs of DeviceConfig::subgroupSize consecutive local linear ids, the
// last one of a work-group possibly smaller (interpreter/builtins.cpp).
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                        const void* input_value, size_t param_value_size,
                                                        void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validKernel(kernel)) return apiError(__func__, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (cl_int e = checkKernelDevice(__func__, kernel, device)) return e;
  const char* fn = __func__;  // for the lambda below, whose own __func__ is "operator()"
  const InfoOut out{param_value_size, param_value, param_value_size_ret, fn, param_name};
  const size_t sg = std::max<size_t>(1, theDevice()->device.config().subgroupSize);
  const size_t maxGroup = kernel->kernel->maxWorkGroupSize();
  // The local work size the NDRange queries take: 1 to 3 size_t (CL_INVALID_VALUE otherwise, or for a NULL input).
  auto localItems = [&](size_t& items) -> cl_int {
    if (!input_value) return apiError(fn, CL_INVALID_VALUE, "input_value is NULL, and the query takes a local size");
    if (input_value_size == 0 || input_value_size % sizeof(size_t) || input_value_size > 3 * sizeof(size_t))
      return apiError(fn, CL_INVALID_VALUE, "input_value_size is {}, not 1 to 3 size_t ({}, {} or {} bytes)",
                      input_value_size, sizeof(size_t), 2 * sizeof(size_t), 3 * sizeof(size_t));
    items = 1;
    for (size_t d = 0; d < input_value_size / sizeof(size_t); ++d) {
      size_t v;
      std::memcpy(&v, static_cast<const char*>(input_value) + d * sizeof(size_t), sizeof v);
      if (v != 0 && items > SIZE_MAX / v)
        return apiError(fn, CL_INVALID_VALUE, "the product of the local size in input_value exceeds size_t");
      items *= v;
    }
    return CL_SUCCESS;
  };
  switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: {
      size_t items = 0;
      if (cl_int e = localItems(items)) return e;
      return out(std::min(sg, items));
    }
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
      size_t items = 0;
      if (cl_int e = localItems(items)) return e;
      return out(items / sg + (items % sg != 0));
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      if (!input_value)
        return apiError(__func__, CL_INVALID_VALUE, "input_value is NULL, and the query takes a sub-group count");
      if (input_value_size != sizeof(size_t))
        return apiError(__func__, CL_INVALID_VALUE, "input_value_size is {}, not the {} bytes of a size_t",
                        input_value_size, sizeof(size_t));
      size_t count;
      std::memcpy(&count, input_value, sizeof count);
      // One dimension of count whole sub-groups, the others 1 (as many as param_value_size holds); 0 everywhere when
      // no work-group of this kernel can hold them.
      const size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
      if (dims == 0 || dims > 3)
        return apiError(__func__, CL_INVALID_VALUE, "param_value_size is {}, not room for 1 to 3 size_t",
                        param_value_size);
      std::array<size_t, 3> local{1, 1, 1};
      local[0] = size_t(clref::interpreter::localSizeForSubgroupCount(count, maxGroup, sg));
      if (local[0] == 0) local.fill(0);
      return out.bytes(local.data(), dims * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: return out(size_t(clref::interpreter::maxNumSubgroups(maxGroup, sg)));
    // No kernel can declare a sub-group count: clref refuses the execution modes SubgroupsPerWorkgroup and
    // SubgroupsPerWorkgroupId (interpreter/capabilities.cpp checkModuleSupport).
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return out(size_t(0));
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no kernel sub-group query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// ---- OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel
// ------------------------------------------------------------

namespace {
// clEnqueueNDRangeKernel, and clEnqueueTask through it: `fn` is the entry point the application called (for the
// channel "api").
// The NDRange clEnqueueNDRangeKernel would launch (and clGetKernelSuggestedLocalWorkSizeKHR asks about), checked
// with its error codes: `range` gets the sizes (its local size when the host's or the kernel's required one fixes it),
// `empty` whether it has no work-item. The caller holds the API lock and has checked the queue and the kernel.
cl_int launchRange(const char* fn, cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                   const size_t* global_work_offset, const size_t* global_work_size, const size_t* local_work_size,
                   host::NDRange& range, bool& empty) {
  // CL_INVALID_CONTEXT if the context associated with command_queue and kernel are not the same
  if (kernel->program->context != command_queue->context)
    return apiError(fn, CL_INVALID_CONTEXT, "kernel belongs to context {}, command_queue to context {}",
                    kernel->program->context, command_queue->context);
  // OpenCL 3.0 API §5.10 [[_executing_kernels]]: CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
  // program executable available for the device associated with command_queue.
  if (!kernel->program->builtForDevice(command_queue->device))
    return apiError(fn, CL_INVALID_PROGRAM_EXECUTABLE,
                    "program {} of kernel {} was not built for device {} of command_queue (its last build was for "
                    "other devices of the context)",
                    kernel->program, kernel->name, command_queue->device);
  // CL_INVALID_WORK_DIMENSION if work_dim is not 1..CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS
  if (work_dim < 1 || work_dim > 3)
    return apiError(fn, CL_INVALID_WORK_DIMENSION, "work_dim is {}, not 1 to CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (3)",
                    work_dim);
  // CL_INVALID_KERNEL_ARGS if any kernel arguments have not been set
  for (const auto& a : kernel->args)
    if (!a.set) return apiError(fn, CL_INVALID_KERNEL_ARGS, "not all kernel arguments are set: {}", UnsetArgs{kernel});
  const size_t wgMax = maxWorkGroupSize();
  const auto req = requiredSize(kernel);
  range.dims = work_dim;
  empty = !global_work_size;  // OpenCL 2.1+: a NULL or zero global size is an empty launch
  for (cl_uint d = 0; d < work_dim; ++d) {
    const size_t g = global_work_size ? global_work_size[d] : 0;
    const size_t o = global_work_offset ? global_work_offset[d] : 0;
    empty = empty || g == 0;
    // CL_INVALID_GLOBAL_OFFSET if global size + offset exceeds the range of size_t
    if (g > SIZE_MAX - o)
      return apiError(fn, CL_INVALID_GLOBAL_OFFSET,
                      "global_work_offset[{}] + global_work_size[{}] ({} + {}) exceeds the range of size_t", d, d, o,
                      g);
    range.global[d] = g;
    range.offset[d] = o;
  }
  // The host API's check of the global sizes (no local size yet): each and their product, the number of work-items,
  // must be a size_t of the device. A product past SIZE_MAX is CL_INVALID_GLOBAL_WORK_SIZE, the error of a global
  // size beyond size_t: the work-items could not be numbered (get_global_linear_id).
  try {
    host::checkNDRange(range, theDevice()->device.config());
  } catch (const host::NDRangeError& e) {
    switch (e.field) {
      case host::NDRangeError::Field::Dims: return apiError(fn, CL_INVALID_WORK_DIMENSION, "{}", e.what());
      case host::NDRangeError::Field::Offset: return apiError(fn, CL_INVALID_GLOBAL_OFFSET, "{}", e.what());
      case host::NDRangeError::Field::Global: return apiError(fn, CL_INVALID_GLOBAL_WORK_SIZE, "{}", e.what());
      case host::NDRangeError::Field::Local: return apiError(fn, CL_INVALID_WORK_GROUP_SIZE, "{}", e.what());
    }
  }
  if (local_work_size) {
    size_t total = 1;
    std::array<size_t, 3> l{1, 1, 1};
    for (cl_uint d = 0; d < work_dim; ++d) {
      l[d] = local_work_size[d];
      total *= l[d];
      // CL_INVALID_WORK_ITEM_SIZE if local_work_size[d] > CL_DEVICE_MAX_WORK_ITEM_SIZES[d]
      if (l[d] > wgMax)
        return apiError(fn, CL_INVALID_WORK_ITEM_SIZE,
                        "local_work_size[{}] is {}, more than CL_DEVICE_MAX_WORK_ITEM_SIZES[{}] ({})", d, l[d], d,
                        wgMax);
    }
    // CL_INVALID_WORK_GROUP_SIZE if the total is 0 or greater than CL_KERNEL_WORK_GROUP_SIZE
    if (total == 0)
      return apiError(fn, CL_INVALID_WORK_GROUP_SIZE, "local_work_size ({}, {}, {}) has a 0", l[0], l[1], l[2]);
    if (total > kernel->kernel->maxWorkGroupSize())
      return apiError(fn, CL_INVALID_WORK_GROUP_SIZE,
                      "the work-group size {} (local_work_size {} * {} * {}) is more than CL_KERNEL_WORK_GROUP_SIZE "
                      "({}) of kernel {}",
                      total, l[0], l[1], l[2], kernel->kernel->maxWorkGroupSize(), kernel->name);
    // ... if local_work_size does not match the required work-group size
    if (req[0] && (l[0] != req[0] || l[1] != req[1] || l[2] != req[2]))
      return apiError(fn, CL_INVALID_WORK_GROUP_SIZE,
                      "local_work_size ({}, {}, {}) is not the reqd_work_group_size ({}, {}, {}) of kernel {}", l[0],
                      l[1], l[2], req[0], req[1], req[2], kernel->name);
    // ... if the work-group size must be uniform and global is not divisible by local
    if (kernel->program->uniformWorkGroups)
      for (cl_uint d = 0; d < work_dim; ++d)
        if (range.global[d] % l[d])
          return apiError(fn, CL_INVALID_WORK_GROUP_SIZE,
                          "global_work_size[{}] ({}) is not a multiple of local_work_size[{}] ({}), and the program "
                          "needs uniform work-groups (OpenCL C 1.x, or -cl-uniform-work-group-size)",
                          d, range.global[d], d, l[d]);
    range.local = l;
  } else if (req[0]) {
    // NULL local size with a required size: the required size is the only valid choice
    // (OpenCL 3.0 API §5.10 [[_executing_kernels]]: the runtime must choose a uniform size; reqd_work_group_size fixes
    // it).
    range.local = req;
    for (cl_uint d = 0; d < work_dim; ++d)
      if (range.global[d] % req[d])
        return apiError(fn, CL_INVALID_WORK_GROUP_SIZE,
                        "local_work_size is NULL and global_work_size[{}] ({}) is not a multiple of the "
                        "reqd_work_group_size[{}] ({}) of kernel {}",
                        d, range.global[d], d, req[d], kernel->name);
  }
  // Local memory: the sum of local arguments must fit CL_DEVICE_LOCAL_MEM_SIZE
  // (CL_OUT_OF_RESOURCES: the kernel cannot be queued with these resources).
  cl_ulong localBytes = kernel->staticLocalBytes;
  for (const auto& a : kernel->args)
    if (a.kind == host::ArgKind::Local) localBytes += a.localBytes;
  if (localBytes > kLocalMemSize)
    return apiError(fn, CL_OUT_OF_RESOURCES,
                    "kernel {} needs {} bytes of local memory (__local variables and local arguments), more than "
                    "CL_DEVICE_LOCAL_MEM_SIZE ({})",
                    kernel->name, localBytes, kLocalMemSize);
  return CL_SUCCESS;
}

// OpenCL C 3.0 §6.15.19.9 [[built-in-functions-helper-functions]] get_default_queue: the default device queue of the
// launch's device in its context (OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_ON_DEVICE_DEFAULT: one per device
// within a context); null when there is none (CLK_NULL_QUEUE).
std::shared_ptr<host::DeviceQueue> defaultDeviceQueue(cl_context context, cl_device_id device) {
  const cl_command_queue q = context->deviceQueuesOf(device).defaultQueue;
  return q ? q->deviceQueue : nullptr;
}

// A launch's end, under the API lock: its printf output, the choices it used, the checkers' findings and its fault go
// out, and the status its command's event ends with comes back. `error`: why the kernel could not run at all.
cl_int launchStatus(const char* fn, cl_kernel kernel, cl_context context, const host::RunResult& r,
                    const std::string& error) {
  if (!error.empty()) {
    reportFault(context, "kernel " + kernel->name + " could not run: " + error);
    return apiError(fn, CL_OUT_OF_RESOURCES, "kernel {} could not run ({}): its command's event ends with this status",
                    kernel->name, error);
  }
  // OpenCL C 3.0 §6.15.14.3 [[differences-between-opencl-c-and-c99-printf]]: printf output goes to the
  // implementation's output stream when the command completes; clref writes it to stdout in work-group order.
  if (!r.printfOutput.empty()) {
    std::fwrite(r.printfOutput.data(), 1, r.printfOutput.size(), stdout);
    std::fflush(stdout);
  }
  if (logChannel("choices") && !r.choicesUsed.empty()) {
    const std::string text = "clref: kernel " + kernel->name + ":\n" +
                             clref::interpreter::formatChoiceUses(r.choicesUsed, theDevice()->device.config().choices);
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
  // The checkers' findings (CLREF_CHECKS): on stderr and through the context's callback, each as one message.
  for (const auto& f : r.findings) reportFault(context, "kernel " + kernel->name + ": " + f.format());
  if (!r.ok && !r.fault) {
    // Findings fail the command as a fault does, unless CLREF_CHECKS_FATAL=0.
    reportFault(context, "kernel " + kernel->name + ": the checkers found " + std::to_string(r.findings.size()) +
                             " problem" + (r.findings.size() == 1 ? "" : "s") +
                             "; the command fails (CLREF_CHECKS_FATAL=0 keeps going)");
    return CL_OUT_OF_RESOURCES;
  }
  if (!r.ok) {
    // A kernel fault (out-of-bounds access, barrier divergence, ...): the command ends with
    // CL_OUT_OF_RESOURCES, the status implementations give a command that faulted, and the
    // diagnostic goes to stderr and the context's callback.
    reportFault(context, "kernel " + kernel->name + " faulted:\n" +
                             (r.fault ? r.fault->format() : std::string("unknown fault")));
    return apiError(fn, CL_OUT_OF_RESOURCES,
                    "kernel {} faulted (reported above): its command's event ends with this status", kernel->name);
  }
  return CL_SUCCESS;
}

cl_int ndRangeKernel(const char* fn, cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                     const size_t* global_work_offset, const size_t* global_work_size, const size_t* local_work_size,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(fn, command_queue);
  if (!validKernel(kernel)) return apiError(fn, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (kernel->program->context == command_queue->context)
    if (cl_int e = checkWaitList(fn, command_queue->context, num_events_in_wait_list, event_wait_list)) return e;
  host::NDRange range;
  bool empty = false;
  if (cl_int e = launchRange(fn, command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                             range, empty))
    return e;
  auto args = kernel->args;  // the arguments as of enqueue time (OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]])
  cl_context context = command_queue->context;
  cl_device_id device = command_queue->device;  // runs the launch on its compute units (worker threads)
  const auto defaultQueue = defaultDeviceQueue(context, device);  // as of enqueue time too
  // The launch in the interpreter touches only the kernel's own host::Kernel, so it may run without the API lock
  // (queue.cpp); what it found is reported under the lock. The kernel stays alive until then.
  Launch launch = [fn, kernel, args, range, empty, context, device, defaultQueue]() -> std::function<cl_int()> {
    if (empty)
      return [kernel] {
        releaseInternal(kernel);
        return CL_SUCCESS;
      };
    auto result = std::make_shared<host::RunResult>();
    std::string error;  // the host::Error or module error that kept the kernel from running
    auto& hk = *kernel->kernel;
    try {
      hk.setDefaultQueue(defaultQueue);
      for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        switch (a.kind) {
          case host::ArgKind::Buffer:
            if (a.svm)
              hk.setArgSvm(i, a.svmPointer);
            else if (a.buffer)
              hk.setArg(i, a.buffer);
            else
              hk.setArgNull(i);
            break;
          case host::ArgKind::Local: hk.setArgLocal(i, a.localBytes); break;
          case host::ArgKind::Value: hk.setArgValue(i, a.value.data(), a.value.size()); break;
          case host::ArgKind::Image: hk.setArg(i, a.image); break;
          case host::ArgKind::Sampler: hk.setArgSampler(i, a.sampler); break;
          case host::ArgKind::Pipe: hk.setArg(i, a.pipe); break;
          case host::ArgKind::Queue: hk.setArg(i, a.deviceQueue); break;
        }
      }
      *result = hk.run(range, device->computeUnits);
    } catch (const std::exception& e) { error = e.what(); }
    return [fn, kernel, context, result, error]() -> cl_int {
      const cl_int status = launchStatus(fn, kernel, context, *result, error);
      releaseInternal(kernel);
      return status;
    };
  };
  // Retained once every allocation of the command is made; enqueue either queues the command or
  // fails (CL_OUT_OF_HOST_MEMORY) without running it, then the reference is dropped again.
  retainInternal(kernel);
  try {
    const cl_int r = enqueueLaunch(fn, lock, command_queue, CL_COMMAND_NDRANGE_KERNEL, num_events_in_wait_list,
                                   event_wait_list, event, std::move(launch));
    // Recorded into a command-buffer: the reference above is the command-buffer's; each run takes one of its own.
    if (Recorder* rec = recorder()) rec->perRun.push_back(kernel);
    return r;
  } catch (...) {
    releaseInternal(kernel);
    throw;
  }
}
}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                       cl_uint work_dim, const size_t* global_work_offset,
                                                       const size_t* global_work_size, const size_t* local_work_size,
                                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                       cl_event* event) try {
  return ndRangeKernel(__func__, command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                       num_events_in_wait_list, event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) try {
  // OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueTask (deprecated by 2.0): an NDRange of one work-item in a
  // work-group of one.
  const size_t one = 1;
  return ndRangeKernel(__func__, command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                       event_wait_list, event);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// cl_khr_subgroups' query, the core clGetKernelSubGroupInfo with the same parameters and values (its errors name the
// core entry point):
// OpenCL Extension Specification 3.0.12 §28.4 "Additions to Chapter 5 of the OpenCL 2.0 Specification"
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
                                                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                           const void* input_value, size_t param_value_size,
                                                           void* param_value, size_t* param_value_size_ret) {
  return clGetKernelSubGroupInfo(in_kernel, in_device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

// OpenCL Extension Specification 3.0.12 §41 "Suggested Local Work Size Query": the local size clEnqueueNDRangeKernel
// would choose for these sizes with a NULL local size (the kernel's required size, or the choice default_local_size),
// with that function's errors, except that a NULL or zero global size is CL_INVALID_GLOBAL_WORK_SIZE.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue, cl_kernel kernel,
                                                                     cl_uint work_dim, const size_t* global_work_offset,
                                                                     const size_t* global_work_size,
                                                                     size_t* suggested_local_work_size) try {
  const char* fn = __func__;
  ApiLock lock;
  if (!validHostQueue(command_queue)) return invalidHostQueue(fn, command_queue);
  if (!validKernel(kernel)) return apiError(fn, CL_INVALID_KERNEL, "kernel {} is not a valid kernel", kernel);
  if (!suggested_local_work_size) return apiError(fn, CL_INVALID_VALUE, "suggested_local_work_size is NULL");
  if (!global_work_size) return apiError(fn, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
  for (cl_uint d = 0; d < work_dim && d < 3; ++d)
    if (global_work_size[d] == 0) return apiError(fn, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size[{}] is 0", d);
  host::NDRange range;
  bool empty = false;
  if (cl_int e =
          launchRange(fn, command_queue, kernel, work_dim, global_work_offset, global_work_size, nullptr, range, empty))
    return e;
  const std::array<size_t, 3> local = kernel->kernel->localSizeFor(range);
  for (cl_uint d = 0; d < work_dim; ++d) suggested_local_work_size[d] = local[d];
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
