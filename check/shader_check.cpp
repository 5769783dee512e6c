// Judging a compute-shader dispatch another device ran (shader_check.hpp).
#include "check/shader_check.hpp"

#include <algorithm>
#include <set>

#include "host/elements.hpp"
#include "host/planted_errors.hpp"
#include "interpreter/module.hpp"
#include "numerics/format.hpp"

namespace clref::host {

ShaderKernel shaderKernel(const ShaderDispatch& d) {
  DeviceConfig config;
  config.subgroupSize = d.subgroupSize;
  if (d.raceChecks) config.checks.add(interpreter::Check::Races);
  config.checksFatal = false;
  const Device device(config);
  auto program = Program::fromSpirv(device, d.spirv);
  for (const auto& [id, bytes] : d.specConstants) {
    // Vulkan §10.9 [external] Specialization Constants: an entry for an ID the module does not use has no effect, and
    // a boolean is specialized with a VkBool32 (4 bytes; clref's boolean constant has 1).
    const auto size = program->info().specConstantSize(id);
    if (!size) continue;
    if (*size == 1 && bytes.size() == 4) {
      const uint8_t b = std::any_of(bytes.begin(), bytes.end(), [](uint8_t x) { return x != 0; });
      program->setSpecConstant(id, &b, 1);
    } else {
      program->setSpecConstant(id, bytes.data(), bytes.size());
    }
  }
  ShaderKernel k{program, std::make_unique<Kernel>(program, d.entryPoint)};
  Kernel* kernel = k.kernel.get();
  if (!kernel->isShader()) throw Error("entry point " + d.entryPoint + " is not a GLCompute shader");
  using R = KernelArgInfo::Resource;
  for (size_t i = 0; i < kernel->argCount(); ++i) {
    const KernelArgInfo& info = kernel->argInfo(i);
    if (info.resource == R::PushConstant) {
      // Vulkan §15.9 [external] Push Constants: bytes the application did not push are undefined; clref reads zeros.
      std::vector<uint8_t> bytes = d.pushConstants;
      bytes.resize(std::max<size_t>(bytes.size(), info.pointeeSize));
      kernel->setArg(i, std::make_shared<Buffer>(bytes.data(), bytes.size()));
      continue;
    }
    if (info.resource != R::StorageBuffer && info.resource != R::UniformBuffer)
      throw Error("resource " + info.name + " is not a storage or uniform buffer (an image, a texel buffer, a sampler)");
    const auto input = std::find_if(d.inputs.begin(), d.inputs.end(), [&](const ShaderDispatch::Input& in) {
      return in.set == info.descriptorSet && in.binding == info.binding;
    });
    if (input == d.inputs.end())
      throw Error("nothing readable is bound at set " + std::to_string(info.descriptorSet) + " binding " +
                  std::to_string(info.binding));
    kernel->setArg(i, std::make_shared<Buffer>(input->bytes.data(), input->bytes.size()));
  }
  return k;
}

namespace {

// The scalars of type `id` placed at byte `at` (Vulkan §15.6.4 [external] Offset and Stride Assignment: the module's
// Offset and ArrayStride decorations, which Type records); false for a type with parts clref does not judge as
// scalars (booleans, pointers, matrices, runtime arrays).
bool scalarsOf(const interpreter::Module& m, uint32_t id, uint64_t at, ElementLayout& out) {
  using interpreter::TypeKind;
  const interpreter::Type& t = m.type(id);
  switch (t.kind) {
    case TypeKind::Int:
      out.fields.push_back({uint32_t(at), numerics::integerType(t.width / 8, false)});
      return true;
    case TypeKind::Float:
      out.fields.push_back({uint32_t(at), numerics::scalarTypeOf(numerics::formatOfBytes(t.width / 8))});
      return true;
    case TypeKind::Vector:
      for (uint32_t i = 0; i < t.count; ++i)
        if (!scalarsOf(m, t.element, at + i * m.type(t.element).size, out)) return false;
      return true;
    case TypeKind::Array:
      for (uint32_t i = 0; i < t.count; ++i)
        if (!scalarsOf(m, t.element, at + i * t.stride, out)) return false;
      return true;
    case TypeKind::Struct:
      for (size_t i = 0; i < t.members.size(); ++i)
        if (!scalarsOf(m, t.members[i], at + t.memberOffsets[i], out)) return false;
      return true;
    default: return false;
  }
}

// The elements of the block at (set, binding) of module `m`, when it has a layout clref can judge.
std::optional<ElementLayout> blockElements(const interpreter::Module& m, uint32_t set, uint32_t binding) {
  for (const uint32_t v : m.globalVariables) {
    const auto* s = m.decoration(v, spv::Decoration::DescriptorSet);
    const auto* b = m.decoration(v, spv::Decoration::Binding);
    if (!s || !b || s->literals.empty() || b->literals.empty() || s->literals[0] != set || b->literals[0] != binding)
      continue;
    const interpreter::Type& block = m.type(m.type(m.def(v).resultType).element);
    if (block.kind != interpreter::TypeKind::Struct) return std::nullopt;
    ElementLayout l;
    if (block.members.size() == 1) {
      const interpreter::Type& a = m.type(block.members[0]);
      if ((a.kind == interpreter::TypeKind::RuntimeArray || a.kind == interpreter::TypeKind::Array) && a.stride &&
          block.memberOffsets[0] == 0) {
        l.stride = a.stride;
        if (!scalarsOf(m, a.element, 0, l)) return std::nullopt;
        return l;
      }
    }
    l.stride = block.size;
    if (!l.stride || !scalarsOf(m, m.type(m.def(v).resultType).element, 0, l)) return std::nullopt;
    return l;
  }
  return std::nullopt;
}

}  // namespace

DeviceOutput shaderOutput(const ShaderKernel& k, size_t arg, std::vector<uint8_t>* bytes) {
  const KernelArgInfo& info = k.kernel->argInfo(arg);
  DeviceOutput o;
  o.arg = arg;
  o.bytes = bytes;
  if (auto layout = blockElements(k.program->module(), info.descriptorSet, info.binding)) {
    if (layout->fields.size() == 1 && layout->fields[0].first == 0 && layout->stride == sizeOf(layout->fields[0].second))
      o.type = layout->fields[0].second;  // an array of scalars
    else
      o.layout = std::move(layout);
  }
  return o;
}

CheckReport checkShaderDispatch(Kernel& kernel, const std::array<uint32_t, 3>& groups,
                                const std::vector<DeviceOutput>& outputs, uint64_t plantEvery,
                                const CheckOptions& options) {
  auto bounds = [](const DeviceOutput& o) {
    const uint64_t from = std::min<uint64_t>(o.offset, o.bytes->size());
    const uint64_t to = o.range ? std::min<uint64_t>(from + *o.range, o.bytes->size()) : o.bytes->size();
    return std::pair{from, to};
  };
  if (plantEvery) {
    std::set<const std::vector<uint8_t>*> planted;
    for (const auto& o : outputs) {
      if (!mayWriteThrough(kernel.argInfo(o.arg)) || !planted.insert(o.bytes).second) continue;
      const auto [from, to] = bounds(o);
      plantScalarErrors(o.bytes->data() + from, to - from, o.layout, o.type, plantEvery);
    }
  }
  std::vector<ObservedBuffer> observed;
  for (const auto& o : outputs) {
    const auto [from, to] = bounds(o);
    observed.push_back(
        {o.arg, o.type, std::vector<uint8_t>(o.bytes->begin() + long(from), o.bytes->begin() + long(to)), o.layout});
  }
  return check(kernel, kernel.dispatch(groups), observed, options);
}

}  // namespace clref::host
