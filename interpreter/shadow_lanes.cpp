// The shadow mode's rules on lanes (shadow_lanes.hpp).
#include "interpreter/shadow_lanes.hpp"

#include <cmath>
#include <cstring>

#include "interpreter/program.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {

const Op* shQuietOnLanes(LaneBatch& b, const Op* op) {
  if (!shadowQuiet(*b.items[0]->shadow)) return leaveLanes(b, op);
  return op + 1;
}

// shStore (shadow_support.cpp) in a quiet run: the stored value has no set to move and its address is exact, so the
// store only becomes the last writer of its bytes (shadowHostAddress: the store itself accessed them).
const Op* shStoreOnLanes(LaneBatch& b, const Op* op) {
  if (!shadowQuiet(*b.items[0]->shadow)) return leaveLanes(b, op);
  const WorkItem& first = *b.items[0];
  const bool p64 = first.launch->kernel->addressBits == 64;
  const uint8_t* ptrs = b.lane0(op->a);
  auto& notes = b.log->writerNotes;
  // Lanes storing consecutive elements of one allocation (most stores): one note, without a lane's lookup each.
  const uint64_t ptr0 = p64 ? rdLane<uint64_t>(ptrs, 0) : rdLane<uint32_t>(ptrs, 0);
  const uint64_t tag0 = ptr0 >> first.tagShift;
  if (tag0 != 0 && tag0 < first.allocCount && first.allocs[tag0].storage != spv::StorageClass::Function) {
    const uint32_t count = b.count;
    uint32_t apart = 0;
    for (uint32_t l = 1; l < count; ++l)
      apart |= (p64 ? rdLane<uint64_t>(ptrs, l) : rdLane<uint32_t>(ptrs, l)) != ptr0 + uint64_t(l) * op->n;
    if (!apart) {
      notes.push_back({first.allocs[tag0].base + (ptr0 & first.offsetMask), op->n * count, op->c});
      return op + 1;
    }
  }
  for (uint32_t l = 0; l < b.count; ++l) {
    const WorkItem& wi = *b.items[l];
    const uint64_t ptr = p64 ? rdLane<uint64_t>(ptrs, l) : rdLane<uint32_t>(ptrs, l);
    const uint64_t tag = ptr >> wi.tagShift, off = ptr & wi.offsetMask;
    if (tag == 0 || tag >= wi.allocCount) continue;
    const uint8_t* at = wi.allocs[tag].base + off;
    // Consecutive lanes storing consecutive elements (most stores) make one note.
    if (!notes.empty() && notes.back().inst == op->c && notes.back().at + notes.back().bytes == at)
      notes.back().bytes += op->n;
    else
      notes.push_back({at, op->n, op->c});
  }
  return op + 1;
}

// shFloat (shadow_support.cpp) in a quiet run: every operand is a single value, so the rule clears the result (no set)
// exactly where shadowExactOnPoints holds and the result is not subnormal, or for the instructions that are exact on
// single values (negation, conversion, fmod); everywhere else it gives the result a set.
namespace {
// Whether a binary32 or binary64 value's bits are those of a subnormal number (which a flush may change): its
// magnitude less one below the smallest normal's bits less one (0 wraps around to the largest value), without a
// branch, so that a loop over lanes vectorises.
template <class Bits, int MantissaBits> bool subnormalBits(const uint8_t* p) {
  Bits v;
  std::memcpy(&v, p, sizeof v);
  constexpr Bits kMagnitude = ~Bits(0) >> 1;
  return Bits((v & kMagnitude) - 1) < Bits((Bits(1) << MantissaBits) - 1);
}
template <class Bits, int MantissaBits>
bool anySubnormal(const LaneBatch& b, const FloatRule& r, uint32_t l, uint32_t result) {
  for (uint32_t i = 0; i < r.lanes; ++i) {
    for (const LaneRef& a : r.args)
      if (subnormalBits<Bits, MantissaBits>(b.lane0(a.reg + i * a.stride) + size_t(l) * 8)) return true;
    if (subnormalBits<Bits, MantissaBits>(b.lane0(result + i * r.bytes) + size_t(l) * 8)) return true;
  }
  return false;
}

bool normalFloat(float x) { return std::isnormal(x); }

// Sums a device may compute fused or unfused (OpenCL C 3.0 §6.15.2 [[math-functions]] mad: "either a correctly rounded
// fma or a multiply followed by an add, both correctly rounded"; FP_CONTRACT: an OpFMul feeding an OpFAdd may be
// fma(±a, b, ±c), and fma is correctly rounded, §7.4 [[relative-error-as-ulps]]): the rule's set is the hull of both
// results, a single value where they agree. Where x, y and z are normal or zeros, x·y is a zero or rounds to a normal
// float and the result is normal, no flush or sign of zero is in play; the lane has no set where the host's fmaf
// (correctly rounded) and float arithmetic give the lane's result for both.
bool fusedAgrees(float x, float y, float z, float reference) {
  auto normalOrZero = [](float v) { return normalFloat(v) || v == 0; };
  if (!normalOrZero(x) || !normalOrZero(y) || !normalOrZero(z) || !normalOrZero(reference)) return false;
  const double exact = double(x) * double(y);  // exact in binary64
  const float product = float(exact);         // rounded once
  if (exact != 0 && !normalFloat(product)) return false;
  // A zero result only where the product is exact: both forms are then the same exact sum, whose zero has the sign
  // IEEE 754 §6.3 [external] gives it.
  if (reference == 0 && double(product) != exact) return false;
  const float fused = std::fma(x, y, z), unfused = product + z;
  return std::memcmp(&fused, &reference, 4) == 0 && std::memcmp(&unfused, &reference, 4) == 0;
}

// Lane l of a sum with contractions: each contraction's fused form and the sum itself agree.
bool contractionsAgree(const LaneBatch& b, const FloatRule& r, uint32_t l, uint32_t result) {
  auto at = [&](const LaneRef& a) { return rdLane<float>(b.lane0(a.reg), l); };
  const float reference = rdLane<float>(b.lane0(result), l);
  for (const Contraction& c : r.contractions) {
    const float x = at(c.a), addend = at(r.args[c.addend]);
    if (!fusedAgrees(c.negA ? -x : x, at(c.b), c.negC ? -addend : addend, reference)) return false;
  }
  return true;
}
}  // namespace

const Op* shFloatOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = *b.items[0]->shadow;
  if (!shadowQuiet(s)) return leaveLanes(b, op);
  const auto& r = *static_cast<const FloatRule*>(op->aux);
  if (r.kind != FloatKind::Core && r.kind != FloatKind::Math) return op + 1;
  const size_t n = r.args.size();
  if (s.assumesFinite(r.format, r.preserving) || n > 4 ||
      (r.format != numerics::Format::Float && r.format != numerics::Format::Double))
    return leaveLanes(b, op);
  for (const LaneRef& a : r.args)
    if (a.kind != LaneKind::Float || a.format != r.format) return leaveLanes(b, op);
  // Fused or unfused sums (mad, fma, contractions; -cl-mad-enable makes a contraction any value, and without
  // FP_CONTRACT the rule takes its general path): scalar floats in OpenCL C's full profile without a flush or rounding
  // option, lane by lane.
  const bool fusedForm = r.kind == FloatKind::Math && (r.fn == numerics::MathFn::mad || r.fn == numerics::MathFn::fma);
  if (fusedForm || !r.contractions.empty()) {
    const numerics::VerdictOptions options = s.verdictFor(r.format);
    if ((!fusedForm && (!s.contraction || s.madEnable)) || s.shader || s.profile != numerics::Profile::Full ||
        r.format != numerics::Format::Float || r.lanes != 1 || options.flushToZero == true ||
        (options.rounding && *options.rounding != numerics::Rounding::RTE))
      return leaveLanes(b, op);
    for (const Contraction& c : r.contractions)
      if (c.a.kind != LaneKind::Float || c.b.kind != LaneKind::Float || c.a.format != r.format ||
          c.b.format != r.format)
        return leaveLanes(b, op);
    const uint8_t* result = b.lane0(op->r);
    for (uint32_t l = 0; l < b.count; ++l) {
      const bool agree = fusedForm ? fusedAgrees(rdLane<float>(b.lane0(r.args[0].reg), l),
                                                 rdLane<float>(b.lane0(r.args[1].reg), l),
                                                 rdLane<float>(b.lane0(r.args[2].reg), l), rdLane<float>(result, l))
                                   : contractionsAgree(b, r, l, op->r);
      if (!agree) return stopBefore(b, op, l);
    }
    return op + 1;
  }
  // What no operand value changes: a rule that is never exact on single values leaves at once. Normal operands stand
  // for every value but the subnormal ones, which each lane tests (with its result) from their bits.
  static constexpr double kNormal[4] = {1.0, 1.0, 1.0, 1.0};
  if (!shadowExactOnPoints(r, s, std::span<const double>(kNormal, n))) return leaveLanes(b, op);
  const bool single = r.format == numerics::Format::Float;
  if (single && r.lanes == 1 && n == 2) {  // float a op b: the usual case, its three arrays tested in one pass
    const uint8_t *x = b.lane0(r.args[0].reg), *y = b.lane0(r.args[1].reg), *z = b.lane0(op->r);
    const uint32_t count = b.count;
    auto tiny = [](const uint8_t* p, uint32_t l) { return subnormalBits<uint32_t, 23>(p + size_t(l) * 8); };
    uint32_t any = 0;
    for (uint32_t l = 0; l < count; ++l) any |= uint32_t(tiny(x, l)) | uint32_t(tiny(y, l)) | uint32_t(tiny(z, l));
    if (!any) return op + 1;
  }
  for (uint32_t l = 0; l < b.count; ++l)
    if (single ? anySubnormal<uint32_t, 23>(b, r, l, op->r) : anySubnormal<uint64_t, 52>(b, r, l, op->r))
      return stopBefore(b, op, l);
  return op + 1;
}

}  // namespace clref::interpreter
