// Allowed-set propagation (the shadow mode, docs/ARCHITECTURE.md "Interpreter": shadow mode): beside clref's exact
// value, every floating-point value a work-item computes carries the set of values a conforming implementation could
// have produced at that point from the same inputs (numerics/enclosure.hpp), and every value that depends on a
// decision whose outcome those sets leave open (a comparison feeding a branch or a select, a float→int conversion,
// an address) is marked undetermined, with the decision that made it so.
//
// The shadow is a map from host addresses to entries, one per lane that is not exactly clref's value: the same map
// holds the work-items' registers, private and local memory and the buffers, so that every data movement (a load, a
// store, a phi copy, a composite extract) is one range copy in it, whatever the types. An address with no entry holds
// exactly clref's value. Kernels lowered for the shadow mode (LowerOptions::shadow) carry an extra Op after each
// value-producing instruction and before each decision (the rule its dispatch entry names, shadow_support.hpp); a
// launch with a ShadowRun runs on one thread, in the same order as always. While work-items run on lanes, their
// registers' entries are kept beside the lane registers instead (shadow_lanes.hpp LaneSets).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "images/texel.hpp"
#include "images/verdict.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/shadow_coverage.hpp"
#include "interpreter/shadow_entry_table.hpp"
#include "numerics/accuracy.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/verdict.hpp"

namespace clref::interpreter {

// One lane (of `size` bytes) whose value is not exactly clref's: a floating-point value of `format` with its allowed
// set, or (undetermined) a value of any type that depends on decision `decision` (an index into
// ShadowRun::decisions).
struct ShadowEntry {
  numerics::ValueSet set;
  uint8_t size = 0;
  numerics::Format format = numerics::Format::Float;
  bool undetermined = false;
  uint32_t decision = 0;
  uint32_t producer = UINT32_MAX;  // the instruction (Module::instructions index) whose rule gave the set
  // The lane was cut by a partial access or read over lanes of another size (its bytes reinterpreted): its set is the
  // one the bytes allow, which clref does not follow across a reinterpretation (any value).
  bool reinterpreted = false;
};

// A decision whose outcome the allowed sets leave open: the instruction, the work-item and what it decided between.
struct ShadowDecision {
  Diagnostic where;  // instruction, work-item, source line; message: e.g. "branch on a comparison of [a, b] and c"
};

// What a write_image* stored into one element in a run with a shadow, and the freedom it had: check() judges the
// elements of an image the kernel wrote from these (images::judgeWrite), since image contents carry no shadow.
struct ShadowImageWrite {
  images::Color color;  // the colour clref wrote
  images::ColorKind kind = images::ColorKind::Float;
  uint32_t instruction = 0;       // the write (Module::instructions index)
  uint32_t freedom = UINT32_MAX;  // index into ShadowRun::imageWriteFreedom when a component is not exactly clref's
};
struct ShadowImageFreedom {
  std::array<std::optional<images::ComponentSet>, 4> sets;  // per colour component: its allowed set
  std::optional<uint32_t> decision;                        // a component undetermined by this decision
};

struct EntryPoint;

struct ShadowRun {
  // What the sets allow (the verdict engine's profile and options: the device's flushing, build options).
  numerics::Profile profile = numerics::Profile::Full;
  numerics::VerdictOptions verdict;
  bool contraction = true;      // an OpFMul feeding an OpFAdd/OpFSub may be fused (FP_CONTRACT ON)
  bool madEnable = false;       // ... or computed as mad, any accuracy (-cl-mad-enable)
  bool finiteMathOnly = false;  // a NaN or infinite operand or result makes the result any value
  // A Vulkan compute shader (set by the executor from the launched entry point, useShaderRules): profile is Vulkan and
  // these are its entry point's float controls (SPV_KHR_float_controls execution modes), one bit per width: 1 for 16,
  // 2 for 32, 4 for 64 bits.
  bool shader = false;
  uint8_t denormPreserve = 0, denormFlushToZero = 0, signedZeroInfNanPreserve = 0, roundingModeRTE = 0,
          roundingModeRTZ = 0;
  void useShaderRules(const EntryPoint& entry);
  // The verdict options of values of format f: `verdict`, or a shader's for f's width (its denormal and rounding
  // modes).
  numerics::VerdictOptions verdictFor(numerics::Format f) const;
  // Whether an instruction on values of format f may assume that its operands and result are neither NaN nor
  // infinite (then a NaN or an infinity among them makes the result any value), and whether the sign of a zero
  // result is free. `preserving`: the instruction is one Vulkan lists as respecting SignedZeroInfNanPreserve.
  bool assumesFinite(numerics::Format f, bool preserving) const;
  bool anyZeroSign(numerics::Format f, bool preserving) const;

  // Any conforming device (`clref run --perturb SEED`): each value with a set is replaced by one drawn from the set
  // (its ends, clref's value, or a value between) from a stream seeded here, so the run computes one result another
  // conforming implementation could produce. Sets with an infinite end or "any value" keep clref's value.
  std::optional<uint64_t> perturbSeed;
  // The choices of a perturbed run: each choice whose options are all conforming (kind set, numerics/choices.hpp)
  // takes an option drawn from the seed; nullopt: the device's.
  std::optional<numerics::Choices> choices;
  // The instruction (Module::instructions index) whose result a choice that leaves the value free (kind free, or a
  // set not limited to its options) just decided; its shadow rule then gives the result "any value" and clears it.
  uint32_t choiceFreedInst = UINT32_MAX;
  uint64_t perturbState = 0;
  uint64_t perturbed = 0;  // values replaced

  // The last store into each byte, so that a violation can name the instruction that wrote the element. Stores are
  // logged as runs (a store that continues the last one's bytes with the same instruction extends it: a kernel whose
  // work-items store consecutive elements logs a handful), and laid out only when the log grows long or a violation
  // asks (writerOf): pages of 4096 bytes by host address, each an array of (instruction + 1) per byte, 0 for none.
  // Before, every run filled those pages as it went (a store is one write of a few values per byte, where a map node
  // per store cost a quarter of a shadow run), and zeroing them cost a third of an exact kernel's. The module the
  // instructions index (set by the executor).
  const class Module* module = nullptr;
  void noteWriter(const uint8_t* p, uint32_t bytes, uint32_t inst) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (!writerLog_.empty()) {
      WriterRun& last = writerLog_.back();
      if (last.inst == inst && last.at + last.bytes == a && last.bytes <= UINT32_MAX - bytes) {
        last.bytes += bytes;
        return;
      }
    }
    writerLog_.push_back({a, bytes, inst});
    if (writerLog_.size() >= kWriterLogLimit) [[unlikely]]
      layOutWriters();
  }
  // The instruction that last stored the byte at p, if any (lays the log out first: not for concurrent callers).
  std::optional<uint32_t> writerOf(const uint8_t* p) const;
  std::vector<ShadowDecision> decisions;
  std::unordered_map<uint32_t, uint32_t> decisionOf;  // instruction → its decision's index (the first occurrence)
  // A decision changed control flow in some work-item: another device may have written memory this run never wrote
  // (or not written what it wrote), so a value outside its set is undetermined, not a violation.
  std::optional<uint32_t> controlDecision;
  // Allocations (by host base) written at an address that depends on a decision: any of their elements may hold
  // something else on another device.
  std::map<const uint8_t*, uint32_t> openAllocations;
  uint64_t decisionCount = 0;  // every occurrence (decisions keeps the first of each instruction)
  // Images written from values with sets or undetermined (image contents have no shadow): sampled reads of them are
  // then any value (float) or undetermined (integer); a sampler-less read is open when its element's write was.
  std::vector<const void*> imagesWrittenFromSets;
  // Data races the race checker found in this run (DeviceConfig::checks with races, checks/races.cpp): the byte
  // ranges two plain writes raced on, by first byte (→ end, decision), which another device may hold either write's
  // value in; and the first race involving a read (its decision), after which any value computed may differ.
  std::map<const uint8_t*, std::pair<const uint8_t*, uint32_t>> racedWrites;
  std::optional<uint32_t> racedRead;
  // The last write into each image element, by the element's host address (an image written at coordinates that
  // depend on a decision is in openAllocations, by its first byte).
  std::unordered_map<const uint8_t*, ShadowImageWrite> imageWrites;
  std::vector<ShadowImageFreedom> imageWriteFreedom;

 private:
  static constexpr unsigned kWriterPageBits = 12;
  static constexpr size_t kWriterLogLimit = size_t(1) << 20;  // runs logged before they are laid out (16 MiB)
  struct WriterRun {
    uintptr_t at;
    uint32_t bytes, inst;
  };
  // The log and the pages are a cache of one record (the order of the stores): writerOf, const, lays them out.
  mutable std::vector<WriterRun> writerLog_;
  mutable std::unordered_map<uintptr_t, std::unique_ptr<uint32_t[]>> writerPages_;
  void layOutWriters() const;

  std::vector<std::pair<uint64_t, ShadowEntry>> staged_;  // stage(): (offset from its source, entry)
  std::vector<size_t> stagedFrom_;                        // where each staged source's entries begin in staged_
  ShadowEntryTable<ShadowEntry> entries_;  // by the host address of the lane's first byte
  ShadowCoverage coverage_;                // the bytes entries_ covers and where each starts, asked first
  mutable std::vector<uintptr_t> ordered_;  // forEachIn's starts of a long range, sorted
  // f(start, entry) for the entries that overlap [a, a + n), in address order, until f returns true; f may erase the
  // entry it is given. A range of more granules than the table has slots is answered from the table's entries.
  template <class F> void forEachIn(uintptr_t a, uint64_t n, F&& f) const;
  // The map's side of clear, lane and anyIn (where the coverage has bytes in the range).
  void clearEntries(const uint8_t* p, uint64_t n);
  // copy's side where an entry moves (fromEntries: the source's coverage has bytes) or the destination's are cleared.
  void copyEntries(uint8_t* dst, const uint8_t* src, uint64_t n, bool fromEntries);
  const ShadowEntry* laneEntry(const uint8_t* p, uint32_t size, ShadowEntry& scratch) const;
  bool anyEntryIn(const uint8_t* p, uint64_t n) const;
  // Places e at p, where no entry overlaps it.
  void place(uintptr_t p, const ShadowEntry& e) {
    entries_.put(p, e);
    coverage_.add(p, e.size);
  }
  void erase(uintptr_t p, uint8_t size) {
    coverage_.remove(p, size);
    entries_.erase(p);
  }

 public:
  // Every byte holds exactly clref's value (no entry).
  bool exact() const { return entries_.empty(); }

  // Clears [p, p + n): those bytes now hold exactly clref's value.
  void clear(const uint8_t* p, uint64_t n) {
    if (coverage_.any(reinterpret_cast<uintptr_t>(p), n)) clearEntries(p, n);
  }
  // The lane at p of `size` bytes: nullptr when exact; an entry for a lane that some other-sized or misaligned
  // entry overlaps comes back undetermined (through `scratch`).
  const ShadowEntry* lane(const uint8_t* p, uint32_t size, ShadowEntry& scratch) const {
    return coverage_.any(reinterpret_cast<uintptr_t>(p), size) ? laneEntry(p, size, scratch) : nullptr;
  }
  // lane() for a lane anyIn just found covered: no second look at the coverage.
  const ShadowEntry* coveredLane(const uint8_t* p, uint32_t size, ShadowEntry& scratch) const {
    return laneEntry(p, size, scratch);
  }
  bool anyIn(const uint8_t* p, uint64_t n) const {
    if (!coverage_.any(reinterpret_cast<uintptr_t>(p), n)) return false;
    return n <= ShadowCoverage::kExactBytes || anyEntryIn(p, n);
  }
  void set(const uint8_t* p, const ShadowEntry& e);
  // Parallel copies (phi copies, composites) take every source before putting any: stage(src, n) keeps the entries
  // of [src, src + n) by offset from src (a lane the range cuts is any value), as the next staged source (the first
  // after beginStaging); putStaged(i, dst, n) clears [dst, dst + n) and places staged source i's entries there. The
  // staging area is reused: a loop's phi copies allocate nothing.
  void beginStaging() {
    staged_.clear();
    stagedFrom_.clear();
  }
  void stage(const uint8_t* src, uint64_t n);
  void putStaged(size_t i, uint8_t* dst, uint64_t n);
  // Moves the entries of [src, src + n) to [dst, dst + n) (clearing the destination first); the ranges may overlap.
  // Most copies (a load of an input, a register of an exact value) move nothing into nothing: two looks, inline.
  void copy(uint8_t* dst, const uint8_t* src, uint64_t n) {
    const bool fromEntries = coverage_.any(reinterpret_cast<uintptr_t>(src), n);
    if (fromEntries || coverage_.any(reinterpret_cast<uintptr_t>(dst), n)) copyEntries(dst, src, n, fromEntries);
  }
  // The entries that overlap [p, p + n), by first byte in address order, appended to `out`.
  void entriesIn(const uint8_t* p, uint64_t n, std::vector<std::pair<uintptr_t, ShadowEntry>>& out) const;
  // Marks [p, p + n) undetermined by `decision` as lanes of `laneSize` bytes.
  void markUndetermined(const uint8_t* p, uint64_t n, uint32_t laneSize, uint32_t decision);
  // The first undetermined decision among the entries of [p, p + n), if any.
  std::optional<uint32_t> decisionIn(const uint8_t* p, uint64_t n) const;
};

struct WorkItem;
struct Op;
// For the instruction families that apply their own rule (images): record a decision at `op` (the first per
// instruction is kept), and give a lane its set (clref's value `reference` is always in it; with --perturb a member
// of the set replaces it when `perturbable`).
uint32_t recordShadowDecision(WorkItem& wi, const Op* op, const std::string& what);
void writeShadowLane(WorkItem& wi, const Op* op, uint8_t* p, uint8_t bytes, numerics::Format f,
                     const numerics::ValueSet& set, double reference, bool perturbable = true);

}  // namespace clref::interpreter
