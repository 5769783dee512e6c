// cl_khr_command_buffer 0.9.8 as cl.xml declares it. Debian's CL/cl_ext.h has an older revision (no
// cl_command_properties_khr parameter, no CL_COMMAND_BUFFER_CONTEXT_KHR), so the names missing there are declared here
// from cl.xml's values, and the entry points' types under names of their own (the old prototypes keep theirs).
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>

typedef cl_properties cl_command_properties_khr;

#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif

namespace clref::cl::khr {

inline constexpr cl_version kCommandBufferVersion = CL_MAKE_VERSION(0, 9, 8);

using CreateCommandBuffer = cl_command_buffer_khr(CL_API_CALL*)(cl_uint, const cl_command_queue*,
                                                                const cl_command_buffer_properties_khr*, cl_int*);
using CommandBufferCall = cl_int(CL_API_CALL*)(cl_command_buffer_khr);
using EnqueueCommandBuffer = cl_int(CL_API_CALL*)(cl_uint, cl_command_queue*, cl_command_buffer_khr, cl_uint,
                                                  const cl_event*, cl_event*);
using CommandBarrierWithWaitList = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                                        const cl_command_properties_khr*, cl_uint,
                                                        const cl_sync_point_khr*, cl_sync_point_khr*,
                                                        cl_mutable_command_khr*);
using CommandCopyBuffer = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                               const cl_command_properties_khr*, cl_mem, cl_mem, size_t, size_t, size_t,
                                               cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                               cl_mutable_command_khr*);
using CommandCopyBufferRect = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                                   const cl_command_properties_khr*, cl_mem, cl_mem, const size_t*,
                                                   const size_t*, const size_t*, size_t, size_t, size_t, size_t,
                                                   cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                                   cl_mutable_command_khr*);
using CommandCopyBufferToImage = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                                      const cl_command_properties_khr*, cl_mem, cl_mem, size_t,
                                                      const size_t*, const size_t*, cl_uint, const cl_sync_point_khr*,
                                                      cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandCopyImage = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*,
                                              cl_mem, cl_mem, const size_t*, const size_t*, const size_t*, cl_uint,
                                              const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandCopyImageToBuffer = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                                      const cl_command_properties_khr*, cl_mem, cl_mem, const size_t*,
                                                      const size_t*, size_t, cl_uint, const cl_sync_point_khr*,
                                                      cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandFillBuffer = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                               const cl_command_properties_khr*, cl_mem, const void*, size_t, size_t,
                                               size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                               cl_mutable_command_khr*);
using CommandFillImage = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*,
                                              cl_mem, const void*, const size_t*, const size_t*, cl_uint,
                                              const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandNDRangeKernel = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                                  const cl_command_properties_khr*, cl_kernel, cl_uint, const size_t*,
                                                  const size_t*, const size_t*, cl_uint, const cl_sync_point_khr*,
                                                  cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandSVMMemcpy = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*,
                                              void*, const void*, size_t, cl_uint, const cl_sync_point_khr*,
                                              cl_sync_point_khr*, cl_mutable_command_khr*);
using CommandSVMMemFill = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue,
                                               const cl_command_properties_khr*, void*, const void*, size_t, size_t,
                                               cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                               cl_mutable_command_khr*);
using GetCommandBufferInfo = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t, void*,
                                                  size_t*);

}  // namespace clref::cl::khr
