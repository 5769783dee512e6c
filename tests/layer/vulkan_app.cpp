// An ordinary Vulkan compute application, knowing nothing of clref: what tests/layer/vulkan_layer_test.cpp runs
// without and with the Vulkan check layer (VK_LAYER_CLREF_check). It makes an instance and a device on the first
// physical device with a compute queue, two storage buffers A and B, and the compute shader vulkan_app.comp (compiled
// to SPIR-V by glslangValidator at build time, specialized to work-groups of 64), then records one command buffer with
// two dispatches: B = sqrt(A) * 2 + 1, then (after a barrier) A = sqrt(B) * 0.5 - 3, each with its own push
// constants and descriptor set, submits it, waits, and prints both buffers as hex floats, one element per line, and
// on stderr the device's name and the wall time from instance creation to the results. Exit 1 on a Vulkan error.
// `vulkan_app --indirect`: the second dispatch is a vkCmdDispatchIndirect, its work-group counts in a buffer made for
// indirect commands only. `vulkan_app --alias`: the first dispatch reads and writes A in place (both bindings of set 0
// are A). `vulkan_app --dynamic`: A and B are the two halves of one buffer (B from byte 4096), bound through one
// descriptor set of dynamic storage buffers with the dynamic offsets choosing the halves: the same results.
// `vulkan_app --submit2`: Vulkan 1.3 with synchronization2, submitted with vkQueueSubmit2. `vulkan_app --secondary`:
// the dispatches are recorded into a secondary command buffer, which the primary one executes.
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vulkan_app_spv.h"  // kVulkanAppShader: vulkan_app.comp as SPIR-V words

namespace {

void need(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  std::fprintf(stderr, "vulkan_app: %s failed (VkResult %d)\n", what, int(r));
  std::exit(1);
}

constexpr uint32_t kCount = 1000;  // elements per buffer
constexpr uint32_t kWidth = 64;    // the work-group width (specialization constant 0)

// A Vulkan structure of type `type`, every other member zero.
template <class T> T make(VkStructureType type) {
  T v{};
  v.sType = type;
  return v;
}

struct Parameters {
  float scale, bias;
  uint32_t count;
};

}  // namespace

int main(int argc, char** argv) {
  const bool indirect = argc > 1 && std::strcmp(argv[1], "--indirect") == 0;
  const bool alias = argc > 1 && std::strcmp(argv[1], "--alias") == 0;
  const bool dynamic = argc > 1 && std::strcmp(argv[1], "--dynamic") == 0;
  const VkDescriptorType type = dynamic ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  constexpr uint32_t kHalf = 4096;  // --dynamic: B's byte offset
  const bool submit2 = argc > 1 && std::strcmp(argv[1], "--submit2") == 0;
  const bool secondary = argc > 1 && std::strcmp(argv[1], "--secondary") == 0;
  const auto start = std::chrono::steady_clock::now();
  auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "clref vulkan_app";
  app.apiVersion = submit2 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_1;
  auto instanceInfo = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &app;
  VkInstance instance;
  need(vkCreateInstance(&instanceInfo, nullptr, &instance), "vkCreateInstance");

  uint32_t n = 0;
  need(vkEnumeratePhysicalDevices(instance, &n, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physicalDevices(n);
  need(vkEnumeratePhysicalDevices(instance, &n, physicalDevices.data()), "vkEnumeratePhysicalDevices");
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  uint32_t family = 0;
  for (VkPhysicalDevice p : physicalDevices) {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(p, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(p, &families, props.data());
    for (uint32_t f = 0; f < families && !physical; ++f)
      if (props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        physical = p;
        family = f;
      }
    if (physical) break;
  }
  if (!physical) {
    std::fprintf(stderr, "vulkan_app: no device with a compute queue\n");
    return 1;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  std::fprintf(stderr, "vulkan_app: device %s\n", properties.deviceName);

  const float priority = 1;
  auto queueInfo = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto deviceInfo = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  auto features13 = make<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  features13.synchronization2 = VK_TRUE;
  if (submit2) deviceInfo.pNext = &features13;
  VkDevice device;
  need(vkCreateDevice(physical, &deviceInfo, nullptr, &device), "vkCreateDevice");
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  // Two host-visible storage buffers, A filled with 0.5 + 0.37 i.
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  const VkDeviceSize bytes = kCount * sizeof(float);
  // Buffer 2 holds the indirect dispatch's work-group counts.
  VkBuffer buffers[3];
  VkDeviceMemory memories[3];
  float* mapped[3];
  for (int b = 0; b < 3; ++b) {
    auto bufferInfo = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bufferInfo.size = b == 0 && dynamic ? kHalf + bytes : b < 2 ? bytes : sizeof(VkDispatchIndirectCommand);
    // No TRANSFER_SRC: the layer adds it.
    bufferInfo.usage = b < 2 ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    need(vkCreateBuffer(device, &bufferInfo, nullptr, &buffers[b]), "vkCreateBuffer");
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device, buffers[b], &needs);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    auto alloc = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    alloc.allocationSize = needs.size;
    alloc.memoryTypeIndex = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount && alloc.memoryTypeIndex == UINT32_MAX; ++i)
      if ((needs.memoryTypeBits >> i & 1) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted)
        alloc.memoryTypeIndex = i;
    need(vkAllocateMemory(device, &alloc, nullptr, &memories[b]), "vkAllocateMemory");
    need(vkBindBufferMemory(device, buffers[b], memories[b], 0), "vkBindBufferMemory");
    void* p;
    need(vkMapMemory(device, memories[b], 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    mapped[b] = static_cast<float*>(p);
  }
  float* const hostA = mapped[0];
  float* const hostB = dynamic ? mapped[0] + kHalf / sizeof(float) : mapped[1];
  for (uint32_t i = 0; i < kCount; ++i) {
    hostA[i] = 0.5f + 0.37f * float(i);
    hostB[i] = 0;
  }
  const uint32_t groups = (kCount + kWidth - 1) / kWidth;
  const VkDispatchIndirectCommand counts{groups, 1, 1};
  std::memcpy(mapped[2], &counts, sizeof counts);

  auto moduleInfo = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = sizeof kVulkanAppShader;
  moduleInfo.pCode = kVulkanAppShader;
  VkShaderModule module;
  need(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), "vkCreateShaderModule");

  VkDescriptorSetLayoutBinding bindings[2] = {};
  for (uint32_t b = 0; b < 2; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = type;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto setLayoutInfo = make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setLayoutInfo.bindingCount = 2;
  setLayoutInfo.pBindings = bindings;
  VkDescriptorSetLayout setLayout;
  need(vkCreateDescriptorSetLayout(device, &setLayoutInfo, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
  const VkPushConstantRange pushRange{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Parameters)};
  auto layoutInfo = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &pushRange;
  VkPipelineLayout layout;
  need(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), "vkCreatePipelineLayout");

  const VkSpecializationMapEntry widthEntry{0, 0, sizeof kWidth};
  const VkSpecializationInfo specialization{1, &widthEntry, sizeof kWidth, &kWidth};
  auto pipelineInfo = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipelineInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = "main";
  pipelineInfo.stage.pSpecializationInfo = &specialization;
  pipelineInfo.layout = layout;
  VkPipeline pipeline;
  need(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline),
       "vkCreateComputePipelines");

  // Set 0 reads A and writes B; set 1 reads B and writes A.
  const VkDescriptorPoolSize poolSize{type, 4};
  auto poolInfo = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = 2;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  VkDescriptorPool pool;
  need(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), "vkCreateDescriptorPool");
  const VkDescriptorSetLayout setLayouts[2] = {setLayout, setLayout};
  auto setInfo = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  setInfo.descriptorPool = pool;
  setInfo.descriptorSetCount = 2;
  setInfo.pSetLayouts = setLayouts;
  VkDescriptorSet sets[2];
  need(vkAllocateDescriptorSets(device, &setInfo, sets), "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo bufferInfos[4];
  VkWriteDescriptorSet writes[4];
  for (int s = 0; s < 2; ++s)
    for (int b = 0; b < 2; ++b) {
      const int w = 2 * s + b;
      bufferInfos[w] = {alias && s == 0 ? buffers[0] : buffers[(s + b) % 2], 0, VK_WHOLE_SIZE};
      if (dynamic) bufferInfos[w] = {buffers[0], 0, bytes};  // the half chosen by the dynamic offset
      writes[w] = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      writes[w].dstSet = sets[s];
      writes[w].dstBinding = uint32_t(b);
      writes[w].descriptorCount = 1;
      writes[w].descriptorType = type;
      writes[w].pBufferInfo = &bufferInfos[w];
    }
  vkUpdateDescriptorSets(device, 4, writes, 0, nullptr);

  auto commandPoolInfo = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  commandPoolInfo.queueFamilyIndex = family;
  VkCommandPool commandPool;
  need(vkCreateCommandPool(device, &commandPoolInfo, nullptr, &commandPool), "vkCreateCommandPool");
  auto commandInfo = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  commandInfo.commandPool = commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  need(vkAllocateCommandBuffers(device, &commandInfo, &commands), "vkAllocateCommandBuffers");
  auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  need(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  // The command buffer the dispatches are recorded into: the primary one, or a secondary one it executes.
  VkCommandBuffer recording = commands;
  if (secondary) {
    commandInfo.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    need(vkAllocateCommandBuffers(device, &commandInfo, &recording), "vkAllocateCommandBuffers");
    auto inheritance = make<VkCommandBufferInheritanceInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO);
    auto secondaryBegin = begin;
    secondaryBegin.pInheritanceInfo = &inheritance;
    need(vkBeginCommandBuffer(recording, &secondaryBegin), "vkBeginCommandBuffer");
  }
  vkCmdBindPipeline(recording, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  const Parameters parameters[2] = {{2.0f, 1.0f, kCount}, {0.5f, -3.0f, kCount}};
  for (int s = 0; s < 2; ++s) {
    if (s == 1) {  // the second dispatch reads what the first wrote, and writes what it read
      auto barrier = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
      barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
      barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      vkCmdPipelineBarrier(recording, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                           &barrier, 0, nullptr, 0, nullptr);
    }
    const uint32_t offsets[2] = {s == 0 ? 0 : kHalf, s == 0 ? kHalf : 0};  // (source, destination)
    if (dynamic)
      vkCmdBindDescriptorSets(recording, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 2, offsets);
    else
      vkCmdBindDescriptorSets(recording, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[s], 0, nullptr);
    vkCmdPushConstants(recording, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Parameters), &parameters[s]);
    if (s == 1 && indirect)
      vkCmdDispatchIndirect(recording, buffers[2], 0);
    else
      vkCmdDispatch(recording, groups, 1, 1);
  }
  if (secondary) {
    need(vkEndCommandBuffer(recording), "vkEndCommandBuffer");
    vkCmdExecuteCommands(commands, 1, &recording);
  }
  auto toHost = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                       nullptr, 0, nullptr);
  need(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

  auto fenceInfo = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence;
  need(vkCreateFence(device, &fenceInfo, nullptr, &fence), "vkCreateFence");
  if (submit2) {
    auto commandSubmit = make<VkCommandBufferSubmitInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
    commandSubmit.commandBuffer = commands;
    auto submit = make<VkSubmitInfo2>(VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &commandSubmit;
    need(vkQueueSubmit2(queue, 1, &submit, fence), "vkQueueSubmit2");
  } else {
    auto submit = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    need(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
  }
  need(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

  for (uint32_t i = 0; i < kCount; ++i) std::printf("A[%u] = %a\n", i, double(hostA[i]));
  for (uint32_t i = 0; i < kCount; ++i) std::printf("B[%u] = %a\n", i, double(hostB[i]));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "vulkan_app: %.3f s\n", seconds);

  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, commandPool, nullptr);
  vkDestroyDescriptorPool(device, pool, nullptr);
  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  for (int b = 0; b < 3; ++b) {
    vkDestroyBuffer(device, buffers[b], nullptr);
    vkFreeMemory(device, memories[b], nullptr);
  }
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return 0;
}
