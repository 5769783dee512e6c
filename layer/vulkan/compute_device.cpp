// ComputeDevice (compute_device.hpp): one Vulkan instance and logical device, one compute queue, and per dispatch the
// objects Vulkan §12 [external] (Resource Creation), §14 [external] (Resource Descriptors), §10 [external] (Pipelines)
// and §30 [external] (Dispatching Commands) describe, created and destroyed around it.
#include "layer/vulkan/compute_device.hpp"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <set>

namespace clref::vulkan {

namespace {

std::string resultName(VkResult r) {
  switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    default: return "VkResult " + std::to_string(int(r));
  }
}

void check(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw Error(std::string(call) + " failed: " + resultName(r));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string versionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

// A Vulkan structure with its sType and every other member zero (a braced initializer naming only sType leaves
// -Wmissing-field-initializers unhappy).
template <class T> T make(VkStructureType type) {
  T x{};
  x.sType = type;
  return x;
}

// Device extensions whose SPIR-V a shader may use without the script naming them (the conformance suite enables them
// from the test's registration, not from the script): each enabled, with every feature of its structure, where the
// device has it.
struct ShaderExtension {
  const char* name;
  VkStructureType features;
  size_t size;
};
constexpr ShaderExtension kShaderExtensions[] = {
    {"VK_KHR_shader_subgroup_uniform_control_flow",
     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR,
     sizeof(VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR)},
    {"VK_EXT_shader_atomic_float", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
     sizeof(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT)},
    {"VK_EXT_shader_atomic_float2", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT,
     sizeof(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT)},
    {"VK_KHR_workgroup_memory_explicit_layout",
     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
     sizeof(VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR)},
    {"VK_KHR_shader_clock", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
     sizeof(VkPhysicalDeviceShaderClockFeaturesKHR)},
};

// SPIR-V extensions and what lets a device accept them: a device extension, or the Vulkan version that made it core
// (0: none did).
struct SpirvExtension {
  const char* spirv;
  const char* device;
  uint32_t core;
};
constexpr SpirvExtension kSpirvExtensions[] = {
    {"SPV_KHR_storage_buffer_storage_class", "VK_KHR_storage_buffer_storage_class", VK_API_VERSION_1_1},
    {"SPV_KHR_variable_pointers", "VK_KHR_variable_pointers", VK_API_VERSION_1_1},
    {"SPV_KHR_16bit_storage", "VK_KHR_16bit_storage", VK_API_VERSION_1_1},
    {"SPV_KHR_shader_draw_parameters", "VK_KHR_shader_draw_parameters", VK_API_VERSION_1_1},
    {"SPV_KHR_8bit_storage", "VK_KHR_8bit_storage", VK_API_VERSION_1_2},
    {"SPV_KHR_vulkan_memory_model", "VK_KHR_vulkan_memory_model", VK_API_VERSION_1_2},
    {"SPV_KHR_float_controls", "VK_KHR_shader_float_controls", VK_API_VERSION_1_2},
    {"SPV_KHR_physical_storage_buffer", "VK_KHR_buffer_device_address", VK_API_VERSION_1_2},
    {"SPV_KHR_integer_dot_product", "VK_KHR_shader_integer_dot_product", VK_API_VERSION_1_3},
    {"SPV_KHR_non_semantic_info", "VK_KHR_shader_non_semantic_info", VK_API_VERSION_1_3},
    {"SPV_KHR_terminate_invocation", "VK_KHR_shader_terminate_invocation", VK_API_VERSION_1_3},
    {"SPV_KHR_subgroup_uniform_control_flow", "VK_KHR_shader_subgroup_uniform_control_flow", 0},
    {"SPV_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", 0},
    {"SPV_KHR_shader_clock", "VK_KHR_shader_clock", 0},
    {"SPV_KHR_subgroup_rotate", "VK_KHR_shader_subgroup_rotate", 0},
    {"SPV_KHR_maximal_reconvergence", "VK_KHR_shader_maximal_reconvergence", 0},
    {"SPV_KHR_quad_control", "VK_KHR_shader_quad_control", 0},
    {"SPV_KHR_expect_assume", "VK_KHR_shader_expect_assume", 0},
    {"SPV_KHR_float_controls2", "VK_KHR_shader_float_controls2", 0},
    {"SPV_EXT_shader_atomic_float_add", "VK_EXT_shader_atomic_float", 0},
    {"SPV_EXT_shader_atomic_float_min_max", "VK_EXT_shader_atomic_float2", 0},
};

// The OpExtension strings of a module (SPIR-V 1.0 §2.3 [external] Physical Layout: 5 header words, then instructions
// whose first word holds the word count above the opcode; OpExtension is opcode 10, its operand a nul-ended string).
std::vector<std::string> spirvExtensions(const std::vector<uint32_t>& words) {
  std::vector<std::string> out;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;
    if (opcode == 10) {
      std::string name;
      for (size_t b = 0; b < 4 * size_t(count - 1); ++b) {
        const char c = char((words[i + 1 + b / 4] >> (8 * (b % 4))) & 0xff);
        if (c == 0) break;
        name += c;
      }
      out.push_back(name);
    }
    i += count;
  }
  return out;
}

// Destroys what it holds when the dispatch ends, however it ends.
struct Cleanup {
  std::vector<std::function<void()>> steps;
  ~Cleanup() {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) (*it)();
  }
};

}  // namespace

std::string DeviceInfo::describe() const {
  std::string s = name;
  if (!driverName.empty()) s += ", driver " + driverName + (driverInfo.empty() ? "" : " (" + driverInfo + ")");
  s += ", Vulkan " + versionText(apiVersion);
  return s;
}

std::string DeviceInfo::apiVersionText() const { return versionText(apiVersion); }

struct ComputeDevice::Impl {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
  VkPhysicalDeviceLimits limits{};
  DeviceInfo info;
  // The features as the device reports them (and as they are enabled: all of them).
  VkPhysicalDeviceFeatures2 features = make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  VkPhysicalDeviceVulkan11Features v11 =
      make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  VkPhysicalDeviceVulkan12Features v12 =
      make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceVulkan13Features v13 =
      make<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  // kShaderExtensions the device has: their names and feature structures (chained after the core ones).
  std::vector<std::string> shaderExtensions;
  std::vector<std::vector<uint64_t>> extensionFeatures;
  VkSubgroupFeatureFlags subgroupOperations = 0;
  VkShaderStageFlags subgroupStages = 0;

  ~Impl() {
    if (device) {
      vkDeviceWaitIdle(device);
      if (commandPool) vkDestroyCommandPool(device, commandPool, nullptr);
      vkDestroyDevice(device, nullptr);
    }
    if (instance) vkDestroyInstance(instance, nullptr);
  }

  static VkInstance createInstance() {
    uint32_t version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS) version = VK_API_VERSION_1_0;
    auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "clref";
    app.apiVersion = std::min<uint32_t>(version, VK_API_VERSION_1_3);
    auto ci = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    check(vkCreateInstance(&ci, nullptr, &instance), "vkCreateInstance");
    return instance;
  }

  static std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
    uint32_t n = 0;
    check(vkEnumeratePhysicalDevices(instance, &n, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> out(n);
    check(vkEnumeratePhysicalDevices(instance, &n, out.data()), "vkEnumeratePhysicalDevices");
    out.resize(n);
    return out;
  }

  void readProperties() {
    auto p = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    auto subgroup = make<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto floats =
        make<VkPhysicalDeviceFloatControlsProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
    auto driver = make<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    auto sizes = make<VkPhysicalDeviceSubgroupSizeControlProperties>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
    VkPhysicalDeviceProperties basic{};
    vkGetPhysicalDeviceProperties(physical, &basic);
    // The structures of Vulkan 1.1, 1.2 and 1.3 are only chained where the device has that version.
    p.pNext = &subgroup;
    if (basic.apiVersion >= VK_API_VERSION_1_2) {
      subgroup.pNext = &floats;
      floats.pNext = &driver;
      if (basic.apiVersion >= VK_API_VERSION_1_3) driver.pNext = &sizes;
    }
    if (basic.apiVersion >= VK_API_VERSION_1_1)
      vkGetPhysicalDeviceProperties2(physical, &p);
    else
      p.properties = basic;
    limits = p.properties.limits;
    info.name = p.properties.deviceName;
    info.apiVersion = p.properties.apiVersion;
    info.driverVersion = p.properties.driverVersion;
    info.vendorId = p.properties.vendorID;
    info.deviceId = p.properties.deviceID;
    info.subgroupSize = subgroup.subgroupSize;
    info.minSubgroupSize = sizes.minSubgroupSize ? sizes.minSubgroupSize : subgroup.subgroupSize;
    info.maxSubgroupSize = sizes.maxSubgroupSize ? sizes.maxSubgroupSize : subgroup.subgroupSize;
    subgroupOperations = subgroup.supportedOperations;
    subgroupStages = subgroup.supportedStages;
    info.driverName = driver.driverName;
    info.driverInfo = driver.driverInfo;
    info.denormPreserve = {bool(floats.shaderDenormPreserveFloat16), bool(floats.shaderDenormPreserveFloat32),
                           bool(floats.shaderDenormPreserveFloat64)};
    info.denormFlushToZero = {bool(floats.shaderDenormFlushToZeroFloat16), bool(floats.shaderDenormFlushToZeroFloat32),
                              bool(floats.shaderDenormFlushToZeroFloat64)};
    info.roundingModeRTE = {bool(floats.shaderRoundingModeRTEFloat16), bool(floats.shaderRoundingModeRTEFloat32),
                            bool(floats.shaderRoundingModeRTEFloat64)};
    info.roundingModeRTZ = {bool(floats.shaderRoundingModeRTZFloat16), bool(floats.shaderRoundingModeRTZFloat32),
                            bool(floats.shaderRoundingModeRTZFloat64)};
    info.signedZeroInfNanPreserve = {bool(floats.shaderSignedZeroInfNanPreserveFloat16),
                                     bool(floats.shaderSignedZeroInfNanPreserveFloat32),
                                     bool(floats.shaderSignedZeroInfNanPreserveFloat64)};
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  }

  std::vector<VkExtensionProperties> availableExtensions() const {
    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr),
          "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> available(count);
    check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, available.data()),
          "vkEnumerateDeviceExtensionProperties");
    available.resize(count);
    return available;
  }

  void readFeatures() {
    std::vector<VkBaseOutStructure*> chain = {reinterpret_cast<VkBaseOutStructure*>(&features)};
    if (info.apiVersion >= VK_API_VERSION_1_2) {
      chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&v11));
      chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&v12));
      if (info.apiVersion >= VK_API_VERSION_1_3) chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&v13));
    }
    if (info.apiVersion >= VK_API_VERSION_1_1) {
      const auto available = availableExtensions();
      for (const ShaderExtension& e : kShaderExtensions) {
        if (std::none_of(available.begin(), available.end(),
                         [&](const VkExtensionProperties& a) { return std::strcmp(e.name, a.extensionName) == 0; }))
          continue;
        shaderExtensions.emplace_back(e.name);
        extensionFeatures.emplace_back((e.size + 7) / 8, 0);
        auto* base = reinterpret_cast<VkBaseOutStructure*>(extensionFeatures.back().data());
        base->sType = e.features;
      }
      for (auto& f : extensionFeatures) chain.push_back(reinterpret_cast<VkBaseOutStructure*>(f.data()));
    }
    for (size_t i = 0; i < chain.size(); ++i) chain[i]->pNext = i + 1 < chain.size() ? chain[i + 1] : nullptr;
    if (info.apiVersion >= VK_API_VERSION_1_1)
      vkGetPhysicalDeviceFeatures2(physical, &features);
    else
      vkGetPhysicalDeviceFeatures(physical, &features.features);
  }

  void createDevice(const std::vector<std::string>& extensions) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, families.data());
    bool found = false;
    for (uint32_t i = 0; i < n && !found; ++i)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) queueFamily = i, found = true;
    if (!found) throw Error(info.name + " has no queue family with VK_QUEUE_COMPUTE_BIT");

    const auto available = availableExtensions();
    std::vector<const char*> names;
    for (const auto& e : shaderExtensions) names.push_back(e.c_str());
    for (const auto& e : extensions) {
      const bool has = std::any_of(available.begin(), available.end(),
                                   [&](const VkExtensionProperties& a) { return e == a.extensionName; });
      if (!has) throw Error(info.name + " does not support the device extension " + e);
      if (std::find(shaderExtensions.begin(), shaderExtensions.end(), e) == shaderExtensions.end())
        names.push_back(e.c_str());
    }

    const float priority = 1.0f;
    auto q = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    q.queueFamilyIndex = queueFamily;
    q.queueCount = 1;
    q.pQueuePriorities = &priority;
    auto ci = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &q;
    ci.enabledExtensionCount = uint32_t(names.size());
    ci.ppEnabledExtensionNames = names.data();
    // Every feature the device has is enabled, so that any shader it can run, runs: a judge does not second-guess
    // which features a script forgot to ask for (robustness features change nothing a correct shader observes).
    if (info.apiVersion >= VK_API_VERSION_1_1)
      ci.pNext = &features;
    else
      ci.pEnabledFeatures = &features.features;
    check(vkCreateDevice(physical, &ci, nullptr, &device), "vkCreateDevice");
    vkGetDeviceQueue(device, queueFamily, 0, &queue);
    auto pool = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = queueFamily;
    check(vkCreateCommandPool(device, &pool, nullptr, &commandPool), "vkCreateCommandPool");
  }

  uint32_t hostVisibleMemoryType(uint32_t typeBits) const {
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if ((typeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) return i;
    throw Error(info.name + " has no host-visible, host-coherent memory type for a buffer");
  }
};

std::vector<std::string> ComputeDevice::deviceNames() {
  std::vector<std::string> out;
  VkInstance instance = VK_NULL_HANDLE;
  try {
    instance = Impl::createInstance();
    for (VkPhysicalDevice d : Impl::physicalDevices(instance)) {
      VkPhysicalDeviceProperties p{};
      vkGetPhysicalDeviceProperties(d, &p);
      out.emplace_back(p.deviceName);
    }
  } catch (const Error&) {}
  if (instance) vkDestroyInstance(instance, nullptr);
  return out;
}

ComputeDevice::ComputeDevice(const std::string& nameSubstring, const std::vector<std::string>& extensions)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.instance = Impl::createInstance();
  std::string names;
  for (VkPhysicalDevice d : Impl::physicalDevices(m.instance)) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(d, &p);
    names += std::string(names.empty() ? "" : ", ") + p.deviceName;
    if (!m.physical && lower(p.deviceName).find(lower(nameSubstring)) != std::string::npos) m.physical = d;
  }
  if (!m.physical)
    throw Error(names.empty()
                    ? "the Vulkan loader finds no physical device"
                    : "no Vulkan device's name contains \"" + nameSubstring + "\" (there are: " + names + ")");
  m.readProperties();
  m.readFeatures();
  m.createDevice(extensions);
}

ComputeDevice::~ComputeDevice() = default;

const DeviceInfo& ComputeDevice::info() const { return impl_->info; }

bool ComputeDevice::hasFeature(const std::string& f) const {
  const Impl& m = *impl_;
  const auto& c = m.features.features;
  const auto& v11 = m.v11;
  const auto& v12 = m.v12;
  const auto& v13 = m.v13;
  const bool op = m.subgroupStages & VK_SHADER_STAGE_COMPUTE_BIT;
  const std::map<std::string, bool> known = {
      {"shaderInt64", c.shaderInt64},
      {"shaderFloat64", c.shaderFloat64},
      {"shaderInt16", c.shaderInt16},
      {"robustBufferAccess", c.robustBufferAccess},
      {"Float16Int8Features.shaderFloat16", v12.shaderFloat16},
      {"Float16Int8Features.shaderInt8", v12.shaderInt8},
      {"Storage8BitFeatures.storageBuffer8BitAccess", v12.storageBuffer8BitAccess},
      {"Storage8BitFeatures.uniformAndStorageBuffer8BitAccess", v12.uniformAndStorageBuffer8BitAccess},
      {"Storage8BitFeatures.storagePushConstant8", v12.storagePushConstant8},
      {"Storage16BitFeatures.storageBuffer16BitAccess", v11.storageBuffer16BitAccess},
      {"Storage16BitFeatures.uniformAndStorageBuffer16BitAccess", v11.uniformAndStorageBuffer16BitAccess},
      {"Storage16BitFeatures.storagePushConstant16", v11.storagePushConstant16},
      {"VariablePointerFeatures.variablePointersStorageBuffer", v11.variablePointersStorageBuffer},
      {"VariablePointerFeatures.variablePointers", v11.variablePointers},
      {"VulkanMemoryModelFeatures.vulkanMemoryModel", v12.vulkanMemoryModel},
      {"VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope", v12.vulkanMemoryModelDeviceScope},
      {"ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes", v12.shaderSubgroupExtendedTypes},
      {"ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
       v13.shaderZeroInitializeWorkgroupMemory},
      {"SubgroupSizeControl.subgroupSizeControl", v13.subgroupSizeControl},
      {"SubgroupSizeControl.computeFullSubgroups", v13.computeFullSubgroups},
      {"SubgroupSupportedStages.compute", op},
      {"SubgroupSupportedOperations.basic", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_BASIC_BIT)},
      {"SubgroupSupportedOperations.vote", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_VOTE_BIT)},
      {"SubgroupSupportedOperations.arithmetic", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)},
      {"SubgroupSupportedOperations.ballot", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT)},
      {"SubgroupSupportedOperations.shuffle", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT)},
      {"SubgroupSupportedOperations.shuffleRelative",
       op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)},
      {"SubgroupSupportedOperations.clustered", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_CLUSTERED_BIT)},
      {"SubgroupSupportedOperations.quad", op && (m.subgroupOperations & VK_SUBGROUP_FEATURE_QUAD_BIT)},
  };
  const auto it = known.find(f);
  return it != known.end() && it->second;
}

// The float controls a module's entry points declare (SPIR-V 1.0 §3.6 [external] OpExecutionMode, opcode 16: entry
// point, mode, literals; SPV_KHR_float_controls' modes 4459 to 4463 take the bit width), as (mode, width).
// Only those of `entryPoint` (OpEntryPoint, opcode 15: execution model, id, name).
std::vector<std::pair<uint32_t, uint32_t>> floatControls(const std::vector<uint32_t>& words,
                                                         const std::string& entryPoint) {
  auto literal = [&](size_t from, size_t end) {
    std::string name;
    for (size_t b = 0; b < 4 * (end - from); ++b) {
      const char c = char((words[from + b / 4] >> (8 * (b % 4))) & 0xff);
      if (c == 0) break;
      name += c;
    }
    return name;
  };
  std::optional<uint32_t> id;
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;
    if (opcode == 15 && count >= 4 && !id && literal(i + 3, i + count) == entryPoint) id = words[i + 2];
    if (opcode == 16 && count >= 4 && id && words[i + 1] == *id && words[i + 2] >= 4459 && words[i + 2] <= 4463)
      out.emplace_back(words[i + 2], words[i + 3]);
    i += count;
  }
  return out;
}

std::string ComputeDevice::missingFor(const std::vector<uint32_t>& spirv, const std::string& entryPoint) const {
  // Vulkan §47.1 [external] VkPhysicalDeviceFloatControlsProperties: a shader may declare a float-controls execution
  // mode for a width only where the device reports it (VUID-RuntimeSpirv-shaderDenormPreserveFloat16-06300 …).
  const DeviceInfo& d = impl_->info;
  for (const auto& [mode, width] : floatControls(spirv, entryPoint)) {
    const int w = width == 16 ? 0 : width == 32 ? 1 : width == 64 ? 2 : -1;
    if (w < 0) continue;
    static constexpr const char* kNames[] = {"DenormPreserve", "DenormFlushToZero", "SignedZeroInfNanPreserve",
                                             "RoundingModeRTE", "RoundingModeRTZ"};
    const std::array<bool, 3>* by[] = {&d.denormPreserve, &d.denormFlushToZero, &d.signedZeroInfNanPreserve,
                                       &d.roundingModeRTE, &d.roundingModeRTZ};
    if (!(*by[mode - 4459])[w])
      return "the shader declares " + std::string(kNames[mode - 4459]) + " " + std::to_string(width) + ", which " +
             d.name + " does not support (shader" + kNames[mode - 4459] + "Float" + std::to_string(width) +
             " is false)";
  }
  const auto available = impl_->availableExtensions();
  for (const auto& e : spirvExtensions(spirv))
    for (const SpirvExtension& x : kSpirvExtensions) {
      if (e != x.spirv || (x.core && impl_->info.apiVersion >= x.core)) continue;
      if (std::none_of(available.begin(), available.end(),
                       [&](const VkExtensionProperties& a) { return std::strcmp(x.device, a.extensionName) == 0; }))
        return "the shader uses " + e + ", which needs the device extension " + x.device +
               (x.core ? " (or Vulkan " + versionText(x.core) + ")" : std::string()) + ", and " + impl_->info.name +
               (x.core ? " has neither" : " does not have it");
    }
  return "";
}

void ComputeDevice::run(const Dispatch& d, std::vector<std::vector<uint8_t>>& buffers) {
  Impl& m = *impl_;
  VkDevice dev = m.device;
  Cleanup cleanup;

  // Buffers: one per host buffer that a descriptor names, host-visible so that the bytes go in and out by memcpy.
  std::set<size_t> used;
  for (const auto& b : d.bindings) {
    if (b.buffer >= buffers.size()) throw Error("a binding names buffer " + std::to_string(b.buffer));
    used.insert(b.buffer);
  }
  std::map<size_t, VkBuffer> vkBuffers;
  std::map<size_t, void*> mapped;
  for (size_t i : used) {
    auto bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    // A zero-sized buffer is invalid (VUID-VkBufferCreateInfo-size-00912): such a buffer gets 4 bytes no one reads.
    bi.size = std::max<size_t>(buffers[i].size(), 4);
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(dev, &bi, nullptr, &buffer), "vkCreateBuffer");
    cleanup.steps.push_back([dev, buffer] { vkDestroyBuffer(dev, buffer, nullptr); });
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(dev, buffer, &req);
    auto ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = m.hostVisibleMemoryType(req.memoryTypeBits);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    check(vkAllocateMemory(dev, &ai, nullptr, &mem), "vkAllocateMemory");
    cleanup.steps.push_back([dev, mem] { vkFreeMemory(dev, mem, nullptr); });
    check(vkBindBufferMemory(dev, buffer, mem, 0), "vkBindBufferMemory");
    void* p = nullptr;
    check(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    std::memset(p, 0, size_t(bi.size));
    if (!buffers[i].empty()) std::memcpy(p, buffers[i].data(), buffers[i].size());
    vkBuffers[i] = buffer;
    mapped[i] = p;
  }

  // Descriptor set layouts: sets 0 … the highest used, the unused ones empty (a pipeline layout has no gaps).
  uint32_t setCount = 0;
  for (const auto& b : d.bindings) setCount = std::max(setCount, b.set + 1);
  std::vector<VkDescriptorSetLayout> layouts(setCount, VK_NULL_HANDLE);
  uint32_t storageCount = 0, uniformCount = 0;
  for (uint32_t s = 0; s < setCount; ++s) {
    std::vector<VkDescriptorSetLayoutBinding> lb;
    for (const auto& b : d.bindings) {
      if (b.set != s) continue;
      (b.type == DescriptorType::StorageBuffer ? storageCount : uniformCount)++;
      // An array of descriptors is one layout binding of descriptorCount descriptors.
      auto same = std::find_if(lb.begin(), lb.end(), [&](const auto& x) { return x.binding == b.binding; });
      if (same != lb.end()) {
        same->descriptorCount = std::max(same->descriptorCount, b.arrayElement + 1);
        continue;
      }
      VkDescriptorSetLayoutBinding x{};
      x.binding = b.binding;
      x.descriptorType = b.type == DescriptorType::StorageBuffer ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                                 : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      x.descriptorCount = b.arrayElement + 1;
      x.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      lb.push_back(x);
    }
    auto li = make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    li.bindingCount = uint32_t(lb.size());
    li.pBindings = lb.data();
    check(vkCreateDescriptorSetLayout(dev, &li, nullptr, &layouts[s]), "vkCreateDescriptorSetLayout");
    const VkDescriptorSetLayout l = layouts[s];
    cleanup.steps.push_back([dev, l] { vkDestroyDescriptorSetLayout(dev, l, nullptr); });
  }

  VkPushConstantRange push{};
  if (d.pushConstants) {
    if (*d.pushConstants >= buffers.size())
      throw Error("the push constants name buffer " + std::to_string(*d.pushConstants));
    push.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    push.size = uint32_t(buffers[*d.pushConstants].size() & ~size_t(3));
    if (push.size > m.limits.maxPushConstantsSize)
      throw Error("push constants of " + std::to_string(push.size) +
                  " bytes exceed the device's maxPushConstantsSize " + std::to_string(m.limits.maxPushConstantsSize));
  }
  auto pli = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pli.setLayoutCount = setCount;
  pli.pSetLayouts = layouts.data();
  pli.pushConstantRangeCount = push.size ? 1 : 0;
  pli.pPushConstantRanges = &push;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(dev, &pli, nullptr, &pipelineLayout), "vkCreatePipelineLayout");
  cleanup.steps.push_back([dev, pipelineLayout] { vkDestroyPipelineLayout(dev, pipelineLayout, nullptr); });

  auto si = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  si.codeSize = d.spirv.size() * sizeof(uint32_t);
  si.pCode = d.spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(dev, &si, nullptr, &module), "vkCreateShaderModule");
  cleanup.steps.push_back([dev, module] { vkDestroyShaderModule(dev, module, nullptr); });

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> specData;
  for (const auto& s : d.specConstants) {
    entries.push_back({s.id, uint32_t(specData.size()), s.bytes.size()});
    specData.insert(specData.end(), s.bytes.begin(), s.bytes.end());
  }
  VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), specData.size(), specData.data()};

  auto required = make<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  auto pci = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = module;
  pci.stage.pName = d.entryPoint.c_str();
  pci.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
  if (d.requiredSubgroupSize) {
    required.requiredSubgroupSize = *d.requiredSubgroupSize;
    pci.stage.pNext = &required;
  }
  if (d.fullSubgroups) pci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  if (d.varyingSubgroupSize) pci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
  pci.layout = pipelineLayout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), "vkCreateComputePipelines");
  cleanup.steps.push_back([dev, pipeline] { vkDestroyPipeline(dev, pipeline, nullptr); });

  std::vector<VkDescriptorSet> sets(setCount, VK_NULL_HANDLE);
  if (setCount) {
    std::vector<VkDescriptorPoolSize> sizes;
    if (storageCount) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storageCount});
    if (uniformCount) sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniformCount});
    auto dpi = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    dpi.maxSets = setCount;
    dpi.poolSizeCount = uint32_t(sizes.size());
    dpi.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(dev, &dpi, nullptr, &pool), "vkCreateDescriptorPool");
    cleanup.steps.push_back([dev, pool] { vkDestroyDescriptorPool(dev, pool, nullptr); });
    auto dai = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    dai.descriptorPool = pool;
    dai.descriptorSetCount = setCount;
    dai.pSetLayouts = layouts.data();
    check(vkAllocateDescriptorSets(dev, &dai, sets.data()), "vkAllocateDescriptorSets");
    std::vector<VkDescriptorBufferInfo> infos(d.bindings.size());
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < d.bindings.size(); ++i) {
      const Binding& b = d.bindings[i];
      const uint64_t size = buffers[b.buffer].size();
      const uint64_t alignment = b.type == DescriptorType::StorageBuffer ? m.limits.minStorageBufferOffsetAlignment
                                                                         : m.limits.minUniformBufferOffsetAlignment;
      if (alignment && b.offset % alignment)
        throw Error("a descriptor at set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                    " starts at byte " + std::to_string(b.offset) + ", which is not a multiple of the device's " +
                    (b.type == DescriptorType::StorageBuffer ? "minStorageBufferOffsetAlignment "
                                                             : "minUniformBufferOffsetAlignment ") +
                    std::to_string(alignment));
      infos[i] = {vkBuffers.at(b.buffer), b.offset, b.range.value_or(size > b.offset ? size - b.offset : 0)};
      if (infos[i].range == 0) infos[i].range = VK_WHOLE_SIZE;
      auto w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      w.dstSet = sets[b.set];
      w.dstBinding = b.binding;
      w.dstArrayElement = b.arrayElement;
      w.descriptorCount = 1;
      w.descriptorType = b.type == DescriptorType::StorageBuffer ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                                 : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      w.pBufferInfo = &infos[i];
      writes.push_back(w);
    }
    vkUpdateDescriptorSets(dev, uint32_t(writes.size()), writes.data(), 0, nullptr);
  }

  auto cai = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cai.commandPool = m.commandPool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(dev, &cai, &cb), "vkAllocateCommandBuffers");
  const VkCommandPool commandPool = m.commandPool;
  cleanup.steps.push_back([dev, commandPool, cb] { vkFreeCommandBuffers(dev, commandPool, 1, &cb); });
  auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (setCount)
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, setCount, sets.data(), 0, nullptr);
  if (push.size)
    vkCmdPushConstants(cb, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push.size, buffers[*d.pushConstants].data());
  vkCmdDispatch(cb, d.groups[0], d.groups[1], d.groups[2]);
  // Vulkan §7.9 [external] Host Write Ordering Guarantees, §7.6 [external] Pipeline Barriers: the shader's writes are made
  // available to the host before the fence signals.
  auto barrier = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
  check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");

  auto fi = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(dev, &fi, nullptr, &fence), "vkCreateFence");
  cleanup.steps.push_back([dev, fence] { vkDestroyFence(dev, fence, nullptr); });
  auto submit = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  check(vkQueueSubmit(m.queue, 1, &submit, fence), "vkQueueSubmit");
  constexpr uint64_t kTimeoutNs = 60ull * 1000 * 1000 * 1000;
  check(vkWaitForFences(dev, 1, &fence, VK_TRUE, kTimeoutNs), "vkWaitForFences (60 s)");

  for (size_t i : used)
    if (!buffers[i].empty()) std::memcpy(buffers[i].data(), mapped.at(i), buffers[i].size());
}

}  // namespace clref::vulkan
