// host::Device and host::DeviceQueue (host.hpp): a device's configuration and default device queue, and the device
// queues kernels enqueue to.
#include "host/host.hpp"

#include <atomic>

#include "interpreter/executor.hpp"

namespace clref::host {

Device::Device(DeviceConfig config) : config_(std::move(config)) {
  if (config_.addressBits != 32 && config_.addressBits != 64) throw Error("addressBits must be 32 or 64");
}

void Device::setDefaultQueue(std::shared_ptr<DeviceQueue> queue) {
  if (queue && !config_.deviceEnqueue) throw Error("the device has device-side enqueue off: it has no device queues");
  *defaultQueue_ = std::move(queue);
}

static_assert(kDeviceQueuePreferredSize == interpreter::kDeviceQueuePreferredSize &&
              kDeviceQueueMaxSize == interpreter::kDeviceQueueMaxSize &&
              kMaxOnDeviceQueues == interpreter::kMaxOnDeviceQueues &&
              kMaxNamedBarriers == interpreter::kMaxNamedBarriers &&
              kMaxOnDeviceEvents == interpreter::kMaxOnDeviceEvents);


namespace {
// Ids are never reused, so a kernel's queue_t value names one queue for the life of the process.
std::atomic<uint64_t> nextDeviceQueueId{1};
}  // namespace

DeviceQueue::DeviceQueue(uint64_t size, bool profiling) : id_(nextDeviceQueueId++), size_(size), profiling_(profiling) {
  // OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
  if (size > kDeviceQueueMaxSize)
    throw Error("a device queue of " + std::to_string(size) + " bytes is larger than the device's maximum, " +
                std::to_string(kDeviceQueueMaxSize) + " bytes");
}

}  // namespace clref::host
