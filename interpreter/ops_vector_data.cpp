// OpenCL.std vector data load and store instructions (OpenCL Extended Instruction Set §2.7 [external];
// OpenCL C 3.0 §6.15.7 [[vector-data-load-and-store-functions]] vloadn, vstoren, vload_half, vstore_half, vloada_half,
// vstorea_half). Every element access is checked like OpLoad/OpStore; halves are converted exactly (loads)
// or with one correct rounding in the mode given (stores).
#include "interpreter/fp_rounding_mode.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/opencl_std.hpp"

namespace clref::interpreter {
namespace {

using VData = numerics::OpenClStd;  // generated from the SPIR-V grammar

// Op fields: r = result (loads), b = data (stores), a = pointer, c = offset register,
// n = lanes, imm = element stride in elements per offset step (n, or 4 for aligned 3-vectors),
// align = (element bytes) | (offset bytes << 8) | (rounding << 16) | (access alignment << 20).
struct Fields {
  uint32_t elem, offsetBytes, align;
  numerics::Rounding rounding;
};
inline Fields fieldsOf(const Op* op) {
  return {op->align & 0xff, (op->align >> 8) & 0xff, op->align >> 20, numerics::Rounding((op->align >> 16) & 0xf)};
}
inline uint64_t offsetOf(const WorkItem& wi, const Op* op, uint32_t bytes) {
  return bytes == 8 ? rd<uint64_t>(wi, op->c) : rd<uint32_t>(wi, op->c);
}

// vloadn / vstoren: n elements at p + offset·n (elements of the pointee type).
template <class P> const Op* vloadn(WorkItem& wi, const Op* op) {
  const Fields f = fieldsOf(op);
  const uint64_t base = rd<P>(wi, op->a) + offsetOf(wi, op, f.offsetBytes) * op->imm * f.elem;
  const uint8_t* p = access(wi, op, P(base), uint64_t(op->n) * f.elem, f.align, false);
  if (!p) return nullptr;
  std::memcpy(wi.regs + op->r, p, size_t(op->n) * f.elem);
  return op + 1;
}
template <class P> const Op* vstoren(WorkItem& wi, const Op* op) {
  const Fields f = fieldsOf(op);
  const uint64_t base = rd<P>(wi, op->a) + offsetOf(wi, op, f.offsetBytes) * op->imm * f.elem;
  uint8_t* p = access(wi, op, P(base), uint64_t(op->n) * f.elem, f.align, true);
  if (!p) return nullptr;
  std::memcpy(p, wi.regs + op->b, size_t(op->n) * f.elem);
  return op + 1;
}
// vload_half(n) / vloada_half(n): halves to float (exact). The result lanes are float (elem 4).
template <class P> const Op* vloadHalf(WorkItem& wi, const Op* op) {
  const Fields f = fieldsOf(op);
  const uint64_t base = rd<P>(wi, op->a) + offsetOf(wi, op, f.offsetBytes) * op->imm * 2;
  const uint8_t* p = access(wi, op, P(base), uint64_t(op->n) * 2, f.align, false);
  if (!p) return nullptr;
  for (uint32_t i = 0; i < op->n; ++i) {
    Half h;
    std::memcpy(&h, p + 2 * i, 2);
    wr<float>(wi, op->r + 4 * i, numerics::toFloat(h));
  }
  return op + 1;
}
// vstore_half(n)(_r) / vstorea_half(n)(_r): float or double lanes rounded once to half.
template <class P, class T> const Op* vstoreHalf(WorkItem& wi, const Op* op) {
  const Fields f = fieldsOf(op);
  const uint64_t base = rd<P>(wi, op->a) + offsetOf(wi, op, f.offsetBytes) * op->imm * 2;
  uint8_t* p = access(wi, op, P(base), uint64_t(op->n) * 2, f.align, true);
  if (!p) return nullptr;
  for (uint32_t i = 0; i < op->n; ++i) {
    const Half h = numerics::toHalf(double(rd<T>(wi, op->b + sizeof(T) * i)), f.rounding);
    std::memcpy(p + 2 * i, &h, 2);
  }
  return op + 1;
}

uint32_t packFields(uint32_t elem, uint32_t offsetBytes, numerics::Rounding r, uint32_t align) {
  return elem | offsetBytes << 8 | uint32_t(r) << 16 | align << 20;
}

}  // namespace

bool lowerVectorData(Lowerer& L, const Instruction& inst) {
  const auto which = VData(inst.operand(1));
  const bool p64 = L.ptrBytes() == 8;
  // Operand positions after (set, instruction): loads (offset, p[, n]); stores (data, offset, p[, mode]).
  switch (which) {
    case VData::vloadn: {
      const Type& rt = L.type(inst.resultType);
      const uint32_t elem = uint32_t(L.type(rt.element).size);
      Op& op = L.emit(p64 ? &vloadn<uint64_t> : &vloadn<uint32_t>, inst);
      op.r = L.reg(inst.resultId);
      op.c = L.reg(inst.operand(2));
      op.a = L.reg(inst.operand(3));
      op.n = rt.count;
      op.imm = rt.count;
      op.align = packFields(elem, uint32_t(L.typeOfValue(inst.operand(2)).size), numerics::Rounding::RTE, elem);
      return true;
    }
    case VData::vstoren: {
      const Type& dt = L.typeOfValue(inst.operand(2));
      const uint32_t elem = uint32_t(L.type(dt.element).size);
      Op& op = L.emit(p64 ? &vstoren<uint64_t> : &vstoren<uint32_t>, inst);
      op.b = L.reg(inst.operand(2));
      op.c = L.reg(inst.operand(3));
      op.a = L.reg(inst.operand(4));
      op.n = dt.count;
      op.imm = dt.count;
      op.align = packFields(elem, uint32_t(L.typeOfValue(inst.operand(3)).size), numerics::Rounding::RTE, elem);
      return true;
    }
    case VData::vload_half:
    case VData::vload_halfn:
    case VData::vloada_halfn: {
      const uint32_t n = L.lanes(inst.resultType);
      if (L.scalarOf(inst.resultType) != ScalarType::Float) L.reject(inst, "vload_half with a result other than float");
      const bool aligned = which == VData::vloada_halfn;
      // vloada_half3 steps and aligns like vloada_half4 (OpenCL C 3.0 §6.15.6 [[relational-functions]]).
      const uint32_t stride = aligned && n == 3 ? 4 : n;
      Op& op = L.emit(p64 ? &vloadHalf<uint64_t> : &vloadHalf<uint32_t>, inst);
      op.r = L.reg(inst.resultId);
      op.c = L.reg(inst.operand(2));
      op.a = L.reg(inst.operand(3));
      op.n = n;
      op.imm = stride;
      op.align = packFields(4, uint32_t(L.typeOfValue(inst.operand(2)).size), numerics::Rounding::RTE,
                            aligned ? 2 * stride : 2);
      return true;
    }
    case VData::vstore_half:
    case VData::vstore_half_r:
    case VData::vstore_halfn:
    case VData::vstore_halfn_r:
    case VData::vstorea_halfn:
    case VData::vstorea_halfn_r: {
      const uint32_t dataType = L.typeIdOfValue(inst.operand(2));
      const uint32_t n = L.lanes(dataType);
      const bool aligned = which == VData::vstorea_halfn || which == VData::vstorea_halfn_r;
      const bool explicitMode =
          which == VData::vstore_half_r || which == VData::vstore_halfn_r || which == VData::vstorea_halfn_r;
      const auto mode = explicitMode ? toRounding(spv::FPRoundingMode(inst.operand(5))) : numerics::Rounding::RTE;
      const uint32_t stride = aligned && n == 3 ? 4 : n;
      const ScalarType s = L.scalarOf(dataType);
      Handler fn;
      if (s == ScalarType::Float)
        fn = p64 ? &vstoreHalf<uint64_t, float> : &vstoreHalf<uint32_t, float>;
      else if (s == ScalarType::Double)
        fn = p64 ? &vstoreHalf<uint64_t, double> : &vstoreHalf<uint32_t, double>;
      else
        L.reject(inst, "vstore_half of a type other than float or double");
      Op& op = L.emit(fn, inst);
      op.b = L.reg(inst.operand(2));
      op.c = L.reg(inst.operand(3));
      op.a = L.reg(inst.operand(4));
      op.n = n;
      op.imm = stride;
      op.align = packFields(4, uint32_t(L.typeOfValue(inst.operand(3)).size), mode, aligned ? 2 * stride : 2);
      return true;
    }
    default: return false;
  }
}


// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

namespace {

// vloadn(offset, p): the sets of the n lanes at p + offset·n move into the result (undetermined at an open address).
void shadowVloadn(ShadowLowering& S) {
  Lowerer& L = S.L;
  Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
    ShadowRun& s = *wi.shadow;
    const uint64_t offset = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
    auto d = shadowOpenAddress(wi, op, op->a, op->b, op->c);
    if (!d) d = shadowOpenAllocationAt(wi, op->a);
    if (d) {
      s.markUndetermined(wi.regs + op->r, op->n, uint32_t(op->imm), *d);
      return op + 1;
    }
    if (uint8_t* p = shadowHostAddress(wi, op->a)) s.copy(wi.regs + op->r, p + offset * op->n, op->n);
    return op + 1;
  }, S.inst);
  op.r = L.reg(S.inst.resultId);
  op.a = L.reg(S.operand(3));
  op.b = L.reg(S.operand(2));
  op.c = uint32_t(L.typeOfValue(S.operand(2)).size);
  op.n = L.lanes(S.inst.resultType) * S.laneBytes(S.inst.resultType);
  op.imm = S.laneBytes(S.inst.resultType);
}

// vstoren(data, offset, p): the data's sets move into memory.
void shadowVstoren(ShadowLowering& S) {
  Lowerer& L = S.L;
  Op& op = L.emit(+[](WorkItem& wi, const Op* op) -> const Op* {
    ShadowRun& s = *wi.shadow;
    const uint64_t offset = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
    uint8_t* p = shadowHostAddress(wi, op->a);
    if (const auto d = shadowOpenAddress(wi, op, op->a, op->b, op->c)) {
      shadowOpenAllocation(wi, op->a, *d);
      if (p) s.markUndetermined(p + offset * op->n, op->n, 1, *d);
      return op + 1;
    }
    if (p) {
      s.copy(p + offset * op->n, wi.regs + op->r, op->n);
      s.noteWriter(p + offset * op->n, op->n, op->inst);
    }
    return op + 1;
  }, S.inst);
  op.r = L.reg(S.operand(2));
  op.a = L.reg(S.operand(4));
  op.b = L.reg(S.operand(3));
  op.c = uint32_t(L.typeOfValue(S.operand(3)).size);
  op.n = uint32_t(L.typeOfValue(S.operand(2)).size);
}

}  // namespace

void registerVectorData(DispatchTable& t) {
  t.openclStd({uint32_t(VData::vloadn)}, {shadowVloadn});
  t.openclStd({uint32_t(VData::vstoren)}, {shadowVstoren});
  // Halves convert to float exactly; the generic rule follows the offset and the pointer, not the halves' sets in
  // memory (vstore_half leaves none: it has no result).
  t.openclStd({uint32_t(VData::vload_half), uint32_t(VData::vload_halfn), uint32_t(VData::vloada_halfn)},
              {shadowGeneric});
}

}  // namespace clref::interpreter
