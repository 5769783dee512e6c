// OpenCL 3.0 API §4.3 [[platform-device-partitioning]] Partitioning a Device: clCreateSubDevices, clRetainDevice,
// clReleaseDevice. A compute unit is a worker thread of the interpreter (objects.hpp, _cl_device_id): a sub-device
// owns some of its parent's threads and runs launches on that many. Partitions are equal or by counts; there is no
// cache hierarchy to split by affinity domain (CL_DEVICE_PARTITION_AFFINITY_DOMAIN is 0).
#include <algorithm>
#include <memory>
#include <vector>

#include "icd/device_info.hpp"
#include "icd/objects.hpp"

using namespace clref::cl;

namespace clref::cl {

std::vector<cl_device_partition_property> partitionProperties(cl_device_id device) {
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] CL_DEVICE_PARTITION_PROPERTIES: {0} when "there is no
  // partitioning scheme supported by the device that will return at least two subdevices".
  if (device->computeUnits < 2) return {0};
  return {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
}

cl_uint maxSubDevices(cl_device_id device) { return device->computeUnits < 2 ? 0 : device->computeUnits; }

namespace {

// A partition request, read from clCreateSubDevices' properties: the compute units of each sub-device, and the
// properties themselves up to their terminating 0 (CL_DEVICE_PARTITION_TYPE of each sub-device).
struct Partition {
  std::vector<cl_uint> units;
  std::vector<cl_device_partition_property> properties;
};

cl_int readPartition(const char* fn, cl_device_id device, const cl_device_partition_property* properties,
                     Partition& p) {
  if (!properties) return apiError(fn, CL_INVALID_VALUE, "properties is NULL");
  const cl_device_partition_property name = properties[0];
  const auto supported = partitionProperties(device);
  const bool known = name == CL_DEVICE_PARTITION_EQUALLY || name == CL_DEVICE_PARTITION_BY_COUNTS ||
                     name == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
  // CL_INVALID_VALUE if values specified in properties are not valid, or valid but not supported by in_device
  if (!known)
    return apiError(fn, CL_INVALID_VALUE,
                    "properties[0] is {}, not CL_DEVICE_PARTITION_EQUALLY, _BY_COUNTS or _BY_AFFINITY_DOMAIN",
                    hex(name));
  if (std::find(supported.begin(), supported.end(), name) == supported.end())
    return apiError(fn, CL_INVALID_VALUE,
                    "properties[0] is {}, a scheme device {} does not support (CL_DEVICE_PARTITION_PROPERTIES: {} "
                    "compute units can be split equally or by counts, never by affinity domain)",
                    hex(name), device, device->computeUnits);
  const cl_uint cu = device->computeUnits;
  size_t at = 1;
  if (name == CL_DEVICE_PARTITION_EQUALLY) {
    const cl_device_partition_property n = properties[at++];
    if (n <= 0)
      return apiError(fn, CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY asks for {} compute units per sub-device", n);
    // "as many smaller aggregate devices as can be created, each containing n compute units": n above the device's
    // is CL_INVALID_DEVICE_PARTITION_COUNT, "the total number of compute units requested exceeds
    // CL_DEVICE_MAX_COMPUTE_UNITS" (the CTS's negative_create_sub_devices expects that one of the two that apply).
    if (cl_ulong(n) > cu)
      return apiError(fn, CL_INVALID_DEVICE_PARTITION_COUNT,
                      "CL_DEVICE_PARTITION_EQUALLY asks for sub-devices of {} compute units, and device {} has {}", n,
                      device, cu);
    // One sub-device of all the device's compute units is the device again, not a further partition
    // (CL_DEVICE_PARTITION_FAILED: "in_device could not be further partitioned"; the CTS's
    // negative_create_sub_devices).
    if (cl_ulong(n) == cu)
      return apiError(fn, CL_DEVICE_PARTITION_FAILED,
                      "CL_DEVICE_PARTITION_EQUALLY asks for sub-devices of {} compute units, all of device {}'s: that "
                      "is no further partition",
                      n, device);
    p.units.assign(cu / cl_uint(n), cl_uint(n));
  } else {  // CL_DEVICE_PARTITION_BY_COUNTS: counts up to CL_DEVICE_PARTITION_BY_COUNTS_LIST_END (0)
    cl_ulong total = 0;
    for (cl_device_partition_property m; (m = properties[at++]) != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;) {
      // CL_INVALID_DEVICE_PARTITION_COUNT if a count is less than zero, the sub-devices exceed
      // CL_DEVICE_PARTITION_MAX_SUB_DEVICES, or the compute units requested exceed CL_DEVICE_MAX_COMPUTE_UNITS
      if (m < 0)
        return apiError(fn, CL_INVALID_DEVICE_PARTITION_COUNT,
                        "CL_DEVICE_PARTITION_BY_COUNTS asks for {} compute units (properties[{}])", m, at - 1);
      if (cl_ulong(m) > cu || (total += cl_ulong(m)) > cu)
        return apiError(fn, CL_INVALID_DEVICE_PARTITION_COUNT,
                        "CL_DEVICE_PARTITION_BY_COUNTS asks for more compute units than device {} has ({})", device,
                        cu);
      p.units.push_back(cl_uint(m));
      if (p.units.size() > maxSubDevices(device))
        return apiError(fn, CL_INVALID_DEVICE_PARTITION_COUNT,
                        "CL_DEVICE_PARTITION_BY_COUNTS asks for more than CL_DEVICE_PARTITION_MAX_SUB_DEVICES ({}) "
                        "sub-devices",
                        maxSubDevices(device));
    }
    // "For each non-zero count m in the list, a sub-device is created": zeros make none.
    std::erase(p.units, 0u);
    if (p.units.empty())
      return apiError(fn, CL_INVALID_VALUE, "CL_DEVICE_PARTITION_BY_COUNTS lists no non-zero compute unit count");
  }
  // "Only one of the listed partitioning schemes can be specified in properties": the list ends here.
  if (properties[at] != 0)
    return apiError(fn, CL_INVALID_VALUE, "properties[{}] is {}: after one partition scheme the list must end with 0",
                    at, hex(properties[at]));
  p.properties.assign(properties, properties + at + 1);
  return CL_SUCCESS;
}

}  // namespace
}  // namespace clref::cl

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                   const cl_device_partition_property* properties, cl_uint num_devices,
                                                   cl_device_id* out_devices, cl_uint* num_devices_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §4.3 [[platform-device-partitioning]] clCreateSubDevices
  if (!validDevice(in_device))
    return apiError(__func__, CL_INVALID_DEVICE, "in_device {} is not a valid device", in_device);
  Partition p;
  if (cl_int e = readPartition(__func__, in_device, properties, p)) return e;
  const auto count = cl_uint(p.units.size());
  // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less than the number of sub-devices
  if (out_devices && num_devices < count)
    return apiError(__func__, CL_INVALID_VALUE, "num_devices is {}, and the partition makes {} sub-devices",
                    num_devices, count);
  if (out_devices) {
    std::vector<std::unique_ptr<_cl_device_id>> made;
    for (cl_uint units : p.units) {
      auto d = std::make_unique<_cl_device_id>();
      d->device = in_device->device;  // the same configuration; its launches take computeUnits threads (kernel.cpp)
      d->extensions = in_device->extensions;
      d->computeUnits = units;
      d->parent = in_device;
      d->partitionType = p.properties;
      made.push_back(std::move(d));
    }
    // All registered or none (registering may run out of memory): no half-made partition is left behind.
    size_t registered = 0;
    try {
      for (; registered < made.size(); ++registered) registerObject(made[registered].get());
    } catch (...) {
      for (size_t i = 0; i < registered; ++i) unregisterObject(made[i].get());
      throw;
    }
    for (cl_uint i = 0; i < count; ++i) {
      out_devices[i] = made[i].release();
      // A sub-device holds its parent while it lives (the root device is never destroyed).
      if (in_device->isSubDevice()) retainInternal(in_device);
    }
  }
  if (num_devices_ret) *num_devices_ret = count;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §4.3 [[platform-device-partitioning]] clRetainDevice/clReleaseDevice: a sub-device's reference count
// changes; a root-level device is not reference counted (both succeed).
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) try {
  ApiLock lock;
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  if (device->isSubDevice()) retainExternal(device);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) try {
  ApiLock lock;
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  if (device->isSubDevice()) releaseExternal(device);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
