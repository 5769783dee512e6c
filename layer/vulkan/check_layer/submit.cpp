// The check at submission (state.hpp): vkQueueSubmit and vkQueueSubmit2 go on to the device unchanged; then the layer
// waits for the queue (the application sees the same results, later) and reruns every dispatch of the submitted
// command buffers on clref from the inputs its copies hold, judging the storage buffers the device wrote
// (check/shader_check.hpp), and reports each as the OpenCL check layer does (layer/report.hpp).
#include <cstring>
#include <exception>

#include "check/shader_check.hpp"
#include "layer/report.hpp"
#include "layer/settings.hpp"
#include "layer/vulkan/check_layer/state.hpp"

namespace clref::vklayer {
namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

void checkDispatch(const DispatchRecord& r, uint32_t deviceSubgroupSize) {
  PipelineState& p = *r.pipeline;
  const layer::Settings& settings = layer::settings();
  if (!settings.kernels.empty() && !settings.kernels.count(p.entryPoint)) return;
  if (p.dispatches++ % settings.every != 0) return;
  if (!r.notCheckable.empty()) return layer::reportNotChecked(p.entryPoint, r.command + ": " + r.notCheckable);
  const bool copied = r.before.mapped != nullptr;
  if (!copied && (!r.snapshots.empty() || r.indirect))
    return layer::reportNotChecked(p.entryPoint, r.command + ": the command buffer was reset before it was submitted");

  host::ShaderDispatch d;
  d.spirv = p.spirv;
  d.entryPoint = p.entryPoint;
  d.specConstants = p.specConstants;
  d.pushConstants = r.pushConstants;
  d.subgroupSize = p.requiredSubgroupSize ? p.requiredSubgroupSize : deviceSubgroupSize ? deviceSubgroupSize : 32;
  d.raceChecks = settings.races;
  for (const auto& s : r.snapshots)
    d.inputs.push_back({s.set, s.binding, std::vector<uint8_t>(r.before.mapped + s.at, r.before.mapped + s.at + s.size)});
  std::array<uint32_t, 3> groups = r.groups;
  if (r.indirect) {
    VkDispatchIndirectCommand c{};
    std::memcpy(&c, r.before.mapped + r.indirectAt, sizeof c);
    groups = {c.x, c.y, c.z};
  }
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return;  // Vulkan §30.1 [external]: no work-group runs

  layer::ShaderDispatch report;
  report.entryPoint = p.entryPoint;
  report.command = r.command;
  report.groups = groups;
  try {
    const host::ShaderKernel shader = host::shaderKernel(d);
    host::Kernel& kernel = *shader.kernel;
    std::vector<std::vector<uint8_t>> outputs;
    outputs.reserve(r.snapshots.size());
    std::vector<host::DeviceOutput> judged;
    for (const auto& s : r.snapshots) {
      if (!s.storage) continue;
      const auto arg = kernel.resourceArg(s.set, s.binding);
      if (!arg) continue;  // bound, not used by the shader
      outputs.emplace_back(r.after.mapped + s.at, r.after.mapped + s.at + s.size);
      judged.push_back(host::shaderOutput(shader, *arg, &outputs.back()));
      report.bindingOf[*arg] = {s.set, s.binding};
    }
    host::CheckOptions options;
    options.sampleGroups = settings.groups;
    options.strict = settings.strict;
    report.report = host::checkShaderDispatch(kernel, groups, judged, settings.plantErrors, options);
  } catch (const std::exception& e) {
    const std::string more = joined(r.unreadable);
    return layer::reportNotChecked(p.entryPoint,
                                   r.command + ": clref cannot run it: " + e.what() + (more.empty() ? "" : " (" + more + ")"));
  }
  layer::reportChecked(report);
}

// The dispatches the command buffers run, and the device they belong to, under the lock.
std::vector<std::shared_ptr<DispatchRecord>> dispatchesOf(DeviceState& d, const std::vector<VkCommandBuffer>& cbs) {
  std::vector<std::shared_ptr<DispatchRecord>> out;
  for (VkCommandBuffer cb : cbs)
    if (const auto it = d.commandBuffers.find(cb); it != d.commandBuffers.end())
      out.insert(out.end(), it->second.dispatches.begin(), it->second.dispatches.end());
  return out;
}

// After a successful submission: wait for the queue, then check what it ran.
template <class Submit> VkResult submitAndCheck(VkQueue queue, const std::vector<VkCommandBuffer>& cbs, Submit submit) {
  std::shared_ptr<DeviceState> device;
  std::vector<std::shared_ptr<DispatchRecord>> dispatches;
  {
    std::lock_guard lock(state().mutex);
    device = state().devices.at(keyOf(queue));
    dispatches = dispatchesOf(*device, cbs);
  }
  const VkResult r = submit(*device);
  if (r != VK_SUCCESS || dispatches.empty()) return r;
  // The application's fences and semaphores are signalled as they would be; the layer only waits for them first.
  const VkResult waited = device->QueueWaitIdle(queue);
  if (waited != VK_SUCCESS) return waited;
  std::lock_guard lock(state().mutex);
  for (const auto& d : dispatches) checkDispatch(*d, device->subgroupSize);
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t i = 0; i < count; ++i)
    cbs.insert(cbs.end(), submits[i].pCommandBuffers, submits[i].pCommandBuffers + submits[i].commandBufferCount);
  return submitAndCheck(queue, cbs, [&](DeviceState& d) { return d.QueueSubmit(queue, count, submits, fence); });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t k = 0; k < submits[i].commandBufferInfoCount; ++k)
      cbs.push_back(submits[i].pCommandBufferInfos[k].commandBuffer);
  return submitAndCheck(queue, cbs, [&](DeviceState& d) { return d.QueueSubmit2(queue, count, submits, fence); });
}

}  // namespace

PFN_vkVoidFunction submitFunction(const char* name) {
  if (!std::strcmp(name, "vkQueueSubmit")) return reinterpret_cast<PFN_vkVoidFunction>(QueueSubmit);
  if (!std::strcmp(name, "vkQueueSubmit2") || !std::strcmp(name, "vkQueueSubmit2KHR"))
    return reinterpret_cast<PFN_vkVoidFunction>(QueueSubmit2);
  return nullptr;
}

}  // namespace clref::vklayer
