// The shadow map's entries (interpreter/shadow.hpp) by the host address of their first byte, in an open-addressing
// table with linear probing. It replaced an ordered map: a value with a set in a loop (an accumulator) is read, set and
// moved by its phi copy at every step, and each of those was a search of the tree's height; here each is one probe.
// Address order, where a query needs it, comes from the coverage table's starts (shadow_coverage.hpp). Internal to
// the interpreter.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace clref::interpreter {

template <class Entry> class ShadowEntryTable {
 public:
  bool empty() const { return count_ == 0; }
  size_t capacity() const { return slots_.size(); }
  // The entry that starts at host address a (never 0), or nullptr.
  Entry* find(uintptr_t a) {
    if (count_ == 0) return nullptr;
    for (size_t i = home(a);; i = next(i)) {
      if (slots_[i].key == a) return &slots_[i].entry;
      if (slots_[i].key == 0) return nullptr;
    }
  }
  const Entry* find(uintptr_t a) const { return const_cast<ShadowEntryTable*>(this)->find(a); }
  // Inserts or replaces the entry at a.
  void put(uintptr_t a, const Entry& e) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    size_t i = home(a);
    for (; slots_[i].key != 0; i = next(i))
      if (slots_[i].key == a) {
        slots_[i].entry = e;
        return;
      }
    slots_[i] = {a, e};
    ++count_;
  }
  // Removes the entry at a, if any: the entries after it in its probe run move back over the hole where their home
  // allows (backward-shift deletion), so that no tombstone lengthens later probes.
  void erase(uintptr_t a) {
    if (count_ == 0) return;
    size_t hole = home(a);
    for (; slots_[hole].key != a; hole = next(hole))
      if (slots_[hole].key == 0) return;
    for (size_t j = next(hole); slots_[j].key != 0; j = next(j)) {
      const size_t mask = slotMask_, h = home(slots_[j].key);
      // Entry j may fill the hole when its home is not cyclically within (hole, j].
      if (((j - h) & mask) >= ((j - hole) & mask)) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].key = 0;
    --count_;
  }
  // f(address, entry) for every entry, in table order.
  template <class F> void forEach(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key) f(s.key, s.entry);
  }

 private:
  struct Slot {
    uintptr_t key = 0;  // the entry's first byte; 0: an empty slot
    Entry entry{};
  };
  std::vector<Slot> slots_;
  size_t count_ = 0;
  unsigned shift_ = 64;  // 64 - log2(slots_.size())
  size_t slotMask_ = 0;  // slots_.size() - 1

  // Fibonacci hashing: the product's top bits, which every bit of the address reaches.
  size_t home(uintptr_t a) const { return size_t((uint64_t(a) * 0x9E3779B97F4A7C15ull) >> shift_); }
  size_t next(size_t i) const { return (i + 1) & slotMask_; }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t size = old.empty() ? 64 : old.size() * 2;
    slots_.assign(size, Slot{});
    shift_ = 64 - unsigned(std::countr_zero(size));
    slotMask_ = size - 1;
    for (const Slot& s : old)
      if (s.key) {
        size_t i = home(s.key);
        while (slots_[i].key != 0) i = next(i);
        slots_[i] = s;
      }
  }
};

}  // namespace clref::interpreter
