// The check of the kernel commands of command buffers (cl_khr_command_buffer; command_buffer_check.cpp). A kernel
// command is prepared when it is recorded, with the kernel's arguments of that moment (OpenCL 3.0 API §5.17.5
// [[_recording_commands_to_a_command_buffer]] clCommandNDRangeKernelKHR: arguments are captured at record time), and
// judged after each run of its command buffer from the layer's copies of its buffer arguments before and after it,
// which the layer records into the command buffer around it. The preparing and judging are enqueue_check.cpp's.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layer/layer.hpp"

namespace clref::layer {

// A kernel command as the layer prepared it: its id (0 when it cannot be checked, for `reason`), the kernel's name,
// and the distinct memory objects of its buffer arguments with their sizes, which the layer copies around it.
struct RecordedKernel {
  uint64_t id = 0;
  std::string name;
  std::string reason;
  std::vector<std::pair<cl_mem, size_t>> buffers;
};
// Prepares a kernel command recorded into a command buffer of `queue`. Nothing when the settings leave it out
// (CLREF_CHECK_KERNELS; CLREF_CHECK_EVERY counts each recorded command as one enqueue of its kernel).
std::optional<RecordedKernel> recordKernelCommand(cl_command_queue queue, cl_kernel k, cl_uint dims,
                                                  const size_t* offset, const size_t* global, const size_t* local);

// The layer's copies of a buffer argument, before and after the kernel command.
struct BufferCopies {
  cl_mem before = nullptr;
  cl_mem after = nullptr;
};
// Judges a prepared kernel command and reports it as an enqueue is reported, once the run of its command buffer,
// `done`, has completed: clref runs the kernel from the `before` copies, and the `after` copies are what the device
// wrote (`copies`: the recorded memory object → its copies). The copies are read on `queue`.
void judgeKernelCommand(uint64_t id, cl_command_queue queue, const std::map<cl_mem, BufferCopies>& copies,
                        cl_event done);
// Forgets a prepared kernel command: its command buffer was released, or recording it failed.
void forgetKernelCommand(uint64_t id);

}  // namespace clref::layer
