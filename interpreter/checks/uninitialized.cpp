// Undefined values at run time (uninitialized.hpp): the shadow Ops undefined_values.cpp emits, and the memory side
// of the uninitialised-value checker.
#include "interpreter/checks/uninitialized.hpp"

#include <algorithm>
#include <span>

#include "interpreter/avx2_clones.hpp"
#include "interpreter/lanes.hpp"
#include "interpreter/module.hpp"

namespace clref::interpreter::uninitialized {
namespace {

const std::vector<uint32_t>& table(const Op* op) { return *static_cast<const std::vector<uint32_t>*>(op->aux); }

// Copies of at most 8 bytes with the size known only at run time: a fixed-size copy per case, not a library call.
inline void copySmall(uint8_t* to, const uint8_t* from, uint64_t n) {
  switch (n) {
    case 1: *to = *from; return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    default: std::memcpy(to, from, n); return;
  }
}

// The value of n ≤ 8 shadow bytes as one word, read in their own width: assembled in a register, not through a
// zeroed word in memory, whose 8-byte reload after a narrower store the processor cannot forward (a stall of
// a dozen cycles per operand).
inline uint64_t wordOf(const uint8_t* p, uint64_t n) {
  switch (n) {
    case 0: return 0;
    case 1: return *p;
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case 8: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    default: {
      uint64_t v = 0;
      std::memcpy(&v, p, n);
      return v;
    }
  }
}

// The largest origin among n shadow bytes. Nearly every value is defined: eight bytes at a time are tested for
// zero first, and only an undefined word is searched.
[[gnu::noinline]] uint8_t largestOf(const uint8_t* p, uint64_t n) {
  uint8_t m = 0;
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w)
      for (int b = 0; b < 8; ++b) m = std::max(m, p[i + b]);
  }
  for (; i < n; ++i) m = std::max(m, p[i]);
  return m;
}
// The same, inlined into the shadow Ops: an operand of at most 8 bytes (a scalar or a short vector, most operands)
// that is defined is one word tested, without a call or a loop.
[[gnu::always_inline]] inline uint8_t largest(const uint8_t* p, uint64_t n) {
  if (n <= 8 && !wordOf(p, n)) [[likely]]
    return 0;
  return largestOf(p, n);
}
uint8_t firstOrigin(const uint8_t* p, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (p[i]) return p[i];
  return 0;
}

std::string originOf(const WorkItem& wi, uint8_t origin) {
  const auto& o = wi.launch->kernel->undefinedOrigins;
  return origin < o.size() ? o[origin] : "an undefined value";
}

const char* useText(Use u) {
  switch (u) {
    case Use::Branch: return "branch condition";
    case Use::Address: return "memory address";
    case Use::Stored: return "value stored to global memory";
    case Use::ImageWrite: return "value written to an image";
    case Use::Printed: return "printf argument";
  }
  return "value";
}

void report(WorkItem& wi, const Op* op, const std::string& message) {
  if (!wi.checks) return;
  Diagnostic d = diagnosticAt(wi, op, message);
  d.kind = FaultKind::UninitialisedValue;
  wi.checks->report(FaultKind::UninitialisedValue, op->inst, std::move(d));
}

const Op* join(WorkItem& wi, const Op* op) {
  const auto& t = table(op);
  uint8_t m = 0;
  for (size_t i = 0; i + 1 < t.size(); i += 2) m = std::max(m, largest(wi.regs + t[i], t[i + 1]));
  std::memset(wi.regs + op->r, m, op->n);
  return op + 1;
}

// join for the usual case, one or two operands of at most 8 bytes and a result of at most 8: a and b the operands'
// shadows (b a zero shadow for one operand), c their sizes (low and high half-word), n the result's.
const Op* joinSmall(WorkItem& wi, const Op* op) {
  const uint64_t x = wordOf(wi.regs + op->a, op->c & 0xffff), y = wordOf(wi.regs + op->b, op->c >> 16);
  if (!(x | y)) [[likely]] {
    static constexpr uint8_t kDefined[8] = {};
    copySmall(wi.regs + op->r, kDefined, op->n);
    return op + 1;
  }
  const uint8_t m = std::max(largest(wi.regs + op->a, op->c & 0xffff), largest(wi.regs + op->b, op->c >> 16));
  std::memset(wi.regs + op->r, m, op->n);
  return op + 1;
}

const Op* lanes(WorkItem& wi, const Op* op) {
  const auto& t = table(op);
  const uint32_t count = t[0], laneBytes = t[1];
  uint8_t scalars = 0;  // the scalar operands every lane depends on
  for (size_t i = 2; i + 2 < t.size(); i += 3)
    if (!t[i + 1]) scalars = std::max(scalars, largest(wi.regs + t[i], t[i + 2]));
  std::memset(wi.regs + op->r, 0, op->n);  // a 3-component vector's padding lane stays defined
  for (uint32_t l = 0; l < count; ++l) {
    uint8_t m = scalars;
    for (size_t i = 2; i + 2 < t.size(); i += 3)
      if (t[i + 1]) m = std::max(m, largest(wi.regs + t[i] + l * t[i + 1], t[i + 1]));
    if (m) std::memset(wi.regs + op->r + l * laneBytes, m, laneBytes);
  }
  return op + 1;
}

const Op* moves(WorkItem& wi, const Op* op) {
  const auto& t = table(op);
  std::memset(wi.regs + op->r, 0, op->n);
  for (size_t i = 0; i + 2 < t.size(); i += 3) std::memcpy(wi.regs + op->r + t[i], wi.regs + t[i + 1], t[i + 2]);
  return op + 1;
}

// r = shadow of the result, a/b/c = shadows of condition/object 1/object 2, imm = the condition's register,
// n = result bytes, align = lanes of the condition, aux = (condition lane bytes, result lane bytes) for a vector one.
const Op* select(WorkItem& wi, const Op* op) {
  uint8_t* r = wi.regs + op->r;
  if (op->align <= 1) {
    const bool cond = wi.regs[uint32_t(op->imm)] != 0;
    std::memcpy(r, wi.regs + (cond ? op->b : op->c), op->n);
    if (const uint8_t m = wi.regs[op->a]) std::memset(r, m, op->n);
    return op + 1;
  }
  const uint32_t cb = table(op)[0], rb = table(op)[1];
  std::memset(r, 0, op->n);
  for (uint32_t l = 0; l < op->align; ++l) {
    bool cond = false;
    for (uint32_t i = 0; i < cb; ++i) cond |= wi.regs[uint32_t(op->imm) + l * cb + i] != 0;
    std::memcpy(r + l * rb, wi.regs + (cond ? op->b : op->c) + l * rb, rb);
    if (const uint8_t m = largest(wi.regs + op->a + l * cb, cb)) std::memset(r + l * rb, m, rb);
  }
  return op + 1;
}

// The accesses the instruction of `op` made (CheckRun::recent), taken: the next access starts a new record.
std::span<const CheckRun::AccessRecord> takeRecords(WorkItem& wi, const Op* op) {
  if (!wi.checks || wi.checks->recentInst != op->inst) return {};
  wi.checks->recentInst = UINT32_MAX;
  return {wi.checks->recent.data(), wi.checks->recentCount};
}

// r = result shadow, n = result bytes.
const Op* load(WorkItem& wi, const Op* op) {
  const auto records = takeRecords(wi, op);
  uint8_t* r = wi.regs + op->r;
  uint64_t total = 0;
  for (const auto& a : records) total += a.bytes;
  if (total == op->n) {
    for (const auto& a : records) {
      const uint8_t* u = wi.allocs[a.tag].undefinedToRead();
      if (u)
        copySmall(r, u + a.off, a.bytes);
      else
        std::memset(r, 0, a.bytes);
      r += a.bytes;
    }
    return op + 1;
  }
  // A converting load (vload_half): every result byte depends on every byte read.
  uint8_t m = 0;
  for (const auto& a : records)
    if (const uint8_t* u = wi.allocs[a.tag].undefinedToRead()) m = std::max(m, largest(u + a.off, a.bytes));
  std::memset(r, m, op->n);
  return op + 1;
}

// After bytes of global memory received shadow `u`: an undefined value stored there is a finding.
void checkStored(WorkItem& wi, const Op* op, const CheckRun::AccessRecord& a, const uint8_t* u) {
  if (wi.allocs[a.tag].storage != spv::StorageClass::CrossWorkgroup || !largest(u, a.bytes)) return;
  for (uint64_t i = 0; i < a.bytes; ++i)
    if (u[i]) {
      report(wi, op,
             std::string(useText(Use::Stored)) + " is uninitialised: byte " + std::to_string(a.off + i) + " of " +
                 allocationName(*wi.launch->kernel, a.tag) + " receives " + originOf(wi, u[i]));
      return;
    }
}

// b = shadow of the stored value, n = its bytes.
const Op* store(WorkItem& wi, const Op* op) {
  const auto records = takeRecords(wi, op);
  const uint8_t* v = wi.regs + op->b;
  const bool undefinedValue = largest(v, op->n) != 0;
  for (const auto& a : records) {
    uint8_t* u = wi.allocs[a.tag].undefinedToWrite(undefinedValue);
    if (!u) continue;
    if (a.bytes == op->n)
      copySmall(u + a.off, v, a.bytes);
    else
      std::memset(u + a.off, largest(v, op->n), a.bytes);  // a converting store (vstore_half)
    checkStored(wi, op, a, u + a.off);
  }
  return op + 1;
}

// r = result shadow (0: none), n = result bytes, a = 1 for OpAtomicStore, aux = (shadow, bytes) of each value operand.
const Op* atomic(WorkItem& wi, const Op* op) {
  const auto records = takeRecords(wi, op);
  const auto& t = table(op);
  uint8_t values = 0;
  for (size_t i = 0; i + 1 < t.size(); i += 2) values = std::max(values, largest(wi.regs + t[i], t[i + 1]));
  for (const auto& a : records) {
    const Allocation& A = wi.allocs[a.tag];
    if (op->r) {
      const uint8_t* u = A.undefinedToRead();
      if (u && a.bytes == op->n)
        std::memcpy(wi.regs + op->r, u + a.off, a.bytes);
      else
        std::memset(wi.regs + op->r, u ? largest(u + a.off, a.bytes) : 0, op->n);
    }
    uint8_t* u = A.undefinedToWrite(values != 0);
    if (!u) continue;
    if (op->a && t.size() >= 2 && t[1] == a.bytes)
      std::memcpy(u + a.off, wi.regs + t[0], a.bytes);
    else
      for (uint64_t i = 0; i < a.bytes; ++i) u[a.off + i] = op->a ? values : std::max(u[a.off + i], values);
    checkStored(wi, op, a, u + a.off);
  }
  return op + 1;
}

std::string useMessage(const WorkItem& wi, const Op* op, uint8_t origin) {
  return std::string(useText(Use(op->n))) + " depends on " + originOf(wi, origin);
}

// a = shadow, b = bytes, n = Use.
const Op* useFault(WorkItem& wi, const Op* op) {
  if (const uint8_t o = firstOrigin(wi.regs + op->a, op->b)) [[unlikely]]
    return fault(wi, op, FaultKind::UndefinedValue, useMessage(wi, op, o));
  return op + 1;
}
// A shader's branch on an undefined value: SPIR-V 1.0 §3.32.1 [external] OpUndef gives an arbitrary bit pattern, and
// a shader (unlike an OpenCL C kernel, where reading an indeterminate value is undefined behaviour) may branch on
// it: the path the choice undef_value's bits take is one of the allowed ones, so the run goes on with a warning.
const Op* useWarning(WorkItem& wi, const Op* op) {
  if (const uint8_t o = firstOrigin(wi.regs + op->a, op->b)) [[unlikely]]
    warnChoice(wi, op, numerics::Choice::UndefValue,
               useMessage(wi, op, o) + ": the path its bits (choice undef_value) select is taken");
  return op + 1;
}
const Op* useFinding(WorkItem& wi, const Op* op) {
  if (const uint8_t o = firstOrigin(wi.regs + op->a, op->b)) [[unlikely]]
    report(wi, op, useMessage(wi, op, o));
  return op + 1;
}

// The lane forms (lanes.hpp). The lanes run a shadow Op while every shadow it reads is zero in every lane (the values
// are defined, as they nearly always are): the result's shadow is then zero too, for each of these Ops. The first lane
// with an undefined operand stops the lanes before it (stopBefore): it and those after it run the Op alone, where the
// one-by-one handler follows the origins and reports the uses, in the one-by-one order (the lanes before it report
// nothing on lanes). The memory shadows move on lanes whatever they hold (loadOnLanes, storeOnLanes).

struct Shadow {
  uint32_t reg, bytes;
};

// Bytes [from, to) of an 8-byte register chunk as a mask (0 <= from < to <= 8).
constexpr uint64_t chunkMask(uint32_t from, uint32_t to) {
  return (to >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * to)) - 1) & ~((uint64_t(1) << (8 * from)) - 1);
}

// The first of lanes [0, count) with a nonzero byte in register bytes [reg, reg + bytes), or count: every lane's
// chunks OR-ed together first, and a search lane by lane only where that is not zero.
CLREF_AVX2_CLONES uint32_t firstUndefinedLane(const LaneBatch& b, Shadow s, uint32_t count) {
  const uint32_t end = s.reg + s.bytes;
  uint64_t any = 0;
  for (uint32_t at = s.reg & ~7u; at < end; at += 8) {
    const uint8_t* __restrict p = b.lane0(at);
    uint64_t lanes = 0;
    for (uint32_t l = 0; l < count; ++l) lanes |= rdLane<uint64_t>(p, l);
    any |= lanes & chunkMask(std::max(at, s.reg) - at, std::min(at + 8, end) - at);
  }
  if (!any) [[likely]]
    return count;
  for (uint32_t l = 0; l < count; ++l)
    for (uint32_t at = s.reg & ~7u; at < end; at += 8)
      if (rdLane<uint64_t>(b.lane0(at), l) & chunkMask(std::max(at, s.reg) - at, std::min(at + 8, end) - at)) return l;
  return count;
}

// Register bytes [reg, reg + bytes) zero (defined) in lanes [0, count), the other bytes of their chunks kept.
CLREF_AVX2_CLONES void defineLanes(const LaneBatch& b, Shadow s, uint32_t count) {
  const uint32_t end = s.reg + s.bytes;
  for (uint32_t at = s.reg & ~7u; at < end; at += 8) {
    const uint64_t keep = ~chunkMask(std::max(at, s.reg) - at, std::min(at + 8, end) - at);
    uint8_t* __restrict p = b.lane0(at);
    if (!keep) {
      std::memset(p, 0, size_t(count) * 8);
      continue;
    }
    for (uint32_t l = 0; l < count; ++l) wrLane<uint64_t>(p, l, rdLane<uint64_t>(p, l) & keep);
  }
}

// A register shadow Op on lanes: `result` defined in the lanes whose `operands` are all defined, up to the first that
// is not.
const Op* definedOnLanes(LaneBatch& b, const Op* op, const Shadow* operands, size_t count, Shadow result) {
  uint32_t k = b.count;
  for (size_t i = 0; i < count; ++i) k = firstUndefinedLane(b, operands[i], k);
  if (result.bytes) defineLanes(b, result, k);
  return k == b.count ? op + 1 : stopBefore(b, op, k);
}

// join and lanes: operands (shadow, bytes) in pairs from table word `from`, `stride` words apart.
const Op* tableOnLanes(LaneBatch& b, const Op* op, size_t from, size_t stride, size_t bytesAt) {
  const auto& t = table(op);
  Shadow operands[16];
  size_t count = 0;
  for (size_t i = from; i + stride <= t.size(); i += stride) {
    if (count == std::size(operands)) return leaveLanes(b, op);
    operands[count++] = {t[i], t[i + bytesAt]};
  }
  return definedOnLanes(b, op, operands, count, {op->r, op->n});
}
const Op* joinOnLanes(LaneBatch& b, const Op* op) { return tableOnLanes(b, op, 0, 2, 1); }
const Op* lanesOnLanes(LaneBatch& b, const Op* op) { return tableOnLanes(b, op, 2, 3, 2); }
const Op* movesOnLanes(LaneBatch& b, const Op* op) {
  // (destination offset, source shadow, bytes) triples: the sources are the operands.
  const auto& t = table(op);
  Shadow operands[16];
  size_t count = 0;
  for (size_t i = 0; i + 2 < t.size(); i += 3) {
    if (count == std::size(operands)) return leaveLanes(b, op);
    operands[count++] = {t[i + 1], t[i + 2]};
  }
  return definedOnLanes(b, op, operands, count, {op->r, op->n});
}
const Op* joinSmallOnLanes(LaneBatch& b, const Op* op) {
  const Shadow operands[2] = {{op->a, op->c & 0xffff}, {op->b, op->c >> 16}};
  return definedOnLanes(b, op, operands, 2, {op->r, op->n});
}
const Op* selectOnLanes(LaneBatch& b, const Op* op) {
  const uint32_t conditionBytes = op->align <= 1 ? 1 : op->align * table(op)[0];
  const Shadow operands[3] = {{op->a, conditionBytes}, {op->b, op->n}, {op->c, op->n}};
  return definedOnLanes(b, op, operands, 3, {op->r, op->n});
}
// The uses: the lanes before the first whose value is undefined pass; it runs alone, to fault, warn or report.
const Op* useOnLanes(LaneBatch& b, const Op* op) {
  const Shadow value{op->a, op->b};
  return definedOnLanes(b, op, &value, 1, {0, 0});
}

// Whether the memory Op just before `op` noted its accesses on these lanes (LaneLog::undefinedAt).
bool accessesNoted(const LaneBatch& b, const Op* op) {
  const LaneLog& g = *b.log;
  return g.undefinedOf == op - 1 &&
         (g.undefinedNote != LaneLog::UndefinedNote::PerLane || g.undefinedAt.size() >= b.count);
}
constexpr uint32_t kMaxLaneShadow = 64;  // the largest value whose shadow moves on lanes (accesses are at most 16)

// Whether n shadow bytes are all zero (defined), eight at a time.
CLREF_AVX2_CLONES bool allDefined(const uint8_t* p, size_t n) {
  uint64_t any = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    any |= w;
  }
  for (; i < n; ++i) any |= p[i];
  return !any;
}

// Whether the bytes every lane's access touched are all defined.
bool accessesDefined(const LaneLog& g, uint32_t count) {
  const uint32_t bytes = g.undefinedBytes;
  switch (g.undefinedNote) {
    case LaneLog::UndefinedNote::Dense: return !g.undefinedBase || allDefined(g.undefinedBase, size_t(count) * bytes);
    case LaneLog::UndefinedNote::Offsets: {
      if (!g.undefinedBase) return true;
      if (bytes > 8) break;
      const uint8_t* const base = g.undefinedBase;
      const uintptr_t* const off = g.undefinedOffsets;
      uint64_t any = 0;
      if (bytes == 4) {  // a float or an int: the usual access, its width known to the loop
        for (uint32_t l = 0; l < count; ++l) any |= wordOf(base + off[l], 4);
      } else {
        for (uint32_t l = 0; l < count; ++l) any |= wordOf(base + off[l], bytes);
      }
      return !any;
    }
    case LaneLog::UndefinedNote::PerLane: break;
  }
  for (uint32_t l = 0; l < count; ++l)
    if (const uint8_t* u = g.undefinedOfLane(l).shadow; u && largest(u, bytes)) return false;
  return true;
}

// load on lanes: each lane's result shadow from the bytes it read (as load(): copied where the access has the
// result's size, else their largest origin in every byte).
const Op* loadOnLanes(LaneBatch& b, const Op* op) {
  const LaneLog& g = *b.log;
  const uint32_t n = op->n, bytes = g.undefinedBytes, count = b.count;
  if (!accessesNoted(b, op) || n > kMaxLaneShadow) [[unlikely]]
    return undoSpan(b, op);
  // Bytes all defined (nearly every load): every lane's result defined at once.
  if (accessesDefined(g, count)) {
    defineLanes(b, {op->r, n}, count);
    return op + 1;
  }
  static constexpr uint8_t kDefined[kMaxLaneShadow] = {};
  uint8_t* const r = b.lane0(op->r);
  for (uint32_t l = 0; l < count; ++l) {
    const uint8_t* u = g.undefinedOfLane(l).shadow;
    if (!u) u = kDefined;
    uint8_t fill[kMaxLaneShadow];
    if (bytes != n) {
      std::memset(fill, largest(u, bytes), n);
      u = fill;
    }
    if (n <= 8)
      copySmall(r + size_t(l) * 8, u, n);
    else
      memoryToLane(b, op->r, l, u, n);
  }
  return op + 1;
}

// store on lanes: the stored value's shadow into each lane's bytes (as store()), their old shadow kept in the log for
// an undo. A lane that stores an undefined value to global memory (a finding) has the span undone, to run one by one.
const Op* storeOnLanes(LaneBatch& b, const Op* op) {
  LaneLog& g = *b.log;
  const uint32_t n = op->n, bytes = g.undefinedBytes, count = b.count;
  if (!accessesNoted(b, op) || n > kMaxLaneShadow || bytes > kMaxLaneShadow) [[unlikely]]
    return undoSpan(b, op);
  // Defined values (nearly every store): the bytes become defined, consecutive ones at once.
  if (firstUndefinedLane(b, {op->b, n}, count) == count) {
    if (g.undefinedNote == LaneLog::UndefinedNote::Dense) {
      const size_t span = size_t(count) * bytes;
      if (g.undefinedBase && !allDefined(g.undefinedBase, span)) {
        g.saveDense(g.undefinedBase, uint32_t(span));
        std::memset(g.undefinedBase, 0, span);
      }
      return op + 1;
    }
    for (uint32_t l = 0; l < count; ++l)
      if (uint8_t* const u = g.undefinedOfLane(l).shadow; u && largest(u, bytes)) {
        g.saveDense(u, bytes);
        std::memset(u, 0, bytes);
      }
    return op + 1;
  }
  for (uint32_t l = 0; l < count; ++l) {
    const LaneLog::UndefinedAt at = g.undefinedOfLane(l);
    uint8_t* const u = at.shadow;
    uint8_t v[kMaxLaneShadow];
    laneToMemory(b, op->b, l, v, n);
    const uint8_t stored = largest(v, n);
    // No shadow to read: memory always defined, or a buffer none of whose bytes is undefined yet (its first undefined
    // byte is the one-by-one store's to write, and a finding).
    if (!u) {
      if (at.global && stored) [[unlikely]]
        return undoSpan(b, op);
      continue;
    }
    if (!stored && !largest(u, bytes)) continue;  // defined bytes stay defined: nothing to move or to undo
    g.saveDense(u, bytes);
    if (bytes == n)
      std::memcpy(u, v, n);
    else
      std::memset(u, stored, bytes);
    if (at.global && stored) [[unlikely]]
      return undoSpan(b, op);
  }
  return op + 1;
}

}  // namespace

Handler joinShadow() { return laneForm<&join, &joinOnLanes>(); }
Handler joinSmallShadow() { return laneForm<&joinSmall, &joinSmallOnLanes>(); }
Handler lanesShadow() { return laneForm<&lanes, &lanesOnLanes>(); }
Handler movesShadow() { return laneForm<&moves, &movesOnLanes>(); }
Handler selectShadow() { return laneForm<&select, &selectOnLanes>(); }
Handler loadShadow() { return laneForm<&load, &loadOnLanes>(); }
Handler storeShadow() { return laneForm<&store, &storeOnLanes>(); }
Handler atomicShadow() { return &atomic; }  // atomics keep work-items off lanes
Handler useHandler(bool full, bool warnOnly) {
  if (full) return laneForm<&useFinding, &useOnLanes>();
  return warnOnly ? laneForm<&useWarning, &useOnLanes>() : laneForm<&useFault, &useOnLanes>();
}

void recordWrite(WorkItem& wi, const Op* op, const Allocation& a, uint32_t tag, uint64_t off, uint64_t bytes) {
  const CheckRun& run = *wi.checks;
  // No shadow Op follows: the bytes are copied from the read just before (an async copy's element, OpCopyMemory),
  // or made by the instruction (frexp's exponent through a pointer): defined.
  const auto* last = run.recentCount ? &run.recent[run.recentCount - 1] : nullptr;
  const uint8_t* from = last && !last->write && last->bytes == bytes ? wi.allocs[last->tag].undefinedToRead() : nullptr;
  if (from) from += last->off;
  if (uint8_t* const u = a.undefinedToWrite(from && largest(from, bytes))) {
    if (from) {
      std::memmove(u + off, from, bytes);
      // A copy into global memory (OpCopyMemorySized of a struct, an async copy out of local memory) stores what it
      // copies.
      checkStored(wi, op, {tag, off, bytes, true}, u + off);
    } else {
      std::memset(u + off, 0, bytes);
    }
  }
}

}  // namespace clref::interpreter::uninitialized
