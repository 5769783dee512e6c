// The shadow map of the allowed-set propagation (interpreter/shadow.hpp).
#include "interpreter/shadow.hpp"

#include "interpreter/exec.hpp"
#include "interpreter/module.hpp"
#include "interpreter/shader_float_freedoms.hpp"

#include <algorithm>
#include <vector>

namespace clref::interpreter {
namespace {

constexpr uintptr_t kMaxLane = 8;  // the widest lane an entry describes (double, long)

uintptr_t addr(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

template <class F> void ShadowRun::forEachIn(uintptr_t a, uint64_t n, F&& f) const {
  const uintptr_t lo = a >= kMaxLane ? a - kMaxLane + 1 : 0, hi = a + n;
  // f is given the entry found afresh at each start: an erase moves other entries within the table.
  auto visit = [&](uintptr_t start) {
    const ShadowEntry* e = entries_.find(start);
    return e && start + e->size > a && f(start, *e);
  };
  if (ShadowCoverage::granules(lo, hi - lo) <= entries_.capacity()) return coverage_.forEachStart(lo, hi, visit);
  ordered_.clear();
  entries_.forEach([&](uintptr_t start, const ShadowEntry&) {
    if (start >= lo && start < hi) ordered_.push_back(start);
  });
  std::sort(ordered_.begin(), ordered_.end());
  for (const uintptr_t start : ordered_)
    if (visit(start)) return;
}

void ShadowRun::clearEntries(const uint8_t* p, uint64_t n) {
  // The entries' starts are read a granule at a time (or collected first): erasing the one visited is safe.
  forEachIn(addr(p), n, [&](uintptr_t start, const ShadowEntry& e) {
    erase(start, e.size);
    return false;
  });
}

const ShadowEntry* ShadowRun::laneEntry(const uint8_t* p, uint32_t size, ShadowEntry& scratch) const {
  const uintptr_t a = addr(p);
  // The usual lane: an entry of its size starts at p, and no other can overlap it (entries never overlap).
  if (const ShadowEntry* e = entries_.find(a); e && e->size == size) return e;
  const ShadowEntry* found = nullptr;
  bool mismatch = false;
  std::optional<uint32_t> decision;
  forEachIn(a, size, [&](uintptr_t start, const ShadowEntry& e) {
    if (start == a && e.size == size && !found)
      found = &e;
    else
      mismatch = true;
    if (e.undetermined && !decision) decision = e.decision;
    return false;
  });
  if (!mismatch) return found;
  // Part of a lane, or several: a value reinterpreted through memory. Its set is not known lane by lane.
  scratch = ShadowEntry{};
  scratch.size = uint8_t(size);
  scratch.set = numerics::ValueSet::all();
  scratch.reinterpreted = true;
  scratch.undetermined = decision.has_value();
  scratch.decision = decision.value_or(0);
  return &scratch;
}

bool ShadowRun::anyEntryIn(const uint8_t* p, uint64_t n) const {
  bool any = false;
  forEachIn(addr(p), n, [&](uintptr_t, const ShadowEntry&) { return any = true; });
  return any;
}

void ShadowRun::entriesIn(const uint8_t* p, uint64_t n, std::vector<std::pair<uintptr_t, ShadowEntry>>& out) const {
  if (!coverage_.any(addr(p), n)) return;
  forEachIn(addr(p), n, [&](uintptr_t start, const ShadowEntry& e) {
    out.emplace_back(start, e);
    return false;
  });
}

void ShadowRun::set(const uint8_t* p, const ShadowEntry& e) {
  // Entries never overlap, so one of the same size at p is the only one in the range: replace it in place (a loop's
  // accumulator gets a new set every iteration, a register the last work-item of its slot left a set in another).
  // Asked before the coverage, which would only say that there is one.
  if (ShadowEntry* at = entries_.find(addr(p)); at && at->size == e.size) {
    *at = e;
    return;
  }
  clear(p, e.size);
  place(addr(p), e);
}

void ShadowRun::stage(const uint8_t* src, uint64_t n) {
  stagedFrom_.push_back(staged_.size());
  const uintptr_t a = addr(src);
  if (!coverage_.any(a, n)) return;
  forEachIn(a, n, [&](uintptr_t start, const ShadowEntry& found) {
    ShadowEntry e = found;
    if (start < a || start + e.size > a + n) {
      // A lane cut by the range: the copy holds part of it, which is no value of its own.
      const uintptr_t from = std::max(start, a), to = std::min<uintptr_t>(start + e.size, a + n);
      e.set = numerics::ValueSet::all();
      e.reinterpreted = true;
      e.size = uint8_t(to - from);
      staged_.emplace_back(from - a, e);
    } else {
      staged_.emplace_back(start - a, e);
    }
    return false;
  });
}

void ShadowRun::putStaged(size_t i, uint8_t* dst, uint64_t n) {
  const size_t from = stagedFrom_[i], to = i + 1 < stagedFrom_.size() ? stagedFrom_[i + 1] : staged_.size();
  // A single lane onto the same lane shape: in place (set); else clear the range and insert.
  if (to == from + 1 && staged_[from].first == 0 && staged_[from].second.size == n) {
    set(dst, staged_[from].second);
    return;
  }
  clear(dst, n);
  for (size_t k = from; k < to; ++k) place(addr(dst) + staged_[k].first, staged_[k].second);
}

void ShadowRun::copyEntries(uint8_t* dst, const uint8_t* src, uint64_t n, bool fromEntries) {
  if (n == 0 || dst == src) return;
  if (!fromEntries) return clearEntries(dst, n);  // an exact source
  // One lane moved whole (a phi copy, a load or store of a scalar): no staging. Entries never overlap, so one that
  // starts at src and is n bytes long is the range's only one.
  if (const ShadowEntry* at = entries_.find(addr(src)); at && at->size == n) {
    const ShadowEntry e = *at;
    set(dst, e);
    return;
  }
  beginStaging();
  stage(src, n);
  putStaged(0, dst, n);
}

void ShadowRun::markUndetermined(const uint8_t* p, uint64_t n, uint32_t laneSize, uint32_t decision) {
  clear(p, n);
  if (laneSize == 0) laneSize = 1;
  for (uint64_t off = 0; off < n; off += laneSize) {
    ShadowEntry e;
    e.size = uint8_t(std::min<uint64_t>(laneSize, n - off));
    e.set = numerics::ValueSet::all();
    e.undetermined = true;
    e.decision = decision;
    place(addr(p) + off, e);
  }
}

std::optional<uint32_t> ShadowRun::decisionIn(const uint8_t* p, uint64_t n) const {
  const uintptr_t a = addr(p);
  if (!coverage_.any(a, n)) return std::nullopt;
  std::optional<uint32_t> d;
  forEachIn(a, n, [&](uintptr_t, const ShadowEntry& e) {
    if (e.undetermined) d = e.decision;
    return e.undetermined;
  });
  return d;
}

void ShadowRun::layOutWriters() const {
  constexpr uintptr_t pageBytes = uintptr_t(1) << kWriterPageBits;
  uintptr_t lastPage = ~uintptr_t(0);
  uint32_t* cells = nullptr;
  for (const WriterRun& w : writerLog_) {
    uintptr_t a = w.at;
    const uintptr_t end = a + w.bytes;
    while (a < end) {
      const uintptr_t page = a >> kWriterPageBits;
      if (page != lastPage) {
        auto& entries = writerPages_[page];
        if (!entries) entries = std::make_unique<uint32_t[]>(pageBytes);  // zeroed: no writer
        lastPage = page;
        cells = entries.get();
      }
      const uintptr_t stop = std::min(end, (page + 1) << kWriterPageBits);
      std::fill(cells + (a & (pageBytes - 1)), cells + (a & (pageBytes - 1)) + (stop - a), w.inst + 1);
      a = stop;
    }
  }
  writerLog_.clear();
}

std::optional<uint32_t> ShadowRun::writerOf(const uint8_t* p) const {
  if (!writerLog_.empty()) layOutWriters();
  const uintptr_t a = addr(p);
  const auto it = writerPages_.find(a >> kWriterPageBits);
  if (it == writerPages_.end()) return std::nullopt;
  const uint32_t w = it->second[a & ((uintptr_t(1) << kWriterPageBits) - 1)];
  if (w == 0) return std::nullopt;
  return w - 1;
}

void shadowNoteChoice(WorkItem& wi, const Op* op, numerics::Choice c) {
  // nan(code): which NaN is open, not that it is one (a NaN result is judged as any NaN already).
  if (c == numerics::Choice::NanPayload) return;
  const numerics::ChoiceFreedom f = numerics::freedomOf(c);
  if (f.kind == numerics::ChoiceKind::Free || (f.kind == numerics::ChoiceKind::Set && !f.limitedToOptions))
    wi.shadow->choiceFreedInst = op->inst;
}

// ---- A Vulkan compute shader's rules -------------------------------------------------------------------------------

namespace {
uint8_t widthBit(numerics::Format f) {
  return f == numerics::Format::Half ? 1 : f == numerics::Format::Float ? 2 : 4;
}
}  // namespace

void ShadowRun::useShaderRules(const EntryPoint& entry) {
  shader = true;
  profile = numerics::Profile::Vulkan;
  denormPreserve = entry.denormPreserve;
  denormFlushToZero = entry.denormFlushToZero;
  signedZeroInfNanPreserve = entry.signedZeroInfNanPreserve;
  roundingModeRTE = entry.roundingModeRTE;
  roundingModeRTZ = entry.roundingModeRTZ;
}

numerics::VerdictOptions ShadowRun::verdictFor(numerics::Format f) const {
  if (!shader) return verdict;
  const uint8_t bit = widthBit(f);
  return shaderVerdictOptions(verdict, denormPreserve & bit, roundingModeRTE & bit, roundingModeRTZ & bit);
}

// Vulkan §A.4 [external] (Precision and Operation of SPIR-V Instructions): "If any of the following conditions are
// true then the flags NSZ, NotInf, and NotNaN are assumed: The entry point does not use the ExecutionMode
// SignedZeroInfNanPreserve with a bit-width corresponding to one of the operands or to the result type. The operation
// is not a bit-preserving operation and is not one of OpFConvert, OpFNegate, OpFAdd, …".
bool ShadowRun::assumesFinite(numerics::Format f, bool preserving) const {
  if (!shader) return finiteMathOnly;
  return !preserving || (signedZeroInfNanPreserve & widthBit(f)) == 0;
}
bool ShadowRun::anyZeroSign(numerics::Format f, bool preserving) const {
  return shader && assumesFinite(f, preserving);
}

}  // namespace clref::interpreter
