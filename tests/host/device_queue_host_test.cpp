// Device queues in the C++ host API (host/host.hpp): host::DeviceQueue, the device's default device queue, queue_t
// arguments, the switch DeviceConfig::deviceEnqueue and what it does to the OpenCL C compiler. Kernels that enqueue
// kernels are not run here (the interpreter's side).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "host/host.hpp"
#include "interpreter/module.hpp"

using namespace clref;

namespace {

bool hasFeature(const host::DeviceConfig& cfg, const std::string& name) {
  const auto v = host::openCLCFeatures(cfg);
  return std::find(v.begin(), v.end(), name) != v.end();
}

// Every built-in and type of OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]] the host side must let through: blocks,
// ndrange_t, queue_t arguments and get_default_queue, clk_event_t and the event functions.
const char* kEnqueueSource = R"CL(
kernel void parent(global int* out, queue_t q) {
  clk_event_t done;
  ndrange_t range = ndrange_1D(4);
  int e = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, range, 0, NULL, &done,
                         ^{ out[get_global_id(0)] = 1; });
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, range,
                 ^(local void* scratch) { ((local int*)scratch)[0] = 2; out[0] += 1; }, 16u);
  release_event(done);
  if (e != CLK_SUCCESS) out[1] = e;
}
)CL";

}  // namespace

TEST_CASE("host::DeviceQueue: the preferred size unless given, at most the maximum, ids of its own",
          "[host][device_queue]") {
  // OpenCL 3.0 API §5.1 [[_command_queues]] CL_QUEUE_SIZE: CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE when not specified;
  // "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
  const host::DeviceQueue a;
  CHECK(a.size() == host::kDeviceQueuePreferredSize);
  CHECK(!a.profiling());
  const host::DeviceQueue b(host::kDeviceQueueMaxSize, true);
  CHECK(b.size() == host::kDeviceQueueMaxSize);
  CHECK(b.profiling());
  CHECK(a.id() != b.id());
  CHECK_THROWS_AS(host::DeviceQueue(host::kDeviceQueueMaxSize + 1), host::Error);
  // OpenCL 3.0 API §4.2 [[platform-querying-devices]]: the minimums of a full-profile device with device queues.
  CHECK(host::kDeviceQueuePreferredSize >= 16 * 1024);
  CHECK(host::kDeviceQueueMaxSize >= 256 * 1024);
  CHECK(host::kMaxOnDeviceQueues >= 1);
  CHECK(host::kMaxOnDeviceEvents >= 1024);
}

TEST_CASE("host::Device: the default device queue reaches the programs built before it", "[host][device_queue]") {
  host::Device device;
  CHECK(device.defaultQueue() == nullptr);
  auto program = host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/vadd.O2.spv");
  auto q = std::make_shared<host::DeviceQueue>();
  device.setDefaultQueue(q);
  CHECK(device.defaultQueue() == q);
  CHECK(program->device().defaultQueue() == q);  // the program's copy of the device shares it
  device.setDefaultQueue(nullptr);
  CHECK(program->device().defaultQueue() == nullptr);
  // A device with device-side enqueue off has no device queues.
  host::DeviceConfig off;
  off.deviceEnqueue = false;
  host::Device without(off);
  CHECK_THROWS_AS(without.setDefaultQueue(q), host::Error);
  CHECK_NOTHROW(without.setDefaultQueue(nullptr));
  host::Kernel k(host::Program::fromSpirvFile(without, CLREF_GOLDEN_DIR "/spv/vadd.O2.spv"), "vadd");
  CHECK_THROWS_AS(k.setDefaultQueue(q), host::Error);
}

TEST_CASE("host::Kernel: a device queue is no argument of another kind", "[host][device_queue]") {
  host::Device device;
  host::Kernel k(host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/vadd.O2.spv"), "vadd");
  try {
    k.setArg(0, std::make_shared<host::DeviceQueue>());
    FAIL("no host::Error");
  } catch (const host::Error& e) { CHECK(std::string(e.what()).find("not a device queue") != std::string::npos); }
}

TEST_CASE("openCLCFeatures: __opencl_c_device_enqueue follows DeviceConfig::deviceEnqueue", "[host][device_queue]") {
  host::DeviceConfig cfg;
  CHECK(cfg.deviceEnqueue);
  CHECK(hasFeature(cfg, "__opencl_c_device_enqueue"));
  // OpenCL C 3.0 §6.2.1 [[features]]: it must come with the generic address space and program-scope global variables.
  CHECK(hasFeature(cfg, "__opencl_c_generic_address_space"));
  CHECK(hasFeature(cfg, "__opencl_c_program_scope_global_variables"));
  cfg.deviceEnqueue = false;
  CHECK(!hasFeature(cfg, "__opencl_c_device_enqueue"));
  CHECK(hasFeature(cfg, "__opencl_c_generic_address_space"));
}

TEST_CASE("OpenCL C 3.0 with enqueue_kernel, blocks, ndrange_t and clk_event_t compiles", "[host][device_queue]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("no OpenCL C compiler: not tested");
    return;
  }
  host::Device device;
  std::shared_ptr<host::Program> program;
  try {
    program = host::Program::fromOpenCLC(device, kEnqueueSource, "-cl-std=CL3.0");
    const auto names = program->kernelNames();
    CHECK(std::find(names.begin(), names.end(), "parent") != names.end());
  } catch (const interpreter::ModuleError& e) {
    // Compiled (clang and llvm-spirv succeeded); the module is refused only because the interpreter does not execute
    // DeviceEnqueue yet.
    CHECK(std::string(e.what()).find("DeviceEnqueue") != std::string::npos);
  }
  // Without the feature, OpenCL C 3.0 has none of it: a compile error.
  host::DeviceConfig off;
  off.deviceEnqueue = false;
  CHECK_THROWS_AS(host::Program::fromOpenCLC(host::Device(off), kEnqueueSource, "-cl-std=CL3.0"), host::Error);
  // And a device without it refuses a module that declares DeviceEnqueue.
  if (program) {
    try {
      host::Program::fromSpirv(host::Device(off), program->spirv());
      FAIL("a DeviceEnqueue module on a device without device-side enqueue");
    } catch (const interpreter::ModuleError& e) {
      CHECK(std::string(e.what()).find("the device has it off") != std::string::npos);
    }
  }
}

TEST_CASE("host::Kernel: a queue_t argument takes a device queue and must be set", "[host][device_queue]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("no OpenCL C compiler: not tested");
    return;
  }
  host::Device device;
  std::shared_ptr<host::Program> program;
  try {
    program = host::Program::fromOpenCLC(device, "kernel void k(queue_t q, global int* out) { out[0] = 1; }",
                                         "-cl-std=CL3.0");
  } catch (const interpreter::ModuleError& e) {
    CHECK(std::string(e.what()).find("DeviceEnqueue") != std::string::npos);
    WARN("a kernel with a queue_t parameter does not build yet (the interpreter's DeviceEnqueue): not tested");
    return;
  }
  host::Kernel k(program, "k");
  CHECK(k.argInfo(0).kind == host::ArgKind::Queue);
  CHECK(k.argInfo(0).typeName == "queue_t");
  auto out = std::make_shared<host::Buffer>(4);
  k.setArg(1, out);
  host::NDRange r;
  CHECK_THROWS_AS(k.run(r), host::Error);  // argument 0 is not set
  CHECK_THROWS_AS(k.setArg(0, std::shared_ptr<host::DeviceQueue>()), host::Error);
  CHECK_THROWS_AS(k.setArg(0, out), host::Error);  // a buffer is no queue
  k.setArg(0, std::make_shared<host::DeviceQueue>());
  REQUIRE(k.run(r).ok);
  CHECK(out->as<int32_t>()[0] == 1);
}
