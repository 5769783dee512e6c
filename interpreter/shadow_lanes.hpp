// The shadow mode's rules on lanes (lanes.hpp). Internal to the interpreter.
//
// The sets of the values in registers move beside the lane registers: while a shadow run's batch runs on lanes, the
// entries (ShadowEntry) of its work-items' registers are kept in a set file (LaneSets) by lane and 4-byte quad of the
// register file, not in the map (ShadowRun) by host address, so that a rule reads an operand's set with one look at a
// byte per lane and computes the sets of a whole batch. The map keeps memory's sets (the buffers, local and private
// memory): a load reads them from there. The file takes the registers' entries from the map when the registers go on
// lanes (LaneSets::gather) and gives them back when they go back to their work-items (LaneSets::flush); an undone span
// drops it (the map still holds what the registers held when the span began).
//
// Why this keeps the shadow run's results: a rule on lanes computes, for each lane, what the one-by-one rule computes
// from the same operands' sets (shadowFloatSet is shared), and writes the entries the one-by-one rule would write into
// the map, into the file instead. A store puts a value's entries into memory that held none, and notes the range
// (LaneSets::storedSets). Whatever else would change the map (a store over memory with sets, a decision, an open
// allocation, an entry of a shape the file does not hold) stops the lanes before the lane that would do it, and that
// lane runs the rule alone, after the file went back into the map, as it would have. An undone span then drops the
// file and clears the noted ranges: the map is as it was when the span began. Lane forms whose handlers do shadow work
// of their own (images) do not run in a shadow run (LaneShadow::NotInShadow).
#pragma once
#include <cstdint>
#include <vector>

#include "interpreter/lanes.hpp"
#include "interpreter/shadow.hpp"

namespace clref::interpreter {

// A shadow run may run on lanes: no allocation is open, no choice has freed a result and the run is not perturbed
// (a perturbed run's rules draw from the sets).
inline bool shadowLaneable(const ShadowRun& s) {
  return s.openAllocations.empty() && s.choiceFreedInst == UINT32_MAX && !s.perturbSeed && !s.choices;
}

// The entries of the lane registers of a batch: lane l's entry that starts at register byte 4·q is entries[q·stride +
// l], where flags[q·stride + l] is kStart; an 8-byte entry's second quad is kSecond. The file holds entries of 4 and 8
// bytes at register bytes of their own alignment (a float, a double, a float vector's component): the registers' lanes.
struct LaneSets {
  static constexpr uint8_t kNone = 0, kStart = 1, kSecond = 2;
  uint32_t stride = 0;  // the batch's lanes
  uint32_t quads = 0;   // of the register file
  std::vector<uint8_t> flags;
  std::vector<ShadowEntry> entries;
  bool live = false;  // the file holds the sets of the lanes' registers (between gather and flush or drop)
  // The memory ranges that stores on lanes gave entries, which held none before: an undone span clears them.
  std::vector<std::pair<uint8_t*, uint32_t>> storedSets;
  bool used = false;  // some flag may be set

  // An empty file for `lanes` lanes of `registerBytes` bytes each (live).
  void begin(uint32_t lanes, size_t registerBytes);
  // Whether the map's entries in the registers of `items` fit the file (gather takes them all).
  static bool fits(const ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes);
  // Takes the map's entries in the registers of `items` (fits() held; the map keeps them).
  void gather(const ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes);
  // Gives each lane's entries back to its work-item's registers in the map (clearing what the map held there), and
  // ends the file.
  void flush(ShadowRun& s, WorkItem* const* items, uint32_t count, size_t registerBytes);
  // Ends the file without a word to the map (an undone span, after undoStores; lanes that returned).
  void drop() {
    if (used) std::fill(flags.begin(), flags.end(), kNone);
    used = false;
    live = false;
    storedSets.clear();
  }
  // The stores' entries of an undone span out of memory again.
  void undoStores(ShadowRun& s) {
    for (const auto& [p, n] : storedSets) s.clear(p, n);
    storedSets.clear();
  }

  uint8_t flag(uint32_t q, uint32_t lane) const { return flags[size_t(q) * stride + lane]; }
  // Whether lane `lane` has an entry in register bytes [reg, reg + n).
  bool any(uint32_t lane, uint32_t reg, uint32_t n) const {
    if (!used) return false;
    for (uint32_t q = reg / 4, end = (reg + n + 3) / 4; q < end; ++q)
      if (flag(q, lane) != kNone) return true;
    return false;
  }
  // Whether no lane of [from, from + count) has an entry in register bytes [reg, reg + n): a pass over each quad's
  // flags, lane by lane in memory (vectorised), for the batch's usual case.
  bool noneIn(uint32_t from, uint32_t count, uint32_t reg, uint32_t n) const {
    if (!used) return true;
    for (uint32_t q = reg / 4, end = (reg + n + 3) / 4; q < end; ++q) {
      const uint8_t* row = flags.data() + size_t(q) * stride + from;
      uint8_t any = 0;
      for (uint32_t l = 0; l < count; ++l) any |= row[l];
      if (any) return false;
    }
    return true;
  }
  // The lane of `bytes` at register byte `reg`: 0 when it holds exactly clref's value, 1 with its entry in `e`, -1 when
  // an entry covers part of it (the map would make it undetermined: the lanes stop).
  int lane(uint32_t lane, uint32_t reg, uint32_t bytes, const ShadowEntry*& e) const;
  // Whether register bytes [reg, reg + n) of the lane can be cleared without cutting an entry that reaches outside.
  bool clearable(uint32_t lane, uint32_t reg, uint32_t n) const;
  void clear(uint32_t lane, uint32_t reg, uint32_t n) {
    if (!used) return;
    for (uint32_t q = reg / 4, end = (reg + n + 3) / 4; q < end; ++q) flags[size_t(q) * stride + lane] = kNone;
  }
  // Whether an entry of `size` bytes fits the file at register byte `reg`.
  static bool holds(uint32_t reg, uint32_t size) { return (size == 4 || size == 8) && (reg & (size - 1)) == 0; }
  // The entry of `size` bytes at register byte reg, flagged (holds(reg, size); no entry there), for the caller to fill.
  ShadowEntry& slot(uint32_t lane, uint32_t reg, uint8_t size) {
    // The entries are made at the first: a run whose registers never hold a set needs none.
    if (entries.size() < flags.size()) [[unlikely]]
      entries.resize(flags.size());
    const size_t at = size_t(reg / 4) * stride + lane;
    flags[at] = kStart;
    if (size == 8) flags[at + stride] = kSecond;
    used = true;
    return entries[at];
  }
  // Places e at register byte reg (holds(reg, e.size); no entry there).
  void put(uint32_t lane, uint32_t reg, const ShadowEntry& e) { slot(lane, reg, e.size) = e; }
  // put() of a float's set by rule `producer`, its fields written in place (an entry built on the stack and copied
  // whole read its narrow stores wide, which stalled the lanes' loop).
  void putSet(uint32_t lane, uint32_t reg, uint8_t size, const numerics::ValueSet& set, numerics::Format format,
              uint32_t producer) {
    fillSet(slot(lane, reg, size), set, size, format, producer);
  }
  // The fields of a float's entry, each written in place.
  static void fillSet(ShadowEntry& e, const numerics::ValueSet& set, uint8_t size, numerics::Format format,
                      uint32_t producer) {
    e.set.lo = set.lo;
    e.set.hi = set.hi;
    e.set.nan = set.nan;
    e.size = size;
    e.format = format;
    e.undetermined = false;
    e.decision = 0;
    e.producer = producer;
    e.reinterpreted = false;
  }
};

// The lane forms of the shadow handlers of shadow_support.hpp, registered once (before a shadow run looks them up).
void registerShadowLaneForms();
const Op* shLoadOnLanes(LaneBatch& b, const Op* op);
const Op* shStoreOnLanes(LaneBatch& b, const Op* op);
const Op* shBranchOnLanes(LaneBatch& b, const Op* op);
const Op* shCompareOnLanes(LaneBatch& b, const Op* op);
const Op* shSelectOnLanes(LaneBatch& b, const Op* op);
const Op* shCopiesOnLanes(LaneBatch& b, const Op* op);
const Op* shGenericOnLanes(LaneBatch& b, const Op* op);
const Op* shExtractDynamicOnLanes(LaneBatch& b, const Op* op);
const Op* shInsertDynamicOnLanes(LaneBatch& b, const Op* op);
const Op* shFloatOnLanes(LaneBatch& b, const Op* op);

// The phi copies of edge e in every lane of the batch (ops_control.cpp takeEdgeOnLanes): whether their entries fit the
// file at their destinations (else the lanes stop before the branch), and the move, where they fit.
bool shadowEdgeFits(const LaneBatch& b, const Edge* e);
void shadowEdgeMove(const LaneBatch& b, const Edge* e);

inline int LaneSets::lane(uint32_t lane, uint32_t reg, uint32_t bytes, const ShadowEntry*& e) const {
  if (!used) return 0;
  const uint32_t q = reg / 4;
  const uint8_t f = flag(q, lane);
  if (holds(reg, bytes) && f == kStart) {
    e = &entries[size_t(q) * stride + lane];
    return e->size == bytes ? 1 : -1;
  }
  return any(lane, reg, bytes) ? -1 : 0;
}

inline bool LaneSets::clearable(uint32_t lane, uint32_t reg, uint32_t n) const {
  if (!used || n == 0) return true;
  const uint32_t first = reg / 4, last = (reg + n - 1) / 4;
  const uint8_t f = flag(first, lane), g = flag(last, lane);
  if ((f | g) == kNone) return true;
  // An entry that starts before the range (its second quad first in it), or one that starts in it and ends after.
  if (f == kSecond) return false;
  if (g == kStart && entries[size_t(last) * stride + lane].size == 8 && (reg + n) < last * 4 + 8) return false;
  // Part of a quad: an entry there is cut.
  if ((reg % 4 != 0 && f != kNone) || ((reg + n) % 4 != 0 && g != kNone)) return false;
  return true;
}

}  // namespace clref::interpreter
