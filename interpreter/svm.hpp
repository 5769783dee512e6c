// Shared virtual memory (OpenCL 3.0 API §5.6 [[_shared_virtual_memory]]): allocations whose host address is also
// the pointer value a kernel uses, so that host and kernels share pointer-containing data structures.
//
// A kernel pointer is a tagged value (exec.hpp: allocation tag << tagShift | offset). SVM allocations all live in
// the offsets of one tag, kTag: the process reserves the host address range [kTag << 40, (kTag + 1) << 40) (1 TiB,
// inaccessible until allocated) and places every SVM allocation there, so a host pointer into an SVM allocation,
// read by a kernel from anywhere, decodes as tag kTag and an offset, and the interpreter's address of it is the host
// address itself. Allocations are page-aligned with an inaccessible guard page after each, and addresses are never
// reused: a pointer past the end of an allocation or into a freed one is reported, never silently another
// allocation's memory. Only 64-bit modules (tagShift 40) can hold SVM pointers.
#pragma once
#include <cstdint>
#include <optional>

namespace clref::interpreter::svm {

// The range starts at 0x5000'0000'0000 (80 TiB): below where Linux loads position-independent executables and their
// heap (0x5555'5555'4000 and up), far below the mmap area and the stack (0x7fxx'xxxx'xxxx), and outside
// AddressSanitizer's shadow and its allocator (0x6000'0000'0000 to 0x6400'0000'0000).
constexpr uint32_t kTag = 0x50;
constexpr uint32_t kTagShift = 40;
constexpr uint64_t kRangeBytes = uint64_t(1) << kTagShift;
constexpr uint64_t kRangeBase = uint64_t(kTag) << kTagShift;

// One allocation, live or freed.
struct Region {
  uint64_t base = 0;            // host address == kernel pointer value
  uint64_t size = 0;            // bytes requested
  bool kernelReadOnly = false;  // CL_MEM_READ_ONLY: a kernel's write is undefined (choice svm_read_only_write)
  bool freed = false;
};

// Allocates `bytes` (> 0) aligned to `alignment` (a power of two, at most a page), zero-filled. nullptr when the
// range cannot be reserved (another mapping took it) or is used up.
void* allocate(uint64_t bytes, uint64_t alignment, bool kernelReadOnly);
// Frees an allocation by its base address; false (nothing freed) when `p` is not the base of a live allocation. The
// allocation is freed at once for every later lookup; its pages become inaccessible when no PagesKept is alive.
bool free(const void* p);
// Held by a running launch: pages of allocations freed meanwhile stay mapped until the last holder goes. A kernel
// running beside the host (SVM atomics) checks an access against its allocation and then makes it; a clSVMFree
// between the two is the application's error (OpenCL 3.0 API §5.6.1
// [[_svm_sharing_granularity_coarse_and_fine_grained_sharing]] clSVMFree: it must wait for the kernels using the
// memory), but it must not kill the process through an access checked a moment before. Later accesses are reported.
class PagesKept {
 public:
  PagesKept();
  ~PagesKept();
  PagesKept(const PagesKept&) = delete;
  PagesKept& operator=(const PagesKept&) = delete;
};
// The allocation (live or freed) with the largest base at or below `address`, or nullopt: the one `address` points
// into when it is inside [base, base + size), otherwise the one it ran off the end of.
std::optional<Region> regionAtOrBelow(uint64_t address);
// The live allocation holding [address, address + bytes), or nullopt.
std::optional<Region> liveRegionHolding(uint64_t address, uint64_t bytes);
// True once some allocation reserved the range: launches then give kernels the SVM tag.
bool inUse();
// True when the range is reserved and `address` lies in it: memory only SVM allocations occupy. (Before the
// reservation, or when it failed, other memory may lie there.)
bool inRange(uint64_t address);

}  // namespace clref::interpreter::svm
