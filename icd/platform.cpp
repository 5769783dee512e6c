// OpenCL 3.0 API §4.1 [[_querying_platform_info]] Querying Platform Info, §4.2 [[platform-querying-devices]] Querying
// Devices, §4.2 [[platform-querying-devices]] host timers (clGetDeviceAndHostTimer/clGetHostTimer). Partitioning a
// device: device_partition.cpp.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "icd/device_info.hpp"
#include "icd/objects.hpp"

using namespace clref::cl;

namespace clref::cl {

cl_platform_id thePlatform() {
  static _cl_platform_id* p = [] {
    auto* q = new _cl_platform_id();
    registerObject(q);
    return q;
  }();
  return p;
}

namespace {
// The registry's choices for programs that run unmodified through the ICD: CLREF_CHOICES holds
// name=option assignments separated by commas or spaces (`clref choices` lists them). A bad
// assignment is reported on stderr and left out; the others still apply.
void applyChoicesFromEnvironment(host::DeviceConfig& config) {
  const char* text = std::getenv("CLREF_CHOICES");
  if (!text) return;
  std::string all(text);
  std::replace(all.begin(), all.end(), ',', ' ');
  std::istringstream in(all);
  for (std::string assignment; in >> assignment;) {
    try {
      config.choices.set(assignment);
    } catch (const std::invalid_argument& e) { std::fprintf(stderr, "clref: CLREF_CHOICES: %s; ignored\n", e.what()); }
  }
}

// CLREF_CHECKS: the optional checkers (races, uninitialized, all; `clref run --check` takes the same names) for
// programs that run unmodified through the ICD; CLREF_CHECKS_FATAL=0 reports their findings without failing the
// command. An unknown name is reported on stderr and the variable ignored.
void applyChecksFromEnvironment(host::DeviceConfig& config) {
  if (const char* text = std::getenv("CLREF_CHECKS")) {
    try {
      config.checks = clref::interpreter::parseChecks(text);
    } catch (const std::invalid_argument& e) { std::fprintf(stderr, "clref: CLREF_CHECKS: %s; ignored\n", e.what()); }
  }
  const char* fatal = std::getenv("CLREF_CHECKS_FATAL");
  config.checksFatal = !(fatal && std::string_view(fatal) == "0");
}

// CLREF_BUDGET (instructions per work-item before a runaway-loop fault) and CLREF_THREADS (worker threads) for
// programs that run unmodified through the ICD, as `clref run --budget` and `--threads` set them for case files.
// A value that is not a whole number in range is reported on stderr and ignored.
void applyLimitsFromEnvironment(host::DeviceConfig& config) {
  auto number = [](const char* name, uint64_t max, uint64_t& out) {
    const char* text = std::getenv(name);
    if (!text || !*text) return false;
    const std::string_view v(text);
    uint64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n == 0 || n > max) {
      std::fprintf(stderr, "clref: %s=%.40s is not a whole number from 1 to %llu; ignored\n", name, text,
                   static_cast<unsigned long long>(max));
      return false;
    }
    out = n;
    return true;
  };
  uint64_t n = 0;
  if (number("CLREF_BUDGET", UINT64_MAX, n)) config.instructionBudget = n;
  if (number("CLREF_THREADS", 1024, n)) config.threads = unsigned(n);
  // CLREF_PLANT_ERRORS=K: a wrong device for testing tools that judge devices (DeviceConfig::plantErrors).
  if (number("CLREF_PLANT_ERRORS", UINT64_MAX, n)) config.plantErrors = n;
}

// CLREF_DEVICE_ENQUEUE=0: a device without device-side enqueue (DeviceConfig::deviceEnqueue), as OpenCL 3.0 allows
// (OpenCL 3.0 API §H.3 [[_device_side_enqueue]]): no device queues and no __opencl_c_device_enqueue; 1 (the default)
// has them. Any other value is reported on stderr and ignored.
void applyFeaturesFromEnvironment(host::DeviceConfig& config) {
  const char* text = std::getenv("CLREF_DEVICE_ENQUEUE");
  if (!text) return;
  const std::string_view v(text);
  if (v == "0" || v == "1")
    config.deviceEnqueue = v == "1";
  else
    std::fprintf(stderr, "clref: CLREF_DEVICE_ENQUEUE=%.40s is not 0 or 1; ignored\n", text);
}
}  // namespace

bool logChannel(std::string_view channel) {
  static const std::vector<std::string> channels = [] {
    std::vector<std::string> out;
    const char* text = std::getenv("CLREF_LOG");
    if (!text) return out;
    std::string all(text);
    std::replace(all.begin(), all.end(), ',', ' ');
    std::istringstream in(all);
    for (std::string c; in >> c;) {
      if (c != "choices" && c != "api")
        std::fprintf(stderr, "clref: CLREF_LOG: unknown channel '%s' (known: choices, api); ignored\n", c.c_str());
      out.push_back(c);
    }
    return out;
  }();
  return std::find(channels.begin(), channels.end(), channel) != channels.end();
}

cl_device_id theDevice() {
  static _cl_device_id* d = [] {
    auto* q = new _cl_device_id();
    applyChoicesFromEnvironment(q->device.config());
    applyLimitsFromEnvironment(q->device.config());
    applyChecksFromEnvironment(q->device.config());
    applyFeaturesFromEnvironment(q->device.config());
    q->extensions = clref::host::openCLCExtensions(q->device.config());
    const unsigned threads = q->device.config().threads;
    q->computeUnits = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    // The images module builds its list of formats at its first use: build it now, so that clGetSupportedImageFormats
    // allocates nothing.
    (void)clref::images::allFormats();
    (void)clref::images::allFormats(clref::images::PaddedLayout::Api12);
    registerObject(q);
    return q;
  }();
  return d;
}

const char* kPlatformExtensions = "cl_khr_icd cl_khr_il_program";

}  // namespace clref::cl

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) try {
  ApiLock lock;
  // OpenCL 3.0 API §4.1 [[_querying_platform_info]] clGetPlatformIDs: CL_INVALID_VALUE if num_entries is 0 and
  // platforms is not NULL, or if both num_platforms and platforms are NULL.
  if (num_entries == 0 && platforms)
    return apiError(__func__, CL_INVALID_VALUE, "num_entries is 0 and platforms is not NULL");
  if (!num_platforms && !platforms)
    return apiError(__func__, CL_INVALID_VALUE, "num_platforms and platforms are both NULL");
  if (platforms) platforms[0] = thePlatform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §4.1 [[_querying_platform_info]] clGetPlatformInfo: platform may be NULL (implementation-defined:
  // clref's one platform); CL_INVALID_PLATFORM if platform is not a valid platform.
  if (platform && !validPlatform(platform))
    return apiError(__func__, CL_INVALID_PLATFORM, "platform {} is not a valid platform", platform);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  switch (param_name) {
    case CL_PLATFORM_PROFILE: return out("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out("OpenCL 3.0 clref");
    case CL_PLATFORM_NUMERIC_VERSION: return out(cl_version(CL_MAKE_VERSION(3, 0, 0)));
    case CL_PLATFORM_NAME: return out("clref");
    case CL_PLATFORM_VENDOR: return out("clref");
    case CL_PLATFORM_EXTENSIONS: return out(kPlatformExtensions);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return out(platformExtensionsWithVersion());
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out(cl_ulong(1));  // steady_clock, nanoseconds
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out("clref");
    // OpenCL 3.0 API §4.1 [[_querying_platform_info]]: param_name is not one of the supported values
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no platform query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                               cl_device_id* devices, cl_uint* num_devices) try {
  ApiLock lock;
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] clGetDeviceIDs
  if (platform && !validPlatform(platform))  // NULL: implementation-defined, the clref platform
    return apiError(__func__, CL_INVALID_PLATFORM, "platform {} is not a valid platform", platform);
  constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  // CL_INVALID_DEVICE_TYPE if device_type is not a valid value
  // (0 selects no type at all: not a valid value).
  if (device_type == 0 || (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known)))
    return apiError(__func__, CL_INVALID_DEVICE_TYPE,
                    "device_type {} is no combination of CL_DEVICE_TYPE_DEFAULT, _CPU, _GPU, _ACCELERATOR, _CUSTOM "
                    "and not CL_DEVICE_TYPE_ALL",
                    hex(device_type));
  // CL_INVALID_VALUE if num_entries is 0 and devices is not NULL, or both num_devices and devices are NULL
  if (num_entries == 0 && devices)
    return apiError(__func__, CL_INVALID_VALUE, "num_entries is 0 and devices is not NULL");
  if (!num_devices && !devices) return apiError(__func__, CL_INVALID_VALUE, "num_devices and devices are both NULL");
  const bool match = device_type == CL_DEVICE_TYPE_ALL || (device_type & (CL_DEVICE_TYPE_DEFAULT | kDeviceType));
  // CL_DEVICE_NOT_FOUND if no devices that matched device_type were found
  if (!match) {
    if (num_devices) *num_devices = 0;
    return apiError(__func__, CL_DEVICE_NOT_FOUND,
                    "device_type {} matches no device (the one device is CL_DEVICE_TYPE_ACCELERATOR, and the default)",
                    hex(device_type));
  }
  if (devices) devices[0] = theDevice();
  if (num_devices) *num_devices = 1;
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]] clGetDeviceInfo
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  return deviceInfo(device, param_name,
                    InfoOut{param_value_size, param_value, param_value_size_ret, __func__, param_name});
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §4.2 [[platform-querying-devices]] clGetDeviceAndHostTimer / clGetHostTimer: device and host share one
// clock (steady_clock), the clock of the profiling timestamps.
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                                        cl_ulong* host_timestamp) try {
  ApiLock lock;
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  // CL_INVALID_VALUE if either is NULL
  if (!device_timestamp) return apiError(__func__, CL_INVALID_VALUE, "device_timestamp is NULL");
  if (!host_timestamp) return apiError(__func__, CL_INVALID_VALUE, "host_timestamp is NULL");
  *device_timestamp = *host_timestamp = nowNs();
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) try {
  ApiLock lock;
  if (!validDevice(device)) return apiError(__func__, CL_INVALID_DEVICE, "device {} is not a valid device", device);
  if (!host_timestamp) return apiError(__func__, CL_INVALID_VALUE, "host_timestamp is NULL");
  *host_timestamp = nowNs();
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

// OpenCL 3.0 API §5.8.8 [[_unloading_the_opencl_compiler]] clUnloadCompiler (1.1) / clUnloadPlatformCompiler: a hint;
// the compiler is an external process, nothing is loaded.
CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }
CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) try {
  ApiLock lock;
  if (!validPlatform(platform))
    return apiError(__func__, CL_INVALID_PLATFORM, "platform {} is not a valid platform", platform);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
