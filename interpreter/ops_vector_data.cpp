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
  // n elements (a 3-vector's register holds a fourth lane that vstore3 does not store).
  const uint32_t data = L.typeIdOfValue(S.operand(2));
  op.n = L.lanes(data) * S.laneBytes(data);
}

// The halves of vstore_half(n)(_r) / vstorea_half(n)(_r) and vload_half(n) / vloada_half(n): r = the result (loads),
// a = pointer, b = offset register (c = its bytes), n = lanes, imm = element stride per offset step (4 for aligned
// 3-vectors), align = the rounding mode (stores) or the result's bytes (loads); aux = the data lanes (stores).
uint8_t* halvesAt(const WorkItem& wi, const Op* op) {
  uint8_t* p = shadowHostAddress(wi, op->a);
  if (!p) return nullptr;
  const uint64_t offset = op->c == 8 ? rd<uint64_t>(wi, op->b) : rd<uint32_t>(wi, op->b);
  return p + offset * op->imm * 2;
}

// vstore_half: each lane's set rounded once to half in the instruction's mode (OpenCL C 3.0 §6.15.7
// [[vector-data-load-and-store-functions]]: "vstore_half uses the default rounding mode. The default rounding mode is
// round to nearest even"; the _rte/_rtz/_rtp/_rtn forms their own), with subnormal halves kept, as vstoreHalf
// converts.
const Op* shVstoreHalf(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  const auto& data = *static_cast<const LaneRef*>(op->aux);
  uint8_t* p = halvesAt(wi, op);
  if (const auto d = shadowOpenAddress(wi, op, op->a, op->b, op->c)) {
    shadowOpenAllocation(wi, op->a, *d);
    if (p) s.markUndetermined(p, 2 * op->n, 2, *d);
    return op + 1;
  }
  if (!p) return op + 1;
  s.noteWriter(p, 2 * op->n, op->inst);
  for (uint32_t i = 0; i < op->n; ++i) {
    uint8_t* out = p + 2 * i;
    const LaneValue v = shadowLaneOf(wi, data, i);
    if (v.undetermined) {
      s.markUndetermined(out, 2, 2,
                         shadowDecisionFor(wi, op, v, "vstore_half of a reinterpreted floating-point value"));
    } else if (v.set.isPoint()) {
      s.clear(out, 2);  // one value, one correctly rounded half
    } else {
      const numerics::ValueSet half = numerics::roundSet(v.set, numerics::Format::Half, numerics::Rounding(op->align),
                                                         false);
      // The half in memory is already one the set allows (a perturbed run rounded its perturbed source).
      writeShadowLane(wi, op, out, 2, numerics::Format::Half, half, shadowReadFloat(out, numerics::Format::Half),
                      false);
    }
  }
  return op + 1;
}

// vload_half: each result lane holds its half exactly (a half converts to float exactly), so it takes the half's set
// in memory; an entry of another size or format over the half (its bytes reinterpreted) is any value.
const Op* shVloadHalf(WorkItem& wi, const Op* op) {
  ShadowRun& s = *wi.shadow;
  uint8_t* result = wi.regs + op->r;
  auto d = shadowOpenAddress(wi, op, op->a, op->b, op->c);
  if (!d) d = shadowOpenAllocationAt(wi, op->a);
  if (d) {
    s.markUndetermined(result, op->align, 4, *d);
    return op + 1;
  }
  const uint8_t* p = halvesAt(wi, op);
  s.clear(result, op->align);  // the whole register: a 3-vector's fourth lane too
  if (!p) return op + 1;
  for (uint32_t i = 0; i < op->n; ++i) {
    ShadowEntry scratch;
    const ShadowEntry* e = s.lane(p + 2 * i, 2, scratch);
    if (!e) continue;
    uint8_t* out = result + 4 * i;
    if (e->undetermined) {
      s.markUndetermined(out, 4, 4, e->decision);
      continue;
    }
    const bool half = e->format == numerics::Format::Half && !e->reinterpreted;
    // The value is loaded, not computed: it is what memory holds, so --perturb leaves it.
    writeShadowLane(wi, op, out, 4, numerics::Format::Float, half ? e->set : numerics::ValueSet::all(),
                    shadowReadFloat(out, numerics::Format::Float), false);
  }
  return op + 1;
}

// Operands after (set, instruction): vload_half (offset, p), vstore_half (data, offset, p[, mode]).
void shadowVloadHalf(ShadowLowering& S) {
  Lowerer& L = S.L;
  const uint32_t n = L.lanes(S.inst.resultType);
  Op& op = L.emit(&shVloadHalf, S.inst);
  op.r = L.reg(S.inst.resultId);
  op.a = L.reg(S.operand(3));
  op.b = L.reg(S.operand(2));
  op.c = uint32_t(L.typeOfValue(S.operand(2)).size);
  op.n = n;
  // vloada_half3 steps like vloada_half4, as lowerVectorData.
  op.imm = VData(S.operand(1)) == VData::vloada_halfn && n == 3 ? 4 : n;
  op.align = S.resultBytes();
}

void shadowVstoreHalf(ShadowLowering& S) {
  Lowerer& L = S.L;
  const auto which = VData(S.operand(1));
  const uint32_t n = L.lanes(L.typeIdOfValue(S.operand(2)));
  const bool aligned = which == VData::vstorea_halfn || which == VData::vstorea_halfn_r;
  const bool explicitMode =
      which == VData::vstore_half_r || which == VData::vstore_halfn_r || which == VData::vstorea_halfn_r;
  auto data = std::make_shared<LaneRef>(S.laneRef(S.operand(2)));
  Op& op = L.emit(&shVstoreHalf, S.inst);
  op.a = L.reg(S.operand(4));
  op.b = L.reg(S.operand(3));
  op.c = uint32_t(L.typeOfValue(S.operand(3)).size);
  op.n = n;
  op.imm = aligned && n == 3 ? 4 : n;
  op.align = uint32_t(explicitMode ? toRounding(spv::FPRoundingMode(S.operand(5))) : numerics::Rounding::RTE);
  op.aux = data.get();
  L.k.auxObjects.push_back(std::move(data));
}

}  // namespace

void registerVectorData(DispatchTable& t) {
  t.openclStd({uint32_t(VData::vloadn)}, {shadowVloadn});
  t.openclStd({uint32_t(VData::vstoren)}, {shadowVstoren});
  t.openclStd({uint32_t(VData::vload_half), uint32_t(VData::vload_halfn), uint32_t(VData::vloada_halfn)},
              {shadowVloadHalf});
  t.openclStd({uint32_t(VData::vstore_half), uint32_t(VData::vstore_half_r), uint32_t(VData::vstore_halfn),
               uint32_t(VData::vstore_halfn_r), uint32_t(VData::vstorea_halfn), uint32_t(VData::vstorea_halfn_r)},
              {shadowVstoreHalf});
}

}  // namespace clref::interpreter
