// What the SPIR-V fuzz targets do with an input: load the module, then lower and run every kernel on a tiny NDRange
// with a small instruction budget, every argument bound to something of its kind.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clref_fuzz {

// Returns for every documented outcome: the module refused (interpreter::ModuleError), the host API refusing the
// launch (host::Error), a kernel fault or warning in the run's result. Anything else escapes and is a finding:
// libFuzzer reports the uncaught exception, as `clref run` would report an internal error.
void runModule(const uint8_t* data, size_t size);

// The module's words (the input's bytes, little-endian, a partial last word dropped).
std::vector<uint32_t> wordsOf(const uint8_t* data, size_t size);

}  // namespace clref_fuzz
