// Per-byte checker state for large allocations: an array that reads as zeros until written, taken from the
// operating system's zero pages (anonymous mmap) in transparent huge pages where the system allows them. A buffer of
// 4 MiB has 100 MiB of race state; zero-filling it with the C++ library, page by 4 KiB page, costs more than the
// kernel's whole run. Internal to the interpreter's checkers.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace clref::interpreter {

template <class T> class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "all-zero bytes must be a valid T");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t count) : count_(count) {
    if (!count) return;
    bytes_ = (count * sizeof(T) + kHuge - 1) / kHuge * kHuge;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes_, MADV_HUGEPAGE);  // a hint: without huge pages the array still works
    data_ = static_cast<T*>(p);
  }
  ZeroedArray(ZeroedArray&& o) noexcept { swap(o); }
  ZeroedArray& operator=(ZeroedArray&& o) noexcept {
    swap(o);
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ~ZeroedArray() {
    if (data_) munmap(data_, bytes_);
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  static constexpr size_t kHuge = size_t(2) << 20;
  void swap(ZeroedArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    std::swap(bytes_, o.bytes_);
  }
  T* data_ = nullptr;
  size_t count_ = 0, bytes_ = 0;
};

}  // namespace clref::interpreter
