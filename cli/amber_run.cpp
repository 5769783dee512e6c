// Running a parsed AmberScript (amber_script.hpp) on the reference device: every pipeline is built before the first
// command (so a shader that does not compile, or a resource left unbound, is a script error and nothing runs), then
// the commands run in order on buffers the pipelines share.
#include "cli/amber_run.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/amber_device.hpp"
#include "cli/amber_script.hpp"
#include "cli/progress_line.hpp"
#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "numerics/format.hpp"

namespace clref::cli::amber {

namespace {

// amber's verifier compares reals for EQ and NE within this many percent of the expected value (src/verifier.cc
// kEpsilon, used as a percentage), after rounding the expected value to the buffer's type.
constexpr double kDefaultTolerancePercent = 0.000001;

compiler::VulkanVersion targetEnvOf(const std::string& env, int line) {
  // amber_script.md "Target environment": spvX.Y or vulkanX.Y; SPIR-V X.Y needs the Vulkan version that accepts it
  // (Vulkan §A.1 [external]).
  static const std::pair<const char*, compiler::VulkanVersion> kEnvs[] = {
      {"spv1.0", compiler::VulkanVersion::V1_0},    {"spv1.1", compiler::VulkanVersion::V1_1},
      {"spv1.2", compiler::VulkanVersion::V1_1},    {"spv1.3", compiler::VulkanVersion::V1_1},
      {"spv1.4", compiler::VulkanVersion::V1_2},    {"spv1.5", compiler::VulkanVersion::V1_2},
      {"spv1.6", compiler::VulkanVersion::V1_3},    {"vulkan1.0", compiler::VulkanVersion::V1_0},
      {"vulkan1.1", compiler::VulkanVersion::V1_1}, {"vulkan1.1spv1.4", compiler::VulkanVersion::V1_2},
      {"vulkan1.2", compiler::VulkanVersion::V1_2}, {"vulkan1.3", compiler::VulkanVersion::V1_3}};
  for (const auto& [name, v] : kEnvs)
    if (env == name) return v;
  throw ScriptError(line, "unknown TARGET_ENV '" + env + "' (spv1.0 … spv1.6, vulkan1.0 … vulkan1.3)");
}

// SPIRV-HEX: bytes as pairs of hex digits (an optional 0x before each token), little-endian words.
std::vector<uint32_t> wordsOfHex(const Shader& s) {
  std::vector<uint8_t> bytes;
  std::istringstream in(s.source);
  for (std::string t; in >> t;) {
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
    if (t.size() % 2 != 0) throw ScriptError(s.line, "SPIRV-HEX: odd number of hex digits in '" + t + "'");
    for (size_t i = 0; i < t.size(); i += 2) {
      uint8_t b = 0;
      const auto r = std::from_chars(t.data() + i, t.data() + i + 2, b, 16);
      if (r.ec != std::errc() || r.ptr != t.data() + i + 2)
        throw ScriptError(s.line, "SPIRV-HEX: '" + t + "' is not hex digits");
      bytes.push_back(b);
    }
  }
  if (bytes.empty() || bytes.size() % 4 != 0)
    throw ScriptError(s.line, "SPIRV-HEX: " + std::to_string(bytes.size()) + " bytes is not a whole number of words");
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
               uint32_t(bytes[4 * i + 3]) << 24;
  return words;
}

// A module clref rejects because it lacks something is unsupported (exit 3); any other rejection is the script's.
[[noreturn]] void rejectModule(const std::exception& e, int line, const std::string& what) {
  const std::string m = e.what();
  if (m.find("unsupported") != std::string::npos || m.find("not supported") != std::string::npos)
    throw Unsupported(line, what + ": " + m);
  throw ScriptError(line, what + ": " + m);
}

struct BuiltPipeline {
  const Pipeline* def = nullptr;
  std::unique_ptr<host::Kernel> kernel;
  std::vector<std::pair<size_t, const Binding*>> args;  // (kernel argument, what is bound to it)
};

// A component's value for people: integers in decimal, reals in the shortest form that reads back to them.
std::string formatComponent(const std::byte* p, NumberType n) {
  char buf[64];
  std::to_chars_result r{};
  if (n.kind == NumberKind::Float) {
    if (n.bits == 16) {
      numerics::Half h;
      std::memcpy(&h.bits, p, 2);
      r = std::to_chars(buf, buf + sizeof buf, numerics::toFloat(h));
    } else if (n.bits == 32) {
      float f;
      std::memcpy(&f, p, 4);
      r = std::to_chars(buf, buf + sizeof buf, f);
    } else {
      double d;
      std::memcpy(&d, p, 8);
      r = std::to_chars(buf, buf + sizeof buf, d);
    }
  } else {
    uint64_t u = 0;
    std::memcpy(&u, p, n.bytes());
    if (n.kind == NumberKind::Int && n.bits < 64 && (u >> (n.bits - 1)) & 1) u |= ~uint64_t(0) << n.bits;
    r = n.kind == NumberKind::Int ? std::to_chars(buf, buf + sizeof buf, int64_t(u))
                                  : std::to_chars(buf, buf + sizeof buf, u);
  }
  return std::string(buf, r.ptr);
}

// An integer component (or value) as the type's signed or unsigned value, widened to 64 bits.
int64_t asSigned(uint64_t u, uint32_t bits) {
  if (bits < 64) {
    u &= (uint64_t(1) << bits) - 1;
    if ((u >> (bits - 1)) & 1) u |= ~uint64_t(0) << bits;
  }
  return int64_t(u);
}
uint64_t asUnsigned(uint64_t u, uint32_t bits) { return bits < 64 ? u & ((uint64_t(1) << bits) - 1) : u; }

double realOf(const std::byte* p, NumberType n) {
  uint64_t u = 0;
  std::memcpy(&u, p, n.bytes());
  if (n.kind == NumberKind::Int) return double(asSigned(u, n.bits));
  if (n.kind == NumberKind::Uint) return double(u);
  if (n.bits == 16) return numerics::toDouble(numerics::Half{uint16_t(u)});
  if (n.bits == 32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  double d;
  std::memcpy(&d, p, 8);
  return d;
}

// The expected value as the buffer's type holds it (amber casts it to the component type before comparing).
double expectedReal(const Value& v, NumberType n) {
  if (n.kind == NumberKind::Int) return v.isInteger ? double(asSigned(v.integer, n.bits)) : v.real;
  if (n.kind == NumberKind::Uint) return v.isInteger ? double(asUnsigned(v.integer, n.bits)) : v.real;
  if (n.bits == 16) return numerics::toDouble(numerics::toHalf(v.real));
  if (n.bits == 32) return double(float(v.real));
  return v.real;
}

template <class T> bool holds(T observed, T expected, Comparator c) {
  switch (c) {
    case Comparator::Eq: return observed == expected;
    case Comparator::Ne: return observed != expected;
    case Comparator::Lt: return observed < expected;
    case Comparator::Le: return observed <= expected;
    case Comparator::Gt: return observed > expected;
    case Comparator::Ge: return observed >= expected;
  }
  return false;
}

// One value of EXPECT … IDX: the component at `p` against `v`.
bool valueHolds(const std::byte* p, NumberType n, const Value& v, Comparator c, const Tolerance* tolerance) {
  if (n.kind != NumberKind::Float && !tolerance) {
    uint64_t u = 0;
    std::memcpy(&u, p, n.bytes());
    return n.kind == NumberKind::Int ? holds(asSigned(u, n.bits), asSigned(v.integer, n.bits), c)
                                     : holds(asUnsigned(u, n.bits), asUnsigned(v.integer, n.bits), c);
  }
  const double o = realOf(p, n), e = expectedReal(v, n);
  if (c == Comparator::Eq || c == Comparator::Ne) {
    // A NaN equals only a NaN (amber's |o − e| ≤ tolerance would call a NaN equal to everything).
    bool equal;
    if (std::isnan(o) || std::isnan(e)) {
      equal = std::isnan(o) && std::isnan(e);
    } else if (o == e) {
      equal = true;  // infinities too
    } else {
      const double t = tolerance ? tolerance->value : kDefaultTolerancePercent;
      const bool percent = tolerance ? tolerance->percent : true;
      equal = std::fabs(o - e) <= (percent ? t / 100.0 * std::fabs(e) : t);
    }
    return c == Comparator::Eq ? equal : !equal;
  }
  return holds(o, e, c);
}

const char* comparatorName(Comparator c) {
  switch (c) {
    case Comparator::Eq: return "EQ";
    case Comparator::Ne: return "NE";
    case Comparator::Lt: return "LT";
    case Comparator::Le: return "LE";
    case Comparator::Gt: return "GT";
    case Comparator::Ge: return "GE";
  }
  return "?";
}

class Runner {
 public:
  Runner(const Script& script, std::ostream& out, const RunOptions& options)
      : script_(script), out_(out), options_(options), progress_("work-groups", ProgressLine::wanted(options.quiet)) {
    host::DeviceConfig config;
    config.threads = options.threads;
    // Each RUN's work-groups done, while it runs (the line goes when the RUN's last group is done).
    config.progress = progress_.callback();
    if (options.device) {
      judge_ = std::make_unique<DeviceJudge>(script, *options.device, options.plantErrors, out);
      config.subgroupSize = judge_->subgroupSize();
    }
    device_ = host::Device(config);
  }

  // With --device: the judge of the device's RUNs (none otherwise).
  const DeviceJudge* judge() const { return judge_.get(); }

  // Buffers and pipelines; throws ScriptError or Unsupported.
  void build() {
    for (const auto& b : script_.buffers)
      buffers_[b.name] = b.initial.empty() ? std::make_shared<host::Buffer>(size_t(0))
                                           : std::make_shared<host::Buffer>(b.initial.data(), b.initial.size());
    for (const auto& p : script_.pipelines) pipelines_[p.name] = buildPipeline(p);
  }

  void run(const std::vector<Command>& commands) {
    for (const auto& c : commands) {
      switch (c.kind) {
        case Command::Kind::Run: runPipeline(c); break;
        case Command::Kind::Copy: {
          const auto& from = *buffers_.at(c.buffer);
          buffers_[c.other] = std::make_shared<host::Buffer>(from.data(), from.size());
          break;
        }
        case Command::Kind::ExpectValues: expectValues(c); break;
        case Command::Kind::ExpectEqBuffer:
        case Command::Kind::ExpectRmseBuffer: expectBuffers(c); break;
        case Command::Kind::SetData: setData(c); break;
        case Command::Kind::Repeat:
          for (uint32_t i = 0; i < c.count; ++i) run(c.body);
          break;
      }
    }
  }

  int passed = 0, failed = 0;

 private:
  // The shader's module; an HLSL shader is compiled once per entry-point function its pipelines ATTACH (glslang makes
  // the named function the module's one entry point).
  std::vector<uint32_t> words(const Shader& s, const std::string& entryPoint) {
    const std::string key = s.format == ShaderFormat::Hlsl ? s.name + "\n" + entryPoint : s.name;
    if (const auto it = words_.find(key); it != words_.end()) return it->second;
    std::vector<uint32_t> w;
    if (s.format == ShaderFormat::SpirvHex) {
      w = wordsOfHex(s);
    } else {
      compiler::ShaderOptions o;
      o.target = s.targetEnv                ? targetEnvOf(*s.targetEnv, s.line)
                 : script_.defaultTargetEnv ? targetEnvOf(*script_.defaultTargetEnv, s.line)
                                            : options_.targetEnv.value_or(compiler::VulkanVersion::V1_0);
      const auto language = s.format == ShaderFormat::Glsl   ? compiler::ShaderLanguage::Glsl
                            : s.format == ShaderFormat::Hlsl ? compiler::ShaderLanguage::Hlsl
                                                             : compiler::ShaderLanguage::SpirvAssembly;
      o.entryPoint = entryPoint;
      const std::string name = s.sourceLine ? s.sourceName + " (SHADER " + s.name + ", its line 1 is line " +
                                                  std::to_string(s.sourceLine) + ")"
                                            : s.sourceName;
      try {
        w = compiler::compileShader(language, s.source, name, o);
      } catch (const compiler::Error& e) {
        throw ScriptError(s.line, "shader " + s.name + " does not compile:\n" + e.what());
      }
    }
    words_[key] = w;
    return w;
  }

  BuiltPipeline buildPipeline(const Pipeline& p) {
    BuiltPipeline built;
    built.def = &p;
    const Shader& shader = *script_.shader(p.shader);
    std::shared_ptr<host::Program> program;
    host::Device device = device_;
    const std::optional<uint32_t> required = judge_ ? judge_->requiredSize(p) : p.requiredSubgroupSize;
    if (required) device.config().subgroupSize = *required;
    try {
      program = host::Program::fromSpirv(device, words(shader, p.entryPoint));
      for (const auto& s : p.specializations) program->setSpecConstant(s.id, s.bytes.data(), s.bytes.size());
      built.kernel = std::make_unique<host::Kernel>(program, p.entryPoint);
    } catch (const ScriptError&) { throw; } catch (const interpreter::ModuleError& e) {
      rejectModule(e, p.line, "pipeline " + p.name + " (shader " + shader.name + ")");
    } catch (const host::Error& e) { rejectModule(e, p.line, "pipeline " + p.name + " (shader " + shader.name + ")"); }
    if (judge_) judge_->requireShader(p, words(shader, p.entryPoint));
    host::Kernel& k = *built.kernel;
    // Vulkan §9.1 [external] VkPipelineShaderStageCreateInfo (VUID-VkShaderCreateInfoEXT-flags-08416 and -08417 say
    // the same of shader objects): with REQUIRE_FULL_SUBGROUPS the work-group width is a multiple of the subgroup size,
    // or of maxSubgroupSize when the size may vary and none is required.
    const uint32_t maxSize = judge_ ? judge_->maxSubgroupSize() : host::kMaxShaderSubgroupSize;
    const uint32_t width = p.varyingSubgroupSize && !required ? maxSize : device.config().subgroupSize;
    if (p.fullSubgroups && k.workgroupSize()[0] % width != 0)
      throw ScriptError(p.line, "pipeline " + p.name + ": FULLY_POPULATED needs local_size_x (" +
                                    std::to_string(k.workgroupSize()[0]) + ") to be a multiple of " +
                                    (width == maxSize && p.varyingSubgroupSize
                                         ? "maxSubgroupSize " + std::to_string(width) + " (VARYING_SIZE on)"
                                         : "the subgroup size " + std::to_string(width)));
    for (const auto& b : p.bindings) {
      const auto arg =
          b.kind == BindingKind::PushConstant ? k.pushConstantArg() : k.resourceArg(b.set, b.binding, b.arrayElement);
      if (!arg) continue;  // a descriptor the shader does not use (Vulkan allows it in the layout)
      const auto declared = k.argInfo(*arg).resource;
      const bool matches =
          (b.kind == BindingKind::Storage && declared == host::KernelArgInfo::Resource::StorageBuffer) ||
          (b.kind == BindingKind::Uniform && declared == host::KernelArgInfo::Resource::UniformBuffer) ||
          b.kind == BindingKind::PushConstant;
      if (!matches)
        throw ScriptError(
            b.line, "buffer " + b.buffer + " is bound as " + (b.kind == BindingKind::Storage ? "storage" : "uniform") +
                        " but the shader declares a " +
                        (declared == host::KernelArgInfo::Resource::StorageBuffer ? "storage" : "uniform") +
                        " buffer at set " + std::to_string(b.set) + " binding " + std::to_string(b.binding));
      built.args.emplace_back(*arg, &b);
    }
    for (size_t i = 0; i < k.argCount(); ++i) {
      const auto& info = k.argInfo(i);
      bool bound = false;
      for (const auto& a : built.args) bound = bound || a.first == i;
      if (bound) continue;
      if (info.resource == host::KernelArgInfo::Resource::PushConstant)
        throw ScriptError(p.line, "pipeline " + p.name +
                                      ": the shader has push constants but no buffer is bound AS "
                                      "push_constant");
      if (info.resource != host::KernelArgInfo::Resource::None)
        throw ScriptError(p.line, "pipeline " + p.name + ": no buffer is bound at descriptor set " +
                                      std::to_string(info.descriptorSet) + " binding " + std::to_string(info.binding) +
                                      (info.descriptorCount ? " array element " + std::to_string(info.arrayElement) +
                                                                  " (BIND BUFFER_ARRAY binds one buffer per element)"
                                                            : std::string()) +
                                      ", which the shader declares");
      throw Unsupported(p.line, "pipeline " + p.name + ": shader resource " + info.typeName +
                                    " (clref binds storage and uniform buffers and push constants)");
    }
    return built;
  }

  void fail(const Command& c, const std::string& what) {
    ++failed;
    out_ << "FAIL " << script_.name << ":" << c.line << " " << what << "\n";
  }
  void pass(const Command& c, const std::string& what) {
    ++passed;
    out_ << "PASS " << script_.name << ":" << c.line << " " << what << "\n";
  }

  void runPipeline(const Command& c) {
    BuiltPipeline& p = pipelines_.at(c.pipeline);
    // vkCmdDispatch with a zero count dispatches nothing (Vulkan §30.1 [external] Dispatching Commands).
    if (c.groups[0] == 0 || c.groups[1] == 0 || c.groups[2] == 0) return;
    try {
      for (const auto& [arg, binding] : p.args) {
        auto buffer = buffers_.at(binding->buffer);
        if (binding->offset || binding->range) {
          const uint64_t size = buffer->size();
          const uint64_t range = binding->range.value_or(size > binding->offset ? size - binding->offset : 0);
          if (binding->offset + range > size || binding->offset > size)
            return fail(c, "RUN " + c.pipeline + ": the binding of " + binding->buffer + " at line " +
                               std::to_string(binding->line) + " (bytes " + std::to_string(binding->offset) + " to " +
                               std::to_string(binding->offset + range) + ") lies outside its " + std::to_string(size) +
                               " bytes");
          buffer = host::Buffer::subBuffer(buffer, size_t(binding->offset), size_t(range));
        }
        p.kernel->setArg(arg, buffer);
      }
      progress_.finish();  // the next RUN's rate and time left count from here
      if (judge_) {
        judge_->run(c, *p.def, words(*script_.shader(p.def->shader), p.def->entryPoint), *p.kernel, p.args, buffers_);
        return;
      }
      const host::RunResult r = p.kernel->run(p.kernel->dispatch({c.groups[0], c.groups[1], c.groups[2]}));
      progress_.finish();
      if (r.ok) return;
      std::string why;
      if (r.fault) why = r.fault->format();
      for (const auto& f : r.findings) why += (why.empty() ? "" : "\n") + f.format();
      fail(c, "RUN " + c.pipeline + " faulted:\n" + why);
    } catch (const std::exception& e) { fail(c, "RUN " + c.pipeline + " could not run: " + e.what()); }
  }

  // VkScript's subdata: values of c.type from byte c.offset, the buffer growing to hold them.
  void setData(const Command& c) {
    const ElementLayout layout = elementLayout(*c.type, c.layout);
    const size_t perElement = layout.offsets.size();
    const uint64_t end = c.offset + (c.values.size() + perElement - 1) / perElement * layout.size;
    auto& buffer = buffers_.at(c.buffer);
    if (buffer->size() < end) {
      auto grown = std::make_shared<host::Buffer>(size_t(end));
      std::memset(grown->data(), 0, grown->size());
      if (buffer->size()) std::memcpy(grown->data(), buffer->data(), buffer->size());
      buffer = grown;
    }
    for (size_t i = 0; i < c.values.size(); ++i)
      storeValue(buffer->data() + c.offset + (i / perElement) * layout.size + layout.offsets[i % perElement],
                 c.type->number, c.values[i]);
  }

  void expectValues(const Command& c) {
    const Buffer& decl = *script_.buffer(c.buffer);
    const host::Buffer& buffer = *buffers_.at(c.buffer);
    const DataType type = c.type ? *c.type : decl.type;
    const ElementLayout layout = elementLayout(type, c.type ? c.layout : decl.layout);
    const NumberType n = type.number;
    std::string head = c.buffer + " IDX " + std::to_string(c.offset) + " ";
    if (!c.tolerances.empty()) {
      head += "TOLERANCE";
      for (const auto& t : c.tolerances) {
        std::ostringstream s;
        s << " " << t.value << (t.percent ? "%" : "");
        head += s.str();
      }
      head += " ";
    }
    head += comparatorName(c.comparator);
    if (c.offset >= buffer.size())
      return fail(c, head + ": byte " + std::to_string(c.offset) + " is past the end of " + c.buffer + " (" +
                         std::to_string(buffer.size()) + " bytes)");
    const uint64_t element = c.offset / layout.size;
    const uint32_t within = uint32_t(c.offset % layout.size);
    size_t first = layout.offsets.size();
    for (size_t i = 0; i < layout.offsets.size(); ++i)
      if (layout.offsets[i] == within) first = i;
    if (first == layout.offsets.size())
      return fail(c, head + ": byte " + std::to_string(c.offset) + " is not the start of a value of " + c.buffer +
                         " (elements of " + std::to_string(layout.size) + " bytes)");
    const size_t perElement = layout.offsets.size();
    std::string observed, expected;  // the first 16 values, for the report
    size_t mismatches = 0;
    std::string firstMismatch;
    for (size_t i = 0; i < c.values.size(); ++i) {
      const size_t k = first + i;
      const uint64_t at = (element + k / perElement) * layout.size + layout.offsets[k % perElement];
      if (at + n.bytes() > buffer.size())
        return fail(c, head + ": " + std::to_string(c.values.size()) + " values from byte " + std::to_string(c.offset) +
                           " run past the end of " + c.buffer + " (" + std::to_string(buffer.size()) + " bytes)");
      const std::byte* p = buffer.data() + at;
      const size_t component = k % perElement;
      const Tolerance* tol = c.tolerances.empty()              ? nullptr
                             : c.tolerances.size() == 1        ? &c.tolerances[0]
                             : component < c.tolerances.size() ? &c.tolerances[component]
                                                               : nullptr;
      const std::string o = formatComponent(p, n);
      if (i < 16) {
        observed += " " + o;
        expected += " " + c.values[i].text;
      }
      if (!valueHolds(p, n, c.values[i], c.comparator, tol) && mismatches++ == 0)
        firstMismatch = "first at byte " + std::to_string(at) + " (value " + std::to_string(i) + "): observed " + o +
                        ", expected " + comparatorName(c.comparator) + " " + c.values[i].text;
    }
    if (c.values.size() > 16) {
      observed += " …";
      expected += " …";
    }
    if (mismatches == 0) return pass(c, head + ": observed" + observed + ", expected" + expected);
    fail(c, head + ": " + std::to_string(mismatches) + " of " + std::to_string(c.values.size()) + " values fail; " +
                firstMismatch);
  }

  void expectBuffers(const Command& c) {
    const bool rmse = c.kind == Command::Kind::ExpectRmseBuffer;
    const std::string head = c.buffer + (rmse ? " RMSE_BUFFER " : " EQ_BUFFER ") + c.other;
    const Buffer& a = *script_.buffer(c.buffer);
    const Buffer& b = *script_.buffer(c.other);
    const ElementLayout la = elementLayout(a.type, a.layout), lb = elementLayout(b.type, b.layout);
    const host::Buffer& da = *buffers_.at(c.buffer);
    const host::Buffer& db = *buffers_.at(c.other);
    if (a.type.number.kind != b.type.number.kind || a.type.number.bits != b.type.number.bits || la.size != lb.size ||
        la.offsets != lb.offsets)
      return fail(c, head + ": the buffers have different data types");
    if (da.size() != db.size())
      return fail(c, head + ": the buffers have different sizes (" + std::to_string(da.size()) + " and " +
                         std::to_string(db.size()) + " bytes)");
    const NumberType n = a.type.number;
    size_t differ = 0, values = 0;
    double sum = 0;
    std::string firstDiff;
    for (uint64_t e = 0; e < da.size() / la.size; ++e)
      for (const uint32_t off : la.offsets) {
        const uint64_t at = e * la.size + off;
        const std::byte* pa = da.data() + at;
        const std::byte* pb = db.data() + at;
        ++values;
        if (rmse) {
          const double d = realOf(pa, n) - realOf(pb, n);
          sum += d * d;
        } else if (std::memcmp(pa, pb, n.bytes()) != 0 && differ++ == 0) {
          firstDiff = "first at byte " + std::to_string(at) + " (element " + std::to_string(e) +
                      "): " + formatComponent(pa, n) + " and " + formatComponent(pb, n);
        }
      }
    if (rmse) {
      // amber: the root of the mean of the squared differences of every value, at most the tolerance.
      const double r = values ? std::sqrt(sum / double(values)) : 0.0;
      std::ostringstream s;
      s << head << ": RMSE " << r << (r <= c.tolerance ? " <= " : " > ") << "tolerance " << c.tolerance;
      return r <= c.tolerance ? pass(c, s.str()) : fail(c, s.str());
    }
    if (differ == 0) return pass(c, head + ": " + std::to_string(values) + " values equal");
    fail(c, head + ": " + std::to_string(differ) + " of " + std::to_string(values) + " values differ; " + firstDiff);
  }

  const Script& script_;
  std::ostream& out_;
  RunOptions options_;
  ProgressLine progress_;  // before device_, whose config holds its callback
  host::Device device_;
  std::map<std::string, std::shared_ptr<host::Buffer>> buffers_;
  std::map<std::string, std::vector<uint32_t>> words_;
  std::map<std::string, BuiltPipeline> pipelines_;
  std::unique_ptr<DeviceJudge> judge_;
};

}  // namespace

int runScript(const std::string& text, const std::string& name, const std::string& directory, std::ostream& out,
              std::ostream& err, const RunOptions& options) {
  try {
    const Script script = parseScript(text, name, directory);
    for (const auto& n : script.notes) err << "note: " << n << "\n";
    Runner runner(script, out, options);
    runner.build();
    runner.run(script.commands);
    out << runner.passed << " passed, " << runner.failed << " failed\n";
    if (const DeviceJudge* judge = runner.judge()) {
      out << judge->violations() << " violation" << (judge->violations() == 1 ? "" : "s")
          << " of the allowed sets on the device";
      if (judge->unjudged())
        out << ", " << judge->unjudged() << " RUN" << (judge->unjudged() == 1 ? "" : "s") << " not judged";
      out << "\n";
      if (!options.reportPath.empty()) judge->writeReport(options.reportPath);
      if (!options.htmlPath.empty()) judge->writeHtml(options.htmlPath);
      if (judge->violations() || judge->unjudged()) return kExpectFailed;
    }
    return runner.failed ? kExpectFailed : kAllPassed;
  } catch (const ScriptError& e) {
    err << name << ":" << e.line << ": error: " << e.what() << "\n";
    return kScriptError;
  } catch (const Unsupported& e) {
    err << name << ":" << e.line << ": unsupported: " << e.what() << "\n";
    return kUnsupported;
  } catch (const std::exception& e) {  // e.g. memory for a huge buffer: the script asks too much
    err << name << ": error: " << e.what() << "\n";
    return kScriptError;
  }
}

int runScriptFile(const std::string& path, std::ostream& out, std::ostream& err, const RunOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << path << ": error: cannot read the script\n";
    return kScriptError;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return runScript(text.str(), path, std::filesystem::path(path).parent_path().string(), out, err, options);
}

}  // namespace clref::cli::amber
