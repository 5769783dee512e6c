// Running a lowered kernel over an NDRange (execute, executor.hpp): work-groups spread over
// worker threads, the work-items of a group interleaved at barriers and collectives, and the
// instruction budget.
#include "interpreter/lane_stats.hpp"
#include "interpreter/lanes.hpp"
#include "interpreter/launch_state.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/shadow_lanes.hpp"
#include "interpreter/svm.hpp"

#include "numerics/math.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

namespace clref::interpreter {

// All of a work-group's work-items start together and take turns (time slices) when they may wait for each other: at
// barriers and collectives, or through atomics (a spin on a flag another work-item sets). Otherwise they run in
// batches (kInterleavedBatch).
static bool allLive(const LoweredKernel& k) { return k.usesBarrier || k.usesAtomics; }
// Instructions a work-item runs before it yields at a loop back-edge to the others of its group.
constexpr int64_t kTimeSlice = int64_t(1) << 16;
// Instructions a work-item of a batch without barriers runs before it yields at a loop back-edge to the next slot.
constexpr int64_t kInterleaveSlice = 256;

const numerics::Choices& choicesOf(const WorkItem& wi) { return *wi.launch->choices; }

namespace {

struct Slot {
  std::vector<uint8_t> regs;
  std::vector<uint8_t> privateArena;
  std::vector<uint8_t> privateUndefined;  // the uninitialised-value checker's shadow of privateArena
  std::vector<Allocation> allocs;
  std::vector<uint8_t> imagesWritten;  // per image handle (WorkItem::imagesWritten)
  WorkItem wi;
};

// Adds the decisions of `from` (its first decisions made in work-groups fromFirstGroup, schedule positions) to `into`,
// keeping the first from the earliest group; clears `from`.
void mergeChoices(ChoiceTally& into, ChoiceGroups& intoFirstGroup, ChoiceTally& from, const ChoiceGroups& fromFirstGroup) {
  for (size_t c = 0; c < from.count.size(); ++c) {
    if (!from.count[c]) continue;
    into.count[c] += from.count[c];
    if (fromFirstGroup[c] < intoFirstGroup[c]) {
      intoFirstGroup[c] = fromFirstGroup[c];
      into.first[c] = std::move(from.first[c]);
    }
    from.count[c] = 0;
  }
}

class Worker {
 public:
  explicit Worker(LaunchState& s) : s_(s), k_(s.kernel), tracksUndefined_(s.kernel.checks.has(Check::Uninitialized)) {
    // The private arena needs starting over per work-item only when something in it is read: private variables,
    // by-value arguments, or builtin variables read through memory (a builtin loaded directly never reads its bytes).
    resetsPrivate_ = k_.privateArenaBytes && k_.fillsBuiltins;
    for (const auto& d : k_.allocations) {
      if (d.source == AllocationSource::Private || d.source == AllocationSource::ByValArg) resetsPrivate_ = true;
      // What a work-item's private memory starts with, in the order startWorkItem writes it: the initialisers of
      // Private variables, then the by-value arguments, then the builtin variables.
      if (d.source == AllocationSource::Private && !d.init.empty())
        privateInits_.push_back({d.arenaOffset, d.init.data(), d.init.size()});
    }
    for (const auto& d : k_.allocations)
      if (d.source == AllocationSource::ByValArg) {
        const auto& v = s_.args[d.argIndex].value;
        privateInits_.push_back({d.arenaOffset, v.data(), std::min<size_t>(v.size(), d.size)});
      }
    if (k_.fillsBuiltins)
      for (const auto& d : k_.allocations)
        if (d.source == AllocationSource::Builtin) builtinVariables_.push_back(&d);
    // Only read_write images are read back after writes (ops_image.cpp checkReadAfterWrite).
    for (const auto& p : k_.params)
      if (p.kind == ParamKind::Image && p.access == ImageAccess::ReadWrite) tracksImageWrites_ = true;
    // The lane executor (lanes.hpp) for a kernel without atomics (whose work-items may spin waiting for each other),
    // unless the launch's observer must see each work-item's steps in turn or CLREF_LANES=0 asks for today's path. A
    // span on lanes that a data race would make differ from the one-by-one order that checked runs keep is undone and
    // runs one by one (runLanes); the race checker is told the accesses of a span that stands (feedLaneAccesses); the
    // uninitialised-value checker's shadow Ops run on lanes while the values are defined (uninitialized.cpp). A shadow
    // run's lanes run its rules with the registers' sets in a file beside the lane registers (shadow_lanes.hpp); a
    // perturbed one's draw from the sets in the one-by-one order, never on lanes.
    const char* lanesEnv = std::getenv("CLREF_LANES");
    const bool lanesOff = lanesEnv && std::strcmp(lanesEnv, "0") == 0;
    ShadowRun* const shadow = s_.config.shadow;
    if (shadow) registerShadowLaneForms();
    const bool shadowLanes = !shadow || (!shadow->perturbSeed && !shadow->choices);
    const bool checksLanes = !s_.checks || s_.checks->lanesAllowed();
    if (!k_.usesAtomics && checksLanes && shadowLanes && !s_.config.observer && !lanesOff) {
      laneLog_.exact = s_.checks != nullptr;
      laneLog_.undefinedShadows = tracksUndefined_;
      // Without private memory to start over, the uninitialised-value checker's shadow of it (built-in variables,
      // never written) needs no reset either.
      restartable_ = !resetsPrivate_ && !tracksImageWrites_;
      laneOps_.reserve(k_.ops.size());
      laneLoss_.assign(k_.ops.size(), 0);
      for (const Op& op : k_.ops) {
        const LaneHandler h = laneFormOf(op.fn, shadow != nullptr);
        laneOps_.push_back(h ? h : &leaveLanes);
        lanesReadIdentity_ = lanesReadIdentity_ || readsWorkItemIdentity(h);
      }
    }
  }

  void run() {
    const int64_t budget = int64_t(std::min<uint64_t>(s_.config.instructionBudget, uint64_t(INT64_MAX)));
    budget_ = budget;
    // Nothing may escape a worker thread (an exception there ends the process): a work-group
    // the interpreter cannot execute ends the launch with an ExecutionFailed fault of that group.
    bool arena = false;
    for (bool more = true; more;) {
      const uint64_t first = s_.next.fetch_add(s_.chunk);
      for (uint64_t seq = first; seq < first + s_.chunk; ++seq) {
        if (seq >= s_.groupsToRun || seq > s_.faultGroup.load()) {
          more = false;
          break;
        }
        try {
          if (!arena) groupArena_.assign(s_.workgroupArenaBytes + 16, 0);
          arena = true;
          runGroup(seq);
        } catch (const std::exception& e) { failGroup(seq, e.what()); } catch (...) {
          failGroup(seq, "unknown exception");
        }
        if (s_.config.progress) s_.config.progress(s_.groupsDone.fetch_add(1) + 1, s_.groupsToRun);
      }
    }
    // The worker thread ends here: release its MPFR caches (numerics keeps them per thread).
    numerics::releaseThreadResources();
    std::lock_guard lock(s_.mu);
    s_.warningCount += warningCount_;
    for (auto& w : warnings_) s_.warnings.push_back(std::move(w));
    mergeChoices(s_.choices, s_.choiceFirstGroup, choices_, choiceFirstGroup_);
    for (auto& p : printf_) s_.printfOutput.push_back(std::move(p));
    addLaneStats(laneStats_);
  }

 private:
  LaunchState& s_;
  const LoweredKernel& k_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<WorkItem*> items_;  // runCollective's view of the group's work-items
  std::vector<NamedBarrierState> namedBarriers_;  // the current work-group's (ops_named_barrier.cpp)
  std::vector<uint8_t> groupArena_;
  int64_t budget_ = 0;
  bool resetsPrivate_ = false, tracksImageWrites_ = false;
  bool restartable_ = false;  // restartWorkItem may skip startWorkItem's resets (set with the lane forms)
  std::vector<uint8_t> privateUndefinedStart_;  // a work-item's privateUndefined as it starts
  bool lanesReadIdentity_ = false;  // a lane form of the kernel reads work-items' ids (readsWorkItemIdentity)
  struct PrivateInit {
    uint64_t offset;
    const uint8_t* bytes;
    size_t size;
  };
  std::vector<PrivateInit> privateInits_;
  std::vector<const AllocationDesc*> builtinVariables_;
  const bool tracksUndefined_;           // the uninitialised-value checker runs
  std::vector<uint8_t> groupUndefined_;  // its shadow of groupArena_
  Diagnostic fault_;
  std::vector<Diagnostic> groupWarnings_;
  std::vector<const Op*> warnedOps_;  // warnOnce's record for the current work-group
  std::vector<std::pair<uint64_t, Diagnostic>> warnings_;
  uint64_t warningCount_ = 0;
  ChoiceTally groupChoices_;  // the current work-group's
  ChoiceTally choices_;       // this worker's groups'
  ChoiceGroups choiceFirstGroup_ = noChoiceGroups();
  std::string groupPrintf_;
  std::vector<std::pair<uint64_t, std::string>> printf_;
  std::vector<LaneHandler> laneOps_;  // per Op of the kernel, its lane form (empty: no lane executor)
  // Per Op: nonzero where a round on lanes from it did not repay its copies or was undone; such rounds run alone,
  // but every kLaneRetry-th one tries lanes again (counting up from 1), so that a few bad rounds (the batches at an
  // image's border, say) do not send all the others alone.
  std::vector<uint8_t> laneLoss_;
  static constexpr uint8_t kLaneRetry = 64;
  bool laneLost(size_t at) {
    uint8_t& loss = laneLoss_[at];
    if (!loss) return false;
    if (++loss <= kLaneRetry) return true;
    loss = 1;
    return false;
  }
  std::vector<WorkItem*> lanes_;      // the live work-items of a batch's round, in slot order
  std::vector<uint8_t> laneLive_;     // per slot of the batch: 1 when it is one of lanes_
  std::vector<uint8_t> laneRegs_;     // registers on lanes (LaneBatch::regs) ...
  LaneSets laneSets_;  // a shadow run's sets of the lane registers (shadow_lanes.hpp)
  std::vector<WorkItem*> laneRegsOf_;  // ... of these work-items, whose own registers are behind (none: empty)
  bool laneRegsOfLanes_ = false;       // laneRegsOf_ is lanes_ (where false, it may still be: compare them)
  std::vector<int64_t> laneBase_, laneYield_;  // per lane: LaneBatch::base, yieldBelow
  // Lanes [0, freshLanes_) of laneBase_ and laneYield_ hold a fresh round's budgets for time slices of freshSlice_
  // (runLanes), unless LaneLog::budgetsMoved.
  uint32_t freshLanes_ = 0;
  int64_t freshSlice_ = 0;
  std::vector<const Op*> lanePcs_;             // per lane: LaneBatch::pcs
  LaneLog laneLog_;                            // LaneBatch::log
  LaneStats laneStats_;                        // this worker's, added to the process's at its end

  Slot& slot(size_t i) {
    while (slots_.size() <= i) slots_.push_back(makeSlot());
    return *slots_[i];
  }

  std::unique_ptr<Slot> makeSlot() {
    auto s = std::make_unique<Slot>();
    s->regs = k_.registerTemplate;
    s->privateArena.assign(k_.privateArenaBytes + 16, 0);
    const uint32_t ptrBytes = k_.addressBits / 8;
    // Parameters: pointers become tagged values; by-value bytes are copied in.
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const auto& p = k_.params[i];
      const auto& a = s_.args[i];
      if (p.byVal) {
        const uint64_t ptr = uint64_t(p.tag) << k_.tagShift;
        std::memcpy(s->regs.data() + p.reg, &ptr, ptrBytes);
      } else if (p.kind == ParamKind::Image || p.kind == ParamKind::Sampler || p.kind == ParamKind::Pipe) {
        const uint64_t tag = p.kind == ParamKind::Image  ? kImageHandleTag
                             : p.kind == ParamKind::Pipe ? kPipeHandleTag
                                                         : kSamplerHandleTag;
        const uint64_t handle = tag | p.handleIndex;
        std::memcpy(s->regs.data() + p.reg, &handle, ptrBytes);
      } else if (p.kind == ParamKind::Queue) {
        std::memcpy(s->regs.data() + p.reg, &s_.queueHandle[i], ptrBytes);
      } else if (p.kind == ParamKind::Value) {
        std::memcpy(s->regs.data() + p.reg, a.value.data(), std::min<size_t>(a.value.size(), p.size));
      } else {
        uint64_t ptr = (p.kind == ParamKind::Buffer && a.null) ? 0 : uint64_t(s_.paramTag[i]) << k_.tagShift;
        if (p.kind == ParamKind::Buffer && a.svmPointer) ptr = *a.svmPointer;  // its own tag: svm::kTag
        std::memcpy(s->regs.data() + p.reg, &ptr, ptrBytes);
      }
    }
    s->allocs.resize(k_.allocations.size());
    for (size_t t = 1; t < k_.allocations.size(); ++t) {
      const auto& d = k_.allocations[t];
      Allocation& A = s->allocs[t];
      A.storage = d.storage;
      switch (d.source) {
        case AllocationSource::KernelArg: {
          const auto& a = s_.args[d.argIndex];
          A.base = a.base;
          A.size = a.null || a.svmPointer ? 0 : a.size;
          A.readOnly = d.storage == spv::StorageClass::UniformConstant;
          break;
        }
        case AllocationSource::LocalArg:
          A.base = groupArena_.data() + s_.localArgOffset[d.argIndex];
          A.size = s_.args[d.argIndex].size;
          break;
        case AllocationSource::Global: {
          auto& bytes = k_.globals->bytes.at(d.variable);
          A.base = bytes.data();
          A.size = bytes.size();
          A.readOnly = d.storage == spv::StorageClass::UniformConstant;
          break;
        }
        case AllocationSource::Workgroup:
          A.base = groupArena_.data() + d.arenaOffset;
          A.size = d.size;
          break;
        case AllocationSource::Private:
        case AllocationSource::ByValArg:
        case AllocationSource::Builtin:
          A.base = s->privateArena.data() + d.arenaOffset;
          A.size = d.size;
          A.readOnly = d.source == AllocationSource::Builtin;
          break;
        case AllocationSource::Null: break;
      }
    }
    if (k_.addressBits == 64 && svm::inUse()) {
      // The SVM range (svm.hpp): its pointers are host addresses, so the allocation's base is the range's start and
      // an offset is the rest of the address. Size 0: the fast path of access() declines, and accessSlow checks the
      // access against the SVM allocation the address is in.
      if (s->allocs.size() <= svm::kTag) s->allocs.resize(svm::kTag + 1);
      Allocation& A = s->allocs[svm::kTag];
      A.base = reinterpret_cast<uint8_t*>(svm::kRangeBase);
      A.size = 0;
      A.storage = spv::StorageClass::CrossWorkgroup;
    }
    // A child launch's memory inherited from its parent (device_enqueue.hpp), past its own tags and SVM's.
    if (const uint32_t n = s_.launch.inheritedCount) {
      const uint32_t base = s_.launch.inheritedBase;
      if (s->allocs.size() < base + n) s->allocs.resize(base + n);
      for (uint32_t i = 0; i < n; ++i) s->allocs[base + i] = s_.launch.inherited[i].allocation;
    }
    if (tracksUndefined_) {
      // The uninitialised-value checker's shadows: private memory per slot, local memory per worker, buffer
      // arguments per launch.
      s->privateUndefined.assign(s->privateArena.size(), 0);
      if (privateUndefinedStart_.size() != s->privateArena.size()) {
        // What every work-item's starts as: private variables without an initialiser uninitialised (OpenCL C 3.0 §6.7
        // [[address-space-qualifiers]]), the rest defined.
        privateUndefinedStart_.assign(s->privateArena.size(), 0);
        for (size_t t = 1; t < k_.allocations.size(); ++t)
          if (k_.allocationOrigin[t] && k_.allocations[t].source == AllocationSource::Private)
            std::memset(privateUndefinedStart_.data() + k_.allocations[t].arenaOffset, k_.allocationOrigin[t],
                        k_.allocations[t].size);
      }
      groupUndefined_.resize(groupArena_.size(), 0);
      for (size_t t = 1; t < k_.allocations.size(); ++t) {
        const auto& d = k_.allocations[t];
        Allocation& A = s->allocs[t];
        switch (d.source) {
          case AllocationSource::KernelArg:
            if (!s_.argUndefined[t].empty()) {
              A.undefined = s_.argUndefined[t].data();
              A.someUndefined = &s_.argSomeUndefined[t];
            }
            break;
          case AllocationSource::LocalArg:
          case AllocationSource::Workgroup: A.undefined = groupUndefined_.data() + (A.base - groupArena_.data()); break;
          case AllocationSource::Private:
          case AllocationSource::ByValArg:
          case AllocationSource::Builtin: A.undefined = s->privateUndefined.data() + d.arenaOffset; break;
          default: break;
        }
      }
    }
    s->imagesWritten.assign(s_.images.size(), 0);
    WorkItem& wi = s->wi;
    wi.regs = s->regs.data();
    wi.imagesWritten = s->imagesWritten.empty() ? nullptr : s->imagesWritten.data();
    wi.warnedOps = &warnedOps_;
    wi.allocs = s->allocs.data();
    wi.allocCount = uint32_t(s->allocs.size());
    wi.allocLimit = s_.checks ? 0 : wi.allocCount;  // a checked launch's accesses all reach the observers
    wi.laneAllocLimit = wi.allocCount;                // its lanes' are told them when their span stands
    wi.checks = s_.checks.get();
    wi.observer = s_.config.observer;
    wi.tagShift = k_.tagShift;
    wi.offsetMask = (uint64_t(1) << k_.tagShift) - 1;
    wi.launch = &s_.launch;
    wi.frames.reserve(64);
    wi.fault = &fault_;
    wi.printfOut = &groupPrintf_;
    wi.warnings = &groupWarnings_;
    wi.warningCount = &warningCount_;
    wi.choiceTally = &groupChoices_;
    wi.shadow = s_.config.shadow;
    wi.namedBarriers = &namedBarriers_;
    return s;
  }

  // The work-group being run: what its work-items share, and the next work-item to start in local linear id order
  // (counted up, without the divisions of linear id → local id).
  struct GroupStart {
    std::array<uint64_t, 3> group{}, localSize{}, globalBase{};  // globalBase: the global id of local id 0
    std::array<uint64_t, 3> local{};                              // the next work-item's local id
    uint64_t linear = 0;                                          // and its local linear id
    // The next work-item's local id, as three scalars: a one-dimensional group's is its linear id. Neither an array
    // advance() has just stored element by element nor an array returned through memory is read back two elements at a
    // time, which waits for both stores to retire (a failed store-to-load forwarding: half of a vadd work-item's
    // set-up time).
    void nextId(uint64_t& x, uint64_t& y, uint64_t& z) const {
      if (localSize[1] == 1 && localSize[2] == 1) {
        x = linear, y = 0, z = 0;
      } else {
        x = local[0], y = local[1], z = local[2];
        // Through general registers, one by one: the compiler would otherwise load two of them with one wide load.
        asm("" : "+r"(x), "+r"(y), "+r"(z));
      }
    }
    void advance() { advanceBy(1); }
    // n work-items on in local linear order (at least n left in the group): along the row, then across rows and
    // planes (a division only where the row ends).
    void advanceBy(uint64_t n) {
      linear += n;
      if ((local[0] += n) < localSize[0]) return;
      local[1] += local[0] / localSize[0];
      local[0] %= localSize[0];
      if (local[1] < localSize[1]) return;
      local[2] += local[1] / localSize[1];
      local[1] %= localSize[1];
    }
  };

  // The ids of the group's next work-item (g.local, g.linear) into wi, and g moves on.
  static void takeNextIds(WorkItem& wi, GroupStart& g) {
    uint64_t x, y, z;
    g.nextId(x, y, z);
    wi.localId[0] = x, wi.localId[1] = y, wi.localId[2] = z;
    wi.globalId[0] = g.globalBase[0] + x, wi.globalId[1] = g.globalBase[1] + y, wi.globalId[2] = g.globalBase[2] + z;
    wi.localLinearId = g.linear;
    g.advance();
    wi.namedBarrierInits = 0;
  }
  // wi at the kernel's first Op with a full budget.
  void startRunning(WorkItem& wi) const {
    wi.pc = &k_.ops[k_.entryOp];
    wi.state = WorkItemState::Running;
    wi.budget = budget_ - k_.entryCost;
    wi.yieldBelow = INT64_MIN;
  }

  // Slot s takes the group's next work-item, and g moves on.
  void startWorkItem(Slot& s, GroupStart& g) {
    WorkItem& wi = s.wi;
    wi.groupId = g.group;
    wi.localSize = g.localSize;
    takeNextIds(wi, g);
    // Private memory starts over for every work-item: the uninitialised pattern, then the
    // initialisers of Private variables.
    if (resetsPrivate_) {
      std::memset(s.privateArena.data(), k_.uninitialisedByte, k_.privateArenaBytes);
      for (const auto& p : privateInits_) std::memcpy(s.privateArena.data() + p.offset, p.bytes, p.size);
      for (const AllocationDesc* d : builtinVariables_)
        builtinValue(wi, d->builtin, s.privateArena.data() + d->arenaOffset, d->builtinElementBytes);
    }
    if (tracksUndefined_ && !s.privateUndefined.empty())
      std::memcpy(s.privateUndefined.data(), privateUndefinedStart_.data(), s.privateUndefined.size());
    if (wi.shadow) clearShadowOf(s);
    startRunning(wi);
    wi.barrier = nullptr;
    wi.frames.clear();
    if (tracksImageWrites_ && !s.imagesWritten.empty()) std::memset(s.imagesWritten.data(), 0, s.imagesWritten.size());
  }


  // A new work-item's registers and private memory hold nothing of the previous one's sets (nothing to clear while the
  // shadow run is quiet, as lanes that return leave it).
  void clearShadowOf(Slot& s) {
    ShadowRun& sh = *s_.config.shadow;
    if (sh.exact()) return;
    sh.clear(s.regs.data(), s.regs.size());
    sh.clear(s.privateArena.data(), s.privateArena.size());
  }

  // startWorkItem for a slot whose work-item returned on lanes in this work-group (restartable_: it started in this
  // group, nothing of the launch needs its private memory or image record reset, and lanes run no observers): only
  // what differs between two work-items of the group.
  void restartWorkItem(Slot& s, GroupStart& g) {
    if (!restartable_) return startWorkItem(s, g);
    if (s.wi.shadow) clearShadowOf(s);
    s.wi.groupId = g.group;  // a row's work-item may not have had its group written (settleRow)
    s.wi.localSize = g.localSize;
    takeNextIds(s.wi, g);
    startRunning(s.wi);
  }

  // The lanes of a round that returned (LaneRound::Returned) as returned work-items.
  void markReturned() {
    rowPending_ = false;  // what a returned work-item would have been told is read no more
    for (WorkItem* wi : lanes_) wi->state = WorkItemState::Returned;
  }

  // Slots [0, slots) hold work-items of consecutive local linear ids in slot order, from local id localId0: slot s's
  // is localId0's linear id + s, its local id that one's in row-major order (along localSize[0], then [1], then [2]).
  // The lanes of a round of all of them take their ids from here (LaneBatch::consecutiveIds).
  struct RowIds {
    bool valid = false;
    uint64_t slots = 0;
    std::array<uint64_t, 3> localId0{}, globalId0{}, localSize{}, group{};
  };
  RowIds rowIds_;
  // Before slots [0, slots) take the group's next work-items in turn, which are consecutive (rowIds_).
  void rowStarts(const GroupStart& g, uint64_t slots) {
    rowIds_.valid = true;
    rowIds_.slots = slots;
    rowIds_.localId0 = g.local;
    rowIds_.localSize = g.localSize;
    rowIds_.group = g.group;
    for (int d = 0; d < 3; ++d) rowIds_.globalId0[d] = g.globalBase[d] + g.local[d];
  }

  // Every slot of a batch of `slots` returned on lanes (restartable_), or holds no work-item of this group yet (the
  // group's first batch): each takes the group's next work-item, at least `slots` of them left. Their ids and group
  // follow each other (rowStarts), and are written only when read (settleRow). The slots' work-items returned: none
  // waits at a barrier or is in a call (a worker runs no work-group after one that faulted, run()).
  void restartBatch(GroupStart& g, uint64_t slots) {
    rowStarts(g, slots);
    if (s_.config.shadow)
      for (uint64_t s = 0; s < slots; ++s) clearShadowOf(*slots_[s]);
    rowLinear0_ = g.linear;
    g.advanceBy(slots);
    // The work-items' ids and their start are written when something reads them (settleRow): a round on lanes that
    // returns reads neither, as its ids are consecutive (LaneBatch::consecutiveIds) and its budgets known (fresh).
    rowPending_ = true;
    if (lanesReadIdentity_) settleRow();
  }
  // The work-items of a batch restartBatch started as a row: their ids, and each at the kernel's first Op with a
  // full budget (startRunning).
  bool rowPending_ = false;
  uint64_t rowLinear0_ = 0;
  void settleRow() {
    if (!rowPending_) return;
    rowPending_ = false;
    const Op* const entry = &k_.ops[k_.entryOp];
    const int64_t budget = budget_ - k_.entryCost;
    const std::array<uint64_t, 3> size = rowIds_.localSize, group = rowIds_.group;
    std::array<uint64_t, 3> local = rowIds_.localId0, base;
    for (int d = 0; d < 3; ++d) base[d] = rowIds_.globalId0[d] - local[d];
    const uint64_t linear0 = rowLinear0_, slots = rowIds_.slots;
    for (uint64_t s = 0; s < slots; ++s) {
      WorkItem& wi = slots_[s]->wi;
      wi.groupId = group;
      wi.localSize = size;
      wi.localId = local;
      wi.globalId = {base[0] + local[0], base[1] + local[1], base[2] + local[2]};
      wi.localLinearId = linear0 + s;
      if (++local[0] == size[0]) {
        local[0] = 0;
        if (++local[1] == size[1]) local[1] = 0, ++local[2];
      }
      wi.namedBarrierInits = 0;
      wi.pc = entry;
      wi.state = WorkItemState::Running;
      wi.budget = budget;
      wi.yieldBelow = INT64_MIN;
    }
  }

  static bool resume(WorkItem& wi) {
    wi.state = WorkItemState::Running;
    const Op* pc = wi.pc;
    while (pc) pc = pc->fn(wi, pc);
    return wi.state != WorkItemState::Faulted;
  }

  // Whether the next round of a batch of `batch` slots runs on lanes (lanes.hpp): the work-items that run in it (lanes_,
  // in slot order; laneLive_ per slot: those running or yielded) stand at the same Op, outside any call.
  // `restarted`: every slot of the batch returned on lanes and took its next work-item, so lanes_ and laneLive_ already
  // name them all, at the kernel's first Op.
  bool convergedRound(uint64_t batch, bool restarted = false) {
    if (laneOps_.empty()) return false;
    if (restarted) return laneOps_[k_.entryOp] != &leaveLanes && !laneLost(k_.entryOp);
    lanes_.clear();
    laneRegsOfLanes_ = false;
    laneLive_.assign(batch, 0);
    for (uint64_t s = 0; s < batch; ++s) {
      WorkItem& wi = slots_[s]->wi;
      if (wi.state != WorkItemState::Running && wi.state != WorkItemState::Yielded) continue;
      if (!wi.frames.empty()) return false;
      if (!lanes_.empty() && wi.pc != lanes_[0]->pc) return false;
      lanes_.push_back(&wi);
      laneLive_[s] = 1;
    }
    if (lanes_.size() < 2) return false;
    // An Op without a lane form would send them back at once; a round from this Op that left the lanes before it
    // repaid the copies of the registers (laneLoss_) would again.
    const size_t at = size_t(lanes_[0]->pc - k_.ops.data());
    return laneOps_[at] != &leaveLanes && !laneLost(at);
  }

  // The registers on lanes back to their work-items (a round on today's path reads them there).
  void flushLaneRegs() {
    if (laneRegsOf_.empty()) return;
    // Whole chunks: the register file ends in 16 bytes no register uses (KernelLowering::resolve).
    const size_t chunks = k_.registerTemplate.size() / 8, count = laneRegsOf_.size();
    for (size_t l = 0; l < count; ++l) {
      uint8_t* regs = laneRegsOf_[l]->regs;
      for (size_t c = 0; c < chunks; ++c) std::memcpy(regs + c * 8, laneRegs_.data() + (c * count + l) * 8, 8);
    }
    if (s_.config.shadow) laneSets_.flush(*s_.config.shadow, laneRegsOf_.data(), uint32_t(count), chunks * 8);
    laneRegsOf_.clear();
    laneRegsOfLanes_ = false;
  }

  // Runs the round of lanes_ (time slices of `slice` instructions) on lanes while they stay together, then each alone
  // from where they parted, in slot order, as they would have run alone. With `wholeGroup` (lanes_ is the whole
  // work-group), rounds that end with every lane at the same work-group barrier follow each other on lanes: that
  // barrier is released at once (runGroup would find every work-item there, with nothing to run at it). Faulted after a
  // fault (in fault_); Alone where the span on lanes could differ from the one-by-one order (lanes.hpp LaneLog): its
  // stores are undone and its work-items stand where it began, with their own registers, to run the round alone;
  // Returned where every lane returned (their states are left to the caller: markReturned, or their slots' next
  // work-items). `fresh`: every lane stands at the kernel's first Op with a full budget (startRunning).
  enum class LaneRound { Ran, Faulted, Alone, Returned };
  LaneRound runLanes(int64_t slice, bool wholeGroup, bool fresh = false) {
    ShadowRun* const shadow = s_.config.shadow;
    const size_t registerBytes = k_.registerTemplate.size();
    // A shadow run's registers go on lanes with their sets (shadow_lanes.hpp) where the set file can hold them.
    if (shadow && laneRegsOf_ != lanes_ &&
        !LaneSets::fits(*shadow, lanes_.data(), uint32_t(lanes_.size()), registerBytes))
      return LaneRound::Alone;
    LaneBatch b;
    b.items = lanes_.data();
    b.count = uint32_t(lanes_.size());
    // Lanes that are the batch's slots from the first, while the slots hold a row of consecutive work-items.
    if (rowIds_.valid && rowIds_.slots == b.count) {
      b.consecutiveIds = true;
      b.localId0 = rowIds_.localId0;
      b.globalId0 = rowIds_.globalId0;
      b.localSize = rowIds_.localSize;
      b.groupId = rowIds_.group;
    }
    // The lane registers may still hold these work-items' registers: after a round whose lanes all returned, the slots'
    // next work-items start with the registers they left (startWorkItem sets none).
    if (!laneRegsOfLanes_ && laneRegsOf_ != lanes_) {
      flushLaneRegs();
      const size_t chunks = k_.registerTemplate.size() / 8;
      laneRegs_.resize(chunks * b.count * 8);
      for (uint32_t l = 0; l < b.count; ++l) {
        const uint8_t* regs = lanes_[l]->regs;
        for (size_t c = 0; c < chunks; ++c) std::memcpy(laneRegs_.data() + (c * b.count + l) * 8, regs + c * 8, 8);
      }
      laneRegsOf_ = lanes_;
      laneRegsOfLanes_ = true;
      if (shadow) {
        laneSets_.begin(b.count, registerBytes);
        laneSets_.gather(*shadow, lanes_.data(), b.count, registerBytes);
      }
    } else if (shadow) {
      laneSets_.begin(b.count, registerBytes);  // the registers of work-items that start: no sets
    }
    if (shadow) b.sets = &laneSets_;
    b.stride = b.count;
    b.regs = laneRegs_.data();
    const Op* const ops = k_.ops.data();
    const LaneHandler* const forms = laneOps_.data();
    b.forms = forms;
    b.ops = ops;
    b.log = &laneLog_;
    laneLog_.clear();
    const auto choicesBefore = groupChoices_.count;  // mad's lane form counts decisions already made
    ++laneStats_.spans;
    // Each lane starts its round as it would alone: a time slice of `slice` instructions from its budget.
    laneBase_.resize(b.count);
    laneYield_.resize(b.count);
    lanePcs_.resize(b.count);
    b.base = laneBase_.data();
    b.yieldBelow = laneYield_.data();
    b.pcs = lanePcs_.data();
    b.slice = slice;
    if (fresh) {  // every lane's budget the same: the bounds are known
      const int64_t budget = budget_ - k_.entryCost;
      // A fresh round's budgets stay for the next one where no lane's moved.
      if (freshLanes_ != b.count || freshSlice_ != slice || laneLog_.budgetsMoved) {
        std::fill(laneBase_.begin(), laneBase_.end(), budget);
        std::fill(laneYield_.begin(), laneYield_.end(), budget - slice);
        freshLanes_ = b.count, freshSlice_ = slice;
        laneLog_.budgetsMoved = false;
      }
      b.minBudget = budget;
      b.minMargin = b.maxMargin = slice;
    } else {
      for (uint32_t l = 0; l < b.count; ++l) {
        laneBase_[l] = lanes_[l]->budget;
        laneYield_[l] = lanes_[l]->budget - slice;
      }
      freshLanes_ = 0;
      b.measure();
    }
    const Op* const first = fresh ? &k_.ops[k_.entryOp] : lanes_[0]->pc;  // a pending row's pc is not written
    const size_t start = size_t(first - ops);
    uint64_t ran = 0;  // Ops run on lanes
    bool undo = false;
    for (const Op* pc = first;;) {
      for (; pc; ++ran) {
        laneLog_.current = pc;
        pc = forms[pc - ops](b, pc);
      }
      if (!b.atBarrier) break;
      // A barrier interval ran on lanes: the accesses of its work-items must not race (lanes.hpp).
      ++laneStats_.barrierIntervals;
      undo = laneLog_.mustUndo || laneLog_.conflicts();
      if (undo || !wholeGroup || laneLog_.large()) break;
      commitFirstDecisions();  // the interval's decisions precede every later one
      laneLog_.newRound = false;  // after the barrier, every lane's round starts here
      if (s_.checks && s_.checks->takesLaneAccesses()) {  // the interval's accesses, then the barrier the lanes pass
        collectLaneFeed();
        laneFeed_.push_back({b.at, {}, 0});
      }
      laneLog_.nextInterval();
      // The next round: each lane's time slice starts over from its budget.
      b.atBarrier = false;
      b.rebase();
      int64_t* const ys = laneYield_.data();
      const int64_t* const bs = laneBase_.data();
      for (uint32_t l = 0; l < b.count; ++l) ys[l] = bs[l] - slice;
      laneLog_.budgetsMoved = true;
      b.minMargin = b.maxMargin = slice;  // minBudget: rebase() kept its bound
      pc = b.at + 1;
    }
    // A span that ended with the lanes together (returned, yielded) is the one-by-one order where no lanes raced. One
    // whose lanes parted has the rest of each lane's round run alone, in slot order: the one-by-one order only where no
    // lane after the first touched shared memory on lanes (the rest of the first could touch the same bytes).
    if (!undo && !b.atBarrier)
      undo = laneLog_.mustUndo || (b.returned || b.yielded ? laneLog_.conflicts() : laneLog_.beyondFirstLane());
    // First decisions made on lanes are the one-by-one order's where the lanes end together (the others' rest, run
    // alone, would decide before a later lane).
    const bool together = b.returned || b.atBarrier || b.yielded;
    if (!laneLog_.firstDecisions.empty() && !together) undo = true;
    // Work-items that go on, or start over, on their own read their own ids, budgets and places.
    if (!b.returned || undo) settleRow();
    if (undo) {
      clearLaneFeed();
      laneLog_.undoAll();
      groupChoices_.count = choicesBefore;
      // The work-items' own registers are those the span began with (or, after lanes that returned, registers the
      // next work-items never read before they write them).
      laneRegsOf_.clear();
      laneRegsOfLanes_ = false;
      if (shadow) {
        laneSets_.undoStores(*shadow);
        laneSets_.drop();
      }
      laneLoss_[start] = 1;
      ++laneStats_.undone;
      return LaneRound::Alone;
    }
    commitFirstDecisions();
    // A shadow run's stores on lanes are their bytes' last writers, in the order they ran (the one-by-one order where
    // the span stands: no two lanes wrote the same bytes between two barriers).
    if (s_.config.shadow)
      for (const LaneLog::WriterNote& w : laneLog_.writerNotes) s_.config.shadow->noteWriter(w.at, w.bytes, w.inst);
    if (s_.checks && s_.checks->takesLaneAccesses()) feedLaneAccesses();
    const bool firstDecision = laneLog_.firstDecision;
    laneLog_.clear();
    // Lanes pay for themselves after a few Ops per register chunk they copy in and out: a round that left them
    // sooner (a math function in a short kernel) marks its first Op, whose rounds then run alone. Speed only: both
    // paths give the same results.
    // A stop for a work-group's first decision of a choice comes once per work-group: it is not the Op's doing.
    laneLoss_[start] = !together && !firstDecision && ran < laneRegs_.size() / (8 * size_t(b.count));
    if (!b.returned)
      flushLaneRegs();
    else if (shadow)
      laneSets_.drop();  // registers no work-item reads again
    if (b.returned) {
      ++laneStats_.returned;
      return LaneRound::Returned;  // a returned work-item's budget is read no more
    }
    for (uint32_t l = 0; l < b.count; ++l) {
      WorkItem& wi = *lanes_[l];
      wi.budget = laneBase_[l] - b.spent;
      wi.yieldBelow = laneYield_[l];
      if (b.atBarrier) {
        wi.state = WorkItemState::AtBarrier;
        wi.barrier = b.at;
        wi.pc = b.at + 1;
      } else if (b.yielded) {
        wi.state = WorkItemState::Yielded;
        wi.pc = b.at;
      } else {
        wi.state = WorkItemState::Running;
        wi.pc = b.parted ? lanePcs_[l] : l < b.stop ? b.at + 1 : b.at;
      }
    }
    if (b.returned || b.atBarrier || b.yielded) return LaneRound::Ran;
    for (WorkItem* wi : lanes_)
      if (!resume(*wi)) return LaneRound::Faulted;
    return LaneRound::Ran;
  }

  // The work-group's first decisions made on lanes (LaneLog::firstDecisions), with their work-items' ids.
  void commitFirstDecisions() {
    if (laneLog_.firstDecisions.empty()) return;
    settleRow();
    for (const LaneLog::FirstDecision& d : laneLog_.firstDecisions)
      noteChoiceFirst(*lanes_[d.lane], d.op, d.choice, d.what);
    laneLog_.firstDecisions.clear();
  }

  // A checked launch's accesses on lanes (LaneLog::exact), told to its race checker once their span stands: the log's
  // entries of each barrier interval the lanes passed (a lane-by-lane entry's addresses copied to
  // laneFeedAddresses_ from its `at`), each interval followed by its barrier (`barrier`, for which `entry` is unused).
  struct LaneFeed {
    const Op* barrier;
    LaneLog::Entry entry;
    uintptr_t lo;  // a dense entry's first byte
  };
  std::vector<LaneFeed> laneFeed_;
  std::vector<uintptr_t> laneFeedAddresses_;
  void clearLaneFeed() {
    laneFeed_.clear();
    laneFeedAddresses_.clear();
  }
  void collectLaneFeed() {
    const LaneLog& g = laneLog_;
    for (size_t e = 0; e < g.entries.size(); ++e) {
      LaneLog::Entry E = g.entries[e];
      if (E.coarse) continue;  // none with LaneLog::exact
      if (!E.dense) {
        const size_t at = laneFeedAddresses_.size();
        laneFeedAddresses_.insert(laneFeedAddresses_.end(), g.addresses.begin() + ptrdiff_t(E.at),
                                  g.addresses.begin() + ptrdiff_t(E.at + E.lanes));
        E.at = at;
      }
      laneFeed_.push_back({nullptr, E, g.extents[e].lo});
    }
  }
  // The span stood: its accesses go to the checkers in the order of its Ops, each Op's lanes in slot order (the
  // barrier intervals it passed from laneFeed_, the last one from the log). A span that stands has no two lanes
  // touching the same bytes between barriers with one of them writing, so that order gives the checkers' state what
  // the one-by-one order gives; a race it finds is with an access before the span. Addresses outside the work-items'
  // allocations (image texels) are not memory the checkers follow.
  void feedLaneAccesses() {
    const LaneLog& g = laneLog_;
    if (laneFeed_.empty() && g.entries.empty()) return;
    FeedItems items(*this);
    for (const LaneFeed& f : laneFeed_) {
      if (f.barrier)
        s_.checks->barrier(f.barrier);
      else
        feedEntry(items, f.entry, f.lo, laneFeedAddresses_.data());
    }
    clearLaneFeed();
    for (size_t e = 0; e < g.entries.size(); ++e)
      if (!g.entries[e].coarse) feedEntry(items, g.entries[e], g.extents[e].lo, g.addresses.data());
  }
  // The lanes' work-items as the checkers see them: a row's ids without writing them into its work-items (settleRow
  // only where a finding's diagnostics need a work-item). A pending row with every slot on lanes has lane l in slot l.
  class FeedItems final : public LaneItems {
   public:
    explicit FeedItems(Worker& w) : w_(w) {
      if (w.rowPending_ && w.lanes_.size() != w.rowIds_.slots) w.settleRow();
    }
    uint64_t id(uint32_t lane) override {
      return w_.rowPending_ ? w_.rowLinear0_ + lane : w_.lanes_[lane]->localLinearId;
    }
    uint64_t consecutiveFrom(uint32_t first, uint32_t count) override {
      if (w_.rowPending_) return w_.rowLinear0_ + first;
      WorkItem* const* lanes = w_.lanes_.data() + first;
      const uint64_t id0 = lanes[0]->localLinearId;
      for (uint32_t l = 1; l < count; ++l)
        if (lanes[l]->localLinearId != id0 + l) return UINT64_MAX;
      return id0;
    }
    WorkItem& item(uint32_t lane) override {
      w_.settleRow();
      return *w_.lanes_[lane];
    }

   private:
    Worker& w_;
  };
  // The allocation of `wi` that holds bytes [at, at + bytes): `tag` where it does, else the first that does; 0: none.
  static uint32_t allocationHolding(const WorkItem& wi, uint32_t tag, uintptr_t at, uint64_t bytes) {
    auto within = [&](uint32_t t) {
      const Allocation& A = wi.allocs[t];
      return A.base && at >= uintptr_t(A.base) && at + bytes <= uintptr_t(A.base) + A.size;
    };
    if (tag && tag < wi.allocCount && within(tag)) return tag;
    for (uint32_t t = 1; t < wi.allocCount; ++t)
      if (within(t)) return t;
    return 0;
  }
  // One entry's accesses (addresses: a lane-by-lane entry's from its `at`): a dense row at once, the same bytes read
  // by consecutive lanes at once, other lanes one by one. Addresses outside the work-items' allocations (image
  // texels) are not memory the checkers follow.
  void feedEntry(FeedItems& items, const LaneLog::Entry& E, uintptr_t lo, const uintptr_t* addresses) {
    CheckRun& c = *s_.checks;
    const WorkItem& w0 = *lanes_[E.firstLane];  // its allocations are every lane's (of one work-group)
    uint32_t tag = E.tag;
    auto lane = [&](uint32_t i, uintptr_t at) {
      if ((tag = allocationHolding(w0, tag, at, E.bytes))) {
        const Allocation& A = w0.allocs[tag];
        c.laneAccess(items, E.firstLane + i, E.op, tag, A.size, at - uintptr_t(A.base), E.bytes, E.store);
      }
    };
    if (E.dense) {
      const uint32_t row = E.rowLanes ? E.rowLanes : E.lanes;
      for (uint32_t r = 0; r * row < E.lanes; ++r) {
        const uint32_t first = r * row, n = std::min(row, E.lanes - first);
        const uintptr_t at = E.denseAddress(lo, first);
        if ((tag = allocationHolding(w0, tag, at, uint64_t(n) * E.bytes))) {
          const Allocation& A = w0.allocs[tag];
          c.laneAccessDense(items, E.firstLane + first, n, E.op, tag, A.size, at - uintptr_t(A.base), E.bytes,
                            E.store);
        } else {  // lanes in several allocations, or outside them
          for (uint32_t i = first; i < first + n; ++i) lane(i, E.denseAddress(lo, i));
        }
      }
      return;
    }
    addresses += E.at;
    for (uint32_t i = 0; i < E.lanes;) {
      const uintptr_t a = addresses[i];
      uint32_t j = i + 1;
      while (!E.store && j < E.lanes && addresses[j] == a) ++j;
      if (a && j - i > 2 && (tag = allocationHolding(w0, tag, a, E.bytes))) {
        const Allocation& A = w0.allocs[tag];
        c.laneReadShared(items, E.firstLane + i, j - i, E.op, tag, A.size, a - uintptr_t(A.base), E.bytes);
      } else if (a) {
        for (uint32_t l = i; l < j; ++l) lane(l, a);
      }
      i = j;
    }
  }

  // The work-group at schedule position `seq` could not run (an exception escaped it).
  void failGroup(uint64_t seq, const std::string& what) {
    const uint64_t g = s_.groupAt(seq);
    fault_ = Diagnostic{};
    fault_.kind = FaultKind::ExecutionFailed;
    fault_.message = "work-group " + std::to_string(g) + " of kernel " + k_.name + " could not be executed: " + what +
                     " (work-group memory " + std::to_string(s_.workgroupArenaBytes) + " bytes, private memory " +
                     std::to_string(k_.privateArenaBytes) + " and registers " +
                     std::to_string(k_.registerTemplate.size()) + " bytes per work-item)";
    fault_.groupId = {g % s_.numGroups[0], (g / s_.numGroups[0]) % s_.numGroups[1],
                      g / (s_.numGroups[0] * s_.numGroups[1])};
    groupPrintf_.clear();
    groupWarnings_.clear();
    recordFault(seq);
  }

  // A fault of the work-group at schedule position `seq`: the groups after it need not run.
  void recordFault(uint64_t seq) {
    std::lock_guard lock(s_.mu);
    s_.faults.emplace_back(seq, fault_);
    uint64_t cur = s_.faultGroup.load();
    while (seq < cur && !s_.faultGroup.compare_exchange_weak(cur, seq)) {}
  }

  // Runs the work-group at schedule position `seq` (LaunchState::groupAt).
  void runGroup(uint64_t seq) {
    const uint64_t g = s_.groupAt(seq);
    const auto& R = s_.range;
    std::array<uint64_t, 3> group{g % s_.numGroups[0], (g / s_.numGroups[0]) % s_.numGroups[1],
                                  g / (s_.numGroups[0] * s_.numGroups[1])};
    std::array<uint64_t, 3> localSize{};
    for (int d = 0; d < 3; ++d) localSize[d] = std::min(R.local[d], R.global[d] - group[d] * R.local[d]);
    const uint64_t n = localSize[0] * localSize[1] * localSize[2];
    // Local memory starts over for every work-group.
    std::memset(groupArena_.data(), k_.uninitialisedByte, s_.workgroupArenaBytes);
    if (s_.config.shadow) s_.config.shadow->clear(groupArena_.data(), groupArena_.size());
    if (tracksUndefined_) startLocalUndefined();
    groupWarnings_.clear();
    warnedOps_.clear();
    namedBarriers_.clear();
    GroupStart start;
    start.group = group;
    start.localSize = localSize;
    for (int d = 0; d < 3; ++d) start.globalBase[d] = R.offset[d] + group[d] * R.local[d];
    if (!allLive(k_)) {
      // Without barriers or atomics, work-items run interleaved in batches of kInterleavedBatch slots: each runs until
      // it returns or takes a loop back-edge after kInterleaveSlice instructions, then the next slot of the batch
      // continues. Nearby work-items then walk their loops together and share the cache lines they touch (a column
      // walk of a matrix, say) instead of each sweeping memory alone, and a slice of a few dozen iterations keeps
      // those lines in the first-level cache without paying the switch at every iteration. A finished slot takes the
      // group's next work-item. The order depends only on the group, never on the thread count.
      const uint64_t batch = slotsPerWorkGroup(k_, n);
      slot(batch - 1);
      uint64_t next = 0, active = 0;
      bool restarted = false;
      if (restartable_ && batch >= 2) {
        // startWorkItem's resets are not needed (restartWorkItem), and the batch's first round starts on lanes as
        // one after a restart does (convergedRound).
        restartBatch(start, batch);
        next = active = batch;
        // lanes_ names running slots in slot order (convergedRound): `batch` of them, the last slot `batch - 1`, are
        // slots [0, batch) already.
        if (lanes_.size() != batch || lanes_.back() != &slots_[batch - 1]->wi) {
          lanes_.resize(batch);
          for (uint64_t s = 0; s < batch; ++s) lanes_[s] = &slots_[s]->wi;
          laneRegsOfLanes_ = false;
        }
        laneLive_.assign(batch, 1);
        restarted = true;
      } else {
        rowStarts(start, batch);
        for (; next < batch; ++next, ++active) startWorkItem(*slots_[next], start);
      }
      // A pending row's ids are not written yet: an observer that would read them runs no lanes (lanesAllowed).
      if (s_.checks) groupStarts(g, batch);
      while (active) {
        LaneRound round =
            convergedRound(batch, restarted) ? runLanes(kInterleaveSlice, false, restarted) : LaneRound::Alone;
        restarted = false;
        if (round == LaneRound::Faulted) return finishGroup(seq, true);
        if (round == LaneRound::Returned) {
          // The whole batch returned together: the next work-items in the same slots, at once.
          if (restartable_ && lanes_.size() == batch) {
            if (n - next >= batch) {
              restartBatch(start, batch);
              next += batch;
              restarted = true;
              continue;
            }
            // The group's last work-items returned: their slots' states are not read before the next group's
            // restartBatch or startWorkItem writes them.
            if (next == n) {
              rowPending_ = false;
              break;
            }
          }
          markReturned();
          round = LaneRound::Ran;
        }
        if (round == LaneRound::Ran) {
          // The round ran on lanes (lanes.hpp); then, as below, each slot that returned takes the next work-item.
          uint64_t taken = 0;
          for (uint64_t s = 0; s < batch; ++s) {
            WorkItem& wi = slots_[s]->wi;
            if (wi.state != WorkItemState::Returned || !laneLive_[s]) continue;
            if (next < n) {
              restartWorkItem(*slots_[s], start);
              rowIds_.valid = false;
              ++next;
              ++taken;
            } else {
              --active;
            }
          }
          restarted = taken == batch && lanes_.size() == batch;
          continue;
        }
        flushLaneRegs();
        settleRow();
        for (uint64_t s = 0; s < batch; ++s) {
          WorkItem& wi = slots_[s]->wi;
          if (wi.state == WorkItemState::Returned) continue;
          wi.yieldBelow = wi.budget - kInterleaveSlice;
          if (!resume(wi)) return finishGroup(seq, true);
          if (wi.state != WorkItemState::Returned) continue;
          if (next < n) {
            startWorkItem(*slots_[s], start);
            rowIds_.valid = false;
            ++next;
          } else {
            --active;
          }
        }
      }
      return finishGroup(seq, false);
    }
    slot(n - 1);  // make sure the group's slots exist
    rowStarts(start, n);
    for (uint64_t i = 0; i < n; ++i) startWorkItem(*slots_[i], start);
    if (s_.checks) groupStarts(g, n);
    for (;;) {
      // Independent forward progress: each work-item runs for a time slice of kTimeSlice instructions at most, then
      // yields at its next loop back-edge, so one that spins waiting for another (an atomic flag) lets it run. The
      // slices depend only on instruction counts: the order stays the same from run to run. cl_khr_subgroups:
      // OpenCL Extension Specification 3.0.12 §28.3 "Additions to section 3.2 — Execution Model"
      bool yielded = false;
      // The round on lanes (lanes.hpp) where the running work-items stand together, to a barrier they all reach.
      LaneRound round = convergedRound(n) ? runLanes(kTimeSlice, lanes_.size() == n) : LaneRound::Alone;
      if (round == LaneRound::Faulted) return finishGroup(seq, true);
      if (round == LaneRound::Returned) {
        markReturned();
        round = LaneRound::Ran;
      }
      if (round == LaneRound::Ran) {
        for (const WorkItem* wi : lanes_) yielded = yielded || wi->state == WorkItemState::Yielded;
      } else {
        flushLaneRegs();
        for (uint64_t i = 0; i < n; ++i) {
          WorkItem& wi = slots_[i]->wi;
          if (wi.state != WorkItemState::Running && wi.state != WorkItemState::Yielded) continue;
          wi.yieldBelow = wi.budget - kTimeSlice;
          if (!resume(wi)) return finishGroup(seq, true);
          yielded = yielded || wi.state == WorkItemState::Yielded;
        }
      }
      // Everyone stopped: returned, or waiting at a barrier or collective. A sub-group collective (or sub-group
      // barrier) runs as soon as its whole sub-group waits at it (OpenCL C 3.0 §6.15.20 [[sub-group-functions]]: "must
      // be encountered by all work-items in a sub-group"); a work-group one when the whole work-group does (§6.15.8
      // [[synchronization-functions]]).
      if (k_.usesSubgroupCollectives) {
        const uint64_t sg = s_.launch.subgroupSize;
        bool progress = false;
        for (uint64_t first = 0; first < n; first += sg) {
          const uint64_t count = std::min(sg, n - first);
          const WorkItem& lead = slots_[first]->wi;
          // A non-uniform instruction runs for the work-items waiting at it: nobody of the sub-group can run further
          // (every work-item of the group has run until it stopped), so they are its active work-items.
          if (const Op* at = nonUniformWaiting(first, count)) {
            if (!runNonUniform(first, count, at)) return finishGroup(seq, true);
            progress = true;
            continue;
          }
          if (lead.state != WorkItemState::AtBarrier || !isSubgroupStop(lead.barrier)) continue;
          bool all = true;
          for (uint64_t i = first + 1; i < first + count && all; ++i)
            all = slots_[i]->wi.state == WorkItemState::AtBarrier && slots_[i]->wi.barrier == lead.barrier;
          if (!all) continue;
          if (static_cast<const Collective*>(lead.barrier->aux)->namedBarrier) {
            const NamedWait w = waitAtNamedBarrier(first, count, lead.barrier, n);
            if (w == NamedWait::Fault) return finishGroup(seq, true);
            progress = progress || w == NamedWait::Released;
            continue;
          }
          if (lead.barrier->aux && !runCollective(first, count, lead.barrier)) return finishGroup(seq, true);
          if (s_.checks) s_.checks->barrier(lead.barrier);
          for (uint64_t i = first; i < first + count; ++i) slots_[i]->wi.state = WorkItemState::Running;
          progress = true;
        }
        if (progress) continue;
      }
      if (yielded) continue;  // the group is not stopped yet: nothing waits at a work-group barrier alone
      const WorkItem& first = slots_[0]->wi;
      const Op* at = first.state == WorkItemState::AtBarrier ? first.barrier : nullptr;
      bool allReturned = true, same = true;
      uint64_t odd = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const WorkItem& wi = slots_[i]->wi;
        if (wi.state != WorkItemState::Returned) allReturned = false;
        const Op* b = wi.state == WorkItemState::AtBarrier ? wi.barrier : nullptr;
        if (b != at && same) {
          same = false;
          odd = i;
        }
      }
      if (allReturned) return finishGroup(seq, false);
      if (stuckAtNamedBarrier()) return finishGroup(seq, true);
      if (!same || (at && isSubgroupStop(at))) {
        // Report from the point of view of a work-item waiting at a barrier: with sub-group collectives, one whose
        // sub-group is incomplete, and a member of that sub-group that is elsewhere.
        uint64_t waiting = at ? 0 : odd, other = at ? odd : 0;
        const uint64_t sg = s_.launch.subgroupSize;
        for (uint64_t i = 0; i < n && k_.usesSubgroupCollectives; ++i) {
          const WorkItem& wi = slots_[i]->wi;
          if (wi.state != WorkItemState::AtBarrier || !isSubgroupStop(wi.barrier)) continue;
          const uint64_t from = i / sg * sg, to = std::min(n, from + sg);
          for (uint64_t j = from; j < to; ++j)
            if (slots_[j]->wi.state != WorkItemState::AtBarrier || slots_[j]->wi.barrier != wi.barrier) {
              waiting = i;
              other = j;
              break;
            }
          if (waiting == i) break;
        }
        WorkItem& w = slots_[waiting]->wi;
        const WorkItem& o = slots_[other]->wi;
        auto ids = [](const std::array<uint64_t, 3>& a) {
          return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + ")";
        };
        std::string otherState = o.state == WorkItemState::Returned
                                     ? "returned without reaching it"
                                     : "waits at a different barrier: " + k_.module->describe(o.barrier->inst);
        const bool subgroup = isSubgroupStop(w.barrier);
        fault(w, w.barrier, FaultKind::BarrierDivergence,
              std::string("not every work-item of the ") + (subgroup ? "sub-group" : "work-group") +
                  " reached this " + (subgroup ? "sub-group barrier or function" : "barrier") + ": local work-item " +
                  ids(o.localId) + " " + otherState);
        return finishGroup(seq, true);
      }
      if (at && at->aux && !runCollective(0, n, at)) return finishGroup(seq, true);
      if (at && s_.checks) s_.checks->barrier(at);
      for (uint64_t i = 0; i < n; ++i) slots_[i]->wi.state = WorkItemState::Running;
    }
  }

  // Local memory starts uninitialised in every work-group (OpenCL C 3.0 §6.7 [[address-space-qualifiers]]).
  void startLocalUndefined() {
    groupUndefined_.resize(groupArena_.size(), 0);
    std::fill(groupUndefined_.begin(), groupUndefined_.end(), 0);
    Slot& any = slot(0);
    for (size_t t = 1; t < k_.allocations.size(); ++t) {
      const auto& d = k_.allocations[t];
      if (k_.allocationOrigin[t] &&
          (d.source == AllocationSource::Workgroup || d.source == AllocationSource::LocalArg))
        std::memset(any.allocs[t].undefined, k_.allocationOrigin[t], any.allocs[t].size);
    }
  }

  void groupStarts(uint64_t g, uint64_t count) {
    items_.resize(count);
    for (uint64_t i = 0; i < count; ++i) items_[i] = &slots_[i]->wi;
    s_.checks->groupStart(g, items_.data(), count);
  }

  static bool isNonUniformStop(const Op* at) {
    return at && at->aux && static_cast<const Collective*>(at->aux)->nonUniform;
  }
  // The non-uniform instruction that runs next in sub-group slots [first, first + count): of those its work-items wait
  // at, the first in the loop-aware order of convergence_order.hpp, so that the work-items that are behind catch up
  // first: those that left a loop wait at the instruction after it while the others still iterate, and a branch's
  // work-items meet again after it (choice sub_group_active_set).
  const Op* nonUniformWaiting(uint64_t first, uint64_t count) const {
    const Op* next = nullptr;
    auto orderOf = [](const Op* op) { return static_cast<const Collective*>(op->aux)->convergenceOrder; };
    for (uint64_t i = first; i < first + count; ++i)  // a time-sliced member can go further
      if (slots_[i]->wi.state == WorkItemState::Yielded) return nullptr;
    for (uint64_t i = first; i < first + count; ++i) {
      const WorkItem& wi = slots_[i]->wi;
      if (wi.state == WorkItemState::AtBarrier && isNonUniformStop(wi.barrier) &&
          (!next || orderOf(wi.barrier) < orderOf(next)))
        next = wi.barrier;
    }
    return next;
  }
  // Runs `at` for the work-items of the sub-group that wait at it (in local id order), after checking the operands
  // they must agree on, and lets them go on.
  bool runNonUniform(uint64_t first, uint64_t count, const Op* at) {
    const auto& c = *static_cast<const Collective*>(at->aux);
    items_.clear();
    for (uint64_t i = first; i < first + count; ++i)
      if (slots_[i]->wi.state == WorkItemState::AtBarrier && slots_[i]->wi.barrier == at)
        items_.push_back(&slots_[i]->wi);
    for (WorkItem* wi : items_)
      for (const auto& [reg, bytes] : c.uniformOperands)
        if (std::memcmp(items_[0]->regs + reg, wi->regs + reg, bytes) != 0) {
          fault(*wi, at, FaultKind::Unsupported,
                "sub-group function called with different values of an operand the spec requires to be the same for "
                "every active work-item, by local work-items " +
                    std::to_string(items_[0]->localLinearId) + " and " + std::to_string(wi->localLinearId) +
                    " (local linear ids)");
          return false;
        }
    // No barrier for the checkers: a non-uniform instruction orders no memory access.
    if (choicesOf(*items_[0]).get<numerics::Choice::SubgroupActiveSet>() == numerics::SubgroupActiveSetOption::Alone) {
      for (WorkItem* wi : items_)
        if (!c.eachAction(&wi, 1, at)) return false;
    } else {
      if (items_.size() > 1)
        noteChoice(*items_[0], at, numerics::Choice::SubgroupActiveSet, "work-items that meet a sub-group function");
      if (!c.eachAction(items_.data(), items_.size(), at)) return false;
    }
    for (WorkItem* wi : items_) wi->state = WorkItemState::Running;
    return true;
  }

  enum class NamedWait { Waiting, Released, Fault };
  // The sub-group in slots [first, first + count) of a work-group of n waits at named barrier `at`
  // (ops_named_barrier.cpp): it is released, with the others waiting there, once the barrier's Subgroup Count
  // sub-groups wait.
  NamedWait waitAtNamedBarrier(uint64_t first, uint64_t count, const Op* at, uint64_t n) {
    if (!runCollective(first, count, at)) return NamedWait::Fault;  // the same barrier in every work-item
    WorkItem& lead = slots_[first]->wi;
    uint64_t h = 0;
    std::memcpy(&h, lead.regs + at->a, k_.addressBits / 8);
    const uint64_t index = h & kHandleIndexMask;
    if ((h & ~uint64_t(kHandleIndexMask)) != kNamedBarrierHandleTag || index >= namedBarriers_.size()) {
      fault(lead, at, FaultKind::InvalidPointer, "the named barrier operand is not a named barrier of the work-group");
      return NamedWait::Fault;
    }
    NamedBarrierState& b = namedBarriers_[index];
    if (std::find(b.waiting.begin(), b.waiting.end(), first) == b.waiting.end()) b.waiting.push_back(first);
    if (b.waiting.size() < b.subgroupCount) return NamedWait::Waiting;
    const uint64_t sg = s_.launch.subgroupSize;
    for (uint64_t f : b.waiting)
      for (uint64_t i = f; i < std::min(f + sg, n); ++i)
        if (slots_[i]->wi.state == WorkItemState::AtBarrier && slots_[i]->wi.barrier == at)
          slots_[i]->wi.state = WorkItemState::Running;
    b.waiting.clear();
    return NamedWait::Released;
  }

  // Nothing can run and sub-groups wait at a named barrier that too few sub-groups can reach: a fault naming it.
  bool stuckAtNamedBarrier() {
    for (size_t i = 0; i < namedBarriers_.size(); ++i) {
      const NamedBarrierState& b = namedBarriers_[i];
      if (b.waiting.empty()) continue;
      WorkItem& w = slots_[b.waiting.front()]->wi;
      fault(w, w.barrier, FaultKind::BarrierDivergence,
            "named barrier " + std::to_string(i) + " waits for " + std::to_string(b.subgroupCount) + " sub-groups, " +
                std::to_string(b.waiting.size()) +
                " wait at it and no other sub-group of the work-group can reach it (they returned or wait elsewhere)");
      return true;
    }
    return false;
  }

  static bool isSubgroupStop(const Op* at) {
    return at->aux && static_cast<const Collective*>(at->aux)->subgroup;
  }

  // A work-group (or sub-group) collective reached by every work-item of the group (sub-group) slots [first, first +
  // count): its operands must agree (OpenCL C 3.0 §6.15.11 [[async-copies]] async copies "must be encountered by all
  // work-items ... with the same argument values"), then it runs once for them.
  bool runCollective(uint64_t first, uint64_t count, const Op* at) {
    const auto& c = *static_cast<const Collective*>(at->aux);
    WorkItem& lead = slots_[first]->wi;
    for (uint64_t i = first + 1; i < first + count; ++i) {
      const WorkItem& wi = slots_[i]->wi;
      for (const auto& [reg, bytes] : c.uniformOperands)
        if (std::memcmp(lead.regs + reg, wi.regs + reg, bytes) != 0) {
          auto ids = [](const std::array<uint64_t, 3>& a) {
            return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + ")";
          };
          fault(slots_[i]->wi, at, FaultKind::Unsupported,
                std::string(c.subgroup ? "sub-group" : "work-group") +
                    " function called with different argument values by local work-items " + ids(lead.localId) +
                    " and " + ids(wi.localId) + "; the spec requires the same values in every work-item");
          return false;
        }
    }
    if (c.eachAction) {
      items_.resize(count);
      for (uint64_t i = 0; i < count; ++i) items_[i] = &slots_[first + i]->wi;
      return c.eachAction(items_.data(), count, at);
    }
    // The action's accesses (an async copy's) are the group's, made while every work-item waits.
    if (s_.checks) s_.checks->inCollective = true;
    const bool ok = c.action ? c.action(lead, at) : true;
    if (s_.checks) s_.checks->inCollective = false;
    return ok;
  }

  // The work-group at schedule position `seq` ended: its output is kept by that position.
  void finishGroup(uint64_t seq, bool faulted) {
    if (faulted) recordFault(seq);
    if (!groupPrintf_.empty()) printf_.emplace_back(seq, std::move(groupPrintf_));
    groupPrintf_.clear();
    // Groups arrive in schedule order, so the first warnings kept are the earliest groups'.
    for (auto& w : groupWarnings_)
      if (warnings_.size() < s_.config.maxWarnings) warnings_.emplace_back(seq, std::move(w));
    groupWarnings_.clear();
    uint64_t decided = 0;  // most work-groups decide no choice (a pass the compiler vectorises)
    for (const uint64_t c : groupChoices_.count) decided |= c;
    if (!decided) return;
    ChoiceGroups thisGroup;
    thisGroup.fill(seq);
    mergeChoices(choices_, choiceFirstGroup_, groupChoices_, thisGroup);
  }
};

}  // namespace

// Without barriers a work-group's work-items run interleaved in batches of this many slots (Worker::runGroup).
constexpr uint64_t kInterleavedBatch = 64;

uint64_t workItemBytes(const LoweredKernel& kernel) {
  return kernel.registerTemplate.size() + kernel.privateArenaBytes + 16;  // the arena's slack (makeSlot)
}

uint64_t slotsPerWorkGroup(const LoweredKernel& kernel, uint64_t groupSize) {
  return allLive(kernel) ? groupSize : std::min(groupSize, kInterleavedBatch);
}

uint64_t maxWorkGroupSize(const LoweredKernel& kernel, uint64_t deviceMax) {
  if (!allLive(kernel) && kInterleavedBatch * workItemBytes(kernel) <= kMaxPrivateBytesPerWorkGroup)
    return deviceMax;
  return std::min(deviceMax, kMaxPrivateBytesPerWorkGroup / workItemBytes(kernel));
}

void runWorkGroups(LaunchState& s, unsigned threads, uint64_t groupBytes) {
  threads = unsigned(std::min<uint64_t>(threads, s.groupsToRun));
  threads = unsigned(std::clamp<uint64_t>(kMaxPrivateBytesInFlight / std::max<uint64_t>(groupBytes, 1), 1, threads));
  // At least 8 chunks per thread, so that threads finishing early find work; at most 64 groups per chunk.
  s.chunk = std::clamp<uint64_t>(s.groupsToRun / (uint64_t(threads) * 8), 1, 64);
  if (threads <= 1) {
    Worker(s).run();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    try {
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back([&s] { Worker(s).run(); });
    } catch (const std::system_error&) {
      // Fewer threads than asked: those started take every work-group (handed out one by one).
      if (pool.empty()) Worker(s).run();
    }
    for (auto& t : pool) t.join();
  }
}

}  // namespace clref::interpreter
