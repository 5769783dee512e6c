// The limits a launch's arguments must keep (checkLaunchLimits, executor.hpp), each written once and checked once: the
// executor enforces them, and the host API reports its LaunchLimitError as its own error (host::Kernel::run).
#include "interpreter/executor.hpp"

#include <algorithm>
#include <string>

namespace clref::interpreter {

LocalMemoryLayout checkLaunchLimits(const LoweredKernel& kernel, const std::vector<ArgBinding>& args,
                                    uint64_t localMemSize) {
  const size_t n = std::min(kernel.params.size(), args.size());
  // A pointer's allocation tag leaves tagShift bits of offset (program.hpp): a buffer is addressed within them.
  const uint64_t addressable = uint64_t(1) << kernel.tagShift;
  for (size_t i = 0; i < n; ++i) {
    const ArgBinding& a = args[i];
    if (kernel.params[i].kind != ParamKind::Buffer || a.null || a.svmPointer || a.size < addressable) continue;
    throw LaunchLimitError("argument " + std::to_string(i) + " of " + kernel.name + ": a buffer of " +
                           std::to_string(a.size) + " bytes is larger than the device can address (" +
                           std::to_string(addressable - 1) + " bytes)");
  }
  // A work-group's local memory: its static __local variables and its local arguments within localMemSize (the
  // OpenCL API's CL_OUT_OF_RESOURCES for clEnqueueNDRangeKernel). The sum saturates: it only has to exceed the bound.
  uint64_t localBytes = kernel.workgroupArenaBytes;
  for (size_t i = 0; i < n; ++i)
    if (kernel.params[i].kind == ParamKind::Local && __builtin_add_overflow(localBytes, args[i].size, &localBytes))
      localBytes = UINT64_MAX;
  if (localBytes > localMemSize) {
    std::string sizes = std::to_string(kernel.workgroupArenaBytes) + " bytes of __local variables";
    for (size_t i = 0; i < n; ++i)
      if (kernel.params[i].kind == ParamKind::Local)
        sizes += ", argument " + std::to_string(i) + " " + std::to_string(args[i].size) + " bytes";
    throw LaunchLimitError("kernel " + kernel.name + " needs more local memory than the device's " +
                           std::to_string(localMemSize) + " bytes (" + sizes + ")");
  }
  // The work-group arena: static Workgroup variables, then each local argument at its alignment (at least 16).
  LocalMemoryLayout layout;
  layout.bytes = kernel.workgroupArenaBytes;
  layout.argOffset.assign(kernel.params.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    const auto& p = kernel.params[i];
    if (p.kind != ParamKind::Local) continue;
    const uint64_t al = std::max<uint32_t>(p.pointeeAlign, 16);
    layout.bytes = (layout.bytes + al - 1) / al * al;
    layout.argOffset[i] = layout.bytes;
    // The arena (and its 16 bytes of slack) must not wrap: a wrapped size would give a small
    // arena to an allocation that believes itself large.
    if (__builtin_add_overflow(layout.bytes, args[i].size, &layout.bytes) || layout.bytes > (uint64_t(1) << 63))
      throw LaunchLimitError("local memory for argument " + std::to_string(i) + " (" + std::to_string(args[i].size) +
                             " bytes) takes the work-group's local memory past " + std::to_string(uint64_t(1) << 63) +
                             " bytes");
  }
  return layout;
}

}  // namespace clref::interpreter
