// What a Vulkan compute shader module declares, for `clref info` (shader_interface.hpp).
#include "cli/shader_interface.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

namespace clref::cli {

namespace {

using interpreter::Decoration;
using interpreter::Instruction;
using interpreter::Module;
using interpreter::Type;
using interpreter::TypeKind;

const Type* typeOf(const Module& m, uint32_t id) {
  auto it = m.types.find(id);
  return it == m.types.end() ? nullptr : &it->second;
}

// The last word of an instruction's disassembly ("%7 = OpTypeImage %float 2D 0 0 0 2 Rgba8" → "Rgba8"): the grammar's
// name of an enumerant operand, without a second table here.
std::string lastToken(const Module& m, const Instruction& inst) {
  const std::string text = m.disassemble(inst);
  const auto space = text.find_last_of(' ');
  return space == std::string::npos ? text : text.substr(space + 1);
}

std::string scalarPrefix(const Module& m, uint32_t componentType) {
  const Type* t = typeOf(m, componentType);
  if (!t) return "?";
  switch (t->kind) {
    case TypeKind::Bool: return "b";
    case TypeKind::Float: return t->width == 64 ? "d" : t->width == 32 ? "" : "f" + std::to_string(t->width);
    case TypeKind::Int:
      if (t->width == 32) return t->isSigned ? "i" : "u";
      return (t->isSigned ? "i" : "u") + std::to_string(t->width);
    default: return "?";
  }
}

// OpTypeImage: Sampled Type, Dim, Depth, Arrayed, MS, Sampled (1: used with a sampler, 2: a storage image), Image
// Format (words 2 to 8).
std::string imageTypeName(const Module& m, uint32_t typeId, bool withSampler) {
  const Instruction* d = m.findDef(typeId);
  if (!d || d->words.size() < 9) return "image";
  const auto& w = d->words;
  static const char* const dims[] = {"1D", "2D", "3D", "Cube", "2DRect", "Buffer", "SubpassData"};
  const std::string dim = w[3] < std::size(dims) ? dims[w[3]] : "Dim" + std::to_string(w[3]);
  std::string prefix = scalarPrefix(m, w[2]);
  if (prefix != "i" && prefix != "u") prefix.clear();
  const bool sampled = w[7] == 1;
  std::string name = prefix + (withSampler ? "sampler" : sampled ? "texture" : "image") + dim;
  if (w[6] == 1) name += "MS";
  if (w[5] == 1) name += "Array";
  if (w[4] == 1 && (withSampler || sampled)) name += "Shadow";
  if (!sampled && w[8] != 0) name += " (" + lastToken(m, *d) + ")";  // the storage image's format
  return name;
}

std::string shaderTypeNameOf(const Module& m, uint32_t typeId, int depth) {
  const Type* t = typeOf(m, typeId);
  if (!t || depth > 32) return "%" + std::to_string(typeId);
  switch (t->kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Bool: return "bool";
    case TypeKind::Int:
      if (t->width == 32) return t->isSigned ? "int" : "uint";
      return std::string(t->isSigned ? "int" : "uint") + std::to_string(t->width) + "_t";
    case TypeKind::Float:
      if (t->width == 32) return "float";
      if (t->width == 64) return "double";
      return "float" + std::to_string(t->width) + "_t";
    case TypeKind::Vector: return scalarPrefix(m, t->element) + "vec" + std::to_string(t->count);
    case TypeKind::Matrix: {
      const Type* column = typeOf(m, t->element);
      const uint32_t rows = column ? column->count : 0;
      const std::string prefix = column ? scalarPrefix(m, column->element) : "?";
      return prefix + "mat" + std::to_string(t->count) + (rows == t->count ? "" : "x" + std::to_string(rows));
    }
    case TypeKind::Array:
    case TypeKind::RuntimeArray: {
      // GLSL writes the outermost dimension first: float[2][3] is an array of 2 arrays of 3 floats.
      std::string dims;
      uint32_t inner = typeId;
      for (const Type* a = t; a && (a->kind == TypeKind::Array || a->kind == TypeKind::RuntimeArray) && depth < 32;
           a = typeOf(m, inner), ++depth) {
        dims += a->kind == TypeKind::RuntimeArray ? "[]"
                : a->count                        ? "[" + std::to_string(a->count) + "]"
                                                  : "[specialization constant]";
        inner = a->element;
      }
      return shaderTypeNameOf(m, inner, depth + 1) + dims;
    }
    case TypeKind::Struct: {
      auto n = m.names.find(typeId);
      return n != m.names.end() && !n->second.empty() ? "struct " + n->second : "struct %" + std::to_string(typeId);
    }
    case TypeKind::Pointer: {
      const Instruction* d = m.findDef(typeId);
      return shaderTypeNameOf(m, t->element, depth + 1) + " pointer" + (d ? " (" + lastToken(m, *d) + ")" : "");
    }
    case TypeKind::Image: return imageTypeName(m, typeId, false);
    case TypeKind::Sampler: return "sampler";
    case TypeKind::SampledImage: {
      const Instruction* d = m.findDef(typeId);
      return d && d->words.size() > 2 ? imageTypeName(m, d->words[2], true) : "sampled image";
    }
    default: return "opaque";
  }
}

// The literal words of a decoration, or none.
std::optional<uint32_t> literal(const Decoration* d) {
  if (!d || d->literals.empty()) return std::nullopt;
  return d->literals[0];
}

const std::vector<Decoration>* decorationsOf(const Module& m, uint32_t id) {
  auto it = m.decorations.find(id);
  return it == m.decorations.end() ? nullptr : &it->second;
}

std::vector<const Decoration*> memberDecorations(const Module& m, uint32_t structId, uint32_t member) {
  std::vector<const Decoration*> out;
  if (const auto* decs = decorationsOf(m, structId))
    for (const auto& d : *decs)
      if (d.member == int32_t(member)) out.push_back(&d);
  return out;
}

// A constant's value as text: integers in decimal (by signedness), floats shortest round-trip, Booleans.
std::string constantText(const Module& m, const Instruction& c) {
  if (c.opcode == spv::Op::OpSpecConstantTrue || c.opcode == spv::Op::OpConstantTrue) return "true";
  if (c.opcode == spv::Op::OpSpecConstantFalse || c.opcode == spv::Op::OpConstantFalse) return "false";
  if ((c.opcode != spv::Op::OpSpecConstant && c.opcode != spv::Op::OpConstant) || c.words.size() < 4)
    return m.disassemble(c);
  const Type* t = typeOf(m, c.resultType);
  if (!t) return "?";
  uint64_t bits = c.words[3];
  if (c.words.size() > 4) bits |= uint64_t(c.words[4]) << 32;
  char buf[64];
  if (t->kind == TypeKind::Int) {
    if (!t->isSigned) return std::to_string(bits);
    const unsigned w = t->width;
    int64_t v = int64_t(bits);
    if (w > 0 && w < 64 && (bits >> (w - 1)) & 1) v = int64_t(bits | ~((uint64_t(1) << w) - 1));
    return std::to_string(v);
  }
  if (t->kind == TypeKind::Float && t->width == 32) {
    float f;
    const uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, f).ptr);
  }
  if (t->kind == TypeKind::Float && t->width == 64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
  }
  if (t->kind == TypeKind::Float && t->width == 16) {
    // IEEE 754-2008 §3.6 [external] binary16: 1 sign, 5 exponent, 10 fraction bits; every value is a float exactly.
    const uint32_t h = uint32_t(bits) & 0xffff, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    float v = e == 0    ? std::ldexp(float(f), -24)
              : e == 31 ? (f ? NAN : INFINITY)
                        : std::ldexp(float(f | 0x400), int(e) - 25);
    if (h & 0x8000) v = -v;
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
  std::ostringstream hex;  // a width the validator would refuse: the bits as they are
  hex << "0x" << std::hex << bits;
  return hex.str();
}

// "8" for a constant, "8 (SpecId 0)" for a specialization constant.
std::string sizeComponent(const Module& m, uint32_t id) {
  const Instruction* c = m.findDef(id);
  if (!c) return "%" + std::to_string(id);
  std::string text = constantText(m, *c);
  if (auto spec = literal(m.decoration(id, spv::Decoration::SpecId))) text += " (SpecId " + std::to_string(*spec) + ")";
  return text;
}

// The bytes a block member covers, as glslang's reflection sizes a block: an array its ArrayStride per element, a
// matrix its MatrixStride per column (per row when RowMajor), a structure up to the end of its last member, a runtime
// array none (its length is the buffer's).
uint64_t extentOf(const Module& m, uint32_t typeId, std::optional<uint32_t> matrixStride, bool rowMajor, int depth);

uint64_t structExtent(const Module& m, uint32_t structId, int depth) {
  const Type* t = typeOf(m, structId);
  if (!t || depth > 32) return 0;
  uint64_t end = 0;
  for (uint32_t k = 0; k < t->members.size(); ++k) {
    std::optional<uint32_t> offset, stride;
    bool rowMajor = false;
    for (const auto* d : memberDecorations(m, structId, k)) {
      if (d->kind == spv::Decoration::Offset) offset = literal(d);
      if (d->kind == spv::Decoration::MatrixStride) stride = literal(d);
      if (d->kind == spv::Decoration::RowMajor) rowMajor = true;
    }
    const uint64_t at = offset ? *offset : k < t->memberOffsets.size() ? t->memberOffsets[k] : 0;
    end = std::max(end, at + extentOf(m, t->members[k], stride, rowMajor, depth + 1));
  }
  return end;
}

uint64_t extentOf(const Module& m, uint32_t typeId, std::optional<uint32_t> matrixStride, bool rowMajor, int depth) {
  const Type* t = typeOf(m, typeId);
  if (!t || depth > 32) return 0;
  switch (t->kind) {
    case TypeKind::Array: {
      const uint64_t stride = literal(m.decoration(typeId, spv::Decoration::ArrayStride)).value_or(uint32_t(t->stride));
      return stride * t->count;
    }
    case TypeKind::RuntimeArray: return 0;
    case TypeKind::Matrix: {
      const Type* column = typeOf(m, t->element);
      const uint32_t lines = rowMajor && column ? column->count : t->count;
      return uint64_t(matrixStride.value_or(uint32_t(t->stride))) * lines;
    }
    case TypeKind::Struct: return structExtent(m, typeId, depth);
    default: return t->size;
  }
}

// A block's size: the bytes up to the end of its last member, and the stride of a runtime array at its end (the
// buffer bound to it decides how many elements it has).
std::string blockSize(const Module& m, uint32_t structId) {
  std::string text = std::to_string(structExtent(m, structId, 0)) + " bytes";
  const Type* t = typeOf(m, structId);
  if (!t || t->members.empty()) return text;
  const Type* last = typeOf(m, t->members.back());
  if (last && last->kind == TypeKind::RuntimeArray) {
    const auto stride = literal(m.decoration(t->members.back(), spv::Decoration::ArrayStride));
    text += " and a runtime array, " + (stride ? std::to_string(*stride) : std::string("?")) + " bytes per element";
  }
  return text;
}

// The OpMemberName names of the module: (structure, member) → name.
std::map<std::pair<uint32_t, uint32_t>, std::string> memberNames(const Module& m) {
  std::map<std::pair<uint32_t, uint32_t>, std::string> out;
  for (const auto& inst : m.instructions)
    if (inst.opcode == spv::Op::OpMemberName && inst.words.size() > 3)
      out[{inst.words[1], inst.words[2]}] = interpreter::literalString(inst.words, 3);
  return out;
}

class Printer {
 public:
  Printer(const Module& m, std::ostringstream& out) : m_(m), out_(out), memberNames_(memberNames(m)) {}

  // A block's members, one line each, with the members of nested structures below them.
  void members(uint32_t structId, const std::string& indent, int depth) {
    const Type* t = typeOf(m_, structId);
    if (!t || t->kind != TypeKind::Struct || depth > 16) return;
    for (uint32_t k = 0; k < t->members.size(); ++k) {
      const uint32_t member = t->members[k];
      auto name = memberNames_.find({structId, k});
      out_ << indent
           << (name != memberNames_.end() && !name->second.empty() ? name->second : "member " + std::to_string(k))
           << ": " << shaderTypeName(m_, member);
      std::string flags;
      std::optional<uint32_t> offset, matrixStride;
      for (const auto* d : memberDecorations(m_, structId, k)) {
        switch (d->kind) {
          case spv::Decoration::Offset: offset = literal(d); break;
          case spv::Decoration::MatrixStride: matrixStride = literal(d); break;
          case spv::Decoration::RowMajor: flags += " RowMajor"; break;
          case spv::Decoration::ColMajor: flags += " ColMajor"; break;
          case spv::Decoration::NonWritable: flags += " NonWritable"; break;
          case spv::Decoration::NonReadable: flags += " NonReadable"; break;
          case spv::Decoration::Coherent: flags += " Coherent"; break;
          case spv::Decoration::Volatile: flags += " Volatile"; break;
          case spv::Decoration::BuiltIn: flags += " BuiltIn"; break;
          default: break;
        }
      }
      if (offset) out_ << " offset " << *offset;
      // The ArrayStride of each array dimension, outermost first; the element type below them.
      uint32_t element = member;
      for (int level = 0; level < 32; ++level) {
        const Type* a = typeOf(m_, element);
        if (!a || (a->kind != TypeKind::Array && a->kind != TypeKind::RuntimeArray)) break;
        if (auto stride = literal(m_.decoration(element, spv::Decoration::ArrayStride)))
          out_ << " ArrayStride " << *stride;
        element = a->element;
      }
      if (matrixStride) out_ << " MatrixStride " << *matrixStride;
      out_ << flags << "\n";
      if (const Type* e = typeOf(m_, element); e && e->kind == TypeKind::Struct)
        members(element, indent + "  ", depth + 1);
    }
  }

  // Variable decorations that say how a resource is accessed.
  std::string accessFlags(uint32_t variable) {
    std::string flags;
    if (const auto* decs = decorationsOf(m_, variable))
      for (const auto& d : *decs) {
        if (d.member >= 0) continue;
        switch (d.kind) {
          case spv::Decoration::NonWritable: flags += " NonWritable"; break;
          case spv::Decoration::NonReadable: flags += " NonReadable"; break;
          case spv::Decoration::Coherent: flags += " Coherent"; break;
          case spv::Decoration::Volatile: flags += " Volatile"; break;
          case spv::Decoration::Restrict: flags += " Restrict"; break;
          case spv::Decoration::Aliased: flags += " Aliased"; break;
          default: break;
        }
      }
    return flags;
  }

 private:
  const Module& m_;
  std::ostringstream& out_;
  std::map<std::pair<uint32_t, uint32_t>, std::string> memberNames_;
};

std::string storageClassName(const Module& m, uint32_t pointerType) {
  const Instruction* d = m.findDef(pointerType);
  if (!d || d->words.size() < 4) return "?";
  // "%ptr = OpTypePointer StorageBuffer %Block": the word after the opcode.
  const std::string text = m.disassemble(*d);
  const auto op = text.find("OpTypePointer ");
  if (op == std::string::npos) return "storage class " + std::to_string(d->words[2]);
  const auto start = op + 14, end = text.find(' ', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

struct Resource {
  uint32_t variable = 0;
  spv::StorageClass storage = spv::StorageClass::Function;
  uint32_t pointee = 0;
  std::optional<uint32_t> set, binding;
};

void printShader(const Module& m, const interpreter::EntryPoint& ep, std::ostringstream& out) {
  out << "  " << ep.name << "\n";
  // SPIR-V 1.0 §3.21 [external] BuiltIn WorkgroupSize: a constant so decorated gives the local size, in place of the
  // LocalSize or LocalSizeId execution mode.
  std::optional<uint32_t> workgroupSize;
  for (const auto& [id, list] : m.decorations)
    for (const auto& d : list)
      if (d.kind == spv::Decoration::BuiltIn && d.member < 0 && !d.literals.empty() &&
          d.literals[0] == uint32_t(spv::BuiltIn::WorkgroupSize) && m.findDef(id) &&
          m.findDef(id)->opcode != spv::Op::OpVariable)
        workgroupSize = id;
  if (workgroupSize && m.findDef(*workgroupSize)->operandCount() == 3) {
    const Instruction& c = *m.findDef(*workgroupSize);
    out << "    local size: " << sizeComponent(m, c.operand(0)) << " " << sizeComponent(m, c.operand(1)) << " "
        << sizeComponent(m, c.operand(2)) << " (the WorkgroupSize constant " << m.nameOf(*workgroupSize) << ")\n";
  } else if (ep.localSizeIds) {
    const auto& s = *ep.localSizeIds;
    out << "    local size: " << sizeComponent(m, s[0]) << " " << sizeComponent(m, s[1]) << " "
        << sizeComponent(m, s[2]) << " (LocalSizeId)\n";
  } else if (ep.requiredLocalSize) {
    const auto& s = *ep.requiredLocalSize;
    out << "    local size: " << s[0] << " " << s[1] << " " << s[2] << " (LocalSize)\n";
  } else {
    out << "    local size: not declared\n";
  }
  // SPIR-V 1.4 and later list every global variable the entry point uses in its interface (SPIR-V 1.4 §3.32.5
  // [external] OpEntryPoint); earlier versions list only Input and Output ones, so every resource of the module is
  // shown.
  const bool interfaceListsAll = m.version() >= 0x00010400u;
  std::vector<Resource> resources;
  for (uint32_t v : m.globalVariables) {
    if (interfaceListsAll && std::find(ep.interface.begin(), ep.interface.end(), v) == ep.interface.end()) continue;
    const Instruction* def = m.findDef(v);
    const Type* pointer = def ? typeOf(m, def->resultType) : nullptr;
    if (!pointer || pointer->kind != TypeKind::Pointer) continue;
    Resource r{v, pointer->storage, pointer->element, literal(m.decoration(v, spv::Decoration::DescriptorSet)),
               literal(m.decoration(v, spv::Decoration::Binding))};
    using SC = spv::StorageClass;
    if (r.storage == SC::StorageBuffer || r.storage == SC::Uniform || r.storage == SC::UniformConstant ||
        r.storage == SC::PushConstant || r.storage == SC::Workgroup)
      resources.push_back(r);
  }
  std::stable_sort(resources.begin(), resources.end(), [](const Resource& a, const Resource& b) {
    return std::pair(a.set.value_or(UINT32_MAX), a.binding.value_or(UINT32_MAX)) <
           std::pair(b.set.value_or(UINT32_MAX), b.binding.value_or(UINT32_MAX));
  });
  Printer printer(m, out);
  size_t descriptors = 0;
  for (const auto& r : resources) descriptors += r.set || r.binding;
  out << "    resources: " << descriptors << "\n";
  for (const auto& r : resources) {
    if (r.storage == spv::StorageClass::PushConstant || r.storage == spv::StorageClass::Workgroup) continue;
    const Instruction* def = m.findDef(r.variable);
    out << "      set " << (r.set ? std::to_string(*r.set) : "?") << " binding "
        << (r.binding ? std::to_string(*r.binding) : "?") << ": " << storageClassName(m, def->resultType);
    // An array of descriptors (binding arrays) holds blocks or images: its element is described below.
    uint32_t element = r.pointee;
    std::string count;
    if (const Type* a = typeOf(m, element); a && (a->kind == TypeKind::Array || a->kind == TypeKind::RuntimeArray)) {
      count = a->kind == TypeKind::RuntimeArray ? "[]" : "[" + std::to_string(a->count) + "]";
      element = a->element;
    }
    const Type* e = typeOf(m, element);
    const bool block = e && e->kind == TypeKind::Struct;
    // SPIR-V 1.0's storage buffer: a Uniform variable of a BufferBlock-decorated structure (Vulkan §A.3.1 [external]).
    if (block && m.hasDecoration(element, spv::Decoration::BufferBlock)) out << " (BufferBlock: a storage buffer)";
    out << " " << shaderTypeName(m, element) << count << " " << m.nameOf(r.variable) << printer.accessFlags(r.variable);
    if (block) out << " (" << (count.empty() ? "" : "each ") << blockSize(m, element) << ")";
    out << "\n";
    if (block) printer.members(element, "        ", 0);
  }
  for (const auto& r : resources) {
    if (r.storage != spv::StorageClass::PushConstant) continue;
    out << "    push constants: " << shaderTypeName(m, r.pointee) << " " << m.nameOf(r.variable) << " ("
        << extentOf(m, r.pointee, std::nullopt, false, 0) << " bytes)\n";
    printer.members(r.pointee, "      ", 0);
  }
  uint64_t workgroupBytes = 0;
  bool specialized = false;
  for (const auto& r : resources) {
    if (r.storage != spv::StorageClass::Workgroup) continue;
    const Type* t = typeOf(m, r.pointee);
    const uint64_t bytes = t ? t->size : 0;
    const bool bySpec = t && t->kind == TypeKind::Array && t->count == 0;
    specialized = specialized || bySpec;
    workgroupBytes += bytes;
    out << "    workgroup: " << m.nameOf(r.variable) << " " << shaderTypeName(m, r.pointee) << " ("
        << (bySpec ? "size set by a specialization constant" : std::to_string(bytes) + " bytes") << ")\n";
  }
  out << "    workgroup memory: " << workgroupBytes << " bytes"
      << (specialized ? " and the arrays sized by specialization constants" : "") << "\n";
}

}  // namespace

std::string shaderTypeName(const Module& m, uint32_t typeId) { return shaderTypeNameOf(m, typeId, 0); }

std::string shaderInterface(const Module& m) {
  std::ostringstream out;
  std::vector<std::pair<uint32_t, const Instruction*>> specs;  // SpecId → the constant
  for (const auto& inst : m.instructions) {
    if (inst.opcode != spv::Op::OpSpecConstant && inst.opcode != spv::Op::OpSpecConstantTrue &&
        inst.opcode != spv::Op::OpSpecConstantFalse)
      continue;
    // glslang declares local_size_x_id's constant twice (for LocalSizeId and for gl_WorkGroupSize), both with one
    // SpecId: one value, shown once.
    auto id = literal(m.decoration(inst.resultId, spv::Decoration::SpecId));
    if (id && std::none_of(specs.begin(), specs.end(), [&](const auto& s) { return s.first == *id; }))
      specs.emplace_back(*id, &inst);
  }
  std::stable_sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out << "specialization constants: " << specs.size() << "\n";
  for (const auto& [id, c] : specs) {
    out << "  SpecId " << id << ": " << shaderTypeName(m, c->resultType) << " " << constantText(m, *c);
    if (auto n = m.names.find(c->resultId); n != m.names.end() && !n->second.empty()) out << " " << n->second;
    out << "\n";
  }
  out << "compute shaders: " << m.computeShaders.size() << "\n";
  for (const auto& ep : m.computeShaders) printShader(m, ep, out);
  return out.str();
}

}  // namespace clref::cli
