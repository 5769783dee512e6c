// The lowering context (Lowerer, lower.hpp): registers, types, Op emission, edges with their
// OpPhi copies, constants.
#include <algorithm>
#include <cstring>

#include "interpreter/convergence_order.hpp"
#include "interpreter/lower.hpp"

namespace clref::interpreter {

uint32_t Lowerer::reg(uint32_t id) const {
  auto it = regs_.find(id);
  if (it == regs_.end()) {
    const Instruction* d = m.findDef(id);
    throw ModuleError("internal: no register for %" + std::to_string(id) +
                      (d ? " (" + m.describe(index(*d)) + ")" : ""));
  }
  return it->second;
}

namespace {
// The register file grows by `size` bytes from `top`: refused past kMaxRegisterBytes (program.hpp).
std::string registerLimitExceeded(uint64_t top, uint64_t size) {
  if (size <= kMaxRegisterBytes && top + 8 + size <= kMaxRegisterBytes) return {};
  return "register file limit: a value of " + std::to_string(size) + " bytes takes the kernel's registers to " +
         std::to_string(top + size) + " bytes, above clref's limit of " + std::to_string(kMaxRegisterBytes) + " bytes";
}
}  // namespace

uint32_t Lowerer::allocReg(uint32_t id, uint64_t size) {
  if (auto why = registerLimitExceeded(regTop_, size); !why.empty()) {
    const Instruction* d = m.findDef(id);
    throw ModuleError(why + (d ? "\n  at " + m.describe(index(*d)) : ""));
  }
  const uint32_t off = scratch(size == 0 ? 1 : size);
  regs_[id] = off;
  return off;
}

uint32_t Lowerer::scratch(uint64_t size) {
  if (auto why = registerLimitExceeded(regTop_, size); !why.empty()) throw ModuleError(why);
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

ScalarType Lowerer::scalarOf(uint32_t typeId) const {
  const Type* t = &m.type(typeId);
  if (t->kind == TypeKind::Vector) t = &m.type(t->element);
  switch (t->kind) {
    case TypeKind::Bool: return ScalarType::Bool;
    case TypeKind::Int: return numerics::integerType(t->width / 8, false);  // signless: the unsigned type (lower.hpp)
    case TypeKind::Float: return numerics::scalarTypeOf(numerics::formatOfBytes(t->width / 8));
    case TypeKind::Pointer: return numerics::integerType(ptrBytes(), false);
    default: throw ModuleError("type %" + std::to_string(typeId) + " is not a scalar or vector");
  }
}

uint32_t Lowerer::lanes(uint32_t typeId) const {
  const Type& t = m.type(typeId);
  return t.kind == TypeKind::Vector ? t.count : 1;
}

bool Lowerer::towardZero(ScalarType s) const {
  switch (s) {
    case ScalarType::Half: return opt.roundTowardZero & 1;
    case ScalarType::Float: return opt.roundTowardZero & 2;
    case ScalarType::Double: return opt.roundTowardZero & 4;
    default: return false;
  }
}

bool Lowerer::flush(ScalarType s) const {
  using numerics::Denorm;
  switch (s) {
    case ScalarType::Half: return opt.denormHalf == Denorm::Flush;
    case ScalarType::Float: return opt.denormFloat == Denorm::Flush;
    case ScalarType::Double: return opt.denormDouble == Denorm::Flush;
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
          if (opt.shadow && !shadowExact(phi.resultId)) e.shadowCopies.push_back(e.copies.back());
          if (auto sh = shadow_.find(phi.resultId); sh != shadow_.end()) {
            const uint32_t size = uint32_t(m.type(phi.resultType).size);
            e.copies.push_back({sh->second, shadowOrZero(phi.operand(k2), size), size});
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

uint32_t Lowerer::convergenceRank() {
  if (!convergenceRank_.count(currentBlock))
    for (const auto& [label, rank] : convergenceOrder(m, currentBlock)) convergenceRank_[label] = rank;
  const auto it = convergenceRank_.find(currentBlock);
  return it == convergenceRank_.end() ? UINT32_MAX : it->second;
}

}  // namespace clref::interpreter
