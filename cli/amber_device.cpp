// DeviceJudge (amber_device.hpp): a script's RUNs on a real Vulkan device, each judged by clref.
#include "cli/amber_device.hpp"

#include <fstream>

#include "check/check.hpp"
#include "check/check_json.hpp"
#include "check/shader_check.hpp"
#include "cli/check_command.hpp"
#include "host/elements.hpp"
#include "layer/vulkan/compute_device.hpp"

namespace clref::cli::amber {

namespace {

// The element type `clref check` judges a buffer's bytes as: the script's data type's component.
numerics::ScalarType scalarTypeOf(const DataType& t) {
  using numerics::ScalarType;
  const NumberType n = t.number;
  if (n.kind == NumberKind::Float)
    return n.bits == 16 ? ScalarType::Half : n.bits == 64 ? ScalarType::Double : ScalarType::Float;
  const bool s = n.kind == NumberKind::Int;
  switch (n.bits) {
    case 8: return s ? ScalarType::Char : ScalarType::UChar;
    case 16: return s ? ScalarType::Short : ScalarType::UShort;
    case 64: return s ? ScalarType::Long : ScalarType::ULong;
    default: return s ? ScalarType::Int : ScalarType::UInt;
  }
}

std::string widths(const std::array<bool, 3>& by) {
  std::string s;
  const char* names[] = {"16", "32", "64"};
  for (int i = 0; i < 3; ++i)
    if (by[i]) s += std::string(s.empty() ? "" : "/") + names[i];
  return s.empty() ? "none" : s;
}

}  // namespace

DeviceJudge::DeviceJudge(const Script& script, const std::string& name, uint64_t plantEvery, std::ostream& out)
    : script_(script), out_(out), plantEvery_(plantEvery) {
  try {
    device_ = std::make_unique<vulkan::ComputeDevice>(name, script.deviceExtensions);
  } catch (const vulkan::Error& e) { throw Unsupported(0, std::string("--device: ") + e.what()); }
  const vulkan::DeviceInfo& d = device_->info();
  for (const auto& f : script.deviceFeatures)
    if (!device_->hasFeature(f)) throw Unsupported(0, "the device " + d.name + " lacks DEVICE_FEATURE " + f);
  if (d.subgroupSize < host::kMinShaderSubgroupSize || d.subgroupSize > host::kMaxShaderSubgroupSize)
    throw Unsupported(0, "the device's subgroup size " + std::to_string(d.subgroupSize) + " is outside the " +
                             std::to_string(host::kMinShaderSubgroupSize) + " to " +
                             std::to_string(host::kMaxShaderSubgroupSize) + " clref runs shaders with");
  // What the judge depends on: the subgroup size clref takes over, and the float controls a shader may declare on it.
  out_ << "device: " << d.describe() << "\n"
       << "  subgroup size " << d.subgroupSize << " (" << d.minSubgroupSize << " to " << d.maxSubgroupSize
       << "); denormals preserved for " << widths(d.denormPreserve) << ", flushed for " << widths(d.denormFlushToZero)
       << "; SignedZeroInfNanPreserve for " << widths(d.signedZeroInfNanPreserve) << "; RTE for "
       << widths(d.roundingModeRTE) << ", RTZ for " << widths(d.roundingModeRTZ) << "\n";
}

DeviceJudge::~DeviceJudge() = default;

uint32_t DeviceJudge::subgroupSize() const { return device_->info().subgroupSize; }
uint32_t DeviceJudge::maxSubgroupSize() const { return device_->info().maxSubgroupSize; }

std::optional<uint32_t> DeviceJudge::requiredSize(const Pipeline& p) const {
  if (!p.requiredSubgroupSize) return std::nullopt;
  const vulkan::DeviceInfo& d = device_->info();
  if (p.requiredSizeBound == SizeBound::Min) return d.minSubgroupSize;
  if (p.requiredSizeBound == SizeBound::Max) return d.maxSubgroupSize;
  // Vulkan §10.1 [external] VkPipelineShaderStageRequiredSubgroupSizeCreateInfo: a power of two from
  // minSubgroupSize to maxSubgroupSize.
  if (*p.requiredSubgroupSize < d.minSubgroupSize || *p.requiredSubgroupSize > d.maxSubgroupSize)
    throw Unsupported(p.line, "pipeline " + p.name + ": REQUIRED_SIZE " + std::to_string(*p.requiredSubgroupSize) +
                                  " is outside the device's subgroup sizes " + std::to_string(d.minSubgroupSize) +
                                  " to " + std::to_string(d.maxSubgroupSize));
  return p.requiredSubgroupSize;
}

void DeviceJudge::requireShader(const Pipeline& p, const std::vector<uint32_t>& words) const {
  if (const std::string missing = device_->missingFor(words, p.entryPoint); !missing.empty())
    throw Unsupported(p.line, "pipeline " + p.name + " on the device: " + missing);
}

bool DeviceJudge::run(const Command& c, const Pipeline& pipeline, const std::vector<uint32_t>& words,
                      host::Kernel& kernel, const std::vector<std::pair<size_t, const Binding*>>& args,
                      std::map<std::string, std::shared_ptr<host::Buffer>>& buffers) {
  // The dispatch as the script describes it, over one host copy of each buffer it binds.
  vulkan::Dispatch d;
  d.spirv = words;
  d.entryPoint = pipeline.entryPoint;
  d.groups = {c.groups[0], c.groups[1], c.groups[2]};
  d.requiredSubgroupSize = requiredSize(pipeline);
  d.fullSubgroups = pipeline.fullSubgroups;
  d.varyingSubgroupSize = pipeline.varyingSubgroupSize;
  for (const auto& s : pipeline.specializations) {
    vulkan::SpecConstant k{s.id, {}};
    for (const std::byte b : s.bytes) k.bytes.push_back(uint8_t(b));
    d.specConstants.push_back(std::move(k));
  }
  std::vector<std::string> names;
  std::vector<std::vector<uint8_t>> bytes;
  auto indexOf = [&](const std::string& name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    const host::Buffer& b = *buffers.at(name);
    const auto* p = reinterpret_cast<const uint8_t*>(b.data());
    names.push_back(name);
    bytes.emplace_back(p, p + b.size());
    return names.size() - 1;
  };
  for (const auto& [arg, b] : args) {
    const size_t i = indexOf(b->buffer);
    if (b->kind == BindingKind::PushConstant)
      d.pushConstants = i;
    else
      d.bindings.push_back({b->set, b->binding,
                            b->kind == BindingKind::Storage ? vulkan::DescriptorType::StorageBuffer
                                                            : vulkan::DescriptorType::UniformBuffer,
                            i, b->offset, b->range, b->arrayElement});
  }
  try {
    device_->run(d, bytes);
  } catch (const vulkan::Error& e) {
    ++unjudged_;
    out_ << "FAIL " << script_.name << ":" << c.line << " RUN " << pipeline.name
         << ": the device could not run it: " << e.what() << "\n";
    return false;
  }

  // clref's verdict on each storage buffer the device wrote, for the inputs the device had (the arguments as set);
  // planted errors change the device's results, which the script then goes on with.
  std::vector<host::DeviceOutput> outputs;
  std::map<size_t, const Binding*> bindingOf;
  for (const auto& [arg, b] : args) {
    if (b->kind != BindingKind::Storage) continue;
    outputs.push_back({arg, scalarTypeOf(script_.buffer(b->buffer)->type), std::nullopt, &bytes[indexOf(b->buffer)],
                       b->offset, b->range});
    bindingOf[arg] = b;
  }
  const host::CheckReport report = host::checkShaderDispatch(kernel, d.groups, outputs, plantEvery_);
  out_ << "CHECK " << script_.name << ":" << c.line << " RUN " << pipeline.name << " " << c.groups[0] << " "
       << c.groups[1] << " " << c.groups[2] << " on the device:\n";
  if (!report.run.ok) {
    ++unjudged_;
    out_ << "  clref's own run faulted, nothing is judged: "
         << (report.run.fault ? report.run.fault->format() : std::string("(no diagnostic)")) << "\n";
  } else {
    printCheckReport(
        out_, report,
        [&](const host::BufferVerdict& v) {
          const Binding& b = *bindingOf.at(v.arg);
          return "  buffer " + b.buffer + " (set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                 (b.arrayElement ? " element " + std::to_string(b.arrayElement) : "") + ", ";
        },
        5, false);
    for (const auto& v : report.buffers) violations_ += v.violations;
  }
  nlohmann::json j = host::toJson(report, pipeline.entryPoint);
  j["line"] = c.line;
  j["pipeline"] = pipeline.name;
  j["groups"] = {c.groups[0], c.groups[1], c.groups[2]};
  runs_.push_back(std::move(j));
  host::HtmlSection section;
  section.title = script_.name + ":" + std::to_string(c.line) + " RUN " + pipeline.name + " " +
                  std::to_string(c.groups[0]) + " " + std::to_string(c.groups[1]) + " " + std::to_string(c.groups[2]);
  section.kernel = pipeline.entryPoint;
  section.profile = "Vulkan";
  section.range = kernel.dispatch(d.groups);
  section.choices = kernel.choices();
  for (const auto& v : report.buffers) {
    const Binding& b = *bindingOf.at(v.arg);
    section.labels.push_back("buffer " + b.buffer + " (set " + std::to_string(b.set) + " binding " +
                             std::to_string(b.binding) + ")");
  }
  section.report = report;
  sections_.push_back(std::move(section));

  // The device's results are what the script goes on with.
  for (size_t i = 0; i < names.size(); ++i)
    buffers[names[i]] = std::make_shared<host::Buffer>(bytes[i].data(), bytes[i].size());
  return true;
}

void DeviceJudge::writeReport(const std::string& path) const {
  const vulkan::DeviceInfo& d = device_->info();
  nlohmann::json j;
  j["script"] = script_.name;
  j["device"] = {{"name", d.name},
                 {"driver", d.driverName},
                 {"driver_info", d.driverInfo},
                 {"driver_version", d.driverVersion},
                 {"api_version", d.apiVersionText()},
                 {"subgroup_size", d.subgroupSize}};
  j["violations"] = violations_;
  j["unjudged_runs"] = unjudged_;
  j["planted_every"] = plantEvery_;
  j["runs"] = runs_;
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw host::Error("--report: cannot write " + path);
}

void DeviceJudge::writeHtml(const std::string& path) const {
  std::ofstream out(path);
  host::writeHtmlReport(out, "clref amber " + script_.name + " on " + device_->info().name, sections_);
  if (!out) throw host::Error("--html: cannot write " + path);
}

}  // namespace clref::cli::amber
