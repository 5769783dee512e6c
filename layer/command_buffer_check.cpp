// The check of command buffers (cl_khr_command_buffer, OpenCL 3.0 API §5.17 [[_command_buffers]]): the application
// reaches their entry points through clGetExtensionFunctionAddress(ForPlatform), which the layer answers with its own
// for clCreateCommandBufferKHR, clCommandNDRangeKernelKHR, clEnqueueCommandBufferKHR and clReleaseCommandBufferKHR
// (the others are the platform's). A snapshot around a whole command buffer cannot judge a kernel whose inputs an
// earlier command of the same command buffer wrote, so the layer records, into the application's command buffer around
// each kernel command it checks, copies of the kernel's buffer arguments into buffers of its own: before the kernel
// (waiting on the command's sync points; the kernel waits on them) and after it (waiting on the kernel; a barrier on
// them is the sync point the application gets for the kernel, so what depends on the kernel waits for them too). Each
// enqueue of the command buffer is waited for and every such kernel judged from its copies, in record order, as a plain
// enqueue is judged and reported (enqueue_check.cpp). The application's results are what they would be without the
// layer; the only difference it can see is that the enqueue returns once the command buffer has completed.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "layer/command_buffer_check.hpp"
#include "layer/layer.hpp"
#include "layer/report.hpp"

namespace clref::layer {
namespace {

// The entry points of cl_khr_command_buffer 0.9.8 as cl.xml declares them (the version clref's ICD implements; Debian's
// CL/cl_ext.h has an older revision, without the commands' cl_command_properties_khr parameter).
using CommandProperties = cl_properties;  // cl_command_properties_khr
using CreateCommandBufferFn = cl_command_buffer_khr(CL_API_CALL*)(cl_uint, const cl_command_queue*,
                                                                  const cl_command_buffer_properties_khr*, cl_int*);
using CommandNDRangeKernelFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const CommandProperties*,
                                                    cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                                                    cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                                    cl_mutable_command_khr*);
using CommandCopyBufferFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const CommandProperties*,
                                                 cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                                 const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandBarrierFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const CommandProperties*,
                                              cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                              cl_mutable_command_khr*);
using EnqueueCommandBufferFn = cl_int(CL_API_CALL*)(cl_uint, cl_command_queue*, cl_command_buffer_khr, cl_uint,
                                                    const cl_event*, cl_event*);
using ReleaseCommandBufferFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr);
using GetCommandBufferInfoFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t, void*,
                                                    size_t*);

// The platform's command-buffer entry points the layer calls.
struct CommandBufferEntries {
  CreateCommandBufferFn create = nullptr;
  CommandNDRangeKernelFn ndRangeKernel = nullptr;
  CommandCopyBufferFn copyBuffer = nullptr;
  CommandBarrierFn barrier = nullptr;
  EnqueueCommandBufferFn enqueue = nullptr;
  ReleaseCommandBufferFn release = nullptr;
  GetCommandBufferInfoFn info = nullptr;
};
template <class Lookup> CommandBufferEntries commandBufferEntriesFrom(Lookup lookup) {
  CommandBufferEntries e;
  e.create = reinterpret_cast<CreateCommandBufferFn>(lookup("clCreateCommandBufferKHR"));
  e.ndRangeKernel = reinterpret_cast<CommandNDRangeKernelFn>(lookup("clCommandNDRangeKernelKHR"));
  e.copyBuffer = reinterpret_cast<CommandCopyBufferFn>(lookup("clCommandCopyBufferKHR"));
  e.barrier = reinterpret_cast<CommandBarrierFn>(lookup("clCommandBarrierWithWaitListKHR"));
  e.enqueue = reinterpret_cast<EnqueueCommandBufferFn>(lookup("clEnqueueCommandBufferKHR"));
  e.release = reinterpret_cast<ReleaseCommandBufferFn>(lookup("clReleaseCommandBufferKHR"));
  e.info = reinterpret_cast<GetCommandBufferInfoFn>(lookup("clGetCommandBufferInfoKHR"));
  return e;
}

// A kernel command of a command buffer: what the layer prepared, and its copies of the buffer arguments (its own
// buffers, released with the command buffer).
struct KernelCommandCheck {
  RecordedKernel kernel;
  std::map<cl_mem, BufferCopies> copies;
};

struct CommandBufferCheck {
  CommandBufferEntries entries;
  cl_command_queue queue = nullptr;  // the command buffer's
  // Recording, and each run with its judging: one at a time, since every run writes the same copies.
  std::mutex mutex;
  std::vector<KernelCommandCheck> commands;  // in record order
};

std::mutex commandBuffersMutex;  // held only to look up or change the maps
std::map<cl_command_buffer_khr, std::shared_ptr<CommandBufferCheck>> commandBufferChecks;
std::map<cl_platform_id, CommandBufferEntries> entriesByPlatform;
CommandBufferEntries lastEntries;  // of the platform an application last asked for them: for objects the layer missed

CommandBufferEntries entriesOfPlatform(cl_platform_id platform) {
  std::lock_guard lock(commandBuffersMutex);
  auto it = entriesByPlatform.find(platform);
  if (it != entriesByPlatform.end()) return it->second;
  auto entries = commandBufferEntriesFrom(
      [&](const char* name) { return next().clGetExtensionFunctionAddressForPlatform(platform, name); });
  entriesByPlatform[platform] = entries;
  return entries;
}
CommandBufferEntries fallbackEntries() {
  std::lock_guard lock(commandBuffersMutex);
  return lastEntries;
}
std::shared_ptr<CommandBufferCheck> checkOf(cl_command_buffer_khr b) {
  std::lock_guard lock(commandBuffersMutex);
  auto it = commandBufferChecks.find(b);
  return it == commandBufferChecks.end() ? nullptr : it->second;
}

void releaseCopies(const std::map<cl_mem, BufferCopies>& copies) {
  for (const auto& [mem, c] : copies) {
    if (c.before) next().clReleaseMemObject(c.before);
    if (c.after) next().clReleaseMemObject(c.after);
  }
}

cl_command_buffer_khr CL_API_CALL createCommandBuffer(cl_uint num_queues, const cl_command_queue* queues,
                                                      const cl_command_buffer_properties_khr* properties,
                                                      cl_int* errcode_ret) {
  CommandBufferEntries entries = fallbackEntries();
  cl_device_id device = nullptr;
  cl_platform_id platform = nullptr;
  if (num_queues > 0 && queues && queues[0] &&
      next().clGetCommandQueueInfo(queues[0], CL_QUEUE_DEVICE, sizeof device, &device, nullptr) == CL_SUCCESS &&
      next().clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) == CL_SUCCESS)
    entries = entriesOfPlatform(platform);
  if (!entries.create) {
    if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
    return nullptr;
  }
  cl_command_buffer_khr b = entries.create(num_queues, queues, properties, errcode_ret);
  if (b && entries.ndRangeKernel && entries.copyBuffer && entries.enqueue) {
    auto check = std::make_shared<CommandBufferCheck>();
    check->entries = entries;
    check->queue = queues[0];
    std::lock_guard lock(commandBuffersMutex);
    commandBufferChecks[b] = std::move(check);  // a handle the platform reuses is a new command buffer
  }
  return b;
}

cl_int CL_API_CALL commandNDRangeKernel(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                                        const CommandProperties* properties, cl_kernel kernel,
                                        cl_uint work_dim, const size_t* global_work_offset,
                                        const size_t* global_work_size, const size_t* local_work_size,
                                        cl_uint num_sync_points_in_wait_list,
                                        const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
                                        cl_mutable_command_khr* mutable_handle) {
  const std::shared_ptr<CommandBufferCheck> check = checkOf(command_buffer);
  const CommandBufferEntries entries = check ? check->entries : fallbackEntries();
  if (!entries.ndRangeKernel) return CL_INVALID_COMMAND_BUFFER_KHR;
  auto record = [&](cl_uint nSync, const cl_sync_point_khr* syncs, cl_sync_point_khr* done) {
    return entries.ndRangeKernel(command_buffer, command_queue, properties, kernel, work_dim, global_work_offset,
                                 global_work_size, local_work_size, nSync, syncs, done, mutable_handle);
  };
  // A command buffer the layer did not see created, or a command for another queue than the command buffer's
  // (cl_khr_command_buffer_multi_device, not known to the layer): passed through unjudged.
  if (!check || command_queue) return record(num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
  std::lock_guard lock(check->mutex);
  std::optional<RecordedKernel> prepared =
      recordKernelCommand(check->queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size);
  if (!prepared) return record(num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
  KernelCommandCheck command{std::move(*prepared), {}};
  // The command passed through as the application recorded it, reported not checked at each run for `reason`.
  auto unchecked = [&](const std::string& reason) {
    releaseCopies(command.copies);
    if (command.kernel.id) forgetKernelCommand(command.kernel.id);
    const cl_int r = record(num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
    if (r == CL_SUCCESS)
      check->commands.push_back(KernelCommandCheck{RecordedKernel{0, command.kernel.name, reason, {}}, {}});
    return r;
  };
  if (!command.kernel.id) return unchecked(command.kernel.reason);
  // cl_khr_command_buffer_mutable_dispatch: the application may change the command's arguments after recording.
  if (mutable_handle) return unchecked("the command is mutable (cl_khr_command_buffer_mutable_dispatch)");
  cl_context context = nullptr;
  if (next().clGetCommandQueueInfo(check->queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS)
    return unchecked("the platform does not answer clGetCommandQueueInfo");
  // The copies before the kernel, after the command's own sync points; the kernel after them (and those).
  std::vector<cl_sync_point_khr> beforeKernel(sync_point_wait_list,
                                              sync_point_wait_list ? sync_point_wait_list + num_sync_points_in_wait_list
                                                                   : sync_point_wait_list);
  for (const auto& [mem, size] : command.kernel.buffers) {
    BufferCopies& c = command.copies[mem];
    cl_int err = CL_SUCCESS;
    c.before = next().clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
    if (c.before) c.after = next().clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
    if (!c.after) return unchecked("the layer could not create a buffer for its copies (error " + std::to_string(err) + ")");
    cl_sync_point_khr copied = 0;
    err = entries.copyBuffer(command_buffer, nullptr, nullptr, mem, c.before, 0, 0, size, num_sync_points_in_wait_list,
                             sync_point_wait_list, &copied, nullptr);
    // The same error comes back for the kernel command (its wait list, or a finalized command buffer) when the
    // application's command is recorded unchanged.
    if (err != CL_SUCCESS) return unchecked("recording a copy of a buffer argument failed with error " + std::to_string(err));
    beforeKernel.push_back(copied);
  }
  cl_sync_point_khr kernelDone = 0;
  const cl_int r = record(cl_uint(beforeKernel.size()), beforeKernel.empty() ? nullptr : beforeKernel.data(),
                          &kernelDone);
  if (r != CL_SUCCESS) {
    releaseCopies(command.copies);
    forgetKernelCommand(command.kernel.id);
    return r;
  }
  // The copies after the kernel, and the barrier on them the application gets as the kernel's sync point.
  std::vector<cl_sync_point_khr> afterKernel;
  std::string failed;
  for (const auto& [mem, size] : command.kernel.buffers) {
    cl_sync_point_khr copied = 0;
    const cl_int err = entries.copyBuffer(command_buffer, nullptr, nullptr, mem, command.copies[mem].after, 0, 0, size, 1,
                                          &kernelDone, &copied, nullptr);
    if (err != CL_SUCCESS) failed = "recording a copy of a buffer argument failed with error " + std::to_string(err);
    else afterKernel.push_back(copied);
  }
  if (sync_point) {
    *sync_point = kernelDone;
    if (!afterKernel.empty() && entries.barrier &&
        entries.barrier(command_buffer, nullptr, nullptr, cl_uint(afterKernel.size()), afterKernel.data(), &kernelDone,
                        nullptr) == CL_SUCCESS)
      *sync_point = kernelDone;
  }
  if (!failed.empty()) {
    forgetKernelCommand(command.kernel.id);
    command.kernel = RecordedKernel{0, command.kernel.name, failed, {}};
  }
  check->commands.push_back(std::move(command));
  return r;
}

cl_int CL_API_CALL enqueueCommandBuffer(cl_uint num_queues, cl_command_queue* queues,
                                        cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
  const std::shared_ptr<CommandBufferCheck> check = checkOf(command_buffer);
  const CommandBufferEntries entries = check ? check->entries : fallbackEntries();
  if (!entries.enqueue) return CL_INVALID_COMMAND_BUFFER_KHR;
  auto enqueue = [&](cl_event* e) {
    return entries.enqueue(num_queues, queues, command_buffer, num_events_in_wait_list, event_wait_list, e);
  };
  if (!check) return enqueue(event);
  std::unique_lock lock(check->mutex);
  if (check->commands.empty()) {
    lock.unlock();
    return enqueue(event);
  }
  // Nothing to judge: the run is not waited for, and its kernel commands are reported not checked at once.
  if (std::none_of(check->commands.begin(), check->commands.end(),
                   [](const KernelCommandCheck& c) { return c.kernel.id != 0; })) {
    const cl_int r = enqueue(event);
    if (r == CL_SUCCESS)
      for (const KernelCommandCheck& c : check->commands) reportNotChecked(c.kernel.name, c.kernel.reason);
    return r;
  }
  // A wait list with a user event the application has not completed yet: waiting for the run would wait for the
  // application, which is waiting for this call.
  std::string skipped;
  for (cl_uint i = 0; i < num_events_in_wait_list && event_wait_list; ++i) {
    cl_command_type type = 0;
    cl_int status = CL_COMPLETE;
    next().clGetEventInfo(event_wait_list[i], CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    next().clGetEventInfo(event_wait_list[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (type == CL_COMMAND_USER && status != CL_COMPLETE)
      skipped = "the command buffer waits for a user event that has not completed";
  }
  cl_event done = nullptr;
  const cl_int r = enqueue(&done);
  if (event) *event = done;
  if (r != CL_SUCCESS) return r;
  // Waited for under this command buffer's lock only: the layer's other checks go on meanwhile.
  if (skipped.empty() && next().clWaitForEvents(1, &done) != CL_SUCCESS)
    skipped = "the command buffer did not complete on the device";
  // OpenCL 3.0 API §5.17.4 [[_enqueuing_a_command_buffer]] clEnqueueCommandBufferKHR: queues, when given, replace the
  // command buffer's queues for this run.
  const cl_command_queue queue = num_queues > 0 && queues && queues[0] ? queues[0] : check->queue;
  for (const KernelCommandCheck& c : check->commands) {
    if (!skipped.empty())
      reportNotChecked(c.kernel.name, skipped);
    else if (!c.kernel.id)
      reportNotChecked(c.kernel.name, c.kernel.reason);
    else
      judgeKernelCommand(c.kernel.id, queue, c.copies, done);
  }
  if (!event) next().clReleaseEvent(done);
  return r;
}

cl_int CL_API_CALL releaseCommandBuffer(cl_command_buffer_khr command_buffer) {
  const std::shared_ptr<CommandBufferCheck> check = checkOf(command_buffer);
  const CommandBufferEntries entries = check ? check->entries : fallbackEntries();
  if (!entries.release) return CL_INVALID_COMMAND_BUFFER_KHR;
  cl_uint references = 0;
  if (check && entries.info)
    entries.info(command_buffer, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof references, &references, nullptr);
  const cl_int r = entries.release(command_buffer);
  // The last release: the layer's copies and prepared kernels go with the command buffer.
  if (r == CL_SUCCESS && check && references == 1) {
    {
      std::lock_guard lock(commandBuffersMutex);
      auto it = commandBufferChecks.find(command_buffer);
      if (it != commandBufferChecks.end() && it->second == check) commandBufferChecks.erase(it);
    }
    std::lock_guard lock(check->mutex);
    for (const KernelCommandCheck& c : check->commands) {
      if (c.kernel.id) forgetKernelCommand(c.kernel.id);
      releaseCopies(c.copies);
    }
    check->commands.clear();
  }
  return r;
}

// The entry points the layer answers with its own.
struct CommandBufferWrapper {
  const char* name;
  void* entry;
};
const CommandBufferWrapper kCommandBufferWrappers[] = {
    {"clCreateCommandBufferKHR", reinterpret_cast<void*>(&createCommandBuffer)},
    {"clCommandNDRangeKernelKHR", reinterpret_cast<void*>(&commandNDRangeKernel)},
    {"clEnqueueCommandBufferKHR", reinterpret_cast<void*>(&enqueueCommandBuffer)},
    {"clReleaseCommandBufferKHR", reinterpret_cast<void*>(&releaseCommandBuffer)},
};
const CommandBufferWrapper* commandBufferWrapperOf(const char* name) {
  if (!name) return nullptr;
  for (const auto& w : kCommandBufferWrappers)
    if (std::strcmp(w.name, name) == 0) return &w;
  return nullptr;
}
// The layer's entry point `w`, remembering the platform's entry points it calls.
void* commandBufferWrapped(const CommandBufferWrapper& w, const CommandBufferEntries& entries) {
  std::lock_guard lock(commandBuffersMutex);
  lastEntries = entries;
  return w.entry;
}

void* CL_API_CALL getExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
  void* platforms = next().clGetExtensionFunctionAddressForPlatform(platform, name);
  const CommandBufferWrapper* w = commandBufferWrapperOf(name);
  return platforms && w ? commandBufferWrapped(*w, entriesOfPlatform(platform)) : platforms;
}

void* CL_API_CALL getExtensionFunctionAddress(const char* name) {
  void* platforms = next().clGetExtensionFunctionAddress(name);
  const CommandBufferWrapper* w = commandBufferWrapperOf(name);
  if (!platforms || !w) return platforms;
  return commandBufferWrapped(
      *w, commandBufferEntriesFrom([](const char* n) { return next().clGetExtensionFunctionAddress(n); }));
}

}  // namespace

void interceptCommandBuffers(cl_icd_dispatch& t) {
  if (t.clGetExtensionFunctionAddressForPlatform)
    t.clGetExtensionFunctionAddressForPlatform = getExtensionFunctionAddressForPlatform;
  if (t.clGetExtensionFunctionAddress) t.clGetExtensionFunctionAddress = getExtensionFunctionAddress;
}

}  // namespace clref::layer
