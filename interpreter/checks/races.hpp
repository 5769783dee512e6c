// The data-race checker (CLREF_CHECKS=races): conflicting accesses to local and global memory that nothing orders.
// Internal to the interpreter; CheckRun drives it.
#pragma once
#include <cstdint>
#include <vector>

#include "interpreter/checks/check_run.hpp"
#include "interpreter/checks/zeroed_array.hpp"

namespace clref::interpreter {

// OpenCL 3.0 API §3.3.7 [[memory-consistency-model]] (and §3.3.6 [[_memory_consistency_model_for_opencl_1_x]] for
// 1.x): two accesses to the same location by different work-items, at least one a write, race unless both are
// atomic (with a scope that includes both work-items) or one happens before the other. Within a work-group a barrier
// whose memory semantics name the location's address space (CLK_LOCAL_MEM_FENCE: WorkgroupMemory,
// CLK_GLOBAL_MEM_FENCE: CrossWorkgroupMemory; OpenCL C 3.0 §6.15.8 [[synchronization-functions]]) orders the
// accesses before it and after it; between work-groups of one launch nothing but atomics does.
//
// Per byte (or 4-byte granule) of local and global memory it keeps the last write and the latest unordered reads as
// (instruction, work-item, epoch). Epochs count work-group starts and barriers, one counter per address space: an
// access of an earlier epoch of the same work-group is ordered before the current one, an access of an earlier
// work-group is not (for global memory; local memory starts over with every group). Of several unordered reads of one
// epoch, the one a report names is that of the lowest work-item (its first): the one-by-one order's first reader, which
// lanes, running each Op for every lane before the next, would otherwise not keep. Release/acquire synchronisation
// between work-items through atomics without a barrier is not modelled: such accesses are reported.
class RaceChecker {
 public:
  explicit RaceChecker(CheckRun& run);
  void groupStart();
  void barrier(const Op* at);
  void access(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, uint64_t bytes, bool write);
  // Accesses made on lanes (scheduler.cpp feedLaneAccesses), each the same as access() in turn: lanes[lane]'s access
  // (laneAccess); lanes first + i, i < count, touched bytes [off + i·bytes, off + (i + 1)·bytes) (accessDense, a
  // dense entry of the lane log); lanes first + i read bytes [off, off + bytes) (readShared). `size`: the
  // allocation's.
  void laneAccess(LaneItems& lanes, uint32_t lane, const Op* op, uint32_t tag, uint64_t size, uint64_t off,
                  uint32_t bytes, bool write);
  void accessDense(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag, uint64_t size,
                   uint64_t off, uint32_t bytes, bool write);
  void readShared(LaneItems& lanes, uint32_t first, uint32_t count, const Op* op, uint32_t tag, uint64_t size,
                  uint64_t off, uint32_t bytes);

 private:
  enum Space : uint8_t { Local = 0, Global = 1 };
  // One recorded access in 8 bytes, so that the state of a buffer costs 2 bytes per byte of it (clearing it is most
  // of the checker's cost on a kernel that does little else): the epoch, the accessing instruction as a site (an
  // index into sites_), the work-item's local linear id.
  struct Access {
    uint32_t epoch = 0;
    uint16_t site = 0;  // sites_ index + 1, and kSeveral; 0: none
    uint16_t item = 0;  // local linear id (kRaceCheckerMaxGroupSize)
  };
  static constexpr uint16_t kSeveral = 0x8000, kSiteMask = 0x7fff;
  struct ByteState {
    Access write, read;
  };
  // The instructions that accessed local or global memory, in the order they first did, with their atomic scope (0
  // plain, 1 work-group, 2 wider). Past kSiteMask - 3 of them, the last three sites stand for "another instruction"
  // of each scope.
  struct Site {
    uint32_t inst;  // instruction index; UINT32_MAX for the shared sites
    int8_t scope;
  };
  std::vector<Site> sites_;
  // Per instruction, looked up once per access: its site + 1 (0 before its first access) and its atomic scope.
  struct InstSite {
    uint16_t site = 0;
    int8_t scope = 0;
  };
  std::vector<InstSite> siteOf_;
  InstSite firstAccess(uint32_t inst);  // an instruction's first access: its scope and a new site
  // A new site (+ 1) for the instruction; past the first kSiteMask - 3, the shared one of its scope.
  uint16_t siteFor(uint32_t inst, int8_t scope);
  const Site& site(const Access& a) const { return sites_[(a.site & kSiteMask) - 1]; }
  CheckRun& run_;
  // A block of kBlockGranules granules whose accesses were dense (consecutive work-items, each the same power of two
  // of granules, in order) is kept as one write and one read with the first granule's work-item: granule g's is
  // item + (g >> shift). 20 bytes instead of 16 cells' 256: zeroing the state of a buffer at its first access was most
  // of a checked vadd's time. Any other access expands the block into its cells first.
  static constexpr uint64_t kBlockGranules = 16, kBlockBytes = kBlockGranules * 4;
  struct Block {
    Access write, read;
    uint8_t writeShift = 0, readShift = 0;
    bool expanded = false;
  };
  // Per allocation tag, created at its first access: blocks and a cell per 4-byte granule while every access covers
  // whole granules (ints, floats and wider: most buffers), a cell per byte from the first access that does not. The
  // cells' pages are touched only where a block is expanded.
  struct Cells {
    ZeroedArray<Block> blocks;
    ZeroedArray<ByteState> cells;
    uint32_t shift = 2;
  };
  std::vector<Cells> state_;
  void prepare(Cells& c, uint64_t size) {
    if (c.cells.empty()) [[unlikely]]
      allocate(c, size);
  }
  void allocate(Cells& c, uint64_t size);
  void expand(Cells& c, uint64_t block);
  // The dense access of work-items item .. item + 15 >> shift (whole granules each) to every granule of a block that
  // is not expanded, where its outcome is the same for every granule and no access races: false (nothing changed)
  // where it is not.
  bool blockAccess(Block& b, Space s, uint16_t site, uint16_t item, uint8_t shift, bool write) const;
  // An instruction's site and scope: one lookup per access, computed at its first.
  InstSite instSite(uint32_t inst) {
    if (siteOf_.empty()) [[unlikely]]
      siteOf_.resize(run_.kernel.module->instructions.size());
    InstSite& is = siteOf_[inst];
    if (!is.site) [[unlikely]]
      is = firstAccess(inst);
    return is;
  }
  void splitToBytes(Cells& c, uint64_t size);
  std::vector<int8_t> space_;  // per tag: Local, Global, or -1 (private, constant: no races)
  uint32_t epoch_[2] = {0, 0};
  uint32_t groupBase_[2] = {0, 0};         // the epoch the current work-group started with
  std::vector<uint32_t> groupOfEpoch_[2];  // epoch → work-group (linear), for reports
  std::vector<int8_t> atomicScope_;        // per instruction: 0 not atomic, 1 work-group scope, 2 wider
  bool scopesWritten_ = false;             // from OpenCL C 2.0 or later (atomicScopeOf)
  void advance(Space s);
  int8_t atomicScopeOf(uint32_t inst);
  // Whether a recorded access is unordered with an access of work-item `item` in the current epoch.
  bool unordered(const Access& a, Space s, uint16_t item) const {
    if (!a.site) return false;
    if (a.epoch < groupBase_[s]) return s == Global;  // an earlier work-group (local memory started over since)
    if (a.epoch < epoch_[s]) return false;            // before a barrier of this work-group
    return a.item != item || (a.site & kSeveral);
  }
  // The access being checked: its first byte and size.
  struct AccessRange {
    uint64_t off, bytes;
  };
  // The first recorded access an access races with: at byte `at`.
  struct Found {
    uint64_t at = 0;
    Access other;
    bool otherWrite = false;
  };
  // The per-granule rules: records work-item `item`'s access in allocation `tag` (of `size` bytes); true with the
  // first conflict in `found` where it races.
  bool record(uint32_t tag, uint64_t size, InstSite is, uint16_t item, uint64_t off, uint64_t bytes, bool write,
              Found& found);
  void conflict(WorkItem& wi, const Op* op, uint32_t tag, uint64_t off, AccessRange range, bool write,
                const Access& other, bool otherWrite, Space s);
};

}  // namespace clref::interpreter
