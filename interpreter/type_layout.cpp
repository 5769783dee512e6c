// Type layout (sizes, alignments, strides and member offsets) as OpenCL C lays out its types.
#include <algorithm>

#include "interpreter/module.hpp"

namespace clref::interpreter {

// OpenCL C 3.0 §6.3.5 [[alignment-of-types]] (alignment of types): scalars and vectors are aligned to their size, a
// 3-component vector to 4 components; structs to their most aligned member unless CPacked.
void Module::layoutTypes() {
  const uint32_t ptrBytes = addressing == spv::AddressingModel::Physical32 ? 4 : 8;
  // Types are defined before use (SPIR-V 1.0 §2.4 [external]), so one pass in instruction order works.
  for (const auto& inst : instructions) {
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
        t.size = t.width / 8;
        t.align = uint32_t(t.size);
        break;
      case TypeKind::Vector: {
        const Type& e = types.at(t.element);
        const uint32_t slots = t.count == 3 ? 4 : t.count;
        t.size = e.size * slots;
        t.align = uint32_t(t.size);
        t.stride = e.size;
        break;
      }
      case TypeKind::Array: {
        const Type& e = types.at(t.element);
        // The length is a constant id; read its value directly (OpConstant of an int type).
        const auto& lenDef = def(t.count);
        uint64_t n = lenDef.words.size() > 3 ? lenDef.words[3] : 0;
        if (lenDef.words.size() > 4) n |= uint64_t(lenDef.words[4]) << 32;
        t.count = uint32_t(n);
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
        t.size = t.stride * n;
        t.align = e.align;
        break;
      }
      case TypeKind::RuntimeArray: {
        const Type& e = types.at(t.element);
        t.stride = (e.size + e.align - 1) / e.align * e.align;
        if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
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
          const Type& m = types.at(t.members[k]);
          const uint32_t ma = packed ? 1 : m.align;
          off = (off + ma - 1) / ma * ma;
          for (const auto& d : decorations[id])
            if (d.member == int32_t(k) && d.kind == spv::Decoration::Offset) off = d.literals[0];
          t.memberOffsets.push_back(off);
          off += m.size;
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
      case TypeKind::Pipe:
      case TypeKind::Image:
      case TypeKind::Sampler:
      case TypeKind::SampledImage:
        t.size = ptrBytes;
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
      if (auto* d = decoration(inst.words[1], spv::Decoration::ArrayStride)) t.stride = d->literals[0];
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
