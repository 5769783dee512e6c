// The lane executor: the converged work-items of a batch (scheduler.cpp: a batch of a work-group without barriers or
// atomics, or a whole work-group with barriers and without atomics) run each Op together, one dispatch per Op for the
// whole batch instead of one per work-item, on their registers laid out lane by lane. Internal to the interpreter.
//
// A round of the batch (every live slot runs until it yields at a loop back-edge, waits at a barrier, returns or
// faults) runs on lanes when its live work-items stand at the same Op outside any function call (their budgets may
// differ: they took different paths before). Their registers are then copied into the batch's lane registers: 8-byte
// chunk c of lane l at (c * lanes + l) * 8 (registers are 8-aligned, so a scalar of every lane is one strided array,
// and a handler's loop over the lanes is a loop over memory). Each Op runs through its lane form. The lanes stay
// together across loop back-edges where they all would have yielded (their next round would start together again)
// and across a work-group barrier the whole group reaches together; where a branch parts them into a first and a
// second range of lanes, each range goes on as a view of the batch until they meet again (partLanes,
// ops_control.cpp). They leave the lanes as soon as they would part otherwise: a branch going two ways in other
// ranges, an access off access()'s fast path, a value that would decide a choice for the first time after a new
// time slice began on lanes, an Op without a lane form. Then the registers go back, and from that Op on every
// work-item finishes its round alone, in slot order, on today's path (the lanes before the one that stopped have run
// the Op, the others not).
//
// What it keeps of running each work-item alone: a work-item's own steps are the same (its registers, budget and
// slices). Its memory is the same as long as no work-item of the batch touches bytes another one writes between two
// barriers (a data race: OpenCL 3.0 API §3.3.7 [[memory-consistency-model]]; no atomics here): the lanes record the
// global and local bytes each one reads and writes (LaneLog) and the old bytes of every store. Where two lanes touch
// the same bytes between two barriers and one of them writes, or where the lanes part for good after lanes other than
// the first touched shared memory (the others' rest, run alone after them, could touch it too), the span run on lanes
// is undone and runs again one by one (scheduler.cpp runLanes): racy kernels compute what checked runs compute. The
// diagnostics are the same: lane forms never fault or warn, and a work-group's first decision of a choice made on
// lanes is the lowest lane's earliest, the one-by-one order's first within a round (LaneLog::firstDecisions; a
// choice already decided in the work-group only counts, in any order); the Op that would fault or warn runs alone,
// after the work-items before it finished their slices, as it would have; work-items that reach different barriers
// part before them, so barrier divergence is found as today. Observed launches keep today's path (their observers see
// each work-item's steps in turn), and so does CLREF_LANES=0; the race checker is told a span's accesses when it
// stands (LaneLog::exact), the uninitialised-value checker's shadow Ops run on lanes while the values they read are
// defined (checks/uninitialized.cpp; their memory shadows through LaneLog::undefinedAt), and a shadow run's rules
// run on lanes with the sets of the lane registers in a file beside them (shadow_lanes.hpp).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "interpreter/avx2_clones.hpp"
#include "interpreter/exec.hpp"

namespace clref::interpreter {

struct LaneBatch;
struct LaneSets;  // shadow_lanes.hpp
// Runs an Op for every lane of the batch; returns the Op they all go to next, or nullptr (LaneBatch says why).
using LaneHandler = const Op* (*)(LaneBatch&, const Op*);

// What the lanes of a span (scheduler.cpp runLanes) did to memory: per memory Op run on lanes, the host address each
// lane touched in global or local memory (every storage that is not a work-item's own) since the last barrier, and the
// old bytes of every store since the span began, to undo it.
struct LaneLog {
  struct Entry {
    uint32_t firstLane;  // the batch's lane of the entry's first address
    uint32_t lanes;      // addresses in `addresses` from `at` (0: a lane that touched private memory or none)
    uint32_t bytes;
    bool store;
    size_t at;
    // Dense: lane firstLane + i touched bytes [lo + i·bytes, lo + (i + 1)·bytes) of the entry's extent, every lane
    // (beginDense); its addresses are not stored (conflicts() makes them where it needs them).
    bool dense = false;
    // Coarse: loads of every lane somewhere in the entry's extent, addresses not kept (beginCoarse). A store of the
    // interval into that extent counts as a race: an undone span costs time, never a result.
    bool coarse = false;
    // A dense entry in rows (beginDenseRows): rows of rowLanes lanes (the last may be shorter), row r from lo +
    // r·rowStride, dense along each; a store's rowStride is at least a row's bytes (no two of its lanes meet), a
    // load's rows may meet (its extent is then not `increasing`). 0: one row.
    uint32_t rowLanes = 0;
    uint64_t rowStride = 0;
    const Op* op = nullptr;  // the Op whose accesses these are (LaneLog::current when it began)
    uint32_t tag = 0;        // a dense entry's allocation (its pointer tag), which the checkers are told first
    // Lane firstLane + i's address, from the entry's lo (dense entries).
    uintptr_t denseAddress(uintptr_t lo, uint32_t i) const {
      if (rowLanes == 0) return lo + uintptr_t(i) * bytes;
      return lo + uintptr_t(i / rowLanes) * rowStride + uintptr_t(i % rowLanes) * bytes;
    }
  };
  std::vector<Entry> entries;
  std::vector<uintptr_t> addresses;
  const Op* current = nullptr;  // the Op the lanes run now (set by the loops that run lane forms)
  // Every lane's address kept (no coarse entries): a checked launch's race checker is told each access.
  bool exact = false;
  struct Undo {
    uint8_t* to;
    uint64_t old;  // up to 8 bytes; more: their offset in undoBytes
    uint32_t bytes;
  };
  std::vector<Undo> undo;
  std::vector<uint8_t> undoBytes;
  size_t undoSize = 0;  // bytes saved
  size_t undoAt = 0;    // the records of the last store entry's lanes (to == nullptr: a lane that did not store)
  size_t stores = 0;  // entries of stores
  size_t denseLanes = 0;  // the lanes of dense and coarse entries (they count toward the log's bounds all the same)
  // Per entry: the addresses' bytes [lo, hi), and whether each lane's bytes end before the next's begin (kept by
  // LaneAccess as it records, for conflicts()).
  struct Extent {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool increasing = true;
    // The next lane's `bytes` at `at`; `end`: where the previous recorded lane's bytes end (0 before the first).
    void add(uintptr_t at, uint32_t bytes, uintptr_t& end) {
      increasing = increasing && at >= end;
      end = at + bytes;
      lo = std::min(lo, at);
      hi = std::max(hi, end);
    }
  };
  std::vector<Extent> extents;
  std::vector<uint32_t> order;
  // Bytes [lo, hi) that lanes of an Op read without their own addresses (a filtered image read, whose texels are not
  // known outside images/): any store of the interval into them counts as a race, and they count as shared memory
  // touched beyond the first lane.
  std::vector<Extent> readRanges;
  // A shadow run's stores on lanes (shadow_lanes.hpp), in the order they ran: each the last writer of its bytes
  // (ShadowRun::noteWriter) once the span stands, forgotten when it is undone.
  struct WriterNote {
    const uint8_t* at;
    uint32_t bytes, inst;
  };
  std::vector<WriterNote> writerNotes;
  // The uninitialised-value checker's side (checks/uninitialized.hpp), in a launch that runs it (undefinedShadows):
  // for each lane of the memory Op that ran last on lanes (undefinedOf), where the shadow of the bytes it touched lies
  // (Allocation::undefinedToRead() + the offset; nullptr where every byte is defined) and whether they are global
  // memory. The shadow Op right after it moves the shadows from there (uninitialized.cpp). A lane form that cannot go
  // on without the one-by-one order (a lane storing an undefined value to global memory, a finding) sets mustUndo:
  // the span is undone and runs one by one (scheduler.cpp runLanes).
  struct UndefinedAt {
    uint8_t* shadow;
    bool global;
  };
  // How the Op noted them: a record per lane (undefinedAt), lanes at consecutive `undefinedBytes` of one allocation
  // from undefinedBase (a dense access), or at offsets undefinedOffsets[l] of one allocation (a gather, a row every
  // lane reads). undefinedBase is nullptr for an allocation whose bytes are all defined (undefinedToRead()).
  enum class UndefinedNote : uint8_t { PerLane, Dense, Offsets };
  bool undefinedShadows = false;
  std::vector<UndefinedAt> undefinedAt;
  const Op* undefinedOf = nullptr;
  uint32_t undefinedBytes = 0;  // each lane's access
  UndefinedNote undefinedNote = UndefinedNote::PerLane;
  uint8_t* undefinedBase = nullptr;
  const uintptr_t* undefinedOffsets = nullptr;
  bool undefinedGlobal = false;
  bool mustUndo = false;
  // A work-group's first decisions of choices made on lanes (decideOnLanes), per choice the one the one-by-one order
  // makes first: the lowest lane's, its earliest. That order holds while the lanes run one round (a time slice of
  // each, between barriers); the scheduler writes them (noteChoiceFirst) at a barrier the lanes pass and where the
  // span ends with the lanes together, and undoes a span that ends otherwise with some (scheduler.cpp runLanes).
  struct FirstDecision {
    numerics::Choice choice;
    uint32_t lane;  // of the batch
    const Op* op;
    const char* what;
  };
  std::vector<FirstDecision> firstDecisions;
  bool newRound = false;  // the lanes began a new time slice at a back-edge since the span or the interval began
  // Set where lanes stopped before a lane that makes its work-group's first decision of a choice after a new round
  // began: a stop once per work-group, which says nothing of how later rounds from the same Op do on lanes.
  bool firstDecision = false;
  // Set where a lane's budget or time slice moved (LaneBatch::base, yieldBelow); the scheduler clears it (runLanes
  // keeps a fresh round's budgets for the next one, which has the same).
  bool budgetsMoved = false;
  // Records for the Op running now, for `lanes` lanes of `bytes` each, one per lane (nullptr outside such a launch).
  UndefinedAt* undefinedFor(uint32_t lanes, uint32_t bytes) {
    if (!undefinedShadows) [[likely]]
      return nullptr;
    if (undefinedAt.size() < lanes) undefinedAt.resize(lanes);
    undefinedOf = current;
    undefinedBytes = bytes;
    undefinedNote = UndefinedNote::PerLane;
    return undefinedAt.data();
  }
  static UndefinedAt undefinedIn(const Allocation& A, uint64_t off) {
    uint8_t* const u = const_cast<uint8_t*>(A.undefinedToRead());
    return {u ? u + off : nullptr, A.storage == spv::StorageClass::CrossWorkgroup};
  }
  // Every lane of the Op touched `bytes` of A: consecutive ones from offset off0, or (offsets) at offsets[l], which
  // stay as they are until the shadow Op after it ran.
  void noteUndefinedIn(const Allocation& A, uint32_t bytes, uint64_t off0, const uintptr_t* offsets = nullptr) {
    if (!undefinedShadows) [[likely]]
      return;
    undefinedOf = current;
    undefinedBytes = bytes;
    undefinedNote = offsets ? UndefinedNote::Offsets : UndefinedNote::Dense;
    uint8_t* const u = const_cast<uint8_t*>(A.undefinedToRead());
    undefinedBase = u ? u + off0 : nullptr;
    undefinedOffsets = offsets;
    undefinedGlobal = A.storage == spv::StorageClass::CrossWorkgroup;
  }
  // Lane l's record.
  UndefinedAt undefinedOfLane(uint32_t l) const {
    switch (undefinedNote) {
      case UndefinedNote::Dense:
        return {undefinedBase ? undefinedBase + size_t(l) * undefinedBytes : nullptr, undefinedGlobal};
      case UndefinedNote::Offsets:
        return {undefinedBase ? undefinedBase + undefinedOffsets[l] : nullptr, undefinedGlobal};
      case UndefinedNote::PerLane: break;
    }
    return undefinedAt[l];
  }
  std::vector<uintptr_t> scratch;  // a lane form's addresses before it decides to log them (scratchAddresses)
  std::vector<uintptr_t> denseScratch[2];  // a dense entry's addresses, made for conflicts()
  uintptr_t* scratchAddresses(uint32_t lanes) {
    if (scratch.size() < lanes) scratch.resize(lanes);
    return scratch.data();
  }
  // Beyond this many addresses or undo bytes the lanes stop at their next memory Op (the span is undone): a bound on
  // the log of one barrier interval.
  static constexpr size_t kMaxAddresses = size_t(1) << 22, kMaxUndoBytes = size_t(1) << 24;

  // The addresses of a new entry (zeroed), or nullptr when the log is full.
  uintptr_t* begin(uint32_t firstLane, uint32_t lanes, uint32_t bytes, bool store) {
    if (full(lanes, bytes)) [[unlikely]]
      return nullptr;
    if (store) {
      undoAt = undo.size();
      undo.resize(undoAt + lanes, Undo{nullptr, 0, 0});
    }
    const size_t at = addresses.size();
    entries.push_back({firstLane, lanes, bytes, store, at});
    entries.back().op = current;
    extents.emplace_back();
    addresses.resize(at + lanes, 0);
    stores += store;
    return addresses.data() + at;
  }
  // A dense entry (Entry::dense) of lanes that touch consecutive `bytes` from host address lo; false when the log is
  // full. A store's old bytes are saved with saveDense.
  bool beginDense(uint32_t firstLane, uint32_t lanes, uint32_t bytes, bool store, uintptr_t lo, uint32_t tag) {
    if (full(lanes, bytes)) [[unlikely]]
      return false;
    entries.push_back({firstLane, lanes, bytes, store, 0, true});
    entries.back().op = current;
    entries.back().tag = tag;
    extents.push_back({lo, lo + uintptr_t(lanes) * bytes, true});
    denseLanes += lanes;
    stores += store;
    return true;
  }
  // A dense entry in rows (Entry::rowLanes): lanes in rows of rowLanes, row r's first at lo + r·rowStride.
  bool beginDenseRows(uint32_t firstLane, uint32_t lanes, uint32_t bytes, bool store, uintptr_t lo, uint32_t rowLanes,
                      uint64_t rowStride, uint32_t tag) {
    if (full(lanes, bytes)) [[unlikely]]
      return false;
    Entry e{firstLane, lanes, bytes, store, 0, true};
    e.rowLanes = rowLanes;
    e.rowStride = rowStride;
    e.op = current;
    e.tag = tag;
    entries.push_back(e);
    extents.push_back({lo, e.denseAddress(lo, lanes - 1) + bytes, rowStride >= uint64_t(rowLanes) * bytes});
    denseLanes += lanes;
    stores += store;
    return true;
  }
  // A coarse entry (Entry::coarse) of loads by every lane within host addresses [lo, hi).
  bool beginCoarse(uint32_t firstLane, uint32_t lanes, uint32_t bytes, uintptr_t lo, uintptr_t hi) {
    if (full(lanes, 0)) [[unlikely]]
      return false;
    entries.push_back({firstLane, lanes, bytes, false, 0, false, true});
    entries.back().op = current;
    extents.push_back({lo, hi, false});
    denseLanes += lanes;
    return true;
  }
  bool full(uint32_t lanes, uint32_t bytes) const {
    return addresses.size() + denseLanes + lanes > kMaxAddresses || undoSize + size_t(lanes) * bytes > kMaxUndoBytes;
  }
  // The `bytes` bytes from `to` that the lanes of a dense store are about to overwrite, as one record (up to 8 bytes
  // in the record itself, as undoAll reads them: a dense store of a few narrow lanes, 4 lanes of 1 byte, is that
  // short).
  void saveDense(uint8_t* to, uint32_t bytes) {
    undoSize += bytes;
    Undo u{to, 0, bytes};
    if (bytes <= 8) {
      std::memcpy(&u.old, to, bytes);
    } else {
      u.old = undoBytes.size();
      undoBytes.insert(undoBytes.end(), to, to + bytes);
    }
    undo.push_back(u);
  }
  // The bytes lane l of the last store entry is about to overwrite.
  void save(uint32_t l, uint8_t* to, uint32_t bytes) {
    undoSize += bytes;
    Undo& u = undo[undoAt + l];
    u.to = to;
    u.bytes = bytes;
    // Sizes known to the compiler: a memcpy of a run-time size is a call.
    if (bytes == 4) [[likely]] {
      std::memcpy(&u.old, to, 4);
    } else if (bytes == 8) {
      std::memcpy(&u.old, to, 8);
    } else if (bytes <= 8) {
      for (uint32_t i = 0; i < bytes; ++i) reinterpret_cast<uint8_t*>(&u.old)[i] = to[i];
    } else {
      u.old = undoBytes.size();
      undoBytes.insert(undoBytes.end(), to, to + bytes);
    }
  }
  // The barrier interval's accesses: whether two lanes touched the same bytes and one of them wrote (lanes.cpp).
  bool conflicts();
  // Whether a lane other than the batch's first touched shared memory in this interval.
  bool beyondFirstLane() const;
  // Whether the span should end where the lanes next yield or wait at a barrier together (a commit point).
  bool large() const { return addresses.size() + denseLanes > kMaxAddresses / 4 || undoSize > kMaxUndoBytes / 4; }
  // A barrier: the accesses before it are ordered before those after it.
  void nextInterval() {
    entries.clear();
    extents.clear();
    readRanges.clear();
    addresses.clear();
    stores = 0;
    denseLanes = 0;
  }
  // Every store of the span undone, newest first; the log empty.
  void undoAll() {
    for (size_t i = undo.size(); i-- > 0;) {
      const Undo& u = undo[i];
      if (u.to)
        std::memcpy(u.to, u.bytes <= 8 ? reinterpret_cast<const uint8_t*>(&u.old) : undoBytes.data() + u.old, u.bytes);
    }
    clear();
  }
  void clear() {
    nextInterval();
    mustUndo = false;
    firstDecision = false;
    firstDecisions.clear();
    newRound = false;
    undefinedOf = nullptr;
    undo.clear();
    undoBytes.clear();
    undoSize = 0;
    writerNotes.clear();
  }
};

// The lanes of a batch, in slot order, and their registers; or a view of lanes [from, to) of one (view()), which runs
// on its own while the batch's lanes are parted at a branch (partLanes, ops_control.cpp).
struct LaneBatch {
  WorkItem* const* items = nullptr;
  uint32_t count = 0;
  uint32_t stride = 0;      // the lanes of the whole batch: chunk c of lane l at (c * stride + l) * 8 from regs
  uint8_t* regs = nullptr;
  const LaneHandler* forms = nullptr;  // the kernel's lane forms, by Op index from `ops`
  const Op* ops = nullptr;
  LaneLog* log = nullptr;  // the span's memory record (every batch on lanes keeps one)
  LaneSets* sets = nullptr;  // a shadow run's sets of the lane registers (shadow_lanes.hpp), by the batch's lane
  uint32_t first = 0;      // the batch's lane of this view's lane 0
  // Set where the batch's lanes are work-items of consecutive local linear ids in slot order (scheduler.cpp): lane l
  // is l work-items on from local id localId0 (global id globalId0) in row-major order over localSize. Their id loads
  // are then computed, not read from each; groupId is their work-group's id (a work-item's may not be written yet).
  bool consecutiveIds = false;
  std::array<uint64_t, 3> localId0{}, globalId0{}, localSize{}, groupId{};
  // Per lane: the budget (WorkItem::budget) is base - spent (the lanes take the same edges); yieldBelow is the
  // work-item's. A lane yields at a back-edge once spent passes its margin, base - yieldBelow; they all start the
  // round with margin `slice` (scheduler.cpp), so they yield together unless they parted and met again.
  int64_t* base = nullptr;
  int64_t* yieldBelow = nullptr;
  const Op** pcs = nullptr;  // per lane, where it stands when the lanes parted for good (`parted`)
  int64_t spent = 0, slice = 0;  // slice: the round's instructions (scheduler.cpp kInterleaveSlice)
  int64_t minBudget = 0, minMargin = 0, maxMargin = 0;  // bounds over the lanes (measure())
  // Set when a lane form returns nullptr: every lane returned (at Op `at`), every lane waits at work-group barrier
  // `at` (atBarrier), every lane yielded at a back-edge to Op `at` (yielded), the lanes stand at Ops of their own in
  // `pcs` (parted), or lanes [0, stop) ran Op `at` and the others did not.
  bool returned = false, atBarrier = false, yielded = false, parted = false;
  uint32_t stop = 0;
  const Op* at = nullptr;

  // Lane 0's bytes of register byte `reg`; lane l's are 8·l further.
  uint8_t* lane0(uint32_t reg) const { return regs + (size_t(reg >> 3) * stride) * 8 + (reg & 7); }
  // minBudget and the margins, from the lanes' base and yieldBelow. Elsewhere they are bounds: a view takes its batch's
  // and lanes that meet again take the wider of their sides' (measureParts), so that parting and meeting costs no pass
  // over the lanes. Bounds wider than the lanes' own only stop the lanes sooner (ops_control.cpp edgeOnLanesStops),
  // where each lane goes on alone with its own budget: the same steps.
  void measure() {
    // Locals, not the members: stores to a member inside the loop could alias base[] and keep it from vectorising.
    int64_t lowBudget = INT64_MAX, lowMargin = INT64_MAX, highMargin = INT64_MIN;
    const int64_t* const bs = base;
    const int64_t* const ys = yieldBelow;
    for (uint32_t l = 0; l < count; ++l) {
      lowBudget = std::min(lowBudget, bs[l]);
      lowMargin = std::min(lowMargin, bs[l] - ys[l]);
      highMargin = std::max(highMargin, bs[l] - ys[l]);
    }
    minBudget = lowBudget, minMargin = lowMargin, maxMargin = highMargin;
  }
  // The bounds of a batch whose lanes are those of views x and y, both rebased (partLanes, ops_control.cpp).
  void measureParts(const LaneBatch& x, const LaneBatch& y) {
    minBudget = std::min(x.minBudget, y.minBudget);
    minMargin = std::min(x.minMargin, y.minMargin);
    maxMargin = std::max(x.maxMargin, y.maxMargin);
  }
  // Lanes [from, to) on their own, from where the batch stands.
  LaneBatch view(uint32_t from, uint32_t to) const {
    LaneBatch v;
    v.items = items + from;
    v.count = to - from;
    v.stride = stride;
    v.regs = regs + size_t(from) * 8;
    v.forms = forms;
    v.ops = ops;
    v.log = log;
    v.sets = sets;
    v.first = first + from;
    v.consecutiveIds = consecutiveIds;
    v.localId0 = localId0;
    v.globalId0 = globalId0;
    v.localSize = localSize;
    v.groupId = groupId;
    v.base = base + from;
    v.yieldBelow = yieldBelow + from;
    v.pcs = pcs + from;
    v.spent = spent;
    v.slice = slice;
    v.minBudget = minBudget, v.minMargin = minMargin, v.maxMargin = maxMargin;
    return v;
  }
  // The budget spent so far into each lane's base (and the bounds: a margin is base - yieldBelow).
  void rebase() {
    if (spent == 0) return;
    if (log) log->budgetsMoved = true;
    int64_t* const bs = base;
    const int64_t by = spent;
    for (uint32_t l = 0; l < count; ++l) bs[l] -= by;
    minBudget -= by, minMargin -= by, maxMargin -= by;
    spent = 0;
  }
};

template <class T> inline T rdLane(const uint8_t* p, uint32_t l) {
  T v;
  std::memcpy(&v, p + size_t(l) * 8, sizeof(T));
  return v;
}
template <class T> inline void wrLane(uint8_t* p, uint32_t l, T v) { std::memcpy(p + size_t(l) * 8, &v, sizeof(T)); }
// n bytes of lane l between register `reg` and memory (register ranges are 8-aligned when they span chunks).
inline void laneToMemory(const LaneBatch& b, uint32_t reg, uint32_t l, uint8_t* out, uint32_t n) {
  for (uint32_t at = 0; at < n; at += 8)
    std::memcpy(out + at, b.lane0(reg + at) + size_t(l) * 8, n - at < 8 ? n - at : 8);
}
inline void memoryToLane(const LaneBatch& b, uint32_t reg, uint32_t l, const uint8_t* in, uint32_t n) {
  for (uint32_t at = 0; at < n; at += 8)
    std::memcpy(b.lane0(reg + at) + size_t(l) * 8, in + at, n - at < 8 ? n - at : 8);
}
// Register `src` to `dst` (n bytes) in every lane: whole chunks (a register owns the rest of its last chunk).
inline void copyLanes(const LaneBatch& b, uint32_t dst, uint32_t src, uint32_t n) {
  if ((dst & 7) == 0 && (src & 7) == 0) {
    for (uint32_t at = 0; at < n; at += 8) std::memcpy(b.lane0(dst + at), b.lane0(src + at), size_t(b.count) * 8);
    return;
  }
  for (uint32_t l = 0; l < b.count; ++l)
    for (uint32_t i = 0; i < n; ++i) b.lane0(dst + i)[size_t(l) * 8] = b.lane0(src + i)[size_t(l) * 8];
}

// Whether a lane form may run in a shadow run (interpreter/shadow.hpp, shadow_lanes.hpp): Neutral where the handler's
// own shadow work is done on lanes too (an edge's copies move their sets: shadowEdgeMove) or there is none;
// NotInShadow where it does shadow work its lane form does not do (an image's record of its writes and reads).
enum class LaneShadow : uint8_t { Neutral, NotInShadow };
// The lane form of handler `h`, or nullptr when it has none (or, in a shadow run, none that may run there).
LaneHandler laneFormOf(Handler h, bool shadow = false);
// Whether lane form h reads the lanes' work-item ids from their WorkItems (a builtin computed from them), beyond the ids
// a batch of consecutive work-items gives (LaneBatch::consecutiveIds) and the work-group's.
bool readsWorkItemIdentity(LaneHandler h);
void registerLaneForm(Handler h, LaneHandler lanes, LaneShadow shadow = LaneShadow::Neutral);

// Lanes [0, k) ran `op`, the others did not: they leave the lanes here.
inline const Op* stopBefore(LaneBatch& b, const Op* op, uint32_t k) {
  b.stop = k;
  b.at = op;
  return nullptr;
}
// The lanes cannot go on in an order that gives what the one-by-one order gives: the span is undone and runs one by
// one (LaneLog::mustUndo).
inline const Op* undoSpan(LaneBatch& b, const Op* op) {
  b.log->mustUndo = true;
  return stopBefore(b, op, 0);
}
// A memory Op whose access at lane k is off the fast path: lanes [0, k) ran it. With the uninitialised-value checker,
// the shadow Op after it must run for them on lanes too (the one-by-one one reads the accesses the instruction
// recorded there): the span is undone instead.
inline const Op* stopAccess(LaneBatch& b, const Op* op, uint32_t k) {
  if (k > 0 && b.log && b.log->undefinedShadows) [[unlikely]]
    return undoSpan(b, op);
  return stopBefore(b, op, k);
}
// Lane k of `op` decides choice c: counted (true), as noteChoice would; a work-group's first decision is kept in the
// log (LaneLog::firstDecisions). After a new round began on lanes, the lanes stop before lane k instead, which runs
// alone and makes the work-group's first decision (false; the caller returns stopBefore(b, op, k)).
bool decideOnLanes(LaneBatch& b, const Op* op, uint32_t k, numerics::Choice c, const char* what);
// An Op without a lane form: no lane runs it here.
const Op* leaveLanes(LaneBatch& b, const Op* op);

// Lane forms of the lane-wise handlers of ops_common.hpp (unary1/unaryLanes, binary1/binaryLanes, ternaryLanes) for
// functors that neither fault, warn nor decide a choice: op->n elements, or one for the scalar handlers (Scalar).
// The lanes' loops read count, items and the operand arrays into locals and mark the arrays __restrict: a result is a
// register of its own (SSA), and a store through a byte pointer would otherwise be assumed to change the batch.
template <class R, class T, class F, bool Scalar>
CLREF_AVX2_TEMPLATE_CLONES const Op* unaryOnLanes(LaneBatch& b, const Op* op) {
  const uint32_t n = Scalar ? 1 : op->n, count = b.count;
  WorkItem* const* const items = b.items;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* __restrict r = b.lane0(op->r + i * sizeof(R));
    const uint8_t* __restrict a = b.lane0(op->a + i * sizeof(T));
    for (uint32_t l = 0; l < count; ++l) wrLane<R>(r, l, F::apply(*items[l], op, rdLane<T>(a, l)));
  }
  return op + 1;
}
template <class R, class T, class F, bool Scalar>
CLREF_AVX2_TEMPLATE_CLONES const Op* binaryOnLanes(LaneBatch& b, const Op* op) {
  const uint32_t n = Scalar ? 1 : op->n, count = b.count;
  WorkItem* const* const items = b.items;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* __restrict r = b.lane0(op->r + i * sizeof(R));
    const uint8_t* __restrict x = b.lane0(op->a + i * sizeof(T));
    const uint8_t* __restrict y = b.lane0(op->b + i * sizeof(T));
    for (uint32_t l = 0; l < count; ++l) wrLane<R>(r, l, F::apply(*items[l], op, rdLane<T>(x, l), rdLane<T>(y, l)));
  }
  return op + 1;
}

// Handler F with its lane form Lanes, registered the first time: for the handler choices of a lowering function
// (`return laneForm<&binary1<R, T, F>, &binaryOnLanes<R, T, F, true>>();`).
template <Handler F, LaneHandler Lanes, LaneShadow S = LaneShadow::Neutral> Handler laneForm() {
  static const bool registered = (registerLaneForm(F, Lanes, S), true);
  (void)registered;
  return F;
}

// accessFast for the lanes of a batch in turn, with what they share read once: the pointer layout, and the last
// allocation met where every work-item's table holds the same one (global and local memory; private memory is each
// work-item's own). Each access of global or local memory goes into the batch's LaneLog (one entry for the Op), and
// each store's old bytes; a full log stops the lanes as an access off the fast path does.
struct LaneAccess {
  WorkItem* const* items;
  uint64_t tagShift, offsetMask, allocLimit;
  uint64_t sharedTag = UINT64_MAX;
  const Allocation* shared = nullptr;
  LaneLog* log;
  uintptr_t* touched;  // the log entry's addresses
  LaneLog::Extent extent;  // of the entry's addresses so far, written to the log at the end of the Op
  uintptr_t end = 0;       // the last address's end
  LaneLog::UndefinedAt* undefined;  // with the uninitialised-value checker (LaneLog::undefinedFor)
  LaneAccess(const LaneBatch& b, uint32_t bytes, bool store)
      : items(b.items), tagShift(b.items[0]->tagShift), offsetMask(b.items[0]->offsetMask),
        allocLimit(b.items[0]->laneAllocLimit), log(b.log),
        touched(b.log ? b.log->begin(b.first, b.count, bytes, store) : nullptr),
        undefined(b.log ? b.log->undefinedFor(b.count, bytes) : nullptr) {}
  ~LaneAccess() {
    if (touched) log->extents.back() = extent;
  }
  LaneAccess(const LaneAccess&) = delete;
  LaneAccess& operator=(const LaneAccess&) = delete;
  // Lane l's host address of `bytes` at `ptr`, or nullptr where access() would take accessSlow.
  template <bool Store> uint8_t* at(uint32_t l, uint64_t ptr, uint64_t bytes, uint32_t align) {
    const uint64_t tag = ptr >> tagShift, off = ptr & offsetMask;
    const Allocation* A = shared;
    bool own = false;  // a work-item's own memory: no other lane reaches it
    if (tag != sharedTag) [[unlikely]] {
      if (tag == 0 || tag >= allocLimit) return nullptr;
      A = &items[l]->allocs[tag];
      if (A->storage == spv::StorageClass::CrossWorkgroup || A->storage == spv::StorageClass::Workgroup) {
        sharedTag = tag;
        shared = A;
      } else {
        own = A->storage == spv::StorageClass::Function || A->storage == spv::StorageClass::Private ||
              A->storage == spv::StorageClass::Input;
      }
    }
    if (off + bytes <= A->size && (off & (align - 1)) == 0 && !(Store && A->readOnly)) [[likely]] {
      uint8_t* p = A->base + off;
      if (log) {
        if (!touched) [[unlikely]]
          return nullptr;
        if (!own) {
          touched[l] = uintptr_t(p);
          extent.add(uintptr_t(p), uint32_t(bytes), end);
        }
        if constexpr (Store) log->save(l, p, uint32_t(bytes));
        if (undefined) [[unlikely]]
          undefined[l] = LaneLog::undefinedIn(*A, off);
      }
      return p;
    }
    return nullptr;
  }
};

// access()'s fast path alone: the host address, or nullptr where access() would take accessSlow (which may fault,
// warn or decide a choice: the lane leaves the batch before it).
inline uint8_t* accessFast(WorkItem& wi, uint64_t ptr, uint64_t bytes, uint32_t align, bool write) {
  const uint64_t tag = ptr >> wi.tagShift;
  const uint64_t off = ptr & wi.offsetMask;
  if (tag != 0 && tag < wi.laneAllocLimit) [[likely]] {
    const Allocation& A = wi.allocs[tag];
    if (off + bytes <= A.size && (off & (align - 1)) == 0 && !(write && A.readOnly)) [[likely]]
      return A.base + off;
  }
  return nullptr;
}

}  // namespace clref::interpreter
