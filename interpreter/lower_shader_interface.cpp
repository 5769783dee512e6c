// A Vulkan compute shader's interface, lowered onto the kernel model: its storage buffers, uniform buffers and
// push-constant block become Buffer parameters (ShaderResource) in descriptor set and binding order, and its
// work-group size is the one its specialization constants give.
#include <algorithm>
#include <cstring>

#include "interpreter/kernel_lowering.hpp"

namespace clref::interpreter {

bool isShaderResource(spv::StorageClass sc) {
  return sc == spv::StorageClass::StorageBuffer || sc == spv::StorageClass::Uniform ||
         sc == spv::StorageClass::PushConstant || sc == spv::StorageClass::UniformConstant;
}

namespace {

uint32_t literalOf(const Module& m, uint32_t id, spv::Decoration d) {
  const Decoration* dec = m.decoration(id, d);
  return dec && !dec->literals.empty() ? dec->literals[0] : 0;
}

// Vulkan §15.1 [external] Shader Resource Declarations: a Uniform variable of a Block-decorated structure is a
// uniform buffer; SPIR-V 1.0's storage buffer is a Uniform variable of a BufferBlock-decorated one (Vulkan §A.3.1
// [external]); SPIR-V 1.3 and later declare it in the StorageBuffer class.
ShaderResource resourceOf(const Module& m, spv::StorageClass sc, uint32_t blockType) {
  switch (sc) {
    case spv::StorageClass::StorageBuffer: return ShaderResource::StorageBuffer;
    case spv::StorageClass::PushConstant: return ShaderResource::PushConstant;
    case spv::StorageClass::Uniform:
      return m.hasDecoration(blockType, spv::Decoration::BufferBlock) ? ShaderResource::StorageBuffer
                                                                      : ShaderResource::UniformBuffer;
    default: return ShaderResource::None;
  }
}

// The structure a resource variable holds, through an array of them (an array of blocks: one binding, several
// descriptors).
uint32_t blockTypeOf(const Module& m, uint32_t pointee) {
  const Type& t = m.type(pointee);
  return t.kind == TypeKind::Array || t.kind == TypeKind::RuntimeArray ? t.element : pointee;
}

}  // namespace

void KernelLowering::assignShaderResources() {
  struct Resource {
    uint32_t variable;
    ShaderResource kind;
    uint32_t set, binding;
  };
  std::vector<Resource> resources;
  for (uint32_t v : m_.globalVariables) {
    const Instruction& inst = m_.def(v);
    const auto sc = spv::StorageClass(inst.operand(0));
    if (!isShaderResource(sc)) continue;
    const uint32_t pointee = m_.type(inst.resultType).element;
    const uint32_t block = blockTypeOf(m_, pointee);
    const ShaderResource kind = resourceOf(m_, sc, block);
    if (kind == ShaderResource::None)
      L_.reject(inst, "images, samplers and other UniformConstant resources in shaders are not executed by clref");
    if (block != pointee && (kind == ShaderResource::PushConstant || m_.type(pointee).kind != TypeKind::Array ||
                             m_.type(pointee).count == 0))
      L_.reject(inst, kind == ShaderResource::PushConstant
                          ? "an array of push-constant blocks is not a Vulkan interface"
                          : "run-time sized arrays of buffer blocks (runtimeDescriptorArray) and arrays sized by a "
                            "specialization constant are not executed by clref: give the array a constant size");
    resources.push_back({v, kind, literalOf(m_, v, spv::Decoration::DescriptorSet),
                         literalOf(m_, v, spv::Decoration::Binding)});
  }
  // Vulkan §15.9 [external] Push Constants: at most one push-constant block per entry point; it comes last.
  std::stable_sort(resources.begin(), resources.end(), [](const Resource& a, const Resource& b) {
    const bool pa = a.kind == ShaderResource::PushConstant, pb = b.kind == ShaderResource::PushConstant;
    if (pa != pb) return pb;
    return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
  });
  for (const Resource& r : resources) {
    const Instruction& inst = m_.def(r.variable);
    const uint32_t pointee = m_.type(inst.resultType).element;
    const uint32_t blockId = blockTypeOf(m_, pointee);
    // Vulkan §15.1 [external] Shader Resource Declarations: an array of blocks at one binding is an array of
    // descriptors (descriptorCount of them), each bound to its own buffer; its pointers form a table in the register
    // file that an access chain's first index selects from (ops_memory.cpp).
    const uint32_t count = blockId != pointee ? m_.type(pointee).count : 0;
    const uint32_t table = count ? L_.scratch(uint64_t(count) * L_.ptrBytes()) : L_.reg(r.variable);
    if (count) L_.descriptorArrays_[r.variable] = {table, count, uint32_t(k_.params.size())};
    for (uint32_t element = 0; element < std::max<uint32_t>(count, 1); ++element)
      addShaderResource(r.variable, r.kind, r.set, r.binding, count, element, table + element * L_.ptrBytes());
  }
}

// One descriptor of a resource variable: a Buffer parameter whose pointer register is `reg`.
void KernelLowering::addShaderResource(uint32_t variable, ShaderResource kind, uint32_t set, uint32_t binding,
                                       uint32_t count, uint32_t element, uint32_t reg) {
  const Instruction& inst = m_.def(variable);
  const uint32_t blockId = blockTypeOf(m_, m_.type(inst.resultType).element);
  const Type& block = m_.type(blockId);
  KernelParam kp;
  kp.name = m_.nameOf(variable);
  // glslang names an anonymous block instance "": the block's type name says which it is.
  if (kp.name.front() == '%') kp.name = m_.nameOf(blockId);
  if (count) kp.name += "[" + std::to_string(element) + "]";
  static constexpr const char* kKind[] = {"", "buffer ", "uniform ", "push_constant "};
  kp.typeName = kKind[size_t(kind)] + m_.nameOf(blockId);
  if (kind != ShaderResource::PushConstant)
    kp.typeName += " (set " + std::to_string(set) + ", binding " + std::to_string(binding) +
                   (count ? ", element " + std::to_string(element) + " of " + std::to_string(count) : "") + ")";
  kp.kind = ParamKind::Buffer;
  kp.reg = reg;
  kp.arrayElement = element;
  kp.descriptorCount = count;
  kp.size = L_.ptrBytes();
  kp.pointeeAlign = std::max<uint32_t>(block.align, 1);
  kp.storage = spv::StorageClass(inst.operand(0));
  kp.resource = kind;
  kp.descriptorSet = set;
  kp.binding = binding;
  // NonWritable on the variable (GLSL's readonly) or on every member of the block (SPIR-V 1.0 §3.20 [external]).
  bool nonWritable = kind != ShaderResource::StorageBuffer || m_.hasDecoration(variable, spv::Decoration::NonWritable);
  if (!nonWritable && !block.members.empty()) {
    size_t marked = 0;
    if (auto it = m_.decorations.find(blockId); it != m_.decorations.end())
      for (const auto& d : it->second)
        if (d.kind == spv::Decoration::NonWritable && d.member >= 0) ++marked;
    nonWritable = marked == block.members.size();
  }
  kp.noWrite = nonWritable;
  kp.pointeeSize = block.size;
  if (!scalarFields(blockId, 0, kp.pointeeFields)) kp.pointeeFields.clear();
  // Uniform buffers and push constants are read-only memory (Vulkan §A.3 [external]: no stores to them).
  const auto storage =
      kind == ShaderResource::StorageBuffer ? spv::StorageClass::CrossWorkgroup : spv::StorageClass::UniformConstant;
  const uint32_t index = uint32_t(k_.params.size());
  AllocationDesc d{kp.typeName, AllocationSource::KernelArg, storage, 0, kp.pointeeAlign, index};
  d.variable = variable;
  kp.tag = newTag(std::move(d));
  k_.params.push_back(std::move(kp));
}

// Vulkan §A.3 [external] and SPIR-V 1.0 §3.21 [external] BuiltIn WorkgroupSize: a constant decorated WorkgroupSize
// gives the work-group size, in place of the LocalSize or LocalSizeId execution mode; LocalSizeId's operands may be
// specialization constants. Their values are the specialized ones in the register template.
void KernelLowering::specializeLocalSize(const EntryPoint& ep) {
  auto u32 = [&](uint32_t id, size_t component) {
    uint32_t v = 0;
    std::memcpy(&v, k_.registerTemplate.data() + L_.reg(id) + 4 * component, 4);
    return v;
  };
  std::optional<std::array<uint32_t, 3>> size = ep.requiredLocalSize;
  if (ep.localSizeIds) size = std::array{u32((*ep.localSizeIds)[0], 0), u32((*ep.localSizeIds)[1], 0),
                                         u32((*ep.localSizeIds)[2], 0)};
  for (const auto& inst : m_.instructions)
    if (isConstantOp(inst.opcode) && inst.resultId && L_.hasReg(inst.resultId))
      if (auto* b = m_.decoration(inst.resultId, spv::Decoration::BuiltIn);
          b && !b->literals.empty() && spv::BuiltIn(b->literals[0]) == spv::BuiltIn::WorkgroupSize)
        size = std::array{u32(inst.resultId, 0), u32(inst.resultId, 1), u32(inst.resultId, 2)};
  if (!size) throw ModuleError("the compute shader " + ep.name + " declares no work-group size (LocalSize)");
  for (uint32_t d : *size)
    if (d == 0) throw ModuleError("the compute shader " + ep.name + "'s work-group size has a zero dimension");
  k_.requiredLocalSize = *size;
}

}  // namespace clref::interpreter
