// Command buffers as the application records them (state.hpp): the compute pipeline, descriptor sets and push
// constants bound, and at each dispatch the layer's own commands around it — copies of every buffer range the bound
// descriptor sets give the pipeline into a staging buffer before it (its inputs) and of every storage buffer range
// after it (the device's outputs), with barriers that only add to the application's synchronisation: everything
// before a copy that writes memory happens before it, and everything after it waits for it.
#include <cstring>

#include "layer/vulkan/check_layer/state.hpp"

namespace clref::vklayer {

void resetRecording(DeviceState& d, CommandBufferState& cb) {
  for (auto& r : cb.own) {
    releaseStaging(d, r->before);
    releaseStaging(d, r->after);
  }
  cb.own.clear();
  cb.dispatches.clear();
  cb.pipeline = nullptr;
  cb.sets.clear();
  cb.pushConstants.clear();
}

namespace {

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* buffers) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.AllocateCommandBuffers(device, info, buffers);
  if (r == VK_SUCCESS)
    for (uint32_t i = 0; i < info->commandBufferCount; ++i) d.commandBuffers[buffers[i]].pool = info->commandPool;
  return r;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t count,
                                              const VkCommandBuffer* buffers) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  for (uint32_t i = 0; i < count; ++i)
    if (const auto it = d.commandBuffers.find(buffers[i]); it != d.commandBuffers.end()) {
      resetRecording(d, it->second);
      d.commandBuffers.erase(it);
    }
  d.FreeCommandBuffers(device, pool, count, buffers);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice device, VkCommandPool pool, VkCommandPoolResetFlags flags) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  for (auto& [handle, cb] : d.commandBuffers)
    if (cb.pool == pool) resetRecording(d, cb);
  return d.ResetCommandPool(device, pool, flags);
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool pool,
                                              const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  for (auto it = d.commandBuffers.begin(); it != d.commandBuffers.end();) {
    if (it->second.pool != pool) {
      ++it;
      continue;
    }
    resetRecording(d, it->second);
    it = d.commandBuffers.erase(it);
  }
  d.DestroyCommandPool(device, pool, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo* info) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  resetRecording(d, d.commandBuffers[commandBuffer]);  // Vulkan §6.4 [external]: begin resets it implicitly
  return d.BeginCommandBuffer(commandBuffer, info);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  resetRecording(d, d.commandBuffers[commandBuffer]);
  return d.ResetCommandBuffer(commandBuffer, flags);
}

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                           VkPipeline pipeline) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
    const auto it = d.pipelines.find(pipeline);
    d.commandBuffers[commandBuffer].pipeline = it == d.pipelines.end() ? nullptr : it->second;
  }
  d.CmdBindPipeline(commandBuffer, bindPoint, pipeline);
}

bool dynamic(VkDescriptorType t) {
  return t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t setCount,
                                                 const VkDescriptorSet* sets, uint32_t dynamicOffsetCount,
                                                 const uint32_t* dynamicOffsets) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
    CommandBufferState& cb = d.commandBuffers[commandBuffer];
    // Vulkan §14.2.8 [external] vkCmdBindDescriptorSets: the dynamic offsets go to the sets' dynamic descriptors in
    // order of set, then binding number, then array element.
    uint32_t next = 0;
    for (uint32_t i = 0; i < setCount; ++i) {
      std::vector<uint32_t> offsets;
      if (const auto it = d.descriptorSets.find(sets[i]); it != d.descriptorSets.end() && it->second.layout)
        for (const auto& [binding, b] : it->second.layout->bindings)
          if (dynamic(b.type))
            for (uint32_t k = 0; k < b.count; ++k) offsets.push_back(next < dynamicOffsetCount ? dynamicOffsets[next++] : 0);
      cb.sets[firstSet + i] = {sets[i], std::move(offsets)};
    }
  }
  d.CmdBindDescriptorSets(commandBuffer, bindPoint, layout, firstSet, setCount, sets, dynamicOffsetCount,
                          dynamicOffsets);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                                            VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                            const void* values) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  if (stages & VK_SHADER_STAGE_COMPUTE_BIT) {
    auto& bytes = d.commandBuffers[commandBuffer].pushConstants;
    if (bytes.size() < offset + size) bytes.resize(offset + size);
    std::memcpy(bytes.data() + offset, values, size);
  }
  d.CmdPushConstants(commandBuffer, layout, stages, offset, size, values);
}

// Everything before that writes memory happens before the layer's copies read; the copies' reads and writes happen
// before everything after them, the host's reads included.
void toTransfer(DeviceState& d, VkCommandBuffer cb) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                    VK_ACCESS_TRANSFER_READ_BIT};
  d.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0, nullptr, 0,
                       nullptr);
}
void fromTransfer(DeviceState& d, VkCommandBuffer cb) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_READ_BIT};
  d.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0,
                       nullptr);
}

const char* typeName(VkDescriptorType t) {
  switch (t) {
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "a sampler";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "a sampled image";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "a storage image";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "a texel buffer";
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: return "an inline uniform block";
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return "an acceleration structure";
    default: return "a descriptor the layer does not read";
  }
}

// The dispatch's record and the layer's commands around `dispatch` (the application's command, recorded unchanged).
template <class F>
void recordDispatch(VkCommandBuffer commandBuffer, const char* command, std::array<uint32_t, 3> groups,
                    VkBuffer indirect, VkDeviceSize indirectOffset, F dispatch) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  CommandBufferState& cb = d.commandBuffers[commandBuffer];
  if (!cb.pipeline) {  // no compute pipeline the layer saw made: nothing to rerun
    dispatch(d);
    return;
  }
  auto r = std::make_shared<DispatchRecord>();
  r->command = command;
  r->pipeline = cb.pipeline;
  r->groups = groups;
  r->pushConstants = cb.pushConstants;
  if (r->pipeline->spirv.empty()) r->notCheckable = "the layer did not see the pipeline's shader module created";
  struct Copy {
    VkBuffer buffer;
    VkDeviceSize offset;
    size_t snapshot;
  };
  std::vector<Copy> copies;
  VkDeviceSize total = 0;
  const auto& layout = r->pipeline->layout;
  for (uint32_t s = 0; layout && s < layout->sets.size(); ++s) {
    const auto bound = cb.sets.find(s);
    if (bound == cb.sets.end()) continue;
    const auto set = d.descriptorSets.find(bound->second.first);
    if (set == d.descriptorSets.end()) continue;
    size_t nextDynamic = 0;
    for (const auto& [binding, elements] : set->second.bindings) {
      const std::string where = "set " + std::to_string(s) + " binding " + std::to_string(binding);
      for (size_t k = 0; k < elements.size(); ++k) {
        const Descriptor& e = elements[k];
        const VkDeviceSize dyn =
            dynamic(e.type) && nextDynamic < bound->second.second.size() ? bound->second.second[nextDynamic++] : 0;
        if (elements.size() > 1) {
          if (k == 0) r->unreadable.push_back(where + " is a descriptor array");
          continue;
        }
        const bool storage = e.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                             e.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
        if (!storage && e.type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER &&
            e.type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC) {
          r->unreadable.push_back(where + " is " + typeName(e.type));
          continue;
        }
        const auto buffer = d.buffers.find(e.buffer);
        if (!e.written || buffer == d.buffers.end()) {
          r->unreadable.push_back(where + " holds no buffer the layer saw written (a descriptor update template, "
                                          "a push descriptor?)");
          continue;
        }
        if (!buffer->second.transferSource) {
          r->unreadable.push_back(where + "'s buffer cannot be copied (no VK_BUFFER_USAGE_TRANSFER_SRC_BIT)");
          continue;
        }
        const VkDeviceSize offset = std::min(e.offset + dyn, buffer->second.size);
        const VkDeviceSize size =
            std::min(e.range == VK_WHOLE_SIZE ? buffer->second.size - offset : e.range, buffer->second.size - offset);
        copies.push_back({e.buffer, offset, r->snapshots.size()});
        r->snapshots.push_back({s, binding, storage, size, total});
        total += (size + 15) / 16 * 16;
      }
    }
  }
  // clref gives every binding a buffer of its own: bindings that overlap in one buffer, one of them written, would be
  // judged as if they did not see each other's writes.
  for (size_t i = 0; i < copies.size() && r->notCheckable.empty(); ++i)
    for (size_t k = i + 1; k < copies.size(); ++k) {
      const auto &a = r->snapshots[copies[i].snapshot], &b = r->snapshots[copies[k].snapshot];
      if (copies[i].buffer == copies[k].buffer && (a.storage || b.storage) &&
          copies[i].offset < copies[k].offset + b.size && copies[k].offset < copies[i].offset + a.size) {
        r->notCheckable = "set " + std::to_string(a.set) + " binding " + std::to_string(a.binding) + " and set " +
                          std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                          " overlap in one buffer (clref gives each binding its own)";
        break;
      }
    }
  if (indirect) {
    r->indirect = true;
    r->indirectAt = total;
    const auto buffer = d.buffers.find(indirect);
    if (buffer == d.buffers.end() || !buffer->second.transferSource)
      r->notCheckable = "the indirect buffer cannot be copied (no VK_BUFFER_USAGE_TRANSFER_SRC_BIT)";
    total += sizeof(VkDispatchIndirectCommand);
  }
  if (r->notCheckable.empty() && total > 0) {
    r->before = makeStaging(d, total);
    r->after = makeStaging(d, total);
    if (!r->before.mapped || !r->after.mapped) {
      releaseStaging(d, r->before);
      releaseStaging(d, r->after);
      r->notCheckable = "the layer found no host-visible memory for its copies";
    }
  }
  const bool copying = r->notCheckable.empty() && total > 0;
  auto copy = [&](const Staging& to, bool outputs) {
    for (const Copy& c : copies) {
      const DispatchRecord::Snapshot& s = r->snapshots[c.snapshot];
      if ((outputs && !s.storage) || s.size == 0) continue;
      const VkBufferCopy region{c.offset, s.at, s.size};
      d.CmdCopyBuffer(commandBuffer, c.buffer, to.buffer, 1, &region);
    }
  };
  if (copying) {
    toTransfer(d, commandBuffer);
    copy(r->before, false);
    if (indirect) {
      const VkBufferCopy region{indirectOffset, r->indirectAt, sizeof(VkDispatchIndirectCommand)};
      d.CmdCopyBuffer(commandBuffer, indirect, r->before.buffer, 1, &region);
    }
    fromTransfer(d, commandBuffer);
  }
  dispatch(d);
  if (copying) {
    toTransfer(d, commandBuffer);
    copy(r->after, true);
    fromTransfer(d, commandBuffer);
  }
  cb.dispatches.push_back(r);
  cb.own.push_back(std::move(r));
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z) {
  recordDispatch(commandBuffer, "vkCmdDispatch", {x, y, z}, VK_NULL_HANDLE, 0,
                 [&](DeviceState& d) { d.CmdDispatch(commandBuffer, x, y, z); });
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX, uint32_t baseY,
                                           uint32_t baseZ, uint32_t x, uint32_t y, uint32_t z) {
  recordDispatch(commandBuffer, "vkCmdDispatchBase", {x, y, z}, VK_NULL_HANDLE, 0,
                 [&](DeviceState& d) { d.CmdDispatchBase(commandBuffer, baseX, baseY, baseZ, x, y, z); });
  if (baseX || baseY || baseZ) {
    std::lock_guard lock(state().mutex);
    auto& dispatches = deviceOf(commandBuffer).commandBuffers[commandBuffer].dispatches;
    if (!dispatches.empty() && dispatches.back()->notCheckable.empty())
      dispatches.back()->notCheckable = "a nonzero base work-group (clref dispatches from work-group 0)";
  }
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  recordDispatch(commandBuffer, "vkCmdDispatchIndirect", {0, 0, 0}, buffer, offset,
                 [&](DeviceState& d) { d.CmdDispatchIndirect(commandBuffer, buffer, offset); });
}

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t count,
                                              const VkCommandBuffer* secondaries) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(commandBuffer);
  auto& dispatches = d.commandBuffers[commandBuffer].dispatches;
  for (uint32_t i = 0; i < count; ++i)
    if (const auto it = d.commandBuffers.find(secondaries[i]); it != d.commandBuffers.end())
      dispatches.insert(dispatches.end(), it->second.dispatches.begin(), it->second.dispatches.end());
  d.CmdExecuteCommands(commandBuffer, count, secondaries);
}

}  // namespace

PFN_vkVoidFunction recordingFunction(const char* name) {
#define CLREF_VK_OWN(f) \
  if (!std::strcmp(name, "vk" #f)) return reinterpret_cast<PFN_vkVoidFunction>(f);
  CLREF_VK_OWN(AllocateCommandBuffers)
  CLREF_VK_OWN(FreeCommandBuffers)
  CLREF_VK_OWN(ResetCommandPool)
  CLREF_VK_OWN(DestroyCommandPool)
  CLREF_VK_OWN(BeginCommandBuffer)
  CLREF_VK_OWN(ResetCommandBuffer)
  CLREF_VK_OWN(CmdBindPipeline)
  CLREF_VK_OWN(CmdBindDescriptorSets)
  CLREF_VK_OWN(CmdPushConstants)
  CLREF_VK_OWN(CmdDispatch)
  CLREF_VK_OWN(CmdDispatchBase)
  CLREF_VK_OWN(CmdDispatchIndirect)
  CLREF_VK_OWN(CmdExecuteCommands)
#undef CLREF_VK_OWN
  if (!std::strcmp(name, "vkCmdDispatchBaseKHR")) return reinterpret_cast<PFN_vkVoidFunction>(CmdDispatchBase);
  return nullptr;
}

}  // namespace clref::vklayer
