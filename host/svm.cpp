// host::svm (host.hpp): shared virtual memory, the interpreter's SVM range (interpreter/svm.hpp).
#include "host/host.hpp"

#include "interpreter/svm.hpp"

namespace clref::host {

void* svm::allocate(size_t bytes, size_t alignment, bool kernelReadOnly) {
  return interpreter::svm::allocate(bytes, alignment, kernelReadOnly);
}
bool svm::free(void* p) { return interpreter::svm::free(p); }
bool svm::inRange(const void* p) { return interpreter::svm::inRange(reinterpret_cast<uint64_t>(p)); }
std::optional<svm::Allocation> svm::allocationHolding(const void* p, size_t bytes) {
  const auto r = interpreter::svm::liveRegionHolding(reinterpret_cast<uint64_t>(p), bytes);
  if (!r) return std::nullopt;
  return Allocation{reinterpret_cast<void*>(r->base), size_t(r->size)};
}

}  // namespace clref::host
