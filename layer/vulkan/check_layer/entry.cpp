// The loader's layer interface (Vulkan loader "LoaderLayerInterface": vkNegotiateLoaderLayerInterfaceVersion, the
// layer's vkGetInstanceProcAddr and vkGetDeviceProcAddr) and the creation of instances and devices, which the loader
// chains through VkLayerInstanceCreateInfo and VkLayerDeviceCreateInfo: each layer takes the next one's
// vkGet*ProcAddr from the chain, moves the chain on and calls the next vkCreate*.
#include <cstring>

#include "layer/vulkan/check_layer/state.hpp"

#define CLREF_EXPORT extern "C" __attribute__((visibility("default")))

namespace clref::vklayer {

State& state() {
  static State s;
  return s;
}

namespace {

template <class Info> Info* layerLink(const void* pNext, VkStructureType type) {
  for (auto* p = static_cast<const VkBaseInStructure*>(pNext); p; p = p->pNext)
    if (p->sType == type && reinterpret_cast<const Info*>(p)->function == VK_LAYER_LINK_INFO)
      return const_cast<Info*>(reinterpret_cast<const Info*>(p));
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = layerLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult r = create(info, allocator, instance);
  if (r != VK_SUCCESS) return r;
  auto s = std::make_shared<InstanceState>();
  s->instance = *instance;
  s->next = next;
  auto get = [&](const char* name) { return next(*instance, name); };
  s->destroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(get("vkDestroyInstance"));
  s->enumeratePhysicalDevices = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(get("vkEnumeratePhysicalDevices"));
  s->memoryProperties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(get("vkGetPhysicalDeviceMemoryProperties"));
  // Only when the application asked for Vulkan 1.1 or the extension may it be called.
  const bool v11 = info->pApplicationInfo && info->pApplicationInfo->apiVersion >= VK_API_VERSION_1_1;
  bool ext = false;
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    ext = ext || !std::strcmp(info->ppEnabledExtensionNames[i], "VK_KHR_get_physical_device_properties2");
  if (v11)
    s->properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(get("vkGetPhysicalDeviceProperties2"));
  else if (ext)
    s->properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(get("vkGetPhysicalDeviceProperties2KHR"));
  std::lock_guard lock(state().mutex);
  state().instances[keyOf(*instance)] = std::move(s);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (!instance) return;
  std::shared_ptr<InstanceState> s;
  {
    std::lock_guard lock(state().mutex);
    s = state().instances.at(keyOf(instance));
    state().instances.erase(keyOf(instance));
    for (auto it = state().physicalDevices.begin(); it != state().physicalDevices.end();)
      it = it->second == s ? state().physicalDevices.erase(it) : std::next(it);
  }
  s->destroyInstance(instance, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* count,
                                                        VkPhysicalDevice* devices) {
  std::shared_ptr<InstanceState> s;
  {
    std::lock_guard lock(state().mutex);
    s = state().instances.at(keyOf(instance));
  }
  const VkResult r = s->enumeratePhysicalDevices(instance, count, devices);
  if (devices && (r == VK_SUCCESS || r == VK_INCOMPLETE)) {
    std::lock_guard lock(state().mutex);
    for (uint32_t i = 0; i < *count; ++i) state().physicalDevices[devices[i]] = s;
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  std::shared_ptr<InstanceState> instance;
  {
    std::lock_guard lock(state().mutex);
    if (const auto it = state().physicalDevices.find(physicalDevice); it != state().physicalDevices.end())
      instance = it->second;
    else if (!state().instances.empty())  // found through vkEnumeratePhysicalDeviceGroups: the latest instance
      instance = std::prev(state().instances.end())->second;
  }
  auto* link = layerLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link || !link->u.pLayerInfo || !instance) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr nextDevice = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(instance->instance, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult r = create(physicalDevice, info, allocator, device);
  if (r != VK_SUCCESS) return r;
  auto d = std::make_shared<DeviceState>();
  d->device = *device;
  d->physicalDevice = physicalDevice;
  d->next = nextDevice;
#define CLREF_VK_LOAD(name) d->name = reinterpret_cast<PFN_vk##name>(nextDevice(*device, "vk" #name));
  CLREF_VK_DEVICE_FUNCTIONS(CLREF_VK_LOAD)
#undef CLREF_VK_LOAD
  if (!d->QueueSubmit2) d->QueueSubmit2 = reinterpret_cast<PFN_vkQueueSubmit2>(nextDevice(*device, "vkQueueSubmit2KHR"));
  if (!d->CmdDispatchBase)
    d->CmdDispatchBase = reinterpret_cast<PFN_vkCmdDispatchBase>(nextDevice(*device, "vkCmdDispatchBaseKHR"));
  instance->memoryProperties(physicalDevice, &d->memory);
  // The subgroup size clref runs the shaders with: the device's (Vulkan §44.1 [external] VkPhysicalDeviceSubgroupProperties).
  if (instance->properties2) {
    VkPhysicalDeviceSubgroupProperties subgroup{};
    subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &subgroup;
    instance->properties2(physicalDevice, &properties);
    d->subgroupSize = subgroup.subgroupSize;
  }
  std::lock_guard lock(state().mutex);
  state().devices[keyOf(*device)] = std::move(d);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (!device) return;
  std::shared_ptr<DeviceState> d;
  {
    std::lock_guard lock(state().mutex);
    d = state().devices.at(keyOf(device));
    for (auto& [handle, cb] : d->commandBuffers) resetRecording(*d, cb);
    state().devices.erase(keyOf(device));
  }
  d->DestroyDevice(device, allocator);
}

PFN_vkVoidFunction instanceFunction(const char* name) {
  if (!std::strcmp(name, "vkCreateInstance")) return reinterpret_cast<PFN_vkVoidFunction>(CreateInstance);
  if (!std::strcmp(name, "vkDestroyInstance")) return reinterpret_cast<PFN_vkVoidFunction>(DestroyInstance);
  if (!std::strcmp(name, "vkEnumeratePhysicalDevices"))
    return reinterpret_cast<PFN_vkVoidFunction>(EnumeratePhysicalDevices);
  if (!std::strcmp(name, "vkCreateDevice")) return reinterpret_cast<PFN_vkVoidFunction>(CreateDevice);
  return nullptr;
}

PFN_vkVoidFunction deviceFunction(const char* name) {
  if (!std::strcmp(name, "vkDestroyDevice")) return reinterpret_cast<PFN_vkVoidFunction>(DestroyDevice);
  if (auto f = objectFunction(name)) return f;
  if (auto f = recordingFunction(name)) return f;
  return submitFunction(name);
}

}  // namespace
}  // namespace clref::vklayer

using namespace clref::vklayer;

CLREF_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name);

CLREF_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) {
  if (!std::strcmp(name, "vkGetInstanceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(vkGetInstanceProcAddr);
  if (!std::strcmp(name, "vkGetDeviceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(vkGetDeviceProcAddr);
  if (auto f = instanceFunction(name)) return f;
  if (auto f = deviceFunction(name)) return f;
  if (!instance) return nullptr;
  PFN_vkGetInstanceProcAddr next = nullptr;
  {
    std::lock_guard lock(state().mutex);
    const auto it = state().instances.find(keyOf(instance));
    if (it == state().instances.end()) return nullptr;
    next = it->second->next;
  }
  return next(instance, name);
}

CLREF_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) {
  if (!std::strcmp(name, "vkGetDeviceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(vkGetDeviceProcAddr);
  PFN_vkGetDeviceProcAddr next = nullptr;
  {
    std::lock_guard lock(state().mutex);
    const auto it = state().devices.find(keyOf(device));
    if (it == state().devices.end()) return nullptr;
    next = it->second->next;
  }
  // Only what the device has: the next layer's answer decides whether a function exists.
  const PFN_vkVoidFunction below = next(device, name);
  if (!below) return nullptr;
  if (auto f = deviceFunction(name)) return f;
  return below;
}

CLREF_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  // Interface version 2: the loader calls the layer's vkGetInstanceProcAddr and vkGetDeviceProcAddr from here.
  if (v->loaderLayerInterfaceVersion > 2) v->loaderLayerInterfaceVersion = 2;
  if (v->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  v->pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
  v->pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
  v->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
