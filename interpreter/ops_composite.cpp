// SPIR-V 1.0 §3.32.12 [external] Composite Instructions. Composites live in registers with their memory
// layout (members at their offsets, 3-component vectors padded to 4), so extraction and
// insertion are byte copies at offsets computed during lowering.
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

// Copies of n bytes from a+imm to r (extract) — specialised for the common scalar sizes.
template <uint32_t N> const Op* extractFixed(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a + op->imm, N);
  return op + 1;
}
// Its lane form (lanes.hpp): an element of N bytes at an N-aligned offset, within one chunk.
template <uint32_t N> const Op* extractOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t* src = b.lane0(op->a + uint32_t(op->imm));
  uint8_t* dst = b.lane0(op->r);
  if constexpr (N == 8) {  // whole chunks: the lanes' elements are one array
    std::memcpy(dst, src, size_t(b.count) * 8);
    return op + 1;
  }
  for (uint32_t l = 0; l < b.count; ++l) std::memcpy(dst + size_t(l) * 8, src + size_t(l) * 8, N);
  return op + 1;
}
const Op* extractAny(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a + op->imm, op->n);
  return op + 1;
}
// Insert: copy the composite (c bytes), then the object (n bytes) at imm. The registers may be the same (an insert
// in place), hence memmove; the fixed sizes of the common vectors (2 and 4 lanes of 4 or 8 bytes) copy inline.
const Op* insert(WorkItem& wi, const Op* op) {
  std::memmove(wi.regs + op->r, wi.regs + op->b, op->c);
  std::memmove(wi.regs + op->r + op->imm, wi.regs + op->a, op->n);
  return op + 1;
}
template <uint32_t C, uint32_t N> const Op* insertFixed(WorkItem& wi, const Op* op) {
  std::memmove(wi.regs + op->r, wi.regs + op->b, C);
  std::memmove(wi.regs + op->r + op->imm, wi.regs + op->a, N);
  return op + 1;
}
// Its lane form (lanes.hpp): the composite's whole chunks (a register owns the rest of its last one), then the object.
template <uint32_t C, uint32_t N> const Op* insertOnLanes(LaneBatch& b, const Op* op) {
  if (op->r != op->b) copyLanes(b, op->r, op->b, C);
  const uint8_t* src = b.lane0(op->a);
  uint8_t* dst = b.lane0(op->r + uint32_t(op->imm));
  for (uint32_t l = 0, count = b.count; l < count; ++l) std::memcpy(dst + size_t(l) * 8, src + size_t(l) * 8, N);
  return op + 1;
}
Handler insertHandler(uint64_t composite, uint64_t object) {
  if (object == 4 && composite == 8) return laneForm<&insertFixed<8, 4>, &insertOnLanes<8, 4>>();
  if (object == 4 && composite == 16) return laneForm<&insertFixed<16, 4>, &insertOnLanes<16, 4>>();
  if (object == 8 && composite == 16) return laneForm<&insertFixed<16, 8>, &insertOnLanes<16, 8>>();
  if (object == 8 && composite == 32) return laneForm<&insertFixed<32, 8>, &insertOnLanes<32, 8>>();
  return &insert;
}

// A list of (destination offset, source register, bytes) copies, for OpCompositeConstruct and
// OpVectorShuffle. Table layout: triples of uint32.
const Op* gather(WorkItem& wi, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  for (size_t i = 0; i + 2 < t.size(); i += 3) std::memcpy(wi.regs + op->r + t[i], wi.regs + t[i + 1], t[i + 2]);
  return op + 1;
}
// The same when every copy is N bytes (the lanes of a shuffle, a vector built from scalars): inline copies.
template <uint32_t N> const Op* gatherLanes(WorkItem& wi, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  for (size_t i = 0; i + 2 < t.size(); i += 3) std::memcpy(wi.regs + op->r + t[i], wi.regs + t[i + 1], N);
  return op + 1;
}
// Its lane form: each copy for every lane (an N-byte element at an N-aligned offset stays within one chunk).
template <uint32_t N> const Op* gatherOnLanes(LaneBatch& b, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  for (size_t i = 0; i + 2 < t.size(); i += 3) {
    const uint8_t* src = b.lane0(t[i + 1]);
    uint8_t* dst = b.lane0(op->r + t[i]);
    for (uint32_t l = 0, count = b.count; l < count; ++l) std::memcpy(dst + size_t(l) * 8, src + size_t(l) * 8, N);
  }
  return op + 1;
}
Handler gatherHandler(const std::vector<uint32_t>& table) {
  uint32_t bytes = 0;
  for (size_t i = 0; i + 2 < table.size(); i += 3) {
    if (bytes != 0 && table[i + 2] != bytes) return &gather;
    bytes = table[i + 2];
  }
  switch (bytes) {
    case 4: return laneForm<&gatherLanes<4>, &gatherOnLanes<4>>();
    case 8: return laneForm<&gatherLanes<8>, &gatherOnLanes<8>>();
    default: return &gather;
  }
}

// OpVectorExtractDynamic / OpVectorInsertDynamic: an index out of range is undefined in
// SPIR-V; the choice vector_index_out_of_range decides: warn and read zero / write nothing, or
// fault. Returns nullptr after a fault.
const Op* vectorIndexOutOfRange(WorkItem& wi, const Op* op, uint64_t i, const char* consequence) {
  const std::string what = "vector component index " + std::to_string(i) + " out of range: the result is undefined";
  if (choicesOf(wi).get<numerics::Choice::VectorIndexOutOfRange>() == numerics::VectorIndexOption::Fault)
    return fault(wi, op, FaultKind::UndefinedBehaviour, what + " (choice vector_index_out_of_range=fault)");
  warnChoice(wi, op, numerics::Choice::VectorIndexOutOfRange, what + ", " + consequence + " (choice vector_index_out_of_range)");
  return op;
}
template <class I> const Op* extractDynamic(WorkItem& wi, const Op* op) {
  const uint64_t i = rd<I>(wi, op->b);
  if (i >= op->c) [[unlikely]] {
    if (!vectorIndexOutOfRange(wi, op, i, "clref gives 0")) return nullptr;
    std::memset(wi.regs + op->r, 0, op->n);
  } else {
    std::memcpy(wi.regs + op->r, wi.regs + op->a + i * op->n, op->n);
  }
  return op + 1;
}
// A dynamic component of a work-item BuiltIn vector (llvm-spirv's get_global_size(d) with a
// run-time d): OpenCL C 3.0 §6.15.1 [[work-item-functions]] defines out-of-range dimensions — sizes and counts are 1,
// ids and offsets 0 — so no warning; the default is in imm.
template <class I> const Op* extractBuiltinDynamic(WorkItem& wi, const Op* op) {
  const uint64_t i = rd<I>(wi, op->b);
  if (i >= op->c)
    std::memcpy(wi.regs + op->r, &op->imm, op->n);
  else
    std::memcpy(wi.regs + op->r, wi.regs + op->a + i * op->n, op->n);
  return op + 1;
}

template <class I> const Op* insertDynamic(WorkItem& wi, const Op* op) {
  const uint64_t i = rd<I>(wi, uint32_t(op->imm));
  const uint32_t lanes = op->c & 0xffff, elem = op->c >> 16;
  std::memmove(wi.regs + op->r, wi.regs + op->a, lanes * elem);
  if (i >= lanes) [[unlikely]] {
    if (!vectorIndexOutOfRange(wi, op, i, "clref leaves the vector unchanged")) return nullptr;
  } else {
    std::memcpy(wi.regs + op->r + i * elem, wi.regs + op->b, elem);
  }
  return op + 1;
}

Handler extractHandler(uint64_t size) {
  switch (size) {
    case 1: return laneForm<&extractFixed<1>, &extractOnLanes<1>>();
    case 2: return laneForm<&extractFixed<2>, &extractOnLanes<2>>();
    case 4: return laneForm<&extractFixed<4>, &extractOnLanes<4>>();
    case 8: return laneForm<&extractFixed<8>, &extractOnLanes<8>>();
    default: return &extractAny;
  }
}

void lowerCompositeExtract(Lowerer& L, const Instruction& inst) {
  if (inst.operandCount() == 2 && L.m.isBuiltinLoad(inst.operand(0))) {
    const Instruction& load = L.m.def(inst.operand(0));
    const Type& vt = L.type(load.resultType);
    if (vt.kind == TypeKind::Vector && inst.operand(1) >= vt.count) {
      // get_global_size(4) and friends (OpenCL C 3.0 §6.15.1 [[work-item-functions]]): 1 for sizes and counts,
      // 0 for ids and offsets; a constant, written into the register template.
      uint64_t value = 0;
      switch (L.builtinOf_.at(load.operand(0))) {
        case spv::BuiltIn::GlobalSize:
        case spv::BuiltIn::WorkgroupSize:
        case spv::BuiltIn::EnqueuedWorkgroupSize:
        case spv::BuiltIn::NumWorkgroups: value = 1; break;
        default: break;
      }
      std::memcpy(L.k.registerTemplate.data() + L.reg(inst.resultId), &value, L.type(inst.resultType).size);
      return;
    }
  }
  uint32_t mt = 0;
  const uint64_t off = memberOffset(L, L.typeIdOfValue(inst.operand(0)), inst, 1, mt);
  const uint64_t size = L.type(inst.resultType).size;
  Op& op = L.emit(extractHandler(size), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.imm = off;
  op.n = uint32_t(size);
}

void lowerCompositeInsert(Lowerer& L, const Instruction& inst) {
  uint32_t mt = 0;
  const uint64_t off = memberOffset(L, inst.resultType, inst, 2, mt);
  Op& op = L.emit(insertHandler(L.type(inst.resultType).size, L.type(mt).size), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));  // object
  op.b = L.reg(inst.operand(1));  // composite
  op.c = uint32_t(L.type(inst.resultType).size);
  op.n = uint32_t(L.type(mt).size);
  op.imm = off;
}

// OpCopyObject, OpCopyLogical.
void lowerCopyObject(Lowerer& L, const Instruction& inst) {
  const uint64_t size = L.type(inst.resultType).size;
  Op& op = L.emit(extractHandler(size), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = uint32_t(size);
}

// OpCopyLogical (SPIR-V 1.4 §3.32.12 [external]): the leaves move from their offsets in the operand to theirs in the
// result (logicalCopies, lower.hpp).
std::vector<uint32_t> logicalCopyTable(const Lowerer& L, const Instruction& inst) {
  std::vector<uint32_t> table;
  logicalCopies(L, inst.resultType, L.typeIdOfValue(inst.operand(0)), 0, L.reg(inst.operand(0)), table);
  return table;
}
void lowerCopyLogical(Lowerer& L, const Instruction& inst) {
  auto& table = L.k.tables.emplace_back(logicalCopyTable(L, inst));
  Op& op = L.emit(gatherHandler(table), inst);
  op.r = L.reg(inst.resultId);
  op.aux = &table;
}

void lowerCompositeConstruct(Lowerer& L, const Instruction& inst) {
  const Type& rt = L.type(inst.resultType);
  auto& table = L.k.tables.emplace_back();
  uint64_t off = 0;
  for (size_t k = 0; k < inst.operandCount(); ++k) {
    const uint32_t id = inst.operand(k);
    const Type& ct = L.typeOfValue(id);
    uint64_t dst;
    uint64_t bytes = ct.size;
    if (rt.kind == TypeKind::Struct)
      dst = rt.memberOffsets.at(k);
    else if (rt.kind == TypeKind::Array || rt.kind == TypeKind::Matrix)
      dst = k * rt.stride;
    else
      dst = off;  // vector: scalars and vectors concatenated
    if (rt.kind == TypeKind::Vector && ct.kind == TypeKind::Vector)
      bytes = uint64_t(ct.count) * L.type(ct.element).size;
    table.insert(table.end(), {uint32_t(dst), L.reg(id), uint32_t(bytes)});
    off = dst + bytes;
  }
  Op& op = L.emit(gatherHandler(table), inst);
  op.r = L.reg(inst.resultId);
  op.aux = &table;
}

void lowerVectorShuffle(Lowerer& L, const Instruction& inst) {
  const Type& v1 = L.typeOfValue(inst.operand(0));
  const uint32_t elem = uint32_t(L.type(v1.element).size);
  auto& table = L.k.tables.emplace_back();
  const uint32_t zero = L.scratch(elem);  // source for undefined (0xFFFFFFFF) components
  for (size_t k = 2; k < inst.operandCount(); ++k) {
    const uint32_t c = inst.operand(k);
    uint32_t src;
    if (c == 0xFFFFFFFF)
      src = zero;
    else if (c < v1.count)
      src = L.reg(inst.operand(0)) + c * elem;
    else
      src = L.reg(inst.operand(1)) + (c - v1.count) * elem;
    table.insert(table.end(), {uint32_t((k - 2) * elem), src, elem});
  }
  Op& op = L.emit(gatherHandler(table), inst);
  op.r = L.reg(inst.resultId);
  op.aux = &table;
}

void lowerVectorExtractDynamic(Lowerer& L, const Instruction& inst) {
  const Type& vt = L.typeOfValue(inst.operand(0));
  const bool idx64 = L.typeOfValue(inst.operand(1)).width == 64;
  const Instruction& src = L.m.def(inst.operand(0));
  const bool fromBuiltin = src.opcode == spv::Op::OpLoad && L.builtinOf_.count(src.operand(0));
  Handler fn = idx64 ? &extractDynamic<uint64_t> : &extractDynamic<uint32_t>;
  uint64_t outOfRange = 0;
  if (fromBuiltin) {
    fn = idx64 ? &extractBuiltinDynamic<uint64_t> : &extractBuiltinDynamic<uint32_t>;
    switch (L.builtinOf_.at(src.operand(0))) {
      case spv::BuiltIn::GlobalSize:
      case spv::BuiltIn::WorkgroupSize:
      case spv::BuiltIn::EnqueuedWorkgroupSize:
      case spv::BuiltIn::NumWorkgroups: outOfRange = 1; break;
      default: outOfRange = 0; break;
    }
  }
  Op& op = L.emit(fn, inst);
  op.imm = outOfRange;
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.c = vt.count;
  op.n = uint32_t(L.type(vt.element).size);
  if (L.typeOfValue(inst.operand(1)).width < 32) L.reject(inst, "vector index narrower than 32 bits");
}

void lowerVectorInsertDynamic(Lowerer& L, const Instruction& inst) {
  const Type& vt = L.type(inst.resultType);
  const bool idx64 = L.typeOfValue(inst.operand(2)).width == 64;
  Op& op = L.emit(idx64 ? &insertDynamic<uint64_t> : &insertDynamic<uint32_t>, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.imm = L.reg(inst.operand(2));
  op.c = vt.count | (uint32_t(L.type(vt.element).size) << 16);
  if (L.typeOfValue(inst.operand(2)).width < 32) L.reject(inst, "vector index narrower than 32 bits");
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp): the sets move with the bytes ---------------------------------

void shadowCompositeExtract(ShadowLowering& S) {
  const uint64_t off = shadowOffsetOf(S.L, S.L.typeIdOfValue(S.operand(0)), S.inst, 1);
  S.copies({0, uint32_t(S.L.reg(S.operand(0)) + off), S.resultBytes()});
}
void shadowCompositeInsert(ShadowLowering& S) {
  const uint64_t off = shadowOffsetOf(S.L, S.inst.resultType, S.inst, 2);
  S.copies({0, S.L.reg(S.operand(1)), S.resultBytes(), uint32_t(off), S.L.reg(S.operand(0)),
            uint32_t(S.L.typeOfValue(S.operand(0)).size)});
}
void shadowCompositeConstruct(ShadowLowering& S) {
  Lowerer& L = S.L;
  const Type& t = S.resultType();
  std::vector<uint32_t> triples;
  uint64_t off = 0;
  for (size_t k = 0; k < S.inst.operandCount(); ++k) {
    const Type& ot = L.typeOfValue(S.operand(k));
    uint64_t at = off;
    if (t.kind == TypeKind::Struct) at = t.memberOffsets.at(k);
    else if (t.kind == TypeKind::Array || t.kind == TypeKind::Matrix)
      at = k * (t.stride ? t.stride : L.type(t.element).size);
    triples.insert(triples.end(), {uint32_t(at), L.reg(S.operand(k)), uint32_t(ot.size)});
    // Vector from scalars and vectors: each operand's components in turn (3-component operands take 3 lanes).
    off += t.kind == TypeKind::Vector ? L.lanes(L.typeIdOfValue(S.operand(k))) * L.type(t.element).size : ot.size;
  }
  S.copies(std::move(triples));
}
// OpCopyLogical: the sets move with the leaves.
void shadowCopyLogical(ShadowLowering& S) { S.copies(logicalCopyTable(S.L, S.inst)); }
void shadowVectorShuffle(ShadowLowering& S) {
  Lowerer& L = S.L;
  const Type& a = L.typeOfValue(S.operand(0));
  const uint32_t lb = S.laneBytes(S.inst.resultType), na = a.count;
  std::vector<uint32_t> triples, undefinedLanes;
  for (size_t k = 2; k < S.inst.operandCount(); ++k) {
    const uint32_t c = S.operand(k);
    // SPIR-V 1.0 §3.32.12 [external] OpVectorShuffle: a component literal 0xFFFFFFFF makes the result's
    // component undefined (clref's value is whatever its copy left): any value another device may give, such as
    // the padding lane clang adds to store a 3-component vector, or the fourth lane of as_type4 of one:
    // OpenCL C 3.0 §6.4.4.2 [[reinterpreting-types-using-as_type-and-as_typen]].
    if (c == 0xFFFFFFFFu) {
      undefinedLanes.push_back(uint32_t((k - 2) * lb));
      continue;
    }
    const uint32_t src = c < na ? L.reg(S.operand(0)) + c * lb : L.reg(S.operand(1)) + (c - na) * lb;
    triples.insert(triples.end(), {uint32_t((k - 2) * lb), src, lb});
  }
  S.copies(std::move(triples));
  if (!undefinedLanes.empty()) S.anyValueLanes(std::move(undefinedLanes), lb);
}
void shadowVectorExtractDynamic(ShadowLowering& S) {
  Lowerer& L = S.L;
  Op& op = L.emit(&shExtractDynamic, S.inst);
  op.r = L.reg(S.inst.resultId);
  op.a = L.reg(S.operand(0));
  op.b = L.reg(S.operand(1));
  op.c = uint32_t(L.typeOfValue(S.operand(1)).size);
  op.n = S.resultBytes();
  op.imm = L.typeOfValue(S.operand(0)).count;
}
void shadowVectorInsertDynamic(ShadowLowering& S) {
  Lowerer& L = S.L;
  Op& op = L.emit(&shInsertDynamic, S.inst);
  op.r = L.reg(S.inst.resultId);
  op.a = L.reg(S.operand(0));
  op.b = L.reg(S.operand(1));
  op.c = L.reg(S.operand(2));
  op.align = uint32_t(L.typeOfValue(S.operand(2)).size);
  op.n = S.laneBytes(S.inst.resultType);
  op.imm = S.resultType().count;
}

}  // namespace

void logicalCopies(const Lowerer& L, uint32_t dstType, uint32_t srcType, uint64_t dst, uint64_t src,
                   std::vector<uint32_t>& table) {
  const Type& d = L.type(dstType);
  const Type& s = L.type(srcType);
  auto leaf = [&](uint64_t bytes) {
    const size_t n = table.size();
    if (n && table[n - 3] + table[n - 1] == dst && table[n - 2] + table[n - 1] == src) {
      table[n - 1] += uint32_t(bytes);
      return;
    }
    table.insert(table.end(), {uint32_t(dst), uint32_t(src), uint32_t(bytes)});
  };
  switch (d.kind) {
    case TypeKind::Struct:
      for (size_t k = 0; k < d.members.size(); ++k)
        logicalCopies(L, d.members[k], s.members.at(k), dst + d.memberOffsets[k], src + s.memberOffsets.at(k), table);
      return;
    case TypeKind::Array:
    case TypeKind::Matrix:
      for (uint32_t i = 0; i < d.count; ++i)
        logicalCopies(L, d.element, s.element, dst + i * d.stride, src + i * s.stride, table);
      return;
    case TypeKind::Vector: return leaf(uint64_t(d.count) * L.type(d.element).size);
    default: return leaf(d.size);
  }
}
uint64_t memberOffset(const Lowerer& L, uint32_t typeId, const Instruction& inst, size_t first, uint32_t& memberType) {
  uint64_t off = 0;
  uint32_t t = typeId;
  for (size_t k = first; k < inst.operandCount(); ++k) {
    const uint32_t idx = inst.operand(k);
    const Type& ty = L.type(t);
    switch (ty.kind) {
      case TypeKind::Struct:
        off += ty.memberOffsets.at(idx);
        t = ty.members.at(idx);
        break;
      case TypeKind::Vector:
        off += uint64_t(idx) * L.type(ty.element).size;
        t = ty.element;
        break;
      case TypeKind::Array:
      case TypeKind::Matrix:  // a column, at the matrix's register stride
        off += uint64_t(idx) * ty.stride;
        t = ty.element;
        break;
      default: L.reject(inst, "index into a non-composite type");
    }
  }
  memberType = t;
  return off;
}


void registerComposite(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpCompositeExtract, lowerCompositeExtract, {shadowCompositeExtract});
  t.lower(Op::OpCompositeInsert, lowerCompositeInsert, {shadowCompositeInsert});
  t.lower(Op::OpCopyObject, lowerCopyObject, {shadowCopyOperand0});
  t.lower(Op::OpCopyLogical, lowerCopyLogical, {shadowCopyLogical});
  t.lower(Op::OpCompositeConstruct, lowerCompositeConstruct, {shadowCompositeConstruct});
  t.lower(Op::OpVectorShuffle, lowerVectorShuffle, {shadowVectorShuffle});
  t.lower(Op::OpVectorExtractDynamic, lowerVectorExtractDynamic, {shadowVectorExtractDynamic});
  t.lower(Op::OpVectorInsertDynamic, lowerVectorInsertDynamic, {shadowVectorInsertDynamic});
}

}  // namespace clref::interpreter
