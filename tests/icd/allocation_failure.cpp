#include "allocation_failure.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace clref_test {
namespace {
thread_local bool failing = false;
thread_local long failures = 0;

void* allocate(std::size_t n, std::size_t alignment) {
  if (failing) {
    ++failures;
    throw std::bad_alloc();
  }
  if (n == 0) n = 1;
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment)
                : std::malloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

cl_int withoutHostMemory(const std::function<cl_int()>& f) {
  failures = 0;
  failing = true;
  cl_int e;
  try {
    e = f();
  } catch (...) {
    failing = false;
    throw;
  }
  failing = false;
  return e;
}

long failedAllocations() { return failures; }

}  // namespace clref_test

// The replaceable global allocation functions ([new.delete]): every form routes through
// allocate(), and every deallocation to free().
void* operator new(std::size_t n) { return clref_test::allocate(n, 0); }
void* operator new[](std::size_t n) { return clref_test::allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return clref_test::allocate(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return clref_test::allocate(n, std::size_t(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return clref_test::allocate(n, 0);
  } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return operator new(n, std::nothrow); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
