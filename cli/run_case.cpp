// Running a case on the host API: the module, spec constants, choices, arguments, NDRange.
#include <algorithm>
#include <cstring>

#include "cli/buffer_init.hpp"
#include "cli/case_file.hpp"
#include "cli/value_syntax.hpp"
#include "compiler/shader_source.hpp"

namespace clref::cli {

namespace {

std::string where(const Case& c, const std::string& field) { return c.file.string() + ": " + field + ": "; }

}  // namespace

std::shared_ptr<host::Program> loadProgram(const Case& c, const host::Device& device) {
  std::string bytes;
  try {
    bytes = detail::readFile(c.module, "module");  // names a directory, a missing or unreadable file
  } catch (const detail::FieldError& e) { throw CaseError(where(c, e.path) + e.message); }
  if (c.module.extension() == ".cl") {
    // OpenCL 3.0 API §5.8.6 [[compiler-options]]: the options clBuildProgram accepts, parsed by the OpenCL API's
    // parser (loadCase checked them; a Case made in code is checked here).
    host::BuildOptions options;
    if (!host::parseBuildOptions(c.buildOptions.c_str(), host::BuildStep::Build, options, {"-O0"}))
      throw CaseError(where(c, "build_options") + detail::shortText(options.rejected) +
                      " is not an OpenCL build option");
    // Diagnostics name the case's .cl file as the case names it and quote its lines.
    return host::Program::fromOpenCLC(device, host::OpenCLCSource{bytes, options.compiler, {}, c.module.string()});
  }
  if (const auto language = compiler::shaderLanguageOf(c.module)) {
    // A Vulkan compute shader; an HLSL one's entry point is the function the case's "kernel" names.
    std::vector<uint32_t> words;
    compiler::ShaderOptions options;
    options.entryPoint = c.kernel;
    try {
      words = compiler::compileShader(*language, bytes, c.module.string(), options);
    } catch (const compiler::Error& e) { throw CaseError(where(c, "module") + e.what()); }
    return host::Program::fromSpirv(device, std::move(words));
  }
  if (bytes.size() % 4 != 0)
    throw CaseError(where(c, "module") + c.module.string() + ": size " + std::to_string(bytes.size()) +
                    " is not a multiple of 4 bytes (a SPIR-V module is 32-bit words)");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return host::Program::fromSpirv(device, std::move(words));
}

namespace {

// An image argument with its initial contents. A 1D image buffer is an image over a buffer of its own (OpenCL 3.0 API
// §5.3.1.2 [[image-descriptor]]: CL_MEM_OBJECT_IMAGE1D_BUFFER takes its storage from a buffer object).
std::shared_ptr<host::Image> makeImage(const Case& c, size_t i, const host::Device& device) {
  const ImageSpec& spec = c.args[i].image;
  const auto field = "args[" + std::to_string(i) + "].image";
  // OpenCL 3.0 API §5.3.1 [[_creating_image_objects]]: CL_INVALID_IMAGE_SIZE beyond the device's limits; clref's one
  // limit on memory objects is CL_DEVICE_MAX_MEM_ALLOC_SIZE, here applied to the storage the image needs.
  const uint64_t limit = device.config().maxMemAllocSize;
  const uint64_t size = imageContentBytes(spec.desc);
  const uint64_t rows = spec.desc.height * std::max(spec.desc.depth, spec.desc.arraySize);
  const uint64_t pitched = std::max(spec.desc.rowPitch * rows, spec.desc.slicePitch * std::max(spec.desc.depth, spec.desc.arraySize));
  if (std::max(size, pitched) > limit)
    throw CaseError(where(c, field) + "the image needs " + std::to_string(std::max(size, pitched)) +
                    " bytes, more than the device's largest memory object (CL_DEVICE_MAX_MEM_ALLOC_SIZE), " +
                    std::to_string(limit) + " bytes");
  const auto contents = materializeImage(c, i);
  std::shared_ptr<host::Image> image;
  try {
    if (spec.desc.type == images::ImageType::Image1DBuffer)
      image = host::Image::fromBuffer(std::make_shared<host::Buffer>(size), spec.desc);
    else
      image = std::make_shared<host::Image>(spec.desc);
    const size_t elementBytes = images::elementSize(spec.desc.format);
    size_t offset = 0;
    for (uint32_t level = 0; level < spec.desc.numMipLevels; ++level) {
      const auto region = imageLevelRegion(spec.desc, level);
      image->write({0, 0, 0}, region, contents.data() + offset, 0, 0, level);
      offset += region[0] * region[1] * region[2] * elementBytes;
    }
  } catch (const host::Error& e) { throw CaseError(where(c, field) + e.what()); }
  return image;
}

// The "address_of" values of buffer argument i (golden/README.md "Device addresses"), written over the zeros applyInit
// left: the device address (host::Kernel::deviceAddress) of the shader's buffer they name plus their offset, at every
// element the values repeat to.
void writeDeviceAddresses(const Case& c, size_t i, const host::Kernel& kernel, std::byte* out) {
  const BufferSpec& spec = c.args[i].buffer;
  if (spec.initJson.empty()) return;
  const auto init = nlohmann::json::parse(spec.initJson);
  if (!init.is_object() || !init.contains("values") || !init["values"].is_array()) return;
  const auto& values = init["values"];
  const std::string path = "args[" + std::to_string(i) + "].buffer.init.values";
  for (size_t k = 0; k < values.size(); ++k) {
    const auto a = detail::addressOf(spec.type, values[k], detail::element(path, k));
    if (!a) continue;
    const std::string field = detail::element(path, k) + ".address_of";
    if (!kernel.isShader()) throw CaseError(where(c, field) + "device addresses are for compute shader cases");
    const auto target = kernel.resourceArg(a->set, a->binding, a->element);
    if (!target)
      throw CaseError(where(c, field) + "the shader declares no buffer at set " + std::to_string(a->set) + " binding " +
                      std::to_string(a->binding) + (a->element ? " element " + std::to_string(a->element) : ""));
    const uint64_t address = kernel.deviceAddress(*target) + a->offset;
    for (size_t e = k; e < spec.count; e += values.size()) std::memcpy(out + 8 * e, &address, 8);
  }
}

// A shader case binds exactly the shader's resources (case_file.cpp sorted them into the host API's order), each a
// buffer.
void checkShaderResources(const Case& c, const host::Kernel& kernel) {
  auto describe = [](const host::KernelArgInfo& info) {
    return info.resource == host::KernelArgInfo::Resource::PushConstant
               ? std::string("the push constants")
               : "set " + std::to_string(info.descriptorSet) + " binding " + std::to_string(info.binding) +
                     (info.descriptorCount ? " element " + std::to_string(info.arrayElement) : "");
  };
  std::string resources;
  for (size_t i = 0; i < kernel.argCount(); ++i)
    resources += (resources.empty() ? "" : "; ") + describe(kernel.argInfo(i)) + " (" + kernel.argInfo(i).typeName +
                 ")";
  if (resources.empty()) resources = "none";
  for (size_t i = 0; i < std::max(c.args.size(), kernel.argCount()); ++i) {
    if (i >= c.args.size())
      throw CaseError(where(c, "args") + "nothing is bound to " + describe(kernel.argInfo(i)) + " of " + c.kernel +
                      " (its resources: " + resources + ")");
    const ArgSpec& a = c.args[i];
    const std::string field = "args[" + std::to_string(i) + "]";
    const std::string given =
        a.pushConstant ? "push constants"
                       : "set " + std::to_string((*a.binding)[0]) + " binding " + std::to_string((*a.binding)[1]) +
                             ((*a.binding)[2] ? " element " + std::to_string((*a.binding)[2]) : "");
    const auto resource = [&] { return kernel.resourceArg((*a.binding)[0], (*a.binding)[1], (*a.binding)[2]); };
    const bool matches =
        i < kernel.argCount() &&
        (a.pushConstant ? kernel.argInfo(i).resource == host::KernelArgInfo::Resource::PushConstant : resource() == i);
    if (!matches) {
      const bool declared = a.pushConstant ? kernel.pushConstantArg().has_value() : resource().has_value();
      throw CaseError(where(c, field) + (declared ? "nothing is bound to " + describe(kernel.argInfo(i))
                                                 : "the shader declares no " + given) +
                      " (" + c.kernel + "'s resources: " + resources + ")");
    }
    if (a.kind != ArgSpec::Kind::Buffer)
      throw CaseError(where(c, field) + "a shader's resource is bound to a buffer (\"buffer\": {...})");
  }
}

}  // namespace

CaseRun runCase(const Case& c, const host::Device& device) {
  PreparedCase p = prepareCase(c, device);
  CaseRun run;
  run.choices = p.choices;
  run.outputs = std::move(p.outputs);
  run.imageOutputs = std::move(p.imageOutputs);
  run.result = p.kernel->run(p.range);
  return run;
}

PreparedCase prepareCase(const Case& c, const host::Device& baseDevice) {
  host::Device device = baseDevice;
  for (size_t i = 0; i < c.choices.size(); ++i) {
    try {
      device.config().choices.set(c.choices[i]);
    } catch (const std::invalid_argument& e) {
      throw CaseError(where(c, "choices[" + std::to_string(i) + "]") + e.what());
    }
  }
  if (c.instructionBudget) device.config().instructionBudget = *c.instructionBudget;
  // Sizes whose product wraps around size_t would launch a different, smaller NDRange: the host API's check (a
  // shader's dispatch: Kernel::dispatch's).
  if (!c.dispatch) try {
    host::checkNDRange(c.range, device.config());
  } catch (const host::NDRangeError& e) {
    using Field = host::NDRangeError::Field;
    const char* field = e.field == Field::Offset  ? "ndrange.offset"
                        : e.field == Field::Local ? "ndrange.local"
                                                  : "ndrange.global";
    throw CaseError(where(c, field) + e.what());
  }
  // OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE when the program
  // requires uniform work-groups and a global size is not a multiple of the local size; a program from OpenCL C
  // before 2.0 (OpenCL 3.0 API §5.8.6.3 [[optimization-options]] -cl-uniform-work-group-size is implied) or built with
  // -cl-uniform-work-group-size requires them. The OpenCL API refuses the same launch (icd/kernel.cpp).
  if (c.range.local) {
    host::BuildOptions options;
    const bool fromSource = c.module.extension() == ".cl";
    if (host::parseBuildOptions(c.buildOptions.c_str(), host::BuildStep::Build, options, {"-O0"}) &&
        (options.uniform || (fromSource && !options.clStd20)))
      for (unsigned d = 0; d < c.range.dims; ++d)
        if ((*c.range.local)[d] && c.range.global[d] % (*c.range.local)[d])
          throw CaseError(where(c, "ndrange.local") + "global size " + std::to_string(c.range.global[d]) +
                          " is not a multiple of local size " + std::to_string((*c.range.local)[d]) + " in dimension " +
                          std::to_string(d) + ", and the program requires uniform work-groups (" +
                          (options.uniform ? "-cl-uniform-work-group-size" : "OpenCL C before 2.0: build with -cl-std=CL3.0") +
                          ")");
  }

  auto program = loadProgram(c, device);
  for (const auto& [id, bytes] : c.specConstants) {
    try {
      program->setSpecConstant(id, bytes.data(), bytes.size());
    } catch (const host::Error& e) { throw CaseError(where(c, "spec_constants." + std::to_string(id)) + e.what()); }
  }

  const auto names = program->kernelNames();
  if (std::find(names.begin(), names.end(), c.kernel) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw CaseError(where(c, "kernel") + "the module has no kernel '" + c.kernel + "' (kernels: " + known + ")");
  }
  PreparedCase run;
  run.program = program;
  run.kernel = std::make_unique<host::Kernel>(program, c.kernel);
  host::Kernel& kernel = *run.kernel;
  run.range = c.range;
  if (kernel.isShader() != c.dispatch.has_value())
    throw CaseError(where(c, c.dispatch ? "dispatch" : "ndrange") + c.kernel +
                    (kernel.isShader() ? " is a compute shader: its case gives \"dispatch\", work-groups per dimension"
                                       : " is an OpenCL kernel: its case gives \"ndrange\""));
  if (kernel.isShader()) {
    checkShaderResources(c, kernel);
    try {
      run.range = kernel.dispatch(*c.dispatch);
      host::checkNDRange(run.range, device.config());
    } catch (const host::Error& e) { throw CaseError(where(c, "dispatch") + e.what()); }
  } else if (kernel.argCount() != c.args.size()) {
    throw CaseError(where(c, "args") + "kernel " + c.kernel + " takes " + std::to_string(kernel.argCount()) +
                    " arguments, the case gives " + std::to_string(c.args.size()));
  }

  run.choices = device.config().choices;
  if (c.deviceQueueSize) {
    try {
      kernel.setDefaultQueue(std::make_shared<host::DeviceQueue>(*c.deviceQueueSize));
    } catch (const host::Error& e) { throw CaseError(where(c, "device_queue") + e.what()); }
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    const ArgSpec& arg = c.args[i];
    // The host API knows the kernel's parameter types; its complaint (a buffer for a by-value
    // parameter, a wrong size, naming the parameter) is a fault of this argument of the case.
    try {
      switch (arg.kind) {
        case ArgSpec::Kind::Buffer: {
          // OpenCL 3.0 API §5.2.1 [[_creating_buffer_objects]] clCreateBuffer: no buffer is larger than
          // CL_DEVICE_MAX_MEM_ALLOC_SIZE (the device's maxMemAllocSize).
          const uint64_t size = uint64_t(arg.buffer.count) * sizeOf(arg.buffer.type);
          const uint64_t limit = device.config().maxMemAllocSize;
          if (size > limit)
            throw CaseError(where(c, "args[" + std::to_string(i) + "].buffer.count") +
                            std::to_string(arg.buffer.count) + " elements of " +
                            std::string(toString(arg.buffer.type)) + " are " + std::to_string(size) +
                            " bytes, more than the device's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE), " +
                            std::to_string(limit) + " bytes");
          auto buffer = std::make_shared<host::Buffer>(size);  // zero-filled
          materializeInto(c, i, buffer->data());
          writeDeviceAddresses(c, i, kernel, static_cast<std::byte*>(buffer->data()));
          kernel.setArg(i, buffer);
          if (arg.buffer.output) run.outputs.emplace_back(i, buffer);
          break;
        }
        case ArgSpec::Kind::Image: {
          auto image = makeImage(c, i, device);
          kernel.setArg(i, image);
          if (arg.image.output) run.imageOutputs.emplace_back(i, image);
          break;
        }
        case ArgSpec::Kind::Sampler: kernel.setArgSampler(i, arg.sampler); break;
        case ArgSpec::Kind::Local: kernel.setArgLocal(i, arg.localBytes); break;
        case ArgSpec::Kind::Null: kernel.setArgNull(i); break;
        case ArgSpec::Kind::Value: kernel.setArgValue(i, arg.value.data(), arg.value.size()); break;
      }
    } catch (const host::Error& e) {
      throw CaseError(where(c, "args[" + std::to_string(i) + "]") + e.what());
    } catch (const std::bad_alloc&) {
      throw CaseError(where(c, "args[" + std::to_string(i) + "]") +
                      "out of host memory: its storage could not be allocated (std::bad_alloc)");
    }
  }
  return run;
}

}  // namespace clref::cli
