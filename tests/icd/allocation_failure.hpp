// Host allocation failure on demand, to provoke the spec's CL_OUT_OF_HOST_MEMORY: the test
// executable replaces the global operator new, and while withoutHostMemory runs, every
// allocation made by the calling thread (clref's library included: it is a shared library and
// takes operator new from the executable) throws std::bad_alloc. Other threads (the executor's
// pool) allocate as usual.
#pragma once

#include <functional>

#include "error_table.hpp"

namespace clref_test {

// Runs f with the calling thread's allocations failing, and returns what f returns. Build every
// object f captures before calling: only f's own call into the API should see the failures.
cl_int withoutHostMemory(const std::function<cl_int()>& f);

// How many allocations failed during the last withoutHostMemory (0: the call allocated nothing,
// so its CL_OUT_OF_HOST_MEMORY cannot be provoked this way).
long failedAllocations();

}  // namespace clref_test
