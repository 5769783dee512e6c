// The order of the layer's work at exit (exit_order.hpp).
#include "layer/exit_order.hpp"

#include <atomic>

// The C++ ABI's registration of a static's destructor (Itanium C++ ABI §3.3.5.3 [external]), which the compiler calls
// when a static with a destructor is constructed; the linker sends the layer's calls to __wrap___cxa_atexit
// (layer/CMakeLists.txt), and __real___cxa_atexit is the C library's.
extern "C" int __real___cxa_atexit(void (*function)(void*), void* argument, void* dso);
extern "C" int __wrap___cxa_atexit(void (*function)(void*), void* argument, void* dso);
extern "C" void* __dso_handle __attribute__((visibility("hidden")));

namespace clref::layer {
namespace {

std::atomic<void (*)()> drainAtExit{nullptr};

void callDrain(void*) {
  if (void (*drain)() = drainAtExit.load(std::memory_order_acquire)) drain();
}

}  // namespace

void runAtExitBeforeStatics(void (*drain)()) {
  drainAtExit.store(drain, std::memory_order_release);
  __real___cxa_atexit(callDrain, nullptr, &__dso_handle);
}

}  // namespace clref::layer

// Exit handlers run in the reverse order of their registration: the drain registered right after a destructor runs
// before it. Every static is registered from the layer's own code, with the layer's handle (`dso`), so the drain
// registered beside it also runs when the layer is unloaded.
extern "C" int __wrap___cxa_atexit(void (*function)(void*), void* argument, void* dso) {
  const int registered = __real___cxa_atexit(function, argument, dso);
  if (registered == 0 && clref::layer::drainAtExit.load(std::memory_order_acquire))
    __real___cxa_atexit(clref::layer::callDrain, nullptr, dso);
  return registered;
}
