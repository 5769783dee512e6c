// Fuzz target: SPIR-V bytes → load, validate, lower, run every kernel (run_module.hpp). libFuzzer mutates the bytes;
// the dictionary (spirv.dict, generated from the SPIR-V grammar) gives it whole instruction words.
#include <cstddef>
#include <cstdint>

#include "run_module.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  clref_fuzz::runModule(data, size);
  return 0;
}
