// The shadow mode's rules on lanes and their set file (shadow_lanes.hpp).
#include "interpreter/shadow_lanes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "interpreter/program.hpp"
#include "interpreter/shadow_support.hpp"
#include "numerics/format.hpp"

namespace clref::interpreter {

// ---- The set file ------------------------------------------------------------------------------------------------

void LaneSets::begin(uint32_t lanes, size_t registerBytes) {
  stride = lanes;
  quads = uint32_t(registerBytes / 4);
  const size_t n = size_t(quads) * lanes;
  if (used || flags.size() != n) flags.assign(n, kNone);
  used = false;
  live = true;
}

namespace {
// The map's entries in [regs, regs + bytes) of one work-item, or false where one does not fit the file.
bool registerEntries(const ShadowRun& s, const uint8_t* regs, size_t bytes,
                     std::vector<std::pair<uintptr_t, ShadowEntry>>& found) {
  found.clear();
  if (!s.anyIn(regs, bytes)) return true;
  s.entriesIn(regs, bytes, found);
  const uintptr_t base = reinterpret_cast<uintptr_t>(regs);
  for (const auto& [start, e] : found)
    if (start < base || start + e.size > base + bytes || !LaneSets::holds(uint32_t(start - base), e.size))
      return false;
  return true;
}
thread_local std::vector<std::pair<uintptr_t, ShadowEntry>> foundEntries;
}  // namespace

bool LaneSets::fits(const ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes) {
  if (s.exact()) return true;
  for (uint32_t l = 0; l < count; ++l)
    if (!registerEntries(s, items[l]->regs, registerBytes, foundEntries)) return false;
  return true;
}

void LaneSets::gather(const ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes) {
  if (s.exact()) return;
  for (uint32_t l = 0; l < count; ++l) {
    registerEntries(s, items[l]->regs, registerBytes, foundEntries);
    const uintptr_t base = reinterpret_cast<uintptr_t>(items[l]->regs);
    for (const auto& [start, e] : foundEntries) put(l, uint32_t(start - base), e);
  }
}

void LaneSets::flush(ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes) {
  if (!live) return;
  for (uint32_t l = 0; l < count; ++l) {
    uint8_t* regs = items[l]->regs;
    s.clear(regs, registerBytes);
    if (!used) continue;
    for (uint32_t q = 0; q < quads; ++q)
      if (flag(q, l) == kStart) s.set(regs + size_t(q) * 4, entries[size_t(q) * stride + l]);
  }
  drop();
}

// ---- Reading lanes -------------------------------------------------------------------------------------------------

namespace {

const ShadowRun& runOf(const LaneBatch& b) { return *b.items[0]->shadow; }

// Lane l's bytes of register byte `reg`.
const uint8_t* laneBytes(const LaneBatch& b, uint32_t reg, uint32_t l) { return b.lane0(reg) + size_t(l) * 8; }

double readIntLane(const uint8_t* p, uint8_t bytes, bool isSigned) {
  uint64_t u = 0;
  std::memcpy(&u, p, bytes);
  if (isSigned && bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~uint64_t(0) << (8 * bytes);
  return isSigned ? double(int64_t(u)) : double(u);
}

// Lane l's component i of operand a (shadowLaneOf on lanes) into v, or false where the lanes cannot read it: a partly
// covered lane, or (`resolve`) an integer holding a float with a set, which the one-by-one rule gives a decision of its
// own. (Written field by field: a returned optional's bytes, written narrow and read wide, stalled the store buffer.)
bool operandOnLane(const LaneBatch& b, const LaneRef& a, uint32_t i, uint32_t l, bool resolve, LaneValue& v) {
  const uint32_t reg = a.reg + i * a.stride;
  const ShadowEntry* e = nullptr;
  const int k = b.sets->lane(b.first + l, reg, a.bytes, e);
  if (k < 0) return false;
  v.undetermined = false;
  v.decision = 0;
  if (k == 0) {
    const uint8_t* p = laneBytes(b, reg, l);
    const double x = a.kind != LaneKind::Float ? readIntLane(p, a.bytes, a.kind == LaneKind::SInt)
                                               : numerics::loadValue(p, a.format);
    v.set = numerics::ValueSet::point(x);
    return true;
  }
  if (e->undetermined) {
    v.set = numerics::ValueSet::all();
    v.undetermined = true;
    v.decision = e->decision;
    return true;
  }
  if (a.kind != LaneKind::Float) {
    if (resolve) return false;
    v.set = numerics::ValueSet::all();
    v.undetermined = true;
    v.decision = ~0u;
    return true;
  }
  v.set = e->format == a.format ? e->set : numerics::ValueSet::all();
  return true;
}

// Moves the entries of register bytes [src, src + n) to [dst + at, ...) within one lane's staging: (offset from src,
// entry) pairs; false where an entry reaches outside the range.
bool stageLane(const LaneSets& S, uint32_t lane, uint32_t src, uint32_t n,
               std::vector<std::pair<uint32_t, ShadowEntry>>& staged) {
  if (!S.any(lane, src, n)) return true;
  if (!S.clearable(lane, src, n)) return false;  // an entry cut by the range
  for (uint32_t q = src / 4, end = (src + n + 3) / 4; q < end; ++q)
    if (S.flag(q, lane) == LaneSets::kStart) staged.emplace_back(q * 4 - src, S.entries[size_t(q) * S.stride + lane]);
  return true;
}

// Whether staged entries fit at register byte dst.
bool fitsAt(const std::vector<std::pair<uint32_t, ShadowEntry>>& staged, size_t from, uint32_t dst) {
  for (size_t k = from; k < staged.size(); ++k)
    if (!LaneSets::holds(dst + staged[k].first, staged[k].second.size)) return false;
  return true;
}

thread_local std::vector<std::pair<uint32_t, ShadowEntry>> stagedEntries;
thread_local std::vector<size_t> stagedFrom;

// Register copies (dst, src, bytes) in lane l, all read before any is written (ShadowRun's staging), each destination
// cleared before its entries are placed, or (wholeBytes) register bytes [whole, whole + wholeBytes) cleared first;
// false, with nothing changed, where an entry would not fit the file.
template <class Copies>
bool copiesOnLane(LaneSets& S, uint32_t lane, const Copies& copies, uint32_t whole = 0, uint32_t wholeBytes = 0) {
  stagedEntries.clear();
  stagedFrom.clear();
  for (const auto& [dst, src, n] : copies) {
    stagedFrom.push_back(stagedEntries.size());
    if (!stageLane(S, lane, src, n, stagedEntries) || !fitsAt(stagedEntries, stagedFrom.back(), dst)) return false;
    if (!wholeBytes && !S.clearable(lane, dst, n)) return false;
  }
  if (wholeBytes) {
    if (!S.clearable(lane, whole, wholeBytes)) return false;
    S.clear(lane, whole, wholeBytes);
  } else {
    for (const auto& [dst, src, n] : copies) S.clear(lane, dst, n);
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    const size_t to = i + 1 < stagedFrom.size() ? stagedFrom[i + 1] : stagedEntries.size();
    for (size_t k = stagedFrom[i]; k < to; ++k)
      S.put(lane, std::get<0>(copies[i]) + stagedEntries[k].first, stagedEntries[k].second);
  }
  return true;
}

// A result of n bytes at register byte r holds exactly clref's value in lane l: false where that cuts an entry.
inline bool exactResult(LaneSets& S, uint32_t lane, uint32_t r, uint32_t n) {
  if (!S.used) return true;
  if (n <= 4 && r % 4 + n <= 4) {  // one quad (a float, an int, a bool): nothing there, or one entry within it
    uint8_t& f = S.flags[size_t(r / 4) * S.stride + lane];
    if (f == LaneSets::kNone) return true;
    if (f == LaneSets::kStart && r % 4 == 0 && n == 4 && S.entries[size_t(r / 4) * S.stride + lane].size == 4) {
      f = LaneSets::kNone;
      return true;
    }
  }
  if (!S.clearable(lane, r, n)) return false;
  S.clear(lane, r, n);
  return true;
}

}  // namespace

// ---- The rules -----------------------------------------------------------------------------------------------------

// shLoad: the loaded memory's entries move into the result (its lanes of 4 and 8 bytes); an address that depends on a
// value with a set stops the lanes (a decision).
const Op* shLoadOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  if (s.exact() && !S.used) return op + 1;
  const uint32_t pointerBytes = b.items[0]->launch->kernel->addressBits / 8;
  // Each lane's address once: a global or local allocation is the same for every lane of the batch (one work-group).
  thread_local std::vector<const uint8_t*> addresses;
  addresses.resize(b.count);
  {
    const WorkItem& first = *b.items[0];
    const uint8_t* ptrs = b.lane0(op->a);
    const bool p64 = pointerBytes == 8;
    uint64_t sharedTag = UINT64_MAX;
    const uint8_t* sharedBase = nullptr;
    for (uint32_t l = 0; l < b.count; ++l) {
      const uint64_t ptr = p64 ? rdLane<uint64_t>(ptrs, l) : rdLane<uint32_t>(ptrs, l);
      const uint64_t tag = ptr >> first.tagShift, off = ptr & first.offsetMask;
      if (tag == sharedTag) {
        addresses[l] = sharedBase + off;
        continue;
      }
      const WorkItem& wi = *b.items[l];
      if (tag == 0 || tag >= wi.allocCount) {
        addresses[l] = nullptr;
        continue;
      }
      const Allocation& A = wi.allocs[tag];
      if (A.storage == spv::StorageClass::CrossWorkgroup || A.storage == spv::StorageClass::Workgroup) {
        sharedTag = tag;
        sharedBase = A.base;
      }
      addresses[l] = A.base + off;
    }
  }
  // Memory without entries where every lane reads (a row read by all, consecutive elements): one look for the batch.
  bool memoryExact = s.exact();
  if (!memoryExact) {
    const uint8_t *lo = addresses[0], *hi = addresses[0];
    bool all = lo != nullptr;
    for (uint32_t l = 1; l < b.count && all; ++l) {
      const uint8_t* p = addresses[l];
      all = p != nullptr;
      lo = std::min(lo, p);
      hi = std::max(hi, p);
    }
    memoryExact = all && uint64_t(hi - lo) <= uint64_t(b.count) * op->n && !s.anyIn(lo, uint64_t(hi - lo) + op->n);
  }
  // Exact memory into a result no lane holds a set in, from addresses no lane's set decides: nothing to move.
  if (memoryExact && S.noneIn(b.first, b.count, op->r, op->n) &&
      (op->imm == kExactAddress || S.noneIn(b.first, b.count, uint32_t(op->imm - 1), pointerBytes)))
    return op + 1;
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    if (op->imm != kExactAddress && S.any(lane, uint32_t(op->imm - 1), pointerBytes)) return stopBefore(b, op, l);
    const uint8_t* p = addresses[l];
    if (!p) continue;
    if (memoryExact || !s.anyIn(p, op->n)) {
      if (!exactResult(S, lane, op->r, op->n)) return stopBefore(b, op, l);
      continue;
    }
    foundEntries.clear();
    s.entriesIn(p, op->n, foundEntries);
    const uintptr_t base = reinterpret_cast<uintptr_t>(p);
    for (const auto& [start, e] : foundEntries)
      if (start < base || start + e.size > base + op->n || !LaneSets::holds(op->r + uint32_t(start - base), e.size))
        return stopBefore(b, op, l);
    if (!S.clearable(lane, op->r, op->n)) return stopBefore(b, op, l);
    S.clear(lane, op->r, op->n);
    for (const auto& [start, e] : foundEntries) S.put(lane, op->r + uint32_t(start - base), e);
  }
  return op + 1;
}

// shStore: each lane's store noted as its bytes' last writer when the span stands. A value's entries go into memory
// that holds none; memory with sets to clear or an address that depends on a set stop the lanes before that lane.
const Op* shStoreOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  const LaneSets& S = *b.sets;
  const WorkItem& first = *b.items[0];
  const bool p64 = first.launch->kernel->addressBits == 64;
  const uint8_t* ptrs = b.lane0(op->a);
  auto& notes = b.log->writerNotes;
  const bool registersExact = !S.used, memoryExact = s.exact();  // (stores below may give memory entries)
  // Lanes storing consecutive elements of one allocation (most stores): one note, without a lane's lookup each.
  const uint64_t ptr0 = p64 ? rdLane<uint64_t>(ptrs, 0) : rdLane<uint32_t>(ptrs, 0);
  const uint64_t tag0 = ptr0 >> first.tagShift;
  if (registersExact && tag0 != 0 && tag0 < first.allocCount &&
      first.allocs[tag0].storage != spv::StorageClass::Function) {
    const uint32_t count = b.count;
    uint32_t apart = 0;
    for (uint32_t l = 1; l < count; ++l)
      apart |= (p64 ? rdLane<uint64_t>(ptrs, l) : rdLane<uint32_t>(ptrs, l)) != ptr0 + uint64_t(l) * op->n;
    const uint8_t* at = first.allocs[tag0].base + (ptr0 & first.offsetMask);
    if (!apart && (memoryExact || !s.anyIn(at, uint64_t(op->n) * count))) {
      notes.push_back({at, op->n * count, op->c});
      return op + 1;
    }
  }
  const uint32_t pointerBytes = p64 ? 8 : 4;
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    const bool valueSets = !registersExact && S.any(lane, op->b, op->n);
    if (!registersExact && op->imm != kExactAddress && S.any(lane, uint32_t(op->imm - 1), pointerBytes))
      return stopBefore(b, op, l);
    const WorkItem& wi = *b.items[l];
    const uint64_t ptr = p64 ? rdLane<uint64_t>(ptrs, l) : rdLane<uint32_t>(ptrs, l);
    const uint64_t tag = ptr >> wi.tagShift, off = ptr & wi.offsetMask;
    if (tag == 0 || tag >= wi.allocCount) continue;
    uint8_t* at = wi.allocs[tag].base + off;
    if (!s.exact() && s.anyIn(at, op->n)) return stopBefore(b, op, l);
    if (valueSets) {
      // The value's entries into memory that held none (LaneSets::storedSets, to clear if the span is undone).
      stagedEntries.clear();
      if (!stageLane(S, lane, op->b, op->n, stagedEntries)) return stopBefore(b, op, l);
      for (const auto& [offset, e] : stagedEntries) wi.shadow->set(at + offset, e);
      b.sets->storedSets.emplace_back(at, op->n);
    }
    // Consecutive lanes storing consecutive elements (most stores) make one note.
    if (!notes.empty() && notes.back().inst == op->c && notes.back().at + notes.back().bytes == at)
      notes.back().bytes += op->n;
    else
      notes.push_back({at, op->n, op->c});
  }
  return op + 1;
}

// shBranch: a condition with an entry makes a decision (the lanes stop before the lane).
const Op* shBranchOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  const LaneSets& S = *b.sets;
  if (S.used)
    for (uint32_t l = 0; l < b.count; ++l)
      if (S.any(b.first + l, op->a, op->n)) return stopBefore(b, op, l);
  return op + 1;
}

// shCompare: exact where the operands' sets fix the outcome; a decision (the lanes stop) where they do not.
const Op* shCompareOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  if (!S.used) return op + 1;
  const auto& r = *static_cast<const CompareRule*>(op->aux);
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    for (uint32_t i = 0; i < r.lanes; ++i) {
      bool points = true;
      std::array<numerics::ValueSet, 2> v;
      for (size_t k = 0; k < r.args.size() && k < 2; ++k) {
        LaneValue x;
        if (!operandOnLane(b, r.args[k], i, l, true, x) || x.undetermined) return stopBefore(b, op, l);
        v[k] = x.set;
        points = points && x.set.isPoint();
      }
      if (!points && shadowCompareOutcomes(r.opcode, v[0], r.args.size() > 1 ? v[1] : v[0]) == 3)
        return stopBefore(b, op, l);
    }
    if (!exactResult(S, lane, op->r, r.lanes * r.bytes)) return stopBefore(b, op, l);
  }
  return op + 1;
}

// shSelect: the chosen operand's entries move into the result; a condition with an entry stops the lanes.
const Op* shSelectOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  if (!S.used) return op + 1;
  const auto& r = *static_cast<const SelectRule*>(op->aux);
  std::array<std::tuple<uint32_t, uint32_t, uint32_t>, 16> copies;
  if (r.lanes > copies.size()) return leaveLanes(b, op);
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    for (uint32_t i = 0; i < r.lanes; ++i) {
      const uint32_t ci = r.condIsVector ? i : 0;
      const uint32_t condReg = r.cond.reg + ci * r.cond.stride;
      if (S.any(lane, condReg, r.cond.bytes)) return stopBefore(b, op, l);
      uint64_t c = 0;
      std::memcpy(&c, laneBytes(b, condReg, l), r.cond.bytes);
      const bool first = r.msb ? (c >> (8 * r.cond.bytes - 1)) & 1 : c != 0;
      copies[i] = {op->r + i * r.a.bytes, first ? r.a.reg + i * r.a.stride : r.b.reg + i * r.b.stride, r.a.bytes};
    }
    if (!copiesOnLane(S, lane, std::span(copies.data(), r.lanes))) return stopBefore(b, op, l);
  }
  return op + 1;
}

// shCopies: (destination offset in the result, source register, bytes) triples, the sources read before the result
// is written.
const Op* shCopiesOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  if (!S.used) return op + 1;
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  std::array<std::tuple<uint32_t, uint32_t, uint32_t>, 16> copies;
  const size_t n = t.size() / 3;
  if (n > copies.size()) return leaveLanes(b, op);
  for (size_t i = 0; i < n; ++i) copies[i] = {op->r + t[3 * i], t[3 * i + 1], t[3 * i + 2]};
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    bool any = false;
    for (size_t i = 0; i < n && !any; ++i) any = S.any(lane, std::get<1>(copies[i]), std::get<2>(copies[i]));
    if (!any) {
      if (!exactResult(S, lane, op->r, op->n)) return stopBefore(b, op, l);
      continue;
    }
    // The sources are staged, then the whole result cleared (bytes no triple writes hold exactly clref's value).
    if (!copiesOnLane(S, lane, std::span(copies.data(), n), op->r, op->n)) return stopBefore(b, op, l);
  }
  return op + 1;
}

// The rules that give a result exactly clref's value where no operand has an entry, and otherwise decide or make
// reinterpretations (shGeneric, shExtractDynamic, shInsertDynamic): the lanes stop before a lane with an entry.
namespace {
template <class Operands>
const Op* exactUnlessEntries(LaneBatch& b, const Op* op, uint32_t resultBytes, Operands each) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  if (!S.used) return op + 1;
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    bool any = false;
    each([&](uint32_t reg, uint32_t bytes) { any = any || S.any(lane, reg, bytes); });
    if (any || !exactResult(S, lane, op->r, resultBytes)) return stopBefore(b, op, l);
  }
  return op + 1;
}
}  // namespace

const Op* shGenericOnLanes(LaneBatch& b, const Op* op) {
  const auto& vals = *static_cast<const std::vector<uint32_t>*>(op->aux);
  return exactUnlessEntries(b, op, op->n, [&](auto&& f) {
    for (size_t i = 0; i + 1 < vals.size(); i += 2) f(vals[i], vals[i + 1]);
  });
}
const Op* shExtractDynamicOnLanes(LaneBatch& b, const Op* op) {
  return exactUnlessEntries(b, op, op->n, [&](auto&& f) {
    f(op->a, op->n * uint32_t(op->imm));
    f(op->b, op->c);
  });
}
const Op* shInsertDynamicOnLanes(LaneBatch& b, const Op* op) {
  return exactUnlessEntries(b, op, op->n * uint32_t(op->imm), [&](auto&& f) {
    f(op->a, op->n * uint32_t(op->imm));
    f(op->b, op->n);
    f(op->c, op->align);
  });
}

// ---- Floating-point rules -------------------------------------------------------------------------------------------

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
[[gnu::always_inline]] inline bool fusedAgrees(float x, float y, float z, float reference) {
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
[[gnu::always_inline]] inline bool contractionsAgree(const LaneBatch& b, const FloatRule& r, uint32_t l,
                                                     uint32_t result) {
  auto at = [&](const LaneRef& a) { return rdLane<float>(b.lane0(a.reg), l); };
  const float reference = rdLane<float>(b.lane0(result), l);
  for (const Contraction& c : r.contractions) {
    const float x = at(c.a), addend = at(r.args[c.addend]);
    if (!fusedAgrees(c.negA ? -x : x, at(c.b), c.negC ? -addend : addend, reference)) return false;
  }
  return true;
}

// What the rule gives one component of lane l (shadowFloatSet's, with writeLane's widening): false where the lanes
// cannot go on (an operand they cannot read, a result the file cannot hold).
struct Outcome {
  bool undetermined = false;
  bool hasSet = false;
  uint32_t decision = 0;
  numerics::ValueSet set;
};
bool componentOnLane(const LaneBatch& b, const Op* op, const FloatRule& r, const numerics::VerdictOptions& options,
                     uint32_t l, uint32_t i, Outcome& o) {
  const ShadowRun& s = runOf(b);
  const uint32_t out = op->r + i * r.bytes;
  if (!b.sets->clearable(b.first + l, out, r.bytes)) return false;
  std::array<LaneValue, 4> args;
  for (size_t k = 0; k < r.args.size(); ++k) {
    LaneValue& v = args[k];
    if (!operandOnLane(b, r.args[k], i, l, true, v)) return false;
    if (v.undetermined) {
      o.undetermined = true;
      o.decision = v.decision;
      return LaneSets::holds(out, r.bytes);
    }
  }
  std::array<LaneValue, 4> products;
  size_t read = 0;
  if (!r.contractions.empty() && (s.contraction || s.madEnable))
    for (const Contraction& c : r.contractions)
      for (const LaneRef* x : {&c.a, &c.b})
        if (!operandOnLane(b, *x, i, l, false, products[read++])) return false;
  const double reference = numerics::loadValue(laneBytes(b, out, l), r.format);
  if (!shadowFloatSet(r, s, options, std::span<const LaneValue>(args.data(), r.args.size()),
                      std::span<const LaneValue>(products.data(), read), reference, o.set))
    return true;
  // writeLane's: clref's own value is always allowed; a single value is no entry.
  if (!o.set.contains(reference)) o.set = hull(o.set, numerics::ValueSet::point(reference));
  if (o.set.isPoint()) return true;
  o.hasSet = true;
  return LaneSets::holds(out, r.bytes);
}
void writeComponent(LaneSets& S, const Op* op, const FloatRule& r, uint32_t lane, uint32_t i, const Outcome& o) {
  const uint32_t out = op->r + i * r.bytes;
  S.clear(lane, out, r.bytes);
  ShadowEntry e;
  e.size = r.bytes;
  if (o.undetermined) {
    // markUndetermined's entry.
    e.set = numerics::ValueSet::all();
    e.undetermined = true;
    e.decision = o.decision;
    S.put(lane, out, e);
  } else if (o.hasSet) {
    S.putSet(lane, out, r.bytes, o.set, r.format, op->inst);
  }
}

// The rule of lane l in full (shFloat's): every component computed before any is written; false, with nothing
// written, where the lanes cannot go on.
bool floatRuleOnLane(LaneBatch& b, const Op* op, const FloatRule& r, const numerics::VerdictOptions& options,
                     uint32_t l) {
  const uint32_t lane = b.first + l;
  if (r.args.size() > 4 || r.contractions.size() > 2) return false;
  if (r.lanes == 1) {  // a scalar: no array of outcomes
    Outcome o;
    if (!componentOnLane(b, op, r, options, l, 0, o)) return false;
    writeComponent(*b.sets, op, r, lane, 0, o);
    return true;
  }
  constexpr uint32_t kMaxComponents = 16;
  if (r.lanes > kMaxComponents) return false;
  std::array<Outcome, kMaxComponents> outcomes;
  for (uint32_t i = 0; i < r.lanes; ++i)
    if (!componentOnLane(b, op, r, options, l, i, outcomes[i])) return false;
  for (uint32_t i = 0; i < r.lanes; ++i) writeComponent(*b.sets, op, r, lane, i, outcomes[i]);
  return true;
}

// A scalar rule whose sets the numerics' fast paths decide, asked directly (shadowFloatSet's own path through
// allowedSetOf, where no finite-math or shader freedom applies and the profile is not Vulkan's): for every lane whose
// operands are floats of the rule's format with sets or single values. `contracted`: the sum's one contraction applies
// (FP_CONTRACT, no -cl-mad-enable).
struct DirectRule {
  bool usable = false;
  bool contracted = false;
  std::optional<numerics::MathFn> fn;
  numerics::detail::ContractedSumRules sum;  // a contracted sum's rows, looked up once
};
DirectRule directRuleOf(const FloatRule& r, const ShadowRun& s, const numerics::VerdictOptions& options) {
  DirectRule d;
  if (r.lanes != 1 || (r.kind != FloatKind::Core && r.kind != FloatKind::Math) || r.args.size() > 4 ||
      (r.format != numerics::Format::Float && r.format != numerics::Format::Double) ||
      s.assumesFinite(r.format, r.preserving) || s.profile == numerics::Profile::Vulkan)
    return d;
  for (const LaneRef& a : r.args)
    if (a.kind != LaneKind::Float || a.format != r.format) return d;
  if (!r.contractions.empty() && (s.contraction || s.madEnable)) {
    if (r.contractions.size() != 1 || s.madEnable || s.shader) return d;
    const Contraction& c = r.contractions[0];
    if (c.a.kind != LaneKind::Float || c.b.kind != LaneKind::Float || c.a.format != r.format ||
        c.b.format != r.format)
      return d;
    d.contracted = true;
    if (r.kind == FloatKind::Core) d.sum = numerics::detail::contractedSumRules(r.core, r.format, s.profile, options);
  }
  d.usable = true;
  if (r.kind == FloatKind::Math) d.fn = r.fn;
  return d;
}

// What a lane form reads of the file and the lane registers, in locals: the loops' stores through other pointers would
// have them read again from the batch at every operand.
struct LaneSetView {
  const uint8_t* flags;
  const ShadowEntry* entries;
  size_t stride;
  bool used;
  const uint8_t* regs;
  size_t regStride;
  uint32_t first;
  explicit LaneSetView(const LaneBatch& b)
      : flags(b.sets->flags.data()), entries(b.sets->entries.data()), stride(b.sets->stride), used(b.sets->used),
        regs(b.regs), regStride(b.stride), first(b.first) {}
  // Lane l's bytes of register byte reg (LaneBatch::lane0).
  const uint8_t* bytes(uint32_t reg, uint32_t l) const {
    return regs + (size_t(reg >> 3) * regStride + l) * 8 + (reg & 7);
  }
};

// A float operand's set in lane l (LaneSets::lane's reading of it), or false where it has none of its own
// (undetermined, another format, part of an entry): the rule in full decides.
inline bool floatSetOnLane(const LaneSetView& v, const LaneRef& a, uint32_t l, numerics::ValueSet& set) {
  if (v.used) {
    const size_t at = size_t(a.reg >> 2) * v.stride + v.first + l;
    const uint8_t f = v.flags[at];
    if (f == LaneSets::kStart) {
      const ShadowEntry& e = v.entries[at];
      if (!LaneSets::holds(a.reg, a.bytes) || e.size != a.bytes || e.undetermined || e.format != a.format)
        return false;
      set = e.set;
      return true;
    }
    if (f != LaneSets::kNone || (a.bytes > 4 && v.flags[at + v.stride] != LaneSets::kNone)) return false;
  }
  set = numerics::ValueSet::point(numerics::loadValue(v.bytes(a.reg, l), a.format));
  return true;
}

// Lane l's result of a rule directRuleOf made usable, whose fast path gave `set`, written as writeLane writes it:
// clref's own value (`reference`) is always allowed; a single value is no entry. False, with nothing written, where
// the file cannot take it (the rule in full then does).
[[gnu::always_inline]] inline bool writeDirectSet(const LaneBatch& b, const Op* op, const FloatRule& r, uint32_t l,
                                                  numerics::ValueSet set, double reference) {
  if (!set.contains(reference)) set = hull(set, numerics::ValueSet::point(reference));
  LaneSets& S = *b.sets;
  const uint32_t lane = b.first + l;
  if (set.isPoint()) return exactResult(S, lane, op->r, r.bytes);
  if (r.bytes == 4 && op->r % 4 == 0) {  // a float's quad: nothing there, or an entry of its own (clearable's test)
    const size_t at = size_t(op->r / 4) * S.stride + lane;
    const uint8_t f = S.flags[at];
    if (f == LaneSets::kNone || (f == LaneSets::kStart && S.entries[at].size == 4)) {
      S.putSet(lane, op->r, 4, set, r.format, op->inst);
      return true;
    }
  }
  if (!LaneSets::holds(op->r, r.bytes) || !S.clearable(lane, op->r, r.bytes)) return false;
  S.clear(lane, op->r, r.bytes);
  S.putSet(lane, op->r, r.bytes, set, r.format, op->inst);
  return true;
}

// Lane l of a rule directRuleOf made usable: shadowFloatSet's answer from the fast path allowedSetOf asks first,
// written as writeLane writes it; false, with nothing written, where that path does not decide (the rule in full then
// does).
bool directRuleOnLane(const LaneBatch& b, const LaneSetView& v, const Op* op, const FloatRule& r, const DirectRule& d,
                      const ShadowRun& s, const numerics::VerdictOptions& options, uint32_t l) {
  const size_t n = r.args.size();
  std::array<numerics::ValueSet, 4> x;
  bool allPoints = true;
  for (size_t k = 0; k < n; ++k) {
    if (!floatSetOnLane(v, r.args[k], l, x[k])) return false;
    allPoints = allPoints && x[k].isPoint();
  }
  const double reference = numerics::loadValue(v.bytes(op->r, l), r.format);
  numerics::ValueSet set;
  if (allPoints) {
    if (d.contracted) return false;
    std::array<double, 4> points;
    for (size_t k = 0; k < n; ++k) points[k] = x[k].hasNumbers() ? x[k].lo : NAN;
    const std::span<const double> values(points.data(), n);
    const double tiny = r.format == numerics::Format::Float ? 0x1p-126 : 0x1p-1022;
    if (shadowExactOnPoints(r, s, values) && !(reference != 0 && std::fabs(reference) < tiny))
      return exactResult(*b.sets, b.first + l, op->r, r.bytes);
    const auto fast = numerics::detail::fastPointSet(d.fn, r.core, values, r.format, s.profile, options);
    if (!fast) return false;
    set = *fast;
  } else {
    std::array<numerics::ValueSet, 3> fused;
    if (d.contracted) {
      const Contraction& c = r.contractions[0];
      if (!floatSetOnLane(v, c.a, l, fused[0]) || !floatSetOnLane(v, c.b, l, fused[1])) return false;
      fused[2] = x[c.addend];
      if (c.negA) fused[0] = numerics::ValueSet{-fused[0].hi, -fused[0].lo, fused[0].nan};
      if (c.negC) fused[2] = numerics::ValueSet{-fused[2].hi, -fused[2].lo, fused[2].nan};
      if (fused[0].isPoint() && fused[1].isPoint() && fused[2].isPoint()) return false;  // fastPointSet's, in full
    }
    if (d.sum.usable) {
      // The sum's and the fma's fast range sets, hulled, in one step (the rows asked once per instruction).
      if (!numerics::detail::fastContractedSum(d.sum, x[0], x[1], fused[0], fused[1], fused[2], set)) return false;
    } else {
      const std::span<const numerics::ValueSet> sets(x.data(), n);
      const auto fast = numerics::detail::fastRangeSet(d.fn, r.core, sets, r.format, s.profile, options);
      if (!fast) return false;
      set = *fast;
      if (d.contracted) {
        const auto fma = numerics::detail::fastRangeSet(numerics::MathFn::fma, numerics::CoreOp::None, fused,
                                                        r.format, s.profile, options);
        if (!fma) return false;
        set = hull(set, *fma);
      }
    }
  }
  return writeDirectSet(b, op, r, l, set, reference);
}

// directRuleOnLane's sets for a chunk of up to kLanes lanes of a batch from `from`, asked of the numerics' fast paths
// together (fastRangeSets for the lanes whose operands hold sets, fastPointSets for those of single values), for
// a rule directRuleOf made usable with no contraction: a lane's bit is set where directRuleOnLane would take that set.
struct DirectChunk {
  static constexpr uint32_t kLanes = 64;
  uint32_t from = 0, to = 0;  // the lanes looked at
  uint64_t decided = 0;       // bit l - from: lane l's set is in lo, hi
  std::array<double, kLanes> lo, hi;

  bool has(uint32_t l) const { return (decided >> (l - from)) & 1; }
};

// The chunk from `from`: lanes whose operands hold a set (exactOperands() is false for them) by `range`, lanes of
// single values by `point` (either rule may be unusable; a usable point rule has no exact test before it: the
// caller's choice).
void directChunk(const LaneSetView& v, const FloatRule& r, const numerics::detail::RangeRule& range,
                 const numerics::detail::PointRule& point, uint32_t from, uint32_t count, DirectChunk& c) {
  constexpr uint32_t kLanes = DirectChunk::kLanes;
  c.from = from;
  c.to = std::min(count, from + kLanes);
  c.decided = 0;
  const uint32_t n = uint32_t(r.args.size());
  std::array<std::array<double, kLanes>, 4> lo, hi, points;
  std::array<uint8_t, kLanes> rangeLanes, pointLanes;
  uint32_t m = 0, p = 0;
  // The operands' rows of flags, entries and lane registers, looked up once: floats of 4 bytes, whose lanes
  // floatSetOnLane reads as a flag and an entry, or the register (other operands: floatSetOnLane itself).
  struct Row {
    const uint8_t* flags;
    const ShadowEntry* entries;
    const uint8_t* value;  // lane l's at value + 8·l
  };
  std::array<Row, 4> rows{};
  bool floats = n <= 4;
  for (uint32_t a = 0; a < n && floats; ++a) {
    const LaneRef& x = r.args[a];
    floats = x.bytes == 4 && x.format == numerics::Format::Float && LaneSets::holds(x.reg, x.bytes);
    const size_t at = size_t(x.reg >> 2) * v.stride + v.first;
    rows[a] = {v.used ? v.flags + at : nullptr, v.used ? v.entries + at : nullptr, v.bytes(x.reg, 0)};
  }
  for (uint32_t l = from; l < c.to; ++l) {
    // directRuleOnLane's operands (lanes whose operands it cannot read, and NaNs, take it, then the rule in full).
    bool allPoints = true, readable = true;
    for (uint32_t a = 0; a < n; ++a) {
      numerics::ValueSet x;
      if (floats) {
        const Row& row = rows[a];
        const uint8_t f = row.flags ? row.flags[l] : LaneSets::kNone;
        if (f == LaneSets::kStart) {
          const ShadowEntry& e = row.entries[l];
          if (e.size != 4 || e.undetermined || e.format != numerics::Format::Float) readable = false;
          x = e.set;
        } else if (f == LaneSets::kNone) {
          float value;
          std::memcpy(&value, row.value + size_t(l) * 8, 4);
          x = {value, value, false};
        } else {
          readable = false;
        }
        readable = readable && x.lo == x.lo && !x.nan;  // (a NaN value: ValueSet::point's NaN)
      } else {
        readable = floatSetOnLane(v, r.args[a], l, x) && !x.nan;
      }
      if (!readable) break;
      allPoints = allPoints && x.isPoint();
      lo[a][m] = x.lo;
      hi[a][m] = x.hi;
      points[a][p] = x.lo;
    }
    if (!readable) continue;
    if (!allPoints && range.usable()) rangeLanes[m++] = uint8_t(l - from);
    else if (allPoints && point.usable()) pointLanes[p++] = uint8_t(l - from);
  }
  std::array<double, kLanes> setLo, setHi;
  std::array<uint8_t, kLanes> decided;
  auto take = [&](const std::array<uint8_t, kLanes>& lanes, uint32_t k) {
    for (uint32_t i = 0; i < k; ++i)
      if (decided[i]) {
        c.decided |= uint64_t(1) << lanes[i];
        c.lo[lanes[i]] = setLo[i];
        c.hi[lanes[i]] = setHi[i];
      }
  };
  if (m) {
    const double* los[4] = {lo[0].data(), lo[1].data(), lo[2].data(), lo[3].data()};
    const double* his[4] = {hi[0].data(), hi[1].data(), hi[2].data(), hi[3].data()};
    numerics::detail::fastRangeSets(range, m, los, his, setLo.data(), setHi.data(), decided.data());
    take(rangeLanes, m);
  }
  if (p) {
    const double* args[4] = {points[0].data(), points[1].data(), points[2].data(), points[3].data()};
    numerics::detail::fastPointSets(point, p, args, setLo.data(), setHi.data(), decided.data());
    take(pointLanes, p);
  }
}

// writeDirectSet over the decided lanes of chunk c from lane l on, for a float result of a quad of its own (4 bytes
// at a register byte divisible by 4), whose quad holds nothing or an entry of its own in each: a lane's set with
// clref's value no entry, any other the entry written in place. A loop of its own keeps the chunk's and the file's
// pointers in registers (in the lanes' loop each lane read them again). Returns the first lane it did not write: the
// chunk's end, a lane it did not decide, or one whose quad holds part of a wider entry (writeDirectSet decides those).
uint32_t writeDirectRun(const LaneBatch& b, const Op* op, const DirectChunk& c, uint32_t l) {
  LaneSets& S = *b.sets;
  if (S.entries.size() < S.flags.size()) S.entries.resize(S.flags.size());  // (slot() makes them at the first set)
  const size_t row = size_t(op->r / 4) * S.stride + b.first;
  uint8_t* const flags = S.flags.data() + row;  // lane l's at flags[l], entries[l]
  ShadowEntry* const entries = S.entries.data() + row;
  const uint8_t* const value = LaneSetView(b).bytes(op->r, 0);  // lane l's at value + 8·l
  const bool used = S.used;
  const uint32_t producer = op->inst;
  bool wrote = false;
  for (; l < c.to && c.has(l); ++l) {
    const uint8_t f = used ? flags[l] : LaneSets::kNone;
    if (f != LaneSets::kNone && !(f == LaneSets::kStart && entries[l].size == 4)) break;
    float reference;
    std::memcpy(&reference, value + size_t(l) * 8, 4);
    numerics::ValueSet set{c.lo[l - c.from], c.hi[l - c.from], false};
    if (!set.contains(reference)) set = hull(set, numerics::ValueSet::point(reference));
    if (set.isPoint()) {
      flags[l] = LaneSets::kNone;
      continue;
    }
    flags[l] = LaneSets::kStart;
    LaneSets::fillSet(entries[l], set, 4, numerics::Format::Float, producer);
    wrote = true;
  }
  if (wrote) S.used = true;
  return l;
}

}  // namespace

// shFloat: correctly rounded additions, subtractions and multiplications of normal single values, whose results no
// rounding mode or flush changes, are exact, tested lane by lane from their bits (a whole batch in one pass where no
// register has a set); every other lane takes the rule in full.
const Op* shFloatOnLanes(LaneBatch& b, const Op* op) {
  const ShadowRun& s = runOf(b);
  if (!shadowLaneable(s)) return leaveLanes(b, op);
  LaneSets& S = *b.sets;
  const auto& r = *static_cast<const FloatRule*>(op->aux);
  numerics::VerdictOptions shaderOptions;
  const numerics::VerdictOptions& options = s.shader ? (shaderOptions = s.verdictFor(r.format)) : s.verdict;
  const uint32_t count = b.count;
  // Lane l's operands hold exactly clref's values.
  auto exactOperands = [&](uint32_t l) {
    if (!S.used) return true;
    const uint32_t lane = b.first + l;
    for (uint32_t i = 0; i < r.lanes; ++i)
      for (const LaneRef& a : r.args)
        if (S.any(lane, a.reg + i * a.stride, a.bytes)) return false;
    for (uint32_t i = 0; i < r.lanes; ++i)
      for (const Contraction& c : r.contractions)
        if (S.any(lane, c.a.reg + i * c.a.stride, c.a.bytes) || S.any(lane, c.b.reg + i * c.b.stride, c.b.bytes))
          return false;
    return true;
  };
  auto allOperandsExact = [&] {
    for (uint32_t i = 0; i < r.lanes; ++i) {
      for (const LaneRef& a : r.args)
        if (!S.noneIn(b.first, count, a.reg + i * a.stride, a.bytes)) return false;
      for (const Contraction& c : r.contractions)
        if (!S.noneIn(b.first, count, c.a.reg + i * c.a.stride, c.a.bytes) ||
            !S.noneIn(b.first, count, c.b.reg + i * c.b.stride, c.b.bytes))
          return false;
    }
    return true;
  };
  // Lane l is exact (no set): a test that holds for every lane it says yes to, or the rule in full.
  auto byRule = [&](auto exactLane) -> const Op* {
    uint32_t l = 0;
    if (!S.used) {  // no register has a set: the lanes the test passes need nothing more
      while (l < count && exactLane(l)) ++l;
      if (l == count) return op + 1;
    }
    const DirectRule direct = directRuleOf(r, s, options);  // (only here: most exact batches return above)
    // Read once: a lane's rule writes only its result's flags, never an operand's (the file's entries are made at the
    // first set, when `used` was false and the view reads no entry).
    const LaneSetView view(b);
    // Operands and a result no lane holds a set in (a product of loaded values, say): no look per lane.
    const bool operandsExact = allOperandsExact();
    const bool resultExact = S.noneIn(b.first, count, op->r, r.lanes * r.bytes);
    // A contracted sum whose registers hold sets (an accumulator's): its lanes with sets ask the fast path first.
    const bool setsFirst = direct.contracted && !operandsExact;
    // directRuleOnLane's fast paths asked a chunk of lanes at a time (its point path: values of no set).
    numerics::detail::RangeRule range;
    numerics::detail::PointRule point;
    // The point path's lanes need no exact test first: directRuleOnLane's (shadowExactOnPoints) and this function's
    // (exactLane) hold only for sums, products and fused sums, which the point chunk does not take.
    if (direct.usable && !direct.contracted) {
      if (!operandsExact) range = numerics::detail::rangeRuleOf(direct.fn, r.core, r.format, s.profile, options);
      point = numerics::detail::pointRuleOf(direct.fn, r.core, r.format, s.profile, options);
      if (range.arity != r.args.size()) range = {};
      // (Fused sums of single values: their exact test, fused and unfused results the same, comes first, lane by lane.)
      if (point.arity != r.args.size() || point.op == numerics::detail::PointOp::Mad ||
          point.op == numerics::detail::PointOp::Fma)
        point = {};
    }
    const bool chunks = range.usable() || point.usable();
    const bool floatQuad = r.bytes == 4 && op->r % 4 == 0 && r.format == numerics::Format::Float;
    auto exactFirst = [&](uint32_t l) { return (operandsExact || exactOperands(l)) && exactLane(l); };
    DirectChunk chunk;
    for (; l < count; ++l) {
      if (chunks && l >= chunk.to) directChunk(view, r, range, point, l, count, chunk);
      if (chunks && chunk.has(l)) {  // (exactFirst(l) is false: its operands hold a set, or its rule has no exact test)
        if (floatQuad) {
          const uint32_t end = writeDirectRun(b, op, chunk, l);
          if (end > l) {
            l = end - 1;
            continue;
          }
        }
        const numerics::ValueSet set{chunk.lo[l - chunk.from], chunk.hi[l - chunk.from], false};
        if (writeDirectSet(b, op, r, l, set, numerics::loadValue(view.bytes(op->r, l), r.format))) continue;
        if (!floatRuleOnLane(b, op, r, options, l)) return stopBefore(b, op, l);
        continue;
      }
      if (setsFirst && directRuleOnLane(b, view, op, r, direct, s, options, l)) continue;
      if (exactFirst(l)) {
        if (!resultExact && !exactResult(S, b.first + l, op->r, r.lanes * r.bytes)) return stopBefore(b, op, l);
        continue;
      }
      if (!setsFirst && direct.usable && directRuleOnLane(b, view, op, r, direct, s, options, l)) continue;
      if (!floatRuleOnLane(b, op, r, options, l)) return stopBefore(b, op, l);
    }
    return op + 1;
  };
  const bool quick = r.kind != FloatKind::Core && r.kind != FloatKind::Math;
  if (quick) return byRule([](uint32_t) { return true; });  // negation, conversion, fmod of single values
  const size_t n = r.args.size();
  bool simpleOperands = !s.assumesFinite(r.format, r.preserving) && n <= 4 &&
                        (r.format == numerics::Format::Float || r.format == numerics::Format::Double);
  for (const LaneRef& a : r.args) simpleOperands = simpleOperands && a.kind == LaneKind::Float && a.format == r.format;
  if (!simpleOperands) return byRule([](uint32_t) { return false; });
  // Fused or unfused sums (mad, fma, contractions; -cl-mad-enable makes a contraction any value, and without
  // FP_CONTRACT the rule takes its general path): scalar floats in OpenCL C's full profile without a flush or rounding
  // option, lane by lane.
  const bool fusedForm = r.kind == FloatKind::Math && (r.fn == numerics::MathFn::mad || r.fn == numerics::MathFn::fma);
  if (fusedForm || !r.contractions.empty()) {
    bool quickFused = !((!fusedForm && (!s.contraction || s.madEnable)) || s.shader ||
                        s.profile != numerics::Profile::Full || r.format != numerics::Format::Float || r.lanes != 1 ||
                        options.flushToZero == true ||
                        (options.rounding && *options.rounding != numerics::Rounding::RTE));
    for (const Contraction& c : r.contractions)
      quickFused = quickFused && c.a.kind == LaneKind::Float && c.b.kind == LaneKind::Float &&
                   c.a.format == r.format && c.b.format == r.format;
    if (!quickFused) return byRule([](uint32_t) { return false; });
    const uint8_t* result = b.lane0(op->r);
    // (Inlined: a call per lane was a fifth of an exact matmul's check.)
    return byRule([&](uint32_t l) __attribute__((always_inline)) {
      return fusedForm ? fusedAgrees(rdLane<float>(b.lane0(r.args[0].reg), l), rdLane<float>(b.lane0(r.args[1].reg), l),
                                     rdLane<float>(b.lane0(r.args[2].reg), l), rdLane<float>(result, l))
                       : contractionsAgree(b, r, l, op->r);
    });
  }
  // What no operand value changes: a rule that is never exact on single values takes the rule in full. Normal operands
  // stand for every value but the subnormal ones, which each lane tests (with its result) from their bits.
  static constexpr double kNormal[4] = {1.0, 1.0, 1.0, 1.0};
  if (!shadowExactOnPoints(r, s, std::span<const double>(kNormal, n))) return byRule([](uint32_t) { return false; });
  const bool single = r.format == numerics::Format::Float;
  // float a op b, no set in its operands or result: the usual case, its three arrays tested in one pass.
  if (single && r.lanes == 1 && n == 2 && (!S.used || (allOperandsExact() && S.noneIn(b.first, count, op->r, 4)))) {
    const uint8_t *x = b.lane0(r.args[0].reg), *y = b.lane0(r.args[1].reg), *z = b.lane0(op->r);
    auto tiny = [](const uint8_t* p, uint32_t l) { return subnormalBits<uint32_t, 23>(p + size_t(l) * 8); };
    uint32_t any = 0;
    for (uint32_t l = 0; l < count; ++l) any |= uint32_t(tiny(x, l)) | uint32_t(tiny(y, l)) | uint32_t(tiny(z, l));
    if (!any) return op + 1;
  }
  return byRule([&](uint32_t l) __attribute__((always_inline)) {
    return !(single ? anySubnormal<uint32_t, 23>(b, r, l, op->r) : anySubnormal<uint64_t, 52>(b, r, l, op->r));
  });
}


// ---- Edges ---------------------------------------------------------------------------------------------------------

namespace {
// Edge e's shadow copies as copiesOnLane takes them; false where they are too many for the file's lane forms.
bool edgeMoves(const Edge* e, std::array<std::tuple<uint32_t, uint32_t, uint32_t>, 16>& moves) {
  const auto& copies = e->shadowCopies;
  if (copies.size() > moves.size()) return false;
  for (size_t i = 0; i < copies.size(); ++i) moves[i] = {copies[i].dst, copies[i].src, copies[i].size};
  return true;
}
}  // namespace

namespace {
// A lone copy of a 4- or 8-byte register (a loop's accumulator) in lane `lane`: whether the source is exact or one
// whole entry, and the destination nothing or one whole entry to replace (then `move` does it), without staging.
bool loneCopyFits(const LaneSets& S, uint32_t lane, uint32_t dst, uint32_t src, uint32_t n) {
  auto whole = [&](uint32_t reg) {
    const uint8_t f = S.flag(reg / 4, lane);
    if (f == LaneSets::kStart) return S.entries[size_t(reg / 4) * S.stride + lane].size == n;
    return f == LaneSets::kNone && (n == 4 || S.flag(reg / 4 + 1, lane) == LaneSets::kNone);
  };
  return whole(src) && whole(dst);
}
void loneCopyMove(LaneSets& S, uint32_t lane, uint32_t dst, uint32_t src, uint32_t n) {
  const size_t from = size_t(src / 4) * S.stride + lane, to = size_t(dst / 4) * S.stride + lane;
  if (S.flags[from] == LaneSets::kStart) {
    S.entries[to] = S.entries[from];
    S.flags[to] = LaneSets::kStart;
    if (n == 8) S.flags[to + S.stride] = LaneSets::kSecond;
  } else if (S.flags[to] != LaneSets::kNone) {
    S.flags[to] = LaneSets::kNone;
    if (n == 8) S.flags[to + S.stride] = LaneSets::kNone;
  }
}
bool loneCopy(const Edge* e) {
  if (e->shadowCopies.size() != 1) return false;
  const PhiCopy& c = e->shadowCopies[0];
  return LaneSets::holds(c.src, c.size) && LaneSets::holds(c.dst, c.size);
}
}  // namespace

bool shadowEdgeFits(const LaneBatch& b, const Edge* e) {
  const LaneSets& S = *b.sets;
  if (!S.used || e->shadowCopies.empty()) return true;
  if (loneCopy(e)) {
    const PhiCopy& c = e->shadowCopies[0];
    bool fits = true;
    for (uint32_t l = 0; l < b.count; ++l) fits = fits && loneCopyFits(S, b.first + l, c.dst, c.src, c.size);
    if (fits) return true;
  }
  std::array<std::tuple<uint32_t, uint32_t, uint32_t>, 16> moves;
  if (!edgeMoves(e, moves)) return false;
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    for (size_t i = 0; i < e->shadowCopies.size(); ++i) {
      const auto& [dst, src, n] = moves[i];
      stagedEntries.clear();
      if (!stageLane(S, lane, src, n, stagedEntries) || !fitsAt(stagedEntries, 0, dst) || !S.clearable(lane, dst, n))
        return false;
    }
  }
  return true;
}

void shadowEdgeMove(const LaneBatch& b, const Edge* e) {
  LaneSets& S = *b.sets;
  if (!S.used || e->shadowCopies.empty()) return;
  std::array<std::tuple<uint32_t, uint32_t, uint32_t>, 16> moves;
  edgeMoves(e, moves);
  const std::span<const std::tuple<uint32_t, uint32_t, uint32_t>> all(moves.data(), e->shadowCopies.size());
  const bool lone = loneCopy(e);
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint32_t lane = b.first + l;
    const PhiCopy& c = e->shadowCopies[0];
    if (lone && loneCopyFits(S, lane, c.dst, c.src, c.size))
      loneCopyMove(S, lane, c.dst, c.src, c.size);
    else
      copiesOnLane(S, lane, all);
  }
}

}  // namespace clref::interpreter
