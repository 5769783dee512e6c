// The lane executor's registry of lane forms (lanes.hpp): filled by the lowering functions as they pick handlers.
#include "interpreter/lanes.hpp"

#include "interpreter/lane_stats.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace clref::interpreter {

namespace {
struct LaneForms {
  std::mutex mu;
  std::unordered_map<Handler, std::pair<LaneHandler, LaneShadow>> forms;
};
LaneForms& laneForms() {
  static LaneForms f;
  return f;
}
}  // namespace

void registerLaneForm(Handler h, LaneHandler lanes, LaneShadow shadow) {
  auto& f = laneForms();
  std::lock_guard lock(f.mu);
  f.forms.emplace(h, std::pair{lanes, shadow});
}

LaneHandler laneFormOf(Handler h, bool shadow) {
  auto& f = laneForms();
  std::lock_guard lock(f.mu);
  const auto it = f.forms.find(h);
  if (it == f.forms.end() || (shadow && it->second.second == LaneShadow::NotInShadow)) return nullptr;
  return it->second.first;
}

const Op* leaveLanes(LaneBatch& b, const Op* op) { return stopBefore(b, op, 0); }

bool decideOnLanes(LaneBatch& b, const Op* op, uint32_t k, numerics::Choice c, const char* what) {
  WorkItem& wi = *b.items[k];
  LaneLog& g = *b.log;
  if (!wi.choiceTally) {
    noteChoice(wi, op, c, what);
    return true;
  }
  const uint32_t lane = b.first + k;
  auto count = [&] {
    if (wi.shadow) [[unlikely]]
      shadowNoteChoice(wi, op, c);
    ++wi.choiceTally->count[size_t(c)];
  };
  // A decision of a choice the span's lanes decided first: the lowest lane's is the one-by-one order's first (its
  // work-item runs its whole round before the others'), and of one lane's, the earliest.
  for (LaneLog::FirstDecision& d : g.firstDecisions)
    if (d.choice == c) {
      if (lane < d.lane) d = {c, lane, op, what};
      count();
      return true;
    }
  if (wi.choiceTally->count[size_t(c)] == 0) {
    if (g.newRound) {
      g.firstDecision = true;
      return false;
    }
    g.firstDecisions.push_back({c, lane, op, what});
    count();
    return true;
  }
  noteChoice(wi, op, c, what);
  return true;
}

namespace {
struct LaneStatsTotal {
  std::mutex mu;
  LaneStats sum;
};
LaneStatsTotal& laneStatsTotal() {
  static LaneStatsTotal t;
  return t;
}
}  // namespace

LaneStats laneStats() {
  auto& t = laneStatsTotal();
  std::lock_guard lock(t.mu);
  return t.sum;
}

void addLaneStats(const LaneStats& s) {
  auto& t = laneStatsTotal();
  std::lock_guard lock(t.mu);
  t.sum.spans += s.spans;
  t.sum.barrierIntervals += s.barrierIntervals;
  t.sum.undone += s.undone;
  t.sum.returned += s.returned;
}

namespace {

// Whether lanes of entries e and f (their extents overlap; e == f: within one entry) touch the same bytes, lanes of
// their own: addresses 0 are lanes that touched no shared memory.
// The addresses of entry k: those stored, or a dense entry's made into `into`.
const uintptr_t* entryAddresses(const LaneLog& log, size_t k, std::vector<uintptr_t>& into) {
  const LaneLog::Entry& e = log.entries[k];
  if (!e.dense) return log.addresses.data() + e.at;
  into.resize(e.lanes);
  for (uint32_t i = 0; i < e.lanes; ++i) into[i] = e.denseAddress(log.extents[k].lo, i);
  return into.data();
}

bool laneEntriesConflict(LaneLog& log, size_t ei, size_t fi) {
  const LaneLog::Entry& e = log.entries[ei];
  const LaneLog::Entry& f = log.entries[fi];
  if (e.coarse || f.coarse) return e.store || f.store;  // their extents overlap
  if (e.dense && f.dense && e.bytes == f.bytes) {
    // Each lane's bytes follow the previous lane's: within one store's entry no two lanes meet, and two entries whose
    // lanes stand at the same place (lane l at the same address in both) meet only lane by lane.
    if (ei == fi) return false;
    if (e.rowLanes == 0 && f.rowLanes == 0 &&
        log.extents[ei].lo - uintptr_t(e.firstLane) * e.bytes == log.extents[fi].lo - uintptr_t(f.firstLane) * f.bytes)
      return false;
    // Entries in rows: the same rows from the same lane (a store's rows never meet: lanes.hpp Entry::rowLanes).
    if (e.rowLanes == f.rowLanes && e.rowStride == f.rowStride && e.firstLane == f.firstLane && e.lanes == f.lanes &&
        log.extents[ei].lo == log.extents[fi].lo)
      return false;
  }
  const uintptr_t* a = entryAddresses(log, ei, log.denseScratch[0]);
  const uintptr_t* b = entryAddresses(log, fi, log.denseScratch[1]);
  const bool increasing = log.extents[ei].increasing && log.extents[fi].increasing;
  if (ei == fi) {
    if (increasing) return false;
    for (uint32_t i = 0; i < e.lanes; ++i)
      for (uint32_t j = i + 1; a[i] && j < e.lanes; ++j)
        if (b[j] && a[i] < b[j] + e.bytes && b[j] < a[i] + e.bytes) return true;
    return false;
  }
  if (increasing) {
    // Two lists of disjoint byte ranges in address order: walk them together.
    uint32_t i = 0, j = 0;
    for (;;) {
      while (i < e.lanes && !a[i]) ++i;
      while (j < f.lanes && !b[j]) ++j;
      if (i == e.lanes || j == f.lanes) return false;
      const uintptr_t aEnd = a[i] + e.bytes, bEnd = b[j] + f.bytes;
      if (aEnd <= b[j]) {
        ++i;
      } else if (bEnd <= a[i]) {
        ++j;
      } else {
        if (e.firstLane + i != f.firstLane + j) return true;
        if (aEnd < bEnd)
          ++i;
        else
          ++j;
      }
    }
  }
  for (uint32_t i = 0; i < e.lanes; ++i)
    for (uint32_t j = 0; a[i] && j < f.lanes; ++j)
      if (b[j] && e.firstLane + i != f.firstLane + j && a[i] < b[j] + f.bytes && b[j] < a[i] + e.bytes) return true;
  return false;
}

}  // namespace

bool LaneLog::conflicts() {
  if (stores == 0) return false;
  for (const Extent& r : readRanges)
    for (size_t k = 0; k < entries.size(); ++k)
      if (entries[k].store && extents[k].lo < r.hi && r.lo < extents[k].hi) return true;
  auto overlap = [&](size_t i, size_t j) { return extents[i].lo < extents[j].hi && extents[j].lo < extents[i].hi; };
  // Few stores (a kernel's usual interval): each store's entry against every entry.
  if (stores * entries.size() <= 8192) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].store) continue;
      for (size_t j = 0; j < entries.size(); ++j) {
        if (entries[j].store && j < i) continue;  // that pair was seen from j
        if (overlap(i, j) && laneEntriesConflict(*this, i, j)) return true;
      }
    }
    return false;
  }
  // Otherwise the entries in address order, each against those that begin before it ends.
  order.resize(entries.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return extents[x].lo < extents[y].lo; });
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t x = order[i];
    if (extents[x].lo >= extents[x].hi) continue;
    if (entries[x].store && laneEntriesConflict(*this, x, x)) return true;
    for (size_t j = i + 1; j < order.size() && extents[order[j]].lo < extents[x].hi; ++j) {
      const uint32_t y = order[j];
      if ((entries[x].store || entries[y].store) && laneEntriesConflict(*this, x, y)) return true;
    }
  }
  return false;
}

bool LaneLog::beyondFirstLane() const {
  if (!readRanges.empty()) return true;  // recorded for batches of two lanes or more
  for (const Entry& e : entries) {
    if (e.dense || e.coarse) {
      if (e.firstLane > 0 || e.lanes > 1) return true;
      continue;
    }
    for (uint32_t l = e.firstLane == 0 ? 1 : 0; l < e.lanes; ++l)
      if (addresses[e.at + l]) return true;
  }
  return false;
}

}  // namespace clref::interpreter
