// Which host bytes the shadow map's entries cover (interpreter/shadow.hpp), as one bit per byte in granules of 64
// bytes kept in an open-addressing table, and the bytes where an entry starts: the map's queries (does a lane have an
// entry, is a range exact) ask it first, and the entries of a range are found, in address order, from its starts.
// Most of a shadow run's queries are of bytes that hold exactly clref's value — loads of a kernel's inputs, integer
// registers — which an ordered map answered with a search of its whole height each (a third to a half of a shadow run
// whose values have sets); the table answers them with one probe. Internal to the interpreter.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace clref::interpreter {

class ShadowCoverage {
 public:
  // Bytes [a, a + n) are now covered by an entry that starts at a / no longer covered (the entry was erased).
  // Most entries are a lane within one granule: one step of change(), inline.
  void add(uintptr_t a, uint64_t n) {
    if (n && oneGranule(a, n)) return cover(a >> kGranuleBits, a, a + n, startBit(a));
    change(a, n, true);
  }
  void remove(uintptr_t a, uint64_t n) {
    if (n && oneGranule(a, n)) return uncover(a >> kGranuleBits, a, a + n, startBit(a));
    change(a, n, false);
  }
  // f(start) for each entry start in [lo, hi), in address order, until f returns true. The masks are read a granule
  // at a time: f may remove the entry it is given.
  template <class F> void forEachStart(uintptr_t lo, uintptr_t hi, F&& f) const {
    if (live_ == 0 || hi <= lo) return;
    for (uintptr_t g = lo >> kGranuleBits; g <= (hi - 1) >> kGranuleBits; ++g) {
      const Slot* s = find(g);
      if (!s) continue;
      for (uint64_t m = s->starts & bitsOf(g, lo, hi); m; m &= m - 1)
        if (f((g << kGranuleBits) + unsigned(std::countr_zero(m)))) return;
    }
  }
  // The granules a range of n bytes from a spans (what forEachStart probes).
  static uint64_t granules(uintptr_t a, uint64_t n) {
    return n == 0 ? 0 : ((a + n - 1) >> kGranuleBits) - (a >> kGranuleBits) + 1;
  }
  // Whether any byte of [a, a + n) is covered; ranges longer than kExactBytes are answered true without a look (the
  // caller asks the map).
  bool any(uintptr_t a, uint64_t n) const {
    if (live_ == 0 || n == 0) return false;
    const unsigned offset = unsigned(a) & (kGranule - 1);
    if (n <= kGranule - offset) {  // most queries: a lane or a register within one granule
      const Slot* s = find(a >> kGranuleBits);
      return s && (s->mask & (lowBits(unsigned(n)) << offset));
    }
    if (n > kExactBytes) return true;
    const uintptr_t end = a + n, first = a >> kGranuleBits, last = (end - 1) >> kGranuleBits;
    for (uintptr_t g = first; g <= last; ++g) {
      const Slot* s = find(g);
      if (s && (s->mask & bitsOf(g, a, end))) return true;
    }
    return false;
  }
  static constexpr uint64_t kExactBytes = 512;

 private:
  static constexpr unsigned kGranuleBits = 6, kGranule = 1u << kGranuleBits;
  static uint64_t lowBits(unsigned n) { return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; }  // n <= 64
  struct Slot {
    uintptr_t key = 0;  // granule + 1; 0: an empty slot
    uint64_t mask = 0;    // bit i: byte i of the granule is covered
    uint64_t starts = 0;  // bit i: an entry starts at byte i
  };
  std::vector<Slot> slots_;
  size_t used_ = 0;  // slots with a key (a granule whose mask fell to 0 keeps its slot until the table grows)
  size_t live_ = 0;  // slots whose mask is not 0

  // The bits of granule g's bytes within [a, end).
  static uint64_t bitsOf(uintptr_t g, uintptr_t a, uintptr_t end) {
    const uintptr_t base = g << kGranuleBits;
    const unsigned lo = a > base ? unsigned(a - base) : 0;
    const unsigned hi = end - base < 64 ? unsigned(end - base) : 64;
    const uint64_t upTo = hi == 64 ? ~uint64_t(0) : (uint64_t(1) << hi) - 1;
    return upTo & ~((uint64_t(1) << lo) - 1);
  }
  unsigned shift_ = 64;  // 64 - log2(slots_.size())
  size_t slotMask_ = 0;  // slots_.size() - 1
  // Fibonacci hashing: the product's top bits, which every bit of the granule number reaches.
  size_t home(uintptr_t g) const { return size_t((uint64_t(g) * 0x9E3779B97F4A7C15ull) >> shift_); }
  const Slot* find(uintptr_t g) const {
    for (size_t i = home(g);; i = (i + 1) & slotMask_) {
      if (slots_[i].key == g + 1) return &slots_[i];
      if (slots_[i].key == 0) return nullptr;
    }
  }
  Slot* find(uintptr_t g) { return const_cast<Slot*>(static_cast<const ShadowCoverage*>(this)->find(g)); }
  Slot& findOrAdd(uintptr_t g) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    size_t i = home(g);
    for (; slots_[i].key != 0; i = (i + 1) & slotMask_)
      if (slots_[i].key == g + 1) return slots_[i];
    ++used_;
    slots_[i].key = g + 1;
    return slots_[i];
  }
  // Twice the slots (at least 64), the granules with covered bytes moved over; emptied granules are dropped.
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    size_t live = 0;
    for (const Slot& s : old) live += s.mask != 0;
    size_t size = 64;
    while (size < (live + 1) * 4) size *= 2;
    slots_.assign(size, Slot{});
    shift_ = 64 - unsigned(std::countr_zero(size));
    slotMask_ = size - 1;
    used_ = 0;
    for (const Slot& s : old)
      if (s.mask) {
        size_t i = home(s.key - 1);
        while (slots_[i].key != 0) i = (i + 1) & slotMask_;
        slots_[i] = s;
        ++used_;
      }
  }
  static bool oneGranule(uintptr_t a, uint64_t n) { return (a >> kGranuleBits) == ((a + n - 1) >> kGranuleBits); }
  static uint64_t startBit(uintptr_t a) { return uint64_t(1) << (a & ((uintptr_t(1) << kGranuleBits) - 1)); }
  // Granule g's bytes within [a, end) covered / uncovered, and the start bits `starts` set / cleared.
  void cover(uintptr_t g, uintptr_t a, uintptr_t end, uint64_t starts) {
    Slot& s = findOrAdd(g);
    live_ += s.mask == 0;
    s.mask |= bitsOf(g, a, end);
    s.starts |= starts;
  }
  void uncover(uintptr_t g, uintptr_t a, uintptr_t end, uint64_t starts) {
    if (Slot* s = live_ ? find(g) : nullptr; s && s->mask) {
      s->mask &= ~bitsOf(g, a, end);
      s->starts &= ~starts;
      live_ -= s->mask == 0;
    }
  }
  void change(uintptr_t a, uint64_t n, bool covered) {
    const uintptr_t end = a + n;
    for (uintptr_t g = a >> kGranuleBits; n && g <= (end - 1) >> kGranuleBits; ++g) {
      const uint64_t starts = g == a >> kGranuleBits ? startBit(a) : 0;  // the entry starts in its first granule
      if (covered)
        cover(g, a, end, starts);
      else
        uncover(g, a, end, starts);
    }
  }
};

}  // namespace clref::interpreter
