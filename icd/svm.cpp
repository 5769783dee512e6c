// OpenCL 3.0 API §5.6 [[_shared_virtual_memory]] Shared Virtual Memory: clSVMAlloc and clSVMFree, and the SVM
// commands (free, memcpy, fill, map, unmap, migrate). The device has coarse- and fine-grained buffer SVM
// and SVM atomics (device.cpp); its SVM allocations are clref::host::svm's, whose host addresses kernels use as they
// are (interpreter/svm.hpp). Commands other than kernel launches run when they are enqueued (queue.cpp), so every
// command is a synchronisation point and map and unmap have nothing to move. A launch while the context has
// CL_MEM_SVM_ATOMICS allocations runs at the same time as the host (queue.cpp), its atomics the host's own.
#include <bit>

#include "icd/device_info.hpp"
#include "icd/memory_flags.hpp"

using namespace clref::cl;

const std::pair<const void* const, _cl_context::SvmAllocation>* _cl_context::svmAllocationHolding(const void* p,
                                                                                                  size_t bytes) const {
  auto it = svm.upper_bound(p);
  if (it == svm.begin()) return nullptr;
  --it;
  const auto offset = size_t(static_cast<const char*>(p) - static_cast<const char*>(it->first));
  if (offset > it->second.size || bytes > it->second.size - offset) return nullptr;
  return &*it;
}

namespace {

// clSVMAlloc's default alignment, "equal to the size of largest data type supported" (long16), and its largest: an
// SVM allocation starts on a page (interpreter/svm.hpp).
constexpr size_t kDefaultSvmAlignment = 128;
constexpr size_t kMaxSvmAlignment = 4096;

// clSVMAlloc returns NULL without an error code: the reason goes to the channel "api".
template <class... Args>
std::nullptr_t svmAllocFails(cl_int code, std::type_identity_t<Reason<Args...>> reason, const Args&... args) {
  apiError<Args...>("clSVMAlloc", code, reason, args...);
  return nullptr;
}

void freeIn(cl_context context, void* p) {
  auto it = context->svm.find(p);
  if (it == context->svm.end()) {
    apiError("clSVMFree", CL_INVALID_VALUE, "{} is not an SVM allocation of context {}: nothing freed", p, context);
    return;
  }
  clref::host::svm::free(p);
  if (it->second.flags & CL_MEM_SVM_ATOMICS) --context->svmAtomicAllocations;
  context->svm.erase(it);
}

cl_int checkSvmCommand(const char* fn, cl_command_queue q, cl_uint n, const cl_event* list) {
  if (!validHostQueue(q)) return invalidHostQueue(fn, q);
  return checkWaitList(fn, q->context, n, list);
}

// A command's host range [p, p + size) that starts in the SVM address range must lie in one SVM allocation of the
// queue's context: outside it are guard pages and freed allocations, which would fault the host process. A range
// outside the SVM addresses is ordinary host memory (clEnqueueSVMMemcpy copies between host memory and SVM).
cl_int checkSvmRange(const char* fn, cl_command_queue q, const char* name, const void* p, size_t size) {
  if (!clref::host::svm::inRange(p)) return CL_SUCCESS;
  if (!q->context->svmAllocationHolding(p, size))
    return apiError(fn, CL_INVALID_VALUE,
                    "{} {} and size {} are not inside one SVM allocation of context {} (freed, another context's, or "
                    "past the end of an allocation)",
                    name, p, size, q->context);
  return CL_SUCCESS;
}

}  // namespace

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clSVMAlloc fails (NULL) if
  // context is not valid; flags are not the SVM memory flags, or more than one of READ_WRITE, WRITE_ONLY, READ_ONLY;
  // CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER, or a flag no device supports; size is 0 or above
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE; alignment is not a power of two or not supported; allocation fails.
  if (!validContext(context)) return svmAllocFails(CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  constexpr cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  if (flags & ~(access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS))
    return svmAllocFails(CL_INVALID_VALUE, "flags {} has bits that are not SVM memory flags", hex(flags));
  if (std::popcount(flags & access) > 1)
    return svmAllocFails(CL_INVALID_VALUE,
                         "flags {} has more than one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY",
                         hex(flags));
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return svmAllocFails(CL_INVALID_VALUE, "flags has CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
  if (size == 0) return svmAllocFails(CL_INVALID_VALUE, "size is 0");
  if (size > kMaxMemAlloc)
    return svmAllocFails(CL_INVALID_VALUE, "size is {}, more than CL_DEVICE_MAX_MEM_ALLOC_SIZE ({})", size,
                         kMaxMemAlloc);
  if (alignment & (alignment - 1))
    return svmAllocFails(CL_INVALID_VALUE, "alignment {} is not a power of two", alignment);
  if (alignment > kMaxSvmAlignment)
    return svmAllocFails(CL_INVALID_VALUE, "alignment {} is more than the {} bytes clref supports", alignment,
                         kMaxSvmAlignment);
  void* p =
      clref::host::svm::allocate(size, alignment ? alignment : kDefaultSvmAlignment, (flags & CL_MEM_READ_ONLY) != 0);
  if (!p)
    return svmAllocFails(CL_OUT_OF_RESOURCES,
                         "no room for {} bytes in clref's SVM address range (or the range could not be reserved)",
                         size);
  try {
    context->svm[p] = {size, flags};
    if (flags & CL_MEM_SVM_ATOMICS) ++context->svmAtomicAllocations;
  } catch (...) {
    clref::host::svm::free(p);
    throw;
  }
  return p;
} catch (...) { return clref::cl::failedCall<void*>(__func__, nullptr); }

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clSVMFree: no action for a
  // NULL pointer; svm_pointer must be a value clSVMAlloc returned (anything else is reported on the channel "api"
  // and nothing is freed).
  if (!validContext(context)) {
    apiError(__func__, CL_INVALID_CONTEXT, "context {} is not a valid context: nothing freed", context);
    return;
  }
  if (svm_pointer) freeIn(context, svm_pointer);
} catch (...) { clref::cl::failedCall<cl_int>(__func__, nullptr); }

namespace clref::cl {
// The context's SVM allocations the application did not free go with it.
void freeSvmAllocations(cl_context context) {
  for (const auto& [p, a] : context->svm) clref::host::svm::free(const_cast<void*>(p));
  context->svm.clear();
  context->svmAtomicAllocations = 0;
}
}  // namespace clref::cl

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue command_queue, cl_uint num_svm_pointers, void* svm_pointers[],
    void(CL_CALLBACK* pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers, void* svm_pointers[],
                                     void* user_data),
    void* user_data, cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMFree:
  // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if svm_pointers is NULL and
  // num_svm_pointers is not 0.
  if (num_svm_pointers == 0 && svm_pointers)
    return apiError(__func__, CL_INVALID_VALUE, "num_svm_pointers is 0 and svm_pointers is not NULL");
  if (num_svm_pointers != 0 && !svm_pointers)
    return apiError(__func__, CL_INVALID_VALUE, "svm_pointers is NULL and num_svm_pointers is {}", num_svm_pointers);
  // The list may be reused once the call returns: the command keeps a copy, which the callback receives.
  auto pointers = std::make_shared<std::vector<void*>>(svm_pointers, svm_pointers + num_svm_pointers);
  cl_context context = command_queue->context;
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list, event, [=] {
        // The application's callback may call the API (the CTS's queries the queue): it runs once the API
        // lock is released, as event callbacks do.
        if (pfn_free_func) {
          deferCallback([=] { pfn_free_func(command_queue, cl_uint(pointers->size()), pointers->data(), user_data); });
        } else {
          for (void* p : *pointers)
            if (p) freeIn(context, p);
        }
        return CL_SUCCESS;
      });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void* dst_ptr,
                                                   const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMMemcpy:
  // CL_INVALID_VALUE if dst_ptr or src_ptr is NULL; CL_MEM_COPY_OVERLAP if the copy overlaps.
  if (!dst_ptr) return apiError(__func__, CL_INVALID_VALUE, "dst_ptr is NULL");
  if (!src_ptr) return apiError(__func__, CL_INVALID_VALUE, "src_ptr is NULL");
  const auto d = reinterpret_cast<uintptr_t>(dst_ptr), s = reinterpret_cast<uintptr_t>(src_ptr);
  if (d < s + size && s < d + size)
    return apiError(__func__, CL_MEM_COPY_OVERLAP, "dst_ptr {} and src_ptr {} are less than size {} bytes apart",
                    dst_ptr, src_ptr, size);
  if (cl_int e = checkSvmRange(__func__, command_queue, "dst_ptr", dst_ptr, size)) return e;
  if (cl_int e = checkSvmRange(__func__, command_queue, "src_ptr", src_ptr, size)) return e;
  return enqueue(
      __func__, lock, command_queue, CL_COMMAND_SVM_MEMCPY, num_events_in_wait_list, event_wait_list, event,
      [=] {
        if (size) std::memcpy(dst_ptr, src_ptr, size);
        return CL_SUCCESS;
      },
      blocking_copy);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                                                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMMemFill:
  // CL_INVALID_VALUE if svm_ptr or pattern is NULL, pattern_size is 0, not a power of two or greater than 128,
  // svm_ptr is not aligned to pattern_size bytes, or size is not a multiple of pattern_size.
  if (!svm_ptr) return apiError(__func__, CL_INVALID_VALUE, "svm_ptr is NULL");
  if (!pattern) return apiError(__func__, CL_INVALID_VALUE, "pattern is NULL");
  if (!validPatternSize(pattern_size))
    return apiError(__func__, CL_INVALID_VALUE, "pattern_size is {}, not one of 1, 2, 4, 8, 16, 32, 64, 128",
                    pattern_size);
  if (reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size)
    return apiError(__func__, CL_INVALID_VALUE, "svm_ptr {} is not aligned to pattern_size ({} bytes)", svm_ptr,
                    pattern_size);
  if (size % pattern_size)
    return apiError(__func__, CL_INVALID_VALUE, "size {} is not a multiple of pattern_size {}", size, pattern_size);
  // The fill writes SVM memory: the region must be in an SVM allocation (the device has no fine-grained system SVM,
  // where any host memory would do).
  if (!command_queue->context->svmAllocationHolding(svm_ptr, size))
    return apiError(__func__, CL_INVALID_VALUE,
                    "svm_ptr {} and size {} are not inside one SVM allocation of context {} (the device has no "
                    "fine-grained system SVM)",
                    svm_ptr, size, command_queue->context);
  std::vector<uint8_t> pat(static_cast<const uint8_t*>(pattern), static_cast<const uint8_t*>(pattern) + pattern_size);
  return enqueue(__func__, lock, command_queue, CL_COMMAND_SVM_MEMFILL, num_events_in_wait_list, event_wait_list, event,
                 [=] {
                   auto* out = static_cast<uint8_t*>(svm_ptr);
                   for (size_t i = 0; i < size; i += pat.size()) std::memcpy(out + i, pat.data(), pat.size());
                   return CL_SUCCESS;
                 });
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                                cl_map_flags map_flags, void* svm_ptr, size_t size,
                                                cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMMap:
  // CL_INVALID_VALUE if svm_ptr is NULL, size is 0, or values specified in map_flags are not valid.
  if (!svm_ptr) return apiError(__func__, CL_INVALID_VALUE, "svm_ptr is NULL");
  if (size == 0) return apiError(__func__, CL_INVALID_VALUE, "size is 0");
  if (const char* problem = mapFlagsProblem(map_flags))
    return apiError(__func__, CL_INVALID_VALUE, "map_flags {}: {}", hex(map_flags), problem);
  // The region is host memory already ("already mapped in the host address space"); the command is the
  // synchronisation point.
  return enqueue(__func__, lock, command_queue, CL_COMMAND_SVM_MAP, num_events_in_wait_list, event_wait_list, event,
                 nullptr, blocking_map);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMUnmap:
  // CL_INVALID_VALUE if svm_ptr is NULL.
  if (!svm_ptr) return apiError(__func__, CL_INVALID_VALUE, "svm_ptr is NULL");
  return enqueue(__func__, lock, command_queue, CL_COMMAND_SVM_UNMAP, num_events_in_wait_list, event_wait_list, event,
                 nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                                       const void** svm_pointers, const size_t* sizes,
                                                       cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                                       const cl_event* event_wait_list, cl_event* event) try {
  ApiLock lock;
  if (cl_int e = checkSvmCommand(__func__, command_queue, num_events_in_wait_list, event_wait_list)) return e;
  // OpenCL 3.0 API §5.6.1 [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clEnqueueSVMMigrateMem:
  // CL_INVALID_VALUE if num_svm_pointers is zero, svm_pointers is NULL, flags is not zero and not a valid combination
  // of the memory migration flags, or sizes[i] is non-zero and the range is not contained within an SVM allocation.
  if (num_svm_pointers == 0) return apiError(__func__, CL_INVALID_VALUE, "num_svm_pointers is 0");
  if (!svm_pointers) return apiError(__func__, CL_INVALID_VALUE, "svm_pointers is NULL");
  if (!validMigrationFlags(flags))
    return apiError(__func__, CL_INVALID_VALUE,
                    "flags {} is not 0 or a combination of CL_MIGRATE_MEM_OBJECT_HOST and "
                    "CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED",
                    hex(flags));
  for (cl_uint i = 0; i < num_svm_pointers; ++i) {
    const size_t n = sizes ? sizes[i] : 0;
    if (n != 0 && !command_queue->context->svmAllocationHolding(svm_pointers[i], n))
      return apiError(__func__, CL_INVALID_VALUE,
                      "svm_pointers[{}] {} and sizes[{}] {} are not contained within an SVM allocation of context {}",
                      i, svm_pointers[i], i, n, command_queue->context);
  }
  // One memory for host and device: migration moves nothing (CONTENT_UNDEFINED allows keeping the contents).
  return enqueue(__func__, lock, command_queue, CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list, event_wait_list,
                 event, nullptr);
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
