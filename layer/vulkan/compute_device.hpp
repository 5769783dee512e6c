// A real Vulkan device, driven through the system's loader (libvulkan) to run one compute dispatch at a time: what
// `clref amber --device` needs to run a script's pipelines on another implementation and judge its buffers against
// clref's allowed sets (check/check.hpp). Nothing here knows clref: the dispatch is SPIR-V words, byte buffers,
// descriptor bindings, specialization and push constants, as a Vulkan application gives them.
//
// Each dispatch creates its own buffers, pipeline and descriptor sets, copies the host's bytes in, records and submits
// one command buffer, waits for it and copies every buffer back: slow and simple, which is what a judge needs.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clref::vulkan {

// Vulkan failed, or the device cannot do what was asked (the message says which call or which missing feature).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the device reports and the judge uses: its identity, its subgroup size, and its float controls per width
// (index 0: 16-bit, 1: 32-bit, 2: 64-bit), Vulkan §47.1 [external] VkPhysicalDeviceFloatControlsProperties.
struct DeviceInfo {
  std::string name, driverName, driverInfo;
  uint32_t apiVersion = 0, driverVersion = 0, vendorId = 0, deviceId = 0;
  uint32_t subgroupSize = 0, minSubgroupSize = 0, maxSubgroupSize = 0;
  std::array<bool, 3> denormPreserve{}, denormFlushToZero{}, roundingModeRTE{}, roundingModeRTZ{},
      signedZeroInfNanPreserve{};
  // "llvmpipe (LLVM 15.0.6, 256 bits), driver llvmpipe (Mesa 22.3.6 (LLVM 15.0.6)), Vulkan 1.3.230"
  std::string describe() const;
  std::string apiVersionText() const;  // "1.3.230"
};

enum class DescriptorType : uint8_t { StorageBuffer, UniformBuffer };

// A descriptor: buffer `buffer` (an index into the dispatch's buffers) from byte `offset`, `range` bytes (none: to its
// end), at (set, binding) and, in an array of descriptors, at `arrayElement` (the binding's descriptorCount is its
// largest arrayElement + 1).
struct Binding {
  uint32_t set = 0, binding = 0;
  DescriptorType type = DescriptorType::StorageBuffer;
  size_t buffer = 0;
  uint64_t offset = 0;
  std::optional<uint64_t> range;
  uint32_t arrayElement = 0;
};

struct SpecConstant {
  uint32_t id = 0;
  std::vector<uint8_t> bytes;  // 4 or 8 bytes, as the constant's type stores it
};

struct Dispatch {
  std::vector<uint32_t> spirv;
  std::string entryPoint = "main";
  std::vector<SpecConstant> specConstants;
  std::vector<Binding> bindings;
  std::optional<size_t> pushConstants;  // the buffer whose bytes are the push constants
  std::array<uint32_t, 3> groups{1, 1, 1};
  // VK_EXT_subgroup_size_control (core in Vulkan 1.3): a required subgroup size, full subgroups, a varying size.
  std::optional<uint32_t> requiredSubgroupSize;
  bool fullSubgroups = false, varyingSubgroupSize = false;
};

class ComputeDevice {
 public:
  // The names of the physical devices the loader finds (empty when there is no loader or no device).
  static std::vector<std::string> deviceNames();

  // Opens the first physical device whose name contains `nameSubstring` (case-insensitive; empty: the first device)
  // with every core feature it supports and the device extensions named (each must be supported). Throws Error.
  explicit ComputeDevice(const std::string& nameSubstring, const std::vector<std::string>& extensions = {});
  ~ComputeDevice();
  ComputeDevice(const ComputeDevice&) = delete;
  ComputeDevice& operator=(const ComputeDevice&) = delete;

  const DeviceInfo& info() const;
  // Whether the device has the core feature named as amber names it ("Float16Int8Features.shaderFloat16",
  // "shaderInt64", "VulkanMemoryModelFeatures.vulkanMemoryModel", …); false for names it does not know.
  bool hasFeature(const std::string& amberName) const;

  // What the device lacks to run entry point `entryPoint` of the SPIR-V module `spirv`: "" when nothing, else which
  // SPIR-V extension the module declares and which device extension (or Vulkan version) that needs, Vulkan §A.1
  // [external] (the SPIR-V extensions and the Vulkan extensions or versions that allow them), or which float-controls
  // execution mode the entry point declares that the device does not report.
  std::string missingFor(const std::vector<uint32_t>& spirv, const std::string& entryPoint) const;

  // Runs `d` with `buffers` as its buffers' contents; on return they hold the contents after the dispatch. Throws
  // Error (then `buffers` are unchanged).
  void run(const Dispatch& d, std::vector<std::vector<uint8_t>>& buffers);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clref::vulkan
