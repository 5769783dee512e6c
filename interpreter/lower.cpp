// Lowering a kernel: reachable functions → flat Op arrays with operands resolved to register
// offsets, constants into a register template, variables into tagged allocations.
#include <algorithm>
#include <bit>
#include <functional>
#include <set>

#include "interpreter/lower.hpp"
#include "interpreter/ops_common.hpp"

namespace clref::interpreter {

bool capabilitySupported(spv::Capability c) {
  using spv::Capability;
  switch (c) {
    case Capability::Addresses:
    case Capability::Linkage:
    case Capability::Kernel:
    case Capability::Vector16:
    case Capability::Float16Buffer:
    case Capability::Float16:
    case Capability::Float64:
    case Capability::Int64:
    case Capability::Int16:
    case Capability::Int8:
    case Capability::GenericPointer:
    case Capability::Int64Atomics:
    case Capability::BitInstructions:  // SPV_KHR_bit_instructions (cl_khr_extended_bit_ops)
      return true;
    default: return false;
  }
}

namespace {

std::string capabilityName(spv::Capability c) {
  switch (c) {
    case spv::Capability::ImageBasic: return "ImageBasic: images are not supported yet";
    case spv::Capability::LiteralSampler: return "LiteralSampler: samplers are not supported yet";
    case spv::Capability::Pipes: return "Pipes";
    case spv::Capability::DeviceEnqueue: return "DeviceEnqueue";
    case spv::Capability::Groups: return "Groups: work-group collective functions are not supported yet";
    case spv::Capability::SubgroupDispatch: return "SubgroupDispatch";
    default: return "not supported by clref";
  }
}

// Extensions whose instructions and decorations clref executes (or that carry no run-time
// meaning): SPV_KHR_no_integer_wrap_decoration (NoSignedWrap/NoUnsignedWrap: promises only),
// SPV_KHR_expect_assume (OpExpectKHR, OpAssumeTrueKHR), SPV_KHR_linkonce_odr (linkage),
// SPV_KHR_bit_instructions (OpBitFieldInsert/…Extract, OpBitReverse, OpBitCount in kernels).
bool extensionSupported(const std::string& name) {
  return name == "SPV_KHR_no_integer_wrap_decoration" || name == "SPV_KHR_expect_assume" ||
         name == "SPV_KHR_linkonce_odr" || name == "SPV_KHR_bit_instructions";
}

std::string where(const Module& m, spv::Op opcode, uint32_t firstWord) {
  for (uint32_t i = 0; i < m.instructions.size(); ++i)
    if (m.instructions[i].opcode == opcode && m.instructions[i].words.size() > 1 &&
        m.instructions[i].words[1] == firstWord)
      return "\n  at " + m.describe(i);
  return "";
}

}  // namespace

void checkModuleSupport(const Module& m, const LowerOptions& opt) {
  for (auto c : m.capabilities) {
    if (!capabilitySupported(c))
      throw ModuleError("unsupported capability " + std::to_string(uint32_t(c)) + " (" + capabilityName(c) + ")" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
    if (c == spv::Capability::Float16 && !opt.fp16)
      throw ModuleError("the module needs Float16 (cl_khr_fp16) but the device has fp16 disabled" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
    if (c == spv::Capability::Float64 && !opt.fp64)
      throw ModuleError("the module needs Float64 (cl_khr_fp64) but the device has fp64 disabled" +
                        where(m, spv::Op::OpCapability, uint32_t(c)));
  }
  for (uint32_t i = 0; i < m.instructions.size(); ++i) {
    const auto& inst = m.instructions[i];
    if (inst.opcode == spv::Op::OpExtension && !extensionSupported(literalString(inst.words, 1)))
      throw ModuleError("unsupported extension " + literalString(inst.words, 1) + "\n  at " + m.describe(i));
  }
  if (m.addressing != spv::AddressingModel::Physical32 && m.addressing != spv::AddressingModel::Physical64)
    throw ModuleError("addressing model must be Physical32 or Physical64 (OpenCL SPIR-V Environment §2.3)");
  const unsigned bits = m.addressing == spv::AddressingModel::Physical32 ? 32 : 64;
  if (bits != opt.addressBits)
    throw ModuleError("the module uses " + std::string(bits == 32 ? "Physical32" : "Physical64") +
                      " addressing but the device has " + std::to_string(opt.addressBits) +
                      "-bit addresses (compile for spir" + (opt.addressBits == 32 ? "" : "64") + ")");
}

// ---- Lowerer ------------------------------------------------------------------------------

uint32_t Lowerer::reg(uint32_t id) const {
  auto it = regs_.find(id);
  if (it == regs_.end()) {
    const Instruction* d = m.findDef(id);
    throw ModuleError("internal: no register for %" + std::to_string(id) +
                      (d ? " (" + m.describe(index(*d)) + ")" : ""));
  }
  return it->second;
}

uint32_t Lowerer::allocReg(uint32_t id, uint64_t size) {
  const uint32_t off = scratch(size == 0 ? 1 : size);
  regs_[id] = off;
  return off;
}

uint32_t Lowerer::scratch(uint64_t size) {
  // Every slot is 8-byte aligned: memcpy access does not need it, but it keeps loads cheap.
  const uint32_t off = (regTop_ + 7) & ~7u;
  regTop_ = uint32_t(off + size);
  if (k.registerTemplate.size() < regTop_) k.registerTemplate.resize(regTop_, 0);
  return off;
}

uint32_t Lowerer::typeIdOfValue(uint32_t id) const {
  const Instruction* d = m.findDef(id);
  if (!d || !d->resultType) throw ModuleError("id %" + std::to_string(id) + " has no type");
  return d->resultType;
}
const Type& Lowerer::typeOfValue(uint32_t id) const { return m.type(typeIdOfValue(id)); }

Scalar Lowerer::scalarOf(uint32_t typeId) const {
  const Type* t = &m.type(typeId);
  if (t->kind == TypeKind::Vector) t = &m.type(t->element);
  switch (t->kind) {
    case TypeKind::Bool: return Scalar::Bool;
    case TypeKind::Int:
      return t->width == 8 ? Scalar::I8 : t->width == 16 ? Scalar::I16 : t->width == 32 ? Scalar::I32 : Scalar::I64;
    case TypeKind::Float: return t->width == 16 ? Scalar::F16 : t->width == 32 ? Scalar::F32 : Scalar::F64;
    case TypeKind::Pointer: return ptrBytes() == 8 ? Scalar::I64 : Scalar::I32;
    default: throw ModuleError("type %" + std::to_string(typeId) + " is not a scalar or vector");
  }
}

uint32_t Lowerer::lanes(uint32_t typeId) const {
  const Type& t = m.type(typeId);
  return t.kind == TypeKind::Vector ? t.count : 1;
}

uint32_t Lowerer::scalarBytes(Scalar s) const { return bytesOf(s); }

bool Lowerer::flush(Scalar s) const {
  using numerics::Denorm;
  switch (s) {
    case Scalar::F16: return opt.denormHalf == Denorm::Flush;
    case Scalar::F32: return opt.denormFloat == Denorm::Flush;
    case Scalar::F64: return opt.denormDouble == Denorm::Flush;
    default: return false;
  }
}

Op& Lowerer::emit(Handler fn, const Instruction& inst) {
  Op& op = k.ops.emplace_back();
  op.fn = fn;
  op.inst = index(inst);
  return op;
}

void Lowerer::reject(const Instruction& inst, const std::string& why) const {
  throw ModuleError("unsupported: " + why + "\n  at " + m.describe(index(inst)));
}

Edge* Lowerer::edgeTo(uint32_t target) {
  Edge& e = k.edges.emplace_back();
  e.targetIndex = target;  // a label for now; resolved to an Op index after lowering
  e.sourceBlockOp = labelOp_.count(currentBlock) ? labelOp_.at(currentBlock) : 0;
  const auto fit = std::find_if(m.functions.begin(), m.functions.end(), [&](const auto& f) {
    return std::any_of(f.second.blocks.begin(), f.second.blocks.end(),
                       [&](const Block& b) { return b.label == target; });
  });
  if (fit != m.functions.end()) {
    for (const Block& b : fit->second.blocks) {
      if (b.label != target) continue;
      for (uint32_t idx : b.instructions) {
        const Instruction& phi = m.instructions[idx];
        if (phi.opcode != spv::Op::OpPhi) continue;
        for (size_t k2 = 0; k2 + 1 < phi.operandCount(); k2 += 2) {
          if (phi.operand(k2 + 1) != currentBlock) continue;
          e.copies.push_back({reg(phi.resultId), reg(phi.operand(k2)), uint32_t(m.type(phi.resultType).size)});
          if (auto sh = shadow_.find(phi.resultId); sh != shadow_.end()) {
            auto src = shadow_.find(phi.operand(k2));
            e.copies.push_back({sh->second, src == shadow_.end() ? zeroShadow() : src->second, 1});
          }
        }
      }
    }
  }
  // Parallel copies: if one copy reads what another writes, stage all sources in scratch.
  uint32_t total = 0;
  for (const auto& c : e.copies) {
    total += c.size;
    for (const auto& d : e.copies)
      if (&c != &d && c.src < d.dst + d.size && d.dst < c.src + c.size) e.viaScratch = true;
  }
  if (e.viaScratch) e.scratch = scratch(total);
  return &e;
}

const uint8_t* Lowerer::constantBytes(uint32_t id) const {
  if (!isConstant(id)) return nullptr;
  return k.registerTemplate.data() + reg(id);
}
bool Lowerer::isConstant(uint32_t id) const { return constantIds_.count(id) != 0; }
uint64_t Lowerer::constantInt(uint32_t id) const {
  const uint8_t* p = constantBytes(id);
  if (!p) {
    const Instruction* d = m.findDef(id);
    throw ModuleError("expected a constant for %" + std::to_string(id) + (d ? " at " + m.describe(index(*d)) : ""));
  }
  const uint64_t size = typeOfValue(id).size;
  uint64_t v = 0;
  std::memcpy(&v, p, std::min<uint64_t>(size, 8));
  return v;
}

// ---- lowering ----------------------------------------------------------------------------

namespace {

bool isSpecConstant(spv::Op op) {
  return op == spv::Op::OpSpecConstant || op == spv::Op::OpSpecConstantTrue || op == spv::Op::OpSpecConstantFalse ||
         op == spv::Op::OpSpecConstantComposite || op == spv::Op::OpSpecConstantOp;
}
bool isConstantOp(spv::Op op) {
  return op == spv::Op::OpConstant || op == spv::Op::OpConstantTrue || op == spv::Op::OpConstantFalse ||
         op == spv::Op::OpConstantNull || op == spv::Op::OpConstantComposite || isSpecConstant(op);
}

std::string describeType(const Module& m, uint32_t typeId) {
  const Type& t = m.type(typeId);
  switch (t.kind) {
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return t.width == 8 ? "char" : t.width == 16 ? "short" : t.width == 32 ? "int" : "long";
    case TypeKind::Float: return t.width == 16 ? "half" : t.width == 32 ? "float" : "double";
    case TypeKind::Vector: return describeType(m, t.element) + std::to_string(t.count);
    case TypeKind::Array: return describeType(m, t.element) + "[" + std::to_string(t.count) + "]";
    case TypeKind::Struct: return "struct (" + std::to_string(t.size) + " bytes)";
    case TypeKind::Pointer: {
      std::string space;
      switch (t.storage) {
        case spv::StorageClass::CrossWorkgroup: space = "global "; break;
        case spv::StorageClass::UniformConstant: space = "constant "; break;
        case spv::StorageClass::Workgroup: space = "local "; break;
        case spv::StorageClass::Generic: space = "generic "; break;
        case spv::StorageClass::Function: space = "private "; break;
        default: break;
      }
      return space + describeType(m, t.element) + "*";
    }
    case TypeKind::Void: return "void";
    case TypeKind::Event: return "event_t";
    case TypeKind::Opaque: return "opaque";
    default: return "type";
  }
}

class KernelLowering {
 public:
  KernelLowering(const Module& m, const LowerOptions& o, LoweredKernel& k) : m_(m), L_(m, o, k), k_(k) {}

  void run(const std::string& name) {
    const EntryPoint* ep = m_.entryPoint(name);
    if (!ep) {
      std::string known;
      for (const auto& e : m_.entryPoints) known += (known.empty() ? "" : ", ") + e.name;
      throw ModuleError("no kernel named '" + name + "' (kernels: " + (known.empty() ? "none" : known) + ")");
    }
    k_.name = name;
    k_.module = &m_;
    k_.choices = L_.opt.choices;
    k_.globals = L_.opt.globals;
    k_.addressBits = L_.opt.addressBits;
    if (ep->requiredLocalSize) k_.requiredLocalSize = *ep->requiredLocalSize;
    k_.uninitialisedByte =
        L_.opt.choices.get<numerics::Choice::UninitialisedMemory>() == numerics::MemoryInitOption::Pattern ? 0xA5 : 0;
    checkModuleSupport(m_, L_.opt);
    collectReachable(ep->function);
    k_.allocations.emplace_back("null", AllocationSource::Null, spv::StorageClass::CrossWorkgroup);
    assignRegisters();
    // Module-scope variables take the first tags, the same in every kernel of the module, so a
    // pointer to one stored in program-scope memory means the same variable in all of them.
    assignModuleVariables();
    assignParams(ep->function);
    assignFunctionVariables();
    finishTags();
    writeConstants();
    countUses();
    planUndefTracking(L_, order_);
    for (uint32_t f : order_) lowerFunction(m_.functions.at(f));
    resolve(ep->function);
  }

 private:
  const Module& m_;
  Lowerer L_;
  LoweredKernel& k_;
  std::vector<uint32_t> order_;  // reachable functions, entry first

  // Reachable functions by OpFunctionCall; recursion is rejected (OpenCL C 3.0 §6.11.i:
  // "Recursion is not supported").
  void collectReachable(uint32_t entry) {
    std::set<uint32_t> done;
    std::vector<uint32_t> stack;
    // `call` is the OpFunctionCall that reached f (nullptr for the entry point).
    std::function<void(uint32_t, const Instruction*)> visit = [&](uint32_t f, const Instruction* call) {
      if (std::find(stack.begin(), stack.end(), f) != stack.end()) {
        std::string cycle;
        for (auto s : stack) cycle += m_.nameOf(s) + " → ";
        throw ModuleError("recursion is not allowed in OpenCL (OpenCL C 3.0 §6.11): " + cycle + m_.nameOf(f) +
                          (call ? "\n  at " + m_.describe(L_.index(*call)) : ""));
      }
      if (done.count(f)) return;
      auto it = m_.functions.find(f);
      if (it == m_.functions.end()) throw ModuleError("call to undefined function %" + std::to_string(f));
      stack.push_back(f);
      order_.push_back(f);
      for (const Block& b : it->second.blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m_.instructions[idx];
          if (inst.opcode == spv::Op::OpFunctionCall) {
            const auto callee = m_.functions.find(inst.operand(0));
            if (callee != m_.functions.end() && callee->second.isImport)
              L_.reject(inst,
                        "call to " + m_.nameOf(inst.operand(0)) + ", which is declared but not defined in this module");
            visit(inst.operand(0), &inst);
          }
        }
      stack.pop_back();
      done.insert(f);
    };
    visit(entry, nullptr);
  }

  void assignRegisters() {
    // Module-scope values: constants, undefs, variables.
    for (const auto& inst : m_.instructions) {
      if (!inst.resultId || !inst.resultType) continue;
      if (isConstantOp(inst.opcode) || inst.opcode == spv::Op::OpUndef || inst.opcode == spv::Op::OpVariable) {
        if (m_.types.count(inst.resultType) == 0) continue;
        L_.allocReg(inst.resultId, m_.type(inst.resultType).size);
        if (isConstantOp(inst.opcode)) L_.constantIds_[inst.resultId] = true;
      }
    }
    for (uint32_t fid : order_) {
      const Function& f = m_.functions.at(fid);
      for (uint32_t p : f.parameters) L_.allocReg(p, L_.typeOfValue(p).size);
      for (const Block& b : f.blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m_.instructions[idx];
          if (inst.resultId && inst.resultType && !L_.hasReg(inst.resultId)) {
            const Type& t = m_.type(inst.resultType);
            if (t.kind != TypeKind::Void) L_.allocReg(inst.resultId, t.size);
          }
        }
    }
  }

  uint32_t newTag(AllocationDesc d) {
    k_.allocations.push_back(std::move(d));
    return uint32_t(k_.allocations.size() - 1);
  }

  // llvm-spirv's entry point is often a wrapper that passes its parameters straight to the
  // exported kernel function; the parameter names are on that function.
  std::string paramName(const Function& f, size_t i) {
    const uint32_t p = f.parameters[i];
    if (auto it = m_.names.find(p); it != m_.names.end() && !it->second.empty()) return it->second;
    auto fromDebug = [&](uint32_t fn, size_t k) -> std::string {
      auto it = m_.debugParamNames.find(fn);
      return it != m_.debugParamNames.end() && k < it->second.size() ? it->second[k] : "";
    };
    if (auto d = fromDebug(f.id, i); !d.empty()) return d;
    for (const Block& b : f.blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        if (inst.opcode != spv::Op::OpFunctionCall || inst.operandCount() != f.parameters.size() + 1) continue;
        const Function& callee = m_.functions.at(inst.operand(0));
        if (inst.operand(i + 1) == p && i < callee.parameters.size()) {
          if (auto it = m_.names.find(callee.parameters[i]); it != m_.names.end()) return it->second;
          if (auto d = fromDebug(callee.id, i); !d.empty()) return d;
        }
      }
    return "";
  }

  void assignParams(uint32_t entry) {
    const Function& f = m_.functions.at(entry);
    for (size_t i = 0; i < f.parameters.size(); ++i) {
      const uint32_t p = f.parameters[i];
      const Type& t = L_.typeOfValue(p);
      KernelParam kp;
      kp.name = paramName(f, i);
      kp.typeName = describeType(m_, L_.typeIdOfValue(p));
      kp.reg = L_.reg(p);
      kp.size = uint32_t(t.size);
      const bool byVal = t.kind == TypeKind::Pointer && hasParamAttr(p, spv::FunctionParameterAttribute::ByVal);
      if (byVal) {
        // SPIR-V 1.0 §3.20 FuncParamAttr ByVal: the pointee is a copy owned by the callee; the
        // host passes the struct's bytes (OpenCL C structs by value).
        const Type& pointee = m_.type(t.element);
        kp.kind = ParamKind::Value;
        kp.byVal = true;
        kp.size = uint32_t(pointee.size);
        kp.storage = t.storage;
        kp.typeName = describeType(m_, t.element);
        AllocationDesc d{"by-value argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                         AllocationSource::ByValArg,
                         spv::StorageClass::Function,
                         pointee.size,
                         pointee.align,
                         uint32_t(i)};
        d.arenaOffset = placeIn(k_.privateArenaBytes, d.size, d.align);
        kp.tag = newTag(std::move(d));
      } else if (t.kind == TypeKind::Pointer) {
        kp.storage = t.storage;
        const Type& pointee = m_.type(t.element);
        kp.pointeeAlign = pointee.align ? pointee.align : 1;
        if (t.storage == spv::StorageClass::Workgroup) {
          kp.kind = ParamKind::Local;
          kp.tag = newTag({"local argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                           AllocationSource::LocalArg, spv::StorageClass::Workgroup, 0, kp.pointeeAlign, uint32_t(i)});
        } else {
          kp.kind = ParamKind::Buffer;
          AllocationDesc d{"argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                           AllocationSource::KernelArg,
                           t.storage,
                           0,
                           kp.pointeeAlign,
                           uint32_t(i)};
          kp.tag = newTag(std::move(d));
        }
      } else {
        // By-value arguments: struct by value is passed as a pointer with ByVal in some
        // producers; llvm-spirv passes OpenCL structs by value as struct-typed parameters.
        kp.kind = ParamKind::Value;
      }
      k_.params.push_back(std::move(kp));
    }
  }

  bool hasParamAttr(uint32_t id, spv::FunctionParameterAttribute a) const {
    auto it = m_.decorations.find(id);
    if (it == m_.decorations.end()) return false;
    for (const auto& d : it->second)
      if (d.kind == spv::Decoration::FuncParamAttr && !d.literals.empty() && d.literals[0] == uint32_t(a)) return true;
    return false;
  }

  uint64_t placeIn(uint64_t& arena, uint64_t size, uint32_t align) {
    align = std::max<uint32_t>(align, 1);
    const uint64_t off = (arena + align - 1) / align * align;
    arena = off + size;
    return off;
  }

  void assignModuleVariables() {
    for (uint32_t v : m_.globalVariables) {
      const Instruction& inst = m_.def(v);
      const Type& pt = m_.type(inst.resultType);
      const Type& t = m_.type(pt.element);
      const auto sc = spv::StorageClass(inst.operand(0));
      AllocationDesc d;
      d.name = m_.nameOf(v);
      d.storage = sc;
      d.size = t.size;
      d.align = t.align;
      d.variable = v;
      if (auto* b = m_.decoration(v, spv::Decoration::BuiltIn)) {
        d.source = AllocationSource::Builtin;
        d.builtin = spv::BuiltIn(b->literals[0]);
        d.builtinElementBytes = uint32_t(t.kind == TypeKind::Vector ? m_.type(t.element).size : t.size);
        d.storage = spv::StorageClass::Input;
        d.arenaOffset = placeIn(k_.privateArenaBytes, d.size, d.align);
        L_.builtinOf_[v] = d.builtin;
        usedThroughMemory(v);
      } else if (sc == spv::StorageClass::Workgroup) {
        d.source = AllocationSource::Workgroup;
        d.arenaOffset = placeIn(k_.workgroupArenaBytes, d.size, d.align);
      } else if (sc == spv::StorageClass::Private || sc == spv::StorageClass::Function) {
        d.source = AllocationSource::Private;
        d.arenaOffset = placeIn(k_.privateArenaBytes, d.size, d.align);
        // An initializer is copied into `init` by writeConstants, once the constants exist.
      } else if (sc == spv::StorageClass::CrossWorkgroup || sc == spv::StorageClass::UniformConstant) {
        d.source = AllocationSource::Global;
        d.storage = sc;
        std::lock_guard lock(L_.opt.globals->mutex);
        auto& bytes = L_.opt.globals->bytes[v];
        if (bytes.size() != d.size) {
          bytes.assign(d.size, 0);  // OpenCL C 3.0 §6.8: program-scope variables are zero-initialised
          if (inst.operandCount() > 1) pendingInit_.push_back(v);
        }
      } else {
        throw ModuleError("module-scope variable " + m_.nameOf(v) + " has unsupported storage class " +
                          std::to_string(uint32_t(sc)));
      }
      L_.tagOf_[v] = newTag(std::move(d));
    }
  }

  void assignFunctionVariables() {
    // Function-scope variables of reachable functions: one static slot each (no recursion).
    for (uint32_t fid : order_)
      for (uint32_t v : m_.functions.at(fid).variables) {
        const Instruction& inst = m_.def(v);
        const Type& t = m_.type(m_.type(inst.resultType).element);
        AllocationDesc d;
        d.name = m_.nameOf(v) + " (private variable in " + m_.nameOf(fid) + ")";
        d.source = AllocationSource::Private;
        d.storage = spv::StorageClass::Function;
        d.size = t.size;
        d.align = t.align;
        d.variable = v;
        d.arenaOffset = placeIn(k_.privateArenaBytes, d.size, d.align);
        L_.tagOf_[v] = newTag(std::move(d));
      }
  }

  // A builtin variable read other than by a direct OpLoad needs its memory filled per work-item.
  void usedThroughMemory(uint32_t var) {
    for (uint32_t fid : order_)
      for (const Block& b : m_.functions.at(fid).blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m_.instructions[idx];
          if (inst.opcode == spv::Op::OpLoad && inst.operand(0) == var) continue;
          for (size_t w = inst.firstOperand; w < inst.words.size(); ++w)
            if (inst.words[w] == var) k_.fillsBuiltins = true;
        }
  }

  void finishTags() {
    const auto ntags = k_.allocations.size();
    if (L_.opt.addressBits == 64) {
      k_.tagShift = 40;  // 2^24 allocations of up to 1 TiB
    } else {
      k_.tagShift = 32 - std::bit_width(ntags);  // as many offset bits as the tags leave
    }
    if (ntags >= (uint64_t(1) << (L_.opt.addressBits - k_.tagShift)))
      throw ModuleError("too many allocations for the address width");
    for (const auto& [v, tag] : L_.tagOf_) {
      const uint64_t ptr = uint64_t(tag) << k_.tagShift;
      std::memcpy(k_.registerTemplate.data() + L_.reg(v), &ptr, L_.ptrBytes());
    }
  }

  void writeConstants() {
    const uint8_t undefByte =
        L_.opt.choices.get<numerics::Choice::UndefValue>() == numerics::UndefValueOption::Pattern ? 0xA5 : 0;
    for (const auto& inst : m_.instructions) {
      if (!inst.resultId || !L_.hasReg(inst.resultId)) continue;
      uint8_t* dst = k_.registerTemplate.data() + L_.reg(inst.resultId);
      const Type& t = m_.type(inst.resultType);
      switch (inst.opcode) {
        case spv::Op::OpConstant:
        case spv::Op::OpSpecConstant: {
          std::memcpy(dst, inst.words.data() + 3, std::min<uint64_t>(t.size, (inst.words.size() - 3) * 4));
          if (inst.opcode == spv::Op::OpSpecConstant) applySpec(inst, dst, t.size);
          break;
        }
        case spv::Op::OpConstantTrue:
        case spv::Op::OpSpecConstantTrue:
          *dst = 1;
          if (inst.opcode == spv::Op::OpSpecConstantTrue) applySpec(inst, dst, 1);
          break;
        case spv::Op::OpConstantFalse:
        case spv::Op::OpSpecConstantFalse:
          *dst = 0;
          if (inst.opcode == spv::Op::OpSpecConstantFalse) applySpec(inst, dst, 1);
          break;
        case spv::Op::OpConstantNull: std::memset(dst, 0, t.size); break;
        case spv::Op::OpUndef: std::memset(dst, undefByte, t.size); break;
        case spv::Op::OpConstantComposite:
        case spv::Op::OpSpecConstantComposite: {
          uint64_t off = 0;
          for (size_t i = 0; i < inst.operandCount(); ++i) {
            const uint32_t c = inst.operand(i);
            const Type& ct = L_.typeOfValue(c);
            uint64_t at = off;
            if (t.kind == TypeKind::Struct)
              at = t.memberOffsets.at(i);
            else if (t.kind == TypeKind::Array)
              at = i * t.stride;
            std::memcpy(dst + at, k_.registerTemplate.data() + L_.reg(c), ct.size);
            off = at + ct.size;
          }
          break;
        }
        case spv::Op::OpSpecConstantOp: evaluateSpecOp(inst); break;
        default: break;
      }
    }
    // Initialisers, now that constants are in place.
    for (auto& d : k_.allocations) {
      if (d.source != AllocationSource::Private || !d.variable) continue;
      const Instruction& inst = m_.def(d.variable);
      if (inst.opcode == spv::Op::OpVariable && inst.operandCount() > 1 && L_.hasReg(inst.operand(1)))
        d.init.assign(k_.registerTemplate.data() + L_.reg(inst.operand(1)),
                      k_.registerTemplate.data() + L_.reg(inst.operand(1)) + d.size);
    }
    for (uint32_t v : pendingInit_) {
      const Instruction& inst = m_.def(v);
      auto& bytes = L_.opt.globals->bytes[v];
      std::memcpy(bytes.data(), k_.registerTemplate.data() + L_.reg(inst.operand(1)), bytes.size());
    }
  }

  void applySpec(const Instruction& inst, uint8_t* dst, uint64_t size) {
    auto* sid = m_.decoration(inst.resultId, spv::Decoration::SpecId);
    if (!sid) return;
    auto it = L_.opt.specConstants.find(sid->literals[0]);
    if (it == L_.opt.specConstants.end()) return;
    if (it->second.size() != size && !(size == 1 && it->second.size() >= 1))
      throw ModuleError("specialization constant " + std::to_string(sid->literals[0]) + " has " + std::to_string(size) +
                        " bytes but the value given has " + std::to_string(it->second.size()));
    if (size == 1 && m_.type(inst.resultType).kind == TypeKind::Bool)
      *dst = it->second[0] != 0;
    else
      std::memcpy(dst, it->second.data(), size);
  }

  // OpSpecConstantOp: lower the operation as an ordinary instruction and run it once on the
  // register template, so constant folding uses the very same semantics as execution.
  void evaluateSpecOp(const Instruction& inst) {
    Instruction synth;
    synth.opcode = spv::Op(inst.words[3]);
    synth.resultType = inst.resultType;
    synth.resultId = inst.resultId;
    synth.words = {0, inst.resultType, inst.resultId};
    synth.words.insert(synth.words.end(), inst.words.begin() + 4, inst.words.end());
    synth.firstOperand = 3;
    // Keep the synthetic instruction alive and addressable for diagnostics.
    specInstructions_.push_back(synth);
    const size_t before = k_.ops.size();
    const Instruction& s = specInstructions_.back();
    // Pointer arithmetic (program-scope initialisers such as `global int* p = &a[1]`) lowers
    // through the memory family's access chains.
    const bool handled = lowerArithmetic(L_, s) || lowerBitwise(L_, s) || lowerRelational(L_, s) ||
                         lowerConversion(L_, s) || lowerComposite(L_, s) || lowerMemory(L_, s);
    if (!handled) L_.reject(inst, "OpSpecConstantOp with opcode " + std::to_string(inst.words[3]));
    WorkItem wi;
    wi.regs = k_.registerTemplate.data();
    std::vector<Diagnostic> warnings;
    uint64_t count = 0;
    wi.warnings = &warnings;
    wi.warningCount = &count;
    Launch launch;
    launch.choices = &L_.opt.choices;
    launch.kernel = &k_;
    launch.module = &m_;
    wi.launch = &launch;
    for (size_t i = before; i < k_.ops.size(); ++i) k_.ops[i].inst = L_.index(inst);
    for (size_t i = before; i < k_.ops.size(); ++i) k_.ops[i].fn(wi, &k_.ops[i]);
    k_.ops.resize(before);
  }

  // Uses of every id in reachable code. Every operand word is counted, literals included, so
  // a count can only be too high, which at worst forgoes a fusion.
  void countUses() {
    for (uint32_t fid : order_)
      for (const Block& b : m_.functions.at(fid).blocks)
        for (uint32_t idx : b.instructions) {
          const Instruction& inst = m_.instructions[idx];
          for (size_t w = inst.firstOperand; w < inst.words.size(); ++w) ++L_.useCount_[inst.words[w]];
        }
  }

  // Peephole fusion within one block, for values with a single use that is in the same block
  // (so no other definition of their operands can intervene):
  //  - an OpSConvert i32→i64 used only as an access-chain index is read as a signed 32-bit index;
  //  - an access chain used only by a load or store becomes part of it;
  //  - an integer comparison used only by the block's conditional branch becomes part of it.
  void planFusion(const Block& b) {
    std::unordered_map<uint32_t, size_t> position;  // result id → index in the block
    for (size_t i = 0; i < b.instructions.size(); ++i) {
      const Instruction& inst = m_.instructions[b.instructions[i]];
      if (inst.resultId) position[inst.resultId] = i;
    }
    auto singleLocalUse = [&](uint32_t id) {
      return position.count(id) && L_.useCount_[id] == 1 && !L_.shadow_.count(id);
    };
    auto isChain = [](spv::Op op) {
      return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
             op == spv::Op::OpInBoundsPtrAccessChain;
    };
    for (uint32_t idx : b.instructions) {
      const Instruction& inst = m_.instructions[idx];
      if (isChain(inst.opcode)) {
        for (size_t k = 1; k < inst.operandCount(); ++k) {
          const uint32_t id = inst.operand(k);
          if (!singleLocalUse(id)) continue;
          const Instruction& d = m_.def(id);
          if (d.opcode == spv::Op::OpSConvert && m_.type(d.resultType).width == 64 &&
              L_.typeOfValue(d.operand(0)).kind == TypeKind::Int && L_.typeOfValue(d.operand(0)).width == 32 &&
              !m_.hasDecoration(id, spv::Decoration::SaturatedConversion)) {
            L_.sextIndex_[id] = d.operand(0);
            L_.elided_[id] = true;
          }
        }
      }
      if (inst.opcode == spv::Op::OpLoad || inst.opcode == spv::Op::OpStore) {
        const uint32_t ptr = inst.operand(0);
        if (singleLocalUse(ptr) && isChain(m_.def(ptr).opcode) && chainIsFusable(L_, m_.def(ptr)))
          L_.elided_[ptr] = true;
      }
      if (inst.opcode == spv::Op::OpBranchConditional) {
        const uint32_t c = inst.operand(0);
        if (singleLocalUse(c) && compareIsFusable(L_, m_.def(c))) L_.elided_[c] = true;
      }
    }
  }

  void lowerFunction(const Function& f) {
    L_.functionEntry_[f.id] = uint32_t(k_.ops.size());
    for (const Block& b : f.blocks) {
      planFusion(b);
      L_.currentBlock = b.label;
      L_.labelOp_[b.label] = uint32_t(k_.ops.size());
      L_.labelCost_[b.label] = int64_t(b.instructions.size()) + 1;
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        if (inst.opcode == spv::Op::OpUndef) continue;  // its register holds the undef value
        if (inst.opcode == spv::Op::OpExtInst) {
          const auto set = m_.extInstImports.find(inst.extInstSet);
          // Debug information (OpenCL.DebugInfo.100, NonSemantic.*) has no run-time effect.
          if (set != m_.extInstImports.end() &&
              (set->second.rfind("OpenCL.DebugInfo", 0) == 0 || set->second.rfind("NonSemantic.", 0) == 0))
            continue;
        }
        emitUndefCheck(L_, inst);
        if (lowerControl(L_, inst) || lowerMemory(L_, inst) || lowerArithmetic(L_, inst) || lowerBitwise(L_, inst) ||
            lowerRelational(L_, inst) || lowerConversion(L_, inst) || lowerComposite(L_, inst) ||
            lowerExtInst(L_, inst) || lowerGroup(L_, inst) || lowerAtomic(L_, inst)) {
          emitShadowUpdate(L_, inst);
          continue;
        }
        L_.reject(inst, "instruction " + m_.disassemble(inst));
      }
    }
    L_.functionCost_[f.id] = f.blocks.empty() ? 0 : L_.labelCost_[f.blocks.front().label];
  }

  bool isCallEdge(const Edge& e) const { return callEdges_.count(&e) != 0; }

  void resolve(uint32_t entry) {
    for (const auto& [callee, e] : L_.callEdges_) callEdges_.insert(e);
    for (auto& fix : L_.fixups) fix();
    for (auto& e : k_.edges) {
      if (e.cost == 0 && L_.labelOp_.count(e.targetIndex)) {
        e.cost = L_.labelCost_.at(e.targetIndex);
        e.targetIndex = L_.labelOp_.at(e.targetIndex);
      }
    }
    for (auto& e : k_.edges) {
      e.target = &k_.ops.at(e.targetIndex);
      // Blocks are laid out dominators first (SPIR-V 1.0 §2.16.1), so an edge to a block at or
      // before its own is a loop's back-edge.
      e.backEdge = e.targetIndex <= e.sourceBlockOp && !isCallEdge(e);
    }
    k_.entryOp = L_.functionEntry_.at(entry);
    k_.entryCost = L_.functionCost_.at(entry);
    k_.registerTemplate.resize(L_.regTop_ + 16, 0);
  }

  std::set<const Edge*> callEdges_;
  std::vector<uint32_t> pendingInit_;
  std::deque<Instruction> specInstructions_;
};

}  // namespace

std::unique_ptr<LoweredKernel> lowerKernel(const Module& module, const std::string& name, const LowerOptions& options) {
  auto k = std::make_unique<LoweredKernel>();
  LowerOptions opt = options;
  if (!opt.globals) opt.globals = std::make_shared<GlobalStorage>();
  KernelLowering(module, opt, *k).run(name);
  return k;
}

}  // namespace clref::interpreter
