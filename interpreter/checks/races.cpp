// The data-race checker (races.hpp).
#include "interpreter/checks/races.hpp"

#include <algorithm>
#include <bit>

#include "interpreter/checks/uninitialized.hpp"

#include "interpreter/module.hpp"
#include "interpreter/program.hpp"
#include "interpreter/shadow.hpp"

namespace clref::interpreter {

namespace {
// The value of a 32-bit OpConstant, or `otherwise`.
uint32_t constantOr(const Module& m, uint32_t id, uint32_t otherwise) {
  const Instruction* d = m.findDef(id);
  if (!d || d->opcode != spv::Op::OpConstant || d->words.size() < 4) return otherwise;
  return d->words[3];
}
}  // namespace

RaceChecker::RaceChecker(CheckRun& run) : run_(run) {
  const auto& allocs = run.kernel.allocations;
  state_.resize(allocs.size());
  space_.assign(allocs.size(), -1);
  for (size_t t = 1; t < allocs.size(); ++t) {
    const auto& d = allocs[t];
    if (d.storage == spv::StorageClass::Workgroup)
      space_[t] = Local;
    else if (d.storage == spv::StorageClass::CrossWorkgroup)
      space_[t] = Global;  // constant memory is never written: it cannot race
  }
}

void RaceChecker::advance(Space s) {
  ++epoch_[s];
  groupOfEpoch_[s].push_back(uint32_t(run_.currentGroup()));
}

void RaceChecker::groupStart() {
  for (Space s : {Local, Global}) {
    if (groupOfEpoch_[s].empty()) groupOfEpoch_[s].push_back(0);  // epoch 0: no access yet
    advance(s);
    groupBase_[s] = epoch_[s];
  }
}

// OpControlBarrier (SPIR-V 1.0 §3.32.20 [external]): Memory Semantics operand 2; WorkgroupMemory 0x100,
// CrossWorkgroupMemory 0x200 (SPIR-V 1.0 §3.25 [external]). Other collectives (work-group functions, async copies)
// order no memory.
void RaceChecker::barrier(const Op* at) {
  const Module& m = *run_.kernel.module;
  const Instruction& inst = m.instructions.at(at->inst);
  if (inst.opcode != spv::Op::OpControlBarrier) return;
  const uint32_t semantics = constantOr(m, inst.operand(2), 0x300);
  if (semantics & uint32_t(spv::MemorySemanticsMask::WorkgroupMemory)) advance(Local);
  if (semantics & uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory)) advance(Global);
}

// The scope of an atomic instruction as the race checker takes it. SPIR-V 1.0 §3.27 [external] Scope: CrossDevice 0,
// Device 1, Workgroup 2. llvm-spirv-15 translates OpenCL C 1.x's atomic functions (atomic_inc, atomic_add, …), which
// are atomic for every work-item of the device (OpenCL C 1.2 §6.12.11 "Atomic Functions"), with Workgroup scope; so
// Workgroup scope is taken as written only in a module from OpenCL C 2.0 or later, and never for OpAtomicIIncrement and
// OpAtomicIDecrement, which only the 1.x functions produce. A Vulkan shader's scopes are as written; its QueueFamily
// scope (5) holds every invocation of the dispatch, as Device does (Vulkan [[memory-model-scope]] [external]), and its
// Subgroup and Invocation scopes are taken as Workgroup.
int8_t RaceChecker::atomicScopeOf(uint32_t inst) {
  const Module& m = *run_.kernel.module;
  if (atomicScope_.empty()) {
    atomicScope_.assign(m.instructions.size(), -1);
    scopesWritten_ = m.isVulkanShader();
    for (const auto& i : m.instructions)
      if (i.opcode == spv::Op::OpSource && i.words.size() >= 3 && i.words[1] == uint32_t(spv::SourceLanguage::OpenCL_C))
        scopesWritten_ = i.words[2] >= 200000;
  }
  int8_t& s = atomicScope_.at(inst);
  if (s < 0) {
    const Instruction& i = m.instructions[inst];
    if (!isAtomicOpcode(i.opcode)) {
      s = 0;
    } else {
      const uint32_t scope = constantOr(m, i.operand(1), 1);
      const bool legacy =
          !scopesWritten_ || i.opcode == spv::Op::OpAtomicIIncrement || i.opcode == spv::Op::OpAtomicIDecrement;
      const bool deviceWide = scope <= uint32_t(spv::Scope::Device) || scope == uint32_t(spv::Scope::QueueFamily);
      s = deviceWide || legacy ? 2 : 1;
    }
  }
  return s;
}

RaceChecker::InstSite RaceChecker::firstAccess(uint32_t inst) {
  const int8_t scope = atomicScopeOf(inst);
  return {siteFor(inst, scope), scope};
}

uint16_t RaceChecker::siteFor(uint32_t inst, int8_t scope) {
  if (sites_.size() < kSiteMask - 3u) {
    sites_.push_back({inst, scope});
    return uint16_t(sites_.size());
  }
  while (sites_.size() < kSiteMask) sites_.push_back({UINT32_MAX, int8_t(sites_.size() - (kSiteMask - 3u))});
  return uint16_t(kSiteMask - 2 + scope);
}

void RaceChecker::allocate(Cells& c, uint64_t size) {
  c.cells = ZeroedArray<ByteState>((size + 3) / 4);
  c.blocks = ZeroedArray<Block>((c.cells.size() + kBlockGranules - 1) / kBlockGranules);
}

void RaceChecker::expand(Cells& c, uint64_t block) {
  Block& B = c.blocks[block];
  B.expanded = true;
  if (!B.write.site && !B.read.site) return;
  const uint64_t first = block * kBlockGranules, n = std::min(kBlockGranules, c.cells.size() - first);
  for (uint64_t g = 0; g < n; ++g) {
    ByteState& cell = c.cells[first + g];
    if (B.write.site) cell.write = {B.write.epoch, B.write.site, uint16_t(B.write.item + (g >> B.writeShift))};
    if (B.read.site) cell.read = {B.read.epoch, B.read.site, uint16_t(B.read.item + (g >> B.readShift))};
  }
}

// Inlined into access() and laneAccess(): one call per access.
[[gnu::always_inline]] inline bool RaceChecker::record(uint32_t tag, uint64_t size, InstSite is, uint16_t item, uint64_t off, uint64_t bytes,
                         bool write, Found& found) {
  const Space s = Space(space_[tag]);
  Cells& st = state_[tag];
  prepare(st, size);
  if (st.shift) {
    if ((off | bytes) & 3) [[unlikely]] {
      splitToBytes(st, size);
    } else {
      // The blocks the bytes lie in (kBlockBytes each): usually one, expanded at the first of its accesses.
      const uint64_t b = off / kBlockBytes, e = (off + bytes - 1) / kBlockBytes;
      if (!st.blocks[b].expanded || (e != b && !st.blocks[e].expanded)) [[unlikely]]
        for (uint64_t i = b; i <= e; ++i)
          if (!st.blocks[i].expanded) expand(st, i);
    }
  }
  const int8_t scope = is.scope;
  const uint16_t here = is.site;
  // Two atomics do not race when their scope holds both work-items: the same work-group, or device scope on both.
  auto exempt = [&](const Access& a) {
    const int8_t theirs = site(a).scope;
    if (!scope || !theirs) return false;
    const bool sameGroup = a.epoch >= groupBase_[s];
    return sameGroup || (scope == 2 && theirs == 2);
  };
  bool reported = false;  // the first conflicting cell is the one reported
  const uint64_t last = (off + bytes - 1) >> st.shift;
  for (uint64_t cell = off >> st.shift; cell <= last; ++cell) {
    ByteState& B = st.cells[cell];
    if (!reported) {
      if (unordered(B.write, s, item) && !exempt(B.write))
        found = {cell << st.shift, B.write, true}, reported = true;
      else if (write && unordered(B.read, s, item) && !exempt(B.read))
        found = {cell << st.shift, B.read, false}, reported = true;
    }
    const Access now{epoch_[s], here, item};
    // A plain access that can still race stays recorded when an atomic follows it: the atomic (of its own
    // work-item, or exempt from racing with other atomics) would hide it from every later atomic it races with.
    auto live = [&](const Access& a) {
      const bool earlierGroup = a.epoch < groupBase_[s];
      return a.site && !site(a).scope && (earlierGroup ? s == Global : a.epoch == epoch_[s]);
    };
    if (write) {
      if (!(scope && live(B.write))) B.write = now;
      if (!(scope && live(B.read))) B.read = {};
      continue;
    }
    if (scope && live(B.read)) continue;
    Access& R = B.read;
    const bool earlierGroup = R.site && R.epoch < groupBase_[s];
    if (!R.site || (earlierGroup && s == Local) || (!earlierGroup && R.epoch < epoch_[s]))
      R = now;  // no read that could still race: an ordered one, or one of local memory that started over
    else if (!earlierGroup && item < R.item)
      R = {now.epoch, uint16_t(here | kSeveral), item};  // the reader of the lowest work-item (races.hpp)
    else if (earlierGroup || R.item != item)
      R.site |= kSeveral;  // keep the first unordered reader for the report; a write by anyone now races
  }
  return reported;
}

void RaceChecker::access(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write) {
  if (tag >= space_.size() || space_[tag] < 0 || run_.inCollective) return;
  // The allocation's size: a buffer's or a local argument's is the launch's (the same in every work-group).
  Found f;
  if (record(tag, wi.allocs[tag].size, instSite(op->inst), uint16_t(wi.localLinearId), off, bytes, write, f))
    conflict(wi, op, tag, f.at, {off, bytes}, write, f.other, f.otherWrite, Space(space_[tag]));
}

// The per-granule rules of record() for a plain access, taken over a whole block at once: each granule's outcome is
// decided by the same comparisons where the recorded and the new work-items are the same function of the granule.
// Inlined into accessDense's loop over blocks.
[[gnu::always_inline]] inline bool RaceChecker::blockAccess(Block& B, Space s, uint16_t site, uint16_t item,
                                                            uint8_t shift, bool write) const {
  if (B.expanded) return false;
  const uint32_t epoch = epoch_[s], base = groupBase_[s];
  // No granule's recorded access is unordered with the new one (unordered() for every granule).
  auto ordered = [&](const Access& a, uint8_t aShift) {
    if (!a.site) return true;
    if (a.epoch < base) return s == Local;
    if (a.epoch < epoch) return true;
    return a.item == item && aShift == shift && !(a.site & kSeveral);
  };
  if (!ordered(B.write, B.writeShift)) return false;
  const Access now{epoch, site, item};
  if (write) {
    if (!ordered(B.read, B.readShift)) return false;
    B.write = now, B.writeShift = shift;
    B.read = {}, B.readShift = 0;
    return true;
  }
  Access& R = B.read;
  const bool earlierGroup = R.site && R.epoch < base;
  if (!R.site || (earlierGroup && s == Local) || (!earlierGroup && R.epoch < epoch)) {
    R = now, B.readShift = shift;
  } else if (earlierGroup) {
    R.site |= kSeveral;
  } else {  // a read of this epoch: several readers where the work-items differ, the lowest kept
    if (B.readShift != shift) return false;
    if (item < R.item)
      R = {epoch, uint16_t(site | kSeveral), item};
    else if (R.item != item)
      R.site |= kSeveral;
  }
  return true;
}

void RaceChecker::laneAccess(LaneItems& lanes, uint32_t lane, const Op* op, uint32_t tag, uint64_t size, uint64_t off,
                             uint32_t bytes, bool write) {
  if (tag >= space_.size() || space_[tag] < 0 || run_.inCollective) return;
  Found f;
  if (record(tag, size, instSite(op->inst), uint16_t(lanes.id(lane)), off, bytes, write, f))
    conflict(lanes.item(lane), op, tag, f.at, {off, bytes}, write, f.other, f.otherWrite, Space(space_[tag]));
}

void RaceChecker::accessDense(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag,
                              uint64_t size, uint64_t off, uint32_t bytes, bool write) {
  if (!count || tag >= space_.size() || space_[tag] < 0 || run_.inCollective) return;
  Cells& st = state_[tag];
  prepare(st, size);
  const InstSite is = instSite(op->inst);
  const uint32_t granules = bytes / 4;
  // Blocks at once where each work-item's granules are a power of two that starts its share of a block.
  const bool blocks = st.shift == 2 && !is.scope && bytes % 4 == 0 && off % 4 == 0 && granules &&
                      granules <= kBlockGranules && !(granules & (granules - 1)) && (off / 4) % granules == 0;
  const Space s = Space(space_[tag]);
  const uint8_t shift = uint8_t(std::countr_zero(granules));
  const uint32_t perBlock = uint32_t(kBlockGranules / (granules ? granules : 1));
  auto oneByOne = [&](uint32_t from, uint32_t to) {
    for (uint32_t l = from; l < to; ++l)
      laneAccess(lanes, first + l, op, tag, size, off + uint64_t(l) * bytes, bytes, write);
  };
  // Lanes of consecutive work-items (nearly always): the lanes before the first block boundary one by one, then whole
  // blocks, each lane i's work-item item0 + i, then the rest one by one; what the loop below does for them, without
  // asking for each block whether its lanes' work-items are consecutive.
  if (blocks)
    if (const uint64_t item0 = lanes.consecutiveFrom(first, count); item0 != UINT64_MAX) {
      const uint64_t g0 = off / 4;
      const uint64_t toBoundary = (kBlockGranules - g0 % kBlockGranules) % kBlockGranules;
      uint32_t i = uint32_t(std::min<uint64_t>(count, toBoundary / granules));
      oneByOne(0, i);
      for (Block* B = &st.blocks[(g0 + uint64_t(i) * granules) / kBlockGranules]; i + perBlock <= count;
           i += perBlock, ++B)
        if (!blockAccess(*B, s, is.site, uint16_t(item0 + i), shift, write)) oneByOne(i, i + perBlock);
      oneByOne(i, count);
      return;
    }
  for (uint32_t i = 0; i < count;) {
    const uint64_t g = off / 4 + uint64_t(i) * granules, block = g / kBlockGranules;
    // The lanes whose bytes lie in this block: its granules from g on, each lane's a power of two that divides both
    // g and the block's.
    uint32_t end = i + 1;
    if (blocks) end = uint32_t(std::min<uint64_t>(count, i + (kBlockGranules - g % kBlockGranules) / granules));
    const bool whole = blocks && g % kBlockGranules == 0 && end - i == perBlock;
    const uint64_t item = whole ? lanes.consecutiveFrom(first + i, end - i) : UINT64_MAX;
    if (!(item != UINT64_MAX && blockAccess(st.blocks[block], s, is.site, uint16_t(item), shift, write)))
      oneByOne(i, end);
    i = end;
  }
}

void RaceChecker::readShared(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag,
                             uint64_t size, uint64_t off, uint32_t bytes) {
  // After two work-items' reads, the bytes' read is one of several of this epoch (or of an earlier work-group of
  // global memory): a further plain read changes nothing unless its work-item is lower than the one recorded, and
  // races only with a recorded write it is unordered with.
  if (!count || tag >= space_.size() || space_[tag] < 0 || run_.inCollective) return;
  const Space s = Space(space_[tag]);
  Cells& st = state_[tag];
  prepare(st, size);
  const bool plain = !instSite(op->inst).scope;
  const uint64_t firstCell = off >> st.shift, lastCell = (off + bytes - 1) >> st.shift;
  // Lanes [from, count) at once where no cell's state depends on which work-item reads: its write ordered before them
  // all (or none), its read one of several kept whatever they are (of an earlier group, or of this epoch by a
  // work-item below theirs, the lowest being that of lane `first + from` where their ids are consecutive).
  auto changeNothing = [&](uint32_t from) {
    bool all = plain;
    uint64_t lowest = UINT64_MAX;
    for (uint64_t c = firstCell; all && c <= lastCell; ++c) {
      const ByteState& B = st.cells[c];
      const Access& W = B.write;
      const bool writeOrdered = !W.site || (W.epoch < groupBase_[s] ? s == Local : W.epoch < epoch_[s]);
      const Access& R = B.read;
      bool readKept = (R.site & kSeveral) && (R.epoch < groupBase_[s] ? s == Global : R.epoch == epoch_[s]);
      if (readKept && R.epoch >= groupBase_[s]) {
        if (lowest == UINT64_MAX) lowest = lanes.consecutiveFrom(first + from, count - from);
        readKept = lowest != UINT64_MAX && R.item <= lowest;
      }
      all = writeOrdered && readKept;
    }
    return all;
  };
  // Bytes that other work-items read already (a row of a matrix every work-group reads): not even the first two.
  if (st.cells.size() > lastCell && changeNothing(0)) return;
  uint32_t i = 0;
  for (; i < count && i < 2; ++i) laneAccess(lanes, first + i, op, tag, size, off, bytes, false);
  if (i == count || changeNothing(i)) return;
  for (; i < count; ++i) {
    const uint16_t item = uint16_t(lanes.id(first + i));
    bool nothing = plain;
    for (uint64_t c = firstCell; nothing && c <= lastCell; ++c) {
      const ByteState& B = st.cells[c];
      const bool kept = B.read.epoch < groupBase_[s] ? s == Global : B.read.epoch == epoch_[s] && B.read.item <= item;
      nothing = (B.read.site & kSeveral) && kept && !unordered(B.write, s, item);
    }
    if (!nothing) laneAccess(lanes, first + i, op, tag, size, off, bytes, false);
  }
}

// Every block is expanded first: cells per byte keep no blocks.
void RaceChecker::splitToBytes(Cells& c, uint64_t size) {
  for (uint64_t b = 0; b < c.blocks.size(); ++b)
    if (!c.blocks[b].expanded) expand(c, b);
  ZeroedArray<ByteState> bytes(size);
  for (uint64_t b = 0; b < size; ++b) bytes[b] = c.cells[b >> 2];
  c.cells = std::move(bytes);
  c.shift = 0;
}

void RaceChecker::conflict(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, AccessRange range, bool write,
                           const Access& other, bool otherWrite, Space s) {
  const std::string kinds = std::string(otherWrite ? "write" : "read") + "-" + (write ? "write" : "read");
  const bool otherGroup = other.epoch < groupBase_[s];
  const Site& them = site(other);
  const std::string self = std::string(atomicScope_[op->inst] ? "atomic " : "") + (write ? "write" : "read");
  const std::string theirs = std::string(them.scope ? "an atomic " : "a ") + (otherWrite ? "write" : "read");
  std::string msg = kinds + " race on " + allocationName(run_.kernel, tag) + " at byte offset " + std::to_string(off) +
                    ": this " + self + " and " + theirs + " by " +
                    (otherGroup ? "a work-item of another work-group" : "another work-item of the work-group") +
                    (other.site & kSeveral ? " (one of several readers)" : "") + " with nothing ordering them";
  if (otherGroup)
    msg += std::string(" (work-groups of one launch are ordered by nothing but atomics of device scope") +
           (atomicScope_[op->inst] == 1 || them.scope == 1
                ? "; an atomic here has memory_scope_work_group, which does not reach other work-groups)"
                : ")");
  else
    msg += std::string(" (no barrier with ") + (s == Local ? "CLK_LOCAL_MEM_FENCE" : "CLK_GLOBAL_MEM_FENCE") +
           " between them)";
  if (them.inst == UINT32_MAX)
    msg += " (the other access is by one of the instructions past the first 32 764 that accessed memory: not named)";
  Diagnostic at = diagnosticAt(wi, op, msg);
  at.kind = FaultKind::DataRace;
  const uint32_t group = other.epoch < groupOfEpoch_[s].size() ? groupOfEpoch_[s][other.epoch] : 0;
  const uint32_t otherInst = them.inst == UINT32_MAX ? op->inst : them.inst;
  const Diagnostic o = run_.diagnosticOf(group, other.item, otherInst, FaultKind::DataRace,
                                         std::string("the ") + (otherWrite ? "write" : "read"));
  if (wi.shadow) [[unlikely]] {
    // A run judging another device's output (interpreter/shadow.hpp): "any such data race results in undefined
    // behavior" (OpenCL 3.0 API §3.3.7 [[memory-consistency-model]]); clref takes the race as a decision the device
    // may have taken otherwise. Two plain writes leave the bytes either wrote open; a read in a race may have read the other
    // value on the device, and everything computed from it may differ.
    ShadowRun& sh = *wi.shadow;
    const uint32_t decision = recordShadowDecision(wi, op, at.message);
    if (write && otherWrite && !atomicScope_[op->inst] && !them.scope) {
      const uint8_t* p = wi.allocs[tag].base + range.off;
      auto& [end, d] = sh.racedWrites[p];
      if (p + range.bytes > end) end = p + range.bytes, d = decision;
    } else if (!sh.racedRead) {
      sh.racedRead = decision;
    }
  }
  run_.report(FaultKind::DataRace, op->inst, std::move(at), &o, them.inst == UINT32_MAX ? 0 : them.inst + 1);
}

}  // namespace clref::interpreter
