// A shader case (golden/README.md "Shader cases") run on a real Vulkan device (layer/vulkan/compute_device.hpp): its
// buffers bound at their descriptor sets and bindings, its push and specialization constants, its dispatch — what
// `clref check CASE.json --device [NAME]` judges instead of buffers read from files.
#pragma once
#include <cstdint>
#include <vector>

#include "check/check.hpp"
#include "cli/case_file.hpp"

namespace clref::vulkan {
class ComputeDevice;
}

namespace clref::cli {

// Runs prepared case `p` (of case `c`, a compute shader) on `device` with the inputs its arguments hold now, and
// returns the contents the device left in each of the case's output buffers. `plantEvery` nonzero: a wrong device
// (host/planted_errors.hpp), element i of each output changed for i a multiple of it. Throws CaseError for a case
// that is not a shader, vulkan::Error when the device cannot run it.
std::vector<host::ObservedBuffer> runOnVulkanDevice(const Case& c, PreparedCase& p, vulkan::ComputeDevice& device,
                                                    uint64_t plantEvery = 0);

}  // namespace clref::cli
