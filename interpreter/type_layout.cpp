// Type layout (sizes, alignments, strides and member offsets) as OpenCL C lays out its types.
#include <algorithm>

#include "interpreter/module.hpp"

namespace clref::interpreter {

// OpenCL C 3.0 §6.3.5 [[alignment-of-types]] (alignment of types): scalars and vectors are aligned to their size, a
// 3-component vector to 4 components; structs to their most aligned member unless CPacked.
void Module::layoutTypes() {
  const uint32_t ptrBytes = addressing == spv::AddressingModel::Physical32 ? 4 : 8;
  // Module::parse lays out modules the validator has not accepted (clref dis, info): every
  // operand is checked before its value is used, and a type that breaks a rule is refused.
  auto refuse = [&](uint32_t i, const std::string& rule) {
    throw ModuleError("invalid type: " + rule + "\n  at " + describe(i));
  };
  // A type operand that names a type already laid out (not void, not a function type).
  auto laidOut = [&](uint32_t i, uint32_t id, const char* operand) -> const Type& {
    auto e = types.find(id);
    if (e == types.end() || e->second.kind == TypeKind::Void || e->second.kind == TypeKind::Function ||
        e->second.align == 0)
      refuse(i, std::string(operand) + " %" + std::to_string(id) + " is not a sized type defined before it");
    return e->second;
  };
  // A pointer's layout does not depend on its pointee, and a struct may hold a pointer declared after it by
  // OpTypeForwardPointer (a linked list's node: SPIR-V 1.0 §3.32.6 [external] OpTypeForwardPointer): pointers are laid
  // out first.
  for (auto& [id, t] : types)
    if (t.kind == TypeKind::Pointer) {
      t.size = ptrBytes;
      t.align = ptrBytes;
    }
  // Types are defined before use (SPIR-V 1.0 §2.4 [external]), so one pass in instruction order works.
  for (uint32_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = instructions[i];
    if (inst.opcode < spv::Op::OpTypeVoid || inst.opcode > spv::Op::OpTypeForwardPointer) continue;
    if (inst.opcode == spv::Op::OpTypeForwardPointer) continue;
    auto it = types.find(inst.resultId ? inst.resultId : inst.words[1]);
    if (it == types.end()) continue;
    Type& t = it->second;
    switch (t.kind) {
      case TypeKind::Bool:
        t.size = 1;
        t.align = 1;
        break;
      case TypeKind::Int:
      case TypeKind::Float:
        // SPIR-V 1.0 §3.32.6 [external] OpTypeInt, OpTypeFloat; OpenCL kernels use 8 to 64 bits.
        if (t.width != 8 && t.width != 16 && t.width != 32 && t.width != 64)
          refuse(i, "width " + std::to_string(t.width) + " is not 8, 16, 32 or 64");
        t.size = t.width / 8;
        t.align = uint32_t(t.size);
        break;
      case TypeKind::Vector: {
        // SPIR-V 1.0 §3.32.6 [external] OpTypeVector: Component Type must be a scalar type,
        // Component Count at least 2.
        const Type& e = laidOut(i, t.element, "Component Type");
        if (e.kind != TypeKind::Int && e.kind != TypeKind::Float && e.kind != TypeKind::Bool)
          refuse(i, "Component Type %" + std::to_string(t.element) + " is not a scalar type");
        if (t.count < 2 || t.count > 16)
          refuse(i, "Component Count " + std::to_string(t.count) + " is not between 2 and 16");
        const uint32_t slots = t.count == 3 ? 4 : t.count;
        t.size = e.size * slots;
        t.align = uint32_t(t.size);
        t.stride = e.size;
        // A shader module states the layout of what it shares by Offset, ArrayStride and MatrixStride; its vectors
        // take their components' bytes, aligned as GLSL 4.60 §4.4.5 [external] std430 aligns them (a 3-component
        // vector as a 4-component one).
        if (isVulkanShader()) t.size = e.size * t.count;
        break;
      }
      case TypeKind::Matrix: {
        // SPIR-V 1.0 §3.32.6 [external] OpTypeMatrix: Column Type is a vector of floats, Column Count at least 2;
        // laid out as an array of its columns (the MatrixStride of a member that holds one says the stride).
        const Type& c = laidOut(i, t.element, "Column Type");
        if (c.kind != TypeKind::Vector)
          refuse(i, "Column Type %" + std::to_string(t.element) + " is not a vector type");
        if (t.count < 2) refuse(i, "Column Count " + std::to_string(t.count) + " is less than 2");
        t.stride = (c.size + c.align - 1) / c.align * c.align;
        // In a shader module a matrix's register layout is its columns packed at the column's own bytes (a mat3's
        // columns 12 bytes apart, its components one flat array of columns × rows): a struct member or array
        // element keeps in registers the offset and stride its Offset and ArrayStride give it in memory, so the
        // register matrix must fit inside the memory one whatever its MatrixStride and majorness (a scalar-layout
        // mat3 spans 36 bytes, Vulkan §15.6.4 [external] Offset and Stride Assignment), and the packed layout is
        // the smallest; memory with another MatrixStride or RowMajor is converted when it is loaded or stored
        // (ops_memory.cpp).
        if (isVulkanShader()) t.stride = c.size;
        t.size = t.stride * t.count;
        t.align = c.align;
        break;
      }
      case TypeKind::Array: {
        // SPIR-V 1.0 §3.32.6 [external] OpTypeArray: Length must be an OpConstant of a scalar
        // integer type, at least 1.
        const Type& e = laidOut(i, t.element, "Element Type");
        const Instruction* lenDef = findDef(t.count);
        const auto lenType = lenDef ? types.find(lenDef->resultType) : types.end();
        // SPIR-V 1.0 §3.32.6 [external] OpTypeArray: Length comes from a constant instruction, in a shader module
        // also an OpSpecConstantOp (`shared float tile[gl_WorkGroupSize.x]`), whose value is known once the pipeline
        // specializes it: until then the length is 0 and the size unknown (0 bytes).
        if (isVulkanShader() && lenDef && lenDef->opcode == spv::Op::OpSpecConstantOp && lenType != types.end() &&
            lenType->second.kind == TypeKind::Int) {
          t.count = 0;
          t.stride = (e.size + e.align - 1) / e.align * e.align;
          if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride); d && !d->literals.empty())
            t.stride = d->literals[0];
          t.size = 0;
          t.align = e.align;
          break;
        }
        if (!lenDef || (lenDef->opcode != spv::Op::OpConstant && lenDef->opcode != spv::Op::OpSpecConstant) ||
            lenType == types.end() || lenType->second.kind != TypeKind::Int || lenDef->words.size() < 4)
          refuse(i, "Length %" + std::to_string(t.count) +
                        " is not an OpConstant or OpSpecConstant of a scalar integer type");
        uint64_t n = lenDef->words[3];
        if (lenDef->words.size() > 4 && lenType->second.width > 32) n |= uint64_t(lenDef->words[4]) << 32;
        if (n == 0 || n > UINT32_MAX)
          refuse(i, "Length " + std::to_string(n) + " is not between 1 and " + std::to_string(UINT32_MAX));
        t.count = uint32_t(n);
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride); d && !d->literals.empty())
          t.stride = d->literals[0];
        if (__builtin_mul_overflow(t.stride, n, &t.size))
          refuse(i, "size " + std::to_string(t.stride) + " × " + std::to_string(n) + " bytes exceeds 2^64");
        t.align = e.align;
        break;
      }
      case TypeKind::RuntimeArray: {
        const Type& e = laidOut(i, t.element, "Element Type");
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride); d && !d->literals.empty())
          t.stride = d->literals[0];
        t.size = 0;
        t.align = e.align;
        break;
      }
      case TypeKind::Struct: {
        const uint32_t id = inst.words[1];
        const bool packed = hasDecoration(id, spv::Decoration::CPacked);
        uint64_t off = 0;
        uint32_t align = 1;
        t.memberOffsets.clear();
        for (size_t k = 0; k < t.members.size(); ++k) {
          const Type& m = laidOut(i, t.members[k], "Member type");
          const uint32_t ma = packed ? 1 : m.align;
          off = (off + ma - 1) / ma * ma;
          for (const auto& d : decorations[id])
            if (d.member == int32_t(k) && d.kind == spv::Decoration::Offset && !d.literals.empty()) off = d.literals[0];
          t.memberOffsets.push_back(off);
          if (__builtin_add_overflow(off, m.size, &off)) refuse(i, "size exceeds 2^64 bytes");
          align = std::max(align, ma);
        }
        t.align = align;
        t.size = (off + align - 1) / align * align;
        break;
      }
      case TypeKind::Pointer:
      case TypeKind::Event:
      case TypeKind::DeviceEvent:
      case TypeKind::ReserveId:
      case TypeKind::Queue:
      case TypeKind::NamedBarrier:
      case TypeKind::Pipe:
      case TypeKind::Image:
      case TypeKind::Sampler:
        t.size = ptrBytes;
        t.align = ptrBytes;
        break;
      case TypeKind::SampledImage:
        // An image handle and a sampler handle (exec.hpp kImageHandleTag); only ever in registers.
        t.size = 2 * uint64_t(ptrBytes);
        t.align = ptrBytes;
        break;
      default: break;
    }
    if (t.kind == TypeKind::Pointer) {
      // PtrAccessChain steps by the pointee's size rounded to its alignment.
      if (auto pt = types.find(t.element); pt != types.end() && pt->second.kind != TypeKind::Void) {
        const Type& e = pt->second;
        t.stride = e.align ? (e.size + e.align - 1) / e.align * e.align : e.size;
      }
      if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride); d && !d->literals.empty())
        t.stride = d->literals[0];
    }
  }
  // Pointers declared before their pointee's layout (forward pointers) get their stride now.
  for (auto& [id, t] : types) {
    if (t.kind != TypeKind::Pointer || t.stride) continue;
    if (auto pt = types.find(t.element); pt != types.end() && pt->second.align)
      t.stride = (pt->second.size + pt->second.align - 1) / pt->second.align * pt->second.align;
  }
}

}  // namespace clref::interpreter
