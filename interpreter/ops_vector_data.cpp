// OpenCL.std vector data load and store instructions (OpenCL Extended Instruction Set §2.7 [external];
// OpenCL C 3.0 §6.15.7 [[vector-data-load-and-store-functions]] vloadn, vstoren, vload_half, vstore_half, vloada_half,
// vstorea_half). Every element access is checked like OpLoad/OpStore; halves are converted exactly (loads)
// or with one correct rounding in the mode given (stores).
#include "interpreter/fp_rounding_mode.hpp"
#include "interpreter/ops_common.hpp"
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

}  // namespace clref::interpreter
