// The SPIR-V fuzz targets' execution (run_module.hpp).
#include "run_module.hpp"

#include <cstring>
#include <memory>
#include <string>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

namespace clref_fuzz {

using namespace clref;

namespace {

// Small enough that every input finishes in milliseconds, large enough for loops, barriers and faults to happen.
constexpr uint64_t kInstructionBudget = 20000;
constexpr size_t kBufferBytes = 256;
constexpr size_t kLocalBytes = 64;
constexpr size_t kMaxValueBytes = 1024;  // CL_DEVICE_MAX_PARAMETER_SIZE of the OpenCL API

host::DeviceConfig fuzzDevice() {
  host::DeviceConfig c;
  c.threads = 1;  // findings reproduce from one input
  c.instructionBudget = kInstructionBudget;
  return c;
}

// A small image of the parameter's type: RGBA UNORM_INT8 (CL_DEPTH FLOAT for depth images), 4 × 4, 2 layers.
std::shared_ptr<host::Image> imageFor(const host::KernelArgInfo& info) {
  images::ImageDesc d;
  d.type = info.imageType;
  d.format = info.depth ? images::ImageFormat{images::ChannelOrder::Depth, images::ChannelType::Float}
                        : images::ImageFormat{images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  d.width = 4;
  d.height = 4;
  d.depth = 4;
  d.arraySize = 2;
  if (d.type == images::ImageType::Image1DBuffer)
    return host::Image::fromBuffer(std::make_shared<host::Buffer>(64), d);
  return std::make_shared<host::Image>(d);
}

// Binds every argument; false when one cannot be bound (a by-value argument larger than the API allows).
bool bindArguments(host::Kernel& k) {
  for (size_t i = 0; i < k.argCount(); ++i) {
    const auto& info = k.argInfo(i);
    switch (info.kind) {
      case host::ArgKind::Buffer: {
        auto b = std::make_shared<host::Buffer>(kBufferBytes);
        for (size_t j = 0; j < kBufferBytes; ++j) b->data()[j] = std::byte(j * 37 + 11);
        k.setArg(i, b);
        break;
      }
      case host::ArgKind::Local: k.setArgLocal(i, kLocalBytes); break;
      case host::ArgKind::Value: {
        if (info.size > kMaxValueBytes) return false;
        std::vector<uint8_t> v(info.size);
        for (size_t j = 0; j < v.size(); ++j) v[j] = uint8_t(j + 1);
        k.setArgValue(i, v.data(), v.size());
        break;
      }
      case host::ArgKind::Image: k.setArg(i, imageFor(info)); break;
      case host::ArgKind::Sampler: k.setArgSampler(i, host::Sampler{}); break;
      case host::ArgKind::Pipe: k.setArg(i, std::make_shared<host::Pipe>(uint32_t(16), uint32_t(64))); break;
      case host::ArgKind::Queue: k.setArg(i, std::make_shared<host::DeviceQueue>()); break;
    }
  }
  return true;
}

}  // namespace

std::vector<uint32_t> wordsOf(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  return words;
}

void runModule(const uint8_t* data, size_t size) {
  const host::Device device(fuzzDevice());
  std::shared_ptr<host::Program> program;
  try {
    program = host::Program::fromSpirv(device, wordsOf(data, size));
  } catch (const interpreter::ModuleError&) { return; }
  for (const auto& name : program->kernelNames()) {
    try {
      host::Kernel k(program, name);
      if (!bindArguments(k)) continue;
      // Two work-groups of 2 × 2, or of the kernel's required size when it has a small one.
      host::NDRange r;
      r.dims = 3;
      std::array<size_t, 3> local{2, 2, 1};
      if (const auto req = program->info().requiredLocalSize(name)) {
        if (uint64_t((*req)[0]) * (*req)[1] * (*req)[2] > 64) continue;
        local = {(*req)[0], (*req)[1], (*req)[2]};
      }
      r.global = {local[0] * 2, local[1], local[2]};
      r.local = local;
      (void)k.run(r);
    } catch (const interpreter::ModuleError&) {
    } catch (const host::Error&) {
    }
  }
}

}  // namespace clref_fuzz
