// What the layer remembers of the application's objects (state.hpp): buffers (their size; the layer adds
// VK_BUFFER_USAGE_TRANSFER_SRC_BIT so that it can copy them), shader modules' SPIR-V, descriptor set and pipeline
// layouts, compute pipelines (module, entry point, specialization constants) and descriptor sets as written. And the
// layer's own staging buffers.
#include <cstring>

#include "layer/vulkan/check_layer/state.hpp"

namespace clref::vklayer {

Staging makeStaging(DeviceState& d, VkDeviceSize size) {
  Staging s;
  if (size == 0) return s;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (d.CreateBuffer(d.device, &info, nullptr, &s.buffer) != VK_SUCCESS) return {};
  VkMemoryRequirements needs{};
  d.GetBufferMemoryRequirements(d.device, s.buffer, &needs);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < d.memory.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((needs.memoryTypeBits >> i & 1) && (d.memory.memoryTypes[i].propertyFlags & wanted) == wanted) type = i;
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = type;
  void* mapped = nullptr;
  if (type == UINT32_MAX || d.AllocateMemory(d.device, &alloc, nullptr, &s.memory) != VK_SUCCESS ||
      d.BindBufferMemory(d.device, s.buffer, s.memory, 0) != VK_SUCCESS ||
      d.MapMemory(d.device, s.memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) {
    releaseStaging(d, s);
    return {};
  }
  s.mapped = static_cast<uint8_t*>(mapped);
  s.size = size;
  return s;
}

void releaseStaging(DeviceState& d, Staging& s) {
  if (s.buffer) d.DestroyBuffer(d.device, s.buffer, nullptr);
  if (s.memory) d.FreeMemory(d.device, s.memory, nullptr);  // unmaps it
  s = {};
}

namespace {

template <class T> const T* findIn(const void* pNext, VkStructureType type) {
  for (auto* p = static_cast<const VkBaseInStructure*>(pNext); p; p = p->pNext)
    if (p->sType == type) return reinterpret_cast<const T*>(p);
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkBuffer* buffer) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  // A buffer the layer may copy: a sparse one is left as it is (its memory may be partly unbound).
  VkBufferCreateInfo copy = *info;
  const bool sparse = info->flags & VK_BUFFER_CREATE_SPARSE_BINDING_BIT;
  if (!sparse) copy.usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkResult r = d.CreateBuffer(device, &copy, allocator, buffer);
  bool copyable = !sparse || (info->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  if (r != VK_SUCCESS && !sparse && !(info->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT)) {
    r = d.CreateBuffer(device, info, allocator, buffer);  // as the application asked, then
    copyable = false;
  }
  if (r == VK_SUCCESS) d.buffers[*buffer] = {info->size, copyable};
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  d.buffers.erase(buffer);
  d.DestroyBuffer(device, buffer, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator, VkShaderModule* module) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.CreateShaderModule(device, info, allocator, module);
  if (r == VK_SUCCESS)
    d.shaderModules[*module] =
        std::make_shared<const std::vector<uint32_t>>(info->pCode, info->pCode + info->codeSize / 4);
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule module,
                                               const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  d.shaderModules.erase(module);
  d.DestroyShaderModule(device, module, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* info,
                                                         const VkAllocationCallbacks* allocator,
                                                         VkDescriptorSetLayout* layout) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.CreateDescriptorSetLayout(device, info, allocator, layout);
  if (r != VK_SUCCESS) return r;
  auto s = std::make_shared<DescriptorSetLayoutState>();
  for (uint32_t i = 0; i < info->bindingCount; ++i)
    s->bindings[info->pBindings[i].binding] = {info->pBindings[i].descriptorType, info->pBindings[i].descriptorCount};
  d.setLayouts[*layout] = std::move(s);
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                      const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  d.setLayouts.erase(layout);
  d.DestroyDescriptorSetLayout(device, layout, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* info,
                                                    const VkAllocationCallbacks* allocator, VkPipelineLayout* layout) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.CreatePipelineLayout(device, info, allocator, layout);
  if (r != VK_SUCCESS) return r;
  auto s = std::make_shared<PipelineLayoutState>();
  for (uint32_t i = 0; i < info->setLayoutCount; ++i) {
    const auto it = d.setLayouts.find(info->pSetLayouts[i]);
    s->sets.push_back(it == d.setLayouts.end() ? nullptr : it->second);
  }
  d.pipelineLayouts[*layout] = std::move(s);
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
                                                 const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  d.pipelineLayouts.erase(layout);
  d.DestroyPipelineLayout(device, layout, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.CreateComputePipelines(device, cache, count, infos, allocator, pipelines);
  for (uint32_t i = 0; i < count; ++i) {
    if (!pipelines[i]) continue;
    const VkPipelineShaderStageCreateInfo& stage = infos[i].stage;
    auto p = std::make_shared<PipelineState>();
    if (const auto it = d.shaderModules.find(stage.module); it != d.shaderModules.end()) {
      p->spirv = *it->second;
    } else if (const auto* inline_ = findIn<VkShaderModuleCreateInfo>(stage.pNext,
                                                                      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)) {
      p->spirv.assign(inline_->pCode, inline_->pCode + inline_->codeSize / 4);  // VK_KHR_maintenance5
    }
    p->entryPoint = stage.pName ? stage.pName : "main";
    if (const VkSpecializationInfo* s = stage.pSpecializationInfo)
      for (uint32_t e = 0; e < s->mapEntryCount; ++e) {
        const VkSpecializationMapEntry& m = s->pMapEntries[e];
        const auto* from = static_cast<const uint8_t*>(s->pData) + m.offset;
        p->specConstants.emplace_back(m.constantID, std::vector<uint8_t>(from, from + m.size));
      }
    if (const auto* required = findIn<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
            stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO))
      p->requiredSubgroupSize = required->requiredSubgroupSize;
    if (const auto it = d.pipelineLayouts.find(infos[i].layout); it != d.pipelineLayouts.end()) p->layout = it->second;
    d.pipelines[pipelines[i]] = std::move(p);
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  d.pipelines.erase(pipeline);
  d.DestroyPipeline(device, pipeline, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice device, const VkDescriptorSetAllocateInfo* info,
                                                      VkDescriptorSet* sets) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  const VkResult r = d.AllocateDescriptorSets(device, info, sets);
  if (r != VK_SUCCESS) return r;
  for (uint32_t i = 0; i < info->descriptorSetCount; ++i) {
    DescriptorSetState s;
    s.pool = info->descriptorPool;
    if (const auto it = d.setLayouts.find(info->pSetLayouts[i]); it != d.setLayouts.end()) {
      s.layout = it->second;
      for (const auto& [binding, b] : s.layout->bindings)
        s.bindings[binding].assign(b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 1 : b.count, Descriptor{b.type});
    }
    d.descriptorSets[sets[i]] = std::move(s);
  }
  return r;
}

void forgetSetsOf(DeviceState& d, VkDescriptorPool pool) {
  for (auto it = d.descriptorSets.begin(); it != d.descriptorSets.end();)
    it = it->second.pool == pool ? d.descriptorSets.erase(it) : std::next(it);
}

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice device, VkDescriptorPool pool, uint32_t count,
                                                  const VkDescriptorSet* sets) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  for (uint32_t i = 0; i < count; ++i) d.descriptorSets.erase(sets[i]);
  return d.FreeDescriptorSets(device, pool, count, sets);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                   VkDescriptorPoolResetFlags flags) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  forgetSetsOf(d, pool);
  return d.ResetDescriptorPool(device, pool, flags);
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                 const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  forgetSetsOf(d, pool);
  d.DestroyDescriptorPool(device, pool, allocator);
}

// The descriptors an update of `count` elements from (binding, element) reaches: Vulkan §14.2.4 [external]
// "consecutive binding updates" go on into the next binding when one binding has fewer elements left.
template <class F> void forEachElement(DescriptorSetState& s, uint32_t binding, uint32_t element, uint32_t count, F f) {
  auto it = s.bindings.find(binding);
  while (count > 0 && it != s.bindings.end()) {
    if (element >= it->second.size()) {
      element -= uint32_t(it->second.size());
      ++it;
      continue;
    }
    f(it->second[element]);
    ++element;
    --count;
  }
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t writeCount,
                                                const VkWriteDescriptorSet* writes, uint32_t copyCount,
                                                const VkCopyDescriptorSet* copies) {
  std::lock_guard lock(state().mutex);
  DeviceState& d = deviceOf(device);
  for (uint32_t i = 0; i < writeCount; ++i) {
    const VkWriteDescriptorSet& w = writes[i];
    const auto set = d.descriptorSets.find(w.dstSet);
    if (set == d.descriptorSets.end()) continue;
    const bool inlineBlock = w.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    uint32_t n = 0;
    forEachElement(set->second, w.dstBinding, inlineBlock ? 0 : w.dstArrayElement, inlineBlock ? 1 : w.descriptorCount,
                   [&](Descriptor& e) {
                     e = Descriptor{w.descriptorType};
                     e.written = true;
                     if (w.pBufferInfo && !inlineBlock &&
                         (w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                          w.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                          w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
                          w.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)) {
                       e.buffer = w.pBufferInfo[n].buffer;
                       e.offset = w.pBufferInfo[n].offset;
                       e.range = w.pBufferInfo[n].range;
                     }
                     ++n;
                   });
  }
  for (uint32_t i = 0; i < copyCount; ++i) {
    const VkCopyDescriptorSet& c = copies[i];
    const auto from = d.descriptorSets.find(c.srcSet);
    const auto to = d.descriptorSets.find(c.dstSet);
    if (from == d.descriptorSets.end() || to == d.descriptorSets.end()) continue;
    std::vector<Descriptor> read;
    forEachElement(from->second, c.srcBinding, c.srcArrayElement, c.descriptorCount,
                   [&](Descriptor& e) { read.push_back(e); });
    size_t n = 0;
    forEachElement(to->second, c.dstBinding, c.dstArrayElement, c.descriptorCount, [&](Descriptor& e) {
      if (n < read.size()) e = read[n++];
    });
  }
  d.UpdateDescriptorSets(device, writeCount, writes, copyCount, copies);
}

}  // namespace

PFN_vkVoidFunction objectFunction(const char* name) {
#define CLREF_VK_OWN(f) \
  if (!std::strcmp(name, "vk" #f)) return reinterpret_cast<PFN_vkVoidFunction>(f);
  CLREF_VK_OWN(CreateBuffer)
  CLREF_VK_OWN(DestroyBuffer)
  CLREF_VK_OWN(CreateShaderModule)
  CLREF_VK_OWN(DestroyShaderModule)
  CLREF_VK_OWN(CreateDescriptorSetLayout)
  CLREF_VK_OWN(DestroyDescriptorSetLayout)
  CLREF_VK_OWN(CreatePipelineLayout)
  CLREF_VK_OWN(DestroyPipelineLayout)
  CLREF_VK_OWN(CreateComputePipelines)
  CLREF_VK_OWN(DestroyPipeline)
  CLREF_VK_OWN(AllocateDescriptorSets)
  CLREF_VK_OWN(FreeDescriptorSets)
  CLREF_VK_OWN(ResetDescriptorPool)
  CLREF_VK_OWN(DestroyDescriptorPool)
  CLREF_VK_OWN(UpdateDescriptorSets)
#undef CLREF_VK_OWN
  return nullptr;
}

}  // namespace clref::vklayer
