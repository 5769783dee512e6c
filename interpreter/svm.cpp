// The SVM address range (svm.hpp): reserved once, allocated with a bump pointer, never reused.
#include "interpreter/svm.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace clref::interpreter::svm {

namespace {

struct Range {
  std::shared_mutex mutex;
  bool tried = false;     // reservation attempted
  bool reserved = false;  // [kRangeBase, kRangeBase + kRangeBytes) is ours
  uint64_t next = kRangeBase;
  std::map<uint64_t, Region> regions;  // by base, live and freed
  uint64_t keepers = 0;                // live PagesKept
  std::vector<Region> unreleased;      // freed while keepers > 0: pages still mapped
};

Range& range() {
  static Range r;
  return r;
}

std::atomic<bool> used{false};
// Bumped by every free: a thread's cached region (regionAtOrBelow) stays valid until then. An allocation leaves every
// lookup inside an existing region as it was (regions never overlap, and new ones lie above the old).
std::atomic<uint64_t> frees{0};

uint64_t pageSize() {
  static const uint64_t p = uint64_t(sysconf(_SC_PAGESIZE));
  return p;
}

// Reserves the whole range inaccessible: nothing else the process maps can land in it afterwards.
bool reserve(Range& r) {
  if (r.tried) return r.reserved;
  r.tried = true;
  void* want = reinterpret_cast<void*>(kRangeBase);
  void* got =
      mmap(want, kRangeBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == MAP_FAILED) return false;
  if (got != want) {  // a kernel without MAP_FIXED_NOREPLACE took it as a hint and placed it elsewhere
    munmap(got, kRangeBytes);
    return false;
  }
  r.reserved = true;
  return true;
}

// The pages go back to the system and become inaccessible: a later use through a stale pointer faults (host) or is
// reported (kernel), and the addresses are not handed out again.
void releasePages(const Region& freed) {
  const uint64_t page = pageSize();
  const uint64_t pages = (freed.size + page - 1) / page * page;
  void* base = reinterpret_cast<void*>(freed.base);
  madvise(base, pages, MADV_DONTNEED);
  mprotect(base, pages, PROT_NONE);
}

}  // namespace

void* allocate(uint64_t bytes, uint64_t alignment, bool kernelReadOnly) {
  Range& r = range();
  std::unique_lock lock(r.mutex);
  const uint64_t page = pageSize();
  if (bytes == 0 || alignment > page || (alignment & (alignment - 1)) || !reserve(r)) return nullptr;
  const uint64_t end = kRangeBase + kRangeBytes;
  if (bytes > end - r.next) return nullptr;
  const uint64_t pages = (bytes + page - 1) / page * page;
  const uint64_t base = r.next;
  if (pages + page > end - base) return nullptr;  // room for the allocation and its guard page
  if (mprotect(reinterpret_cast<void*>(base), pages, PROT_READ | PROT_WRITE) != 0) return nullptr;
  r.next = base + pages + page;
  r.regions[base] = Region{base, bytes, kernelReadOnly, false};
  used.store(true, std::memory_order_release);
  return reinterpret_cast<void*>(base);
}

bool free(const void* p) {
  Range& r = range();
  std::unique_lock lock(r.mutex);
  auto it = r.regions.find(reinterpret_cast<uint64_t>(p));
  if (it == r.regions.end() || it->second.freed) return false;
  it->second.freed = true;
  bool kept = false;
  if (r.keepers > 0) {
    try {
      r.unreleased.push_back(it->second);
      kept = true;
    } catch (const std::bad_alloc&) {  // no room to remember it: released now, as without a running launch
    }
  }
  if (!kept) releasePages(it->second);
  frees.fetch_add(1, std::memory_order_release);
  return true;
}

PagesKept::PagesKept() {
  Range& r = range();
  std::unique_lock lock(r.mutex);
  ++r.keepers;
}

PagesKept::~PagesKept() {
  Range& r = range();
  std::unique_lock lock(r.mutex);
  if (--r.keepers > 0) return;
  for (const Region& freed : r.unreleased) releasePages(freed);
  r.unreleased.clear();
}

std::optional<Region> regionAtOrBelow(uint64_t address) {
  // Every SVM access of a kernel asks: the last few regions the thread found answer again without the lock while no
  // allocation was freed since and the address lies inside one (a kernel typically works on a few allocations).
  constexpr size_t kRemembered = 4;
  thread_local struct {
    uint64_t frees = ~uint64_t(0);
    std::array<Region, kRemembered> regions{};
    size_t count = 0, next = 0;
  } last;
  const uint64_t now = frees.load(std::memory_order_acquire);
  if (last.frees == now) {
    for (size_t i = 0; i < last.count; ++i)
      if (address - last.regions[i].base < last.regions[i].size) return last.regions[i];
  } else {
    last.frees = now;
    last.count = last.next = 0;
  }
  Range& r = range();
  std::shared_lock lock(r.mutex);
  auto it = r.regions.upper_bound(address);
  if (it == r.regions.begin()) return std::nullopt;
  const Region& found = std::prev(it)->second;
  last.regions[last.next] = found;
  last.next = (last.next + 1) % kRemembered;
  last.count = std::min(last.count + 1, kRemembered);
  return found;
}

std::optional<Region> liveRegionHolding(uint64_t address, uint64_t bytes) {
  auto reg = regionAtOrBelow(address);
  if (!reg || reg->freed || address - reg->base > reg->size || bytes > reg->size - (address - reg->base))
    return std::nullopt;
  return reg;
}

bool inUse() { return used.load(std::memory_order_acquire); }

bool inRange(uint64_t address) { return inUse() && address - kRangeBase < kRangeBytes; }

}  // namespace clref::interpreter::svm
