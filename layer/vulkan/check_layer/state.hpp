// The Vulkan check layer VK_LAYER_CLREF_check (libVkLayer_clref_check.so): a Vulkan loader layer (the loader's layer
// interface, <vulkan/vk_layer.h>) that the loader puts in front of the application's device (VK_INSTANCE_LAYERS). Every
// call goes on to the next layer or the driver; the layer remembers shader modules, layouts, compute pipelines and
// descriptor sets, and around every dispatch it records copies of the storage and uniform buffers the dispatch binds
// into buffers of its own (before: the inputs; after: the device's outputs). After each vkQueueSubmit it waits for the
// queue, reruns every dispatch on clref from the inputs, and judges the outputs (check/shader_check.hpp). Internal to
// the layer; everything here is behind State::mutex.
#pragma once
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace clref::vklayer {

// The dispatchable handle's loader dispatch table pointer: the same for an instance's physical devices, and for a
// device's queues and command buffers (the loader's layer interface keys per-object data by it).
template <class H> void* keyOf(H handle) { return *reinterpret_cast<void**>(handle); }

struct InstanceState {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next = nullptr;
  PFN_vkDestroyInstance destroyInstance = nullptr;
  PFN_vkEnumeratePhysicalDevices enumeratePhysicalDevices = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties memoryProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 properties2 = nullptr;  // Vulkan 1.1 or VK_KHR_get_physical_device_properties2
};

struct BufferState {
  VkDeviceSize size = 0;
  bool transferSource = false;  // usable as a copy's source (the layer adds the usage where it can)
};

struct DescriptorSetLayoutState {
  struct Binding {
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    uint32_t count = 1;
  };
  std::map<uint32_t, Binding> bindings;  // by binding number (dynamic offsets follow this order)
};

struct PipelineLayoutState {
  std::vector<std::shared_ptr<const DescriptorSetLayoutState>> sets;
};

// A descriptor as written: the buffer range, or what kind of resource it is when it is not a buffer.
struct Descriptor {
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0, range = 0;
  bool written = false;
};

struct DescriptorSetState {
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::shared_ptr<const DescriptorSetLayoutState> layout;
  std::map<uint32_t, std::vector<Descriptor>> bindings;  // binding → its array elements
};

struct PipelineState {
  std::vector<uint32_t> spirv;
  std::string entryPoint;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstants;
  std::shared_ptr<const PipelineLayoutState> layout;
  uint32_t requiredSubgroupSize = 0;  // 0: none required
  uint64_t dispatches = 0;            // checked so far, for CLREF_CHECK_EVERY
};

// A host-visible, coherent buffer of the layer's own, mapped.
struct Staging {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint8_t* mapped = nullptr;
  VkDeviceSize size = 0;
};

// One dispatch as recorded: what clref needs to rerun it, and where the layer's copies of its buffers land.
struct DispatchRecord {
  std::string command;  // vkCmdDispatch, vkCmdDispatchBase, vkCmdDispatchIndirect
  std::shared_ptr<PipelineState> pipeline;
  std::array<uint32_t, 3> groups{1, 1, 1};
  bool indirect = false;  // groups are read from before.mapped at indirectAt
  VkDeviceSize indirectAt = 0;
  std::vector<uint8_t> pushConstants;
  struct Snapshot {
    uint32_t set = 0, binding = 0;
    bool storage = true;
    VkDeviceSize size = 0, at = 0;  // bytes, and where they are in before and after
  };
  std::vector<Snapshot> snapshots;
  std::vector<std::string> unreadable;  // bindings not copied, with why
  std::string notCheckable;             // the dispatch cannot be checked at all, and why
  Staging before, after;
};

struct CommandBufferState {
  VkCommandPool pool = VK_NULL_HANDLE;
  std::shared_ptr<PipelineState> pipeline;
  std::map<uint32_t, std::pair<VkDescriptorSet, std::vector<uint32_t>>> sets;  // set → (set, its dynamic offsets)
  std::vector<uint8_t> pushConstants;
  // The dispatches it runs when submitted, in order (a secondary's, executed by vkCmdExecuteCommands, included).
  std::vector<std::shared_ptr<DispatchRecord>> dispatches;
  std::vector<std::shared_ptr<DispatchRecord>> own;  // those whose staging it owns
};

struct DeviceState {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
  uint32_t subgroupSize = 0;  // 0: the device did not say
  PFN_vkGetDeviceProcAddr next = nullptr;
#define CLREF_VK_DEVICE_FUNCTIONS(X)                                                                                  \
  X(DestroyDevice) X(CreateBuffer) X(DestroyBuffer) X(GetBufferMemoryRequirements) X(AllocateMemory) X(FreeMemory)   \
  X(BindBufferMemory) X(MapMemory) X(CreateShaderModule) X(DestroyShaderModule) X(CreateDescriptorSetLayout)         \
  X(DestroyDescriptorSetLayout) X(CreatePipelineLayout) X(DestroyPipelineLayout) X(CreateComputePipelines)           \
  X(DestroyPipeline) X(AllocateDescriptorSets) X(FreeDescriptorSets) X(ResetDescriptorPool) X(DestroyDescriptorPool)  \
  X(UpdateDescriptorSets) X(AllocateCommandBuffers) X(FreeCommandBuffers) X(ResetCommandPool) X(DestroyCommandPool)  \
  X(BeginCommandBuffer) X(ResetCommandBuffer) X(CmdBindPipeline) X(CmdBindDescriptorSets) X(CmdPushConstants)        \
  X(CmdDispatch) X(CmdDispatchBase) X(CmdDispatchIndirect) X(CmdExecuteCommands) X(CmdPipelineBarrier)               \
  X(CmdCopyBuffer) X(QueueSubmit) X(QueueSubmit2) X(QueueWaitIdle)
#define CLREF_VK_MEMBER(name) PFN_vk##name name = nullptr;
  CLREF_VK_DEVICE_FUNCTIONS(CLREF_VK_MEMBER)
#undef CLREF_VK_MEMBER
  // Every object the layer tracks, by handle.
  std::map<VkBuffer, BufferState> buffers;
  std::map<VkShaderModule, std::shared_ptr<const std::vector<uint32_t>>> shaderModules;
  std::map<VkDescriptorSetLayout, std::shared_ptr<const DescriptorSetLayoutState>> setLayouts;
  std::map<VkPipelineLayout, std::shared_ptr<const PipelineLayoutState>> pipelineLayouts;
  std::map<VkPipeline, std::shared_ptr<PipelineState>> pipelines;
  std::map<VkDescriptorSet, DescriptorSetState> descriptorSets;
  std::map<VkCommandBuffer, CommandBufferState> commandBuffers;
};

struct State {
  std::mutex mutex;
  std::map<void*, std::shared_ptr<InstanceState>> instances;  // by instance and physical-device key
  std::map<VkPhysicalDevice, std::shared_ptr<InstanceState>> physicalDevices;
  std::map<void*, std::shared_ptr<DeviceState>> devices;  // by device, queue and command-buffer key
};
State& state();
// The device state of a device, queue or command buffer (under the lock).
template <class H> DeviceState& deviceOf(H handle) { return *state().devices.at(keyOf(handle)); }

// The layer's entry points for `name` (objects.cpp, recording.cpp, submit.cpp), or null.
PFN_vkVoidFunction objectFunction(const char* name);
PFN_vkVoidFunction recordingFunction(const char* name);
PFN_vkVoidFunction submitFunction(const char* name);

// The layer's staging buffers: made host-visible and coherent, mapped; released (either may be empty).
Staging makeStaging(DeviceState& d, VkDeviceSize size);
void releaseStaging(DeviceState& d, Staging& s);
// Releases what a command buffer's recorded dispatches own (it is reset, begun again, freed).
void resetRecording(DeviceState& d, CommandBufferState& cb);

}  // namespace clref::vklayer
