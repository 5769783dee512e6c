// Source variables, values and memory for `clref debug` (debug_values.hpp). The operand layouts read here are
// OpenCL.DebugInfo.100's (its grammar, extinst.opencl.debuginfo.100.grammar.json): an OpExtInst's operand(0) is the
// set, operand(1) the instruction number, and the instruction's own operands follow.
#include "cli/debug_values.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <spirv/unified1/OpenCLDebugInfo100.h>

namespace clref::cli::debug {

using interpreter::Instruction;
using interpreter::Module;
using interpreter::Type;
using interpreter::TypeKind;

namespace {

// Operand `k` of an OpenCL.DebugInfo.100 instruction (after the set and the instruction number).
uint32_t arg(const Instruction& inst, size_t k) { return inst.operand(2 + k); }
size_t argCount(const Instruction& inst) { return inst.operandCount() < 2 ? 0 : inst.operandCount() - 2; }

const char* operationName(uint32_t op) {
  static const char* const names[] = {"Deref", "Plus",   "Minus",      "PlusUconst", "BitPiece",
                                      "Swap",  "Xderef", "StackValue", "Constu",     "Fragment"};
  return op < std::size(names) ? names[op] : "unknown operation";
}

uint64_t loadUnsigned(const uint8_t* bytes, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, bytes, std::min<uint32_t>(size, 8));  // little-endian, as the register file and memory are
  return v;
}

}  // namespace

DebugInfo::DebugInfo(const Module& module) : module_(module) {
  functionStart_.assign(module.instructions.size(), false);
  for (const auto& inst : module.instructions) {
    uint32_t number = 0;
    if (!inst.resultId || !debugInst(inst.resultId, &number)) continue;
    if (number == OpenCLDebugInfo100DebugLocalVariable && argCount(inst) >= 7) {
      SourceVariable v;
      if (auto s = module.strings.find(arg(inst, 0)); s != module.strings.end()) v.name = s->second;
      v.debugType = arg(inst, 1);
      v.line = arg(inst, 3);
      v.argNumber = argCount(inst) > 7 ? arg(inst, 7) : 0;
      variables_.emplace(inst.resultId, std::move(v));
    }
  }
  scopeOf_.assign(module.instructions.size(), {0, 0});
  inlineDepth_.assign(module.instructions.size(), 0);
  for (const auto& [id, f] : module.functions) {
    functionRanges_.emplace_back(f.definition, id);
    bool first = true;
    for (const auto& block : f.blocks) {
      std::vector<Binding> pending;
      // OpenCL.DebugInfo.100 DebugScope: the scope of the instructions after it, to the next DebugScope or
      // DebugNoScope or the end of the block.
      std::pair<uint32_t, uint32_t> scope{0, 0};
      for (uint32_t idx : block.instructions) {
        const Instruction& inst = module.instructions[idx];
        uint32_t number = 0;
        if (inst.opcode == spv::Op::OpExtInst &&
            module.debugInfoSet(inst.extInstSet) == interpreter::DebugInfoSet::OpenCLDebugInfo100) {
          number = inst.operand(1);
          if ((number == OpenCLDebugInfo100DebugDeclare || number == OpenCLDebugInfo100DebugValue) &&
              argCount(inst) >= 3)
            pending.push_back(bindingOf(inst, number));
          if (number == OpenCLDebugInfo100DebugScope && argCount(inst) >= 1)
            scope = {arg(inst, 0), argCount(inst) > 1 ? arg(inst, 1) : 0};
          if (number == OpenCLDebugInfo100DebugNoScope) scope = {0, 0};
          continue;
        }
        scopeOf_[idx] = scope;
        for (uint32_t at = scope.second, n = 0, guard = 0; at && guard < 256; ++guard) {
          const Instruction* ia = debugInst(at, &n);
          if (!ia || n != OpenCLDebugInfo100DebugInlinedAt) break;
          ++inlineDepth_[idx];
          at = argCount(*ia) > 2 ? arg(*ia, 2) : 0;
        }
        if (!executes(module, inst)) continue;
        if (first) functionStart_[idx] = true;
        first = false;
        if (!pending.empty()) {
          auto& list = before_[idx];
          list.insert(list.end(), pending.begin(), pending.end());
          pending.clear();
        }
      }
    }
  }
  std::sort(functionRanges_.begin(), functionRanges_.end());
}

const Instruction* DebugInfo::debugInst(uint32_t id, uint32_t* number) const {
  const Instruction* inst = module_.findDef(id);
  if (!inst || inst->opcode != spv::Op::OpExtInst || inst->operandCount() < 2 ||
      module_.debugInfoSet(inst->extInstSet) != interpreter::DebugInfoSet::OpenCLDebugInfo100)
    return nullptr;
  *number = inst->operand(1);
  return inst;
}

Binding DebugInfo::bindingOf(const Instruction& inst, uint32_t number) const {
  Binding b;
  b.variable = arg(inst, 0);
  b.id = arg(inst, 1);
  b.declare = number == OpenCLDebugInfo100DebugDeclare;
  uint32_t n = 0;
  const Instruction* value = module_.findDef(b.id);
  if (!value || value->opcode == spv::Op::OpUndef || debugInst(b.id, &n)) {
    // An undef value is LLVM's "no location from here on" (compiler/debug_expressions.hpp writes them too).
    b.unavailable = "optimised out here";
    return b;
  }
  // DebugExpression: its operands are DebugOperation ids (each an operation number and its literals).
  std::vector<uint32_t> ops;
  if (const Instruction* expr = debugInst(arg(inst, 2), &n); expr && n == OpenCLDebugInfo100DebugExpression)
    for (size_t k = 0; k < argCount(*expr); ++k)
      if (const Instruction* op = debugInst(arg(*expr, k), &n);
          op && n == OpenCLDebugInfo100DebugOperation && argCount(*op) >= 1)
        ops.push_back(arg(*op, 0));
  // clang marks every OpenCL variable with its address space as "Constu AS, Swap, Xderef" (DWARF's address-space
  // qualified dereference); the location itself is the rest.
  for (size_t k = 0; k + 2 < ops.size();)
    if (ops[k] == OpenCLDebugInfo100Constu && ops[k + 1] == OpenCLDebugInfo100Swap &&
        ops[k + 2] == OpenCLDebugInfo100Xderef)
      ops.erase(ops.begin() + long(k), ops.begin() + long(k) + 3);
    else
      ++k;
  // DebugValue's Indexes: the value is one member of a composite variable.
  if (!b.declare && argCount(inst) > 3) {
    b.unavailable = "its location is a part of a composite the debugger does not assemble";
    return b;
  }
  if (!b.declare && ops.size() == 1 && ops[0] == OpenCLDebugInfo100Deref) {
    b.deref = true;
    ops.clear();
  }
  if (!ops.empty()) {
    std::string names;
    for (uint32_t op : ops) names += std::string(names.empty() ? "" : ", ") + operationName(op);
    b.unavailable = "its location is an expression (" + names + ") the debugger does not evaluate";
  }
  return b;
}

const std::vector<Binding>& DebugInfo::bindingsBefore(uint32_t inst) const {
  static const std::vector<Binding> none;
  auto it = before_.find(inst);
  return it == before_.end() ? none : it->second;
}

const SourceVariable* DebugInfo::variable(uint32_t id) const {
  auto it = variables_.find(id);
  return it == variables_.end() ? nullptr : &it->second;
}

bool DebugInfo::hasVariable(const std::string& name) const {
  return std::any_of(variables_.begin(), variables_.end(), [&](const auto& v) { return v.second.name == name; });
}

uint32_t DebugInfo::functionOf(uint32_t inst) const {
  auto it = std::upper_bound(functionRanges_.begin(), functionRanges_.end(), std::pair(inst, ~uint32_t(0)));
  return it == functionRanges_.begin() ? 0 : std::prev(it)->second;
}

std::string DebugInfo::scopeFunction(uint32_t scope) const {
  for (int guard = 0; guard < 256 && scope; ++guard) {
    uint32_t n = 0;
    const Instruction* s = debugInst(scope, &n);
    if (!s) return "";
    if (n == OpenCLDebugInfo100DebugFunction && argCount(*s) > 0) {
      auto name = module_.strings.find(arg(*s, 0));
      return name == module_.strings.end() ? "" : name->second;
    }
    // DebugLexicalBlock: Source, Line, Column, Parent; DebugLexicalBlockDiscriminator: Source, Discriminator, Parent.
    if (n == OpenCLDebugInfo100DebugLexicalBlock && argCount(*s) > 3)
      scope = arg(*s, 3);
    else if (n == OpenCLDebugInfo100DebugLexicalBlockDiscriminator && argCount(*s) > 2)
      scope = arg(*s, 2);
    else
      return "";
  }
  return "";
}

std::string DebugInfo::scopeFile(uint32_t scope) const {
  uint32_t n = 0;
  const Instruction* s = debugInst(scope, &n);
  // DebugFunction: Name, Type, Source, ...; the lexical blocks start with their Source.
  const size_t k = n == OpenCLDebugInfo100DebugFunction ? 2 : 0;
  if (!s || argCount(*s) <= k) return "";
  const Instruction* source = debugInst(arg(*s, k), &n);
  if (!source || n != OpenCLDebugInfo100DebugSource || argCount(*source) < 1) return "";
  auto file = module_.strings.find(arg(*source, 0));
  return file == module_.strings.end() ? "" : file->second;
}

std::string DebugInfo::functionAt(uint32_t inst) const {
  return inst < scopeOf_.size() ? scopeFunction(scopeOf_[inst].first) : "";
}

std::vector<DebugInfo::InlinedCall> DebugInfo::inlinedCalls(uint32_t inst) const {
  std::vector<InlinedCall> calls;
  if (inst >= scopeOf_.size()) return calls;
  // DebugInlinedAt: Line, Scope (where the call is), and the Inlined At of that scope when it was inlined too.
  for (uint32_t at = scopeOf_[inst].second, n = 0; at && calls.size() < 256;) {
    const Instruction* ia = debugInst(at, &n);
    if (!ia || n != OpenCLDebugInfo100DebugInlinedAt || argCount(*ia) < 2) break;
    calls.push_back({scopeFunction(arg(*ia, 1)), arg(*ia, 0), scopeFile(arg(*ia, 1))});
    at = argCount(*ia) > 2 ? arg(*ia, 2) : 0;
  }
  return calls;
}

uint32_t DebugInfo::stripped(uint32_t debugType) const {
  for (int guard = 0; guard < 64 && debugType; ++guard) {
    uint32_t n = 0;
    const Instruction* t = debugInst(debugType, &n);
    if (!t) return 0;
    if (n == OpenCLDebugInfo100DebugTypedef && argCount(*t) > 1)
      debugType = arg(*t, 1);
    else if (n == OpenCLDebugInfo100DebugTypeQualifier && argCount(*t) > 0)
      debugType = arg(*t, 0);
    else
      return debugType;
  }
  return 0;
}

uint32_t DebugInfo::encodingOf(uint32_t debugType) const {
  for (int guard = 0; guard < 64; ++guard) {
    uint32_t n = 0;
    const Instruction* t = debugInst(stripped(debugType), &n);
    if (!t) return OpenCLDebugInfo100Unspecified;
    if (n == OpenCLDebugInfo100DebugTypeBasic && argCount(*t) > 2) return arg(*t, 2);
    if ((n == OpenCLDebugInfo100DebugTypeVector || n == OpenCLDebugInfo100DebugTypeArray) && argCount(*t) > 0)
      debugType = arg(*t, 0);
    else
      return OpenCLDebugInfo100Unspecified;
  }
  return OpenCLDebugInfo100Unspecified;
}

uint32_t DebugInfo::pointeeOf(uint32_t debugType) const {
  uint32_t n = 0;
  const Instruction* t = debugInst(stripped(debugType), &n);
  return t && n == OpenCLDebugInfo100DebugTypePointer && argCount(*t) > 0 ? arg(*t, 0) : 0;
}

uint32_t DebugInfo::elementOf(uint32_t debugType) const {
  uint32_t n = 0;
  const Instruction* t = debugInst(stripped(debugType), &n);
  return t && (n == OpenCLDebugInfo100DebugTypeVector || n == OpenCLDebugInfo100DebugTypeArray) && argCount(*t) > 0
             ? arg(*t, 0)
             : 0;
}

std::vector<std::pair<std::string, uint32_t>> DebugInfo::membersOf(uint32_t debugType) const {
  std::vector<std::pair<std::string, uint32_t>> members;
  uint32_t n = 0;
  const Instruction* t = debugInst(stripped(debugType), &n);
  if (!t || n != OpenCLDebugInfo100DebugTypeComposite) return members;
  // Name, Tag, Source, Line, Column, Parent, Linkage Name, Size, Flags, then the members (DebugTypeMember; a
  // class's DebugFunction members have no storage).
  for (size_t k = 9; k < argCount(*t); ++k) {
    const Instruction* m = debugInst(arg(*t, k), &n);
    if (!m || n != OpenCLDebugInfo100DebugTypeMember || argCount(*m) < 2) continue;
    auto s = module_.strings.find(arg(*m, 0));
    members.emplace_back(s == module_.strings.end() ? "" : s->second, arg(*m, 1));
  }
  return members;
}

Reader::Reader(const interpreter::WorkItem& wi, const DebugInfo& info)
    : item_(wi), info_(info), module_(item_.module()), kernel_(item_.kernel()) {}

std::optional<TypedBytes> Reader::registerValue(uint32_t id, std::string& error) const {
  const Instruction* def = module_.findDef(id);
  const uint8_t* bytes = item_.value(id);
  if (!def || !bytes || !def->resultType) {
    error = "%" + std::to_string(id) + " has no value in this kernel";
    return std::nullopt;
  }
  auto type = module_.types.find(def->resultType);
  if (type == module_.types.end() || type->second.size == 0) {
    error = "%" + std::to_string(id) + " has no value to show";
    return std::nullopt;
  }
  TypedBytes v;
  v.type = def->resultType;
  v.bytes.assign(bytes, bytes + type->second.size);
  return v;
}

std::optional<TypedBytes> Reader::bindingValue(const Binding& b, std::string& error) const {
  const SourceVariable* var = info_.variable(b.variable);
  if (!b.unavailable.empty()) {
    error = b.unavailable;
    return std::nullopt;
  }
  if (!b.declare && !b.deref) {
    auto v = registerValue(b.id, error);
    if (v && var) v->debugType = var->debugType;
    return v;
  }
  auto place = bindingPlace(b, error);
  if (!place) return std::nullopt;
  auto type = module_.types.find(place->pointee);
  if (type == module_.types.end() || type->second.size == 0) {
    error = "its type has no size";
    return std::nullopt;
  }
  const uint8_t* at = memory(place->tag, place->offset, type->second.size);
  if (!at) {
    error =
        "its memory (" + allocationName(place->tag) + ", byte " + std::to_string(place->offset) + ") is not accessible";
    return std::nullopt;
  }
  TypedBytes v;
  v.type = place->pointee;
  v.debugType = place->debugPointee;
  v.bytes.assign(at, at + type->second.size);
  return v;
}

std::optional<Place> Reader::bindingPlace(const Binding& b, std::string& error) const {
  const SourceVariable* var = info_.variable(b.variable);
  if (!b.unavailable.empty()) {
    error = b.unavailable;
    return std::nullopt;
  }
  if (!b.declare && !b.deref) {
    error = "'" + (var ? var->name : std::string("?")) + "' is a value in a register, not in memory";
    return std::nullopt;
  }
  std::optional<TypedBytes> pointer;
  if (b.declare) {
    // The OpVariable's register holds its pointer; without one, its allocation is the variable's own.
    std::string ignored;
    pointer = registerValue(b.id, ignored);
    if (!pointer) {
      for (uint32_t tag = 1; tag < kernel_.allocationCount(); ++tag)
        if (kernel_.allocation(tag).variable == b.id) {
          const Instruction* def = module_.findDef(b.id);
          Place p;
          p.tag = tag;
          p.pointee = def ? module_.type(def->resultType).element : 0;
          p.debugPointee = var ? var->debugType : 0;
          p.name = var ? var->name : allocationName(tag);
          return p;
        }
      error = "its variable %" + std::to_string(b.id) + " has no memory in this kernel";
      return std::nullopt;
    }
  } else {
    pointer = registerValue(b.id, error);
    if (!pointer) return std::nullopt;
  }
  auto place = pointerPlace(*pointer, error);
  if (!place) return std::nullopt;
  place->debugPointee = var ? var->debugType : 0;
  if (var) place->name = var->name;
  return place;
}

std::optional<Place> Reader::pointerPlace(const TypedBytes& pointer, std::string& error) const {
  auto type = module_.types.find(pointer.type);
  if (type == module_.types.end() || type->second.kind != TypeKind::Pointer) {
    error = "not a pointer";
    return std::nullopt;
  }
  const uint64_t ptr = loadUnsigned(pointer.bytes.data(), uint32_t(pointer.bytes.size()));
  const uint64_t tag = ptr >> kernel_.tagShift();
  if (tag == 0 || tag >= kernel_.allocationCount() || !item_.memory(uint32_t(tag))) {
    error = ptr == 0 ? "a NULL pointer" : "a pointer into no allocation";
    return std::nullopt;
  }
  Place p;
  p.tag = uint32_t(tag);
  p.offset = ptr & ((uint64_t(1) << kernel_.tagShift()) - 1);
  p.pointee = type->second.element;
  p.debugPointee = info_.pointeeOf(pointer.debugType);
  p.name = allocationName(p.tag);
  return p;
}

std::optional<Place> Reader::argumentPlace(size_t index, const Case& c, std::string& error) const {
  if (index >= kernel_.parameterCount()) {
    error = "the kernel has " + std::to_string(kernel_.parameterCount()) + " arguments";
    return std::nullopt;
  }
  const auto param = kernel_.parameter(index);
  if (!param.inMemory) {
    error = "argument " + std::to_string(index) + " (" + param.name + ") is not in memory (" + param.typeName + ")";
    return std::nullopt;
  }
  Place p;
  p.tag = param.tag;
  p.name = allocationName(p.tag);
  if (index < c.args.size() && c.args[index].kind == ArgSpec::Kind::Buffer) p.element = c.args[index].buffer.type;
  if (index < c.args.size() && c.args[index].kind == ArgSpec::Kind::Null) {
    error = "argument " + std::to_string(index) + " (" + param.name + ") is NULL";
    return std::nullopt;
  }
  return p;
}

const uint8_t* Reader::memory(uint32_t tag, uint64_t offset, uint64_t size) const {
  const auto a = item_.memory(tag);
  if (!a || !a->base || offset > a->size || size > a->size - offset) return nullptr;
  return a->base + offset;
}

uint64_t Reader::allocationSize(uint32_t tag) const {
  const auto a = item_.memory(tag);
  return a ? a->size : 0;
}

const std::string& Reader::allocationName(uint32_t tag) const {
  static const std::string none = "no allocation";
  return tag < kernel_.allocationCount() ? kernel_.allocation(tag).name : none;
}

std::string Reader::format(const TypedBytes& v) const {
  auto type = module_.types.find(v.type);
  if (type == module_.types.end() || v.bytes.size() < type->second.size)
    return "<" + hexBytes(v.bytes.data(), v.bytes.size()) + ">";
  return formatAt(v.type, v.debugType, v.bytes.data(), 0);
}

std::string Reader::formatPointer(uint64_t ptr) const {
  if (ptr == 0) return "NULL";
  const uint64_t tag = ptr >> kernel_.tagShift();
  const uint64_t off = ptr & ((uint64_t(1) << kernel_.tagShift()) - 1);
  if (tag == 0 || tag >= kernel_.allocationCount()) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(ptr));
    return std::string(hex) + " (no allocation)";
  }
  return allocationName(uint32_t(tag)) + " + " + std::to_string(off);
}

std::string Reader::formatAt(uint32_t typeId, uint32_t debugType, const uint8_t* bytes, int depth) const {
  auto it = module_.types.find(typeId);
  if (it == module_.types.end()) return "?";
  const Type& t = it->second;
  if (depth > 4) return "...";
  auto list = [&](const char* open, const char* close, uint32_t count, uint64_t stride, uint32_t element,
                  uint32_t debugElement) {
    constexpr uint32_t kShown = 16;
    std::string s = open;
    for (uint32_t i = 0; i < count && i < kShown; ++i)
      s += (i ? ", " : "") + formatAt(element, debugElement, bytes + i * stride, depth + 1);
    if (count > kShown) s += ", ... (" + std::to_string(count) + " elements)";
    return s + close;
  };
  switch (t.kind) {
    case TypeKind::Bool: return bytes[0] ? "true" : "false";
    case TypeKind::Int: {
      const uint32_t encoding = info_.encodingOf(debugType);
      const uint64_t u = loadUnsigned(bytes, t.width / 8);
      if (encoding == OpenCLDebugInfo100Boolean) return u ? "true" : "false";
      const bool isUnsigned = encoding == OpenCLDebugInfo100Unsigned || encoding == OpenCLDebugInfo100UnsignedChar;
      const int shift = 64 - int(t.width);
      std::string s = isUnsigned ? std::to_string(u) : std::to_string(int64_t(u << shift) >> shift);
      const bool isChar = encoding == OpenCLDebugInfo100SignedChar || encoding == OpenCLDebugInfo100UnsignedChar;
      if (isChar && t.width == 8 && std::isprint(int(u))) s += " '" + std::string(1, char(u)) + "'";
      return s;
    }
    case TypeKind::Float: return formatElement(numerics::scalarTypeOf(numerics::formatOfBytes(t.width / 8)), bytes);
    case TypeKind::Vector: return list("(", ")", t.count, t.stride, t.element, info_.elementOf(debugType));
    case TypeKind::Array: return list("[", "]", t.count, t.stride, t.element, info_.elementOf(debugType));
    case TypeKind::Struct: {
      const auto names = info_.membersOf(debugType);
      const bool named = names.size() == t.members.size();
      std::string s = "{";
      for (size_t i = 0; i < t.members.size() && i < t.memberOffsets.size(); ++i) {
        s += i ? ", " : "";
        if (named && !names[i].first.empty()) s += names[i].first + " = ";
        s += formatAt(t.members[i], named ? names[i].second : 0, bytes + t.memberOffsets[i], depth + 1);
      }
      return s + "}";
    }
    case TypeKind::Pointer: return formatPointer(loadUnsigned(bytes, uint32_t(t.size)));
    default: return "<" + hexBytes(bytes, t.size) + ">";
  }
}

std::optional<ScalarType> elementTypeOf(const Module& m, uint32_t type, uint32_t encoding) {
  auto it = m.types.find(type);
  if (it == m.types.end()) return std::nullopt;
  const Type* t = &it->second;
  if (t->kind == TypeKind::Vector) {
    auto e = m.types.find(t->element);
    if (e == m.types.end()) return std::nullopt;
    t = &e->second;
  }
  const bool isUnsigned = encoding == OpenCLDebugInfo100Unsigned || encoding == OpenCLDebugInfo100UnsignedChar;
  switch (t->kind) {
    case TypeKind::Bool: return ScalarType::UChar;
    case TypeKind::Int: return numerics::integerType(t->width / 8, !isUnsigned);
    case TypeKind::Float: return numerics::scalarTypeOf(numerics::formatOfBytes(t->width / 8));
    default: return std::nullopt;
  }
}

std::string formatElement(ScalarType type, const uint8_t* bytes) {
  std::string s = formatElements(type, reinterpret_cast<const std::byte*>(bytes), 1);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string hexBytes(const uint8_t* bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < size; ++i) {
    if (i) s += ' ';
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

}  // namespace clref::cli::debug
