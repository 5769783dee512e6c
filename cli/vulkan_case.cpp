// runOnVulkanDevice (vulkan_case.hpp).
#include "cli/vulkan_case.hpp"

#include "host/planted_errors.hpp"
#include "layer/vulkan/compute_device.hpp"

namespace clref::cli {

std::vector<host::ObservedBuffer> runOnVulkanDevice(const Case& c, PreparedCase& p, vulkan::ComputeDevice& device,
                                                    uint64_t plantEvery) {
  host::Kernel& k = *p.kernel;
  if (!k.isShader() || !c.dispatch) throw CaseError(c.file.string() + ": --device runs compute shader cases only");
  // A shader with PhysicalStorageBuffer64 addressing reads device addresses from its inputs: the case gives clref's
  // (host::Kernel::deviceAddress), which are not the device's vkGetBufferDeviceAddress values, and clref does not
  // rewrite them (an address may be stored anywhere, as any 64-bit value, and be offset), so such a case is not run.
  constexpr uint32_t kOpMemoryModel = 14, kPhysicalStorageBuffer64 = 5348;  // SPIR-V 1.5 §3.32.2 [external], §3.4 [external]
  const auto& words = p.program->spirv();
  for (size_t w = 5; w < words.size() && (words[w] >> 16) != 0; w += words[w] >> 16)
    if ((words[w] & 0xffff) == kOpMemoryModel && w + 1 < words.size() && words[w + 1] == kPhysicalStorageBuffer64)
      throw vulkan::Error(
          "unsupported on a device: the shader uses PhysicalStorageBuffer64 device addresses, and "
          "clref's (in the case's inputs) are not the device's vkGetBufferDeviceAddress values");
  vulkan::Dispatch d;
  d.spirv = p.program->spirv();
  d.entryPoint = c.kernel;
  d.groups = *c.dispatch;
  for (const auto& [id, bytes] : c.specConstants) d.specConstants.push_back({id, bytes});
  // One device buffer per argument, filled with what the argument holds: the case's inputs.
  std::vector<std::vector<uint8_t>> buffers(k.argCount());
  for (size_t i = 0; i < k.argCount(); ++i) {
    const host::KernelArgInfo& info = k.argInfo(i);
    const auto buffer = k.bufferArg(i);
    if (!buffer) continue;
    const auto* bytes = reinterpret_cast<const uint8_t*>(buffer->data());
    buffers[i].assign(bytes, bytes + buffer->size());
    using R = host::KernelArgInfo::Resource;
    if (info.resource == R::PushConstant)
      d.pushConstants = i;
    else if (info.resource == R::StorageBuffer || info.resource == R::UniformBuffer)
      d.bindings.push_back({info.descriptorSet, info.binding,
                            info.resource == R::StorageBuffer ? vulkan::DescriptorType::StorageBuffer
                                                              : vulkan::DescriptorType::UniformBuffer,
                            i, 0, std::nullopt, info.arrayElement});
  }
  if (const std::string missing = device.missingFor(d.spirv, d.entryPoint); !missing.empty())
    throw vulkan::Error("unsupported on this device: " + missing);
  device.run(d, buffers);
  std::vector<host::ObservedBuffer> observed;
  for (const auto& [arg, buffer] : p.outputs) {
    const auto type = c.args[arg].buffer.type;
    if (plantEvery) host::plantScalarErrors(buffers[arg].data(), buffers[arg].size(), std::nullopt, type, plantEvery);
    observed.push_back({arg, type, std::move(buffers[arg])});
  }
  return observed;
}

}  // namespace clref::cli
